// tb_arb.cpp - randomised unit test of kolo_arb_rr (default) or
// kolo_arb_matrix (-DARB_MATRIX). Five lanes, N = 1, 2, 5, 28, 32.
// Every cycle: grant is one-hot or zero, a subset of req, non-zero when req
// is, and equal to an exact C++ model of the arbiter. Starvation: a requester
// that keeps requesting sees at most N-1 advanced grants to others.
#include <algorithm>
#include <memory>
#include <vector>

#include "tb_util.h"
#include "verilated.h"
#ifdef ARB_MATRIX
#include "Vtb_arb_matrix.h"
typedef Vtb_arb_matrix Dut;
static const char* kName = "unit-arb_matrix";
#else
#include "Vtb_arb_rr.h"
typedef Vtb_arb_rr Dut;
static const char* kName = "unit-arb_rr";
#endif

static const unsigned kLanes = 5;
static const unsigned kN[kLanes] = {1, 2, 5, 28, 32};

// Reference: both arbiters as an ordered list of requesters, highest
// priority first. Round robin rotates the list so that the one after the
// winner is first; matrix moves the winner to the end.
struct ArbModel {
    std::vector<unsigned> order;
    explicit ArbModel(unsigned n) { reset(n); }
    void reset(unsigned n) {
        order.clear();
        for (unsigned i = 0; i < n; i++) order.push_back(i);
    }
    uint32_t grant(uint32_t req) const {
        for (unsigned i : order)
            if ((req >> i) & 1) return 1u << i;
        return 0;
    }
    void advance(uint32_t grant) {
        if (!grant) return;
        unsigned w = (unsigned)__builtin_ctz(grant);
#ifdef ARB_MATRIX
        order.erase(std::find(order.begin(), order.end(), w));
        order.push_back(w);
#else
        unsigned n = (unsigned)order.size();
        order.clear();
        for (unsigned i = 1; i <= n; i++) order.push_back((w + i) % n);
#endif
    }
};

int main(int argc, char** argv) {
    const uint64_t seed = tb::seed_from(argc, argv);
    std::printf("%s: SEED=%llu\n", kName, (unsigned long long)seed);
    tb::Rng rng(seed);
    tb::Checker chk(kName);
    auto ctx = std::make_unique<VerilatedContext>();
    auto dut = std::make_unique<Dut>(ctx.get());

    std::vector<ArbModel> model;
    std::vector<std::vector<unsigned>> waited(kLanes);
    unsigned max_wait[kLanes] = {};
    unsigned long grants[kLanes] = {};
    for (unsigned l = 0; l < kLanes; l++) {
        model.emplace_back(kN[l]);
        waited[l].assign(kN[l], 0);
    }
    uint32_t held[kLanes] = {};  // persistent-mode requests
    unsigned density = 50, adv_pct = 100;
    bool persistent = false;

    auto tick = [&]() {
        dut->clk = 1;
        dut->eval();
        dut->clk = 0;
        dut->eval();
    };
    // Settle with the clock low first, so that the first rising edge is seen.
    dut->clk = 0;
    dut->rst = 1;
    dut->eval();
    tick();
    tick();
    dut->rst = 0;

    const unsigned long kCycles = 300000;
    for (unsigned long cyc = 0; cyc < kCycles; cyc++) {
        if (cyc % 500 == 0) {
            static const unsigned kDensity[] = {3, 20, 50, 90, 100};
            static const unsigned kAdvance[] = {100, 100, 80, 40};
            density = kDensity[rng.below(5)];
            adv_pct = kAdvance[rng.below(4)];
            persistent = rng.chance(50);
        }
        bool do_reset = rng.below(50000) == 0;
        uint32_t req[kLanes], adv = 0;
        for (unsigned l = 0; l < kLanes; l++) {
            uint32_t r = 0;
            for (unsigned i = 0; i < kN[l]; i++)
                if (rng.chance(density)) r |= 1u << i;
            req[l] = persistent ? (held[l] | r) : r;
            held[l] = req[l];
            if (rng.chance(adv_pct)) adv |= 1u << l;
            dut->req[l] = req[l];
        }
        dut->rst = do_reset;
        dut->advance = adv;
        dut->eval();

        for (unsigned l = 0; l < kLanes; l++) {
            uint32_t g = dut->grant[l];
            uint32_t mask = kN[l] == 32 ? 0xffffffffu : ((1u << kN[l]) - 1);
            chk.check((g & (g - 1)) == 0, "cycle %lu N=%u: grant %08x not one-hot", cyc, kN[l], g);
            chk.check((g & ~req[l]) == 0, "cycle %lu N=%u: grant %08x outside req %08x", cyc, kN[l], g, req[l]);
            chk.check((g & ~mask) == 0, "cycle %lu N=%u: grant %08x beyond N", cyc, kN[l], g);
            chk.check(req[l] == 0 || g != 0, "cycle %lu N=%u: req %08x but no grant", cyc, kN[l], req[l]);
            uint32_t mg = model[l].grant(req[l]);
            chk.check(g == mg, "cycle %lu N=%u: grant %08x, model %08x (req %08x)", cyc, kN[l], g, mg, req[l]);
            if (do_reset) continue;
            bool used = ((adv >> l) & 1) && g;
            for (unsigned i = 0; i < kN[l]; i++) {
                bool r = (req[l] >> i) & 1;
                if (!r || (used && ((g >> i) & 1))) {
                    waited[l][i] = 0;
                } else if (used) {
                    waited[l][i]++;
                    max_wait[l] = std::max(max_wait[l], waited[l][i]);
                    chk.check(waited[l][i] <= kN[l] - 1, "cycle %lu N=%u: requester %u starved for %u grants",
                              cyc, kN[l], i, waited[l][i]);
                }
            }
            if (used) {
                model[l].advance(g);
                held[l] &= ~g;
                grants[l]++;
            }
        }
        tick();
        if (do_reset)
            for (unsigned l = 0; l < kLanes; l++) {
                model[l].reset(kN[l]);
                waited[l].assign(kN[l], 0);
            }
        if (chk.failures() > 20) break;
    }
    // The worst case (N-1 waits) must have occurred, or the starvation
    // check was never really exercised.
    for (unsigned l = 0; l < kLanes; l++)
        chk.check(max_wait[l] == kN[l] - 1, "N=%u: longest wait %u, expected the bound %u to be reached", kN[l],
                  max_wait[l], kN[l] - 1);
    char summary[200];
    std::snprintf(summary, sizeof summary, "%lu cycles, N=1/2/5/28/32, %lu/%lu/%lu/%lu/%lu used grants", kCycles,
                  grants[0], grants[1], grants[2], grants[3], grants[4]);
    dut->final();
    return chk.finish(seed, summary);
}
