/* kolo_uart.h - the host's end of the UART bridge (rtl/board/kolo_uart_host.v,
 * the ECP5 board; docs/boards.md "The host over the UART"): 32-bit reads and
 * writes of the chip's BAR0 registers, reads of the bridge's own registers,
 * and the service processor's console bytes, in frames over a serial line.
 *
 *   host -> board  A5 op seq addr[4] data[4] crc8     (12 bytes)
 *   board -> host  5A op seq status data[4] crc8      (9 bytes)
 *   crc8: polynomial 0x07, initial 0, over the bytes between sync and crc;
 *   fields little-endian; constants in kolo_uart_regs.h (one description
 *   with the RTL: rtl/regs/kolo_uart_regs.toml).
 *
 * Every request is answered exactly once: the host numbers requests (seq),
 * resends the same frame when no good answer came within the attempt
 * timeout, and the bridge answers a repeated seq with its kept response
 * without executing it again. A session starts with two NOPs of new seq
 * numbers, which puts the bridge's last seq in step with the host's whatever
 * an earlier session left there.
 *
 * The byte transport is pluggable (kolo_uart_io): a tty (kolo_uart_open_tty,
 * termios raw 8N1 at the given baud), or anything else that moves bytes (the
 * tests run the same code against the RTL in Verilator and against a model
 * of the bridge over a pseudo-terminal).
 *
 * Not thread-safe: one caller at a time per link (libkolo's uart: backend
 * serialises its callers). */
#ifndef KOLO_UART_H
#define KOLO_UART_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KOLO_UART_REQ_BYTES 12
#define KOLO_UART_RSP_BYTES 9

/* Byte transport. write: all n bytes or -1. read: up to n bytes, waiting at
 * most timeout_ms for the first; returns the count, 0 on timeout, -1 on error.
 * now_ms: the transport's clock in milliseconds (NULL: CLOCK_MONOTONIC; a
 * simulation gives its simulated time, so that timeouts are in its time). */
typedef struct kolo_uart_io {
    int (*write)(void *user, const uint8_t *buf, size_t n);
    long (*read)(void *user, uint8_t *buf, size_t n, unsigned timeout_ms);
    void (*close)(void *user);
    void *user;
    double (*now_ms)(void *user);
} kolo_uart_io;

typedef struct kolo_uart_stats {
    unsigned long requests;    /* requests answered */
    unsigned long resends;     /* frames sent again after an attempt timed out */
    unsigned long crc_errors;  /* answer frames with a bad crc8, dropped */
    unsigned long stale;       /* good frames answering an older request, dropped */
    unsigned long console_bytes;
} kolo_uart_stats;

typedef struct kolo_uart kolo_uart;

/* A link over io (taken over: closed by kolo_uart_close). attempt_ms: how long
 * one attempt waits for its answer (0: 100 ms); tries: attempts per request
 * (0: 5). Starts the session (two NOPs); on failure returns NULL with the
 * reason in err (the io is closed). */
kolo_uart *kolo_uart_open_io(const kolo_uart_io *io, unsigned attempt_ms, unsigned tries, char *err,
                             size_t errlen);
/* A link over a serial device (path, baud: one of the standard termios rates
 * 9600..4000000). */
kolo_uart *kolo_uart_open_tty(const char *path, unsigned baud, unsigned attempt_ms, unsigned tries,
                              char *err, size_t errlen);
void kolo_uart_close(kolo_uart *u);

/* Requests. Return 0, or a KOLO_E_* code (kolo.h): KOLO_E_IO the chip
 * answered with an error completion, KOLO_E_TIMEOUT the chip did not answer
 * in the bridge's time (bridge status TIMEOUT) or the board did not answer
 * after every attempt, KOLO_E_INVAL a bad op or address (status BAD_OP, or an
 * unaligned address refused here). The reason of the last failure:
 * kolo_uart_error. */
int kolo_uart_read32(kolo_uart *u, uint32_t addr, uint32_t *val);
int kolo_uart_write32(kolo_uart *u, uint32_t addr, uint32_t val);
int kolo_uart_bridge_read(kolo_uart *u, uint32_t addr, uint32_t *val);
int kolo_uart_nop(kolo_uart *u);
const char *kolo_uart_error(const kolo_uart *u);

/* Console bytes of the service processor arrive between answers; they are
 * handed to fn as they come (kolo_uart_poll waits for them when no request
 * is under way). Without fn they are kept (the last 4096) for
 * kolo_uart_console_take. */
void kolo_uart_set_console(kolo_uart *u, void (*fn)(void *user, const uint8_t *b, size_t n), void *user);
/* Read the line for up to timeout_ms, delivering console bytes. Returns 0 or -1. */
int kolo_uart_poll(kolo_uart *u, unsigned timeout_ms);
size_t kolo_uart_console_take(kolo_uart *u, uint8_t *buf, size_t n);
void kolo_uart_get_stats(const kolo_uart *u, kolo_uart_stats *s);

/* The link of a libkolo device opened as "uart:<tty>[@baud]" (its console,
 * bridge registers, statistics), else NULL. */
struct kolo_dev;
kolo_uart *kolo_dev_uart(struct kolo_dev *dev);

/* Frame codec, shared by the link and the tests. */
uint8_t kolo_uart_crc8(const uint8_t *b, size_t n);
void kolo_uart_encode_req(uint8_t out[KOLO_UART_REQ_BYTES], uint8_t op, uint8_t seq, uint32_t addr,
                          uint32_t data);
/* A board -> host frame (9 bytes starting with the sync byte): 1 if its crc8
 * is good, with its fields. */
int kolo_uart_decode_rsp(const uint8_t in[KOLO_UART_RSP_BYTES], uint8_t *op, uint8_t *seq,
                         uint8_t *status, uint32_t *data);
void kolo_uart_encode_rsp(uint8_t out[KOLO_UART_RSP_BYTES], uint8_t op, uint8_t seq, uint8_t status,
                          uint32_t data);
/* A host -> board frame: 1 if its crc8 is good, with its fields. */
int kolo_uart_decode_req(const uint8_t in[KOLO_UART_REQ_BYTES], uint8_t *op, uint8_t *seq, uint32_t *addr,
                         uint32_t *data);

#ifdef __cplusplus
}
#endif
#endif
