/* start.S - entry of the kolo firmware image on the PowerPC 440 of the ML507.
 *
 * QEMU's virtex-ml507 loads the ELF at its link addresses, maps the 4 GB with
 * two 2 GB TLB entries (virtual = physical) and jumps to the ELF entry
 * (masked to 24 bits: the image must sit below 16 MB). r1 points at the top
 * of RAM's first 16 MB, r3 at a device tree; neither is used here.
 */
    .section .text.start, "ax"
    .globl _start
    .type _start, @function
_start:
    /* stack: top of kolo_stack (in .bss), 16-byte aligned, with a null back chain */
    lis     1, __stack_top@ha
    addi    1, 1, __stack_top@l
    li      0, 0
    stwu    0, -16(1)

    /* clear .bss (word aligned by the linker script); the stack is in it
     * but nothing is on it yet but the null back chain, cleared again */
    lis     3, __bss_start@ha
    addi    3, 3, __bss_start@l
    lis     4, __bss_end@ha
    addi    4, 4, __bss_end@l
1:  cmplw   3, 4
    bge     2f
    stw     0, 0(3)
    addi    3, 3, 4
    b       1b
2:
    bl      ppc_main
3:  b       3b
    .size _start, . - _start

    .section .note.GNU-stack, "", @progbits
