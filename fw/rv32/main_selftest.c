/* main_selftest.c - the routing self-test image for RV32IM (kolo_sp in
 * Verilator, QEMU's riscv32 virt machine): prints its version on the
 * console, runs the self-test, prints the same lines as the native tool
 * (fw/tools/selftest_native) and the PowerPC 440 image, and ends the run
 * through the finisher (pass, or fail with code 1 when the self-test found a
 * failure). Built with -DKOLO_SELFTEST_QUICK_TORI=N: the quick self-test
 * over the first N sample tori (selftest_native --tori=N prints the same),
 * for the core in simulation. */
#include "kolo_fw.h"
#include "kolo_rv32.h"
#include "kolo_selftest.h"

#define SELFTEST_WS_BYTES (48u * 1024u)

static uint64_t selftest_ws[SELFTEST_WS_BYTES / sizeof(uint64_t)];

void kolo_rv32_main(void) {
    kolo_selftest_report r;
    uint32_t fail;
    kolo_rv32_puts("kolo firmware " KOLO_FW_VERSION " (RV32IM)\n");
#ifdef KOLO_SELFTEST_QUICK_TORI
    kolo_selftest_run_tori(selftest_ws, sizeof selftest_ws, KOLO_SELFTEST_QUICK_TORI, &r);
#else
    kolo_selftest_run(selftest_ws, sizeof selftest_ws, &r);
#endif
    fail = (uint32_t)kolo_selftest_print(&r, kolo_rv32_putc);
    kolo_rv32_puts("kolo selftest done\n");
    kolo_rv32_finish(fail);
}
