/* kolo_ctx.c - libkolo: contexts, send/completion queues, operations.
 *
 * Bookkeeping: every SQ descriptor carries COMPLETE, so each one gets exactly
 * one completion entry, whose index names its SQ slot. A slot is reused only
 * after its completion arrived: that keeps the producer index within SQ
 * entries of the NI's consumer index and makes completion indices
 * unambiguous. PIO operations carry COMPLETE too (index 0xFFFF) and are
 * counted; at most min(KOLO_NI_PIO_DEPTH, cq_n - sq_n) of them are in
 * flight, so the NI's PIO buffer never overflows and the completion queue
 * can never fill (the NI never waits for CQ_CI because of us, and we never
 * wait for an MMIO slot while the NI waits for us).
 */
#define _GNU_SOURCE
#include "kolo_internal.h"

#include <stdlib.h>
#include <string.h>

#include "kolo_sim_client.h"

#define SQ_PI_VALUE(pi) (pi)
#define CQ_CI_VALUE(ci) (ci)

static inline uint64_t raddr_key(uint64_t raddr, uint8_t key) {
    return (raddr & KOLO_ADDR_MASK) | (uint64_t)key << 48;
}

/* ---- completions ------------------------------------------------------------- */
static void note_error(kolo_ctx *c, int err) {
    c->st.errors++;
    if (!c->sticky_err)
        c->sticky_err = err;
}

static void complete_one(kolo_ctx *c, uint16_t index, uint8_t status, uint64_t result) {
    int err = KOLO_E_STATUS(status);
    c->st.completions++;
    if (status == KOLO_ST_BAD_DOORBELL || status == KOLO_ST_BAD_CONFIG)
        c->stopped = KOLO_E_STOPPED;
    if (index == KOLO_PIO_INDEX) {
        if (c->pio_inflight)
            c->pio_inflight--;
        if (err)
            note_error(c, err);
        return;
    }
    {
        uint32_t s = index & (c->sq_n - 1);
        kolo_slot *sl = &c->slots[s];
        if (!sl->busy) { /* a completion for nothing we posted */
            note_error(c, err ? err : KOLO_E_IO);
            return;
        }
        if (!err) {
            if (sl->result_size == 8)
                memcpy(sl->result, &result, 8);
            else if (sl->result_size == 4) {
                uint32_t r32 = (uint32_t)result;
                memcpy(sl->result, &r32, 4);
            }
            if (sl->copy_dst)
                memcpy(sl->copy_dst, c->bounce + (size_t)s * KOLO_BOUNCE_SIZE, sl->copy_len);
        }
        if (sl->req) {
            kolo_req *r = sl->req;
            r->result = sl->result_size == 4 ? (uint32_t)result : result;
            r->status = err;
            r->priv_ctx = NULL;
            r->done = 1;
        } else if (err) {
            note_error(c, err);
        }
        if (err && sl->req)
            c->st.errors++;
        memset(sl, 0, sizeof *sl);
        c->sq_busy--;
    }
}

static int poll_cq(kolo_ctx *c) {
    int n = 0;
    for (;;) {
        volatile kolo_cqe *e = &c->cq[c->cq_head & (c->cq_n - 1)];
        uint32_t want = ((c->cq_head >> c->cq_log2) & 1u) ^ 1u;
        uint32_t ph = __atomic_load_n(&e->phase, __ATOMIC_ACQUIRE);
        uint16_t index;
        uint8_t status;
        uint64_t result;
        if ((ph & 1u) != want)
            break;
        index = e->index;
        status = e->status;
        result = e->result;
        c->cq_head++;
        n++;
        complete_one(c, index, status, result);
    }
    if (n) {
        c->cq_ci_written = c->cq_head;
        kolo_mmio_w32(c->dev, KOLO_CSR_DOORBELL(c->index) + KOLO_DB_CQ_CI, CQ_CI_VALUE(c->cq_head));
    }
    return n;
}

