/* kolo_rv32_platform.h - every address the RV32 firmware (fw/rv32) uses, in
 * one place. On kolo_sp (rtl/cpu) and QEMU's riscv32 `virt` machine they are
 * the generated memory map's (sw/include/kolo_sp_regs.h, from
 * rtl/regs/kolo_sp_regs.toml). On a vendor RISC-V soft core (MicroBlaze V,
 * Nios V) define these from its own address map (-D on the compiler's
 * command line, or edit this file), link with the RAM sizes of that design
 * and provide a console driver for its UART if it is not a 16550:
 *
 *   KOLO_RV32_SVC_BASE      the service block's AXI4-Lite slave (kolo_svc s_axil_*)
 *   KOLO_RV32_CONSOLE_BASE  a 16550-compatible UART (register shift 0), THR at +0, LSR at +5
 *   KOLO_RV32_CLINT_BASE    a CLINT-layout timer (MTIME +0xBFF8, MTIMECMP +0x4000) or 0: none
 *                           (then time is SYS_TIME and kolo_hal_wait polls)
 *   KOLO_RV32_SP_BASE       kolo_sp's own registers (heartbeat LED) or 0: none
 *   KOLO_RV32_FINISH_BASE   a sifive_test finisher (simulation only) or 0: none
 */
#ifndef KOLO_RV32_PLATFORM_H
#define KOLO_RV32_PLATFORM_H

#include "kolo_sp_regs.h"

#ifndef KOLO_RV32_SVC_BASE
#define KOLO_RV32_SVC_BASE KOLO_SP_SVC_BASE
#endif
#ifndef KOLO_RV32_CONSOLE_BASE
#define KOLO_RV32_CONSOLE_BASE KOLO_SP_CONSOLE_BASE
#endif
#ifndef KOLO_RV32_CLINT_BASE
#define KOLO_RV32_CLINT_BASE KOLO_SP_CLINT_BASE
#endif
#ifndef KOLO_RV32_SP_BASE
#define KOLO_RV32_SP_BASE KOLO_SP_SP_BASE
#endif
#ifndef KOLO_RV32_FINISH_BASE
#define KOLO_RV32_FINISH_BASE KOLO_SP_FINISH_BASE
#endif

/* register offsets within those blocks (the CLINT's and the 16550's layouts) */
#define KOLO_RV32_CLINT_MTIMECMP (KOLO_SP_CLINT_MTIMECMP_LO - KOLO_SP_CLINT_BASE)
#define KOLO_RV32_CLINT_MTIME (KOLO_SP_CLINT_MTIME_LO - KOLO_SP_CLINT_BASE)
#define KOLO_RV32_UART_THR 0u
#define KOLO_RV32_UART_LSR 5u
#define KOLO_RV32_UART_LSR_THRE (KOLO_SP_CONSOLE_LSR_THRE_MASK >> 8)
#define KOLO_RV32_SP_HEARTBEAT (KOLO_SP_SP_HEARTBEAT - KOLO_SP_SP_BASE)

#endif
