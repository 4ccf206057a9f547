#!/usr/bin/env bash
# test_ecp5_flow.sh - the ECP5 timing flow (scripts/ecp5_flow.py) on a tiny
# design (tb/ecp5/kolo_ecp5_flow_dut.v), in seconds:
#   - the unit's cells are counted without the wrapper's: exactly WIDTH+1+4
#     flip-flops (not the wrapper's shift registers), LUT4 > 0;
#   - no port of the unit became a pin: 4 I/O (clk, clk2, ooc_din, ooc_dout);
#   - both clock domains get an Fmax, and a critical path is reported;
#   - the second run is a cache hit; the key changes with a parameter and
#     with the content of a source file, and not with a touch; a string
#     parameter naming a file is taken, and the key follows the file;
#   - a design over the device's capacity (lowered by ECP5_CAPACITY) stops
#     after synthesis, names the resource, and the refusal is kept;
#   - in context (--lpf, --bit; tb/ecp5/kolo_ecp5_flow_board.v): a real
#     bitstream (the ECP5 preamble), the design's own 24 flip-flops, 9 pins,
#     the bitstream again from the cache, and a port the LPF leaves unplaced
#     fails the build.
set -euo pipefail
cd "${TOP:-$(dirname "$0")/..}"
out=${BUILD:-build}/ecp5-test
rm -rf "$out"
mkdir -p "$out/src"
cp tb/ecp5/kolo_ecp5_flow_dut.v "$out/src/"
dut=$out/src/kolo_ecp5_flow_dut.v
flow() {
  scripts/ecp5_flow.py --top kolo_ecp5_flow_dut --name flowtest --files "$dut" --out "$out" \
    --clock clk=300 --clock clk2=200 --port-clock x=clk2 --port-clock y=clk2 "$@"
}
fail() { echo "FAIL ecp5-flow: $*"; exit 1; }

flow -P WIDTH=8 --bench > "$out/run1.txt" 2>&1 || { cat "$out/run1.txt"; fail "flow failed"; }
bench() { awk -v n="$2" '$1 == "BENCH" && $2 == n {print $3}' "$1"; }
[ "$(bench "$out/run1.txt" ff_ecp5_flowtest)" = 13 ] \
  || { cat "$out/run1.txt"; fail "expected 13 FFs (8 + 1 + 4), unit cells miscounted"; }
[ "$(bench "$out/run1.txt" lut4_ecp5_flowtest)" -gt 0 ] || fail "no LUT4 counted"
for b in fmax_ecp5_flowtest fmax_ecp5_flowtest_clk2; do
  v=$(bench "$out/run1.txt" $b)
  awk -v v="${v:-0}" 'BEGIN {exit !(v > 50)}' || fail "$b: '$v' MHz"
done
io=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['utilisation']['TRELLIS_IO']['used'])" \
     "$out/flowtest/result.json")
[ "$io" = 4 ] || fail "$io I/O pins used, expected 4 (two clocks, ooc_din, ooc_dout)"
grep -q "critical path .* LUT levels" "$out/run1.txt" || fail "no critical path"
[ -s "$out/flowtest/critical_path.txt" ] || fail "no critical_path.txt"

flow -P WIDTH=8 --bench > "$out/run2.txt" 2>&1 || fail "cached run failed"
grep -q ": cached key" "$out/run2.txt" || fail "second run was not a cache hit"
[ "$(bench "$out/run2.txt" ff_ecp5_flowtest)" = 13 ] || fail "cached result differs"

# a design over the device's capacity stops after synthesis, before place and
# route, naming the resource; the refusal is kept: the same sources stop at
# once (ECP5_CAPACITY lowers the 85F's 83 640 flip-flops to 13: WIDTH 9 has 14)
if ECP5_CAPACITY=ff=13 flow -P WIDTH=9 > "$out/nofit1.txt" 2>&1; then fail "a design over capacity was accepted"; fi
grep -q "does not fit .*flip-flops 14 of 13" "$out/nofit1.txt" || { cat "$out/nofit1.txt"; fail "no capacity message"; }
if grep -q "nextpnr-ecp5 on" "$out/nofit1.txt"; then fail "place and route ran for a design that does not fit"; fi
ls "$out"/cache/flowtest-*/nofit.json > /dev/null 2>&1 || fail "the refusal was not kept"
if ECP5_CAPACITY=ff=13 flow -P WIDTH=9 > "$out/nofit2.txt" 2>&1; then fail "second run over capacity accepted"; fi
grep -q "does not fit .*cached key" "$out/nofit2.txt" && ! grep -q "synth_ecp5 of" "$out/nofit2.txt" \
  || { cat "$out/nofit2.txt"; fail "the kept refusal was not used"; }
