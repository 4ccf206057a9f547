// tb_link_phy.cpp - randomised unit test of kolo_link_phy: two PHYs, A and B,
// joined by a lane model in both directions (A tx lanes -> B rx lanes and
// B -> A), six clocks (core, tx lane and rx lane per end) scheduled by time.
//
// Length (~810 lines): the clock scheduler, the lane models in both
// directions and the block-stream checks of one randomised test.
//
// Clocks: core 4.000 ns, lanes 6.4 ns (LANES=1) or 16.8 ns (LANES>1, so that
// the core keeps up with LANES lanes: 4 * 4.0 * 1.05); A's clocks at +100 ppm,
// B's at -100 ppm. An rx lane clock is the recovered clock of the other end's
// tx lanes: the same period, delayed by a random phase. Edge n of a clock is at
// base + round(n * period / 2) ps, periods given in fs, so the ppm offsets are
// exact on average.
// Lane model (private to this test), per lane: the tx words form a bit stream
// (bit 0 of each word first); rx word m is the 66 bits starting at bit
// (m - delay) * 66 + offset. The offset starts random (a slipped boundary) and
// moves by one bit two rx cycles after each rx_lane_slip pulse (wrapping 65 ->
// 0). delay is a per-lane number of words (the lane skew); optional random bit
// errors at a BER, optional garbage bursts (random words), delay changes.
// With LANES > 1 the BER phase does not corrupt CC blocks (nor the words whose
// descrambler errors would reach one): a corrupted CC on one lane is, by
// design, a loss of alignment; that path is tested by the delay changes.
// Checks:
//   - tx lanes (decoded by a reference descrambler, docs/link.md): sync
//     headers 01/10 only; CC on all lanes or none, every CC_INTERVAL cycles;
//     the non-IDLE, non-CC blocks are exactly the accepted core blocks, in
//     lane order within a cycle, IDLE padding only after them.
//   - rx core side: IDLE and CC never arrive; EXACT phases: every block
//     accepted on one end's tx comes out of the other end's rx in order, none
//     lost, duplicated or spurious; both ends lock from random offsets; lock
//     loss pulses exactly when expected (garbage bursts on all lanes or one
//     lane, lane skew changes by +-1 word); the BER phase keeps lock and
//     delivers every block (possibly with flipped bits); with the receiving
//     core too slow, phy_rx_overflow pulses and what arrives is an in-order
//     subsequence; no overflow otherwise; isolated blocks arrive within 10
//     (LANES=1) or 12 lane cycles plus the lane model's delay (partial words
//     are not held back).
// Gaps (built with TB_GAPS=1, tests unit-link_phy-*-gaps): as a transceiver's
// 64b/66b gearbox, each end's tx lanes take no word in one cycle of 33
// (tx_lane_ready low, at a random phase) and each rx lane carries no word in
// one cycle of 33 (rx_lane_valid low, at a random phase per lane, random
// data on the port): everything above must hold with the gaps.
// Seed: --seed=N, +seed=N or env SEED; printed. --blocks=N sets the blocks
// per direction of the main phase (default 200000), --skew=N the largest
// extra delay of a lane in words (default 5). Exit 0 pass, 1 fail.
#include <algorithm>
#include <cmath>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "Vtb_link_phy.h"
#include "tb_util.h"
#include "verilated.h"

#ifndef TB_LANES
#define TB_LANES 1
#endif
#ifndef TB_CC_INTERVAL
#define TB_CC_INTERVAL 4096
#endif
#ifndef TB_GAPS
#define TB_GAPS 0
#endif

