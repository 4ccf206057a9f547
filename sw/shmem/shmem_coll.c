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
static void team_check(const char *fn, shmem_team_t team) {
    kshmem_check_init(fn);
    if (team == SHMEM_TEAM_INVALID)
        kshmem_bad_arg(fn, "team", "is SHMEM_TEAM_INVALID");
    if (team->magic != KSHMEM_TEAM_MAGIC)
        kshmem_bad_arg(fn, "team", "= %p is not a live team (destroyed?)", (void *)team);
}

static void team_set(const char *fn, shmem_team_t team, set_t *s) {
    team_check(fn, team);
    if (team->my < 0)
        kshmem_bad_arg(fn, "team", "= %p: this PE is not a member", (void *)team);
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

void kshmem_active_set(const char *fn, int start, int log_stride, int size, int *stride,
                       int *my) {
    kshmem_check_init(fn);
    if (start < 0 || start >= kshmem.npes)
        kshmem_bad_arg(fn, "PE_start", "= %d is outside 0..%d", start, kshmem.npes - 1);
    if (log_stride < 0 || log_stride > 30)
        kshmem_bad_arg(fn, "logPE_stride", "= %d is outside 0..30", log_stride);
    if (size < 1 || start + (long)(size - 1) * (1L << log_stride) >= kshmem.npes)
        kshmem_bad_arg(fn, "PE_size", "= %d: the active set (start %d, stride %d) does not fit in "
                       "the %d PEs",
                       size, start, 1 << log_stride, kshmem.npes);
    *stride = 1 << log_stride;
    if (kshmem.me < start || (kshmem.me - start) % *stride || (kshmem.me - start) / *stride >= size)
        kshmem_bad_arg(fn, "PE_start", "= %d, logPE_stride = %d, PE_size = %d: this PE (%d) is not "
                       "in the active set",
                       start, log_stride, size, kshmem.me);
    *my = (kshmem.me - start) / *stride;
}

static void active_set(const char *fn, int start, int log_stride, int size, set_t *s) {
    kshmem_active_set(fn, start, log_stride, size, &s->stride, &s->my);
    s->start = start;
    s->size = size;
}

static int team_live(shmem_team_t team) {
    return team != SHMEM_TEAM_INVALID && team->magic == KSHMEM_TEAM_MAGIC && shmem_initialized();
}

int shmem_team_my_pe(shmem_team_t team) { return team_live(team) ? team->my : -1; }

int shmem_team_n_pes(shmem_team_t team) { return team_live(team) ? team->size : -1; }

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config) {
    if (!team_live(team) || !config)
        return -1;
    if (config_mask & SHMEM_TEAM_NUM_CONTEXTS)
        config->num_contexts = team->config.num_contexts;
    return 0;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team) {
    int w;
    if (!team_live(src_team) || !team_live(dest_team) || src_pe < 0 || src_pe >= src_team->size)
        return -1;
    w = src_team->start + src_pe * src_team->stride;
    if (w < dest_team->start)
        return -1;
    if ((w - dest_team->start) % dest_team->stride ||
        (w - dest_team->start) / dest_team->stride >= dest_team->size)
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
    t->magic = KSHMEM_TEAM_MAGIC;
    t->start = start;
    t->stride = stride ? stride : 1;
    t->size = size;
    t->my = my;
    if (config && (mask & SHMEM_TEAM_NUM_CONTEXTS))
        t->config = *config;
    pthread_mutex_lock(&kshmem.lock);
    t->next = kshmem.teams;
    kshmem.teams = t;
    pthread_mutex_unlock(&kshmem.lock);
    return t;
}

int shmem_team_split_strided(shmem_team_t parent, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask,
                             shmem_team_t *new_team) {
    set_t p;
    if (!new_team)
        kshmem_bad_arg("shmem_team_split_strided", "new_team", "is NULL");
    *new_team = SHMEM_TEAM_INVALID;
    if (parent == SHMEM_TEAM_INVALID)
        return -1;
    team_set("shmem_team_split_strided", parent, &p);
    if (size < 1 || start < 0 || start >= p.size || stride < 0 || (stride == 0 && size != 1) ||
        start + (long)(size - 1) * stride >= p.size)
        return -1;
    pthread_mutex_lock(&kshmem.coll_lock);
    *new_team = team_new(p.start + start * p.stride, stride * p.stride, size, config, config_mask);
    kshmem_sync_set(p.start, p.stride, p.size);
    pthread_mutex_unlock(&kshmem.coll_lock);
    return 0;
}

