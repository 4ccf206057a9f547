/* kolo.h - libkolo, the host library of the kolo network interface (NI).
 *
 * libkolo drives one NI (docs/ni.md) from user space: it opens the device
 * through a backend (kolo-sim or VFIO), sets up a context (send queue,
 * completion queue, doorbells), registers memory windows that remote NIs may
 * reach, and posts remote memory operations: put, get, atomics, put with
 * signal, fence and quiet, blocking or non-blocking. docs/api.md is the
 * manual; this header is the reference.
 *
 * Conventions
 *  - Every call that can fail returns an int: 0 (KOLO_OK) or a negative
 *    kolo_err code; kolo_strerror() turns any code into a message. Calls that
 *    return a count or an index return it when >= 0.
 *  - Remote memory is named by (node id, remote address, window key): the
 *    target NI checks the access against its window table (docs/ni.md
 *    section 5) and refuses anything outside a window (KOLO_E_REMOTE_*).
 *  - Local buffers (put sources, get destinations) must be reachable by the
 *    NI's DMA. With the simulator every address of the process is; with VFIO
 *    only memory from kolo_dma_alloc(), kolo_mem_register() or a window is.
 *    The blocking calls stage other buffers through DMA-able bounce memory;
 *    the non-blocking ones refuse them (KOLO_E_NOTREG).
 *  - Threads: every call is thread-safe. Each context has a mutex that its
 *    calls hold (a call that waits lets go of it while it backs off, so
 *    other threads keep posting and polling on the same context); the
 *    device has one for its memory regions, windows and context table; the
 *    simulator client one for its MMIO ring. Separate contexts (up to
 *    kolo_dev_num_ctx(), 16) let threads post without contending at all.
 *
 * This header does not include the NI model's header; it includes the
 * generated kolo_ni_regs.h (NI op codes, status codes, registers), which
 * is installed beside it.
 */
#ifndef KOLO_H
#define KOLO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KOLO_LIB_VERSION_MAJOR 1
#define KOLO_LIB_VERSION_MINOR 0

/* ---- NI op codes, completion status codes (docs/ni.md sections 3, 4),
 * generated from rtl/regs/kolo_ni_regs.toml -------------------------------- */
#include "kolo_ni_regs.h"
typedef enum kolo_status_code kolo_status;

/* ---- library error codes -------------------------------------------------- */
/* 0 is success. -1 means a bad argument, as in the routing library
 * (kolo_route.h, whose codes -1..-6 kolo_strerror also knows); libkolo's own
 * codes start at -16, the NI's completion status codes at -33. kolo_route.h
 * defines KOLO_OK as a macro too (0). */
#ifndef KOLO_OK
#define KOLO_OK 0
#endif
enum kolo_err {
    KOLO_E_INVAL = -1,    /* bad argument: NULL pointer, bad flag, op or size */
    KOLO_E_LEN = -16,     /* zero or oversized length */
    KOLO_E_NODE = -17,    /* destination node id outside the torus */
    KOLO_E_ALIGN = -18,   /* atomic address not aligned to its size */
    KOLO_E_NOTREG = -19,  /* local memory not reachable by the NI's DMA */
    KOLO_E_AGAIN = -20,   /* queue full (contexts opened with KOLO_CTX_NOWAIT) */
    KOLO_E_NOMEM = -21,   /* out of host memory */
    KOLO_E_NODEV = -22,   /* no such device, or the backend is not available */
    KOLO_E_BUSY = -23,    /* context or window already in use */
    KOLO_E_IO = -24,      /* an MMIO access failed or the device answered badly */
    KOLO_E_STOPPED = -25, /* the NI stopped the context (STATUS.error) */
    KOLO_E_NOSYS = -26,   /* not supported by this backend or build */
    KOLO_E_RANGE = -27,   /* index out of range, or no free window/context */
    KOLO_E_TIMEOUT = -28, /* KOLO_WAIT_TIMEOUT expired while waiting */
    KOLO_E_ADDR = -29,    /* remote address does not fit in 48 bits */
    KOLO_E_NOROUTE = -30, /* no route to the node: its links are down (host messages, kolo_hmsg.h) */
    KOLO_E_GONE = -31,    /* the device stopped answering: lost power, link or was removed
                             (sticky: kolo_dev_alive; close it and open it anew) */
    KOLO_E_STALLED = -32, /* a wait saw no progress for KOLO_WAIT_STALL_CYCLES NI cycles (the
                             card answers but completes nothing; docs/api.md "Waiting") */
    /* an operation completed with an NI status: KOLO_E_STATUS(st) = -(32 + st) */
    KOLO_E_BAD_OP = -33,
    KOLO_E_BAD_LEN = -34,
    KOLO_E_BAD_DST = -35,
    KOLO_E_BAD_ALIGN = -36,
    KOLO_E_REMOTE_KEY = -37,
    KOLO_E_REMOTE_BOUNDS = -38,
    KOLO_E_REMOTE_RIGHTS = -39,
    KOLO_E_LOCAL_DMA = -40,
    KOLO_E_REMOTE_DMA = -41,
    KOLO_E_BAD_DOORBELL = -42,
    KOLO_E_BAD_CONFIG = -43,
    KOLO_E_NET_TIMEOUT = -44,
    KOLO_E_STATUS_OTHER = -63 /* a status code this library does not know */
};
#define KOLO_E_STATUS(st) ((st) == 0 ? 0 : ((st) <= KOLO_ST_TIMEOUT ? -(32 + (int)(st)) : KOLO_E_STATUS_OTHER))

