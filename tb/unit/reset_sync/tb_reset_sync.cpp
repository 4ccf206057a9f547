// tb_reset_sync.cpp - randomised unit test of the reset and crossing cells
// (tb_reset_sync.v): three unrelated clocks a, b, c (periods drawn per
// scenario, one of them may stop), requests and data changes at times that
// are not clock edges.
//   kolo_reset_sync (2 and 3 stages, clock a): rst_out is high right after
//     rst_in rises (no clock edge needed), stays high while rst_in is high,
//     and falls exactly at the STAGES-th rising edge after rst_in fell.
//   kolo_reset_seq (clock a, domains b and c): every request (rst_req, a
//     domain's request) puts the group in reset at once; when the group's
//     reset falls, every domain has had a rising edge with its reset high
//     since the last request ended; a domain whose clock is stopped holds
//     the group in reset; with every clock running, a round ends within a
//     bound after its request.
//   kolo_sync_word (b -> c): out is always a value in had (never a mixture of
//     two), and equals in a bounded time after in stops changing.
//   kolo_sync_pulse (b -> c): pulses spaced widely arrive one for one; close
//     ones never multiply.
// --seed=N or SEED=N (printed).
#include <algorithm>
#include <memory>
#include <set>
#include <vector>

#include "Vtb_reset_sync.h"
#include "tb_util.h"
#include "verilated.h"

namespace {

struct Clk {
    uint64_t half = 5000, next = 5000;  // ps
    bool level = false, running = true;
    uint64_t rises = 0;
};

class Tb {
  public:
    explicit Tb(uint64_t seed) : rng_(seed), chk_("unit-reset_sync") {
        ctx_.reset(new VerilatedContext);
        d_.reset(new Vtb_reset_sync(ctx_.get()));
        // the requests rise after the first evaluation: a real edge of the
        // asynchronous inputs (an input high from time 0 has none)
        d_->rst_in = 0;
        d_->seq_req = 0;
        d_->dom_req = 0;
        d_->eval();
        d_->rst_in = 1;
        d_->seq_req = 1;
        d_->eval();
    }
    tb::Checker &chk() { return chk_; }

    void set_periods() {
        for (Clk &c : clk_) {
            c.half = 1500 + rng_.below(8000);  // 3..19 ns periods
            c.next = now_ + 1 + rng_.below((uint32_t)c.half);
        }
    }
    // advance to time t (exclusive of edges exactly at t: callers pick odd times)
    void run_to(uint64_t t) {
        while (true) {
            uint64_t e = ~0ull;
            for (Clk &c : clk_)
                if (c.running) e = std::min(e, c.next);
            if (e >= t) break;
            edge(e);
        }
        now_ = t;
    }
    void edge(uint64_t t) {
        now_ = t;
        bool rise[3] = {false, false, false};
        for (int i = 0; i < 3; i++)
            if (clk_[i].running && clk_[i].next == t) rise[i] = !clk_[i].level;
        // before the edges: what the flops sample
        if (rise[0]) before_a();
        if (rise[1]) before_b();
        if (rise[2]) before_c();
        for (int i = 0; i < 3; i++)
            if (clk_[i].running && clk_[i].next == t) {
                clk_[i].level = !clk_[i].level;
                clk_[i].next = t + clk_[i].half;
                if (clk_[i].level) clk_[i].rises++;
            }
        d_->clk_a = clk_[0].level;
        d_->clk_b = clk_[1].level;
        d_->clk_c = clk_[2].level;
        d_->eval();
        after();
        if (rise[1]) after_b();
        if (rise[2]) after_c();
    }

