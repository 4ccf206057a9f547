/* kolo-route - look at kolo's default routes from the command line.
 *
 *   kolo-route --dims XxYxZ table SRC      default routing table of node SRC
 *   kolo-route --dims XxYxZ path SRC DST   hops of the deterministic path
 *   kolo-route --dims XxYxZ check          deadlock check of the default table set
 *   kolo-route --dims XxYxZ cert           its certificate (rings in rank order, bubble
 *                                          rings marked), verified by the separate checker
 *
 * Nodes are x,y,z (or a node id such as 0x123). Exit 0 on success, 1 when the
 * check fails, 2 on bad arguments.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kolo_route.h"

static const char *const port_names[] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-", "local", "?"};
static const char dim_names[] = "XYZ";

static void usage(FILE *f) {
    fprintf(f, "usage: kolo-route --dims XxYxZ table SRC\n"
               "       kolo-route --dims XxYxZ path SRC DST\n"
               "       kolo-route --dims XxYxZ check\n"
               "       kolo-route --dims XxYxZ cert\n"
               "sizes 1..16 per dimension; nodes as x,y,z (or a node id, e.g. 0x123)\n");
}

static int bad(const char *fmt, const char *arg) {
    fprintf(stderr, "kolo-route: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    usage(stderr);
    return 2;
}

/* strict unsigned decimal/hex parse of [s, end) */
static int parse_uint(const char *s, const char *end, int base, unsigned long *out) {
    char buf[32], *stop;
    size_t n = (size_t)(end - s);
    if (n == 0 || n >= sizeof buf || s[0] == '-' || s[0] == '+' || s[0] == ' ')
        return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    errno = 0;
    *out = strtoul(buf, &stop, base);
    return (*stop || errno) ? -1 : 0;
}

static int parse_dims(const char *s, kolo_topo *t) {
    int d;
    for (d = 0; d < 3; d++) {
        const char *end = d < 2 ? strchr(s, 'x') : s + strlen(s);
        unsigned long v;
        if (!end || parse_uint(s, end, 10, &v) || v < 1 || v > KOLO_MAX_DIM)
            return -1;
        t->size[d] = (uint8_t)v;
        s = end + 1;
    }
    return 0;
}

static int parse_node(const char *s, const kolo_topo *t, uint16_t *id) {
    kolo_coord c;
    int d;
    if (!strchr(s, ',')) {
        unsigned long v;
        /* 0x... is hex; anything else decimal (a leading 0 is not octal) */
        int base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
        if (parse_uint(s, s + strlen(s), base, &v) || v > 0xfff)
            return -1;
        *id = (uint16_t)v;
        return kolo_node_in_topo(t, *id) ? 0 : -1;
    }
    for (d = 0; d < 3; d++) {
        const char *end = d < 2 ? strchr(s, ',') : s + strlen(s);
        unsigned long v;
        if (!end || parse_uint(s, end, 10, &v) || v >= t->size[d])
            return -1;
        c.c[d] = (uint8_t)v;
        s = end + 1;
    }
    *id = kolo_node_id(c);
    return 0;
}

static const char *node_str(char *buf, uint16_t id) {
    kolo_coord c = kolo_node_coord(id);
    snprintf(buf, 16, "(%u,%u,%u)", c.c[0], c.c[1], c.c[2]);
    return buf;
}

static void route_str(char *buf, size_t size, uint32_t rs) {
    size_t used = 0;
    int d;
    buf[0] = 0;
    if (rs & KOLO_RS_FS_VALID)
        used +=
            (size_t)snprintf(buf + used, size - used, "first %s ", port_names[kolo_rs_fs_port(rs)]);
    for (d = 0; d < 3 && used < size; d++)
        if (kolo_rs_hops(rs, d))
            used += (size_t)snprintf(buf + used, size - used, "%c%c%u ", dim_names[d],
                                     kolo_rs_minus(rs, d) ? '-' : '+', kolo_rs_hops(rs, d));
    if ((rs & KOLO_RS_LS_VALID) && used < size)
        used +=
            (size_t)snprintf(buf + used, size - used, "last %s ", port_names[kolo_rs_ls_port(rs)]);
    if (used == 0)
        snprintf(buf, size, "local");
    else if (used < size)
        buf[used - 1] = 0; /* trailing space */
}

