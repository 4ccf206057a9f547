/* traps.S - kolo_sp: every exception, the CSRs, mret, and the SP registers;
 * self-checking (expected values from the specification) and run in lock
 * step with the ISS (tb_cpu --cover=traps). */
#include "common.h"

#define ILLEGAL(w, code) li a1, w; EXPECT_TRAP(2, a1, code, .word w)

    .section .text.start, "ax"
    .globl _start
_start:
    la t0, trap_record
    csrw mtvec, t0
    li sp, DMEM + 0x1000

    /* ---- illegal instructions: mcause 2, mtval = the instruction ---- */
    ILLEGAL(0x00000000, 10)     /* all zero */
    ILLEGAL(0xffffffff, 13)
    ILLEGAL(0x00000001, 16)     /* a compressed encoding (no C extension) */
    ILLEGAL(0x000010e7, 19)     /* JALR funct3 1 */
    ILLEGAL(0x00002063, 22)     /* branch funct3 2 */
    ILLEGAL(0x00003063, 25)     /* branch funct3 3 */
    ILLEGAL(0x00003003, 28)     /* LD (RV64) */
    ILLEGAL(0x00006003, 31)     /* LWU (RV64) */
    ILLEGAL(0x00007003, 34)     /* load funct3 7 */
    ILLEGAL(0x00003023, 37)     /* SD (RV64) */
    ILLEGAL(0x00004023, 40)     /* store funct3 4 */
    ILLEGAL(0x40001013, 43)     /* SLLI with bit 30 */
    ILLEGAL(0x02005013, 46)     /* SRLI with bit 25 */
    ILLEGAL(0x02001013, 49)     /* SLLI with bit 25 (an RV64 shamt) */
    ILLEGAL(0x40001033, 52)     /* SLL with bit 30 */
    ILLEGAL(0x40002033, 55)     /* SLT with bit 30 */
    ILLEGAL(0x04000033, 58)     /* OP funct7 2 */
    ILLEGAL(0x0000200f, 61)     /* MISC-MEM funct3 2 */
    ILLEGAL(0x00200073, 64)     /* URET */
    ILLEGAL(0x10200073, 67)     /* SRET */
    ILLEGAL(0x12000073, 70)     /* SFENCE.VMA */
    ILLEGAL(0x00004073, 73)     /* SYSTEM funct3 4 */
    ILLEGAL(0x0000000b, 76)     /* custom-0 */
    ILLEGAL(0x00002007, 79)     /* FLW (no F) */
    ILLEGAL(0x0000202f, 82)     /* AMO (no A) */
    ILLEGAL(0x0000003b, 85)     /* OP-32 (RV64) */
    ILLEGAL(0x7c0020f3, 88)     /* csrr x1, 0x7c0: no such CSR */
    ILLEGAL(0x100020f3, 91)     /* csrr x1, sstatus: no S-mode */
    ILLEGAL(0xf1409073, 94)     /* csrw mhartid, x1: read-only */
    ILLEGAL(0xc0012073, 97)     /* csrrs x0, cycle, x2: a write of a read-only CSR */
    ILLEGAL(0xc0115073, 100)    /* csrrwi x0, cycle, 2 */
    ILLEGAL(0x3020007b, 103)    /* opcode 0x7b (reserved) */
    /* trapping instructions write nothing: rd keeps its value */
    li a2, 0x5a5a5a5a
    ILLEGAL(0x00063603, 106)    /* LD a2, 0(a2) */
    CHECK_IMM(a2, 0x5a5a5a5a, 109)

    /* ---- ecall (11, tval 0), ebreak (3, tval = pc) ---- */
    EXPECT_TRAP(11, zero, 110, ecall)
    1: ebreak
    la a1, 1b
    CHECK_TRAP(3, 1b, a1, 113)

    /* ---- misaligned loads and stores: 4 / 6, tval = the address; rd unchanged ---- */
    li s0, DMEM + 0x100
    li a3, 0x11111111
    addi a1, s0, 1
    EXPECT_TRAP(4, a1, 120, lw a3, 1(s0))
    addi a1, s0, 2
    EXPECT_TRAP(4, a1, 123, lw a3, 2(s0))
    addi a1, s0, 3
    EXPECT_TRAP(4, a1, 126, lh a3, 3(s0))
    addi a1, s0, 1
    EXPECT_TRAP(4, a1, 129, lhu a3, 1(s0))
    CHECK_IMM(a3, 0x11111111, 132)
    addi a1, s0, 3
    EXPECT_TRAP(6, a1, 133, sw a3, 3(s0))
    addi a1, s0, 1
    EXPECT_TRAP(6, a1, 136, sh a3, 1(s0))
    lw a4, 0(s0)        /* nothing was stored */
    CHECK_IMM(a4, 0, 139)
    lb a4, 3(s0)        /* bytes: any alignment */
    sh a3, 2(s0)
    lw a4, 0(s0)
    CHECK_IMM(a4, 0x11110000, 140)

    /* ---- misaligned jump targets: 0, tval = target, rd unchanged, no jump ---- */
    la a1, 1f
    addi a1, a1, 2
    li ra, 0x77
    EXPECT_TRAP(0, a1, 141, jalr ra, 0(a1))
    CHECK_IMM(ra, 0x77, 144)
    la a1, 2f
    addi a1, a1, 3          /* jalr clears bit 0: the target is 2f + 2 */
    addi a5, a1, -1
    EXPECT_TRAP(0, a5, 145, jalr zero, 0(a1))
    j 3f