/* Message for any return code of libkolo or of the routing library (never
 * NULL). The routing library (kolo_route.c) has a kolo_strerror of its own
 * for its codes: a program links one of the two libraries' copies. */
const char *kolo_strerror(int err);

/* ---- devices ----------------------------------------------------------- */
typedef struct kolo_dev kolo_dev;

/* Open an NI. uri:
 *   "sim"               the simulator's NI of this PE (under kolo-run)
 *   "sim:<PE>"          the NI of PE <PE> of a kolo-sim --server (KOLO_SIM_SHM names it)
 *   "vfio:<pci-bdf>"    a board bound to vfio-pci, e.g. vfio:0000:03:00.0
 *                       (the domain may be left out: vfio:03:00.0)
 *   NULL or ""          env KOLO_DEVICE, else "sim" when KOLO_SIM_SHM is set
 * On failure returns a negative code and, if err is not NULL, a message in
 * err. The device's ID register is checked. */
int kolo_open(const char *uri, kolo_dev **out, char *err, size_t errlen);
/* Disable the contexts and windows still open, unmap, free. dev may be NULL.
 * A gone device (KOLO_E_GONE) is not touched: only host resources are freed. */
void kolo_close(kolo_dev *dev);

/* Device gone (docs/api.md "Device gone"). When a card loses power or its
 * PCIe link, or is removed, its registers read as all ones or the reads
 * fail. libkolo checks such a read (and a failed access) against the ID
 * register (the service block's SYS_ID on a chip without an NI): if that no
 * longer answers as itself the device is gone, for good. From then on every
 * call on the device or its contexts returns KOLO_E_GONE without an MMIO
 * access (kolo_dma_alloc returns NULL), waits end with it, the operations
 * still outstanding complete with it (requests: done, status KOLO_E_GONE),
 * and closing frees only host resources. Waits and polls look at the
 * context's STATUS now and then (after 4096 polls of a wait, then every
 * 1024; every 1024 empty kolo_progress/kolo_test calls), so a dead card
 * ends them without KOLO_WAIT_TIMEOUT. A card that answers but completes
 * nothing ends a wait with KOLO_E_STALLED (docs/api.md "Waiting").
 * kolo_dev_alive: 1 while the device answers, 0 once it is gone (sticky),
 * KOLO_E_INVAL for NULL. probe != 0: read the ID register first (one MMIO
 * read; none once gone); probe 0: no device access. */
int kolo_dev_alive(kolo_dev *dev, int probe);

/* A backend of one's own (tests, tools). mmio_write/mmio_read as in
 * docs/ni.md (size 4 or 8 on BAR0, 64 on BAR2), return 0 or -1.
 * dma_map == NULL: every address of the process is DMA-able. progress, if
 * not NULL, is called in every iteration of every wait loop (n counts the
 * iterations of the current wait) and should give the CPU away when n is
 * large; NULL: the library backs off by itself. close may be NULL. */
