#!/usr/bin/env bash
# run.sh - the RTL's checks fail the runs that break them (make test-assert-planted).
#
# 1. Every Verilator build in mk/ and the scripts compiles the checks: each
#    verilator command that builds a model passes $(VL_CHECKS) (--assert
#    -DFORMAL), itself or through the *_VFLAGS / *_VERILATOR variable it uses.
# 1b. No bare $fatal, $error or $stop in rtl/ (every guard is a `KOLO_ASSERT).
# 2. tb/assert/tb_assert.v is built with Verilator ($VL_CHECKS, --binary
#    --timing) and with Icarus 11; the control run (+plant=none) must exit 0 in
#    both, and every planted violation (table below) must stop the run with a
#    non-zero exit status and name the source line of its check (found by a
#    pattern, so that edits above it do not break the test). `ifdef FORMAL
#    properties are planted under Verilator only: Icarus builds define no FORMAL.
# Build and logs: build/assert/.
set -u -o pipefail
cd "${TOP:-$(dirname "$0")/../..}"
TOP=$PWD
out=${BUILD:-build}/assert
mkdir -p "$out"
vl_checks=${VL_CHECKS:---assert -DFORMAL}
fail=0

# ---- 1. every Verilator build passes $(VL_CHECKS) ------------------------------
mapfile -t srcs < <(ls mk/*.mk scripts/*.sh; find tb -name '*.sh' | sort)
bad=0
while IFS= read -r hit; do
  file=${hit%%:*}; rest=${hit#*:}; line=${rest%%:*}; text=${rest#*:}
  case "$text" in
    *VL_CHECKS*) continue ;;
  esac
  ok=0
  # a variable used on the line that is defined with $(VL_CHECKS)
  for v in $(grep -o '\$(\?[A-Z_]*\(VFLAGS\|VERILATOR\))\?' <<< "$text" | tr -d '$()'); do
    if grep -qE "^$v[[:space:]]*:?=.*VL_CHECKS" "${srcs[@]}"; then ok=1; fi
  done
  if [ $ok = 0 ]; then
    echo "FAIL $file:$line: a Verilator build without \$(VL_CHECKS): $text"; bad=1
  fi
done < <(grep -nE '(^|[^A-Za-z_.-])verilator[[:space:]]+(-|\$)|_VERILATOR\)' "${srcs[@]}" |
         grep -vE ':[[:space:]]*#|echo |--lint-only|--getenv|DEPS_TOOLS|tb/assert/run.sh')
if [ $bad = 0 ]; then echo "PASS every Verilator build passes \$(VL_CHECKS)"; else fail=1; fi

# ---- 1b. every error guard is a `KOLO_ASSERT (planted below): no bare $fatal,
# $error or $stop in rtl/ (Yosys -formal cannot read $fatal; a bare one is unplanted)
bare_guards() { grep -nE '\$(fatal|error|stop)\b' "$@" | grep -vE '^([^:]*:)?[0-9]+:[[:space:]]*//'; }
mapfile -t rtl_v < <(find rtl -name '*.v' | sort)
if hits=$(bare_guards "${rtl_v[@]}") && [ -n "$hits" ]; then
  echo "FAIL bare \$fatal/\$error/\$stop in rtl/ (make it a \`KOLO_ASSERT and plant it here):"
  echo "$hits" | sed 's/^/    /'; fail=1
else
  echo "PASS no bare \$fatal/\$error/\$stop in rtl/ (${#rtl_v[@]} files)"
fi
printf '  always @(posedge clk) if (x) $fatal(1, "no");\n  // $fatal in a comment\n' > "$out/bare.v"
[ "$(bare_guards "$out/bare.v" | wc -l)" = 1 ] || { echo "FAIL a planted bare \$fatal was not caught"; fail=1; }

# ---- 2. planted violations ------------------------------------------------------
# name | source file | pattern on the check's line | sims (v = Verilator, i = Icarus)
plants=(
  "router_credit|rtl/router/kolo_router_output.v|KOLO_ASSERT(!err)|vi"
  "router_slot|rtl/router/kolo_router_output.v|KOLO_ASSERT(!(cr \&\& owned|vi"
  "router_overflow|rtl/router/kolo_router_input.v|KOLO_ASSERT(!(wr \&\& occ >=|vi"
  "tags_alloc|rtl/ni/kolo_ni_tags.v|KOLO_ASSERT(!(alloc \&\& !alloc_valid))|vi"
  "tags_free|rtl/ni/kolo_ni_tags.v|KOLO_ASSERT(!(free \&\& !busy\[free_tag\]))|vi"
  "tags_list|rtl/ni/kolo_ni_tags.v|KOLO_ASSERT(!(free \&\& !fl_in_ready))|vi"
  "inj_credit|rtl/ni/kolo_ni_inj.v|KOLO_ASSERT(!err)|vi"
  "ej_overflow|rtl/ni/kolo_ni_ej.v|KOLO_ASSERT(!(wr \&\& !fin_ready))|vi"
  "ej_whole|rtl/ni/kolo_ni_ej.v|KOLO_ASSERT(!(busy \&\& !fv))|vi"
  "txq_full|rtl/ni/kolo_ni_txq.v|KOLO_ASSERT(!(push \&\& !hq_room))|vi"
  "txq_dv|rtl/ni/kolo_ni_txq.v|KOLO_ASSERT(!(push \&\& !push_dma \&\& dv))|vi"
  "txq_beats|rtl/ni/kolo_ni_txq.v|KOLO_ASSERT(!(push \&\& (push_nbeats|vi"
  "ctx_take|rtl/ni/kolo_ni_ctx.v|KOLO_ASSERT(!(h_take|vi"
  "ctx_retire|rtl/ni/kolo_ni_ctx.v|KOLO_ASSERT(!(h_ret|vi"
  "ctx_put|rtl/ni/kolo_ni_ctx.v|KOLO_ASSERT(!(h_pd|vi"
  "e2e_pend|rtl/ni/kolo_ni_e2e.v|KOLO_ASSERT(!(p_orig \&\& pend\[push_tag\]))|vi"
  "svc_fault|rtl/svc/kolo_svc.v|KOLO_ASSERT(!(sp_fault \&\& sp_pend \&\& !sp_act))|vi"
  "pcie_rd_back|rtl/ni/kolo_pcie_dma_rd.v|KOLO_ASSERT(!(sim_back_h|vi"
  "pcie_rd_space|rtl/ni/kolo_pcie_dma_rd.v|KOLO_ASSERT(!(cr_h_next > cr_h_all|vi"
  "pcie_rd_rest|rtl/ni/kolo_pcie_dma_rd.v|KOLO_ASSERT(!(c_cr_upd \&\& sim_rest_bad))|vi"
  "pcie_rx_order|rtl/ni/kolo_pcie_ep_rx.v|KOLO_ASSERT(!(sim_taken + (mw_fire|vi"
  "csr_rd_order|rtl/ni/kolo_ni_csr.v|KOLO_ASSERT(!(sim_done < sim_need))|vi"
  "atomic_take|rtl/ni/kolo_ni_atomic.v|KOLO_ASSERT(f_any \&\& !conflict|vi"
  "atomic_chain|rtl/ni/kolo_ni_atomic.v|KOLO_ASSERT((ch \& (ch - 1'b1))|vi"
  "atomic_rd|rtl/ni/kolo_ni_atomic.v|KOLO_ASSERT(used\[rd_slot|vi"
  "npfc_credit|rtl/platform/common/kolo_pcie_shim_npfc.v|KOLO_ASSERT(!(np \&\& cnt ==|vi"
  "shim_us_window|rtl/platform/xilinx/kolo_pcie_shim_us.v|KOLO_ASSERT(!(p_send \&\& p_out_q >= SEQ_WINDOW))|vi"
  "np_credit_owed|rtl/chip/kolo_chip_np_credit.v|KOLO_ASSERT(!(s_credit \&\& owed >= MAX_CREDITS|vi"
  "nidx_strap|rtl/ni/kolo_ni_nidx.v|KOLO_ASSERT(dim_m1 == chk_d \&\& chk_st)|vi"
  "fifo_count|rtl/common/kolo_fifo_sync.v|assert(used <= FULL)|v"
  "arb_mask|rtl/common/kolo_arb_rr.v|assert(((mask << 1) \& ~mask)|v"
)
# every guard in rtl/ must be planted here
n_guards=$(grep -rh 'KOLO_ASSERT(' rtl --include='*.v' | grep -vc '^\s*//')
n_planted=$(printf '%s\n' "${plants[@]}" | grep -c 'KOLO_ASSERT(')
if [ "$n_guards" -ne "$n_planted" ]; then
  echo "FAIL rtl/ holds $n_guards \`KOLO_ASSERT guards, tb/assert plants $n_planted: plant each one"
  fail=1
fi

# and the vendor-neutral PCIe shims of rtl/platform (as make lint reads them)
mapfile -t dirs < <( (find rtl -name '*.v' -not -path 'rtl/platform/*'; find rtl/platform -name 'kolo_pcie_shim*.v') |
                     xargs -n1 dirname | sort -u)
t0=$(date +%s)
# shellcheck disable=SC2046,SC2086
objcache=$(command -v ccache >/dev/null && echo "-MAKEFLAGS OBJCACHE=ccache")
if ! (cd "$out" && verilator --binary --timing $vl_checks -Wall -Wno-PINMISSING -Wno-fatal -j 2 $objcache \
        -I"$TOP/rtl/include" $(printf -- "-y $TOP/%s " "${dirs[@]}") --top-module tb_assert \
        --Mdir vobj -o tb_assert "$TOP/tb/assert/tb_assert.v" > build.log 2>&1); then
  tail -n 30 "$out/build.log"; echo "FAIL Verilator build of tb_assert (log: $out/build.log)"; exit 1
fi
# shellcheck disable=SC2046
if ! iverilog -g2012 -I rtl/include $(printf -- '-y %s ' "${dirs[@]}") -s tb_assert \
        -o "$out/tb_assert.vvp" tb/assert/tb_assert.v > "$out/iverilog.log" 2>&1; then
  cat "$out/iverilog.log"; echo "FAIL Icarus build of tb_assert"; exit 1
fi
echo "built tb_assert with Verilator and Icarus ($(( $(date +%s) - t0 )) s)"

run() {  # sim plant -> output in $out/<sim>_<plant>.log, returns the exit status
  local log=$out/$1_$2.log
  if [ "$1" = v ]; then "$out/vobj/tb_assert" "+plant=$2" > "$log" 2>&1
  else vvp -n "$out/tb_assert.vvp" "+plant=$2" > "$log" 2>&1; fi
}
for sim in v i; do
  name=$([ $sim = v ] && echo verilator || echo icarus)
  if run $sim none; then echo "PASS $name control run (+plant=none) exits 0"
  else echo "FAIL $name control run exits non-zero (log: $out/${sim}_none.log)"; tail -5 "$out/${sim}_none.log"; fail=1; fi
done
for p in "${plants[@]}"; do
  IFS='|' read -r name file pat sims <<< "$p"
  line=$(grep -nF -- "${pat//\\/}" "$file" | head -1 | cut -d: -f1)
  if [ -z "$line" ]; then
    echo "FAIL $name: no check matching '${pat//\\/}' in $file (update tb/assert/run.sh)"; fail=1; continue
  fi
  where="$(basename "$file"):$line"
  for sim in v i; do
    [[ $sims == *$sim* ]] || continue
    sname=$([ $sim = v ] && echo verilator || echo icarus)
    run $sim "$name"; rc=$?
    if [ $rc -ne 0 ] && grep -q "$where" "$out/${sim}_$name.log"; then
      echo "PASS $sname $name: stopped (exit $rc) at $where"
    else
      echo "FAIL $sname $name: exit $rc, expected a failure at $where (log: $out/${sim}_$name.log)"
      tail -5 "$out/${sim}_$name.log"; fail=1
    fi
  done
done
[ $fail = 0 ] && echo "assert-planted: PASS" || echo "assert-planted: FAIL"
exit $fail
