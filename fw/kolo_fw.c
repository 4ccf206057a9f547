/* kolo_fw.c - kolo service-processor firmware: boot, link supervision, fault
 * flooding over MGMT packets, table recomputation with the shared routing
 * library, checks, and the double-buffered table switch. docs/firmware.md
 * describes the protocol; kolo_fw.h the interface. Freestanding C99.
 * About 770 lines with the host messages: one unit on purpose, since
 * every part shares the node's state (link records, tables, MGMT queue) and
 * the RV32 and PowerPC images build it as a single translation unit; the
 * host-message area is the next piece to move out if it grows. */
#include "kolo_fw.h"

#include "kolo_svc_regs.h"

/* ---- small freestanding helpers -------------------------------------------- */

typedef struct {
    char b[120];
    unsigned n;
} fw_line;

static void ln_s(fw_line *l, const char *s) {
    while (*s && l->n + 1 < sizeof l->b) l->b[l->n++] = *s++;
    l->b[l->n] = 0;
}

static void ln_u(fw_line *l, uint32_t v) {
    char t[11];
    int i = 0;
    do {
        t[i++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v && i < 10);
    while (i > 0 && l->n + 1 < sizeof l->b) l->b[l->n++] = t[--i];
    l->b[l->n] = 0;
}

static void ln_x(fw_line *l, uint32_t v, int digits) {
    static const char hex[] = "0123456789abcdef";
    ln_s(l, "0x");
    for (int i = digits - 1; i >= 0; i--)
        if (l->n + 1 < sizeof l->b) l->b[l->n++] = hex[(v >> (4 * i)) & 0xfu];
    l->b[l->n] = 0;
}

static void ln_start(fw_line *l, const kolo_fw *fw) {
    l->n = 0;
    l->b[0] = 0;
    ln_s(l, "fw ");
    ln_x(l, fw->self, 3);
    ln_s(l, ": ");
}

static void log_line(kolo_fw *fw, fw_line *l) { kolo_hal_log(fw->hal, l->b); }

static const char *const port_name[6] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-"};

static uint32_t rd(kolo_fw *fw, uint32_t a) { return kolo_hal_read32(fw->hal, a); }
static void wr(kolo_fw *fw, uint32_t a, uint32_t v) { kolo_hal_write32(fw->hal, a, v); }

/* ---- sizes ---------------------------------------------------------------- */

static size_t max_sz(size_t a, size_t b) { return a > b ? a : b; }

size_t kolo_fw_workspace_size(const kolo_topo *t) {
    size_t s = kolo_ft_workspace_size(t);
    s = max_sz(s, kolo_deadlock_workspace_size(t));
    s = max_sz(s, kolo_conn_workspace_size(t));
    return s;
}

size_t kolo_fw_set_entries(const kolo_topo *t) {
    size_t n = kolo_topo_nodes(t);
    return n <= KOLO_FW_MAX_CHECK_NODES ? n * n : 0;
}

void kolo_fw_default_config(kolo_fw_config *cfg) {
    cfg->boot_link_timeout = 20000;
    cfg->settle = 400;
    cfg->compute_cycles = 0;
    cfg->verbose = 0;
    cfg->host_msg = 0;
}

uint16_t kolo_fw_fault_digest(const kolo_faults *f, unsigned nodes) {
    uint32_t h = 0x811c9dc5u;
    for (unsigned i = 0; i < nodes; i++) {
        uint32_t v = f->port_down[i] | (uint32_t)f->node_down[i] << 8;
        if (!v) continue;
        h = (h ^ i) * 0x01000193u;
        h = (h ^ v) * 0x01000193u;
    }
    return (uint16_t)(h ^ (h >> 16));
}

/* ---- MGMT transmit queue --------------------------------------------------- */

/* route state for one hop through network port p */
static uint32_t one_hop_rs(int p) {
    int d = KOLO_PORT_DIM(p);
    uint32_t rs = kolo_rs_set_hops(0, d, 1);
    if (KOLO_PORT_MINUS(p)) rs |= KOLO_RS_SIGN(d);
    return rs;
}

static kolo_fw_msg *txq_push(kolo_fw *fw) {
    if (fw->txq_count == KOLO_FW_TXQ) {
        fw->stats.txq_full++;
        return 0;
    }
    kolo_fw_msg *m = &fw->txq[(fw->txq_head + fw->txq_count) % KOLO_FW_TXQ];
    fw->txq_count++;
    m->nwords = 0;
    return m;
}

/* Records wait in fw->pend (bit p: still to send through port p) and leave
 * coalesced, up to 31 per MGMT packet, so that a burst of news is a few
 * packets rather than one per record and port. */
static void pend_set(kolo_fw *fw, unsigned o, uint8_t ports) {
    uint8_t add = (uint8_t)(ports & ~fw->pend[o]);
    for (; add; add &= (uint8_t)(add - 1u)) fw->pend_count++;
    fw->pend[o] |= ports;
}

/* the next packet of pending records, if any: into the transmit queue */
static int pend_packet(kolo_fw *fw) {
    const unsigned per_pkt = (64u - 1u) / 2u;
    if (!fw->pend_count) return 0;
    int p = -1;
    for (unsigned o = 0; o < fw->nodes && p < 0; o++)
        if (fw->pend[o])
            for (int q = 0; q < 6; q++)
                if (fw->pend[o] & (1u << q)) {
                    p = q;
                    break;
                }
    if (p < 0) {
        fw->pend_count = 0;
    fw->last_sync_req = 0;
        return 0;
    }
    kolo_fw_msg *m = txq_push(fw);
    if (!m) return 0;
    m->dst = kolo_neighbor(&fw->topo, fw->self, p);
    m->rs = one_hop_rs(p);
    unsigned k = 0;
    for (unsigned o = 0; o < fw->nodes && k < per_pkt; o++) {
        if (!(fw->pend[o] & (1u << p))) continue;
        fw->pend[o] &= (uint8_t)~(1u << p);
        fw->pend_count--;
        m->w[1 + 2 * k] = o | (uint32_t)fw->rec[o].down << 12;
        m->w[2 + 2 * k] = fw->rec[o].seq;
        k++;
    }
    m->w[0] = (uint32_t)KOLO_FWM_MAGIC << 16 | (uint32_t)k << 8 | KOLO_FWM_MSG_LINKS;
    m->nwords = (uint8_t)(1 + 2 * k);
    return 1;
}

static void txq_drain(kolo_fw *fw) {
    for (;;) {
        if (!fw->txq_count && !pend_packet(fw)) return;
        if (rd(fw, KOLO_SVC_MBX_TX_STATUS) & KOLO_SVC_MBX_TX_STATUS_BUSY_MASK) {
            /* the mailbox still holds the last packet: look again soon (a
             * fixed time, not "now + 8" computed anew at every look) */
            fw->tx_retry_at = kolo_hal_time(fw->hal) + 8;
            return;
        }
        const kolo_fw_msg *m = &fw->txq[fw->txq_head];
        wr(fw, KOLO_SVC_MBX_TX_DST, m->dst);
        wr(fw, KOLO_SVC_MBX_TX_RS, m->rs);
        for (unsigned i = 0; i < m->nwords; i++) wr(fw, KOLO_SVC_MBX_TX_DATA, m->w[i]);
        wr(fw, KOLO_SVC_MBX_TX_SEND, 1);
        fw->stats.mgmt_sent++;
        fw->txq_head = (fw->txq_head + 1) % KOLO_FW_TXQ;
        fw->txq_count--;
    }
}

static uint8_t up_ports(const kolo_fw *fw) { return (uint8_t)(fw->present & fw->local_up & ~fw->local_down); }

/* forward one record to every neighbour whose link is up */
static void flood(kolo_fw *fw, uint16_t origin) { pend_set(fw, origin, up_ports(fw)); }

/* everything known, to one neighbour (a link came up: the two sides may have
 * lived through different histories, e.g. a healed partition) */
static void sync_to(kolo_fw *fw, int p) {
    for (unsigned i = 0; i < fw->nodes; i++)
        if (fw->rec[i].seq) pend_set(fw, i, (uint8_t)(1u << p));
}

/* ask every neighbour for everything it knows (my mailbox lost packets) */
static void request_sync(kolo_fw *fw) {
    uint64_t now = kolo_hal_time(fw->hal);
    /* at most one request per settle period: answers to a request can
     * overflow the mailbox again, and must not start a storm */
    if (fw->last_sync_req && now < fw->last_sync_req + fw->cfg.settle) return;
    fw->last_sync_req = now ? now : 1;
    fw->stats.sync_requests++;
    uint8_t up = up_ports(fw);
    for (int p = 0; p < 6; p++) {
        if (!(up & (1u << p))) continue;
        kolo_fw_msg *m = txq_push(fw);
        if (!m) return;
        m->dst = kolo_neighbor(&fw->topo, fw->self, p);
        m->rs = one_hop_rs(p);
        m->w[0] = (uint32_t)KOLO_FWM_MAGIC << 16 | KOLO_FWM_MSG_SYNC_REQ;
        m->nwords = 1;
    }
}

/* ---- fault set and tables --------------------------------------------------- */

static void fault_set_changed(kolo_fw *fw) {
    uint64_t now = kolo_hal_time(fw->hal);
    fw->stats.last_change_time = now;
    fw->recompute_at = now + fw->cfg.settle;
    if (fw->recompute_at == 0) fw->recompute_at = 1;
    fw->install_at = 0; /* a table computed for the old set is stale */
}

static void set_own_down(kolo_fw *fw, uint8_t down) {
    down &= fw->present;
    if (fw->rec[fw->self_index].down == down && fw->rec[fw->self_index].seq) return;
    fw->rec[fw->self_index].down = down;
    fw->rec[fw->self_index].seq++;
    if (fw->rec[fw->self_index].seq == 0) fw->rec[fw->self_index].seq = 1;
    flood(fw, (uint16_t)fw->self_index);
    fault_set_changed(fw);
}

static void build_faults(kolo_fw *fw) {
    kolo_faults_clear(&fw->faults);
    for (unsigned i = 0; i < fw->nodes; i++) {
        uint8_t d = fw->rec[i].down;
        for (int p = 0; p < 6; p++)
            if (d & (1u << p)) kolo_faults_set_link(&fw->faults, &fw->topo, i, p, 1);
    }
    /* A failed node is known by its links: its neighbours report them down.
     * Nothing more is inferred, so every node computes from the same facts. */
}

static void log_result(kolo_fw *fw, const char *what, int rc) {
    fw_line l;
    ln_start(&l, fw);
    ln_s(&l, what);
    ln_s(&l, ": ");
    ln_s(&l, kolo_route_strerror(rc));
    log_line(fw, &l);
}

/* SYS_FW_STATE shows the stage and the fault set of the installed table, for
 * the host (BAR0) and for simulators watching the bus */
static void show_stage(kolo_fw *fw) {
    wr(fw, KOLO_SVC_SYS_FW_STATE, (uint32_t)fw->stage | (uint32_t)fw->installed_digest << 16);
}

/* compute, check; on success the table waits in fw->table for install_at.
 * FW_STATE shows RECOMPUTING for as long as it takes (on an RV32 core the
 * whole-set computation and checks of a small torus take a few hundred
 * thousand cycles: the host and simulators must not mistake the quiet bus
 * for a settled node) */
static void recompute(kolo_fw *fw) {
    uint64_t now = kolo_hal_time(fw->hal);
    fw->stats.recomputes++;
    fw->stage = KOLO_FW_RECOMPUTING;
    show_stage(fw);
    build_faults(fw);
    int rc;
    if (fw->set) {
        rc = kolo_tableset_faults(&fw->topo, &fw->faults, fw->set, fw->ws, fw->ws_size, &fw->last_report);
        if (rc == KOLO_OK) {
            kolo_deadlock_report dr;
            rc = kolo_deadlock_check(&fw->topo, fw->set, fw->ws, fw->ws_size, &dr);
            if (rc != KOLO_OK) log_result(fw, "deadlock check failed, table not installed", rc);
        }
        if (rc == KOLO_OK) {
            kolo_conn_report cr;
            rc = kolo_connectivity_check(&fw->topo, &fw->faults, fw->set, fw->ws, fw->ws_size, &cr);
            if (rc == KOLO_E_UNROUTED) {
                /* the live links connect some pair that no first/last-step route
                 * reaches without a cycle: it stays unreachable (error
                 * completions), the rest of the table is good */
                fw->stats.unrouted_pairs = cr.bad_entries;
                if (fw->cfg.verbose) log_result(fw, "connected pairs left unreachable", rc);
                rc = KOLO_OK;
            } else if (rc != KOLO_OK) {
                log_result(fw, "connectivity check failed, table not installed", rc);
            }
        }
        if (rc == KOLO_OK)
            for (unsigned d = 0; d < fw->nodes; d++) fw->table[d] = fw->set[fw->self_index * fw->nodes + d];
    } else {
        rc = kolo_table_faults(&fw->topo, &fw->faults, fw->self, fw->table, fw->ws, fw->ws_size,
                               &fw->last_report);
        /* own paths only: each valid entry reaches its destination over live links */
        for (unsigned d = 0; rc == KOLO_OK && d < fw->nodes; d++) {
            if (!(fw->table[d] & KOLO_RE_VALID)) continue;
            kolo_hop hops[KOLO_PATH_MAX];
            int n = kolo_route_path_to(&fw->topo, fw->self, kolo_node_id_of_index(&fw->topo, d), fw->table[d],
                                       hops, KOLO_PATH_MAX);
            if (n < 0) rc = n;
            for (int h = 0; rc == KOLO_OK && h < n - 1; h++)
                if (!kolo_faults_link_usable(&fw->faults, &fw->topo, kolo_node_index(&fw->topo, hops[h].node),
                                             hops[h].port))
                    rc = KOLO_E_FAULT;
        }
        if (rc != KOLO_OK) log_result(fw, "table check failed, table not installed", rc);
    }
    if (rc != KOLO_OK) {
        fw->stats.check_failures++;
        fw->stage = KOLO_FW_RUNNING;
        show_stage(fw);
        return;
    }
    fw->fault_digest = kolo_fw_fault_digest(&fw->faults, fw->nodes);
    fw->install_at = now + fw->cfg.compute_cycles;
    if (fw->install_at == 0) fw->install_at = 1;
}

static void install(kolo_fw *fw) {
    unsigned unreachable = 0;
    for (unsigned d = 0; d < fw->nodes; d++) {
        wr(fw, KOLO_SVC_RT_SHADOW_ENTRY(d), fw->table[d]);
        if (!(fw->table[d] & KOLO_RE_VALID)) unreachable++;
    }
    fw->epoch++;
    wr(fw, KOLO_SVC_RT_EPOCH, fw->epoch);
    fw->installed_digest = fw->fault_digest;
    fw->stats.installs++;
    fw->stats.unreachable_dsts = unreachable;
    fw->stats.last_install_time = kolo_hal_time(fw->hal);
    fw->stage = KOLO_FW_RUNNING;
    show_stage(fw);
    if (fw->cfg.verbose) {
        fw_line l;
        ln_start(&l, fw);
        ln_s(&l, "table epoch ");
        ln_u(&l, fw->epoch);
        ln_s(&l, " installed: ");
        ln_u(&l, fw->last_report.detoured);
        ln_s(&l, " detoured, ");
        ln_u(&l, unreachable);
        ln_s(&l, " unreachable, faults ");
        ln_x(&l, fw->installed_digest, 4);
        log_line(fw, &l);
    }
}

/* ---- events and mailbox ------------------------------------------------------- */

static void port_up(kolo_fw *fw, int p) {
    uint32_t peer = rd(fw, KOLO_SVC_LINK_PEER(p));
    uint16_t want = kolo_neighbor(&fw->topo, fw->self, p);
    uint16_t got = (uint16_t)(peer & KOLO_SVC_LINK_PEER_ID_MASK);
    int got_port = (int)((peer & KOLO_SVC_LINK_PEER_PORT_MASK) >> KOLO_SVC_LINK_PEER_PORT_SHIFT);
    fw_line l;
    if (!(peer & KOLO_SVC_LINK_PEER_VALID_MASK) || got != want || got_port != (p ^ 1)) {
        fw->stats.miscabled++;
        ln_start(&l, fw);
        ln_s(&l, "link ");
        ln_s(&l, port_name[p]);
        ln_s(&l, " reaches ");
        ln_x(&l, got, 3);
        ln_s(&l, " instead of ");
        ln_x(&l, want, 3);
        ln_s(&l, ": kept out of use");
        log_line(fw, &l);
        fw->local_up &= (uint8_t)~(1u << p);
        set_own_down(fw, (uint8_t)(fw->local_down | 1u << p));
        fw->local_down |= (uint8_t)(1u << p);
        return;
    }
    fw->stats.link_up++;
    fw->local_up |= (uint8_t)(1u << p);
    if (fw->cfg.verbose) {
        ln_start(&l, fw);
        ln_s(&l, "link ");
        ln_s(&l, port_name[p]);
        ln_s(&l, " up");
        log_line(fw, &l);
    }
    if (fw->stage >= KOLO_FW_RUNNING) {
        fw->local_down &= (uint8_t)~(1u << p);
        set_own_down(fw, fw->local_down);
        sync_to(fw, p);
    } else if ((fw->local_up & fw->present) == fw->present) {
        fw->local_down = 0;
        fw->stage = KOLO_FW_RUNNING;
        show_stage(fw);
        for (int q = 0; q < 6; q++)
            if (fw->present & (1u << q)) sync_to(fw, q);
    }
}

static void port_down(kolo_fw *fw, int p) {
    fw->stats.link_down++;
    fw->local_up &= (uint8_t)~(1u << p);
    if (fw->cfg.verbose) {
        fw_line l;
        ln_start(&l, fw);
        ln_s(&l, "link ");
        ln_s(&l, port_name[p]);
        ln_s(&l, " down");
        log_line(fw, &l);
    }
    if (fw->stage >= KOLO_FW_RUNNING) {
        fw->local_down |= (uint8_t)(1u << p);
        set_own_down(fw, fw->local_down);
    }
}

static void handle_events(kolo_fw *fw) {
    for (int guard = 0; guard < 64; guard++) {
        uint32_t e = rd(fw, KOLO_SVC_EVT_DATA);
        unsigned type = (e & KOLO_SVC_EVT_DATA_TYPE_MASK) >> KOLO_SVC_EVT_DATA_TYPE_SHIFT;
        int p = (int)((e & KOLO_SVC_EVT_DATA_PORT_MASK) >> KOLO_SVC_EVT_DATA_PORT_SHIFT);
        if (type == KOLO_SVC_EVT_NONE) break;
        fw->stats.events++;
        if (p > 5) continue;
        switch (type) {
        case KOLO_SVC_EVT_LINK_UP: port_up(fw, p); break;
        case KOLO_SVC_EVT_LINK_DOWN: port_down(fw, p); break;
        case KOLO_SVC_EVT_MISCABLED:
            fw->stats.miscabled++;
            port_down(fw, p);
            break;
        case KOLO_SVC_EVT_ERR_THRESHOLD: fw->stats.err_threshold++; break;
        case KOLO_SVC_EVT_MBX_OVERFLOW:
            fw->stats.mbx_overflow++;
            request_sync(fw);
            break;
        case KOLO_SVC_EVT_SP_FAULT: {
            /* this processor faulted earlier (its trap handler has printed
             * the details); the block counted it in SYS_SP_FAULTS */
            uint32_t info = (e & KOLO_SVC_EVT_DATA_INFO_MASK) >> KOLO_SVC_EVT_DATA_INFO_SHIFT;
            fw_line l;
            fw->stats.sp_faults++;
            ln_start(&l, fw);
            ln_s(&l, "service processor fault, cause ");
            ln_u(&l, info & 0xfu);
            ln_s(&l, " at pc ");
            ln_x(&l, (info >> 4) << 2, 6);
            ln_s(&l, " (pc bits 21:2)");
            log_line(fw, &l);
            break;
        }
        default: break;
        }
    }
    if (rd(fw, KOLO_SVC_EVT_STATUS) & KOLO_SVC_EVT_STATUS_OVERFLOW_MASK) {
        /* events were lost: resynchronise from the link status registers */
        wr(fw, KOLO_SVC_EVT_CTRL, KOLO_SVC_EVT_CTRL_CLEAR_MASK);
        for (int p = 0; p < 6; p++) {
            if (!(fw->present & (1u << p))) continue;
            int up = (rd(fw, KOLO_SVC_LINK_STATUS(p)) & KOLO_SVC_LINK_STATUS_UP_MASK) != 0;
            int was = (fw->local_up >> p) & 1;
            if (up && !was) port_up(fw, p);
            if (!up && was) port_down(fw, p);
        }
    }
}

/* ---- host messages (docs/firmware.md "Host messages", kolo_fw_msg.h) ---------- */

static void hmsg_counters(kolo_fw *fw) {
    wr(fw, KOLO_FWM_HMSG_TX_SENT, fw->stats.hmsg_tx_sent);
    wr(fw, KOLO_FWM_HMSG_TX_REFUSED, fw->stats.hmsg_tx_refused);
    wr(fw, KOLO_FWM_HMSG_RX_RECEIVED, fw->stats.hmsg_rx_received);
    wr(fw, KOLO_FWM_HMSG_RX_DROPPED, fw->stats.hmsg_rx_dropped);
    wr(fw, KOLO_FWM_HMSG_RX_BAD, fw->stats.hmsg_rx_bad);
    wr(fw, KOLO_FWM_HMSG_RX_QUEUED, fw->hmsg_count);
}

/* RX_DATA, then RX_HEAD: the queue's head under hmsg_rx_seq, or LEN 0 */
static void hmsg_show(kolo_fw *fw) {
    uint32_t head = fw->hmsg_rx_seq;
    if (fw->hmsg_count) {
        const kolo_fw_hmsg *m = &fw->hmsg_q[fw->hmsg_head];
        for (unsigned i = 0; i < (m->len + 3u) / 4u; i++) wr(fw, KOLO_FWM_HMSG_RX_DATA(i), m->w[i]);
        head |= (uint32_t)m->len << KOLO_FWM_HMSG_RX_HEAD_LEN_SHIFT | (uint32_t)m->src << KOLO_FWM_HMSG_RX_HEAD_SRC_SHIFT;
    }
    wr(fw, KOLO_FWM_HMSG_RX_HEAD, head);
}

/* into the queue for the host; a full queue drops it, counted */
static void hmsg_enqueue(kolo_fw *fw, uint16_t src, unsigned len, const uint32_t *w) {
    if (fw->hmsg_count == KOLO_FWM_HMSG_RXQ) {
        fw->stats.hmsg_rx_dropped++;
        hmsg_counters(fw);
        return;
    }
    kolo_fw_hmsg *m = &fw->hmsg_q[(fw->hmsg_head + fw->hmsg_count) % KOLO_FWM_HMSG_RXQ];
    m->src = src;
    m->len = (uint8_t)len;
    for (unsigned i = 0; i < KOLO_FWM_HMSG_WORDS; i++) m->w[i] = i < (len + 3u) / 4u ? w[i] : 0u;
    fw->stats.hmsg_rx_received++;
    if (++fw->hmsg_count == 1) {
        fw->hmsg_rx_seq++;
        hmsg_show(fw);
    }
    hmsg_counters(fw);
}

/* a MGMT message of kind HOST in the mailbox, word 0 read: COUNT bytes in
 * ceil(COUNT / 4) words (one word of padding allowed, as for LINKS) */
static void hmsg_receive(kolo_fw *fw, unsigned len, unsigned words) {
    unsigned nw = (len + 3u) / 4u;
    if (!fw->hmsg_on || len == 0 || len > KOLO_FWM_HMSG_MAX_BYTES || words < 1 + nw || words > 2 + nw) {
        fw->stats.hmsg_rx_bad++;
        if (fw->hmsg_on) hmsg_counters(fw);
        return;
    }
    uint16_t src = (uint16_t)(rd(fw, KOLO_SVC_MBX_RX_SRC) & KOLO_SVC_MBX_RX_SRC_SRC_MASK);
    uint32_t w[KOLO_FWM_HMSG_WORDS];
    for (unsigned i = 0; i < nw; i++) w[i] = rd(fw, KOLO_SVC_MBX_RX_DATA);
    hmsg_enqueue(fw, src, len, w);
}

/* the host's send request (TX_REQ, TX_DATA): checked, then into the MGMT
 * transmit queue with the installed table's route to the destination */
static unsigned hmsg_send(kolo_fw *fw, uint32_t req) {
    unsigned len = (req & KOLO_FWM_HMSG_TX_REQ_LEN_MASK) >> KOLO_FWM_HMSG_TX_REQ_LEN_SHIFT;
    uint16_t dst = (uint16_t)((req & KOLO_FWM_HMSG_TX_REQ_DST_MASK) >> KOLO_FWM_HMSG_TX_REQ_DST_SHIFT);
    unsigned nw = (len + 3u) / 4u;
    uint32_t w[KOLO_FWM_HMSG_WORDS];
    if (len == 0 || len > KOLO_FWM_HMSG_MAX_BYTES) return KOLO_FWM_ST_TOO_LONG;
    if (!kolo_node_in_topo(&fw->topo, dst)) return KOLO_FWM_ST_NO_NODE;
    if (fw->stage != KOLO_FW_RUNNING && fw->stage != KOLO_FW_RECOMPUTING) return KOLO_FWM_ST_NOT_READY;
    for (unsigned i = 0; i < nw; i++) w[i] = rd(fw, KOLO_FWM_HMSG_TX_DATA(i));
    if (len & 3u) w[nw - 1] &= (1u << (8u * (len & 3u))) - 1u; /* bytes past LEN go as 0 */
    if (dst == fw->self) {
        hmsg_enqueue(fw, dst, len, w);
        return KOLO_FWM_ST_OK;
    }
    kolo_route_entry e = fw->table[kolo_node_index(&fw->topo, dst)];
    if (!(e & KOLO_RE_VALID)) return KOLO_FWM_ST_NO_ROUTE;
    kolo_fw_msg *m = txq_push(fw);
    if (!m) return KOLO_FWM_ST_BUSY;
    m->dst = dst;
    m->rs = e & KOLO_RS_MASK;
    m->w[0] = (uint32_t)KOLO_FWM_MAGIC << 16 | (uint32_t)len << 8 | KOLO_FWM_MSG_HOST;
    for (unsigned i = 0; i < nw; i++) m->w[1 + i] = w[i];
    m->nwords = (uint8_t)(1 + nw);
    return KOLO_FWM_ST_OK;
}

/* the host's words: a new send request, the message shown taken */
static void hmsg_poll(kolo_fw *fw) {
    fw->hmsg_poll_at = kolo_hal_time(fw->hal) + KOLO_FWM_HMSG_POLL_CYCLES;
    if (fw->hmsg_count &&
        (rd(fw, KOLO_FWM_HMSG_RX_ACK) & KOLO_FWM_HMSG_RX_ACK_SEQ_MASK) == fw->hmsg_rx_seq) {
        fw->hmsg_head = (fw->hmsg_head + 1) % KOLO_FWM_HMSG_RXQ;
        fw->hmsg_count--;
        if (fw->hmsg_count) fw->hmsg_rx_seq++;
        hmsg_show(fw);
        wr(fw, KOLO_FWM_HMSG_RX_QUEUED, fw->hmsg_count);
    }
    uint32_t req = rd(fw, KOLO_FWM_HMSG_TX_REQ);
    uint8_t seq = (uint8_t)(req & KOLO_FWM_HMSG_TX_REQ_SEQ_MASK);
    if (seq == fw->hmsg_tx_seq) return;
    unsigned st = hmsg_send(fw, req);
    if (st == KOLO_FWM_ST_OK)
        fw->stats.hmsg_tx_sent++;
    else
        fw->stats.hmsg_tx_refused++;
    fw->hmsg_tx_seq = seq;
    fw->hmsg_tx_status = (uint8_t)st;
    hmsg_counters(fw);
    wr(fw, KOLO_FWM_HMSG_TX_DONE, seq | st << KOLO_FWM_HMSG_TX_DONE_STATUS_SHIFT);
}

/* at boot: the area (in the service block's host mailbox, HMBOX: a table
 * switch leaves it alone, so it serves every torus size) cleared, host
 * writes opened, the area's id last */
static void hmsg_init(kolo_fw *fw) {
    fw->hmsg_on = fw->cfg.host_msg;
    fw->hmsg_tx_seq = fw->hmsg_rx_seq = fw->hmsg_tx_status = 0;
    fw->hmsg_head = fw->hmsg_count = 0;
    fw->hmsg_poll_at = 0;
    if (!fw->hmsg_on) return;
    wr(fw, KOLO_FWM_HMSG_ID, 0);
    for (uint32_t a = KOLO_FWM_HMSG_TX_REQ; a <= KOLO_FWM_HMSG_RX_QUEUED; a += 4) wr(fw, a, 0);
    wr(fw, KOLO_FWM_HMSG_ID, KOLO_FWM_HMSG_AREA_ID);
    wr(fw, KOLO_SVC_SYS_HOST_ACCESS, KOLO_SVC_SYS_HOST_ACCESS_WRITE_EN_MASK);
}

static void handle_mailbox(kolo_fw *fw) {
    for (int guard = 0; guard < 64; guard++) {
        uint32_t st = rd(fw, KOLO_SVC_MBX_RX_STATUS);
        if (!(st & KOLO_SVC_MBX_RX_STATUS_PACKETS_MASK)) break;
        unsigned words = (st & KOLO_SVC_MBX_RX_STATUS_WORDS_MASK) >> KOLO_SVC_MBX_RX_STATUS_WORDS_SHIFT;
        fw->stats.mgmt_received++;
        uint32_t w0 = words ? rd(fw, KOLO_SVC_MBX_RX_DATA) : 0;
        unsigned k = (w0 >> 8) & 0xffu;
        if ((w0 >> 16) == KOLO_FWM_MAGIC && (w0 & 0xffu) == KOLO_FWM_MSG_SYNC_REQ) {
            /* a neighbour lost packets: send it everything, on every up link to it */
            uint16_t src = (uint16_t)(rd(fw, KOLO_SVC_MBX_RX_SRC) & KOLO_SVC_MBX_RX_SRC_SRC_MASK);
            uint8_t up = up_ports(fw);
            for (int p = 0; p < 6; p++)
                if ((up & (1u << p)) && kolo_neighbor(&fw->topo, fw->self, p) == src) sync_to(fw, p);
            wr(fw, KOLO_SVC_MBX_RX_POP, 1);
            continue;
        }
        if ((w0 >> 16) == KOLO_FWM_MAGIC && (w0 & 0xffu) == KOLO_FWM_MSG_HOST) {
            hmsg_receive(fw, k, words);
            wr(fw, KOLO_SVC_MBX_RX_POP, 1);
            continue;
        }
        if ((w0 >> 16) != KOLO_FWM_MAGIC || (w0 & 0xffu) != KOLO_FWM_MSG_LINKS || words < 1 + 2 * k || words > 2 + 2 * k) {
            /* (one word of padding is allowed: a transport may round up to 8-byte flits) */
            fw->stats.mgmt_bad++;
            wr(fw, KOLO_SVC_MBX_RX_POP, 1);
            continue;
        }
        for (unsigned i = 0; i < k; i++) {
            uint32_t a = rd(fw, KOLO_SVC_MBX_RX_DATA);
            uint16_t seq = (uint16_t)rd(fw, KOLO_SVC_MBX_RX_DATA);
            unsigned o = a & 0xfffu;
            uint8_t down = (uint8_t)((a >> 12) & 0x3fu);
            if (o >= fw->nodes || seq == 0) {
                fw->stats.mgmt_bad++;
                continue;
            }
            if (o == fw->self_index) {
                /* news about me that is not older than mine: I rebooted and
                 * the others remember an earlier life; restate my links with
                 * a sequence number above theirs */
                int16_t mine = (int16_t)(uint16_t)(seq - fw->rec[o].seq);
                if (mine >= 0 && (seq != fw->rec[o].seq || down != fw->rec[o].down)) {
                    uint16_t next = (uint16_t)(seq + 1u);
                    fw->rec[o].seq = next ? next : 1u;
                    flood(fw, (uint16_t)o);
                }
                continue;
            }
            /* newer wins; seq numbers are 16-bit and compared as a window */
            int16_t ahead = (int16_t)(uint16_t)(seq - fw->rec[o].seq);
            if (fw->rec[o].seq && ahead <= 0) {
                fw->stats.records_stale++;
                continue;
            }
            fw->stats.records_new++;
            uint8_t old = fw->rec[o].down;
            fw->rec[o].seq = seq;
            fw->rec[o].down = down;
            flood(fw, (uint16_t)o);
            if (old != down) fault_set_changed(fw);
        }
        wr(fw, KOLO_SVC_MBX_RX_POP, 1);
    }
}

/* ---- boot and loop ------------------------------------------------------------- */

int kolo_fw_init(kolo_fw *fw, kolo_hal *hal, const kolo_fw_config *cfg, void *ws, size_t ws_size,
                 kolo_route_entry *set, size_t set_entries) {
    /* the instance is large: clear only what must start at zero */
    fw->hal = hal;
    fw->cfg = *cfg;
    fw->stats = (kolo_fw_stats){0};
    fw->stage = KOLO_FW_BOOT;
    fw->txq_head = fw->txq_count = 0;
    fw->pend_count = 0;
    fw->recompute_at = fw->install_at = 0;
    fw->epoch = 0;
    fw->local_down = fw->local_up = 0;
    fw->ws = ws;
    fw->ws_size = ws_size;
    fw_line l;
    uint32_t id = kolo_hal_read32(hal, KOLO_SVC_SYS_ID);
    uint32_t tor = kolo_hal_read32(hal, KOLO_SVC_SYS_TORUS);
    fw->self = (uint16_t)(kolo_hal_read32(hal, KOLO_SVC_SYS_NODE_ID) & KOLO_SVC_SYS_NODE_ID_ID_MASK);
    fw->topo.size[0] = (uint8_t)(((tor & KOLO_SVC_SYS_TORUS_XM1_MASK) >> KOLO_SVC_SYS_TORUS_XM1_SHIFT) + 1);
    fw->topo.size[1] = (uint8_t)(((tor & KOLO_SVC_SYS_TORUS_YM1_MASK) >> KOLO_SVC_SYS_TORUS_YM1_SHIFT) + 1);
    fw->topo.size[2] = (uint8_t)(((tor & KOLO_SVC_SYS_TORUS_ZM1_MASK) >> KOLO_SVC_SYS_TORUS_ZM1_SHIFT) + 1);
    int bad = id != KOLO_SVC_SYS_ID_RESET || !kolo_topo_valid(&fw->topo) || !kolo_node_in_topo(&fw->topo, fw->self);
    if (!bad && ws_size < kolo_fw_workspace_size(&fw->topo)) bad = 2;
    if (bad) {
        fw->stage = KOLO_FW_FAILED;
        kolo_hal_write32(hal, KOLO_SVC_SYS_FW_STATE, KOLO_FW_FAILED);
        l.n = 0;
        ln_s(&l, bad == 2 ? "fw: routing workspace too small" : "fw: bad service block id, node id or torus");
        log_line(fw, &l);
        return -1;
    }
    fw->nodes = kolo_topo_nodes(&fw->topo);
    fw->self_index = kolo_node_index(&fw->topo, fw->self);
    fw->set = set_entries >= kolo_fw_set_entries(&fw->topo) && kolo_fw_set_entries(&fw->topo) ? set : 0;
    fw->set_entries = fw->set ? set_entries : 0;
    fw->hmsg_on = 0; /* until hmsg_init, after the first table */
    for (unsigned i = 0; i < fw->nodes; i++) fw->rec[i].seq = 0, fw->rec[i].down = 0, fw->pend[i] = 0;
    fw->present = 0;
    for (int p = 0; p < 6; p++)
        if (kolo_port_present(&fw->topo, p)) fw->present |= (uint8_t)(1u << p);
    wr(fw, KOLO_SVC_SYS_FW_STATE, KOLO_FW_BOOT);
    /* the fault-free table first, so that the NI can route as soon as links are up */
    kolo_table_default(&fw->topo, fw->self, fw->table);
    kolo_faults_clear(&fw->faults);
    fw->fault_digest = kolo_fw_fault_digest(&fw->faults, fw->nodes);
    fw->last_report = (kolo_ft_report){0};
    install(fw);
    hmsg_init(fw);
    fw->stage = KOLO_FW_LINKS;
    show_stage(fw);
    /* links and router ports on, interrupts on */
    for (int p = 0; p < 6; p++)
        wr(fw, KOLO_SVC_LINK_CTRL(p), (fw->present >> p) & 1u ? KOLO_SVC_LINK_CTRL_ENABLE_MASK : 0u);
    wr(fw, KOLO_SVC_RTR_PORT_EN, fw->present);
    wr(fw, KOLO_SVC_EVT_IRQ_EN, KOLO_SVC_EVT_IRQ_EN_EVENTS_MASK | KOLO_SVC_EVT_IRQ_EN_MBX_MASK);
    fw->boot_time = kolo_hal_time(hal);
    l.n = 0;
    ln_start(&l, fw);
    ln_s(&l, "kolo-fw " KOLO_FW_VERSION " torus ");
    ln_u(&l, fw->topo.size[0]);
    ln_s(&l, "x");
    ln_u(&l, fw->topo.size[1]);
    ln_s(&l, "x");
    ln_u(&l, fw->topo.size[2]);
    ln_s(&l, fw->set ? ", whole-set checks" : ", own-table checks");
    if (fw->cfg.verbose) log_line(fw, &l);
    if (!fw->present) { /* a 1x1x1 torus has no links: running at once, and FW_STATE says so */
        fw->stage = KOLO_FW_RUNNING;
        show_stage(fw);
    }
    return 0;
}

void kolo_fw_step(kolo_fw *fw) {
    if (fw->stage == KOLO_FW_FAILED) return;
    uint64_t now = kolo_hal_time(fw->hal);
    handle_events(fw);
    handle_mailbox(fw);
    if (fw->stage == KOLO_FW_LINKS && now >= fw->boot_time + fw->cfg.boot_link_timeout) {
        /* links that never came up are faults like any other */
        uint8_t missing = (uint8_t)(fw->present & ~fw->local_up);
        fw_line l;
        ln_start(&l, fw);
        ln_s(&l, "boot: links not up after the timeout: ports ");
        ln_x(&l, missing, 2);
        log_line(fw, &l);
        fw->stage = KOLO_FW_RUNNING;
        show_stage(fw);
        fw->local_down = missing;
        set_own_down(fw, missing);
        for (int q = 0; q < 6; q++)
            if (up_ports(fw) & (1u << q)) sync_to(fw, q);
    }
    if (fw->recompute_at && now >= fw->recompute_at) {
        fw->recompute_at = 0;
        recompute(fw);
    }
    if (fw->install_at && now >= fw->install_at) {
        fw->install_at = 0;
        install(fw);
    }
    if (fw->hmsg_on) hmsg_poll(fw);
    txq_drain(fw);
    wr(fw, KOLO_SVC_SYS_FW_HEARTBEAT, rd(fw, KOLO_SVC_SYS_FW_HEARTBEAT) + 1);
}

uint64_t kolo_fw_deadline(const kolo_fw *fw) {
    uint64_t d = UINT64_MAX;
    if (fw->stage == KOLO_FW_FAILED) return d;
    if (fw->stage == KOLO_FW_LINKS) d = fw->boot_time + fw->cfg.boot_link_timeout;
    if (fw->recompute_at && fw->recompute_at < d) d = fw->recompute_at;
    if (fw->install_at && fw->install_at < d) d = fw->install_at;
    if ((fw->txq_count || fw->pend_count) && fw->tx_retry_at < d) d = fw->tx_retry_at;
    if (fw->hmsg_on && fw->hmsg_poll_at < d) d = fw->hmsg_poll_at;
    return d;
}
