/* kolo_dev.c - libkolo: devices, backends, DMA memory, windows, errors. */
#define _GNU_SOURCE
#include "kolo_internal.h"
#include "kolo_svc_regs.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* ---- errors ------------------------------------------------------------------ */
const char *kolo_strerror(int err) {
    switch (err) {
    case KOLO_OK: return "success";
    case KOLO_E_INVAL: return "invalid argument (NULL pointer, bad flag, op or size)";
    /* the routing library's codes (kolo_route.h) */
    case -2: return "route uses a port absent in this topology";
    case -3: return "route has more hops than the bound";
    case -4: return "route ejects at a node other than the destination";
    case -5: return "deadlock check found a cycle";
    case -6: return "workspace too small";
    case KOLO_E_LEN: return "zero or oversized length";
    case KOLO_E_NODE: return "destination node outside the torus";
    case KOLO_E_ALIGN: return "atomic address not aligned to its size";
    case KOLO_E_NOTREG: return "local memory not registered for DMA";
    case KOLO_E_AGAIN: return "queue full, try again";
    case KOLO_E_NOMEM: return "out of memory";
    case KOLO_E_NODEV: return "no such device or backend not available";
    case KOLO_E_BUSY: return "context or window already in use";
    case KOLO_E_IO: return "device access failed";
    case KOLO_E_STOPPED: return "context stopped by the NI";
    case KOLO_E_NOSYS: return "not supported by this backend";
    case KOLO_E_RANGE: return "index out of range or no free resource";
    case KOLO_E_TIMEOUT: return "wait timed out (KOLO_WAIT_TIMEOUT)";
    case KOLO_E_ADDR: return "remote address does not fit in 48 bits";
    case KOLO_E_NOROUTE: return "no route to the node (its links are down)";
    case KOLO_E_GONE: return "the device stopped answering: lost power, link or was removed";
    case KOLO_E_STALLED:
        return "wait stalled: the NI made no progress for KOLO_WAIT_STALL_CYCLES cycles";
    case KOLO_E_BAD_OP: return "NI: unknown operation or reserved bits set";
    case KOLO_E_BAD_LEN: return "NI: zero or oversized length";
    case KOLO_E_BAD_DST: return "NI: destination outside the torus or unreachable";
    case KOLO_E_BAD_ALIGN: return "NI: atomic address not aligned";
    case KOLO_E_REMOTE_KEY: return "remote: no enabled window with this key";
    case KOLO_E_REMOTE_BOUNDS: return "remote: access outside the window";
    case KOLO_E_REMOTE_RIGHTS: return "remote: window does not allow this access";
    case KOLO_E_LOCAL_DMA: return "NI: local host memory access failed";
    case KOLO_E_REMOTE_DMA: return "remote: host memory access failed";
    case KOLO_E_BAD_DOORBELL: return "NI: producer index beyond the queue";
    case KOLO_E_BAD_CONFIG: return "NI: context enabled with a bad configuration";
    case KOLO_E_NET_TIMEOUT: return "NI: no response in time";
    case KOLO_E_STATUS_OTHER: return "NI: unknown completion status";
    default: return "unknown error code";
    }
}

int kolo_amo_fetches(int op) {
    switch (op) {
    case KOLO_AMO_FETCH_ADD:
    case KOLO_AMO_FETCH_XOR:
    case KOLO_AMO_SWAP:
    case KOLO_AMO_CSWAP:
    case KOLO_AMO_FETCH_AND:
    case KOLO_AMO_FETCH_OR: return 1;
    default: return 0;
    }
}

/* ---- device gone (kolo.h, kolo_dev_alive; docs/api.md "Device gone") -------------------
 * A card that lost power or its link answers every read with all ones (a
 * real host's root port: Unsupported Request) or with an error (VFIO's
 * backend, kolo-sim's server after its read timeout), and drops writes. A
 * read of all ones can be a value (a counter, E2E_TIMEOUT), so it is only a
 * suspicion: the identity register settles it (ID "KOLO", which can never
 * read all ones; the service block's SYS_ID on a chip without an NI). The
 * fast path reads nothing: suspicions come from reads the library makes
 * anyway, and from the looks at STATUS of waits and polls (kolo_ctx.c). */
