// tb_credit_counter.cpp - randomised unit test of kolo_credit_counter against
// a C++ model: count, available and the sticky error bit every cycle, for
// four (MAX, INIT) pairs, with phases biased towards MAX and towards 0 so
// that overflow and underflow errors (and their saturation) happen, and
// resets that must clear the error.
#include <memory>

#include "Vtb_credit_counter.h"
#include "tb_util.h"
#include "verilated.h"

static const unsigned kLanes = 4;
static const unsigned kMax[kLanes] = {8, 1, 5, 80};
static const unsigned kInit[kLanes] = {8, 0, 2, 80};

int main(int argc, char** argv) {
    const uint64_t seed = tb::seed_from(argc, argv);
    std::printf("unit-credit_counter: SEED=%llu\n", (unsigned long long)seed);
    tb::Rng rng(seed);
    tb::Checker chk("unit-credit_counter");
    auto ctx = std::make_unique<VerilatedContext>();
    auto dut = std::make_unique<Vtb_credit_counter>(ctx.get());

    unsigned count[kLanes];
    bool error[kLanes];
    unsigned long overflows[kLanes] = {}, underflows[kLanes] = {}, at_max[kLanes] = {}, at_zero[kLanes] = {};
    for (unsigned l = 0; l < kLanes; l++) {
        count[l] = kInit[l];
        error[l] = false;
    }
    auto tick = [&]() {
        dut->clk = 1;
        dut->eval();
        dut->clk = 0;
        dut->eval();
    };
    dut->clk = 0;
    dut->rst = 1;
    dut->inc = 0;
    dut->dec = 0;
    dut->eval();  // settle with the clock low, so that the first edge is seen
    tick();
    tick();
    dut->rst = 0;

    unsigned inc_pct = 50, dec_pct = 50;
    const unsigned long kCycles = 300000;
    for (unsigned long cyc = 0; cyc < kCycles; cyc++) {
        if (cyc % 200 == 0) {
            static const unsigned kMix[][2] = {{50, 50}, {70, 30}, {30, 70}, {90, 90}, {5, 5}};
            unsigned m = rng.below(5);
            inc_pct = kMix[m][0];
            dec_pct = kMix[m][1];
        }
        bool do_reset = rng.below(3000) == 0;
        uint32_t inc = 0, dec = 0;
        for (unsigned l = 0; l < kLanes; l++) {
            if (rng.chance(inc_pct)) inc |= 1u << l;
            if (rng.chance(dec_pct)) dec |= 1u << l;
        }
        dut->rst = do_reset;
        dut->inc = inc;
        dut->dec = dec;
        dut->eval();
        for (unsigned l = 0; l < kLanes; l++) {
            unsigned c = (dut->count >> (8 * l)) & 0xff;
            bool av = (dut->available >> l) & 1, er = (dut->error >> l) & 1;
            chk.check(c == count[l], "cycle %lu MAX=%u: count %u, model %u", cyc, kMax[l], c, count[l]);
            chk.check(av == (count[l] != 0), "cycle %lu MAX=%u: available %d at count %u", cyc, kMax[l], av,
                      count[l]);
            chk.check(er == error[l], "cycle %lu MAX=%u: error %d, model %d", cyc, kMax[l], er, error[l]);
            if (count[l] == kMax[l]) at_max[l]++;
            if (count[l] == 0) at_zero[l]++;
            bool i = (inc >> l) & 1, d = (dec >> l) & 1;
            if (do_reset) {
                count[l] = kInit[l];
                error[l] = false;
            } else if (i && !d) {
                if (count[l] == kMax[l]) {
                    error[l] = true;
                    overflows[l]++;
                } else {
                    count[l]++;
                }
            } else if (d && !i) {
                if (count[l] == 0) {
                    error[l] = true;
                    underflows[l]++;
                } else {
                    count[l]--;
                }
            }
        }
        tick();
        if (chk.failures() > 20) break;
    }
    for (unsigned l = 0; l < kLanes; l++)
        chk.check(overflows[l] && underflows[l] && at_max[l] && at_zero[l],
                  "MAX=%u coverage: overflows %lu underflows %lu cycles at MAX %lu at 0 %lu", kMax[l], overflows[l],
                  underflows[l], at_max[l], at_zero[l]);
    char summary[200];
    std::snprintf(summary, sizeof summary, "%lu cycles, (MAX,INIT) = (8,8) (1,0) (5,2) (80,80), errors hit %lu/%lu/%lu/%lu",
                  kCycles, overflows[0] + underflows[0], overflows[1] + underflows[1], overflows[2] + underflows[2],
                  overflows[3] + underflows[3]);
    dut->final();
    return chk.finish(seed, summary);
}