static void print_dims(const kolo_topo *t) {
    printf("%ux%ux%u", t->size[0], t->size[1], t->size[2]);
}

static int cmd_table(const kolo_topo *t, uint16_t src) {
    unsigned i, n = kolo_topo_nodes(t);
    char b[16], r[64];
    printf("# default routing table of node %s in ", node_str(b, src));
    print_dims(t);
    printf("\n# dst       id     entry       route\n");
    for (i = 0; i < n; i++) {
        uint16_t dst = kolo_node_id_of_index(t, i);
        kolo_route_entry e = kolo_route_default(t, src, dst);
        route_str(r, sizeof r, e);
        printf("%-11s 0x%03x  0x%08lx  %s\n", node_str(b, dst), dst, (unsigned long)e, r);
    }
    return 0;
}

static int cmd_path(const kolo_topo *t, uint16_t src, uint16_t dst) {
    kolo_hop hops[KOLO_PATH_MAX];
    kolo_route_entry e = kolo_route_default(t, src, dst);
    char b1[16], b2[16], r[64];
    int n, i;
    route_str(r, sizeof r, e);
    printf("# path %s -> %s in ", node_str(b1, src), node_str(b2, dst));
    print_dims(t);
    printf(", entry 0x%08lx (%s)\n", (unsigned long)e, r);
    n = kolo_route_path_to(t, src, dst, e, hops, KOLO_PATH_MAX);
    if (n < 0) {
        fprintf(stderr, "kolo-route: path: %s\n", kolo_route_strerror(n));
        return 1;
    }
    for (i = 0; i < n; i++)
        printf("%2d  %-11s %-6s %s\n", i, node_str(b1, hops[i].node), port_names[hops[i].port],
               hops[i].port == KOLO_PORT_LOCAL ? "eject"
               : hops[i].entering              ? "entering"
                                               : "continuing");
    printf("# %d network hops\n", n - 1);
    return 0;
}

static int cmd_check(const kolo_topo *t) {
    unsigned n = kolo_topo_nodes(t);
    size_t ws_size = kolo_deadlock_workspace_size(t);
    kolo_route_entry *tables = malloc((size_t)n * n * sizeof *tables);
    void *ws = malloc(ws_size);
    kolo_deadlock_report rep;
    char b1[16], b2[16];
    int rc, i;
    if (!tables || !ws) {
        fprintf(stderr, "kolo-route: out of memory\n");
        free(tables);
        free(ws);
        return 2;
    }
    kolo_tableset_default(t, tables);
    rc = kolo_deadlock_check(t, tables, ws, ws_size, &rep);
    if (rc == KOLO_OK) {
        printf("ok: ");
        print_dims(t);
        printf(", %u routes, %u rings, %u turns, no cycle\n", (unsigned)rep.paths,
               (unsigned)rep.graph_rings, (unsigned)rep.turns);
    } else if (rc == KOLO_E_CYCLE) {
        printf("FAIL: cycle of %d rings:", rep.n_rings);
        for (i = 0; i < rep.n_rings && i < 64; i++)
            printf(" %c%c(%u,%u)", dim_names[rep.rings[i].dim], rep.rings[i].minus ? '-' : '+',
                   rep.rings[i].a, rep.rings[i].b);
        printf("\n");
    } else {
        printf("FAIL: route %s -> %s: %s\n", node_str(b1, rep.src), node_str(b2, rep.dst),
               kolo_route_strerror(rc));
    }
    free(tables);
    free(ws);
    return rc == KOLO_OK ? 0 : 1;
}

