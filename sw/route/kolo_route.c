/* kolo_route.c - coordinates, route state, default tables, paths and the
 * deadlock check of kolo (API and semantics: sw/include/kolo_route.h).
 *
 * Freestanding C99: no libc, no allocation. The port choice and the route
 * state update must stay bit-identical to rtl/router (kolo_route_compute.v and
 * the advance logic of kolo_router.v): the model predicts the RTL from here.
 *
 * Length (~1035 lines): the freestanding routing library is built as one
 * translation unit for the firmware images (no libc, one object); splitting
 * topology, tables and the deadlock check into files of their own is planned.
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

/* Distance ties (kolo_route.h, docs/routing.md "Distance ties"): the parity
 * of the two other coordinates of both ends, plus the start's own coordinate
 * in a ring longer than 2; odd goes minus. */
int kolo_route_tie_minus(const kolo_topo *t, int d, kolo_coord a, kolo_coord b) {
    unsigned n = t->size[d], sum = 0;
    int k;
    for (k = 0; k < 3; k++)
        if (k != d)
            sum += a.c[k] + b.c[k];
    if (n > 2)
        sum += a.c[d];
    return (int)(sum & 1u);
}

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
        if (plus < minus || (plus == minus && !kolo_route_tie_minus(t, d, s, e))) {
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
    case KOLO_E_UNROUTED:
        return "connected pair without a route";
    case KOLO_E_FAULT:
        return "route crosses a failed link or node";
    case KOLO_E_CERT:
        return "the deadlock certificate does not hold for the table set";
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
#define RING_SLOTS KOLO_RING_SLOTS

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

unsigned kolo_ring_slot_of(uint16_t node, int port) {
    return (port < 0 || port >= KOLO_PORT_LOCAL) ? KOLO_RING_SLOTS : ring_of(node, port);
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

/* the rings of the topology in increasing slot order, without scanning all
 * RING_SLOTS: ring_next(t, RING_SLOTS) is the first, and each call the next
 * after r (a ring of t), RING_SLOTS after the last */
static unsigned ring_next(const kolo_topo *t, unsigned r) {
    unsigned port = r / 256u;
    if (r < RING_SLOTS) {
        int d = (int)port >> 1, da, db;
        other_dims(d, &da, &db);
        if ((r & 0xfu) + 1u < t->size[db])
            return r + 1u;
        if (((r >> 4) & 0xfu) + 1u < t->size[da])
            return (r & ~0xffu) + (((r >> 4) & 0xfu) + 1u) * 16u;
        port++;
    } else {
        port = 0;
    }
    for (; port < 6u; port++)
        if (t->size[port >> 1] > 1)
            return port * 256u;
    return RING_SLOTS;
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
                      uint64_t *turns, uint8_t *bubble) {
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
        /* two hops in a row in this ring (in the segment, or across two
         * segments through the same port): the bubble rule's case */
        if (bubble && (seg_len[k] > 1 || port == prev))
            bubble[ring_of((uint16_t)(c[0] + 16u * c[1] + 256u * c[2]), port)] = 1;
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
static int dl_visit(const kolo_topo *t, dl_work *w, unsigned root, kolo_deadlock_report *rep,
                    uint16_t *finish, unsigned *n_finished) {
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
            /* every ring r reaches is finished before r: reverse finishing
             * order is a topological order of the ring graph */
            if (finish)
                finish[r] = (uint16_t)(*n_finished)++;
            top--;
        }
    }
    return KOLO_OK;
}

int kolo_deadlock_check(const kolo_topo *t, const kolo_route_entry *tables, void *workspace,
                        size_t workspace_size, kolo_deadlock_report *report) {
    return kolo_deadlock_check_cert(t, tables, workspace, workspace_size, report, 0);
}

int kolo_deadlock_check_cert(const kolo_topo *t, const kolo_route_entry *tables, void *workspace,
                             size_t workspace_size, kolo_deadlock_report *report,
                             kolo_deadlock_cert *cert) {
    unsigned nodes = kolo_topo_nodes(t), i, j, r, n_finished = 0;
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
    if (cert) {
        cert->topo = *t;
        cert->n_rings = cert->n_bubble = 0;
        for (r = 0; r < RING_SLOTS; r++) {
            cert->rank[r] = KOLO_RANK_NONE;
            cert->bubble[r] = 0;
        }
    }

    for (i = 0; i < nodes; i++) {
        uint16_t src = kolo_node_id_of_index(t, i);
        for (j = 0; j < nodes; j++) {
            kolo_route_entry e = tables[(size_t)i * nodes + j];
            int rc;
            if (!(e & KOLO_RE_VALID))
                continue;
            rc = path_turns(t, src, kolo_node_id_of_index(t, j), e, w.turns, cert ? cert->bubble : 0);
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
    for (r = ring_next(t, RING_SLOTS); r < RING_SLOTS; r = ring_next(t, r))
        rings++;
    if (report) {
        report->paths = paths;
        report->turns = turns;
        report->graph_rings = rings;
    }
    for (r = ring_next(t, RING_SLOTS); r < RING_SLOTS; r = ring_next(t, r)) {
        if (w.color[r] != WHITE)
            continue;
        if (dl_visit(t, &w, r, report, cert ? cert->rank : 0, &n_finished) != KOLO_OK)
            return KOLO_E_CYCLE;
    }
    if (cert) {
        /* rank = reverse finishing order: every turn goes to a higher rank */
        cert->n_rings = (uint16_t)n_finished;
        for (r = 0; r < RING_SLOTS; r++) {
            if (cert->rank[r] != KOLO_RANK_NONE)
                cert->rank[r] = (uint16_t)(n_finished - 1u - cert->rank[r]);
            cert->n_bubble = (uint16_t)(cert->n_bubble + cert->bubble[r]);
        }
    }
    return KOLO_OK;
}

/* ---- routing around faults -----------------------------------------------------------
 * kolo_tableset_faults and kolo_table_faults run the same greedy algorithm:
 * 1. every live pair whose default route uses only usable links keeps it; its
 *    turns go into the ring graph (default turns alone never make a cycle);
 * 2. then, pairs in (src index, dst index) order, each broken pair takes the
 *    first of its candidates, shortest path first, whose path is usable and
 *    whose new turns leave the ring graph acyclic (an edge u -> v is refused
 *    when v already reaches u); its turns join the graph;
 * 3. a pair without such a candidate is unreachable (entry 0).
 * Candidates: a first step (none or any present port), a last step (none or
 * any present port) and, in each dimension, either direction around the ring
 * between the nodes after the first and before the last step.
 * Row mode stops after the row's own source: later sources cannot change it.
 */
#define FT_MAX_CAND (7u * 7u * 8u)
#define FT_MAX_TURNS 8

typedef struct {
    uint64_t *turns;  /* [nodes] the graph, as per-node turn masks */
    uint16_t *stamp;  /* [RING_SLOTS] DFS visit marks */
    uint16_t *stack;  /* [RING_SLOTS] */
    uint32_t *cand;   /* [FT_MAX_CAND] route states */
    uint16_t *clen;   /* [FT_MAX_CAND] path lengths */
    uint16_t *nb;     /* [nodes * 6] neighbour index through each port */
    uint8_t *usable;  /* [nodes] ports a packet may leave through */
    uint16_t gen;
} ft_work;

void kolo_faults_clear(kolo_faults *f) {
    unsigned i;
    for (i = 0; i < KOLO_MAX_NODES; i++) {
        f->port_down[i] = 0;
        f->node_down[i] = 0;
    }
}

int kolo_faults_set_link(kolo_faults *f, const kolo_topo *t, unsigned n, int port, int down) {
    unsigned m;
    if (!f || !kolo_topo_valid(t) || n >= kolo_topo_nodes(t) || !kolo_port_present(t, port))
        return KOLO_E_ARG;
    m = kolo_node_index(t, kolo_neighbor(t, kolo_node_id_of_index(t, n), port));
    if (down) {
        f->port_down[n] |= (uint8_t)(1u << port);
        f->port_down[m] |= (uint8_t)(1u << (port ^ 1));
    } else {
        f->port_down[n] &= (uint8_t)~(1u << port);
        f->port_down[m] &= (uint8_t)~(1u << (port ^ 1));
    }
    return KOLO_OK;
}

int kolo_faults_set_node(kolo_faults *f, const kolo_topo *t, unsigned n, int down) {
    if (!f || !kolo_topo_valid(t) || n >= kolo_topo_nodes(t))
        return KOLO_E_ARG;
    f->node_down[n] = (uint8_t)(down != 0);
    return KOLO_OK;
}

int kolo_faults_link_usable(const kolo_faults *f, const kolo_topo *t, unsigned n, int port) {
    unsigned m;
    if (!kolo_port_present(t, port) || n >= kolo_topo_nodes(t))
        return 0;
    if ((f->port_down[n] >> port) & 1u || f->node_down[n])
        return 0;
    m = kolo_node_index(t, kolo_neighbor(t, kolo_node_id_of_index(t, n), port));
    return !f->node_down[m];
}

size_t kolo_ft_workspace_size(const kolo_topo *t) {
    unsigned n = kolo_topo_nodes(t);
    if (n == 0)
        return 0;
    return 8u + (size_t)n * (sizeof(uint64_t) + 6u * 2u + 1u) + RING_SLOTS * (2u + 2u) + FT_MAX_CAND * (4u + 2u);
}

static int ft_setup(const kolo_topo *t, const kolo_faults *f, void *ws, size_t ws_size, ft_work *w) {
    unsigned nodes = kolo_topo_nodes(t), i;
    uintptr_t base;
    if (nodes == 0 || !ws)
        return KOLO_E_ARG;
    if (ws_size < kolo_ft_workspace_size(t))
        return KOLO_E_NOSPACE;
    base = ((uintptr_t)ws + 7u) & ~(uintptr_t)7u;
    w->turns = (uint64_t *)base;
    w->cand = (uint32_t *)(w->turns + nodes);
    w->stamp = (uint16_t *)(w->cand + FT_MAX_CAND);
    w->stack = w->stamp + RING_SLOTS;
    w->clen = w->stack + RING_SLOTS;
    w->nb = w->clen + FT_MAX_CAND;
    w->usable = (uint8_t *)(w->nb + (size_t)nodes * 6u);
    for (i = 0; i < nodes; i++) {
        uint16_t id = kolo_node_id_of_index(t, i);
        int p;
        w->turns[i] = 0;
        w->usable[i] = 0;
        for (p = 0; p < 6; p++) {
            w->nb[i * 6u + (unsigned)p] = (uint16_t)kolo_node_index(t, kolo_neighbor(t, id, p));
            if (!f || kolo_faults_link_usable(f, t, i, p))
                w->usable[i] |= (uint8_t)(1u << p);
        }
    }
    for (i = 0; i < RING_SLOTS; i++)
        w->stamp[i] = 0;
    w->gen = 0;
    return KOLO_OK;
}

/* Walk the deterministic path of rs from src hop by hop. Returns the number
 * of network hops, or -1 when it uses a port absent in the topology, a hop
 * count beyond its ring, an unusable link (f != NULL), or ends anywhere but
 * dst. Fills the turns it makes (node index, bit in_port*6+out_port). */
static int ft_walk(const kolo_topo *t, const ft_work *w, unsigned src, unsigned dst, uint32_t rs,
                   unsigned *turn_node, uint64_t *turn_bit, unsigned *n_turns) {
    int seg_port[8], prev = -1, hops = 0;
    unsigned seg_len[8], n_seg = 0, k, d, h, cur = src;
    *n_turns = 0;
    for (d = 0; d < 3; d++)
        if (t->size[d] > 1 ? kolo_rs_hops(rs, (int)d) >= t->size[d] : kolo_rs_hops(rs, (int)d) != 0)
            return -1;
    if (rs & KOLO_RS_FS_VALID) {
        seg_port[n_seg] = kolo_rs_fs_port(rs);
        seg_len[n_seg++] = 1;
    }
    for (k = 0; k < 6; k++) {
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
        if (port > 5 || !kolo_port_present(t, port))
            return -1;
        if (prev >= 0 && port != prev) {
            turn_node[*n_turns] = cur;
            turn_bit[*n_turns] = (uint64_t)1u << (prev * 6 + port);
            (*n_turns)++;
        }
        for (h = 0; h < seg_len[k]; h++) {
            if (!((w->usable[cur] >> port) & 1u))
                return -1;
            cur = w->nb[cur * 6u + (unsigned)port];
            hops++;
        }
        prev = port;
    }
    return cur == dst ? hops : -1;
}

/* does ring `from` reach ring `to` in the graph? */
static int ft_reaches(const kolo_topo *t, ft_work *w, unsigned from, unsigned to) {
    int top = 0;
    if (from == to)
        return 1;
    if (++w->gen == 0) {
        unsigned i;
        for (i = 0; i < RING_SLOTS; i++)
            w->stamp[i] = 0;
        w->gen = 1;
    }
    w->stack[0] = (uint16_t)from;
    w->stamp[from] = w->gen;
    while (top >= 0) {
        unsigned r = w->stack[top--], k;
        unsigned in_port = r / 256u, len = t->size[in_port >> 1];
        for (k = 0; k < len; k++) {
            uint16_t node = ring_node(r, k);
            unsigned mask = (unsigned)(w->turns[kolo_node_index(t, node)] >> (in_port * 6u)) & 0x3fu, q;
            for (q = 0; mask; q++, mask >>= 1) {
                unsigned next;
                if (!(mask & 1u))
                    continue;
                next = ring_of(node, (int)q);
                if (next == to)
                    return 1;
                if (w->stamp[next] != w->gen) {
                    w->stamp[next] = w->gen;
                    w->stack[++top] = (uint16_t)next;
                }
            }
        }
    }
    return 0;
}

/* add the turns if none closes a cycle: 1 added, 0 refused (graph unchanged) */
static int ft_add_turns(const kolo_topo *t, ft_work *w, const unsigned *node, const uint64_t *bit,
                        unsigned n) {
    unsigned k, added = 0, added_idx[FT_MAX_TURNS];
    for (k = 0; k < n; k++) {
        unsigned b = 0, in_port, out_port;
        uint16_t id;
        if (w->turns[node[k]] & bit[k])
            continue;
        while (!((bit[k] >> b) & 1u))
            b++;
        in_port = b / 6u;
        out_port = b % 6u;
        id = kolo_node_id_of_index(t, node[k]);
        if (ft_reaches(t, w, ring_of(id, (int)out_port), ring_of(id, (int)in_port))) {
            while (added > 0) {
                added--;
                w->turns[node[added_idx[added]]] &= ~bit[added_idx[added]];
            }
            return 0;
        }
        w->turns[node[k]] |= bit[k];
        added_idx[added++] = k;
    }
    return 1;
}

static int ft_live_pair(const kolo_faults *f, unsigned i, unsigned j) {
    return !f->node_down[i] && !f->node_down[j];
}

/* the detour of a broken pair; 0 when there is none */
static kolo_route_entry ft_detour(const kolo_topo *t, const kolo_faults *f, ft_work *w, uint16_t s,
                                  uint16_t d, kolo_ft_report *rep) {
    unsigned nc = 0, k, tn[FT_MAX_TURNS], si = kolo_node_index(t, s), di = kolo_node_index(t, d);
    uint64_t tb[FT_MAX_TURNS];
    int fs, ls, p;
    unsigned into_d = 0;
    (void)f;
    /* a source that cannot send, or a destination no usable link enters (a
     * dead node's neighbours report its links down): no candidate's walk
     * can succeed, so none is tried (the result is the same, found at once) */
    for (p = 0; p < 6; p++)
        if (kolo_port_present(t, p))
            into_d |= (w->usable[w->nb[di * 6u + (unsigned)p]] >> (p ^ 1)) & 1u;
    if (!w->usable[si] || !into_d)
        return 0;
    for (fs = -1; fs < 6; fs++) {
        if (fs >= 0 && !kolo_port_present(t, fs))
            continue;
        for (ls = -1; ls < 6; ls++) {
            kolo_coord a, b;
            unsigned tie_pref, sk;
            int dd0;
            if (ls >= 0 && !kolo_port_present(t, ls))
                continue;
            a = kolo_node_coord(fs >= 0 ? kolo_neighbor(t, s, fs) : s);
            b = kolo_node_coord(ls >= 0 ? kolo_neighbor(t, d, ls ^ 1) : d);
            /* equal lengths keep enumeration order: a distance tie's
             * preferred direction (kolo_route_tie_minus) is enumerated first */
            tie_pref = 0;
            for (dd0 = 0; dd0 < 3; dd0++) {
                unsigned n = t->size[dd0], off = (b.c[dd0] + n - a.c[dd0]) % n;
                if (off != 0 && 2u * off == n && kolo_route_tie_minus(t, dd0, a, b))
                    tie_pref |= 1u << dd0;
            }
            for (sk = 0; sk < 8; sk++) {
                unsigned signs = sk ^ tie_pref;
                uint32_t rs = 0;
                /* len: its path length if it is usable (the walk, done below in
                 * order of length only until one is taken, tells whether it is) */
                int dd, skip = 0, len = (fs >= 0) + (ls >= 0);
                for (dd = 0; dd < 3 && !skip; dd++) {
                    unsigned n = t->size[dd], off = (b.c[dd] + n - a.c[dd]) % n;
                    int minus = (signs >> dd) & 1;
                    if (off == 0) {
                        skip = minus; /* one way only: no hops */
                        continue;
                    }
                    rs = kolo_rs_set_hops(rs, dd, minus ? n - off : off);
                    len += (int)(minus ? n - off : off);
                    if (minus)
                        rs |= KOLO_RS_SIGN(dd);
                }
                if (skip)
                    continue;
                if (fs >= 0)
                    rs |= KOLO_RS_FS_VALID | (uint32_t)fs << KOLO_RS_FS_PORT_SHIFT;
                if (ls >= 0)
                    rs |= KOLO_RS_LS_VALID | (uint32_t)ls << KOLO_RS_LS_PORT_SHIFT;
                /* insert, keeping (length, enumeration order) */
                k = nc++;
                while (k > 0 && w->clen[k - 1] > len) {
                    w->clen[k] = w->clen[k - 1];
                    w->cand[k] = w->cand[k - 1];
                    k--;
                }
                w->clen[k] = (uint16_t)len;
                w->cand[k] = rs;
            }
        }
    }
    for (k = 0; k < nc; k++) {
        unsigned n;
        if (ft_walk(t, w, si, di, w->cand[k], tn, tb, &n) < 0)
            continue; /* not usable (or not reaching d): never a candidate */
        if (ft_add_turns(t, w, tn, tb, n))
            return KOLO_RE_VALID | w->cand[k];
        rep->rejected_cycle++;
    }
    return 0;
}

/* row >= 0: fill table with row `row` only; row < 0: fill the whole set */
static int ft_run(const kolo_topo *t, const kolo_faults *f, int row, kolo_route_entry *out, void *ws,
                  size_t ws_size, kolo_ft_report *rep) {
    unsigned nodes = kolo_topo_nodes(t), i, j, last, tn[FT_MAX_TURNS], n;
    uint64_t tb[FT_MAX_TURNS];
    ft_work w;
    kolo_ft_report r = {0, 0, 0, 0, 0};
    kolo_ft_report scratch = {0, 0, 0, 0, 0};
    int rc;
    if (!f || !out)
        return KOLO_E_ARG;
    rc = ft_setup(t, f, ws, ws_size, &w);
    if (rc != KOLO_OK)
        return rc;
    last = row >= 0 ? (unsigned)row : nodes - 1u;
    /* 1: default routes that avoid the faults */
    for (i = 0; i < nodes; i++) {
        uint16_t s = kolo_node_id_of_index(t, i);
        int counted = row < 0 || (unsigned)row == i;
        for (j = 0; j < nodes; j++) {
            uint16_t d = kolo_node_id_of_index(t, j);
            kolo_route_entry e = 0;
            if (i == j) {
                e = f->node_down[i] ? 0 : KOLO_RE_VALID;
            } else if (ft_live_pair(f, i, j)) {
                kolo_route_entry def = kolo_route_default(t, s, d);
                if (counted)
                    r.pairs++;
                if (ft_walk(t, &w, i, j, def, tn, tb, &n) >= 0) {
                    unsigned k;
                    for (k = 0; k < n; k++)
                        w.turns[tn[k]] |= tb[k];
                    e = def;
                    if (counted)
                        r.default_routes++;
                }
            }
            if (row < 0)
                out[(size_t)i * nodes + j] = e;
            else if ((unsigned)row == i)
                out[j] = e;
        }
    }
    /* 2: detours, in pair order, up to the last row wanted */
    for (i = 0; i <= last; i++) {
        uint16_t s = kolo_node_id_of_index(t, i);
        int counted = row < 0 || (unsigned)row == i;
        for (j = 0; j < nodes; j++) {
            uint16_t d = kolo_node_id_of_index(t, j);
            kolo_route_entry e;
            if (i == j || !ft_live_pair(f, i, j))
                continue;
            if (ft_walk(t, &w, i, j, kolo_route_default(t, s, d), tn, tb, &n) >= 0)
                continue;
            e = ft_detour(t, f, &w, s, d, counted ? &r : &scratch);
            if (counted) {
                if (e)
                    r.detoured++;
                else
                    r.unreachable++;
            }
            if (row < 0)
                out[(size_t)i * nodes + j] = e;
            else if ((unsigned)row == i)
                out[j] = e;
        }
    }
    if (rep)
        *rep = r;
    return KOLO_OK;
}

int kolo_table_faults(const kolo_topo *t, const kolo_faults *f, uint16_t src, kolo_route_entry *table,
                      void *ws, size_t ws_size, kolo_ft_report *rep) {
    if (!kolo_topo_valid(t) || !kolo_node_in_topo(t, src))
        return KOLO_E_ARG;
    return ft_run(t, f, (int)kolo_node_index(t, src), table, ws, ws_size, rep);
}

int kolo_tableset_faults(const kolo_topo *t, const kolo_faults *f, kolo_route_entry *tables, void *ws,
                         size_t ws_size, kolo_ft_report *rep) {
    if (!kolo_topo_valid(t))
        return KOLO_E_ARG;
    return ft_run(t, f, -1, tables, ws, ws_size, rep);
}

size_t kolo_conn_workspace_size(const kolo_topo *t) {
    unsigned n = kolo_topo_nodes(t);
    return n ? kolo_ft_workspace_size(t) + 8u + (size_t)n * 2u * sizeof(uint16_t) : 0;
}

int kolo_connectivity_check(const kolo_topo *t, const kolo_faults *f, const kolo_route_entry *tables,
                            void *ws, size_t ws_size, kolo_conn_report *rep) {
    unsigned nodes = kolo_topo_nodes(t), i, j, ncomp = 0;
    uint16_t *comp, *queue;
    uintptr_t base;
    kolo_conn_report r = {0, 0, 0, 0, 0};
    int first_rc = KOLO_OK;
    ft_work w;
    size_t ft_size;
    if (rep)
        *rep = r;
    if (nodes == 0 || !f || !tables || !ws)
        return KOLO_E_ARG;
    if (ws_size < kolo_conn_workspace_size(t))
        return KOLO_E_NOSPACE;
    ft_size = kolo_ft_workspace_size(t);
    if (ft_setup(t, f, ws, ft_size, &w) != KOLO_OK)
        return KOLO_E_ARG;
    base = ((uintptr_t)ws + ft_size + 7u) & ~(uintptr_t)7u;
    comp = (uint16_t *)base;
    queue = comp + nodes;
    for (i = 0; i < nodes; i++)
        comp[i] = 0xffffu;
    /* components of the usable-link graph (labels in index order: deterministic) */
    for (i = 0; i < nodes; i++) {
        unsigned head = 0, tail = 0;
        if (f->node_down[i] || comp[i] != 0xffffu)
            continue;
        comp[i] = (uint16_t)ncomp;
        queue[tail++] = (uint16_t)i;
        while (head < tail) {
            unsigned u = queue[head++];
            int p;
            for (p = 0; p < 6; p++) {
                unsigned v;
                if (!kolo_faults_link_usable(f, t, u, p))
                    continue;
                v = kolo_node_index(t, kolo_neighbor(t, kolo_node_id_of_index(t, u), p));
                if (comp[v] == 0xffffu) {
                    comp[v] = (uint16_t)ncomp;
                    queue[tail++] = (uint16_t)v;
                }
            }
        }
        ncomp++;
    }
    for (i = 0; i < nodes; i++) {
        uint16_t s = kolo_node_id_of_index(t, i);
        for (j = 0; j < nodes; j++) {
            kolo_route_entry e = tables[(size_t)i * nodes + j];
            int rc = KOLO_OK, live = ft_live_pair(f, i, j);
            unsigned tn[FT_MAX_TURNS], n;
            uint64_t tb[FT_MAX_TURNS];
            if (!live) {
                if (e & KOLO_RE_VALID)
                    rc = KOLO_E_FAULT;
            } else if (i == j) {
                if (!(e & KOLO_RE_VALID))
                    rc = KOLO_E_UNROUTED;
            } else {
                int connected = comp[i] == comp[j];
                if (connected)
                    r.pairs_connected++;
                if (e & KOLO_RE_VALID) {
                    r.pairs_routed++;
                    rc = kolo_route_path_to(t, s, kolo_node_id_of_index(t, j), e, 0, 0);
                    if (rc >= 0)
                        rc = ft_walk(t, &w, i, j, e & KOLO_RS_MASK, tn, tb, &n) >= 0
                                 ? KOLO_OK
                                 : KOLO_E_FAULT;
                } else if (connected) {
                    rc = KOLO_E_UNROUTED;
                }
            }
            if (rc != KOLO_OK) {
                if (r.bad_entries++ == 0) {
                    r.src = s;
                    r.dst = kolo_node_id_of_index(t, j);
                    first_rc = rc;
                }
            }
        }
    }
    if (rep)
        *rep = r;
    return first_rc;
}
