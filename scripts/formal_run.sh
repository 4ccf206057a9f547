#!/usr/bin/env bash
# formal_run.sh - run one formal proof with Yosys + yosys-smtbmc (z3), the same
# engines a .sby file in formal/<cell>/ describes, without SymbiYosys.
#
# usage: scripts/formal_run.sh -top MODULE -o OUTDIR [-d DEPTH] [-mode LIST]
#            [-p NAME=VALUE]... [-D MACRO]... [-I DIR]... [-multiclock] FILE...
#   -mode   comma-separated steps, run in this order: bmc, ind (k-induction),
#           cover, pdr (ABC PDR on an AIGER model). Default: bmc,ind
#   -d      depth for bmc/ind/cover (default 20)
#   -p      top-level parameter override (chparam)
# env FORMAL_TIMEOUT: seconds allowed per step (default 900).
#   -multiclock  model several clocks with clk2fflogic (clocks become free
#           inputs sampled by a global formal step) instead of async2sync.
# Every step prints one line "formal <name> <step>: PASS|FAIL (<seconds> s)";
# on failure it prints the path of the VCD counterexample and the log, and the
# script exits non-zero. Logs and traces go to OUTDIR.
set -u -o pipefail
step_timeout=${FORMAL_TIMEOUT:-900}   # seconds per step; a stalled solver is a failure

top=""; out=""; depth=20; modes="bmc,ind"; multiclock=0
params=(); defines=(); incdirs=(); files=()
while [ $# -gt 0 ]; do
  case "$1" in
    -top) top="$2"; shift 2 ;;
    -o) out="$2"; shift 2 ;;
    -d) depth="$2"; shift 2 ;;
    -mode) modes="$2"; shift 2 ;;
    -p) params+=("$2"); shift 2 ;;
    -D) defines+=("-D$2"); shift 2 ;;
    -I) incdirs+=("-I$2"); shift 2 ;;
    -multiclock) multiclock=1; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    -*) echo "formal_run.sh: unknown option $1" >&2; exit 2 ;;
    *) files+=("$1"); shift ;;
  esac
done
if [ -z "$top" ] || [ -z "$out" ] || [ ${#files[@]} -eq 0 ]; then
  echo "formal_run.sh: need -top, -o and at least one file (see -h)" >&2; exit 2
fi
mkdir -p "$out"
name=$(basename "$out")

chparams=""
for p in "${params[@]+"${params[@]}"}"; do
  chparams+="chparam -set ${p%%=*} ${p#*=} $top; "
done
read_cmd="read_verilog -sv -formal ${defines[*]+"${defines[*]}"} ${incdirs[*]+"${incdirs[*]}"} ${files[*]}"

# Model preparation: as SymbiYosys does it for the smtbmc engine. Memories
# are mapped to flip-flops (the proofs use tiny parameters).
if [ $multiclock -eq 1 ]; then
  clocking="clk2fflogic;"
else
  clocking="async2sync; dffunmap;"
fi
prep="$read_cmd; $chparams prep -top $top; flatten; memory_map; opt -fast; $clocking"

fail=0
now() { date +%s.%N; }
report() {  # step status t0 [trace]
  local t; t=$(awk -v a="$3" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}')
  echo "formal $name $1: $2 ($t s)"
}

t0=$(now)
if ! yosys -q -l "$out/model.log" -p "$prep opt_clean; stat; write_smt2 -wires $out/model.smt2" \
     >/dev/null 2>&1; then
  report model FAIL "$t0"; echo "  log: $out/model.log"; exit 1
fi

IFS=',' read -r -a steps <<< "$modes"
for step in "${steps[@]}"; do
  t0=$(now)
  case "$step" in
    bmc)   args=(-t "$depth") ;;
    ind)   args=(-i -t "$depth") ;;
    cover) args=(-c -t "$depth") ;;
    pdr)
      # AIGER model: asserts become bad-state properties (-B) and the ports
      # stop being outputs (ABC would check those too); uninitialised FFs get
      # free initial values (-zinit),
      # $anyconst/$anyseq/undriven signals become inputs.
      if ! yosys -q -l "$out/aiger.log" -p "$prep chformal -cover -remove; delete -output; setundef -undriven -anyseq; opt -fast; \
            techmap; opt -fast; dffunmap; abc -g AND; opt_clean; write_aiger -I -B -zinit -map $out/model.aim $out/model.aig" \
            >/dev/null 2>&1; then
        report pdr FAIL "$t0"; echo "  log: $out/aiger.log"; fail=1; continue
      fi
      timeout "$step_timeout" yosys-abc -c "read_aiger $out/model.aig; fold; strash; pdr; write_cex -a $out/pdr.cex" \
        > "$out/pdr.log" 2>&1
      if grep -q "Property proved" "$out/pdr.log"; then
        report pdr PASS "$t0"
      else
        report pdr FAIL "$t0"; echo "  log: $out/pdr.log"; echo "  trace: $out/pdr.cex"; fail=1
      fi
      continue ;;
    *) echo "formal_run.sh: unknown step $step" >&2; exit 2 ;;
  esac
  trace="$out/$step.vcd"
  rm -f "$trace"
  # --unroll: z3 4.8 can stall for hours on the uninterpreted-function form
  # of some small models (seen on the matrix arbiter); unrolled it takes ms.
  if timeout "$step_timeout" yosys-smtbmc -s z3 --unroll --presat "${args[@]}" \
       --dump-vcd "$trace" "$out/model.smt2" > "$out/$step.log" 2>&1; then
    report "$step" PASS "$t0"
  else
    report "$step" FAIL "$t0"; fail=1
    grep -E "Assert failed|failed|Unreached cover" "$out/$step.log" | head -5 | sed 's/^/  /'
    echo "  log: $out/$step.log"
    [ -f "$trace" ] && echo "  trace: $trace"
  fi
done
exit $fail
