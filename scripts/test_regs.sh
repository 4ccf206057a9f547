#!/bin/bash
# test regs-gen: the generated register files are what the map gives today,
# the C header compiles and agrees with the map on sample addresses, and the
# generator refuses maps with overlapping/unaligned/out-of-space registers,
# overlapping fields and unknown access kinds.
set -euo pipefail
out=${1:-build/regs-test}
rm -rf "$out"; mkdir -p "$out"
map=rtl/regs/kolo_svc_regs.toml
python3 scripts/gen_regs.py $map --vh "$out/r.vh" --h "$out/r.h" --md "$out/r.md"
fail=0
# stale_check MAP GENERATED:CHECKED_IN...: each checked-in file is what the map gives
stale_check() {
    local map=$1 pair; shift
    for pair in "$@"; do
        if ! cmp -s "${pair%%:*}" "${pair#*:}"; then
            echo "FAIL: ${pair#*:} is not what $map gives: run 'make regs'"; fail=1
        fi
    done
}
stale_check $map "$out/r.vh:rtl/include/kolo_svc_regs.vh" "$out/r.h:sw/include/kolo_svc_regs.h" "$out/r.md:docs/registers.md"
# the service processor's memory map
spmap=rtl/regs/kolo_sp_regs.toml
python3 scripts/gen_regs.py $spmap --vh "$out/sp.vh" --h "$out/sp.h" --ld "$out/sp.ld" --md "$out/sp.md"
stale_check $spmap "$out/sp.vh:rtl/include/kolo_sp_regs.vh" "$out/sp.h:sw/include/kolo_sp_regs.h" \
            "$out/sp.ld:fw/rv32/kolo_sp_regs.ld" "$out/sp.md:docs/sp-map.md"
# the link's CRC-32C masks (generated from the polynomial, not from a map)
python3 scripts/gen_crc_masks.py "$out/crc.vh"
if ! cmp -s "$out/crc.vh" rtl/include/kolo_crc32c_masks.vh; then
    echo "FAIL: rtl/include/kolo_crc32c_masks.vh is not what scripts/gen_crc_masks.py gives: run 'make regs'"; fail=1
fi
# the UART host bridge's protocol and registers (8-bit enums: width = 8)
umap=rtl/regs/kolo_uart_regs.toml
python3 scripts/gen_regs.py $umap --vh "$out/u.vh" --h "$out/u.h"
stale_check $umap "$out/u.vh:rtl/include/kolo_uart_regs.vh" "$out/u.h:sw/include/kolo_uart_regs.h"
grep -q "define KOLO_UART_SYNC_REQ 8'd165" rtl/include/kolo_uart_regs.vh || { echo "FAIL: an 8-bit enum is not 8'd"; fail=1; }
# the NI protocol (op codes, status codes, header fields, BAR0)
nimap=rtl/regs/kolo_ni_regs.toml
python3 scripts/gen_regs.py $nimap --vh "$out/ni.vh" --h "$out/ni.h" --md "$out/ni.md"
stale_check $nimap "$out/ni.vh:rtl/include/kolo_ni_regs.vh" "$out/ni.h:sw/include/kolo_ni_regs.h" "$out/ni.md:docs/ni-regs.md"
# the firmware's MGMT message kinds and host-message area
fwmap=rtl/regs/kolo_fw_msg.toml
python3 scripts/gen_regs.py $fwmap --vh "$out/fwm.vh" --h "$out/fwm.h" --md "$out/fwm.md"
stale_check $fwmap "$out/fwm.vh:rtl/include/kolo_fw_msg.vh" "$out/fwm.h:sw/include/kolo_fw_msg.h" "$out/fwm.md:docs/fw-msg.md"
# the host-message area lies wholly in the host mailbox (HMBOX): its first
# register is HMBOX_WORD(0), its last word within HMBOX_WORD_COUNT words.
# area_check FWM_H SVC_H: prints the complaint and returns 1 when it does not
area_check() {
    python3 - "$1" "$2" <<'PY'
import re, sys
fwm, svc = (open(f).read() for f in sys.argv[1:])
box = re.search(r"#define KOLO_SVC_HMBOX_WORD\(i\) \(0x([0-9A-F]+)u", svc)
cnt = re.search(r"#define KOLO_SVC_HMBOX_WORD_COUNT ([0-9]+)u", svc)
regs = re.findall(r"#define KOLO_FWM_HMSG_([A-Z_]+?)(\(i\))? \(0x([0-9A-F]+)u \+ 0x([0-9A-F]+)u", fwm)
if not box or not cnt or not regs:
    sys.exit("the host-message area or HMBOX not found in the headers")
lo, hi = int(box.group(1), 16), int(box.group(1), 16) + 4 * int(cnt.group(1))
for name, arr, base, off in regs:
    n = 1
    if arr:
        c = re.search(r"#define KOLO_FWM_HMSG_%s_COUNT ([0-9]+)u" % name, fwm)
        n = int(c.group(1)) if c else 1
    a = int(base, 16) + int(off, 16)
    if a < lo or a + 4 * n > hi:
        sys.exit("HMSG_%s (0x%X, %d words) is not within HMBOX (0x%X..0x%X)" % (name, a, n, lo, hi - 1))
if int(regs[0][2], 16) != lo:
    sys.exit("the host-message area starts at 0x%s, HMBOX at 0x%X" % (regs[0][2], lo))
PY
}
msg=$(area_check sw/include/kolo_fw_msg.h sw/include/kolo_svc_regs.h 2>&1) || { echo "FAIL: $msg"; fail=1; }
# planted: an area one register past the mailbox's end is caught
sed -E 's/^(#define KOLO_FWM_HMSG_RX_QUEUED \(0x[0-9A-F]+u \+ )0x74u/\10x100u/' sw/include/kolo_fw_msg.h > "$out/fwm_past.h"
if area_check "$out/fwm_past.h" sw/include/kolo_svc_regs.h > /dev/null; then
    echo "FAIL: a planted host-message register past HMBOX was not caught"; fail=1