/* read the context's STATUS; sets c->stopped when the NI stopped the queue */
static int check_status(kolo_ctx *c) {
    uint64_t st = 0;
    if (kolo_mmio_r64(c->dev, KOLO_CSR_DOORBELL(c->index) + KOLO_DB_STATUS, &st))
        return KOLO_E_IO;
    if (st & 2u) {
        poll_cq(c);
        c->stopped = KOLO_E_STOPPED;
    }
    return c->stopped;
}

int kolo_progress(kolo_ctx *c) {
    if (!c)
        return KOLO_E_INVAL;
    {
        int n = poll_cq(c);
        return c->stopped ? c->stopped : n;
    }
}

/* Wait until cond(c, arg) holds, polling completions. */
typedef int (*wait_cond)(kolo_ctx *c, const void *arg);

static int wait_for(kolo_ctx *c, wait_cond cond, const void *arg) {
    unsigned long n = 0;
    double t0 = 0;
    for (;;) {
        int rc;
        if (cond(c, arg))
            return 0;
        if (poll_cq(c) > 0)
            continue;
        if (c->stopped)
            return c->stopped;
        if (cond(c, arg))
            return 0;
        if (n == 0 && c->dev->wait_timeout > 0)
            t0 = kolo_now();
        rc = kolo_wait_step(c->dev, &n, t0);
        if (rc)
            return rc;
        /* now and then look at STATUS: a stopped queue never completes */
        if (n >= 4096 && (n & 1023) == 0) {
            rc = check_status(c);
            if (rc)
                return rc;
        }
    }
}

static int cond_slot_free(kolo_ctx *c, const void *arg) {
    (void)arg;
    return !c->slots[c->pi & (c->sq_n - 1)].busy;
}
static int cond_req_done(kolo_ctx *c, const void *arg) {
    (void)c;
    return ((const kolo_req *)arg)->done != 0;
}
static int cond_all_done(kolo_ctx *c, const void *arg) {
    (void)arg;
    return c->sq_busy == 0 && c->pio_inflight == 0;
}
static int cond_pio_room(kolo_ctx *c, const void *arg) {
    (void)arg;
    return c->pio_inflight < c->pio_max;
}

/* ---- posting --------------------------------------------------------------- */
/* Reserve the next SQ slot (waiting for its earlier occupant, or KOLO_E_AGAIN). */
static int sq_reserve(kolo_ctx *c, uint32_t *slot) {
    if (c->stopped)
        return c->stopped;
    if (!cond_slot_free(c, NULL)) {
        poll_cq(c);
        if (!cond_slot_free(c, NULL)) {
            int rc;
            if (c->flags & KOLO_CTX_NOWAIT)
                return KOLO_E_AGAIN;
            c->st.waits_full++;
            rc = wait_for(c, cond_slot_free, NULL);
            if (rc)
                return rc;
        }
    }
    *slot = c->pi & (c->sq_n - 1);
    return 0;
}

/* Write the descriptor into the reserved slot and ring the doorbell. */
static int sq_post(kolo_ctx *c, uint32_t s, kolo_desc *d, const kolo_slot *info, kolo_req *req) {
    kolo_slot *sl = &c->slots[s];
    d->flags |= KOLO_DF_COMPLETE;
    if (c->fence_pending) {
        d->flags |= KOLO_DF_FENCE;
        c->fence_pending = 0;
    }
    memcpy(&c->sq[s], d, sizeof *d);
    *sl = *info;
    sl->busy = 1;
    sl->op = d->op;
    sl->req = req;
    if (req) {
        req->done = 0;
        req->status = 0;
        req->result = 0;
        req->priv_ctx = c;
        req->priv_slot = (int)s;
    }
    c->sq_busy++;
    c->pi++;
    c->st.sq_posts++;
    c->st.doorbells++;
    __atomic_thread_fence(__ATOMIC_SEQ_CST); /* descriptor before doorbell */
    if (kolo_mmio_w32(c->dev, KOLO_CSR_DOORBELL(c->index) + KOLO_DB_SQ_PI, SQ_PI_VALUE(c->pi))) {
        /* the doorbell never reached the NI: nothing will complete */
        c->stopped = KOLO_E_IO;
        return KOLO_E_IO;
    }
    return 0;
}

