/* kolo_sim_server.h - the simulator side of the kolo-sim shared-memory
 * protocol (sw/include/kolo_sim_shm.h; the PE side is kolo_sim_client.h):
 * the segment, the PEs' slots and MMIO rings, read answers, the wakes, and
 * the DMA into a PE's address space. kolo-sim (sw/sim/sim_pes.cpp) and the
 * two-board KC705 simulation (tb/board_sim/tb_board_sim_kc705.cpp --serve)
 * serve their NIs through it. C11, libc only (-lrt on old glibc).
 *
 * A server's loop:
 *     shm = kolo_sim_server_create(name, npes, ...);     PEs attach (kolo_sim_attach_pe)
 *     for (;;) {
 *         kolo_sim_server_pe_state(shm, i, &pid)          attached? detached? gone?
 *         while ((q = kolo_sim_ring_peek(shm, i, &bad))) { execute *q in order;
 *             a read at position kolo_sim_ring_pos(shm, i) is answered, later, with
 *             kolo_sim_read_answer(shm, i, pos, data, err);
 *             kolo_sim_ring_pop(shm, i); }
 *         device DMA: kolo_sim_pe_access(shm, i, addr, buf, len, write), then
 *             kolo_sim_pe_bump(shm, i) (the PE's waits look again)
 *         publish the simulated cycle: __atomic_store_n(&shm->sim_cycle, ...)
 *     }
 *     kolo_sim_server_close(shm, size, name);              the PEs see it and exit (3)
 */
#ifndef KOLO_SIM_SERVER_H
#define KOLO_SIM_SERVER_H

#include <stddef.h>
#include <stdint.h>

#include "kolo_sim_shm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* name ("/kolo-sim.server.NAME") is usable by a new server: a segment of that
 * name left by a server that is gone is removed (1); one whose server runs is
 * an error (0, message in err) */
int kolo_sim_server_name_free(const char *name, char *err, size_t errlen);

/* Creates the segment name (O_EXCL: NULL with errno EEXIST if it exists),
 * sized kolo_sim_shm_size(npes) (*size), with the header filled: torus,
 * core_mhz, det, server (PEs started by someone else claim their slots),
 * node_id[i] of PE i's NI, context 0; the simulator alive (sim_alive 1, this
 * process). NULL with a message in err on failure. */
kolo_sim_shm *kolo_sim_server_create(const char *name, uint32_t npes, const uint8_t torus[3],
                                     uint32_t core_mhz, const uint16_t *node_id, int det,
                                     int server, size_t *size, char *err, size_t errlen);
/* The simulator has gone (sim_alive 0: waiting PEs exit with 3), then unmaps
 * and removes the segment (name may be NULL: only unmapped). */
void kolo_sim_server_close(kolo_sim_shm *s, size_t size, const char *name);

/* PE pe's slot as a server sees it */
enum kolo_sim_pe_seen {
    KOLO_SIM_PE_ABSENT = 0,   /* not attached (yet) */
    KOLO_SIM_PE_ATTACHED = 1, /* running; *pid its process */
    KOLO_SIM_PE_DETACHED = 2, /* kolo_sim_detach (or exited under kolo-run) */
    KOLO_SIM_PE_GONE = 3      /* attached, and its process is gone without detaching */
};
int kolo_sim_server_pe_state(kolo_sim_shm *s, unsigned pe, int32_t *pid);
/* --server, between jobs: slot pe free again for the next PE of that rank */
void kolo_sim_server_pe_reset(kolo_sim_shm *s, unsigned pe);

/* The next MMIO request of PE pe in ring order, NULL if none (or *bad = 1 when
 * the PE broke its ring: head more than KOLO_SIM_RING ahead of tail). */
const kolo_mmio_req *kolo_sim_ring_peek(kolo_sim_shm *s, unsigned pe, int *bad);
/* the ring position of that request (a read's answer names it) */
uint64_t kolo_sim_ring_pos(kolo_sim_shm *s, unsigned pe);
/* Done with it: tail + 1. 1 if the ring was full (the PE may wait for room:
 * bump it), else 0. */
int kolo_sim_ring_pop(kolo_sim_shm *s, unsigned pe);
/* The bytes request q moves: 4, 8 or 64 for a write (*is_read = 0), 4 or 8 for
 * a read (*is_read = 1); 0 for a kind the protocol does not have (the PE's
 * error: the caller stops serving it). is_read may be NULL. */
