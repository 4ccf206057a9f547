// net_rtl.cpp - kolo-sim's RTL network: the Verilated kolo_torus (routers and
// ideal links, REAL_LINKS=0) of one torus size, with the NIs on the local
// ports. Built once per size as kolo-sim-XxYxZ (mk/sim.mk, -DKOLO_DIM_X/Y/Z).
//
// Local port, as tb/torus drives it: the injector sends a packet's flits back
// to back on VC {vnet, class} (class 0 for ordered packets, 1 otherwise) once
// that VC has credits for the whole packet, and counts the credits the router
// returns; the ejector reassembles packets per VC and returns their credits
// (one per cycle) only when the NI has taken the packet, so an NI that cannot
// take packets backs the network up as the hardware would. Every head flit on
// a network output port is reported to the scoreboard as a hop.
//
// Faults: set_link drives the torus' link_down bits of both ends of a link;
// from then on the routers drop packets for it whole (kolo_router port_down)
// and mark their flits on the monitor ports (mon_sunk), from which the
// packet id (header flit 1) goes to Sink::dropped. Flits already on the
// ideal link when it goes down still arrive.
// Built with KOLO_TRACE (kolo-sim-trace-XxYxZ: flat, --trace-fst), rtl_trace
// writes an FST of every RTL signal in a window of cycles (--rtl-trace).
#include <cinttypes>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "Vkolo_torus_sim.h"
#include "kolo_rtl_bits.h"
#include "sim.h"
#include "verilated.h"
#ifdef KOLO_TRACE
#include "verilated_fst_c.h"
#define KOLO_TRACE_SUFFIX "-trace"
#else
#define KOLO_TRACE_SUFFIX ""
#endif

#ifndef KOLO_DIM_X
#error "build with -DKOLO_DIM_X=.. -DKOLO_DIM_Y=.. -DKOLO_DIM_Z=.."
#endif
#ifndef KOLO_VC_DEPTH
#define KOLO_VC_DEPTH 80
#endif
#ifndef KOLO_EJECT_CREDITS
#define KOLO_EJECT_CREDITS 64
#endif
#define KOLO_STR2(x) #x
#define KOLO_STR(x) KOLO_STR2(x)
#define KOLO_TORUS_NAME KOLO_STR(KOLO_DIM_X) "x" KOLO_STR(KOLO_DIM_Y) "x" KOLO_STR(KOLO_DIM_Z)

namespace kolo_sim {
namespace {

using kolo_rtl::Flit;
using kolo_rtl::flit_get;
using kolo_rtl::flit_set;
using kolo_rtl::sig_clear;
using kolo_rtl::sig_get;
using kolo_rtl::sig_set;

constexpr int kNodes = KOLO_DIM_X * KOLO_DIM_Y * KOLO_DIM_Z;
constexpr size_t kInjQueue = 2; // packets the local port holds before the NI waits

struct Waiting {
    kolo_pkt p;
    unsigned vc;
    bool checked = false;
};

// One queue per virtual network: a request waiting for credits must never
// hold up the responses behind it (they free the credits it waits for).
struct Injector {
    std::deque<kolo_pkt> q[2];
    int cur = -1;     // vnet of the packet being sent, -1 between packets
    unsigned pos = 0; // next flit of it
    int credits[4] = {KOLO_VC_DEPTH, KOLO_VC_DEPTH, KOLO_VC_DEPTH, KOLO_VC_DEPTH};
};

struct Ejector {
    std::vector<uint64_t> part[4];
    std::deque<Waiting> done[2];
    std::deque<unsigned> credit_q;
    unsigned rr = 0;
    unsigned held[4] = {0, 0, 0, 0}; // flits received and not yet credited
};

unsigned pkt_vc(const kolo_pkt &p) {
    unsigned vnet = (p.header[0] >> 28) & 1, ordered = (p.header[0] >> 35) & 1;
    return vnet * 2 + (ordered ? 0 : 1);
}

class RtlNet : public Net {
  public:
    explicit RtlNet(Sink *sink)
        : sink_(sink), ctx_(new VerilatedContext), inj_(kNodes), ej_(kNodes),
          hops_(kNodes), sunk_(kNodes) {
#ifdef KOLO_TRACE
        ctx_->traceEverOn(true); // before the model is built
#endif
        top_.reset(new Vkolo_torus_sim(ctx_.get()));
        top_->clk = 0;
        top_->rst = 1;
        top_->lane_clk = 0;
        top_->lane_rst = 1;
        top_->err_threshold = 0;
        top_->lane_seed = 0;
        sig_clear(top_->link_down);
        sig_clear(top_->inj_valid);
        sig_clear(top_->ej_credit_valid);
        top_->eval();
        for (int i = 0; i < 5; i++)
            tick();
        top_->rst = 0;
        top_->lane_rst = 0;
        for (int i = 0; i < 2; i++)
            tick();
    }
    ~RtlNet() override {
#ifdef KOLO_TRACE
        if (tfp_) tfp_->close();
#endif
        top_->final();
    }

#ifdef KOLO_TRACE
    bool rtl_trace(const std::string &path, uint64_t from, uint64_t to, unsigned ps_per_cycle,
                   std::string *) override {
        trace_path_ = path;
        trace_ps_ = ps_per_cycle;
        trace_from_ = from;
        trace_to_ = to;
        return true;
    }
#endif