if ECP5_CAPACITY=luts=1 flow -P WIDTH=9 > "$out/nofit3.txt" 2>&1; then fail "a bad ECP5_CAPACITY was taken"; fi
grep -q "ECP5_CAPACITY: 'luts=1' is not one of" "$out/nofit3.txt" || { cat "$out/nofit3.txt"; fail "bad ECP5_CAPACITY message"; }

k8=$(flow -P WIDTH=8 --key-only | cut -d' ' -f1)
[ "$(flow -P WIDTH=12 --key-only | cut -d' ' -f2)" = not-cached ] || fail "key ignores parameters"
touch "$dut"
[ "$(flow -P WIDTH=8 --key-only)" = "$k8 cached" ] || fail "key changed on a touch"
echo "// changed" >> "$dut"
[ "$(flow -P WIDTH=8 --key-only | cut -d' ' -f2)" = not-cached ] || fail "key ignores source content"
# a string parameter naming a file (the board's firmware image): Yosys takes
# it, and the key follows the file's content
echo "@0 5a" > "$out/src/init.hex"
ks=$(flow -P WIDTH=8 -P "INIT=\"$out/src/init.hex\"" --key-only) || fail "a string parameter was refused"
echo "@0 a5" > "$out/src/init.hex"
[ "$(flow -P WIDTH=8 -P "INIT=\"$out/src/init.hex\"" --key-only | cut -d' ' -f1)" != "${ks%% *}" ] \
  || fail "key ignores the content of a file a string parameter names"

# in context: a board top with its LPF, to a bitstream
board() {
  scripts/ecp5_flow.py --top kolo_ecp5_flow_board --name flowboard --files tb/ecp5/kolo_ecp5_flow_board.v \
    --out "$out" --clock clk12=12 --ecppack-opt=--compress "$@"
}
board --lpf tb/ecp5/kolo_ecp5_flow_board.lpf --bit "$out/board.bit" --bench > "$out/board1.txt" 2>&1 \
  || { cat "$out/board1.txt"; fail "board flow failed"; }
[ "$(bench "$out/board1.txt" ff_ecp5_flowboard)" = 24 ] || { cat "$out/board1.txt"; fail "board: expected 24 FFs"; }
[ -n "$(bench "$out/board1.txt" bitstream_ecp5_flowboard_seconds)" ] || fail "board: no bitstream time"
python3 -c "import sys; d=open(sys.argv[1],'rb').read(); sys.exit(0 if b'\\xff\\xff\\xbd\\xb3' in d[:4096] else 1)" \
  "$out/board.bit" || fail "board: $out/board.bit has no ECP5 preamble"
io=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['utilisation']['TRELLIS_IO']['used'])" \
     "$out/flowboard/result.json")
[ "$io" = 9 ] || fail "board: $io I/O pins, expected 9"
rm "$out/board.bit"
board --lpf tb/ecp5/kolo_ecp5_flow_board.lpf --bit "$out/board.bit" > "$out/board2.txt" 2>&1 || fail "board: cached run"
grep -q ": cached key" "$out/board2.txt" && [ -s "$out/board.bit" ] || fail "board: no bitstream from the cache"
grep -v 'led_n\[7\]' tb/ecp5/kolo_ecp5_flow_board.lpf > "$out/unplaced.lpf"
if board --lpf "$out/unplaced.lpf" > "$out/board3.txt" 2>&1; then fail "board: an unplaced port was accepted"; fi
grep -q "unconstrained" "$out/board3.txt" || { cat "$out/board3.txt"; fail "board: no 'unconstrained' message"; }
echo "PASS ecp5-flow ($(grep -o 'key .*' "$out/run1.txt" | head -1); board $(grep -o 'key .*' "$out/board1.txt" | head -1))"
