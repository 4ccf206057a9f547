/* shmem_amo.c - libkolo_shmem: atomic memory operations. Every atomic goes
 * through the NI, to this PE too: the NI serialises the operations on a word,
 * which the CPU's own atomics would not be (the NI updates memory with
 * plain DMA). fetch is FETCH_ADD 0, set is SWAP with the result dropped,
 * inc is ADD 1. Each routine exists in its default and its context form,
 * the deprecated names call the same cores under their own names. */
#define _GNU_SOURCE
#include "shmem_internal.h"

#include <string.h>

static inline uint64_t bits(const void *p, size_t n) {
    uint64_t u = 0;
    memcpy(&u, p, n);
    return u;
}

static void amo_addr(const char *fn, const char *arg, void *dest, unsigned size, int pe,
                     uint64_t *raddr, uint8_t *key) {
    if (!dest || ((uintptr_t)dest & (size - 1)))
        kshmem_bad_arg(fn, arg, "= %p is not aligned to %u bytes", dest, size);
    kshmem_xlate(fn, arg, dest, size, pe, raddr, key);
}

uint64_t kshmem_amo(const char *fn, const char *arg, kolo_ctx *kc, int op, unsigned size,
                    void *dest, uint64_t operand, uint64_t compare, int pe) {
    uint64_t raddr, old = 0;
    uint8_t key;
    kshmem_check_pe(fn, pe);
    amo_addr(fn, arg, dest, size, pe, &raddr, &key);
    kshmem_rc(fn, kolo_atomic(kc ? kc : kshmem.ctx, op, size, kshmem.peer[pe].node, raddr, key,
                              operand, compare, &old));
    return old;
}

/* an atomic whose result lands in *fetch when its completion is polled
 * (fetch NULL: nobody wants it, set is such a SWAP) */
static void amo_nb(const char *fn, const char *arg, kolo_ctx *kc, int op, unsigned size,
                   void *fetch, void *dest, uint64_t operand, uint64_t compare, int pe) {
    uint64_t raddr;
    uint8_t key;
    amo_addr(fn, arg, dest, size, pe, &raddr, &key);
    kshmem_rc(fn, kolo_atomic_nb(kc, op, size, kshmem.peer[pe].node, raddr, key, operand, compare,
                                 fetch, NULL));
}

/* the context's NI context and the world PE of its team's pe */
#define AMO_CTX(fn)                                                                                \
    struct kshmem_ctx *c_ = kshmem_ctx_get(fn, ctx);                                               \
    int w_ = kshmem_ctx_pe(fn, c_, pe);                                                            \
    kolo_ctx *kc_ = c_->nic->kc
#define FETCH_ARG(fn)                                                                              \
    if (!fetch)                                                                                    \
    kshmem_bad_arg(fn, "fetch", "is NULL")
#define AS(T, v)                                                                                   \
    ({                                                                                             \
        uint64_t v_ = (v);                                                                         \
        T r_;                                                                                      \
        memcpy(&r_, &v_, sizeof(T));                                                               \
        r_;                                                                                        \
    })

/* per type, the cores (static, taking the routine's name) */
#define KSHMEM_AMO_CORES_FSS(T, N)                                                                 \
    _Static_assert(sizeof(T) == 4 || sizeof(T) == 8, "AMO type size");                             \
    static T fetch_##N(const char *fn, shmem_ctx_t ctx, const T *source, int pe) {                 \
        AMO_CTX(fn);                                                                               \
        return AS(T, kshmem_amo(fn, "source", kc_, KOLO_AMO_FETCH_ADD, sizeof(T),                  \
                                (void *)(uintptr_t)source, 0, 0, w_));                             \
    }                                                                                              \
    static void set_##N(const char *fn, shmem_ctx_t ctx, T *dest, T value, int pe) {               \
        AMO_CTX(fn);                                                                               \
        amo_nb(fn, "dest", kc_, KOLO_AMO_SWAP, sizeof(T), NULL, dest, bits(&value, sizeof(T)), 0,  \
               w_);                                                                                \
    }                                                                                              \
    static T swap_##N(const char *fn, shmem_ctx_t ctx, T *dest, T value, int pe) {                 \
        AMO_CTX(fn);                                                                               \
        return AS(T, kshmem_amo(fn, "dest", kc_, KOLO_AMO_SWAP, sizeof(T), dest,                   \
                                bits(&value, sizeof(T)), 0, w_));                                  \
    }                                                                                              \
    static void fetch_nbi_##N(const char *fn, shmem_ctx_t ctx, T *fetch, const T *source,          \
                              int pe) {                                                            \
        AMO_CTX(fn);                                                                               \
        FETCH_ARG(fn);                                                                             \
        amo_nb(fn, "source", kc_, KOLO_AMO_FETCH_ADD, sizeof(T), fetch, (void *)(uintptr_t)source, \
               0, 0, w_);                                                                          \
    }                                                                                              \
    static void swap_nbi_##N(const char *fn, shmem_ctx_t ctx, T *fetch, T *dest, T value,          \
                             int pe) {                                                             \
        AMO_CTX(fn);                                                                               \
        FETCH_ARG(fn);                                                                             \
        amo_nb(fn, "dest", kc_, KOLO_AMO_SWAP, sizeof(T), fetch, dest, bits(&value, sizeof(T)), 0, \
               w_);                                                                                \
    }

