// kolo_chip_sim.h - the world around N Verilated kolo_chips (sw/rtlsim/
// kolo_sim_chips.v): their clocks, the lanes between them, one PCIe root
// complex per chip and, for chips built with SP_INTERNAL 0, an AXI4-Lite
// master per chip on the service block port. Used by tb/chip (tb_chip.cpp)
// and kolo-sim --net=chip (sw/sim/net_chip.cpp), from sw/rtlsim.
//
// Time is in femtoseconds. Every clock has a period and a phase; step()
// advances to the next edge time, samples what the rising edges take
// (handshakes, lane words, slips), toggles the clocks, evaluates the model,
// drives what follows the edges (root complex beats, bus requests, received
// lane beats) and evaluates again. Clocks with the same period and phase
// share their evaluations (kolo-sim runs every clock alike: one evaluation
// pair per core cycle).
// Lanes: chip n's port p, lane l transmits into LaneDir dir(n, p, l) (gearbox,
// lane model, gearbox: kolo_chip_lanes.h); the receiving side of chip m's
// port q reads the LaneDirs of rx_src(m, q), normally its torus neighbour's
// port q ^ 1 (the cabling; a test may change it). The rx lane clock of (m, q)
// is the tx lane clock of its neighbour (recovered), shifted in phase.
// PCIe: chip n's host is root complex rc(n) (kolo_pcie_rc.h); odd chips take
// completions on their own stream rx_cpl_* (SimConfig::cpl_stream_odd), every
// chip's completion buffer is finite (cpl_space_h/d, checked by the model)
// and host non-posted requests wait for the chip's np_credit.
#ifndef KOLO_CHIP_SIM_H
#define KOLO_CHIP_SIM_H

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "Vkolo_sim_chips.h"
#include "kolo_chip_lanes.h"
#include "kolo_pcie_rc.h"
#include "kolo_rtl_bits.h"
#include "verilated.h"

namespace kolo_chip {

using kolo_rtl::sig_get;
using kolo_rtl::sig_set;

struct SimConfig {
    unsigned dim[3] = {2, 1, 1};
    unsigned lanes = 1, data_w = 64, pause_seq = 32;
    uint64_t core_fs = 4000000, pcie_fs = 4000000, sp_fs = 4000000, lane_fs = 4000000;
    bool same_phase = true;   // every clock with phase 0 (else random phases)
    unsigned ppm = 0;         // chip n's clocks run at +ppm (n even) or -ppm (n odd)
    unsigned lane_delay = 8;  // lane model delay in words
    uint64_t seed = 1;
    bool external_sp = true;  // drive the s_axil_* ports (SP_INTERNAL 0)
    bool pcie_async = false;  // the chips were built with PCIE_ASYNC 1: pcie_clk is a clock of its own
    bool sp_async = false;    // ... SP_ASYNC 1: sp_clk is (else the processor's port is on the core clock)
    // the hosts' PCIe side: odd-numbered chips take their completions on
    // rx_cpl_* (as an UltraScale block's RC stream), even ones on rx_tlp_*;
    // every chip's block has a completion buffer of cpl_space_h headers and
    // cpl_space_d 16-byte credits (the root complex model counts them: an
    // overflow is a violation), and the host sends a non-posted request only
    // with a credit of the chip's np_credit (at most np_credit_max owed)
    bool cpl_stream_odd = true;
    unsigned cpl_space_h = 64, cpl_space_d = 1024;
    unsigned np_credit_max = 16;
};

// One AXI4-Lite access on a chip's service block port.
struct BusOp {
    bool write = false;
    uint32_t addr = 0, data = 0;
    bool done = false;
    uint32_t rdata = 0;
    unsigned resp = 0;
    uint64_t issued_fs = 0;
};

class ChipSim {
  public:
    enum Kind { kCore, kPcie, kSp, kTx, kRx };
    struct Clock {
        Kind kind;
        unsigned idx;  // chip, or chip*6+port
        uint64_t half_fs, base_fs, n = 0, next_fs;
        bool level = false;
    };
    static constexpr uint64_t kBar0 = 0xE0000000ull;
    static constexpr uint64_t kBar2 = 0xE0100000ull;
    static constexpr uint64_t kMsiAddr = 0xFEE00000ull;

