/* kolo_uart.c - the host's end of the UART bridge: frame codec, requests
 * with resends, console bytes, and the tty transport (kolo_uart.h). */
#define _GNU_SOURCE
#include "kolo_uart.h"

#include "kolo.h"
#include "kolo_uart_regs.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define CONSOLE_KEEP 4096u

struct kolo_uart {
    kolo_uart_io io;
    unsigned attempt_ms, tries;
    uint8_t seq;                  /* of the last request sent */
    uint8_t rx[KOLO_UART_RSP_BYTES]; /* a frame being assembled from the line */
    unsigned rx_len;
    kolo_uart_stats st;
    void (*con_fn)(void *, const uint8_t *, size_t);
    void *con_user;
    uint8_t con[CONSOLE_KEEP];    /* kept console bytes (no fn): a ring */
    size_t con_head, con_len;
    char err[160];
};

/* ---- codec ------------------------------------------------------------------------ */
uint8_t kolo_uart_crc8(const uint8_t *b, size_t n) {
    uint8_t c = 0;
    for (size_t i = 0; i < n; i++) {
        c ^= b[i];
        for (int k = 0; k < 8; k++)
            c = (uint8_t)((c & 0x80) ? (unsigned)(c << 1) ^ KOLO_UART_CRC_POLY : (unsigned)(c << 1));
    }
    return c;
}

static void put32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void kolo_uart_encode_req(uint8_t out[KOLO_UART_REQ_BYTES], uint8_t op, uint8_t seq, uint32_t addr,
                          uint32_t data) {
    out[0] = KOLO_UART_SYNC_REQ;
    out[1] = op;
    out[2] = seq;
    put32(out + 3, addr);
    put32(out + 7, data);
    out[11] = kolo_uart_crc8(out + 1, 10);
}

int kolo_uart_decode_req(const uint8_t in[KOLO_UART_REQ_BYTES], uint8_t *op, uint8_t *seq, uint32_t *addr,
                         uint32_t *data) {
    if (in[0] != KOLO_UART_SYNC_REQ || kolo_uart_crc8(in + 1, 10) != in[11])
        return 0;
    *op = in[1];
    *seq = in[2];
    *addr = get32(in + 3);
    *data = get32(in + 7);
    return 1;
}

void kolo_uart_encode_rsp(uint8_t out[KOLO_UART_RSP_BYTES], uint8_t op, uint8_t seq, uint8_t status,
                          uint32_t data) {
    out[0] = KOLO_UART_SYNC_RSP;
    out[1] = op;
    out[2] = seq;
    out[3] = status;
    put32(out + 4, data);
    out[8] = kolo_uart_crc8(out + 1, 7);
}

int kolo_uart_decode_rsp(const uint8_t in[KOLO_UART_RSP_BYTES], uint8_t *op, uint8_t *seq,
                         uint8_t *status, uint32_t *data) {
    if (in[0] != KOLO_UART_SYNC_RSP || kolo_uart_crc8(in + 1, 7) != in[8])
        return 0;
    *op = in[1];
    *seq = in[2];
    *status = in[3];
    *data = get32(in + 4);
    return 1;
}

