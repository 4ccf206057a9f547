#!/usr/bin/env bash
# formal_link.sh - formal runs of the link-layer harness formal/link/kolo_link_formal.v
# (two kolo_link_core ends, a lossy channel, free routers; see formal/README.md).
#
# usage: formal/link/formal_link.sh -o OUTDIR [-d DEPTH] [-cd COVER_DEPTH]
#            [-mode LIST] [-p NAME=VALUE]... [-D MACRO]... [-abs-crc]
#   -mode  comma-separated steps, run in this order (default bmc):
#          bmc    ABC bmc3: no assertion fails in cycles 0..DEPTH-1 (bounded)
#          cover  ABC bmc3 per cover_* statement of the harness: each is
#                 reached within COVER_DEPTH cycles (default DEPTH)
#          ind    ABC ind: the inductive step of k-induction, k = DEPTH
#                 (with a passing bmc of the same depth: an unbounded proof)
#          pdr    ABC pdr (IC3): an unbounded proof, or a counterexample
#          bmcfail  negative control: as bmc, but PASS only when an
#                 assertion fails within DEPTH cycles (use with -blind-crc)
#          lemma  the real CRC-32C has no collision among the frames the
#                 harness sends (crc_lemma.py): what -abs-crc rests on
#   -abs-crc  kolo_crc32c_64_abs.v (fields packed, no XOR network) in place
#          of the real CRC-32C cell: sound given the lemma, and about ten BMC
#          steps deeper for the same time
#   -blind-crc  a CRC cell that ignores its data (kolo_crc32c_64_blind.v):
#          the negative control; bmc must FAIL
#   -p     harness parameter (chparam), e.g. -p NVC=1;  -D  Verilog define
# env FORMAL_TIMEOUT: seconds allowed per step (default 900); a step out of
# time FAILs (bmc says how many cycles it had checked).
# Prints "formal <name> <step>: PASS|FAIL (<seconds> s)" per step; a failing
# bmc lists the failing assertions (source lines) and writes OUTDIR/bmc.vcd,
# a reached cover OUTDIR/cover_<name>.vcd. Exit status 1 if a step failed.
# The model is rebuilt only when a source file or an option changed.
#
# Why not scripts/formal_run.sh (yosys-smtbmc + z3) as for the cells: z3
# 4.8 spends ~20 s per step just simplifying the unrolled CRC-8/CRC-32C XOR
# chains of this model (the step-0 query alone ran for 10 minutes); cvc4
# through yosys-smtbmc is no faster. ABC works on the bit-blasted AIGER model.
set -u -o pipefail
step_timeout=${FORMAL_TIMEOUT:-900}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)

out=""; depth=20; cdepth=""; modes="bmc"; params=(); defines=(); crc=rtl
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out="$2"; shift 2 ;;
    -d) depth="$2"; shift 2 ;;
    -cd) cdepth="$2"; shift 2 ;;
    -mode) modes="$2"; shift 2 ;;
    -p) params+=("$2"); shift 2 ;;
    -D) defines+=("-D$2"); shift 2 ;;
    -abs-crc) crc=abs; shift ;;
    -blind-crc) crc=blind; shift ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    *) echo "formal_link.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || { echo "formal_link.sh: need -o OUTDIR (see -h)" >&2; exit 2; }
[ -n "$cdepth" ] || cdepth=$depth
mkdir -p "$out"
name=$(basename "$out")
top=kolo_link_formal

files="$here/kolo_link_formal.v"
for f in kolo_link_core kolo_link_tx kolo_link_rx kolo_crc8_56; do files+=" $root/rtl/link/$f.v"; done
case $crc in
  abs) files+=" $here/kolo_crc32c_64_abs.v $here/kolo_crc32c_64x2_steps.v" ;;
  blind) files+=" $here/kolo_crc32c_64_blind.v $here/kolo_crc32c_64x2_steps.v" ;;
  *) files+=" $root/rtl/link/kolo_crc32c_64.v $root/rtl/link/kolo_crc32c_64x2.v" ;;
esac
chparams=""
for p in "${params[@]+"${params[@]}"}"; do chparams+="chparam -set ${p%%=*} ${p#*=} $top; "; done

now() { date +%s.%N; }
report() {  # step status t0
  local t; t=$(awk -v a="$3" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}')
  echo "formal $name $1: $2 ($t s)"
}