int shmem_team_split_2d(shmem_team_t parent, int xrange, const shmem_team_config_t *xaxis_config,
                        long xaxis_mask, shmem_team_t *xaxis_team,
                        const shmem_team_config_t *yaxis_config, long yaxis_mask,
                        shmem_team_t *yaxis_team) {
    set_t p;
    int x0, y0;
    if (!xaxis_team)
        kshmem_bad_arg("shmem_team_split_2d", "xaxis_team", "is NULL");
    if (!yaxis_team)
        kshmem_bad_arg("shmem_team_split_2d", "yaxis_team", "is NULL");
    *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
    if (parent == SHMEM_TEAM_INVALID || xrange < 1)
        return -1;
    team_set("shmem_team_split_2d", parent, &p);
    if (xrange > p.size)
        xrange = p.size;
    x0 = p.my / xrange * xrange; /* my row: consecutive parent PEs */
    y0 = p.my % xrange;          /* my column: every xrange-th */
    pthread_mutex_lock(&kshmem.coll_lock);
    *xaxis_team = team_new(p.start + x0 * p.stride, p.stride,
                           p.size - x0 < xrange ? p.size - x0 : xrange, xaxis_config, xaxis_mask);
    *yaxis_team = team_new(p.start + y0 * p.stride, xrange * p.stride,
                           (p.size - y0 + xrange - 1) / xrange, yaxis_config, yaxis_mask);
    kshmem_sync_set(p.start, p.stride, p.size);
    pthread_mutex_unlock(&kshmem.coll_lock);
    return 0;
}

/* destroyed teams are kept, marked, so that a stale handle is an error, not a crash */
void shmem_team_destroy(shmem_team_t team) {
    if (team == SHMEM_TEAM_INVALID)
        return;
    team_check("shmem_team_destroy", team);
    if (team->predefined)
        kshmem_bad_arg("shmem_team_destroy", "team", "is a predefined team (SHMEM_TEAM_WORLD or "
                       "SHMEM_TEAM_SHARED)");
    team->magic = KSHMEM_DEAD_MAGIC;
}

/* ---- contexts ---------------------------------------------------------------------------
 * A context gets an NI context of its own while the NI has free ones (16 per
 * NI, one is the default context's); after that it shares the one with the
 * fewest users. libkolo locks each NI context, so shared use from several
 * threads is safe; quiet and fence on a shared one also cover the others
 * (stronger than required, never wrong). */
static kshmem_nic *nic_get(void) {
    kshmem_nic *best = NULL;
    unsigned i;
    if (kshmem.nnic < KSHMEM_MAX_NIC && kshmem.nnic < kolo_dev_num_ctx(kshmem.dev)) {
        kolo_ctx *kc;
        kolo_ctx_opts o = {-1, 0, 0, 0};
        int rc;
        /* the next NI context after those open (the default one may be any index) */
        for (o.index = 0; o.index < (int)kolo_dev_num_ctx(kshmem.dev); o.index++) {
            for (i = 0; i < kshmem.nnic && kolo_ctx_index(kshmem.nic[i].kc) != (unsigned)o.index; i++)
                ;
            if (i == kshmem.nnic) {
                rc = kolo_ctx_open(kshmem.dev, &o, &kc);
                if (!rc) {
                    kshmem.nic[kshmem.nnic].kc = kc;
                    kshmem.nic[kshmem.nnic].users = 1;
                    return &kshmem.nic[kshmem.nnic++];
                }
                if (rc != KOLO_E_BUSY) /* taken by someone else: try the next */
                    break;
            }
        }
    }
    for (i = 1; i < kshmem.nnic; i++) /* share: the least used of ours (not the default) */
        if (!best || kshmem.nic[i].users < best->users)
            best = &kshmem.nic[i];
    if (!best)
        best = &kshmem.nic[0];
    best->users++;
    return best;
}

struct kshmem_ctx *kshmem_ctx_get(const char *fn, shmem_ctx_t ctx) {
    kshmem_check_init(fn);
    if (ctx == SHMEM_CTX_INVALID)
        kshmem_bad_arg(fn, "ctx", "is SHMEM_CTX_INVALID");
    if (ctx->magic != KSHMEM_CTX_MAGIC)
        kshmem_bad_arg(fn, "ctx", "= %p is not a live context (destroyed?)", (void *)ctx);
    return ctx;
}

