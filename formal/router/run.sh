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
. "$here/../lib.sh"
out="$formal_root/build/router_formal/default"; depth=12; mode=bmc; expect_fail=0; presat=; params=()
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
case "$mode" in
  bmc) args=(-t "$depth") ;;
  ind) args=(-i -t "$depth") ;;
  *) echo "run.sh: unknown mode $mode" >&2; exit 2 ;;
esac
mkdir -p "$out" && out=$(cd "$out" && pwd)
name=$(basename "$out")
formal_tools

chparams=""
for p in "${params[@]+"${params[@]}"}"; do chparams+="chparam -set ${p%%=*} ${p#*=} kolo_router_formal; "; done
# The RTL is read with -formal: its own assertions count.
formal_model "$out" "formal router $name" "read_verilog -sv -formal -Irtl/include ${ROUTER_RTL[*]}" \
  formal/router/kolo_router_formal.v kolo_router_formal "$chparams" || exit 1
formal_solve "$out" "$mode" $presat "${args[@]}"
formal_verdict "formal router $name" "$mode" "$depth" "$expect_fail"
