// kolo_svc_rtl.cpp - the C API of sw/include/kolo_svc_model.h implemented over
// the Verilated service block RTL (rtl/svc/kolo_svc.v), one kolo_svc instance
// per kolo_svc_new, so that code written against the C reference model (the
// firmware network test fw/tests/test_fw_net.c) runs on the RTL unchanged.
// Everything the caller sees comes from the block's ports:
//   bus accesses       AXI4-Lite handshakes on s_axil_* (host 0) / h_axil_*
//                      (host 1), clocked until the response (SLVERR -> -1)
//   set_time           clocks the block until its cycle count (edges since
//                      reset) reaches the given cycle; every call that needs
//                      the clock (bus, mailbox, pulses) moves it on too, and
//                      time never goes backwards
//   set_link           link_up/peer_* input levels, reaching the block
//                      KOLO_SVC_RTL_LINK_DELAY cycles later (environment, 0 if
//                      unset); then clocks the block until its sequencer has
//                      applied the change: LINK_STATUS and LINK_PEER, read
//                      through the host port (no side effects), show what the
//                      levels imply (handshake, no fixed settle: a block ahead
//                      of the caller's clock is not clocked again until that
//                      clock catches up, so a LINK_UP later than a fixed count
//                      went unseen for thousands of cycles). A down is latched
//                      until reported, however soon the up follows.
//   link_count         one-cycle link_* counter pulses, one per event
//   set_router         rtr_* input values; add_unreachable: ni_unreachable pulses;
//                      sp_fault: one sp_fault pulse (and a cycle after it)
//   mgmt_deliver       the packet as flits on mgmt_rx_* (docs/svc.md section 5
//                      framing); -1 when RX_COUNT (read through the host port,
//                      no side effects) did not go up: dropped or malformed
//   MGMT transmit      flits on mgmt_tx_* are collected while the block is
//                      clocked; at the tail env.mgmt_send gets the packet; if
//                      it refuses, mgmt_tx_ready stays low on the tail until a
//                      kolo_svc_mgmt_retry that it accepts
//   irq                the irq output
//   active_table       the active table as the rt_lk_* lookup port returns it:
//                      a sweep of every id starts at each rt_switch pulse (and
//                      on demand); env.route_switch is called with the swept
//                      table when the sweep that rt_switch started completes,
//                      `entries` cycles after the pulse
// The caller is single-threaded: one API call at a time, each clocking only
// its own block.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <vector>

#include "Vkolo_svc.h"
#include "verilated.h"

#include "kolo_svc_model.h"

namespace {

constexpr unsigned RESET_CYCLES = 64;      // docs/svc.md: rst at least 40 cycles after the straps
constexpr uint64_t ACCESS_GUARD = 100000;  // a bus access the block never answers fails the run
constexpr uint64_t BUS_OKAY = 0;
constexpr int CHECK_SETTLE = 4;            // cycles from counter pulses to the threshold event's irq

VerilatedContext *g_ctx;
unsigned g_instances;
// KOLO_SVC_RTL_LINK_DELAY: extra cycles from kolo_svc_set_link to the block's
// link inputs (a lane's status reaching the service block late); every change
// of every port, ups and downs, in order
unsigned g_link_delay;
// KOLO_SVC_RTL_LINK_SETTLE=fixed: the old shim, a fixed 4 cycles after a link
// change instead of the handshake (a planted bug: test-fw-net-rtl-latency-control)
bool g_fixed_settle;

// totals over every block, printed at exit: which paths the run went through
struct Totals {
    unsigned long long cycles, accesses, slverr, rx_pkts, rx_dropped, tx_pkts, tx_held, switches;
} g_tot;
void print_totals() {
    std::printf("kolo_svc_rtl: %u blocks, %llu cycles clocked, %llu bus accesses (%llu SLVERR), MGMT in %llu "
                "(%llu not stored), out %llu (%llu tails held by the network), %llu table switches read back\n",
                g_instances, g_tot.cycles, g_tot.accesses, g_tot.slverr, g_tot.rx_pkts, g_tot.rx_dropped,
                g_tot.tx_pkts, g_tot.tx_held, g_tot.switches);
}

template <size_t N> void put_bits(VlWide<N> &w, unsigned lo, unsigned width, uint64_t v) {
    for (unsigned i = 0; i < width; i++) {
        unsigned b = lo + i;
        uint32_t m = 1u << (b % 32);
        if ((v >> i) & 1)
            w[b / 32] |= m;
        else
            w[b / 32] &= ~m;
    }
}
template <size_t N> void zero(VlWide<N> &w) {
    for (size_t i = 0; i < N; i++) w[i] = 0;
}
template <size_t N> uint64_t get_bits(const VlWide<N> &w, unsigned lo, unsigned width) {
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) {
        unsigned b = lo + i;
        v |= (uint64_t)((w[b / 32] >> (b % 32)) & 1u) << i;
    }
    return v;
}

