/* kolo_sim_shm.h - the shared-memory segment between kolo-sim and the
 * application processes (PEs) it runs (docs/ni.md section 7).
 *
 * kolo-sim creates the POSIX shared memory object named by KOLO_SIM_SHM,
 * sized kolo_sim_shm_size(npes), fills the header, and forks the PEs. Each PE
 * maps it, writes its pe[i].pid and state, and from then on talks to its NI
 * through its MMIO ring only. Device DMA into the PE goes through
 * process_vm_readv/writev on pe[i].pid (host address = PE virtual address).
 *
 * MMIO ring protocol (single producer: the PE; single consumer: kolo-sim):
 *  - the PE waits while head - tail == KOLO_SIM_RING, fills
 *    req[head % KOLO_SIM_RING], then stores head + 1 (release);
 *  - kolo-sim loads head (acquire), executes requests in ring order as TLPs
 *    arriving at the NI (a read never passes an earlier write), and stores
 *    tail + 1 (release) after each;
 *  - a read (KOLO_MMIO_R32/R64) at ring position s is answered by writing
 *    rd_data and rd_err, then storing rd_done = s + 1 (release); the PE spins
 *    on rd_done (acquire). Only one read is in flight per PE.
 * Fields marked (atomic) are accessed only with __atomic_load_n /
 * __atomic_store_n (acquire / release): the header is shared by C (library)
 * and C++ (simulator), so it uses the GCC builtins, not _Atomic.
 * A PE that spins checks sim_alive now and then and gives up (exit 3) when
 * the simulator has gone.
 *
 * Deterministic co-simulation (det = 1, kolo-sim --det): simulated time
 * advances only while every live PE is blocked on the simulator, so the
 * cycles a program takes do not depend on how fast the PEs run. A PE in a
 * wait whose condition only the simulator can change (its memory, a read's
 * answer, ring space) first loads dma_seq, checks its condition, and if it
 * must go on waiting stores wait_seen = that value, then wait_state =
 * KOLO_PE_WAITING (release), bumps pe_event and sleeps on dma_seq (futex).
 * The simulator bumps a PE's dma_seq (release, futex wake) after each write
 * into it: DMA writes, read answers, ring space freed in a full ring - at the
 * end of the step that made it, so that a PE sees all of a step's writes or
 * none (det_busy: a PE whose sleep timed out waits for the step's end). A PE
 * counts as blocked when wait_state is WAITING and wait_seen equals dma_seq:
 * it has looked at its condition since the simulator last changed anything
 * it can see. Leaving the wait stores wait_state = KOLO_PE_COMPUTING. A PE
 * that writes exchange data other PEs wait on bumps every PE's dma_seq too.
 * A PE with several threads is WAITING while one of them sleeps in such a
 * wait and none is looking at its condition; if a thread is outside every
 * wait then (computing, joining) it sets wait_partial = 1: the PE may still
 * act on its own, so the simulator does not call the run stuck and, with
 * nothing to do, lets the PEs have the CPU (the run is then not exact).
 * A poll (shmem_test: a look that returns whatever it sees) sleeps the same
 * way but sets wake_after first: the simulator takes it when every PE is
 * blocked (the PE cannot read a cycle that is not racing with the
 * simulator's) and bumps dma_seq that many cycles later if nothing else
 * did, so that the poll costs simulated cycles, not wall seconds, and a run
 * is not stuck while a wake is due.
 */
#ifndef KOLO_SIM_SHM_H
#define KOLO_SIM_SHM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KOLO_SIM_MAGIC 0x314D49534F4C4F4Bull /* "KOLOSIM1" little-endian */
#define KOLO_SIM_VERSION 3u
#define KOLO_SIM_RING 256u /* MMIO requests per PE ring, power of two */

enum kolo_mmio_kind {
    KOLO_MMIO_W32 = 1,  /* 4-byte write, data[0] bits 31:0 */
    KOLO_MMIO_W64 = 2,  /* 8-byte write, data[0] */
    KOLO_MMIO_W512 = 3, /* 64-byte write (BAR2 PIO), data[0..7] */
    KOLO_MMIO_R32 = 4,  /* 4-byte read */
    KOLO_MMIO_R64 = 5,  /* 8-byte read */
};

typedef struct {
    uint32_t kind;   /* enum kolo_mmio_kind */
    uint32_t bar;    /* 0 or 2 */
    uint64_t offset; /* byte offset in the BAR, aligned to the access size */
    uint64_t data[8];
} kolo_mmio_req;