    explicit ChipSim(const SimConfig &c) : cfg_(c), rng_(c.seed * 0x9E3779B97F4A7C15ull + 1) {
        n_ = c.dim[0] * c.dim[1] * c.dim[2];
        ctx_.reset(new VerilatedContext);
        top_.reset(new Vkolo_sim_chips(ctx_.get()));
        rc_.resize(n_);
        bus_.resize(n_);
        dirs_.resize(static_cast<size_t>(n_) * 6 * c.lanes);
        rx_src_.assign(static_cast<size_t>(n_) * 6, -1);
        slip_.assign(static_cast<size_t>(n_) * 6 * c.lanes, 0);
        for (unsigned n = 0; n < n_; n++) {
            kolo::KoloPcieRc::Config rc;
            rc.rc_id = 0x0000;
            rc.dev_id = 0x0100;
            rc.mps = 256;
            rc.mrrs = 512;
            rc.rcb = 64;
            rc.tags = 32;
            rc.mmio_latency = 8;
            rc.cpl_latency_min = 40;
            rc.cpl_latency_max = 100;
            rc.cpl_gap_max = 2;
            rc.msi_addr = kMsiAddr;
            rc.cpl_space_h = c.cpl_space_h;
            rc.cpl_space_d = c.cpl_space_d;
            rc.np_credit_gate = true;
            rc.np_credit_max = c.np_credit_max;
            rc.seed = c.seed * 1000 + n + 1;
            rc_[n].reset(new kolo::KoloPcieRc(rc));
        }
        // configuration (every chip alike)
        top_->cfg_bar0 = kBar0;
        top_->cfg_bar2 = kBar2;
        top_->cfg_req_id = 0x0100;
        top_->cfg_max_payload = 1;
        top_->cfg_max_read_req = 2;
        top_->cfg_bus_master = 1;
        top_->cfg_msi_addr = kMsiAddr;
        top_->cfg_msi_data = 0;
        top_->cfg_msi_en = 1;
        for (unsigned n = 0; n < n_; n++) {
            sig_set(top_->cfg_cpl_hdr, n * 12, 12, c.cpl_space_h);
            sig_set(top_->cfg_cpl_data, n * 16, 16, c.cpl_space_d);
        }
        sig_set(top_->rst, 0, n_, ~0ull);
        sig_set(top_->pcie_rst, 0, n_, ~0ull);
        sig_set(top_->sp_console_ready, 0, n_, ~0ull);
        for (unsigned i = 0; i < n_ * 6; i++) {
            sig_set(top_->lane_tx_rst, i, 1, 1);
            sig_set(top_->lane_rx_rst, i, 1, 1);
        }
        // clocks
        auto period = [&](uint64_t fs, unsigned n) {
            if (!c.ppm) return fs;
            uint64_t d = fs / 1000000 * c.ppm;
            return (n % 2) ? fs + d : fs - d;
        };
        auto phase = [&](uint64_t fs) { return c.same_phase ? 0 : rng_.below(static_cast<uint32_t>(fs / 1000)) * 1000; };
        for (unsigned n = 0; n < n_; n++) {
            add_clock(kCore, n, period(c.core_fs, n), phase(c.core_fs));
            if (c.pcie_async) add_clock(kPcie, n, period(c.pcie_fs, n), phase(c.pcie_fs));
            if (c.sp_async) add_clock(kSp, n, period(c.sp_fs, n), phase(c.sp_fs));
        }
        for (unsigned n = 0; n < n_; n++)
            for (unsigned p = 0; p < 6; p++)
                if (port_built(p)) {
                    unsigned m = neighbour(n, p), q = p ^ 1;
                    uint64_t tx_period = period(c.lane_fs, n), ph = phase(c.lane_fs);
                    add_clock(kTx, n * 6 + p, tx_period, ph);
                    // the far end's recovered clock: same period, later phase
                    uint64_t rx_ph = c.same_phase ? ph : ph + rng_.below(static_cast<uint32_t>(c.lane_fs / 1000)) * 1000;
                    add_clock(kRx, m * 6 + q, tx_period, rx_ph);
                    rx_src_[m * 6 + q] = static_cast<int>(n * 6 + p);
                    for (unsigned l = 0; l < c.lanes; l++)
                        dir(n, p, l).init(c.seed * 7919 + (n * 6 + p) * 4 + l, c.data_w, c.pause_seq,
                                          c.lane_delay);
                }
        top_->eval();
    }
    ~ChipSim() { top_->final(); }

