/* test_ni_e2e_torus.c - end-to-end reliability of the C NI model
 * (sw/model/kolo_ni_model.c, docs/ni.md section 10) on a 16x16x1 torus:
 * all 256 nodes are sources, across lossy links, a link that fails and a
 * node that stops, against a lossless golden run of the same work.
 *
 * Each of the 256 NIs runs one context whose host posts a random mix of PUT,
 * GET, FETCH_ADD, ADD, XOR and CSWAP to random destinations (every node to
 * every other with roughly equal chance), in two phases:
 *   A: every node; 12 lossy links drop 1/64 of the packets that cross them
 *      and duplicate 1/256; at cycle LINK_AT one more link fails for good.
 *   B: after A has completed everywhere: every node but DEAD, which takes no
 *      part; at B + NODE_AT node DEAD stops (its router drops all it holds
 *      and its links are down).
 * After each fault every node installs tables computed by the shared routing
 * library (kolo_table_faults) a little later, staggered by its distance as
 * the firmware's flooding does, through its BAR0 route registers, then
 * switches (kolo_ni_e2e_route_switch). The network is packet-level: a fixed
 * latency per hop along the deterministic path of the header's route state;
 * a packet is lost at the first down link, dead router or lossy drop on its
 * path, at the cycle it would cross it.
 *
 * Checks, after the lossy run and the golden (no fault) run of the same seed:
 *   - every operation completed with KOLO_ST_OK in both runs;
 *   - every node's memory (PUT areas, GET landings, counters) equals the
 *     golden run's, except the CSWAP words, which depend on the order;
 *   - fetch-adds: per word the fetched values chain exactly (sorted, each is
 *     the previous plus its amount; the last plus its amount is the word):
 *     each executed once, each answered with its own old value;
 *     CSWAP claims: one winner per word, fetched 0; the others its value;
 *   - duplicates: this test counts every request delivered again with the
 *     generation its target last took from that (source, tag); the NIs'
 *     E2E_DUP_REQ must equal it exactly, and it must be > 0;
 *   - records: each target holds records for exactly the sources that sent
 *     it requests (kolo_ni_e2e_sources), all 256 sources in all;
 *   - the faults hit traffic (lossy drops, drops at the failed link and at
 *     the dead node, retransmissions > 0), no operation timed out.
 * Plants (mk/ni_model.mk builds this test against model variants that must
 * fail it): records only for 16 sources (KOLO_NI_PLANT_E2E_SOURCES=16),
 * every 20th record forgotten (KOLO_NI_PLANT_E2E_FORGET=20).
 *
 * First, one NI of a 16x16x16 torus takes FETCH_ADDs from all 4095 other
 * nodes, each twice, in two rounds (test_4096_sources): records for every
 * source at once, every repeat answered from its record, none executed twice.
 *
 * Randomised: prints its seed; SEED=<n> or --seed=<n> replays it.
 *
 * Length (~1000 lines): one program on purpose: the network, the hosts, the
 * fault schedule and the checks share the world state W and its two runs. */
#include "kolo_model.h"
#include "kolo_ni_model.h"
#include "test_util.h"
#include "test_ni_util.h"

#define DX 16
#define DY 16
#define NN (DX * DY)
#define HOP 4u                /* cycles per hop */
#define CAP_FROM 48           /* packets in the network per source and vnet */
#define OPS_A 160             /* operations per node in phase A */
#define OPS_B 160             /* and in phase B */
#define OPS (OPS_A + OPS_B)
#define OUTSTANDING 40        /* operations posted and not completed, per node */
#define E2E_TIMEOUT 1500u
#define E2E_RETRIES 8u
#define LOSSY_LINKS 12
#define LOSS_DIV 64u          /* a lossy link drops 1 in LOSS_DIV crossings */
#define DUP_DIV 256u          /* and delivers 1 in DUP_DIV twice */
#define LINK_AT 150u          /* phase A: the link fails */
#define NODE_AT 100u          /* phase B start + NODE_AT: the node stops */
#define FW_DELAY 800u         /* fault to the first table install */
#define FW_PER_HOP 40u        /* and later per hop of distance */
#define MAX_CYCLES 2000000u

#define MEM_BASE 0x7f0000000000ull
#define MEM_SIZE 0x80000u
#define SQ_OFF 0x0000u /* 256 x 32 */
#define CQ_OFF 0x2000u /* 256 x 16 */
#define SQ_LOG 8u
#define CQ_LOG 8u
#define WIN_OFF 0x4000u /* window 1: from here to the end */
#define PUT_OFF 0x4000u /* target: [source][slot] PUT areas */
#define PUT_SLOTS 3u
#define SLOT 320u
#define GSRC_OFF 0x40000u  /* target: GET source, a pattern never written (4 KiB) */
#define LSRC_OFF 0x41000u  /* initiator: PUT source pattern (4 KiB) */
#define FADD_OFF 0x42000u  /* target: 64 fetch-add words */
#define ADD_OFF 0x42200u   /* 64 add words */
#define XOR_OFF 0x42400u   /* 64 xor words */
#define CAS_OFF 0x42600u   /* 64 CSWAP claim words (order-dependent: not compared) */
#define WORDS 64u
#define GLAND_OFF 0x43000u /* initiator: GET landing, SLOT bytes per operation */
#define KEY 0x31u /* window 1 (key & 15) */

enum { K_PUT, K_GET, K_FADD, K_ADD, K_XOR, K_CAS };

typedef struct {
    uint8_t kind;
    uint16_t dst; /* node index */
    uint32_t len;
    uint64_t roff, loff, val;
} work_op;

typedef struct {
    kolo_pkt p;
    uint64_t due, seq, sent;
    int src, dst;
    int nlinks;
    uint16_t link[KOLO_PATH_MAX]; /* node index * 6 + port of each network hop */
    uint16_t via[KOLO_PATH_MAX];  /* node index each hop leaves */
} flight;

typedef struct {
    flight *f;
    int n, cap;
} fqueue;

