/* test_fw_hmsg.c - host messages (docs/firmware.md "Host messages") with the
 * firmware of every node of a 3x2x1 torus, each over its own service block
 * model (kolo_svc_model), joined by an in-process MGMT network that takes
 * any route and checks it (kolo_route_path_to: the packet must eject at its
 * destination), and each node's host using libkolo's host-message calls
 * (sw/lib/kolo_hmsg.c) through the model's host port (BAR0 rules: writes
 * only while the firmware keeps SYS_HOST_ACCESS open). Checks:
 *   - boot: the area's id, host writes open; before the links are up a send
 *     is refused (KOLO_E_AGAIN, status NOT_READY);
 *   - seeded messages between random pairs (one and two hops, and a node to
 *     itself), random lengths 1..HMSG_MAX_BYTES: each received whole, from
 *     the right source, in order;
 *   - bad input: length 0 and over the maximum (libkolo: KOLO_E_LEN; raw
 *     requests: status TOO_LONG), a node outside the torus (KOLO_E_NODE),
 *     an empty queue (KOLO_E_AGAIN), a receive buffer too small (KOLO_E_LEN,
 *     the message stays), malformed MGMT messages of kind HOST (RX_BAD, no
 *     message), a repeated request number (not taken again);
 *   - a full queue: HMSG_RXQ + 3 messages with nobody taking: 3 dropped and
 *     counted, the first HMSG_RXQ kept in order;
 *   - no route: every link of a node down, its tables recomputed: a send to
 *     it is refused KOLO_E_NOROUTE; back up, it works again;
 *   - table switches leave the area (the service block's host mailbox)
 *     alone: a switch right after the host wrote its send request, and
 *     right after it wrote its receive ack: one delivery, no message taken
 *     twice, the area's words unchanged by the switch;
 *   - a firmware without host messages: the area's id absent (KOLO_E_NOSYS)
 *     and host writes still refused;
 *   - every counter of every area equals the test's count;
 *   - a torus of more than 4032 nodes (16x16x16 = 4096, the largest): the
 *     area used to be the top 64 entries of the routing table's shadow
 *     bank, so such a firmware served none (KOLO_E_NOSYS). Firmware on four
 *     nodes (0, 1, index 4032 and the last, id 0xfff; the others are links
 *     up with no firmware behind them), own-table checks: messages between
 *     them and to a node itself, across table switches.
 * --plant=drop2: the network loses every second MGMT message of kind HOST
 * (the test must fail: make test-fw-hmsg-plant).
 * Usage: test_fw_hmsg [--seed=N] [--plant=drop2] [-v] */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kolo.h"
#include "kolo_fw.h"
#include "kolo_hmsg.h"
#include "kolo_svc_model.h"
#include "kolo_svc_regs.h"

#define NODES_X 3
#define NODES_Y 2
#define MGMT_LATENCY 40
#define MAXQ 4096
#define ALL_NODES KOLO_MAX_NODES /* the arrays below serve the 16x16x16 part too */

struct kolo_hal {
    int node;
};

typedef struct {
    uint64_t at;
    int to;
    uint16_t src;
    unsigned n;
    uint32_t w[64];
} pkt;

static kolo_topo g_t = {{NODES_X, NODES_Y, 1}};
static unsigned g_nodes;
static uint64_t g_now;
/* nodes without firmware (the 16x16x16 part) have no block: their MGMT is lost */
static kolo_svc_model *g_svc[ALL_NODES];
static kolo_fw *g_fw[ALL_NODES];
static unsigned g_live[ALL_NODES], g_nlive; /* the nodes with a block, in boot order */
static struct kolo_hal g_hal[ALL_NODES];
static void *g_ws;
static size_t g_ws_size;
static kolo_route_entry *g_set;
static pkt g_q[MAXQ];
static size_t g_qn;
static uint8_t g_cut[ALL_NODES]; /* node whose links are all down */
static int g_plant, g_verbose, g_bad;
static unsigned g_host_pkts;

#define CHECK(cond, ...)                                                                                     \
    do {                                                                                                     \
        if (!(cond)) {                                                                                       \
            printf("FAIL: " __VA_ARGS__);                                                                    \
            printf("\n");                                                                                    \
            g_bad = 1;                                                                                       \
        }                                                                                                    \
    } while (0)

