// kolo_x7_stream_model.h - a model of the Xilinx 7-series Integrated Block
// for PCI Express's user side (pcie_7x: the 128-bit AXI4-Stream TLP
// interfaces m_axis_rx_* / s_axis_tx_*, rx_np_ok, the MSI handshake
// cfg_interrupt/cfg_interrupt_rdy, the configuration outputs), converting
// to and from the TLPs of the root-complex model (sw/rtlsim/kolo_pcie_rc.h):
// the host's TLPs go to the user as the block sends them (straddled at DW2,
// is_sof/is_eof and BAR hits in tuser, non-posted requests held back by
// rx_np_ok after a slack, random gaps and back-pressure from the knobs), the
// user's TLPs and MSIs go to the root complex, and the user's side of the
// handshakes is checked (tb::Checker). Header only, C++17. Used by the
// shim's unit test (tb/unit/pcie_shim/tb_pcie_shim.cpp, -DKOLO_SHIM_X7) on
// its Verilated top's ports, and by the KC705 board simulation
// (tb/board_sim/tb_board_sim_kc705.cpp) on the pins its kolo_kc705_pcie
// model hands over (DPI).
//
// Ports: any type with members named as the block's ports (a Verilated top,
// or a struct of the pins): 128-bit data as 4 x 32-bit words (VlWide<4> or
// uint32_t[4]), the rest as integers. Per clock cycle:
//     model.drive(ports, rc, mps, mrrs, bus_master, msi_en);  // the block's outputs
//     evaluate the user's logic;
//     model.sample(ports, rc);   // the user's outputs, before the clock edge
//     clock edge; model.commit(); rc.step();
// RcDown (the root complex's TLPs collected whole, with BAR hits and the
// non-posted hold-back) is shared by the other vendor models of the unit
// test.
// Deliberate errors (X7Config::bug, for the checks that must bite):
// payload-order (two payload DWs of a memory TLP swapped), bar-hit (a BAR0
// hit reported as BAR2 now and then), msi-vector (the third MSI's vector
// off by one), cpl-byte (one byte of the cpl_byte_at-th completion with
// data to the user flipped).
#pragma once

#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "kolo_pcie_rc.h"
#include "tb_util.h"

namespace kolo_x7 {

using kolo::KoloPcieRc;
using kolo::PcieBeat;
using kolo::PcieTlp;

template <class W> void put_words(W &w, const uint32_t *p, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        w[i] = p[i];
}

// A TLP as a flat list of DWs (header, payload) with what the vendor side
// needs to know about it.
struct FlatTlp {
    PcieTlp tlp;
    unsigned hdr_dws = 3;
    uint8_t bar_hit = 0; // vendor BAR hit bits
};

inline unsigned hdr_dws(const PcieTlp &t) { return t.hdr4() ? 4 : 3; }

// The host's BAR addresses (what it programmed into the block): a memory
// request's BAR hit bits as the block reports them (BAR0: bit 0; the 64-bit
// BAR2/3: bits 2 and 3).
struct BarMap {
    uint64_t bar0 = 0, bar0_size = 0, bar2 = 0, bar2_size = 0;
    uint8_t hit(const PcieTlp &t) const {
        if (t.fmt() >= 4 || (t.type() != kolo::kTypeMem && t.type() != kolo::kTypeMemLk))
            return 0;
        uint64_t a = t.addr();
        if (a >= bar0 && a < bar0 + bar0_size)
            return 0x01;
        if (a >= bar2 && a < bar2 + bar2_size)
            return 0x0C; // 64-bit BAR2/3
        return 0;
    }
};

// Collects the rc's beats (core format) into whole TLPs.
class RcDown {
  public:
    // pulls at most one whole TLP from the rc when fewer than `want` are queued
    void pull(KoloPcieRc &rc, size_t want) {
        while (q.size() < want && rc.dev_rx_valid()) {
            const PcieBeat &b = rc.dev_rx_beat();
            if (b.sop) {
                cur = FlatTlp{};
                std::memcpy(cur.tlp.hdr, b.hdr, sizeof b.hdr);
            }
            for (unsigned i = 0; i < 8; i++)
                if (b.dw_en & (1u << i))
                    cur.tlp.data.push_back(b.data[i]);
            bool eop = b.eop;
            rc.dev_rx_accept();
            if (eop) {
                cur.hdr_dws = hdr_dws(cur.tlp);
                cur.bar_hit = bars.hit(cur.tlp);
                q.push_back(cur);
                n_tlps++;
            }
        }
    }
    // The next TLP to hand to the device: the oldest, or, while non-posted
    // requests are held back (np_ok false), the oldest that is not one (posted
    // requests and completions pass held non-posted ones; nothing else passes).
    bool take(bool np_ok, FlatTlp &out) {
        for (size_t i = 0; i < q.size(); i++) {
            if (!np_ok && is_np(q[i].tlp))
                continue;
            out = q[i];
            q.erase(q.begin() + (long)i);
            if (i)
                n_np_passed++;
            return true;
        }
        return false;
    }
    bool has(bool np_ok) const {
        for (auto &f : q)
            if (np_ok || !is_np(f.tlp))
                return true;
        return false;
    }
    // a non-posted request: not a completion, not a memory write, not a message
    static bool is_np(const PcieTlp &t) {
        if (t.fmt() >= 4 || t.is_cpl())
            return false;
        if (t.type() == kolo::kTypeMem && t.has_data())
            return false;
        return (t.type() & 0x18) != kolo::kTypeMsg;
    }
    BarMap bars;  // the host's BAR addresses, for the vendor's BAR hit bits
    std::deque<FlatTlp> q;
    uint64_t n_tlps = 0;
    uint64_t n_np_passed = 0;  // TLPs handed over before a held non-posted request

