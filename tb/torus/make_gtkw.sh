#!/bin/bash
# make_gtkw.sh WAVES.fst OUT.gtkw - write a GTKWave save file for a torus
# trace: the signals a person looks at first, in groups (clock and reset,
# injection, ejection, link monitors, router 0's ports, error counters).
# Signal names come from the FST's own header, so the file matches the build.
set -euo pipefail
fst=$1 out=$2
[ -f "$fst" ] || { echo "make_gtkw: no $fst" >&2; exit 1; }
# "scope.name[msb:lsb]" for every variable of the header
vars=$(fst2vcd "$fst" 2>/dev/null | awk '
    /^\$scope/ { scope[++d] = $3; next }
    /^\$upscope/ { d--; next }
    /^\$var/ { p = ""; for (i = 1; i <= d; i++) p = p scope[i] "."; n = $5; r = ($6 ~ /^\[/) ? $6 : "";
               print p n r; next }
    /^\$enddefinitions/ { exit }' || true)  # awk stops reading early: fst2vcd gets SIGPIPE
pick() { printf '%s\n' "$vars" | grep -E "$1" | head -n "${2:-40}" || true; }
group() {  # group NAME FLAGS REGEX [MAX]
    local sigs; sigs=$(pick "$3" "${4:-40}")
    [ -n "$sigs" ] || return 0
    printf '@800200\n-%s\n@%s\n%s\n@1000200\n-%s\n' "$1" "$2" "$sigs" "$1"
}
top='^TOP\.kolo_torus_sim\.'
r0="${top}u\.g_node\(0\)\.u_router\.|${top}u\.g_node\[0\]\.u_router\."
{
    echo "[dumpfile] \"$(readlink -f "$fst")\""
    echo "[timestart] 0"
    echo "[size] 1600 900"
    echo "[sst_width] 260"
    echo "[signals_width] 320"
    group "clock and reset" 28 "${top}(clk|rst)$"
    group "injection (NI to router)" 22 "${top}inj_(valid|flit|credit_valid|credit_vc)(\[|$)"
    group "ejection (router to NI)" 22 "${top}ej_(valid|flit|credit_valid|credit_vc)(\[|$)"
    group "network links (flit leaving port p of node n: bit n*6+p)" 22 "${top}mon_valid(\[|$)"
    group "router 0 ports" 22 "(${r0})(in_valid|in_credit_valid|out_valid|out_credit_valid|in_flit|out_flit)(\[|$)"
    group "router 0 allocation" 22 "(${r0})(va_grant|sa_grant|ovc_busy|va_elig|sa_elig)(\[|$)"
    group "errors {route,vc,len,dst} per node" 22 "${top}stat_errors(\[|$)"
} > "$out"
echo "make_gtkw: $(grep -c '^TOP' "$out") signals in $out"
