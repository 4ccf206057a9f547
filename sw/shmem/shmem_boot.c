/* shmem_boot.c - libkolo_shmem: the start-up exchange over the kolo network
 * itself, for PEs started by a launcher that only says rank and size
 * (mpirun, mpiexec, srun; and kolo-sim --server). No other channel is needed.
 *
 * Every PE maps the exchange area at the same address (KSHMEM_BOOT_ADDR: a
 * fixed address because a put names an absolute remote address), opens NI
 * window 15 over it with the fixed key KSHMEM_BOOT_KEY (write only), and
 * puts its 64-byte record - rank, node, torus, the bases, lengths and keys
 * of its two symmetric windows, sealed with a checksum - into slot `rank` of
 * that area on every node of the torus. A put to a node whose window is not
 * open yet (no PE there, or not started yet) is refused (REMOTE_KEY), or a
 * node may be unreachable: those are tried again, until this PE has every
 * record and has delivered its own to every node that has a PE. A record is
 * taken once its seal matches (a record being written is seen torn at worst,
 * never wrong). Then: the same torus everywhere, one PE per node, the same
 * program (data size) and heap size, or a clear error. Window 15 is closed
 * after the first barrier (by then every PE has finished its exchange). */
#define _GNU_SOURCE
#include "shmem_internal.h"
#include "kolo_sim_client.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define KSHMEM_BOOT_ADDR 0x7e000000ul /* below 2 GiB: application memory under ASan and TSan too */
#define KSHMEM_BOOT_WIN 15
#define KSHMEM_BOOT_CHECK 0xA
#define KSHMEM_BOOT_MAGIC 0x31544f4f424f4c4bull /* "KLOBOOT1" */
#define KSHMEM_BOOT_PAUSE_CYCLES 1024 /* --det: between rounds (4 us at 250 MHz) */

typedef struct {
    uint64_t id;        /* rank 31:0, npes 63:32 */
    uint64_t where;     /* node id 15:0, dims 39:16 (x, y, z bytes) */
    uint64_t data_base, data_len, heap_base, heap_len;
    uint64_t keys;      /* data key 7:0, heap key 15:8 */
    uint64_t seal;      /* KSHMEM_BOOT_MAGIC ^ hash of the others */
} boot_rec;
_Static_assert(sizeof(boot_rec) == 64, "one record is 64 bytes");

static boot_rec *area;
static size_t area_len;

static uint64_t seal_of(const boot_rec *r) {
    const uint64_t *w = (const uint64_t *)r;
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < 7; i++) {
        h ^= w[i];
        h *= 0x100000001b3ull;
        h ^= h >> 29;
    }
    return KSHMEM_BOOT_MAGIC ^ h;
}

static int rec_valid(const boot_rec *r) {
    boot_rec c;
    memcpy(&c, (const void *)r, sizeof c); /* one look: the NI may be writing it */
    return c.seal == seal_of(&c);
}

