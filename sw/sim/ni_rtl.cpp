// ni_rtl.cpp - kolo-sim --ni=rtl: the Verilated sw/rtlsim/kolo_sim_cluster (per
// node kolo_pcie_ep + kolo_ni on a kolo_torus with ideal links) of one torus
// size, with one PCIe root-complex model (sw/rtlsim/kolo_pcie_rc.h) per node
// as the host. Built once per size as kolo-sim-ni-XxYxZ (mk/sim.mk).
//
// Host side: MMIO requests from the simulator core become MWr/MRd TLPs of the
// node's root complex (its host memory is the PE's address space, through
// ClusterHost::host_mem); a read is answered when its completion returns.
// Every TLP the device sends is checked by the root-complex model; the first
// violation is a cluster error. Local ports: the flits the NI injects and the
// router ejects are reassembled per VC into packets and handed to the core's
// scoreboard; a flit count between them tells when the network is empty.
// Faults (--svc): set_link drives kolo_torus' link_down bits of both ends of a
// link; the routers drop packets for down links whole, their flits marked on
// the port monitors (mon_sunk): reassembled, each dropped packet goes to the
// core (packet_dropped), which names it by content as at ejection (the RTL
// NIs' header flit 1 is their own, not a scoreboard id). The service block
// models' MGMT packets enter each NI's mgmt_tx port and leave its mgmt_rx port
// (kolo_sim_node: svc_en for MGMT only); the NIs' end-to-end counter pulses
// are added up here.
#include <cinttypes>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "Vkolo_sim_cluster.h"
#include "kolo_ni_model.h"
#include "kolo_pcie_rc.h"
#include "kolo_rtl_bits.h"
#include "sim.h"
#include "verilated.h"

#ifndef KOLO_DIM_X
#error "build with -DKOLO_DIM_X=.. -DKOLO_DIM_Y=.. -DKOLO_DIM_Z=.."
#endif
#define KOLO_STR2(x) #x
#define KOLO_STR(x) KOLO_STR2(x)
#define KOLO_TORUS_NAME KOLO_STR(KOLO_DIM_X) "x" KOLO_STR(KOLO_DIM_Y) "x" KOLO_STR(KOLO_DIM_Z)

