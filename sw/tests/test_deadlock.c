/* test_deadlock.c - the deadlock check of sw/route and its certificates.
 *
 * Default table sets must pass; hand-built sets with a turn cycle, a ring
 * re-entered, an absent port or a wrong ejection must fail with the right code.
 * Random table sets with first/last-step detours are cross-checked against a
 * naive checker written here (ring adjacency matrix + Kahn's topological sort),
 * and every reported cycle must be a real cycle of that matrix.
 * Certificates: every set that passes gets one that the separate checker
 * (kolo_cert.c) accepts; a set with a cycle is refused with any certificate;
 * planted bad certificates (ranks swapped across a turn, a bubble ring not
 * named, a duplicate rank, a rank outside the topology, the wrong topology)
 * are refused; fault table sets (kolo_tableset_faults) are certified. */
#include "kolo_route.h"
#include "test_util.h"

static uint16_t mk(unsigned x, unsigned y, unsigned z) {
    kolo_coord c;
    c.c[0] = (uint8_t)x;
    c.c[1] = (uint8_t)y;
    c.c[2] = (uint8_t)z;
    return kolo_node_id(c);
}

static kolo_route_entry *tables_alloc(const kolo_topo *t) {
    unsigned n = kolo_topo_nodes(t);
    kolo_route_entry *tab = malloc((size_t)n * n * sizeof *tab);
    kolo_tableset_default(t, tab);
    return tab;
}

static kolo_route_entry *entry(const kolo_topo *t, kolo_route_entry *tab, uint16_t src,
                               uint16_t dst) {
    return &tab[(size_t)kolo_node_index(t, src) * kolo_topo_nodes(t) + kolo_node_index(t, dst)];
}

static int run_check(const kolo_topo *t, const kolo_route_entry *tab, kolo_deadlock_report *rep) {
    size_t size = kolo_deadlock_workspace_size(t);
    unsigned char *ws = malloc(size + 3);
    int rc;
    CHECK(size > 0, "workspace size");
    /* deliberately misaligned: the check must align for itself */
    rc = kolo_deadlock_check(t, tab, ws + 3, size, rep);
    free(ws);
    return rc;
}

/* the certificate of a passing set, verified by the separate checker */
static int certify(const kolo_topo *t, const kolo_route_entry *tab, kolo_deadlock_cert *cert,
                   kolo_cert_report *crep) {
    size_t size = kolo_deadlock_workspace_size(t);
    unsigned char *ws = malloc(size);
    kolo_deadlock_report rep;
    int rc = kolo_deadlock_check_cert(t, tab, ws, size, &rep, cert);
    free(ws);
    if (rc != KOLO_OK)
        return rc;
    return kolo_deadlock_cert_check(t, tab, cert, crep);
}

static unsigned expected_rings(const kolo_topo *t) {
    unsigned n = kolo_topo_nodes(t), r = 0;
    int d;
    for (d = 0; d < 3; d++)
        if (t->size[d] > 1)
            r += 2 * n / t->size[d];
    return r;
}

