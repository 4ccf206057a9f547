/* shmem_test.h - helpers of the OpenSHMEM tests (run under kolo-run).
 * CHECK counts failures per PE and goes on; T_FINISH() reduces the counts
 * over all PEs, prints one line from PE 0 and returns the exit status.
 * Random tests: t_seed() reads SEED (default 1), prints it on PE 0, and
 * gives every PE the same seed (streams are derived per PE). */
#ifndef KOLO_SHMEM_TEST_H
#define KOLO_SHMEM_TEST_H

#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int t_failures, t_checks;
static const char *t_name = "test";

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        t_checks++;                                                                                \
        if (!(cond)) {                                                                             \
            if (++t_failures <= 20) {                                                              \
                fprintf(stderr, "PE %d: %s:%d: FAIL %s: ", shmem_my_pe(), __FILE__, __LINE__,      \
                        #cond);                                                                    \
                fprintf(stderr, __VA_ARGS__);                                                      \
                fprintf(stderr, "\n");                                                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)

static uint64_t t_rng;
static inline uint64_t t_rand64(void) {
    uint64_t x = t_rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    t_rng = x;
    return x * 0x2545f4914f6cdd1dull;
}
static inline unsigned t_rand(unsigned n) { return (unsigned)((t_rand64() >> 11) % n); }
static inline uint64_t t_seed(const char *name) {
    const char *e = getenv("SEED");
    uint64_t s = e && *e ? strtoull(e, NULL, 0) : 1;
    if (shmem_my_pe() == 0) {
        printf("%s: seed %llu (replay: SEED=%llu)\n", name, (unsigned long long)s,
               (unsigned long long)s);
        fflush(stdout);
    }
    return s;
}
static inline void t_stream(uint64_t seed, int stream) {
    t_rng = (seed * 0x9e3779b97f4a7c15ull + (uint64_t)stream * 0xbf58476d1ce4e5b9ull) | 1u;
    t_rand64();
}

static inline int t_finish(void) {
    static int fails, total;
    int n = shmem_n_pes();
    shmem_barrier_all();
    fails = 0;
    total = 0;
    shmem_barrier_all();
    shmem_int_atomic_add(&fails, t_failures, 0);
    shmem_int_atomic_add(&total, t_checks, 0);
    shmem_barrier_all();
    if (shmem_my_pe() == 0) {
        if (fails)
            printf("%s: FAIL (%d of %d checks failed on %d PEs)\n", t_name, fails, total, n);
        else
            printf("%s: PASS (%d checks on %d PEs)\n", t_name, total, n);
        fflush(stdout);
    }
    return t_failures ? 1 : 0;
}
#define T_FINISH()                                                                                 \
    do {                                                                                           \
        int rc_ = t_finish();                                                                      \
        shmem_finalize();                                                                          \
        return rc_;                                                                                \
    } while (0)

#endif
