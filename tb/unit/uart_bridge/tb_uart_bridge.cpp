// tb_uart_bridge.cpp - the ECP5 board's UART host bridge (kolo_uart_host +
// kolo_uart_tlp) driven by the host library's own code (sw/lib/kolo_uart.c,
// linked in: the same requests, resends and session start as on a real
// board), over a bit-level serial line, with a model of the chip's BAR0
// behind the TLP streams. Per scenario (the host's baud rate 0, +2 %, -2 %
// off the bridge's):
//   - random reads and writes of the BAR0 model: every read returns the
//     last value written, every write reaches the chip exactly once, as a
//     well-formed 1-DW MWr (reads: MRd) at BAR0_BASE + addr with its tag;
//   - faults on the line, seeded: request frames with a flipped bit (the
//     bridge counts a crc error, the host resends), with a byte lost (the
//     bridge drops the partial frame after the pause), answer bytes with a
//     flipped bit (the host drops the frame and resends: the bridge answers
//     from its kept response without a second TLP);
//   - the chip answering some reads with UR (status ERROR), some never
//     (status TIMEOUT) and some too late (the late completion dropped, and
//     the next read not confused by it), and sending TLPs nobody asked for
//     (DMA writes, a stray completion: taken and dropped);
//   - the service processor's console bytes at random times: all arrive in
//     order; a burst larger than the console FIFO: the rest arrive in order
//     and the loss is counted;
//   - at the end every bridge counter (BRIDGE_READ) equals what the test
//     itself counted: CRC_ERRORS, RESENDS, TIMEOUTS, TLP_DROPS, CONSOLE_DROPS.
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Vtb_uart_bridge.h"
#include "tb_util.h"
#include "verilated.h"

extern "C" {
#include "kolo.h"
#include "kolo_uart.h"
#include "kolo_uart_regs.h"
}

namespace {

const double kClockHz = 20e6;
const double kBitCycles = 20.0;  // 1 Mbaud at 20 MHz
const unsigned kTimeout = 2000;  // the bridge's TIMEOUT parameter
const uint32_t kBar0 = 0x80000000u;

struct Cpl {
    uint64_t due;
    uint8_t tag;
    uint8_t status;  // 0 SC, 1 UR
    uint32_t data;
    bool late;
};

struct Sim {
    Vtb_uart_bridge* dut;
    tb::Rng& rng;
    tb::Checker& chk;
    const char* name;
    uint64_t cycle = 0;
    double host_bit;  // the host's bit time in cycles (baud skew)
    // host -> board line
    std::deque<uint8_t> tx_bytes;
    int tx_bit = -1;  // -1 idle, 0 start, 1..8 data, 9 stop
    double tx_next = 0;
    uint8_t tx_cur = 0;
    // board -> host line
    bool rx_busy = false;
    double rx_start = 0;
    int rx_bit = 0;
    uint8_t rx_cur = 0;
    bool rx_prev = true;
    std::deque<uint8_t> rx_bytes;
    unsigned long rx_framing = 0;
    // faults (percent per request frame / per mille per answer byte)
    unsigned corrupt_req = 0, drop_req = 0, corrupt_rsp_pm = 0;
    // what the bridge must have counted
    unsigned long exp_crc = 0, exp_resends = 0, exp_timeouts = 0, exp_tlp_drops = 0;
    bool have_last = false;
    uint8_t last_seq = 0;
    // chip model
    std::map<uint32_t, uint32_t> regs;
    std::map<uint32_t, unsigned> writes;
    std::deque<Cpl> cpls;
    std::vector<std::vector<uint32_t>> unsolicited;  // beats to send (a TLP: hdr, then 2 beats)
    int uns_beat = -1;
    uint64_t next_uns = 0;
    bool dead_read_pending = false;
    // console
    std::deque<uint8_t> con_q;
    std::vector<uint8_t> con_sent, con_got;
    uint8_t con_next = 0;

    Sim(Vtb_uart_bridge* d, tb::Rng& r, tb::Checker& c, const char* n, double skew)
        : dut(d), rng(r), chk(c), name(n), host_bit(kBitCycles * (1.0 + skew)) {}

    static bool in_err(uint32_t a) { return a >= 0x100 && a < 0x110; }
    static bool in_dead(uint32_t a) { return a >= 0x200 && a < 0x204; }
    static bool in_late(uint32_t a) { return a >= 0x300 && a < 0x304; }

