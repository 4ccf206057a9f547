// tb_cpu.cpp - kolo_sp (rtl/cpu) running a program, checked in lock step
// against the reference ISS (rv32_iss.h).
//
// Every instruction kolo_sp completes or traps (its trace port) is compared
// with one step of the ISS: pc, instruction, trap and cause, the register
// written and its value, the load/store address, store lanes and data.
// Around the core: a C++ AXI4-Lite slave on m_axil_* (a RAM of 2^15 bytes
// with random ready and response delays, SLVERR for partial strobes and at
// 0x7000..0x77FF, DECERR at 0x7800..0x7EFF, a late response (after the
// core's timeout) at 0x7FF8, and a control word at 0x7F00 that drives the
// irq input), random back-pressure on the console, and checks of the AXI
// rules (valid held, payload stable, one access at a time), of the fault
// pulse after every fault, of the console bytes and heartbeat, and that an
// enabled pending external interrupt is taken. The ISS learns what it cannot
// know (time, mip, mcycle, the console status) from the RTL and the slave;
// the slave's log of accesses must match the ISS's device accesses one for
// one.
//
//   tb_cpu --imem=F.hex --dmem=F.hex [--seed=N] [--max-cycles=N] [--cover=rv32im|traps|irq|bus]
//          [--console-slow] [--irq-random] [--no-iss] [--quiet] [--stats]
// --cover fails the run unless every instruction (and trap, interrupt, bus error kind) of
// that set was executed; --irq-random raises the irq line at random (the program's
// handler lowers it through the control word).
// Ends when the program writes the finisher (FINISH_CTRL): 0x5555 passes,
// 0x3333 | code << 16 fails. Prints PASS/FAIL with the seed, cycles,
// instructions and CPI (cycles per instruction completed).
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

#include "Vkolo_sp.h"
#include "verilated.h"

#include "kolo_sp_regs.h"
#include "rv32_iss.h"
#include "sp_images.h"
#include "tb_util.h"

namespace {

constexpr uint32_t SVC_BYTES = 0x8000;
constexpr uint32_t ERR_LO = 0x7000, ERR_HI = 0x7800, DEC_HI = 0x7F00, IRQ_CTRL = 0x7F00, LATE = 0x7FF8;
constexpr unsigned BUS_TIMEOUT = TB_BUS_TIMEOUT;  // the build's kolo_sp BUS_TIMEOUT
constexpr unsigned LATE_CYCLES = 3 * BUS_TIMEOUT;

uint64_t g_seed, g_cyc;
bool g_quiet;

[[noreturn]] void fail(const char *fmt, ...) {
    std::va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "FAIL unit-cpu: cycle %llu: ", (unsigned long long)g_cyc);
    std::vfprintf(stderr, fmt, ap);
    std::fputc('\n', stderr);
    va_end(ap);
    std::printf("FAIL unit-cpu (seed %llu; replay with --seed=%llu)\n", (unsigned long long)g_seed,
                (unsigned long long)g_seed);
    std::exit(1);
}

std::vector<uint8_t> read_hex(const std::string &path, size_t max) {
    std::vector<uint8_t> b;
    FILE *f = std::fopen(path.c_str(), "r");
    if (!f) fail("cannot read %s", path.c_str());
    unsigned w;
    while (std::fscanf(f, "%x", &w) == 1)
        for (int i = 0; i < 4; i++) b.push_back((uint8_t)(w >> (8 * i)));
    std::fclose(f);
    if (b.size() > max) fail("%s: %zu bytes, the RAM has %zu", path.c_str(), b.size(), max);
    return b;
}

// ---- the AXI4-Lite slave ---------------------------------------------------------------------
struct Access {
    bool write;
    uint32_t addr, wdata;
    unsigned strb;
    int resp;  // 0 OKAY, 2 SLVERR, 3 DECERR, -1 late (after the core's timeout)
    uint32_t rdata;
};

struct Slave {
    tb::Rng *rng = nullptr;
    std::vector<uint32_t> mem = std::vector<uint32_t>(SVC_BYTES / 4);
    std::deque<Access> log;   // accesses not yet matched by the ISS
    bool aw_got = false, w_got = false;
    uint32_t aw_addr = 0, w_data = 0;
    unsigned w_strb = 0;
    bool resp_pending = false, resp_write = false;
    int resp_code = 0;
    uint32_t resp_data = 0;
    uint64_t resp_at = 0;
    bool late_outstanding = false;   // a late response not yet given
    int irq = 0;
    int irq_next = 0;
    uint64_t irq_at = 0;
    unsigned long n_reads = 0, n_writes = 0, n_err = 0, n_late = 0;
    // AXI rule checks: what was offered and not taken last cycle
    bool held_aw = false, held_w = false, held_ar = false;
    uint32_t held_awaddr = 0, held_wdata = 0, held_araddr = 0;
    unsigned held_wstrb = 0;

