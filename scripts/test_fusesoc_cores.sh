#!/bin/bash
# test_fusesoc_cores.sh - make test-fusesoc-cores: kolo's FuseSoC cores
# (scripts/gen_cores.py; docs/boards.md "kolo as an IP: FuseSoC"):
#   1. the committed cores are what the generator makes from rtl/ and the
#      boards' board.toml (nothing stale);
#   2. FuseSoC finds every core, sets up each board's vendor project
#      (Vivado, Quartus, Trellis: Edalize writes the project script, no
#      vendor tool runs) with exactly the board's source list, constraints,
#      top, part and IP hook, and runs the IP core's Verilator lint targets;
#   3. plants: a core with one Verilog file dropped must be found stale; a
#      generator that drops a platform file from the board cores must be
#      found by the FuseSoC set-up check.
set -u
B=${BUILD:-build}/fusesoc
PY=${VENV_BIN:-.venv/bin}/python
rm -rf "$B"; mkdir -p "$B"
fails=0
ok()   { echo "ok   $1"; }
fail() { echo "FAIL $1"; fails=$((fails + 1)); }

if $PY scripts/gen_cores.py check; then ok "the committed cores are up to date"; else fail "stale cores (make cores)"; fi
if $PY scripts/gen_cores.py verify "$B/real"; then ok "FuseSoC: every core set up, file lists equal, lint passed"
else fail "FuseSoC set-up or lint"; fi

# plant 1: kolo.core with its first rtl/common file dropped
mkdir -p "$B/stale"
for c in kolo.core boards/*/kolo_board_*.core; do mkdir -p "$B/stale/$(dirname "$c")"; cp "$c" "$B/stale/$c"; done
first=$(grep -m1 -n -- '- rtl/common/' "$B/stale/kolo.core" | cut -d: -f1)
sed -i "${first}d" "$B/stale/kolo.core"
out=$($PY scripts/gen_cores.py check --root "$B/stale" 2>&1)
if [ $? -ne 0 ] && echo "$out" | grep -q "kolo.core is stale"; then ok "plant stale: $(echo "$out" | head -1)"
else fail "plant stale not caught: $out"; fi

# plant 2: the board cores generated without their first platform file, in
# a tree of links to the repository's files
mkdir -p "$B/plant"
cp -rs "$PWD/rtl" "$PWD/boards" "$B/plant/"
find "$B/plant" -name '*.core' -delete
KOLO_CORES_PLANT=drop-platform $PY scripts/gen_cores.py write --root "$B/plant" > /dev/null
out=$($PY scripts/gen_cores.py verify "$B/plantbuild" --root "$B/plant" 2>&1)
if [ $? -ne 0 ] && echo "$out" | grep -q "differ from the board's list: missing \['rtl/platform/common/"; then
    ok "plant drop-platform: $(echo "$out" | grep -m1 'differ from')"
else fail "plant drop-platform not caught: $(echo "$out" | tail -5)"; fi

echo "test-fusesoc-cores: $fails failed"
[ $fails -eq 0 ]