/* a PIO operation: descriptor + up to 32 bytes of payload in one 64-byte write */
static int pio_post(kolo_ctx *c, kolo_desc *d, const void *payload, size_t len) {
    uint64_t buf[8];
    int rc;
    if (c->stopped)
        return c->stopped;
    if (c->pio_inflight >= c->pio_max) {
        rc = wait_for(c, cond_pio_room, NULL);
        if (rc)
            return rc;
    }
    d->flags |= KOLO_DF_COMPLETE;
    memset(buf, 0, sizeof buf);
    memcpy(buf, d, sizeof *d);
    if (len)
        memcpy((uint8_t *)buf + 32, payload, len);
    c->pio_inflight++;
    c->st.pio_posts++;
    if (c->dev->be.mmio_write(c->dev->user, 2, KOLO_PIO_PAGE(c->index), buf, 64)) {
        c->pio_inflight--;
        return KOLO_E_IO;
    }
    return 0;
}

static int pio_usable(kolo_ctx *c, size_t len) {
    if ((c->flags & KOLO_CTX_NO_PIO) || c->fence_pending || len > KOLO_PIO_MAX || !c->pio_max)
        return 0;
    if (c->pio_inflight >= c->pio_max)
        poll_cq(c);
    return c->pio_inflight < c->pio_max;
}

static void desc_init(kolo_desc *d, uint8_t op, uint16_t node, uint32_t len, uint64_t raddr,
                      uint8_t key) {
    memset(d, 0, sizeof *d);
    d->op = op;
    d->dst = node;
    d->len = len;
    d->raddr_key = raddr_key(raddr, key);
}

static int check_rma(kolo_ctx *c, uint16_t node, uint64_t raddr, const void *buf, size_t len) {
    if (!c || !buf)
        return KOLO_E_INVAL;
    if (!len || len > KOLO_MAX_LEN)
        return KOLO_E_LEN;
    if (!kolo_dev_node_valid(c->dev, node))
        return KOLO_E_NODE;
    if (raddr > KOLO_ADDR_MASK || len - 1 > KOLO_ADDR_MASK - raddr)
        return KOLO_E_ADDR;
    return 0;
}

/* ---- put --------------------------------------------------------------------- */
static const kolo_slot no_info;

static int put_pio(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                   size_t len) {
    kolo_desc d;
    desc_init(&d, KOLO_D_PUT, node, (uint32_t)len, raddr, key);
    return pio_post(c, &d, src, len);
}

static int put_inline(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                      size_t len, kolo_req *req) {
    kolo_desc d;
    uint32_t s;
    int rc = sq_reserve(c, &s);
    if (rc)
        return rc;
    desc_init(&d, KOLO_D_PUT, node, (uint32_t)len, raddr, key);
    d.flags = KOLO_DF_INLINE;
    memcpy(&d.w2, src, len); /* bytes 16.. of the descriptor: w2 then w3 */
    c->st.inline_posts++;
    return sq_post(c, s, &d, &no_info, req);
}

static int put_dma(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                   size_t len, kolo_req *req) {
    kolo_desc d;
    uint32_t s;
    int rc = sq_reserve(c, &s);
    if (rc)
        return rc;
    desc_init(&d, KOLO_D_PUT, node, (uint32_t)len, raddr, key);
    d.w2 = (uint64_t)(uintptr_t)src;
    return sq_post(c, s, &d, &no_info, req);
}

