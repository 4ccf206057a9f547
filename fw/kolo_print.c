/* kolo_print.c - see kolo_print.h. Freestanding C99. */
#include "kolo_print.h"

void kolo_print_str(void (*putc)(char c), const char *s) {
    while (*s)
        putc(*s++);
}

void kolo_print_dec(void (*putc)(char c), uint32_t v) {
    char buf[11];
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10u);
        v /= 10u;
    } while (v);
    while (n)
        putc(buf[--n]);
}

void kolo_print_hex32(void (*putc)(char c), uint32_t v) {
    int i;
    for (i = 28; i >= 0; i -= 4)
        putc("0123456789abcdef"[(v >> i) & 0xfu]);
}
