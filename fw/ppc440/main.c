/* main.c - kolo service-processor firmware image for the PowerPC 440 of the
 * Xilinx ML507 (QEMU virtex-ml507): prints its version on the 16550 UART,
 * runs the routing self-test and prints its counts and digest, the same lines
 * fw/tools/selftest_native prints, then spins. */
#include "kolo_fw.h"
#include "kolo_selftest.h"
#include "uart16550.h"

#define SELFTEST_WS_BYTES (256u * 1024u)

static uint64_t selftest_ws[SELFTEST_WS_BYTES / sizeof(uint64_t)];

void ppc_main(void);
void kolo_ml507_firmware(void);

void ppc_main(void) {
    kolo_selftest_report r;
    uart_init();
    uart_puts("kolo firmware " KOLO_FW_VERSION " (PowerPC 440, ML507)\n");
    kolo_selftest_run(selftest_ws, sizeof selftest_ws, &r);
    (void)kolo_selftest_print(&r, uart_putc);
    uart_puts("kolo selftest done\n");
#ifdef KOLO_ML507_BOARD
    /* on the board (make fw-ppc-board): the service block is there, run the
     * firmware; QEMU's ML507 has no kolo service block at its address */
    kolo_ml507_firmware();
#endif
    for (;;)
        ;
}