struct Flit {
    uint64_t data;
    bool head, tail;
};

}  // namespace

struct kolo_svc_model {
    Vkolo_svc *top = nullptr;
    kolo_svc_env env{};
    kolo_topo topo{};
    uint16_t me = 0;
    unsigned entries = 0;
    uint64_t cyc = 0;  // clock edges since reset

    // the bus access in progress (one at a time, like the firmware's CPU)
    enum { BUS_IDLE, BUS_REQ, BUS_WAIT, BUS_DONE } bus = BUS_IDLE;
    bool bus_write = false, bus_host = false;
    uint32_t bus_addr = 0, bus_data = 0, bus_rdata = 0;
    unsigned bus_strb = 0xf, bus_resp = 0;

    // counter pulses still to give, per port: crc, replay, tx, rx
    uint32_t pulses[6][4] = {};
    uint32_t unreachable_pulses = 0;
    int sp_fault_cycles = 0;  // 2: the pulse, 1: the cycle after (pulses 2 cycles apart)
    unsigned sp_cause = 0;
    uint32_t sp_pc = 0;

    // receive: the packet being fed
    std::vector<Flit> rx;
    size_t rx_pos = 0;
    uint32_t rx_count = 0;  // RX_COUNT as last read

    // transmit: flits taken so far; the tail's state
    std::vector<Flit> tx;
    enum { TAIL_NEW, TAIL_REFUSED, TAIL_ACCEPTED } tail = TAIL_NEW;
    uint16_t tx_dst = 0;
    uint32_t tx_rs = 0;
    std::vector<uint32_t> tx_words;

    // lookup sweep
    bool sweep = false, sweep_for_switch = false;
    unsigned sweep_next = 0;
    int lk_last = -1;  // index looked up in the last cycle
    std::vector<kolo_route_entry> sweep_buf, table;
    bool table_valid = false;
    uint16_t table_epoch = 0;

    uint8_t last_en = 0, last_lb = 0, last_pen = 0;

    // link input levels of one port, given to the block at cycle `at`
    struct LinkIn {
        uint64_t at;
        bool up;
        uint16_t id;
        unsigned port;
    };
    std::deque<LinkIn> link_q[6];
    LinkIn link_last[6] = {};  // the levels last asked for (queued or applied)

    void apply_links() {
        for (int p = 0; p < 6; p++)
            while (!link_q[p].empty() && link_q[p].front().at <= cyc) {
                const LinkIn &l = link_q[p].front();
                uint8_t bit = (uint8_t)(1u << p);
                top->link_up = (uint8_t)(l.up ? top->link_up | bit : top->link_up & ~bit);
                top->link_peer_valid = (uint8_t)(l.up ? top->link_peer_valid | bit : top->link_peer_valid & ~bit);
                put_bits(top->link_peer_id, 12 * (unsigned)p, 12, l.id);
                top->link_peer_port = (top->link_peer_port & ~(7u << (3 * p))) | ((uint32_t)l.port << (3 * p));
                link_q[p].pop_front();
            }
    }

