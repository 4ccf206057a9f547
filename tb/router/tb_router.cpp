// tb_router.cpp - Verilator test of ONE kolo_router placed at a node of a
// configurable torus; the harness plays all seven neighbours.
//
// Length (~1440 lines): the seven neighbour models, the traffic generator,
// the scoreboard and the option parser of one harness; the pieces shared with
// the torus test are already in tb/common, the rest is used by this test only.
//
// The router (tb/router/tb_router_top.v) takes its node id, ring sizes and
// enabled ports from the run-time inputs cfg_*, so one binary tests every
// configuration: --dims=4x4x4 --node=1,2,1, --dims=1x1x8 --node=0,0,5, ...
//
// Inputs. Every input port in use (enabled network ports and the local port)
// gets packets on all four VCs, flits of different VCs interleaved with random
// gaps, each packet started only when its VC holds credits for all of it
// (virtual cut-through, as an upstream router does) and never a flit without a
// credit. A packet arriving on network input q left the upstream router
// U = neighbour(q) through U's port q^1, so its header must be one U could have
// produced: the harness draws a route state rs_U, keeps it only if q^1 is legal
// at U for the packet's VC class (the deterministic port kolo_route_det_port for
// class 0 and ordered packets; that or a port of kolo_route_adaptive_mask for
// class 1), and sends rs_in = kolo_route_advance(rs_U, q^1). Route states are
// random (hops 0..ring-1 either way, optional first/last steps), so U-turns,
// non-minimal paths and loopback are covered; the destination is where the path
// from this node ends (kolo_route_path). Local packets are the NI's: any route
// state; ordered on class 0, unordered on class 1 or 0.
//
// Outputs. Seven receivers with per-VC credit return (one credit per port and
// cycle) under seeded random backpressure: credits delayed a few cycles, and
// per-VC and whole-port stalls of hundreds to thousands of cycles.
//
// Checks, per packet (identified by the id in header flit 1): leaves exactly
// once; on an enabled port; in its vnet; class 0 only on the deterministic port,
// class 1 only for unordered packets on the deterministic port or an adaptive
// one; header flit 0 equal to the input's with route state
// kolo_route_advance(rs_in, out port); all other flits intact; framing (head
// first, tail last, no interleaving within a VC). Packets of one input VC leave
// in arrival order (the input buffers are FIFOs; this covers the order of
// ordered packets per (input VC, output VC)). Credits: never a flit on an output
// VC without a credit (harness mirror), the router's own counters equal the
// mirror every cycle and never flag an error, input credits returned never
// exceed the VC's buffer depth, and all credits are back at the end. Class-0
// VCs of network ports are also mirrored in packet slots (a packet owns one
// from its head until its last credit is back) and the router's slot counts
// must equal the mirror every cycle. Allocation rule: when a head leaves,
// the router's credits in that cycle (an upper bound of those at allocation)
// cover a maximum packet on class 1 and on the local port; on class 0 of a
// network port the free slots are at least 2 when the packet enters the ring
// (injection, turn, from class 1: bubble rule) and 1 when it continues in it.
// The network outputs are not registered (the torus' link register follows
// them): a flit seen there was switched in this cycle. stat_out_flits agrees,
// buffers are empty, and stat_errors is exactly what the bad packets sent
// should give.
// Coverage: packets and backpressure per input VC and output VC, and the
// 28 x 28 matrix (input port/VC -> output port/VC); with --coverage every legal
// cell must be hit (same vnet, ports in use), every legal input VC must have
// waited for credits and every output VC must have had less room than a
// maximum packet needs there (short_of_room: credits for 35 flits, or two free
// slots on class 0 of a network port). Part of the traffic (--directed) is
// aimed at the least exercised pair or output VC.
//
// Modes: traffic (random traffic, the above), badpkt (directed then random bad
// packets among good traffic: each must be dropped, or on network ports cut
// through as the input unit documents, and counted in the right stat_errors
// field), zeroload (latency only). Every mode first sends one packet at a time
// through the idle router and prints head-in -> head-out cycles.
#include <cinttypes>
#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "Vtb_router_top.h"
#include "kolo_route.h"
#include "kolo_rtl_bits.h"
#include "kolo_tb_traffic.h"
#include "kolo_tb_util.h"
#include "verilated.h"

using namespace kolo_tb;
using namespace kolo_rtl;

namespace {

// Parameters of tb_router_top.v (checked against the router after reset).
constexpr int kEscSlots = 3;                         // ESC_SLOTS
constexpr int kEscDepth = kEscSlots * KOLO_MAX_PKT;  // class-0 buffer of a network port
constexpr int kAdaptDepth = 128;                     // ADAPT_DEPTH
constexpr int kLocalDepth = 80;                      // LOCAL_DEPTH
constexpr int kEjectCredits = 64;
constexpr int kAsk = KOLO_MAX_PKT + 1;               // credits an output VC is asked for with
constexpr int kPorts = 7;
constexpr int kLocal = KOLO_PORT_LOCAL;
constexpr unsigned kOutReg = 0x40;                   // OUT_REG: outputs registered (the local one)
// the input buffer of port p, VC v (the credits an upstream holds), and the
// neighbour's buffer behind output port p, VC v (the router's credits)
int in_depth(int p, int v) { return p == kLocal ? kLocalDepth : (v & 1) ? kAdaptDepth : kEscDepth; }
int out_depth(int p, int v) { return p == kLocal ? kEjectCredits : (v & 1) ? kAdaptDepth : kEscDepth; }
bool slotted(int p, int v) { return p != kLocal && (v & 1) == 0; }
constexpr int kNiv = 28;
// stat_errors fields, bits [f*16 +: 16]
enum Field { F_DST = 0, F_LEN = 1, F_VC = 2, F_ROUTE = 3 };
const char *kFieldName[4] = {"dst", "len", "vc", "route"};

enum class Bad {
    None,
    Vnet,          // header vnet differs from the VC's
    LenBig,        // length field > 32
    OneFlit,       // head and tail on one flit
    DstOutside,    // a destination coordinate beyond its ring
    DstNotMe,      // route ends here, destination elsewhere
    HopsBeyond,    // hop count > ring size - 1
    FsBadPort,     // pending first step through port 6 or 7
    LsBadPort,     // pending last step through port 6 or 7
    PortDisabled,  // first/last step through a disabled port
    Short,         // tail before the declared length
    Long,          // no tail at the declared length
    HeadInside,    // a head bit inside the packet
    Stray,         // body flit with no packet open
    VnetLen,       // two reasons: vc wins
    LenDst,        // len wins
    DstRoute,      // dst wins
    Count
};
const char *bad_name(Bad b) {
    static const char *n[] = {"none",     "vnet",  "len>32", "one-flit",    "dst-outside", "dst-not-me",
                              "hops>ring", "fs-port", "ls-port", "port-disabled", "short", "long",
                              "head-inside", "stray", "vnet+len", "len+dst",     "dst+route"};
    return n[static_cast<int>(b)];
}

struct Config {
    uint64_t seed = 0;
    int dims[3] = {4, 4, 4};
    int node[3] = {1, 2, 1};
    std::string mode = "traffic";
    uint64_t packets = 20000;
    double bp = 0.3;
    int bp_delay = 8;
    double vc_stall = 0.004;   // per received flit: chance of a long stall of its VC
    double port_stall = 0.0003;  // per cycle: chance of a long stall of a whole output port
    int stall_min = 100, stall_max = 1500;
    double bad_frac = 0.1;
    double directed = 0.3;     // share of coverage-directed packets
    bool coverage = true, bench = false;
    uint64_t watchdog = 6000, max_cycles = 3000000;
};

struct Pkt {
    uint64_t id = 0;
    int in_port = 0, in_vc = 0;
    bool ordered = false;
    unsigned vnet = 0;
    uint32_t rs_in = 0;
    int det = 0;
    unsigned mask = 0;
    std::vector<Flit> flits;       // as sent
    std::vector<uint64_t> expect;  // words expected out; empty = must be dropped
    Bad bad = Bad::None;
    int field = -1;                // stat_errors field it must count in
    uint64_t seq = 0;              // order among forwarded packets of its input VC
    uint64_t t_in = 0, t_out = 0;
    bool sent = false, out = false, done = false;
    int out_port = -1, out_vc = -1;
};

struct InVc {
    std::deque<uint64_t> q;  // packet ids, in order
    size_t pos = 0;          // flits of the front packet sent
    int credits = 0;
    uint64_t bp_cycles = 0;  // cycles the front packet waited for credits
    uint64_t pkts = 0;
    uint64_t next_seq = 0, next_out_seq = 0;
    bool skip = false;       // a tail-less stray flit left the router's framing skipping
};


struct OutVc {
    std::vector<Flit> partial;
    uint64_t t_head = 0;
    uint64_t id = 0;
    bool have_id = false;
    int mirror = 0, max = 0;
    std::deque<uint64_t> ready;  // per received flit: when its credit may go back
    uint64_t hold_until = 0;
    uint64_t bp_cycles = 0;      // cycles with less room than a maximum packet
    uint64_t pkts = 0, flits = 0;
    int m_sa = 0;               // credits the router held when this cycle's flit was switched
    int head_m_sa = 0;          // ... when the head of the open packet was
    bool returned_now = false;  // a credit went back in the last cycle
    // class 0 of network ports: packets owning a slot, oldest first, with the
    // credits still owed for each
    std::deque<int> owed;
    int head_owned = 0;         // packets owning slots when the open packet's head was switched
    bool slot_released_now = false;
    bool short_of_room() const {
        return slotted_ ? static_cast<int>(owed.size()) > kEscSlots - 2 : mirror < kAsk;
    }
    bool slotted_ = false;
};

class RouterBench {
  public:
    explicit RouterBench(const Config &c)
        : cfg_(c), topo_(c.dims[0], c.dims[1], c.dims[2]), rng_(c.seed), bprng_(mix64(c.seed ^ 0xb9b9)) {}
    int run();