static struct {
    int faults; /* 0: golden run */
    kolo_topo topo;
    kolo_ni *ni[NN];
    uint8_t *mem[NN];
    int idx[NN];
    fqueue q[NN];
    int from[NN][2];
    uint64_t now, seq;
    /* faults */
    uint64_t link_down_at[NN * 6]; /* UINT64_MAX: up */
    uint64_t node_dead_at[NN];
    uint8_t lossy[NN * 6];
    int dead; /* node index that stops in phase B */
    int fail_node, fail_port;
    uint64_t install_at[NN];  /* pending table install (0: none) */
    kolo_faults fset;
    kolo_route_entry *tables; /* the fault set's tables, [src index * NN + dst index] */
    void *ws;
    size_t ws_size;
    uint64_t drops_lossy, drops_link, drops_dead, dup_copies, delivered, sent_pkts;
    /* duplicate accounting: last generation + 1 taken at [target][source][tag] */
    uint8_t *lastgen;
    uint64_t dup_seen;
    uint8_t sent_to[NN][NN]; /* [target][source]: a request was taken */
    /* host side */
    work_op work[NN][OPS];
    int posted[NN], done[NN], lim[NN];
    uint16_t pi[NN], cq_next[NN];
    int slot_op[NN][1u << SQ_LOG];
    uint8_t status[NN][OPS];
    uint64_t result[NN][OPS];
    uint8_t completed[NN][OPS];
} W;

static uint64_t A(uint64_t off) { return MEM_BASE + off; }
static uint16_t id_of(int i) { return kolo_node_id_of_index(&W.topo, (unsigned)i); }

static int cb_dma_read(void *u, uint64_t addr, void *buf, size_t len) {
    int n = *(int *)u;
    if (addr < MEM_BASE || len > MEM_SIZE || addr - MEM_BASE > MEM_SIZE - len)
        return -1;
    memcpy(buf, W.mem[n] + (addr - MEM_BASE), len);
    return 0;
}
static int cb_dma_write(void *u, uint64_t addr, const void *buf, size_t len) {
    int n = *(int *)u;
    if (addr < MEM_BASE || len > MEM_SIZE || addr - MEM_BASE > MEM_SIZE - len)
        return -1;
    memcpy(W.mem[n] + (addr - MEM_BASE), buf, len);
    return 0;
}

static flight *q_push(int dst) {
    fqueue *q = &W.q[dst];
    if (q->n == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 64;
        q->f = (flight *)realloc(q->f, (size_t)q->cap * sizeof(flight));
        if (!q->f) {
            fprintf(stderr, "out of memory\n");
            exit(2);
        }
    }
    return &q->f[q->n++];
}

/* an NI hands a packet to its router */
static int cb_send(void *u, const kolo_pkt *p) {
    int src = *(int *)u, n, i, dst;
    unsigned vnet = (unsigned)(p->header[0] >> 28) & 1u;
    uint32_t rs = (uint32_t)(p->header[0] >> 36) & KOLO_RS_MASK;
    uint16_t dst_id = (uint16_t)(p->header[0] & 0xfffu);
    kolo_hop hops[KOLO_PATH_MAX];
    flight *f;
    if (W.from[src][vnet] >= CAP_FROM)
        return -1;
    n = kolo_route_path_to(&W.topo, id_of(src), dst_id, rs, hops, KOLO_PATH_MAX);
    if (n < 1) {
        CHECK(0, "node %d sent a packet to %03x with a bad route state %06x: %s", src, dst_id, rs,
              kolo_route_strerror(n));
        return 0;
    }
    dst = (int)kolo_node_index(&W.topo, dst_id);
    W.sent_pkts++;
    f = q_push(dst);
    f->p = *p;
    f->src = src;
    f->dst = dst;
    f->sent = W.now;
    f->seq = W.seq++;
    f->nlinks = n - 1;
    for (i = 0; i + 1 < n; i++) {
        int hn = (int)kolo_node_index(&W.topo, hops[i].node);
        f->via[i] = (uint16_t)hn;
        f->link[i] = (uint16_t)(hn * 6 + hops[i].port);
    }
    f->due = W.now + HOP * (unsigned)n + p->len + 1u;
    W.from[src][vnet]++;
    /* a lossy link: lost there, or delivered twice (the copy a little later) */
    for (i = 0; i < f->nlinks; i++) {
        if (!W.lossy[f->link[i]])
            continue;
        if (test_rand(LOSS_DIV) == 0) {
            f->due = f->sent + HOP * (unsigned)(i + 1); /* dropped when it gets there */
            f->nlinks = -1 - i;                          /* marks: lost on lossy link i */
            break;
        }
        if (test_rand(DUP_DIV) == 0) {
            flight *g = q_push(dst);
            f = &W.q[dst].f[W.q[dst].n - 2]; /* (realloc) */
            *g = *f;
            g->seq = W.seq++;
            g->due = f->due + 1 + test_rand(20);
            W.from[src][vnet]++;
            W.dup_copies++;
        }
    }
    return 0;
}

/* the first place on its path where the packet is lost, if any */
static int lost(const flight *f) {
    int i;
    if (f->nlinks < 0)
        return 1;
    for (i = 0; i < f->nlinks; i++) {
        uint64_t at = f->sent + HOP * (unsigned)(i + 1);
        int next = i + 1 < f->nlinks ? f->via[i + 1] : f->dst;
        if (W.node_dead_at[f->via[i]] <= at || W.node_dead_at[next] <= at) {
            W.drops_dead++;
            return 1;
        }
        if (W.link_down_at[f->link[i]] <= at) {
            W.drops_link++;
            return 1;
        }
    }
    if (W.node_dead_at[f->dst] <= f->due) {
        W.drops_dead++;
        return 1;
    }
    return 0;
}

