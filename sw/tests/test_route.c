/* test_route.c - unit tests of sw/route: coordinates, neighbours, route state,
 * default tables, paths, and adaptive walks against the deterministic path.
 * Expectations are computed independently here (walking rings one step at a
 * time), not with the library's own arithmetic. */
#include "kolo_route.h"
#include "test_util.h"

static const kolo_topo topos[] = {
    {{4, 4, 4}}, {{3, 3, 3}}, {{5, 1, 1}},  {{2, 2, 2}}, {{1, 1, 8}}, {{2, 3, 5}},
    {{6, 2, 1}}, {{1, 1, 1}}, {{16, 1, 1}}, {{4, 4, 1}}, {{1, 7, 2}},
};
#define NTOPOS ((int)(sizeof topos / sizeof topos[0]))

static uint16_t mk(unsigned x, unsigned y, unsigned z) {
    kolo_coord c;
    c.c[0] = (uint8_t)x;
    c.c[1] = (uint8_t)y;
    c.c[2] = (uint8_t)z;
    return kolo_node_id(c);
}

static void test_ids(void) {
    unsigned id, i;
    int k;
    for (id = 0; id < 4096; id++) {
        kolo_coord c = kolo_node_coord((uint16_t)id);
        CHECK_EQ(kolo_node_id(c), id, "id round trip");
        CHECK_EQ(c.c[0], id & 15, "x of %#x", id);
        CHECK_EQ(c.c[2], id >> 8, "z of %#x", id);
    }
    for (k = 0; k < NTOPOS; k++) {
        const kolo_topo *t = &topos[k];
        unsigned n = kolo_topo_nodes(t);
        unsigned count = 0;
        CHECK(kolo_topo_valid(t), "topo %d", k);
        CHECK_EQ(n, t->size[0] * t->size[1] * t->size[2], "nodes");
        for (i = 0; i < n; i++) {
            uint16_t nid = kolo_node_id_of_index(t, i);
            CHECK(kolo_node_in_topo(t, nid), "index %u -> %#x in topo", i, nid);
            CHECK_EQ(kolo_node_index(t, nid), i, "index round trip, topo %d", k);
        }
        for (id = 0; id < 4096; id++)
            count += (unsigned)kolo_node_in_topo(t, (uint16_t)id);
        CHECK_EQ(count, n, "nodes in topo %d", k);
    }
    {
        kolo_topo bad = {{0, 4, 4}}, big = {{17, 1, 1}};
        kolo_topo t = {{4, 4, 4}};
        CHECK(!kolo_topo_valid(&bad), "size 0");
        CHECK(!kolo_topo_valid(&big), "size 17");
        CHECK(!kolo_topo_valid(NULL), "NULL");
        CHECK_EQ(kolo_topo_nodes(&bad), 0, "invalid topo has no nodes");
        CHECK(!kolo_node_in_topo(&t, 0x1000), "id above 12 bits");
        CHECK(!kolo_node_in_topo(&t, mk(4, 0, 0)), "x = size");
        CHECK(kolo_node_in_topo(&t, mk(3, 3, 3)), "corner");
        CHECK_EQ(kolo_node_index(&t, mk(1, 2, 3)), 1 + 4 * (2 + 4 * 3), "index formula");
    }
}

static void test_neighbors(void) {
    int k, p;
    unsigned i;
    for (k = 0; k < NTOPOS; k++) {
        const kolo_topo *t = &topos[k];
        unsigned n = kolo_topo_nodes(t);
        for (p = 0; p < 6; p++)
            CHECK_EQ(kolo_port_present(t, p), t->size[p >> 1] > 1, "port %d topo %d", p, k);
        CHECK(!kolo_port_present(t, KOLO_PORT_LOCAL), "local is no network port");
        CHECK(!kolo_port_present(t, 7), "port 7");
        for (i = 0; i < n; i++) {
            uint16_t id = kolo_node_id_of_index(t, i);
            kolo_coord c = kolo_node_coord(id);
            CHECK_EQ(kolo_neighbor(t, id, KOLO_PORT_LOCAL), id, "local stays");
            for (p = 0; p < 6; p++) {
                int d = p >> 1;
                uint16_t nb = kolo_neighbor(t, id, p);
                kolo_coord e = kolo_node_coord(nb);
                unsigned want = (p & 1) ? (c.c[d] == 0 ? t->size[d] - 1u : c.c[d] - 1u)
                                        : (c.c[d] + 1u == t->size[d] ? 0u : c.c[d] + 1u);
                CHECK_EQ(e.c[d], want, "neighbour %#x port %d topo %d", id, p, k);
                CHECK_EQ(e.c[(d + 1) % 3], c.c[(d + 1) % 3], "other coordinate kept");
                CHECK_EQ(e.c[(d + 2) % 3], c.c[(d + 2) % 3], "other coordinate kept");
                CHECK(kolo_node_in_topo(t, nb), "neighbour inside");
                CHECK_EQ(kolo_neighbor(t, nb, p ^ 1), id, "opposite port goes back");
                if (t->size[d] == 1)
                    CHECK_EQ(nb, id, "size 1: own neighbour");
                if (t->size[d] == 2)
                    CHECK_EQ(nb, kolo_neighbor(t, id, p ^ 1), "size 2: both links, one node");
            }
        }
    }
}