    const char *name() const override { return "rtl"; }

    bool can_send(int src, const kolo_pkt &p) override {
        return inj_[static_cast<size_t>(src)].q[pkt_vc(p) >> 1].size() < kInjQueue;
    }

    void send(int src, const kolo_pkt &p, uint64_t) override {
        inj_[static_cast<size_t>(src)].q[pkt_vc(p) >> 1].push_back(p);
        in_net_++;
    }

    bool step(uint64_t now) override {
#ifdef KOLO_TRACE
        if (!trace_path_.empty() && !tfp_ && now >= trace_from_ && now < trace_to_) {
            tfp_.reset(new VerilatedFstC);
            top_->trace(tfp_.get(), 99);
            tfp_->open(trace_path_.c_str());
        }
        if (tfp_ && now >= trace_to_) {
            tfp_->close();
            tfp_.reset();
            trace_path_.clear();
        }
        trace_now_ = now;
#endif
        bool moved = drive();
        tick();
        if (observe(now))
            moved = true;
        if (deliver())
            moved = true;
        cycles_++;
        if ((cycles_ & 4095) == 0)
            check_router_errors();
        return moved;
    }

    bool idle() const override {
        if (in_net_)
            return false;
        for (const Ejector &e : ej_)
            if (!e.credit_q.empty())
                return false;
        for (const Injector &i : inj_)
            for (int v = 0; v < 4; v++)
                if (i.credits[v] != KOLO_VC_DEPTH)
                    return false;
        return true;
    }

    void dump(FILE *f) const override {
        std::fprintf(
            f, "rtl network (%s): %" PRIu64 " packets between NIs, %" PRIu64 " cycles ticked\n",
            KOLO_TORUS_NAME, in_net_, cycles_);
        for (int n = 0; n < kNodes; n++) {
            const Injector &i = inj_[static_cast<size_t>(n)];
            const Ejector &e = ej_[static_cast<size_t>(n)];
            if (!i.q[0].empty() || !i.q[1].empty())
                std::fprintf(f,
                             "  node index %d: %zu requests, %zu responses to inject%s, credits "
                             "%d %d %d %d\n",
                             n, i.q[0].size(), i.q[1].size(), i.pos ? " (one half sent)" : "",
                             i.credits[0],
                             i.credits[1], i.credits[2], i.credits[3]);
            for (int v = 0; v < 2; v++)
                if (!e.done[v].empty())
                    std::fprintf(f, "  node index %d vnet %d: %zu packets wait for the NI\n", n, v,
                                 e.done[v].size());
            for (int v = 0; v < 4; v++)
                if (!e.part[v].empty())
                    std::fprintf(f, "  node index %d vc %d: a packet half ejected (%zu flits)\n", n,
                                 v, e.part[v].size());
            uint64_t errs = sig_get(top_->stat_errors, static_cast<unsigned>(n) * 64, 64);
            if (errs)
                std::fprintf(f, "  router %d: stat_errors %#" PRIx64 "\n", n, errs);
        }
    }
    uint64_t flits_injected() const override { return flits_; }

    void set_link(int node, int port, bool up) override {
        const kolo_topo t = {{KOLO_DIM_X, KOLO_DIM_Y, KOLO_DIM_Z}};
        sig_set(top_->link_down, static_cast<unsigned>(node) * 6 + static_cast<unsigned>(port), 1, up ? 0 : 1);
        sig_set(top_->link_down, link_other_end(t, node, port), 1, up ? 0 : 1);
    }
    uint64_t fault_drops() const override { return drops_; }