    // ---- topology -------------------------------------------------------------------
    unsigned chips() const { return n_; }
    bool port_built(unsigned p) const { return cfg_.dim[p / 2] > 1; }
    unsigned neighbour(unsigned n, unsigned p) const {
        unsigned c[3] = {n % cfg_.dim[0], (n / cfg_.dim[0]) % cfg_.dim[1], n / (cfg_.dim[0] * cfg_.dim[1])};
        unsigned d = p / 2, s = cfg_.dim[d];
        c[d] = (p % 2) ? (c[d] + s - 1) % s : (c[d] + 1) % s;
        return c[0] + cfg_.dim[0] * (c[1] + cfg_.dim[1] * c[2]);
    }
    uint16_t node_id(unsigned n) const {
        unsigned x = n % cfg_.dim[0], y = (n / cfg_.dim[0]) % cfg_.dim[1], z = n / (cfg_.dim[0] * cfg_.dim[1]);
        return static_cast<uint16_t>((z << 8) | (y << 4) | x);
    }
    LaneDir &dir(unsigned n, unsigned p, unsigned l) { return dirs_[(n * 6 + p) * cfg_.lanes + l]; }
    // chip m's port q receives what chip src/6's port src%6 transmits
    void set_rx_src(unsigned m, unsigned q, unsigned n, unsigned p) { rx_src_[m * 6 + q] = static_cast<int>(n * 6 + p); }
    int rx_src(unsigned m, unsigned q) const { return rx_src_[m * 6 + q]; }
    // both directions of the link of chip n's port p: lanes dead (random bits) or back
    void cut(unsigned n, unsigned p, bool dead, kolo_lane::DeadMode mode = kolo_lane::DeadMode::Garbage) {
        unsigned m = neighbour(n, p), q = p ^ 1;
        for (unsigned l = 0; l < cfg_.lanes; l++) {
            dir(n, p, l).lane().set_dead(dead, mode);
            dir(m, q, l).lane().set_dead(dead, mode);
        }
    }

    // ---- resets ---------------------------------------------------------------------
    void set_rst(unsigned n, bool v) { sig_set(top_->rst, n, 1, v); }
    void set_pcie_rst(unsigned n, bool v) { sig_set(top_->pcie_rst, n, 1, v); }
    void set_lane_tx_rst(unsigned n, unsigned p, bool v) { sig_set(top_->lane_tx_rst, n * 6 + p, 1, v); }
    void set_lane_rx_rst(unsigned n, unsigned p, bool v) { sig_set(top_->lane_rx_rst, n * 6 + p, 1, v); }

    // ---- status ---------------------------------------------------------------------
    Vkolo_sim_chips &top() { return *top_; }
    bool ready(unsigned n) const { return sig_get(top_->ready, n, 1); }
    unsigned link_state(unsigned n, unsigned p) const {
        return static_cast<unsigned>(sig_get(top_->stat_link_state, (n * 6 + p) * 2, 2));
    }
    uint32_t link_counter(unsigned n, unsigned p, unsigned i) const {
        return static_cast<uint32_t>(sig_get(top_->stat_link_counters, (n * 6 + p) * 512 + i * 32, 32));
    }
    uint64_t router_errors(unsigned n) const { return sig_get(top_->stat_router_errors, n * 64, 64); }
    uint32_t router_fault_drops(unsigned n) const {
        return static_cast<uint32_t>(sig_get(top_->stat_router_fault_drops, n * 32, 32));
    }
    kolo::KoloPcieRc &rc(unsigned n) { return *rc_[n]; }
    // chip n takes its completions on rx_cpl_*; how many it took there
    bool cpl_stream(unsigned n) const { return cfg_.cpl_stream_odd && (n % 2) == 1; }
    uint64_t cpl_stream_tlps(unsigned n) const { return cpl_stream_tlps_[n]; }
    uint64_t now_fs() const { return now_; }
    uint64_t evals() const { return evals_; }
    uint64_t core_cycles(unsigned n) const { return (clocks_[core_clock_[n]].n + 1) / 2; }

    // ---- service block bus (external service processor) ----------------------------
    // Queue an access; it is issued on the chip's s_axil_* port in order.
    std::shared_ptr<BusOp> bus(unsigned n, bool write, uint32_t addr, uint32_t data = 0) {
        auto op = std::make_shared<BusOp>();
        op->write = write;
        op->addr = addr;
        op->data = data;
        bus_[n].q.push_back(op);
        return op;
    }
    bool bus_idle(unsigned n) const { return bus_[n].q.empty(); }