_Static_assert(KOLO_CSR_ID_RESET == KOLO_NI_ID && KOLO_CSR_ID_RESET != 0xFFFFFFFFu &&
                   KOLO_SVC_SYS_ID_RESET != 0xFFFFFFFFu,
               "the identity registers can never read all ones");

int kolo_dev_gone(const kolo_dev *d) { return __atomic_load_n(&d->gone, __ATOMIC_ACQUIRE); }

static int dev_mark_gone(kolo_dev *d) {
    __atomic_store_n(&d->gone, 1, __ATOMIC_RELEASE);
    return KOLO_E_GONE;
}

/* one raw read of the identity register: does it answer as itself? */
static int dev_identity_ok(kolo_dev *d) {
    uint64_t v = 0;
    return d->be.mmio_read(d->user, 0, d->alive_off, 4, &v) == 0 && (uint32_t)v == d->alive_val;
}

int kolo_dev_suspect(kolo_dev *d) {
    if (!d->watch) /* kolo_open's probe: its own errors */
        return 0;
    if (kolo_dev_gone(d))
        return KOLO_E_GONE;
    return dev_identity_ok(d) ? 0 : dev_mark_gone(d);
}

int kolo_dev_alive(kolo_dev *d, int probe) {
    if (!d)
        return KOLO_E_INVAL;
    if (probe && d->watch && !kolo_dev_gone(d) && !dev_identity_ok(d))
        dev_mark_gone(d);
    return !kolo_dev_gone(d);
}

/* ---- MMIO helpers ----------------------------------------------------------- */
int kolo_mmio_write(kolo_dev *d, int bar, uint32_t off, const void *data, unsigned size) {
    int rc;
    if (kolo_dev_gone(d))
        return KOLO_E_GONE; /* nothing reaches a gone device */
    if (d->be.mmio_write(d->user, bar, off, data, size) == 0)
        return 0;
    rc = kolo_dev_suspect(d);
    return rc ? rc : KOLO_E_IO;
}
int kolo_mmio_w32(kolo_dev *d, uint32_t off, uint32_t v) {
    return kolo_mmio_write(d, 0, off, &v, 4);
}
int kolo_mmio_w64(kolo_dev *d, uint32_t off, uint64_t v) {
    return kolo_mmio_write(d, 0, off, &v, 8);
}

static int mmio_read(kolo_dev *d, uint32_t off, unsigned size, uint64_t *v) {
    uint64_t x = 0;
    int rc;
    if (kolo_dev_gone(d))
        return KOLO_E_GONE;
    if (d->be.mmio_read(d->user, 0, off, size, &x)) {
        rc = kolo_dev_suspect(d);
        return rc ? rc : KOLO_E_IO;
    }
    if (size == 4)
        x &= 0xFFFFFFFFu;
    if (x == (size == 4 ? 0xFFFFFFFFu : ~0ull)) { /* all ones: a value, or a card gone? */
        rc = kolo_dev_suspect(d);
        if (rc)
            return rc;
    }
    *v = x;
    return 0;
}
int kolo_mmio_r32(kolo_dev *d, uint32_t off, uint32_t *v) {
    uint64_t x = 0;
    int rc = mmio_read(d, off, 4, &x);
    if (!rc)
        *v = (uint32_t)x;
    return rc;
}
int kolo_mmio_r64(kolo_dev *d, uint32_t off, uint64_t *v) { return mmio_read(d, off, 8, v); }

/* ---- waiting -------------------------------------------------------------------- */
double kolo_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

void kolo_backoff(unsigned long n) {
    if (n < 64) {
        cpu_relax();
    } else if (n < 1024) {
        sched_yield();
    } else {
        struct timespec ts = {0, n < 8192 ? 10000 : 100000};
        nanosleep(&ts, NULL);
    }
}

uint32_t kolo_wait_begin(kolo_dev *d) { return d->wait_begin ? d->wait_begin(d->user) : 0; }
void kolo_wait_end(kolo_dev *d) {
    if (d->wait_end)
        d->wait_end(d->user);
}

int kolo_wait_step(kolo_dev *d, unsigned long *n, double t0, uint32_t seq) {
    unsigned long i = *n;
    int look = 0;
    if (d->wait_idle) {
        look = d->wait_idle(d->user, seq, n);
    } else {
        (*n)++;
        if (d->be.progress)
            d->be.progress(d->user, i);
        else
            kolo_backoff(i);
    }
    if (d->wait_timeout > 0 && (i & 63) == 63 && kolo_now() - t0 > d->wait_timeout)
        return KOLO_E_TIMEOUT;
    return look;
}

