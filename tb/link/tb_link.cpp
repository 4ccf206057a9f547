// tb_link.cpp - Verilator harness of a reliable kolo link (docs/link.md): two
// link ends A and B (tb/link/tb_link_top.v) joined by C++ lane models
// (sw/rtlsim/kolo_lane_model.h), with the harness playing the router on both
// sides of both ends.
//
// Length (~1470 lines): the clock scheduler, the two router-side players,
// the packet scoreboard, the fault scenarios and the counter checks of one
// harness, which share its per-end state; the lane model is already apart
// (sw/rtlsim/kolo_lane_model.h).
//
// Clocks. Four free-running clocks, simulated as time-ordered edges in
// femtoseconds: core A (4.000 ns x (1 + ppm_a)), core B (4.000 ns x
// (1 - ppm_b)), lane A and lane B (6.4 ns for one lane, 4 x 4.0 x 1.1 = 17.6 ns
// for four, with the same ppm offset as the end's core clock; the PHY needs
// f(core) >= LANES x f(lane)). Every clock starts at a random phase. At each
// lane A edge every A->B lane model takes A's tx word and gives B's rx word
// (B's rx lane clock is A's tx lane clock, recovered), and the same for B->A.
//
// Routers. Per end, a sender with per-VC credit counters (OUT_CREDITS after
// reset) sends random packets (random VC, payload length from --len, random
// header content with the right length field, the packet id in header flit 1)
// against credits, virtual cut-through by default, interleaving packets of
// different VCs at random, with random gaps; a receiver with an
// OUT_CREDITS-flit buffer per VC that drains each flit after a random delay
// (and random stalls) and returns its credit, at most one per cycle.
//
// Scoreboard, per direction and VC: every packet delivered exactly once, in
// order, payload and header intact, head/tail/VC sideband right; a flit
// arriving at a full receive buffer fails; a credit that would take a sender
// above OUT_CREDITS fails. When the link may go down (--expect-down), a packet
// may be missing from the sequence only if it is counted as dropped: at the
// end the packets lost in a direction must not exceed the sending end's
// pkts_dropped counter, packets handed over while the end was down must not
// arrive, and packets sent after the link came back up must be delivered.
// At the end: nothing pending, every credit back (OUT_CREDITS per VC at both
// senders), receive buffers empty.
// Watchdog: packets pending and no flit or credit moved for --watchdog core
// cycles (not counting time while a lane is dead) fails with a dump of both
// ends' state and counters.
//
// Scenario checks (options): --expect-errors (the CRC/NAK/replay counters show
// that the injected errors happened and were recovered), --expect-down,
// --expect-retrain, --expect-timer-replay, --miscable (B expects another
// neighbour: stat_miscabled, no link_up; then B's configuration is corrected
// and the link must come up and carry the traffic), --expect-aborts (the
// transmitters broke off cut-through frames with ABORT blocks, docs/link.md).
// Always: a run whose lanes altered no word (no fault injected, no slip)
// must count no CRC, sequence or control error and send no NAK (an ABORT,
// the normal end of a broken-off frame, is no error).
// Benchmarks: --bench=eff|lat|rec (see --help) print "BENCH <name> <v> <unit>".
// SEED in the environment replaces --seed.
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "Vtb_link_top.h"
#include "kolo_lane_model.h"
#include "kolo_rtl_bits.h"
#include "kolo_tb_util.h"
#include "verilated.h"

using namespace kolo_tb;
using namespace kolo_rtl;
using kolo_lane::LaneModel;
using kolo_lane::Word66;

namespace {

using Top = Vtb_link_top;
#define SIGT(name) std::remove_reference_t<decltype(std::declval<Top &>().name)>

const char *const kCounterNames[16] = {"crc_errors", "seq_errors",   "naks_sent",  "naks_rcvd",
                                       "replays",    "retrains",     "lock_losses", "frames_tx",
                                       "frames_rx",  "bytes_tx",     "bytes_rx",   "pkts_dropped",
                                       "ctrl_errors", "link_downs",  "miscabled",  "rx_overflows"};
enum {
    C_CRC = 0,
    C_SEQ,
    C_NAKS_SENT,
    C_NAKS_RCVD,
    C_REPLAYS,
    C_RETRAINS,
    C_LOCK_LOSSES,
    C_FRAMES_TX,
    C_FRAMES_RX,
    C_BYTES_TX,
    C_BYTES_RX,
    C_PKTS_DROPPED,
    C_CTRL_ERR,
    C_LINK_DOWNS,
    C_MISCABLED,
    C_RX_OVF
};

constexpr uint64_t kFsPerPs = 1000;
constexpr uint64_t kCorePeriodFs = 4000 * kFsPerPs;  // nominal core clock
constexpr uint64_t kIdMask = (1ull << 40) - 1;
constexpr int kRstEdges = 12;

// ---- options -------------------------------------------------------------------
struct Window {
    uint64_t start = 0, len = 0;  // core cycles after the link first came up
    bool on = false;
};

struct Config {
    uint64_t seed = 1;
    int lanes = 1;
    // traffic
    uint64_t packets = 2000;  // per direction
    bool dir_ab = true, dir_ba = true;
    std::vector<int> lens;
    bool saturate = false;
    double rate = 0.5;  // offered flits per cycle per sender
    double gap = 0.0;
    bool vct = true;
    unsigned vc_mask = 0xf;
    int rx_delay = 4;
    double stall = 0.0;
    int stall_len = 300;
    uint64_t after_recovery = 0;
    // lanes
    unsigned delay = 8;
    uint64_t lane_ps = 0;  // lane word period override
    bool gbps = false;
    unsigned skew = 0;
    bool slip = false;
    double ppm_a = 100, ppm_b = 100;
    double ber = 0;
    bool ber_ab = true, ber_ba = true;
    Window noise;
    double noise_ber = 0;
    double burst_rate = 0;
    unsigned burst_len = 16;
    std::vector<uint64_t> burst_at;
    double drop_rate = 0, dup_rate = 0;
    Window dead;
    bool dead_ab = true, dead_ba = true;
    int dead_lane = -1;
    kolo_lane::DeadMode dead_mode = kolo_lane::DeadMode::Garbage;
    double lose_ctrl = 0;
    unsigned lose_ctrl_mask = kolo_lane::kMaskAnyControl;
    Window cut_ctrl;
    int cut_ctrl_dir = 1;  // B->A: A's ACKs
    Window data_err;
    double data_err_rate = 0;
    int data_err_dir = 0;
    // checks
    bool expect_errors = false, expect_down = false, expect_retrain = false, expect_timer_replay = false;
    bool expect_ctrl_errors = false, expect_aborts = false;
    bool miscable = false;
    uint64_t miscable_cycles = 0;
    uint64_t watchdog = 40000, max_cycles = 20000000, train_max = 0;
    bool allow_loss = false;
    // bench
    std::string bench, bench_name;
    uint64_t warmup = 5000, window = 100000, iso_packets = 200;
    uint64_t progress = 0;
    bool verbose = false;
};

// ---- packets ---------------------------------------------------------------------
struct Packet {
    uint64_t id = 0;
    unsigned vc = 0;
    std::vector<uint64_t> w;
    uint64_t t_head_fs = 0;    // head handed to the link
    uint64_t cyc_head = 0;     // sender's core cycle of the head
    unsigned flits_down = 0;   // flits handed over while the sending end was down
    bool after_recovery = false;
    bool armed = false;        // bench rec: a data block of its frame is corrupted
};

struct Dir {  // one direction of traffic: sender end s -> receiver end 1-s
    std::unordered_map<uint64_t, std::unique_ptr<Packet>> live;  // head sent, not yet delivered or lost
    std::deque<Packet *> expect[4];                                  // per VC, in sending order
    std::unordered_set<uint64_t> delivered_ids;
    uint64_t next_id = 1, generated = 0, started = 0, delivered = 0, lost = 0, flits_delivered = 0;
    uint64_t all_down = 0;      // packets handed over entirely while the sender was down
    uint64_t after_rec_sent = 0, after_rec_delivered = 0, after_rec_generated = 0;
    uint64_t lost_all_down = 0;
};

struct Sender {
    int credits[4] = {0, 0, 0, 0};
    std::deque<std::unique_ptr<Packet>> queue[4];
    std::unique_ptr<Packet> cur[4];
    size_t pos[4] = {0, 0, 0, 0};
    uint64_t flits_sent = 0, credits_rcvd = 0;
    size_t queued() const {
        size_t n = 0;
        for (int v = 0; v < 4; v++) n += queue[v].size() + (cur[v] ? 1 : 0);
        return n;
    }
};

struct Receiver {
    std::deque<uint64_t> buf[4];  // release cycle of each buffered flit
    int occ[4] = {0, 0, 0, 0};
    int max_occ[4] = {0, 0, 0, 0};
    std::vector<Flit> asm_flits[4];
    uint64_t asm_head_fs[4] = {0, 0, 0, 0};
    uint64_t stall_until[4] = {0, 0, 0, 0};
    uint64_t flits = 0;
    bool empty() const {
        for (int v = 0; v < 4; v++)
            if (!buf[v].empty() || !asm_flits[v].empty()) return false;
        return true;
    }
};

struct Ports {
    SIGT(a_tx_valid) * tx_valid;
    SIGT(a_tx_flit) * tx_flit;
    SIGT(a_tx_credit_valid) * tx_credit_valid;
    SIGT(a_tx_credit_vc) * tx_credit_vc;
    SIGT(a_rx_valid) * rx_valid;
    SIGT(a_rx_flit) * rx_flit;
    SIGT(a_rx_credit_valid) * rx_credit_valid;
    SIGT(a_rx_credit_vc) * rx_credit_vc;
    SIGT(a_link_up) * link_up;
    SIGT(a_stat_state) * stat_state;
    SIGT(a_stat_miscabled) * stat_miscabled;
    SIGT(a_stat_counters) * stat_counters;
    SIGT(a_tx_lane_data) * tx_lane_data;
    SIGT(a_rx_lane_data) * rx_lane_data;
    SIGT(a_rx_lane_slip) * rx_lane_slip;
    SIGT(a_cfg_node_id) * cfg_node_id;
    SIGT(a_cfg_port) * cfg_port;
    SIGT(a_cfg_peer_id) * cfg_peer_id;
    SIGT(a_cfg_peer_port) * cfg_peer_port;
    SIGT(rst_a) * rst;
    SIGT(a_tx_lane_rst) * tx_lane_rst;
    SIGT(a_rx_lane_rst) * rx_lane_rst;
};

struct End {
    const char *name = "A";
    Ports p{};
    Sender tx;
    Receiver rx;
    Rng rng;
    uint64_t cycle = 0;   // core clock edges so far
    bool up = false;      // link_up as last sampled
    unsigned state = 1;
    bool ever_up = false, went_down = false, ever_miscabled = false;
    uint64_t up_changes = 0;
    // credits the sender was owed when the end went down, and what came back while down
    uint64_t down_owed = 0, down_credits = 0, down_cycles = 0, down_idle = 0;
    std::string credit_check;  // what went wrong with the credits of a link down
};

struct ClockGen {
    const char *name;
    uint64_t period = 0, next = 0, edges = 0;
    bool level = false;
};

class LinkBench {
  public:
    explicit LinkBench(const Config &c) : cfg_(c), rng_(c.seed) {}
    int run();

