#!/bin/bash
# Run tests by name (make target test-<name>), each with its log kept in
# build/test-logs/<name>.log; print PASS/FAIL per test with its time and end
# with the line "N passed, N failed". Exit status 1 if any failed.
# Names of the form formal-full-* are run as they are (make formal).
# A failed test's log tail is printed so CI output says why.
set -u
BUILD=${BUILD:-build}
LOGDIR=$BUILD/test-logs
mkdir -p "$LOGDIR"
pass=0; fail=0; failed=()
start_all=$(date +%s)
for t in "$@"; do
    case $t in formal-full-*) target=$t ;; *) target=test-$t ;; esac
    log=$LOGDIR/$t.log
    s=$(date +%s)
    if make --no-print-directory "$target" >"$log" 2>&1; then
        pass=$((pass + 1)); r=PASS
    else
        fail=$((fail + 1)); r=FAIL; failed+=("$t")
    fi
    printf '%-4s %-40s %4ds\n' "$r" "$t" $(( $(date +%s) - s ))
    if [ $r = FAIL ]; then
        echo "---- last lines of $log ----"; tail -n 25 "$log"; echo "----"
    fi
done
echo "total $(( $(date +%s) - start_all ))s"
[ $fail -eq 0 ] || echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
