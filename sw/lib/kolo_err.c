/* kolo_err.c - the error-message formatter (kolo_err.h). */
#include "kolo_err.h"

#include <stdarg.h>
#include <stdio.h>

void kolo_set_err(char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    if (!err || !errlen)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}
