// tb_router_down.cpp - directed test of kolo_router's down ports (port_down):
// a router whose output link is down never blocks the traffic behind it.
// Node (1,1,1) of a 4x4x4 torus; packets enter on the local port.
//   A  X+ down, no credits ever come back on X+ (a dead link): ordered packets
//      for X+ are dropped whole and counted, the packets queued behind them in
//      the same input VC leave on Y+, adaptive packets that could take X+ take
//      Y+, nothing appears on X+, every input credit comes back.
//   B  control: the same traffic with X+ up but silent stalls behind the
//      first X+ packets (so A passes because of the drop, not by luck).
//   C  X+ back (credits flow): packets for X+ leave on X+ again.
//   D  X+ goes down while a packet is leaving on it: that packet finishes
//      whole; the next one for X+ is dropped.
// Exit 0 when every check passed.
#include <cinttypes>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Vtb_router_top.h"
#include "kolo_route.h"
#include "kolo_rtl_bits.h"
#include "verilated.h"

using namespace kolo_rtl;

namespace {

constexpr int kLocal = 6;
int failures = 0;
#define CHECK(c, ...)                                                                              \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            failures++;                                                                            \
            std::printf("FAIL line %d: ", __LINE__);                                               \
            std::printf(__VA_ARGS__);                                                              \
            std::printf("\n");                                                                     \
        } else {                                                                                   \
            std::printf("ok: ");                                                                   \
            std::printf(__VA_ARGS__);                                                              \
            std::printf("\n");                                                                     \
        }                                                                                          \
    } while (0)

// a check that prints only when it fails (for per-cycle checks)
#define CHECK_QUIET(c, ...)                                                                        \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            failures++;                                                                            \
            std::printf("FAIL line %d: ", __LINE__);                                               \
            std::printf(__VA_ARGS__);                                                              \
            std::printf("\n");                                                                     \
        }                                                                                          \
    } while (0)

uint64_t make_h0(uint16_t dst, uint16_t src, unsigned vnet, unsigned len, bool ordered, uint32_t rs) {
    return static_cast<uint64_t>(dst & 0xfff) | static_cast<uint64_t>(src & 0xfff) << 12 |
           static_cast<uint64_t>(vnet & 1) << 28 | static_cast<uint64_t>(len & 0x3f) << 29 |
           static_cast<uint64_t>(ordered ? 1 : 0) << 35 | static_cast<uint64_t>(rs & KOLO_RS_MASK) << 36;
}

struct Bench {
    std::unique_ptr<VerilatedContext> ctx{new VerilatedContext};
    std::unique_ptr<Vtb_router_top> top{new Vtb_router_top(ctx.get())};
    kolo_topo topo{};
    uint16_t me = 0x111;
    std::deque<Flit> inject_q;          // flits for the local input, in order
    int in_credits[4] = {80, 80, 80, 80};
    bool give_credits[7] = {true, true, true, true, true, true, true};
    std::deque<int> owed[7];       // credits to return per output port (vc)
    std::map<std::pair<int, unsigned>, int> heads, tails;  // (port, dst) -> count
    int flits_out[7] = {};
    int sunk_flits[7] = {}, sunk_heads[7] = {}, sunk_tails[7] = {}; // out_sunk: dropped flits seen
    uint64_t now = 0;
    unsigned last_dst[7][4] = {};