namespace {

constexpr unsigned kLanes = TB_LANES;
constexpr unsigned kCcInterval = TB_CC_INTERVAL;
constexpr bool kGaps = TB_GAPS != 0;
const char* const kTestName = kLanes == 1 ? (kGaps ? "unit-link_phy-1lane-gaps" : "unit-link_phy-1lane")
                                          : (kGaps ? "unit-link_phy-4lane-gaps" : "unit-link_phy-4lane");
constexpr unsigned kGapPeriod = 33;  // a gearbox's cycles per pause
typedef unsigned __int128 u128;
const u128 kMask66 = (((u128)1) << 66) - 1;
const uint64_t kMask58 = (1ull << 58) - 1;

// ---- blocks -------------------------------------------------------------------
struct Blk {
    uint8_t sync;
    uint64_t pl;
    bool operator==(const Blk& o) const { return sync == o.sync && pl == o.pl; }
    bool operator!=(const Blk& o) const { return !(*this == o); }
};
const Blk kIdle{2, 0xF50000000000001Eull};
const Blk kCc{2, 0xE10000000000002Dull};

unsigned hamming(const Blk& a, const Blk& b) {
    return tb::popcount64(a.pl ^ b.pl) + tb::popcount64((uint64_t)(a.sync ^ b.sync));
}
uint8_t crc8(uint64_t pl) {  // poly 0x07, init 0, MSB first, byte [7:0] first, bytes 0..6
    uint8_t c = 0;
    for (int byte = 0; byte < 7; byte++) {
        c ^= (uint8_t)(pl >> (8 * byte));
        for (int i = 0; i < 8; i++) c = (c & 0x80) ? (uint8_t)((c << 1) ^ 0x07) : (uint8_t)(c << 1);
    }
    return c;
}

// ---- wide signal access ----------------------------------------------------------
uint64_t get_bits(const uint32_t* w, unsigned lsb, unsigned n) {
    uint64_t v = 0;
    for (unsigned got = 0; got < n;) {
        unsigned b = lsb + got, sh = b % 32, take = std::min(32 - sh, n - got);
        uint64_t part = (uint64_t)(w[b / 32] >> sh) & ((take == 32) ? 0xFFFFFFFFull : ((1ull << take) - 1));
        v |= part << got;
        got += take;
    }
    return v;
}
void set_bits(uint32_t* w, unsigned lsb, unsigned n, uint64_t v) {
    for (unsigned put = 0; put < n;) {
        unsigned b = lsb + put, sh = b % 32, take = std::min(32 - sh, n - put);
        uint32_t m = (take == 32) ? 0xFFFFFFFFu : (((1u << take) - 1) << sh);
        w[b / 32] = (w[b / 32] & ~m) | (((uint32_t)(v >> put) << sh) & m);
        put += take;
    }
}
u128 get_word(const uint32_t* w, unsigned lane) {
    return (u128)get_bits(w, 66 * lane, 64) | ((u128)get_bits(w, 66 * lane + 64, 2) << 64);
}
void set_word(uint32_t* w, unsigned lane, u128 v) {
    set_bits(w, 66 * lane, 64, (uint64_t)v);
    set_bits(w, 66 * lane + 64, 2, (uint64_t)(v >> 64) & 3);
}
Blk get_blk(const uint32_t* w) { return Blk{(uint8_t)get_bits(w, 64, 2), get_bits(w, 0, 64)}; }
void set_blk(uint32_t* w, const Blk& b) {
    set_bits(w, 0, 64, b.pl);
    set_bits(w, 64, 2, b.sync);
}

// Reference descrambler (docs/link.md): d_i = s_i ^ s_{i-39} ^ s_{i-58}, bit 0
// first; h bit k holds s_{i-1-k}. Reset state all ones, like the RTL.
struct Descrambler {
    uint64_t h = kMask58;
    uint64_t run(uint64_t s) {
        uint64_t d = 0;
        for (int i = 0; i < 64; i++) {
            uint64_t r = (s >> i) & 1;
            d |= (r ^ ((h >> 38) & 1) ^ ((h >> 57) & 1)) << i;
            h = ((h << 1) | r) & kMask58;
        }
        return d;
    }
};

// ---- clocks --------------------------------------------------------------------
struct Clock {
    const char* name;
    uint64_t half_fs = 0, base_ps = 0, n = 0, next_ps = 0, last_ps = 0;
    bool level = false;
    uint64_t rises = 0;
    void init(const char* nm, uint64_t period_fs, uint64_t phase_ps) {
        name = nm;
        half_fs = period_fs / 2;
        base_ps = phase_ps;
        n = 0;
        next_ps = phase_ps;
    }
    // toggle at next_ps; returns true on a rising edge
    bool toggle() {
        level = !level;
        last_ps = next_ps;
        if (level) rises++;
        n++;
        next_ps = base_ps + (n * half_fs + 500) / 1000;
        return level;
    }
    // new period from the last toggle on
    void set_period(uint64_t period_fs) {
        half_fs = period_fs / 2;
        base_ps = last_ps;
        n = 1;
        next_ps = base_ps + (half_fs + 500) / 1000;
    }
};

// ---- lane model (one direction, kLanes lanes) ------------------------------------
struct LaneModel {
    static const unsigned kRing = 256;
    struct Lane {
        u128 ring[kRing];
        bool cc[kRing];
        int delay = 4;      // words
        unsigned off = 0;   // bit offset 0..65
        std::deque<uint64_t> slip_at;
        uint64_t rx_count = 0;  // words taken by the receiver on this lane
        uint64_t next_err = 0;  // bits to the next error
        unsigned garbage = 0;   // rx words still to replace by random ones
        uint64_t slips = 0, errors = 0;
    };
    Lane lane[kLanes];
    uint64_t tx_count = 0;
    double ber = 0;
    tb::Rng* rng = nullptr;

