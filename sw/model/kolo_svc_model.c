/* kolo_svc_model.c - C reference model of a node's service block (see
 * kolo_svc_model.h and docs/registers.md). Register semantics follow the map;
 * every address comes from the generated kolo_svc_regs.h. */
#include "kolo_svc_model.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t ctrl; /* ENABLE, LOOPBACK */
    uint8_t up, miscabled, state;
    uint32_t peer; /* PEER register value */
    uint32_t crc, replays, tx, rx, down_count, thresh;
    uint8_t thresh_hit;
} svc_link;

typedef struct {
    uint16_t src;
    uint8_t nwords, rd;
    uint32_t w[KOLO_SVC_MBX_WORDS];
} svc_mbx_pkt;

struct kolo_svc_model {
    kolo_svc_env env;
    kolo_topo topo;
    uint16_t node_id;
    unsigned entries;
    uint64_t time;
    uint32_t time_hi_latched;
    uint32_t scratch, host_access, host_refused, bad_access, fw_state, fw_heartbeat;
    uint32_t sp_faults, sp_fault_pc, sp_fault_cause;
    uint8_t port_en, port_down;
    uint32_t drop_route, drop_bad, fault_drops, out_flits[7];
    svc_link link[6];
    /* routing table */
    kolo_route_entry bank[2][KOLO_MAX_NODES];
    unsigned active;
    uint16_t epoch;
    uint32_t switches, unreachable;
    /* host mailbox: plain storage, cleared by reset, never touched by a switch */
    uint32_t hmbox[KOLO_SVC_HMBOX_WORD_COUNT];
    /* events */
    uint32_t evt[KOLO_SVC_EVT_DEPTH];
    unsigned evt_head, evt_count;
    uint32_t evt_lost;
    uint8_t evt_overflow;
    uint32_t irq_en;
    /* mailbox */
    uint32_t tx_dst, tx_rs, tx_w[KOLO_SVC_MBX_WORDS];
    uint32_t send_dst, send_rs; /* taken at TX_SEND */
    unsigned tx_words;
    uint8_t tx_busy;
    uint32_t tx_count, tx_errors;
    svc_mbx_pkt rx[KOLO_SVC_MBX_RX_PKTS];
    unsigned rx_head, rx_count;
    uint32_t rx_total, rx_drops;
};

static void push_event(kolo_svc_model *m, unsigned type, int port, uint32_t info) {
    if (m->evt_count == KOLO_SVC_EVT_DEPTH) {
        m->evt_overflow = 1;
        m->evt_lost++;
        return;
    }
    uint32_t e = (type & 0xfu) | ((uint32_t)(port & 7) << 4) | ((info & 0xffffffu) << 8);
    m->evt[(m->evt_head + m->evt_count) % KOLO_SVC_EVT_DEPTH] = e;
    m->evt_count++;
}

kolo_svc_model *kolo_svc_new(uint16_t node_id, const kolo_topo *t, const kolo_svc_env *env) {
    if (!t || !env || !kolo_topo_valid(t) || !kolo_node_in_topo(t, node_id)) return NULL;
    kolo_svc_model *m = (kolo_svc_model *)calloc(1, sizeof *m);
    if (!m) return NULL;
    m->env = *env;
    m->topo = *t;
    m->node_id = node_id;
    m->entries = kolo_topo_nodes(t);
    m->port_en = KOLO_SVC_RTR_PORT_EN_RESET;
    for (int p = 0; p < 6; p++) {
        m->link[p].ctrl = KOLO_SVC_LINK_CTRL_RESET;
        m->link[p].thresh = KOLO_SVC_LINK_ERR_THRESH_RESET;
    }
    return m;
}

void kolo_svc_free(kolo_svc_model *m) { free(m); }

void kolo_svc_set_time(kolo_svc_model *m, uint64_t cycle) { m->time = cycle; }