uint32_t kolo_hal_read32(kolo_hal *h, uint32_t a) {
    uint32_t v = 0;
    kolo_svc_read(g_svc[h->node], a, &v, 0);
    return v;
}
void kolo_hal_write32(kolo_hal *h, uint32_t a, uint32_t v) {
    if (kolo_svc_write(g_svc[h->node], a, v, 0)) {
        printf("FAIL: node %d firmware write 0x%x refused\n", h->node, a);
        g_bad = 1;
    }
}
uint64_t kolo_hal_time(kolo_hal *h) {
    (void)h;
    return g_now;
}
void kolo_hal_wait(kolo_hal *h, uint64_t deadline) { (void)h, (void)deadline; }
void kolo_hal_log(kolo_hal *h, const char *line) {
    if (g_verbose) printf("  [%8" PRIu64 "] node %d: %s\n", g_now, h->node, line);
}

/* any route: it must eject at dst; lost if either end is cut off */
static int mgmt_send(void *ctx, uint16_t dst, uint32_t rs, const uint32_t *w, unsigned n) {
    struct kolo_hal *h = ctx;
    uint16_t me = kolo_node_id_of_index(&g_t, (unsigned)h->node);
    kolo_hop hops[KOLO_PATH_MAX];
    int k = kolo_route_path_to(&g_t, me, dst, rs, hops, KOLO_PATH_MAX);
    if (k < 1) {
        printf("FAIL: node %d sent MGMT to 0x%x with route state 0x%x that does not reach it (%d)\n", h->node, dst,
               rs, k);
        g_bad = 1;
        return 1;
    }
    int to = (int)kolo_node_index(&g_t, dst);
    if (g_cut[h->node] || g_cut[to] || !g_svc[to]) return 1; /* lost on a down link, or no firmware there */
    if (n && KOLO_FWM_W0_KIND_GET(w[0]) == KOLO_FWM_MSG_HOST && g_plant && (++g_host_pkts & 1u) == 0)
        return 1; /* plant: every second host message lost */
    if (g_qn == MAXQ) return 0;
    pkt *p = &g_q[g_qn++];
    p->at = g_now + MGMT_LATENCY * (uint64_t)k;
    p->to = to;
    p->src = me;
    p->n = n;
    memcpy(p->w, w, n * 4);
    return 1;
}

static void route_switch(void *ctx, const kolo_route_entry *t, unsigned n, uint16_t epoch) {
    (void)ctx, (void)t, (void)n, (void)epoch;
}

static void run(uint64_t cycles) {
    uint64_t end = g_now + cycles;
    for (; g_now < end; g_now++) {
        size_t k = 0;
        for (size_t i = 0; i < g_qn; i++) {
            if (g_q[i].at > g_now) {
                g_q[k++] = g_q[i];
                continue;
            }
            kolo_svc_mgmt_deliver(g_svc[g_q[i].to], g_q[i].src, g_q[i].w, g_q[i].n);
        }
        g_qn = k;
        for (unsigned i = 0; i < g_nlive; i++) {
            unsigned n = g_live[i];
            kolo_svc_set_time(g_svc[n], g_now);
            kolo_svc_mgmt_retry(g_svc[n]);
            if (kolo_svc_irq(g_svc[n]) || kolo_fw_deadline(g_fw[n]) <= g_now) kolo_fw_step(g_fw[n]);
        }
    }
}

static void set_links(void) {
    for (unsigned n = 0; n < g_nodes; n++) {
        if (!g_svc[n]) continue;
        uint16_t id = kolo_node_id_of_index(&g_t, n);
        for (int p = 0; p < 6; p++) {
            if (!kolo_port_present(&g_t, p)) continue;
            uint16_t nb = kolo_neighbor(&g_t, id, p);
            int up = !g_cut[n] && !g_cut[kolo_node_index(&g_t, nb)];
            kolo_svc_set_link(g_svc[n], p, up, nb, p ^ 1);
        }
    }
}