  private:
    void setup();
    void step();
    void pre_core(int e);
    void pre_lane(int d);
    void control();  // phase logic, at core A edges
    void on_first_up();
    void generate(int e);
    void send(int e);
    void receive_flit(int e, const Flit &f);
    void deliver(int d, int vc, std::vector<Flit> &flits, uint64_t t_head_fs);
    void return_credit(int e);
    bool quiescent() const;
    void final_checks();
    void scenario_checks();
    void dump(FILE *f);
    void summary();
    void bench_report();
    uint32_t counter(int e, int i) const {
        return static_cast<uint32_t>(sig_get(*end_[e].p.stat_counters, static_cast<unsigned>(i * 32), 32));
    }
    bool fail(const std::string &m) {
        if (fail_.empty()) {
            char b[96];
            std::snprintf(b, sizeof b, "cycle %" PRIu64 " (A) / %" PRIu64 " (B), t=%.3f us: ", end_[0].cycle,
                          end_[1].cycle, now_fs_ / 1e9);
            fail_ = b + m;
        }
        return false;
    }
    uint64_t cycles_to_words(uint64_t cyc) const {
        return static_cast<uint64_t>(static_cast<double>(cyc) * kCorePeriodFs / lane_nominal_fs_);
    }
    bool dead_now() const {
        if (!cfg_.dead.on || !t_up_) return false;
        uint64_t c = end_[0].cycle;
        return c >= t_up_ + cfg_.dead.start && c < t_up_ + cfg_.dead.start + cfg_.dead.len;
    }
    bool gen_open(int e) const;
    uint64_t pending() const {
        uint64_t n = 0;
        for (const auto &d : dir_) n += d.live.size();
        return n;
    }

    Config cfg_;
    Rng rng_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Top> top_;
    End end_[2];
    Dir dir_[2];
    ClockGen clk_[4] = {{"core A"}, {"core B"}, {"lane A"}, {"lane B"}};
    std::vector<LaneModel> lane_[2];  // [d][lane], d 0 = A->B
    uint64_t now_fs_ = 0;
    uint64_t lane_nominal_fs_ = 6400 * kFsPerPs;
    int lanes_ = 1;
    int out_credits_ = 80;
    uint64_t train_budget_ = 100000, replay_timeout_ = 2048;

    enum Phase { kTrain, kMiscable, kRun, kDrain, kDone } phase_ = kTrain;
    uint64_t t_up_ = 0;            // A cycle both ends were first up
    uint64_t t_recovered_ = 0;     // A cycle both ends were up again after a link down
    bool any_down_ = false, recovered_ = false;
    uint64_t quiet_since_ = 0;
    uint64_t last_progress_ = 0, dead_cycles_ = 0;
    uint64_t misc_start_ = 0;
    bool miscable_seen_up_ = false;
    std::string fail_;
    bool watchdog_fired_ = false;

