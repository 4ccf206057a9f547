#!/usr/bin/env bash
# mutants.sh - the service block test must fail on a broken block: each
# mutant below is one small change to a copy of rtl/svc (build/svc_mut/rtl),
# built into the same harness and run for 100000 cycles with seeds 1..3.
# PASS when every mutant is caught; exits 1 naming any that survives.
# Usage: tb/unit/svc/mutants.sh [N]   only the first N mutants
#   (make test-unit-svc-mutants: all; make test-unit-svc-negative: the first;
#    a few seconds per mutant with ccache, about 10 s without)
set -uo pipefail
cd "${TOP:-$(dirname "$0")/../../..}" && TOP=$(pwd)
out=${BUILD:-build}/svc_mut
mkdir -p "$out"
occ=""; command -v ccache >/dev/null && occ="-MAKEFLAGS OBJCACHE=ccache"

# file, old, new (three elements per mutant; old occurs once in file)
mutants=(
  kolo_svc.v "\`KOLO_SVC_SYS_SCRATCH: rd_mux = scratch;" "\`KOLO_SVC_SYS_SCRATCH: rd_mux = scratch ^ 32'd1;"
  kolo_svc_axil.v ".advance(1'b1)," ".advance(1'b0),"
  kolo_svc.v "(a == \`KOLO_SVC_SYS_HOST_ACCESS || !host_access)" "(!host_access)"
  kolo_svc.v "else irq <= (irq_status & irq_en) != 2'd0;" "else irq <= (irq_status & irq_en) != 2'd0 || evt_count == 6'd32;"
  kolo_svc.v "if (rd_time_lo) time_hi_latched <= cycles[63:32];" "if (rd_time_lo) time_hi_latched <= cycles[62:31];"
  kolo_svc_evt.v "wire full_after_pop = count == DEPTH && !popped;" "wire full_after_pop = count == DEPTH;"
  kolo_svc_rt.v "{1'b0, cp_rd} == entries - 13'd1" "{1'b0, cp_rd} == entries - 13'd2"
  kolo_svc_rt.v "      lk_bank_q <= active;" "      lk_bank_q <= active ^ epoch_we;"
  kolo_svc_link.v "(up[g] || !misc[g] || peer[16*g+:16] != new_peer))" "(up[g] || !misc[g]))"
  kolo_svc_link.v "assign l_push_v[e] = l_up_v[e] || up[e];" "assign l_push_v[e] = l_up_v[e] || up[e] || misc[e];"
  kolo_svc_link.v "localparam [2:0] PEER_PORT = g ^ 1;" "localparam [2:0] PEER_PORT = g;"
  kolo_svc_link.v "wire [5:0]     l_in = in_up & ~dn;" "wire [5:0]     l_in = in_up;"
  kolo_svc_mbx_rx.v "wire full = pkts == FULL && !popped;" "wire full = pkts == FULL;"
  kolo_svc_mbx_rx.v "r_words <= MAX_WORDS" "r_words <= MAX_WORDS + 8'd1"
  kolo_svc_mbx_tx.v "{hi_valid ? w_hi[pk] : 32'd0, w_lo[pk]}" "{(hi_valid || words[0]) ? w_hi[pk] : 32'd0, w_lo[pk]}"
  kolo_svc_mbx_tx.v "end else if (busy && mgmt_tx_ready) begin" "end else if (busy) begin"
  kolo_svc.v "sp_act ? {sp_pc_q[21:2], sp_cause_q, 8'd0}" "sp_act ? {sp_pc_q[22:3], sp_cause_q, 8'd0}"
  kolo_svc.v "wire sp_act = sp_pend && !mbx_ovf_push;" "wire sp_act = sp_pend;"
  kolo_svc_link.v "dn[g] <= (up[g] || misc[g]) && !go_down && (dn[g] || !in_up[g]);" "dn[g] <= !go_down && ((up[g] || misc[g]) && dn[g] || !in_up[g]);"
  kolo_svc.v "wire stall = (rt_copying && table_q) || (hm_clearing && hmbox_q);" "wire stall = rt_copying && table_q;"
  kolo_svc_hmbox.v "if (clr_idx == {AW{1'b1}}) clr_run <= 1'b0;" "if (clr_idx == {AW{1'b1}} - 1'b1) clr_run <= 1'b0;"
  kolo_svc.v "wire [HMBOX_AW-1:0] hmbox_idx = hmbox_rel[HMBOX_AW+1:2];" "wire [HMBOX_AW-1:0] hmbox_idx = {1'b0, hmbox_rel[HMBOX_AW:3]};"
)

fail=0
n=$(( ${#mutants[@]} / 3 ))
if [ -n "${1:-}" ] && [ "$1" -lt "$n" ]; then n=$1; fi
for ((i = 0; i < n; i++)); do
  f=${mutants[3*i]} old=${mutants[3*i+1]} new=${mutants[3*i+2]}
  rm -rf "$out/rtl" && mkdir -p "$out/rtl" && cp rtl/svc/*.v "$out/rtl/"
  if ! python3 - "$out/rtl/$f" "$old" "$new" <<'PY'
import sys
p, old, new = sys.argv[1:]
s = open(p).read()
if s.count(old) != 1:
    sys.exit("mutants.sh: '%s' occurs %d times in %s" % (old, s.count(old), p))
open(p, "w").write(s.replace(old, new))
PY
  then fail=1; continue; fi
  # shellcheck disable=SC2086
  if ! verilator ${VL_CHECKS:---assert -DFORMAL} --cc --exe --build -O2 -Wall -Wno-fatal -j 2 --top-module tb_svc -I"$TOP/rtl/include" \
        -y "$out/rtl" -y "$TOP/rtl/common" $occ \
        -CFLAGS "-O1 -std=c++17 -I$TOP/tb/unit/common -I$TOP/sw/include" --Mdir "$out/obj" -o tb_svc \
        "$TOP/tb/unit/svc/tb_svc.v" "$TOP/tb/unit/svc/tb_svc.cpp" "$TOP/sw/model/kolo_svc_model.c" \
        "$TOP/sw/route/kolo_route.c" > "$out/build.log" 2>&1; then
    echo "FAIL mutant does not build ($f: $new), log $out/build.log"; fail=1; continue
  fi
  caught=""
  for s in 1 2 3; do
    if ! msg=$("$out/obj/tb_svc" --seed=$s --cycles=100000 2>&1); then
      caught=$(grep -m1 "FAIL unit-svc: cycle" <<< "$msg"); break
    fi
  done
  if [ -n "$caught" ]; then echo "caught  $f: $new"; echo "        $caught"
  else echo "MISSED  $f: $new"; fail=1; fi
done
[ $fail = 0 ] && echo "PASS unit-svc-mutants: $n mutants caught" || echo "FAIL unit-svc-mutants"
exit $fail
