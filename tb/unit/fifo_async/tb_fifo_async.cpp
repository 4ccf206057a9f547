// tb_fifo_async.cpp - randomised unit test of kolo_fifo_async with two
// unrelated clocks. Each scenario fixes the two periods (unrelated, nearly
// equal, equal with coincident edges, very different) and runs random
// valid/ready phases, checking against a model queue:
//   - data leaves in order and unchanged; no underflow (out_valid with nothing
//     written) and no overflow (in_ready when 2**ADDR_W words are held);
//   - bounded lag: a word written more than 3 read periods ago is visible
//     (out_valid), and space freed more than 3 write periods ago is offered
//     (in_ready) - the two-flop synchroniser's documented latency.
// Time is in integer picoseconds; a period of 7.3 units is 7300.
#include <deque>
#include <memory>

#include "Vtb_fifo_async.h"
#include "tb_util.h"
#include "verilated.h"

static const unsigned kLanes = 2;
static const unsigned kDepth[kLanes] = {2, 8};

struct Scenario {
    const char* name;
    uint64_t wr_period, rd_period, rd_phase;
};
static const Scenario kScenarios[] = {
    {"wr 10 / rd 7.3", 10000, 7300, 0},
    {"wr 7.3 / rd 10", 7300, 10000, 1234},
    {"wr 10 / rd 10.01", 10000, 10010, 0},
    {"wr 10.01 / rd 10", 10010, 10000, 4000},
    {"equal, offset", 10000, 10000, 3000},
    {"equal, coincident edges", 10000, 10000, 0},
    {"rd twice as fast, coincident", 10000, 5000, 0},
    {"slow reader 10 / 31", 10000, 31000, 777},
    {"slow writer 31 / 10", 31000, 10000, 0},
};

struct Lane {
    std::deque<uint16_t> q;                // words written, not yet read
    std::deque<uint64_t> write_t, read_t;  // recent event times (for the lag checks)
    uint64_t writes = 0, reads = 0;
    unsigned long full_refusals = 0;
    // Events strictly before time t.
    static uint64_t before(const std::deque<uint64_t>& times, uint64_t total, uint64_t t) {
        uint64_t later = 0;
        for (auto it = times.rbegin(); it != times.rend() && *it >= t; ++it) later++;
        return total - later;
    }
    void prune(uint64_t now, uint64_t keep) {
        while (!write_t.empty() && write_t.front() + keep < now) write_t.pop_front();
        while (!read_t.empty() && read_t.front() + keep < now) read_t.pop_front();
    }
};