/* ---- open / close -------------------------------------------------------- */
int kolo_parse_bdf(const char *s, char out[16]) {
    unsigned dom = 0, bus, dev, fn;
    int n = 0;
    if (!s)
        return KOLO_E_INVAL;
    if (sscanf(s, "%4x:%2x:%2x.%1x%n", &dom, &bus, &dev, &fn, &n) == 4 && s[n] == 0 &&
        n == 12) {
    } else if (n = 0, dom = 0, sscanf(s, "%2x:%2x.%1x%n", &bus, &dev, &fn, &n) == 3 && s[n] == 0 &&
               n == 7) {
    } else {
        return KOLO_E_INVAL;
    }
    /* the scans accept leading blanks and signs; demand plain hex digits */
    for (const char *p = s; *p; p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') || (*p >= 'A' && *p <= 'F') ||
              *p == ':' || *p == '.'))
            return KOLO_E_INVAL;
    if (dev > 0x1f || fn > 7)
        return KOLO_E_INVAL;
    snprintf(out, 16, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
    return 0;
}

/* The node id (bits 11:0) and the torus (sizes minus one in bits 3:0, 7:4,
 * 11:8), as the NI's NODE_ID/TORUS and the service block's SYS_NODE_ID/
 * SYS_TORUS both hold them. */
_Static_assert(KOLO_SVC_SYS_NODE_ID_ID_MASK == 0xFFFu && KOLO_SVC_SYS_TORUS_XM1_SHIFT == 0 &&
                   KOLO_SVC_SYS_TORUS_YM1_SHIFT == 4 && KOLO_SVC_SYS_TORUS_ZM1_SHIFT == 8 &&
                   KOLO_SVC_SYS_TORUS_ZM1_MASK == 0xF00u,
               "SYS_NODE_ID/SYS_TORUS are laid out as the NI's NODE_ID/TORUS");
static void dev_set_place(kolo_dev *d, uint32_t node, uint32_t torus) {
    d->node_id = (uint16_t)(node & 0xfff);
    d->dims[0] = (uint8_t)((torus & 0xf) + 1);
    d->dims[1] = (uint8_t)(((torus >> 4) & 0xf) + 1);
    d->dims[2] = (uint8_t)(((torus >> 8) & 0xf) + 1);
}

/* A chip without an NI (the ECP5 board: HOST_IF 1, docs/boards.md) answers
 * the NI's registers with an error; its service block still answers in its
 * window. Such a device opens for register access only: the node and torus
 * come from the service block, version 0 and no contexts (kolo_ctx_open gives
 * KOLO_E_RANGE), so kolo-ctl works on it. 1: opened so; 0: not a service
 * block either. */
static int dev_probe_svc_only(kolo_dev *d) {
    uint32_t id = 0, node = 0, torus = 0;
    if (kolo_mmio_r32(d, KOLO_SVC_HOST_BASE + KOLO_SVC_SYS_ID, &id) || id != KOLO_SVC_SYS_ID_RESET ||
        kolo_mmio_r32(d, KOLO_SVC_HOST_BASE + KOLO_SVC_SYS_NODE_ID, &node) ||
        kolo_mmio_r32(d, KOLO_SVC_HOST_BASE + KOLO_SVC_SYS_TORUS, &torus))
        return 0;
    d->version = 0;
    d->num_ctx = 0;
    dev_set_place(d, node, torus);
    d->alive_off = KOLO_SVC_HOST_BASE + KOLO_SVC_SYS_ID;
    d->alive_val = KOLO_SVC_SYS_ID_RESET;
    return kolo_dev_node_valid(d, d->node_id);
}

