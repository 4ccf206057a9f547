/* test_model.c - the reference model / scoreboard of sw/model.
 *
 * A software "network" moves packets the way the routers do (deterministic
 * path for ordered packets, random legal adaptive moves for the others) and
 * reports hops and deliveries in a random interleaving: the model must accept
 * all of it. Then every kind of fault the scoreboard exists to catch is
 * injected on its own and must come back with its own error code. */
#include "kolo_model.h"
#include "test_util.h"

static const kolo_topo T444 = {{4, 4, 4}};

static uint16_t mk(unsigned x, unsigned y, unsigned z) {
    kolo_coord c;
    c.c[0] = (uint8_t)x;
    c.c[1] = (uint8_t)y;
    c.c[2] = (uint8_t)z;
    return kolo_node_id(c);
}

/* a packet travelling through the software network */
typedef struct {
    kolo_pkt pkt;
    uint64_t seq;  /* injection order */
    uint16_t node; /* router the head is at */
    uint32_t rs;   /* route state as rewritten by the routers so far */
} flight;

/* vnet and len: -1 for random */
static void fill_pkt(kolo_pkt *p, uint64_t id, uint16_t src, uint16_t dst, int ordered, int vnet,
                     int len) {
    int i;
    memset(p, 0, sizeof *p);
    p->id = id;
    p->src = src;
    p->dst = dst;
    p->vnet = (uint8_t)(vnet < 0 ? (int)test_rand(2) : vnet);
    p->ordered = (uint8_t)ordered;
    p->op = (uint8_t)test_rand(16);
    p->len = (uint8_t)(len < 0 ? (int)test_rand(KOLO_MAX_PAYLOAD + 1) : len);
    for (i = 0; i < p->len; i++)
        p->payload[i] = test_rand64();
}

/* inject a fresh packet through make_header + inject; vnet, len: -1 random */
static int inject_vl(kolo_model *m, flight *f, uint64_t id, uint16_t src, uint16_t dst, int ordered,
                     int vnet, int len) {
    int rc;
    fill_pkt(&f->pkt, id, src, dst, ordered, vnet, len);
    rc = kolo_model_make_header(m, &f->pkt, id, (uint8_t)test_rand(256), (uint8_t)test_rand(256));
    CHECK_EQ(rc, KOLO_OK, "make_header");
    f->node = src;
    f->rs = (uint32_t)(f->pkt.header[0] >> 36) & KOLO_RS_MASK;
    return kolo_model_inject(m, &f->pkt);
}

static int inject(kolo_model *m, flight *f, uint64_t id, uint16_t src, uint16_t dst, int ordered) {
    return inject_vl(m, f, id, src, dst, ordered, -1, -1);
}

/* the move a router would make; vc = {vnet, class} */
static int next_move(const flight *f, int *vc) {
    unsigned mask = kolo_route_adaptive_mask(f->rs);
    int port = kolo_route_det_port(f->rs), cls = 0, p, choices = 0;
    if (!f->pkt.ordered && mask && test_rand(4) != 0) {
        cls = 1;
        for (p = 0; p < 6; p++)
            if (((mask >> p) & 1u) && test_rand(++choices) == 0)
                port = p;
    }
    *vc = f->pkt.vnet * 2 + cls;
    return port;
}

/* one hop as the monitor would report it; returns the model's answer */
static int step(kolo_model *m, const kolo_topo *t, flight *f) {
    int vc, port = next_move(f, &vc);
    int rc = kolo_model_hop(m, f->pkt.id, f->node, port, vc);
    f->rs = kolo_route_advance(f->rs, port);
    f->node = kolo_neighbor(t, f->node, port);
    return rc;
}

static int travel(kolo_model *m, const kolo_topo *t, flight *f) {
    while (kolo_route_det_port(f->rs) != KOLO_PORT_LOCAL) {
        int rc = step(m, t, f);
        if (rc != KOLO_OK)
            return rc;
    }
    return KOLO_OK;
}

static int deliver(kolo_model *m, const flight *f) {
    uint64_t h[2];
    h[0] = (f->pkt.header[0] & ~((uint64_t)KOLO_RS_MASK << 36)) | (uint64_t)f->rs << 36;
    h[1] = f->pkt.header[1];
    return kolo_model_deliver(m, f->node, h, f->pkt.payload, f->pkt.len);
}