# ---- models -------------------------------------------------------------------------
# rtl.il: word level (to replay ABC counterexamples with `sim` into a VCD);
# gl.il: bit level with every assertion and cover_* in it; each step cuts its
# AIGER from it by deleting the assertions it does not check.
model() {
  local sig t0
  sig=$( { cat $files "$root/rtl/include/kolo_link_defs.vh" "$0"; echo "$chparams ${defines[*]+"${defines[*]}"}"; } | md5sum)
  if [ -f "$out/gl.il" ] && [ "$(cat "$out/model.sig" 2>/dev/null)" = "$sig" ]; then return 0; fi
  rm -f "$out"/*.aig "$out/model.sig"
  t0=$(now)
  local read_cmd="read_verilog -sv -formal -DKOLO_COVER_AS_ASSERT ${defines[*]+"${defines[*]}"} -I$root/rtl/include $files"
  local prep="$read_cmd; $chparams prep -top $top; flatten; memory_map; opt -fast; async2sync; dffunmap;
        delete -output; setundef -undriven -anyseq; setundef -zero -init; opt -fast"
  if ! yosys -q -l "$out/model.log" -p "$prep; write_rtlil $out/rtl.il;
        techmap; opt -fast; dffunmap; abc -g AND; opt_clean; stat; write_rtlil $out/gl.il" >/dev/null 2>&1; then
    report model FAIL "$t0"; echo "  log: $out/model.log"; return 1
  fi
  echo "$sig" > "$out/model.sig"
  report model PASS "$t0"
}
# aiger <name> <selection of the assertions to delete>
aiger() {
  [ -f "$out/$1.aig" ] && return 0
  yosys -q -l "$out/$1.log" -p "read_rtlil $out/gl.il; chformal -assert -remove $2; opt_clean;
      write_aiger -I -B -zinit -map $out/$1.aim $out/$1.aig" >/dev/null 2>&1
}
# replay <aig name> <witness>: the VCD of an ABC counterexample
replay() {
  yosys -q -l "$out/$1.sim.log" -p "read_rtlil $out/rtl.il;
      sim -clock clk -r $2 -map $out/$1.aim -vcd ${2%.*}.vcd" >/dev/null 2>&1
}

fail=0
IFS=',' read -r -a steps <<< "$modes"
for step in "${steps[@]}"; do
  case "$step" in lemma) ;; *) model || exit 1 ;; esac
  t0=$(now)
  case "$step" in
    lemma)
      if python3 "$here/crc_lemma.py" "$root" "$out"; then report lemma PASS "$t0"
      else report lemma FAIL "$t0"; fail=1; fi ;;
    bmc|bmcfail|ind|pdr)
      if ! aiger prop 't:$assert n:cover_* %i'; then
        report "$step" FAIL "$t0"; echo "  log: $out/prop.log"; fail=1; continue
      fi
      case "$step" in
        bmc|bmcfail) cmd="bmc3 -F $depth -v" ;;
        ind) cmd="ind -F $depth -v" ;;
        pdr) cmd="pdr" ;;
      esac
      rm -f "$out/$step.aiw"
      timeout "$step_timeout" yosys-abc -c "read_aiger $out/prop.aig; fold; strash; $cmd; write_cex -a $out/$step.aiw" \
        > "$out/$step.log" 2>&1
      case "$step" in
        bmcfail)
          if grep -q "was asserted in frame" "$out/bmcfail.log"; then
            report bmcfail PASS "$t0"
            echo "  as expected, an assertion fails in cycle $(grep -o 'asserted in frame [0-9]*' "$out/bmcfail.log" | grep -o '[0-9]*$'):"
            replay prop "$out/bmcfail.aiw"
            grep -o "Assert [^ ]* ([^)]*) failed" "$out/prop.sim.log" | grep -v "Assert [^ ]*\.cover_" | sed 's/^Assert [^ ]* (//; s/) failed$//' \
              | sort -u | sed 's/^/    /'
            echo "  trace: $out/bmcfail.vcd"
          else
            report bmcfail FAIL "$t0"; fail=1
            echo "  the negative control found no failing assertion in $depth cycles"
          fi ;;
        bmc)
          if grep -q "was asserted in frame" "$out/bmc.log"; then
            report bmc FAIL "$t0"; fail=1
            echo "  an assertion fails in cycle $(grep -o 'asserted in frame [0-9]*' "$out/bmc.log" | grep -o '[0-9]*$'):"
            replay prop "$out/bmc.aiw"
            grep -o "Assert [^ ]* ([^)]*) failed" "$out/prop.sim.log" | grep -v "Assert [^ ]*\.cover_" | sed 's/^Assert [^ ]* (//; s/) failed$//' \
              | sort -u | sed 's/^/    /'
            echo "  trace: $out/bmc.vcd"
          elif grep -q "No output asserted in $depth frames" "$out/bmc.log"; then
            report bmc PASS "$t0"; echo "  no assertion fails in cycles 0..$((depth - 1))"
          else
            report bmc FAIL "$t0"; fail=1
            echo "  out of time after $(grep -oE '^ *[0-9]+ \+' "$out/bmc.log" | tail -1 | tr -d ' +') cycles"
          fi ;;
        ind)
          if grep -q "Property proved" "$out/ind.log"; then report ind PASS "$t0"
          else report ind FAIL "$t0"; fail=1; grep -v "^ABC\|^$" "$out/ind.log" | tail -2 | sed 's/^/  /'; fi ;;
        pdr)
          if grep -q "Property proved" "$out/pdr.log"; then report pdr PASS "$t0"
          else report pdr FAIL "$t0"; fail=1; grep -v "^ABC\|^$" "$out/pdr.log" | tail -2 | sed 's/^/  /'; fi ;;
      esac
      echo "  log: $out/$step.log" ;;
    cover)
      cfail=0
      for c in $(grep -oE 'KOLO_COVER\(cover_[a-z_]*' "$here/kolo_link_formal.v" | sed 's/KOLO_COVER(//'); do
        t1=$(now)
        if ! aiger "$c" "t:\$assert n:$c %d"; then report "$c" FAIL "$t1"; cfail=1; continue; fi
        rm -f "$out/$c.aiw"
        timeout "$step_timeout" yosys-abc -c "read_aiger $out/$c.aig; fold; strash; bmc3 -F $cdepth; write_cex -a $out/$c.aiw" \
          > "$out/$c.run.log" 2>&1
        f=$(grep -o "asserted in frame [0-9]*" "$out/$c.run.log" | grep -o "[0-9]*$")
        t=$(awk -v a="$t1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}')
        if [ -n "$f" ]; then
          replay "$c" "$out/$c.aiw"
          echo "  $c: reached in cycle $f ($t s, trace $out/$c.vcd)"
        else
          echo "  $c: NOT reached in cycles 0..$((cdepth - 1)) ($t s)"; cfail=1
        fi
      done
      if [ $cfail -eq 0 ]; then report cover PASS "$t0"; else report cover FAIL "$t0"; fail=1; fi ;;
    *) echo "formal_link.sh: unknown step $step" >&2; exit 2 ;;
  esac
done
exit $fail
