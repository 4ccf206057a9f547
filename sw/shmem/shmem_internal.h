/* shmem_internal.h - private state of libkolo_shmem.
 *
 * Threads (SHMEM_THREAD_MULTIPLE): libkolo locks each NI context and the
 * simulator client its ring, so operations from several threads are safe
 * as they are. The library's own shared state is guarded here: `lock`
 * (contexts, teams, the pool of NI contexts), `coll_lock` (collectives and
 * the symmetric heap: one collective at a time per PE, which the spec leaves
 * to the program anyway). Everything else is written once, in shmem_init.
 */
#ifndef KOLO_SHMEM_INTERNAL_H
#define KOLO_SHMEM_INTERNAL_H

/* the library defines the typed routines: no C11 generic macros inside it */
#define KSHMEM_BUILDING_LIBRARY 1

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "kolo.h"
#include "shmem.h"
#include "symheap.h"

#define KSHMEM_TEAM_MAGIC 0x6d616574u /* "team" */
#define KSHMEM_CTX_MAGIC 0x78746374u  /* "tctx" */
#define KSHMEM_DEAD_MAGIC 0x64616564u /* "dead": destroyed (kept, so that a stale handle is caught) */

struct kshmem_team {
    uint32_t magic;
    int start, stride, size; /* world PEs start + i * stride, i < size */
    int my;                  /* my index, -1 if not a member */
    shmem_team_config_t config;
    int predefined;
    struct kshmem_team *next; /* every team made, freed at finalize */
};

#define KSHMEM_MAX_NIC 16 /* NI contexts per NI (docs/ni.md) */

/* One NI context of this PE; shmem contexts beyond the NI's own share one. */
typedef struct {
    kolo_ctx *kc;
    int users; /* shmem contexts on it (the default context counts) */
} kshmem_nic;

struct kshmem_ctx {
    uint32_t magic;
    int predefined;
    shmem_team_t team;
    long options;
    kshmem_nic *nic;
    struct kshmem_ctx *next; /* every context made, freed at finalize */
};

typedef struct {
    uint64_t data_base, heap_base;
    uint8_t data_key, heap_key;
    uint16_t node;
    int known; /* its start-up record has arrived */
} kshmem_peer;

/* the launcher that started this PE (shmem_launch.c) */
typedef struct {
    const char *name; /* "kolo-run", "Open MPI", "MPICH (Hydra)", "Slurm", "none ..." */
    int rank, size;
    int local_rank, local_size; /* PEs on this host (-1: not said) */
    int host_id, nhosts;        /* Slurm's node of this PE (-1: not said) */
    char host[64];
    char vars[160]; /* the variables it was read from, for SHMEM_DEBUG */
} kshmem_launch;
void kshmem_launch_detect(kshmem_launch *l);
/* SHMEM_DEBUG=1: one line per PE (launcher, device, node, NI context) */
void kshmem_launch_debug(const kshmem_launch *l, const char *device, const char *exchange);
/* the start-up exchange over the network (shmem_boot.c): fills kshmem.peer */
void kshmem_boot_exchange(const kshmem_launch *l, uint8_t kdata, uint8_t kheap);
/* after the first barrier: the exchange window goes */
void kshmem_boot_done(void);

typedef struct {
    int initialized, finalized;
    int me_from_launcher; /* me is the launcher's rank (set before the device is open) */
    int thread_level; /* provided */
    kolo_dev *dev;
    kolo_ctx *ctx; /* the default context's NI context */
    void *sim;     /* kolo_sim_client */
    int me, npes;
    uint16_t my_node;
    uintptr_t data_base, heap_base;
    size_t data_len, heap_len;
    kshmem_peer *peer;
    shmh heap;
    /* NI contexts: nic[0] is the default context's */
    kshmem_nic nic[KSHMEM_MAX_NIC];
    unsigned nnic; /* NI contexts open */
    struct kshmem_team *teams; /* made by splits (under lock) */
    struct kshmem_ctx *ctxs;   /* made by ctx_create (under lock) */
    pthread_mutex_t lock, coll_lock;
    /* internal symmetric objects (first allocations of the heap) */
    volatile uint64_t *sync_recv; /* [npes] sync signals received from each PE */
    uint64_t *sync_expect;        /* [npes] private: signals consumed so far */
    uint64_t *coll_sizes;         /* [npes] collect: bytes per member */
    uint8_t *scratch;             /* collective scratch */
    size_t scratch_len;
} kshmem_state;

extern kshmem_state kshmem;

