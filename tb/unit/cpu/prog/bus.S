/* bus.S - kolo_sp's AXI4-Lite master against the test slave of tb_cpu:
 * word reads and writes, sub-word loads (the whole word is read), sub-word
 * stores (partial strobes: the slave answers SLVERR, a store access fault),
 * SLVERR and DECERR ranges, and a slave that answers after the core's
 * timeout (a fault; the next access waits for the late answer and times out
 * too; then the bus works again). Self-checking, in lock step with the ISS
 * (tb_cpu --cover=bus). */
#include "common.h"

#define SLV_ERR (SVC + 0x7000)
#define SLV_DEC (SVC + 0x7800)
#define SLV_LATE (SVC + 0x7ff8)

    .section .text.start, "ax"
    .globl _start
_start:
    la t0, trap_record
    csrw mtvec, t0
    li s0, SVC

    /* ---- words: write a pattern, read it back ---- */
    li a1, 0x01020304
    li a2, 64
1:  sw a1, 0(s0)
    addi s0, s0, 4
    addi a1, a1, 0x111
    addi a2, a2, -1
    bnez a2, 1b
    li s0, SVC
    li a1, 0x01020304
    li a2, 64
2:  lw a3, 0(s0)
    CHECK_EQ(a1, a3, 10)
    addi s0, s0, 4
    addi a1, a1, 0x111
    addi a2, a2, -1
    bnez a2, 2b
    /* the far end of the space */
    li s0, SVC + 0x6ffc
    li a1, 0xcafef00d
    sw a1, 0(s0)
    lw a2, 0(s0)
    CHECK_EQ(a1, a2, 11)

    /* ---- sub-word loads read the word and pick the bytes ---- */
    li s0, SVC + 0x100
    li a1, 0x8899aabb
    sw a1, 0(s0)
    lb a2, 0(s0)
    CHECK_IMM(a2, 0xffffffbb, 20)
    lbu a2, 1(s0)
    CHECK_IMM(a2, 0xaa, 21)
    lh a2, 2(s0)
    CHECK_IMM(a2, 0xffff8899, 22)
    lhu a2, 0(s0)
    CHECK_IMM(a2, 0xaabb, 23)

    /* ---- sub-word stores: partial strobes, refused (store access fault), nothing written ---- */
    addi a1, s0, 1
    EXPECT_TRAP(7, a1, 30, sb zero, 1(s0))
    addi a1, s0, 2
    EXPECT_TRAP(7, a1, 33, sh zero, 2(s0))
    lw a2, 0(s0)
    CHECK_IMM(a2, 0x8899aabb, 36)

    /* ---- error answers ---- */
    li a1, SLV_ERR
    EXPECT_TRAP(5, a1, 40, lw a2, 0(a1))
    EXPECT_TRAP(7, a1, 43, sw a2, 0(a1))
    li a1, SLV_DEC + 0x10
    EXPECT_TRAP(5, a1, 46, lw a2, 0(a1))
    EXPECT_TRAP(7, a1, 49, sw a2, 0(a1))
    /* a load that faults leaves rd alone */
    li a2, 0x600d
    li a1, SLV_ERR + 8
    EXPECT_TRAP(5, a1, 52, lw a2, 0(a1))
    CHECK_IMM(a2, 0x600d, 55)

    /* ---- a late answer: timeout; the next access waits and times out too ---- */
    li a1, SLV_LATE
    EXPECT_TRAP(5, a1, 60, lw a2, 0(a1))
    li a1, SVC + 0x100
    EXPECT_TRAP(5, a1, 63, lw a2, 0(a1))
    li a3, 400                  /* past the late answer (3 timeouts after it) */
3:  addi a3, a3, -1
    bnez a3, 3b
    lw a2, 0(a1)                /* the bus works again: the late answer was not taken for this one */
    CHECK_IMM(a2, 0x8899aabb, 66)
    li a1, SLV_LATE
    EXPECT_TRAP(7, a1, 67, sw a2, 0(a1))
    li a3, 400
4:  addi a3, a3, -1
    bnez a3, 4b
    li a1, SVC + 0x104
    li a2, 0x1234
    sw a2, 0(a1)
    lw a3, 0(a1)
    CHECK_EQ(a2, a3, 70)
    /* the faults were counted */
    li a1, SP_REGS
    lw a2, 12(a1)
    CHECK_IMM(a2, 10, 71)
    PASS_END

COMMON_CODE
COMMON_DATA