    uint64_t geometric() {  // bits to the next error at this BER (>= 1)
        double u = ((double)(rng->next() >> 11) + 0.5) / 9007199254740992.0;
        return 1 + (uint64_t)std::floor(std::log(u) / std::log1p(-ber));
    }
    void set_ber(double b) {
        ber = b;
        if (b > 0)
            for (auto& ln : lane) ln.next_err = geometric() - 1;
    }
    void push_tx(const u128* words, const bool* is_cc) {
        for (unsigned l = 0; l < kLanes; l++) {
            lane[l].ring[tx_count % kRing] = words[l];
            lane[l].cc[tx_count % kRing] = is_cc[l];
        }
        tx_count++;
    }
    void request_slip(unsigned l) { lane[l].slip_at.push_back(lane[l].rx_count + 2); }
    u128 random_word() { return ((u128)rng->next() << 64 | rng->next()) & kMask66; }
    // the rx word of lane l for this rx cycle (then next_rx(l))
    u128 rx_word(unsigned l) {
        Lane& ln = lane[l];
        const uint64_t m = ln.rx_count;
        while (!ln.slip_at.empty() && ln.slip_at.front() <= m) {
            ln.off = (ln.off + 1) % 66;
            ln.slips++;
            ln.slip_at.pop_front();
        }
        if ((int64_t)m < ln.delay + 2) return random_word();  // nothing sent yet
        const uint64_t j = m - ln.delay;
        if (j + 3 > tx_count || j + kRing < tx_count + 2) {
            std::fprintf(stderr, "lane model: word %llu not held (tx %llu)\n", (unsigned long long)j,
                         (unsigned long long)tx_count);
            std::exit(1);
        }
        u128 w = ((ln.ring[j % kRing] >> ln.off) | (ln.ring[(j + 1) % kRing] << (66 - ln.off))) & kMask66;
        if (ln.garbage) {
            ln.garbage--;
            return random_word();
        }
        if (ber > 0) {
            // with bonded lanes, spare CC blocks: an error in word j or j+1
            // reaches words j..j+2 through the descrambler
            bool spare = kLanes > 1 && (ln.cc[j % kRing] || ln.cc[(j + 1) % kRing] || ln.cc[(j + 2) % kRing]);
            while (ln.next_err < 66) {
                if (!spare) {
                    w ^= (u128)1 << ln.next_err;
                    ln.errors++;
                }
                ln.next_err += geometric();
            }
            ln.next_err -= 66;
        }
        return w;
    }
    void next_rx(unsigned l) { lane[l].rx_count++; }
};

// ---- ports of one PHY ----------------------------------------------------------
struct Ports {
    uint8_t *clk, *rst, *tx_blk_valid, *tx_blk_ready, *rx_blk_valid, *lock, *loss, *ovf;
    uint8_t *tx_lane_clk, *tx_lane_rst, *tx_lane_ready, *rx_lane_clk, *rx_lane_rst, *rx_lane_valid, *slip;
    uint32_t *tx_blk, *rx_blk, *tx_lane_data, *rx_lane_data;
};

enum Mode { EXACT, IGNORE, TOLERANT, SUBSEQ };
const char* const kModeName[] = {"exact", "ignore", "tolerant", "subsequence"};

struct Exp {
    Blk b;
    uint64_t t_ps;
};

// One direction: the source core of one end, its tx lanes, the lane model,
// and the receiving core of the other end.
struct Flow {
    const char* name;
    // source
    bool enabled = false;
    uint64_t limit = 0;  // accept until accepted == limit
    int force_pct = -1;
    unsigned pct = 50;
    uint64_t phase_left = 0;
    bool pending = false;
    Blk cur{1, 0};
    std::deque<Exp> expect;    // accepted, not yet received
    std::deque<Blk> tx_expect;  // accepted, not yet seen on the tx lanes
    uint64_t accepted = 0;
    // tx lane check
    Descrambler dsc[kLanes];
    bool tx_reset_word = true;  // the lanes took no word since the last tx lane reset
    unsigned tx_gap_phase = 0, rx_gap_phase[kLanes] = {};
    uint64_t tx_lane_cycles = 0, rx_lane_cycles = 0;
    uint64_t tx_cycles = 0, cc_rows = 0, idle_blocks = 0;
    int64_t last_cc = -1;
    // receiver
    Mode mode = EXACT;
    bool lock = false;
    uint64_t loss_pulses = 0, ovf_pulses = 0;
    uint64_t received = 0, ignored = 0, corrupted = 0, corrupted_filler = 0, lost = 0;
    uint64_t lat_n = 0, lat_sum = 0, lat_min = ~0ull, lat_max = 0, lat_last = 0;
    LaneModel lanes;
};

struct Sim {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vtb_link_phy> dut;
    tb::Rng rng;
    tb::Checker chk;
    Ports port[2];
    Flow flow[2];  // 0: A -> B, 1: B -> A
    enum { CORE_A, CORE_B, TXL_A, TXL_B, RXL_A, RXL_B, NCLK };
    Clock clk[NCLK];
    uint64_t now = 0, reset_release = 0;
    uint64_t core_period_fs[2], lane_period_fs[2];

