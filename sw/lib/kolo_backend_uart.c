/* kolo_backend_uart.c - libkolo backend "uart:<tty>[@baud]": a board whose
 * host reaches it over a serial line (the ECP5 board's UART bridge,
 * kolo_uart.h; docs/boards.md). BAR0 registers are read and written 32 bits
 * at a time (a 64-bit register: low word, then high word); there is no host
 * memory the board can reach, so DMA mapping fails and contexts, windows
 * and operations cannot be opened: the device answers register reads
 * (kolo_dev_read_reg, device facts), which is what kolo-ctl needs.
 *
 * The baud rate defaults to the ECP5 bitstream's 1000000; env
 * KOLO_UART_ATTEMPT_MS and KOLO_UART_TRIES tune the resends. Calls from
 * several threads are serialised here. */
#define _GNU_SOURCE
#include "kolo_internal.h"
#include "kolo_uart.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KOLO_UART_DEFAULT_BAUD 1000000u

typedef struct {
    kolo_uart *u;
    pthread_mutex_t lock;
} uart_dev;

static int uart_write(void *user, int bar, uint64_t off, const void *data, unsigned size) {
    uart_dev *d = (uart_dev *)user;
    uint64_t v = 0;
    int rc = 0;
    if (bar != 0 || (size != 4 && size != 8) || (off & (size - 1)) || off + size > 0xffffffffull)
        return -1;
    memcpy(&v, data, size);
    pthread_mutex_lock(&d->lock);
    rc = kolo_uart_write32(d->u, (uint32_t)off, (uint32_t)v);
    if (!rc && size == 8)
        rc = kolo_uart_write32(d->u, (uint32_t)off + 4, (uint32_t)(v >> 32));
    pthread_mutex_unlock(&d->lock);
    return rc ? -1 : 0;
}

static int uart_read(void *user, int bar, uint64_t off, unsigned size, uint64_t *val) {
    uart_dev *d = (uart_dev *)user;
    uint32_t lo = 0, hi = 0;
    int rc;
    if (bar != 0 || (size != 4 && size != 8) || (off & (size - 1)) || off + size > 0xffffffffull)
        return -1;
    pthread_mutex_lock(&d->lock);
    rc = kolo_uart_read32(d->u, (uint32_t)off, &lo);
    if (!rc && size == 8)
        rc = kolo_uart_read32(d->u, (uint32_t)off + 4, &hi);
    pthread_mutex_unlock(&d->lock);
    *val = (uint64_t)hi << 32 | lo;
    return rc ? -1 : 0;
}

static int uart_dma_map(void *user, void *addr, size_t len) {
    (void)user;
    (void)addr;
    (void)len;
    errno = ENOSYS; /* no host memory behind a serial line */
    return -1;
}

static void uart_close(void *user) {
    uart_dev *d = (uart_dev *)user;
    kolo_uart_close(d->u);
    pthread_mutex_destroy(&d->lock);
    free(d);
}

static unsigned env_u(const char *name) {
    const char *e = getenv(name);
    return e && *e ? (unsigned)strtoul(e, NULL, 0) : 0;
}

int kolo_uart_backend_open(kolo_dev *dev, const char *spec, char *err, size_t errlen) {
    char path[256];
    unsigned baud = KOLO_UART_DEFAULT_BAUD;
    const char *at = strrchr(spec, '@');
    size_t n = at ? (size_t)(at - spec) : strlen(spec);
    if (!n || n >= sizeof path) {
        kolo_set_err(err, errlen, "kolo_open(uart:%s): want uart:<serial device>[@<baud>]", spec);
        return KOLO_E_INVAL;
    }
    memcpy(path, spec, n);
    path[n] = 0;
    if (at) {
        char *end;
        unsigned long b = strtoul(at + 1, &end, 10);
        if (*end || !b || b > 4000000) {
            kolo_set_err(err, errlen, "kolo_open(uart:%s): bad baud rate '%s'", spec, at + 1);
            return KOLO_E_INVAL;
        }
        baud = (unsigned)b;
    }
    uart_dev *d = (uart_dev *)calloc(1, sizeof *d);
    if (!d) {
        kolo_set_err(err, errlen, "kolo: out of memory");
        return KOLO_E_NOMEM;
    }
    char e2[320];
    d->u = kolo_uart_open_tty(path, baud, env_u("KOLO_UART_ATTEMPT_MS"), env_u("KOLO_UART_TRIES"), e2,
                              sizeof e2);
    if (!d->u) {
        kolo_set_err(err, errlen, "kolo_open(uart:%s): %s", spec, e2);
        free(d);
        return strstr(e2, "no answer") ? KOLO_E_TIMEOUT : KOLO_E_NODEV;
    }
    pthread_mutex_init(&d->lock, NULL);
    dev->be.name = "uart";
    dev->be.mmio_write = uart_write;
    dev->be.mmio_read = uart_read;
    dev->be.dma_map = uart_dma_map;
    dev->be.dma_unmap = NULL;
    dev->be.progress = NULL;
    dev->be.close = uart_close;
    dev->user = d;
    snprintf(dev->name, sizeof dev->name, "uart");
    return 0;
}

kolo_uart *kolo_dev_uart(struct kolo_dev *dev) {
    if (!dev || !dev->be.name || strcmp(dev->be.name, "uart"))
        return NULL;
    return ((uart_dev *)dev->user)->u;
}
