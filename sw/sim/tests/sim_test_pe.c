/* sim_test_pe.c - test PE program for kolo-sim: talks to its NI through
 * kolo_sim_client directly, building contexts, windows, descriptors and PIO
 * writes itself from docs/ni.md (constants from kolo_ni_model.h).
 *
 * Length (~1050 lines): one PE program with one sub-command per test mode,
 * sharing the raw NI helpers (contexts, windows, descriptors, PIO) at its top;
 * each mode is a function that a split could move (planned).
 *
 *   sim_test_pe ops               puts, gets, atomics, ordering, errors between PEs
 *   sim_test_pe idle-ops CYCLE    ops, after the PEs slept until simulated CYCLE (the
 *                                 simulator skips the idle cycles: faults due then)
 *   sim_test_pe random SEED N     N random operations per PE, checked against a
 *                                 shadow; every PE replays every other PE's stream
 *                                 from the seed to check its own memory at the end
 *   sim_test_pe stream N          N pipelined 64-byte PUTs per PE (benchmark)
 *   sim_test_pe exit PE CODE [hang]  PE exits with CODE; the others exit 0 (or hang)
 *   sim_test_pe crash PE          PE dies of SIGSEGV, the others wait
 *   sim_test_pe global-exit CODE  PE 0 calls global exit, the others spin on MMIO reads
 *   sim_test_pe hang [mmio]       PE 1 hangs (computing, or spinning on MMIO reads)
 *   sim_test_pe orphan FILE       every PE appends its pid to FILE and reads MMIO forever
 *   sim_test_pe attach            attach outside kolo-sim must fail cleanly (exit 0 if it does)
 * Exit 0 when every check passed, 1 otherwise (messages on stderr).
 */
#define _GNU_SOURCE
#include "kolo_sim_client.h"

#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kolo_ni_model.h"

static kolo_sim_client *C;
static unsigned me, npes, ctx;
static int fails;

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        fprintf(stderr, "PE %u: FAIL line %d: ", me, __LINE__);                                    \
        fprintf(stderr, __VA_ARGS__);                                                              \
        fputc('\n', stderr);                                                                       \
        if (++fails > 20) {                                                                        \
            fprintf(stderr, "PE %u: too many failures\n", me);                                     \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)
#define CHECK(c, ...)                                                                              \
    do {                                                                                           \
        if (!(c))                                                                                  \
            FAIL(__VA_ARGS__);                                                                     \
    } while (0)

/* ---- MMIO ------------------------------------------------------------------------ */
static void w32(uint64_t off, uint32_t v) {
    if (kolo_sim_mmio_write(C, 0, off, &v, 4))
        FAIL("mmio write32 %#" PRIx64 " refused", off);
}
static void w64(uint64_t off, uint64_t v) {
    if (kolo_sim_mmio_write(C, 0, off, &v, 8))
        FAIL("mmio write64 %#" PRIx64 " refused", off);
}
static uint64_t r64(uint64_t off) {
    uint64_t v;
    if (kolo_sim_mmio_read(C, 0, off, 8, &v))
        FAIL("mmio read64 %#" PRIx64 " got an error completion", off);
    return v;
}
static uint32_t r32(uint64_t off) {
    uint64_t v;
    if (kolo_sim_mmio_read(C, 0, off, 4, &v))
        FAIL("mmio read32 %#" PRIx64 " got an error completion", off);
    return (uint32_t)v;
}


/* wait while cond holds, draining completions: a wait on what the simulator
 * writes (kolo-sim --det counts the PE as blocked in it: kolo_sim_client.h) */
#define WAIT_WHILE(cond)                                                                           \
    do {                                                                                           \
        unsigned long n_ = 0;                                                                      \
        for (;;) {                                                                                 \
            uint32_t seq_ = kolo_sim_wait_begin(C);                                                \
            if (!(cond))                                                                           \
                break;                                                                             \
            if (drain_cq())                                                                        \
                continue;                                                                          \
            kolo_sim_wait_idle(C, seq_, &n_);                                                      \
        }                                                                                          \
        kolo_sim_wait_end(C);                                                                      \
    } while (0)

/* ---- queues --------------------------------------------------------------------- */
#define SQ_LOG2 6
#define CQ_LOG2 7
#define SQN (1u << SQ_LOG2)
#define CQN (1u << CQ_LOG2)
static uint8_t sq[32 * SQN] __attribute__((aligned(64)));
static uint8_t cq[16 * CQN] __attribute__((aligned(64)));
static unsigned sq_pi, cq_ci, inflight;
static uint8_t comp_status[SQN];
static uint64_t comp_result[SQN];
static uint8_t comp_done[SQN];
static uint8_t slot_busy[SQN]; /* posted, completion not yet seen */
static unsigned pio_done, pio_status_bad;

typedef struct {
    uint8_t op, flags;
    uint16_t dst;
    uint32_t len;
    uint64_t raddr;
    uint8_t key;
    uint64_t w2, w3;
} desc_t;

static void put_le(uint8_t *b, uint64_t v, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}
/* docs/ni.md section 3 */
static void pack_desc(uint8_t *b, const desc_t *d) {
    memset(b, 0, 32);
    b[0] = d->op;
    b[1] = d->flags;
    put_le(b + 2, d->dst & 0xfffu, 2);
    put_le(b + 4, d->len, 4);
    put_le(b + 8, d->raddr & 0xffffffffffffull, 6);
    b[14] = d->key;
    put_le(b + 16, d->w2, 8);
    put_le(b + 24, d->w3, 8);
}

static void setup_ctx(void) {
    uint64_t base = KOLO_CSR_CTX(ctx);
    memset(cq, 0, sizeof cq);
    w64(base + KOLO_CTX_SQ_BASE, (uint64_t)(uintptr_t)sq);
    w64(base + KOLO_CTX_CQ_BASE, (uint64_t)(uintptr_t)cq);
    w64(base + KOLO_CTX_SIZES, SQ_LOG2 | (CQ_LOG2 << 8));
    w64(base + KOLO_CTX_CTRL, 1);
    uint64_t st = r64(base + KOLO_CTX_STATUS);
    CHECK((st & 3) == 1, "context %u not enabled: STATUS %#" PRIx64, ctx, st);
}