static void test_defaults_pass(void) {
    static const kolo_topo ok[] = {{{2, 2, 2}}, {{3, 3, 3}},  {{4, 4, 4}}, {{8, 8, 8}}, {{4, 4, 1}},
                                   {{1, 1, 8}}, {{16, 1, 1}}, {{1, 1, 1}}, {{2, 5, 3}}};
    unsigned k;
    for (k = 0; k < sizeof ok / sizeof ok[0]; k++) {
        const kolo_topo *t = &ok[k];
        kolo_route_entry *tab = tables_alloc(t);
        kolo_deadlock_report rep;
        unsigned n = kolo_topo_nodes(t);
        int rc = run_check(t, tab, &rep);
        CHECK_EQ(rc, KOLO_OK, "default tables of %ux%ux%u", t->size[0], t->size[1], t->size[2]);
        CHECK_EQ(rep.paths, n * n, "every entry followed");
        CHECK_EQ(rep.graph_rings, expected_rings(t), "ring count");
        CHECK_EQ(rep.n_rings, 0, "no cycle reported");
        /* turns exist exactly when two dimensions are present */
        CHECK_EQ(rep.turns > 0, (t->size[0] > 1) + (t->size[1] > 1) + (t->size[2] > 1) >= 2,
                 "turns found in %ux%ux%u", t->size[0], t->size[1], t->size[2]);
        {
            static kolo_deadlock_cert cert;
            kolo_cert_report crep;
            int big = t->size[0] > 3 || t->size[1] > 3 || t->size[2] > 3;
            CHECK_EQ(certify(t, tab, &cert, &crep), KOLO_OK, "certificate of %ux%ux%u", t->size[0],
                     t->size[1], t->size[2]);
            CHECK_EQ(cert.n_rings, expected_rings(t), "certificate ranks every ring");
            CHECK_EQ(crep.paths, n * n, "checker walked every entry");
            /* shortest routes go two hops in a row in rings of 4 or more only */
            CHECK_EQ(cert.n_bubble > 0, big, "bubble rings of %ux%ux%u", t->size[0], t->size[1],
                     t->size[2]);
            printf("default %ux%ux%u: certificate of %u rings (%u bubble rings), %u paths, "
                   "%u hops, %u turns, %u continuing moves checked\n",
                   t->size[0], t->size[1], t->size[2], cert.n_rings, cert.n_bubble, crep.paths,
                   crep.hops, crep.turns, crep.continuing);
        }
        free(tab);
    }
}

/* ---- naive reference checker ------------------------------------------------- */
#define NAIVE_RINGS (6 * 256)

static unsigned naive_ring(uint16_t node, int port) {
    kolo_coord c = kolo_node_coord(node);
    int d = port >> 1;
    unsigned a = d == 0 ? c.c[1] : c.c[0];
    unsigned b = d == 2 ? c.c[1] : c.c[2];
    return (unsigned)port * 256u + a * 16u + b;
}

static unsigned naive_ring_of_report(const kolo_ring *r) {
    return (r->dim * 2u + r->minus) * 256u + r->a * 16u + r->b;
}

/* adjacency: adj[from * NAIVE_RINGS + to]; returns 1 if the ring graph has a cycle */
static int naive_has_cycle(const kolo_topo *t, const kolo_route_entry *tab, unsigned char *adj) {
    static unsigned indeg[NAIVE_RINGS], queue[NAIVE_RINGS];
    unsigned n = kolo_topo_nodes(t), i, j, head = 0, tail = 0, done = 0, used = 0;
    static unsigned char in_graph[NAIVE_RINGS];
    memset(adj, 0, (size_t)NAIVE_RINGS * NAIVE_RINGS);
    memset(indeg, 0, sizeof indeg);
    memset(in_graph, 0, sizeof in_graph);
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            kolo_hop hops[KOLO_PATH_MAX];
            uint16_t src = kolo_node_id_of_index(t, i);
            int len = kolo_route_path(t, src, tab[(size_t)i * n + j], hops, KOLO_PATH_MAX), k;
            if (!(tab[(size_t)i * n + j] & KOLO_RE_VALID))
                continue;
            for (k = 1; k < len - 1; k++) {
                unsigned from = naive_ring(hops[k - 1].node, hops[k - 1].port);
                unsigned to = naive_ring(hops[k].node, hops[k].port);
                if (from != to && !adj[from * NAIVE_RINGS + to]) {
                    adj[from * NAIVE_RINGS + to] = 1;
                    indeg[to]++;
                }
                in_graph[from] = in_graph[to] = 1;
            }
        }
    for (i = 0; i < NAIVE_RINGS; i++)
        if (in_graph[i]) {
            used++;
            if (indeg[i] == 0)
                queue[tail++] = i;
        }
    while (head < tail) {
        unsigned r = queue[head++];
        done++;
        for (j = 0; j < NAIVE_RINGS; j++)
            if (adj[r * NAIVE_RINGS + j] && --indeg[j] == 0)
                queue[tail++] = j;
    }
    return done != used;
}