static int dev_probe(kolo_dev *d, char *err, size_t errlen) {
    uint32_t id = 0, ver = 0, node = 0, torus = 0, nctx = 0;
    if (kolo_mmio_r32(d, KOLO_CSR_ID, &id)) {
        if (dev_probe_svc_only(d)) {
            d->watch = 1;
            return 0;
        }
        kolo_set_err(err, errlen,
                     "kolo: %s: reading the NI's ID register failed, and no service block answers either",
                     d->name);
        return KOLO_E_IO;
    }
    if (kolo_mmio_r32(d, KOLO_CSR_VERSION, &ver) || kolo_mmio_r32(d, KOLO_CSR_NODE_ID, &node) ||
        kolo_mmio_r32(d, KOLO_CSR_TORUS, &torus) || kolo_mmio_r32(d, KOLO_CSR_NUM_CTX, &nctx)) {
        kolo_set_err(err, errlen, "kolo: %s: reading the NI's ID registers failed", d->name);
        return KOLO_E_IO;
    }
    if (id == 0xffffffffu && ver == 0xffffffffu && node == 0xffffffffu) {
        /* every register all ones: what a read of a card that is not there returns (or of
         * a chip without an NI whose bus answers unused addresses so: its service block) */
        if (dev_probe_svc_only(d)) {
            d->watch = 1;
            return 0;
        }
        kolo_set_err(err, errlen,
                     "kolo: %s: the card does not answer (its registers read all ones): no power, "
                     "its PCIe link is down, or it was removed",
                     d->name);
        return KOLO_E_GONE;
    }
    if (id != KOLO_NI_ID) {
        kolo_set_err(err, errlen, "kolo: %s: ID register is %#x, not %#x (\"KOLO\")", d->name, id,
                     KOLO_NI_ID);
        return KOLO_E_NODEV;
    }
    if ((ver >> 8) != (KOLO_NI_VERSION >> 8)) {
        kolo_set_err(err, errlen, "kolo: %s: NI version %u.%u, library speaks %u.x", d->name,
                     ver >> 8, ver & 0xff, KOLO_NI_VERSION >> 8);
        return KOLO_E_NODEV;
    }
    d->version = ver;
    d->has_cycles = (ver & 0xff) >= 1; /* 1.1: CYCLES (older NIs read 0 there) */
    dev_set_place(d, node, torus);
    d->num_ctx = nctx > KOLO_NI_NUM_CTX ? KOLO_NI_NUM_CTX : nctx;
    if (!d->num_ctx) {
        kolo_set_err(err, errlen, "kolo: %s: NI reports no contexts", d->name);
        return KOLO_E_NODEV;
    }
    if (!kolo_dev_node_valid(d, d->node_id)) {
        kolo_set_err(err, errlen, "kolo: %s: node id %#x outside the %ux%ux%u torus", d->name,
                     d->node_id, d->dims[0], d->dims[1], d->dims[2]);
        return KOLO_E_NODEV;
    }
    d->alive_off = KOLO_CSR_ID;
    d->alive_val = KOLO_CSR_ID_RESET;
    d->watch = 1; /* from here on a failed access or all ones may mean the device is gone */
    return 0;
}

static kolo_dev *dev_new(void) {
    kolo_dev *d = (kolo_dev *)calloc(1, sizeof *d);
    if (!d)
        return NULL;
    {
        pthread_mutexattr_t ma; /* recursive: window calls register memory */
        pthread_mutexattr_init(&ma);
        pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
        pthread_mutex_init(&d->lock, &ma);
        pthread_mutexattr_destroy(&ma);
    }
    d->stall_cycles = KOLO_STALL_CYCLES_DEFAULT;
    d->poll_probe = 1;
    return d;
}

/* The wait bounds from the environment (docs/api.md "Waiting"): KOLO_WAIT_TIMEOUT
 * seconds (>= 0, 0: none), KOLO_WAIT_STALL_CYCLES NI cycles (decimal or 0x hex, 0:
 * none). A value that is not one is refused (KOLO_E_INVAL, naming it): read as 0 it
 * would turn a bound off without a word. */
static int dev_env(kolo_dev *d, char *err, size_t errlen) {
    const char *t = getenv("KOLO_WAIT_TIMEOUT");
    char *end;
    if (t && *t) {
        double v;
        errno = 0;
        v = strtod(t, &end);
        if (end == t || *end || errno || !(v >= 0.0 && v < 1e12)) {
            kolo_set_err(err, errlen,
                         "kolo_open: bad KOLO_WAIT_TIMEOUT \"%s\" (want seconds >= 0; 0 or "
                         "unset: no bound)",
                         t);
            return KOLO_E_INVAL;
        }
        d->wait_timeout = v;
    }
    t = getenv("KOLO_WAIT_STALL_CYCLES");
    if (t && *t) {
        unsigned long long v;
        errno = 0;
        v = strtoull(t, &end, 0);
        if (end == t || *end || errno || strchr(t, '-')) {
            kolo_set_err(err, errlen,
                         "kolo_open: bad KOLO_WAIT_STALL_CYCLES \"%s\" (want a count of NI "
                         "cycles; 0: no bound)",
                         t);
            return KOLO_E_INVAL;
        }
        d->stall_cycles = (uint64_t)v;
    }
    return 0;
}