int kshmem_ctx_pe(const char *fn, const struct kshmem_ctx *c, int pe) {
    shmem_team_t t = c->team;
    if (t == SHMEM_TEAM_WORLD) {
        kshmem_check_pe(fn, pe);
        return pe;
    }
    if (t->magic != KSHMEM_TEAM_MAGIC)
        kshmem_bad_arg(fn, "ctx", "= %p belongs to a team that was destroyed", (const void *)c);
    if (pe < 0 || pe >= t->size)
        kshmem_bad_arg(fn, "pe", "= %d is outside 0..%d (the context's team has %d PEs)", pe,
                       t->size - 1, t->size);
    return t->start + pe * t->stride;
}

int shmem_team_create_ctx(shmem_team_t team, long options, shmem_ctx_t *ctx) {
    struct kshmem_ctx *c;
    if (!ctx)
        kshmem_bad_arg("shmem_team_create_ctx", "ctx", "is NULL");
    *ctx = SHMEM_CTX_INVALID;
    if (!team_live(team) || team->my < 0)
        return -1;
    if (options & ~(SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE))
        kshmem_bad_arg("shmem_team_create_ctx", "options", "= %#lx has unknown bits", options);
    c = (struct kshmem_ctx *)calloc(1, sizeof *c);
    if (!c)
        return -1;
    c->magic = KSHMEM_CTX_MAGIC;
    c->team = team;
    c->options = options;
    pthread_mutex_lock(&kshmem.lock);
    c->nic = nic_get();
    c->next = kshmem.ctxs;
    kshmem.ctxs = c;
    pthread_mutex_unlock(&kshmem.lock);
    *ctx = c;
    return 0;
}

int shmem_ctx_create(long options, shmem_ctx_t *ctx) {
    if (!ctx)
        kshmem_bad_arg("shmem_ctx_create", "ctx", "is NULL");
    if (options & ~(SHMEM_CTX_PRIVATE | SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE))
        kshmem_bad_arg("shmem_ctx_create", "options", "= %#lx has unknown bits", options);
    return shmem_team_create_ctx(SHMEM_TEAM_WORLD, options, ctx);
}

/* quiet, then the handle is dead (kept, marked: a stale handle is an error);
 * its NI context stays open for the next context */
void shmem_ctx_destroy(shmem_ctx_t ctx) {
    if (ctx == SHMEM_CTX_INVALID)
        return;
    kshmem_ctx_get("shmem_ctx_destroy", ctx);
    if (ctx->predefined)
        kshmem_bad_arg("shmem_ctx_destroy", "ctx", "is SHMEM_CTX_DEFAULT, which cannot be destroyed");
    kshmem_quiet("shmem_ctx_destroy", ctx->nic->kc);
    pthread_mutex_lock(&kshmem.lock);
    ctx->nic->users--;
    ctx->magic = KSHMEM_DEAD_MAGIC;
    pthread_mutex_unlock(&kshmem.lock);
}

int shmem_ctx_get_team(shmem_ctx_t ctx, shmem_team_t *team) {
    if (!team)
        kshmem_bad_arg("shmem_ctx_get_team", "team", "is NULL");
    if (ctx == SHMEM_CTX_INVALID || ctx->magic != KSHMEM_CTX_MAGIC) {
        *team = SHMEM_TEAM_INVALID;
        return -1;
    }
    *team = ctx->team;
    return 0;
}

/* ---- data movement cores (bytes; the caller holds coll_lock) ------------------------------- */
static void sync_s(const set_t *s) { kshmem_sync_set(s->start, s->stride, s->size); }

/* put to world PE pe, non-blocking (memmove to this PE) */
static void put_to(const char *fn, void *dest, const void *src, size_t n, int pe) {
    if (n)
        kshmem_put_bytes(fn, kshmem.ctx, dest, src, n, pe, 1);
}

static void check_src(const char *fn, const void *src, size_t n) {
    if (n && !src)
        kshmem_bad_arg(fn, "source", "is NULL");
}

