// pcie_link.h - the bandwidth of a node's PCIe link, TLP by TLP, for the NI
// benchmarks (issue 21: message rates "with a PCIe model of Gen3 x16 whose TLP
// overheads are stated and counted", and Gen2 x8 beside the bound it allows).
// RtlWorld (ni_world.h) plays the endpoint's user side; with a link set
// (RtlOpts::pcie, tb_ni --pcie=<name>) each direction of every node's link is
// a byte budget that gains the link's data rate every 250 MHz core cycle (at
// most one cycle's worth is saved while the direction is idle: no bursts
// beyond the wire's rate); a transfer may start while its direction's budget
// is not negative and takes its wire bytes from it. Without a link (the
// default, every test) nothing is gated and nothing changes.
//
// What is counted, per TLP (docs/ni.md "PCIe link model"):
//   - a TLP's overhead on the wire: framing + sequence number + header + LCRC.
//     Gen3: STP token 4 (it carries the sequence number), header 12 or 16, LCRC
//     4 = 20 / 24 bytes (3 / 4-DW header); Gen2: STP 1, sequence 2, header,
//     LCRC 4, END 1 = the same 20 / 24. Host memory and the BARs are taken as
//     above 4 GB: requests carry 4-DW headers (24); completions 3-DW (20).
//   - payloads rounded up to whole DWs.
//   - down (host to device): the host's MMIO writes (one MWr per write the
//     endpoint core hands over: a 64-byte PIO write is one TLP of 64 bytes),
//     MMIO read requests (MRd, no payload), and DMA read completions: the root
//     complex answers on read-completion-boundary (RCB, 64 bytes) aligned
//     pieces, one CplD each (its overhead counted when its first 32-byte beat
//     goes).
//   - up (device to host): DMA read requests (one MRd per MRRS-aligned piece of
//     the read), DMA writes (one MWr per MPS-aligned piece, its overhead
//     counted with its first beat), MMIO read completions, MSIs (1-DW MWr).
//   - not counted: DLLPs (ACK/NAK and flow-control updates, 8 bytes each on
//     the wire, typically one per few TLPs in the other direction), SKP
//     ordered sets (about 0.4 % at Gen3), flow-control credit limits and the
//     root complex's own limits. The measured rate is therefore an upper
//     bound for a real link by those few percent.
// Data rates per direction, in bytes per 4 ns core cycle: Gen2 5 GT/s with
// 8b/10b = 0.5 GB/s per lane; Gen3 8 GT/s with 128b/130b = 0.9846 GB/s.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace pcie_link {

struct Spec {
    const char *name;
    double bytes_per_cycle;  // one direction, 250 MHz core cycles
    unsigned mps, mrrs, rcb; // max payload, max read request, read completion boundary (bytes)
};

constexpr unsigned OH_REQ = 24; // MWr / MRd with a 4-DW header: framing, sequence, header, LCRC
constexpr unsigned OH_CPL = 20; // CplD / Cpl with a 3-DW header

// "none" first: no gating
inline const Spec *specs(size_t *n) {
    static const Spec s[] = {
        {"none", 0.0, 256, 512, 64},
        {"gen2x8", 8 * 0.5 * 4.0, 256, 512, 64},                // 4.0 GB/s: 16 bytes per cycle
        {"gen3x8", 8 * 8.0 * 128.0 / 130.0 / 8.0 * 4.0, 256, 512, 64},  // 7.88 GB/s: 31.5
        {"gen3x16", 16 * 8.0 * 128.0 / 130.0 / 8.0 * 4.0, 256, 512, 64}, // 15.75 GB/s: 63.0
    };
    *n = sizeof s / sizeof s[0];
    return s;
}

// the link called `name`, or nullptr
inline const Spec *find(const std::string &name) {
    size_t n;
    const Spec *s = specs(&n);
    for (size_t i = 0; i < n; i++)
        if (name == s[i].name) return &s[i];
    return nullptr;
}

