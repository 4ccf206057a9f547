/* bench_deadlock.c - time of the deadlock check of a default table set.
 * usage: bench_deadlock X Y Z ; prints BENCH deadlock_check_ms_XxYxZ <ms> ms
 * (best of a few runs, so that a busy machine disturbs it less). */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "kolo_route.h"

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    kolo_topo t;
    unsigned n;
    size_t ws_size;
    kolo_route_entry *tables;
    void *ws;
    double best = 1e30;
    int d, run, rc = KOLO_OK;
    if (argc != 4) {
        fprintf(stderr, "usage: bench_deadlock X Y Z\n");
        return 2;
    }
    for (d = 0; d < 3; d++)
        t.size[d] = (uint8_t)atoi(argv[1 + d]);
    n = kolo_topo_nodes(&t);
    if (n == 0) {
        fprintf(stderr, "bench_deadlock: bad sizes\n");
        return 2;
    }
    ws_size = kolo_deadlock_workspace_size(&t);
    tables = malloc((size_t)n * n * sizeof *tables);
    ws = malloc(ws_size);
    if (!tables || !ws)
        return 2;
    kolo_tableset_default(&t, tables);
    for (run = 0; run < 5; run++) {
        double t0 = now_ms();
        rc = kolo_deadlock_check(&t, tables, ws, ws_size, NULL);
        double dt = now_ms() - t0;
        if (dt < best)
            best = dt;
    }
    if (rc != KOLO_OK)
        fprintf(stderr, "bench_deadlock: check returned %d (%s)\n", rc, kolo_route_strerror(rc));
    printf("BENCH deadlock_check_ms_%ux%ux%u %.2f ms\n", t.size[0], t.size[1], t.size[2], best);
    free(tables);
    free(ws);
    return 0;
}