/* ---- happy path, many packets, random interleaving --------------------------- */
#define INFLIGHT 256

static void run_traffic(const kolo_topo *t, const kolo_route_entry *tables, int packets) {
    kolo_model *m = kolo_model_new(t, tables);
    static flight fl[INFLIGHT];
    int live = 0, injected = 0, delivered = 0, bad = 0;
    unsigned n = kolo_topo_nodes(t);
    uint64_t seq = 0;
    kolo_model_stats st;
    CHECK(m != NULL, "model");
    if (!m)
        return;
    while (delivered < packets) {
        if (injected < packets && (live == 0 || (live < INFLIGHT && test_rand(3) == 0))) {
            /* few node pairs so that ordered flows have several packets in flight */
            uint16_t src = kolo_node_id_of_index(t, test_rand(n < 8 ? n : 8));
            uint16_t dst = kolo_node_id_of_index(t, test_rand(n));
            uint64_t id = ((uint64_t)0xabc << 36) + (uint64_t)injected * 7919u;
            fl[live].seq = seq++;
            if (inject(m, &fl[live], id & KOLO_MODEL_ID_MASK, src, dst, test_rand(2)) != KOLO_OK)
                bad++;
            live++;
            injected++;
        } else {
            int i = (int)test_rand((unsigned)live), j, rc;
            flight *f = &fl[i];
            if (kolo_route_det_port(f->rs) != KOLO_PORT_LOCAL) {
                if (step(m, t, f) != KOLO_OK)
                    bad++;
                continue;
            }
            if (f->pkt.ordered) { /* the network keeps a flow's order */
                for (j = 0; j < live; j++)
                    if (fl[j].pkt.ordered && fl[j].seq < f->seq && fl[j].pkt.src == f->pkt.src &&
                        fl[j].pkt.dst == f->pkt.dst && fl[j].pkt.vnet == f->pkt.vnet)
                        break;
                if (j < live)
                    continue;
            }
            rc = deliver(m, f);
            if (rc != KOLO_OK) {
                if (bad++ < 5)
                    fprintf(stderr, "deliver: %d %s\n", rc, kolo_model_last_error(m));
            }
            fl[i] = fl[--live];
            delivered++;
        }
    }
    CHECK_EQ(bad, 0, "every correct hop and delivery accepted (%s)", kolo_model_last_error(m));
    CHECK_EQ(kolo_model_pending(m), 0, "nothing pending");
    kolo_model_get_stats(m, &st);
    CHECK_EQ(st.injected, packets, "stats injected");
    CHECK_EQ(st.delivered, packets, "stats delivered");
    CHECK_EQ(st.errors, 0, "stats errors");
    CHECK(st.hops_checked > 0, "hops checked");
    CHECK_EQ(kolo_model_last_error(m)[0], 0, "no error message");
    kolo_model_free(m);
}

static void test_traffic(void) {
    kolo_topo t2 = {{3, 1, 2}};
    unsigned n = kolo_topo_nodes(&T444), i, j;
    kolo_route_entry *tab = malloc((size_t)n * n * sizeof *tab);
    run_traffic(&T444, NULL, 50000);
    run_traffic(&t2, NULL, 5000);
    /* explicit tables with first/last-step detours on every route out of (0,0,0)
     * and (1,0,0): the model must predict those paths too */
    kolo_tableset_default(&T444, tab);
    for (i = 0; i < 2; i++)
        for (j = 0; j < n; j++) {
            uint16_t src = kolo_node_id_of_index(&T444, i), dst = kolo_node_id_of_index(&T444, j);
            uint16_t start = kolo_neighbor(&T444, src, KOLO_PORT_ZM);
            uint16_t before = kolo_neighbor(&T444, dst, KOLO_PORT_YP);
            tab[(size_t)i * n + j] = kolo_route_default(&T444, start, before) | KOLO_RS_FS_VALID |
                                     (KOLO_PORT_ZM << KOLO_RS_FS_PORT_SHIFT) | KOLO_RS_LS_VALID |
                                     (KOLO_PORT_YM << KOLO_RS_LS_PORT_SHIFT);
        }
    run_traffic(&T444, tab, 20000);
    free(tab);
}