    unsigned delay() { return rng->chance(60) ? 0 : rng->below(4); }

    int classify(bool write, uint32_t a, unsigned strb) const {
        if (a >= LATE) return -1;
        if (a >= ERR_LO && a < ERR_HI) return 2;
        if (a >= ERR_HI && a < DEC_HI) return 3;
        if (write && strb != 0xf) return 2;
        return 0;
    }

    void drive(Vkolo_sp *t) {
        bool busy = resp_pending;
        t->m_axil_awready = !busy && !aw_got && rng->chance(70);
        t->m_axil_wready = !busy && !w_got && rng->chance(70);
        t->m_axil_arready = !busy && rng->chance(70);
        bool give = resp_pending && g_cyc >= resp_at;
        t->m_axil_bvalid = give && resp_write;
        t->m_axil_bresp = (uint8_t)(resp_write ? (resp_code < 0 ? 0 : resp_code) : 0);
        t->m_axil_rvalid = give && !resp_write;
        t->m_axil_rresp = (uint8_t)(!resp_write ? (resp_code < 0 ? 0 : resp_code) : 0);
        t->m_axil_rdata = give && !resp_write ? resp_data : (uint32_t)rng->next();
        t->irq = (uint8_t)irq;
    }

    // handshakes of this cycle (sampled before the clock edge)
    void sample(Vkolo_sp *t) {
        // valid/ready rules: an offer not taken stays, unchanged
        if (held_aw && (!t->m_axil_awvalid || t->m_axil_awaddr != held_awaddr)) fail("AXI: AW withdrawn or changed");
        if (held_w && (!t->m_axil_wvalid || t->m_axil_wdata != held_wdata || t->m_axil_wstrb != held_wstrb))
            fail("AXI: W withdrawn or changed");
        if (held_ar && (!t->m_axil_arvalid || t->m_axil_araddr != held_araddr)) fail("AXI: AR withdrawn or changed");
        held_aw = t->m_axil_awvalid && !t->m_axil_awready;
        held_w = t->m_axil_wvalid && !t->m_axil_wready;
        held_ar = t->m_axil_arvalid && !t->m_axil_arready;
        held_awaddr = t->m_axil_awaddr, held_wdata = t->m_axil_wdata, held_wstrb = t->m_axil_wstrb;
        held_araddr = t->m_axil_araddr;
        if (!t->m_axil_bready || !t->m_axil_rready) fail("AXI: BREADY/RREADY low");
        bool aw = t->m_axil_awvalid && t->m_axil_awready, w = t->m_axil_wvalid && t->m_axil_wready;
        bool ar = t->m_axil_arvalid && t->m_axil_arready;
        if ((aw || w) && ar) fail("AXI: a read and a write at once");
        if ((aw || w || ar) && resp_pending) fail("AXI: a new access while a response is outstanding");
        if (aw) aw_got = true, aw_addr = t->m_axil_awaddr;
        if (w) w_got = true, w_data = t->m_axil_wdata, w_strb = t->m_axil_wstrb;
        if (aw_got && w_got) {
            aw_got = w_got = false;
            if (aw_addr & 3) fail("AXI: write address %04x not word aligned", aw_addr);
            int c = classify(true, aw_addr, w_strb);
            if (c == 0) {
                uint32_t &m = mem[aw_addr / 4];
                for (int i = 0; i < 4; i++)
                    if (w_strb >> i & 1) m = (m & ~(0xffu << (8 * i))) | (w_data & (0xffu << (8 * i)));
                if (aw_addr == IRQ_CTRL) irq_next = (int)(w_data & 1), irq_at = g_cyc + (w_data >> 8);
            }
            log.push_back({true, aw_addr, w_data, w_strb, c, 0});
            start_resp(true, c, 0);
            n_writes++;
        }
        if (ar) {
            uint32_t a = t->m_axil_araddr;
            if (a & 3) fail("AXI: read address %04x not word aligned", a);
            int c = classify(false, a, 0xf);
            uint32_t d = c == 0 ? mem[a / 4] : 0;
            log.push_back({false, a, 0, 0, c, d});
            start_resp(false, c, d);
            n_reads++;
        }
        if (resp_pending && g_cyc >= resp_at) {   // B/R given this cycle (BREADY/RREADY high)
            resp_pending = false;
            if (resp_code < 0) late_outstanding = false;
        }
        if (irq_at && g_cyc >= irq_at) irq = irq_next, irq_at = 0;
    }