    // Hooks called after each rising edge of chip n's core clock, with the
    // model evaluated (monitors, scoreboards).
    std::function<void(unsigned)> on_core_edge;
    // The console of chip n (internal processor): one byte
    std::function<void(unsigned, uint8_t)> on_console;

    // ---- time ----------------------------------------------------------------------
    void step() {
        uint64_t t = ~0ull;
        for (const Clock &c : clocks_) t = std::min(t, c.next_fs);
        now_ = t;
        rising_.clear();
        bool any_fall = false;
        for (size_t i = 0; i < clocks_.size(); i++)
            if (clocks_[i].next_fs == t) {
                if (!clocks_[i].level) rising_.push_back(i);
                else any_fall = true;
            }
        for (size_t i : rising_) sample(clocks_[i]);
        for (Clock &c : clocks_)
            if (c.next_fs == t) {
                c.level = !c.level;
                c.n++;
                c.next_fs = c.base_fs + c.n * c.half_fs;
                set_clock(c);
            }
        top_->eval();
        evals_++;
        (void)any_fall;
        bool drove = false;
        for (size_t i : rising_) drove |= drive(clocks_[i]);
        if (drove) {
            top_->eval();
            evals_++;
        }
        for (size_t i : rising_)
            if (clocks_[i].kind == kCore && on_core_edge) on_core_edge(clocks_[i].idx);
    }
    // step until cond() holds or limit_fs passes; false on timeout
    template <class F> bool run_until(F cond, uint64_t limit_fs) {
        const uint64_t end = now_ + limit_fs;
        while (!cond()) {
            if (now_ > end) return false;
            step();
        }
        return true;
    }
    void run_for(uint64_t fs) {
        const uint64_t end = now_ + fs;
        while (now_ < end) step();
    }

  private:
    struct Bus {
        std::deque<std::shared_ptr<BusOp>> q;
        bool aw_done = false, w_done = false, ar_done = false;
        bool aw_v = false, w_v = false, ar_v = false;
    };

    void add_clock(Kind k, unsigned idx, uint64_t period_fs, uint64_t phase_fs) {
        if (k == kCore) core_clock_.push_back(clocks_.size());
        Clock c;
        c.kind = k;
        c.idx = idx;
        c.half_fs = period_fs / 2;
        c.base_fs = phase_fs + c.half_fs;  // first edge: rising, half a period after the phase
        c.next_fs = c.base_fs;
        clocks_.push_back(c);
    }
    void set_clock(const Clock &c) {
        switch (c.kind) {
        case kCore: sig_set(top_->clk, c.idx, 1, c.level); break;
        case kPcie: sig_set(top_->pcie_clk, c.idx, 1, c.level); break;
        case kSp: sig_set(top_->sp_clk, c.idx, 1, c.level); break;
        case kTx: sig_set(top_->lane_tx_clk, c.idx, 1, c.level); break;
        case kRx: sig_set(top_->lane_rx_clk, c.idx, 1, c.level); break;
        }
    }

