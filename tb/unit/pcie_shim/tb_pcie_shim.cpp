// tb_pcie_shim.cpp - unit tests of the vendor PCIe shims (docs/pcie-shims.md):
// a vendor shim in front of kolo_pcie_ep (tb_pcie_shim_<shim>_top.v), the
// vendor block played by a C++ model of its TLP streams that converts to and
// from the TLPs of the root-complex model (sw/rtlsim/kolo_pcie_rc.h), which
// checks every TLP the device sends. The harness is also the NI on the
// core's user side: a CSR image behind the MMIO ports, DMA read and write
// agents with a shadow of host memory, MSIs.
//
// Length (~1400 lines): the vendor-stream models (Avalon-ST, UltraScale;
// the 7-series one is tb/common/kolo_x7_stream_model.h, shared with the
// KC705 board simulation) share the harness, the user-side agents and the
// tests; each model is a class of its own.
//
// Built once per shim: -DKOLO_SHIM_X7 (7-series AXI4-Stream, 128 bit),
// -DKOLO_SHIM_AVST (Avalon-ST, 256 bit) or -DKOLO_SHIM_US (UltraScale
// CQ/CC/RQ/RC descriptor interfaces, 256 bit).
// Usage: tb_pcie_shim_<shim> --test=traffic|fast [--seed=N] [--n=N] [--bug=<b>]
//   traffic: host MMIO writes/reads, unsupported requests, DMA reads and
//            writes of random sizes and alignments, MSIs; random valid gaps
//            and back-pressure on every vendor port and the user side.
//   fast:    the same traffic with no gaps and no back-pressure (back-to-back
//            TLPs, straddled beats).
//   --bug=<b> makes the vendor model lie in one place (see g_bug) to show
//            that the checks bite: such a run must FAIL.
// Every run prints its seed; SEED=N or --seed=N replays it.
#if defined(KOLO_SHIM_X7)
#include "Vtb_pcie_shim_x7_top.h"
using Top = Vtb_pcie_shim_x7_top;
static const char *const kShim = "x7";
#elif defined(KOLO_SHIM_AVST)
#include "Vtb_pcie_shim_avst_top.h"
using Top = Vtb_pcie_shim_avst_top;
static const char *const kShim = "avst";
#elif defined(KOLO_SHIM_US)
#include "Vtb_pcie_shim_us_top.h"
using Top = Vtb_pcie_shim_us_top;
static const char *const kShim = "us";
#else
#error "define KOLO_SHIM_X7, KOLO_SHIM_AVST or KOLO_SHIM_US"
#endif
#include "kolo_pcie_rc.h"
#include "kolo_x7_stream_model.h"
#include "tb_util.h"
#include "verilated.h"

#include <deque>
#include <functional>
#include <map>
#include <string>
#include <vector>

#ifndef TB_CPL_TIMEOUT
#define TB_CPL_TIMEOUT 8000
#endif
#ifndef TB_TAGS
#define TB_TAGS 32
#endif
#ifndef TB_CPL_H
#define TB_CPL_H 64   // the block's completion buffer (the shim's, or what the avst model reports)
#endif
#ifndef TB_CPL_D
#define TB_CPL_D 992
#endif

using kolo::KoloPcieRc;
using kolo::PcieBeat;
using kolo::PcieTlp;

namespace {

constexpr uint64_t kBar0 = 0xF0000000ull;         // host address of BAR0, 128 KiB
constexpr uint64_t kBar2 = 0x0000001234560000ull; // BAR2, 64 KiB, above 4 GB
constexpr uint32_t kBar0Size = 1u << 17, kBar2Size = 1u << 16;
constexpr uint16_t kDevId = 0x0349; // bus 3, device 9, function 1
constexpr uint16_t kRcId = 0x0000;
constexpr uint64_t kMsiAddr = 0xFEE01000ull; // what the host programmed into the block
constexpr uint16_t kMsiData = 0x4A40;

std::string g_bug;
[[maybe_unused]] bool bug(const char *n) { return g_bug == n; }  // (the x7 model has its own)

using kolo_x7::FlatTlp;
using kolo_x7::hdr_dws;
using kolo_x7::put_words;
using kolo_x7::to_rc;
using kolo_x7::VendorKnobs;

// the shared RcDown (kolo_x7_stream_model.h) with this test's BARs
class RcDown : public kolo_x7::RcDown {
  public:
    RcDown() { bars = kolo_x7::BarMap{kBar0, kBar0Size, kBar2, kBar2Size}; }
};

[[maybe_unused]] PcieTlp msi_tlp(uint32_t vector) {
    uint32_t d = kMsiData | vector;
    uint8_t bytes[4] = {(uint8_t)d, (uint8_t)(d >> 8), (uint8_t)(d >> 16), (uint8_t)(d >> 24)};
    return kolo::pcie_mem_write(kMsiAddr, bytes, 4, kDevId);
}

#ifndef TB_NP_SLACK
#define TB_NP_SLACK 4  // non-posted requests the block may still send after rx_np_ok falls / rx_st_mask rises
#endif

#if defined(KOLO_SHIM_X7)
// ---- the 7-series block's AXI4-Stream TLP interface, 128 bit: tb/common/kolo_x7_stream_model.h ----
kolo_x7::X7Config x7_config() {
    kolo_x7::X7Config c;
    c.dev_id = kDevId;
    c.bars = kolo_x7::BarMap{kBar0, kBar0Size, kBar2, kBar2Size};
    c.msi_addr = kMsiAddr;
    c.msi_data = kMsiData;
    c.np_slack = TB_NP_SLACK;
    c.bug = g_bug;
    return c;
}
class Vendor : public kolo_x7::X7StreamModel<Top> {
  public:
    Vendor(tb::Rng &rng, tb::Checker &chk) : kolo_x7::X7StreamModel<Top>(rng, chk, x7_config()) {}
};
#elif defined(KOLO_SHIM_US)
// ---- the UltraScale block's CQ/CC/RQ/RC interfaces, 256 bit, Dword-aligned ---------------
// bit fields of a little-endian array of 32-bit words
uint64_t get_bits(const uint32_t *w, unsigned lo, unsigned n) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)((w[(lo + i) / 32] >> ((lo + i) % 32)) & 1) << i;
    return v;
}
void set_bits(uint32_t *w, unsigned lo, unsigned n, uint64_t v) {
    for (unsigned i = 0; i < n; i++) {
        uint32_t m = 1u << ((lo + i) % 32);
        if ((v >> i) & 1)
            w[(lo + i) / 32] |= m;
        else
            w[(lo + i) / 32] &= ~m;
    }
}

