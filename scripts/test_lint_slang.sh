#!/usr/bin/env bash
# test_lint_slang.sh - the strict front end of `make lint` (scripts/lint_slang.py)
# catches what the three open tools let through. Planted bugs, each in a copy
# under build/lint-slang/:
#   1. kolo_link_core.v with miscabled_q declared after its first use (the
#      shape kolo_ni.v had): must fail with "used before its declaration";
#   2. kolo_fifo_async.v with rd_gray declared after the write side reads it;
#   3. a module with an implicit net under `default_nettype none;
#   4. a warning only (an oversized literal): warnings fail too;
#   5. scripts/check_functions.py (a function reads only its arguments: Icarus
#      re-evaluates a continuous assignment calling it only when they change):
#      every file of rtl/ passes, and kolo_router_vc_select.v with esc_ok
#      reading fe1/fe2 from the module (the bug that lost every NI completion
#      of the cocotb PCIe tests) fails.
# And the real files pass. Verilator, Icarus and Yosys accept plants 1 and 2
# (checked here, so the test shows why the fourth tool is there).
set -euo pipefail
cd "${TOP:-$(dirname "$0")/..}"
py=${VENV_BIN:-.venv/bin}/python
out=${BUILD:-build}/lint-slang
rm -rf "$out"; mkdir -p "$out"
mapfile -t files < <(find rtl -name '*.v' -not -path 'rtl/platform/*' | sort)
fail=0
slang() { "$py" scripts/lint_slang.py -I rtl/include "$@" > "$out/last.txt" 2>&1; }

expect() {  # name pattern top file-replacements...
  local name=$1 pat=$2 top=$3; shift 3
  local list=("${files[@]}") f
  for f in "$@"; do  # orig=copy
    for i in "${!list[@]}"; do [ "${list[$i]}" = "${f%%=*}" ] && list[$i]=${f#*=}; done
  done
  if slang --top "$top" "${list[@]}"; then
    echo "FAIL $name: slang passed the planted bug"; fail=1
  elif ! grep -q -- "$pat" "$out/last.txt"; then
    echo "FAIL $name: slang failed without '$pat':"; sed 's/^/    /' "$out/last.txt"; fail=1
  else
    echo "ok   $name: $(grep -m1 -- "$pat" "$out/last.txt" | sed 's/^.*\(error\|warning\): //')"
  fi
}

# 1: the declaration of miscabled_q moved below its first use
mkdir -p "$out/p1"
awk '/^  reg             miscabled_q;/ {held=$0; next}
     /^  reg \[16\*32-1:0\] cnt;/ {print; print held; next} {print}' \
    rtl/link/kolo_link_core.v > "$out/p1/kolo_link_core.v"
cmp -s rtl/link/kolo_link_core.v "$out/p1/kolo_link_core.v" && { echo "FAIL plant 1 not applied"; exit 1; }
expect "plant 1 (use before declaration, kolo_link_core)" "identifier 'miscabled_q' used before its declaration" \
    kolo_link_core "rtl/link/kolo_link_core.v=$out/p1/kolo_link_core.v"
# the open tools accept it
verilator --lint-only -Wall -Irtl/include $(printf -- '-y %s ' $(printf '%s\n' "${files[@]}" | xargs -n1 dirname | sort -u)) \
    --top-module kolo_link_core "$out/p1/kolo_link_core.v" > "$out/verilator.txt" 2>&1 \
  && echo "ok   plant 1: Verilator accepts it (why slang is in make lint)" \
  || echo "note plant 1: Verilator also rejects it now"

# 2: rd_gray declared after the write side samples it
mkdir -p "$out/p2"
awk '/^  reg \[PW-1:0\] rd_gray;/ {next}
     /^  reg \[PW-1:0\] rd_bin;/ {print "  reg [PW-1:0] rd_bin;"; print "  reg [PW-1:0] rd_gray;"; next} {print}' \
    rtl/common/kolo_fifo_async.v > "$out/p2/kolo_fifo_async.v"
expect "plant 2 (use before declaration, kolo_fifo_async)" "identifier 'rd_gray' used before its declaration" \
    kolo_fifo_async "rtl/common/kolo_fifo_async.v=$out/p2/kolo_fifo_async.v"

# 3: an implicit net
cat > "$out/p3.v" <<'V'
`default_nettype none
module p3 (input wire a, output wire y);
  assign tmp = a;
  assign y = tmp;
endmodule
V
files+=("$out/p3.v")
expect "plant 3 (implicit net)" "use of undeclared identifier 'tmp'" p3

# 4: a warning
cat > "$out/p4.v" <<'V'
`default_nettype none
module p4 (input wire [3:0] a, output wire [3:0] y);
  assign y = a + 8'd300;
endmodule
V
files+=("$out/p4.v")
expect "plant 4 (warning: literal overflow)" "vector literal too large" p4

# the real files are clean
for top in kolo_link_core kolo_fifo_async kolo_ni; do
  if slang --top $top "${files[@]::${#files[@]}-2}"; then echo "ok   $top as in rtl/: clean"
  else echo "FAIL $top as in rtl/:"; sed 's/^/    /' "$out/last.txt"; fail=1; fi
done
# 5: functions read only their arguments (all of rtl/, vendor primitives black boxes)
mapfile -t all_rtl < <(find rtl -name '*.v' | sort)
if "$py" scripts/check_functions.py -I rtl/include "${all_rtl[@]}" > "$out/functions.txt" 2>&1; then
  echo "ok   functions of rtl/ read only their arguments: $(tail -n 1 "$out/functions.txt")"
else echo "FAIL functions of rtl/:"; sed 's/^/    /' "$out/functions.txt"; fail=1; fi
mkdir -p "$out/p5"
sed -e 's/esc_ok = f1\[/esc_ok = fe1[/g' -e 's/esc_ok = f2\[/esc_ok = fe2[/' \
    rtl/router/kolo_router_vc_select.v > "$out/p5/kolo_router_vc_select.v"
cmp -s rtl/router/kolo_router_vc_select.v "$out/p5/kolo_router_vc_select.v" && { echo "FAIL plant 5 not applied"; exit 1; }
p5_files=()
for f in "${all_rtl[@]}"; do
  [ "$f" = rtl/router/kolo_router_vc_select.v ] && f=$out/p5/kolo_router_vc_select.v; p5_files+=("$f"); done
if "$py" scripts/check_functions.py -I rtl/include "${p5_files[@]}" > "$out/p5.txt" 2>&1; then
  echo "FAIL plant 5: check_functions passed esc_ok reading fe1/fe2"; fail=1
elif ! grep -q "function esc_ok reads or writes fe1" "$out/p5.txt"; then
  echo "FAIL plant 5: check_functions failed without naming esc_ok/fe1:"; sed 's/^/    /' "$out/p5.txt"; fail=1
else echo "ok   plant 5 (esc_ok reads fe1/fe2 of its module): $(grep -m1 esc_ok "$out/p5.txt")"; fi

[ $fail = 0 ] && echo "lint-slang: PASS" || echo "lint-slang: FAIL"
exit $fail
