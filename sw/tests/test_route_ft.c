/* test_route_ft.c - routing around faults (kolo_route.h, routing.md section
 * "Routing around faults"):
 *   - no faults: the default table set;
 *   - every single link of 2x2x2, 3x3x3 and 4x4x4, and every single node of
 *     3x3x3: all live pairs routed, no path over a fault, deadlock-free;
 *   - partitions: exactly the cut-off pairs unreachable;
 *   - kolo_table_faults(src) equals row src of kolo_tableset_faults;
 *   - random fault sets on 4x4x4 and 8x8x8 (SEED, --sets4, --sets8): every set
 *     passes the deadlock check and the connectivity check (connected pairs
 *     that the first/last-step format cannot route without a cycle are
 *     counted and must be none for 1 or 2 failed links, or 1 failed node);
 *   - controls: a set with a cycle fails the deadlock check, an entry over a
 *     failed link fails the connectivity check, a connected pair without an
 *     entry fails it too, bad arguments are refused.
 * Usage: test_route_ft [--sets4=N] [--sets8=N] [--seed=N]  (SEED= too)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kolo_route.h"

static int failures, checks;
#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        checks++;                                                                                  \
        if (!(cond) && ++failures <= 20) {                                                         \
            fprintf(stderr, "%s:%d: FAIL %s: ", __FILE__, __LINE__, #cond);                        \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fprintf(stderr, "\n");                                                                 \
        }                                                                                          \
    } while (0)

static uint64_t rng;
static unsigned rnd(unsigned n) {
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (unsigned)((rng >> 33) % n);
}

typedef struct {
    kolo_topo t;
    unsigned n;
    kolo_route_entry *set;
    void *ws;
    size_t ws_size;
} ctx;

static void ctx_init(ctx *c, unsigned x, unsigned y, unsigned z) {
    c->t.size[0] = (uint8_t)x, c->t.size[1] = (uint8_t)y, c->t.size[2] = (uint8_t)z;
    c->n = kolo_topo_nodes(&c->t);
    c->set = malloc((size_t)c->n * c->n * sizeof *c->set);
    c->ws_size = kolo_ft_workspace_size(&c->t);
    if (kolo_deadlock_workspace_size(&c->t) > c->ws_size) c->ws_size = kolo_deadlock_workspace_size(&c->t);
    if (kolo_conn_workspace_size(&c->t) > c->ws_size) c->ws_size = kolo_conn_workspace_size(&c->t);
    c->ws = malloc(c->ws_size);
}
static void ctx_free(ctx *c) { free(c->set), free(c->ws); }

/* compute and check one fault set; returns unrouted connected pairs (or -1 on failure) */
static long check_set(ctx *c, const kolo_faults *f, const char *what, kolo_ft_report *out) {
    kolo_ft_report rep;
    int rc = kolo_tableset_faults(&c->t, f, c->set, c->ws, c->ws_size, &rep);
    CHECK(rc == KOLO_OK, "%s: tableset %s", what, kolo_route_strerror(rc));
    if (rc) return -1;
    kolo_deadlock_report dr;
    rc = kolo_deadlock_check(&c->t, c->set, c->ws, c->ws_size, &dr);
    CHECK(rc == KOLO_OK, "%s: deadlock check %s (%d rings)", what, kolo_route_strerror(rc), dr.n_rings);
    kolo_conn_report cr;
    int crc = kolo_connectivity_check(&c->t, f, c->set, c->ws, c->ws_size, &cr);
    CHECK(crc == KOLO_OK || crc == KOLO_E_UNROUTED, "%s: connectivity %s at 0x%x -> 0x%x", what,
          kolo_route_strerror(crc), cr.src, cr.dst);
    CHECK(rep.unreachable + cr.pairs_connected == rep.pairs + cr.bad_entries * (crc == KOLO_E_UNROUTED),
          "%s: %u unreachable + %u connected != %u pairs (+%u unrouted)", what, rep.unreachable,
          cr.pairs_connected, rep.pairs, cr.bad_entries);
    if (out) *out = rep;
    if (rc || (crc != KOLO_OK && crc != KOLO_E_UNROUTED)) return -1;
    return crc == KOLO_E_UNROUTED ? (long)cr.bad_entries : 0;
}

static void random_faults(ctx *c, kolo_faults *f, unsigned links, unsigned nodes) {
    kolo_faults_clear(f);
    for (unsigned k = 0; k < links;) {
        unsigned n = rnd(c->n);
        int p = (int)rnd(6);
        if (!kolo_port_present(&c->t, p)) continue;
        kolo_faults_set_link(f, &c->t, n, p, 1);
        k++;
    }
    for (unsigned k = 0; k < nodes; k++) kolo_faults_set_node(f, &c->t, rnd(c->n), 1);
}