static void test_route_state(void) {
    uint32_t rs;
    /* det port order +X +Y +Z -X -Y -Z, then last step, then local */
    rs = kolo_rs_set_hops(0, 0, 2) | KOLO_RS_SIGN(0);
    rs = kolo_rs_set_hops(rs, 1, 1);
    rs = kolo_rs_set_hops(rs, 2, 3) | KOLO_RS_SIGN(2);
    CHECK_EQ(kolo_route_det_port(rs), KOLO_PORT_YP, "+Y before -X");
    CHECK_EQ(kolo_route_adaptive_mask(rs),
             (1u << KOLO_PORT_XM) | (1u << KOLO_PORT_YP) | (1u << KOLO_PORT_ZM), "mask");
    rs = kolo_route_advance(rs, KOLO_PORT_YP);
    CHECK_EQ(kolo_rs_hops(rs, 1), 0, "Y consumed");
    CHECK_EQ(kolo_route_det_port(rs), KOLO_PORT_XM, "-X before -Z");
    rs = kolo_route_advance(rs, KOLO_PORT_ZM);
    CHECK_EQ(kolo_rs_hops(rs, 2), 2, "adaptive Z- consumed one");
    CHECK_EQ(kolo_route_advance(rs, KOLO_PORT_ZP), rs, "wrong direction changes nothing");
    CHECK_EQ(kolo_route_advance(rs, KOLO_PORT_YP), rs, "no hops left in Y");
    CHECK_EQ(kolo_route_advance(rs, KOLO_PORT_LOCAL), rs, "local changes nothing");
    CHECK_EQ(kolo_route_det_port(0), KOLO_PORT_LOCAL, "nothing left: eject");
    CHECK_EQ(kolo_route_adaptive_mask(0), 0, "nothing left: no adaptive move");

    /* first step wins over everything and blocks adaptivity */
    rs = kolo_rs_set_hops(0, 0, 1) | KOLO_RS_FS_VALID | (KOLO_PORT_ZM << KOLO_RS_FS_PORT_SHIFT) |
         KOLO_RS_LS_VALID | (KOLO_PORT_YP << KOLO_RS_LS_PORT_SHIFT);
    CHECK_EQ(kolo_route_det_port(rs), KOLO_PORT_ZM, "first step");
    CHECK_EQ(kolo_route_adaptive_mask(rs), 0, "no adaptive move with a first step pending");
    /* the first step is taken whatever port the packet leaves by */
    CHECK_EQ(kolo_route_advance(rs, KOLO_PORT_XP), rs & ~KOLO_RS_FS_VALID, "FS cleared");
    rs &= ~KOLO_RS_FS_VALID;
    CHECK_EQ(kolo_route_det_port(rs), KOLO_PORT_XP, "then hops");
    CHECK_EQ(kolo_route_adaptive_mask(rs), 1u << KOLO_PORT_XP, "mask after FS");
    rs = kolo_route_advance(rs, KOLO_PORT_XP);
    CHECK_EQ(kolo_route_det_port(rs), KOLO_PORT_YP, "then last step");
    CHECK_EQ(kolo_route_adaptive_mask(rs), 0, "no adaptive last step");
    /* the last step is cleared when leaving by a port without hops left */
    rs = kolo_route_advance(rs, KOLO_PORT_YP);
    CHECK_EQ(rs & KOLO_RS_LS_VALID, 0, "LS cleared");
    CHECK_EQ(kolo_route_det_port(rs), KOLO_PORT_LOCAL, "then eject");
    CHECK_EQ(kolo_rs_fs_port(rs), KOLO_PORT_ZM, "port fields stay");
    CHECK_EQ(kolo_rs_ls_port(rs), KOLO_PORT_YP, "port fields stay");
    CHECK(kolo_route_strerror(KOLO_E_CYCLE)[0] != 0, "strerror");
    CHECK(kolo_route_strerror(12345)[0] != 0, "strerror of unknown code");
}

