/* shmem_coll.c - libkolo_shmem: teams, contexts, collectives.
 *
 * A team is an active set: world PEs start + i * stride, i < size. Every
 * collective is built from puts, quiet and the barrier of shmem_sync.c:
 *   broadcast  sync; the root puts to every member; quiet; sync
 *   fcollect   sync; every member puts its block to every member; quiet; sync
 *   collect    as fcollect, after an exchange of the block sizes
 *   alltoall(s) sync; member i's block j goes to member j; quiet; sync
 *   reductions per chunk: sync; every member puts its chunk into slot `me` of
 *              every member's scratch; quiet; sync; each reduces locally in
 *              member order (the same result everywhere, floats included)
 * The opening sync makes sure nobody writes into a buffer (or the scratch)
 * that a member is still reading for an earlier collective. */
#define _GNU_SOURCE
#include "shmem_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int start, stride, size, my;
} set_t;

static int set_pe(const set_t *s, int i) { return s->start + i * s->stride; }

/* ---- teams ---------------------------------------------------------------------------- */
static void team_set(const char *fn, shmem_team_t team, set_t *s) {
    kshmem_check_init(fn);
    if (team == SHMEM_TEAM_INVALID)
        kshmem_fatal("%s: SHMEM_TEAM_INVALID", fn);
    if (team->my < 0)
        kshmem_fatal("%s: this PE is not a member of the team", fn);
    s->start = team->start;
    s->stride = team->stride;
    s->size = team->size;
    s->my = team->my;
}

void kshmem_team_set(const char *fn, shmem_team_t team, int *start, int *stride, int *size) {
    set_t s;
    team_set(fn, team, &s);
    *start = s.start;
    *stride = s.stride;
    *size = s.size;
}

static void active_set(const char *fn, int start, int log_stride, int size, set_t *s) {
    kshmem_check_init(fn);
    if (start < 0 || log_stride < 0 || log_stride > 30 || size < 1 ||
        start + (long)(size - 1) * (1L << log_stride) >= kshmem.npes)
        kshmem_fatal("%s: active set (start %d, log stride %d, size %d) outside the %d PEs", fn,
                     start, log_stride, size, kshmem.npes);
    s->start = start;
    s->stride = 1 << log_stride;
    s->size = size;
    if (kshmem.me < start || (kshmem.me - start) % s->stride || (kshmem.me - start) / s->stride >= size)
        kshmem_fatal("%s: this PE is not in the active set (start %d, log stride %d, size %d)", fn,
                     start, log_stride, size);
    s->my = (kshmem.me - start) / s->stride;
}

int shmem_team_my_pe(shmem_team_t team) {
    if (team == SHMEM_TEAM_INVALID || !shmem_initialized())
        return -1;
    return team->my;
}

int shmem_team_n_pes(shmem_team_t team) {
    if (team == SHMEM_TEAM_INVALID || !shmem_initialized())
        return -1;
    return team->size;
}

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config) {
    if (team == SHMEM_TEAM_INVALID || !config)
        return -1;
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
        config->num_contexts = team->config.num_contexts;
    return 0;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team) {
    int w;
    if (src_team == SHMEM_TEAM_INVALID || dest_team == SHMEM_TEAM_INVALID || src_pe < 0 ||
        src_pe >= src_team->size)
        return -1;
    w = src_team->start + src_pe * src_team->stride;
    if (w < dest_team->start)
        return -1;
    if (dest_team->stride == 0)
        return w == dest_team->start ? 0 : -1;
    if ((w - dest_team->start) % dest_team->stride || (w - dest_team->start) / dest_team->stride >= dest_team->size)
        return -1;
    return (w - dest_team->start) / dest_team->stride;
}

static shmem_team_t team_new(int start, int stride, int size, const shmem_team_config_t *config,
                             long mask) {
    struct kshmem_team *t;
    int my = -1;
    if (kshmem.me >= start && (stride ? (kshmem.me - start) % stride == 0 : kshmem.me == start)) {
        int i = stride ? (kshmem.me - start) / stride : 0;
        if (i < size)
            my = i;
    }
    if (my < 0)
        return SHMEM_TEAM_INVALID;
    t = (struct kshmem_team *)calloc(1, sizeof *t);
    if (!t)
        kshmem_fatal("shmem_team_split: out of memory");
    t->start = start;
    t->stride = stride ? stride : 1;
    t->size = size;
    t->my = my;
    if (config && (mask & SHMEM_TEAM_NUM_CONTEXTS))
        t->config = *config;
    return t;
}