    Bench() {
        topo.size[0] = topo.size[1] = topo.size[2] = 4;
        top->cfg_node_id = me;
        top->cfg_dim_m1 = 0x333;
        top->cfg_port_en = 0x3f;
        top->port_down = 0;
        top->in_valid = 0;
        sig_clear(top->in_flit);
        top->out_credit_valid = 0;
        top->out_credit_vc = 0;
        top->clk = 0;
        top->rst = 1;
        top->eval();
        for (int i = 0; i < 4; i++) tick();
        top->rst = 0;
    }
    void tick() {
        top->clk = 1;
        top->eval();
        top->clk = 0;
        top->eval();
    }
    // a packet of len payload flits from here to dst on vc {vnet, cls}
    void send(uint16_t dst, unsigned vc, unsigned len, bool ordered) {
        uint32_t rs = kolo_route_default(&topo, me, dst);
        uint64_t h0 = make_h0(dst, me, vc >> 1, len, ordered, rs);
        for (unsigned i = 0; i < len + 2; i++) {
            Flit f;
            f.data = i == 0 ? h0 : (0x5a5a000000000000ull | (static_cast<uint64_t>(dst) << 16) | i);
            f.vc = vc;
            f.head = i == 0;
            f.tail = i == len + 1;
            inject_q.push_back(f);
        }
    }
    void cycle() {
        // drive: one local flit against the router's input credits, one credit per port
        top->in_valid = 0;
        if (!inject_q.empty() && in_credits[inject_q.front().vc] > 0) {
            Flit f = inject_q.front();
            inject_q.pop_front();
            in_credits[f.vc]--;
            flit_set(top->in_flit, kLocal, f);
            top->in_valid = static_cast<uint8_t>(1u << kLocal);
        }
        top->out_credit_valid = 0;
        top->out_credit_vc = 0;
        for (int p = 0; p < 7; p++)
            if (give_credits[p] && !owed[p].empty()) {
                top->out_credit_valid |= static_cast<uint8_t>(1u << p);
                top->out_credit_vc |= static_cast<uint16_t>((owed[p].front() & 3) << (2 * p));
                owed[p].pop_front();
            }
        tick();
        now++;
        // observe
        for (int p = 0; p < 7; p++) {
            if ((top->out_sunk >> p) & 1) {
                Flit f = flit_get(top->out_flit, static_cast<unsigned>(p));
                CHECK_QUIET(!((top->out_valid >> p) & 1), "out_sunk and out_valid together on port %d", p);
                sunk_flits[p]++;
                sunk_heads[p] += f.head;
                sunk_tails[p] += f.tail;
            }
            if (!((top->out_valid >> p) & 1)) continue;
            Flit f = flit_get(top->out_flit, static_cast<unsigned>(p));
            flits_out[p]++;
            owed[p].push_back(static_cast<int>(f.vc));
            if (f.head) { // packets of different VCs may interleave on a port
                last_dst[p][f.vc] = f.data & 0xfff;
                heads[{p, last_dst[p][f.vc]}]++;
            }
            if (f.tail) tails[{p, last_dst[p][f.vc]}]++;
        }
        if ((top->in_credit_valid >> kLocal) & 1)
            in_credits[(top->in_credit_vc >> (2 * kLocal)) & 3]++;
    }
    void run(uint64_t n) {
        for (uint64_t i = 0; i < n; i++) cycle();
    }
    int head_count(int port, unsigned dst) { return heads[{port, dst}]; }
    int tail_count(int port, unsigned dst) { return tails[{port, dst}]; }
    uint32_t drops() const { return top->stat_fault_drops; }
};

const unsigned kDstX = 0x112;  // (2,1,1): X+ only
const unsigned kDstY = 0x121;  // (1,2,1): Y+ only
const unsigned kDstXY = 0x122; // (2,2,1): X+ first, Y+ adaptive

