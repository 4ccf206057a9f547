/* test_libkolo_stall.c - libkolo's stall bound (issue 18; docs/api.md
 * "Waiting"): a card that still answers reads but completes nothing must
 * not hold a wait for ever, and a slow card that keeps moving must not be
 * failed.
 *
 * A backend of its own over the C NI model (one NI, a 1x1x1 torus, its
 * packets handed back to it through a link the test controls; DMA with
 * process_vm_readv/writev on this process). Every progress call steps the NI
 * once, so device time (the NI's CYCLES: kolo_ni_step calls) and the wait's
 * poll count move together; nothing here looks at a clock.
 *  - lost: the link loses every packet (end-to-end reliability off): a wait
 *    (kolo_wait, then kolo_quiet) with operations outstanding ends with
 *    KOLO_E_STALLED, more than the bound and at most bound + 4096 + 2048
 *    NI cycles after the last packet moved; its first look at CYCLES after
 *    4096 polls, then one per 1024 (no MMIO on the fast path); the stall
 *    counted in the context's stats, the operations still outstanding;
 *  - cq-lost: the link works but the NI's completion entries never reach
 *    host memory: the same;
 *  - slow: a serial link that delivers one packet every `gap` cycles (gap
 *    below the bound, seeded), so a quiet over a seeded mix of operations
 *    lasts many bounds and the first completion comes later than the
 *    bound: the quiet succeeds (no false stall), nothing counted;
 *  - a gap beyond the bound: KOLO_E_STALLED; the same with
 *    KOLO_WAIT_STALL_CYCLES=0 (off) or an NI 1.0 (no CYCLES register, which
 *    reads 0 there): the quiet succeeds and CYCLES is never read;
 *  - a healthy card: a wait that ends before 4096 polls reads no CYCLES.
 * KOLO_WAIT_TIMEOUT is unset. The backend fails the test (instead of
 * hanging) after HANG_POLLS progress calls in one wait. SEED=<n> replays.
 * mk/lib.mk runs planted copies of kolo_ctx.c that this test must fail on.
 */
#define _GNU_SOURCE
#include "kolo.h"
#include "kolo_ni_model.h" /* (before kolo.h: docs/api.md "Return codes") */
#include "test_kolo_util.h"
#include "test_util.h"
#include "test_kolo_card.h"

#define QCAP 4096
#define STALL 20000u        /* KOLO_WAIT_STALL_CYCLES of the tests */
#define FIRST_LOOK 4096     /* polls of a wait before its first look (kolo_ctx.c) */
#define LOOK_EVERY 1024     /* polls between two looks */
#define HANG_POLLS 2000000L /* progress calls in one wait: a hang */

enum { LINK_OK, LINK_LOST, LINK_SLOW };

typedef struct {
    kolo_topo topo;
    kolo_ni *ni;
    kolo_pkt q[QCAP];
    uint64_t q_at[QCAP]; /* cycle each packet entered the link */
    size_t qh, qn;
    int link;     /* LINK_* */
    uint64_t gap; /* LINK_SLOW: cycles between two deliveries */
    uint64_t last_deliver;
    int cq_lost; /* completion entries (writes into cq_lo..cq_hi) dropped */
    uint64_t cq_lo, cq_hi;
    int old_version; /* VERSION reads 1.0: an NI without CYCLES */
    /* what happened */
    uint64_t cyc;       /* kolo_ni_step calls (the model's CYCLES) */
    uint64_t last_move; /* cycle a packet last left or entered the NI */
    uint64_t cq_writes, first_cq_at, last_cq_at, max_cq_gap, cq_from;
    uint64_t wait_at;  /* cycle the current wait started */
    long polls;        /* progress calls in the current wait */
    long cycles_reads; /* reads of CYCLES */
    long first_look;   /* poll of the wait at the first read of CYCLES (-1: none) */
} card;

static int k_dma_write(void *u, uint64_t addr, const void *buf, size_t len) {
    card *k = (card *)u;
    if (k->cq_hi && addr >= k->cq_lo && addr < k->cq_hi) { /* a completion entry */
        uint64_t since = k->cq_writes ? k->last_cq_at : k->cq_from;
        if (k->cyc - since > k->max_cq_gap)
            k->max_cq_gap = k->cyc - since;
        if (!k->cq_writes++)
            k->first_cq_at = k->cyc;
        k->last_cq_at = k->cyc;
        if (k->cq_lost)
            return 0; /* "written": lost on the way */
    }
    return test_card_dma_write(u, addr, buf, len);
}