// One AXI4-Stream packet of DWs (descriptor + payload) sent 8 DWs a beat,
// held until taken, with random gaps between beats.
struct UsDown {
    std::deque<std::vector<uint32_t>> pkts;
    std::deque<uint8_t> bes; // first/last BE of each packet (CQ)
    std::vector<uint32_t> cur;
    uint8_t cur_be = 0;
    size_t pos = 0;
    bool in_pkt = false, have = false, sop = false, last = false;
    uint32_t beat[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    uint8_t keep = 0;
    void build(tb::Rng &rng, unsigned gap_pct) {
        if (have || rng.chance(gap_pct))
            return;
        if (!in_pkt) {
            if (pkts.empty())
                return;
            cur = pkts.front();
            pkts.pop_front();
            cur_be = bes.front();
            bes.pop_front();
            pos = 0;
            in_pkt = true;
            sop = true;
        } else {
            sop = false;
        }
        for (auto &w : beat)
            w = (uint32_t)rng.next();
        unsigned lane = 0;
        for (; lane < 8 && pos < cur.size(); lane++)
            beat[lane] = cur[pos++];
        last = pos == cur.size();
        keep = last ? (uint8_t)((1u << lane) - 1) : 0xFF;
        if (last)
            in_pkt = false;
        have = true;
    }
    bool idle() const { return pkts.empty() && !in_pkt && !have; }
};

// Collects one AXI4-Stream packet of DWs from the shim, checking that an
// offered beat stays until taken and that tkeep is full but on the last.
struct UsUp {
    std::vector<uint32_t> dws;
    bool in_pkt = false, held = false;
    uint32_t held_d[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    unsigned held_keep = 0;
    bool held_last = false;
    uint8_t be = 0, seq = 0;
    // returns true when a whole packet is in dws
    bool beat(tb::Checker &chk, const char *name, bool valid, bool ready, const uint32_t *d,
              unsigned keep, bool last, uint8_t tuser_be, uint8_t tuser_seq = 0) {
        if (held) {
            bool same =
                valid && last == held_last && keep == held_keep && std::memcmp(d, held_d, 32) == 0;
            chk.check(same, "%s beat changed or withdrawn before tready", name);
        }
        held = valid && !ready;
        if (held) {
            std::memcpy(held_d, d, 32);
            held_keep = keep;
            held_last = last;
        }
        if (!(valid && ready))
            return false;
        if (!in_pkt) {
            dws.clear();
            in_pkt = true;
            be = tuser_be;
            seq = tuser_seq;
        }
        if (!last)
            chk.check(keep == 0xFF, "%s tkeep 0x%02x before tlast", name, keep);
        else
            chk.check(keep != 0 && (keep & (keep + 1)) == 0, "%s tkeep 0x%02x on the last beat",
                      name, keep);
        for (unsigned i = 0; i < 8; i++)
            if ((keep >> i) & 1)
                dws.push_back(d[i]);
        if (!last)
            return false;
        in_pkt = false;
        return true;
    }
};

class Vendor {
  public:
    Vendor(tb::Rng &rng, tb::Checker &chk) : rng_(rng), chk_(chk) {}
    VendorKnobs k;
    RcDown down;
    uint64_t n_straddle = 0, n_up = 0, n_msi = 0;
    unsigned max_posted_unreported = 0;  // the most posted requests unreported at once

    void drive(Top *top, KoloPcieRc &rc, unsigned mps, unsigned mrrs, bool bm, bool msi_en) {
        top->cfg_max_payload = mps;
        top->cfg_max_read_req = mrrs;
        top->cfg_function_status = (uint16_t)((bm ? 4 : 0) | 2);
        top->cfg_interrupt_msi_enable = msi_en ? 1 : 0;
        down.pull(rc, 6);
        // a non-posted request goes on CQ only with a credit (pcie_cq_np_req); posted
        // requests and completions pass the ones held back
        FlatTlp f;
        while (down.take(np_credit_ > 0, f)) {
            const PcieTlp &t = f.tlp;
            if (RcDown::is_np(t))
                np_credit_--;
            if (t.is_cpl())
                rc_.pkts.push_back(rc_desc(t));
            else
                cq_.pkts.push_back(cq_desc(f));
            (t.is_cpl() ? rc_ : cq_).bes.push_back((uint8_t)(t.hdr[1] & 0xFF));
        }
        // sequence numbers of RQ requests, in order, each when a completion can no
        // longer pass the request (safe); reported then (--bug=seq-early: reported at once)
        while (!safe_q_.empty() && safe_q_.front().due <= now_) {
            if (safe_q_.front().posted)
                posted_unconfirmed_--;
            safe_q_.pop_front();
        }
        top->pcie_rq_seq_num_vld = 0;
        if (!seq_q_.empty() && seq_q_.front().due <= now_) {
            top->pcie_rq_seq_num = seq_q_.front().seq;
            top->pcie_rq_seq_num_vld = 1;
            if (seq_q_.front().posted)
                posted_unreported_--;
            seq_q_.pop_front();
        }
        cq_.build(rng_, k.rx_gap_pct);
        rc_.build(rng_, k.rx_gap_pct);
        top->m_axis_cq_tvalid = cq_.have;
        put_words(top->m_axis_cq_tdata, cq_.beat, 8);
        uint32_t cu[3] = {0, 0, 0};
        if (cq_.sop) {
            set_bits(cu, 0, 8, cq_.cur_be); // first BE 3:0, last BE 7:4
            set_bits(cu, 40, 1, 1);
        }
        put_words(top->m_axis_cq_tuser, cu, 3);
        top->m_axis_cq_tlast = cq_.last;
        top->m_axis_cq_tkeep = cq_.keep;
        top->m_axis_rc_tvalid = rc_.have;
        put_words(top->m_axis_rc_tdata, rc_.beat, 8);
        uint32_t ru[3] = {(uint32_t)rng_.next(), 0, 0}; // byte enables: not used by the shim
        if (rc_.sop)
            set_bits(ru, 32, 1, 1);
        put_words(top->m_axis_rc_tuser, ru, 3);
        top->m_axis_rc_tlast = rc_.last;
        top->m_axis_rc_tkeep = rc_.keep;
        top->s_axis_cc_tready = rng_.chance(k.tx_ready_pct) ? 0xF : 0;
        top->s_axis_rq_tready = rng_.chance(k.tx_ready_pct) ? 0xF : 0;
        sent_ = msi_pending_ && rng_.chance(k.msi_grant_pct);
        top->cfg_interrupt_msi_sent = sent_;
        top->cfg_interrupt_msi_fail = 0;
    }
    void sample(Top *top, KoloPcieRc &rc) {
        if (top->pcie_cq_np_req)
            np_credit_ = std::min(np_credit_ + 1, 32u);  // the block's counter saturates at 32
        unsigned cqr = top->m_axis_cq_tready, rcr = top->m_axis_rc_tready;
        chk_.check((cqr == 0 || cqr == 0x3FFFFF) && (rcr == 0 || rcr == 0x3FFFFF),
                   "tready bits differ");
        cq_fire_ = top->m_axis_cq_tvalid && (cqr & 1);
        rc_fire_ = top->m_axis_rc_tvalid && (rcr & 1);
        uint32_t d[8];
        for (int i = 0; i < 8; i++)
            d[i] = top->s_axis_rq_tdata[i];
        uint32_t ru[2] = {(uint32_t)top->s_axis_rq_tuser, (uint32_t)(top->s_axis_rq_tuser >> 32)};
        if (top->s_axis_rq_tvalid)
            chk_.check(get_bits(ru, 8, 16) == 0 && get_bits(ru, 28, 32) == 0,
                       "s_axis_rq_tuser beside the BEs and the sequence number not 0");
        // the numbers are 4 bits: a 17th posted request while 16 are unreported would
        // carry the number of the oldest (checked as the request is taken, before the
        // shim's own guard sees the clock edge)
        if (top->s_axis_rq_tvalid && (top->s_axis_rq_tready & 1) && !rq_.in_pkt &&
            get_bits(d, 75, 4) == 1) {
            chk_.check(posted_unreported_ < 16,
                       "RQ posted request taken while %u posted requests' sequence numbers are "
                       "unreported (4-bit numbers: at most 16)",
                       posted_unreported_);
            max_posted_unreported = std::max(max_posted_unreported, posted_unreported_ + 1);
        }
        if (rq_.beat(chk_, "RQ", top->s_axis_rq_tvalid, top->s_axis_rq_tready & 1, d,
                     top->s_axis_rq_tkeep, top->s_axis_rq_tlast, (uint8_t)ru[0],
                     (uint8_t)get_bits(ru, 24, 4)))
            up_rq(rc);
        // a completion must not start, nor an MSI go, while a posted request the
        // block has not yet reported could still be passed (PG156)
        if (top->s_axis_cc_tvalid && !cc_.in_pkt)
            chk_.check(posted_unconfirmed_ == 0,
                       "CC completion offered while %u posted RQ request(s) are not past the point "
                       "where a completion cannot pass them",
                       posted_unconfirmed_);
        if (top->cfg_interrupt_msi_int)
            chk_.check(posted_unconfirmed_ == 0, "MSI while %u posted RQ request(s) are not confirmed",
                       posted_unconfirmed_);
        for (int i = 0; i < 8; i++)
            d[i] = top->s_axis_cc_tdata[i];
        if (top->s_axis_cc_tvalid)
            chk_.check(top->s_axis_cc_tuser == 0, "s_axis_cc_tuser not 0");
        if (cc_.beat(chk_, "CC", top->s_axis_cc_tvalid, top->s_axis_cc_tready & 1, d,
                     top->s_axis_cc_tkeep, top->s_axis_cc_tlast, 0))
            up_cc(rc);
        uint32_t mi = top->cfg_interrupt_msi_int;
        if (mi) {
            chk_.check((mi & (mi - 1)) == 0, "cfg_interrupt_msi_int 0x%08x not one-hot", mi);
            chk_.check(!msi_pending_, "cfg_interrupt_msi_int before the previous MSI was sent");
            uint32_t v = (uint32_t)__builtin_ctz(mi);
            if (bug("msi-vector") && n_msi == 2)
                v ^= 1;
            to_rc(rc, msi_tlp(v));
            n_msi++;
            msi_pending_ = true;
        }
    }
    void commit() {
        if (cq_fire_)
            cq_.have = false;
        if (rc_fire_)
            rc_.have = false;
        if (sent_)
            msi_pending_ = false;
        now_++;
    }
    bool idle() const {
        return down.q.empty() && cq_.idle() && rc_.idle() && !rq_.in_pkt && !cc_.in_pkt && seq_q_.empty();
    }

