/* kolo_model.c - reference model and scoreboard (API: sw/include/kolo_model.h).
 *
 * Live packets sit in a hash map keyed by their 48-bit id; a delivered packet
 * is freed at once, so memory follows the packets in flight, not the run.
 * To tell a duplicate delivery from an unknown id, the ids of the last
 * KOLO_MODEL_DEAD_WINDOW deliveries are remembered. Ordered packets also
 * queue, by id, in a FIFO per (src, dst, vnet) flow.
 */
#include "kolo_model.h"
#include "kolo_ni_regs.h" /* header flit fields */

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KOLO_MODEL_DEAD_WINDOW 65536u

/* ---- hash map: uint64 key -> pointer, linear probing, backward-shift delete */
typedef struct {
    uint64_t *keys;
    void **vals; /* NULL marks an empty slot */
    size_t cap;  /* power of two */
    size_t count;
} u64map;

static uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

static int map_init(u64map *m, size_t cap) {
    m->keys = (uint64_t *)calloc(cap, sizeof *m->keys);
    m->vals = (void **)calloc(cap, sizeof *m->vals);
    m->cap = cap;
    m->count = 0;
    return m->keys && m->vals ? 0 : -1;
}

static void map_free(u64map *m) {
    free(m->keys);
    free(m->vals);
}