    // ---- kolo_reset_sync -------------------------------------------------------------
    // edges of a since rst_in last fell (capped), for each cell
    unsigned a_edges_ = 99;
    bool rst_in_ = true;
    void before_a() {
        if (!rst_in_ && a_edges_ < 99) a_edges_++;
        // sequencer: the edges of a do not matter for its property
    }
    void check_rs() {
        bool want2 = rst_in_ || a_edges_ < 2, want3 = rst_in_ || a_edges_ < 3;
        chk_.check(d_->rs2_out == want2, "reset_sync 2 stages: rst_out %d, expected %d (%u edges since release)",
                   d_->rs2_out, want2, a_edges_);
        chk_.check(d_->rs3_out == want3, "reset_sync 3 stages: rst_out %d, expected %d (%u edges since release)",
                   d_->rs3_out, want3, a_edges_);
    }
    void set_rst_in(bool v) {
        rst_in_ = v;
        d_->rst_in = v;
        if (v) a_edges_ = 0;
        d_->eval();
        after();
    }
    void phase_reset_sync() {
        set_periods();
        for (int k = 0; k < 3000 && chk_.failures() < 10; k++) {
            run_to(now_ + 1 + rng_.below(60000));
            set_rst_in(true);
            run_to(now_ + 1 + (rng_.chance(30) ? rng_.below(500) : rng_.below(40000)));  // some shorter than a period
            set_rst_in(false);
        }
        run_to(now_ + 200000);
        chk_.check(!d_->rs2_out && !d_->rs3_out, "reset_sync: still in reset long after release");
    }

    // ---- kolo_reset_seq --------------------------------------------------------------
    bool req_ = true;            // any request high
    bool done_[2] = {false, false};
    bool seq_rst_q_ = true;
    uint64_t req_end_ = 0, rounds_ = 0, worst_round_ = 0;
    void before_b() {
        if (d_->dom_rst & 1) done_[0] = true;
        word_before_b();
    }
    void before_c() {
        if (d_->dom_rst & 2) done_[1] = true;
        word_before_c();
    }
    void after() {
        check_rs();
        if (req_) {
            chk_.check(d_->seq_rst && d_->dom_rst == 3, "reset_seq: a request is high but rst %d dom_rst %u",
                       d_->seq_rst, d_->dom_rst);
            done_[0] = done_[1] = false;
        }
        if (seq_rst_q_ && !d_->seq_rst) {
            chk_.check(done_[0] && done_[1], "reset_seq: the round ended without an edge in reset in domain %s",
                       !done_[0] ? "b" : "c");
            rounds_++;
            worst_round_ = std::max(worst_round_, now_ - req_end_);
        }
        seq_rst_q_ = d_->seq_rst;
    }
    void set_req(bool seq, unsigned dom) {
        d_->seq_req = seq;
        d_->dom_req = dom;
        bool r = seq || dom;
        if (req_ && !r) req_end_ = now_;
        req_ = r;
        d_->eval();
        after();
    }
    void phase_reset_seq() {
        for (int k = 0; k < 400 && chk_.failures() < 10; k++) {
            set_periods();
            // a request of random kind and length
            unsigned kind = rng_.below(4);
            set_req(kind == 0 || kind == 3, kind == 1 ? 1u : kind == 2 ? 2u : kind == 3 ? 3u : 0u);
            run_to(now_ + 1 + rng_.below(30000));
            // sometimes a domain's clock stops across the end of the request
            int stopped = rng_.chance(25) ? 1 + (int)rng_.below(2) : -1;
            if (stopped > 0) clk_[stopped].running = false;
            set_req(false, 0);
            if (stopped > 0) {
                run_to(now_ + 400000);
                chk_.check(d_->seq_rst, "reset_seq: the round ended while domain %c's clock was stopped",
                           stopped == 1 ? 'b' : 'c');
                clk_[stopped].running = true;
                clk_[stopped].next = now_ + 1;
                req_end_ = now_;
            }
            // with every clock running the round ends within a bound
            uint64_t slow = 2 * std::max(clk_[0].half, std::max(clk_[1].half, clk_[2].half));
            uint64_t bound = (8 + 3 + 4 * 4 + 6) * slow;
            uint64_t t0 = now_;
            while (d_->seq_rst && now_ < t0 + bound) run_to(now_ + slow);
            chk_.check(!d_->seq_rst, "reset_seq: the round did not end within %llu ps", (unsigned long long)bound);
            run_to(now_ + 8 * slow);
            chk_.check(!d_->dom_rst, "reset_seq: a domain still in reset %llu ps after the round",
                       (unsigned long long)(8 * slow));
            // requests closer together than a round
            if (rng_.chance(30)) {
                set_req(true, 0);
                run_to(now_ + 1 + rng_.below(3000));
                set_req(false, 0);
                run_to(now_ + 1 + rng_.below(3000));
                set_req(false, 2);
                run_to(now_ + 1 + rng_.below(3000));
                set_req(false, 0);
                run_to(now_ + bound + 8 * slow);
                chk_.check(!d_->seq_rst && !d_->dom_rst, "reset_seq: close requests left the group in reset");
            }
        }
        std::printf("  reset_seq: %llu rounds, the longest %.1f ns after its request ended\n",
                    (unsigned long long)rounds_, worst_round_ / 1e3);
    }