// interleaved: X+ packets and Y+ packets in input VC 0 (ordered: escape only),
// adaptive X+/Y+ packets in VC 1
void traffic(Bench &b) {
    for (int i = 0; i < 12; i++) {
        b.send(kDstX, 0, 32, true);
        b.send(kDstY, 0, 8, true);
        b.send(kDstXY, 1, 16, false);
    }
}

} // namespace

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    {
        std::printf("== A: X+ down, no credits on X+ ==\n");
        Bench b;
        b.give_credits[0] = false;
        b.top->port_down = 1u << 0;
        traffic(b);
        b.run(6000);
        CHECK(b.inject_q.empty(), "every flit entered the router (%zu left)", b.inject_q.size());
        CHECK(b.flits_out[0] == 0, "nothing left on X+ (%d flits)", b.flits_out[0]);
        CHECK(b.drops() == 12, "12 packets for X+ dropped and counted (stat_fault_drops %u)", b.drops());
        CHECK(b.sunk_heads[0] == 12 && b.sunk_tails[0] == 12 && b.sunk_flits[0] == 12 * 34,
              "out_sunk showed the 12 dropped packets whole on X+ (%d heads, %d flits)", b.sunk_heads[0],
              b.sunk_flits[0]);
        CHECK(b.sunk_flits[1] + b.sunk_flits[2] + b.sunk_flits[3] + b.sunk_flits[4] + b.sunk_flits[5] +
                      b.sunk_flits[6] == 0,
              "no sunk flits on other ports");
        CHECK(b.head_count(2, kDstY) == 12 && b.tail_count(2, kDstY) == 12,
              "the 12 packets queued behind them left whole on Y+ (%d)", b.head_count(2, kDstY));
        CHECK(b.head_count(2, kDstXY) == 12 && b.tail_count(2, kDstXY) == 12,
              "the 12 adaptive packets took Y+ instead of the down X+ (%d)", b.head_count(2, kDstXY));
        CHECK(b.in_credits[0] == 80 && b.in_credits[1] == 80, "every input credit came back (%d %d)",
              b.in_credits[0], b.in_credits[1]);
    }
    {
        std::printf("== B: control, X+ up but silent ==\n");
        Bench b;
        b.give_credits[0] = false;
        traffic(b);
        b.run(6000);
        CHECK(b.head_count(2, kDstY) < 12,
              "without the drop the packets behind the X+ ones are stuck (%d of 12 left)",
              b.head_count(2, kDstY));
        CHECK(b.drops() == 0, "nothing counted as dropped (%u)", b.drops());
        CHECK(b.sunk_flits[0] == 0, "no sunk flits (%d)", b.sunk_flits[0]);
    }
    {
        std::printf("== C: X+ down, then back ==\n");
        Bench b;
        b.give_credits[0] = false;
        b.top->port_down = 1u << 0;
        for (int i = 0; i < 3; i++) b.send(kDstX, 0, 4, true);
        b.run(500);
        CHECK(b.drops() == 3, "3 dropped while down (%u)", b.drops());
        b.top->port_down = 0;
        b.give_credits[0] = true;
        b.run(5);
        for (int i = 0; i < 5; i++) b.send(kDstX, 0, 4, true);
        b.run(500);
        CHECK(b.head_count(0, kDstX) == 5 && b.tail_count(0, kDstX) == 5, "5 left on X+ after it came back (%d)",
              b.head_count(0, kDstX));
        CHECK(b.drops() == 3, "no more drops (%u)", b.drops());
    }
    {
        std::printf("== E: X+ down, Y+ silent: adaptive packets wait for Y+, never dropped ==\n");
        Bench b;
        b.give_credits[0] = false;
        b.give_credits[2] = false;
        b.top->port_down = 1u << 0;
        for (int i = 0; i < 8; i++) b.send(kDstXY, 1, 16, false);
        b.run(3000);
        CHECK(b.drops() == 0, "none dropped while Y+ is full (%u)", b.drops());
        b.give_credits[2] = true;
        b.run(3000);
        CHECK(b.head_count(2, kDstXY) == 8 && b.tail_count(2, kDstXY) == 8, "all 8 left on Y+ once it drained (%d)",
              b.head_count(2, kDstXY));
    }
    {
        std::printf("== D: X+ goes down under a leaving packet ==\n");
        Bench b;
        b.send(kDstX, 0, 32, true);
        b.send(kDstX, 0, 32, true);
        for (int i = 0; i < 200 && b.head_count(0, kDstX) == 0; i++) b.cycle();
        b.top->port_down = 1u << 0; // the first packet's head has left
        b.run(800);
        CHECK(b.head_count(0, kDstX) == 1 && b.tail_count(0, kDstX) == 1 && b.flits_out[0] == 34,
              "the packet already leaving finished whole (%d flits)", b.flits_out[0]);
        CHECK(b.drops() == 1, "the next one was dropped (%u)", b.drops());
    }
    std::printf("tb_router_down: %s (%d failed)\n", failures ? "FAIL" : "PASS", failures);
    return failures ? 1 : 0;
}
