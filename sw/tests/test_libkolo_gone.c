/* test_libkolo_gone.c - libkolo on a card that disappears (issue 18; docs/api.md
 * "Device gone").
 *
 * A backend of its own over the C NI model (one NI, a 1x1x1 torus, its
 * packets handed back to it; DMA with process_vm_readv/writev on this
 * process) that can die at a chosen backend call, as a card that lost its
 * power or its PCIe link: from then on its MMIO reads answer all ones (a
 * real host's root port) or fail (VFIO's backend, kolo-sim's server after
 * its read timeout), its writes are dropped (or fail), and the NI stands
 * still (nothing completes). The backend counts every access, and every
 * access after the library knew the device gone (kolo_dev_alive(dev, 0)).
 *
 *  - a live card: a register that reads all ones as a value (E2E_TIMEOUT
 *    written 0xFFFFFFFF), a read that fails once: not gone (the ID register
 *    answers), one check read each;
 *  - death with operations outstanding on two contexts, in each mode (reads
 *    all ones / failing, writes dropped / failing): the wait that comes next
 *    ends with KOLO_E_GONE within 4096 + 1024 progress calls (no
 *    KOLO_WAIT_TIMEOUT: unset), every outstanding request is done with
 *    KOLO_E_GONE, then every call of the API returns KOLO_E_GONE (or NULL,
 *    0 outstanding), closing frees everything (DMA mappings undone, the
 *    backend closed, ASan's leak check) and nothing touches the card;
 *  - death while the program only polls (kolo_test, kolo_progress): found
 *    within KOLO_GONE_POLLS + 1 empty polls;
 *  - seeded rounds: a random mix of operations with the card dying at a
 *    random backend call (or after the mix): while alive every call
 *    succeeds (completed gets checked against the window), a call that
 *    started on a dead card answers success or KOLO_E_GONE, never another
 *    error, once the library knows every call answers KOLO_E_GONE, every
 *    request ends done, then the sweep and the close as above.
 * No timing: every loop is bounded by counts; the backend fails the test
 * (instead of hanging) after 50000 progress calls on a dead card.
 * SEED=<n> replays. mk/lib.mk runs planted copies of kolo_dev.c and
 * kolo_ctx.c that this test must fail on.
 */
#define _GNU_SOURCE
#include "kolo_ni_model.h" /* (before kolo.h: docs/api.md "Return codes") */
#include "kolo.h"
#include "test_util.h"
#include "test_kolo_util.h"
#include "test_kolo_card.h"

#define QCAP 4096
#define HANG_LIMIT 50000L        /* progress calls on a dead card: a hang */
#define WAIT_BOUND (4096 + 1024) /* progress calls a wait may make before it looks at STATUS */
#define POLL_BOUND 1024          /* KOLO_GONE_POLLS (kolo_internal.h) */

enum { DEAD_ONES, DEAD_ERR };

typedef struct {
    kolo_topo topo;
    kolo_ni *ni;
    kolo_pkt q[QCAP];
    size_t qh, qn;
    /* the card's fate */
    int dead;        /* reads all ones or failing, writes nowhere, the NI stands still */
    int read_mode;   /* DEAD_ONES, DEAD_ERR */
    int write_fails; /* dead: writes return -1 (else dropped silently) */
    long die_at;     /* die at backend call number die_at (-1: not by count) */
    long calls;
    int fail_reads; /* alive: the next reads fail (a transient error) */
    int iommu;
    test_iommu_table map; /* ranges libkolo mapped (iommu) */
    /* what the library did */
    kolo_dev *dev; /* set once open */
    long reads, writes, progress, progress_dead;
    long reads_gone, writes_gone; /* accesses after the library knew */
    int closed;
} card;

static int lib_knows(const card *k) { return k->dev && kolo_dev_alive(k->dev, 0) == 0; }

static void tick(card *k) {
    if (k->die_at >= 0 && k->calls++ >= k->die_at)
        k->dead = 1;
}

static int k_send(void *u, const kolo_pkt *pk) {
    card *k = (card *)u;
    if (k->qn == QCAP)
        return -1;
    k->q[(k->qh + k->qn) % QCAP] = *pk;
    k->qn++;
    return 0;
}

