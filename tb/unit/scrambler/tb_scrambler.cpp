// tb_scrambler.cpp - randomised unit test of kolo_scrambler and
// kolo_descrambler (x^58 + x^39 + 1, 64 bits per cycle, bit 0 first) against
// the bit-serial C references of tb/common/kolo_linkref.h, and of the
// references against the definition s_i = d_i ^ s_{i-39} ^ s_{i-58} kept as
// a plain bit history.
//
// The descrambler is fed from the scrambler (d_in = s_out) under random
// enables, with disturbances: single-bit errors, error bursts of 1..4 words,
// garbage words slipped into the descrambler only, words the descrambler
// misses, and a reset of only one side (the descrambler restarting from a
// wrong state). Checked every cycle:
//   - s_out and d_out equal the C references (also with en = 0 and in reset);
//   - the scrambler's output bits follow the definition;
//   - while both sides are in step the round trip gives the input back;
//   - after any disturbance, bits [63:58] of the first good word are right
//     and every word from the second good word on is right (58 good bits
//     resynchronise the descrambler), and its state equals the scrambler's;
//   - an error at bit i of a word (on a clean stream) corrupts exactly output
//     bits i, i+39 and i+58, counted across the word boundary; every i in
//     0..63 is exercised.
#include <deque>
#include <memory>

#include "Vtb_scrambler.h"
#include "kolo_linkref.h"
#include "tb_util.h"
#include "verilated.h"