/* every edge of a reported cycle must exist in the naive ring graph */
static void check_cycle_real(const kolo_topo *t, const kolo_route_entry *tab,
                             const kolo_deadlock_report *rep) {
    unsigned char *adj = malloc((size_t)NAIVE_RINGS * NAIVE_RINGS);
    int i;
    CHECK(naive_has_cycle(t, tab, adj), "naive checker sees a cycle too");
    CHECK(rep->n_rings >= 2 && rep->n_rings <= 64, "cycle length %d", rep->n_rings);
    for (i = 0; i < rep->n_rings && rep->n_rings <= 64; i++) {
        unsigned from = naive_ring_of_report(&rep->rings[i]);
        unsigned to = naive_ring_of_report(&rep->rings[(i + 1) % rep->n_rings]);
        CHECK(adj[from * NAIVE_RINGS + to], "reported edge %d is real", i);
    }
    free(adj);
}

static int ring_is(const kolo_ring *r, int dim, int minus, int a, int b) {
    return r->dim == dim && r->minus == minus && r->a == a && r->b == b;
}

static void test_must_fail(void) {
    kolo_topo t = {{4, 4, 1}};
    kolo_route_entry *tab = tables_alloc(&t);
    kolo_route_entry saved;
    kolo_deadlock_report rep;
    size_t size;
    int rc;

    /* 1. a first step Y+ before X+ closes a turn cycle with the default
     * X+ -> Y+ turns: Y+(x=0) -> X+(y=1) -> Y+(x=0) */
    saved = *entry(&t, tab, mk(0, 0, 0), mk(1, 1, 0));
    *entry(&t, tab, mk(0, 0, 0), mk(1, 1, 0)) = KOLO_RE_VALID | KOLO_RS_FS_VALID |
                                                (KOLO_PORT_YP << KOLO_RS_FS_PORT_SHIFT) |
                                                kolo_rs_set_hops(0, 0, 1);
    rc = run_check(&t, tab, &rep);
    CHECK_EQ(rc, KOLO_E_CYCLE, "turn cycle from a first step");
    CHECK_EQ(rep.n_rings, 2, "two rings in the cycle");
    CHECK((ring_is(&rep.rings[0], 1, 0, 0, 0) && ring_is(&rep.rings[1], 0, 0, 1, 0)) ||
              (ring_is(&rep.rings[1], 1, 0, 0, 0) && ring_is(&rep.rings[0], 0, 0, 1, 0)),
          "cycle Y+(x=0) X+(y=1), got %d:%d:%d:%d %d:%d:%d:%d", rep.rings[0].dim,
          rep.rings[0].minus, rep.rings[0].a, rep.rings[0].b, rep.rings[1].dim, rep.rings[1].minus,
          rep.rings[1].a, rep.rings[1].b);
    check_cycle_real(&t, tab, &rep);
    /* the same entry without its valid bit is skipped */
    *entry(&t, tab, mk(0, 0, 0), mk(1, 1, 0)) &= ~KOLO_RE_VALID;
    CHECK_EQ(run_check(&t, tab, &rep), KOLO_OK, "invalid entries are skipped");
    CHECK_EQ(rep.paths, 16 * 16 - 1, "one entry skipped");
    *entry(&t, tab, mk(0, 0, 0), mk(1, 1, 0)) = saved;

    /* 2. a route that leaves ring X+(y=0) and re-enters it: X+, X-, X+ */
    saved = *entry(&t, tab, mk(0, 0, 0), mk(1, 0, 0));
    *entry(&t, tab, mk(0, 0, 0), mk(1, 0, 0)) =
        KOLO_RE_VALID | KOLO_RS_FS_VALID | (KOLO_PORT_XP << KOLO_RS_FS_PORT_SHIFT) |
        kolo_rs_set_hops(0, 0, 1) | KOLO_RS_SIGN(0) | KOLO_RS_LS_VALID |
        (KOLO_PORT_XP << KOLO_RS_LS_PORT_SHIFT);
    CHECK_EQ(kolo_route_path_to(&t, mk(0, 0, 0), mk(1, 0, 0),
                                *entry(&t, tab, mk(0, 0, 0), mk(1, 0, 0)), NULL, 0),
             4, "re-entering route reaches its destination");
    rc = run_check(&t, tab, &rep);
    CHECK_EQ(rc, KOLO_E_CYCLE, "ring re-entered");
    /* the shortest cycle is X+ X-; DFS may report a longer one through the
     * default Y+ -> X- turns: both rings of the re-entry must be in it */
    {
        int i, has_plus = 0, has_minus = 0;
        for (i = 0; i < rep.n_rings && i < 64; i++) {
            has_plus |= ring_is(&rep.rings[i], 0, 0, 0, 0);
            has_minus |= ring_is(&rep.rings[i], 0, 1, 0, 0);
        }
        CHECK(has_plus && has_minus, "cycle through X+(y=0) and X-(y=0), %d rings", rep.n_rings);
    }
    check_cycle_real(&t, tab, &rep);
    *entry(&t, tab, mk(0, 0, 0), mk(1, 0, 0)) = saved;

    /* 3. a port the topology does not have */
    *entry(&t, tab, mk(2, 1, 0), mk(3, 1, 0)) |= kolo_rs_set_hops(0, 2, 1);
    rc = run_check(&t, tab, &rep);
    CHECK_EQ(rc, KOLO_E_PORT, "Z hop in a 4x4x1 torus");
    CHECK_EQ(rep.src, mk(2, 1, 0), "faulty entry's src");
    CHECK_EQ(rep.dst, mk(3, 1, 0), "faulty entry's dst");
    *entry(&t, tab, mk(2, 1, 0), mk(3, 1, 0)) = kolo_route_default(&t, mk(2, 1, 0), mk(3, 1, 0));

    /* 4. an entry that ejects at the wrong node */
    *entry(&t, tab, mk(0, 3, 0), mk(1, 3, 0)) = kolo_route_default(&t, mk(0, 3, 0), mk(2, 3, 0));
    rc = run_check(&t, tab, &rep);
    CHECK_EQ(rc, KOLO_E_WRONG, "wrong ejection node");
    CHECK_EQ(rep.src, mk(0, 3, 0), "faulty entry's src");
    CHECK_EQ(rep.dst, mk(1, 3, 0), "faulty entry's dst");
    *entry(&t, tab, mk(0, 3, 0), mk(1, 3, 0)) = kolo_route_default(&t, mk(0, 3, 0), mk(1, 3, 0));

    /* 5. a hop count that goes round its ring */
    *entry(&t, tab, mk(1, 1, 0), mk(1, 1, 0)) |= kolo_rs_set_hops(0, 0, 4);
    CHECK_EQ(run_check(&t, tab, &rep), KOLO_E_ARG, "hops beyond the ring");
    *entry(&t, tab, mk(1, 1, 0), mk(1, 1, 0)) = KOLO_RE_VALID;

    /* restored: passes again; then the argument checks */
    CHECK_EQ(run_check(&t, tab, &rep), KOLO_OK, "restored table set");
    size = kolo_deadlock_workspace_size(&t);
    {
        unsigned char *ws = malloc(size);
        CHECK_EQ(kolo_deadlock_check(&t, tab, ws, size - 1, &rep), KOLO_E_NOSPACE, "small ws");
        CHECK_EQ(kolo_deadlock_check(&t, NULL, ws, size, &rep), KOLO_E_ARG, "no tables");
        CHECK_EQ(kolo_deadlock_check(&t, tab, NULL, size, &rep), KOLO_E_ARG, "no workspace");
        CHECK_EQ(kolo_deadlock_check(&t, tab, ws, size, NULL), KOLO_OK, "report optional");
        free(ws);
    }
    {
        kolo_topo bad = {{0, 1, 1}};
        CHECK_EQ(kolo_deadlock_workspace_size(&bad), 0, "no workspace for a bad topology");
        CHECK_EQ(kolo_deadlock_check(&bad, tab, tab, 1000, &rep), KOLO_E_ARG, "bad topology");
    }
    free(tab);
}

