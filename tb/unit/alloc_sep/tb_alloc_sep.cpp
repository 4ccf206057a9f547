// tb_alloc_sep.cpp - randomised unit test of kolo_alloc_sep, four lanes
// (4x4, 3x5, 5x3, 7x7). Every cycle: grant is a matching, a subset of req,
// non-empty when req is, and equal to an exact C++ model of the separable
// input-first allocator. Under all-ones requests the allocator must reach a
// full matching (min(N_IN, N_OUT) grants) within a bound, and a square one
// must then stay full; every input must be served.
#include <algorithm>
#include <memory>
#include <vector>

#include "Vtb_alloc_sep.h"
#include "tb_util.h"
#include "verilated.h"

static const unsigned kLanes = 4;
static const unsigned kIn[kLanes] = {4, 3, 5, 7};
static const unsigned kOut[kLanes] = {4, 5, 3, 7};

// Round-robin arbiter model: search starts at ptr, ptr moves past a used winner.
struct Rr {
    unsigned n, ptr = 0;
    explicit Rr(unsigned n_) : n(n_) {}
    int pick(const std::vector<bool>& req) const {
        for (unsigned k = 0; k < n; k++)
            if (req[(ptr + k) % n]) return (int)((ptr + k) % n);
        return -1;
    }
    void advance(int winner) {
        if (winner >= 0) ptr = ((unsigned)winner + 1) % n;
    }
};

struct AllocModel {
    unsigned ni, no;
    std::vector<Rr> in_arb, out_arb;
    AllocModel(unsigned ni_, unsigned no_) : ni(ni_), no(no_) { reset(); }
    void reset() {
        in_arb.assign(ni, Rr(no));
        out_arb.assign(no, Rr(ni));
    }
    // Returns the grant bit vector and updates the pointers.
    uint64_t step(uint64_t req, bool update) {
        std::vector<int> choice(ni, -1);
        for (unsigned i = 0; i < ni; i++) {
            std::vector<bool> r(no);
            for (unsigned o = 0; o < no; o++) r[o] = (req >> (i * no + o)) & 1;
            choice[i] = in_arb[i].pick(r);
        }
        uint64_t grant = 0;
        std::vector<int> winner(no, -1);
        for (unsigned o = 0; o < no; o++) {
            std::vector<bool> r(ni);
            for (unsigned i = 0; i < ni; i++) r[i] = choice[i] == (int)o;
            winner[o] = out_arb[o].pick(r);
            if (winner[o] >= 0) grant |= 1ull << (winner[o] * no + o);
        }
        if (update) {
            for (unsigned o = 0; o < no; o++) out_arb[o].advance(winner[o]);
            for (unsigned i = 0; i < ni; i++)
                if (choice[i] >= 0 && winner[choice[i]] == (int)i) in_arb[i].advance(choice[i]);
        }
        return grant;
    }
};

