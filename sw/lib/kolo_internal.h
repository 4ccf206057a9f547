/* kolo_internal.h - private structures of libkolo. The register offsets and
 * byte formats come from the NI model's header (docs/ni.md), which must be
 * included before kolo.h (kolo.h then takes its status codes from it). */
#ifndef KOLO_INTERNAL_H
#define KOLO_INTERNAL_H

#include "kolo_ni_model.h"
#include "kolo.h"
#include "kolo_err.h"

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

_Static_assert(sizeof(kolo_desc) == 32, "descriptor is 32 bytes");
_Static_assert(sizeof(kolo_cqe) == 16, "completion entry is 16 bytes");

#define KOLO_BOUNCE_SIZE 256u /* bytes of bounce buffer per SQ slot */
#define KOLO_PIO_INDEX 0xFFFFu

typedef struct kolo_region {
    uintptr_t base;
    size_t len;
    int owned;  /* allocated by kolo_dma_alloc (munmap on free) */
    int mapped; /* dma_map done (must be undone) */
    uintptr_t map_base; /* page-rounded range given to dma_map */
    size_t map_len;
} kolo_region;

struct kolo_dev {
    kolo_backend be;
    void *user;
    char name[16];
    uint16_t node_id;
    uint8_t dims[3];
    unsigned num_ctx;
    unsigned version;
    kolo_region *regions;
    size_t nregions, cap_regions;
    struct {
        int open;
        uintptr_t base;
        size_t len;
        uint8_t key;
        int mapped; /* the window added a DMA region (removed at close) */
    } win[KOLO_NUM_WIN];
    kolo_ctx *ctx_open[KOLO_NI_NUM_CTX];
    void *sim_client; /* kolo_sim_client of the "sim" backend */
    pthread_mutex_t lock; /* (recursive) regions, windows, the table of open contexts */
    /* waits on the device (the simulator's deterministic mode: kolo_sim_client.h);
     * NULL: plain back-off */
    uint32_t (*wait_begin)(void *user);
    int (*wait_idle)(void *user, uint32_t seq, unsigned long *n); /* 1: look at the device now */
    void (*wait_end)(void *user);
    double wait_timeout; /* seconds, 0 = none (env KOLO_WAIT_TIMEOUT) */
    /* NI cycles a wait may go without progress (env KOLO_WAIT_STALL_CYCLES, 0 = no
     * bound); has_cycles: the NI has CYCLES (NI_VERSION minor >= 1) */
    uint64_t stall_cycles;
    int has_cycles;
    /* device gone (kolo.h, kolo_dev_alive): sticky, read and set atomically */
    int gone;
    /* the backend cannot make PIO's 64-byte BAR2 stores (vfio: BARs mapped uncached):
     * contexts opened on it post everything through the send queue (pio_max 0) */
    int no_pio;
    int watch;          /* detection on: set once the device is open */
    int poll_probe;     /* empty polls read STATUS now and then (not in kolo-sim --det) */
    uint32_t alive_off; /* the identity register (BAR0) and the value it must read */
    uint32_t alive_val;
};

typedef struct kolo_slot {
    uint8_t busy;
    uint8_t op;
    uint8_t result_size; /* 0, 4 or 8: bytes to store at result */
    kolo_req *req;
    void *result;
    void *copy_dst; /* bounced get: copy bounce -> copy_dst on completion */
    uint32_t copy_len;
} kolo_slot;

struct kolo_ctx {
    kolo_dev *dev;
    unsigned index;
    unsigned flags;
    void *mem; /* one DMA allocation: SQ, CQ, bounce */
    size_t mem_len;
    kolo_desc *sq;
    volatile kolo_cqe *cq;
    uint8_t *bounce;
    unsigned sq_log2, cq_log2;
    uint32_t sq_n, cq_n;
    uint32_t pi;      /* descriptors posted (free-running) */
    uint32_t cq_head; /* completion entries consumed (free-running) */
    uint32_t cq_ci_written;
    kolo_slot *slots;
    unsigned sq_busy;      /* SQ slots awaiting their completion */
    unsigned pio_inflight; /* PIO operations awaiting their completion */
    unsigned pio_max;
    int fence_pending;
    int sticky_err; /* first error of an operation without a request */
    int stopped;    /* KOLO_E_STOPPED (STATUS.error seen), KOLO_E_GONE (the device gone) */
    unsigned idle_polls; /* kolo_progress/kolo_test calls in a row that found nothing */
    kolo_ctx_stats st;
    pthread_mutex_t lock; /* every call on the context holds it (released while waiting) */
};