/* replace an entry by a detour: first step p, default route, last step q */
static void random_detour(const kolo_topo *t, kolo_route_entry *tab) {
    unsigned n = kolo_topo_nodes(t);
    unsigned i = test_rand(n), j = test_rand(n);
    uint16_t src = kolo_node_id_of_index(t, i), dst = kolo_node_id_of_index(t, j);
    uint16_t start = src, before = dst;
    uint32_t rs = 0;
    int fs = (int)test_rand(6), ls = (int)test_rand(6);
    int use_fs = test_rand(4) != 0, use_ls = test_rand(4) != 0;
    if (use_fs && kolo_port_present(t, fs)) {
        start = kolo_neighbor(t, src, fs);
        rs |= KOLO_RS_FS_VALID | ((uint32_t)fs << KOLO_RS_FS_PORT_SHIFT);
    }
    if (use_ls && kolo_port_present(t, ls)) {
        before = kolo_neighbor(t, dst, ls ^ 1); /* step ls from `before` lands on dst */
        rs |= KOLO_RS_LS_VALID | ((uint32_t)ls << KOLO_RS_LS_PORT_SHIFT);
    }
    /* now and then a non-minimal direction in one ring */
    rs |= kolo_route_default(t, start, before) & 0x7fffu;
    if (test_rand(3) == 0) {
        int d = (int)test_rand(3);
        unsigned h = kolo_rs_hops(rs, d);
        if (h)
            rs = kolo_rs_set_hops(rs ^ KOLO_RS_SIGN(d), d, t->size[d] - h);
    }
    tab[(size_t)i * n + j] = rs | KOLO_RE_VALID;
}

