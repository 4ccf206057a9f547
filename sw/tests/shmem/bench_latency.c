/* bench_latency.c - latencies and bandwidth of OpenSHMEM on kolo, in
 * simulated core cycles (shmemx_kolo_cycles). PE 0 measures against PE 1
 * (its +X neighbour); every PE joins the barrier measurement. Prints
 * "BENCH <name>_<tag> <value> <unit>" lines (argv[1] = tag, e.g. ideal).
 * Simulated time keeps running while a PE's own code runs (kolo-sim steps
 * the clock at its own pace), so the numbers include the host library's
 * software time at the simulator's speed: upper bounds of the NI's part. */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ITERS 200
static long ping, pong;
static char buf[1 << 16];

static void bench(const char *tag, const char *name, double v, const char *unit) {
    printf("BENCH shmem_%s_%s %.1f %s\n", name, tag, v, unit);
}

int main(int argc, char **argv) {
    const char *tag = argc > 1 ? argv[1] : "sim";
    int me, npes, i;
    uint64_t t0, t1;
    static char src[1 << 16];
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (npes < 2) {
        if (me == 0)
            fprintf(stderr, "bench_latency: needs 2 PEs or more\n");
        shmem_finalize();
        return 1;
    }
    shmem_barrier_all();
    /* ping-pong with p + wait_until: one-way latency */
    if (me < 2) {
        t0 = shmemx_kolo_cycles();
        for (i = 1; i <= ITERS; i++) {
            if (me == 0) {
                shmem_long_p(&ping, i, 1);
                shmem_long_wait_until(&pong, SHMEM_CMP_EQ, i);
            } else {
                shmem_long_wait_until(&ping, SHMEM_CMP_EQ, i);
                shmem_long_p(&pong, i, 0);
            }
        }
        t1 = shmemx_kolo_cycles();
        if (me == 0)
            bench(tag, "p_oneway_latency", (double)(t1 - t0) / (2.0 * ITERS), "cycles");
    }
    shmem_barrier_all();
    if (me == 0) {
        size_t sizes[] = {8, 256, 4096, 65536};
        size_t k;
        for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            int it = sizes[k] > 4096 ? 20 : ITERS;
            char name[64];
            t0 = shmemx_kolo_cycles();
            for (i = 0; i < it; i++) {
                shmem_putmem(buf, src, sizes[k], 1);
                shmem_quiet();
            }
            t1 = shmemx_kolo_cycles();
            snprintf(name, sizeof name, "put%zu_quiet_latency", sizes[k]);
            bench(tag, name, (double)(t1 - t0) / it, "cycles");
            if (sizes[k] == 65536)
                bench(tag, "put64k_bandwidth", 65536.0 * it / (double)(t1 - t0), "bytes/cycle");
        }
        t0 = shmemx_kolo_cycles();
        for (i = 0; i < ITERS; i++)
            (void)shmem_long_g(&ping, 1);
        t1 = shmemx_kolo_cycles();
        bench(tag, "g_latency", (double)(t1 - t0) / ITERS, "cycles");
        t0 = shmemx_kolo_cycles();
        for (i = 0; i < ITERS; i++)
            (void)shmem_long_atomic_fetch_add(&ping, 1, 1);
        t1 = shmemx_kolo_cycles();
        bench(tag, "fetch_add_latency", (double)(t1 - t0) / ITERS, "cycles");
        t0 = shmemx_kolo_cycles();
        for (i = 0; i < 20; i++)
            shmem_putmem_nbi(buf, src, sizeof src, 1);
        shmem_quiet();
        t1 = shmemx_kolo_cycles();
        bench(tag, "put_nbi_64k_stream_bandwidth", 20.0 * sizeof src / (double)(t1 - t0), "bytes/cycle");
    }
    shmem_barrier_all();
    t0 = shmemx_kolo_cycles();
    for (i = 0; i < 50; i++)
        shmem_barrier_all();
    t1 = shmemx_kolo_cycles();
    if (me == 0) {
        char name[64];
        snprintf(name, sizeof name, "barrier_%dpe_latency", npes);
        bench(tag, name, (double)(t1 - t0) / 50, "cycles");
    }
    shmem_finalize();
    return 0;
}
