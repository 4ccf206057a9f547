#!/bin/bash
# test_fw_rv32.sh - checks of the RV32 firmware images (mk/fw_rv32.mk, mk/cpu.mk).
#
#   test_fw_rv32.sh qemu "NATIVE_TOOL [--tori=N]" ELF
#       boot the self-test image in qemu-system-riscv32 -M virt; its version line must be
#       on the UART and its self-test lines (counts, digest) must equal the native tool's
#   test_fw_rv32.sh rtl "NATIVE_TOOL [--tori=N]" TB_CPU IMEM_HEX DMEM_HEX
#       the same image on kolo_sp in Verilator (tb_cpu, in lock step with the ISS): the
#       same lines; prints the cycles per instruction
#   test_fw_rv32.sh toobig DIR "CC CFLAGS" "LDFLAGS" "SOURCES" ELF
#       Bad input: an image larger than its RAM must be refused at build time with a clear
#       message: (1) the firmware linked for a DMEM smaller than its data (the linker:
#       "region `DMEM' overflowed"), (2) an IMEM smaller than its code, (3) kolo_elf2hex.py
#       given a smaller RAM than the image was linked for. Each must fail with the message.
# Every comparison has a negative check: a digest off by one bit must be reported.
# Prints PASS or FAIL; exit 0/1.
set -u
mode=${1:?mode}
fail() { echo "FAIL: $*"; exit 1; }

# compare NAME EXPECTED ACTUAL: 0 when equal, else prints the mismatch, 1
compare() {
    if [ "$2" == "$3" ]; then echo "ok: $1: $3"; return 0; fi
    echo "mismatch: $1"; echo "  native: $2"; echo "  $4:   $3"; return 1
}

# check_lines NATIVE_OUT TARGET_OUT TARGET_NAME
check_lines() {
    local nat=$1 out=$2 name=$3 rc=0
    local ver want nd wrong
    ver=$(sed -n 's/^#define KOLO_FW_VERSION "\(.*\)"$/\1/p' "${TOP:-.}/fw/kolo_fw.h")
    want="kolo firmware $ver (RV32IM)"
    grep -qxF "$want" <<<"$out" || fail "version line '$want' missing on $name"
    echo "ok: version line: $want"
    compare "self-test counts" "$(grep '^kolo selftest: ' <<<"$nat")" "$(grep '^kolo selftest: ' <<<"$out")" "$name" || rc=1
    compare "self-test digest" "$(grep '^kolo selftest digest 0x' <<<"$nat")" \
        "$(grep '^kolo selftest digest 0x' <<<"$out")" "$name" || rc=1
    nd=$(grep '^kolo selftest digest 0x' <<<"$nat"); nd=${nd##*0x}
    wrong=$(printf 'kolo selftest digest 0x%08x' $(( 0x$nd ^ 1 )))
    if compare "negative check" "$wrong" "$(grep '^kolo selftest digest 0x' <<<"$out")" "$name" >/dev/null; then
        fail "the comparison accepted a wrong digest ($wrong): it checks nothing"
    fi
    echo "ok: negative check: a wrong digest ($wrong) is reported as a mismatch"
    [ $rc -eq 0 ] || fail "the $name self-test differs from the native one"
}

native_lines() {  # "TOOL [ARGS]"
    local out
    # shellcheck disable=SC2086
    out=$($1) || fail "native self-test failed (exit $?): $out"
    grep -q '^kolo selftest digest 0x' <<<"$out" || fail "native tool printed no digest: $out"
    echo "$out"
}

case $mode in
qemu)
    nat=$(native_lines "$2") || exit 1
    elf=$3
    command -v qemu-system-riscv32 >/dev/null || fail "qemu-system-riscv32 missing (make deps)"
    t0=$(date +%s.%N)
    # the image ends the run through the virt machine's finisher (sifive_test)
    out=$(timeout "${BOOT_TIMEOUT:-60}" qemu-system-riscv32 -M virt -m 128 -bios none -kernel "$elf" \
            -display none -monitor none -serial stdio -no-reboot 2>&1 | tr -d '\r')
    rc=${PIPESTATUS[0]}
    t1=$(date +%s.%N)
    echo "---- UART (qemu-system-riscv32 -M virt) ----"; echo "$out"; echo "----"
    printf 'qemu run: %.2fs, exit %s\n' "$(python3 -c "print($t1-$t0)")" "$rc"
    grep -q '^kolo selftest done' <<<"$out" || fail "no 'kolo selftest done' line"
    [ "$rc" -eq 0 ] || fail "qemu exit status $rc (the finisher reports a failure, or a timeout)"
    check_lines "$nat" "$out" qemu
    echo PASS ;;
