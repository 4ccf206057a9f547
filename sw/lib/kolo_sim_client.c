/* kolo_sim_client.c - the PE side of the kolo-sim shared-memory protocol.
 * See kolo_sim_client.h and sw/include/kolo_sim_shm.h. */
#define _GNU_SOURCE
#include "kolo_sim_client.h"

#include <errno.h>
#include <linux/futex.h>
#include <stdint.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct kolo_sim_client {
    kolo_sim_shm *shm;
    size_t size;
    unsigned pe, npes;
    kolo_pe_slot *slot;
    kolo_mmio_ring *ring;
    pid_t ppid; /* parent at attach: a change means kolo-sim has gone */
    pid_t sim_pid;
    pthread_mutex_t lock; /* the ring has one producer: one thread at a time */
    pthread_t waiter;     /* the thread that waits on the simulator (deterministic mode) */
    int have_waiter, multi; /* multi: a second thread waits too: not deterministic */
};

/* futex on a word of the shared segment (not private: two processes) */
static void futex_wait_on(uint32_t *word, uint32_t val, long ns) {
    struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
    syscall(SYS_futex, word, FUTEX_WAIT, val, &ts, NULL, 0);
}
static void futex_wake_all(uint32_t *word) { syscall(SYS_futex, word, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0); }

