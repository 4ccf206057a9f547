/* kolo_sim_client.c - the PE side of the kolo-sim shared-memory protocol.
 * See kolo_sim_client.h and sw/include/kolo_sim_shm.h. */
#define _GNU_SOURCE
#include "kolo_err.h"
#include "kolo_sim_client.h"

#include <errno.h>
#include <linux/futex.h>
#include <stdint.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
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
    pthread_mutex_t lock;  /* the ring has one producer: one thread at a time */
    pthread_mutex_t wlock; /* the threads' wait records (deterministic mode) */
    struct kolo_sim_thread *threads;
};

/* a thread's part in waits (deterministic mode; see the waiting section) */
enum { T_OUT = 0, T_LOOKING = 1, T_SLEEPING = 2 };
typedef struct kolo_sim_thread {
    struct kolo_sim_thread *next;
    uint32_t seen;
    int state, dead;
} kolo_sim_thread;

static pthread_key_t thread_key;
static pthread_once_t thread_once = PTHREAD_ONCE_INIT;
static void thread_gone(void *p) { /* a thread that ends leaves every wait */
    kolo_sim_thread *t = (kolo_sim_thread *)p;
    __atomic_store_n(&t->state, T_OUT, __ATOMIC_RELEASE);
    __atomic_store_n(&t->dead, 1, __ATOMIC_RELEASE);
}
static void thread_key_make(void) { pthread_key_create(&thread_key, thread_gone); }

/* futex on a word of the shared segment (not private: two processes) */
static void futex_wait_on(uint32_t *word, uint32_t val, long ns) {
    struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
    syscall(SYS_futex, word, FUTEX_WAIT, val, &ts, NULL, 0);
}
static void futex_wake_all(uint32_t *word) { syscall(SYS_futex, word, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0); }

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
        kolo_set_err(err, errlen,
                "not running under kolo-sim (KOLO_SIM_SHM not set; start with kolo-run)");
        return NULL;
    }
    if (want_pe >= 0) {
        pe = (unsigned)want_pe;
    } else if (parse_uint(getenv("KOLO_PE"), &pe)) {
        kolo_set_err(err, errlen, "kolo-sim client: KOLO_PE missing or not a number");
        return NULL;
    }
    fd = shm_open(name, O_RDWR, 0);
    if (fd < 0) {
        kolo_set_err(err, errlen, "kolo-sim client: shm_open(%s): %s", name, strerror(errno));
        return NULL;
    }
    if (fstat(fd, &st) || (size_t)st.st_size < sizeof(kolo_sim_shm)) {
        kolo_set_err(err, errlen, "kolo-sim client: shared segment %s too small", name);
        close(fd);
        return NULL;
    }
    p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        kolo_set_err(err, errlen, "kolo-sim client: mmap(%s): %s", name, strerror(errno));
        return NULL;
    }
    s = (kolo_sim_shm *)p;
    if (s->magic != KOLO_SIM_MAGIC || s->version != KOLO_SIM_VERSION) {
        kolo_set_err(err, errlen,
                "kolo-sim client: segment %s has magic %#llx version %u, expected %#llx version %u",
                name, (unsigned long long)s->magic, s->version, (unsigned long long)KOLO_SIM_MAGIC,
                KOLO_SIM_VERSION);
        munmap(p, (size_t)st.st_size);
        return NULL;
    }
    npes = s->npes;
    if ((size_t)st.st_size < kolo_sim_shm_size(npes) || pe >= npes) {
        kolo_set_err(err, errlen,
                "kolo-sim client: KOLO_PE %u outside the %u PEs of %s (or segment short)", pe, npes,
                name);
        munmap(p, (size_t)st.st_size);
        return NULL;
    }
    {
        unsigned env_npes;
        if (!parse_uint(getenv("KOLO_NPES"), &env_npes) && env_npes != npes) {
            kolo_set_err(err, errlen,
                    "kolo-sim client: KOLO_NPES %u disagrees with the segment's %u PEs", env_npes,
                    npes);
            munmap(p, (size_t)st.st_size);
            return NULL;
        }
    }
    if (!__atomic_load_n(&s->sim_alive, __ATOMIC_ACQUIRE)) {
        kolo_set_err(err, errlen, "kolo-sim client: the simulator of %s is not running", name);
        munmap(p, (size_t)st.st_size);
        return NULL;
    }
    c = (kolo_sim_client *)calloc(1, sizeof *c);
    if (!c) {
        kolo_set_err(err, errlen, "kolo-sim client: out of memory");
        munmap(p, (size_t)st.st_size);
        return NULL;
    }
    pthread_mutex_init(&c->lock, NULL);
    pthread_mutex_init(&c->wlock, NULL);
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
            kolo_set_err(err, errlen,
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
    pthread_mutex_destroy(&c->wlock);
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
 * Each thread that waits has a record: OUT (not in a wait: computing, or
 * elsewhere), LOOKING (in a wait, looking at its condition) or SLEEPING (it
 * looked after dma_seq had the value `seen`, and sleeps). The PE is WAITING,
 * with wait_seen the oldest `seen`, when some thread sleeps and none looks;
 * else COMPUTING. One thread: exactly "blocked in a wait". Several: a thread
 * out of every wait (joining, computing) does not hold time back while the
 * others wait (a run of such a program is then not exact). */
/* this thread's record (c->wlock held) */
static kolo_sim_thread *me_thread(kolo_sim_client *c) {
    kolo_sim_thread *t;
    pthread_once(&thread_once, thread_key_make);
    t = (kolo_sim_thread *)pthread_getspecific(thread_key);
    if (t)
        return t;
    for (t = c->threads; t && !__atomic_load_n(&t->dead, __ATOMIC_ACQUIRE); t = t->next)
        ;
    if (!t) { /* (static: a thread's key may outlive the client; no leak at exit) */
        static kolo_sim_thread pool[256];
        static unsigned used;
        if (used == sizeof pool / sizeof pool[0])
            return NULL; /* more threads than that: the rest take no part */
        t = &pool[used++];
        t->next = c->threads;
        c->threads = t;
    }
    __atomic_store_n(&t->dead, 0, __ATOMIC_RELEASE);
    __atomic_store_n(&t->state, T_OUT, __ATOMIC_RELEASE);
    pthread_setspecific(thread_key, t);
    return t;
}

/* the PE's state from its threads' (c->wlock held); wake the simulator when it
 * becomes (or stays, with a newer look) blocked */
static void publish(kolo_sim_client *c) {
    const kolo_sim_thread *t;
    int looking = 0, sleeping = 0, out = 0;
    uint32_t seen = 0;
    for (t = c->threads; t; t = t->next) {
        int st = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);
        if (st == T_LOOKING)
            looking++;
        else if (st == T_SLEEPING) {
            if (!sleeping++ || (int32_t)(t->seen - seen) < 0)
                seen = t->seen;
        } else if (!__atomic_load_n(&t->dead, __ATOMIC_ACQUIRE)) {
            out++;
        }
    }
    if (!looking && sleeping) {
        c->slot->wait_seen = seen;
        __atomic_store_n(&c->slot->wait_partial, out ? 1u : 0u, __ATOMIC_RELEASE);
        __atomic_store_n(&c->slot->wait_state, (uint32_t)KOLO_PE_WAITING, __ATOMIC_RELEASE);
        __atomic_add_fetch(&c->shm->pe_event, 1u, __ATOMIC_RELEASE);
        futex_wake_all(&c->shm->pe_event);
    } else {
        __atomic_store_n(&c->slot->wait_state, (uint32_t)KOLO_PE_COMPUTING, __ATOMIC_RELEASE);
    }
}