static int k_send(void *u, const kolo_pkt *pk) {
    card *k = (card *)u;
    if (k->qn == QCAP)
        return -1;
    k->last_move = k->cyc;
    if (k->link == LINK_LOST)
        return 0;
    k->q[(k->qh + k->qn) % QCAP] = *pk;
    k->q_at[(k->qh + k->qn) % QCAP] = k->cyc;
    k->qn++;
    return 0;
}

static void k_step(card *k) {
    size_t i, n = k->qn;
    kolo_ni_step(k->ni);
    k->cyc++;
    if (k->link == LINK_SLOW) {
        if (n && k->cyc - k->last_deliver >= k->gap && k->cyc - k->q_at[k->qh] >= k->gap &&
            !kolo_ni_receive(k->ni, &k->q[k->qh])) {
            k->qh = (k->qh + 1) % QCAP;
            k->qn--;
            k->last_deliver = k->last_move = k->cyc;
        }
        return;
    }
    for (i = 0; i < n; i++) { /* one NI: every packet is its own */
        if (kolo_ni_receive(k->ni, &k->q[k->qh]))
            break;
        k->qh = (k->qh + 1) % QCAP;
        k->qn--;
        k->last_move = k->cyc;
    }
}

static int b_write(void *u, int bar, uint64_t off, const void *data, unsigned size) {
    card *k = (card *)u;
    int n = 0;
    while (!kolo_ni_mmio_write_ready(k->ni, bar, off)) {
        k_step(k);
        if (++n > 1000000)
            return -1;
    }
    kolo_ni_mmio_write(k->ni, bar, off, data, size);
    return 0;
}

static int b_read(void *u, int bar, uint64_t off, unsigned size, uint64_t *val) {
    card *k = (card *)u;
    int rc;
    if (bar == 0 && off == KOLO_CSR_CYCLES) {
        k->cycles_reads++;
        if (k->first_look < 0)
            k->first_look = k->polls;
    }
    rc = kolo_ni_mmio_read(k->ni, bar, off, size, val);
    if (k->old_version && bar == 0 && off == KOLO_CSR_VERSION)
        *val = KOLO_NI_VERSION & ~0xffu; /* minor 0 */
    if (k->old_version && bar == 0 && off == KOLO_CSR_CYCLES)
        *val = 0; /* unmapped on a 1.0 NI */
    return rc;
}

static void b_progress(void *u, unsigned long n) {
    card *k = (card *)u;
    (void)n;
    k_step(k);
    if (++k->polls > HANG_POLLS) {
        fprintf(stderr, "FAIL: %ld progress calls in one wait: libkolo waits for ever\n",
                HANG_POLLS);
        exit(1);
    }
}

static void b_close(void *u) { (void)u; }

/* ---- a card, a device, a context and a window ----------------------------------------------- */
#define WIN_LEN 8192

typedef struct {
    card k;
    kolo_dev *d;
    kolo_ctx *c;
    uint8_t *win, *buf;
    int w;
    uint8_t key;
} rig;

static void rig_open(rig *g, const char *stall_env, int old_version) {
    kolo_backend be = {"stall-test", b_write, b_read, NULL, NULL, b_progress, b_close};
    memset(g, 0, sizeof *g);
    g->k.first_look = -1;
    g->k.old_version = old_version;
    g->k.ni = test_card_ni(&g->k.topo, &g->k, k_dma_write, k_send);
    if (stall_env)
        setenv("KOLO_WAIT_STALL_CYCLES", stall_env, 1);
    else
        unsetenv("KOLO_WAIT_STALL_CYCLES");
    g->d = test_card_open(&be, &g->k);
    CHECK_RC(kolo_ctx_open(g->d, NULL, &g->c), 0);
    g->win = (uint8_t *)kolo_dma_alloc(g->d, WIN_LEN);
    g->buf = (uint8_t *)kolo_dma_alloc(g->d, 65536);
    if (!g->c || !g->win || !g->buf) {
        fprintf(stderr, "FAIL: setting up the rig\n");
        exit(1);
    }
    g->w = kolo_win_open(g->d, -1, g->win, WIN_LEN, KOLO_WIN_RWA, -1, 0, &g->key);
    CHECK(g->w >= 0, "kolo_win_open: %s", kolo_strerror(g->w));
    { /* the context's completion queue (its entries are watched, maybe dropped) */
        uint64_t base = 0, sizes = 0;
        unsigned ci = kolo_ctx_index(g->c);
        kolo_ni_mmio_read(g->k.ni, 0, KOLO_CSR_CTX(ci) + KOLO_CTX_CQ_BASE, 8, &base);
        kolo_ni_mmio_read(g->k.ni, 0, KOLO_CSR_CTX(ci) + KOLO_CTX_SIZES, 8, &sizes);
        g->k.cq_lo = base;
        g->k.cq_hi = base + (16ull << ((sizes >> 8) & 31u));
    }
}

