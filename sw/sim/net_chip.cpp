// net_chip.cpp - kolo-sim --net=chip: N whole kolo_chips (sw/rtlsim/kolo_sim_chips.v:
// PCIe endpoint, NI, router, six links with lanes, service block and service
// processor each) of one torus size, joined lane to lane through the lane
// model (sw/rtlsim/kolo_chip_sim.h, sw/rtlsim/kolo_chip_lanes.h), one PCIe
// root-complex model per chip as its host. Built once per size as
// kolo-sim-chip-XxYxZ (mk/sim_chip.mk); docs/sim.md "--net=chip".
//
// Host side: as --ni=rtl (ni_rtl.cpp): MMIO of the PEs becomes TLPs of the
// chip's root complex, whose host memory is the PE's address space.
// Scoreboard: every packet an NI injects, or the router ejects to it, on each
// chip's local port (mon_inj_*, mon_ej_*), goes to the core, named by its
// content. The service processors are the chips' own; they install the
// routing tables (the core writes none) and carry MGMT in band; the core
// follows every table a processor writes (mon_svc_wr_*) to check it.
// Faults: set_link cuts (or heals) the lanes of both directions of a link,
// a node failure holds its chip in reset and cuts all of its lanes. Every
// packet lost is found and handed to the core (packet_dropped):
//   - dropped whole by a router at a down port (mon_out_sunk);
//   - lost in a link that went down: each packet that leaves a router for a
//     link (mon_out_*) is followed until it enters the next router
//     (mon_in_*); those still on their way LOST_SETTLE cycles after the
//     sending end of the link went down never arrive (the link drops what
//     it had not delivered, and frames only move when up);
//   - inside a chip that fails (between entering it and leaving it).
// The routers' drop counters must equal what the monitors saw, and each
// link's own count of dropped packets can only be larger than the packets
// lost on it (it also counts frames delivered whose acknowledgement was lost).
// --rtl-trace=FILE.fst: a waveform of every chip's ports in the trace window
// (link state and counters, lane words both ways, the router's side of each
// link, the service processor's table and stage), written as VCD and turned
// into FST with vcd2fst: the signals at the chips' boundary, sampled each
// cycle, not their insides (a Verilator trace of N chips would cost a flat
// build of tens of minutes). Scopes kolo.chip_X_Y_Z and kolo.chip_X_Y_Z_<port>.
// Service processors: with the chips built SP_INTERNAL 1, the RTL core runs
// the firmware image; with SP_INTERNAL 0 (KOLO_CHIP_NATIVE_FW), the native
// firmware (fw/kolo_fw.c) runs here on each chip's service block port, one
// AXI4-Lite access at a time, in a coroutine per chip.
//
// Length (~1250 lines): one file for now because the chips' world (lanes,
// root complexes, monitors) and the scoreboard that follows packets through
// routers and links share its private per-chip state; splitting the link
// loss tracking and the fault control into files of their own is planned
// (issue 16).
#include <algorithm>
#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <ucontext.h>

#include "kolo_chip_sim.h"
#include "kolo_ni_model.h"
#include "kolo_svc_regs.h"
#include "kolo_rtl_bits.h"
#include "sim.h"
#include "svc.h"
#include "trace.h"

extern "C" {
#include "kolo_fw.h"
}

#ifndef KOLO_DIM_X
#error "build with -DKOLO_DIM_X=.. -DKOLO_DIM_Y=.. -DKOLO_DIM_Z=.."
#endif
#ifndef KOLO_CHIP_GT_W
#define KOLO_CHIP_GT_W 64
#endif
#ifndef KOLO_CHIP_NATIVE_FW
#define KOLO_CHIP_NATIVE_FW 1
#endif
#define KOLO_STR2(x) #x
#define KOLO_STR(x) KOLO_STR2(x)
#define KOLO_TORUS_NAME KOLO_STR(KOLO_DIM_X) "x" KOLO_STR(KOLO_DIM_Y) "x" KOLO_STR(KOLO_DIM_Z)