/* take every new completion entry; returns how many */
static unsigned drain_cq(void) {
    unsigned got = 0;
    for (;;) {
        volatile uint64_t *e = (volatile uint64_t *)(cq + 16 * (cq_ci % CQN));
        uint64_t w0 = __atomic_load_n((uint64_t *)e, __ATOMIC_ACQUIRE);
        unsigned phase = ((cq_ci / CQN) & 1) ? 0 : 1;
        if (((w0 >> 32) & 1) != phase)
            break;
        uint64_t res = e[1];
        unsigned idx = (unsigned)(w0 & 0xffff), status = (unsigned)((w0 >> 16) & 0xff);
        if (idx == 0xffff) {
            pio_done++;
            if (status)
                pio_status_bad = status;
        } else if (idx < SQN) {
            comp_status[idx] = (uint8_t)status;
            comp_result[idx] = res;
            comp_done[idx] = 1;
            if (!slot_busy[idx])
                FAIL("second completion for SQ slot %u", idx);
            slot_busy[idx] = 0;
            inflight--;
        } else {
            FAIL("completion with index %u", idx);
        }
        cq_ci++;
        got++;
    }
    if (got)
        w32(KOLO_CSR_DOORBELL(ctx) + KOLO_DB_CQ_CI, cq_ci & 0xffff);
    return got;
}

static void wait_slot(unsigned slot) { WAIT_WHILE(!comp_done[slot]); }

/* post a descriptor (COMPLETE set); returns its SQ slot */
static unsigned post(desc_t d) {
    unsigned slot = sq_pi % SQN;
    /* completions come in any order: the slot's own one must be in */
    WAIT_WHILE(inflight >= SQN || slot_busy[slot]);
    d.flags |= KOLO_DF_COMPLETE;
    comp_done[slot] = 0;
    slot_busy[slot] = 1;
    pack_desc(sq + 32 * slot, &d);
    sq_pi++;
    inflight++;
    w32(KOLO_CSR_DOORBELL(ctx) + KOLO_DB_SQ_PI, sq_pi & 0xffff);
    return slot;
}

static void wait_all(void) { WAIT_WHILE(inflight); }

/* post and wait: status, *result */
static unsigned run1(desc_t d, uint64_t *result) {
    unsigned s = post(d);
    wait_slot(s);
    if (result)
        *result = comp_result[s];
    return comp_status[s];
}

/* PIO: 64-byte write to BAR2 (descriptor + up to 32 inline bytes) */
static void pio_put(uint16_t dst, uint64_t raddr, uint8_t key, const void *data, unsigned len,
                    unsigned flags) {
    uint8_t b[64];
    desc_t d = {.op = KOLO_D_PUT,
                .flags = (uint8_t)(KOLO_DF_COMPLETE | flags),
                .dst = dst,
                .len = len,
                .raddr = raddr,
                .key = key};
    pack_desc(b, &d);
    memset(b + 32, 0, 32);
    memcpy(b + 32, data, len);
    if (kolo_sim_mmio_write(C, 2, KOLO_PIO_PAGE(ctx), b, 64))
        FAIL("PIO write refused");
}

/* ---- symmetric data: static, so the NI's DMA reaches global variables ------------ */
#define MAXPE 64
#define REGION 2048
static struct {
    uint8_t region[MAXPE][REGION]; /* region[s]: written only by PE s */
    uint64_t counters[16];
    uint64_t atom[MAXPE]; /* random test: atomics of PE s */
    uint32_t atom32[MAXPE * 2];
    uint64_t order[MAXPE];
} g __attribute__((aligned(64)));
static uint8_t g_ro[256] __attribute__((aligned(64))); /* read-only window */
static uint8_t getbuf_static[4096];
static uint64_t g_pe_addr[MAXPE];
static uint16_t g_node[MAXPE];

#define KEY_RW 0x50  /* window 0: g */
#define KEY_RO 0x61  /* window 1: g_ro, read only */
#define KEY_BAD 0x72 /* window 2: unmapped memory */

static uint64_t addr_of(unsigned pe, const void *p) {
    return g_pe_addr[pe] + (uint64_t)((const uint8_t *)p - (const uint8_t *)&g);
}

static void set_window(unsigned w, uint64_t base, uint64_t len, uint8_t key, uint32_t rights) {
    w64(KOLO_CSR_WIN(w) + KOLO_WIN_BASE, base);
    w64(KOLO_CSR_WIN(w) + KOLO_WIN_LEN, len);
    w64(KOLO_CSR_WIN(w) + KOLO_WIN_CTRL, key | rights | KOLO_WIN_ENABLE | (ctx << 16));
}

static uint64_t barrier_epoch;
/* through the exchange area (kolo_sim_shm_post wakes the others' waits) */
static void barrier(void) {
    barrier_epoch++;
    __atomic_store_n(&kolo_sim_slot(C, me)->info[15], barrier_epoch, __ATOMIC_RELEASE);
    kolo_sim_shm_post(C);
    for (unsigned q = 0; q < npes; q++) {
        kolo_pe_slot *s = kolo_sim_slot(C, q);
        unsigned long n = 0;
        for (;;) {
            uint32_t seq = kolo_sim_wait_begin(C);
            if (__atomic_load_n(&s->info[15], __ATOMIC_ACQUIRE) >= barrier_epoch)
                break;
            if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) == KOLO_PE_EXITED) {
                fprintf(stderr, "PE %u: PE %u left before the barrier\n", me, q);
                exit(1);
            }
            kolo_sim_wait_idle(C, seq, &n);
        }
        kolo_sim_wait_end(C);
    }
}

