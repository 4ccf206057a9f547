// tb_torus.cpp - Verilator harness of a whole kolo torus (kolo_torus with
// ideal links) under generated traffic, checked packet by packet against the
// C reference model (sw/model).
//
// Length (~1050 lines): the endpoints, traffic patterns, hop monitor and
// report of the torus harness; the shared endpoint and traffic pieces are in
// tb/common, what remains is this test's own main loop and reports.
//
// Built once per torus configuration: the make fragment (mk/tb.mk) generates a
// wrapper top kolo_torus_sim with the sizes and passes the same numbers here as
// KOLO_DIM_X/Y/Z, KOLO_VC_DEPTH, KOLO_EJECT_CREDITS, KOLO_BUBBLE,
// KOLO_LINK_LATENCY. Everything else is a run-time option (--help).
//
// Every node has an endpoint: an injector (per-VC credits, virtual cut-through,
// one packet at a time) and an ejector (reassembly, credit return with optional
// random delay). A monitor on every router network output reports each hop to
// the model (kolo_model_hop); every delivered packet goes through
// kolo_model_deliver. The first disagreement ends the run with the model's
// message. At the end: every packet delivered, the model has nothing pending,
// no router error counter moved, and every injection credit came back.
// A watchdog fails the run when packets are pending and no flit moved anywhere
// for --watchdog cycles, after printing every occupied router buffer; with
// --expect-deadlock that is the passing outcome instead (to show it bites).
// --cut=CYCLE:NODE:PORT (real-link builds) breaks both lanes of one link at
// CYCLE, in the middle of traffic: the link loses lock, retrains, and goes
// down when its retrain budget runs out; kolo_torus then makes it a down port
// of its router, which drops the packets for it whole (reported per packet
// on mon_sunk and taken out of the model with kolo_model_drop). The run ends
// when every other packet is delivered; the packets left must each have
// been last seen leaving onto the cut link (lost inside the link layer, at
// most its pkts_dropped), no truncated or damaged packet may arrive anywhere,
// every other link must stay up, and nothing may hang.
#include <sys/stat.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "Vkolo_torus_sim.h"
#include "kolo_model.h"
#include "kolo_route.h"
#include "kolo_rtl_bits.h"
#include "kolo_tb_endpoint.h"
#include "kolo_tb_traffic.h"
#include "kolo_tb_util.h"
#include "verilated.h"
#ifdef KOLO_TRACE
#include "verilated_fst_c.h"
#endif

#ifndef KOLO_DIM_X
#error "build with -DKOLO_DIM_X=.. -DKOLO_DIM_Y=.. -DKOLO_DIM_Z=.. (see mk/tb.mk)"
#endif
#ifndef KOLO_VC_DEPTH
#define KOLO_VC_DEPTH 80
#endif
#ifndef KOLO_EJECT_CREDITS
#define KOLO_EJECT_CREDITS 64
#endif
#ifndef KOLO_BUBBLE
#define KOLO_BUBBLE 1
#endif
#ifndef KOLO_REAL_LINKS
#define KOLO_REAL_LINKS 0
#endif
#ifndef KOLO_LINK_LATENCY
#define KOLO_LINK_LATENCY 1
#endif

using namespace kolo_tb;
using namespace kolo_rtl;

namespace {

struct Config {
    uint64_t seed = 0;
    std::string mix;
    bool saturate = false;
    double rate = 0.1;
    uint64_t packets = 0, cycles = 0, warmup = 0, max_cycles = 0, drain_max = 0;
    double ordered = 0.5, vnet1 = 0.5;
    LengthDist len;
    int op_lo = 0, op_hi = 0;
    double bp = 0.0;
    int bp_delay = 8;
    double hotspot_frac = 0.25;
    int hotspot_node = -1;
    uint64_t watchdog = 3000;
    bool isolated = false, expect_deadlock = false, no_fail = false, drain = true, report = true;
    uint64_t progress = 0;
    std::string csv, label, bench;
    uint64_t trace_start = 0, trace_cycles = 0;
    std::string trace_file, gtkw;
    bool diag = false; // count router port states (dbg_vc_route) for the report
    bool inj_per_vc = false;  // endpoints queue per VC (round robin) instead of one queue
    bool inj_spread = false;  // endpoints use both local VCs of a vnet (ordered: by flow)
    double ber = 0.0;  // real-link builds: bit error rate of every lane
    int64_t cut_at = -1;  // real-link builds: --cut cycle, node index, port
    int cut_node = 0, cut_port = 0;
};

struct Live {
    uint64_t t_created = 0, t_head = 0;
    uint16_t src_index = 0;
    uint8_t hops = 0;
    bool measured = false;
    int last_slot = -1;  // node * 6 + port it was last seen leaving by
};

class TorusBench {
  public:
    TorusBench(const Config &cfg)
        : cfg_(cfg), topo_(KOLO_DIM_X, KOLO_DIM_Y, KOLO_DIM_Z), traffic_(topo_), rng_(cfg.seed),
          monitor_(topo_.n), inj_(topo_.n), ej_(topo_.n), link_flits_(static_cast<size_t>(topo_.n) * 6, 0) {}

    int run();

  private:
    // --diag counters per router port [n*7+p]: cycles an output is held by a
    // packet, flits it sends, cycles an input port forwards a packet
    std::vector<unsigned> spread_next_ = std::vector<unsigned>(static_cast<size_t>(KOLO_DIM_X * KOLO_DIM_Y * KOLO_DIM_Z), 0);
    std::vector<uint64_t> diag_held_, diag_flits_, diag_heads_, diag_in_;
    uint64_t diag_cycles_ = 0;
    // ---- setup / clocking ----
    bool setup(std::string *err);
    void tick();
    // ---- per cycle ----
    bool observe_outputs();  // false on a check failure (message in fail_)
    void generate();
    void diag_sample();  // --diag: count router port states this cycle
    void drive_inputs();
    bool generation_open() const;
    void new_packet(int src, int dst);
    // ---- end ----
    bool final_checks();
    void dump_state(FILE *f);
    void print_report(double wall);
    void write_csv();
    void print_bench(double wall);
    bool fail(const std::string &msg) {
        if (fail_.empty()) fail_ = msg;
        return false;
    }
    uint16_t err_field(int node, int f) const {
        return static_cast<uint16_t>(sig_get(top_->stat_errors, static_cast<unsigned>(node * 64 + f * 16), 16));
    }

    Config cfg_;
    Topo topo_;
    Traffic traffic_;
    Rng rng_;
    Monitor monitor_;
    std::vector<Injector> inj_;
    std::vector<Ejector> ej_;
    // the context must outlive the model: members are destroyed in reverse order
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vkolo_torus_sim> top_;
    kolo_model *model_ = nullptr;
    std::vector<kolo_route_entry> tables_;
    std::unordered_map<uint64_t, Live> live_;
    std::vector<uint64_t> link_flits_;  // in the measurement window, [node*6+port]