static void note_request(int t, const kolo_pkt *p) {
    unsigned src = kolo_node_index(&W.topo, (uint16_t)((p->header[0] >> 12) & 0xfffu));
    unsigned tag = (unsigned)((p->header[1] >> 48) & 0xffu);
    uint8_t g = (uint8_t)(1u + (unsigned)(p->header[0] >> 63));
    uint8_t *e = &W.lastgen[((size_t)t * NN + src) * 256u + tag];
    if (*e == g)
        W.dup_seen++;
    *e = g;
    W.sent_to[t][src] = 1;
}

/* due packets to their NIs: per node and vnet the earliest first, one each
 * per cycle; a refused one holds its vnet back */
static void net_deliver(void) {
    int d, v, i;
    for (d = 0; d < NN; d++) {
        fqueue *q = &W.q[d];
        if (!q->n)
            continue;
        if (W.node_dead_at[d] <= W.now) { /* its router drops what reaches it */
            for (i = 0; i < q->n; i++)
                if (q->f[i].due <= W.now) {
                    W.from[q->f[i].src][(q->f[i].p.header[0] >> 28) & 1u]--;
                    W.drops_dead++;
                    q->f[i--] = q->f[--q->n];
                }
            continue;
        }
        for (v = 0; v < 2; v++) {
            int best = -1;
            flight f;
            for (i = 0; i < q->n; i++) {
                const flight *g = &q->f[i];
                if (g->due > W.now || ((g->p.header[0] >> 28) & 1u) != (unsigned)v)
                    continue;
                if (best < 0 || g->due < q->f[best].due ||
                    (g->due == q->f[best].due && g->seq < q->f[best].seq))
                    best = i;
            }
            if (best < 0)
                continue;
            f = q->f[best];
            if (f.nlinks < 0)
                W.drops_lossy++;
            if (f.nlinks < 0 || lost(&f)) {
                q->f[best] = q->f[--q->n];
                W.from[f.src][v]--;
                v--; /* the next one of this vnet may go this cycle */
                continue;
            }
            if (kolo_ni_receive(W.ni[d], &f.p) < 0)
                continue;
            if (v == 0)
                note_request(d, &f.p);
            W.delivered++;
            q->f[best] = q->f[--q->n];
            W.from[f.src][v]--;
        }
    }
}

/* the node stops: what waits at its router is lost */
static void drop_dead_queue(int d) {
    fqueue *q = &W.q[d];
    int i;
    for (i = 0; i < q->n; i++) {
        W.from[q->f[i].src][(q->f[i].p.header[0] >> 28) & 1u]--;
        W.drops_dead++;
    }
    q->n = 0;
}

/* ---- faults and tables ------------------------------------------------------------ */
static unsigned ring_dist(unsigned a, unsigned b, unsigned size) {
    unsigned d = a > b ? a - b : b - a;
    return d < size - d ? d : size - d;
}
static unsigned dist(int a, int b) {
    return ring_dist((unsigned)(a % DX), (unsigned)(b % DX), DX) + ring_dist((unsigned)(a / DX), (unsigned)(b / DX), DY);
}

/* the tables every node's firmware computes for the new fault set (the same
 * everywhere: kolo_table_faults(src) is row src of the set), checked once */
static void schedule_installs(int at_node) {
    kolo_ft_report rep;
    kolo_conn_report conn;
    int n;
    CHECK_EQ(kolo_tableset_faults(&W.topo, &W.fset, W.tables, W.ws, W.ws_size, &rep), KOLO_OK, "fault tables");
    CHECK_EQ(rep.unreachable, 0, "every live pair routed around the faults");
    CHECK(rep.detoured > 0, "some pairs detoured");
    CHECK_EQ(kolo_connectivity_check(&W.topo, &W.fset, W.tables, W.ws, W.ws_size, &conn), KOLO_OK,
             "fault tables: every valid path avoids the faults, every live pair routed");
    for (n = 0; n < NN; n++)
        if (W.node_dead_at[n] == UINT64_MAX)
            W.install_at[n] = W.now + FW_DELAY + FW_PER_HOP * dist(n, at_node);
}

static void install(int n) {
    const kolo_route_entry *table = W.tables + (size_t)n * NN;
    int d;
    for (d = 0; d < NN; d++) {
        uint8_t b[4];
        uint64_t old = 0;
        kolo_ni_mmio_read(W.ni[n], 0, KOLO_CSR_ROUTE(d), 4, &old);
        if ((uint32_t)old == table[d])
            continue;
        b[0] = (uint8_t)table[d];
        b[1] = (uint8_t)(table[d] >> 8);
        b[2] = (uint8_t)(table[d] >> 16);
        b[3] = (uint8_t)(table[d] >> 24);
        kolo_ni_mmio_write(W.ni[n], 0, KOLO_CSR_ROUTE(d), b, 4);
    }
    kolo_ni_e2e_route_switch(W.ni[n]); /* RT_EPOCH */
    W.install_at[n] = 0;
}

static void fail_link(void) {
    uint16_t a = (uint16_t)(W.fail_node * 6 + W.fail_port);
    int m = (int)kolo_node_index(&W.topo, kolo_neighbor(&W.topo, id_of(W.fail_node), W.fail_port));
    W.link_down_at[a] = W.now;
    W.link_down_at[m * 6 + (W.fail_port ^ 1)] = W.now;
    CHECK_EQ(kolo_faults_set_link(&W.fset, &W.topo, (unsigned)W.fail_node, W.fail_port, 1), KOLO_OK, "fault set");
    schedule_installs(W.fail_node);
}

/* the node stops: its router and links carry nothing from now on (lost() and
 * net_deliver look at node_dead_at) */
static void fail_node(void) {
    W.node_dead_at[W.dead] = W.now;
    drop_dead_queue(W.dead);
    CHECK_EQ(kolo_faults_set_node(&W.fset, &W.topo, (unsigned)W.dead, 1), KOLO_OK, "fault set");
    schedule_installs(W.dead);
}

/* ---- host side ---------------------------------------------------------------------- */
static void w64(int n, uint64_t off, uint64_t v) { test_ni_write(W.ni[n], off, v, 8); }
static void w32(int n, uint64_t off, uint32_t v) { test_ni_write(W.ni[n], off, v, 4); }
static uint64_t rd64(const uint8_t *b) {
    uint64_t v = 0;
    int i;
    for (i = 7; i >= 0; i--)
        v = v << 8 | b[i];
    return v;
}

