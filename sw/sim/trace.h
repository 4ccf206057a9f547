// trace.h - kolo-sim's VCD trace of the fault handling (--trace): a window of
// system-level signals (per node: link states, firmware stage, table epoch,
// operations waiting; totals: packets dropped, requests sent again, firmware
// settled). Written as value changes; `make demo` turns it into FST with a
// GTKWave save file. Not RTL waveforms: the signals of the simulated system.
#ifndef KOLO_SIM_TRACE_H
#define KOLO_SIM_TRACE_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace kolo_sim {

class VcdTrace {
  public:
    ~VcdTrace();
    // scope: "" (top) or a module name; returns the signal's handle
    int add(const std::string &scope, const std::string &name, unsigned width);
    bool open(const std::string &path, std::string *err);
    // one sample: set() every signal, then commit(time)
    void set(int sig, uint64_t v) { cur_[static_cast<size_t>(sig)] = v; }
    void commit(uint64_t time);
    void close();
    bool is_open() const { return f_ != nullptr; }

  private:
    struct Sig {
        std::string scope, name, code;
        unsigned width;
    };
    FILE *f_ = nullptr;
    std::vector<Sig> sig_;
    std::vector<uint64_t> cur_, last_;
    bool first_ = true;
};

} // namespace kolo_sim
#endif
