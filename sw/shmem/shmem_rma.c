/* shmem_rma.c - libkolo_shmem: put, get, p, g, iput, iget, nbi forms, put
 * with signal. Operations on the PE itself are memory copies (signals
 * excepted: they go through the NI so that they stay atomic with respect to
 * remote updates of the same word). */
#define _GNU_SOURCE
#include "shmem_internal.h"

#include <string.h>

/* the world PE of pe in ctx's team; fatal when outside */
int kshmem_ctx_pe(shmem_ctx_t ctx, const char *fn, int pe) {
    shmem_team_t t = ctx->team;
    kshmem_check_init(fn);
    if (t == SHMEM_TEAM_WORLD)
        return pe;
    if (pe < 0 || pe >= t->size)
        kshmem_fatal("%s: PE %d outside the context's team of %d", fn, pe, t->size);
    return t->start + pe * t->stride;
}

static void put_core(shmem_ctx_t ctx, const char *fn, void *dest, const void *src, size_t n,
                     int pe, int nbi) {
    uint64_t raddr;
    uint8_t key;
    int rc;
    if (ctx == SHMEM_CTX_INVALID || !n)
        return;
    pe = kshmem_ctx_pe(ctx, fn, pe);
    kshmem_check_pe(fn, pe);
    if (!src)
        kshmem_fatal("%s: NULL source", fn);
    kshmem_xlate(fn, dest, n, pe, &raddr, &key);
    if (pe == kshmem.me) {
        memmove(dest, src, n);
        return;
    }
    while (n) { /* the NI takes at most KOLO_MAX_LEN bytes per operation */
        size_t k = n < KOLO_MAX_LEN ? n : KOLO_MAX_LEN;
        if (nbi) {
            rc = kolo_put_nb(kshmem.ctx, kshmem.peer[pe].node, raddr, key, src, k, NULL);
            if (rc == KOLO_E_NOTREG) /* source the NI cannot reach: staged */
                rc = kolo_put(kshmem.ctx, kshmem.peer[pe].node, raddr, key, src, k);
        } else {
            rc = kolo_put(kshmem.ctx, kshmem.peer[pe].node, raddr, key, src, k);
        }
        kshmem_rc(fn, rc);
        src = (const uint8_t *)src + k;
        raddr += k;
        n -= k;
    }
}

static void get_core(shmem_ctx_t ctx, const char *fn, void *dest, const void *src, size_t n,
                     int pe, int nbi) {
    uint64_t raddr;
    uint8_t key;
    int rc;
    if (ctx == SHMEM_CTX_INVALID || !n)
        return;
    pe = kshmem_ctx_pe(ctx, fn, pe);
    kshmem_check_pe(fn, pe);
    if (!dest)
        kshmem_fatal("%s: NULL destination", fn);
    kshmem_xlate(fn, src, n, pe, &raddr, &key);
    if (pe == kshmem.me) {
        memmove(dest, src, n);
        return;
    }
    while (n) {
        size_t k = n < KOLO_MAX_LEN ? n : KOLO_MAX_LEN;
        if (nbi) {
            rc = kolo_get_nb(kshmem.ctx, kshmem.peer[pe].node, raddr, key, dest, k, NULL);
            if (rc == KOLO_E_NOTREG)
                rc = kolo_get(kshmem.ctx, kshmem.peer[pe].node, raddr, key, dest, k);
        } else {
            rc = kolo_get(kshmem.ctx, kshmem.peer[pe].node, raddr, key, dest, k);
        }
        kshmem_rc(fn, rc);
        dest = (uint8_t *)dest + k;
        raddr += k;
        n -= k;
    }
}

void kshmem_put(shmem_ctx_t ctx, void *dest, const void *src, size_t n, int pe, int nbi) {
    put_core(ctx, nbi ? "shmem_put_nbi" : "shmem_put", dest, src, n, pe, nbi);
}
void kshmem_get(shmem_ctx_t ctx, void *dest, const void *src, size_t n, int pe, int nbi) {
    get_core(ctx, nbi ? "shmem_get_nbi" : "shmem_get", dest, src, n, pe, nbi);
}

