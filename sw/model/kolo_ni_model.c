/* kolo_ni_model.c - C reference model of the kolo network interface
 * (docs/ni.md). See kolo_ni_model.h for the interface.
 *
 * Length (~1510 lines): one file on purpose for now, as the NI's state machine
 * (initiator, target, end-to-end records) shares private state and static
 * helpers that a split would have to export; splitting it by side (initiator /
 * target / e2e) is planned work (issue 21).
 *
 * Structure (initiator side):
 *   SQ (host memory) --fetch--> per-context SQ FIFO --\
 *   BAR2 PIO write ------------> per-context PIO FIFO --+-- start (in arrival
 *   order, FENCE waits for the context's earlier ops) --> current op of the
 *   context --build--> staged request packet (tag, DMA read) --send--> network.
 *   Responses are matched by tag; an op finishes when it has issued all of its
 *   packets and every one has its response; its completion entry goes to the
 *   context's pending list and is written when the CQ has room.
 * Target side: kolo_ni_receive checks and executes a request at once and sends
 *   the response, or queues it (bounded) when the network refuses it.
 *
 * Every structure is fixed-size except the end-to-end state, which is sized
 * by the torus (kolo_ni_new, kolo_ni_set_node) and whose target records are
 * allocated per source on its first request (docs/ni.md section 10, "C
 * model: records for every source"). Builds as C11 and as C++.
 *
 * Planted bugs for the tests (never defined in a shipped build; mk/ni_model.mk
 * builds test variants with them, which test-c-ni-e2e-torus must see fail):
 *   KOLO_NI_PLANT_E2E_SOURCES=n  target records only for source indices < n
 *                                (others executed without one, like an RTL
 *                                E2E_NODES of n)
 *   KOLO_NI_PLANT_E2E_FORGET=n   every n-th record written is forgotten
 */
#include "kolo_ni_model.h"

#include <stdlib.h>
#include <string.h>

#define NI_TAGS KOLO_NI_NUM_TAGS
#define NI_SQ_FIFO 4                       /* fetched descriptors per context */
#define NI_PIO_FIFO KOLO_NI_PIO_DEPTH      /* PIO operations per context */
#define NI_CTX_MAX_OPS 64                  /* started ops + pending completions per context */
#define NI_CQ_PEND (NI_CTX_MAX_OPS + 2)    /* + bad doorbell + descriptor fetch error */
#define NI_RESP_Q KOLO_NI_RESP_QUEUE
#define NI_POOL (KOLO_NI_NUM_CTX * (NI_SQ_FIFO + NI_PIO_FIFO + NI_CTX_MAX_OPS) + NI_TAGS)
#define NI_ROUTES 4096
#define NI_MAX_LEN (1u << 30)
#define NI_ADDR_MASK 0xffffffffffffull
#define NI_PKT_BYTES 256u

enum { OP_FREE = 0, OP_QUEUED, OP_ISSUE, OP_WAIT };

typedef struct {
    uint8_t state, ctx, is_pio, orphan;
    uint8_t op, flags, status, asize; /* asize: atomic operand bytes (4 or 8) */
    uint16_t dst, index;
    uint32_t len;      /* PUT/GET bytes; atomics 1 (one packet) */
    uint32_t issued;   /* bytes (packets for atomics) built so far */
    uint32_t pkts_out; /* packets built and without a response */
    uint64_t raddr;
    uint8_t key;
    uint64_t w2, w3;
    uint64_t result;
    uint64_t seq; /* arrival order within the context */
    uint8_t pio[32];
} ni_op;

typedef struct {
    int16_t op; /* pool index, -1: free */
    uint8_t want_data, is_put;
    uint16_t dst;
    uint32_t off, nbytes;
    /* end-to-end reliability (docs/ni.md section 10) */
    uint8_t gen;          /* generation bit of the current use (alternates per destination) */
    uint8_t sent;         /* the request left the NI: the timer runs */
    uint8_t retries;      /* retransmissions so far */
    uint8_t quarantined;  /* freed after a retransmission: not reusable before release_at */
    uint64_t sent_at, release_at;
    uint64_t first_sent_at; /* its first sending: how long the operation has waited */
    kolo_pkt pkt;         /* the request as sent, for retransmission */
} ni_tag;

/* target side: what was last executed for (source, tag); 16 bytes */
typedef struct {
    uint8_t valid, gen, resp_op, status;
    uint8_t ext;    /* header flit 0 bits 62:59 of the response */
    uint64_t value; /* fetched value of a fetching atomic */
} ni_dedup;

typedef struct {
    uint64_t sq_base, cq_base, sizes, ctrl;
    int enabled, stopped;
    uint8_t err_code;
    unsigned sq_log2, cq_log2;
    uint16_t sq_ci, sq_pi, cq_pi, cq_ci;
    int16_t sq_fifo[NI_SQ_FIFO];
    unsigned sq_head, sq_count;
    int16_t pio_fifo[NI_PIO_FIFO];
    unsigned pio_head, pio_count;
    int16_t cur;       /* op issuing packets, -1 none */
    uint32_t inflight; /* started ops without all responses */
    uint32_t put_out;  /* PUT packets without a response */
    kolo_cqe pend[NI_CQ_PEND];
    unsigned pend_head, pend_count;
    uint64_t seq;
} ni_ctx;

typedef struct {
    uint64_t base, len, ctrl;
} ni_win;

struct kolo_ni {
    kolo_topo topo;
    uint16_t node_id;
    kolo_ni_env env;
    uint32_t err_csr;
    uint64_t st_tx, st_rx, st_nak_sent, st_nak_rcvd, st_bad, st_dma_err;
    ni_ctx ctx[KOLO_NI_NUM_CTX];
    ni_win win[KOLO_NI_NUM_WIN];
    uint32_t route[NI_ROUTES];
    ni_op ops[NI_POOL];
    int16_t free_ops[NI_POOL];
    unsigned nfree;
    ni_tag tags[NI_TAGS];
    uint8_t tag_fifo[NI_TAGS];
    unsigned tag_head, tag_count;
    kolo_pkt resp[NI_RESP_Q];
    unsigned resp_head, resp_count;
    kolo_pkt staged;
    int staged_valid;
    unsigned rr_fetch, rr_build, turn;
    uint64_t pkt_count; /* kolo_pkt.id of built packets */
    /* end-to-end reliability */
    uint64_t now; /* kolo_ni_step calls */
    kolo_ni_e2e_cfg e2e;
    kolo_ni_e2e_stats e2e_st;
    uint8_t retx_q[NI_TAGS]; /* tags waiting to be sent again */
    unsigned retx_head, retx_count;
    /* sized by the torus (e2e_size): peers = its node count */
    unsigned peers;
    ni_dedup **dedup; /* [source index] -> NI_TAGS records, allocated on its first request */
    /* generation bit of the last use of each tag towards each destination:
     * a target's record is per (source, tag), so the bit must alternate per
     * (destination, tag), not per tag (a tag's uses go to many targets) */
    uint8_t (*txgen)[NI_TAGS / 8]; /* [destination index] */
#ifdef KOLO_NI_PLANT_E2E_FORGET
    unsigned plant_writes;
#endif
    uint64_t route_switch_at; /* last table switch (+1; 0: none) */
};

