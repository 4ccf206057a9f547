// tb_board_sim_kc705.cpp - board-level simulation of two Xilinx KC705
// boards (boards/kc705, the whole kolo_board_kc705 top) cabled into a 2x1x1
// torus, run the way a user runs the real pair: each board's host is a PCIe
// root complex (sw/rtlsim/kolo_pcie_rc.h) behind the 7-series block's
// streams (tb/common/kolo_x7_stream_model.h, on the pins the kolo_kc705_pcie
// model hands over), and host programs are libkolo's own code (sw/lib,
// kolo_open_backend: an MMIO write becomes an MWr of the root complex, a
// read an MRd whose completion it waits for, stepping the simulation; host
// memory is this process's memory, the ranges libkolo maps for DMA only).
// Vendor primitives and IP are behavioural models (tb/board_sim/xilinx; the
// GTX channels hand their 64b/66b beats to the cables here, each cable
// direction a sw/rtlsim/kolo_chip_lanes.h LaneDir: the gearboxes, a delay, a
// random block boundary the receiver finds by slipping).
// Cables: board 0 X+ (gt0) <-> board 1 X- (gt1), board 0 X- <-> board 1 X+,
// as docs/boards.md cables a 2x1x1 torus; Y and Z ports are not cabled.
// The service processors run the firmware image (kolo_fw_rv32_sim, loaded
// from fw/imem.hex and fw/dmem.hex where the binary runs): it installs the
// routing tables and serves the links.
// Checks:
//   - both boards boot: the firmware banner arrives on each board's console
//     (the USB-UART at 115200 baud, decoded here);
//   - the X links come up, each with the other board as its peer on the
//     right port (LINK_PEER through the service window: X+ sees the
//     neighbour's X-), none miscabled; the firmware reaches "running";
//   - each host opens its board with libkolo (kolo_open_backend: the NI's ID
//     and version, node id (b,0,0) and torus 2x1x1 from the straps);
//   - host programs (seeded; --seed=N replays): board 1 opens a window over a
//     buffer of its host memory, board 0's program does libkolo PUTs of
//     random sizes and offsets (blocking, non-blocking, inline, PIO), GETs
//     back, and atomics (fetch-add, swap, compare-swap, fetch-and/or/xor of
//     4 and 8 bytes) into it; every byte of board 1's buffer and every GET
//     and fetched value is checked against a scoreboard of what was written;
//     then the same from board 1 to board 0 (non-fetching atomics too: add,
//     xor, and, or, each followed by a quiet); then both programs at once,
//     each in a thread of its own (the simulation runs in whichever thread
//     is in a libkolo callback, one at a time): both links carry traffic
//     both ways, each NI is initiator and target at once (--seed replays
//     each program's operations, not the threads' interleaving);
//   - at the end: no link CRC or sequence errors, no replays, no link down,
//     no router errors or drops, no PCIe completion errors, timeouts or bad
//     TLPs (kolo_chip stat_pcie), no PCIe rule broken (the root-complex
//     models' checks), no device access outside the DMA-mapped ranges.
// --quick (make test-board-sim-kc705): 100 operations each way (400 without).
// --plant=<p> (make test-board-sim-kc705-long; each must FAIL):
//   crossed    the cables X+ to X+ and X- to X- (links miscabled);
//   cpl-byte   board 0's PCIe block flips one byte of a completion it hands
//              the board (a DMA read of the NI sees wrong data);
//   lane-cut   board 0's X+ transmitter dies after the boot (a link down:
//              an operation that never completes, or the final checks).
// --serve=NAME [--jobs=N] [--serve-ms=MS] [--serve-wall=S] (make
// test-board-sim-kc705-shmem, tb/board_sim/run_kc705_shmem.sh): after the
// boot and the identity checks no host program here: the boards are served
// as a kolo-sim server (/kolo-sim.server.NAME, sw/lib/kolo_sim_server.h) to
// PE processes started by someone else, PE i on board i: N jobs (a job
// ends when both PEs have detached), each within MS of simulated time
// (20) and all within S wall seconds (600); a read a board does not answer
// in 200 us gets an error completion and a FAIL; then the final checks.
// --serve ... --det: deterministic co-simulation as kolo-sim --det does it
// (sw/include/kolo_sim_shm.h, the server's side in kolo_sim_server.h): a
// step of simulated time is made only while every PE waits on the boards
// (a read's answer, its memory, ring room, a poll's wake), and the step's
// writes into a PE are made known at the step's end; so a program takes the
// same simulated time however fast its PEs run. A PE that computes for ever
// holds time still until --serve-wall ends the run (no --det-stall here).
// Plants with --serve: pe-swap (PE 0 on board 1, PE 1 on board 0),
// pcie-dead (board 1's PCIe held in reset once serving starts), det-no-hold
// (with --det: time runs on while a PE computes; the programs' simulated
// time then depends on their pace).
// --power-cycle [--quick] (make test-board-sim-kc705-power-long): board 1
// loses its power under board 0's traffic and comes back (power_cycle()
// below: what is modelled and what is not; docs/boards.md "Power cycle");
// plants no-reset (its clocks keep running: no new boot) and
// link-left-down (its X- transmitter dead after the return).
// --power-cycle --reflash-gen: board 1's NI's end-to-end tables (LUT RAM
// without a reset: generations and known (destination, tag)s) are put back
// to their bitstream values at the return, as a bitstream reload does; its
// requests to board 0, whose NI keeps its records of board 1, must be
// executed (RESYNC, docs/ni.md 10.1; the bug of docs/boards.md "Power
// cycle" before it). Plant reflash-no-resync (implies --reflash-gen): the
// reload leaves the known table 1, the NI before RESYNC: board 1's PUTs
// are taken for repeats and its program must fail.
// --console-baud=N [--console-fast-after=K] (simulation only: a boot spends
// 3.5 of its 3.7 ms on the two banners at 115200 baud): each board's console
// transmitter (kolo_uart_tx, CLK_HZ 250 MHz, BAUD 115200 in the board top)
// runs at N baud from its K-th character on (K 0 by default), and the
// console is decoded at N from there: after every clock of it while it
// sends, the harness adds N - 115200 to its phase accumulator
// (console_speedup below), so that it gains N a clock, as the same
// transmitter built with BAUD N would; the board's RTL, its bitstream and
// the firmware are unchanged. The rate is still checked (a transmitter with
// another BAUD or clock decodes as garbage at N too); make
// test-board-sim-kc705 decodes the banner's "kolo firmware " (K 14, what
// the boot check looks for) at 115200 itself, make test-board-sim-kc705-shmem
// (and its -long) all of it at N (64 x 115200), make test-board-sim-kc705-long
// and -power-long all of it at 115200.
// Plant console-rate (make test-board-sim-kc705-long; implies --console-baud=7372800
// if not given): the transmitters run at 7/8 of N, decoded at N: the banner
// check must fail (what a console at another rate than the decoder's does).
// Simulated-time limits: 60 ms in all, and 2 ms (6 ms without --quick) for
// the host programs after the boot.
// Simulated and wall time are printed.
// About 1 720 lines: the cases (host programs, power cycle, the kolo-sim
// server and its --det) share the boards' models, the hosts' root complexes
// and backends, the cables and the checks; split, each part would need them
// all.
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "Vtb_board_sim_kc705.h"
#include "Vtb_board_sim_kc705___024root.h"
#include "Vtb_board_sim_kc705__Dpi.h"
#include "kolo_chip_lanes.h"
#include "kolo_pcie_rc.h"
#include "kolo_x7_stream_model.h"
#include "svdpi.h"
#include "tb_util.h"
#include "verilated.h"

extern "C" {
#include "kolo.h"
#include "kolo_ni_regs.h"
#include "kolo_sim_server.h"
#include "kolo_svc_regs.h"
}

namespace {

const uint64_t kPsPerUs = 1000000ull;
const uint64_t kPsPerMs = 1000000000ull;
// the console: kolo_uart_tx #(.CLK_HZ(250000000), .BAUD(115200)) in the board top;
// from each board's g_console_fast_after-th character on, it runs and is decoded at
// g_console_baud (--console-baud, default the board's 115200; --console-fast-after)
const uint32_t kConsoleClkHz = 250000000u, kConsoleBaud = 115200u;
uint32_t g_console_baud = kConsoleBaud;
size_t g_console_fast_after = 0;
const char* const kPortName[6] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-"};

// The host's view of each board (equal on both): BARs below 4 GB, the id
// the root complex enumerated the board at, the MSI address.
constexpr uint64_t kBar0 = 0xF0000000ull;  // 128 KiB
constexpr uint64_t kBar2 = 0xF0100000ull;  // 64 KiB
constexpr uint32_t kBar0Size = 1u << 17, kBar2Size = 1u << 16;
constexpr uint16_t kDevId = 0x0100;  // bus 1, device 0, function 0
constexpr uint64_t kMsiAddr = 0xFEE00000ull;

std::string g_plant;
bool g_reflash = false;  // --reflash-gen
tb::Checker* g_chk = nullptr;

// ---- cables: the GTX channel models (DPI) ---------------------------------------------------
struct GtCh {
    kolo_chip::LaneDir out;   // what this channel transmits, on its cable
    kolo_chip::LaneDir loop;  // near-end loopback, and the noise of an uncabled receiver
    int src = -1;             // the channel (6b+p) whose transmitter this receiver hears (-1: none)
    int dst = -1;             // the channel whose receiver hears this transmitter (-1: none)
    bool heard = false;       // some receiver hears this transmitter
    bool looped = false;
    bool open = false;
    uint64_t tx_blocks = 0, rx_beats = 0;
};
GtCh g_gt[12];
unsigned g_lane_delay = 8;
// board b has power (--power-cycle): an unpowered board's transmitters send
// nothing and its receivers take nothing (what was sent to them is lost)
bool g_powered[2] = {true, true};

void cable(int a, int b) {
    g_gt[a].src = b;
    g_gt[b].src = a;
    g_gt[a].dst = b;
    g_gt[b].dst = a;
    g_gt[a].heard = g_gt[b].heard = true;
}

}  // namespace

extern "C" int kolo_sim_gt_open(const char* path) {
    const char* b = std::strstr(path, "g_board[");
    const char* ch = std::strstr(path, "u_ch");
    if (!b || !ch || b[8] < '0' || b[8] > '1' || ch[4] < '0' || ch[4] > '5') {
        std::fprintf(stderr, "kolo_sim_gt_open: unknown channel %s\n", path);
        std::exit(2);
    }
    const int h = (b[8] - '0') * 6 + (ch[4] - '0');
    g_gt[h].open = true;
    return h;
}

extern "C" void kolo_sim_gt_tx(int h, int sequence, int data, int header, int on, int loopback) {
    GtCh& c = g_gt[h];
    c.looped = loopback != 0;
    if (!on) return;  // the transmitter sends nothing before its reset FSM is done
    if (!g_powered[h / 6]) return;  // (--plant=no-reset: the clocks run, the lanes are cut)
    if (c.looped)
        c.loop.tx_edge((unsigned)sequence, (uint32_t)data, (unsigned)header);
    else if (c.heard && g_powered[c.dst / 6])
        c.out.tx_edge((unsigned)sequence, (uint32_t)data, (unsigned)header);
    c.tx_blocks++;
}

extern "C" long long kolo_sim_gt_rx(int h, int slip, int on) {
    GtCh& c = g_gt[h];
    // the line runs whatever the receiver does: a beat is taken every edge
    kolo_chip::Beat b = (c.looped || c.src < 0) ? c.loop.rx_edge(slip != 0) : g_gt[c.src].out.rx_edge(slip != 0);
    if (!on) return 0;
    if (b.data_valid) c.rx_beats++;
    return (long long)((b.data & 0xFFFFFFFFull) | (uint64_t)(b.header & 3) << 32 | (uint64_t)b.header_valid << 34 |
                       (uint64_t)b.data_valid << 35);
}

