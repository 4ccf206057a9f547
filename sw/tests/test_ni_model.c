/* test_ni_model.c - the C reference model of the NI (sw/model/kolo_ni_model.c)
 * against docs/ni.md.
 *
 * Length (~2500 lines): one test program on purpose: its cases share the
 * in-process network, the host-side helpers (descriptors, doorbells, polling)
 * and the checkers defined at its top; splitting the cases by area (initiator,
 * target, errors, end-to-end) needs those in a header of their own: planned.
 *
 * Several NIs run in one process, connected by an in-process network: one
 * queue of packets per destination, each packet due after a random delay
 * (so packets overtake each other), FIFO for ordered packets of one
 * (src, dst, vnet); the network may refuse sends and deliveries at random.
 * Host memory is a buffer per node; the host side (descriptors, doorbells,
 * completion polling) is written here the way a library would.
 * Every packet an NI sends is checked: header fields consistent, route state
 * and header flit 1 equal to kolo_model_make_header's with the default tables.
 * Results are checked byte-exact against expected memory (snapshots with the
 * expected change applied; a shadow memory in the random test). */
#include "kolo_model.h"
#include "kolo_ni_model.h"
#include "test_util.h"
#include "test_ni_util.h"

#define MAXN 8
#define MEM_BASE 0x7f0000000000ull /* host address of byte 0 of every node's memory */
#define MEM_SIZE 0x80000u
/* memory layout (offsets) */
#define CTX_AREA(c) (0x1000u * (c)) /* SQ at +0 (<= 64 entries), CQ at +0x800 (<= 128) */
#define SRC_OFF 0x10000u            /* local source / landing buffers (directed tests) */
#define DST_OFF 0x20000u            /* target region (window 1 in directed tests) */
#define DST_LEN 0x20000u
#define RND_OFF 0x40000u            /* random test */

static uint64_t A(uint64_t off) { return MEM_BASE + off; }

/* ---- in-process network ------------------------------------------------------- */
typedef struct {
    kolo_pkt p;
    uint64_t due, seq;
    int src;
} flight;

typedef struct net_s net_s;
typedef struct {
    net_s *net;
    int idx;
} node_s;

struct net_s {
    kolo_topo topo;
    int n;
    kolo_ni *ni[MAXN];
    uint8_t *mem[MAXN];
    node_s ns[MAXN];
    flight *q[MAXN];
    int qn[MAXN], qcap[MAXN];
    uint64_t now, seq;
    unsigned max_delay, refuse_send_pct, refuse_recv_pct;
    int block_send[MAXN], block_recv[MAXN];
    uint64_t last_due[MAXN][MAXN][2];
    int from[MAXN][2], cap_from; /* packets in the network per source and vnet */
    kolo_model *model;
    int check_hdr;
    uint64_t recv_refused;
    void (*on_send)(int node, const kolo_pkt *p);
    void (*on_deliver)(int node, const kolo_pkt *p); /* before the NI gets it */
    /* end-to-end tests: 1 = the network loses this packet, 2 = it delivers it twice */
    int (*fate)(int node, const kolo_pkt *p);
    int e2e; /* bit 63 may be set (generation) */
    unsigned msi_count[MAXN], msi_vec[MAXN];
};

static net_s N;

static int node_of_id(uint16_t id) { return (int)kolo_node_index(&N.topo, id); }
static uint16_t id_of(int i) { return kolo_node_id_of_index(&N.topo, (unsigned)i); }

static int in_mem(uint64_t addr, size_t len) {
    return addr >= MEM_BASE && len <= MEM_SIZE && addr - MEM_BASE <= MEM_SIZE - len;
}
static int cb_dma_read(void *u, uint64_t addr, void *buf, size_t len) {
    node_s *s = (node_s *)u;
    if (!in_mem(addr, len))
        return -1;
    memcpy(buf, N.mem[s->idx] + (addr - MEM_BASE), len);
    return 0;
}
static int cb_dma_write(void *u, uint64_t addr, const void *buf, size_t len) {
    node_s *s = (node_s *)u;
    if (!in_mem(addr, len))
        return -1;
    memcpy(N.mem[s->idx] + (addr - MEM_BASE), buf, len);
    return 0;
}
static void cb_msi(void *u, unsigned vector) {
    node_s *s = (node_s *)u;
    N.msi_count[s->idx]++;
    N.msi_vec[s->idx] = vector;
}

static void check_sent(int node, const kolo_pkt *p) {
    uint64_t h0 = p->header[0];
    unsigned op = (unsigned)(h0 >> 24) & 15u, vnet = (unsigned)(h0 >> 28) & 1u;
    unsigned len = (unsigned)(h0 >> 29) & 63u;
    CHECK_EQ((h0 >> 12) & 0xfffu, id_of(node), "src field");
    CHECK_EQ(p->src, id_of(node), "kolo_pkt src");
    CHECK_EQ(p->dst, h0 & 0xfffu, "kolo_pkt dst");
    CHECK_EQ(p->len, len, "kolo_pkt len");
    CHECK(len <= 32, "len %u", len);
    CHECK_EQ(p->vnet, vnet, "kolo_pkt vnet");
    CHECK_EQ(p->op, op, "kolo_pkt op");
    CHECK_EQ(p->ordered, (h0 >> 35) & 1u, "kolo_pkt ordered");
    CHECK_EQ(vnet, op == KOLO_OP_ACK || op == KOLO_OP_NAK || op == KOLO_OP_GET_RESP, "vnet of op %u", op);
    CHECK(N.e2e || !(h0 >> 63), "reserved bit 63");
    if (op == KOLO_OP_ACK || op == KOLO_OP_NAK || op == KOLO_OP_GET_RESP)
        CHECK_EQ(p->header[1] >> 56, 0, "responses carry no key");
    if (N.check_hdr) {
        kolo_pkt q;
        memset(&q, 0, sizeof q);
        q.src = p->src;
        q.dst = p->dst;
        q.vnet = p->vnet;
        q.ordered = p->ordered;
        q.op = p->op;
        q.len = p->len;
        CHECK_EQ(kolo_model_make_header(N.model, &q, p->header[1] & KOLO_MODEL_ID_MASK,
                                        (uint8_t)(p->header[1] >> 48), (uint8_t)(p->header[1] >> 56)),
                 KOLO_OK, "make_header");
        CHECK(q.header[0] == (h0 & ((1ull << 59) - 1)), "header 0 %016llx want %016llx",
              (unsigned long long)h0, (unsigned long long)q.header[0]);
        CHECK(q.header[1] == p->header[1], "header 1");
    }
}

static int cb_send(void *u, const kolo_pkt *p) {
    node_s *s = (node_s *)u;
    int src = s->idx, dst;
    uint64_t due;
    unsigned vnet;
    flight *f;
    vnet = (unsigned)(p->header[0] >> 28) & 1u;
    if (N.block_send[src] || N.from[src][vnet] >= N.cap_from ||
        (N.refuse_send_pct && test_rand(100) < N.refuse_send_pct))
        return -1;
    check_sent(src, p);
    if (!kolo_node_in_topo(&N.topo, (uint16_t)(p->header[0] & 0xfffu))) {
        CHECK(0, "packet to a node outside the torus");
        return 0;
    }
    dst = node_of_id((uint16_t)(p->header[0] & 0xfffu));
    {
        int fate = N.fate ? N.fate(src, p) : 0;
        if (fate == 1)
            return 0; /* taken, and lost */
        if (fate == 2) { /* a copy goes first */
            if (N.qn[dst] == N.qcap[dst]) {
                N.qcap[dst] = N.qcap[dst] ? 2 * N.qcap[dst] : 64;
                N.q[dst] = (flight *)realloc(N.q[dst], (size_t)N.qcap[dst] * sizeof(flight));
            }
            f = &N.q[dst][N.qn[dst]++];
            f->p = *p;
            f->due = N.now + 1;
            f->seq = N.seq++;
            f->src = src;
            N.from[src][vnet]++;
        }
    }
    due = N.now + 1 + (N.max_delay ? test_rand(N.max_delay + 1) : 0);
    if ((p->header[0] >> 35) & 1u) { /* ordered: FIFO per (src, dst, vnet) */
        if (due < N.last_due[src][dst][vnet])
            due = N.last_due[src][dst][vnet];
        N.last_due[src][dst][vnet] = due;
    }
    if (N.qn[dst] == N.qcap[dst]) {
        N.qcap[dst] = N.qcap[dst] ? 2 * N.qcap[dst] : 64;
        N.q[dst] = (flight *)realloc(N.q[dst], (size_t)N.qcap[dst] * sizeof(flight));
    }
    f = &N.q[dst][N.qn[dst]++];
    f->p = *p;
    f->due = due;
    f->seq = N.seq++;
    f->src = src;
    N.from[src][vnet]++;
    if (N.on_send)
        N.on_send(src, p);
    return 0;
}

static void net_init(kolo_topo t) {
    int i;
    kolo_ni_env env;
    memset(&N, 0, sizeof N);
    N.topo = t;
    N.n = (int)kolo_topo_nodes(&t);
    N.cap_from = 64;
    N.check_hdr = 1;
    N.model = kolo_model_new(&t, NULL);
    for (i = 0; i < N.n; i++) {
        N.ns[i].net = &N;
        N.ns[i].idx = i;
        N.mem[i] = (uint8_t *)calloc(1, MEM_SIZE);
        memset(&env, 0, sizeof env);
        env.user = &N.ns[i];
        env.dma_read = cb_dma_read;
        env.dma_write = cb_dma_write;
        env.send = cb_send;
        env.msi = cb_msi;
        N.ni[i] = kolo_ni_new(&t, id_of(i), &env);
        CHECK(N.ni[i] != NULL, "kolo_ni_new");
    }
}

static void net_free(void) {
    int i;
    for (i = 0; i < N.n; i++) {
        kolo_ni_free(N.ni[i]);
        free(N.mem[i]);
        free(N.q[i]);
    }
    kolo_model_free(N.model);
    memset(&N, 0, sizeof N);
}

/* deliver due packets: up to 2 per node per cycle, earliest (due, seq) first;
 * a refused packet of a vnet holds that vnet back for the cycle */
static void net_deliver(void) {
    int d, k;
    for (d = 0; d < N.n; d++) {
        int held[2] = {0, 0};
        for (k = 0; k < 2; k++) {
            int i, best = -1;
            unsigned vnet;
            flight f;
            for (i = 0; i < N.qn[d]; i++) {
                flight *g = &N.q[d][i];
                if (g->due > N.now || held[(g->p.header[0] >> 28) & 1u])
                    continue;
                if (best < 0 || g->due < N.q[d][best].due ||
                    (g->due == N.q[d][best].due && g->seq < N.q[d][best].seq))
                    best = i;
            }
            if (best < 0)
                break;
            f = N.q[d][best];
            vnet = (unsigned)(f.p.header[0] >> 28) & 1u;
            if (N.block_recv[d] || (N.refuse_recv_pct && test_rand(100) < N.refuse_recv_pct)) {
                held[vnet] = 1;
                continue;
            }
            if (N.on_deliver)
                N.on_deliver(d, &f.p);
            if (kolo_ni_receive(N.ni[d], &f.p) < 0) {
                N.recv_refused++;
                held[vnet] = 1;
                continue;
            }
            N.q[d][best] = N.q[d][--N.qn[d]];
            N.from[f.src][vnet]--;
        }
    }
}

static void cycle(void) {
    int i;
    N.now++;
    net_deliver();
    for (i = 0; i < N.n; i++)
        kolo_ni_step(N.ni[i]);
}
static void run(int cycles) {
    while (cycles-- > 0)
        cycle();
}
static int quiet(void) {
    int i;
    for (i = 0; i < N.n; i++)
        if (N.qn[i] || !kolo_ni_idle(N.ni[i]))
            return 0;
    return 1;
}
static int run_quiet(int max) {
    while (max-- > 0) {
        if (quiet())
            return 1;
        cycle();
    }
    return quiet();
}

/* ---- host side ------------------------------------------------------------------- */
static void w64(int node, uint64_t off, uint64_t v) { test_ni_write(N.ni[node], off, v, 8); }
static void w32(int node, uint64_t off, uint32_t v) { test_ni_write(N.ni[node], off, v, 4); }
static uint64_t r64(int node, uint64_t off) {
    uint64_t v = 0;
    CHECK_EQ(kolo_ni_mmio_read(N.ni[node], 0, off, 8, &v), 0, "read %llx", (unsigned long long)off);
    return v;
}
static uint32_t r32(int node, uint64_t off) {
    uint64_t v = 0;
    CHECK_EQ(kolo_ni_mmio_read(N.ni[node], 0, off, 4, &v), 0, "read %llx", (unsigned long long)off);
    return (uint32_t)v;
}
static uint32_t err_csr(int node) { return r32(node, KOLO_CSR_ERR_CSR); }
static uint64_t stat(int node, unsigned reg) { return r64(node, reg); }

static void win_set(int node, unsigned w, uint64_t base, uint64_t len, unsigned key, uint32_t rights,
                    unsigned owner) {
    w64(node, KOLO_CSR_WIN(w) + KOLO_WIN_BASE, base);
    w64(node, KOLO_CSR_WIN(w) + KOLO_WIN_LEN, len);
    w64(node, KOLO_CSR_WIN(w) + KOLO_WIN_CTRL,
        (key & 0xffu) | rights | KOLO_WIN_ENABLE | (uint64_t)(owner & 15u) << 16);
}

typedef struct {
    int node, c;
    uint64_t sq, cq; /* host addresses */
    unsigned sq_n, cq_n;
    uint16_t pi, cq_next;
} hq;

static void ctx_config(int node, int c, uint64_t sq, uint64_t cq, uint64_t sizes, uint64_t ctrl) {
    w64(node, KOLO_CSR_CTX(c) + KOLO_CTX_SQ_BASE, sq);
    w64(node, KOLO_CSR_CTX(c) + KOLO_CTX_CQ_BASE, cq);
    w64(node, KOLO_CSR_CTX(c) + KOLO_CTX_SIZES, sizes);
    w64(node, KOLO_CSR_CTX(c) + KOLO_CTX_CTRL, ctrl);
}

static void hq_open_ctrl(hq *q, int node, int c, unsigned sqlog, unsigned cqlog, uint64_t ctrl) {
    memset(q, 0, sizeof *q);
    q->node = node;
    q->c = c;
    q->sq = A(CTX_AREA(c));
    q->cq = A(CTX_AREA(c) + 0x800);
    q->sq_n = 1u << sqlog;
    q->cq_n = 1u << cqlog;
    memset(N.mem[node] + CTX_AREA(c), 0, 0x1000);
    ctx_config(node, c, q->sq, q->cq, sqlog | cqlog << 8, ctrl | 1u);
    CHECK_EQ(r64(node, KOLO_CSR_CTX(c) + KOLO_CTX_STATUS), 1, "context enabled");
}
static void hq_open(hq *q, int node, int c, unsigned sqlog, unsigned cqlog) {
    hq_open_ctrl(q, node, c, sqlog, cqlog, 0);
}

static uint64_t ctx_status(const hq *q) { return r64(q->node, KOLO_CSR_DOORBELL(q->c) + KOLO_DB_STATUS); }
static uint64_t ctx_outstanding(const hq *q) {
    return r64(q->node, KOLO_CSR_DOORBELL(q->c) + KOLO_DB_OUTSTANDING);
}

/* write a descriptor into the SQ (no doorbell) */
static void hq_put_desc(hq *q, const kolo_desc *d) {
    uint8_t b[32];
    kolo_desc_pack(d, b);
    memcpy(N.mem[q->node] + (q->sq - MEM_BASE) + 32u * (q->pi % q->sq_n), b, 32);
    q->pi++;
}
static void hq_ring(hq *q) { w32(q->node, KOLO_CSR_DOORBELL(q->c) + KOLO_DB_SQ_PI, q->pi); }
static void hq_post(hq *q, const kolo_desc *d) {
    hq_put_desc(q, d);
    hq_ring(q);
}

/* read the next completion entry if its phase says it is new */
static int hq_peek(hq *q, kolo_cqe *e) {
    kolo_cqe_unpack(N.mem[q->node] + (q->cq - MEM_BASE) + 16u * (q->cq_next % q->cq_n), e);
    return (e->phase & 1u) == (((unsigned)q->cq_next / q->cq_n) & 1u ? 0u : 1u);
}
static int hq_poll(hq *q, kolo_cqe *e, int release) {
    if (!hq_peek(q, e))
        return 0;
    CHECK_EQ(e->phase >> 1, 0, "completion bits 63:33 zero");
    q->cq_next++;
    if (release)
        w32(q->node, KOLO_CSR_DOORBELL(q->c) + KOLO_DB_CQ_CI, q->cq_next);
    return 1;
}
/* run until a completion arrives; 0 on timeout */
static int hq_wait(hq *q, kolo_cqe *e, int max) {
    while (max-- > 0) {
        if (hq_poll(q, e, 1))
            return 1;
        cycle();
    }
    return hq_poll(q, e, 1);
}

static kolo_desc D(unsigned op, unsigned flags, int dst_node, uint32_t len, uint64_t raddr,
                   unsigned key, uint64_t w2, uint64_t w3) {
    kolo_desc d;
    d.op = (uint8_t)op;
    d.flags = (uint8_t)flags;
    d.dst = dst_node < 0 ? 0 : id_of(dst_node);
    d.len = len;
    d.raddr_key = (raddr & 0xffffffffffffull) | (uint64_t)(key & 0xffu) << 48;
    d.w2 = w2;
    d.w3 = w3;
    return d;
}

/* post one descriptor and wait for its completion; returns its status (or -1) */
static int exec1(hq *q, kolo_desc d, kolo_cqe *out) {
    kolo_cqe e;
    uint16_t slot = (uint16_t)(q->pi % q->sq_n);
    d.flags |= KOLO_DF_COMPLETE;
    hq_post(q, &d);
    if (!hq_wait(q, &e, 20000)) {
        CHECK(0, "no completion for op %u", d.op);
        return -1;
    }
    CHECK_EQ(e.index, slot, "completion index");
    CHECK_EQ(e.op, d.op, "completion op");
    if (out)
        *out = e;
    return e.status;
}

static void fill_rand(uint8_t *b, size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        b[i] = (uint8_t)test_rand64();
}

static int mem_eq(int node, const uint8_t *want, const char *what) {
    size_t i;
    for (i = 0; i < MEM_SIZE; i++)
        if (N.mem[node][i] != want[i]) {
            CHECK(0, "%s: node %d memory differs at offset 0x%zx (got %02x want %02x)", what, node, i,
                  N.mem[node][i], want[i]);
            return 0;
        }
    return 1;
}

/* ---- directed tests ---------------------------------------------------------------- */
static const kolo_topo T222 = {{2, 2, 2}};
static const kolo_topo T421 = {{4, 2, 1}};

