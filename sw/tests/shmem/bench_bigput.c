/* bench_bigput.c - a program that moves gigabytes: every PE puts a block
 * (argv[1] MiB, default 32) to its right neighbour argv[2] times (default
 * 100), quiet after each, then checks what it got. Prints the bytes moved and
 * the simulated cycles; under kolo-sim --fast the wall time says how fast the
 * simulator moves data (bench-fast_mode). Needs SHMEM_SYMMETRIC_SIZE of twice
 * the block and a little. */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 32, len = mib << 20, i;
    int reps = argc > 2 ? atoi(argv[2]) : 100, me, n, right, left, r, bad = 0;
    uint8_t *src, *dst;
    uint64_t c0, c1;
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    right = (me + 1) % n;
    left = (me + n - 1) % n;
    src = shmem_malloc(len);
    dst = shmem_malloc(len);
    if (!src || !dst) {
        fprintf(stderr, "bench_bigput: no room for 2 x %zu MiB (SHMEM_SYMMETRIC_SIZE)\n", mib);
        shmem_global_exit(2);
    }
    for (i = 0; i < len; i++)
        src[i] = (uint8_t)(i * 7 + (size_t)me);
    shmem_barrier_all();
    c0 = shmemx_kolo_cycles();
    for (r = 0; r < reps; r++) {
        shmem_putmem(dst, src, len, right);
        shmem_quiet();
    }
    shmem_barrier_all();
    c1 = shmemx_kolo_cycles();
    for (i = 0; i < len; i += 4093)
        bad += dst[i] != (uint8_t)(i * 7 + (size_t)left);
    if (me == 0)
        printf("bench_bigput: %d PEs x %d puts of %zu MiB: %.1f GB moved in %llu simulated cycles; %s\n",
               n, reps, mib, (double)len * reps * n / 1e9, (unsigned long long)(c1 - c0),
               bad ? "DATA WRONG" : "data ok");
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return bad ? 1 : 0;
}