static void k_step(card *k) {
    size_t i, n = k->qn;
    kolo_ni_step(k->ni);
    for (i = 0; i < n; i++) { /* one NI: every packet is its own */
        if (kolo_ni_receive(k->ni, &k->q[k->qh]))
            break;
        k->qh = (k->qh + 1) % QCAP;
        k->qn--;
    }
}

static int b_write(void *u, int bar, uint64_t off, const void *data, unsigned size) {
    card *k = (card *)u;
    int n = 0;
    tick(k);
    k->writes++;
    if (lib_knows(k))
        k->writes_gone++;
    if (k->dead)
        return k->write_fails ? -1 : 0;
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
    tick(k);
    k->reads++;
    if (lib_knows(k))
        k->reads_gone++;
    if (k->dead || k->fail_reads) {
        *val = size == 4 ? 0xFFFFFFFFull : ~0ull;
        if (!k->dead) {
            k->fail_reads--;
            return -1;
        }
        return k->read_mode == DEAD_ERR ? -1 : 0;
    }
    return kolo_ni_mmio_read(k->ni, bar, off, size, val);
}

static void b_progress(void *u, unsigned long n) {
    card *k = (card *)u;
    (void)n;
    tick(k);
    k->progress++;
    if (!k->dead) {
        k_step(k);
        if (k->progress > 20000000L) {
            fprintf(stderr, "FAIL: 20000000 progress calls on a live card\n");
            exit(1);
        }
        return;
    }
    if (++k->progress_dead > HANG_LIMIT) {
        fprintf(stderr, "FAIL: %ld progress calls on a dead card: libkolo waits for ever\n",
                HANG_LIMIT);
        exit(1);
    }
}

static int b_map(void *u, void *addr, size_t len) { return test_iommu_map(&((card *)u)->map, addr, len); }

static int b_unmap(void *u, void *addr, size_t len) {
    return test_iommu_unmap(&((card *)u)->map, addr, len);
}

static void b_close(void *u) { ((card *)u)->closed++; }

/* ---- a card, a device, a context or two and a window ---------------------------------------- */
#define WIN_LEN 8192
#define RO_OFF 4096 /* the window's second half: gets only (a pattern) */

typedef struct {
    card k;
    kolo_dev *d;
    kolo_ctx *c, *c2;
    uint8_t *win; /* window memory (kolo_dma_alloc) */
    uint8_t *buf; /* local sources and destinations (kolo_dma_alloc) */
    int w;
    uint8_t key;
} rig;

static uint8_t pattern(size_t i) { return (uint8_t)(i * 131u + 7u + (i >> 8)); }

static void rig_open(rig *g, int iommu) {
    kolo_backend be = {"gone-test", b_write, b_read, NULL, NULL, b_progress, b_close};
    size_t i;
    memset(g, 0, sizeof *g);
    g->k.die_at = -1;
    g->k.iommu = iommu;
    if (iommu) {
        be.dma_map = b_map;
        be.dma_unmap = b_unmap;
    }
    g->k.ni = test_card_ni(&g->k.topo, &g->k, test_card_dma_write, k_send);
    g->d = test_card_open(&be, &g->k);
    g->k.dev = g->d;
    CHECK_RC(kolo_ctx_open(g->d, NULL, &g->c), 0);
    CHECK_RC(kolo_ctx_open(g->d, NULL, &g->c2), 0);
    g->win = (uint8_t *)kolo_dma_alloc(g->d, WIN_LEN);
    g->buf = (uint8_t *)kolo_dma_alloc(g->d, 65536);
    if (!g->c || !g->c2 || !g->win || !g->buf) {
        fprintf(stderr, "FAIL: setting up the rig\n");
        exit(1);
    }
    for (i = RO_OFF; i < WIN_LEN; i++)
        g->win[i] = pattern(i - RO_OFF);
    g->w = kolo_win_open(g->d, -1, g->win, WIN_LEN, KOLO_WIN_RWA, -1, 0, &g->key);
    CHECK(g->w >= 0, "kolo_win_open: %s", kolo_strerror(g->w));
}

#define RADDR(g, off) ((uint64_t)(uintptr_t)((g)->win + (off)))

/* Every call of the API on a gone device: KOLO_E_GONE, and nothing reaches the
 * card (then the closes: host resources only). */
