/* shmem_amo.c - libkolo_shmem: atomic memory operations. Every atomic goes
 * through the NI, to this PE too: the NI serialises the operations on a word,
 * which the CPU's own atomics would not be (the NI updates memory with
 * plain DMA). fetch is FETCH_ADD 0, set is SWAP with the result dropped,
 * inc is ADD 1. */
#define _GNU_SOURCE
#include "shmem_internal.h"

#include <string.h>

static inline uint64_t bits(const void *p, size_t n) {
    uint64_t u = 0;
    memcpy(&u, p, n);
    return u;
}

static void amo_addr(const char *fn, void *dest, unsigned size, int pe, uint64_t *raddr,
                     uint8_t *key) {
    kshmem_check_pe(fn, pe);
    if (!dest || ((uintptr_t)dest & (size - 1)))
        kshmem_fatal("%s: address %p is not aligned to %u bytes", fn, dest, size);
    kshmem_xlate(fn, dest, size, pe, raddr, key);
}

uint64_t kshmem_amo(const char *fn, int op, unsigned size, void *dest, uint64_t operand,
                    uint64_t compare, int pe) {
    uint64_t raddr, old = 0;
    uint8_t key;
    int rc;
    amo_addr(fn, dest, size, pe, &raddr, &key);
    rc = kolo_atomic(kshmem.ctx, op, size, kshmem.peer[pe].node, raddr, key, operand, compare,
                     &old);
    kshmem_rc(fn, rc);
    return old;
}

/* set: a SWAP whose old value nobody wants; completes by quiet */
static void amo_set(const char *fn, unsigned size, void *dest, uint64_t value, int pe) {
    uint64_t raddr;
    uint8_t key;
    amo_addr(fn, dest, size, pe, &raddr, &key);
    kshmem_rc(fn, kolo_atomic_nb(kshmem.ctx, KOLO_AMO_SWAP, size, kshmem.peer[pe].node, raddr, key,
                                 value, 0, NULL, NULL));
}

static void amo_nbi(const char *fn, int op, unsigned size, void *fetch, void *dest,
                    uint64_t operand, uint64_t compare, int pe) {
    uint64_t raddr;
    uint8_t key;
    amo_addr(fn, dest, size, pe, &raddr, &key);
    if (!fetch)
        kshmem_fatal("%s: NULL fetch address", fn);
    kshmem_rc(fn, kolo_atomic_nb(kshmem.ctx, op, size, kshmem.peer[pe].node, raddr, key, operand,
                                 compare, fetch, NULL));
}

#define CTXPE(fn) kshmem_ctx_pe(ctx, fn, pe)
#define RET(T, v)                                                                                  \
    do {                                                                                           \
        T r_;                                                                                      \
        uint64_t v_ = (v);                                                                         \
        memcpy(&r_, &v_, sizeof(T));                                                               \
        return r_;                                                                                 \
    } while (0)

/* fetch, set, swap (+ nbi) */
#define KSHMEM_DEF_AMO_FSS(T, N)                                                                   \
    _Static_assert(sizeof(T) == 4 || sizeof(T) == 8, "AMO type size");                             \
    T shmem_ctx_##N##_atomic_fetch(shmem_ctx_t ctx, const T *source, int pe) {                     \
        static const char fn[] = "shmem_" #N "_atomic_fetch";                                      \
        if (ctx == SHMEM_CTX_INVALID)                                                              \
            RET(T, 0);                                                                             \
        RET(T, kshmem_amo(fn, KOLO_AMO_FETCH_ADD, sizeof(T), (void *)(uintptr_t)source, 0, 0,      \
                          CTXPE(fn)));                                                             \
    }                                                                                              \
    T shmem_##N##_atomic_fetch(const T *source, int pe) {                                          \
        return shmem_ctx_##N##_atomic_fetch(SHMEM_CTX_DEFAULT, source, pe);                        \
    }                                                                                              \
    void shmem_ctx_##N##_atomic_set(shmem_ctx_t ctx, T *dest, T value, int pe) {                   \
        static const char fn[] = "shmem_" #N "_atomic_set";                                        \
        if (ctx != SHMEM_CTX_INVALID)                                                              \
            amo_set(fn, sizeof(T), dest, bits(&value, sizeof(T)), CTXPE(fn));                      \
    }                                                                                              \
    void shmem_##N##_atomic_set(T *dest, T value, int pe) {                                        \
        shmem_ctx_##N##_atomic_set(SHMEM_CTX_DEFAULT, dest, value, pe);                            \
    }                                                                                              \
    T shmem_ctx_##N##_atomic_swap(shmem_ctx_t ctx, T *dest, T value, int pe) {                     \
        static const char fn[] = "shmem_" #N "_atomic_swap";                                       \
        if (ctx == SHMEM_CTX_INVALID)                                                              \
            RET(T, 0);                                                                             \
        RET(T, kshmem_amo(fn, KOLO_AMO_SWAP, sizeof(T), dest, bits(&value, sizeof(T)), 0,          \
                          CTXPE(fn)));                                                             \
    }                                                                                              \
    T shmem_##N##_atomic_swap(T *dest, T value, int pe) {                                          \
        return shmem_ctx_##N##_atomic_swap(SHMEM_CTX_DEFAULT, dest, value, pe);                    \
    }                                                                                              \
    void shmem_ctx_##N##_atomic_fetch_nbi(shmem_ctx_t ctx, T *fetch, const T *source, int pe) {    \
        static const char fn[] = "shmem_" #N "_atomic_fetch_nbi";                                  \
        if (ctx != SHMEM_CTX_INVALID)                                                              \
            amo_nbi(fn, KOLO_AMO_FETCH_ADD, sizeof(T), fetch, (void *)(uintptr_t)source, 0, 0,     \
                    CTXPE(fn));                                                                    \
    }                                                                                              \
    void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe) {                         \
        shmem_ctx_##N##_atomic_fetch_nbi(SHMEM_CTX_DEFAULT, fetch, source, pe);                    \
    }                                                                                              \
    void shmem_ctx_##N##_atomic_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value, int pe) {    \
        static const char fn[] = "shmem_" #N "_atomic_swap_nbi";                                   \
        if (ctx != SHMEM_CTX_INVALID)                                                              \
            amo_nbi(fn, KOLO_AMO_SWAP, sizeof(T), fetch, dest, bits(&value, sizeof(T)), 0,         \
                    CTXPE(fn));                                                                    \
    }                                                                                              \
    void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe) {                         \
        shmem_ctx_##N##_atomic_swap_nbi(SHMEM_CTX_DEFAULT, fetch, dest, value, pe);                \
    }