    Sim(uint64_t seed, unsigned skew) : rng(seed), chk(kTestName) {
        ctx.reset(new VerilatedContext);
        dut.reset(new Vtb_link_phy(ctx.get()));
        Vtb_link_phy* d = dut.get();
        port[0] = Ports{&d->clk_a, &d->rst_a, &d->tx_blk_valid_a, &d->tx_blk_ready_a, &d->rx_blk_valid_a,
                        &d->phy_rx_lock_a, &d->phy_lock_loss_a, &d->phy_rx_overflow_a, &d->tx_lane_clk_a,
                        &d->tx_lane_rst_a, &d->tx_lane_ready_a, &d->rx_lane_clk_a, &d->rx_lane_rst_a,
                        &d->rx_lane_valid_a, &d->rx_lane_slip_a,
                        d->tx_blk_a.data(), d->rx_blk_a.data(), d->tx_lane_data_a.data(), d->rx_lane_data_a.data()};
        port[1] = Ports{&d->clk_b, &d->rst_b, &d->tx_blk_valid_b, &d->tx_blk_ready_b, &d->rx_blk_valid_b,
                        &d->phy_rx_lock_b, &d->phy_lock_loss_b, &d->phy_rx_overflow_b, &d->tx_lane_clk_b,
                        &d->tx_lane_rst_b, &d->tx_lane_ready_b, &d->rx_lane_clk_b, &d->rx_lane_rst_b,
                        &d->rx_lane_valid_b, &d->rx_lane_slip_b,
                        d->tx_blk_b.data(), d->rx_blk_b.data(), d->tx_lane_data_b.data(), d->rx_lane_data_b.data()};
        flow[0].name = "A->B";
        flow[1].name = "B->A";
        const uint64_t core_fs = 4000000, lane_fs = kLanes == 1 ? 6400000 : 16800000;
        // A at +100 ppm (shorter periods), B at -100 ppm
        core_period_fs[0] = core_fs - core_fs / 10000;
        core_period_fs[1] = core_fs + core_fs / 10000;
        lane_period_fs[0] = lane_fs - lane_fs / 10000;
        lane_period_fs[1] = lane_fs + lane_fs / 10000;
        clk[CORE_A].init("core A", core_period_fs[0], rng.below(4000));
        clk[CORE_B].init("core B", core_period_fs[1], rng.below(4000));
        uint64_t pa = rng.below(6000), pb = rng.below(6000);
        clk[TXL_A].init("tx lane A", lane_period_fs[0], pa);
        clk[TXL_B].init("tx lane B", lane_period_fs[1], pb);
        // recovered clocks: the other end's tx lane clock, delayed
        clk[RXL_B].init("rx lane B", lane_period_fs[0], pa + 1 + rng.below((uint32_t)(lane_fs / 1000 - 2)));
        clk[RXL_A].init("rx lane A", lane_period_fs[1], pb + 1 + rng.below((uint32_t)(lane_fs / 1000 - 2)));
        for (int f = 0; f < 2; f++) {
            LaneModel& lm = flow[f].lanes;
            lm.rng = &rng;
            for (unsigned l = 0; l < kLanes; l++) {
                lm.lane[l].delay = 4 + (kGaps ? 1 : 0) + (int)rng.below(skew + 1);  // skew 0..skew words
                lm.lane[l].off = rng.below(66);            // random start boundary
                flow[f].rx_gap_phase[l] = rng.below(kGapPeriod);
            }
            flow[f].tx_gap_phase = rng.below(kGapPeriod);
        }
        for (int e = 0; e < 2; e++) {
            *port[e].rst = *port[e].tx_lane_rst = *port[e].rx_lane_rst = 1;
            *port[e].clk = *port[e].tx_lane_clk = *port[e].rx_lane_clk = 0;
            *port[e].tx_blk_valid = 0;
            *port[e].tx_lane_ready = 1;
            *port[e].rx_lane_valid = (1u << kLanes) - 1;
        }
        reset_release = 40 * (lane_fs / 1000) + 10000;
        dut->eval();
    }

    void print_setup() {
        for (int f = 0; f < 2; f++) {
            std::printf("  lanes %s:", flow[f].name);
            for (unsigned l = 0; l < kLanes; l++)
                std::printf(" [%u] delay %d words, start offset %u bits;", l, flow[f].lanes.lane[l].delay,
                            flow[f].lanes.lane[l].off);
            std::printf("\n");
            if (kGaps) {
                std::printf("  gaps %s: tx pause at cycle %u of %u; rx gaps at", flow[f].name, flow[f].tx_gap_phase,
                            kGapPeriod);
                for (unsigned l = 0; l < kLanes; l++) std::printf(" %u", flow[f].rx_gap_phase[l]);
                std::printf("\n");
            }
        }
    }

    // -- core side -----------------------------------------------------------------
    void core_monitor(int e) {  // before a rising edge of end e's core clock
        Ports& p = port[e];
        Flow& src = flow[e];
        Flow& dst = flow[1 - e];
        if (*p.tx_blk_valid && *p.tx_blk_ready) {
            src.expect.push_back(Exp{src.cur, now});
            src.tx_expect.push_back(src.cur);
            src.accepted++;
            src.pending = false;
        }
        if (*p.rx_blk_valid) receive(dst, get_blk(p.rx_blk));
        dst.lock = *p.lock;
        if (*p.loss) dst.loss_pulses++;
        if (*p.ovf) dst.ovf_pulses++;
    }
    void core_drive(int e) {  // after a rising edge
        Ports& p = port[e];
        Flow& src = flow[e];
        *p.rst = now < reset_release;
        if (src.pending) return;  // valid stays until accepted
        if (src.phase_left == 0) {
            static const unsigned kPct[] = {0, 5, 20, 50, 80, 100, 100};
            src.pct = kPct[rng.below(7)];
            src.phase_left = 50 + rng.below(3000);
        }
        src.phase_left--;
        unsigned pct = src.force_pct >= 0 ? (unsigned)src.force_pct : src.pct;
        if (src.enabled && src.accepted < src.limit && !*p.rst && rng.chance(pct)) {
            if (rng.chance(50)) {
                src.cur = Blk{1, rng.next()};
            } else {  // control block of type 0x55 with a random body and its CRC-8
                uint64_t pl = (rng.next() & 0x00FFFFFFFFFFFF00ull) | 0x55;
                src.cur = Blk{2, pl | (uint64_t)crc8(pl) << 56};
            }
            src.pending = true;
            set_blk(p.tx_blk, src.cur);
        }
        *p.tx_blk_valid = src.pending;
    }
    void receive(Flow& f, const Blk& r) {
        f.received++;
        chk.check(r != kIdle && r != kCc, "%s t=%llu ps: %s block reached the core", f.name,
                  (unsigned long long)now, r == kIdle ? "IDLE" : "CC");
        switch (f.mode) {
            case EXACT:
                if (!chk.check(!f.expect.empty(), "%s t=%llu ps: spurious block %x:%016llx (nothing outstanding)",
                               f.name, (unsigned long long)now, r.sync, (unsigned long long)r.pl))
                    return;
                if (r != f.expect.front().b) {
                    chk.check(false, "%s t=%llu ps: block %x:%016llx, expected %x:%016llx (%zu outstanding)",
                              f.name, (unsigned long long)now, r.sync, (unsigned long long)r.pl,
                              f.expect.front().b.sync, (unsigned long long)f.expect.front().b.pl, f.expect.size());
                    for (size_t i = 1; i < f.expect.size() && i < 256; i++)  // resynchronise
                        if (f.expect[i].b == r) {
                            f.expect.erase(f.expect.begin(), f.expect.begin() + (long)i);
                            break;
                        }
                    if (r != f.expect.front().b) return;
                }
                {
                    uint64_t lat = now - f.expect.front().t_ps;
                    f.lat_n++;
                    f.lat_sum += lat;
                    f.lat_min = std::min(f.lat_min, lat);
                    f.lat_max = std::max(f.lat_max, lat);
                    f.lat_last = lat;
                }
                f.expect.pop_front();
                break;
            case IGNORE:
                f.ignored++;
                break;
            case TOLERANT:
                if (!f.expect.empty() && hamming(r, f.expect.front().b) <= 8) {
                    if (r != f.expect.front().b) f.corrupted++;
                    f.expect.pop_front();
                } else {
                    bool filler = hamming(r, kIdle) <= 8 || hamming(r, kCc) <= 8;
                    chk.check(filler, "%s t=%llu ps (BER): block %x:%016llx is neither the next one nor a damaged IDLE/CC",
                              f.name, (unsigned long long)now, r.sync, (unsigned long long)r.pl);
                    f.corrupted_filler++;
                }
                break;
            case SUBSEQ: {
                size_t i = 0;
                while (i < f.expect.size() && f.expect[i].b != r) i++;
                if (!chk.check(i < f.expect.size(), "%s t=%llu ps (overflow): block %x:%016llx out of order or unknown",
                               f.name, (unsigned long long)now, r.sync, (unsigned long long)r.pl))
                    return;
                f.lost += i;
                f.expect.erase(f.expect.begin(), f.expect.begin() + (long)i + 1);
                break;
            }
        }
    }