static void sweep_and_close(rig *g, const char *what) {
    kolo_req r, r2;
    uint64_t old = 0, val = 0;
    uint8_t key = 0;
    uint8_t *src = g->buf, *dst = g->buf + 49152;
    kolo_ctx *c3 = NULL;
    long reads0 = g->k.reads, writes0 = g->k.writes;
    memset(&r, 0, sizeof r);
    memset(&r2, 0, sizeof r2);
    CHECK_EQ(kolo_dev_alive(g->d, 0), 0, "%s: the device is gone", what);
    CHECK_EQ(kolo_dev_alive(g->d, 1), 0, "%s: the device is gone (probe)", what);
    CHECK_RC(kolo_put(g->c, 0, RADDR(g, 0), g->key, src, 8), KOLO_E_GONE);
    CHECK_RC(kolo_put(g->c, 0, RADDR(g, 0), g->key, src, 300), KOLO_E_GONE);
    CHECK_RC(kolo_put_nb(g->c, 0, RADDR(g, 0), g->key, src, 64, &r), KOLO_E_GONE);
    CHECK_RC(kolo_put_nb(g->c, 0, RADDR(g, 0), g->key, src, 8, NULL), KOLO_E_GONE);
    CHECK_RC(kolo_put_inline(g->c, 0, RADDR(g, 0), g->key, src, 8), KOLO_E_GONE);
    CHECK_RC(kolo_put_pio(g->c, 0, RADDR(g, 0), g->key, src, 8), KOLO_E_GONE);
    CHECK_RC(kolo_get(g->c, 0, RADDR(g, RO_OFF), g->key, dst, 8), KOLO_E_GONE);
    CHECK_RC(kolo_get_nb(g->c, 0, RADDR(g, RO_OFF), g->key, dst, 8, &r2), KOLO_E_GONE);
    CHECK_RC(kolo_atomic(g->c, KOLO_AMO_FETCH_ADD, 8, 0, RADDR(g, 0), g->key, 1, 0, &old),
             KOLO_E_GONE);
    CHECK_RC(kolo_atomic(g->c, KOLO_AMO_ADD, 8, 0, RADDR(g, 0), g->key, 1, 0, NULL), KOLO_E_GONE);
    CHECK_RC(kolo_atomic_nb(g->c, KOLO_AMO_SWAP, 4, 0, RADDR(g, 0), g->key, 1, 0, &val, &r),
             KOLO_E_GONE);
    CHECK_RC(kolo_put_signal(g->c, 0, RADDR(g, 0), g->key, src, 16, RADDR(g, 64), g->key, 1,
                             KOLO_SIG_ADD),
             KOLO_E_GONE);
    CHECK_RC(kolo_put_signal_nb(g->c, 0, RADDR(g, 0), g->key, src, 16, RADDR(g, 64), g->key, 1,
                                KOLO_SIG_SET),
             KOLO_E_GONE);
    CHECK_RC(kolo_fence(g->c), KOLO_E_GONE);
    CHECK_RC(kolo_quiet(g->c), KOLO_E_GONE);
    CHECK_RC(kolo_progress(g->c), KOLO_E_GONE);
    CHECK_RC(kolo_progress(g->c2), KOLO_E_GONE);
    CHECK_RC(kolo_test(g->c, &r), KOLO_E_GONE);
    CHECK_RC(kolo_wait(g->c, &r), KOLO_E_GONE);
    CHECK_RC(kolo_pending_error(g->c), KOLO_E_GONE);
    CHECK_RC(kolo_pending_error(g->c2), KOLO_E_GONE);
    kolo_req_cancel(g->c, &r);
    CHECK_EQ(kolo_ctx_outstanding(g->c), 0, "%s: nothing outstanding", what);
    CHECK_EQ(kolo_ctx_outstanding(g->c2), 0, "%s: nothing outstanding (context 2)", what);
    CHECK_RC(kolo_dev_read_reg(g->d, KOLO_CSR_ID, 4, &val), KOLO_E_GONE);
    CHECK_RC(kolo_dev_read_reg(g->d, KOLO_CSR_STAT_TX_PKTS, 8, &val), KOLO_E_GONE);
    CHECK_RC(kolo_dev_write_reg(g->d, KOLO_CSR_E2E_TIMEOUT, 4, 100), KOLO_E_GONE);
    CHECK_RC(kolo_win_open(g->d, -1, g->buf, 4096, KOLO_WIN_R, -1, 0, &key), KOLO_E_GONE);
    CHECK_RC(kolo_mem_register(g->d, g->buf, 4096), KOLO_E_GONE);
    CHECK(kolo_dma_alloc(g->d, 4096) == NULL, "%s: kolo_dma_alloc on a gone device", what);
    CHECK_RC(kolo_ctx_open(g->d, NULL, &c3), KOLO_E_GONE);
    CHECK(c3 == NULL, "%s: no context", what);
    CHECK(strstr(kolo_strerror(KOLO_E_GONE), "stopped answering") != NULL, "message: %s",
          kolo_strerror(KOLO_E_GONE));
    CHECK_EQ(g->k.reads - reads0, 0, "%s: the sweep read the gone card", what);
    CHECK_EQ(g->k.writes - writes0, 0, "%s: the sweep wrote to the gone card", what);
    /* closing: host resources only */
    CHECK_RC(kolo_win_close(g->d, g->w), KOLO_E_GONE);
    CHECK_RC(kolo_ctx_close(g->c2), KOLO_E_GONE);
    kolo_dma_free(g->d, g->win);
    kolo_close(g->d); /* closes g->c and the buffer */
    g->k.dev = NULL;
    CHECK_EQ(g->k.reads - reads0, 0, "%s: closing read the gone card", what);
    CHECK_EQ(g->k.writes - writes0, 0, "%s: closing wrote to the gone card", what);
    CHECK_EQ(g->k.reads_gone, 0, "%s: reads after the library knew the device gone", what);
    CHECK_EQ(g->k.writes_gone, 0, "%s: writes after the library knew the device gone", what);
    CHECK_EQ(g->k.closed, 1, "%s: the backend closed", what);
    if (g->k.iommu)
        CHECK_EQ(g->k.map.n, 0, "%s: every DMA mapping undone", what);
    kolo_ni_free(g->k.ni);
}