/* backends */
/* pe: the slot (kolo-sim --server: the launcher's rank), -1: KOLO_PE */
int kolo_sim_backend_open(kolo_dev *dev, int pe, char *err, size_t errlen);
int kolo_vfio_backend_open(kolo_dev *dev, const char *bdf, char *err, size_t errlen);
int kolo_uart_backend_open(kolo_dev *dev, const char *spec, char *err, size_t errlen);

/* helpers shared by the files of the library (and kolo_set_err, kolo_err.h).
 * Every MMIO access goes through them: on a gone device they return
 * KOLO_E_GONE without touching it; a failed access or a read of all ones is
 * checked against the identity register (kolo_dev_suspect). */
int kolo_mmio_write(kolo_dev *d, int bar, uint32_t off, const void *data, unsigned size);
int kolo_mmio_w32(kolo_dev *d, uint32_t off, uint32_t v);
int kolo_mmio_w64(kolo_dev *d, uint32_t off, uint64_t v);
int kolo_mmio_r32(kolo_dev *d, uint32_t off, uint32_t *v);
int kolo_mmio_r64(kolo_dev *d, uint32_t off, uint64_t *v);
/* 1 once the device is gone (no device access) */
int kolo_dev_gone(const kolo_dev *d);
/* After a failed access or a read of all ones: does the identity register
 * still answer as itself? KOLO_E_GONE (and the device marked gone) if not,
 * else 0. One MMIO read (none once gone, none before the open succeeded). */
int kolo_dev_suspect(kolo_dev *d);
/* The device is gone: complete what ctx has outstanding with KOLO_E_GONE
 * (once) and return KOLO_E_GONE; 0 while the device is alive. The context's
 * lock held. */
int kolo_ctx_gone(kolo_ctx *c);
/* empty kolo_progress/kolo_test calls between two looks at STATUS */
#define KOLO_GONE_POLLS 1024u
/* A wait ends with KOLO_E_STALLED after this many NI cycles without
 * progress (2^31: 8.6 s at 250 MHz; env KOLO_WAIT_STALL_CYCLES) */
#define KOLO_STALL_CYCLES_DEFAULT (1ull << 31)
/* A wait loop on the device:
 *     for (;;) { seq = kolo_wait_begin(d); if (cond) break; rc = kolo_wait_step(d, &n, t0, seq); ... }
 *     kolo_wait_end(d);
 * kolo_wait_step returns KOLO_E_TIMEOUT once the wait (start time t0, from
 * kolo_now()) has lasted longer than dev->wait_timeout, 1 when the backend
 * says it is time to look at the device (a register read: kolo-sim --det),
 * else 0 */
uint32_t kolo_wait_begin(kolo_dev *d);
int kolo_wait_step(kolo_dev *d, unsigned long *n, double t0, uint32_t seq);
void kolo_wait_end(kolo_dev *d);
double kolo_now(void);
/* backend-neutral default back-off */
void kolo_backoff(unsigned long n);
/* parse "dddd:bb:dd.f" or "bb:dd.f" into canonical "dddd:bb:dd.f" (13 chars + NUL) */
int kolo_parse_bdf(const char *s, char out[16]);

/* ---- the queues of a context (kolo_ctx.c), used by the operations (kolo_ops.c);
 * all with the context's lock held ---- */
uint64_t kolo_raddr_key(uint64_t raddr, uint8_t key);
void kolo_desc_init(kolo_desc *d, uint8_t op, uint16_t node, uint32_t len, uint64_t raddr,
                    uint8_t key);
/* arguments of a put/get: 0 or KOLO_E_* */
int kolo_check_rma(kolo_ctx *c, uint16_t node, uint64_t raddr, const void *buf, size_t len);
/* reserve the next SQ slot (may wait, letting go of the lock), then post into it */
int kolo_sq_reserve(kolo_ctx *c, uint32_t *slot);
int kolo_sq_post(kolo_ctx *c, uint32_t s, kolo_desc *d, const kolo_slot *info, kolo_req *req);
/* a PIO operation (descriptor + up to 32 bytes); is PIO usable for len now? */
int kolo_pio_post(kolo_ctx *c, kolo_desc *d, const void *payload, size_t len);
int kolo_pio_usable(kolo_ctx *c, size_t len);
/* wait for a request of this context */
int kolo_wait_req(kolo_ctx *c, kolo_req *r);

/* a public call on context c: the work under its lock (none on a gone device) */
#define LOCKED(c, call)                                                                            \
    do {                                                                                           \
        int rc_;                                                                                   \
        if (!(c))                                                                                  \
            return KOLO_E_INVAL;                                                                   \
        pthread_mutex_lock(&(c)->lock);                                                            \
        rc_ = kolo_ctx_gone(c);                                                                    \
        if (!rc_)                                                                                  \
            rc_ = (call);                                                                          \
        pthread_mutex_unlock(&(c)->lock);                                                          \
        return rc_;                                                                                \
    } while (0)


#endif
