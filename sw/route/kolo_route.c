/* kolo_route.c - coordinates, route state, default tables, paths and the
 * deadlock check of kolo (API and semantics: sw/include/kolo_route.h).
 *
 * Freestanding C99: no libc, no allocation. The port choice and the route
 * state update must stay bit-identical to rtl/router (kolo_route_compute.v and
 * the advance logic of kolo_router.v): the model predicts the RTL from here.
 */
#include "kolo_route.h"

/* ---- topology -------------------------------------------------------------- */

uint16_t kolo_node_id(kolo_coord c) {
    return (uint16_t)((c.c[0] & 0xfu) | ((c.c[1] & 0xfu) << 4) | ((c.c[2] & 0xfu) << 8));
}

kolo_coord kolo_node_coord(uint16_t id) {
    kolo_coord c;
    c.c[0] = (uint8_t)(id & 0xfu);
    c.c[1] = (uint8_t)((id >> 4) & 0xfu);
    c.c[2] = (uint8_t)((id >> 8) & 0xfu);
    return c;
}

int kolo_topo_valid(const kolo_topo *t) {
    int d;
    if (!t)
        return 0;
    for (d = 0; d < 3; d++)
        if (t->size[d] < 1 || t->size[d] > KOLO_MAX_DIM)
            return 0;
    return 1;
}

unsigned kolo_topo_nodes(const kolo_topo *t) {
    if (!kolo_topo_valid(t))
        return 0;
    return (unsigned)t->size[0] * t->size[1] * t->size[2];
}

int kolo_node_in_topo(const kolo_topo *t, uint16_t id) {
    kolo_coord c = kolo_node_coord(id);
    if (!kolo_topo_valid(t) || id > 0xfffu)
        return 0;
    return c.c[0] < t->size[0] && c.c[1] < t->size[1] && c.c[2] < t->size[2];
}

unsigned kolo_node_index(const kolo_topo *t, uint16_t id) {
    kolo_coord c = kolo_node_coord(id);
    return c.c[0] + (unsigned)t->size[0] * (c.c[1] + (unsigned)t->size[1] * c.c[2]);
}

uint16_t kolo_node_id_of_index(const kolo_topo *t, unsigned index) {
    kolo_coord c;
    c.c[0] = (uint8_t)(index % t->size[0]);
    index /= t->size[0];
    c.c[1] = (uint8_t)(index % t->size[1]);
    index /= t->size[1];
    c.c[2] = (uint8_t)index;
    return kolo_node_id(c);
}

/* A port that is not a network port leaves the node where it is. */
uint16_t kolo_neighbor(const kolo_topo *t, uint16_t id, int port) {
    kolo_coord c = kolo_node_coord(id);
    int d;
    unsigned n, v;
    if (port < 0 || port >= KOLO_PORT_LOCAL)
        return id;
    d = KOLO_PORT_DIM(port);
    n = t->size[d];
    v = c.c[d];
    v = KOLO_PORT_MINUS(port) ? (v + n - 1u) % n : (v + 1u) % n;
    c.c[d] = (uint8_t)v;
    return kolo_node_id(c);
}

int kolo_port_present(const kolo_topo *t, int port) {
    if (!t || port < 0 || port >= KOLO_PORT_LOCAL)
        return 0;
    return t->size[KOLO_PORT_DIM(port)] > 1;
}

/* ---- route state -------------------------------------------------------------- */

int kolo_route_det_port(uint32_t rs) {
    int d;
    if (rs & KOLO_RS_FS_VALID)
        return kolo_rs_fs_port(rs);
    for (d = 0; d < 3; d++)
        if (!kolo_rs_minus(rs, d) && kolo_rs_hops(rs, d) != 0)
            return 2 * d;
    for (d = 0; d < 3; d++)
        if (kolo_rs_minus(rs, d) && kolo_rs_hops(rs, d) != 0)
            return 2 * d + 1;
    if (rs & KOLO_RS_LS_VALID)
        return kolo_rs_ls_port(rs);
    return KOLO_PORT_LOCAL;
}