int main(int argc, char** argv) {
    const uint64_t seed = tb::seed_from(argc, argv);
    std::printf("unit-alloc_sep: SEED=%llu\n", (unsigned long long)seed);
    tb::Rng rng(seed);
    tb::Checker chk("unit-alloc_sep");
    auto ctx = std::make_unique<VerilatedContext>();
    auto dut = std::make_unique<Vtb_alloc_sep>(ctx.get());

    std::vector<AllocModel> model;
    for (unsigned l = 0; l < kLanes; l++) model.emplace_back(kIn[l], kOut[l]);
    unsigned long full_phases[kLanes] = {}, worst_converge[kLanes] = {}, grants[kLanes] = {};

    auto tick = [&]() {
        dut->clk = 1;
        dut->eval();
        dut->clk = 0;
        dut->eval();
    };
    dut->clk = 0;
    dut->rst = 1;
    dut->eval();  // settle with the clock low, so that the first edge is seen
    tick();
    tick();
    dut->rst = 0;

    const unsigned long kCycles = 200000;
    const unsigned kPhase = 400;
    unsigned density = 50;
    bool all_ones = false;
    unsigned long phase_start = 0;
    long converged_at[kLanes];
    unsigned long input_last_grant[kLanes][8];
    for (unsigned long cyc = 0; cyc < kCycles; cyc++) {
        if (cyc % kPhase == 0) {
            static const unsigned kDensity[] = {5, 20, 50, 80};
            all_ones = rng.chance(35);
            density = kDensity[rng.below(4)];
            phase_start = cyc;
            for (unsigned l = 0; l < kLanes; l++) {
                converged_at[l] = -1;
                for (unsigned i = 0; i < 8; i++) input_last_grant[l][i] = cyc;
            }
        }
        bool do_reset = !all_ones && rng.below(30000) == 0;
        uint64_t req[kLanes];
        for (unsigned l = 0; l < kLanes; l++) {
            unsigned bits = kIn[l] * kOut[l];
            uint64_t r = 0;
            if (all_ones) {
                r = (bits == 64) ? ~0ull : ((1ull << bits) - 1);
            } else {
                for (unsigned b = 0; b < bits; b++)
                    if (rng.chance(density)) r |= 1ull << b;
            }
            req[l] = r;
            dut->req[2 * l] = (uint32_t)r;
            dut->req[2 * l + 1] = (uint32_t)(r >> 32);
        }
        dut->rst = do_reset;
        dut->eval();

        for (unsigned l = 0; l < kLanes; l++) {
            const unsigned ni = kIn[l], no = kOut[l];
            uint64_t g = dut->grant[2 * l] | ((uint64_t)dut->grant[2 * l + 1] << 32);
            chk.check((g & ~req[l]) == 0, "cycle %lu %ux%u: grant %llx outside req %llx", cyc, ni, no,
                      (unsigned long long)g, (unsigned long long)req[l]);
            chk.check(req[l] == 0 || g != 0, "cycle %lu %ux%u: req %llx but no grant", cyc, ni, no,
                      (unsigned long long)req[l]);
            for (unsigned i = 0; i < ni; i++) {
                uint64_t row = (g >> (i * no)) & ((1ull << no) - 1);
                chk.check(tb::popcount64(row) <= 1, "cycle %lu %ux%u: input %u has %u grants", cyc, ni, no, i,
                          tb::popcount64(row));
            }
            for (unsigned o = 0; o < no; o++) {
                unsigned n = 0;
                for (unsigned i = 0; i < ni; i++) n += (g >> (i * no + o)) & 1;
                chk.check(n <= 1, "cycle %lu %ux%u: output %u has %u grants", cyc, ni, no, o, n);
            }
            uint64_t mg = model[l].step(req[l], !do_reset);
            chk.check(g == mg, "cycle %lu %ux%u: grant %llx, model %llx (req %llx)", cyc, ni, no,
                      (unsigned long long)g, (unsigned long long)mg, (unsigned long long)req[l]);
            grants[l] += tb::popcount64(g);

            if (all_ones) {
                const unsigned full = std::min(ni, no);
                bool is_full = tb::popcount64(g) == full;
                unsigned long age = cyc - phase_start;
                if (converged_at[l] < 0 && is_full) {
                    converged_at[l] = (long)age;
                    worst_converge[l] = std::max(worst_converge[l], age);
                    full_phases[l]++;
                }
                // Bound from the proof sketch: every cycle without a full
                // matching moves at least one input pointer; allow N_IN*N_OUT.
                if (converged_at[l] < 0)
                    chk.check(age < ni * no, "cycle %lu %ux%u: no full matching after %lu all-ones cycles", cyc, ni,
                              no, age);
                if (converged_at[l] >= 0 && ni == no)
                    chk.check(is_full, "cycle %lu %ux%u: full matching lost under all-ones requests", cyc, ni, no);
                // Every input is served regularly (inputs > outputs wait their turn).
                for (unsigned i = 0; i < ni; i++) {
                    if ((g >> (i * no)) & ((1ull << no) - 1)) input_last_grant[l][i] = cyc;
                    chk.check(cyc - input_last_grant[l][i] <= 2ul * ni * no,
                              "cycle %lu %ux%u: input %u not served for %lu cycles", cyc, ni, no, i,
                              cyc - input_last_grant[l][i]);
                }
            }
        }
        tick();
        if (do_reset)
            for (auto& m : model) m.reset();
        if (chk.failures() > 20) break;
    }
    for (unsigned l = 0; l < kLanes; l++)
        chk.check(full_phases[l] > 10, "%ux%u: only %lu all-ones phases reached a full matching", kIn[l], kOut[l],
                  full_phases[l]);
    char summary[256];
    std::snprintf(summary, sizeof summary,
                  "%lu cycles, 4x4/3x5/5x3/7x7, worst cycles to full matching under all-ones %lu/%lu/%lu/%lu",
                  kCycles, worst_converge[0], worst_converge[1], worst_converge[2], worst_converge[3]);
    dut->final();
    return chk.finish(seed, summary);
}