static uint32_t link_status(const svc_link *l) {
    return (uint32_t)l->up | ((uint32_t)l->miscabled << 1) | ((uint32_t)(l->state & 3u) << 4);
}

void kolo_svc_set_link(kolo_svc_model *m, int port, int up, uint16_t peer_id, int peer_port) {
    if (port < 0 || port > 5) return;
    svc_link *l = &m->link[port];
    uint16_t want_id = kolo_neighbor(&m->topo, m->node_id, port);
    int want_port = port ^ 1;
    int match = peer_id == want_id && peer_port == want_port;
    uint32_t peer = (uint32_t)(peer_id & 0xfffu) | ((uint32_t)(peer_port & 7) << 12) | (1u << 15);
    if (up) {
        if (!match) {
            /* an up link goes down first, then is marked miscabled (the RTL's two steps) */
            if (l->up) {
                l->down_count++;
                push_event(m, KOLO_SVC_EVT_LINK_DOWN, port, 0);
            }
            if (l->up || !l->miscabled || l->peer != peer) push_event(m, KOLO_SVC_EVT_MISCABLED, port, peer);
            l->miscabled = 1;
            l->up = 0;
            l->state = 1;
        } else if (!l->up) {
            l->up = 1;
            l->miscabled = 0;
            l->state = 2;
            push_event(m, KOLO_SVC_EVT_LINK_UP, port, peer);
        }
        l->peer = peer;
    } else {
        if (l->up) {
            l->down_count++;
            push_event(m, KOLO_SVC_EVT_LINK_DOWN, port, 0);
        }
        l->up = 0;
        l->miscabled = 0;
        l->state = 0;
    }
}

void kolo_svc_link_count(kolo_svc_model *m, int port, uint32_t crc_errors, uint32_t replays, uint32_t tx_frames,
                         uint32_t rx_frames) {
    if (port < 0 || port > 5) return;
    svc_link *l = &m->link[port];
    l->crc += crc_errors;
    l->replays += replays;
    l->tx += tx_frames;
    l->rx += rx_frames;
}

void kolo_svc_link_check(kolo_svc_model *m, int port) {
    if (port < 0 || port > 5) return;
    svc_link *l = &m->link[port];
    if (l->thresh && !l->thresh_hit && l->crc >= l->thresh) {
        l->thresh_hit = 1;
        push_event(m, KOLO_SVC_EVT_ERR_THRESHOLD, port, l->crc);
    }
}

void kolo_svc_set_router(kolo_svc_model *m, uint8_t port_down, uint32_t drop_route, uint32_t drop_bad,
                         uint32_t fault_drops, const uint32_t out_flits[7]) {
    m->port_down = port_down & 0x3fu;
    m->drop_route = drop_route;
    m->drop_bad = drop_bad;
    m->fault_drops = fault_drops;
    if (out_flits) memcpy(m->out_flits, out_flits, sizeof m->out_flits);
}

void kolo_svc_add_unreachable(kolo_svc_model *m, uint32_t n) { m->unreachable += n; }

void kolo_svc_sp_fault(kolo_svc_model *m, unsigned cause, uint32_t pc) {
    m->sp_faults++;
    m->sp_fault_pc = pc;
    m->sp_fault_cause = cause & 0xfu;
    push_event(m, KOLO_SVC_EVT_SP_FAULT, 0, ((pc >> 2) & 0xfffffu) << 4 | (cause & 0xfu));
}

int kolo_svc_mgmt_deliver(kolo_svc_model *m, uint16_t src, const uint32_t *words, unsigned nwords) {
    if (nwords == 0 || nwords > KOLO_SVC_MBX_WORDS || !words) return -1;
    if (m->rx_count == KOLO_SVC_MBX_RX_PKTS) {
        m->rx_drops++;
        push_event(m, KOLO_SVC_EVT_MBX_OVERFLOW, 0, src);
        return -1;
    }
    svc_mbx_pkt *p = &m->rx[(m->rx_head + m->rx_count) % KOLO_SVC_MBX_RX_PKTS];
    p->src = src;
    p->nwords = (uint8_t)nwords;
    p->rd = 0;
    memcpy(p->w, words, nwords * sizeof *words);
    m->rx_count++;
    m->rx_total++;
    return 0;
}