    // the block has applied port p's levels: LINK_STATUS (and LINK_PEER for
    // a port up or miscabled) as docs/svc.md's link actions leave them
    bool link_applied(int p) {
        if (!link_q[p].empty()) return false;
        const LinkIn &l = link_last[p];
        uint32_t st = 0, peer = 0;
        if (kolo_svc_read(this, KOLO_SVC_LINK_STATUS(p), &st, 1) || kolo_svc_read(this, KOLO_SVC_LINK_PEER(p), &peer, 1))
            fail("LINK_STATUS/LINK_PEER read refused");
        bool up = st & KOLO_SVC_LINK_STATUS_UP_MASK, misc = st & KOLO_SVC_LINK_STATUS_MISCABLED_MASK;
        if (!l.up) return !up && !misc;
        bool match = l.id == kolo_neighbor(&topo, me, p) && l.port == (unsigned)(p ^ 1);
        uint32_t want_peer = KOLO_SVC_LINK_PEER_VALID_MASK | l.port << KOLO_SVC_LINK_PEER_PORT_SHIFT | l.id;
        return up == match && misc == !match && (peer & 0xffffu) == want_peer;
    }

    [[noreturn]] void fail(const char *what) const {
        std::fprintf(stderr, "FAIL: kolo_svc_rtl node %03x at cycle %llu: %s\n", me, (unsigned long long)cyc, what);
        std::exit(1);
    }

    // ---- one clock cycle ------------------------------------------------------------------
    void drive_lookup() {
        // outputs of the last edge: the entry looked up in the last cycle, the switch pulse
        if (lk_last >= 0) sweep_buf[(unsigned)lk_last] = top->rt_lk_entry;
        if (top->rt_switch) {
            // first cycle of the new table: lookups from now on read it; what was
            // captured before is the old table's
            sweep = true;
            sweep_for_switch = true;
            sweep_next = 0;
            table_valid = false;
        } else if (sweep && lk_last >= 0 && (unsigned)lk_last + 1 == entries) {
            sweep = false;
            table = sweep_buf;
            table_epoch = top->rt_epoch;
            table_valid = true;
            if (sweep_for_switch) g_tot.switches++;
            if (sweep_for_switch && env.route_switch) env.route_switch(env.ctx, table.data(), entries, table_epoch);
            sweep_for_switch = false;
        }
        lk_last = -1;
        top->rt_lk_valid = 0;
        if (sweep && sweep_next < entries) {
            lk_last = (int)sweep_next++;
            top->rt_lk_valid = 1;
            top->rt_lk_id = kolo_node_id_of_index(&topo, (unsigned)lk_last);
        }
    }

    void drive() {
        bool req = bus == BUS_REQ;
        uint16_t a = (uint16_t)(bus_addr & 0x7fffu);
        top->s_axil_awvalid = req && bus_write && !bus_host;
        top->s_axil_wvalid = req && bus_write && !bus_host;
        top->s_axil_arvalid = req && !bus_write && !bus_host;
        top->h_axil_awvalid = req && bus_write && bus_host;
        top->h_axil_wvalid = req && bus_write && bus_host;
        top->h_axil_arvalid = req && !bus_write && bus_host;
        top->s_axil_awaddr = top->s_axil_araddr = top->h_axil_awaddr = top->h_axil_araddr = a;
        top->s_axil_wdata = top->h_axil_wdata = bus_data;
        top->s_axil_wstrb = top->h_axil_wstrb = (uint8_t)bus_strb;
        top->s_axil_bready = top->s_axil_rready = top->h_axil_bready = top->h_axil_rready = 1;
        uint8_t crc = 0, rep = 0, txf = 0, rxf = 0;
        for (int p = 0; p < 6; p++) {
            crc |= (uint8_t)((pulses[p][0] != 0) << p);
            rep |= (uint8_t)((pulses[p][1] != 0) << p);
            txf |= (uint8_t)((pulses[p][2] != 0) << p);
            rxf |= (uint8_t)((pulses[p][3] != 0) << p);
        }
        top->link_crc_err = crc;
        top->link_replay = rep;
        top->link_tx_frame = txf;
        top->link_rx_frame = rxf;
        top->ni_unreachable = unreachable_pulses != 0;
        top->sp_fault = sp_fault_cycles == 2;
        top->sp_fault_cause = (uint8_t)(sp_cause & 0xfu);
        top->sp_fault_pc = sp_pc;
        top->mgmt_rx_valid = rx_pos < rx.size();
        if (top->mgmt_rx_valid) {
            const Flit &f = rx[rx_pos];
            put_bits(top->mgmt_rx_flit, 0, 64, f.data);
            put_bits(top->mgmt_rx_flit, 64, 1, f.tail);
            put_bits(top->mgmt_rx_flit, 65, 1, f.head);
        }
        top->mgmt_tx_ready = tail != TAIL_REFUSED;
        drive_lookup();
    }

