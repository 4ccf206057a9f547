/* shmem_init.c - libkolo_shmem: start-up, symmetric memory, heap, exit.
 *
 * Symmetric memory is two windows of the NI, the same in every PE:
 *  - window 0: the program's writable data (.data, .bss: every writable
 *    PT_LOAD segment of the executable);
 *  - window 1: the symmetric heap, an anonymous mapping placed at the same
 *    virtual address in every PE when that address is free.
 * Every PE publishes the bases and keys of its windows in its start-up slot
 * of kolo-sim's exchange area; remote addresses are translated with them
 * (raddr = peer base + (addr - my base)), so ASLR does not matter.
 */
#define _GNU_SOURCE
#include "shmem_internal.h"

#include <errno.h>
#include <link.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "kolo_sim_client.h"
#include "kolo_svc_regs.h"
#include "shmemx.h"

kshmem_state kshmem = {.lock = PTHREAD_MUTEX_INITIALIZER, .coll_lock = PTHREAD_MUTEX_INITIALIZER};
struct kshmem_team kshmem_team_world = {KSHMEM_TEAM_MAGIC, 0, 1, 0, -1, {0}, 1, NULL};
struct kshmem_team kshmem_team_shared = {KSHMEM_TEAM_MAGIC, 0, 1, 1, 0, {0}, 1, NULL};
struct kshmem_ctx kshmem_ctx_default = {KSHMEM_CTX_MAGIC, 1, &kshmem_team_world, 0, NULL, NULL};

#define KSHMEM_INFO_MAGIC 0x314D4853484F4C4Bull /* "KLOHSHM1" */
#define KSHMEM_HEAP_ADDR 0x500000000000ull /* clear of ASan/LSan allocator space (0x6000...) */
#define KSHMEM_DEFAULT_HEAP (64ull << 20)
#define KSHMEM_SCRATCH (1u << 20)
#define KSHMEM_WIN_DATA 0
#define KSHMEM_WIN_HEAP 1
#define KSHMEM_BAR0_SVC 0x8000u /* the service block's registers behind BAR0 (a kolo_node: ni.md) */

/* ---- errors ---------------------------------------------------------------------- */
void kshmem_fatal(const char *fmt, ...) {
    char msg[1024];
    int n;
    va_list ap;
    fflush(stdout);
    /* the PE's number: from the simulator, or from the launcher before the device is open */
    n = snprintf(msg, sizeof msg, "kolo-shmem (PE %d): ",
                 kshmem.sim || kshmem.me_from_launcher ? kshmem.me : -1);
    va_start(ap, fmt);
    vsnprintf(msg + n, sizeof msg - (size_t)n - 1, fmt, ap);
    va_end(ap);
    strcat(msg, "\n");
    fputs(msg, stderr); /* one write: other PEs may end this one any moment now */
    fflush(stderr);
    if (kshmem.sim)
        kolo_sim_global_exit((kolo_sim_client *)kshmem.sim, 1);
    _exit(1);
}

void kshmem_bad_arg(const char *fn, const char *arg, const char *fmt, ...) {
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    kshmem_fatal("%s: argument %s %s", fn, arg, what);
}

void kshmem_check_init(const char *fn) {
    if (!kshmem.initialized || kshmem.finalized)
        kshmem_fatal("%s: called %s", fn,
                     kshmem.finalized ? "after shmem_finalize" : "before shmem_init");
}

void kshmem_check_pe(const char *fn, int pe) {
    kshmem_check_init(fn);
    if (pe < 0 || pe >= kshmem.npes)
        kshmem_bad_arg(fn, "pe", "= %d is outside 0..%d (shmem_n_pes() = %d)", pe,
                       kshmem.npes - 1, kshmem.npes);
}

void kshmem_rc(const char *fn, int rc) {
    if (rc)
        kshmem_fatal("%s: %s (libkolo error %d)", fn, kolo_strerror(rc), rc);
}

int kshmem_is_symmetric(const void *addr, size_t len) {
    uintptr_t a = (uintptr_t)addr;
    if (!len)
        len = 1;
    if (a >= kshmem.heap_base && len <= kshmem.heap_len && a - kshmem.heap_base <= kshmem.heap_len - len)
        return 1;
    if (a >= kshmem.data_base && len <= kshmem.data_len && a - kshmem.data_base <= kshmem.data_len - len)
        return 2;
    return 0;
}

