// tb_svc.cpp - kolo_svc (rtl/svc) co-simulated against its C reference model
// kolo_svc_model (sw/model/kolo_svc_model.c), register for register.
//
// Length (~885 lines): the driver of every port of kolo_svc and the
// comparison against the model, step by step, share the harness state; the
// coverage requirements and mutant runs are its own small functions.
//
// Every cycle the harness drives both AXI4-Lite ports, the link status and
// counter pulses, the router counters, MGMT packets into the receive port,
// back-pressure on the transmit port and a routing-table lookup, and steps
// the model in the block's order: the bus access the block executes in this
// cycle (probe p_exec), a received tail (packet stored or dropped), a
// service processor fault (the pulses the harness drove, in order, when the
// block acts on one: probe p_sp_act, 1 or 2 cycles after its pulse), the
// event action of the link sequencer (probes p_act_*), counter pulses, the
// tail of a sent packet. Compared: every read value and response code, the
// irq line, link_enable/loopback and port_en, rt_epoch and the rt_switch
// pulse, every lookup result (against kolo_svc_active_table), every MGMT
// packet sent (against the model's mgmt_send). The first mismatch ends the
// run with exit status 1.
//
//   tb_svc [--seed=N] [--cycles=N] [--torus=XxYxZ] [--node=x,y,z] [--no-directed]
// Directed cases run first (the host mailbox cleared by reset, identity, host
// gate, strobes, the host mailbox both ways and its gate, time carry, a full
// table switch with lookups of every id (the host mailbox untouched by it),
// mailbox both ways with overflow,
// link events, short downs: the down latch), then the seeded random phase.
// The down latch's contract (rtl/svc/kolo_svc_link.v) is checked all along:
// a down of a port that raised LINK_UP must raise LINK_DOWN before the next
// LINK_UP or 64 cycles of a stable input.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "Vtb_svc.h"
#include "verilated.h"

#include "kolo_svc_model.h"
#include "tb_util.h"

namespace {

constexpr uint64_t TIME_RESET = 0xfffff000ull;  // tb_svc.v's TIME_RESET

uint64_t g_seed;
uint64_t g_cyc;

[[noreturn]] void fail(const char *fmt, ...) {
    std::va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "FAIL unit-svc: cycle %llu: ", (unsigned long long)g_cyc);
    std::vfprintf(stderr, fmt, ap);
    std::fputc('\n', stderr);
    va_end(ap);
    std::printf("FAIL unit-svc (seed %llu; replay with --seed=%llu)\n", (unsigned long long)g_seed,
                (unsigned long long)g_seed);
    std::exit(1);
}

template <size_t N> void set_bits(VlWide<N> &w, unsigned lo, unsigned width, uint64_t v) {
    for (unsigned i = 0; i < width; i++) {
        unsigned b = lo + i;
        uint32_t m = 1u << (b % 32);
        if ((v >> i) & 1)
            w[b / 32] |= m;
        else
            w[b / 32] &= ~m;
    }
}
template <size_t N> uint64_t get_bits(const VlWide<N> &w, unsigned lo, unsigned width) {
    uint64_t v = 0;
    for (unsigned i = 0; i < width; i++) {
        unsigned b = lo + i;
        v |= (uint64_t)((w[b / 32] >> (b % 32)) & 1u) << i;
    }
    return v;
}

struct Access {
    int port = 0;  // 0 service, 1 host
    bool write = false;
    uint32_t addr = 0, data = 0;
    unsigned strb = 0xf;
    bool executed = false;
    int err = 0;
    uint32_t rdata = 0;
};

struct PortDrv {
    int state = 0;  // 0 idle, 1 address/data offered, 2 waiting for the response
    Access acc;
    int w_delay = 0;  // cycles after AWVALID before WVALID
    int gap = 0;
    bool done = false;  // a directed access completed
    Access result;
};

struct RxPkt {
    std::vector<uint64_t> flits;  // data
    std::vector<int> head, tail;
    uint16_t src = 0;
    unsigned words = 0;
    std::vector<uint32_t> w;
    bool deliver = false;  // well formed: the model sees it
};

struct World {
    Vtb_svc *top = nullptr;
    kolo_svc_model *m = nullptr;
    tb::Rng rng{1};
    kolo_topo topo{};
    uint16_t me = 0;
    unsigned entries = 1;
    bool rand_bus = false, rand_io = false;

    PortDrv port[2];
    int inflight = -1;  // port whose access is inside the block
    bool req_vis[2] = {false, false};  // the port's request is complete on the bus this cycle
    int passed_over[2] = {0, 0};       // accesses of the other port taken while it requested
    // model callbacks
    bool tx_accept = false;
    int tx_sent = 0;
    uint16_t tx_dst = 0;
    uint32_t tx_rs = 0;
    std::vector<uint32_t> tx_words;
    unsigned switches = 0;
    uint16_t sw_epoch = 0;
    uint8_t en = 0x3f, lb = 0, pen = 0x3f;
    // outputs expected next cycle
    bool exp_switch = false;
    bool lk_pending = false;
    uint32_t lk_expect = 0;
    int irq_hist[2] = {0, 0};
    // transmit collection
    std::vector<uint64_t> tx_flits;
    std::vector<int> tx_head, tx_tail;
    int tx_ready_pct = 70;
    int force_lk_id = -1;  // directed: the id to look up
    bool quiet = false;    // a phase with few events and many EVT_DATA reads: the FIFO drains
    // valid/ready rules: an offer not taken stays, unchanged
    bool tx_held = false, resp_held[2] = {false, false};
    uint64_t tx_held_flit[2] = {0, 0};
    uint32_t resp_held_data[2] = {0, 0};
    unsigned resp_held_code[2] = {0, 0};
    // link drive (this cycle and the last); up is the level, drv_up what is driven: the level
    // but low while a glitch (a short down: glitch cycles left) runs
    int up[6] = {0}, pvalid[6] = {0}, pid[6] = {0}, pport[6] = {0}, glitch[6] = {0}, drv_up[6] = {0};
    int up_q[6] = {0}, pvalid_q[6] = {0}, pid_q[6] = {0}, pport_q[6] = {0};
    uint64_t stable_since[6] = {0};
    // the down latch's contract (rtl/svc/kolo_svc_link.v): a down of the registered input while
    // the port is up (its last link action raised LINK_UP) is owed a LINK_DOWN
    bool low_seen[6] = {false};  // the registered input was down since the port's last down action
    bool rep_up[6] = {false};    // the port's last link action left it up
    bool owed[6] = {false};
    uint64_t owed_cyc[6] = {0};
    unsigned long n_glitch = 0, n_owed = 0;  // glitches driven, downs owed (and paid)
    // receive drive
    std::deque<RxPkt> rxq;
    size_t rx_pos = 0;
    bool rx_last_open = false;  // the last packet generated had no tail
    // service processor fault pulses driven and not yet acted on: cycle, cause, pc
    struct SpFault {
        uint64_t cyc;
        unsigned cause;
        uint32_t pc;
    };
    std::deque<SpFault> sp_pend;
    uint64_t sp_last_pulse = 0;
    bool sp_force = false;  // directed: pulse in the next cycle
    unsigned long n_sp = 0, cov_sp_late = 0;  // faults, faults that waited for a mailbox event
    // stats
    unsigned long n_reads = 0, n_writes = 0, n_err = 0, n_lookups = 0, n_tx = 0, n_rx = 0, n_rx_drop = 0,
                  n_acts = 0, n_switch = 0, n_irq = 0;
    // coverage: events read by type, host writes taken, packets stored, accesses that waited for the copy
    unsigned long cov_evt[8] = {0}, cov_host_wr = 0, cov_stored = 0, cov_stalled = 0, cov_time_lo = 0,
                  cov_host_hmbox = 0;

