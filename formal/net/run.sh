#!/usr/bin/env bash
# formal/net/run.sh - proof 3 of issue 19: no deadlock in a ring of real
# kolo_routers (kolo_ring_formal.v). Builds the model with Yosys (memories
# kept as SMT arrays: memory -nomap -nordff) and runs yosys-smtbmc with yices.
#
# usage: formal/net/run.sh [-o OUTDIR] [-d DEPTH] [-skip S] [-mode bmc|ind] [-p NAME=VALUE]...
#   -p sets a parameter of kolo_ring_formal (N, BUBBLE, ESC_SLOTS, MAX_LEN, K, B,
#      PKTS, WIN)
#   -skip S: check the assertions only in steps S..DEPTH-1 (the steps before
#      are unrolled, not checked: with WIN set the drain property cannot fail
#      before step WIN+B+1, and checking every step costs ~2x per step)
#   -router-asserts: also check the routers' own assertions (slower)
#   -expect-fail: succeed only if the BMC finds a counterexample (negative control)
# Prints "formal net <name> <mode>: PASS|FAIL (<seconds> s, depth D)"; on a
# counterexample the VCD trace is OUTDIR/trace.vcd.
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out="$root/build/net/default"; depth=30; skip=0; mode=bmc; expect_fail=0; rasserts=0; params=()
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift 2 ;;
    -d) depth="$2"; shift 2 ;;
    -skip) skip="$2"; shift 2 ;;
    -mode) mode="$2"; shift 2 ;;
    -p) params+=("$2"); shift 2 ;;
    -expect-fail) expect_fail=1; shift ;;
    -router-asserts) rasserts=1; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
name=$(basename "$out")
smtbmc=yosys-smtbmc
[ -x "$root/.venv/bin/yices-smt2" ] && export PATH="$root/.venv/bin:$PATH"
command -v yices-smt2 >/dev/null || { echo "run.sh: yices-smt2 missing (make deps)" >&2; exit 2; }

chparams=""
for p in "${params[@]+"${params[@]}"}"; do chparams+="chparam -set ${p%%=*} ${p#*=} kolo_ring_formal; "; done
rtl=(rtl/router/kolo_route_compute.v rtl/router/kolo_router.v rtl/router/kolo_router_crossbar.v
     rtl/router/kolo_router_input.v rtl/router/kolo_router_output.v rtl/router/kolo_router_switch.v
     rtl/router/kolo_router_vc_select.v rtl/common/kolo_ram_sdp.v rtl/common/kolo_credit_counter.v
     rtl/common/kolo_arb_rr.v rtl/common/kolo_arb_matrix.v rtl/common/kolo_alloc_sep.v
     rtl/common/kolo_fifo_sync.v)
now() { date +%s.%N; }
t0=$(now)
cd "$root"
# The RAMs stay memories (SMT arrays): mapped to flip-flops they are ~100k
# bits per router, too many for any engine here.
# Without -router-asserts the RTL is read as for synthesis (no FORMAL, no
# KOLO_ASSERT guards): only the harness's properties are checked.
if [ $rasserts -eq 1 ]; then read_rtl="read_verilog -sv -formal -Irtl/include ${rtl[*]}"
else read_rtl="read_verilog -sv -DSYNTHESIS -Irtl/include ${rtl[*]}"; fi
if ! yosys -q -l "$out/model.log" -p "$read_rtl; read_verilog -sv -formal -Irtl/include formal/net/kolo_ring_formal.v; \
      $chparams prep -top kolo_ring_formal; flatten; opt -fast; memory -nomap -nordff; opt; opt_mem; \
      async2sync; opt_dff -sat; opt -full; dffunmap; opt_clean; write_smt2 -wires $out/model.smt2" >/dev/null 2>&1; then
  echo "formal net $name model: FAIL (log $out/model.log)"; exit 1
fi
t1=$(now)
args=(-t "$skip:$depth")
[ "$mode" = ind ] && args=(-i -t "$depth")
rm -f "$out/trace.vcd"
timeout "${FORMAL_TIMEOUT:-3600}" $smtbmc -s yices --presat "${args[@]}" --dump-vcd "$out/trace.vcd" \
  "$out/model.smt2" > "$out/$mode.log" 2>&1
rc=$?
t2=$(now)
tm=$(awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN{printf "model %.0f s, %s %.0f s", b-a, "solver", c-b}')
if [ $rc -eq 0 ]; then
  status=PASS; [ $expect_fail -eq 1 ] && status="FAIL (no counterexample: the negative control did not fail)"
  echo "formal net $name $mode: $status ($tm, depth $depth)"
  [ $expect_fail -eq 1 ] && exit 1
  exit 0
fi
if grep -q "Assert failed" "$out/$mode.log"; then
  step=$(grep -oE "Checking assertions in step [0-9]+" "$out/$mode.log" | tail -1 | grep -oE "[0-9]+$")
  grep "Assert failed" "$out/$mode.log" | head -5 | sed 's/^##[^A]*/  /'
  if [ $expect_fail -eq 1 ]; then
    echo "formal net $name $mode: PASS (counterexample as expected, $tm, failing step $step, trace $out/trace.vcd)"
    exit 0
  fi
  echo "formal net $name $mode: FAIL ($tm, failing step $step, trace $out/trace.vcd)"
  exit 1
fi
echo "formal net $name $mode: FAIL (solver: rc $rc, $tm; log $out/$mode.log)"
exit 1
