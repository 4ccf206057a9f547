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

/* fence and quiet on SHMEM_CTX_INVALID do nothing (as specified); on a
 * context that was destroyed they are an error */
void shmem_ctx_fence(shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_INVALID)
        return;
    kshmem_rc("shmem_ctx_fence", kolo_fence(kshmem_ctx_get("shmem_ctx_fence", ctx)->nic->kc));
}
void shmem_fence(void) {
    kshmem_check_init("shmem_fence");
    kshmem_rc("shmem_fence", kolo_fence(kshmem.ctx));
}

void kshmem_quiet(const char *fn, kolo_ctx *kc) { kshmem_rc(fn, kolo_quiet(kc ? kc : kshmem.ctx)); }

void shmem_ctx_quiet(shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_INVALID)
        return;
    kshmem_quiet("shmem_ctx_quiet", kshmem_ctx_get("shmem_ctx_quiet", ctx)->nic->kc);
}
void shmem_quiet(void) {
    kshmem_check_init("shmem_quiet");
    kshmem_quiet("shmem_quiet", kshmem.ctx);
}

/* ---- barriers (callers hold coll_lock: one collective at a time per PE) ------------------ */
void kshmem_sync_set(int start, int stride, int size) {
    int r, d;
    if (size <= 1)
        return;
    r = (kshmem.me - start) / stride;
    for (d = 1; d < size; d <<= 1) {
        int to = start + ((r + d) % size) * stride;
        int from = start + ((r - d + size) % size) * stride;
        uint64_t want;
        kshmem_amo("shmem_sync", "dest", NULL, KOLO_AMO_ADD, 8,
                   (void *)(uintptr_t)&kshmem.sync_recv[kshmem.me], 1, 0, to);
        want = ++kshmem.sync_expect[from];
        KSHMEM_WAIT_WHILE(__atomic_load_n(&kshmem.sync_recv[from], __ATOMIC_ACQUIRE) < want);
    }
}

static void check_set(const char *fn, int start, int log_stride, int size) {
    int stride, my;
    kshmem_active_set(fn, start, log_stride, size, &stride, &my);
}

static void sync_locked(int start, int stride, int size, int quiet) {
    pthread_mutex_lock(&kshmem.coll_lock);
    if (quiet)
        kshmem_quiet("shmem_barrier", kshmem.ctx);
    kshmem_sync_set(start, stride, size);
    pthread_mutex_unlock(&kshmem.coll_lock);
}

void shmem_barrier_all(void) {
    kshmem_check_init("shmem_barrier_all");
    sync_locked(0, 1, kshmem.npes, 1);
}

void shmem_sync_all(void) {
    kshmem_check_init("shmem_sync_all");
    sync_locked(0, 1, kshmem.npes, 0);
}

void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync) {
    (void)pSync;
    check_set("shmem_barrier", PE_start, logPE_stride, PE_size);
    sync_locked(PE_start, 1 << logPE_stride, PE_size, 1);
}

/* (shmem_sync is also the C11 generic macro in user code: see shmem_c11.h) */
void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync) {
    (void)pSync;
    check_set("shmem_sync", PE_start, logPE_stride, PE_size);
    sync_locked(PE_start, 1 << logPE_stride, PE_size, 0);
}

int shmem_team_sync(shmem_team_t team) {
    int start, stride, size;
    kshmem_team_set("shmem_team_sync", team, &start, &stride, &size);
    sync_locked(start, stride, size, 0);
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
        kshmem_bad_arg(fn, "cmp", "= %d is none of SHMEM_CMP_EQ, _NE, _GT, _GE, _LT, _LE", cmp);
}

/* the checks of the vector forms: ivars (and indices, cmp_values) given when nelems > 0 */
static void check_vec(const char *fn, int cmp, const void *ivars, size_t nelems, int some,
                      const void *indices, int vec, const void *values) {
    check_cmp(fn, cmp);
    if (!nelems)
        return;
    if (!ivars)
        kshmem_bad_arg(fn, "ivars", "is NULL (nelems = %zu)", nelems);
    if (some && !indices)
        kshmem_bad_arg(fn, "indices", "is NULL (nelems = %zu)", nelems);
    if (vec && !values)
        kshmem_bad_arg(fn, "cmp_values", "is NULL (nelems = %zu)", nelems);
}