  private:
    // ---- setup and clock ----
    void setup();
    void tick();
    bool port_used(int p) const { return p == kLocal || ((port_en_ >> p) & 1); }
    // ---- packets ----
    uint32_t random_rs();
    uint32_t legal_upstream_rs(int pu, bool det_only);
    int random_enabled_port() {
        return en_ports_[rng_.below(en_ports_.size())];
    }
    bool find_route(int q, int cls, bool ordered, int target, bool strict, uint32_t *rs_out, uint16_t *dst_out);
    int pick_target(int q);
    int pick_len();
    bool make_good(int q, int v, int target, int len, int ordered_sel, Pkt *p, bool strict = false);
    bool make_directed(int q, Pkt *p);
    bool make_bad(int q, int v, Bad b, Pkt *p);
    void build_flits(Pkt *p, uint64_t h0, uint64_t h1, int n_words);
    void enqueue(Pkt &&p);
    std::vector<Bad> applicable_bad() const;
    // ---- per cycle ----
    bool cycle();
    bool observe();
    void drive();
    bool on_flit(int port, const Flit &f);
    bool head_check(int port, int vc);
    bool tail_check(int port, int vc);
    void generate();
    bool idle() const;
    bool run_until_idle(uint64_t limit, const char *what);
    // ---- phases ----
    bool zero_load();
    bool traffic_phase(bool with_bad);
    bool directed_bad();
    bool final_checks();
    void probe_disabled();
    // ---- report ----
    void print_coverage(bool *ok);
    void dump_state();
    uint16_t err_field(int f) const {
        return static_cast<uint16_t>(sig_get(top_->stat_errors, static_cast<unsigned>(f * 16), 16));
    }
    bool fail(const std::string &m) {
        if (fail_.empty()) fail_ = "cycle " + std::to_string(now_) + ": " + m;
        return false;
    }
    std::string pkt_str(const Pkt &p) const {
        char b[256];
        std::snprintf(b, sizeof b, "packet %#" PRIx64 " (in %s vc%d, %s, rs_in %#x, det %s, mask %#x, %zu flits%s%s)",
                      p.id, port_name(p.in_port), p.in_vc, p.ordered ? "ordered" : "unordered", p.rs_in,
                      port_name(p.det), p.mask, p.flits.size(), p.bad != Bad::None ? ", bad " : "",
                      p.bad != Bad::None ? bad_name(p.bad) : "");
        return b;
    }

