// route_enum.cpp - proof 1b: exhaustive enumeration of the routing function,
// the RTL (kolo_route_compute, Verilated) and the Verilog reference functions
// of the formal proofs (kolo_route_spec.vh) against sw/route's C.
//
// A. Every one of the 2^23 route states (legal or not, every torus):
//    RTL det_port == kolo_route_det_port; RTL adaptive_mask ==
//    kolo_route_adaptive_mask & cfg_port_en for the eight port sets a torus
//    can enable (both ports of each dimension of more than one node) and for
//    all 64; spec_det_port, spec_adaptive_mask and spec_advance (ports 0..7)
//    equal the C. (route_miter proves the RTL equal to the spec for all
//    inputs with SAT; this grounds the spec, and checks the RTL directly.)
// B. Per torus size (--dims, or the default list):
//    B1 every legal route state (hops below the ring size, first/last step
//       none or a present port, every sign) from node 0: the RTL route
//       compute, run hop by hop at each node the packet reaches with the
//       header's destination set to the end of the C path, gives the C
//       path's ports and never drops the packet; and with --all-states every
//       route state with hops up to 15 and steps through any port 0..7: the
//       RTL drops the packet at some hop exactly when kolo_route_path refuses
//       the route state. (route_miter's lemmas: the RTL's port, mask and
//       route check do not depend on the node or destination, so node 0
//       stands for every node; the destination check is B2.)
//    B2 every node, every destination id (inside the torus or not), with and
//       without ejection here: err_dst == outside the torus, or ejecting here
//       but not for this node (kolo_node_in_topo).
// C. Framing checks: every payload length, tail bit, vnet and VC bit:
//    err_len == len > KOLO_MAX_PAYLOAD or a one-flit packet; err_vc == vnet
//    differs from the VC's.
// --plant: a difference planted in the C side (kolo_route_det_port of one
// route state out of 2^23) must be found and reported: the run then fails.
// Prints the count of cases of each part; exit 0 only if all agree.
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Vroute_enum_top.h"
#include "kolo_route.h"
#include "verilated.h"

static Vroute_enum_top *top;
static bool plant = false;
static uint64_t mismatches = 0;

static const uint32_t PLANT_RS = (3u << 11) | 4u;  // 3 hops -Z

static int c_det(uint32_t rs) {
    int p = kolo_route_det_port(rs);
    if (plant && rs == PLANT_RS) p = KOLO_PORT_YM;
    return p;
}

static void mismatch(const char *what, uint32_t rs, unsigned a, unsigned b, const char *extra = "") {
    if (++mismatches <= 20)
        std::printf("MISMATCH %s: route state 0x%06x: RTL/spec %u, C %u %s\n", what, rs, a, b, extra);
}

static uint64_t set_rs(uint32_t rs, uint64_t rest) { return rest | (uint64_t)rs << 36; }

static void drive(uint16_t node, const kolo_topo &t, unsigned en, uint32_t rs, uint16_t dst,
                  unsigned len, unsigned tail, unsigned vnet, unsigned vcb) {
    top->cfg_node_id = node;
    top->cfg_dim_m1 = (uint16_t)((t.size[0] - 1) | (t.size[1] - 1) << 4 | (t.size[2] - 1) << 8);
    top->cfg_port_en = en;
    uint64_t lo = set_rs(rs, (uint64_t)dst | (uint64_t)vnet << 28 | (uint64_t)len << 29);
    top->flit[0] = (uint32_t)lo;
    top->flit[1] = (uint32_t)(lo >> 32);
    top->flit[2] = tail | 1u << 1 | (vcb << 3);  // bit 64 tail, 65 head, 67:66 vc = {vcb, 0}
    top->eval();
}

static unsigned present_mask(const kolo_topo &t) {
    unsigned m = 0;
    for (int p = 0; p < 6; p++)
        if (kolo_port_present(&t, p)) m |= 1u << p;
    return m;
}

