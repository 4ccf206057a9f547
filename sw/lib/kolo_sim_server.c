/* kolo_sim_server.c - the simulator side of the kolo-sim shared-memory
 * protocol. See kolo_sim_server.h and sw/include/kolo_sim_shm.h. */
#define _GNU_SOURCE
#include "kolo_err.h"
#include "kolo_sim_server.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

int kolo_sim_server_name_free(const char *name, char *err, size_t errlen) {
    kolo_sim_shm h;
    ssize_t n;
    int fd = shm_open(name, O_RDWR, 0);
    if (fd < 0)
        return 1;
    n = read(fd, &h, sizeof h);
    close(fd);
    if (n == (ssize_t)sizeof h && h.magic == KOLO_SIM_MAGIC && h.sim_pid > 0 &&
        kill(h.sim_pid, 0) == 0 && h.sim_alive) {
        kolo_set_err(err, errlen, "a kolo-sim server runs on %s already (pid %d)", name, (int)h.sim_pid);
        return 0;
    }
    shm_unlink(name);
    return 1;
}

kolo_sim_shm *kolo_sim_server_create(const char *name, uint32_t npes, const uint8_t torus[3],
                                     uint32_t core_mhz, const uint16_t *node_id, int det,
                                     int server, size_t *size, char *err, size_t errlen) {
    size_t sz = kolo_sim_shm_size(npes);
    kolo_sim_shm *s;
    void *p;
    unsigned i;
    int e, fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) {
        e = errno;
        kolo_set_err(err, errlen, "shm_open(%s): %s", name, strerror(e));
        errno = e;
        return NULL;
    }
    if (ftruncate(fd, (off_t)sz)) {
        e = errno;
        kolo_set_err(err, errlen, "ftruncate(%s, %zu): %s", name, sz, strerror(e));
        close(fd);
        shm_unlink(name);
        errno = e;
        return NULL;
    }
    p = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        e = errno;
        kolo_set_err(err, errlen, "mmap(%s): %s", name, strerror(e));
        shm_unlink(name);
        errno = e;
        return NULL;
    }
    memset(p, 0, sz);
    s = (kolo_sim_shm *)p;
    s->magic = KOLO_SIM_MAGIC;
    s->version = KOLO_SIM_VERSION;
    s->npes = npes;
    memcpy(s->torus, torus, 3);
    s->sim_pid = (int32_t)getpid();
    s->core_mhz = core_mhz;
    for (i = 0; i < npes; i++) {
        kolo_pe_slot *slot = kolo_sim_shm_pe_slot(s, i);
        slot->node_id = node_id[i];
        slot->ctx = 0;
    }
    s->det = det ? 1u : 0u;
    s->server = server ? 1u : 0u;
    __atomic_store_n(&s->sim_alive, 1u, __ATOMIC_RELEASE);
    if (size)
        *size = sz;
    return s;
}

void kolo_sim_server_close(kolo_sim_shm *s, size_t size, const char *name) {
    if (s) {
        __atomic_store_n(&s->sim_alive, 0u, __ATOMIC_RELEASE);
        munmap(s, size);
    }
    if (name && *name)
        shm_unlink(name);
}

int kolo_sim_server_pe_state(kolo_sim_shm *s, unsigned pe, int32_t *pid) {
    kolo_pe_slot *slot = kolo_sim_shm_pe_slot(s, pe);
    uint32_t st = __atomic_load_n(&slot->state, __ATOMIC_ACQUIRE);
    if (pid)
        *pid = slot->pid;
    if (st == KOLO_PE_NONE)
        return KOLO_SIM_PE_ABSENT;
    if (st == KOLO_PE_EXITED)
        return KOLO_SIM_PE_DETACHED;
    if (slot->pid > 0 && kill(slot->pid, 0) != 0 && errno == ESRCH)
        return KOLO_SIM_PE_GONE;
    return KOLO_SIM_PE_ATTACHED;
}

