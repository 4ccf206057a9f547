/* irq.S - kolo_sp: the three interrupts (external = the irq input, driven
 * here through the test slave's control word at SVC + 0x7F00; timer =
 * CLINT mtime/mtimecmp; software = CLINT MSIP), their enables, priority,
 * WFI, and mret; self-checking, run in lock step with the ISS
 * (tb_cpu --cover=irq). */
#include "common.h"

#define IRQ_CTRL (SVC + 0x7f00)
#define MTIMECMP (CLINT + 0x4000)
#define MTIME (CLINT + 0xbff8)
#define MEI 0x800
#define MTI 0x80
#define MSI 0x8

    .section .text.start, "ax"
    .globl _start
_start:
    la t0, irq_handler
    csrw mtvec, t0
    li sp, DMEM + 0x1000
    li s0, IRQ_CTRL
    li s1, CLINT
    la s2, counts
    li s3, MTIME

    /* ---- 1. masked by mstatus.MIE: no trap; WFI still wakes; then taken at once ---- */
    li a1, MEI
    csrw mie, a1
    li a1, 1 | (5 << 8)         /* irq high 5 cycles from now */
    sw a1, 0(s0)
    wfi                         /* wakes when it is pending (MIE off: no trap) */
    csrr a1, mip
    CHECK_IMM(a1, MEI, 10)
    lw a1, 0(s2)
    CHECK_IMM(a1, 0, 11)        /* nothing taken yet */
    csrsi mstatus, 8            /* MIE: the interrupt before the next instruction */
1:  csrci mstatus, 8
    lw a1, 0(s2)
    CHECK_IMM(a1, 1, 12)
    la a2, 1b
    lw a1, 12(s2)               /* mepc of the external interrupt: the instruction after csrsi */
    CHECK_EQ(a1, a2, 13)
    csrr a1, mcause
    CHECK_IMM(a1, 0x8000000b, 14)
    csrr a1, mip
    CHECK_IMM(a1, 0, 15)

    /* ---- 2. masked by mie: pending, not taken ---- */
    csrw mie, zero
    li a1, 1
    sw a1, 0(s0)
    csrsi mstatus, 8
    nop
    nop
    csrci mstatus, 8
    lw a1, 0(s2)
    CHECK_IMM(a1, 1, 20)
    sw zero, 0(s0)

    /* ---- 3. timer: mtimecmp = mtime + 300, taken while spinning ---- */
    lw a1, 0(s3)
    addi a1, a1, 300
    li t0, MTIMECMP
    li a2, -1
    sw a2, 4(t0)
    sw a1, 0(t0)
    sw zero, 4(t0)
    li a1, MTI
    csrw mie, a1
    csrsi mstatus, 8
    li a3, 2000
2:  lw a1, 4(s2)
    bnez a1, 3f
    addi a3, a3, -1
    bnez a3, 2b
    li a0, 30
    j fail
3:  csrci mstatus, 8
    csrr a1, mcause
    CHECK_IMM(a1, 0x80000007, 31)

    /* ---- 4. WFI wakes on the timer with MIE off ---- */
    lw a4, 0(s3)
    addi a4, a4, 100
    li t0, MTIMECMP
    sw a4, 0(t0)
    sw zero, 4(t0)
    wfi
    csrr a1, mip
    CHECK_IMM(a1, MTI, 40)
    lw a2, 0(s3)
    bgeu a2, a4, 4f
    li a0, 41
    j fail
4:  li a2, -1
    sw a2, 0(t0)
    sw a2, 4(t0)
    csrr a1, mip
    CHECK_IMM(a1, 0, 42)

    /* ---- 5. software interrupt ---- */
    li a1, MSI
    csrw mie, a1
    li a1, 1
    sw a1, 0(s1)                /* MSIP */
    lw a2, 0(s1)
    CHECK_IMM(a2, 1, 50)
    csrsi mstatus, 8
    nop
    nop
    csrci mstatus, 8
    lw a1, 8(s2)
    CHECK_IMM(a1, 1, 51)

    /* ---- 6. priority: all three pending, taken external, software, timer ---- */
    li a1, 1
    sw a1, 0(s0)                /* irq */
    sw a1, 0(s1)                /* MSIP */
    lw a1, 0(s3)
    li t0, MTIMECMP
    sw a1, 0(t0)                /* MTIP */
    sw zero, 4(t0)
    li a1, 20
5:  addi a1, a1, -1             /* let the lines settle */
    bnez a1, 5b
    li a1, MEI | MTI | MSI
    csrw mie, a1
    sw zero, 16(s2)             /* the order record */
    csrsi mstatus, 8
    nop
    nop
    nop
    csrci mstatus, 8
    lw a1, 16(s2)
    CHECK_IMM(a1, 0xb37, 60)    /* 0xb, then 3, then 7 (4 bits each, the first highest) */

    /* ---- 7. an interrupt during a division: taken after it, the result written ---- */
    li a1, MEI
    csrw mie, a1
    li a1, 1 | (3 << 8)
    sw a1, 0(s0)
    li a2, 1000
    li a3, 7
    csrsi mstatus, 8
    div a4, a2, a3
    rem a5, a2, a3
    csrci mstatus, 8
    CHECK_IMM(a4, 142, 70)
    CHECK_IMM(a5, 6, 71)
    lw a1, 0(s2)
    CHECK_IMM(a1, 3, 72)
    csrw mie, zero
    PASS_END

    /* the handler: counts by cause, records the external interrupt's mepc and the
     * order of causes, clears the source; uses only t5, t6 (mscratch) */
    .balign 4
irq_handler:
    csrw mscratch, t6
    la t6, counts
    sw t5, 20(t6)
    lw t5, 16(t6)           /* order <<= 4 | (cause & 15) */
    slli t5, t5, 4
    sw t5, 16(t6)
    csrr t5, mcause
    andi t5, t5, 15
    lw t6, 16(t6)
    or t5, t5, t6
    la t6, counts
    sw t5, 16(t6)
    csrr t5, mcause
    bltz t5, 1f
    li a0, 90               /* an exception: not expected here */
    j fail
1:  andi t5, t5, 15
    addi t5, t5, -11
    bnez t5, 2f
    lw t5, 0(t6)            /* external: count, mepc, clear the line */
    addi t5, t5, 1
    sw t5, 0(t6)
    csrr t5, mepc
    sw t5, 12(t6)
    li t5, IRQ_CTRL
    sw zero, 0(t5)
    j 9f
2:  csrr t5, mcause
    andi t5, t5, 15
    addi t5, t5, -7
    bnez t5, 3f
    lw t5, 4(t6)            /* timer: count, mtimecmp to all ones */
    addi t5, t5, 1
    sw t5, 4(t6)
    li t5, MTIMECMP
    li t6, -1
    sw t6, 0(t5)
    sw t6, 4(t5)
    la t6, counts
    j 9f
3:  lw t5, 8(t6)            /* software: count, clear MSIP */
    addi t5, t5, 1
    sw t5, 8(t6)
    li t5, CLINT
    sw zero, 0(t5)
9:  lw t5, 20(t6)
    csrr t6, mscratch
    mret

COMMON_CODE

COMMON_DATA
    .balign 4
counts: .space 32           /* external, timer, software, ext mepc, order, t5 save */