void kolo_svc_mgmt_retry(kolo_svc_model *m) {
    if (!m->tx_busy) return;
    if (m->env.mgmt_send && m->env.mgmt_send(m->env.ctx, (uint16_t)m->send_dst, m->send_rs, m->tx_w, m->tx_words)) {
        m->tx_busy = 0;
        m->tx_count++;
        m->tx_words = 0;
    }
}

static uint32_t irq_status(const kolo_svc_model *m) {
    return (m->evt_count ? KOLO_SVC_EVT_IRQ_STATUS_EVENTS_MASK : 0u) |
           (m->rx_count ? KOLO_SVC_EVT_IRQ_STATUS_MBX_MASK : 0u);
}

int kolo_svc_irq(const kolo_svc_model *m) { return (irq_status(m) & m->irq_en) != 0; }

const kolo_route_entry *kolo_svc_active_table(const kolo_svc_model *m, uint16_t *epoch) {
    if (epoch) *epoch = m->epoch;
    return m->bank[m->active];
}

/* ---- bus ------------------------------------------------------------------ */

static int link_reg(uint32_t addr, int *port, uint32_t *off) {
    if (addr < KOLO_SVC_LINK_CTRL(0) || addr >= KOLO_SVC_LINK_CTRL(0) + KOLO_SVC_LINK_COUNT * KOLO_SVC_LINK_STRIDE)
        return 0;
    *port = (int)((addr - KOLO_SVC_LINK_CTRL(0)) / KOLO_SVC_LINK_STRIDE);
    *off = KOLO_SVC_LINK_CTRL(0) + (addr - KOLO_SVC_LINK_CTRL(0)) % KOLO_SVC_LINK_STRIDE;
    return 1;
}

static int shadow_index(const kolo_svc_model *m, uint32_t addr, unsigned *i) {
    if (addr < KOLO_SVC_RT_SHADOW_ENTRY(0) ||
        addr >= KOLO_SVC_RT_SHADOW_ENTRY(0) + 4u * KOLO_SVC_RT_SHADOW_ENTRY_COUNT)
        return 0;
    *i = (addr - KOLO_SVC_RT_SHADOW_ENTRY(0)) / 4u;
    (void)m;
    return 1;
}

static int hmbox_index(uint32_t addr, unsigned *i) {
    if (addr < KOLO_SVC_HMBOX_WORD(0) || addr >= KOLO_SVC_HMBOX_WORD(KOLO_SVC_HMBOX_WORD_COUNT)) return 0;
    *i = (addr - KOLO_SVC_HMBOX_WORD(0)) / 4u;
    return 1;
}