// ---- A ------------------------------------------------------------------------
static uint64_t part_a(bool all_en) {
    static const kolo_topo one = {{1, 1, 1}};
    uint64_t cases = 0;
    std::vector<unsigned> ens;
    if (all_en) {
        for (unsigned e = 0; e < 64; e++) ens.push_back(e);
    } else {
        for (unsigned dm = 0; dm < 8; dm++) ens.push_back((dm & 1 ? 3u : 0u) | (dm & 2 ? 12u : 0u) | (dm & 4 ? 48u : 0u));
    }
    for (uint32_t rs = 0; rs < (1u << 23); rs++) {
        unsigned cmask = kolo_route_adaptive_mask(rs);
        int cdet = c_det(rs);
        for (size_t k = 0; k < ens.size(); k++) {
            drive(0, one, ens[k], rs, 0, 0, 0, 0, 0);
            if (k == 0) {
                if (top->det_port != (unsigned)cdet) mismatch("RTL det_port", rs, top->det_port, cdet);
                if (top->spec_det != (unsigned)cdet) mismatch("spec_det_port", rs, top->spec_det, cdet);
                if (top->spec_mask != cmask) mismatch("spec_adaptive_mask", rs, top->spec_mask, cmask);
                cases += 3;
            }
            if (top->adaptive_mask != (cmask & ens[k])) {
                char b[32];
                std::snprintf(b, sizeof b, "(ports enabled 0x%02x)", ens[k]);
                mismatch("RTL adaptive_mask", rs, top->adaptive_mask, cmask & ens[k], b);
            }
            cases++;
        }
        for (unsigned p = 0; p < 8; p++) {
            top->port = p;
            top->eval();
            uint32_t cnext = kolo_route_advance(rs, (int)p);
            if (top->spec_next != cnext) {
                char b[32];
                std::snprintf(b, sizeof b, "(port %u)", p);
                mismatch("spec_advance", rs, top->spec_next, cnext, b);
            }
            cases++;
        }
        top->port = 0;
    }
    return cases;
}

// ---- B ------------------------------------------------------------------------
struct Walk {
    bool dropped;
    int ports[64];
    int n;
    uint16_t end;
};

// the RTL route compute hop by hop; the route state advances by spec_advance
// (part A: equal to kolo_route_advance for every state and port)
static Walk rtl_walk(const kolo_topo &t, unsigned en, uint16_t src, uint32_t rs, uint16_t dst) {
    Walk w{};
    uint16_t node = src;
    for (int h = 0; h < 60; h++) {
        drive(node, t, en, rs, dst, 2, 0, 0, 0);
        if (top->err_route || top->err_dst || top->err_len || top->err_vc) {
            w.dropped = true;
            return w;
        }
        int p = top->det_port;
        w.ports[w.n++] = p;
        if (p == KOLO_PORT_LOCAL) {
            w.end = node;
            return w;
        }
        top->port = (unsigned)p;
        top->eval();
        rs = top->spec_next;
        node = kolo_neighbor(&t, node, p);
    }
    w.dropped = true;  // never ends: the router bounds hops by the counts, so not reached
    return w;
}

static bool legal_port(const kolo_topo &t, int p) { return kolo_port_present(&t, p); }

static uint64_t part_b1(const kolo_topo &t, bool all_states, uint64_t *refused) {
    unsigned en = present_mask(t);
    uint64_t cases = 0;
    unsigned hmax[3];
    for (int d = 0; d < 3; d++) hmax[d] = all_states ? 15 : t.size[d] - 1u;
    kolo_hop hops[KOLO_PATH_MAX];
    for (int fs = -1; fs < 8; fs++) {
        if (!all_states && fs >= 0 && !legal_port(t, fs)) continue;
        for (int ls = -1; ls < 8; ls++) {
            if (!all_states && ls >= 0 && !legal_port(t, ls)) continue;
            for (unsigned sg = 0; sg < 8; sg++)
                for (unsigned hx = 0; hx <= hmax[0]; hx++)
                    for (unsigned hy = 0; hy <= hmax[1]; hy++)
                        for (unsigned hz = 0; hz <= hmax[2]; hz++) {
                            uint32_t rs = sg | hx << 3 | hy << 7 | hz << 11;
                            if (fs >= 0) rs |= KOLO_RS_FS_VALID | (uint32_t)fs << KOLO_RS_FS_PORT_SHIFT;
                            if (ls >= 0) rs |= KOLO_RS_LS_VALID | (uint32_t)ls << KOLO_RS_LS_PORT_SHIFT;
                            int n = kolo_route_path(&t, 0, rs, hops, KOLO_PATH_MAX);
                            uint16_t dst = n > 0 ? hops[n - 1].node : 0;
                            Walk w = rtl_walk(t, en, 0, rs, dst);
                            cases++;
                            if (n < 0) {
                                (*refused)++;
                                if (!w.dropped)
                                    mismatch("B1 the RTL forwards a route state the C refuses", rs, 0,
                                             (unsigned)-n);
                                continue;
                            }
                            if (w.dropped) {
                                mismatch("B1 the RTL drops a route state the C accepts", rs, 1, 0);
                                continue;
                            }
                            bool same = w.n == n;
                            for (int k = 0; same && k < n; k++) same = w.ports[k] == hops[k].port;
                            if (!same) mismatch("B1 path ports differ", rs, (unsigned)w.n, (unsigned)n);
                        }
        }
    }
    return cases;
}

