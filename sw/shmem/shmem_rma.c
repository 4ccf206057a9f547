/* shmem_rma.c - libkolo_shmem: put, get, p, g, iput, iget, nbi forms, put
 * with signal. Operations on the PE itself are memory copies (signals
 * excepted: they go through the NI so that they stay atomic with respect to
 * remote updates of the same word). Every routine checks its arguments and
 * names the one that is wrong (shmem_internal.h, kshmem_bad_arg). */
#define _GNU_SOURCE
#include "shmem_internal.h"

#include <string.h>

/* ---- byte cores (world PE numbers) ------------------------------------------------------ */
void kshmem_put_bytes(const char *fn, kolo_ctx *kc, void *dest, const void *src, size_t n, int pe,
                      int nbi) {
    uint64_t raddr;
    uint8_t key;
    int rc;
    kshmem_xlate(fn, "dest", dest, n, pe, &raddr, &key);
    if (pe == kshmem.me) {
        memmove(dest, src, n);
        return;
    }
    while (n) { /* the NI takes at most KOLO_MAX_LEN bytes per operation */
        size_t k = n < KOLO_MAX_LEN ? n : KOLO_MAX_LEN;
        if (nbi) {
            rc = kolo_put_nb(kc, kshmem.peer[pe].node, raddr, key, src, k, NULL);
            if (rc == KOLO_E_NOTREG) /* source the NI cannot reach: staged */
                rc = kolo_put(kc, kshmem.peer[pe].node, raddr, key, src, k);
        } else {
            rc = kolo_put(kc, kshmem.peer[pe].node, raddr, key, src, k);
        }
        kshmem_rc(fn, rc);
        src = (const uint8_t *)src + k;
        raddr += k;
        n -= k;
    }
}

void kshmem_get_bytes(const char *fn, kolo_ctx *kc, void *dest, const void *src, size_t n, int pe,
                      int nbi) {
    uint64_t raddr;
    uint8_t key;
    int rc;
    kshmem_xlate(fn, "source", src, n, pe, &raddr, &key);
    if (pe == kshmem.me) {
        memmove(dest, src, n);
        return;
    }
    while (n) {
        size_t k = n < KOLO_MAX_LEN ? n : KOLO_MAX_LEN;
        if (nbi) {
            rc = kolo_get_nb(kc, kshmem.peer[pe].node, raddr, key, dest, k, NULL);
            if (rc == KOLO_E_NOTREG)
                rc = kolo_get(kc, kshmem.peer[pe].node, raddr, key, dest, k);
        } else {
            rc = kolo_get(kc, kshmem.peer[pe].node, raddr, key, dest, k);
        }
        kshmem_rc(fn, rc);
        dest = (uint8_t *)dest + k;
        raddr += k;
        n -= k;
    }
}

/* ---- element cores: context, team PE, length checked ------------------------------------ */
/* put (get = 0) or get of nelems elements of es bytes */
static void rma_core(const char *fn, shmem_ctx_t ctx, void *dest, const void *src, size_t nelems,
                     size_t es, int pe, int nbi, int get) {
    struct kshmem_ctx *c = kshmem_ctx_get(fn, ctx);
    int w = kshmem_ctx_pe(fn, c, pe);
    size_t n = kshmem_bytes(fn, nelems, es);
    if (!n)
        return;
    if (get ? !dest : !src)
        kshmem_bad_arg(fn, get ? "dest" : "source", "is NULL");
    (get ? kshmem_get_bytes : kshmem_put_bytes)(fn, c->nic->kc, dest, src, n, w, nbi);
}
static void put_core(const char *fn, shmem_ctx_t ctx, void *dest, const void *src, size_t nelems,
                     size_t es, int pe, int nbi) {
    rma_core(fn, ctx, dest, src, nelems, es, pe, nbi, 0);
}
static void get_core(const char *fn, shmem_ctx_t ctx, void *dest, const void *src, size_t nelems,
                     size_t es, int pe, int nbi) {
    rma_core(fn, ctx, dest, src, nelems, es, pe, nbi, 1);
}

static void check_strides(const char *fn, ptrdiff_t dst, ptrdiff_t sst) {
    if (dst < 1)
        kshmem_bad_arg(fn, "dst", "= %td: strides are at least 1", dst);
    if (sst < 1)
        kshmem_bad_arg(fn, "sst", "= %td: strides are at least 1", sst);
}

static void iput_core(const char *fn, shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst,
                      ptrdiff_t sst, size_t nelems, size_t es, int pe) {
    struct kshmem_ctx *c = kshmem_ctx_get(fn, ctx);
    int w = kshmem_ctx_pe(fn, c, pe);
    size_t i;
    check_strides(fn, dst, sst);
    if (!nelems)
        return;
    if (!src)
        kshmem_bad_arg(fn, "source", "is NULL");
    for (i = 0; i < nelems; i++)
        kshmem_put_bytes(fn, c->nic->kc, (uint8_t *)dest + i * (size_t)dst * es,
                         (const uint8_t *)src + i * (size_t)sst * es, es, w, 0);
}