int shmem_team_split_strided(shmem_team_t parent, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team) {
    set_t p;
    if (!new_team)
        kshmem_fatal("shmem_team_split_strided: NULL new_team");
    *new_team = SHMEM_TEAM_INVALID;
    if (parent == SHMEM_TEAM_INVALID)
        return -1;
    team_set("shmem_team_split_strided", parent, &p);
    if (size < 1 || start < 0 || start >= p.size || stride < 0 || (stride == 0 && size != 1) ||
        start + (long)(size - 1) * stride >= p.size)
        return -1;
    *new_team = team_new(p.start + start * p.stride, stride * p.stride, size, config, config_mask);
    kshmem_sync_set(p.start, p.stride, p.size);
    return 0;
}

int shmem_team_split_2d(shmem_team_t parent, int xrange, const shmem_team_config_t *xaxis_config,
                        long xaxis_mask, shmem_team_t *xaxis_team,
                        const shmem_team_config_t *yaxis_config, long yaxis_mask,
                        shmem_team_t *yaxis_team) {
    set_t p;
    int x0, y0;
    if (!xaxis_team || !yaxis_team)
        kshmem_fatal("shmem_team_split_2d: NULL team pointer");
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    if (parent == SHMEM_TEAM_INVALID || xrange < 1)
        return -1;
    team_set("shmem_team_split_2d", parent, &p);
    if (xrange > p.size)
        xrange = p.size;
    x0 = p.my / xrange * xrange; /* my row: consecutive parent PEs */
    y0 = p.my % xrange;          /* my column: every xrange-th */
    *xaxis_team = team_new(p.start + x0 * p.stride, p.stride,
                           p.size - x0 < xrange ? p.size - x0 : xrange, xaxis_config, xaxis_mask);
    *yaxis_team = team_new(p.start + y0 * p.stride, xrange * p.stride,
                           (p.size - y0 + xrange - 1) / xrange, yaxis_config, yaxis_mask);
    kshmem_sync_set(p.start, p.stride, p.size);
    return 0;
}

void shmem_team_destroy(shmem_team_t team) {
    if (team == SHMEM_TEAM_INVALID || team->predefined)
        return;
    free(team);
}

/* ---- contexts: every context shares the PE's one NI context; quiet and fence
 * of one context therefore also cover the others (stronger, still correct) -- */
int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx) {
    struct kshmem_ctx *c;
    (void)options;
    if (!ctx)
        return -1;
    *ctx = SHMEM_CTX_INVALID;
    if (team == SHMEM_TEAM_INVALID || team->my < 0 || !shmem_initialized())
        return -1;
    c = (struct kshmem_ctx *)calloc(1, sizeof *c);
    if (!c)
        return -1;
    c->team = team;
    *ctx = c;
    return 0;
}

int shmem_ctx_create(long options, shmem_ctx_t *ctx) {
    return shmem_team_create_ctx(SHMEM_TEAM_WORLD, options, ctx);
}

void shmem_ctx_destroy(shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_INVALID || ctx->predefined)
        return;
    kshmem_quiet();
    free(ctx);
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team) {
    if (!team)
        return -1;
    if (ctx == SHMEM_CTX_INVALID) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    *team = ctx->team;
    return 0;
}

/* ---- data movement cores (bytes) -------------------------------------------------- */
static void sync_s(const set_t *s) { kshmem_sync_set(s->start, s->stride, s->size); }

/* put to world PE pe, non-blocking (memmove to this PE) */
static void put_to(void *dest, const void *src, size_t n, int pe) {
    if (n)
        kshmem_put(SHMEM_CTX_DEFAULT, dest, src, n, pe, 1);
}

static void broadcast_core(const set_t *s, void *dest, const void *src, size_t n, int root,
                           int root_too, const char *fn) {
    int i;
    if (root < 0 || root >= s->size)
        kshmem_fatal("%s: root %d outside the team of %d", fn, root, s->size);
    sync_s(s);
    if (s->my == root) {
        for (i = 0; i < s->size; i++)
            if (i != root)
                put_to(dest, src, n, set_pe(s, i));
        if (root_too && dest != src && n)
            memmove(dest, src, n);
        kshmem_quiet();
    }
    sync_s(s);
}

static void fcollect_core(const set_t *s, void *dest, const void *src, size_t n) {
    int i;
    sync_s(s);
    for (i = 0; i < s->size; i++)
        put_to((uint8_t *)dest + (size_t)s->my * n, src, n, set_pe(s, i));
    kshmem_quiet();
    sync_s(s);
}