// wire bytes of a TLP carrying `len` payload bytes from `addr`: the DWs it touches + `oh`
inline unsigned tlp_bytes(uint64_t addr, unsigned len, unsigned oh) {
    return len ? (unsigned)(((addr & 3u) + len + 3u) / 4u * 4u) + oh : oh;
}

// TLPs of a request of `len` bytes at `addr` cut at `piece`-aligned boundaries
inline unsigned pieces(uint64_t addr, unsigned len, unsigned piece) {
    if (!len) return 1;
    return (unsigned)((addr + len - 1) / piece - addr / piece + 1);
}

// wire bytes of beat k (bytes addr + 32k .. of a transfer of `len` bytes at `addr`, cut into
// `piece`-aligned TLPs of overhead `oh`): its payload, and the overhead and DW padding of every
// TLP that starts in it (counted in *tlps)
inline unsigned beat_bytes(uint64_t addr, unsigned len, unsigned k, unsigned piece, unsigned oh,
                           unsigned *tlps) {
    uint64_t end = addr + len, b0 = addr + 32ull * k, b1 = b0 + 32 < end ? b0 + 32 : end;
    unsigned bytes = (unsigned)(b1 - b0);
    uint64_t s = b0 == addr ? addr : (b0 + piece - 1) / piece * piece; // first TLP start >= b0
    for (; s < b1; s = (s / piece + 1) * piece) {
        uint64_t e = (s / piece + 1) * piece < end ? (s / piece + 1) * piece : end;
        bytes += tlp_bytes(s, (unsigned)(e - s), oh) - (unsigned)(e - s);
        (*tlps)++;
    }
    return bytes;
}

enum Dir { DOWN = 0, UP = 1 };

// one node's link
class Link {
  public:
    void set(const Spec *s) { spec_ = s && s->bytes_per_cycle > 0 ? s : nullptr; }
    bool on() const { return spec_ != nullptr; }
    const Spec *spec() const { return spec_; }
    // the TLP sizes counted with (the link's; "none"'s when it is not modelled: bytes and TLPs
    // are counted either way)
    const Spec &params() const {
        size_t n;
        return spec_ ? *spec_ : specs(&n)[0];
    }
    // may a transfer start in this direction now
    bool ready(Dir d) const { return !spec_ || !gate_ || budget_[d] >= 0.0; }
    // planted bug (tb_ni --bug=pcie-nogate): count, never hold back (unit-ni-pcie-link must fail)
    void plant_no_gate() { gate_ = false; }
    // one TLP of `len` payload bytes from `addr` with overhead `oh`
    void tlp(Dir d, uint64_t addr, unsigned len, unsigned oh) {
        tlps_[d]++;
        take(d, tlp_bytes(addr, len, oh));
    }
    // beat k of a transfer cut into `piece`-aligned TLPs (beat_bytes)
    void beat(Dir d, uint64_t addr, unsigned len, unsigned k, unsigned piece, unsigned oh) {
        unsigned n = 0;
        take(d, beat_bytes(addr, len, k, piece, oh, &n));
        tlps_[d] += n;
    }
    // every core cycle
    void tick() {
        if (!spec_) return;
        for (int d = 0; d < 2; d++) {
            budget_[d] += spec_->bytes_per_cycle;
            if (budget_[d] > spec_->bytes_per_cycle) budget_[d] = spec_->bytes_per_cycle;
        }
    }
    uint64_t bytes(Dir d) const { return bytes_[d]; }
    uint64_t tlps(Dir d) const { return tlps_[d]; }

  private:
    void take(Dir d, unsigned bytes) {
        bytes_[d] += bytes;
        if (spec_) budget_[d] -= bytes;
    }
    const Spec *spec_ = nullptr;
    bool gate_ = true;
    double budget_[2] = {0.0, 0.0};
    uint64_t bytes_[2] = {0, 0}, tlps_[2] = {0, 0};
};

} // namespace pcie_link