static void start(void) {
    char err[256];
    C = kolo_sim_attach(err, sizeof err);
    if (!C) {
        fprintf(stderr, "sim_test_pe: %s\n", err);
        exit(1);
    }
    me = kolo_sim_pe(C);
    npes = kolo_sim_npes(C);
    ctx = kolo_sim_ctx(C);
    if (npes > MAXPE) {
        fprintf(stderr, "sim_test_pe: at most %d PEs\n", MAXPE);
        exit(1);
    }
    CHECK(r32(KOLO_CSR_ID) == KOLO_NI_ID, "NI ID register");
    CHECK(r32(KOLO_CSR_NODE_ID) == kolo_sim_node_id(C), "NODE_ID %#x, client says %#x",
          r32(KOLO_CSR_NODE_ID), kolo_sim_node_id(C));
    setup_ctx();
    set_window(0, (uint64_t)(uintptr_t)&g, sizeof g, KEY_RW,
               KOLO_WIN_READ | KOLO_WIN_WRITE | KOLO_WIN_ATOMIC);
    set_window(1, (uint64_t)(uintptr_t)g_ro, sizeof g_ro, KEY_RO, KOLO_WIN_READ);
    set_window(2, 0x1000, 0x1000, KEY_BAD, KOLO_WIN_READ | KOLO_WIN_WRITE | KOLO_WIN_ATOMIC);
    kolo_pe_slot *s = kolo_sim_slot(C, me);
    s->info[0] = (uint64_t)(uintptr_t)&g;
    s->info[1] = (uint64_t)(uintptr_t)g_ro;
    __atomic_store_n(&s->info_ready, 1u, __ATOMIC_RELEASE);
    barrier();
    for (unsigned q = 0; q < npes; q++) {
        kolo_pe_slot *t = kolo_sim_slot(C, q);
        CHECK(__atomic_load_n(&t->info_ready, __ATOMIC_ACQUIRE) == 1, "PE %u info not ready", q);
        g_pe_addr[q] = t->info[0];
        g_node[q] = t->node_id;
    }
}

/* kolo-sim --ni=rtl: DMA writes are PCIe posted writes, and one the host
 * cannot complete is dropped without an answer to the NI */
static int posted_writes_silent(void) {
    const char *ni = getenv("KOLO_SIM_NI");
    return ni && !strcmp(ni, "rtl");
}

static int finish(void) {
    wait_all();
    barrier();
    uint64_t st = r64(KOLO_CSR_CTX(ctx) + KOLO_CTX_STATUS);
    CHECK((st & 2) == 0, "context stopped: STATUS %#" PRIx64, st);
    kolo_sim_detach(C);
    if (fails)
        fprintf(stderr, "PE %u: %d failures\n", me, fails);
    return fails ? 1 : 0;
}

static uint8_t pat(unsigned a, unsigned b, unsigned i) {
    return (uint8_t)(a * 131u + b * 29u + i * 7u + (i >> 8));
}

/* idle-ops: the PEs wait (asleep, so the simulator idles and skips cycles) until
 * this simulated cycle before the directed tests */
static uint64_t g_idle_until;