static void rig_close(rig *g) {
    kolo_close(g->d);
    kolo_ni_free(g->k.ni);
}

#define RADDR(g, off) ((uint64_t)(uintptr_t)((g)->win + (off)))

/* the next wait: its polls and looks counted from here */
static void wait_start(rig *g) {
    g->k.polls = 0;
    g->k.wait_at = g->k.cyc;
    g->k.first_look = -1;
    g->k.cycles_reads = 0;
    g->k.cq_writes = 0;
    g->k.max_cq_gap = 0;
    g->k.cq_from = g->k.cyc;
}

/* post nops operations (puts of 8..512 bytes, non-fetching atomics; seeded) */
static void post_mix(rig *g, int nops, kolo_req *r0) {
    int i;
    for (i = 0; i < nops; i++) {
        unsigned kind = test_rand(3);
        size_t len = 8 + test_rand(505);
        uint64_t off = (uint64_t)test_rand(WIN_LEN / 2) & ~7ull;
        if (i == 0 && r0)
            CHECK_RC(kolo_put_nb(g->c, 0, RADDR(g, 0), g->key, g->buf, 64, r0), 0);
        else if (kind == 0)
            CHECK_RC(kolo_put_nb(g->c, 0, RADDR(g, off), g->key, g->buf, len, NULL), 0);
        else if (kind == 1)
            CHECK_RC(kolo_put(g->c, 0, RADDR(g, off), g->key, g->buf, 8 + test_rand(25)), 0);
        else
            CHECK_RC(kolo_atomic(g->c, KOLO_AMO_ADD, 8, 0, RADDR(g, off), g->key, 1, 0, NULL), 0);
    }
}

/* a wait that must end with KOLO_E_STALLED: the bounds on it */
/* (the verdict: more than the bound after the last move, and at most the
 * bound and two looks after the first look of this wait that saw no move) */
static void check_stalled(rig *g, int rc, const char *what) {
    uint64_t since = g->k.cyc - g->k.last_move;
    uint64_t from = g->k.cyc - (g->k.last_move > g->k.wait_at ? g->k.last_move : g->k.wait_at);
    long looks_max = (g->k.polls - FIRST_LOOK) / LOOK_EVERY + 1;
    CHECK_RC(rc, KOLO_E_STALLED);
    printf("  %s: KOLO_E_STALLED after %ld polls, %llu NI cycles after the last packet moved, "
           "%llu after the later of that and the wait's start (bound %u), %ld looks at CYCLES, "
           "the first at poll %ld\n",
           what, g->k.polls, (unsigned long long)since, (unsigned long long)from, STALL,
           g->k.cycles_reads, g->k.first_look);
    CHECK(since > STALL,
          "%s: the verdict came %llu cycles after the last move, not beyond the "
          "bound %u",
          what, (unsigned long long)since, STALL);
    CHECK(from <= STALL + FIRST_LOOK + 2 * LOOK_EVERY,
          "%s: the verdict came %llu cycles after the last move or the wait's start (bound %u)",
          what, (unsigned long long)from, STALL);
    CHECK(g->k.polls <= (long)(FIRST_LOOK + STALL + 2 * LOOK_EVERY), "%s: %ld polls", what,
          g->k.polls);
    CHECK_EQ(g->k.first_look, FIRST_LOOK, "%s: the first look at CYCLES", what);
    CHECK(g->k.cycles_reads >= 1 && g->k.cycles_reads <= looks_max,
          "%s: %ld reads of CYCLES in %ld polls (at most %ld)", what, g->k.cycles_reads, g->k.polls,
          looks_max);
}

