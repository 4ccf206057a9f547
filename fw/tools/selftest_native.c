/* selftest_native.c - the firmware's routing self-test, built for the host.
 * Prints exactly the self-test lines the PowerPC 440 and RV32 images print on
 * their UART; scripts/test_fw_ppc_qemu.sh and scripts/test_fw_rv32.sh compare
 * them. --tori=N: the quick self-test over the first N sample tori (the RV32
 * quick image's, for the simulated core). Exit status 1 when the
 * self-test finds a failure (a deadlock, a bad entry, a routing error);
 * unrouted pairs are reported, as the firmware reports them, not failed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kolo_fw.h"
#include "kolo_selftest.h"

static void native_putc(char c) { putchar(c); }

int main(int argc, char **argv) {
    size_t n = kolo_selftest_workspace_size();
    unsigned tori = 1000; /* all */
    if (argc == 2 && !strncmp(argv[1], "--tori=", 7)) {
        tori = (unsigned)strtoul(argv[1] + 7, NULL, 10);
    } else if (argc > 1) {
        fprintf(stderr, "usage: selftest_native [--tori=N]   (the first N sample tori only)\n");
        return 2;
    }
    void *ws = malloc(n);
    kolo_selftest_report r;
    uint32_t d;
    if (!ws) {
        fprintf(stderr, "selftest_native: out of memory (%zu bytes)\n", n);
        return 2;
    }
    d = kolo_selftest_run_tori(ws, n, tori, &r);
    free(ws);
    if (r.error != KOLO_OK) {
        fprintf(stderr, "selftest_native: %s\n", kolo_route_strerror(r.error));
        return 2;
    }
    (void)d;
    (void)kolo_selftest_print(&r, native_putc);
    if (r.deadlock_failures || r.check_failures || r.route_errors) {
        fprintf(stderr, "selftest_native: failures: check %u, route errors %u\n", (unsigned)r.check_failures,
                (unsigned)r.route_errors);
        return 1;
    }
    return 0;
}