namespace kolo_sim {
namespace {

using kolo_rtl::Flit;
using kolo_rtl::flit_get;
using kolo_rtl::kNiDbgBits;
using kolo_rtl::ni_free_tags;
using kolo_rtl::sig_get;
using kolo_rtl::sig_set;

constexpr int kNodes = KOLO_DIM_X * KOLO_DIM_Y * KOLO_DIM_Z;
static_assert(kNodes <= 64, "the per-node valid vectors are read as one 64-bit word");
// Bus addresses of the device (below 4 GB: 3-DW headers) and of the MSI
// target; PE virtual addresses this low are not used by Linux processes.
constexpr uint64_t kBar0 = 0xE0000000ull; // 128 KB
constexpr uint64_t kBar2 = 0xE0100000ull; // 64 KB
constexpr uint64_t kMsiAddr = 0xFEE00000ull;
constexpr unsigned kHostQueue = 4;     // host requests queued in a root complex before the PE waits
constexpr uint64_t kQuietCycles = 256; // no activity for this long: idle

struct PendingRead {
    int handle;
    uint64_t token;
};

struct NodeState {
    std::unique_ptr<kolo::KoloPcieRc> rc;
    std::vector<PendingRead> reads;
    std::vector<uint64_t> inj_part[4], ej_part[4];
    std::deque<Flit> mgmt_tx;         // MGMT flits for the NI's mgmt_tx port
    std::vector<uint64_t> mgmt_rx;    // the MGMT packet arriving on mgmt_rx
    uint64_t e2e[5] = {0, 0, 0, 0, 0}; // E2E_RETX, DUP_REQ, DUP_RESP, TIMEOUTS, UNREACH
    size_t violations_seen = 0;
    uint64_t msis = 0, host_writes = 0, host_reads = 0;
};

kolo::KoloPcieRc::Config rc_config(int n) {
    kolo::KoloPcieRc::Config c;
    c.rc_id = 0x0000;
    c.dev_id = 0x0100;
    c.mps = 256;  // cfg_max_payload 1
    c.mrrs = 512; // cfg_max_read_req 2
    c.rcb = 64;
    c.tags = 32;
    c.mmio_latency = 8;
    c.cpl_latency_min = 40; // 160..400 ns at 250 MHz
    c.cpl_latency_max = 100;
    c.cpl_gap_max = 2;
    c.reorder = true;
    c.random_split = true;
    c.msi_addr = kMsiAddr;
    c.seed = 0x5eed0000u + static_cast<uint64_t>(n);
    return c;
}

class RtlCluster : public Cluster {
  public:
    explicit RtlCluster(ClusterHost *host)
        : host_(host), ctx_(new VerilatedContext), node_(kNodes) {
        top_.reset(new Vkolo_sim_cluster(ctx_.get()));
        for (int n = 0; n < kNodes; n++) {
            NodeState &s = node_[static_cast<size_t>(n)];
            s.rc.reset(new kolo::KoloPcieRc(rc_config(n)));
            s.rc->set_memory_checked(
                [this, n](uint64_t a, uint8_t *p, size_t len) {
                    return host_->host_mem(n, a, p, len, false) == 0;
                },
                [this, n](uint64_t a, const uint8_t *p, size_t len) {
                    // in ascending order, one aligned 8-byte word at a time, so
                    // a PE polling a word never sees it half written
                    bool ok = true;
                    while (len) {
                        size_t k = 8 - (a & 7);
                        if (k > len)
                            k = len;
                        if (host_->host_mem(n, a, const_cast<uint8_t *>(p), k, true))
                            ok = false;
                        a += k;
                        p += k;
                        len -= k;
                    }
                    return ok;
                });
        }
        top_->cfg_bar0 = kBar0;
        top_->cfg_bar2 = kBar2;
        top_->cfg_req_id = 0x0100;
        top_->cfg_max_payload = 1;
        top_->cfg_max_read_req = 2;
        top_->cfg_bus_master = 1;
        top_->cfg_msi_addr = kMsiAddr;
        top_->cfg_msi_data = 0;
        top_->cfg_msi_en = 1;
        top_->clk = 0;
        top_->rst = 1;
        top_->rx_tlp_valid = 0;
        top_->tx_tlp_ready = 0;
        sig_set(top_->link_down, 0, kNodes * 6, 0);
        sig_set(top_->mgmt_tx_valid, 0, kNodes, 0);
        sig_set(top_->mgmt_rx_ready, 0, kNodes, (kNodes >= 64 ? ~0ull : (1ull << kNodes) - 1));
        top_->eval();
        for (int i = 0; i < 8; i++)
            tick();
        top_->rst = 0;
        for (int i = 0; i < 4; i++)
            tick();
    }
    ~RtlCluster() override { top_->final(); }

    bool mmio_ready(int n) override {
        return node_[static_cast<size_t>(n)].rc->host_queued() < kHostQueue;
    }

    void mmio_write(int n, int bar, uint32_t off, const void *data, unsigned len) override {
        NodeState &s = node_[static_cast<size_t>(n)];
        uint64_t a = (bar == 2 ? kBar2 : kBar0) + off;
        const uint8_t *p = static_cast<const uint8_t *>(data);
        // one MWr never crosses 4 KB: split (the PE's offset is its business)
        while (len) {
            unsigned chunk = static_cast<unsigned>(4096 - (a & 4095));
            if (chunk > len)
                chunk = len;
            s.rc->host_write(a, p, chunk);
            a += chunk;
            p += chunk;
            len -= chunk;
        }
        s.host_writes++;
        last_move_ = cycle_;
    }

