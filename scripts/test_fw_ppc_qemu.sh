#!/bin/bash
# test-fw-ppc-qemu: boot the kolo firmware image for the PowerPC 440 (ML507) in
# QEMU and compare its routing self-test with the native build's.
#   scripts/test_fw_ppc_qemu.sh NATIVE_TOOL ELF
# Builds nothing (make provides both). Checks: the version line is on the UART,
# the self-test counts and digest lines equal the native tool's. A negative
# check feeds a wrong digest through the same comparison, which must refuse it.
# Prints PASS or FAIL; exit 0/1. SKIP (exit 0) only when a tool cannot be installed.
set -u
native=${1:?native tool}
elf=${2:?ELF image}
QEMU=${QEMU:-qemu-system-ppc}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-60}

for pair in qemu-system-ppc:qemu-system-ppc powerpc-linux-gnu-gcc:gcc-powerpc-linux-gnu; do
    cmd=${pair%%:*}
    if ! command -v "$cmd" >/dev/null 2>&1; then
        echo "SKIP: $cmd cannot be installed (package ${pair#*:} missing; run make deps)"
        exit 0
    fi
done

fail() { echo "FAIL: $*"; exit 1; }

# compare NAME EXPECTED ACTUAL: 0 when equal, else prints the mismatch, 1
compare() {
    if [ "$2" == "$3" ]; then
        echo "ok: $1: $3"
        return 0
    fi
    echo "mismatch: $1"
    echo "  native: $2"
    echo "  qemu:   $3"
    return 1
}

ver=$(sed -n 's/^#define KOLO_FW_VERSION "\(.*\)"$/\1/p' "${TOP:-.}/fw/kolo_fw.h")
[ -n "$ver" ] || fail "no KOLO_FW_VERSION in fw/kolo_fw.h"

nat_out=$("$native") || fail "native self-test failed (exit $?): $nat_out"
nat_counts=$(grep '^kolo selftest: ' <<<"$nat_out")
nat_digest=$(grep '^kolo selftest digest 0x' <<<"$nat_out")
[ -n "$nat_counts" ] && [ -n "$nat_digest" ] || fail "native tool printed no self-test lines: $nat_out"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
uart=$tmp/uart.txt
: >"$uart"
t0=$(date +%s.%N)
timeout "$BOOT_TIMEOUT" "$QEMU" -M virtex-ml507 -m 256 -display none -no-reboot -monitor none \
    -serial "file:$uart" -kernel "$elf" 2>"$tmp/qemu.err" &
qpid=$!
done_line=0
while kill -0 "$qpid" 2>/dev/null; do
    if grep -q '^kolo selftest done' "$uart"; then done_line=1; break; fi
    sleep 0.1
done
grep -q '^kolo selftest done' "$uart" && done_line=1
t1=$(date +%s.%N)
kill "$qpid" 2>/dev/null
wait "$qpid" 2>/dev/null
out=$(tr -d '\r' <"$uart")
echo "---- UART (QEMU virtex-ml507) ----"
echo "$out"
echo "----"
printf 'qemu boot to "kolo selftest done": %.2fs\n' "$(echo "$t1 - $t0" | bc 2>/dev/null || python3 -c "print($t1-$t0)")"
if [ $done_line -ne 1 ]; then
    sed 's/^/qemu: /' "$tmp/qemu.err"
    fail "no 'kolo selftest done' line within ${BOOT_TIMEOUT}s"
fi

want_ver="kolo firmware $ver (PowerPC 440, ML507)"
grep -qxF "$want_ver" <<<"$out" || fail "version line '$want_ver' missing"
echo "ok: version line: $want_ver"

ppc_counts=$(grep '^kolo selftest: ' <<<"$out")
ppc_digest=$(grep '^kolo selftest digest 0x' <<<"$out")
rc=0
compare "self-test counts" "$nat_counts" "$ppc_counts" || rc=1
compare "self-test digest" "$nat_digest" "$ppc_digest" || rc=1

# negative check: a digest off by one bit must not compare equal
nd=${nat_digest##*0x}
wrong=$(printf 'kolo selftest digest 0x%08x' $(( 0x$nd ^ 1 )))
if compare "negative check (native digest xor 1)" "$wrong" "$ppc_digest" >/dev/null; then
    fail "the comparison accepted a wrong digest ($wrong): it checks nothing"
fi
echo "ok: negative check: a wrong digest ($wrong) is reported as a mismatch"

[ $rc -eq 0 ] || fail "the PowerPC self-test differs from the native one"
echo "PASS"
