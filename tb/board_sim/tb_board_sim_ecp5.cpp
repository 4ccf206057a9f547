// tb_board_sim_ecp5.cpp - board-level simulation of two Lattice ECP5
// Evaluation Boards (boards/ecp5-evn, the whole kolo_board_ecp5_evn top)
// cabled into a 2x1x1 torus, run the way a user runs the real pair: the host
// of each board talks to it only through the board's UART, with the host
// library's own code (sw/lib/kolo_uart.c: frames, resends, session start)
// over a bit-level serial line at the board's 1 Mbaud, and reads what
// `kolo-ctl links` / `status` read. Vendor primitives are behavioural models
// (tb/board_sim/ecp5; the DCU hands its 20-bit words to the cables here).
// Cables: board 0 X+ (DCU channel 0) <-> board 1 X- (channel 1), board 0 X-
// <-> board 1 X+, as docs/boards.md cables a 2x1x1 torus; a cable holds its
// latency's worth of words (seeded), words sent while the far receiver's
// clock stands still are lost.
// Checks, per board:
//   - the service processor boots its firmware: the banner arrives on the
//     host through the bridge's console frames;
//   - SYS_ID, SYS_NODE_ID and SYS_TORUS are the DIP switches' (node (b,0,0)
//     of 2x1x1);
//   - both links up, not miscabled, each with the other board as its peer on
//     the right port (LINK_PEER: X+ sees the neighbour's X-);
//   - no CRC errors on the links; the firmware reaches "running", no
//     mailbox drops, no processor faults;
//   - the firmware (kolo_fw_rv32_hmsg_sim) serves host messages: it opened
//     host writes (SYS_HOST_ACCESS 1) and its host-message area (HMSG_ID);
//     a host write of SYS_HOST_ACCESS itself is refused (SYS_HOST_REFUSED
//     counts it, and the host is told: the register port answers the write
//     with an error, kolo_uart_regs);
//   - a host read outside the service window (BAR0 below 0x8000: the NI's
//     space over PCIe; the board has no NI, kolo_chip HOST_IF = 1) is
//     answered with an error, and the next access works;
//   - no packet drained at the router's local port (RTR_LOCAL_DROPS 0: the
//     firmware's MGMT packets all reach the mailbox);
//   - four reset-button presses (reset_case below; A, B, C; D: both boards at
//     once, both_reset_case, checked as its header says): A board 1 and
//     B board 0 for 20..200 us, C board 1 for 3.2..4.0 ms (longer than the
//     link's 3 ms TRAIN_BUDGET: the neighbour's links go down by the budget
//     while the board is still in reset, not by its fresh INIT); each
//     checked as follows for board 1's press (board 0's: the roles swapped);
//   - board 1's reset button (SW2), pressed for 20..200 us (seeded; any press
//     of a core clock period or more resets the board, which then stays in
//     reset for 2^SETTLE_BITS core cycles after the release): board 0 sees
//     both its links to board 1 go down (kolo_link stat_state 0, link_downs
//     and LINK_DOWN_COUNT + 1 each: the neighbour's fresh INIT after its
//     restart is a link down, however short the restart) and come back up
//     with the right peer; board 1 boots again (banner, firmware running,
//     its LINK_DOWN_COUNT 0); no CRC or sequence errors and no replays on
//     any of the four link ends (the sequence spaces restart together);
//     before the press, clean lines (no CRC, sequence or control-block
//     error, no replay, on the four ends); board 0's firmware
//     sends board 1 the news over MGMT (MBX_TX_COUNT > 0 at 0, MBX_RX_COUNT
//     > 0 at 1); no mailbox drops, RTR_LOCAL_DROPS 0, no processor faults;
//     board 1's host keeps its session (a read sent into the reset is
//     answered after a resend) and opens a new one. The timeline (reset,
//     links leaving up, down, up again, in ms after the press) is printed;
//     BOARD_SIM_DEBUG=1 also prints each link counter's changes after it.
//   - host messages (issue 18; docs/firmware.md "Host messages"): each
//     board's host sends the other's 4 seeded messages (1..32 bytes) with
//     libkolo's kolo_host_msg_send over its UART, the other host takes them
//     with kolo_host_msg_recv: all of them, whole, from the right node, in
//     order; two messages waiting at board 1 across a table switch there
//     (its host writes RT_EPOCH: the host-message area is the service
//     block's host mailbox, which a switch leaves alone), both received;
//     a node outside the torus (KOLO_E_NODE, counted refused), a
//     message over 32 bytes (libkolo's KOLO_E_LEN; a raw request of 40
//     bytes: the firmware's status TOO_LONG), an empty queue (KOLO_E_AGAIN);
//     6 messages while board 1's host takes none: 2 dropped and counted
//     (RX_DROPPED), the first 4 kept in order; every counter of both areas
//     equal to the test's count. Simulated and wall time are printed.
// --plant=crossed cables X+ to X+ (both links must be found miscabled, the
// test fails); --plant=dead cuts board 0's X+ transmitter (its link and the
// neighbour's X- stay down, the test fails); --plant=swap-on-reset re-plugs
// the cables crossed while board 1 is in reset (the links come back
// miscabled, the test fails); --plant=short-press runs case C with a 2 ms
// press (within the budget: board 0's links go down by board 1's fresh
// INIT, so the budget-path check fails); --plant=d-stagger runs case D with
// board 1's button held 5 ms longer (board 0's links, out of reset first,
// exhaust their training budget: a link down counted, the case fails);
// --plant=hmsg-drop is run with a firmware image
// whose HAL (tb/board_sim/fw/plant_hal_hmsg_drop.c) garbles word 0 of every
// second received host message, so the receiving firmware refuses it as
// malformed (messages missing, the test fails); --plant=hmsg-switch clears
// board 1's HMSG_ID right after the table switch of the host-message check
// (what the switch did while the area lay in the routing table's shadow
// bank: the test fails there). The binary loads its
// firmware from fw/imem.hex and fw/dmem.hex where it runs (mk/board_sim.mk:
// a run directory per case). make test-board-sim-ecp5-long runs the clean
// test, then the plants, and wants a failure from each.
// Length (~1200 lines): one file because every case drives the same
// simulated pair (the Verilated model, the cables, the two hosts' serial
// lines and the link probes, all in the anonymous namespace below); the
// reset cases are about a third of it.
// --quick (make test-board-sim-ecp5, in make test): everything above but
// resets B, C and D: the boot, the straps, the links, the host messages both
// ways with their bad input and overflow, and reset A (board 1's short
// press); about two minutes of CPU. The long target runs all four presses and
// the plants, whose checks are the same code.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Vtb_board_sim_ecp5.h"
#include "svdpi.h"
#include "tb_util.h"
#include "verilated.h"

extern "C" {
#include "kolo.h"
#include "kolo_fw_msg.h"
#include "kolo_hmsg.h"
#include "kolo_svc_regs.h"
#include "kolo_uart.h"
}

namespace {

const uint64_t kPsPerMs = 1000000000ull;
const double kBitPs = 1e6;  // 1 Mbaud, the board's BAUD

// ---- cables: the DCU model's channels (DPI) -------------------------------------------------
struct Channel {
    std::string path;
    int board = -1, ch = -1;
    std::deque<uint32_t> q;  // words the channel's transmitter sent, not yet received (bit 20: signal)
    bool started = false;    // its receiver has seen the queue fill to the cable's latency
    int src = -1;            // the channel whose transmitter this receiver hears (-1: no cable)
    bool cut_tx = false;     // plant: this transmitter sends nothing
    uint64_t tx_words = 0, rx_words = 0;
};
std::vector<Channel> g_ch;
size_t g_cable_words = 8;  // cable latency in words (10 ns each; seeded)

int find_channel(int board, int ch) {
    for (size_t i = 0; i < g_ch.size(); i++)
        if (g_ch[i].board == board && g_ch[i].ch == ch) return (int)i;
    return -1;
}

}  // namespace

extern "C" int kolo_sim_serdes_open(const char* path) {
    Channel c;
    c.path = path;
    const char* b = std::strstr(path, "g_board[");
    const char* ch = std::strstr(path, "u_ch");
    if (b) c.board = b[8] - '0';
    if (ch) c.ch = ch[4] - '0';
    if (c.board < 0 || c.ch < 0) {
        std::fprintf(stderr, "kolo_sim_serdes_open: unknown channel %s\n", path);
        std::exit(2);
    }
    g_ch.push_back(c);
    return (int)g_ch.size() - 1;
}

extern "C" void kolo_sim_serdes_tx(int h, int bits, int on) {
    Channel& c = g_ch[(size_t)h];
    bool sig = on && !c.cut_tx;
    c.q.push_back(sig ? ((uint32_t)bits & 0xFFFFFu) | (1u << 20) : 0u);
    c.tx_words++;
    // a cable holds its latency's worth of words, no more: while the far
    // receiver takes none (its clock stopped: the far board's DCU in reset)
    // the oldest are lost, as on a line (issue 18: kept up to 4096, the
    // cable became a 41 us delay line after the far board's reset, longer
    // than the link's replay timeout, and every first frame was replayed)
    while (c.q.size() > g_cable_words + 4) c.q.pop_front();
}

