// tb_sp_svc.cpp - kolo_sp running a firmware image on the service block RTL
// (tb_sp_svc.v: kolo_sp + kolo_svc wired as in the chip). Two uses:
//   a test image (tb/unit/cpu/prog/sp_fault.c) that ends through the
//   finisher: pass, or the number of its failed check;
//   the firmware image (--fw): it must boot (SYS_FW_STATE RUNNING, read
//   through the host port as a tool would), keep its loop going
//   (SYS_FW_HEARTBEAT counting, the heartbeat LED toggling) and print its
//   version line.
// Every fault pulse of the processor must become one SP_FAULT action of the
// service block (1 or 2 cycles later); --expect=TEXT requires a console line
// containing TEXT.
//   tb_sp_svc --imem=F.hex --dmem=F.hex [--fw] [--torus=XxYxZ] [--max-cycles=N] [--expect=TEXT]...
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unistd.h>
#include <vector>

#include "Vtb_sp_svc.h"
#include "verilated.h"

#include "kolo_sp_regs.h"
#include "kolo_svc_regs.h"
#include "sp_images.h"

namespace {

uint64_t g_cyc;

[[noreturn]] void fail(const char *fmt, ...) {
    std::va_list ap;
    va_start(ap, fmt);
    std::fprintf(stderr, "FAIL sp-svc: cycle %llu: ", (unsigned long long)g_cyc);
    std::vfprintf(stderr, fmt, ap);
    std::fputc('\n', stderr);
    va_end(ap);
    std::exit(1);
}

struct Run {
    Vtb_sp_svc *t = nullptr;
    std::string line;
    std::vector<std::string> lines;
    int finished = -1;
    unsigned long faults = 0, acts = 0, beats = 0;
    int last_led = 0;
    uint64_t fault_at = 0;

    void cycle() {
        t->clk = 0;
        t->m_console_ready = 1;
        t->eval();
        if (t->m_console_valid) {
            char c = (char)t->m_console_data;
            if (c == '\n') {
                std::printf("console: %s\n", line.c_str());
                lines.push_back(line);
                line.clear();
            } else if (c != '\r') {
                line.push_back(c);
            }
        }
        if (t->fault) faults++, fault_at = g_cyc;
        if (t->p_sp_act) {
            if (acts >= faults || g_cyc > fault_at + 2) fail("an SP_FAULT action without a fault pulse 1..2 cycles before");
            acts++;
        }
        if (faults > acts && g_cyc > fault_at + 2) fail("a fault pulse the service block did not act on");
        if (t->heartbeat != last_led) beats++, last_led = t->heartbeat;
        if (t->trace_valid && t->trace_mem_wstrb && t->trace_mem_addr == KOLO_SP_FINISH_CTRL) {
            uint32_t w = t->trace_mem_wdata;
            finished = (w & 0xffff) == 0x5555 ? 0 : (int)(w >> 16) ? (int)(w >> 16) : 1;
        }
        t->clk = 1;
        t->eval();
        g_cyc++;
    }