static void dev_free_new(kolo_dev *d) {
    pthread_mutex_destroy(&d->lock);
    free(d);
}

int kolo_open_backend(const kolo_backend *be, void *user, kolo_dev **out, char *err,
                      size_t errlen) {
    kolo_dev *d;
    int rc;
    if (out)
        *out = NULL;
    if (!be || !out || !be->mmio_write || !be->mmio_read) {
        kolo_set_err(err, errlen, "kolo_open_backend: NULL backend, output or MMIO function");
        return KOLO_E_INVAL;
    }
    d = dev_new();
    if (!d) {
        kolo_set_err(err, errlen, "kolo: out of memory");
        return KOLO_E_NOMEM;
    }
    rc = dev_env(d, err, errlen);
    if (rc) {
        dev_free_new(d);
        return rc;
    }
    d->be = *be;
    d->user = user;
    snprintf(d->name, sizeof d->name, "%s", be->name ? be->name : "custom");
    rc = dev_probe(d, err, errlen);
    if (rc) {
        pthread_mutex_destroy(&d->lock);
        free(d); /* the caller keeps its backend */
        return rc;
    }
    *out = d;
    return 0;
}

int kolo_open(const char *uri, kolo_dev **out, char *err, size_t errlen) {
    kolo_dev *d;
    int rc;
    if (out)
        *out = NULL;
    if (!out) {
        kolo_set_err(err, errlen, "kolo_open: NULL output pointer");
        return KOLO_E_INVAL;
    }
    if (!uri || !*uri) {
        uri = getenv("KOLO_DEVICE");
        if (!uri || !*uri) {
            const char *shm = getenv("KOLO_SIM_SHM");
            if (shm && *shm) {
                uri = "sim";
            } else {
                kolo_set_err(err, errlen,
                             "kolo_open: no device given (set KOLO_DEVICE=vfio:<bdf>, or run "
                             "under kolo-run)");
                return KOLO_E_NODEV;
            }
        }
    }
    d = dev_new();
    if (!d) {
        kolo_set_err(err, errlen, "kolo: out of memory");
        return KOLO_E_NOMEM;
    }
    rc = dev_env(d, err, errlen);
    if (rc) {
        dev_free_new(d);
        return rc;
    }
    if (!strcmp(uri, "sim")) {
        rc = kolo_sim_backend_open(d, -1, err, errlen);
    } else if (!strncmp(uri, "sim:", 4)) {
        char *end;
        long pe = strtol(uri + 4, &end, 10);
        if (end == uri + 4 || *end || pe < 0 || pe > 65535) {
            kolo_set_err(err, errlen, "kolo_open: bad device \"%s\" (sim:<PE>)", uri);
            rc = KOLO_E_INVAL;
        } else {
            rc = kolo_sim_backend_open(d, (int)pe, err, errlen);
        }
    } else if (!strncmp(uri, "vfio:", 5)) {
        rc = kolo_vfio_backend_open(d, uri + 5, err, errlen);
    } else if (!strncmp(uri, "uart:", 5)) {
        rc = kolo_uart_backend_open(d, uri + 5, err, errlen);
    } else {
        kolo_set_err(err, errlen,
                     "kolo_open: unknown device \"%s\" (want \"sim\", \"sim:<PE>\", \"vfio:<bdf>\" or "
                     "\"uart:<tty>[@baud]\")",
                     uri);
        rc = KOLO_E_INVAL;
    }
    if (rc) {
        pthread_mutex_destroy(&d->lock);
        free(d);
        return rc;
    }
    rc = dev_probe(d, err, errlen);
    if (rc) {
        if (d->be.close)
            d->be.close(d->user);
        pthread_mutex_destroy(&d->lock);
        free(d);
        return rc;
    }
    *out = d;
    return 0;
}