int kolo_svc_read(kolo_svc_model *m, uint32_t addr, uint32_t *data, int host) {
    (void)host;
    uint32_t v = 0;
    int port;
    uint32_t off;
    unsigned idx;
    *data = 0;
    if (addr & 3u || addr >= KOLO_SVC_SPACE) goto bad;
    if (link_reg(addr, &port, &off)) {
        const svc_link *l = &m->link[port];
        switch (off) {
        case KOLO_SVC_LINK_CTRL(0): v = l->ctrl; break;
        case KOLO_SVC_LINK_STATUS(0): v = link_status(l); break;
        case KOLO_SVC_LINK_PEER(0): v = l->peer; break;
        case KOLO_SVC_LINK_CRC_ERRORS(0): v = l->crc; break;
        case KOLO_SVC_LINK_REPLAYS(0): v = l->replays; break;
        case KOLO_SVC_LINK_TX_FRAMES(0): v = l->tx; break;
        case KOLO_SVC_LINK_RX_FRAMES(0): v = l->rx; break;
        case KOLO_SVC_LINK_DOWN_COUNT(0): v = l->down_count; break;
        case KOLO_SVC_LINK_ERR_THRESH(0): v = l->thresh; break;
        default: goto bad;
        }
        *data = v;
        return 0;
    }
    if (shadow_index(m, addr, &idx)) {
        *data = m->bank[m->active ^ 1u][idx];
        return 0;
    }
    if (hmbox_index(addr, &idx)) {
        *data = m->hmbox[idx];
        return 0;
    }
    if (addr >= KOLO_SVC_RTR_OUT_FLITS(0) && addr < KOLO_SVC_RTR_OUT_FLITS(KOLO_SVC_RTR_OUT_FLITS_COUNT)) {
        *data = m->out_flits[(addr - KOLO_SVC_RTR_OUT_FLITS(0)) / 4u];
        return 0;
    }
    switch (addr) {
    case KOLO_SVC_SYS_ID: v = KOLO_SVC_SYS_ID_RESET; break;
    case KOLO_SVC_SYS_VERSION: v = KOLO_SVC_SYS_VERSION_RESET; break;
    case KOLO_SVC_SYS_NODE_ID: v = m->node_id; break;
    case KOLO_SVC_SYS_TORUS:
        v = (uint32_t)(m->topo.size[0] - 1) | (uint32_t)(m->topo.size[1] - 1) << 4 |
            (uint32_t)(m->topo.size[2] - 1) << 8;
        break;
    case KOLO_SVC_SYS_SCRATCH: v = m->scratch; break;
    case KOLO_SVC_SYS_HOST_ACCESS: v = m->host_access; break;
    case KOLO_SVC_SYS_HOST_REFUSED: v = m->host_refused; break;
    case KOLO_SVC_SYS_BAD_ACCESS: v = m->bad_access; break;
    case KOLO_SVC_SYS_SP_FAULTS: v = m->sp_faults; break;
    case KOLO_SVC_SYS_SP_FAULT_PC: v = m->sp_fault_pc; break;
    case KOLO_SVC_SYS_SP_FAULT_CAUSE: v = m->sp_fault_cause; break;
    case KOLO_SVC_SYS_TIME_LO:
        v = (uint32_t)m->time;
        m->time_hi_latched = (uint32_t)(m->time >> 32);
        break;
    case KOLO_SVC_SYS_TIME_HI: v = m->time_hi_latched; break;
    case KOLO_SVC_SYS_FW_STATE: v = m->fw_state; break;
    case KOLO_SVC_SYS_FW_HEARTBEAT: v = m->fw_heartbeat; break;
    case KOLO_SVC_RTR_PORT_EN: v = m->port_en; break;
    case KOLO_SVC_RTR_PORT_DOWN: v = m->port_down; break;
    case KOLO_SVC_RTR_DROP_ROUTE: v = m->drop_route; break;
    case KOLO_SVC_RTR_DROP_BAD: v = m->drop_bad; break;
    case KOLO_SVC_RTR_FAULT_DROPS: v = m->fault_drops; break;
    case KOLO_SVC_RTR_LOCAL_DROPS: v = 0; break;  // the model stands for a chip with its NI
    case KOLO_SVC_RT_EPOCH: v = m->epoch | (uint32_t)m->active << KOLO_SVC_RT_EPOCH_BANK_SHIFT; break;
    case KOLO_SVC_RT_ENTRIES: v = m->entries; break;
    case KOLO_SVC_RT_SWITCHES: v = m->switches; break;
    case KOLO_SVC_RT_UNREACHABLE: v = m->unreachable; break;
    case KOLO_SVC_EVT_STATUS:
        v = (m->evt_count & 0xffu) | (m->evt_overflow ? KOLO_SVC_EVT_STATUS_OVERFLOW_MASK : 0u);
        break;
    case KOLO_SVC_EVT_DATA:
        if (m->evt_count) {
            v = m->evt[m->evt_head];
            m->evt_head = (m->evt_head + 1) % KOLO_SVC_EVT_DEPTH;
            m->evt_count--;
        }
        break;
    case KOLO_SVC_EVT_IRQ_EN: v = m->irq_en; break;
    case KOLO_SVC_EVT_IRQ_STATUS: v = irq_status(m); break;
    case KOLO_SVC_EVT_LOST: v = m->evt_lost; break;
    case KOLO_SVC_EVT_CTRL: v = 0; break;
    case KOLO_SVC_MBX_TX_DST: v = m->tx_dst; break;
    case KOLO_SVC_MBX_TX_RS: v = m->tx_rs; break;
    case KOLO_SVC_MBX_TX_DATA: v = 0; break;
    case KOLO_SVC_MBX_TX_SEND: v = 0; break;
    case KOLO_SVC_MBX_TX_STATUS: v = m->tx_busy | (uint32_t)(m->tx_words & 0xffu) << 8; break;
    case KOLO_SVC_MBX_TX_COUNT: v = m->tx_count; break;
    case KOLO_SVC_MBX_TX_ERRORS: v = m->tx_errors; break;
    case KOLO_SVC_MBX_RX_STATUS:
        if (m->rx_count) {
            const svc_mbx_pkt *p = &m->rx[m->rx_head];
            v = m->rx_count | (uint32_t)(p->nwords - p->rd) << 16;
        }
        break;
    case KOLO_SVC_MBX_RX_SRC: v = m->rx_count ? m->rx[m->rx_head].src : 0u; break;
    case KOLO_SVC_MBX_RX_DATA:
        if (m->rx_count) {
            svc_mbx_pkt *p = &m->rx[m->rx_head];
            if (p->rd < p->nwords) v = p->w[p->rd++];
        }
        break;
    case KOLO_SVC_MBX_RX_POP: v = 0; break;
    case KOLO_SVC_MBX_RX_COUNT: v = m->rx_total; break;
    case KOLO_SVC_MBX_RX_DROPS: v = m->rx_drops; break;
    default: goto bad;
    }
    *data = v;
    return 0;
bad:
    m->bad_access++;
    return -1;
}

