// kolo_rtl_bits.h - flits and bit fields of Verilator signals.
//
// Verilator gives a port of up to 64 bits as a C integer and a wider one as a
// VlWide<> array of 32-bit words. sig_get/sig_set read and write any field of
// up to 64 bits in either kind, so that one harness works for every torus size
// (8 nodes: 8-bit valid vector; 512 nodes: wide). A flit is 68 bits
// {vc[1:0], head, tail, data[63:0]}; slot k of a bus is bits [k*68 +: 68].
//
// Header-only, C++17. Shared by kolo-sim's RTL back-ends (sw/sim/net_rtl.cpp,
// sw/sim/ni_rtl.cpp) and the Verilator testbenches under tb/, which use it
// from here (shipped code never includes tb/).
#ifndef KOLO_RTL_BITS_H
#define KOLO_RTL_BITS_H

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "kolo_ni_regs.h"  // header flit fields, generated from rtl/regs/kolo_ni_regs.toml

namespace kolo_rtl {

constexpr int kFlitBits = 68;

struct Flit {
    uint64_t data = 0;
    unsigned vc = 0;  // {vnet, class}
    bool head = false;
    bool tail = false;
};

inline uint64_t low_mask(unsigned n) { return n >= 64 ? ~0ull : ((1ull << n) - 1); }

// ---- fields of integer-typed signals (up to 64 bits) ------------------------
template <class T>
inline typename std::enable_if<std::is_arithmetic<T>::value, uint64_t>::type
sig_get(const T &s, unsigned lo, unsigned n) {
    return (static_cast<uint64_t>(s) >> lo) & low_mask(n);
}
template <class T>
inline typename std::enable_if<std::is_arithmetic<T>::value>::type
sig_set(T &s, unsigned lo, unsigned n, uint64_t v) {
    uint64_t m = low_mask(n) << lo;
    uint64_t x = (static_cast<uint64_t>(s) & ~m) | ((v << lo) & m);
    s = static_cast<T>(x);
}
template <class T>
inline typename std::enable_if<std::is_arithmetic<T>::value>::type sig_clear(T &s) {
    s = 0;
}
// word w (32 bits) of a signal, for fast scans of valid vectors
template <class T>
inline typename std::enable_if<std::is_arithmetic<T>::value, uint32_t>::type
sig_word(const T &s, unsigned w) {
    return w >= (sizeof(T) * 8 + 31) / 32 ? 0u : static_cast<uint32_t>(static_cast<uint64_t>(s) >> (32 * w));
}

// ---- fields of wide signals (VlWide<W>: operator[] gives 32-bit words) -------
template <class T>
inline typename std::enable_if<!std::is_arithmetic<T>::value, uint64_t>::type
sig_get(const T &s, unsigned lo, unsigned n) {
    unsigned w = lo / 32, b = lo % 32;
    // gather up to 96 bits starting at word w; fields never run past the signal
    uint64_t v = static_cast<uint64_t>(s[w]) >> b;
    unsigned have = 32 - b;
    if (have < n) {
        v |= static_cast<uint64_t>(s[w + 1]) << have;
        have += 32;
        if (have < n) v |= static_cast<uint64_t>(s[w + 2]) << have;
    }
    return v & low_mask(n);
}
template <class T>
inline typename std::enable_if<!std::is_arithmetic<T>::value>::type
sig_set(T &s, unsigned lo, unsigned n, uint64_t v) {
    v &= low_mask(n);
    while (n > 0) {
        unsigned w = lo / 32, b = lo % 32;
        unsigned take = 32 - b < n ? 32 - b : n;
        uint32_t m = static_cast<uint32_t>(low_mask(take) << b);
        s[w] = (s[w] & ~m) | (static_cast<uint32_t>(v << b) & m);
        v >>= take;
        lo += take;
        n -= take;
    }
}
template <class T>
inline typename std::enable_if<!std::is_arithmetic<T>::value>::type sig_clear(T &s) {
    for (unsigned i = 0; i < sizeof(s) / sizeof(s[0]); i++) s[i] = 0;
}
template <class T>
inline typename std::enable_if<!std::is_arithmetic<T>::value, uint32_t>::type
sig_word(const T &s, unsigned w) {
    return w < sizeof(s) / sizeof(s[0]) ? s[w] : 0u;
}

// ---- flits ------------------------------------------------------------------
template <class T>
inline Flit flit_get(const T &bus, unsigned slot) {
    unsigned lo = slot * kFlitBits;
    Flit f;
    f.data = sig_get(bus, lo, 64);
    unsigned side = static_cast<unsigned>(sig_get(bus, lo + 64, 4));
    f.tail = side & 1;
    f.head = (side >> 1) & 1;
    f.vc = side >> 2;
    return f;
}
template <class T>
inline void flit_set(T &bus, unsigned slot, const Flit &f) {
    unsigned lo = slot * kFlitBits;
    sig_set(bus, lo, 64, f.data);
    sig_set(bus, lo + 64, 4, (f.vc & 3u) << 2 | (f.head ? 2u : 0u) | (f.tail ? 1u : 0u));
}

// ---- header flit fields (generated: sw/include/kolo_ni_regs.h) ---------------
inline unsigned h0_dst(uint64_t h0) { return static_cast<unsigned>(KOLO_H0_DST_GET(h0)); }
inline unsigned h0_src(uint64_t h0) { return static_cast<unsigned>(KOLO_H0_SRC_GET(h0)); }
inline unsigned h0_op(uint64_t h0) { return static_cast<unsigned>(KOLO_H0_OP_GET(h0)); }
inline unsigned h0_vnet(uint64_t h0) { return static_cast<unsigned>(KOLO_H0_VNET_GET(h0)); }
inline unsigned h0_len(uint64_t h0) { return static_cast<unsigned>(KOLO_H0_LEN_GET(h0)); }
inline unsigned h0_ordered(uint64_t h0) { return static_cast<unsigned>(KOLO_H0_ORDERED_GET(h0)); }
inline uint32_t h0_rs(uint64_t h0) { return static_cast<uint32_t>(KOLO_H0_RS_GET(h0)); }
inline uint64_t h0_with_rs(uint64_t h0, uint32_t rs) { return (h0 & ~KOLO_H0_RS_MASK) | KOLO_H0_RS_FIELD(rs); }
inline uint64_t h1_addr(uint64_t h1) { return KOLO_H1_ADDR_GET(h1); }

// fn(i) for every set bit i < nbits of a signal, lowest first
template <class T, class F>
inline void for_each_set_bit(const T &s, unsigned nbits, F fn) {
    for (unsigned w = 0; w * 32 < nbits; w++)
        for (uint32_t bits = sig_word(s, w); bits; bits &= bits - 1) {
            unsigned i = w * 32 + static_cast<unsigned>(__builtin_ctz(bits));
            if (i >= nbits) return;
            fn(i);
        }
}

// ---- monitor of router network output ports ----------------------------------------
// A head flit on (node, port, vc) opens a slot; the next flit there is header
// flit 1, whose address field is the packet id: that is one hop (or, on the
// ports' mon_sunk flags, one packet dropped at a down link).
class Monitor {
  public:
    explicit Monitor(int nodes) : pending_(static_cast<size_t>(nodes) * 6 * 4, 0) {}
    // Returns true and sets *id when this flit completes the hop of a packet.
    bool observe(int node_index, int port, const Flit &f, uint64_t *id) {
        uint8_t &slot = pending_[(static_cast<size_t>(node_index) * 6 + port) * 4 + (f.vc & 3)];
        if (f.head) {
            slot = 1;
            return false;
        }
        if (slot) {
            slot = 0;
            *id = h1_addr(f.data);
            return true;
        }
        return false;
    }
    // heads seen whose header flit 1 is still to come
    size_t open() const {
        size_t n = 0;
        for (uint8_t p : pending_) n += p;
        return n;
    }

  private:
    std::vector<uint8_t> pending_;
};

// kolo_ni's dbg_state, kNiDbgBits per NI on a bus: {tags_free[8:0] (bits 84:76), ...};
// ni_free_tags: NI n's free transaction tags (256, fewer while an NI holds some or
// fills its free list after reset)
constexpr unsigned kNiDbgBits = 85;
template <typename T>
inline unsigned ni_free_tags(const T &dbg, unsigned n) {
    return static_cast<unsigned>(sig_get(dbg, n * kNiDbgBits + 76, 9));
}

}  // namespace kolo_rtl
#endif