/* ---- faults ------------------------------------------------------------------- */
static int has(const kolo_model *m, const char *s) {
    return strstr(kolo_model_last_error(m), s) != NULL;
}

static void test_faults(void) {
    kolo_model *m = kolo_model_new(&T444, NULL);
    flight a, b, c;
    uint64_t h[2], pay[KOLO_MAX_PAYLOAD];
    kolo_model_stats st;
    int vc;
    uint16_t far = mk(2, 3, 1);

    /* duplicate delivery */
    CHECK_EQ(inject(m, &a, 0x100, mk(0, 0, 0), far, 1), KOLO_OK, "inject");
    CHECK_EQ(travel(m, &T444, &a), KOLO_OK, "hops");
    CHECK_EQ(deliver(m, &a), KOLO_OK, "deliver");
    CHECK_EQ(deliver(m, &a), KOLO_E_SB_DUP, "duplicate");
    CHECK(has(m, "0x100"), "message names the id: %s", kolo_model_last_error(m));
    CHECK_EQ(inject(m, &a, 0x100, mk(0, 0, 0), far, 1), KOLO_E_ARG, "id reused after delivery");

    /* unknown id */
    a.pkt.header[1] = (a.pkt.header[1] & ~KOLO_MODEL_ID_MASK) | 0x999;
    CHECK_EQ(deliver(m, &a), KOLO_E_SB_UNKNOWN, "unknown id at delivery");
    CHECK_EQ(kolo_model_hop(m, 0x999, 0, KOLO_PORT_XP, 0), KOLO_E_SB_UNKNOWN, "unknown id hop");

    /* wrong node */
    CHECK_EQ(inject(m, &a, 0x101, mk(1, 1, 1), far, 0), KOLO_OK, "inject");
    CHECK_EQ(travel(m, &T444, &a), KOLO_OK, "hops");
    a.node = mk(2, 3, 2);
    CHECK_EQ(deliver(m, &a), KOLO_E_SB_NODE, "wrong node");
    CHECK(has(m, "(2,3,2)"), "message names the node: %s", kolo_model_last_error(m));
    CHECK_EQ(kolo_model_pending(m), 0, "a faulty delivery retires the packet");

    /* corrupted payload, header, length, route state */
    CHECK_EQ(inject_vl(m, &a, 0x102, mk(1, 1, 1), far, 0, -1, 5), KOLO_OK, "inject");
    CHECK_EQ(travel(m, &T444, &a), KOLO_OK, "hops");
    a.pkt.payload[a.pkt.len - 1] ^= 1u << 17;
    CHECK_EQ(deliver(m, &a), KOLO_E_SB_DATA, "payload bit flip");
    CHECK(has(m, "payload flit"), "message: %s", kolo_model_last_error(m));

    CHECK_EQ(inject(m, &a, 0x200, mk(3, 0, 0), far, 1), KOLO_OK, "inject");
    CHECK_EQ(travel(m, &T444, &a), KOLO_OK, "hops");
    a.pkt.header[0] ^= (uint64_t)1 << 24; /* op */
    CHECK_EQ(deliver(m, &a), KOLO_E_SB_DATA, "op changed");

    CHECK_EQ(inject(m, &a, 0x201, mk(3, 0, 0), far, 1), KOLO_OK, "inject");
    CHECK_EQ(travel(m, &T444, &a), KOLO_OK, "hops");
    a.pkt.header[1] ^= (uint64_t)1 << 50; /* tag, same id */
    CHECK_EQ(deliver(m, &a), KOLO_E_SB_DATA, "tag changed");

    CHECK_EQ(inject(m, &a, 0x202, mk(3, 0, 0), far, 0), KOLO_OK, "inject");
    CHECK_EQ(travel(m, &T444, &a), KOLO_OK, "hops");
    memcpy(pay, a.pkt.payload, sizeof pay);
    h[0] = (a.pkt.header[0] & ~((uint64_t)KOLO_RS_MASK << 36)) | (uint64_t)a.rs << 36;
    h[1] = a.pkt.header[1];
    CHECK_EQ(kolo_model_deliver(m, far, h, pay, a.pkt.len == 0 ? 1 : a.pkt.len - 1), KOLO_E_SB_DATA,
             "length differs");

    CHECK_EQ(inject(m, &a, 0x203, mk(3, 0, 0), far, 0), KOLO_OK, "inject");
    CHECK_EQ(travel(m, &T444, &a), KOLO_OK, "hops");
    a.rs = kolo_rs_set_hops(a.rs, 1, 1); /* a hop count left over */
    CHECK_EQ(deliver(m, &a), KOLO_E_SB_DATA, "route state not consumed");
    CHECK(has(m, "route state"), "message: %s", kolo_model_last_error(m));

    /* order violation within a flow; other flows and unordered packets are free */
    CHECK_EQ(inject_vl(m, &a, 0x300, mk(0, 1, 0), far, 1, 1, -1), KOLO_OK, "inject A");
    CHECK_EQ(inject_vl(m, &b, 0x301, mk(0, 1, 0), far, 1, 1, -1), KOLO_OK, "inject B");
    CHECK_EQ(travel(m, &T444, &a), KOLO_OK, "hops A");
    CHECK_EQ(travel(m, &T444, &b), KOLO_OK, "hops B");
    CHECK_EQ(deliver(m, &b), KOLO_E_SB_ORDER, "B overtook A");
    CHECK(has(m, "0x300"), "message names the overtaken id: %s", kolo_model_last_error(m));
    CHECK_EQ(deliver(m, &a), KOLO_OK, "A after that");
    CHECK_EQ(kolo_model_pending(m), 0, "all retired");
    kolo_model_free(m);

    m = kolo_model_new(&T444, NULL);
    CHECK_EQ(inject(m, &a, 0x400, mk(0, 1, 0), far, 0), KOLO_OK, "inject unordered A");
    CHECK_EQ(inject(m, &b, 0x401, mk(0, 1, 0), far, 0), KOLO_OK, "inject unordered B");
    CHECK_EQ(travel(m, &T444, &a), KOLO_OK, "hops A");
    CHECK_EQ(travel(m, &T444, &b), KOLO_OK, "hops B");
    CHECK_EQ(deliver(m, &b), KOLO_OK, "unordered packets may overtake");
    CHECK_EQ(deliver(m, &a), KOLO_OK, "unordered A");
    CHECK_EQ(inject_vl(m, &a, 0x402, mk(0, 1, 0), far, 1, 0, -1), KOLO_OK, "ordered A");
    CHECK_EQ(inject_vl(m, &b, 0x403, mk(0, 1, 0), mk(0, 1, 1), 1, 0, -1), KOLO_OK, "other dst");
    CHECK_EQ(inject_vl(m, &c, 0x404, mk(0, 1, 0), far, 1, 1, -1), KOLO_OK, "other vnet");
    CHECK_EQ(travel(m, &T444, &a), KOLO_OK, "hops A");
    CHECK_EQ(travel(m, &T444, &b), KOLO_OK, "hops B");
    CHECK_EQ(travel(m, &T444, &c), KOLO_OK, "hops C");
    CHECK_EQ(deliver(m, &b), KOLO_OK, "another dst may overtake");
    CHECK_EQ(deliver(m, &c), KOLO_OK, "another vnet may overtake");
    CHECK_EQ(deliver(m, &a), KOLO_OK, "ordered A");

    /* wrong path: ordered packet leaves by another port, on VC1, in another
     * vnet, at another node; adaptive packet by a non-productive port or by an
     * adaptive port on the escape VC; the local port reported as a hop */
    CHECK_EQ(inject(m, &a, 0x500, mk(0, 0, 0), far, 1), KOLO_OK, "inject");
    CHECK_EQ(kolo_model_hop(m, 0x500, mk(0, 0, 0), KOLO_PORT_YP, a.pkt.vnet * 2), KOLO_E_SB_PATH,
             "ordered, wrong port");
    CHECK(has(m, "expected port X+"), "message: %s", kolo_model_last_error(m));
    CHECK_EQ(kolo_model_hop(m, 0x500, mk(0, 0, 0), KOLO_PORT_XP, a.pkt.vnet * 2 + 1),
             KOLO_E_SB_PATH, "ordered on the adaptive VC");
    CHECK_EQ(kolo_model_hop(m, 0x500, mk(0, 0, 0), KOLO_PORT_XP, (a.pkt.vnet ^ 1) * 2),
             KOLO_E_SB_PATH, "wrong vnet");
    CHECK_EQ(kolo_model_hop(m, 0x500, mk(1, 0, 0), KOLO_PORT_XP, a.pkt.vnet * 2), KOLO_E_SB_PATH,
             "wrong node");
    CHECK_EQ(kolo_model_hop(m, 0x500, mk(0, 0, 0), KOLO_PORT_LOCAL, a.pkt.vnet * 2), KOLO_E_SB_PATH,
             "local port as a hop");
    CHECK_EQ(kolo_model_hop(m, 0x500, mk(0, 0, 0), 9, 0), KOLO_E_ARG, "port out of range");
    CHECK_EQ(kolo_model_hop(m, 0x500, mk(0, 0, 0), 0, 4), KOLO_E_ARG, "vc out of range");
    CHECK_EQ(travel(m, &T444, &a), KOLO_OK, "the right hops still pass");
    CHECK_EQ(deliver(m, &a), KOLO_OK, "and the delivery");

    /* far = (2,3,1) from (0,0,0): X+2, Y-1, Z+1 */
    CHECK_EQ(inject(m, &a, 0x501, mk(0, 0, 0), far, 0), KOLO_OK, "inject adaptive");
    CHECK_EQ(kolo_model_hop(m, 0x501, mk(0, 0, 0), KOLO_PORT_XM, a.pkt.vnet * 2 + 1),
             KOLO_E_SB_PATH, "non-productive adaptive move");
    CHECK_EQ(kolo_model_hop(m, 0x501, mk(0, 0, 0), KOLO_PORT_ZP, a.pkt.vnet * 2), KOLO_E_SB_PATH,
             "adaptive port on the escape VC");
    CHECK_EQ(kolo_model_hop(m, 0x501, mk(0, 0, 0), KOLO_PORT_ZP, a.pkt.vnet * 2 + 1), KOLO_OK,
             "productive adaptive move");
    CHECK_EQ(kolo_model_hop(m, 0x501, mk(0, 0, 1), KOLO_PORT_YM, a.pkt.vnet * 2 + 1), KOLO_OK,
             "productive adaptive move");
    CHECK_EQ(kolo_model_hop(m, 0x501, mk(0, 3, 1), KOLO_PORT_XP, a.pkt.vnet * 2), KOLO_OK,
             "deterministic move on VC0");
    CHECK_EQ(kolo_model_hop(m, 0x501, mk(1, 3, 1), KOLO_PORT_ZP, a.pkt.vnet * 2 + 1),
             KOLO_E_SB_PATH, "Z already done");
    CHECK_EQ(kolo_model_hop(m, 0x501, mk(1, 3, 1), KOLO_PORT_XP, a.pkt.vnet * 2 + 1), KOLO_OK,
             "last X");
    /* wrong hop count: one hop too many */
    CHECK_EQ(kolo_model_hop(m, 0x501, far, KOLO_PORT_XP, a.pkt.vnet * 2 + 1), KOLO_E_SB_HOPS,
             "hop after the path is done");
    CHECK(has(m, "the path has 4 hops"), "message: %s", kolo_model_last_error(m));
    a.node = far;
    a.rs &= ~(uint32_t)0x7fff;
    a.rs |= (uint32_t)(a.pkt.header[0] >> 36) & 7u;
    CHECK_EQ(deliver(m, &a), KOLO_OK, "delivery after the adaptive hops");

    /* wrong hop count: a hop missing at delivery */
    CHECK_EQ(inject(m, &a, 0x502, mk(0, 0, 0), far, 1), KOLO_OK, "inject");
    c = a;
    CHECK_EQ(step(m, &T444, &c), KOLO_OK, "one hop");
    CHECK_EQ(travel(m, &T444, &a), KOLO_E_SB_PATH, "the monitor cannot report from src twice");
    a = c;
    while (kolo_route_det_port(c.rs) != KOLO_PORT_LOCAL) { /* travel without reporting */
        int port = next_move(&c, &vc);
        c.rs = kolo_route_advance(c.rs, port);
        c.node = kolo_neighbor(&T444, c.node, port);
    }
    CHECK_EQ(deliver(m, &c), KOLO_E_SB_HOPS, "hops missing");
    CHECK(has(m, "hops seen"), "message: %s", kolo_model_last_error(m));

    /* hop counting off: no hop reports needed */
    kolo_model_check_hops(m, 0);
    CHECK_EQ(inject(m, &a, 0x503, mk(0, 0, 0), far, 1), KOLO_OK, "inject");
    c = a;
    while (kolo_route_det_port(c.rs) != KOLO_PORT_LOCAL) {
        int port = next_move(&c, &vc);
        c.rs = kolo_route_advance(c.rs, port);
        c.node = kolo_neighbor(&T444, c.node, port);
    }
    CHECK_EQ(deliver(m, &c), KOLO_OK, "no hop check");
    kolo_model_check_hops(m, 1);

    /* injection arguments */
    fill_pkt(&a.pkt, 0x600, mk(0, 0, 0), mk(0, 0, 4), 0, -1, -1);
    CHECK_EQ(kolo_model_make_header(m, &a.pkt, 0x600, 0, 0), KOLO_E_ARG, "dst outside");
    fill_pkt(&a.pkt, 0x600, mk(0, 0, 0), mk(0, 0, 3), 0, -1, -1);
    a.pkt.len = 33;
    CHECK_EQ(kolo_model_make_header(m, &a.pkt, 0x600, 0, 0), KOLO_E_ARG, "len 33");
    a.pkt.len = 3;
    CHECK_EQ(kolo_model_make_header(m, &a.pkt, 0x600, 0, 0), KOLO_OK, "len 3");
    a.pkt.header[0] ^= (uint64_t)1 << 60; /* reserved bit */
    CHECK_EQ(kolo_model_inject(m, &a.pkt), KOLO_E_ARG, "header disagrees with the fields");
    a.pkt.header[0] ^= (uint64_t)1 << 60;
    a.pkt.header[1] ^= 1; /* addr != id */
    CHECK_EQ(kolo_model_inject(m, &a.pkt), KOLO_E_ARG, "addr is not the id");
    a.pkt.header[1] ^= 1;
    CHECK_EQ(kolo_model_inject(m, &a.pkt), KOLO_OK, "now right");
    CHECK_EQ(kolo_model_inject(m, &a.pkt), KOLO_E_ARG, "id already in flight");
    a.pkt.id = 0x601;
    a.pkt.header[1] = (a.pkt.header[1] & ~KOLO_MODEL_ID_MASK) | 0x601;
    a.pkt.header[0] |= (uint64_t)kolo_rs_set_hops(0, 0, 1) << 36; /* hop X+ too many */
    CHECK_EQ(kolo_model_inject(m, &a.pkt), KOLO_E_ARG, "route state misses the destination");

    kolo_model_get_stats(m, &st);
    CHECK(st.errors >= 10, "errors counted: %llu", (unsigned long long)st.errors);
    CHECK_EQ(kolo_model_pending(m), 1, "0x600 still in flight");
    kolo_model_free(m); /* with packets in flight: no leak (ASan) */
}