unsigned kolo_route_adaptive_mask(uint32_t rs) {
    unsigned mask = 0;
    int d;
    if (rs & KOLO_RS_FS_VALID)
        return 0;
    for (d = 0; d < 3; d++)
        if (kolo_rs_hops(rs, d) != 0)
            mask |= 1u << (2 * d + kolo_rs_minus(rs, d));
    return mask;
}

uint32_t kolo_route_advance(uint32_t rs, int port) {
    if (rs & KOLO_RS_FS_VALID)
        return rs & ~KOLO_RS_FS_VALID;
    if (port >= 0 && port < KOLO_PORT_LOCAL) {
        int d = KOLO_PORT_DIM(port);
        unsigned h = kolo_rs_hops(rs, d);
        if (h != 0 && kolo_rs_minus(rs, d) == KOLO_PORT_MINUS(port))
            return kolo_rs_set_hops(rs, d, h - 1u);
        if (rs & KOLO_RS_LS_VALID)
            return rs & ~KOLO_RS_LS_VALID;
    }
    return rs;
}

/* ---- default tables -------------------------------------------------------------- */

kolo_route_entry kolo_route_default(const kolo_topo *t, uint16_t src, uint16_t dst) {
    kolo_coord s = kolo_node_coord(src), e = kolo_node_coord(dst);
    uint32_t rs = 0;
    int d;
    if (!kolo_node_in_topo(t, src) || !kolo_node_in_topo(t, dst))
        return 0;
    for (d = 0; d < 3; d++) {
        unsigned n = t->size[d];
        unsigned plus = (e.c[d] + n - s.c[d]) % n;
        unsigned minus = (n - plus) % n;
        if (plus == 0)
            continue;
        if (plus <= minus) { /* a tie (plus == n/2) goes plus */
            rs = kolo_rs_set_hops(rs, d, plus);
        } else {
            rs = kolo_rs_set_hops(rs, d, minus) | KOLO_RS_SIGN(d);
        }
    }
    return rs | KOLO_RE_VALID;
}

void kolo_table_default(const kolo_topo *t, uint16_t src, kolo_route_entry *table) {
    unsigned i, n = kolo_topo_nodes(t);
    for (i = 0; i < n; i++)
        table[i] = kolo_route_default(t, src, kolo_node_id_of_index(t, i));
}

void kolo_tableset_default(const kolo_topo *t, kolo_route_entry *tables) {
    unsigned i, n = kolo_topo_nodes(t);
    for (i = 0; i < n; i++)
        kolo_table_default(t, kolo_node_id_of_index(t, i), tables + (size_t)i * n);
}

/* ---- paths ----------------------------------------------------------------------- */

int kolo_route_path(const kolo_topo *t, uint16_t src, uint32_t rs, kolo_hop *hops, int max) {
    uint16_t node = src;
    int n = 0, prev = -1, d;
    if (!kolo_node_in_topo(t, src) || (hops && max < 0))
        return KOLO_E_ARG;
    rs &= KOLO_RS_MASK;
    /* the router rejects hop counts that would go round the ring */
    for (d = 0; d < 3; d++)
        if (t->size[d] > 1 && kolo_rs_hops(rs, d) >= t->size[d])
            return KOLO_E_ARG;
    for (;;) {
        int port = kolo_route_det_port(rs);
        if (n >= KOLO_PATH_MAX)
            return KOLO_E_LOOP;
        if (hops && n >= max)
            return KOLO_E_NOSPACE;
        if (port == KOLO_PORT_LOCAL) {
            /* a pending step through "port 6" is malformed, not an ejection */
            if (rs & (KOLO_RS_FS_VALID | KOLO_RS_LS_VALID))
                return KOLO_E_PORT;
            if (hops) {
                hops[n].node = node;
                hops[n].port = KOLO_PORT_LOCAL;
                hops[n].entering = 0;
            }
            return n + 1;
        }
        if (!kolo_port_present(t, port))
            return KOLO_E_PORT;
        if (hops) {
            hops[n].node = node;
            hops[n].port = (uint8_t)port;
            hops[n].entering = (uint8_t)(n == 0 || port != prev);
        }
        rs = kolo_route_advance(rs, port);
        node = kolo_neighbor(t, node, port);
        prev = port;
        n++;
    }
}