    uint64_t now_ = 0;         // cycles since reset released
    uint64_t id_base_ = 0, next_id_ = 0;
    uint64_t generated_ = 0, delivered_ = 0, delivered_flits_ = 0;
    uint64_t gen_end_ = 0;     // cycle generation stopped
    bool gen_stopped_ = false;
    uint64_t win_flits_in_ = 0, win_flits_out_ = 0;  // in the measurement window
    LatencyStats lat_, lat_total_;
    // zero-load fit: latency against hops
    double fit_n_ = 0, fit_sx_ = 0, fit_sy_ = 0, fit_sxx_ = 0, fit_sxy_ = 0;
    Watchdog watchdog_;
    bool deadlock_ = false;
    std::string fail_;
#ifdef KOLO_TRACE
    std::unique_ptr<VerilatedFstC> tfp_;
    bool tracing_ = false;
    bool out_of_reset_ = false; // the window counts cycles from the end of reset
#endif
    // real links: lane clock edges between core clock edges (ps)
    uint64_t t_ps_ = 0, lane_next_ps_ = 0;
    void link_report(bool check);
    // --cut: the two ends (node * 6 + port) of the cut link, and packets the
    // routers dropped at it (mon_sunk)
    int cut_end_[2] = {-1, -1};
    bool cut_done_ = false;
    uint64_t sunk_drops_ = 0, link_lost_ = 0;
    Monitor sunk_monitor_{KOLO_DIM_X * KOLO_DIM_Y * KOLO_DIM_Z};
    bool cut_link_down() const;
    bool only_lost_left() const;
    bool cut_checks();
};

bool TorusBench::setup(std::string *err) {
    std::string e;
    if (!traffic_.set_mix(cfg_.mix, &e)) {
        *err = e;
        return false;
    }
    if (cfg_.hotspot_node >= topo_.n) {
        *err = "--hotspot-node out of range";
        return false;
    }
    traffic_.set_hotspot(cfg_.hotspot_node >= 0 ? cfg_.hotspot_node : traffic_.hotspot(), cfg_.hotspot_frac);
    if (cfg_.cut_at >= 0) {
        if (!KOLO_REAL_LINKS || cfg_.cut_node >= topo_.n || !topo_.port_present(cfg_.cut_port)) {
            *err = "--cut needs a build with real links and a node and port of this torus";
            return false;
        }
        uint16_t nb = kolo_neighbor(&topo_.t, topo_.id[cfg_.cut_node], cfg_.cut_port);
        cut_end_[0] = cfg_.cut_node * 6 + cfg_.cut_port;
        cut_end_[1] = static_cast<int>(kolo_node_index(&topo_.t, nb)) * 6 + (cfg_.cut_port ^ 1);
    }
    tables_.resize(static_cast<size_t>(topo_.n) * topo_.n);
    kolo_tableset_default(&topo_.t, tables_.data());
    {
        // the tables the packets follow must pass the deadlock check first
        std::vector<unsigned char> ws(kolo_deadlock_workspace_size(&topo_.t));
        kolo_deadlock_report rep{};
        int rc = kolo_deadlock_check(&topo_.t, tables_.data(), ws.data(), ws.size(), &rep);
        if (rc != KOLO_OK) {
            *err = std::string("routing tables fail the deadlock check: ") + kolo_route_strerror(rc);
            return false;
        }
    }
    model_ = kolo_model_new(&topo_.t, tables_.data());
    if (!model_) {
        *err = "kolo_model_new failed";
        return false;
    }
    for (int n = 0; n < topo_.n; n++) {
        inj_[n].reset(KOLO_VC_DEPTH, KOLO_VC_DEPTH);
        inj_[n].set_per_vc(cfg_.inj_per_vc);
        ej_[n].configure(cfg_.bp, cfg_.bp_delay, mix64(cfg_.seed ^ (0x5eedull + static_cast<uint64_t>(n))));
    }
    id_base_ = (mix64(cfg_.seed) & 0xffffull) << 32;
    watchdog_.set_bound(cfg_.watchdog);

    ctx_.reset(new VerilatedContext);
#ifdef KOLO_TRACE
    // tracing must be switched on before the model is built
    if (!cfg_.trace_file.empty()) ctx_->traceEverOn(true);
#endif
    top_.reset(new Vkolo_torus_sim(ctx_.get()));
#ifdef KOLO_TRACE
    if (!cfg_.trace_file.empty()) {
        tfp_.reset(new VerilatedFstC);
        top_->trace(tfp_.get(), 99);
        tfp_->open(cfg_.trace_file.c_str());
    }
#endif
    top_->clk = 0;
    top_->rst = 1;
    kolo_rtl::sig_clear(top_->link_down); // links stay up here; router-down and kolo-sim fail them
    top_->lane_clk = 0;
    top_->lane_rst = 1;
    top_->lane_seed = static_cast<uint32_t>(mix64(cfg_.seed ^ 0x1a9e5eedull));
    top_->err_threshold = static_cast<uint32_t>(std::min(4294967295.0, cfg_.ber * 66.0 * 4294967296.0));
    sig_clear(top_->inj_valid);
    sig_clear(top_->ej_credit_valid);
    top_->eval();
    for (int i = 0; i < 5; i++) tick();
    top_->rst = 0;
    top_->lane_rst = 0;
#ifdef KOLO_TRACE
    out_of_reset_ = true;
#endif
    return true;
}

void TorusBench::tick() {
#ifdef KOLO_TRACE
    if (tfp_) {
        bool in_window = out_of_reset_ && now_ >= cfg_.trace_start && now_ < cfg_.trace_start + cfg_.trace_cycles;
        tracing_ = in_window;
    }
#endif
    top_->clk = 0;
    top_->eval();
#ifdef KOLO_TRACE
    // real time in ps: cycle now_ spans [now_ * 4000, now_ * 4000 + 4000), 4 ns at 250 MHz
    if (tracing_) tfp_->dump(now_ * 4000);
#endif
#if KOLO_REAL_LINKS
    // core clock 4.0 ns, lane clock 6.4 ns (a 10.3125 Gb/s lane's block rate
    // against a 250 MHz core): toggle the lane clock at its edges that fall
    // within this core cycle, before the core's rising edge at t + 2 ns
    const uint64_t core_rise = t_ps_ + 2000;
    while (lane_next_ps_ < t_ps_ + 4000) {
        if (lane_next_ps_ == core_rise) {  // same instant: the core edge first
            top_->clk = 1;
            top_->eval();
        }
        top_->lane_clk = !top_->lane_clk;
        top_->eval();
        lane_next_ps_ += 3200;
    }
    t_ps_ += 4000;
#endif
    top_->clk = 1;
    top_->eval();
#ifdef KOLO_TRACE
    if (tracing_) tfp_->dump(now_ * 4000 + 2000); // the rising edge
#endif
}

bool TorusBench::generation_open() const {
    if (gen_stopped_) return false;
    if (cfg_.packets && generated_ >= cfg_.packets) return false;
    if (cfg_.cycles && now_ >= cfg_.cycles) return false;
    return true;
}

void TorusBench::new_packet(int src, int dst) {
    uint64_t id = id_base_ + ++next_id_;
    int len = cfg_.len.pick(rng_);
    int vnet = rng_.chance(cfg_.vnet1) ? 1 : 0;
    bool ordered = rng_.chance(cfg_.ordered);
    int op = rng_.range(cfg_.op_lo, cfg_.op_hi);
    TxPacket p;
    int rc = make_packet(model_, id, topo_.id[src], topo_.id[dst], vnet, ordered, op, len, rng_, &p);
    if (rc != KOLO_OK) {
        fail("model refused packet " + std::to_string(id) + " " + topo_.name(src) + "->" + topo_.name(dst) + ": " +
             kolo_model_last_error(model_) + " (" + kolo_route_strerror(rc) + ")");
        return;
    }
    if (cfg_.inj_spread) {
        // every local VC of the packet's vnet: ordered packets by a hash of
        // their flow (one flow, one FIFO: order kept), the others alternately
        unsigned cls = ordered ? (static_cast<unsigned>(topo_.id[dst]) * 0x9e3779b1u >> 31) : (spread_next_[src] ^= 1u);
        for (auto &f : p.flits) f.vc = static_cast<unsigned>(vnet) * 2 + cls;
    }
    p.t_created = now_;
    Live l;
    l.t_created = now_;
    l.src_index = static_cast<uint16_t>(src);
    l.measured = now_ >= cfg_.warmup;
    if (cfg_.isolated) {
        int h = kolo_route_path(&topo_.t, topo_.id[src], kolo_rtl::h0_rs(p.flits[0].data), nullptr, 0);
        l.hops = static_cast<uint8_t>(h > 0 ? h - 1 : 0);
    }
    live_[id] = l;
    if (l.measured) win_flits_in_ += p.flits.size();
    inj_[src].push(std::move(p));
    generated_++;
}

void TorusBench::generate() {
    if (!generation_open()) {
        if (!gen_stopped_) {
            gen_stopped_ = true;
            gen_end_ = now_;
        }
        return;
    }
    if (cfg_.isolated) {
        // one packet in the whole network at a time, from a random source
        if (!live_.empty()) return;
        for (int tries = 0; tries < 64; tries++) {
            int src = static_cast<int>(rng_.below(static_cast<uint64_t>(topo_.n)));
            int dst = traffic_.pick(src, rng_);
            if (dst >= 0) {
                new_packet(src, dst);
                return;
            }
        }
        return;
    }
    double p_pkt = cfg_.rate / cfg_.len.mean_flits();
    for (int n = 0; n < topo_.n && generation_open(); n++) {
        // saturation: a packet always waiting (with per-VC queues: four in all)
        bool want = cfg_.saturate ? inj_[n].queued() < (cfg_.inj_per_vc ? 4u : 1u) : rng_.chance(p_pkt);
        if (!want) continue;
        int dst = traffic_.pick(n, rng_);
        if (dst >= 0) new_packet(n, dst);
    }
}

bool TorusBench::observe_outputs() {
    const int n_nodes = topo_.n;
    bool moved = false;
    // injection credits
    for (int n = 0; n < n_nodes; n++) {
        if (!sig_get(top_->inj_credit_valid, static_cast<unsigned>(n), 1)) continue;
        unsigned vc = static_cast<unsigned>(sig_get(top_->inj_credit_vc, static_cast<unsigned>(n * 2), 2));
        if (!inj_[n].credit(vc))
            return fail("node " + topo_.name(n) + ": router returned more injection credits than VC_DEPTH on vc " +
                        std::to_string(vc));
    }
    // monitors on network output ports
    bool in_window = now_ >= cfg_.warmup && !gen_stopped_;
    unsigned words = (static_cast<unsigned>(n_nodes) * 6 + 31) / 32;
    for (unsigned w = 0; w < words; w++) {
        uint32_t bits = sig_word(top_->mon_valid, w);
        while (bits) {
            unsigned b = static_cast<unsigned>(__builtin_ctz(bits));
            bits &= bits - 1;
            unsigned slot = w * 32 + b;
            if (slot >= static_cast<unsigned>(n_nodes) * 6) break;
            moved = true;
            int node = static_cast<int>(slot / 6), port = static_cast<int>(slot % 6);
            if (in_window) link_flits_[slot]++;
            Flit f = flit_get(top_->mon_flit, slot);
            uint64_t id;
            if (monitor_.observe(node, port, f, &id)) {
                auto lv = live_.find(id);
                if (lv != live_.end()) lv->second.last_slot = static_cast<int>(slot);
                int rc = kolo_model_hop(model_, id, topo_.id[node], port, static_cast<int>(f.vc));
                if (rc != KOLO_OK)
                    return fail("cycle " + std::to_string(now_) + ": hop of packet " + std::to_string(id) +
                                " leaving " + topo_.name(node) + " port " + port_name(port) + " vc " +
                                std::to_string(f.vc) + ": " + kolo_model_last_error(model_));
            }
        }
    }
    if (cfg_.diag && in_window) diag_sample();
    // packets the routers drop at down links (mon_sunk): flit 1 names them
    if (cut_end_[0] >= 0) {
        for (unsigned w = 0; w < words; w++) {
            uint32_t bits = sig_word(top_->mon_sunk, w);
            while (bits) {
                unsigned b = static_cast<unsigned>(__builtin_ctz(bits));
                bits &= bits - 1;
                unsigned slot = w * 32 + b;
                if (slot >= static_cast<unsigned>(n_nodes) * 6) break;
                moved = true;
                Flit f = flit_get(top_->mon_flit, slot);
                int node = static_cast<int>(slot / 6), port = static_cast<int>(slot % 6);
                uint64_t id;
                if (!sunk_monitor_.observe(node, port, f, &id)) continue;
                if (static_cast<int>(slot) != cut_end_[0] && static_cast<int>(slot) != cut_end_[1])
                    return fail("cycle " + std::to_string(now_) + ": router " + topo_.name(node) +
                                " dropped a packet at port " + port_name(port) + ", which is not the cut link");
                if (kolo_model_drop(model_, id, topo_.id[node], port) != KOLO_OK)
                    return fail("drop of packet " + std::to_string(id) + ": " + kolo_model_last_error(model_));
                live_.erase(id);
                sunk_drops_++;
            }
        }
    }
    // ejection
    for (int n = 0; n < n_nodes; n++) {
        if (!sig_get(top_->ej_valid, static_cast<unsigned>(n), 1)) continue;
        moved = true;
        Flit f = flit_get(top_->ej_flit, static_cast<unsigned>(n));
        bool done;
        RxPacket pkt;
        std::string err;
        if (!ej_[n].receive(now_, f, &done, &pkt, &err))
            return fail("cycle " + std::to_string(now_) + ": ejection at " + topo_.name(n) + ": " + err);
        delivered_flits_++;
        if (in_window) win_flits_out_++;
        if (!done) continue;
        uint64_t hdr[2] = {pkt.words[0], pkt.words[1]};
        int len = static_cast<int>(pkt.words.size()) - 2;
        uint64_t id = h1_addr(hdr[1]);
        int rc = kolo_model_deliver(model_, topo_.id[n], hdr, pkt.words.data() + 2, len);
        if (rc != KOLO_OK)
            return fail("cycle " + std::to_string(now_) + ": delivery of packet " + std::to_string(id) + " at " +
                        topo_.name(n) + " (vc " + std::to_string(pkt.vc) + ", " + std::to_string(len) +
                        " payload flits): " + kolo_model_last_error(model_));
        auto it = live_.find(id);
        if (it == live_.end()) return fail("delivered packet " + std::to_string(id) + " not known to the harness");
        const Live &l = it->second;
        delivered_++;
        if (l.measured) {
            uint64_t lat = now_ - l.t_head;
            lat_.add(lat);
            lat_total_.add(now_ - l.t_created);
            if (cfg_.isolated) {
                double x = l.hops, y = static_cast<double>(lat);
                fit_n_ += 1;
                fit_sx_ += x;
                fit_sy_ += y;
                fit_sxx_ += x * x;
                fit_sxy_ += x * y;
            }
        }
        live_.erase(it);
    }
    if (moved) watchdog_.activity(now_);
    return true;
}

void TorusBench::drive_inputs() {
    sig_clear(top_->inj_valid);
    sig_clear(top_->ej_credit_valid);
    if (cut_end_[0] >= 0 && !cut_done_ && now_ >= static_cast<uint64_t>(cfg_.cut_at)) {
        cut_done_ = true;
        std::printf("cycle %" PRIu64 ": cut the link %s %s <-> %s %s\n", now_, topo_.name(cut_end_[0] / 6).c_str(),
                    port_name(cut_end_[0] % 6), topo_.name(cut_end_[1] / 6).c_str(), port_name(cut_end_[1] % 6));
        for (int e : cut_end_) sig_set(top_->lane_cut, static_cast<unsigned>(e), 1, 1);
    }
    bool moved = false;
    for (int n = 0; n < topo_.n; n++) {
        Flit f;
        TxPacket started;
        bool st, fin;
        if (inj_[n].step(now_, &f, &started, &st, &fin)) {
            sig_set(top_->inj_valid, static_cast<unsigned>(n), 1, 1);
            flit_set(top_->inj_flit, static_cast<unsigned>(n), f);
            moved = true;
            if (st) {
                auto it = live_.find(started.id);
                if (it != live_.end()) it->second.t_head = now_;
            }
        }
        unsigned vc;
        if (ej_[n].credit_out(now_, &vc)) {
            sig_set(top_->ej_credit_valid, static_cast<unsigned>(n), 1, 1);
            sig_set(top_->ej_credit_vc, static_cast<unsigned>(n * 2), 2, vc);
        }
    }
    if (moved) watchdog_.activity(now_);
}

void TorusBench::diag_sample() {
    const size_t n7 = static_cast<size_t>(topo_.n) * 7;
    if (diag_held_.size() != n7) {
        diag_held_.assign(n7, 0);
        diag_flits_.assign(n7, 0);
        diag_heads_.assign(n7, 0);
        diag_in_.assign(n7, 0);
    }
    diag_cycles_++;
    for (int n = 0; n < topo_.n; n++) {
        unsigned held = 0, in_fwd = 0;
        for (int q = 0; q < 28; q++) {
            unsigned r = static_cast<unsigned>(sig_get(top_->dbg_vc_route, static_cast<unsigned>((n * 28 + q) * 6), 6));
            if (r & 0x20) {
                held |= 1u << ((r >> 2) & 7);
                in_fwd |= 1u << (q / 4);
            }
        }
        for (int p = 0; p < 7; p++) {
            size_t i = static_cast<size_t>(n) * 7 + p;
            diag_held_[i] += (held >> p) & 1;
            diag_in_[i] += (in_fwd >> p) & 1;
            bool v = p < 6 ? sig_get(top_->mon_valid, static_cast<unsigned>(n * 6 + p), 1)
                           : sig_get(top_->ej_valid, static_cast<unsigned>(n), 1);
            diag_flits_[i] += v ? 1 : 0;
            if (v) {
                Flit f = p < 6 ? flit_get(top_->mon_flit, static_cast<unsigned>(n * 6 + p))
                               : flit_get(top_->ej_flit, static_cast<unsigned>(n));
                diag_heads_[i] += f.head ? 1 : 0;
            }
        }
    }
}

void TorusBench::dump_state(FILE *f) {
    std::fprintf(f, "---- buffer state at cycle %" PRIu64 " (last flit moved at cycle %" PRIu64 ") ----\n", now_,
                 watchdog_.last_activity());
    std::fprintf(f, "occupied router input VCs: node (x,y,z) input port / vc: flits, allocation\n");
    int shown = 0;
    for (int n = 0; n < topo_.n; n++) {
        for (int q = 0; q < 28; q++) {
            unsigned occ = static_cast<unsigned>(sig_get(top_->dbg_vc_occ, static_cast<unsigned>((n * 28 + q) * 8), 8));
            unsigned route =
                static_cast<unsigned>(sig_get(top_->dbg_vc_route, static_cast<unsigned>((n * 28 + q) * 6), 6));
            if (occ == 0) continue;
            shown++;
            int port = q / 4, vc = q % 4;
            if (route & 0x20)
                std::fprintf(f, "  %-10s in %-2s vc%d: %3u flits, allocated -> out %-2s vc%u\n", topo_.name(n).c_str(),
                             port_name(port), vc, occ, port_name(static_cast<int>((route >> 2) & 7)), route & 3);
            else
                std::fprintf(f, "  %-10s in %-2s vc%d: %3u flits, head waiting for an output VC\n",
                             topo_.name(n).c_str(), port_name(port), vc, occ);
        }
    }
    if (!shown) std::fprintf(f, "  (none)\n");
    std::fprintf(f, "endpoints with queued packets: node: queued, injection credits vc0..3\n");
    for (int n = 0; n < topo_.n; n++) {
        if (!inj_[n].busy()) continue;
        std::fprintf(f, "  %-10s %zu queued%s, credits %d %d %d %d\n", topo_.name(n).c_str(), inj_[n].queued(),
                     inj_[n].mid_packet() ? " (one half sent)" : "", inj_[n].credits(0), inj_[n].credits(1),
                     inj_[n].credits(2), inj_[n].credits(3));
    }
    std::fprintf(f, "packets in flight: %zu, model pending %" PRIu64 "\n", live_.size(), kolo_model_pending(model_));
}

bool TorusBench::final_checks() {
    if (!live_.empty()) {
        auto it = live_.begin();
        return fail(std::to_string(live_.size()) + " packets never delivered (e.g. id " + std::to_string(it->first) +
                    " from " + topo_.name(it->second.src_index) + ")");
    }
    if (kolo_model_pending(model_) != 0)
        return fail("model still has " + std::to_string(kolo_model_pending(model_)) + " pending packets");
    static const char *names[4] = {"dst", "len", "vc", "route"};
    for (int n = 0; n < topo_.n; n++)
        for (int k = 0; k < 4; k++)
            if (err_field(n, k))
                return fail("router " + topo_.name(n) + " counted " + std::to_string(err_field(n, k)) + " err_" +
                            names[k] + " drops in traffic without bad packets");
    for (int n = 0; n < topo_.n; n++) {
        if (!ej_[n].idle()) return fail("ejector at " + topo_.name(n) + " holds a partial packet");
        for (int v = 0; v < 4; v++)
            if (inj_[n].credits(v) != KOLO_VC_DEPTH)
                return fail("node " + topo_.name(n) + " vc " + std::to_string(v) + ": " +
                            std::to_string(inj_[n].credits(v)) + " injection credits after draining, expected " +
                            std::to_string(KOLO_VC_DEPTH));
    }
    return true;
}

int TorusBench::run() {
    std::string err;
    if (!setup(&err)) {
        std::fprintf(stderr, "tb_torus: %s\n", err.c_str());
        return kExitUsage;
    }
    double t0 = wall_seconds();
    uint64_t settle = 0;  // cycles after the last delivery, for credits in flight
    const uint64_t settle_need = 2 * KOLO_LINK_LATENCY + 8;
    while (true) {
        if (!observe_outputs()) break;
        generate();
        if (!fail_.empty()) break;
        drive_inputs();
        bool pending = !live_.empty();
        // after a cut: the packets lost inside the dead link never come
        if (pending && cut_done_ && gen_stopped_ && (now_ & 255) == 0 && cut_link_down() && only_lost_left())
            pending = false;
        if (watchdog_.check(now_, pending)) {
            deadlock_ = true;
            break;
        }
        if (gen_stopped_ && !pending) {
            if (!cfg_.drain || ++settle >= settle_need) break;
        }
        if (gen_stopped_ && cfg_.drain_max && now_ - gen_end_ > cfg_.drain_max) {
            if (!cfg_.no_fail) fail("packets still in flight " + std::to_string(cfg_.drain_max) + " cycles after traffic stopped");
            break;
        }
        if (!cfg_.drain && gen_stopped_) break;
        if (cfg_.max_cycles && now_ >= cfg_.max_cycles) {
            fail("no end after --max-cycles=" + std::to_string(cfg_.max_cycles) + " cycles");
            break;
        }
        if (cfg_.progress && now_ % cfg_.progress == 0 && now_)
            std::printf("  cycle %" PRIu64 ": generated %" PRIu64 ", delivered %" PRIu64 ", in flight %zu\n", now_,
                        generated_, delivered_, live_.size());
        tick();
        now_++;
        if ((now_ & 1023) == 0 && !cfg_.expect_deadlock) {
            for (int n = 0; n < topo_.n && fail_.empty(); n++)
                for (int k = 0; k < 4; k++)
                    if (err_field(n, k)) {
                        fail("cycle " + std::to_string(now_) + ": router " + topo_.name(n) +
                             " dropped a packet (stat_errors field " + std::to_string(k) + ")");
                        break;
                    }
            if (!fail_.empty()) break;
        }
    }
    double wall = wall_seconds() - t0;
    if (!gen_stopped_) gen_end_ = now_;
#ifdef KOLO_TRACE
    if (tfp_) tfp_->close();
#endif

    int code = kExitPass;
    if (deadlock_) {
        std::printf("WATCHDOG: %zu packets pending and no flit moved for %" PRIu64 " cycles\n", live_.size(),
                    cfg_.watchdog);
        dump_state(stdout);
        if (cfg_.expect_deadlock) {
            std::printf("deadlock detected, as this configuration (BUBBLE=%d) expects\n", KOLO_BUBBLE);
        } else {
            fail("deadlock: watchdog fired at cycle " + std::to_string(now_));
        }
    } else if (fail_.empty() && !cfg_.no_fail) {
        if (cut_end_[0] >= 0) {
            if (cfg_.drain && cut_checks()) final_checks();
        } else {
            if (cfg_.drain) final_checks();
            if (KOLO_REAL_LINKS && cfg_.drain) link_report(true);
        }
        if (cfg_.expect_deadlock && fail_.empty())
            fail("expected a deadlock (--expect-deadlock) but all " + std::to_string(delivered_) +
                 " packets were delivered");
    }
    if (cfg_.report) print_report(wall);
    if (!cfg_.csv.empty()) write_csv();
    if (!cfg_.bench.empty()) print_bench(wall);
    if (!fail_.empty()) {
        std::printf("FAIL: %s\n", fail_.c_str());
        std::printf("replay: SEED=%" PRIu64 "\n", cfg_.seed);
        code = cfg_.no_fail ? kExitPass : kExitFail;
    } else {
        std::printf("PASS\n");
    }
    kolo_model_free(model_);
    return code;
}

bool TorusBench::cut_link_down() const {
    for (int e : cut_end_)
        if (sig_get(top_->link_state, static_cast<unsigned>(e) * 2, 2) != 0) return false;
    return true;
}

bool TorusBench::only_lost_left() const {
    for (const auto &kv : live_)
        if (kv.second.last_slot != cut_end_[0] && kv.second.last_slot != cut_end_[1]) return false;
    return true;
}

// after a --cut run: the packets not delivered were all lost inside the cut
// link (at most what its two ends count as dropped), the routers dropped the
// rest for it, every other link is up, and none went down but the cut one
bool TorusBench::cut_checks() {
    if (!cut_link_down()) return fail("the cut link is not down at the end");
    uint64_t link_dropped = 0;
    for (int e : cut_end_) link_dropped += sig_get(top_->link_counters, static_cast<unsigned>(e) * 512 + 11 * 32, 32);
    for (auto it = live_.begin(); it != live_.end();) {
        int slot = it->second.last_slot;
        if (slot != cut_end_[0] && slot != cut_end_[1])
            return fail("packet " + std::to_string(it->first) + " from " + topo_.name(it->second.src_index) +
                        " was lost away from the cut link");
        if (kolo_model_drop(model_, it->first, topo_.id[slot / 6], slot % 6) != KOLO_OK)
            return fail(std::string("drop: ") + kolo_model_last_error(model_));
        link_lost_++;
        it = live_.erase(it);
    }
    if (link_lost_ > link_dropped)
        return fail(std::to_string(link_lost_) + " packets lost in the cut link, which counts only " +
                    std::to_string(link_dropped) + " dropped");
    uint64_t fault_drops = 0;
    for (int n = 0; n < topo_.n; n++) fault_drops += sig_get(top_->stat_fault_drops, static_cast<unsigned>(n) * 32, 32);
    if (fault_drops != sunk_drops_)
        return fail("routers count " + std::to_string(fault_drops) + " packets dropped at down links, the monitors saw " +
                    std::to_string(sunk_drops_));
    if (sunk_drops_ == 0) return fail("no packet was dropped at the down link: traffic did not reach it after the cut");
    int up = 0, present = 0, downs = 0;
    for (int n = 0; n < topo_.n; n++)
        for (int p = 0; p < 6; p++) {
            if (!topo_.port_present(p)) continue;
            unsigned e = static_cast<unsigned>(n * 6 + p);
            present++;
            up += static_cast<int>(sig_get(top_->link_up, e, 1));
            downs += static_cast<int>(sig_get(top_->link_counters, e * 512 + 13 * 32, 32));
        }
    if (up != present - 2) return fail(std::to_string(present - up) + " link ends are not up at the end (2 expected)");
    if (downs != 2) return fail(std::to_string(downs) + " link ends went down (2 expected: the cut one)");
    std::printf("cut link: %" PRIu64 " packets lost inside it (its ends count %" PRIu64 " dropped), %" PRIu64
                " dropped whole by the routers before it; %d of %d link ends up\n",
                link_lost_, link_dropped, sunk_drops_, up, present);
    return true;
}

// Real links: sum the link counters, and with `check` fail unless every
// present link is up and none dropped a packet (or went down); with bit
// errors injected, the links must show that they found and repaired them.
void TorusBench::link_report(bool check) {
    static const char *names[16] = {"crc_errors", "seq_errors", "naks_sent", "naks_rcvd", "replays", "retrains",
                                    "lock_losses", "frames_tx", "frames_rx", "bytes_tx", "bytes_rx",
                                    "pkts_dropped", "ctrl_errors", "link_downs", "miscabled", "rx_overflows"};
    uint64_t sum[16] = {0};
    int up = 0, present = 0;
    for (int n = 0; n < topo_.n; n++)
        for (int p = 0; p < 6; p++) {
            if (!topo_.port_present(p)) continue;
            present++;
            unsigned e = static_cast<unsigned>(n * 6 + p);
            up += static_cast<int>(sig_get(top_->link_up, e, 1));
            for (unsigned i = 0; i < 16; i++) sum[i] += sig_get(top_->link_counters, e * 512 + i * 32, 32);
        }
    std::printf("links              %d of %d up; ber %g\n                  ", up, present, cfg_.ber);
    for (int i = 0; i < 16; i++) std::printf(" %s %" PRIu64 "%s", names[i], sum[i], i == 7 ? "\n                  " : "");
    std::printf("\n");
    if (!check) return;
    if (up != present) fail(std::to_string(present - up) + " links are not up at the end");
    else if (sum[11]) fail("links dropped " + std::to_string(sum[11]) + " packets");
    else if (sum[13]) fail("a link went down");
    else if (sum[14]) fail("a link reports mis-cabling");
    else if (cfg_.ber > 0 && sum[0] + sum[12] == 0) fail("bit errors injected but no link saw one");
    else if (cfg_.ber > 0 && sum[4] == 0) fail("bit errors injected but no frame was replayed");
}

void TorusBench::print_report(double wall) {
    kolo_model_stats ms{};
    kolo_model_get_stats(model_, &ms);
    uint64_t window = gen_end_ > cfg_.warmup ? gen_end_ - cfg_.warmup : 0;
    double denom = static_cast<double>(window) * topo_.n;
    std::printf("---- report ----\n");
    std::printf("cycles             %" PRIu64 " (traffic generated until %" PRIu64 ", measured from %" PRIu64 ")\n",
                now_, gen_end_, cfg_.warmup);
    std::printf("packets            %" PRIu64 " delivered of %" PRIu64 " generated, %" PRIu64 " flits delivered\n",
                delivered_, generated_, delivered_flits_);
    std::printf("latency (cycles)   head injected -> tail delivered: mean %.1f  p50 %" PRIu64 "  p90 %" PRIu64
                "  p99 %" PRIu64 "  max %" PRIu64 "  (%zu packets)\n",
                lat_.mean(), lat_.percentile(50), lat_.percentile(90), lat_.percentile(99), lat_.max(), lat_.count());
    std::printf("                   with source queueing: mean %.1f  p99 %" PRIu64 "\n", lat_total_.mean(),
                lat_total_.percentile(99));
    if (denom > 0)
        std::printf("throughput         offered %.3f  accepted %.3f flits/node/cycle\n", win_flits_in_ / denom,
                    win_flits_out_ / denom);
    // link utilisation over present links
    struct L {
        double u;
        int node, port;
    };
    std::vector<L> links;
    for (int n = 0; n < topo_.n; n++)
        for (int p = 0; p < 6; p++)
            if (topo_.port_present(p))
                links.push_back({window ? static_cast<double>(link_flits_[static_cast<size_t>(n) * 6 + p]) / window : 0.0,
                                 n, p});
    if (!links.empty() && window) {
        double mn = 1e9, mx = 0, sum = 0;
        for (const auto &l : links) {
            mn = std::min(mn, l.u);
            mx = std::max(mx, l.u);
            sum += l.u;
        }
        std::printf("link utilisation   min %.3f  mean %.3f  max %.3f  (%zu links, flits/cycle)\n", mn,
                    sum / links.size(), mx, links.size());
        std::sort(links.begin(), links.end(), [](const L &a, const L &b) { return a.u > b.u; });
        std::printf("busiest links     ");
        for (size_t i = 0; i < links.size() && i < 5; i++)
            std::printf(" %s %s %.3f%s", topo_.name(links[i].node).c_str(), port_name(links[i].port), links[i].u,
                        i + 1 < std::min<size_t>(links.size(), 5) ? "," : "");
        std::printf("\n");
    }
    if (cfg_.diag && diag_cycles_) {
        // network outputs (present ports) and the local ones apart
        // a packet holds its ports from the cycle after its head: a held cycle
        // without a flit is a gap in a packet
        double held[2] = {0, 0}, flits[2] = {0, 0}, heads[2] = {0, 0}, in[2] = {0, 0};
        int cnt[2] = {0, 0};
        for (int n = 0; n < topo_.n; n++)
            for (int p = 0; p < 7; p++) {
                if (p < 6 && !topo_.port_present(p)) continue;
                int k = p == 6 ? 1 : 0;
                size_t i = static_cast<size_t>(n) * 7 + p;
                held[k] += static_cast<double>(diag_held_[i]) / diag_cycles_;
                flits[k] += static_cast<double>(diag_flits_[i]) / diag_cycles_;
                heads[k] += static_cast<double>(diag_heads_[i]) / diag_cycles_;
                in[k] += static_cast<double>(diag_in_[i]) / diag_cycles_;
                cnt[k]++;
            }
        for (int k = 0; k < 2; k++)
            if (cnt[k])
                std::printf("router %-11s output sending %.3f (heads %.3f), gaps in packets %.3f; input "
                            "forwarding %.3f\n",
                            k ? "local ports" : "net ports", flits[k] / cnt[k], heads[k] / cnt[k],
                            (held[k] + heads[k] - flits[k]) / cnt[k], in[k] / cnt[k]);
    }
    uint64_t errs[4] = {0, 0, 0, 0};
    for (int n = 0; n < topo_.n; n++)
        for (int k = 0; k < 4; k++) errs[k] += err_field(n, k);
    std::printf("router drops       dst %" PRIu64 "  len %" PRIu64 "  vc %" PRIu64 "  route %" PRIu64 "\n", errs[0],
                errs[1], errs[2], errs[3]);
    if (KOLO_REAL_LINKS) link_report(false);
    std::printf("scoreboard         injected %" PRIu64 ", delivered %" PRIu64 ", hops checked %" PRIu64
                ", errors %" PRIu64 ", pending %" PRIu64 "\n",
                ms.injected, ms.delivered, ms.hops_checked, ms.errors, kolo_model_pending(model_));
    if (cfg_.isolated && fit_n_ >= 2) {
        double d = fit_n_ * fit_sxx_ - fit_sx_ * fit_sx_;
        if (d > 0) {
            double b = (fit_n_ * fit_sxy_ - fit_sx_ * fit_sy_) / d, a = (fit_sy_ - b * fit_sx_) / fit_n_;
            std::printf("zero-load fit      latency = %.2f + %.3f * hops cycles (link latency %d)\n", a, b,
                        KOLO_LINK_LATENCY);
        }
    }
    std::printf("simulation         %" PRIu64 " cycles in %.1f s (%.0f cycles/s)\n", now_, wall,
                wall > 0 ? now_ / wall : 0.0);
}

void TorusBench::write_csv() {
    struct stat st;
    bool fresh = stat(cfg_.csv.c_str(), &st) != 0 || st.st_size == 0;
    FILE *f = std::fopen(cfg_.csv.c_str(), "a");
    if (!f) {
        std::fprintf(stderr, "tb_torus: cannot write %s\n", cfg_.csv.c_str());
        return;
    }
    if (fresh)
        std::fprintf(f, "label,pattern,offered,accepted,lat_mean,lat_p50,lat_p90,lat_p99,lat_max,lat_total_mean,"
                        "packets,deadlock\n");
    uint64_t window = gen_end_ > cfg_.warmup ? gen_end_ - cfg_.warmup : 0;
    double denom = static_cast<double>(window) * topo_.n;
    std::fprintf(f, "%s,%s,%.4f,%.4f,%.2f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.2f,%zu,%d\n",
                 cfg_.label.c_str(), traffic_.describe().c_str(), denom > 0 ? win_flits_in_ / denom : 0.0,
                 denom > 0 ? win_flits_out_ / denom : 0.0, lat_.mean(), lat_.percentile(50), lat_.percentile(90),
                 lat_.percentile(99), lat_.max(), lat_total_.mean(), lat_.count(), deadlock_ ? 1 : 0);
    std::fclose(f);
}

// --bench=metric:name,... -> lines "BENCH <name> <value> <unit>"
void TorusBench::print_bench(double wall) {
    uint64_t window = gen_end_ > cfg_.warmup ? gen_end_ - cfg_.warmup : 0;
    double denom = static_cast<double>(window) * topo_.n;
    double slope = 0, icpt = 0;
    double d = fit_n_ * fit_sxx_ - fit_sx_ * fit_sx_;
    if (fit_n_ >= 2 && d > 0) {
        slope = (fit_n_ * fit_sxy_ - fit_sx_ * fit_sy_) / d;
        icpt = (fit_sy_ - slope * fit_sx_) / fit_n_;
    }
    (void)icpt;
    for (const auto &item : split(cfg_.bench, ',')) {
        auto kv = split(item, ':');
        if (kv.size() != 2) continue;
        const std::string &m = kv[0], &name = kv[1];
        if (m == "accepted") std::printf("BENCH %s %.4f flits/node/cycle\n", name.c_str(), denom > 0 ? win_flits_out_ / denom : 0.0);
        else if (m == "lat_mean") std::printf("BENCH %s %.2f cycles\n", name.c_str(), lat_.mean());
        else if (m == "lat_p99") std::printf("BENCH %s %" PRIu64 " cycles\n", name.c_str(), lat_.percentile(99));
        else if (m == "cycles_per_hop") std::printf("BENCH %s %.3f cycles\n", name.c_str(), slope);
        else if (m == "router_pipeline") std::printf("BENCH %s %.3f cycles\n", name.c_str(), slope - KOLO_LINK_LATENCY);
        else if (m == "link_latency") std::printf("BENCH %s %d cycles\n", name.c_str(), KOLO_LINK_LATENCY);
        else if (m == "sim_speed") std::printf("BENCH %s %.0f cycles/s\n", name.c_str(), wall > 0 ? now_ / wall : 0.0);
        else std::fprintf(stderr, "tb_torus: unknown bench metric '%s'\n", m.c_str());
    }
}

}  // namespace