    void mmio_read(int n, int bar, uint32_t off, unsigned len, uint64_t token) override {
        NodeState &s = node_[static_cast<size_t>(n)];
        uint64_t a = (bar == 2 ? kBar2 : kBar0) + off;
        s.reads.push_back(PendingRead{s.rc->host_read(a, len), token});
        s.host_reads++;
        last_move_ = cycle_;
    }

    bool step(uint64_t) override {
        bool moved = false;
        // drive the root complexes' side of the TLP ports
        uint64_t rx_valid = 0, tx_ready = 0;
        for (int n = 0; n < kNodes; n++) {
            kolo::KoloPcieRc &rc = *node_[static_cast<size_t>(n)].rc;
            unsigned un = static_cast<unsigned>(n);
            if (rc.dev_rx_valid()) {
                const kolo::PcieBeat &b = rc.dev_rx_beat();
                rx_valid |= 1ull << n;
                for (unsigned i = 0; i < 4; i++)
                    sig_set(top_->rx_tlp_hdr, un * 128 + 32 * i, 32, b.hdr[i]);
                for (unsigned i = 0; i < 8; i++)
                    sig_set(top_->rx_tlp_data, un * 256 + 32 * i, 32, b.data[i]);
                sig_set(top_->rx_tlp_sop, un, 1, b.sop);
                sig_set(top_->rx_tlp_eop, un, 1, b.eop);
                sig_set(top_->rx_tlp_dw_en, un * 8, 8, b.dw_en);
            }
            if (rc.dev_tx_ready())
                tx_ready |= 1ull << n;
        }
        sig_set(top_->rx_tlp_valid, 0, kNodes, rx_valid);
        sig_set(top_->tx_tlp_ready, 0, kNodes, tx_ready);
        uint64_t mg_valid = 0;
        for (int n = 0; n < kNodes; n++) {
            const NodeState &s = node_[static_cast<size_t>(n)];
            if (s.mgmt_tx.empty())
                continue;
            const Flit &f = s.mgmt_tx.front();
            unsigned un = static_cast<unsigned>(n);
            mg_valid |= 1ull << n;
            sig_set(top_->mgmt_tx_flit, un * 66, 32, f.data & 0xffffffffu);
            sig_set(top_->mgmt_tx_flit, un * 66 + 32, 32, f.data >> 32);
            sig_set(top_->mgmt_tx_flit, un * 66 + 64, 1, f.tail ? 1 : 0);
            sig_set(top_->mgmt_tx_flit, un * 66 + 65, 1, f.head ? 1 : 0);
        }
        sig_set(top_->mgmt_tx_valid, 0, kNodes, mg_valid);
        top_->clk = 0;
        top_->eval();
        uint64_t mg_tx_fire = mg_valid & sig_get(top_->mgmt_tx_ready, 0, kNodes);
        uint64_t mg_rx = sig_get(top_->mgmt_rx_valid, 0, kNodes); // mgmt_rx_ready is always 1
        uint64_t mg_rx_w[kNodes][2];
        for (int n = 0; n < kNodes; n++) {
            unsigned un = static_cast<unsigned>(n);
            if ((mg_rx >> n) & 1) {
                mg_rx_w[n][0] = sig_get(top_->mgmt_rx_flit, un * 66, 64);
                mg_rx_w[n][1] = sig_get(top_->mgmt_rx_flit, un * 66 + 64, 2);
            }
            uint64_t inc = sig_get(top_->e2e_inc, un * 5, 5);
            for (unsigned i = 0; i < 5; i++)
                node_[static_cast<size_t>(n)].e2e[i] += (inc >> i) & 1;
        }
        // flits dropped at down links (this edge)
        const unsigned mon_slots = static_cast<unsigned>(kNodes) * 6;
        std::vector<std::pair<unsigned, Flit>> &sunk_f = sunk_now_;
        sunk_f.clear();
        kolo_rtl::for_each_set_bit(top_->mon_sunk, mon_slots, [&](unsigned slot) {
            sunk_f.emplace_back(slot, flit_get(top_->mon_flit, slot));
        });
        bool sunk = !sunk_f.empty();
        // links that carry flits now (for fault events at CYCLE+: link_in_use)
        kolo_rtl::for_each_set_bit(top_->mon_valid, mon_slots, [&](unsigned slot) { last_flit_[slot] = cycle_; });
        // what moves at this edge
        uint64_t rx_fire = rx_valid & sig_get(top_->rx_tlp_ready, 0, kNodes);
        uint64_t tx_fire = tx_ready & sig_get(top_->tx_tlp_valid, 0, kNodes);
        kolo::PcieBeat tx_beat[kNodes];
        for (int n = 0; n < kNodes; n++) {
            if (!((tx_fire >> n) & 1))
                continue;
            unsigned un = static_cast<unsigned>(n);
            kolo::PcieBeat &b = tx_beat[n];
            for (unsigned i = 0; i < 4; i++)
                b.hdr[i] = static_cast<uint32_t>(sig_get(top_->tx_tlp_hdr, un * 128 + 32 * i, 32));
            for (unsigned i = 0; i < 8; i++)
                b.data[i] =
                    static_cast<uint32_t>(sig_get(top_->tx_tlp_data, un * 256 + 32 * i, 32));
            b.sop = sig_get(top_->tx_tlp_sop, un, 1);
            b.eop = sig_get(top_->tx_tlp_eop, un, 1);
            b.dw_en = static_cast<uint8_t>(sig_get(top_->tx_tlp_dw_en, un * 8, 8));
        }
        uint64_t inj = sig_get(top_->mon_inj_valid, 0, kNodes);
        uint64_t ej = sig_get(top_->mon_ej_valid, 0, kNodes);
        Flit inj_f[kNodes], ej_f[kNodes];
        for (int n = 0; n < kNodes; n++) {
            if ((inj >> n) & 1)
                inj_f[n] = flit_get(top_->mon_inj_flit, static_cast<unsigned>(n));
            if ((ej >> n) & 1)
                ej_f[n] = flit_get(top_->mon_ej_flit, static_cast<unsigned>(n));
        }
        top_->clk = 1;
        top_->eval();
        cycle_++;
        if (rx_fire || tx_fire || inj || ej || mg_tx_fire || mg_rx || sunk)
            moved = true;
        for (int n = 0; n < kNodes; n++) {
            NodeState &s = node_[static_cast<size_t>(n)];
            if ((mg_tx_fire >> n) & 1)
                s.mgmt_tx.pop_front();
            if ((mg_rx >> n) & 1)
                take_mgmt(n, mg_rx_w[n][0], (mg_rx_w[n][1] >> 1) & 1, mg_rx_w[n][1] & 1);
        }
        for (int n = 0; n < kNodes; n++) {
            NodeState &s = node_[static_cast<size_t>(n)];
            if ((rx_fire >> n) & 1)
                s.rc->dev_rx_accept();
            if ((tx_fire >> n) & 1) {
                if (fault_ == KOLO_FAULT_TLP && tx_beat[n].sop && ++fault_count_ == fault_n_)
                    tx_beat[n].hdr[0] |= 1u << 15; // TD: a digest the core never sends
                s.rc->dev_tx_push(tx_beat[n]);
            }
            s.rc->step();
            if (s.rc->violations().size() > s.violations_seen) {
                s.violations_seen = s.rc->violations().size();
                host_->cluster_error("PCIe rule broken by the device of node index " +
                                     std::to_string(n) + ": " + s.rc->violations().front());
            }
            if (s.rc->msis().size() != s.msis)
                s.msis = s.rc->msis().size();
            // read completions, in the order the reads were sent
            while (!s.reads.empty()) {
                const kolo::KoloPcieRc::HostResult &r = s.rc->host_result(s.reads.front().handle);
                if (!r.done)
                    break;
                uint64_t v = 0;
                bool err = r.status != kolo::kCplSC;
                if (!err)
                    for (size_t i = 0; i < r.data.size() && i < 2; i++)
                        v |= static_cast<uint64_t>(r.data[i]) << (32 * i);
                host_->mmio_read_done(n, s.reads.front().token, err ? ~0ull : v, err);
                s.reads.erase(s.reads.begin());
                moved = true;
            }
        }
        // local ports: injections first (a response is injected before it can be ejected)
        for (int n = 0; n < kNodes; n++)
            if ((inj >> n) & 1)
                take_flit(n, inj_f[n], true);
        for (int n = 0; n < kNodes; n++)
            if ((ej >> n) & 1)
                take_flit(n, ej_f[n], false);
        for (const auto &sf : sunk_f)
            take_sunk(sf.first, sf.second);
        if ((cycle_ & 4095) == 0)
            check_router_errors();
        if (moved || !rcs_idle())
            last_move_ = cycle_;
        return moved;
    }

