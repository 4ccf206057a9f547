# expect.sh - sourced by the kolo-sim test scripts (run_sim_tests.sh,
# run_fault_tests.sh): counting checks and `expect`.
fails=0
out=""

fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

# show_out: on a failure, what the PEs and kolo-sim printed before the report
# (a failing PE's own message), then the report's summary (without its
# per-NI, per-PE and per-node tables)
show_out() {
    local rep='^==== kolo-sim report ====$'
    sed "/$rep/,\$d" <<<"$out" | grep -v '^  [0-9a-f]\{3\} ' | tail -n 30 | sed 's/^/    /'
    sed -n "/$rep/,/^---- /p" <<<"$out" | grep -v '^---- ' | sed 's/^/    /'
}

# expect STATUS PATTERN -- command...: run, check status and that the output
# matches; the output stays in $out. On failure show_out shows it.
expect() {
    local want=$1 pat=$2
    shift 3
    local rc
    out=$("$@" 2>&1)
    rc=$?
    if [ "$rc" != "$want" ]; then
        fail "$* -> status $rc, expected $want"
        show_out
        return 1
    fi
    if [ -n "$pat" ] && ! grep -qE -- "$pat" <<<"$out"; then
        fail "$* -> output does not match /$pat/"
        show_out
        return 1
    fi
    ok "$* -> $rc${pat:+, /$pat/}"
    return 0
}