/* where this thread's next wait_until_any / test_any scan starts (any_N) */
static _Thread_local size_t any_next;

#define KSHMEM_DEF_P2P(T, N)                                                                       \
    static inline int test_##N(T *p, int cmp, T v) {                                               \
        T x = __atomic_load_n(p, __ATOMIC_ACQUIRE);                                                \
        return CMP_OK(cmp, x, v);                                                                  \
    }                                                                                              \
    int shmem_##N##_test(T *ivar, int cmp, T cmp_value) {                                          \
        int r;                                                                                     \
        check_vec("shmem_" #N "_test", cmp, ivar, 1, 0, NULL, 0, NULL);                            \
        KSHMEM_TEST(r, test_##N(ivar, cmp, cmp_value), !r);                                        \
        return r;                                                                                  \
    }                                                                                              \
    void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value) {                                   \
        check_vec("shmem_" #N "_wait_until", cmp, ivar, 1, 0, NULL, 0, NULL);                      \
        KSHMEM_WAIT_WHILE(!test_##N(ivar, cmp, cmp_value));                                        \
    }                                                                                              \
    /* vector forms: v[i] (vec) or the one value */                                                \
    static int all_##N(T *iv, size_t n, const int *st, int cmp, const T *v, int vec) {             \
        size_t i;                                                                                  \
        for (i = 0; i < n; i++)                                                                    \
            if (!(st && st[i]) && !test_##N(&iv[i], cmp, vec ? v[i] : *v))                         \
                return 0;                                                                          \
        return 1;                                                                                  \
    }                                                                                              \
    /* the scan starts after the index this thread's last _any call returned \
     * (any_next): with several elements satisfied, successive calls return  \
     * each of them in turn, none is starved */                                                   \
    static size_t any_##N(T *iv, size_t n, const int *st, int cmp, const T *v, int vec) {          \
        size_t k, i;                                                                               \
        for (k = 0; k < n; k++) {                                                                  \
            i = (any_next + k) % n;                                                                \
            if (!(st && st[i]) && test_##N(&iv[i], cmp, vec ? v[i] : *v)) {                        \
                any_next = i + 1;                                                                  \
                return i;                                                                          \
            }                                                                                      \
        }                                                                                          \
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
    static void wait_all_##N(const char *fn, T *iv, size_t n, const int *st, int cmp, const T *v,  \
                             int vec) {                                                            \
        check_vec(fn, cmp, iv, n, 0, NULL, vec, v);                                                \
        KSHMEM_WAIT_WHILE(!all_##N(iv, n, st, cmp, v, vec));                                      \
    }                                                                                              \
    static size_t wait_any_##N(const char *fn, T *iv, size_t n, const int *st, int cmp,            \
                               const T *v, int vec) {                                              \
        size_t r;                                                                                  \
        check_vec(fn, cmp, iv, n, 0, NULL, vec, v);                                                \
        if (!active_##N(n, st))                                                                    \
            return SIZE_MAX;                                                                       \
        KSHMEM_WAIT_WHILE((r = any_##N(iv, n, st, cmp, v, vec)) == SIZE_MAX);                      \
        return r;                                                                                  \
    }                                                                                              \
    static size_t wait_some_##N(const char *fn, T *iv, size_t n, size_t *idx, const int *st,       \
                                int cmp, const T *v, int vec) {                                    \
        size_t r;                                                                                  \
        check_vec(fn, cmp, iv, n, 1, idx, vec, v);                                                 \
        if (!active_##N(n, st))                                                                    \
            return 0;                                                                              \
        KSHMEM_WAIT_WHILE((r = some_##N(iv, n, idx, st, cmp, v, vec)) == 0);                       \
        return r;                                                                                  \
    }                                                                                              \
    static int test_all_##N(const char *fn, T *iv, size_t n, const int *st, int cmp, const T *v,   \
                            int vec) {                                                             \
        int r;                                                                                     \
        check_vec(fn, cmp, iv, n, 0, NULL, vec, v);                                                \
        KSHMEM_TEST(r, all_##N(iv, n, st, cmp, v, vec), !r);                                       \
        return r;                                                                                  \
    }                                                                                              \
    static size_t test_any_##N(const char *fn, T *iv, size_t n, const int *st, int cmp,            \
                               const T *v, int vec) {                                              \
        size_t r;                                                                                  \
        check_vec(fn, cmp, iv, n, 0, NULL, vec, v);                                                \
        /* (nothing active: SIZE_MAX at once, there is nothing to wait for) */                     \
        if (!active_##N(n, st))                                                                    \
            return SIZE_MAX;                                                                       \
        KSHMEM_TEST(r, any_##N(iv, n, st, cmp, v, vec), r == SIZE_MAX);                            \
        return r;                                                                                  \
    }                                                                                              \
    static size_t test_some_##N(const char *fn, T *iv, size_t n, size_t *idx, const int *st,       \
                                int cmp, const T *v, int vec) {                                    \
        size_t r;                                                                                  \
        check_vec(fn, cmp, iv, n, 1, idx, vec, v);                                                 \
        if (!active_##N(n, st))                                                                    \
            return 0;                                                                              \
        KSHMEM_TEST(r, some_##N(iv, n, idx, st, cmp, v, vec), r == 0);                             \
        return r;                                                                                  \
    }                                                                                              \
    void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,          \
                                    T cmp_value) {                                                 \
        wait_all_##N("shmem_" #N "_wait_until_all", ivars, nelems, status, cmp, &cmp_value, 0);    \
    }                                                                                              \
    size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp,        \
                                      T cmp_value) {                                               \
        return wait_any_##N("shmem_" #N "_wait_until_any", ivars, nelems, status, cmp,             \
                            &cmp_value, 0);                                                        \
    }                                                                                              \
    size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices,                  \
                                       const int *status, int cmp, T cmp_value) {                  \
        return wait_some_##N("shmem_" #N "_wait_until_some", ivars, nelems, indices, status, cmp,  \
                             &cmp_value, 0);                                                       \
    }                                                                                              \
    int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value) {   \
        return test_all_##N("shmem_" #N "_test_all", ivars, nelems, status, cmp, &cmp_value, 0);   \
    }                                                                                              \
    size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp,              \
                                T cmp_value) {                                                     \
        return test_any_##N("shmem_" #N "_test_any", ivars, nelems, status, cmp, &cmp_value, 0);   \
    }                                                                                              \
    size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status,     \
                                 int cmp, T cmp_value) {                                           \
        return test_some_##N("shmem_" #N "_test_some", ivars, nelems, indices, status, cmp,        \
                             &cmp_value, 0);                                                       \
    }                                                                                              \
    void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status, int cmp,   \
                                           T *cmp_values) {                                        \
        wait_all_##N("shmem_" #N "_wait_until_all_vector", ivars, nelems, status, cmp,             \
                     cmp_values, 1);                                                               \
    }                                                                                              \
    size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status, int cmp, \
                                             T *cmp_values) {                                      \
        return wait_any_##N("shmem_" #N "_wait_until_any_vector", ivars, nelems, status, cmp,      \
                            cmp_values, 1);                                                        \
    }                                                                                              \
    size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,           \
                                              const int *status, int cmp, T *cmp_values) {         \
        return wait_some_##N("shmem_" #N "_wait_until_some_vector", ivars, nelems, indices,        \
                             status, cmp, cmp_values, 1);                                          \
    }                                                                                              \
    int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,          \
                                    T *cmp_values) {                                               \
        return test_all_##N("shmem_" #N "_test_all_vector", ivars, nelems, status, cmp,            \
                            cmp_values, 1);                                                        \
    }                                                                                              \
    size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp,       \
                                       T *cmp_values) {                                            \
        return test_any_##N("shmem_" #N "_test_any_vector", ivars, nelems, status, cmp,            \
                            cmp_values, 1);                                                        \
    }                                                                                              \
    size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,                 \
                                        const int *status, int cmp, T *cmp_values) {               \
        return test_some_##N("shmem_" #N "_test_some_vector", ivars, nelems, indices, status,      \
                             cmp, cmp_values, 1);                                                  \
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
/* shmem_signal_fetch returns what it sees, like a test. A fetch that sees the
 * value this thread's last fetch of the same signal saw (a loop waiting for it
 * to change) is a poll under kolo-sim --det (KSHMEM_TEST): it returns once the
 * NI has written into the PE or KSHMEM_POLL_CYCLES simulated cycles have passed,
 * with what it sees then. Without this a loop of fetches held simulated time
 * still until --det-stall let the PE go. The first fetch of a signal, and one
 * that sees a new value, return at once. A few signals per thread are
 * remembered (a loop over several). */