    uint16_t id_of(unsigned i) const { return kolo_node_id_of_index(&topo, i); }
    bool in_torus(uint16_t id) const {
        return (id & 15) < topo.size[0] && ((id >> 4) & 15) < topo.size[1] && ((id >> 8) & 15) < topo.size[2];
    }

    // ---- one clock cycle --------------------------------------------------------------------
    void drive() {
        // bus ports
        for (int p = 0; p < 2; p++) {
            PortDrv &d = port[p];
            if (d.state == 0 && rand_bus) {
                if (d.gap > 0)
                    d.gap--;
                else
                    new_random_access(p);
            }
            bool aw = d.state == 1 && d.acc.write, w = aw && d.w_delay == 0, ar = d.state == 1 && !d.acc.write;
            if (d.state == 1 && d.w_delay > 0) d.w_delay--;
            bool rdy = rand_bus ? rng.chance(70) : true;
            req_vis[p] = w || ar;
            if (p == 0) {
                top->s_axil_awvalid = aw;
                top->s_axil_awaddr = d.acc.addr & 0x7fff;
                top->s_axil_wvalid = w;
                top->s_axil_wdata = d.acc.data;
                top->s_axil_wstrb = d.acc.strb;
                top->s_axil_arvalid = ar;
                top->s_axil_araddr = d.acc.addr & 0x7fff;
                top->s_axil_bready = rdy;
                top->s_axil_rready = rdy;
            } else {
                top->h_axil_awvalid = aw;
                top->h_axil_awaddr = d.acc.addr & 0x7fff;
                top->h_axil_wvalid = w;
                top->h_axil_wdata = d.acc.data;
                top->h_axil_wstrb = d.acc.strb;
                top->h_axil_arvalid = ar;
                top->h_axil_araddr = d.acc.addr & 0x7fff;
                top->h_axil_bready = rdy;
                top->h_axil_rready = rdy;
            }
        }
        // links
        for (int p = 0; p < 6; p++) {
            up_q[p] = drv_up[p], pvalid_q[p] = pvalid[p], pid_q[p] = pid[p], pport_q[p] = pport[p];
            if (rand_io && rng.chance(1) && rng.chance(quiet ? 1 : 30)) {
                up[p] = rng.chance(60);
                pvalid[p] = rng.chance(90);
                pid[p] = rng.chance(75) ? kolo_neighbor(&topo, me, p) : (int)rng.bits(12);
                pport[p] = rng.chance(80) ? (p ^ 1) : (int)rng.bits(3);
                stable_since[p] = g_cyc;
            }
            // a short down (1..4 cycles) of an up link, alone or in bursts on several ports
            if (rand_io && !glitch[p] && up[p] && rng.chance(1) && rng.chance(quiet ? 2 : 20)) {
                glitch[p] = rng.chance(70) ? 1 : 1 + (int)rng.below(4);
                n_glitch++;
            }
            drv_up[p] = up[p] && !glitch[p];
            if (glitch[p]) glitch[p]--;
            if (drv_up[p] != up_q[p]) stable_since[p] = g_cyc;  // every edge driven (directed ones too)
        }
        uint8_t upv = 0, vv = 0;
        for (int p = 0; p < 6; p++) {
            upv |= (uint8_t)(drv_up[p] << p);
            vv |= (uint8_t)(pvalid[p] << p);
            set_bits(top->link_peer_id, 12 * p, 12, (uint64_t)pid[p]);
        }
        top->link_up = upv;
        top->link_peer_valid = vv;
        uint32_t pp = 0;
        for (int p = 0; p < 6; p++) pp |= (uint32_t)(pport[p] & 7) << (3 * p);
        top->link_peer_port = pp;
        // counter pulses
        uint8_t crc = 0, rep = 0, txf = 0, rxf = 0;
        if (rand_io)
            for (int p = 0; p < 6; p++) {
                crc |= (uint8_t)(rng.chance(4) << p);
                rep |= (uint8_t)(rng.chance(5) << p);
                txf |= (uint8_t)(rng.chance(30) << p);
                rxf |= (uint8_t)(rng.chance(30) << p);
            }
        top->link_crc_err = crc;
        top->link_replay = rep;
        top->link_tx_frame = txf;
        top->link_rx_frame = rxf;
        top->ni_unreachable = rand_io && rng.chance(2);
        // service processor faults: pulses at least 2 cycles apart (kolo_sp's are), bursts and singles
        top->sp_fault = 0;
        if ((sp_force || (rand_io && rng.chance(quiet ? 0 : 1) && rng.chance(20))) &&
            (sp_last_pulse == 0 || g_cyc >= sp_last_pulse + 2)) {
            sp_force = false;
            top->sp_fault = 1;
            top->sp_fault_cause = (uint8_t)rng.bits(4);
            top->sp_fault_pc = (uint32_t)rng.next();
            sp_pend.push_back({g_cyc, top->sp_fault_cause, top->sp_fault_pc});
            sp_last_pulse = g_cyc;
        } else {
            top->sp_fault_cause = (uint8_t)rng.bits(4);  // ignored without the pulse
            top->sp_fault_pc = (uint32_t)rng.next();
        }
        // router counters (values; the block reads them when a read executes)
        if (rand_io && rng.chance(1)) {
            uint32_t of[7];
            top->rtr_port_down = (uint8_t)rng.bits(6);
            top->rtr_drop_route = (uint32_t)rng.next();
            top->rtr_drop_bad = (uint32_t)rng.next();
            top->rtr_fault_drops = (uint32_t)rng.next();
            for (int i = 0; i < 7; i++) {
                of[i] = (uint32_t)rng.next();
                top->rtr_out_flits[i] = of[i];
            }
            kolo_svc_set_router(m, top->rtr_port_down, top->rtr_drop_route, top->rtr_drop_bad, top->rtr_fault_drops,
                                of);
        }
        // lookup
        top->rt_lk_valid = rand_io ? rng.chance(90) : 1;
        top->rt_lk_id = rng.chance(85) ? id_of(rng.below(entries)) : (uint16_t)rng.bits(12);
        if (force_lk_id >= 0) top->rt_lk_id = (uint16_t)force_lk_id;
        // mailbox
        top->mgmt_tx_ready = rand_io ? rng.chance((unsigned)tx_ready_pct) : 1;
        if (rand_io && rxq.empty() && rng.chance(2) && (!quiet || rng.chance(5))) {
            int burst = rng.chance(10) ? 12 : 1;
            for (int i = 0; i < burst; i++) {
                rxq.push_back(random_rx_packet());
                rx_last_open = !rxq.back().tail.back();
            }
        }
        top->mgmt_rx_valid = 0;
        if (!rxq.empty() && (!rand_io || rng.chance(80))) {
            RxPkt &k = rxq.front();
            top->mgmt_rx_valid = 1;
            set_bits(top->mgmt_rx_flit, 0, 64, k.flits[rx_pos]);
            set_bits(top->mgmt_rx_flit, 64, 1, (uint64_t)k.tail[rx_pos]);
            set_bits(top->mgmt_rx_flit, 65, 1, (uint64_t)k.head[rx_pos]);
        }
    }