static size_t map_slot(const u64map *m, uint64_t key) {
    size_t i = (size_t)mix64(key) & (m->cap - 1);
    while (m->vals[i] && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static void *map_get(const u64map *m, uint64_t key) { return m->vals[map_slot(m, key)]; }

static int map_put(u64map *m, uint64_t key, void *val);

static int map_grow(u64map *m) {
    u64map bigger;
    size_t i;
    if (map_init(&bigger, m->cap * 2)) {
        map_free(&bigger);
        return -1;
    }
    for (i = 0; i < m->cap; i++)
        if (m->vals[i])
            map_put(&bigger, m->keys[i], m->vals[i]);
    map_free(m);
    *m = bigger;
    return 0;
}

/* insert or replace; val must not be NULL */
static int map_put(u64map *m, uint64_t key, void *val) {
    size_t i;
    if ((m->count + 1) * 2 > m->cap && map_grow(m))
        return -1;
    i = map_slot(m, key);
    if (!m->vals[i])
        m->count++;
    m->keys[i] = key;
    m->vals[i] = val;
    return 0;
}

static void map_del(u64map *m, uint64_t key) {
    size_t mask = m->cap - 1, i = map_slot(m, key), j;
    if (!m->vals[i])
        return;
    m->vals[i] = NULL;
    m->count--;
    /* move later members of the probe run back into the hole */
    for (j = (i + 1) & mask; m->vals[j]; j = (j + 1) & mask) {
        size_t home = (size_t)mix64(m->keys[j]) & mask;
        /* j's entry may fill hole i only if home is not in (i, j] cyclically */
        int movable = i <= j ? (home <= i || home > j) : (home <= i && home > j);
        if (movable) {
            m->keys[i] = m->keys[j];
            m->vals[i] = m->vals[j];
            m->vals[j] = NULL;
            i = j;
        }
    }
}

/* ---- model state ----------------------------------------------------------- */
typedef struct {
    kolo_pkt pkt;
    uint32_t rs;      /* route state now (after the hops seen) */
    uint16_t node;    /* router the head is at */
    uint8_t path_len; /* predicted network hops */
    uint8_t hops_seen;
    kolo_hop *path; /* predicted path, ordered packets only */
} pkt_rec;

typedef struct { /* FIFO of ordered packet ids of one flow */
    uint64_t *ids;
    size_t head, count, cap;
} flow_fifo;

struct kolo_model {
    kolo_topo topo;
    unsigned nodes;
    kolo_route_entry *tables;
    u64map live;  /* id -> pkt_rec */
    u64map flows; /* (src, dst, vnet) -> flow_fifo */
    u64map dead;  /* ids of recent deliveries -> non-NULL marker */
    uint64_t *dead_ring;
    size_t dead_next, dead_count;
    int check_hops;
    kolo_model_stats stats;
    char err[512];
};

static const char *port_name(int port) {
    static const char *const names[] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-", "local", "port7"};
    return port >= 0 && port < 8 ? names[port] : "port?";
}

static const char *node_str(char *buf, uint16_t id) {
    kolo_coord c = kolo_node_coord(id);
    snprintf(buf, 16, "(%u,%u,%u)", c.c[0], c.c[1], c.c[2]);
    return buf;
}

static int fail(kolo_model *m, int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->err, sizeof m->err, fmt, ap);
    va_end(ap);
    m->stats.errors++;
    return code;
}

/* flit 0 without the route state: everything the network must not change */
#define H0_RS_FIELD KOLO_H0_RS_MASK

static uint64_t make_h0(const kolo_pkt *p, uint32_t rs) {
    return KOLO_H0_DST_FIELD(p->dst) | KOLO_H0_SRC_FIELD(p->src) | KOLO_H0_OP_FIELD(p->op) |
           KOLO_H0_VNET_FIELD(p->vnet) | KOLO_H0_LEN_FIELD(p->len) |
           KOLO_H0_ORDERED_FIELD(p->ordered) | KOLO_H0_RS_FIELD(rs & KOLO_RS_MASK);
}

static uint64_t flow_key(uint16_t src, uint16_t dst, unsigned vnet) {
    return (uint64_t)src << 13 | (uint64_t)dst << 1 | (vnet & 1u);
}

/* ---- construction ---------------------------------------------------------- */
kolo_model *kolo_model_new(const kolo_topo *t, const kolo_route_entry *tables) {
    kolo_model *m;
    unsigned n = kolo_topo_nodes(t);
    size_t entries = (size_t)n * n;
    if (n == 0)
        return NULL;
    m = (kolo_model *)calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->topo = *t;
    m->nodes = n;
    m->check_hops = 1;
    m->tables = (kolo_route_entry *)malloc(entries * sizeof *m->tables);
    m->dead_ring = (uint64_t *)malloc(KOLO_MODEL_DEAD_WINDOW * sizeof *m->dead_ring);
    if (!m->tables || !m->dead_ring || map_init(&m->live, 1024) || map_init(&m->flows, 256) ||
        map_init(&m->dead, 2 * KOLO_MODEL_DEAD_WINDOW)) {
        kolo_model_free(m);
        return NULL;
    }
    if (tables)
        memcpy(m->tables, tables, entries * sizeof *m->tables);
    else
        kolo_tableset_default(t, m->tables);
    return m;
}

static void free_rec(pkt_rec *r) {
    free(r->path);
    free(r);
}

void kolo_model_free(kolo_model *m) {
    size_t i;
    if (!m)
        return;
    for (i = 0; m->live.vals && i < m->live.cap; i++)
        if (m->live.vals[i])
            free_rec((pkt_rec *)m->live.vals[i]);
    for (i = 0; m->flows.vals && i < m->flows.cap; i++)
        if (m->flows.vals[i]) {
            flow_fifo *f = (flow_fifo *)m->flows.vals[i];
            free(f->ids);
            free(f);
        }
    map_free(&m->live);
    map_free(&m->flows);
    map_free(&m->dead);
    free(m->dead_ring);
    free(m->tables);
    free(m);
}

void kolo_model_check_hops(kolo_model *m, int enable) { m->check_hops = enable != 0; }

/* ---- injection ------------------------------------------------------------- */
int kolo_model_make_header(const kolo_model *m, kolo_pkt *p, uint64_t addr, uint8_t tag,
                           uint8_t key) {
    kolo_route_entry e;
    if (!kolo_node_in_topo(&m->topo, p->src) || !kolo_node_in_topo(&m->topo, p->dst) ||
        p->len > KOLO_MAX_PAYLOAD || p->op > 15 || p->vnet > 1 || p->ordered > 1)
        return KOLO_E_ARG;
    e = m->tables[(size_t)kolo_node_index(&m->topo, p->src) * m->nodes +
                  kolo_node_index(&m->topo, p->dst)];
    if (!(e & KOLO_RE_VALID))
        return KOLO_E_ARG;
    p->header[0] = make_h0(p, e);
    p->header[1] = (addr & KOLO_MODEL_ID_MASK) | KOLO_H1_TAG_FIELD(tag) | KOLO_H1_KEY_FIELD(key);
    return KOLO_OK;
}

static int flow_push(kolo_model *m, uint64_t fkey, uint64_t id) {
    flow_fifo *f = (flow_fifo *)map_get(&m->flows, fkey);
    if (!f) {
        f = (flow_fifo *)calloc(1, sizeof *f);
        if (!f || map_put(&m->flows, fkey, f)) {
            free(f);
            return -1;
        }
    }
    if (f->count == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 8, i;
        uint64_t *ids = (uint64_t *)malloc(cap * sizeof *ids);
        if (!ids)
            return -1;
        for (i = 0; i < f->count; i++)
            ids[i] = f->ids[(f->head + i) % f->cap];
        free(f->ids);
        f->ids = ids;
        f->cap = cap;
        f->head = 0;
    }
    f->ids[(f->head + f->count) % f->cap] = id;
    f->count++;
    return 0;
}

int kolo_model_inject(kolo_model *m, const kolo_pkt *p) {
    kolo_hop path[KOLO_PATH_MAX];
    uint64_t id = p->id & KOLO_MODEL_ID_MASK;
    uint32_t rs = (uint32_t)KOLO_H0_RS_GET(p->header[0]);
    char b1[16], b2[16];
    pkt_rec *r;
    int n;
    if (!kolo_node_in_topo(&m->topo, p->src) || !kolo_node_in_topo(&m->topo, p->dst) ||
        p->len > KOLO_MAX_PAYLOAD || p->op > 15 || p->vnet > 1 || p->ordered > 1)
        return fail(m, KOLO_E_ARG,
                    "inject id %#llx: src/dst outside the torus, or a field out of range "
                    "(len %u, op %u, vnet %u, ordered %u)",
                    (unsigned long long)id, p->len, p->op, p->vnet, p->ordered);
    if ((p->header[0] & ~H0_RS_FIELD) != (make_h0(p, 0)) ||
        (p->header[1] & KOLO_MODEL_ID_MASK) != id)
        return fail(m, KOLO_E_ARG,
                    "inject id %#llx: header %#llx %#llx disagrees with the packet fields "
                    "(src %s dst %s op %u vnet %u len %u ordered %u, addr = id)",
                    (unsigned long long)id, (unsigned long long)p->header[0],
                    (unsigned long long)p->header[1], node_str(b1, p->src), node_str(b2, p->dst),
                    p->op, p->vnet, p->len, p->ordered);
    if (map_get(&m->live, id) || map_get(&m->dead, id))
        return fail(m, KOLO_E_ARG, "inject id %#llx: id already used (ids must be unique)",
                    (unsigned long long)id);
    n = kolo_route_path_to(&m->topo, p->src, p->dst, rs, path, KOLO_PATH_MAX);
    if (n < 0)
        return fail(m, KOLO_E_ARG, "inject id %#llx src %s dst %s: route state %#x: %s",
                    (unsigned long long)id, node_str(b1, p->src), node_str(b2, p->dst), rs,
                    kolo_route_strerror(n));
    r = (pkt_rec *)calloc(1, sizeof *r);
    if (!r)
        return fail(m, KOLO_E_ARG, "inject: out of memory");
    r->pkt = *p;
    r->pkt.id = id;
    r->rs = rs;
    r->node = p->src;
    r->path_len = (uint8_t)(n - 1);
    if (p->ordered) {
        r->path = (kolo_hop *)malloc((size_t)n * sizeof *r->path);
        if (!r->path || flow_push(m, flow_key(p->src, p->dst, p->vnet), id)) {
            free_rec(r);
            return fail(m, KOLO_E_ARG, "inject: out of memory");
        }
        memcpy(r->path, path, (size_t)n * sizeof *r->path);
    }
    if (map_put(&m->live, id, r)) {
        free_rec(r);
        return fail(m, KOLO_E_ARG, "inject: out of memory");
    }
    m->stats.injected++;
    return KOLO_OK;
}

/* ---- hops ------------------------------------------------------------------ */
int kolo_model_hop(kolo_model *m, uint64_t id, uint16_t node, int port, int vc) {
    pkt_rec *r;
    char b1[16], b2[16], b3[16], b4[16];
    id &= KOLO_MODEL_ID_MASK;
    if (port < 0 || port >= KOLO_NUM_PORTS || vc < 0 || vc > 3)
        return fail(m, KOLO_E_ARG, "hop id %#llx: port %d or vc %d out of range",
                    (unsigned long long)id, port, vc);
    r = (pkt_rec *)map_get(&m->live, id);
    if (!r)
        return fail(m, KOLO_E_SB_UNKNOWN, "hop id %#llx at %s %s: no such packet in flight",
                    (unsigned long long)id, node_str(b1, node), port_name(port));
    m->stats.hops_checked++;
    if (node != r->node)
        return fail(m, KOLO_E_SB_PATH,
                    "hop id %#llx (src %s dst %s) hop %u: seen at %s, expected at %s",
                    (unsigned long long)id, node_str(b1, r->pkt.src), node_str(b2, r->pkt.dst),
                    r->hops_seen, node_str(b3, node), node_str(b4, r->node));
    if ((unsigned)(vc >> 1) != r->pkt.vnet)
        return fail(m, KOLO_E_SB_PATH, "hop id %#llx at %s: vc %d is not in vnet %u",
                    (unsigned long long)id, node_str(b1, node), vc, r->pkt.vnet);
    if (port == KOLO_PORT_LOCAL)
        return fail(m, KOLO_E_SB_PATH,
                    "hop id %#llx at %s: port local reported as a hop (%u of %u hops seen); "
                    "deliveries go to kolo_model_deliver",
                    (unsigned long long)id, node_str(b1, node), r->hops_seen, r->path_len);
    if (r->hops_seen >= r->path_len)
        return fail(m, KOLO_E_SB_HOPS,
                    "hop id %#llx (src %s dst %s) at %s %s: hop %u, but the path has %u hops",
                    (unsigned long long)id, node_str(b1, r->pkt.src), node_str(b2, r->pkt.dst),
                    node_str(b3, node), port_name(port), r->hops_seen + 1u, r->path_len);
    if (r->pkt.ordered) {
        const kolo_hop *h = &r->path[r->hops_seen];
        if (port != h->port || (vc & 1))
            return fail(m, KOLO_E_SB_PATH,
                        "hop id %#llx (ordered, src %s dst %s) hop %u at %s: port %s vc %d, "
                        "expected port %s vc class 0",
                        (unsigned long long)id, node_str(b1, r->pkt.src), node_str(b2, r->pkt.dst),
                        r->hops_seen, node_str(b3, node), port_name(port), vc, port_name(h->port));
    } else {
        int det = kolo_route_det_port(r->rs);
        unsigned mask = kolo_route_adaptive_mask(r->rs);
        /* the escape VC is direction-order only; VC1 may take any productive port */
        int legal = port == det || ((vc & 1) && ((mask >> port) & 1u));
        if (!legal)
            return fail(m, KOLO_E_SB_PATH,
                        "hop id %#llx (src %s dst %s) hop %u at %s: port %s vc %d is not legal "
                        "(deterministic %s, adaptive mask %#x, route state %#x)",
                        (unsigned long long)id, node_str(b1, r->pkt.src), node_str(b2, r->pkt.dst),
                        r->hops_seen, node_str(b3, node), port_name(port), vc, port_name(det), mask,
                        r->rs);
    }
    r->rs = kolo_route_advance(r->rs, port);
    r->node = kolo_neighbor(&m->topo, node, port);
    r->hops_seen++;
    return KOLO_OK;
}

/* ---- delivery -------------------------------------------------------------- */
static void remember_dead(kolo_model *m, uint64_t id) {
    if (m->dead_count == KOLO_MODEL_DEAD_WINDOW) {
        map_del(&m->dead, m->dead_ring[m->dead_next]);
        m->dead_count--;
    }
    m->dead_ring[m->dead_next] = id;
    m->dead_next = (m->dead_next + 1) % KOLO_MODEL_DEAD_WINDOW;
    m->dead_count++;
    map_put(&m->dead, id, m); /* any non-NULL marker; cannot grow past the window */
}

/* Removes id from its flow; returns the id that was due first. */
static uint64_t flow_take(kolo_model *m, uint64_t fkey, uint64_t id) {
    flow_fifo *f = (flow_fifo *)map_get(&m->flows, fkey);
    uint64_t due;
    size_t i;
    if (!f || f->count == 0)
        return id;
    due = f->ids[f->head];
    for (i = 0; i < f->count; i++)
        if (f->ids[(f->head + i) % f->cap] == id)
            break;
    if (i < f->count) { /* close the gap */
        for (; i > 0; i--)
            f->ids[(f->head + i) % f->cap] = f->ids[(f->head + i - 1) % f->cap];
        f->head = (f->head + 1) % f->cap;
        f->count--;
    }
    if (f->count == 0) {
        map_del(&m->flows, fkey);
        free(f->ids);
        free(f);
    }
    return due;
}

int kolo_model_deliver(kolo_model *m, uint16_t node, const uint64_t header[2],
                       const uint64_t *payload, int len) {
    uint64_t id = header[1] & KOLO_MODEL_ID_MASK;
    pkt_rec *r = (pkt_rec *)map_get(&m->live, id);
    const kolo_pkt *p;
    char b1[16], b2[16], b3[16];
    uint32_t rs_in, rs_want, rs_got;
    int code = KOLO_OK, i;
    if (!r) {
        if (map_get(&m->dead, id))
            return fail(m, KOLO_E_SB_DUP, "deliver id %#llx at %s: delivered twice",
                        (unsigned long long)id, node_str(b1, node));
        return fail(m, KOLO_E_SB_UNKNOWN,
                    "deliver id %#llx at %s: no such packet (header %#llx %#llx)",
                    (unsigned long long)id, node_str(b1, node), (unsigned long long)header[0],
                    (unsigned long long)header[1]);
    }
    p = &r->pkt;
    rs_in = (uint32_t)KOLO_H0_RS_GET(p->header[0]);
    /* all hops consumed, pending steps done; signs and step ports stay */
    rs_want = rs_in & ~(KOLO_RS_FS_VALID | KOLO_RS_LS_VALID | (0xfffu << KOLO_RS_HOPS_SHIFT(0)));
    rs_got = (uint32_t)KOLO_H0_RS_GET(header[0]);
    if (node != p->dst) {
        code = fail(m, KOLO_E_SB_NODE, "deliver id %#llx (src %s dst %s): delivered at %s",
                    (unsigned long long)id, node_str(b1, p->src), node_str(b2, p->dst),
                    node_str(b3, node));
    } else if (len != p->len) {
        code = fail(
            m, KOLO_E_SB_DATA, "deliver id %#llx (src %s dst %s): %d payload flits, expected %u",
            (unsigned long long)id, node_str(b1, p->src), node_str(b2, p->dst), len, p->len);
    } else if ((header[0] & ~H0_RS_FIELD) != (p->header[0] & ~H0_RS_FIELD) ||
               header[1] != p->header[1]) {
        code = fail(m, KOLO_E_SB_DATA,
                    "deliver id %#llx (src %s dst %s): header %#llx %#llx, expected %#llx %#llx "
                    "(route state not compared)",
                    (unsigned long long)id, node_str(b1, p->src), node_str(b2, p->dst),
                    (unsigned long long)header[0], (unsigned long long)header[1],
                    (unsigned long long)p->header[0], (unsigned long long)p->header[1]);
    } else if (rs_got != rs_want) {
        code = fail(m, KOLO_E_SB_DATA,
                    "deliver id %#llx (src %s dst %s): route state %#x at delivery, expected "
                    "%#x (injected %#x)",
                    (unsigned long long)id, node_str(b1, p->src), node_str(b2, p->dst), rs_got,
                    rs_want, rs_in);
    } else {
        for (i = 0; i < len; i++)
            if (payload[i] != p->payload[i])
                break;
        if (i < len)
            code = fail(m, KOLO_E_SB_DATA,
                        "deliver id %#llx (src %s dst %s): payload flit %d is %#llx, expected "
                        "%#llx",
                        (unsigned long long)id, node_str(b1, p->src), node_str(b2, p->dst), i,
                        (unsigned long long)payload[i], (unsigned long long)p->payload[i]);
    }
    if (code == KOLO_OK && m->check_hops && r->hops_seen != r->path_len)
        code =
            fail(m, KOLO_E_SB_HOPS, "deliver id %#llx (src %s dst %s): %u hops seen, path has %u",
                 (unsigned long long)id, node_str(b1, p->src), node_str(b2, p->dst), r->hops_seen,
                 r->path_len);
    if (p->ordered) {
        uint64_t due = flow_take(m, flow_key(p->src, p->dst, p->vnet), id);
        if (code == KOLO_OK && due != id)
            code = fail(m, KOLO_E_SB_ORDER,
                        "deliver id %#llx (ordered, src %s dst %s vnet %u): overtook id %#llx "
                        "injected before it",
                        (unsigned long long)id, node_str(b1, p->src), node_str(b2, p->dst), p->vnet,
                        (unsigned long long)due);
    }
    /* delivered, right or wrong: a second delivery is a duplicate either way */
    map_del(&m->live, id);
    free_rec(r);
    remember_dead(m, id);
    m->stats.delivered++;
    return code;
}

/* ---- queries --------------------------------------------------------------- */
uint64_t kolo_model_pending(const kolo_model *m) { return m->live.count; }

const char *kolo_model_last_error(const kolo_model *m) { return m->err; }

void kolo_model_get_stats(const kolo_model *m, kolo_model_stats *s) { *s = m->stats; }

int kolo_model_drop(kolo_model *m, uint64_t id, uint16_t node, int port) {
    pkt_rec *r;
    char b1[16];
    id &= KOLO_MODEL_ID_MASK;
    r = (pkt_rec *)map_get(&m->live, id);
    if (!r) {
        if (map_get(&m->dead, id))
            return fail(m, KOLO_E_SB_DUP, "drop id %#llx at %s port %d: already delivered or dropped",
                        (unsigned long long)id, node_str(b1, node), port);
        return fail(m, KOLO_E_SB_UNKNOWN, "drop id %#llx at %s port %d: no such packet",
                    (unsigned long long)id, node_str(b1, node), port);
    }
    if (r->pkt.ordered)
        flow_take(m, flow_key(r->pkt.src, r->pkt.dst, r->pkt.vnet), id);
    map_del(&m->live, id);
    free_rec(r);
    remember_dead(m, id);
    m->stats.dropped++;
    return KOLO_OK;
}
