/* kolo_hmsg.c - host messages through the host-message area in the service
 * block's host mailbox (kolo_hmsg.h; the area's layout: kolo_fw_msg.h). */
#include "kolo_hmsg.h"

#include "kolo.h"
#include "kolo_svc_regs.h"

#include <string.h>

static int rd(const kolo_hmsg_port *p, uint32_t off, uint32_t *v) { return p->read32(p->user, off, v); }
static int wr(const kolo_hmsg_port *p, uint32_t off, uint32_t v) { return p->write32(p->user, off, v); }

/* The area is the service block's host mailbox: a table switch leaves it
 * alone, so the host reads and writes it at any time. It is there when
 * HMSG_ID says so (the firmware writes it last at boot). */
static int area_ready(const kolo_hmsg_port *p) {
    uint32_t id = 0;
    int rc = rd(p, KOLO_FWM_HMSG_ID, &id);
    if (rc) return rc;
    return id == KOLO_FWM_HMSG_AREA_ID ? 0 : KOLO_E_NOSYS; /* no firmware keeps the area */
}

static int status_err(unsigned st) {
    switch (st) {
    case KOLO_FWM_ST_OK: return 0;
    case KOLO_FWM_ST_TOO_LONG: return KOLO_E_LEN;
    case KOLO_FWM_ST_NO_NODE: return KOLO_E_NODE;
    case KOLO_FWM_ST_NO_ROUTE: return KOLO_E_NOROUTE;
    case KOLO_FWM_ST_BUSY: return KOLO_E_BUSY;
    case KOLO_FWM_ST_NOT_READY: return KOLO_E_AGAIN;
    default: return KOLO_E_IO;
    }
}

static int write_request(const kolo_hmsg_port *p, const uint32_t *w, unsigned nw, uint32_t req) {
    int rc;
    for (unsigned i = 0; i < nw; i++)
        if ((rc = wr(p, KOLO_FWM_HMSG_TX_DATA(i), w[i])) != 0) return rc;
    return wr(p, KOLO_FWM_HMSG_TX_REQ, req);
}

/* Wait for TX_DONE to answer req (its status in *st). */
static int wait_done(const kolo_hmsg_port *p, uint32_t req, unsigned *st) {
    const uint8_t seq = (uint8_t)(req & KOLO_FWM_HMSG_TX_REQ_SEQ_MASK);
    for (unsigned i = 0; i < KOLO_HMSG_POLLS; i++) {
        uint32_t done = 0;
        int rc = rd(p, KOLO_FWM_HMSG_TX_DONE, &done);
        if (rc) return rc;
        if ((done & KOLO_FWM_HMSG_TX_DONE_SEQ_MASK) == seq) {
            *st = (done & KOLO_FWM_HMSG_TX_DONE_STATUS_MASK) >> KOLO_FWM_HMSG_TX_DONE_STATUS_SHIFT;
            return 0;
        }
        if (p->wait) p->wait(p->user);
    }
    return KOLO_E_TIMEOUT;
}

int kolo_hmsg_send(const kolo_hmsg_port *p, uint16_t node, const void *data, size_t len) {
    uint32_t req = 0, done = 0, w[KOLO_FWM_HMSG_WORDS] = {0};
    unsigned st = 0, nw = (unsigned)(len + 3u) / 4u;
    int rc;
    if (!p || !p->read32 || !p->write32 || !data) return KOLO_E_INVAL;
    if (len == 0 || len > KOLO_FWM_HMSG_MAX_BYTES) return KOLO_E_LEN;
    if (node > (KOLO_FWM_HMSG_TX_REQ_DST_MASK >> KOLO_FWM_HMSG_TX_REQ_DST_SHIFT)) return KOLO_E_NODE;
    if ((rc = area_ready(p)) != 0) return rc;
    /* a request of an earlier program still pending: its answer first */
    if ((rc = rd(p, KOLO_FWM_HMSG_TX_REQ, &req)) != 0 || (rc = rd(p, KOLO_FWM_HMSG_TX_DONE, &done)) != 0) return rc;
    uint8_t seq = (uint8_t)(req & KOLO_FWM_HMSG_TX_REQ_SEQ_MASK);
    if ((uint8_t)(done & KOLO_FWM_HMSG_TX_DONE_SEQ_MASK) != seq && (rc = wait_done(p, req, &st)) != 0) return rc;
    memcpy(w, data, len);
    seq++;
    req = seq | (uint32_t)len << KOLO_FWM_HMSG_TX_REQ_LEN_SHIFT | (uint32_t)node << KOLO_FWM_HMSG_TX_REQ_DST_SHIFT;
    if ((rc = write_request(p, w, nw, req)) != 0) return rc;
    if ((rc = wait_done(p, req, &st)) != 0) return rc;
    return status_err(st);
}