static void check_dest(const char *fn, const void *dest, size_t n) {
    if (n && !kshmem_is_symmetric(dest, n))
        kshmem_bad_arg(fn, "dest", "= %p (%zu bytes) is not symmetric", dest, n);
}

static void broadcast_core(const char *fn, const set_t *s, void *dest, const void *src, size_t n,
                           int root, int root_too) {
    int i;
    if (root < 0 || root >= s->size)
        kshmem_bad_arg(fn, "PE_root", "= %d is outside 0..%d (the team has %d PEs)", root,
                       s->size - 1, s->size);
    if (s->my == root)
        check_src(fn, src, n);
    check_dest(fn, dest, n);
    sync_s(s);
    if (s->my == root) {
        for (i = 0; i < s->size; i++)
            if (i != root)
                put_to(fn, dest, src, n, set_pe(s, i));
        if (root_too && dest != src && n)
            memmove(dest, src, n);
        kshmem_quiet(fn, NULL);
    }
    sync_s(s);
}

static void fcollect_core(const char *fn, const set_t *s, void *dest, const void *src, size_t n) {
    int i;
    check_src(fn, src, n);
    check_dest(fn, dest, n * (size_t)s->size);
    sync_s(s);
    for (i = 0; i < s->size; i++)
        put_to(fn, (uint8_t *)dest + (size_t)s->my * n, src, n, set_pe(s, i));
    kshmem_quiet(fn, NULL);
    sync_s(s);
}

static void collect_core(const char *fn, const set_t *s, void *dest, const void *src, size_t n) {
    int i;
    uint64_t mine = n, off = 0, all = 0;
    check_src(fn, src, n);
    sync_s(s);
    for (i = 0; i < s->size; i++)
        kshmem_put_bytes(fn, kshmem.ctx, &kshmem.coll_sizes[s->my], &mine, 8, set_pe(s, i), 0);
    kshmem_quiet(fn, NULL);
    sync_s(s);
    for (i = 0; i < s->size; i++) {
        uint64_t k = __atomic_load_n(&kshmem.coll_sizes[i], __ATOMIC_ACQUIRE);
        if (i < s->my)
            off += k;
        all += k;
    }
    check_dest(fn, dest, all);
    for (i = 0; i < s->size; i++)
        put_to(fn, (uint8_t *)dest + off, src, n, set_pe(s, i));
    kshmem_quiet(fn, NULL);
    sync_s(s);
}

static void alltoall_core(const char *fn, const set_t *s, void *dest, const void *src, size_t n) {
    int i;
    check_src(fn, src, n);
    check_dest(fn, dest, n * (size_t)s->size);
    sync_s(s);
    for (i = 0; i < s->size; i++)
        put_to(fn, (uint8_t *)dest + (size_t)s->my * n, (const uint8_t *)src + (size_t)i * n, n,
               set_pe(s, i));
    kshmem_quiet(fn, NULL);
    sync_s(s);
}

static void alltoalls_core(const char *fn, const set_t *s, void *dest, const void *src,
                           ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t es) {
    int i;
    size_t k;
    if (dst < 1)
        kshmem_bad_arg(fn, "dst", "= %td: strides are at least 1", dst);
    if (sst < 1)
        kshmem_bad_arg(fn, "sst", "= %td: strides are at least 1", sst);
    check_src(fn, src, nelems);
    sync_s(s);
    for (i = 0; i < s->size; i++)
        for (k = 0; k < nelems; k++)
            put_to(fn, (uint8_t *)dest + ((size_t)s->my * nelems + k) * (size_t)dst * es,
                   (const uint8_t *)src + ((size_t)i * nelems + k) * (size_t)sst * es, es,
                   set_pe(s, i));
    kshmem_quiet(fn, NULL);
    sync_s(s);
}

typedef void (*red_fn)(void *acc, const void *x, size_t n);

