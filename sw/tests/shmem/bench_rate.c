/* bench_rate.c - OpenSHMEM message rate and barrier time on kolo, in
 * simulated time (shmemx_kolo_cycles at shmemx_kolo_core_mhz). Run under
 * kolo-sim --det, so that the PEs' own code costs no cycles (mk/lib.mk):
 *   bench_rate put8 TAG N     PE 0 issues N 8-byte puts (shmem_long_p) to
 *                             PE 1, then one quiet: "BENCH shmem_put8_rate_TAG
 *                             <Mmsg/s>" (the PE's software cost is not in it)
 *   bench_rate barrier TAG N  every PE: N shmem_barrier_all:
 *                             "BENCH shmem_barrier_us_TAG <us per barrier>"
 *   bench_rate amo TAG N      PE 0 issues N shmem_long_atomic_fetch_add_nbi
 *                             (N <= 4096) to PE 1, then one quiet, twice: to
 *                             distinct words (word i % 1024), then all to one
 *                             word: "BENCH shmem_atomic_fetch_add_rate_TAG
 *                             <Mops/s>" and "..._one_word_TAG"; and N blocking
 *                             shmem_long_atomic_fetch_add to one word (one
 *                             round trip each): "..._blocking_TAG"
 * Each checks what it did (the last value put arrived; a barrier after the
 * loop completes every PE's add to PE 0; every fetched value and the words'
 * final values) and exits 1 otherwise. */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long slot[1024];
static long arrived;
static long word;
#define AMO_MAX 4096
static long fetched[AMO_MAX];

/* PE 0: n fetch-adds of 1 to PE 1, nbi (one quiet at the end) or blocking,
 * to word i % 1024 of slot (distinct) or all to `word`; Mops/s, or -1 when
 * a fetched value is wrong (the words start at 0) */
static double amo_run(int n, int distinct, int blocking, double mhz) {
    uint64_t t0, t1;
    int i, bad = 0;
    long base = distinct ? 0 : shmem_long_atomic_fetch(&word, 1);
    t0 = shmemx_kolo_cycles();
    for (i = 0; i < n; i++) {
        long *dest = distinct ? &slot[i & 1023] : &word;
        if (blocking)
            fetched[i] = shmem_long_atomic_fetch_add(dest, 1, 1);
        else
            shmem_long_atomic_fetch_add_nbi(&fetched[i], dest, 1, 1);
    }
    shmem_quiet();
    t1 = shmemx_kolo_cycles();
    if (distinct) {
        for (i = 0; i < n; i++) /* the (i / 1024)-th add to its word */
            bad |= fetched[i] != i / 1024;
    } else {
        /* one word: the old values are base .. base + n - 1, each once (the adds
         * may be executed in any order) */
        static unsigned char seen[AMO_MAX];
        memset(seen, 0, sizeof seen);
        for (i = 0; i < n; i++) {
            long v = fetched[i] - base;
            if (v < 0 || v >= n || seen[v]++)
                bad = 1;
        }
    }
    return bad ? -1.0 : n / ((double)(t1 - t0) / mhz);
}

int main(int argc, char **argv) {
    const char *what = argc > 1 ? argv[1] : "put8", *tag = argc > 2 ? argv[2] : "sim";
    int n = argc > 3 ? atoi(argv[3]) : 1000, me, npes, i, bad = 0;
    uint64_t t0, t1;
    double mhz;
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    mhz = shmemx_kolo_core_mhz() ? shmemx_kolo_core_mhz() : 250;
    if (npes < 2 || n < 1) {
        if (me == 0)
            fprintf(stderr, "bench_rate: needs 2 PEs or more and N >= 1\n");
        shmem_finalize();
        return 1;
    }
    shmem_barrier_all();
    if (!strcmp(what, "put8")) {
        if (me == 0) {
            t0 = shmemx_kolo_cycles();
            for (i = 0; i < n; i++)
                shmem_long_p(&slot[i & 1023], i, 1);
            shmem_quiet();
            t1 = shmemx_kolo_cycles();
            shmem_long_p(&arrived, 1, 1);
            printf("BENCH shmem_put8_rate_%s %.2f Mmsg/s\n", tag,
                   n / ((double)(t1 - t0) / mhz));
        } else if (me == 1) {
            shmem_long_wait_until(&arrived, SHMEM_CMP_EQ, 1);
            bad = slot[(n - 1) & 1023] != n - 1;
        }
    } else if (!strcmp(what, "amo")) {
        if (n > AMO_MAX)
            n = AMO_MAX;
        if (me == 0) {
            double d = amo_run(n, 1, 0, mhz), o = amo_run(n, 0, 0, mhz), b = amo_run(n, 0, 1, mhz);
            long w = shmem_long_atomic_fetch(&word, 1);
            bad = d < 0 || o < 0 || b < 0 || w != 2L * n;
            if (!bad) {
                printf("BENCH shmem_atomic_fetch_add_rate_%s %.2f Mops/s\n", tag, d);
                printf("BENCH shmem_atomic_fetch_add_rate_one_word_%s %.2f Mops/s\n", tag, o);
                printf("BENCH shmem_atomic_fetch_add_rate_blocking_%s %.2f Mops/s\n", tag, b);
            }
        }
        shmem_barrier_all();
    } else if (!strcmp(what, "barrier")) {
        t0 = shmemx_kolo_cycles();
        for (i = 0; i < n; i++)
            shmem_barrier_all();
        t1 = shmemx_kolo_cycles();
        shmem_long_atomic_add(&arrived, 1, 0);
        shmem_barrier_all(); /* completes every PE's add first */
        bad = me == 0 && arrived != npes;
        if (me == 0)
            printf("BENCH shmem_barrier_us_%s %.2f us\n", tag, (double)(t1 - t0) / mhz / n);
    } else {
        if (me == 0)
            fprintf(stderr, "bench_rate: put8, amo or barrier, not '%s'\n", what);
        bad = 1;
    }
    if (bad)
        fprintf(stderr, "bench_rate: PE %d: wrong result\n", me);
    shmem_finalize();
    return bad;
}