/* Distance walked from a to b going plus (independent of the library). */
static unsigned walk_plus(unsigned a, unsigned b, unsigned n) {
    unsigned k = 0;
    while (a != b) {
        a = a + 1 == n ? 0 : a + 1;
        k++;
    }
    return k;
}

/* The tie rule of docs/routing.md "Distance ties", written out here: odd
 * parity of the other coordinates of both ends (and of the start's own one in
 * a ring longer than 2) goes minus. */
static int expect_tie_minus(const kolo_topo *t, int d, kolo_coord a, kolo_coord b) {
    unsigned odd = 0;
    int k;
    for (k = 0; k < 3; k++)
        if (k != d)
            odd ^= (a.c[k] ^ b.c[k]) & 1u;
    if (t->size[d] > 2)
        odd ^= a.c[d] & 1u;
    return (int)odd;
}

static void check_default_pair(const kolo_topo *t, uint16_t src, uint16_t dst) {
    kolo_route_entry e = kolo_route_default(t, src, dst);
    kolo_coord s = kolo_node_coord(src), c = kolo_node_coord(dst);
    kolo_hop hops[KOLO_PATH_MAX];
    unsigned total = 0;
    int d, n, i;
    CHECK(e & KOLO_RE_VALID, "valid");
    CHECK_EQ(e & ~(KOLO_RE_VALID | 0x7fffu), 0, "no first/last step in default entries");
    for (d = 0; d < 3; d++) {
        unsigned plus = walk_plus(s.c[d], c.c[d], t->size[d]);
        unsigned minus = plus ? t->size[d] - plus : 0;
        unsigned h = kolo_rs_hops(e, d);
        int m = kolo_rs_minus(e, d);
        unsigned best = plus < minus ? plus : minus;
        CHECK_EQ(h, best, "hops dim %d %#x->%#x in %ux%ux%u", d, src, dst, t->size[0], t->size[1],
                 t->size[2]);
        if (h)
            CHECK_EQ(m ? minus : plus, h, "direction dim %d %#x->%#x", d, src, dst);
        else
            CHECK_EQ(m, 0, "no sign without hops");
        if (plus && plus == minus)
            CHECK_EQ(m, expect_tie_minus(t, d, s, c), "tie direction, dim %d %#x->%#x", d, src,
                     dst);
        total += h;
    }
    n = kolo_route_path(t, src, e, hops, KOLO_PATH_MAX);
    CHECK_EQ(n, (int)total + 1, "path length %#x->%#x", src, dst);
    if (n <= 0)
        return;
    CHECK_EQ(hops[n - 1].node, dst, "ejects at dst");
    CHECK_EQ(hops[n - 1].port, KOLO_PORT_LOCAL, "last hop is the ejection");
    CHECK_EQ(hops[0].node, src, "starts at src");
    CHECK_EQ(kolo_route_path(t, src, e, NULL, 0), n, "counting without hops");
    CHECK_EQ(kolo_route_path_to(t, src, dst, e, NULL, 0), n, "path_to");
    for (i = 0; i + 1 < n; i++) {
        CHECK(kolo_port_present(t, hops[i].port), "network hop through a present port");
        CHECK_EQ(hops[i + 1].node, kolo_neighbor(t, hops[i].node, hops[i].port), "hops chain");
        CHECK_EQ(hops[i].entering, i == 0 || hops[i].port != hops[i - 1].port, "entering flag");
        /* direction order: port classes never go back */
        if (i > 0) {
            int prev = hops[i - 1].port, cur = hops[i].port;
            int rank_prev = (prev & 1) * 3 + (prev >> 1), rank_cur = (cur & 1) * 3 + (cur >> 1);
            CHECK(rank_cur >= rank_prev, "direction order %d then %d", prev, cur);
        }
    }
}