static void test_random_cross_check(void) {
    static const kolo_topo topos[] = {{{3, 3, 1}}, {{4, 4, 1}}, {{2, 2, 2}},
                                      {{3, 3, 3}}, {{4, 2, 1}}, {{5, 1, 1}}};
    unsigned char *adj = malloc((size_t)NAIVE_RINGS * NAIVE_RINGS);
    int trial, cycles = 0, clean = 0;
    for (trial = 0; trial < 300; trial++) {
        const kolo_topo *t = &topos[trial % 6];
        kolo_route_entry *tab = tables_alloc(t);
        kolo_deadlock_report rep;
        int k, detours = 1 + (int)test_rand(4), rc, naive, i;
        for (k = 0; k < detours; k++)
            random_detour(t, tab);
        rc = run_check(t, tab, &rep);
        naive = naive_has_cycle(t, tab, adj);
        CHECK(rc == KOLO_OK || rc == KOLO_E_CYCLE, "detours are valid routes: %d", rc);
        CHECK_EQ(rc == KOLO_E_CYCLE, naive, "trial %d: check and naive checker agree", trial);
        if (rc == KOLO_E_CYCLE) {
            cycles++;
            CHECK(rep.n_rings >= 2 && rep.n_rings <= 64, "cycle length %d", rep.n_rings);
            for (i = 0; i < rep.n_rings && rep.n_rings <= 64; i++) {
                unsigned from = naive_ring_of_report(&rep.rings[i]);
                unsigned to = naive_ring_of_report(&rep.rings[(i + 1) % rep.n_rings]);
                CHECK(adj[from * NAIVE_RINGS + to], "trial %d: reported edge %d is real", trial, i);
            }
            /* no order of the rings survives a cycle: the default set's
             * certificate (and any other) is refused */
            {
                static kolo_deadlock_cert cert;
                kolo_route_entry *def = tables_alloc(t);
                CHECK_EQ(certify(t, def, &cert, NULL), KOLO_OK, "default set certified");
                CHECK_EQ(kolo_deadlock_cert_check(t, tab, &cert, NULL), KOLO_E_CERT,
                         "trial %d: a set with a cycle is refused", trial);
                free(def);
            }
        } else if (rc == KOLO_OK) {
            static kolo_deadlock_cert cert;
            clean++;
            CHECK_EQ(certify(t, tab, &cert, NULL), KOLO_OK, "trial %d: certificate verified", trial);
        }
        free(tab);
    }
    printf("random table sets: %d with a cycle (refused by the certificate checker), %d without "
           "(certified)\n", cycles, clean);
    CHECK(cycles > 0 && clean > 0, "both outcomes exercised");
    free(adj);
}