extern "C" int kolo_sim_serdes_rx(int h) {
    Channel& c = g_ch[(size_t)h];
    if (c.src < 0) return 0;
    Channel& s = g_ch[(size_t)c.src];
    if (!c.started) {
        if (s.q.size() < g_cable_words) return 0;
        while (s.q.size() > g_cable_words) s.q.pop_front();
        c.started = true;
    }
    if (s.q.empty()) {  // the transmitter stopped (its clock): the line is silent
        c.started = false;
        return 0;
    }
    uint32_t w = s.q.front();
    s.q.pop_front();
    c.rx_words++;
    return (int)w;
}

namespace {

// ---- the simulation and the two hosts' serial lines ---------------------------------------------
const char* const kPortName[6] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-"};

const char* const kLinkCounterNames[16] = {"crc_errors", "seq_errors",  "naks_sent",   "naks_rcvd",
                                           "replays",    "retrains",    "lock_losses", "frames_tx",
                                           "frames_rx",  "bytes_tx",    "bytes_rx",    "pkts_dropped",
                                           "ctrl_errors", "link_downs", "miscabled",   "rx_overflows"};

struct Host;
// A press of a board's reset button and what the probes saw after it (ps of
// simulated time, 0: not seen). Link index i = 2 * board + port (0 X+, 1 X-).
struct ResetWatch {
    bool on = false;
    int board = 1;
    uint8_t release_mask = 0;  // the buttons released at release_at (0: board's)
    uint64_t t0 = 0, release_at = 0;
    uint64_t rst_rise = 0, rst_fall = 0;
    uint64_t left_up[4] = {0, 0, 0, 0};   // stat_state left 2 (up)
    uint64_t down_at[4] = {0, 0, 0, 0};   // stat_state 0 (down) first seen
    uint64_t back_up[4] = {0, 0, 0, 0};   // stat_state 2 again after it left
    // kolo_link ctrl_errors (bad control blocks, invalid sync headers) of each
    // link: first and last time it grew, the link's state then
    uint32_t ctrl_last[4] = {0, 0, 0, 0};
    uint64_t ctrl_first_t[4] = {0, 0, 0, 0}, ctrl_last_t[4] = {0, 0, 0, 0};
    unsigned ctrl_first_st[4] = {0, 0, 0, 0}, ctrl_last_st[4] = {0, 0, 0, 0};
    bool trace = false;            // print the link counters' changes (BOARD_SIM_DEBUG)
    uint32_t traced[4][16] = {};
};
struct Sim {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vtb_board_sim_ecp5> top;
    std::vector<Host*> hosts;
    ResetWatch rw;
    void watch();
    uint64_t now() const { return ctx->time(); }
    void step();
    void run_ps(uint64_t ps) {
        uint64_t until = now() + ps;
        while (now() < until) step();
    }
};

struct Host {
    Sim* sim;
    int board;
    // host -> board
    std::deque<uint8_t> tx_bytes;
    int tx_bit = -1;
    double tx_next = 0;
    uint8_t tx_cur = 0;
    bool line_out = true;
    // board -> host
    bool rx_busy = false, rx_prev = true;
    double rx_start = 0;
    int rx_bit = 0;
    uint8_t rx_cur = 0;
    std::deque<uint8_t> rx_bytes;
    unsigned long framing = 0;
    std::string console;
    kolo_uart* link = nullptr;

