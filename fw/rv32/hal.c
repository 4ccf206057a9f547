/* hal.c - the firmware HAL (fw/kolo_hal.h) on an RV32 service processor:
 * the service block at KOLO_RV32_SVC_BASE, time from the service block's
 * SYS_TIME (core clock cycles, as the firmware's timeouts expect, whatever
 * the processor's clock), log lines on the console. The wait sleeps in WFI
 * with the CLINT timer set to the deadline and the interrupt line enabled
 * in mie (mstatus.MIE stays off: WFI wakes, no trap is taken), then checks
 * the deadline and the service block's interrupt status; without a CLINT it
 * polls. */
#include <stdint.h>

#include "kolo_hal.h"
#include "kolo_rv32.h"
#include "kolo_rv32_platform.h"
#include "kolo_svc_regs.h"

struct kolo_hal {
    volatile uint32_t *base;
};

static kolo_hal rv32_hal = {(volatile uint32_t *)(uintptr_t)KOLO_RV32_SVC_BASE};

kolo_hal *kolo_rv32_hal(void);
kolo_hal *kolo_rv32_hal(void) { return &rv32_hal; }

uint32_t kolo_hal_read32(kolo_hal *h, uint32_t addr) { return h->base[addr / 4u]; }

void kolo_hal_write32(kolo_hal *h, uint32_t addr, uint32_t value) { h->base[addr / 4u] = value; }

uint64_t kolo_hal_time(kolo_hal *h) {
    uint32_t lo = kolo_hal_read32(h, KOLO_SVC_SYS_TIME_LO); /* latches TIME_HI */
    return (uint64_t)kolo_hal_read32(h, KOLO_SVC_SYS_TIME_HI) << 32 | lo;
}

void kolo_hal_wait(kolo_hal *h, uint64_t deadline) {
    for (;;) {
        uint64_t now = kolo_hal_time(h);
        if (now >= deadline || kolo_hal_read32(h, KOLO_SVC_EVT_IRQ_STATUS)) return;
#if KOLO_RV32_CLINT_BASE
        /* sleep until the interrupt line or the timer: MEIE and MTIE in mie, MIE off */
        uint64_t at = kolo_rv32_cycles() + (deadline - now);
        volatile uint32_t *cmp = (volatile uint32_t *)(uintptr_t)(KOLO_RV32_CLINT_BASE + KOLO_RV32_CLINT_MTIMECMP);
        cmp[1] = 0xffffffffu; /* no spurious match while the halves change */
        cmp[0] = (uint32_t)at;
        cmp[1] = (uint32_t)(at >> 32);
        __asm__ volatile("csrw mie, %0\n\twfi\n\tcsrw mie, zero" : : "r"((1u << 11) | (1u << 7)));
#endif
    }
}

void kolo_hal_log(kolo_hal *h, const char *line) {
    (void)h;
    kolo_rv32_puts(line);
    kolo_rv32_putc('\n');
}
