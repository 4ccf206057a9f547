/* test_sim_server.c - the server side of the kolo-sim shared-memory protocol
 * (sw/lib/kolo_sim_server.c) against the PE side (kolo_sim_client.c), in one
 * process (and a child for a PE that dies): the segment and its header, a
 * name in use, slot claims, MMIO writes and reads through the ring in order
 * with their positions, each request kind's bytes, a full ring, a broken one, read answers (good and
 * error), DMA into the PE (process_vm on this process) and the bump, detach,
 * reset for the next job, a PE gone without detaching, --det's poll wakes,
 * close. ASan/UBSan. */
#define _GNU_SOURCE
#include "kolo_sim_client.h"
#include "kolo_sim_server.h"
#include "test_util.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    kolo_sim_client *c;
    unsigned size;
    uint64_t val;
    int rc;
} read_job;

static void *do_read(void *p) {
    read_job *j = (read_job *)p;
    j->rc = kolo_sim_mmio_read(j->c, 0, 0x20, j->size, &j->val);
    return NULL;
}

/* the next request of PE pe, waiting up to 5 s for the reading thread to send it */
static const kolo_mmio_req *next_req(kolo_sim_shm *s, unsigned pe) {
    const kolo_mmio_req *q = NULL;
    int i;
    for (i = 0; i < 5000 && !q; i++) {
        struct timespec ts = {0, 1000000};
        q = kolo_sim_ring_peek(s, pe, NULL);
        if (!q)
            nanosleep(&ts, NULL);
    }
    return q;
}

static void serve_read(kolo_sim_shm *s, kolo_sim_client *c, unsigned size, uint64_t data, int err,
                       uint64_t want_pos) {
    read_job j = {c, size, 0, 99};
    pthread_t t;
    const kolo_mmio_req *q;
    uint64_t pos;
    pthread_create(&t, NULL, do_read, &j);
    q = next_req(s, 0);
    CHECK(q != NULL, "the read reached the ring");
    if (q) {
        CHECK_EQ(q->kind, size == 4 ? KOLO_MMIO_R32 : KOLO_MMIO_R64, "read kind");
        CHECK_EQ(q->offset, 0x20, "read offset");
        pos = kolo_sim_ring_pos(s, 0);
        CHECK_EQ(pos, want_pos, "read position");
        CHECK_EQ(kolo_sim_ring_pop(s, 0), 0, "ring not full");
        kolo_sim_read_answer(s, 0, pos, data, err);
        kolo_sim_pe_bump(s, 0);
    }
    pthread_join(t, NULL);
    if (err) {
        CHECK_EQ(j.rc, -1, "an error completion");
        CHECK(j.val == ~0ull, "error read value %#" PRIx64, j.val);
    } else {
        CHECK_EQ(j.rc, 0, "read answered");
        CHECK(j.val == (size == 4 ? (data & 0xffffffffull) : data), "read value %#" PRIx64, j.val);
    }
}