  private:
    tb::Rng &rng_;
    tb::Checker &chk_;
    UsDown cq_, rc_;
    UsUp rq_, cc_;
    bool cq_fire_ = false, rc_fire_ = false, sent_ = false, msi_pending_ = false;
    unsigned np_credit_ = 0;         // the block's count of pcie_cq_np_req pulses not used
    struct SeqRep {
        uint8_t seq;
        bool posted;
        uint64_t due;
    };
    std::deque<SeqRep> seq_q_;        // RQ requests whose sequence number is still to report
    std::deque<SeqRep> safe_q_;       // RQ requests a completion could still pass
    unsigned posted_unconfirmed_ = 0; // posted ones among them
    unsigned posted_unreported_ = 0;  // posted requests in seq_q_
    uint64_t now_ = 0;

    std::vector<uint32_t> cq_desc(const FlatTlp &f) {
        const PcieTlp &t = f.tlp;
        uint32_t d[4] = {0, 0, 0, 0};
        unsigned ty = t.type(), rt = 0xF;
        bool wr = t.has_data();
        if (ty == kolo::kTypeMem)
            rt = wr ? 1 : 0;
        else if (ty == kolo::kTypeMemLk)
            rt = 7;
        else if (ty == kolo::kTypeIo)
            rt = wr ? 3 : 2;
        else if (ty == kolo::kTypeFetchAdd)
            rt = 4;
        else if (ty == kolo::kTypeSwap)
            rt = 5;
        else if (ty == kolo::kTypeCas)
            rt = 6;
        else if (ty == kolo::kTypeCfg0)
            rt = wr ? 10 : 8;
        else if (ty == kolo::kTypeCfg1)
            rt = wr ? 11 : 9;
        else if ((ty & 0x18) == kolo::kTypeMsg)
            rt = 12;
        bool msg = rt == 12;
        uint64_t a = msg ? ((uint64_t)t.hdr[2] << 32) | t.hdr[3] : t.addr();
        set_bits(d, 2, 62, a >> 2);
        bool len = wr || (!msg && rt != 0xF);
        set_bits(d, 64, 11, len ? t.length() : 0);
        set_bits(d, 75, 4, rt);
        set_bits(d, 80, 16, t.req_id());
        set_bits(d, 96, 8, t.tag());
        set_bits(d, 104, 8, msg ? (t.hdr[1] & 0xFF) : 0);
        unsigned bar = f.bar_hit & 3 ? 0 : f.bar_hit & 0xC ? 2 : 6;
        if (bug("bar-id") && bar == 0 && rng_.chance(5))
            bar = 2;
        set_bits(d, 112, 3, msg ? (ty & 7) : bar);
        set_bits(d, 115, 6, bar == 0 ? 17 : 16);
        set_bits(d, 121, 3, t.tc());
        set_bits(d, 124, 3, t.attr());
        std::vector<uint32_t> v(d, d + 4);
        v.insert(v.end(), t.data.begin(), t.data.end());
        return v;
    }
    std::vector<uint32_t> rc_desc(const PcieTlp &t) {
        uint32_t d[3] = {0, 0, 0};
        set_bits(d, 0, 12,
                 ((uint32_t)rng_.next() & 0xF80) | t.cpl_la()); // the block's 12 bits: 6:0 count
        set_bits(d, 16, 13, t.cpl_bc());
        set_bits(d, 29, 1, t.type() == kolo::kTypeCplLk);
        set_bits(d, 30, 1, rng_.next() & 1);
        set_bits(d, 32, 11, t.has_data() ? t.length() : 0);
        set_bits(d, 43, 3, t.cpl_status());
        set_bits(d, 46, 1, t.ep());
        set_bits(d, 48, 16, kDevId); // the block's own id; the shim gives the core its own
        unsigned tag = t.cpl_tag();
        if (bug("rc-tag") && rng_.chance(3))
            tag ^= 1;
        set_bits(d, 64, 8, tag);
        set_bits(d, 72, 16, t.cpl_completer());
        set_bits(d, 89, 3, t.tc());
        set_bits(d, 92, 3, t.attr());
        std::vector<uint32_t> v(d, d + 3);
        v.insert(v.end(), t.data.begin(), t.data.end());
        return v;
    }
    void up_rq(KoloPcieRc &rc) {
        n_up++;
        const std::vector<uint32_t> &w = rq_.dws;
        if (!chk_.check(w.size() >= 4, "RQ packet of %zu DWs", w.size()))
            return;
        uint64_t a = get_bits(w.data(), 2, 62) << 2;
        unsigned dwc = (unsigned)get_bits(w.data(), 64, 11),
                 rt = (unsigned)get_bits(w.data(), 75, 4);
        chk_.check(
            get_bits(w.data(), 0, 2) == 0 && get_bits(w.data(), 79, 1) == 0 &&
                get_bits(w.data(), 104, 17) == 0 && get_bits(w.data(), 127, 1) == 0,
            "RQ descriptor: AT, poisoned, completer id, requester id enable or force ECRC set");
        if (!chk_.check(rt <= 1, "RQ request type %u", rt))
            return;
        if (!chk_.check(dwc >= 1 && dwc <= 1024, "RQ dword count %u", dwc))
            return;
        PcieTlp t;
        bool h4 = (a >> 32) != 0;
        unsigned fmt = (rt == 1 ? 2u : 0u) | (h4 ? 1u : 0u);
        t.hdr[0] =
            kolo::pcie_dw0(fmt, kolo::kTypeMem, dwc & 0x3FF, (unsigned)get_bits(w.data(), 121, 3),
                           (unsigned)get_bits(w.data(), 124, 3));
        t.hdr[1] = ((uint32_t)kDevId << 16) | ((uint32_t)get_bits(w.data(), 96, 8) << 8) | rq_.be;
        if (h4) {
            t.hdr[2] = (uint32_t)(a >> 32);
            t.hdr[3] = (uint32_t)a;
        } else {
            t.hdr[2] = (uint32_t)a;
        }
        // the block reports every request's sequence number once a completion can no longer
        // pass it (here: after a random delay, in order)
        uint64_t due = now_ + 1 + rng_.below(k.seq_delay_max + 1);
        if (rng_.chance(k.seq_stall_pct) || (n_up == 1 && k.seq_stall_pct))
            due += k.seq_stall;  // (the first request's always: posted ones pile up at once)
        if (!safe_q_.empty())
            due = std::max(due, safe_q_.back().due);
        safe_q_.push_back(SeqRep{rq_.seq, rt == 1, due});
        uint64_t rep = bug("seq-early") ? now_ + 1 : due;
        if (!seq_q_.empty())
            rep = std::max(rep, seq_q_.back().due);
        seq_q_.push_back(SeqRep{rq_.seq, rt == 1, rep});
        if (rt == 1) {
            posted_unconfirmed_++;
            posted_unreported_++;
        }
        if (rt == 1) {
            t.data.assign(w.begin() + 4, w.end());
            chk_.check(t.data.size() == dwc, "RQ MWr with %zu payload DWs, dword count %u",
                       t.data.size(), dwc);
        } else {
            chk_.check(w.size() == 4, "RQ MRd with payload");
        }
        to_rc(rc, t);
    }
    void up_cc(KoloPcieRc &rc) {
        n_up++;
        const std::vector<uint32_t> &w = cc_.dws;
        if (!chk_.check(w.size() >= 3, "CC packet of %zu DWs", w.size()))
            return;
        unsigned dwc = (unsigned)get_bits(w.data(), 32, 11);
        chk_.check(get_bits(w.data(), 88, 1) == 0 && get_bits(w.data(), 95, 1) == 0 &&
                       get_bits(w.data(), 8, 2) == 0,
                   "CC descriptor: completer id enable, force ECRC or AT set");
        PcieTlp t;
        bool locked = get_bits(w.data(), 29, 1);
        t.hdr[0] = kolo::pcie_dw0(dwc ? kolo::kFmt3DWData : kolo::kFmt3DW,
                                  locked ? kolo::kTypeCplLk : kolo::kTypeCpl, dwc & 0x3FF,
                                  (unsigned)get_bits(w.data(), 89, 3),
                                  (unsigned)get_bits(w.data(), 92, 3), get_bits(w.data(), 46, 1));
        t.hdr[1] = ((uint32_t)kDevId << 16) | ((uint32_t)get_bits(w.data(), 43, 3) << 13) |
                   ((uint32_t)get_bits(w.data(), 16, 13) & 0xFFF);
        t.hdr[2] = ((uint32_t)get_bits(w.data(), 48, 16) << 16) |
                   ((uint32_t)get_bits(w.data(), 64, 8) << 8) | (uint32_t)get_bits(w.data(), 0, 7);
        t.data.assign(w.begin() + 3, w.end());
        chk_.check(t.data.size() == dwc, "CC completion with %zu payload DWs, dword count %u",
                   t.data.size(), dwc);
        to_rc(rc, t);
    }
};
#else
// ---- the Intel hard IP's Avalon-ST interface, 256 bit, one packet per cycle ---------------
constexpr unsigned kRxReadyLatency = 3, kTxReadyLatency = 2;
// qword alignment: a pad DW between header and payload puts the payload's
// first DW on its address's qword position (the address DW's bit 2; for a
// completion the lower address)
bool qword_pad(const PcieTlp &t) { // Avalon-ST: a pad DW between header and payload
    if (!t.has_data())
        return false;
    bool a2 = t.hdr4() ? (t.hdr[3] >> 2) & 1 : (t.hdr[2] >> 2) & 1;
    return t.hdr4() ? a2 : !a2;
}
class Vendor {
  public:
    Vendor(tb::Rng &rng, tb::Checker &chk) : rng_(rng), chk_(chk) {}
    VendorKnobs k;
    RcDown down;
    uint64_t n_straddle = 0, n_up = 0, n_msi = 0;