int kolo_route_path_to(const kolo_topo *t, uint16_t src, uint16_t dst, uint32_t rs, kolo_hop *hops,
                       int max) {
    kolo_hop local[KOLO_PATH_MAX];
    int n;
    if (!hops) {
        hops = local;
        max = KOLO_PATH_MAX;
    }
    n = kolo_route_path(t, src, rs, hops, max);
    if (n > 0 && hops[n - 1].node != dst)
        return KOLO_E_WRONG;
    return n;
}

const char *kolo_route_strerror(int code) {
    switch (code) {
    case KOLO_OK:
        return "ok";
    case KOLO_E_ARG:
        return "bad argument";
    case KOLO_E_PORT:
        return "route uses a port absent in this topology";
    case KOLO_E_LOOP:
        return "route exceeds the hop bound";
    case KOLO_E_WRONG:
        return "route ejects at a node other than the destination";
    case KOLO_E_CYCLE:
        return "cycle in the channel dependency graph";
    case KOLO_E_NOSPACE:
        return "workspace too small";
    default:
        return "unknown error";
    }
}

/* ---- deadlock check ----------------------------------------------------------------
 * Vertices are rings, numbered (dim * 2 + minus) * 256 + a * 16 + b whatever the
 * topology (at most 1536). A turn is recorded per node as bit in_port * 6 +
 * out_port of a 36-bit mask: a packet that left the previous router through
 * in_port leaves this one through out_port. The ring of in_port at this node is
 * the ring of the previous hop (a ring keeps the two other coordinates), so the
 * edges of ring r are the turns out of r's port at r's nodes. Iterative DFS,
 * three colours, an explicit stack that also yields the cycle.
 */
#define RING_SLOTS (6u * 256u)

enum { WHITE = 0, GRAY = 1, BLACK = 2 };

typedef struct {
    uint64_t *turns;     /* [nodes] */
    uint8_t *color;      /* [RING_SLOTS] */
    uint8_t *iter;       /* [RING_SLOTS] stack: next (node in ring, out port) to try */
    uint16_t *stack;     /* [RING_SLOTS] stack: ring */
    uint16_t *stack_pos; /* [RING_SLOTS] position of a gray ring in the stack */
} dl_work;

size_t kolo_deadlock_workspace_size(const kolo_topo *t) {
    unsigned n = kolo_topo_nodes(t);
    if (n == 0)
        return 0;
    /* 8 bytes of slack to align the caller's pointer */
    return 8u + (size_t)n * sizeof(uint64_t) + RING_SLOTS * (1u + 1u + 2u + 2u);
}

static void other_dims(int d, int *da, int *db) {
    *da = d == 0 ? 1 : 0;
    *db = d == 2 ? 1 : 2;
}

static unsigned ring_of(uint16_t node, int port) {
    kolo_coord c = kolo_node_coord(node);
    int d = KOLO_PORT_DIM(port), da, db;
    other_dims(d, &da, &db);
    return (unsigned)port * 256u + c.c[da] * 16u + c.c[db];
}

/* node at position k along ring r */
static uint16_t ring_node(unsigned r, unsigned k) {
    kolo_coord c;
    int d = (int)(r / 256u) >> 1, da, db;
    other_dims(d, &da, &db);
    c.c[d] = (uint8_t)k;
    c.c[da] = (uint8_t)((r >> 4) & 0xfu);
    c.c[db] = (uint8_t)(r & 0xfu);
    return kolo_node_id(c);
}