static void collect_core(const set_t *s, void *dest, const void *src, size_t n) {
    int i;
    uint64_t mine = n, off = 0;
    sync_s(s);
    for (i = 0; i < s->size; i++)
        kshmem_put(SHMEM_CTX_DEFAULT, &kshmem.coll_sizes[s->my], &mine, 8, set_pe(s, i), 0);
    kshmem_quiet();
    sync_s(s);
    for (i = 0; i < s->my; i++)
        off += __atomic_load_n(&kshmem.coll_sizes[i], __ATOMIC_ACQUIRE);
    for (i = 0; i < s->size; i++)
        put_to((uint8_t *)dest + off, src, n, set_pe(s, i));
    kshmem_quiet();
    sync_s(s);
}

static void alltoall_core(const set_t *s, void *dest, const void *src, size_t n) {
    int i;
    sync_s(s);
    for (i = 0; i < s->size; i++)
        put_to((uint8_t *)dest + (size_t)s->my * n, (const uint8_t *)src + (size_t)i * n, n,
               set_pe(s, i));
    kshmem_quiet();
    sync_s(s);
}

static void alltoalls_core(const set_t *s, void *dest, const void *src, ptrdiff_t dst,
                           ptrdiff_t sst, size_t nelems, size_t es, const char *fn) {
    int i;
    size_t k;
    if (dst < 1 || sst < 1)
        kshmem_fatal("%s: strides must be >= 1", fn);
    sync_s(s);
    for (i = 0; i < s->size; i++)
        for (k = 0; k < nelems; k++)
            put_to((uint8_t *)dest + ((size_t)s->my * nelems + k) * (size_t)dst * es,
                   (const uint8_t *)src + ((size_t)i * nelems + k) * (size_t)sst * es, es,
                   set_pe(s, i));
    kshmem_quiet();
    sync_s(s);
}

typedef void (*red_fn)(void *acc, const void *x, size_t n);

static void reduce_core(const set_t *s, void *dest, const void *src, size_t nreduce, size_t es,
                        red_fn op, const char *fn) {
    size_t chunk = kshmem.scratch_len / ((size_t)s->size * es), off;
    uint8_t *acc;
    int i;
    if (!nreduce)
        return;
    if (!chunk)
        kshmem_fatal("%s: team too large for the collective scratch", fn);
    acc = (uint8_t *)malloc((nreduce < chunk ? nreduce : chunk) * es);
    if (!acc)
        kshmem_fatal("%s: out of memory", fn);
    for (off = 0; off < nreduce; off += chunk) {
        size_t n = nreduce - off < chunk ? nreduce - off : chunk, nb = n * es;
        sync_s(s);
        for (i = 0; i < s->size; i++)
            put_to(kshmem.scratch + (size_t)s->my * nb, (const uint8_t *)src + off * es, nb,
                   set_pe(s, i));
        kshmem_quiet();
        sync_s(s);
        memcpy(acc, kshmem.scratch, nb);
        for (i = 1; i < s->size; i++)
            op(acc, kshmem.scratch + (size_t)i * nb, n);
        memcpy((uint8_t *)dest + off * es, acc, nb);
    }
    free(acc);
}

/* ---- team collectives ---------------------------------------------------------------- */
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root) {
    set_t s;
    team_set("shmem_broadcastmem", team, &s);
    broadcast_core(&s, dest, source, nelems, PE_root, 1, "shmem_broadcastmem");
    return 0;
}
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems) {
    set_t s;
    team_set("shmem_collectmem", team, &s);
    collect_core(&s, dest, source, nelems);
    return 0;
}
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems) {
    set_t s;
    team_set("shmem_fcollectmem", team, &s);
    fcollect_core(&s, dest, source, nelems);
    return 0;
}
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems) {
    set_t s;
    team_set("shmem_alltoallmem", team, &s);
    alltoall_core(&s, dest, source, nelems);
    return 0;
}
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems) {
    set_t s;
    team_set("shmem_alltoallsmem", team, &s);
    alltoalls_core(&s, dest, source, dst, sst, nelems, 1, "shmem_alltoallsmem");
    return 0;
}