    // a read through the host port (BAR0), as a tool does
    uint32_t host_read(uint32_t addr) {
        t->h_axil_araddr = addr & 0x7fff;
        t->h_axil_arvalid = 1;
        t->h_axil_rready = 1;
        for (int guard = 0;; guard++) {
            bool taken = false;
            t->clk = 0;
            t->eval();
            taken = t->h_axil_arready;
            cycle_tail();
            if (taken) break;
            if (guard > 100000) fail("host read %04x not taken", addr);
        }
        t->h_axil_arvalid = 0;
        for (int guard = 0;; guard++) {
            t->clk = 0;
            t->eval();
            if (t->h_axil_rvalid) {
                uint32_t v = t->h_axil_rdata;
                cycle_tail();
                return v;
            }
            cycle_tail();
            if (guard > 100000) fail("host read %04x not answered", addr);
        }
    }
    void cycle_tail() {  // the rest of cycle() after the low-phase eval
        t->clk = 0;
        cycle();
    }
};

}  // namespace

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    std::string imem, dmem;
    std::vector<std::string> expect;
    uint64_t max_cycles = 50000000;
    bool fw = false;
    int sx = 1, sy = 1, sz = 1;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a.rfind("--imem=", 0) == 0) imem = a.substr(7);
        else if (a.rfind("--dmem=", 0) == 0) dmem = a.substr(7);
        else if (a.rfind("--expect=", 0) == 0) expect.push_back(a.substr(9));
        else if (a.rfind("--max-cycles=", 0) == 0) max_cycles = std::strtoull(a.c_str() + 13, nullptr, 0);
        else if (a == "--fw") fw = true;
        else if (a.rfind("--torus=", 0) == 0) {
            if (std::sscanf(a.c_str() + 8, "%dx%dx%d", &sx, &sy, &sz) != 3) return 2;
        } else {
            std::fprintf(stderr, "tb_sp_svc: unknown option %s\n", a.c_str());
            return 2;
        }
    }
    if (imem.empty() || dmem.empty()) {
        std::fprintf(stderr, "usage: tb_sp_svc --imem=F.hex --dmem=F.hex [--fw] [--expect=TEXT]...\n");
        return 2;
    }
    SpImages images;   // the RAMs load imem.hex / dmem.hex of the working directory at the first eval
    if (!images.enter(imem, dmem)) fail("cannot set up a directory for the RAM images");
    Run r;
    r.t = new Vtb_sp_svc;
    Vtb_sp_svc *t = r.t;
    t->node_id = 0;
    t->dim_m1 = (uint16_t)((sx - 1) | (sy - 1) << 4 | (sz - 1) << 8);
    t->rst = 1;
    for (int i = 0; i < 64; i++) {   // kolo_svc: reset at least 40 cycles after the straps
        t->clk = 0;
        t->eval();
        t->clk = 1;
        t->eval();
    }
    t->rst = 0;
    if (!images.leave()) fail("cannot leave %s", images.dir);

    int rc = 0;
    if (!fw) {
        while (r.finished < 0 && g_cyc < max_cycles) r.cycle();
        for (int i = 0; i < 1000; i++) r.cycle();   // the console drains
        if (r.finished < 0) fail("no finisher write within %llu cycles", (unsigned long long)max_cycles);
        if (r.finished > 0) fail("the program failed check %d", r.finished);
    } else {
        // boot, then the loop: FW_STATE RUNNING, FW_HEARTBEAT counting, the LED toggling
        uint32_t state = 0, hb0 = 0, hb1 = 0;
        while (g_cyc < max_cycles) {
            for (int i = 0; i < 5000; i++) r.cycle();
            state = r.host_read(KOLO_SVC_SYS_FW_STATE) & KOLO_SVC_SYS_FW_STATE_STAGE_MASK;
            if (state == 3) break;   /* KOLO_FW_RUNNING */
        }
        if (state != 3) fail("the firmware did not reach RUNNING (FW_STATE stage %u)", state);
        hb0 = r.host_read(KOLO_SVC_SYS_FW_HEARTBEAT);
        unsigned long b0 = r.beats;
        for (int i = 0; i < 200000; i++) r.cycle();
        hb1 = r.host_read(KOLO_SVC_SYS_FW_HEARTBEAT);
        if (hb1 <= hb0) fail("SYS_FW_HEARTBEAT did not count (%u, then %u)", hb0, hb1);
        if (r.beats == b0) fail("the heartbeat LED did not toggle");
        std::printf("firmware running at cycle %llu: FW_HEARTBEAT %u -> %u in 200000 cycles, LED toggled %lu times\n",
                    (unsigned long long)g_cyc, hb0, hb1, r.beats - b0);
    }
    if (!r.line.empty()) r.lines.push_back(r.line);
    for (const std::string &e : expect) {
        bool found = false;
        for (const std::string &l : r.lines) found = found || l.find(e) != std::string::npos;
        if (!found) fail("no console line contains \"%s\"", e.c_str());
    }
    std::printf("PASS sp-svc: %s: %llu cycles, %lu faults raised as %lu SP_FAULT events%s\n", imem.c_str(),
                (unsigned long long)g_cyc, r.faults, r.acts, rc ? "" : "");
    t->final();
    delete t;
    return rc;
}