static void set_thread(kolo_sim_client *c, int state, uint32_t seen) {
    kolo_sim_thread *t;
    pthread_mutex_lock(&c->wlock);
    t = me_thread(c);
    if (t) {
        t->seen = seen;
        __atomic_store_n(&t->state, state, __ATOMIC_RELEASE);
        publish(c);
    }
    pthread_mutex_unlock(&c->wlock);
}

/* sleep until the simulator writes into this PE again (or a while: liveness) */
static void sleep_on_seq(const kolo_sim_client *c, uint32_t seq, unsigned long *n) {
    /* counted, so that kolo-sim wakes this thread even when the PE as a whole
     * is not WAITING (another thread looks at its condition or computes) */
    __atomic_add_fetch(&c->slot->sleepers, 1u, __ATOMIC_SEQ_CST);
    futex_wait_on(&c->slot->dma_seq, seq, 50000000L);
    __atomic_sub_fetch(&c->slot->sleepers, 1u, __ATOMIC_SEQ_CST);
    if (((*n)++ & 15) == 15)
        check_alive(c);
}

/* awake and out of the wait (set_thread T_OUT): if the PE as a whole is no longer
 * WAITING and the simulator is making a step's writes (det_busy, kolo_sim_shm.h:
 * the sleep timed out, it was not woken by them), wait for the step's end before
 * looking, else what this PE sees would depend on how fast each side runs */
static void step_wait(const kolo_sim_client *c) {
    unsigned long n = 0;
    /* (a read-modify-write: ordered after the wait_state store, as a fence would be;
     * ThreadSanitizer does not take fences) */
    while (__atomic_fetch_or(&c->shm->det_busy, 0u, __ATOMIC_SEQ_CST) &&
           __atomic_load_n(&c->slot->wait_state, __ATOMIC_ACQUIRE) != KOLO_PE_WAITING) {
        struct timespec ts = {0, 20000};
        nanosleep(&ts, NULL);
        if ((n++ & 1023) == 1023)
            check_alive(c);
    }
}