static void boot(unsigned n, int host_msg) {
    kolo_svc_env env = {&g_hal[n], mgmt_send, route_switch, NULL};
    if (g_svc[n])
        kolo_svc_free(g_svc[n]);
    else
        g_live[g_nlive++] = n;
    g_svc[n] = kolo_svc_new(kolo_node_id_of_index(&g_t, n), &g_t, &env);
    kolo_svc_set_time(g_svc[n], g_now);
    kolo_fw_config cfg;
    kolo_fw_default_config(&cfg);
    cfg.verbose = g_verbose > 1;
    cfg.host_msg = host_msg;
    if (kolo_fw_init(g_fw[n], &g_hal[n], &cfg, g_ws, g_ws_size, g_set, g_set ? kolo_fw_set_entries(&g_t) : 0)) {
        printf("FAIL: firmware init on node %u\n", n);
        exit(1);
    }
}

/* each node's host: the model's host port; waiting runs the network */
static int host_rd(void *u, uint32_t off, uint32_t *v) {
    return kolo_svc_read(g_svc[(uintptr_t)u], off, v, 1) ? KOLO_E_IO : 0;
}
/* a table switch at node n now (the same table, a new epoch) */
static void force_switch(unsigned n) {
    uint32_t installs = g_fw[n]->stats.installs;
    g_fw[n]->recompute_at = g_now ? g_now : 1;
    for (int i = 0; i < 10000 && g_fw[n]->stats.installs == installs; i++) run(1);
}
/* switch_off: the next host write of this offset is followed at once by a
 * table switch at that node (before its firmware looked at the word) */
static uint32_t g_switch_off = 0xffffffffu;
static unsigned g_switched;
static int host_wr(void *u, uint32_t off, uint32_t v) {
    int rc = kolo_svc_write(g_svc[(uintptr_t)u], off, v, 1) ? KOLO_E_IO : 0;
    if (off == g_switch_off) {
        g_switch_off = 0xffffffffu;
        g_switched++;
        force_switch((unsigned)(uintptr_t)u);
    }
    return rc;
}
static void host_wait(void *u) {
    (void)u;
    run(64);
}
static kolo_hmsg_port port(unsigned n) {
    kolo_hmsg_port p = {host_rd, host_wr, host_wait, (void *)(uintptr_t)n};
    return p;
}

typedef struct {
    uint16_t src;
    size_t len;
    uint8_t b[KOLO_FWM_HMSG_MAX_BYTES];
} msg;

static uint64_t g_seed;
static uint64_t rnd(void) {
    g_seed = g_seed * 6364136223846793005ull + 1442695040888963407ull;
    return g_seed >> 33;
}

/* the test's own counts, per node */
static uint32_t c_sent[NODES_X * NODES_Y], c_refused[NODES_X * NODES_Y], c_received[NODES_X * NODES_Y],
    c_dropped[NODES_X * NODES_Y], c_bad[NODES_X * NODES_Y];

/* take one message at node n: it must be want */
static int take(unsigned n, const msg *want, const char *what) {
    kolo_hmsg_port p = port(n);
    uint8_t buf[KOLO_FWM_HMSG_MAX_BYTES];
    size_t len = 0;
    uint16_t src = 0xffff;
    int rc = KOLO_E_AGAIN;
    for (int tries = 0; tries < 50 && rc == KOLO_E_AGAIN; tries++) {
        rc = kolo_hmsg_recv(&p, &src, buf, sizeof buf, &len);
        if (rc == KOLO_E_AGAIN) run(64);
    }
    int ok = rc == 0 && src == want->src && len == want->len && !memcmp(buf, want->b, len);

    CHECK(ok, "%s: node %u took rc %d from 0x%x, %zu bytes; want from 0x%x, %zu bytes%s", what, n, rc, src, len,
          want->src, want->len, rc == 0 && len == want->len ? " (other bytes)" : "");
    return ok;
}

static void random_msg(msg *m, uint16_t src, size_t maxlen) {
    m->src = src;
    m->len = 1 + (size_t)(rnd() % maxlen);
    for (size_t i = 0; i < m->len; i++) m->b[i] = (uint8_t)rnd();
}