void kolo_close(kolo_dev *d) {
    unsigned i;
    if (!d)
        return;
    for (i = 0; i < KOLO_NI_NUM_CTX; i++)
        if (d->ctx_open[i])
            kolo_ctx_close(d->ctx_open[i]);
    for (i = 0; i < KOLO_NUM_WIN; i++)
        if (d->win[i].open)
            kolo_win_close(d, (int)i);
    while (d->nregions) {
        kolo_region *r = &d->regions[d->nregions - 1];
        if (r->owned)
            kolo_dma_free(d, (void *)r->base);
        else
            kolo_mem_unregister(d, (void *)r->base);
    }
    free(d->regions);
    if (d->be.close)
        d->be.close(d->user);
    pthread_mutex_destroy(&d->lock);
    free(d);
}

uint16_t kolo_dev_node_id(const kolo_dev *d) { return d ? d->node_id : 0xFFFF; }
void kolo_dev_torus(const kolo_dev *d, uint8_t dims[3]) {
    if (d && dims)
        memcpy(dims, d->dims, 3);
}
unsigned kolo_dev_num_ctx(const kolo_dev *d) { return d ? d->num_ctx : 0; }
unsigned kolo_dev_version(const kolo_dev *d) { return d ? d->version : 0; }
const char *kolo_dev_backend(const kolo_dev *d) { return d ? d->name : ""; }
void *kolo_dev_sim_client(kolo_dev *d) { return d ? d->sim_client : NULL; }

int kolo_dev_node_valid(const kolo_dev *d, uint16_t node) {
    if (!d || node > 0xfff)
        return 0;
    return (node & 0xf) < d->dims[0] && ((node >> 4) & 0xf) < d->dims[1] &&
           ((node >> 8) & 0xf) < d->dims[2];
}

uint16_t kolo_dev_node_of_index(const kolo_dev *d, unsigned i) {
    unsigned X, Y, Z;
    if (!d)
        return 0xFFFF;
    X = d->dims[0];
    Y = d->dims[1];
    Z = d->dims[2];
    if (i >= X * Y * Z)
        return 0xFFFF;
    return (uint16_t)((i % X) | ((i / X) % Y) << 4 | (i / (X * Y)) << 8);
}

int kolo_dev_read_reg(kolo_dev *d, uint32_t off, unsigned size, uint64_t *val) {
    if (!d || !val || (size != 4 && size != 8) || (off & (size - 1)) || off >= KOLO_BAR0_SIZE)
        return KOLO_E_INVAL;
    return mmio_read(d, off, size, val);
}

int kolo_dev_write_reg(kolo_dev *d, uint32_t off, unsigned size, uint64_t val) {
    if (!d || (size != 4 && size != 8) || (off & (size - 1)) || off >= KOLO_BAR0_SIZE)
        return KOLO_E_INVAL;
    return kolo_mmio_write(d, 0, off, &val, size);
}