uint32_t kolo_sim_wait_begin(kolo_sim_client *c) {
    if (!c)
        return 0;
    if (c->shm->det)
        set_thread(c, T_LOOKING, 0);
    return __atomic_load_n(&c->slot->dma_seq, __ATOMIC_ACQUIRE);
}

void kolo_sim_wait_idle(kolo_sim_client *c, uint32_t seq, unsigned long *n) {
    if (!c)
        return;
    if (!c->shm->det) {
        wait_step(c, n);
        return;
    }
    set_thread(c, T_SLEEPING, seq);
    sleep_on_seq(c, seq, n);
    /* awake: out until it looks again (it may first wait for a lock another
     * thread holds while that one waits on the simulator: as SLEEPING with an
     * old dma_seq it would hold time back for good) */
    set_thread(c, T_OUT, 0);
    step_wait(c);
}

uint32_t kolo_sim_poll_start(kolo_sim_client *c, uint64_t cycles) {
    uint32_t after, cur, ticket;
    if (!c || !c->shm->det)
        return 0;
    ticket = __atomic_load_n(&c->slot->wake_fired, __ATOMIC_ACQUIRE);
    /* the soonest wake any thread asked for (kolo-sim takes it when every PE is
     * blocked: the cycle it counts from does not depend on when this PE runs) */
    after = cycles == 0 ? 1u : cycles > 0x7fffffffu ? 0x7fffffffu : (uint32_t)cycles;
    cur = __atomic_load_n(&c->slot->wake_after, __ATOMIC_ACQUIRE);
    while ((cur == 0 || after < cur) &&
           !__atomic_compare_exchange_n(&c->slot->wake_after, &cur, after, 0, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
        ;
    return ticket;
}

uint32_t kolo_sim_wake_ticket(const kolo_sim_client *c) {
    return c ? __atomic_load_n(&c->slot->wake_fired, __ATOMIC_ACQUIRE) : 0;
}

int kolo_sim_poll_fired(const kolo_sim_client *c, uint32_t ticket) {
    return c && c->shm->det && __atomic_load_n(&c->slot->wake_fired, __ATOMIC_ACQUIRE) != ticket;
}

int kolo_sim_poll_wait(kolo_sim_client *c, uint32_t seq, uint32_t ticket) {
    unsigned long n = 0;
    if (!c || !c->shm->det)
        return 1;
    set_thread(c, T_SLEEPING, seq);
    /* (a time-out of the futex is no reason to go: it depends on the wall clock) */
    while (__atomic_load_n(&c->slot->dma_seq, __ATOMIC_ACQUIRE) == seq)
        sleep_on_seq(c, seq, &n);
    set_thread(c, T_OUT, 0);
    step_wait(c);
    return __atomic_load_n(&c->slot->wake_fired, __ATOMIC_ACQUIRE) != ticket;
}

void kolo_sim_wait_end(kolo_sim_client *c) {
    if (c && c->shm->det)
        set_thread(c, T_OUT, 0);
}

/* the ring's lock: a thread that must wait for it (another thread holds it,
 * perhaps waiting for a read's answer) is out of its waits meanwhile, else a
 * thread LOOKING at its condition but stuck here would hold time back for good */
static void ring_lock(kolo_sim_client *c) {
    kolo_sim_thread *t;
    int state;
    uint32_t seen;
    if (!pthread_mutex_trylock(&c->lock))
        return;
    if (!c->shm->det) {
        pthread_mutex_lock(&c->lock);
        return;
    }
    pthread_mutex_lock(&c->wlock);
    t = me_thread(c);
    state = t ? __atomic_load_n(&t->state, __ATOMIC_ACQUIRE) : T_OUT;
    seen = t ? t->seen : 0;
    pthread_mutex_unlock(&c->wlock);
    if (state != T_OUT)
        set_thread(c, T_OUT, 0);
    pthread_mutex_lock(&c->lock);
    if (state != T_OUT)
        set_thread(c, state, seen);
}

/* a wait of the client itself (the ring's lock held; the thread records have their own) */
static void idle_locked(kolo_sim_client *c, uint32_t seq, unsigned long *n) {
    kolo_sim_wait_idle(c, seq, n);
}

int kolo_sim_deterministic(const kolo_sim_client *c) { return c && c->shm->det; }

void kolo_sim_check_alive(const kolo_sim_client *c) {
    if (c)
        check_alive(c);
}

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
    ring_lock(c);
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
    ring_lock(c); /* one read in flight per PE */
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