static void reduce_core(const char *fn, const set_t *s, void *dest, const void *src,
                        size_t nreduce, size_t es, red_fn op) {
    size_t chunk = kshmem.scratch_len / ((size_t)s->size * es), off;
    uint8_t *acc;
    int i;
    if (!nreduce)
        return;
    check_src(fn, src, nreduce);
    check_dest(fn, dest, kshmem_bytes(fn, nreduce, es));
    if (!chunk)
        kshmem_fatal("%s: team too large for the collective scratch", fn);
    acc = (uint8_t *)malloc((nreduce < chunk ? nreduce : chunk) * es);
    if (!acc)
        kshmem_fatal("%s: out of memory", fn);
    for (off = 0; off < nreduce; off += chunk) {
        size_t n = nreduce - off < chunk ? nreduce - off : chunk, nb = n * es;
        sync_s(s);
        for (i = 0; i < s->size; i++)
            put_to(fn, kshmem.scratch + (size_t)s->my * nb, (const uint8_t *)src + off * es, nb,
                   set_pe(s, i));
        kshmem_quiet(fn, NULL);
        sync_s(s);
        memcpy(acc, kshmem.scratch, nb);
        for (i = 1; i < s->size; i++)
            op(acc, kshmem.scratch + (size_t)i * nb, n);
        memcpy((uint8_t *)dest + off * es, acc, nb);
    }
    free(acc);
}

/* ---- the collectives: a team's or an active set's set_t, one collective at a time ---------- */
#define TEAM_COLL(fn, team, core, ...)                                                             \
    do {                                                                                           \
        set_t s_;                                                                                  \
        team_set(fn, team, &s_);                                                                   \
        pthread_mutex_lock(&kshmem.coll_lock);                                                     \
        core(fn, &s_, __VA_ARGS__);                                                                \
        pthread_mutex_unlock(&kshmem.coll_lock);                                                   \
    } while (0)
#define ASET_COLL(fn, start, log_stride, size, core, ...)                                          \
    do {                                                                                           \
        set_t s_;                                                                                  \
        active_set(fn, start, log_stride, size, &s_);                                              \
        pthread_mutex_lock(&kshmem.coll_lock);                                                     \
        core(fn, &s_, __VA_ARGS__);                                                                \
        pthread_mutex_unlock(&kshmem.coll_lock);                                                   \
    } while (0)

int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems,
                       int PE_root) {
    TEAM_COLL("shmem_broadcastmem", team, broadcast_core, dest, source, nelems, PE_root, 1);
    return 0;
}
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems) {
    TEAM_COLL("shmem_collectmem", team, collect_core, dest, source, nelems);
    return 0;
}
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems) {
    TEAM_COLL("shmem_fcollectmem", team, fcollect_core, dest, source, nelems);
    return 0;
}
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems) {
    TEAM_COLL("shmem_alltoallmem", team, alltoall_core, dest, source, nelems);
    return 0;
}
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                       ptrdiff_t sst, size_t nelems) {
    TEAM_COLL("shmem_alltoallsmem", team, alltoalls_core, dest, source, dst, sst, nelems, 1);
    return 0;
}