#define KSHMEM_DEF_COLL(T, N)                                                                      \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,          \
                              int PE_root) {                                                       \
        set_t s;                                                                                   \
        team_set("shmem_" #N "_broadcast", team, &s);                                              \
        broadcast_core(&s, dest, source, nelems * sizeof(T), PE_root, 1, "shmem_" #N "_broadcast"); \
        return 0;                                                                                  \
    }                                                                                              \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems) {          \
        set_t s;                                                                                   \
        team_set("shmem_" #N "_collect", team, &s);                                                \
        collect_core(&s, dest, source, nelems * sizeof(T));                                        \
        return 0;                                                                                  \
    }                                                                                              \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems) {         \
        set_t s;                                                                                   \
        team_set("shmem_" #N "_fcollect", team, &s);                                               \
        fcollect_core(&s, dest, source, nelems * sizeof(T));                                       \
        return 0;                                                                                  \
    }                                                                                              \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems) {         \
        set_t s;                                                                                   \
        team_set("shmem_" #N "_alltoall", team, &s);                                               \
        alltoall_core(&s, dest, source, nelems * sizeof(T));                                       \
        return 0;                                                                                  \
    }                                                                                              \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,          \
                              ptrdiff_t sst, size_t nelems) {                                      \
        set_t s;                                                                                   \
        team_set("shmem_" #N "_alltoalls", team, &s);                                              \
        alltoalls_core(&s, dest, source, dst, sst, nelems, sizeof(T), "shmem_" #N "_alltoalls");   \
        return 0;                                                                                  \
    }
KSHMEM_RMA_TYPES(KSHMEM_DEF_COLL)

/* ---- active-set (deprecated) collectives ----------------------------------------------------- */
#define KSHMEM_DEF_ASET(B)                                                                         \
    void shmem_broadcast##B(void *dest, const void *source, size_t nelems, int PE_root,            \
                            int PE_start, int logPE_stride, int PE_size, long *pSync) {            \
        set_t s;                                                                                   \
        (void)pSync;                                                                               \
        active_set("shmem_broadcast" #B, PE_start, logPE_stride, PE_size, &s);                     \
        broadcast_core(&s, dest, source, nelems * (B / 8), PE_root, 0, "shmem_broadcast" #B);      \
    }                                                                                              \
    void shmem_collect##B(void *dest, const void *source, size_t nelems, int PE_start,             \
                          int logPE_stride, int PE_size, long *pSync) {                            \
        set_t s;                                                                                   \
        (void)pSync;                                                                               \
        active_set("shmem_collect" #B, PE_start, logPE_stride, PE_size, &s);                       \
        collect_core(&s, dest, source, nelems * (B / 8));                                          \
    }                                                                                              \
    void shmem_fcollect##B(void *dest, const void *source, size_t nelems, int PE_start,            \
                           int logPE_stride, int PE_size, long *pSync) {                           \
        set_t s;                                                                                   \
        (void)pSync;                                                                               \
        active_set("shmem_fcollect" #B, PE_start, logPE_stride, PE_size, &s);                      \
        fcollect_core(&s, dest, source, nelems * (B / 8));                                         \
    }                                                                                              \
    void shmem_alltoall##B(void *dest, const void *source, size_t nelems, int PE_start,            \
                           int logPE_stride, int PE_size, long *pSync) {                           \
        set_t s;                                                                                   \
        (void)pSync;                                                                               \
        active_set("shmem_alltoall" #B, PE_start, logPE_stride, PE_size, &s);                      \
        alltoall_core(&s, dest, source, nelems * (B / 8));                                         \
    }
KSHMEM_DEF_ASET(32)
KSHMEM_DEF_ASET(64)

/* ---- reductions ------------------------------------------------------------------------------ */
/* integer sum/prod wrap (no signed overflow), floats as they are */
#define OP_SUM_I(a, b) (void)__builtin_add_overflow(a, b, &(a))
#define OP_PROD_I(a, b) (void)__builtin_mul_overflow(a, b, &(a))
#define OP_SUM_F(a, b) ((a) = (a) + (b))
#define OP_PROD_F(a, b) ((a) = (a) * (b))
#define OP_MAX(a, b) ((a) = (b) > (a) ? (b) : (a))
#define OP_MIN(a, b) ((a) = (b) < (a) ? (b) : (a))
#define OP_AND(a, b) ((a) = (a) & (b))
#define OP_OR(a, b) ((a) = (a) | (b))
#define OP_XOR(a, b) ((a) = (a) ^ (b))

#define KSHMEM_RED_FN(T, N, OPN, OPM)                                                              \
    static void red_##N##_##OPN(void *acc, const void *x, size_t n) {                              \
        T *a = (T *)acc;                                                                           \
        const T *b = (const T *)x;                                                                 \
        size_t i;                                                                                  \
        for (i = 0; i < n; i++)                                                                    \
            OPM(a[i], b[i]);                                                                       \
    }

#define KSHMEM_DEF_RED(T, N, OPN)                                                                  \
    int shmem_##N##_##OPN##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce) {  \
        set_t s;                                                                                   \
        team_set("shmem_" #N "_" #OPN "_reduce", team, &s);                                        \
        reduce_core(&s, dest, source, nreduce, sizeof(T), red_##N##_##OPN,                         \
                    "shmem_" #N "_" #OPN "_reduce");                                               \
        return 0;                                                                                  \
    }

/* every (type, op) pair the spec's tables have, with the kind of arithmetic */
#define RED_INT_TYPES(X)                                                                           \
    X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long)                  \
    X(long long, longlong) X(ptrdiff_t, ptrdiff) X(unsigned char, uchar)                           \
    X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)                        \
    X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16) X(int32_t, int32)           \
    X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32)                    \
    X(uint64_t, uint64) X(size_t, size)
