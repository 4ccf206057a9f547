/* common.h - macros of the kolo_sp instruction test programs (tb/unit/cpu/prog).
 * Each program starts at _start (.text.start, IMEM), reports failures through
 * the finisher with a code naming the check (FAIL: 0x3333 | code << 16) and
 * passes with 0x5555. The default trap handler (trap_record) stores mcause,
 * mepc and mtval in trap_rec, counts traps, and resumes at trap_rec.resume if
 * set (one-shot), else after the trapping instruction; an interrupt (random
 * programs) lowers the test slave's irq line and resumes. It uses only t5/t6
 * (saved through mscratch and trap_rec). The expected values in the checks
 * are written from the RISC-V specification by hand, not computed by the
 * ISS or the RTL. */
#define FINISH_CTRL 0x00100000
#define CONSOLE 0x10000000
#define SP_REGS 0x10001000
#define CLINT 0x02000000
#define SVC 0x40000000
#define IMEM 0x80000000
#define DMEM 0x80100000

#define TR_CAUSE 0
#define TR_EPC 4
#define TR_TVAL 8
#define TR_SAVE 12
#define TR_COUNT 16
#define TR_RESUME 20

/* fail with code if a != b (registers) */
#define CHECK_EQ(a, b, code) \
    beq a, b, 99f; li a0, code; j fail; 99:

/* compare a register with a constant (uses t4) */
#define CHECK_IMM(r, imm, code) \
    li t4, imm; bne r, t4, 98f; j 99f; 98: li a0, code; j fail; 99:

/* the last trap: cause, epc (a label), tval (a register); uses t3, t4 */
#define CHECK_TRAP(cause, epc_label, tval_reg, code) \
    la t3, trap_rec; lw t4, TR_CAUSE(t3); li t3, cause; beq t4, t3, 97f; li a0, code; j fail; 97: \
    la t3, trap_rec; lw t4, TR_EPC(t3); la t3, epc_label; beq t4, t3, 96f; li a0, code + 1; j fail; 96: \
    la t3, trap_rec; lw t4, TR_TVAL(t3); beq t4, tval_reg, 95f; li a0, code + 2; j fail; 95:

/* an instruction that must trap with cause and tval = tval_reg, resuming after it */
#define EXPECT_TRAP(cause, tval_reg, code, ...) \
    94: __VA_ARGS__; CHECK_TRAP(cause, 94b, tval_reg, code)

#define PASS_END \
    li t0, FINISH_CTRL; li t1, 0x5555; sw t1, 0(t0); 1: j 1b

#define COMMON_CODE \
fail: \
    slli a0, a0, 16; li t1, 0x3333; or a0, a0, t1; li t0, FINISH_CTRL; sw a0, 0(t0); 1: j 1b; \
    .balign 4; \
trap_record: \
    csrw mscratch, t6; la t6, trap_rec; sw t5, TR_SAVE(t6); \
    csrr t5, mcause; bltz t5, 2f; \
    sw t5, TR_CAUSE(t6); csrr t5, mepc; sw t5, TR_EPC(t6); csrr t5, mtval; sw t5, TR_TVAL(t6); \
    lw t5, TR_COUNT(t6); addi t5, t5, 1; sw t5, TR_COUNT(t6); \
    lw t5, TR_RESUME(t6); bnez t5, 1f; csrr t5, mepc; addi t5, t5, 4; \
1:  csrw mepc, t5; sw zero, TR_RESUME(t6); lw t5, TR_SAVE(t6); csrr t6, mscratch; mret; \
2:  /* an interrupt (random programs): lower the test slave's irq, resume at mepc */ \
    li t5, SVC + 0x7f00; sw zero, 0(t5); lw t5, TR_SAVE(t6); csrr t6, mscratch; mret

#define COMMON_DATA \
    .bss; .balign 4; trap_rec: .space 32