/* a fetching op F and its non-fetching form A */
#define KSHMEM_AMO_CORES_OP(T, N, NAME, F, A)                                                      \
    static T fetch_##NAME##_##N(const char *fn, shmem_ctx_t ctx, T *dest, T value, int pe) {       \
        AMO_CTX(fn);                                                                               \
        return AS(T, kshmem_amo(fn, "dest", kc_, F, sizeof(T), dest, bits(&value, sizeof(T)), 0,   \
                                w_));                                                              \
    }                                                                                              \
    static void fetch_##NAME##_nbi_##N(const char *fn, shmem_ctx_t ctx, T *fetch, T *dest,         \
                                       T value, int pe) {                                          \
        AMO_CTX(fn);                                                                               \
        FETCH_ARG(fn);                                                                             \
        amo_nb(fn, "dest", kc_, F, sizeof(T), fetch, dest, bits(&value, sizeof(T)), 0, w_);        \
    }                                                                                              \
    static void NAME##_##N(const char *fn, shmem_ctx_t ctx, T *dest, T value, int pe) {            \
        AMO_CTX(fn);                                                                               \
        kshmem_amo(fn, "dest", kc_, A, sizeof(T), dest, bits(&value, sizeof(T)), 0, w_);           \
    }

#define KSHMEM_AMO_CORES_STD(T, N)                                                                 \
    KSHMEM_AMO_CORES_OP(T, N, add, KOLO_AMO_FETCH_ADD, KOLO_AMO_ADD)                               \
    static T cswap_##N(const char *fn, shmem_ctx_t ctx, T *dest, T cond, T value, int pe) {        \
        AMO_CTX(fn);                                                                               \
        return AS(T, kshmem_amo(fn, "dest", kc_, KOLO_AMO_CSWAP, sizeof(T), dest,                  \
                                bits(&value, sizeof(T)), bits(&cond, sizeof(T)), w_));             \
    }                                                                                              \
    static void cswap_nbi_##N(const char *fn, shmem_ctx_t ctx, T *fetch, T *dest, T cond, T value, \
                              int pe) {                                                            \
        AMO_CTX(fn);                                                                               \
        FETCH_ARG(fn);                                                                             \
        amo_nb(fn, "dest", kc_, KOLO_AMO_CSWAP, sizeof(T), fetch, dest, bits(&value, sizeof(T)),   \
               bits(&cond, sizeof(T)), w_);                                                        \
    }

/* the public routines: shmem_ctx_<N>_<name>(ctx, ...) and shmem_<N>_<name>(...) */
#define KSHMEM_UNPAREN(...) __VA_ARGS__
/* R: the return type; RET: `return` or nothing (void) */
#define AMO_FORMS_(R, RET, N, name, params, core, args)                                            \
    R shmem_ctx_##N##_##name(shmem_ctx_t ctx, KSHMEM_UNPAREN params) {                             \
        RET core("shmem_ctx_" #N "_" #name, ctx, KSHMEM_UNPAREN args);                             \
    }                                                                                              \
    R shmem_##N##_##name(KSHMEM_UNPAREN params) {                                                  \
        RET core("shmem_" #N "_" #name, SHMEM_CTX_DEFAULT, KSHMEM_UNPAREN args);                   \
    }
#define AMO_DEP_(R, RET, N, name, params, core, args)                                              \
    R shmem_##N##_##name(KSHMEM_UNPAREN params) {                                                  \
        RET core("shmem_" #N "_" #name, SHMEM_CTX_DEFAULT, KSHMEM_UNPAREN args);                   \
    }
#define AMO_FORMS_R(T, ...) AMO_FORMS_(T, return, __VA_ARGS__)
#define AMO_FORMS_V(...) AMO_FORMS_(void, , __VA_ARGS__)
/* deprecated names (default context only) */
#define AMO_DEP_R(T, ...) AMO_DEP_(T, return, __VA_ARGS__)
#define AMO_DEP_V(...) AMO_DEP_(void, , __VA_ARGS__)