typedef struct kolo_backend {
    const char *name;
    int (*mmio_write)(void *user, int bar, uint64_t off, const void *data, unsigned size);
    int (*mmio_read)(void *user, int bar, uint64_t off, unsigned size, uint64_t *val);
    int (*dma_map)(void *user, void *addr, size_t len);
    int (*dma_unmap)(void *user, void *addr, size_t len);
    void (*progress)(void *user, unsigned long n);
    void (*close)(void *user);
} kolo_backend;
int kolo_open_backend(const kolo_backend *be, void *user, kolo_dev **out, char *err,
                      size_t errlen);

/* Device facts, read at open. A chip without an NI (the ECP5 board behind
 * its UART) opens for register access only: node and torus from its service
 * block, kolo_dev_version() 0 and kolo_dev_num_ctx() 0 (kolo_ctx_open gives
 * KOLO_E_RANGE). */
uint16_t kolo_dev_node_id(const kolo_dev *dev);        /* {z,y,x}, 4 bits each */
void kolo_dev_torus(const kolo_dev *dev, uint8_t dims[3]);
unsigned kolo_dev_num_ctx(const kolo_dev *dev);
unsigned kolo_dev_version(const kolo_dev *dev);        /* major 15:8, minor 7:0 */
const char *kolo_dev_backend(const kolo_dev *dev);      /* "sim", "vfio", ... */
/* 1 if node is a node id inside the torus */
int kolo_dev_node_valid(const kolo_dev *dev, uint16_t node);
/* node id of node index i = x + X*(y + Y*z); 0xFFFF if outside */
uint16_t kolo_dev_node_of_index(const kolo_dev *dev, unsigned index);
/* Read a BAR0 register (4 or 8 bytes; statistics, STATUS...). */
int kolo_dev_read_reg(kolo_dev *dev, uint32_t off, unsigned size, uint64_t *val);
/* Write a BAR0 register (4 or 8 bytes): tools (kolo-ctl write); programs use
 * the calls below, which own the NI's registers. */
int kolo_dev_write_reg(kolo_dev *dev, uint32_t off, unsigned size, uint64_t val);
/* The kolo_sim_client of a "sim" device, else NULL (for launch-time data:
 * PE number, exchange area; see sw/lib/kolo_sim_client.h). */
void *kolo_dev_sim_client(kolo_dev *dev);

/* ---- DMA-able host memory ---------------------------------------------- */
/* Page-aligned, zeroed memory the NI can reach (VFIO: mapped with
 * iova = virtual address). Free with kolo_dma_free. */
void *kolo_dma_alloc(kolo_dev *dev, size_t len);
void kolo_dma_free(kolo_dev *dev, void *p);
/* Make [addr, addr+len) reachable by DMA (VFIO: page-rounded map). With the
 * simulator it records the range and returns 0. */
int kolo_mem_register(kolo_dev *dev, void *addr, size_t len);
int kolo_mem_unregister(kolo_dev *dev, void *addr);
/* 1 if the NI can reach all of [addr, addr+len) */
int kolo_mem_dma_ok(const kolo_dev *dev, const void *addr, size_t len);

/* ---- windows (remote access; docs/ni.md section 5) ----------------------- */
#define KOLO_NUM_WIN 16
#define KOLO_WIN_R 0x1u  /* GET */
#define KOLO_WIN_W 0x2u  /* PUT */
#define KOLO_WIN_A 0x4u  /* atomics */
#define KOLO_WIN_RWA 0x7u
/* Open window `index` (0..15, or -1 for the lowest free one) over
 * [base, base+len) with rights KOLO_WIN_*, owned by context owner_ctx.
 * check (0..15, or -1 for a default derived from the index) is the upper
 * nibble of the key: key = check << 4 | index. The range is made
 * DMA-able. Returns the window index, *key is the key remote requests
 * must carry. */
int kolo_win_open(kolo_dev *dev, int index, void *base, size_t len, unsigned rights, int check,
                  unsigned owner_ctx, uint8_t *key);
int kolo_win_close(kolo_dev *dev, int index);

/* ---- contexts ------------------------------------------------------------ */
typedef struct kolo_ctx kolo_ctx;

