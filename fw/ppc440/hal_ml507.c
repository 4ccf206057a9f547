/* hal_ml507.c - the firmware HAL (fw/kolo_hal.h) on the PowerPC 440 of the
 * ML507: the service block's AXI4-Lite slave mapped at KOLO_ML507_SVC_BASE
 * (the board design's address; docs/firmware.md), time from the 64-bit time
 * base (one tick per processor clock), log lines on the 16550 UART. The
 * wait polls the event interrupt status until the deadline: the firmware
 * loop is polled, so no interrupt vector is needed. */
#include <stdint.h>

#include "kolo_hal.h"
#include "kolo_svc_regs.h"
#include "uart16550.h"

#define KOLO_ML507_SVC_BASE 0x80000000u

struct kolo_hal {
    volatile uint32_t *base;
};

static kolo_hal ml507_hal = {(volatile uint32_t *)KOLO_ML507_SVC_BASE};

kolo_hal *kolo_ml507_hal(void) { return &ml507_hal; }

uint32_t kolo_hal_read32(kolo_hal *h, uint32_t addr) { return h->base[addr / 4u]; }

void kolo_hal_write32(kolo_hal *h, uint32_t addr, uint32_t value) { h->base[addr / 4u] = value; }

uint64_t kolo_hal_time(kolo_hal *h) {
    uint32_t hi, lo, hi2;
    (void)h;
    do { /* the upper half must not change while the lower is read */
        __asm__ volatile("mftbu %0" : "=r"(hi));
        __asm__ volatile("mftb %0" : "=r"(lo));
        __asm__ volatile("mftbu %0" : "=r"(hi2));
    } while (hi != hi2);
    return (uint64_t)hi << 32 | lo;
}

void kolo_hal_wait(kolo_hal *h, uint64_t deadline) {
    while (kolo_hal_time(h) < deadline)
        if (kolo_hal_read32(h, KOLO_SVC_EVT_IRQ_STATUS))
            return;
}

void kolo_hal_log(kolo_hal *h, const char *line) {
    (void)h;
    uart_puts(line);
    uart_putc('\n');
}

/* ---- the firmware's main loop on the board ----------------------------------
 * Tables of tori up to 512 nodes (8x8x8); the set buffer holds the whole
 * table set the firmware computes and checks before installing its row. */
#include "kolo_fw.h"

#define ML507_MAX_NODES 512u
static kolo_fw ml507_fw;
static uint64_t ml507_ws[(4u << 20) / sizeof(uint64_t)];
static kolo_route_entry ml507_set[ML507_MAX_NODES * ML507_MAX_NODES];

void kolo_ml507_firmware(void) {
    kolo_fw_config cfg;
    kolo_fw_default_config(&cfg);
    if (kolo_fw_init(&ml507_fw, &ml507_hal, &cfg, ml507_ws, sizeof ml507_ws, ml507_set,
                     sizeof ml507_set / sizeof ml507_set[0])) {
        uart_puts("kolo firmware: init failed (torus too large for this image?)\n");
        return;
    }
    for (;;) {
        kolo_fw_step(&ml507_fw);
        kolo_hal_wait(&ml507_hal, kolo_fw_deadline(&ml507_fw));
    }
}
