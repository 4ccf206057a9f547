/* uart_board_model.c - see uart_board_model.h. */
#define _GNU_SOURCE
#include "uart_board_model.h"

#include "kolo_uart.h"
#include "kolo_uart_regs.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static uint32_t rnd(ubm *m, uint32_t n) {
    uint64_t z = (m->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) % n);
}

static void send_frame(ubm *m, uint8_t *f, int answer) {
    if (answer) {
        if (m->delay_ms)
            usleep(m->delay_ms * 1000u);
        if (rnd(m, 100) < m->lose_rsp)
            return;
        if (rnd(m, 100) < m->corrupt_rsp)
            f[1 + rnd(m, 8)] ^= (uint8_t)(1u << rnd(m, 8));
    }
    size_t off = 0;
    while (off < KOLO_UART_RSP_BYTES) {
        ssize_t w = write(m->fd, f + off, KOLO_UART_RSP_BYTES - off);
        if (w < 0 && (errno == EINTR || errno == EAGAIN)) {
            usleep(100);
            continue;
        }
        if (w <= 0)
            return;
        off += (size_t)w;
    }
}

static void send_console(ubm *m) {
    pthread_mutex_lock(&m->lock);
    while (m->con_len) {
        unsigned n = m->con_len < 4 ? m->con_len : 4;
        uint32_t d = 0;
        for (unsigned i = 0; i < n; i++)
            d |= (uint32_t)m->con[i] << (8 * i);
        memmove(m->con, m->con + n, m->con_len - n);
        m->con_len -= n;
        uint8_t f[KOLO_UART_RSP_BYTES];
        kolo_uart_encode_rsp(f, KOLO_UART_OP_CONSOLE, (uint8_t)n, KOLO_UART_ST_OK, d);
        send_frame(m, f, 0);
    }
    pthread_mutex_unlock(&m->lock);
}

static uint32_t bridge_reg(ubm *m, uint32_t a, int *bad) {
    *bad = (a & 3) || a >= KOLO_UART_SPACE;
    switch (a) {
    case KOLO_UART_BRIDGE_ID: return KOLO_UART_BRIDGE_ID_RESET;
    case KOLO_UART_BRIDGE_VERSION: return KOLO_UART_MAP_VERSION;
    case KOLO_UART_BRIDGE_BAUD: return m->baud;
    case KOLO_UART_BRIDGE_CRC_ERRORS: return (uint32_t)m->crc_errors;
    case KOLO_UART_BRIDGE_RESENDS: return (uint32_t)m->resends;
    case KOLO_UART_BRIDGE_TIMEOUTS: return (uint32_t)m->timeouts;
    default: return 0;
    }
}

/* one good request frame: the bridge's executor */
static void execute(ubm *m, uint8_t op, uint8_t seq, uint32_t addr, uint32_t data) {
    uint8_t f[KOLO_UART_RSP_BYTES];
    if (m->collide_first) {
        m->collide_first = 0;
        m->have_last = 1;
        m->last_op = KOLO_UART_OP_READ32;
        m->last_seq = seq;
        m->last_status = KOLO_UART_ST_OK;
        m->last_data = 0xDEADu;
    }
    if (m->have_last && seq == m->last_seq) {
        m->resends++;
    } else {
        m->have_last = 1;
        m->last_op = op;
        m->last_seq = seq;
        m->last_status = KOLO_UART_ST_OK;
        m->last_data = 0;
        m->executed++;
        pthread_mutex_lock(&m->lock);
        uint32_t w = addr / 4;
        switch (op) {
        case KOLO_UART_OP_NOP:
            break;
        case KOLO_UART_OP_READ32:
        case KOLO_UART_OP_WRITE32:
            if ((addr & 3) || w >= UBM_BAR0_WORDS)
                m->last_status = KOLO_UART_ST_BAD_OP;
            else if (addr >= m->dead_lo && addr < m->dead_hi) {
                m->last_status = KOLO_UART_ST_TIMEOUT;
                m->timeouts++;
            } else if (addr >= m->err_lo && addr < m->err_hi)
                m->last_status = op == KOLO_UART_OP_READ32 ? KOLO_UART_ST_ERROR : KOLO_UART_ST_OK;
            else if (op == KOLO_UART_OP_READ32)
                m->last_data = m->bar0[w];
            else {
                m->bar0[w] = data;
                m->writes[w]++;
            }
            break;
        case KOLO_UART_OP_BRIDGE_READ: {
            int bad;
            m->last_data = bridge_reg(m, addr, &bad);
            if (bad) {
                m->last_status = KOLO_UART_ST_BAD_OP;
                m->last_data = 0;
            }
            break;
        }
        default:
            m->last_status = KOLO_UART_ST_BAD_OP;
        }
        pthread_mutex_unlock(&m->lock);
    }
    kolo_uart_encode_rsp(f, m->last_op, m->last_seq, m->last_status, m->last_data);
    send_frame(m, f, 1);
}

static void *serve(void *arg) {
    ubm *m = (ubm *)arg;
    uint8_t fr[KOLO_UART_REQ_BYTES];
    unsigned len = 0;
    while (!m->stop) {
        struct pollfd p = {m->fd, POLLIN, 0};
        int r = poll(&p, 1, 5);
        if (r <= 0) {
            if (len) { /* a pause inside a frame: the partial frame is dropped */
                m->frames_dropped++;
                len = 0;
            }
            if (!m->mute)
                send_console(m);
            continue;
        }
        uint8_t b[64];
        ssize_t n = read(m->fd, b, sizeof b);
        if (n <= 0) {
            if (n < 0 && (errno == EINTR || errno == EAGAIN))
                continue;
            break; /* the host closed its end */
        }
        for (ssize_t i = 0; i < n; i++) {
            if (len == 0 && b[i] != KOLO_UART_SYNC_REQ)
                continue;
            fr[len++] = b[i];
            if (len < KOLO_UART_REQ_BYTES)
                continue;
            len = 0;
            if (rnd(m, 100) < m->corrupt_req)
                fr[1 + rnd(m, 11)] ^= (uint8_t)(1u << rnd(m, 8));
            uint8_t op, seq;
            uint32_t addr, data;
            if (!kolo_uart_decode_req(fr, &op, &seq, &addr, &data)) {
                m->crc_errors++;
                continue;
            }
            if (!m->mute)
                execute(m, op, seq, addr, data);
        }
    }
    return NULL;
}

int ubm_start(ubm *m, int fd, uint64_t seed) {
    m->fd = fd;
    m->rng = seed;
    m->stop = 0;
    if (!m->baud)
        m->baud = 1000000;
    pthread_mutex_init(&m->lock, NULL);
    return pthread_create(&m->thread, NULL, serve, m);
}

void ubm_stop(ubm *m) {
    m->stop = 1;
    pthread_join(m->thread, NULL);
    close(m->fd);
    pthread_mutex_destroy(&m->lock);
}

void ubm_console(ubm *m, const char *s) {
    pthread_mutex_lock(&m->lock);
    size_t n = strlen(s);
    if (n > sizeof m->con - m->con_len)
        n = sizeof m->con - m->con_len;
    memcpy(m->con + m->con_len, s, n);
    m->con_len += (unsigned)n;
    pthread_mutex_unlock(&m->lock);
}