int main(int argc, char** argv) {
    const uint64_t seed = tb::seed_from(argc, argv);
    std::printf("unit-fifo_async: SEED=%llu\n", (unsigned long long)seed);
    tb::Rng rng(seed);
    tb::Checker chk("unit-fifo_async");
    auto ctx = std::make_unique<VerilatedContext>();
    auto dut = std::make_unique<Vtb_fifo_async>(ctx.get());
    uint64_t total_words = 0;

    for (const Scenario& sc : kScenarios) {
        Lane lane[kLanes];
        const uint64_t pw = sc.wr_period, pr = sc.rd_period;
        uint64_t next_wr = pw / 2, next_rd = pr / 2 + sc.rd_phase;  // next toggle times
        dut->wr_clk = 0;
        dut->rd_clk = 0;
        dut->wr_rst = 1;
        dut->rd_rst = 1;
        dut->in_valid = 0;
        dut->out_ready = 0;
        dut->eval();
        unsigned wr_edges = 0, rd_edges = 0;
        unsigned wr_pct = 50, rd_pct = 50;
        unsigned long phase_left = 0;
        const unsigned kWrEdges = 40000;
        while (wr_edges < kWrEdges || rd_edges < kWrEdges * pw / pr) {
            uint64_t t = next_wr < next_rd ? next_wr : next_rd;
            bool wr_rise = next_wr == t && !dut->wr_clk;
            bool rd_rise = next_rd == t && !dut->rd_clk;
            bool in_reset = dut->wr_rst;
            if (rd_rise && !in_reset) {
                for (unsigned l = 0; l < kLanes; l++) {
                    Lane& ln = lane[l];
                    bool ov = (dut->out_valid >> l) & 1, ordy = (dut->out_ready >> l) & 1;
                    uint16_t od = (uint16_t)(dut->out_data >> (16 * l));
                    // written more than 3 read periods ago and not yet read
                    uint64_t old_writes = t > 3 * pr ? Lane::before(ln.write_t, ln.writes, t - 3 * pr) : 0;
                    if (old_writes > ln.reads)
                        chk.check(ov, "%s, t=%llu, depth %u: out_valid low although a word was written > 3 read "
                                  "periods ago", sc.name, (unsigned long long)t, kDepth[l]);
                    if (ov) {
                        if (!chk.check(!ln.q.empty(), "%s, t=%llu, depth %u: out_valid with nothing written (underflow)",
                                       sc.name, (unsigned long long)t, kDepth[l]))
                            continue;
                        chk.check(od == ln.q.front(), "%s, t=%llu, depth %u: out_data %04x, expected %04x", sc.name,
                                  (unsigned long long)t, kDepth[l], od, ln.q.front());
                        if (ordy) {
                            ln.q.pop_front();
                            ln.reads++;
                            ln.read_t.push_back(t);
                        }
                    }
                }
            }
            if (wr_rise && !in_reset) {
                for (unsigned l = 0; l < kLanes; l++) {
                    Lane& ln = lane[l];
                    bool iv = (dut->in_valid >> l) & 1, ir = (dut->in_ready >> l) & 1;
                    uint64_t old_reads = t > 3 * pw ? Lane::before(ln.read_t, ln.reads, t - 3 * pw) : 0;
                    if (ln.writes - old_reads < kDepth[l])
                        chk.check(ir, "%s, t=%llu, depth %u: in_ready low although space was freed > 3 write "
                                  "periods ago", sc.name, (unsigned long long)t, kDepth[l]);
                    if (ir)
                        chk.check(ln.q.size() < kDepth[l], "%s, t=%llu, depth %u: in_ready with %zu words held (overflow)",
                                  sc.name, (unsigned long long)t, kDepth[l], ln.q.size());
                    if (iv && !ir) ln.full_refusals++;
                    if (iv && ir) {
                        ln.q.push_back((uint16_t)(dut->in_data >> (16 * l)));
                        ln.writes++;
                        ln.write_t.push_back(t);
                    }
                }
            }
            // Apply the clock toggles that fall at t.
            if (next_wr == t) {
                dut->wr_clk = !dut->wr_clk;
                next_wr += pw / 2 + ((dut->wr_clk) ? 0 : pw % 2);
            }
            if (next_rd == t) {
                dut->rd_clk = !dut->rd_clk;
                next_rd += pr / 2 + ((dut->rd_clk) ? 0 : pr % 2);
            }
            dut->eval();
            // New inputs after the edge, in the domain that ticked.
            if (wr_rise) {
                wr_edges++;
                if (wr_edges == 4) {  // both resets held across >= 3 edges of the slower clock
                    if (rd_edges < 3) wr_edges = 3;
                    else {
                        dut->wr_rst = 0;
                        dut->rd_rst = 0;
                    }
                }
                if (phase_left == 0) {
                    static const unsigned kMix[][2] = {{90, 20}, {20, 90}, {60, 60}, {100, 100}, {100, 0}, {0, 100}};
                    unsigned m = rng.below(6);
                    wr_pct = kMix[m][0];
                    rd_pct = kMix[m][1];
                    phase_left = 50 + rng.below(400);
                }
                phase_left--;
                uint32_t iv = 0, id = 0;
                for (unsigned l = 0; l < kLanes; l++) {
                    if (!dut->wr_rst && rng.chance(wr_pct)) iv |= 1u << l;
                    id |= (uint32_t)rng.bits(16) << (16 * l);
                }
                dut->in_valid = iv;
                dut->in_data = id;
            }
            if (rd_rise) {
                rd_edges++;
                uint32_t ordy = 0;
                for (unsigned l = 0; l < kLanes; l++)
                    if (rng.chance(rd_pct)) ordy |= 1u << l;
                dut->out_ready = ordy;
            }
            if (wr_rise || rd_rise) dut->eval();
            for (auto& ln : lane) ln.prune(t, 8 * (pw + pr));
            if (chk.failures() > 20) break;
        }
        for (unsigned l = 0; l < kLanes; l++) {
            chk.check(lane[l].reads > 1000 && lane[l].full_refusals > 0,
                      "%s, depth %u coverage: %llu words read, %lu refused writes", sc.name, kDepth[l],
                      (unsigned long long)lane[l].reads, lane[l].full_refusals);
            total_words += lane[l].reads;
        }
        std::printf("  scenario %-30s depth 2: %7llu words, depth 8: %7llu words\n", sc.name,
                    (unsigned long long)lane[0].reads, (unsigned long long)lane[1].reads);
        if (chk.failures() > 20) break;
    }
    char summary[128];
    std::snprintf(summary, sizeof summary, "%zu clock scenarios, %llu words checked",
                  sizeof kScenarios / sizeof kScenarios[0], (unsigned long long)total_words);
    dut->final();
    return chk.finish(seed, summary);
}