/* standard setup: node 1 is the target with window 1 over DST (RW+atomic), key 0x51 */
#define KEY1 0x51u
static void std_windows(int node) {
    win_set(node, 1, A(DST_OFF), DST_LEN, KEY1, KOLO_WIN_READ | KOLO_WIN_WRITE | KOLO_WIN_ATOMIC, 0);
}

static void test_registers(void) {
    uint64_t v;
    uint32_t e;
    uint8_t big[64];
    net_init(T421);
    CHECK_EQ(r32(0, KOLO_CSR_ID), KOLO_NI_ID, "ID");
    CHECK_EQ(r32(0, KOLO_CSR_VERSION), KOLO_NI_VERSION, "VERSION");
    CHECK_EQ(r64(0, KOLO_CSR_ID), KOLO_NI_ID | (uint64_t)KOLO_NI_VERSION << 32, "8-byte read of two");
    CHECK_EQ(r32(5, KOLO_CSR_NODE_ID), id_of(5), "NODE_ID");
    CHECK_EQ(r32(0, KOLO_CSR_TORUS), 3u | 1u << 4 | 0u << 8, "TORUS");
    CHECK_EQ(r32(0, KOLO_CSR_NUM_CTX), KOLO_NI_NUM_CTX, "NUM_CTX");
    CHECK_EQ(err_csr(0), 0, "no errors yet");
    /* RO writes, unmapped writes: counted, no effect */
    w32(0, KOLO_CSR_ID, 0);
    w32(0, KOLO_CSR_NODE_ID, 7);
    w64(0, KOLO_CSR_STAT_TX_PKTS, 5);
    w64(0, KOLO_CSR_CTX(2) + KOLO_CTX_STATUS, 5);
    w64(0, KOLO_CSR_CTX(2) + KOLO_CTX_OUTSTANDING, 5);
    w64(0, KOLO_CSR_DOORBELL(2) + KOLO_DB_STATUS, 5);
    w32(0, 0x100, 1);
    w32(0, 0x1c, 1);
    w32(0, KOLO_CSR_DOORBELL(3) + 0x20, 1);
    CHECK_EQ(err_csr(0), 9, "refused writes counted");
    CHECK_EQ(r32(0, KOLO_CSR_ID), KOLO_NI_ID, "ID unchanged");
    CHECK_EQ(r32(0, KOLO_CSR_NODE_ID), id_of(0), "NODE_ID unchanged");
    CHECK_EQ(r64(0, KOLO_CSR_STAT_TX_PKTS), 0, "stat unchanged");
    /* unmapped reads: 0, not counted */
    CHECK_EQ(r64(0, 0x100), 0, "unmapped");
    CHECK_EQ(r32(0, 0x1c), 0, "unmapped");
    CHECK_EQ(r64(0, KOLO_CSR_CTX(3) + 0x30), 0, "unmapped ctx");
    CHECK_EQ(r64(0, KOLO_CSR_WIN(3) + 0x18), 0, "unmapped win");
    CHECK_EQ(r64(0, KOLO_BAR0_SIZE + 0x100), 0, "beyond BAR0");
    CHECK_EQ(err_csr(0), 9, "unmapped reads not counted");
    /* bad sizes, misaligned, BAR2 reads: -1 and counted */
    CHECK_EQ(kolo_ni_mmio_read(N.ni[0], 0, 0, 2, &v), -1, "size 2");
    CHECK_EQ(kolo_ni_mmio_read(N.ni[0], 0, 0, 16, &v), -1, "size 16");
    CHECK_EQ(kolo_ni_mmio_read(N.ni[0], 0, 4, 8, &v), -1, "misaligned 8");
    CHECK_EQ(kolo_ni_mmio_read(N.ni[0], 0, 2, 4, &v), -1, "misaligned 4");
    CHECK_EQ(kolo_ni_mmio_read(N.ni[0], 2, 0, 8, &v), -1, "BAR2 read");
    CHECK_EQ(kolo_ni_mmio_read(N.ni[0], 1, 0, 8, &v), -1, "BAR1 read");
    memset(big, 0, sizeof big);
    kolo_ni_mmio_write(N.ni[0], 0, KOLO_CSR_CTX(0), big, 2);
    kolo_ni_mmio_write(N.ni[0], 0, KOLO_CSR_CTX(0) + 4, big, 8);
    kolo_ni_mmio_write(N.ni[0], 0, KOLO_CSR_CTX(0), big, 64);
    CHECK_EQ(err_csr(0), 9 + 6 + 3, "bad sizes counted");
    /* write-only doorbell registers: reads return 0 and count */
    e = err_csr(0);
    CHECK_EQ(r32(0, KOLO_CSR_DOORBELL(1) + KOLO_DB_SQ_PI), 0, "SQ_PI read");
    CHECK_EQ(r32(0, KOLO_CSR_DOORBELL(1) + KOLO_DB_CQ_CI), 0, "CQ_CI read");
    CHECK_EQ(err_csr(0), e + 2, "write-only reads counted");
    /* CYCLES: kolo_ni_step calls (reads do not step), read-only, 8 bytes */
    {
        uint64_t c0 = r64(0, KOLO_CSR_CYCLES);
        CHECK_EQ(r64(0, KOLO_CSR_CYCLES), c0, "CYCLES: reads do not step");
        run(37);
        CHECK_EQ(r64(0, KOLO_CSR_CYCLES), c0 + 37, "CYCLES: one per kolo_ni_step");
        CHECK_EQ(r32(0, KOLO_CSR_CYCLES), (uint32_t)(c0 + 37), "CYCLES low half");
        CHECK_EQ(r32(0, KOLO_CSR_CYCLES + 4), (c0 + 37) >> 32, "CYCLES high half");
        e = err_csr(0);
        w64(0, KOLO_CSR_CYCLES, 0);
        w32(0, KOLO_CSR_CYCLES + 4, 0);
        CHECK_EQ(err_csr(0), e + 2, "CYCLES writes refused, one count each");
        CHECK_EQ(r64(0, KOLO_CSR_CYCLES), c0 + 37, "CYCLES unchanged by the writes");
    }
    /* 64-bit registers by halves */
    w32(0, KOLO_CSR_CTX(4) + KOLO_CTX_SQ_BASE, 0x89abcde0u);
    w32(0, KOLO_CSR_CTX(4) + KOLO_CTX_SQ_BASE + 4, 0x01234567u);
    CHECK(r64(0, KOLO_CSR_CTX(4) + KOLO_CTX_SQ_BASE) == 0x0123456789abcde0ull, "halves");
    CHECK_EQ(r32(0, KOLO_CSR_CTX(4) + KOLO_CTX_SQ_BASE + 4), 0x01234567u, "upper half read");
    w64(0, KOLO_CSR_WIN(7) + KOLO_WIN_LEN, 0x123456789ull);
    CHECK(r64(0, KOLO_CSR_WIN(7) + KOLO_WIN_LEN) == 0x123456789ull, "window LEN");
    /* routing table: default entries, read/write */
    {
        kolo_route_entry tab[KOLO_MAX_NODES];
        unsigned i;
        kolo_table_default(&N.topo, id_of(3), tab);
        for (i = 0; i < 8; i++)
            CHECK_EQ(r32(3, KOLO_CSR_ROUTE(i)), tab[i], "default route entry %u", i);
        w32(3, KOLO_CSR_ROUTE(4095), 0xdeadbeefu);
        CHECK_EQ(r32(3, KOLO_CSR_ROUTE(4095)), 0xdeadbeefu, "route entry rw");
        w64(3, KOLO_CSR_ROUTE(6), 0x1111111122222222ull); /* two entries at once */
        CHECK_EQ(r32(3, KOLO_CSR_ROUTE(6)), 0x22222222u, "route 6");
        CHECK_EQ(r32(3, KOLO_CSR_ROUTE(7)), 0x11111111u, "route 7");
    }
    /* BAR2 writes that are not one whole chunk at offset 0 of a page */
    e = err_csr(0);
    kolo_ni_mmio_write(N.ni[0], 2, 0, big, 32);
    kolo_ni_mmio_write(N.ni[0], 2, 64, big, 64);
    kolo_ni_mmio_write(N.ni[0], 2, KOLO_BAR2_SIZE, big, 64);
    kolo_ni_mmio_write(N.ni[0], 2, 0, big, 64); /* context 0 disabled */
    CHECK_EQ(err_csr(0), e + 4, "bad PIO writes counted");
    CHECK_EQ(r64(0, KOLO_CSR_STAT_TX_PKTS), 0, "nothing sent");
    CHECK(kolo_ni_idle(N.ni[0]), "idle");
    net_free();
}

static void test_config(void) {
    struct {
        uint64_t sq, cq, sizes;
    } bad[] = {
        {A(0), A(0x800), 0x0000},      /* SQ log2 0 */
        {A(0), A(0x800), 0x1010},      /* SQ 16 */
        {A(0), A(0x800), 0x0305},      /* CQ < SQ */
        {A(0), A(0x800), 0x1005},      /* CQ 16 */
        {A(0), A(0x800), 0x10505},     /* reserved bits */
        {A(0) + 16, A(0x800), 0x0303}, /* SQ base not 32-aligned */
        {A(0), A(0x800) + 8, 0x0303},  /* CQ base not 16-aligned */
        {~0ull - 31, A(0x800), 0x0303}, /* SQ wraps the address space */
    };
    unsigned i;
    uint32_t e;
    net_init(T421);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ctx_config(0, 2, bad[i].sq, bad[i].cq, bad[i].sizes, 1);
        CHECK_EQ(r64(0, KOLO_CSR_CTX(2) + KOLO_CTX_STATUS), 2u | KOLO_ST_BAD_CONFIG << 8,
                 "bad config %u refused", i);
        CHECK_EQ(r64(0, KOLO_CSR_CTX(2) + KOLO_CTX_CTRL) & 1u, 0, "stays off");
        /* a doorbell of a context that is off is refused */
        e = err_csr(0);
        w32(0, KOLO_CSR_DOORBELL(2) + KOLO_DB_SQ_PI, 1);
        CHECK_EQ(err_csr(0), e + 1, "doorbell of a disabled context");
        run(20);
        CHECK_EQ(r64(0, KOLO_CSR_STAT_TX_PKTS), 0, "nothing sent");
    }
    /* good configuration: error cleared */
    ctx_config(0, 2, A(0x2000), A(0x2800), 0x0403, 1 | 2u | 7u << 16);
    CHECK_EQ(r64(0, KOLO_CSR_CTX(2) + KOLO_CTX_STATUS), 1, "enabled, error cleared");
    CHECK_EQ(r64(0, KOLO_CSR_DOORBELL(2) + KOLO_DB_STATUS), 1, "doorbell-page STATUS copy");
    CHECK_EQ(r64(0, KOLO_CSR_CTX(2) + KOLO_CTX_CTRL), 1 | 2u | 7u << 16, "CTRL read back");
    /* config writes while enabled: refused, counted, unchanged */
    e = err_csr(0);
    w64(0, KOLO_CSR_CTX(2) + KOLO_CTX_SQ_BASE, A(0x3000));
    w64(0, KOLO_CSR_CTX(2) + KOLO_CTX_CQ_BASE, A(0x3000));
    w64(0, KOLO_CSR_CTX(2) + KOLO_CTX_SIZES, 0x0101);
    w64(0, KOLO_CSR_CTX(2) + KOLO_CTX_CTRL, 3); /* enable again */
    CHECK_EQ(err_csr(0), e + 4, "config writes while enabled refused");
    CHECK(r64(0, KOLO_CSR_CTX(2) + KOLO_CTX_SQ_BASE) == A(0x2000), "SQ_BASE unchanged");
    CHECK_EQ(r64(0, KOLO_CSR_CTX(2) + KOLO_CTX_SIZES), 0x0403, "SIZES unchanged");
    /* another context can be configured meanwhile */
    ctx_config(0, 3, A(0x3000), A(0x3800), 0x0101, 1);
    CHECK_EQ(r64(0, KOLO_CSR_CTX(3) + KOLO_CTX_STATUS), 1, "ctx 3 enabled");
    CHECK_EQ(err_csr(0), e + 4, "no more errors");
    /* disable */
    w64(0, KOLO_CSR_CTX(2) + KOLO_CTX_CTRL, 0);
    CHECK_EQ(r64(0, KOLO_CSR_CTX(2) + KOLO_CTX_STATUS), 0, "disabled");
    w64(0, KOLO_CSR_CTX(2) + KOLO_CTX_SIZES, 0x0101);
    CHECK_EQ(r64(0, KOLO_CSR_CTX(2) + KOLO_CTX_SIZES), 0x0101, "writable again");
    CHECK_EQ(err_csr(0), e + 4, "no more errors");
    net_free();
}

/* packets of the op under test, seen on send */
static struct {
    int count, node;
    uint64_t addr[600];
    unsigned bytes[600], op[600], fetch[600], asize[600], ordered[600];
} tap;
static void tap_send(int node, const kolo_pkt *p) {
    unsigned op = (unsigned)(p->header[0] >> 24) & 15u;
    if (node != tap.node || p->vnet || tap.count >= 600)
        return;
    tap.addr[tap.count] = p->header[1] & 0xffffffffffffull;
    tap.op[tap.count] = op;
    tap.bytes[tap.count] = op == KOLO_OP_PUT ? (p->len - 1u) * 8u + (unsigned)KOLO_H0_LASTB(p->header[0]) + 1u
                           : op == KOLO_OP_GET_REQ ? (unsigned)(p->payload[0] & 0x1ffu)
                                                   : 0u;
    tap.fetch[tap.count] = (p->header[0] & KOLO_H0_FETCH) != 0;
    tap.asize[tap.count] = (unsigned)KOLO_H0_ASIZE(p->header[0]);
    tap.ordered[tap.count] = p->ordered;
    tap.count++;
}
static void tap_reset(int node) {
    memset(&tap, 0, sizeof tap);
    tap.node = node;
}

/* packets a PUT/GET of len bytes at raddr is cut into; checks the tap */
static void check_cuts(uint64_t raddr, uint32_t len, unsigned want_op) {
    uint64_t a = raddr, end = raddr + len;
    int i = 0;
    while (a < end) {
        uint64_t next = (a | 255u) + 1;
        unsigned n = (unsigned)((next < end ? next : end) - a);
        if (i >= tap.count) {
            CHECK(0, "missing packet %d", i);
            return;
        }
        CHECK_EQ(tap.op[i], want_op, "packet op");
        CHECK(tap.addr[i] == a, "packet %d addr %llx want %llx", i, (unsigned long long)tap.addr[i],
              (unsigned long long)a);
        CHECK_EQ(tap.bytes[i], n, "packet %d bytes", i);
        a += n;
        i++;
    }
    CHECK_EQ(tap.count, i, "packet count");
}

static void test_put_get(void) {
    static const uint32_t lens[] = {1, 2, 7, 8, 9, 255, 256, 257, 511, 600, 4096, 5000};
    static const unsigned offs[] = {0, 1, 7, 8, 250, 255, 256, 1000};
    uint8_t *want = (uint8_t *)malloc(MEM_SIZE);
    hq q;
    unsigned i, j;
    net_init(T222);
    N.max_delay = 6;
    N.on_send = tap_send;
    std_windows(6);
    hq_open(&q, 0, 5, 3, 4);
    fill_rand(N.mem[0] + SRC_OFF, 0x8000);
    fill_rand(N.mem[6] + DST_OFF, DST_LEN);
    for (i = 0; i < sizeof lens / sizeof lens[0]; i++)
        for (j = 0; j < sizeof offs / sizeof offs[0]; j++) {
            uint32_t len = lens[i];
            uint64_t raddr = A(DST_OFF + 0x100 * i + offs[j]);
            uint64_t laddr = A(SRC_OFF + 3 * j);
            /* PUT */
            memcpy(want, N.mem[6], MEM_SIZE);
            memcpy(want + (raddr - MEM_BASE), N.mem[0] + (laddr - MEM_BASE), len);
            tap_reset(0);
            CHECK_EQ(exec1(&q, D(KOLO_D_PUT, 0, 6, len, raddr, KEY1, laddr, 0), NULL), 0,
                     "PUT len %u off %u", len, offs[j]);
            mem_eq(6, want, "PUT");
            check_cuts(raddr, len, KOLO_OP_PUT);
            /* GET it back into a fresh landing zone, surrounded by guards */
            memcpy(want, N.mem[0], MEM_SIZE);
            laddr = A(SRC_OFF + 0x8000 + 5 * j);
            memcpy(want + (laddr - MEM_BASE), N.mem[6] + (raddr - MEM_BASE), len);
            tap_reset(0);
            CHECK_EQ(exec1(&q, D(KOLO_D_GET, 0, 6, len, raddr, KEY1, laddr, 0), NULL), 0,
                     "GET len %u off %u", len, offs[j]);
            /* the CQ and SQ changed too: compare outside the context area */
            memcpy(want + CTX_AREA(5), N.mem[0] + CTX_AREA(5), 0x1000);
            mem_eq(0, want, "GET");
            check_cuts(raddr, len, KOLO_OP_GET_REQ);
        }
    CHECK(run_quiet(1000), "quiet");
    CHECK_EQ(stat(6, KOLO_CSR_STAT_NAK_SENT), 0, "no NAKs");
    CHECK_EQ(stat(6, KOLO_CSR_STAT_BAD_PKTS) + stat(0, KOLO_CSR_STAT_BAD_PKTS), 0, "no bad packets");
    CHECK_EQ(stat(0, KOLO_CSR_STAT_TX_PKTS), stat(6, KOLO_CSR_STAT_RX_PKTS), "tx = rx");
    CHECK_EQ(stat(6, KOLO_CSR_STAT_TX_PKTS), stat(0, KOLO_CSR_STAT_RX_PKTS), "responses");
    /* a node can target itself */
    std_windows(0);
    memcpy(want, N.mem[0], MEM_SIZE);
    memcpy(want + DST_OFF + 17, N.mem[0] + SRC_OFF, 700);
    CHECK_EQ(exec1(&q, D(KOLO_D_PUT, 0, 0, 700, A(DST_OFF + 17), KEY1, A(SRC_OFF), 0), NULL), 0, "loopback");
    memcpy(want + CTX_AREA(5), N.mem[0] + CTX_AREA(5), 0x1000);
    mem_eq(0, want, "loopback PUT");
    free(want);
    net_free();
}