int main(int argc, char **argv) {
    Options o("tb_torus", "kolo " + std::to_string(KOLO_DIM_X) + "x" + std::to_string(KOLO_DIM_Y) + "x" +
                              std::to_string(KOLO_DIM_Z) + " torus (VC_DEPTH " + std::to_string(KOLO_VC_DEPTH) +
                              ", BUBBLE " + std::to_string(KOLO_BUBBLE) + ", link latency " +
                              std::to_string(KOLO_LINK_LATENCY) +
                              ") under generated traffic, checked against the reference model.");
    o.add("seed", "", "random seed (default: from the clock; printed at start)");
    o.add("pattern", "uniform", "traffic mix: name[:weight],... of uniform transpose bitcomp hotspot neighbor");
    o.add("rate", "0.1", "offered load in flits/node/cycle (Bernoulli per cycle), or 'sat' (a packet always waiting)");
    o.add("packets", "2000", "packets to generate in all (0 = no limit, then --cycles)");
    o.add("cycles", "0", "stop generating after this cycle (0 = no limit)");
    o.add("warmup", "0", "cycles excluded from latency and throughput statistics");
    o.add("ordered", "0.5", "fraction of ordered (deterministic, VC class 0) packets");
    o.add("vnet1", "0.5", "fraction of packets on virtual network 1 (responses)");
    o.add("len", "0-8", "payload flits: lo-hi uniform, or a,b,c one of them (0..32)");
    o.add("ops", "0-11", "operation codes: lo-hi");
    o.add("hotspot-frac", "0.25", "hotspot pattern: fraction of packets to the hotspot node");
    o.add("hotspot-node", "-1", "hotspot node index (default: the middle of the torus)");
    o.add("bp", "0", "ejection backpressure: probability a flit's credit is held back");
    o.add("bp-delay", "8", "ejection backpressure: most cycles a credit is held back");
    o.add("watchdog", "3000", "fail when packets are pending and no flit moved for this many cycles (0 = off)");
    o.add("expect-deadlock", "0", "pass only if the watchdog fires (shows that the check bites)");
    o.add("isolated", "0", "zero load: one packet in the whole network at a time");
    o.add("max-cycles", "5000000", "fail after this many cycles in all");
    o.add("drain", "1", "after traffic stops, wait until every packet is delivered and check the end state");
    o.add("drain-max", "0", "give up draining after this many cycles (0 = watchdog only)");
    o.add("no-fail", "0", "benchmark mode: report, but exit 0 even when a check failed");
    o.add("report", "1", "print the report at the end");
    o.add("progress", "0", "print progress every N cycles (0 = off)");
    o.add("csv", "", "append one line of results to this CSV file");
    o.add("label", "", "label of the CSV line");
    o.add("bench", "", "print BENCH lines: metric:name,... (accepted lat_mean lat_p99 cycles_per_hop router_pipeline link_latency sim_speed)");
    o.add("inj-spread", "0", "inject on both VCs of a vnet (ordered packets: chosen by destination, so a flow keeps one)");
    o.add("inj-per-vc", "0", "endpoints queue packets per VC and serve the VCs round robin (as the NI)");
    o.add("diag", "0", "report how busy the routers' ports are (held by a packet, sending, forwarding)");
    o.add("ber", "0", "bit error rate on every lane (builds with real links only)");
    o.add("cut", "", "CYCLE:NODE:PORT - break both lanes of that link at CYCLE (real links only; node index, port 0..5)");
    o.add("trace-start", "2000", "FST window start cycle (waves builds only)");
    o.add("trace-cycles", "2000", "FST window length in cycles (waves builds only)");
    o.add("trace-file", "", "write an FST waveform of the window here (waves builds only)");
    int code = kExitPass;
    if (!o.parse(argc, argv, &code)) return code;
    Verilated::commandArgs(argc, argv);

    Config c;
    c.seed = pick_seed(o.str("seed"));
    c.mix = o.str("pattern");
    c.saturate = o.str("rate") == "sat";
    if (!c.saturate) {
        c.rate = o.real("rate");
        if (c.rate < 0) o.bad("rate", o.str("rate"));
    }
    c.packets = static_cast<uint64_t>(o.integer("packets"));
    c.cycles = static_cast<uint64_t>(o.integer("cycles"));
    if (!c.packets && !c.cycles) {
        std::fprintf(stderr, "tb_torus: give --packets or --cycles (both 0 would never stop)\n");
        return kExitUsage;
    }
    c.warmup = static_cast<uint64_t>(o.integer("warmup"));
    c.ordered = o.real("ordered");
    c.vnet1 = o.real("vnet1");
    std::string e;
    if (!c.len.parse(o.str("len"), &e)) {
        std::fprintf(stderr, "tb_torus: %s\n", e.c_str());
        return kExitUsage;
    }
    {
        auto ops = split(o.str("ops"), '-');
        c.op_lo = std::atoi(ops[0].c_str());
        c.op_hi = ops.size() > 1 ? std::atoi(ops[1].c_str()) : c.op_lo;
        if (c.op_lo < 0 || c.op_hi > 15 || c.op_lo > c.op_hi) o.bad("ops", o.str("ops"));
    }
    c.bp = o.real("bp");
    c.bp_delay = static_cast<int>(o.integer("bp-delay"));
    c.hotspot_frac = o.real("hotspot-frac");
    c.hotspot_node = static_cast<int>(o.integer("hotspot-node"));
    c.watchdog = static_cast<uint64_t>(o.integer("watchdog"));
    c.expect_deadlock = o.flag("expect-deadlock");
    c.isolated = o.flag("isolated");
    c.max_cycles = static_cast<uint64_t>(o.integer("max-cycles"));
    c.drain = o.flag("drain");
    c.drain_max = static_cast<uint64_t>(o.integer("drain-max"));
    c.no_fail = o.flag("no-fail");
    c.report = o.flag("report");
    c.progress = static_cast<uint64_t>(o.integer("progress"));
    c.csv = o.str("csv");
    c.label = o.str("label");
    c.bench = o.str("bench");
    c.trace_start = static_cast<uint64_t>(o.integer("trace-start"));
    c.trace_cycles = static_cast<uint64_t>(o.integer("trace-cycles"));
    c.trace_file = o.str("trace-file");
    c.diag = o.flag("diag");
    c.inj_per_vc = o.flag("inj-per-vc");
    c.inj_spread = o.flag("inj-spread");
    c.ber = o.real("ber");
    if (c.ber < 0 || c.ber > 0.01) o.bad("ber", o.str("ber"));
    if (!o.str("cut").empty()) {
        long long at;
        int node, port;
        if (std::sscanf(o.str("cut").c_str(), "%lld:%d:%d", &at, &node, &port) != 3 || at < 0 || node < 0 ||
            port < 0 || port > 5)
            o.bad("cut", o.str("cut"));
        c.cut_at = at;
        c.cut_node = node;
        c.cut_port = port;
    }
    if (c.ber > 0 && !KOLO_REAL_LINKS) {
        std::fprintf(stderr, "tb_torus: --ber needs a build with real links (tb-torus-<cfg>_rl)\n");
        return kExitUsage;
    }
#ifndef KOLO_TRACE
    if (!c.trace_file.empty()) {
        std::fprintf(stderr, "tb_torus: this build has no tracing; use `make waves TEST=<name>`\n");
        return kExitUsage;
    }
#endif

    TorusBench tb(c);
    std::printf("tb_torus %dx%dx%d VC_DEPTH=%d BUBBLE=%d %s\n", KOLO_DIM_X, KOLO_DIM_Y, KOLO_DIM_Z, KOLO_VC_DEPTH,
                KOLO_BUBBLE, KOLO_REAL_LINKS ? "REAL_LINKS (kolo_link, 1 lane)" :
                ("LINK_LATENCY=" + std::to_string(KOLO_LINK_LATENCY)).c_str());
    std::printf("seed %" PRIu64 " (replay with SEED=%" PRIu64 ")\n", c.seed, c.seed);
    std::printf("traffic %s, rate %s, %s%" PRIu64 " packets, ordered %.2f, vnet1 %.2f, payload %s flits%s%s\n",
                c.mix.c_str(), o.str("rate").c_str(), c.packets ? "" : "unlimited ", c.packets, c.ordered, c.vnet1,
                o.str("len").c_str(), c.bp > 0 ? ", ejection backpressure" : "", c.isolated ? ", isolated packets" : "");
    std::fflush(stdout);
    int rc = tb.run();
    std::fflush(stdout);
    return rc;
}