static void port_ctrl(kolo_svc_model *m) {
    if (!m->env.port_ctrl) return;
    uint8_t en = 0, lb = 0;
    for (int p = 0; p < 6; p++) {
        if (m->link[p].ctrl & KOLO_SVC_LINK_CTRL_ENABLE_MASK) en |= (uint8_t)(1u << p);
        if (m->link[p].ctrl & KOLO_SVC_LINK_CTRL_LOOPBACK_MASK) lb |= (uint8_t)(1u << p);
    }
    m->env.port_ctrl(m->env.ctx, en, lb, m->port_en);
}

int kolo_svc_write(kolo_svc_model *m, uint32_t addr, uint32_t data, int host) {
    int port;
    uint32_t off;
    unsigned idx;
    if (addr & 3u || addr >= KOLO_SVC_SPACE) goto bad;
    if (host && (addr == KOLO_SVC_SYS_HOST_ACCESS || !(m->host_access & KOLO_SVC_SYS_HOST_ACCESS_WRITE_EN_MASK))) {
        m->host_refused++;
        return -1;
    }
    if (link_reg(addr, &port, &off)) {
        svc_link *l = &m->link[port];
        if (off == KOLO_SVC_LINK_CTRL(0)) {
            l->ctrl = (uint8_t)(data & (KOLO_SVC_LINK_CTRL_ENABLE_MASK | KOLO_SVC_LINK_CTRL_LOOPBACK_MASK));
            if (data & KOLO_SVC_LINK_CTRL_CLEAR_MASK) {
                l->crc = l->replays = l->tx = l->rx = l->down_count = 0;
                l->thresh_hit = 0;
            }
            port_ctrl(m);
            return 0;
        }
        if (off == KOLO_SVC_LINK_ERR_THRESH(0)) {
            l->thresh = data;
            l->thresh_hit = 0;
            return 0;
        }
        goto bad;
    }
    if (shadow_index(m, addr, &idx)) {
        m->bank[m->active ^ 1u][idx] = data;
        return 0;
    }
    if (hmbox_index(addr, &idx)) {
        m->hmbox[idx] = data;
        return 0;
    }
    switch (addr) {
    case KOLO_SVC_SYS_SCRATCH: m->scratch = data; return 0;
    case KOLO_SVC_SYS_HOST_ACCESS: m->host_access = data & KOLO_SVC_SYS_HOST_ACCESS_WRITE_EN_MASK; return 0;
    case KOLO_SVC_SYS_FW_STATE: m->fw_state = data; return 0;
    case KOLO_SVC_SYS_FW_HEARTBEAT: m->fw_heartbeat = data; return 0;
    case KOLO_SVC_RTR_PORT_EN:
        m->port_en = (uint8_t)(data & KOLO_SVC_RTR_PORT_EN_EN_MASK);
        port_ctrl(m);
        return 0;
    case KOLO_SVC_RT_EPOCH:
        m->active ^= 1u;
        m->epoch = (uint16_t)(data & KOLO_SVC_RT_EPOCH_EPOCH_MASK);
        m->switches++;
        /* the new shadow starts as a copy, so partial updates are possible
         * (of the torus's entries, as the RTL's copy of RT_ENTRIES cycles) */
        memcpy(m->bank[m->active ^ 1u], m->bank[m->active], m->entries * sizeof m->bank[0][0]);
        if (m->env.route_switch) m->env.route_switch(m->env.ctx, m->bank[m->active], m->entries, m->epoch);
        return 0;
    case KOLO_SVC_EVT_IRQ_EN:
        m->irq_en = data & (KOLO_SVC_EVT_IRQ_EN_EVENTS_MASK | KOLO_SVC_EVT_IRQ_EN_MBX_MASK);
        return 0;
    case KOLO_SVC_EVT_CTRL:
        if (data & KOLO_SVC_EVT_CTRL_CLEAR_MASK) m->evt_overflow = 0;
        return 0;
    case KOLO_SVC_MBX_TX_DST: m->tx_dst = data & KOLO_SVC_MBX_TX_DST_DST_MASK; return 0;
    case KOLO_SVC_MBX_TX_RS: m->tx_rs = data & KOLO_SVC_MBX_TX_RS_RS_MASK; return 0;
    case KOLO_SVC_MBX_TX_DATA:
        if (m->tx_busy || m->tx_words >= KOLO_SVC_MBX_WORDS) {
            m->tx_errors++;
            return 0;
        }
        m->tx_w[m->tx_words++] = data;
        return 0;
    case KOLO_SVC_MBX_TX_SEND:
        if (m->tx_busy || m->tx_words == 0) {
            m->tx_errors++;
            return 0;
        }
        m->tx_busy = 1;
        m->send_dst = m->tx_dst;
        m->send_rs = m->tx_rs;
        kolo_svc_mgmt_retry(m);
        return 0;
    case KOLO_SVC_MBX_RX_POP:
        if (m->rx_count) {
            m->rx_head = (m->rx_head + 1) % KOLO_SVC_MBX_RX_PKTS;
            m->rx_count--;
        }
        return 0;
    default: break;
    }
bad:
    m->bad_access++;
    return -1;
}

int kolo_svc_write_strb(kolo_svc_model *m, uint32_t addr, uint32_t data, unsigned strb, int host) {
    if (strb != 0xfu) {
        m->bad_access++;
        return -1;
    }
    return kolo_svc_write(m, addr, data, host);
}
