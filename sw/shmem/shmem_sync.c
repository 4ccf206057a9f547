/* shmem_sync.c - libkolo_shmem: fence, quiet, barriers, point-to-point
 * synchronisation, signals, locks.
 *
 * Barriers are dissemination barriers over any active set (start, stride,
 * size): in round k a PE adds 1 (NI atomic) to sync_recv[me] at the PE 2^k
 * places ahead and waits until its own sync_recv[from] has reached the
 * number of signals it has consumed from that PE. The counters only grow,
 * one word per (receiver, sender) pair, so barriers over different sets,
 * early arrivals of the next barrier, and reordering in the network are all
 * harmless. pSync arrays of the deprecated interfaces are not used. */
#define _GNU_SOURCE
#include "shmem_internal.h"

#include <stdint.h>
#include <string.h>

void shmem_ctx_fence(shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_INVALID)
        return;
    kshmem_check_init("shmem_fence");
    kshmem_rc("shmem_fence", kolo_fence(kshmem.ctx));
}
void shmem_fence(void) { shmem_ctx_fence(SHMEM_CTX_DEFAULT); }

void kshmem_quiet(void) { kshmem_rc("shmem_quiet", kolo_quiet(kshmem.ctx)); }

void shmem_ctx_quiet(shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_INVALID)
        return;
    kshmem_check_init("shmem_quiet");
    kshmem_quiet();
}
void shmem_quiet(void) { shmem_ctx_quiet(SHMEM_CTX_DEFAULT); }

/* ---- barriers ---------------------------------------------------------------------- */
void kshmem_sync_set(int start, int stride, int size) {
    int r, d;
    if (size <= 1)
        return;
    r = (kshmem.me - start) / stride;
    for (d = 1; d < size; d <<= 1) {
        int to = start + ((r + d) % size) * stride;
        int from = start + ((r - d + size) % size) * stride;
        uint64_t want;
        unsigned long n = 0;
        kshmem_amo("shmem_sync", KOLO_AMO_ADD, 8, (void *)(uintptr_t)&kshmem.sync_recv[kshmem.me],
                   1, 0, to);
        want = ++kshmem.sync_expect[from];
        while (__atomic_load_n(&kshmem.sync_recv[from], __ATOMIC_ACQUIRE) < want)
            kshmem_wait_step(&n);
    }
}

static void check_set(const char *fn, int start, int log_stride, int size) {
    kshmem_check_init(fn);
    if (start < 0 || log_stride < 0 || log_stride > 30 || size < 1 ||
        start + (long)(size - 1) * (1L << log_stride) >= kshmem.npes)
        kshmem_fatal("%s: active set (start %d, log stride %d, size %d) outside the %d PEs", fn,
                     start, log_stride, size, kshmem.npes);
    if (kshmem.me < start || (kshmem.me - start) % (1 << log_stride) ||
        (kshmem.me - start) >> log_stride >= size)
        kshmem_fatal("%s: this PE is not in the active set (start %d, log stride %d, size %d)", fn,
                     start, log_stride, size);
}

void shmem_barrier_all(void) {
    kshmem_check_init("shmem_barrier_all");
    kshmem_quiet();
    kshmem_sync_set(0, 1, kshmem.npes);
}

void shmem_sync_all(void) {
    kshmem_check_init("shmem_sync_all");
    kshmem_sync_set(0, 1, kshmem.npes);
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync) {
    (void)pSync;
    check_set("shmem_barrier", PE_start, logPE_stride, PE_size);
    kshmem_quiet();
    kshmem_sync_set(PE_start, 1 << logPE_stride, PE_size);
}

void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync) {
    (void)pSync;
    check_set("shmem_sync", PE_start, logPE_stride, PE_size);
    kshmem_sync_set(PE_start, 1 << logPE_stride, PE_size);
}

int shmem_team_sync(shmem_team_t team) {
    int start, stride, size;
    kshmem_team_set("shmem_team_sync", team, &start, &stride, &size);
    kshmem_sync_set(start, stride, size);
    return 0;
}

/* ---- point-to-point synchronisation ------------------------------------------------------- */
#define CMP_OK(cmp, a, b)                                                                          \
    ((cmp) == SHMEM_CMP_EQ   ? (a) == (b)                                                          \
     : (cmp) == SHMEM_CMP_NE ? (a) != (b)                                                          \
     : (cmp) == SHMEM_CMP_GT ? (a) > (b)                                                           \
     : (cmp) == SHMEM_CMP_GE ? (a) >= (b)                                                          \
     : (cmp) == SHMEM_CMP_LT ? (a) < (b)                                                           \
                             : (a) <= (b))

static void check_cmp(const char *fn, int cmp) {
    kshmem_check_init(fn);
    if (cmp < SHMEM_CMP_EQ || cmp > SHMEM_CMP_LE)
        kshmem_fatal("%s: unknown comparison %d", fn, cmp);
}