    void drive_line() {
        if (tx_bit < 0 && !tx_bytes.empty() && cycle >= tx_next) {
            tx_cur = tx_bytes.front();
            tx_bytes.pop_front();
            tx_bit = 0;
            tx_next = (double)cycle;
        }
        if (tx_bit >= 0 && cycle >= tx_next) {
            dut->rxd = tx_bit == 0 ? 0 : tx_bit == 9 ? 1 : (tx_cur >> (tx_bit - 1)) & 1;
            tx_next += host_bit;
            if (++tx_bit == 10) tx_bit = -1;  // the stop bit runs until tx_next
        } else if (tx_bit < 0 && cycle >= tx_next) {
            dut->rxd = 1;
        }
    }

    void sample_line() {
        bool line = dut->txd;
        if (!rx_busy) {
            if (rx_prev && !line) {
                rx_busy = true;
                rx_start = (double)cycle;
                rx_bit = 1;
                rx_cur = 0;
            }
        } else if ((double)cycle >= rx_start + (rx_bit + 0.5) * host_bit) {
            if (rx_bit <= 8) {
                rx_cur |= (uint8_t)(line << (rx_bit - 1));
                rx_bit++;
            } else {
                if (line) {
                    uint8_t b = rx_cur;
                    if (rng.below(1000) < corrupt_rsp_pm) b ^= (uint8_t)(1u << rng.below(8));
                    rx_bytes.push_back(b);
                } else {
                    rx_framing++;
                }
                rx_busy = false;
            }
        }
        rx_prev = line;
    }

    void chip_tlps(bool m_fire, uint64_t hdr_lo, uint64_t hdr_hi, uint32_t data0, uint8_t dw_en) {
        if (m_fire) {
            uint32_t dw0 = (uint32_t)hdr_lo, dw1 = (uint32_t)(hdr_lo >> 32), dw2 = (uint32_t)hdr_hi;
            uint32_t fmt = dw0 >> 29, type = (dw0 >> 24) & 0x1f, len = dw0 & 0x3ff;
            uint8_t tag = (uint8_t)(dw1 >> 8);
            uint32_t addr = dw2 - kBar0;
            chk.check(type == 0 && len == 1 && (dw1 & 0xff) == 0x0f && (dw2 & 3) == 0 && dw2 >= kBar0,
                      "%s: a malformed request TLP %08x %08x %08x", name, dw0, dw1, dw2);
            if (fmt == 2) {  // MWr
                chk.check(dw_en == 1, "%s: MWr with dw_en %02x", name, dw_en);
                if (!in_err(addr)) {
                    regs[addr] = data0;
                    writes[addr]++;
                }
            } else {
                chk.check(fmt == 0 && dw_en == 0, "%s: MRd with fmt %u dw_en %02x", name, fmt, dw_en);
                if (in_dead(addr)) {
                    exp_timeouts++;
                } else if (in_late(addr)) {
                    exp_timeouts++;
                    exp_tlp_drops++;
                    cpls.push_back({cycle + kTimeout + 300, tag, 0, 0xBAD, true});
                } else {
                    cpls.push_back({cycle + 2 + rng.below(300), tag, (uint8_t)(in_err(addr) ? 1 : 0),
                                    regs.count(addr) ? regs[addr] : 0, false});
                }
            }
        }
    }

    // the chip -> bridge stream for the next edge: a due completion, or an unsolicited TLP
    void drive_chip() {
        dut->s_tlp_valid = 0;
        dut->s_tlp_sop = 0;
        dut->s_tlp_eop = 0;
        if (uns_beat >= 0) {
            dut->s_tlp_valid = 1;
            dut->s_tlp_sop = uns_beat == 0;
            dut->s_tlp_eop = uns_beat == 1;
            for (int i = 0; i < 4; i++) dut->s_tlp_hdr[i] = unsolicited.back()[i];
            dut->s_tlp_dw_en = 0xff;
            return;
        }
        // completions leave in due order (the late one after any normal one)
        for (auto it = cpls.begin(); it != cpls.end(); ++it) {
            if (it->due <= cycle) {
                const Cpl& c = *it;
                bool data = c.status == 0;
                dut->s_tlp_valid = 1;
                dut->s_tlp_sop = 1;
                dut->s_tlp_eop = 1;
                dut->s_tlp_hdr[0] = (data ? 0x4A000001u : 0x0A000000u);
                dut->s_tlp_hdr[1] = 0x01000000u | (uint32_t)c.status << 13 | (data ? 4u : 0u);
                dut->s_tlp_hdr[2] = (uint32_t)c.tag << 8;
                dut->s_tlp_hdr[3] = 0;
                for (int i = 0; i < 8; i++) dut->s_tlp_data[i] = 0;
                dut->s_tlp_data[0] = c.data;
                dut->s_tlp_dw_en = data ? 1 : 0;
                cpls.erase(it);
                return;
            }
        }
        if (cycle >= next_uns && next_uns) {
            // what the chip sends a host: a DMA write (4-DW header, 64-bit address),
            // a DMA read request, an MSI (a 1-DW write to 0xFEE00000)
            std::vector<uint32_t> h(4);
            unsigned k = rng.below(3);
            if (k == 0) {
                h = {0x60000010u, 0x010000ffu, 0x00000001u, 0x12345000u};
            } else if (k == 1) {
                h = {0x20000020u, 0x010005ffu, 0x00000001u, 0x23456000u};
            } else {
                h = {0x40000001u, 0x0100000fu, 0xFEE00000u, 0};
            }
            unsolicited.push_back(h);
            uns_beat = 0;
            exp_tlp_drops++;
            next_uns = cycle + 3000 + rng.below(20000);
            drive_chip();
        }
    }

