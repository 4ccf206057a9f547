#!/usr/bin/env bash
# formal/router/run.sh - proof 2 of issue 19: the bubble rule and VC
# allocation of one kolo_router in a nondeterministic, protocol-legal
# environment (formal/router/kolo_router_formal.v; properties P1..P5 there,
# plus the router's own `ifdef FORMAL assertions and `KOLO_ASSERT guards).
# Builds the model with Yosys 0.23 (the input units' RAMs kept as SMT
# arrays) and runs yosys-smtbmc with yices.
#
# usage: formal/router/run.sh [-o OUTDIR] [-d DEPTH] [-mode bmc|ind] [-p NAME=VALUE]...
#            [-plant] [-expect-fail]
#   -p      parameter of kolo_router_formal (N, MAX_LEN, BUBBLE, ESC_SLOTS)
#   -mode   bmc: every step 0..DEPTH-1; ind: k-induction with k = DEPTH
#           (base case and induction step; PASS is an unbounded proof)
#   -plant  negative control: BUBBLE = 0 (a class-0 packet enters a ring
#           with one free slot); use with -expect-fail
#   -expect-fail  succeed only if a counterexample is found
#   -presat  check in every step that the assumptions are satisfiable (slower)
# Prints "formal router <name> <mode>: PASS|FAIL (...)"; a counterexample's
# trace is OUTDIR/trace.vcd (gtkwave OUTDIR/trace.vcd).
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/build/router_formal/default"; depth=12; mode=bmc; expect_fail=0; presat=; params=()
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift 2 ;;
    -d) depth="$2"; shift 2 ;;
    -mode) mode="$2"; shift 2 ;;
    -p) params+=("$2"); shift 2 ;;
    -plant) params+=("BUBBLE=0"); shift ;;
    -expect-fail) expect_fail=1; shift ;;
    -presat) presat=--presat; shift ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
name=$(basename "$out")
[ -x "$root/.venv/bin/yices-smt2" ] && export PATH="$root/.venv/bin:$PATH"
command -v yices-smt2 >/dev/null || { echo "run.sh: yices-smt2 missing (make deps)" >&2; exit 2; }

chparams=""
for p in "${params[@]+"${params[@]}"}"; do chparams+="chparam -set ${p%%=*} ${p#*=} kolo_router_formal; "; done
rtl=(rtl/router/kolo_route_compute.v rtl/router/kolo_router.v rtl/router/kolo_router_crossbar.v
     rtl/router/kolo_router_input.v rtl/router/kolo_router_output.v rtl/router/kolo_router_switch.v
     rtl/router/kolo_router_vc_select.v rtl/common/kolo_ram_sdp.v rtl/common/kolo_credit_counter.v
     rtl/common/kolo_arb_rr.v rtl/common/kolo_arb_matrix.v rtl/common/kolo_alloc_sep.v
     rtl/common/kolo_fifo_sync.v)
now() { date +%s.%N; }
t0=$(now)
cd "$root"
# RAMs stay memories (SMT arrays, memory -nomap): as flip-flops they are
# 7 x 512 x 71 bits. The RTL is read with -formal: its own assertions count.
if ! yosys -q -l "$out/model.log" -p "read_verilog -sv -formal -Irtl/include ${rtl[*]}; \
      read_verilog -sv -formal -Irtl/include formal/router/kolo_router_formal.v; \
      $chparams prep -top kolo_router_formal; flatten; opt -fast; memory -nomap -nordff; opt; opt_mem; \
      async2sync; opt_dff -sat; opt -full; dffunmap; opt_clean; write_smt2 -wires $out/model.smt2" >/dev/null 2>&1; then
  echo "formal router $name model: FAIL (log $out/model.log)"; exit 1
fi
t1=$(now)
case "$mode" in
  bmc) args=(-t "$depth") ;;
  ind) args=(-i -t "$depth") ;;
  *) echo "run.sh: unknown mode $mode" >&2; exit 2 ;;
esac
rm -f "$out/trace.vcd"
timeout "${FORMAL_TIMEOUT:-3600}" yosys-smtbmc -s yices $presat "${args[@]}" --dump-vcd "$out/trace.vcd" \
  "$out/model.smt2" > "$out/$mode.log" 2>&1
rc=$?
t2=$(now)
tm=$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN{printf "model %.0f s, solver %.0f s", b-a, c-b}')
if [ $rc -eq 0 ]; then
  if [ $expect_fail -eq 1 ]; then
    echo "formal router $name $mode: FAIL (no counterexample: the negative control did not fail; $tm, depth $depth)"
    exit 1
  fi
  echo "formal router $name $mode: PASS ($tm, depth $depth)"
  exit 0
fi
if grep -q "Assert failed" "$out/$mode.log"; then
  step=$(grep -oE "(Checking assertions in|induction) step [0-9]+" "$out/$mode.log" | tail -1 | grep -oE "[0-9]+$")
  grep "Assert failed" "$out/$mode.log" | head -5 | sed 's/^##[^A]*/  /'
  if [ $expect_fail -eq 1 ] && [ "$mode" = bmc ]; then
    echo "formal router $name $mode: PASS (counterexample as expected, $tm, failing step $step, trace $out/trace.vcd)"
    exit 0
  fi
  echo "formal router $name $mode: FAIL ($tm, failing step $step, trace $out/trace.vcd)"
  exit 1
fi
last=$(grep -oE "Checking assertions in step [0-9]+" "$out/$mode.log" | tail -1 | grep -oE "[0-9]+$")
if [ $rc -eq 124 ]; then
  echo "formal router $name $mode: TIMEOUT ($tm; steps 0..$((${last:-0} - 1)) passed, step ${last:-?} not decided; log $out/$mode.log)"
  exit 1
fi
echo "formal router $name $mode: FAIL (solver: rc $rc, $tm; log $out/$mode.log)"
exit 1
