/* uart16550.c - see uart16550.h. */
#include "uart16550.h"

#define REG_THR 0 /* transmit holding (write) */
#define REG_IER 1
#define REG_FCR 2
#define REG_LCR 3
#define REG_MCR 4
#define REG_LSR 5
#define REG_DLL 0 /* with LCR.DLAB */
#define REG_DLM 1
#define LSR_THRE 0x20u
#define LCR_DLAB 0x80u

static volatile uint8_t *reg(unsigned r) {
    return (volatile uint8_t *)(uintptr_t)(UART16550_BASE + (r << UART16550_SHIFT));
}

void uart_init(void) {
    *reg(REG_IER) = 0;           /* polled */
    *reg(REG_LCR) = LCR_DLAB;
    *reg(REG_DLL) = 54;          /* 115200 baud from a 100 MHz bus clock */
    *reg(REG_DLM) = 0;
    *reg(REG_LCR) = 0x03;        /* 8N1 */
    *reg(REG_FCR) = 0x07;        /* FIFOs on and cleared */
    *reg(REG_MCR) = 0x03;        /* DTR, RTS */
}

void uart_putc(char c) {
    if (c == '\n')
        uart_putc('\r');
    while (!(*reg(REG_LSR) & LSR_THRE))
        ;
    *reg(REG_THR) = (uint8_t)c;
}

void uart_puts(const char *s) {
    while (*s)
        uart_putc(*s++);
}