static void iput_core(shmem_ctx_t ctx, const char *fn, void *dest, const void *src, ptrdiff_t dst,
                      ptrdiff_t sst, size_t nelems, size_t es, int pe) {
    size_t i;
    if (ctx == SHMEM_CTX_INVALID || !nelems)
        return;
    if (dst < 1 || sst < 1)
        kshmem_fatal("%s: strides must be >= 1 (dst %td, sst %td)", fn, dst, sst);
    for (i = 0; i < nelems; i++)
        put_core(ctx, fn, (uint8_t *)dest + i * (size_t)dst * es,
                 (const uint8_t *)src + i * (size_t)sst * es, es, pe, 0);
}

static void iget_core(shmem_ctx_t ctx, const char *fn, void *dest, const void *src, ptrdiff_t dst,
                      ptrdiff_t sst, size_t nelems, size_t es, int pe) {
    size_t i;
    if (ctx == SHMEM_CTX_INVALID || !nelems)
        return;
    if (dst < 1 || sst < 1)
        kshmem_fatal("%s: strides must be >= 1 (dst %td, sst %td)", fn, dst, sst);
    for (i = 0; i < nelems; i++) /* all in flight at once, then wait for them */
        get_core(ctx, fn, (uint8_t *)dest + i * (size_t)dst * es,
                 (const uint8_t *)src + i * (size_t)sst * es, es, pe, 1);
    kshmem_rc(fn, kolo_quiet(kshmem.ctx));
}

static void put_signal_core(shmem_ctx_t ctx, const char *fn, void *dest, const void *src,
                            size_t n, uint64_t *sig_addr, uint64_t signal, int sig_op, int pe,
                            int nbi) {
    uint64_t raddr = 0, sraddr;
    uint8_t key = 0, skey;
    int rc;
    if (ctx == SHMEM_CTX_INVALID)
        return;
    pe = kshmem_ctx_pe(ctx, fn, pe);
    kshmem_check_pe(fn, pe);
    if (sig_op != SHMEM_SIGNAL_SET && sig_op != SHMEM_SIGNAL_ADD)
        kshmem_fatal("%s: sig_op %d is neither SHMEM_SIGNAL_SET nor SHMEM_SIGNAL_ADD", fn, sig_op);
    if ((uintptr_t)sig_addr & 7)
        kshmem_fatal("%s: signal address %p not 8-byte aligned", fn, (void *)sig_addr);
    kshmem_xlate(fn, sig_addr, 8, pe, &sraddr, &skey);
    if (n) {
        if (!src)
            kshmem_fatal("%s: NULL source", fn);
        kshmem_xlate(fn, dest, n, pe, &raddr, &key);
    }
    if (pe == kshmem.me && n) {
        memmove(dest, src, n);
        n = 0;
    }
    if (!n) { /* just the signal, through the NI even to this PE */
        if (sig_op == SHMEM_SIGNAL_ADD)
            rc = kolo_atomic(kshmem.ctx, KOLO_AMO_ADD, 8, kshmem.peer[pe].node, sraddr, skey,
                             signal, 0, NULL);
        else
            rc = kolo_put(kshmem.ctx, kshmem.peer[pe].node, sraddr, skey, &signal, 8);
        kshmem_rc(fn, rc);
        return;
    }
    if (nbi && kolo_mem_dma_ok(kshmem.dev, src, n))
        rc = kolo_put_signal_nb(kshmem.ctx, kshmem.peer[pe].node, raddr, key, src, n, sraddr, skey,
                                signal, sig_op == SHMEM_SIGNAL_ADD ? KOLO_SIG_ADD : KOLO_SIG_SET);
    else
        rc = kolo_put_signal(kshmem.ctx, kshmem.peer[pe].node, raddr, key, src, n, sraddr, skey,
                             signal, sig_op == SHMEM_SIGNAL_ADD ? KOLO_SIG_ADD : KOLO_SIG_SET);
    kshmem_rc(fn, rc);
}

