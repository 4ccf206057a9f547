// kolo_tb_traffic.h - traffic patterns, packet construction and the link
// monitor of the kolo network testbenches.
//
// Patterns choose a destination node index for a source index:
//   uniform    any other node, uniformly
//   transpose  (x,y,z) -> (y,z,x), coordinates taken modulo each ring size;
//              a node that maps onto itself sends nothing under this pattern
//   bitcomp    (x,y,z) -> (X-1-x, Y-1-y, Z-1-z) (bit complement on 2^k rings)
//   hotspot    one node (the middle of the torus, --hotspot-node) with
//              probability --hotspot-frac, otherwise uniform
//   neighbor   one of the node's nearest neighbours, uniformly
// A traffic mix is "name[:weight],..." and picks a pattern per packet.
// Packets: ids are unique 48-bit numbers carried in header flit 1's address
// field (where kolo_model finds them); payload words are a hash of the id.
#ifndef KOLO_TB_TRAFFIC_H
#define KOLO_TB_TRAFFIC_H

#include <cstdint>
#include <string>
#include <vector>

#include "kolo_model.h"
#include "kolo_route.h"
#include "kolo_rtl_bits.h"
#include "kolo_tb_endpoint.h"
#include "kolo_tb_util.h"

namespace kolo_tb {

// ---- topology ------------------------------------------------------------------
struct Topo {
    kolo_topo t{};
    int n = 0;
    int size[3] = {1, 1, 1};
    std::vector<uint16_t> id;  // node index -> node id
    Topo(int x, int y, int z) {
        t.size[0] = static_cast<uint8_t>(x);
        t.size[1] = static_cast<uint8_t>(y);
        t.size[2] = static_cast<uint8_t>(z);
        size[0] = x;
        size[1] = y;
        size[2] = z;
        n = x * y * z;
        for (int i = 0; i < n; i++) id.push_back(static_cast<uint16_t>(((i / (x * y)) << 8) | (((i / x) % y) << 4) | (i % x)));
    }
    int coord(int index, int d) const {
        return d == 0 ? index % size[0] : d == 1 ? (index / size[0]) % size[1] : index / (size[0] * size[1]);
    }
    int index_of(int x, int y, int z) const { return x + size[0] * (y + size[1] * z); }
    int index_of_id(uint16_t node_id) const {
        return index_of(node_id & 15, (node_id >> 4) & 15, (node_id >> 8) & 15);
    }
    bool port_present(int p) const { return size[p >> 1] > 1; }
    std::string name(int index) const {
        char b[32];
        std::snprintf(b, sizeof b, "(%d,%d,%d)", coord(index, 0), coord(index, 1), coord(index, 2));
        return b;
    }
    std::string dims() const {
        return std::to_string(size[0]) + "x" + std::to_string(size[1]) + "x" + std::to_string(size[2]);
    }
};

inline const char *port_name(int p) {
    static const char *names[] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-", "L"};
    return p >= 0 && p < 7 ? names[p] : "?";
}

// ---- patterns -------------------------------------------------------------------
enum class Pattern { Uniform, Transpose, Bitcomp, Hotspot, Neighbor };

inline bool pattern_from_name(const std::string &s, Pattern *p) {
    if (s == "uniform") *p = Pattern::Uniform;
    else if (s == "transpose") *p = Pattern::Transpose;
    else if (s == "bitcomp") *p = Pattern::Bitcomp;
    else if (s == "hotspot") *p = Pattern::Hotspot;
    else if (s == "neighbor" || s == "neighbour") *p = Pattern::Neighbor;
    else return false;
    return true;
}
inline const char *pattern_name(Pattern p) {
    switch (p) {
    case Pattern::Uniform: return "uniform";
    case Pattern::Transpose: return "transpose";
    case Pattern::Bitcomp: return "bitcomp";
    case Pattern::Hotspot: return "hotspot";
    case Pattern::Neighbor: return "neighbor";
    }
    return "?";
}

class Traffic {
  public:
    Traffic(const Topo &topo) : topo_(topo) {
        hotspot_ = topo.index_of(topo.size[0] / 2, topo.size[1] / 2, topo.size[2] / 2);
    }
    // "uniform:2,hotspot:1" ; returns false with a message on junk
    bool set_mix(const std::string &spec, std::string *err) {
        mix_.clear();
        for (const auto &part : split(spec, ',')) {
            auto kv = split(part, ':');
            Pattern p;
            if (!pattern_from_name(kv[0], &p)) {
                *err = "unknown pattern '" + kv[0] + "' (uniform, transpose, bitcomp, hotspot, neighbor)";
                return false;
            }
            double w = kv.size() > 1 ? std::atof(kv[1].c_str()) : 1.0;
            if (w <= 0) {
                *err = "bad weight in '" + part + "'";
                return false;
            }
            mix_.push_back({p, w});
        }
        return !mix_.empty();
    }
    void set_hotspot(int index, double frac) {
        hotspot_ = index;
        hotspot_frac_ = frac;
    }
    int hotspot() const { return hotspot_; }
    std::string describe() const {
        std::string s;
        for (const auto &m : mix_) {
            if (!s.empty()) s += ",";
            char b[64];
            std::snprintf(b, sizeof b, "%s:%g", pattern_name(m.p), m.w);
            s += b;
        }
        return s;
    }
    // destination index for a packet from src, or -1 (nothing to send this time)
    int pick(int src, Rng &rng, Pattern *used = nullptr) const {
        double total = 0;
        for (const auto &m : mix_) total += m.w;
        double r = rng.uniform() * total;
        Pattern p = mix_.back().p;
        for (const auto &m : mix_) {
            if (r < m.w) {
                p = m.p;
                break;
            }
            r -= m.w;
        }
        if (used) *used = p;
        return dest(p, src, rng);
    }
    int dest(Pattern p, int src, Rng &rng) const {
        const Topo &t = topo_;
        if (t.n < 2) return -1;
        int x = t.coord(src, 0), y = t.coord(src, 1), z = t.coord(src, 2);
        int d = -1;
        switch (p) {
        case Pattern::Uniform: d = uniform_other(src, rng); break;
        case Pattern::Transpose: d = t.index_of(y % t.size[0], z % t.size[1], x % t.size[2]); break;
        case Pattern::Bitcomp: d = t.index_of(t.size[0] - 1 - x, t.size[1] - 1 - y, t.size[2] - 1 - z); break;
        case Pattern::Hotspot:
            d = rng.chance(hotspot_frac_) ? hotspot_ : uniform_other(src, rng);
            break;
        case Pattern::Neighbor: {
            int ports[6], np = 0;
            for (int q = 0; q < 6; q++)
                if (t.port_present(q)) ports[np++] = q;
            if (np == 0) return -1;
            int q = ports[rng.below(static_cast<uint64_t>(np))];
            int c[3] = {x, y, z}, dim = q >> 1;
            c[dim] = (q & 1) ? (c[dim] + t.size[dim] - 1) % t.size[dim] : (c[dim] + 1) % t.size[dim];
            d = t.index_of(c[0], c[1], c[2]);
            break;
        }
        }
        return d == src ? -1 : d;
    }