1:  nop
2:  nop
3:  /* jal and a taken branch with an offset of 2 mod 4 (encoded by hand) */
    la a1, 4f
    addi a1, a1, 6
    4: .word 0x0060006f     /* jal x0, +6 */
    la a1, 4b
    addi a1, a1, 6
    CHECK_TRAP(0, 4b, a1, 148)
    la a1, 5f
    addi a1, a1, 6
    5: .word 0x00000363     /* beq x0, x0, +6 */
    la a1, 5b
    addi a1, a1, 6
    CHECK_TRAP(0, 5b, a1, 151)
    la t3, trap_rec
    lw s1, TR_COUNT(t3)
    .word 0x00001363        /* bne x0, x0, +6: not taken, no trap */
    lw s2, TR_COUNT(t3)
    CHECK_EQ(s1, s2, 154)

    /* ---- access faults: 5 / 7, tval = the address ---- */
    li a1, 0
    EXPECT_TRAP(5, a1, 160, lw a3, 0(a1))
    li a1, 0x70000000
    EXPECT_TRAP(5, a1, 163, lb a3, 0(a1))
    li a1, 0x40008000       /* the service space is 0x8000 bytes */
    EXPECT_TRAP(5, a1, 166, lw a3, 0(a1))
    li a1, IMEM + 0x10000   /* past the 64 KB IMEM */
    EXPECT_TRAP(5, a1, 169, lw a3, 0(a1))
    li a1, DMEM + 0x20000   /* past the 128 KB DMEM */
    EXPECT_TRAP(7, a1, 172, sw a3, 0(a1))
    la a1, _start           /* IMEM is read-only from the data side */
    EXPECT_TRAP(7, a1, 175, sw a3, 0(a1))
    li a1, 0x10002000       /* next to the SP registers */
    EXPECT_TRAP(7, a1, 178, sw a3, 0(a1))
    CHECK_IMM(a3, 0x11111111, 181)
    /* loads from IMEM are allowed */
    la a1, magic
    lw a3, 0(a1)
    CHECK_IMM(a3, 0x12345678, 182)
    lhu a3, 2(a1)
    CHECK_IMM(a3, 0x1234, 183)
    lb a3, 1(a1)
    CHECK_IMM(a3, 0x56, 184)

    /* ---- instruction access faults: 1, tval = mepc = the target ---- */
    la t3, trap_rec
    la t4, 6f
    sw t4, TR_RESUME(t3)
    li a1, IMEM + 0x10000
    jr a1