    void sample() {
        // outputs that reflect the model after the previous cycle
        if (top->link_enable != en || top->link_loopback != lb || top->port_en != pen)
            fail("link_enable/loopback/port_en %02x/%02x/%02x, model %02x/%02x/%02x", top->link_enable,
                 top->link_loopback, top->port_en, en, lb, pen);
        uint16_t epoch = 0;
        const kolo_route_entry *act = kolo_svc_active_table(m, &epoch);
        if (top->rt_epoch != epoch) fail("rt_epoch %u, model %u", top->rt_epoch, epoch);
        if ((bool)top->rt_switch != exp_switch) fail("rt_switch %d, expected %d", top->rt_switch, exp_switch);
        if (exp_switch && sw_epoch != epoch) fail("route_switch epoch %u != %u", sw_epoch, epoch);
        exp_switch = false;
        if (top->irq != irq_hist[0]) fail("irq %d, model %d", top->irq, irq_hist[0]);
        if (lk_pending && top->rt_lk_entry != lk_expect)
            fail("lookup: rt_lk_entry %08x, model %08x", top->rt_lk_entry, lk_expect);
        // this cycle's lookup reads the table active now
        lk_pending = top->rt_lk_valid;
        if (lk_pending) {
            uint16_t id = top->rt_lk_id;
            lk_expect = in_torus(id) ? act[kolo_node_index(&topo, id)] : 0u;
            n_lookups++;
        }
        if (!top->mgmt_rx_ready) fail("mgmt_rx_ready low");

        // bus: address handshakes
        for (int p = 0; p < 2; p++) {
            PortDrv &d = port[p];
            bool hs_w = p ? (top->h_axil_awvalid && top->h_axil_awready) : (top->s_axil_awvalid && top->s_axil_awready);
            bool w_rdy = p ? top->h_axil_wready : top->s_axil_wready;
            bool w_val = p ? top->h_axil_wvalid : top->s_axil_wvalid;
            bool hs_r = p ? (top->h_axil_arvalid && top->h_axil_arready) : (top->s_axil_arvalid && top->s_axil_arready);
            if (w_rdy && !w_val) fail("port %d: WREADY without WVALID", p);
            if (hs_w || hs_r) {
                if (d.state != 1) fail("port %d: handshake without a request", p);
                // fairness: round robin over the four requesters lets the other port in at most twice
                passed_over[p] = 0;
                if (req_vis[1 - p] && ++passed_over[1 - p] > 2)
                    fail("port %d waited through %d accesses of port %d", 1 - p, passed_over[1 - p], p);
                if (inflight >= 0) fail("port %d: access taken while another is in the block", p);
                d.state = 2;
                inflight = p;
            }
        }
        // 1. the bus access the block executes now
        if (inflight >= 0 && !top->p_exec && !port[inflight].acc.executed && port[inflight].state == 2 &&
            rt_copying_now())
            cov_stalled++;
        if (top->p_exec) {
            if (inflight < 0) fail("exec without an access");
            Access &a = port[inflight].acc;
            if (a.executed) fail("access executed twice");
            a.executed = true;
            kolo_svc_set_time(m, TIME_RESET + g_cyc);
            if (a.write)
                a.err = kolo_svc_write_strb(m, a.addr, a.data, a.strb, a.port);
            else
                a.err = kolo_svc_read(m, a.addr, &a.rdata, a.port);
            if (a.write && a.err == 0 && a.addr == KOLO_SVC_RT_EPOCH) exp_switch = true;
        }
        // 2. a received flit; the tail stores or drops the packet
        if (top->mgmt_rx_valid) {
            RxPkt &k = rxq.front();
            if (++rx_pos == k.flits.size()) {
                if (k.deliver) {
                    int r = kolo_svc_mgmt_deliver(m, k.src, k.w.data(), k.words);
                    n_rx++;
                    if (r) n_rx_drop++;
                    else cov_stored++;
                }
                rxq.pop_front();
                rx_pos = 0;
            }
        }
        // 3. a service processor fault
        if (top->p_sp_act) {
            if (sp_pend.empty()) fail("SP fault acted on without a pulse");
            SpFault f = sp_pend.front();
            sp_pend.pop_front();
            if (g_cyc < f.cyc + 1 || g_cyc > f.cyc + 2)
                fail("SP fault of cycle %llu acted on in cycle %llu (1 or 2 cycles after)", (unsigned long long)f.cyc,
                     (unsigned long long)g_cyc);
            if (top->p_act_valid) fail("SP fault and a link action in one cycle");
            if (g_cyc == f.cyc + 2) cov_sp_late++;
            kolo_svc_sp_fault(m, f.cause, f.pc);
            n_sp++;
        } else if (!sp_pend.empty() && g_cyc > sp_pend.front().cyc + 2) {
            fail("SP fault of cycle %llu never acted on", (unsigned long long)sp_pend.front().cyc);
        }
        // 4. the event action of the link sequencer (the registered input: up_q, pvalid_q)
        for (int p = 0; p < 6; p++) {
            bool low = !up_q[p] || !pvalid_q[p];
            low_seen[p] = low_seen[p] || low;
            if (low && rep_up[p] && !owed[p]) owed[p] = true, owed_cyc[p] = g_cyc, n_owed++;
        }
        if (top->p_act_valid) {
            int p = top->p_act_port;
            n_acts++;
            if (p > 5) fail("action on port %d", p);
            bool match = pid_q[p] == kolo_neighbor(&topo, me, p) && pport_q[p] == (p ^ 1);
            if (top->p_act_thresh) {
                kolo_svc_link_check(m, p);
            } else if (top->p_act_up) {
                if (!up_q[p] || !pvalid_q[p]) fail("port %d: up action while the registered link is down", p);
                if (owed[p]) fail("port %d: up action with the down of cycle %llu not reported", p,
                                  (unsigned long long)owed_cyc[p]);
                kolo_svc_set_link(m, p, 1, (uint16_t)pid_q[p], pport_q[p]);
                rep_up[p] = match;
            } else {
                // a down action on a link up with its peer only for a down latched since the last one
                if (up_q[p] && pvalid_q[p] && match && !low_seen[p])
                    fail("port %d: down action on a link up with its peer, no down since the last", p);
                kolo_svc_set_link(m, p, 0, 0, 0);
                low_seen[p] = !up_q[p] || !pvalid_q[p];
                rep_up[p] = false;
                owed[p] = false;
            }
        }
        // 5. counter pulses
        for (int p = 0; p < 6; p++) {
            uint32_t c = (top->link_crc_err >> p) & 1, r = (top->link_replay >> p) & 1,
                     t = (top->link_tx_frame >> p) & 1, x = (top->link_rx_frame >> p) & 1;
            if (c | r | t | x) kolo_svc_link_count(m, p, c, r, t, x);
        }
        if (top->ni_unreachable) kolo_svc_add_unreachable(m, 1);
        // 6. a flit sent; its tail completes the send
        uint64_t fl[2] = {get_bits(top->mgmt_tx_flit, 0, 64), get_bits(top->mgmt_tx_flit, 64, 2)};
        if (tx_held && (!top->mgmt_tx_valid || fl[0] != tx_held_flit[0] || fl[1] != tx_held_flit[1]))
            fail("mgmt_tx: a flit offered and not taken was withdrawn or changed");
        tx_held = top->mgmt_tx_valid && !top->mgmt_tx_ready;
        tx_held_flit[0] = fl[0], tx_held_flit[1] = fl[1];
        if (top->mgmt_tx_valid && top->mgmt_tx_ready) tx_flit();
        // responses
        for (int p = 0; p < 2; p++) {
            PortDrv &d = port[p];
            bool b = p ? (top->h_axil_bvalid && top->h_axil_bready) : (top->s_axil_bvalid && top->s_axil_bready);
            bool r = p ? (top->h_axil_rvalid && top->h_axil_rready) : (top->s_axil_rvalid && top->s_axil_rready);
            bool bv = p ? top->h_axil_bvalid : top->s_axil_bvalid, rv = p ? top->h_axil_rvalid : top->s_axil_rvalid;
            if ((bv || rv) && (d.state != 2 || inflight != p)) fail("port %d: response without an access", p);
            uint32_t rdat = p ? top->h_axil_rdata : top->s_axil_rdata;
            unsigned code = p ? (bv ? top->h_axil_bresp : top->h_axil_rresp) : (bv ? top->s_axil_bresp : top->s_axil_rresp);
            if (resp_held[p] && ((!bv && !rv) || code != resp_held_code[p] || (rv && rdat != resp_held_data[p])))
                fail("port %d: a response offered and not taken was withdrawn or changed", p);
            resp_held[p] = (bv || rv) && !b && !r;
            resp_held_data[p] = rdat;
            resp_held_code[p] = code;
            if (!b && !r) continue;
            Access &a = d.acc;
            if (!a.executed) fail("port %d: response before execution", p);
            if (b != a.write) fail("port %d: %s response for a %s", p, b ? "B" : "R", a.write ? "write" : "read");
            unsigned resp = p ? (b ? top->h_axil_bresp : top->h_axil_rresp) : (b ? top->s_axil_bresp : top->s_axil_rresp);
            unsigned want = a.err ? 2u : 0u;
            if (resp != want)
                fail("port %d %s %04x data %08x strb %x: resp %u, model %u", p, a.write ? "write" : "read", a.addr,
                     a.data, a.strb, resp, want);
            if (r) {
                uint32_t v = p ? top->h_axil_rdata : top->s_axil_rdata;
                if (v != a.rdata) fail("port %d read %04x: %08x, model %08x", p, a.addr, v, a.rdata);
                n_reads++;
                if (a.addr == KOLO_SVC_EVT_DATA && !a.err) cov_evt[v & 7]++;
                if (a.addr == KOLO_SVC_SYS_TIME_LO) cov_time_lo++;
            } else {
                n_writes++;
                if (p == 1 && !a.err) cov_host_wr++;
                if (p == 1 && !a.err && a.addr >= KOLO_SVC_HMBOX_WORD(0) &&
                    a.addr < KOLO_SVC_HMBOX_WORD(KOLO_SVC_HMBOX_WORD_COUNT))
                    cov_host_hmbox++;
            }
            if (a.err) n_err++;
            d.result = a;
            d.done = true;
            d.state = 0;
            d.gap = rand_bus ? (int)rng.below(rng.chance(50) ? 2 : 12) : 0;
            inflight = -1;
        }
        irq_hist[0] = irq_hist[1];
        irq_hist[1] = kolo_svc_irq(m);
        n_irq += (unsigned long)irq_hist[1];
    }