static void test_inline(void) {
    uint8_t *want = (uint8_t *)malloc(MEM_SIZE);
    hq q;
    unsigned len;
    net_init(T421);
    std_windows(3);
    hq_open(&q, 0, 0, 2, 2);
    for (len = 1; len <= 16; len++) {
        uint64_t w2 = test_rand64(), w3 = test_rand64(), raddr = A(DST_OFF + 256 - len / 2);
        uint8_t in[16];
        int k;
        for (k = 0; k < 8; k++) {
            in[k] = (uint8_t)(w2 >> (8 * k));
            in[k + 8] = (uint8_t)(w3 >> (8 * k));
        }
        memcpy(want, N.mem[3], MEM_SIZE);
        memcpy(want + (raddr - MEM_BASE), in, len);
        tap_reset(0);
        N.on_send = tap_send;
        CHECK_EQ(exec1(&q, D(KOLO_D_PUT, KOLO_DF_INLINE, 3, len, raddr, KEY1, w2, w3), NULL), 0,
                 "inline %u", len);
        mem_eq(3, want, "inline PUT");
        check_cuts(raddr, len, KOLO_OP_PUT); /* crosses a 256-byte boundary: 2 packets */
    }
    CHECK_EQ(exec1(&q, D(KOLO_D_PUT, KOLO_DF_INLINE, 3, 17, A(DST_OFF), KEY1, 0, 0), NULL),
             KOLO_ST_BAD_LEN, "inline 17");
    mem_eq(3, want, "nothing written");
    free(want);
    net_free();
}

/* expected result of one atomic on a value of `bytes` bytes */
static uint64_t atomic_apply(unsigned op, uint64_t old, uint64_t opnd, uint64_t cmp, unsigned bytes) {
    uint64_t m = bytes == 4 ? 0xffffffffull : ~0ull, v;
    old &= m;
    opnd &= m;
    switch (op) {
    case KOLO_D_ADD:
    case KOLO_D_FETCH_ADD: v = old + opnd; break;
    case KOLO_D_XOR:
    case KOLO_D_FETCH_XOR: v = old ^ opnd; break;
    case KOLO_D_SWAP: v = opnd; break;
    case KOLO_D_CSWAP: v = old == (cmp & m) ? opnd : old; break;
    case KOLO_D_FETCH_AND:
    case KOLO_D_AND: v = old & opnd; break;
    default: v = old | opnd; break;
    }
    return v & m;
}
static int is_fetch(unsigned op) {
    return op == KOLO_D_FETCH_ADD || op == KOLO_D_FETCH_XOR || op == KOLO_D_SWAP || op == KOLO_D_CSWAP ||
           op == KOLO_D_FETCH_AND || op == KOLO_D_FETCH_OR;
}
static const unsigned wire_op[13] = {0, 0, 1, 3, 4, 5, 6, 7, 8, 12, 13, 12, 13};