/* ---- ops: directed tests ------------------------------------------------------------ */
static int test_ops(void) {
    uint8_t *heap = malloc(4096);
    uint64_t res;
    unsigned st;
    const unsigned K = 8;
    start();
    while (kolo_sim_cycle(C) < g_idle_until) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    unsigned right = (me + 1) % npes, left = (me + npes - 1) % npes;
    if (me == 0) {
        g.counters[5] = ~0ull;
        g.counters[3] = 0xAAAAAAAA00000000ull;
    }
    barrier();
    /* PUT: 300 bytes from the heap, unaligned, across a 256-byte boundary */
    for (unsigned i = 0; i < 300; i++)
        heap[i] = pat(me, 1, i);
    st = run1((desc_t){.op = KOLO_D_PUT,
                       .dst = g_node[right],
                       .len = 300,
                       .raddr = addr_of(right, &g.region[me][5]),
                       .key = KEY_RW,
                       .w2 = (uintptr_t)heap},
              NULL);
    CHECK(st == KOLO_ST_OK, "PUT status %u", st);
    /* INLINE PUT of 13 bytes */
    {
        uint8_t in[16] = {0};
        uint64_t w2, w3;
        for (unsigned i = 0; i < 13; i++)
            in[i] = pat(me, 2, i);
        memcpy(&w2, in, 8);
        memcpy(&w3, in + 8, 8);
        st = run1((desc_t){.op = KOLO_D_PUT,
                           .flags = KOLO_DF_INLINE,
                           .dst = g_node[right],
                           .len = 13,
                           .raddr = addr_of(right, &g.region[me][400]),
                           .key = KEY_RW,
                           .w2 = w2,
                           .w3 = w3},
                  NULL);
        CHECK(st == KOLO_ST_OK, "INLINE PUT status %u", st);
    }
    /* PIO PUT of 32 bytes */
    {
        uint8_t in[32];
        for (unsigned i = 0; i < 32; i++)
            in[i] = pat(me, 3, i);
        pio_put(g_node[right], addr_of(right, &g.region[me][500]), KEY_RW, in, 32, 0);
        WAIT_WHILE(pio_done < 1);
        CHECK(pio_status_bad == 0, "PIO PUT status %u", pio_status_bad);
    }
    barrier();
    /* what the left neighbour wrote into my global array */
    for (unsigned i = 0; i < 300; i++)
        CHECK(g.region[left][5 + i] == pat(left, 1, i), "PUT byte %u: %#x, expected %#x", i,
              g.region[left][5 + i], pat(left, 1, i));
    CHECK(g.region[left][4] == 0 && g.region[left][305] == 0, "PUT wrote outside its range");
    for (unsigned i = 0; i < 13; i++)
        CHECK(g.region[left][400 + i] == pat(left, 2, i), "INLINE PUT byte %u", i);
    CHECK(g.region[left][413] == 0, "INLINE PUT wrote past its length");
    for (unsigned i = 0; i < 32; i++)
        CHECK(g.region[left][500 + i] == pat(left, 3, i), "PIO PUT byte %u", i);
    /* GET back what I wrote, into the heap and into a static buffer (1500 bytes, several packets)
     */
    memset(heap, 0, 4096);
    st = run1((desc_t){.op = KOLO_D_GET,
                       .dst = g_node[right],
                       .len = 300,
                       .raddr = addr_of(right, &g.region[me][5]),
                       .key = KEY_RW,
                       .w2 = (uintptr_t)(heap + 1)},
              NULL);
    CHECK(st == KOLO_ST_OK, "GET status %u", st);
    for (unsigned i = 0; i < 300; i++)
        CHECK(heap[1 + i] == pat(me, 1, i), "GET byte %u: %#x expected %#x", i, heap[1 + i],
              pat(me, 1, i));
    CHECK(heap[0] == 0 && heap[301] == 0, "GET wrote outside its buffer");
    st = run1((desc_t){.op = KOLO_D_GET,
                       .dst = g_node[right],
                       .len = 1500,
                       .raddr = addr_of(right, &g.region[me][0]),
                       .key = KEY_RW,
                       .w2 = (uintptr_t)getbuf_static},
              NULL);
    CHECK(st == KOLO_ST_OK, "GET 1500 status %u", st);
    CHECK(getbuf_static[404] == pat(me, 2, 4) && getbuf_static[531] == pat(me, 3, 31) &&
              getbuf_static[1499] == 0,
          "GET 1500 data");
    barrier();

    /* atomics, all on PE 0's global counters */
    {
        uint16_t d0 = g_node[0];
        uint64_t prev = 0;
        for (unsigned k = 0; k < K; k++) {
            st = run1((desc_t){.op = KOLO_D_FETCH_ADD,
                               .dst = d0,
                               .raddr = addr_of(0, &g.counters[0]),
                               .key = KEY_RW,
                               .w2 = 1},
                      &res);
            CHECK(st == KOLO_ST_OK, "FETCH_ADD status %u", st);
            CHECK(k == 0 || res > prev,
                  "FETCH_ADD results not increasing: %" PRIu64 " after %" PRIu64, res, prev);
            prev = res;
            uint32_t *c32 = (uint32_t *)&g.counters[3];
            st = run1((desc_t){.op = KOLO_D_FETCH_ADD,
                               .flags = KOLO_DF_SIZE32,
                               .dst = d0,
                               .raddr = addr_of(0, c32),
                               .key = KEY_RW,
                               .w2 = 1},
                      &res);
            CHECK(st == KOLO_ST_OK && res < npes * K, "FETCH_ADD32 status %u result %" PRIu64, st,
                  res);
        }
        st = run1((desc_t){.op = KOLO_D_ADD,
                           .dst = d0,
                           .raddr = addr_of(0, &g.counters[1]),
                           .key = KEY_RW,
                           .w2 = me + 1},
                  NULL);
        CHECK(st == KOLO_ST_OK, "ADD status %u", st);
        st = run1((desc_t){.op = KOLO_D_XOR,
                           .dst = d0,
                           .raddr = addr_of(0, &g.counters[2]),
                           .key = KEY_RW,
                           .w2 = 1ull << me},
                  NULL);
        CHECK(st == KOLO_ST_OK, "XOR status %u", st);
        st = run1((desc_t){.op = KOLO_D_FETCH_OR,
                           .dst = d0,
                           .raddr = addr_of(0, &g.counters[4]),
                           .key = KEY_RW,
                           .w2 = 1ull << me},
                  &res);
        CHECK(st == KOLO_ST_OK && !(res & (1ull << me)), "FETCH_OR status %u old %#" PRIx64, st,
              res);
        st = run1((desc_t){.op = KOLO_D_AND,
                           .dst = d0,
                           .raddr = addr_of(0, &g.counters[5]),
                           .key = KEY_RW,
                           .w2 = ~(1ull << me)},
                  NULL);
        CHECK(st == KOLO_ST_OK, "AND status %u", st);
        /* CSWAP increment loop */
        for (unsigned k = 0; k < K; k++) {
            uint64_t seen = 0;
            for (unsigned tries = 0;; tries++) {
                st = run1((desc_t){.op = KOLO_D_CSWAP,
                                   .dst = d0,
                                   .raddr = addr_of(0, &g.counters[6]),
                                   .key = KEY_RW,
                                   .w2 = seen + 1,
                                   .w3 = seen},
                          &res);
                CHECK(st == KOLO_ST_OK, "CSWAP status %u", st);
                if (st || res == seen)
                    break;
                seen = res;
                if (tries > 1000) {
                    FAIL("CSWAP never succeeded");
                    break;
                }
            }
        }
        st = run1((desc_t){.op = KOLO_D_SWAP,
                           .dst = d0,
                           .raddr = addr_of(0, &g.counters[7]),
                           .key = KEY_RW,
                           .w2 = me + 1},
                  &res);
        CHECK(st == KOLO_ST_OK && res <= npes, "SWAP status %u old %" PRIu64, st, res);
        st = run1((desc_t){.op = KOLO_D_FETCH_XOR,
                           .dst = d0,
                           .raddr = addr_of(0, &g.counters[8]),
                           .key = KEY_RW,
                           .w2 = 0xF0ull << (me * 8 % 56)},
                  &res);
        CHECK(st == KOLO_ST_OK, "FETCH_XOR status %u", st);
        st = run1((desc_t){.op = KOLO_D_FETCH_AND,
                           .dst = d0,
                           .raddr = addr_of(0, &g.counters[9]),
                           .key = KEY_RW,
                           .w2 = 0},
                  &res);
        CHECK(st == KOLO_ST_OK, "FETCH_AND status %u", st);
        st = run1((desc_t){.op = KOLO_D_OR,
                           .dst = d0,
                           .raddr = addr_of(0, &g.counters[10]),
                           .key = KEY_RW,
                           .w2 = 1ull << me},
                  &res);
        CHECK(st == KOLO_ST_OK, "OR status %u", st);
    }
    /* ordered PUTs, pipelined: the last one wins */
    for (unsigned j = 1; j <= 20; j++)
        post((desc_t){.op = KOLO_D_PUT,
                      .flags = KOLO_DF_INLINE | KOLO_DF_ORDERED,
                      .dst = g_node[right],
                      .len = 8,
                      .raddr = addr_of(right, &g.order[me]),
                      .key = KEY_RW,
                      .w2 = j});
    wait_all();
    barrier();
    CHECK(g.order[left] == 20, "ordered PUTs: last value %" PRIu64 ", expected 20", g.order[left]);
    if (me == 0) {
        uint64_t all = npes >= 64 ? ~0ull : (1ull << npes) - 1, sum = 0, x8 = 0;
        for (unsigned p = 0; p < npes; p++) {
            sum += p + 1;
            x8 ^= 0xF0ull << (p * 8 % 56);
        }
        CHECK(g.counters[0] == npes * K, "FETCH_ADD total %" PRIu64 ", expected %u", g.counters[0],
              npes * K);
        CHECK(g.counters[1] == sum, "ADD total %" PRIu64, g.counters[1]);
        CHECK(g.counters[2] == all, "XOR %#" PRIx64, g.counters[2]);
        CHECK(g.counters[3] == (0xAAAAAAAA00000000ull | (npes * K)), "FETCH_ADD32 word %#" PRIx64,
              g.counters[3]);
        CHECK(g.counters[4] == all, "FETCH_OR %#" PRIx64, g.counters[4]);
        CHECK(g.counters[5] == ~all, "AND %#" PRIx64, g.counters[5]);
        CHECK(g.counters[6] == npes * K, "CSWAP total %" PRIu64, g.counters[6]);
        CHECK(g.counters[7] >= 1 && g.counters[7] <= npes, "SWAP final %" PRIu64, g.counters[7]);
        CHECK(g.counters[8] == x8, "FETCH_XOR %#" PRIx64, g.counters[8]);
        CHECK(g.counters[10] == all, "OR %#" PRIx64, g.counters[10]);
    }
    barrier();
    /* refused and failing operations: the completion status says why */
    {
        uint8_t one[8] = {1, 2, 3, 4, 5, 6, 7, 8};
        uint64_t w2;
        memcpy(&w2, one, 8);
        st = run1((desc_t){.op = KOLO_D_PUT,
                           .flags = KOLO_DF_INLINE,
                           .dst = g_node[right],
                           .len = 8,
                           .raddr = addr_of(right, &g.region[me][0]),
                           .key = KEY_RW ^ 0x30,
                           .w2 = w2},
                  NULL);
        CHECK(st == KOLO_ST_REMOTE_KEY, "PUT with a wrong key: status %u", st);
        st = run1((desc_t){.op = KOLO_D_PUT,
                           .flags = KOLO_DF_INLINE,
                           .dst = g_node[right],
                           .len = 8,
                           .raddr = g_pe_addr[right] + sizeof g - 4,
                           .key = KEY_RW,
                           .w2 = w2},
                  NULL);
        CHECK(st == KOLO_ST_REMOTE_BOUNDS, "PUT across the window's end: status %u", st);
        st = run1((desc_t){.op = KOLO_D_PUT,
                           .flags = KOLO_DF_INLINE,
                           .dst = g_node[right],
                           .len = 8,
                           .raddr = kolo_sim_slot(C, right)->info[1],
                           .key = KEY_RO,
                           .w2 = w2},
                  NULL);
        CHECK(st == KOLO_ST_REMOTE_RIGHTS, "PUT to a read-only window: status %u", st);
        st = run1((desc_t){.op = KOLO_D_GET,
                           .dst = g_node[right],
                           .len = 8,
                           .raddr = kolo_sim_slot(C, right)->info[1],
                           .key = KEY_RO,
                           .w2 = (uintptr_t)heap},
                  NULL);
        CHECK(st == KOLO_ST_OK, "GET from a read-only window: status %u", st);
        st = run1((desc_t){.op = KOLO_D_GET,
                           .dst = g_node[right],
                           .len = 64,
                           .raddr = addr_of(right, &g.region[me][0]),
                           .key = KEY_RW,
                           .w2 = 0x10},
                  NULL);
        /* the NI RTL writes GET data by PCIe posted writes: a failed one is
         * dropped by the host, the NI never hears of it (docs/sim.md) */
        CHECK(st == (posted_writes_silent() ? KOLO_ST_OK : KOLO_ST_LOCAL_DMA),
              "GET into unmapped local memory: status %u", st);
        st = run1((desc_t){.op = KOLO_D_PUT,
                           .dst = g_node[right],
                           .len = 64,
                           .raddr = addr_of(right, &g.region[me][0]),
                           .key = KEY_RW,
                           .w2 = 0x20},
                  NULL);
        CHECK(st == KOLO_ST_LOCAL_DMA, "PUT from unmapped local memory: status %u", st);
        st = run1((desc_t){.op = KOLO_D_PUT,
                           .flags = KOLO_DF_INLINE,
                           .dst = g_node[right],
                           .len = 8,
                           .raddr = 0x1800,
                           .key = KEY_BAD,
                           .w2 = w2},
                  NULL);
        CHECK(st == (posted_writes_silent() ? KOLO_ST_OK : KOLO_ST_REMOTE_DMA),
              "PUT into unmapped remote memory: status %u", st);
        st = run1((desc_t){.op = KOLO_D_FETCH_ADD,
                           .dst = g_node[right],
                           .raddr = addr_of(right, &g.counters[0]) + 4,
                           .key = KEY_RW,
                           .w2 = 1},
                  NULL);
        CHECK(st == KOLO_ST_BAD_ALIGN, "unaligned atomic: status %u", st);
        st = run1((desc_t){.op = KOLO_D_PUT,
                           .dst = 0xfff,
                           .len = 8,
                           .raddr = 0,
                           .key = KEY_RW,
                           .w2 = (uintptr_t)heap},
                  NULL);
        CHECK(st == KOLO_ST_BAD_DST, "PUT outside the torus: status %u", st);
        /* NOP with FENCE: quiet */
        st = run1((desc_t){.op = KOLO_D_NOP, .flags = KOLO_DF_FENCE}, NULL);
        CHECK(st == KOLO_ST_OK, "NOP FENCE status %u", st);
    }
    CHECK(r64(KOLO_CSR_STAT_NAK_RCVD) >= (posted_writes_silent() ? 3u : 4u), "NAK_RCVD %" PRIu64,
          r64(KOLO_CSR_STAT_NAK_RCVD));
    free(heap);
    return finish();
}

