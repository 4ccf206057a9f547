// rv32_iss.h - reference instruction-set simulator for the service processor
// tests: RV32IM + Zicsr + machine mode with the traps and CSRs of
// docs/cpu.md, written from the RISC-V specifications independently of the
// RTL (an interpreter over the fields of each instruction, not a model of the
// pipeline). tb_cpu.cpp runs it in lock step with kolo_sp's trace.
//
// Memory: the ISS owns IMEM and DMEM images. Everything else (the service
// bus, the CLINT, the console, the SP registers, the finisher) is a device
// the harness answers through the Bus callbacks, so that values the ISS
// cannot know (time, the AXI slave's data) come from the harness, which
// checks the RTL's accesses against them. Counters the ISS cannot know
// (mcycle, time, mip) are read through Bus::csr_value.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace rv32 {

enum Cause : uint32_t {
    I_MISALIGN = 0, I_FAULT = 1, ILLEGAL = 2, BREAK = 3, L_MISALIGN = 4, L_FAULT = 5, S_MISALIGN = 6,
    S_FAULT = 7, ECALL_M = 11, IRQ = 0x80000000u, IRQ_SOFT = IRQ | 3, IRQ_TIMER = IRQ | 7, IRQ_EXT = IRQ | 11
};

struct Bus {
    virtual ~Bus() = default;
    // a device access outside IMEM/DMEM: return false for an access fault;
    // *data is the loaded word (loads) or ignored (stores: data and strb given)
    virtual bool device(bool write, uint32_t addr, uint32_t wdata, unsigned strb, uint32_t *rdata) = 0;
    // the value of a CSR the ISS cannot compute (mcycle[h], cycle[h], time[h], mip)
    virtual uint32_t csr_value(unsigned csr) = 0;
};

// One step's effects, as the RTL trace shows them.
struct Step {
    uint32_t pc = 0, insn = 0;
    bool trap = false;
    uint32_t cause = 0, tval = 0;
    unsigned rd = 0;        // 0: no register written
    uint32_t rd_val = 0;
    bool mem = false;       // a load or store executed (not trapped)
    uint32_t mem_addr = 0;
    unsigned wstrb = 0;     // store lanes (0: load)
    uint32_t wdata = 0;     // store data placed in the lanes
};

class Iss {
  public:
    uint32_t imem_base, dmem_base;
    std::vector<uint8_t> imem, dmem;
    uint32_t x[32] = {0};
    uint32_t pc;
    // CSR state
    bool mie_bit = false, mpie = false;
    uint32_t mie = 0, mtvec = 0, mscratch = 0, mepc = 0, mcause = 0, mtval = 0;
    uint64_t minstret = 0;
    bool bad_slt = false;   // nothing in the ISS is planted: kept false (documented for symmetry)
    Bus *bus = nullptr;

    Iss(uint32_t ibase, size_t ibytes, uint32_t dbase, size_t dbytes, uint32_t reset_pc)
        : imem_base(ibase), dmem_base(dbase), imem(ibytes), dmem(dbytes), pc(reset_pc) {
        mtvec = reset_pc;
    }

    bool in(uint32_t a, uint32_t base, size_t size) const { return a - base < size; }

