#!/bin/bash
# verilate_retry.sh LOG COMMAND... - run a Verilator --build command with its
# output in LOG; if it fails, run it once more with "-j 1". Verilator 5.006's
# makefile for --hierarchical builds verilates a hier block under a rule with
# two targets, which make -j may start twice at once: two verilator runs then
# write the same files and a truncated .cpp fails to compile (rare). The
# second run is serial. A real error fails both runs and LOG shows it.
set -u
log=$1
shift
"$@" >"$log" 2>&1 && exit 0
args=()
prev=""
for a in "$@"; do
    if [ "$prev" = "-j" ]; then a=1; fi
    args+=("$a")
    prev=$a
done
echo "verilate_retry: the build failed, running it again with -j 1 (first log: $log.first)" >&2
mv "$log" "$log.first"
"${args[@]}" >"$log" 2>&1