int main(int argc, char** argv) {
    const uint64_t seed = tb::seed_from(argc, argv);
    std::printf("unit-scrambler: SEED=%llu\n", (unsigned long long)seed);
    tb::Rng rng(seed);
    tb::Checker chk("unit-scrambler");
    auto ctx = std::make_unique<VerilatedContext>();
    auto dut = std::make_unique<Vtb_scrambler>(ctx.get());

    auto tick = [&]() {
        dut->clk = 1;
        dut->eval();
        dut->clk = 0;
        dut->eval();
    };

    uint64_t sst = KOLO_SCRAMBLER_STATE_INIT, dst = KOLO_SCRAMBLER_STATE_INIT;  // C models
    std::deque<uint8_t> hist(58, 1);  // last 58 scrambled bits, oldest first (definition model)
    unsigned good_since = 2;          // good words through both sides since the last disturbance
    unsigned burst_left = 0;          // words of an error burst still to corrupt
    // Single-bit error: expected output error of the error word and the next two.
    bool pend = false;
    unsigned pend_idx = 0, pend_bit = 0;
    uint64_t pend_err[3] = {};
    uint64_t bits_hit = 0;  // coverage: error positions checked exactly
    unsigned long good_words = 0, first_checks = 0, single_errs = 0, bursts = 0, slips = 0,
                  drops = 0, lone_resets = 0, joint_resets = 0, idle_cycles = 0, zero_in_nonzero_out = 0;
    unsigned in_mode = 0;  // 0 random, 1 all zeros, 2 all ones, 3 sparse

    dut->clk = 0;
    dut->s_rst = 1;
    dut->d_rst = 1;
    dut->s_en = 0;
    dut->d_en = 0;
    dut->s_in = 0;
    dut->d_in = 0;
    dut->eval();
    tick();
    dut->s_rst = 0;
    dut->d_rst = 0;

    const unsigned long kCycles = 400000;
    for (unsigned long cyc = 0; cyc < kCycles && chk.failures() <= 20; cyc++) {
        if (cyc % 500 == 0) in_mode = rng.below(8) < 5 ? 0 : rng.below(4);
        uint64_t s_in = in_mode == 0 ? rng.next() : in_mode == 1 ? 0 : in_mode == 2 ? ~0ull : (rng.next() & rng.next() & rng.next());

        // Choose this cycle's action. While a single-bit error is being
        // followed, only idle cycles and good words are allowed.
        enum { kIdle, kWord, kSlip, kDrop, kResetS, kResetD, kResetBoth } act = kWord;
        unsigned r = rng.below(1000);
        if (r < 200) act = kIdle;
        else if (!pend && burst_left == 0) {
            if (r < 203) act = kSlip;
            else if (r < 206) act = kDrop;
            else if (r < 208) act = kResetS;
            else if (r < 210) act = kResetD;
            else if (r < 212) act = kResetBoth;
        }
        uint64_t err = 0;
        bool single = false;
        if (act == kWord) {
            if (burst_left > 0) {
                burst_left--;
                err = rng.chance(30) ? rng.next() : (1ull << rng.below(64)) | (rng.next() & rng.next() & rng.next());
                if (err == 0) err = 1;
            } else if (!pend && good_since >= 1 && sst == dst) {
                if (rng.below(100) < 3) {
                    single = true;
                    pend_bit = rng.below(64);
                    err = 1ull << pend_bit;
                } else if (rng.below(1000) < 5) {
                    burst_left = rng.below(4);  // this word and up to 3 more
                    bursts++;
                    err = rng.next() | 1;
                }
            }
        }

        const bool s_rst = act == kResetS || act == kResetBoth, d_rst = act == kResetD || act == kResetBoth;
        const bool in_reset = s_rst || d_rst;
        bool s_en, d_en;
        switch (act) {
            case kIdle: s_en = d_en = false; break;
            case kWord: s_en = d_en = true; break;
            case kSlip: s_en = false; d_en = true; break;
            case kDrop: s_en = true; d_en = false; break;
            default: s_en = rng.chance(50); d_en = rng.chance(50); break;  // reset wins over en
        }

        dut->s_rst = s_rst;
        dut->d_rst = d_rst;
        dut->s_en = s_en;
        dut->d_en = d_en;
        dut->s_in = s_in;
        dut->eval();
        const uint64_t s_out = dut->s_out;
        uint64_t sst_next = sst;
        const uint64_t s_want = kolo_ref_scramble(&sst_next, s_in);
        chk.check(s_out == s_want, "cycle %lu: scrambler out %016llx, C %016llx (in %016llx)", cyc,
                  (unsigned long long)s_out, (unsigned long long)s_want, (unsigned long long)s_in);

        // The descrambler's input: the scrambled word (plus errors), or
        // something unrelated when the two sides do not exchange a word.
        uint64_t d_in = act == kWord ? s_out ^ err : rng.next();
        dut->d_in = d_in;
        dut->eval();
        const uint64_t d_out = dut->d_out;
        uint64_t dst_next = dst;
        const uint64_t d_want = kolo_ref_descramble(&dst_next, d_in);
        chk.check(d_out == d_want, "cycle %lu: descrambler out %016llx, C %016llx (in %016llx)", cyc,
                  (unsigned long long)d_out, (unsigned long long)d_want, (unsigned long long)d_in);
        // Round trip within the cycle whenever the states agree.
        if (act == kWord && err == 0 && sst == dst)
            chk.check(d_out == s_in, "cycle %lu: round trip %016llx -> %016llx -> %016llx", cyc,
                      (unsigned long long)s_in, (unsigned long long)s_out, (unsigned long long)d_out);

        // Definition model of the scrambler, for words it takes.
        if (s_en && !s_rst) {
            uint64_t def = 0;
            for (unsigned i = 0; i < 64; i++) {
                uint8_t s = (uint8_t)(((s_in >> i) & 1) ^ hist[58 - 39] ^ hist[0]);  // s_{n-39}, s_{n-58}
                def |= (uint64_t)s << i;
                hist.pop_front();
                hist.push_back(s);
            }
            chk.check(def == s_out, "cycle %lu: scrambler out %016llx, definition %016llx", cyc,
                      (unsigned long long)s_out, (unsigned long long)def);
            if (s_in == 0 && s_out != 0) zero_in_nonzero_out++;
        }

        // Stream bookkeeping and the resynchronisation checks.
        if (act == kIdle) idle_cycles++;
        if (act == kSlip) { slips++; good_since = 0; }
        if (act == kDrop) { drops++; good_since = 0; }
        if (act == kResetS || act == kResetD) { lone_resets++; good_since = 0; }
        if (act == kResetBoth) { joint_resets++; good_since = 2; }
        if (act == kWord) {
            const uint64_t oerr = d_out ^ s_in;
            if (single) {
                pend = true;
                pend_idx = 0;
                pend_err[0] = pend_err[1] = pend_err[2] = 0;
                for (unsigned p : {pend_bit, pend_bit + 39, pend_bit + 58}) pend_err[p / 64] |= 1ull << (p % 64);
                single_errs++;
            }
            if (pend) {
                chk.check(oerr == pend_err[pend_idx],
                          "cycle %lu: error at bit %u, word +%u: output error %016llx, expected %016llx", cyc,
                          pend_bit, pend_idx, (unsigned long long)oerr, (unsigned long long)pend_err[pend_idx]);
                if (++pend_idx == 3) {
                    pend = false;
                    bits_hit |= 1ull << pend_bit;
                }
            }
            if (err != 0) {
                good_since = 0;
            } else {
                if (good_since == 0) {
                    chk.check((oerr >> 58) == 0, "cycle %lu: first good word after a disturbance: bits [63:58] "
                              "wrong (output error %016llx)", cyc, (unsigned long long)oerr);
                    first_checks++;
                } else {
                    chk.check(oerr == 0, "cycle %lu: word %u after a disturbance: output %016llx, sent %016llx",
                              cyc, good_since + 1, (unsigned long long)d_out, (unsigned long long)s_in);
                }
                chk.check(sst_next == dst_next, "cycle %lu: after a good word the descrambler state %015llx "
                          "differs from the scrambler's %015llx", cyc, (unsigned long long)dst_next,
                          (unsigned long long)sst_next);
                if (good_since < 1000) good_since++;
                good_words++;
            }
        }

        tick();
        sst = s_rst ? KOLO_SCRAMBLER_STATE_INIT : s_en ? sst_next : sst;
        dst = d_rst ? KOLO_SCRAMBLER_STATE_INIT : d_en ? dst_next : dst;
        if (s_rst) hist.assign(58, 1);
    }

    chk.check(bits_hit == ~0ull, "coverage: single-bit errors checked at positions %016llx, not all 64",
              (unsigned long long)bits_hit);
    chk.check(bursts > 10 && slips > 10 && drops > 10 && lone_resets > 10 && joint_resets > 10 &&
                  first_checks > 50 && zero_in_nonzero_out > 10,
              "coverage: bursts %lu slips %lu drops %lu lone resets %lu joint resets %lu first-word checks %lu "
              "zero-in words %lu",
              bursts, slips, drops, lone_resets, joint_resets, first_checks, zero_in_nonzero_out);
    char summary[320];
    std::snprintf(summary, sizeof summary,
                  "%lu cycles, %lu good words (%lu first words after a disturbance), %lu single-bit errors "
                  "(all 64 positions), %lu bursts, %lu slips, %lu drops, %lu lone + %lu joint resets",
                  kCycles, good_words, first_checks, single_errs, bursts, slips, drops, lone_resets,
                  joint_resets);
    dut->final();
    return chk.finish(seed, summary);
}
