#!/bin/bash
# demo_rtl_gtkw.sh TRACE.fst OUT.gtkw NODE... - GTKWave save file for an RTL
# waveform of kolo-sim --rtl-trace (make demo-waves): for each named router
# (node index) its down ports, the valid and sunk (dropped) flags of its
# outputs, its inputs' valid flags and its fault-drop counter.
set -euo pipefail
fst=$1 out=$2
shift 2
[ -f "$fst" ] || { echo "demo_rtl_gtkw: no $fst" >&2; exit 1; }
top=TOP.kolo_torus_sim.u
{
    echo "[dumpfile] \"$(readlink -f "$fst")\""
    echo "[savefile] \"$(readlink -f "$out")\""
    echo "[timestart] 0"
    echo "[size] 1600 900"
    echo "[signals_width] 360"
    printf '@28\nTOP.kolo_torus_sim.clk\n'
    printf '@22\nTOP.kolo_torus_sim.link_down[47:0]\n'
    for n in "$@"; do
        r="$top.g_node[$n].u_router"
        printf '@800200\n-router %s\n' "$n"
        printf '@22\n%s.port_down[5:0]\n%s.out_valid[6:0]\n%s.out_sunk[6:0]\n' "$r" "$r" "$r"
        printf '@22\n%s.in_valid[6:0]\n' "$r"
        printf '@24\n%s.stat_fault_drops[31:0]\n' "$r"
        printf '@1000200\n-router %s\n' "$n"
    done
} >"$out"
echo "demo_rtl_gtkw: $out ($# routers)"
