// test_lane_model.cpp - unit test of the lane model (sw/rtlsim/kolo_lane_model.h)
// on its own, with fixed seeds (SEED in the environment replaces the base seed).
//
//  1. no faults: the output is the input delayed by exactly `delay` words;
//     the word-parallel descrambler agrees with kolo_ref_descramble.
//  2. BER: flipped bits counted and within 5 sigma of BER x bits at 1e-3 and
//     1e-6, sync headers hit too; the output differs from the input in
//     exactly the counted bits; 1e-9 over 20 M words is cheap.
//  3. slips: from every start-up offset 0..65, a block-lock loop that slips on
//     a bad sync header locks, and the locked stream is the input stream.
//  4. drops and duplicates: counts within bounds of the rates; a numbered
//     stream shows exactly the counted drops/duplicates and nothing else.
//  5. bursts (scheduled and random) and a dead window garble exactly the
//     words they should.
//  6. classification of a scrambled block stream by kind, and targeted
//     corruption: only words of the chosen kinds, at the chosen rate, and an
//     armed one-shot hits exactly one word.
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "kolo_lane_model.h"
#include "kolo_linkref.h"

using namespace kolo_lane;

namespace {

int g_fail = 0;
#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        if (!(cond)) {                                                     \
            std::printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);     \
            std::printf(__VA_ARGS__);                                      \
            std::printf("\n");                                             \
            g_fail++;                                                      \
        }                                                                  \
    } while (0)

uint64_t g_seed = 1;

bool within_sigma(double got, double expect, double nsig) {
    return std::fabs(got - expect) <= nsig * std::sqrt(std::max(expect, 1.0));
}

void test_identity() {
    SplitMix64 r(g_seed ^ 11);
    for (unsigned d : {1u, 2u, 8u, 40u}) {
        LaneModel m(g_seed, d);
        std::vector<Word66> in;
        bool ok = true;
        for (int t = 0; t < 5000; t++) {
            Word66 w = r.word66() & w66_mask();
            in.push_back(w);
            m.push(w);
            Word66 o = m.pop();
            Word66 e = t >= static_cast<int>(d) ? in[static_cast<size_t>(t) - d] : 0;
            if (o != e) ok = false;
        }
        CHECK(ok, "delay %u: output is not the input delayed", d);
        CHECK(m.counters().faulty_words() == 0, "faults without configuration");
    }
    // descrambler
    uint64_t st = KOLO_SCRAMBLER_STATE_INIT, dst = KOLO_SCRAMBLER_STATE_INIT, prev = 0;
    bool ok = true;
    for (int i = 0; i < 2000; i++) {
        uint64_t d = r.next();
        uint64_t s = kolo_ref_scramble(&st, d);
        uint64_t ref = kolo_ref_descramble(&dst, s);
        uint64_t mine = descramble64(prev, s);
        prev = s;
        if (i > 0 && (mine != ref || mine != d)) ok = false;
    }
    CHECK(ok, "descramble64 disagrees with kolo_ref_descramble");
}

