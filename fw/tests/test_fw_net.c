/* test_fw_net.c - the firmware of every node of a torus, each over its own
 * service block model (kolo_svc_model), joined by an in-process MGMT network
 * (one hop per neighbour, a fixed latency, packets on a down link lost).
 * Scenarios fail links and nodes, flap links, partition and heal the torus;
 * after each, every live node must have installed exactly its row of
 * kolo_tableset_faults() for the true fault set, every installed set must
 * pass the deadlock check, and the firmware counters must be sane.
 * Usage: test_fw_net [--dims XxYxZ] [--seed N] [--random K] [--bench]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kolo_fw.h"
#include "kolo_svc_model.h"

#define MGMT_LATENCY 40 /* cycles per hop, header to mailbox */

struct kolo_hal {
    int node;
    struct net *net;
};

typedef struct {
    uint64_t at;
    int from, to, port; /* port it left `from` by */
    uint16_t src;
    unsigned n;
    uint32_t w[64];
} mgmt_pkt;

struct net {
    kolo_topo t;
    unsigned nodes;
    uint64_t now;
    kolo_faults truth;     /* what the test has broken */
    kolo_svc_model **svc;
    kolo_fw **fw;
    struct kolo_hal *hal;
    void *ws;
    size_t ws_size;
    kolo_route_entry *set; /* shared: firmware instances run one at a time */
    mgmt_pkt *q;
    size_t qn, qcap;
    uint64_t mgmt_lost, installs_seen;
    uint64_t *link_free; /* [node * 6 + port]: cycle the port may send again */
    int verbose;
    int bad;
};

static struct net *g_net;

uint32_t kolo_hal_read32(kolo_hal *h, uint32_t a) {
    uint32_t v = 0;
    kolo_svc_read(h->net->svc[h->node], a, &v, 0);
    return v;
}
void kolo_hal_write32(kolo_hal *h, uint32_t a, uint32_t v) {
    if (kolo_svc_write(h->net->svc[h->node], a, v, 0)) {
        fprintf(stderr, "FAIL: node %d firmware write 0x%x refused\n", h->node, a);
        h->net->bad = 1;
    }
}
uint64_t kolo_hal_time(kolo_hal *h) { return h->net->now; }
void kolo_hal_wait(kolo_hal *h, uint64_t deadline) { (void)h, (void)deadline; }
void kolo_hal_log(kolo_hal *h, const char *line) {
    if (h->net->verbose) printf("  [%8" PRIu64 "] %s\n", h->net->now, line);
}

static int mgmt_send(void *ctx, uint16_t dst, uint32_t rs, const uint32_t *w, unsigned n) {
    struct kolo_hal *h = ctx;
    struct net *net = h->net;
    /* the firmware sends one-hop packets only: find the port */
    int port = kolo_route_det_port(rs);
    uint16_t me = kolo_node_id_of_index(&net->t, (unsigned)h->node);
    if (port < 0 || port > 5 || kolo_neighbor(&net->t, me, port) != dst ||
        kolo_route_advance(rs, port) & (KOLO_RS_MASK & ~7u)) {
        fprintf(stderr, "FAIL: node %d sent MGMT with a route that is not one hop (dst 0x%x rs 0x%x)\n", h->node,
                dst, rs);
        net->bad = 1;
        return 1;
    }
    /* a link carries one flit per cycle: a port is busy while it sends */
    unsigned from = (unsigned)h->node;
    if (net->link_free[from * 6 + port] > net->now) return 0;
    net->link_free[from * 6 + port] = net->now + 2 + (n + 1) / 2;
    if (net->qn == net->qcap) {
        net->qcap = net->qcap ? 2 * net->qcap : 1024;
        net->q = realloc(net->q, net->qcap * sizeof *net->q);
    }
    mgmt_pkt *p = &net->q[net->qn++];
    p->at = net->now + MGMT_LATENCY;
    p->from = h->node;
    p->to = (int)kolo_node_index(&net->t, dst);
    p->port = port;
    p->src = me;
    p->n = n;
    memcpy(p->w, w, n * 4);
    return 1;
}

static void route_switch(void *ctx, const kolo_route_entry *t, unsigned n, uint16_t epoch) {
    (void)ctx, (void)t, (void)n, (void)epoch;
    g_net->installs_seen++;
}