static int ring_in_topo(const kolo_topo *t, unsigned r) {
    int d = (int)(r / 256u) >> 1, da, db;
    other_dims(d, &da, &db);
    return t->size[d] > 1 && ((r >> 4) & 0xfu) < t->size[da] && (r & 0xfu) < t->size[db];
}

static void fill_ring(kolo_ring *out, unsigned r) {
    out->dim = (uint16_t)((r / 256u) >> 1);
    out->minus = (uint16_t)((r / 256u) & 1u);
    out->a = (uint16_t)((r >> 4) & 0xfu);
    out->b = (uint16_t)(r & 0xfu);
}

static unsigned popcount64(uint64_t v) {
    unsigned n = 0;
    while (v) {
        v &= v - 1u;
        n++;
    }
    return n;
}

/* The turns of one route, segment by segment instead of hop by hop (the
 * check follows n^2 routes): the deterministic port sequence is the first
 * step, then the hops of +X +Y +Z -X -Y -Z, then the last step, exactly as
 * kolo_route_path walks it; consecutive segments through the same port are
 * one. Returns what kolo_route_path_to would: KOLO_E_ARG, KOLO_E_PORT,
 * KOLO_E_WRONG or KOLO_OK (turns recorded). test_deadlock cross-checks it
 * against a hop-by-hop checker. */
static int path_turns(const kolo_topo *t, uint16_t src, uint16_t dst, uint32_t rs,
                      uint64_t *turns) {
    kolo_coord sc = kolo_node_coord(src);
    unsigned c[3], d, k;
    int seg_port[8], prev = -1;
    unsigned seg_len[8], n_seg = 0;
    uint64_t pending_bits[8];
    unsigned pending_node[8], n_pending = 0;
    for (d = 0; d < 3; d++) {
        c[d] = sc.c[d];
        if (t->size[d] > 1 && kolo_rs_hops(rs, (int)d) >= t->size[d])
            return KOLO_E_ARG;
    }
    if (rs & KOLO_RS_FS_VALID) {
        seg_port[n_seg] = kolo_rs_fs_port(rs);
        seg_len[n_seg++] = 1;
    }
    for (k = 0; k < 6; k++) { /* direction order: k = minus * 3 + dim */
        d = k % 3;
        if (kolo_rs_hops(rs, (int)d) != 0 && (unsigned)kolo_rs_minus(rs, (int)d) == k / 3) {
            seg_port[n_seg] = (int)(2 * d + k / 3);
            seg_len[n_seg++] = kolo_rs_hops(rs, (int)d);
        }
    }
    if (rs & KOLO_RS_LS_VALID) {
        seg_port[n_seg] = kolo_rs_ls_port(rs);
        seg_len[n_seg++] = 1;
    }
    for (k = 0; k < n_seg; k++) {
        int port = seg_port[k];
        unsigned size;
        if (!kolo_port_present(t, port))
            return KOLO_E_PORT;
        if (port != prev && prev >= 0) {
            pending_bits[n_pending] = (uint64_t)1u << (prev * 6 + port);
            pending_node[n_pending++] = c[0] + t->size[0] * (c[1] + t->size[1] * c[2]);
        }
        d = (unsigned)KOLO_PORT_DIM(port);
        size = t->size[d];
        c[d] = KOLO_PORT_MINUS(port) ? (c[d] + size - seg_len[k] % size) % size
                                     : (c[d] + seg_len[k]) % size;
        prev = port;
    }
    if (c[0] + 16u * c[1] + 256u * c[2] != dst)
        return KOLO_E_WRONG;
    for (k = 0; k < n_pending; k++)
        turns[pending_node[k]] |= pending_bits[k];
    return KOLO_OK;
}