static int put_bounce(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                      size_t len, kolo_req *req) {
    kolo_desc d;
    uint32_t s;
    uint8_t *b;
    int rc = sq_reserve(c, &s);
    if (rc)
        return rc;
    b = c->bounce + (size_t)s * KOLO_BOUNCE_SIZE;
    memcpy(b, src, len);
    desc_init(&d, KOLO_D_PUT, node, (uint32_t)len, raddr, key);
    d.w2 = (uint64_t)(uintptr_t)b;
    c->st.bounce_posts++;
    return sq_post(c, s, &d, &no_info, req);
}

/* blocking put: src reusable on return */
static int put_blocking(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key,
                        const void *src, size_t len) {
    if (pio_usable(c, len))
        return put_pio(c, node, raddr, key, src, len);
    if (len <= KOLO_INLINE_MAX && !(c->flags & KOLO_CTX_NO_INLINE))
        return put_inline(c, node, raddr, key, src, len, NULL);
    if (len <= KOLO_BOUNCE_SIZE)
        return put_bounce(c, node, raddr, key, src, len, NULL);
    if (kolo_mem_dma_ok(c->dev, src, len)) {
        kolo_req r;
        int rc = put_dma(c, node, raddr, key, src, len, &r);
        return rc ? rc : kolo_wait(c, &r);
    }
    /* memory the NI cannot reach: stage it through bounce buffers */
    while (len) {
        size_t n = len < KOLO_BOUNCE_SIZE ? len : KOLO_BOUNCE_SIZE;
        int rc = put_bounce(c, node, raddr, key, src, n, NULL);
        if (rc)
            return rc;
        src = (const uint8_t *)src + n;
        raddr += n;
        len -= n;
    }
    return 0;
}

int kolo_put(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
             size_t len) {
    int rc = check_rma(c, node, raddr, src, len);
    return rc ? rc : put_blocking(c, node, raddr, key, src, len);
}

int kolo_put_nb(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                size_t len, kolo_req *req) {
    int rc = check_rma(c, node, raddr, src, len);
    if (rc)
        return rc;
    if (!req && pio_usable(c, len))
        return put_pio(c, node, raddr, key, src, len);
    if (len <= KOLO_INLINE_MAX && !(c->flags & KOLO_CTX_NO_INLINE))
        return put_inline(c, node, raddr, key, src, len, req);
    if (!kolo_mem_dma_ok(c->dev, src, len))
        return KOLO_E_NOTREG;
    return put_dma(c, node, raddr, key, src, len, req);
}

int kolo_put_inline(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                    size_t len) {
    int rc = check_rma(c, node, raddr, src, len);
    if (rc)
        return rc;
    if (len > KOLO_INLINE_MAX)
        return KOLO_E_LEN;
    return put_inline(c, node, raddr, key, src, len, NULL);
}

int kolo_put_pio(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                 size_t len) {
    int rc = check_rma(c, node, raddr, src, len);
    if (rc)
        return rc;
    if (len > KOLO_PIO_MAX)
        return KOLO_E_LEN;
    if (c->fence_pending || !c->pio_max) /* a fence goes through the queue */
        return len <= KOLO_INLINE_MAX ? put_inline(c, node, raddr, key, src, len, NULL)
                                      : put_bounce(c, node, raddr, key, src, len, NULL);
    return put_pio(c, node, raddr, key, src, len);
}

/* ---- get --------------------------------------------------------------------- */
static int get_post(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, void *dst,
                    size_t len, int bounce, kolo_req *req) {
    kolo_desc d;
    kolo_slot info;
    uint32_t s;
    int rc = sq_reserve(c, &s);
    if (rc)
        return rc;
    memset(&info, 0, sizeof info);
    desc_init(&d, KOLO_D_GET, node, (uint32_t)len, raddr, key);
    if (bounce) {
        d.w2 = (uint64_t)(uintptr_t)(c->bounce + (size_t)s * KOLO_BOUNCE_SIZE);
        info.copy_dst = dst;
        info.copy_len = (uint32_t)len;
        c->st.bounce_posts++;
    } else {
        d.w2 = (uint64_t)(uintptr_t)dst;
    }
    return sq_post(c, s, &d, &info, req);
}