namespace kolo_sim {
namespace {

using kolo_rtl::Flit;
using kolo_rtl::flit_get;
using kolo_rtl::ni_free_tags;
using kolo_rtl::sig_get;

constexpr int kNodes = KOLO_DIM_X * KOLO_DIM_Y * KOLO_DIM_Z;
static_assert(kNodes <= 64, "the per-chip vectors are read as one 64-bit word");
constexpr unsigned kHostQueue = 4;
constexpr uint64_t kQuietCycles = 256;
constexpr uint64_t kLostSettle = 1024;  // cycles after a link end went down: what is on it is lost
constexpr uint64_t kSpNews = 65536;    // a link changed: the cores hear of it, settle and recompute
constexpr uint64_t kLaneNews = 4096;   // lanes cut or restored, a chip died: the links notice (lock)
constexpr uint64_t kSpBusyLimit = 8000000; // a core showing one stage other than RUNNING this long: an error
constexpr uint64_t kFwQuiet = 2000;     // the firmware has not written a table or its state for this long

kolo_pkt assemble(const std::vector<uint64_t> &part) {
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

constexpr uint64_t kRouteState = 0x7fffffull << 36;  // header flit 0 bits 58:36: rewritten at each router

uint64_t content_key(const kolo_pkt &p, uint64_t h0_mask) {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ p.len;
    auto mix = [&](uint64_t v) {
        h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ull;
    };
    mix(p.header[0] & h0_mask);
    mix(p.header[1]);
    for (unsigned i = 0; i < p.len; i++)
        mix(p.payload[i]);
    return h ^ (h >> 31);
}

// Flits of one port, per VC, into whole packets; framing errors reported.
class Assembler {
  public:
    // returns true with a whole packet in out
    bool take(const Flit &f, kolo_pkt &out, std::string *err) {
        std::vector<uint64_t> &part = part_[f.vc & 3];
        if (f.head != part.empty()) {
            *err = std::string(f.head ? "a head" : "a body") + " flit on vc " + std::to_string(f.vc & 3) + " with " +
                   std::to_string(part.size()) + " flits of a packet open";
            part.clear();
            if (!f.head)
                return false;
        }
        part.push_back(f.data);
        if (!f.tail)
            return false;
        if (part.size() < 2 || part.size() > KOLO_MAX_PKT) {
            *err = "a packet of " + std::to_string(part.size()) + " flits";
            part.clear();
            return false;
        }
        out = assemble(part);
        part.clear();
        return true;
    }
    size_t open_flits() const {
        size_t n = 0;
        for (const auto &p : part_)
            n += p.size();
        return n;
    }
    void clear() {
        for (auto &p : part_)
            p.clear();
    }

  private:
    std::vector<uint64_t> part_[4];
};

struct Tracked {
    kolo_pkt p;
    uint64_t since;
};

// A set of packets on their way (content -> packets): on a link every bit
// stays (exact), through a router the route state changes (route_state_changes).
class InFlight {
  public:
    explicit InFlight(bool route_state_changes = false) : mask_(route_state_changes ? ~kRouteState : ~0ull) {}
    void add(const kolo_pkt &p, uint64_t now) { m_.emplace(content_key(p, mask_), Tracked{p, now}); }
    bool remove(const kolo_pkt &p) {
        auto r = m_.equal_range(content_key(p, mask_));
        for (auto it = r.first; it != r.second; ++it) {
            const kolo_pkt &q = it->second.p;
            if (((q.header[0] ^ p.header[0]) & mask_) == 0 && q.header[1] == p.header[1] && q.len == p.len &&
                std::memcmp(q.payload, p.payload, sizeof(uint64_t) * p.len) == 0) {
                m_.erase(it);
                return true;
            }
        }
        return false;
    }
    // take out every packet that has been here since before `before`
    std::vector<kolo_pkt> take_older(uint64_t before) {
        std::vector<kolo_pkt> v;
        for (auto it = m_.begin(); it != m_.end();)
            if (it->second.since < before) {
                v.push_back(it->second.p);
                it = m_.erase(it);
            } else {
                ++it;
            }
        return v;
    }
    size_t size() const { return m_.size(); }

  private:
    uint64_t mask_;
    std::unordered_multimap<uint64_t, Tracked> m_;
};

struct PendingRead {
    int handle;
    uint64_t token;
};

class ChipCluster;

// ---- the native firmware on a chip's service block port (SP_INTERNAL 0) ------------------
class NativeFw : public HalBus {
  public:
    NativeFw(ChipCluster *c, unsigned n, const kolo_topo &t);
    ~NativeFw() override = default;
    // one core cycle: resume the firmware when its access is done; start a
    // step when the interrupt is high or its deadline has come
    void poll(uint64_t now, bool irq);
    void stop();  // the chip died: forget the step in progress, boot again later
    const kolo_fw *fw() const { return &fw_; }
    bool started() const { return inited_; }
    uint64_t bus_errors() const { return errors_; }
    // --fault=svcbus (negative control of the boot check): every access of this
    // processor reaches address 0 of its service block
    void set_addr_fault(bool on) { addr_fault_ = on; }
    uint32_t read32(uint32_t addr) override;
    void write32(uint32_t addr, uint32_t value) override;
    uint64_t time() override { return now_ - boot_; }
    void log(const char *line) override;
    std::deque<std::string> lines;

  private:
    static void entry(unsigned lo, unsigned hi);
    void body();
    void access(bool write, uint32_t addr, uint32_t value);
    ChipCluster *c_;
    unsigned n_;
    kolo_topo topo_;
    kolo_fw fw_{};
    kolo_hal hal_{};
    std::vector<uint8_t> ws_;
    std::vector<kolo_route_entry> set_;
    std::vector<char> stack_;
    ucontext_t ctx_{}, caller_{};
    bool running_ = false, inited_ = false, addr_fault_ = false;
    std::shared_ptr<kolo_chip::BusOp> op_;
    uint64_t now_ = 0, boot_ = 0, errors_ = 0;
};

// ---- the chips' service processors as the core sees them ---------------------------------
class ChipSvc : public SvcProcs {
  public:
    explicit ChipSvc(ChipCluster *c) : c_(c) {}
    void boot(uint64_t now) override { (void)now; }
    void step(uint64_t now) override { (void)now; }
    void deliver(int n, const kolo_pkt &p) override {
        (void)n, (void)p;  // MGMT reaches the chips' mailboxes in the RTL
    }
    void link_state(int n, int port, bool up) override { (void)n, (void)port, (void)up; }
    void node_state(int n, bool up, uint64_t now) override;
    bool settled() const override;
    uint16_t installed_digest(int n) const override;
    uint64_t last_install_time() const override;
    int reg_read(int n, uint32_t addr, uint32_t *v) override;
    int reg_write(int n, uint32_t addr, uint32_t v, bool host) override;
    void report(FILE *f, bool per_node) const override;
    const std::deque<std::string> &log(int n) const override;
    bool node_up(int n) const override;
    const kolo_route_entry *active_table(int n, uint16_t *epoch) const override;
    void set_router(int n, uint8_t port_down, uint32_t fault_drops) override { (void)n, (void)port_down, (void)fault_drops; }
    const SvcStats &stats() const override;
    bool firmware_errors(std::string *why) const override;

  private:
    ChipCluster *c_;
};

// What the core sees of each chip's service processor, from its bus writes.
struct SpView {
    std::vector<uint32_t> shadow, active;
    uint16_t epoch = 0;
    unsigned stage = 0;
    uint16_t digest = 0;
    uint64_t installs = 0, last_install = 0, last_write = 0, stage_since = 0;
    std::deque<std::string> console;  // lines the firmware printed
    std::string line;
};

class ChipCluster : public Cluster {
  public:
    explicit ChipCluster(ClusterHost *host) : host_(host), topo_{{KOLO_DIM_X, KOLO_DIM_Y, KOLO_DIM_Z}} {
        kolo_chip::SimConfig c;
        c.dim[0] = KOLO_DIM_X;
        c.dim[1] = KOLO_DIM_Y;
        c.dim[2] = KOLO_DIM_Z;
        c.data_w = KOLO_CHIP_GT_W;
        c.external_sp = KOLO_CHIP_NATIVE_FW != 0;
        c.seed = 0x5eed;
        sim_.reset(new kolo_chip::ChipSim(c));
        node_.resize(kNodes);
        sp_.resize(kNodes);
        link_.resize(static_cast<size_t>(kNodes) * 6);
        for (int n = 0; n < kNodes; n++) {
            sp_[n].shadow.assign(kNodes, 0);
            sp_[n].active.assign(kNodes, 0);
            kolo::KoloPcieRc &rc = sim_->rc(static_cast<unsigned>(n));
            rc.set_memory_checked(
                [this, n](uint64_t a, uint8_t *p, size_t len) { return host_->host_mem(n, a, p, len, false) == 0; },
                [this, n](uint64_t a, const uint8_t *p, size_t len) {
                    bool ok = true;  // ascending, one aligned 8-byte word at a time (as ni_rtl.cpp)
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
            if (KOLO_CHIP_NATIVE_FW)
                fw_.emplace_back(new NativeFw(this, static_cast<unsigned>(n), topo_));
        }
        sim_->on_console = [this](unsigned n, uint8_t b) { console_byte(n, b); };
        // chips out of reset; lanes ready; PCIe up
        for (int n = 0; n < kNodes; n++) {
            sim_->set_rst(static_cast<unsigned>(n), true);
            sim_->set_pcie_rst(static_cast<unsigned>(n), true);
        }
        for (int i = 0; i < 8; i++)
            tick();
        for (int n = 0; n < kNodes; n++) {
            unsigned un = static_cast<unsigned>(n);
            sim_->set_rst(un, false);
            sim_->set_pcie_rst(un, false);
            for (unsigned p = 0; p < 6; p++) {
                sim_->set_lane_tx_rst(un, p, false);
                sim_->set_lane_rx_rst(un, p, false);
            }
        }
    }
    ~ChipCluster() override { trace_end(); }

    const char *name() const override { return "chip (kolo_chip RTL)"; }
    SvcProcs *service(SvcHost *) override { return new ChipSvc(this); }
    bool routes_itself() const override { return true; }

    bool mmio_ready(int n) override { return sim_->rc(static_cast<unsigned>(n)).host_queued() < kHostQueue; }
    void mmio_write(int n, int bar, uint32_t off, const void *data, unsigned len) override {
        kolo::KoloPcieRc &rc = sim_->rc(static_cast<unsigned>(n));
        uint64_t a = (bar == 2 ? kolo_chip::ChipSim::kBar2 : kolo_chip::ChipSim::kBar0) + off;
        const uint8_t *p = static_cast<const uint8_t *>(data);
        while (len) {  // one MWr never crosses 4 KB
            unsigned chunk = static_cast<unsigned>(4096 - (a & 4095));
            if (chunk > len)
                chunk = len;
            rc.host_write(a, p, chunk);
            a += chunk;
            p += chunk;
            len -= chunk;
        }
        node_[static_cast<size_t>(n)].host_writes++;
        last_move_ = cycle_;
    }
    void mmio_read(int n, int bar, uint32_t off, unsigned len, uint64_t token) override {
        NodeState &s = node_[static_cast<size_t>(n)];
        uint64_t a = (bar == 2 ? kolo_chip::ChipSim::kBar2 : kolo_chip::ChipSim::kBar0) + off;
        s.reads.push_back(PendingRead{sim_->rc(static_cast<unsigned>(n)).host_read(a, len), token});
        s.host_reads++;
        last_move_ = cycle_;
    }

    bool step(uint64_t now) override {
        // the simulator skips cycles while everything is idle (none of the chips is
        // stepped then): keep the chips' times (installs, link changes, losses, the
        // console) on the simulator's clock, where its faults are. On the count of
        // stepped cycles, a fault that came after a skip was later than the tables
        // installed for it, and never settled. Every interval measured here (quiet,
        // news, busy) is one in which the chips were stepped, skipping being allowed
        // only once they have all run out.
        if (now > cycle_)
            cycle_ = now;
        if (lane_news_) {  // a fault came while the chips were idle: from now, kLaneNews
            last_link_change_ = cycle_;
            lane_news_ = false;
        }
        moved_ = false;
        tick();
        for (int n = 0; n < kNodes; n++) {
            NodeState &s = node_[static_cast<size_t>(n)];
            kolo::KoloPcieRc &rc = sim_->rc(static_cast<unsigned>(n));
            if (rc.violations().size() > s.violations_seen) {
                s.violations_seen = rc.violations().size();
                host_->cluster_error("PCIe rule broken by the chip of node index " + std::to_string(n) + ": " +
                                     rc.violations().back());
            }
            while (!s.reads.empty()) {
                const kolo::KoloPcieRc::HostResult &r = rc.host_result(s.reads.front().handle);
                if (!r.done)
                    break;
                uint64_t v = 0;
                bool err = r.status != kolo::kCplSC;
                if (!err)
                    for (size_t i = 0; i < r.data.size() && i < 2; i++)
                        v |= static_cast<uint64_t>(r.data[i]) << (32 * i);
                host_->mmio_read_done(n, s.reads.front().token, err ? ~0ull : v, err);
                s.reads.erase(s.reads.begin());
                moved_ = true;
            }
        }
        if ((cycle_ & 4095) == 0)
            check_counters();
        if (!trace_path_.empty() && cycle_ >= trace_from_ && cycle_ < trace_to_)
            trace_sample();
        else if (vcd_.is_open() && cycle_ >= trace_to_)
            trace_end();
        // the cores' work is progress (the simulator's watchdog of a network where
        // nothing moves must not fire while they compute), within kSpBusyLimit
        if (!KOLO_CHIP_NATIVE_FW && !moved_)
            for (int n = 0; n < kNodes && !moved_; n++)
                if (node_[static_cast<size_t>(n)].up && sp_working(n)) {
                    moved_ = true;
                    SpView &v = sp_[static_cast<size_t>(n)];
                    if (v.stage != KOLO_FW_RUNNING && cycle_ - v.stage_since > kSpBusyLimit &&
                        !(reported_ & (1ull << n))) {
                        reported_ |= 1ull << n;
                        host_->cluster_error("the service processor of node index " + std::to_string(n) +
                                             " has shown stage " + std::to_string(v.stage) + " for " +
                                             std::to_string(kSpBusyLimit) + " cycles");
                    }
                }
        if (moved_ || !rcs_idle())
            last_move_ = cycle_;
        return moved_;
    }

    // the chips' own cores (kolo-sim-chip-sp-*) work silently for long: hundreds of
    // thousands of cycles on a table set, after a settle period of 16384 cycles; a
    // paused chip would never finish. They are working while one shows a stage other
    // than RUNNING and for kSpNews cycles after any link changed (the news reaches
    // them, they settle). The native firmware computes between two cycles.
    bool sp_working(int n) const {
        return !KOLO_CHIP_NATIVE_FW &&
               (sp_[static_cast<size_t>(n)].stage != KOLO_FW_RUNNING || cycle_ - last_link_change_ < kSpNews);
    }

    // tags the live chips' NIs hold (ni_free_tags of kolo_rtl_bits.h): a request whose packet or response
    // was lost waits in its NI for the end-to-end timeout, which the oracle cannot
    // see when the target answered; the simulator does not skip cycles then (the
    // chips' timers run only while they are stepped: skipped, such an NI waited
    // forever and its PE hung; test sim-chip-2x2x1, a node dying while idle)
    unsigned tags_taken() const override {
        unsigned taken = 0;
        for (int n = 0; n < kNodes; n++)
            if (node_[static_cast<size_t>(n)].up)
                taken += KOLO_NI_NUM_TAGS - ni_free_tags(sim_->top().stat_ni_dbg, static_cast<unsigned>(n));
        return taken;
    }

    bool idle() const override {
        if (in_net_ || cycle_ - last_move_ < kQuietCycles || !rcs_idle())
            return false;
        // lanes were cut or restored, or a chip failed: the links must be stepped to
        // notice (lose block lock and retrain, or train); idle, a link cut with no
        // traffic on it stayed up for ever and a node that died unnoticed until
        // traffic came (test sim-chip-2x2x1, a node dying while the PEs sleep)
        if (lane_news_ || cycle_ - last_link_change_ < kLaneNews)
            return false;
        for (int n = 0; n < kNodes; n++) {  // links still training, firmware busy: keep ticking
            if (!node_[static_cast<size_t>(n)].up)
                continue;
            for (unsigned p = 0; p < 6; p++)
                if (sim_->port_built(p) && sim_->link_state(static_cast<unsigned>(n), p) == 1)
                    return false;
            if (cycle_ - sp_[static_cast<size_t>(n)].last_write < kFwQuiet)
                return false;
            if (sp_working(n))
                return false;
        }
        // a firmware not started yet keeps the chips ticking; a dead chip's never starts
        for (size_t n = 0; n < fw_.size(); n++)
            if (fw_[n] && node_[n].up && !fw_[n]->started())
                return false;
        return true;
    }

    void dump(FILE *f) const override {
        std::fprintf(f, "chips (%s): %" PRIu64 " flits between the NIs, %" PRIu64 " cycles, last activity at %" PRIu64
                        "\n", KOLO_TORUS_NAME, in_net_, cycle_, last_move_);
        for (int n = 0; n < kNodes; n++) {
            unsigned un = static_cast<unsigned>(n);
            const NodeState &s = node_[static_cast<size_t>(n)];
            std::fprintf(f, "  node index %d%s: root complex %s, %zu reads waiting; links", n, s.up ? "" : " (DOWN)",
                         const_cast<ChipCluster *>(this)->sim_->rc(un).idle() ? "idle" : "busy", s.reads.size());
            static const char *const kState[4] = {"down", "training", "up", "?"};
            for (unsigned p = 0; p < 6; p++)
                if (sim_->port_built(p))
                    std::fprintf(f, " %u:%s", p, kState[sim_->link_state(un, p) & 3]);
            const SpView &v = sp_[static_cast<size_t>(n)];
            std::fprintf(f, "; firmware stage %u epoch %u digest %#06x, %" PRIu64 " tables\n", v.stage, v.epoch,
                         v.digest, v.installs);
            uint64_t errs = sim_->router_errors(un);
            if (errs)
                std::fprintf(f, "    router stat_errors %#" PRIx64 "\n", errs);
        }
    }

    uint64_t flits_injected() const override { return flits_; }

    void ni_stats(int n, uint64_t out[6]) const override {
        for (unsigned i = 0; i < 6; i++)
            out[i] = sig_get(sim_->top().stat_ni, static_cast<unsigned>(n) * 384 + 64 * i, 64);
    }

    std::string pcie_report(int n) const override {
        const NodeState &s = node_[static_cast<size_t>(n)];
        unsigned un = static_cast<unsigned>(n);
        kolo::KoloPcieRc &rc = sim_->rc(un);
        auto ep = [&](unsigned i) { return sig_get(sim_->top().stat_pcie, un * 80 + 16 * i, 16); };
        char b[768];
        std::snprintf(b, sizeof b,
                      "host wr %" PRIu64 " rd %" PRIu64 "; device MRd %" PRIu64 " MWr %" PRIu64 " (%" PRIu64
                      " B) MSI %zu; host memory errors %" PRIu64 "; EP ur %" PRIu64 " ca %" PRIu64
                      " cpl_timeout %" PRIu64 " cpl_err %" PRIu64 " bad_tlp %" PRIu64
                      "; completions %" PRIu64 " (%s%" PRIu64 " on rx_cpl), most buffered %u headers %u credits"
                      ", np credits %" PRIu64 "; TLP violations %zu",
                      s.host_writes, s.host_reads, rc.dev_reads(), rc.dev_writes(), rc.dev_bytes_written(),
                      rc.msis().size(), rc.mem_errors(), ep(0), ep(1), ep(2), ep(3), ep(4), rc.cpls_sent(),
                      sim_->cpl_stream(un) ? "" : "merged, ", sim_->cpl_stream_tlps(un), rc.max_cpl_space().first,
                      rc.max_cpl_space().second, rc.np_credits_given(), rc.violations().size());
        return b;
    }

    void set_fault(int kind, uint64_t n) override {
        fault_ = kind;
        fault_n_ = n;
        if (kind == KOLO_FAULT_SVCBUS)
            for (size_t i = 1; i < fw_.size(); i++)
                fw_[i]->set_addr_fault(true);
    }

    void set_link(int n, int port, bool up) override {
        sim_->cut(static_cast<unsigned>(n), static_cast<unsigned>(port), !up);
        lane_news_ = true;
    }
    uint64_t fault_drops() const override { return drops_; }
    bool link_in_use(int n, int port) const override {
        unsigned a = static_cast<unsigned>(n) * 6 + static_cast<unsigned>(port), b = other_end(n, port);
        return link_[a].last_flit + 4 >= cycle_ || link_[b].last_flit + 4 >= cycle_;
    }
    bool rtl_trace(const std::string &path, uint64_t from, uint64_t to, unsigned ps_per_cycle,
                   std::string *err) override {
        if (path.size() < 5 || path.compare(path.size() - 4, 4, ".fst")) {
            *err = "--rtl-trace=" + path + ": the file must end in .fst";
            return false;
        }
        trace_path_ = path;
        trace_from_ = from;
        trace_to_ = to;
        trace_ps_ = ps_per_cycle;
        return true;
    }
    bool mgmt_ready(int) const override { return false; }  // MGMT comes from the chips themselves
    void mgmt_send(int n, const kolo_pkt &) override {
        host_->cluster_error("the core sent MGMT for node index " + std::to_string(n) + " (chips send their own)");
    }
    void e2e_stats(int n, uint64_t out[5]) const override {
        for (unsigned i = 0; i < 5; i++)
            out[i] = node_[static_cast<size_t>(n)].e2e[i];
    }

    // ---- for ChipSvc / NativeFw ----
    kolo_chip::ChipSim &chip_sim() { return *sim_; }
    const kolo_topo &topo() const { return topo_; }
    uint64_t cycle() const { return cycle_; }
    const SpView &sp(int n) const { return sp_[static_cast<size_t>(n)]; }
    NativeFw *native(int n) const { return fw_.empty() ? nullptr : fw_[static_cast<size_t>(n)].get(); }
    bool chip_up(int n) const { return node_[static_cast<size_t>(n)].up; }
    SvcStats &svc_stats() { return svc_stats_; }
    // where the lost packets were lost, and the links' own counts beside them
    std::string loss_report() const {
        uint64_t counted = 0, lost_links = 0;
        for (int n = 0; n < kNodes; n++)
            for (unsigned p = 0; p < 6; p++)
                if (sim_->port_built(p)) {
                    counted += sim_->link_counter(static_cast<unsigned>(n), p, 11);
                    lost_links += link_[static_cast<size_t>(n) * 6 + p].lost;
                }
        char b[256];
        std::snprintf(b, sizeof b,
                      "%" PRIu64 " by routers at down ports, %" PRIu64 " on links that went down (the links "
                      "counted %" PRIu64 " dropped frames), %" PRIu64 " inside failed chips",
                      lost_[kLostRouter], lost_links, counted, lost_[kLostChip]);
        return b;
    }
    // node n fails (its chip is held in reset, its lanes are cut) or comes back (reboots)
    void set_chip(int n, bool up) {
        NodeState &s = node_[static_cast<size_t>(n)];
        if (s.up == up)
            return;
        s.up = up;
        lane_news_ = true;  // (the next step marks the link change, on the simulator's clock)
        unsigned un = static_cast<unsigned>(n);
        for (unsigned p = 0; p < 6; p++)
            if (sim_->port_built(p))
                sim_->cut(un, p, !up);
        sim_->set_rst(un, !up);
        if (!up) {
            // everything inside the chip is lost at once, what it had sent on
            // its links once they have settled
            for (const kolo_pkt &p : s.inside.take_older(~0ull))
                lose(n, 6, p, kLostChip);
            for (unsigned p = 0; p < 6; p++)
                link_[un * 6 + p].down_at = cycle_;
            s.inj.clear();
            s.ej.clear();
            for (unsigned p = 0; p < 6; p++) {
                s.out[p].clear();
                s.in[p].clear();
                s.sunk[p].clear();
            }
            if (native(n))
                native(n)->stop();
            SpView &v = sp_[static_cast<size_t>(n)];
            v.stage = 0;
        } else {
            SpView &v = sp_[static_cast<size_t>(n)];
            v.shadow.assign(kNodes, 0);
            v.last_write = cycle_;
        }
    }

  private:
    struct NodeState {
        std::vector<PendingRead> reads;
        Assembler inj, ej;
        Assembler out[6], in[6], sunk[6];
        InFlight inside{true};  // packets in the chip now (for a failure)
        uint64_t e2e[5] = {0, 0, 0, 0, 0};
        size_t violations_seen = 0;
        uint64_t host_writes = 0, host_reads = 0;
        uint64_t sunk_pkts = 0;  // packets its router dropped at down ports (monitor)
        uint32_t router_drops0 = 0;
        bool up = true;
    };
    struct LinkEnd {  // the direction leaving node n through port p (index n*6+p)
        InFlight flying;
        uint64_t last_flit = 0;
        uint64_t down_at = 0;  // cycle the sending end was last seen going down (0: up)
        unsigned state_q = 1;
        uint64_t lost = 0;     // packets lost on this direction
        uint32_t link_dropped0 = 0;
    };

    static unsigned other_end(int n, int port) {
        static const kolo_topo t = {{KOLO_DIM_X, KOLO_DIM_Y, KOLO_DIM_Z}};
        return link_other_end(t, n, port);
    }

    // one core cycle of every chip (all clocks alike: two edge times)
    void tick() {
        kolo_chip::ChipSim &s = *sim_;
        const uint64_t c0 = s.core_cycles(0);
        while (s.core_cycles(0) == c0)
            s.step();
        cycle_++;
        sample();
        // the falling edge
        s.step();
        for (size_t n = 0; n < fw_.size(); n++)
            if (node_[n].up && s.ready(static_cast<unsigned>(n)))
                fw_[n]->poll(cycle_, sig_get(s.top().s_irq, static_cast<unsigned>(n), 1) != 0);
    }

    // the monitors of every chip, sampled after the rising edge: each value is
    // seen once, in the cycle whose edge moves it
    void sample() {
        Vkolo_sim_chips &t = sim_->top();
        for (int n = 0; n < kNodes; n++) {
            unsigned un = static_cast<unsigned>(n);
            NodeState &s = node_[static_cast<size_t>(n)];
            uint64_t inc = sig_get(t.stat_e2e_inc, un * 5, 5);
            for (unsigned i = 0; inc && i < 5; i++)
                s.e2e[i] += (inc >> i) & 1;
            if (sig_get(t.mon_svc_wr, un, 1))
                svc_write(n, static_cast<uint32_t>(sig_get(t.mon_svc_wr_addr, un * 15, 15)),
                          static_cast<uint32_t>(sig_get(t.mon_svc_wr_data, un * 32, 32)));
            if (!s.up)
                continue;
            if (sig_get(t.mon_inj_valid, un, 1))
                local_flit(n, flit_get(t.mon_inj_flit, un), true);
            if (sig_get(t.mon_ej_valid, un, 1))
                local_flit(n, flit_get(t.mon_ej_flit, un), false);
            for (unsigned p = 0; p < 6; p++) {
                unsigned slot = un * 6 + p;
                if (sig_get(t.mon_out_valid, slot, 1))
                    out_flit(n, p, flit_get(t.mon_out_flit, slot));
                if (sig_get(t.mon_out_sunk, slot, 1))
                    sunk_flit(n, p, flit_get(t.mon_out_flit, slot));
                if (sig_get(t.mon_in_valid, slot, 1))
                    in_flit(n, p, flit_get(t.mon_in_flit, slot));
            }
        }
        // links: a sending end that went down loses what it had not delivered
        for (int n = 0; n < kNodes; n++)
            for (unsigned p = 0; p < 6; p++) {
                if (!sim_->port_built(p))
                    continue;
                LinkEnd &l = link_[static_cast<size_t>(n) * 6 + p];
                unsigned st = node_[static_cast<size_t>(n)].up ? sim_->link_state(static_cast<unsigned>(n), p) : 0;
                if (st != l.state_q)
                    last_link_change_ = cycle_;
                if (st == 0 && l.state_q != 0 && !l.down_at)
                    l.down_at = cycle_;
                if (st == 2)
                    l.down_at = 0;
                l.state_q = st;
                if (l.down_at && cycle_ >= l.down_at + kLostSettle && l.flying.size())
                    for (const kolo_pkt &pk : l.flying.take_older(l.down_at + 1)) {
                        l.lost++;
                        lose(n, static_cast<int>(p), pk, kLostLink);
                    }
            }
    }

    void local_flit(int n, const Flit &f, bool inj) {
        NodeState &s = node_[static_cast<size_t>(n)];
        moved_ = true;
        if (inj)
            flits_++;
        kolo_pkt p;
        std::string err;
        if (!(inj ? s.inj : s.ej).take(f, p, &err)) {
            if (!err.empty())
                host_->cluster_error("node index " + std::to_string(n) + ": " + (inj ? "NI injected " : "router ejected ") + err);
            return;
        }
        if ((p.vnet * 2u + (p.ordered ? 0u : 1u)) != (f.vc & 3) && inj)
            host_->cluster_error("NI of node index " + std::to_string(n) + " injected a packet on vc " +
                                 std::to_string(f.vc & 3) + " that its header puts on vnet " + std::to_string(p.vnet));
        if (inj) {
            in_net_++;
            s.inside.add(p, cycle_);
            host_->packet_injected(n, p);
            return;
        }
        if (!s.inside.remove(p))
            host_->cluster_error("node index " + std::to_string(n) + " ejected a packet that never entered it");
        if (in_net_ == 0)
            host_->cluster_error("router of node index " + std::to_string(n) + " ejected a packet while none was in the network");
        else
            in_net_--;
        if ((fault_ == KOLO_FAULT_CORRUPT || fault_ == KOLO_FAULT_DROP || fault_ == KOLO_FAULT_DUP) &&
            ++fault_count_ == fault_n_) {
            if (fault_ == KOLO_FAULT_DROP)
                return;
            if (fault_ == KOLO_FAULT_DUP)
                host_->packet_ejected(n, p);
            if (fault_ == KOLO_FAULT_CORRUPT) {
                if (p.len)
                    p.payload[p.len - 1] ^= 1ull << 17;
                else
                    p.header[1] ^= 1ull << 50;
            }
        }
        host_->packet_ejected(n, p);
    }

    void out_flit(int n, unsigned port, const Flit &f) {  // router n -> its link through port
        NodeState &s = node_[static_cast<size_t>(n)];
        LinkEnd &l = link_[static_cast<size_t>(n) * 6 + port];
        l.last_flit = cycle_;
        moved_ = true;
        kolo_pkt p;
        std::string err;
        if (!s.out[port].take(f, p, &err)) {
            if (!err.empty())
                host_->cluster_error("router " + std::to_string(n) + " port " + std::to_string(port) + " sent " + err);
            return;
        }
        if (!s.inside.remove(p))
            host_->cluster_error("router " + std::to_string(n) + " sent a packet that never entered it");
        l.flying.add(p, cycle_);
    }

    void in_flit(int n, unsigned port, const Flit &f) {  // a link -> router n through port
        NodeState &s = node_[static_cast<size_t>(n)];
        moved_ = true;
        kolo_pkt p;
        std::string err;
        if (!s.in[port].take(f, p, &err)) {
            if (!err.empty())
                host_->cluster_error("link into router " + std::to_string(n) + " port " + std::to_string(port) +
                                     " delivered " + err);
            return;
        }
        // it was sent by whichever chip the lanes of this port come from
        int src = sim_->rx_src(static_cast<unsigned>(n), port);
        if (src < 0 || !link_[static_cast<size_t>(src)].flying.remove(p)) {
            host_->cluster_error("link into router " + std::to_string(n) + " port " + std::to_string(port) +
                                 " delivered a packet nobody sent on it (duplicated or corrupted): header " +
                                 strf_hex(p.header[0]) + " " + strf_hex(p.header[1]));
            return;
        }
        s.inside.add(p, cycle_);
    }

    void sunk_flit(int n, unsigned port, const Flit &f) {  // dropped whole by router n at its down port
        NodeState &s = node_[static_cast<size_t>(n)];
        moved_ = true;
        kolo_pkt p;
        std::string err;
        if (!s.sunk[port].take(f, p, &err)) {
            if (!err.empty())
                host_->cluster_error("router " + std::to_string(n) + " port " + std::to_string(port) + " dropped " + err);
            return;
        }
        s.sunk_pkts++;
        if (!s.inside.remove(p))
            host_->cluster_error("router " + std::to_string(n) + " dropped a packet that never entered it");
        lose(n, static_cast<int>(port), p, kLostRouter);
    }

    // a packet the network lost: its flits leave the count, the core forgets it
    enum Loss { kLostRouter, kLostLink, kLostChip };
    void lose(int n, int port, const kolo_pkt &p, Loss why) {
        if (in_net_ == 0)
            host_->cluster_error("more packets lost than in the network");
        else
            in_net_--;
        drops_++;
        lost_[why]++;
        host_->packet_dropped(n, port, p);
    }

    // the service processor of chip n wrote addr (as the service block took it)
    void svc_write(int n, uint32_t addr, uint32_t v) {
        SpView &s = sp_[static_cast<size_t>(n)];
        s.last_write = cycle_;
        if (addr >= KOLO_SVC_RT_SHADOW_ENTRY(0) && addr < KOLO_SVC_RT_SHADOW_ENTRY(kNodes)) {
            s.shadow[(addr - KOLO_SVC_RT_SHADOW_ENTRY(0)) / 4] = v;
        } else if (addr == KOLO_SVC_RT_EPOCH) {
            s.active = s.shadow;  // the switch; the new shadow starts as a copy of it
            s.epoch = static_cast<uint16_t>(v & KOLO_SVC_RT_EPOCH_EPOCH_MASK);
            s.installs++;
            s.last_install = cycle_;
            svc_stats_.installs++;
        } else if (addr == KOLO_SVC_SYS_FW_STATE) {
            if ((v & KOLO_SVC_SYS_FW_STATE_STAGE_MASK) != s.stage)
                s.stage_since = cycle_;
            s.stage = v & KOLO_SVC_SYS_FW_STATE_STAGE_MASK;
            s.digest = static_cast<uint16_t>(v >> KOLO_SVC_SYS_FW_STATE_FAULT_GEN_SHIFT);
        }
    }

    void console_byte(unsigned n, uint8_t b) {
        SpView &s = sp_[n];
        if (b == '\n') {
            s.console.push_back("[cycle " + std::to_string(cycle_) + "] " + s.line);
            if (s.console.size() > 64)
                s.console.pop_front();
            s.line.clear();
        } else if (b != '\r' && s.line.size() < 200) {
            s.line.push_back(static_cast<char>(b));
        }
    }

    // every 4096 cycles: the routers' drop counters against the monitors
    void check_counters() {
        for (int n = 0; n < kNodes; n++) {
            NodeState &s = node_[static_cast<size_t>(n)];
            unsigned un = static_cast<unsigned>(n);
            uint64_t errs = sim_->router_errors(un);
            if (errs && !(reported_ & (1ull << n))) {
                reported_ |= 1ull << n;
                host_->cluster_error("router " + std::to_string(n) + " reports errors (stat_errors " + strf_hex(errs) + ")");
            }
            if (!s.up)
                continue;
            uint32_t d = sim_->router_fault_drops(un) - s.router_drops0;
            if (d != s.sunk_pkts && !(reported_ & (1ull << n)))
                host_->cluster_error("router " + std::to_string(n) + " counted " + std::to_string(d) +
                                     " packets dropped at down ports, the monitors saw " + std::to_string(s.sunk_pkts));
        }
    }

    // ---- --rtl-trace -----------------------------------------------------------------------
    struct TraceSigs {
        int ready, stage, epoch, drops;
        int port[6][21];
    };
    void trace_sample() {
        Vkolo_sim_chips &t = sim_->top();
        static const char *const kPort[6] = {"xp", "xm", "yp", "ym", "zp", "zm"};
        static const unsigned kCounters[7] = {0, 5, 6, 7, 8, 11, 13};
        static const char *const kCounterNames[7] = {"crc_errors", "retrains", "lock_losses", "frames_tx",
                                                     "frames_rx", "pkts_dropped", "link_downs"};
        if (!vcd_.is_open()) {
            tsig_.resize(kNodes);
            for (int n = 0; n < kNodes; n++) {
                uint16_t id = kolo_node_id_of_index(&topo_, static_cast<unsigned>(n));
                char sc[40];
                std::snprintf(sc, sizeof sc, "chip_%u_%u_%u", id & 15u, (id >> 4) & 15u, (id >> 8) & 15u);
                TraceSigs &g = tsig_[static_cast<size_t>(n)];
                g.ready = vcd_.add(sc, "ready", 1);
                g.stage = vcd_.add(sc, "fw_stage", 4);
                g.epoch = vcd_.add(sc, "table_epoch", 16);
                g.drops = vcd_.add(sc, "router_fault_drops", 32);
                for (unsigned p = 0; p < 6; p++) {
                    if (!sim_->port_built(p))
                        continue;
                    std::string ps = std::string(sc) + "_" + kPort[p];
                    int *q = g.port[p];
                    q[0] = vcd_.add(ps, "link_state", 2);
                    q[1] = vcd_.add(ps, "lane_reset", 1);
                    for (int i = 0; i < 7; i++)
                        q[2 + i] = vcd_.add(ps, kCounterNames[i], 32);
                    q[9] = vcd_.add(ps, "router_out_valid", 1);
                    q[10] = vcd_.add(ps, "router_out_sunk", 1);
                    q[11] = vcd_.add(ps, "router_in_valid", 1);
                    q[12] = vcd_.add(ps, "tx_sequence", 7);
                    q[13] = vcd_.add(ps, "tx_header", 2);
                    q[14] = vcd_.add(ps, "tx_data", KOLO_CHIP_GT_W);
                    q[15] = vcd_.add(ps, "rx_data_valid", 1);
                    q[16] = vcd_.add(ps, "rx_header_valid", 1);
                    q[17] = vcd_.add(ps, "rx_header", 2);
                    q[18] = vcd_.add(ps, "rx_data", KOLO_CHIP_GT_W);
                    q[19] = vcd_.add(ps, "rx_slip", 1);
                    q[20] = vcd_.add(ps, "lanes_cut", 1);
                }
            }
            std::string err;
            if (!vcd_.open(trace_path_ + ".vcd", trace_ps_, &err)) {
                host_->cluster_error(err);
                trace_path_.clear();
                return;
            }
        }
        for (int n = 0; n < kNodes; n++) {
            unsigned un = static_cast<unsigned>(n);
            const TraceSigs &g = tsig_[static_cast<size_t>(n)];
            vcd_.set(g.ready, sim_->ready(un));
            vcd_.set(g.stage, sp_[static_cast<size_t>(n)].stage);
            vcd_.set(g.epoch, sp_[static_cast<size_t>(n)].epoch);
            vcd_.set(g.drops, sim_->router_fault_drops(un));
            for (unsigned p = 0; p < 6; p++) {
                if (!sim_->port_built(p))
                    continue;
                const int *q = g.port[p];
                unsigned slot = un * 6 + p, lane = slot * 1;  // lane 0 of the port (1 lane per port here)
                vcd_.set(q[0], sim_->link_state(un, p));
                vcd_.set(q[1], sig_get(t.stat_lane_reset, slot, 1));
                for (int i = 0; i < 7; i++)
                    vcd_.set(q[2 + i], sim_->link_counter(un, p, kCounters[i]));
                vcd_.set(q[9], sig_get(t.mon_out_valid, slot, 1));
                vcd_.set(q[10], sig_get(t.mon_out_sunk, slot, 1));
                vcd_.set(q[11], sig_get(t.mon_in_valid, slot, 1));
                vcd_.set(q[12], sig_get(t.lane_tx_sequence, slot * 7, 7));
                vcd_.set(q[13], sig_get(t.lane_tx_header, lane * 2, 2));
                vcd_.set(q[14], sig_get(t.lane_tx_data, lane * KOLO_CHIP_GT_W, KOLO_CHIP_GT_W));
                vcd_.set(q[15], sig_get(t.lane_rx_data_valid, lane, 1));
                vcd_.set(q[16], sig_get(t.lane_rx_header_valid, lane, 1));
                vcd_.set(q[17], sig_get(t.lane_rx_header, lane * 2, 2));
                vcd_.set(q[18], sig_get(t.lane_rx_data, lane * KOLO_CHIP_GT_W, KOLO_CHIP_GT_W));
                vcd_.set(q[19], sig_get(t.lane_rx_slip, lane, 1));
                vcd_.set(q[20], sim_->dir(un, p, 0).lane().dead_at(sim_->dir(un, p, 0).lane().now()));
            }
        }
        vcd_.commit(cycle_);
    }
    void trace_end() {
        if (!vcd_.is_open())
            return;
        vcd_.close();
        std::string vcd = trace_path_ + ".vcd";
        std::string cmd = "vcd2fst '" + vcd + "' '" + trace_path_ + "' > /dev/null 2>&1 && rm -f '" + vcd + "'";
        if (std::system(cmd.c_str()) != 0)
            std::fprintf(stderr, "kolo-sim: vcd2fst could not turn %s into %s\n", vcd.c_str(), trace_path_.c_str());
        trace_path_.clear();
    }

    bool rcs_idle() const {
        for (int n = 0; n < kNodes; n++)
            if (!sim_->rc(static_cast<unsigned>(n)).idle() || !node_[static_cast<size_t>(n)].reads.empty())
                return false;
        return true;
    }

    static std::string strf_hex(uint64_t v) {
        char b[24];
        std::snprintf(b, sizeof b, "%#" PRIx64, v);
        return b;
    }

    ClusterHost *host_;
    kolo_topo topo_;
    std::unique_ptr<kolo_chip::ChipSim> sim_;
    std::vector<NodeState> node_;
    std::vector<LinkEnd> link_;
    std::vector<SpView> sp_;
    std::vector<std::unique_ptr<NativeFw>> fw_;
    SvcStats svc_stats_;
    uint64_t last_link_change_ = 0;
    bool lane_news_ = false;  // set_link or set_chip since the last step
    uint64_t cycle_ = 0, last_move_ = 0, in_net_ = 0, flits_ = 0, drops_ = 0, reported_ = 0;
    uint64_t lost_[3] = {0, 0, 0};
    bool moved_ = false;
    int fault_ = KOLO_FAULT_NONE;
    uint64_t fault_n_ = 0, fault_count_ = 0;
    std::string trace_path_;
    uint64_t trace_from_ = 0, trace_to_ = 0;
    unsigned trace_ps_ = 4000;
    VcdTrace vcd_;
    std::vector<TraceSigs> tsig_;
};

// ---- NativeFw ------------------------------------------------------------------------------
NativeFw::NativeFw(ChipCluster *c, unsigned n, const kolo_topo &t) : c_(c), n_(n), topo_(t) {
    ws_.resize(kolo_fw_workspace_size(&topo_));
    set_.resize(kolo_fw_set_entries(&topo_));
    stack_.resize(1 << 20);
    hal_.svc = nullptr;
    hal_.node = static_cast<int>(n);
    hal_.m = nullptr;
    hal_.bus = this;
}

void NativeFw::entry(unsigned lo, unsigned hi) {
    NativeFw *self = reinterpret_cast<NativeFw *>(static_cast<uintptr_t>(lo) | (static_cast<uintptr_t>(hi) << 32));
    self->body();
    self->running_ = false;
    swapcontext(&self->ctx_, &self->caller_);
}

void NativeFw::body() {
    if (!inited_) {
        kolo_fw_config cfg;
        kolo_fw_default_config(&cfg);
        cfg.verbose = 1;
        boot_ = now_;
        inited_ = true;
        kolo_fw_init(&fw_, &hal_, &cfg, ws_.data(), ws_.size(), set_.empty() ? nullptr : set_.data(), set_.size());
        return;
    }
    kolo_fw_step(&fw_);
}

void NativeFw::poll(uint64_t now, bool irq) {
    now_ = now;
    if (running_) {
        if (!op_ || !op_->done)
            return;
        swapcontext(&caller_, &ctx_);  // resume: runs to the next access or the end of the step
        return;
    }
    if (inited_ && !irq && kolo_fw_deadline(&fw_) > time())
        return;
    getcontext(&ctx_);
    ctx_.uc_stack.ss_sp = stack_.data();
    ctx_.uc_stack.ss_size = stack_.size();
    ctx_.uc_link = nullptr;
    uintptr_t p = reinterpret_cast<uintptr_t>(this);
    makecontext(&ctx_, reinterpret_cast<void (*)()>(&NativeFw::entry), 2, static_cast<unsigned>(p),
                static_cast<unsigned>(p >> 32));
    running_ = true;
    swapcontext(&caller_, &ctx_);
}

void NativeFw::stop() {
    running_ = false;  // the suspended step is abandoned with its stack
    inited_ = false;
    op_.reset();
}

void NativeFw::access(bool write, uint32_t addr, uint32_t value) {
    op_ = c_->chip_sim().bus(n_, write, addr_fault_ ? 0u : addr, value);
    swapcontext(&ctx_, &caller_);  // back to the simulator until the access is done
    if (op_->resp) {
        errors_++;
        char b[96];
        std::snprintf(b, sizeof b, "bus error %u on %s of 0x%04x", op_->resp, write ? "a write" : "a read", addr);
        log(b);
    }
}
uint32_t NativeFw::read32(uint32_t addr) {
    access(false, addr, 0);
    return op_->rdata;
}
void NativeFw::write32(uint32_t addr, uint32_t value) { access(true, addr, value); }
void NativeFw::log(const char *line) {
    lines.push_back("[cycle " + std::to_string(now_) + "] " + line);
    if (lines.size() > 64)
        lines.pop_front();
}

// ---- ChipSvc ---------------------------------------------------------------------------------
void ChipSvc::node_state(int n, bool up, uint64_t now) {
    (void)now;
    c_->set_chip(n, up);
}

bool ChipSvc::settled() const {
    bool first = true;
    uint16_t d = 0;
    for (int n = 0; n < kNodes; n++) {
        if (!c_->chip_up(n))
            continue;
        const SpView &v = c_->sp(n);
        if (v.stage != KOLO_FW_RUNNING || c_->cycle() - v.last_write < kFwQuiet)
            return false;
        if (const NativeFw *f = c_->native(n)) {
            const kolo_fw *fw = f->fw();
            if (fw->recompute_at || fw->install_at || fw->txq_count)
                return false;
        }
        if (first)
            d = v.digest, first = false;
        if (v.digest != d)
            return false;
    }
    return true;
}

uint16_t ChipSvc::installed_digest(int n) const { return c_->sp(n).digest; }

uint64_t ChipSvc::last_install_time() const {
    uint64_t t = 0;
    for (int n = 0; n < kNodes; n++)
        if (c_->chip_up(n))
            t = std::max(t, c_->sp(n).last_install);
    return t;
}

int ChipSvc::reg_read(int n, uint32_t addr, uint32_t *v) {
    // the core reads only the state it shows (kolo-ctl is refused with chips)
    const SpView &s = c_->sp(n);
    if (addr == KOLO_SVC_SYS_FW_STATE)
        *v = s.stage | static_cast<uint32_t>(s.digest) << KOLO_SVC_SYS_FW_STATE_FAULT_GEN_SHIFT;
    else if (addr == KOLO_SVC_RT_EPOCH)
        *v = s.epoch;
    else
        return -1;
    return 0;
}
int ChipSvc::reg_write(int, uint32_t, uint32_t, bool) { return -1; }

void ChipSvc::report(FILE *f, bool per_node) const {
    std::fprintf(f, "service processors (chips%s): table switches %" PRIu64 "; packets lost: %s\n",
                 KOLO_CHIP_NATIVE_FW ? ", native firmware on the service block ports" : ", firmware on kolo_sp",
                 stats().installs, c_->loss_report().c_str());
    if (!per_node)
        return;
    std::fprintf(f, "  node  stage epoch faults  tables  last table  links (up/down)\n");
    for (int n = 0; n < kNodes; n++) {
        const SpView &v = c_->sp(n);
        std::string links;
        for (unsigned p = 0; p < 6; p++)
            if (c_->chip_sim().port_built(p))
                links += std::to_string(c_->chip_sim().link_state(static_cast<unsigned>(n), p));
        std::fprintf(f, "  %03x  %5s %5u 0x%04x %7" PRIu64 " %11" PRIu64 "  %s\n",
                     kolo_node_id_of_index(&c_->topo(), static_cast<unsigned>(n)),
                     !c_->chip_up(n) ? "DOWN" : v.stage == KOLO_FW_RUNNING ? "run" : "busy", v.epoch, v.digest,
                     v.installs, v.last_install, links.c_str());
        for (const std::string &l : log(n))
            std::fprintf(f, "        %s\n", l.c_str());
    }
}

const std::deque<std::string> &ChipSvc::log(int n) const {
    if (const NativeFw *f = c_->native(n))
        return f->lines;
    return c_->sp(n).console;
}
bool ChipSvc::node_up(int n) const { return c_->chip_up(n); }
const kolo_route_entry *ChipSvc::active_table(int n, uint16_t *epoch) const {
    if (!c_->chip_up(n))
        return nullptr;
    *epoch = c_->sp(n).epoch;
    return c_->sp(n).active.data();
}
const SvcStats &ChipSvc::stats() const { return const_cast<ChipCluster *>(c_)->svc_stats(); }
bool ChipSvc::firmware_errors(std::string *why) const {
    for (int n = 0; n < kNodes; n++) {
        const SpView &v = c_->sp(n);
        if (c_->chip_up(n) && v.stage == KOLO_FW_FAILED) {
            *why = "node index " + std::to_string(n) + ": firmware stage FAILED";
            return true;
        }
        if (const NativeFw *f = c_->native(n)) {
            // what the firmware read over the service bus at boot against the chip's
            // straps (node id from its index, the torus of this build): a firmware that
            // failed, or whose FW_STATE write failed with it, shows here at once
            const kolo_fw *fw = f->fw();
            const kolo_topo t = {{KOLO_DIM_X, KOLO_DIM_Y, KOLO_DIM_Z}};
            const uint16_t want = kolo_node_id_of_index(&t, static_cast<unsigned>(n));
            const bool wrong = f->started() && fw->stage != KOLO_FW_BOOT &&
                               (fw->self != want || std::memcmp(fw->topo.size, t.size, sizeof t.size));
            if (c_->chip_up(n) && f->started() && (fw->stage == KOLO_FW_FAILED || f->bus_errors() || wrong)) {
                char b[192];
                std::snprintf(b, sizeof b,
                              "node index %d: firmware %s, %" PRIu64
                              " bus errors; it read node id 0x%03x, torus %ux%ux%u from the service block "
                              "(the chip's straps: 0x%03x, " KOLO_TORUS_NAME ")",
                              n, fw->stage == KOLO_FW_FAILED ? "FAILED at boot" : "running", f->bus_errors(),
                              fw->self, fw->topo.size[0], fw->topo.size[1], fw->topo.size[2], want);
                *why = b;
                for (const std::string &l : f->lines)
                    *why += "\n    " + l;
                return true;
            }
            const kolo_fw_stats &s = fw->stats;
            if (s.check_failures || s.mgmt_bad || s.txq_full) {
                *why = "node index " + std::to_string(n) + ": table check failures " + std::to_string(s.check_failures) +
                       ", bad MGMT " + std::to_string(s.mgmt_bad) + ", MGMT queue full " + std::to_string(s.txq_full);
                return true;
            }
        }
    }
    return false;
}

Cluster *make_cluster(ClusterHost *host, const kolo_topo &t, std::string *err) {
    if (t.size[0] != KOLO_DIM_X || t.size[1] != KOLO_DIM_Y || t.size[2] != KOLO_DIM_Z) {
        *err = std::string("this chip build is for a ") + KOLO_TORUS_NAME + " torus";
        return nullptr;
    }
    return new ChipCluster(host);
}

} // namespace
} // namespace kolo_sim

int main(int argc, char **argv) {
    return kolo_sim::sim_main(argc, argv, nullptr, KOLO_TORUS_NAME, nullptr, kolo_sim::make_cluster);
}