    // what the rising edge of c takes
    void sample(const Clock &c) {
        const unsigned i = c.idx;
        switch (c.kind) {
        case kCore:
            if (!cfg_.pcie_async) sample_pcie(i);
            if (!cfg_.sp_async) sample_sp(i);
            break;
        case kPcie: sample_pcie(i); break;
        case kSp: sample_sp(i); break;
        case kTx: {
            const unsigned n = i / 6, p = i % 6;
            const unsigned seq = static_cast<unsigned>(sig_get(top_->lane_tx_sequence, i * 7, 7));
            for (unsigned l = 0; l < cfg_.lanes; l++) {
                const unsigned li = i * cfg_.lanes + l;
                uint64_t data = sig_get(top_->lane_tx_data, li * cfg_.data_w, cfg_.data_w);
                unsigned hdr = static_cast<unsigned>(sig_get(top_->lane_tx_header, li * 2, 2));
                dir(n, p, l).tx_edge(seq, data, hdr);
            }
            break;
        }
        case kRx:
            for (unsigned l = 0; l < cfg_.lanes; l++)
                slip_[i * cfg_.lanes + l] = static_cast<uint8_t>(sig_get(top_->lane_rx_slip, i * cfg_.lanes + l, 1));
            break;
        }
    }
    void sample_pcie(unsigned i) {
        if (rx_driven_valid_[i] &&
            (rx_driven_cpl_[i] ? sig_get(top_->rx_cpl_ready, i, 1) : sig_get(top_->rx_tlp_ready, i, 1))) {
            rx_accept_[i] = true;
            if (rx_driven_cpl_[i] && rx_driven_eop_[i]) cpl_stream_tlps_[i]++;
        }
        if (sig_get(top_->np_credit, i, 1)) np_pulse_[i] = true;
        if (tx_driven_ready_[i] && sig_get(top_->tx_tlp_valid, i, 1)) {
            kolo::PcieBeat b;
            for (unsigned k = 0; k < 4; k++)
                b.hdr[k] = static_cast<uint32_t>(sig_get(top_->tx_tlp_hdr, i * 128 + 32 * k, 32));
            for (unsigned k = 0; k < 8; k++)
                b.data[k] = static_cast<uint32_t>(sig_get(top_->tx_tlp_data, i * 256 + 32 * k, 32));
            b.sop = sig_get(top_->tx_tlp_sop, i, 1);
            b.eop = sig_get(top_->tx_tlp_eop, i, 1);
            b.dw_en = static_cast<uint8_t>(sig_get(top_->tx_tlp_dw_en, i * 8, 8));
            tx_beat_[i] = b;
            tx_take_[i] = true;
        }
    }
    void sample_sp(unsigned i) {
        if (sig_get(top_->sp_console_valid, i, 1) && on_console)
            on_console(i, static_cast<uint8_t>(sig_get(top_->sp_console_data, i * 8, 8)));
        if (!cfg_.external_sp) return;
        Bus &b = bus_[i];
        if (b.aw_v && sig_get(top_->s_axil_awready, i, 1)) b.aw_done = true;
        if (b.w_v && sig_get(top_->s_axil_wready, i, 1)) b.w_done = true;
        if (b.ar_v && sig_get(top_->s_axil_arready, i, 1)) b.ar_done = true;
        if (b.q.empty()) return;
        BusOp &op = *b.q.front();
        if (op.write && b.aw_done && b.w_done && sig_get(top_->s_axil_bvalid, i, 1)) {
            op.resp = static_cast<unsigned>(sig_get(top_->s_axil_bresp, i * 2, 2));
            op.done = true;
        } else if (!op.write && b.ar_done && sig_get(top_->s_axil_rvalid, i, 1)) {
            op.rdata = static_cast<uint32_t>(sig_get(top_->s_axil_rdata, i * 32, 32));
            op.resp = static_cast<unsigned>(sig_get(top_->s_axil_rresp, i * 2, 2));
            op.done = true;
        }
        if (op.done) {
            b.q.pop_front();
            b.aw_done = b.w_done = b.ar_done = false;
        }
    }

