#!/bin/bash
# Run benchmarks by name (make target bench-<name>). Their BENCH lines go to
# stdout and are collected in build/bench.txt; the rest goes to
# build/bench-logs/<name>.log. A benchmark that fails is reported, not hidden.
set -u
BUILD=${BUILD:-build}
mkdir -p "$BUILD/bench-logs"
out=$BUILD/bench.txt
: > "$out"
failed=0
for b in "$@"; do
    log=$BUILD/bench-logs/$b.log
    if make --no-print-directory "bench-$b" >"$log" 2>&1; then
        grep '^BENCH ' "$log" | tee -a "$out"
    else
        echo "bench-$b FAILED (log: $log)"; tail -n 15 "$log"; failed=$((failed + 1))
    fi
done
echo "$(grep -c '^BENCH ' "$out") results in $out, $failed benchmark(s) failed"
[ $failed -eq 0 ]