    void drive(Top *top, KoloPcieRc &rc, unsigned mps, unsigned mrrs, bool bm, bool msi_en) {
        top->cfg_req_id = kDevId;
        top->cfg_max_payload = mps;
        top->cfg_max_read_req = mrrs;
        top->cfg_bus_master = bm;
        top->cfg_msi_en = msi_en;
        top->ko_cpl_spc_header = TB_CPL_H;  // the hard IP's completion space
        top->ko_cpl_spc_data = TB_CPL_D;
        down.pull(rc, 6);
        np_ok_ = !top->rx_st_mask;  // registered in the shim
        if (np_ok_)
            np_left_ = TB_NP_SLACK;
        // a beat may go only where rx_st_ready was high kRxReadyLatency cycles ago
        bool may = (rx_ready_hist_ >> (kRxReadyLatency - 1)) & 1;
        send_ = false;
        if (may && !rng_.chance(k.rx_gap_pct))
            send_ = build_beat();
        top->rx_st_valid = send_;
        put_words(top->rx_st_data, beat_, 8);
        top->rx_st_sop = sop_;
        top->rx_st_eop = eop_;
        top->rx_st_empty = empty_;
        top->rx_st_bar = bar_;
        top->tx_st_ready = rng_.chance(k.tx_ready_pct);
        top->app_msi_ack = top->app_msi_req && rng_.chance(k.msi_grant_pct);
    }
    void sample(Top *top, KoloPcieRc &rc) {
        rx_ready_now_ = top->rx_st_ready;
        bool may = (tx_ready_hist_ >> (kTxReadyLatency - 1)) & 1;
        if (top->tx_st_valid) {
            chk_.check(may, "tx_st_valid without tx_st_ready %u cycles before", kTxReadyLatency);
            chk_.check(!top->tx_st_err, "tx_st_err set");
            uint32_t d[8];
            for (int i = 0; i < 8; i++)
                d[i] = top->tx_st_data[i];
            up_beat(rc, d, top->tx_st_sop, top->tx_st_eop, top->tx_st_empty);
        }
        tx_ready_now_ = top->tx_st_ready;
        if (msi_held_)
            chk_.check(top->app_msi_req && top->app_msi_num == msi_num_,
                       "app_msi_req dropped or num changed before ack");
        msi_held_ = top->app_msi_req && !top->app_msi_ack;
        msi_num_ = top->app_msi_num;
        if (top->app_msi_req && top->app_msi_ack) {
            chk_.check(top->app_msi_tc == 0, "app_msi_tc %u", top->app_msi_tc);
            uint32_t v = top->app_msi_num;
            if (bug("msi-vector") && n_msi == 2)
                v ^= 1;
            to_rc(rc, msi_tlp(v));
            n_msi++;
        }
    }
    void commit() {
        rx_ready_hist_ = (rx_ready_hist_ << 1) | (rx_ready_now_ ? 1u : 0u);
        tx_ready_hist_ = (tx_ready_hist_ << 1) | (tx_ready_now_ ? 1u : 0u);
    }
    bool idle() const { return down.q.empty() && !in_tlp_ && !in_up_; }