    void start_resp(bool write, int code, uint32_t data) {
        resp_pending = true;
        resp_write = write;
        resp_code = code;
        resp_data = data;
        resp_at = g_cyc + 1 + (code < 0 ? LATE_CYCLES : delay());
        if (code) n_err++;
        if (code < 0) late_outstanding = true, n_late++;
    }
};

// ---- instruction classes for coverage ----------------------------------------------------------
const char *mnemonic(uint32_t i) {
    uint32_t op = i & 0x7f, f3 = i >> 12 & 7, f7 = i >> 25;
    static const char *br[8] = {"beq", "bne", "?", "?", "blt", "bge", "bltu", "bgeu"};
    static const char *ld[8] = {"lb", "lh", "lw", "?", "lbu", "lhu", "?", "?"};
    static const char *st[8] = {"sb", "sh", "sw", "?", "?", "?", "?", "?"};
    static const char *im[8] = {"addi", "slli", "slti", "sltiu", "xori", "srli", "ori", "andi"};
    static const char *rr[8] = {"add", "sll", "slt", "sltu", "xor", "srl", "or", "and"};
    static const char *md[8] = {"mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"};
    static const char *cs[8] = {"?", "csrrw", "csrrs", "csrrc", "?", "csrrwi", "csrrsi", "csrrci"};
    switch (op) {
    case 0x37: return "lui";
    case 0x17: return "auipc";
    case 0x6f: return "jal";
    case 0x67: return "jalr";
    case 0x63: return br[f3];
    case 0x03: return ld[f3];
    case 0x23: return st[f3];
    case 0x13: return f3 == 5 && f7 == 0x20 ? "srai" : im[f3];
    case 0x33: return f7 == 1 ? md[f3] : f7 == 0x20 ? (f3 == 0 ? "sub" : "sra") : rr[f3];
    case 0x0f: return f3 == 1 ? "fence.i" : "fence";
    case 0x73:
        if (f3) return cs[f3];
        if (i == 0x00000073u) return "ecall";
        if (i == 0x00100073u) return "ebreak";
        if (i == 0x30200073u) return "mret";
        if (i == 0x10500073u) return "wfi";
        return "?";
    default: return "?";
    }
}

const char *const COVER_RV32IM[] = {
    "lui", "auipc", "jal", "jalr", "beq", "bne", "blt", "bge", "bltu", "bgeu", "lb", "lh", "lw", "lbu", "lhu",
    "sb", "sh", "sw", "addi", "slti", "sltiu", "xori", "ori", "andi", "slli", "srli", "srai", "add", "sub",
    "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and", "fence", "mul", "mulh", "mulhsu", "mulhu", "div",
    "divu", "rem", "remu"};
const char *const COVER_TRAPS[] = {"csrrw", "csrrs", "csrrc", "csrrwi", "csrrsi", "csrrci", "mret",
                                   "fence", "fence.i", "trap:0", "trap:1", "trap:2", "trap:3", "trap:4", "trap:5",
                                   "trap:6", "trap:7", "trap:11"};
const char *const COVER_IRQ[] = {"wfi", "mret", "irq:3", "irq:7", "irq:11", "div", "rem"};
const char *const COVER_BUS[] = {"bus:slverr", "bus:decerr", "bus:timeout", "trap:5", "trap:7", "lb", "lh", "lbu", "lhu"};