static void test_default_tables(void) {
    static kolo_route_entry table[KOLO_MAX_NODES];
    int k;
    unsigned i, j;
    for (k = 0; k < NTOPOS; k++) {
        const kolo_topo *t = &topos[k];
        unsigned n = kolo_topo_nodes(t);
        for (i = 0; i < n; i++) {
            uint16_t src = kolo_node_id_of_index(t, i);
            kolo_table_default(t, src, table);
            for (j = 0; j < n; j++) {
                uint16_t dst = kolo_node_id_of_index(t, j);
                CHECK_EQ(table[j], kolo_route_default(t, src, dst), "table entry");
                check_default_pair(t, src, dst);
            }
            CHECK_EQ(table[i], KOLO_RE_VALID, "self entry: valid, no hops");
        }
    }
    {
        /* hand-picked values in an even and an odd ring */
        kolo_topo t = {{4, 5, 1}};
        kolo_route_entry e = kolo_route_default(&t, mk(0, 0, 0), mk(2, 3, 0));
        CHECK_EQ(kolo_rs_hops(e, 0), 2, "x tie distance");
        CHECK_EQ(kolo_rs_minus(e, 0), 1, "x tie: y 0 + 3 odd goes minus");
        CHECK_EQ(kolo_rs_hops(e, 1), 2, "y 3 plus = 2 minus");
        CHECK_EQ(kolo_rs_minus(e, 1), 1, "y minus");
        e = kolo_route_default(&t, mk(3, 0, 0), mk(1, 0, 0));
        CHECK_EQ(kolo_rs_minus(e, 0), 1, "tie from x 3 (odd, ring of 4) to 1 goes minus");
        e = kolo_route_default(&t, mk(2, 1, 0), mk(0, 1, 0));
        CHECK_EQ(kolo_rs_minus(e, 0), 0, "tie from x 2 (even), y 1 + 1 goes plus (wraps)");
        e = kolo_route_default(&t, mk(1, 1, 0), mk(3, 0, 0));
        CHECK_EQ(kolo_rs_hops(e, 0), 2, "tie from x 1 to 3");
        CHECK_EQ(kolo_rs_minus(e, 0), 0, "x 1 + y 1 + y 0 even goes plus");
        CHECK_EQ(kolo_route_default(&t, mk(4, 0, 0), 0), 0, "src outside: invalid entry");
        CHECK_EQ(kolo_route_default(&t, 0, mk(0, 0, 1)), 0, "dst outside: invalid entry");
    }
    {
        /* 16x16x16: all pairs is 16M; spot checks */
        kolo_topo t = {{16, 16, 16}};
        for (i = 0; i < 20000; i++)
            check_default_pair(&t, (uint16_t)test_rand(4096), (uint16_t)test_rand(4096));
        check_default_pair(&t, mk(0, 0, 0), mk(8, 8, 8));
        check_default_pair(&t, mk(15, 15, 15), mk(7, 7, 7));
        check_default_pair(&t, mk(0, 0, 0), mk(9, 7, 15));
    }
}

/* Uniform traffic (every ordered pair once) over the default tables: walk
 * each deterministic path a step at a time (as the router forwards: plus
 * dimensions x, y, z, then minus ones) and count the packets on every
 * channel (node, port) and the tied routes per ring direction. Ties split
 * half and half, so every channel of these tori carries the same load; with
 * all ties going plus (the old rule) the plus channels carry 3x the minus
 * ones in a 4-ring. max_spread: allowed max - min of the channel loads. */
static void check_balance(kolo_topo t, unsigned max_spread) {
    static uint32_t load[KOLO_MAX_NODES][6];
    unsigned n = kolo_topo_nodes(&t), i, j, lo = ~0u, hi = 0, ties[3][2] = {{0}};
    int d, p;
    for (i = 0; i < n; i++)
        for (p = 0; p < 6; p++)
            load[i][p] = 0;
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) {
            uint16_t src = kolo_node_id_of_index(&t, i), dst = kolo_node_id_of_index(&t, j);
            kolo_route_entry e = kolo_route_default(&t, src, dst);
            kolo_coord cur = kolo_node_coord(src), c = kolo_node_coord(dst);
            int sign;
            for (d = 0; d < 3; d++)
                if (t.size[d] % 2 == 0 && walk_plus(cur.c[d], c.c[d], t.size[d]) == t.size[d] / 2u)
                    ties[d][kolo_rs_minus(e, d)]++;
            for (sign = 0; sign < 2; sign++) {
                for (d = 0; d < 3; d++) {
                    unsigned h, sz = t.size[d];
                    if (kolo_rs_minus(e, d) != sign)
                        continue;
                    for (h = 0; h < kolo_rs_hops(e, d); h++) {
                        load[kolo_node_index(&t, kolo_node_id(cur))][2 * d + sign]++;
                        cur.c[d] =
                            (uint8_t)(sign ? (cur.c[d] + sz - 1u) % sz : (cur.c[d] + 1u) % sz);
                    }
                }
            }
            CHECK_EQ(kolo_node_id(cur), dst, "walk ends at dst");
        }
    }
    for (i = 0; i < n; i++)
        for (p = 0; p < 6; p++) {
            if (!kolo_port_present(&t, p))
                continue;
            lo = load[i][p] < lo ? load[i][p] : lo;
            hi = load[i][p] > hi ? load[i][p] : hi;
        }
    for (d = 0; d < 3; d++)
        CHECK_EQ(ties[d][0], ties[d][1], "%ux%ux%u: tied routes plus and minus in dim %d",
                 t.size[0], t.size[1], t.size[2], d);
    CHECK(hi - lo <= max_spread, "%ux%ux%u: channel loads %u..%u (spread allowed %u)", t.size[0],
          t.size[1], t.size[2], lo, hi, max_spread);
}