    bool idle() const override {
        return in_net_ == 0 && cycle_ - last_move_ >= kQuietCycles && rcs_idle();
    }

    void dump(FILE *f) const override {
        std::fprintf(f,
                     "rtl NIs + network (%s): %" PRIu64 " flits between the NIs, %" PRIu64
                     " cycles ticked, last activity at %" PRIu64 "\n",
                     KOLO_TORUS_NAME, in_net_, cycle_, last_move_);
        for (int n = 0; n < kNodes; n++) {
            const NodeState &s = node_[static_cast<size_t>(n)];
            unsigned un = static_cast<unsigned>(n);
            uint64_t d_lo = sig_get(top_->ni_dbg, un * kNiDbgBits, 64),
                     d_hi = sig_get(top_->ni_dbg, un * kNiDbgBits + 64, kNiDbgBits - 64);
            std::fprintf(f,
                         "  node index %d: root complex %s (%u host requests queued, %u reads "
                         "waiting, %u device read tags busy), NI dbg_state %#" PRIx64 "%016" PRIx64
                         "\n",
                         n, s.rc->idle() ? "idle" : "busy", s.rc->host_queued(),
                         static_cast<unsigned>(s.reads.size()), s.rc->busy_tags(), d_hi, d_lo);
            if (s.rc->dev_rx_valid())
                std::fprintf(f,
                             "    TLP to the device waiting (rx_tlp_ready %u): header %08x %08x "
                             "%08x %08x\n",
                             static_cast<unsigned>(sig_get(top_->rx_tlp_ready, un, 1)),
                             s.rc->dev_rx_beat().hdr[0], s.rc->dev_rx_beat().hdr[1],
                             s.rc->dev_rx_beat().hdr[2], s.rc->dev_rx_beat().hdr[3]);
            if (sig_get(top_->tx_tlp_valid, un, 1))
                std::fprintf(f, "    device TLP waiting for tx_tlp_ready\n");
            for (int v = 0; v < 4; v++) {
                if (!s.inj_part[v].empty())
                    std::fprintf(f, "    vc %d: %zu flits of a packet injected so far\n", v,
                                 s.inj_part[v].size());
                if (!s.ej_part[v].empty())
                    std::fprintf(f, "    vc %d: %zu flits of a packet ejected so far\n", v,
                                 s.ej_part[v].size());
            }
            uint64_t errs = sig_get(top_->router_errors, un * 64, 64);
            if (errs)
                std::fprintf(f, "    router stat_errors %#" PRIx64 "\n", errs);
        }
    }