static void host_post(int n) {
    int start = W.posted[n];
    while (W.posted[n] < W.lim[n] && W.posted[n] - W.done[n] < OUTSTANDING) {
        int k = W.posted[n]++;
        const work_op *o = &W.work[n][k];
        kolo_desc d;
        uint8_t b[32];
        memset(&d, 0, sizeof d);
        d.flags = KOLO_DF_COMPLETE;
        d.dst = id_of(o->dst);
        d.raddr_key = A(o->roff) | (uint64_t)KEY << 48;
        d.len = o->len;
        switch (o->kind) {
        case K_PUT: d.op = KOLO_D_PUT; d.w2 = A(o->loff); break;
        case K_GET: d.op = KOLO_D_GET; d.w2 = A(o->loff); break;
        case K_FADD: d.op = KOLO_D_FETCH_ADD; d.w2 = o->val; break;
        case K_ADD: d.op = KOLO_D_ADD; d.w2 = o->val; break;
        case K_XOR: d.op = KOLO_D_XOR; d.w2 = o->val; break;
        default: d.op = KOLO_D_CSWAP; d.w2 = o->val; d.w3 = 0; break;
        }
        kolo_desc_pack(&d, b);
        memcpy(W.mem[n] + SQ_OFF + 32u * (W.pi[n] % (1u << SQ_LOG)), b, 32);
        W.slot_op[n][W.pi[n] % (1u << SQ_LOG)] = k;
        W.pi[n]++;
    }
    if (W.posted[n] != start)
        w32(n, KOLO_CSR_DOORBELL(0) + KOLO_DB_SQ_PI, W.pi[n]);
}

static void host_poll(int n) {
    const unsigned cq_n = 1u << CQ_LOG;
    int got = 0;
    for (;;) {
        kolo_cqe e;
        int k;
        kolo_cqe_unpack(W.mem[n] + CQ_OFF + 16u * (W.cq_next[n] % cq_n), &e);
        if ((e.phase & 1u) != ((((unsigned)W.cq_next[n] / cq_n) & 1u) ? 0u : 1u))
            break;
        W.cq_next[n]++;
        got = 1;
        k = W.slot_op[n][e.index % (1u << SQ_LOG)];
        CHECK(!W.completed[n][k], "node %d op %d completed twice", n, k);
        W.completed[n][k] = 1;
        W.status[n][k] = e.status;
        W.result[n][k] = e.result;
        W.done[n]++;
    }
    if (got)
        w32(n, KOLO_CSR_DOORBELL(0) + KOLO_DB_CQ_CI, W.cq_next[n]);
}

/* ---- the work: the same for both runs ------------------------------------------------ */
static void make_work(uint64_t seed) {
    static uint8_t put_used[NN][NN];
    int n, k;
    test_rng_state = seed * 0x9e3779b97f4a7c15ull | 1u;
    memset(put_used, 0, sizeof put_used);
    W.dead = 17 + (int)test_rand(NN - 34);
    for (n = 0; n < NN; n++)
        for (k = 0; k < OPS; k++) {
            work_op *o = &W.work[n][k];
            unsigned r = test_rand(100);
            int d;
            do
                d = (int)test_rand(NN);
            while (d == n || (k >= OPS_A && d == W.dead));
            o->dst = (uint16_t)d;
            if (r < 35 && put_used[d][n] < PUT_SLOTS) {
                o->kind = K_PUT;
                o->len = 1 + test_rand(SLOT - 16);
                o->roff = PUT_OFF + ((uint64_t)n * PUT_SLOTS + put_used[d][n]++) * SLOT + test_rand(16);
                o->loff = LSRC_OFF + test_rand(4096 - SLOT);
            } else if (r < 60) {
                o->kind = K_GET;
                o->len = 1 + test_rand(SLOT - 16);
                o->roff = GSRC_OFF + test_rand(4096 - SLOT);
                o->loff = GLAND_OFF + (uint64_t)k * SLOT + test_rand(16);
            } else if (r < 80) {
                o->kind = K_FADD;
                o->roff = FADD_OFF + 8u * test_rand(WORDS);
                o->val = 1 + test_rand(1000);
            } else if (r < 88) {
                o->kind = K_ADD;
                o->roff = ADD_OFF + 8u * test_rand(WORDS);
                o->val = 1 + test_rand(1000);
            } else if (r < 94) {
                o->kind = K_XOR;
                o->roff = XOR_OFF + 8u * test_rand(WORDS);
                o->val = test_rand64();
            } else {
                o->kind = K_CAS;
                o->roff = CAS_OFF + 8u * test_rand(WORDS);
                o->val = (uint64_t)(n + 1) << 32 | (uint64_t)(k + 1);
            }
        }
    /* the lossy links and the link that fails: none at the dead node */
    W.fail_node = (int)test_rand(NN);
    W.fail_port = (int)test_rand(4);
    if (W.fail_node == W.dead || (int)kolo_node_index(&W.topo, kolo_neighbor(&W.topo, id_of(W.fail_node),
                                                                             W.fail_port)) == W.dead)
        W.fail_node = (W.dead + NN / 2) % NN;
    memset(W.lossy, 0, sizeof W.lossy);
    for (k = 0; k < LOSSY_LINKS; k++) {
        int a = (int)test_rand(NN), p = (int)test_rand(4);
        int m = (int)kolo_node_index(&W.topo, kolo_neighbor(&W.topo, id_of(a), p));
        if (a == W.dead || m == W.dead || (a == W.fail_node && p == W.fail_port)) {
            k--;
            continue;
        }
        W.lossy[a * 6 + p] = W.lossy[m * 6 + (p ^ 1)] = 1;
    }
}

