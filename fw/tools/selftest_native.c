/* selftest_native.c - the firmware's routing self-test, built for the host.
 * Prints exactly the self-test lines the PowerPC 440 image prints on its UART;
 * scripts/test_fw_ppc_qemu.sh compares the two. Exit status 1 when the
 * self-test finds a failure (a deadlock, a bad entry, a routing error);
 * unrouted pairs are reported, as the firmware reports them, not failed. */
#include <stdio.h>
#include <stdlib.h>

#include "kolo_fw.h"
#include "kolo_selftest.h"

int main(void) {
    size_t n = kolo_selftest_workspace_size();
    void *ws = malloc(n);
    kolo_selftest_report r;
    uint32_t d;
    if (!ws) {
        fprintf(stderr, "selftest_native: out of memory (%zu bytes)\n", n);
        return 2;
    }
    d = kolo_selftest_run(ws, n, &r);
    free(ws);
    if (r.error != KOLO_OK) {
        fprintf(stderr, "selftest_native: %s\n", kolo_route_strerror(r.error));
        return 2;
    }
    printf("kolo selftest: tori %u, fault sets %u, entries %u, deadlock failures %u, unrouted pairs %u\n",
           (unsigned)r.tori, (unsigned)r.fault_sets, (unsigned)r.entries, (unsigned)r.deadlock_failures,
           (unsigned)r.unrouted_pairs);
    printf("kolo selftest digest 0x%08x\n", (unsigned)d);
    if (r.deadlock_failures || r.check_failures || r.route_errors) {
        fprintf(stderr, "selftest_native: failures: check %u, route errors %u\n", (unsigned)r.check_failures,
                (unsigned)r.route_errors);
        return 1;
    }
    return 0;
}