void kshmem_xlate(const char *fn, const char *arg, const void *addr, size_t len, int pe,
                  uint64_t *raddr, uint8_t *key) {
    uintptr_t a = (uintptr_t)addr;
    switch (kshmem_is_symmetric(addr, len)) {
    case 1:
        *raddr = kshmem.peer[pe].heap_base + (a - kshmem.heap_base);
        *key = kshmem.peer[pe].heap_key;
        return;
    case 2:
        *raddr = kshmem.peer[pe].data_base + (a - kshmem.data_base);
        *key = kshmem.peer[pe].data_key;
        return;
    default:
        if (kshmem_is_symmetric(addr, 1))
            kshmem_bad_arg(fn, "nelems", "reaches past the end of the symmetric %s: %zu bytes from "
                           "%s = %p",
                           kshmem_is_symmetric(addr, 1) == 1 ? "heap" : "data", len, arg, addr);
        kshmem_bad_arg(fn, arg, "= %p is not symmetric (not in the symmetric heap or the "
                       "program's global/static data)",
                       addr);
    }
}

size_t kshmem_bytes(const char *fn, size_t nelems, size_t es) {
    if (es && nelems > SIZE_MAX / es)
        kshmem_bad_arg(fn, "nelems", "= %zu is too large (times %zu bytes overflows)", nelems, es);
    return nelems * es;
}

/* a wait on what the NI writes: the simulator's deterministic mode counts this
 * PE as blocked while it is in one (kolo_sim_client.h); elsewhere a back-off */
void kshmem_wait_look(kshmem_waiter *w) {
    if (kshmem.sim)
        w->seq = kolo_sim_wait_begin((kolo_sim_client *)kshmem.sim);
}

void kshmem_wait_step(kshmem_waiter *w) {
    int det = kshmem.sim && kolo_sim_deterministic((kolo_sim_client *)kshmem.sim);
    /* progress every 8 steps; under --det only when the simulator wrote something
     * since the last time (a wake-up for nothing must not send MMIO: the cycle it
     * reaches the NI would depend on the wall clock) */
    if ((det ? (w->n == 0 || w->seq != w->last) : (w->n & 7) == 0) && kshmem.ctx) {
        int err;
        kshmem_progress(); /* keep the completion queue drained */
        /* a posted operation of ours failed (e.g. its destination became
         * unreachable): what we wait for may never come, say so */
        err = kolo_pending_error(kshmem.ctx);
        if (err)
            kshmem_fatal("an earlier operation failed while waiting: %s (libkolo error %d)",
                         kolo_strerror(err), err);
    }
    w->last = w->seq;
    if (det) {
        /* a wait that nothing written into the PE ends: look at the card when
         * kolo-sim wakes us before it would call the run stuck (as
         * kshmem_backoff looks by the wall clock; kolo_sim_client.h "Looks"),
         * or a card that is gone would hold this PE for good */
        kolo_sim_client *sim = (kolo_sim_client *)kshmem.sim;
        uint32_t ticket = kolo_sim_wake_ticket(sim);
        kolo_sim_wait_idle(sim, w->seq, &w->n);
        if (kolo_sim_poll_fired(sim, ticket) && kshmem.dev) {
            uint64_t v;
            if (kolo_dev_read_reg(kshmem.dev, 0, 4, &v) == KOLO_E_GONE)
                kshmem_gone("waiting");
        }
    } else {
        kshmem_backoff(&w->n);
    }
}

void kshmem_wait_end(kshmem_waiter *w) {
    (void)w;
    if (kshmem.sim)
        kolo_sim_wait_end((kolo_sim_client *)kshmem.sim);
}

int kshmem_det(void) {
    return kshmem.sim && kolo_sim_deterministic((kolo_sim_client *)kshmem.sim);
}
uint32_t kshmem_poll_start(void) {
    return kolo_sim_poll_start((kolo_sim_client *)kshmem.sim, KSHMEM_POLL_CYCLES);
}
uint32_t kshmem_poll_begin(void) { return kolo_sim_wait_begin((kolo_sim_client *)kshmem.sim); }
int kshmem_poll_wait(uint32_t seq, uint32_t ticket) {
    return kolo_sim_poll_wait((kolo_sim_client *)kshmem.sim, seq, ticket);
}
void kshmem_poll_end(void) { kolo_sim_wait_end((kolo_sim_client *)kshmem.sim); }

