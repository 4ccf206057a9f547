/* sp_fault.c - test image for kolo_sp on kolo_svc (tb_sp_svc): the fault
 * path. Built with the RV32 firmware's start-up code, console and trap
 * handler (fw/rv32). An illegal instruction and a load the service block
 * refuses (SLVERR: an unmapped service register) must each be reported by
 * the firmware's trap handler on the console and raise the service block's
 * SP_FAULT event with the cause and the pc, counted in SYS_SP_FAULTS; the
 * firmware then goes on. Ends through the finisher: pass, or the failed
 * check's number. */
#include <stdint.h>

#include "kolo_rv32.h"
#include "kolo_sp_regs.h"
#include "kolo_svc_regs.h"

static volatile uint32_t *svc(uint32_t off) { return (volatile uint32_t *)(uintptr_t)(KOLO_SP_SVC_BASE + off); }

static void check(int ok, uint32_t n) {
    if (!ok) {
        kolo_rv32_puts("sp_fault: check failed\n");
        kolo_rv32_finish(n);
        for (;;) {
        }
    }
}

static uint32_t info(uint32_t cause, uint32_t pc) { return ((pc >> 2) & 0xfffffu) << 4 | cause; }

void kolo_rv32_main(void) {
    uint32_t pc_ill, pc_bus, v = 0;
    check(*svc(KOLO_SVC_SYS_ID) == KOLO_SVC_SYS_ID_RESET, 1);
    while (*svc(KOLO_SVC_EVT_DATA) & KOLO_SVC_EVT_DATA_TYPE_MASK) { /* drain */
    }
    check(*svc(KOLO_SVC_SYS_SP_FAULTS) == 0, 2);
    /* an illegal instruction */
    __asm__ volatile("1: .word 0\n\tla %0, 1b" : "=r"(pc_ill));
    /* a load the service block answers with SLVERR (0x0ffc is unmapped) */
    __asm__ volatile("2: lw %0, 0(%2)\n\tla %1, 2b" : "+r"(v), "=r"(pc_bus) : "r"(svc(0x0ffc)) : "memory");
    check(kolo_rv32_fault_count() == 2, 3);
    check(*svc(KOLO_SVC_SYS_SP_FAULTS) == 2, 4);
    check(*svc(KOLO_SVC_SYS_SP_FAULT_PC) == pc_bus && *svc(KOLO_SVC_SYS_SP_FAULT_CAUSE) == 5, 5);
    uint32_t e1 = *svc(KOLO_SVC_EVT_DATA), e2 = *svc(KOLO_SVC_EVT_DATA);
    check((e1 & 0xff) == KOLO_SVC_EVT_SP_FAULT && e1 >> 8 == info(2, pc_ill), 6);
    check((e2 & 0xff) == KOLO_SVC_EVT_SP_FAULT && e2 >> 8 == info(5, pc_bus), 7);
    check(*svc(KOLO_SVC_EVT_DATA) == 0, 8);
    check(*svc(KOLO_SVC_SYS_BAD_ACCESS) == 1, 9);   /* the refused access, counted by the block */
    kolo_rv32_puts("sp_fault: both faults reported and raised as SP_FAULT events\n");
}