    uint64_t flits_injected() const override { return flits_; }

    void ni_stats(int n, uint64_t out[6]) const override {
        for (unsigned i = 0; i < 6; i++)
            out[i] = sig_get(top_->ni_stats, static_cast<unsigned>(n) * 384 + 64 * i, 64);
    }

    std::string pcie_report(int n) const override {
        const NodeState &s = node_[static_cast<size_t>(n)];
        unsigned un = static_cast<unsigned>(n);
        auto ep = [&](unsigned i) { return sig_get(top_->ep_stats, un * 80 + 16 * i, 16); };
        char b[512];
        std::snprintf(b, sizeof b,
                      "host wr %" PRIu64 " rd %" PRIu64 "; device MRd %" PRIu64 " MWr %" PRIu64
                      " (%" PRIu64 " B) MSI %" PRIu64 "; host memory errors %" PRIu64
                      "; EP ur %" PRIu64 " ca %" PRIu64 " cpl_timeout %" PRIu64 " cpl_err %" PRIu64
                      " bad_tlp %" PRIu64 "; TLP violations %zu",
                      s.host_writes, s.host_reads, s.rc->dev_reads(), s.rc->dev_writes(),
                      s.rc->dev_bytes_written(), s.msis, s.rc->mem_errors(), ep(0), ep(1), ep(2),
                      ep(3), ep(4), s.rc->violations().size());
        return b;
    }