static uint64_t rd_le(const uint8_t *b, unsigned n) {
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < n; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}
static void wr_le(uint8_t *b, uint64_t v, unsigned n) {
    unsigned i;
    for (i = 0; i < n; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static void test_atomics(void) {
    uint8_t *want = (uint8_t *)malloc(MEM_SIZE);
    hq q;
    unsigned op, sz, rep;
    net_init(T222);
    N.on_send = tap_send;
    std_windows(7);
    hq_open(&q, 0, 9, 2, 3);
    fill_rand(N.mem[7] + DST_OFF, 0x1000);
    for (op = KOLO_D_ADD; op <= KOLO_D_OR; op++)
        for (sz = 4; sz <= 8; sz += 4)
            for (rep = 0; rep < 4; rep++) {
                uint64_t off = DST_OFF + 64 * (op * 2 + sz / 4) + (sz == 4 ? 4u * test_rand(8) : 8u * test_rand(4));
                uint64_t old, opnd = test_rand64(), cmp, nv;
                kolo_cqe e;
                if (rep == 3)
                    wr_le(N.mem[7] + off, 0, sz);
                old = rd_le(N.mem[7] + off, sz);
                /* CSWAP hits on odd reps; a 4-byte compare's upper bits are ignored */
                cmp = rep & 1 ? old | (sz == 4 ? test_rand64() << 32 : 0) : test_rand64();
                nv = atomic_apply(op, old, opnd, cmp, sz);
                memcpy(want, N.mem[7], MEM_SIZE);
                wr_le(want + off, nv, sz);
                tap_reset(0);
                CHECK_EQ(exec1(&q, D(op, sz == 4 ? KOLO_DF_SIZE32 : 0, 7, 0, A(off), KEY1, opnd, cmp), &e), 0,
                         "atomic %u size %u", op, sz);
                mem_eq(7, want, "atomic");
                CHECK(e.result == (is_fetch(op) ? old : 0), "op %u size %u result %llx want %llx", op, sz,
                      (unsigned long long)e.result, (unsigned long long)old);
                CHECK_EQ(tap.count, 1, "one packet");
                CHECK_EQ(tap.op[0], wire_op[op], "wire op of %u", op);
                CHECK_EQ(tap.fetch[0], is_fetch(op), "fetch bit of %u", op);
                CHECK_EQ(tap.asize[0], sz == 4 ? 2 : 3, "asize");
            }
    CHECK_EQ(stat(7, KOLO_CSR_STAT_NAK_SENT), 0, "no NAKs");
    free(want);
    net_free();
}

/* PIO: descriptor + payload in one 64-byte write */
static void pio(int node, int c, const kolo_desc *d, const uint8_t *payload) {
    uint8_t b[64];
    memset(b, 0, sizeof b);
    kolo_desc_pack(d, b);
    if (payload)
        memcpy(b + 32, payload, 32);
    kolo_ni_mmio_write(N.ni[node], 2, KOLO_PIO_PAGE(c), b, 64);
}

static void test_pio(void) {
    uint8_t *want = (uint8_t *)malloc(MEM_SIZE);
    uint8_t pay[32];
    hq q;
    kolo_cqe e;
    kolo_desc d;
    unsigned len, i;
    uint32_t err;
    net_init(T421);
    std_windows(2);
    hq_open(&q, 0, 3, 2, 3);
    fill_rand(N.mem[2] + DST_OFF, 0x1000);
    for (len = 1; len <= 32; len += 31 > len ? 5 : 1) {
        uint64_t raddr = A(DST_OFF + 0x100 + 3 * len);
        fill_rand(pay, 32);
        memcpy(want, N.mem[2], MEM_SIZE);
        memcpy(want + (raddr - MEM_BASE), pay, len);
        /* INLINE flag and bytes 16..31 are ignored for a PIO PUT */
        d = D(KOLO_D_PUT, KOLO_DF_COMPLETE | KOLO_DF_INLINE, 2, len, raddr, KEY1, test_rand64(), test_rand64());
        pio(0, 3, &d, pay);
        CHECK(hq_wait(&q, &e, 2000), "PIO completion");
        CHECK_EQ(e.index, 0xffff, "PIO index");
        CHECK_EQ(e.status, 0, "PIO status");
        CHECK_EQ(e.op, KOLO_D_PUT, "PIO op");
        mem_eq(2, want, "PIO PUT");
    }
    /* PUT of 33 bytes by PIO: BAD_LEN, completion even without COMPLETE */
    d = D(KOLO_D_PUT, 0, 2, 33, A(DST_OFF), KEY1, 0, 0);
    pio(0, 3, &d, pay);
    CHECK(hq_wait(&q, &e, 2000), "PIO error completion");
    CHECK_EQ(e.status, KOLO_ST_BAD_LEN, "PIO PUT 33");
    CHECK_EQ(e.index, 0xffff, "PIO index");
    /* PIO PUT without COMPLETE: no entry */
    d = D(KOLO_D_PUT, 0, 2, 8, A(DST_OFF), KEY1, 0, 0);
    pio(0, 3, &d, pay);
    CHECK(run_quiet(2000), "quiet");
    CHECK(!hq_peek(&q, &e), "no completion without COMPLETE");
    CHECK(rd_le(N.mem[2] + DST_OFF, 8) == rd_le(pay, 8), "written");
    /* PIO atomic: operand in bytes 16..23 */
    wr_le(N.mem[2] + DST_OFF + 8, 1000, 8);
    d = D(KOLO_D_FETCH_ADD, KOLO_DF_COMPLETE, 2, 0, A(DST_OFF + 8), KEY1, 234, 0);
    pio(0, 3, &d, NULL);
    CHECK(hq_wait(&q, &e, 2000), "PIO atomic completion");
    CHECK_EQ(e.result, 1000, "PIO fetch-add result");
    CHECK_EQ(rd_le(N.mem[2] + DST_OFF + 8, 8), 1234, "PIO fetch-add");
    /* PIO GET: data lands at laddr */
    d = D(KOLO_D_GET, KOLO_DF_COMPLETE, 2, 100, A(DST_OFF + 0x200), KEY1, A(SRC_OFF), 0);
    pio(0, 3, &d, NULL);
    CHECK(hq_wait(&q, &e, 2000), "PIO GET completion");
    CHECK(!memcmp(N.mem[0] + SRC_OFF, N.mem[2] + DST_OFF + 0x200, 100), "PIO GET data");
    /* a PIO write is held back (write_ready 0) when the context's PIO slots are full */
    CHECK(run_quiet(2000), "quiet");
    err = err_csr(0);
    d = D(KOLO_D_NOP, KOLO_DF_COMPLETE, -1, 0, 0, 0, 0, 0);
    for (i = 0; i < KOLO_NI_PIO_DEPTH; i++) {
        CHECK(kolo_ni_mmio_write_ready(N.ni[0], 2, KOLO_PIO_PAGE(3)), "ready %u", i);
        pio(0, 3, &d, NULL);
    }
    CHECK(!kolo_ni_mmio_write_ready(N.ni[0], 2, KOLO_PIO_PAGE(3)), "full");
    CHECK(kolo_ni_mmio_write_ready(N.ni[0], 2, KOLO_PIO_PAGE(4)), "other context not full");
    CHECK(kolo_ni_mmio_write_ready(N.ni[0], 0, 0), "BAR0 always ready");
    pio(0, 3, &d, NULL); /* written anyway: dropped, counted */
    CHECK_EQ(err_csr(0), err + 1, "PIO overflow counted");
    CHECK_EQ(ctx_outstanding(&q), KOLO_NI_PIO_DEPTH, "PIO ops counted in OUTSTANDING");
    for (i = 0; i < KOLO_NI_PIO_DEPTH; i++) {
        CHECK(hq_wait(&q, &e, 100), "NOP %u", i);
        CHECK_EQ(e.op, KOLO_D_NOP, "NOP");
        CHECK_EQ(e.index, 0xffff, "NOP index");
    }
    CHECK(!hq_wait(&q, &e, 100), "the dropped one did nothing");
    CHECK_EQ(ctx_outstanding(&q), 0, "OUTSTANDING 0");
    free(want);
    net_free();
}

/* errors found at the initiator: the queue keeps going, nothing is sent */
static void test_local_errors(void) {
    struct {
        kolo_desc d;
        int status;
        const char *what;
    } c[40];
    int n = 0, i;
    uint64_t tx;
    hq q;
    kolo_desc d;
    net_init(T421);
    std_windows(1);
#define ADD_CASE(desc, st, w)                                                                      \
    do {                                                                                           \
        c[n].d = (desc);                                                                           \
        c[n].status = (st);                                                                        \
        c[n].what = (w);                                                                           \
        n++;                                                                                       \
    } while (0)
    ADD_CASE(D(13, 0, 1, 8, A(DST_OFF), KEY1, A(SRC_OFF), 0), KOLO_ST_BAD_OP, "op 13");
    ADD_CASE(D(255, 0, 1, 8, A(DST_OFF), KEY1, A(SRC_OFF), 0), KOLO_ST_BAD_OP, "op 255");
    ADD_CASE(D(KOLO_D_PUT, 0x20, 1, 8, A(DST_OFF), KEY1, A(SRC_OFF), 0), KOLO_ST_BAD_OP, "flag bit 5");
    ADD_CASE(D(KOLO_D_PUT, 0x80, 1, 8, A(DST_OFF), KEY1, A(SRC_OFF), 0), KOLO_ST_BAD_OP, "flag bit 7");
    d = D(KOLO_D_PUT, 0, 1, 8, A(DST_OFF), KEY1, A(SRC_OFF), 0);
    d.dst |= 0x1000;
    ADD_CASE(d, KOLO_ST_BAD_OP, "bits 31:28");
    d = D(KOLO_D_PUT, 0, 1, 8, A(DST_OFF), KEY1, A(SRC_OFF), 0);
    d.raddr_key |= 1ull << 60;
    ADD_CASE(d, KOLO_ST_BAD_OP, "bits 127:120");
    ADD_CASE(D(KOLO_D_GET, KOLO_DF_INLINE, 1, 8, A(DST_OFF), KEY1, A(SRC_OFF), 0), KOLO_ST_BAD_OP, "INLINE GET");
    ADD_CASE(D(KOLO_D_PUT, KOLO_DF_SIZE32, 1, 8, A(DST_OFF), KEY1, A(SRC_OFF), 0), KOLO_ST_BAD_OP, "SIZE32 PUT");
    ADD_CASE(D(KOLO_D_PUT, 0, 1, 0, A(DST_OFF), KEY1, A(SRC_OFF), 0), KOLO_ST_BAD_LEN, "PUT len 0");
    ADD_CASE(D(KOLO_D_GET, 0, 1, 0, A(DST_OFF), KEY1, A(SRC_OFF), 0), KOLO_ST_BAD_LEN, "GET len 0");
    ADD_CASE(D(KOLO_D_PUT, 0, 1, (1u << 30) + 1, A(DST_OFF), KEY1, A(SRC_OFF), 0), KOLO_ST_BAD_LEN, "PUT > 2^30");
    ADD_CASE(D(KOLO_D_GET, 0, 1, 0xffffffffu, A(DST_OFF), KEY1, A(SRC_OFF), 0), KOLO_ST_BAD_LEN, "GET 4G");
    ADD_CASE(D(KOLO_D_PUT, KOLO_DF_INLINE, 1, 17, A(DST_OFF), KEY1, 0, 0), KOLO_ST_BAD_LEN, "INLINE 17");
    ADD_CASE(D(KOLO_D_ADD, 0, 1, 8, A(DST_OFF), KEY1, 1, 0), KOLO_ST_BAD_LEN, "atomic len 8");
    ADD_CASE(D(KOLO_D_NOP, 0, -1, 1, 0, 0, 0, 0), KOLO_ST_BAD_LEN, "NOP len 1");
    ADD_CASE(D(KOLO_D_PUT, 0, 1, 16, 0xfffffffffff8ull, KEY1, A(SRC_OFF), 0), KOLO_ST_BAD_LEN, "beyond 2^48");
    ADD_CASE(D(KOLO_D_GET, 0, 1, 16, A(DST_OFF), KEY1, ~0ull - 7, 0), KOLO_ST_BAD_LEN, "laddr wraps");
    d = D(KOLO_D_PUT, 0, 1, 8, A(DST_OFF), KEY1, A(SRC_OFF), 0);
    d.dst = 0x004; /* x = 4 in a 4x2x1 torus */
    ADD_CASE(d, KOLO_ST_BAD_DST, "x outside");
    d.dst = 0x020; /* y = 2 */
    ADD_CASE(d, KOLO_ST_BAD_DST, "y outside");
    d.dst = 0x100; /* z = 1 */
    ADD_CASE(d, KOLO_ST_BAD_DST, "z outside");
    ADD_CASE(D(KOLO_D_PUT, 0, 5, 8, A(DST_OFF), KEY1, A(SRC_OFF), 0), KOLO_ST_BAD_DST, "route invalid");
    ADD_CASE(D(KOLO_D_FETCH_ADD, 0, 5, 0, A(DST_OFF), KEY1, 1, 0), KOLO_ST_BAD_DST, "route invalid (atomic)");
    ADD_CASE(D(KOLO_D_ADD, 0, 1, 0, A(DST_OFF + 4), KEY1, 1, 0), KOLO_ST_BAD_ALIGN, "8-byte at +4");
    ADD_CASE(D(KOLO_D_CSWAP, 0, 1, 0, A(DST_OFF + 1), KEY1, 1, 0), KOLO_ST_BAD_ALIGN, "8-byte at +1");
    ADD_CASE(D(KOLO_D_SWAP, KOLO_DF_SIZE32, 1, 0, A(DST_OFF + 2), KEY1, 1, 0), KOLO_ST_BAD_ALIGN, "4-byte at +2");
    ADD_CASE(D(KOLO_D_OR, KOLO_DF_SIZE32, 5, 0, A(DST_OFF + 2), KEY1, 1, 0), KOLO_ST_BAD_DST, "DST before ALIGN");
    ADD_CASE(D(KOLO_D_FETCH_ADD, KOLO_DF_SIZE32, 5, 8, A(DST_OFF + 2), KEY1, 1, 0), KOLO_ST_BAD_LEN, "LEN before DST");
    ADD_CASE(D(14, 0, 5, 0, A(DST_OFF + 2), KEY1, 1, 0), KOLO_ST_BAD_OP, "OP first");
    w32(0, KOLO_CSR_ROUTE(5), r32(0, KOLO_CSR_ROUTE(5)) & ~KOLO_RE_VALID);
    hq_open(&q, 0, 1, 3, 3);
    fill_rand(N.mem[1] + DST_OFF, 64);
    {
        uint8_t *snap = (uint8_t *)malloc(MEM_SIZE);
        memcpy(snap, N.mem[1], MEM_SIZE);
        for (i = 0; i < n; i++) {
            kolo_cqe e;
            /* alternate: with COMPLETE (exec1) and without: the error still completes */
            if (i & 1) {
                CHECK_EQ(exec1(&q, c[i].d, NULL), c[i].status, "%s", c[i].what);
            } else {
                uint16_t slot = (uint16_t)(q.pi % q.sq_n);
                hq_post(&q, &c[i].d);
                CHECK(hq_wait(&q, &e, 200), "%s: completion without COMPLETE", c[i].what);
                CHECK_EQ(e.status, c[i].status, "%s", c[i].what);
                CHECK_EQ(e.index, slot, "index");
                CHECK_EQ(e.op, c[i].d.op, "op");
            }
        }
        CHECK_EQ(stat(0, KOLO_CSR_STAT_TX_PKTS), 0, "nothing sent");
        mem_eq(1, snap, "target untouched");
        /* the queue is still running: a good op and several bad ones in one batch */
        tx = 0;
        for (i = 0; i < 6; i++)
            hq_put_desc(&q, &c[i].d);
        d = D(KOLO_D_PUT, KOLO_DF_COMPLETE, 1, 8, A(DST_OFF), KEY1, A(SRC_OFF), 0);
        hq_put_desc(&q, &d);
        hq_ring(&q);
        for (i = 0; i < 7; i++) {
            kolo_cqe e;
            CHECK(hq_wait(&q, &e, 500), "batch %d", i);
            if (e.op == KOLO_D_PUT && e.status == 0)
                tx++;
        }
        CHECK_EQ(tx, 1, "the good PUT completed");
        CHECK(!memcmp(N.mem[1] + DST_OFF, N.mem[0] + SRC_OFF, 8), "and wrote");
        CHECK_EQ(ctx_status(&q) & 0xffffu, 1, "context running, no error");
        free(snap);
    }
#undef ADD_CASE
    net_free();
}

/* errors at the target: NAK with the code, counted, memory untouched */
static void test_remote_errors(void) {
    uint8_t *snap = (uint8_t *)malloc(MEM_SIZE);
    hq q;
    int i;
    struct {
        kolo_desc d;
        int status;
        const char *what;
    } c[32];
    int n = 0;
    uint64_t nak0;
    net_init(T222);
    N.max_delay = 3;
    /* window 2: read-only, 3: write-only, 4: atomic-only, 5: disabled, 6: all rights */
    win_set(5, 2, A(DST_OFF), 0x1000, 0xa2, KOLO_WIN_READ, 0);
    win_set(5, 3, A(DST_OFF + 0x1000), 0x1000, 0x03, KOLO_WIN_WRITE, 0);
    win_set(5, 4, A(DST_OFF + 0x2000), 0x1000, 0xf4, KOLO_WIN_ATOMIC, 0);
    win_set(5, 5, A(DST_OFF + 0x3000), 0x1000, 0x55, KOLO_WIN_READ | KOLO_WIN_WRITE | KOLO_WIN_ATOMIC, 0);
    w64(5, KOLO_CSR_WIN(5) + KOLO_WIN_CTRL, 0x55 | KOLO_WIN_READ | KOLO_WIN_WRITE | KOLO_WIN_ATOMIC);
    win_set(5, 6, A(DST_OFF + 0x4010), 0xfe0, 0x16, KOLO_WIN_READ | KOLO_WIN_WRITE | KOLO_WIN_ATOMIC, 0);
#define ADD_CASE(desc, st, w)                                                                      \
    do {                                                                                           \
        c[n].d = (desc);                                                                           \
        c[n].status = (st);                                                                        \
        c[n].what = (w);                                                                           \
        n++;                                                                                       \
    } while (0)
    /* KEY: wrong check nibble, disabled window, unused window */
    ADD_CASE(D(KOLO_D_PUT, 0, 5, 8, A(DST_OFF + 0x4000), 0x26, A(SRC_OFF), 0), KOLO_ST_REMOTE_KEY, "check nibble");
    ADD_CASE(D(KOLO_D_GET, 0, 5, 8, A(DST_OFF + 0x3000), 0x55, A(SRC_OFF), 0), KOLO_ST_REMOTE_KEY, "disabled");
    ADD_CASE(D(KOLO_D_ADD, 0, 5, 0, A(DST_OFF + 0x4000), 0x0f, 1, 0), KOLO_ST_REMOTE_KEY, "unused window");
    ADD_CASE(D(KOLO_D_PUT, 0, 5, 8, A(DST_OFF + 0x1000), 0x13, A(SRC_OFF), 0), KOLO_ST_REMOTE_KEY, "key 0x13 vs 0x03");
    /* BOUNDS: below, above, straddling either end, key of another window's range */
    ADD_CASE(D(KOLO_D_PUT, 0, 5, 8, A(DST_OFF + 0x4008), 0x16, A(SRC_OFF), 0), KOLO_ST_REMOTE_BOUNDS, "below");
    ADD_CASE(D(KOLO_D_PUT, 0, 5, 8, A(DST_OFF + 0x5000), 0x16, A(SRC_OFF), 0), KOLO_ST_REMOTE_BOUNDS, "above");
    ADD_CASE(D(KOLO_D_PUT, 0, 5, 16, A(DST_OFF + 0x4fe8), 0x16, A(SRC_OFF), 0), KOLO_ST_REMOTE_BOUNDS, "straddles end");
    ADD_CASE(D(KOLO_D_PUT, 0, 5, 16, A(DST_OFF + 0x4008), 0x16, A(SRC_OFF), 0), KOLO_ST_REMOTE_BOUNDS, "straddles start");
    ADD_CASE(D(KOLO_D_GET, 0, 5, 0x60, A(DST_OFF + 0x4fa0), 0x16, A(SRC_OFF), 0), KOLO_ST_REMOTE_BOUNDS, "GET straddles");
    ADD_CASE(D(KOLO_D_PUT, 0, 5, 8, A(DST_OFF + 0x4fe9), 0x16, A(SRC_OFF), 0), KOLO_ST_REMOTE_BOUNDS, "1 byte over the end");
    ADD_CASE(D(KOLO_D_GET, 0, 5, 8, A(DST_OFF + 0x400f), 0x16, A(SRC_OFF), 0), KOLO_ST_REMOTE_BOUNDS, "1 byte below");
    ADD_CASE(D(KOLO_D_FETCH_XOR, KOLO_DF_SIZE32, 5, 0, A(DST_OFF + 0x4ff0), 0x16, 1, 0), KOLO_ST_REMOTE_BOUNDS, "atomic at end");
    ADD_CASE(D(KOLO_D_FETCH_ADD, 0, 5, 0, A(DST_OFF + 0x5000), 0x16, 1, 0), KOLO_ST_REMOTE_BOUNDS, "atomic above");
    ADD_CASE(D(KOLO_D_PUT, 0, 5, 8, A(DST_OFF + 0x2000), 0x16, A(SRC_OFF), 0), KOLO_ST_REMOTE_BOUNDS, "other window");
    /* RIGHTS */
    ADD_CASE(D(KOLO_D_PUT, 0, 5, 8, A(DST_OFF), 0xa2, A(SRC_OFF), 0), KOLO_ST_REMOTE_RIGHTS, "PUT read-only");
    ADD_CASE(D(KOLO_D_ADD, 0, 5, 0, A(DST_OFF), 0xa2, 1, 0), KOLO_ST_REMOTE_RIGHTS, "ADD read-only");
    ADD_CASE(D(KOLO_D_GET, 0, 5, 8, A(DST_OFF + 0x1000), 0x03, A(SRC_OFF), 0), KOLO_ST_REMOTE_RIGHTS, "GET write-only");
    ADD_CASE(D(KOLO_D_SWAP, 0, 5, 0, A(DST_OFF + 0x1000), 0x03, 1, 0), KOLO_ST_REMOTE_RIGHTS, "SWAP write-only");
    ADD_CASE(D(KOLO_D_PUT, 0, 5, 8, A(DST_OFF + 0x2000), 0xf4, A(SRC_OFF), 0), KOLO_ST_REMOTE_RIGHTS, "PUT atomic-only");
    ADD_CASE(D(KOLO_D_GET, 0, 5, 8, A(DST_OFF + 0x2000), 0xf4, A(SRC_OFF), 0), KOLO_ST_REMOTE_RIGHTS, "GET atomic-only");
    ADD_CASE(D(KOLO_D_CSWAP, KOLO_DF_SIZE32, 5, 0, A(DST_OFF), 0xa2, 1, 0), KOLO_ST_REMOTE_RIGHTS, "CSWAP32 read-only");
    ADD_CASE(D(KOLO_D_AND, 0, 5, 0, A(DST_OFF + 0x1000), 0x03, 0, 0), KOLO_ST_REMOTE_RIGHTS, "AND write-only");
    /* KEY is checked before BOUNDS, BOUNDS before RIGHTS */
    ADD_CASE(D(KOLO_D_PUT, 0, 5, 8, A(DST_OFF + 0x9000), 0xb2, A(SRC_OFF), 0), KOLO_ST_REMOTE_KEY, "KEY first");
    ADD_CASE(D(KOLO_D_PUT, 0, 5, 8, A(DST_OFF + 0x9000), 0xa2, A(SRC_OFF), 0), KOLO_ST_REMOTE_BOUNDS, "BOUNDS before RIGHTS");
    hq_open(&q, 0, 2, 3, 3);
    fill_rand(N.mem[5], MEM_SIZE);
    fill_rand(N.mem[0] + SRC_OFF, 0x1000);
    memcpy(snap, N.mem[5], MEM_SIZE);
    for (i = 0; i < n; i++) {
        kolo_cqe e;
        nak0 = stat(5, KOLO_CSR_STAT_NAK_SENT);
        CHECK_EQ(exec1(&q, c[i].d, &e), c[i].status, "%s", c[i].what);
        CHECK_EQ(e.result, 0, "no result");
        CHECK_EQ(stat(5, KOLO_CSR_STAT_NAK_SENT), nak0 + 1, "%s: NAK counted", c[i].what);
    }
    CHECK_EQ(stat(0, KOLO_CSR_STAT_NAK_RCVD), n, "NAKs received");
    mem_eq(5, snap, "target untouched");
    /* a multi-packet PUT running off the end of its window: the packets
     * inside are written, the one outside refused; status is that error */
    {
        kolo_desc d = D(KOLO_D_PUT, 0, 5, 0x2f8, A(DST_OFF + 0x4d00), 0x16, A(SRC_OFF), 0);
        CHECK_EQ(exec1(&q, d, NULL), KOLO_ST_REMOTE_BOUNDS, "partly outside");
        memcpy(snap + DST_OFF + 0x4d00, N.mem[0] + SRC_OFF, 0x200);
        mem_eq(5, snap, "only the packets inside");
        CHECK_EQ(stat(0, KOLO_CSR_STAT_NAK_RCVD), n + 1, "1 NAK (third packet)");
    }
    /* a PUT straddling a window's start across a 256-byte cut: the packet
     * inside is written (packets are checked one by one) */
    {
        kolo_desc d = D(KOLO_D_PUT, 0, 5, 0x20, A(DST_OFF + 0x40f0), 0x16, A(SRC_OFF), 0);
        win_set(5, 7, A(DST_OFF + 0x4100), 0x100, 0x37, KOLO_WIN_WRITE, 0);
        d.raddr_key = A(DST_OFF + 0x40f0) | 0x37ull << 48;
        CHECK_EQ(exec1(&q, d, NULL), KOLO_ST_REMOTE_BOUNDS, "straddles start across a cut");
        memcpy(snap + DST_OFF + 0x4100, N.mem[0] + SRC_OFF + 0x10, 0x10);
        mem_eq(5, snap, "only the packet inside");
    }
    /* exact fits at both ends of window 6 */
    memcpy(snap + DST_OFF + 0x4fe8, N.mem[0] + SRC_OFF, 8);
    memcpy(snap + DST_OFF + 0x4010, N.mem[0] + SRC_OFF, 16);
    CHECK_EQ(exec1(&q, D(KOLO_D_PUT, 0, 5, 8, A(DST_OFF + 0x4fe8), 0x16, A(SRC_OFF), 0), NULL), 0, "last 8 bytes");
    CHECK_EQ(exec1(&q, D(KOLO_D_PUT, 0, 5, 16, A(DST_OFF + 0x4010), 0x16, A(SRC_OFF), 0), NULL), 0, "first 16 bytes");
    CHECK_EQ(exec1(&q, D(KOLO_D_GET, 0, 5, 0xfe0, A(DST_OFF + 0x4010), 0x16, A(SRC_OFF + 0x1000), 0), NULL), 0,
             "whole window");
    mem_eq(5, snap, "edges");
    /* a remote error does not stop the queue */
    CHECK_EQ(exec1(&q, D(KOLO_D_PUT, 0, 5, 8, A(DST_OFF + 0x4010), 0x16, A(SRC_OFF), 0), NULL), 0, "ok after");
    CHECK_EQ(ctx_status(&q) & 0xffffu, 1, "no context error");
    CHECK_EQ(stat(5, KOLO_CSR_STAT_BAD_PKTS), 0, "NAKed requests are not bad packets");
#undef ADD_CASE
    free(snap);
    net_free();
}

static void test_doorbell(void) {
    hq q, r;
    kolo_cqe e;
    kolo_desc d;
    uint32_t err;
    int i;
    net_init(T421);
    std_windows(1);
    hq_open(&q, 0, 6, 2, 2); /* 4 entries */
    hq_open(&r, 0, 7, 2, 2);
    /* PI more than 4 ahead */
    d = D(KOLO_D_PUT, KOLO_DF_COMPLETE, 1, 8, A(DST_OFF), KEY1, A(SRC_OFF), 0);
    for (i = 0; i < 5; i++)
        hq_put_desc(&q, &d);
    err = err_csr(0);
    hq_ring(&q);
    CHECK_EQ(err_csr(0), err + 1, "bad doorbell is a refused write");
    CHECK(hq_wait(&q, &e, 100), "bad doorbell completion");
    CHECK_EQ(e.status, KOLO_ST_BAD_DOORBELL, "status");
    CHECK_EQ(e.index, 0, "at the consumer index");
    CHECK_EQ(ctx_status(&q), 1u | 2u | KOLO_ST_BAD_DOORBELL << 8, "stopped");
    run(50);
    CHECK_EQ(stat(0, KOLO_CSR_STAT_TX_PKTS), 0, "nothing fetched");
    CHECK(!hq_poll(&q, &e, 1), "no other completion");
    /* further doorbells refused */
    q.pi = 1;
    hq_ring(&q);
    CHECK_EQ(err_csr(0), err + 2, "doorbell of a stopped context");
    run(50);
    CHECK_EQ(stat(0, KOLO_CSR_STAT_TX_PKTS), 0, "nothing fetched");
    /* the other context is unaffected */
    CHECK_EQ(exec1(&r, d, NULL), 0, "other context");
    /* re-enable clears the stop */
    w64(0, KOLO_CSR_CTX(6) + KOLO_CTX_CTRL, 0);
    hq_open(&q, 0, 6, 2, 2);
    CHECK_EQ(exec1(&q, d, NULL), 0, "after re-enable");
    /* PI going backwards is refused too */
    hq_put_desc(&q, &d);
    hq_put_desc(&q, &d);
    w32(0, KOLO_CSR_DOORBELL(6) + KOLO_DB_SQ_PI, q.pi - 2); /* (nothing: same as the consumer index) */
    w32(0, KOLO_CSR_DOORBELL(6) + KOLO_DB_SQ_PI, q.pi);
    CHECK(hq_wait(&q, &e, 200) && e.status == 0, "1");
    CHECK(hq_wait(&q, &e, 200) && e.status == 0, "2");
    hq_put_desc(&q, &d);
    hq_put_desc(&q, &d);
    w32(0, KOLO_CSR_DOORBELL(6) + KOLO_DB_SQ_PI, q.pi);
    run(5); /* both fetched */
    w32(0, KOLO_CSR_DOORBELL(6) + KOLO_DB_SQ_PI, q.pi - 1); /* backwards */
    {
        int got_bd = 0, got_ok = 0;
        for (i = 0; i < 3; i++)
            if (hq_wait(&q, &e, 300)) {
                got_bd += e.status == KOLO_ST_BAD_DOORBELL;
                got_ok += e.status == 0;
            }
        CHECK_EQ(got_bd, 1, "backwards PI refused");
        CHECK_EQ(got_ok, 2, "the descriptors fetched before still run");
    }
    /* PI moved back while still ahead of the consumer index: refused */
    w64(0, KOLO_CSR_CTX(6) + KOLO_CTX_CTRL, 0);
    hq_open(&q, 0, 6, 2, 2);
    for (i = 0; i < 3; i++)
        hq_put_desc(&q, &d);
    hq_ring(&q);
    w32(0, KOLO_CSR_DOORBELL(6) + KOLO_DB_SQ_PI, 2); /* before any fetch */
    CHECK(hq_wait(&q, &e, 300) && e.status == KOLO_ST_BAD_DOORBELL, "retreat refused");
    CHECK(!hq_wait(&q, &e, 300), "nothing fetched after the stop");
    /* announced but not yet fetched when the bad doorbell comes: never run */
    w64(0, KOLO_CSR_CTX(6) + KOLO_CTX_CTRL, 0);
    hq_open(&q, 0, 6, 2, 2);
    hq_put_desc(&q, &d);
    hq_put_desc(&q, &d);
    hq_ring(&q);
    w32(0, KOLO_CSR_DOORBELL(6) + KOLO_DB_SQ_PI, q.pi + 3);
    CHECK(hq_wait(&q, &e, 300) && e.status == KOLO_ST_BAD_DOORBELL, "bad doorbell");
    CHECK(!hq_wait(&q, &e, 300), "nothing fetched after the stop");
    CHECK_EQ((ctx_status(&q) >> 8) & 0xffu, KOLO_ST_BAD_DOORBELL, "stopped");
    /* an exactly full queue is fine; index wraps mod 2^16 */
    w64(0, KOLO_CSR_CTX(7) + KOLO_CTX_CTRL, 0);
    hq_open(&r, 0, 7, 2, 3);
    d = D(KOLO_D_NOP, KOLO_DF_COMPLETE, -1, 0, 0, 0, 0, 0);
    for (i = 0; i < 70000 / 4; i++) {
        int k;
        for (k = 0; k < 4; k++)
            hq_put_desc(&r, &d);
        hq_ring(&r);
        for (k = 0; k < 4; k++) {
            if (!hq_wait(&r, &e, 50)) {
                CHECK(0, "NOP lap %d", i);
                break;
            }
            if (e.status || e.index != (uint16_t)(r.cq_next - 1) % 4) {
                CHECK(0, "NOP lap %d status %u index %u", i, e.status, e.index);
                break;
            }
        }
        if (test_failures)
            break;
    }
    CHECK_EQ(ctx_status(&r), 1u | (uint64_t)(uint16_t)r.pi << 16, "running, consumer index mod 2^16");
    CHECK_EQ(err_csr(0), err + 5, "no other errors");
    net_free();
}

static void test_dma_errors(void) {
    hq q;
    kolo_cqe e;
    uint8_t *snap = (uint8_t *)malloc(MEM_SIZE);
    uint64_t tx;
    net_init(T421);
    /* window over the last 0x100 bytes of memory and 0x100 beyond it */
    win_set(2, 1, A(MEM_SIZE - 0x100), 0x200, KEY1, KOLO_WIN_READ | KOLO_WIN_WRITE | KOLO_WIN_ATOMIC, 0);
    std_windows(1);
    hq_open(&q, 0, 4, 3, 3);
    fill_rand(N.mem[0] + SRC_OFF, 0x1000);
    fill_rand(N.mem[2], MEM_SIZE);
    memcpy(snap, N.mem[2], MEM_SIZE);
    /* target: REMOTE_DMA for PUT, GET, atomic */
    CHECK_EQ(exec1(&q, D(KOLO_D_PUT, 0, 2, 8, A(MEM_SIZE + 8), KEY1, A(SRC_OFF), 0), NULL), KOLO_ST_REMOTE_DMA, "PUT");
    CHECK_EQ(exec1(&q, D(KOLO_D_GET, 0, 2, 8, A(MEM_SIZE), KEY1, A(SRC_OFF), 0), NULL), KOLO_ST_REMOTE_DMA, "GET");
    CHECK_EQ(exec1(&q, D(KOLO_D_FETCH_ADD, 0, 2, 0, A(MEM_SIZE + 16), KEY1, 1, 0), &e), KOLO_ST_REMOTE_DMA, "atomic");
    CHECK_EQ(stat(2, KOLO_CSR_STAT_DMA_ERR), 3, "target DMA errors counted");
    CHECK_EQ(stat(2, KOLO_CSR_STAT_NAK_SENT), 3, "NAKs");
    mem_eq(2, snap, "nothing written");
    /* initiator: LOCAL_DMA for a PUT source, a GET destination */
    tx = stat(0, KOLO_CSR_STAT_TX_PKTS);
    CHECK_EQ(exec1(&q, D(KOLO_D_PUT, 0, 1, 8, A(DST_OFF), KEY1, A(MEM_SIZE), 0), NULL), KOLO_ST_LOCAL_DMA, "PUT src");
    CHECK_EQ(stat(0, KOLO_CSR_STAT_TX_PKTS), tx, "nothing sent");
    CHECK_EQ(exec1(&q, D(KOLO_D_GET, 0, 1, 8, A(DST_OFF), KEY1, A(MEM_SIZE), 0), NULL), KOLO_ST_LOCAL_DMA, "GET dst");
    /* a PUT whose source runs off host memory: the first packets go */
    memcpy(snap, N.mem[1], MEM_SIZE);
    memcpy(snap + DST_OFF, N.mem[0] + MEM_SIZE - 0x200, 0x200);
    CHECK_EQ(exec1(&q, D(KOLO_D_PUT, 0, 1, 0x300, A(DST_OFF), KEY1, A(MEM_SIZE - 0x200), 0), NULL),
             KOLO_ST_LOCAL_DMA, "PUT src partly outside");
    mem_eq(1, snap, "first two packets written");
    CHECK_EQ(stat(0, KOLO_CSR_STAT_DMA_ERR), 3, "initiator DMA errors counted");
    /* status is the first error: packet 1 below the window (BOUNDS), packet 2
     * fine, packet 3 beyond host memory (REMOTE_DMA); responses come in order */
    CHECK_EQ(exec1(&q, D(KOLO_D_PUT, 0, 2, 0x300, A(MEM_SIZE - 0x200), KEY1, A(SRC_OFF), 0), NULL),
             KOLO_ST_REMOTE_BOUNDS, "first error wins");
    CHECK(!memcmp(N.mem[2] + MEM_SIZE - 0x100, N.mem[0] + SRC_OFF + 0x100, 0x100), "middle packet written");
    CHECK_EQ(stat(2, KOLO_CSR_STAT_DMA_ERR), 4, "target DMA error");
    CHECK_EQ(exec1(&q, D(KOLO_D_PUT, 0, 2, 0x200, A(MEM_SIZE - 0x100), KEY1, A(SRC_OFF), 0), NULL),
             KOLO_ST_REMOTE_DMA, "the other way round");
    CHECK_EQ(ctx_status(&q) & 0xffffu, 1, "per-op errors do not stop the queue");
    /* descriptor fetch fails: completion, context stopped */
    ctx_config(0, 8, A(MEM_SIZE), A(0x8800), 0x0202, 1);
    CHECK_EQ(r64(0, KOLO_CSR_CTX(8) + KOLO_CTX_STATUS), 1, "enabled");
    w32(0, KOLO_CSR_DOORBELL(8) + KOLO_DB_SQ_PI, 1);
    run(20);
    {
        kolo_cqe_unpack(N.mem[0] + 0x8800, &e);
        CHECK_EQ(e.phase, 1, "entry written");
        CHECK_EQ(e.status, KOLO_ST_LOCAL_DMA, "fetch failed");
        CHECK_EQ(r64(0, KOLO_CSR_CTX(8) + KOLO_CTX_STATUS), 3u | KOLO_ST_LOCAL_DMA << 8, "stopped");
    }
    /* completion write fails: context stopped */
    ctx_config(0, 9, A(0x9000), A(MEM_SIZE + 0x1000), 0x0202, 1);
    {
        hq r;
        kolo_desc d = D(KOLO_D_NOP, KOLO_DF_COMPLETE, -1, 0, 0, 0, 0, 0);
        memset(&r, 0, sizeof r);
        r.node = 0;
        r.c = 9;
        r.sq = A(0x9000);
        r.sq_n = 4;
        hq_post(&r, &d);
        run(20);
        CHECK_EQ(r64(0, KOLO_CSR_CTX(9) + KOLO_CTX_STATUS), 3u | KOLO_ST_LOCAL_DMA << 8 | 1u << 16, "CQ write failed");
    }
    CHECK_EQ(stat(0, KOLO_CSR_STAT_DMA_ERR), 5, "counted");
    CHECK_EQ(stat(2, KOLO_CSR_STAT_DMA_ERR), 5, "target counted");
    CHECK(run_quiet(200), "quiet");
    free(snap);
    net_free();
}

/* hand-made packets from the "network" straight into an NI */
static kolo_pkt mkpkt(int src, int dst, unsigned op, unsigned vnet, unsigned len, uint64_t extra, uint64_t addr,
                      unsigned tag, unsigned key) {
    kolo_pkt p;
    memset(&p, 0, sizeof p);
    p.src = id_of(src);
    p.dst = id_of(dst);
    p.op = (uint8_t)op;
    p.vnet = (uint8_t)vnet;
    p.len = (uint8_t)len;
    p.header[0] = (uint64_t)id_of(dst) | (uint64_t)id_of(src) << 12 | (uint64_t)op << 24 |
                  (uint64_t)vnet << 28 | (uint64_t)(len & 63u) << 29 | extra;
    p.header[1] = (addr & 0xffffffffffffull) | (uint64_t)tag << 48 | (uint64_t)key << 56;
    return p;
}

static int live_tag = -1;
static void tap_tag(int node, const kolo_pkt *p) {
    if (node == 0 && !p->vnet)
        live_tag = (int)(p->header[1] >> 48) & 0xff;
}

static void test_malformed(void) {
    uint8_t *snap = (uint8_t *)malloc(MEM_SIZE);
    kolo_pkt p;
    uint64_t bad, tx;
    int i, k, phase;
    unsigned op;
    net_init(T421);
    std_windows(1);
    fill_rand(N.mem[1], MEM_SIZE);
    memcpy(snap, N.mem[1], MEM_SIZE);
    tx = stat(1, KOLO_CSR_STAT_TX_PKTS);
    k = 0;
#define BAD(pk, what)                                                                              \
    do {                                                                                           \
        kolo_pkt pp_ = (pk);                                                                       \
        CHECK_EQ(kolo_ni_receive(N.ni[1], &pp_), 0, "%s taken", what);                             \
        k++;                                                                                       \
        CHECK_EQ(stat(1, KOLO_CSR_STAT_BAD_PKTS), k, "%s counted", what);                          \
    } while (0)
    BAD(mkpkt(0, 1, 14, 0, 1, 0, A(DST_OFF), 1, KEY1), "op 14");
    BAD(mkpkt(0, 1, 15, 0, 0, 0, A(DST_OFF), 1, KEY1), "op 15");
    BAD(mkpkt(0, 1, KOLO_OP_MGMT, 0, 1, 0, A(DST_OFF), 1, KEY1), "MGMT");
    BAD(mkpkt(0, 1, KOLO_OP_PUT, 0, 0, 0, A(DST_OFF), 1, KEY1), "PUT len 0");
    p = mkpkt(0, 1, KOLO_OP_GET_REQ, 0, 1, 0, A(DST_OFF), 1, KEY1);
    p.payload[0] = 0;
    BAD(p, "GET nbytes 0");
    p.payload[0] = 257;
    BAD(p, "GET nbytes 257");
    p.payload[0] = 511;
    BAD(p, "GET nbytes 511");
    BAD(mkpkt(0, 1, KOLO_OP_GET_REQ, 0, 0, 0, A(DST_OFF), 1, KEY1), "GET len 0");
    p = mkpkt(0, 1, KOLO_OP_GET_REQ, 0, 2, 0, A(DST_OFF), 1, KEY1);
    p.payload[0] = 8;
    BAD(p, "GET len 2");
    BAD(mkpkt(0, 1, KOLO_OP_ADD, 0, 0, 3ull << 59, A(DST_OFF), 1, KEY1), "ADD len 0");
    BAD(mkpkt(0, 1, KOLO_OP_ADD, 0, 2, 3ull << 59, A(DST_OFF), 1, KEY1), "ADD len 2");
    BAD(mkpkt(0, 1, KOLO_OP_CSWAP, 0, 1, 3ull << 59, A(DST_OFF), 1, KEY1), "CSWAP len 1");
    BAD(mkpkt(0, 1, KOLO_OP_SWAP, 0, 1, 0ull << 59, A(DST_OFF), 1, KEY1), "asize 0");
    BAD(mkpkt(0, 1, KOLO_OP_SWAP, 0, 1, 1ull << 59, A(DST_OFF), 1, KEY1), "asize 1");
    BAD(mkpkt(0, 1, KOLO_OP_FETCH_OR, 0, 1, 3ull << 59, A(DST_OFF + 4), 1, KEY1), "misaligned 8");
    BAD(mkpkt(0, 1, KOLO_OP_FETCH_AND, 0, 1, 2ull << 59, A(DST_OFF + 2), 1, KEY1), "misaligned 4");
    BAD(mkpkt(0, 1, KOLO_OP_PUT, 1, 1, 0, A(DST_OFF), 1, KEY1), "request on vnet 1");
    BAD(mkpkt(0, 1, KOLO_OP_ACK, 0, 0, 0, A(DST_OFF), 1, 0), "response on vnet 0");
    BAD(mkpkt(0, 1, KOLO_OP_ACK, 1, 0, 0, A(DST_OFF), 1, 0), "ACK unknown tag");
    BAD(mkpkt(0, 1, KOLO_OP_NAK, 1, 0, 0, 5, 2, 0), "NAK unknown tag");
    BAD(mkpkt(0, 1, KOLO_OP_GET_RESP, 1, 1, 7ull << 59, A(DST_OFF), 3, 0), "GET_RESP unknown tag");
    p = mkpkt(0, 1, KOLO_OP_PUT, 0, 2, 0, A(DST_OFF), 1, KEY1);
    p.len = 1;
    BAD(p, "kolo_pkt len differs");
    p = mkpkt(0, 1, KOLO_OP_PUT, 0, 33, 0, A(DST_OFF), 1, KEY1);
    BAD(p, "len 33");
    p = mkpkt(0, 1, KOLO_OP_PUT, 0, 1, 0, A(DST_OFF), 1, KEY1);
    p.header[0] = (p.header[0] & ~0xfffull) | id_of(2);
    BAD(p, "dst is another node");
    p = mkpkt(0, 1, KOLO_OP_PUT, 0, 1, 0, A(DST_OFF), 1, KEY1);
    p.header[0] = (p.header[0] & ~(0xfffull << 12)) | 0x00full << 12;
    BAD(p, "src outside the torus");
    CHECK_EQ(stat(1, KOLO_CSR_STAT_TX_PKTS), tx, "no response to any of them");
    CHECK_EQ(N.qn[0], 0, "nothing in the network");
    mem_eq(1, snap, "memory untouched");
    CHECK_EQ(stat(1, KOLO_CSR_STAT_RX_PKTS), k, "RX counts them");
    /* a good hand-made PUT works (the cases above differ from it in one field) */
    p = mkpkt(0, 1, KOLO_OP_PUT, 0, 1, 3ull << 59, A(DST_OFF), 9, KEY1);
    p.payload[0] = 0x0807060504030201ull;
    CHECK_EQ(kolo_ni_receive(N.ni[1], &p), 0, "good PUT");
    CHECK_EQ(stat(1, KOLO_CSR_STAT_BAD_PKTS), k, "not bad");
    CHECK_EQ(N.qn[0], 1, "ACK sent");
    CHECK_EQ(N.mem[1][DST_OFF + 3], 4, "written");
    N.qn[0] = 0;
    memset(N.from, 0, sizeof N.from);
    /* responses to a live tag that do not fit it */
    {
        hq q;
        kolo_cqe e;
        uint64_t bad0 = stat(0, KOLO_CSR_STAT_BAD_PKTS);
        hq_open(&q, 0, 0, 2, 2);
        N.on_send = tap_tag;
        N.block_recv[1] = 1;
        hq_post(&q, &(kolo_desc){KOLO_D_GET, KOLO_DF_COMPLETE, id_of(1), 16,
                                 (A(DST_OFF) | (uint64_t)KEY1 << 48), A(SRC_OFF), 0});
        run(10);
        CHECK(live_tag >= 0, "GET sent");
        {
            kolo_pkt r;
            int nbad = 0;
            r = mkpkt(1, 0, KOLO_OP_ACK, 1, 0, 0, A(DST_OFF), (unsigned)live_tag, 0);
            kolo_ni_receive(N.ni[0], &r), nbad++; /* ACK to a GET */
            r = mkpkt(2, 0, KOLO_OP_GET_RESP, 1, 2, 7ull << 59, A(DST_OFF), (unsigned)live_tag, 0);
            kolo_ni_receive(N.ni[0], &r), nbad++; /* wrong source */
            r = mkpkt(1, 0, KOLO_OP_GET_RESP, 1, 1, 7ull << 59, A(DST_OFF), (unsigned)live_tag, 0);
            kolo_ni_receive(N.ni[0], &r), nbad++; /* 8 bytes for 16 */
            r = mkpkt(1, 0, KOLO_OP_GET_RESP, 1, 2, 3ull << 59, A(DST_OFF), (unsigned)live_tag, 0);
            kolo_ni_receive(N.ni[0], &r), nbad++; /* 12 bytes for 16 */
            r = mkpkt(1, 0, KOLO_OP_NAK, 1, 0, 0, 0, (unsigned)live_tag, 0);
            kolo_ni_receive(N.ni[0], &r), nbad++; /* NAK with code 0 */
            r = mkpkt(1, 0, KOLO_OP_NAK, 1, 1, 0, 5, (unsigned)live_tag, 0);
            kolo_ni_receive(N.ni[0], &r), nbad++; /* NAK with payload */
            CHECK_EQ(stat(0, KOLO_CSR_STAT_BAD_PKTS), bad0 + nbad, "bad responses counted");
        }
        CHECK(!hq_poll(&q, &e, 1), "GET not completed by them");
        N.block_recv[1] = 0;
        CHECK(hq_wait(&q, &e, 200), "GET completes");
        CHECK_EQ(e.status, 0, "OK");
        CHECK(!memcmp(N.mem[0] + SRC_OFF, N.mem[1] + DST_OFF, 16), "data");
        N.on_send = NULL;
    }
    /* random garbage into node 3. Phase 0: no window enabled, memory must not
     * change. Phase 1: window 2 over [DST_OFF, DST_OFF + 0x1000), garbage aimed
     * at it with its key half the time: nothing outside it may change. */
    for (phase = 0; phase < 2; phase++) {
        memcpy(snap, N.mem[3], MEM_SIZE);
        bad = stat(3, KOLO_CSR_STAT_BAD_PKTS);
        if (phase)
            win_set(3, 2, A(DST_OFF), 0x1000, 0x42, KOLO_WIN_READ | KOLO_WIN_WRITE | KOLO_WIN_ATOMIC, 0);
        for (i = 0; i < 20000; i++) {
            kolo_pkt r;
            unsigned len = test_rand(4) ? test_rand(4) : test_rand(64);
            uint64_t addr = test_rand(2) ? test_rand64() : A(test_rand(MEM_SIZE));
            if (phase && test_rand(2))
                addr = A(DST_OFF - 0x100 + test_rand(0x1200));
            op = test_rand(16);
            r = mkpkt((int)test_rand(8), 3, op, test_rand(2), len, test_rand64() & (0x1full << 59 | 1ull << 35 | 1ull << 62),
                      addr, test_rand(256), phase && test_rand(2) ? 0x42 : test_rand(256));
            if (test_rand(8) == 0)
                r.header[0] = test_rand64();
            if (test_rand(8) == 0)
                r.len = (uint8_t)test_rand(40);
            for (k = 0; k < 32; k++)
                r.payload[k] = test_rand(2) ? test_rand64() : test_rand(300);
            if (kolo_ni_receive(N.ni[3], &r) < 0 || i % 64 == 0) { /* drop whatever went out */
                memset(N.qn, 0, sizeof N.qn);
                memset(N.from, 0, sizeof N.from);
                run(5);
            }
        }
        memset(N.qn, 0, sizeof N.qn);
        memset(N.from, 0, sizeof N.from);
        run(100);
        memset(N.qn, 0, sizeof N.qn);
        memset(N.from, 0, sizeof N.from);
        if (phase) { /* the window may have changed, and should have */
            CHECK(memcmp(snap + DST_OFF, N.mem[3] + DST_OFF, 0x1000), "garbage reached the window");
            memcpy(snap + DST_OFF, N.mem[3] + DST_OFF, 0x1000);
        }
        mem_eq(3, snap, phase ? "garbage touched memory outside the window" : "garbage changed memory");
        CHECK(stat(3, KOLO_CSR_STAT_BAD_PKTS) > bad + 5000, "most garbage counted bad");
        CHECK(kolo_ni_idle(N.ni[3]), "idle after garbage");
    }
    CHECK(stat(3, KOLO_CSR_STAT_NAK_SENT) > 0, "some NAKs");
#undef BAD
    free(snap);
    net_free();
}

/* FENCE: the flag PUT/atomic is never seen before the data */
static int fence_node = -1, fence_violations, fence_seen;
static uint64_t fence_flag_addr;
static const uint8_t *fence_want;
static uint32_t fence_len;
static void fence_hook(int node, const kolo_pkt *p) {
    if (node != fence_node || p->vnet || (p->header[1] & 0xffffffffffffull) != fence_flag_addr)
        return;
    fence_seen++;
    if (memcmp(N.mem[node] + DST_OFF, fence_want, fence_len))
        fence_violations++;
}

static void test_fence_ordered(void) {
    hq q;
    kolo_cqe e;
    int trial, early_without = 0;
    net_init(T222);
    N.max_delay = 40;
    N.refuse_recv_pct = 10;
    std_windows(3);
    hq_open(&q, 0, 1, 4, 4);
    fence_node = 3;
    fence_flag_addr = A(DST_OFF + 0x10000);
    fence_len = 8192;
    N.on_deliver = fence_hook;
    for (trial = 0; trial < 24; trial++) {
        int with_fence = trial < 16;
        unsigned fop = trial % 2 ? KOLO_D_PUT : KOLO_D_ADD;
        kolo_desc d;
        fill_rand(N.mem[0] + SRC_OFF, fence_len);
        fence_want = N.mem[0] + SRC_OFF;
        fence_violations = fence_seen = 0;
        d = D(KOLO_D_PUT, 0, 3, fence_len, A(DST_OFF), KEY1, A(SRC_OFF), 0);
        hq_put_desc(&q, &d);
        if (fop == KOLO_D_PUT)
            d = D(KOLO_D_PUT, KOLO_DF_COMPLETE | (with_fence ? KOLO_DF_FENCE : 0), 3, 8, fence_flag_addr, KEY1,
                  A(SRC_OFF), 0);
        else
            d = D(KOLO_D_ADD, KOLO_DF_COMPLETE | (with_fence ? KOLO_DF_FENCE : 0), 3, 0, fence_flag_addr, KEY1, 1, 0);
        hq_put_desc(&q, &d);
        hq_ring(&q);
        CHECK(hq_wait(&q, &e, 20000), "flag completion");
        CHECK_EQ(e.status, 0, "flag status");
        CHECK(run_quiet(5000), "quiet");
        CHECK(fence_seen >= 1, "flag seen");
        if (with_fence)
            CHECK_EQ(fence_violations, 0, "trial %d: flag before data", trial);
        else
            early_without += fence_violations != 0;
    }
    printf("  fence: without FENCE the flag overtook the data in %d of 8 trials\n", early_without);
    N.on_deliver = NULL;
    /* quiet (NOP|FENCE|COMPLETE) completes after everything before it */
    {
        kolo_desc d = D(KOLO_D_PUT, KOLO_DF_COMPLETE, 3, 3000, A(DST_OFF), KEY1, A(SRC_OFF), 0);
        int i, seen_puts = 0;
        for (i = 0; i < 6; i++)
            hq_put_desc(&q, &d);
        d = D(KOLO_D_NOP, KOLO_DF_COMPLETE | KOLO_DF_FENCE, -1, 0, 0, 0, 0, 0);
        hq_put_desc(&q, &d);
        hq_ring(&q);
        for (i = 0; i < 7; i++) {
            CHECK(hq_wait(&q, &e, 20000), "completion %d", i);
            if (e.op == KOLO_D_PUT)
                seen_puts++;
            else
                CHECK_EQ(seen_puts, 6, "quiet after all PUTs");
        }
        /* NOP without FENCE may complete before them */
        d = D(KOLO_D_PUT, KOLO_DF_COMPLETE, 3, 3000, A(DST_OFF), KEY1, A(SRC_OFF), 0);
        hq_put_desc(&q, &d);
        d = D(KOLO_D_NOP, KOLO_DF_COMPLETE, -1, 0, 0, 0, 0, 0);
        hq_put_desc(&q, &d);
        hq_ring(&q);
        CHECK(hq_wait(&q, &e, 20000), "first");
        CHECK_EQ(e.op, KOLO_D_NOP, "NOP without FENCE does not wait");
        CHECK(hq_wait(&q, &e, 20000), "second");
    }
    /* ORDERED: the packets carry the bit and arrive in order */
    {
        kolo_desc d = D(KOLO_D_PUT, KOLO_DF_COMPLETE | KOLO_DF_ORDERED, 3, 256 * 40 + 13, A(DST_OFF + 5), KEY1,
                        A(SRC_OFF), 0);
        int i;
        tap_reset(0);
        N.on_send = tap_send;
        N.refuse_recv_pct = 30;
        N.max_delay = 60;
        hq_post(&q, &d);
        CHECK(hq_wait(&q, &e, 20000), "ordered PUT");
        CHECK_EQ(e.status, 0, "ok");
        check_cuts(A(DST_OFF + 5), 256 * 40 + 13, KOLO_OP_PUT);
        for (i = 0; i < tap.count; i++)
            CHECK_EQ(tap.ordered[i], 1, "ordered bit");
        /* an ordered GET too, and unordered ops do not carry the bit */
        tap_reset(0);
        CHECK_EQ(exec1(&q, D(KOLO_D_GET, KOLO_DF_ORDERED, 3, 600, A(DST_OFF), KEY1, A(SRC_OFF), 0), NULL), 0, "GET");
        for (i = 0; i < tap.count; i++)
            CHECK_EQ(tap.ordered[i], 1, "ordered GET");
        tap_reset(0);
        CHECK_EQ(exec1(&q, D(KOLO_D_PUT, 0, 3, 600, A(DST_OFF), KEY1, A(SRC_OFF), 0), NULL), 0, "PUT");
        for (i = 0; i < tap.count; i++)
            CHECK_EQ(tap.ordered[i], 0, "unordered PUT");
    }
    N.on_send = NULL;
    net_free();
}

/* arrival order of ordered packets at the target */
static uint64_t ord_last;
static int ord_bad, ord_count, ord_unordered_overtakes;
static uint64_t unord_last;
static void ord_hook(int node, const kolo_pkt *p) {
    uint64_t a = p->header[1] & 0xffffffffffffull;
    if (node != 3 || p->vnet)
        return;
    if (p->ordered) {
        if (a < ord_last)
            ord_bad++;
        ord_last = a;
        ord_count++;
    } else {
        if (a < unord_last)
            ord_unordered_overtakes++;
        unord_last = a;
    }
}
static void test_ordered_arrival(void) {
    hq q;
    kolo_cqe e;
    net_init(T222);
    N.max_delay = 50;
    N.refuse_recv_pct = 20;
    std_windows(3);
    hq_open(&q, 0, 1, 3, 3);
    N.on_deliver = ord_hook;
    /* the hook may see a packet twice when it is refused: same address, fine */
    CHECK_EQ(exec1(&q, D(KOLO_D_PUT, KOLO_DF_ORDERED, 3, 256 * 60, A(DST_OFF), KEY1, A(SRC_OFF), 0), &e), 0, "ordered");
    CHECK_EQ(ord_bad, 0, "ordered packets arrived in order");
    CHECK(ord_count >= 60, "all seen");
    CHECK_EQ(exec1(&q, D(KOLO_D_PUT, 0, 3, 256 * 60, A(DST_OFF), KEY1, A(SRC_OFF), 0), &e), 0, "unordered");
    printf("  ordered: unordered packets overtook %d times, ordered 0\n", ord_unordered_overtakes);
    N.on_deliver = NULL;
    net_free();
}

/* phase bit across laps, indices, fetch results; CQ full backpressure */
static void test_completions(void) {
    hq q;
    kolo_cqe e;
    int i;
    uint64_t expect = 5;
    net_init(T421);
    std_windows(4);
    wr_le(N.mem[4] + DST_OFF, 5, 8);
    hq_open_ctrl(&q, 0, 11, 1, 1, 2u | 9u << 16); /* 2 SQ, 2 CQ entries, MSI vector 9 */
    for (i = 0; i < 40; i++) {
        CHECK_EQ(exec1(&q, D(KOLO_D_FETCH_ADD, 0, 4, 0, A(DST_OFF), KEY1, (uint64_t)i, 0), &e), 0, "fadd %d", i);
        CHECK_EQ(e.index, i % 2, "index");
        CHECK_EQ(e.phase, (i / 2) % 2 ? 0 : 1, "phase of entry %d", i);
        CHECK(e.result == expect, "result %d", i);
        expect += (uint64_t)i;
    }
    CHECK_EQ(N.msi_count[0], 40, "MSI per completion");
    CHECK_EQ(N.msi_vec[0], 9, "MSI vector");
    CHECK_EQ(rd_le(N.mem[4] + DST_OFF, 8), expect, "final");
    net_free();

    /* CQ full: 4-entry SQ and CQ; the host does not release entries */
    net_init(T421);
    std_windows(4);
    hq_open(&q, 0, 2, 2, 2);
    {
        kolo_desc d = D(KOLO_D_ADD, KOLO_DF_COMPLETE, 4, 0, A(DST_OFF), KEY1, 1, 0);
        uint8_t cq_snap[64];
        int k;
        wr_le(N.mem[4] + DST_OFF, 0, 8);
        for (i = 0; i < 4; i++)
            hq_put_desc(&q, &d);
        hq_ring(&q);
        run(200);
        for (i = 0; i < 4; i++)
            hq_put_desc(&q, &d);
        hq_ring(&q); /* the NI has fetched all 4, so 4 more fit in the SQ */
        run(300);
        CHECK_EQ(ctx_status(&q) & 0xffffu, 1, "no error");
        CHECK_EQ(rd_le(N.mem[4] + DST_OFF, 8), 8, "all 8 executed");
        memcpy(cq_snap, N.mem[0] + (q.cq - MEM_BASE), 64);
        for (i = 0; i < 4; i++) {
            kolo_cqe_unpack(cq_snap + 16 * i, &e);
            CHECK_EQ(e.phase, 1, "lap 1 entry %d kept", i);
            CHECK_EQ(e.index, i, "index");
        }
        CHECK(!kolo_ni_idle(N.ni[0]), "completions pending");
        CHECK_EQ(ctx_outstanding(&q), 0, "all have their responses");
        /* PIO completions wait too */
        pio(0, 2, &d, NULL);
        run(100);
        CHECK(!memcmp(cq_snap, N.mem[0] + (q.cq - MEM_BASE), 64), "nothing overwritten");
        /* the host reads them all, releases 2 */
        for (i = 0; i < 4; i++)
            CHECK(hq_poll(&q, &e, 0), "entry %d", i);
        CHECK(!hq_poll(&q, &e, 0), "no more yet");
        w32(0, KOLO_CSR_DOORBELL(2) + KOLO_DB_CQ_CI, 2);
        run(5);
        for (k = 0; k < 2; k++) {
            CHECK(hq_poll(&q, &e, 0), "lap 2 entry %d", k);
            CHECK_EQ(e.phase, 0, "lap 2 phase");
            CHECK_EQ(e.index, k, "index");
        }
        CHECK(!hq_poll(&q, &e, 0), "only 2 released");
        kolo_cqe_unpack(N.mem[0] + (q.cq - MEM_BASE) + 32, &e);
        CHECK_EQ(e.phase, 1, "entry 2 of lap 1 not overwritten");
        /* a CQ_CI beyond what was written is refused */
        {
            uint32_t err = err_csr(0);
            w32(0, KOLO_CSR_DOORBELL(2) + KOLO_DB_CQ_CI, 9);
            CHECK_EQ(err_csr(0), err + 1, "CQ_CI too far");
        }
        w32(0, KOLO_CSR_DOORBELL(2) + KOLO_DB_CQ_CI, 6);
        run(5);
        for (k = 0; k < 3; k++) {
            CHECK(hq_poll(&q, &e, 0), "rest %d", k);
            CHECK_EQ(e.index, k < 2 ? 2 + k : 0xffff, "index");
        }
        w32(0, KOLO_CSR_DOORBELL(2) + KOLO_DB_CQ_CI, q.cq_next);
        CHECK(run_quiet(100), "idle");
        CHECK_EQ(rd_le(N.mem[4] + DST_OFF, 8), 9, "9 adds");
    }
    /* a context keeps executing until its completions fill the NI's bound,
     * then stops starting operations: many ops, tiny CQ, never released */
    {
        hq r;
        kolo_desc d = D(KOLO_D_ADD, KOLO_DF_COMPLETE, 4, 0, A(DST_OFF + 8), KEY1, 1, 0);
        int posted = 0;
        hq_open(&r, 0, 3, 2, 2);
        wr_le(N.mem[4] + DST_OFF + 8, 0, 8);
        for (i = 0; i < 400; i++) {
            uint16_t ci = (uint16_t)(ctx_status(&r) >> 16);
            while ((uint16_t)(r.pi - ci) < 4 && posted < 200) {
                hq_put_desc(&r, &d);
                posted++;
            }
            hq_ring(&r);
            cycle();
        }
        CHECK(rd_le(N.mem[4] + DST_OFF + 8, 8) < 200, "bounded: %llu executed",
              (unsigned long long)rd_le(N.mem[4] + DST_OFF + 8, 8));
        for (i = 0; i < 200; i++) {
            if (!hq_wait(&r, &e, 200)) {
                CHECK(0, "completion %d", i);
                break;
            }
            CHECK_EQ(e.status, 0, "status");
            CHECK_EQ(e.index, i % 4, "in order here: one target, one context");
            if (i % 3 == 0) { /* host keeps posting the rest */
                uint16_t ci = (uint16_t)(ctx_status(&r) >> 16);
                while ((uint16_t)(r.pi - ci) < 4 && posted < 200) {
                    hq_put_desc(&r, &d);
                    posted++;
                }
                hq_ring(&r);
            }
        }
        CHECK_EQ(rd_le(N.mem[4] + DST_OFF + 8, 8), 200, "all executed");
    }
    net_free();
}

/* target cannot send responses: it queues them, then refuses requests */
static void test_resp_backpressure(void) {
    hq q[3];
    kolo_cqe e;
    int i, c, done = 0;
    net_init(T421);
    N.cap_from = 1000;
    std_windows(1);
    for (c = 0; c < 3; c++)
        hq_open(&q[c], 0, c, 5, 5);
    fill_rand(N.mem[0] + SRC_OFF, 0x1000);
    N.block_send[1] = 1;
    for (c = 0; c < 3; c++) {
        for (i = 0; i < 30; i++) {
            kolo_desc d = D(KOLO_D_PUT, KOLO_DF_COMPLETE, 1, 8, A(DST_OFF + 8 * (30 * c + i)), KEY1,
                            A(SRC_OFF + 8 * (30 * c + i)), 0);
            hq_put_desc(&q[c], &d);
        }
        hq_ring(&q[c]);
    }
    run(600);
    CHECK_EQ(stat(1, KOLO_CSR_STAT_RX_PKTS), KOLO_NI_RESP_QUEUE, "executed as many as responses fit");
    CHECK(N.recv_refused > 0, "then refused");
    CHECK_EQ(stat(1, KOLO_CSR_STAT_TX_PKTS), 0, "nothing sent");
    CHECK(!kolo_ni_idle(N.ni[1]), "responses queued");
    CHECK_EQ(ctx_outstanding(&q[0]) & 0xffffffffu, 30, "ops outstanding");
    CHECK_EQ((ctx_outstanding(&q[0]) >> 32) + (ctx_outstanding(&q[1]) >> 32) + (ctx_outstanding(&q[2]) >> 32), 90,
             "PUT packets unacknowledged");
    N.block_send[1] = 0;
    for (c = 0; c < 3; c++)
        for (i = 0; i < 30; i++)
            if (hq_wait(&q[c], &e, 2000) && e.status == 0)
                done++;
    CHECK_EQ(done, 90, "all completed");
    CHECK(!memcmp(N.mem[0] + SRC_OFF, N.mem[1] + DST_OFF, 720), "all written");
    CHECK(run_quiet(100), "quiet");
    net_free();
}

/* more packets than tags: the NI waits for tags; OUTSTANDING */
static void test_tags(void) {
    hq q, r;
    kolo_cqe e;
    uint8_t *want = (uint8_t *)malloc(MEM_SIZE);
    uint32_t len = 130 * 1024; /* 520 packets */
    net_init(T421);
    N.cap_from = 100000;
    std_windows(2);
    hq_open(&q, 0, 0, 3, 3);
    hq_open(&r, 0, 15, 3, 3);
    fill_rand(N.mem[0], MEM_SIZE);
    memset(N.mem[0], 0, 0x10000);
    memcpy(want, N.mem[2], MEM_SIZE);
    memcpy(want + DST_OFF - 0x10000, N.mem[0] + 0x30000, len);
    win_set(2, 1, A(DST_OFF - 0x10000), DST_LEN + 0x10000, KEY1, KOLO_WIN_WRITE | KOLO_WIN_READ, 0);
    N.block_recv[2] = 1;
    hq_post(&q, &(kolo_desc){KOLO_D_PUT, KOLO_DF_COMPLETE, id_of(2), len,
                             A(DST_OFF - 0x10000) | (uint64_t)KEY1 << 48, A(0x30000), 0});
    run(400);
    CHECK_EQ(stat(0, KOLO_CSR_STAT_TX_PKTS), KOLO_NI_NUM_TAGS, "stops at 256 tags");
    CHECK(ctx_outstanding(&q) == (1 | (uint64_t)KOLO_NI_NUM_TAGS << 32), "OUTSTANDING %llx",
          (unsigned long long)ctx_outstanding(&q));
    /* another context waits for a tag too */
    hq_post(&r, &(kolo_desc){KOLO_D_GET, KOLO_DF_COMPLETE, id_of(2), 8, A(DST_OFF) | (uint64_t)KEY1 << 48,
                             A(SRC_OFF), 0});
    run(100);
    CHECK_EQ(stat(0, KOLO_CSR_STAT_TX_PKTS), KOLO_NI_NUM_TAGS, "still 256");
    CHECK_EQ(ctx_outstanding(&r), 1, "GET outstanding");
    N.block_recv[2] = 0;
    CHECK(hq_wait(&r, &e, 5000), "GET done");
    CHECK_EQ(e.status, 0, "GET ok");
    CHECK(hq_wait(&q, &e, 50000), "PUT done");
    CHECK_EQ(e.status, 0, "PUT ok");
    mem_eq(2, want, "big PUT");
    CHECK_EQ(ctx_outstanding(&q), 0, "none outstanding");
    CHECK_EQ(stat(0, KOLO_CSR_STAT_TX_PKTS), 520 + 1, "packets");
    CHECK(run_quiet(100), "quiet");
    free(want);
    net_free();
}

/* contexts do not see each other's queues; keys select windows */
static void test_isolation(void) {
    hq a, b;
    kolo_cqe e;
    kolo_desc da, db;
    uint8_t *snap = (uint8_t *)malloc(MEM_SIZE);
    net_init(T421);
    da = D(KOLO_D_PUT, KOLO_DF_COMPLETE, 1, 8, A(DST_OFF), 0x54, A(SRC_OFF), 0);
    db = D(KOLO_D_PUT, KOLO_DF_COMPLETE, 1, 8, A(DST_OFF + 0x1000), 0x65, A(SRC_OFF + 8), 0);
    win_set(1, 4, A(DST_OFF), 0x1000, 0x54, KOLO_WIN_READ | KOLO_WIN_WRITE, 3);
    win_set(1, 5, A(DST_OFF + 0x1000), 0x1000, 0x65, KOLO_WIN_READ | KOLO_WIN_WRITE, 5);
    CHECK_EQ(r64(1, KOLO_CSR_WIN(4) + KOLO_WIN_CTRL), 0x54 | KOLO_WIN_READ | KOLO_WIN_WRITE | KOLO_WIN_ENABLE | 3u << 16,
             "window CTRL read back");
    hq_open(&a, 0, 3, 2, 2);
    hq_open(&b, 0, 5, 2, 2);
    fill_rand(N.mem[0] + SRC_OFF, 64);
    fill_rand(N.mem[1], MEM_SIZE);
    hq_put_desc(&a, &da);
    hq_put_desc(&b, &db);
    hq_ring(&a); /* only a's doorbell */
    CHECK(hq_wait(&a, &e, 500) && e.status == 0, "a's PUT");
    run(100);
    CHECK(!hq_poll(&b, &e, 1), "b's descriptor not run");
    CHECK_EQ(ctx_status(&b), 1, "b's consumer index 0");
    CHECK(!memcmp(N.mem[1] + DST_OFF, N.mem[0] + SRC_OFF, 8), "a wrote");
    CHECK(memcmp(N.mem[1] + DST_OFF + 0x1000, N.mem[0] + SRC_OFF + 8, 8), "b did not");
    /* a bad doorbell of b does not stop a */
    w32(0, KOLO_CSR_DOORBELL(5) + KOLO_DB_SQ_PI, 100);
    CHECK(hq_wait(&b, &e, 100) && e.status == KOLO_ST_BAD_DOORBELL, "b stopped");
    CHECK_EQ(ctx_status(&a), 1u | 1u << 16, "a running");
    /* keys: window w's key opens only window w's range */
    memcpy(snap, N.mem[1], MEM_SIZE);
    da.raddr_key = A(DST_OFF + 0x1000) | 0x54ull << 48; /* a's key, b's range */
    CHECK_EQ(exec1(&a, da, NULL), KOLO_ST_REMOTE_BOUNDS, "other window's range");
    da.raddr_key = A(DST_OFF + 0x1000) | 0x55ull << 48; /* window 5 with a's check nibble */
    CHECK_EQ(exec1(&a, da, NULL), KOLO_ST_REMOTE_KEY, "forged key");
    da.raddr_key = A(DST_OFF) | 0x64ull << 48; /* window 4 with b's check nibble */
    CHECK_EQ(exec1(&a, da, NULL), KOLO_ST_REMOTE_KEY, "forged key 2");
    mem_eq(1, snap, "untouched");
    da.raddr_key = A(DST_OFF + 0x1000) | 0x65ull << 48; /* the right key works from any context */
    CHECK_EQ(exec1(&a, da, NULL), 0, "right key");
    /* re-keying a window revokes the old key */
    w64(1, KOLO_CSR_WIN(5) + KOLO_WIN_CTRL, 0x75 | KOLO_WIN_READ | KOLO_WIN_WRITE | KOLO_WIN_ENABLE);
    CHECK_EQ(exec1(&a, da, NULL), KOLO_ST_REMOTE_KEY, "old key revoked");
    free(snap);
    net_free();
}

/* disabling a context with operations in flight; no leak of tags or ops */
static void test_disable(void) {
    hq q;
    kolo_cqe e;
    int i;
    net_init(T421);
    N.max_delay = 30;
    std_windows(1);
    hq_open(&q, 0, 4, 3, 3);
    for (i = 0; i < 8; i++) {
        kolo_desc d = D(i % 2 ? KOLO_D_GET : KOLO_D_PUT, KOLO_DF_COMPLETE, 1, 20000, A(DST_OFF), KEY1, A(SRC_OFF), 0);
        hq_put_desc(&q, &d);
    }
    hq_ring(&q);
    run(40);
    CHECK(ctx_outstanding(&q) != 0, "in flight");
    w64(0, KOLO_CSR_CTX(4) + KOLO_CTX_CTRL, 0);
    CHECK_EQ(ctx_status(&q) & 1u, 0, "disabled");
    CHECK_EQ(ctx_outstanding(&q), 0, "nothing counted after disable");
    memset(N.mem[0] + SRC_OFF + 0x8000, 0x5a, 64);
    CHECK(run_quiet(20000), "in-flight packets drain, NI idle");
    CHECK(!memcmp(N.mem[0] + SRC_OFF + 0x8000, "\x5a\x5a\x5a\x5a", 4), "no stray DMA");
    hq_open(&q, 0, 4, 3, 3);
    CHECK_EQ(exec1(&q, D(KOLO_D_PUT, 0, 1, 256 * 300, A(DST_OFF), KEY1, A(SRC_OFF), 0), &e), 0,
             "works again, all tags back");
    CHECK(!hq_poll(&q, &e, 1), "no stale completion");
    CHECK(run_quiet(100), "quiet");
    net_free();
}

/* ---- random mix over several nodes and contexts ------------------------------------- */
#define RC 3        /* contexts per node */
#define REG 0x800u  /* PUT/GET region per (initiator, ctx) at each target */
#define PRIV 16u    /* private atomic words per (initiator, ctx) at each target */
/* target layout inside RND_OFF: regions [0, 8*RC*REG), private words, counters */
#define R_REG(i, j) (RND_OFF + ((unsigned)(i) * RC + (unsigned)(j)) * REG)
#define R_PRIV(i, j) (RND_OFF + 0x10000u + ((unsigned)(i) * RC + (unsigned)(j)) * PRIV)
#define R_CNT (RND_OFF + 0x11000u) /* counters: 0 add64, 8 xor64, 16 fadd-only, 24 add32 (+28 add32), 32 or, 40 and */
#define R_SRC(j) (RND_OFF + 0x20000u + (unsigned)(j) * 0x1000u) /* PUT sources, never written */
#define R_LAND(j) (RND_OFF + 0x30000u + (unsigned)(j) * 0x1000u) /* GET landing */

typedef struct {
    int used, pio;
    kolo_desc d;
    int target;
    uint32_t lo, hi;       /* busy range (offsets at the target or landing) for overlap checks */
    uint32_t llo, lhi;     /* landing range */
    int kind;              /* 0 region put/get, 1 private atomic, 2 counter, 3 nop, 4 expected error */
    int want_status;
    uint8_t inl[32];
    uint64_t seq;
} rop;

typedef struct {
    hq q;
    int ctx;
    rop slot[64];
    rop piop;
    uint64_t seq;
    uint64_t completed;
    unsigned cq_unreleased;
} rctx;

static rctx RX[MAXN][RC];
static uint8_t *shadow[MAXN];
static uint8_t win_key[MAXN];
static uint64_t fadd_pairs[4096][3]; /* old value, increment, target */
static uint64_t fadd_init[MAXN];
static int n_fadd;

static int range_busy(int node, int j, int target, int kind, uint32_t lo, uint32_t hi, int landing) {
    rctx *r = &RX[node][j];
    int s;
    for (s = 0; s < 65; s++) {
        rop *o = s < 64 ? &r->slot[s] : &r->piop;
        if (!o->used)
            continue;
        if (landing) {
            if (o->lhi > o->llo && lo < o->lhi && o->llo < hi)
                return 1;
            continue;
        }
        if (o->target != target || o->kind != kind)
            continue;
        if (kind == 1 || (lo < o->hi && o->lo < hi))
            return 1;
    }
    return 0;
}

static void apply_completion(int node, int j, rop *o, const kolo_cqe *e) {
    int t = o->target;
    uint64_t raddr = o->d.raddr_key & 0xffffffffffffull;
    unsigned op = o->d.op, sz = (o->d.flags & KOLO_DF_SIZE32) ? 4 : 8;
    CHECK_EQ(e->status, o->want_status, "node %d ctx %d op %u", node, j, op);
    CHECK_EQ(e->op, op, "op");
    if (e->status != o->want_status)
        return;
    if (o->kind == 4 || op == KOLO_D_NOP)
        return;
    if (op == KOLO_D_PUT) {
        const uint8_t *src = o->pio || (o->d.flags & KOLO_DF_INLINE) ? o->inl : N.mem[node] + (o->d.w2 - MEM_BASE);
        memcpy(shadow[t] + (raddr - MEM_BASE), src, o->d.len);
    } else if (op == KOLO_D_GET) {
        memcpy(shadow[node] + (o->d.w2 - MEM_BASE), shadow[t] + (raddr - MEM_BASE), o->d.len);
        CHECK(!memcmp(N.mem[node] + (o->d.w2 - MEM_BASE), shadow[t] + (raddr - MEM_BASE), o->d.len),
              "GET data node %d ctx %d", node, j);
    } else {
        uint8_t *w = shadow[t] + (raddr - MEM_BASE);
        uint64_t old = rd_le(w, sz);
        if (o->kind == 1) /* private word: exact */
            CHECK(e->result == (is_fetch(op) ? old : 0), "private atomic %u result %llx want %llx", op,
                  (unsigned long long)e->result, (unsigned long long)old);
        else if (raddr == A(R_CNT + 16)) {
            if (n_fadd < 4096) {
                fadd_pairs[n_fadd][0] = e->result - fadd_init[t]; /* relative to the start */
                fadd_pairs[n_fadd][1] = o->d.w2;
                fadd_pairs[n_fadd][2] = (uint64_t)t;
                n_fadd++;
            }
        } else if (!is_fetch(op)) {
            CHECK_EQ(e->result, 0, "no result");
        }
        wr_le(w, atomic_apply(op, old, o->d.w2, o->d.w3, sz), sz);
    }
}

static int cmp_pair(const void *a, const void *b) {
    const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;
    if (x[2] != y[2])
        return x[2] < y[2] ? -1 : 1;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* make a random op for (node, j); 0 if it would conflict */
static int gen_op(int node, int j, rop *o, int pio) {
    int t = (int)test_rand((unsigned)N.n);
    unsigned kind = test_rand(100), flags = KOLO_DF_COMPLETE;
    uint8_t key = win_key[t];
    memset(o, 0, sizeof *o);
    o->target = t;
    if (test_rand(5) == 0)
        flags |= KOLO_DF_ORDERED;
    if (test_rand(12) == 0)
        flags |= KOLO_DF_FENCE;
    if (kind < 45) { /* PUT / GET in own region */
        int get = !pio && test_rand(3) == 0;
        uint32_t len = pio ? 1 + test_rand(32) : test_rand(4) ? 1 + test_rand(300) : 1 + test_rand(REG);
        uint32_t off = test_rand(REG - len + 1);
        uint64_t raddr = A(R_REG(node, j) + off);
        o->kind = 0;
        o->lo = R_REG(node, j) + off;
        o->hi = o->lo + len;
        if (range_busy(node, j, t, 0, o->lo, o->hi, 0))
            return 0;
        if (get) {
            uint32_t loff = test_rand(0x1000 - len + 1);
            o->llo = R_LAND(j) + loff;
            o->lhi = o->llo + len;
            if (range_busy(node, j, t, 0, o->llo, o->lhi, 1))
                return 0;
            o->d = D(KOLO_D_GET, flags, t, len, raddr, key, A(o->llo), 0);
        } else if (pio || (len <= 16 && test_rand(2))) {
            fill_rand(o->inl, 32);
            o->d = D(KOLO_D_PUT, flags | (pio ? 0 : KOLO_DF_INLINE), t, len, raddr, key, rd_le(o->inl, 8),
                     rd_le(o->inl + 8, 8));
        } else {
            o->d = D(KOLO_D_PUT, flags, t, len, raddr, key, A(R_SRC(j) + test_rand(0x1000 - len + 1)), 0);
        }
    } else if (kind < 65) { /* private word: one op at a time, exact results */
        unsigned op = KOLO_D_ADD + test_rand(10), sz = test_rand(2) ? 4 : 8;
        uint32_t off = R_PRIV(node, j) + (sz == 8 ? 0 : 8 + 4 * test_rand(2));
        uint64_t cmp = test_rand(2) ? rd_le(shadow[t] + off, sz) : test_rand64();
        o->kind = 1;
        if (range_busy(node, j, t, 1, 0, 0, 0))
            return 0;
        o->d = D(op, flags | (sz == 4 ? KOLO_DF_SIZE32 : 0), t, 0, A(off), key, test_rand64(), cmp);
    } else if (kind < 90) { /* shared counters: commutative ops only */
        unsigned c = test_rand(7);
        static const unsigned ops[7][2] = {{KOLO_D_ADD, KOLO_D_FETCH_ADD}, {KOLO_D_XOR, KOLO_D_FETCH_XOR},
                                           {KOLO_D_FETCH_ADD, KOLO_D_FETCH_ADD}, {KOLO_D_ADD, KOLO_D_FETCH_ADD},
                                           {KOLO_D_ADD, KOLO_D_FETCH_ADD}, {KOLO_D_OR, KOLO_D_FETCH_OR},
                                           {KOLO_D_AND, KOLO_D_FETCH_AND}};
        static const unsigned offs[7] = {0, 8, 16, 24, 28, 32, 40};
        unsigned op = ops[c][test_rand(2)];
        uint64_t v = c == 2 ? 1 + test_rand(1000) : c >= 5 ? (c == 5 ? 1ull << test_rand(64) : ~(1ull << test_rand(64)))
                                                          : test_rand64();
        o->kind = 2;
        o->d = D(op, flags | (c == 3 || c == 4 ? KOLO_DF_SIZE32 : 0), t, 0, A(R_CNT + offs[c]), key, v, 0);
    } else if (kind < 94) { /* NOP / quiet */
        o->kind = 3;
        o->d = D(KOLO_D_NOP, flags, -1, 0, 0, 0, 0, 0);
    } else { /* expected errors */
        unsigned w = test_rand(4);
        o->kind = 4;
        if (w == 0) {
            o->d = D(KOLO_D_PUT, flags, t, 8, A(R_REG(node, j)), key ^ 0x30u, A(R_SRC(j)), 0);
            o->want_status = KOLO_ST_REMOTE_KEY;
        } else if (w == 1) {
            o->d = D(KOLO_D_GET, flags, t, 16, A(RND_OFF + 0x11ff0), key, A(R_LAND(j)), 0); /* one packet */
            o->want_status = KOLO_ST_REMOTE_BOUNDS;
        } else if (w == 2) {
            o->d = D(KOLO_D_FETCH_ADD, flags, t, 0, A(R_CNT + 4), key, 1, 0);
            o->want_status = KOLO_ST_BAD_ALIGN;
        } else {
            o->d = D(KOLO_D_PUT, flags, t, 0, A(R_REG(node, j)), key, A(R_SRC(j)), 0);
            o->want_status = KOLO_ST_BAD_LEN;
        }
    }
    return 1;
}

static void test_random_mix(void) {
    static const kolo_topo topos[] = {{{2, 2, 2}}, {{4, 2, 1}}, {{3, 2, 1}}, {{8, 1, 1}}, {{2, 1, 3}}};
    kolo_topo t = topos[test_rand(5)];
    int node, j, total = 0, target_ops = 3000, guard = 0, i;
    uint64_t posted = 0, completed = 0;
    net_init(t);
    N.max_delay = 1 + test_rand(25);
    N.refuse_send_pct = test_rand(10);
    N.refuse_recv_pct = test_rand(10);
    N.cap_from = 8 + (int)test_rand(64);
    printf("  random mix: torus %ux%ux%u, delay <= %u, refuse send %u%% recv %u%%, cap %d\n", t.size[0], t.size[1],
           t.size[2], N.max_delay, N.refuse_send_pct, N.refuse_recv_pct, N.cap_from);
    memset(RX, 0, sizeof RX);
    n_fadd = 0;
    for (node = 0; node < N.n; node++) {
        unsigned used = 0;
        win_key[node] = (uint8_t)(test_rand(16) << 4 | 1);
        win_set(node, 1, A(RND_OFF), 0x11ff8, win_key[node], KOLO_WIN_READ | KOLO_WIN_WRITE | KOLO_WIN_ATOMIC, 0);
        fill_rand(N.mem[node] + RND_OFF, 0x40000);
        for (j = 0; j < RC; j++) {
            unsigned c, sq = 1 + test_rand(5);
            do
                c = test_rand(KOLO_NI_NUM_CTX);
            while (used & (1u << c));
            used |= 1u << c;
            RX[node][j].ctx = (int)c;
            hq_open(&RX[node][j].q, node, (int)c, sq, sq + test_rand(2));
        }
        shadow[node] = (uint8_t *)malloc(MEM_SIZE);
        memcpy(shadow[node], N.mem[node], MEM_SIZE);
        fadd_init[node] = rd_le(N.mem[node] + R_CNT + 16, 8);
    }
    while ((total < target_ops || completed < posted) && guard < 400000) {
        guard++;
        /* post */
        if (total < target_ops && test_rand(2)) {
            node = (int)test_rand((unsigned)N.n);
            j = (int)test_rand(RC);
            {
                rctx *r = &RX[node][j];
                int use_pio = test_rand(10) == 0;
                rop o;
                if (use_pio) {
                    if (!r->piop.used && kolo_ni_mmio_write_ready(N.ni[node], 2, KOLO_PIO_PAGE(r->ctx)) &&
                        gen_op(node, j, &o, 1)) {
                        o.used = 1;
                        o.pio = 1;
                        r->piop = o;
                        pio(node, r->ctx, &o.d, o.inl);
                        total++;
                        posted++;
                    }
                } else if (!r->slot[r->q.pi % r->q.sq_n].used && gen_op(node, j, &o, 0)) {
                    /* completions come in any order and name the SQ slot: a
                     * slot is reused only after its completion */
                    int s = r->q.pi % r->q.sq_n;
                    o.used = 1;
                    o.seq = r->seq++;
                    r->slot[s] = o;
                    hq_post(&r->q, &o.d);
                    total++;
                    posted++;
                }
            }
        }
        cycle();
        /* poll */
        for (node = 0; node < N.n; node++)
            for (j = 0; j < RC; j++) {
                rctx *r = &RX[node][j];
                kolo_cqe e;
                while (hq_poll(&r->q, &e, 0)) {
                    rop *o;
                    r->cq_unreleased++;
                    if (e.index == 0xffff) {
                        o = &r->piop;
                        CHECK(o->used, "PIO completion without PIO op");
                    } else {
                        o = &r->slot[e.index % 64];
                        CHECK(e.index < r->q.sq_n && o->used, "completion of unknown slot %u", e.index);
                        r->completed++;
                    }
                    if (!o->used)
                        continue;
                    if (o->d.flags & KOLO_DF_FENCE) { /* everything posted before has completed */
                        int s;
                        for (s = 0; s < 64 && !o->pio; s++)
                            if (r->slot[s].used && r->slot[s].seq < o->seq)
                                CHECK(0, "FENCE op completed before an earlier op");
                    }
                    apply_completion(node, j, o, &e);
                    o->used = 0;
                    completed++;
                }
                if (r->cq_unreleased && (r->cq_unreleased >= r->q.cq_n / 2 || test_rand(4) == 0)) {
                    w32(node, KOLO_CSR_DOORBELL(r->ctx) + KOLO_DB_CQ_CI, r->q.cq_next);
                    r->cq_unreleased = 0;
                }
            }
    }
    CHECK(guard < 400000, "random mix finished (posted %llu completed %llu)", (unsigned long long)posted,
          (unsigned long long)completed);
    CHECK(run_quiet(20000), "quiet at the end");
    for (node = 0; node < N.n; node++) {
        /* compare everything but the SQ/CQ area */
        CHECK(!memcmp(N.mem[node] + 0x10000, shadow[node] + 0x10000, MEM_SIZE - 0x10000), "node %d memory", node);
        for (i = 0x10000; i < (int)MEM_SIZE; i++)
            if (N.mem[node][i] != shadow[node][i]) {
                CHECK(0, "node %d first difference at 0x%x", node, i);
                break;
            }
        CHECK_EQ(stat(node, KOLO_CSR_STAT_BAD_PKTS), 0, "no bad packets");
        CHECK_EQ(stat(node, KOLO_CSR_STAT_DMA_ERR), 0, "no DMA errors");
        CHECK_EQ(err_csr(node), 0, "no CSR errors");
        for (j = 0; j < RC; j++)
            CHECK_EQ(ctx_outstanding(&RX[node][j].q), 0, "nothing outstanding");
    }
    /* fetch-add-only counters: per target, the old values returned form one
     * chain from the initial value to the final one (every fetch saw the sum
     * of exactly the fetches before it) */
    qsort(fadd_pairs, (size_t)n_fadd, sizeof fadd_pairs[0], cmp_pair);
    for (node = 0, i = 0; node < N.n; node++) {
        uint64_t rel = 0;
        for (; i < n_fadd && fadd_pairs[i][2] == (uint64_t)node; i++) {
            if (fadd_pairs[i][0] != rel) {
                CHECK(0, "node %d fetch-add chain broken at %llu", node, (unsigned long long)rel);
                break;
            }
            rel += fadd_pairs[i][1];
        }
        for (; i < n_fadd && fadd_pairs[i][2] == (uint64_t)node; i++)
            ;
        if (n_fadd < 4096)
            CHECK(rd_le(N.mem[node] + R_CNT + 16, 8) - fadd_init[node] == rel, "node %d fetch-add final", node);
    }
    printf("  random mix: %d ops, %llu completions, %d fetch-add results chained, %llu cycles\n", total,
           (unsigned long long)completed, n_fadd, (unsigned long long)N.now);
    for (node = 0; node < N.n; node++)
        free(shadow[node]);
    net_free();
}


/* ---- end-to-end reliability (kolo_ni_set_e2e) ------------------------------------------ */
static struct {
    int lose_op, lose_count, dup_op, dup_count; /* wire op to lose / duplicate, how many more */
    int sent_op[64];
    uint64_t sent_h0[64];
    int nsent;
} fz;
static int fate_fn(int node, const kolo_pkt *p) {
    int op = (int)((p->header[0] >> 24) & 15u);
    (void)node;
    if (fz.nsent < 64) {
        fz.sent_op[fz.nsent] = op;
        fz.sent_h0[fz.nsent++] = p->header[0];
    }
    if (op == fz.lose_op && fz.lose_count > 0) {
        fz.lose_count--;
        return 1;
    }
    if (op == fz.dup_op && fz.dup_count > 0) {
        fz.dup_count--;
        return 2;
    }
    return 0;
}
static void e2e_on(int target_dedup) {
    kolo_ni_e2e_cfg c = {1, 200, 3};
    int i;
    for (i = 0; i < N.n; i++) {
        c.enable = i == 7 ? target_dedup : 1;
        kolo_ni_set_e2e(N.ni[i], &c);
    }
    N.e2e = 1;
    N.fate = fate_fn;
    memset(&fz, 0, sizeof fz);
    fz.lose_op = fz.dup_op = -1;
}
static kolo_ni_e2e_stats e2e_st(int node) {
    kolo_ni_e2e_stats st;
    kolo_ni_get_e2e(N.ni[node], NULL, &st);
    return st;
}

/* a fetch-add whose request or response is lost, or whose response comes
 * twice: executed exactly once, the right old value returned */
static void test_e2e_atomic(void) {
    static const struct {
        int lose, lose_n, dup, dedup;
        const char *what;
    } cases[] = {
        {KOLO_OP_FETCH_ADD, 1, -1, 1, "request lost"},
        {KOLO_OP_GET_RESP, 1, -1, 1, "response lost"},
        {KOLO_OP_GET_RESP, 2, -1, 1, "response lost twice"},
        {-1, 0, KOLO_OP_GET_RESP, 1, "response duplicated"},
        {-1, 0, KOLO_OP_FETCH_ADD, 1, "request duplicated"},
    };
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        hq q;
        kolo_cqe e;
        net_init(T222);
        e2e_on(cases[k].dedup);
        std_windows(7);
        hq_open(&q, 0, 1, 2, 3);
        wr_le(N.mem[7] + DST_OFF, 1000, 8);
        fz.lose_op = cases[k].lose;
        fz.lose_count = cases[k].lose_n;
        fz.dup_op = cases[k].dup;
        fz.dup_count = cases[k].dup >= 0;
        CHECK_EQ(exec1(&q, D(KOLO_D_FETCH_ADD, 0, 7, 0, A(DST_OFF), KEY1, 5, 0), &e), 0, "%s: status", cases[k].what);
        CHECK_EQ(e.result, 1000, "%s: fetched value", cases[k].what);
        CHECK(run_quiet(5000), "%s: quiet", cases[k].what);
        CHECK_EQ(rd_le(N.mem[7] + DST_OFF, 8), 1005, "%s: executed exactly once", cases[k].what);
        /* a second one: the tag's generation has moved on, it must execute */
        CHECK_EQ(exec1(&q, D(KOLO_D_FETCH_ADD, 0, 7, 0, A(DST_OFF), KEY1, 5, 0), &e), 0, "%s: second", cases[k].what);
        CHECK_EQ(e.result, 1005, "%s: second fetched value", cases[k].what);
        CHECK_EQ(rd_le(N.mem[7] + DST_OFF, 8), 1010, "%s: second executed once", cases[k].what);
        kolo_ni_e2e_stats s0 = e2e_st(0), s7 = e2e_st(7);
        CHECK_EQ(s0.retransmits, (uint64_t)cases[k].lose_n, "%s: retransmits", cases[k].what);
        CHECK_EQ(s7.dup_requests,
                 (uint64_t)(cases[k].lose == KOLO_OP_GET_RESP ? cases[k].lose_n : cases[k].dup == KOLO_OP_FETCH_ADD),
                 "%s: duplicate requests at the target", cases[k].what);
        CHECK_EQ(s0.dup_responses,
                 (uint64_t)(cases[k].dup == KOLO_OP_GET_RESP || cases[k].dup == KOLO_OP_FETCH_ADD),
                 "%s: duplicate responses", cases[k].what);
        CHECK_EQ(stat(0, KOLO_CSR_STAT_BAD_PKTS) + stat(7, KOLO_CSR_STAT_BAD_PKTS), 0, "%s: no bad packets",
                 cases[k].what);
        net_free();
    }
}

/* Regression: a tag's uses alternate between targets (all tags to node 7,
 * then all to node 6, then to 7 again). With one generation bit per tag,
 * node 7 saw the third use with the same bit as the first and answered it
 * from its record without executing it. The bit must alternate per (tag,
 * destination). */
static void test_e2e_targets(void) {
    hq q;
    kolo_cqe e;
    unsigned i, bad = 0, n = 3 * KOLO_NI_NUM_TAGS;
    net_init(T222);
    e2e_on(1);
    std_windows(6);
    std_windows(7);
    hq_open(&q, 0, 1, 2, 3);
    wr_le(N.mem[6] + DST_OFF, 0, 8);
    wr_le(N.mem[7] + DST_OFF, 0, 8);
    for (i = 0; i < n; i++) {
        int dst = (i / KOLO_NI_NUM_TAGS) % 2 ? 6 : 7;
        if (exec1(&q, D(KOLO_D_ADD, 0, dst, 0, A(DST_OFF), KEY1, 1, 0), &e) != 0)
            bad++;
    }
    CHECK_EQ(bad, 0, "every add completes");
    CHECK_EQ(rd_le(N.mem[7] + DST_OFF, 8), 2 * KOLO_NI_NUM_TAGS, "node 7 executed every add once");
    CHECK_EQ(rd_le(N.mem[6] + DST_OFF, 8), KOLO_NI_NUM_TAGS, "node 6 executed every add once");
    CHECK_EQ(e2e_st(7).dup_requests + e2e_st(6).dup_requests, 0, "no request taken for a repeat");
    /* the model has no reload and sends no RESYNC (docs/ni.md 10.1): E2E_RESYNC reads 0, its
     * upper half too, and refuses writes like the other counters */
    {
        uint32_t e0 = err_csr(0);
        CHECK_EQ(r64(0, KOLO_CSR_E2E_RESYNC), 0, "E2E_RESYNC reads 0 in the model");
        CHECK_EQ(r32(0, KOLO_CSR_E2E_RESYNC + 4), 0, "E2E_RESYNC upper half");
        w64(0, KOLO_CSR_E2E_RESYNC, 5);
        CHECK_EQ(err_csr(0) - e0, 1, "a write to E2E_RESYNC refused");
        CHECK_EQ(r64(0, KOLO_CSR_E2E_RESYNC), 0, "E2E_RESYNC unchanged by the write");
    }
    net_free();
}

/* a route entry that changes (new tables around a fault) makes unanswered
 * requests to that destination go again after timeout/8, not the whole
 * timeout; one that was not lost still runs once */
static void test_e2e_route_change(void) {
    hq q;
    kolo_cqe e;
    kolo_desc d;
    uint32_t def, alt = KOLO_RE_VALID | KOLO_RS_SIGN(0) | KOLO_RS_SIGN(1) | KOLO_RS_SIGN(2) |
                        1u << KOLO_RS_HOPS_SHIFT(0) | 1u << KOLO_RS_HOPS_SHIFT(1) | 1u << KOLO_RS_HOPS_SHIFT(2);
    net_init(T222);
    e2e_on(1);
    std_windows(7);
    hq_open(&q, 0, 1, 2, 3);
    wr_le(N.mem[7] + DST_OFF, 0, 8);
    def = kolo_route_default(&N.topo, id_of(0), id_of(7));
    N.check_hdr = 0;
    fz.lose_op = KOLO_OP_ADD;
    fz.lose_count = 2; /* the first copy sent again is lost too */
    d = D(KOLO_D_ADD, KOLO_DF_COMPLETE, 7, 0, A(DST_OFF), KEY1, 1, 0);
    hq_post(&q, &d);
    run(50);
    CHECK_EQ(e2e_st(0).retransmits, 0, "nothing sent again yet");
    w32(0, KOLO_CSR_ROUTE(7), alt);
    run(100); /* 150 cycles after sending (timers are looked at every 64): before the timeout of 200 */
    CHECK_EQ(e2e_st(0).retransmits, 1, "sent again soon after its route changed");
    {
        uint64_t oldest = 0;
        kolo_ni_outstanding_age(N.ni[0], &oldest);
        /* the wait counts from the first sending, not from the timer's new base */
        CHECK(oldest >= 140 && oldest < 200, "operation waited %llu cycles", (unsigned long long)oldest);
    }
    CHECK(hq_wait(&q, &e, 5000) && e.status == KOLO_ST_OK, "lost add completes");
    CHECK_EQ(rd_le(N.mem[7] + DST_OFF, 8), 1, "executed once");
    /* not lost: the route changes while it is on its way */
    d = D(KOLO_D_ADD, KOLO_DF_COMPLETE, 7, 0, A(DST_OFF), KEY1, 1, 0);
    hq_post(&q, &d);
    run(3);
    w32(0, KOLO_CSR_ROUTE(7), def);
    CHECK(hq_wait(&q, &e, 5000) && e.status == KOLO_ST_OK, "second add completes");
    CHECK(run_quiet(5000), "quiet");
    CHECK_EQ(rd_le(N.mem[7] + DST_OFF, 8), 2, "second executed once");
    net_free();
}

/* negative control: without the target's record a retransmitted fetch-add
 * runs twice; the check above would see it */
static void test_e2e_control(void) {
    hq q;
    kolo_cqe e;
    net_init(T222);
    e2e_on(0);
    std_windows(7);
    hq_open(&q, 0, 1, 2, 3);
    wr_le(N.mem[7] + DST_OFF, 1000, 8);
    fz.lose_op = KOLO_OP_GET_RESP;
    fz.lose_count = 1;
    exec1(&q, D(KOLO_D_FETCH_ADD, 0, 7, 0, A(DST_OFF), KEY1, 5, 0), &e);
    run_quiet(5000);
    /* the target neither dedups nor echoes the generation: every copy (first
     * + 3 retransmissions) runs, and the initiator, whose generation never
     * comes back, gives up */
    CHECK_EQ(rd_le(N.mem[7] + DST_OFF, 8), 1020, "without dedup every copy of the atomic runs (control)");
    net_free();
}

/* a multi-packet PUT with one packet lost; a GET whose response is lost */
static void test_e2e_put_get(void) {
    hq q;
    kolo_cqe e;
    uint8_t src[1000];
    net_init(T222);
    e2e_on(1);
    std_windows(7);
    hq_open(&q, 0, 1, 2, 3);
    fill_rand(src, sizeof src);
    memcpy(N.mem[0] + SRC_OFF, src, sizeof src);
    fz.lose_op = KOLO_OP_PUT;
    fz.lose_count = 2;
    CHECK_EQ(exec1(&q, D(KOLO_D_PUT, 0, 7, 1000, A(DST_OFF + 100), KEY1, A(SRC_OFF), 0), &e), 0, "put");
    CHECK(!memcmp(N.mem[7] + DST_OFF + 100, src, sizeof src), "put data");
    fz.lose_op = KOLO_OP_GET_RESP;
    fz.lose_count = 1;
    memset(N.mem[0] + SRC_OFF + 0x2000, 0, sizeof src);
    CHECK_EQ(exec1(&q, D(KOLO_D_GET, 0, 7, 1000, A(DST_OFF + 100), KEY1, A(SRC_OFF + 0x2000), 0), &e), 0, "get");
    CHECK(!memcmp(N.mem[0] + SRC_OFF + 0x2000, src, sizeof src), "get data");
    CHECK_EQ(e2e_st(0).retransmits, 3, "retransmits");
    CHECK(run_quiet(5000), "quiet");
    net_free();
}

/* give up: every request lost -> KOLO_ST_TIMEOUT after max_retries; the
 * route invalid while waiting through max_retries timeouts ->
 * KOLO_ST_BAD_DST, valid again before that -> completes; a retransmission
 * takes the route of the current table */
static void test_e2e_give_up(void) {
    hq q;
    kolo_cqe e;
    uint64_t t0;
    net_init(T222);
    e2e_on(1);
    std_windows(7);
    hq_open(&q, 0, 1, 2, 3);
    fz.lose_op = KOLO_OP_ADD;
    fz.lose_count = 100;
    t0 = N.now;
    CHECK_EQ(exec1(&q, D(KOLO_D_ADD, 0, 7, 0, A(DST_OFF), KEY1, 1, 0), &e), KOLO_ST_TIMEOUT, "timeout");
    CHECK(N.now - t0 >= 4 * 200, "gave up after %llu cycles", (unsigned long long)(N.now - t0));
    CHECK_EQ(e2e_st(0).timeouts, 1, "timeouts");
    CHECK_EQ(e2e_st(0).retransmits, 3, "retransmits before giving up");
    CHECK_EQ(rd_le(N.mem[7] + DST_OFF, 8), 0, "nothing executed");
    /* unreachable while waiting */
    fz.lose_count = 1;
    kolo_desc d = D(KOLO_D_ADD, KOLO_DF_COMPLETE, 7, 0, A(DST_OFF), KEY1, 1, 0);
    hq_post(&q, &d);
    run(50);
    w32(0, KOLO_CSR_ROUTE(7), 0);
    CHECK(hq_wait(&q, &e, 5000), "completion");
    CHECK_EQ(e.status, KOLO_ST_BAD_DST, "unreachable");
    CHECK_EQ(e2e_st(0).unreachable, 1, "unreachable count");
    /* unreachable for a while (a partition that heals): it waits, then
     * completes once the route is back */
    w32(0, KOLO_CSR_ROUTE(7), kolo_route_default(&N.topo, id_of(0), id_of(7)));
    fz.lose_count = 1;
    d = D(KOLO_D_ADD, KOLO_DF_COMPLETE, 7, 0, A(DST_OFF), KEY1, 1, 0);
    hq_post(&q, &d);
    run(50);
    w32(0, KOLO_CSR_ROUTE(7), 0);
    run(400); /* two timeouts without a route */
    w32(0, KOLO_CSR_ROUTE(7), kolo_route_default(&N.topo, id_of(0), id_of(7)));
    CHECK(hq_wait(&q, &e, 5000), "completion after the route came back");
    CHECK_EQ(e.status, KOLO_ST_OK, "healed: completes");
    CHECK_EQ(rd_le(N.mem[7] + DST_OFF, 8), 1, "healed: executed once");
    CHECK_EQ(e2e_st(0).unreachable, 1, "healed: not counted unreachable");
    wr_le(N.mem[7] + DST_OFF, 0, 8);
    /* new route for the retransmission: lose one, switch the entry to an
     * equivalent one with other signs, the copy must carry it */
    uint32_t alt = KOLO_RE_VALID | KOLO_RS_SIGN(0) | KOLO_RS_SIGN(1) | KOLO_RS_SIGN(2) |
                   1u << KOLO_RS_HOPS_SHIFT(0) | 1u << KOLO_RS_HOPS_SHIFT(1) | 1u << KOLO_RS_HOPS_SHIFT(2);
    w32(0, KOLO_CSR_ROUTE(7), kolo_route_default(&N.topo, id_of(0), id_of(7)));
    fz.nsent = 0;
    fz.lose_count = 1;
    d = D(KOLO_D_ADD, KOLO_DF_COMPLETE, 7, 0, A(DST_OFF), KEY1, 1, 0);
    hq_post(&q, &d);
    run(50);
    w32(0, KOLO_CSR_ROUTE(7), alt);
    N.check_hdr = 0; /* the model builds headers from the default table */
    CHECK(hq_wait(&q, &e, 5000) && e.status == 0, "retransmitted add");
    int seen = 0;
    for (int i = 0; i < fz.nsent; i++)
        if (fz.sent_op[i] == KOLO_OP_ADD && ((fz.sent_h0[i] >> 36) & KOLO_RS_MASK) == (alt & KOLO_RS_MASK))
            seen = 1;
    CHECK(seen, "the retransmission took the new route");
    CHECK_EQ(rd_le(N.mem[7] + DST_OFF, 8), 1, "one add executed");
    net_free();
}

int main(int argc, char **argv) {
    test_seed(argc, argv, "test_ni_model");
#define RUN(f)                                                                                     \
    do {                                                                                           \
        int before_ = test_failures;                                                               \
        f();                                                                                       \
        printf("  %-24s %s\n", #f, test_failures == before_ ? "ok" : "FAIL");                      \
        fflush(stdout);                                                                            \
    } while (0)
    RUN(test_registers);
    RUN(test_config);
    RUN(test_put_get);
    RUN(test_inline);
    RUN(test_atomics);
    RUN(test_pio);
    RUN(test_local_errors);
    RUN(test_remote_errors);
    RUN(test_doorbell);
    RUN(test_dma_errors);
    RUN(test_malformed);
    RUN(test_fence_ordered);
    RUN(test_ordered_arrival);
    RUN(test_completions);
    RUN(test_resp_backpressure);
    RUN(test_tags);
    RUN(test_isolation);
    RUN(test_disable);
    RUN(test_random_mix);
    RUN(test_e2e_atomic);
    RUN(test_e2e_targets);
    RUN(test_e2e_route_change);
    RUN(test_e2e_control);
    RUN(test_e2e_put_get);
    RUN(test_e2e_give_up);
    return test_finish("test_ni_model");
}