static int send(unsigned from, unsigned to, const msg *m) {
    kolo_hmsg_port p = port(from);
    return kolo_hmsg_send(&p, kolo_node_id_of_index(&g_t, to), m->b, m->len);
}

/* a raw request (the host's words written directly): its TX_DONE status */
static unsigned raw_request(unsigned n, unsigned len, uint16_t dst, int same_seq) {
    uint32_t req = 0, done = 0;
    kolo_svc_read(g_svc[n], KOLO_FWM_HMSG_TX_REQ, &req, 1);
    uint32_t seq = (req + (same_seq ? 0u : 1u)) & KOLO_FWM_HMSG_TX_REQ_SEQ_MASK;
    kolo_svc_write(g_svc[n], KOLO_FWM_HMSG_TX_REQ,
                   seq | len << KOLO_FWM_HMSG_TX_REQ_LEN_SHIFT | (uint32_t)dst << KOLO_FWM_HMSG_TX_REQ_DST_SHIFT, 1);
    run(2 * KOLO_FWM_HMSG_POLL_CYCLES);
    kolo_svc_read(g_svc[n], KOLO_FWM_HMSG_TX_DONE, &done, 1);
    CHECK((done & KOLO_FWM_HMSG_TX_DONE_SEQ_MASK) == seq, "node %u: TX_DONE %#x does not answer request %u", n, done,
          seq);
    return (done & KOLO_FWM_HMSG_TX_DONE_STATUS_MASK) >> KOLO_FWM_HMSG_TX_DONE_STATUS_SHIFT;
}

static void check_counters(const char *when) {
    for (unsigned n = 0; n < g_nodes; n++) {
        kolo_hmsg_port p = port(n);
        kolo_hmsg_counters c;
        int rc = kolo_hmsg_get_counters(&p, &c);
        CHECK(rc == 0 && c.tx_sent == c_sent[n] && c.tx_refused == c_refused[n] && c.rx_received == c_received[n] &&
                  c.rx_dropped == c_dropped[n] && c.rx_bad == c_bad[n] && c.rx_queued == 0,
              "%s: node %u counters (rc %d) sent %u refused %u received %u dropped %u bad %u queued %u; want %u %u %u "
              "%u %u 0",
              when, n, rc, c.tx_sent, c.tx_refused, c.rx_received, c.rx_dropped, c.rx_bad, c.rx_queued, c_sent[n],
              c_refused[n], c_received[n], c_dropped[n], c_bad[n]);
    }
}

