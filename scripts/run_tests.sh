#!/bin/bash
# Run tests by name (make target test-<name>), each with its log kept in
# build/test-logs/<name>.log; print PASS/FAIL per test with its time and end
# with the line "N passed, N failed". Exit status 1 if any failed.
# Names of the form formal-full-* are run as they are (make formal).
# A failed test's log tail is printed so CI output says why.
#
# Parallel (TEST_JOBS, default: the number of CPUs; TEST_JOBS=1 runs one test
# after the other, in the given order): scripts/test_plan.py reads make's
# database (`make -pq`) and
#   1. every file any test needs (Verilator models, programs, libraries) is
#      built first by ONE `make -j TEST_JOBS -k` (make's own graph: no file is
#      built by two makes at once). A build that fails there is not reported
#      by itself: the tests that need it fail, with the build's error in their
#      log;
#   2. the tests run in families (the tests of one mk/*.mk fragment, which
#      share output directories), one after the other inside a family and
#      TEST_JOBS families side by side, the longest first (times of the last
#      run, build/test-logs/times.txt, else scripts/test_weights.txt).
# Lines are printed as tests end (so not in the given order).
set -u
BUILD=${BUILD:-build}
LOGDIR=$BUILD/test-logs
mkdir -p "$LOGDIR"
start_all=$(date +%s)
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
results=$LOGDIR/results.txt
: > "$results"
# an old build directory may list headers that have moved since: forget those
# dependency files so that their objects rebuild (scripts/prune_stale_deps.py)
python3 "$(dirname "$0")/prune_stale_deps.py" "$BUILD"

target_of() { case $1 in formal-full-*) echo "$1" ;; *) echo "test-$1" ;; esac; }

# run_one NAME: runs one test, appends "PASS|FAIL name seconds" to $results and
# prints its line (and a failed test's log tail) under a lock
run_one() {
    local t=$1 log=$LOGDIR/$1.log s r
    s=$(date +%s)
    if make --no-print-directory "$(target_of "$t")" >"$log" 2>&1; then r=PASS; else r=FAIL; fi
    local secs=$(( $(date +%s) - s ))
    {
        flock 9
        echo "$r $t $secs" >> "$results"
        printf '%-4s %-40s %4ds\n' "$r" "$t" "$secs"
        if [ $r = FAIL ]; then
            echo "---- last lines of $log ----"; tail -n 25 "$log"; echo "----"
        fi
    } 9>"$LOGDIR/.print.lock"
}

parallel=1
[ "$jobs" -gt 1 ] 2>/dev/null || parallel=0
case " $* " in *" formal-full-"*) parallel=0 ;; esac   # make formal: one proof at a time
[ $# -gt 1 ] || parallel=0

if [ $parallel = 0 ]; then
    for t in "$@"; do run_one "$t"; done
else
    make -pq list-tests > "$LOGDIR/make-db.txt" 2>/dev/null
    if ! python3 "$(dirname "$0")/test_plan.py" "$LOGDIR/make-db.txt" "$@" > "$LOGDIR/plan.txt"; then
        echo "run_tests: scripts/test_plan.py failed; running one test at a time"
        for t in "$@"; do run_one "$t"; done
    else
        mapfile -t prebuild < <(awk '$1 == "PREBUILD" {print $2}' "$LOGDIR/plan.txt")
        awk '$1 == "FAMILY" {$1 = ""; $2 = ""; sub(/^ +/, ""); print}' "$LOGDIR/plan.txt" > "$LOGDIR/families.txt"
        s=$(date +%s)
        rc=0
        make --no-print-directory -k -j"$jobs" "${prebuild[@]}" > "$LOGDIR/prebuild.log" 2>&1 || rc=$?
        echo "prebuild: ${#prebuild[@]} files with make -j$jobs in $(( $(date +%s) - s ))s$([ $rc = 0 ] || echo " (some failed: their tests fail; $LOGDIR/prebuild.log)")"
        echo 0 > "$LOGDIR/.next"
        worker() {
            local i line
            while :; do
                { flock 8; i=$(cat "$LOGDIR/.next"); echo $((i + 1)) > "$LOGDIR/.next"; } 8>"$LOGDIR/.next.lock"
                line=$(sed -n "$((i + 1))p" "$LOGDIR/families.txt")
                [ -n "$line" ] || return 0
                for t in $line; do run_one "$t"; done
            done
        }
        pids=()
        for _ in $(seq "$jobs"); do worker & pids+=($!); done
        wait "${pids[@]}"
        # every test named must have a result (a family lost by the plan is a failure)
        for t in "$@"; do
            grep -q "^[A-Z]* $t [0-9]*$" "$results" || { echo "FAIL $t: not run (not in $LOGDIR/plan.txt)"; echo "FAIL $t 0" >> "$results"; }
        done
    fi
fi

awk '{print $2, $3}' "$results" > "$LOGDIR/times.txt"
pass=$(grep -c '^PASS ' "$results")
fail=$(grep -c '^FAIL ' "$results")
echo "total $(( $(date +%s) - start_all ))s"
[ "$fail" -eq 0 ] || echo "failed: $(awk '$1 == "FAIL" {printf "%s ", $2}' "$results")"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