static void describe(const ctx *c, const kolo_faults *f) {
    fprintf(stderr, "  fault set:");
    for (unsigned n = 0; n < c->n; n++) {
        if (f->node_down[n]) fprintf(stderr, " node %u", n);
        if (f->port_down[n]) fprintf(stderr, " node %u ports 0x%02x", n, f->port_down[n]);
    }
    fprintf(stderr, "\n");
}

/* one class of random fault sets: returns sets with unrouted connected pairs */
static unsigned random_class(ctx *c, unsigned sets, unsigned links, unsigned nodes, int must_route) {
    kolo_faults f;
    unsigned bad = 0;
    unsigned long long unrouted = 0;
    for (unsigned s = 0; s < sets; s++) {
        random_faults(c, &f, links, nodes);
        char what[80];
        snprintf(what, sizeof what, "%ux%ux%u random set %u (%u links, %u nodes)", c->t.size[0], c->t.size[1],
                 c->t.size[2], s, links, nodes);
        long u = check_set(c, &f, what, NULL);
        if (u < 0) {
            describe(c, &f);
            continue;
        }
        if (u > 0) {
            bad++;
            unrouted += (unsigned long long)u;
            if (must_route) {
                CHECK(0, "%s: %ld connected pairs unrouted", what, u);
                describe(c, &f);
            }
        }
    }
    printf("%ux%ux%u: %u random sets of %u links + %u nodes: %u with connected pairs left unreachable (%llu "
           "pairs)%s\n",
           c->t.size[0], c->t.size[1], c->t.size[2], sets, links, nodes, bad, unrouted,
           must_route ? " (must be 0)" : " (reported)");
    return bad;
}

