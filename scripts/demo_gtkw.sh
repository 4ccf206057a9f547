#!/bin/bash
# demo_gtkw.sh TRACE.fst OUT.gtkw NODE... - GTKWave save file for kolo-sim's
# fault trace (--trace): the totals, then the named nodes (node_X_Y_Z scopes)
# with their link states, firmware stage, table epoch and operations waiting.
set -euo pipefail
fst=$1 out=$2
shift 2
[ -f "$fst" ] || { echo "demo_gtkw: no $fst" >&2; exit 1; }
{
    echo "[dumpfile] \"$(readlink -f "$fst")\""
    echo "[savefile] \"$(readlink -f "$out")\""
    echo "[timestart] 0"
    echo "[size] 1600 900"
    echo "[signals_width] 300"
    printf '@800200\n-totals\n'
    printf '@24\nkolo.fault_events[7:0]\nkolo.packets_dropped[31:0]\nkolo.requests_sent_again[31:0]\n'
    printf '@28\nkolo.firmware_settled\n'
    printf '@1000200\n-totals\n'
    for n in "$@"; do
        printf '@800200\n-%s\n' "$n"
        printf '@28\nkolo.%s.up\n' "$n"
        printf '@22\nkolo.%s.ports_down[5:0]\n' "$n"
        printf '@24\nkolo.%s.fw_stage[3:0]\nkolo.%s.table_epoch[15:0]\nkolo.%s.ops_waiting[15:0]\n' "$n" "$n" "$n"
        printf '@24\nkolo.%s.ni_tx_pkts[31:0]\n' "$n"
        printf '@1000200\n-%s\n' "$n"
    done
} >"$out"
echo "demo_gtkw: $out ($# nodes)"
