/* platform.c - time, finisher, heartbeat and the trap handler of the RV32
 * images. The trap handler reports every exception on the console (cause,
 * pc, mtval; kolo_sp also raises the service block's SP_FAULT event in
 * hardware) and resumes after the faulting instruction; after
 * KOLO_RV32_MAX_FAULTS it stops the firmware (the service block keeps
 * counting them in SYS_SP_FAULTS). Interrupts are not used: the firmware
 * waits with WFI (kolo_hal_wait), which wakes on a pending enabled
 * interrupt with mstatus.MIE off; one arriving anyway is reported too. */
#include "kolo_rv32.h"
#include "kolo_rv32_platform.h"

#define KOLO_RV32_MAX_FAULTS 16u

static volatile uint32_t *reg32(uint32_t addr) { return (volatile uint32_t *)(uintptr_t)addr; }

uint64_t kolo_rv32_cycles(void) {
#if KOLO_RV32_CLINT_BASE
    uint32_t hi, lo, hi2;
    do { /* the upper half must not change while the lower is read */
        hi = *reg32(KOLO_RV32_CLINT_BASE + KOLO_RV32_CLINT_MTIME + 4u);
        lo = *reg32(KOLO_RV32_CLINT_BASE + KOLO_RV32_CLINT_MTIME);
        hi2 = *reg32(KOLO_RV32_CLINT_BASE + KOLO_RV32_CLINT_MTIME + 4u);
    } while (hi != hi2);
    return (uint64_t)hi << 32 | lo;
#else
    return 0;
#endif
}

void kolo_rv32_finish(uint32_t code) {
#if KOLO_RV32_FINISH_BASE
    *reg32(KOLO_RV32_FINISH_BASE) = code ? 0x3333u | code << 16 : 0x5555u;
#else
    (void)code;
#endif
}

void kolo_rv32_heartbeat(int on) {
#if KOLO_RV32_SP_BASE
    *reg32(KOLO_RV32_SP_BASE + KOLO_RV32_SP_HEARTBEAT) = on ? 1u : 0u;
#else
    (void)on;
#endif
}

static uint32_t faults;

uint32_t kolo_rv32_fault_count(void) { return faults; }

static const char *cause_name(uint32_t cause) {
    switch (cause) {
    case 0: return "instruction address misaligned";
    case 1: return "instruction access fault";
    case 2: return "illegal instruction";
    case 3: return "breakpoint";
    case 4: return "load address misaligned";
    case 5: return "load access fault (bus error)";
    case 6: return "store address misaligned";
    case 7: return "store access fault (bus error)";
    case 11: return "environment call";
    default: return "unexpected trap";
    }
}

uint32_t kolo_rv32_trap(uint32_t cause, uint32_t epc, uint32_t tval);
uint32_t kolo_rv32_trap(uint32_t cause, uint32_t epc, uint32_t tval) {
    kolo_rv32_puts("kolo sp: trap: ");
    kolo_rv32_puts(cause >> 31 ? "interrupt" : cause_name(cause));
    kolo_rv32_puts(", mcause 0x");
    kolo_rv32_put_hex32(cause);
    kolo_rv32_puts(", pc 0x");
    kolo_rv32_put_hex32(epc);
    kolo_rv32_puts(", mtval 0x");
    kolo_rv32_put_hex32(tval);
    kolo_rv32_puts("\n");
    if (cause >> 31) {
        /* not expected (mstatus.MIE stays off): mask them all and go on */
        __asm__ volatile("csrw mie, zero");
        return epc;
    }
    if (++faults >= KOLO_RV32_MAX_FAULTS) {
        kolo_rv32_puts("kolo sp: too many faults, firmware stopped\n");
        kolo_rv32_finish(2);
        for (;;) __asm__ volatile("wfi");
    }
    /* an instruction access fault at a bad target cannot be skipped: stop */
    if (cause == 0 || cause == 1) {
        kolo_rv32_puts("kolo sp: jump to a bad address, firmware stopped\n");
        kolo_rv32_finish(3);
        for (;;) __asm__ volatile("wfi");
    }
    return epc + 4u;
}