/* ---- the line --------------------------------------------------------------------- */
static void seterr(kolo_uart *u, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void seterr(kolo_uart *u, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(u->err, sizeof u->err, fmt, ap);
    va_end(ap);
}

static double mono_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double now_ms(const kolo_uart *u) {
    return u->io.now_ms ? u->io.now_ms(u->io.user) : mono_ms();
}

static void console(kolo_uart *u, const uint8_t *b, size_t n) {
    u->st.console_bytes += n;
    if (u->con_fn) {
        u->con_fn(u->con_user, b, n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        u->con[(u->con_head + u->con_len) % CONSOLE_KEEP] = b[i];
        if (u->con_len < CONSOLE_KEEP)
            u->con_len++;
        else
            u->con_head = (u->con_head + 1) % CONSOLE_KEEP;
    }
}

/* Take one byte off the line into the frame being assembled. Returns 1 when a
 * good answer frame is complete (fields out), console frames are handed on
 * here. A frame with a bad crc8 is dropped; the search for the next sync byte
 * restarts at the byte after the bad frame's sync (a frame may hide there). */
static int take_byte(kolo_uart *u, uint8_t b, uint8_t *op, uint8_t *seq, uint8_t *status, uint32_t *data) {
    if (u->rx_len == 0 && b != KOLO_UART_SYNC_RSP)
        return 0; /* between frames: skipped */
    u->rx[u->rx_len++] = b;
    while (u->rx_len == KOLO_UART_RSP_BYTES) {
        if (kolo_uart_decode_rsp(u->rx, op, seq, status, data)) {
            u->rx_len = 0;
            if (*op == KOLO_UART_OP_CONSOLE) {
                unsigned n = *seq > 4 ? 4 : *seq;
                uint8_t c[4];
                put32(c, *data);
                console(u, c, n);
                return 0;
            }
            return 1;
        }
        u->st.crc_errors++;
        /* rescan from the next sync byte inside the dropped frame */
        unsigned k = 1;
        while (k < u->rx_len && u->rx[k] != KOLO_UART_SYNC_RSP)
            k++;
        memmove(u->rx, u->rx + k, u->rx_len - k);
        u->rx_len -= k;
    }
    return 0;
}

/* Read the line until a good answer frame or the deadline. 1: a frame, 0: time
 * out, -1: transport error. */
static int read_frame(kolo_uart *u, double deadline, uint8_t *op, uint8_t *seq, uint8_t *status,
                      uint32_t *data) {
    for (;;) {
        double left = deadline - now_ms(u);
        if (left <= 0)
            return 0;
        uint8_t buf[64];
        long n = u->io.read(u->io.user, buf, 1, (unsigned)(left + 1));
        if (n < 0) {
            seterr(u, "reading the line failed: %s", strerror(errno));
            return -1;
        }
        for (long i = 0; i < n; i++)
            if (take_byte(u, buf[i], op, seq, status, data))
                return 1;
    }
}

/* One request, resent until answered. session: the first NOP of a session,
 * whose seq may be the one the bridge kept from an earlier session: then the
 * kept answer (another op, or a NOP) comes back and counts as the answer. */
static int request_ex(kolo_uart *u, uint8_t op, uint32_t addr, uint32_t data, uint32_t *out, int session) {
    uint8_t frame[KOLO_UART_REQ_BYTES];
    u->seq++;
    kolo_uart_encode_req(frame, op, u->seq, addr, data);
    for (unsigned t = 0; t < u->tries; t++) {
        if (t)
            u->st.resends++;
        if (u->io.write(u->io.user, frame, sizeof frame)) {
            seterr(u, "writing the line failed: %s", strerror(errno));
            return KOLO_E_IO;
        }
        double deadline = now_ms(u) + u->attempt_ms;
        uint8_t rop, rseq, st;
        uint32_t rdata;
        int r;
        while ((r = read_frame(u, deadline, &rop, &rseq, &st, &rdata)) == 1) {
            if (rseq == u->seq && rop != op && session)
                return 0; /* the bridge's kept answer: it is in step after the next NOP */
            if (rseq != u->seq || rop != op) {
                u->st.stale++; /* an answer to an earlier attempt of an older request */
                continue;
            }
            u->st.requests++;
            switch (st) {
            case KOLO_UART_ST_OK:
                if (out)
                    *out = rdata;
                return 0;
            case KOLO_UART_ST_ERROR:
                seterr(u, "the chip answered op %u at %#x with an error completion", op, addr);
                return KOLO_E_IO;
            case KOLO_UART_ST_TIMEOUT:
                seterr(u, "the chip did not answer op %u at %#x in the bridge's time", op, addr);
                return KOLO_E_TIMEOUT;
            case KOLO_UART_ST_BAD_OP:
                seterr(u, "the bridge refused op %u at %#x (bad op or address)", op, addr);
                return KOLO_E_INVAL;
            default:
                seterr(u, "the bridge answered with an unknown status %u", st);
                return KOLO_E_IO;
            }
        }
        if (r < 0)
            return KOLO_E_IO;
    }
    seterr(u, "no answer from the board after %u attempts of %u ms (is the bitstream loaded, the "
              "cable on the UART port, the baud rate the bitstream's?)",
           u->tries, u->attempt_ms);
    return KOLO_E_TIMEOUT;
}

static int request(kolo_uart *u, uint8_t op, uint32_t addr, uint32_t data, uint32_t *out) {
    return request_ex(u, op, addr, data, out, 0);
}

int kolo_uart_read32(kolo_uart *u, uint32_t addr, uint32_t *val) {
    if (addr & 3) {
        seterr(u, "read of %#x: not 4-byte aligned", addr);
        return KOLO_E_INVAL;
    }
    return request(u, KOLO_UART_OP_READ32, addr, 0, val);
}

int kolo_uart_write32(kolo_uart *u, uint32_t addr, uint32_t val) {
    if (addr & 3) {
        seterr(u, "write of %#x: not 4-byte aligned", addr);
        return KOLO_E_INVAL;
    }
    return request(u, KOLO_UART_OP_WRITE32, addr, val, NULL);
}

int kolo_uart_bridge_read(kolo_uart *u, uint32_t addr, uint32_t *val) {
    return request(u, KOLO_UART_OP_BRIDGE_READ, addr, 0, val);
}

int kolo_uart_nop(kolo_uart *u) {
    return request(u, KOLO_UART_OP_NOP, 0, 0, NULL);
}

const char *kolo_uart_error(const kolo_uart *u) {
    return u->err;
}

void kolo_uart_set_console(kolo_uart *u, void (*fn)(void *, const uint8_t *, size_t), void *user) {
    u->con_fn = fn;
    u->con_user = user;
}

int kolo_uart_poll(kolo_uart *u, unsigned timeout_ms) {
    uint8_t op, seq, st;
    uint32_t data;
    int r;
    double deadline = now_ms(u) + timeout_ms;
    while ((r = read_frame(u, deadline, &op, &seq, &st, &data)) == 1)
        u->st.stale++; /* an answer nobody waits for */
    return r < 0 ? -1 : 0;
}

size_t kolo_uart_console_take(kolo_uart *u, uint8_t *buf, size_t n) {
    size_t k = 0;
    while (k < n && u->con_len) {
        buf[k++] = u->con[u->con_head];
        u->con_head = (u->con_head + 1) % CONSOLE_KEEP;
        u->con_len--;
    }
    return k;
}

void kolo_uart_get_stats(const kolo_uart *u, kolo_uart_stats *s) {
    *s = u->st;
}

kolo_uart *kolo_uart_open_io(const kolo_uart_io *io, unsigned attempt_ms, unsigned tries, char *err,
                             size_t errlen) {
    kolo_uart *u = (kolo_uart *)calloc(1, sizeof *u);
    if (!u) {
        snprintf(err, errlen, "kolo uart: out of memory");
        if (io->close)
            io->close(io->user);
        return NULL;
    }
    u->io = *io;
    u->attempt_ms = attempt_ms ? attempt_ms : 100;
    u->tries = tries ? tries : 5;
    /* the first seq: from the clock, so that two sessions in a row rarely start
     * alike; the two NOPs put the bridge in step whatever it kept */
    u->seq = (uint8_t)mono_ms();
    int rc = request_ex(u, KOLO_UART_OP_NOP, 0, 0, NULL, 1);
    if (!rc)
        rc = kolo_uart_nop(u);
    if (rc) {
        snprintf(err, errlen, "kolo uart: %s", u->err);
        kolo_uart_close(u);
        return NULL;
    }
    return u;
}

void kolo_uart_close(kolo_uart *u) {
    if (!u)
        return;
    if (u->io.close)
        u->io.close(u->io.user);
    free(u);
}

/* ---- tty transport ---------------------------------------------------------------- */
typedef struct {
    int fd;
} tty_io;

static int tty_write(void *user, const uint8_t *b, size_t n) {
    tty_io *t = (tty_io *)user;
    while (n) {
        ssize_t w = write(t->fd, b, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        b += w;
        n -= (size_t)w;
    }
    return 0;
}

static long tty_read(void *user, uint8_t *b, size_t n, unsigned timeout_ms) {
    tty_io *t = (tty_io *)user;
    struct pollfd p = {t->fd, POLLIN, 0};
    int r = poll(&p, 1, (int)timeout_ms);
    if (r < 0)
        return errno == EINTR ? 0 : -1;
    if (r == 0)
        return 0;
    ssize_t k = read(t->fd, b, n);
    if (k < 0)
        return (errno == EAGAIN || errno == EINTR) ? 0 : -1;
    if (k == 0) {
        errno = EPIPE; /* the other end of a pty went away */
        return -1;
    }
    return (long)k;
}

static void tty_close(void *user) {
    tty_io *t = (tty_io *)user;
    close(t->fd);
    free(t);
}

static speed_t baud_code(unsigned baud) {
    switch (baud) {
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
    case 460800: return B460800;
    case 500000: return B500000;
    case 921600: return B921600;
    case 1000000: return B1000000;
    case 1500000: return B1500000;
    case 2000000: return B2000000;
    case 3000000: return B3000000;
    case 4000000: return B4000000;
    default: return 0;
    }
}

kolo_uart *kolo_uart_open_tty(const char *path, unsigned baud, unsigned attempt_ms, unsigned tries,
                              char *err, size_t errlen) {
    speed_t sp = baud_code(baud);
    if (!sp) {
        snprintf(err, errlen, "kolo uart: %u baud is not a rate the serial driver knows", baud);
        return NULL;
    }
    int fd = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        snprintf(err, errlen, "kolo uart: %s: %s%s", path, strerror(errno),
                 errno == EACCES ? " (add yourself to the dialout group)" : "");
        return NULL;
    }
    struct termios tio;
    if (tcgetattr(fd, &tio)) {
        snprintf(err, errlen, "kolo uart: %s is not a serial device: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    cfmakeraw(&tio);
    tio.c_cflag &= ~(tcflag_t)(CSTOPB | PARENB | CRTSCTS);
    tio.c_cflag |= CS8 | CLOCAL | CREAD;
    tio.c_cc[VMIN] = 0;
    tio.c_cc[VTIME] = 0;
    cfsetispeed(&tio, sp);
    cfsetospeed(&tio, sp);
    if (tcsetattr(fd, TCSANOW, &tio)) {
        snprintf(err, errlen, "kolo uart: %s: setting %u baud 8N1: %s", path, baud, strerror(errno));
        close(fd);
        return NULL;
    }
    tcflush(fd, TCIOFLUSH);
    tty_io *t = (tty_io *)malloc(sizeof *t);
    if (!t) {
        close(fd);
        snprintf(err, errlen, "kolo uart: out of memory");
        return NULL;
    }
    t->fd = fd;
    kolo_uart_io io = {tty_write, tty_read, tty_close, t, NULL};
    char e2[200];
    kolo_uart *u = kolo_uart_open_io(&io, attempt_ms, tries, e2, sizeof e2);
    if (!u)
        snprintf(err, errlen, "%s: %s", path, e2);
    return u;
}