/* --det: a pause in simulated time: until something is written into this PE
 * or `cycles` simulated cycles have passed (a poll's wake), whichever first */
void kshmem_det_pause(uint64_t cycles) {
    kolo_sim_client *sim = (kolo_sim_client *)kshmem.sim;
    uint32_t ticket = kolo_sim_poll_start(sim, cycles);
    uint32_t seq = kolo_sim_wait_begin(sim);
    (void)kolo_sim_poll_wait(sim, seq, ticket);
    kolo_sim_wait_end(sim);
}

/* kolo_progress, and a clear end when the NI is gone (KOLO_E_GONE: the card
 * lost power or its link, or was removed): what we wait for will never come */
void kshmem_progress(void) {
    if (kolo_progress(kshmem.ctx) == KOLO_E_GONE)
        kshmem_gone("waiting");
}

void kshmem_gone(const char *fn) {
    kshmem_fatal("%s: the NI is gone: %s (libkolo error %d); giving up", fn,
                 kolo_strerror(KOLO_E_GONE), KOLO_E_GONE);
}

void kshmem_backoff(unsigned long *n) {
    unsigned long i = (*n)++;
    if (i < 16) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    } else if (i < 256) {
        sched_yield();
    } else {
        struct timespec ts = {0, i < 4096 ? 5000 : 50000};
        nanosleep(&ts, NULL);
        if ((i & 4095) == 0 && kshmem.dev) { /* notices a simulator or a card that has gone */
            uint64_t v;
            if (kolo_dev_read_reg(kshmem.dev, 0, 4, &v) == KOLO_E_GONE)
                kshmem_gone("waiting");
        }
    }
}

/* ---- start-up -------------------------------------------------------------------- */
typedef struct {
    uintptr_t lo, hi;
} seg_range;

static int find_data(struct dl_phdr_info *info, size_t size, void *arg) {
    seg_range *r = (seg_range *)arg;
    int i;
    (void)size;
    for (i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W) && ph->p_memsz) {
            uintptr_t lo = info->dlpi_addr + ph->p_vaddr, hi = lo + ph->p_memsz;
            if (!r->lo || lo < r->lo)
                r->lo = lo;
            if (hi > r->hi)
                r->hi = hi;
        }
    }
    return 1; /* the first object is the executable */
}

/* SHMEM_SYMMETRIC_SIZE: bytes, or a number with K, M, G or T (powers of
 * 1024); anything else (no number, another suffix, trailing text, zero or
 * negative, 2^48 bytes or more) ends the program with one line */
static size_t parse_size(const char *s, size_t def) {
    char *end;
    double v, scale = 1.0;
    if (!s || !*s)
        return def;
    v = strtod(s, &end);
    switch (end == s ? 0 : *end) {
    case 'k': case 'K': scale = 1024.0; end++; break;
    case 'm': case 'M': scale = 1024.0 * 1024.0; end++; break;
    case 'g': case 'G': scale = 1024.0 * 1024.0 * 1024.0; end++; break;
    case 't': case 'T': scale = 1024.0 * 1024.0 * 1024.0 * 1024.0; end++; break;
    default: break;
    }
    v *= scale;
    if (end == s || *end || !(v >= 1.0) || v >= (double)(1ull << 48))
        kshmem_fatal("shmem_init: SHMEM_SYMMETRIC_SIZE = '%s' is not a heap size (bytes, or a "
                     "number with K, M, G or T, below 256 T)",
                     s);
    return (size_t)v;
}

static void *internal_alloc(size_t n) {
    void *p = shmh_alloc(&kshmem.heap, n, 64);
    if (!p)
        kshmem_fatal("shmem_init: symmetric heap too small for the library's own objects");
    memset(p, 0, n);
    return p;
}

static void at_exit_finalize(void) {
    if (kshmem.initialized && !kshmem.finalized)
        shmem_finalize();
}

static kshmem_launch launch;

