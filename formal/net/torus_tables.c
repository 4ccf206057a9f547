/* torus_tables.c - the table sets of proof 3's 2x2x1 torus scenarios
 * (formal/net/kolo_torus_formal.v, make formal-torus-deadlock), made and
 * checked with sw/route, the routing library the NIs' tables come from.
 *
 * Nodes (x, y) by index x + 2y: 0 (0,0), 1 (1,0), 2 (0,1), 3 (1,1). Ports
 * 0 X+, 1 X-, 2 Y+, 3 Y-. The scenario: every node sends one packet to the
 * opposite corner (0 <-> 3, 1 <-> 2), each along its entry of the set.
 *
 * cyclic:  the default set with the four diagonal entries turned so that the
 *          four paths go clockwise round the torus: 0 X+ Y+, 1 Y+ X-,
 *          3 X- Y-, 2 first step Y- then X+. Their turns close the ring cycle
 *          X+@y0 -> Y+@x1 -> X-@y1 -> Y-@x0 -> X+@y0: kolo_deadlock_check must
 *          refuse it, and kolo_deadlock_cert_check must refuse it with the
 *          default set's and the acyclic set's certificates.
 * acyclic: kolo_tableset_faults with both X links between nodes 0 and 1 down
 *          (node 0's X+ and X-): it detours all four diagonal pairs, node 1's
 *          with a last step (Y+ then last step X+); kolo_deadlock_check_cert
 *          must accept it, kolo_deadlock_cert_check verify its certificate
 *          and kolo_connectivity_check accept it.
 *
 * usage: torus_tables check         run the checks above (exit 1 on a failure)
 *        torus_tables param SET     print the harness's parameters for SET
 *                                   (cyclic | acyclic) as run.sh -p options
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kolo_route.h"

#define NODES 4

static const kolo_topo topo = {{2, 2, 1}};
static const int diag[NODES] = {3, 2, 1, 0};

static kolo_route_entry re(unsigned hx, int mx, unsigned hy, int my, int fs, int ls) {
    uint32_t rs = kolo_rs_set_hops(kolo_rs_set_hops(0, 0, hx), 1, hy);
    if (mx)
        rs |= KOLO_RS_SIGN(0);
    if (my)
        rs |= KOLO_RS_SIGN(1);
    if (fs >= 0)
        rs |= KOLO_RS_FS_VALID | (uint32_t)fs << KOLO_RS_FS_PORT_SHIFT;
    if (ls >= 0)
        rs |= KOLO_RS_LS_VALID | (uint32_t)ls << KOLO_RS_LS_PORT_SHIFT;
    return KOLO_RE_VALID | rs;
}

static void make_cyclic(kolo_route_entry *t) {
    kolo_tableset_default(&topo, t);
    t[0 * NODES + 3] = re(1, 0, 1, 0, -1, -1); /* X+ Y+ */
    t[1 * NODES + 2] = re(1, 1, 1, 0, -1, -1); /* Y+ X- */
    t[3 * NODES + 0] = re(1, 1, 1, 1, -1, -1); /* X- Y- */
    t[2 * NODES + 1] = re(1, 0, 0, 0, 3, -1);  /* first step Y-, then X+ */
}

static void make_faults(kolo_faults *f) {
    kolo_faults_clear(f);
    kolo_faults_set_link(f, &topo, 0, 0, 1);
    kolo_faults_set_link(f, &topo, 0, 1, 1);
}

static int make_acyclic(kolo_route_entry *t, const kolo_faults *f) {
    size_t n = kolo_ft_workspace_size(&topo);
    void *ws = malloc(n);
    kolo_ft_report r;
    int rc = ws ? kolo_tableset_faults(&topo, f, t, ws, n, &r) : KOLO_E_NOSPACE;
    free(ws);
    return rc;
}

static const char *port_name(int p) {
    static const char *names[] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-", "local"};
    return p >= 0 && p <= 6 ? names[p] : "?";
}

/* the diagonal packets' paths, hop by hop (the C routing function) */
static int show_paths(const char *name, const kolo_route_entry *t) {
    int s, ok = 1;
    for (s = 0; s < NODES; s++) {
        kolo_hop hops[KOLO_PATH_MAX];
        kolo_route_entry e = t[s * NODES + diag[s]];
        int n = kolo_route_path_to(&topo, kolo_node_id_of_index(&topo, (unsigned)s),
                                   kolo_node_id_of_index(&topo, (unsigned)diag[s]), e & KOLO_RS_MASK,
                                   hops, KOLO_PATH_MAX), k;
        printf("  %s: node %d -> %d, entry 0x%08x:", name, s, diag[s], (unsigned)e);
        if (n < 0) {
            printf(" %s\n", kolo_route_strerror(n));
            ok = 0;
            continue;
        }
        for (k = 0; k < n; k++)
            printf(" %s@%u", port_name(hops[k].port), kolo_node_index(&topo, hops[k].node));
        printf("%s%s\n", (e & KOLO_RS_FS_VALID) ? " (first step)" : "",
               (e & KOLO_RS_LS_VALID) ? " (last step)" : "");
    }
    return ok;
}

static const char *ring_name(const kolo_ring *r, char *buf, size_t n) {
    snprintf(buf, n, "%c%c@%c%u", "XYZ"[r->dim], r->minus ? '-' : '+', r->dim == 0 ? 'y' : 'x', r->a);
    return buf;
}