/* 8. a torus of more than 4032 nodes: 16x16x16, firmware on four nodes */
static void big_torus(void) {
    static const unsigned live[] = {0, 1, 4032, 4095};
    enum { NLIVE = sizeof live / sizeof live[0] };
    uint32_t sent[NLIVE] = {0}, received[NLIVE] = {0};
    g_t = (kolo_topo){{16, 16, 16}};
    g_nodes = kolo_topo_nodes(&g_t);
    printf("16x16x16 (%u nodes): firmware on nodes 0, 1, 4032, 4095 (id 0xfff), own-table checks\n", g_nodes);
    free(g_ws);
    g_ws_size = kolo_fw_workspace_size(&g_t);
    g_ws = malloc(g_ws_size);
    g_qn = 0;
    memset(g_cut, 0, sizeof g_cut);
    for (unsigned i = 0; i < NLIVE; i++) {
        g_hal[live[i]].node = (int)live[i];
        g_fw[live[i]] = malloc(sizeof(kolo_fw));
        boot(live[i], 1);
    }
    set_links();
    run(30000);
    for (unsigned i = 0; i < NLIVE; i++) {
        uint32_t id = 0;
        kolo_svc_read(g_svc[live[i]], KOLO_FWM_HMSG_ID, &id, 1);
        CHECK(g_fw[live[i]]->stage == KOLO_FW_RUNNING && id == KOLO_FWM_HMSG_AREA_ID,
              "16x16x16: node %u stage %d, HMSG_ID %#x (want %#x)", live[i], g_fw[live[i]]->stage, id,
              KOLO_FWM_HMSG_AREA_ID);
    }
    /* every ordered pair (a node to itself too); the table switched at every
     * node halfway */
    unsigned total = 0;
    for (unsigned f = 0; f < NLIVE && !g_bad; f++) {
        if (f == NLIVE / 2)
            for (unsigned i = 0; i < NLIVE; i++) force_switch(live[i]);
        for (unsigned t = 0; t < NLIVE && !g_bad; t++) {
            msg m;
            random_msg(&m, kolo_node_id_of_index(&g_t, live[f]), KOLO_FWM_HMSG_MAX_BYTES);
            int rc = send(live[f], live[t], &m);
            CHECK(rc == 0, "16x16x16: node %u -> %u: rc %d", live[f], live[t], rc);
            sent[f]++, received[t]++, total++;
            take(live[t], &m, "16x16x16");
        }
    }
    for (unsigned i = 0; i < NLIVE; i++) {
        kolo_hmsg_port p = port(live[i]);
        kolo_hmsg_counters c = {0};
        int rc = kolo_hmsg_get_counters(&p, &c);
        CHECK(rc == 0 && c.tx_sent == sent[i] && c.rx_received == received[i] && c.tx_refused == 0 &&
                  c.rx_dropped == 0 && c.rx_bad == 0 && c.rx_queued == 0,
              "16x16x16: node %u counters (rc %d) sent %u received %u refused %u dropped %u bad %u queued %u; want "
              "%u %u 0 0 0 0",
              live[i], rc, c.tx_sent, c.rx_received, c.tx_refused, c.rx_dropped, c.rx_bad, c.rx_queued, sent[i],
              received[i]);
    }
    printf("16x16x16: %u messages between nodes 0, 1, 4032 and 4095, %u table switches\n", total, NLIVE);
    for (unsigned i = 0; i < NLIVE; i++) {
        kolo_svc_free(g_svc[live[i]]);
        free(g_fw[live[i]]);
        g_svc[live[i]] = NULL, g_fw[live[i]] = NULL;
    }
}