#define KOLO_CTX_NOWAIT 0x1u /* posting to a full queue returns KOLO_E_AGAIN instead of waiting */
#define KOLO_CTX_NO_PIO 0x2u /* never use the BAR2 PIO window */
#define KOLO_CTX_NO_INLINE 0x4u /* never use inline descriptors */
#define KOLO_CTX_PIO_AMO 0x8u /* also send non-fetching atomics through PIO */

typedef struct kolo_ctx_opts {
    int index;            /* NI context, -1: the backend's choice (sim: this PE's) */
    unsigned sq_log2;     /* send queue entries = 1 << sq_log2 (1..15), 0: 8 */
    unsigned cq_log2;     /* completion queue entries, sq_log2..15, 0: sq_log2 + 1 (PIO needs
                             cq > sq: at most cq - sq PIO operations are in flight) */
    unsigned flags;       /* KOLO_CTX_* */
} kolo_ctx_opts;

/* Allocate the queues in DMA-able memory, program and enable the context.
 * opts may be NULL (defaults). */
int kolo_ctx_open(kolo_dev *dev, const kolo_ctx_opts *opts, kolo_ctx **out);
/* Quiet, disable, free. ctx may be NULL. Returns the quiet's result. */
int kolo_ctx_close(kolo_ctx *ctx);
unsigned kolo_ctx_index(const kolo_ctx *ctx);
kolo_dev *kolo_ctx_dev(kolo_ctx *ctx);

/* ---- operations ---------------------------------------------------------- */
/* A request: filled in when its operation completes. Keep it alive and in
 * place until done != 0 (or until kolo_req_cancel). */
typedef struct kolo_req {
    volatile int done; /* 1 when completed */
    int status;        /* 0 or a negative kolo_err (KOLO_E_REMOTE_KEY, ...) */
    uint64_t result;   /* fetching atomics: the old value (4-byte: zero-extended) */
    void *priv_ctx;    /* library-private */
    int priv_slot;
} kolo_req;

/* Atomic operations (the descriptor op codes of docs/ni.md section 3). */
enum kolo_amo {
    KOLO_AMO_ADD = KOLO_D_ADD,
    KOLO_AMO_XOR = KOLO_D_XOR,
    KOLO_AMO_FETCH_ADD = KOLO_D_FETCH_ADD,
    KOLO_AMO_FETCH_XOR = KOLO_D_FETCH_XOR,
    KOLO_AMO_SWAP = KOLO_D_SWAP,
    KOLO_AMO_CSWAP = KOLO_D_CSWAP,
    KOLO_AMO_FETCH_AND = KOLO_D_FETCH_AND,
    KOLO_AMO_FETCH_OR = KOLO_D_FETCH_OR,
    KOLO_AMO_AND = KOLO_D_AND,
    KOLO_AMO_OR = KOLO_D_OR
};
/* 1 for the atomics that return the old value */
int kolo_amo_fetches(int op);

/* Limits */
#define KOLO_MAX_LEN (1u << 30)  /* bytes per put/get */
#define KOLO_INLINE_MAX 16       /* bytes of an inline put */
#define KOLO_PIO_MAX 32          /* bytes of a PIO put */
#define KOLO_ADDR_MASK 0xFFFFFFFFFFFFull /* remote addresses have 48 bits */

/* Put len bytes from src to (node, raddr) in the window with key.
 * Blocking form: returns when src may be reused (the data is in the NI or
 * in a bounce buffer, or - for long puts - delivered); remote completion is
 * kolo_quiet()'s. Path: PIO (<= 32 bytes), inline (<= 16), bounce buffer
 * (<= 256), else DMA from src and wait for the put's completion. */
int kolo_put(kolo_ctx *ctx, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
             size_t len);
/* Non-blocking: src must stay unchanged until the request is done (req) or
 * until kolo_quiet (req == NULL; an error is then reported by kolo_quiet). */
int kolo_put_nb(kolo_ctx *ctx, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                size_t len, kolo_req *req);
/* Explicit paths: inline descriptor (len <= 16), PIO write (len <= 32). */
int kolo_put_inline(kolo_ctx *ctx, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                    size_t len);
int kolo_put_pio(kolo_ctx *ctx, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                 size_t len);