/* ---- typed -------------------------------------------------------------------------- */
#define KSHMEM_DEF_RMA(T, N)                                                                       \
    void shmem_ctx_##N##_put(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) {   \
        put_core(ctx, "shmem_" #N "_put", dest, source, nelems * sizeof(T), pe, 0);                \
    }                                                                                              \
    void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe) {                        \
        put_core(SHMEM_CTX_DEFAULT, "shmem_" #N "_put", dest, source, nelems * sizeof(T), pe, 0);  \
    }                                                                                              \
    void shmem_ctx_##N##_get(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems, int pe) {   \
        get_core(ctx, "shmem_" #N "_get", dest, source, nelems * sizeof(T), pe, 0);                \
    }                                                                                              \
    void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe) {                        \
        get_core(SHMEM_CTX_DEFAULT, "shmem_" #N "_get", dest, source, nelems * sizeof(T), pe, 0);  \
    }                                                                                              \
    void shmem_ctx_##N##_put_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,         \
                                 int pe) {                                                         \
        put_core(ctx, "shmem_" #N "_put_nbi", dest, source, nelems * sizeof(T), pe, 1);            \
    }                                                                                              \
    void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe) {                    \
        put_core(SHMEM_CTX_DEFAULT, "shmem_" #N "_put_nbi", dest, source, nelems * sizeof(T), pe,  \
                 1);                                                                               \
    }                                                                                              \
    void shmem_ctx_##N##_get_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,         \
                                 int pe) {                                                         \
        get_core(ctx, "shmem_" #N "_get_nbi", dest, source, nelems * sizeof(T), pe, 1);            \
    }                                                                                              \
    void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe) {                    \
        get_core(SHMEM_CTX_DEFAULT, "shmem_" #N "_get_nbi", dest, source, nelems * sizeof(T), pe,  \
                 1);                                                                               \
    }                                                                                              \
    void shmem_ctx_##N##_p(shmem_ctx_t ctx, T *dest, T value, int pe) {                            \
        put_core(ctx, "shmem_" #N "_p", dest, &value, sizeof(T), pe, 0);                           \
    }                                                                                              \
    void shmem_##N##_p(T *dest, T value, int pe) {                                                 \
        put_core(SHMEM_CTX_DEFAULT, "shmem_" #N "_p", dest, &value, sizeof(T), pe, 0);             \
    }                                                                                              \
    T shmem_ctx_##N##_g(shmem_ctx_t ctx, const T *source, int pe) {                                \
        T v;                                                                                       \
        memset(&v, 0, sizeof v);                                                                   \
        get_core(ctx, "shmem_" #N "_g", &v, source, sizeof(T), pe, 0);                             \
        return v;                                                                                  \
    }                                                                                              \
    T shmem_##N##_g(const T *source, int pe) { return shmem_ctx_##N##_g(SHMEM_CTX_DEFAULT, source, pe); } \
    void shmem_ctx_##N##_iput(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,            \
                              ptrdiff_t sst, size_t nelems, int pe) {                              \
        iput_core(ctx, "shmem_" #N "_iput", dest, source, dst, sst, nelems, sizeof(T), pe);        \
    }                                                                                              \
    void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,   \
                          int pe) {                                                                \
        iput_core(SHMEM_CTX_DEFAULT, "shmem_" #N "_iput", dest, source, dst, sst, nelems,          \
                  sizeof(T), pe);                                                                  \
    }                                                                                              \
    void shmem_ctx_##N##_iget(shmem_ctx_t ctx, T *dest, const T *source, ptrdiff_t dst,            \
                              ptrdiff_t sst, size_t nelems, int pe) {                              \
        iget_core(ctx, "shmem_" #N "_iget", dest, source, dst, sst, nelems, sizeof(T), pe);        \
    }                                                                                              \
    void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,   \
                          int pe) {                                                                \
        iget_core(SHMEM_CTX_DEFAULT, "shmem_" #N "_iget", dest, source, dst, sst, nelems,          \
                  sizeof(T), pe);                                                                  \
    }                                                                                              \
    void shmem_ctx_##N##_put_signal(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,      \
                                    uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {     \
        put_signal_core(ctx, "shmem_" #N "_put_signal", dest, source, nelems * sizeof(T),          \
                        sig_addr, signal, sig_op, pe, 0);                                          \
    }                                                                                              \
    void shmem_##N##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr,       \
                                uint64_t signal, int sig_op, int pe) {                             \
        put_signal_core(SHMEM_CTX_DEFAULT, "shmem_" #N "_put_signal", dest, source,                \
                        nelems * sizeof(T), sig_addr, signal, sig_op, pe, 0);                      \
    }                                                                                              \
    void shmem_ctx_##N##_put_signal_nbi(shmem_ctx_t ctx, T *dest, const T *source, size_t nelems,  \
                                        uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) { \
        put_signal_core(ctx, "shmem_" #N "_put_signal_nbi", dest, source, nelems * sizeof(T),      \
                        sig_addr, signal, sig_op, pe, 1);                                          \
    }                                                                                              \
    void shmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems, uint64_t *sig_addr,   \
                                    uint64_t signal, int sig_op, int pe) {                         \
        put_signal_core(SHMEM_CTX_DEFAULT, "shmem_" #N "_put_signal_nbi", dest, source,            \
                        nelems * sizeof(T), sig_addr, signal, sig_op, pe, 1);                      \
    }
