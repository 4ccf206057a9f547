#!/usr/bin/env bash
# lint_cells.sh - lint every rtl/common cell with Verilator (-Wall), Icarus
# (-g2012) and Yosys (hierarchy -check; and the FORMAL code with -formal), at
# several parameter points each. Any message from any tool is a failure.
set -u -o pipefail
cd "${TOP:-$(dirname "$0")/..}"
C=rtl/common
fail=0

# module | parameters (NAME=VALUE, space separated) | extra files
cases=(
  "kolo_fifo_sync|WIDTH=8 DEPTH=4|"
  "kolo_fifo_sync|WIDTH=68 DEPTH=80|"
  "kolo_fifo_sync|WIDTH=1 DEPTH=2|"
  "kolo_fifo_sync|WIDTH=3 DEPTH=5|"
  "kolo_fifo_async|WIDTH=8 ADDR_W=4|"
  "kolo_fifo_async|WIDTH=1 ADDR_W=1|"
  "kolo_fifo_async|WIDTH=68 ADDR_W=6|"
  "kolo_arb_rr|N=4|"
  "kolo_arb_rr|N=1|"
  "kolo_arb_rr|N=28|"
  "kolo_arb_rr|N=32|"
  "kolo_arb_matrix|N=4|"
  "kolo_arb_matrix|N=1|"
  "kolo_arb_matrix|N=2|"
  "kolo_arb_matrix|N=32|"
  "kolo_alloc_sep|N_IN=4 N_OUT=4|$C/kolo_arb_rr.v"
  "kolo_alloc_sep|N_IN=7 N_OUT=28|$C/kolo_arb_rr.v"
  "kolo_alloc_sep|N_IN=1 N_OUT=1|$C/kolo_arb_rr.v"
  "kolo_credit_counter|MAX=8 INIT=8|"
  "kolo_credit_counter|MAX=1 INIT=0|"
  "kolo_credit_counter|MAX=80 INIT=80|"
  "kolo_credit_counter|MAX=255 INIT=3|"
  "kolo_reset_sync|STAGES=2|"
  "kolo_reset_sync|STAGES=5|"
  "kolo_sync_bit|WIDTH=1 STAGES=2|"
  "kolo_sync_bit|WIDTH=7 STAGES=3|"
  "kolo_sync_pulse|STAGES=2|$C/kolo_sync_bit.v"
  "kolo_sync_word|WIDTH=1|$C/kolo_sync_bit.v"
  "kolo_sync_word|WIDTH=230|$C/kolo_sync_bit.v"
  "kolo_reset_seq|DOMAINS=1 STAGES=2 HOLD=1|$C/kolo_reset_sync.v $C/kolo_sync_bit.v"
  "kolo_reset_seq|DOMAINS=3 STAGES=3 HOLD=64|$C/kolo_reset_sync.v $C/kolo_sync_bit.v"
  "kolo_axil_single|ADDR_W=15|"
  "kolo_axil_single|ADDR_W=1|"
  "kolo_axil_single|ADDR_W=32|"
  "kolo_axil_cdc|ADDR_W=15 FIFO_ADDR_W=2|$C/kolo_fifo_async.v"
  "kolo_axil_cdc|ADDR_W=8 FIFO_ADDR_W=1|$C/kolo_fifo_async.v"
)
declare -A formal_done

check() {  # label output
  if [ -n "$2" ]; then
    echo "LINT FAIL $1"; echo "$2" | head -20 | sed 's/^/  /'; fail=1
  fi
}

for c in "${cases[@]}"; do
  IFS='|' read -r mod params extra <<< "$c"
  files="$C/$mod.v $extra"
  vg=""; ig=""; yc=""
  for p in $params; do
    vg+=" -G$p"; ig+=" -P$mod.$p"; yc+=" -chparam ${p%%=*} ${p#*=}"
  done
  label="$mod ($params)"
  # shellcheck disable=SC2086
  check "verilator $label" "$(verilator --lint-only -Wall --top-module $mod $vg $files 2>&1)"
  # shellcheck disable=SC2086
  check "iverilog $label" "$(iverilog -g2012 -o /dev/null -s $mod $ig $files 2>&1)"
  check "yosys $label" "$(yosys -q -p "read_verilog -sv $files; hierarchy -check -top $mod $yc; proc; check -assert" 2>&1)"
  # Formal code: once per module, at its default (small) parameters.
  if [ -z "${formal_done[$mod]:-}" ]; then
    formal_done[$mod]=1
    check "yosys -formal $mod" "$(yosys -q -p "read_verilog -sv -formal $files; hierarchy -check -top $mod; proc; check -assert" 2>&1)"
  fi
done

if [ $fail -eq 0 ]; then echo "PASS lint-cells (${#cases[@]} parameter points, 3 tools)"; fi
exit $fail