static void init_common(const char *fn, int level) {
    char err[512], uri[32];
    int netboot;
    kolo_sim_client *sim;
    kolo_pe_slot *slot;
    seg_range seg = {0, 0};
    size_t user_heap, ps = (size_t)sysconf(_SC_PAGESIZE);
    void *heap;
    uint8_t kdata = 0, kheap = 0;
    int rc, i;

    if (kshmem.initialized && !kshmem.finalized)
        kshmem_fatal("%s: called a second time (the library is initialised already)", fn);
    if (kshmem.finalized)
        kshmem_fatal("%s: called after shmem_finalize (not supported)", fn);
    {
        pthread_mutexattr_t ma; /* collectives nest (malloc calls barrier_all) */
        pthread_mutexattr_init(&ma);
        pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
        pthread_mutex_init(&kshmem.coll_lock, &ma);
        pthread_mutexattr_destroy(&ma);
    }
    kshmem.thread_level = level;
    kshmem_launch_detect(&launch);
    if (launch.size > 1 || getenv("KOLO_PE")) { /* a launcher named this PE: messages say which */
        kshmem.me = launch.rank;
        kshmem.me_from_launcher = 1;
    }
    /* the device: kolo-sim's NI of this PE (kolo-run), the NI of PE <rank> of a
     * kolo-sim --server (KOLO_SIM_SHM without KOLO_PE), or KOLO_DEVICE (a card) */
    if (!getenv("KOLO_DEVICE") && getenv("KOLO_SIM_SHM") && !getenv("KOLO_PE")) {
        snprintf(uri, sizeof uri, "sim:%d", launch.rank);
        rc = kolo_open(uri, &kshmem.dev, err, sizeof err);
    } else {
        rc = kolo_open(NULL, &kshmem.dev, err, sizeof err);
    }
    if (rc == KOLO_E_GONE) /* a card that is there and does not answer: no hint about launching */
        kshmem_fatal("shmem_init: %s (libkolo error %d)", err, rc);
    if (rc)
        kshmem_fatal("shmem_init: %s (run under kolo-run, start the PEs against a kolo-sim --server "
                     "with KOLO_SIM_SHM, or name a card with KOLO_DEVICE=vfio:<bdf>)",
                     err);
    sim = (kolo_sim_client *)kolo_dev_sim_client(kshmem.dev);
    kshmem.sim = sim;
    netboot = !(sim && getenv("KOLO_PE")); /* kolo-run's PEs use kolo-sim's exchange area */
    if (!netboot) {
        kshmem.me = (int)kolo_sim_pe(sim);
        kshmem.npes = (int)kolo_sim_npes(sim);
    } else {
        kshmem.me = launch.rank;
        kshmem.npes = launch.size;
        if (sim && (int)kolo_sim_npes(sim) != launch.size)
            kshmem_fatal("shmem_init: the launcher (%s) started %d PEs, the kolo-sim server (%s) "
                         "serves %u",
                         launch.name, launch.size, getenv("KOLO_SIM_SHM"), kolo_sim_npes(sim));
        if (!sim && launch.local_size > 1)
            kshmem_fatal("shmem_init: the launcher (%s) started %d PEs on host %s, and kolo runs "
                         "one PE per node (card): start one per host (mpirun --map-by ppr:1:node, "
                         "mpiexec -ppn 1, srun --ntasks-per-node=1) and use threads",
                         launch.name, launch.local_size, launch.host);
    }
    /* this PE's node: the card's (the NI's NODE_ID, which the service block
     * writes; where the service block's registers are behind BAR0, it must agree) */
    kshmem.my_node = kolo_dev_node_id(kshmem.dev);
    {
        uint64_t id = 0, svc_node = 0;
        if (!kolo_dev_read_reg(kshmem.dev, KSHMEM_BAR0_SVC + KOLO_SVC_SYS_ID, 4, &id) &&
            id == KOLO_SVC_SYS_ID_RESET &&
            !kolo_dev_read_reg(kshmem.dev, KSHMEM_BAR0_SVC + KOLO_SVC_SYS_NODE_ID, 4, &svc_node) &&
            (svc_node & 0xfff) != kshmem.my_node)
            kshmem_fatal("shmem_init: the NI says node %#x, the service block node %#llx: the card "
                         "is not set up",
                         kshmem.my_node, (unsigned long long)(svc_node & 0xfff));
    }
    rc = kolo_ctx_open(kshmem.dev, NULL, &kshmem.ctx);
    if (rc)
        kshmem_fatal("shmem_init: opening the NI context: %s", kolo_strerror(rc));
    kshmem.nic[0].kc = kshmem.ctx;
    kshmem.nic[0].users = 1;
    kshmem.nnic = 1;
    kshmem_ctx_default.nic = &kshmem.nic[0];

    /* symmetric data: the executable's writable segments */
    dl_iterate_phdr(find_data, &seg);
    if (!seg.lo)
        kshmem_fatal("shmem_init: cannot find the program's data segment");
    kshmem.data_base = seg.lo;
    kshmem.data_len = seg.hi - seg.lo;

    /* symmetric heap */
    user_heap = parse_size(getenv("SHMEM_SYMMETRIC_SIZE"), KSHMEM_DEFAULT_HEAP);
    kshmem.scratch_len = KSHMEM_SCRATCH;
    kshmem.heap_len = (user_heap + kshmem.scratch_len + 2 * 64 * (size_t)kshmem.npes + 4096 + ps - 1) &
                      ~(ps - 1);
#if defined(__SANITIZE_THREAD__)
    /* 0x500000000000 is not application memory under ThreadSanitizer, whose
     * mmap then drops the hint and keeps MAP_FIXED_NOREPLACE (address 0) */
    heap = MAP_FAILED;
#else
    heap = mmap((void *)(uintptr_t)KSHMEM_HEAP_ADDR, kshmem.heap_len, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
#endif
    if (heap == MAP_FAILED) { /* taken: anywhere (addresses are translated), 2 MiB aligned */
        size_t a = (size_t)2 << 20;
        uint8_t *m = (uint8_t *)mmap(NULL, kshmem.heap_len + a, PROT_READ | PROT_WRITE,
                                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (m != (uint8_t *)MAP_FAILED) {
            uint8_t *al = (uint8_t *)(((uintptr_t)m + a - 1) & ~(uintptr_t)(a - 1));
            if (al > m)
                munmap(m, (size_t)(al - m));
            if (m + kshmem.heap_len + a > al + kshmem.heap_len)
                munmap(al + kshmem.heap_len, (size_t)(m + a - al));
            heap = al;
        }
    }
    if (heap == MAP_FAILED)
        kshmem_fatal("shmem_init: cannot map a symmetric heap of %zu bytes: %s", kshmem.heap_len,
                     strerror(errno));
    kshmem.heap_base = (uintptr_t)heap;
    if (shmh_init(&kshmem.heap, heap, kshmem.heap_len))
        kshmem_fatal("shmem_init: out of memory");

    /* windows: the NI's DMA may reach them from now on */
    rc = kolo_win_open(kshmem.dev, KSHMEM_WIN_DATA, (void *)kshmem.data_base, kshmem.data_len,
                       KOLO_WIN_RWA, -1, kolo_ctx_index(kshmem.ctx), &kdata);
    if (rc >= 0)
        rc = kolo_win_open(kshmem.dev, KSHMEM_WIN_HEAP, heap, kshmem.heap_len, KOLO_WIN_RWA, -1,
                           kolo_ctx_index(kshmem.ctx), &kheap);
    if (rc < 0)
        kshmem_fatal("shmem_init: opening the NI windows: %s", kolo_strerror(rc));

    /* internal symmetric objects: the same offsets in every PE */
    kshmem.sync_recv = (volatile uint64_t *)internal_alloc(8 * (size_t)kshmem.npes);
    kshmem.coll_sizes = (uint64_t *)internal_alloc(8 * (size_t)kshmem.npes);
    kshmem.scratch = (uint8_t *)internal_alloc(kshmem.scratch_len);
    kshmem.sync_expect = (uint64_t *)calloc((size_t)kshmem.npes, 8);
    kshmem.peer = (kshmem_peer *)calloc((size_t)kshmem.npes, sizeof *kshmem.peer);
    if (!kshmem.sync_expect || !kshmem.peer)
        kshmem_fatal("shmem_init: out of memory");

    if (netboot) { /* over the network: the launcher gave only rank and size */
        kshmem_boot_exchange(&launch, kdata, kheap);
    } else { /* publish in kolo-sim's exchange area, then collect everyone's */
        slot = kolo_sim_slot(sim, (unsigned)kshmem.me);
        slot->info[0] = KSHMEM_INFO_MAGIC;
        slot->info[1] = kshmem.data_base;
        slot->info[2] = kshmem.data_len;
        slot->info[3] = kshmem.heap_base;
        slot->info[4] = kshmem.heap_len;
        slot->info[5] = (uint64_t)kdata | (uint64_t)kheap << 8;
        slot->info[6] = kshmem.my_node;
        __atomic_store_n(&slot->info_ready, 1u, __ATOMIC_RELEASE);
        kolo_sim_shm_post(sim); /* the others' waits look again */
        for (i = 0; i < kshmem.npes; i++) {
            kolo_pe_slot *s = kolo_sim_slot(sim, (unsigned)i);
            unsigned long n = 0;
            for (;;) {
                uint32_t seq = kolo_sim_wait_begin(sim);
                if (__atomic_load_n(&s->info_ready, __ATOMIC_ACQUIRE))
                    break;
                kolo_sim_wait_idle(sim, seq, &n);
            }
            kolo_sim_wait_end(sim);
            if (s->info[0] != KSHMEM_INFO_MAGIC)
                kshmem_fatal("shmem_init: PE %d is not running this OpenSHMEM library", i);
            if (s->info[2] != kshmem.data_len)
                kshmem_fatal("shmem_init: PE %d has %llu bytes of static data, this PE %zu (not the "
                             "same program?)",
                             i, (unsigned long long)s->info[2], kshmem.data_len);
            if (s->info[4] != kshmem.heap_len)
                kshmem_fatal("shmem_init: PE %d has a symmetric heap of %llu bytes, this PE %zu "
                             "(SHMEM_SYMMETRIC_SIZE differs?)",
                             i, (unsigned long long)s->info[4], kshmem.heap_len);
            kshmem.peer[i].data_base = s->info[1];
            kshmem.peer[i].heap_base = s->info[3];
            kshmem.peer[i].data_key = (uint8_t)s->info[5];
            kshmem.peer[i].heap_key = (uint8_t)(s->info[5] >> 8);
            kshmem.peer[i].node = (uint16_t)s->info[6];
            if (!kolo_dev_node_valid(kshmem.dev, kshmem.peer[i].node))
                kshmem_fatal("shmem_init: PE %d is on node %#x, outside the torus", i,
                             kshmem.peer[i].node);
        }

    }
    kshmem_team_world.start = 0;
    kshmem_team_world.stride = 1;
    kshmem_team_world.size = kshmem.npes;
    kshmem_team_world.my = kshmem.me;
    kshmem_team_shared.start = kshmem.me;
    kshmem_team_shared.size = 1;
    kshmem_team_shared.my = 0;
    kshmem.initialized = 1;
    {
        static int registered;
        if (!registered) {
            registered = 1;
            atexit(at_exit_finalize);
        }
    }
    kshmem_launch_debug(&launch,
                        sim ? (netboot ? "sim (a kolo-sim --server: KOLO_SIM_SHM)" : "sim (kolo-run)")
                            : kolo_dev_backend(kshmem.dev),
                        netboot ? "over the network (NI window 15)" : "kolo-sim's exchange area");
    /* SHMEM_VERSION, SHMEM_INFO (any value): PE 0 prints the version, and
     * with SHMEM_INFO the environment variables the library reads */
    if (kshmem.me == 0 && (getenv("SHMEM_VERSION") || getenv("SHMEM_INFO"))) {
        printf("kolo-shmem: OpenSHMEM %d.%d, %s\n", SHMEM_MAJOR_VERSION, SHMEM_MINOR_VERSION,
               SHMEM_VENDOR_STRING);
        if (getenv("SHMEM_INFO"))
            printf("kolo-shmem: environment:\n"
                   "  SHMEM_SYMMETRIC_SIZE  symmetric heap per PE: bytes or K, M, G, T "
                   "(now %zu)\n"
                   "  SHMEM_DEBUG           1: one line per PE at start-up (launcher, node, NI)\n"
                   "  SHMEM_VERSION         print the version at start-up\n"
                   "  SHMEM_INFO            print this text at start-up\n"
                   "  SHMEM_BOOT_TIMEOUT    seconds to wait for the other PEs at start-up\n",
                   user_heap);
        fflush(stdout);
    }
    /* everyone's windows are open (published after opening); one barrier
     * checks the network end to end before the program starts */
    shmem_barrier_all();
    kshmem_boot_done(); /* everyone is past the exchange */
}

void shmem_init(void) { init_common("shmem_init", SHMEM_THREAD_SINGLE); }

/* every level is provided: libkolo locks its contexts and the simulator client its ring */
int shmem_init_thread(int requested, int *provided) {
    if (requested < SHMEM_THREAD_SINGLE || requested > SHMEM_THREAD_MULTIPLE)
        kshmem_bad_arg("shmem_init_thread", "requested",
                       "= %d is none of SHMEM_THREAD_SINGLE, _FUNNELED, _SERIALIZED, _MULTIPLE",
                       requested);
    init_common("shmem_init_thread", requested);
    if (provided)
        *provided = requested;
    return 0;
}

void shmem_query_thread(int *provided) {
    kshmem_check_init("shmem_query_thread");
    if (!provided)
        kshmem_bad_arg("shmem_query_thread", "provided", "is NULL");
    *provided = kshmem.thread_level;
}

int shmem_initialized(void) { return kshmem.initialized && !kshmem.finalized; }

void shmem_finalize(void) {
    int rc;
    if (!kshmem.initialized || kshmem.finalized)
        return;
    shmem_barrier_all();
    for (unsigned i = 0; i < kshmem.nnic; i++) {
        rc = kolo_ctx_close(kshmem.nic[i].kc); /* quiet first */
        if (rc)
            fprintf(stderr, "kolo-shmem (PE %d): shmem_finalize: %s\n", kshmem.me,
                    kolo_strerror(rc));
        kshmem.nic[i].kc = NULL;
    }
    kshmem.nnic = 0;
    while (kshmem.ctxs) { /* handles are dead from here on */
        struct kshmem_ctx *c = kshmem.ctxs;
        kshmem.ctxs = c->next;
        free(c);
    }
    while (kshmem.teams) {
        struct kshmem_team *t = kshmem.teams;
        kshmem.teams = t->next;
        free(t);
    }
    kshmem.finalized = 1;
    kshmem.ctx = NULL;
    kolo_close(kshmem.dev); /* closes the windows, detaches from kolo-sim */
    kshmem.dev = NULL;
    kshmem.sim = NULL;
    shmh_destroy(&kshmem.heap);
    munmap((void *)kshmem.heap_base, kshmem.heap_len);
    free(kshmem.sync_expect);
    free(kshmem.peer);
    kshmem.sync_expect = NULL;
    kshmem.peer = NULL;
}

void shmem_global_exit(int status) {
    fflush(NULL);
    if (kshmem.sim)
        kolo_sim_global_exit((kolo_sim_client *)kshmem.sim, status);
    _exit(status);
}

int shmem_my_pe(void) { return kshmem.initialized && !kshmem.finalized ? kshmem.me : -1; }
int shmem_n_pes(void) { return kshmem.initialized && !kshmem.finalized ? kshmem.npes : -1; }
int _my_pe(void) { return shmem_my_pe(); }
int _num_pes(void) { return shmem_n_pes(); }
/* deprecated; unlike shmem_init, calls after the first do nothing */
void start_pes(int npes) {
    (void)npes;
    if (!kshmem.initialized)
        shmem_init();
}

int shmem_pe_accessible(int pe) { return shmem_initialized() && pe >= 0 && pe < kshmem.npes; }

int shmem_addr_accessible(const void *addr, int pe) {
    return shmem_pe_accessible(pe) && kshmem_is_symmetric(addr, 1);
}

void *shmem_ptr(const void *dest, int pe) {
    /* only the PE's own memory is load/store accessible */
    if (shmem_initialized() && pe == kshmem.me && kshmem_is_symmetric(dest, 1))
        return (void *)(uintptr_t)dest;
    return NULL;
}

void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe) {
    int w;
    if (!shmem_initialized() || team == SHMEM_TEAM_INVALID || team->magic != KSHMEM_TEAM_MAGIC ||
        pe < 0 || pe >= team->size)
        return NULL;
    w = team->start + pe * team->stride;
    return shmem_ptr(dest, w);
}

void shmem_pcontrol(int level, ...) { (void)level; }

/* deprecated cache management: the NI's writes are coherent with the CPU's
 * caches (shmem.h), nothing to do */
void shmem_set_cache_inv(void) {}
void shmem_set_cache_line_inv(void *dest) { (void)dest; }
void shmem_clear_cache_inv(void) {}
void shmem_clear_cache_line_inv(void *dest) { (void)dest; }
void shmem_udcflush(void) {}
void shmem_udcflush_line(void *dest) { (void)dest; }

void shmem_info_get_version(int *major, int *minor) {
    if (major)
        *major = SHMEM_MAJOR_VERSION;
    if (minor)
        *minor = SHMEM_MINOR_VERSION;
}

void shmem_info_get_name(char *name) {
    if (name)
        snprintf(name, SHMEM_MAX_NAME_LEN, "%s", SHMEM_VENDOR_STRING);
}

/* ---- symmetric heap (collective: every PE makes the same calls) ------------------------ */
/* every PE makes the same calls (collective), so the offsets agree; one
 * thread of a PE at a time (coll_lock; recursive: the barrier takes it too) */
static void *heap_alloc(const char *fn, size_t size, size_t align, int zero) {
    void *p;
    kshmem_check_init(fn);
    pthread_mutex_lock(&kshmem.coll_lock);
    p = size ? shmh_alloc(&kshmem.heap, size, align) : NULL;
    if (p && zero)
        memset(p, 0, size);
    shmem_barrier_all();
    pthread_mutex_unlock(&kshmem.coll_lock);
    return p;
}

void *shmem_malloc(size_t size) { return heap_alloc("shmem_malloc", size, 16, 0); }
/* Hints only tune; the specification makes a hint the implementation cannot
 * use behave as shmem_malloc, and programs written for other implementations
 * pass bits kolo does not know: every hint is accepted, none changes the
 * allocation (every block takes remote atomics and signals anyway) */
void *shmem_malloc_with_hints(size_t size, long hints) {
    (void)hints;
    return heap_alloc("shmem_malloc_with_hints", size, 16, 0);
}

void *shmem_calloc(size_t count, size_t size) {
    /* an overflowing product is a request nobody can satisfy: NULL */
    size_t n = size && count > SIZE_MAX / size ? SIZE_MAX : count * size;
    return heap_alloc("shmem_calloc", n == SIZE_MAX ? 0 : n, 16, 1);
}

void *shmem_align(size_t alignment, size_t size) {
    if (!alignment || (alignment & (alignment - 1)))
        kshmem_bad_arg("shmem_align", "alignment", "= %zu is not a power of two", alignment);
    return heap_alloc("shmem_align", size, alignment, 0);
}

static void check_heap_ptr(const char *fn, void *ptr) {
    if (ptr && !shmh_block_size(&kshmem.heap, ptr))
        kshmem_bad_arg(fn, "ptr", "= %p was not returned by shmem_malloc (or was freed)", ptr);
}

void shmem_free(void *ptr) {
    kshmem_check_init("shmem_free");
    pthread_mutex_lock(&kshmem.coll_lock);
    check_heap_ptr("shmem_free", ptr);
    shmem_barrier_all();
    if (ptr)
        shmh_free(&kshmem.heap, ptr);
    pthread_mutex_unlock(&kshmem.coll_lock);
}

void *shmem_realloc(void *ptr, size_t size) {
    void *p;
    size_t old;
    kshmem_check_init("shmem_realloc");
    if (!ptr)
        return shmem_malloc(size);
    if (!size) {
        shmem_free(ptr);
        return NULL;
    }
    pthread_mutex_lock(&kshmem.coll_lock);
    check_heap_ptr("shmem_realloc", ptr);
    old = shmh_block_size(&kshmem.heap, ptr);
    shmem_barrier_all(); /* nobody writes the old block any more */
    p = shmh_alloc(&kshmem.heap, size, 16);
    if (p) {
        memcpy(p, ptr, old < size ? old : size);
        shmh_free(&kshmem.heap, ptr);
    }
    shmem_barrier_all();
    pthread_mutex_unlock(&kshmem.coll_lock);
    return p;
}

void *shmalloc(size_t size) { return shmem_malloc(size); }
void shfree(void *ptr) { shmem_free(ptr); }
void *shrealloc(void *ptr, size_t size) { return shmem_realloc(ptr, size); }
void *shmemalign(size_t alignment, size_t size) { return shmem_align(alignment, size); }

/* ---- extensions (shmemx.h) --------------------------------------------------------- */
uint64_t shmemx_kolo_cycles(void) {
    return kshmem.sim ? kolo_sim_cycle((kolo_sim_client *)kshmem.sim) : 0;
}
int shmemx_ctx_nic(shmem_ctx_t ctx) {
    if (!shmem_initialized() || ctx == SHMEM_CTX_INVALID || ctx->magic != KSHMEM_CTX_MAGIC)
        return -1;
    return (int)kolo_ctx_index(ctx->nic->kc);
}
unsigned shmemx_kolo_core_mhz(void) {
    return kshmem.sim ? kolo_sim_core_mhz((kolo_sim_client *)kshmem.sim) : 0;
}