  private:
    tb::Rng &rng_;
    tb::Checker &chk_;
    unsigned rx_ready_hist_ = 0, tx_ready_hist_ = 0;
    bool rx_ready_now_ = false, tx_ready_now_ = false;
    bool send_ = false, sop_ = false, eop_ = false;
    unsigned empty_ = 0, bar_ = 0;
    uint32_t beat_[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    bool in_tlp_ = false;
    std::vector<uint32_t> dws_;
    size_t pos_ = 0;
    unsigned cur_bar_ = 0;
    bool in_up_ = false;
    std::vector<uint32_t> up_;
    unsigned up_beats_ = 0, up_empty_ = 0;
    bool msi_held_ = false;
    unsigned msi_num_ = 0;
    bool np_ok_ = true;
    unsigned np_left_ = TB_NP_SLACK;  // non-posted requests that may still go while masked

    bool build_beat() {
        if (!in_tlp_) {
            FlatTlp f;
            if (!down.take(np_ok_ || np_left_ > 0, f))
                return false;
            if (!np_ok_ && RcDown::is_np(f.tlp))
                np_left_--;
            dws_.assign(f.tlp.hdr, f.tlp.hdr + f.hdr_dws);
            bool pad = qword_pad(f.tlp);
            if (bug("qword-pad") && f.tlp.has_data() && rng_.chance(5))
                pad = !pad;
            if (pad)
                dws_.push_back((uint32_t)rng_.next()); // the pad DW holds garbage
            for (uint32_t w : f.tlp.data)
                dws_.push_back(w);
            pos_ = 0;
            in_tlp_ = true;
            cur_bar_ = f.bar_hit;
            sop_ = true;
        } else {
            sop_ = false;
        }
        for (auto &w : beat_)
            w = (uint32_t)rng_.next();
        unsigned lane = 0;
        for (; lane < 8 && pos_ < dws_.size(); lane++)
            beat_[lane] = dws_[pos_++];
        eop_ = pos_ == dws_.size();
        empty_ = eop_ ? (8 - lane) / 2 : 0; // whole empty qwords only
        bar_ = sop_ ? cur_bar_ : 0;
        if (eop_)
            in_tlp_ = false;
        return true;
    }
    void up_beat(KoloPcieRc &rc, const uint32_t *d, bool sop, bool eop, unsigned empty) {
        if (!in_up_) {
            if (!chk_.check(sop, "tx_st beat without sop outside a TLP"))
                return;
            up_.clear();
            up_beats_ = 0;
            in_up_ = true;
        } else {
            chk_.check(!sop, "tx_st sop inside a TLP");
        }
        up_beats_++;
        for (unsigned i = 0; i < 8; i++)
            up_.push_back(d[i]);
        if (!eop) {
            chk_.check(empty == 0, "tx_st_empty %u before eop", empty);
            return;
        }
        up_empty_ = empty;
        in_up_ = false;
        n_up++;
        PcieTlp t;
        unsigned h = (up_[0] >> 29) & 1 ? 4 : 3;
        for (unsigned i = 0; i < h; i++)
            t.hdr[i] = up_[i];
        unsigned n = t.has_data() ? t.length() : 0;
        unsigned off = h + (qword_pad(t) ? 1 : 0);
        unsigned total = n ? off + n : h;
        unsigned beats = (total + 7) / 8, used = total - 8 * (beats - 1);
        chk_.check(up_beats_ == beats, "device TLP in %u beats, %u expected for %s", up_beats_,
                   beats, t.str().c_str());
        chk_.check(up_empty_ == (8 - ((used + 1) & ~1u)) / 2,
                   "tx_st_empty %u with %u DWs in the last beat (%s)", up_empty_, used,
                   t.str().c_str());
        for (unsigned i = 0; i < n && off + i < up_.size(); i++)
            t.data.push_back(up_[off + i]);
        to_rc(rc, t);
    }
};
#endif

// ---- the NI side and the test ------------------------------------------------------------
struct RdReq {
    uint64_t addr = 0;
    unsigned len = 0;
    unsigned id = 0;
};
struct ExpChunk {
    unsigned bar;
    uint32_t addr;
    uint64_t strb;
    uint8_t data[64];
};
struct UserRead {
    unsigned bar;
    uint32_t addr;
    unsigned len;
    int handle;
    uint64_t chunks_before = 0;  // MMIO write chunks of host writes sent before it
};
struct HostCheck {
    bool known = false;
    unsigned status = 0;
    std::vector<uint32_t> data;
};

class Tb {
  public:
    Tb(VerilatedContext *ctx, uint64_t seed, tb::Checker &chk, const KoloPcieRc::Config &rcfg)
        : top(new Top{ctx}), rc(rcfg), rng(seed ^ 0x5A5A5A5A5A5A5A5Aull), chk(chk),
          vendor(rng, chk) {
        bar0.assign(kBar0Size, 0);
        bar2.assign(kBar2Size, 0);
        for (uint32_t i = 0; i < kBar0Size; i++)
            bar0[i] = (uint8_t)(i * 7 + 3);
        for (uint32_t i = 0; i < kBar2Size; i++)
            bar2[i] = (uint8_t)(i * 13 + 5);
        top->rst = 1;
        for (int i = 0; i < 6; i++) {
            top->clk = 0;
            top->eval();
            top->clk = 1;
            top->eval();
        }
        top->rst = 0;
    }
    ~Tb() {
        top->final();
        delete top;
    }

    Top *top;
    KoloPcieRc rc;
    tb::Rng rng;
    tb::Checker &chk;
    Vendor vendor;
    uint64_t cyc = 0;
    unsigned mps_enc = 1, mrrs_enc = 2;
    unsigned mmio_wr_ready_pct = 100, mmio_rd_ready_pct = 100, dma_rd_ready_pct = 100,
             dma_gap_pct = 0;

    std::vector<uint8_t> bar0, bar2;
    std::deque<ExpChunk> exp_chunks;
    std::deque<UserRead> exp_user_reads;
    std::map<int, HostCheck> host_checks;
    uint64_t n_chunks = 0, n_user_reads = 0, n_host_done = 0, exp_ur = 0;
    uint64_t n_exp_chunks = 0;  // chunks the host's writes so far must produce
    bool ur_active = false, ur_resp = false;
    UserRead ur_cur{};
    uint64_t ur_at = 0, ur_data = 0;

    // DMA read agent
    std::deque<RdReq> rd_todo;
    std::map<unsigned, RdReq> rd_out;
    bool rsp_active = false;
    unsigned rsp_id = 0, rsp_beats = 0;
    std::vector<uint8_t> rsp_bytes;
    uint64_t n_rd_done = 0, rd_bytes = 0;
    // DMA write agent
    std::deque<RdReq> wr_todo;
    std::vector<uint8_t> wr_bytes_cur;
    unsigned wr_beat = 0;
    uint64_t wr_bytes_started = 0, n_wr_done = 0;
    kolo::PcieHostMem shadow;
    std::vector<std::pair<uint64_t, unsigned>> written;
    // MSI agent
    std::deque<unsigned> msi_q;
    struct MsiExp {
        unsigned vector;
        uint64_t wr_bytes;
    };
    std::vector<MsiExp> msi_exp;

    void set_sizes(unsigned mps, unsigned mrrs) {
        mps_enc = mps;
        mrrs_enc = mrrs;
        rc.cfg().mps = 128u << mps;
        rc.cfg().mrrs = 128u << mrrs;
    }
    static uint64_t bar_base(unsigned bar) { return bar == 0 ? kBar0 : kBar2; }
    std::vector<uint8_t> &image(unsigned bar) { return bar == 0 ? bar0 : bar2; }

    void host_write(unsigned bar, uint32_t off, const std::vector<uint8_t> &d, bool force4) {
        rc.host_write(bar_base(bar) + off, d.data(), (unsigned)d.size(), force4);
        uint32_t end = off + (uint32_t)d.size();
        for (uint32_t blk = off & ~63u; blk < end; blk += 64) {
            ExpChunk c{};
            c.bar = bar;
            c.addr = blk;
            for (uint32_t i = 0; i < 64; i++)
                if (blk + i >= off && blk + i < end) {
                    c.strb |= 1ull << i;
                    c.data[i] = d[blk + i - off];
                }
            exp_chunks.push_back(c);
            n_exp_chunks++;
        }
    }
    void host_read(unsigned bar, uint32_t off, unsigned len, bool force4) {
        int h = rc.host_read(bar_base(bar) + off, len, force4);
        unsigned ulen = (len > 4 || ((off & 3) + len > 4)) ? 8 : 4;
        exp_user_reads.push_back(UserRead{bar, off & ~(ulen - 1), ulen, h, n_exp_chunks});
        host_checks[h] = HostCheck{};
    }
    void host_ur(const PcieTlp &t, bool np) {
        exp_ur++;
        if (!np) {
            rc.host_send_posted(t);
            return;
        }
        int h = rc.host_send_np(t);
        HostCheck hc;
        hc.known = true;
        hc.status = kolo::kCplUR;
        host_checks[h] = hc;
    }