int kolo_get(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, void *dst, size_t len) {
    kolo_req r;
    int rc = check_rma(c, node, raddr, dst, len);
    if (rc)
        return rc;
    if (kolo_mem_dma_ok(c->dev, dst, len)) {
        rc = get_post(c, node, raddr, key, dst, len, 0, &r);
        return rc ? rc : kolo_wait(c, &r);
    }
    while (len) { /* memory the NI cannot reach: through bounce buffers */
        size_t n = len < KOLO_BOUNCE_SIZE ? len : KOLO_BOUNCE_SIZE;
        rc = get_post(c, node, raddr, key, dst, n, 1, &r);
        rc = rc ? rc : kolo_wait(c, &r);
        if (rc)
            return rc;
        dst = (uint8_t *)dst + n;
        raddr += n;
        len -= n;
    }
    return 0;
}

int kolo_get_nb(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, void *dst, size_t len,
                kolo_req *req) {
    int rc = check_rma(c, node, raddr, dst, len);
    if (rc)
        return rc;
    if (!kolo_mem_dma_ok(c->dev, dst, len))
        return KOLO_E_NOTREG;
    return get_post(c, node, raddr, key, dst, len, 0, req);
}

/* ---- atomics ------------------------------------------------------------------ */
static int check_amo(kolo_ctx *c, int op, unsigned size, uint16_t node, uint64_t raddr) {
    if (!c)
        return KOLO_E_INVAL;
    if (op < KOLO_AMO_ADD || op > KOLO_AMO_OR || (size != 4 && size != 8))
        return KOLO_E_INVAL;
    if (!kolo_dev_node_valid(c->dev, node))
        return KOLO_E_NODE;
    if (raddr > KOLO_ADDR_MASK - (size - 1))
        return KOLO_E_ADDR;
    if (raddr & (size - 1))
        return KOLO_E_ALIGN;
    return 0;
}

static void amo_desc(kolo_desc *d, int op, unsigned size, uint16_t node, uint64_t raddr,
                     uint8_t key, uint64_t operand, uint64_t compare) {
    desc_init(d, (uint8_t)op, node, 0, raddr, key);
    if (size == 4) {
        d->flags = KOLO_DF_SIZE32;
        operand &= 0xffffffffu;
        compare &= 0xffffffffu;
    }
    d->w2 = operand;
    d->w3 = op == KOLO_AMO_CSWAP ? compare : 0;
}

static int amo_post(kolo_ctx *c, int op, unsigned size, uint16_t node, uint64_t raddr,
                    uint8_t key, uint64_t operand, uint64_t compare, void *result,
                    kolo_req *req) {
    kolo_desc d;
    kolo_slot info;
    uint32_t s;
    int rc;
    amo_desc(&d, op, size, node, raddr, key, operand, compare);
    if (!req && !result && !kolo_amo_fetches(op) && (c->flags & KOLO_CTX_PIO_AMO) &&
        pio_usable(c, 0))
        return pio_post(c, &d, NULL, 0);
    rc = sq_reserve(c, &s);
    if (rc)
        return rc;
    memset(&info, 0, sizeof info);
    if (result && kolo_amo_fetches(op)) {
        info.result = result;
        info.result_size = (uint8_t)size;
    }
    return sq_post(c, s, &d, &info, req);
}

int kolo_atomic(kolo_ctx *c, int op, unsigned size, uint16_t node, uint64_t raddr, uint8_t key,
                uint64_t operand, uint64_t compare, uint64_t *old) {
    int rc = check_amo(c, op, size, node, raddr);
    if (rc)
        return rc;
    if (kolo_amo_fetches(op)) {
        kolo_req r;
        rc = amo_post(c, op, size, node, raddr, key, operand, compare, NULL, &r);
        rc = rc ? rc : kolo_wait(c, &r);
        if (!rc && old)
            *old = r.result;
        return rc;
    }
    if (old)
        *old = 0;
    return amo_post(c, op, size, node, raddr, key, operand, compare, NULL, NULL);
}

