/* kolo_hal.h - the firmware's whole view of the hardware: 32-bit register
 * access on the service CSR bus (addresses of kolo_svc_regs.h), time in core
 * clock cycles, waiting for the interrupt line, and a log line. Each platform
 * implements it: fw/ppc440 (ML507 board / QEMU), fw/rv32 (kolo_sp, QEMU virt,
 * vendor RISC-V soft cores), sw/sim/svc.cpp (one
 * firmware instance per simulated node). Freestanding C99. */
#ifndef KOLO_HAL_H
#define KOLO_HAL_H

#include <stdint.h>

typedef struct kolo_hal kolo_hal; /* the platform's per-node context */

uint32_t kolo_hal_read32(kolo_hal *h, uint32_t addr);
void kolo_hal_write32(kolo_hal *h, uint32_t addr, uint32_t value);
/* core clock cycles since reset (SYS_TIME on boards; the simulation cycle) */
uint64_t kolo_hal_time(kolo_hal *h);
/* Block until the interrupt line is high or time reaches deadline (cycles).
 * Only the bare-metal main loop calls it; the simulator calls kolo_fw_step
 * itself when the line rises or the deadline passes. */
void kolo_hal_wait(kolo_hal *h, uint64_t deadline);
/* one line of text for the console / simulation log (no newline) */
void kolo_hal_log(kolo_hal *h, const char *line);

#endif
