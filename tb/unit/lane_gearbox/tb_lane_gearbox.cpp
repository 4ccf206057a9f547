// tb_lane_gearbox.cpp - unit test of the transceiver gearbox adapters
// kolo_lane_gearbox_tx and kolo_lane_gearbox_rx, 32- and 64-bit interfaces
// (tb_lane_gearbox.v: a tx adapter per pause position 0..32 and width, one rx
// adapter per width). The harness plays the transceivers:
//   tx: every adapter gets its own stream of random 66-bit words, presented
//       as kolo_link_phy presents tx_lane_data: a word may change in any
//       cycle until an edge with s_ready takes it (the PHY shows IDLE until a
//       block reaches its FIFO, then that block), and a new word follows
//       each take. A model of the external-sequence-counter gearbox takes a
//       beat in every cycle whose gt_sequence is not the adapter's pause
//       value and rebuilds the blocks (32 bits: header with the first half,
//       held with the second). Checked: gt_sequence counts 0..32 from reset;
//       the rebuilt blocks are the words present at the s_ready edges, in
//       order, none lost, repeated or mixed from two words (issue 18: the
//       32-bit adapter took the halves of one block from two words when the
//       PHY's word changed between them); s_ready is high exactly in the
//       cycle whose beat starts a block (never at the pause); 32 (64-bit) or
//       16 (32-bit) blocks per 33 cycles; with inhibit every beat is zero
//       data with header 00 while the words still flow.
//   rx: random blocks as gearbox beats with gaps (data_valid low) at every
//       position: one gap per 33 cycles at each phase 0..32 in turn (for 32
//       bits that puts gaps before, between and after the halves of a block),
//       then random gaps (30%), bursts of gaps; checked: every block comes
//       out once, unchanged, in order. Then bad input: a second half without
//       a first, a header where a second half belongs, a 64-bit beat without
//       header, random valids and headers; each gives its documented answer
//       (a block with sync 00, an abandoned half, nothing) and a clean stream
//       afterwards comes out right. Slips: requests every cycle pass at most
//       one per 33 cycles; an isolated request after a quiet time passes at
//       once.
// Seed: --seed=N or env SEED (printed). Exit 0 pass, 1 fail.
#include <deque>
#include <memory>
#include <vector>

#include "Vtb_lane_gearbox.h"
#include "tb_util.h"
#include "verilated.h"

namespace {

constexpr unsigned kPauses = 33;  // tx instances per width: PAUSE_SEQ 0..32
constexpr unsigned kTx = 2 * kPauses;

struct Word {
    uint64_t pl;
    uint8_t sync;
    bool operator==(const Word& o) const { return pl == o.pl && sync == o.sync; }
};

uint64_t get_bits(const uint32_t* w, unsigned lsb, unsigned n) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= (uint64_t)((w[(lsb + i) / 32] >> ((lsb + i) % 32)) & 1u) << i;
    return v;
}
void set_bits(uint32_t* w, unsigned lsb, unsigned n, uint64_t v) {
    for (unsigned i = 0; i < n; i++) {
        uint32_t m = 1u << ((lsb + i) % 32);
        if ((v >> i) & 1) w[(lsb + i) / 32] |= m;
        else w[(lsb + i) / 32] &= ~m;
    }
}

struct TxInst {
    unsigned width, pause;
    Word cur{0, 1};           // on s_word this cycle
    std::deque<Word> taken;   // words taken (present at an s_ready edge), not yet rebuilt
    size_t rebuilt = 0;       // blocks rebuilt by the gearbox model
    bool have_lo = false;
    uint64_t lo = 0;
    uint8_t hdr = 0;
    uint64_t beats = 0, readies = 0;
};

class Tb {
  public:
    explicit Tb(uint64_t seed) : rng_(seed), chk_("unit-lane_gearbox") {
        ctx_.reset(new VerilatedContext);
        dut_.reset(new Vtb_lane_gearbox(ctx_.get()));
        dut_->clk = 0;
        dut_->rst = 1;
        dut_->eval();
    }
    tb::Checker& chk() { return chk_; }

    void tick() {
        dut_->clk = 1;
        dut_->eval();
        dut_->clk = 0;
        dut_->eval();
        cycle_++;
    }
    void reset() {
        dut_->rst = 1;
        dut_->rx_data_valid = 0;
        dut_->rx_header_valid = 0;
        dut_->rx_slip_req = 0;
        tick();
        tick();
        dut_->rst = 0;
        dut_->eval();
    }