    bool rt_copying_now() const { return top->p_copying; }

    void tx_flit() {
        uint64_t d = get_bits(top->mgmt_tx_flit, 0, 64);
        int tail = (int)get_bits(top->mgmt_tx_flit, 64, 1), head = (int)get_bits(top->mgmt_tx_flit, 65, 1);
        tx_flits.push_back(d);
        tx_head.push_back(head);
        tx_tail.push_back(tail);
        if (!tail) {
            if (tx_flits.size() > 40) fail("MGMT packet without a tail");
            return;
        }
        tx_accept = true;
        int before = tx_sent;
        kolo_svc_mgmt_retry(m);
        tx_accept = false;
        if (tx_sent != before + 1) fail("MGMT packet sent by the RTL but the model's mailbox was not busy");
        unsigned n = (unsigned)tx_words.size(), nfl = (n + 1) / 2;
        if (tx_flits.size() != nfl + 2) fail("MGMT packet of %zu flits, model %u words", tx_flits.size(), n);
        uint64_t h0 = (uint64_t)(tx_dst & 0xfffu) | (uint64_t)(me & 0xfffu) << 12 | 11ull << 24 | 1ull << 28 |
                      (uint64_t)nfl << 29 | (uint64_t)(tx_rs & KOLO_RS_MASK) << 36;
        if (tx_flits[0] != h0) fail("MGMT header flit 0 %016llx, model %016llx", (unsigned long long)tx_flits[0],
                                    (unsigned long long)h0);
        if (tx_flits[1] != n) fail("MGMT header flit 1 %016llx, model %u words", (unsigned long long)tx_flits[1], n);
        for (size_t i = 0; i < tx_flits.size(); i++) {
            if (tx_head[i] != (i == 0) || tx_tail[i] != (i + 1 == tx_flits.size()))
                fail("MGMT flit %zu: head %d tail %d", i, tx_head[i], tx_tail[i]);
            if (i < 2) continue;
            size_t k = i - 2;
            uint64_t want = tx_words[2 * k] | (uint64_t)(2 * k + 1 < n ? tx_words[2 * k + 1] : 0) << 32;
            if (tx_flits[i] != want)
                fail("MGMT payload flit %zu %016llx, model %016llx", k, (unsigned long long)tx_flits[i],
                     (unsigned long long)want);
        }
        tx_flits.clear();
        tx_head.clear();
        tx_tail.clear();
        n_tx++;
    }

    void cycle() {
        drive();
        top->clk = 0;
        top->eval();
        sample();
        top->clk = 1;
        top->eval();
        g_cyc++;
        // liveness: a link input stable for a while must be what the model (and the block) shows
        if (g_cyc % 64 == 0)
            for (int p = 0; p < 6; p++) {
                if (g_cyc - stable_since[p] < 64) continue;
                uint32_t st = 0, peer = 0;
                kolo_svc_read(m, KOLO_SVC_LINK_STATUS(p), &st, 0);
                kolo_svc_read(m, KOLO_SVC_LINK_PEER(p), &peer, 0);
                bool upe = up[p] && pvalid[p];
                bool match = pid[p] == kolo_neighbor(&topo, me, p) && pport[p] == (p ^ 1);
                uint32_t want = !upe ? 0u : match ? (1u | 2u << 4) : (2u | 1u << 4);
                if (st != want) fail("port %d: link status %x after 64 stable cycles, expected %x", p, st, want);
                if (upe && (peer & 0x7fffu) != ((uint32_t)pid[p] | (uint32_t)pport[p] << 12))
                    fail("port %d: peer %x not the announced one", p, peer);
                if (owed[p])
                    fail("port %d: the down of cycle %llu (LINK_UP raised before it) never reported: no LINK_DOWN",
                         p, (unsigned long long)owed_cyc[p]);
            }
    }

    // ---- stimulus -------------------------------------------------------------------------------
    RxPkt make_rx(uint16_t src, unsigned words, unsigned flits, bool deliver) {
        RxPkt k;
        k.src = src;
        k.words = words;
        k.deliver = deliver;
        uint64_t h0 = (uint64_t)(me & 0xfff) | (uint64_t)src << 12 | 11ull << 24 | 1ull << 28 |
                      (uint64_t)(flits & 63) << 29 | (rng.bits(23) << 36);
        k.flits.push_back(h0);
        k.flits.push_back(words | (rng.chance(20) ? rng.next() << 8 : 0));
        for (unsigned i = 0; i < flits; i++) {
            uint64_t d = rng.next();
            k.flits.push_back(d);
            k.w.push_back((uint32_t)d);
            k.w.push_back((uint32_t)(d >> 32));
        }
        k.w.resize(words <= 64 ? words : 0);
        for (size_t i = 0; i < k.flits.size(); i++) {
            k.head.push_back(i == 0);
            k.tail.push_back(i + 1 == k.flits.size());
        }
        return k;
    }
    RxPkt random_rx_packet() {
        uint16_t src = (uint16_t)rng.bits(12);
        unsigned r = rng.below(100);
        if (r < 80) {  // good
            unsigned words = 1 + rng.below(rng.chance(50) ? 6 : 64);
            return make_rx(src, words, (words + 1) / 2, true);
        }
        if (r < 86) return make_rx(src, 0, 1 + rng.below(3), true);                      // 0 words
        if (r < 90) return make_rx(src, 65 + rng.below(191), 32, true);                  // over 64 words
        if (r < 92) {  // over 64 words and as many flits as they need (more than a packet holds)
            unsigned words = 65 + rng.below(6);
            return make_rx(src, words, (words + 1) / 2, true);
        }
        if (r < 95) {  // abandoned: no tail, the next head starts a new packet
            unsigned words = 1 + rng.below(64);
            RxPkt k = make_rx(src, words, rng.below((words + 1) / 2 + 1), false);
            k.tail.back() = 0;
            return k;
        }
        // stray flits: no head (not after an abandoned packet: they would continue it)
        if (r < 97 && !rx_last_open) {
            RxPkt k = make_rx(src, 2, 1, false);
            k.head[0] = 0;
            return k;
        }
        unsigned words = 1 + rng.below(64), fl = (words + 1) / 2;                        // wrong length
        return make_rx(src, words, fl + (rng.chance(50) || fl == 1 ? 1 : (unsigned)-1), false);
    }