/* ---- random ---------------------------------------------------------------------------
 * Every PE s draws its operations from rng(seed, s). Operation i goes to PE q;
 * it writes only memory of s at q (region[s], atom[s], atom32[2s..2s+1]).
 * PUT is ORDERED, or FENCE (adaptive); GET and atomics always FENCE (and
 * sometimes ORDERED), and an ORDERED-only op follows a FENCE'd or ordered op
 * to q only: so every op to q executes after the ones posted before it, and
 * the shadow of q's memory is exact. At the end each PE replays every
 * stream to compute what its own memory must hold. */
typedef struct {
    uint64_t s;
} rng_t;
static uint64_t rnext(rng_t *r) {
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static unsigned rbelow(rng_t *r, unsigned n) { return (unsigned)(rnext(r) % n); }

enum { R_PUT, R_PUT_INLINE, R_PUT_PIO, R_GET, R_ATOMIC, R_ATOMIC32 };
typedef struct {
    unsigned kind, q, off, len, flags, aop;
    uint64_t operand, compare, expect_old;
    uint8_t data[REGION];
} rop;
typedef struct {
    uint8_t region[REGION];
    uint64_t atom;
    uint32_t atom32[2];
} shadow_t;

static const uint8_t aops64[] = {KOLO_D_ADD,  KOLO_D_XOR,   KOLO_D_FETCH_ADD, KOLO_D_FETCH_XOR,
                                 KOLO_D_SWAP, KOLO_D_CSWAP, KOLO_D_FETCH_AND, KOLO_D_FETCH_OR,
                                 KOLO_D_AND,  KOLO_D_OR};

static int fetching(unsigned aop) {
    return aop != KOLO_D_ADD && aop != KOLO_D_XOR && aop != KOLO_D_AND && aop != KOLO_D_OR;
}

static uint64_t apply_atomic(unsigned aop, uint64_t old, uint64_t operand, uint64_t compare,
                             uint64_t mask) {
    uint64_t v = old;
    switch (aop) {
    case KOLO_D_ADD:
    case KOLO_D_FETCH_ADD:
        v = old + operand;
        break;
    case KOLO_D_XOR:
    case KOLO_D_FETCH_XOR:
        v = old ^ operand;
        break;
    case KOLO_D_SWAP:
        v = operand;
        break;
    case KOLO_D_CSWAP:
        v = (old == (compare & mask)) ? operand : old;
        break;
    case KOLO_D_FETCH_AND:
    case KOLO_D_AND:
        v = old & operand;
        break;
    case KOLO_D_FETCH_OR:
    case KOLO_D_OR:
        v = old | operand;
        break;
    }
    return v & mask;
}

/* Draw the next op of a stream and apply it to the shadow sh[] of the
 * targets. dirty[q]: an unordered op to q may still be running. PIO puts
 * are run synchronously by the caller (a PIO may overtake queued SQ work). */
static void draw(rng_t *r, unsigned n, uint8_t *dirty, shadow_t *sh, rop *o) {
    unsigned k = rbelow(r, 100);
    o->q = rbelow(r, n);
    o->flags = 0;
    o->len = 0;
    o->expect_old = 0;
    if (k < 35) {
        o->kind = R_PUT;
        o->len = 1 + rbelow(r, rbelow(r, 4) ? 300 : REGION);
    } else if (k < 45) {
        o->kind = R_PUT_INLINE;
        o->len = 1 + rbelow(r, 16);
    } else if (k < 50) {
        o->kind = R_PUT_PIO;
        o->len = 1 + rbelow(r, 32);
    } else if (k < 72) {
        o->kind = R_GET;
        o->len = 1 + rbelow(r, rbelow(r, 4) ? 300 : REGION);
    } else if (k < 88) {
        o->kind = R_ATOMIC;
    } else {
        o->kind = R_ATOMIC32;
    }
    if (o->kind <= R_PUT_PIO) {
        o->off = rbelow(r, REGION - o->len + 1);
        for (unsigned i = 0; i < o->len; i++)
            o->data[i] = (uint8_t)rnext(r);
        o->flags = rbelow(r, 2) ? KOLO_DF_ORDERED : KOLO_DF_FENCE;
        memcpy(sh[o->q].region + o->off, o->data, o->len);
    } else if (o->kind == R_GET) {
        o->off = rbelow(r, REGION - o->len + 1);
        o->flags = KOLO_DF_FENCE | (rbelow(r, 2) ? KOLO_DF_ORDERED : 0);
    } else {
        unsigned is32 = o->kind == R_ATOMIC32;
        uint64_t mask = is32 ? 0xffffffffull : ~0ull;
        o->aop = aops64[rbelow(r, sizeof aops64)];
        o->off = is32 ? rbelow(r, 2) : 0;
        o->operand = rnext(r) & mask;
        if (rbelow(r, 4) == 0)
            o->operand &= 0xff;
        uint64_t old = is32 ? sh[o->q].atom32[o->off] : sh[o->q].atom;
        o->compare = rbelow(r, 2) ? old : (rnext(r) & mask);
        o->flags =
            KOLO_DF_FENCE | (rbelow(r, 2) ? KOLO_DF_ORDERED : 0) | (is32 ? KOLO_DF_SIZE32 : 0);
        o->expect_old = fetching(o->aop) ? old : 0;
        uint64_t nv = apply_atomic(o->aop, old, o->operand, o->compare, mask);
        if (is32)
            sh[o->q].atom32[o->off] = (uint32_t)nv;
        else
            sh[o->q].atom = nv;
    }
    /* an ORDERED-only op must not pass an unordered one still running */
    if (o->flags == KOLO_DF_ORDERED && dirty[o->q])
        o->flags |= KOLO_DF_FENCE;
    if (o->flags & KOLO_DF_FENCE)
        dirty[o->q] = 0;
    if (!(o->flags & KOLO_DF_ORDERED))
        dirty[o->q] = 1;
}

typedef struct {
    int used;
    unsigned kind, len, q, i;
    uint64_t expect_old;
    uint8_t *buf;
    uint8_t *expect;
} slot_exp;

static uint64_t g_seed;

/* the completion of slot s is in: check GET data and fetched values */
static void check_slot(slot_exp *e, unsigned s) {
    if (!e->used)
        return;
    e->used = 0;
    if (comp_status[s] != KOLO_ST_OK) {
        FAIL("random op %u (kind %u) to PE %u: status %u (seed %" PRIu64 ")", e->i, e->kind, e->q,
             comp_status[s], g_seed);
        return;
    }
    if (e->kind == R_GET) {
        for (unsigned b = 0; b < e->len; b++)
            if (e->buf[8 + b] != e->expect[b]) {
                FAIL("random op %u: GET of %u bytes from PE %u: byte %u is %#x, expected %#x (seed "
                     "%" PRIu64 ")",
                     e->i, e->len, e->q, b, e->buf[8 + b], e->expect[b], g_seed);
                break;
            }
        for (unsigned b = 0; b < 8; b++)
            if (e->buf[b] != 0xEE || e->buf[8 + e->len + b] != 0xEE) {
                FAIL("random op %u: GET wrote outside its buffer (seed %" PRIu64 ")", e->i, g_seed);
                break;
            }
    } else if (e->kind == R_ATOMIC || e->kind == R_ATOMIC32) {
        CHECK(comp_result[s] == e->expect_old,
              "random op %u: atomic on PE %u returned %#" PRIx64 ", expected %#" PRIx64
              " (seed %" PRIu64 ")",
              e->i, e->q, comp_result[s], e->expect_old, g_seed);
    }
}

static int test_random(uint64_t seed, unsigned nops) {
    start();
    g_seed = seed;
    if (me == 0)
        printf("sim_test_pe random: seed %" PRIu64 " (replay: SEED=%" PRIu64
               "), %u ops per PE, %u PEs\n",
               seed, seed, nops, npes);
    fflush(stdout);
    shadow_t *sh = calloc(npes, sizeof *sh);
    uint8_t *dirty = calloc(npes, 1);
    rop *o = malloc(sizeof *o);
    slot_exp *se = calloc(SQN, sizeof *se);
    unsigned counts[6] = {0};
    for (unsigned i = 0; i < SQN; i++) {
        se[i].buf = malloc(REGION + 16);
        se[i].expect = malloc(REGION);
    }
    rng_t r = {seed * 0x100000001b3ull + me + 1};
    for (unsigned i = 0; i < nops; i++) {
        draw(&r, npes, dirty, sh, o);
        counts[o->kind]++;
        uint16_t dst = g_node[o->q];
        desc_t d = {.dst = dst, .key = KEY_RW, .flags = (uint8_t)o->flags};
        if (o->kind == R_PUT_PIO) {
            wait_all();
            for (unsigned s = 0; s < SQN; s++)
                check_slot(&se[s], s);
            unsigned before = pio_done;
            pio_put(dst, addr_of(o->q, &g.region[me][o->off]), KEY_RW, o->data, o->len, o->flags);
            WAIT_WHILE(pio_done == before);
            CHECK(pio_status_bad == 0, "random op %u: PIO PUT status %u (seed %" PRIu64 ")", i,
                  pio_status_bad, seed);
            continue;
        }
        WAIT_WHILE(inflight >= SQN);
        unsigned slot = sq_pi % SQN;
        slot_exp *e = &se[slot];
        if (e->used) {
            wait_slot(slot);
            check_slot(e, slot);
        }
        e->used = 1;
        e->kind = o->kind;
        e->len = o->len;
        e->q = o->q;
        e->i = i;
        e->expect_old = o->expect_old;
        switch (o->kind) {
        case R_PUT:
            memcpy(e->buf, o->data, o->len);
            d.op = KOLO_D_PUT;
            d.len = o->len;
            d.raddr = addr_of(o->q, &g.region[me][o->off]);
            d.w2 = (uintptr_t)e->buf;
            break;
        case R_PUT_INLINE: {
            uint8_t in[16] = {0};
            memcpy(in, o->data, o->len);
            d.op = KOLO_D_PUT;
            d.flags |= KOLO_DF_INLINE;
            d.len = o->len;
            d.raddr = addr_of(o->q, &g.region[me][o->off]);
            memcpy(&d.w2, in, 8);
            memcpy(&d.w3, in + 8, 8);
            break;
        }
        case R_GET:
            memcpy(e->expect, sh[o->q].region + o->off, o->len);
            memset(e->buf, 0xEE, o->len + 16);
            d.op = KOLO_D_GET;
            d.len = o->len;
            d.raddr = addr_of(o->q, &g.region[me][o->off]);
            d.w2 = (uintptr_t)(e->buf + 8);
            break;
        default: {
            unsigned is32 = o->kind == R_ATOMIC32;
            d.op = (uint8_t)o->aop;
            d.raddr = is32 ? addr_of(o->q, &g.atom32[2 * me + o->off]) : addr_of(o->q, &g.atom[me]);
            d.w2 = o->operand;
            d.w3 = o->compare;
            break;
        }
        }
        post(d);
    }
    wait_all();
    for (unsigned s = 0; s < SQN; s++)
        check_slot(&se[s], s);
    barrier();
    /* every PE's stream, replayed: what my memory must hold now */
    {
        shadow_t *tmp = calloc(npes, sizeof *tmp);
        uint8_t *dtmp = calloc(npes, 1);
        for (unsigned s = 0; s < npes; s++) {
            rng_t rs = {seed * 0x100000001b3ull + s + 1};
            memset(tmp, 0, npes * sizeof *tmp);
            memset(dtmp, 0, npes);
            for (unsigned i = 0; i < nops; i++)
                draw(&rs, npes, dtmp, tmp, o);
            shadow_t *want = &tmp[me];
            unsigned bad = 0;
            for (unsigned b = 0; b < REGION; b++)
                if (g.region[s][b] != want->region[b] && bad++ < 3)
                    FAIL("region of PE %u at byte %u: %#x, expected %#x (seed %" PRIu64 ")", s, b,
                         g.region[s][b], want->region[b], seed);
            CHECK(g.atom[s] == want->atom,
                  "atomic word of PE %u: %#" PRIx64 ", expected %#" PRIx64 " (seed %" PRIu64 ")", s,
                  g.atom[s], want->atom, seed);
            CHECK(g.atom32[2 * s] == want->atom32[0] && g.atom32[2 * s + 1] == want->atom32[1],
                  "32-bit atomic words of PE %u: %#x %#x, expected %#x %#x (seed %" PRIu64 ")", s,
                  g.atom32[2 * s], g.atom32[2 * s + 1], want->atom32[0], want->atom32[1], seed);
        }
        free(tmp);
        free(dtmp);
    }
    if (me == 0)
        printf("PE 0: %u PUT, %u INLINE, %u PIO, %u GET, %u atomic, %u atomic32\n", counts[0],
               counts[1], counts[2], counts[3], counts[4], counts[5]);
    for (unsigned i = 0; i < SQN; i++) {
        free(se[i].buf);
        free(se[i].expect);
    }
    free(se);
    free(o);
    free(sh);
    free(dirty);
    return finish();
}

/* ---- stream (benchmark) ------------------------------------------------------------------ */
static int test_stream(unsigned n) {
    static uint8_t src[64];
    start();
    unsigned right = (me + 1) % npes;
    for (unsigned i = 0; i < n; i++) {
        src[i % 64] = (uint8_t)i;
        post((desc_t){.op = KOLO_D_PUT,
                      .flags = KOLO_DF_ORDERED,
                      .dst = g_node[right],
                      .len = 64,
                      .raddr = addr_of(right, &g.region[me][(i % 16) * 64]),
                      .key = KEY_RW,
                      .w2 = (uintptr_t)src});
    }
    wait_all();
    for (unsigned i = 0; i < SQN; i++)
        CHECK(!comp_done[i] || comp_status[i] == KOLO_ST_OK, "stream PUT status %u",
              comp_status[i]);
    return finish();
}

/* ---- process behaviour --------------------------------------------------------------------- */
static void spin_reads_forever(void) {
    for (;;)
        (void)r64(KOLO_CSR_CTX(ctx) + KOLO_CTX_STATUS);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "ops"))
        return test_ops();
    if (!strcmp(mode, "idle-ops") && argc > 2) {
        g_idle_until = strtoull(argv[2], NULL, 0);
        return test_ops();
    }
    if (!strcmp(mode, "random") && argc > 3)
        return test_random(strtoull(argv[2], NULL, 0), (unsigned)strtoul(argv[3], NULL, 0));
    if (!strcmp(mode, "stream") && argc > 2)
        return test_stream((unsigned)strtoul(argv[2], NULL, 0));
    if (!strcmp(mode, "exit") && argc > 3) {
        unsigned who = (unsigned)strtoul(argv[2], NULL, 0);
        start();
        if (me == who)
            exit((int)strtol(argv[3], NULL, 0));
        if (argc > 4)
            spin_reads_forever();
        kolo_sim_detach(C); /* no barrier: PE who is gone */
        return 0;
    }
    if (!strcmp(mode, "crash") && argc > 2) {
        unsigned who = (unsigned)strtoul(argv[2], NULL, 0);
        start();
        if (me == who)
            raise(SIGSEGV);
        spin_reads_forever();
    }
    if (!strcmp(mode, "global-exit") && argc > 2) {
        start();
        if (me == 0) {
            struct timespec ts = {0, 20000000};
            nanosleep(&ts, NULL);
            kolo_sim_global_exit(C, (int)strtol(argv[2], NULL, 0));
        }
        spin_reads_forever();
    }
    if (!strcmp(mode, "hang")) {
        int mmio = argc > 2 && !strcmp(argv[2], "mmio");
        start();
        if (me == 1) {
            if (mmio)
                spin_reads_forever();
            for (volatile unsigned long i = 0;; i++) {
                if ((i & 0xfffff) == 0) {
                    struct timespec ts = {0, 1000000};
                    nanosleep(&ts, NULL);
                }
            }
        }
        return finish();
    }
    if (!strcmp(mode, "orphan") && argc > 2) {
        start();
        FILE *f = fopen(argv[2], "a");
        if (f) {
            fprintf(f, "%d\n", (int)getpid());
            fclose(f);
        }
        spin_reads_forever();
    }
    if (!strcmp(mode, "bad-kind") && argc > 2) {
        /* PE 0 puts a request of a kind the protocol does not have into its ring, as a
         * broken client would (kolo_sim_mmio_write refuses to); kolo-sim must stop */
        start();
        if (me == 0) {
            kolo_sim_shm *shm =
                (kolo_sim_shm *)((uint8_t *)kolo_sim_slot(C, 0) - sizeof(kolo_sim_shm));
            kolo_mmio_ring *r = kolo_sim_ring(shm, me);
            uint64_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
            memset(&r->req[head % KOLO_SIM_RING], 0, sizeof r->req[0]);
            r->req[head % KOLO_SIM_RING].kind = (uint32_t)strtoul(argv[2], NULL, 0);
            __atomic_store_n(&r->head, head + 1, __ATOMIC_RELEASE);
        }
        spin_reads_forever();
    }
    if (!strcmp(mode, "attach")) {
        char err[256];
        kolo_sim_client *c = kolo_sim_attach(err, sizeof err);
        if (c) {
            fprintf(stderr, "attach: succeeded outside kolo-sim?\n");
            return 1;
        }
        printf("attach refused: %s\n", err);
        return 0;
    }
    fprintf(stderr,
            "usage: sim_test_pe ops | idle-ops CYCLE | random SEED N | stream N | exit PE CODE [hang] | crash PE |\n"
            "       global-exit CODE | hang [mmio] | orphan FILE | bad-kind KIND | attach\n");
    return 2;
}
