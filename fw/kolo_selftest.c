/* kolo_selftest.c - see kolo_selftest.h. Freestanding C99. */
#include "kolo_selftest.h"

#include "kolo_print.h"

/* the sample tori: x, y, z */
static const uint8_t st_tori[][3] = {
    {2, 2, 2}, {3, 3, 3}, {4, 4, 4}, {4, 4, 1}, {8, 1, 1}, {5, 3, 2},
};
#define ST_NTORI (sizeof st_tori / sizeof st_tori[0])

#define ST_LCG_SEED 0x6b6f6c6fu /* "kolo" */
#define FNV_OFFSET 2166136261u
#define FNV_PRIME 16777619u

/* ---- digest: FNV-1a over the 4 bytes of each value, least significant first,
 * extracted with shifts so that the byte order of the machine does not matter */
static uint32_t fnv_u32(uint32_t h, uint32_t v) {
    int i;
    for (i = 0; i < 4; i++) {
        h ^= (v >> (8 * i)) & 0xffu;
        h *= FNV_PRIME;
    }
    return h;
}
static uint32_t fnv_int(uint32_t h, int v) { return fnv_u32(h, (uint32_t)v); }

/* ---- deterministic choices: 32-bit LCG (Numerical Recipes constants) ---- */
static uint32_t lcg_next(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

static unsigned pick_node(uint32_t *s, unsigned nodes) { return lcg_next(s) % nodes; }

/* a network port present in the torus (t has at least one dimension > 1) */
static int pick_port(uint32_t *s, const kolo_topo *t) {
    int p = (int)(lcg_next(s) % 6u), k;
    for (k = 0; k < 6; k++, p = (p + 1) % 6)
        if (kolo_port_present(t, p))
            return p;
    return -1;
}

static void fault_link(kolo_faults *f, const kolo_topo *t, uint32_t *s) {
    int p = pick_port(s, t);
    unsigned n = pick_node(s, kolo_topo_nodes(t));
    if (p >= 0)
        (void)kolo_faults_set_link(f, t, n, p, 1);
}

static void fault_node(kolo_faults *f, const kolo_topo *t, uint32_t *s) {
    (void)kolo_faults_set_node(f, t, pick_node(s, kolo_topo_nodes(t)), 1);
}

/* cut the rings of the first dimension larger than 1 at two planes (before
 * coordinate 0 and before size/2): the torus falls into two halves */
static void fault_partition(kolo_faults *f, const kolo_topo *t) {
    unsigned nodes = kolo_topo_nodes(t), i;
    int d;
    for (d = 0; d < 3 && t->size[d] < 2; d++)
        ;
    if (d == 3)
        return;
    for (i = 0; i < nodes; i++) {
        kolo_coord c = kolo_node_coord(kolo_node_id_of_index(t, i));
        if (c.c[d] == 0 || c.c[d] == t->size[d] / 2)
            (void)kolo_faults_set_link(f, t, i, 2 * d + 1 /* minus port */, 1);
    }
}

/* fault set k (0 .. KOLO_SELFTEST_FAULT_SETS-1) of torus t */
static void make_faults(kolo_faults *f, const kolo_topo *t, unsigned k, uint32_t *s) {
    kolo_faults_clear(f);
    switch (k) {
    case 0: /* none */
        break;
    case 1:
    case 2:
    case 3: /* one link */
        fault_link(f, t, s);
        break;
    case 4: /* one node */
        fault_node(f, t, s);
        break;
    case 5: /* two links */
        fault_link(f, t, s);
        fault_link(f, t, s);
        break;
    case 6: /* partition */
        fault_partition(f, t);
        break;
    case 7: /* a node and a link */
        fault_node(f, t, s);
        fault_link(f, t, s);
        break;
    case 8: /* three links */
        fault_link(f, t, s);
        fault_link(f, t, s);
        fault_link(f, t, s);
        break;
    default: /* two nodes and a link */
        fault_node(f, t, s);
        fault_node(f, t, s);
        fault_link(f, t, s);
        break;
    }
}

static size_t align8(size_t n) { return (n + 7u) & ~(size_t)7u; }

static size_t max3(size_t a, size_t b, size_t c) {
    size_t m = a > b ? a : b;
    return m > c ? m : c;
}

static void topo_of(kolo_topo *t, unsigned i) {
    t->size[0] = st_tori[i][0];
    t->size[1] = st_tori[i][1];
    t->size[2] = st_tori[i][2];
}

size_t kolo_selftest_workspace_size(void) {
    size_t need = 0;
    unsigned i;
    for (i = 0; i < ST_NTORI; i++) {
        kolo_topo t;
        size_t nodes, sz;
        topo_of(&t, i);
        nodes = kolo_topo_nodes(&t);
        sz = 8u + align8(sizeof(kolo_faults)) + align8(nodes * nodes * sizeof(kolo_route_entry)) +
             max3(kolo_ft_workspace_size(&t), kolo_deadlock_workspace_size(&t),
                  kolo_conn_workspace_size(&t));
        if (sz > need)
            need = sz;
    }
    return need;
}

uint32_t kolo_selftest_run(void *ws, size_t ws_size, kolo_selftest_report *r) {
    return kolo_selftest_run_tori(ws, ws_size, ST_NTORI, r);
}

uint32_t kolo_selftest_run_tori(void *ws, size_t ws_size, unsigned ntori, kolo_selftest_report *r) {
    uint32_t h = FNV_OFFSET, seed = ST_LCG_SEED;
    uintptr_t base;
    kolo_faults *f;
    kolo_route_entry *tables;
    unsigned ti, k;
    r->tori = r->fault_sets = r->entries = 0;
    r->deadlock_failures = r->unrouted_pairs = r->check_failures = r->route_errors = 0;
    r->digest = 0;
    r->error = KOLO_OK;
    if (!ws || ws_size < kolo_selftest_workspace_size()) {
        r->error = KOLO_E_NOSPACE;
        return 0;
    }
    base = ((uintptr_t)ws + 7u) & ~(uintptr_t)7u;
    f = (kolo_faults *)base;
    tables = (kolo_route_entry *)(base + align8(sizeof(kolo_faults)));

    if (ntori > ST_NTORI)
        ntori = ST_NTORI;
    for (ti = 0; ti < ntori; ti++) {
        kolo_topo t;
        unsigned nodes, i;
        size_t nent;
        uint8_t *rws;
        size_t rws_size;
        topo_of(&t, ti);
        nodes = kolo_topo_nodes(&t);
        nent = (size_t)nodes * nodes;
        rws = (uint8_t *)tables + align8(nent * sizeof(kolo_route_entry));
        rws_size = ws_size - (size_t)(rws - (uint8_t *)ws);
        r->tori++;
        h = fnv_u32(h, t.size[0] | (uint32_t)t.size[1] << 8 | (uint32_t)t.size[2] << 16);

        for (k = 0; k < KOLO_SELFTEST_FAULT_SETS; k++) {
            kolo_ft_report fr;
            kolo_deadlock_report dr;
            kolo_conn_report cr;
            int rc;
            make_faults(f, &t, k, &seed);
            r->fault_sets++;
            /* the fault set itself */
            for (i = 0; i < nodes; i++)
                h = fnv_u32(h, f->port_down[i] | (uint32_t)f->node_down[i] << 8);

            rc = kolo_tableset_faults(&t, f, tables, rws, rws_size, &fr);
            h = fnv_int(h, rc);
            if (rc != KOLO_OK) {
                r->route_errors++;
                continue;
            }
            h = fnv_u32(h, fr.pairs);
            h = fnv_u32(h, fr.default_routes);
            h = fnv_u32(h, fr.detoured);
            h = fnv_u32(h, fr.unreachable);
            h = fnv_u32(h, fr.rejected_cycle);
            for (i = 0; i < nent; i++)
                h = fnv_u32(h, tables[i]);
            r->entries += (uint32_t)nent;

            rc = kolo_deadlock_check(&t, tables, rws, rws_size, &dr);
            h = fnv_int(h, rc);
            h = fnv_int(h, dr.n_rings);
            h = fnv_u32(h, dr.paths);
            h = fnv_u32(h, dr.turns);
            h = fnv_u32(h, dr.graph_rings);
            if (rc != KOLO_OK)
                r->deadlock_failures++;

            rc = kolo_connectivity_check(&t, f, tables, rws, rws_size, &cr);
            h = fnv_int(h, rc);
            h = fnv_u32(h, cr.pairs_connected);
            h = fnv_u32(h, cr.pairs_routed);
            h = fnv_u32(h, cr.bad_entries);
            /* KOLO_E_UNROUTED alone is no failure: kolo_tableset_faults may leave a
             * connected pair without a route that keeps the set deadlock-free */
            if (rc != KOLO_OK && rc != KOLO_E_UNROUTED)
                r->check_failures++;
            if (cr.pairs_connected > cr.pairs_routed)
                r->unrouted_pairs += cr.pairs_connected - cr.pairs_routed;
        }
    }
    h = fnv_u32(h, r->tori);
    h = fnv_u32(h, r->fault_sets);
    h = fnv_u32(h, r->entries);
    h = fnv_u32(h, r->deadlock_failures);
    h = fnv_u32(h, r->unrouted_pairs);
    h = fnv_u32(h, r->check_failures);
    h = fnv_u32(h, r->route_errors);
    r->digest = h;
    return h;
}

int kolo_selftest_print(const kolo_selftest_report *r, void (*putc)(char c)) {
    if (r->error != KOLO_OK) {
        kolo_print_str(putc, "kolo selftest: workspace too small\n");
        return 1;
    }
    kolo_print_str(putc, "kolo selftest: tori ");
    kolo_print_dec(putc, r->tori);
    kolo_print_str(putc, ", fault sets ");
    kolo_print_dec(putc, r->fault_sets);
    kolo_print_str(putc, ", entries ");
    kolo_print_dec(putc, r->entries);
    kolo_print_str(putc, ", deadlock failures ");
    kolo_print_dec(putc, r->deadlock_failures);
    kolo_print_str(putc, ", unrouted pairs ");
    kolo_print_dec(putc, r->unrouted_pairs);
    kolo_print_str(putc, "\nkolo selftest digest 0x");
    kolo_print_hex32(putc, r->digest);
    kolo_print_str(putc, "\n");
    return r->deadlock_failures || r->check_failures || r->route_errors;
}