    void tick() {
        vendor.drive(top, rc, mps_enc, mrrs_enc, true, true);
        top->mmio_wr_ready = rng.chance(mmio_wr_ready_pct);
        top->mmio_rd_ready = rng.chance(mmio_rd_ready_pct);
        top->mmio_rd_resp_valid = ur_resp && cyc >= ur_at;
        top->mmio_rd_resp_data = ur_data;
        top->mmio_rd_resp_err = 0;
        const RdReq *rq = rd_todo.empty() ? nullptr : &rd_todo.front();
        top->dma_rd_req_valid =
            rq && rd_out.size() < 24 && !rd_out.count(rq->id) && !rng.chance(dma_gap_pct);
        top->dma_rd_req_addr = rq ? rq->addr : 0;
        top->dma_rd_req_len = rq ? rq->len : 0;
        top->dma_rd_req_id = rq ? rq->id : 0;
        top->dma_rd_ready = rng.chance(dma_rd_ready_pct);
        const RdReq *wq = wr_todo.empty() ? nullptr : &wr_todo.front();
        if (wq && wr_beat == 0 && wr_bytes_cur.size() != wq->len) {
            wr_bytes_cur.resize(wq->len);
            for (auto &b : wr_bytes_cur)
                b = (uint8_t)rng.next();
        }
        // the core wants a started write to continue without waiting (docs/ni.md 6)
        top->dma_wr_valid = wq && (wr_beat > 0 || !rng.chance(dma_gap_pct));
        top->dma_wr_addr = wq ? wq->addr : 0;
        top->dma_wr_len = wq ? wq->len : 0;
        for (unsigned i = 0; i < 8; i++) {
            uint32_t w = 0;
            for (unsigned j = 0; j < 4; j++) {
                unsigned k = wr_beat * 32 + i * 4 + j;
                w |= (uint32_t)(wq && k < wq->len ? wr_bytes_cur[k] : 0xEE) << (8 * j);
            }
            top->dma_wr_data[i] = w;
        }
        top->dma_wr_last = wq && wr_beat + 1 == (wq->len + 31) / 32;
        top->msi_valid = !msi_q.empty();
        top->msi_vector = msi_q.empty() ? 0 : msi_q.front();

        top->clk = 0;
        top->eval();

        vendor.sample(top, rc);
        bool mw_fire = top->mmio_wr_valid && top->mmio_wr_ready;
        ExpChunk got{};
        if (mw_fire) {
            got.bar = top->mmio_wr_bar;
            got.addr = top->mmio_wr_addr;
            got.strb = top->mmio_wr_strb;
            for (int i = 0; i < 16; i++)
                for (int j = 0; j < 4; j++)
                    got.data[i * 4 + j] = (uint8_t)(top->mmio_wr_data[i] >> (8 * j));
        }
        bool mr_fire = top->mmio_rd_valid && top->mmio_rd_ready;
        UserRead mr{top->mmio_rd_bar, top->mmio_rd_addr, top->mmio_rd_len, -1};
        bool resp_fire = top->mmio_rd_resp_valid && top->mmio_rd_resp_ready;
        bool rq_fire = top->dma_rd_req_valid && top->dma_rd_req_ready;
        bool rd_fire = top->dma_rd_valid && top->dma_rd_ready;
        uint8_t rdb[32];
        unsigned rd_id = top->dma_rd_id;
        bool rd_last = top->dma_rd_last, rd_err = top->dma_rd_err;
        if (rd_fire)
            for (int i = 0; i < 8; i++)
                for (int j = 0; j < 4; j++)
                    rdb[i * 4 + j] = (uint8_t)(top->dma_rd_data[i] >> (8 * j));
        bool wr_fire = top->dma_wr_valid && top->dma_wr_ready;
        bool msi_fire = top->msi_valid && top->msi_ready;

        top->clk = 1;
        top->eval();
        vendor.commit();
        rc.step();

        if (mw_fire)
            on_chunk(got);
        if (mr_fire)
            on_user_read(mr);
        if (resp_fire) {
            ur_resp = false;
            HostCheck &hc = host_checks[ur_cur.handle];
            hc.known = true;
            hc.status = kolo::kCplSC;
            hc.data.push_back((uint32_t)ur_data);
            if (ur_cur.len == 8)
                hc.data.push_back((uint32_t)(ur_data >> 32));
        }
        if (rq_fire) {
            rd_out[rq->id] = *rq;
            rd_todo.pop_front();
        }
        if (rd_fire)
            on_rd_beat(rd_id, rdb, rd_last, rd_err);
        if (wr_fire) {
            if (wr_beat == 0) {
                wr_bytes_started += wq->len;
                shadow.write(wq->addr, wr_bytes_cur.data(), wq->len);
                written.emplace_back(wq->addr, wq->len);
            }
            if (++wr_beat == (wq->len + 31) / 32) {
                wr_todo.pop_front();
                wr_beat = 0;
                wr_bytes_cur.clear();
                n_wr_done++;
            }
        }
        if (msi_fire) {
            msi_exp.push_back(MsiExp{msi_q.front(), wr_bytes_started});
            msi_q.pop_front();
        }
        if (ur_active && !ur_resp) {
            ur_active = false;
            ur_resp = true;
            ur_at = cyc + rng.below(8);
            std::vector<uint8_t> &img = image(ur_cur.bar);
            ur_data = 0;
            for (unsigned i = 0; i < ur_cur.len; i++)
                ur_data |= (uint64_t)img[ur_cur.addr + i] << (8 * i);
        }
        check_host_results();
        cyc++;
    }

    void on_chunk(const ExpChunk &g) {
        n_chunks++;
        if (!chk.check(!exp_chunks.empty(), "unexpected MMIO write chunk bar %u addr 0x%x", g.bar,
                       g.addr))
            return;
        ExpChunk e = exp_chunks.front();
        exp_chunks.pop_front();
        bool ok = chk.check(g.bar == e.bar && g.addr == e.addr && g.strb == e.strb,
                            "MMIO write chunk bar %u addr 0x%05x strb %016llx, expected bar %u "
                            "addr 0x%05x strb %016llx",
                            g.bar, g.addr, (unsigned long long)g.strb, e.bar, e.addr,
                            (unsigned long long)e.strb);
        for (int i = 0; ok && i < 64; i++)
            if ((e.strb >> i) & 1)
                ok = chk.check(g.data[i] == e.data[i],
                               "MMIO write chunk addr 0x%05x byte %d = %02x, expected %02x", g.addr,
                               i, g.data[i], e.data[i]);
        std::vector<uint8_t> &img = image(g.bar);
        for (int i = 0; i < 64; i++)
            if (((g.strb >> i) & 1) && g.addr + i < img.size())
                img[g.addr + i] = g.data[i];
    }
    void on_user_read(const UserRead &r) {
        n_user_reads++;
        if (!chk.check(!exp_user_reads.empty(), "unexpected MMIO read bar %u addr 0x%x", r.bar,
                       r.addr))
            return;
        UserRead e = exp_user_reads.front();
        exp_user_reads.pop_front();
        chk.check(r.bar == e.bar && r.addr == e.addr && r.len == e.len,
                  "MMIO read bar %u addr 0x%05x len %u, expected bar %u addr 0x%05x len %u", r.bar,
                  r.addr, r.len, e.bar, e.addr, e.len);
        // PCIe B2a: a read does not pass a write that arrived before it
        chk.check(n_chunks >= e.chunks_before,
                  "MMIO read bar %u addr 0x%05x reached the user side after %llu write chunks, but "
                  "%llu came before it (a read passed a write)",
                  r.bar, r.addr, (unsigned long long)n_chunks, (unsigned long long)e.chunks_before);
        ur_cur = e;
        ur_active = true;
    }
    void check_host_results() {
        for (auto it = host_checks.begin(); it != host_checks.end();) {
            const KoloPcieRc::HostResult &r = rc.host_result(it->first);
            if (!r.done) {
                ++it;
                continue;
            }
            const HostCheck &hc = it->second;
            n_host_done++;
            if (chk.check(hc.known, "host request %d completed before the user side answered it",
                          it->first)) {
                chk.check(r.status == hc.status,
                          "host request %d completed with status %u, expected %u", it->first,
                          r.status, hc.status);
                bool same = r.data.size() == hc.data.size();
                for (size_t i = 0; same && i < hc.data.size(); i++)
                    same = r.data[i] == hc.data[i];
                chk.check(same,
                          "host read %d: completion data %08x.. (%zu DWs), user side gave %08x.. "
                          "(%zu DWs)",
                          it->first, r.data.empty() ? 0 : r.data[0], r.data.size(),
                          hc.data.empty() ? 0 : hc.data[0], hc.data.size());
            }
            it = host_checks.erase(it);
        }
    }
    void on_rd_beat(unsigned id, const uint8_t *bytes, bool last, bool err) {
        if (!rsp_active) {
            if (!chk.check(rd_out.count(id),
                           "DMA read data for id %u, which has no request outstanding", id))
                return;
            rsp_active = true;
            rsp_id = id;
            rsp_beats = 0;
            rsp_bytes.clear();
        }
        if (!chk.check(id == rsp_id, "DMA read beat of id %u inside the response of id %u", id,
                       rsp_id))
            return;
        RdReq &q = rd_out[rsp_id];
        rsp_beats++;
        rsp_bytes.insert(rsp_bytes.end(), bytes, bytes + 32);
        if (!last)
            return;
        rsp_active = false;
        chk.check(rsp_beats == (q.len + 31) / 32, "DMA read id %u (len %u): %u beats", id, q.len,
                  rsp_beats);
        chk.check(!err, "DMA read id %u addr 0x%llx len %u failed", id, (unsigned long long)q.addr,
                  q.len);
        for (unsigned i = 0; i < q.len && i < rsp_bytes.size(); i++)
            if (!chk.check(rsp_bytes[i] == rc.mem().get(q.addr + i),
                           "DMA read id %u addr 0x%llx len %u: byte %u = %02x, expected %02x", id,
                           (unsigned long long)q.addr, q.len, i, rsp_bytes[i],
                           rc.mem().get(q.addr + i)))
                break;
        n_rd_done++;
        rd_bytes += q.len;
        rd_out.erase(rsp_id);
    }