    // -- lane side -------------------------------------------------------------------
    void tx_lane_sample(int e) {  // before a rising edge of end e's tx lane clock
        Ports& p = port[e];
        Flow& f = flow[e];
        const bool consumed = *p.tx_lane_ready;  // else a gearbox pause: the lanes take nothing
        const bool reset_word = f.tx_reset_word;
        if (*p.tx_lane_rst) f.tx_reset_word = true;
        else if (consumed) f.tx_reset_word = false;
        if (!consumed) return;
        u128 w[kLanes];
        bool is_cc[kLanes];
        Blk b[kLanes];
        for (unsigned l = 0; l < kLanes; l++) {
            w[l] = get_word(p.tx_lane_data, l);
            uint64_t scr = (uint64_t)(w[l] >> 2);
            b[l].sync = (uint8_t)(w[l] & 3);
            if (reset_word) {  // the first word taken after a reset: scrambler state all ones, not checked
                f.dsc[l].h = kMask58;
                b[l].pl = f.dsc[l].run(scr);
            } else {
                b[l].pl = f.dsc[l].run(scr);
            }
            is_cc[l] = b[l] == kCc;
        }
        f.lanes.push_tx(w, is_cc);
        if (!reset_word) {
            unsigned ncc = 0;
            bool padded = false;
            for (unsigned l = 0; l < kLanes; l++) {
                chk.check(b[l].sync == 1 || b[l].sync == 2, "%s tx lane %u cycle %llu: sync header %u", f.name, l,
                          (unsigned long long)f.tx_cycles, b[l].sync);
                if (is_cc[l]) {
                    ncc++;
                } else if (b[l] == kIdle) {
                    padded = true;
                    f.idle_blocks++;
                } else {
                    chk.check(!padded, "%s tx cycle %llu: lane %u carries a block after IDLE padding", f.name,
                              (unsigned long long)f.tx_cycles, l);
                    if (chk.check(!f.tx_expect.empty() && b[l] == f.tx_expect.front(),
                                  "%s tx cycle %llu lane %u: block %x:%016llx, expected %s", f.name,
                                  (unsigned long long)f.tx_cycles, l, b[l].sync, (unsigned long long)b[l].pl,
                                  f.tx_expect.empty() ? "none" : "the next accepted block"))
                        f.tx_expect.pop_front();
                }
            }
            chk.check(ncc == 0 || ncc == kLanes, "%s tx cycle %llu: CC on %u of %u lanes", f.name,
                      (unsigned long long)f.tx_cycles, ncc, kLanes);
            if (ncc) {
                if (f.last_cc >= 0)
                    chk.check((uint64_t)((int64_t)f.tx_cycles - f.last_cc) == kCcInterval,
                              "%s tx cycle %llu: CC %lld cycles after the previous one", f.name,
                              (unsigned long long)f.tx_cycles, (long long)((int64_t)f.tx_cycles - f.last_cc));
                f.last_cc = (int64_t)f.tx_cycles;
                f.cc_rows++;
            }
            f.tx_cycles++;
        }
    }
    void tx_lane_drive(int e) {  // after a rising edge: the lanes take a word at the next edge?
        Flow& f = flow[e];
        f.tx_lane_cycles++;
        *port[e].tx_lane_ready = !kGaps || (f.tx_lane_cycles + f.tx_gap_phase) % kGapPeriod != 0;
    }
    void rx_slip_sample(int e) {  // before a rising edge of end e's rx lane clock
        for (unsigned l = 0; l < kLanes; l++)
            if ((*port[e].slip >> l) & 1) flow[1 - e].lanes.request_slip(l);
    }
    void rx_drive(int e) {  // after a rising edge of end e's rx lane clock
        Flow& f = flow[1 - e];
        LaneModel& lm = f.lanes;
        f.rx_lane_cycles++;
        uint8_t valid = 0;
        for (unsigned l = 0; l < kLanes; l++) {
            if (kGaps && (f.rx_lane_cycles + f.rx_gap_phase[l]) % kGapPeriod == 0) {
                set_word(port[e].rx_lane_data, l, lm.random_word());  // a gap: not a word
                continue;
            }
            valid |= (uint8_t)(1u << l);
            set_word(port[e].rx_lane_data, l, lm.rx_word(l));
            lm.next_rx(l);
        }
        *port[e].rx_lane_valid = valid;
    }