    Config cfg_;
    Topo topo_;
    Rng rng_, bprng_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vtb_router_top> top_;
    uint16_t me_ = 0;
    unsigned port_en_ = 0;
    std::vector<int> en_ports_;   // enabled network ports
    std::vector<int> used_;       // ports in use: enabled network ports and local
    std::unordered_map<uint64_t, Pkt> pkts_;
    InVc in_[kPorts][4];
    OutVc out_[kPorts][4];
    unsigned out_rr_[kPorts] = {0, 0, 0, 0, 0, 0, 0};
    uint64_t out_port_flits_[kPorts] = {0, 0, 0, 0, 0, 0, 0};
    uint64_t pair_[kNiv][kNiv] = {};
    uint64_t now_ = 0, last_activity_ = 0;
    uint64_t id_base_ = 0, next_id_ = 0;
    uint64_t outstanding_ = 0;     // packets expected at an output, not yet complete
    uint64_t generated_ = 0, delivered_ = 0, dropped_sent_ = 0;
    uint64_t expect_err_[4] = {0, 0, 0, 0};
    uint64_t bad_sent_[static_cast<int>(Bad::Count)] = {};
    // generation state (traffic phase)
    bool generating_ = false, gen_bad_ = false, stalls_ = false;
    uint64_t gen_limit_ = 0, bad_until_ = 0, next_phase_ = 0;
    double rate_[kPorts] = {}, gap_[kPorts] = {};
    LatencyStats lat_;
    std::vector<std::string> zl_lines_;
    int zl_net_ = -1;  // network -> network head latency
    std::string fail_;
};

// ---------------------------------------------------------------------------
void RouterBench::setup() {
    kolo_coord c;
    for (int d = 0; d < 3; d++) c.c[d] = static_cast<uint8_t>(cfg_.node[d]);
    me_ = kolo_node_id(c);
    for (int p = 0; p < 6; p++)
        if (topo_.port_present(p)) {
            port_en_ |= 1u << p;
            en_ports_.push_back(p);
        }
    for (int p = 0; p < kPorts; p++)
        if (port_used(p)) used_.push_back(p);
    id_base_ = (mix64(cfg_.seed) & 0xffffull) << 32;
    for (int p = 0; p < kPorts; p++)
        for (int v = 0; v < 4; v++) {
            out_[p][v].max = out_[p][v].mirror = out_depth(p, v);
            out_[p][v].slotted_ = slotted(p, v);
            in_[p][v].credits = in_depth(p, v);
        }

    ctx_.reset(new VerilatedContext);
    top_.reset(new Vtb_router_top(ctx_.get()));
    top_->cfg_node_id = me_;
    top_->cfg_dim_m1 = static_cast<uint16_t>(((topo_.size[2] - 1) << 8) | ((topo_.size[1] - 1) << 4) |
                                             (topo_.size[0] - 1));
    top_->cfg_port_en = static_cast<uint8_t>(port_en_);
    top_->port_down = 0;  // links up (the down-port drop: tb_router_down.cpp)
    top_->in_valid = 0;
    sig_clear(top_->in_flit);
    top_->out_credit_valid = 0;
    top_->out_credit_vc = 0;
    top_->clk = 0;
    top_->rst = 1;
    top_->eval();  // settle with clk low before the first rising edge
    for (int i = 0; i < 5; i++) tick();
    top_->rst = 0;
    top_->eval();
}

void RouterBench::tick() {
    top_->clk = 1;
    top_->eval();
    top_->clk = 0;
    top_->eval();
}

// ---- route states -------------------------------------------------------------
uint32_t RouterBench::random_rs() {
    uint32_t rs = 0;
    for (int d = 0; d < 3; d++) {
        int n = topo_.size[d];
        if (n > 1 && !rng_.chance(0.35)) rs = kolo_rs_set_hops(rs, d, 1 + static_cast<unsigned>(rng_.below(n - 1)));
        if ((kolo_rs_hops(rs, d) || rng_.chance(0.1)) && rng_.chance(0.5)) rs |= KOLO_RS_SIGN(d);
    }
    if (rng_.chance(0.15))
        rs |= KOLO_RS_FS_VALID | static_cast<uint32_t>(random_enabled_port()) << KOLO_RS_FS_PORT_SHIFT;
    if (rng_.chance(0.15))
        rs |= KOLO_RS_LS_VALID | static_cast<uint32_t>(random_enabled_port()) << KOLO_RS_LS_PORT_SHIFT;
    return rs;
}

// A random route state with which an upstream router may leave through port
// pu: as its first step, as a productive hop (for det_only with every
// direction before pu's in the order +X +Y +Z -X -Y -Z cleared), or as its last step.
uint32_t RouterBench::legal_upstream_rs(int pu, bool det_only) {
    uint32_t rs = random_rs();
    int d = KOLO_PORT_DIM(pu), minus = KOLO_PORT_MINUS(pu);
    switch (rng_.below(3)) {
    case 0:
        rs = (rs & ~(7u << KOLO_RS_FS_PORT_SHIFT)) | KOLO_RS_FS_VALID | static_cast<uint32_t>(pu) << KOLO_RS_FS_PORT_SHIFT;
        break;
    case 1:
        rs &= ~KOLO_RS_FS_VALID;
        rs = kolo_rs_set_hops(rs, d, 1 + static_cast<unsigned>(rng_.below(static_cast<uint64_t>(topo_.size[d] - 1))));
        rs = minus ? (rs | KOLO_RS_SIGN(d)) : (rs & ~KOLO_RS_SIGN(d));
        if (det_only)
            for (int k = 0; k < minus * 3 + d; k++) {  // directions before pu's
                int d2 = k % 3, m2 = k / 3;
                if (kolo_rs_minus(rs, d2) == m2) rs = kolo_rs_set_hops(rs, d2, 0);
            }
        break;
    default:
        rs &= ~KOLO_RS_FS_VALID;
        for (int d2 = 0; d2 < 3; d2++) rs = kolo_rs_set_hops(rs, d2, 0);
        rs = (rs & ~(7u << KOLO_RS_LS_PORT_SHIFT)) | KOLO_RS_LS_VALID | static_cast<uint32_t>(pu) << KOLO_RS_LS_PORT_SHIFT;
        break;
    }
    return rs;
}

// A route state for a packet entering on port q in VC class cls that an
// upstream router (or, on the local port, the NI) could have produced; with
// target >= 0, one that allows leaving through target (retries, then anything);
// strict: one whose only choice is target (deterministic port, no other adaptive one).
bool RouterBench::find_route(int q, int cls, bool ordered, int target, bool strict, uint32_t *rs_out,
                             uint16_t *dst_out) {
    kolo_hop hops[KOLO_PATH_MAX];
    for (int tries = 0; tries < 4000; tries++) {
        uint32_t rs;
        if (q == kLocal) {
            rs = random_rs();
        } else {
            int pu = q ^ 1;  // the port the upstream router left through
            uint32_t ru = (tries & 1) ? legal_upstream_rs(pu, cls == 0 || ordered) : random_rs();
            int det = kolo_route_det_port(ru);
            unsigned m = kolo_route_adaptive_mask(ru);
            bool legal = det == pu || (cls == 1 && !ordered && ((m >> pu) & 1u));
            if (!legal) continue;
            rs = kolo_route_advance(ru, pu);
        }
        int det = kolo_route_det_port(rs);
        unsigned m = kolo_route_adaptive_mask(rs) & port_en_;
        bool hit = target < 0 || det == target || (!ordered && ((m >> target) & 1u));
        if (strict && target >= 0) hit = det == target && !(m & ~(1u << target));
        if (!hit && tries < 3000) continue;
        int n = kolo_route_path(&topo_.t, me_, rs, hops, KOLO_PATH_MAX);
        if (n <= 0) continue;
        *rs_out = rs;
        *dst_out = hops[n - 1].node;
        return true;
    }
    return false;
}

int RouterBench::pick_target(int q) {
    // from the local port: loopback (source = destination) now and then
    if (q == kLocal) return rng_.chance(0.12) ? kLocal : random_enabled_port();
    int n = static_cast<int>(en_ports_.size()) + 1;
    int k = static_cast<int>(rng_.below(static_cast<uint64_t>(n)));
    return k == n - 1 ? kLocal : en_ports_[k];
}

int RouterBench::pick_len() {
    double r = rng_.uniform();
    if (r < 0.3) return rng_.range(0, 2);
    if (r < 0.8) return rng_.range(3, 12);
    return rng_.range(13, KOLO_MAX_PAYLOAD);
}

void RouterBench::build_flits(Pkt *p, uint64_t h0, uint64_t h1, int n_words) {
    p->flits.clear();
    for (int i = 0; i < n_words; i++) {
        Flit f;
        f.data = i == 0 ? h0 : i == 1 ? h1 : payload_word(p->id, i - 2);
        f.vc = static_cast<unsigned>(p->in_vc);
        f.head = i == 0;
        f.tail = i == n_words - 1;
        p->flits.push_back(f);
    }
}

static uint64_t make_h0(uint16_t dst, uint16_t src, unsigned op, unsigned vnet, unsigned len, bool ordered,
                        uint32_t rs) {
    return static_cast<uint64_t>(dst & 0xfff) | static_cast<uint64_t>(src & 0xfff) << 12 |
           static_cast<uint64_t>(op & 0xf) << 24 | static_cast<uint64_t>(vnet & 1) << 28 |
           static_cast<uint64_t>(len & 0x3f) << 29 | static_cast<uint64_t>(ordered ? 1 : 0) << 35 |
           static_cast<uint64_t>(rs & KOLO_RS_MASK) << 36;
}

// ordered_sel: -1 random, 0/1 forced (class 0 only)
bool RouterBench::make_good(int q, int v, int target, int len, int ordered_sel, Pkt *p, bool strict) {
    int cls = v & 1;
    p->id = (id_base_ + ++next_id_) & KOLO_MODEL_ID_MASK;
    p->in_port = q;
    p->in_vc = v;
    p->vnet = static_cast<unsigned>(v >> 1);
    p->ordered = cls == 0 && (ordered_sel < 0 ? rng_.chance(0.5) : ordered_sel != 0);
    if (target == -2) target = pick_target(q);
    uint16_t dst;
    if (!find_route(q, cls, p->ordered, target, strict, &p->rs_in, &dst))
        return fail("no legal route state found for input " + std::string(port_name(q)));
    p->det = kolo_route_det_port(p->rs_in);
    p->mask = kolo_route_adaptive_mask(p->rs_in) & port_en_;
    if (len < 0) len = pick_len();
    uint16_t src = q == kLocal ? me_ : topo_.id[rng_.below(static_cast<uint64_t>(topo_.n))];
    uint64_t h0 = make_h0(dst, src, static_cast<unsigned>(rng_.below(16)), p->vnet, static_cast<unsigned>(len),
                          p->ordered, p->rs_in);
    uint64_t h1 = p->id | rng_.next() << 48;
    build_flits(p, h0, h1, len + 2);
    for (const auto &f : p->flits) p->expect.push_back(f.data);
    return true;
}

// Coverage-directed packet for input port q: aimed at the least exercised
// (input VC -> output VC) pair of q, or at the output VC that ran short of room
// least often. Aiming picks the input VC, the output port and whether the packet
// is ordered; the router still makes its own choices.
bool RouterBench::make_directed(int q, Pkt *p) {
    int v = 0, port = 0, w = 0;
    if (rng_.chance(0.5)) {
        uint64_t best = ~0ull;
        int ties = 0;
        for (int vi = 0; vi < 4; vi++)
            for (int po : used_)
                for (int wo = 0; wo < 4; wo++) {
                    if ((vi >> 1) != (wo >> 1)) continue;
                    uint64_t n = pair_[q * 4 + vi][po * 4 + wo];
                    if (n < best) best = n, ties = 0;
                    if (n == best && rng_.below(static_cast<uint64_t>(++ties)) == 0) v = vi, port = po, w = wo;
                }
    } else {
        uint64_t best = ~0ull;
        int ties = 0;
        for (int po : used_)
            for (int wo = 0; wo < 4; wo++) {
                uint64_t n = out_[po][wo].bp_cycles;
                if (n < best) best = n, ties = 0;
                if (n == best && rng_.below(static_cast<uint64_t>(++ties)) == 0) port = po, w = wo;
            }
        v = (w & 2) | static_cast<int>(rng_.below(2));
    }
    // class 0 out: ordered when the input VC allows it, else an unordered packet
    // whose only port is the target (class 0 is then the fallback);
    // class 1 out: unordered
    int ordered_sel = (w & 1) ? 0 : ((v & 1) ? 0 : (rng_.chance(0.7) ? 1 : 0));
    bool strict = (w & 1) == 0;
    return make_good(q, v, port, -1, ordered_sel, p, strict);
}

std::vector<Bad> RouterBench::applicable_bad() const {
    std::vector<Bad> v;
    for (int b = 1; b < static_cast<int>(Bad::Count); b++) {
        Bad k = static_cast<Bad>(b);
        if (k == Bad::PortDisabled && en_ports_.size() == 6) continue;
        v.push_back(k);
    }
    return v;
}

// A bad packet for input (q, v): a legal one, then broken in one (or two) ways.
bool RouterBench::make_bad(int q, int v, Bad b, Pkt *p) {
    int len = pick_len();
    if (b == Bad::Short && len == 0) len = rng_.range(1, KOLO_MAX_PAYLOAD);
    if (b == Bad::Long && len > 30) len = rng_.range(0, 30);
    if (!make_good(q, v, -2, len, -1, p)) return false;
    p->bad = b;
    p->expect.clear();
    uint64_t h0 = p->flits[0].data, h1 = p->flits[1].data;
    bool net = q != kLocal;  // network ports cut through: length errors go on, header errors stop
    auto set_len = [](uint64_t h, unsigned l) { return (h & ~(0x3full << 29)) | static_cast<uint64_t>(l & 0x3f) << 29; };
    auto set_dst = [](uint64_t h, uint16_t d) { return (h & ~0xfffull) | (d & 0xfffu); };
    auto flip_vnet = [](uint64_t h) { return h ^ (1ull << 28); };
    // a destination coordinate beyond its ring
    auto dst_outside = [&](uint64_t h) {
        std::vector<int> dims;
        for (int d = 0; d < 3; d++)
            if (topo_.size[d] < 16) dims.push_back(d);
        int d = dims[rng_.below(dims.size())];
        uint16_t dst = static_cast<uint16_t>(h & 0xfff);
        dst = static_cast<uint16_t>((dst & ~(0xfu << (4 * d))) | (rng_.range(topo_.size[d], 15) << (4 * d)));
        return set_dst(h, dst);
    };
    // a hop count beyond its ring; destination in the torus, route does not eject here
    auto hops_beyond = [&](uint64_t h) {
        std::vector<int> dims;
        for (int d = 0; d < 3; d++)
            if (topo_.size[d] < 16) dims.push_back(d);
        int d = dims[rng_.below(dims.size())];
        uint32_t rs = h0_rs(h) & ~KOLO_RS_FS_VALID;
        rs = kolo_rs_set_hops(rs, d, static_cast<unsigned>(rng_.range(topo_.size[d], 15)));
        return h0_with_rs(h, rs);
    };
    auto big_len = [&](uint64_t h) { return set_len(h, static_cast<unsigned>(rng_.range(33, 63))); };
    auto other_node = [&]() {
        uint16_t d;
        do d = topo_.id[rng_.below(static_cast<uint64_t>(topo_.n))];
        while (d == me_);
        return d;
    };
    int n_words = static_cast<int>(p->flits.size());
    switch (b) {
    case Bad::Vnet: h0 = flip_vnet(h0); p->field = F_VC; break;
    case Bad::VnetLen: h0 = big_len(flip_vnet(h0)); p->field = F_VC; break;
    case Bad::LenBig: h0 = big_len(h0); n_words = rng_.range(2, 12); p->field = F_LEN; break;
    case Bad::LenDst: h0 = dst_outside(big_len(h0)); n_words = rng_.range(2, 12); p->field = F_LEN; break;
    case Bad::OneFlit: n_words = 1; p->field = F_LEN; break;
    case Bad::DstOutside: h0 = dst_outside(h0); p->field = F_DST; break;
    case Bad::DstRoute: h0 = hops_beyond(dst_outside(h0)); p->field = F_DST; break;
    case Bad::DstNotMe: {
        uint32_t rs = 0;
        for (int d = 0; d < 3; d++)
            if (rng_.chance(0.2)) rs |= KOLO_RS_SIGN(d);
        h0 = set_dst(h0_with_rs(h0, rs), other_node());
        p->field = F_DST;
        break;
    }
    case Bad::HopsBeyond: h0 = hops_beyond(h0); p->field = F_ROUTE; break;
    case Bad::FsBadPort: {
        unsigned port = rng_.chance(0.5) ? 6 : 7;
        uint32_t rs = (h0_rs(h0) & ~(7u << KOLO_RS_FS_PORT_SHIFT)) | KOLO_RS_FS_VALID | port << KOLO_RS_FS_PORT_SHIFT;
        h0 = h0_with_rs(h0, rs);
        if (port == 6) h0 = set_dst(h0, me_);  // det = local: a foreign dst would count as dst first
        p->field = F_ROUTE;
        break;
    }
    case Bad::LsBadPort: {
        unsigned port = rng_.chance(0.5) ? 6 : 7;
        uint32_t rs = KOLO_RS_LS_VALID | port << KOLO_RS_LS_PORT_SHIFT;
        h0 = h0_with_rs(h0, rs);
        if (port == 6) h0 = set_dst(h0, me_);
        p->field = F_ROUTE;
        break;
    }
    case Bad::PortDisabled: {
        std::vector<int> dis;
        for (int q2 = 0; q2 < 6; q2++)
            if (!((port_en_ >> q2) & 1)) dis.push_back(q2);
        unsigned port = static_cast<unsigned>(dis[rng_.below(dis.size())]);
        uint32_t rs = rng_.chance(0.5)
                          ? ((h0_rs(h0) & ~(7u << KOLO_RS_FS_PORT_SHIFT)) | KOLO_RS_FS_VALID | port << KOLO_RS_FS_PORT_SHIFT)
                          : (KOLO_RS_LS_VALID | port << KOLO_RS_LS_PORT_SHIFT);
        h0 = h0_with_rs(h0, rs);
        p->field = F_ROUTE;
        break;
    }
    case Bad::Short:
        n_words = rng_.range(2, len + 1);
        p->field = F_LEN;
        break;
    case Bad::Long:
        n_words = len + 2 + rng_.range(1, 8);
        p->field = F_LEN;
        break;
    case Bad::HeadInside: p->field = F_LEN; break;
    case Bad::Stray: p->field = F_LEN; break;
    default: break;
    }
    if (b == Bad::Stray) {
        Flit f;
        f.data = rng_.next();
        f.vc = static_cast<unsigned>(v);
        f.head = false;
        f.tail = rng_.chance(0.5);
        p->flits.assign(1, f);
        return true;
    }
    build_flits(p, h0, h1, n_words);
    if (b == Bad::HeadInside) p->flits[static_cast<size_t>(rng_.range(1, n_words - 1))].head = true;
    if (net) {
        // cut-through ports forward what they cannot drop any more (kolo_router_input)
        if (b == Bad::Short || b == Bad::HeadInside)
            for (const auto &f : p->flits) p->expect.push_back(f.data);
        if (b == Bad::Long)
            for (int i = 0; i < len + 2; i++) p->expect.push_back(p->flits[static_cast<size_t>(i)].data);
    }
    return true;
}

void RouterBench::enqueue(Pkt &&p) {
    InVc &iv = in_[p.in_port][p.in_vc];
    if (!p.expect.empty()) {
        p.seq = iv.next_seq++;
        outstanding_++;
    }
    iv.q.push_back(p.id);
    uint64_t id = p.id;
    pkts_.emplace(id, std::move(p));
    generated_++;
}

// ---- one cycle: observe the router's outputs, drive its inputs, clock ------------
bool RouterBench::cycle() {
    if (!observe()) return false;
    generate();
    if (!fail_.empty()) return false;
    drive();
    tick();
    now_++;
    if (now_ - last_activity_ > cfg_.watchdog && !idle()) {
        bool holding = false;
        for (int p : used_)
            for (int v = 0; v < 4; v++)
                if (out_[p][v].hold_until > now_) holding = true;
        if (!holding) {
            dump_state();
            return fail("watchdog: work pending and nothing moved for " + std::to_string(cfg_.watchdog) + " cycles");
        }
    }
    if (now_ > cfg_.max_cycles) return fail("no end after --max-cycles");
    return true;
}

bool RouterBench::observe() {
    // credits the router returns on its inputs
    for (int q = 0; q < kPorts; q++) {
        if (!((top_->in_credit_valid >> q) & 1)) continue;
        last_activity_ = now_;
        unsigned v = static_cast<unsigned>(sig_get(top_->in_credit_vc, static_cast<unsigned>(q * 2), 2));
        if (!port_used(q)) return fail(std::string("credit returned on unused input port ") + port_name(q));
        if (++in_[q][v].credits > in_depth(q, static_cast<int>(v)))
            return fail(std::string("input ") + port_name(q) + " vc" + std::to_string(v) +
                        ": router returned more credits than its buffer holds (" + std::to_string(in_[q][v].credits) + ")");
    }
    // flits on the outputs; m_sa = the router's credits in the cycle they were
    // switched: this cycle on an unregistered output, the last one on a
    // registered one (before the credit returned in the last cycle)
    for (int p = 0; p < kPorts; p++)
        for (int v = 0; v < 4; v++) {
            bool reg = (kOutReg >> p) & 1;
            out_[p][v].m_sa = out_[p][v].mirror - (reg && out_[p][v].returned_now ? 1 : 0);
        }
    unsigned sent_now[kPorts] = {};  // VCs (bit mask) with a flit seen now
    unsigned head_now[kPorts] = {};
    for (int p = 0; p < kPorts; p++) {
        if (!((top_->out_valid >> p) & 1)) continue;
        last_activity_ = now_;
        Flit f = flit_get(top_->out_flit, static_cast<unsigned>(p));
        sent_now[p] |= 1u << f.vc;
        if (f.head) head_now[p] |= 1u << f.vc;
        if (!on_flit(p, f)) return false;
    }
    // the router's credit counters against the mirror
    uint32_t err = top_->mon_credit_error;
    if (err) return fail("router credit counter error flag set (bit " + std::to_string(__builtin_ctz(err)) + ")");
    // (a flit seen now on an unregistered output is in the router's counts
    // only from the next cycle on)
    for (int p = 0; p < kPorts; p++)
        for (int v = 0; v < 4; v++) {
            bool now_in = !((kOutReg >> p) & 1);
            int c = static_cast<int>(sig_get(top_->mon_out_credits, static_cast<unsigned>((p * 4 + v) * 8), 8));
            OutVc &o = out_[p][v];
            int want = o.mirror + ((now_in && ((sent_now[p] >> v) & 1)) ? 1 : 0);
            if (c != want)
                return fail(std::string("output ") + port_name(p) + " vc" + std::to_string(v) + ": router holds " +
                            std::to_string(c) + " credits, the neighbour's view is " + std::to_string(want));
            if (o.slotted_) {
                int slots = static_cast<int>(sig_get(top_->mon_slots, static_cast<unsigned>(p * 8 + (v >> 1) * 4), 4));
                int owned = static_cast<int>(o.owed.size()) - ((now_in && ((head_now[p] >> v) & 1)) ? 1 : 0);
                if (slots != kEscSlots - owned)
                    return fail(std::string("output ") + port_name(p) + " vc" + std::to_string(v) + ": router has " +
                                std::to_string(slots) + " free packet slots, the neighbour's view is " +
                                std::to_string(kEscSlots - owned));
            }
            if (o.short_of_room()) o.bp_cycles++;
        }
    return true;
}

bool RouterBench::on_flit(int p, const Flit &f) {
    if (!port_used(p)) return fail(std::string("flit on disabled output port ") + port_name(p));
    OutVc &o = out_[p][f.vc];
    std::string where = std::string("output ") + port_name(p) + " vc" + std::to_string(f.vc);
    if (o.mirror <= 0) return fail(where + ": flit sent without a credit");
    o.mirror--;
    o.flits++;
    out_port_flits_[p]++;
    // this flit's credit: returned at once, after a short delay, or after a stall
    uint64_t ready = now_;
    if (stalls_ && bprng_.chance(cfg_.bp)) ready += 1 + bprng_.below(static_cast<uint64_t>(cfg_.bp_delay));
    if (!o.ready.empty() && o.ready.back() > ready) ready = o.ready.back();
    o.ready.push_back(ready);
    if (stalls_ && bprng_.chance(cfg_.vc_stall))
        o.hold_until = std::max(o.hold_until, now_ + static_cast<uint64_t>(bprng_.range(cfg_.stall_min, cfg_.stall_max)));
    if (f.head) {
        if (!o.partial.empty())
            return fail(where + ": head flit while a packet is open (" + std::to_string(o.partial.size()) + " flits, id " +
                        (o.have_id ? std::to_string(o.id) : std::string("?")) + ")");
        o.t_head = now_;
        o.head_m_sa = o.m_sa;
        o.head_owned = static_cast<int>(o.owed.size());
        o.have_id = false;
        if (o.slotted_) o.owed.push_back(static_cast<int>(h0_len(f.data)) + 2);
    } else if (o.partial.empty()) {
        return fail(where + ": body flit without a head");
    }
    o.partial.push_back(f);
    if (o.partial.size() == 2 && !head_check(p, static_cast<int>(f.vc))) return false;
    if (f.tail) {
        if (o.partial.size() < 2) return fail(where + ": one-flit packet");
        // a packet cut short upstream leaves as it is: its slot is owed only
        // the flits that really left
        if (o.slotted_) {
            int declared = static_cast<int>(h0_len(o.partial.front().data)) + 2;
            o.owed.back() -= declared - static_cast<int>(o.partial.size());
            if (o.owed.back() <= 0) return fail(where + ": harness bug: slot of a short packet over-credited");
        }
        if (!tail_check(p, static_cast<int>(f.vc))) return false;
        o.partial.clear();
        o.have_id = false;
    }
    return true;
}

bool RouterBench::head_check(int port, int vc) {
    OutVc &o = out_[port][vc];
    uint64_t id = h1_addr(o.partial[1].data);
    std::string where = std::string("output ") + port_name(port) + " vc" + std::to_string(vc);
    auto it = pkts_.find(id);
    if (it == pkts_.end()) return fail(where + ": unknown packet id " + std::to_string(id));
    Pkt &p = it->second;
    o.id = id;
    o.have_id = true;
    if (p.expect.empty()) return fail(where + ": " + pkt_str(p) + " should have been dropped");
    if (p.out) return fail(where + ": " + pkt_str(p) + " left twice (first on " + port_name(p.out_port) + ")");
    p.out = true;
    p.out_port = port;
    p.out_vc = vc;
    p.t_out = o.t_head;
    // routing rules
    if (static_cast<unsigned>(vc >> 1) != p.vnet) return fail(where + ": " + pkt_str(p) + " changed virtual network");
    if ((vc & 1) == 0) {
        if (port != p.det) return fail(where + ": " + pkt_str(p) + " on class 0 but not on its deterministic port");
    } else {
        if (p.ordered) return fail(where + ": ordered " + pkt_str(p) + " on class 1");
        if (port != p.det && !((p.mask >> port) & 1u))
            return fail(where + ": " + pkt_str(p) + " on class 1 through a port neither deterministic nor adaptive");
    }
    // Allocation rule: the output VC was given only with room for a maximum
    // packet (virtual cut-through: credits for 34 flits), and on class 0 of a
    // network port with a free packet slot, two when the packet enters the
    // ring (bubble rule: injection, turn, or from class 1). No flit used the
    // VC between its allocation and this head, and credits only came back, so
    // the counts in the switch cycle bound those at allocation from above.
    {
        bool continuing = p.in_port != kLocal && port == (p.in_port ^ 1) && (p.in_vc & 1) == 0;
        if (o.slotted_) {
            int need = continuing ? 1 : 2;
            if (kEscSlots - o.head_owned < need)
                return fail(where + ": " + pkt_str(p) + " allocated with " + std::to_string(kEscSlots - o.head_owned) +
                            " free packet slots, needs " + std::to_string(need) +
                            (continuing ? " (continuing in its ring)" : " (bubble rule: entering a ring)"));
        } else if (o.head_m_sa < KOLO_MAX_PKT) {
            return fail(where + ": " + pkt_str(p) + " allocated with at most " + std::to_string(o.head_m_sa) +
                        " credits, needs " + std::to_string(KOLO_MAX_PKT) + " (a maximum packet)");
        }
    }
    // header flit 0: route state advanced as kolo_route_advance does
    uint64_t want = h0_with_rs(p.expect[0], kolo_route_advance(p.rs_in, port));
    if (o.partial[0].data != want) {
        char b[160];
        std::snprintf(b, sizeof b, ": header flit 0 %#018" PRIx64 ", expected %#018" PRIx64 " (rs %#x -> %#x)",
                      o.partial[0].data, want, h0_rs(o.partial[0].data), h0_rs(want));
        return fail(where + ": " + pkt_str(p) + b);
    }
    // order of the input VC (FIFO)
    InVc &iv = in_[p.in_port][p.in_vc];
    if (p.seq != iv.next_out_seq)
        return fail(where + ": " + pkt_str(p) + " left out of order: number " + std::to_string(p.seq) +
                    " of its input VC, expected number " + std::to_string(iv.next_out_seq));
    iv.next_out_seq++;
    pair_[p.in_port * 4 + p.in_vc][port * 4 + vc]++;
    o.pkts++;
    return true;
}

bool RouterBench::tail_check(int port, int vc) {
    OutVc &o = out_[port][vc];
    Pkt &p = pkts_.at(o.id);
    std::string where = std::string("output ") + port_name(port) + " vc" + std::to_string(vc) + ": " + pkt_str(p);
    if (o.partial.size() != p.expect.size())
        return fail(where + ": " + std::to_string(o.partial.size()) + " flits out, expected " +
                    std::to_string(p.expect.size()));
    for (size_t i = 1; i < o.partial.size(); i++)
        if (o.partial[i].data != p.expect[i]) {
            char b[128];
            std::snprintf(b, sizeof b, ": flit %zu is %#018" PRIx64 ", expected %#018" PRIx64, i, o.partial[i].data,
                          p.expect[i]);
            return fail(where + b);
        }
    p.done = true;
    outstanding_--;
    delivered_++;
    if (p.bad == Bad::None) lat_.add(now_ - p.t_in);
    p.expect.resize(1);  // keep "expected out" for the duplicate check
    if (p.sent) std::vector<Flit>().swap(p.flits);  // a long packet may still be sending
    return true;
}

void RouterBench::drive() {
    top_->in_valid = 0;
    top_->out_credit_valid = 0;
    top_->out_credit_vc = 0;
    for (int q : used_) {
        // input side: one flit per port, VCs interleaved
        int cand[4], nc = 0;
        for (int v = 0; v < 4; v++) {
            InVc &iv = in_[q][v];
            if (iv.q.empty()) continue;
            const Pkt &p = pkts_.at(iv.q.front());
            if (iv.pos > 0) cand[nc++] = v;  // credits reserved at the head (one packet per VC)
            else if (iv.credits >= static_cast<int>(p.flits.size())) cand[nc++] = v;
            else iv.bp_cycles++;
        }
        if (nc > 0 && !(gap_[q] > 0 && rng_.chance(gap_[q]))) {
            int v = cand[rng_.below(static_cast<uint64_t>(nc))];
            InVc &iv = in_[q][v];
            Pkt &p = pkts_.at(iv.q.front());
            if (iv.credits <= 0) {
                fail("harness bug: no credit");
                return;
            }
            const Flit &f = p.flits[iv.pos];
            flit_set(top_->in_flit, static_cast<unsigned>(q), f);
            top_->in_valid |= static_cast<uint8_t>(1u << q);
            iv.credits--;
            last_activity_ = now_;
            if (iv.pos == 0) {
                p.t_in = now_;
                iv.pkts++;
            }
            // router framing for stray flits: skipping after a tail-less stray until a head or tail
            bool counts = !(p.bad == Bad::Stray && iv.skip);
            if (p.bad == Bad::Stray) iv.skip = !f.tail;
            else if (f.head || f.tail) iv.skip = false;
            iv.pos++;
            if (iv.pos == p.flits.size()) {
                iv.q.pop_front();
                iv.pos = 0;
                p.sent = true;
                if (p.field >= 0 && counts) expect_err_[p.field]++;
                if (p.bad != Bad::None) bad_sent_[static_cast<int>(p.bad)]++;
                if (p.expect.empty()) dropped_sent_++;
                if (p.done || p.expect.empty()) std::vector<Flit>().swap(p.flits);
            }
        }
    }
    // output side: one credit per port and cycle
    for (int p = 0; p < kPorts; p++)
        for (int v = 0; v < 4; v++) out_[p][v].returned_now = false;
    for (int p : used_) {
        if (stalls_ && bprng_.chance(cfg_.port_stall)) {
            uint64_t until = now_ + static_cast<uint64_t>(bprng_.range(cfg_.stall_min, cfg_.stall_max));
            for (int v = 0; v < 4; v++) out_[p][v].hold_until = std::max(out_[p][v].hold_until, until);
        }
        for (int v = 0; v < 4; v++)
            if (stalls_ && bprng_.chance(cfg_.port_stall))
                out_[p][v].hold_until = std::max(out_[p][v].hold_until,
                                                 now_ + static_cast<uint64_t>(bprng_.range(cfg_.stall_min, cfg_.stall_max)));
        for (int k = 0; k < 4; k++) {
            int v = static_cast<int>((out_rr_[p] + k) % 4);
            OutVc &o = out_[p][v];
            if (o.ready.empty() || o.ready.front() > now_ || o.hold_until > now_) continue;
            o.ready.pop_front();
            o.mirror++;
            o.returned_now = true;
            if (o.slotted_) {
                if (o.owed.empty()) {
                    fail("harness bug: credit of a class-0 VC with no packet owning a slot");
                    return;
                }
                if (--o.owed.front() == 0) o.owed.pop_front();
            }
            top_->out_credit_valid |= static_cast<uint8_t>(1u << p);
            sig_set(top_->out_credit_vc, static_cast<unsigned>(p * 2), 2, static_cast<uint64_t>(v));
            out_rr_[p] = static_cast<unsigned>(v + 1);
            last_activity_ = now_;
            break;
        }
    }
}

void RouterBench::generate() {
    if (!generating_) return;
    if (generated_ >= gen_limit_) {
        generating_ = false;
        return;
    }
    if (now_ >= next_phase_) {
        static const double rates[] = {0.0, 0.02, 0.1, 0.3, 1.0, 1.0};
        static const double gaps[] = {0.0, 0.0, 0.1, 0.4};
        for (int q : used_) {
            rate_[q] = rates[rng_.below(6)];
            gap_[q] = gaps[rng_.below(4)];
        }
        next_phase_ = now_ + static_cast<uint64_t>(rng_.range(300, 3000));
    }
    std::vector<Bad> kinds = gen_bad_ ? applicable_bad() : std::vector<Bad>();
    for (int q : used_) {
        if (generated_ >= gen_limit_) break;
        if (!rng_.chance(rate_[q])) continue;
        int v = static_cast<int>(rng_.below(4));
        Pkt p;
        bool ok;
        if (gen_bad_ && generated_ < bad_until_ && rng_.chance(cfg_.bad_frac)) {
            if (in_[q][v].q.size() >= 4) continue;
            ok = make_bad(q, v, kinds[rng_.below(kinds.size())], &p);
        } else if (rng_.chance(cfg_.directed)) {
            ok = make_directed(q, &p);
            if (ok && in_[q][p.in_vc].q.size() >= 4) continue;  // that VC is full: drop the idea
        } else {
            if (in_[q][v].q.size() >= 4) continue;
            ok = make_good(q, v, -2, -1, -1, &p);
        }
        if (!ok) return;
        enqueue(std::move(p));
    }
}

bool RouterBench::idle() const {
    if (generating_ || outstanding_) return false;
    for (int p = 0; p < kPorts; p++)
        for (int v = 0; v < 4; v++) {
            if (!in_[p][v].q.empty() || !out_[p][v].ready.empty() || !out_[p][v].partial.empty()) return false;
        }
    return true;
}

bool RouterBench::run_until_idle(uint64_t limit, const char *what) {
    uint64_t start = now_;
    while (!idle()) {
        if (!cycle()) return false;
        if (limit && now_ - start > limit) return fail(std::string(what) + ": not done after " + std::to_string(limit) + " cycles");
    }
    // credits in flight back to the inputs, nothing else moving
    for (int i = 0; i < 8; i++)
        if (!cycle()) return false;
    return true;
}

// ---- zero load: one packet at a time through the idle router -----------------------
// Latency = cycle the harness drives the head on an input -> cycle the head is
// on the output (out_valid). Through a torus a hop adds the ideal link
// (kolo_link_ideal LATENCY = 1: the output register's flit reaches the next
// router's input one cycle later), so cycles per hop = router latency + 1.
bool RouterBench::zero_load() {
    struct Case {
        int q, target;
        const char *kind;
    };
    std::vector<Case> cases;
    for (int q : en_ports_) {
        cases.push_back({q, q ^ 1, "straight"});
        for (int t : en_ports_)
            if ((t >> 1) != (q >> 1)) {
                cases.push_back({q, t, "turn"});
                break;
            }
        cases.push_back({q, kLocal, "eject"});
    }
    for (int t : en_ports_) cases.push_back({kLocal, t, "inject"});
    std::printf("zero load: head in -> head out, cycles (len 0, one packet in the router)\n");
    int net_min = -1, net_max = -1;
    for (const auto &c : cases) {
        for (int cls = 1; cls >= 0; cls--) {
            Pkt p;
            // class 1 unordered, then class 0 ordered; force the deterministic port
            uint32_t rs;
            uint16_t dst;
            if (!make_good(c.q, cls, c.target, 0, cls == 0 ? 1 : 0, &p)) return false;
            unsigned other = ~(1u << c.target);
            if (p.det != c.target || (p.mask & other)) {
                // a route whose only choice is the target (no other adaptive port)
                bool found = false;
                for (int k = 0; k < 200 && !found; k++) {
                    if (!find_route(c.q, cls, cls == 0, c.target, true, &rs, &dst)) break;
                    if (kolo_route_det_port(rs) == c.target && !(kolo_route_adaptive_mask(rs) & port_en_ & other))
                        found = true;
                }
                if (!found) continue;
                p.rs_in = rs;
                p.det = c.target;
                p.mask = kolo_route_adaptive_mask(rs) & port_en_;
                uint64_t h0 = (h0_with_rs(p.flits[0].data, rs) & ~0xfffull) | dst;
                p.flits[0].data = h0;
                p.expect[0] = h0;
            }
            uint64_t id = p.id;
            enqueue(std::move(p));
            if (!run_until_idle(2000, "zero-load packet")) return false;
            const Pkt &r = pkts_.at(id);
            int lat = static_cast<int>(r.t_out - r.t_in);
            char b[160];
            std::snprintf(b, sizeof b, "  %-2s -> %-2s %-8s vc%d: %d", port_name(c.q), port_name(r.out_port), c.kind,
                          r.out_vc, lat);
            zl_lines_.push_back(b);
            if (c.q != kLocal && r.out_port != kLocal) {
                net_min = net_min < 0 ? lat : std::min(net_min, lat);
                net_max = std::max(net_max, lat);
            }
        }
    }
    for (size_t i = 0; i < zl_lines_.size(); i++)
        std::printf("%-34s%s", zl_lines_[i].c_str(), (i % 3 == 2 || i + 1 == zl_lines_.size()) ? "\n" : "");
    if (net_min >= 0) {
        std::printf("zero load network -> network: %d..%d cycles in the router, %d per hop with the 1-cycle ideal link"
                    " (local input: the head waits for the tail, LOCAL_WHOLE_PKT)\n",
                    net_min, net_max, net_max + 1);
        zl_net_ = net_max;
    }
    return true;
}

// ---- random traffic ------------------------------------------------------------------
bool RouterBench::traffic_phase(bool with_bad) {
    generating_ = true;
    gen_bad_ = with_bad;
    stalls_ = true;
    gen_limit_ = generated_ + cfg_.packets;
    bad_until_ = generated_ + cfg_.packets * 7 / 10;  // the last 30 % are good only
    next_phase_ = now_;
    uint64_t start = now_;
    while (generating_) {
        if (!cycle()) return false;
    }
    uint64_t gen_end = now_;
    stalls_ = false;  // let the last stalls run out, start no new ones
    if (!run_until_idle(0, "drain")) return false;
    std::printf("traffic: %" PRIu64 " cycles (%" PRIu64 " generating, %" PRIu64 " draining)\n", now_ - start,
                gen_end - start, now_ - gen_end);
    return true;
}

// ---- bad packets, one at a time: only the expected field may move -------------------
bool RouterBench::directed_bad() {
    std::vector<Bad> kinds = applicable_bad();
    int checked = 0;
    for (Bad b : kinds)
        for (int q : used_) {
            for (int rep = 0; rep < 2; rep++) {
                int v = static_cast<int>(rng_.below(4));
                uint16_t before[4];
                for (int f = 0; f < 4; f++) before[f] = err_field(f);
                uint64_t exp_before[4];
                for (int f = 0; f < 4; f++) exp_before[f] = expect_err_[f];
                // a good packet on another VC of the same port around it, and one after it on the same VC
                Pkt g1, bp, g2;
                if (!make_good(q, (v + 1 + static_cast<int>(rng_.below(3))) % 4, -2, -1, -1, &g1)) return false;
                if (!make_bad(q, v, b, &bp)) return false;
                if (!make_good(q, v, -2, -1, -1, &g2)) return false;
                std::string desc = pkt_str(bp);
                enqueue(std::move(g1));
                enqueue(std::move(bp));
                enqueue(std::move(g2));
                if (!run_until_idle(5000, "directed bad packet")) return false;
                for (int i = 0; i < 20; i++)
                    if (!cycle()) return false;
                for (int f = 0; f < 4; f++) {
                    int got = err_field(f) - before[f];
                    int want = static_cast<int>(expect_err_[f] - exp_before[f]);
                    if (got != want)
                        return fail("bad packet " + std::string(bad_name(b)) + " on " + port_name(q) + " vc" +
                                    std::to_string(v) + ": stat_errors." + kFieldName[f] + " moved by " +
                                    std::to_string(got) + ", expected " + std::to_string(want) + " [" + desc + "]");
                }
                checked++;
            }
        }
    std::printf("directed bad packets: %d checked one at a time (%zu kinds x %zu input ports x 2), each counted in "
                "its own field only, good packets before and after delivered\n",
                checked, kinds.size(), used_.size());
    return true;
}

// ---- end of run --------------------------------------------------------------------
bool RouterBench::final_checks() {
    for (const auto &kv : pkts_) {
        const Pkt &p = kv.second;
        if (!p.expect.empty() && !p.done) return fail(pkt_str(p) + " never left the router");
        if (p.expect.empty() && p.out) return fail(pkt_str(p) + " should have been dropped");
    }
    for (int p = 0; p < kPorts; p++)
        for (int v = 0; v < 4; v++) {
            std::string w = std::string(port_name(p)) + " vc" + std::to_string(v);
            if (in_[p][v].credits != in_depth(p, v))
                return fail("input " + w + ": " + std::to_string(in_[p][v].credits) + " credits at the end, expected " +
                            std::to_string(in_depth(p, v)));
            int c = static_cast<int>(sig_get(top_->mon_out_credits, static_cast<unsigned>((p * 4 + v) * 8), 8));
            if (c != out_[p][v].max || out_[p][v].mirror != out_[p][v].max)
                return fail("output " + w + ": router holds " + std::to_string(c) + " credits at the end, expected " +
                            std::to_string(out_[p][v].max));
            unsigned occ = static_cast<unsigned>(sig_get(top_->dbg_vc_occ, static_cast<unsigned>((p * 4 + v) * 8), 8));
            unsigned route = static_cast<unsigned>(sig_get(top_->dbg_vc_route, static_cast<unsigned>((p * 4 + v) * 6), 6));
            if (occ) return fail("input " + w + ": " + std::to_string(occ) + " flits left in the buffer");
            if (route & 0x20) return fail("input " + w + ": still holds an output VC");
        }
    for (int p = 0; p < kPorts; p++) {
        uint32_t n = static_cast<uint32_t>(sig_get(top_->stat_out_flits, static_cast<unsigned>(p * 32), 32));
        if (n != static_cast<uint32_t>(out_port_flits_[p]))
            return fail(std::string("stat_out_flits[") + port_name(p) + "] = " + std::to_string(n) + ", received " +
                        std::to_string(out_port_flits_[p]));
    }
    for (int f = 0; f < 4; f++)
        if (err_field(f) != static_cast<uint16_t>(expect_err_[f]))
            return fail(std::string("stat_errors.") + kFieldName[f] + " = " + std::to_string(err_field(f)) +
                        ", expected " + std::to_string(expect_err_[f]));
    return true;
}

// a count in five characters: " 1234", " 123k", " 123M"
static std::string num5(uint64_t n) {
    char b[16];
    if (n < 10000) std::snprintf(b, sizeof b, " %4" PRIu64, n);
    else if (n < 1000000) std::snprintf(b, sizeof b, " %3" PRIu64 "k", n / 1000);
    else std::snprintf(b, sizeof b, " %3" PRIu64 "M", std::min<uint64_t>(n / 1000000, 999));
    return b;
}

void RouterBench::print_coverage(bool *ok) {
    auto legal_vc = [&](int p) { return port_used(p); };
    std::printf("---- coverage: packets per input port/vc -> output port/vc ('.' other vnet or unused port, '!' legal, "
                "never seen) ----\n");
    std::printf("(in: packets, cycles a packet waited for credits; out: packets, cycles with less room than a maximum "
                "packet needs: credits for 35 flits, or two free slots on class 0 of a network port)\n");
    std::printf("%-26s", "in \\ out");
    for (int p = 0; p < kPorts; p++) std::printf("|%-2s v0   v1   v2   v3 ", port_name(p));
    std::printf("\n");
    int pairs = 0, pairs_hit = 0, in_ok = 0, in_n = 0, out_ok = 0, out_n = 0;
    std::vector<std::string> missing;
    for (int q = 0; q < kPorts; q++)
        for (int v = 0; v < 4; v++) {
            const InVc &iv = in_[q][v];
            if (!legal_vc(q) && !iv.pkts) continue;  // unused input port: no row
            std::printf("%-2s vc%d %s pk %s bp   ", port_name(q), v, num5(iv.pkts).c_str(), num5(iv.bp_cycles).c_str());
            for (int p = 0; p < kPorts; p++) {
                std::printf("|");
                for (int w = 0; w < 4; w++) {
                    bool legal = legal_vc(q) && legal_vc(p) && (v >> 1) == (w >> 1);
                    uint64_t n = pair_[q * 4 + v][p * 4 + w];
                    if (!legal) std::printf("%s", n ? " ?!? " : "   . ");
                    else if (!n) std::printf("    !");
                    else std::printf("%s", num5(n).c_str());
                    if (legal) {
                        pairs++;
                        if (n) pairs_hit++;
                        else if (missing.size() < 12)
                            missing.push_back(std::string(port_name(q)) + "/vc" + std::to_string(v) + "->" +
                                              port_name(p) + "/vc" + std::to_string(w));
                    }
                }
                std::printf(" ");
            }
            std::printf("\n");
            if (legal_vc(q)) {
                in_n++;
                if (iv.pkts && iv.bp_cycles) in_ok++;
                else if (missing.size() < 12)
                    missing.push_back("input " + std::string(port_name(q)) + "/vc" + std::to_string(v) +
                                      (iv.pkts ? " without backpressure" : " unused"));
            }
        }
    std::printf("%-26s", "out: packets");
    for (int p = 0; p < kPorts; p++) {
        std::printf("|");
        for (int w = 0; w < 4; w++) std::printf("%s", num5(out_[p][w].pkts).c_str());
        std::printf(" ");
    }
    std::printf("\n%-26s", "out: cycles short of room");
    for (int p = 0; p < kPorts; p++) {
        std::printf("|");
        for (int w = 0; w < 4; w++) std::printf("%s", num5(out_[p][w].bp_cycles).c_str());
        std::printf(" ");
    }
    std::printf("\n");
    for (int p = 0; p < kPorts; p++)
        for (int w = 0; w < 4; w++) {
            if (!legal_vc(p)) continue;
            out_n++;
            if (out_[p][w].pkts && out_[p][w].bp_cycles) out_ok++;
            else if (missing.size() < 12)
                missing.push_back("output " + std::string(port_name(p)) + "/vc" + std::to_string(w) +
                                  (out_[p][w].pkts ? " without backpressure" : " unused"));
        }
    std::printf("coverage: input VCs %d/%d used and backpressured, output VCs %d/%d used and backpressured, "
                "(in port/vc -> out port/vc) pairs %d/%d\n",
                in_ok, in_n, out_ok, out_n, pairs_hit, pairs);
    *ok = in_ok == in_n && out_ok == out_n && pairs_hit == pairs;
    if (!*ok) {
        std::string m;
        for (const auto &s : missing) m += " " + s;
        std::printf("not exercised:%s%s\n", m.c_str(), missing.size() >= 12 ? " ..." : "");
    }
}

void RouterBench::dump_state() {
    std::printf("---- state at cycle %" PRIu64 " (last activity %" PRIu64 ") ----\n", now_, last_activity_);
    for (int q = 0; q < kPorts; q++)
        for (int v = 0; v < 4; v++) {
            unsigned occ = static_cast<unsigned>(sig_get(top_->dbg_vc_occ, static_cast<unsigned>((q * 4 + v) * 8), 8));
            unsigned route = static_cast<unsigned>(sig_get(top_->dbg_vc_route, static_cast<unsigned>((q * 4 + v) * 6), 6));
            const InVc &iv = in_[q][v];
            if (!occ && iv.q.empty()) continue;
            std::printf("  in %-2s vc%d: %3u flits buffered%s", port_name(q), v, occ,
                        (route & 0x20) ? " allocated -> " : "");
            if (route & 0x20) std::printf("%s vc%u", port_name(static_cast<int>((route >> 2) & 7)), route & 3);
            std::printf("; harness: %zu queued, %zu flits of the front sent, %d credits\n", iv.q.size(), iv.pos,
                        iv.credits);
        }
    for (int p = 0; p < kPorts; p++)
        for (int v = 0; v < 4; v++) {
            const OutVc &o = out_[p][v];
            if (o.mirror == o.max && o.partial.empty()) continue;
            std::printf("  out %-2s vc%d: %d credits, %zu to return, %zu flits of an open packet\n", port_name(p), v,
                        o.mirror, o.ready.size(), o.partial.size());
        }
}

// A packet on a disabled input port: not a normal use (the torus ties those
// inputs off); report what the router does, do not judge it.
void RouterBench::probe_disabled() {
    int dq = -1;
    for (int q = 0; q < 6; q++)
        if (!((port_en_ >> q) & 1)) {
            dq = q;
            break;
        }
    if (dq < 0) return;
    uint16_t before[4];
    for (int f = 0; f < 4; f++) before[f] = err_field(f);
    Pkt p;
    if (!make_good(kLocal, 1, -2, 0, 0, &p)) return;
    for (int i = 0; i < 2; i++) {
        top_->in_valid = static_cast<uint8_t>(1u << dq);
        flit_set(top_->in_flit, static_cast<unsigned>(dq), p.flits[static_cast<size_t>(i)]);
        tick();
    }
    top_->in_valid = 0;
    unsigned credits = 0, outs = 0;
    for (int i = 0; i < 100; i++) {
        if ((top_->in_credit_valid >> dq) & 1) credits++;
        outs += __builtin_popcount(top_->out_valid);
        top_->out_credit_valid = top_->out_valid;  // return credits at once (same VC as sent)
        for (int q = 0; q < kPorts; q++)
            sig_set(top_->out_credit_vc, static_cast<unsigned>(q * 2), 2,
                    sig_get(top_->out_flit, static_cast<unsigned>(q * kFlitBits + 66), 2));
        tick();
    }
    top_->out_credit_valid = 0;
    std::printf("INFO disabled input port %s: a 2-flit packet sent there came out as %u flit(s), %u credit(s) "
                "returned, stat_errors dst/len/vc/route moved by %d/%d/%d/%d (no drop rule for disabled inputs)\n",
                port_name(dq), outs, credits, err_field(0) - before[0], err_field(1) - before[1],
                err_field(2) - before[2], err_field(3) - before[3]);
}

int RouterBench::run() {
    setup();
    double t0 = wall_seconds();
    std::printf("tb_router: node (%d,%d,%d) id %#05x of a %s torus, cfg_port_en %#04x, ports in use:", cfg_.node[0],
                cfg_.node[1], cfg_.node[2], me_, topo_.dims().c_str(), port_en_);
    for (int p : used_) std::printf(" %s", port_name(p));
    std::printf("\nmode %s, seed %" PRIu64 " (replay with SEED=%" PRIu64 ")\n", cfg_.mode.c_str(), cfg_.seed, cfg_.seed);
    std::fflush(stdout);
    // the harness' constants against the router's parameters
    for (int p = 0; p < kPorts && fail_.empty(); p++)
        for (int v = 0; v < 4; v++) {
            int c = static_cast<int>(sig_get(top_->mon_out_credits, static_cast<unsigned>((p * 4 + v) * 8), 8));
            if (c != out_[p][v].max) {
                fail("after reset output " + std::string(port_name(p)) + " has " + std::to_string(c) +
                     " credits: tb_router_top.v and tb_router.cpp disagree on ESC_SLOTS/ADAPT_DEPTH/EJECT_CREDITS");
                break;
            }
        }
    bool cov_ok = true;
    bool ok = fail_.empty() && zero_load();
    if (ok && cfg_.mode == "traffic") ok = traffic_phase(false);
    if (ok && cfg_.mode == "badpkt") ok = directed_bad() && traffic_phase(true);
    if (ok) ok = final_checks();
    double wall = wall_seconds() - t0;
    if (cfg_.mode != "zeroload") {
        std::printf("---- report ----\n");
        std::printf("packets  %" PRIu64 " generated, %" PRIu64 " left the router, %" PRIu64
                    " dropped as expected; %" PRIu64 " cycles, %.2f s (%.0f cycles/s)\n",
                    generated_, delivered_, dropped_sent_, now_, wall, wall > 0 ? now_ / wall : 0.0);
        if (lat_.count())
            std::printf("latency  head in -> tail out: mean %.1f p50 %" PRIu64 " p99 %" PRIu64 " max %" PRIu64 " cycles\n",
                        lat_.mean(), lat_.percentile(50), lat_.percentile(99), lat_.max());
        std::printf("stat_errors dst %u len %u vc %u route %u (expected %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
                    ")\n",
                    err_field(F_DST), err_field(F_LEN), err_field(F_VC), err_field(F_ROUTE), expect_err_[F_DST],
                    expect_err_[F_LEN], expect_err_[F_VC], expect_err_[F_ROUTE]);
        if (cfg_.mode == "badpkt") {
            std::printf("bad packets sent:");
            for (int b = 1; b < static_cast<int>(Bad::Count); b++)
                if (bad_sent_[b]) std::printf(" %s %" PRIu64, bad_name(static_cast<Bad>(b)), bad_sent_[b]);
            std::printf("\n");
        }
        print_coverage(&cov_ok);
        if (ok && cfg_.coverage && !cov_ok) {
            fail("coverage incomplete (see 'not exercised' above)");
            ok = false;
        }
    }
    if (ok && cfg_.mode == "badpkt") probe_disabled();
    if (cfg_.bench && zl_net_ >= 0) std::printf("BENCH router_zero_load_cycles_per_hop %d cycles\n", zl_net_ + 1);
    if (!fail_.empty()) {
        std::printf("FAIL: %s\nreplay: SEED=%" PRIu64 "\n", fail_.c_str(), cfg_.seed);
        return kExitFail;
    }
    std::printf("PASS\n");
    return kExitPass;
}

bool parse_triple(const std::string &s, char sep, int out[3]) {
    auto parts = split(s, sep);
    if (parts.size() != 3) return false;
    for (int i = 0; i < 3; i++) {
        char *end = nullptr;
        long v = std::strtol(parts[static_cast<size_t>(i)].c_str(), &end, 10);
        if (parts[static_cast<size_t>(i)].empty() || *end) return false;
        out[i] = static_cast<int>(v);
    }
    return true;
}

}  // namespace

