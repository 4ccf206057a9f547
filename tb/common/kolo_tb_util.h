// kolo_tb_util.h - random numbers, command-line options, statistics and the
// watchdog shared by the kolo network testbenches.
#ifndef KOLO_TB_UTIL_H
#define KOLO_TB_UTIL_H

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace kolo_tb {

// Exit codes of every harness.
constexpr int kExitPass = 0;
constexpr int kExitFail = 1;   // the design or the scoreboard disagreed
constexpr int kExitUsage = 2;  // bad command line

// ---- random numbers: splitmix64 seeding a xoshiro256** generator -------------
inline uint64_t splitmix64(uint64_t &x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
inline uint64_t mix64(uint64_t x) { return splitmix64(x); }

class Rng {
  public:
    explicit Rng(uint64_t seed = 1) { reseed(seed); }
    void reseed(uint64_t seed) {
        for (auto &w : s_) w = splitmix64(seed);
    }
    uint64_t next() {
        uint64_t r = rotl(s_[1] * 5, 7) * 9, t = s_[1] << 17;
        s_[2] ^= s_[0];
        s_[3] ^= s_[1];
        s_[1] ^= s_[2];
        s_[0] ^= s_[3];
        s_[2] ^= t;
        s_[3] = rotl(s_[3], 45);
        return r;
    }
    // uniform in [0, n), n > 0
    uint64_t below(uint64_t n) { return n <= 1 ? 0 : next() % n; }
    // uniform in [lo, hi]
    int range(int lo, int hi) { return lo + static_cast<int>(below(static_cast<uint64_t>(hi - lo + 1))); }
    double uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
    bool chance(double p) { return p >= 1.0 || (p > 0.0 && uniform() < p); }

  private:
    static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    uint64_t s_[4];
};

// Seed: SEED from the environment if set, else the --seed option, else from time.
inline uint64_t pick_seed(const std::string &opt_value) {
    const char *env = std::getenv("SEED");
    if (env && *env) return std::strtoull(env, nullptr, 0);
    if (!opt_value.empty()) return std::strtoull(opt_value.c_str(), nullptr, 0);
    uint64_t t = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    return mix64(t) % 1000000000ull;
}

// ---- options: --name=value, --name value, +name=value, --flag ----------------
class Options {
  public:
    struct Spec {
        std::string name, def, help;
    };
    Options(std::string prog, std::string summary) : prog_(std::move(prog)), summary_(std::move(summary)) {}
    void add(const std::string &name, const std::string &def, const std::string &help) {
        specs_.push_back({name, def, help});
    }
    // Returns false (after printing why, or the help) when the program should stop;
    // *exit_code tells how.
    bool parse(int argc, char **argv, int *exit_code) {
        for (int i = 1; i < argc; i++) {
            std::string a = argv[i];
            if (a == "-h" || a == "--help" || a == "+help") {
                usage(stdout);
                *exit_code = kExitPass;
                return false;
            }
            if (a.rfind("+verilator+", 0) == 0) continue;
            std::string body;
            if (a.rfind("--", 0) == 0) body = a.substr(2);
            else if (a.rfind("+", 0) == 0) body = a.substr(1);
            else {
                std::fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n", prog_.c_str(), a.c_str());
                *exit_code = kExitUsage;
                return false;
            }
            std::string name = body, value;
            size_t eq = body.find('=');
            bool has_value = eq != std::string::npos;
            if (has_value) {
                name = body.substr(0, eq);
                value = body.substr(eq + 1);
            }
            std::replace(name.begin(), name.end(), '_', '-');
            const Spec *s = find(name);
            if (!s) {
                std::fprintf(stderr, "%s: unknown option '%s' (see --help)\n", prog_.c_str(), a.c_str());
                *exit_code = kExitUsage;
                return false;
            }
            if (!has_value) {
                bool is_flag = s->def == "0" || s->def == "1";
                if (is_flag) value = "1";
                else if (i + 1 < argc) value = argv[++i];
                else {
                    std::fprintf(stderr, "%s: option '%s' needs a value\n", prog_.c_str(), a.c_str());
                    *exit_code = kExitUsage;
                    return false;
                }
            }
            values_[name] = value;
        }
        return true;
    }
    void usage(FILE *f) const {
        std::fprintf(f, "usage: %s [options]\n%s\n\noptions (--name=value or +name=value):\n", prog_.c_str(),
                     summary_.c_str());
        for (const auto &s : specs_)
            std::fprintf(f, "  --%-16s %s%s%s%s\n", s.name.c_str(), s.help.c_str(), s.def.empty() ? "" : " [",
                         s.def.c_str(), s.def.empty() ? "" : "]");
        std::fprintf(f, "  --help           this text\n\nSEED=<n> in the environment overrides --seed.\n"
                        "Exit status: 0 pass, 1 failure, 2 bad command line.\n");
    }
    std::string str(const std::string &name) const {
        auto it = values_.find(name);
        if (it != values_.end()) return it->second;
        const Spec *s = find(name);
        return s ? s->def : std::string();
    }
    bool given(const std::string &name) const { return values_.count(name) != 0; }
    // numeric accessors exit with a usage error on junk
    long long integer(const std::string &name) const {
        std::string v = str(name);
        char *end = nullptr;
        long long x = std::strtoll(v.c_str(), &end, 0);
        if (v.empty() || *end) bad(name, v);
        return x;
    }
    double real(const std::string &name) const {
        std::string v = str(name);
        char *end = nullptr;
        double x = std::strtod(v.c_str(), &end);
        if (v.empty() || *end) bad(name, v);
        return x;
    }
    bool flag(const std::string &name) const { return integer(name) != 0; }
    [[noreturn]] void bad(const std::string &name, const std::string &v) const {
        std::fprintf(stderr, "%s: bad value '%s' for --%s (see --help)\n", prog_.c_str(), v.c_str(), name.c_str());
        std::exit(kExitUsage);
    }

  private:
    const Spec *find(const std::string &name) const {
        for (const auto &s : specs_)
            if (s.name == name) return &s;
        return nullptr;
    }
    std::string prog_, summary_;
    std::vector<Spec> specs_;
    std::map<std::string, std::string> values_;
};

// Split "a,b,c" into parts.
inline std::vector<std::string> split(const std::string &s, char sep) {
    std::vector<std::string> out;
    size_t start = 0;
    while (true) {
        size_t p = s.find(sep, start);
        out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
        if (p == std::string::npos) break;
        start = p + 1;
    }
    return out;
}

// ---- latency statistics -----------------------------------------------------
class LatencyStats {
  public:
    void add(uint64_t v) {
        v_.push_back(v);
        sum_ += static_cast<double>(v);
        sorted_ = false;
    }
    size_t count() const { return v_.size(); }
    double mean() const { return v_.empty() ? 0.0 : sum_ / static_cast<double>(v_.size()); }
    // percentile p in [0, 100], nearest rank
    uint64_t percentile(double p) {
        if (v_.empty()) return 0;
        if (!sorted_) {
            std::sort(v_.begin(), v_.end());
            sorted_ = true;
        }
        size_t rank = static_cast<size_t>(p / 100.0 * static_cast<double>(v_.size()) + 0.999999);
        if (rank < 1) rank = 1;
        if (rank > v_.size()) rank = v_.size();
        return v_[rank - 1];
    }
    uint64_t max() { return percentile(100.0); }

  private:
    std::vector<uint64_t> v_;
    double sum_ = 0.0;
    bool sorted_ = true;
};

// ---- watchdog: no flit moved anywhere for `bound` cycles while work is pending --
class Watchdog {
  public:
    explicit Watchdog(uint64_t bound = 3000) : bound_(bound) {}
    void set_bound(uint64_t b) { bound_ = b; }
    uint64_t bound() const { return bound_; }
    void activity(uint64_t now) { last_ = now; }
    // true once when it fires
    bool check(uint64_t now, bool pending) {
        if (!pending) {
            last_ = now;
            return false;
        }
        return bound_ != 0 && now - last_ >= bound_;
    }
    uint64_t last_activity() const { return last_; }

  private:
    uint64_t bound_;
    uint64_t last_ = 0;
};

inline double wall_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace kolo_tb
#endif