/* ---- a live card: all ones as a value, a transient read error ------------------------------- */
static void test_alive(void) {
    rig g;
    uint64_t v = 0;
    long r0;
    rig_open(&g, 0);
    CHECK_RC(kolo_dev_write_reg(g.d, KOLO_CSR_E2E_TIMEOUT, 4, 0xFFFFFFFFu), 0);
    r0 = g.k.reads;
    CHECK_RC(kolo_dev_read_reg(g.d, KOLO_CSR_E2E_TIMEOUT, 4, &v), 0);
    CHECK_EQ(v, 0xFFFFFFFFu, "E2E_TIMEOUT reads back all ones");
    CHECK_EQ(g.k.reads - r0, 2, "all ones: the register and one look at ID");
    CHECK_EQ(kolo_dev_alive(g.d, 0), 1, "all ones as a value: alive");
    CHECK_RC(kolo_dev_write_reg(g.d, KOLO_CSR_E2E_TIMEOUT, 4, 20000), 0);
    g.k.fail_reads = 1;
    r0 = g.k.reads;
    CHECK_RC(kolo_dev_read_reg(g.d, KOLO_CSR_NUM_CTX, 4, &v), KOLO_E_IO);
    CHECK_EQ(g.k.reads - r0, 2, "a failed read: the register and one look at ID");
    CHECK_EQ(kolo_dev_alive(g.d, 0), 1, "a transient read error: alive");
    r0 = g.k.reads;
    CHECK_EQ(kolo_dev_alive(g.d, 1), 1, "probe: alive");
    CHECK_EQ(g.k.reads - r0, 1, "the probe reads ID once");
    CHECK_EQ(kolo_dev_alive(NULL, 0), KOLO_E_INVAL, "NULL");
    /* the device works */
    CHECK_RC(kolo_put(g.c, 0, RADDR(&g, 0), g.key, "abcdefgh", 8), 0);
    CHECK_RC(kolo_get(g.c, 0, RADDR(&g, RO_OFF), g.key, g.buf, 100), 0);
    CHECK_RC(kolo_quiet(g.c), 0);
    CHECK(!memcmp(g.win, "abcdefgh", 8), "put landed");
    CHECK(g.buf[99] == pattern(99), "get landed");
    CHECK_EQ(kolo_dev_alive(g.d, 1), 1, "still alive");
    CHECK_EQ(g.k.progress_dead, 0, "never dead");
    kolo_close(g.d);
    CHECK_EQ(g.k.closed, 1, "closed");
    kolo_ni_free(g.k.ni);
}