// ---- the harness ------------------------------------------------------------------------------
struct Harness : rv32::Bus {
    Vkolo_sp *top = nullptr;
    rv32::Iss *iss = nullptr;
    Slave slave;
    tb::Rng rng{1};
    bool console_slow = false;
    bool irq_random = false;
    bool trace_insns = false;
    bool profile = false;
    uint64_t last_done = 0;
    std::map<std::string, std::pair<unsigned long, unsigned long>> prof;   // count, cycles
    bool use_iss = true;
    // what the current trace line says (for values the ISS takes from the RTL)
    uint32_t rtl_rd_val = 0;
    bool rtl_rd = false;
    // models of the local registers
    int heartbeat = 0;
    uint32_t msip = 0;
    uint64_t mtimecmp = ~0ull;
    uint32_t faults = 0, console_drops = 0;
    bool dlab = false;
    std::deque<uint8_t> console_expect;
    std::string console_line;
    std::string console_all;
    bool fault_expected = false;
    uint32_t fault_cause = 0, fault_pc = 0;
    uint64_t irq_ready_since = 0;   // cycle from which an enabled external interrupt is pending
    int finished = -1;              // finisher: 0 pass, else code
    unsigned long long instret = 0, traps = 0;
    uint64_t last_mtime = 0;
    std::map<std::string, unsigned long> cover;

    // a device access of the ISS (outside IMEM/DMEM)
    bool device(bool write, uint32_t addr, uint32_t wdata, unsigned strb, uint32_t *rdata) override {
        uint32_t wa = addr & ~3u;
        if (wa - KOLO_SP_SVC_BASE < SVC_BYTES) {
            uint32_t off = wa - KOLO_SP_SVC_BASE;
            if (slave.log.empty()) {
                if (slave.late_outstanding) {
                    cover["bus:timeout"]++;
                    return false;  // waited behind a late response: timed out without an access
                }
                fail("the ISS accesses the service bus at %08x, the RTL made no access", addr);
            }
            Access a = slave.log.front();
            slave.log.pop_front();
            if (a.write != write || a.addr != off)
                fail("service bus: RTL %s %04x, ISS %s %04x", a.write ? "write" : "read", a.addr,
                     write ? "write" : "read", off);
            if (write && (a.wdata != wdata || a.strb != strb))
                fail("service bus write %04x: RTL data %08x strb %x, ISS %08x strb %x", off, a.wdata, a.strb, wdata,
                     strb);
            if (a.resp == 2) cover["bus:slverr"]++;
            if (a.resp == 3) cover["bus:decerr"]++;
            if (a.resp < 0) cover["bus:timeout"]++;
            if (a.resp) return false;
            if (!write) *rdata = a.rdata;
            return true;
        }
        if (wa - KOLO_SP_CLINT_BASE < KOLO_SP_CLINT_SIZE) {
            uint32_t off = wa - KOLO_SP_CLINT_BASE;
            if (write) {
                if (off == 0 && (strb & 1)) msip = wdata & 1;
                if (off == 0x4000) mtimecmp = (mtimecmp & ~0xffffffffull) | wdata;
                if (off == 0x4004) mtimecmp = (mtimecmp & 0xffffffffull) | (uint64_t)wdata << 32;
                return true;
            }
            switch (off) {
            case 0x0: *rdata = msip; break;
            case 0x4000: *rdata = (uint32_t)mtimecmp; break;
            case 0x4004: *rdata = (uint32_t)(mtimecmp >> 32); break;
            case 0xBFF8: case 0xBFFC: *rdata = rtl_word(addr); break;   // time: the RTL's
            default: *rdata = 0;
            }
            return true;
        }
        if (wa - KOLO_SP_CONSOLE_BASE < KOLO_SP_CONSOLE_SIZE) {
            uint32_t off = wa - KOLO_SP_CONSOLE_BASE;
            if (write) {
                if (off == 0 && (strb & 8)) dlab = wdata >> 31;
                if (off == 0 && (strb & 1) && !dlab) {
                    // dropped when a byte still waits and is not taken in this cycle
                    if (top->m_console_valid && !top->m_console_ready) console_drops++;
                    else console_expect.push_back((uint8_t)wdata);
                }
                return true;
            }
            if (off == 4) {
                uint32_t w = rtl_word(addr);
                if (w & ~0x6000u) fail("console LSR word %08x: bits other than THRE/TEMT", w);
                if (((w >> 13) & 1) != ((w >> 14) & 1)) fail("console LSR: THRE != TEMT");
                *rdata = w;
            } else {
                *rdata = 0;
            }
            return true;
        }
        if (wa - KOLO_SP_SP_BASE < KOLO_SP_SP_SIZE) {
            uint32_t off = wa - KOLO_SP_SP_BASE;
            if (write) {
                if (wa == KOLO_SP_SP_HEARTBEAT && (strb & 1)) heartbeat = wdata & 1;
                return true;
            }
            switch (wa) {
            case KOLO_SP_SP_ID: *rdata = KOLO_SP_SP_ID_RESET; break;
            case KOLO_SP_SP_MEM: *rdata = (uint32_t)(iss->dmem.size() / 1024) << 16 | (uint32_t)(iss->imem.size() / 1024); break;
            case KOLO_SP_SP_HEARTBEAT: *rdata = (uint32_t)heartbeat; break;
            case KOLO_SP_SP_FAULTS: *rdata = faults; break;
            case KOLO_SP_SP_CONSOLE_DROPS: *rdata = console_drops; break;
            default: *rdata = 0; (void)off;
            }
            return true;
        }
        if (wa - KOLO_SP_FINISH_BASE < KOLO_SP_FINISH_SIZE) {
            if (write && wa == KOLO_SP_FINISH_CTRL && (wdata & 0xffff) != 0x5555 && (wdata & 0xffff) != 0x3333)
                fail("finisher written with %08x", wdata);
            if (!write) *rdata = 0;
            return true;
        }
        return false;   // unmapped: an access fault
    }
    // the word a device load returned on the RTL, rebuilt from the loaded value (the ISS
    // picks the same bytes out of it again)
    uint32_t rtl_word(uint32_t addr) const { return rtl_rd ? rtl_rd_val << (8 * (addr & 3)) : 0; }
    uint32_t csr_value(unsigned csr) override {
        (void)csr;
        return rtl_rd ? rtl_rd_val : 0;
    }