namespace {

// ---- the hosts: root complex, the block's streams, libkolo's backend ----------------------------
// The 7-series block's pins as the stream model sees them (kolo_x7_stream_model.h).
struct X7Pins {
    uint8_t cfg_bus_number = 0, cfg_device_number = 0, cfg_function_number = 0;
    uint16_t cfg_command = 0, cfg_dcommand = 0;
    uint8_t cfg_interrupt_msienable = 0, cfg_interrupt_rdy = 0;
    uint8_t m_axis_rx_tvalid = 0;
    uint32_t m_axis_rx_tdata[4] = {0, 0, 0, 0};
    uint32_t m_axis_rx_tuser = 0;
    uint8_t s_axis_tx_tready = 0;
    // the user's (the board's shim's)
    uint8_t m_axis_rx_tready = 0, rx_np_ok = 0, rx_np_req = 0, tx_cfg_gnt = 0;
    uint8_t s_axis_tx_tvalid = 0, s_axis_tx_tlast = 0, s_axis_tx_tuser = 0;
    uint32_t s_axis_tx_tdata[4] = {0, 0, 0, 0};
    uint16_t s_axis_tx_tkeep = 0;
    uint8_t cfg_interrupt = 0, cfg_interrupt_assert = 0, cfg_interrupt_di = 0;
};

uint32_t get_bits(const svBitVecVal* w, unsigned lo, unsigned n) {
    uint32_t v = 0;
    for (unsigned i = 0; i < n; i++) v |= ((w[(lo + i) / 32] >> ((lo + i) % 32)) & 1u) << i;
    return v;
}
void set_bits(svBitVecVal* w, unsigned lo, unsigned n, uint32_t v) {
    for (unsigned i = 0; i < n; i++)
        if ((v >> i) & 1u) w[(lo + i) / 32] |= 1u << ((lo + i) % 32);
}

struct Sim;

struct BoardHost {
    int board = 0;
    Sim* sim = nullptr;
    std::unique_ptr<kolo::KoloPcieRc> rc;
    std::unique_ptr<tb::Rng> rng;
    std::unique_ptr<kolo_x7::X7StreamModel<X7Pins>> model;
    X7Pins pins;
    bool started = false;
    uint64_t edges = 0;
    std::map<uintptr_t, size_t> dma;  // page-rounded ranges libkolo mapped
    kolo_dev* dev = nullptr;
    uint64_t mmio_writes = 0, mmio_reads = 0, mmio_errors = 0, bad_dma = 0;
    // --power-cycle: the root port's link to the board is down (the board has
    // no power, or PERST#): the port drops the host's writes and answers its
    // reads with Unsupported Request (all ones) at once
    bool link_down = false;
    uint64_t mmio_dropped = 0, mmio_ur = 0;
    // console
    bool rx_busy = false, rx_prev = true;
    double rx_start = 0, high_since = 0;
    int rx_bit = 0;
    uint8_t rx_cur = 0;
    std::string console;
    double con_bit_ps = 1e12 / kConsoleBaud;  // the rate it is decoded at (--console-baud)

    bool dma_ok(uint64_t a, size_t n) const {
        auto it = dma.upper_bound((uintptr_t)a);
        if (it == dma.begin()) return false;
        --it;
        return a >= it->first && a + n <= it->first + it->second;
    }
    // a start bit counts after the line was high (idle, or a stop bit) for
    // half a bit at least: the transmitter's flop holds its power-up 0 until
    // the first clock after the MMCM locks (the chip's reset is released then)
    void console_sample(bool line, double t) {
        if (line && !rx_prev) high_since = t;
        if (!rx_busy) {
            if (rx_prev && !line && t - high_since >= 0.5 * con_bit_ps) {
                rx_busy = true;
                rx_start = t;
                rx_bit = 1;
                rx_cur = 0;
            }
        } else if (t >= rx_start + (rx_bit + 0.5) * con_bit_ps) {
            if (rx_bit <= 8) {
                rx_cur |= (uint8_t)(line << (rx_bit - 1));
                rx_bit++;
            } else {
                if (line && rx_cur != '\r') console.push_back((char)rx_cur);
                rx_busy = false;
            }
        }
        rx_prev = line;
    }
};
BoardHost g_host[2];

// --console-baud: board b's console transmitter's phase accumulator and the two
// wires computed from it, written here: the model's own variables (members of
// its root class, named by their hierarchy; not marked public, which would
// change the whole model's code and cost its ccache'd build; a Verilator that
// folds them away makes this fail to compile, not run wrong)
struct ConsoleRegs {
    IData* acc;
    IData* acc_step;
    CData* bit_end;
    uint32_t seen;  // acc as last seen (or written) here
};
ConsoleRegs g_con[2];

// after each evaluation, for a board whose console has its K characters
// (then its decoder is between a character's stop-bit sample and the next
// start bit; it takes N from here): a changed, non-zero accumulator is a clock of the
// transmitter while it sends (it adds 115200 a clock, or wraps; it holds 0
// while idle): add N - 115200, and the wires as the model computes them
// (acc_step = acc + BAUD, bit_end = acc_step >= CLK_HZ; a write from here
// does not make the model evaluate them again). A bit then ends after the
// clock whose accumulator (before the addition) reaches CLK_HZ - 115200
// (floor or ceil of 250 MHz / N clocks, N baud on average); after the stop
// bit the idle transmitter clears the accumulator at its next clock
void console_speedup() {
    for (int b = 0; b < 2; b++) {
        ConsoleRegs& c = g_con[b];
        if (g_host[b].console.size() < g_console_fast_after) continue;
        g_host[b].con_bit_ps = 1e12 / g_console_baud;
        const uint32_t a = *c.acc;
        if (a != c.seen && a != 0) {
            const uint32_t n = a + (g_plant == "console-rate" ? g_console_baud / 8 * 7 : g_console_baud) - kConsoleBaud;
            *c.acc = n;
            *c.acc_step = n + kConsoleBaud;
            *c.bit_end = *c.acc_step >= kConsoleClkHz;
            c.seen = n;
        } else {
            c.seen = a;
        }
    }
}

struct Sim {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vtb_board_sim_kc705> top;
    uint64_t deadline = 0;  // ps: the run fails here (a wait that never ends)
    uint64_t cut_at = 0;    // ps: --power-cycle's cut happens here (in whichever wait is stepping)
    void (*on_cut)() = nullptr;
    uint64_t now() const { return ctx->time(); }
    void step() {
        if (cut_at && now() >= cut_at) {
            cut_at = 0;
            on_cut();
        }
        if (!top->eventsPending()) {
            std::fprintf(stderr, "board-sim-kc705: no more events at %" PRIu64 " ps\n", now());
            std::exit(2);
        }
        ctx->time(top->nextTimeSlot());
        top->eval();
        if (g_console_baud != kConsoleBaud) console_speedup();
        const double t = (double)now();
        for (int b = 0; b < 2; b++) {
            if ((top->mon_chip_rst >> b) & 1) {  // the UART's line means nothing before its reset
                g_host[b].rx_busy = false;
                g_host[b].rx_prev = false;
            } else {
                g_host[b].console_sample((top->uart_tx >> b) & 1, t);
            }
        }
        if (deadline && now() > deadline) {
            std::printf("FAIL board-sim-kc705: simulated time limit (%.2f ms) reached; X link states (0 down, 1 "
                        "training, 2 up): board 0 %u %u, board 1 %u %u\n", (double)deadline / kPsPerMs,
                        link_state(0, 0), link_state(0, 1), link_state(1, 0), link_state(1, 1));
            std::exit(1);
        }
    }
    void run_ps(uint64_t ps) {
        const uint64_t until = now() + ps;
        while (now() < until) step();
    }
    unsigned link_state(int b, int p) const { return (top->mon_link_state >> (12 * b + 2 * p)) & 3u; }
    uint32_t link_counter(int b, int p, int c) const { return top->mon_link_counters[(size_t)(16 * (6 * b + p) + c)]; }
};
Sim g_sim;

}  // namespace

extern "C" int kolo_sim_x7_open(const char* path) {
    const char* b = std::strstr(path, "g_board[");
    if (!b || b[8] < '0' || b[8] > '1') {
        std::fprintf(stderr, "kolo_sim_x7_open: unknown block %s\n", path);
        std::exit(2);
    }
    return b[8] - '0';
}

extern "C" void kolo_sim_x7_edge(int h, int active, const svBitVecVal* user, svBitVecVal* block) {
    BoardHost& H = g_host[h];
    for (int i = 0; i < 8; i++) block[i] = 0;
    if (!active) {
        H.started = false;
        return;
    }
    X7Pins& p = H.pins;
    for (int i = 0; i < 4; i++) p.s_axis_tx_tdata[i] = user[i];
    p.s_axis_tx_tkeep = (uint16_t)get_bits(user, 128, 16);
    p.s_axis_tx_tuser = (uint8_t)get_bits(user, 144, 4);
    p.s_axis_tx_tvalid = (uint8_t)get_bits(user, 148, 1);
    p.s_axis_tx_tlast = (uint8_t)get_bits(user, 149, 1);
    p.m_axis_rx_tready = (uint8_t)get_bits(user, 150, 1);
    p.rx_np_ok = (uint8_t)get_bits(user, 151, 1);
    p.rx_np_req = (uint8_t)get_bits(user, 152, 1);
    p.tx_cfg_gnt = (uint8_t)get_bits(user, 153, 1);
    p.cfg_interrupt = (uint8_t)get_bits(user, 154, 1);
    p.cfg_interrupt_assert = (uint8_t)get_bits(user, 155, 1);
    p.cfg_interrupt_di = (uint8_t)get_bits(user, 156, 8);
    if (H.started) {  // the cycle that ended at this edge
        H.model->sample(&p, *H.rc);
        H.model->commit();
        H.rc->step();
    }
    H.started = true;
    H.edges++;
    H.model->drive(&p, *H.rc, 1, 2, true, true);  // MPS 256, MRRS 512 (the root complex's config)
    for (int i = 0; i < 4; i++) block[i] = p.m_axis_rx_tdata[i];
    set_bits(block, 128, 22, p.m_axis_rx_tuser);
    set_bits(block, 150, 1, p.m_axis_rx_tvalid);
    set_bits(block, 151, 1, (p.m_axis_rx_tuser >> 21) & 1u);  // tlast: is_eof
    set_bits(block, 152, 16, 0xFFFFu);
    set_bits(block, 168, 1, p.s_axis_tx_tready);
    set_bits(block, 169, 1, p.cfg_interrupt_rdy);
    set_bits(block, 170, 1, p.cfg_interrupt_msienable);
    set_bits(block, 171, 8, p.cfg_bus_number);
    set_bits(block, 179, 5, p.cfg_device_number);
    set_bits(block, 184, 3, p.cfg_function_number);
    set_bits(block, 187, 16, p.cfg_command);
    set_bits(block, 203, 16, p.cfg_dcommand);
}