/* ---- a card that loses every packet, or every completion ---------------------------------- */
static void test_stalled(int cq_lost, int nops) {
    char what[64];
    rig g;
    kolo_req r;
    kolo_ctx_stats s;
    uint64_t cyc = 0;
    snprintf(what, sizeof what, "%s, %d operations", cq_lost ? "completions lost" : "packets lost",
             nops);
    rig_open(&g, "20000", 0);
    /* the card works: a put, a get */
    CHECK_RC(kolo_put(g.c, 0, RADDR(&g, 0), g.key, "abcdefgh", 8), 0);
    CHECK_RC(kolo_get(g.c, 0, RADDR(&g, 0), g.key, g.buf + 32768, 8), 0);
    CHECK(!memcmp(g.buf + 32768, "abcdefgh", 8), "%s: the card works", what);
    if (cq_lost)
        g.k.cq_lost = 1;
    else
        g.k.link = LINK_LOST;
    post_mix(&g, nops, &r);
    wait_start(&g);
    check_stalled(&g, kolo_wait(g.c, &r), what);
    CHECK_EQ(kolo_ni_mmio_read(g.k.ni, 0, KOLO_CSR_CYCLES, 8, &cyc), 0, "CYCLES reads");
    CHECK_EQ(cyc, g.k.cyc, "%s: CYCLES counts the NI's steps", what);
    kolo_ctx_get_stats(g.c, &s);
    CHECK_EQ(s.stalls, 1, "%s: the stall counted", what);
    CHECK_EQ(r.done, 0, "%s: the request is not done", what);
    CHECK_EQ(kolo_ctx_outstanding(g.c), (unsigned)nops, "%s: the operations still outstanding",
             what);
    CHECK_RC(kolo_pending_error(g.c), 0);
    /* the next wait gets a bound of its own */
    wait_start(&g);
    check_stalled(&g, kolo_quiet(g.c), what);
    kolo_ctx_get_stats(g.c, &s);
    CHECK_EQ(s.stalls, 2, "%s: two stalls counted", what);
    CHECK(strstr(kolo_strerror(KOLO_E_STALLED), "KOLO_WAIT_STALL_CYCLES") != NULL, "message: %s",
          kolo_strerror(KOLO_E_STALLED));
    rig_close(&g);
}

/* ---- a slow card: one packet every gap cycles ---------------------------------------------- */
/* env: KOLO_WAIT_STALL_CYCLES; old: an NI 1.0; want: the quiet's answer */
static void test_slow(uint64_t gap, int nops, const char *env, int old, int want) {
    char what[96];
    rig g;
    kolo_ctx_stats s;
    int rc;
    uint64_t t0;
    snprintf(what, sizeof what, "slow link, a packet every %llu cycles, %d operations%s%s%s",
             (unsigned long long)gap, nops, env ? ", KOLO_WAIT_STALL_CYCLES=" : "", env ? env : "",
             old ? ", NI 1.0" : "");
    rig_open(&g, env, old);
    g.k.link = LINK_SLOW;
    g.k.gap = gap;
    post_mix(&g, nops, NULL);
    wait_start(&g);
    t0 = g.k.cyc;
    rc = kolo_quiet(g.c);
    kolo_ctx_get_stats(g.c, &s);
    printf("  %s: %s after %ld polls, %llu NI cycles; the first completion after %llu cycles, "
           "longest gap between completions %llu; %ld looks at CYCLES\n",
           what, kolo_strerror(rc), g.k.polls, (unsigned long long)(g.k.cyc - t0),
           (unsigned long long)(g.k.first_cq_at - t0), (unsigned long long)g.k.max_cq_gap,
           g.k.cycles_reads);
    if (want == KOLO_E_STALLED) {
        check_stalled(&g, rc, what);
        CHECK_EQ(s.stalls, 1, "%s: the stall counted", what);
    } else {
        CHECK_RC(rc, want);
        CHECK_EQ(s.stalls, 0, "%s: no stall counted", what);
        CHECK_EQ(kolo_ctx_outstanding(g.c), 0, "%s: everything completed", what);
        /* the run means something: many bounds long, completions further apart than one */
        CHECK(g.k.cyc - t0 > 4 * (uint64_t)STALL, "%s: the quiet lasted %llu cycles", what,
              (unsigned long long)(g.k.cyc - t0));
        CHECK(g.k.max_cq_gap > STALL, "%s: completions at most %llu cycles apart", what,
              (unsigned long long)g.k.max_cq_gap);
        if (old || (env && !strcmp(env, "0")))
            CHECK_EQ(g.k.cycles_reads, 0, "%s: CYCLES never read", what);
        else
            CHECK(g.k.cycles_reads > 0, "%s: the bound was looked at", what);
    }
    rig_close(&g);
}