static uint64_t part_b2(const kolo_topo &t) {
    unsigned nodes = kolo_topo_nodes(&t), en = present_mask(t);
    uint64_t cases = 0;
    // route states: ejection here (0), and one hop +X or whatever exists (not local)
    uint32_t rs_local = 0, rs_on = KOLO_RS_FS_VALID;  // first step through X+ (port 0)
    for (unsigned i = 0; i < nodes; i++) {
        uint16_t node = kolo_node_id_of_index(&t, i);
        for (unsigned dst = 0; dst < 4096; dst++) {
            for (int local = 0; local < 2; local++) {
                drive(node, t, en, local ? rs_local : rs_on, (uint16_t)dst, 2, 0, 0, 0);
                bool want = !kolo_node_in_topo(&t, (uint16_t)dst) || (local && dst != node);
                if ((bool)top->err_dst != want) {
                    char b[64];
                    std::snprintf(b, sizeof b, "(node 0x%03x dst 0x%03x%s)", node, dst, local ? " eject" : "");
                    mismatch("B2 err_dst", local ? rs_local : rs_on, top->err_dst, want, b);
                }
                cases++;
            }
        }
    }
    return cases;
}

static uint64_t part_c() {
    static const kolo_topo one = {{1, 1, 1}};
    uint64_t cases = 0;
    for (unsigned len = 0; len < 64; len++)
        for (unsigned tail = 0; tail < 2; tail++)
            for (unsigned vnet = 0; vnet < 2; vnet++)
                for (unsigned vcb = 0; vcb < 2; vcb++) {
                    drive(0, one, 0, 0, 0, len, tail, vnet, vcb);
                    bool want_len = len > KOLO_MAX_PAYLOAD || tail;
                    bool want_vc = vnet != vcb;
                    if ((bool)top->err_len != want_len) mismatch("C err_len", 0, top->err_len, want_len);
                    if ((bool)top->err_vc != want_vc) mismatch("C err_vc", 0, top->err_vc, want_vc);
                    cases++;
                }
    return cases;
}

static bool parse_dims(const char *s, kolo_topo *t) {
    unsigned x, y, z;
    if (std::sscanf(s, "%ux%ux%u", &x, &y, &z) != 3) return false;
    t->size[0] = (uint8_t)x, t->size[1] = (uint8_t)y, t->size[2] = (uint8_t)z;
    return kolo_topo_valid(t);
}

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    bool all_en = false, all_states = false, skip_a = false;
    std::vector<kolo_topo> topos;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--plant")) plant = true;
        else if (!std::strcmp(argv[i], "--all-en")) all_en = true;
        else if (!std::strcmp(argv[i], "--all-states")) all_states = true;
        else if (!std::strcmp(argv[i], "--no-a")) skip_a = true;
        else if (!std::strncmp(argv[i], "--dims=", 7)) {
            kolo_topo t;
            if (!parse_dims(argv[i] + 7, &t)) {
                std::fprintf(stderr, "route_enum: bad --dims %s\n", argv[i] + 7);
                return 2;
            }
            topos.push_back(t);
        } else if (argv[i][0] != '+') {
            std::fprintf(stderr,
                         "usage: route_enum [--dims=XxYxZ]... [--all-states] [--all-en] [--no-a] [--plant]\n");
            return 2;
        }
    }
    if (topos.empty())
        for (const char *d : {"1x1x1", "1x1x2", "2x2x2", "3x3x3", "4x4x4", "16x1x1", "16x16x16"}) {
            kolo_topo t;
            parse_dims(d, &t);
            topos.push_back(t);
        }
    top = new Vroute_enum_top;
    auto t0 = std::chrono::steady_clock::now();
    auto secs = [&]() {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    };
    if (!skip_a) {
        uint64_t n = part_a(all_en);
        std::printf("A  every route state (2^23), %s port sets: %" PRIu64 " cases (%.1f s)\n",
                    all_en ? "all 64" : "the 8 torus", n, secs());
    }
    for (const kolo_topo &t : topos) {
        uint64_t refused = 0;
        uint64_t n1 = part_b1(t, all_states, &refused);
        uint64_t n2 = part_b2(t);
        std::printf("B  %ux%ux%u: %" PRIu64 " %s route states walked from node 0 (%" PRIu64
                    " refused by the C, dropped by the RTL), %" PRIu64 " (node, destination) cases (%.1f s)\n",
                    t.size[0], t.size[1], t.size[2], n1, all_states ? "" : "legal", refused, n2, secs());
    }
    uint64_t nc = part_c();
    std::printf("C  framing: %" PRIu64 " cases\n", nc);
    delete top;
    if (mismatches) {
        std::printf("route_enum: FAIL, %" PRIu64 " mismatches%s\n", mismatches,
                    plant ? " (a difference was planted: this is the expected outcome)" : "");
        return 1;
    }
    std::printf("route_enum: PASS, the RTL and the reference functions equal sw/route\n");
    return 0;
}