KSHMEM_RMA_TYPES(KSHMEM_DEF_RMA)

#define KSHMEM_DEF_SIZED(B)                                                                        \
    void shmem_ctx_put##B(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,          \
                          int pe) {                                                                \
        put_core(ctx, "shmem_put" #B, dest, source, nelems * (B / 8), pe, 0);                      \
    }                                                                                              \
    void shmem_put##B(void *dest, const void *source, size_t nelems, int pe) {                     \
        put_core(SHMEM_CTX_DEFAULT, "shmem_put" #B, dest, source, nelems * (B / 8), pe, 0);        \
    }                                                                                              \
    void shmem_ctx_get##B(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,          \
                          int pe) {                                                                \
        get_core(ctx, "shmem_get" #B, dest, source, nelems * (B / 8), pe, 0);                      \
    }                                                                                              \
    void shmem_get##B(void *dest, const void *source, size_t nelems, int pe) {                     \
        get_core(SHMEM_CTX_DEFAULT, "shmem_get" #B, dest, source, nelems * (B / 8), pe, 0);        \
    }                                                                                              \
    void shmem_ctx_put##B##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,    \
                                int pe) {                                                          \
        put_core(ctx, "shmem_put" #B "_nbi", dest, source, nelems * (B / 8), pe, 1);               \
    }                                                                                              \
    void shmem_put##B##_nbi(void *dest, const void *source, size_t nelems, int pe) {               \
        put_core(SHMEM_CTX_DEFAULT, "shmem_put" #B "_nbi", dest, source, nelems * (B / 8), pe, 1); \
    }                                                                                              \
    void shmem_ctx_get##B##_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,    \
                                int pe) {                                                          \
        get_core(ctx, "shmem_get" #B "_nbi", dest, source, nelems * (B / 8), pe, 1);               \
    }                                                                                              \
    void shmem_get##B##_nbi(void *dest, const void *source, size_t nelems, int pe) {               \
        get_core(SHMEM_CTX_DEFAULT, "shmem_get" #B "_nbi", dest, source, nelems * (B / 8), pe, 1); \
    }                                                                                              \
    void shmem_ctx_iput##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,         \
                           ptrdiff_t sst, size_t nelems, int pe) {                                 \
        iput_core(ctx, "shmem_iput" #B, dest, source, dst, sst, nelems, B / 8, pe);                \
    }                                                                                              \
    void shmem_iput##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,               \
                       size_t nelems, int pe) {                                                    \
        iput_core(SHMEM_CTX_DEFAULT, "shmem_iput" #B, dest, source, dst, sst, nelems, B / 8, pe);  \
    }                                                                                              \
    void shmem_ctx_iget##B(shmem_ctx_t ctx, void *dest, const void *source, ptrdiff_t dst,         \
                           ptrdiff_t sst, size_t nelems, int pe) {                                 \
        iget_core(ctx, "shmem_iget" #B, dest, source, dst, sst, nelems, B / 8, pe);                \
    }                                                                                              \
    void shmem_iget##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,               \
                       size_t nelems, int pe) {                                                    \
        iget_core(SHMEM_CTX_DEFAULT, "shmem_iget" #B, dest, source, dst, sst, nelems, B / 8, pe);  \
    }                                                                                              \
    void shmem_ctx_put##B##_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, \
                                   uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {      \
        put_signal_core(ctx, "shmem_put" #B "_signal", dest, source, nelems * (B / 8), sig_addr,   \
                        signal, sig_op, pe, 0);                                                    \
    }                                                                                              \
    void shmem_put##B##_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,  \
                               uint64_t signal, int sig_op, int pe) {                              \
        put_signal_core(SHMEM_CTX_DEFAULT, "shmem_put" #B "_signal", dest, source,                 \
                        nelems * (B / 8), sig_addr, signal, sig_op, pe, 0);                        \
    }                                                                                              \
    void shmem_ctx_put##B##_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source,            \
                                       size_t nelems, uint64_t *sig_addr, uint64_t signal,         \
                                       int sig_op, int pe) {                                       \
        put_signal_core(ctx, "shmem_put" #B "_signal_nbi", dest, source, nelems * (B / 8),         \
                        sig_addr, signal, sig_op, pe, 1);                                          \
    }                                                                                              \
    void shmem_put##B##_signal_nbi(void *dest, const void *source, size_t nelems,                  \
                                   uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {      \
        put_signal_core(SHMEM_CTX_DEFAULT, "shmem_put" #B "_signal_nbi", dest, source,             \
                        nelems * (B / 8), sig_addr, signal, sig_op, pe, 1);                        \
    }