static void iget_core(const char *fn, shmem_ctx_t ctx, void *dest, const void *src, ptrdiff_t dst,
                      ptrdiff_t sst, size_t nelems, size_t es, int pe) {
    struct kshmem_ctx *c = kshmem_ctx_get(fn, ctx);
    int w = kshmem_ctx_pe(fn, c, pe);
    size_t i;
    check_strides(fn, dst, sst);
    if (!nelems)
        return;
    if (!dest)
        kshmem_bad_arg(fn, "dest", "is NULL");
    for (i = 0; i < nelems; i++) /* all in flight at once, then wait for them */
        kshmem_get_bytes(fn, c->nic->kc, (uint8_t *)dest + i * (size_t)dst * es,
                         (const uint8_t *)src + i * (size_t)sst * es, es, w, 1);
    kshmem_quiet(fn, c->nic->kc);
}

static void put_signal_core(const char *fn, shmem_ctx_t ctx, void *dest, const void *src,
                            size_t nelems, size_t es, uint64_t *sig_addr, uint64_t signal,
                            int sig_op, int pe, int nbi) {
    struct kshmem_ctx *c = kshmem_ctx_get(fn, ctx);
    int w = kshmem_ctx_pe(fn, c, pe);
    size_t n = kshmem_bytes(fn, nelems, es);
    uint64_t raddr = 0, sraddr;
    uint8_t key = 0, skey;
    kolo_ctx *kc = c->nic->kc;
    int rc, op = sig_op == SHMEM_SIGNAL_ADD ? KOLO_SIG_ADD : KOLO_SIG_SET;
    if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
        kshmem_bad_arg(fn, "sig_op", "= %d is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD",
                       sig_op);
    if (!sig_addr || ((uintptr_t)sig_addr & 7))
        kshmem_bad_arg(fn, "sig_addr", "= %p is not 8-byte aligned", (void *)sig_addr);
    kshmem_xlate(fn, "sig_addr", sig_addr, 8, w, &sraddr, &skey);
    if (n) {
        if (!src)
            kshmem_bad_arg(fn, "source", "is NULL");
        kshmem_xlate(fn, "dest", dest, n, w, &raddr, &key);
    }
    if (w == kshmem.me && n) {
        memmove(dest, src, n);
        n = 0;
    }
    if (!n) { /* just the signal, through the NI even to this PE */
        if (op == KOLO_SIG_ADD)
            rc = kolo_atomic(kc, KOLO_AMO_ADD, 8, kshmem.peer[w].node, sraddr, skey, signal, 0,
                             NULL);
        else
            rc = kolo_put(kc, kshmem.peer[w].node, sraddr, skey, &signal, 8);
        kshmem_rc(fn, rc);
        return;
    }
    if (nbi && kolo_mem_dma_ok(kshmem.dev, src, n))
        rc = kolo_put_signal_nb(kc, kshmem.peer[w].node, raddr, key, src, n, sraddr, skey, signal,
                                op);
    else
        rc = kolo_put_signal(kc, kshmem.peer[w].node, raddr, key, src, n, sraddr, skey, signal, op);
    kshmem_rc(fn, rc);
}

/* ---- the routines: each in its default and its context form ----------------------------------
 * KSHMEM_FORMS(ret, name, params, core, args): shmem_ctx_<name>(ctx, params) and
 * shmem_<name>(params), both calling core(their own name, ctx, args) */
#define KSHMEM_UNPAREN(...) __VA_ARGS__
#define KSHMEM_FORMS(name, params, core, args)                                                     \
    void shmem_ctx_##name(shmem_ctx_t ctx, KSHMEM_UNPAREN params) {                                \
        core("shmem_ctx_" #name, ctx, KSHMEM_UNPAREN args);                                        \
    }                                                                                              \
    void shmem_##name(KSHMEM_UNPAREN params) {                                                     \
        core("shmem_" #name, SHMEM_CTX_DEFAULT, KSHMEM_UNPAREN args);                              \
    }