static void set_err(char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    if (!err || !errlen)
        return;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

void kolo_sim_shm_post(kolo_sim_client *c);

static int parse_uint(const char *s, unsigned *out) {
    char *end;
    unsigned long v;
    if (!s || !*s)
        return -1;
    errno = 0;
    v = strtoul(s, &end, 10);
    if (errno || *end || v > 0xffffffffUL)
        return -1;
    *out = (unsigned)v;
    return 0;
}

kolo_sim_client *kolo_sim_attach(char *err, size_t errlen) {
    return kolo_sim_attach_pe(-1, err, errlen);
}

kolo_sim_client *kolo_sim_attach_pe(int want_pe, char *err, size_t errlen) {
    const char *name = getenv("KOLO_SIM_SHM");
    unsigned pe, npes;
    int fd;
    struct stat st;
    void *p;
    kolo_sim_shm *s;
    kolo_sim_client *c;

    if (!name || !*name) {
        set_err(err, errlen,
                "not running under kolo-sim (KOLO_SIM_SHM not set; start with kolo-run)");
        return NULL;
    }
    if (want_pe >= 0) {
        pe = (unsigned)want_pe;
    } else if (parse_uint(getenv("KOLO_PE"), &pe)) {
        set_err(err, errlen, "kolo-sim client: KOLO_PE missing or not a number");
        return NULL;
    }
    fd = shm_open(name, O_RDWR, 0);
    if (fd < 0) {
        set_err(err, errlen, "kolo-sim client: shm_open(%s): %s", name, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) || (size_t)st.st_size < sizeof(kolo_sim_shm)) {
        set_err(err, errlen, "kolo-sim client: shared segment %s too small", name);
        close(fd);
        return NULL;
    }
    p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        set_err(err, errlen, "kolo-sim client: mmap(%s): %s", name, strerror(errno));
        return NULL;
    }
    s = (kolo_sim_shm *)p;
    if (s->magic != KOLO_SIM_MAGIC || s->version != KOLO_SIM_VERSION) {
        set_err(err, errlen,
                "kolo-sim client: segment %s has magic %#llx version %u, expected %#llx version %u",
                name, (unsigned long long)s->magic, s->version, (unsigned long long)KOLO_SIM_MAGIC,
                KOLO_SIM_VERSION);
        munmap(p, (size_t)st.st_size);
        return NULL;
    }
    npes = s->npes;
    if ((size_t)st.st_size < kolo_sim_shm_size(npes) || pe >= npes) {
        set_err(err, errlen,
                "kolo-sim client: KOLO_PE %u outside the %u PEs of %s (or segment short)", pe, npes,
                name);
        munmap(p, (size_t)st.st_size);
        return NULL;
    }
    {
        unsigned env_npes;
        if (!parse_uint(getenv("KOLO_NPES"), &env_npes) && env_npes != npes) {
            set_err(err, errlen,
                    "kolo-sim client: KOLO_NPES %u disagrees with the segment's %u PEs", env_npes,
                    npes);
            munmap(p, (size_t)st.st_size);
            return NULL;
        }
    }
    if (!__atomic_load_n(&s->sim_alive, __ATOMIC_ACQUIRE)) {
        set_err(err, errlen, "kolo-sim client: the simulator of %s is not running", name);
        munmap(p, (size_t)st.st_size);
        return NULL;
    }
    c = (kolo_sim_client *)calloc(1, sizeof *c);
    if (!c) {
        set_err(err, errlen, "kolo-sim client: out of memory");
        munmap(p, (size_t)st.st_size);
        return NULL;
    }
    pthread_mutex_init(&c->lock, NULL);
    c->shm = s;
    c->size = (size_t)st.st_size;
    c->pe = pe;
    c->npes = npes;
    c->slot = kolo_sim_shm_pe_slot(s, pe);
    c->ring = kolo_sim_ring(s, pe);
    c->ppid = getppid();
    c->sim_pid = s->sim_pid;
    if (s->server) {
        /* a PE started by someone else claims its slot; the simulator, not our
         * parent, reads and writes our memory: allow it where Yama would not */
        uint32_t none = KOLO_PE_NONE;
        int32_t other = c->slot->pid;
        if (!__atomic_compare_exchange_n(&c->slot->state, &none, (uint32_t)KOLO_PE_RUNNING, 0,
                                         __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
            set_err(err, errlen,
                    "kolo-sim client: PE %u's card of %s is taken (by pid %d): two PEs with one "
                    "rank, or a PE of an earlier job",
                    pe, name, (int)other);
            pthread_mutex_destroy(&c->lock);
            free(c);
            munmap(p, (size_t)st.st_size);
            return NULL;
        }
        prctl(PR_SET_PTRACER, (unsigned long)s->sim_pid, 0, 0, 0);
        c->slot->pid = (int32_t)getpid();
        return c;
    }
    c->slot->pid = (int32_t)getpid();
    __atomic_store_n(&c->slot->state, (uint32_t)KOLO_PE_RUNNING, __ATOMIC_RELEASE);
    return c;
}

void kolo_sim_detach(kolo_sim_client *c) {
    if (!c)
        return;
    __atomic_store_n(&c->slot->state, (uint32_t)KOLO_PE_EXITED, __ATOMIC_RELEASE);
    kolo_sim_shm_post(c); /* waits on this PE look again */
    munmap(c->shm, c->size);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

/* ---- waiting ------------------------------------------------------------------ */
static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static void check_alive(const kolo_sim_client *c) {
    int gone = 0;
    int32_t er = __atomic_load_n(&c->shm->exit_request, __ATOMIC_ACQUIRE);
    if (er && c->shm->server) { /* another PE's shmem_global_exit (kolo-sim --server) */
        fflush(NULL);
        _exit((er - 1) & 0xff);
    }
    if (!__atomic_load_n(&c->shm->sim_alive, __ATOMIC_ACQUIRE))
        gone = 1;
    else if (!c->shm->server && getppid() != c->ppid)
        gone = 1;
    else if (c->sim_pid > 0 && kill(c->sim_pid, 0) != 0 && errno == ESRCH)
        gone = 1;
    if (gone) {
        fprintf(stderr, "kolo-sim client (PE %u): the simulator has gone; giving up (exit 3)\n",
                c->pe);
        fflush(NULL);
        _exit(3);
    }
}

/* one step of a wait loop: spin, then yield, then sleep; check the simulator */
static void wait_step(const kolo_sim_client *c, unsigned long *n) {
    unsigned long i = (*n)++;
    if (i < 64) {
        cpu_relax();
        return;
    }
    if ((i & 63) == 0)
        check_alive(c);
    if (i < 256) {
        sched_yield();
    } else {
        /* the simulator needs the CPU more than a waiting PE does: sleep,
         * 10 us doubling up to 500 us */
        unsigned k = (unsigned)(i - 256) < 6 ? (unsigned)(i - 256) : 6;
        struct timespec ts = {0, 10000L << k};
        if (ts.tv_nsec > 500000)
            ts.tv_nsec = 500000;
        nanosleep(&ts, NULL);
    }
}

/* ---- waiting on the simulator (deterministic co-simulation, kolo_sim_shm.h) ------------
 * The caller holds c->lock. det_waits: does this wait take part (the first thread
 * that waits does; a second one ends that for good: the PE could not say for all
 * its threads that it is blocked, and falls back to plain waiting) */
static int det_waits(kolo_sim_client *c) {
    if (!c->shm->det || c->multi)
        return 0;
    if (!c->have_waiter) {
        c->waiter = pthread_self();
        c->have_waiter = 1;
    } else if (!pthread_equal(c->waiter, pthread_self())) {
        c->multi = 1;
        __atomic_store_n(&c->slot->wait_state, (uint32_t)KOLO_PE_COMPUTING, __ATOMIC_RELEASE);
        return 0;
    }
    return 1;
}

/* blocked: seen dma_seq == seq, waiting; tell the simulator */
static void publish_waiting(kolo_sim_client *c, uint32_t seq) {
    c->slot->wait_seen = seq;
    __atomic_store_n(&c->slot->wait_state, (uint32_t)KOLO_PE_WAITING, __ATOMIC_RELEASE);
    __atomic_add_fetch(&c->shm->pe_event, 1u, __ATOMIC_RELEASE);
    futex_wake_all(&c->shm->pe_event);
}

/* sleep until the simulator writes into this PE again (or a while: liveness) */
static void sleep_on_seq(const kolo_sim_client *c, uint32_t seq, unsigned long *n) {
    futex_wait_on(&c->slot->dma_seq, seq, 50000000L);
    if (((*n)++ & 15) == 15)
        check_alive(c);
}

/* one step of a wait of the client itself (lock held) */
static void idle_locked(kolo_sim_client *c, uint32_t seq, unsigned long *n) {
    if (!det_waits(c)) {
        wait_step(c, n);
        return;
    }
    publish_waiting(c, seq);
    sleep_on_seq(c, seq, n);
}

uint32_t kolo_sim_wait_begin(kolo_sim_client *c) {
    return c ? __atomic_load_n(&c->slot->dma_seq, __ATOMIC_ACQUIRE) : 0;
}

void kolo_sim_wait_idle(kolo_sim_client *c, uint32_t seq, unsigned long *n) {
    int det;
    if (!c)
        return;
    pthread_mutex_lock(&c->lock);
    det = det_waits(c);
    if (det)
        publish_waiting(c, seq);
    pthread_mutex_unlock(&c->lock);
    if (det)
        sleep_on_seq(c, seq, n);
    else
        wait_step(c, n);
}

void kolo_sim_wait_end(kolo_sim_client *c) {
    if (!c || !c->shm->det)
        return;
    if (__atomic_load_n(&c->slot->wait_state, __ATOMIC_RELAXED) == KOLO_PE_WAITING)
        __atomic_store_n(&c->slot->wait_state, (uint32_t)KOLO_PE_COMPUTING, __ATOMIC_RELEASE);
}

int kolo_sim_deterministic(const kolo_sim_client *c) { return c && c->shm->det; }

/* after writing shared state other PEs wait on (the start-up exchange): every
 * PE looks again (their waits count as blocked only once they have) */
void kolo_sim_shm_post(kolo_sim_client *c) {
    unsigned i;
    if (!c)
        return;
    for (i = 0; i < c->npes; i++) { /* (each bump a release: the data before it) */
        kolo_pe_slot *s = kolo_sim_shm_pe_slot(c->shm, i);
        __atomic_add_fetch(&s->dma_seq, 1u, __ATOMIC_RELEASE);
        if (__atomic_load_n(&s->wait_state, __ATOMIC_ACQUIRE) == KOLO_PE_WAITING)
            futex_wake_all(&s->dma_seq);
    }
}

/* append a request; returns its ring position */
static uint64_t push_req(kolo_sim_client *c, uint32_t kind, int bar, uint64_t off, const void *data,
                         unsigned size) {
    kolo_mmio_ring *r = c->ring;
    uint64_t head = __atomic_load_n(&r->head, __ATOMIC_RELAXED);
    unsigned long n = 0;
    kolo_mmio_req *q;
    for (;;) { /* ring full: kolo-sim bumps dma_seq when it frees a slot of a full ring */
        uint32_t seq = kolo_sim_wait_begin(c);
        if (head - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE) < KOLO_SIM_RING)
            break;
        idle_locked(c, seq, &n);
    }
    kolo_sim_wait_end(c);
    q = &r->req[head % KOLO_SIM_RING];
    q->kind = kind;
    q->bar = (uint32_t)bar;
    q->offset = off;
    memset(q->data, 0, sizeof q->data);
    if (data)
        memcpy(q->data, data, size);
    __atomic_store_n(&r->head, head + 1, __ATOMIC_RELEASE);
    return head;
}

int kolo_sim_mmio_write(kolo_sim_client *c, int bar, uint64_t off, const void *data,
                        unsigned size) {
    uint32_t kind;
    if (!c || !data || (bar != 0 && bar != 2))
        return -1;
    switch (size) {
    case 4:
        kind = KOLO_MMIO_W32;
        break;
    case 8:
        kind = KOLO_MMIO_W64;
        break;
    case 64:
        kind = KOLO_MMIO_W512;
        break;
    default:
        return -1;
    }
    if (off & (size - 1))
        return -1;
    pthread_mutex_lock(&c->lock);
    push_req(c, kind, bar, off, data, size);
    pthread_mutex_unlock(&c->lock);
    return 0;
}

int kolo_sim_mmio_read(kolo_sim_client *c, int bar, uint64_t off, unsigned size, uint64_t *val) {
    uint32_t kind;
    uint64_t pos;
    unsigned long n = 0;
    int rc;
    kolo_mmio_ring *r;
    if (val)
        *val = ~0ull;
    if (!c || !val || (bar != 0 && bar != 2) || (size != 4 && size != 8) || (off & (size - 1)))
        return -1;
    kind = size == 4 ? KOLO_MMIO_R32 : KOLO_MMIO_R64;
    r = c->ring;
    pthread_mutex_lock(&c->lock); /* one read in flight per PE */
    pos = push_req(c, kind, bar, off, NULL, 0);
    for (;;) {
        uint32_t seq = kolo_sim_wait_begin(c);
        if (__atomic_load_n(&r->rd_done, __ATOMIC_ACQUIRE) == pos + 1)
            break;
        idle_locked(c, seq, &n);
    }
    kolo_sim_wait_end(c);
    rc = r->rd_err ? -1 : 0;
    if (!rc)
        *val = size == 4 ? (r->rd_data & 0xffffffffull) : r->rd_data;
    pthread_mutex_unlock(&c->lock);
    return rc;
}

unsigned kolo_sim_pe(const kolo_sim_client *c) { return c->pe; }
unsigned kolo_sim_npes(const kolo_sim_client *c) { return c->npes; }
uint16_t kolo_sim_node_id(const kolo_sim_client *c) { return c->slot->node_id; }
unsigned kolo_sim_ctx(const kolo_sim_client *c) { return c->slot->ctx; }
void kolo_sim_torus(const kolo_sim_client *c, uint8_t dims[3]) { memcpy(dims, c->shm->torus, 3); }
uint64_t kolo_sim_cycle(const kolo_sim_client *c) {
    return __atomic_load_n(&c->shm->sim_cycle, __ATOMIC_ACQUIRE);
}
unsigned kolo_sim_core_mhz(const kolo_sim_client *c) { return c->shm->core_mhz; }
kolo_pe_slot *kolo_sim_slot(kolo_sim_client *c, unsigned pe) {
    return pe < c->npes ? kolo_sim_shm_pe_slot(c->shm, pe) : NULL;
}

void kolo_sim_global_exit(kolo_sim_client *c, int status) {
    fflush(NULL);
    if (c) {
        int32_t zero = 0;
        /* the first request wins */
        __atomic_compare_exchange_n(&c->shm->exit_request, &zero, (int32_t)((status & 0xff) + 1), 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
        __atomic_store_n(&c->slot->state, (uint32_t)KOLO_PE_EXITED, __ATOMIC_RELEASE);
    }
    _exit(status);
}