/* Table sets of one valid entry holding random route-state bits: the check
 * must report exactly the error kolo_route_path_to reports for it. */
static void test_random_entry_errors(void) {
    static const kolo_topo topos[] = {{{4, 4, 1}}, {{2, 3, 1}}, {{1, 1, 5}}, {{3, 2, 2}}};
    int trial, errors = 0;
    for (trial = 0; trial < 4000; trial++) {
        const kolo_topo *t = &topos[trial % 4];
        unsigned n = kolo_topo_nodes(t), i = test_rand(n), j = test_rand(n), k;
        kolo_route_entry *tab = calloc((size_t)n * n, sizeof *tab);
        uint16_t src = kolo_node_id_of_index(t, i), dst = kolo_node_id_of_index(t, j);
        uint32_t rs = (uint32_t)test_rand64() & KOLO_RS_MASK;
        kolo_deadlock_report rep;
        int want, rc;
        /* keep hop counts mostly inside the rings so that routes get somewhere */
        for (k = 0; k < 3; k++)
            if (test_rand(4) != 0)
                rs = kolo_rs_set_hops(rs, (int)k, kolo_rs_hops(rs, (int)k) % t->size[k]);
        if (test_rand(2))
            dst = kolo_node_id_of_index(t, test_rand(n)); /* mostly the wrong one */
        j = kolo_node_index(t, dst);
        tab[(size_t)i * n + j] = rs | KOLO_RE_VALID;
        want = kolo_route_path_to(t, src, dst, rs, NULL, 0);
        rc = run_check(t, tab, &rep);
        if (want < 0) {
            errors++;
            CHECK_EQ(rc, want, "trial %d: src %#x dst %#x rs %#x", trial, src, dst, rs);
        } else {
            CHECK(rc == KOLO_OK || rc == KOLO_E_CYCLE, "trial %d: rs %#x: %d", trial, rs, rc);
        }
        free(tab);
    }
    CHECK(errors > 100 && errors < 3900, "both kinds of entry exercised: %d errors", errors);
}