    // a tail on mgmt_tx_* offered for the first time: the whole packet to env.mgmt_send
    bool offer_tail(const Flit &t) {
        std::vector<Flit> pkt = tx;
        pkt.push_back(t);
        if (pkt.size() < 3 || !pkt[0].head) fail("MGMT packet sent without a header");
        uint64_t h0 = pkt[0].data;
        unsigned n = (unsigned)(pkt[1].data & 0xffu);
        if (n == 0 || n > KOLO_SVC_MBX_WORDS || pkt.size() != 2 + (n + 1) / 2 || ((h0 >> 29) & 63u) != (n + 1) / 2 ||
            ((h0 >> 24) & 15u) != 11 || !((h0 >> 28) & 1u) || ((h0 >> 12) & 0xfffu) != me)
            fail("MGMT packet sent with a malformed header");
        tx_dst = (uint16_t)(h0 & 0xfffu);
        tx_rs = (uint32_t)(h0 >> 36) & KOLO_RS_MASK;
        tx_words.assign(n, 0);
        for (unsigned i = 0; i < n; i++) tx_words[i] = (uint32_t)(pkt[2 + i / 2].data >> (32 * (i & 1)));
        return !env.mgmt_send || env.mgmt_send(env.ctx, tx_dst, tx_rs, tx_words.data(), n);
    }

    void sample() {
        // MGMT transmit: the tail waits for env.mgmt_send
        if (top->mgmt_tx_valid) {
            Flit f{get_bits(top->mgmt_tx_flit, 0, 64), get_bits(top->mgmt_tx_flit, 65, 1) != 0,
                   get_bits(top->mgmt_tx_flit, 64, 1) != 0};
            if (f.tail && tail == TAIL_NEW) {
                tail = offer_tail(f) ? TAIL_ACCEPTED : TAIL_REFUSED;
                if (tail == TAIL_REFUSED) {
                    g_tot.tx_held++;
                    top->mgmt_tx_ready = 0;
                    top->eval();
                }
            }
            if (top->mgmt_tx_ready) {
                if (f.head && !tx.empty()) fail("MGMT head flit inside a packet");
                if (f.tail) {
                    g_tot.tx_pkts++;
                    tx.clear();
                    tail = TAIL_NEW;
                } else {
                    tx.push_back(f);
                    if (tx.size() > 40) fail("MGMT packet without a tail");
                }
            }
        }
        // bus
        if (bus == BUS_REQ) {
            bool taken = bus_write ? (bus_host ? top->h_axil_awready && top->h_axil_wready
                                               : top->s_axil_awready && top->s_axil_wready)
                                   : (bus_host ? top->h_axil_arready : top->s_axil_arready);
            if (taken) bus = BUS_WAIT;
        } else if (bus == BUS_WAIT) {
            if (bus_write && (bus_host ? top->h_axil_bvalid : top->s_axil_bvalid)) {
                bus_resp = bus_host ? top->h_axil_bresp : top->s_axil_bresp;
                bus = BUS_DONE;
            } else if (!bus_write && (bus_host ? top->h_axil_rvalid : top->s_axil_rvalid)) {
                bus_resp = bus_host ? top->h_axil_rresp : top->s_axil_rresp;
                bus_rdata = bus_host ? top->h_axil_rdata : top->s_axil_rdata;
                bus = BUS_DONE;
            }
        }
        if (top->mgmt_rx_valid) {
            if (!top->mgmt_rx_ready) fail("mgmt_rx_ready low");
            rx_pos++;
        }
    }