static void test_tie_balance(void) {
    static const kolo_topo even[] = {{{4, 4, 4}}, {{8, 1, 1}}, {{2, 2, 2}}, {{4, 4, 1}},
                                     {{1, 1, 8}}, {{8, 8, 8}}, {{2, 2, 1}}};
    kolo_topo t6 = {{6, 1, 1}}, t666 = {{6, 6, 6}};
    int k;
    for (k = 0; k < (int)(sizeof even / sizeof even[0]); k++)
        check_balance(even[k], 0);
    /* rings of 6: a channel of a lone ring carries the ties of 3 sources, so
     * the best split is 2 and 1 (loads 5 and 4; all plus: 6 and 3); 6x6x6:
     * loads 157..173 (all plus: 108..216, ideal 162) */
    check_balance(t6, 1);
    check_balance(t666, 16);
}

static void test_path_errors(void) {
    kolo_topo t = {{4, 4, 1}};
    kolo_hop hops[KOLO_PATH_MAX];
    uint32_t rs;
    rs = kolo_rs_set_hops(0, 2, 1);
    CHECK_EQ(kolo_route_path(&t, 0, rs, hops, KOLO_PATH_MAX), KOLO_E_PORT, "Z in a flat torus");
    rs = KOLO_RS_FS_VALID | (KOLO_PORT_ZP << KOLO_RS_FS_PORT_SHIFT);
    CHECK_EQ(kolo_route_path(&t, 0, rs, hops, KOLO_PATH_MAX), KOLO_E_PORT, "first step in Z");
    rs = KOLO_RS_FS_VALID | (KOLO_PORT_LOCAL << KOLO_RS_FS_PORT_SHIFT);
    CHECK_EQ(kolo_route_path(&t, 0, rs, hops, KOLO_PATH_MAX), KOLO_E_PORT, "first step local");
    rs = KOLO_RS_LS_VALID | (7u << KOLO_RS_LS_PORT_SHIFT);
    CHECK_EQ(kolo_route_path(&t, 0, rs, hops, KOLO_PATH_MAX), KOLO_E_PORT, "last step port 7");
    rs = kolo_rs_set_hops(0, 0, 4);
    CHECK_EQ(kolo_route_path(&t, 0, rs, hops, KOLO_PATH_MAX), KOLO_E_ARG, "hops = ring size");
    rs = kolo_rs_set_hops(0, 0, 3);
    CHECK_EQ(kolo_route_path(&t, 0, rs, hops, 3), KOLO_E_NOSPACE, "4 hops in 3 slots");
    CHECK_EQ(kolo_route_path(&t, 0, rs, hops, 4), 4, "4 hops in 4 slots");
    CHECK_EQ(kolo_route_path(&t, mk(0, 4, 0), rs, hops, 4), KOLO_E_ARG, "src outside");
    CHECK_EQ(kolo_route_path_to(&t, 0, mk(3, 0, 0), rs, hops, 4), 4, "path_to right dst");
    CHECK_EQ(kolo_route_path_to(&t, 0, mk(2, 0, 0), rs, hops, 4), KOLO_E_WRONG, "wrong dst");
    /* route state bits above 22 (the table's valid bit) are ignored */
    CHECK_EQ(kolo_route_path(&t, 0, rs | KOLO_RE_VALID, hops, 4), 4, "valid bit ignored");
    /* first and last steps: a detour around the node (1,0) */
    rs = KOLO_RS_FS_VALID | (KOLO_PORT_YP << KOLO_RS_FS_PORT_SHIFT) | kolo_rs_set_hops(0, 0, 2) |
         KOLO_RS_LS_VALID | (KOLO_PORT_YM << KOLO_RS_LS_PORT_SHIFT);
    CHECK_EQ(kolo_route_path_to(&t, 0, mk(2, 0, 0), rs, hops, KOLO_PATH_MAX), 5, "detour");
    CHECK_EQ(hops[1].node, mk(0, 1, 0), "detour via (0,1)");
    CHECK_EQ(hops[1].entering, 1, "turn into X+ is entering");
    CHECK_EQ(hops[2].entering, 0, "continuing in X+");
    CHECK_EQ(hops[3].port, KOLO_PORT_YM, "last step");
    CHECK_EQ(hops[3].entering, 1, "last step enters Y-");
}