  private:
    void tick() {
        top_->clk = 0;
        top_->eval();
#ifdef KOLO_TRACE
        if (tfp_) tfp_->dump(trace_now_ * trace_ps_); // rising edge at the start of the cycle
#endif
        top_->clk = 1;
        top_->eval();
#ifdef KOLO_TRACE
        if (tfp_) tfp_->dump(trace_now_ * trace_ps_ + trace_ps_ / 2);
#endif
    }

    bool drive() {
        bool moved = false;
        sig_clear(top_->inj_valid);
        sig_clear(top_->ej_credit_valid);
        for (int n = 0; n < kNodes; n++) {
            Injector &in = inj_[static_cast<size_t>(n)];
            if (in.cur < 0) {
                // next packet: a response first, then a request, each only
                // once its VC has credits for the whole packet
                for (int v = 1; v >= 0 && in.cur < 0; v--) {
                    if (in.q[v].empty())
                        continue;
                    const kolo_pkt &h = in.q[v].front();
                    if (in.credits[pkt_vc(h)] >= static_cast<int>(h.len + 2u))
                        in.cur = v;
                }
            }
            if (in.cur >= 0) {
                const kolo_pkt &p = in.q[in.cur].front();
                unsigned vc = pkt_vc(p), flits = p.len + 2u;
                {
                    Flit f;
                    f.data = in.pos < 2 ? p.header[in.pos] : p.payload[in.pos - 2];
                    f.vc = vc;
                    f.head = in.pos == 0;
                    f.tail = in.pos + 1 == flits;
                    sig_set(top_->inj_valid, static_cast<unsigned>(n), 1, 1);
                    flit_set(top_->inj_flit, static_cast<unsigned>(n), f);
                    in.credits[vc]--;
                    flits_++;
                    moved = true;
                    if (++in.pos == flits) {
                        in.pos = 0;
                        in.q[in.cur].pop_front();
                        in.cur = -1;
                    }
                }
            }
            Ejector &e = ej_[static_cast<size_t>(n)];
            if (!e.credit_q.empty()) {
                unsigned vc = e.credit_q.front();
                e.credit_q.pop_front();
                sig_set(top_->ej_credit_valid, static_cast<unsigned>(n), 1, 1);
                sig_set(top_->ej_credit_vc, static_cast<unsigned>(n) * 2, 2, vc);
            }
        }
        return moved;
    }

    bool observe(uint64_t now) {
        bool moved = false;
        for (int n = 0; n < kNodes; n++) {
            if (!sig_get(top_->inj_credit_valid, static_cast<unsigned>(n), 1))
                continue;
            unsigned vc = static_cast<unsigned>(
                sig_get(top_->inj_credit_vc, static_cast<unsigned>(n) * 2, 2));
            if (++inj_[static_cast<size_t>(n)].credits[vc] > KOLO_VC_DEPTH)
                sink_->net_error("router " + std::to_string(n) +
                                 " returned more injection credits than VC_DEPTH on vc " +
                                 std::to_string(vc));
        }
        const unsigned mon_slots = static_cast<unsigned>(kNodes) * 6;
        kolo_rtl::for_each_set_bit(top_->mon_valid, mon_slots, [&](unsigned slot) {
            moved = true;
            Flit f = flit_get(top_->mon_flit, slot);
            uint64_t id;
            if (hops_.observe(static_cast<int>(slot / 6), static_cast<int>(slot % 6), f, &id))
                sink_->hop(id, static_cast<int>(slot / 6), static_cast<int>(slot % 6), static_cast<int>(f.vc));
        });
        // flits of packets dropped at down links: header flit 1 names the packet
        kolo_rtl::for_each_set_bit(top_->mon_sunk, mon_slots, [&](unsigned slot) {
            moved = true;
            Flit f = flit_get(top_->mon_flit, slot);
            uint64_t id;
            if (!sunk_.observe(static_cast<int>(slot / 6), static_cast<int>(slot % 6), f, &id))
                return;
            drops_++;
            in_net_--;
            sink_->dropped(id, static_cast<int>(slot / 6), static_cast<int>(slot % 6));
        });
        for (int n = 0; n < kNodes; n++) {
            if (!sig_get(top_->ej_valid, static_cast<unsigned>(n), 1))
                continue;
            moved = true;
            Flit f = flit_get(top_->ej_flit, static_cast<unsigned>(n));
            Ejector &e = ej_[static_cast<size_t>(n)];
            unsigned vc = f.vc & 3;
            std::vector<uint64_t> &part = e.part[vc];
            if (++e.held[vc] > KOLO_EJECT_CREDITS) {
                sink_->net_error("router " + std::to_string(n) +
                                 " ejected more flits than EJECT_CREDITS on vc " +
                                 std::to_string(vc));
                return moved;
            }
            if (f.head != part.empty()) {
                sink_->net_error("router " + std::to_string(n) + " ejected a " +
                                 (f.head ? "head" : "body") + " flit on vc " + std::to_string(vc) +
                                 " with " + std::to_string(part.size()) +
                                 " flits of a packet open, cycle " + std::to_string(now));
                return moved;
            }
            part.push_back(f.data);
            if (!f.tail)
                continue;
            if (part.size() < 2 || part.size() > KOLO_MAX_PKT) {
                sink_->net_error("router " + std::to_string(n) + " ejected a packet of " +
                                 std::to_string(part.size()) + " flits");
                return moved;
            }
            Waiting wpk;
            std::memset(&wpk.p, 0, sizeof wpk.p);
            wpk.p.header[0] = part[0];
            wpk.p.header[1] = part[1];
            wpk.p.len = static_cast<uint8_t>(part.size() - 2);
            for (size_t i = 2; i < part.size(); i++)
                wpk.p.payload[i - 2] = part[i];
            wpk.vc = vc;
            part.clear();
            e.done[vc >> 1].push_back(wpk);
        }
        return moved;
    }