    void after_edge() {
        for (int p = 0; p < 6; p++)
            for (int k = 0; k < 4; k++)
                if (pulses[p][k]) pulses[p][k]--;
        if (unreachable_pulses) unreachable_pulses--;
        if (sp_fault_cycles) sp_fault_cycles--;
        if (top->link_enable != last_en || top->link_loopback != last_lb || top->port_en != last_pen) {
            last_en = top->link_enable, last_lb = top->link_loopback, last_pen = top->port_en;
            if (env.port_ctrl) env.port_ctrl(env.ctx, last_en, last_lb, last_pen);
        }
    }

    void tick() {
        apply_links();
        drive();
        top->clk = 0;
        top->eval();
        sample();
        top->clk = 1;
        top->eval();
        cyc++;
        g_tot.cycles++;
        after_edge();
    }

    int access(bool write, uint32_t addr, uint32_t data, unsigned strb, int host, uint32_t *rdata) {
        // the 15-bit bus cannot carry it: the interconnect in front of the block refuses it
        if (addr >= KOLO_SVC_SPACE) return -1;
        bus = BUS_REQ;
        bus_write = write;
        bus_host = host != 0;
        bus_addr = addr;
        bus_data = data;
        bus_strb = strb;
        for (uint64_t g = 0; bus != BUS_DONE; g++) {
            if (g == ACCESS_GUARD) fail("a bus access was never answered");
            tick();
        }
        bus = BUS_IDLE;
        g_tot.accesses++;
        if (bus_resp != BUS_OKAY) g_tot.slverr++;
        if (rdata) *rdata = bus_resp == BUS_OKAY ? bus_rdata : 0;
        return bus_resp == BUS_OKAY ? 0 : -1;
    }

    // work in flight that needs no one to wait for it
    bool busy() const { return (top->mgmt_tx_valid && tail != TAIL_REFUSED) || sweep; }

    void run_until(bool (*done)(const kolo_svc_model *), const char *what) {
        for (uint64_t g = 0; !done(this); g++) {
            if (g == ACCESS_GUARD) fail(what);
            tick();
        }
    }
};