    // ---- kolo_sync_word and kolo_sync_pulse -----------------------------------------
    std::set<uint32_t> had_;  // values word_in had since the domains' last reset
    uint32_t next_word_ = 0;
    bool change_word_ = false;
    unsigned pulse_next_ = 0;  // drive pulse_in at the next b edge
    uint64_t pulses_in_ = 0, pulses_out_ = 0;
    void word_before_b() {}
    void word_before_c() {
        if (d_->pulse_out) pulses_out_++;
    }
    void after_b() {
        if (d_->dom_rst) return;
        if (change_word_) {
            d_->word_in = next_word_;
            had_.insert(next_word_);
            change_word_ = false;
        }
        d_->pulse_in = pulse_next_ != 0;
        if (pulse_next_) {
            pulses_in_++;
            pulse_next_ = 0;
        }
        d_->eval();
    }
    bool word_phase_ = false;
    void after_c() {
        if (d_->dom_rst || !word_phase_) return;
        chk_.check(had_.count(d_->word_out) != 0, "sync_word: out %05x was never in", d_->word_out);
    }
    void phase_sync_word() {
        set_periods();
        had_.clear();
        word_phase_ = true;
        had_.insert(0x5A5A5);  // RESET_VALUE
        had_.insert(d_->word_in);
        set_req(true, 0);
        run_to(now_ + 100000);
        set_req(false, 0);
        run_to(now_ + 400000);
        uint64_t slow = 2 * std::max(clk_[1].half, clk_[2].half);
        for (int k = 0; k < 3000 && chk_.failures() < 10; k++) {
            next_word_ = (uint32_t)rng_.bits(20);
            change_word_ = true;
            run_to(now_ + 1 + (rng_.chance(50) ? rng_.below((uint32_t)slow) : rng_.below((uint32_t)(20 * slow))));
        }
        run_to(now_ + 20 * slow);
        chk_.check(d_->word_out == d_->word_in, "sync_word: out %05x, in %05x long after the last change",
                   d_->word_out, d_->word_in);
        // pulses: widely spaced ones one for one
        const uint64_t in0 = pulses_in_, out0 = pulses_out_;
        for (int k = 0; k < 500; k++) {
            pulse_next_ = 1;
            run_to(now_ + 6 * slow + 1 + rng_.below((uint32_t)slow));
        }
        run_to(now_ + 10 * slow);
        chk_.check(pulses_out_ - out0 == pulses_in_ - in0, "sync_pulse: %llu pulses out for %llu in",
                   (unsigned long long)(pulses_out_ - out0), (unsigned long long)(pulses_in_ - in0));
        const uint64_t in1 = pulses_in_, out1 = pulses_out_;
        for (int k = 0; k < 500; k++) {
            pulse_next_ = 1;
            run_to(now_ + 1 + rng_.below((uint32_t)slow));
        }
        run_to(now_ + 10 * slow);
        chk_.check(pulses_out_ - out1 <= pulses_in_ - in1 && pulses_out_ > out1,
                   "sync_pulse: close pulses gave %llu out for %llu in", (unsigned long long)(pulses_out_ - out1),
                   (unsigned long long)(pulses_in_ - in1));
        std::printf("  sync_word: %zu values crossed whole; sync_pulse: %llu pulses\n", had_.size(),
                    (unsigned long long)pulses_in_);
    }

  private:
    tb::Rng rng_;
    tb::Checker chk_;
    std::unique_ptr<VerilatedContext> ctx_;
    std::unique_ptr<Vtb_reset_sync> d_;
    Clk clk_[3];
    uint64_t now_ = 0;
};

}  // namespace

int main(int argc, char **argv) {
    const uint64_t seed = tb::seed_from(argc, argv);
    std::printf("unit-reset_sync: SEED=%llu\n", (unsigned long long)seed);
    Tb t(seed);
    t.phase_reset_sync();
    t.phase_reset_seq();
    t.phase_sync_word();
    return t.chk().finish(seed, "kolo_reset_sync, kolo_reset_seq, kolo_sync_word, kolo_sync_pulse");
}