#define KSHMEM_DEF_P2P(T, N)                                                                       \
    static inline int test_##N(T *p, int cmp, T v) {                                               \
        T x = __atomic_load_n(p, __ATOMIC_ACQUIRE);                                                \
        return CMP_OK(cmp, x, v);                                                                  \
    }                                                                                              \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value) {                                          \
        check_cmp("shmem_" #N "_test", cmp);                                                       \
        kolo_progress(kshmem.ctx);                                                                 \
        return test_##N(ivar, cmp, cmp_value);                                                     \
    }                                                                                              \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value) {                                   \
        unsigned long n = 0;                                                                       \
        check_cmp("shmem_" #N "_wait_until", cmp);                                                 \
        while (!test_##N(ivar, cmp, cmp_value))                                                    \
            kshmem_wait_step(&n);                                                                  \
    }                                                                                              \
    /* vector forms: v[i] (vec) or the one value */                                                \
    static int all_##N(T *iv, size_t n, const int *st, int cmp, const T *v, int vec) {             \
        size_t i;                                                                                  \
        for (i = 0; i < n; i++)                                                                    \
            if (!(st && st[i]) && !test_##N(&iv[i], cmp, vec ? v[i] : *v))                         \
                return 0;                                                                          \
        return 1;                                                                                  \
    }                                                                                              \
    static size_t any_##N(T *iv, size_t n, const int *st, int cmp, const T *v, int vec) {          \
        size_t i;                                                                                  \
        for (i = 0; i < n; i++)                                                                    \
            if (!(st && st[i]) && test_##N(&iv[i], cmp, vec ? v[i] : *v))                          \
                return i;                                                                          \
        return SIZE_MAX;                                                                           \
    }                                                                                              \
    static size_t some_##N(T *iv, size_t n, size_t *idx, const int *st, int cmp, const T *v,       \
                           int vec) {                                                              \
        size_t i, k = 0;                                                                           \
        for (i = 0; i < n; i++)                                                                    \
            if (!(st && st[i]) && test_##N(&iv[i], cmp, vec ? v[i] : *v))                          \
                idx[k++] = i;                                                                      \
        return k;                                                                                  \
    }                                                                                              \
    static int active_##N(size_t n, const int *st) {                                               \
        size_t i;                                                                                  \
        for (i = 0; i < n; i++)                                                                    \
            if (!(st && st[i]))                                                                    \
                return 1;                                                                          \
        return 0;                                                                                  \
    }                                                                                              \
    static void wait_all_##N(T *iv, size_t n, const int *st, int cmp, const T *v, int vec) {       \
        unsigned long k = 0;                                                                       \
        check_cmp("shmem_" #N "_wait_until_all", cmp);                                             \
        while (!all_##N(iv, n, st, cmp, v, vec))                                                   \
            kshmem_wait_step(&k);                                                                  \
    }                                                                                              \
    static size_t wait_any_##N(T *iv, size_t n, const int *st, int cmp, const T *v, int vec) {     \
        unsigned long k = 0;                                                                       \
        size_t r;                                                                                  \
        check_cmp("shmem_" #N "_wait_until_any", cmp);                                             \
        if (!active_##N(n, st))                                                                    \
            return SIZE_MAX;                                                                       \
        while ((r = any_##N(iv, n, st, cmp, v, vec)) == SIZE_MAX)                                  \
            kshmem_wait_step(&k);                                                                  \
        return r;                                                                                  \
    }                                                                                              \
    static size_t wait_some_##N(T *iv, size_t n, size_t *idx, const int *st, int cmp, const T *v,  \
                                int vec) {                                                         \
        unsigned long k = 0;                                                                       \
        size_t r;                                                                                  \
        check_cmp("shmem_" #N "_wait_until_some", cmp);                                            \
        if (!active_##N(n, st))                                                                    \
            return 0;                                                                              \
        while ((r = some_##N(iv, n, idx, st, cmp, v, vec)) == 0)                                   \
            kshmem_wait_step(&k);                                                                  \
        return r;                                                                                  \
    }                                                                                              \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,          \
                                    T cmp_value) {                                                 \
        wait_all_##N(ivars, nelems, status, cmp, &cmp_value, 0);                                   \
    }                                                                                              \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp,        \
                                      T cmp_value) {                                               \
        return wait_any_##N(ivars, nelems, status, cmp, &cmp_value, 0);                            \
    }                                                                                              \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices,                  \
                                       const int *status, int cmp, T cmp_value) {                  \
        return wait_some_##N(ivars, nelems, indices, status, cmp, &cmp_value, 0);                  \
    }                                                                                              \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value) {   \
        check_cmp("shmem_" #N "_test_all", cmp);                                                   \
        kolo_progress(kshmem.ctx);                                                                 \
        return all_##N(ivars, nelems, status, cmp, &cmp_value, 0);                                 \
    }                                                                                              \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp,              \
                                T cmp_value) {                                                     \
        check_cmp("shmem_" #N "_test_any", cmp);                                                   \
        kolo_progress(kshmem.ctx);                                                                 \
        return any_##N(ivars, nelems, status, cmp, &cmp_value, 0);                                 \
    }                                                                                              \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status,     \
                                 int cmp, T cmp_value) {                                           \
        check_cmp("shmem_" #N "_test_some", cmp);                                                  \
        kolo_progress(kshmem.ctx);                                                                 \
        return some_##N(ivars, nelems, indices, status, cmp, &cmp_value, 0);                       \
    }                                                                                              \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status, int cmp,   \
                                           T *cmp_values) {                                        \
        wait_all_##N(ivars, nelems, status, cmp, cmp_values, 1);                                   \
    }                                                                                              \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status, int cmp, \
                                             T *cmp_values) {                                      \
        return wait_any_##N(ivars, nelems, status, cmp, cmp_values, 1);                            \
    }                                                                                              \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,           \
                                              const int *status, int cmp, T *cmp_values) {         \
        return wait_some_##N(ivars, nelems, indices, status, cmp, cmp_values, 1);                  \
    }                                                                                              \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,          \
                                    T *cmp_values) {                                               \
        check_cmp("shmem_" #N "_test_all_vector", cmp);                                            \
        kolo_progress(kshmem.ctx);                                                                 \
        return all_##N(ivars, nelems, status, cmp, cmp_values, 1);                                 \
    }                                                                                              \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp,       \
                                       T *cmp_values) {                                            \
        check_cmp("shmem_" #N "_test_any_vector", cmp);                                            \
        kolo_progress(kshmem.ctx);                                                                 \
        return any_##N(ivars, nelems, status, cmp, cmp_values, 1);                                 \
    }                                                                                              \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,                 \
                                        const int *status, int cmp, T *cmp_values) {               \
        check_cmp("shmem_" #N "_test_some_vector", cmp);                                           \
        kolo_progress(kshmem.ctx);                                                                 \
        return some_##N(ivars, nelems, indices, status, cmp, cmp_values, 1);                       \
    }
KSHMEM_P2P_TYPES(KSHMEM_DEF_P2P)

/* deprecated: the name of the generic macro, as a function for long */
#undef shmem_wait_until
void shmem_wait_until(long *ivar, int cmp, long cmp_value) {
    shmem_long_wait_until(ivar, cmp, cmp_value);
}
void shmem_wait(long *ivar, long cmp_value) { shmem_long_wait_until(ivar, SHMEM_CMP_NE, cmp_value); }
void shmem_short_wait(short *ivar, short v) { shmem_short_wait_until(ivar, SHMEM_CMP_NE, v); }
void shmem_int_wait(int *ivar, int v) { shmem_int_wait_until(ivar, SHMEM_CMP_NE, v); }
void shmem_long_wait(long *ivar, long v) { shmem_long_wait_until(ivar, SHMEM_CMP_NE, v); }
void shmem_longlong_wait(long long *ivar, long long v) {
    shmem_longlong_wait_until(ivar, SHMEM_CMP_NE, v);
}

/* ---- signals --------------------------------------------------------------------------- */
uint64_t shmem_signal_fetch(const uint64_t *sig_addr) {
    kshmem_check_init("shmem_signal_fetch");
    return __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
}

uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value) {
    unsigned long n = 0;
    uint64_t v;
    check_cmp("shmem_signal_wait_until", cmp);
    while (v = __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE), !CMP_OK(cmp, v, cmp_value))
        kshmem_wait_step(&n);
    return v;
}

/* ---- locks: a word at PE 0, taken with compare-and-swap ------------------------------------ */
void shmem_set_lock(long *lock) {
    unsigned long n = 0;
    kshmem_check_init("shmem_set_lock");
    while (kshmem_amo("shmem_set_lock", KOLO_AMO_CSWAP, sizeof(long), lock,
                      (uint64_t)kshmem.me + 1, 0, 0) != 0)
        kshmem_wait_step(&n);
}

int shmem_test_lock(long *lock) {
    kshmem_check_init("shmem_test_lock");
    return kshmem_amo("shmem_test_lock", KOLO_AMO_CSWAP, sizeof(long), lock,
                      (uint64_t)kshmem.me + 1, 0, 0) != 0;
}

void shmem_clear_lock(long *lock) {
    kshmem_check_init("shmem_clear_lock");
    kshmem_quiet(); /* what was done under the lock is complete */
    kshmem_amo("shmem_clear_lock", KOLO_AMO_SWAP, sizeof(long), lock, 0, 0, 0);
}
