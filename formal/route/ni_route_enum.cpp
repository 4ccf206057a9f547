// ni_route_enum.cpp - proof 1c: the NI's route-state generation equals
// sw/route, by exhaustive simulation of every index and node id.
//
// The NI takes a packet's route state (header flit 0 bits 58:36) from bits
// 22:0 of the routing-table entry of its destination, looked up by node id
// either in its own table (kolo_ni_route, written by the host through BAR0 by
// node index) or in the service block's (kolo_svc_rt, written by the firmware
// by node index). sw/route defines the mapping between the two numberings
// (kolo_node_index, kolo_node_id_of_index, kolo_node_in_topo). Per torus size:
//   kolo_ni_route: every index 0..4095 written through MMIO with a distinct
//     entry (some with bit 31 clear); mm_in == index < nodes; every index read
//     back (0 outside the torus); then every node id 0..4095 looked up:
//     lk_entry == the entry written at kolo_node_index(id) for ids in the
//     torus, lk_ok == in the torus and bit 31 set.
//   kolo_svc_rt: entries == nodes after the straps settle; every index of the
//     shadow written, the banks switched, then every id looked up:
//     rt_lk_entry == the entry at kolo_node_index(id) in the torus, 0 outside;
//     the new shadow holds a copy of the active bank's first `nodes` entries.
// Default sizes: 1x1x1 1x1x2 2x2x2 3x3x3 4x4x4 16x1x1 16x16x16; --every-size:
// all 4096 (1..16 per dimension). --plant: the C side maps one node id of
// each torus with more than one node to the wrong index: must be reported.
// Prints the count of cases; exit 0 only if all agree.
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "Vni_route_enum_top.h"
#include "kolo_route.h"
#include "verilated.h"

static Vni_route_enum_top *top;
static uint64_t mismatches = 0, cycles = 0;
static bool plant = false;

static void tick() {
    top->clk = 0;
    top->eval();
    top->clk = 1;
    top->eval();
    cycles++;
}

static void mismatch(const char *what, const kolo_topo &t, unsigned a, uint32_t got, uint32_t want) {
    if (++mismatches <= 20)
        std::printf("MISMATCH %s: %ux%ux%u, index/id 0x%03x: RTL 0x%08x, sw/route 0x%08x\n", what, t.size[0],
                    t.size[1], t.size[2], a, got, want);
}

// the entry written at index i (distinct per index; bit 31 clear for every fifth)
static uint32_t entry_of(unsigned i) { return (i % 5 == 0 ? 0u : 0x80000000u) | ((i * 2654435761u) & 0x7fffffu); }
static uint32_t entry2_of(unsigned i) { return 0x80000000u | (((i + 17u) * 40503u) & 0x7fffffu); }

static unsigned c_index(const kolo_topo &t, uint16_t id) {
    unsigned i = kolo_node_index(&t, id);
    if (plant && kolo_topo_nodes(&t) > 1 && id == kolo_node_id_of_index(&t, 1)) i = 0;
    return i;
}

static uint64_t ni_route(const kolo_topo &t, unsigned dims) {
    unsigned nodes = kolo_topo_nodes(&t);
    uint64_t cases = 0;
    top->cfg_dim_m1 = dims;
    top->rst = 1;
    for (int k = 0; k < 4; k++) tick();
    top->rst = 0;
    tick();
    // MMIO writes, then reads, of every index
    for (int pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < 4096; i++) {
            top->mm_req = 1;
            top->mm_we = pass == 0;
            top->mm_idx = i;
            top->mm_wdata = entry_of(i);
            int n = 0;
            do {
                tick();
            } while (!top->mm_done && ++n < 200);
            if (!top->mm_done) {
                mismatch("kolo_ni_route: MMIO never done", t, i, 0, 1);
                return cases;
            }
            bool in = i < nodes;
            if ((bool)top->mm_in != in) mismatch("kolo_ni_route mm_in", t, i, top->mm_in, in);
            if (pass == 1 && top->mm_rdata != (in ? entry_of(i) : 0u))
                mismatch("kolo_ni_route MMIO read", t, i, top->mm_rdata, in ? entry_of(i) : 0u);
            cases++;
            top->mm_req = 0;
            tick();
        }
    // lookups of every node id (requester 1: the send side)
    for (unsigned id = 0; id < 4096; id++) {
        top->lk_req = 2;
        top->lk_id = (uint64_t)id << 12;
        top->eval();
        int n = 0;
        while (!(top->lk_gnt & 2) && ++n < 10) tick();
        tick();  // granted in this cycle: the answer is valid the next
        top->lk_req = 0;
        top->eval();
        if (!(top->lk_rvalid & 2)) {
            mismatch("kolo_ni_route: no answer to a lookup", t, id, top->lk_rvalid, 2);
            continue;
        }
        bool in = kolo_node_in_topo(&t, (uint16_t)id);
        uint32_t want = in ? entry_of(c_index(t, (uint16_t)id)) : 0;
        if (in && top->lk_entry != want) mismatch("kolo_ni_route lk_entry", t, id, top->lk_entry, want);
        bool ok = in && (want >> 31);
        if ((bool)top->lk_ok != ok) mismatch("kolo_ni_route lk_ok", t, id, top->lk_ok, ok);
        cases++;
    }
    return cases;
}