static struct net *net_new(kolo_topo t, int verbose) {
    struct net *net = calloc(1, sizeof *net);
    g_net = net;
    net->t = t;
    net->nodes = kolo_topo_nodes(&t);
    net->verbose = verbose;
    kolo_faults_clear(&net->truth);
    net->svc = calloc(net->nodes, sizeof *net->svc);
    net->fw = calloc(net->nodes, sizeof *net->fw);
    net->hal = calloc(net->nodes, sizeof *net->hal);
    net->link_free = calloc((size_t)net->nodes * 6, sizeof *net->link_free);
    net->ws_size = kolo_fw_workspace_size(&t);
    net->ws = malloc(net->ws_size);
    size_t se = kolo_fw_set_entries(&t);
    net->set = se ? malloc(se * sizeof *net->set) : NULL;
    kolo_fw_config cfg;
    kolo_fw_default_config(&cfg);
    cfg.verbose = verbose > 1;
    for (unsigned i = 0; i < net->nodes; i++) {
        net->hal[i].node = (int)i;
        net->hal[i].net = net;
        kolo_svc_env env = {&net->hal[i], mgmt_send, route_switch, NULL};
        net->svc[i] = kolo_svc_new(kolo_node_id_of_index(&t, i), &t, &env);
        net->fw[i] = malloc(sizeof(kolo_fw));
        if (kolo_fw_init(net->fw[i], &net->hal[i], &cfg, net->ws, net->ws_size, net->set, se)) {
            fprintf(stderr, "FAIL: firmware init on node %u\n", i);
            exit(1);
        }
    }
    return net;
}

static void net_free(struct net *net) {
    for (unsigned i = 0; i < net->nodes; i++) {
        kolo_svc_free(net->svc[i]);
        free(net->fw[i]);
    }
    free(net->svc), free(net->fw), free(net->hal), free(net->ws), free(net->set), free(net->q), free(net->link_free), free(net);
}

static int link_up(const struct net *net, unsigned n, int p) {
    return kolo_faults_link_usable(&net->truth, &net->t, n, p);
}

/* drive the link status of both ends from the truth */
static void apply_links(struct net *net) {
    for (unsigned n = 0; n < net->nodes; n++) {
        if (net->truth.node_down[n]) continue;
        uint16_t id = kolo_node_id_of_index(&net->t, n);
        for (int p = 0; p < 6; p++) {
            if (!kolo_port_present(&net->t, p)) continue;
            int up = link_up(net, n, p);
            kolo_svc_set_link(net->svc[n], p, up, kolo_neighbor(&net->t, id, p), p ^ 1);
        }
    }
}

static void run(struct net *net, uint64_t cycles) {
    uint64_t end = net->now + cycles;
    for (; net->now < end; net->now++) {
        /* deliver MGMT due now; lost if the link or either node is down */
        size_t k = 0;
        for (size_t i = 0; i < net->qn; i++) {
            mgmt_pkt *p = &net->q[i];
            if (p->at > net->now) {
                net->q[k++] = *p;
                continue;
            }
            if (!link_up(net, (unsigned)p->from, p->port) || net->truth.node_down[p->to]) {
                net->mgmt_lost++;
                continue;
            }
            kolo_svc_mgmt_deliver(net->svc[p->to], p->src, p->w, p->n);
        }
        net->qn = k;
        for (unsigned n = 0; n < net->nodes; n++) {
            if (net->truth.node_down[n]) continue;
            kolo_svc_set_time(net->svc[n], net->now);
            kolo_svc_mgmt_retry(net->svc[n]);
            if (kolo_svc_irq(net->svc[n]) || kolo_fw_deadline(net->fw[n]) <= net->now) kolo_fw_step(net->fw[n]);
        }
    }
}