    // ---- memory -----------------------------------------------------------------------
    bool load(uint32_t a, unsigned bytes, uint32_t *v) {
        uint32_t word;
        uint32_t wa = a & ~3u;
        if (in(wa, imem_base, imem.size())) std::memcpy(&word, &imem[wa - imem_base], 4);
        else if (in(wa, dmem_base, dmem.size())) std::memcpy(&word, &dmem[wa - dmem_base], 4);
        else if (!bus->device(false, a, 0, 0, &word)) return false;
        word >>= 8 * (a & 3);
        *v = bytes == 4 ? word : bytes == 2 ? (word & 0xffff) : (word & 0xff);
        return true;
    }
    bool store(uint32_t a, unsigned bytes, uint32_t v, Step &s) {
        unsigned lanes = (bytes == 4 ? 0xfu : bytes == 2 ? 0x3u : 0x1u) << (a & 3);
        uint32_t placed = bytes == 4 ? v : bytes == 2 ? (v & 0xffff) * 0x00010001u : (v & 0xff) * 0x01010101u;
        uint32_t wa = a & ~3u;
        if (in(wa, dmem_base, dmem.size())) {
            for (int i = 0; i < 4; i++)
                if (lanes >> i & 1) dmem[wa - dmem_base + i] = (uint8_t)(placed >> (8 * i));
        } else if (in(wa, imem_base, imem.size())) {
            return false;  // IMEM is read-only from the data side
        } else if (!bus->device(true, a, placed, lanes, nullptr)) {
            return false;
        }
        s.wstrb = lanes;
        s.wdata = placed;
        return true;
    }
    bool fetch(uint32_t a, uint32_t *insn) const {
        if (!in(a, imem_base, imem.size()) || !in(a + 3, imem_base, imem.size())) return false;
        std::memcpy(insn, &imem[a - imem_base], 4);
        return true;
    }

    // ---- CSRs ---------------------------------------------------------------------------
    // returns false for an unknown CSR
    bool csr_read(unsigned n, uint32_t *v) {
        switch (n) {
        case 0x300: *v = (mie_bit ? 1u << 3 : 0) | (mpie ? 1u << 7 : 0) | 3u << 11; return true;
        case 0x301: *v = 1u << 30 | 1u << 12 | 1u << 8; return true;   // MXL=1, M, I
        case 0x304: *v = mie; return true;
        case 0x305: *v = mtvec; return true;
        case 0x310: *v = 0; return true;
        case 0x340: *v = mscratch; return true;
        case 0x341: *v = mepc; return true;
        case 0x342: *v = mcause; return true;
        case 0x343: *v = mtval; return true;
        case 0x344: *v = bus->csr_value(n); return true;
        case 0xB00: case 0xC00: case 0xB80: case 0xC80: case 0xC01: case 0xC81: *v = bus->csr_value(n); return true;
        case 0xB02: case 0xC02: *v = (uint32_t)minstret; return true;
        case 0xB82: case 0xC82: *v = (uint32_t)(minstret >> 32); return true;
        case 0xF11: case 0xF12: case 0xF13: case 0xF14: case 0xF15: *v = 0; return true;
        default: return false;
        }
    }
    // the write of a CSR known to be writable (bits 11:10 != 3)
    void csr_write(unsigned n, uint32_t v) {
        switch (n) {
        case 0x300: mie_bit = v >> 3 & 1; mpie = v >> 7 & 1; break;
        case 0x304: mie = v & 0x888u; break;
        case 0x305: mtvec = v & ~3u; break;
        case 0x340: mscratch = v; break;
        case 0x341: mepc = v & ~3u; break;
        case 0x342: mcause = v & 0x8000000fu; break;
        case 0x343: mtval = v; break;
        case 0xB02: minstret = (minstret & 0xffffffff00000000ull) | v; minstret_written = true; break;
        case 0xB82: minstret = (minstret & 0xffffffffull) | (uint64_t)v << 32; minstret_written = true; break;
        default: break;   // misa, mstatush, mip, mcycle[h] (the harness's), read-only bits
        }
    }

    // ---- traps --------------------------------------------------------------------------
    void take(Step &s, uint32_t cause, uint32_t tval) {
        s.trap = true;
        s.cause = cause;
        s.tval = tval;
        s.rd = 0;
        s.rd_val = 0;
        s.mem = false;
        s.wstrb = 0;
        s.wdata = 0;
        mepc = pc;
        mcause = cause;
        mtval = tval;
        mpie = mie_bit;
        mie_bit = false;
        pc = mtvec;
    }
    // An interrupt the RTL took before the instruction at pc: legal only if enabled.
    bool interrupt(uint32_t cause, Step &s) {
        unsigned bit = cause & 0x1f;
        if (!(cause & IRQ) || !mie_bit || !(mie >> bit & 1)) return false;
        s = Step();
        s.pc = pc;
        fetch(pc, &s.insn);
        take(s, cause, 0);
        return true;
    }

