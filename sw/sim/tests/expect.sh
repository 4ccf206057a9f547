# expect.sh - sourced by the kolo-sim test scripts (run_sim_tests.sh,
# run_fault_tests.sh): counting checks and `expect`.
fails=0
out=""

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# expect STATUS PATTERN -- command...: run, check status and that the output
# matches; the output stays in $out. On failure its tail is shown (without the
# service processors' per-node report rows).
expect() {
    local want=$1 pat=$2
    shift 3
    local rc
    out=$("$@" 2>&1)
    rc=$?
    if [ "$rc" != "$want" ]; then
        fail "$* -> status $rc, expected $want"
        echo "$out" | grep -v '^  [0-9a-f]\{3\} ' | tail -n 30 | sed 's/^/    /'
        return 1
    fi
    if [ -n "$pat" ] && ! grep -qE -- "$pat" <<<"$out"; then
        fail "$* -> output does not match /$pat/"
        echo "$out" | tail -n 30 | sed 's/^/    /'
        return 1
    fi
    ok "$* -> $rc${pat:+, /$pat/}"
    return 0
}