int main(int argc, char **argv) {
    g_seed = 1;
    const char *env = getenv("SEED");
    if (env) g_seed = strtoull(env, NULL, 0);
    for (int i = 1; i < argc; i++) {
        if (!strncmp(argv[i], "--seed=", 7))
            g_seed = strtoull(argv[i] + 7, NULL, 0);
        else if (!strcmp(argv[i], "--plant=drop2"))
            g_plant = 1;
        else if (!strcmp(argv[i], "-v"))
            g_verbose++;
        else {
            fprintf(stderr, "usage: test_fw_hmsg [--seed=N] [--plant=drop2] [-v]\n");
            return 2;
        }
    }
    const uint64_t seed = g_seed;
    printf("test_fw_hmsg 3x2x1 seed %" PRIu64 " (SEED=%" PRIu64 " replays)%s\n", seed, seed,
           g_plant ? ", plant drop2" : "");
    g_nodes = kolo_topo_nodes(&g_t);
    g_ws_size = kolo_fw_workspace_size(&g_t);
    g_ws = malloc(g_ws_size);
    g_set = malloc(kolo_fw_set_entries(&g_t) * sizeof *g_set);
    for (unsigned n = 0; n < g_nodes; n++) {
        g_hal[n].node = (int)n;
        g_fw[n] = malloc(sizeof(kolo_fw));
        boot(n, 1);
    }
    msg m;
    /* 1. boot: the area is there, host writes open; links not up yet: not ready */
    {
        uint32_t id = 0, acc = 0;
        kolo_svc_read(g_svc[0], KOLO_FWM_HMSG_ID, &id, 1);
        kolo_svc_read(g_svc[0], KOLO_SVC_SYS_HOST_ACCESS, &acc, 1);
        CHECK(id == KOLO_FWM_HMSG_AREA_ID && acc == 1, "boot: HMSG_ID %#x, HOST_ACCESS %u", id, acc);
        random_msg(&m, 0, 8);
        int rc = send(0, 1, &m);
        CHECK(rc == KOLO_E_AGAIN, "a send before the links are up: rc %d, want %d (NOT_READY)", rc, KOLO_E_AGAIN);
        c_refused[0]++;
    }
    set_links();
    run(30000);
    for (unsigned n = 0; n < g_nodes; n++)
        CHECK(g_fw[n]->stage == KOLO_FW_RUNNING, "node %u: stage %d after boot", n, g_fw[n]->stage);

    /* 2. seeded messages between random pairs, in batches of the queue's size */
    unsigned total = 0;
    for (int round = 0; round < 12 && !g_bad; round++) {
        unsigned from = (unsigned)(rnd() % g_nodes), to = (unsigned)(rnd() % g_nodes);
        unsigned k = 1 + (unsigned)(rnd() % KOLO_FWM_HMSG_RXQ);
        msg batch[KOLO_FWM_HMSG_RXQ];
        for (unsigned i = 0; i < k; i++) {
            random_msg(&batch[i], kolo_node_id_of_index(&g_t, from), KOLO_FWM_HMSG_MAX_BYTES);
            int rc = send(from, to, &batch[i]);
            CHECK(rc == 0, "round %d: node %u -> %u message %u: rc %d", round, from, to, i, rc);
            c_sent[from]++;
            c_received[to]++;
        }
        for (unsigned i = 0; i < k && !g_bad; i++) take(to, &batch[i], "pairs");
        total += k;
    }
    printf("%u messages between random pairs\n", total);
    /* the longest message, to the farthest node and back */
    m.src = kolo_node_id_of_index(&g_t, 0);
    m.len = KOLO_FWM_HMSG_MAX_BYTES;
    for (size_t i = 0; i < m.len; i++) m.b[i] = (uint8_t)(0xA0 + i);
    CHECK(send(0, g_nodes - 1, &m) == 0, "a %d-byte message", KOLO_FWM_HMSG_MAX_BYTES);
    c_sent[0]++, c_received[g_nodes - 1]++;
    take(g_nodes - 1, &m, "longest");

    /* 3. bad input */
    {
        kolo_hmsg_port p0 = port(0);
        uint8_t b[KOLO_FWM_HMSG_MAX_BYTES + 1] = {0};
        CHECK(kolo_hmsg_send(&p0, 1, b, 0) == KOLO_E_LEN, "length 0 not refused by libkolo");
        CHECK(kolo_hmsg_send(&p0, 1, b, sizeof b) == KOLO_E_LEN, "length %zu not refused by libkolo", sizeof b);
        CHECK(kolo_hmsg_send(&p0, 0x1000, b, 1) == KOLO_E_NODE, "node id 0x1000 not refused by libkolo");
        CHECK(kolo_hmsg_send(&p0, 1, NULL, 1) == KOLO_E_INVAL, "NULL data not refused");
        unsigned st = raw_request(0, 0, 1, 0);
        CHECK(st == KOLO_FWM_ST_TOO_LONG, "raw request of length 0: status %u", st);
        st = raw_request(0, KOLO_FWM_HMSG_MAX_BYTES + 1, 1, 0);
        CHECK(st == KOLO_FWM_ST_TOO_LONG, "raw request of length %d: status %u", KOLO_FWM_HMSG_MAX_BYTES + 1, st);
        c_refused[0] += 2;
        uint16_t outside = (uint16_t)(NODES_X | 0u << 4); /* x = 3 in a 3-node ring */
        CHECK(kolo_hmsg_send(&p0, outside, b, 4) == KOLO_E_NODE, "node 0x%x outside the torus not refused", outside);
        c_refused[0]++;
        /* a repeated request number is not a new request */
        uint32_t sent_before = g_fw[0]->stats.hmsg_tx_sent + g_fw[0]->stats.hmsg_tx_refused;
        raw_request(0, 4, 1, 1);
        CHECK(g_fw[0]->stats.hmsg_tx_sent + g_fw[0]->stats.hmsg_tx_refused == sent_before,
              "a repeated request number was taken again");
        /* empty queue; a buffer too small keeps the message */
        uint16_t src;
        size_t len = 0;
        CHECK(kolo_hmsg_recv(&p0, &src, b, sizeof b, &len) == KOLO_E_AGAIN, "an empty queue: not KOLO_E_AGAIN");
        random_msg(&m, kolo_node_id_of_index(&g_t, 1), KOLO_FWM_HMSG_MAX_BYTES);
        if (m.len < 2) m.len = 2;
        CHECK(send(1, 0, &m) == 0, "node 1 -> 0");
        c_sent[1]++, c_received[0]++;
        run(500);
        int rc = kolo_hmsg_recv(&p0, &src, b, m.len - 1, &len);
        CHECK(rc == KOLO_E_LEN && len == m.len, "a buffer of %zu for %zu bytes: rc %d len %zu", m.len - 1, m.len, rc,
              len);
        take(0, &m, "after a short buffer");
        /* malformed MGMT messages of kind HOST straight into node 0's mailbox */
        uint32_t w[12];
        w[0] = (uint32_t)KOLO_FWM_MAGIC << 16 | 0u << 8 | KOLO_FWM_MSG_HOST; /* length 0 */
        kolo_svc_mgmt_deliver(g_svc[0], 1, w, 2);
        w[0] = (uint32_t)KOLO_FWM_MAGIC << 16 | 33u << 8 | KOLO_FWM_MSG_HOST; /* over the maximum */
        kolo_svc_mgmt_deliver(g_svc[0], 1, w, 10);
        w[0] = (uint32_t)KOLO_FWM_MAGIC << 16 | 9u << 8 | KOLO_FWM_MSG_HOST; /* 9 bytes in 1 word */
        kolo_svc_mgmt_deliver(g_svc[0], 1, w, 2);
        w[0] = (uint32_t)KOLO_FWM_MAGIC << 16 | 4u << 8 | KOLO_FWM_MSG_HOST; /* 4 bytes in 4 words */
        kolo_svc_mgmt_deliver(g_svc[0], 1, w, 5);
        c_bad[0] += 4;
        run(500);
        CHECK(kolo_hmsg_recv(&p0, &src, b, sizeof b, &len) == KOLO_E_AGAIN, "a malformed message reached the queue");
        check_counters("after bad input");
    }

    /* 4. a full queue: HMSG_RXQ + 3 to node 2, nobody takes */
    {
        msg q[KOLO_FWM_HMSG_RXQ + 3];
        for (unsigned i = 0; i < KOLO_FWM_HMSG_RXQ + 3; i++) {
            random_msg(&q[i], kolo_node_id_of_index(&g_t, 0), 6);
            CHECK(send(0, 2, &q[i]) == 0, "overflow message %u", i);
            c_sent[0]++;
            if (i < KOLO_FWM_HMSG_RXQ)
                c_received[2]++;
            else
                c_dropped[2]++;
        }
        run(500);
        for (unsigned i = 0; i < KOLO_FWM_HMSG_RXQ; i++) take(2, &q[i], "overflow");
        kolo_hmsg_port p2 = port(2);
        uint16_t src;
        size_t len;
        uint8_t b[KOLO_FWM_HMSG_MAX_BYTES];
        CHECK(kolo_hmsg_recv(&p2, &src, b, sizeof b, &len) == KOLO_E_AGAIN, "overflow: more than %d kept",
              KOLO_FWM_HMSG_RXQ);
        check_counters("after overflow");
    }

    /* 5. no route: node 4's links all down, the tables recomputed */
    {
        unsigned victim = 4;
        g_cut[victim] = 1;
        set_links();
        run(3000);
        random_msg(&m, 0, 8);
        int rc = send(0, victim, &m);
        CHECK(rc == KOLO_E_NOROUTE, "a send to node %u with its links down: rc %d, want %d", victim, rc,
              KOLO_E_NOROUTE);
        c_refused[0]++;
        g_cut[victim] = 0;
        set_links();
        run(3000);
        random_msg(&m, kolo_node_id_of_index(&g_t, 0), 8);
        rc = send(0, victim, &m);
        CHECK(rc == 0, "a send to node %u back up: rc %d", victim, rc);
        c_sent[0]++, c_received[victim]++;
        take(victim, &m, "back up");
        check_counters("after no route");
    }

    /* 6. table switches leave the area alone: a switch right after the host
     * wrote its request, and right after it wrote its ack */
    {
        force_switch(1);
        uint32_t before[KOLO_SVC_HMBOX_WORD_COUNT], after;
        for (unsigned i = 0; i < KOLO_SVC_HMBOX_WORD_COUNT; i++)
            kolo_svc_read(g_svc[1], KOLO_SVC_HMBOX_WORD(i), &before[i], 1);
        uint32_t sw0 = 0, sw1 = 0;
        kolo_svc_read(g_svc[1], KOLO_SVC_RT_SWITCHES, &sw0, 1);
        force_switch(1);
        kolo_svc_read(g_svc[1], KOLO_SVC_RT_SWITCHES, &sw1, 1);
        unsigned differ = 0;
        for (unsigned i = 0; i < KOLO_SVC_HMBOX_WORD_COUNT; i++) {
            kolo_svc_read(g_svc[1], KOLO_SVC_HMBOX_WORD(i), &after, 1);
            differ += after != before[i];
        }
        CHECK(sw1 == sw0 + 1 && differ == 0, "a table switch (RT_SWITCHES %u -> %u) changed %u words of the area", sw0,
              sw1, differ);
        msg a, b2;
        random_msg(&a, kolo_node_id_of_index(&g_t, 1), KOLO_FWM_HMSG_MAX_BYTES);
        random_msg(&b2, kolo_node_id_of_index(&g_t, 1), KOLO_FWM_HMSG_MAX_BYTES);
        g_switch_off = KOLO_FWM_HMSG_TX_REQ;
        CHECK(send(1, 3, &a) == 0, "a send with a table switch right after its request");
        CHECK(send(1, 3, &b2) == 0, "a send after it");
        c_sent[1] += 2, c_received[3] += 2;
        run(500);
        force_switch(3);
        g_switch_off = KOLO_FWM_HMSG_RX_ACK;
        take(3, &a, "a table switch right after the ack");
        take(3, &b2, "after it");
        kolo_hmsg_port p3 = port(3);
        uint16_t src;
        size_t len;
        uint8_t b[KOLO_FWM_HMSG_MAX_BYTES];
        CHECK(kolo_hmsg_recv(&p3, &src, b, sizeof b, &len) == KOLO_E_AGAIN, "a message delivered twice");
        CHECK(g_switched == 2, "%u switches after host writes, want 2", g_switched);
        check_counters("after table switches");
    }

    /* 7. a firmware without host messages */
    {
        boot(5, 0);
        set_links();
        run(3000);
        kolo_hmsg_port p5 = port(5);
        random_msg(&m, 0, 8);
        uint32_t ref0 = 0, ref1 = 0;
        kolo_svc_read(g_svc[5], KOLO_SVC_SYS_HOST_REFUSED, &ref0, 1);
        int rc = kolo_hmsg_send(&p5, 0, m.b, m.len);
        int wrc = host_wr((void *)(uintptr_t)5, KOLO_FWM_HMSG_TX_REQ, 1);
        kolo_svc_read(g_svc[5], KOLO_SVC_SYS_HOST_REFUSED, &ref1, 1);
        CHECK(rc == KOLO_E_NOSYS && wrc == KOLO_E_IO && ref1 == ref0 + 1,
              "host messages off: send rc %d (want %d), a host write rc %d, HOST_REFUSED %u -> %u", rc, KOLO_E_NOSYS,
              wrc, ref0, ref1);
    }
    uint64_t sent = 0, recv = 0;
    for (unsigned n = 0; n < g_nodes; n++) {
        sent += g_fw[n]->stats.hmsg_tx_sent;
        recv += g_fw[n]->stats.hmsg_rx_received;
    }
    printf("host messages sent %" PRIu64 ", received %" PRIu64 ", %" PRIu64 " cycles\n", sent, recv, g_now);
    for (unsigned n = 0; n < g_nodes; n++) {
        kolo_svc_free(g_svc[n]);
        free(g_fw[n]);
        g_svc[n] = NULL, g_fw[n] = NULL;
    }
    g_nlive = 0;
    free(g_set);
    g_set = NULL;
    big_torus();
    free(g_ws);
    printf("%s\n", g_bad ? "FAIL" : "PASS");
    return g_bad ? 1 : 0;
}