rtl)
    nat=$(native_lines "$2") || exit 1
    tb=$3 imem=$4 dmem=$5
    log=$(mktemp)
    trap 'rm -f "$log"' EXIT
    "$tb" --imem="$imem" --dmem="$dmem" --max-cycles=${MAX_CYCLES:-400000000} --stats >"$log" 2>&1
    rc=$?
    grep -v '^console: ' "$log"
    out=$(sed -n 's/^console: //p' "$log")
    echo "---- console (kolo_sp, Verilator) ----"; echo "$out"; echo "----"
    [ $rc -eq 0 ] || fail "tb_cpu failed (exit $rc)"
    check_lines "$nat" "$out" kolo_sp
    echo PASS ;;
toobig)
    dir=$2 cc=$3 ldflags=$4 srcs=$5 elf=$6
    mkdir -p "$dir"
    # shellcheck disable=SC2086
    try() {  # NAME EXPECTED-MESSAGE-REGEX COMMAND...
        local name=$1 re=$2; shift 2
        if "$@" >"$dir/out.txt" 2>&1; then fail "$name: accepted"; fi
        grep -Eq "$re" "$dir/out.txt" || { cat "$dir/out.txt"; fail "$name: refused without the message /$re/"; }
        echo "ok: $name refused: $(grep -Em1 "$re" "$dir/out.txt")"
    }
    # shellcheck disable=SC2086
    try "firmware linked for a 64 KB DMEM" "region .DMEM. overflowed by [0-9]+ bytes" \
        $cc $(sed "s/KOLO_DMEM_BYTES=[^ ]*/KOLO_DMEM_BYTES=0x10000/" <<<"$ldflags") $srcs -o "$dir/a.elf"
    # shellcheck disable=SC2086
    try "firmware linked for an 8 KB IMEM" "region .IMEM. overflowed by [0-9]+ bytes" \
        $cc $(sed "s/KOLO_IMEM_BYTES=[^ ]*/KOLO_IMEM_BYTES=0x2000/" <<<"$ldflags") $srcs -o "$dir/b.elf"
    try "an image given to kolo_elf2hex.py for a 16 KB IMEM" "does not fit IMEM: .* bytes too many" \
        "${TOP:-.}/fw/tools/kolo_elf2hex.py" "$elf" --imem "$dir/i.hex" --dmem "$dir/d.hex" --imem-bytes 0x4000
    try "an image given to kolo_elf2hex.py for a 64 KB DMEM" "does not fit DMEM: .* bytes too many" \
        "${TOP:-.}/fw/tools/kolo_elf2hex.py" "$elf" --imem "$dir/i.hex" --dmem "$dir/d.hex" --dmem-bytes 0x10000
    # and the real image passes the same checks at its own sizes
    "${TOP:-.}/fw/tools/kolo_elf2hex.py" "$elf" --imem "$dir/i.hex" --dmem "$dir/d.hex" \
        || fail "the image does not pass at the default sizes"
    echo "ok: the image passes at its own sizes"
    echo PASS ;;
*) fail "unknown mode $mode" ;;
esac