    Word random_word() { return Word{rng_.next(), (uint8_t)(1 + rng_.below(2))}; }

    // ---- tx --------------------------------------------------------------------------
    void tx_phase(uint64_t cycles, bool inhibit) {
        std::vector<TxInst> inst(kTx);
        for (unsigned i = 0; i < kTx; i++) {
            inst[i].width = i < kPauses ? 32 : 64;
            inst[i].pause = i % kPauses;
            inst[i].cur = random_word();
        }
        dut_->tx_inhibit = inhibit;
        reset();
        for (uint64_t c = 0; c < cycles && chk_.failures() < 10; c++) {
            for (unsigned i = 0; i < kTx; i++) {  // present the words (one not taken yet may change)
                if (rng_.chance(30)) inst[i].cur = random_word();
                const Word& w = inst[i].cur;
                set_bits(dut_->tx_word.data(), 66 * i, 2, w.sync);
                set_bits(dut_->tx_word.data(), 66 * i + 2, 64, w.pl);
            }
            dut_->eval();
            for (unsigned i = 0; i < kTx; i++) tx_beat(inst[i], i, c, inhibit);
            tick();
        }
        uint64_t blocks = 0;
        for (const TxInst& t : inst) {
            // 33 cycles carry 32 data beats: 16 blocks (32 bits) or 32 (64 bits)
            const uint64_t per33 = t.width == 32 ? 16 : 32;
            const uint64_t want = cycles / 33 * per33;
            chk_.check(t.rebuilt + 1 >= want && t.rebuilt <= want + per33,
                       "tx width %u pause %u: %zu blocks in %llu cycles, about %llu expected", t.width, t.pause,
                       t.rebuilt, (unsigned long long)cycles, (unsigned long long)want);
            blocks += t.rebuilt;
        }
        std::printf("  tx%s: %u adapters (pause at every sequence value, 32 and 64 bits), %llu blocks rebuilt\n",
                    inhibit ? " (inhibit)" : "", kTx, (unsigned long long)blocks);
    }
    void tx_beat(TxInst& t, unsigned i, uint64_t c, bool inhibit) {
        const unsigned seq = (unsigned)get_bits(dut_->tx_sequence.data(), 7 * i, 7);
        const bool ready = (get_bits(dut_->tx_ready.data(), i, 1)) != 0;
        const uint8_t hdr = (uint8_t)get_bits(dut_->tx_header.data(), 2 * i, 2);
        const uint64_t data = t.width == 32 ? get_bits(dut_->tx_data32.data(), 32 * (i % kPauses), 32)
                                            : get_bits(dut_->tx_data64.data(), 64 * (i % kPauses), 64);
        chk_.check(seq == c % 33, "tx %u: sequence %u in cycle %llu after reset", i, seq, (unsigned long long)c);
        if (ready) {
            t.readies++;
            t.taken.push_back(t.cur);
        }
        bool starts = false;
        if (seq != t.pause) {
            t.beats++;
            if (inhibit) chk_.check(hdr == 0 && data == 0, "tx %u inhibited: header %u data %llx", i, hdr,
                                    (unsigned long long)data);
            if (t.width == 64) {
                starts = true;
                check_block(t, i, Word{data, hdr}, inhibit);
            } else if (!t.have_lo) {
                starts = true;
                t.have_lo = true;
                t.lo = data;
                t.hdr = hdr;
            } else {
                chk_.check(hdr == t.hdr, "tx %u: header changed between the halves of a block", i);
                t.have_lo = false;
                check_block(t, i, Word{(data << 32) | (t.lo & 0xffffffffull), t.hdr}, inhibit);
            }
        }
        chk_.check(ready == starts, "tx %u cycle %llu (sequence %u, pause %u): s_ready %d, block started %d", i,
                   (unsigned long long)c, seq, t.pause, ready, starts);
        if (ready) t.cur = random_word();  // the PHY's next word
    }
    void check_block(TxInst& t, unsigned i, const Word& got, bool inhibit) {
        if (!chk_.check(!t.taken.empty(), "tx %u: a block rebuilt that no s_ready took", i)) return;
        const Word want = t.taken.front();
        t.taken.pop_front();
        t.rebuilt++;
        if (inhibit) return;
        chk_.check(got == want, "tx %u (width %u, pause %u): block %zu is %u:%016llx, word was %u:%016llx", i, t.width,
                   t.pause, t.rebuilt - 1, got.sync, (unsigned long long)got.pl, want.sync,
                   (unsigned long long)want.pl);
    }

