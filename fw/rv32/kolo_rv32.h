/* kolo_rv32.h - the RV32 port of the service-processor firmware (fw/rv32):
 * console, time, finisher and trap reporting on kolo_sp, QEMU virt, or a
 * vendor RISC-V soft core (addresses: kolo_rv32_platform.h). Freestanding. */
#ifndef KOLO_RV32_H
#define KOLO_RV32_H

#include <stdint.h>

/* console (16550 transmit, polled) */
void kolo_rv32_putc(char c);
void kolo_rv32_puts(const char *s);
void kolo_rv32_put_hex32(uint32_t v);
/* clock cycles of the processor (mtime; 0 without a CLINT) */
uint64_t kolo_rv32_cycles(void);
/* end a simulation (finisher: pass when code is 0); returns on hardware without one */
void kolo_rv32_finish(uint32_t code);
/* the heartbeat LED (kolo_sp) */
void kolo_rv32_heartbeat(int on);
/* faults the trap handler reported */
uint32_t kolo_rv32_fault_count(void);
/* the image's entry after the start-up code */
void kolo_rv32_main(void);

#endif