KSHMEM_SIZES(KSHMEM_DEF_SIZED)

void shmem_ctx_putmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) {
    put_core(ctx, "shmem_putmem", dest, source, nelems, pe, 0);
}
void shmem_putmem(void *dest, const void *source, size_t nelems, int pe) {
    put_core(SHMEM_CTX_DEFAULT, "shmem_putmem", dest, source, nelems, pe, 0);
}
void shmem_ctx_getmem(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) {
    get_core(ctx, "shmem_getmem", dest, source, nelems, pe, 0);
}
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe) {
    get_core(SHMEM_CTX_DEFAULT, "shmem_getmem", dest, source, nelems, pe, 0);
}
void shmem_ctx_putmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) {
    put_core(ctx, "shmem_putmem_nbi", dest, source, nelems, pe, 1);
}
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe) {
    put_core(SHMEM_CTX_DEFAULT, "shmem_putmem_nbi", dest, source, nelems, pe, 1);
}
void shmem_ctx_getmem_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems, int pe) {
    get_core(ctx, "shmem_getmem_nbi", dest, source, nelems, pe, 1);
}
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe) {
    get_core(SHMEM_CTX_DEFAULT, "shmem_getmem_nbi", dest, source, nelems, pe, 1);
}
void shmem_ctx_putmem_signal(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                             uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {
    put_signal_core(ctx, "shmem_putmem_signal", dest, source, nelems, sig_addr, signal, sig_op, pe,
                    0);
}
void shmem_putmem_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                         uint64_t signal, int sig_op, int pe) {
    put_signal_core(SHMEM_CTX_DEFAULT, "shmem_putmem_signal", dest, source, nelems, sig_addr,
                    signal, sig_op, pe, 0);
}
void shmem_ctx_putmem_signal_nbi(shmem_ctx_t ctx, void *dest, const void *source, size_t nelems,
                                 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {
    put_signal_core(ctx, "shmem_putmem_signal_nbi", dest, source, nelems, sig_addr, signal, sig_op,
                    pe, 1);
}
void shmem_putmem_signal_nbi(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                             uint64_t signal, int sig_op, int pe) {
    put_signal_core(SHMEM_CTX_DEFAULT, "shmem_putmem_signal_nbi", dest, source, nelems, sig_addr,
                    signal, sig_op, pe, 1);
}