int kolo_hmsg_recv(const kolo_hmsg_port *p, uint16_t *src, void *buf, size_t cap, size_t *len) {
    uint32_t head = 0, w[KOLO_FWM_HMSG_WORDS];
    int rc;
    if (!p || !p->read32 || !p->write32 || !src || !len || (!buf && cap)) return KOLO_E_INVAL;
    if ((rc = area_ready(p)) != 0 || (rc = rd(p, KOLO_FWM_HMSG_RX_HEAD, &head)) != 0) return rc;
    size_t n = (head & KOLO_FWM_HMSG_RX_HEAD_LEN_MASK) >> KOLO_FWM_HMSG_RX_HEAD_LEN_SHIFT;
    if (n == 0) return KOLO_E_AGAIN;
    if (n > KOLO_FWM_HMSG_MAX_BYTES) return KOLO_E_IO;
    *len = n;
    *src = (uint16_t)((head & KOLO_FWM_HMSG_RX_HEAD_SRC_MASK) >> KOLO_FWM_HMSG_RX_HEAD_SRC_SHIFT);
    if (cap < n) return KOLO_E_LEN;
    /* RX_HEAD is written after RX_DATA and stays until our ack: the words are this message's */
    for (unsigned i = 0; i < (n + 3u) / 4u; i++)
        if ((rc = rd(p, KOLO_FWM_HMSG_RX_DATA(i), &w[i])) != 0) return rc;
    memcpy(buf, w, n);
    /* taken: the ack, then the firmware's answer to it (the next message
     * shown, or none), so that the next receive cannot find this one again */
    const uint32_t seq = head & KOLO_FWM_HMSG_RX_HEAD_SEQ_MASK;
    if ((rc = wr(p, KOLO_FWM_HMSG_RX_ACK, seq)) != 0) return rc;
    for (unsigned i = 0; i < KOLO_HMSG_POLLS; i++) {
        uint32_t h2 = 0;
        if ((rc = rd(p, KOLO_FWM_HMSG_RX_HEAD, &h2)) != 0) return rc;
        if ((h2 & KOLO_FWM_HMSG_RX_HEAD_SEQ_MASK) != seq || !(h2 & KOLO_FWM_HMSG_RX_HEAD_LEN_MASK)) return 0;
        if (p->wait) p->wait(p->user);
    }
    return KOLO_E_TIMEOUT;
}

int kolo_hmsg_get_counters(const kolo_hmsg_port *p, kolo_hmsg_counters *c) {
    static const uint32_t off[6] = {KOLO_FWM_HMSG_TX_SENT,    KOLO_FWM_HMSG_TX_REFUSED, KOLO_FWM_HMSG_RX_RECEIVED,
                                    KOLO_FWM_HMSG_RX_DROPPED, KOLO_FWM_HMSG_RX_BAD,     KOLO_FWM_HMSG_RX_QUEUED};
    uint32_t v[6];
    int rc;
    if (!p || !p->read32 || !c) return KOLO_E_INVAL;
    if ((rc = area_ready(p)) != 0) return rc;
    for (int i = 0; i < 6; i++)
        if ((rc = rd(p, off[i], &v[i])) != 0) return rc;
    c->tx_sent = v[0], c->tx_refused = v[1], c->rx_received = v[2];
    c->rx_dropped = v[3], c->rx_bad = v[4], c->rx_queued = v[5];
    return 0;
}

/* ---- over a UART link: the window at KOLO_SVC_HOST_BASE of BAR0 ---------------- */

static int uart_rd(void *u, uint32_t off, uint32_t *v) { return kolo_uart_read32(u, KOLO_SVC_HOST_BASE + off, v); }
static int uart_wr(void *u, uint32_t off, uint32_t v) { return kolo_uart_write32(u, KOLO_SVC_HOST_BASE + off, v); }

static kolo_hmsg_port uart_port(kolo_uart *u) {
    kolo_hmsg_port p = {uart_rd, uart_wr, NULL, u};
    return p;
}

int kolo_host_msg_send(kolo_uart *u, uint16_t node, const void *data, size_t len) {
    if (!u) return KOLO_E_INVAL;
    kolo_hmsg_port p = uart_port(u);
    return kolo_hmsg_send(&p, node, data, len);
}

int kolo_host_msg_recv(kolo_uart *u, uint16_t *src, void *buf, size_t cap, size_t *len) {
    if (!u) return KOLO_E_INVAL;
    kolo_hmsg_port p = uart_port(u);
    return kolo_hmsg_recv(&p, src, buf, cap, len);
}

int kolo_host_msg_counters(kolo_uart *u, kolo_hmsg_counters *c) {
    if (!u) return KOLO_E_INVAL;
    kolo_hmsg_port p = uart_port(u);
    return kolo_hmsg_get_counters(&p, c);
}