#define KSHMEM_DEF_RMA(T, N)                                                                       \
    KSHMEM_FORMS(N##_put, (T * dest, const T *source, size_t nelems, int pe), put_core,            \
                 (dest, source, nelems, sizeof(T), pe, 0))                                         \
    KSHMEM_FORMS(N##_get, (T * dest, const T *source, size_t nelems, int pe), get_core,            \
                 (dest, source, nelems, sizeof(T), pe, 0))                                         \
    KSHMEM_FORMS(N##_put_nbi, (T * dest, const T *source, size_t nelems, int pe), put_core,        \
                 (dest, source, nelems, sizeof(T), pe, 1))                                         \
    KSHMEM_FORMS(N##_get_nbi, (T * dest, const T *source, size_t nelems, int pe), get_core,        \
                 (dest, source, nelems, sizeof(T), pe, 1))                                         \
    KSHMEM_FORMS(N##_p, (T * dest, T value, int pe), put_core, (dest, &value, 1, sizeof(T), pe, 0)) \
    KSHMEM_FORMS(N##_iput,                                                                         \
                 (T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
                 iput_core, (dest, source, dst, sst, nelems, sizeof(T), pe))                       \
    KSHMEM_FORMS(N##_iget,                                                                         \
                 (T * dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int pe), \
                 iget_core, (dest, source, dst, sst, nelems, sizeof(T), pe))                       \
    KSHMEM_FORMS(N##_put_signal,                                                                   \
                 (T * dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal,   \
                  int sig_op, int pe),                                                             \
                 put_signal_core, (dest, source, nelems, sizeof(T), sig_addr, signal, sig_op, pe, 0)) \
    KSHMEM_FORMS(N##_put_signal_nbi,                                                               \
                 (T * dest, const T *source, size_t nelems, uint64_t *sig_addr, uint64_t signal,   \
                  int sig_op, int pe),                                                             \
                 put_signal_core, (dest, source, nelems, sizeof(T), sig_addr, signal, sig_op, pe, 1)) \
    static T g_##N(const char *fn, shmem_ctx_t ctx, const T *source, int pe) {                     \
        T v;                                                                                       \
        memset(&v, 0, sizeof v);                                                                   \
        get_core(fn, ctx, &v, source, 1, sizeof(T), pe, 0);                                        \
        return v;                                                                                  \
    }                                                                                              \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe) {                                \
        return g_##N("shmem_ctx_" #N "_g", ctx, source, pe);                                       \
    }                                                                                              \
    T shmem_##N##_g(const T *source, int pe) {                                                     \
        return g_##N("shmem_" #N "_g", SHMEM_CTX_DEFAULT, source, pe);                             \
    }
KSHMEM_RMA_TYPES(KSHMEM_DEF_RMA)

#define KSHMEM_DEF_SIZED(B)                                                                        \
    KSHMEM_FORMS(put##B, (void *dest, const void *source, size_t nelems, int pe), put_core,        \
                 (dest, source, nelems, B / 8, pe, 0))                                             \
    KSHMEM_FORMS(get##B, (void *dest, const void *source, size_t nelems, int pe), get_core,        \
                 (dest, source, nelems, B / 8, pe, 0))                                             \
    KSHMEM_FORMS(put##B##_nbi, (void *dest, const void *source, size_t nelems, int pe), put_core,  \
                 (dest, source, nelems, B / 8, pe, 1))                                             \
    KSHMEM_FORMS(get##B##_nbi, (void *dest, const void *source, size_t nelems, int pe), get_core,  \
                 (dest, source, nelems, B / 8, pe, 1))                                             \
    KSHMEM_FORMS(iput##B,                                                                          \
                 (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,     \
                  int pe),                                                                         \
                 iput_core, (dest, source, dst, sst, nelems, B / 8, pe))                           \
    KSHMEM_FORMS(iget##B,                                                                          \
                 (void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,     \
                  int pe),                                                                         \
                 iget_core, (dest, source, dst, sst, nelems, B / 8, pe))                           \
    KSHMEM_FORMS(put##B##_signal,                                                                  \
                 (void *dest, const void *source, size_t nelems, uint64_t *sig_addr,               \
                  uint64_t signal, int sig_op, int pe),                                            \
                 put_signal_core, (dest, source, nelems, B / 8, sig_addr, signal, sig_op, pe, 0))  \
    KSHMEM_FORMS(put##B##_signal_nbi,                                                              \
                 (void *dest, const void *source, size_t nelems, uint64_t *sig_addr,               \
                  uint64_t signal, int sig_op, int pe),                                            \
                 put_signal_core, (dest, source, nelems, B / 8, sig_addr, signal, sig_op, pe, 1))
KSHMEM_SIZES(KSHMEM_DEF_SIZED)

KSHMEM_FORMS(putmem, (void *dest, const void *source, size_t nelems, int pe), put_core,
             (dest, source, nelems, 1, pe, 0))
KSHMEM_FORMS(getmem, (void *dest, const void *source, size_t nelems, int pe), get_core,
             (dest, source, nelems, 1, pe, 0))
KSHMEM_FORMS(putmem_nbi, (void *dest, const void *source, size_t nelems, int pe), put_core,
             (dest, source, nelems, 1, pe, 1))
KSHMEM_FORMS(getmem_nbi, (void *dest, const void *source, size_t nelems, int pe), get_core,
             (dest, source, nelems, 1, pe, 1))
KSHMEM_FORMS(putmem_signal,
             (void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal,
              int sig_op, int pe),
             put_signal_core, (dest, source, nelems, 1, sig_addr, signal, sig_op, pe, 0))
KSHMEM_FORMS(putmem_signal_nbi,
             (void *dest, const void *source, size_t nelems, uint64_t *sig_addr, uint64_t signal,
              int sig_op, int pe),
             put_signal_core, (dest, source, nelems, 1, sig_addr, signal, sig_op, pe, 1))