    void tick() {
        drive_line();
        drive_chip();
        // console bytes at random times
        dut->s_con_valid = 0;
        if (!con_q.empty() && rng.below(1000) < con_rate) {
            dut->s_con_valid = 1;
            dut->s_con_data = con_q.front();
            con_sent.push_back(con_q.front());
            con_q.pop_front();
        }
        dut->m_tlp_ready = rng.chance(80);
        bool m_fire = dut->m_tlp_valid && dut->m_tlp_ready;
        uint64_t hlo = (uint64_t)dut->m_tlp_hdr[1] << 32 | dut->m_tlp_hdr[0];
        uint64_t hhi = (uint64_t)dut->m_tlp_hdr[3] << 32 | dut->m_tlp_hdr[2];
        uint32_t d0 = dut->m_tlp_data[0];
        uint8_t dwen = dut->m_tlp_dw_en;
        bool s_fire = dut->s_tlp_valid && dut->s_tlp_ready;
        dut->clk = 0;
        dut->eval();
        dut->clk = 1;
        dut->eval();
        cycle++;
        if (s_fire && uns_beat >= 0) {
            if (++uns_beat == 2) {
                uns_beat = -1;
                unsolicited.pop_back();
            }
        }
        chip_tlps(m_fire, hlo, hhi, d0, dwen);
        sample_line();
    }
    unsigned con_rate = 0;  // per mille per cycle