/* the ids of recent deliveries are remembered; beyond the window a duplicate
 * reads as unknown, and memory stays bounded */
static void test_window(void) {
    kolo_model *m = kolo_model_new(&T444, NULL);
    flight f;
    unsigned i;
    uint64_t first = 0;
    kolo_model_check_hops(m, 0);
    for (i = 0; i < 70000; i++) {
        CHECK_EQ(inject(m, &f, 0x1000 + i, mk(1, 2, 3), mk(1, 2, 3), i & 1), KOLO_OK, "inject");
        if (i == 0)
            first = f.pkt.header[1];
        CHECK_EQ(deliver(m, &f), KOLO_OK, "deliver");
    }
    CHECK_EQ(deliver(m, &f), KOLO_E_SB_DUP, "recent duplicate");
    f.pkt.header[1] = first;
    CHECK_EQ(deliver(m, &f), KOLO_E_SB_UNKNOWN, "ancient duplicate reads as unknown");
    kolo_model_free(m);
}

int main(int argc, char **argv) {
    kolo_model *m;
    kolo_topo bad = {{4, 0, 4}};
    test_seed(argc, argv, "test_model");
    CHECK(kolo_model_new(&bad, NULL) == NULL, "bad topology");
    m = kolo_model_new(&T444, NULL);
    CHECK_EQ(kolo_model_last_error(m)[0], 0, "fresh model: no error");
    kolo_model_free(m);
    kolo_model_free(NULL);
    test_traffic();
    test_faults();
    test_window();
    return test_finish("test_model");
}