  private:
    FlatTlp cur;
};

// Hands a TLP the device sent (as the vendor side saw it) to the rc.
inline void to_rc(KoloPcieRc &rc, const PcieTlp &t) {
    for (const PcieBeat &b : t.beats())
        rc.dev_tx_push(b);
}

struct VendorKnobs {
    unsigned rx_gap_pct = 0;     // idle cycles between beats the block sends
    unsigned tx_ready_pct = 100; // block's ready
    unsigned straddle_pct = 70;  // x7: start the next TLP at DW2 when possible
    unsigned msi_grant_pct = 100;
    unsigned seq_delay_max = 0;  // us: cycles before a request's sequence number is reported
    unsigned seq_stall_pct = 0;  // us: a request whose report (and every later one) waits
    unsigned seq_stall = 0;      // ... this many cycles more
};

// What the host set up in the block, and the deliberate error.
struct X7Config {
    uint16_t dev_id = 0x0100;       // bus/device/function the block reports
    BarMap bars;
    uint64_t msi_addr = 0xFEE00000ull; // the MSI address and data the host programmed
    uint16_t msi_data = 0;
    unsigned np_slack = 4;          // non-posted requests the block may still send after rx_np_ok falls
    std::string bug;                // a deliberate error (see the header), "" for none
    uint64_t cpl_byte_at = 1;       // cpl-byte: the completion with data (counting from 0) to damage
    bool bug_is(const char *n) const { return bug == n; }
};

inline PcieTlp msi_tlp(const X7Config &c, uint32_t vector) {
    uint32_t d = c.msi_data | vector;
    uint8_t bytes[4] = {(uint8_t)d, (uint8_t)(d >> 8), (uint8_t)(d >> 16), (uint8_t)(d >> 24)};
    return kolo::pcie_mem_write(c.msi_addr, bytes, 4, c.dev_id);
}

// ---- the 7-series block's AXI4-Stream TLP interface, 128 bit ------------------------------
// Header DWs travel as spec values (Fmt in bits 31:29 of DW0), payload DWs
// with the byte at the lowest address in bits 7:0, as in the core's stream.
template <class Ports> class X7StreamModel {
  public:
    X7StreamModel(tb::Rng &rng, tb::Checker &chk, const X7Config &cfg)
        : rng_(rng), chk_(chk), cfg_(cfg), np_left_(cfg.np_slack) {
        down.bars = cfg.bars;
    }
    VendorKnobs k;
    RcDown down;
    uint64_t n_straddle = 0, n_up = 0, n_msi = 0;

    void drive(Ports *top, KoloPcieRc &rc, unsigned mps, unsigned mrrs, bool bm, bool msi_en) {
        top->cfg_bus_number = cfg_.dev_id >> 8;
        top->cfg_device_number = (cfg_.dev_id >> 3) & 31;
        top->cfg_function_number = cfg_.dev_id & 7;
        top->cfg_command = (uint16_t)((bm ? 4 : 0) | 0x2);
        top->cfg_dcommand = (uint16_t)((mrrs << 12) | (mps << 5) | 0x0010);
        top->cfg_interrupt_msienable = msi_en;
        down.pull(rc, 6);
        np_ok_ = top->rx_np_ok;  // registered in the shim
        if (np_ok_)
            np_left_ = cfg_.np_slack;
        if (!have_beat_ && !rng_.chance(k.rx_gap_pct))
            build_beat();
        top->m_axis_rx_tvalid = have_beat_;
        put_words(top->m_axis_rx_tdata, beat_, 4);
        top->m_axis_rx_tuser = tuser_;
        top->s_axis_tx_tready = rng_.chance(k.tx_ready_pct);
        top->cfg_interrupt_rdy = top->cfg_interrupt && rng_.chance(k.msi_grant_pct);
    }
    // after eval, before the clock edge
    void sample(Ports *top, KoloPcieRc &rc) {
        rx_fire_ = top->m_axis_rx_tvalid && top->m_axis_rx_tready;
        chk_.check(top->rx_np_req && top->tx_cfg_gnt && !top->cfg_interrupt_assert,
                   "rx_np_req/tx_cfg_gnt/legacy irq");
        bool tv = top->s_axis_tx_tvalid, tr = top->s_axis_tx_tready;
        uint32_t d[4];
        for (int i = 0; i < 4; i++)
            d[i] = top->s_axis_tx_tdata[i];
        unsigned keep = top->s_axis_tx_tkeep;
        bool last = top->s_axis_tx_tlast;
        if (held_) { // AXI: a beat offered stays until taken
            bool same = tv && last == held_last_ && keep == held_keep_ &&
                        std::memcmp(d, held_d_, sizeof d) == 0;
            chk_.check(same, "s_axis_tx beat changed or withdrawn before tready");
        }
        held_ = tv && !tr;
        if (held_) {
            std::memcpy(held_d_, d, sizeof d);
            held_keep_ = keep;
            held_last_ = last;
        }
        if (tv)
            chk_.check(top->s_axis_tx_tuser == 0, "s_axis_tx_tuser 0x%x, expected 0",
                       top->s_axis_tx_tuser);
        if (tv && tr)
            up_beat(rc, d, keep, last);
        // MSI: cfg_interrupt held with its vector until cfg_interrupt_rdy
        if (irq_held_)
            chk_.check(top->cfg_interrupt && top->cfg_interrupt_di == irq_di_,
                       "cfg_interrupt dropped or di changed before rdy");
        irq_held_ = top->cfg_interrupt && !top->cfg_interrupt_rdy;
        irq_di_ = top->cfg_interrupt_di;
        if (top->cfg_interrupt && top->cfg_interrupt_rdy) {
            uint32_t v = top->cfg_interrupt_di;
            if (cfg_.bug_is("msi-vector") && n_msi == 2)
                v ^= 1;
            to_rc(rc, msi_tlp(cfg_, v));
            n_msi++;
        }
    }
    void commit() {
        if (rx_fire_)
            have_beat_ = false;
    }
    bool idle() const { return down.q.empty() && !have_beat_ && !in_tlp_ && !in_up_; }

  private:
    tb::Rng &rng_;
    tb::Checker &chk_;
    X7Config cfg_;
    bool have_beat_ = false, rx_fire_ = false;
    uint32_t beat_[4] = {0, 0, 0, 0};
    uint32_t tuser_ = 0;
    // the TLP being sent down
    bool in_tlp_ = false;
    std::vector<uint32_t> dws_;
    size_t pos_ = 0;
    // the TLP coming up
    bool in_up_ = false;
    std::vector<uint32_t> up_;
    bool held_ = false, held_last_ = false;
    uint32_t held_d_[4] = {0, 0, 0, 0};
    unsigned held_keep_ = 0;
    bool irq_held_ = false;
    unsigned irq_di_ = 0;
    bool np_ok_ = true;
    uint64_t n_cpld_ = 0;  // completions with data sent down
    unsigned np_left_;     // non-posted requests that may still go while !rx_np_ok

    // the next TLP to start, as the block would pick it under rx_np_ok
    bool next_tlp(FlatTlp &f) {
        bool np = np_ok_ || np_left_ > 0;
        if (!down.take(np, f))
            return false;
        if (!np_ok_ && RcDown::is_np(f.tlp))
            np_left_--;
        return true;
    }
    void start_tlp(const FlatTlp &f) {
        dws_.assign(f.tlp.hdr, f.tlp.hdr + f.hdr_dws);
        for (uint32_t w : f.tlp.data)
            dws_.push_back(w);
        if (cfg_.bug_is("payload-order") && f.tlp.data.size() > 1 && f.tlp.is_mem())
            std::swap(dws_[f.hdr_dws], dws_[f.hdr_dws + 1]);
        if (f.tlp.is_cpl() && !f.tlp.data.empty() && n_cpld_++ == cfg_.cpl_byte_at && cfg_.bug_is("cpl-byte"))
            dws_[f.hdr_dws] ^= 0xFFu << (8 * (f.tlp.hdr[2] & 3));  // the first byte the completion carries
        pos_ = 0;
        in_tlp_ = true;
    }
    // fills lanes [lane, 4) from the current TLP; returns the last lane if it ended
    int fill(unsigned lane) {
        for (; lane < 4 && pos_ < dws_.size(); lane++)
            beat_[lane] = dws_[pos_++];
        if (pos_ == dws_.size()) {
            in_tlp_ = false;
            return (int)lane - 1;
        }
        return -1;
    }
    void build_beat() {
        if (!in_tlp_ && !down.has(np_ok_ || np_left_ > 0))
            return;
        for (auto &w : beat_)
            w = (uint32_t)rng_.next(); // unused lanes hold garbage
        unsigned sof = 0, eof = 0, bar = 0;
        if (in_tlp_) {
            int e = fill(0);
            if (e >= 0) {
                eof = 0x10 | ((unsigned)e << 2) | 3;
                FlatTlp f;
                if (e <= 1 && down.has(np_ok_ || np_left_ > 0) && rng_.chance(k.straddle_pct) &&
                    next_tlp(f)) {
                    start_tlp(f);
                    sof = 0x10 | 0x8;
                    bar = f.bar_hit;
                    fill(2); // at least 3 DWs: it cannot end in this beat
                    n_straddle++;
                }
            }
        } else {
            FlatTlp f;
            next_tlp(f);
            start_tlp(f);
            unsigned lane =
                rng_.chance(10) ? 2 : 0; // a TLP may also start at DW2 after an idle half
            sof = 0x10 | (lane << 2);
            bar = f.bar_hit;
            int e = fill(lane);
            if (e >= 0)
                eof = 0x10 | ((unsigned)e << 2) | 3;
        }
        if (cfg_.bug_is("bar-hit") && bar == 0x01 && rng_.chance(5))
            bar = 0x0C;
        tuser_ = (eof << 17) | (sof << 10) | (bar << 2);
        have_beat_ = true;
    }
    void up_beat(KoloPcieRc &rc, const uint32_t *d, unsigned keep, bool last) {
        if (!in_up_) {
            up_.clear();
            in_up_ = true;
        }
        if (!last)
            chk_.check(keep == 0xFFFF, "s_axis_tx_tkeep 0x%04x on a beat before tlast", keep);
        else
            chk_.check(keep == 0x000F || keep == 0x00FF || keep == 0x0FFF || keep == 0xFFFF,
                       "s_axis_tx_tkeep 0x%04x on the last beat", keep);
        for (unsigned i = 0; i < 4; i++)
            if ((keep >> (4 * i)) & 0xF)
                up_.push_back(d[i]);
        if (!last)
            return;
        in_up_ = false;
        n_up++;
        PcieTlp t;
        unsigned h = (up_[0] >> 29) & 1 ? 4 : 3;
        if (!chk_.check(up_.size() >= h, "device TLP of %zu DWs, shorter than its header",
                        up_.size()))
            return;
        for (unsigned i = 0; i < h; i++)
            t.hdr[i] = up_[i];
        for (size_t i = h; i < up_.size(); i++)
            t.data.push_back(up_[i]);
        chk_.check(t.has_data() ? t.data.size() == t.length() : t.data.empty(),
                   "device TLP with %zu payload DWs for %s", t.data.size(), t.str().c_str());
        to_rc(rc, t);
    }
};

}  // namespace kolo_x7