/* a fetching op F with value v, and its non-fetching form A (0: none) */
#define KSHMEM_DEF_AMO_OP(T, N, NAME, F, A)                                                        \
    T shmem_ctx_##N##_atomic_fetch_##NAME(shmem_ctx_t ctx, T *dest, T value, int pe) {             \
        static const char fn[] = "shmem_" #N "_atomic_fetch_" #NAME;                               \
        if (ctx == SHMEM_CTX_INVALID)                                                              \
            RET(T, 0);                                                                             \
        RET(T, kshmem_amo(fn, F, sizeof(T), dest, bits(&value, sizeof(T)), 0, CTXPE(fn)));         \
    }                                                                                              \
    T shmem_##N##_atomic_fetch_##NAME(T *dest, T value, int pe) {                                  \
        return shmem_ctx_##N##_atomic_fetch_##NAME(SHMEM_CTX_DEFAULT, dest, value, pe);            \
    }                                                                                              \
    void shmem_ctx_##N##_atomic_fetch_##NAME##_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T value,    \
                                                   int pe) {                                       \
        static const char fn[] = "shmem_" #N "_atomic_fetch_" #NAME "_nbi";                        \
        if (ctx != SHMEM_CTX_INVALID)                                                              \
            amo_nbi(fn, F, sizeof(T), fetch, dest, bits(&value, sizeof(T)), 0, CTXPE(fn));         \
    }                                                                                              \
    void shmem_##N##_atomic_fetch_##NAME##_nbi(T *fetch, T *dest, T value, int pe) {               \
        shmem_ctx_##N##_atomic_fetch_##NAME##_nbi(SHMEM_CTX_DEFAULT, fetch, dest, value, pe);      \
    }                                                                                              \
    void shmem_ctx_##N##_atomic_##NAME(shmem_ctx_t ctx, T *dest, T value, int pe) {                \
        static const char fn[] = "shmem_" #N "_atomic_" #NAME;                                     \
        if (ctx != SHMEM_CTX_INVALID)                                                              \
            kshmem_amo(fn, A, sizeof(T), dest, bits(&value, sizeof(T)), 0, CTXPE(fn));             \
    }                                                                                              \
    void shmem_##N##_atomic_##NAME(T *dest, T value, int pe) {                                     \
        shmem_ctx_##N##_atomic_##NAME(SHMEM_CTX_DEFAULT, dest, value, pe);                         \
    }

