#!/usr/bin/env bash
# formal/lib.sh - what the proofs over real kolo_routers share: the router's
# RTL file list, the tools check, the Yosys 0.23 model build and the
# yosys-smtbmc run and verdict. Sourced by formal/router/run.sh (proof 2) and
# formal/net/run.sh (proof 3); each keeps only its own options and harness.
#
# Run on its own, it prints the router's RTL file list, one per line (the
# SymbiYosys files formal/router/router.sby and formal/net/deadlock.sby list
# the same files by hand: scripts/check_formal_files.sh, test-formal-files,
# checks that they agree with this list).
#
# Functions (formal_root is the repository root; every path is relative to it):
#   formal_tools                 yices-smt2 on PATH (the project venv first), or exit 2
#   formal_model OUT LABEL READ HARNESS TOP CHPARAMS
#                                Yosys: READ (the RTL read command), then the
#                                harness (read with -formal), CHPARAMS, prep
#                                -top TOP, RAMs kept as SMT arrays; writes
#                                OUT/model.smt2 or prints "LABEL model: FAIL"
#                                and returns 1
#   formal_solve OUT MODE ARGS...
#                                yosys-smtbmc -s yices ARGS on OUT/model.smt2
#                                (timeout FORMAL_TIMEOUT, default 3600 s), log
#                                OUT/MODE.log, trace OUT/trace.vcd; sets
#                                formal_rc
#   formal_verdict LABEL MODE DEPTH EXPECT_FAIL
#                                prints "LABEL MODE: PASS|FAIL|TIMEOUT (...)"
#                                from formal_rc and the log; returns the exit
#                                status. With EXPECT_FAIL 1 (a negative
#                                control), only a BMC counterexample passes:
#                                a failed induction step is no counterexample.
formal_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

ROUTER_RTL=(rtl/router/kolo_route_compute.v rtl/router/kolo_router.v rtl/router/kolo_router_crossbar.v
            rtl/router/kolo_router_input.v rtl/router/kolo_router_output.v rtl/router/kolo_router_switch.v
            rtl/router/kolo_router_vc_select.v rtl/common/kolo_ram_sdp.v rtl/common/kolo_credit_counter.v
            rtl/common/kolo_arb_rr.v rtl/common/kolo_arb_matrix.v rtl/common/kolo_alloc_sep.v
            rtl/common/kolo_fifo_sync.v)

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  printf '%s\n' "${ROUTER_RTL[@]}"
  exit 0
fi

formal_now() { date +%s.%N; }

formal_tools() {
  [ -x "$formal_root/.venv/bin/yices-smt2" ] && export PATH="$formal_root/.venv/bin:$PATH"
  command -v yices-smt2 >/dev/null || { echo "run.sh: yices-smt2 missing (make deps)" >&2; exit 2; }
}

formal_model() {
  local out=$1 label=$2 read_rtl=$3 harness=$4 top=$5 chparams=$6
  mkdir -p "$out"
  formal_t0=$(formal_now)
  # The RAMs stay memories (SMT arrays, memory -nomap -nordff): as flip-flops
  # they are 7 x 512 x 71 bits per router, too many for any engine here.
  if ! (cd "$formal_root" && yosys -q -l "$out/model.log" -p "$read_rtl; \
        read_verilog -sv -formal -Irtl/include $harness; \
        $chparams prep -top $top; flatten; opt -fast; memory -nomap -nordff; opt; opt_mem; \
        async2sync; opt_dff -sat; opt -full; dffunmap; opt_clean; write_smt2 -wires $out/model.smt2" \
        >/dev/null 2>&1); then
    echo "$label model: FAIL (log $out/model.log)"
    return 1
  fi
  formal_t1=$(formal_now)
}

formal_solve() {
  local out=$1 mode=$2
  shift 2
  rm -f "$out/trace.vcd"
  timeout "${FORMAL_TIMEOUT:-3600}" yosys-smtbmc -s yices "$@" --dump-vcd "$out/trace.vcd" \
    "$out/model.smt2" > "$out/$mode.log" 2>&1
  formal_rc=$?
  formal_t2=$(formal_now)
  formal_out=$out
}

formal_verdict() {
  local label=$1 mode=$2 depth=$3 expect_fail=$4 log="$formal_out/$2.log" tm step last
  tm=$(awk -v a="$formal_t0" -v b="$formal_t1" -v c="$formal_t2" \
    'BEGIN{printf "model %.0f s, solver %.0f s", b-a, c-b}')
  if [ "$formal_rc" -eq 0 ]; then
    if [ "$expect_fail" -eq 1 ]; then
      echo "$label $mode: FAIL (no counterexample: the negative control did not fail; $tm, depth $depth)"
      return 1
    fi
    echo "$label $mode: PASS ($tm, depth $depth)"
    return 0
  fi
  if grep -q "Assert failed" "$log"; then
    step=$(grep -oE "(Checking assertions in|induction) step [0-9]+" "$log" | tail -1 | grep -oE "[0-9]+$")
    grep "Assert failed" "$log" | head -5 | sed 's/^##[^A]*/  /'
    if [ "$expect_fail" -eq 1 ] && [ "$mode" = bmc ]; then
      echo "$label $mode: PASS (counterexample as expected, $tm, failing step $step, trace $formal_out/trace.vcd)"
      return 0
    fi
    echo "$label $mode: FAIL ($tm, failing step $step, trace $formal_out/trace.vcd)"
    return 1
  fi
  if [ "$formal_rc" -eq 124 ]; then
    last=$(grep -oE "Checking assertions in step [0-9]+" "$log" | tail -1 | grep -oE "[0-9]+$")
    echo "$label $mode: TIMEOUT ($tm; steps 0..$((${last:-0} - 1)) passed, step ${last:-?} not decided; log $log)"
    return 1
  fi
  echo "$label $mode: FAIL (solver: rc $formal_rc, $tm; log $log)"
  return 1
}