    void set_fault(int kind, uint64_t n) override {
        fault_ = kind;
        fault_n_ = n;
    }

    static unsigned other_end(int n, int port) {
        static const kolo_topo t = {{KOLO_DIM_X, KOLO_DIM_Y, KOLO_DIM_Z}};
        return link_other_end(t, n, port);
    }

    void set_link(int n, int port, bool up) override {
        sig_set(top_->link_down, static_cast<unsigned>(n) * 6 + static_cast<unsigned>(port), 1, up ? 0 : 1);
        sig_set(top_->link_down, other_end(n, port), 1, up ? 0 : 1);
    }

    uint64_t fault_drops() const override { return drops_; }

    // a flit crossed the link (either direction) in the last 4 cycles: packets
    // queued behind it are likely to follow
    bool link_in_use(int n, int port) const override {
        unsigned a = static_cast<unsigned>(n) * 6 + static_cast<unsigned>(port), b = other_end(n, port);
        return last_flit_[a] + 4 >= cycle_ || last_flit_[b] + 4 >= cycle_;
    }

    bool mgmt_ready(int n) const override { return node_[static_cast<size_t>(n)].mgmt_tx.size() < 2 * KOLO_MAX_PKT; }

    void mgmt_send(int n, const kolo_pkt &p) override {
        NodeState &s = node_[static_cast<size_t>(n)];
        unsigned flits = 2u + p.len;
        for (unsigned i = 0; i < flits; i++) {
            Flit f{};
            f.head = i == 0;
            f.tail = i + 1 == flits;
            f.data = i < 2 ? p.header[i] : p.payload[i - 2];
            s.mgmt_tx.push_back(f);
        }
        last_move_ = cycle_;
    }

    unsigned tags_taken() const override {
        // dbg_state[84:76]: the NI's free tags (kolo_ni_tags: 256, fewer while
        // it fills its free list after reset)
        unsigned taken = 0;
        for (int n = 0; n < kNodes; n++)
            taken += KOLO_NI_NUM_TAGS - ni_free_tags(top_->ni_dbg, static_cast<unsigned>(n));
        return taken;
    }

    void e2e_stats(int n, uint64_t out[5]) const override {
        for (unsigned i = 0; i < 5; i++)
            out[i] = node_[static_cast<size_t>(n)].e2e[i];
    }

  private:
    void tick() {
        top_->clk = 0;
        top_->eval();
        top_->clk = 1;
        top_->eval();
    }

    bool rcs_idle() const {
        for (const NodeState &s : node_)
            if (!s.rc->idle() || !s.reads.empty())
                return false;
        return true;
    }