    bool idle() const {
        return exp_chunks.empty() && exp_user_reads.empty() && !ur_active && !ur_resp &&
               host_checks.empty() && rd_todo.empty() && rd_out.empty() && wr_todo.empty() &&
               msi_q.empty() && rc.idle() && vendor.idle();
    }
    bool run(uint64_t max_cycles, const std::function<bool()> &body) {
        uint64_t end = cyc + max_cycles;
        bool more = true;
        while (cyc < end) {
            if (more)
                more = body();
            tick();
            if (!more && idle()) {
                for (int i = 0; i < 16; i++)
                    tick(); // let the MSI and counters settle
                return true;
            }
            if (chk.failures() > 20)
                return false;
        }
        chk.check(false,
                  "watchdog: not done after %llu cycles (chunks %zu, user reads %zu, host %zu, dma "
                  "rd %zu+%zu, "
                  "dma wr %zu, rc idle %d, vendor idle %d)",
                  (unsigned long long)max_cycles, exp_chunks.size(), exp_user_reads.size(),
                  host_checks.size(), rd_todo.size(), rd_out.size(), wr_todo.size(), rc.idle(),
                  vendor.idle());
        return false;
    }
    void final_checks() {
        if (!rc.violations().empty()) {
            rc.print_violations(stderr);
            chk.check(false, "%zu protocol violation(s) in the device's TLPs",
                      rc.violations().size());
        }
        bool mem_ok = true;
        for (size_t k = 0; mem_ok && k < written.size(); k++)
            for (unsigned i = 0; mem_ok && i < written[k].second + 32; i++) {
                uint64_t a = written[k].first + i - 16;
                mem_ok = chk.check(rc.mem().get(a) == shadow.get(a),
                                   "host memory 0x%llx = %02x, expected %02x",
                                   (unsigned long long)a, rc.mem().get(a), shadow.get(a));
            }
        const auto &m = rc.msis();
        chk.check(m.size() == msi_exp.size(), "%zu MSIs arrived, %zu expected", m.size(),
                  msi_exp.size());
        for (size_t i = 0; i < m.size() && i < msi_exp.size(); i++) {
            chk.check(m[i].data == (kMsiData | msi_exp[i].vector),
                      "MSI %zu data %08x, expected %08x", i, m[i].data,
                      kMsiData | msi_exp[i].vector);
            chk.check(
                m[i].bytes_before >= msi_exp[i].wr_bytes,
                "MSI %zu passed DMA writes: %llu bytes written before it, %llu accepted before it",
                i, (unsigned long long)m[i].bytes_before, (unsigned long long)msi_exp[i].wr_bytes);
        }
        chk.check(top->stat_bad_tlp == 0, "stat_bad_tlp %u: the core saw malformed TLPs",
                  top->stat_bad_tlp);
        chk.check(top->stat_ur == exp_ur, "stat_ur %u, expected %llu", top->stat_ur,
                  (unsigned long long)exp_ur);
        chk.check(top->stat_cpl_err == 0 && top->stat_cpl_timeout == 0 && top->stat_ca == 0,
                  "stat_cpl_err %u stat_cpl_timeout %u stat_ca %u, expected 0", top->stat_cpl_err,
                  top->stat_cpl_timeout, top->stat_ca);
    }
};

std::vector<uint8_t> rand_bytes(tb::Rng &r, unsigned n) {
    std::vector<uint8_t> v(n);
    for (auto &b : v)
        b = (uint8_t)r.next();
    return v;
}
unsigned rand_len(tb::Rng &r) {
    switch (r.below(5)) {
    case 0:
        return 1 + r.below(16);
    case 1:
        return 1 + r.below(256);
    case 2:
        return 4096 - r.below(4);
    default:
        return 1 + r.below(4096);
    }
}
// DMA reads come from memory that is never written: below 4 GB at
// 0x1000_0000.., above it at 0x2_0000_0000..; addresses near a 4 KB edge
// often. DMA writes go to fresh ranges at 0x4000_0000.. and 0x3_0000_0000..
uint64_t rand_rd_addr(tb::Rng &r, unsigned len) {
    uint64_t base = r.chance(50) ? 0x10000000ull : 0x200000000ull;
    uint64_t a = base + ((uint64_t)r.below(1u << 16) << 12);
    return r.chance(40) ? a + 4096 - r.below(std::min(len, 4096u) + 64) : a + r.below(4096);
}

int run_test(VerilatedContext *ctx, uint64_t seed, long n, bool fast, tb::Checker &chk) {
    KoloPcieRc::Config c;
    c.rc_id = kRcId;
    c.dev_id = kDevId;
    c.msi_addr = kMsiAddr;
    c.tags = TB_TAGS;
    c.cpl_timeout_min = TB_CPL_TIMEOUT > 64 ? TB_CPL_TIMEOUT - 64 : 0;
    c.seed = seed * 0x2545F4914F6CDD1Dull + 17;
    c.mmio_latency = fast ? 1 : 8;
    c.cpl_latency_min = fast ? 10 : 40;
    c.cpl_latency_max = fast ? 40 : 200;
    c.cpl_gap_max = fast ? 0 : 4;
    c.cpl_space_h = TB_CPL_H;  // the block's completion buffer: overflowing it fails the test
    c.cpl_space_d = TB_CPL_D;
    Tb tb(ctx, seed, chk, c);
    tb.vendor.k.seq_delay_max = fast ? 2 : 24;
    // now and then a sequence number (and every later one) is reported late, so that
    // posted requests pile up to the shim's window of 16 (at full rate)
    tb.vendor.k.seq_stall_pct = fast ? 3 : 0;
    tb.vendor.k.seq_stall = 400;
    tb.set_sizes(tb.rng.below(3), tb.rng.below(4));
    if (!fast) {
        tb.vendor.k.rx_gap_pct = 25;
        tb.vendor.k.tx_ready_pct = 60;
        tb.vendor.k.msi_grant_pct = 30;
        tb.mmio_wr_ready_pct = 70;
        tb.mmio_rd_ready_pct = 60;
        tb.dma_rd_ready_pct = 70;
        tb.dma_gap_pct = 20;
    }
    uint64_t wr_lo = 0x40000000ull, wr_hi = 0x300000000ull;
    unsigned next_id = 0;
    long issued = 0, n_hw = 0, n_hr = 0, n_ur = 0;
    using namespace kolo;
    tb.run(20000000, [&]() {
        if (issued >= n)
            return false;
        if (!tb.rng.chance(fast ? 60 : 25))
            return true;
        unsigned k = tb.rng.below(100);
        if (fast && issued < 24)
            k = 60 + tb.rng.below(30);  // DMA writes only while the first report is late
        if (k < 30) { // host MMIO
            if (tb.rc.host_pending() > 3)
                return true;
            issued++;
            unsigned bar = tb.rng.chance(50) ? 0 : 2;
            uint32_t size = bar == 0 ? kBar0Size : kBar2Size;
            bool h4 = bar == 0 && tb.rng.chance(15);
            unsigned m = tb.rng.below(100);
            if (m < 15) {
                tb.host_write(bar, tb.rng.below(size / 4) * 4, rand_bytes(tb.rng, 4), h4);
                n_hw++;
            } else if (m < 25) {
                tb.host_write(2, tb.rng.below(kBar2Size / 64) * 64, rand_bytes(tb.rng, 64), false);
                n_hw++;
            } else if (m < 45) {
                unsigned len = 1 + tb.rng.below(tb.rng.chance(70) ? 64 : 512);
                uint32_t off = tb.rng.below(size - len);
                if ((off >> 12) != ((off + len - 1) >> 12))
                    off = (off & ~0xFFFu) + tb.rng.below(4096 - len + 1);
                tb.host_write(bar, off, rand_bytes(tb.rng, len), h4);
                n_hw++;
            } else if (m < 90) {
                unsigned r = tb.rng.below(3);
                if (r == 0)
                    tb.host_read(bar, tb.rng.below(size / 4) * 4, 4, h4);
                else if (r == 1)
                    tb.host_read(bar, tb.rng.below(size / 8) * 8, 8, h4);
                else {
                    uint32_t off = tb.rng.below(size);
                    tb.host_read(bar, off, 1 + tb.rng.below(4 - (off & 3)), h4);
                }
                n_hr++;
            } else { // unsupported: UR (non-posted) or dropped (posted), counted
                n_ur++;
                unsigned u = tb.rng.below(4);
                if (u == 0)
                    tb.host_ur(pcie_mem_read(kBar0 + 0x200 + 4 * tb.rng.below(8), 12, 0, 0), true);
                else if (u == 1) {
#if defined(KOLO_SHIM_US)
                    // no I/O BAR: the UltraScale block itself refuses I/O requests; a locked read
                    // instead
                    PcieTlp t = pcie_mem_read(kBar0 + 0x40, 4, 0, 0);
                    t.hdr[0] = (t.hdr[0] & ~(0x1Fu << 24)) | ((unsigned)kTypeMemLk << 24);
#else
                    PcieTlp t;
                    t.hdr[0] = pcie_dw0(kFmt3DW, kTypeIo, 1);
                    t.hdr[1] = 0xF;
                    t.hdr[2] = 0x1000;
#endif
                    tb.host_ur(t, true);
                } else if (u == 2) {
                    PcieTlp t;
                    t.hdr[0] = pcie_dw0(kFmt4DW, kTypeMsg | 4, 0);
                    t.hdr[1] = 0x0000007F;
                    tb.host_ur(t, false);
                } else {
                    PcieTlp t = pcie_mem_read(kBar2 + 0x304, 8, 0, 0); // 8 bytes at 4 mod 8
                    tb.host_ur(t, true);
                }
            }
        } else if (k < 60) { // DMA read
            if (tb.rd_todo.size() > 2)
                return true;
            issued++;
            RdReq q;
            q.len = rand_len(tb.rng);
            q.addr = rand_rd_addr(tb.rng, q.len);
            q.id = next_id++ & 0xFF;
            tb.rd_todo.push_back(q);
        } else if (k < 90) { // DMA write
            if (tb.wr_todo.size() > 2)
                return true;
            issued++;
            RdReq q;
            q.len = rand_len(tb.rng);
            uint64_t &cur = tb.rng.chance(50) ? wr_lo : wr_hi;
            cur += 64 + tb.rng.below(tb.rng.chance(30) ? 8192 : 64);
            q.addr = cur;
            cur += q.len;
            tb.wr_todo.push_back(q);
        } else {
            if (tb.msi_q.size() > 2)
                return true;
            issued++;
            tb.msi_q.push_back(tb.rng.below(32));
        }
        return true;
    });
    tb.final_checks();
#if defined(KOLO_SHIM_US)
    std::printf("most posted requests unreported at once: %u\n", tb.vendor.max_posted_unreported);
    if (fast && n >= 1000)
        chk.check(tb.vendor.max_posted_unreported == 16,
                  "the run never reached 16 unreported posted requests (%u): the window is untested",
                  tb.vendor.max_posted_unreported);
#endif
    char s[400];
    std::snprintf(s, sizeof s,
                  "%s shim, MPS %u MRRS %u: %ld host writes (%llu chunks), %ld reads, %ld "
                  "unsupported, %llu DMA reads "
                  "(%llu bytes), %llu DMA writes, %zu MSIs; %llu TLPs down, %llu up, %llu "
                  "straddled beats; %llu cycles",
                  kShim, 128u << tb.mps_enc, 128u << tb.mrrs_enc, n_hw,
                  (unsigned long long)tb.n_chunks, n_hr, n_ur, (unsigned long long)tb.n_rd_done,
                  (unsigned long long)tb.rd_bytes, (unsigned long long)tb.n_wr_done,
                  tb.rc.msis().size(), (unsigned long long)tb.vendor.down.n_tlps,
                  (unsigned long long)tb.vendor.n_up, (unsigned long long)tb.vendor.n_straddle,
                  (unsigned long long)tb.cyc);
    return chk.finish(seed, s);
}

} // namespace

int main(int argc, char **argv) {
    auto *ctx = new VerilatedContext;
    ctx->commandArgs(argc, argv);
    uint64_t seed = tb::seed_from(argc, argv, 1);
    std::string test;
    long n = -1;
    for (int i = 1; i < argc; i++) {
        if (!std::strncmp(argv[i], "--test=", 7))
            test = argv[i] + 7;
        if (!std::strncmp(argv[i], "--n=", 4))
            n = std::strtol(argv[i] + 4, nullptr, 0);
        if (!std::strncmp(argv[i], "--bug=", 6))
            g_bug = argv[i] + 6;
    }
    std::string name = std::string("pcie-shim-") + kShim + "-" + test;
    tb::Checker chk(name.c_str());
    std::printf("%s: seed %llu%s%s\n", name.c_str(), (unsigned long long)seed,
                g_bug.empty() ? "" : ", deliberate bug ", g_bug.c_str());
    int rc;
    if (test == "traffic")
        rc = run_test(ctx, seed, n < 0 ? 3000 : n, false, chk);
    else if (test == "fast")
        rc = run_test(ctx, seed, n < 0 ? 3000 : n, true, chk);
    else {
        std::fprintf(stderr, "usage: %s --test=traffic|fast [--seed=N] [--n=N] [--bug=<b>]\n",
                     argv[0]);
        return 2;
    }
    delete ctx;
    return rc;
}
