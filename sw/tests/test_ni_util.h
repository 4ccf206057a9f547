/* test_ni_util.h - helpers shared by the C NI model's tests (test_ni_model.c,
 * sw/model/tests/test_ni_e2e_torus.c); include after kolo_ni_model.h.
 *   test_ni_write  a little-endian BAR0 write of len (4 or 8) bytes of v */
#ifndef KOLO_TEST_NI_UTIL_H
#define KOLO_TEST_NI_UTIL_H

#include <stdint.h>

static inline void test_ni_write(kolo_ni *ni, uint64_t off, uint64_t v, unsigned len) {
    uint8_t b[8];
    unsigned i;
    for (i = 0; i < len; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    kolo_ni_mmio_write(ni, 0, off, b, len);
}

#endif
