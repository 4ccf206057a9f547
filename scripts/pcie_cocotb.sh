#!/usr/bin/env bash
# pcie_cocotb.sh - one cocotb run of tb/cocotb (mk/pcie_cocotb.mk): builds and
# runs in DIR with the project's venv, prints the seed, the tests' result
# lines and BENCH lines, and fails unless every selected test passed.
# usage: scripts/pcie_cocotb.sh DIR USP "TESTCASES" SEED [VAR=value ...]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$1 usp=$2 cases=$3 seed=$4
cases_csv=$(echo $cases | tr " " ,)   # cocotb: TESTCASE=a,b,c
shift 4
mkdir -p "$dir"
rm -f "$dir/results.xml"
export PATH="$top/.venv/bin:$PATH"
echo "pcie-cocotb $(basename "$dir"): seed $seed (SEED=$seed replays), log $dir/run.log"
rc=0
(cd "$dir" && env "$@" make -s -f "$top/tb/cocotb/Makefile" TOP="$top" KOLO_USP="$usp" \
    TESTCASE="$cases_csv" SEED="$seed" > run.log 2>&1) || rc=$?
grep -E "BENCH |cocotb.kolo .*(seed|MPS|reads|pairs|INFO +[0-9])" "$dir/run.log" | sed -E 's/^ *[0-9.]+[a-z]+ +INFO +cocotb.kolo +//' || true
grep -E '^BENCH ' "$dir/run.log" || true
if [ ! -f "$dir/results.xml" ]; then
  tail -n 30 "$dir/run.log"; echo "FAIL pcie-cocotb $(basename "$dir"): no results (exit $rc)"; exit 1
fi
n=$(grep -c '<testcase' "$dir/results.xml" || true)
want=$(wc -w <<< "$cases")
if grep -qE '<failure|<error' "$dir/results.xml" || [ "$n" -lt "$want" ]; then
  grep -E 'FAIL|Error|assert' "$dir/run.log" | head -n 20
  echo "FAIL pcie-cocotb $(basename "$dir"): $n test(s) run, failures in $dir/results.xml (seed $seed)"; exit 1
fi
echo "PASS pcie-cocotb $(basename "$dir"): $n test(s) ($cases) (seed $seed)"
