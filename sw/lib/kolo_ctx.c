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
 *
 * Threads: every public call on a context holds the context's mutex; a call
 * that waits (for a free slot, a completion, quiet) lets go of it while it
 * backs off, so other threads keep posting and polling on the same context.
 * A request's `done` is stored with release and read with acquire.
 */
#define _GNU_SOURCE
#include "kolo_internal.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "kolo_sim_client.h"

#define SQ_PI_VALUE(pi) (pi)
#define CQ_CI_VALUE(ci) (ci)

uint64_t kolo_raddr_key(uint64_t raddr, uint8_t key) {
    return (raddr & KOLO_ADDR_MASK) | (uint64_t)key << 48;
}

/* The descriptor must be in memory before the doorbell write reaches the
 * device. ThreadSanitizer does not take __atomic_thread_fence (and has no
 * business with device ordering): the instruction itself there. */
static inline void desc_barrier(void) {
#if defined(__SANITIZE_THREAD__) && (defined(__x86_64__) || defined(__i386__))
    __asm__ __volatile__("mfence" ::: "memory");
#else
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
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
            __atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
        } else if (err) {
            note_error(c, err);
        }
        if (err && sl->req)
            c->st.errors++;
        memset(sl, 0, sizeof *sl);
        c->sq_busy--;
    }
}

/* The device is gone: nothing will complete any more. Every operation still
 * outstanding completes with KOLO_E_GONE (requests: done; the others: the
 * sticky error), and the context stops with it. */
static void fail_gone(kolo_ctx *c) {
    uint32_t s;
    for (s = 0; s < c->sq_n; s++) {
        kolo_slot *sl = &c->slots[s];
        if (!sl->busy)
            continue;
        c->st.errors++;
        if (sl->req) {
            kolo_req *r = sl->req;
            r->result = 0;
            r->status = KOLO_E_GONE;
            r->priv_ctx = NULL;
            __atomic_store_n(&r->done, 1, __ATOMIC_RELEASE); /* gone */
        } else if (!c->sticky_err) {
            c->sticky_err = KOLO_E_GONE;
        }
        memset(sl, 0, sizeof *sl);
    }
    if (c->pio_inflight) {
        c->st.errors += c->pio_inflight;
        if (!c->sticky_err)
            c->sticky_err = KOLO_E_GONE;
    }
    c->sq_busy = 0;
    c->pio_inflight = 0;
    c->fence_pending = 0;
    c->stopped = KOLO_E_GONE;
}