    void check_step() {
        rv32::Step r;
        r.pc = top->trace_pc;
        r.insn = top->trace_insn;
        r.trap = top->trace_trap;
        r.cause = top->trace_cause;
        r.rd = top->trace_rd;
        r.rd_val = top->trace_rd_data;
        r.mem_addr = top->trace_mem_addr;
        r.wstrb = top->trace_mem_wstrb;
        r.wdata = top->trace_mem_wdata;
        rtl_rd = r.rd != 0;
        if (profile) {
            auto &p = prof[r.trap ? "(trap)" : mnemonic(r.insn)];
            p.first++;
            p.second += g_cyc + 1 - last_done;
            last_done = g_cyc + 1;
        }
        if (trace_insns)
            std::printf("trace %llu: pc %08x %08x %-7s%s rd x%u=%08x mem %08x/%x\n", (unsigned long long)g_cyc, r.pc,
                        r.insn, mnemonic(r.insn), r.trap ? " TRAP" : "", r.rd, r.rd_val, r.mem_addr, r.wstrb);
        rtl_rd_val = r.rd_val;
        if (!r.trap && r.wstrb == 0xf && r.mem_addr == KOLO_SP_FINISH_CTRL) {   // the end of the run
            if ((r.wdata & 0xffff) == 0x5555) finished = 0;
            else if ((r.wdata & 0xffff) == 0x3333) finished = (int)(r.wdata >> 16) ? (int)(r.wdata >> 16) : 1;
        }
        if (r.trap) {
            traps++;
            cover[(r.cause >> 31 ? "irq:" : "trap:") + std::to_string(r.cause & 0x7fffffff)]++;
            bool is_fault = !(r.cause >> 31) && r.cause != 3 && r.cause != 11;
            if (is_fault) fault_expected = true, fault_cause = r.cause, fault_pc = r.pc, faults++;
        } else {
            instret++;
            cover[mnemonic(r.insn)]++;
        }
        if (!use_iss) return;
        rv32::Step e;
        if (r.trap && (r.cause >> 31)) {
            if (!iss->interrupt(r.cause, e))
                fail("pc %08x: the RTL took interrupt %08x, the ISS has it disabled (mstatus.MIE %d, mie %03x)", r.pc,
                     r.cause, iss->mie_bit, iss->mie);
            irq_ready_since = 0;
        } else {
            e = iss->step();
        }
        // outside IMEM there is no instruction (an access fault, or an interrupt taken before
        // it): the trace's is undefined
        uint32_t dummy;
        bool no_insn = !iss->fetch(e.pc, &dummy);
        if (r.pc != e.pc || (r.insn != e.insn && !no_insn))
            fail("pc/insn: RTL %08x %08x, ISS %08x %08x", r.pc, r.insn, e.pc, e.insn);
        if (r.trap != e.trap || (r.trap && r.cause != e.cause))
            fail("pc %08x insn %08x (%s): RTL trap %d cause %08x, ISS trap %d cause %08x", r.pc, r.insn,
                 mnemonic(r.insn), r.trap, r.cause, e.trap, e.cause);
        if (r.rd != e.rd || r.rd_val != e.rd_val)
            fail("pc %08x insn %08x (%s): RTL x%u = %08x, ISS x%u = %08x", r.pc, r.insn, mnemonic(r.insn), r.rd,
                 r.rd_val, e.rd, e.rd_val);
        uint32_t e_addr = e.mem ? e.mem_addr : 0;
        if (r.mem_addr != e_addr || r.wstrb != e.wstrb || r.wdata != e.wdata)
            fail("pc %08x insn %08x (%s): RTL mem %08x strb %x data %08x, ISS %08x %x %08x", r.pc, r.insn,
                 mnemonic(r.insn), r.mem_addr, r.wstrb, r.wdata, e_addr, e.wstrb, e.wdata);
        if (!slave.log.empty()) fail("the RTL made a service-bus access the ISS did not (%04x)", slave.log.front().addr);
    }