    void drive(double t) {
        if (tx_bit < 0 && !tx_bytes.empty() && t >= tx_next) {
            tx_cur = tx_bytes.front();
            tx_bytes.pop_front();
            tx_bit = 0;
            tx_next = t;
        }
        if (tx_bit >= 0 && t >= tx_next) {
            line_out = tx_bit == 0 ? false : tx_bit == 9 ? true : (tx_cur >> (tx_bit - 1)) & 1;
            tx_next += kBitPs;
            if (++tx_bit == 10) tx_bit = -1;
        }
    }
    void sample(bool line, double t) {
        if (!rx_busy) {
            if (rx_prev && !line) {
                rx_busy = true;
                rx_start = t;
                rx_bit = 1;
                rx_cur = 0;
            }
        } else if (t >= rx_start + (rx_bit + 0.5) * kBitPs) {
            if (rx_bit <= 8) {
                rx_cur |= (uint8_t)(line << (rx_bit - 1));
                rx_bit++;
            } else {
                if (line)
                    rx_bytes.push_back(rx_cur);
                else
                    framing++;
                rx_busy = false;
            }
        }
        rx_prev = line;
    }
};

void Sim::step() {
    if (!top->eventsPending()) {
        std::fprintf(stderr, "board-sim: no more events at %llu ps\n", (unsigned long long)now());
        std::exit(2);
    }
    ctx->time(top->nextTimeSlot());
    double t = (double)now();
    uint8_t rx = 0;
    for (Host* h : hosts) {
        h->drive(t);
        rx |= (uint8_t)(h->line_out << h->board);
    }
    top->uart_rx = rx;
    if (rw.release_at && now() >= rw.release_at) {
        top->btn_rst_n |= rw.release_mask ? rw.release_mask : (uint8_t)(1u << rw.board);
        rw.release_at = 0;
    }
    top->eval();
    for (Host* h : hosts) h->sample((top->uart_tx >> h->board) & 1, t);
    if (rw.on) watch();
}

void Sim::watch() {
    const uint64_t t = now();
    const bool r = (top->mon_chip_rst >> rw.board) & 1;
    if (r && !rw.rst_rise) rw.rst_rise = t;
    if (!r && rw.rst_rise && !rw.rst_fall) rw.rst_fall = t;
    for (int i = 0; i < 4; i++) {
        const unsigned st = (top->mon_link_state >> (2 * i)) & 3u;
        if (st != 2 && !rw.left_up[i]) rw.left_up[i] = t;
        if (st == 0 && !rw.down_at[i]) rw.down_at[i] = t;
        if (st == 2 && rw.left_up[i] && !rw.back_up[i]) rw.back_up[i] = t;
        if (rw.trace) {  // BOARD_SIM_DEBUG: the link events after the press, as they happen
            static const int kTraced[] = {1, 2, 3, 4, 5, 7, 8, 11, 13};
            for (int c : kTraced) {
                const uint32_t v = top->mon_link_counters[(size_t)(16 * i + c)];
                if (v != rw.traced[i][c]) {
                    std::printf("  %.4f ms: board %d %s (state %u): %s %u\n", (double)(t - rw.t0) / 1e9, i / 2,
                                i % 2 ? "X-" : "X+", st, kLinkCounterNames[c], v);
                    rw.traced[i][c] = v;
                }
            }
        }
        const uint32_t ce = top->mon_link_counters[(size_t)(16 * i + 12)];
        if (ce != rw.ctrl_last[i]) {
            if (!rw.ctrl_first_t[i]) {
                rw.ctrl_first_t[i] = t;
                rw.ctrl_first_st[i] = st;
            }
            rw.ctrl_last_t[i] = t;
            rw.ctrl_last_st[i] = st;
            rw.ctrl_last[i] = ce;
        }
    }
}

// kolo_link's counter c (docs/link.md "Counters") of link i = 2 * board + port
uint32_t link_counter(const Sim& sim, int i, int c) { return sim.top->mon_link_counters[(size_t)(16 * i + c)]; }
void print_link_counters(const Sim& sim, const char* when) {
    std::printf("kolo_link counters %s (non-zero):\n", when);
    for (int i = 0; i < 4; i++) {
        std::printf("  board %d %s state %u:", i / 2, kPortName[i % 2], (sim.top->mon_link_state >> (2 * i)) & 3u);
        for (int c = 0; c < 16; c++)
            if (link_counter(sim, i, c)) std::printf(" %s %u", kLinkCounterNames[c], link_counter(sim, i, c));
        std::printf("\n");
    }
}
enum { LC_CRC = 0, LC_SEQ = 1, LC_REPLAYS = 4, LC_RETRAINS = 5, LC_FRAMES_RX = 8, LC_PKTS_DROPPED = 11, LC_CTRL_ERR = 12,
       LC_LINK_DOWNS = 13 };

int io_write(void* user, const uint8_t* b, size_t n) {
    Host* h = static_cast<Host*>(user);
    h->tx_bytes.insert(h->tx_bytes.end(), b, b + n);
    return 0;
}

long io_read(void* user, uint8_t* b, size_t n, unsigned timeout_ms) {
    Host* h = static_cast<Host*>(user);
    uint64_t until = h->sim->now() + (uint64_t)timeout_ms * kPsPerMs;
    while (h->rx_bytes.empty() && h->sim->now() < until) h->sim->step();
    if (std::getenv("BOARD_SIM_DEBUG"))
        std::printf("%.3f ms: io_read board %d: %zu bytes, LEDs on %04x\n", (double)h->sim->now() / (double)kPsPerMs, h->board, h->rx_bytes.size(),
                    (unsigned)(~h->sim->top->led_n & 0xffffu));
    size_t k = 0;
    while (k < n && !h->rx_bytes.empty()) {
        b[k++] = h->rx_bytes.front();
        h->rx_bytes.pop_front();
    }
    return (long)k;
}

double io_now(void* user) { return (double)static_cast<Host*>(user)->sim->now() / (double)kPsPerMs; }

void on_console(void* user, const uint8_t* b, size_t n) {
    static_cast<Host*>(user)->console.append((const char*)b, n);
}

struct Regs {
    Host& h;
    tb::Checker& chk;
    int failed = 0;
    uint32_t svc(uint32_t off) {
        uint32_t v = 0;
        int rc = kolo_uart_read32(h.link, KOLO_SVC_HOST_BASE + off, &v);
        if (rc) {
            if (!failed++)
                chk.check(false, "board %d: reading service register %#x: %d (%s)", h.board, off, rc,
                          kolo_uart_error(h.link));
        }
        return v;
    }
};


// `kolo-ctl links` of one board, as text (for the log), and the link state
struct LinkView {
    bool up[2] = {false, false}, misc[2] = {false, false};
    uint32_t peer[2] = {0, 0}, down_count[2] = {0, 0}, crc[2] = {0, 0}, rx_frames[2] = {0, 0};
};
LinkView links(Host& h, tb::Checker& chk, bool print) {
    Regs r{h, chk};
    LinkView v;
    for (int p = 0; p < 2; p++) {
        uint32_t s = r.svc(KOLO_SVC_LINK_STATUS(p));
        v.up[p] = s & KOLO_SVC_LINK_STATUS_UP_MASK;
        v.misc[p] = s & KOLO_SVC_LINK_STATUS_MISCABLED_MASK;
        v.peer[p] = r.svc(KOLO_SVC_LINK_PEER(p));
        v.down_count[p] = r.svc(KOLO_SVC_LINK_DOWN_COUNT(p));
        if (print) {
            v.crc[p] = r.svc(KOLO_SVC_LINK_CRC_ERRORS(p));
            v.rx_frames[p] = r.svc(KOLO_SVC_LINK_RX_FRAMES(p));
            char pn[32] = "-";
            if (v.peer[p] & KOLO_SVC_LINK_PEER_VALID_MASK)
                std::snprintf(pn, sizeof pn, "(%u,0,0)%s", v.peer[p] & 15u,
                              kPortName[((v.peer[p] & KOLO_SVC_LINK_PEER_PORT_MASK) >> KOLO_SVC_LINK_PEER_PORT_SHIFT) % 6]);
            std::printf("  board %d %s  %-5s  peer %-9s  crc_err %u  rx_frames %u  downs %u\n", h.board,
                        kPortName[p], v.misc[p] ? "MISC" : v.up[p] ? "up" : "DOWN", pn, v.crc[p], v.rx_frames[p],
                        v.down_count[p]);
        }
    }
    return v;
}

// port p of board b is up, not miscabled, and sees the other board's opposite
// port (X+ sees the neighbour's X-), with no CRC errors; when says at what point
void check_link(tb::Checker& chk, int b, const LinkView& v, int p, const char* when) {
    uint32_t want = (uint32_t)(1 - b) | (uint32_t)(1 - p) << KOLO_SVC_LINK_PEER_PORT_SHIFT |
                    KOLO_SVC_LINK_PEER_VALID_MASK;
    chk.check(v.up[p] && !v.misc[p] && v.peer[p] == want,
              "%sboard %d %s: up %d miscabled %d peer %#x, want up, peer %#x (node %d's %s)", when, b, kPortName[p],
              v.up[p], v.misc[p], v.peer[p], want, 1 - b, kPortName[1 - p]);
    chk.check(v.crc[p] == 0, "%sboard %d %s: LINK_CRC_ERRORS %u", when, b, kPortName[p], v.crc[p]);
}

// the links of both boards up, or the deadline (simulated ms)
bool wait_links(std::vector<Host>& hs, tb::Checker& chk, double deadline_ms) {
    for (;;) {
        bool all = true;
        for (Host& h : hs) {
            LinkView v = links(h, chk, false);
            all = all && v.up[0] && v.up[1];
        }
        if (all) return true;
        if (io_now(&hs[0]) > deadline_ms) return false;
        hs[0].sim->run_ps(kPsPerMs / 4);
    }
}

bool console_has(const Host& h, const char* s, size_t from = 0) {
    return h.console.find(s, from) != std::string::npos;
}

void poll_console(std::vector<Host>& hs, unsigned ms) {
    for (Host& h : hs) kolo_uart_poll(h.link, ms);
}

// ---- host messages -------------------------------------------------------------------------
// Board b's host sends to node 1 - b with libkolo's kolo_host_msg_send over
// its UART; the other host takes them with kolo_host_msg_recv. K seeded
// messages each way (lengths 1..HMSG_MAX_BYTES), received whole and in
// order, in batches of HMSG_RXQ (the queue's size); then bad input: a node
// outside the torus (KOLO_E_NODE, counted refused), a length over the
// maximum (libkolo's KOLO_E_LEN, nothing sent; the firmware's own check by a
// raw request: status TOO_LONG), an empty queue (KOLO_E_AGAIN); then
// overflow: HMSG_RXQ + 2 messages while the receiver takes none: 2 dropped
// and counted, the first HMSG_RXQ kept in order. Between the ordered
// messages and the bad input, a table switch at board 1 while two messages
// wait for its host (they arrive; the area is untouched). Every counter of
// the two areas is checked against the test's own counts at the end.
struct Sent {
    uint16_t src;
    std::vector<uint8_t> b;
};
std::string hex(const std::vector<uint8_t>& b) {
    std::string s;
    char t[4];
    for (uint8_t c : b) {
        std::snprintf(t, sizeof t, "%02x", c);
        s += t;
    }
    return s;
}
// take what board `to`'s host expects, in order: tries a bounded number of
// looks per message (a message sent is in the network; it reaches the far
// mailbox in microseconds, each look over the UART takes ~0.2 ms)
int take(Host& h, tb::Checker& chk, std::deque<Sent>& expect, const char* what) {
    int got = 0;
    while (!expect.empty()) {
        uint8_t buf[KOLO_FWM_HMSG_MAX_BYTES];
        size_t n = 0;
        uint16_t src = 0xffff;
        int rc = KOLO_E_AGAIN;
        for (int tries = 0; tries < 20 && rc == KOLO_E_AGAIN; tries++)
            rc = kolo_host_msg_recv(h.link, &src, buf, sizeof buf, &n);
        const Sent& want = expect.front();
        std::vector<uint8_t> gotb(buf, buf + (rc == 0 ? n : 0));
        if (!chk.check(rc == 0 && src == want.src && gotb == want.b,
                       "%s: board %d's host, message %d: rc %d, from node %u, %zu bytes %s; want from node %u, %zu "
                       "bytes %s",
                       what, h.board, got, rc, src, gotb.size(), hex(gotb).c_str(), want.src, want.b.size(),
                       hex(want.b).c_str()))
            return -1;
        expect.pop_front();
        got++;
    }
    return got;
}

void host_messages(Sim& sim, std::vector<Host>& hs, tb::Checker& chk, tb::Rng& rng, bool plant_switch) {
    const int kK = KOLO_FWM_HMSG_RXQ;  // messages each way (one batch: the queue's size)
    const uint64_t t0 = sim.now();
    const auto w0 = std::chrono::steady_clock::now();
    uint32_t sent[2] = {0, 0}, refused[2] = {0, 0}, received[2] = {0, 0}, dropped[2] = {0, 0};
    int ok = 1;
    for (int from = 0; from < 2 && ok; from++) {
        const int to = 1 - from;
        std::deque<Sent> expect;
        for (int i = 0; i < kK && ok; i++) {
            Sent m;
            m.src = (uint16_t)from;
            m.b.resize(1 + rng.below(KOLO_FWM_HMSG_MAX_BYTES));
            for (uint8_t& c : m.b) c = (uint8_t)rng.below(256);
            int rc = kolo_host_msg_send(hs[(size_t)from].link, (uint16_t)to, m.b.data(), m.b.size());
            ok = chk.check(rc == 0, "board %d's host: sending message %d (%zu bytes) to node %d: rc %d", from, i,
                           m.b.size(), to, rc);
            sent[from]++;
            received[to]++;
            expect.push_back(m);
            if (ok && ((int)expect.size() == KOLO_FWM_HMSG_RXQ || i == kK - 1))
                ok = take(hs[(size_t)to], chk, expect, "host messages") >= 0;
        }
        std::printf("host messages: board %d -> node %d: %d sent, %d received in order, at %.2f ms\n", from, to, kK,
                    ok ? kK : -1, (double)(sim.now() - t0) / (double)kPsPerMs);
    }
    if (!ok) return;
    // a table switch while messages wait: board 0 sends two, board 1's host
    // switches its tables (writes RT_EPOCH: the shadow is a copy of the
    // active table, so the same routes under a new epoch; the test stands in
    // for a recomputation), then takes both. The area is the host mailbox:
    // the switch leaves it alone (it used to be in the shadow bank, which a
    // switch trades for the other one: board 1's host found no area there).
    {
        Regs r1s{hs[1], chk};
        const uint32_t sw0 = r1s.svc(KOLO_SVC_RT_SWITCHES);
        const uint32_t ep = r1s.svc(KOLO_SVC_RT_EPOCH) & KOLO_SVC_RT_EPOCH_EPOCH_MASK;
        std::deque<Sent> expect;
        for (int i = 0; i < 2 && ok; i++) {
            Sent m;
            m.src = 0;
            m.b.resize(1 + rng.below(KOLO_FWM_HMSG_MAX_BYTES));
            for (uint8_t& c : m.b) c = (uint8_t)rng.below(256);
            int rc = kolo_host_msg_send(hs[0].link, 1, m.b.data(), m.b.size());
            ok = chk.check(rc == 0, "table switch: board 0's host, message %d: rc %d", i, rc);
            sent[0]++, received[1]++;
            expect.push_back(m);
        }
        int rc_sw = kolo_uart_write32(hs[1].link, KOLO_SVC_HOST_BASE + KOLO_SVC_RT_EPOCH, (ep + 0x100u) & 0xffffu);
        // plant hmsg-switch: the switch takes the area away, as when it lay in the shadow bank
        // (the host then saw the other bank's words: no HMSG_ID)
        if (plant_switch) kolo_uart_write32(hs[1].link, KOLO_SVC_HOST_BASE + KOLO_FWM_HMSG_ID, 0);
        const uint32_t sw1 = r1s.svc(KOLO_SVC_RT_SWITCHES), id = r1s.svc(KOLO_FWM_HMSG_ID);
        ok = ok && chk.check(rc_sw == 0 && sw1 == sw0 + 1 && id == KOLO_FWM_HMSG_AREA_ID,
                             "table switch by board 1's host: rc %d, RT_SWITCHES %u -> %u, HMSG_ID %08x (want %08x)",
                             rc_sw, sw0, sw1, id, KOLO_FWM_HMSG_AREA_ID);
        if (ok) ok = take(hs[1], chk, expect, "after a table switch") >= 0;
        std::printf("host messages: 2 waiting across a table switch at board 1 (RT_SWITCHES %u -> %u): %s\n", sw0,
                    sw1, ok ? "received in order" : "FAILED");
        if (!ok) return;
    }
    // bad input, on board 0
    uint8_t b[KOLO_FWM_HMSG_MAX_BYTES + 1] = {1, 2, 3};
    int rc_node = kolo_host_msg_send(hs[0].link, 0x002, b, 3);  // x = 2 in a 2x1x1 torus
    refused[0]++;
    int rc_len = kolo_host_msg_send(hs[0].link, 1, b, sizeof b);  // refused by libkolo: nothing reaches the board
    uint32_t req = 0, done = 0;
    Regs r0{hs[0], chk};
    req = r0.svc(KOLO_FWM_HMSG_TX_REQ);
    uint32_t seq = ((req & KOLO_FWM_HMSG_TX_REQ_SEQ_MASK) + 1u) & KOLO_FWM_HMSG_TX_REQ_SEQ_MASK;
    int rc_raw = kolo_uart_write32(hs[0].link, KOLO_SVC_HOST_BASE + KOLO_FWM_HMSG_TX_REQ,
                                   seq | (uint32_t)(KOLO_FWM_HMSG_MAX_BYTES + 8) << KOLO_FWM_HMSG_TX_REQ_LEN_SHIFT |
                                       1u << KOLO_FWM_HMSG_TX_REQ_DST_SHIFT);
    for (int tries = 0; tries < 20 && (done & KOLO_FWM_HMSG_TX_DONE_SEQ_MASK) != seq; tries++)
        done = r0.svc(KOLO_FWM_HMSG_TX_DONE);
    refused[0]++;
    uint16_t src = 0;
    size_t n = 0;
    int rc_empty = kolo_host_msg_recv(hs[1].link, &src, b, sizeof b, &n);
    chk.check(rc_node == KOLO_E_NODE && rc_len == KOLO_E_LEN && rc_raw == 0 &&
                  (done & KOLO_FWM_HMSG_TX_DONE_SEQ_MASK) == seq &&
                  (done & KOLO_FWM_HMSG_TX_DONE_STATUS_MASK) >> KOLO_FWM_HMSG_TX_DONE_STATUS_SHIFT ==
                      KOLO_FWM_ST_TOO_LONG &&
                  rc_empty == KOLO_E_AGAIN,
              "host messages, bad input: to node 0x002 rc %d (want %d), %zu bytes rc %d (want %d), a raw request of "
              "%d bytes: TX_DONE %#x (want seq %u status %u), an empty queue rc %d (want %d)",
              rc_node, KOLO_E_NODE, sizeof b, rc_len, KOLO_E_LEN, KOLO_FWM_HMSG_MAX_BYTES + 8, done, seq,
              KOLO_FWM_ST_TOO_LONG, rc_empty, KOLO_E_AGAIN);
    // overflow: HMSG_RXQ + 2 to board 1, whose host takes none meanwhile
    std::deque<Sent> expect;
    for (int i = 0; i < KOLO_FWM_HMSG_RXQ + 2 && ok; i++) {
        Sent m;
        m.src = 0;
        m.b.resize(1 + rng.below(4));
        for (uint8_t& c : m.b) c = (uint8_t)rng.below(256);
        int rc = kolo_host_msg_send(hs[0].link, 1, m.b.data(), m.b.size());
        ok = chk.check(rc == 0, "overflow: board 0's host, message %d: rc %d", i, rc);
        sent[0]++;
        if (i < KOLO_FWM_HMSG_RXQ) {
            expect.push_back(m);
            received[1]++;
        } else {
            dropped[1]++;
        }
    }
    Regs r1{hs[1], chk};
    uint32_t q1 = 0;
    for (int tries = 0; tries < 20 && ok && r1.svc(KOLO_FWM_HMSG_RX_DROPPED) < dropped[1]; tries++) {
    }
    q1 = r1.svc(KOLO_FWM_HMSG_RX_QUEUED);
    chk.check(q1 == KOLO_FWM_HMSG_RXQ, "overflow: board 1's RX_QUEUED %u, want %d", q1, KOLO_FWM_HMSG_RXQ);
    if (ok) ok = take(hs[1], chk, expect, "overflow") >= 0;
    int rc_after = kolo_host_msg_recv(hs[1].link, &src, b, sizeof b, &n);
    chk.check(rc_after == KOLO_E_AGAIN, "overflow: after the %d kept, a receive: rc %d, want %d (queue empty)",
              KOLO_FWM_HMSG_RXQ, rc_after, KOLO_E_AGAIN);
    // every counter of both areas against the test's counts
    for (int bd = 0; bd < 2; bd++) {
        kolo_hmsg_counters c{};
        int rc = kolo_host_msg_counters(hs[(size_t)bd].link, &c);
        std::printf("  board %d host messages: sent %u refused %u received %u dropped %u bad %u queued %u\n", bd,
                    c.tx_sent, c.tx_refused, c.rx_received, c.rx_dropped, c.rx_bad, c.rx_queued);
        chk.check(rc == 0 && c.tx_sent == sent[bd] && c.tx_refused == refused[bd] && c.rx_received == received[bd] &&
                      c.rx_dropped == dropped[bd] && c.rx_bad == 0 && c.rx_queued == 0,
                  "board %d: host-message counters (rc %d) sent %u refused %u received %u dropped %u bad %u queued "
                  "%u; want %u %u %u %u 0 0",
                  bd, rc, c.tx_sent, c.tx_refused, c.rx_received, c.rx_dropped, c.rx_bad, c.rx_queued, sent[bd],
                  refused[bd], received[bd], dropped[bd]);
    }
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    std::printf("host messages: %d each way in order, %d bad requests refused, %d of %d dropped at a full queue: "
                "%.2f ms simulated, %.1f s wall\n",
                kK, 2, (int)dropped[1], KOLO_FWM_HMSG_RXQ + 2, (double)(sim.now() - t0) / (double)kPsPerMs, wall);
}

// ---- steps the reset cases share ----------------------------------------------------
// Wait (up to 40 ms) until both firmwares report stage 3 (running).
void wait_running(Sim& sim, std::vector<Host>& hs, tb::Checker& chk) {
    bool running = false;
    for (int tries = 0; tries < 80 && !running; tries++) {
        running = true;
        for (Host& h : hs) {
            Regs r{h, chk};
            running = running && (r.svc(KOLO_SVC_SYS_FW_STATE) & KOLO_SVC_SYS_FW_STATE_STAGE_MASK) == 3;
        }
        if (!running) sim.run_ps(kPsPerMs / 2);
    }
}

// Board h's host (re)starts its session (two NOPs) over the UART, with the
// console handler; false and the reason in err when it cannot.
bool new_session(Host& h, char* err, size_t n) {
    if (h.link) kolo_uart_close(h.link);
    kolo_uart_io io = {io_write, io_read, nullptr, &h, io_now};
    h.link = kolo_uart_open_io(&io, 2, 20, err, n);
    if (h.link) kolo_uart_set_console(h.link, on_console, &h);
    return h.link != nullptr;
}

// One seeded host message (1..32 bytes) from board `first`'s host to the
// other's, then one back, each taken whole by the receiving host through
// both firmwares; stops at the first failure.
void message_each_way(std::vector<Host>& hs, tb::Checker& chk, tb::Rng& rng, const char* when, int first) {
    for (int from : {first, 1 - first}) {
        if (chk.failures()) break;
        std::deque<Sent> expect;
        Sent m;
        m.src = (uint16_t)from;
        m.b.resize(1 + rng.below(KOLO_FWM_HMSG_MAX_BYTES));
        for (uint8_t& c : m.b) c = (uint8_t)rng.below(256);
        int rc = kolo_host_msg_send(hs[(size_t)from].link, (uint16_t)(1 - from), m.b.data(), m.b.size());
        if (!chk.check(rc == 0, "%sboard %d's host: a message to node %d: rc %d", when, from, 1 - from, rc)) break;
        expect.push_back(m);
        take(hs[(size_t)(1 - from)], chk, expect, when);
    }
}

// ---- a reset button press --------------------------------------------------------------
// Board rb's reset button (SW2) pressed for press_us with both links up and
// both firmwares running; nb = 1 - rb is the neighbour (in a 2x1x1 torus both
// of rb's links lead to nb). Checked after it:
//   - nb's two links go down and come back up with the right peer, counted
//     once: kolo_link link_downs + 1 and LINK_DOWN_COUNT + 1 each (rb's count
//     from its reset: 0); by the path the press asks for: a press shorter than
//     TRAIN_BUDGET (budget false) by rb's fresh INIT once rb is out of reset
//     (the peer-restart path: down after rb's chip reset fell); a longer one
//     (budget true) by the training budget, while rb is still in reset:
//     TRAIN_BUDGET core cycles after the link left "up", and the fresh INIT
//     that follows finds the link already down and counts nothing more;
//   - rb boots again (banner, firmware running, node id from its straps);
//   - no CRC or sequence error, no replay on the four link ends over the
//     reset (rb's counters count from its reset, nb's over it);
//   - MGMT flows after it: nb's firmware sends (MBX_TX_COUNT grows: the news
//     of its links that went down and up), rb's mailbox receives
//     (MBX_RX_COUNT > 0 since its reset); no mailbox drops, no processor
//     faults, RTR_LOCAL_DROPS 0 on both;
//   - rb's host: a read sent into the reset is answered after a resend
//     (kolo_uart.c keeps its session), then a new session is opened; with
//     hmsg, one host message each way between the two hosts
//     (kolo_host_msg_send/recv through both firmwares) arrives whole.
// The timeline (reset, links leaving up, down, up again, in ms after the
// press) is printed; BOARD_SIM_DEBUG=1 also prints each link counter's
// changes after it. Returns the simulated ms from the press to the end.
uint32_t g_line_base[4][4];  // crc, seq, ctrl, replays of each link end when the last reset case ended
const uint32_t kTrainBudget = 100000;  // kolo_chip LINK_TRAIN_BUDGET (docs/link.md), not shortened here
const uint64_t kCorePs = 30000;        // the board's core clock: 600 MHz / CORE_DIV 18 (kolo_board_ecp5_evn)
double reset_case(Sim& sim, std::vector<Host>& hs, tb::Checker& chk, tb::Rng& rng, const char* name, int rb,
                  uint32_t press_us, bool budget, bool hmsg, const std::string& plant) {
    const int nb = 1 - rb;
    LinkView before = links(hs[(size_t)nb], chk, false);
    uint32_t cnt[4][16];
    for (int i = 0; i < 4; i++)
        for (int c = 0; c < 16; c++) cnt[i][c] = link_counter(sim, i, c);
    uint32_t mgmt_tx_nb0 = 0;
    {
        Regs r{hs[(size_t)nb], chk};
        mgmt_tx_nb0 = r.svc(KOLO_SVC_MBX_TX_COUNT);
    }
    const size_t con = hs[(size_t)rb].console.size();
    kolo_uart_stats sa;
    kolo_uart_get_stats(hs[(size_t)rb].link, &sa);
    if (plant == "swap-on-reset") {
        // someone re-plugs the SMA cables crossed while board rb is reset
        for (int b = 0; b < 2; b++)
            for (int ch = 0; ch < 2; ch++) g_ch[(size_t)find_channel(b, ch)].src = find_channel(1 - b, ch);
        for (Channel& c : g_ch) c.started = false;
    }
    const uint64_t t0 = sim.now();
    sim.rw = ResetWatch{};
    for (int i = 0; i < 4; i++) sim.rw.ctrl_last[i] = link_counter(sim, i, LC_CTRL_ERR);
    print_link_counters(sim, "before the press");
    // the lines are clean: nothing bad ever reached a link end once it
    // was up (issue 18: the 32-bit gearbox adapter sent half-IDLE blocks,
    // about 190 bad control blocks per ms on an idle link); a link end's
    // counters count from its board's last reset
    // counters count from its board's last reset: no change since the last
    // case ended (g_line_base; zeros before the first)
    static const int kLine[4] = {LC_CRC, LC_SEQ, LC_CTRL_ERR, LC_REPLAYS};
    for (int i = 0; i < 4; i++) {
        uint32_t d[4];
        for (int k = 0; k < 4; k++) d[k] = link_counter(sim, i, kLine[k]) - g_line_base[i][k];
        chk.check(d[0] == 0 && d[1] == 0 && d[2] == 0 && d[3] == 0,
                  "%s: board %d %s before the press: kolo_link crc_errors +%u seq_errors +%u ctrl_errors +%u "
                  "replays +%u since the last reset case (want 0 on clean cables)",
                  name, i / 2, kPortName[i % 2], d[0], d[1], d[2], d[3]);
    }
    sim.rw.trace = std::getenv("BOARD_SIM_DEBUG") != nullptr;
    for (int i = 0; i < 4; i++)
        for (int c = 0; c < 16; c++) sim.rw.traced[i][c] = link_counter(sim, i, c);
    sim.rw.on = true;
    sim.rw.board = rb;
    sim.rw.t0 = t0;
    sim.rw.release_at = t0 + (uint64_t)press_us * 1000000ull;
    sim.top->btn_rst_n = (uint8_t)(3u & ~(1u << rb));  // board rb's SW2 down
    std::printf("%s: board %d's reset button pressed for %u us at %.3f ms (%s TRAIN_BUDGET, %.3f ms)\n", name, rb,
                press_us, io_now(&hs[0]), budget ? "longer than" : "shorter than",
                (double)(kTrainBudget * kCorePs) / (double)kPsPerMs);
    auto ms_after = [&](uint64_t t) { return t ? (double)(t - t0) / (double)kPsPerMs : -1.0; };
    // board rb's host asks for its firmware state into the reset: the
    // bridge is in reset, the request goes unanswered and is resent
    uint32_t st1 = 0;
    int rc1 = kolo_uart_read32(hs[(size_t)rb].link, KOLO_SVC_HOST_BASE + KOLO_SVC_SYS_FW_STATE, &st1);
    kolo_uart_stats sb;
    kolo_uart_get_stats(hs[(size_t)rb].link, &sb);
    std::printf("%s: board %d: read during the reset answered at %.3f ms after the press (rc %d, FW_STATE %#x, "
                "resends %lu)\n",
                name, rb, ms_after(sim.now()), rc1, st1, sb.resends - sa.resends);
    chk.check(rc1 == 0 && sb.resends > sa.resends,
              "%s: board %d: a read into the reset: rc %d (%s), resends %lu -> %lu (want answered after a resend)",
              name, rb, rc1, rc1 ? kolo_uart_error(hs[(size_t)rb].link) : "", sa.resends, sb.resends);
    // until nb has both links back (counted down once) and rb is up again
    bool back = false;
    LinkView a, b;
    while (!back && sim.now() < t0 + 20 * kPsPerMs) {
        a = links(hs[(size_t)nb], chk, false);
        b = links(hs[(size_t)rb], chk, false);
        back = console_has(hs[(size_t)rb], "kolo firmware ", con);
        for (int p = 0; p < 2; p++) back = back && a.up[p] && b.up[p] && a.down_count[p] != before.down_count[p];
        if (!back) sim.run_ps(kPsPerMs / 4);
    }
    std::printf("%s: board %d chip reset %.3f .. %.3f ms after the press; links back at %.2f ms\n", name, rb,
                ms_after(sim.rw.rst_rise), ms_after(sim.rw.rst_fall), ms_after(sim.now()));
    for (int i = 0; i < 4; i++)
        std::printf("  board %d %s: left up %.4f ms, down %.4f ms, up again %.4f ms\n", i / 2, kPortName[i % 2],
                    ms_after(sim.rw.left_up[i]), ms_after(sim.rw.down_at[i]), ms_after(sim.rw.back_up[i]));
    chk.check(back, "%s: 20 ms after board %d's reset: board %d links up %d/%d, LINK_DOWN_COUNT %u/%u (before %u/%u), "
                    "board %d links up %d/%d, banner %s",
              name, rb, nb, a.up[0], a.up[1], a.down_count[0], a.down_count[1], before.down_count[0],
              before.down_count[1], rb, b.up[0], b.up[1],
              console_has(hs[(size_t)rb], "kolo firmware ", con) ? "seen" : "not seen");
    // the firmwares settle (nb recomputes its table after the fault news)
    wait_running(sim, hs, chk);
    poll_console(hs, 1);
    std::printf("%s: after board %d's reset, at %.2f ms:\n", name, rb, ms_after(sim.now()));
    char when[64];
    std::snprintf(when, sizeof when, "%s: after the reset: ", name);
    for (Host& h : hs) {
        LinkView v = links(h, chk, true);
        for (int p = 0; p < 2; p++) {
            check_link(chk, h.board, v, p, when);
            uint32_t want_downs = h.board == nb ? before.down_count[p] + 1 : 0;
            chk.check(v.down_count[p] == want_downs,
                      "%sboard %d %s: LINK_DOWN_COUNT %u, want %u (board %d: one more; board %d: counted from its "
                      "reset)",
                      when, h.board, kPortName[p], v.down_count[p], want_downs, nb, rb);
        }
    }
    print_link_counters(sim, "after the reset");
    for (int i = 0; i < 4; i++)
        if (sim.rw.ctrl_first_t[i])
            std::printf("  board %d %s: ctrl_errors grew from %.4f ms (state %u) to %.4f ms (state %u)\n", i / 2,
                        kPortName[i % 2], ms_after(sim.rw.ctrl_first_t[i]), sim.rw.ctrl_first_st[i],
                        ms_after(sim.rw.ctrl_last_t[i]), sim.rw.ctrl_last_st[i]);
    const uint64_t budget_ps = (uint64_t)kTrainBudget * kCorePs;
    for (int p = 0; p < 2; p++) {
        const int n = 2 * nb + p;  // the neighbour's link end
        std::printf("  board %d %s link counters over the reset:", nb, kPortName[p]);
        for (int c = 0; c < 16; c++)
            if (link_counter(sim, n, c) != cnt[n][c] && c != 7 && c != 9)
                std::printf(" %s +%u", kLinkCounterNames[c], link_counter(sim, n, c) - cnt[n][c]);
        std::printf("\n");
        const uint64_t lu = sim.rw.left_up[n], dn = sim.rw.down_at[n], fall = sim.rw.rst_fall;
        chk.check(dn != 0 && sim.rw.back_up[n] > dn,
                  "%s: board %d %s: kolo_link down at %.4f ms, up again at %.4f ms after the press (want down, then up)",
                  name, nb, kPortName[p], ms_after(dn), ms_after(sim.rw.back_up[n]));
        chk.check(link_counter(sim, n, LC_LINK_DOWNS) == cnt[n][LC_LINK_DOWNS] + 1,
                  "%s: board %d %s: kolo_link link_downs %u -> %u, want one more", name, nb, kPortName[p],
                  cnt[n][LC_LINK_DOWNS], link_counter(sim, n, LC_LINK_DOWNS));
        if (budget)
            // by the budget: training from the moment it left up, TRAIN_BUDGET
            // core cycles (and the lane's few cycles to notice), all while
            // board rb was still in reset; not by its fresh INIT
            chk.check(lu && dn && fall && dn >= lu + budget_ps && dn <= lu + budget_ps + budget_ps / 100 && dn < fall,
                      "%s: board %d %s: down %.4f ms after leaving up (want the budget, %.4f ms, +1%%), at %.4f ms "
                      "after the press, board %d out of reset at %.4f ms (want down before: the budget path, not "
                      "the restarted neighbour's)",
                      name, nb, kPortName[p], lu && dn ? (double)(dn - lu) / (double)kPsPerMs : -1.0,
                      (double)budget_ps / (double)kPsPerMs, ms_after(dn), rb, ms_after(fall));
        else
            chk.check(lu && dn && fall && dn > fall && dn < lu + budget_ps,
                      "%s: board %d %s: down at %.4f ms after the press, board %d out of reset at %.4f ms (want down "
                      "after it, within the budget: the restarted neighbour's fresh INIT, not the budget)",
                      name, nb, kPortName[p], ms_after(dn), rb, ms_after(fall));
        if (plant == "short-press" && chk.failures()) return -1;  // caught: the rest is the clean run's
        for (int bd = 0; bd < 2; bd++) {
            // link end i and its far end 3 - i (board 0 X+ with board 1 X-);
            // board rb's counters count from its reset, board nb's over it
            int i = 2 * bd + p, f = 3 - i;
            uint32_t crc = link_counter(sim, i, LC_CRC) - (bd == nb ? cnt[i][LC_CRC] : 0);
            uint32_t seq = link_counter(sim, i, LC_SEQ) - (bd == nb ? cnt[i][LC_SEQ] : 0);
            uint32_t far_replays = link_counter(sim, f, LC_REPLAYS) - (f / 2 == nb ? cnt[f][LC_REPLAYS] : 0);
            chk.check(crc == 0 && seq == 0 && far_replays == 0,
                      "%s: board %d %s: kolo_link crc_errors +%u, seq_errors +%u, far end's replays +%u over the "
                      "reset (want 0: nothing garbled, no frame against a restarted sequence space, no frame "
                      "lost once the link was back)",
                      name, bd, kPortName[p], crc, seq, far_replays);
        }
    }
    uint32_t mgmt_tx_nb = 0, mgmt_rx_rb = 0;
    for (Host& h : hs) {
        Regs r{h, chk};
        uint32_t st = r.svc(KOLO_SVC_SYS_FW_STATE), node = r.svc(KOLO_SVC_SYS_NODE_ID),
                 rxc = r.svc(KOLO_SVC_MBX_RX_COUNT), txc = r.svc(KOLO_SVC_MBX_TX_COUNT),
                 drops = r.svc(KOLO_SVC_MBX_RX_DROPS), faults = r.svc(KOLO_SVC_SYS_SP_FAULTS),
                 ldrops = r.svc(KOLO_SVC_RTR_LOCAL_DROPS);
        std::printf("  board %d: firmware stage %u, MGMT sent %u received %u dropped %u, SP faults %u, "
                    "RTR_LOCAL_DROPS %u\n",
                    h.board, st & 15u, txc, rxc, drops, faults, ldrops);
        chk.check((st & KOLO_SVC_SYS_FW_STATE_STAGE_MASK) == 3 &&
                      (node & KOLO_SVC_SYS_NODE_ID_ID_MASK) == (uint32_t)h.board,
                  "%sboard %d: firmware stage %u (want 3), node id %#x", when, h.board, st & 15u, node);
        chk.check(drops == 0 && faults == 0 && ldrops == 0,
                  "%sboard %d: MGMT dropped %u, SP faults %u, RTR_LOCAL_DROPS %u (want 0)", when, h.board, drops,
                  faults, ldrops);
        if (h.board == nb) mgmt_tx_nb = txc;
        if (h.board == rb) mgmt_rx_rb = rxc;
    }
    // nb's firmware tells rb its link state once the links are back
    // (LINK_DOWN then LINK_UP: its own record changed, and a link that
    // comes up is synchronised): MGMT over the cables
    chk.check(mgmt_tx_nb > mgmt_tx_nb0 && mgmt_rx_rb > 0,
              "%sboard %d's firmware sent %u MGMT packets (%u before), board %d's mailbox received %u since its "
              "reset (want more, and > 0: the news of the links that went down and up)",
              when, nb, mgmt_tx_nb, mgmt_tx_nb0, rb, mgmt_rx_rb);
    std::printf("  board %d's firmware sent %u MGMT packets over the reset\n", nb, mgmt_tx_nb - mgmt_tx_nb0);
    // board rb's host starts a new session (two NOPs) on the restarted board
    Host& hr = hs[(size_t)rb];
    char err[256] = "";
    const bool opened = new_session(hr, err, sizeof err);
    uint32_t id1 = 0;
    chk.check(opened && kolo_uart_read32(hr.link, KOLO_SVC_HOST_BASE + KOLO_SVC_SYS_ID, &id1) == 0 &&
                  id1 == KOLO_SVC_SYS_ID_RESET,
              "%s: board %d: a new session after the reset: %s, SYS_ID %08x", name, rb, opened ? "open" : err, id1);
    if (!opened) return -1;
    // one host message each way through both firmwares (the restarted one
    // serves host messages again; MGMT both ways over the retrained links)
    if (hmsg) message_each_way(hs, chk, rng, when, rb);
    sim.rw.on = false;
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < 4; k++) g_line_base[i][k] = link_counter(sim, i, kLine[k]);
    const double ms = ms_after(sim.now());
    std::printf("%s: done %.2f ms after the press%s\n", name, ms, hmsg ? " (a host message each way received)" : "");
    return ms;
}
// ---- both reset buttons at once ------------------------------------------------------
// Case D: both boards' buttons pressed together for press_us (20..200 us):
// a cluster-wide restart, nobody left to remember the other. Checked after
// it: both boot again (banners, firmware running, node ids from the
// straps); all four link ends up again with the right peers, every kolo_link
// counter and LINK_DOWN_COUNT counting from the reset (no link down, no
// CRC, sequence or control-block error, no replay: the two ends restart
// together); no mailbox drops, processor faults or local drops; board 0's
// host keeps its session through the reset (a read sent into it answered
// after a resend), both hosts open new sessions, then one host message
// each way through both restarted firmwares. Returns the simulated ms from
// the press to the end.
double both_reset_case(Sim& sim, std::vector<Host>& hs, tb::Checker& chk, tb::Rng& rng, uint32_t press_us,
                       const std::string& plant) {
    const char* name = "reset D";
    size_t con[2];
    for (int b = 0; b < 2; b++) con[b] = hs[(size_t)b].console.size();
    kolo_uart_stats sa;
    kolo_uart_get_stats(hs[0].link, &sa);
    const uint64_t t0 = sim.now();
    sim.rw = ResetWatch{};
    sim.rw.on = true;
    sim.rw.board = 1;
    sim.rw.t0 = t0;
    sim.rw.release_mask = plant == "d-stagger" ? 1 : 3;  // plant: board 1's button held 5 ms longer
    sim.rw.release_at = t0 + (uint64_t)press_us * 1000000ull;
    sim.top->btn_rst_n = 0;
    std::printf("%s: both reset buttons pressed for %u us at %.3f ms\n", name, press_us, io_now(&hs[0]));
    auto ms_after = [&](uint64_t t) { return t ? (double)(t - t0) / (double)kPsPerMs : -1.0; };
    uint32_t st = 0;
    int rc = kolo_uart_read32(hs[0].link, KOLO_SVC_HOST_BASE + KOLO_SVC_SYS_FW_STATE, &st);
    kolo_uart_stats sb;
    kolo_uart_get_stats(hs[0].link, &sb);
    chk.check(rc == 0 && sb.resends > sa.resends,
              "%s: board 0: a read into the reset: rc %d, resends %lu -> %lu (want answered after a resend)", name,
              rc, sa.resends, sb.resends);
    if (plant == "d-stagger") {
        const uint64_t late = t0 + (uint64_t)press_us * 1000000ull + 5 * kPsPerMs;
        if (sim.now() < late) sim.run_ps(late - sim.now());
        sim.top->btn_rst_n |= 2;
    }
    // both banners again and the four link ends up after the reset
    bool back = false;
    LinkView v[2];
    while (!back && sim.now() < t0 + 20 * kPsPerMs) {
        back = true;
        for (int b = 0; b < 2; b++) {
            v[b] = links(hs[(size_t)b], chk, false);
            back = back && console_has(hs[(size_t)b], "kolo firmware ", con[b]) && v[b].up[0] && v[b].up[1];
        }
        if (!back) sim.run_ps(kPsPerMs / 4);
    }
    std::printf("%s: board 1 chip reset %.3f .. %.3f ms after the press; links and banners back at %.2f ms\n", name,
                ms_after(sim.rw.rst_rise), ms_after(sim.rw.rst_fall), ms_after(sim.now()));
    chk.check(back, "%s: 20 ms after the press: links up %d/%d and %d/%d, banners %d %d", name, v[0].up[0],
              v[0].up[1], v[1].up[0], v[1].up[1], console_has(hs[0], "kolo firmware ", con[0]),
              console_has(hs[1], "kolo firmware ", con[1]));
    wait_running(sim, hs, chk);
    char when[64];
    std::snprintf(when, sizeof when, "%s: after the reset: ", name);
    for (Host& h : hs) {
        LinkView lv = links(h, chk, true);
        for (int p = 0; p < 2; p++) {
            check_link(chk, h.board, lv, p, when);
            chk.check(lv.down_count[p] == 0, "%sboard %d %s: LINK_DOWN_COUNT %u, want 0 (counted from its reset)",
                      when, h.board, kPortName[p], lv.down_count[p]);
        }
    }
    print_link_counters(sim, "after the reset");
    static const int kZero[5] = {LC_CRC, LC_SEQ, LC_CTRL_ERR, LC_REPLAYS, LC_LINK_DOWNS};
    for (int i = 0; i < 4; i++)
        for (int c : kZero)
            chk.check(link_counter(sim, i, c) == 0,
                      "%sboard %d %s: kolo_link %s %u since the reset, want 0 (both ends restarted together)", when,
                      i / 2, kPortName[i % 2], kLinkCounterNames[c], link_counter(sim, i, c));
    for (Host& h : hs) {
        Regs r{h, chk};
        uint32_t fw = r.svc(KOLO_SVC_SYS_FW_STATE), node = r.svc(KOLO_SVC_SYS_NODE_ID),
                 drops = r.svc(KOLO_SVC_MBX_RX_DROPS), faults = r.svc(KOLO_SVC_SYS_SP_FAULTS),
                 ldrops = r.svc(KOLO_SVC_RTR_LOCAL_DROPS);
        std::printf("  board %d: firmware stage %u, MGMT dropped %u, SP faults %u, RTR_LOCAL_DROPS %u\n", h.board,
                    fw & 15u, drops, faults, ldrops);
        chk.check((fw & KOLO_SVC_SYS_FW_STATE_STAGE_MASK) == 3 &&
                      (node & KOLO_SVC_SYS_NODE_ID_ID_MASK) == (uint32_t)h.board && drops == 0 && faults == 0 &&
                      ldrops == 0,
                  "%sboard %d: firmware stage %u (want 3), node id %#x, MGMT dropped %u, SP faults %u, "
                  "RTR_LOCAL_DROPS %u (want 0)",
                  when, h.board, fw & 15u, node, drops, faults, ldrops);
    }
    // both hosts start new sessions, then one host message each way
    for (Host& h : hs) {
        char err[256] = "";
        if (!chk.check(new_session(h, err, sizeof err), "%sboard %d: no new session: %s", when, h.board, err))
            return -1;
    }
    message_each_way(hs, chk, rng, when, 0);
    sim.rw.on = false;
    const double ms = ms_after(sim.now());
    std::printf("%s: done %.2f ms after the press (a host message each way received)\n", name, ms);
    return ms;
}
}  // namespace