int kolo_ctx_gone(kolo_ctx *c) {
    if (c->stopped == KOLO_E_GONE)
        return KOLO_E_GONE;
    if (!kolo_dev_gone(c->dev))
        return 0;
    fail_gone(c);
    return KOLO_E_GONE;
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

/* read the context's STATUS; sets c->stopped when the NI stopped the queue or
 * the device is gone (STATUS reads all ones or fails, and so does ID) */
static int check_status(kolo_ctx *c) {
    uint64_t st = 0;
    int rc = kolo_mmio_r64(c->dev, KOLO_CSR_DOORBELL(c->index) + KOLO_DB_STATUS, &st);
    if (rc == KOLO_E_GONE)
        return kolo_ctx_gone(c);
    if (rc)
        return KOLO_E_IO;
    if (st & 2u) {
        poll_cq(c);
        c->stopped = KOLO_E_STOPPED;
    }
    return c->stopped;
}

/* ---- the stall bound (issue 18; docs/api.md "Waiting") --------------------------
 * A card that still answers reads but completes nothing (its NI wedged, a
 * packet lost with end-to-end reliability off) would hold a wait for ever.
 * Each time a wait looks at STATUS it also reads the NI's CYCLES and its
 * packet counters STAT_TX_PKTS (retransmissions count there too) and
 * STAT_RX_PKTS: once neither counter has moved, and no completion came, for
 * more than dev->stall_cycles NI cycles, the wait ends with KOLO_E_STALLED
 * (counted in the context's stats). Device time, not wall time: the same
 * under a simulator as on a card, and a slow card that keeps moving packets
 * is never failed. Three MMIO reads per look, none on the fast path. */
typedef struct wait_stall {
    int valid;      /* a sample is held */
    uint64_t since; /* CYCLES when the counters were last seen to move */
    uint64_t tx, rx;
} wait_stall;

static int check_stall(kolo_ctx *c, wait_stall *w) {
    kolo_dev *d = c->dev;
    uint64_t cyc = 0, tx = 0, rx = 0;
    int rc;
    if (!d->stall_cycles || !d->has_cycles)
        return 0;
    rc = kolo_mmio_r64(d, KOLO_CSR_CYCLES, &cyc);
    if (!rc)
        rc = kolo_mmio_r64(d, KOLO_CSR_STAT_TX_PKTS, &tx);
    if (!rc)
        rc = kolo_mmio_r64(d, KOLO_CSR_STAT_RX_PKTS, &rx);
    if (rc == KOLO_E_GONE)
        return kolo_ctx_gone(c);
    if (rc) /* a read failed (the device answers: kolo_dev_suspect): no verdict now */
        return 0;
    if (!w->valid || tx != w->tx || rx != w->rx) {
        w->valid = 1;
        w->since = cyc;
        w->tx = tx;
        w->rx = rx;
        return 0;
    }
    if (cyc - w->since <= d->stall_cycles)
        return 0;
    c->st.stalls++;
    return KOLO_E_STALLED;
}

/* A poll of the program's (kolo_progress, kolo_test): a dead card completes
 * nothing, and a program may poll for ever. After KOLO_GONE_POLLS polls in a
 * row that found nothing, look at STATUS once (one MMIO read per that many
 * empty polls; not under kolo-sim --det, see kolo_backend_sim.c). */
static int poll_user(kolo_ctx *c) {
    int n = poll_cq(c);
    if (n > 0) {
        c->idle_polls = 0;
    } else if (c->dev->poll_probe && ++c->idle_polls >= KOLO_GONE_POLLS) {
        c->idle_polls = 0;
        check_status(c);
    }
    return n;
}

int kolo_progress(kolo_ctx *c) {
    int n;
    if (!c)
        return KOLO_E_INVAL;
    pthread_mutex_lock(&c->lock);
    n = kolo_ctx_gone(c);
    if (!n) {
        n = poll_user(c);
        n = c->stopped ? c->stopped : n;
    }
    pthread_mutex_unlock(&c->lock);
    return n;
}

/* Wait until cond(c, arg) holds, polling completions. */
typedef int (*wait_cond)(kolo_ctx *c, const void *arg);

static int wait_for(kolo_ctx *c, wait_cond cond, const void *arg) {
    unsigned long n = 0;
    double t0 = 0;
    int rc = 0;
    wait_stall stall = {0, 0, 0, 0};
    for (;;) {
        /* what the device has written so far (before looking: kolo_sim_client.h) */
        uint32_t seq = kolo_wait_begin(c->dev);
        if (cond(c, arg))
            break;
        if (poll_cq(c) > 0) {
            stall.valid = 0; /* progress: the stall measure starts again */
            continue;
        }
        if (kolo_ctx_gone(c)) /* (another thread found the device gone) */
            break;
        if (c->stopped) {
            rc = c->stopped;
            break;
        }
        if (cond(c, arg))
            break;
        if (n == 0 && c->dev->wait_timeout > 0)
            t0 = kolo_now();
        pthread_mutex_unlock(&c->lock); /* other threads may post and poll meanwhile */
        rc = kolo_wait_step(c->dev, &n, t0, seq);
        pthread_mutex_lock(&c->lock);
        if (rc < 0)
            break;
        /* now and then look at STATUS: a stopped queue or a gone device never
         * completes (after 4096 steps, then every 1024; or when the backend
         * says so: kolo-sim --det wakes a PE to look before it calls the run
         * stuck); and at the NI's progress (check_stall) */
        if (rc == 1 || (n >= 4096 && (n & 1023) == 0)) {
            rc = check_status(c);
            if (!rc)
                rc = check_stall(c, &stall);
            if (rc)
                break;
        }
    }
    kolo_wait_end(c->dev);
    /* gone: the condition may hold now (requests completed with the error),
     * but the wait's answer is the device's */
    return kolo_ctx_gone(c) ? KOLO_E_GONE : rc;
}

static int cond_slot_free(kolo_ctx *c, const void *arg) {
    (void)arg;
    return !c->slots[c->pi & (c->sq_n - 1)].busy;
}
static int cond_req_done(kolo_ctx *c, const void *arg) {
    (void)c;
    return __atomic_load_n(&((const kolo_req *)arg)->done, __ATOMIC_ACQUIRE) != 0;
}
static int cond_all_done(kolo_ctx *c, const void *arg) {
    (void)arg;
    return c->sq_busy == 0 && c->pio_inflight == 0;
}
static int cond_pio_room(kolo_ctx *c, const void *arg) {
    (void)arg;
    return c->pio_inflight < c->pio_max;
}

/* a request of ours: wait for it (the context's lock held) */
static void cancel_l(kolo_ctx *c, kolo_req *r);

/* ---- posting --------------------------------------------------------------- */
/* Reserve the next SQ slot (waiting for its earlier occupant, or KOLO_E_AGAIN). */
int kolo_sq_reserve(kolo_ctx *c, uint32_t *slot) {
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
int kolo_sq_post(kolo_ctx *c, uint32_t s, kolo_desc *d, const kolo_slot *info, kolo_req *req) {
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
    desc_barrier(); /* descriptor before doorbell */
    {
        int rc =
            kolo_mmio_w32(c->dev, KOLO_CSR_DOORBELL(c->index) + KOLO_DB_SQ_PI, SQ_PI_VALUE(c->pi));
        if (rc == KOLO_E_GONE)
            return kolo_ctx_gone(c);
        if (rc) {
            /* the doorbell never reached the NI: nothing will complete */
            c->stopped = KOLO_E_IO;
            return KOLO_E_IO;
        }
    }
    return 0;
}

/* a PIO operation: descriptor + up to 32 bytes of payload in one 64-byte write */
int kolo_pio_post(kolo_ctx *c, kolo_desc *d, const void *payload, size_t len) {
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
    rc = kolo_mmio_write(c->dev, 2, KOLO_PIO_PAGE(c->index), buf, 64);
    if (rc) {
        c->pio_inflight--;
        return rc == KOLO_E_GONE ? kolo_ctx_gone(c) : rc;
    }
    return 0;
}

int kolo_pio_usable(kolo_ctx *c, size_t len) {
    if ((c->flags & KOLO_CTX_NO_PIO) || c->fence_pending || len > KOLO_PIO_MAX || !c->pio_max)
        return 0;
    if (c->pio_inflight >= c->pio_max)
        poll_cq(c);
    return c->pio_inflight < c->pio_max;
}

void kolo_desc_init(kolo_desc *d, uint8_t op, uint16_t node, uint32_t len, uint64_t raddr,
                      uint8_t key) {
    memset(d, 0, sizeof *d);
    d->op = op;
    d->dst = node;
    d->len = len;
    d->raddr_key = kolo_raddr_key(raddr, key);
}

int kolo_check_rma(kolo_ctx *c, uint16_t node, uint64_t raddr, const void *buf, size_t len) {
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

/* ---- fence, quiet, requests ------------------------------------------------------ */
static int fence_l(kolo_ctx *c) {
    if (!c)
        return KOLO_E_INVAL;
    if (c->sq_busy || c->pio_inflight)
        c->fence_pending = 1;
    return c->stopped;
}

static int quiet_l(kolo_ctx *c) {
    int rc;
    if (!c)
        return KOLO_E_INVAL;
    poll_cq(c);
    if (c->sq_busy || c->pio_inflight) {
        kolo_desc d;
        uint32_t s;
        kolo_req r;
        rc = kolo_sq_reserve(c, &s);
        if (!rc) {
            kolo_desc_init(&d, KOLO_D_NOP, 0, 0, 0, 0);
            c->fence_pending = 1;
            kolo_slot none;
            memset(&none, 0, sizeof none);
            rc = kolo_sq_post(c, s, &d, &none, &r);
        }
        if (!rc)
            rc = wait_for(c, cond_req_done, &r);
        if (!rc)
            rc = r.status;
        if (!rc)
            rc = wait_for(c, cond_all_done, NULL);
        if (rc && !r.done)
            cancel_l(c, &r);
        if (rc)
            return rc;
    }
    c->fence_pending = 0;
    rc = c->sticky_err;
    c->sticky_err = 0;
    return rc ? rc : c->stopped;
}

int kolo_pending_error(const kolo_ctx *cc) {
    kolo_ctx *c = (kolo_ctx *)(uintptr_t)cc; /* the lock is not part of the value */
    int rc;
    if (!c)
        return KOLO_E_INVAL;
    pthread_mutex_lock(&c->lock);
    rc = kolo_ctx_gone(c);
    if (!rc)
        rc = c->sticky_err ? c->sticky_err : c->stopped;
    pthread_mutex_unlock(&c->lock);
    return rc;
}

static int test_l(kolo_ctx *c, kolo_req *r) {
    if (!c || !r)
        return KOLO_E_INVAL;
    if (cond_req_done(c, r))
        return 1;
    poll_user(c);
    if (c->stopped == KOLO_E_GONE) /* (its request completed with the error) */
        return KOLO_E_GONE;
    if (cond_req_done(c, r))
        return 1;
    return c->stopped ? c->stopped : 0;
}

int kolo_wait_req(kolo_ctx *c, kolo_req *r) {
    int rc;
    if (!c || !r)
        return KOLO_E_INVAL;
    rc = wait_for(c, cond_req_done, r);
    if (rc) {
        cancel_l(c, r);
        return rc;
    }
    return r->status;
}

static void cancel_l(kolo_ctx *c, kolo_req *r) {
    if (!c || !r || cond_req_done(c, r) || r->priv_ctx != c)
        return;
    if (r->priv_slot >= 0 && (uint32_t)r->priv_slot < c->sq_n && c->slots[r->priv_slot].req == r)
        c->slots[r->priv_slot].req = NULL;
    r->priv_ctx = NULL;
}

unsigned kolo_ctx_outstanding(const kolo_ctx *cc) {
    kolo_ctx *c = (kolo_ctx *)(uintptr_t)cc;
    unsigned n;
    if (!c)
        return 0;
    pthread_mutex_lock(&c->lock);
    kolo_ctx_gone(c); /* gone: everything completed with the error */
    n = c->sq_busy + c->pio_inflight;
    pthread_mutex_unlock(&c->lock);
    return n;
}

void kolo_ctx_get_stats(const kolo_ctx *cc, kolo_ctx_stats *s) {
    kolo_ctx *c = (kolo_ctx *)(uintptr_t)cc;
    if (!c || !s)
        return;
    pthread_mutex_lock(&c->lock);
    *s = c->st;
    pthread_mutex_unlock(&c->lock);
}


/* ---- the public calls: the work under the context's lock --------------------------- */
int kolo_fence(kolo_ctx *c) { LOCKED(c, fence_l(c)); }
int kolo_quiet(kolo_ctx *c) { LOCKED(c, quiet_l(c)); }
int kolo_test(kolo_ctx *c, kolo_req *r) { LOCKED(c, test_l(c, r)); }
int kolo_wait(kolo_ctx *c, kolo_req *r) { LOCKED(c, r ? kolo_wait_req(c, r) : KOLO_E_INVAL); }
void kolo_req_cancel(kolo_ctx *c, kolo_req *r) {
    if (!c)
        return;
    pthread_mutex_lock(&c->lock);
    cancel_l(c, r);
    pthread_mutex_unlock(&c->lock);
}

unsigned kolo_ctx_index(const kolo_ctx *c) { return c ? c->index : 0; }
kolo_dev *kolo_ctx_dev(kolo_ctx *c) { return c ? c->dev : NULL; }

/* ---- open / close ----------------------------------------------------------------- */
static int ctx_open_l(kolo_dev *d, const kolo_ctx_opts *opts, kolo_ctx **out) {
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
    if (kolo_dev_gone(d))
        return KOLO_E_GONE;
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
    pthread_mutex_init(&c->lock, NULL);
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
    /* a backend without PIO stores (vfio): every operation through the send queue,
     * kolo_put_pio included (before, each put of up to KOLO_PIO_MAX bytes failed
     * there with KOLO_E_IO) */
    if (d->no_pio)
        c->pio_max = 0;
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
        pthread_mutex_destroy(&c->lock);
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
        pthread_mutex_destroy(&c->lock);
        free(c);
        return rc;
    }
    d->ctx_open[idx] = c;
    *out = c;
    return 0;
}

/* the device's table of open contexts is guarded by its lock */
int kolo_ctx_open(kolo_dev *d, const kolo_ctx_opts *opts, kolo_ctx **out) {
    int rc;
    if (!d)
        return ctx_open_l(d, opts, out);
    pthread_mutex_lock(&d->lock);
    rc = ctx_open_l(d, opts, out);
    pthread_mutex_unlock(&d->lock);
    return rc;
}

int kolo_ctx_close(kolo_ctx *c) {
    int rc;
    kolo_dev *d;
    if (!c)
        return 0;
    d = c->dev;
    pthread_mutex_lock(&c->lock);
    rc = kolo_ctx_gone(c);
    if (!rc)
        rc = c->stopped ? c->stopped : quiet_l(c);
    pthread_mutex_unlock(&c->lock);
    /* (a gone device: both return KOLO_E_GONE without touching it) */
    kolo_mmio_w64(d, KOLO_CSR_CTX(c->index) + KOLO_CTX_CTRL, 0);
    {
        uint64_t st; /* flush: the NI is off before the queues are freed */
        kolo_mmio_r64(d, KOLO_CSR_CTX(c->index) + KOLO_CTX_STATUS, &st);
    }
    if (!rc && kolo_dev_gone(d))
        rc = KOLO_E_GONE;
    pthread_mutex_lock(&d->lock);
    d->ctx_open[c->index] = NULL;
    pthread_mutex_unlock(&d->lock);
    kolo_dma_free(d, c->mem);
    free(c->slots);
    pthread_mutex_destroy(&c->lock);
    free(c);
    return rc;
}