static void world_init(int faults) {
    int n, i;
    kolo_ni_env env;
    kolo_ni_e2e_cfg c = {1, E2E_TIMEOUT, E2E_RETRIES};
    W.faults = faults;
    W.now = W.seq = 0;
    W.drops_lossy = W.drops_link = W.drops_dead = W.dup_copies = W.delivered = W.sent_pkts = 0;
    W.dup_seen = 0;
    memset(W.from, 0, sizeof W.from);
    memset(W.sent_to, 0, sizeof W.sent_to);
    memset(W.lastgen, 0, (size_t)NN * NN * 256u);
    memset(W.install_at, 0, sizeof W.install_at);
    memset(W.posted, 0, sizeof W.posted);
    memset(W.done, 0, sizeof W.done);
    memset(W.pi, 0, sizeof W.pi);
    memset(W.cq_next, 0, sizeof W.cq_next);
    memset(W.completed, 0, sizeof W.completed);
    memset(W.status, 0xff, sizeof W.status);
    kolo_faults_clear(&W.fset);
    for (i = 0; i < NN * 6; i++)
        W.link_down_at[i] = UINT64_MAX;
    for (n = 0; n < NN; n++) {
        W.node_dead_at[n] = UINT64_MAX;
        W.q[n].n = 0;
        W.idx[n] = n;
        memset(W.mem[n], 0, MEM_SIZE);
        for (i = 0; i < 4096; i++) {
            W.mem[n][GSRC_OFF + (unsigned)i] = (uint8_t)(n * 131 + i * 7 + (i >> 8));
            W.mem[n][LSRC_OFF + (unsigned)i] = (uint8_t)(n * 29 + i * 13 + 1);
        }
        memset(&env, 0, sizeof env);
        env.user = &W.idx[n];
        env.dma_read = cb_dma_read;
        env.dma_write = cb_dma_write;
        env.send = cb_send;
        W.ni[n] = kolo_ni_new(&W.topo, id_of(n), &env);
        CHECK(W.ni[n] != NULL, "kolo_ni_new");
        kolo_ni_set_e2e(W.ni[n], &c);
        w64(n, KOLO_CSR_WIN(1) + KOLO_WIN_BASE, A(WIN_OFF));
        w64(n, KOLO_CSR_WIN(1) + KOLO_WIN_LEN, MEM_SIZE - WIN_OFF);
        w64(n, KOLO_CSR_WIN(1) + KOLO_WIN_CTRL,
            KEY | KOLO_WIN_READ | KOLO_WIN_WRITE | KOLO_WIN_ATOMIC | KOLO_WIN_ENABLE);
        w64(n, KOLO_CSR_CTX(0) + KOLO_CTX_SQ_BASE, A(SQ_OFF));
        w64(n, KOLO_CSR_CTX(0) + KOLO_CTX_CQ_BASE, A(CQ_OFF));
        w64(n, KOLO_CSR_CTX(0) + KOLO_CTX_SIZES, SQ_LOG | CQ_LOG << 8);
        w64(n, KOLO_CSR_CTX(0) + KOLO_CTX_CTRL, 1u);
        W.lim[n] = OPS_A;
    }
}

static void world_free(void) {
    int n;
    for (n = 0; n < NN; n++) {
        kolo_ni_free(W.ni[n]);
        W.ni[n] = NULL;
    }
}

static int all_done(int limit_ops) {
    int n;
    for (n = 0; n < NN; n++)
        if (W.node_dead_at[n] == UINT64_MAX && W.done[n] < (n == W.dead && limit_ops > OPS_A ? OPS_A : limit_ops))
            return 0;
    return 1;
}

/* one run; returns cycles */
static uint64_t run(int faults) {
    uint64_t phase_b = 0;
    int n, lossy_on = faults;
    uint8_t lossy_save[NN * 6];
    memcpy(lossy_save, W.lossy, sizeof lossy_save);
    if (!lossy_on)
        memset(W.lossy, 0, sizeof W.lossy);
    world_init(faults);
    while (W.now < MAX_CYCLES) {
        W.now++;
        if (faults && W.now == LINK_AT)
            fail_link();
        if (faults && phase_b && W.now == phase_b + NODE_AT)
            fail_node();
        for (n = 0; n < NN; n++)
            if (W.install_at[n] && W.now >= W.install_at[n])
                install(n);
        net_deliver();
        for (n = 0; n < NN; n++) {
            if (W.node_dead_at[n] <= W.now)
                continue;
            host_poll(n);
            host_post(n);
            kolo_ni_step(W.ni[n]);
        }
        if (!phase_b && all_done(OPS_A)) {
            CHECK(!faults || W.now > LINK_AT, "phase A outlasted the link failure (cycle %" PRIu64 ")", W.now);
            phase_b = W.now;
            for (n = 0; n < NN; n++)
                if (n != W.dead)
                    W.lim[n] = OPS;
        }
        if (phase_b && W.now > phase_b + NODE_AT + 1 && all_done(OPS))
            break;
    }
    memcpy(W.lossy, lossy_save, sizeof lossy_save);
    CHECK(W.now < MAX_CYCLES, "run %d did not finish in %u cycles", faults, MAX_CYCLES);
    return W.now;
}