/* ---- errors: one line on stderr, then shmem_global_exit(1) ------------------------ */
void kshmem_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* "fn: argument arg <what>" */
void kshmem_bad_arg(const char *fn, const char *arg, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
void kshmem_check_init(const char *fn);
/* world PE number pe, checked */
void kshmem_check_pe(const char *fn, int pe);
/* libkolo failures are fatal */
void kshmem_rc(const char *fn, int rc);

/* ---- contexts and teams ------------------------------------------------------------- */
/* ctx checked (initialised library, a live context; SHMEM_CTX_INVALID is an error) */
struct kshmem_ctx *kshmem_ctx_get(const char *fn, shmem_ctx_t ctx);
/* pe of ctx's team as a world PE, checked */
int kshmem_ctx_pe(const char *fn, const struct kshmem_ctx *c, int pe);
/* a team as a set; fatal if invalid or this PE is not a member */
void kshmem_team_set(const char *fn, shmem_team_t team, int *start, int *stride, int *size);
/* an active set (PE_start, logPE_stride, PE_size) checked, this PE in it */
void kshmem_active_set(const char *fn, int start, int log_stride, int size, int *stride, int *my);

/* ---- symmetric addresses ------------------------------------------------------------- */
/* 1: heap, 2: data, 0: not symmetric */
int kshmem_is_symmetric(const void *addr, size_t len);
/* addr (argument `arg` of fn, len bytes) on world PE pe -> remote address and key */
void kshmem_xlate(const char *fn, const char *arg, const void *addr, size_t len, int pe,
                  uint64_t *raddr, uint8_t *key);
/* nelems * es, or an error naming nelems */
size_t kshmem_bytes(const char *fn, size_t nelems, size_t es);

/* ---- data movement cores ---------------------------------------------------------------- */
/* contiguous put/get of n bytes to/from world PE pe on NI context kc */
void kshmem_put_bytes(const char *fn, kolo_ctx *kc, void *dest, const void *src, size_t n, int pe,
                      int nbi);
void kshmem_get_bytes(const char *fn, kolo_ctx *kc, void *dest, const void *src, size_t n, int pe,
                      int nbi);
/* atomic on world PE pe (NI context kc; NULL: the default one); returns the
 * old value of fetching ops. arg names the address argument in messages. */
uint64_t kshmem_amo(const char *fn, const char *arg, kolo_ctx *kc, int op, unsigned size,
                    void *dest, uint64_t operand, uint64_t compare, int pe);
void kshmem_quiet(const char *fn, kolo_ctx *kc);
void kshmem_sync_set(int start, int stride, int size);
/* A wait on memory the NI writes:
 *     kshmem_waiter w = {0, 0, 0};
 *     while (kshmem_wait_look(&w), !(condition))
 *         kshmem_wait_step(&w);
 *     kshmem_wait_end(&w);
 * (kolo-sim --det counts the PE as blocked in it; kolo_sim_client.h). Each
 * step polls completions and stops the run if an earlier operation failed. */
typedef struct {
    unsigned long n;
    uint32_t seq, last;
} kshmem_waiter;
void kshmem_wait_look(kshmem_waiter *w);
void kshmem_wait_step(kshmem_waiter *w);
void kshmem_wait_end(kshmem_waiter *w);
#define KSHMEM_WAIT_WHILE(cond)                                                                    \
    do {                                                                                           \
        kshmem_waiter w_ = {0, 0, 0};                                                              \
        while (kshmem_wait_look(&w_), (cond))                                                      \
            kshmem_wait_step(&w_);                                                                 \
        kshmem_wait_end(&w_);                                                                      \
    } while (0)
/* A test (shmem_test and its kin): RES = LOOK, and FAILED (an expression in
 * RES) says it saw nothing yet. Under kolo-sim --det a failed look is then a
 * poll: the PE counts as blocked until the NI writes into it or
 * KSHMEM_POLL_CYCLES simulated cycles have passed, then looks once more.
 * Without this a loop of tests would hold simulated time still (a PE that
 * never waits computes) until --det-stall let it go, and the run would not be
 * exact. Elsewhere: one look. */
#define KSHMEM_POLL_CYCLES 32
int kshmem_det(void);
uint32_t kshmem_poll_start(void);
uint32_t kshmem_poll_begin(void);
int kshmem_poll_wait(uint32_t seq, uint32_t ticket);
void kshmem_poll_end(void);
void kshmem_det_pause(uint64_t cycles); /* --det only: a wait of simulated time (shmem_init.c) */
#define KSHMEM_TEST(RES, LOOK, FAILED)                                                             \
    do {                                                                                           \
        kshmem_progress();                                                                         \
        (RES) = (LOOK);                                                                            \
        if ((FAILED) && kshmem_det()) {                                                            \
            uint32_t t_ = kshmem_poll_start();                                                     \
            for (;;) {                                                                             \
                uint32_t seq_ = kshmem_poll_begin();                                               \
                (RES) = (LOOK);                                                                    \
                if (!(FAILED)) {                                                                   \
                    kshmem_poll_end();                                                             \
                    break;                                                                         \
                }                                                                                  \
                if (kshmem_poll_wait(seq_, t_)) { /* the wake: the same cycle on every run */      \
                    kshmem_progress();                                                             \
                    (RES) = (LOOK);                                                                \
                    break;                                                                         \
                }                                                                                  \
                kshmem_progress(); /* written into: completions, then look again */                \
            }                                                                                      \
        }                                                                                          \
    } while (0)
/* a plain back-off (waits on other things than the NI) */
void kshmem_backoff(unsigned long *n);
/* kolo_progress on the context; ends the program with a message when the NI
 * is gone (KOLO_E_GONE) */
void kshmem_progress(void);
void kshmem_gone(const char *fn) __attribute__((noreturn));

#endif