static uint64_t dims_word(const uint8_t d[3]) {
    return (uint64_t)d[0] | (uint64_t)d[1] << 8 | (uint64_t)d[2] << 16;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void node_name(uint16_t n, char *b, size_t len) {
    snprintf(b, len, "(%u,%u,%u)", n & 15u, (n >> 4) & 15u, (n >> 8) & 15u);
}

void kshmem_boot_exchange(const kshmem_launch *l, uint8_t kdata, uint8_t kheap) {
    static boot_rec mine; /* the puts' source: stays until they complete */
    uint8_t dims[3], key;
    unsigned nodes, n, have = 0, i;
    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    uint8_t *delivered, *is_pe;
    kolo_req *req;
    double t0 = now_s(), limit = 300, last_note = t0;
    const char *lim = getenv("SHMEM_BOOT_TIMEOUT");
    unsigned long round = 0;
    int rc;

    if (lim && *lim)
        limit = strtod(lim, NULL);
    kolo_dev_torus(kshmem.dev, dims);
    nodes = (unsigned)dims[0] * dims[1] * dims[2];
    if ((unsigned)kshmem.npes > nodes)
        kshmem_fatal("shmem_init: the launcher (%s) started %d PEs, the %ux%ux%u torus has %u nodes "
                     "(one PE per node)",
                     l->name, kshmem.npes, dims[0], dims[1], dims[2], nodes);
    area_len = ((size_t)kshmem.npes * sizeof(boot_rec) + ps - 1) & ~(ps - 1);
    area = (boot_rec *)mmap((void *)KSHMEM_BOOT_ADDR, area_len, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (area == (boot_rec *)MAP_FAILED || (uintptr_t)area != KSHMEM_BOOT_ADDR)
        kshmem_fatal("shmem_init: cannot map the start-up exchange area at %#lx (%zu bytes): %s "
                     "(every PE needs it at that address)",
                     KSHMEM_BOOT_ADDR, area_len, strerror(errno));
    rc = kolo_win_open(kshmem.dev, KSHMEM_BOOT_WIN, area, area_len, KOLO_WIN_W, KSHMEM_BOOT_CHECK,
                       kolo_ctx_index(kshmem.ctx), &key);
    if (rc == KOLO_E_BUSY) {
        char b[24];
        node_name(kshmem.my_node, b, sizeof b);
        kshmem_fatal("shmem_init: window %d of the NI of node %s is in use: another PE on this node? "
                     "(kolo runs one PE per node: start one per host, and threads)",
                     KSHMEM_BOOT_WIN, b);
    }
    if (rc < 0)
        kshmem_fatal("shmem_init: opening the start-up exchange window: %s", kolo_strerror(rc));

    mine.id = (uint64_t)(uint32_t)kshmem.me | (uint64_t)(uint32_t)kshmem.npes << 32;
    mine.where = kshmem.my_node | dims_word(dims) << 16;
    mine.data_base = kshmem.data_base;
    mine.data_len = kshmem.data_len;
    mine.heap_base = kshmem.heap_base;
    mine.heap_len = kshmem.heap_len;
    mine.keys = (uint64_t)kdata | (uint64_t)kheap << 8;
    mine.seal = seal_of(&mine);
    memcpy(&area[kshmem.me], &mine, sizeof mine);

    delivered = (uint8_t *)calloc(nodes, 1);
    is_pe = (uint8_t *)calloc(nodes, 1);
    req = (kolo_req *)calloc(nodes, sizeof *req);
    if (!delivered || !is_pe || !req)
        kshmem_fatal("shmem_init: out of memory");
    for (n = 0; n < nodes; n++)
        if (kolo_dev_node_of_index(kshmem.dev, n) == kshmem.my_node)
            delivered[n] = 1; /* (it is in place) */

    for (;;) {
        int all_pes_known = have == (unsigned)kshmem.npes, done = all_pes_known;
        /* put the record to every node still without it: all of them until every
         * PE is known, then those with a PE */
        for (n = 0; n < nodes; n++) {
            if (delivered[n] || (all_pes_known && !is_pe[n]))
                continue;
            done = 0;
            rc = kolo_put_nb(kshmem.ctx, kolo_dev_node_of_index(kshmem.dev, n),
                             KSHMEM_BOOT_ADDR + (uint64_t)kshmem.me * sizeof(boot_rec),
                             (uint8_t)(KSHMEM_BOOT_CHECK << 4 | KSHMEM_BOOT_WIN), &mine,
                             sizeof mine, &req[n]);
            if (rc)
                kshmem_fatal("shmem_init: start-up exchange: %s", kolo_strerror(rc));
        }
        for (n = 0; n < nodes; n++) {
            if (delivered[n] || (all_pes_known && !is_pe[n]))
                continue;
            rc = kolo_wait(kshmem.ctx, &req[n]);
            if (!rc)
                delivered[n] = 1;
            else if (rc != KOLO_E_REMOTE_KEY && rc != KOLO_E_REMOTE_BOUNDS &&
                     rc != KOLO_E_REMOTE_RIGHTS && rc != KOLO_E_BAD_DST &&
                     rc != KOLO_E_NET_TIMEOUT)
                kshmem_fatal("shmem_init: start-up exchange: a put to node index %u: %s", n,
                             kolo_strerror(rc));
        }
        if (done)
            break;
        /* what has arrived */
        for (i = 0, have = 0; i < (unsigned)kshmem.npes; i++) {
            boot_rec r;
            uint16_t node;
            unsigned idx;
            if (!rec_valid(&area[i]))
                continue;
            memcpy(&r, (const void *)&area[i], sizeof r);
            if ((uint32_t)r.id != i || (int)(r.id >> 32) != kshmem.npes)
                kshmem_fatal("shmem_init: the PE on node %#x says it is PE %u of %u, this PE %d is "
                             "told %d PEs: not the same job?",
                             (unsigned)(r.where & 0xffff), (unsigned)(uint32_t)r.id,
                             (unsigned)(r.id >> 32), kshmem.me, kshmem.npes);
            if ((r.where >> 16) != dims_word(dims))
                kshmem_fatal("shmem_init: PE %u sees a %ux%ux%u torus, this PE %ux%ux%u (cards set up "
                             "differently)",
                             i, (unsigned)(r.where >> 16) & 255, (unsigned)(r.where >> 24) & 255,
                             (unsigned)(r.where >> 32) & 255, dims[0], dims[1], dims[2]);
            node = (uint16_t)(r.where & 0xffff);
            if (!kolo_dev_node_valid(kshmem.dev, node))
                kshmem_fatal("shmem_init: PE %u is on node %#x, outside the torus", i, node);
            for (unsigned j = 0; j < i; j++)
                if (kshmem.peer[j].known && kshmem.peer[j].node == node) {
                    char b[24];
                    node_name(node, b, sizeof b);
                    kshmem_fatal("shmem_init: PEs %u and %u both say they are on node %s: two cards "
                                 "with one node id, or two PEs on one node",
                                 j, i, b);
                }
            kshmem.peer[i].node = node;
            kshmem.peer[i].data_base = r.data_base;
            kshmem.peer[i].heap_base = r.heap_base;
            kshmem.peer[i].data_key = (uint8_t)r.keys;
            kshmem.peer[i].heap_key = (uint8_t)(r.keys >> 8);
            kshmem.peer[i].known = 1;
            if (r.data_len != kshmem.data_len)
                kshmem_fatal("shmem_init: PE %u has %llu bytes of static data, this PE %zu (not the "
                             "same program?)",
                             i, (unsigned long long)r.data_len, kshmem.data_len);
            if (r.heap_len != kshmem.heap_len)
                kshmem_fatal("shmem_init: PE %u has a symmetric heap of %llu bytes, this PE %zu "
                             "(SHMEM_SYMMETRIC_SIZE differs?)",
                             i, (unsigned long long)r.heap_len, kshmem.heap_len);
            idx = 0;
            for (n = 0; n < nodes; n++)
                if (kolo_dev_node_of_index(kshmem.dev, n) == node)
                    idx = n;
            is_pe[idx] = 1;
            have++;
        }
        if (have < (unsigned)kshmem.npes) {
            double now = now_s();
            if (now - t0 > limit) {
                char missing[256] = "";
                size_t len = 0;
                for (i = 0; i < (unsigned)kshmem.npes && len < sizeof missing - 16; i++)
                    if (!rec_valid(&area[i]))
                        len += (size_t)snprintf(missing + len, sizeof missing - len, " %u", i);
                kshmem_fatal("shmem_init: no word from PEs%s after %.0f s (SHMEM_BOOT_TIMEOUT): the "
                             "launcher was told %d PEs; did they all start?",
                             missing, now - t0, kshmem.npes);
            }
            if (now - last_note > 10 && getenv("SHMEM_DEBUG")) {
                fprintf(stderr, "kolo-shmem: PE %d: %u of %d PEs heard from after %.0f s\n",
                        kshmem.me, have, kshmem.npes, now - t0);
                last_note = now;
            }
            /* the others are still starting: wait a little (1 ms doubling to 20 ms);
             * a job another PE has ended, or a simulator gone, ends this one */
            if (kshmem.sim)
                kolo_sim_check_alive((kolo_sim_client *)kshmem.sim);
            if (kshmem_det()) {
                /* deterministic co-simulation (a kolo-sim --server --det, the board
                 * simulation's --det): pause in simulated time. A PE asleep by the wall
                 * clock counts as computing, and simulated time stands still while
                 * one does: the other PEs' puts that this PE waits for would never
                 * move (found by test-board-sim-kc705-shmem under --det, a hang) */
                kshmem_det_pause(KSHMEM_BOOT_PAUSE_CYCLES);
            } else {
                long ms = round < 5 ? 1L << round : 20;
                struct timespec ts = {0, ms * 1000000L};
                nanosleep(&ts, NULL);
                round++;
            }
        }
    }
    free(delivered);
    free(is_pe);
    free(req);
}

/* after the first barrier every PE has finished its exchange: window 15 goes */
void kshmem_boot_done(void) {
    if (!area)
        return;
    kolo_win_close(kshmem.dev, KSHMEM_BOOT_WIN);
    munmap(area, area_len);
    area = NULL;
}