    uint32_t random_addr(int p, bool *write, uint32_t *data) {
        unsigned r = rng.below(100);
        *data = (uint32_t)rng.next();
        *write = rng.chance(45);
        static const uint32_t sys[] = {KOLO_SVC_SYS_ID, KOLO_SVC_SYS_VERSION, KOLO_SVC_SYS_NODE_ID,
                                       KOLO_SVC_SYS_TORUS, KOLO_SVC_SYS_SCRATCH, KOLO_SVC_SYS_HOST_ACCESS,
                                       KOLO_SVC_SYS_HOST_REFUSED, KOLO_SVC_SYS_BAD_ACCESS, KOLO_SVC_SYS_TIME_LO,
                                       KOLO_SVC_SYS_TIME_HI, KOLO_SVC_SYS_FW_STATE, KOLO_SVC_SYS_FW_HEARTBEAT,
                                       KOLO_SVC_RTR_PORT_EN, KOLO_SVC_RTR_PORT_DOWN, KOLO_SVC_RTR_DROP_ROUTE,
                                       KOLO_SVC_RTR_DROP_BAD, KOLO_SVC_RTR_FAULT_DROPS, KOLO_SVC_RT_EPOCH,
                                       KOLO_SVC_RT_ENTRIES, KOLO_SVC_RT_SWITCHES, KOLO_SVC_RT_UNREACHABLE,
                                       KOLO_SVC_SYS_SP_FAULTS, KOLO_SVC_SYS_SP_FAULT_PC, KOLO_SVC_SYS_SP_FAULT_CAUSE};
        if (r < 22) {  // mailbox receive
            static const uint32_t a[] = {KOLO_SVC_MBX_RX_STATUS, KOLO_SVC_MBX_RX_SRC, KOLO_SVC_MBX_RX_DATA,
                                         KOLO_SVC_MBX_RX_DATA, KOLO_SVC_MBX_RX_DATA, KOLO_SVC_MBX_RX_POP,
                                         KOLO_SVC_MBX_RX_POP, KOLO_SVC_MBX_RX_POP, KOLO_SVC_MBX_RX_COUNT,
                                         KOLO_SVC_MBX_RX_DROPS};
            uint32_t x = a[rng.below(10)];
            *write = x == KOLO_SVC_MBX_RX_POP ? rng.chance(80) : rng.chance(5);
            return x;
        }
        if (r < 38) {  // mailbox transmit
            static const uint32_t a[] = {KOLO_SVC_MBX_TX_DATA, KOLO_SVC_MBX_TX_DATA, KOLO_SVC_MBX_TX_DATA,
                                         KOLO_SVC_MBX_TX_SEND, KOLO_SVC_MBX_TX_STATUS, KOLO_SVC_MBX_TX_DST,
                                         KOLO_SVC_MBX_TX_RS, KOLO_SVC_MBX_TX_COUNT, KOLO_SVC_MBX_TX_ERRORS};
            uint32_t x = a[rng.below(9)];
            *write = x == KOLO_SVC_MBX_TX_DATA || x == KOLO_SVC_MBX_TX_SEND ? rng.chance(85) : rng.chance(40);
            return x;
        }
        if (quiet && rng.chance(40)) r = 40;
        if (r < 48) {  // events
            static const uint32_t a[] = {KOLO_SVC_EVT_STATUS, KOLO_SVC_EVT_DATA, KOLO_SVC_EVT_DATA,
                                         KOLO_SVC_EVT_IRQ_EN, KOLO_SVC_EVT_IRQ_STATUS, KOLO_SVC_EVT_LOST,
                                         KOLO_SVC_EVT_CTRL};
            uint32_t x = a[rng.below(7)];
            if (x == KOLO_SVC_EVT_DATA) *write = rng.chance(5);
            return x;
        }
        if (r < 63) {  // links (ports 6 and 7 fall outside the block)
            unsigned port = rng.chance(95) ? rng.below(6) : 6 + rng.below(2);
            unsigned off = 4 * rng.below(16);
            uint32_t x = KOLO_SVC_LINK_CTRL(0) + port * KOLO_SVC_LINK_STRIDE + off;
            if (off == 0) *data = (uint32_t)(rng.chance(85) ? 1 : 0) | (uint32_t)rng.chance(20) << 1 |
                                  (uint32_t)rng.chance(15) << 2 | (rng.chance(10) ? (uint32_t)rng.next() & ~7u : 0);
            if (x == KOLO_SVC_LINK_ERR_THRESH(port % 6)) *data = rng.below(40);
            return x;
        }
        if (r < 73) {  // the shadow table
            unsigned i = rng.chance(85) ? rng.below(entries) : rng.below(4096);
            return KOLO_SVC_RT_SHADOW_ENTRY(i);
        }
        if (r < 78) {  // the host mailbox (and a word either side of it); the host writes it too
            int i = (int)rng.below(KOLO_SVC_HMBOX_WORD_COUNT + 2) - 1;
            if (p == 1) *write = rng.chance(60);
            return (uint32_t)((int)KOLO_SVC_HMBOX_WORD(0) + 4 * i);
        }
        if (r < 80) {
            *write = rng.chance(70);
            return KOLO_SVC_RT_EPOCH;
        }
        if (r < 91) {
            uint32_t x = sys[rng.below(sizeof sys / sizeof sys[0])];
            if (x == KOLO_SVC_SYS_HOST_ACCESS && p == 0) *data = rng.chance(60);
            return x;
        }
        if (r < 94) return KOLO_SVC_RTR_OUT_FLITS(0) + 4 * rng.below(8);
        if (r < 98) return 4 * (uint32_t)rng.below(0x2000);  // anywhere
        return (uint32_t)rng.below(0x8000) | (1 + rng.below(3));  // misaligned
    }

    void new_random_access(int p) {
        PortDrv &d = port[p];
        Access a;
        a.port = p;
        a.addr = random_addr(p, &a.write, &a.data);
        bool hmbox = a.addr >= KOLO_SVC_HMBOX_WORD(0) && a.addr < KOLO_SVC_HMBOX_WORD(KOLO_SVC_HMBOX_WORD_COUNT);
        if (p == 1 && !hmbox && rng.chance(60)) a.write = false;  // the host mostly reads
        a.strb = rng.chance(93) ? 0xf : (unsigned)rng.bits(4);
        d.acc = a;
        d.state = 1;
        d.w_delay = rng.chance(70) ? 0 : (int)rng.below(3);
    }

    // ---- directed accesses ------------------------------------------------------------------------
    Access access(int p, bool write, uint32_t addr, uint32_t data = 0, unsigned strb = 0xf) {
        PortDrv &d = port[p];
        for (int guard = 0; d.state != 0; guard++) {
            cycle();
            if (guard > 100000) fail("port %d stuck", p);
        }
        Access a;
        a.port = p;
        a.write = write;
        a.addr = addr;
        a.data = data;
        a.strb = strb;
        d.acc = a;
        d.state = 1;
        d.w_delay = 0;
        d.done = false;
        for (int guard = 0; !d.done; guard++) {
            cycle();
            if (guard > 100000) fail("directed access to %04x never answered", addr);
        }
        return d.result;
    }
    uint32_t rd(uint32_t addr, int p = 0) {
        Access a = access(p, false, addr);
        if (a.err) fail("directed read of %04x: SLVERR", addr);
        return a.rdata;
    }
    void wr(uint32_t addr, uint32_t v, int p = 0) {
        Access a = access(p, true, addr, v);
        if (a.err) fail("directed write of %04x: SLVERR", addr);
    }
    void expect(bool ok, const char *what) {
        if (!ok) fail("directed: %s", what);
    }
    void idle(int n) {
        for (int i = 0; i < n; i++) cycle();
    }
    // every event waiting, oldest first, as (type, port) pairs type | port << 4
    std::vector<unsigned> events() {
        std::vector<unsigned> v;
        for (uint32_t e; (e = rd(KOLO_SVC_EVT_DATA)) & 0xfu;) v.push_back(e & 0x7fu);
        return v;
    }
    // the link of port p up with its expected peer (level), and stable from now
    void link_level(int p, int on) {
        up[p] = on, pvalid[p] = 1, pid[p] = kolo_neighbor(&topo, me, p), pport[p] = p ^ 1;
        stable_since[p] = g_cyc;
    }
};