void test_ber() {
    struct Case {
        double ber;
        uint64_t words;
    } cases[] = {{1e-3, 200000}, {1e-6, 3000000}, {1e-4, 500000}};
    for (const auto &c : cases) {
        LaneModel m(g_seed + 7, 4);
        m.set_ber(c.ber);
        SplitMix64 r(g_seed ^ 22);
        std::vector<Word66> ring(4);
        uint64_t diff_bits = 0, diff_sync = 0;
        for (uint64_t t = 0; t < c.words; t++) {
            Word66 w = r.word66() & w66_mask();
            m.push(w);
            Word66 o = m.pop();
            if (t >= 4) {
                Word66 x = o ^ ring[t % 4];
                diff_bits += w66_popcount(x);
                diff_sync += w66_popcount(x & 3);
            }
            ring[t % 4] = w;
        }
        const auto &k = m.counters();
        double expect = c.ber * 66.0 * static_cast<double>(c.words);
        std::printf("  BER %.0e: %" PRIu64 " words, %" PRIu64 " bit errors (expected %.0f), %" PRIu64
                    " in sync headers, %" PRIu64 " words hit\n",
                    c.ber, c.words, k.bit_errors, expect, k.sync_bit_errors, k.words_bit_errors);
        CHECK(within_sigma(static_cast<double>(k.bit_errors), expect, 5), "BER %g: %" PRIu64 " errors, expected %.0f",
              c.ber, k.bit_errors, expect);
        // the last 4 words pushed are still in the line: their errors are not seen yet
        CHECK(diff_bits <= k.bit_errors && diff_bits + 4 * 66 >= k.bit_errors,
              "BER %g: %" PRIu64 " differing bits, counter %" PRIu64, c.ber, diff_bits, k.bit_errors);
        double es = c.ber * 2.0 * static_cast<double>(c.words);
        CHECK(within_sigma(static_cast<double>(k.sync_bit_errors), es, 5), "BER %g: %" PRIu64 " sync errors, expected %.0f",
              c.ber, k.sync_bit_errors, es);
        CHECK(diff_sync <= k.sync_bit_errors, "sync differences above counter");
    }
    // 1e-9: cheap
    LaneModel m(g_seed + 9, 4);
    m.set_ber(1e-9);
    auto t0 = std::chrono::steady_clock::now();
    for (uint64_t t = 0; t < 20000000; t++) {
        m.push(0);
        (void)m.pop();
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("  BER 1e-9: 20M words in %.2f s, %" PRIu64 " bit errors (expected %.2f)\n", s,
                m.counters().bit_errors, 1e-9 * 66 * 2e7);
    CHECK(m.counters().bit_errors <= 10, "BER 1e-9: %" PRIu64 " errors in 1.32e9 bits", m.counters().bit_errors);
    // a BER window
    LaneModel w(g_seed + 10, 4);
    w.add_ber_window(100000, 100000, 1e-3);
    for (uint64_t t = 0; t < 300000; t++) {
        w.push(0);
        (void)w.pop();
    }
    CHECK(within_sigma(static_cast<double>(w.counters().bit_errors), 6600, 5), "BER window: %" PRIu64 " errors",
          w.counters().bit_errors);
}

// words with valid sync headers and random payloads
Word66 good_word(SplitMix64 &r) { return w66_make(r.chance(0.7) ? 1 : 2, r.next()); }

void test_slip() {
    int worst = 0;
    for (int off = 0; off < 66; off++) {
        LaneModel m(g_seed + 100 + static_cast<uint64_t>(off), 6);
        CHECK(m.set_start_offset(off) == off, "offset");
        SplitMix64 r(g_seed ^ 33 ^ static_cast<uint64_t>(off));
        std::vector<Word66> in;
        // lock: 64 good sync headers in a row; slip on every bad one
        int good = 0, t_lock = -1;
        bool slip_req = false;
        for (int t = 0; t < 20000 && t_lock < 0; t++) {
            if (slip_req) m.slip();
            Word66 w = good_word(r);
            in.push_back(w);
            m.push(w);
            Word66 o = m.pop();
            unsigned s = w66_sync(o);
            slip_req = false;
            if (t < 6) continue;  // filler
            if (s == 1 || s == 2) {
                if (++good == 64) t_lock = t;
            } else {
                good = 0;
                slip_req = true;
            }
        }
        CHECK(t_lock >= 0, "offset %d: no lock", off);
        if (t_lock < 0) continue;
        worst = std::max(worst, t_lock);
        CHECK(m.bit_offset() == 0, "offset %d: locked at bit offset %u", off, m.bit_offset());
        // after lock, the output is the input, some words later
        Word66 o = 0;
        std::vector<Word66> outs;
        for (int t = 0; t < 200; t++) {
            Word66 w = good_word(r);
            in.push_back(w);
            m.push(w);
            o = m.pop();
            outs.push_back(o);
        }
        size_t n_in = in.size();
        bool found = false;
        for (size_t lag = 1; lag <= 8 && !found; lag++) {
            bool all = true;
            for (size_t i = 0; i < outs.size(); i++)
                if (outs[i] != in[n_in - outs.size() + i - lag]) {
                    all = false;
                    break;
                }
            found = all;
        }
        CHECK(found, "offset %d: locked stream is not the input stream", off);
        CHECK(m.counters().slips == static_cast<uint64_t>(off ? 66 - off : 0) ||
                  (m.counters().slips % 66) == static_cast<uint64_t>((66 - off) % 66),
              "offset %d: %" PRIu64 " slips", off, m.counters().slips);
    }
    std::printf("  slip: all 66 start-up offsets lock, worst after %d words\n", worst);
    // random offset is in range and seeded
    LaneModel a(g_seed, 4), b(g_seed, 4);
    int oa = a.set_start_offset(-1), ob = b.set_start_offset(-1);
    CHECK(oa == ob && oa >= 0 && oa < 66, "random offset %d %d", oa, ob);
}

void test_drop_dup() {
    const uint64_t n = 1000000;
    const double rate = 1e-3;
    LaneModel m(g_seed + 200, 8);
    m.set_drop_rate(rate);
    m.set_dup_rate(rate);
    uint64_t seen_drop = 0, seen_dup = 0, other = 0;
    uint64_t prev = 0;
    bool started = false;
    for (uint64_t t = 0; t < n; t++) {
        m.push(w66_make(1, t + 1));  // payload = 1-based index
        uint64_t v = w66_payload(m.pop());
        if (v == 0) continue;  // filler
        if (started) {
            if (v == prev + 1) {
            } else if (v == prev) seen_dup++;
            else if (v == prev + 2) seen_drop++;
            else other++;
        }
        started = true;
        prev = v;
    }
    const auto &k = m.counters();
    std::printf("  drop/dup at %.0e: %" PRIu64 " dropped, %" PRIu64 " duplicated (expected about %.0f each)\n", rate,
                k.dropped, k.duplicated, rate * n);
    CHECK(within_sigma(static_cast<double>(k.dropped), rate * n, 6), "dropped %" PRIu64, k.dropped);
    CHECK(within_sigma(static_cast<double>(k.duplicated), rate * n, 6), "duplicated %" PRIu64, k.duplicated);
    // a drop right after the filler can hide in it; everything else is seen
    CHECK(seen_dup == k.duplicated && seen_drop + 1 >= k.dropped && seen_drop <= k.dropped && other == 0,
          "stream shows %" PRIu64 " drops %" PRIu64 " dups %" PRIu64 " other", seen_drop, seen_dup, other);
    CHECK(m.queued() >= 1 && m.queued() <= 8 + 64, "queue %zu", m.queued());
}

void test_bursts_dead() {
    SplitMix64 r(g_seed ^ 44);
    const unsigned d = 5;
    LaneModel m(g_seed + 300, d);
    m.schedule_burst(1000, 10);
    m.add_dead(5000, 1000, DeadMode::Zeros);
    m.add_dead(8000, 500, DeadMode::Garbage);
    std::vector<Word66> in;
    bool ok_b = true, ok_z = true, ok_g = true, ok_clean = true;
    for (uint64_t t = 0; t < 10000; t++) {
        Word66 w = good_word(r);
        in.push_back(w);
        m.push(w);
        Word66 o = m.pop();
        if (t < d) continue;
        uint64_t s = t - d;  // index of the word this output came from
        bool burst = s >= 1000 && s < 1010, zero = s >= 5000 && s < 6000, garb = s >= 8000 && s < 8500;
        if (burst) ok_b &= o != in[s];
        else if (zero) ok_z &= o == 0;
        else if (garb) ok_g &= o != in[s];
        else ok_clean &= o == in[s];
    }
    CHECK(ok_b, "scheduled burst did not garble words 1000..1009");
    CHECK(ok_z, "dead (zeros) window not all zero");
    CHECK(ok_g, "dead (garbage) window passed a word through");
    CHECK(ok_clean, "a word outside the fault windows changed");
    CHECK(m.counters().bursts == 1 && m.counters().burst_words == 10 && m.counters().dead_words == 1500,
          "counters: bursts %" PRIu64 " burst words %" PRIu64 " dead %" PRIu64, m.counters().bursts,
          m.counters().burst_words, m.counters().dead_words);
    CHECK(m.dead_at(5500) && !m.dead_at(6000), "dead_at");
    // random bursts
    LaneModel b(g_seed + 301, d);
    b.set_bursts(1e-4, 8);
    for (uint64_t t = 0; t < 1000000; t++) {
        b.push(0);
        (void)b.pop();
    }
    std::printf("  random bursts at 1e-4/word, 8 words: %" PRIu64 " bursts, %" PRIu64 " words\n",
                b.counters().bursts, b.counters().burst_words);
    // a burst every 1/1e-4 + 8 words on average
    CHECK(within_sigma(static_cast<double>(b.counters().bursts), 1e6 / (1e4 + 8), 6), "bursts %" PRIu64,
          b.counters().bursts);
    CHECK(b.counters().burst_words == 8 * b.counters().bursts || b.counters().burst_words + 8 > 8 * b.counters().bursts,
          "burst words");
    // set_dead now/off
    LaneModel x(g_seed + 302, 2);
    x.set_dead(true, DeadMode::Zeros);
    for (int t = 0; t < 10; t++) x.push(w66_make(1, 123));
    x.set_dead(false);
    for (int t = 0; t < 10; t++) x.push(w66_make(1, 123));
    CHECK(x.counters().dead_words == 10, "set_dead");
}

// A scrambled block stream like a link transmitter's: frames (data blocks,
// then an EOF, sometimes broken off by an ABORT), CTRL, IDLE, CC, INIT.
struct Gen {
    SplitMix64 r;
    uint64_t st = KOLO_SCRAMBLER_STATE_INIT;
    int in_frame = 0, frame_len = 0;
    bool aborts = false;
    explicit Gen(uint64_t s) : r(s) {}
    Word66 next(unsigned *kind) {
        unsigned sync = 2;
        uint64_t p;
        if (in_frame > 0) {
            in_frame--;
            sync = 1;
            p = r.next();
            *kind = kKindData;
            if (in_frame == 0) in_frame = aborts ? -2 : -1;  // then its EOF or an ABORT
        } else if (in_frame == -1) {
            in_frame = 0;
            p = kolo_ref_eof_block(static_cast<unsigned>(r.below(4096)), static_cast<unsigned>(r.below(4)),
                                   static_cast<unsigned>(frame_len), static_cast<uint32_t>(r.next()));
            *kind = kKindEof;
        } else if (in_frame == -2) {
            in_frame = 0;
            p = kolo_ref_abort_block();
            *kind = kKindAbort;
        } else {
            uint64_t c = r.below(100);
            if (c < 40) {
                frame_len = 2 + static_cast<int>(r.below(33));
                aborts = r.below(8) == 0;
                in_frame = frame_len - 1;
                sync = 1;
                p = r.next();
                *kind = kKindData;
            } else if (c < 60) {
                kolo_ref_ctrl f{};
                f.ack = static_cast<unsigned>(r.below(4096));
                p = kolo_ref_ctrl_msg_block(&f);
                *kind = kKindCtrl;
            } else if (c < 80) {
                p = kolo_ref_idle_block();
                *kind = kKindIdle;
            } else if (c < 90) {
                p = kolo_ref_cc_block();
                *kind = kKindCC;
            } else {
                kolo_ref_init f{};
                f.node_id = 5;
                p = kolo_ref_init_block(&f);
                *kind = kKindInit;
            }
        }
        return w66_make(sync, kolo_ref_scramble(&st, p));
    }
};

void test_classify_target() {
    // classification
    {
        LaneModel m(g_seed + 400, 3);
        Gen g(g_seed ^ 55);
        uint64_t expect[kNumKinds] = {};
        for (int t = 0; t < 50000; t++) {
            unsigned k;
            Word66 w = g.next(&k);
            expect[k]++;
            m.push(w);
            (void)m.pop();
        }
        // the first word is classified with no descrambler history (the
        // transmitter's scrambler starts from all ones): it may be off by one
        uint64_t off = 0;
        for (unsigned k = 0; k < kNumKinds; k++) {
            uint64_t a = m.counters().tx_kind[k], b = expect[k];
            off += a > b ? a - b : b - a;
        }
        bool ok = off <= 2;
        CHECK(ok, "classification counts differ");
        std::printf("  classified:");
        for (unsigned k = 0; k < kNumKinds; k++) std::printf(" %s %" PRIu64, kind_name(k), m.counters().tx_kind[k]);
        std::printf("\n");
    }
    // targeted: CTRL blocks at rate 1, PayloadBit; the receiver descrambles
    {
        LaneModel m(g_seed + 401, 3);
        m.add_target(kMaskCtrl, 1.0, 1000, 20000);
        Gen g(g_seed ^ 66);
        std::vector<unsigned> kinds;
        uint64_t rx_prev = 0;
        uint64_t ctrl_bad = 0, ctrl_in_window = 0, other_bad_unexplained = 0;
        // reference stream: the same generator again, unscrambled
        Gen ref(g_seed ^ 66);
        uint64_t ref_st = KOLO_SCRAMBLER_STATE_INIT;
        std::vector<uint64_t> ref_payload;
        for (int t = 0; t < 30000; t++) {
            unsigned k;
            Word66 w = g.next(&k);
            unsigned k2;
            Word66 rw = ref.next(&k2);
            ref_payload.push_back(kolo_ref_descramble(&ref_st, w66_payload(rw)));
            kinds.push_back(k);
            m.push(w);
            Word66 o = m.pop();
            if (t < 3) continue;
            size_t s = static_cast<size_t>(t) - 3;
            uint64_t sp = w66_payload(o);
            uint64_t dp = descramble64(rx_prev, sp);
            rx_prev = sp;
            if (s == 0) continue;  // no descrambler history yet
            bool bad = dp != ref_payload[s] || w66_sync(o) != w66_sync(w66_make(kinds[s] == kKindData ? 1 : 2, 0));
            bool in_win = s >= 1000 && s < 21000;
            if (kinds[s] == kKindCtrl && in_win) {
                ctrl_in_window++;
                ctrl_bad += bad;
                // one wire bit error is 3 payload bit errors (i, i+39, i+58): the
                // CRC-8 (distance 4) sees them, unless the CTRL block before was
                // corrupted too and reaches into this one
                bool prev_hit = s >= 1 && kinds[s - 1] == kKindCtrl && s - 1 >= 1000;
                CHECK(prev_hit || !bad || !kolo_ref_ctrl_crc_ok(dp) || kolo_ref_blk_type(dp) != KOLO_BLK_CTRL,
                      "a corrupted CTRL block passes its CRC-8");
            } else if (bad) {
                // only spill-over from a corrupted CTRL block just before
                if (!(s >= 1 && kinds[s - 1] == kKindCtrl && s - 1 >= 1000 && s - 1 < 21000)) other_bad_unexplained++;
            }
        }
        std::printf("  targeted CTRL: %" PRIu64 " of %" PRIu64 " CTRL blocks in the window corrupted, counter %" PRIu64
                    "\n",
                    ctrl_bad, ctrl_in_window, m.counters().targeted);
        CHECK(ctrl_bad == ctrl_in_window && ctrl_in_window > 200, "CTRL blocks not all corrupted");
        CHECK(m.counters().targeted == ctrl_in_window && m.counters().targeted_kind[kKindCtrl] == ctrl_in_window,
              "targeted counter");
        CHECK(other_bad_unexplained == 0, "%" PRIu64 " other blocks corrupted", other_bad_unexplained);
    }
    // rate 0.25 on all control blocks, SyncBit
    {
        LaneModel m(g_seed + 402, 3);
        m.add_target(kMaskAnyControl, 0.25, 0, 0, 0, Corrupt::SyncBit);
        Gen g(g_seed ^ 77);
        uint64_t ctl = 0, inval = 0, data_bad = 0;
        std::vector<unsigned> kinds;
        for (int t = 0; t < 40000; t++) {
            unsigned k;
            Word66 w = g.next(&k);
            kinds.push_back(k);
            m.push(w);
            Word66 o = m.pop();
            if (t < 3) continue;
            unsigned ks = kinds[static_cast<size_t>(t) - 3];
            unsigned s = w66_sync(o);
            if (ks == kKindData) data_bad += s != 1;
            else {
                ctl++;
                inval += s == 0 || s == 3;
            }
        }
        double frac = static_cast<double>(inval) / static_cast<double>(ctl);
        std::printf("  targeted control sync bits at 0.25: %.3f of %" PRIu64 " control blocks\n", frac, ctl);
        CHECK(data_bad == 0 && std::fabs(frac - 0.25) < 0.03, "sync targeting: frac %.3f data_bad %" PRIu64, frac,
              data_bad);
    }
    // armed one-shot on data blocks
    {
        LaneModel m(g_seed + 403, 3);
        Gen g(g_seed ^ 88);
        for (int t = 0; t < 1000; t++) {
            unsigned k;
            m.push(g.next(&k));
            (void)m.pop();
        }
        m.arm_target(kMaskData, 1);
        for (int t = 0; t < 1000; t++) {
            unsigned k;
            m.push(g.next(&k));
            (void)m.pop();
        }
        CHECK(m.counters().targeted == 1 && m.counters().targeted_kind[kKindData] == 1 &&
                  m.last_target_word() >= 1000 && m.last_target_word() < 1100,
              "armed: targeted %" PRIu64 " at %" PRIu64, m.counters().targeted, m.last_target_word());
    }
}

}  // namespace

int main() {
    if (const char *e = std::getenv("SEED")) g_seed = std::strtoull(e, nullptr, 0);
    std::printf("test_lane_model seed %" PRIu64 " (replay with SEED=%" PRIu64 ")\n", g_seed, g_seed);
    test_identity();
    test_ber();
    test_slip();
    test_drop_dup();
    test_bursts_dead();
    test_classify_target();
    if (g_fail) {
        std::printf("FAIL: %d check(s) failed\nreplay: SEED=%" PRIu64 "\n", g_fail, g_seed);
        return 1;
    }
    std::printf("PASS\n");
    return 0;
}