6:  la t3, trap_rec
    lw t4, TR_CAUSE(t3)
    CHECK_IMM(t4, 1, 185)
    lw t4, TR_EPC(t3)
    CHECK_EQ(t4, a1, 186)
    lw t4, TR_TVAL(t3)
    CHECK_EQ(t4, a1, 187)
    la t4, 7f
    sw t4, TR_RESUME(t3)
    li a1, 0x00001000
    jr a1
7:  la t3, trap_rec
    lw t4, TR_EPC(t3)
    CHECK_EQ(t4, a1, 188)

    /* ---- CSRs ---- */
    csrr a1, misa
    CHECK_IMM(a1, 0x40001100, 200)
    csrr a1, mhartid
    CHECK_IMM(a1, 0, 201)
    csrr a1, mvendorid
    csrr a2, marchid
    or a1, a1, a2
    csrr a2, mimpid
    or a1, a1, a2
    CHECK_IMM(a1, 0, 202)
    csrr a1, mstatus
    CHECK_IMM(a1, 0x1880, 203)          /* MPP = 3, MIE = 0, MPIE = 1 (the last mret) */
    li a1, 0x12345678
    csrrw a2, mscratch, a1
    csrrs a2, mscratch, zero
    CHECK_IMM(a2, 0x12345678, 204)
    li a1, 0xff
    csrrc a2, mscratch, a1
    CHECK_IMM(a2, 0x12345678, 205)
    csrr a2, mscratch
    CHECK_IMM(a2, 0x12345600, 206)
    li a1, 0x0f
    csrrs a2, mscratch, a1
    csrr a2, mscratch
    CHECK_IMM(a2, 0x1234560f, 207)
    csrrwi a2, mscratch, 21
    csrrsi a2, mscratch, 10
    CHECK_IMM(a2, 21, 208)
    csrrci a2, mscratch, 1
    CHECK_IMM(a2, 31, 209)
    csrr a2, mscratch
    CHECK_IMM(a2, 30, 210)
    /* read-only CSRs read with rs1 = x0 / uimm 0 are legal */
    csrrs a1, mhartid, zero
    csrrsi a1, mhartid, 0
    csrrc a1, cycle, zero
    /* WARL: mtvec and mepc keep no low bits, mcause its interrupt bit and code */
    la a1, trap_record
    ori a2, a1, 3
    csrw mtvec, a2
    csrr a2, mtvec
    CHECK_EQ(a1, a2, 211)
    li a1, 0x80000123
    csrw mepc, a1
    csrr a2, mepc
    CHECK_IMM(a2, 0x80000120, 212)
    li a1, 0xffffffff
    csrw mcause, a1
    csrr a2, mcause
    CHECK_IMM(a2, 0x8000000f, 213)
    csrw mtval, a1
    csrr a2, mtval
    CHECK_IMM(a2, 0xffffffff, 214)
    li a1, 0xffffffff
    csrw mie, a1
    csrr a2, mie
    CHECK_IMM(a2, 0x888, 215)
    csrw mie, zero
    csrw misa, zero             /* WARL, ignored */
    csrr a2, misa
    CHECK_IMM(a2, 0x40001100, 216)
    csrr a2, mstatush
    CHECK_IMM(a2, 0, 217)
    /* minstret counts retired instructions: three between the reads */
    csrr a1, minstret
    nop
    nop
    csrr a2, minstret
    sub a2, a2, a1
    CHECK_IMM(a2, 3, 218)
    csrr a1, instret
    csrr a2, minstreth
    csrr a3, instreth
    CHECK_EQ(a2, a3, 219)
    /* a trap does not retire: minstret across an ecall counts the csrr only */
    csrr a1, minstret
    ecall
    csrr a2, minstret
    sub a2, a2, a1
    li a3, 1
    csrr a4, mcause                 /* (the handler's instructions count too) */
    CHECK_IMM(a4, 11, 220)
    /* minstret and mcycle are writable */
    li a1, 1000
    csrw minstret, a1
    csrr a2, minstret
    CHECK_IMM(a2, 1000, 221)        /* the write wins over the csrw's own count */
    csrw minstreth, zero
    csrr a1, mcycle
    csrr a2, mcycle
    bltu a1, a2, 8f
    li a0, 222
    j fail