fi
# no op code, status code or register offset written twice: no C source
# defines a name the generated header defines (a second definition is
# stale by construction), and the NI's RTL has no op/status literals
names=$(sed -nE 's/^#define (KOLO_[A-Z0-9_]+).*/\1/p; s/^    (KOLO_[A-Z0-9_]+) = .*/\1/p' sw/include/kolo_ni_regs.h | grep -v '^KOLO_NI_REGS_H$' | paste -sd'|')
c_twice() { grep -nE "^[[:space:]]*#[[:space:]]*define[[:space:]]+($names)\b|^[[:space:]]*($names)[[:space:]]*=" "$@" 2>/dev/null; }
v_literal() { grep -nE "(ST|OP|D)_[A-Z_]+ *= *[48]'d[0-9]+" "$@"; }
if c_twice sw/include/*.h sw/lib/*.[ch] sw/model/*.[ch] sw/sim/*.[ch]* sw/shmem/*.[ch] sw/rtlsim/*.h tb/unit/ni/*.h tb/common/*.h |
        grep -v '^sw/include/kolo_ni_regs.h:'; then
    echo "FAIL: NI op/status codes or BAR0 offsets defined outside rtl/regs/kolo_ni_regs.toml"; fail=1
fi
if v_literal rtl/ni/*.v; then
    echo "FAIL: NI op/status codes as literals in rtl/ni: use \`KOLO_OP_*, \`KOLO_D_*, \`KOLO_ST_* of kolo_ni_regs.vh"; fail=1
fi
# planted: a second definition in C and a literal in the RTL are caught
printf '#define KOLO_CSR_E2E_CTRL 0x50u\nenum x {\n    KOLO_ST_TIMEOUT = 12,\n};\n' > "$out/twice.h"
[ "$(c_twice "$out/twice.h" | wc -l)" = 2 ] || { echo "FAIL: a planted second definition was not caught"; fail=1; }
printf "  localparam [7:0] ST_TIMEOUT = 8'd12;\n" > "$out/lit.v"
v_literal "$out/lit.v" > /dev/null || { echo "FAIL: a planted RTL status literal was not caught"; fail=1; }
# the header compiles and its macros give the documented addresses
cat > "$out/t.c" <<'C'
#include <stdio.h>
#include "kolo_svc_regs.h"
#include "kolo_sp_regs.h"
#include "kolo_uart_regs.h"
#include "kolo_ni_regs.h"
#define EXPECT(e, v) do { if ((e) != (v)) { printf("FAIL: %s = 0x%x, expected 0x%x\n", #e, (unsigned)(e), (unsigned)(v)); bad = 1; } } while (0)
int main(void) {
    int bad = 0;
    EXPECT(KOLO_SVC_SYS_ID, 0x0000u);
    EXPECT(KOLO_SVC_LINK_CTRL(0), 0x0200u);
    EXPECT(KOLO_SVC_LINK_STATUS(5), 0x0200u + 5 * 0x40u + 4u);
    EXPECT(KOLO_SVC_RT_SHADOW_ENTRY(4095), 0x4000u + 4u * 4095u);
    EXPECT(KOLO_SVC_MBX_RX_DATA, 0x0628u);
    EXPECT(KOLO_SVC_EVT_DATA_TYPE_MASK, 0xFu);
    EXPECT(KOLO_SVC_RT_EPOCH_BANK_SHIFT, 16u);
    if (KOLO_SVC_RT_SHADOW_ENTRY(4095) + 4u > KOLO_SVC_SPACE) { puts("FAIL: shadow table beyond space"); bad = 1; }
    EXPECT(KOLO_SP_CLINT_MTIME_LO, 0x0200BFF8u);
    EXPECT(KOLO_SP_DMEM_BASE, 0x80100000u);
    EXPECT(KOLO_SP_SVC_SIZE, KOLO_SVC_SPACE);
    EXPECT(KOLO_SP_CONSOLE_LSR_THRE_MASK, 0x2000u);
    EXPECT(KOLO_OP_FETCH_OR, 13);
    EXPECT(KOLO_ST_TIMEOUT, 12);
    EXPECT(KOLO_D_OR, 12);
    EXPECT(KOLO_CSR_E2E_UNREACH, 0x78u);
    EXPECT(KOLO_CSR_E2E_RESYNC, 0x80u);
    EXPECT(KOLO_CSR_CYCLES, 0x88u);
    EXPECT(KOLO_CSR_CTX(15) + KOLO_CTX_OUTSTANDING, 0x1000u + 15u * 0x40u + 0x28u);
    EXPECT(KOLO_CSR_WIN(3) + KOLO_WIN_CTRL, 0x2070u);
    EXPECT(KOLO_CSR_ROUTE(4095), 0x7FFCu);
    EXPECT(KOLO_CSR_DOORBELL(15) + KOLO_DB_OUTSTANDING, 0x1F018u);
    EXPECT(KOLO_H0_OP_SHIFT, 24u);
    EXPECT((unsigned)(KOLO_H0_LEN_MASK >> KOLO_H0_LEN_SHIFT), 0x3Fu);
    EXPECT((unsigned)(KOLO_H1_TAG_MASK >> 48), 0xFFu);
    if (KOLO_CSR_DOORBELL(KOLO_NI_NUM_CTX) != KOLO_BAR0_SIZE) { puts("FAIL: doorbell pages do not end BAR0"); bad = 1; }
    EXPECT(KOLO_UART_SYNC_REQ, 0xA5u);
    EXPECT(KOLO_UART_BRIDGE_CONSOLE_DROPS, 0x20u);
    return bad;
}
C
gcc -std=c11 -Wall -Wextra -Werror -Isw/include "$out/t.c" -o "$out/t" && "$out/t" || fail=1
# the Verilog constants parse in all three tools' common subset (Icarus here)
printf '`include "kolo_svc_regs.vh"\n`include "kolo_ni_regs.vh"\nmodule t; initial begin if (`KOLO_SVC_MBX_RX_DATA !== 32'"'"'h628 || `KOLO_OP_NAK !== 4'"'"'d10 || `KOLO_H0_LASTB_HI != 61 || `KOLO_CSR_E2E_CTRL !== 32'"'"'h50) $display("FAIL vh"); end endmodule\n' > "$out/t.v"
iverilog -g2005 -Irtl/include -o "$out/t.vvp" "$out/t.v" && vvp -n "$out/t.vvp" | (! grep FAIL) || fail=1
# broken maps must be refused
bad() {  # name, python expression editing the text t
    python3 - "$map" "$out/bad.toml" "$2" <<'PY'
import sys
t = open(sys.argv[1]).read()
t = eval(sys.argv[3])
open(sys.argv[2], "w").write(t)
PY
    if python3 scripts/gen_regs.py "$out/bad.toml" --check 2>"$out/bad.err"; then
        echo "FAIL: a map with $1 was accepted"; fail=1
    else
        echo "refused ($1): $(cat "$out/bad.err")"
    fi
}
bad "overlapping registers" 't.replace("name = \"VERSION\"\n  offset = 0x04", "name = \"VERSION\"\n  offset = 0x00", 1)'
bad "unaligned offset" 't.replace("offset = 0x10\n  access = \"rw\"\n  desc = \"free", "offset = 0x11\n  access = \"rw\"\n  desc = \"free", 1)'
bad "a register beyond the space" 't.replace("count = 4096", "count = 4097", 1)'
bad "overlapping fields" 't.replace("[\"YM1\", \"7:4\"", "[\"YM1\", \"7:3\"", 1)'
bad "an unknown access kind" 't.replace("access = \"rc\"", "access = \"rx\"", 1)'
bad "overlapping repeated blocks" 't.replace("stride = 0x40", "stride = 0x20", 1)'
bad "a duplicate enum value" 't.replace("[\"MBX_OVERFLOW\", 5", "[\"MBX_OVERFLOW\", 4", 1)'
bad "an enum value wider than its width" 't.replace("[\"MBX_OVERFLOW\", 5", "[\"MBX_OVERFLOW\", 16", 1)'
map=$nimap
bad "a register inside an 8-byte one" 't.replace("name = \"ERR_CSR\"\n  offset = 0x14", "name = \"ERR_CSR\"\n  offset = 0x24", 1)'
bad "overlapping header fields" 't.replace("[\"SRC\", \"23:12\"", "[\"SRC\", \"24:12\"", 1)'
bad "a shared field outside its partner" 't.replace("[\"ASIZE\", \"60:59\"", "[\"ASIZE\", \"62:59\"", 1)'
[ $fail -eq 0 ] && echo "regs-gen: generated files current, header and constants checked, 11 broken maps refused"
exit $fail