/* planted bad certificates of the 4x4x1 default set must be refused */
static void test_cert_planted(void) {
    kolo_topo t = {{4, 4, 1}};
    kolo_route_entry *tab = tables_alloc(&t);
    static kolo_deadlock_cert good, bad;
    kolo_cert_report crep;
    /* (0,0) -> (1,1): X+ in ring X+(y=0), then Y+ in ring Y+(x=1): a turn */
    unsigned xp0 = kolo_ring_slot_of(mk(0, 0, 0), KOLO_PORT_XP);
    unsigned yp1 = kolo_ring_slot_of(mk(1, 0, 0), KOLO_PORT_YP);
    unsigned zp = kolo_ring_slot_of(mk(0, 0, 0), KOLO_PORT_ZP);
    unsigned s, other = KOLO_RING_SLOTS;
    uint16_t k;
    CHECK_EQ(certify(&t, tab, &good, &crep), KOLO_OK, "4x4x1 default certified");
    CHECK(good.rank[xp0] < good.rank[yp1], "the turn goes up in rank");
    CHECK(good.bubble[xp0], "X+(y=0) is a bubble ring: (0,0) -> (2,0) continues in it");
    CHECK_EQ(good.rank[zp], KOLO_RANK_NONE, "no Z rings in 4x4x1");

    /* 1. ranks of the two rings of the turn swapped */
    bad = good;
    k = bad.rank[xp0];
    bad.rank[xp0] = bad.rank[yp1];
    bad.rank[yp1] = k;
    CHECK_EQ(kolo_deadlock_cert_check(&t, tab, &bad, &crep), KOLO_E_CERT, "swapped ranks refused");
    CHECK(crep.from != crep.to, "refused at a turn (from %u to %u)", crep.from, crep.to);
    /* 2. a bubble ring not named */
    bad = good;
    bad.bubble[xp0] = 0;
    bad.n_bubble--;
    CHECK_EQ(kolo_deadlock_cert_check(&t, tab, &bad, &crep), KOLO_E_CERT, "bubble ring unnamed");
    CHECK(crep.from == xp0 && crep.to == xp0, "refused in X+(y=0): %u %u", crep.from, crep.to);
    /* 3. a rank given twice */
    bad = good;
    for (s = 0; s < KOLO_RING_SLOTS; s++)
        if (s != xp0 && bad.rank[s] != KOLO_RANK_NONE)
            other = s;
    bad.rank[other] = bad.rank[xp0];
    CHECK_EQ(kolo_deadlock_cert_check(&t, tab, &bad, &crep), KOLO_E_CERT, "duplicate rank refused");
    /* 4. a rank for a ring the topology does not have */
    bad = good;
    bad.rank[zp] = 0;
    CHECK_EQ(kolo_deadlock_cert_check(&t, tab, &bad, &crep), KOLO_E_CERT, "rank outside refused");
    /* 5. a bubble ring count that does not match the rings named */
    bad = good;
    bad.n_bubble++;
    CHECK_EQ(kolo_deadlock_cert_check(&t, tab, &bad, &crep), KOLO_E_CERT, "bubble count refused");
    /* 6. the certificate of another topology */
    bad = good;
    bad.topo.size[2] = 2;
    CHECK_EQ(kolo_deadlock_cert_check(&t, tab, &bad, &crep), KOLO_E_CERT, "other topology refused");
    /* 7. the good one still passes; bad arguments */
    CHECK_EQ(kolo_deadlock_cert_check(&t, tab, &good, &crep), KOLO_OK, "good certificate");
    CHECK_EQ(kolo_deadlock_cert_check(&t, NULL, &good, &crep), KOLO_E_ARG, "no tables");
    CHECK_EQ(kolo_deadlock_cert_check(&t, tab, NULL, &crep), KOLO_E_ARG, "no certificate");
    /* 8. a path error is the path's, not the certificate's */
    *entry(&t, tab, mk(0, 3, 0), mk(1, 3, 0)) = kolo_route_default(&t, mk(0, 3, 0), mk(2, 3, 0));
    CHECK_EQ(kolo_deadlock_cert_check(&t, tab, &good, &crep), KOLO_E_WRONG, "wrong ejection");
    free(tab);
}

/* table sets around random faults: each one certified */
static void test_cert_faults(void) {
    static const kolo_topo topos[] = {{{4, 4, 1}}, {{3, 3, 3}}, {{2, 2, 2}}, {{1, 1, 6}}};
    static kolo_deadlock_cert cert;
    static kolo_faults f;
    int trial, certified = 0, detoured = 0;
    for (trial = 0; trial < 40; trial++) {
        const kolo_topo *t = &topos[trial % 4];
        unsigned n = kolo_topo_nodes(t), k, links = 1 + test_rand(4);
        size_t wss = kolo_ft_workspace_size(t);
        void *ws = malloc(wss);
        kolo_route_entry *tab = malloc((size_t)n * n * sizeof *tab);
        kolo_ft_report frep;
        kolo_cert_report crep;
        kolo_faults_clear(&f);
        for (k = 0; k < links; k++) {
            int p = (int)test_rand(6);
            if (kolo_port_present(t, p))
                kolo_faults_set_link(&f, t, test_rand(n), p, 1);
        }
        if (test_rand(4) == 0)
            kolo_faults_set_node(&f, t, test_rand(n), 1);
        CHECK_EQ(kolo_tableset_faults(t, &f, tab, ws, wss, &frep), KOLO_OK, "fault set %d", trial);
        CHECK_EQ(certify(t, tab, &cert, &crep), KOLO_OK, "fault trial %d certified", trial);
        certified++;
        detoured += frep.detoured > 0;
        free(tab);
        free(ws);
    }
    printf("fault table sets: %d certified (%d with detours)\n", certified, detoured);
    CHECK(detoured > 0, "some fault sets need detours");
}

int main(int argc, char **argv) {
    test_seed(argc, argv, "test_deadlock");
    test_defaults_pass();
    test_must_fail();
    test_random_cross_check();
    test_random_entry_errors();
    test_cert_planted();
    test_cert_faults();
    return test_finish("test_deadlock");
}