#define KSHMEM_DEF_AMO_STD(T, N)                                                                   \
    KSHMEM_DEF_AMO_FSS(T, N)                                                                       \
    KSHMEM_DEF_AMO_OP(T, N, add, KOLO_AMO_FETCH_ADD, KOLO_AMO_ADD)                                 \
    T shmem_ctx_##N##_atomic_compare_swap(shmem_ctx_t ctx, T *dest, T cond, T value, int pe) {     \
        static const char fn[] = "shmem_" #N "_atomic_compare_swap";                               \
        if (ctx == SHMEM_CTX_INVALID)                                                              \
            RET(T, 0);                                                                             \
        RET(T, kshmem_amo(fn, KOLO_AMO_CSWAP, sizeof(T), dest, bits(&value, sizeof(T)),            \
                          bits(&cond, sizeof(T)), CTXPE(fn)));                                     \
    }                                                                                              \
    T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe) {                          \
        return shmem_ctx_##N##_atomic_compare_swap(SHMEM_CTX_DEFAULT, dest, cond, value, pe);      \
    }                                                                                              \
    void shmem_ctx_##N##_atomic_compare_swap_nbi(shmem_ctx_t ctx, T *fetch, T *dest, T cond,       \
                                                 T value, int pe) {                                \
        static const char fn[] = "shmem_" #N "_atomic_compare_swap_nbi";                           \
        if (ctx != SHMEM_CTX_INVALID)                                                              \
            amo_nbi(fn, KOLO_AMO_CSWAP, sizeof(T), fetch, dest, bits(&value, sizeof(T)),           \
                    bits(&cond, sizeof(T)), CTXPE(fn));                                            \
    }                                                                                              \
    void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe) {         \
        shmem_ctx_##N##_atomic_compare_swap_nbi(SHMEM_CTX_DEFAULT, fetch, dest, cond, value, pe);  \
    }                                                                                              \
    T shmem_ctx_##N##_atomic_fetch_inc(shmem_ctx_t ctx, T *dest, int pe) {                         \
        return shmem_ctx_##N##_atomic_fetch_add(ctx, dest, (T)1, pe);                              \
    }                                                                                              \
    T shmem_##N##_atomic_fetch_inc(T *dest, int pe) {                                              \
        return shmem_ctx_##N##_atomic_fetch_add(SHMEM_CTX_DEFAULT, dest, (T)1, pe);                \
    }                                                                                              \
    void shmem_ctx_##N##_atomic_fetch_inc_nbi(shmem_ctx_t ctx, T *fetch, T *dest, int pe) {        \
        shmem_ctx_##N##_atomic_fetch_add_nbi(ctx, fetch, dest, (T)1, pe);                          \
    }                                                                                              \
    void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe) {                             \
        shmem_ctx_##N##_atomic_fetch_add_nbi(SHMEM_CTX_DEFAULT, fetch, dest, (T)1, pe);            \
    }                                                                                              \
    void shmem_ctx_##N##_atomic_inc(shmem_ctx_t ctx, T *dest, int pe) {                            \
        shmem_ctx_##N##_atomic_add(ctx, dest, (T)1, pe);                                           \
    }                                                                                              \
    void shmem_##N##_atomic_inc(T *dest, int pe) {                                                 \
        shmem_ctx_##N##_atomic_add(SHMEM_CTX_DEFAULT, dest, (T)1, pe);                             \
    }                                                                                              \
    T shmem_##N##_fetch(const T *source, int pe) { return shmem_##N##_atomic_fetch(source, pe); }  \
    void shmem_##N##_set(T *dest, T value, int pe) { shmem_##N##_atomic_set(dest, value, pe); }    \
    T shmem_##N##_swap(T *dest, T value, int pe) { return shmem_##N##_atomic_swap(dest, value, pe); } \
    T shmem_##N##_cswap(T *dest, T cond, T value, int pe) {                                        \
        return shmem_##N##_atomic_compare_swap(dest, cond, value, pe);                             \
    }                                                                                              \
    T shmem_##N##_finc(T *dest, int pe) { return shmem_##N##_atomic_fetch_inc(dest, pe); }         \
    void shmem_##N##_inc(T *dest, int pe) { shmem_##N##_atomic_inc(dest, pe); }                   \
    T shmem_##N##_fadd(T *dest, T value, int pe) {                                                 \
        return shmem_##N##_atomic_fetch_add(dest, value, pe);                                      \
    }                                                                                              \
    void shmem_##N##_add(T *dest, T value, int pe) { shmem_##N##_atomic_add(dest, value, pe); }

#define KSHMEM_DEF_AMO_BIT(T, N)                                                                   \
    KSHMEM_DEF_AMO_OP(T, N, and, KOLO_AMO_FETCH_AND, KOLO_AMO_AND)                                 \
    KSHMEM_DEF_AMO_OP(T, N, or, KOLO_AMO_FETCH_OR, KOLO_AMO_OR)                                    \
    KSHMEM_DEF_AMO_OP(T, N, xor, KOLO_AMO_FETCH_XOR, KOLO_AMO_XOR)

KSHMEM_AMO_STD_TYPES(KSHMEM_DEF_AMO_STD)
KSHMEM_AMO_EXT_TYPES(KSHMEM_DEF_AMO_FSS)
KSHMEM_AMO_BIT_TYPES(KSHMEM_DEF_AMO_BIT)