    // ---- one instruction ----------------------------------------------------------------
    Step step() {
        Step s;
        s.pc = pc;
        minstret_written = false;
        uint32_t i;
        if (!fetch(pc, &i)) {
            take(s, I_FAULT, pc);
            return s;
        }
        s.insn = i;
        const uint32_t op = i & 0x7f, f3 = i >> 12 & 7, f7 = i >> 25;
        const unsigned rd = i >> 7 & 31, r1 = i >> 15 & 31, r2 = i >> 20 & 31;
        const uint32_t a = x[r1], b = x[r2];
        const int32_t immi = (int32_t)i >> 20;
        const int32_t imms = (int32_t)(i & 0xfe000000u) >> 20 | (int32_t)(i >> 7 & 31);
        const int32_t immb = (int32_t)(i & 0x80000000u) >> 19 | (int32_t)((i >> 7 & 1) << 11) |
                             (int32_t)((i >> 25 & 0x3f) << 5) | (int32_t)((i >> 8 & 0xf) << 1);
        const uint32_t immu = i & 0xfffff000u;
        const int32_t immj = (int32_t)(i & 0x80000000u) >> 11 | (int32_t)(i & 0xff000u) | (int32_t)((i >> 20 & 1) << 11) |
                             (int32_t)((i >> 21 & 0x3ff) << 1);
        uint32_t next = pc + 4;
        bool wr = false;
        uint32_t val = 0;
        auto illegal = [&]() { take(s, ILLEGAL, i); };
        switch (op) {
        case 0x37: wr = true; val = immu; break;                   // LUI
        case 0x17: wr = true; val = pc + immu; break;              // AUIPC
        case 0x6f: {                                               // JAL
            uint32_t t = pc + (uint32_t)immj;
            if (t & 3) { take(s, I_MISALIGN, t); return s; }
            wr = true; val = pc + 4; next = t;
            break;
        }
        case 0x67: {                                               // JALR
            if (f3) { illegal(); return s; }
            uint32_t t = (a + (uint32_t)immi) & ~1u;
            if (t & 3) { take(s, I_MISALIGN, t); return s; }
            wr = true; val = pc + 4; next = t;
            break;
        }
        case 0x63: {                                               // branches
            bool c;
            switch (f3) {
            case 0: c = a == b; break;
            case 1: c = a != b; break;
            case 4: c = (int32_t)a < (int32_t)b; break;
            case 5: c = (int32_t)a >= (int32_t)b; break;
            case 6: c = a < b; break;
            case 7: c = a >= b; break;
            default: illegal(); return s;
            }
            if (c) {
                uint32_t t = pc + (uint32_t)immb;
                if (t & 3) { take(s, I_MISALIGN, t); return s; }
                next = t;
            }
            break;
        }
        case 0x03: {                                               // loads
            unsigned n = (f3 & 3) == 0 ? 1 : (f3 & 3) == 1 ? 2 : 4;
            if (f3 == 3 || f3 > 5) { illegal(); return s; }
            uint32_t ad = a + (uint32_t)immi, v;
            if (ad & (n - 1)) { take(s, L_MISALIGN, ad); return s; }
            if (!load(ad, n, &v)) { take(s, L_FAULT, ad); return s; }
            if (f3 == 0) v = (uint32_t)(int32_t)(int8_t)v;
            if (f3 == 1) v = (uint32_t)(int32_t)(int16_t)v;
            s.mem = true; s.mem_addr = ad;
            wr = true; val = v;
            break;
        }
        case 0x23: {                                               // stores
            if (f3 > 2) { illegal(); return s; }
            unsigned n = 1u << f3;
            uint32_t ad = a + (uint32_t)imms;
            if (ad & (n - 1)) { take(s, S_MISALIGN, ad); return s; }
            if (!store(ad, n, b, s)) { take(s, S_FAULT, ad); return s; }
            s.mem = true; s.mem_addr = ad;
            break;
        }
        case 0x13: {                                               // OP-IMM
            uint32_t sh = (uint32_t)immi & 31;
            wr = true;
            switch (f3) {
            case 0: val = a + (uint32_t)immi; break;
            case 2: val = (int32_t)a < immi; break;
            case 3: val = a < (uint32_t)immi; break;
            case 4: val = a ^ (uint32_t)immi; break;
            case 6: val = a | (uint32_t)immi; break;
            case 7: val = a & (uint32_t)immi; break;
            case 1: if (f7) { illegal(); return s; } val = a << sh; break;
            default:
                if (f7 == 0) val = a >> sh;
                else if (f7 == 0x20) val = (uint32_t)((int32_t)a >> sh);
                else { illegal(); return s; }
            }
            break;
        }
        case 0x33: {                                               // OP
            wr = true;
            if (f7 == 1) {
                int64_t sa = (int32_t)a, sb = (int32_t)b;
                uint64_t ua = a, ub = b;
                switch (f3) {
                case 0: val = a * b; break;
                case 1: val = (uint32_t)((uint64_t)(sa * sb) >> 32); break;
                case 2: val = (uint32_t)((uint64_t)(sa * (int64_t)ub) >> 32); break;
                case 3: val = (uint32_t)((ua * ub) >> 32); break;
                case 4: val = b == 0 ? ~0u : (a == 0x80000000u && b == ~0u) ? a : (uint32_t)((int32_t)a / (int32_t)b); break;
                case 5: val = b == 0 ? ~0u : a / b; break;
                case 6: val = b == 0 ? a : (a == 0x80000000u && b == ~0u) ? 0 : (uint32_t)((int32_t)a % (int32_t)b); break;
                default: val = b == 0 ? a : a % b; break;
                }
            } else if (f7 == 0 || (f7 == 0x20 && (f3 == 0 || f3 == 5))) {
                switch (f3) {
                case 0: val = f7 ? a - b : a + b; break;
                case 1: val = a << (b & 31); break;
                case 2: val = (int32_t)a < (int32_t)b; break;
                case 3: val = a < b; break;
                case 4: val = a ^ b; break;
                case 5: val = f7 ? (uint32_t)((int32_t)a >> (b & 31)) : a >> (b & 31); break;
                case 6: val = a | b; break;
                default: val = a & b; break;
                }
            } else {
                illegal();
                return s;
            }
            break;
        }
        case 0x0f:                                                 // FENCE, FENCE.I
            if (f3 > 1) { illegal(); return s; }
            break;
        case 0x73: {                                               // SYSTEM
            if (f3 == 0) {
                if (i == 0x00000073u) { take(s, ECALL_M, 0); return s; }
                if (i == 0x00100073u) { take(s, BREAK, pc); return s; }
                if (i == 0x30200073u) {                            // MRET
                    next = mepc;
                    mie_bit = mpie;
                    mpie = true;
                    break;
                }
                if (i == 0x10500073u) break;                       // WFI: the RTL waits; no effect here
                illegal();
                return s;
            }
            if (f3 == 4) { illegal(); return s; }
            unsigned n = i >> 20;
            uint32_t src = (f3 & 4) ? r1 : a;
            bool writes = (f3 & 3) == 1 || r1 != 0;
            uint32_t old;
            if (!csr_read(n, &old) || (writes && (n >> 10) == 3)) { illegal(); return s; }
            if (writes) {
                uint32_t nv = (f3 & 3) == 1 ? src : (f3 & 3) == 2 ? old | src : old & ~src;
                csr_write(n, nv);
            }
            wr = true;
            val = old;
            break;
        }
        default: illegal(); return s;
        }
        if (wr && rd) {
            x[rd] = val;
            s.rd = rd;
            s.rd_val = val;
        }
        pc = next;
        if (!minstret_written) minstret++;
        return s;
    }

  private:
    bool minstret_written = false;
};

}  // namespace rv32