    // ---- rx --------------------------------------------------------------------------
    // Drive width index w (0: 32, 1: 64) with `blocks` random blocks; gap(c)
    // says whether cycle c is a gap. Every block must come out in order.
    template <class Gap>
    void rx_stream(unsigned w, unsigned blocks, Gap gap, const char* what) {
        std::vector<Word> in;
        for (unsigned b = 0; b < blocks; b++) in.push_back(random_word());
        const unsigned parts = w == 0 ? 2 : 1;
        size_t b = 0, part = 0;
        uint64_t c = 0, gaps = 0;
        while (b < in.size() && chk_.failures() < 10) {
            bool valid = !gap(c++);
            set_rx(w, 0, 0, false, false);
            if (valid) {
                const Word& x = in[b];
                uint64_t d = parts == 1 ? x.pl : (part == 0 ? x.pl & 0xffffffffull : x.pl >> 32);
                set_rx(w, d, x.sync, true, part == 0);
                if (++part == parts) {
                    part = 0;
                    b++;
                }
            } else {
                gaps++;
                // data and header in a gap are garbage
                set_rx_garbage(w);
            }
            clock_rx(w);
        }
        set_rx(w, 0, 0, false, false);
        clock_rx(w);
        clock_rx(w);
        chk_.check(out_[w].size() == in.size(), "rx width %d %s: %zu blocks out, %zu in", w == 0 ? 32 : 64, what,
                   out_[w].size(), in.size());
        for (size_t i = 0; i < in.size() && i < out_[w].size(); i++)
            if (!chk_.check(out_[w][i] == in[i], "rx width %d %s: block %zu is %u:%016llx, sent %u:%016llx",
                            w == 0 ? 32 : 64, what, i, out_[w][i].sync, (unsigned long long)out_[w][i].pl,
                            in[i].sync, (unsigned long long)in[i].pl))
                break;
        out_[w].clear();
        rx_blocks_ += in.size();
        rx_gaps_ += gaps;
    }
    void set_rx(unsigned w, uint64_t data, uint8_t hdr, bool dv, bool hv) {
        if (w == 0) dut_->rx32_data = (uint32_t)data;
        else dut_->rx64_data = data;
        dut_->rx_header = (uint8_t)((dut_->rx_header & ~(3u << (2 * w))) | ((unsigned)hdr << (2 * w)));
        dut_->rx_data_valid = (uint8_t)((dut_->rx_data_valid & ~(1u << w)) | ((dv ? 1u : 0u) << w));
        dut_->rx_header_valid = (uint8_t)((dut_->rx_header_valid & ~(1u << w)) | ((hv ? 1u : 0u) << w));
    }
    void set_rx_garbage(unsigned w) {
        if (w == 0) dut_->rx32_data = (uint32_t)rng_.next();
        else dut_->rx64_data = rng_.next();
        dut_->rx_header = (uint8_t)((dut_->rx_header & ~(3u << (2 * w))) | ((unsigned)rng_.below(4) << (2 * w)));
        // header_valid may be high in a data gap on some parts: it carries no block by itself
        if (rng_.chance(50)) dut_->rx_header_valid = (uint8_t)(dut_->rx_header_valid | (1u << w));
    }
    void clock_rx(unsigned w) {
        tick();
        if ((dut_->rx_valid >> w) & 1)
            out_[w].push_back(Word{get_bits(dut_->rx_word.data(), 66 * w + 2, 64),
                                   (uint8_t)get_bits(dut_->rx_word.data(), 66 * w, 2)});
    }
    void rx_phase() {
        reset();
        for (unsigned w = 0; w < 2; w++) {
            for (unsigned g = 0; g < 33; g++)  // one gap per 33 cycles, at every phase
                rx_stream(w, 100, [g](uint64_t c) { return c % 33 == g; }, "gap phase");
            rx_stream(w, 3000, [this](uint64_t) { return rng_.chance(30); }, "random gaps");
            rx_stream(w, 1000, [](uint64_t c) { return c % 7 < 3; }, "bursts of 3 gaps");
        }
        std::printf("  rx: %llu blocks through gaps at every position (%llu gap cycles), 32 and 64 bits\n",
                    (unsigned long long)rx_blocks_, (unsigned long long)rx_gaps_);
    }
    void rx_bad_input() {
        reset();
        // 32 bits: a second half without a first -> one block with sync 00
        set_rx(0, 0x12345678, 1, true, false);
        clock_rx(0);
        set_rx(0, 0, 0, false, false);
        clock_rx(0);
        chk_.check(out_[0].size() == 1 && out_[0][0].sync == 0 && (out_[0][0].pl >> 32) == 0x12345678,
                   "rx 32: a lone second half gives %zu blocks (1 with sync 00 expected)", out_[0].size());
        out_[0].clear();
        // 32 bits: a first half, then another first half: the first is abandoned
        set_rx(0, 0x11111111, 2, true, true);
        clock_rx(0);
        set_rx(0, 0x22222222, 1, true, true);
        clock_rx(0);
        set_rx(0, 0x33333333, 1, true, false);
        clock_rx(0);
        set_rx(0, 0, 0, false, false);
        clock_rx(0);
        chk_.check(out_[0].size() == 1 && out_[0][0] == Word{0x3333333322222222ull, 1},
                   "rx 32: first half, first half, second half gives %zu blocks (only the second block expected)",
                   out_[0].size());
        out_[0].clear();
        // 64 bits: a beat without its header -> a block with sync 00
        set_rx(1, 0xabcdef, 1, true, false);
        clock_rx(1);
        set_rx(1, 0, 0, false, false);
        clock_rx(1);
        chk_.check(out_[1].size() == 1 && out_[1][0] == Word{0xabcdef, 0},
                   "rx 64: a beat without header gives %zu blocks (1 with sync 00 expected)", out_[1].size());
        out_[1].clear();
        // random valids and headers: never more blocks than data beats; then a clean stream
        for (unsigned w = 0; w < 2; w++) {
            uint64_t beats = 0;
            for (int c = 0; c < 5000; c++) {
                bool dv = rng_.chance(60);
                beats += dv;
                set_rx(w, rng_.next(), (uint8_t)rng_.below(4), dv, rng_.chance(50));
                clock_rx(w);
            }
            set_rx(w, 0, 0, false, false);
            clock_rx(w);
            chk_.check(out_[w].size() <= beats, "rx width %d garbage: %zu blocks from %llu beats", w ? 64 : 32,
                       out_[w].size(), (unsigned long long)beats);
            out_[w].clear();
            rx_stream(w, 500, [this](uint64_t) { return rng_.chance(20); }, "after garbage");
        }
        std::printf("  rx bad input: lone halves, abandoned halves, missing headers, 10000 garbage cycles\n");
    }
    void slip_phase() {
        reset();
        // requests every cycle: at most one slip per 33 cycles, and exactly that
        std::vector<uint64_t> at[2];
        for (uint64_t c = 0; c < 1000; c++) {
            dut_->rx_slip_req = 3;
            tick();
            for (unsigned w = 0; w < 2; w++)
                if ((dut_->rx_slip >> w) & 1) at[w].push_back(c);
        }
        for (unsigned w = 0; w < 2; w++) {
            chk_.check(at[w].size() >= 30 && at[w].size() <= 31, "slips: %zu passed in 1000 cycles of requests",
                       at[w].size());
            for (size_t i = 1; i < at[w].size(); i++)
                chk_.check(at[w][i] - at[w][i - 1] == 33, "slips %llu cycles apart",
                           (unsigned long long)(at[w][i] - at[w][i - 1]));
        }
        // quiet, then one request: passed at the next edge
        dut_->rx_slip_req = 0;
        for (int c = 0; c < 40; c++) tick();
        dut_->rx_slip_req = 3;
        tick();
        dut_->rx_slip_req = 0;
        chk_.check(dut_->rx_slip == 3, "an isolated slip request was not passed on");
        tick();
        chk_.check(dut_->rx_slip == 0, "a slip longer than one cycle");
        std::printf("  slips: spaced 33 cycles under continuous requests, an isolated one passed at once\n");
    }

  private:
    tb::Rng rng_;
    tb::Checker chk_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vtb_lane_gearbox> dut_;
    uint64_t cycle_ = 0, rx_blocks_ = 0, rx_gaps_ = 0;
    std::vector<Word> out_[2];
};

}  // namespace

int main(int argc, char** argv) {
    const uint64_t seed = tb::seed_from(argc, argv);
    std::printf("unit-lane_gearbox: SEED=%llu\n", (unsigned long long)seed);
    Tb t(seed);
    t.tx_phase(3300, false);
    t.tx_phase(660, true);
    t.rx_phase();
    t.rx_bad_input();
    t.slip_phase();
    return t.chk().finish(seed, "gearbox adapters, tx at every pause position, rx with gaps at every position");
}
