#!/bin/bash
# sos_suite.sh - build the unit and specification-example programs of the
# Sandia OpenSHMEM test suite (tests-sos, not part of kolo: its sources are
# only read, from where the user keeps them) with oshcc/oshc++ and run each
# on 2 PEs under kolo-run. Prints one line per program (result, seconds,
# mode) and a summary line per language. `make sos-suite SOS=<dir>` runs it.
#
#   scripts/sos_suite.sh SOS_DIR [NAME...]
#     SOS_DIR  a tests-sos checkout (https://github.com/openshmem-org/tests-sos)
#              or a Sandia OpenSHMEM checkout with its modules/tests-sos
#     NAME     run only these programs (e.g. bigget cxx_test_shmem_g)
#   Environment:
#     SOS_OUT      build and log directory (default build/sos)
#     SOS_LIMIT    wall seconds per program in cycle mode (default 60)
#     SOS_FAST_LIMIT  wall seconds per program under --fast (default 1800)
#     SOS_FAST=all run every program under --fast (default: only the
#                  programs listed in FAST_ONLY, which move gigabytes)
#     SOS_NPES     PEs (default 2)
#     SOS_OPTS     more kolo-run options for every program (e.g. --det, --ni=rtl)
#
# Programs left out, with the reason (docs/shmem.md, "Sandia OpenSHMEM test
# suite"): hybrid_mpi_* (need MPI), rma_coverage_pshmem (the pshmem_
# profiling names), the Fortran programs.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)

usage() {
    echo "usage: scripts/sos_suite.sh SOS_DIR [NAME...]" >&2
    echo "  SOS_DIR: a checkout of https://github.com/openshmem-org/tests-sos" >&2
    echo "  (git clone https://github.com/openshmem-org/tests-sos), or of" >&2
    echo "  Sandia OpenSHMEM with its submodule modules/tests-sos" >&2
    exit 2
}
[ $# -ge 1 ] || usage
src=$1
shift
if [ -d "$src/test/unit" ]; then
    t=$src/test
elif [ -d "$src/modules/tests-sos/test/unit" ]; then
    t=$src/modules/tests-sos/test
else
    echo "sos_suite: no test/unit (nor modules/tests-sos/test/unit) under '$src'" >&2
    usage
fi

out=${SOS_OUT:-$root/build/sos}
limit=${SOS_LIMIT:-60}
flimit=${SOS_FAST_LIMIT:-1800}
npes=${SOS_NPES:-2}
run=$root/build/sim/kolo-run
for f in "$run" "$root/build/lib/libkolo_shmem.a"; do
    [ -e "$f" ] || { echo "sos_suite: $f missing (make sim lib)" >&2; exit 2; }
done
mkdir -p "$out/bin" "$out/log"

# gigabytes of traffic: cycle mode would take hours (docs/shmem.md)
FAST_ONLY=" bigget bigput spam "

# name|language|sources|extra flags
progs=()
for f in "$t"/unit/*.c; do
    n=$(basename "$f" .c)
    case $n in
    mt_lock) continue ;; # part of mt_lock_test
    mt_lock_test) progs+=("$n|C|$f $t/unit/mt_lock.c|") ;;
    *) progs+=("$n|C|$f|") ;;
    esac
done
progs+=("query_thread_funneled|C|$t/unit/query_thread.c|-DENABLE_THREADS")
for f in "$t"/spec-example/*.c; do
    n=$(basename "$f" .c)
    case $n in hybrid_mpi_*) continue ;; esac
    progs+=("spec_$n|C|$f|")
done
for f in "$t"/unit/*.cpp; do
    progs+=("$(basename "$f" .cpp)|C++|$f|")
done

want=" $* "
declare -A pass fail
pass[C]=0 pass[C++]=0 fail[C]=0 fail[C++]=0
failed=()
printf '%-44s %-4s %-6s %8s  %s\n' program lang result seconds mode
for p in "${progs[@]}"; do
    IFS='|' read -r n lang srcs flags <<<"$p"
    [ $# -eq 0 ] || [[ $want == *" $n "* ]] || continue
    bin=$out/bin/$n log=$out/log/$n.log
    cc=$root/sw/shmem/oshcc
    [ "$lang" = C++ ] && cc=$root/sw/shmem/oshc++
    # built already, after its sources, the headers and the libraries: not again
    fresh=1
    for d in $srcs "$root"/sw/shmem/*.h "$root"/build/lib/libkolo_shmem.a "$root"/build/lib/libkolo.a; do
        [ "$bin" -nt "$d" ] || { fresh=0; break; }
    done
    : >"$log"
    # shellcheck disable=SC2086
    if [ $fresh = 0 ] && ! "$cc" -O1 -pthread -I"$t/include" $flags $srcs -o "$bin" -lm >>"$log" 2>&1; then
        printf '%-44s %-4s %-6s %8s  %s\n' "$n" "$lang" FAIL - "build (log: $log)"
        fail[$lang]=$((fail[$lang] + 1))
        failed+=("$n(build)")
        continue
    fi
    mode=cycle opts=() lim=$limit
    if [ "${SOS_FAST:-}" = all ] || [[ $FAST_ONLY == *" $n "* ]]; then
        mode=fast opts=(--fast --report) lim=$flimit
    fi
    t0=$(date +%s.%N)
    # kolo-run's own limit first; timeout(1) behind it in case the simulator hangs
    timeout -k 10 $((lim + 30)) "$run" -n "$npes" --timeout="$lim" "${opts[@]}" ${SOS_OPTS:-} "$bin" \
        >>"$log" 2>&1 </dev/null
    rc=$?
    secs=$(echo "$(date +%s.%N) - $t0" | bc)
    if [ $rc = 0 ]; then
        res=pass pass[$lang]=$((pass[$lang] + 1))
    else
        res=FAIL fail[$lang]=$((fail[$lang] + 1))
        failed+=("$n(status $rc)")
    fi
    extra=
    [ $rc = 0 ] || extra="status $rc"
    if [ $mode = fast ]; then
        g=$(grep -oE '[0-9.]+ GB per wall second' "$log" | tail -1)
        extra=${extra:+$extra, }$g
    fi
    printf '%-44s %-4s %-6s %8.1f  %s\n' "$n" "$lang" "$res" "$secs" "$mode${extra:+, $extra}"
done
for l in C C++; do
    echo "SOS $l: $((pass[$l] + fail[$l])) programs, ${pass[$l]} passed, ${fail[$l]} failed"
done
[ ${#failed[@]} = 0 ] || echo "failed: ${failed[*]} (logs: $out/log)"
[ ${#failed[@]} = 0 ]