extern "C" {

kolo_svc_model *kolo_svc_new(uint16_t node_id, const kolo_topo *t, const kolo_svc_env *env) {
    if (!t || !env || !kolo_topo_valid(t) || !kolo_node_in_topo(t, node_id)) return nullptr;
    if (!g_ctx) {
        g_ctx = new VerilatedContext;
        std::atexit(print_totals);
        if (const char *d = std::getenv("KOLO_SVC_RTL_LINK_DELAY")) g_link_delay = (unsigned)std::strtoul(d, nullptr, 0);
        if (const char *f = std::getenv("KOLO_SVC_RTL_LINK_SETTLE")) g_fixed_settle = !std::strcmp(f, "fixed");
        if (g_link_delay || g_fixed_settle)
            std::printf("kolo_svc_rtl: link changes reach the blocks %u cycles late%s\n", g_link_delay,
                        g_fixed_settle ? "; fixed 4-cycle settle (planted bug)" : "");
    }
    kolo_svc_model *m = new kolo_svc_model;
    char name[32];
    std::snprintf(name, sizeof name, "svc%u", g_instances++);  // distinct scope names
    m->top = new Vkolo_svc{g_ctx, name};
    m->env = *env;
    m->topo = *t;
    m->me = node_id;
    m->entries = kolo_topo_nodes(t);
    m->sweep_buf.assign(m->entries, 0);
    m->table.assign(m->entries, 0);
    Vkolo_svc *top = m->top;
    // every input defined; straps first, then reset long enough for the index tables
    top->node_id = node_id;
    top->dim_m1 = (uint16_t)((t->size[0] - 1) | (t->size[1] - 1) << 4 | (t->size[2] - 1) << 8);
    top->link_up = top->link_peer_valid = 0;
    zero(top->link_peer_id);
    top->link_peer_port = 0;
    top->rtr_port_down = 0;
    top->rtr_drop_route = top->rtr_drop_bad = top->rtr_fault_drops = 0;
    zero(top->rtr_out_flits);
    zero(top->mgmt_rx_flit);
    top->rt_lk_id = 0;
    top->rst = 1;
    for (unsigned i = 0; i < RESET_CYCLES; i++) {
        m->drive();
        top->clk = 0;
        top->eval();
        top->clk = 1;
        top->eval();
    }
    top->rst = 0;
    m->lk_last = -1;
    m->sweep = false;
    m->last_en = top->link_enable, m->last_lb = top->link_loopback, m->last_pen = top->port_en;
    return m;
}

void kolo_svc_free(kolo_svc_model *m) {
    if (!m) return;
    m->top->final();
    delete m->top;
    delete m;
}

int kolo_svc_read(kolo_svc_model *m, uint32_t addr, uint32_t *data, int host) {
    uint32_t v = 0;
    int r = m->access(false, addr, 0, 0xf, host, &v);
    *data = v;
    return r;
}

int kolo_svc_write(kolo_svc_model *m, uint32_t addr, uint32_t data, int host) {
    return m->access(true, addr, data, 0xf, host, nullptr);
}

int kolo_svc_write_strb(kolo_svc_model *m, uint32_t addr, uint32_t data, unsigned strb, int host) {
    return m->access(true, addr, data, strb & 0xfu, host, nullptr);
}

void kolo_svc_set_time(kolo_svc_model *m, uint64_t cycle) {
    // A block ahead of `cycle` (its firmware's bus accesses took cycles the
    // caller's clock does not count) has already lived up to there. What it
    // was doing in those cycles still finishes now: a packet going out (unless
    // the network refused its tail) and a lookup sweep after a switch, or they
    // would wait for the caller's clock to catch up.
    for (uint64_t g = 0; m->cyc < cycle || m->busy(); g++) {
        if (m->cyc >= cycle && g == ACCESS_GUARD) m->fail("a packet or lookup sweep never finished");
        m->tick();
    }
}

void kolo_svc_set_link(kolo_svc_model *m, int port, int up, uint16_t peer_id, int peer_port) {
    if (port < 0 || port > 5) return;
    kolo_svc_model::LinkIn l{m->cyc + g_link_delay, up != 0, (uint16_t)(peer_id & 0xfffu), (unsigned)(peer_port & 7)};
    kolo_svc_model::LinkIn &last = m->link_last[port];
    if (l.up == last.up && l.id == last.id && l.port == last.port) return;  // no change
    last = l;
    // the levels reach the block's inputs g_link_delay cycles from now; it
    // registers them at the next edge and its sequencer raises the events
    m->link_q[port].push_back(l);
    if (g_fixed_settle) {
        for (int i = 0; i < CHECK_SETTLE; i++) m->tick();
        return;
    }
    // clocked until the sequencer has applied it, as the model raises its
    // events at once: a block ahead of the caller's clock would otherwise not
    // see it until that clock caught up. irq is registered at the edge after
    // the action, no later than the read that shows its result.
    for (uint64_t g = 0; !m->link_applied(port); g++) {
        if (g == ACCESS_GUARD) m->fail("a link change was never applied");
        m->tick();
    }
}

void kolo_svc_link_count(kolo_svc_model *m, int port, uint32_t crc_errors, uint32_t replays, uint32_t tx_frames,
                         uint32_t rx_frames) {
    if (port < 0 || port > 5) return;
    m->pulses[port][0] += crc_errors;
    m->pulses[port][1] += replays;
    m->pulses[port][2] += tx_frames;
    m->pulses[port][3] += rx_frames;
    m->run_until(
        [](const kolo_svc_model *x) {
            for (int p = 0; p < 6; p++)
                for (int k = 0; k < 4; k++)
                    if (x->pulses[p][k]) return false;
            return true;
        },
        "counter pulses never finished");
}

void kolo_svc_link_check(kolo_svc_model *m, int port) {
    // the block runs the check in its own sequencer a few cycles after the
    // pulses (one action, the event, irq): give it those cycles
    (void)port;
    for (int i = 0; i < CHECK_SETTLE; i++) m->tick();
}

void kolo_svc_set_router(kolo_svc_model *m, uint8_t port_down, uint32_t drop_route, uint32_t drop_bad,
                         uint32_t fault_drops, const uint32_t out_flits[7]) {
    Vkolo_svc *top = m->top;
    top->rtr_port_down = port_down & 0x3fu;
    top->rtr_drop_route = drop_route;
    top->rtr_drop_bad = drop_bad;
    top->rtr_fault_drops = fault_drops;
    if (out_flits)
        for (int i = 0; i < 7; i++) top->rtr_out_flits[i] = out_flits[i];
}

void kolo_svc_add_unreachable(kolo_svc_model *m, uint32_t n) {
    m->unreachable_pulses += n;
    m->run_until([](const kolo_svc_model *x) { return x->unreachable_pulses == 0; }, "ni_unreachable pulses");
}

void kolo_svc_sp_fault(kolo_svc_model *m, unsigned cause, uint32_t pc) {
    m->sp_fault_cycles = 2;
    m->sp_cause = cause;
    m->sp_pc = pc;
    m->run_until([](const kolo_svc_model *x) { return x->sp_fault_cycles == 0; }, "sp_fault pulse");
}

int kolo_svc_mgmt_deliver(kolo_svc_model *m, uint16_t src, const uint32_t *words, unsigned nwords) {
    // more than fits the 8-bit word count cannot be framed at all
    if (!words || nwords > 255) return -1;
    unsigned len = (nwords + 1) / 2;
    m->rx.clear();
    m->rx_pos = 0;
    uint64_t h0 = (uint64_t)(m->me & 0xfffu) | (uint64_t)(src & 0xfffu) << 12 | 11ull << 24 | 1ull << 28 |
                  (uint64_t)(len & 63u) << 29;
    m->rx.push_back({h0, true, false});
    m->rx.push_back({nwords, false, len == 0});
    for (unsigned i = 0; i < len; i++) {
        uint64_t lo = words[2 * i], hi = 2 * i + 1 < nwords ? words[2 * i + 1] : 0;
        m->rx.push_back({lo | hi << 32, false, i + 1 == len});
    }
    m->run_until([](const kolo_svc_model *x) { return x->rx_pos == x->rx.size(); }, "MGMT flits never taken");
    // the block judged the packet at its tail: stored iff RX_COUNT moved (no side effects)
    uint32_t c = 0;
    if (kolo_svc_read(m, KOLO_SVC_MBX_RX_COUNT, &c, 1)) m->fail("RX_COUNT read refused");
    int stored = c == m->rx_count + 1;
    if (c != m->rx_count && !stored) m->fail("RX_COUNT moved by more than the packet");
    m->rx_count = c;
    g_tot.rx_pkts++;
    if (!stored) g_tot.rx_dropped++;
    return stored ? 0 : -1;
}

void kolo_svc_mgmt_retry(kolo_svc_model *m) {
    if (m->tail != kolo_svc_model::TAIL_REFUSED) return;
    if (!m->env.mgmt_send ||
        m->env.mgmt_send(m->env.ctx, m->tx_dst, m->tx_rs, m->tx_words.data(), (unsigned)m->tx_words.size()))
        m->tail = kolo_svc_model::TAIL_ACCEPTED;  // mgmt_tx_ready rises: the next edge takes the tail
}

int kolo_svc_irq(const kolo_svc_model *m) { return m->top->irq; }

const kolo_route_entry *kolo_svc_active_table(const kolo_svc_model *cm, uint16_t *epoch) {
    // reading through the lookup port takes clock cycles: the block moves on
    kolo_svc_model *m = const_cast<kolo_svc_model *>(cm);
    if (!m->table_valid) {
        if (!m->sweep) {
            m->sweep = true;
            m->sweep_next = 0;
        }
        m->run_until([](const kolo_svc_model *x) { return x->table_valid; }, "table sweep never finished");
    }
    if (epoch) *epoch = m->table_epoch;
    return m->table.data();
}

}  // extern "C"