/* ---- little-endian helpers ------------------------------------------------ */
static uint64_t get_le(const uint8_t *b, unsigned n) {
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < n; i++)
        v |= (uint64_t)b[i] << (8 * i);
    return v;
}
static void put_le(uint8_t *b, uint64_t v, unsigned n) {
    unsigned i;
    for (i = 0; i < n; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}
/* byte stream <-> payload flits (byte 0 in bits 7:0 of flit 0) */
static void bytes_to_flits(uint64_t *flits, const uint8_t *b, unsigned n) {
    unsigned i;
    for (i = 0; i < (n + 7) / 8; i++)
        flits[i] = 0;
    for (i = 0; i < n; i++)
        flits[i / 8] |= (uint64_t)b[i] << (8 * (i % 8));
}
static void flits_to_bytes(uint8_t *b, const uint64_t *flits, unsigned n) {
    unsigned i;
    for (i = 0; i < n; i++)
        b[i] = (uint8_t)(flits[i / 8] >> (8 * (i % 8)));
}

void kolo_desc_pack(const kolo_desc *d, uint8_t out[32]) {
    out[0] = d->op;
    out[1] = d->flags;
    put_le(out + 2, d->dst, 2);
    put_le(out + 4, d->len, 4);
    put_le(out + 8, d->raddr_key, 8);
    put_le(out + 16, d->w2, 8);
    put_le(out + 24, d->w3, 8);
}

void kolo_desc_unpack(const uint8_t in[32], kolo_desc *d) {
    d->op = in[0];
    d->flags = in[1];
    d->dst = (uint16_t)get_le(in + 2, 2);
    d->len = (uint32_t)get_le(in + 4, 4);
    d->raddr_key = get_le(in + 8, 8);
    d->w2 = get_le(in + 16, 8);
    d->w3 = get_le(in + 24, 8);
}

void kolo_cqe_pack(const kolo_cqe *e, uint8_t out[16]) {
    put_le(out, e->index, 2);
    out[2] = e->status;
    out[3] = e->op;
    put_le(out + 4, e->phase, 4);
    put_le(out + 8, e->result, 8);
}

void kolo_cqe_unpack(const uint8_t in[16], kolo_cqe *e) {
    e->index = (uint16_t)get_le(in, 2);
    e->status = in[2];
    e->op = in[3];
    e->phase = (uint32_t)get_le(in + 4, 4);
    e->result = get_le(in + 8, 8);
}

/* ---- construction ---------------------------------------------------------- */
static void ni_reset_ctx(ni_ctx *c) {
    memset(c, 0, sizeof *c);
    c->cur = -1;
}

kolo_ni *kolo_ni_new(const kolo_topo *t, uint16_t node_id, const kolo_ni_env *env) {
    kolo_ni *ni;
    unsigned i;
    if (!t || !env || !kolo_topo_valid(t) || !kolo_node_in_topo(t, node_id) || !env->dma_read ||
        !env->dma_write || !env->send)
        return NULL;
    ni = (kolo_ni *)calloc(1, sizeof *ni);
    if (!ni)
        return NULL;
    ni->env = *env;
    for (i = 0; i < KOLO_NI_NUM_CTX; i++)
        ni_reset_ctx(&ni->ctx[i]);
    for (i = 0; i < NI_POOL; i++)
        ni->free_ops[i] = (int16_t)(NI_POOL - 1 - i);
    ni->nfree = NI_POOL;
    for (i = 0; i < NI_TAGS; i++) {
        ni->tags[i].op = -1;
        ni->tag_fifo[i] = (uint8_t)i;
    }
    ni->tag_count = NI_TAGS;
    ni->e2e.enable = 0;
    ni->e2e.timeout = KOLO_NI_E2E_TIMEOUT;
    ni->e2e.max_retries = KOLO_NI_E2E_RETRIES;
    kolo_ni_set_node(ni, t, node_id);
    if (!ni->dedup) {
        kolo_ni_free(ni);
        return NULL;
    }
    return ni;
}

static void e2e_free(kolo_ni *ni) {
    unsigned i;
    for (i = 0; ni->dedup && i < ni->peers; i++)
        free(ni->dedup[i]);
    free(ni->dedup);
    free(ni->txgen);
    ni->dedup = NULL;
    ni->txgen = NULL;
    ni->peers = 0;
}

/* end-to-end state for a torus of n nodes: 8 bytes (record pointer) + 32
 * bytes (generation bits) per node, records 16 bytes x NI_TAGS = 4 KiB per
 * source that has sent a request here. Kept while the node count stays (a
 * new node id in the same torus keeps the records: the others' are of it);
 * a torus of another size starts afresh. */
static void e2e_size(kolo_ni *ni, unsigned n) {
    if (ni->dedup && ni->peers == n)
        return;
    e2e_free(ni);
    ni->dedup = (ni_dedup **)calloc(n, sizeof *ni->dedup);
    ni->txgen = (uint8_t(*)[NI_TAGS / 8])calloc(n, sizeof *ni->txgen);
    if (!ni->dedup || !ni->txgen) {
        e2e_free(ni);
        return;
    }
    ni->peers = n;
}

void kolo_ni_free(kolo_ni *ni) {
    if (!ni)
        return;
    e2e_free(ni);
    free(ni);
}

void kolo_ni_set_node(kolo_ni *ni, const kolo_topo *t, uint16_t node_id) {
    if (!ni || !t || !kolo_topo_valid(t) || !kolo_node_in_topo(t, node_id))
        return;
    e2e_size(ni, kolo_topo_nodes(t));
    ni->topo = *t;
    ni->node_id = node_id;
    memset(ni->route, 0, sizeof ni->route);
    kolo_table_default(t, node_id, ni->route);
}

/* ---- small pieces ----------------------------------------------------------- */
static int16_t op_alloc(kolo_ni *ni) {
    int16_t i;
    if (!ni->nfree)
        return -1;
    i = ni->free_ops[--ni->nfree];
    memset(&ni->ops[i], 0, sizeof ni->ops[i]);
    return i;
}
static void op_free(kolo_ni *ni, int16_t i) {
    ni->ops[i].state = OP_FREE;
    ni->free_ops[ni->nfree++] = i;
}
static int tag_alloc(kolo_ni *ni) {
    int t;
    if (!ni->tag_count)
        return -1;
    t = ni->tag_fifo[ni->tag_head];
    ni->tag_head = (ni->tag_head + 1) % NI_TAGS;
    ni->tag_count--;
    ni->tags[t].sent = 0;
    ni->tags[t].retries = 0;
    return t;
}
static void tag_release(kolo_ni *ni, unsigned t) {
    ni->tags[t].quarantined = 0;
    ni->tag_fifo[(ni->tag_head + ni->tag_count) % NI_TAGS] = (uint8_t)t;
    ni->tag_count++;
}
static void tag_free(kolo_ni *ni, unsigned t) {
    ni_tag *tg = &ni->tags[t];
    tg->op = -1;
    tg->sent = 0;
    if (tg->retries) {
        /* copies of this request may still be in the network: the tag (and
         * its generation bit) is reused only after they are surely gone */
        tg->quarantined = 1;
        tg->release_at = ni->now + 2 * ni->e2e.timeout;
        return;
    }
    tag_release(ni, t);
}

static uint32_t route_of(const kolo_ni *ni, uint16_t node) {
    if (!kolo_node_in_topo(&ni->topo, node))
        return 0;
    return ni->route[kolo_node_index(&ni->topo, node)];
}

static uint64_t mk_h0(const kolo_ni *ni, uint16_t dst, unsigned op, unsigned vnet, unsigned len,
                      unsigned ordered, uint32_t re, uint64_t extra) {
    return KOLO_H0_DST_FIELD(dst) | KOLO_H0_SRC_FIELD(ni->node_id) | KOLO_H0_OP_FIELD(op) |
           KOLO_H0_VNET_FIELD(vnet) | KOLO_H0_LEN_FIELD(len) | KOLO_H0_ORDERED_FIELD(ordered) |
           KOLO_H0_RS_FIELD(re & KOLO_RS_MASK) | extra;
}

static void pkt_init(kolo_ni *ni, kolo_pkt *p, uint16_t dst, unsigned op, unsigned vnet,
                     unsigned len, unsigned ordered, uint32_t re, uint64_t extra, uint64_t addr,
                     unsigned tag, unsigned key) {
    memset(p, 0, sizeof *p);
    p->id = (uint64_t)ni->node_id << 48 | (++ni->pkt_count & 0xffffffffffffull);
    p->src = ni->node_id;
    p->dst = dst;
    p->vnet = (uint8_t)vnet;
    p->ordered = (uint8_t)ordered;
    p->op = (uint8_t)op;
    p->len = (uint8_t)len;
    p->header[0] = mk_h0(ni, dst, op, vnet, len, ordered, re, extra);
    p->header[1] = (addr & NI_ADDR_MASK) | KOLO_H1_TAG_FIELD(tag) | KOLO_H1_KEY_FIELD(key);
}

static void ctx_stop(ni_ctx *c, uint8_t code) {
    if (!c->stopped) {
        c->stopped = 1;
        c->err_code = code;
    }
}

static void ni_msi(kolo_ni *ni, const ni_ctx *c) {
    if ((c->ctrl & 2u) && ni->env.msi)
        ni->env.msi(ni->env.user, (unsigned)(c->ctrl >> 16) & 0xfu);
}

/* write pending completion entries while the CQ has room */
static int flush_cq(kolo_ni *ni, ni_ctx *c) {
    int did = 0;
    while (c->enabled && c->pend_count &&
           (uint16_t)(c->cq_pi - c->cq_ci) < (1u << c->cq_log2)) {
        kolo_cqe e = c->pend[c->pend_head];
        uint8_t b[16];
        uint64_t a = c->cq_base + 16ull * (c->cq_pi & ((1u << c->cq_log2) - 1u));
        c->pend_head = (c->pend_head + 1) % NI_CQ_PEND;
        c->pend_count--;
        e.phase = ((uint32_t)(c->cq_pi >> c->cq_log2) & 1u) ^ 1u;
        kolo_cqe_pack(&e, b);
        did = 1;
        /* result first, then the word with the phase bit */
        if (ni->env.dma_write(ni->env.user, a + 8, b + 8, 8) ||
            ni->env.dma_write(ni->env.user, a, b, 8)) {
            ni->st_dma_err++;
            ctx_stop(c, KOLO_ST_LOCAL_DMA); /* the entry is lost */
            continue;
        }
        c->cq_pi++;
        ni_msi(ni, c);
    }
    return did;
}

static void push_cqe(kolo_ni *ni, ni_ctx *c, uint16_t index, uint8_t status, uint8_t op,
                     uint64_t result) {
    kolo_cqe *e;
    if (c->pend_count >= NI_CQ_PEND) /* cannot happen: bounded by NI_CTX_MAX_OPS + 2 */
        return;
    e = &c->pend[(c->pend_head + c->pend_count) % NI_CQ_PEND];
    e->index = index;
    e->status = status;
    e->op = op;
    e->phase = 0;
    e->result = result;
    c->pend_count++;
    flush_cq(ni, c);
}

/* the op has all its responses (or never had packets) */
static void op_finish(kolo_ni *ni, int16_t idx) {
    ni_op *o = &ni->ops[idx];
    ni_ctx *c = &ni->ctx[o->ctx];
    if (!o->orphan) {
        c->inflight--;
        if (o->status != KOLO_ST_OK || (o->flags & KOLO_DF_COMPLETE))
            push_cqe(ni, c, o->index, o->status, o->op, o->result);
    }
    op_free(ni, idx);
}

static void op_error(ni_op *o, uint8_t st) {
    if (o->status == KOLO_ST_OK)
        o->status = st;
}

/* stop issuing packets of the current op after an error */
static void op_abort_issue(kolo_ni *ni, ni_ctx *c, int16_t idx) {
    ni_op *o = &ni->ops[idx];
    o->issued = o->len;
    o->state = OP_WAIT;
    c->cur = -1;
    if (!o->pkts_out)
        op_finish(ni, idx);
}

static int is_atomic_desc(unsigned op) { return op >= KOLO_D_ADD && op <= KOLO_D_OR; }

/* Validation of docs/ni.md section 3, in the order BAD_OP, BAD_LEN, BAD_DST,
 * BAD_ALIGN. pio: a BAR2 descriptor (PUT payload in the chunk, len <= 32). */
static uint8_t desc_check(const kolo_ni *ni, const kolo_desc *d, int pio) {
    unsigned op = d->op, fl = d->flags;
    uint64_t raddr = d->raddr_key & NI_ADDR_MASK;
    int atomic = is_atomic_desc(op);
    if (op > KOLO_D_OR || (fl & 0xe0u) || (d->dst & 0xf000u) || (d->raddr_key >> 56) ||
        ((fl & KOLO_DF_INLINE) && op != KOLO_D_PUT) || ((fl & KOLO_DF_SIZE32) && !atomic))
        return KOLO_ST_BAD_OP;
    if (op == KOLO_D_PUT || op == KOLO_D_GET) {
        if (d->len == 0 || d->len > NI_MAX_LEN)
            return KOLO_ST_BAD_LEN;
        if (op == KOLO_D_PUT && pio && d->len > 32)
            return KOLO_ST_BAD_LEN;
        if (op == KOLO_D_PUT && !pio && (fl & KOLO_DF_INLINE) && d->len > 16)
            return KOLO_ST_BAD_LEN;
        if (raddr + d->len > NI_ADDR_MASK + 1)
            return KOLO_ST_BAD_LEN;
        if (!(op == KOLO_D_PUT && (pio || (fl & KOLO_DF_INLINE))) && d->w2 > UINT64_MAX - d->len + 1)
            return KOLO_ST_BAD_LEN;
    } else if (d->len != 0) {
        return KOLO_ST_BAD_LEN;
    }
    if (op != KOLO_D_NOP && !(route_of(ni, d->dst) & KOLO_RE_VALID))
        return KOLO_ST_BAD_DST;
    if (atomic && (raddr & ((fl & KOLO_DF_SIZE32) ? 3u : 7u)))
        return KOLO_ST_BAD_ALIGN;
    return KOLO_ST_OK;
}

/* fill a pool op from a descriptor */
static void op_from_desc(kolo_ni *ni, ni_op *o, unsigned ctx, const kolo_desc *d, int pio,
                         uint16_t index) {
    o->state = OP_QUEUED;
    o->ctx = (uint8_t)ctx;
    o->is_pio = (uint8_t)pio;
    o->op = d->op;
    o->flags = d->flags;
    o->dst = d->dst;
    o->len = d->len;
    o->raddr = d->raddr_key & NI_ADDR_MASK;
    o->key = (uint8_t)(d->raddr_key >> 48);
    o->w2 = d->w2;
    o->w3 = d->w3;
    o->index = index;
    o->asize = (d->flags & KOLO_DF_SIZE32) ? 4 : 8;
    o->status = desc_check(ni, d, pio);
    if (is_atomic_desc(o->op))
        o->len = 1;
    o->seq = ni->ctx[ctx].seq++;
}

/* ---- initiator: fetch, start, build ---------------------------------------- */
static int fetch_one(kolo_ni *ni) {
    unsigned k;
    for (k = 0; k < KOLO_NI_NUM_CTX; k++) {
        unsigned ci = (ni->rr_fetch + k) % KOLO_NI_NUM_CTX;
        ni_ctx *c = &ni->ctx[ci];
        uint8_t b[32];
        kolo_desc d;
        uint16_t slot;
        int16_t idx;
        if (!c->enabled || c->stopped || c->sq_ci == c->sq_pi || c->sq_count >= NI_SQ_FIFO ||
            !ni->nfree)
            continue;
        ni->rr_fetch = ci + 1;
        slot = (uint16_t)(c->sq_ci & ((1u << c->sq_log2) - 1u));
        if (ni->env.dma_read(ni->env.user, c->sq_base + 32ull * slot, b, 32)) {
            ni->st_dma_err++;
            ctx_stop(c, KOLO_ST_LOCAL_DMA);
            push_cqe(ni, c, slot, KOLO_ST_LOCAL_DMA, 0, 0);
            return 1;
        }
        kolo_desc_unpack(b, &d);
        idx = op_alloc(ni);
        op_from_desc(ni, &ni->ops[idx], ci, &d, 0, slot);
        c->sq_fifo[(c->sq_head + c->sq_count) % NI_SQ_FIFO] = idx;
        c->sq_count++;
        c->sq_ci++;
        return 1;
    }
    return 0;
}

/* start the next queued op of context ci (arrival order over SQ and PIO) */
static int start_one(kolo_ni *ni, unsigned ci) {
    ni_ctx *c = &ni->ctx[ci];
    int16_t idx;
    int from_pio;
    ni_op *o;
    if (!c->enabled || c->cur >= 0 || (!c->sq_count && !c->pio_count))
        return 0;
    if (c->sq_count && c->pio_count)
        from_pio = ni->ops[c->pio_fifo[c->pio_head]].seq < ni->ops[c->sq_fifo[c->sq_head]].seq;
    else
        from_pio = c->pio_count != 0;
    idx = from_pio ? c->pio_fifo[c->pio_head] : c->sq_fifo[c->sq_head];
    o = &ni->ops[idx];
    if ((o->flags & KOLO_DF_FENCE) && c->inflight)
        return 0;
    if (c->inflight + c->pend_count >= NI_CTX_MAX_OPS)
        return 0;
    if (from_pio) {
        c->pio_head = (c->pio_head + 1) % NI_PIO_FIFO;
        c->pio_count--;
    } else {
        c->sq_head = (c->sq_head + 1) % NI_SQ_FIFO;
        c->sq_count--;
    }
    c->inflight++;
    if (o->status != KOLO_ST_OK || o->op == KOLO_D_NOP) {
        op_finish(ni, idx);
        return 1;
    }
    o->state = OP_ISSUE;
    c->cur = idx;
    return 1;
}

static const uint8_t net_op_of[13] = {0, KOLO_OP_PUT, KOLO_OP_GET_REQ, KOLO_OP_ADD, KOLO_OP_XOR,
                                      KOLO_OP_FETCH_ADD, KOLO_OP_FETCH_XOR, KOLO_OP_SWAP,
                                      KOLO_OP_CSWAP, KOLO_OP_FETCH_AND, KOLO_OP_FETCH_OR,
                                      KOLO_OP_FETCH_AND, KOLO_OP_FETCH_OR};

/* build the next packet of context ci's current op into the staged slot */
static int build_from(kolo_ni *ni, unsigned ci) {
    ni_ctx *c = &ni->ctx[ci];
    int16_t idx = c->cur;
    ni_op *o = &ni->ops[idx];
    kolo_pkt *p = &ni->staged;
    uint32_t re = route_of(ni, o->dst);
    unsigned ordered = (o->flags & KOLO_DF_ORDERED) ? 1u : 0u;
    uint32_t off = o->issued, n;
    int t;
    ni_tag *tg;
    if (!(re & KOLO_RE_VALID)) { /* table changed since the descriptor was checked */
        op_error(o, KOLO_ST_BAD_DST);
        op_abort_issue(ni, c, idx);
        return 1;
    }
    if (o->op == KOLO_D_PUT || o->op == KOLO_D_GET) {
        uint64_t a = o->raddr + off;
        n = NI_PKT_BYTES - (uint32_t)(a & (NI_PKT_BYTES - 1));
        if (n > o->len - off)
            n = o->len - off;
    } else {
        n = 1;
    }
    if (o->op == KOLO_D_PUT) {
        uint8_t buf[NI_PKT_BYTES];
        if (o->is_pio) {
            memcpy(buf, o->pio + off, n);
        } else if (o->flags & KOLO_DF_INLINE) {
            uint8_t in[16];
            put_le(in, o->w2, 8);
            put_le(in + 8, o->w3, 8);
            memcpy(buf, in + off, n);
        } else if (ni->env.dma_read(ni->env.user, o->w2 + off, buf, n)) {
            ni->st_dma_err++;
            op_error(o, KOLO_ST_LOCAL_DMA);
            op_abort_issue(ni, c, idx);
            return 1;
        }
        t = tag_alloc(ni);
        pkt_init(ni, p, o->dst, KOLO_OP_PUT, 0, (n + 7) / 8, ordered, re,
                 (uint64_t)((n - 1) & 7u) << KOLO_H0_EXT_SHIFT, o->raddr + off, (unsigned)t, o->key);
        bytes_to_flits(p->payload, buf, n);
    } else if (o->op == KOLO_D_GET) {
        t = tag_alloc(ni);
        pkt_init(ni, p, o->dst, KOLO_OP_GET_REQ, 0, 1, ordered, re, 0, o->raddr + off, (unsigned)t,
                 o->key);
        p->payload[0] = n;
    } else {
        unsigned fetch = !(o->op == KOLO_D_ADD || o->op == KOLO_D_XOR || o->op == KOLO_D_AND ||
                           o->op == KOLO_D_OR);
        uint64_t mask = o->asize == 4 ? 0xffffffffull : ~0ull;
        unsigned asize = o->asize == 4 ? 2u : 3u;
        unsigned len = o->op == KOLO_D_CSWAP ? 2u : 1u;
        t = tag_alloc(ni);
        pkt_init(ni, p, o->dst, net_op_of[o->op], 0, len, ordered, re,
                 (uint64_t)asize << KOLO_H0_EXT_SHIFT | (fetch ? KOLO_H0_FETCH : 0), o->raddr,
                 (unsigned)t, o->key);
        p->payload[0] = o->w2 & mask;
        if (len == 2)
            p->payload[1] = o->w3 & mask;
    }
    tg = &ni->tags[t];
    if (ni->e2e.enable && kolo_node_in_topo(&ni->topo, o->dst) && ni->txgen) {
        uint8_t *g = &ni->txgen[kolo_node_index(&ni->topo, o->dst)][t >> 3];
        *g ^= (uint8_t)(1u << (t & 7));
        tg->gen = (uint8_t)((*g >> (t & 7)) & 1u);
        if (tg->gen)
            p->header[0] |= KOLO_H0_GEN;
    }
    tg->op = idx;
    tg->dst = o->dst;
    tg->off = off;
    tg->nbytes = o->op == KOLO_D_PUT || o->op == KOLO_D_GET ? n : o->asize;
    tg->is_put = o->op == KOLO_D_PUT;
    tg->want_data = o->op == KOLO_D_GET || p->header[0] & KOLO_H0_FETCH;
    ni->staged_valid = 1;
    o->issued += n;
    o->pkts_out++;
    if (tg->is_put)
        c->put_out++;
    if (o->issued >= o->len) {
        o->state = OP_WAIT;
        c->cur = -1;
    }
    return 1;
}

static int build_one(kolo_ni *ni) {
    unsigned k;
    for (k = 0; k < KOLO_NI_NUM_CTX; k++) {
        unsigned ci = (ni->rr_build + k) % KOLO_NI_NUM_CTX;
        if (ni->ctx[ci].cur < 0)
            continue;
        if (!ni->tag_count)
            return 0; /* wait for a tag */
        ni->rr_build = ci + 1;
        return build_from(ni, ci);
    }
    return 0;
}

static int send_resp(kolo_ni *ni) {
    if (!ni->resp_count || ni->env.send(ni->env.user, &ni->resp[ni->resp_head]))
        return 0;
    ni->resp_head = (ni->resp_head + 1) % NI_RESP_Q;
    ni->resp_count--;
    ni->st_tx++;
    return 1;
}

static void note_sent(kolo_ni *ni, const kolo_pkt *p) {
    ni_tag *tg;
    if (!ni->e2e.enable)
        return;
    tg = &ni->tags[KOLO_H1_TAG_GET(p->header[1])];
    tg->pkt = *p;
    if (!tg->sent && !tg->retries)
        tg->first_sent_at = ni->now;
    tg->sent = 1;
    tg->sent_at = ni->now;
    /* just after a table switch other nodes may still use old paths for the
     * response: the short timer too */
    if (ni->route_switch_at && ni->now + 1 - ni->route_switch_at < ni->e2e.timeout / KOLO_NI_E2E_ROUTE_DIV)
        tg->sent_at = ni->now - (ni->e2e.timeout - ni->e2e.timeout / KOLO_NI_E2E_ROUTE_DIV);
}

/* a retransmission waiting: send it first (it is the oldest request) */
static int send_retx(kolo_ni *ni) {
    ni_tag *tg;
    unsigned t;
    if (!ni->retx_count)
        return 0;
    t = ni->retx_q[ni->retx_head];
    tg = &ni->tags[t];
    if (tg->op < 0 || !tg->sent) { /* answered meanwhile */
        ni->retx_head = (ni->retx_head + 1) % NI_TAGS;
        ni->retx_count--;
        return 1;
    }
    if (ni->env.send(ni->env.user, &tg->pkt))
        return 0;
    ni->retx_head = (ni->retx_head + 1) % NI_TAGS;
    ni->retx_count--;
    tg->sent_at = ni->now;
    ni->st_tx++;
    ni->e2e_st.retransmits++;
    return 1;
}

static int send_req(kolo_ni *ni, int *did) {
    if (send_retx(ni))
        return 1;
    if (!ni->staged_valid && build_one(ni))
        *did = 1;
    if (!ni->staged_valid || ni->env.send(ni->env.user, &ni->staged))
        return 0;
    note_sent(ni, &ni->staged);
    ni->staged_valid = 0;
    ni->st_tx++;
    return 1;
}

/* a request without a response for e2e.timeout cycles: send it again over
 * the current route, or give up */
static void tag_give_up(kolo_ni *ni, unsigned t, uint8_t st) {
    ni_tag *tg = &ni->tags[t];
    int16_t idx = tg->op;
    ni_op *o = &ni->ops[idx];
    ni_ctx *c = &ni->ctx[o->ctx];
    int put = tg->is_put;
    tg->retries = tg->retries ? tg->retries : 1; /* quarantine: a copy may be out there */
    tag_free(ni, t);
    o->pkts_out--;
    if (put && !o->orphan)
        c->put_out--;
    op_error(o, st);
    if (o->state == OP_WAIT && !o->pkts_out)
        op_finish(ni, idx);
}

/* A route entry changed: the firmware routes around a fault. Any request
 * still unanswered may have been lost, or its response may (the response
 * comes back on the target's route, which changed too), so each is sent again
 * after timeout / KOLO_NI_E2E_ROUTE_DIV instead of the whole timeout; so are
 * requests sent within that time after the switch (other nodes may switch a
 * little later). A request that was not lost is answered meanwhile, or its
 * repeat is answered from the target's record. */
void kolo_ni_e2e_route_switch(kolo_ni *ni) {
    unsigned t;
    uint64_t soon;
    /* a table is written entry by entry, then switched: the first change of
     * a cycle does the work (requests sent later get the short timer anyway) */
    if (!ni || !ni->e2e.enable || ni->route_switch_at == ni->now + 1)
        return;
    ni->route_switch_at = ni->now + 1;
    soon = ni->e2e.timeout - ni->e2e.timeout / KOLO_NI_E2E_ROUTE_DIV;
    for (t = 0; t < NI_TAGS; t++) {
        ni_tag *tg = &ni->tags[t];
        if (tg->op < 0 || !tg->sent)
            continue;
        if (ni->now - tg->sent_at < soon) /* (unsigned: wraps consistently) */
            tg->sent_at = ni->now - soon; /* fires timeout / DIV cycles from now */
    }
}

static int e2e_timers(kolo_ni *ni) {
    unsigned t;
    int did = 0;
    for (t = 0; t < NI_TAGS; t++) {
        ni_tag *tg = &ni->tags[t];
        if (tg->quarantined && ni->now >= tg->release_at) {
            tag_release(ni, t);
            continue;
        }
        if (tg->op < 0 || !tg->sent || ni->now - tg->sent_at < ni->e2e.timeout)
            continue;
        did = 1;
        {
            uint32_t re = route_of(ni, tg->dst);
            if (!(re & KOLO_RE_VALID)) {
                /* unreachable now (a partition, a dead node): wait a
                 * timeout per retry, the route may come back */
                if (tg->retries >= ni->e2e.max_retries) {
                    ni->e2e_st.unreachable++;
                    tag_give_up(ni, t, KOLO_ST_BAD_DST);
                    continue;
                }
                tg->retries++;
                tg->sent_at = ni->now;
                continue;
            }
            if (tg->retries >= ni->e2e.max_retries) {
                ni->e2e_st.timeouts++;
                tag_give_up(ni, t, KOLO_ST_TIMEOUT);
                continue;
            }
            /* the table may have changed since: the copy takes today's route */
            tg->pkt.header[0] = (tg->pkt.header[0] & ~((uint64_t)KOLO_RS_MASK << 36)) |
                                (uint64_t)(re & KOLO_RS_MASK) << 36;
            tg->pkt.id = (uint64_t)ni->node_id << 48 | (++ni->pkt_count & 0xffffffffffffull);
            tg->retries++;
            tg->sent_at = ni->now; /* the timer restarts when it is queued */
            ni->retx_q[(ni->retx_head + ni->retx_count) % NI_TAGS] = (uint8_t)t;
            ni->retx_count++;
        }
    }
    return did;
}

int kolo_ni_step(kolo_ni *ni) {
    int did = 0;
    unsigned ci;
    if (!ni)
        return 0;
    ni->now++;
    if (ni->e2e.enable && (ni->now & 63u) == 0 && e2e_timers(ni))
        did = 1;
    for (ci = 0; ci < KOLO_NI_NUM_CTX; ci++)
        if (ni->ctx[ci].pend_count && flush_cq(ni, &ni->ctx[ci]))
            did = 1;
    if (fetch_one(ni))
        did = 1;
    for (ci = 0; ci < KOLO_NI_NUM_CTX; ci++)
        if (start_one(ni, ci))
            did = 1;
    ni->turn ^= 1u;
    if (ni->turn ? (send_resp(ni) || send_req(ni, &did)) : (send_req(ni, &did) || send_resp(ni)))
        did = 1;
    return did;
}

int kolo_ni_idle(const kolo_ni *ni) {
    unsigned ci;
    if (ni->resp_count || ni->staged_valid || ni->nfree != NI_POOL || ni->retx_count)
        return 0;
    for (ci = 0; ci < KOLO_NI_NUM_CTX; ci++) {
        const ni_ctx *c = &ni->ctx[ci];
        if (c->pend_count || (c->enabled && !c->stopped && c->sq_ci != c->sq_pi))
            return 0;
    }
    return 1;
}

/* ---- target side and responses ---------------------------------------------- */
static int win_check(const kolo_ni *ni, unsigned key, uint64_t addr, uint64_t n, uint64_t right) {
    const ni_win *w = &ni->win[key & 15u];
    if (!(w->ctrl & KOLO_WIN_ENABLE) || (w->ctrl & 0xffu) != key)
        return KOLO_ST_REMOTE_KEY;
    if (addr < w->base || n > w->len || addr - w->base > w->len - n)
        return KOLO_ST_REMOTE_BOUNDS;
    if (!(w->ctrl & right))
        return KOLO_ST_REMOTE_RIGHTS;
    return KOLO_ST_OK;
}

static int bad_pkt(kolo_ni *ni) {
    ni->st_bad++;
    return 0;
}

static void queue_resp(kolo_ni *ni, const kolo_pkt *r) {
    if (r->op == KOLO_OP_NAK)
        ni->st_nak_sent++;
    if (!ni->resp_count && !ni->env.send(ni->env.user, r)) {
        ni->st_tx++;
        return;
    }
    ni->resp[(ni->resp_head + ni->resp_count) % NI_RESP_Q] = *r;
    ni->resp_count++;
}

static int rx_request(kolo_ni *ni, const kolo_pkt *p, unsigned op, unsigned len) {
    uint64_t h0 = p->header[0], h1 = p->header[1];
    uint16_t src = (uint16_t)KOLO_H0_SRC_GET(h0);
    uint64_t addr = h1 & NI_ADDR_MASK;
    unsigned tag = (unsigned)KOLO_H1_TAG_GET(h1), key = (unsigned)KOLO_H1_KEY_GET(h1);
    uint32_t re = route_of(ni, src);
    kolo_pkt r;
    uint8_t buf[NI_PKT_BYTES];
    int st;
    unsigned gen = (h0 & KOLO_H0_GEN) ? 1u : 0u;
    ni_dedup *dd = NULL;
    unsigned si = 0;
    if (!(re & KOLO_RE_VALID)) /* cannot be answered */
        return bad_pkt(ni);
    if (ni->e2e.enable) {
        si = kolo_node_index(&ni->topo, src);
        if (!kolo_node_in_topo(&ni->topo, src) || !ni->dedup || si >= ni->peers)
            return bad_pkt(ni);
        if (!ni->dedup[si]) {
            ni->dedup[si] = (ni_dedup *)calloc(NI_TAGS, sizeof(ni_dedup));
            if (!ni->dedup[si])
                return -1; /* retry later */
        }
        dd = &ni->dedup[si][tag];
        if (dd->valid && dd->gen == gen && op != KOLO_OP_GET_REQ) {
            /* a retransmission of a request already executed: answer it
             * again from what was sent then, never execute it twice (a GET
             * is read again: reading has no effect) */
            unsigned rlen = dd->resp_op == KOLO_OP_GET_RESP ? 1u : 0u;
            uint64_t a = dd->resp_op == KOLO_OP_NAK ? (uint64_t)dd->status : addr;
            ni->e2e_st.dup_requests++;
            pkt_init(ni, &r, src, dd->resp_op, 1, rlen, 0, re,
                     (uint64_t)dd->ext << KOLO_H0_EXT_SHIFT | (gen ? KOLO_H0_GEN : 0), a, tag, 0);
            r.payload[0] = dd->value;
            queue_resp(ni, &r);
            return 0;
        }
        if (dd->valid && dd->gen == gen)
            ni->e2e_st.dup_requests++;
    }
    if (op == KOLO_OP_PUT) {
        unsigned n;
        if (len == 0)
            return bad_pkt(ni);
        n = (len - 1) * 8 + (unsigned)KOLO_H0_LASTB(h0) + 1;
        st = win_check(ni, key, addr, n, KOLO_WIN_WRITE);
        if (st == KOLO_ST_OK) {
            flits_to_bytes(buf, p->payload, n);
            if (ni->env.dma_write(ni->env.user, addr, buf, n)) {
                ni->st_dma_err++;
                st = KOLO_ST_REMOTE_DMA;
            }
        }
        if (st == KOLO_ST_OK)
            pkt_init(ni, &r, src, KOLO_OP_ACK, 1, 0, 0, re, 0, addr, tag, 0);
        else
            pkt_init(ni, &r, src, KOLO_OP_NAK, 1, 0, 0, re, 0, (uint64_t)st, tag, 0);
    } else if (op == KOLO_OP_GET_REQ) {
        unsigned n;
        if (len != 1)
            return bad_pkt(ni);
        n = (unsigned)(p->payload[0] & 0x1ffu);
        if (n == 0 || n > NI_PKT_BYTES)
            return bad_pkt(ni);
        st = win_check(ni, key, addr, n, KOLO_WIN_READ);
        if (st == KOLO_ST_OK && ni->env.dma_read(ni->env.user, addr, buf, n)) {
            ni->st_dma_err++;
            st = KOLO_ST_REMOTE_DMA;
        }
        if (st == KOLO_ST_OK) {
            pkt_init(ni, &r, src, KOLO_OP_GET_RESP, 1, (n + 7) / 8, 0, re,
                     (uint64_t)((n - 1) & 7u) << KOLO_H0_EXT_SHIFT, addr, tag, 0);
            bytes_to_flits(r.payload, buf, n);
        } else {
            pkt_init(ni, &r, src, KOLO_OP_NAK, 1, 0, 0, re, 0, (uint64_t)st, tag, 0);
        }
    } else if ((op >= KOLO_OP_ADD && op <= KOLO_OP_CSWAP) || op == KOLO_OP_FETCH_AND ||
               op == KOLO_OP_FETCH_OR) {
        unsigned asize = (unsigned)KOLO_H0_ASIZE(h0), size;
        int fetch = (h0 & KOLO_H0_FETCH) != 0;
        uint64_t mask, opnd, old = 0, nv;
        if (asize < 2 || len != (op == KOLO_OP_CSWAP ? 2u : 1u))
            return bad_pkt(ni);
        size = asize == 2 ? 4u : 8u;
        if (addr & (size - 1))
            return bad_pkt(ni);
        mask = size == 4 ? 0xffffffffull : ~0ull;
        opnd = p->payload[0] & mask;
        st = win_check(ni, key, addr, size, KOLO_WIN_ATOMIC);
        if (st == KOLO_ST_OK) {
            if (ni->env.dma_read(ni->env.user, addr, buf, size)) {
                st = KOLO_ST_REMOTE_DMA;
            } else {
                int write = 1;
                old = get_le(buf, size);
                switch (op) {
                case KOLO_OP_ADD:
                case KOLO_OP_FETCH_ADD: nv = old + opnd; break;
                case KOLO_OP_XOR:
                case KOLO_OP_FETCH_XOR: nv = old ^ opnd; break;
                case KOLO_OP_FETCH_AND: nv = old & opnd; break;
                case KOLO_OP_FETCH_OR: nv = old | opnd; break;
                case KOLO_OP_SWAP: nv = opnd; break;
                default: /* CSWAP */
                    nv = opnd;
                    write = old == (p->payload[1] & mask);
                    break;
                }
                put_le(buf, nv & mask, size);
                if (write && ni->env.dma_write(ni->env.user, addr, buf, size))
                    st = KOLO_ST_REMOTE_DMA;
            }
            if (st != KOLO_ST_OK)
                ni->st_dma_err++;
        }
        if (st != KOLO_ST_OK) {
            pkt_init(ni, &r, src, KOLO_OP_NAK, 1, 0, 0, re, 0, (uint64_t)st, tag, 0);
        } else if (fetch) {
            pkt_init(ni, &r, src, KOLO_OP_GET_RESP, 1, 1, 0, re,
                     (uint64_t)(size - 1) << KOLO_H0_EXT_SHIFT, addr, tag, 0);
            r.payload[0] = old;
        } else {
            pkt_init(ni, &r, src, KOLO_OP_ACK, 1, 0, 0, re, 0, addr, tag, 0);
        }
    } else { /* MGMT (service processor, not the NI), reserved ops */
        return bad_pkt(ni);
    }
    if (dd) {
        dd->valid = 1;
        dd->gen = (uint8_t)gen;
        dd->resp_op = r.op;
        dd->status = r.op == KOLO_OP_NAK ? (uint8_t)(r.header[1] & 0xffu) : 0;
        dd->ext = (uint8_t)(r.header[0] >> KOLO_H0_EXT_SHIFT & 0xfu);
        dd->value = r.payload[0];
#ifdef KOLO_NI_PLANT_E2E_FORGET
        if (++ni->plant_writes % (KOLO_NI_PLANT_E2E_FORGET) == 0)
            dd->valid = 0; /* planted: this record is forgotten */
#endif
#ifdef KOLO_NI_PLANT_E2E_SOURCES
        if (si >= (KOLO_NI_PLANT_E2E_SOURCES))
            dd->valid = 0; /* planted: executed without a record */
#endif
        if (gen)
            r.header[0] |= KOLO_H0_GEN;
    }
    queue_resp(ni, &r);
    return 0;
}

static int rx_response(kolo_ni *ni, const kolo_pkt *p, unsigned op, unsigned len) {
    uint64_t h0 = p->header[0], h1 = p->header[1];
    unsigned tag = (unsigned)KOLO_H1_TAG_GET(h1);
    ni_tag *t = &ni->tags[tag];
    ni_tag tc;
    ni_op *o;
    ni_ctx *c;
    int16_t idx;
    if (ni->e2e.enable && (t->op < 0 || KOLO_H0_SRC_GET(h0) != t->dst ||
                           ((h0 & KOLO_H0_GEN) ? 1u : 0u) != t->gen)) {
        /* the answer to a copy that was retransmitted, or to an operation
         * given up: its request was answered already */
        ni->e2e_st.dup_responses++;
        return 0;
    }
    if (t->op < 0 || KOLO_H0_SRC_GET(h0) != t->dst)
        return bad_pkt(ni);
    if (op == KOLO_OP_ACK) {
        if (len || t->want_data)
            return bad_pkt(ni);
    } else if (op == KOLO_OP_NAK) {
        if (len || (h1 & 0xffu) == 0)
            return bad_pkt(ni);
    } else if (!t->want_data || len != (t->nbytes + 7) / 8 ||
               KOLO_H0_LASTB(h0) != ((t->nbytes - 1) & 7u)) {
        return bad_pkt(ni);
    }
    tc = *t;
    idx = tc.op;
    o = &ni->ops[idx];
    c = &ni->ctx[o->ctx];
    tag_free(ni, tag);
    o->pkts_out--;
    if (tc.is_put && !o->orphan)
        c->put_out--;
    if (op == KOLO_OP_NAK) {
        ni->st_nak_rcvd++;
        op_error(o, (uint8_t)(h1 & 0xffu));
    } else if (op == KOLO_OP_GET_RESP && !o->orphan) {
        if (o->op == KOLO_D_GET) {
            uint8_t buf[NI_PKT_BYTES];
            flits_to_bytes(buf, p->payload, tc.nbytes);
            if (ni->env.dma_write(ni->env.user, o->w2 + tc.off, buf, tc.nbytes)) {
                ni->st_dma_err++;
                op_error(o, KOLO_ST_LOCAL_DMA);
            }
        } else {
            o->result = p->payload[0] & (o->asize == 4 ? 0xffffffffull : ~0ull);
        }
    }
    if (o->state == OP_WAIT && !o->pkts_out)
        op_finish(ni, idx);
    return 0;
}

int kolo_ni_receive(kolo_ni *ni, const kolo_pkt *p) {
    uint64_t h0;
    unsigned op, vnet, len;
    if (!ni || !p)
        return -1;
    h0 = p->header[0];
    op = (unsigned)KOLO_H0_OP_GET(h0);
    vnet = (unsigned)KOLO_H0_VNET_GET(h0);
    len = (unsigned)KOLO_H0_LEN_GET(h0);
    if (vnet == 0 && ni->resp_count >= NI_RESP_Q)
        return -1; /* no room for the response: backpressure */
    ni->st_rx++;
    if (len > KOLO_MAX_PAYLOAD || p->len != len || KOLO_H0_DST_GET(h0) != ni->node_id)
        return bad_pkt(ni);
    if (op == KOLO_OP_GET_RESP || op == KOLO_OP_ACK || op == KOLO_OP_NAK)
        return vnet == 1 ? rx_response(ni, p, op, len) : bad_pkt(ni);
    return vnet == 0 ? rx_request(ni, p, op, len) : bad_pkt(ni);
}

/* ---- MMIO ----------------------------------------------------------------------- */
/* width of the register at a BAR0 offset: 0 unmapped, 4, or 8 (the offset may
 * be the upper half of an 8-byte register) */
static unsigned bar0_width(uint64_t off) {
    if (off < 0x18)
        return 4;
    if (off >= 0x20 && off < 0x50)
        return 8;
    if (off >= KOLO_CSR_E2E_CTRL && off < KOLO_CSR_E2E_RETX)
        return 4;
    if (off >= KOLO_CSR_E2E_RETX && off < KOLO_CSR_CYCLES + 8)
        return 8;
    if (off >= KOLO_CSR_CTX(0) && off < KOLO_CSR_CTX(KOLO_NI_NUM_CTX))
        return (off & 0x3fu) < 0x30 ? 8 : 0;
    if (off >= KOLO_CSR_WIN(0) && off < KOLO_CSR_WIN(KOLO_NI_NUM_WIN))
        return (off & 0x1fu) < 0x18 ? 8 : 0;
    if (off >= KOLO_CSR_ROUTE(0) && off < KOLO_CSR_ROUTE(NI_ROUTES))
        return 4;
    if (off >= KOLO_CSR_DOORBELL(0) && off < KOLO_BAR0_SIZE) {
        unsigned rel = (unsigned)(off & 0xfffu);
        if (rel < 4 || (rel >= 8 && rel < 0xc))
            return 4;
        return rel >= 0x10 && rel < 0x20 ? 8 : 0;
    }
    return 0;
}

static uint64_t ctx_status(const ni_ctx *c) {
    return (uint64_t)(c->enabled ? 1u : 0u) | (uint64_t)(c->stopped ? 2u : 0u) |
           (uint64_t)c->err_code << 8 | (uint64_t)c->sq_ci << 16;
}
static uint64_t ctx_outstanding(const ni_ctx *c) {
    return (uint64_t)(c->sq_count + c->pio_count + c->inflight) | (uint64_t)c->put_out << 32;
}

static uint64_t rd64reg(kolo_ni *ni, uint64_t off) {
    if (off == KOLO_CSR_CYCLES) /* the NI's clock: here kolo_ni_step calls */
        return ni->now;
    if (off >= KOLO_CSR_E2E_RETX && off < KOLO_CSR_E2E_RESYNC + 8) { /* (32-bit counters in the RTL) */
        switch (off) {
        case KOLO_CSR_E2E_RETX: return ni->e2e_st.retransmits & 0xffffffffu;
        case KOLO_CSR_E2E_DUP_REQ: return ni->e2e_st.dup_requests & 0xffffffffu;
        case KOLO_CSR_E2E_DUP_RESP: return ni->e2e_st.dup_responses & 0xffffffffu;
        case KOLO_CSR_E2E_TIMEOUTS: return ni->e2e_st.timeouts & 0xffffffffu;
        case KOLO_CSR_E2E_UNREACH: return ni->e2e_st.unreachable & 0xffffffffu;
        default: return 0; /* E2E_RESYNC: the model has no reload and sends no RESYNC (docs/ni.md 10.1) */
        }
    }
    if (off < 0x50) {
        switch (off) {
        case KOLO_CSR_STAT_TX_PKTS: return ni->st_tx;
        case KOLO_CSR_STAT_RX_PKTS: return ni->st_rx;
        case KOLO_CSR_STAT_NAK_SENT: return ni->st_nak_sent;
        case KOLO_CSR_STAT_NAK_RCVD: return ni->st_nak_rcvd;
        case KOLO_CSR_STAT_BAD_PKTS: return ni->st_bad;
        default: return ni->st_dma_err;
        }
    }
    if (off < KOLO_CSR_WIN(0)) {
        const ni_ctx *c = &ni->ctx[(off - KOLO_CSR_CTX(0)) >> 6];
        switch (off & 0x3fu) {
        case KOLO_CTX_SQ_BASE: return c->sq_base;
        case KOLO_CTX_CQ_BASE: return c->cq_base;
        case KOLO_CTX_SIZES: return c->sizes;
        case KOLO_CTX_CTRL: return c->ctrl;
        case KOLO_CTX_STATUS: return ctx_status(c);
        default: return ctx_outstanding(c);
        }
    }
    if (off < KOLO_CSR_ROUTE(0)) {
        const ni_win *w = &ni->win[(off - KOLO_CSR_WIN(0)) >> 5];
        switch (off & 0x1fu) {
        case KOLO_WIN_BASE: return w->base;
        case KOLO_WIN_LEN: return w->len;
        default: return w->ctrl;
        }
    }
    {
        const ni_ctx *c = &ni->ctx[(off - KOLO_CSR_DOORBELL(0)) >> 12];
        return (off & 0xfffu) == KOLO_DB_STATUS ? ctx_status(c) : ctx_outstanding(c);
    }
}

static uint32_t rd32reg(kolo_ni *ni, uint64_t off) {
    switch (off) {
    case KOLO_CSR_ID: return KOLO_NI_ID;
    case KOLO_CSR_VERSION: return KOLO_NI_VERSION;
    case KOLO_CSR_NODE_ID: return ni->node_id;
    case KOLO_CSR_TORUS:
        return (uint32_t)(ni->topo.size[0] - 1) | (uint32_t)(ni->topo.size[1] - 1) << 4 |
               (uint32_t)(ni->topo.size[2] - 1) << 8;
    case KOLO_CSR_NUM_CTX: return KOLO_NI_NUM_CTX;
    case KOLO_CSR_ERR_CSR: return ni->err_csr;
    case KOLO_CSR_E2E_CTRL:
        return (ni->e2e.enable ? KOLO_E2E_CTRL_EN : 0u) | (ni->e2e.max_retries & 0xfu) << 8;
    case KOLO_CSR_E2E_TIMEOUT: return ni->e2e.timeout;
    default: break;
    }
    if (off >= KOLO_CSR_ROUTE(0) && off < KOLO_CSR_ROUTE(NI_ROUTES))
        return ni->route[(off - KOLO_CSR_ROUTE(0)) >> 2];
    ni->err_csr++; /* doorbell SQ_PI / CQ_CI are write-only */
    return 0;
}

/* read of a 4-byte slot (4-aligned) */
static uint32_t rd32(kolo_ni *ni, uint64_t off) {
    unsigned w = bar0_width(off);
    if (w == 8)
        return (uint32_t)(rd64reg(ni, off & ~7ull) >> (8 * (off & 4u)));
    return w == 4 ? rd32reg(ni, off) : 0;
}

int kolo_ni_mmio_read(kolo_ni *ni, int bar, uint64_t offset, unsigned size, uint64_t *value) {
    uint64_t v = 0;
    if (value)
        *value = 0;
    if (!ni || bar != 0 || (size != 4 && size != 8) || (offset & (size - 1))) {
        if (ni)
            ni->err_csr++;
        return -1;
    }
    if (offset < KOLO_BAR0_SIZE) {
        if (size == 8 && bar0_width(offset) == 8)
            v = rd64reg(ni, offset);
        else if (size == 8)
            v = rd32(ni, offset) | (uint64_t)rd32(ni, offset + 4) << 32;
        else
            v = rd32(ni, offset);
    }
    if (value)
        *value = v;
    return 0;
}

static int config_ok(const ni_ctx *c) {
    unsigned sq = (unsigned)(c->sizes & 0x1fu), cq = (unsigned)(c->sizes >> 8) & 0x1fu;
    if ((c->sizes & ~0x1f1full) || sq < 1 || sq > 15 || cq < sq || cq > 15)
        return 0;
    if ((c->sq_base & 31u) || (c->cq_base & 15u))
        return 0;
    if (c->sq_base > UINT64_MAX - (32ull << sq) + 1 || c->cq_base > UINT64_MAX - (16ull << cq) + 1)
        return 0;
    return 1;
}

static void ctx_disable(kolo_ni *ni, unsigned ci) {
    ni_ctx *c = &ni->ctx[ci];
    unsigned i;
    for (i = 0; i < NI_POOL; i++) {
        ni_op *o = &ni->ops[i];
        if (o->state == OP_FREE || o->ctx != ci || o->orphan)
            continue;
        if (o->pkts_out) { /* responses still to come: finish silently */
            o->orphan = 1;
            o->state = OP_WAIT;
        } else {
            op_free(ni, (int16_t)i);
        }
    }
    c->enabled = 0;
    c->cur = -1;
    c->sq_count = c->pio_count = c->pend_count = 0;
    c->sq_head = c->pio_head = c->pend_head = 0;
    c->inflight = c->put_out = 0;
}

static void wr_ctrl(kolo_ni *ni, unsigned ci, uint64_t v) {
    ni_ctx *c = &ni->ctx[ci];
    if (c->enabled) {
        if (v & 1u) {
            ni->err_csr++;
            return;
        }
        ctx_disable(ni, ci);
        c->ctrl = v;
        return;
    }
    if (!(v & 1u)) {
        c->ctrl = v;
        return;
    }
    if (!config_ok(c)) {
        c->ctrl = v & ~1ull;
        c->stopped = 1;
        c->err_code = KOLO_ST_BAD_CONFIG;
        return;
    }
    c->ctrl = v;
    c->enabled = 1;
    c->stopped = 0;
    c->err_code = 0;
    c->sq_log2 = (unsigned)(c->sizes & 0x1fu);
    c->cq_log2 = (unsigned)(c->sizes >> 8) & 0x1fu;
    c->sq_ci = c->sq_pi = c->cq_pi = c->cq_ci = 0;
    c->seq = 0;
}

static void wr_sq_pi(kolo_ni *ni, unsigned ci, uint32_t v) {
    ni_ctx *c = &ni->ctx[ci];
    uint16_t pi = (uint16_t)v;
    unsigned d_new = (uint16_t)(pi - c->sq_ci), d_old = (uint16_t)(c->sq_pi - c->sq_ci);
    if (!c->enabled || c->stopped) {
        ni->err_csr++;
        return;
    }
    if (d_new > (1u << c->sq_log2) || d_new < d_old) {
        ni->err_csr++;
        ctx_stop(c, KOLO_ST_BAD_DOORBELL);
        push_cqe(ni, c, (uint16_t)(c->sq_ci & ((1u << c->sq_log2) - 1u)), KOLO_ST_BAD_DOORBELL, 0, 0);
        return;
    }
    c->sq_pi = pi;
}

static void wr_cq_ci(kolo_ni *ni, unsigned ci, uint32_t v) {
    ni_ctx *c = &ni->ctx[ci];
    uint16_t nci = (uint16_t)v;
    if (!c->enabled || (uint16_t)(nci - c->cq_ci) > (uint16_t)(c->cq_pi - c->cq_ci)) {
        ni->err_csr++;
        return;
    }
    c->cq_ci = nci;
    flush_cq(ni, c);
}

static void wr64reg(kolo_ni *ni, uint64_t off, uint64_t v) {
    if (off >= KOLO_CSR_CTX(0) && off < KOLO_CSR_WIN(0)) {
        unsigned ci = (unsigned)(off - KOLO_CSR_CTX(0)) >> 6;
        ni_ctx *c = &ni->ctx[ci];
        switch (off & 0x3fu) {
        case KOLO_CTX_SQ_BASE:
        case KOLO_CTX_CQ_BASE:
        case KOLO_CTX_SIZES:
            if (c->enabled) {
                ni->err_csr++;
                return;
            }
            if ((off & 0x3fu) == KOLO_CTX_SQ_BASE)
                c->sq_base = v;
            else if ((off & 0x3fu) == KOLO_CTX_CQ_BASE)
                c->cq_base = v;
            else
                c->sizes = v;
            return;
        case KOLO_CTX_CTRL: wr_ctrl(ni, ci, v); return;
        default: break; /* STATUS, OUTSTANDING: RO */
        }
    } else if (off >= KOLO_CSR_WIN(0) && off < KOLO_CSR_ROUTE(0)) {
        ni_win *w = &ni->win[(off - KOLO_CSR_WIN(0)) >> 5];
        switch (off & 0x1fu) {
        case KOLO_WIN_BASE: w->base = v; return;
        case KOLO_WIN_LEN: w->len = v; return;
        default: w->ctrl = v; return;
        }
    }
    ni->err_csr++; /* statistics, STATUS, OUTSTANDING: read-only */
}

static void wr32(kolo_ni *ni, uint64_t off, uint32_t v) {
    unsigned w = bar0_width(off);
    if (w == 8) {
        uint64_t base = off & ~7ull, cur = rd64reg(ni, base);
        unsigned sh = 8 * (unsigned)(off & 4u);
        wr64reg(ni, base, (cur & ~(0xffffffffull << sh)) | (uint64_t)v << sh);
    } else if (w == 4 && off >= KOLO_CSR_ROUTE(0) && off < KOLO_CSR_ROUTE(NI_ROUTES)) {
        unsigned di = (unsigned)(off - KOLO_CSR_ROUTE(0)) >> 2;
        if (ni->route[di] != v)
            kolo_ni_e2e_route_switch(ni);
        ni->route[di] = v;
    } else if (off == KOLO_CSR_E2E_CTRL) {
        kolo_ni_e2e_cfg c = ni->e2e;
        c.enable = (v & KOLO_E2E_CTRL_EN) != 0;
        c.max_retries = (v >> 8) & 0xfu;
        kolo_ni_set_e2e(ni, &c);
        if (v & KOLO_E2E_CTRL_SWITCH)
            kolo_ni_e2e_route_switch(ni);
    } else if (off == KOLO_CSR_E2E_TIMEOUT) {
        kolo_ni_e2e_cfg c = ni->e2e;
        c.timeout = v;
        kolo_ni_set_e2e(ni, &c);
    } else if (w == 4 && off >= KOLO_CSR_DOORBELL(0)) {
        unsigned ci = (unsigned)(off - KOLO_CSR_DOORBELL(0)) >> 12;
        if ((off & 0xfffu) == KOLO_DB_SQ_PI)
            wr_sq_pi(ni, ci, v);
        else
            wr_cq_ci(ni, ci, v);
    } else {
        ni->err_csr++; /* read-only global register or unmapped offset */
    }
}

static int pio_ctx(const kolo_ni *ni, uint64_t offset) {
    unsigned ci;
    if (offset >= KOLO_BAR2_SIZE || (offset & 0xfffu))
        return -1;
    ci = (unsigned)(offset >> 12);
    if (!ni->ctx[ci].enabled || ni->ctx[ci].stopped)
        return -1;
    return (int)ci;
}

int kolo_ni_mmio_write_ready(const kolo_ni *ni, int bar, uint64_t offset) {
    int ci;
    if (!ni || bar != 2)
        return 1;
    ci = pio_ctx(ni, offset);
    return ci < 0 || (ni->ctx[ci].pio_count < NI_PIO_FIFO && ni->nfree > 0);
}

static void pio_write(kolo_ni *ni, uint64_t offset, const uint8_t *b, unsigned size) {
    int ci = size == 64 && b ? pio_ctx(ni, offset) : -1;
    ni_ctx *c;
    kolo_desc d;
    int16_t idx;
    if (ci < 0 || ni->ctx[ci].pio_count >= NI_PIO_FIFO || !ni->nfree) {
        ni->err_csr++;
        return;
    }
    c = &ni->ctx[ci];
    kolo_desc_unpack(b, &d);
    if (d.op == KOLO_D_PUT)
        d.flags &= (uint8_t)~KOLO_DF_INLINE;
    idx = op_alloc(ni);
    op_from_desc(ni, &ni->ops[idx], (unsigned)ci, &d, 1, 0xffff);
    memcpy(ni->ops[idx].pio, b + 32, 32);
    c->pio_fifo[(c->pio_head + c->pio_count) % NI_PIO_FIFO] = idx;
    c->pio_count++;
}

void kolo_ni_mmio_write(kolo_ni *ni, int bar, uint64_t offset, const void *data, unsigned size) {
    const uint8_t *b = (const uint8_t *)data;
    if (!ni)
        return;
    if (bar == 2) {
        pio_write(ni, offset, b, size);
        return;
    }
    if (bar != 0 || !b || (size != 4 && size != 8) || (offset & (size - 1)) ||
        offset >= KOLO_BAR0_SIZE) {
        ni->err_csr++;
        return;
    }
    if (size == 8 && bar0_width(offset) == 8) {
        wr64reg(ni, offset, get_le(b, 8));
    } else if (size == 8) {
        wr32(ni, offset, (uint32_t)get_le(b, 4));
        wr32(ni, offset + 4, (uint32_t)get_le(b + 4, 4));
    } else {
        wr32(ni, offset, (uint32_t)get_le(b, 4));
    }
}

/* ---- end-to-end reliability: configuration and counters ------------------------ */
void kolo_ni_set_e2e(kolo_ni *ni, const kolo_ni_e2e_cfg *cfg) {
    if (!ni || !cfg)
        return;
    ni->e2e = *cfg;
    if (ni->e2e.timeout < 64)
        ni->e2e.timeout = 64;
}

void kolo_ni_get_e2e(const kolo_ni *ni, kolo_ni_e2e_cfg *cfg, kolo_ni_e2e_stats *st) {
    if (cfg)
        *cfg = ni->e2e;
    if (st)
        *st = ni->e2e_st;
}

unsigned kolo_ni_e2e_sources(const kolo_ni *ni, uint8_t *has, unsigned n) {
    unsigned i, t, count = 0;
    for (i = 0; i < n; i++)
        has[i] = 0;
    for (i = 0; ni && ni->dedup && i < ni->peers; i++) {
        if (!ni->dedup[i])
            continue;
        for (t = 0; t < NI_TAGS && !ni->dedup[i][t].valid; t++)
            ;
        if (t == NI_TAGS)
            continue;
        count++;
        if (i < n)
            has[i] = 1;
    }
    return count;
}

unsigned kolo_ni_outstanding_age(const kolo_ni *ni, uint64_t *oldest) {
    unsigned t, n = 0;
    uint64_t age = 0;
    for (t = 0; t < NI_TAGS; t++) {
        const ni_tag *tg = &ni->tags[t];
        if (tg->op < 0 || !tg->sent)
            continue;
        n++;
        if (ni->now - tg->first_sent_at > age)
            age = ni->now - tg->first_sent_at;
    }
    if (oldest)
        *oldest = age;
    return n;
}
