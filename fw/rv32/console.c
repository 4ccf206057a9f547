/* console.c - console output on a 16550-compatible UART (kolo_sp's console
 * block, QEMU virt's UART): wait for LSR.THRE, write THR. No divisor setup:
 * kolo_sp's console has no baud rate, QEMU needs none; a board's UART behind
 * kolo_sp's m_console_* stream sets its own. */
#include "kolo_rv32.h"
#include "kolo_rv32_platform.h"
#include "kolo_print.h"

static volatile uint8_t *uart(unsigned off) { return (volatile uint8_t *)(uintptr_t)(KOLO_RV32_CONSOLE_BASE + off); }

void kolo_rv32_putc(char c) {
    if (c == '\n') kolo_rv32_putc('\r');
    while (!(*uart(KOLO_RV32_UART_LSR) & KOLO_RV32_UART_LSR_THRE)) {
    }
    *uart(KOLO_RV32_UART_THR) = (uint8_t)c;
}

void kolo_rv32_puts(const char *s) {
    while (*s) kolo_rv32_putc(*s++);
}

void kolo_rv32_put_hex32(uint32_t v) { kolo_print_hex32(kolo_rv32_putc, v); }