int main(int argc, char** argv) {
    Verilated::commandArgs(argc, argv);
    const uint64_t seed = tb::seed_from(argc, argv);
    std::string plant;
    bool quick = false;
    for (int i = 1; i < argc; i++) {
        if (!std::strncmp(argv[i], "--plant=", 8)) plant = argv[i] + 8;
        if (!std::strcmp(argv[i], "--quick")) quick = true;
    }
    std::printf("board-sim-ecp5: SEED=%llu%s%s%s\n", (unsigned long long)seed, plant.empty() ? "" : " plant ",
                plant.c_str(), quick ? " quick (reset A only)" : "");
    tb::Rng rng(seed);
    tb::Checker chk("board-sim-ecp5");
    g_cable_words = 4 + rng.below(60);
    std::printf("cable latency %zu words\n", g_cable_words);

    Sim sim;
    sim.ctx = std::make_unique<VerilatedContext>();
    sim.ctx->commandArgs(argc, argv);
    sim.top = std::make_unique<Vtb_board_sim_ecp5>(sim.ctx.get());
    std::vector<Host> hs(2);
    for (int b = 0; b < 2; b++) {
        hs[(size_t)b].sim = &sim;
        hs[(size_t)b].board = b;
    }
    for (Host& h : hs) sim.hosts.push_back(&h);
    sim.top->btn_rst_n = 3;
    sim.top->uart_rx = 3;
    sim.top->eval();  // the models' initial blocks open the channels

    // the cables: X+ (channel 0) of one board to X- (channel 1) of the other
    chk.check(g_ch.size() == 4, "%zu SERDES channels opened, want 4", g_ch.size());
    for (int b = 0; b < 2; b++)
        for (int ch = 0; ch < 2; ch++) {
            int rx = find_channel(b, ch);
            int far_ch = plant == "crossed" ? ch : 1 - ch;
            if (rx >= 0) g_ch[(size_t)rx].src = find_channel(1 - b, far_ch);
        }
    if (plant == "dead") g_ch[(size_t)find_channel(0, 0)].cut_tx = true;

    // the hosts' sessions (the boards come out of reset meanwhile: attempts
    // of 2 ms, many of them)
    for (Host& h : hs) {
        char err[256] = "";
        if (!chk.check(new_session(h, err, sizeof err), "board %d: no session over the UART: %s", h.board, err))
            return chk.finish(seed, "");
    }
    std::printf("sessions open at %.2f ms\n", io_now(&hs[0]));

    // identity from the straps
    for (Host& h : hs) {
        Regs r{h, chk};
        uint32_t id = r.svc(KOLO_SVC_SYS_ID), node = r.svc(KOLO_SVC_SYS_NODE_ID), torus = r.svc(KOLO_SVC_SYS_TORUS);
        chk.check(id == KOLO_SVC_SYS_ID_RESET && (node & KOLO_SVC_SYS_NODE_ID_ID_MASK) == (uint32_t)h.board &&
                      (torus & 0xFFFu) == 0x001u,
                  "board %d: SYS_ID %08x NODE_ID %#x TORUS %#x, want %08x %#x 0x001", h.board, id, node, torus,
                  KOLO_SVC_SYS_ID_RESET, h.board);
    }

    // links
    bool up = wait_links(hs, chk, 40.0);
    std::printf("links %s at %.2f ms\n", up ? "up" : "NOT up", io_now(&hs[0]));
    chk.check(up, "the links did not all come up in 40 ms");
    poll_console(hs, 1);
    for (Host& h : hs) {
        LinkView v = links(h, chk, true);
        for (int p = 0; p < 2; p++) check_link(chk, h.board, v, p, "");
    }

    // the firmware: running, the two exchanged MGMT packets, the banner came
    for (int tries = 0; tries < 40; tries++) {
        bool running = true;
        for (Host& h : hs) {
            Regs r{h, chk};
            running = running && (r.svc(KOLO_SVC_SYS_FW_STATE) & KOLO_SVC_SYS_FW_STATE_STAGE_MASK) == 3;
        }
        if (running) break;
        sim.run_ps(kPsPerMs / 2);
    }
    for (Host& h : hs) {
        Regs r{h, chk};
        uint32_t st = r.svc(KOLO_SVC_SYS_FW_STATE), rxc = r.svc(KOLO_SVC_MBX_RX_COUNT),
                 txc = r.svc(KOLO_SVC_MBX_TX_COUNT), drops = r.svc(KOLO_SVC_MBX_RX_DROPS),
                 faults = r.svc(KOLO_SVC_SYS_SP_FAULTS), beat = r.svc(KOLO_SVC_SYS_FW_HEARTBEAT);
        std::printf("  board %d: firmware stage %u, heartbeat %u, MGMT sent %u received %u dropped %u, SP faults %u\n",
                    h.board, st & 15u, beat, txc, rxc, drops, faults);
        chk.check((st & KOLO_SVC_SYS_FW_STATE_STAGE_MASK) == 3, "board %d: firmware stage %u, want 3 (running)",
                  h.board, st & 15u);
        chk.check(drops == 0 && faults == 0,
                  "board %d: MGMT sent %u received %u dropped %u, SP faults %u", h.board, txc, rxc, drops, faults);
        chk.check(console_has(h, "kolo firmware "), "board %d: no firmware banner on the console (got '%s')",
                  h.board, h.console.c_str());
        // the firmware serves host messages: host writes open, the area's id
        // set; a host write of SYS_HOST_ACCESS itself is refused and counted
        uint32_t acc = r.svc(KOLO_SVC_SYS_HOST_ACCESS), area = r.svc(KOLO_FWM_HMSG_ID);
        uint32_t ref0 = r.svc(KOLO_SVC_SYS_HOST_REFUSED);
        int rc = kolo_uart_write32(h.link, KOLO_SVC_HOST_BASE + KOLO_SVC_SYS_HOST_ACCESS, 0u);
        uint32_t ref1 = r.svc(KOLO_SVC_SYS_HOST_REFUSED), acc1 = r.svc(KOLO_SVC_SYS_HOST_ACCESS);
        chk.check(acc == 1 && area == KOLO_FWM_HMSG_AREA_ID && rc == KOLO_E_IO && ref1 == ref0 + 1 && acc1 == 1,
                  "board %d: HOST_ACCESS %u, HMSG_ID %08x (want 1, %08x); host write of HOST_ACCESS: rc %d, "
                  "HOST_REFUSED %u -> %u, HOST_ACCESS then %u",
                  h.board, acc, area, KOLO_FWM_HMSG_AREA_ID, rc, ref0, ref1, acc1);
        // bad input: outside the service window (no NI on this board), then a good read
        uint32_t junk = 0x12345678u;
        int rc_out = kolo_uart_read32(h.link, 0x0u, &junk);
        int rc_hi = kolo_uart_write32(h.link, 0x10000u, 1u);
        uint32_t id2 = r.svc(KOLO_SVC_SYS_ID);
        chk.check(rc_out == KOLO_E_IO && rc_hi == KOLO_E_IO && id2 == KOLO_SVC_SYS_ID_RESET,
                  "board %d: read of BAR0 0x0: rc %d, write of 0x10000: rc %d (want both %d), then SYS_ID %08x",
                  h.board, rc_out, rc_hi, KOLO_E_IO, id2);
        uint32_t ldrops = r.svc(KOLO_SVC_RTR_LOCAL_DROPS);
        chk.check(ldrops == 0, "board %d: RTR_LOCAL_DROPS %u, want 0", h.board, ldrops);
    }

    // ---- host messages (issue 18): a host program on each board sends the other's ---------
    // (the link plants skip it: they are caught before or by the reset)
    if (chk.failures())
        std::printf("host messages not tried: the checks above failed\n");
    else if (!plant.empty() && plant != "hmsg-drop" && plant != "hmsg-switch")
        std::printf("host messages not tried: plant %s is about the links\n", plant.c_str());
    else
        host_messages(sim, hs, chk, rng, plant == "hmsg-switch");

    // ---- reset buttons (issue 18) -----------------------------------------------------------
    // four presses, each with both links up and both firmwares running
    // (reset_case): A, board 1 for 20..200 us (shorter than the link's
    // TRAIN_BUDGET: board 0's links go down by board 1's fresh INIT); B, board
    // 0 the same (the neighbour is now board 1, and board 1's firmware
    // remembers board 0's records from before, the life board 0 lost: board 0
    // restates its own with a higher number); C, board 1 for 3.2..4.0 ms,
    // longer than TRAIN_BUDGET (3.0 ms): board 0's links go down by the
    // budget while board 1 is still in reset; D, both boards at once for
    // 20..200 us (both_reset_case). After B and D, one host message each
    // way (the restarted firmwares serve host messages again). A link plant
    // runs only its case.
    const uint32_t press_a = 20 + rng.below(181);
    const uint32_t press_b = 20 + rng.below(181);
    uint32_t press_c = 3200 + rng.below(801);
    const uint32_t press_d = 20 + rng.below(181);
    if (plant == "short-press") press_c = 2000;  // plant: C's press within the budget
    std::string cases = "ABCD";
    if (plant == "swap-on-reset") cases = "A";
    if (plant == "short-press") cases = "C";
    if (plant == "d-stagger") cases = "D";
    if (quick && plant.empty()) cases = "A";
    double case_ms[4] = {-1, -1, -1, -1};
    for (char c : cases) {
        if (chk.failures()) {
            std::printf("reset %c not tried: the checks above failed\n", c);
            continue;
        }
        if (c == 'A') case_ms[0] = reset_case(sim, hs, chk, rng, "reset A", 1, press_a, false, false, plant);
        if (c == 'B') case_ms[1] = reset_case(sim, hs, chk, rng, "reset B", 0, press_b, false, true, plant);
        if (c == 'C') case_ms[2] = reset_case(sim, hs, chk, rng, "reset C", 1, press_c, true, false, plant);
        if (c == 'D') case_ms[3] = both_reset_case(sim, hs, chk, rng, press_d, plant);
        if (!hs[0].link || !hs[1].link) return chk.finish(seed, "");
    }
    uint64_t words = 0;
    for (const Channel& c : g_ch) words += c.rx_words;
    char summary[600];
    kolo_uart_stats st0, st1;
    kolo_uart_get_stats(hs[0].link, &st0);
    kolo_uart_get_stats(hs[1].link, &st1);
    // the presses run, each with its length and its simulated time
    std::string resets;
    const char* who[4] = {"A board 1", "B board 0", "C board 1", "D both"};
    const uint32_t press[4] = {press_a, press_b, press_c, press_d};
    for (int i = 0; i < 4; i++) {
        if (case_ms[i] < 0) continue;
        char one[80];
        std::snprintf(one, sizeof one, "%s%s %u us (%.2f ms)", resets.empty() ? "" : ", ", who[i], press[i],
                      case_ms[i]);
        resets += one;
    }
    std::snprintf(summary, sizeof summary,
                  "%.2f ms simulated, resets: %s, %llu SERDES words received, host requests "
                  "%lu + %lu (resends %lu + %lu, since the last new session), framing errors %lu + %lu",
                  io_now(&hs[0]), resets.empty() ? "none" : resets.c_str(), (unsigned long long)words, st0.requests,
                  st1.requests, st0.resends, st1.resends, hs[0].framing, hs[1].framing);
    for (Host& h : hs) kolo_uart_close(h.link);
    sim.top->final();
    return chk.finish(seed, summary);
}