/* DFS from root; returns KOLO_E_CYCLE with the report filled, or KOLO_OK */
static int dl_visit(const kolo_topo *t, dl_work *w, unsigned root, kolo_deadlock_report *rep) {
    int top = 0;
    w->stack[0] = (uint16_t)root;
    w->iter[0] = 0;
    w->stack_pos[root] = 0;
    w->color[root] = GRAY;
    while (top >= 0) {
        unsigned r = w->stack[top];
        unsigned in_port = r / 256u;
        unsigned ring_len = t->size[in_port >> 1];
        int pushed = 0;
        while (!pushed && w->iter[top] < ring_len * 6u) {
            unsigned it = w->iter[top]++;
            uint16_t node = ring_node(r, it / 6u);
            unsigned out_port = it % 6u;
            unsigned next;
            if (!((w->turns[kolo_node_index(t, node)] >> (in_port * 6u + out_port)) & 1u))
                continue;
            next = ring_of(node, (int)out_port);
            if (w->color[next] == GRAY) {
                int i, start = w->stack_pos[next];
                if (rep) {
                    rep->n_rings = top - start + 1;
                    for (i = start; i <= top && i - start < 64; i++)
                        fill_ring(&rep->rings[i - start], w->stack[i]);
                }
                return KOLO_E_CYCLE;
            }
            if (w->color[next] == WHITE) {
                top++;
                w->stack[top] = (uint16_t)next;
                w->iter[top] = 0;
                w->stack_pos[next] = (uint16_t)top;
                w->color[next] = GRAY;
                pushed = 1;
            }
        }
        if (!pushed) {
            w->color[r] = BLACK;
            top--;
        }
    }
    return KOLO_OK;
}

int kolo_deadlock_check(const kolo_topo *t, const kolo_route_entry *tables, void *workspace,
                        size_t workspace_size, kolo_deadlock_report *report) {
    unsigned nodes = kolo_topo_nodes(t), i, j, r;
    uintptr_t base;
    dl_work w;
    uint32_t paths = 0, turns = 0, rings = 0;
    if (report) {
        report->n_rings = 0;
        report->src = report->dst = 0;
        report->paths = report->turns = report->graph_rings = 0;
    }
    if (nodes == 0 || !tables || !workspace)
        return KOLO_E_ARG;
    if (workspace_size < kolo_deadlock_workspace_size(t))
        return KOLO_E_NOSPACE;
    base = ((uintptr_t)workspace + 7u) & ~(uintptr_t)7u;
    w.turns = (uint64_t *)base;
    w.color = (uint8_t *)(w.turns + nodes);
    w.iter = w.color + RING_SLOTS;
    w.stack = (uint16_t *)(w.iter + RING_SLOTS);
    w.stack_pos = w.stack + RING_SLOTS;
    for (i = 0; i < nodes; i++)
        w.turns[i] = 0;
    for (r = 0; r < RING_SLOTS; r++)
        w.color[r] = WHITE;

    for (i = 0; i < nodes; i++) {
        uint16_t src = kolo_node_id_of_index(t, i);
        for (j = 0; j < nodes; j++) {
            kolo_route_entry e = tables[(size_t)i * nodes + j];
            int rc;
            if (!(e & KOLO_RE_VALID))
                continue;
            rc = path_turns(t, src, kolo_node_id_of_index(t, j), e, w.turns);
            if (rc != KOLO_OK) {
                if (report) {
                    report->src = src;
                    report->dst = kolo_node_id_of_index(t, j);
                    report->paths = paths;
                }
                return rc;
            }
            paths++;
        }
    }
    for (i = 0; i < nodes; i++)
        turns += popcount64(w.turns[i]);
    for (r = 0; r < RING_SLOTS; r++)
        if (ring_in_topo(t, r))
            rings++;
    if (report) {
        report->paths = paths;
        report->turns = turns;
        report->graph_rings = rings;
    }
    for (r = 0; r < RING_SLOTS; r++) {
        if (!ring_in_topo(t, r) || w.color[r] != WHITE)
            continue;
        if (dl_visit(t, &w, r, report) != KOLO_OK)
            return KOLO_E_CYCLE;
    }
    return KOLO_OK;
}