#define KSHMEM_DEF_COLL(T, N)                                                                      \
    int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems,          \
                              int PE_root) {                                                       \
        TEAM_COLL("shmem_" #N "_broadcast", team, broadcast_core, dest, source,                    \
                  kshmem_bytes("shmem_" #N "_broadcast", nelems, sizeof(T)), PE_root, 1);          \
        return 0;                                                                                  \
    }                                                                                              \
    int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems) {          \
        TEAM_COLL("shmem_" #N "_collect", team, collect_core, dest, source,                        \
                  kshmem_bytes("shmem_" #N "_collect", nelems, sizeof(T)));                        \
        return 0;                                                                                  \
    }                                                                                              \
    int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems) {         \
        TEAM_COLL("shmem_" #N "_fcollect", team, fcollect_core, dest, source,                      \
                  kshmem_bytes("shmem_" #N "_fcollect", nelems, sizeof(T)));                       \
        return 0;                                                                                  \
    }                                                                                              \
    int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems) {         \
        TEAM_COLL("shmem_" #N "_alltoall", team, alltoall_core, dest, source,                      \
                  kshmem_bytes("shmem_" #N "_alltoall", nelems, sizeof(T)));                       \
        return 0;                                                                                  \
    }                                                                                              \
    int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,          \
                              ptrdiff_t sst, size_t nelems) {                                      \
        TEAM_COLL("shmem_" #N "_alltoalls", team, alltoalls_core, dest, source, dst, sst, nelems,  \
                  sizeof(T));                                                                      \
        return 0;                                                                                  \
    }
KSHMEM_RMA_TYPES(KSHMEM_DEF_COLL)

/* ---- active-set (deprecated) collectives ----------------------------------------------------- */
#define KSHMEM_DEF_ASET(B)                                                                         \
    void shmem_broadcast##B(void *dest, const void *source, size_t nelems, int PE_root,            \
                            int PE_start, int logPE_stride, int PE_size, long *pSync) {            \
        (void)pSync;                                                                               \
        ASET_COLL("shmem_broadcast" #B, PE_start, logPE_stride, PE_size, broadcast_core, dest,     \
                  source, kshmem_bytes("shmem_broadcast" #B, nelems, B / 8), PE_root, 0);          \
    }                                                                                              \
    void shmem_collect##B(void *dest, const void *source, size_t nelems, int PE_start,             \
                          int logPE_stride, int PE_size, long *pSync) {                            \
        (void)pSync;                                                                               \
        ASET_COLL("shmem_collect" #B, PE_start, logPE_stride, PE_size, collect_core, dest, source, \
                  kshmem_bytes("shmem_collect" #B, nelems, B / 8));                                \
    }                                                                                              \
    void shmem_fcollect##B(void *dest, const void *source, size_t nelems, int PE_start,            \
                           int logPE_stride, int PE_size, long *pSync) {                           \
        (void)pSync;                                                                               \
        ASET_COLL("shmem_fcollect" #B, PE_start, logPE_stride, PE_size, fcollect_core, dest,       \
                  source, kshmem_bytes("shmem_fcollect" #B, nelems, B / 8));                       \
    }                                                                                              \
    void shmem_alltoall##B(void *dest, const void *source, size_t nelems, int PE_start,            \
                           int logPE_stride, int PE_size, long *pSync) {                           \
        (void)pSync;                                                                               \
        ASET_COLL("shmem_alltoall" #B, PE_start, logPE_stride, PE_size, alltoall_core, dest,       \
                  source, kshmem_bytes("shmem_alltoall" #B, nelems, B / 8));                       \
    }                                                                                              \
    void shmem_alltoalls##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,          \
                            size_t nelems, int PE_start, int logPE_stride, int PE_size,            \
                            long *pSync) {                                                         \
        (void)pSync;                                                                               \
        ASET_COLL("shmem_alltoalls" #B, PE_start, logPE_stride, PE_size, alltoalls_core, dest,     \
                  source, dst, sst, nelems, B / 8);                                                \
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
        TEAM_COLL("shmem_" #N "_" #OPN "_reduce", team, reduce_core, dest, source, nreduce,        \
                  sizeof(T), red_##N##_##OPN);                                                     \
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
        (void)pWrk;                                                                                \
        (void)pSync;                                                                               \
        if (nreduce < 0)                                                                           \
            kshmem_bad_arg("shmem_" #N "_" #OPN "_to_all", "nreduce", "= %d is negative",          \
                           nreduce);                                                               \
        ASET_COLL("shmem_" #N "_" #OPN "_to_all", PE_start, logPE_stride, PE_size, reduce_core,    \
                  dest, source, (size_t)nreduce, sizeof(T), red_##N##_##OPN);                      \
    }
#define TOALL_BIT(T, N)                                                                            \
    KSHMEM_DEF_TOALL(T, N, and) KSHMEM_DEF_TOALL(T, N, or) KSHMEM_DEF_TOALL(T, N, xor)
#define TOALL_ARITH(T, N)                                                                          \
    KSHMEM_DEF_TOALL(T, N, max)                                                                    \
    KSHMEM_DEF_TOALL(T, N, min) KSHMEM_DEF_TOALL(T, N, sum) KSHMEM_DEF_TOALL(T, N, prod)
KSHMEM_TOALL_BIT_TYPES(TOALL_BIT)
KSHMEM_TOALL_ARITH_TYPES(TOALL_ARITH)

/* complex sum and product: team and active-set forms */
#define COMPLEX(T, N)                                                                              \
    KSHMEM_RED_FN(T, N, sum, OP_SUM_F)                                                             \
    KSHMEM_RED_FN(T, N, prod, OP_PROD_F)                                                           \
    KSHMEM_DEF_RED(T, N, sum) KSHMEM_DEF_RED(T, N, prod) KSHMEM_DEF_TOALL(T, N, sum)               \
    KSHMEM_DEF_TOALL(T, N, prod)
KSHMEM_REDUCE_COMPLEX_TYPES(COMPLEX)