    // what follows the rising edge of c; true if an input changed
    bool drive(const Clock &c) {
        const unsigned i = c.idx;
        switch (c.kind) {
        case kCore: {
            bool d = false;
            if (!cfg_.pcie_async) d = drive_pcie(i) || d;
            if (!cfg_.sp_async) d = drive_sp(i) || d;
            return d;
        }
        case kPcie: return drive_pcie(i);
        case kSp: return drive_sp(i);
        case kTx: return false;
        case kRx: {
            const int src = rx_src_[i];
            for (unsigned l = 0; l < cfg_.lanes; l++) {
                const unsigned li = i * cfg_.lanes + l;
                Beat b;
                if (src >= 0) b = dirs_[static_cast<unsigned>(src) * cfg_.lanes + l].rx_edge(slip_[li] != 0);
                sig_set(top_->lane_rx_data, li * cfg_.data_w, cfg_.data_w, b.data);
                sig_set(top_->lane_rx_header, li * 2, 2, b.header);
                sig_set(top_->lane_rx_data_valid, li, 1, b.data_valid);
                sig_set(top_->lane_rx_header_valid, li, 1, b.header_valid);
            }
            return true;
        }
        }
        return false;
    }
    bool drive_pcie(unsigned i) {
        kolo::KoloPcieRc &rc = *rc_[i];
        if (rx_accept_[i]) rc.dev_rx_accept();
        if (tx_take_[i]) rc.dev_tx_push(tx_beat_[i]);
        if (np_pulse_[i]) rc.dev_np_credit();
        rx_accept_[i] = tx_take_[i] = np_pulse_[i] = false;
        rc.step();
        bool v = rc.dev_rx_valid();
        bool cpl = v && cpl_stream(i) && rc.dev_rx_is_cpl();
        if (v) {
            const kolo::PcieBeat &b = rc.dev_rx_beat();
            if (cpl) {
                for (unsigned k = 0; k < 4; k++) sig_set(top_->rx_cpl_hdr, i * 128 + 32 * k, 32, b.hdr[k]);
                for (unsigned k = 0; k < 8; k++) sig_set(top_->rx_cpl_data, i * 256 + 32 * k, 32, b.data[k]);
                sig_set(top_->rx_cpl_sop, i, 1, b.sop);
                sig_set(top_->rx_cpl_eop, i, 1, b.eop);
                sig_set(top_->rx_cpl_dw_en, i * 8, 8, b.dw_en);
            } else {
                for (unsigned k = 0; k < 4; k++) sig_set(top_->rx_tlp_hdr, i * 128 + 32 * k, 32, b.hdr[k]);
                for (unsigned k = 0; k < 8; k++) sig_set(top_->rx_tlp_data, i * 256 + 32 * k, 32, b.data[k]);
                sig_set(top_->rx_tlp_sop, i, 1, b.sop);
                sig_set(top_->rx_tlp_eop, i, 1, b.eop);
                sig_set(top_->rx_tlp_dw_en, i * 8, 8, b.dw_en);
            }
            rx_driven_eop_[i] = b.eop;
        }
        sig_set(top_->rx_tlp_valid, i, 1, v && !cpl);
        sig_set(top_->rx_cpl_valid, i, 1, cpl);
        rx_driven_valid_[i] = v;
        rx_driven_cpl_[i] = cpl;
        bool r = rc.dev_tx_ready();
        sig_set(top_->tx_tlp_ready, i, 1, r);
        tx_driven_ready_[i] = r;
        return true;
    }
    bool drive_sp(unsigned i) {
        if (!cfg_.external_sp) return false;
        Bus &b = bus_[i];
        b.aw_v = b.w_v = b.ar_v = false;
        if (!b.q.empty()) {
            BusOp &op = *b.q.front();
            if (!op.issued_fs) op.issued_fs = now_;
            if (op.write) {
                b.aw_v = !b.aw_done;
                b.w_v = !b.w_done;
                sig_set(top_->s_axil_awaddr, i * 15, 15, op.addr);
                sig_set(top_->s_axil_wdata, i * 32, 32, op.data);
                sig_set(top_->s_axil_wstrb, i * 4, 4, 0xf);
            } else {
                b.ar_v = !b.ar_done;
                sig_set(top_->s_axil_araddr, i * 15, 15, op.addr);
            }
        }
        sig_set(top_->s_axil_awvalid, i, 1, b.aw_v);
        sig_set(top_->s_axil_wvalid, i, 1, b.w_v);
        sig_set(top_->s_axil_arvalid, i, 1, b.ar_v);
        sig_set(top_->s_axil_bready, i, 1, 1);
        sig_set(top_->s_axil_rready, i, 1, 1);
        return true;
    }

    SimConfig cfg_;
    kolo_lane::SplitMix64 rng_;
    unsigned n_ = 0;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vkolo_sim_chips> top_;
    std::vector<Clock> clocks_;
    std::vector<size_t> core_clock_;
    std::vector<size_t> rising_;
    std::vector<std::unique_ptr<kolo::KoloPcieRc>> rc_;
    std::vector<Bus> bus_;
    std::vector<LaneDir> dirs_;
    std::vector<int> rx_src_;
    std::vector<uint8_t> slip_;
    // per chip PCIe handshake state (up to 64 chips)
    bool rx_driven_valid_[64] = {}, tx_driven_ready_[64] = {}, rx_accept_[64] = {}, tx_take_[64] = {};
    bool rx_driven_cpl_[64] = {}, rx_driven_eop_[64] = {}, np_pulse_[64] = {};
    uint64_t cpl_stream_tlps_[64] = {};
    kolo::PcieBeat tx_beat_[64];
    uint64_t now_ = 0, evals_ = 0;
};

}  // namespace kolo_chip
#endif