    void console_byte(uint8_t b) {
        if (use_iss) {
            if (console_expect.empty()) fail("console byte %02x the program did not write", b);
            if (console_expect.front() != b) fail("console byte %02x, the program wrote %02x", b, console_expect.front());
            console_expect.pop_front();
        }
        console_all.push_back((char)b);
        if (b == '\n') {
            if (!g_quiet) std::printf("console: %s\n", console_line.c_str());
            std::fflush(stdout);
            console_line.clear();
        } else if (b != '\r') {
            console_line.push_back((char)b);
        }
    }

    void cycle() {
        top->clk = 0;
        slave.drive(top);
        top->m_console_ready = console_slow ? rng.chance(10) : 1;
        if (irq_random && !slave.irq && !slave.irq_at && rng.below(400) == 0) slave.irq = 1, top->irq = 1;
        top->eval();
        // fault pulse: the cycle after the trap
        if (top->fault != fault_expected) fail("fault output %d, expected %d", top->fault, fault_expected);
        if (fault_expected && (top->fault_cause != fault_cause || top->fault_pc != fault_pc))
            fail("fault cause %u pc %08x, expected %u %08x", top->fault_cause, top->fault_pc, fault_cause, fault_pc);
        fault_expected = false;
        if (top->heartbeat != heartbeat) fail("heartbeat %d, expected %d", top->heartbeat, heartbeat);
        if (top->m_console_valid && top->m_console_ready) console_byte(top->m_console_data);
        slave.sample(top);
        if (top->trace_valid) check_step();
        // an enabled external interrupt must be taken (an instruction may take up to a bus timeout)
        if (use_iss && slave.irq && iss->mie_bit && (iss->mie >> 11 & 1)) {
            if (!irq_ready_since) irq_ready_since = g_cyc;
            if (g_cyc - irq_ready_since > 2 * BUS_TIMEOUT + LATE_CYCLES + 100)
                fail("an enabled external interrupt pending since cycle %llu was not taken",
                     (unsigned long long)irq_ready_since);
        } else {
            irq_ready_since = 0;
        }
        top->clk = 1;
        top->eval();
        g_cyc++;
    }
};

}  // namespace

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    g_seed = tb::seed_from(argc, argv, 1);
    std::string imem, dmem, cover_set;
    uint64_t max_cycles = 20000000;
    bool stats = false;
    Harness h;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a.rfind("--imem=", 0) == 0) imem = a.substr(7);
        else if (a.rfind("--dmem=", 0) == 0) dmem = a.substr(7);
        else if (a.rfind("--max-cycles=", 0) == 0) max_cycles = std::strtoull(a.c_str() + 13, nullptr, 0);
        else if (a.rfind("--cover=", 0) == 0) cover_set = a.substr(8);
        else if (a == "--console-slow") h.console_slow = true;
        else if (a == "--irq-random") h.irq_random = true;
        else if (a == "--trace") h.trace_insns = true;
        else if (a == "--profile") h.profile = true;
        else if (a == "--no-iss") h.use_iss = false;
        else if (a == "--quiet") g_quiet = true;
        else if (a == "--stats") stats = true;
        else if (a.rfind("--seed=", 0) == 0 || a.rfind("+", 0) == 0) {
        } else {
            std::fprintf(stderr, "tb_cpu: unknown option %s\n", a.c_str());
            return 2;
        }
    }
    if (imem.empty() || dmem.empty()) {
        std::fprintf(stderr, "usage: tb_cpu --imem=F.hex --dmem=F.hex [--seed=N] [--max-cycles=N] [--cover=SET] ...\n");
        return 2;
    }
    h.rng = tb::Rng(g_seed);
    h.slave.rng = &h.rng;
    SpImages images;
    if (!images.enter(imem, dmem)) fail("cannot set up a directory for the RAM images");
    rv32::Iss iss(KOLO_SP_IMEM_BASE, TB_IMEM_BYTES, KOLO_SP_DMEM_BASE, TB_DMEM_BYTES, KOLO_SP_IMEM_BASE);
    std::vector<uint8_t> ib = read_hex("imem.hex", TB_IMEM_BYTES), db = read_hex("dmem.hex", TB_DMEM_BYTES);
    std::copy(ib.begin(), ib.end(), iss.imem.begin());
    std::copy(db.begin(), db.end(), iss.dmem.begin());
    iss.bus = &h;
    h.iss = &iss;
    h.top = new Vkolo_sp;
    Vkolo_sp *t = h.top;
    if (!g_quiet)
        std::printf("unit-cpu: seed %llu, %s, %zu + %zu bytes, bus timeout %u\n", (unsigned long long)g_seed,
                    imem.c_str(), ib.size(), db.size(), BUS_TIMEOUT);

    t->rst = 1;
    for (int i = 0; i < 4; i++) {
        t->clk = 0;
        h.slave.drive(t);
        t->m_console_ready = 1;
        t->eval();
        t->clk = 1;
        t->eval();
    }
    t->rst = 0;
    g_cyc = 0;
    // the RAMs have been loaded (initial blocks run at the first eval)
    if (!images.leave()) fail("cannot leave %s", images.dir);
    while (h.finished < 0 && g_cyc < max_cycles) h.cycle();
    for (int i = 0; i < 2000 && (!h.console_expect.empty() || t->m_console_valid); i++) h.cycle();  // drain the console
    if (!h.console_line.empty() && !g_quiet) std::printf("console: %s\n", h.console_line.c_str());
    double cpi = h.instret ? (double)g_cyc / (double)h.instret : 0;
    if (stats || !g_quiet)
        std::printf("cycles %llu, instructions %llu, traps %llu, CPI %.3f; bus reads %lu, writes %lu, errors %lu, late %lu\n",
                    (unsigned long long)g_cyc, h.instret, h.traps, cpi, h.slave.n_reads, h.slave.n_writes,
                    h.slave.n_err, h.slave.n_late);
    if (h.profile)
        for (auto &p : h.prof)
            std::printf("profile %-8s %10lu instructions %10lu cycles (%.2f each)\n", p.first.c_str(), p.second.first,
                        p.second.second, (double)p.second.second / (double)p.second.first);
    if (h.finished < 0) fail("no finisher write within %llu cycles", (unsigned long long)max_cycles);
    if (h.finished > 0) fail("the program failed (finisher code %d)", h.finished);
    if (h.use_iss && !h.console_expect.empty()) fail("%zu console bytes never came out", h.console_expect.size());
    auto require = [&](const char *const *names, size_t n) {
        std::string missing;
        for (size_t k = 0; k < n; k++)
            if (!h.cover[names[k]]) missing += std::string(" ") + names[k];
        if (!missing.empty()) fail("coverage: never executed:%s", missing.c_str());
    };
    if (cover_set == "rv32im") require(COVER_RV32IM, sizeof COVER_RV32IM / sizeof *COVER_RV32IM);
    if (cover_set == "traps") require(COVER_TRAPS, sizeof COVER_TRAPS / sizeof *COVER_TRAPS);
    if (cover_set == "irq") require(COVER_IRQ, sizeof COVER_IRQ / sizeof *COVER_IRQ);
    if (cover_set == "bus") require(COVER_BUS, sizeof COVER_BUS / sizeof *COVER_BUS);
    if (!cover_set.empty() && cover_set != "rv32im" && cover_set != "traps" && cover_set != "irq" && cover_set != "bus")
        fail("unknown --cover=%s", cover_set.c_str());
    std::printf("PASS unit-cpu: %s: %llu instructions, %llu traps, %llu cycles, CPI %.3f (seed %llu)\n", imem.c_str(),
                h.instret, h.traps, (unsigned long long)g_cyc, cpi, (unsigned long long)g_seed);
    t->final();
    delete t;
    return 0;
}