namespace {

// ---- libkolo's backend: MMIO through the root complex -----------------------------------------
constexpr unsigned kHostQueue = 4;        // host requests queued in the root complex before the CPU waits
// One thread at a time runs the simulation: the host programs of both
// boards may run at once (both_at_once), each in a thread of its own, and
// whichever is in a callback steps both boards.
std::mutex g_mu;
constexpr uint64_t kMmioWaitPs = 200 * kPsPerUs;

void wait_queue(BoardHost& H) {
    const uint64_t t0 = g_sim.now();
    while (H.rc->host_queued() >= kHostQueue) {
        g_sim.step();
        if (g_sim.now() - t0 > kMmioWaitPs) {
            std::printf("FAIL board-sim-kc705: board %d's host requests not taken for %.0f us\n", H.board,
                        (double)kMmioWaitPs / kPsPerUs);
            std::exit(1);
        }
    }
}

int be_mmio_write(void* user, int bar, uint64_t off, const void* data, unsigned size) {
    BoardHost& H = *static_cast<BoardHost*>(user);
    std::lock_guard<std::mutex> lk(g_mu);
    if (H.link_down) {
        H.mmio_dropped++;
        return 0;
    }
    wait_queue(H);
    H.rc->host_write((bar == 0 ? kBar0 : kBar2) + off, static_cast<const uint8_t*>(data), size);
    H.mmio_writes++;
    return 0;
}

int be_mmio_read(void* user, int bar, uint64_t off, unsigned size, uint64_t* val) {
    BoardHost& H = *static_cast<BoardHost*>(user);
    std::lock_guard<std::mutex> lk(g_mu);
    if (H.link_down) {
        H.mmio_ur++;
        *val = ~0ull;
        return -1;
    }
    wait_queue(H);
    const int h = H.rc->host_read((bar == 0 ? kBar0 : kBar2) + off, size);
    H.mmio_reads++;
    const uint64_t t0 = g_sim.now();
    while (!H.rc->host_result(h).done) {
        g_sim.step();
        if (g_sim.now() - t0 > kMmioWaitPs) {
            std::printf("FAIL board-sim-kc705: board %d: read of BAR%d %#" PRIx64 " not answered in %.0f us\n",
                        H.board, bar, off, (double)kMmioWaitPs / kPsPerUs);
            std::exit(1);
        }
    }
    const kolo::KoloPcieRc::HostResult& r = H.rc->host_result(h);
    if (r.status != kolo::kCplSC || r.data.size() < (size + 3) / 4) {
        H.mmio_errors++;
        return -1;
    }
    uint64_t v = r.data[0];
    if (size == 8) v |= (uint64_t)r.data[1] << 32;
    *val = v;
    return 0;
}

int be_dma_map(void* user, void* addr, size_t len) {
    std::lock_guard<std::mutex> lk(g_mu);
    static_cast<BoardHost*>(user)->dma[(uintptr_t)addr] = len;
    return 0;
}
int be_dma_unmap(void* user, void* addr, size_t) {
    std::lock_guard<std::mutex> lk(g_mu);
    static_cast<BoardHost*>(user)->dma.erase((uintptr_t)addr);
    return 0;
}
// every wait of libkolo's lets the boards run 100 ns
void be_progress(void*, unsigned long) {
    {
        std::lock_guard<std::mutex> lk(g_mu);
        g_sim.run_ps(100000);
    }
    std::this_thread::yield();  // the other program's turn
}

const kolo_backend kBackend = {"board-sim", be_mmio_write, be_mmio_read, be_dma_map, be_dma_unmap, be_progress,
                               nullptr};

void host_init(BoardHost& H, int b, uint64_t seed) {
    H.board = b;
    kolo::KoloPcieRc::Config c;
    c.rc_id = 0x0000;
    c.dev_id = kDevId;
    c.mps = 256;
    c.mrrs = 512;
    c.rcb = 64;
    c.tags = 32;
    c.mmio_latency = 8;
    c.cpl_latency_min = 40;
    c.cpl_latency_max = 150;
    c.cpl_gap_max = 2;
    c.reorder = true;
    c.random_split = true;
    c.msi_addr = kMsiAddr;
    c.cpl_space_h = 32;  // the shim's CPL_HDR_CREDITS / CPL_DATA_CREDITS defaults
    c.cpl_space_d = 512;
    c.seed = seed * 0x9E3779B97F4A7C15ull + 11 + (uint64_t)b;
    H.rc.reset(new kolo::KoloPcieRc(c));
    H.rc->set_memory_checked(
        [&H](uint64_t a, uint8_t* p, size_t n) {
            if (!H.dma_ok(a, n)) {
                H.bad_dma++;
                return false;
            }
            std::memcpy(p, reinterpret_cast<const void*>((uintptr_t)a), n);
            return true;
        },
        [&H](uint64_t a, const uint8_t* p, size_t n) {
            if (!H.dma_ok(a, n)) {
                H.bad_dma++;
                return false;
            }
            // in ascending order, one aligned 8-byte word at a time: a host
            // polling a word never sees it half written
            uint8_t* d = reinterpret_cast<uint8_t*>((uintptr_t)a);
            while (n) {
                size_t k = 8 - (a & 7);
                if (k > n) k = n;
                std::memcpy(d, p, k);
                d += k;
                p += k;
                a += k;
                n -= k;
            }
            return true;
        });
    H.rng.reset(new tb::Rng(seed ^ (0xB0A4D000ull + (uint64_t)b)));
    kolo_x7::X7Config x;
    x.dev_id = kDevId;
    x.bars = kolo_x7::BarMap{kBar0, kBar0Size, kBar2, kBar2Size};
    x.msi_addr = kMsiAddr;
    x.msi_data = 0;
    x.np_slack = 4;  // the shim's NP_SLACK default
    if (b == 0 && g_plant == "cpl-byte") {
        x.bug = "cpl-byte";
        x.cpl_byte_at = 3;
    }
    H.model.reset(new kolo_x7::X7StreamModel<X7Pins>(*H.rng, *g_chk, x));
    H.model->k.rx_gap_pct = (unsigned)H.rng->below(30);
    H.model->k.tx_ready_pct = 60 + (unsigned)H.rng->below(41);
    H.model->k.msi_grant_pct = 50;
}

// ---- checks -------------------------------------------------------------------------------------
uint32_t svc_read(BoardHost& H, uint32_t reg) {
    uint64_t v = 0;
    if (kolo_dev_read_reg(H.dev, KOLO_SVC_HOST_BASE + reg, 4, &v)) {
        g_chk->check(false, "board %d: service register %#x not readable", H.board, reg);
        return 0;
    }
    return (uint32_t)v;
}

// Both boards' X links up (the probes), or a failure after limit_ms.
bool wait_links(double limit_ms) {
    const uint64_t t_end = g_sim.now() + (uint64_t)(limit_ms * kPsPerMs);
    while (g_sim.now() < t_end) {
        g_sim.run_ps(10 * kPsPerUs);
        bool all = true, miscabled = false;
        for (int b = 0; b < 2; b++)
            for (int p = 0; p < 2; p++) {
                all = all && g_sim.link_state(b, p) == 2;
                miscabled = miscabled || g_sim.link_counter(b, p, 14) != 0;
            }
        if (all) return true;
        if (miscabled) break;  // no use waiting
    }
    for (int b = 0; b < 2; b++)
        for (int p = 0; p < 2; p++)
            g_chk->check(g_sim.link_state(b, p) == 2 && g_sim.link_counter(b, p, 14) == 0,
                         "board %d %s: link state %u, miscabled %u after %.3f ms (want up)", b, kPortName[p],
                         g_sim.link_state(b, p), g_sim.link_counter(b, p, 14), (double)g_sim.now() / kPsPerMs);
    return false;
}

bool check_identity_and_links() {
    bool ok = true;
    for (int b = 0; b < 2; b++) {
        BoardHost& H = g_host[b];
        uint8_t dims[3];
        kolo_dev_torus(H.dev, dims);
        ok &= g_chk->check(kolo_dev_node_id(H.dev) == (uint16_t)b, "board %d: node id %#x, want %#x", b,
                           kolo_dev_node_id(H.dev), b);
        ok &= g_chk->check(dims[0] == 2 && dims[1] == 1 && dims[2] == 1, "board %d: torus %ux%ux%u, want 2x1x1", b,
                           dims[0], dims[1], dims[2]);
        ok &= g_chk->check(kolo_dev_num_ctx(H.dev) > 0, "board %d: no NI contexts", b);
        ok &= g_chk->check(svc_read(H, KOLO_SVC_SYS_ID) == KOLO_SVC_SYS_ID_RESET, "board %d: SYS_ID", b);
        const uint32_t nid = svc_read(H, KOLO_SVC_SYS_NODE_ID);
        ok &= g_chk->check(nid == (uint32_t)b, "board %d: SYS_NODE_ID %#x", b, nid);
        for (int p = 0; p < 2; p++) {
            const uint32_t st = svc_read(H, KOLO_SVC_LINK_STATUS(p));
            const uint32_t peer = svc_read(H, KOLO_SVC_LINK_PEER(p));
            const uint32_t want = (uint32_t)(1 - b) | (uint32_t)(1 - p) << KOLO_SVC_LINK_PEER_PORT_SHIFT |
                                  KOLO_SVC_LINK_PEER_VALID_MASK;
            std::printf("  board %d %s: %s%s, peer node %u port %s\n", b, kPortName[p],
                        (st & KOLO_SVC_LINK_STATUS_UP_MASK) ? "up" : "down",
                        (st & KOLO_SVC_LINK_STATUS_MISCABLED_MASK) ? " MISCABLED" : "",
                        peer & KOLO_SVC_LINK_PEER_ID_MASK,
                        kPortName[((peer & KOLO_SVC_LINK_PEER_PORT_MASK) >> KOLO_SVC_LINK_PEER_PORT_SHIFT) % 6]);
            ok &= g_chk->check((st & KOLO_SVC_LINK_STATUS_UP_MASK) && !(st & KOLO_SVC_LINK_STATUS_MISCABLED_MASK),
                               "board %d %s: LINK_STATUS %#x (want up, not miscabled)", b, kPortName[p], st);
            ok &= g_chk->check(peer == want, "board %d %s: LINK_PEER %#x, want %#x", b, kPortName[p], peer, want);
        }
    }
    return ok;
}

// Waits (up to limit_ms) until both firmwares report stage 3 (running).
bool wait_running(double limit_ms) {
    const uint64_t t_end = g_sim.now() + (uint64_t)(limit_ms * kPsPerMs);
    for (;;) {
        bool all = true;
        for (int b = 0; b < 2; b++)
            all = all && (svc_read(g_host[b], KOLO_SVC_SYS_FW_STATE) & KOLO_SVC_SYS_FW_STATE_STAGE_MASK) == 3;
        if (all) return true;
        if (g_sim.now() >= t_end) break;
        g_sim.run_ps(20 * kPsPerUs);
    }
    for (int b = 0; b < 2; b++) {
        const uint32_t st = svc_read(g_host[b], KOLO_SVC_SYS_FW_STATE);
        g_chk->check((st & KOLO_SVC_SYS_FW_STATE_STAGE_MASK) == 3, "board %d: firmware stage %u, want 3 (running)",
                     b, st & KOLO_SVC_SYS_FW_STATE_STAGE_MASK);
    }
    return false;
}

// ---- host programs: one board's libkolo operations into the other's window ----------------------
struct Traffic {
    unsigned puts = 0, gets = 0, atomics = 0;
    uint64_t bytes = 0;
};

const int kAmoOps[] = {KOLO_AMO_FETCH_ADD, KOLO_AMO_SWAP, KOLO_AMO_CSWAP, KOLO_AMO_FETCH_AND, KOLO_AMO_FETCH_OR,
                       KOLO_AMO_FETCH_XOR, KOLO_AMO_ADD, KOLO_AMO_XOR, KOLO_AMO_AND, KOLO_AMO_OR};
const char* amo_name(int op) {
    switch (op) {
    case KOLO_AMO_FETCH_ADD: return "fetch-add";
    case KOLO_AMO_SWAP: return "swap";
    case KOLO_AMO_CSWAP: return "cswap";
    case KOLO_AMO_FETCH_AND: return "fetch-and";
    case KOLO_AMO_FETCH_OR: return "fetch-or";
    case KOLO_AMO_FETCH_XOR: return "fetch-xor";
    case KOLO_AMO_ADD: return "add";
    case KOLO_AMO_XOR: return "xor";
    case KOLO_AMO_AND: return "and";
    case KOLO_AMO_OR: return "or";
    default: return "?";
    }
}
uint64_t amo_apply(int op, uint64_t old, uint64_t operand, uint64_t compare, unsigned size) {
    uint64_t r = old;
    switch (op) {
    case KOLO_AMO_FETCH_ADD:
    case KOLO_AMO_ADD: r = old + operand; break;
    case KOLO_AMO_SWAP: r = operand; break;
    case KOLO_AMO_CSWAP: r = old == compare ? operand : old; break;
    case KOLO_AMO_FETCH_AND:
    case KOLO_AMO_AND: r = old & operand; break;
    case KOLO_AMO_FETCH_OR:
    case KOLO_AMO_OR: r = old | operand; break;
    case KOLO_AMO_FETCH_XOR:
    case KOLO_AMO_XOR: r = old ^ operand; break;
    default: break;
    }
    return size == 4 ? (r & 0xFFFFFFFFull) : r;
}

// Board src's host program against board dst's window over `win` (len
// bytes): n operations, each checked; win's contents against the
// scoreboard `sb` after each one that wrote.
bool run_program(int src, int dst, uint8_t* win, size_t len, uint8_t key, std::vector<uint8_t>& sb, unsigned n,
                 tb::Rng& rng, Traffic& tr, tb::Checker& chk) {
    BoardHost& S = g_host[src];
    kolo_ctx* ctx = nullptr;
    int rc = kolo_ctx_open(S.dev, nullptr, &ctx);
    if (!chk.check(rc == 0, "board %d: kolo_ctx_open: %s", src, kolo_strerror(rc))) return false;
    uint8_t* local = static_cast<uint8_t*>(kolo_dma_alloc(S.dev, 8192));
    if (!chk.check(local != nullptr, "board %d: kolo_dma_alloc failed", src)) return false;
    const uint16_t node = (uint16_t)dst;
    const uint64_t base = (uint64_t)(uintptr_t)win;
    bool ok = true;
    for (unsigned i = 0; i < n && ok; i++) {
        const unsigned kind = (unsigned)rng.below(10);
        if (kind < 4) {  // put: blocking, non-blocking, inline or PIO
            const unsigned how = (unsigned)rng.below(4);
            size_t l = how == 2 ? 1 + rng.below(KOLO_INLINE_MAX) : how == 3 ? 1 + rng.below(KOLO_PIO_MAX)
                                                                            : 1 + rng.below(how == 1 ? 4096 : 1500);
            const size_t off = rng.below((uint32_t)(len - l + 1));
            for (size_t k = 0; k < l; k++) local[k] = (uint8_t)rng.next();
            if (how == 0) {
                rc = kolo_put(ctx, node, base + off, key, local, l);
            } else if (how == 1) {
                kolo_req req;
                rc = kolo_put_nb(ctx, node, base + off, key, local, l, &req);
                if (rc == 0) rc = kolo_wait(ctx, &req);
            } else if (how == 2) {
                rc = kolo_put_inline(ctx, node, base + off, key, local, l);
            } else {
                rc = kolo_put_pio(ctx, node, base + off, key, local, l);
            }
            if (rc == 0) rc = kolo_quiet(ctx);  // remote completion: the bytes are in the other host's memory
            ok &= chk.check(rc == 0, "board %d -> %d: put (%s) of %zu bytes at +%zu: %s", src, dst,
                               how == 0 ? "blocking" : how == 1 ? "nb" : how == 2 ? "inline" : "pio", l, off,
                               kolo_strerror(rc));
            std::memcpy(&sb[off], local, l);
            tr.puts++;
            tr.bytes += l;
        } else if (kind < 7) {  // get
            const size_t l = 1 + rng.below(rng.chance(50) ? 64 : 4096);
            const size_t off = rng.below((uint32_t)(len - l + 1));
            std::memset(local, 0xA5, l);
            if (rng.chance(50)) {
                rc = kolo_get(ctx, node, base + off, key, local, l);
            } else {
                kolo_req req;
                rc = kolo_get_nb(ctx, node, base + off, key, local, l, &req);
                if (rc == 0) rc = kolo_wait(ctx, &req);
            }
            ok &= chk.check(rc == 0, "board %d -> %d: get of %zu bytes at +%zu: %s", src, dst, l, off,
                               kolo_strerror(rc));
            if (ok) {
                size_t bad = l;
                for (size_t k = 0; k < l && bad == l; k++)
                    if (local[k] != sb[off + k]) bad = k;
                ok &= chk.check(bad == l, "board %d -> %d: get of %zu bytes at +%zu: byte %zu is %#x, want %#x",
                                   src, dst, l, off, bad, bad < l ? local[bad] : 0, bad < l ? sb[off + bad] : 0);
            }
            tr.gets++;
            tr.bytes += l;
        } else {  // atomic
            const int op = kAmoOps[rng.below(10)];
            const bool fetches = kolo_amo_fetches(op) != 0;
            const unsigned size = rng.chance(50) ? 4 : 8;
            const size_t off = size * rng.below((uint32_t)(len / size));
            uint64_t old = 0;
            std::memcpy(&old, &sb[off], size);
            const uint64_t operand = size == 4 ? (rng.next() & 0xFFFFFFFFull) : rng.next();
            const uint64_t compare = rng.chance(50) ? old : (size == 4 ? (rng.next() & 0xFFFFFFFFull) : rng.next());
            uint64_t fetched = ~0ull;
            rc = kolo_atomic(ctx, op, size, node, base + off, key, operand, compare, fetches ? &fetched : nullptr);
            if (rc == 0 && !fetches) rc = kolo_quiet(ctx);  // a non-fetching one completes at the quiet
            ok &= chk.check(rc == 0, "board %d -> %d: %s %u at +%zu: %s", src, dst, amo_name(op), size, off,
                               kolo_strerror(rc));
            if (size == 4) fetched &= 0xFFFFFFFFull;
            if (fetches)
                ok &= chk.check(fetched == old, "board %d -> %d: %s %u at +%zu fetched %#" PRIx64 ", want %#" PRIx64,
                               src, dst, amo_name(op), size, off, fetched, old);
            const uint64_t nv = amo_apply(op, old, operand, compare, size);
            std::memcpy(&sb[off], &nv, size);
            tr.atomics++;
        }
        if (ok) {  // the window's bytes (the other host's memory) are the scoreboard's
            size_t bad = len;
            for (size_t k = 0; k < len && bad == len; k++)
                if (win[k] != sb[k]) bad = k;
            ok &= chk.check(bad == len, "board %d's memory after op %u from board %d: byte %zu is %#x, want %#x",
                               dst, i, src, bad, bad < len ? win[bad] : 0, bad < len ? sb[bad] : 0);
        }
    }
    kolo_dma_free(S.dev, local);
    rc = kolo_ctx_close(ctx);
    ok &= chk.check(rc == 0, "board %d: kolo_ctx_close: %s", src, kolo_strerror(rc));
    return ok;
}

// Board dst opens a window over a seeded buffer in its host memory; board
// src's program runs against it.
bool direction(int src, int dst, unsigned n, tb::Rng& rng) {
    BoardHost& D = g_host[dst];
    const size_t len = 16384;
    uint8_t* win = static_cast<uint8_t*>(kolo_dma_alloc(D.dev, len));
    if (!g_chk->check(win != nullptr, "board %d: kolo_dma_alloc of the window failed", dst)) return false;
    for (size_t k = 0; k < len; k++) win[k] = (uint8_t)rng.next();
    std::vector<uint8_t> sb(win, win + len);
    uint8_t key = 0;
    const int w = kolo_win_open(D.dev, -1, win, len, KOLO_WIN_RWA, -1, 0, &key);
    if (!g_chk->check(w >= 0, "board %d: kolo_win_open: %s", dst, kolo_strerror(w))) return false;
    Traffic tr;
    const uint64_t t0 = g_sim.now();
    const bool ok = run_program(src, dst, win, len, key, sb, n, rng, tr, *g_chk);
    std::printf("  board %d -> board %d: %u puts, %u gets, %u atomics, %" PRIu64 " bytes, %s (%.2f ms simulated)\n",
                src, dst, tr.puts, tr.gets, tr.atomics, tr.bytes, ok ? "all checked" : "FAILED",
                (double)(g_sim.now() - t0) / kPsPerMs);
    const int rc = kolo_win_close(D.dev, w);
    g_chk->check(rc == 0, "board %d: kolo_win_close: %s", dst, kolo_strerror(rc));
    kolo_dma_free(D.dev, win);
    return ok;
}

// Both host programs at once, each in a thread of its own (its own seed,
// checker and scoreboard): traffic crosses both links both ways, and each
// NI is initiator and target at the same time.
bool both_at_once(unsigned n, tb::Rng& rng) {
    const size_t len = 16384;
    uint8_t* win[2];
    uint8_t key[2] = {0, 0};
    int w[2];
    std::vector<uint8_t> sb[2];
    for (int b = 0; b < 2; b++) {
        win[b] = static_cast<uint8_t*>(kolo_dma_alloc(g_host[b].dev, len));
        if (!g_chk->check(win[b] != nullptr, "board %d: kolo_dma_alloc of the window failed", b)) return false;
        for (size_t k = 0; k < len; k++) win[b][k] = (uint8_t)rng.next();
        sb[b].assign(win[b], win[b] + len);
        w[b] = kolo_win_open(g_host[b].dev, -1, win[b], len, KOLO_WIN_RWA, -1, 0, &key[b]);
        if (!g_chk->check(w[b] >= 0, "board %d: kolo_win_open: %s", b, kolo_strerror(w[b]))) return false;
    }
    tb::Rng r0(rng.next()), r1(rng.next());
    tb::Checker c0("board-sim-kc705 (board 0's program)"), c1("board-sim-kc705 (board 1's program)");
    Traffic t0, t1;
    bool ok0 = false, ok1 = false;
    const uint64_t ps0 = g_sim.now();
    std::thread th0([&] { ok0 = run_program(0, 1, win[1], len, key[1], sb[1], n, r0, t0, c0); });
    std::thread th1([&] { ok1 = run_program(1, 0, win[0], len, key[0], sb[0], n, r1, t1, c1); });
    th0.join();
    th1.join();
    const bool ok = ok0 && ok1 && c0.failures() == 0 && c1.failures() == 0;
    g_chk->check(ok, "both at once: %lu + %lu check(s) failed", c0.failures(), c1.failures());
    std::printf("  both at once: board 0 -> 1 %u puts, %u gets, %u atomics; board 1 -> 0 %u puts, %u gets, "
                "%u atomics; %" PRIu64 " bytes, %s (%.2f ms simulated)\n", t0.puts, t0.gets, t0.atomics, t1.puts,
                t1.gets, t1.atomics, t0.bytes + t1.bytes, ok ? "all checked" : "FAILED",
                (double)(g_sim.now() - ps0) / kPsPerMs);
    for (int b = 0; b < 2; b++) {
        const int rc = kolo_win_close(g_host[b].dev, w[b]);
        g_chk->check(rc == 0, "board %d: kolo_win_close: %s", b, kolo_strerror(rc));
        kolo_dma_free(g_host[b].dev, win[b]);
    }
    return ok;
}

// --power-cycle: the counters final_checks expects (0 without): board 0's
// link counters as they were when the links came back (what the outage
// counted: nothing may be added after it) with exactly the link downs
// expected, and board 0's router fault drops then (packets for the dead
// links, dropped whole by design)
bool g_pc = false;
uint32_t g_pc_base[2][2][16] = {};
uint32_t g_pc_drops[2] = {0, 0};

void final_checks() {
    static const int kClean[] = {0, 1, 4, 12, 13, 14, 15};  // crc, seq, replays, ctrl_errors, downs, miscabled, overflows
    static const char* const kCleanName[] = {"crc_errors", "seq_errors", "replays", "ctrl_errors", "link_downs",
                                             "miscabled", "rx_overflows"};
    for (int b = 0; b < 2; b++) {
        for (int p = 0; p < 2; p++) {
            g_chk->check(g_sim.link_state(b, p) == 2, "board %d %s: link not up at the end", b, kPortName[p]);
            for (size_t i = 0; i < sizeof kClean / sizeof kClean[0]; i++) {
                const uint32_t v = g_sim.link_counter(b, p, kClean[i]);
                const uint32_t want = g_pc_base[b][p][kClean[i]];
                g_chk->check(v == want, "board %d %s: %s %u, want %u", b, kPortName[p], kCleanName[i], v, want);
            }
            std::printf("  board %d %s: frames tx %u rx %u, bytes tx %u rx %u\n", b, kPortName[p],
                        g_sim.link_counter(b, p, 7), g_sim.link_counter(b, p, 8), g_sim.link_counter(b, p, 9),
                        g_sim.link_counter(b, p, 10));
        }
        const uint64_t rerr = (uint64_t)g_sim.top->mon_router_errors[(size_t)(2 * b)] |
                              (uint64_t)g_sim.top->mon_router_errors[(size_t)(2 * b + 1)] << 32;
        const uint32_t drops = (uint32_t)(g_sim.top->mon_fault_drops >> (32 * b));
        g_chk->check(rerr == 0, "board %d: router errors %#" PRIx64, b, rerr);
        g_chk->check(drops == g_pc_drops[b], "board %d: router fault drops %u, want %u", b, drops, g_pc_drops[b]);
        // stat_pcie {bad_tlp, cpl_err, cpl_timeout, ca, ur}, 16 bits each
        uint32_t pc[5];
        for (int i = 0; i < 5; i++) {
            const unsigned lo = 80 * (unsigned)b + 16 * (unsigned)i;
            pc[i] = (g_sim.top->mon_pcie[lo / 32] >> (lo % 32)) & 0xFFFFu;
            if (lo % 32 > 16) pc[i] |= (g_sim.top->mon_pcie[lo / 32 + 1] << (32 - lo % 32)) & 0xFFFFu;
        }
        g_chk->check(pc[0] == 0 && pc[1] == 0 && pc[2] == 0 && pc[3] == 0 && pc[4] == 0,
                     "board %d: PCIe counters ur %u ca %u cpl_timeout %u cpl_err %u bad_tlp %u", b, pc[0], pc[1],
                     pc[2], pc[3], pc[4]);
        BoardHost& H = g_host[b];
        g_chk->check(H.rc->violations().empty(), "board %d: %zu PCIe rule violations (first: %s)", b,
                     H.rc->violations().size(), H.rc->violations().empty() ? "" : H.rc->violations()[0].c_str());
        g_chk->check(H.bad_dma == 0 && H.rc->mem_errors() == 0, "board %d: %" PRIu64 " device accesses outside the "
                     "DMA-mapped memory", b, H.bad_dma);
        g_chk->check(H.mmio_errors == 0, "board %d: %" PRIu64 " MMIO reads answered with an error", b, H.mmio_errors);
        std::printf("  board %d: host MMIO writes %" PRIu64 " reads %" PRIu64 ", device reads %" PRIu64
                    " writes %" PRIu64 ", %" PRIu64 " straddled beats, %" PRIu64 " user clock edges\n",
                    b, H.mmio_writes, H.mmio_reads, H.rc->dev_reads(), H.rc->dev_writes(), H.model->n_straddle,
                    H.edges);
    }
}

// ---- --power-cycle: board 1 loses power under traffic, comes back, boots again --------------
// The cut (power_off, at a seeded time while board 0's program runs): board
// 1's three clocks stop at its FPGA's pins (tb_board_sim_kc705.v power[1]:
// the MMCM, CPLL and PCIe models lose lock, the chip is held in reset, the
// transmitters go quiet), its host asserts PERST# and its root port's link
// is down (host writes dropped, reads answered all ones), the cables carry
// nothing into it. The return (power_on): the clocks run again, the host
// releases PERST# 1..3 us later and enumerates the board anew (a fresh
// root-complex and block model). What the model does not reproduce of a
// real power cycle or reflash: FPGA state without a reset (RAM contents:
// the firmware's data memory, tables, queues) keeps its value where the
// reloaded bitstream would restore its initial one; only the reset pins
// (the MMCM's lock, PERST#, the GT reset FSMs) take the board back.
// --plant=no-reset: the clocks keep running (board 1's lanes and PCIe are
// cut, its chip is never reset: no new boot); --plant=link-left-down: board
// 1's X- transmitter stays dead after the return (board 0's X+ stays down).
struct PcState {
    uint64_t t_cut = 0, t_on = 0;
    size_t console_at_cut[2] = {0, 0};
    unsigned host_gen = 0;
    uint64_t seed = 1;
};
PcState g_pcs;

void power_off_now() {
    const int b = 1;
    g_pcs.t_cut = g_sim.now();
    g_powered[b] = false;
    if (g_plant != "no-reset") g_sim.top->power &= (uint8_t)~(1u << b);
    g_sim.top->pcie_perst_n &= (uint8_t)~(1u << b);
    g_host[b].link_down = true;
    for (int i = 0; i < 2; i++) g_pcs.console_at_cut[i] = g_host[i].console.size();
    std::printf("  power: board 1 off at %.4f ms%s\n", (double)g_pcs.t_cut / kPsPerMs,
                g_plant == "no-reset" ? " (plant no-reset: its clocks keep running)" : "");
}

void power_on(tb::Rng& rng) {
    const int b = 1;
    g_pcs.t_on = g_sim.now();
    // what was in flight towards the dead receivers is gone
    for (int h = 0; h < 12; h++)
        if (g_gt[h].dst >= 0 && g_gt[h].dst / 6 == b)
            while (g_gt[h].out.queued()) g_gt[h].out.lane().pop();
    g_powered[b] = true;
    g_sim.top->power |= (uint8_t)(1u << b);
    if (g_reflash) {  // the NI's end-to-end tables as a bitstream reload leaves them (all 0)
        g_sim.top->reflash_known = g_plant == "reflash-no-resync" ? (uint8_t)(1u << b) : 0;
        g_sim.top->reflash_gen = (uint8_t)(1u << b);
        g_sim.run_ps(1000);
        g_sim.top->reflash_gen = 0;
    }
    if (g_plant == "link-left-down") g_gt[6 + 1].out.lane().set_dead(true);
    std::printf("  power: board 1 on at %.4f ms (off %.3f ms)%s\n", (double)g_pcs.t_on / kPsPerMs,
                (double)(g_pcs.t_on - g_pcs.t_cut) / kPsPerMs,
                g_plant == "link-left-down" ? " (plant link-left-down: its X- transmitter stays dead)"
                : g_plant == "reflash-no-resync" ? " (reflash, plant reflash-no-resync: generations cleared, every (destination, tag) known)"
                : g_reflash ? " (reflash-gen: its NI's end-to-end tables back to their bitstream values)" : "");
    g_sim.run_ps(1 * kPsPerUs + rng.below(2000) * 1000ull);
    // the host enumerates the board anew: its old root-complex state is gone
    BoardHost& H = g_host[b];
    g_chk->check(H.rc->violations().empty(), "board 1 before the cut: %zu PCIe rule violations (first: %s)",
                 H.rc->violations().size(), H.rc->violations().empty() ? "" : H.rc->violations()[0].c_str());
    H.started = false;
    H.pins = X7Pins();
    host_init(H, b, g_pcs.seed + 1000 * ++g_pcs.host_gen);
    H.link_down = false;
    g_sim.top->pcie_perst_n |= (uint8_t)(1u << b);
}

uint32_t ni_read(BoardHost& H, uint32_t off) {
    uint64_t v = 0;
    g_chk->check(kolo_dev_read_reg(H.dev, off, 4, &v) == 0, "board %d: NI register %#x not readable", H.board, off);
    return (uint32_t)v;
}

// end-to-end reliability on (docs/ni.md section 10): without it a request
// lost with the dead board never completes. Its timeout 5000 cycles (20 us;
// 20000 after reset): a packet lost with the board is given up after its 8
// retries in about 0.2 ms instead of 0.75 ms (simulated time is dear here)
constexpr uint32_t kE2eTimeout = 5000;
bool e2e_on(BoardHost& H) {
    int rc = kolo_dev_write_reg(H.dev, KOLO_CSR_E2E_TIMEOUT, 4, kE2eTimeout);
    if (rc == 0)
        rc = kolo_dev_write_reg(H.dev, KOLO_CSR_E2E_CTRL, 4, KOLO_CSR_E2E_CTRL_RESET | KOLO_CSR_E2E_CTRL_EN_MASK);
    const uint32_t v = ni_read(H, KOLO_CSR_E2E_CTRL), t = ni_read(H, KOLO_CSR_E2E_TIMEOUT);
    return g_chk->check(rc == 0 && (v & KOLO_CSR_E2E_CTRL_EN_MASK) && t == kE2eTimeout, "board %d: E2E_CTRL %#x, "
                        "E2E_TIMEOUT %u after enabling (rc %d)", H.board, v, t, rc);
}

struct CutStats {
    unsigned ok = 0, ok_after_cut = 0, bad_dst = 0, net_timeout = 0, fast_bad_dst = 0;
    uint64_t undefined = 0;  // window bytes an operation that failed may or may not have written
    double first_err_ms = 0, last_err_ms = 0, max_op_us = 0;
};

// Board 0's program into board 1's window across the cut: every operation
// that reports success must be right (a GET's bytes and a fetched value
// against the scoreboard, board 1's host memory equal to it after each one),
// and no operation issued after the cut may report success (its target is
// dead); one that fails must fail with BAD_DST (the destination is
// unreachable) or NET_TIMEOUT (no response after the retries), only after
// the cut, and its bytes count as undefined in the scoreboard (it may have
// been executed before its response was lost). The program goes on until
// it has seen 4 operations refused at once (BAD_DST in under 5 us: the
// firmware's table marks node 1 unreachable).
bool run_through_cut(uint8_t* win, size_t len, uint8_t key, std::vector<uint8_t>& sb, std::vector<uint8_t>& defd,
                     tb::Rng& rng, uint64_t cut_after_ps, CutStats& st) {
    BoardHost& S = g_host[0];
    kolo_ctx* ctx = nullptr;
    int rc = kolo_ctx_open(S.dev, nullptr, &ctx);
    if (!g_chk->check(rc == 0, "board 0: kolo_ctx_open: %s", kolo_strerror(rc))) return false;
    uint8_t* local = static_cast<uint8_t*>(kolo_dma_alloc(S.dev, 8192));
    if (!g_chk->check(local != nullptr, "board 0: kolo_dma_alloc failed")) return false;
    const uint64_t base = (uint64_t)(uintptr_t)win;
    g_sim.on_cut = power_off_now;
    g_sim.cut_at = g_sim.now() + cut_after_ps;
    bool ok = true;
    unsigned after_down = 0;  // operations issued with both of board 0's X links down (all must fail)
    for (unsigned i = 0; ok && after_down < 3; i++) {
        const uint64_t t0 = g_sim.now();
        const bool cut_before = g_pcs.t_cut != 0;
        const bool down_before = cut_before && g_sim.link_state(0, 0) == 0 && g_sim.link_state(0, 1) == 0;
        if (down_before) after_down++;
        const unsigned kind = (unsigned)rng.below(10);
        size_t off = 0, l = 0;
        bool writes = false, fetches = false;
        uint64_t fetched = 0, old = 0, nv = 0;
        unsigned size = 8;
        const char* what = "";
        kolo_req req;
        if (kind < 4) {  // put: inline, PIO, bounce buffer or DMA by its length
            l = rng.chance(30) ? 1 + rng.below(KOLO_PIO_MAX) : 1 + rng.below(1024);
            off = rng.below((uint32_t)(len - l + 1));
            for (size_t k = 0; k < l; k++) local[k] = (uint8_t)rng.next();
            rc = kolo_put_nb(ctx, 1, base + off, key, local, l, &req);
            writes = true;
            what = "put";
        } else if (kind < 7) {  // get
            l = 1 + rng.below(rng.chance(50) ? 64 : 512);
            off = rng.below((uint32_t)(len - l + 1));
            std::memset(local, 0xA5, l);
            rc = kolo_get_nb(ctx, 1, base + off, key, local, l, &req);
            what = "get";
        } else {  // atomic
            const int op = kAmoOps[rng.below(10)];
            fetches = kolo_amo_fetches(op) != 0;
            size = rng.chance(50) ? 4 : 8;
            off = size * rng.below((uint32_t)(len / size));
            l = size;
            std::memcpy(&old, &sb[off], size);
            const uint64_t operand = size == 4 ? (rng.next() & 0xFFFFFFFFull) : rng.next();
            const uint64_t compare = rng.chance(50) ? old : (size == 4 ? (rng.next() & 0xFFFFFFFFull) : rng.next());
            fetched = ~0ull;
            rc = kolo_atomic_nb(ctx, op, size, 1, base + off, key, operand, compare, fetches ? &fetched : nullptr, &req);
            nv = amo_apply(op, old, operand, compare, size);
            writes = true;
            what = amo_name(op);
        }
        // the completion, within 1.5 ms of simulated time (the retries take under 1 ms): a hang is a failure
        if (rc == 0) {
            for (;;) {
                const int t = kolo_test(ctx, &req);
                if (t == 1) {
                    rc = req.status;
                    break;
                }
                if (t < 0) {
                    rc = t;
                    break;
                }
                if (g_sim.now() - t0 > 1500 * kPsPerUs) {
                    g_chk->check(false, "board 0 -> 1: %s of %zu bytes at +%zu issued at %.4f ms (board 1's power off "
                                 "at %.4f ms) not complete after 1.5 ms: a hang", what, l, off, (double)t0 / kPsPerMs,
                                 (double)g_pcs.t_cut / kPsPerMs);
                    std::printf("  board 0 at the hang: X link states %u %u, RT_UNREACHABLE %u, RT_EPOCH %#x, "
                                "E2E_CTRL %#x retx %u timeouts %u unreach %u dup_req %u dup_resp %u\n",
                                g_sim.link_state(0, 0), g_sim.link_state(0, 1), svc_read(S, KOLO_SVC_RT_UNREACHABLE),
                                svc_read(S, KOLO_SVC_RT_EPOCH), ni_read(S, KOLO_CSR_E2E_CTRL),
                                ni_read(S, KOLO_CSR_E2E_RETX), ni_read(S, KOLO_CSR_E2E_TIMEOUTS),
                                ni_read(S, KOLO_CSR_E2E_UNREACH), ni_read(S, KOLO_CSR_E2E_DUP_REQ),
                                ni_read(S, KOLO_CSR_E2E_DUP_RESP));
                    return false;
                }
                g_sim.run_ps(200000);
            }
        }
        if (size == 4) fetched &= 0xFFFFFFFFull;
        const uint64_t t1 = g_sim.now();
        const double us = (double)(t1 - t0) / kPsPerUs;
        if (us > st.max_op_us) st.max_op_us = us;
        bool def = true;
        for (size_t k = 0; k < l; k++) def = def && defd[off + k];
        if (rc == 0) {
            st.ok++;
            if (cut_before) st.ok_after_cut++;
            ok &= g_chk->check(!cut_before, "board 0 -> 1: %s of %zu bytes at +%zu issued %.1f us after board 1's "
                               "power went off reports success", what, l, off, (double)(t0 - g_pcs.t_cut) / kPsPerUs);
            if (kind >= 4 && kind < 7) {
                size_t bad = l;
                for (size_t k = 0; k < l && bad == l; k++)
                    if (defd[off + k] && local[k] != sb[off + k]) bad = k;
                ok &= g_chk->check(bad == l, "board 0 -> 1: get of %zu bytes at +%zu: byte %zu is %#x, want %#x", l,
                                   off, bad, bad < l ? local[bad] : 0, bad < l ? sb[off + bad] : 0);
            } else if (kind >= 7) {
                if (fetches && def)
                    ok &= g_chk->check(fetched == old, "board 0 -> 1: %s %u at +%zu fetched %#" PRIx64 ", want %#"
                                       PRIx64, what, size, off, fetched, old);
                if (def) std::memcpy(&sb[off], &nv, size);
            } else {
                std::memcpy(&sb[off], local, l);
                for (size_t k = 0; k < l; k++) defd[off + k] = 1;
            }
        } else {
            const double ms = (double)t1 / kPsPerMs;
            if (!st.bad_dst && !st.net_timeout) st.first_err_ms = ms;
            st.last_err_ms = ms;
            if (rc == KOLO_E_BAD_DST) st.bad_dst++;
            if (rc == KOLO_E_NET_TIMEOUT) st.net_timeout++;
            ok &= g_chk->check(rc == KOLO_E_BAD_DST || rc == KOLO_E_NET_TIMEOUT, "board 0 -> 1: %s of %zu bytes at "
                               "+%zu: %s (want success, BAD_DST or NET_TIMEOUT)", what, l, off, kolo_strerror(rc));
            ok &= g_chk->check(t1 >= g_pcs.t_cut && g_pcs.t_cut != 0, "board 0 -> 1: %s of %zu bytes at +%zu failed "
                               "(%s) at %.4f ms, before board 1's power went off", what, l, off, kolo_strerror(rc),
                               ms);
            if (writes)
                for (size_t k = 0; k < l; k++) {
                    if (defd[off + k]) st.undefined++;
                    defd[off + k] = 0;
                }
            if (rc == KOLO_E_BAD_DST && us < 5.0) st.fast_bad_dst++;
        }
        if (ok) {  // board 1's host memory: every defined byte is the scoreboard's
            size_t bad = len;
            for (size_t k = 0; k < len && bad == len; k++)
                if (defd[k] && win[k] != sb[k]) bad = k;
            ok &= g_chk->check(bad == len, "board 1's memory after op %u from board 0: byte %zu is %#x, want %#x", i,
                               bad, bad < len ? win[bad] : 0, bad < len ? sb[bad] : 0);
        }
    }
    kolo_dma_free(S.dev, local);
    rc = kolo_ctx_close(ctx);
    ok &= g_chk->check(rc == 0, "board 0: kolo_ctx_close after the cut: %s", kolo_strerror(rc));
    return ok;
}

// Board 0's view of its two X links (docs/registers.md through libkolo's
// service window, and the chip's own counters): state, LINK_DOWN_COUNT and
// link_downs each `downs`; the firmware running, its installed table's
// fault digest (SYS_FW_STATE) that of no fault (`clean`, read before the
// cut) while the links are up and another one while node 1 is cut off
uint32_t g_clean_digest = 0;
bool board0_view(const char* when, bool up, unsigned downs) {
    BoardHost& H = g_host[0];
    bool ok = true;
    for (int p = 0; p < 2; p++) {
        const uint32_t st = svc_read(H, KOLO_SVC_LINK_STATUS(p));
        const uint32_t dc = svc_read(H, KOLO_SVC_LINK_DOWN_COUNT(p));
        ok &= g_chk->check(((st & KOLO_SVC_LINK_STATUS_UP_MASK) != 0) == up && g_sim.link_state(0, p) == (up ? 2u : 0u),
                           "board 0 %s %s: LINK_STATUS %#x, link state %u (want %s)", kPortName[p], when, st,
                           g_sim.link_state(0, p), up ? "up" : "down");
        ok &= g_chk->check(dc == downs && g_sim.link_counter(0, p, 13) == downs, "board 0 %s %s: LINK_DOWN_COUNT %u, "
                           "link_downs %u (want %u)", kPortName[p], when, dc, g_sim.link_counter(0, p, 13), downs);
    }
    const uint32_t fw = svc_read(H, KOLO_SVC_SYS_FW_STATE);
    const uint32_t digest = (fw & KOLO_SVC_SYS_FW_STATE_FAULT_GEN_MASK) >> KOLO_SVC_SYS_FW_STATE_FAULT_GEN_SHIFT;
    ok &= g_chk->check((fw & KOLO_SVC_SYS_FW_STATE_STAGE_MASK) == 3 && (digest == g_clean_digest) == up, "board 0 %s: "
                       "firmware stage %u, fault digest %#x (no faults: %#x; want running, %s)", when,
                       fw & KOLO_SVC_SYS_FW_STATE_STAGE_MASK, digest, g_clean_digest, up ? "no faults" : "faults");
    std::printf("  board 0 %s: X+ %s, X- %s, LINK_DOWN_COUNT %u %u, firmware stage %u fault digest %#x, RT_EPOCH %#x, "
                "RT_SWITCHES %u, RT_UNREACHABLE %u, E2E retx %u timeouts %u unreach %u dup_req %u\n", when,
                g_sim.link_state(0, 0) == 2 ? "up" : g_sim.link_state(0, 0) == 1 ? "training" : "down",
                g_sim.link_state(0, 1) == 2 ? "up" : g_sim.link_state(0, 1) == 1 ? "training" : "down",
                svc_read(H, KOLO_SVC_LINK_DOWN_COUNT(0)), svc_read(H, KOLO_SVC_LINK_DOWN_COUNT(1)),
                fw & KOLO_SVC_SYS_FW_STATE_STAGE_MASK, digest, svc_read(H, KOLO_SVC_RT_EPOCH),
                svc_read(H, KOLO_SVC_RT_SWITCHES), svc_read(H, KOLO_SVC_RT_UNREACHABLE), ni_read(H, KOLO_CSR_E2E_RETX),
                ni_read(H, KOLO_CSR_E2E_TIMEOUTS), ni_read(H, KOLO_CSR_E2E_UNREACH), ni_read(H, KOLO_CSR_E2E_DUP_REQ));
    return ok;
}

bool power_cycle(unsigned n, tb::Rng& rng) {
    bool ok = e2e_on(g_host[0]) && e2e_on(g_host[1]);
    // traffic both ways before (the target's duplicate records of board 1's tags fill)
    if (ok) ok = both_at_once(n, rng);
    const uint32_t sw0 = svc_read(g_host[0], KOLO_SVC_RT_SWITCHES);
    g_clean_digest = (svc_read(g_host[0], KOLO_SVC_SYS_FW_STATE) & KOLO_SVC_SYS_FW_STATE_FAULT_GEN_MASK) >>
                     KOLO_SVC_SYS_FW_STATE_FAULT_GEN_SHIFT;
    if (ok) ok = board0_view("before the cut", true, 0);
    // board 0's program into board 1's window; the cut 20..80 us into it
    const size_t len = 16384;
    uint8_t* win = static_cast<uint8_t*>(kolo_dma_alloc(g_host[1].dev, len));
    if (!ok || !g_chk->check(win != nullptr, "board 1: kolo_dma_alloc of the window failed")) return false;
    for (size_t k = 0; k < len; k++) win[k] = (uint8_t)rng.next();
    std::vector<uint8_t> sb(win, win + len), defd(len, 1);
    uint8_t key = 0;
    const int w = kolo_win_open(g_host[1].dev, -1, win, len, KOLO_WIN_RWA, -1, 0, &key);
    if (!g_chk->check(w >= 0, "board 1: kolo_win_open: %s", kolo_strerror(w))) return false;
    // board 1's host program: a context and a DMA buffer of its own, opened while the board is alive
    // (used during the outage: libkolo must see the card gone, kolo.h KOLO_E_GONE)
    kolo_ctx* ctx1 = nullptr;
    int rc1 = kolo_ctx_open(g_host[1].dev, nullptr, &ctx1);
    if (!g_chk->check(rc1 == 0, "board 1: kolo_ctx_open: %s", kolo_strerror(rc1))) return false;
    uint8_t* src1 = static_cast<uint8_t*>(kolo_dma_alloc(g_host[1].dev, 4096));
    if (!g_chk->check(src1 != nullptr, "board 1: kolo_dma_alloc failed")) return false;
    for (size_t k = 0; k < 4096; k++) src1[k] = (uint8_t)rng.next();
    CutStats st;
    const uint64_t t0 = g_sim.now();
    g_sim.deadline = t0 + 3 * kPsPerMs;  // every operation ends (the retries: under 1 ms)
    ok = run_through_cut(win, len, key, sb, defd, rng, (20 + rng.below(61)) * kPsPerUs, st);
    std::printf("  board 0 -> board 1 across the cut: %u operations succeeded (%u of them completing after the cut), "
                "%u BAD_DST (%u at once), %u NET_TIMEOUT, first error at %.4f ms, last at %.4f ms, longest "
                "operation %.1f us, %" PRIu64 " window bytes left undefined (%.3f ms simulated)\n", st.ok,
                st.ok_after_cut, st.bad_dst, st.fast_bad_dst, st.net_timeout, st.first_err_ms, st.last_err_ms,
                st.max_op_us, st.undefined, (double)(g_sim.now() - t0) / kPsPerMs);
    ok &= g_chk->check(st.bad_dst + st.net_timeout >= 3, "board 0 -> 1: %u operations ended with an error during the "
                       "outage (want 3 at least)", st.bad_dst + st.net_timeout);
    // board 0 keeps working and reports the links down
    if (ok) ok = board0_view("during the outage", false, 1);
    const uint32_t sw1 = svc_read(g_host[0], KOLO_SVC_RT_SWITCHES);
    ok &= g_chk->check(sw1 > sw0, "board 0: RT_SWITCHES %u during the outage, %u before (no table for the fault)",
                       sw1, sw0);
    // RT_UNREACHABLE: the operations refused at once, and each packet end-to-end reliability gave up
    // for an invalid entry (E2E_UNREACH: a PUT of several packets may count more than once)
    const uint32_t unreach = svc_read(g_host[0], KOLO_SVC_RT_UNREACHABLE);
    const uint32_t e2e_un = ni_read(g_host[0], KOLO_CSR_E2E_UNREACH);
    ok &= g_chk->check(unreach >= st.bad_dst && unreach <= st.bad_dst + e2e_un, "board 0: RT_UNREACHABLE %u, the "
                       "program saw %u BAD_DST, E2E_UNREACH %u", unreach, st.bad_dst, e2e_un);
    const uint32_t e2e_to = ni_read(g_host[0], KOLO_CSR_E2E_TIMEOUTS);
    ok &= g_chk->check(e2e_to >= st.net_timeout, "board 0: E2E_TIMEOUTS %u, the program saw %u NET_TIMEOUT", e2e_to,
                       st.net_timeout);
    // board 1's host: its program goes on on the dead board (MMIO writes dropped, reads answered all
    // ones): a PUT posted (its doorbell lost) and waited for must end with KOLO_E_GONE, not hang (the
    // simulated-time limit above catches a wait that never ends); then every call answers KOLO_E_GONE
    // without touching the card, and the handle closes
    {
        BoardHost& H = g_host[1];
        const uint64_t ur0 = H.mmio_ur, t_wait = g_sim.now();
        kolo_req r1;
        int rc = kolo_put_nb(ctx1, 0, (uint64_t)(uintptr_t)src1, 0, src1, 1024, &r1);
        ok &= g_chk->check(rc == 0, "board 1 on its dead card: kolo_put_nb %s (want success: the doorbell is "
                           "only lost)", kolo_strerror(rc));
        if (rc == 0) {
            rc = kolo_wait(ctx1, &r1);
            ok &= g_chk->check(rc == KOLO_E_GONE && r1.done && r1.status == KOLO_E_GONE, "board 1 on its dead card: "
                               "kolo_wait %s, request done %d status %s (want KOLO_E_GONE)", kolo_strerror(rc),
                               (int)r1.done, kolo_strerror(r1.status));
        }
        std::printf("  board 1's host on its dead card: the PUT's wait ended with %s after %.1f us, %" PRIu64
                    " reads answered all ones on the way\n", kolo_strerror(rc),
                    (double)(g_sim.now() - t_wait) / kPsPerUs, H.mmio_ur - ur0);
        ok &= g_chk->check(kolo_dev_alive(H.dev, 0) == 0, "board 1: kolo_dev_alive 1 on a dead card");
        const uint64_t ur1 = H.mmio_ur, dr1 = H.mmio_dropped, wr1 = H.mmio_writes, rd1 = H.mmio_reads;
        uint64_t v = 0;
        rc = kolo_dev_read_reg(H.dev, KOLO_CSR_ID, 4, &v);
        ok &= g_chk->check(rc == KOLO_E_GONE, "board 1 gone: kolo_dev_read_reg %s", kolo_strerror(rc));
        rc = kolo_ctx_close(ctx1);
        ok &= g_chk->check(rc == KOLO_E_GONE, "board 1 gone: kolo_ctx_close %s", kolo_strerror(rc));
        rc = kolo_win_close(H.dev, w);
        ok &= g_chk->check(rc == KOLO_E_GONE, "board 1 gone: kolo_win_close %s", kolo_strerror(rc));
        kolo_close(H.dev);
        H.dev = nullptr;
        ok &= g_chk->check(H.mmio_ur == ur1 && H.mmio_dropped == dr1 && H.mmio_writes == wr1 && H.mmio_reads == rd1,
                           "board 1 gone: %" PRIu64 " reads and %" PRIu64 " writes tried after libkolo knew it",
                           H.mmio_ur - ur1 + H.mmio_reads - rd1, H.mmio_dropped - dr1 + H.mmio_writes - wr1);
        std::printf("  board 1's host closes its handle during the outage: %" PRIu64 " MMIO writes dropped, %" PRIu64
                    " reads answered all ones by its root port in all\n", H.mmio_dropped, H.mmio_ur);
    }
    // the outage lasts 0.8..1.2 ms from the cut; then the power returns
    const uint64_t t_on = g_pcs.t_cut + (800 + rng.below(401)) * kPsPerUs;
    if (g_sim.now() < t_on) g_sim.run_ps(t_on - g_sim.now());
    if (ok) ok = board0_view("at the return", false, 1);
    g_sim.deadline = 0;  // the boot has its own limits
    power_on(rng);
    ok = ok && wait_links(2.0);
    if (ok) std::printf("  links up again at %.3f ms (%.3f ms after the power returned)\n",
                        (double)g_sim.now() / kPsPerMs, (double)(g_sim.now() - g_pcs.t_on) / kPsPerMs);
    // board 1's host program opens the board anew
    if (ok) {
        char err[256] = "";
        const int rc = kolo_open_backend(&kBackend, &g_host[1], &g_host[1].dev, err, sizeof err);
        ok = g_chk->check(rc == 0, "board 1 after the return: kolo_open_backend: %s (%s)", kolo_strerror(rc), err);
    }
    ok = ok && wait_running(20.0) && check_identity_and_links();
    if (ok) {
        std::printf("  firmware running on both again at %.3f ms\n", (double)g_sim.now() / kPsPerMs);
        const std::string again = g_host[1].console.substr(g_pcs.console_at_cut[1]);
        ok = g_chk->check(again.find("kolo firmware") != std::string::npos, "board 1: no firmware banner on the "
                          "console after the return (got \"%s\")", again.c_str());
    }
    if (ok) ok = board0_view("after the return", true, 1);
    const uint32_t sw2 = svc_read(g_host[0], KOLO_SVC_RT_SWITCHES);
    ok &= g_chk->check(sw2 > sw1, "board 0: RT_SWITCHES %u after the return, %u during the outage (no table for the "
                       "return)", sw2, sw1);
    // what the outage counted on board 0 stays; nothing may be added from here
    for (int p = 0; p < 2; p++)
        for (int c = 0; c < 16; c++) g_pc_base[0][p][c] = g_sim.link_counter(0, p, c);
    g_pc_drops[0] = (uint32_t)(g_sim.top->mon_fault_drops >> 0);
    std::printf("  board 0's counters from the outage: X+ crc %u seq %u ctrl %u replays %u, X- crc %u seq %u ctrl %u "
                "replays %u, router fault drops %u\n", g_pc_base[0][0][0], g_pc_base[0][0][1], g_pc_base[0][0][12],
                g_pc_base[0][0][4], g_pc_base[0][1][0], g_pc_base[0][1][1], g_pc_base[0][1][12], g_pc_base[0][1][4],
                g_pc_drops[0]);
    // traffic both ways again, with end-to-end reliability on both NIs (board 1's is off after its reset)
    if (ok) ok = e2e_on(g_host[1]);
    g_sim.deadline = g_sim.now() + 6 * kPsPerMs;
    if (ok) ok = both_at_once(n, rng);
    return ok;
}

// ---- --serve: the boards as a kolo-sim server (kolo_sim_server.h) ------------------------------
// Each board's PCIe endpoint serves one PE process (OpenSHMEM or libkolo,
// started by someone else with KOLO_SIM_SHM and its rank) over the shared
// segment kolo-sim --server makes: the PE's MMIO ring becomes its board's
// root-complex requests (a write an MWr, a read an MRd whose completion
// answers it), the board's DMA goes into the PE's address space
// (process_vm_readv/writev). PE i is on board i (--plant=pe-swap: crossed).
struct Served {
    unsigned pe = 0;
    bool attached = false, done = false;
    bool rd_pending = false;
    int rd_handle = -1;
    unsigned rd_size = 0;
    uint64_t rd_pos = 0, rd_t0 = 0, rd_off = 0;
    int rd_bar = 0;
    uint64_t mmio_w = 0, mmio_r = 0;
};
kolo_sim_shm* g_shm = nullptr;
size_t g_shm_size = 0;
std::string g_shm_name;
Served g_srv[2];
bool g_serve_failed = false;  // a board did not answer
bool g_det = false;           // --det
bool g_det_step = false;      // --det: a step is under way: writes into the PEs are only noted
bool g_det_pending[2] = {};   // PE i was written to in this step
uint64_t g_det_wake_ps[2] = {};  // --det: a poll's wake of PE i is due then (ps); 0: none
constexpr uint64_t kPsPerCoreCycle = 4000;  // the 250 MHz core clock of the segment's header

// after writes into PE pe (DMA, a read's answer, ring room): its waits look again;
// --det, within a step: at the step's end (det_flush)
void pe_wrote(unsigned pe) {
    if (g_det_step)
        g_det_pending[pe] = true;
    else
        kolo_sim_pe_bump(g_shm, pe);
}

// --det: the step is over: the PEs written to see it all at once
void det_flush() {
    if (!g_det_step) return;
    g_det_step = false;
    kolo_sim_det_end_step(g_shm);
    for (unsigned pe = 0; pe < 2; pe++)
        if (g_det_pending[pe]) {
            g_det_pending[pe] = false;
            kolo_sim_pe_bump(g_shm, pe);
        }
}

// --det: wait until both PEs wait on the boards, then begin a step (true); false
// (with a FAIL) when a PE is gone without detaching or the wall-clock limit passes
bool det_hold(std::chrono::steady_clock::time_point w0, double wall_s) {
    for (;;) {
        const uint32_t ev = kolo_sim_det_event(g_shm);
        if (g_plant == "det-no-hold" || kolo_sim_det_try_step(g_shm, nullptr, nullptr)) {
            g_det_step = g_plant != "det-no-hold";
            // the polls that asked for a wake since: that many core cycles on
            for (unsigned pe = 0; pe < 2; pe++)
                kolo_sim_det_take_wake(g_shm, pe, g_sim.now(), kPsPerCoreCycle, &g_det_wake_ps[pe]);
            return true;
        }
        if (__atomic_load_n(&g_shm->exit_request, __ATOMIC_ACQUIRE)) return true;  // (the loop ends the job)
        for (unsigned pe = 0; pe < 2; pe++) {
            int32_t pid = 0;
            if (kolo_sim_server_pe_state(g_shm, pe, &pid) == KOLO_SIM_PE_GONE) {
                std::printf("FAIL board-sim-kc705: PE %u (pid %d) is gone without detaching\n", pe, (int)pid);
                return false;
            }
        }
        const double w = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
        if (w > wall_s) {
            std::printf("FAIL board-sim-kc705: serving: %.0f s wall-clock limit, --det: a PE did not wait on "
                        "the boards (computing for ever?) at %.3f ms:", wall_s, (double)g_sim.now() / kPsPerMs);
            for (unsigned pe = 0; pe < 2; pe++)
                std::printf(" PE %u %s", pe, kolo_sim_det_slot_blocked(g_shm, pe) ? "waits" : "runs");
            std::printf("\n");
            return false;
        }
        kolo_sim_det_wait(g_shm, ev, 2000000L);  // a PE starting to wait wakes us
    }
}

// --det, after a step: the polls' wakes that have come (their PE looks again)
void det_wakes_due() {
    for (unsigned pe = 0; pe < 2; pe++)
        if (kolo_sim_det_wake_due(g_shm, pe, g_sim.now(), &g_det_wake_ps[pe], 1)) pe_wrote(pe);
}

void serve_cleanup() {
    if (g_shm) kolo_sim_server_close(g_shm, g_shm_size, g_shm_name.c_str());
    g_shm = nullptr;
}

// the PE's MMIO requests into its board's root complex, in ring order; a
// read waits for its completion (one in flight per PE, as the client sends)
bool serve_ring(int b) {
    BoardHost& H = g_host[b];
    Served& S = g_srv[b];
    while (!S.rd_pending) {
        int broke = 0;
        const kolo_mmio_req* q = kolo_sim_ring_peek(g_shm, S.pe, &broke);
        if (broke) {
            std::printf("FAIL board-sim-kc705: PE %u broke its MMIO ring\n", S.pe);
            return false;
        }
        if (!q || H.rc->host_queued() >= kHostQueue) break;
        const uint64_t base = q->bar == 0 ? kBar0 : kBar2;
        int is_read = 0;
        const unsigned len = kolo_sim_req_len(q, &is_read);
        if (len && !is_read) {
            H.rc->host_write(base + q->offset, reinterpret_cast<const uint8_t*>(q->data), len);
            H.mmio_writes++;
            S.mmio_w++;
        } else if (len) {
            S.rd_size = len;
            S.rd_handle = H.rc->host_read(base + q->offset, S.rd_size);
            S.rd_pos = kolo_sim_ring_pos(g_shm, S.pe);
            S.rd_t0 = g_sim.now();
            S.rd_off = q->offset;
            S.rd_bar = (int)q->bar;
            S.rd_pending = true;
            H.mmio_reads++;
            S.mmio_r++;
        } else {
            std::printf("FAIL board-sim-kc705: PE %u: MMIO request of unknown kind %u\n", S.pe, q->kind);
            return false;
        }
        if (kolo_sim_ring_pop(g_shm, S.pe)) pe_wrote(S.pe);  // room in a full ring
    }
    if (S.rd_pending) {
        const kolo::KoloPcieRc::HostResult& r = H.rc->host_result(S.rd_handle);
        if (r.done) {
            const bool good = r.status == kolo::kCplSC && r.data.size() >= (S.rd_size + 3) / 4;
            uint64_t v = good ? r.data[0] : ~0ull;
            if (good && S.rd_size == 8) v |= (uint64_t)r.data[1] << 32;
            if (!good) H.mmio_errors++;
            kolo_sim_read_answer(g_shm, S.pe, S.rd_pos, v, good ? 0 : 1);
            pe_wrote(S.pe);
            S.rd_pending = false;
        } else if (g_sim.now() - S.rd_t0 > kMmioWaitPs) {
            // no board there (or a dead one): the PE gets an error completion and a message
            std::printf("FAIL board-sim-kc705: board %d does not answer PE %u's read of BAR%d %#" PRIx64
                        " (%.0f us simulated): no board behind this PE\n", b, S.pe, S.rd_bar, S.rd_off,
                        (double)kMmioWaitPs / kPsPerUs);
            std::fflush(stdout);
            kolo_sim_read_answer(g_shm, S.pe, S.rd_pos, ~0ull, 1);
            pe_wrote(S.pe);
            S.rd_pending = false;
            g_serve_failed = true;  // (serving goes on: the PE stops with libkolo's error)
        }
    }
    return true;
}

// Serves `jobs` jobs (a job ends when both PEs have detached), each within
// limit_ms of simulated time and wall_s of wall-clock time. True if every
// PE attached and detached (its exit status is its launcher's business).
bool serve(const std::string& name, unsigned jobs, double limit_ms, double wall_s) {
    char err[256] = "";
    g_shm_name = "/kolo-sim.server." + name;
    if (!kolo_sim_server_name_free(g_shm_name.c_str(), err, sizeof err)) {
        std::printf("FAIL board-sim-kc705: %s\n", err);
        return false;
    }
    const uint8_t torus[3] = {2, 1, 1};
    const uint16_t ids[2] = {0, 1};  // PE i's node: board i's (the slots say where the PE is)
    g_shm = kolo_sim_server_create(g_shm_name.c_str(), 2, torus, 250, ids, g_det ? 1 : 0, 1, &g_shm_size, err,
                                   sizeof err);
    if (!g_shm) {
        std::printf("FAIL board-sim-kc705: %s\n", err);
        return false;
    }
    std::atexit(serve_cleanup);
    for (int b = 0; b < 2; b++) {
        g_srv[b].pe = g_plant == "pe-swap" ? (unsigned)(1 - b) : (unsigned)b;
        BoardHost& H = g_host[b];
        const unsigned pe = g_srv[b].pe;
        // the board's DMA goes into its PE's address space
        H.rc->set_memory_checked(
            [&H, pe](uint64_t a, uint8_t* p, size_t n) {
                if (kolo_sim_pe_access(g_shm, pe, a, p, n, 0)) {
                    H.bad_dma++;
                    return false;
                }
                return true;
            },
            [&H, pe](uint64_t a, const uint8_t* p, size_t n) {
                if (kolo_sim_pe_access(g_shm, pe, a, const_cast<uint8_t*>(p), n, 1)) {
                    H.bad_dma++;
                    return false;
                }
                pe_wrote(pe);
                return true;
            });
    }
    if (g_plant == "pe-swap") std::printf("plant: PE 0 on board 1, PE 1 on board 0\n");
    std::printf("board-sim-kc705: serving 2 PEs on a 2x1x1 torus: start them with KOLO_SIM_SHM=%s "
                "(PE i is the launcher's rank i, on board i)\n", g_shm_name.c_str());
    std::fflush(stdout);
    const auto w0 = std::chrono::steady_clock::now();
    unsigned done_jobs = 0;
    uint64_t n = 0, t_job = g_sim.now();
    g_sim.deadline = g_sim.now() + (uint64_t)(limit_ms * kPsPerMs);
    bool idle = true;
    for (;;) {
        if (idle || (n++ & 1023) == 0) {  // the slots (a kill(pid, 0) each): now and then
            bool any = false, all_done = true;
            for (int b = 0; b < 2; b++) {
                Served& S = g_srv[b];
                int32_t pid = 0;
                const int st = kolo_sim_server_pe_state(g_shm, S.pe, &pid);
                if (st != KOLO_SIM_PE_ABSENT && !S.attached) {
                    S.attached = true;
                    std::printf("  job %u: PE %u (pid %d) attached to board %d at %.3f ms\n", done_jobs + 1, S.pe,
                                (int)pid, b, (double)g_sim.now() / kPsPerMs);
                }
                if (st == KOLO_SIM_PE_GONE) {
                    std::printf("FAIL board-sim-kc705: PE %u (pid %d) is gone without detaching\n", S.pe, (int)pid);
                    return false;
                }
                if (st == KOLO_SIM_PE_DETACHED && !S.done && !S.rd_pending &&
                    !kolo_sim_ring_peek(g_shm, S.pe, nullptr)) {  // (its last posted writes made)
                    S.done = true;
                    std::printf("  job %u: PE %u detached at %.3f ms (board %d: %" PRIu64 " MMIO writes, %" PRIu64
                                " reads)\n", done_jobs + 1, S.pe, (double)g_sim.now() / kPsPerMs, b, S.mmio_w,
                                S.mmio_r);
                }
                any = any || (S.attached && !S.done);
                all_done = all_done && S.done;
            }
            if (g_serve_failed && (g_srv[0].done || g_srv[1].done)) {
                // the PE of the board that did not answer has stopped: its partner would wait
                // for it until its boot timeout; the end of the server ends it now (exit 3)
                std::printf("FAIL board-sim-kc705: job %u: a PE stopped after its board did not answer; "
                            "stopping the server\n", done_jobs + 1);
                return false;
            }
            const int32_t er = __atomic_load_n(&g_shm->exit_request, __ATOMIC_ACQUIRE);
            if (er) std::printf("  job %u: shmem_global_exit(%d)\n", done_jobs + 1, er - 1);
            if (all_done || er) {
                std::printf("  job %u: %.3f ms simulated (%" PRIu64 " ps)\n", done_jobs + 1,
                            (double)(g_sim.now() - t_job) / kPsPerMs, g_sim.now() - t_job);
                if (++done_jobs == jobs || er) break;
                for (int b = 0; b < 2; b++) {
                    kolo_sim_server_pe_reset(g_shm, g_srv[b].pe);
                    const unsigned pe = g_srv[b].pe;
                    g_srv[b] = Served();
                    g_srv[b].pe = pe;
                    g_det_wake_ps[b] = 0;
                }
                t_job = g_sim.now();
                g_sim.deadline = g_sim.now() + (uint64_t)(limit_ms * kPsPerMs);
            }
            const double w = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
            if (w > wall_s) {
                std::printf("FAIL board-sim-kc705: serving: %.0f s wall-clock limit (job %u of %u)\n", wall_s,
                            done_jobs + 1, jobs);
                return false;
            }
            idle = !any;
            if (!any) {  // nobody to serve yet: simulated time waits for the PEs
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
                g_sim.deadline = g_sim.now() + (uint64_t)(limit_ms * kPsPerMs);
                continue;
            }
            __atomic_store_n(&g_shm->sim_cycle, g_sim.now() / kPsPerCoreCycle, __ATOMIC_RELEASE);
        }
        // --det: simulated time moves on only while both PEs wait on the boards
        if (g_det && !det_hold(w0, wall_s)) return false;
        for (int b = 0; b < 2; b++)
            if (g_srv[b].attached && !serve_ring(b)) return false;
        g_sim.step();
        if (g_det) {
            __atomic_store_n(&g_shm->sim_cycle, g_sim.now() / kPsPerCoreCycle, __ATOMIC_RELEASE);
            det_wakes_due();
            det_flush();
        }
    }
    return !g_serve_failed;
}

}  // namespace

