/* kolo_cert.c - the checker of deadlock certificates (kolo_route.h).
 *
 * Small and separate from the deadlock check that writes certificates
 * (kolo_deadlock_check_cert in kolo_route.c, which contracts rings, follows
 * paths segment by segment and searches the ring graph): this file walks
 * every valid entry's deterministic path one hop at a time with the routing
 * function itself (kolo_route_det_port, kolo_route_advance, kolo_neighbor)
 * and checks each dependency between consecutive hops against the
 * certificate: a move to another ring must go up in rank, a move that stays
 * in its ring must be in a named bubble ring. No search, no graph: if every
 * dependency passes, the ranks are a topological order of the ring
 * dependencies, so only the bubble rings can hold cyclic dependencies.
 * Freestanding C99 like the rest of sw/route.
 */
#include "kolo_route.h"

static int fail(kolo_cert_report *rep, uint16_t src, uint16_t dst, unsigned from, unsigned to) {
    if (rep) {
        rep->src = src;
        rep->dst = dst;
        rep->from = (uint16_t)from;
        rep->to = (uint16_t)to;
    }
    return KOLO_E_CERT;
}

/* 1 if slot is a ring of topology t: its direction's dimension has more than
 * one node and its other two coordinates are inside the torus */
static int slot_in_topo(const kolo_topo *t, unsigned slot) {
    unsigned port = slot / 256u, a = (slot >> 4) & 0xfu, b = slot & 0xfu;
    unsigned d = port >> 1, da = d == 0 ? 1u : 0u, db = d == 2 ? 1u : 2u;
    return t->size[d] > 1 && a < t->size[da] && b < t->size[db];
}

int kolo_deadlock_cert_check(const kolo_topo *t, const kolo_route_entry *tables,
                             const kolo_deadlock_cert *cert, kolo_cert_report *rep) {
    uint8_t seen[KOLO_RING_SLOTS / 8];
    unsigned nodes = kolo_topo_nodes(t), slot, n_rings = 0, n_bubble = 0, i, j;
    kolo_cert_report r = {0, 0, 0, 0, 0, 0, 0, 0};
    if (rep)
        *rep = r;
    if (nodes == 0 || !tables || !cert)
        return KOLO_E_ARG;
    for (i = 0; i < 3; i++)
        if (cert->topo.size[i] != t->size[i])
            return fail(rep, 0, 0, KOLO_RING_SLOTS, KOLO_RING_SLOTS);
    /* the ranks: a permutation of 0 .. n_rings-1 over exactly the rings of t */
    for (i = 0; i < sizeof seen; i++)
        seen[i] = 0;
    for (slot = 0; slot < KOLO_RING_SLOTS; slot++) {
        unsigned k = cert->rank[slot];
        if (!slot_in_topo(t, slot)) {
            if (k != KOLO_RANK_NONE || cert->bubble[slot])
                return fail(rep, 0, 0, slot, slot);
            continue;
        }
        n_rings++;
        if (k >= KOLO_RING_SLOTS || (seen[k / 8] >> (k % 8)) & 1u)
            return fail(rep, 0, 0, slot, slot);
        seen[k / 8] = (uint8_t)(seen[k / 8] | 1u << (k % 8));
        n_bubble += cert->bubble[slot] != 0;
    }
    if (n_rings != cert->n_rings || n_bubble != cert->n_bubble)
        return fail(rep, 0, 0, KOLO_RING_SLOTS, KOLO_RING_SLOTS);
    for (slot = 0; slot < KOLO_RING_SLOTS; slot++)
        if (cert->rank[slot] != KOLO_RANK_NONE && cert->rank[slot] >= n_rings)
            return fail(rep, 0, 0, slot, slot);

    /* every dependency of every valid entry's path */
    for (i = 0; i < nodes; i++) {
        uint16_t src = kolo_node_id_of_index(t, i);
        for (j = 0; j < nodes; j++) {
            kolo_route_entry e = tables[(size_t)i * nodes + j];
            uint16_t dst = kolo_node_id_of_index(t, j), node = src;
            uint32_t rs = e & KOLO_RS_MASK;
            unsigned prev = KOLO_RING_SLOTS, h, d;
            int prev_port = -1, port = -1;
            if (!(e & KOLO_RE_VALID))
                continue;
            /* the router drops a hop count that goes round its ring */
            for (d = 0; d < 3; d++)
                if (t->size[d] > 1 && kolo_rs_hops(rs, (int)d) >= t->size[d]) {
                    if (rep)
                        rep->src = src, rep->dst = dst;
                    return KOLO_E_ARG;
                }
            for (h = 0; h < KOLO_PATH_MAX; h++) {
                port = kolo_route_det_port(rs);
                if (port == KOLO_PORT_LOCAL)
                    break;
                if (!kolo_port_present(t, port)) {
                    if (rep)
                        rep->src = src, rep->dst = dst;
                    return KOLO_E_PORT;
                }
                slot = kolo_ring_slot_of(node, port);
                if (prev_port == port) {
                    r.continuing++;
                    if (!cert->bubble[slot])
                        return fail(rep, src, dst, slot, slot);
                } else if (prev_port >= 0) {
                    r.turns++;
                    if (cert->rank[prev] >= cert->rank[slot])
                        return fail(rep, src, dst, prev, slot);
                }
                r.hops++;
                prev = slot;
                prev_port = port;
                rs = kolo_route_advance(rs, port);
                node = kolo_neighbor(t, node, port);
            }
            /* a pending step through "port 6" is malformed, not an ejection */
            if (port != KOLO_PORT_LOCAL || (rs & (KOLO_RS_FS_VALID | KOLO_RS_LS_VALID)) ||
                node != dst) {
                if (rep)
                    rep->src = src, rep->dst = dst;
                return port != KOLO_PORT_LOCAL ? KOLO_E_LOOP
                       : node != dst           ? KOLO_E_WRONG
                                               : KOLO_E_PORT;
            }
            r.paths++;
        }
    }
    if (rep) {
        r.src = r.dst = 0;
        r.from = r.to = 0;
        *rep = r;
    }
    return KOLO_OK;
}