#define RED_FLOAT_TYPES(X) X(float, float) X(double, double) X(long double, longdouble)

#define ARITH_I(T, N)                                                                              \
    KSHMEM_RED_FN(T, N, sum, OP_SUM_I)                                                             \
    KSHMEM_RED_FN(T, N, prod, OP_PROD_I)                                                           \
    KSHMEM_RED_FN(T, N, max, OP_MAX)                                                               \
    KSHMEM_RED_FN(T, N, min, OP_MIN)                                                               \
    KSHMEM_DEF_RED(T, N, sum) KSHMEM_DEF_RED(T, N, prod) KSHMEM_DEF_RED(T, N, max)                 \
    KSHMEM_DEF_RED(T, N, min)
#define ARITH_F(T, N)                                                                              \
    KSHMEM_RED_FN(T, N, sum, OP_SUM_F)                                                             \
    KSHMEM_RED_FN(T, N, prod, OP_PROD_F)                                                           \
    KSHMEM_RED_FN(T, N, max, OP_MAX)                                                               \
    KSHMEM_RED_FN(T, N, min, OP_MIN)                                                               \
    KSHMEM_DEF_RED(T, N, sum) KSHMEM_DEF_RED(T, N, prod) KSHMEM_DEF_RED(T, N, max)                 \
    KSHMEM_DEF_RED(T, N, min)
RED_INT_TYPES(ARITH_I)
RED_FLOAT_TYPES(ARITH_F)

/* bitwise ops: the spec's bit types are all integer types; char/schar/short/int/
 * long/longlong need and/or/xor functions too for the *_to_all forms */
#define BIT_FNS(T, N)                                                                              \
    KSHMEM_RED_FN(T, N, and, OP_AND)                                                               \
    KSHMEM_RED_FN(T, N, or, OP_OR)                                                                 \
    KSHMEM_RED_FN(T, N, xor, OP_XOR)
#define BIT_DEFS(T, N) KSHMEM_DEF_RED(T, N, and) KSHMEM_DEF_RED(T, N, or) KSHMEM_DEF_RED(T, N, xor)
KSHMEM_REDUCE_BIT_TYPES(BIT_FNS)
KSHMEM_REDUCE_BIT_TYPES(BIT_DEFS)
BIT_FNS(short, short)
BIT_FNS(int, int)
BIT_FNS(long, long)
BIT_FNS(long long, longlong)

#define KSHMEM_DEF_TOALL(T, N, OPN)                                                                \
    void shmem_##N##_##OPN##_to_all(T *dest, const T *source, int nreduce, int PE_start,          \
                                    int logPE_stride, int PE_size, T *pWrk, long *pSync) {         \
        set_t s;                                                                                   \
        (void)pWrk;                                                                                \
        (void)pSync;                                                                               \
        active_set("shmem_" #N "_" #OPN "_to_all", PE_start, logPE_stride, PE_size, &s);           \
        if (nreduce < 0)                                                                           \
            kshmem_fatal("shmem_" #N "_" #OPN "_to_all: nreduce %d < 0", nreduce);                 \
        reduce_core(&s, dest, source, (size_t)nreduce, sizeof(T), red_##N##_##OPN,                 \
                    "shmem_" #N "_" #OPN "_to_all");                                               \
    }
#define TOALL_BIT(T, N)                                                                            \
    KSHMEM_DEF_TOALL(T, N, and) KSHMEM_DEF_TOALL(T, N, or) KSHMEM_DEF_TOALL(T, N, xor)
#define TOALL_ARITH(T, N)                                                                          \
    KSHMEM_DEF_TOALL(T, N, max)                                                                    \
    KSHMEM_DEF_TOALL(T, N, min) KSHMEM_DEF_TOALL(T, N, sum) KSHMEM_DEF_TOALL(T, N, prod)
KSHMEM_TOALL_BIT_TYPES(TOALL_BIT)
KSHMEM_TOALL_ARITH_TYPES(TOALL_ARITH)