/* every live node installed its row of the true table set */
static int check_tables(struct net *net, const char *what) {
    kolo_route_entry *want = malloc((size_t)net->nodes * net->nodes * sizeof *want);
    void *ws = malloc(kolo_fw_workspace_size(&net->t));
    size_t wss = kolo_fw_workspace_size(&net->t);
    kolo_ft_report rep;
    int bad = 0;
    /* the firmware knows a failed node by its links only */
    kolo_faults links = net->truth;
    memset(links.node_down, 0, sizeof links.node_down);
    int rc = kolo_tableset_faults(&net->t, &links, want, ws, wss, &rep);
    if (rc) {
        printf("FAIL %s: kolo_tableset_faults: %s\n", what, kolo_route_strerror(rc));
        bad = 1;
    }
    /* the set the nodes run must be deadlock-free: assemble it from the NIs */
    kolo_route_entry *have = calloc((size_t)net->nodes * net->nodes, sizeof *have);
    for (unsigned n = 0; n < net->nodes && !bad; n++) {
        if (net->truth.node_down[n]) continue;
        uint16_t epoch;
        const kolo_route_entry *t = kolo_svc_active_table(net->svc[n], &epoch);
        memcpy(&have[(size_t)n * net->nodes], t, net->nodes * sizeof *t);
        if (net->fw[n]->stage != KOLO_FW_RUNNING) {
            printf("FAIL %s: node %u firmware stage %d\n", what, n, net->fw[n]->stage);
            bad = 1;
        }
        if (memcmp(t, &want[(size_t)n * net->nodes], net->nodes * sizeof *t)) {
            for (unsigned d = 0; d < net->nodes; d++)
                if (t[d] != want[(size_t)n * net->nodes + d]) {
                    printf("FAIL %s: node %u table[%u] = 0x%08x, expected 0x%08x (epoch %u)\n", what, n, d, t[d],
                           want[(size_t)n * net->nodes + d], epoch);
                    break;
                }
            bad = 1;
        }
    }
    kolo_deadlock_report dr;
    static kolo_deadlock_cert cert;
    kolo_cert_report cr = {0};
    if (!bad && (rc = kolo_deadlock_check_cert(&net->t, have, ws, wss, &dr, &cert)) != KOLO_OK) {
        printf("FAIL %s: installed set fails the deadlock check: %s\n", what, kolo_route_strerror(rc));
        bad = 1;
    }
    /* its certificate, verified by the separate checker (sw/route/kolo_cert.c) */
    if (!bad && (rc = kolo_deadlock_cert_check(&net->t, have, &cert, &cr)) != KOLO_OK) {
        printf("FAIL %s: the installed set's deadlock certificate is refused: %s (entry %#x -> %#x)\n", what,
               kolo_route_strerror(rc), cr.src, cr.dst);
        bad = 1;
    }
    if (!bad)
        printf("ok   %s: %u nodes agree, %u detoured, %u unreachable pairs; certified (%u rings, %u bubble, "
               "%u turns)\n",
               what, net->nodes, rep.detoured, rep.unreachable, cert.n_rings, cert.n_bubble, cr.turns);
    free(want), free(have), free(ws);
    return bad;
}

static uint64_t settle_time(const struct net *net) {
    /* flood diameter * latency + settle + slack */
    unsigned diam = net->t.size[0] + net->t.size[1] + net->t.size[2];
    return (uint64_t)diam * (MGMT_LATENCY + 20) + 2000;
}

static int boot(struct net *net) {
    apply_links(net);
    run(net, settle_time(net));
    return check_tables(net, "boot");
}

static uint64_t lcg(uint64_t *s) {
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return *s >> 33;
}

static int pick_link(struct net *net, uint64_t *s, unsigned *n, int *p) {
    for (int tries = 0; tries < 1000; tries++) {
        *n = (unsigned)(lcg(s) % net->nodes);
        *p = (int)(lcg(s) % 6);
        if (kolo_port_present(&net->t, *p)) return 1;
    }
    return 0;
}