    // the host's writes: one request frame, faults applied, the bridge mirrored
    void host_write(const uint8_t* b, size_t n) {
        std::vector<uint8_t> f(b, b + n);
        bool intact = true;
        if (n == KOLO_UART_REQ_BYTES && rng.below(100) < corrupt_req) {
            f[1 + rng.below(11)] ^= (uint8_t)(1u << rng.below(8));
            exp_crc++;
            intact = false;
        } else if (n == KOLO_UART_REQ_BYTES && rng.below(100) < drop_req) {
            f.erase(f.begin() + 1 + rng.below(11));
            intact = false;
        }
        if (intact && n == KOLO_UART_REQ_BYTES) {
            if (have_last && f[2] == last_seq) exp_resends++;
            have_last = true;
            last_seq = f[2];
        }
        for (uint8_t x : f) tx_bytes.push_back(x);
    }
};

int io_write(void* user, const uint8_t* b, size_t n) {
    static_cast<Sim*>(user)->host_write(b, n);
    return 0;
}

long io_read(void* user, uint8_t* b, size_t n, unsigned timeout_ms) {
    Sim* s = static_cast<Sim*>(user);
    uint64_t until = s->cycle + (uint64_t)(timeout_ms * kClockHz / 1000.0);
    while (s->rx_bytes.empty() && s->cycle < until) s->tick();
    size_t k = 0;
    while (k < n && !s->rx_bytes.empty()) {
        b[k++] = s->rx_bytes.front();
        s->rx_bytes.pop_front();
    }
    return (long)k;
}

double io_now(void* user) { return static_cast<Sim*>(user)->cycle * 1000.0 / kClockHz; }

void on_console(void* user, const uint8_t* b, size_t n) {
    Sim* s = static_cast<Sim*>(user);
    s->con_got.insert(s->con_got.end(), b, b + n);
}

bool subsequence(const std::vector<uint8_t>& sub, const std::vector<uint8_t>& all) {
    size_t j = 0;
    for (size_t i = 0; i < all.size() && j < sub.size(); i++)
        if (all[i] == sub[j]) j++;
    return j == sub.size();
}

void scenario(const char* name, double skew, tb::Rng& rng, tb::Checker& chk, std::string& summary) {
    auto ctx = std::make_unique<VerilatedContext>();
    auto dut = std::make_unique<Vtb_uart_bridge>(ctx.get());
    Sim s(dut.get(), rng, chk, name, skew);
    dut->rxd = 1;
    dut->rst = 1;
    for (int i = 0; i < 10; i++) s.tick();
    dut->rst = 0;
    for (int i = 0; i < 10; i++) s.tick();
    s.corrupt_req = 6;
    s.drop_req = 4;
    s.corrupt_rsp_pm = 4;
    s.next_uns = 5000;
    s.con_rate = 1;
    for (int i = 0; i < 300; i++) s.con_q.push_back(s.con_next++);
    kolo_uart_io io = {io_write, io_read, nullptr, &s, io_now};
    char err[256] = "";
    // attempts of 1 ms: a frame pair takes 0.21 ms, the bridge's chip timeout 0.1 ms
    kolo_uart* u = kolo_uart_open_io(&io, 1, 40, err, sizeof err);
    if (!chk.check(u != nullptr, "%s: session: %s", name, err)) return;
    kolo_uart_set_console(u, on_console, &s);
    std::map<uint32_t, uint32_t> shadow;
    unsigned long nwrites = 0, bad = 0;
    unsigned errs = 0, tmos = 0;
    for (int i = 0; i < 300; i++) {
        unsigned kind = rng.below(100);
        uint32_t v = 0;
        if (kind < 45) {
            uint32_t a = 4 * rng.below(32);
            uint32_t val = (uint32_t)rng.next();
            if (kolo_uart_write32(u, a, val) == 0) {
                shadow[a] = val;
                nwrites++;
            } else {
                bad++;
            }
        } else if (kind < 90) {
            uint32_t a = 4 * rng.below(32);
            int rc = kolo_uart_read32(u, a, &v);
            if (rc || v != (shadow.count(a) ? shadow[a] : 0)) {
                bad++;
                chk.check(false, "%s: read %#x: rc %d value %08x, want %08x (%s)", name, a, rc, v,
                          shadow.count(a) ? shadow[a] : 0, kolo_uart_error(u));
            }
        } else if (kind < 94) {
            errs++;
            chk.check(kolo_uart_read32(u, 0x100, &v) == KOLO_E_IO, "%s: UR read not KOLO_E_IO", name);
        } else if (kind < 97) {
            tmos++;
            chk.check(kolo_uart_read32(u, rng.chance(50) ? 0x200 : 0x300, &v) == KOLO_E_TIMEOUT,
                      "%s: unanswered read not KOLO_E_TIMEOUT", name);
        } else {
            chk.check(kolo_uart_bridge_read(u, KOLO_UART_BRIDGE_ID, &v) == 0 && v == KOLO_UART_BRIDGE_ID_RESET,
                      "%s: bridge ID %08x", name, v);
        }
    }
    chk.check(bad == 0, "%s: %lu requests failed (%s)", name, bad, kolo_uart_error(u));
    // every write reached the chip exactly once
    unsigned long chip_writes = 0;
    for (auto& w : s.writes) chip_writes += w.second;
    chk.check(chip_writes == nwrites, "%s: %lu writes done, the chip saw %lu", name, nwrites, chip_writes);
    // console: the rest of the trickle (bytes can be lost with the answer
    // bytes the line corrupts: console frames are not resent)
    while (!s.con_q.empty()) kolo_uart_poll(u, 1);
    kolo_uart_poll(u, 2);
    // the line's faults off: a trickle arrives whole, a burst beyond the FIFO
    // arrives in order less what CONSOLE_DROPS counts
    s.corrupt_req = s.drop_req = s.corrupt_rsp_pm = 0;
    s.next_uns = 0;
    kolo_uart_poll(u, 2);
    uint32_t cd0 = 0, cd1 = 0, cd2 = 0;
    kolo_uart_bridge_read(u, KOLO_UART_BRIDGE_CONSOLE_DROPS, &cd0);
    {
        // lost on the noisy line: at most the FIFO's drops and 4 bytes per
        // answer frame the host dropped for its crc
        kolo_uart_stats st0;
        kolo_uart_get_stats(u, &st0);
        size_t lost = s.con_sent.size() - s.con_got.size();
        chk.check(subsequence(s.con_got, s.con_sent) && lost <= cd0 + 4 * st0.crc_errors,
                  "%s: console on the noisy line: %zu bytes sent, %zu received (in order: %d), FIFO drops %u, "
                  "frames with a bad crc %lu",
                  name, s.con_sent.size(), s.con_got.size(), (int)subsequence(s.con_got, s.con_sent), cd0,
                  st0.crc_errors);
    }
    size_t sent0 = s.con_sent.size(), got0 = s.con_got.size();
    for (int i = 0; i < 100; i++) s.con_q.push_back(s.con_next++);
    while (!s.con_q.empty()) kolo_uart_poll(u, 1);
    kolo_uart_poll(u, 2);
    kolo_uart_bridge_read(u, KOLO_UART_BRIDGE_CONSOLE_DROPS, &cd1);
    std::vector<uint8_t> tr_sent(s.con_sent.begin() + (long)sent0, s.con_sent.end());
    std::vector<uint8_t> tr_got(s.con_got.begin() + (long)got0, s.con_got.end());
    chk.check(tr_got == tr_sent && cd1 == cd0, "%s: console trickle: %zu sent, %zu received, %u dropped", name,
              tr_sent.size(), tr_got.size(), cd1 - cd0);
    size_t before = s.con_got.size(), sent1 = s.con_sent.size();
    for (int i = 0; i < 200; i++) s.con_q.push_back(s.con_next++);
    s.con_rate = 1000;
    while (!s.con_q.empty()) s.tick();
    kolo_uart_poll(u, 10);
    kolo_uart_bridge_read(u, KOLO_UART_BRIDGE_CONSOLE_DROPS, &cd2);
    std::vector<uint8_t> burst_sent(s.con_sent.begin() + (long)sent1, s.con_sent.end());
    std::vector<uint8_t> burst_got(s.con_got.begin() + (long)before, s.con_got.end());
    chk.check(subsequence(burst_got, burst_sent) && burst_got.size() + (cd2 - cd1) == burst_sent.size() &&
                  cd2 > cd1,
              "%s: console burst: %zu sent, %zu received, CONSOLE_DROPS +%u", name, burst_sent.size(),
              burst_got.size(), cd2 - cd1);
    uint32_t crc = 0, res = 0, tmo = 0, drops = 0, cdrops = 0, frame = 0, baud = 0;
    kolo_uart_bridge_read(u, KOLO_UART_BRIDGE_CRC_ERRORS, &crc);
    kolo_uart_bridge_read(u, KOLO_UART_BRIDGE_RESENDS, &res);
    kolo_uart_bridge_read(u, KOLO_UART_BRIDGE_TIMEOUTS, &tmo);
    kolo_uart_bridge_read(u, KOLO_UART_BRIDGE_TLP_DROPS, &drops);
    kolo_uart_bridge_read(u, KOLO_UART_BRIDGE_CONSOLE_DROPS, &cdrops);
    kolo_uart_bridge_read(u, KOLO_UART_BRIDGE_FRAME_ERRORS, &frame);
    kolo_uart_bridge_read(u, KOLO_UART_BRIDGE_BAUD, &baud);
    chk.check(crc == s.exp_crc, "%s: CRC_ERRORS %u, corrupted %lu", name, crc, s.exp_crc);
    chk.check(res == s.exp_resends, "%s: RESENDS %u, expected %lu", name, res, s.exp_resends);
    chk.check(tmo == s.exp_timeouts, "%s: TIMEOUTS %u, expected %lu", name, tmo, s.exp_timeouts);
    chk.check(drops == s.exp_tlp_drops, "%s: TLP_DROPS %u, expected %lu", name, drops, s.exp_tlp_drops);
    chk.check(frame == 0 && s.rx_framing == 0, "%s: framing errors: bridge %u, host %lu", name, frame,
              s.rx_framing);
    chk.check(baud == 1000000, "%s: BAUD %u", name, baud);
    kolo_uart_stats st;
    kolo_uart_get_stats(u, &st);
    char line[400];
    snprintf(line, sizeof line,
             "%s: %lu requests (%u UR, %u unanswered), %lu resends, bridge crc %u resends %u tlp drops %u, "
             "console burst %zu of %zu (%u dropped), %.1f ms; ",
             name, st.requests, errs, tmos, st.resends, crc, res, drops, burst_got.size(), burst_sent.size(),
             cdrops, io_now(&s));
    summary += line;
    kolo_uart_close(u);
}

}  // namespace

int main(int argc, char** argv) {
    Verilated::commandArgs(argc, argv);
    const uint64_t seed = tb::seed_from(argc, argv);
    std::printf("unit-uart-bridge: SEED=%llu\n", (unsigned long long)seed);
    tb::Rng rng(seed);
    tb::Checker chk("unit-uart-bridge");
    std::string summary;
    scenario("baud exact", 0.0, rng, chk, summary);
    scenario("host 2% slow", 0.02, rng, chk, summary);
    scenario("host 2% fast", -0.02, rng, chk, summary);
    return chk.finish(seed, summary);
}
