/* start.S - entry and trap entry of the kolo service processor images
 * (kolo_sp, QEMU virt). Sets gp and sp, points mtvec at kolo_rv32_trap_entry,
 * copies .data from its load image in IMEM (so a reset re-runs from a clean
 * state without reloading the RAM), clears .bss, calls kolo_rv32_main; if
 * that returns, ends the run through the finisher (pass) and spins.
 *
 * Trap entry: saves the caller-saved registers, calls
 * kolo_rv32_trap(mcause, mepc, mtval) whose return value is the address to
 * resume at (mepc), restores, mret. The handler runs on the interrupted
 * stack (the firmware keeps interrupts off; faults come from its own code). */
    .section .text.start, "ax"
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    la      sp, __stack_top
    la      t0, kolo_rv32_trap_entry
    csrw    mtvec, t0
    la      t0, __data_load
    la      t1, __data_start
    la      t2, __data_end
1:  bgeu    t1, t2, 2f
    lw      t3, 0(t0)
    sw      t3, 0(t1)
    addi    t0, t0, 4
    addi    t1, t1, 4
    j       1b
2:  la      t1, __bss_start
    la      t2, __bss_end
3:  bgeu    t1, t2, 4f
    sw      zero, 0(t1)
    addi    t1, t1, 4
    j       3b
4:  call    kolo_rv32_main
    lui     t0, %hi(KOLO_SP_FINISH_BASE)    /* FINISH_CTRL, at the block's base */
    addi    t0, t0, %lo(KOLO_SP_FINISH_BASE)
    li      t1, 0x5555
    sw      t1, 0(t0)
5:  j       5b
    .size _start, . - _start

    .text
    .balign 4
    .globl kolo_rv32_trap_entry
    .type kolo_rv32_trap_entry, @function
kolo_rv32_trap_entry:
    addi    sp, sp, -64
    sw      ra, 0(sp)
    sw      t0, 4(sp)
    sw      t1, 8(sp)
    sw      t2, 12(sp)
    sw      a0, 16(sp)
    sw      a1, 20(sp)
    sw      a2, 24(sp)
    sw      a3, 28(sp)
    sw      a4, 32(sp)
    sw      a5, 36(sp)
    sw      a6, 40(sp)
    sw      a7, 44(sp)
    sw      t3, 48(sp)
    sw      t4, 52(sp)
    sw      t5, 56(sp)
    sw      t6, 60(sp)
    csrr    a0, mcause
    csrr    a1, mepc
    csrr    a2, mtval
    call    kolo_rv32_trap
    csrw    mepc, a0
    lw      ra, 0(sp)
    lw      t0, 4(sp)
    lw      t1, 8(sp)
    lw      t2, 12(sp)
    lw      a0, 16(sp)
    lw      a1, 20(sp)
    lw      a2, 24(sp)
    lw      a3, 28(sp)
    lw      a4, 32(sp)
    lw      a5, 36(sp)
    lw      a6, 40(sp)
    lw      a7, 44(sp)
    lw      t3, 48(sp)
    lw      t4, 52(sp)
    lw      t5, 56(sp)
    lw      t6, 60(sp)
    addi    sp, sp, 64
    mret
    .size kolo_rv32_trap_entry, . - kolo_rv32_trap_entry

    .section .note.GNU-stack, "", @progbits