int kolo_atomic_nb(kolo_ctx *c, int op, unsigned size, uint16_t node, uint64_t raddr,
                   uint8_t key, uint64_t operand, uint64_t compare, void *result, kolo_req *req) {
    int rc = check_amo(c, op, size, node, raddr);
    if (rc)
        return rc;
    /* the old value comes in the completion entry: result may be any memory */
    return amo_post(c, op, size, node, raddr, key, operand, compare, result, req);
}

/* ---- put with signal ---------------------------------------------------------- */
static int signal_post(kolo_ctx *c, uint16_t node, uint64_t sig_raddr, uint8_t sig_key,
                       uint64_t value, int sig_op) {
    c->fence_pending = 1; /* the signal waits for the data's response */
    if (sig_op == KOLO_SIG_SET) {
        if (c->flags & KOLO_CTX_NO_INLINE)
            return put_bounce(c, node, sig_raddr, sig_key, &value, 8, NULL);
        return put_inline(c, node, sig_raddr, sig_key, &value, 8, NULL);
    }
    return amo_post(c, KOLO_AMO_ADD, 8, node, sig_raddr, sig_key, value, 0, NULL, NULL);
}

static int check_signal(kolo_ctx *c, uint16_t node, uint64_t raddr, const void *src, size_t len,
                        uint64_t sig_raddr, int sig_op) {
    int rc = check_rma(c, node, raddr, src, len);
    if (rc)
        return rc;
    if (sig_op != KOLO_SIG_SET && sig_op != KOLO_SIG_ADD)
        return KOLO_E_INVAL;
    if (sig_raddr > KOLO_ADDR_MASK - 7)
        return KOLO_E_ADDR;
    if (sig_raddr & 7)
        return KOLO_E_ALIGN;
    return 0;
}

int kolo_put_signal(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                    size_t len, uint64_t sig_raddr, uint8_t sig_key, uint64_t value, int sig_op) {
    int rc = check_signal(c, node, raddr, src, len, sig_raddr, sig_op);
    rc = rc ? rc : put_blocking(c, node, raddr, key, src, len);
    return rc ? rc : signal_post(c, node, sig_raddr, sig_key, value, sig_op);
}

int kolo_put_signal_nb(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key,
                       const void *src, size_t len, uint64_t sig_raddr, uint8_t sig_key,
                       uint64_t value, int sig_op) {
    int rc = check_signal(c, node, raddr, src, len, sig_raddr, sig_op);
    rc = rc ? rc : kolo_put_nb(c, node, raddr, key, src, len, NULL);
    return rc ? rc : signal_post(c, node, sig_raddr, sig_key, value, sig_op);
}

/* ---- fence, quiet, requests ------------------------------------------------------ */
int kolo_fence(kolo_ctx *c) {
    if (!c)
        return KOLO_E_INVAL;
    if (c->sq_busy || c->pio_inflight)
        c->fence_pending = 1;
    return c->stopped;
}

int kolo_quiet(kolo_ctx *c) {
    int rc;
    if (!c)
        return KOLO_E_INVAL;
    poll_cq(c);
    if (c->sq_busy || c->pio_inflight) {
        kolo_desc d;
        uint32_t s;
        kolo_req r;
        rc = sq_reserve(c, &s);
        if (!rc) {
            desc_init(&d, KOLO_D_NOP, 0, 0, 0, 0);
            c->fence_pending = 1;
            rc = sq_post(c, s, &d, &no_info, &r);
        }
        if (!rc)
            rc = wait_for(c, cond_req_done, &r);
        if (!rc)
            rc = r.status;
        if (!rc)
            rc = wait_for(c, cond_all_done, NULL);
        if (rc && !r.done)
            kolo_req_cancel(c, &r);
        if (rc)
            return rc;
    }
    c->fence_pending = 0;
    rc = c->sticky_err;
    c->sticky_err = 0;
    return rc ? rc : c->stopped;
}

