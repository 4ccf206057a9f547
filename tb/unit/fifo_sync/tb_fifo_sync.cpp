// tb_fifo_sync.cpp - randomised unit test of kolo_fifo_sync against a
// std::deque model: contents and order, in_ready/out_valid/count every cycle,
// first-word-fall-through timing, under random valid/ready with phases that
// fill and drain the FIFO, and occasional resets.
#include <deque>
#include <memory>

#include "Vtb_fifo_sync.h"
#include "tb_util.h"
#include "verilated.h"

static const unsigned kLanes = 4;
static const unsigned kDepth[kLanes] = {2, 4, 5, 80};

int main(int argc, char** argv) {
    const uint64_t seed = tb::seed_from(argc, argv);
    std::printf("unit-fifo_sync: SEED=%llu\n", (unsigned long long)seed);
    tb::Rng rng(seed);
    tb::Checker chk("unit-fifo_sync");
    auto ctx = std::make_unique<VerilatedContext>();
    auto dut = std::make_unique<Vtb_fifo_sync>(ctx.get());

    std::deque<uint16_t> model[kLanes];
    unsigned long pushes[kLanes] = {}, pops[kLanes] = {}, full_cycles[kLanes] = {};
    unsigned long both_cycles[kLanes] = {}, refused[kLanes] = {};
    unsigned wr_pct[kLanes], rd_pct[kLanes];

    auto tick = [&]() {
        dut->clk = 1;
        dut->eval();
        dut->clk = 0;
        dut->eval();
    };

    dut->clk = 0;
    dut->rst = 1;
    dut->in_valid = 0;
    dut->out_ready = 0;
    dut->eval();  // settle with the clock low, so that the first edge is seen
    tick();
    tick();
    dut->rst = 0;

    const unsigned long kCycles = 1000000;
    for (unsigned long cyc = 0; cyc < kCycles; cyc++) {
        // New traffic phase every 300 cycles: fill, drain, balanced, or idle-ish.
        if (cyc % 300 == 0) {
            for (unsigned l = 0; l < kLanes; l++) {
                static const unsigned kMix[][2] = {{90, 20}, {20, 90}, {60, 60}, {100, 100}, {10, 10}, {95, 50}};
                unsigned m = rng.below(6);
                wr_pct[l] = kMix[m][0];
                rd_pct[l] = kMix[m][1];
            }
        }
        bool do_reset = rng.below(20000) == 0;
        uint32_t in_valid = 0, out_ready = 0;
        uint64_t in_data = 0;
        for (unsigned l = 0; l < kLanes; l++) {
            if (rng.chance(wr_pct[l])) in_valid |= 1u << l;
            if (rng.chance(rd_pct[l])) out_ready |= 1u << l;
            in_data |= rng.bits(16) << (16 * l);
        }
        dut->rst = do_reset;
        dut->in_valid = in_valid;
        dut->out_ready = out_ready;
        dut->in_data = in_data;
        dut->eval();

        // Outputs before the edge against the model.
        for (unsigned l = 0; l < kLanes; l++) {
            const auto& q = model[l];
            bool in_ready = (dut->in_ready >> l) & 1;
            bool out_valid = (dut->out_valid >> l) & 1;
            uint16_t out_data = (uint16_t)(dut->out_data >> (16 * l));
            unsigned count = (dut->count >> (8 * l)) & 0xff;
            chk.check(count == q.size(), "cycle %lu lane %u (depth %u): count %u, model %zu", cyc, l,
                      kDepth[l], count, q.size());
            chk.check(in_ready == (q.size() < kDepth[l]), "cycle %lu lane %u: in_ready %d with %zu/%u held",
                      cyc, l, in_ready, q.size(), kDepth[l]);
            chk.check(out_valid == !q.empty(), "cycle %lu lane %u: out_valid %d with %zu held", cyc, l,
                      out_valid, q.size());
            if (out_valid && !q.empty())
                chk.check(out_data == q.front(), "cycle %lu lane %u: out_data %04x, expected %04x", cyc, l,
                          out_data, q.front());
            if (do_reset) continue;
            bool wr = ((in_valid >> l) & 1) && in_ready;
            bool rd = ((out_ready >> l) & 1) && out_valid;
            if (((in_valid >> l) & 1) && !in_ready) refused[l]++;
            if (q.size() == kDepth[l]) full_cycles[l]++;
            if (wr && rd) both_cycles[l]++;
            if (rd && !model[l].empty()) {
                model[l].pop_front();
                pops[l]++;
            }
            if (wr) {
                model[l].push_back((uint16_t)(in_data >> (16 * l)));
                pushes[l]++;
            }
        }
        tick();
        if (do_reset)
            for (auto& q : model) q.clear();
        if (chk.failures() > 20) break;
    }

    // Coverage: every lane must have been full, refused writes, and seen
    // simultaneous reads and writes, else the run proved little.
    for (unsigned l = 0; l < kLanes; l++) {
        chk.check(full_cycles[l] > 0 && refused[l] > 0 && both_cycles[l] > 0 && pops[l] > 1000,
                  "lane %u coverage: full %lu refused %lu read+write %lu pops %lu", l, full_cycles[l],
                  refused[l], both_cycles[l], pops[l]);
    }
    char summary[256];
    std::snprintf(summary, sizeof summary, "%lu cycles, depths 2/4/5/80, words through each lane %lu/%lu/%lu/%lu",
                  kCycles, pops[0], pops[1], pops[2], pops[3]);
    dut->final();
    return chk.finish(seed, summary);
}
