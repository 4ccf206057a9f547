// trace.h - kolo-sim's VCD trace of the fault handling (--trace): a window of
// system-level signals (per node: link states, firmware stage, table epoch,
// operations waiting; totals: packets dropped, requests sent again, firmware
// settled). Written as value changes; `make demo` turns it into FST with a
// GTKWave save file. Not RTL waveforms: the signals of the simulated system.
// Everything sits in one top scope, `kolo` (the totals) with a scope per
// node below it (`kolo.node_X_Y_Z.up`). Time is real time: one core cycle
// lasts ps_per_cycle picoseconds (4000 at 250 MHz), the same axis as the RTL
// waveform of --rtl-trace. VCD allows only 1, 10 or 100 of a unit in
// $timescale: the file says 1 ns (or 1 ps when a cycle is not whole
// nanoseconds) and writes times in that unit.
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
    bool open(const std::string &path, unsigned ps_per_cycle, std::string *err);
    // one sample: set() every signal, then commit(cycle)
    void set(int sig, uint64_t v) { cur_[static_cast<size_t>(sig)] = v; }
    void commit(uint64_t cycle);
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
    uint64_t units_per_cycle_ = 1; // time units of $timescale per core cycle
};

} // namespace kolo_sim
#endif