/* the certificate of the default table set, one ring per line in rank order */
static int cmd_cert(const kolo_topo *t) {
    static kolo_deadlock_cert cert;
    static uint16_t by_rank[KOLO_RING_SLOTS];
    unsigned n = kolo_topo_nodes(t), s;
    size_t ws_size = kolo_deadlock_workspace_size(t);
    kolo_route_entry *tables = malloc((size_t)n * n * sizeof *tables);
    void *ws = malloc(ws_size);
    kolo_deadlock_report rep;
    kolo_cert_report crep;
    int rc;
    if (!tables || !ws) {
        fprintf(stderr, "kolo-route: out of memory\n");
        free(tables);
        free(ws);
        return 2;
    }
    kolo_tableset_default(t, tables);
    rc = kolo_deadlock_check_cert(t, tables, ws, ws_size, &rep, &cert);
    if (rc == KOLO_OK)
        rc = kolo_deadlock_cert_check(t, tables, &cert, &crep);
    if (rc != KOLO_OK) {
        printf("FAIL: %s\n", kolo_route_strerror(rc));
        free(tables);
        free(ws);
        return 1;
    }
    printf("# deadlock certificate of the default table set of ");
    print_dims(t);
    printf(": %u rings, %u bubble rings\n# rank  ring  (other two coordinates)\n", cert.n_rings,
           cert.n_bubble);
    for (s = 0; s < KOLO_RING_SLOTS; s++)
        if (cert.rank[s] != KOLO_RANK_NONE)
            by_rank[cert.rank[s]] = (uint16_t)s;
    for (s = 0; s < cert.n_rings; s++) {
        unsigned r = by_rank[s];
        printf("%5u  %c%c    (%u,%u)%s\n", s, dim_names[r / 512u], (r / 256u) & 1u ? '-' : '+',
               (r >> 4) & 0xfu, r & 0xfu, cert.bubble[r] ? "  bubble" : "");
    }
    printf("verified: %u paths, %u hops, %u turns up in rank, %u moves inside bubble rings\n",
           (unsigned)crep.paths, (unsigned)crep.hops, (unsigned)crep.turns, (unsigned)crep.continuing);
    free(tables);
    free(ws);
    return 0;
}

int main(int argc, char **argv) {
    kolo_topo t;
    const char *dims = NULL, *cmd;
    uint16_t a, b;
    int i = 1;
    if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
        usage(stdout);
        return 0;
    }
    if (i < argc && !strncmp(argv[i], "--dims=", 7)) {
        dims = argv[i] + 7;
        i++;
    } else if (i + 1 < argc && !strcmp(argv[i], "--dims")) {
        dims = argv[i + 1];
        i += 2;
    }
    if (!dims)
        return bad("%s", "--dims XxYxZ is required (first argument)");
    if (parse_dims(dims, &t))
        return bad("bad --dims '%s': want XxYxZ, each 1..16", dims);
    if (i >= argc)
        return bad("%s", "missing command (table, path, check or cert)");
    cmd = argv[i++];
    if (!strcmp(cmd, "table")) {
        if (argc - i != 1)
            return bad("%s", "table takes one node: table SRC");
        if (parse_node(argv[i], &t, &a))
            return bad("bad node '%s': want x,y,z inside the torus", argv[i]);
        return cmd_table(&t, a);
    }
    if (!strcmp(cmd, "path")) {
        if (argc - i != 2)
            return bad("%s", "path takes two nodes: path SRC DST");
        if (parse_node(argv[i], &t, &a))
            return bad("bad node '%s': want x,y,z inside the torus", argv[i]);
        if (parse_node(argv[i + 1], &t, &b))
            return bad("bad node '%s': want x,y,z inside the torus", argv[i + 1]);
        return cmd_path(&t, a, b);
    }
    if (!strcmp(cmd, "check")) {
        if (argc != i)
            return bad("%s", "check takes no arguments");
        return cmd_check(&t);
    }
    if (!strcmp(cmd, "cert")) {
        if (argc != i)
            return bad("%s", "cert takes no arguments");
        return cmd_cert(&t);
    }
    return bad("unknown command '%s' (table, path, check or cert)", cmd);
}