int main(int argc, char **argv) {
    unsigned sets4 = 2000, sets8 = 40;
    uint64_t seed = 1;
    const char *env = getenv("SEED");
    if (env) seed = strtoull(env, NULL, 0);
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--sets4=", 8))
            sets4 = (unsigned)atoi(argv[i] + 8);
        else if (!strncmp(argv[i], "--sets8=", 8))
            sets8 = (unsigned)atoi(argv[i] + 8);
        else if (!strncmp(argv[i], "--seed=", 7))
            seed = strtoull(argv[i] + 7, NULL, 0);
        else {
            fprintf(stderr, "usage: test_route_ft [--sets4=N] [--sets8=N] [--seed=N]\n");
            return 2;
        }
    }
    rng = seed;
    printf("test_route_ft: seed %" PRIu64 " (SEED=%" PRIu64 " replays)\n", seed, seed);
    kolo_faults f;

    /* no faults: the default set */
    {
        ctx c;
        ctx_init(&c, 4, 4, 4);
        kolo_route_entry *def = malloc((size_t)c.n * c.n * sizeof *def);
        kolo_tableset_default(&c.t, def);
        kolo_faults_clear(&f);
        check_set(&c, &f, "4x4x4 no faults", NULL);
        CHECK(!memcmp(def, c.set, (size_t)c.n * c.n * sizeof *def), "no faults: not the default set");
        free(def);
        ctx_free(&c);
    }

    /* every single link, three tori */
    static const unsigned dims[][3] = {{2, 2, 2}, {3, 3, 3}, {4, 4, 4}, {4, 4, 1}, {8, 1, 1}};
    for (unsigned k = 0; k < sizeof dims / sizeof dims[0]; k++) {
        ctx c;
        ctx_init(&c, dims[k][0], dims[k][1], dims[k][2]);
        unsigned links = 0, detours = 0;
        long unrouted = 0;
        for (unsigned n = 0; n < c.n; n++)
            for (int p = 0; p < 6; p += 2) { /* each cable once: its + end */
                if (!kolo_port_present(&c.t, p)) continue;
                kolo_faults_clear(&f);
                kolo_faults_set_link(&f, &c.t, n, p, 1);
                kolo_ft_report rep;
                char what[64];
                snprintf(what, sizeof what, "%ux%ux%u link %u/%d", dims[k][0], dims[k][1], dims[k][2], n, p);
                long u = check_set(&c, &f, what, &rep);
                /* a ring of one dimension only (8x1x1) is cut into a line: still connected */
                CHECK(u == 0, "%s: %ld connected pairs unrouted", what, u);
                unrouted += u > 0 ? u : 0;
                CHECK(rep.detoured > 0, "%s: nothing detoured", what);
                detours += rep.detoured;
                links++;
            }
        printf("%ux%ux%u: every one of %u links failed alone: all pairs routed, %u detours in all\n", dims[k][0],
               dims[k][1], dims[k][2], links, detours);
        ctx_free(&c);
    }

    /* every single node of 3x3x3 and 4x4x4; in 4x4x4 the detours' distance
     * ties (hops = 2 in a ring of 4) split over both directions as the
     * default routes' do (kolo_route_tie_minus; detours preferring plus:
     * 6264 : 2952), and no channel carries more than 48 of the 4032 routes
     * (every tie plus: 65; no faults: 32 each) */
    for (unsigned sz = 3; sz <= 4; sz++) {
        ctx c;
        ctx_init(&c, sz, sz, sz);
        unsigned long ties[2] = {0, 0};
        unsigned worst_load = 0;
        kolo_route_entry *def = malloc((size_t)c.n * c.n * sizeof *def);
        kolo_tableset_default(&c.t, def);
        for (unsigned n = 0; n < c.n; n++) {
            kolo_faults_clear(&f);
            kolo_faults_set_node(&f, &c.t, n, 1);
            kolo_ft_report rep;
            char what[64];
            snprintf(what, sizeof what, "%ux%ux%u node %u", sz, sz, sz, n);
            long u = check_set(&c, &f, what, &rep);
            CHECK(u == 0, "%s: %ld connected pairs unrouted", what, u);
            CHECK(rep.pairs == (c.n - 1) * (c.n - 2), "%s: %u pairs", what, rep.pairs);
            for (unsigned j = 0; j < c.n; j++)
                CHECK(!(c.set[(size_t)n * c.n + j] & KOLO_RE_VALID) && !(c.set[(size_t)j * c.n + n] & KOLO_RE_VALID),
                      "%s: entry to/from the dead node valid", what);
            /* uniform traffic over the set: the busiest channel (ideal 32 in
             * 4x4x4 without faults; 65 with every tie going plus) */
            static unsigned load[64 * 6];
            unsigned busiest = 0;
            memset(load, 0, sizeof load);
            for (size_t e = 0; e < (size_t)c.n * c.n; e++) {
                kolo_route_entry r = c.set[e];
                kolo_hop h[KOLO_PATH_MAX];
                int m;
                if (!(r & KOLO_RE_VALID))
                    continue;
                m = kolo_route_path(&c.t, kolo_node_id_of_index(&c.t, (unsigned)(e / c.n)), r, h,
                                    KOLO_PATH_MAX);
                for (int q = 0; q + 1 < m; q++) {
                    unsigned *l = &load[kolo_node_index(&c.t, h[q].node) * 6u + h[q].port];
                    busiest = ++*l > busiest ? *l : busiest;
                }
                if (r == def[e])
                    continue;
                for (int d = 0; d < 3; d++)
                    if (sz % 2 == 0 && kolo_rs_hops(r, d) == sz / 2)
                        ties[kolo_rs_minus(r, d)]++;
            }
            worst_load = busiest > worst_load ? busiest : worst_load;
        }
        printf("%ux%ux%u: every one of %u nodes failed alone: all other pairs routed; detour ties "
               "%lu plus, "
               "%lu minus; busiest channel %u packets of uniform traffic\n",
               sz, sz, sz, c.n, ties[0], ties[1], worst_load);
        if (sz == 4)
            CHECK(worst_load <= 48,
                  "4x4x4 one node failed: a channel carries %u of the all-pairs routes (<= 48)",
                  worst_load);
        if (sz % 2 == 0)
            CHECK(ties[0] + ties[1] > 0 && 10 * ties[1] >= 4 * (ties[0] + ties[1]) &&
                      10 * ties[0] >= 4 * (ties[0] + ties[1]),
                  "%ux%ux%u detour ties: %lu plus, %lu minus (each at least 40%%)", sz, sz, sz,
                  ties[0], ties[1]);
        free(def);
        ctx_free(&c);
    }

    /* partitions: a node cut off by its links; a torus cut in two */
    {
        ctx c;
        ctx_init(&c, 4, 4, 4);
        kolo_faults_clear(&f);
        for (int p = 0; p < 6; p++) kolo_faults_set_link(&f, &c.t, 21, p, 1);
        kolo_ft_report rep;
        CHECK(check_set(&c, &f, "node 21 isolated", &rep) == 0, "isolated node");
        CHECK(rep.unreachable == 2 * 63, "isolated node: %u unreachable", rep.unreachable);
        kolo_faults_clear(&f);
        for (unsigned n = 0; n < c.n; n++) {
            kolo_coord co = kolo_node_coord(kolo_node_id_of_index(&c.t, n));
            if (co.c[0] == 3 || co.c[0] == 1) kolo_faults_set_link(&f, &c.t, n, KOLO_PORT_XP, 1);
        }
        CHECK(check_set(&c, &f, "X cut in two", &rep) == 0, "X cut");
        CHECK(rep.unreachable == 2 * 32 * 32, "X cut: %u unreachable", rep.unreachable);
        /* row equals set row, under faults */
        kolo_route_entry row[64];
        for (unsigned s = 0; s < c.n; s += 7) {
            kolo_faults_clear(&f);
            kolo_faults_set_link(&f, &c.t, 5, KOLO_PORT_YP, 1);
            kolo_faults_set_node(&f, &c.t, 42, 1);
            kolo_tableset_faults(&c.t, &f, c.set, c.ws, c.ws_size, NULL);
            CHECK(kolo_table_faults(&c.t, &f, kolo_node_id_of_index(&c.t, s), row, c.ws, c.ws_size, NULL) == KOLO_OK,
                  "row %u", s);
            CHECK(!memcmp(row, &c.set[(size_t)s * c.n], sizeof row), "row %u differs from the set", s);
        }
        /* controls */
        kolo_faults_clear(&f);
        kolo_faults_set_link(&f, &c.t, 0, KOLO_PORT_XP, 1);
        kolo_tableset_faults(&c.t, &f, c.set, c.ws, c.ws_size, NULL);
        kolo_conn_report cr;
        kolo_route_entry saved = c.set[1];
        c.set[1] = kolo_route_default(&c.t, kolo_node_id_of_index(&c.t, 0), kolo_node_id_of_index(&c.t, 1));
        CHECK(kolo_connectivity_check(&c.t, &f, c.set, c.ws, c.ws_size, &cr) == KOLO_E_FAULT,
              "an entry over the failed link passes");
        c.set[1] = 0;
        CHECK(kolo_connectivity_check(&c.t, &f, c.set, c.ws, c.ws_size, &cr) == KOLO_E_UNROUTED,
              "a connected pair without an entry passes");
        c.set[1] = saved;
        CHECK(kolo_connectivity_check(&c.t, &f, c.set, c.ws, c.ws_size, &cr) == KOLO_OK, "restored set fails");
        kolo_faults_set_node(&f, &c.t, 9, 1);
        CHECK(kolo_connectivity_check(&c.t, &f, c.set, c.ws, c.ws_size, &cr) == KOLO_E_FAULT,
              "entries to a dead node pass");
        /* bad arguments */
        CHECK(kolo_tableset_faults(&c.t, &f, c.set, c.ws, 16, NULL) == KOLO_E_NOSPACE, "small workspace");
        CHECK(kolo_table_faults(&c.t, &f, 0xfff, row, c.ws, c.ws_size, NULL) == KOLO_E_ARG, "src outside");
        CHECK(kolo_faults_set_link(&f, &c.t, 64, 0, 1) == KOLO_E_ARG, "node outside");
        CHECK(kolo_faults_set_link(&f, &c.t, 0, 6, 1) == KOLO_E_ARG, "local port");
        ctx_free(&c);
    }
    {
        /* a cycle the greedy would never build must still fail the deadlock
         * check (docs/routing.md section 6 example, 4x4x1) */
        ctx c;
        ctx_init(&c, 4, 4, 1);
        kolo_tableset_default(&c.t, c.set);
        unsigned dst = kolo_node_index(&c.t, kolo_node_id((kolo_coord){{1, 1, 0}}));
        c.set[dst] = 0x80028008u;
        kolo_deadlock_report dr;
        CHECK(kolo_deadlock_check(&c.t, c.set, c.ws, c.ws_size, &dr) == KOLO_E_CYCLE, "control cycle passes");
        ctx_free(&c);
    }

    /* random fault sets */
    {
        ctx c;
        ctx_init(&c, 4, 4, 4);
        unsigned per = sets4 / 5 ? sets4 / 5 : 1;
        random_class(&c, per, 1, 0, 1);
        random_class(&c, per, 2, 0, 1);
        random_class(&c, per, 0, 1, 1);
        random_class(&c, per, 3, 1, 0);
        random_class(&c, per, 6, 2, 0);
        ctx_free(&c);
    }
    if (sets8) {
        ctx c;
        ctx_init(&c, 8, 8, 8);
        unsigned per = sets8 / 4 ? sets8 / 4 : 1;
        random_class(&c, per, 1, 0, 1);
        random_class(&c, per, 2, 0, 1);
        random_class(&c, per, 0, 1, 1);
        random_class(&c, per, 4, 1, 0);
        ctx_free(&c);
    }
    printf("route-ft: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