int kolo_pending_error(const kolo_ctx *c) {
    if (!c)
        return KOLO_E_INVAL;
    return c->sticky_err ? c->sticky_err : c->stopped;
}

int kolo_test(kolo_ctx *c, kolo_req *r) {
    if (!c || !r)
        return KOLO_E_INVAL;
    if (r->done)
        return 1;
    poll_cq(c);
    if (r->done)
        return 1;
    return c->stopped ? c->stopped : 0;
}

int kolo_wait(kolo_ctx *c, kolo_req *r) {
    int rc;
    if (!c || !r)
        return KOLO_E_INVAL;
    rc = wait_for(c, cond_req_done, r);
    if (rc) {
        kolo_req_cancel(c, r);
        return rc;
    }
    return r->status;
}

void kolo_req_cancel(kolo_ctx *c, kolo_req *r) {
    if (!c || !r || r->done || r->priv_ctx != c)
        return;
    if (r->priv_slot >= 0 && (uint32_t)r->priv_slot < c->sq_n && c->slots[r->priv_slot].req == r)
        c->slots[r->priv_slot].req = NULL;
    r->priv_ctx = NULL;
}

unsigned kolo_ctx_outstanding(const kolo_ctx *c) { return c ? c->sq_busy + c->pio_inflight : 0; }

void kolo_ctx_get_stats(const kolo_ctx *c, kolo_ctx_stats *s) {
    if (c && s)
        *s = c->st;
}

unsigned kolo_ctx_index(const kolo_ctx *c) { return c ? c->index : 0; }
kolo_dev *kolo_ctx_dev(kolo_ctx *c) { return c ? c->dev : NULL; }