  private:
    int uniform_other(int src, Rng &rng) const {
        int d = static_cast<int>(rng.below(static_cast<uint64_t>(topo_.n - 1)));
        return d >= src ? d + 1 : d;
    }
    struct Entry {
        Pattern p;
        double w;
    };
    const Topo &topo_;
    std::vector<Entry> mix_;
    int hotspot_ = 0;
    double hotspot_frac_ = 0.25;
};

// ---- packet lengths: "lo-hi" (uniform) or "a,b,c" (one of) ------------------------
class LengthDist {
  public:
    bool parse(const std::string &s, std::string *err) {
        v_.clear();
        size_t dash = s.find('-');
        if (dash != std::string::npos && s.find(',') == std::string::npos) {
            int lo = std::atoi(s.substr(0, dash).c_str()), hi = std::atoi(s.substr(dash + 1).c_str());
            if (lo < 0 || hi > KOLO_MAX_PAYLOAD || lo > hi) {
                *err = "bad length range '" + s + "' (payload flits 0..32)";
                return false;
            }
            for (int i = lo; i <= hi; i++) v_.push_back(i);
        } else {
            for (const auto &p : split(s, ',')) {
                int l = std::atoi(p.c_str());
                if (p.empty() || l < 0 || l > KOLO_MAX_PAYLOAD) {
                    *err = "bad length '" + p + "' (payload flits 0..32)";
                    return false;
                }
                v_.push_back(l);
            }
        }
        return !v_.empty();
    }
    int pick(Rng &rng) const { return v_[rng.below(v_.size())]; }
    double mean_flits() const {  // with both header flits
        double s = 0;
        for (int l : v_) s += l + 2;
        return s / static_cast<double>(v_.size());
    }

  private:
    std::vector<int> v_;
};

inline uint64_t payload_word(uint64_t id, int i) { return mix64(id * 0x100000001b3ull + static_cast<uint64_t>(i) + 1); }

// Build a packet the way an NI does (headers from the model's routing tables),
// register it with the model, and turn it into flits. Returns a KOLO_* code.
inline int make_packet(kolo_model *m, uint64_t id, uint16_t src, uint16_t dst, int vnet, bool ordered, int op,
                       int len, Rng &rng, TxPacket *out) {
    kolo_pkt p{};
    p.id = id;
    p.src = src;
    p.dst = dst;
    p.vnet = static_cast<uint8_t>(vnet);
    p.ordered = ordered ? 1 : 0;
    p.op = static_cast<uint8_t>(op);
    p.len = static_cast<uint8_t>(len);
    int rc = kolo_model_make_header(m, &p, id & KOLO_MODEL_ID_MASK, static_cast<uint8_t>(rng.below(256)),
                                    static_cast<uint8_t>(rng.below(256)));
    if (rc != KOLO_OK) return rc;
    for (int i = 0; i < len; i++) p.payload[i] = payload_word(id, i);
    rc = kolo_model_inject(m, &p);
    if (rc != KOLO_OK) return rc;
    out->id = id;
    out->flits.clear();
    unsigned vc = static_cast<unsigned>(vnet) * 2 + (ordered ? 0 : 1);
    for (int i = 0; i < len + 2; i++) {
        kolo_rtl::Flit f;
        f.data = i < 2 ? p.header[i] : p.payload[i - 2];
        f.vc = vc;
        f.head = i == 0;
        f.tail = i == len + 1;
        out->flits.push_back(f);
    }
    return KOLO_OK;
}

}  // namespace kolo_tb
#endif