    // -- one time step ------------------------------------------------------------------
    void step() {
        uint64_t t = ~0ull;
        for (auto& c : clk) t = std::min(t, c.next_ps);
        now = t;
        bool rise[NCLK];
        for (int c = 0; c < NCLK; c++) rise[c] = clk[c].next_ps == t && !clk[c].level;
        if (rise[CORE_A] && !*port[0].rst) core_monitor(0);
        if (rise[CORE_B] && !*port[1].rst) core_monitor(1);
        if (rise[TXL_A]) tx_lane_sample(0);
        if (rise[TXL_B]) tx_lane_sample(1);
        if (rise[RXL_A]) rx_slip_sample(0);
        if (rise[RXL_B]) rx_slip_sample(1);
        for (int c = 0; c < NCLK; c++)
            if (clk[c].next_ps == t) clk[c].toggle();
        *port[0].clk = clk[CORE_A].level;
        *port[1].clk = clk[CORE_B].level;
        *port[0].tx_lane_clk = clk[TXL_A].level;
        *port[1].tx_lane_clk = clk[TXL_B].level;
        *port[0].rx_lane_clk = clk[RXL_A].level;
        *port[1].rx_lane_clk = clk[RXL_B].level;
        dut->eval();
        bool any = false;
        if (rise[CORE_A]) core_drive(0), any = true;
        if (rise[CORE_B]) core_drive(1), any = true;
        if (rise[TXL_A]) *port[0].tx_lane_rst = now < reset_release, tx_lane_drive(0), any = true;
        if (rise[TXL_B]) *port[1].tx_lane_rst = now < reset_release, tx_lane_drive(1), any = true;
        if (rise[RXL_A]) *port[0].rx_lane_rst = now < reset_release, rx_drive(0), any = true;
        if (rise[RXL_B]) *port[1].rx_lane_rst = now < reset_release, rx_drive(1), any = true;
        if (any) dut->eval();
    }
    // Run until cond() or for at most max_ns; false (and a failure) on timeout.
    template <class F>
    bool run_until(F cond, uint64_t max_ns, const char* what) {
        const uint64_t end = now + max_ns * 1000;
        while (!cond()) {
            if (now > end || chk.failures() > 20) {
                chk.check(chk.failures() > 20, "timeout after %llu ns waiting for %s", (unsigned long long)max_ns, what);
                return false;
            }
            step();
        }
        return true;
    }
    void run_ns(uint64_t ns) {
        const uint64_t end = now + ns * 1000;
        while (now < end && chk.failures() <= 20) step();
    }
    bool drained(const Flow& f) const { return f.expect.empty() && f.tx_expect.empty() && !f.pending; }
    // Send n more blocks on each listed flow and wait until all have arrived.
    bool traffic(uint64_t n0, uint64_t n1, const char* what) {
        flow[0].limit = flow[0].accepted + n0;
        flow[1].limit = flow[1].accepted + n1;
        flow[0].enabled = n0 > 0;
        flow[1].enabled = n1 > 0;
        bool ok = run_until([&] { return flow[0].accepted >= flow[0].limit && flow[1].accepted >= flow[1].limit; },
                            (n0 + n1 + 1000) * 100, what);
        flow[0].enabled = flow[1].enabled = false;
        return ok && drain(what);
    }
    bool drain(const char* what) {
        std::string w = std::string(what) + " (drain)";
        return run_until([&] { return drained(flow[0]) && drained(flow[1]); }, 200000, w.c_str());
    }
};

}  // namespace