#define SIG_SEEN 8
static _Thread_local struct {
    const uint64_t *addr;
    uint64_t v;
} sig_seen[SIG_SEEN];
static _Thread_local unsigned sig_next;

uint64_t shmem_signal_fetch(const uint64_t *sig_addr) {
    uint64_t v;
    unsigned i;
    kshmem_check_init("shmem_signal_fetch");
    if (!sig_addr || ((uintptr_t)sig_addr & 7))
        kshmem_bad_arg("shmem_signal_fetch", "sig_addr", "= %p is not 8-byte aligned",
                       (const void *)sig_addr);
    for (i = 0; i < SIG_SEEN && sig_seen[i].addr != sig_addr; i++)
        ;
    if (i == SIG_SEEN) { /* first look: at once */
        v = __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE);
        i = sig_next++ % SIG_SEEN;
        sig_seen[i].addr = sig_addr;
    } else {
        uint64_t last = sig_seen[i].v;
        KSHMEM_TEST(v, __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE), v == last);
    }
    sig_seen[i].v = v;
    return v;
}

uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value) {
    uint64_t v;
    check_cmp("shmem_signal_wait_until", cmp);
    if (!sig_addr || ((uintptr_t)sig_addr & 7))
        kshmem_bad_arg("shmem_signal_wait_until", "sig_addr", "= %p is not 8-byte aligned",
                       (void *)sig_addr);
    KSHMEM_WAIT_WHILE((v = __atomic_load_n(sig_addr, __ATOMIC_ACQUIRE), !CMP_OK(cmp, v, cmp_value)));
    return v;
}