World *g_w;
int cb_send(void *ctx, uint16_t dst, uint32_t rs, const uint32_t *w, unsigned n) {
    World *x = static_cast<World *>(ctx);
    if (!x->tx_accept) return 0;
    x->tx_sent++;
    x->tx_dst = dst;
    x->tx_rs = rs;
    x->tx_words.assign(w, w + n);
    return 1;
}
void cb_switch(void *ctx, const kolo_route_entry *t, unsigned entries, uint16_t epoch) {
    World *x = static_cast<World *>(ctx);
    (void)t;
    if (entries != x->entries) fail("route_switch with %u entries", entries);
    x->switches++;
    x->sw_epoch = epoch;
    x->n_switch++;
}
void cb_ctrl(void *ctx, uint8_t en, uint8_t lb, uint8_t pen) {
    World *x = static_cast<World *>(ctx);
    x->en = en, x->lb = lb, x->pen = pen;
}

// LINK_DOWN (2) and LINK_UP (1) events of port p as type | port << 4
unsigned ev(unsigned type, int p) { return type | (unsigned)p << 4; }

void short_downs(World &w) {
    const unsigned DN = KOLO_SVC_EVT_LINK_DOWN, UP = KOLO_SVC_EVT_LINK_UP;
    uint32_t base[6];
    for (int p = 0; p < 6; p++) w.link_level(p, p == 0 || p == 1 || p == 5);
    w.idle(20);
    w.events();
    for (int p = 0; p < 6; p++) base[p] = w.rd(KOLO_SVC_LINK_DOWN_COUNT(p));
    auto downs = [&](int p) { return w.rd(KOLO_SVC_LINK_DOWN_COUNT(p)) - base[p]; };
    // fails unless got holds want's events, each port's in want's order
    auto report = [&](const char *what, const std::vector<unsigned> &got, const std::vector<unsigned> &want) {
        // each port's events in order (the order between ports is the sequencer's priority)
        bool same = got.size() == want.size();
        for (int p = 0; p < 6 && same; p++) {
            std::vector<unsigned> a, b;
            for (unsigned e : got)
                if ((int)(e >> 4) == p) a.push_back(e);
            for (unsigned e : want)
                if ((int)(e >> 4) == p) b.push_back(e);
            same = a == b;
        }
        if (same) return;
        std::string g, x;
        for (unsigned e : got) g += " " + std::to_string(e & 15) + "/p" + std::to_string(e >> 4);
        for (unsigned e : want) x += " " + std::to_string(e & 15) + "/p" + std::to_string(e >> 4);
        fail("directed: short downs, %s: events (type/port, 2 LINK_DOWN, 1 LINK_UP)%s, want%s", what, g.c_str(),
             x.c_str());
    };
    // (a) port 0 down for one cycle
    w.up[0] = 0;
    w.cycle();
    w.up[0] = 1;
    w.idle(12);
    report("(a) port 0 one cycle", w.events(), {ev(DN, 0), ev(UP, 0)});
    if (downs(0) != 1) fail("directed: short downs (a): DOWN_COUNT(0) +%u, want +1", downs(0));
    // (b) ports 0 and 1 down for one cycle each, in consecutive cycles
    w.up[0] = 0;
    w.cycle();
    w.up[0] = 1, w.up[1] = 0;
    w.cycle();
    w.up[1] = 1;
    w.idle(16);
    report("(b) ports 0 and 1 in consecutive cycles", w.events(), {ev(DN, 0), ev(DN, 1), ev(UP, 0), ev(UP, 1)});
    if (downs(0) != 2 || downs(1) != 1)
        fail("directed: short downs (b): DOWN_COUNT(0) +%u, (1) +%u, want +2, +1", downs(0), downs(1));
    // (c) the sequencer busy: ports 2, 3, 4 come up (three LINK_UP actions ahead of port 5's) in
    // the cycle in which port 5 goes down for one cycle
    w.link_level(2, 1), w.link_level(3, 1), w.link_level(4, 1);
    w.up[5] = 0;
    w.cycle();
    w.up[5] = 1;
    w.idle(20);
    report("(c) port 5 one cycle, ports 2-4 coming up", w.events(),
           {ev(UP, 2), ev(UP, 3), ev(UP, 4), ev(DN, 5), ev(UP, 5)});
    if (downs(5) != 1) fail("directed: short downs (c): DOWN_COUNT(5) +%u, want +1", downs(5));
    // (d) a burst faster than the sequencer on port 1: down, up, down, up, down, up (a cycle
    // each): the first down is reported, the others come while it is latched or while the port
    // is down for the firmware: one LINK_DOWN, one LINK_UP
    for (int i = 0; i < 3; i++) {
        w.up[1] = 0;
        w.cycle();
        w.up[1] = 1;
        w.cycle();
    }
    w.idle(16);
    report("(d) a burst of three on port 1", w.events(), {ev(DN, 1), ev(UP, 1)});
    if (downs(1) != 2) fail("directed: short downs (d): DOWN_COUNT(1) +%u, want +2", downs(1));
    // (e) the same spaced so that each down comes after the LINK_UP of the one before: one
    // LINK_DOWN each, while bus reads keep the sequencer held in many cycles
    std::vector<unsigned> want;
    for (int i = 0; i < 3; i++) {
        w.up[4] = 0;
        w.cycle();
        w.up[4] = 1;
        w.rd(KOLO_SVC_SYS_SCRATCH);
        w.rd(KOLO_SVC_SYS_SCRATCH);
        w.idle(12);
        want.push_back(ev(DN, 4));
        want.push_back(ev(UP, 4));
    }
    report("(e) three spaced downs on port 4", w.events(), want);
    if (downs(4) != 3) fail("directed: short downs (e): DOWN_COUNT(4) +%u, want +3", downs(4));
    for (int p = 0; p < 6; p++) w.link_level(p, 0);
    w.idle(20);
    w.events();
}

// The event latency contract (docs/svc.md, "Event latency"): on an idle block (no bus access,
// no other action pending, the FIFO empty, EVT_IRQ_EN.EVENTS set) a port's link input that
// changes before edge 1 raises its LINK_UP or LINK_DOWN in the cycle after edge 2 and irq is
// high after edge LINK_IRQ_EDGES. A block that raises it a cycle later (a down latch on a port
// already down delayed every LINK_UP so) fails here.
constexpr int LINK_IRQ_EDGES = 4;
void link_latency(World &w) {
    const unsigned DN = KOLO_SVC_EVT_LINK_DOWN, UP = KOLO_SVC_EVT_LINK_UP;
    for (int p = 0; p < 6; p++)
        for (int on = 1; on >= 0; on--) {
            w.link_level(p, on);
            int n = 0;
            do {
                w.cycle();
                n++;
            } while (!w.top->irq && n < 64);
            if (n != LINK_IRQ_EDGES)
                fail("directed: event latency: port %d %s: irq high after edge %d, want %d", p,
                     on ? "up" : "down", n, LINK_IRQ_EDGES);
            std::vector<unsigned> e = w.events();
            if (e.size() != 1 || e[0] != ev(on ? UP : DN, p))
                fail("directed: event latency: port %d %s: %zu events, the first %x, want %x", p, on ? "up" : "down",
                     e.size(), e.empty() ? 0u : e[0], ev(on ? UP : DN, p));
            w.idle(4);
        }
}