void kolo_sim_server_pe_reset(kolo_sim_shm *s, unsigned pe) {
    kolo_pe_slot *slot = kolo_sim_shm_pe_slot(s, pe);
    memset(slot->info, 0, sizeof slot->info);
    __atomic_store_n(&slot->info_ready, 0u, __ATOMIC_RELEASE);
    __atomic_store_n(&slot->wait_state, (uint32_t)KOLO_PE_COMPUTING, __ATOMIC_RELEASE);
    slot->pid = 0;
    __atomic_store_n(&slot->state, (uint32_t)KOLO_PE_NONE, __ATOMIC_RELEASE);
}

const kolo_mmio_req *kolo_sim_ring_peek(kolo_sim_shm *s, unsigned pe, int *bad) {
    kolo_mmio_ring *r = kolo_sim_ring(s, pe);
    uint64_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE), tail = r->tail;
    if (bad)
        *bad = head - tail > KOLO_SIM_RING;
    if (head == tail || head - tail > KOLO_SIM_RING)
        return NULL;
    return &r->req[tail % KOLO_SIM_RING];
}

uint64_t kolo_sim_ring_pos(kolo_sim_shm *s, unsigned pe) { return kolo_sim_ring(s, pe)->tail; }

int kolo_sim_ring_pop(kolo_sim_shm *s, unsigned pe) {
    kolo_mmio_ring *r = kolo_sim_ring(s, pe);
    uint64_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE), tail = r->tail;
    __atomic_store_n(&r->tail, tail + 1, __ATOMIC_RELEASE);
    return head - tail == KOLO_SIM_RING;
}

unsigned kolo_sim_req_len(const kolo_mmio_req *q, int *is_read) {
    static const unsigned len[] = {[KOLO_MMIO_W32] = 4, [KOLO_MMIO_W64] = 8,
                                   [KOLO_MMIO_W512] = 64, [KOLO_MMIO_R32] = 4,
                                   [KOLO_MMIO_R64] = 8};
    uint32_t k = q->kind;
    if (is_read)
        *is_read = k == KOLO_MMIO_R32 || k == KOLO_MMIO_R64;
    return k < sizeof len / sizeof len[0] ? len[k] : 0;
}

void kolo_sim_read_answer(kolo_sim_shm *s, unsigned pe, uint64_t pos, uint64_t data, int err) {
    kolo_mmio_ring *r = kolo_sim_ring(s, pe);
    r->rd_data = err ? ~0ull : data;
    r->rd_err = err ? 1u : 0u;
    __atomic_store_n(&r->rd_done, pos + 1, __ATOMIC_RELEASE);
}

int kolo_sim_pe_access(kolo_sim_shm *s, unsigned pe, uint64_t addr, void *buf, size_t len,
                       int write) {
    kolo_pe_slot *slot = kolo_sim_shm_pe_slot(s, pe);
    struct iovec local, remote;
    ssize_t r;
    if (len == 0)
        return 0;
    /* only a live, attached PE: a reaped pid may already belong to someone else */
    if (__atomic_load_n(&slot->state, __ATOMIC_ACQUIRE) != KOLO_PE_RUNNING || slot->pid <= 0)
        return -1;
    local.iov_base = buf;
    local.iov_len = len;
    remote.iov_base = (void *)(uintptr_t)addr;
    remote.iov_len = len;
    r = write ? process_vm_writev(slot->pid, &local, 1, &remote, 1, 0)
              : process_vm_readv(slot->pid, &local, 1, &remote, 1, 0);
    if (r != (ssize_t)len) {
        if (r >= 0)
            errno = EFAULT; /* partial */
        return -1;
    }
    return 0;
}