unsigned kolo_sim_req_len(const kolo_mmio_req *q, int *is_read);
/* The answer to the read at ring position pos (err: an error completion);
 * does not bump (the caller does, kolo_sim_pe_bump, at once or at a step's end) */
void kolo_sim_read_answer(kolo_sim_shm *s, unsigned pe, uint64_t pos, uint64_t data, int err);

/* Device DMA into (write) or out of PE pe's memory at its virtual address addr
 * (process_vm_writev/readv), only while the PE is attached and its pid is
 * set: 0, or -1 (nothing or part of it moved). */
int kolo_sim_pe_access(kolo_sim_shm *s, unsigned pe, uint64_t addr, void *buf, size_t len,
                       int write);
/* After writes into PE pe (DMA, a read's answer, ring room): dma_seq + 1, and
 * under --det the futex wake of its sleeping threads. */
void kolo_sim_pe_bump(kolo_sim_shm *s, unsigned pe);

/* --det (kolo_sim_shm.h "Deterministic co-simulation"), the simulator's side.
 * A server that runs deterministically makes each step of simulated time
 * only when every PE is blocked, and makes the step's writes into the PEs
 * known only at the step's end:
 *     for (;;) {
 *         while (!kolo_sim_det_try_step(shm, blocked, arg))     every PE blocked?
 *             { ev = kolo_sim_det_event(shm) (before looking);
 *               ... stop conditions ...; kolo_sim_det_wait(shm, ev, ns); }
 *         kolo_sim_det_take_wake(shm, i, now, unit, &due[i]): a poll's wake
 *         the step: serve the rings, run the device; writes into PE i only noted
 *         kolo_sim_det_wake_due(shm, i, now, &due[i], live): a wake that has
 *             come (1: PE i noted as written to, as by the step's writes)
 *         kolo_sim_det_end_step(shm); then kolo_sim_pe_bump each PE noted
 *     }
 * blocked(arg, i) says whether PE i holds time back no more; a server that
 * knows nothing more about its PEs passes kolo_sim_det_slot_blocked. */
/* PE pe's slot: exited, or waiting on the simulator with nothing new to see
 * since it last looked (wait_seen == dma_seq): 1; attaching, computing, or
 * not attached: 0 */
int kolo_sim_det_slot_blocked(kolo_sim_shm *s, unsigned pe);
/* PE pe is WAITING but one of its threads is outside every wait (it may act
 * on its own: a server must not call the run stuck) */
int kolo_sim_det_slot_partial(kolo_sim_shm *s, unsigned pe);
typedef int (*kolo_sim_det_blocked_fn)(void *arg, unsigned pe);
/* Every PE blocked by blocked(arg, pe) (NULL: kolo_sim_det_slot_blocked)? Then
 * det_busy is set, every PE looked at again (a PE whose sleep timed out may
 * have left its wait), and 1: the step begins. Else 0 (det_busy left 0). */
int kolo_sim_det_try_step(kolo_sim_shm *s, kolo_sim_det_blocked_fn blocked, void *arg);
/* The step's end: det_busy 0 (the caller then bumps the PEs it wrote to) */
void kolo_sim_det_end_step(kolo_sim_shm *s);
/* pe_event, to be loaded before looking at the PEs; kolo_sim_det_wait sleeps
 * until a PE starts to wait (pe_event moves from ev) or ns nanoseconds pass */
uint32_t kolo_sim_det_event(kolo_sim_shm *s);
void kolo_sim_det_wait(kolo_sim_shm *s, uint32_t ev, long ns);
/* At a step's start (every PE blocked, so now is the same on every run): the
 * wake a poll of PE pe asked for since the last call (wake_after: that many
 * core cycles on; taken, 0 after) merged into *due, the time in the server's
 * own unit at which PE pe's pending wake is due (0: none; unit: the server's
 * units per core cycle, 1 for kolo-sim's cycles, 4000 for a board's ps): the
 * earlier of the two. Both servers keep *due; this is their one rule. */
void kolo_sim_det_take_wake(kolo_sim_shm *s, unsigned pe, uint64_t now, uint64_t unit,
                            uint64_t *due);
/* After a step: PE pe's wake *due has come (*due != 0 and now >= *due)? Then
 * *due = 0 and, if live (the PE is not gone), wake_fired + 1 and 1: the caller
 * bumps PE pe (or notes it for the step's end). Else 0. */
int kolo_sim_det_wake_due(kolo_sim_shm *s, unsigned pe, uint64_t now, uint64_t *due, int live);

#ifdef __cplusplus
}
#endif
#endif