/* ---- death with operations outstanding, then a wait ----------------------------------------- */
static void test_wait(int read_mode, int write_fails, int iommu) {
    char what[64];
    rig g;
    kolo_req r[4];
    uint64_t res = 0;
    int i, rc;
    snprintf(what, sizeof what, "wait (%s, writes %s%s)",
             read_mode == DEAD_ONES ? "all ones" : "errors", write_fails ? "fail" : "dropped",
             iommu ? ", IOMMU" : "");
    rig_open(&g, iommu);
    g.k.read_mode = read_mode;
    g.k.write_fails = write_fails;
    CHECK_RC(kolo_get(g.c, 0, RADDR(&g, RO_OFF), g.key, g.buf, 64), 0);
    /* posted, not completed: the NI moves only in the waits */
    CHECK_RC(kolo_get_nb(g.c, 0, RADDR(&g, RO_OFF), g.key, g.buf + 1024, 512, &r[0]), 0);
    CHECK_RC(kolo_put_nb(g.c, 0, RADDR(&g, 0), g.key, g.buf, 512, &r[1]), 0);
    CHECK_RC(kolo_atomic_nb(g.c, KOLO_AMO_FETCH_ADD, 8, 0, RADDR(&g, 0), g.key, 1, 0, &res, &r[2]),
             0);
    CHECK_RC(kolo_put_nb(g.c, 0, RADDR(&g, 2048), g.key, g.buf, 300, NULL), 0);
    CHECK_RC(kolo_put(g.c, 0, RADDR(&g, 2048), g.key, g.buf, 8), 0); /* PIO */
    CHECK_RC(kolo_put_nb(g.c2, 0, RADDR(&g, 3072), g.key, g.buf, 100, &r[3]), 0);
    CHECK(kolo_ctx_outstanding(g.c) >= 4, "%s: outstanding before the death", what);
    g.k.dead = 1;
    rc = kolo_wait(g.c, &r[0]);
    CHECK_RC(rc, KOLO_E_GONE);
    CHECK(g.k.progress_dead <= WAIT_BOUND, "%s: the wait took %ld progress calls", what,
          g.k.progress_dead);
    for (i = 0; i < 3; i++) {
        CHECK_EQ(r[i].done, 1, "%s: request %d done", what, i);
        CHECK_RC(r[i].status, KOLO_E_GONE);
    }
    CHECK_EQ(kolo_ctx_outstanding(g.c), 0, "%s: every operation completed", what);
    /* the other context learns it at its next call */
    CHECK_RC(kolo_test(g.c2, &r[3]), KOLO_E_GONE);
    CHECK_EQ(r[3].done, 1, "%s: context 2's request done", what);
    CHECK_RC(r[3].status, KOLO_E_GONE);
    {
        kolo_ctx_stats s;
        kolo_ctx_get_stats(g.c, &s);
        CHECK(s.errors >= 5, "%s: errors counted (%llu)", what, (unsigned long long)s.errors);
    }
    sweep_and_close(&g, what);
}

/* ---- death while the program only polls ----------------------------------------------------- */
static void test_poll(int read_mode, int use_test) {
    char what[64];
    rig g;
    kolo_req r;
    int i, rc = 0;
    snprintf(what, sizeof what, "poll by %s (%s)", use_test ? "kolo_test" : "kolo_progress",
             read_mode == DEAD_ONES ? "all ones" : "errors");
    rig_open(&g, 0);
    g.k.read_mode = read_mode;
    CHECK_RC(kolo_get_nb(g.c, 0, RADDR(&g, RO_OFF), g.key, g.buf, 64, &r), 0);
    g.k.dead = 1;
    for (i = 0; i < 3 * POLL_BOUND; i++) {
        rc = use_test ? kolo_test(g.c, &r) : kolo_progress(g.c);
        if (rc)
            break;
    }
    CHECK_RC(rc, KOLO_E_GONE);
    CHECK(i <= POLL_BOUND, "%s: found after %d polls", what, i + 1);
    CHECK_EQ(r.done, 1, "%s: the request done", what);
    CHECK_RC(r.status, KOLO_E_GONE);
    CHECK_EQ(g.k.progress_dead, 0, "%s: polls do not wait", what);
    sweep_and_close(&g, what);
}