typedef struct {
    uint64_t head; /* (atomic) written by the PE */
    uint8_t pad0[56];
    uint64_t tail; /* (atomic) written by kolo-sim */
    uint64_t rd_done; /* (atomic) */
    uint64_t rd_data;
    uint32_t rd_err; /* 1: the read was answered with an error completion */
    uint8_t pad1[36];
    kolo_mmio_req req[KOLO_SIM_RING];
} kolo_mmio_ring;

enum kolo_pe_state { KOLO_PE_NONE = 0, KOLO_PE_RUNNING = 1, KOLO_PE_EXITED = 2 };
enum kolo_pe_wait { KOLO_PE_COMPUTING = 0, KOLO_PE_WAITING = 1 };

/* Start-up exchange (like PMI): written by PE i, read by any PE. */
typedef struct {
    uint32_t state; /* (atomic) enum kolo_pe_state */
    int32_t pid;
    uint16_t node_id; /* filled by kolo-sim */
    uint16_t ctx;     /* NI context of this PE, filled by kolo-sim */
    uint32_t pad;
    uint64_t info[16]; /* free for the library (symmetric bases, keys) */
    uint32_t info_ready; /* (atomic) */
    uint32_t wait_state; /* (atomic) enum kolo_pe_wait, written by the PE */
    uint32_t wait_seen;  /* the dma_seq the PE saw before its last look at its condition */
    uint32_t dma_seq;    /* (atomic, futex) bumped by kolo-sim after each write into the PE */
    uint32_t wait_partial; /* (atomic) WAITING, but a thread is outside every wait */
    uint32_t sleepers;     /* (atomic) threads asleep on dma_seq (woken whatever wait_state says) */
    uint32_t wake_after;   /* (atomic) --det: a poll (kolo_sim_poll_start) wants dma_seq bumped
                              this many cycles after the simulator next finds every PE
                              blocked, even if nothing is written; 0: none */
    uint32_t wake_fired;   /* (atomic) bumped by kolo-sim with dma_seq when such a wake comes */
    uint32_t pad2[8];
} kolo_pe_slot;

typedef struct {
    uint64_t magic;
    uint32_t version;
    uint32_t npes;
    uint8_t torus[3]; /* x, y, z sizes */
    uint8_t pad[5];
    int32_t sim_pid;
    uint32_t sim_alive;  /* (atomic) 1 while kolo-sim runs */
    uint64_t sim_cycle;  /* (atomic) core clock cycles simulated so far */
    uint32_t core_mhz;           /* core clock of the simulation (250) */
    int32_t exit_request; /* (atomic) shmem_global_exit: status + 1, 0 = none */
    uint32_t startup_count; /* (atomic) PEs that finished start-up */
    uint32_t det;           /* 1: deterministic co-simulation (see above) */
    uint32_t pe_event;      /* (atomic, futex) bumped by a PE that starts waiting */
    uint32_t server;        /* 1: kolo-sim --server: PEs started by someone else claim
                               their slot (state NONE -> RUNNING, compare and swap) */
    uint32_t det_busy;      /* (atomic) --det: 1 while the simulator makes a step's writes
                               (set once it finds every PE blocked); a thread whose sleep
                               ended without a bump of dma_seq (time-out) leaves its
                               wait, then waits for 0 before it looks */
    uint8_t pad3[4];
    /* then npes kolo_pe_slot, then npes kolo_mmio_ring */
} kolo_sim_shm;

static inline size_t kolo_sim_shm_size(uint32_t npes) {
    return sizeof(kolo_sim_shm) + (size_t)npes * (sizeof(kolo_pe_slot) + sizeof(kolo_mmio_ring));
}
static inline kolo_pe_slot *kolo_sim_shm_pe_slot(kolo_sim_shm *s, uint32_t pe) {
    return (kolo_pe_slot *)((uint8_t *)s + sizeof(kolo_sim_shm)) + pe;
}
static inline kolo_mmio_ring *kolo_sim_ring(kolo_sim_shm *s, uint32_t pe) {
    return (kolo_mmio_ring *)((uint8_t *)s + sizeof(kolo_sim_shm) +
                              (size_t)s->npes * sizeof(kolo_pe_slot)) + pe;
}

#ifdef __cplusplus
}
#endif
#endif
