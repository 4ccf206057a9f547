#!/bin/bash
# deps_venv.sh VENV REQUIREMENTS - create the project's Python virtual
# environment and install the pinned packages of REQUIREMENTS into it when
# they are missing or the file changed. A copy of the requirements inside
# the venv records what was installed. If `python3 -m venv` is unavailable
# (Debian's python3 without python3-venv), python3-venv is installed first.
set -euo pipefail
venv=$1 req=$2
if [ -x "$venv/bin/python" ] && cmp -s "$req" "$venv/.requirements"; then
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
cp "$req" "$venv/.requirements"