    bool deliver() {
        bool moved = false;
        for (int n = 0; n < kNodes; n++) {
            Ejector &e = ej_[static_cast<size_t>(n)];
            for (unsigned k = 0; k < 2; k++) {
                unsigned v = (e.rr + k) & 1;
                if (e.done[v].empty())
                    continue;
                Waiting &w = e.done[v].front();
                if (!sink_->deliver(n, w.p, w.checked))
                    continue;
                unsigned flits = w.p.len + 2u;
                for (unsigned i = 0; i < flits; i++)
                    e.credit_q.push_back(w.vc);
                e.held[w.vc] -= flits;
                e.done[v].pop_front();
                e.rr = v ^ 1;
                in_net_--;
                moved = true;
                break; // one packet per node and cycle
            }
        }
        return moved;
    }

    void check_router_errors() {
        // every packet a router counted as dropped was seen on its monitor
        // port (the drops whose header flit 1 is still to come are pending)
        uint64_t counted = 0, pending = sunk_.open();
        for (int n = 0; n < kNodes; n++)
            counted += sig_get(top_->stat_fault_drops, static_cast<unsigned>(n) * 32, 32);
        if (counted != drops_ + pending && !drop_mismatch_) {
            drop_mismatch_ = true;
            sink_->net_error("routers counted " + std::to_string(counted) +
                             " packets dropped at down links, the monitors saw " +
                             std::to_string(drops_) + " (+" + std::to_string(pending) + " starting)");
        }
        for (int n = 0; n < kNodes; n++) {
            uint64_t errs = sig_get(top_->stat_errors, static_cast<unsigned>(n) * 64, 64);
            if (errs && !(reported_ & (1ull << (n & 63)))) {
                reported_ |= 1ull << (n & 63);
                char b[64];
                std::snprintf(b, sizeof b, "%#" PRIx64, errs);
                sink_->net_error("router " + std::to_string(n) + " reports errors (stat_errors " +
                                 b + ")");
            }
        }
    }

    Sink *sink_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vkolo_torus_sim> top_;
    std::vector<Injector> inj_;
    std::vector<Ejector> ej_;
    kolo_rtl::Monitor hops_, sunk_; // router output ports: hops, and packets dropped at down links
    uint64_t in_net_ = 0, cycles_ = 0, flits_ = 0, reported_ = 0, drops_ = 0;
    bool drop_mismatch_ = false;
#ifdef KOLO_TRACE
    std::unique_ptr<VerilatedFstC> tfp_;
    std::string trace_path_;
    uint64_t trace_from_ = 0, trace_to_ = 0, trace_now_ = 0;
    unsigned trace_ps_ = 4000; // one core cycle in ps
#endif
};

Net *make_rtl(Sink *sink, const kolo_topo &t, std::string *err) {
    if (t.size[0] != KOLO_DIM_X || t.size[1] != KOLO_DIM_Y || t.size[2] != KOLO_DIM_Z) {
        *err = std::string("this RTL build is for a ") + KOLO_TORUS_NAME + " torus";
        return nullptr;
    }
    return new RtlNet(sink);
}

} // namespace
} // namespace kolo_sim

int main(int argc, char **argv) {
    return kolo_sim::sim_main(argc, argv, kolo_sim::make_rtl, KOLO_TORUS_NAME KOLO_TRACE_SUFFIX);
}