    void take_flit(int n, const Flit &f, bool inj) {
        NodeState &s = node_[static_cast<size_t>(n)];
        unsigned vc = f.vc & 3;
        std::vector<uint64_t> &part = inj ? s.inj_part[vc] : s.ej_part[vc];
        const char *where = inj ? "NI injected" : "router ejected";
        if (inj) {
            in_net_++;
            flits_++;
        } else if (in_net_ == 0) {
            host_->cluster_error("router of node index " + std::to_string(n) +
                                 " ejected a flit while none was in the network");
        } else {
            in_net_--;
        }
        if (f.head != part.empty()) {
            host_->cluster_error(std::string("node index ") + std::to_string(n) + ": " + where +
                                 " a " + (f.head ? "head" : "body") + " flit on vc " +
                                 std::to_string(vc) + " with " + std::to_string(part.size()) +
                                 " flits of a packet open");
            part.clear();
            if (!f.head)
                return;
        }
        part.push_back(f.data);
        if (!f.tail)
            return;
        if (part.size() < 2 || part.size() > KOLO_MAX_PKT) {
            host_->cluster_error(std::string("node index ") + std::to_string(n) + ": " + where +
                                 " a packet of " + std::to_string(part.size()) + " flits");
            part.clear();
            return;
        }
        kolo_pkt p;
        std::memset(&p, 0, sizeof p);
        p.header[0] = part[0];
        p.header[1] = part[1];
        p.len = static_cast<uint8_t>(part.size() - 2);
        for (size_t i = 2; i < part.size(); i++)
            p.payload[i - 2] = part[i];
        uint64_t h0 = p.header[0];
        p.dst = h0 & 0xfff;
        p.src = (h0 >> 12) & 0xfff;
        p.op = (h0 >> 24) & 0xf;
        p.vnet = (h0 >> 28) & 1;
        p.ordered = (h0 >> 35) & 1;
        part.clear();
        if ((p.vnet * 2u + (p.ordered ? 0u : 1u)) != vc && inj)
            host_->cluster_error("NI of node index " + std::to_string(n) +
                                 " injected a packet on vc " + std::to_string(vc) +
                                 " that its header puts on vnet " + std::to_string(p.vnet) +
                                 (p.ordered ? " (ordered)" : ""));
        if (inj) {
            host_->packet_injected(n, p);
            return;
        }
        if ((fault_ == KOLO_FAULT_CORRUPT || fault_ == KOLO_FAULT_DROP ||
             fault_ == KOLO_FAULT_DUP) &&
            ++fault_count_ == fault_n_) {
            if (fault_ == KOLO_FAULT_DROP)
                return;
            if (fault_ == KOLO_FAULT_DUP)
                host_->packet_ejected(n, p);
            if (fault_ == KOLO_FAULT_CORRUPT) {
                if (p.len)
                    p.payload[p.len - 1] ^= 1ull << 17;
                else
                    p.header[1] ^= 1ull << 50; // the tag
            }
        }
        host_->packet_ejected(n, p);
    }

    // an MGMT flit on node n's mgmt_rx port: a whole packet goes to the core
    void take_mgmt(int n, uint64_t data, bool head, bool tail) {
        std::vector<uint64_t> &part = node_[static_cast<size_t>(n)].mgmt_rx;
        if (head != part.empty()) {
            host_->cluster_error("NI of node index " + std::to_string(n) + ": mgmt_rx " +
                                 (head ? "head" : "body") + " flit with " + std::to_string(part.size()) +
                                 " flits of a packet open");
            part.clear();
            if (!head)
                return;
        }
        part.push_back(data);
        if (!tail)
            return;
        if (part.size() < 2 || part.size() > KOLO_MAX_PKT) {
            host_->cluster_error("NI of node index " + std::to_string(n) + ": mgmt_rx packet of " +
                                 std::to_string(part.size()) + " flits");
            part.clear();
            return;
        }
        kolo_pkt p = assemble(part);
        part.clear();
        host_->mgmt_received(n, p);
    }