static int check(void) {
    static kolo_route_entry cyc[NODES * NODES], acy[NODES * NODES], def[NODES * NODES];
    static kolo_deadlock_cert cert_acy, cert_def;
    static kolo_faults f;
    size_t wn = kolo_deadlock_workspace_size(&topo), cn = kolo_conn_workspace_size(&topo);
    void *ws = malloc(wn > cn ? wn : cn);
    kolo_deadlock_report rep;
    kolo_cert_report crep;
    kolo_conn_report conn;
    int rc, k, fail = 0;
    char b[32];
    if (!ws)
        return 1;
    make_cyclic(cyc);
    make_faults(&f);
    kolo_tableset_default(&topo, def);
    if (make_acyclic(acy, &f) != KOLO_OK) {
        printf("FAIL: kolo_tableset_faults\n");
        free(ws);
        return 1;
    }
    fail |= !show_paths("cyclic", cyc);
    fail |= !show_paths("acyclic", acy);
    rc = kolo_deadlock_check_cert(&topo, def, ws, wn, &rep, &cert_def);
    if (rc != KOLO_OK) {
        printf("FAIL: the default set refused (%s)\n", kolo_route_strerror(rc));
        fail = 1;
    }
    rc = kolo_deadlock_check_cert(&topo, acy, ws, wn, &rep, &cert_acy);
    if (rc == KOLO_OK) {
        printf("acyclic: kolo_deadlock_check accepts (%u paths, %u turns, %u rings)\n",
               (unsigned)rep.paths, (unsigned)rep.turns, (unsigned)rep.graph_rings);
        rc = kolo_deadlock_cert_check(&topo, acy, &cert_acy, &crep);
        if (rc == KOLO_OK)
            printf("acyclic: certificate verified (%u paths, %u hops, %u turns, %u continuing)\n",
                   (unsigned)crep.paths, (unsigned)crep.hops, (unsigned)crep.turns,
                   (unsigned)crep.continuing);
        else {
            printf("FAIL: acyclic: certificate refused (%s)\n", kolo_route_strerror(rc));
            fail = 1;
        }
    } else {
        printf("FAIL: acyclic: kolo_deadlock_check refuses it (%s)\n", kolo_route_strerror(rc));
        fail = 1;
    }
    rc = kolo_connectivity_check(&topo, &f, acy, ws, cn, &conn);
    if (rc != KOLO_OK || conn.pairs_routed != NODES * (NODES - 1)) {
        printf("FAIL: acyclic: connectivity (%s, %u pairs routed)\n", kolo_route_strerror(rc),
               (unsigned)conn.pairs_routed);
        fail = 1;
    }
    rc = kolo_deadlock_check(&topo, cyc, ws, wn, &rep);
    if (rc == KOLO_E_CYCLE) {
        printf("cyclic: kolo_deadlock_check refuses it: cycle");
        for (k = 0; k < rep.n_rings && k < 64; k++)
            printf(" %s ->", ring_name(&rep.rings[k], b, sizeof b));
        printf(" %s\n", ring_name(&rep.rings[0], b, sizeof b));
    } else {
        printf("FAIL: cyclic: kolo_deadlock_check says %s\n", kolo_route_strerror(rc));
        fail = 1;
    }
    {
        const kolo_deadlock_cert *certs[2] = {&cert_def, &cert_acy};
        const char *names[2] = {"default set's", "acyclic set's"};
        for (k = 0; k < 2; k++) {
            rc = kolo_deadlock_cert_check(&topo, cyc, certs[k], &crep);
            if (rc == KOLO_E_CERT)
                printf("cyclic: certificate checker refuses it with the %s certificate "
                       "(entry of node %u -> %u, ring slots %u -> %u)\n", names[k],
                       kolo_node_index(&topo, crep.src), kolo_node_index(&topo, crep.dst),
                       (unsigned)crep.from, (unsigned)crep.to);
            else {
                printf("FAIL: cyclic: certificate check with the %s certificate: %s\n", names[k],
                       kolo_route_strerror(rc));
                fail = 1;
            }
        }
    }
    free(ws);
    printf("torus_tables: %s\n", fail ? "FAIL" : "PASS");
    return fail;
}

static int param(const char *set) {
    static kolo_route_entry t[NODES * NODES];
    static kolo_faults f;
    int i;
    unsigned fdst = 0;
    kolo_faults_clear(&f);
    if (strcmp(set, "cyclic") == 0) {
        make_cyclic(t);
    } else if (strcmp(set, "acyclic") == 0) {
        make_faults(&f);
        if (make_acyclic(t, &f) != KOLO_OK)
            return 1;
    } else {
        fprintf(stderr, "torus_tables: unknown set %s\n", set);
        return 2;
    }
    /* TABLES: entry s * NODES + d at bits (s * NODES + d) * 24: {valid, rs} */
    printf("-p TABLES=%u'h", NODES * NODES * 24);
    for (i = NODES * NODES - 1; i >= 0; i--)
        printf("%06x", (unsigned)(((t[i] >> 31) << 23) | (t[i] & KOLO_RS_MASK)));
    printf(" -p PORT_DOWN=%u'h", NODES * 6);
    {
        unsigned long v = 0;
        for (i = NODES - 1; i >= 0; i--)
            v = (v << 6) | (f.port_down[i] & 0x3fu);
        printf("%0*lx", (NODES * 6 + 3) / 4, v);
    }
    for (i = NODES - 1; i >= 0; i--)
        fdst = (fdst << 4) | (unsigned)diag[i];
    printf(" -p FDST=%u'h%04x\n", NODES * 4, fdst);
    return 0;
}

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "check") == 0)
        return check();
    if (argc == 3 && strcmp(argv[1], "param") == 0)
        return param(argv[2]);
    fprintf(stderr, "usage: torus_tables check | param cyclic|acyclic\n");
    return 2;
}