/* Get len bytes from (node, raddr) into dst. Blocking: returns with the data
 * (or the error); non-blocking: data valid when req is done / after quiet. */
int kolo_get(kolo_ctx *ctx, uint16_t node, uint64_t raddr, uint8_t key, void *dst, size_t len);
int kolo_get_nb(kolo_ctx *ctx, uint16_t node, uint64_t raddr, uint8_t key, void *dst, size_t len,
                kolo_req *req);

/* Atomic op (enum kolo_amo) of size 4 or 8 at (node, raddr), raddr aligned to
 * size. operand: the value (add, xor, and, or, swap, cswap's new value);
 * compare: CSWAP's compare value. old (may be NULL): the old value of a
 * fetching op. Non-fetching ops return when posted (completion at quiet). */
int kolo_atomic(kolo_ctx *ctx, int op, unsigned size, uint16_t node, uint64_t raddr, uint8_t key,
                uint64_t operand, uint64_t compare, uint64_t *old);
/* Non-blocking: for fetching ops the old value lands in *result (size bytes,
 * may be NULL) and in req->result when done. */
int kolo_atomic_nb(kolo_ctx *ctx, int op, unsigned size, uint16_t node, uint64_t raddr,
                   uint8_t key, uint64_t operand, uint64_t compare, void *result, kolo_req *req);

/* Put with signal: the put, then (FENCE) the signal: sig_op KOLO_SIG_SET
 * writes the 8-byte value at sig_raddr, KOLO_SIG_ADD adds it atomically.
 * The signal is never seen before the data. Blocking form as kolo_put;
 * the _nb form leaves src in use until kolo_quiet. */
#define KOLO_SIG_SET 0
#define KOLO_SIG_ADD 1
int kolo_put_signal(kolo_ctx *ctx, uint16_t node, uint64_t raddr, uint8_t key, const void *src,
                    size_t len, uint64_t sig_raddr, uint8_t sig_key, uint64_t value, int sig_op);
int kolo_put_signal_nb(kolo_ctx *ctx, uint16_t node, uint64_t raddr, uint8_t key,
                       const void *src, size_t len, uint64_t sig_raddr, uint8_t sig_key,
                       uint64_t value, int sig_op);

/* Fence: the next operation of ctx starts only after every earlier one has
 * its response (its descriptor carries FENCE). */
int kolo_fence(kolo_ctx *ctx);
/* Quiet: wait until every operation of ctx has completed (a NOP with
 * FENCE|COMPLETE). Returns 0 or the first error of the operations posted
 * without a request since the last quiet (then cleared). */
int kolo_quiet(kolo_ctx *ctx);

/* Completion polling: consume the completion entries that have arrived;
 * returns how many (>= 0) or an error (context stopped). */
int kolo_progress(kolo_ctx *ctx);
/* The first error of the operations posted without a request since the last
 * quiet (what kolo_quiet would return), without clearing it: 0 or KOLO_E_*.
 * Lets a program that waits on memory notice that its own earlier operation
 * failed (for example its destination became unreachable). */
int kolo_pending_error(const kolo_ctx *ctx);
/* 1 if req is done, 0 if not yet (after polling), < 0 on a context error. */
int kolo_test(kolo_ctx *ctx, kolo_req *req);
/* Wait for req; returns req->status (or a context error). */
int kolo_wait(kolo_ctx *ctx, kolo_req *req);
/* Forget req (its operation completes without reporting to it). */
void kolo_req_cancel(kolo_ctx *ctx, kolo_req *req);
/* Operations posted and not yet completed (SQ and PIO). */
unsigned kolo_ctx_outstanding(const kolo_ctx *ctx);

/* Counters of this context since open (for benchmarks and tests). stalls:
 * waits that ended with KOLO_E_STALLED. */
typedef struct kolo_ctx_stats {
    uint64_t sq_posts, pio_posts, inline_posts, bounce_posts, completions, errors, doorbells,
        waits_full, stalls;
} kolo_ctx_stats;
void kolo_ctx_get_stats(const kolo_ctx *ctx, kolo_ctx_stats *s);

#ifdef __cplusplus
}
#endif
#endif