/* ---- locks: a word at PE 0, taken with compare-and-swap (me + 1: held by me) -------------- */
static int lock_try(const char *fn, long *lock) {
    long me1 = kshmem.me + 1;
    uint64_t old = kshmem_amo(fn, "lock", NULL, KOLO_AMO_CSWAP, sizeof(long), lock,
                              (uint64_t)me1, 0, 0);
    if ((long)old == me1)
        kshmem_bad_arg(fn, "lock", "= %p is held by this PE already (the lock is not "
                       "reentrant)",
                       (void *)lock);
    return old == 0;
}

void shmem_set_lock(long *lock) {
    unsigned long n = 0;
    kshmem_check_init("shmem_set_lock");
    while (!lock_try("shmem_set_lock", lock)) /* each try waits for its answer */
        kshmem_backoff(&n);
}

int shmem_test_lock(long *lock) {
    kshmem_check_init("shmem_test_lock");
    return !lock_try("shmem_test_lock", lock);
}

void shmem_clear_lock(long *lock) {
    uint64_t old;
    kshmem_check_init("shmem_clear_lock");
    kshmem_quiet("shmem_clear_lock", kshmem.ctx); /* what was done under the lock is complete */
    /* released only if this PE holds it: compare-and-swap me + 1 -> 0 */
    old = kshmem_amo("shmem_clear_lock", "lock", NULL, KOLO_AMO_CSWAP, sizeof(long), lock, 0,
                     (uint64_t)(kshmem.me + 1), 0);
    if ((long)old != kshmem.me + 1)
        kshmem_bad_arg("shmem_clear_lock", "lock", "= %p is not held by this PE (%s)", (void *)lock,
                       old ? "another PE holds it" : "nobody held it");
}
