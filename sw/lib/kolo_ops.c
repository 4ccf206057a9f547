/* kolo_ops.c - libkolo: the operations - put (PIO, inline, bounce, DMA),
 * get, atomics, put with signal - built on the send queue and PIO of
 * kolo_ctx.c (descriptors as in docs/ni.md section 3). Every public call
 * holds the context's lock (LOCKED, kolo_internal.h). */
#define _GNU_SOURCE
#include "kolo_internal.h"

#include <string.h>

/* ---- put --------------------------------------------------------------------- */
static const kolo_slot no_info;

static int put_pio(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                   size_t len) {
    kolo_desc d;
    kolo_desc_init(&d, KOLO_D_PUT, node, (uint32_t)len, raddr, key);
    return kolo_pio_post(c, &d, src, len);
}

static int put_inline(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                      size_t len, kolo_req *req) {
    kolo_desc d;
    uint32_t s;
    int rc = kolo_sq_reserve(c, &s);
    if (rc)
        return rc;
    kolo_desc_init(&d, KOLO_D_PUT, node, (uint32_t)len, raddr, key);
    d.flags = KOLO_DF_INLINE;
    memcpy(&d.w2, src, len); /* bytes 16.. of the descriptor: w2 then w3 */
    c->st.inline_posts++;
    return kolo_sq_post(c, s, &d, &no_info, req);
}

static int put_dma(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                   size_t len, kolo_req *req) {
    kolo_desc d;
    uint32_t s;
    int rc = kolo_sq_reserve(c, &s);
    if (rc)
        return rc;
    kolo_desc_init(&d, KOLO_D_PUT, node, (uint32_t)len, raddr, key);
    d.w2 = (uint64_t)(uintptr_t)src;
    return kolo_sq_post(c, s, &d, &no_info, req);
}

static int put_bounce(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                      size_t len, kolo_req *req) {
    kolo_desc d;
    uint32_t s;
    uint8_t *b;
    int rc = kolo_sq_reserve(c, &s);
    if (rc)
        return rc;
    b = c->bounce + (size_t)s * KOLO_BOUNCE_SIZE;
    memcpy(b, src, len);
    kolo_desc_init(&d, KOLO_D_PUT, node, (uint32_t)len, raddr, key);
    d.w2 = (uint64_t)(uintptr_t)b;
    c->st.bounce_posts++;
    return kolo_sq_post(c, s, &d, &no_info, req);
}