int main(int argc, char **argv) {
    char name[64], err[256];
    const uint8_t torus[3] = {2, 1, 1};
    const uint16_t ids[2] = {0x000, 0x001};
    size_t size = 0;
    kolo_sim_shm *s;
    kolo_sim_client *c, *c2;
    uint64_t d1, d2;
    const kolo_mmio_req *cq;
    uint32_t v32 = 0x12345678u, seq;
    uint64_t buf[4] = {1, 2, 3, 4}, src[4] = {0x11, 0x22, 0x33, 0x44}, pos0;
    unsigned i;
    int32_t pid = 0;
    int bad = 0, fd;
    pid_t child;

    (void)test_seed(argc, argv, "test_sim_server"); /* the read data and the DMA offset */
    d1 = test_rand64();
    d2 = test_rand64();
    snprintf(name, sizeof name, "/kolo-test-sim-server.%d", (int)getpid());
    CHECK_EQ(kolo_sim_server_name_free(name, err, sizeof err), 1, "no segment: free");

    s = kolo_sim_server_create(name, 2, torus, 250, ids, 0, 1, &size, err, sizeof err);
    CHECK(s != NULL, "create: %s", err);
    if (!s)
        return test_finish("test_sim_server");
    CHECK_EQ(size, kolo_sim_shm_size(2), "size");
    CHECK(s->magic == KOLO_SIM_MAGIC && s->version == KOLO_SIM_VERSION && s->npes == 2, "header");
    CHECK(s->torus[0] == 2 && s->torus[1] == 1 && s->torus[2] == 1, "torus");
    CHECK(s->server == 1 && s->det == 0 && s->core_mhz == 250 && s->sim_pid == getpid(), "header");
    CHECK_EQ(__atomic_load_n(&s->sim_alive, __ATOMIC_ACQUIRE), 1, "alive");
    CHECK_EQ(kolo_sim_shm_pe_slot(s, 1)->node_id, 1, "node id of PE 1");
    CHECK(kolo_sim_server_create(name, 2, torus, 250, ids, 0, 1, NULL, err, sizeof err) == NULL &&
              errno == EEXIST,
          "a second create of one name");
    CHECK_EQ(kolo_sim_server_name_free(name, err, sizeof err), 0, "a running server's name");
    CHECK(strstr(err, "runs on") != NULL, "message: %s", err);
    CHECK_EQ(kolo_sim_server_pe_state(s, 0, &pid), KOLO_SIM_PE_ABSENT, "nobody yet");

    /* PE 0 attaches (this process) */
    setenv("KOLO_SIM_SHM", name, 1);
    unsetenv("KOLO_NPES");
    c = kolo_sim_attach_pe(0, err, sizeof err);
    CHECK(c != NULL, "attach: %s", err);
    if (!c)
        return test_finish("test_sim_server");
    CHECK_EQ(kolo_sim_server_pe_state(s, 0, &pid), KOLO_SIM_PE_ATTACHED, "attached");
    CHECK_EQ(pid, getpid(), "its pid");
    c2 = kolo_sim_attach_pe(0, err, sizeof err);
    CHECK(c2 == NULL && strstr(err, "taken"), "the slot is taken: %s", err);
    CHECK(kolo_sim_attach_pe(2, err, sizeof err) == NULL && strstr(err, "outside the 2 PEs"),
          "no PE 2: %s", err);

    /* writes in order, then reads with their positions */
    CHECK(kolo_sim_ring_peek(s, 0, &bad) == NULL && !bad, "empty ring");
    CHECK_EQ(kolo_sim_mmio_write(c, 0, 0x10, &v32, 4), 0, "W32");
    CHECK_EQ(kolo_sim_mmio_write(c, 2, 0x40, src, 8), 0, "W64");
    cq = kolo_sim_ring_peek(s, 0, &bad);
    CHECK(cq && cq->kind == KOLO_MMIO_W32 && cq->bar == 0 && cq->offset == 0x10 &&
              cq->data[0] == 0x12345678u,
          "the first write");
    CHECK_EQ(kolo_sim_ring_pos(s, 0), 0, "position 0");
    CHECK_EQ(kolo_sim_ring_pop(s, 0), 0, "pop");
    cq = kolo_sim_ring_peek(s, 0, &bad);
    CHECK(cq && cq->kind == KOLO_MMIO_W64 && cq->bar == 2 && cq->offset == 0x40 && cq->data[0] == 0x11,
          "the second write");
    CHECK_EQ(kolo_sim_ring_pop(s, 0), 0, "pop");
    serve_read(s, c, 8, d1, 0, 2);
    serve_read(s, c, 4, d2, 0, 3);
    serve_read(s, c, 8, 0, 1, 4);

    /* the bytes of each request kind, as the client sends them; unknown kinds 0 */
    {
        static const struct {
            uint32_t kind;
            unsigned len;
            int rd;
        } kinds[] = {{0, 0, 0},
                     {KOLO_MMIO_W32, 4, 0},
                     {KOLO_MMIO_W64, 8, 0},
                     {KOLO_MMIO_W512, 64, 0},
                     {KOLO_MMIO_R32, 4, 1},
                     {KOLO_MMIO_R64, 8, 1},
                     {KOLO_MMIO_R64 + 1, 0, 0},
                     {0xffffffffu, 0, 0}};
        uint64_t w[8] = {1, 2, 3, 4, 5, 6, 7, 0x88};
        unsigned k;
        for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            kolo_mmio_req q = {.kind = kinds[k].kind};
            int rd = -1;
            CHECK_EQ(kolo_sim_req_len(&q, &rd), kinds[k].len, "kind %u bytes", kinds[k].kind);
            CHECK_EQ(rd, kinds[k].rd, "kind %u is a read", kinds[k].kind);
            CHECK_EQ(kolo_sim_req_len(&q, NULL), kinds[k].len, "kind %u, no is_read", kinds[k].kind);
        }
        CHECK_EQ(kolo_sim_mmio_write(c, 2, 0x80, w, 64), 0, "W512");
        cq = kolo_sim_ring_peek(s, 0, &bad);
        CHECK(cq && kolo_sim_req_len(cq, NULL) == 64 && cq->data[7] == 0x88,
              "a 64-byte write: 64 bytes");
        CHECK_EQ(kolo_sim_ring_pop(s, 0), 0, "pop");
    }

    /* a full ring: the pop that makes room says so */
    for (i = 0; i < KOLO_SIM_RING; i++)
        kolo_sim_mmio_write(c, 0, 8 * (uint64_t)i, &v32, 4);
    pos0 = kolo_sim_ring_pos(s, 0);
    CHECK_EQ(kolo_sim_ring_pop(s, 0), 1, "the full ring's first pop");
    for (i = 1; i < KOLO_SIM_RING; i++) {
        cq = kolo_sim_ring_peek(s, 0, NULL);
        CHECK(cq && cq->offset == 8 * (uint64_t)i, "write %u in order", i);
        CHECK_EQ(kolo_sim_ring_pop(s, 0), 0, "pop %u", i);
    }
    CHECK_EQ(kolo_sim_ring_pos(s, 0), pos0 + KOLO_SIM_RING, "positions");
    /* a broken ring: head too far ahead */
    {
        kolo_mmio_ring *r = kolo_sim_ring(s, 0);
        uint64_t h = r->head;
        r->head = r->tail + KOLO_SIM_RING + 1;
        CHECK(kolo_sim_ring_peek(s, 0, &bad) == NULL && bad == 1, "broken ring");
        r->head = h;
    }

    /* DMA into the PE's memory, and the bump its waits see */
    seq = kolo_sim_shm_pe_slot(s, 0)->dma_seq;
    CHECK_EQ(kolo_sim_pe_access(s, 0, (uint64_t)(uintptr_t)buf, src, sizeof buf, 1), 0, "DMA write");
    kolo_sim_pe_bump(s, 0);
    CHECK(memcmp(buf, src, sizeof buf) == 0, "written");
    CHECK(kolo_sim_shm_pe_slot(s, 0)->dma_seq == seq + 1, "bumped");
    memset(src, 0, sizeof src);
    i = test_rand(3);
    CHECK_EQ(kolo_sim_pe_access(s, 0, (uint64_t)(uintptr_t)&buf[i], src, 8, 0), 0, "DMA read");
    CHECK(src[0] == 0x11 * (i + 1) && src[1] == 0, "read word %u: %#" PRIx64, i, src[0]);
    CHECK_EQ(kolo_sim_pe_access(s, 0, 8, src, 8, 0), -1, "an unmapped address");
    CHECK_EQ(kolo_sim_pe_access(s, 1, (uint64_t)(uintptr_t)buf, src, 8, 0), -1, "a PE not attached");

    /* detach, then the slot free for the next job */
    kolo_sim_detach(c);
    CHECK_EQ(kolo_sim_server_pe_state(s, 0, &pid), KOLO_SIM_PE_DETACHED, "detached");
    CHECK_EQ(kolo_sim_pe_access(s, 0, (uint64_t)(uintptr_t)buf, src, 8, 0), -1, "no DMA after");
    kolo_sim_server_pe_reset(s, 0);
    CHECK_EQ(kolo_sim_server_pe_state(s, 0, &pid), KOLO_SIM_PE_ABSENT, "reset");
    c = kolo_sim_attach_pe(0, err, sizeof err);
    CHECK(c != NULL, "attach again: %s", err);
    kolo_sim_detach(c);

    /* a PE gone without detaching */
    fflush(NULL);
    child = fork();
    if (child == 0) {
        kolo_sim_client *cc = kolo_sim_attach_pe(1, NULL, 0);
        _exit(cc ? 0 : 1);
    }
    {
        int ws = 0;
        waitpid(child, &ws, 0);
        CHECK(WIFEXITED(ws) && WEXITSTATUS(ws) == 0, "the child attached");
    }
    CHECK_EQ(kolo_sim_server_pe_state(s, 1, &pid), KOLO_SIM_PE_GONE, "gone");
    CHECK_EQ(pid, child, "its pid");

    /* --det's poll wakes (kolo_sim_det_take_wake / _wake_due): the one rule of
     * kolo-sim (cycles, unit 1) and the board server (ps, unit 4000) */
    {
        kolo_pe_slot *ws = kolo_sim_shm_pe_slot(s, 0);
        uint64_t due = 0;
        uint32_t fired0 = __atomic_load_n(&ws->wake_fired, __ATOMIC_ACQUIRE);
        __atomic_store_n(&ws->wake_after, 30u, __ATOMIC_RELEASE);
        kolo_sim_det_take_wake(s, 0, 1000, 4000, &due);
        CHECK_EQ(due, 1000u + 30u * 4000u, "wake: 30 cycles of 4000 ps after now");
        CHECK_EQ(__atomic_load_n(&ws->wake_after, __ATOMIC_ACQUIRE), 0u, "wake_after taken");
        kolo_sim_det_take_wake(s, 0, 5000, 4000, &due);
        CHECK_EQ(due, 121000u, "nothing asked: the pending wake stays");
        __atomic_store_n(&ws->wake_after, 50u, __ATOMIC_RELEASE);
        kolo_sim_det_take_wake(s, 0, 2000, 4000, &due);
        CHECK_EQ(due, 121000u, "a later wake does not move the pending one");
        __atomic_store_n(&ws->wake_after, 10u, __ATOMIC_RELEASE);
        kolo_sim_det_take_wake(s, 0, 2000, 4000, &due);
        CHECK_EQ(due, 42000u, "an earlier wake replaces the pending one");
        CHECK_EQ(kolo_sim_det_wake_due(s, 0, 41999, &due, 1), 0, "not due a ps early");
        CHECK_EQ(due, 42000u, "still pending");
        CHECK_EQ(__atomic_load_n(&ws->wake_fired, __ATOMIC_ACQUIRE), fired0, "not fired early");
        CHECK_EQ(kolo_sim_det_wake_due(s, 0, 42000, &due, 1), 1, "due at its time");
        CHECK_EQ(due, 0u, "cleared");
        CHECK_EQ(__atomic_load_n(&ws->wake_fired, __ATOMIC_ACQUIRE), fired0 + 1, "fired once");
        CHECK_EQ(kolo_sim_det_wake_due(s, 0, 90000, &due, 1), 0, "fired only once");
        __atomic_store_n(&ws->wake_after, 5u, __ATOMIC_RELEASE);
        kolo_sim_det_take_wake(s, 0, 7, 1, &due);
        CHECK_EQ(due, 12u, "cycles: unit 1");
        CHECK_EQ(kolo_sim_det_wake_due(s, 0, 12, &due, 0), 0, "a gone PE is not woken");
        CHECK_EQ(due, 0u, "but its wake is cleared");
        CHECK_EQ(__atomic_load_n(&ws->wake_fired, __ATOMIC_ACQUIRE), fired0 + 1, "nothing fired");
    }

    /* close: the name is gone */
    kolo_sim_server_close(s, size, name);
    fd = shm_open(name, O_RDWR, 0);
    CHECK(fd < 0, "unlinked");
    if (fd >= 0)
        close(fd);
    CHECK_EQ(kolo_sim_server_name_free(name, err, sizeof err), 1, "free again");
    return test_finish("test_sim_server");
}