/* ---- checks -------------------------------------------------------------------------- */
static int cmp_u64pair(const void *a, const void *b) {
    const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* operations by (target, word) of the FADD and CSWAP areas: op_at[first[b]..first[b + 1]) */
static int first[NN * WORDS * 2 + 1];
static int op_at[NN * OPS];
static void bucket_ops(void) {
    static int fill[NN * WORDS * 2];
    int n, k, b;
    memset(first, 0, sizeof first);
    for (n = 0; n < NN; n++)
        for (k = 0; k < OPS; k++) {
            const work_op *o = &W.work[n][k];
            if (o->kind == K_FADD)
                first[1 + o->dst * WORDS * 2 + (o->roff - FADD_OFF) / 8]++;
            else if (o->kind == K_CAS)
                first[1 + o->dst * WORDS * 2 + WORDS + (o->roff - CAS_OFF) / 8]++;
        }
    for (b = 0; b < (int)(NN * WORDS * 2); b++) {
        first[b + 1] += first[b];
        fill[b] = first[b];
    }
    for (n = 0; n < NN; n++)
        for (k = 0; k < OPS; k++) {
            const work_op *o = &W.work[n][k];
            if (o->kind == K_FADD)
                op_at[fill[o->dst * WORDS * 2 + (o->roff - FADD_OFF) / 8]++] = n * OPS + k;
            else if (o->kind == K_CAS)
                op_at[fill[o->dst * WORDS * 2 + WORDS + (o->roff - CAS_OFF) / 8]++] = n * OPS + k;
        }
}

/* every op OK; fetch-add chains; CSWAP claims; returns the words whose
 * atomics show an operation executed twice or answered wrongly */
static unsigned check_results(const char *run_name) {
    unsigned broken_words = 0;
    static uint64_t pairs[NN * OPS][2];
    int t, w, n, k, j, bad_status = 0, incomplete = 0;
    uint64_t chains = 0;
    for (n = 0; n < NN; n++)
        for (k = 0; k < (n == W.dead ? OPS_A : OPS); k++) {
            if (!W.completed[n][k])
                incomplete++;
            else if (W.status[n][k] != KOLO_ST_OK && bad_status++ < 5)
                CHECK(0, "%s: node %d op %d (kind %d to %d) status %u", run_name, n, k, W.work[n][k].kind,
                      W.work[n][k].dst, W.status[n][k]);
        }
    CHECK_EQ(incomplete, 0, "%s: operations without a completion", run_name);
    CHECK_EQ(bad_status, 0, "%s: operations completed with an error", run_name);
    for (t = 0; t < NN; t++)
        for (w = 0; w < (int)WORDS; w++) {
            unsigned np = 0, i, zeros = 0, others = 0;
            uint64_t word, winner = 0;
            int broken = 0;
            /* fetch-add chain */
            for (j = first[t * WORDS * 2 + w]; j < first[t * WORDS * 2 + w + 1]; j++) {
                n = op_at[j] / OPS;
                k = op_at[j] % OPS;
                if (W.completed[n][k]) {
                    pairs[np][0] = W.result[n][k];
                    pairs[np++][1] = W.work[n][k].val;
                }
            }
            qsort(pairs, np, sizeof pairs[0], cmp_u64pair);
            word = 0;
            for (i = 0; i < np; i++) {
                if (pairs[i][0] != word)
                    broken = 1;
                word = pairs[i][0] + pairs[i][1];
            }
            if (broken || word != rd64(W.mem[t] + FADD_OFF + 8u * (unsigned)w))
                broken_words++;
            CHECK(!broken && word == rd64(W.mem[t] + FADD_OFF + 8u * (unsigned)w),
                  "%s: node %d fetch-add word %d: fetched values do not chain (%u fetch-adds, word %" PRIu64
                  ", chain ends at %" PRIu64 "): one executed twice or answered wrongly",
                  run_name, t, w, np, rd64(W.mem[t] + FADD_OFF + 8u * (unsigned)w), word);
            chains += np;
            /* CSWAP claims */
            word = rd64(W.mem[t] + CAS_OFF + 8u * (unsigned)w);
            for (j = first[t * WORDS * 2 + WORDS + w]; j < first[t * WORDS * 2 + WORDS + w + 1]; j++) {
                n = op_at[j] / OPS;
                k = op_at[j] % OPS;
                if (!W.completed[n][k])
                    continue;
                if (W.result[n][k] == 0) {
                    zeros++;
                    winner = W.work[n][k].val;
                } else if (W.result[n][k] != word) {
                    others++;
                }
            }
            if (!(zeros <= 1 && others == 0 && (zeros == 0 ? word == 0 : word == winner)))
                broken_words++;
            CHECK(zeros <= 1 && others == 0 && (zeros == 0 ? word == 0 : word == winner),
                  "%s: node %d CSWAP word %d: %u winners, %u wrong values, word %" PRIx64, run_name, t, w,
                  zeros, others, word);
        }
    CHECK(chains > 0, "%s: fetch-adds checked", run_name);
    return broken_words;
}

/* the records each target holds: exactly the sources that sent it requests */
static unsigned check_records(const char *run_name, unsigned *bad_targets) {
    static uint8_t has[NN], any[NN];
    int t, s;
    unsigned all = 0;
    *bad_targets = 0;
    memset(any, 0, sizeof any);
    for (t = 0; t < NN; t++) {
        unsigned want = 0, got, wrong = 0;
        if (t == W.dead && W.faults)
            continue; /* stopped: not asked */
        got = kolo_ni_e2e_sources(W.ni[t], has, NN);
        for (s = 0; s < NN; s++) {
            want += W.sent_to[t][s];
            if (has[s] != W.sent_to[t][s])
                wrong++;
            any[s] |= has[s];
        }
        if (got != want || wrong)
            ++*bad_targets;
        CHECK(got == want && wrong == 0, "%s: node %d holds records for %u sources, %u sent it requests "
                                         "(%u differ)", run_name, t, got, want, wrong);
    }
    for (s = 0; s < NN; s++)
        all += any[s];
    CHECK_EQ(all, NN, "%s: sources with records somewhere", run_name);
    return all;
}

static void e2e_totals(kolo_ni_e2e_stats *sum) {
    int n;
    memset(sum, 0, sizeof *sum);
    for (n = 0; n < NN; n++) {
        kolo_ni_e2e_stats st;
        kolo_ni_get_e2e(W.ni[n], NULL, &st);
        sum->retransmits += st.retransmits;
        sum->dup_requests += st.dup_requests;
        sum->dup_responses += st.dup_responses;
        sum->timeouts += st.timeouts;
        sum->unreachable += st.unreachable;
    }
}

/* ---- one target of a 16x16x16 torus: records for all 4095 other sources ----------------
 * Every other node sends it FETCH_ADDs to a word of its own, each delivered
 * twice (the repeat a lost response causes), in two rounds with the same
 * tag and the other generation: all 4095 sources' records live at once. The
 * repeat must be answered from the record (the first answer's value, not
 * executed again), the second round executed. */
static uint8_t *big_mem;
#define BIG_MEM 0x10000u
#define BIG_WORDS 0x1000u
static kolo_pkt big_resp;
static int big_resps;
static int big_read(void *u, uint64_t addr, void *buf, size_t len) {
    (void)u;
    if (addr < MEM_BASE || len > BIG_MEM || addr - MEM_BASE > BIG_MEM - len)
        return -1;
    memcpy(buf, big_mem + (addr - MEM_BASE), len);
    return 0;
}
static int big_write(void *u, uint64_t addr, const void *buf, size_t len) {
    (void)u;
    if (addr < MEM_BASE || len > BIG_MEM || addr - MEM_BASE > BIG_MEM - len)
        return -1;
    memcpy(big_mem + (addr - MEM_BASE), buf, len);
    return 0;
}
static int big_send(void *u, const kolo_pkt *p) {
    (void)u;
    big_resp = *p;
    big_resps++;
    return 0;
}

static void test_4096_sources(int *executed_once) {
    const kolo_topo t = {{16, 16, 16}};
    const unsigned nodes = kolo_topo_nodes(&t), target = 2345;
    const uint16_t tid = kolo_node_id_of_index(&t, target);
    static uint8_t has[KOLO_MAX_NODES];
    kolo_ni_env env;
    kolo_ni *ni;
    kolo_ni_e2e_cfg c = {1, E2E_TIMEOUT, E2E_RETRIES};
    kolo_ni_e2e_stats st;
    unsigned s, r, wrong_value = 0, wrong_repeat = 0, wrong_word = 0, srcs;
    uint8_t b[8];
    int i;
    big_mem = (uint8_t *)calloc(1, BIG_MEM);
    memset(&env, 0, sizeof env);
    env.dma_read = big_read;
    env.dma_write = big_write;
    env.send = big_send;
    ni = kolo_ni_new(&t, tid, &env);
    CHECK(ni && big_mem, "16x16x16 NI");
    if (!ni || !big_mem)
        return;
    kolo_ni_set_e2e(ni, &c);
    {
        static const unsigned reg[3] = {KOLO_WIN_BASE, KOLO_WIN_LEN, KOLO_WIN_CTRL};
        const uint64_t val[3] = {A(BIG_WORDS), 8u * KOLO_MAX_NODES,
                                 KEY | KOLO_WIN_READ | KOLO_WIN_WRITE | KOLO_WIN_ATOMIC | KOLO_WIN_ENABLE};
        for (r = 0; r < 3; r++) {
            for (i = 0; i < 8; i++)
                b[i] = (uint8_t)(val[r] >> (8 * i));
            kolo_ni_mmio_write(ni, 0, KOLO_CSR_WIN(1) + reg[r], b, 8);
        }
    }
    for (r = 0; r < 2; r++)
        for (s = 0; s < nodes; s++) {
            uint16_t sid = kolo_node_id_of_index(&t, s);
            uint64_t amount = 1 + (s * 7 + r * 3) % 1000, first;
            kolo_pkt p;
            int k;
            if (s == target)
                continue;
            memset(&p, 0, sizeof p);
            p.src = sid;
            p.dst = tid;
            p.op = KOLO_OP_FETCH_ADD;
            p.len = 1;
            p.header[0] = KOLO_H0_DST_FIELD(tid) | KOLO_H0_SRC_FIELD(sid) | KOLO_H0_OP_FIELD(KOLO_OP_FETCH_ADD) |
                          KOLO_H0_LEN_FIELD(1) | KOLO_H0_ASIZE_FIELD(3) | KOLO_H0_FETCH | (r ? 0 : KOLO_H0_GEN);
            p.header[1] = KOLO_H1_ADDR_FIELD(A(BIG_WORDS + 8u * s)) | KOLO_H1_TAG_FIELD(s & 255u) |
                          KOLO_H1_KEY_FIELD(KEY);
            p.payload[0] = amount;
            for (k = 0; k < 2; k++) { /* the request, then its repeat */
                big_resps = 0;
                CHECK_EQ(kolo_ni_receive(ni, &p), 0, "taken");
                if (big_resps != 1 || ((big_resp.header[0] >> 24) & 15u) != KOLO_OP_GET_RESP) {
                    CHECK(0, "source %u round %u: no GET_RESP", s, r);
                    continue;
                }
                if (k == 0) {
                    first = big_resp.payload[0];
                    if (first != (r ? 1 + (s * 7) % 1000 : 0))
                        wrong_value++;
                } else if (big_resp.payload[0] != first) {
                    wrong_repeat++;
                }
            }
        }
    for (s = 0; s < nodes; s++)
        if (s != target && rd64(big_mem + BIG_WORDS + 8u * s) != 2 + (s * 7) % 1000 + (s * 7 + 3) % 1000)
            wrong_word++;
    kolo_ni_get_e2e(ni, NULL, &st);
    srcs = kolo_ni_e2e_sources(ni, has, KOLO_MAX_NODES);
    CHECK_EQ(wrong_value, 0, "16x16x16: fetched values");
    CHECK_EQ(wrong_repeat, 0, "16x16x16: repeats answered with the first answer");
    CHECK_EQ(wrong_word, 0, "16x16x16: words (each request executed once)");
    CHECK_EQ(st.dup_requests, 2 * (nodes - 1), "16x16x16: every repeat detected");
    CHECK_EQ(srcs, nodes - 1, "16x16x16: records for every other node");
    CHECK_EQ(has[target], 0, "no record of itself");
    *executed_once = !wrong_word && !wrong_repeat;
    printf("  16x16x16 target: records for %u of %u sources, %" PRIu64 " of %u repeats detected, "
           "executed once: %s (%u words wrong)\n",
           srcs, nodes - 1, st.dup_requests, 2 * (nodes - 1), *executed_once ? "yes" : "no", wrong_word);
    kolo_ni_free(ni);
    free(big_mem);
}

int main(int argc, char **argv) {
    uint64_t seed = test_seed(argc, argv, "test_ni_e2e_torus");
    static uint8_t *golden[NN];
    kolo_ni_e2e_stats g, f;
    uint64_t cyc_g, cyc_f, pk_g;
    unsigned srcs, bad_words_g, bad_words, bad_rec_g, bad_rec, mem_diff = 0;
    int n, once4096 = 0;
    W.topo.size[0] = DX;
    W.topo.size[1] = DY;
    W.topo.size[2] = 1;
    W.ws_size = kolo_conn_workspace_size(&W.topo);
    if (W.ws_size < kolo_ft_workspace_size(&W.topo))
        W.ws_size = kolo_ft_workspace_size(&W.topo);
    W.ws = malloc(W.ws_size);
    W.tables = (kolo_route_entry *)malloc(sizeof(kolo_route_entry) * NN * NN);
    if (!W.tables)
        return 2;
    W.lastgen = (uint8_t *)malloc((size_t)NN * NN * 256u);
    for (n = 0; n < NN; n++) {
        W.mem[n] = (uint8_t *)malloc(MEM_SIZE);
        golden[n] = (uint8_t *)malloc(MEM_SIZE);
        if (!W.mem[n] || !golden[n])
            return 2;
    }
    if (!W.ws || !W.lastgen)
        return 2;
    test_4096_sources(&once4096);
    make_work(seed);
    bucket_ops();
    test_rng_state = seed * 0x2545f4914f6cdd1dull | 1u;

    /* golden: no loss, no fault */
    cyc_g = run(0);
    pk_g = W.sent_pkts;
    bad_words_g = check_results("golden");
    check_records("golden", &bad_rec_g);
    e2e_totals(&g);
    CHECK_EQ(g.dup_requests, W.dup_seen, "golden: duplicates counted by the NIs = seen by the network");
    for (n = 0; n < NN; n++)
        memcpy(golden[n], W.mem[n], MEM_SIZE);
    world_free();

    /* lossy links, a link failure, a node that stops */
    cyc_f = run(1);
    bad_words = check_results("faults");
    srcs = check_records("faults", &bad_rec);
    e2e_totals(&f);
    for (n = 0; n < NN; n++) {
        if (memcmp(W.mem[n] + WIN_OFF, golden[n] + WIN_OFF, CAS_OFF - WIN_OFF) ||
            memcmp(W.mem[n] + CAS_OFF + 8u * WORDS, golden[n] + CAS_OFF + 8u * WORDS, MEM_SIZE - CAS_OFF - 8u * WORDS))
            mem_diff++;
        /* PUT areas, GET source, the counters: as golden; CSWAP words order-dependent */
        CHECK(!memcmp(W.mem[n] + WIN_OFF, golden[n] + WIN_OFF, CAS_OFF - WIN_OFF),
              "node %d: memory differs from the golden run below the CSWAP words", n);
        CHECK(!memcmp(W.mem[n] + CAS_OFF + 8u * WORDS, golden[n] + CAS_OFF + 8u * WORDS,
                      MEM_SIZE - CAS_OFF - 8u * WORDS),
              "node %d: memory differs from the golden run above the CSWAP words", n);
    }
    CHECK(W.dup_seen > 0, "the faults made duplicate requests");
    CHECK_EQ(f.dup_requests, W.dup_seen,
             "every duplicate request detected: NIs' E2E_DUP_REQ = repeats seen delivered");
    CHECK(f.retransmits > 0, "requests sent again");
    CHECK_EQ(f.timeouts, 0, "no operation timed out");
    CHECK_EQ(f.unreachable, 0, "no operation unreachable");
    CHECK(W.drops_lossy > 0, "lossy links dropped packets");
    CHECK(W.drops_link > 0, "the failed link dropped packets");
    CHECK(W.drops_dead > 0, "the dead node dropped packets");
    printf("test_ni_e2e_torus: 16x16x1, %d ops per node (%d at node %d, which stops in phase B)\n", OPS,
           OPS_A, W.dead);
    printf("  golden: %" PRIu64 " cycles, %" PRIu64 " packets, %" PRIu64 " retransmissions\n", cyc_g, pk_g,
           g.retransmits);
    printf("  faults: %" PRIu64 " cycles, %" PRIu64 " packets; dropped: %" PRIu64 " on lossy links, %" PRIu64
           " at the failed link, %" PRIu64 " at the dead node; %" PRIu64 " duplicated by lossy links\n",
           cyc_f, W.sent_pkts, W.drops_lossy, W.drops_link, W.drops_dead, W.dup_copies);
    printf("  e2e: %" PRIu64 " retransmissions, %" PRIu64 " duplicate requests (network saw %" PRIu64
           "), %" PRIu64 " duplicate responses, %" PRIu64 " timeouts; records for %u of %d sources\n",
           f.retransmits, f.dup_requests, W.dup_seen, f.dup_responses, f.timeouts, srcs, NN);
    /* one line per property (the CHECK messages above stop after 30) */
    printf("  memory as golden: %s (%u nodes differ)\n", mem_diff ? "no" : "yes", mem_diff);
    printf("  executed once: %s (%u golden, %u faulty atomic words broken)\n",
           bad_words_g + bad_words ? "no" : "yes", bad_words_g, bad_words);
    printf("  duplicates detected: %s (%" PRIu64 " of %" PRIu64 ")\n",
           f.dup_requests == W.dup_seen && W.dup_seen ? "yes" : "no", f.dup_requests, W.dup_seen);
    printf("  records for every source: %s (%u golden, %u faulty targets wrong)\n",
           bad_rec_g + bad_rec || srcs != NN ? "no" : "yes", bad_rec_g, bad_rec);
    world_free();
    for (n = 0; n < NN; n++) {
        free(W.mem[n]);
        free(golden[n]);
        free(W.q[n].f);
    }
    free(W.ws);
    free(W.tables);
    free(W.lastgen);
    return test_finish("test_ni_e2e_torus");
}