#define KSHMEM_DEF_AMO_FSS(T, N)                                                                   \
    KSHMEM_AMO_CORES_FSS(T, N)                                                                     \
    AMO_FORMS_R(T, N, atomic_fetch, (const T *source, int pe), fetch_##N, (source, pe))              \
    AMO_FORMS_V(N, atomic_set, (T * dest, T value, int pe), set_##N, (dest, value, pe))        \
    AMO_FORMS_R(T, N, atomic_swap, (T * dest, T value, int pe), swap_##N, (dest, value, pe))         \
    AMO_FORMS_V(N, atomic_fetch_nbi, (T * fetch, const T *source, int pe), fetch_nbi_##N,      \
              (fetch, source, pe))                                                                 \
    AMO_FORMS_V(N, atomic_swap_nbi, (T * fetch, T * dest, T value, int pe), swap_nbi_##N,      \
              (fetch, dest, value, pe))                                                            \
    AMO_DEP_R(T, N, fetch, (const T *source, int pe), fetch_##N, (source, pe))                       \
    AMO_DEP_V(N, set, (T * dest, T value, int pe), set_##N, (dest, value, pe))                 \
    AMO_DEP_R(T, N, swap, (T * dest, T value, int pe), swap_##N, (dest, value, pe))

/* inc is add 1 under its own names */
#define KSHMEM_DEF_AMO_STD(T, N)                                                                   \
    KSHMEM_AMO_CORES_STD(T, N)                                                                     \
    KSHMEM_DEF_AMO_FSS(T, N)                                                                       \
    static T finc_##N(const char *fn, shmem_ctx_t ctx, T *dest, int pe) {                          \
        return fetch_add_##N(fn, ctx, dest, (T)1, pe);                                   \
    }                                                                                              \
    static void finc_nbi_##N(const char *fn, shmem_ctx_t ctx, T *fetch, T *dest, int pe) {         \
        fetch_add_nbi_##N(fn, ctx, fetch, dest, (T)1, pe);                                         \
    }                                                                                              \
    static void inc_##N(const char *fn, shmem_ctx_t ctx, T *dest, int pe) {                        \
        add_##N(fn, ctx, dest, (T)1, pe);                                                          \
    }                                                                                              \
    AMO_FORMS_R(T, N, atomic_compare_swap, (T * dest, T cond, T value, int pe), cswap_##N,           \
              (dest, cond, value, pe))                                                             \
    AMO_FORMS_V(N, atomic_compare_swap_nbi, (T * fetch, T * dest, T cond, T value, int pe),    \
              cswap_nbi_##N, (fetch, dest, cond, value, pe))                                       \
    AMO_FORMS_R(T, N, atomic_fetch_inc, (T * dest, int pe), finc_##N, (dest, pe))                    \
    AMO_FORMS_V(N, atomic_fetch_inc_nbi, (T * fetch, T * dest, int pe), finc_nbi_##N,          \
              (fetch, dest, pe))                                                                   \
    AMO_FORMS_V(N, atomic_inc, (T * dest, int pe), inc_##N, (dest, pe))                        \
    AMO_FORMS_R(T, N, atomic_fetch_add, (T * dest, T value, int pe), fetch_add_##N, (dest, value, pe)) \
    AMO_FORMS_V(N, atomic_fetch_add_nbi, (T * fetch, T * dest, T value, int pe),               \
              fetch_add_nbi_##N, (fetch, dest, value, pe))                                         \
    AMO_FORMS_V(N, atomic_add, (T * dest, T value, int pe), add_##N, (dest, value, pe))        \
    AMO_DEP_R(T, N, cswap, (T * dest, T cond, T value, int pe), cswap_##N, (dest, cond, value, pe))  \
    AMO_DEP_R(T, N, finc, (T * dest, int pe), finc_##N, (dest, pe))                                  \
    AMO_DEP_V(N, inc, (T * dest, int pe), inc_##N, (dest, pe))                                 \
    AMO_DEP_R(T, N, fadd, (T * dest, T value, int pe), fetch_add_##N, (dest, value, pe))             \
    AMO_DEP_V(N, add, (T * dest, T value, int pe), add_##N, (dest, value, pe))

#define KSHMEM_DEF_AMO_BIT_OP(T, N, NAME, F, A)                                                    \
    KSHMEM_AMO_CORES_OP(T, N, NAME, F, A)                                                          \
    AMO_FORMS_R(T, N, atomic_fetch_##NAME, (T * dest, T value, int pe), fetch_##NAME##_##N,          \
              (dest, value, pe))                                                                   \
    AMO_FORMS_V(N, atomic_fetch_##NAME##_nbi, (T * fetch, T * dest, T value, int pe),          \
              fetch_##NAME##_nbi_##N, (fetch, dest, value, pe))                                    \
    AMO_FORMS_V(N, atomic_##NAME, (T * dest, T value, int pe), NAME##_##N, (dest, value, pe))
#define KSHMEM_DEF_AMO_BIT(T, N)                                                                   \
    KSHMEM_DEF_AMO_BIT_OP(T, N, and, KOLO_AMO_FETCH_AND, KOLO_AMO_AND)                             \
    KSHMEM_DEF_AMO_BIT_OP(T, N, or, KOLO_AMO_FETCH_OR, KOLO_AMO_OR)                                \
    KSHMEM_DEF_AMO_BIT_OP(T, N, xor, KOLO_AMO_FETCH_XOR, KOLO_AMO_XOR)

KSHMEM_AMO_STD_TYPES(KSHMEM_DEF_AMO_STD)
KSHMEM_AMO_EXT_TYPES(KSHMEM_DEF_AMO_FSS)
KSHMEM_AMO_BIT_TYPES(KSHMEM_DEF_AMO_BIT)