8:  csrr a1, cycleh
    csrr a1, time
    csrr a1, timeh
    csrw mcycleh, zero
    csrr a1, mcycleh
    CHECK_IMM(a1, 0, 223)
    csrr a1, mip                    /* nothing pending (mtimecmp resets to all ones) */
    CHECK_IMM(a1, 0, 224)
    fence
    fence.i
    fence rw, rw

    /* ---- mret: MIE <- MPIE, MPIE <- 1, to mepc ---- */
    li a1, 0x80
    csrw mstatus, a1                /* MPIE = 1, MIE = 0 */
    la a1, 9f
    csrw mepc, a1
    mret
    li a0, 230
    j fail
9:  csrr a1, mstatus
    CHECK_IMM(a1, 0x1888, 231)      /* MIE = 1, MPIE = 1 */
    csrw mstatus, zero
    /* a trap saves MIE in MPIE and clears MIE */
    li a1, 0x8
    csrw mstatus, a1
    ecall
    csrr a1, mstatus
    CHECK_IMM(a1, 0x1888, 232)          /* trap: MPIE = 1, MIE = 0; mret: MIE = 1, MPIE = 1 */
    csrw mstatus, zero

    /* ---- SP registers ---- */
    li s0, SP_REGS
    lw a1, 0(s0)
    CHECK_IMM(a1, 0x4b4f5350, 240)
    lw a1, 4(s0)
    CHECK_IMM(a1, (128 << 16) | 64, 241)
    li a1, 1
    sw a1, 8(s0)
    lw a2, 8(s0)
    CHECK_IMM(a2, 1, 242)
    sw zero, 8(s0)
    /* FAULTS counts the faults: then one more */
    lw a1, 12(s0)
    beqz a1, 10f
    .word 0
    lw a2, 12(s0)
    sub a2, a2, a1
    CHECK_IMM(a2, 1, 243)
    /* faults do not include ecall and ebreak */
    lw a1, 12(s0)
    ecall
    ebreak
    lw a2, 12(s0)
    CHECK_EQ(a1, a2, 244)
    j 11f
10: li a0, 245
    j fail
11: /* an SP register write of a read-only offset is ignored; unknown offsets read 0 */
    sw a1, 0(s0)
    lw a1, 0(s0)
    CHECK_IMM(a1, 0x4b4f5350, 246)
    lw a1, 0x40(s0)
    CHECK_IMM(a1, 0, 247)

    /* ---- console: a line, and a byte written with LCR.DLAB set is not sent ---- */
    la a1, msg
    li s0, CONSOLE
12: lbu a2, 0(a1)
    beqz a2, 14f
13: lbu a3, 5(s0)
    andi a3, a3, 0x20
    beqz a3, 13b
    sb a2, 0(s0)
    addi a1, a1, 1
    j 12b
14: li a1, 0x80
    sb a1, 3(s0)        /* LCR: DLAB */
    li a1, 'X'
    sb a1, 0(s0)        /* divisor latch, not THR */
    sb zero, 3(s0)
    sb zero, 1(s0)      /* IER: ignored */
    lbu a3, 3(s0)       /* other offsets read 0 */
    CHECK_IMM(a3, 0, 250)

    /* ---- the finisher reads 0 ---- */
    li a1, FINISH_CTRL
    lw a2, 0(a1)
    CHECK_IMM(a2, 0, 251)
    PASS_END

COMMON_CODE

    .section .rodata
    .balign 4
magic: .word 0x12345678
msg: .asciz "traps: ok\n"
COMMON_DATA