/* ---- seeded rounds -------------------------------------------------------------------------- */
#define NOPS 150
static unsigned rounds_died_in_mix, rounds_known_in_mix, calls_after_known;

static void check_call(rig *g, int rc, int ok_min, int knew, const char *op, int round, int n) {
    if (knew) { /* the library knew before the call */
        CHECK_EQ(rc, KOLO_E_GONE, "round %d op %d (%s): after the device was known gone", round, n,
                 op);
    } else if (!g->k.dead) { /* alive through the call */
        CHECK(rc >= ok_min, "round %d op %d (%s): %s on a live card", round, n, op,
              kolo_strerror(rc));
    } else { /* died before or during it */
        CHECK(rc >= ok_min || rc == KOLO_E_GONE, "round %d op %d (%s): %s on a dead card", round, n,
              op, kolo_strerror(rc));
        if (rc == KOLO_E_GONE)
            CHECK(lib_knows(&g->k), "round %d op %d (%s): KOLO_E_GONE, device not marked", round, n,
                  op);
    }
}

/* a request posted in a round's mix (kept to check once the card is dead):
 * a GET's destination, length and offset in the read-only pattern */
typedef struct {
    int get, len, off;
    uint8_t *dst;
} booked_req;

/* book request nreq when its post succeeded (rc 0) */
static int book_req(booked_req *b, int nreq, int rc, int get, size_t len, unsigned off,
                    uint8_t *dst) {
    if (rc)
        return nreq;
    b[nreq].get = get;
    b[nreq].len = (int)len;
    b[nreq].off = (int)off;
    b[nreq].dst = dst;
    return nreq + 1;
}