/* blocking put: src reusable on return */
static int put_blocking(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key,
                        const void *src, size_t len) {
    if (kolo_pio_usable(c, len))
        return put_pio(c, node, raddr, key, src, len);
    if (len <= KOLO_INLINE_MAX && !(c->flags & KOLO_CTX_NO_INLINE))
        return put_inline(c, node, raddr, key, src, len, NULL);
    if (len <= KOLO_BOUNCE_SIZE)
        return put_bounce(c, node, raddr, key, src, len, NULL);
    if (kolo_mem_dma_ok(c->dev, src, len)) {
        kolo_req r;
        int rc = put_dma(c, node, raddr, key, src, len, &r);
        return rc ? rc : kolo_wait_req(c, &r);
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

static int put_l(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
             size_t len) {
    int rc = kolo_check_rma(c, node, raddr, src, len);
    return rc ? rc : put_blocking(c, node, raddr, key, src, len);
}

static int put_nb_l(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                size_t len, kolo_req *req) {
    int rc = kolo_check_rma(c, node, raddr, src, len);
    if (rc)
        return rc;
    if (!req && kolo_pio_usable(c, len))
        return put_pio(c, node, raddr, key, src, len);
    if (len <= KOLO_INLINE_MAX && !(c->flags & KOLO_CTX_NO_INLINE))
        return put_inline(c, node, raddr, key, src, len, req);
    if (!kolo_mem_dma_ok(c->dev, src, len))
        return KOLO_E_NOTREG;
    return put_dma(c, node, raddr, key, src, len, req);
}

static int put_inline_l(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                    size_t len) {
    int rc = kolo_check_rma(c, node, raddr, src, len);
    if (rc)
        return rc;
    if (len > KOLO_INLINE_MAX)
        return KOLO_E_LEN;
    return put_inline(c, node, raddr, key, src, len, NULL);
}

static int put_pio_l(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                 size_t len) {
    int rc = kolo_check_rma(c, node, raddr, src, len);
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
    int rc = kolo_sq_reserve(c, &s);
    if (rc)
        return rc;
    memset(&info, 0, sizeof info);
    kolo_desc_init(&d, KOLO_D_GET, node, (uint32_t)len, raddr, key);
    if (bounce) {
        d.w2 = (uint64_t)(uintptr_t)(c->bounce + (size_t)s * KOLO_BOUNCE_SIZE);
        info.copy_dst = dst;
        info.copy_len = (uint32_t)len;
        c->st.bounce_posts++;
    } else {
        d.w2 = (uint64_t)(uintptr_t)dst;
    }
    return kolo_sq_post(c, s, &d, &info, req);
}

static int get_l(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, void *dst, size_t len) {
    kolo_req r;
    int rc = kolo_check_rma(c, node, raddr, dst, len);
    if (rc)
        return rc;
    if (kolo_mem_dma_ok(c->dev, dst, len)) {
        rc = get_post(c, node, raddr, key, dst, len, 0, &r);
        return rc ? rc : kolo_wait_req(c, &r);
    }
    while (len) { /* memory the NI cannot reach: through bounce buffers */
        size_t n = len < KOLO_BOUNCE_SIZE ? len : KOLO_BOUNCE_SIZE;
        rc = get_post(c, node, raddr, key, dst, n, 1, &r);
        rc = rc ? rc : kolo_wait_req(c, &r);
        if (rc)
            return rc;
        dst = (uint8_t *)dst + n;
        raddr += n;
        len -= n;
    }
    return 0;
}

static int get_nb_l(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, void *dst, size_t len,
                kolo_req *req) {
    int rc = kolo_check_rma(c, node, raddr, dst, len);
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
    kolo_desc_init(d, (uint8_t)op, node, 0, raddr, key);
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
        kolo_pio_usable(c, 0))
        return kolo_pio_post(c, &d, NULL, 0);
    rc = kolo_sq_reserve(c, &s);
    if (rc)
        return rc;
    memset(&info, 0, sizeof info);
    if (result && kolo_amo_fetches(op)) {
        info.result = result;
        info.result_size = (uint8_t)size;
    }
    return kolo_sq_post(c, s, &d, &info, req);
}

static int atomic_l(kolo_ctx *c, int op, unsigned size, uint16_t node, uint64_t raddr, uint8_t key,
                uint64_t operand, uint64_t compare, uint64_t *old) {
    int rc = check_amo(c, op, size, node, raddr);
    if (rc)
        return rc;
    if (kolo_amo_fetches(op)) {
        kolo_req r;
        rc = amo_post(c, op, size, node, raddr, key, operand, compare, NULL, &r);
        rc = rc ? rc : kolo_wait_req(c, &r);
        if (!rc && old)
            *old = r.result;
        return rc;
    }
    if (old)
        *old = 0;
    return amo_post(c, op, size, node, raddr, key, operand, compare, NULL, NULL);
}

static int atomic_nb_l(kolo_ctx *c, int op, unsigned size, uint16_t node, uint64_t raddr,
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
    int rc = kolo_check_rma(c, node, raddr, src, len);
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

static int put_signal_l(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                    size_t len, uint64_t sig_raddr, uint8_t sig_key, uint64_t value, int sig_op) {
    int rc = check_signal(c, node, raddr, src, len, sig_raddr, sig_op);
    rc = rc ? rc : put_blocking(c, node, raddr, key, src, len);
    return rc ? rc : signal_post(c, node, sig_raddr, sig_key, value, sig_op);
}

static int put_signal_nb_l(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key,
                       const void *src, size_t len, uint64_t sig_raddr, uint8_t sig_key,
                       uint64_t value, int sig_op) {
    int rc = check_signal(c, node, raddr, src, len, sig_raddr, sig_op);
    rc = rc ? rc : put_nb_l(c, node, raddr, key, src, len, NULL);
    return rc ? rc : signal_post(c, node, sig_raddr, sig_key, value, sig_op);
}

/* ---- the public calls: the work under the context's lock --------------------------- */

int kolo_put(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
             size_t len) {
    LOCKED(c, put_l(c, node, raddr, key, src, len));
}
int kolo_put_nb(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                size_t len, kolo_req *req) {
    LOCKED(c, put_nb_l(c, node, raddr, key, src, len, req));
}
int kolo_put_inline(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                    size_t len) {
    LOCKED(c, put_inline_l(c, node, raddr, key, src, len));
}
int kolo_put_pio(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                 size_t len) {
    LOCKED(c, put_pio_l(c, node, raddr, key, src, len));
}
int kolo_get(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, void *dst, size_t len) {
    LOCKED(c, get_l(c, node, raddr, key, dst, len));
}
int kolo_get_nb(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, void *dst, size_t len,
                kolo_req *req) {
    LOCKED(c, get_nb_l(c, node, raddr, key, dst, len, req));
}
int kolo_atomic(kolo_ctx *c, int op, unsigned size, uint16_t node, uint64_t raddr, uint8_t key,
                uint64_t operand, uint64_t compare, uint64_t *old) {
    LOCKED(c, atomic_l(c, op, size, node, raddr, key, operand, compare, old));
}
int kolo_atomic_nb(kolo_ctx *c, int op, unsigned size, uint16_t node, uint64_t raddr,
                   uint8_t key, uint64_t operand, uint64_t compare, void *result, kolo_req *req) {
    LOCKED(c, atomic_nb_l(c, op, size, node, raddr, key, operand, compare, result, req));
}
int kolo_put_signal(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                    size_t len, uint64_t sig_raddr, uint8_t sig_key, uint64_t value, int sig_op) {
    LOCKED(c, put_signal_l(c, node, raddr, key, src, len, sig_raddr, sig_key, value, sig_op));
}
int kolo_put_signal_nb(kolo_ctx *c, uint16_t node, uint64_t raddr, uint8_t key,
                       const void *src, size_t len, uint64_t sig_raddr, uint8_t sig_key,
                       uint64_t value, int sig_op) {
    LOCKED(c, put_signal_nb_l(c, node, raddr, key, src, len, sig_raddr, sig_key, value, sig_op));
}