    // a flit router slot / 6 dropped at its port slot % 6 (down link): whole packets to the core
    void take_sunk(unsigned slot, const Flit &f) {
        std::vector<uint64_t> &part = sunk_part_[slot * 4 + (f.vc & 3)];
        if (in_net_ == 0)
            host_->cluster_error("router " + std::to_string(slot / 6) +
                                 " dropped a flit while none was in the network");
        else
            in_net_--;
        if (f.head != part.empty()) {
            host_->cluster_error("router " + std::to_string(slot / 6) + " port " + std::to_string(slot % 6) +
                                 ": dropped a " + (f.head ? "head" : "body") + " flit with " +
                                 std::to_string(part.size()) + " flits of a dropped packet open");
            part.clear();
            if (!f.head)
                return;
        }
        part.push_back(f.data);
        if (!f.tail)
            return;
        if (part.size() < 2 || part.size() > KOLO_MAX_PKT) {
            host_->cluster_error("router " + std::to_string(slot / 6) + " dropped a packet of " +
                                 std::to_string(part.size()) + " flits");
            part.clear();
            return;
        }
        kolo_pkt p = assemble(part);
        part.clear();
        drops_++;
        host_->packet_dropped(static_cast<int>(slot / 6), static_cast<int>(slot % 6), p);
    }

    static kolo_pkt assemble(const std::vector<uint64_t> &part) {
        kolo_pkt p;
        std::memset(&p, 0, sizeof p);
        p.header[0] = part[0];
        p.header[1] = part[1];
        p.len = static_cast<uint8_t>(part.size() - 2);
        for (size_t i = 2; i < part.size(); i++)
            p.payload[i - 2] = part[i];
        uint64_t h0 = p.header[0];
        p.dst = h0 & 0xfff;
        p.src = (h0 >> 12) & 0xfff;
        p.op = (h0 >> 24) & 0xf;
        p.vnet = (h0 >> 28) & 1;
        p.ordered = (h0 >> 35) & 1;
        return p;
    }

    void check_router_errors() {
        for (int n = 0; n < kNodes; n++) {
            uint64_t errs = sig_get(top_->router_errors, static_cast<unsigned>(n) * 64, 64);
            if (errs && !(reported_ & (1ull << (n & 63)))) {
                reported_ |= 1ull << (n & 63);
                char b[64];
                std::snprintf(b, sizeof b, "%#" PRIx64, errs);
                host_->cluster_error("router " + std::to_string(n) +
                                     " reports errors (stat_errors " + b + ")");
            }
        }
    }

    ClusterHost *host_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vkolo_sim_cluster> top_;
    std::vector<NodeState> node_;
    uint64_t cycle_ = 0, last_move_ = 0, in_net_ = 0, flits_ = 0, reported_ = 0, drops_ = 0;
    std::vector<std::pair<unsigned, Flit>> sunk_now_;
    std::vector<uint64_t> last_flit_ = std::vector<uint64_t>(static_cast<size_t>(kNodes) * 6, 0);
    std::vector<std::vector<uint64_t>> sunk_part_ =
        std::vector<std::vector<uint64_t>>(static_cast<size_t>(kNodes) * 24);
    int fault_ = KOLO_FAULT_NONE;
    uint64_t fault_n_ = 0, fault_count_ = 0;
};

Cluster *make_cluster(ClusterHost *host, const kolo_topo &t, std::string *err) {
    if (t.size[0] != KOLO_DIM_X || t.size[1] != KOLO_DIM_Y || t.size[2] != KOLO_DIM_Z) {
        *err = std::string("this NI RTL build is for a ") + KOLO_TORUS_NAME + " torus";
        return nullptr;
    }
    return new RtlCluster(host);
}

} // namespace
} // namespace kolo_sim

int main(int argc, char **argv) {
    return kolo_sim::sim_main(argc, argv, nullptr, KOLO_TORUS_NAME, kolo_sim::make_cluster);
}