static void test_round(int round) {
    rig g;
    static kolo_req req[NOPS];
    static booked_req booked[NOPS];
    int nreq = 0, n, rc;
    char what[48];
    rig_open(&g, test_rand(2));
    g.k.read_mode = (int)test_rand(2);
    g.k.write_fails = (int)test_rand(2);
    g.k.calls = 0;
    g.k.die_at = (long)test_rand(560); /* a mix makes about 450 backend calls */
    memset(req, 0, sizeof req);
    snprintf(what, sizeof what, "round %d", round);
    for (n = 0; n < NOPS; n++) {
        int knew = lib_knows(&g.k), op = (int)test_rand(14), ok_min = 0;
        size_t len = 1 + test_rand(test_rand(4) ? 64 : 600);
        unsigned off = test_rand(RO_OFF - 600) & ~7u, roff = test_rand(RO_OFF - 600);
        const char *name = "";
        uint8_t *dst = g.buf + 4096 + (size_t)n * 256; /* (up to 42496: below the sweep's) */
        kolo_req *q = &req[nreq];
        switch (op) {
        case 0:
            name = "put";
            rc = kolo_put(g.c, 0, RADDR(&g, off), g.key, g.buf, len);
            break;
        case 1:
            name = "put_nb req";
            rc = kolo_put_nb(g.c, 0, RADDR(&g, off), g.key, g.buf, len, q);
            nreq = book_req(booked, nreq, rc, 0, 0, 0, NULL);
            break;
        case 2:
            name = "put_nb";
            rc = kolo_put_nb(g.c, 0, RADDR(&g, off), g.key, g.buf, len, NULL);
            break;
        case 3:
            name = "get";
            len = len > 256 ? 256 : len;
            memset(dst, 0, len);
            rc = kolo_get(g.c, 0, RADDR(&g, RO_OFF + roff), g.key, dst, len);
            if (!rc)
                for (size_t i = 0; i < len; i++)
                    if (dst[i] != pattern(roff + i)) {
                        CHECK(0, "round %d op %d: get byte %zu wrong", round, n, i);
                        break;
                    }
            break;
        case 4:
            name = "get_nb req";
            len = len > 256 ? 256 : len;
            rc = kolo_get_nb(g.c, 0, RADDR(&g, RO_OFF + roff), g.key, dst, len, q);
            nreq = book_req(booked, nreq, rc, 1, len, roff, dst);
            break;
        case 5: {
            uint64_t old = 0;
            name = "fetch_add";
            rc = kolo_atomic(g.c, KOLO_AMO_FETCH_ADD, 8, 0, RADDR(&g, off), g.key, 1, 0, &old);
            break;
        }
        case 6:
            name = "atomic_nb req";
            rc =
                kolo_atomic_nb(g.c, KOLO_AMO_FETCH_ADD, 8, 0, RADDR(&g, off), g.key, 1, 0, NULL, q);
            nreq = book_req(booked, nreq, rc, 0, 0, 0, NULL);
            break;
        case 7:
            name = "add";
            rc = kolo_atomic(g.c, KOLO_AMO_ADD, 8, 0, RADDR(&g, off), g.key, 1, 0, NULL);
            break;
        case 8:
            name = "put_signal";
            rc = kolo_put_signal(g.c, 0, RADDR(&g, off), g.key, g.buf, len,
                                 RADDR(&g, 2048 + (off & 1016)), g.key, 1, KOLO_SIG_ADD);
            break;
        case 9:
            name = "fence";
            rc = kolo_fence(g.c);
            break;
        case 10:
            name = "quiet";
            rc = kolo_quiet(g.c);
            break;
        case 11:
            name = "progress";
            rc = kolo_progress(g.c);
            break;
        case 12:
            name = "test";
            rc = nreq ? kolo_test(g.c, &req[test_rand((unsigned)nreq)]) : kolo_progress(g.c);
            break;
        default: {
            uint64_t v;
            name = "read_reg";
            rc = kolo_dev_read_reg(g.d, KOLO_CSR_STAT_TX_PKTS, 8, &v);
            break;
        }
        }
        check_call(&g, rc, ok_min, knew, name, round, n);
        calls_after_known += (unsigned)knew;
    }
    rounds_died_in_mix += g.k.dead;
    rounds_known_in_mix += lib_knows(&g.k);
    /* the card dies now if it has not yet; the next wait must find it (a get
     * always waits; a quiet with nothing outstanding would not) */
    g.k.dead = 1;
    rc = kolo_get(g.c, 0, RADDR(&g, RO_OFF), g.key, g.buf + 65536 - 64, 64);
    CHECK_EQ(rc, KOLO_E_GONE, "round %d: a get on a dead card: %s", round, kolo_strerror(rc));
    CHECK(g.k.progress_dead <= WAIT_BOUND, "round %d: %ld progress calls on the dead card", round,
          g.k.progress_dead);
    for (n = 0; n < nreq; n++) {
        CHECK_EQ(req[n].done, 1, "round %d: request %d done", round, n);
        CHECK(req[n].status == 0 || req[n].status == KOLO_E_GONE, "round %d: request %d: %s", round,
              n, kolo_strerror(req[n].status));
        if (booked[n].get && req[n].status == 0) {
            const uint8_t *d = booked[n].dst;
            for (int i = 0; i < booked[n].len; i++)
                if (d[i] != pattern((size_t)booked[n].off + (size_t)i)) {
                    CHECK(0, "round %d: get request %d completed, byte %d wrong", round, n, i);
                    break;
                }
        }
    }
    sweep_and_close(&g, what);
}

int main(int argc, char **argv) {
    unsigned rounds = 200, i;
    test_seed(argc, argv, "test_libkolo_gone");
    unsetenv("KOLO_WAIT_TIMEOUT"); /* the answer must not depend on a timeout */
    if (getenv("ROUNDS"))
        rounds = (unsigned)strtoul(getenv("ROUNDS"), NULL, 0);
    test_alive();
    for (i = 0; i < 8; i++)
        test_wait((int)(i & 1), (int)(i >> 1 & 1), (int)(i >> 2 & 1));
    test_poll(DEAD_ONES, 1);
    test_poll(DEAD_ERR, 1);
    test_poll(DEAD_ONES, 0);
    test_poll(DEAD_ERR, 0);
    for (i = 0; i < rounds; i++)
        test_round((int)i);
    /* the rounds must exercise what they are for (die_at below 560 backend calls,
     * a mix of 150 operations makes about 450) */
    printf("test_libkolo_gone: %u rounds: the card died during the mix in %u, the library knew "
           "during it in %u (%u calls after it knew)\n",
           rounds, rounds_died_in_mix, rounds_known_in_mix, calls_after_known);
    CHECK(rounds_known_in_mix * 4 >= rounds && rounds_died_in_mix > rounds_known_in_mix / 2,
          "the rounds' deaths fall into the mix");
    return test_finish("test_libkolo_gone");
}