/* ---- open / close ----------------------------------------------------------------- */
int kolo_ctx_open(kolo_dev *d, const kolo_ctx_opts *opts, kolo_ctx **out) {
    kolo_ctx_opts o = {-1, 0, 0, 0};
    kolo_ctx *c;
    size_t sq_bytes, cq_bytes, off_cq, off_b;
    uint64_t st = 0;
    uint32_t e0 = 0, e1 = 0;
    int idx, rc;
    if (out)
        *out = NULL;
    if (!d || !out)
        return KOLO_E_INVAL;
    if (opts)
        o = *opts;
    if (!o.sq_log2)
        o.sq_log2 = 8;
    if (!o.cq_log2)
        o.cq_log2 = o.sq_log2 < 15 ? o.sq_log2 + 1 : 15;
    if (o.sq_log2 > 15 || o.cq_log2 < o.sq_log2 || o.cq_log2 > 15 ||
        (o.flags & ~(KOLO_CTX_NOWAIT | KOLO_CTX_NO_PIO | KOLO_CTX_NO_INLINE | KOLO_CTX_PIO_AMO)))
        return KOLO_E_INVAL;
    idx = o.index;
    if (idx < 0) {
        if (d->sim_client) {
            idx = (int)kolo_sim_ctx((kolo_sim_client *)d->sim_client);
        } else {
            for (idx = 0; idx < (int)d->num_ctx && d->ctx_open[idx]; idx++)
                ;
        }
    }
    if (idx < 0 || idx >= (int)d->num_ctx)
        return KOLO_E_RANGE;
    if (d->ctx_open[idx])
        return KOLO_E_BUSY;
    rc = kolo_mmio_r64(d, KOLO_CSR_CTX(idx) + KOLO_CTX_STATUS, &st);
    if (rc)
        return rc;
    if (st & 1u)
        return KOLO_E_BUSY; /* enabled by someone else */

    c = (kolo_ctx *)calloc(1, sizeof *c);
    if (!c)
        return KOLO_E_NOMEM;
    c->dev = d;
    c->index = (unsigned)idx;
    c->flags = o.flags;
    c->sq_log2 = o.sq_log2;
    c->cq_log2 = o.cq_log2;
    c->sq_n = 1u << o.sq_log2;
    c->cq_n = 1u << o.cq_log2;
    /* PIO in flight: no more than the NI's PIO buffer holds (a write to a
     * full buffer is dropped on hardware; operations not yet completed
     * include those still in the buffer), and no more than the CQ's room
     * beyond the SQ */
    c->pio_max = c->cq_n - c->sq_n < KOLO_NI_PIO_DEPTH ? c->cq_n - c->sq_n : KOLO_NI_PIO_DEPTH;
    sq_bytes = (size_t)c->sq_n * sizeof(kolo_desc);
    cq_bytes = (size_t)c->cq_n * sizeof(kolo_cqe);
    off_cq = (sq_bytes + 63) & ~(size_t)63;
    off_b = (off_cq + cq_bytes + 63) & ~(size_t)63;
    c->mem_len = off_b + (size_t)c->sq_n * KOLO_BOUNCE_SIZE;
    c->mem = kolo_dma_alloc(d, c->mem_len);
    c->slots = (kolo_slot *)calloc(c->sq_n, sizeof *c->slots);
    if (!c->mem || !c->slots) {
        kolo_dma_free(d, c->mem);
        free(c->slots);
        free(c);
        return KOLO_E_NOMEM;
    }
    c->sq = (kolo_desc *)c->mem;
    c->cq = (volatile kolo_cqe *)((uint8_t *)c->mem + off_cq);
    c->bounce = (uint8_t *)c->mem + off_b;

    rc = kolo_mmio_r32(d, KOLO_CSR_ERR_CSR, &e0);
    rc = rc ? rc : kolo_mmio_w64(d, KOLO_CSR_CTX(idx) + KOLO_CTX_SQ_BASE, (uintptr_t)c->sq);
    rc = rc ? rc : kolo_mmio_w64(d, KOLO_CSR_CTX(idx) + KOLO_CTX_CQ_BASE, (uintptr_t)c->cq);
    rc = rc ? rc : kolo_mmio_w64(d, KOLO_CSR_CTX(idx) + KOLO_CTX_SIZES, o.sq_log2 | o.cq_log2 << 8);
    rc = rc ? rc : kolo_mmio_w64(d, KOLO_CSR_CTX(idx) + KOLO_CTX_CTRL, 1);
    rc = rc ? rc : kolo_mmio_r64(d, KOLO_CSR_CTX(idx) + KOLO_CTX_STATUS, &st);
    rc = rc ? rc : kolo_mmio_r32(d, KOLO_CSR_ERR_CSR, &e1);
    if (!rc && (st & 2u))
        rc = KOLO_E_STATUS((st >> 8) & 0xffu) ? KOLO_E_STATUS((st >> 8) & 0xffu) : KOLO_E_BAD_CONFIG;
    else if (!rc && (!(st & 1u) || e1 != e0))
        rc = KOLO_E_IO;
    if (rc) {
        kolo_mmio_w64(d, KOLO_CSR_CTX(idx) + KOLO_CTX_CTRL, 0);
        kolo_dma_free(d, c->mem);
        free(c->slots);
        free(c);
        return rc;
    }
    d->ctx_open[idx] = c;
    *out = c;
    return 0;
}

int kolo_ctx_close(kolo_ctx *c) {
    int rc;
    kolo_dev *d;
    if (!c)
        return 0;
    d = c->dev;
    rc = c->stopped ? c->stopped : kolo_quiet(c);
    kolo_mmio_w64(d, KOLO_CSR_CTX(c->index) + KOLO_CTX_CTRL, 0);
    {
        uint64_t st; /* flush: the NI is off before the queues are freed */
        kolo_mmio_r64(d, KOLO_CSR_CTX(c->index) + KOLO_CTX_STATUS, &st);
    }
    d->ctx_open[c->index] = NULL;
    kolo_dma_free(d, c->mem);
    free(c->slots);
    free(c);
    return rc;
}
