/* kolo_print.h - number and string output for the freestanding firmware
 * images' consoles (PowerPC 440, RV32), over the platform's putc. One copy
 * of the formatting for every target, so that their lines compare equal.
 * Freestanding C99. */
#ifndef KOLO_PRINT_H
#define KOLO_PRINT_H

#include <stdint.h>

void kolo_print_str(void (*putc)(char c), const char *s);
/* decimal, no leading zeros */
void kolo_print_dec(void (*putc)(char c), uint32_t v);
/* 8 hex digits, lower case, no prefix */
void kolo_print_hex32(void (*putc)(char c), uint32_t v);

#endif
