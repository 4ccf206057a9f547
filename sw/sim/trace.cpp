// trace.cpp - VCD writer of kolo-sim (see trace.h).
#include "trace.h"

#include <cerrno>
#include <cstring>

namespace kolo_sim {

VcdTrace::~VcdTrace() { close(); }

int VcdTrace::add(const std::string &scope, const std::string &name, unsigned width) {
    Sig s;
    s.scope = scope;
    s.name = name;
    s.width = width;
    // identifier codes: printable ASCII 33..126, base 94
    unsigned n = static_cast<unsigned>(sig_.size());
    do {
        s.code += static_cast<char>(33 + n % 94);
        n /= 94;
    } while (n);
    sig_.push_back(s);
    cur_.push_back(0);
    last_.push_back(0);
    return static_cast<int>(sig_.size() - 1);
}

bool VcdTrace::open(const std::string &path, unsigned ps_per_cycle, std::string *err) {
    if (ps_per_cycle == 0) {
        *err = "--trace: a core cycle of 0 ps";
        return false;
    }
    f_ = std::fopen(path.c_str(), "w");
    if (!f_) {
        *err = "--trace " + path + ": " + std::strerror(errno);
        return false;
    }
    bool whole_ns = ps_per_cycle % 1000 == 0;
    units_per_cycle_ = whole_ns ? ps_per_cycle / 1000 : ps_per_cycle;
    std::fprintf(f_, "$date\n  kolo-sim\n$end\n$version\n  kolo-sim fault trace\n$end\n");
    std::fprintf(f_, "$timescale\n  1%s\n$end\n", whole_ns ? "ns" : "ps");
    std::fprintf(f_, "$scope module kolo $end\n");
    std::string open_scope;
    for (const Sig &s : sig_) {
        if (s.scope != open_scope) {
            if (!open_scope.empty())
                std::fprintf(f_, "$upscope $end\n");
            if (!s.scope.empty())
                std::fprintf(f_, "$scope module %s $end\n", s.scope.c_str());
            open_scope = s.scope;
        }
        std::fprintf(f_, "$var wire %u %s %s $end\n", s.width, s.code.c_str(), s.name.c_str());
    }
    if (!open_scope.empty())
        std::fprintf(f_, "$upscope $end\n");
    std::fprintf(f_, "$upscope $end\n$enddefinitions $end\n");
    return true;
}

void VcdTrace::commit(uint64_t cycle) {
    if (!f_)
        return;
    bool stamped = false;
    for (size_t i = 0; i < sig_.size(); i++) {
        if (!first_ && cur_[i] == last_[i])
            continue;
        if (!stamped) {
            std::fprintf(f_, "#%llu\n", static_cast<unsigned long long>(cycle * units_per_cycle_));
            stamped = true;
        }
        const Sig &s = sig_[i];
        uint64_t v = cur_[i];
        if (s.width == 1) {
            std::fprintf(f_, "%c%s\n", (v & 1) ? '1' : '0', s.code.c_str());
        } else {
            char b[70];
            int k = 0;
            for (int bit = static_cast<int>(s.width) - 1; bit >= 0; bit--)
                b[k++] = (v >> bit) & 1 ? '1' : '0';
            b[k] = 0;
            std::fprintf(f_, "b%s %s\n", b, s.code.c_str());
        }
        last_[i] = v;
    }
    first_ = false;
}

void VcdTrace::close() {
    if (f_)
        std::fclose(f_);
    f_ = nullptr;
}

} // namespace kolo_sim