    // benchmarks
    bool measuring_ = false, measured_ = false;
    uint64_t win_t0_fs_ = 0, win_t1_fs_ = 0, win_lane_edges_ = 0, win_flits_ = 0, win_payload_ = 0;
    uint64_t win_start_cycle_ = 0;
    LatencyStats lat_clean_, lat_armed_, lat_tail_clean_, lat_from_corrupt_;
    uint64_t t_corrupt_fs_ = 0;  // bench rec: when the armed data block went onto the lane
    uint64_t iso_next_ok_ = 0;     // A cycle the next isolated packet may go
    uint64_t armed_count_ = 0, armed_hit_ = 0;
    uint64_t targeted_before_ = 0;
};

// ---- setup ---------------------------------------------------------------------------
#define BIND(e, pre)                                  \
    do {                                              \
        Ports &P = end_[e].p;                         \
        P.tx_valid = &top_->pre##_tx_valid;           \
        P.tx_flit = &top_->pre##_tx_flit;             \
        P.tx_credit_valid = &top_->pre##_tx_credit_valid; \
        P.tx_credit_vc = &top_->pre##_tx_credit_vc;   \
        P.rx_valid = &top_->pre##_rx_valid;           \
        P.rx_flit = &top_->pre##_rx_flit;             \
        P.rx_credit_valid = &top_->pre##_rx_credit_valid; \
        P.rx_credit_vc = &top_->pre##_rx_credit_vc;   \
        P.link_up = &top_->pre##_link_up;             \
        P.stat_state = &top_->pre##_stat_state;       \
        P.stat_miscabled = &top_->pre##_stat_miscabled; \
        P.stat_counters = &top_->pre##_stat_counters; \
        P.tx_lane_data = &top_->pre##_tx_lane_data;   \
        P.rx_lane_data = &top_->pre##_rx_lane_data;   \
        P.rx_lane_slip = &top_->pre##_rx_lane_slip;   \
        P.cfg_node_id = &top_->pre##_cfg_node_id;     \
        P.cfg_port = &top_->pre##_cfg_port;           \
        P.cfg_peer_id = &top_->pre##_cfg_peer_id;     \
        P.cfg_peer_port = &top_->pre##_cfg_peer_port; \
        P.tx_lane_rst = &top_->pre##_tx_lane_rst;     \
        P.rx_lane_rst = &top_->pre##_rx_lane_rst;     \
    } while (0)

constexpr unsigned kNodeA = 0x123, kPortA = 0, kNodeB = 0x124, kPortB = 1;

void LinkBench::setup() {
    ctx_.reset(new VerilatedContext);
    top_.reset(new Top(ctx_.get()));
    BIND(0, a);
    BIND(1, b);
    end_[0].p.rst = &top_->rst_a;
    end_[1].p.rst = &top_->rst_b;
    end_[0].name = "A";
    end_[1].name = "B";
    top_->eval();  // constant outputs: the build's parameters
    lanes_ = static_cast<int>(top_->p_lanes);
    out_credits_ = static_cast<int>(top_->p_out_credits);
    train_budget_ = top_->p_train_budget;
    replay_timeout_ = top_->p_replay_timeout;
    for (int e = 0; e < 2; e++) {
        End &E = end_[e];
        E.rng.reseed(mix64(cfg_.seed ^ (0xe0d0ull + static_cast<uint64_t>(e))));
        for (int v = 0; v < 4; v++) E.tx.credits[v] = out_credits_;
    }
    *end_[0].p.cfg_node_id = kNodeA;
    *end_[0].p.cfg_port = kPortA;
    *end_[0].p.cfg_peer_id = kNodeB;
    *end_[0].p.cfg_peer_port = kPortB;
    *end_[1].p.cfg_node_id = kNodeB;
    *end_[1].p.cfg_port = kPortB;
    *end_[1].p.cfg_peer_id = cfg_.miscable ? 0x555 : kNodeA;
    *end_[1].p.cfg_peer_port = kPortA;
    for (int e = 0; e < 2; e++) {
        *end_[e].p.rst = 1;
        *end_[e].p.tx_lane_rst = 1;
        *end_[e].p.rx_lane_rst = 1;
        *end_[e].p.tx_valid = 0;
        *end_[e].p.rx_credit_valid = 0;
    }
    top_->clk_a = top_->clk_b = top_->lane_clk_a = top_->lane_clk_b = 0;

    // clocks
    lane_nominal_fs_ = lanes_ == 1 ? 6400 * kFsPerPs : static_cast<uint64_t>(4.0 * 4000 * 1.1) * kFsPerPs;
    if (cfg_.lane_ps > 0) lane_nominal_fs_ = cfg_.lane_ps * kFsPerPs;
    double fa = 1.0 + cfg_.ppm_a * 1e-6, fb = 1.0 - cfg_.ppm_b * 1e-6;
    clk_[0].period = static_cast<uint64_t>(std::llround(kCorePeriodFs * fa));
    clk_[1].period = static_cast<uint64_t>(std::llround(kCorePeriodFs * fb));
    clk_[2].period = static_cast<uint64_t>(std::llround(static_cast<double>(lane_nominal_fs_) * fa));
    clk_[3].period = static_cast<uint64_t>(std::llround(static_cast<double>(lane_nominal_fs_) * fb));
    for (auto &c : clk_) c.next = 1000 * kFsPerPs + rng_.below(c.period);

    // lane models
    for (int d = 0; d < 2; d++) {
        lane_[d].clear();
        for (int l = 0; l < lanes_; l++) {
            unsigned delay = cfg_.delay + (cfg_.skew ? static_cast<unsigned>(rng_.below(cfg_.skew + 1)) : 0u);
            lane_[d].emplace_back(mix64(cfg_.seed * 31 + static_cast<uint64_t>(d * 8 + l) + 0x1a4e), delay);
            LaneModel &m = lane_[d].back();
            if (cfg_.slip) m.set_start_offset(-1);
            if ((d == 0 && cfg_.ber_ab) || (d == 1 && cfg_.ber_ba)) m.set_ber(cfg_.ber);
            if (cfg_.burst_rate > 0) m.set_bursts(cfg_.burst_rate, cfg_.burst_len);
            m.set_drop_rate(cfg_.drop_rate);
            m.set_dup_rate(cfg_.dup_rate);
            if (cfg_.lose_ctrl > 0) m.add_target(cfg_.lose_ctrl_mask, cfg_.lose_ctrl, 0, 0);
        }
    }
    top_->eval();
}

// Faults timed relative to the first link-up.
void LinkBench::on_first_up() {
    t_up_ = end_[0].cycle;
    for (int d = 0; d < 2; d++)
        for (int l = 0; l < lanes_; l++) {
            LaneModel &m = lane_[d][static_cast<size_t>(l)];
            uint64_t w0 = m.now();
            if (cfg_.noise.on) m.add_ber_window(w0 + cycles_to_words(cfg_.noise.start),
                                                cycles_to_words(cfg_.noise.len), cfg_.noise_ber);
            for (uint64_t c : cfg_.burst_at) m.schedule_burst(w0 + cycles_to_words(c), cfg_.burst_len);
            if (cfg_.dead.on && ((d == 0 && cfg_.dead_ab) || (d == 1 && cfg_.dead_ba)) &&
                (cfg_.dead_lane < 0 || cfg_.dead_lane == l))
                m.add_dead(w0 + cycles_to_words(cfg_.dead.start), cycles_to_words(cfg_.dead.len), cfg_.dead_mode);
            if (cfg_.cut_ctrl.on && d == cfg_.cut_ctrl_dir)
                m.add_target(kolo_lane::kMaskCtrl, 1.0, w0 + cycles_to_words(cfg_.cut_ctrl.start),
                             cycles_to_words(cfg_.cut_ctrl.len));
            if (cfg_.data_err.on && d == cfg_.data_err_dir)
                m.add_target(kolo_lane::kMaskData, cfg_.data_err_rate, w0 + cycles_to_words(cfg_.data_err.start),
                             cycles_to_words(cfg_.data_err.len));
        }
    last_progress_ = end_[0].cycle;
    std::printf("link up at cycle %" PRIu64 " (A) / %" PRIu64 " (B), %.2f us\n", end_[0].cycle, end_[1].cycle,
                now_fs_ / 1e9);
}

// ---- one clock event ----------------------------------------------------------------------
void LinkBench::step() {
    uint64_t t = clk_[0].next;
    for (int i = 1; i < 4; i++) t = std::min(t, clk_[i].next);
    unsigned mask = 0;
    for (int i = 0; i < 4; i++)
        if (clk_[i].next == t) mask |= 1u << i;
    now_fs_ = t;
    // sample outputs and drive inputs for this edge (values settled since the last eval)
    if (mask & 1) pre_core(0);
    if (mask & 2) pre_core(1);
    if (mask & 4) pre_lane(0);
    if (mask & 8) pre_lane(1);
    if (mask & 1) control();
    // a clock that rose at the last event and rises again needs a low phase first
    bool low = false;
    for (int i = 0; i < 4; i++)
        if ((mask >> i & 1) && clk_[i].level) low = true;
    if (low) {
        top_->clk_a = top_->clk_b = top_->lane_clk_a = top_->lane_clk_b = 0;
        top_->eval();
    }
    top_->clk_a = mask & 1;
    top_->clk_b = (mask >> 1) & 1;
    top_->lane_clk_a = (mask >> 2) & 1;
    top_->lane_clk_b = (mask >> 3) & 1;
    top_->eval();
    for (int i = 0; i < 4; i++) {
        clk_[i].level = (mask >> i) & 1;
        if (mask >> i & 1) {
            clk_[i].next += clk_[i].period;
            clk_[i].edges++;
        }
    }
}

void LinkBench::pre_lane(int d) {
    End &S = end_[d], &R = end_[1 - d];
    uint64_t edges = clk_[2 + d].edges;
    for (int l = 0; l < lanes_; l++) {
        LaneModel &m = lane_[d][static_cast<size_t>(l)];
        unsigned lo = static_cast<unsigned>(l * 66);
        Word66 tx = kolo_lane::w66_from(sig_get(*S.p.tx_lane_data, lo, 64),
                                        static_cast<unsigned>(sig_get(*S.p.tx_lane_data, lo + 64, 2)));
        if (sig_get(*R.p.rx_lane_slip, static_cast<unsigned>(l), 1)) m.slip();
        uint64_t hit = m.counters().targeted;
        m.push(tx);
        if (cfg_.bench == "rec" && m.counters().targeted != hit) t_corrupt_fs_ = now_fs_;
        Word66 rx = m.pop();
        sig_set(*R.p.rx_lane_data, lo, 64, kolo_lane::w66_lo(rx));
        sig_set(*R.p.rx_lane_data, lo + 64, 2, kolo_lane::w66_hi2(rx));
    }
    bool rst = edges < kRstEdges;
    *S.p.tx_lane_rst = rst;
    *R.p.rx_lane_rst = rst;
    if (measuring_ && now_fs_ >= win_t0_fs_ && d == 0) win_lane_edges_++;
}

void LinkBench::pre_core(int e) {
    End &E = end_[e];
    Ports &P = E.p;
    // ---- sample ----
    if (*P.tx_credit_valid) {
        unsigned vc = *P.tx_credit_vc & 3u;
        E.tx.credits[vc]++;
        E.tx.credits_rcvd++;
        if (E.state == 0) E.down_credits++;
        last_progress_ = end_[0].cycle;
        if (E.tx.credits[vc] > out_credits_)
            fail(std::string("end ") + E.name + " returned a credit on vc " + std::to_string(vc) +
                 " that takes its sender above " + std::to_string(out_credits_) +
                 " (more credits than flits sent)");
    }
    if (*P.rx_valid) receive_flit(e, flit_get(*P.rx_flit, 0));
    bool up = *P.link_up != 0;
    unsigned st = *P.stat_state & 3u;
    if (up != E.up) {
        E.up_changes++;
        last_progress_ = end_[0].cycle;
        if (cfg_.verbose || (phase_ != kTrain && E.up_changes <= 12))
            std::printf("  %s: link_up %d -> %d at cycle %" PRIu64 " (state %u)%s\n", E.name, E.up, up, E.cycle, st,
                        E.up_changes == 12 && !cfg_.verbose ? " (no more of these; --verbose shows all)" : "");
    }
    if (st == 0 && E.state != 0 && E.ever_up) {
        // down: every credit the sender is owed must come back (one per cycle)
        E.went_down = true;
        E.down_owed = 0;
        for (int v = 0; v < 4; v++) E.down_owed += static_cast<uint64_t>(out_credits_ - E.tx.credits[v]);
        E.down_credits = E.down_cycles = E.down_idle = 0;
        std::printf("  %s: link down (stat_state 0) at cycle %" PRIu64 ", its sender owed %" PRIu64 " credits\n",
                    E.name, E.cycle, E.down_owed);
    }
    if (st == 0 && E.state == 0) {
        // while down, the link gives back what its sender is owed, one credit
        // every cycle (the sender may keep spending them on dropped flits)
        uint64_t owed = 0;
        for (int v = 0; v < 4; v++) owed += static_cast<uint64_t>(out_credits_ - E.tx.credits[v]);
        if (owed > 8 && !*P.tx_credit_valid) E.down_idle++;
        if (E.down_idle > 8 && E.credit_check.empty()) {
            E.credit_check = std::string("end ") + E.name + " is down and owes its sender " + std::to_string(owed) +
                             " credits, but since it went down it has spent " + std::to_string(E.down_idle) +
                             " cycles returning none while more than 8 were owed";
            fail(E.credit_check);
        }
    }
    if (st != E.state) last_progress_ = end_[0].cycle;
    E.up = up;
    E.state = st;
    if (up) E.ever_up = true;
    if (*P.stat_miscabled) E.ever_miscabled = true;
    if (st == 0) E.down_cycles++;
    // ---- drive ----
    *P.rst = E.cycle < kRstEdges;
    generate(e);
    send(e);
    return_credit(e);
    E.cycle++;
}

// ---- routers ------------------------------------------------------------------------------
bool LinkBench::gen_open(int e) const {
    if (phase_ != kRun) return false;
    if ((e == 0 && !cfg_.dir_ab) || (e == 1 && !cfg_.dir_ba)) return false;
    const Dir &D = dir_[e];
    if (cfg_.bench == "eff") return !measured_;
    if (cfg_.bench == "lat" || cfg_.bench == "rec") return D.generated < cfg_.iso_packets;
    if (D.generated < cfg_.packets) return true;
    if (cfg_.expect_down && cfg_.after_recovery && (!recovered_ || D.after_rec_generated < cfg_.after_recovery))
        return true;
    return false;
}

void LinkBench::generate(int e) {
    if (!gen_open(e)) return;
    End &E = end_[e];
    Dir &D = dir_[e];
    bool iso = cfg_.bench == "lat" || cfg_.bench == "rec";
    bool want;
    if (iso) {
        // zero load: one packet at a time, after the last one arrived and its credits came back
        bool idle = D.live.empty() && E.tx.queued() == 0;
        for (int v = 0; v < 4; v++) idle = idle && E.tx.credits[v] == out_credits_;
        if (!idle) iso_next_ok_ = E.cycle + 20 + E.rng.below(8);
        want = idle && E.cycle >= iso_next_ok_;
        if (want) iso_next_ok_ = ~0ull;
    } else if (cfg_.saturate) {
        want = E.tx.queued() < 8;
    } else {
        double mean = 0;
        for (int l : cfg_.lens) mean += l + 2;
        mean /= static_cast<double>(cfg_.lens.size());
        want = E.rng.chance(cfg_.rate / mean);
    }
    if (!want) return;
    // pick a VC among the enabled ones
    unsigned vcs[4], n = 0;
    for (unsigned v = 0; v < 4; v++)
        if (cfg_.vc_mask >> v & 1) vcs[n++] = v;
    unsigned vc = vcs[E.rng.below(n)];
    int len = cfg_.lens[E.rng.below(cfg_.lens.size())];
    auto p = std::make_unique<Packet>();
    p->id = (static_cast<uint64_t>(e) << 39) | D.next_id++;
    p->vc = vc;
    uint64_t h0 = E.rng.next() & ((1ull << 59) - 1);  // [63:59] reserved zero
    h0 &= ~(0x3full << 29);
    h0 |= static_cast<uint64_t>(len) << 29;
    h0 = (h0 & ~(1ull << 28)) | (static_cast<uint64_t>(vc >> 1) << 28);
    uint64_t h1 = (E.rng.next() << 40) | (p->id & kIdMask);
    p->w.push_back(h0);
    p->w.push_back(h1);
    for (int i = 0; i < len; i++) p->w.push_back(E.rng.next());
    p->after_recovery = recovered_;
    if (recovered_) D.after_rec_generated++;
    D.generated++;
    E.tx.queue[vc].push_back(std::move(p));
}

void LinkBench::send(int e) {
    End &E = end_[e];
    Sender &S = E.tx;
    *E.p.tx_valid = 0;
    if (cfg_.gap > 0 && E.rng.chance(cfg_.gap)) return;
    unsigned cand[4], n = 0;
    for (unsigned v = 0; v < 4; v++) {
        if (S.cur[v]) {
            if (S.credits[v] >= 1) cand[n++] = v;
        } else if (!S.queue[v].empty()) {
            int need = cfg_.vct ? static_cast<int>(S.queue[v].front()->w.size()) : 1;
            if (S.credits[v] >= need) cand[n++] = v;
        }
    }
    if (!n) return;
    unsigned v = cand[E.rng.below(n)];
    Dir &D = dir_[e];
    if (!S.cur[v]) {
        S.cur[v] = std::move(S.queue[v].front());
        S.queue[v].pop_front();
        S.pos[v] = 0;
        Packet *p = S.cur[v].get();
        p->t_head_fs = now_fs_;
        p->cyc_head = E.cycle;
    }
    Packet *p = S.cur[v].get();
    size_t i = S.pos[v]++;
    Flit f;
    f.data = p->w[i];
    f.vc = v;
    f.head = i == 0;
    f.tail = i + 1 == p->w.size();
    flit_set(*E.p.tx_flit, 0, f);
    *E.p.tx_valid = 1;
    S.credits[v]--;
    S.flits_sent++;
    if (E.state == 0) p->flits_down++;
    if (i == 0 && cfg_.bench == "rec" && (D.started & 1)) {
        // corrupt the next data block A sends: this packet's frame
        LaneModel &m = lane_[e][0];
        m.arm_target(kolo_lane::kMaskData, 1);
        p->armed = true;
        armed_count_++;
    }
    if (i == 0) D.started++;
    if (f.tail) {
        // the whole packet was handed over: it is now the link's
        std::unique_ptr<Packet> up = std::move(S.cur[v]);
        if (up->flits_down == up->w.size()) D.all_down++;
        if (up->after_recovery) D.after_rec_sent++;
        D.expect[v].push_back(up.get());
        D.live[up->id] = std::move(up);
    }
}

void LinkBench::receive_flit(int e, const Flit &f) {
    End &E = end_[e];
    Receiver &R = E.rx;
    unsigned vc = f.vc & 3u;
    last_progress_ = end_[0].cycle;
    R.flits++;
    if (R.occ[vc] >= out_credits_) {
        fail(std::string("receive buffer overflow at end ") + E.name + " vc " + std::to_string(vc) + ": a flit arrived with all " +
             std::to_string(out_credits_) + " slots full (link sent without a credit)");
        return;
    }
    R.occ[vc]++;
    R.max_occ[vc] = std::max(R.max_occ[vc], R.occ[vc]);
    uint64_t delay = cfg_.rx_delay > 0 ? E.rng.below(static_cast<uint64_t>(cfg_.rx_delay) + 1) : 0;
    R.buf[vc].push_back(E.cycle + delay);
    auto &a = R.asm_flits[vc];
    char where[64];
    std::snprintf(where, sizeof where, "end %s rx vc %u flit %zu: ", E.name, vc, a.size());
    if (a.empty()) {
        if (!f.head) {
            fail(std::string(where) + "a packet starts without the head bit");
            return;
        }
        R.asm_head_fs[vc] = now_fs_;
    } else if (f.head) {
        fail(std::string(where) + "head bit inside a packet (previous packet not finished)");
        return;
    }
    a.push_back(f);
    unsigned len = h0_len(a[0].data);
    if (len > 32) {
        fail(std::string(where) + "header length field " + std::to_string(len) + " > 32");
        return;
    }
    size_t total = len + 2;
    if (f.tail != (a.size() == total)) {
        fail(std::string(where) + (f.tail ? "tail bit before the end of the packet" : "no tail bit on the last flit") +
             " (length " + std::to_string(len) + ")");
        return;
    }
    if (measuring_ && e == 1 && now_fs_ >= win_t0_fs_) {
        win_flits_++;
        if (a.size() > 2) win_payload_++;
    }
    if (f.tail) {
        std::vector<Flit> flits;
        flits.swap(a);
        deliver(1 - e, static_cast<int>(vc), flits, R.asm_head_fs[vc]);
    }
}

void LinkBench::deliver(int d, int vc, std::vector<Flit> &flits, uint64_t t_head_fs) {
    Dir &D = dir_[d];
    const char *dn = d == 0 ? "A->B" : "B->A";
    uint64_t id = flits[1].data & kIdMask;
    auto &q = D.expect[vc];
    char b[160];
    if (q.empty() || q.front()->id != id) {
        size_t k = 0;
        while (k < q.size() && q[k]->id != id) k++;
        if (k == q.size()) {
            std::snprintf(b, sizeof b, "%s vc %d: packet id %" PRIu64 " delivered but %s", dn, vc, id,
                          D.delivered_ids.count(id) ? "it was delivered before (duplicate)"
                          : D.live.count(id)       ? "it was sent on another VC"
                                                   : "no such packet is outstanding (corrupted header?)");
            fail(b);
            return;
        }
        if (!cfg_.allow_loss) {
            std::snprintf(b, sizeof b,
                          "%s vc %d: packet id %" PRIu64 " delivered before id %" PRIu64
                          " (%zu packets skipped: lost or reordered)",
                          dn, vc, id, q.front()->id, k);
            fail(b);
            return;
        }
        for (size_t i = 0; i < k; i++) {
            Packet *lp = q.front();
            q.pop_front();
            D.lost++;
            if (lp->flits_down == lp->w.size()) D.lost_all_down++;
            if (lp->after_recovery) {
                std::snprintf(b, sizeof b, "%s vc %d: packet id %" PRIu64 " sent after the link recovered was lost", dn,
                              vc, lp->id);
                fail(b);
            }
            D.live.erase(lp->id);
        }
    }
    Packet *p = q.front();
    if (p->w.size() != flits.size()) {
        std::snprintf(b, sizeof b, "%s vc %d: packet id %" PRIu64 " has %zu flits, sent %zu", dn, vc, id, flits.size(),
                      p->w.size());
        fail(b);
        return;
    }
    for (size_t i = 0; i < flits.size(); i++)
        if (flits[i].data != p->w[i]) {
            std::snprintf(b, sizeof b, "%s vc %d: packet id %" PRIu64 " flit %zu is %016" PRIx64 ", sent %016" PRIx64,
                          dn, vc, id, i, flits[i].data, p->w[i]);
            fail(b);
            return;
        }
    if (p->flits_down == p->w.size()) {
        std::snprintf(b, sizeof b,
                      "%s vc %d: packet id %" PRIu64 " was handed over while the link was down, yet delivered", dn, vc,
                      id);
        fail(b);
    }
    D.delivered++;
    D.flits_delivered += flits.size();
    if (p->after_recovery) D.after_rec_delivered++;
    if (cfg_.bench == "lat" || cfg_.bench == "rec") {
        uint64_t lat_fs = t_head_fs - p->t_head_fs;
        uint64_t cyc = static_cast<uint64_t>(std::llround(static_cast<double>(lat_fs) / kCorePeriodFs));
        if (p->armed) {
            lat_armed_.add(cyc);
            if (t_corrupt_fs_ > p->t_head_fs && t_corrupt_fs_ < t_head_fs)
                lat_from_corrupt_.add(static_cast<uint64_t>(
                    std::llround(static_cast<double>(t_head_fs - t_corrupt_fs_) / kCorePeriodFs)));
            else
                fail("bench rec: the corrupted data block of packet " + std::to_string(p->id) +
                     " was not seen on the lane between its hand-over and its delivery");
        }
        else {
            lat_clean_.add(cyc);
            lat_tail_clean_.add(static_cast<uint64_t>(
                std::llround(static_cast<double>(now_fs_ - p->t_head_fs) / kCorePeriodFs)));
        }
    }
    D.delivered_ids.insert(id);
    q.pop_front();
    D.live.erase(id);
}

void LinkBench::return_credit(int e) {
    End &E = end_[e];
    Receiver &R = E.rx;
    *E.p.rx_credit_valid = 0;
    if (cfg_.stall > 0)
        for (int v = 0; v < 4; v++)
            if (E.cycle >= R.stall_until[v] && E.rng.chance(cfg_.stall))
                R.stall_until[v] = E.cycle + 1 + E.rng.below(static_cast<uint64_t>(cfg_.stall_len));
    unsigned cand[4], n = 0;
    for (unsigned v = 0; v < 4; v++)
        if (!R.buf[v].empty() && R.buf[v].front() <= E.cycle && E.cycle >= R.stall_until[v]) cand[n++] = v;
    if (!n) return;
    unsigned v = cand[E.rng.below(n)];
    R.buf[v].pop_front();
    R.occ[v]--;
    *E.p.rx_credit_valid = 1;
    *E.p.rx_credit_vc = v;
}

// ---- phases --------------------------------------------------------------------------------
bool LinkBench::quiescent() const {
    for (int e = 0; e < 2; e++) {
        const End &E = end_[e];
        if (!E.up || E.tx.queued() || !E.rx.empty()) return false;
        for (int v = 0; v < 4; v++)
            if (E.tx.credits[v] != out_credits_) return false;
    }
    return true;
}

void LinkBench::control() {
    uint64_t c = end_[0].cycle;
    bool both_up = end_[0].up && end_[1].up;
    if (dead_now()) dead_cycles_++;
    if (end_[0].went_down || end_[1].went_down) any_down_ = true;
    if (any_down_ && !recovered_ && both_up) {
        recovered_ = true;
        t_recovered_ = c;
        std::printf("  link recovered at cycle %" PRIu64 " (A)\n", c);
    }
    switch (phase_) {
        case kTrain: {
            if (cfg_.miscable && !misc_start_) {
                phase_ = kMiscable;
                misc_start_ = c ? c : 1;
                break;
            }
            if (both_up) {
                on_first_up();
                phase_ = kRun;
                if (cfg_.bench == "eff") win_start_cycle_ = c + cfg_.warmup;
            } else if (c > cfg_.train_max) {
                fail("the link did not come up within " + std::to_string(cfg_.train_max) + " cycles");
            }
            break;
        }
        case kMiscable: {
            if (end_[0].up || end_[1].up) miscable_seen_up_ = true;
            if (c - misc_start_ >= cfg_.miscable_cycles) {
                // report, then correct B's cabling and go on as a normal run
                bool b_flag = *end_[1].p.stat_miscabled != 0, a_flag = end_[0].ever_miscabled;
                uint32_t b_cnt = counter(1, C_MISCABLED);
                std::printf("miscabled phase (%" PRIu64 " cycles): B stat_miscabled %d, B miscabled counter %u, "
                            "A stat_miscabled ever %d, link_up seen %d, states A %u B %u\n",
                            cfg_.miscable_cycles, b_flag, b_cnt, a_flag, miscable_seen_up_, end_[0].state,
                            end_[1].state);
                if (!b_flag) fail("B expects another neighbour but stat_miscabled is 0");
                else if (b_cnt == 0) fail("B stat_miscabled is set but the miscabled counter is 0");
                else if (miscable_seen_up_) fail("the link came up although B expects another neighbour");
                else if (a_flag) fail("A reports mis-cabling although B is its expected neighbour");
                *end_[1].p.cfg_peer_id = kNodeA;
                std::printf("B's cfg_peer_id corrected at cycle %" PRIu64 "\n", c);
                phase_ = kTrain;
                cfg_.train_max = c + cfg_.train_max;
            }
            break;
        }
        case kRun: {
            if (cfg_.bench == "eff" && !measuring_ && !measured_ && c >= win_start_cycle_) {
                measuring_ = true;
                win_t0_fs_ = now_fs_;
            }
            if (measuring_ && c >= win_start_cycle_ + cfg_.window) {
                measuring_ = false;
                measured_ = true;
                win_t1_fs_ = now_fs_;
            }
            if (!gen_open(0) && !gen_open(1)) phase_ = kDrain;
            break;
        }
        case kDrain: {
            if (cfg_.bench == "eff") {  // no need to drain a benchmark run
                phase_ = kDone;
                break;
            }
            if (!quiescent()) {
                quiet_since_ = c;
                break;
            }
            if (pending() && c - quiet_since_ < 2000) break;  // credits back, packets missing: be sure
            if (c - quiet_since_ < 200) break;
            phase_ = kDone;
            break;
        }
        case kDone: break;
    }
    // watchdog: work pending (packets, or credits not yet back), nothing moving
    // (time with a dead lane does not count)
    bool work = pending() || end_[0].tx.queued() || end_[1].tx.queued();
    for (int e = 0; e < 2; e++) {
        work = work || !end_[e].rx.empty();
        for (int v = 0; v < 4; v++) work = work || end_[e].tx.credits[v] != out_credits_;
    }
    if (phase_ == kRun || phase_ == kDrain) {
        if (!work || dead_now()) last_progress_ = c;
        if (cfg_.watchdog && c - last_progress_ > cfg_.watchdog && fail_.empty()) {
            watchdog_fired_ = true;
            fail("WATCHDOG: " + std::to_string(pending()) + " packets pending (or credits outstanding) and no flit or "
                 "credit moved for " + std::to_string(cfg_.watchdog) + " cycles");
        }
    }
    if (c >= cfg_.max_cycles && fail_.empty()) fail("no end after --max-cycles=" + std::to_string(cfg_.max_cycles));
    if (cfg_.progress && c % cfg_.progress == 0 && c)
        std::printf("  cycle %" PRIu64 ": phase %d, A->B %" PRIu64 "/%" PRIu64 " delivered, B->A %" PRIu64 "/%" PRIu64
                    ", pending %" PRIu64 ", states %u %u, credits A %d %d %d %d B %d %d %d %d\n",
                    c, phase_, dir_[0].delivered, dir_[0].generated, dir_[1].delivered, dir_[1].generated, pending(),
                    end_[0].state, end_[1].state, end_[0].tx.credits[0], end_[0].tx.credits[1], end_[0].tx.credits[2],
                    end_[0].tx.credits[3], end_[1].tx.credits[0], end_[1].tx.credits[1], end_[1].tx.credits[2],
                    end_[1].tx.credits[3]);
}

// ---- end checks ---------------------------------------------------------------------------
void LinkBench::final_checks() {
    if (cfg_.bench == "eff") return;  // a benchmark run stops with traffic in flight
    for (int d = 0; d < 2; d++) {
        Dir &D = dir_[d];
        const char *dn = d == 0 ? "A->B" : "B->A";
        // what is still outstanding is lost (only allowed when the link may go down)
        uint64_t missing = D.live.size();
        if (missing) {
            if (!cfg_.allow_loss) {
                Packet *p = nullptr;
                for (int v = 0; v < 4 && !p; v++)
                    if (!D.expect[v].empty()) p = D.expect[v].front();
                char b[200];
                std::snprintf(b, sizeof b,
                              "%s: %" PRIu64 " packets never delivered (e.g. id %" PRIu64
                              " vc %u, handed over at cycle %" PRIu64 ")",
                              dn, missing, p ? p->id : 0, p ? p->vc : 0, p ? p->cyc_head : 0);
                fail(b);
                return;
            }
            for (int v = 0; v < 4; v++)
                for (Packet *p : D.expect[v]) {
                    D.lost++;
                    if (p->flits_down == p->w.size()) D.lost_all_down++;
                    if (p->after_recovery) fail(std::string(dn) + ": a packet sent after the link recovered was lost");
                }
        }
        uint64_t accounted = D.delivered + D.lost;
        if (accounted != D.started)
            fail(std::string(dn) + ": " + std::to_string(D.started) + " packets handed over, " +
                 std::to_string(D.delivered) + " delivered + " + std::to_string(D.lost) + " lost");
        uint32_t dropped = counter(d, C_PKTS_DROPPED);
        if (D.lost > dropped)
            fail(std::string(dn) + ": " + std::to_string(D.lost) + " packets lost but end " + end_[d].name +
                 " counts only " + std::to_string(dropped) + " pkts_dropped");
        if (!cfg_.allow_loss && dropped)
            fail(std::string("end ") + end_[d].name + " counts " + std::to_string(dropped) +
                 " pkts_dropped although the link never went down");
    }
    for (int e = 0; e < 2; e++) {
        const End &E = end_[e];
        for (int v = 0; v < 4; v++)
            if (E.tx.credits[v] != out_credits_)
                fail(std::string("sender ") + E.name + " vc " + std::to_string(v) + " has " +
                     std::to_string(E.tx.credits[v]) + " credits at the end, expected " + std::to_string(out_credits_));
        if (!E.rx.empty()) fail(std::string("receiver ") + E.name + " still holds flits or a partial packet");
    }
}

void LinkBench::scenario_checks() {
    uint32_t sum[16] = {};
    for (int i = 0; i < 16; i++) sum[i] = counter(0, i) + counter(1, i);
    if (!cfg_.expect_down && !cfg_.miscable && (sum[C_LINK_DOWNS] || end_[0].went_down || end_[1].went_down))
        fail("the link went down (link_downs A " + std::to_string(counter(0, C_LINK_DOWNS)) + ", B " +
             std::to_string(counter(1, C_LINK_DOWNS)) + ") in a run that does not expect it");
    if (sum[C_RX_OVF]) fail("rx_overflows counted: the PHY dropped received blocks (" + std::to_string(sum[C_RX_OVF]) + ")");
    if (cfg_.expect_errors) {
        uint64_t injected = 0;
        for (int d = 0; d < 2; d++) {
            uint64_t n = 0;
            for (auto &m : lane_[d]) n += m.counters().faulty_words();
            injected += n;
            // a few faults can all land on blocks nobody checks (INIT before
            // lock, filler): from 5 on, the receiving end must have seen some
            int r = 1 - d;
            if (n >= 5 && counter(r, C_CRC) + counter(r, C_SEQ) + counter(r, C_CTRL_ERR) + counter(r, C_LOCK_LOSSES) == 0)
                fail(std::string(d == 0 ? "A->B" : "B->A") + ": " + std::to_string(n) +
                     " faulty lane words but end " + end_[r].name + " counted no CRC, sequence, control or lock error");
        }
        if (injected == 0) fail("--expect-errors: the lane models injected nothing");
        else if (sum[C_CRC] + sum[C_SEQ] + sum[C_CTRL_ERR] + sum[C_LOCK_LOSSES] == 0)
            fail("errors were injected into " + std::to_string(injected) +
                 " lane words but no end counted a CRC, sequence, control or lock error");
        else if (sum[C_CRC] == 0 && sum[C_SEQ] == 0)
            fail("no frame errors counted (crc_errors, seq_errors) for " + std::to_string(injected) + " faulty words");
        else if (sum[C_NAKS_SENT] == 0 || sum[C_REPLAYS] == 0)
            fail("frame errors counted but no NAK sent / replay done (naks_sent " + std::to_string(sum[C_NAKS_SENT]) +
                 ", replays " + std::to_string(sum[C_REPLAYS]) + ")");
    }
    if (cfg_.expect_retrain && sum[C_RETRAINS] <= sum[C_LOCK_LOSSES])
        fail("--expect-retrain: " + std::to_string(sum[C_RETRAINS]) + " retrains, " +
             std::to_string(sum[C_LOCK_LOSSES]) + " lock losses: no retrain from replays without progress");
    {
        uint64_t faulty = 0, slips = 0, aborts = 0;
        for (int d = 0; d < 2; d++)
            for (auto &m : lane_[d]) {
                faulty += m.counters().faulty_words();
                slips += m.counters().slips;
                aborts += m.counters().tx_kind[kolo_lane::kKindAbort];
            }
        std::printf("ABORT blocks sent: %" PRIu64 "\n", aborts);
        if (faulty == 0 && slips == 0 && !cfg_.miscable &&
            sum[C_CRC] + sum[C_SEQ] + sum[C_CTRL_ERR] + sum[C_NAKS_SENT] != 0)
            fail("no lane word was altered, but the ends count crc_errors " + std::to_string(sum[C_CRC]) +
                 ", seq_errors " + std::to_string(sum[C_SEQ]) + ", ctrl_errors " + std::to_string(sum[C_CTRL_ERR]) +
                 ", naks_sent " + std::to_string(sum[C_NAKS_SENT]));
        if (cfg_.expect_aborts && aborts == 0)
            fail("--expect-aborts: no cut-through frame was broken off (no ABORT block sent)");
    }
    if (cfg_.expect_ctrl_errors)
        for (int d = 0; d < 2; d++) {
            uint64_t n = 0;
            for (auto &m : lane_[d]) n += m.counters().targeted;
            if (n >= 5 && counter(1 - d, C_CTRL_ERR) == 0)
                fail(std::string("--expect-ctrl-errors: ") + std::to_string(n) + " control blocks corrupted towards " +
                     end_[1 - d].name + " but its ctrl_errors counter is 0");
        }
    if (cfg_.expect_timer_replay) {
        // the ACK path into the sender of the cut direction was cut: its replays
        // beyond the NAKs it received were the replay timer's
        int s = 1 - cfg_.cut_ctrl_dir;
        uint32_t rp = counter(s, C_REPLAYS), nk = counter(s, C_NAKS_RCVD);
        if (rp <= nk)
            fail(std::string("--expect-timer-replay: end ") + end_[s].name + " replays " + std::to_string(rp) +
                 " <= naks_rcvd " + std::to_string(nk) + ": the replay timer never fired");
    }
    if (cfg_.expect_down) {
        if (!end_[0].went_down && !end_[1].went_down) fail("--expect-down: no end went down (stat_state 0)");
        for (int e = 0; e < 2; e++) {
            const End &E = end_[e];
            if (E.went_down && counter(e, C_LINK_DOWNS) == 0)
                fail(std::string("end ") + E.name + " went down but its link_downs counter is 0");
            if (!E.credit_check.empty()) fail(E.credit_check);
        }
        if (!recovered_) fail("--expect-down: the link did not come back up");
        for (int d = 0; d < 2; d++) {
            const Dir &D = dir_[d];
            bool active = (d == 0 && cfg_.dir_ab) || (d == 1 && cfg_.dir_ba);
            if (active && D.after_rec_delivered == 0)
                fail(std::string(d == 0 ? "A->B" : "B->A") + ": no packet sent after the recovery was delivered");
            if (end_[d].went_down && D.all_down && counter(d, C_PKTS_DROPPED) == 0)
                fail(std::string("end ") + end_[d].name + " was handed packets while down but pkts_dropped is 0");
        }
    }
}

void LinkBench::dump(FILE *f) {
    std::fprintf(f, "---- state at cycle %" PRIu64 " (A) / %" PRIu64 " (B), %.3f us ----\n", end_[0].cycle,
                 end_[1].cycle, now_fs_ / 1e9);
    for (int e = 0; e < 2; e++) {
        const End &E = end_[e];
        std::fprintf(f, "end %s: link_up %d stat_state %u stat_miscabled %d; sender credits %d %d %d %d, %zu queued; "
                        "rx buffer %d %d %d %d\n",
                     E.name, E.up, E.state, static_cast<int>(*E.p.stat_miscabled), E.tx.credits[0], E.tx.credits[1],
                     E.tx.credits[2], E.tx.credits[3], E.tx.queued(), E.rx.occ[0], E.rx.occ[1], E.rx.occ[2],
                     E.rx.occ[3]);
    }
    std::fprintf(f, "%-14s %12s %12s\n", "counter", "A", "B");
    for (int i = 0; i < 16; i++) std::fprintf(f, "%-14s %12u %12u\n", kCounterNames[i], counter(0, i), counter(1, i));
    for (int d = 0; d < 2; d++) {
        const Dir &D = dir_[d];
        std::fprintf(f, "%s: %" PRIu64 " generated, %" PRIu64 " handed over, %" PRIu64 " delivered, %" PRIu64
                        " lost, %zu outstanding",
                     d == 0 ? "A->B" : "B->A", D.generated, D.started, D.delivered, D.lost, D.live.size());
        for (int v = 0; v < 4; v++)
            if (!D.expect[v].empty())
                std::fprintf(f, "; vc%d next id %" PRIu64 " (handed over at cycle %" PRIu64 ")", v,
                             D.expect[v].front()->id, D.expect[v].front()->cyc_head);
        std::fprintf(f, "\n");
    }
}

void LinkBench::summary() {
    std::printf("---- summary ----\n");
    dump(stdout);
    for (int d = 0; d < 2; d++) {
        kolo_lane::LaneModel::Counters t;
        for (auto &m : lane_[d]) {
            const auto &k = m.counters();
            t.words += k.words;
            t.bit_errors += k.bit_errors;
            t.words_bit_errors += k.words_bit_errors;
            t.bursts += k.bursts;
            t.burst_words += k.burst_words;
            t.dropped += k.dropped;
            t.duplicated += k.duplicated;
            t.dead_words += k.dead_words;
            t.targeted += k.targeted;
            t.slips += k.slips;
            t.underruns += k.underruns;
            for (unsigned i = 0; i < kolo_lane::kNumKinds; i++) t.tx_kind[i] += k.tx_kind[i];
        }
        std::printf("lanes %s: %" PRIu64 " words; injected: %" PRIu64 " bit errors in %" PRIu64 " words, %" PRIu64
                    " bursts (%" PRIu64 " words), %" PRIu64 " dropped, %" PRIu64 " duplicated, %" PRIu64
                    " dead words, %" PRIu64 " targeted; %" PRIu64 " slips, bit offsets now",
                    d == 0 ? "A->B" : "B->A", t.words, t.bit_errors, t.words_bit_errors, t.bursts, t.burst_words,
                    t.dropped, t.duplicated, t.dead_words, t.targeted, t.slips);
        for (auto &m : lane_[d]) std::printf(" %u", m.bit_offset());
        std::printf("\n   sent by kind:");
        for (unsigned i = 0; i < kolo_lane::kNumKinds; i++)
            if (t.tx_kind[i]) std::printf(" %s %" PRIu64, kolo_lane::kind_name(i), t.tx_kind[i]);
        std::printf("\n");
    }
    for (int e = 0; e < 2; e++)
        std::printf("receiver %s: peak buffer %d %d %d %d of %d\n", end_[e].name, end_[e].rx.max_occ[0],
                    end_[e].rx.max_occ[1], end_[e].rx.max_occ[2], end_[e].rx.max_occ[3], out_credits_);
    for (int e = 0; e < 2; e++)
        if (end_[e].went_down)
            std::printf("end %s last went down owing its sender %" PRIu64 " credits; %" PRIu64 " came back in the %" PRIu64
                        " cycles it stayed down (%" PRIu64 " cycles without one while more than 8 were owed)\n",
                        end_[e].name, end_[e].down_owed, end_[e].down_credits, end_[e].down_cycles, end_[e].down_idle);
    if (cfg_.expect_down)
        for (int d = 0; d < 2; d++)
            std::printf("%s: lost %" PRIu64 " (pkts_dropped at %s %u; %" PRIu64 " handed over while down), "
                        "after recovery %" PRIu64 " sent, %" PRIu64 " delivered\n",
                        d == 0 ? "A->B" : "B->A", dir_[d].lost, end_[d].name, counter(d, C_PKTS_DROPPED),
                        dir_[d].all_down, dir_[d].after_rec_sent, dir_[d].after_rec_delivered);
    std::printf("simulated %.3f us: core A %" PRIu64 ", core B %" PRIu64 ", lane A %" PRIu64 ", lane B %" PRIu64
                " edges\n",
                now_fs_ / 1e9, clk_[0].edges, clk_[1].edges, clk_[2].edges, clk_[3].edges);
}

void LinkBench::bench_report() {
    const std::string &n = cfg_.bench_name;
    double lane_delay_cyc = static_cast<double>(cfg_.delay) * static_cast<double>(lane_nominal_fs_) / kCorePeriodFs;
    if (cfg_.bench == "eff") {
        double cap = static_cast<double>(win_lane_edges_) * lanes_;
        double eff = cap > 0 ? 100.0 * static_cast<double>(win_flits_) / cap : 0.0;
        double pay = cap > 0 ? 100.0 * static_cast<double>(win_payload_) / cap : 0.0;
        std::printf("# window %.1f us: %" PRIu64 " flits (%" PRIu64 " payload) delivered at B, %" PRIu64
                    " lane words x %d lanes\n",
                    (win_t1_fs_ - win_t0_fs_) / 1e9, win_flits_, win_payload_, win_lane_edges_, lanes_);
        std::printf("# payload-only efficiency %.2f %%\n", pay);
        double win_ns = static_cast<double>(win_t1_fs_ - win_t0_fs_) / 1e6;
        double gbps = win_ns > 0 ? static_cast<double>(win_flits_) * 64.0 / win_ns : 0.0;
        double lane_gbps = 66.0 * 1e6 / static_cast<double>(lane_nominal_fs_);
        std::printf("# delivered %.3f Gb/s of router packet words (payload only %.3f Gb/s); lanes %d x %.4f Gb/s "
                    "line rate = %.3f Gb/s of 64-bit words; 64-bit core at 250 MHz: 16.000 Gb/s\n",
                    gbps, win_ns > 0 ? static_cast<double>(win_payload_) * 64.0 / win_ns : 0.0, lanes_, lane_gbps,
                    lanes_ * lane_gbps * 64.0 / 66.0);
        if (cfg_.gbps) std::printf("BENCH %s %.3f Gb/s\n", n.c_str(), gbps);
        else std::printf("BENCH %s %.2f %%\n", n.c_str(), eff);
    } else if (cfg_.bench == "lat") {
        std::printf("# zero-load head latency %.2f cycles (p50 %" PRIu64 ", max %" PRIu64
                    "), tail %.2f cycles, lane model delay %u words = %.2f core cycles, %zu packets\n",
                    lat_clean_.mean(), lat_clean_.percentile(50), lat_clean_.max(), lat_tail_clean_.mean(), cfg_.delay,
                    lane_delay_cyc, lat_clean_.count());
        std::printf("BENCH %s %.2f cycles\n", n.c_str(), lat_clean_.mean() - lane_delay_cyc);
    } else if (cfg_.bench == "rec") {
        std::printf("# %zu frames with one corrupted data block: head latency %.2f cycles (max %" PRIu64
                    "); %zu clean: %.2f cycles\n",
                    lat_armed_.count(), lat_armed_.mean(), lat_armed_.max(), lat_clean_.count(), lat_clean_.mean());
        std::printf("# from the corrupted block entering the lane to the frame's delivery: %.2f cycles; minus the "
                    "zero-load latency: %.2f cycles\n",
                    lat_from_corrupt_.mean(), lat_from_corrupt_.mean() - lat_clean_.mean());
        std::printf("# reported: the extra latency one corrupted data block costs its frame (head handed over -> "
                    "delivered, corrupted minus clean)\n");
        std::printf("BENCH %s %.2f cycles\n", n.c_str(), lat_armed_.mean() - lat_clean_.mean());
    }
}

int LinkBench::run() {
    setup();
    if (cfg_.lanes != lanes_) {
        std::fprintf(stderr, "tb_link: --lanes=%d but this build has LANES=%d\n", cfg_.lanes, lanes_);
        return kExitUsage;
    }
    if (!cfg_.train_max) cfg_.train_max = 200000;
    if (cfg_.miscable && !cfg_.miscable_cycles) cfg_.miscable_cycles = 2 * train_budget_ + 20000;
    std::printf("build: LANES %d, OUT_CREDITS %d, REPLAY_TIMEOUT %" PRIu64 ", MAX_REPLAYS %u, TRAIN_BUDGET %" PRIu64
                ", CC_INTERVAL %u\n",
                lanes_, out_credits_, replay_timeout_, static_cast<unsigned>(top_->p_max_replays), train_budget_,
                static_cast<unsigned>(top_->p_cc_interval));
    std::printf("clocks: core A %.4f ns, core B %.4f ns, lane A %.4f ns, lane B %.4f ns; lane delay %u words%s%s\n",
                clk_[0].period / 1e6, clk_[1].period / 1e6, clk_[2].period / 1e6, clk_[3].period / 1e6, cfg_.delay,
                cfg_.skew ? " + skew" : "", cfg_.slip ? ", random start-up bit offsets" : "");
    if (cfg_.slip) {
        std::printf("start-up offsets:");
        for (int d = 0; d < 2; d++)
            for (auto &m : lane_[d]) std::printf(" %s%u", d ? "B->A:" : "A->B:", m.bit_offset());
        std::printf("\n");
    }
    std::fflush(stdout);
    double t0 = wall_seconds();
    while (phase_ != kDone && fail_.empty()) step();
    double wall = wall_seconds() - t0;
    if (fail_.empty()) final_checks();
    if (fail_.empty()) scenario_checks();
    summary();
    std::printf("wall %.1f s (%.0f core cycles/s)\n", wall, wall > 0 ? end_[0].cycle / wall : 0.0);
    if (!fail_.empty()) {
        std::printf("FAIL: %s\n", fail_.c_str());
        std::printf("replay: SEED=%" PRIu64 "\n", cfg_.seed);
        return kExitFail;
    }
    if (!cfg_.bench.empty()) bench_report();
    std::printf("PASS\n");
    return kExitPass;
}

// ---- command line ---------------------------------------------------------------------------
bool parse_window(const std::string &s, Window *w, double *extra = nullptr) {
    auto p = split(s, ':');
    if (p.size() < 2) return false;
    w->start = std::strtoull(p[0].c_str(), nullptr, 0);
    w->len = std::strtoull(p[1].c_str(), nullptr, 0);
    w->on = w->len > 0;
    if (extra) {
        if (p.size() < 3) return false;
        *extra = std::strtod(p[2].c_str(), nullptr);
    }
    return true;
}

int parse_dir(const std::string &s) { return s == "ab" ? 0 : s == "ba" ? 1 : s == "both" ? 2 : -1; }

}  // namespace