int main(int argc, char **argv) {
    kolo_topo t = {{4, 4, 4}};
    uint64_t seed = 1;
    int randoms = 20, verbose = 0, bench = 0, control = 0;
    const char *env = getenv("SEED");
    if (env) seed = strtoull(env, NULL, 0);
    for (int i = 1; i < argc; i++) {
        unsigned x, y, z;
        if (sscanf(argv[i], "--dims=%ux%ux%u", &x, &y, &z) == 3) {
            t.size[0] = (uint8_t)x, t.size[1] = (uint8_t)y, t.size[2] = (uint8_t)z;
        } else if (!strncmp(argv[i], "--seed=", 7)) {
            seed = strtoull(argv[i] + 7, NULL, 0);
        } else if (!strncmp(argv[i], "--random=", 9)) {
            randoms = atoi(argv[i] + 9);
        } else if (!strcmp(argv[i], "-v")) {
            verbose++;
        } else if (!strcmp(argv[i], "--bench")) {
            bench = 1;
        } else if (!strcmp(argv[i], "--control")) {
            control = 1;
        } else {
            fprintf(stderr, "usage: test_fw_net [--dims=XxYxZ] [--seed=N] [--random=K] [--bench] [--control] [-v]\n");
            return 2;
        }
    }
    if (!kolo_topo_valid(&t)) {
        fprintf(stderr, "bad torus\n");
        return 2;
    }
    printf("test_fw_net %ux%ux%u seed %" PRIu64 " (SEED=%" PRIu64 " replays)\n", t.size[0], t.size[1], t.size[2],
           seed, seed);
    int bad = 0;
    struct net *net = net_new(t, verbose);
    bad |= boot(net);
    unsigned N = net->nodes;
    uint16_t first = 0;
    int fp = 0;
    while (!kolo_port_present(&t, fp)) fp++;

    /* 1. one link fails; measure the recovery time */
    uint64_t t0 = net->now;
    kolo_faults_set_link(&net->truth, &t, first, fp, 1);
    apply_links(net);
    if (control) {
        /* negative control: the firmware on the far end never hears of it */
        unsigned far = kolo_node_index(&t, kolo_neighbor(&t, kolo_node_id_of_index(&t, first), fp));
        net->truth.node_down[far] = 0;
        kolo_svc_set_link(net->svc[far], fp ^ 1, 1, kolo_node_id_of_index(&t, first), fp);
        for (size_t i = 0; i < net->qn; i++) net->q[i].at = UINT64_MAX;
        for (unsigned n = 0; n < N; n++) net->fw[n]->cfg.settle = UINT32_MAX;
    }
    run(net, settle_time(net));
    uint64_t last = 0;
    for (unsigned n = 0; n < N; n++)
        if (net->fw[n]->stats.last_install_time > last) last = net->fw[n]->stats.last_install_time;
    bad |= check_tables(net, "one link down");
    if (bench) printf("BENCH fault_recovery_cycles_fwnet %" PRIu64 " cycles\n", last - t0);
    if (control) {
        net_free(net);
        return bad ? 1 : 0; /* expected to fail */
    }

    /* 2. it comes back */
    kolo_faults_set_link(&net->truth, &t, first, fp, 0);
    apply_links(net);
    run(net, settle_time(net));
    bad |= check_tables(net, "link restored");

    /* 3. a node fails (its links die with it), then comes back */
    unsigned victim = N / 2 + 1 < N ? N / 2 + 1 : N - 1;
    kolo_faults_set_node(&net->truth, &t, victim, 1);
    for (int p = 0; p < 6; p++)
        if (kolo_port_present(&t, p)) kolo_faults_set_link(&net->truth, &t, victim, p, 1);
    apply_links(net);
    run(net, settle_time(net));
    bad |= check_tables(net, "node failed");
    kolo_faults_set_node(&net->truth, &t, victim, 0);
    for (int p = 0; p < 6; p++) kolo_faults_set_link(&net->truth, &t, victim, p, 0);
    /* a returning node reboots */
    {
        kolo_svc_env env = {&net->hal[victim], mgmt_send, route_switch, NULL};
        kolo_svc_free(net->svc[victim]);
        net->svc[victim] = kolo_svc_new(kolo_node_id_of_index(&t, victim), &t, &env);
        kolo_svc_set_time(net->svc[victim], net->now);
        kolo_fw_config cfg = net->fw[victim]->cfg;
        kolo_fw_init(net->fw[victim], &net->hal[victim], &cfg, net->ws, net->ws_size, net->set,
                     kolo_fw_set_entries(&t));
    }
    apply_links(net);
    run(net, settle_time(net));
    bad |= check_tables(net, "node back");

    /* 4. a flapping link: down/up several times faster than the settle time */
    for (int i = 0; i < 7; i++) {
        kolo_faults_set_link(&net->truth, &t, first, fp, (i & 1) == 0);
        apply_links(net);
        run(net, 150);
    }
    run(net, settle_time(net));
    bad |= check_tables(net, "flapping link (ends down)");
    kolo_faults_set_link(&net->truth, &t, first, fp, 0);
    apply_links(net);
    run(net, settle_time(net));

    /* 5. partition: cut every link of ring direction X between x = 0 and x = X-1
     * and between x = X/2-1 and X/2 (two cuts split an X ring), then heal */
    if (t.size[0] >= 3) {
        for (unsigned n = 0; n < N; n++) {
            kolo_coord c = kolo_node_coord(kolo_node_id_of_index(&t, n));
            if (c.c[0] == t.size[0] - 1 || c.c[0] == t.size[0] / 2 - 1)
                kolo_faults_set_link(&net->truth, &t, n, KOLO_PORT_XP, 1);
        }
        apply_links(net);
        run(net, settle_time(net));
        bad |= check_tables(net, "partition in X");
        for (unsigned n = 0; n < N; n++) kolo_faults_set_link(&net->truth, &t, n, KOLO_PORT_XP, 0);
        apply_links(net);
        run(net, settle_time(net));
        bad |= check_tables(net, "partition healed");
    }

    /* 6. random fault sets: 1..3 links, sometimes a node; applied at once */
    uint64_t s = seed;
    for (int r = 0; r < randoms && !bad; r++) {
        kolo_faults_clear(&net->truth);
        unsigned k = 1 + (unsigned)(lcg(&s) % 3);
        for (unsigned i = 0; i < k; i++) {
            unsigned n;
            int p;
            if (pick_link(net, &s, &n, &p)) kolo_faults_set_link(&net->truth, &t, n, p, 1);
        }
        if (lcg(&s) % 4 == 0) {
            unsigned n = (unsigned)(lcg(&s) % N);
            /* the node fails for good in this round; give it back afterwards */
            kolo_faults_set_node(&net->truth, &t, n, 1);
            for (int p = 0; p < 6; p++)
                if (kolo_port_present(&t, p)) kolo_faults_set_link(&net->truth, &t, n, p, 1);
        }
        apply_links(net);
        run(net, settle_time(net));
        char what[64];
        snprintf(what, sizeof what, "random fault set %d (%u links)", r, k);
        bad |= check_tables(net, what);
        /* heal everything: nodes that were down reboot */
        for (unsigned n = 0; n < N; n++) {
            if (!net->truth.node_down[n]) continue;
            net->truth.node_down[n] = 0;
            kolo_svc_env env = {&net->hal[n], mgmt_send, route_switch, NULL};
            kolo_svc_free(net->svc[n]);
            net->svc[n] = kolo_svc_new(kolo_node_id_of_index(&t, n), &t, &env);
            kolo_svc_set_time(net->svc[n], net->now);
            kolo_fw_config cfg = net->fw[n]->cfg;
            kolo_fw_init(net->fw[n], &net->hal[n], &cfg, net->ws, net->ws_size, net->set, kolo_fw_set_entries(&t));
        }
        kolo_faults_clear(&net->truth);
        apply_links(net);
        run(net, settle_time(net));
        bad |= check_tables(net, "healed");
    }
    uint64_t sent = 0, recv = 0, bad_mgmt = 0, fails = 0;
    for (unsigned n = 0; n < N; n++) {
        sent += net->fw[n]->stats.mgmt_sent;
        recv += net->fw[n]->stats.mgmt_received;
        bad_mgmt += net->fw[n]->stats.mgmt_bad;
        fails += net->fw[n]->stats.check_failures;
    }
    printf("MGMT packets sent %" PRIu64 ", received %" PRIu64 ", lost on down links %" PRIu64
           ", malformed %" PRIu64 ", table check failures %" PRIu64 ", table switches %" PRIu64 "\n",
           sent, recv, net->mgmt_lost, bad_mgmt, fails, net->installs_seen);
    if (bad_mgmt || fails) bad = 1;
    if (recv == 0 || net->mgmt_lost == 0) {
        printf("FAIL: the scenarios did not exercise flooding and loss\n");
        bad = 1;
    }
    net_free(net);
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad ? 1 : 0;
}
