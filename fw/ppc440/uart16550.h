/* uart16550.h - polled output on the ML507's xps-uart16550 (QEMU virtex-ml507:
 * base 0x83e01003, registers 4 bytes apart, byte accesses). */
#ifndef KOLO_UART16550_H
#define KOLO_UART16550_H

#include <stdint.h>

#define UART16550_BASE 0x83e01003u
#define UART16550_SHIFT 2

void uart_init(void);
void uart_putc(char c);          /* '\n' goes out as "\r\n" */
void uart_puts(const char *s);

#endif