static uint64_t svc_rt(const kolo_topo &t, unsigned dims) {
    unsigned nodes = kolo_topo_nodes(&t);
    uint64_t cases = 0;
    top->cfg_dim_m1 = dims;
    top->rst = 1;
    for (int k = 0; k < 50; k++) tick();  // the straps' tables settle within 40 cycles
    top->rst = 0;
    tick();
    if (top->rt_entries != nodes) mismatch("kolo_svc_rt entries", t, 0, top->rt_entries, nodes);
    for (unsigned i = 0; i < 4096; i++) {
        top->sh_en = 1;
        top->sh_we = 1;
        top->sh_idx = i;
        top->sh_wdata = entry2_of(i);
        tick();
    }
    top->sh_en = 0;
    top->sh_we = 0;
    top->epoch_we = 1;
    tick();
    top->epoch_we = 0;
    for (int n = 0; n < 5000 && (top->rt_copying || n < 2); n++) tick();
    for (unsigned id = 0; id < 4096; id++) {
        top->rt_lk_valid = 1;
        top->rt_lk_id = id;
        tick();
        top->rt_lk_valid = 0;
        top->eval();
        bool in = kolo_node_in_topo(&t, (uint16_t)id);
        uint32_t want = in ? entry2_of(c_index(t, (uint16_t)id)) : 0;
        if (top->rt_lk_entry != want) mismatch("kolo_svc_rt rt_lk_entry", t, id, top->rt_lk_entry, want);
        cases++;
    }
    // the copy: the new shadow holds the active bank's entries below `nodes`
    for (unsigned i = 0; i < nodes; i++) {
        top->sh_en = 1;
        top->sh_idx = i;
        tick();
        top->sh_en = 0;
        top->eval();
        if (top->sh_rdata != entry2_of(i)) mismatch("kolo_svc_rt copy to the shadow", t, i, top->sh_rdata, entry2_of(i));
        cases++;
    }
    return cases;
}

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    std::vector<kolo_topo> topos;
    bool every = false;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--plant")) plant = true;
        else if (!std::strcmp(argv[i], "--every-size")) every = true;
        else if (argv[i][0] != '+') {
            std::fprintf(stderr, "usage: ni_route_enum [--every-size] [--plant]\n");
            return 2;
        }
    }
    if (every) {
        for (unsigned z = 1; z <= 16; z++)
            for (unsigned y = 1; y <= 16; y++)
                for (unsigned x = 1; x <= 16; x++) topos.push_back(kolo_topo{{(uint8_t)x, (uint8_t)y, (uint8_t)z}});
    } else {
        static const unsigned list[][3] = {{1, 1, 1}, {1, 1, 2}, {2, 2, 2}, {3, 3, 3}, {4, 4, 4}, {16, 1, 1}, {16, 16, 16}};
        for (auto &d : list) topos.push_back(kolo_topo{{(uint8_t)d[0], (uint8_t)d[1], (uint8_t)d[2]}});
    }
    top = new Vni_route_enum_top;
    auto t0 = std::chrono::steady_clock::now();
    uint64_t total_ni = 0, total_rt = 0;
    for (const kolo_topo &t : topos) {
        unsigned dims = (t.size[0] - 1u) | (t.size[1] - 1u) << 4 | (t.size[2] - 1u) << 8;
        uint64_t a = ni_route(t, dims), b = svc_rt(t, dims);
        total_ni += a;
        total_rt += b;
        if (!every)
            std::printf("%ux%ux%u: kolo_ni_route %" PRIu64 " cases, kolo_svc_rt %" PRIu64 " cases\n", t.size[0],
                        t.size[1], t.size[2], a, b);
    }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%zu torus sizes: kolo_ni_route %" PRIu64 " cases, kolo_svc_rt %" PRIu64 " cases, %" PRIu64
                " cycles (%.1f s)\n",
                topos.size(), total_ni, total_rt, cycles, s);
    delete top;
    if (mismatches) {
        std::printf("ni_route_enum: FAIL, %" PRIu64 " mismatches%s\n", mismatches,
                    plant ? " (a difference was planted: this is the expected outcome)" : "");
        return 1;
    }
    std::printf("ni_route_enum: PASS, the NI's and the service block's table lookups follow sw/route's node "
                "numbering\n");
    return 0;
}