void kolo_sim_pe_bump(kolo_sim_shm *s, unsigned pe) {
    kolo_pe_slot *slot = kolo_sim_shm_pe_slot(s, pe);
    __atomic_add_fetch(&slot->dma_seq, 1u, __ATOMIC_SEQ_CST);
    /* (a thread of a PE with several may sleep while another is out of its waits) */
    if (s->det && (__atomic_load_n(&slot->wait_state, __ATOMIC_ACQUIRE) == KOLO_PE_WAITING ||
                   __atomic_load_n(&slot->sleepers, __ATOMIC_SEQ_CST)))
        syscall(SYS_futex, &slot->dma_seq, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

int kolo_sim_det_slot_blocked(kolo_sim_shm *s, unsigned pe) {
    const kolo_pe_slot *slot = kolo_sim_shm_pe_slot(s, pe);
    uint32_t st = __atomic_load_n(&slot->state, __ATOMIC_ACQUIRE);
    if (st == KOLO_PE_EXITED)
        return 1;
    if (st != KOLO_PE_RUNNING ||
        __atomic_load_n(&slot->wait_state, __ATOMIC_ACQUIRE) != KOLO_PE_WAITING)
        return 0;
    return slot->wait_seen == __atomic_load_n(&slot->dma_seq, __ATOMIC_ACQUIRE);
}

int kolo_sim_det_slot_partial(kolo_sim_shm *s, unsigned pe) {
    const kolo_pe_slot *slot = kolo_sim_shm_pe_slot(s, pe);
    return __atomic_load_n(&slot->wait_state, __ATOMIC_ACQUIRE) == KOLO_PE_WAITING &&
           __atomic_load_n(&slot->wait_partial, __ATOMIC_ACQUIRE);
}

static int det_all_blocked(kolo_sim_shm *s, kolo_sim_det_blocked_fn blocked, void *arg) {
    unsigned i;
    for (i = 0; i < s->npes; i++)
        if (!(blocked ? blocked(arg, i) : kolo_sim_det_slot_blocked(s, i)))
            return 0;
    return 1;
}

int kolo_sim_det_try_step(kolo_sim_shm *s, kolo_sim_det_blocked_fn blocked, void *arg) {
    if (!det_all_blocked(s, blocked, arg))
        return 0;
    /* (a PE's sleep may have timed out since it was seen blocked: it then leaves its
     * wait, and looks only once det_busy is 0 again; one of the two sees the other.
     * An exchange, a full barrier on its own: no separate fence, which the
     * ThreadSanitizer build of libkolo does not accept) */
    (void)__atomic_exchange_n(&s->det_busy, 1u, __ATOMIC_SEQ_CST);
    if (det_all_blocked(s, blocked, arg))
        return 1;
    __atomic_store_n(&s->det_busy, 0u, __ATOMIC_SEQ_CST);
    return 0;
}

void kolo_sim_det_end_step(kolo_sim_shm *s) { __atomic_store_n(&s->det_busy, 0u, __ATOMIC_SEQ_CST); }

uint32_t kolo_sim_det_event(kolo_sim_shm *s) { return __atomic_load_n(&s->pe_event, __ATOMIC_ACQUIRE); }

void kolo_sim_det_wait(kolo_sim_shm *s, uint32_t ev, long ns) {
    struct timespec ts;
    ts.tv_sec = ns / 1000000000L;
    ts.tv_nsec = ns % 1000000000L;
    syscall(SYS_futex, &s->pe_event, FUTEX_WAIT, ev, &ts, NULL, 0);
}

void kolo_sim_det_take_wake(kolo_sim_shm *s, unsigned pe, uint64_t now, uint64_t unit,
                            uint64_t *due) {
    const uint32_t a =
        __atomic_exchange_n(&kolo_sim_shm_pe_slot(s, pe)->wake_after, 0u, __ATOMIC_ACQ_REL);
    const uint64_t t = now + (uint64_t)a * unit;
    if (a && (!*due || t < *due))
        *due = t;
}

int kolo_sim_det_wake_due(kolo_sim_shm *s, unsigned pe, uint64_t now, uint64_t *due, int live) {
    if (!*due || now < *due)
        return 0;
    *due = 0;
    if (!live)
        return 0;
    __atomic_add_fetch(&kolo_sim_shm_pe_slot(s, pe)->wake_fired, 1u, __ATOMIC_RELEASE);
    return 1;
}