/* ---- a healthy card: the fast path reads nothing --------------------------------------------- */
static void test_fast(void) {
    rig g;
    kolo_req r;
    rig_open(&g, NULL, 0);
    wait_start(&g);
    CHECK_RC(kolo_get_nb(g.c, 0, RADDR(&g, 0), g.key, g.buf, 256, &r), 0);
    CHECK_RC(kolo_wait(g.c, &r), 0);
    CHECK_RC(kolo_quiet(g.c), 0);
    CHECK(g.k.polls < FIRST_LOOK, "the waits took %ld polls", g.k.polls);
    CHECK_EQ(g.k.cycles_reads, 0, "a short wait reads no CYCLES");
    rig_close(&g);
}

/* bad values of the bounds' variables are refused by name, never read as 0 (which
 * would turn the bound off without a word); good ones (hex, 0) are taken */
static void test_env(void) {
    static const char *const bad_stall[] = {"abc", "12k", "-5", "0x", " "};
    static const char *const bad_timeout[] = {"abc", "5s", "-1", "nan", "inf"};
    kolo_backend be = {"stall-test", b_write, b_read, NULL, NULL, b_progress, b_close};
    char err[256];
    kolo_dev *d;
    unsigned i;
    rig g;
    rig_open(&g, NULL, 0); /* a card to open again (a planted open must not crash) */
    for (i = 0; i < sizeof bad_stall / sizeof bad_stall[0]; i++) {
        setenv("KOLO_WAIT_STALL_CYCLES", bad_stall[i], 1);
        err[0] = 0;
        d = NULL;
        CHECK_EQ(kolo_open_backend(&be, &g.k, &d, err, sizeof err), KOLO_E_INVAL,
                 "KOLO_WAIT_STALL_CYCLES=\"%s\" refused", bad_stall[i]);
        CHECK(d == NULL, "no device for a refused open");
        if (d)
            kolo_close(d);
        CHECK(strstr(err, "KOLO_WAIT_STALL_CYCLES") != NULL, "the message names it: %s", err);
        d = NULL;
        CHECK_EQ(kolo_open("sim:0", &d, err, sizeof err), KOLO_E_INVAL,
                 "kolo_open refuses KOLO_WAIT_STALL_CYCLES=\"%s\" too", bad_stall[i]);
        if (d)
            kolo_close(d);
    }
    unsetenv("KOLO_WAIT_STALL_CYCLES");
    for (i = 0; i < sizeof bad_timeout / sizeof bad_timeout[0]; i++) {
        setenv("KOLO_WAIT_TIMEOUT", bad_timeout[i], 1);
        err[0] = 0;
        d = NULL;
        CHECK_EQ(kolo_open_backend(&be, &g.k, &d, err, sizeof err), KOLO_E_INVAL,
                 "KOLO_WAIT_TIMEOUT=\"%s\" refused", bad_timeout[i]);
        if (d)
            kolo_close(d);
        CHECK(strstr(err, "KOLO_WAIT_TIMEOUT") != NULL, "the message names it: %s", err);
    }
    unsetenv("KOLO_WAIT_TIMEOUT");
    rig_close(&g);
    rig_open(&g, "0x4E20", 0); /* 20 000, as hex: taken (rig_open fails otherwise) */
    rig_close(&g);
    rig_open(&g, "0", 0);
    rig_close(&g);
}

int main(int argc, char **argv) {
    unsigned i;
    test_seed(argc, argv, "test_libkolo_stall");
    unsetenv("KOLO_WAIT_TIMEOUT"); /* device time only */
    test_env();
    test_fast();
    test_stalled(0, 1 + (int)test_rand(12));
    test_stalled(1, 1 + (int)test_rand(12));
    for (i = 0; i < 3; i++) /* gaps of 50..90 % of the bound */
        test_slow(STALL / 2 + test_rand(STALL * 2 / 5), 4 + (int)test_rand(9), "20000", 0, 0);
    test_slow(2 * STALL, 3, "20000", 0, KOLO_E_STALLED);
    test_slow(2 * STALL, 3, "0", 0, 0);
    test_slow(2 * STALL, 3, "20000", 1, 0);
    return test_finish("test_libkolo_stall");
}