/* Random valid route state for src: a default entry towards some node,
 * possibly with a first step before and a last step after; returns the
 * destination it reaches, or -1 if that combination is not usable. */
static int random_route(const kolo_topo *t, uint16_t src, uint32_t *rs_out) {
    uint16_t start = src, dst;
    uint32_t rs;
    int fs = -1, ls = -1;
    if (test_rand(3) == 0) {
        fs = (int)test_rand(6);
        if (!kolo_port_present(t, fs))
            return -1;
        start = kolo_neighbor(t, src, fs);
    }
    dst = kolo_node_id_of_index(t, test_rand(kolo_topo_nodes(t)));
    rs = kolo_route_default(t, start, dst) & KOLO_RS_MASK;
    if (test_rand(3) == 0) {
        ls = (int)test_rand(6);
        if (!kolo_port_present(t, ls))
            return -1;
        dst = kolo_neighbor(t, dst, ls);
        rs |= KOLO_RS_LS_VALID | ((uint32_t)ls << KOLO_RS_LS_PORT_SHIFT);
    }
    if (fs >= 0)
        rs |= KOLO_RS_FS_VALID | ((uint32_t)fs << KOLO_RS_FS_PORT_SHIFT);
    *rs_out = rs;
    return dst;
}

static void test_adaptive_walks(void) {
    static const kolo_topo walk_topos[] = {{{4, 4, 4}}, {{3, 5, 2}}, {{16, 16, 16}}, {{1, 8, 1}}};
    int k, w;
    for (k = 0; k < 4; k++) {
        const kolo_topo *t = &walk_topos[k];
        for (w = 0; w < 5000; w++) {
            uint16_t src = kolo_node_id_of_index(t, test_rand(kolo_topo_nodes(t)));
            uint32_t rs;
            int dst = random_route(t, src, &rs), n, steps = 0;
            uint16_t node = src;
            if (dst < 0)
                continue;
            n = kolo_route_path_to(t, src, (uint16_t)dst, rs, NULL, 0);
            CHECK(n > 0, "random route %#x rs %#x: %d", src, rs, n);
            for (;;) {
                unsigned mask = kolo_route_adaptive_mask(rs);
                int det = kolo_route_det_port(rs), port = det, choices = 0, p;
                uint32_t next;
                if (mask) {
                    /* the deterministic port is always one of the adaptive ones */
                    CHECK((mask >> det) & 1u, "det port %d in mask %#x", det, mask);
                    for (p = 0; p < 6; p++)
                        if (((mask >> p) & 1u) && test_rand(++choices) == 0)
                            port = p;
                }
                if (port == KOLO_PORT_LOCAL)
                    break;
                CHECK(kolo_port_present(t, port), "walk uses a present port");
                next = kolo_route_advance(rs, port);
                CHECK(next != rs, "every move consumes something");
                rs = next;
                node = kolo_neighbor(t, node, port);
                if (++steps > KOLO_PATH_MAX)
                    break;
            }
            CHECK_EQ(steps + 1, n, "adaptive walk length, topo %d src %#x", k, src);
            CHECK_EQ(node, dst, "adaptive walk ends at the deterministic destination");
            CHECK_EQ(rs & ~0x7u & ~(7u << KOLO_RS_FS_PORT_SHIFT) & ~(7u << KOLO_RS_LS_PORT_SHIFT),
                     0, "route state consumed at ejection");
        }
    }
}

int main(int argc, char **argv) {
    test_seed(argc, argv, "test_route");
    test_ids();
    test_neighbors();
    test_route_state();
    test_default_tables();
    test_tie_balance();
    test_path_errors();
    test_adaptive_walks();
    return test_finish("test_route");
}