int main(int argc, char** argv) {
    const auto wall0 = std::chrono::steady_clock::now();
    bool quick = false;
    std::string serve_name;
    unsigned jobs = 1;
    double serve_ms = 20.0, serve_wall_s = 600.0;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--quick")) quick = true;
        if (!std::strcmp(argv[i], "--power-cycle")) g_pc = true;
        if (!std::strncmp(argv[i], "--plant=", 8)) g_plant = argv[i] + 8;
        if (!std::strcmp(argv[i], "--reflash-gen")) g_reflash = true;
        if (!std::strncmp(argv[i], "--serve=", 8)) serve_name = argv[i] + 8;
        if (!std::strncmp(argv[i], "--jobs=", 7)) jobs = (unsigned)std::atoi(argv[i] + 7);
        if (!std::strncmp(argv[i], "--serve-ms=", 11)) serve_ms = std::atof(argv[i] + 11);
        if (!std::strncmp(argv[i], "--serve-wall=", 13)) serve_wall_s = std::atof(argv[i] + 13);
        if (!std::strcmp(argv[i], "--det")) g_det = true;
        if (!std::strncmp(argv[i], "--console-baud=", 15)) g_console_baud = (uint32_t)std::strtoul(argv[i] + 15, nullptr, 10);
        if (!std::strncmp(argv[i], "--console-fast-after=", 21))
            g_console_fast_after = (size_t)std::strtoul(argv[i] + 21, nullptr, 10);
    }
    // (CLK_HZ / 4 and above: the transmitter's bits would be too short for its accumulator)
    if (g_console_baud < kConsoleBaud || g_console_baud >= kConsoleClkHz / 4) {
        std::fprintf(stderr, "--console-baud=N: %u <= N < %u\n", kConsoleBaud, kConsoleClkHz / 4);
        return 2;
    }
    const bool serving = !serve_name.empty();
    if (g_plant == "console-rate" && g_console_baud == kConsoleBaud) g_console_baud = 7372800;
    if (!g_plant.empty() && g_plant != "crossed" && g_plant != "cpl-byte" && g_plant != "lane-cut" &&
        g_plant != "console-rate" &&
        !(serving && (g_plant == "pe-swap" || g_plant == "pcie-dead" || (g_det && g_plant == "det-no-hold"))) &&
        !(g_pc && (g_plant == "no-reset" || g_plant == "link-left-down" || g_plant == "reflash-no-resync"))) {
        std::fprintf(stderr, "unknown plant %s (crossed, cpl-byte, lane-cut, console-rate; with --serve: pe-swap, pcie-dead, with --det det-no-hold; with "
                     "--power-cycle: no-reset, link-left-down, reflash-no-resync)\n", g_plant.c_str());
        return 2;
    }
    if (g_plant == "reflash-no-resync") g_reflash = true;
    if (g_reflash && !g_pc) {
        std::fprintf(stderr, "--reflash-gen needs --power-cycle\n");
        return 2;
    }
    if (g_det && !serving) {
        std::fprintf(stderr, "--det needs --serve\n");
        return 2;
    }
    if (g_pc && serving) {
        std::fprintf(stderr, "--power-cycle and --serve do not go together\n");
        return 2;
    }
    if (serving && (jobs < 1 || serve_name.find('/') != std::string::npos || !(serve_ms > 0) || !(serve_wall_s > 0))) {
        std::fprintf(stderr, "--serve=NAME (no '/'), --jobs=N >= 1, --serve-ms and --serve-wall > 0\n");
        return 2;
    }
    const uint64_t seed = tb::seed_from(argc, argv, 1);
    tb::Checker chk("board-sim-kc705");
    g_chk = &chk;
    tb::Rng rng(seed);
    std::printf("board-sim-kc705: seed %" PRIu64 "%s%s%s%s%s%s%s\n", seed, quick ? ", quick" : "",
                g_pc ? ", power cycle" : "", g_reflash ? ", reflash" : "", g_det ? ", --det" : "",
                g_console_baud == kConsoleBaud ? "" : (", console at " + std::to_string(g_console_baud) + " baud" +
                    (g_console_fast_after ? " after " + std::to_string(g_console_fast_after) + " characters" : "")).c_str(),
                g_plant.empty() ? "" : ", plant ", g_plant.c_str());
    g_pcs.seed = seed;

    // cables (before the model's channels open: the DPI open only names them)
    g_lane_delay = 6 + (unsigned)rng.below(12);
    for (int i = 0; i < 12; i++) {
        g_gt[i].out.init(seed * 7919 + (uint64_t)i, 32, 32, g_lane_delay);
        g_gt[i].loop.init(seed * 7919 + 100 + (uint64_t)i, 32, 32, g_lane_delay);
    }
    if (g_plant == "crossed") {
        cable(0, 6 + 0);  // X+ to X+
        cable(1, 6 + 1);
    } else {
        cable(0, 6 + 1);  // board 0 X+ <-> board 1 X-
        cable(1, 6 + 0);  // board 0 X- <-> board 1 X+
    }
    for (int b = 0; b < 2; b++) host_init(g_host[b], b, seed);

    g_sim.ctx.reset(new VerilatedContext);
    g_sim.ctx->commandArgs(argc, argv);
    g_sim.top.reset(new Vtb_board_sim_kc705(g_sim.ctx.get()));
    {
        Vtb_board_sim_kc705___024root* r = g_sim.top->rootp;
        g_con[0] = {&r->tb_board_sim_kc705__DOT__g_board__BRA__0__KET____DOT__u_board__DOT__u_console__DOT__acc,
                    &r->tb_board_sim_kc705__DOT__g_board__BRA__0__KET____DOT__u_board__DOT__u_console__DOT__acc_step,
                    &r->tb_board_sim_kc705__DOT__g_board__BRA__0__KET____DOT__u_board__DOT__u_console__DOT__bit_end, 0};
        g_con[1] = {&r->tb_board_sim_kc705__DOT__g_board__BRA__1__KET____DOT__u_board__DOT__u_console__DOT__acc,
                    &r->tb_board_sim_kc705__DOT__g_board__BRA__1__KET____DOT__u_board__DOT__u_console__DOT__acc_step,
                    &r->tb_board_sim_kc705__DOT__g_board__BRA__1__KET____DOT__u_board__DOT__u_console__DOT__bit_end, 0};
    }
    g_sim.top->cpu_reset = 3;
    g_sim.top->pcie_perst_n = 0;
    g_sim.top->power = 3;
    g_sim.top->reflash_gen = 0;
    g_sim.top->reflash_known = 0;
    g_sim.top->eval();
    g_sim.deadline = 60 * kPsPerMs;
    for (int i = 0; i < 12; i++)
        if (!g_gt[i].open) {
            std::printf("FAIL board-sim-kc705: GTX channel %d of board %d not in the model\n", i % 6, i / 6);
            return 1;
        }

    // power on: buttons released, then the hosts release PERST#
    g_sim.run_ps(2 * kPsPerUs + rng.below(1000) * 1000ull);
    g_sim.top->cpu_reset = 0;
    g_sim.run_ps(1 * kPsPerUs + rng.below(1000) * 1000ull);
    g_sim.top->pcie_perst_n = 3;

    bool ok = wait_links(8.0);
    if (ok) std::printf("links up at %.3f ms\n", (double)g_sim.now() / kPsPerMs);
    if (ok) {
        for (int b = 0; b < 2; b++) {
            char err[256] = "";
            const int rc = kolo_open_backend(&kBackend, &g_host[b], &g_host[b].dev, err, sizeof err);
            ok &= chk.check(rc == 0, "board %d: kolo_open_backend: %s (%s)", b, kolo_strerror(rc), err);
        }
    }
    if (ok) {
        for (int b = 0; b < 2; b++)
            std::printf("  board %d: libkolo: NI version %#x, node %#x, %u contexts\n", b,
                        kolo_dev_version(g_host[b].dev), kolo_dev_node_id(g_host[b].dev),
                        kolo_dev_num_ctx(g_host[b].dev));
        ok = wait_running(20.0) && check_identity_and_links();
    }
    if (ok) {
        std::printf("firmware running at %.3f ms\n", (double)g_sim.now() / kPsPerMs);
        for (int b = 0; b < 2; b++) {
            const bool banner = g_host[b].console.find("kolo firmware") != std::string::npos;
            chk.check(banner, "board %d: no firmware banner on the console (got \"%s\")", b,
                      g_host[b].console.c_str());
        }
    }
    if (ok && g_plant == "lane-cut") {
        g_gt[0].out.lane().set_dead(true);
        std::printf("plant: board 0's X+ transmitter dead from %.3f ms\n", (double)g_sim.now() / kPsPerMs);
    }
    if (ok && serving) {  // the PE processes open the boards themselves
        for (int b = 0; b < 2; b++) {
            kolo_close(g_host[b].dev);
            g_host[b].dev = nullptr;
        }
        if (g_plant == "pcie-dead") {  // board 1's host holds it in reset: nothing answers there
            g_sim.top->pcie_perst_n = 1;
            std::printf("plant: board 1's PCIe held in reset from %.3f ms\n", (double)g_sim.now() / kPsPerMs);
        }
        ok = chk.check(serve(serve_name, jobs, serve_ms, serve_wall_s), "serving the PE processes");
        serve_cleanup();  // the PEs see the simulator go (the end of every job)
        if (ok) g_sim.run_ps(20 * kPsPerUs);
    }
    const unsigned n = serving ? 0 : quick ? 100 : 400;
    // the host programs take a fraction of a millisecond: a program that
    // hangs (an operation that never completes) fails the run here
    if (ok && g_pc) {
        ok = power_cycle(quick ? 40 : 100, rng);
        if (ok) g_sim.run_ps(20 * kPsPerUs);
    } else if (ok && !serving) {
        g_sim.deadline = g_sim.now() + (quick ? 2 : 6) * kPsPerMs;
        ok = direction(0, 1, n, rng);
        if (ok) ok = direction(1, 0, n, rng);
        if (ok) ok = both_at_once(n, rng);
        if (ok) g_sim.run_ps(20 * kPsPerUs);
    }
    final_checks();
    for (int b = 0; b < 2; b++) {
        if (g_host[b].dev) kolo_close(g_host[b].dev);
        std::string c = g_host[b].console;
        while (!c.empty() && c.back() == '\n') c.pop_back();
        std::printf("  board %d console: %s\n", b, c.substr(0, 200).c_str());
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    std::printf("board-sim-kc705: %.3f ms simulated, %.1f s wall\n", (double)g_sim.now() / kPsPerMs, wall);
    g_sim.top->final();
    return chk.finish(seed, "board-sim-kc705");
}
