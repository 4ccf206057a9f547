#!/usr/bin/env bash
# formal/net/run.sh - proof 3 of issue 19: no deadlock in a ring (kolo_ring_formal.v)
# or a 2x2x1 torus (kolo_torus_formal.v) of real kolo_routers. Builds the model
# with Yosys (memories kept as SMT arrays: memory -nomap -nordff) and runs
# yosys-smtbmc with yices.
#
# usage: formal/net/run.sh [-top HARNESS] [-o OUTDIR] [-d DEPTH] [-skip S] [-mode bmc|ind] [-p NAME=VALUE]...
#   -top kolo_ring_formal (default) or kolo_torus_formal
#   -p sets a parameter of the harness (ring: N, BUBBLE, ESC_SLOTS, MAX_LEN, K, B,
#      PKTS, WIN, QUIET, DRAIN, FORCE; torus: its header)
#   -skip S: check the assertions only in steps S..DEPTH-1 (the steps before
#      are unrolled, not checked: with WIN set the drain property cannot fail
#      before step WIN+B+1, and checking every step costs ~2x per step)
#   -router-asserts: also check the routers' own assertions (slower)
#   -expect-fail: succeed only if the BMC finds a counterexample (negative control)
# Prints "formal net <name> <mode>: PASS|FAIL (<seconds> s, depth D)"; on a
# counterexample the VCD trace is OUTDIR/trace.vcd.
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib.sh"
top=kolo_ring_formal; out="$formal_root/build/net/default"; depth=30; skip=0; mode=bmc; expect_fail=0; rasserts=0; params=()
while [ $# -gt 0 ]; do
  case "$1" in
    -top) top="$2"; shift 2 ;;
    -o) out="$2"; shift 2 ;;
    -d) depth="$2"; shift 2 ;;
    -skip) skip="$2"; shift 2 ;;
    -mode) mode="$2"; shift 2 ;;
    -p) params+=("$2"); shift 2 ;;
    -expect-fail) expect_fail=1; shift ;;
    -router-asserts) rasserts=1; shift ;;
    -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
  esac
done
case "$mode" in
  bmc) args=(-t "$skip:$depth") ;;
  ind) args=(-i -t "$depth") ;;
  *) echo "run.sh: unknown mode $mode" >&2; exit 2 ;;
esac
mkdir -p "$out" && out=$(cd "$out" && pwd)
name=$(basename "$out")
formal_tools

chparams=""
for p in "${params[@]+"${params[@]}"}"; do chparams+="chparam -set ${p%%=*} ${p#*=} $top; "; done
# Without -router-asserts the RTL is read as for synthesis (no FORMAL, no
# KOLO_ASSERT guards): only the harness's properties are checked.
if [ $rasserts -eq 1 ]; then read_rtl="read_verilog -sv -formal -Irtl/include ${ROUTER_RTL[*]}"
else read_rtl="read_verilog -sv -DSYNTHESIS -Irtl/include ${ROUTER_RTL[*]}"; fi
# the harness and the cells it shares with the other harness
harness="formal/net/$top.v formal/net/kolo_net_inject.v formal/net/kolo_net_sink.v formal/net/kolo_net_count.v formal/net/kolo_net_check.v"
formal_model "$out" "formal net $name" "$read_rtl" "$harness" "$top" "$chparams" || exit 1
formal_solve "$out" "$mode" --presat "${args[@]}"
formal_verdict "formal net $name" "$mode" "$depth" "$expect_fail"
