#!/bin/bash
# check_shipped.sh OUTDIR - shipped code (sw/, fw/) never includes testbench
# code (tb/); where both need a piece it lives in sw/ (sw/rtlsim: the Verilator
# signal bits and the PCIe root-complex model) and tb/ uses it from there.
#
#  1. sources: no file under sw/ or fw/ includes a path under tb/, or a header
#     whose name exists only under tb/ (reached through an include path);
#  2. builds: no command that builds from sw/ or fw/ sources alone (no tb/
#     source in the command: a testbench may compile sw/ code) has an include
#     path into tb/ (-I, -isystem, -iquote, -idirafter). The commands are the
#     ones make runs for every test of `make list-tests` and for sim, sim-rtl,
#     sim-rtlni, recorded by a shell that only writes them down
#     (make -B SHELL=<recorder>): nothing is built, about 3 s.
# Each check is planted (a source including a tb header; a compile line of
# sw/sim/ni_rtl.cpp with -Itb/common) and must catch its plant; the build check
# must have seen the kolo-sim RTL back-ends' compile lines (it cannot pass by
# seeing nothing). Called by `make test-c-freestanding`.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/shipped-check}
mkdir -p "$out"
fail=0

# ---- 1. sources --------------------------------------------------------------
# header names found under tb/ and nowhere in sw/, fw/, rtl/
tb_only=$(comm -23 <(find tb -type f \( -name '*.h' -o -name '*.hpp' -o -name '*.inc' \) -printf '%f\n' | sort -u) \
    <(find sw fw rtl -type f -printf '%f\n' | sort -u))
tb_includes() {
    awk -v list="$tb_only" '
        BEGIN { n = split(list, a, "\n"); for (i = 1; i <= n; i++) if (a[i] != "") tbonly[a[i]] = 1 }
        /^[ \t]*#[ \t]*include[ \t]*[<"][^>"]+[>"]/ {
            s = $0; sub(/^[ \t]*#[ \t]*include[ \t]*[<"]/, "", s); sub(/[>"].*/, "", s)
            b = s; sub(/.*\//, "", b)
            if (s ~ /(^|\/)tb\// || (b in tbonly)) print FILENAME ":" FNR ": " $0
        }' "$@"
}
mapfile -t shipped < <(find sw fw -type f \( -name '*.[chS]' -o -name '*.cpp' -o -name '*.cc' -o -name '*.hpp' \
    -o -name '*.inc' \) | sort)
if hits=$(tb_includes "${shipped[@]}") && [ -n "$hits" ]; then
    echo "FAIL: shipped code includes testbench headers (move the piece to sw/, e.g. sw/rtlsim):"
    echo "$hits" | sed 's/^/    /'; fail=1
else
    echo "ok: ${#shipped[@]} files under sw/ and fw/ include nothing from tb/"
fi
printf '#include "kolo_route.h"\n#include "kolo_tb_util.h"\n#include "../../tb/common/x.h"\n#include <vector>\n' \
    > "$out/planted.cpp"
[ "$(tb_includes "$out/planted.cpp" | wc -l)" = 2 ] || { echo "FAIL: a planted tb include was not caught"; fail=1; }

# ---- 2. builds ---------------------------------------------------------------
rec="$out/record-shell"
printf '#!/bin/sh\n# $1 is -c, $2 the command: write it down on one line, run nothing\nprintf "%%s\\n" "$2" | tr "\\n" " " >> "$REC_LOG"; echo >> "$REC_LOG"\n' \
    > "$rec"
chmod +x "$rec"
log="$out/commands.log"
: > "$log"
unset MAKEFLAGS MFLAGS MAKELEVEL
mapfile -t tests < <(make -s list-tests)
REC_LOG="$(pwd)/$log" make -s -B SHELL="$(pwd)/$rec" "${tests[@]/#/test-}" sim sim-rtl sim-rtlni > "$out/make.log" 2>&1 ||
    { echo "FAIL: make -B with the recording shell failed:"; tail -n 20 "$out/make.log"; fail=1; }
top=$(pwd)
# a compile/link command of sw/ or fw/ sources only, with an include path into tb/
tb_include_builds() {
    sed "s|$top/||g" "$1" |
        grep -E '(^|[ "=])(sw|fw)/[^ "]*\.(c|cc|cpp|S)([ "]|$)' |
        grep -vE '(^|[ "=])tb/[^ "]*\.(c|cc|cpp|v|sv)([ "]|$)' |
        grep -E -- '(-I|-isystem|-iquote|-idirafter)[[:space:]]*([^ "]*/)?tb(/|[ "]|$)' || true
}
seen=$(grep -cE 'sw/sim/(ni|net)_rtl\.cpp' "$log" || true)
if [ "$seen" -lt 2 ]; then
    echo "FAIL: the recorded builds miss kolo-sim's RTL back-ends (sw/sim/ni_rtl.cpp, net_rtl.cpp): $seen lines"; fail=1
fi
builds=$(sed "s|$top/||g" "$log" | grep -cE '(^|[ "=])(sw|fw)/[^ "]*\.(c|cc|cpp|S)([ "]|$)' || true)
hits=$(tb_include_builds "$log")
if [ -n "$hits" ]; then
    echo "FAIL: builds of shipped code with an include path into tb/:"
    echo "$hits" | cut -c1-400 | sed 's/^/    /'; fail=1
else
    echo "ok: $builds recorded commands build sw/ or fw/ sources, none of sw/ fw/ alone with -I into tb/"
fi
{
    echo "g++ -std=c++17 -O2 -Isw/include -Itb/common -c sw/sim/ni_rtl.cpp -o build/x.o"
    echo "verilator --cc --exe -CFLAGS \"-I$top/tb/unit/ni -I$top/sw/include\" $top/tb/unit/ni/tb_ni.cpp $top/sw/model/kolo_ni_model.c"
    echo "gcc -I/tbsplit/include -Isw/include -c sw/lib/kolo_ops.c"
} > "$out/planted.log"
[ "$(tb_include_builds "$out/planted.log" | wc -l)" = 1 ] ||
    { echo "FAIL: the planted -Itb/common build of sw/sim/ni_rtl.cpp was not caught (or a testbench build was)"; fail=1; }

[ $fail = 0 ] && echo "check_shipped: PASS" || echo "check_shipped: FAIL"
exit $fail
