// tb_util.h - seed handling, PRNG and failure reporting shared by the
// Verilator unit tests of rtl/common cells.
#pragma once
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace tb {

// Seed from --seed=N, +seed=N or env SEED (in that order); default fixed so
// that a plain run is reproducible. Printed so any run can be replayed.
inline uint64_t seed_from(int argc, char** argv, uint64_t fallback = 1) {
    uint64_t seed = fallback;
    const char* env = std::getenv("SEED");
    if (env && *env) seed = std::strtoull(env, nullptr, 0);
    for (int i = 1; i < argc; i++) {
        if (!std::strncmp(argv[i], "--seed=", 7)) seed = std::strtoull(argv[i] + 7, nullptr, 0);
        if (!std::strncmp(argv[i], "+seed=", 6)) seed = std::strtoull(argv[i] + 6, nullptr, 0);
    }
    return seed;
}

// splitmix64: small, fast, and good enough for stimulus.
class Rng {
  public:
    explicit Rng(uint64_t seed) : state_(seed) {}
    uint64_t next() {
        uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint32_t below(uint32_t n) { return (uint32_t)(next() % n); }
    bool chance(unsigned percent) { return below(100) < percent; }
    uint64_t bits(unsigned width) {
        uint64_t v = next();
        return width >= 64 ? v : (v & ((1ull << width) - 1));
    }

  private:
    uint64_t state_;
};

// Collects failures; prints the first few in full and a count of the rest.
class Checker {
  public:
    explicit Checker(const char* test) : test_(test) {}
    bool check(bool ok, const char* fmt, ...) {
        if (ok) return true;
        if (failures_ < 10) {
            std::va_list ap;
            va_start(ap, fmt);
            std::fprintf(stderr, "FAIL %s: ", test_);
            std::vfprintf(stderr, fmt, ap);
            std::fputc('\n', stderr);
            va_end(ap);
        }
        failures_++;
        return false;
    }
    unsigned long failures() const { return failures_; }
    int finish(uint64_t seed, const std::string& summary) const {
        if (failures_) {
            std::printf("FAIL %s: %lu check(s) failed (seed %llu; replay with SEED=%llu)\n", test_,
                        failures_, (unsigned long long)seed, (unsigned long long)seed);
            return 1;
        }
        std::printf("PASS %s: %s (seed %llu)\n", test_, summary.c_str(), (unsigned long long)seed);
        return 0;
    }

  private:
    const char* test_;
    unsigned long failures_ = 0;
};

inline uint32_t popcount64(uint64_t v) { return (uint32_t)__builtin_popcountll(v); }

}  // namespace tb