void directed(World &w) {
    // the host mailbox right after reset: the access waits for the clear, every word reads 0
    w.expect(w.rd(KOLO_SVC_HMBOX_WORD(63), 1) == 0 && w.rd(KOLO_SVC_HMBOX_WORD(0)) == 0, "HMBOX cleared by reset");
    // identity and reset values
    w.expect(w.rd(KOLO_SVC_SYS_ID) == KOLO_SVC_SYS_ID_RESET, "SYS_ID");
    w.expect(w.rd(KOLO_SVC_SYS_NODE_ID) == w.me, "NODE_ID");
    w.expect(w.rd(KOLO_SVC_RT_ENTRIES) == w.entries, "RT_ENTRIES");
    w.expect(w.rd(KOLO_SVC_LINK_ERR_THRESH(5)) == KOLO_SVC_LINK_ERR_THRESH_RESET, "ERR_THRESH reset");
    // host gate, strobes, unmapped
    w.expect(w.access(1, true, KOLO_SVC_SYS_SCRATCH, 7).err, "host write refused");
    w.wr(KOLO_SVC_SYS_HOST_ACCESS, 1);
    w.expect(!w.access(1, true, KOLO_SVC_SYS_SCRATCH, 7).err, "host write taken");
    w.expect(w.access(1, true, KOLO_SVC_SYS_HOST_ACCESS, 0).err, "host write of HOST_ACCESS refused");
    w.expect(w.access(0, true, KOLO_SVC_SYS_SCRATCH, 9, 0x7).err, "partial strobe refused");
    w.expect(w.access(0, false, 0x0ffc).err, "unmapped read");
    w.expect(w.access(0, true, KOLO_SVC_SYS_ID, 1).err, "read-only write");
    w.expect(w.rd(KOLO_SVC_SYS_SCRATCH, 1) == 7, "host read");
    w.expect(w.rd(KOLO_SVC_SYS_HOST_REFUSED) == 2 && w.rd(KOLO_SVC_SYS_BAD_ACCESS) == 3, "refusal counters");
    // the host mailbox: each side writes words the other reads; host writes gated like the rest
    for (unsigned i = 0; i < KOLO_SVC_HMBOX_WORD_COUNT; i++)
        w.expect(!w.access(i & 1, true, KOLO_SVC_HMBOX_WORD(i), 0x5A000000u | i * 0x10101u).err, "HMBOX write");
    for (unsigned i = 0; i < KOLO_SVC_HMBOX_WORD_COUNT; i++)
        w.expect(w.rd(KOLO_SVC_HMBOX_WORD(i), (i & 1) ^ 1) == (0x5A000000u | i * 0x10101u), "HMBOX read back");
    w.expect(w.access(0, false, KOLO_SVC_HMBOX_WORD(KOLO_SVC_HMBOX_WORD_COUNT)).err, "past HMBOX unmapped");
    w.wr(KOLO_SVC_SYS_HOST_ACCESS, 0);
    w.expect(w.access(1, true, KOLO_SVC_HMBOX_WORD(3), 1).err, "host HMBOX write refused while closed");
    w.expect(w.rd(KOLO_SVC_HMBOX_WORD(3), 1) == (0x5A000000u | 3u * 0x10101u), "a refused write changes nothing");
    w.wr(KOLO_SVC_SYS_HOST_ACCESS, 1);
    // time: TIME_LO latches TIME_HI across the 32-bit carry
    while (g_cyc < 0x1000 + 16) w.cycle();
    w.rd(KOLO_SVC_SYS_TIME_LO);
    w.expect(w.rd(KOLO_SVC_SYS_TIME_HI) == 1, "TIME_HI after the carry");
    // routing table: fill, switch, look every id up (compared every cycle), the copy
    for (unsigned i = 0; i < w.entries; i++) w.wr(KOLO_SVC_RT_SHADOW_ENTRY(i), 0x80000000u | (i * 7919u) % 0x7fffffu);
    w.wr(KOLO_SVC_RT_EPOCH, 0x1234);
    for (unsigned i = 0; i < 4096; i++) {
        w.force_lk_id = (int)i;
        w.cycle();
    }
    w.force_lk_id = -1;
    w.expect(w.rd(KOLO_SVC_RT_EPOCH) == (0x1234u | 1u << 16), "RT_EPOCH");
    w.expect(w.rd(KOLO_SVC_RT_SHADOW_ENTRY(w.entries - 1)) == (0x80000000u | ((w.entries - 1) * 7919u) % 0x7fffffu),
             "the new shadow is a copy");
    w.wr(KOLO_SVC_RT_SHADOW_ENTRY(0), 5);
    w.wr(KOLO_SVC_RT_EPOCH, 0x1235);
    w.idle(20);
    // two switches later the host mailbox is as it was
    for (unsigned i = 0; i < KOLO_SVC_HMBOX_WORD_COUNT; i++)
        w.expect(w.rd(KOLO_SVC_HMBOX_WORD(i), 1) == (0x5A000000u | i * 0x10101u), "HMBOX after table switches");
    // mailbox transmit
    w.wr(KOLO_SVC_MBX_TX_DST, 0x123);
    w.wr(KOLO_SVC_MBX_TX_RS, 0x8);
    for (uint32_t i = 0; i < 3; i++) w.wr(KOLO_SVC_MBX_TX_DATA, 0x100 + i);
    w.wr(KOLO_SVC_MBX_TX_SEND, 1);
    w.idle(10);
    w.expect(w.rd(KOLO_SVC_MBX_TX_COUNT) == 1 && w.n_tx == 1, "one MGMT packet sent");
    // mailbox receive: 9 packets, the 9th dropped with an MBX_OVERFLOW event
    w.wr(KOLO_SVC_EVT_IRQ_EN, KOLO_SVC_EVT_IRQ_EN_EVENTS_MASK | KOLO_SVC_EVT_IRQ_EN_MBX_MASK);
    for (unsigned i = 0; i < KOLO_SVC_MBX_RX_PKTS + 1; i++) w.rxq.push_back(w.make_rx((uint16_t)(0x100 + i), 3, 2, true));
    w.idle(60);
    w.expect(w.top->irq, "irq with packets waiting");
    w.expect(w.rd(KOLO_SVC_MBX_RX_DROPS) == 1, "RX_DROPS");
    w.expect((w.rd(KOLO_SVC_EVT_DATA) & 0xfu) == KOLO_SVC_EVT_MBX_OVERFLOW, "MBX_OVERFLOW event");
    w.expect(w.rd(KOLO_SVC_MBX_RX_SRC) == 0x100, "RX_SRC");
    for (int i = 0; i < 4; i++) w.rd(KOLO_SVC_MBX_RX_DATA);
    for (unsigned i = 0; i < KOLO_SVC_MBX_RX_PKTS; i++) w.wr(KOLO_SVC_MBX_RX_POP, 1);
    w.expect(w.rd(KOLO_SVC_MBX_RX_STATUS) == 0, "RX empty");
    // links: the right peer, then a wrong one on an up link (LINK_DOWN, MISCABLED)
    int p = 2;
    w.up[p] = 1, w.pvalid[p] = 1, w.pid[p] = kolo_neighbor(&w.topo, w.me, p), w.pport[p] = p ^ 1;
    w.stable_since[p] = g_cyc;
    w.idle(5);
    w.expect((w.rd(KOLO_SVC_EVT_DATA) & 0xfu) == KOLO_SVC_EVT_LINK_UP, "LINK_UP");
    w.pid[p] ^= 0x800;
    w.stable_since[p] = g_cyc;
    w.idle(5);
    w.expect((w.rd(KOLO_SVC_EVT_DATA) & 0xfu) == KOLO_SVC_EVT_LINK_DOWN, "LINK_DOWN first");
    w.expect((w.rd(KOLO_SVC_EVT_DATA) & 0xfu) == KOLO_SVC_EVT_MISCABLED, "then MISCABLED");
    w.up[p] = 0;
    w.stable_since[p] = g_cyc;
    w.idle(5);
    while (w.rd(KOLO_SVC_EVT_DATA) & 0xfu) {
    }
    // short downs (issue 18): one-cycle downs of up links, while the sequencer is busy, must each
    // raise LINK_DOWN (DOWN_COUNT + 1) and then LINK_UP again (the down latch of kolo_svc_link)
    short_downs(w);
    // the event latency contract (docs/svc.md): LINK_UP and LINK_DOWN of every port on an idle block
    link_latency(w);
    // a service processor fault: counted, last cause and pc, SP_FAULT event with cause and pc[21:2]
    w.sp_force = true;
    w.idle(4);
    w.expect(w.rd(KOLO_SVC_SYS_SP_FAULTS) == 1, "SP_FAULTS");
    uint32_t e = w.rd(KOLO_SVC_EVT_DATA);
    uint32_t pc = w.rd(KOLO_SVC_SYS_SP_FAULT_PC), cause = w.rd(KOLO_SVC_SYS_SP_FAULT_CAUSE);
    w.expect((e & 0xffu) == KOLO_SVC_EVT_SP_FAULT && e >> 8 == (((pc >> 2) & 0xfffffu) << 4 | cause) && cause < 16,
             "SP_FAULT event");
    w.wr(KOLO_SVC_SYS_HOST_ACCESS, 0);
    w.wr(KOLO_SVC_EVT_IRQ_EN, 0);
}

}  // namespace

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    g_seed = tb::seed_from(argc, argv, 1);
    uint64_t cycles = 200000;
    int sx = 0, sy = 0, sz = 0, nx = -1, ny = -1, nz = -1;
    bool run_directed = true;
    for (int i = 1; i < argc; i++) {
        if (!std::strncmp(argv[i], "--cycles=", 9)) cycles = std::strtoull(argv[i] + 9, nullptr, 0);
        if (!std::strncmp(argv[i], "--torus=", 8) && std::sscanf(argv[i] + 8, "%dx%dx%d", &sx, &sy, &sz) != 3) {
            std::fprintf(stderr, "--torus=XxYxZ\n");
            return 2;
        }
        if (!std::strncmp(argv[i], "--node=", 7) && std::sscanf(argv[i] + 7, "%d,%d,%d", &nx, &ny, &nz) != 3) {
            std::fprintf(stderr, "--node=x,y,z\n");
            return 2;
        }
        if (!std::strcmp(argv[i], "--no-directed")) run_directed = false;
    }
    World w;
    g_w = &w;
    w.rng = tb::Rng(g_seed);
    static const int sizes[] = {1, 2, 2, 3, 3, 4, 4, 5, 8, 16};
    if (!sx) {
        sx = sizes[w.rng.below(10)];
        sy = sizes[w.rng.below(10)];
        sz = sizes[w.rng.below(10)];
        if (sx * sy * sz > 1024 && w.rng.chance(70)) sz = 1;  // keep most runs' copies short
    }
    w.topo = kolo_topo{{(uint8_t)sx, (uint8_t)sy, (uint8_t)sz}};
    if (!kolo_topo_valid(&w.topo)) {
        std::fprintf(stderr, "bad torus\n");
        return 2;
    }
    if (nx < 0) nx = (int)w.rng.below((uint32_t)sx), ny = (int)w.rng.below((uint32_t)sy), nz = (int)w.rng.below((uint32_t)sz);
    w.me = kolo_node_id(kolo_coord{{(uint8_t)nx, (uint8_t)ny, (uint8_t)nz}});
    w.entries = kolo_topo_nodes(&w.topo);
    kolo_svc_env env{&w, cb_send, cb_switch, cb_ctrl};
    w.m = kolo_svc_new(w.me, &w.topo, &env);
    if (!w.m) {
        std::fprintf(stderr, "node outside the torus\n");
        return 2;
    }
    std::printf("unit-svc: seed %llu, torus %dx%dx%d, node %d,%d,%d (%03x), %llu cycles\n",
                (unsigned long long)g_seed, sx, sy, sz, nx, ny, nz, w.me, (unsigned long long)cycles);

    w.top = new Vtb_svc;
    Vtb_svc *t = w.top;
    t->node_id = w.me;
    t->dim_m1 = (uint16_t)((sx - 1) | (sy - 1) << 4 | (sz - 1) << 8);
    t->rst = 1;
    for (int i = 0; i < 64; i++) {  // the block's size tables settle from the straps
        t->clk = 0;
        t->eval();
        t->clk = 1;
        t->eval();
    }
    t->rst = 0;
    g_cyc = 0;
    if (run_directed) directed(w);
    w.rand_bus = w.rand_io = true;
    uint64_t end = g_cyc + cycles;
    while (g_cyc < end) {
        // phases: vary transmit back-pressure
        if (g_cyc % 20000 == 0) {
            w.tx_ready_pct = (int)(10 + w.rng.below(91));
            w.quiet = (g_cyc / 20000) % 3 == 2 || w.rng.chance(20);  // every third phase at least
        }
        w.cycle();
    }
    std::printf("coverage: events read: LINK_UP %lu, LINK_DOWN %lu, MISCABLED %lu, ERR_THRESHOLD %lu, "
                "MBX_OVERFLOW %lu, SP_FAULT %lu, none %lu; host writes taken %lu; packets stored %lu; TIME_LO reads "
                "%lu; host mailbox writes by the host %lu; cycles an access waited for the table copy %lu; SP faults %lu (%lu after a mailbox event); short "
                "link downs driven %lu, downs of an up port owed a LINK_DOWN %lu\n",
                w.cov_evt[1], w.cov_evt[2], w.cov_evt[3], w.cov_evt[4], w.cov_evt[5], w.cov_evt[6], w.cov_evt[0],
                w.cov_host_wr, w.cov_stored, w.cov_time_lo, w.cov_host_hmbox, w.cov_stalled, w.n_sp, w.cov_sp_late, w.n_glitch, w.n_owed);
    // a long random run that never reached one of these would prove little: fail it
    if (cycles >= 100000) {
        for (int e = 0; e <= KOLO_SVC_EVT_SP_FAULT; e++)
            if (!w.cov_evt[e]) fail("coverage: no event of type %d read in the random phase", e);
        bool copy_long = w.entries >= 8;  // a copy of 1..7 entries is rarely waited for
        if (!w.cov_host_wr || !w.cov_host_hmbox || !w.cov_stored || !w.cov_time_lo || (copy_long && !w.cov_stalled) || !w.n_tx ||
            !w.n_switch)
            fail("coverage: host writes (to the host mailbox too), stored packets, TIME_LO reads, copy waits, sends or switches missing");
        if (w.n_owed < 10) fail("coverage: %lu downs of an up port (want 10 at least)", w.n_owed);
    }
    std::printf("PASS unit-svc: %llu cycles; %lu reads, %lu writes (%lu SLVERR), %lu lookups, %lu table switches, "
                "MGMT %lu sent, %lu offered (%lu not stored), %lu link/threshold actions, irq high %lu cycles "
                "(seed %llu)\n",
                (unsigned long long)g_cyc, w.n_reads, w.n_writes, w.n_err, w.n_lookups, w.n_switch, w.n_tx, w.n_rx,
                w.n_rx_drop, w.n_acts, w.n_irq, (unsigned long long)g_seed);
    t->final();
    delete t;
    kolo_svc_free(w.m);
    return 0;
}