int main(int argc, char **argv) {
    Options o("tb_router", "one kolo_router at a node of a torus; the harness plays all seven neighbours.");
    o.add("seed", "", "random seed (default: from the clock; printed at start)");
    o.add("dims", "4x4x4", "torus size XxYxZ (each 1..16)");
    o.add("node", "1,2,1", "the router's coordinates x,y,z");
    o.add("mode", "traffic", "traffic | badpkt | zeroload");
    o.add("packets", "20000", "packets to generate (traffic phase)");
    o.add("bp", "0.3", "chance that a received flit's credit is delayed");
    o.add("bp-delay", "8", "most cycles such a credit is delayed");
    o.add("vc-stall", "0.004", "chance per received flit that its output VC stops returning credits for a while");
    o.add("port-stall", "0.0003", "chance per cycle that a whole output port (and, apart, each output VC) stops returning credits for a while");
    o.add("stall-min", "100", "shortest long stall, cycles");
    o.add("stall-max", "1500", "longest long stall, cycles");
    o.add("bad-frac", "0.1", "badpkt mode: fraction of bad packets in the random phase");
    o.add("directed", "0.3", "share of packets aimed at the least exercised pair or output VC");
    o.add("coverage", "1", "fail unless every legal input VC, output VC and pair was exercised (traffic mode)");
    o.add("bench", "0", "print the BENCH line router_zero_load_cycles_per_hop");
    o.add("watchdog", "6000", "fail when work is pending, no stall is active and nothing moved this long");
    o.add("max-cycles", "3000000", "fail after this many cycles");
    int code = kExitPass;
    if (!o.parse(argc, argv, &code)) return code;
    Verilated::commandArgs(argc, argv);

    Config c;
    c.seed = pick_seed(o.str("seed"));
    if (!parse_triple(o.str("dims"), 'x', c.dims)) o.bad("dims", o.str("dims"));
    if (!parse_triple(o.str("node"), ',', c.node)) o.bad("node", o.str("node"));
    for (int d = 0; d < 3; d++) {
        if (c.dims[d] < 1 || c.dims[d] > 16) o.bad("dims", o.str("dims"));
        if (c.node[d] < 0 || c.node[d] >= c.dims[d]) o.bad("node", o.str("node"));
    }
    if (c.dims[0] * c.dims[1] * c.dims[2] < 2) {
        std::fprintf(stderr, "tb_router: the torus needs at least two nodes\n");
        return kExitUsage;
    }
    c.mode = o.str("mode");
    if (c.mode != "traffic" && c.mode != "badpkt" && c.mode != "zeroload") o.bad("mode", c.mode);
    c.packets = static_cast<uint64_t>(o.integer("packets"));
    c.bp = o.real("bp");
    c.bp_delay = static_cast<int>(o.integer("bp-delay"));
    c.vc_stall = o.real("vc-stall");
    c.port_stall = o.real("port-stall");
    c.stall_min = static_cast<int>(o.integer("stall-min"));
    c.stall_max = static_cast<int>(o.integer("stall-max"));
    if (c.stall_min < 1 || c.stall_max < c.stall_min) o.bad("stall-max", o.str("stall-max"));
    c.bad_frac = o.real("bad-frac");
    c.directed = o.real("directed");
    c.coverage = o.flag("coverage") && c.mode == "traffic";
    c.bench = o.flag("bench");
    c.watchdog = static_cast<uint64_t>(o.integer("watchdog"));
    c.max_cycles = static_cast<uint64_t>(o.integer("max-cycles"));
    RouterBench tb(c);
    int rc = tb.run();
    std::fflush(stdout);
    return rc;
}