int main(int argc, char** argv) {
    Verilated::commandArgs(argc, argv);
    const uint64_t seed = tb::seed_from(argc, argv);
    uint64_t n_main = 200000;
    unsigned skew = 5;
    for (int i = 1; i < argc; i++) {
        if (!std::strncmp(argv[i], "--blocks=", 9)) n_main = std::strtoull(argv[i] + 9, nullptr, 0);
        if (!std::strncmp(argv[i], "--skew=", 7)) skew = (unsigned)std::strtoul(argv[i] + 7, nullptr, 0);
    }
    std::unique_ptr<Sim> simp(new Sim(seed, skew));
    Sim& s = *simp;
    tb::Checker& chk = s.chk;
    std::printf("%s: SEED=%llu, LANES=%u, CC_INTERVAL=%u, %llu blocks per direction\n", kTestName, (unsigned long long)seed, kLanes, kCcInterval,
                (unsigned long long)n_main);
    s.print_setup();
    Flow& ab = s.flow[0];
    Flow& ba = s.flow[1];
    auto report = [&](const char* phase) {
        std::printf("  %-34s t=%9.3f us  A->B acc %7llu rcv %7llu  B->A acc %7llu rcv %7llu  losses %llu/%llu\n",
                    phase, s.now / 1e6, (unsigned long long)ab.accepted, (unsigned long long)ab.received,
                    (unsigned long long)ba.accepted, (unsigned long long)ba.received,
                    (unsigned long long)ab.loss_pulses, (unsigned long long)ba.loss_pulses);
    };
    auto finish = [&]() {
        s.dut->final();
        char summary[512];
        uint64_t slips = 0;
        for (auto& f : s.flow)
            for (auto& ln : f.lanes.lane) slips += ln.slips;
        std::snprintf(summary, sizeof summary,
                      "LANES=%u, %llu + %llu blocks checked in order, %llu lock losses (all expected), "
                      "%llu slips, A->B latency incl. lane model and queueing %.1f..%.1f ns (mean %.1f)",
                      kLanes, (unsigned long long)ab.lat_n, (unsigned long long)ba.lat_n,
                      (unsigned long long)(ab.loss_pulses + ba.loss_pulses), (unsigned long long)slips,
                      ab.lat_min / 1e3, ab.lat_max / 1e3, ab.lat_n ? ab.lat_sum / 1e3 / ab.lat_n : 0.0);
        return chk.finish(seed, summary);
    };
    const uint64_t cc_ns = (uint64_t)kCcInterval * (kLanes == 1 ? 7 : 17);

    // 1. lock from random boundaries; nothing reaches either core
    if (!s.run_until([&] { return ab.lock && ba.lock; }, 3000000, "lock")) return finish();
    report("locked");
    chk.check(ab.loss_pulses == 0 && ba.loss_pulses == 0 && ab.received == 0 && ba.received == 0,
              "lock: %llu/%llu loss pulses, %llu/%llu blocks before any traffic",
              (unsigned long long)ab.loss_pulses, (unsigned long long)ba.loss_pulses,
              (unsigned long long)ab.received, (unsigned long long)ba.received);

    // 2. isolated blocks A->B: zero-load latency of the two PHYs (the lane
    //    model's delay taken out); bounded, so a partial word is not held back
    {
        uint64_t dmax = 0, lmin = ~0ull, lmax = 0;
        for (auto& ln : ab.lanes.lane) dmax = std::max(dmax, (uint64_t)ln.delay);
        const uint64_t model_ps = (dmax + 1) * s.lane_period_fs[0] / 1000 +
                                  (s.clk[Sim::RXL_B].base_ps - s.clk[Sim::TXL_A].base_ps);
        for (int i = 0; i < 300 && chk.failures() == 0; i++) {
            const uint64_t n0 = ab.lat_n;
            ab.limit = ab.accepted + 1;
            ab.enabled = true;
            ab.force_pct = 100;
            if (!s.run_until([&] { return ab.lat_n > n0; }, 10000, "an isolated block")) break;
            lmin = std::min(lmin, ab.lat_last - model_ps);
            lmax = std::max(lmax, ab.lat_last - model_ps);
            s.run_ns(s.rng.below(300));
        }
        ab.enabled = false;
        ab.force_pct = -1;
        const double core_ns = s.core_period_fs[0] / 1e6, lane_ns = s.lane_period_fs[0] / 1e6;
        std::printf("  isolated blocks: PHY A tx + PHY B rx latency %.1f..%.1f ns (lane model %.1f ns taken out)"
                    " = %.1f..%.1f lane cycles\n", lmin / 1e3, lmax / 1e3, model_ps / 1e3, lmin / 1e3 / lane_ns,
                    lmax / 1e3 / lane_ns);
        (void)core_ns;
        const double bound_ns = ((kLanes == 1 ? 10 : 12) + (kGaps ? 3 : 0)) * lane_ns;
        chk.check(lmax / 1e3 <= bound_ns, "isolated blocks: latency up to %.1f ns, more than %.1f ns", lmax / 1e3,
                  bound_ns);
    }

    // 3. main traffic, both directions, exact
    s.traffic(n_main, n_main, "main traffic");
    report("main traffic");
    chk.check(ab.loss_pulses == 0 && ba.loss_pulses == 0, "lock lost during main traffic");

    // 4. garbage bursts on A->B: all lanes, then (bonded) one lane. B->A keeps
    //    running and must not notice. Exactly one lock loss each, then relock.
    for (unsigned burst = 0; burst < (kLanes == 1 ? 1u : 2u); burst++) {
        const uint64_t loss0 = ab.loss_pulses, other0 = ba.loss_pulses;
        ab.mode = IGNORE;
        ba.limit = ba.accepted + 20000;
        ba.enabled = true;
        for (unsigned l = 0; l < kLanes; l++)
            if (burst == 0 || l == 1) ab.lanes.lane[l].garbage = 300;
        if (!s.run_until([&] { return ab.loss_pulses > loss0; }, 100000, "lock loss after garbage")) return finish();
        if (!s.run_until([&] { return ab.lock; }, 3000000, "relock after garbage")) return finish();
        ab.mode = EXACT;
        ba.enabled = false;
        s.traffic(20000, 0, "traffic after relock");
        report(burst == 0 ? "garbage burst, all lanes" : "garbage burst, lane 1");
        chk.check(ab.loss_pulses == loss0 + 1 && ba.loss_pulses == other0,
                  "garbage burst %u: %llu lock loss pulses A->B (1 expected), %llu B->A (0 expected)", burst,
                  (unsigned long long)(ab.loss_pulses - loss0), (unsigned long long)(ba.loss_pulses - other0));
    }

    // 5. bonded lanes: one lane's delay grows / shrinks by a word -> the next CC
    //    row disagrees, alignment is lost once and found again.
    if (kLanes > 1) {
        const unsigned lane_of[2] = {2, 0};
        const int delta[2] = {+1, -1};
        for (int k = 0; k < 2; k++) {
            const uint64_t loss0 = ab.loss_pulses;
            ab.mode = IGNORE;
            ab.lanes.lane[lane_of[k]].delay += delta[k];
            if (!s.run_until([&] { return ab.loss_pulses > loss0; }, 3 * cc_ns, "alignment loss after a skew change"))
                return finish();
            if (!s.run_until([&] { return ab.lock; }, 4 * cc_ns, "realignment")) return finish();
            ab.mode = EXACT;
            s.traffic(20000, 20000, "traffic after realignment");
            report(k == 0 ? "lane 2 one word later" : "lane 0 one word earlier");
            chk.check(ab.loss_pulses == loss0 + 1, "skew change %d: %llu lock loss pulses (1 expected)", k,
                      (unsigned long long)(ab.loss_pulses - loss0));
        }
    }

    // 6. bit errors in both directions: lock holds, every block still arrives
    {
        const uint64_t l0 = ab.loss_pulses, l1 = ba.loss_pulses;
        ab.mode = ba.mode = TOLERANT;
        ab.lanes.set_ber(1e-5);
        ba.lanes.set_ber(1e-5);
        s.flow[0].limit = ab.accepted + 40000;
        s.flow[1].limit = ba.accepted + 40000;
        ab.enabled = ba.enabled = true;
        s.run_until([&] { return ab.accepted >= ab.limit && ba.accepted >= ba.limit; }, 10000000, "BER traffic");
        ab.enabled = ba.enabled = false;
        ab.lanes.set_ber(0);
        ba.lanes.set_ber(0);
        s.drain("BER traffic");
        ab.mode = ba.mode = EXACT;
        uint64_t errs = 0;
        for (int f = 0; f < 2; f++)
            for (auto& ln : s.flow[f].lanes.lane) errs += ln.errors;
        report("BER 1e-5");
        std::printf("    %llu bit errors injected, %llu blocks damaged, %llu damaged IDLE/CC passed\n",
                    (unsigned long long)errs, (unsigned long long)(ab.corrupted + ba.corrupted),
                    (unsigned long long)(ab.corrupted_filler + ba.corrupted_filler));
        chk.check(ab.loss_pulses == l0 && ba.loss_pulses == l1, "BER phase: lock lost");
        chk.check(errs > 0 && ab.corrupted + ba.corrupted + ab.corrupted_filler + ba.corrupted_filler > 0,
                  "BER phase: no errors injected or none seen");
    }

    // 7. B's core too slow for A's lanes: phy_rx_overflow, an in-order subsequence
    {
        const uint64_t l0 = ab.loss_pulses;
        ab.mode = SUBSEQ;
        s.clk[Sim::CORE_B].set_period(s.core_period_fs[1] * 3);
        ab.force_pct = 100;
        ab.limit = ab.accepted + 30000;
        ab.enabled = true;
        s.run_until([&] { return ab.accepted >= ab.limit; }, 10000000, "overflow traffic");
        ab.enabled = false;
        // what was dropped never comes: wait for the tx side, then a while
        s.run_until([&] { return ab.tx_expect.empty() && !ab.pending; }, 200000, "overflow traffic sent");
        s.run_ns(20000);
        ab.lost += ab.expect.size();
        ab.expect.clear();
        s.clk[Sim::CORE_B].set_period(s.core_period_fs[1]);
        ab.force_pct = -1;
        ab.mode = EXACT;
        report("receiving core too slow");
        std::printf("    %llu overflow pulses, %llu blocks lost\n", (unsigned long long)ab.ovf_pulses,
                    (unsigned long long)ab.lost);
        chk.check(ab.ovf_pulses > 0 && ab.lost >= ab.ovf_pulses, "overflow: %llu pulses, %llu blocks lost",
                  (unsigned long long)ab.ovf_pulses, (unsigned long long)ab.lost);
        chk.check(ab.loss_pulses == l0, "overflow phase: lock lost");
    }
    const uint64_t ovf_ab = ab.ovf_pulses;

    // 8. back to normal
    s.traffic(20000, 20000, "final traffic");
    report("final traffic");
    chk.check(ab.ovf_pulses == ovf_ab && ba.ovf_pulses == 0, "overflow pulses outside the overflow phase: %llu, %llu",
              (unsigned long long)(ab.ovf_pulses - ovf_ab), (unsigned long long)ba.ovf_pulses);
    chk.check(ab.cc_rows > 2 && ba.cc_rows > 2, "too few CC rows sent: %llu, %llu", (unsigned long long)ab.cc_rows,
              (unsigned long long)ba.cc_rows);
    std::printf("  CC rows sent %llu/%llu, IDLE blocks %llu/%llu\n", (unsigned long long)ab.cc_rows,
                (unsigned long long)ba.cc_rows, (unsigned long long)ab.idle_blocks, (unsigned long long)ba.idle_blocks);
    return finish();
}