/* ---- DMA memory ------------------------------------------------------------- */
static size_t page_size(void) {
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

static kolo_region *region_find(const kolo_dev *d, uintptr_t a, size_t len) {
    size_t i;
    for (i = 0; i < d->nregions; i++) {
        kolo_region *r = &d->regions[i];
        if (a >= r->base && len <= r->len && a - r->base <= r->len - len)
            return r;
    }
    return NULL;
}

static int region_add(kolo_dev *d, uintptr_t base, size_t len, int owned) {
    kolo_region *r;
    if (d->nregions == d->cap_regions) {
        size_t cap = d->cap_regions ? 2 * d->cap_regions : 8;
        kolo_region *n = (kolo_region *)realloc(d->regions, cap * sizeof *n);
        if (!n)
            return KOLO_E_NOMEM;
        d->regions = n;
        d->cap_regions = cap;
    }
    r = &d->regions[d->nregions];
    memset(r, 0, sizeof *r);
    r->base = base;
    r->len = len;
    r->owned = owned;
    if (d->be.dma_map) {
        size_t ps = page_size();
        r->map_base = base & ~(uintptr_t)(ps - 1);
        r->map_len = ((base + len + ps - 1) & ~(uintptr_t)(ps - 1)) - r->map_base;
        if (d->be.dma_map(d->user, (void *)r->map_base, r->map_len))
            return KOLO_E_IO;
        r->mapped = 1;
    }
    d->nregions++;
    return 0;
}

static void region_del(kolo_dev *d, size_t i) {
    kolo_region *r = &d->regions[i];
    if (r->mapped && d->be.dma_unmap)
        d->be.dma_unmap(d->user, (void *)r->map_base, r->map_len);
    if (r->owned)
        munmap((void *)r->base, r->len);
    d->regions[i] = d->regions[--d->nregions];
}

static void *dma_alloc_l(kolo_dev *d, size_t len) {
    size_t ps = page_size();
    void *p;
    if (!d || !len || len > ((size_t)1 << 40))
        return NULL;
    len = (len + ps - 1) & ~(ps - 1);
    p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    if (region_add(d, (uintptr_t)p, len, 1)) {
        munmap(p, len);
        return NULL;
    }
    return p;
}

static void dma_free_l(kolo_dev *d, void *p) {
    size_t i;
    if (!d || !p)
        return;
    for (i = 0; i < d->nregions; i++)
        if (d->regions[i].base == (uintptr_t)p && d->regions[i].owned) {
            region_del(d, i);
            return;
        }
}

static int mem_register_l(kolo_dev *d, void *addr, size_t len) {
    if (!d || !addr)
        return KOLO_E_INVAL;
    if (!len || (uintptr_t)addr + len < (uintptr_t)addr)
        return KOLO_E_LEN;
    return region_add(d, (uintptr_t)addr, len, 0);
}

static int mem_unregister_l(kolo_dev *d, void *addr) {
    size_t i;
    if (!d || !addr)
        return KOLO_E_INVAL;
    for (i = d->nregions; i-- > 0;)
        if (d->regions[i].base == (uintptr_t)addr && !d->regions[i].owned) {
            region_del(d, i);
            return 0;
        }
    return KOLO_E_NOTREG;
}

static int mem_dma_ok_l(const kolo_dev *d, const void *addr, size_t len) {
    if (!d || !addr)
        return 0;
    if (!d->be.dma_map)
        return 1;
    return region_find(d, (uintptr_t)addr, len ? len : 1) != NULL;
}

/* ---- windows --------------------------------------------------------------------- */
static int win_open_l(kolo_dev *d, int index, void *base, size_t len, unsigned rights, int check,
                      unsigned owner_ctx, uint8_t *key) {
    uint32_t ctrl;
    uint8_t k;
    int rc, w = index;
    if (!d || !base || !key)
        return KOLO_E_INVAL;
    if (!len)
        return KOLO_E_LEN;
    if ((uintptr_t)base + len < (uintptr_t)base || (uintptr_t)base + len - 1 > KOLO_ADDR_MASK)
        return KOLO_E_ADDR;
    if (!rights || (rights & ~KOLO_WIN_RWA) || check < -1 || check > 15 ||
        owner_ctx >= KOLO_NI_NUM_CTX || index < -1 || index >= KOLO_NUM_WIN)
        return KOLO_E_INVAL;
    if (w < 0) {
        for (w = 0; w < KOLO_NUM_WIN && d->win[w].open; w++)
            ;
        if (w == KOLO_NUM_WIN)
            return KOLO_E_RANGE;
    } else if (d->win[w].open) {
        return KOLO_E_BUSY;
    }
    if (check < 0)
        check = (w * 7 + 5) & 15;
    k = (uint8_t)(check << 4 | w);
    d->win[w].mapped = 0;
    if (d->be.dma_map && !region_find(d, (uintptr_t)base, len)) {
        rc = region_add(d, (uintptr_t)base, len, 0);
        if (rc)
            return rc;
        d->win[w].mapped = 1;
    }
    ctrl = k | ((rights & KOLO_WIN_R) ? KOLO_WIN_READ : 0) |
           ((rights & KOLO_WIN_W) ? KOLO_WIN_WRITE : 0) |
           ((rights & KOLO_WIN_A) ? KOLO_WIN_ATOMIC : 0) | (owner_ctx & 0xf) << 16;
    /* disable, program, enable; ERR_CSR (refused CSR writes) must not move,
     * and reading it also flushes the writes: the window is on before any
     * remote PE is told its key */
    {
        uint32_t e0 = 0, e1 = 0;
        rc = kolo_mmio_r32(d, KOLO_CSR_ERR_CSR, &e0);
        rc = rc ? rc : kolo_mmio_w64(d, KOLO_CSR_WIN(w) + KOLO_WIN_CTRL, 0);
        rc = rc ? rc : kolo_mmio_w64(d, KOLO_CSR_WIN(w) + KOLO_WIN_BASE, (uint64_t)(uintptr_t)base);
        rc = rc ? rc : kolo_mmio_w64(d, KOLO_CSR_WIN(w) + KOLO_WIN_LEN, (uint64_t)len);
        rc = rc ? rc : kolo_mmio_w64(d, KOLO_CSR_WIN(w) + KOLO_WIN_CTRL, ctrl | KOLO_WIN_ENABLE);
        rc = rc ? rc : kolo_mmio_r32(d, KOLO_CSR_ERR_CSR, &e1);
        if (!rc && e1 != e0)
            rc = KOLO_E_IO;
    }
    if (rc) {
        if (d->win[w].mapped)
            mem_unregister_l(d, base);
        d->win[w].mapped = 0;
        return rc;
    }
    d->win[w].open = 1;
    d->win[w].base = (uintptr_t)base;
    d->win[w].len = len;
    d->win[w].key = k;
    *key = k;
    return w;
}

static int win_close_l(kolo_dev *d, int w) {
    int rc;
    if (!d || w < 0 || w >= KOLO_NUM_WIN)
        return KOLO_E_INVAL;
    if (!d->win[w].open)
        return KOLO_E_RANGE;
    rc = kolo_mmio_w64(d, KOLO_CSR_WIN(w) + KOLO_WIN_CTRL, 0);
    if (!rc) { /* flush: the window is off before its memory may go */
        uint32_t id;
        rc = kolo_mmio_r32(d, KOLO_CSR_ID, &id);
    }
    if (d->win[w].mapped)
        mem_unregister_l(d, (void *)d->win[w].base);
    d->win[w].open = 0;
    d->win[w].mapped = 0;
    return rc;
}

/* ---- the public calls: under the device's lock (threads) ----------------------------- */
#define DEV_LOCKED(d, T, call)                                                                     \
    do {                                                                                           \
        T r_;                                                                                      \
        pthread_mutex_lock(&(d)->lock);                                                            \
        r_ = (call);                                                                               \
        pthread_mutex_unlock(&(d)->lock);                                                          \
        return r_;                                                                                 \
    } while (0)

void *kolo_dma_alloc(kolo_dev *d, size_t len) {
    if (!d || kolo_dev_gone(d))
        return NULL;
    DEV_LOCKED(d, void *, dma_alloc_l(d, len));
}
void kolo_dma_free(kolo_dev *d, void *p) {
    if (!d)
        return;
    pthread_mutex_lock(&d->lock);
    dma_free_l(d, p);
    pthread_mutex_unlock(&d->lock);
}
int kolo_mem_register(kolo_dev *d, void *addr, size_t len) {
    if (!d)
        return KOLO_E_INVAL;
    if (kolo_dev_gone(d))
        return KOLO_E_GONE;
    DEV_LOCKED(d, int, mem_register_l(d, addr, len));
}
int kolo_mem_unregister(kolo_dev *d, void *addr) {
    if (!d)
        return KOLO_E_INVAL;
    DEV_LOCKED(d, int, mem_unregister_l(d, addr));
}
int kolo_mem_dma_ok(const kolo_dev *cd, const void *addr, size_t len) {
    kolo_dev *d = (kolo_dev *)(uintptr_t)cd; /* the lock is not part of the value */
    if (!d || !d->be.dma_map) /* (every address is DMA-able: nothing to look up) */
        return mem_dma_ok_l(d, addr, len);
    DEV_LOCKED(d, int, mem_dma_ok_l(d, addr, len));
}
int kolo_win_open(kolo_dev *d, int index, void *base, size_t len, unsigned rights, int check,
                  unsigned owner_ctx, uint8_t *key) {
    if (!d)
        return KOLO_E_INVAL;
    if (kolo_dev_gone(d))
        return KOLO_E_GONE;
    DEV_LOCKED(d, int, win_open_l(d, index, base, len, rights, check, owner_ctx, key));
}
int kolo_win_close(kolo_dev *d, int w) {
    if (!d)
        return KOLO_E_INVAL;
    DEV_LOCKED(d, int, win_close_l(d, w));
}