int main(int argc, char **argv) {
    Options o("tb_link", "Two ends of a reliable kolo link through C++ lane models, the harness playing both routers "
                         "(docs/link.md). Times in core cycles of A; fault times count from the first link-up.");
    o.add("seed", "1", "random seed (SEED in the environment replaces it)");
    o.add("lanes", "1", "lanes of the build (must match; checked)");
    o.add("packets", "2000", "packets per direction");
    o.add("dir", "both", "traffic direction: both, ab (A->B only), ba");
    o.add("len", "0-32", "payload flits: lo-hi or a,b,c (0..32)");
    o.add("rate", "0.5", "offered flits per cycle per sender, or 'sat'");
    o.add("gap", "0", "probability a sender idles in a cycle it could send");
    o.add("vct", "1", "virtual cut-through: start a packet only with credits for all of it (0: per flit)");
    o.add("vcs", "0xf", "mask of the VCs packets use");
    o.add("rx-delay", "4", "receiving router: a flit leaves its buffer 0..N cycles after it is ready");
    o.add("stall", "0", "receiving router: probability per cycle and VC that the VC stalls");
    o.add("stall-len", "300", "receiving router: longest stall in cycles");
    o.add("after-recovery", "200", "--expect-down: packets per direction to send after the link is back");
    o.add("delay", "8", "lane propagation delay in lane words");
    o.add("lane-ps", "0", "lane word period in ps (0: 6400 with one lane, 17600 with more)");
    o.add("gbps", "0", "bench eff: the BENCH value is the delivered Gb/s (packet words x 64 bits)");
    o.add("skew", "0", "extra random delay per lane, 0..N words");
    o.add("slip", "0", "random start-up block boundary offset (0..65 bits) on every lane");
    o.add("ppm", "100", "clock offset: p (A +p ppm, B -p ppm) or pa,pb");
    o.add("ber", "0", "random bit error rate on the lanes");
    o.add("ber-dir", "both", "directions the BER applies to: both, ab, ba");
    o.add("noise", "", "start:len:ber - a different BER in a window (both directions)");
    o.add("bursts", "0", "error bursts: starts per lane word");
    o.add("burst-len", "16", "words garbled per burst");
    o.add("burst-at", "", "bursts at these cycles: c1,c2,...");
    o.add("drop-rate", "0", "dropped received words per word");
    o.add("dup-rate", "0", "duplicated received words per word");
    o.add("dead-at", "0", "a lane goes dead at this cycle (with --dead-for)");
    o.add("dead-for", "0", "cycles the lane stays dead");
    o.add("dead-dir", "both", "directions that go dead: both, ab, ba");
    o.add("dead-lane", "-1", "lane that goes dead (-1: all)");
    o.add("dead-mode", "garbage", "what a dead lane gives: garbage or zeros");
    o.add("lose-ctrl", "0", "corrupt control blocks (sync 10: IDLE, CC, INIT, CTRL, EOF, ABORT) at this rate, both directions");
    o.add("lose-ctrl-kinds", "all", "kinds --lose-ctrl hits: all, or a list of idle,cc,init,ctrl,eof,abort");
    o.add("cut-ctrl", "", "start:len - corrupt every CTRL block in one direction (ACK/NAK/credit path) in a window");
    o.add("cut-ctrl-dir", "ba", "direction of --cut-ctrl (ba: A's ACKs are lost)");
    o.add("data-errors", "", "start:len:rate - corrupt data blocks at this rate in a window");
    o.add("data-errors-dir", "ab", "direction of --data-errors");
    o.add("expect-errors", "0", "the counters must show errors found and recovered (NAK, replay)");
    o.add("expect-down", "0", "the link must go down, drop and count, give credits back, and come back up");
    o.add("expect-retrain", "0", "some retrain must come from replays without progress (retrains > lock_losses)");
    o.add("expect-ctrl-errors", "0", "corrupted control blocks must show in the receiving end's ctrl_errors");
    o.add("expect-aborts", "0", "the transmitters must have broken off cut-through frames (ABORT blocks sent)");
    o.add("expect-timer-replay", "0", "the replay timer must fire (replays > naks_rcvd at the cut sender)");
    o.add("miscable", "0", "B expects another neighbour: stat_miscabled, no link_up; then fixed");
    o.add("miscable-cycles", "0", "cycles of the mis-cabled phase (0: 2 x TRAIN_BUDGET + 20000)");
    o.add("allow-loss", "0", "accept packets lost when counted in pkts_dropped (implied by --expect-down)");
    o.add("watchdog", "40000", "fail when packets are pending and nothing moved for this many cycles (0: off)");
    o.add("max-cycles", "20000000", "fail after this many cycles");
    o.add("train-max", "200000", "fail when the link is not up after this many cycles");
    o.add("bench", "", "eff (A->B saturated, efficiency), lat (zero-load latency), rec (recovery after one error)");
    o.add("bench-name", "", "name on the BENCH line");
    o.add("warmup", "5000", "bench eff: cycles after link-up before measuring");
    o.add("window", "100000", "bench eff: measured cycles");
    o.add("iso-packets", "200", "bench lat/rec: isolated packets");
    o.add("progress", "0", "print progress every N cycles");
    o.add("verbose", "0", "more messages");
    int code = 0;
    if (!o.parse(argc, argv, &code)) return code;

    Config c;
    c.seed = pick_seed(o.given("seed") ? o.str("seed") : std::string("1"));
    c.lanes = static_cast<int>(o.integer("lanes"));
    c.packets = static_cast<uint64_t>(o.integer("packets"));
    int dir = parse_dir(o.str("dir"));
    if (dir < 0) o.bad("dir", o.str("dir"));
    c.dir_ab = dir != 1;
    c.dir_ba = dir != 0;
    {
        std::string s = o.str("len");
        size_t dash = s.find('-');
        if (dash != std::string::npos && s.find(',') == std::string::npos) {
            int lo = std::atoi(s.substr(0, dash).c_str()), hi = std::atoi(s.substr(dash + 1).c_str());
            if (lo < 0 || hi > 32 || lo > hi) o.bad("len", s);
            for (int i = lo; i <= hi; i++) c.lens.push_back(i);
        } else {
            for (auto &p : split(s, ',')) {
                int l = std::atoi(p.c_str());
                if (p.empty() || l < 0 || l > 32) o.bad("len", s);
                c.lens.push_back(l);
            }
        }
    }
    if (o.str("rate") == "sat") c.saturate = true;
    else c.rate = o.real("rate");
    c.gap = o.real("gap");
    c.vct = o.flag("vct");
    c.vc_mask = static_cast<unsigned>(o.integer("vcs")) & 0xf;
    if (!c.vc_mask) o.bad("vcs", o.str("vcs"));
    c.rx_delay = static_cast<int>(o.integer("rx-delay"));
    c.stall = o.real("stall");
    c.stall_len = static_cast<int>(std::max<long long>(1, o.integer("stall-len")));
    c.after_recovery = static_cast<uint64_t>(o.integer("after-recovery"));
    c.delay = static_cast<unsigned>(o.integer("delay"));
    c.lane_ps = static_cast<uint64_t>(o.integer("lane-ps"));
    c.gbps = o.flag("gbps");
    c.skew = static_cast<unsigned>(o.integer("skew"));
    c.slip = o.flag("slip");
    {
        auto p = split(o.str("ppm"), ',');
        c.ppm_a = std::strtod(p[0].c_str(), nullptr);
        c.ppm_b = p.size() > 1 ? std::strtod(p[1].c_str(), nullptr) : c.ppm_a;
    }
    c.ber = o.real("ber");
    int bd = parse_dir(o.str("ber-dir"));
    if (bd < 0) o.bad("ber-dir", o.str("ber-dir"));
    c.ber_ab = bd != 1;
    c.ber_ba = bd != 0;
    if (!o.str("noise").empty() && !parse_window(o.str("noise"), &c.noise, &c.noise_ber)) o.bad("noise", o.str("noise"));
    c.burst_rate = o.real("bursts");
    c.burst_len = static_cast<unsigned>(o.integer("burst-len"));
    if (!o.str("burst-at").empty())
        for (auto &p : split(o.str("burst-at"), ',')) c.burst_at.push_back(std::strtoull(p.c_str(), nullptr, 0));
    c.drop_rate = o.real("drop-rate");
    c.dup_rate = o.real("dup-rate");
    c.dead.start = static_cast<uint64_t>(o.integer("dead-at"));
    c.dead.len = static_cast<uint64_t>(o.integer("dead-for"));
    c.dead.on = c.dead.len > 0;
    int dd = parse_dir(o.str("dead-dir"));
    if (dd < 0) o.bad("dead-dir", o.str("dead-dir"));
    c.dead_ab = dd != 1;
    c.dead_ba = dd != 0;
    c.dead_lane = static_cast<int>(o.integer("dead-lane"));
    if (o.str("dead-mode") == "zeros") c.dead_mode = kolo_lane::DeadMode::Zeros;
    else if (o.str("dead-mode") != "garbage") o.bad("dead-mode", o.str("dead-mode"));
    c.lose_ctrl = o.real("lose-ctrl");
    if (o.str("lose-ctrl-kinds") != "all") {
        c.lose_ctrl_mask = 0;
        for (auto &k : split(o.str("lose-ctrl-kinds"), ',')) {
            if (k == "idle") c.lose_ctrl_mask |= kolo_lane::kMaskIdle;
            else if (k == "cc") c.lose_ctrl_mask |= kolo_lane::kMaskCC;
            else if (k == "init") c.lose_ctrl_mask |= kolo_lane::kMaskInit;
            else if (k == "ctrl") c.lose_ctrl_mask |= kolo_lane::kMaskCtrl;
            else if (k == "eof") c.lose_ctrl_mask |= kolo_lane::kMaskEof;
            else if (k == "abort") c.lose_ctrl_mask |= kolo_lane::kMaskAbort;
            else o.bad("lose-ctrl-kinds", k);
        }
    }
    if (!o.str("cut-ctrl").empty() && !parse_window(o.str("cut-ctrl"), &c.cut_ctrl)) o.bad("cut-ctrl", o.str("cut-ctrl"));
    c.cut_ctrl_dir = parse_dir(o.str("cut-ctrl-dir"));
    if (c.cut_ctrl_dir < 0 || c.cut_ctrl_dir > 1) o.bad("cut-ctrl-dir", o.str("cut-ctrl-dir"));
    if (!o.str("data-errors").empty() && !parse_window(o.str("data-errors"), &c.data_err, &c.data_err_rate))
        o.bad("data-errors", o.str("data-errors"));
    c.data_err_dir = parse_dir(o.str("data-errors-dir"));
    if (c.data_err_dir < 0 || c.data_err_dir > 1) o.bad("data-errors-dir", o.str("data-errors-dir"));
    c.expect_errors = o.flag("expect-errors");
    c.expect_down = o.flag("expect-down");
    c.expect_retrain = o.flag("expect-retrain");
    c.expect_ctrl_errors = o.flag("expect-ctrl-errors");
    c.expect_aborts = o.flag("expect-aborts");
    c.expect_timer_replay = o.flag("expect-timer-replay");
    c.miscable = o.flag("miscable");
    c.miscable_cycles = static_cast<uint64_t>(o.integer("miscable-cycles"));
    c.allow_loss = o.flag("allow-loss") || c.expect_down;
    c.watchdog = static_cast<uint64_t>(o.integer("watchdog"));
    c.max_cycles = static_cast<uint64_t>(o.integer("max-cycles"));
    c.train_max = static_cast<uint64_t>(o.integer("train-max"));
    c.bench = o.str("bench");
    if (!c.bench.empty() && c.bench != "eff" && c.bench != "lat" && c.bench != "rec") o.bad("bench", c.bench);
    c.bench_name = o.str("bench-name");
    if (c.bench_name.empty()) c.bench_name = "link_" + c.bench;
    c.warmup = static_cast<uint64_t>(o.integer("warmup"));
    c.window = static_cast<uint64_t>(o.integer("window"));
    c.iso_packets = static_cast<uint64_t>(o.integer("iso-packets"));
    c.progress = static_cast<uint64_t>(o.integer("progress"));
    c.verbose = o.flag("verbose");
    if (c.bench == "eff") {
        c.dir_ab = true;
        c.dir_ba = false;
        c.saturate = true;
        c.rx_delay = 0;
        c.stall = 0;
        c.gap = 0;
    }
    if (c.bench == "lat" || c.bench == "rec") {
        c.dir_ab = true;
        c.dir_ba = false;
        c.rx_delay = 0;
        c.stall = 0;
        if (c.bench == "rec" && c.lanes != 1) {
            std::fprintf(stderr, "tb_link: --bench=rec needs a one-lane build\n");
            return kExitUsage;
        }
    }

    std::printf("tb_link seed %" PRIu64 " (replay with SEED=%" PRIu64 ")\n", c.seed, c.seed);
    std::printf("traffic %s, %" PRIu64 " packets per direction, payload %s flits, rate %s%s; ber %g\n",
                c.dir_ab && c.dir_ba ? "both ways" : c.dir_ab ? "A->B" : "B->A", c.packets, o.str("len").c_str(),
                o.str("rate").c_str(), c.vct ? ", virtual cut-through" : ", per-flit credits", c.ber);
    LinkBench tb(c);
    int rc = tb.run();
    std::fflush(stdout);
    return rc;
}
