/* kolo_sim_client.h - the PE side of the kolo-sim shared-memory protocol
 * (sw/include/kolo_sim_shm.h, docs/ni.md section 7, docs/sim.md).
 *
 * A process started by kolo-sim (through kolo-run) attaches with
 * kolo_sim_attach(), then reaches its node's NI through MMIO calls that go
 * into its ring of the shared segment. The NI's DMA reaches the whole
 * address space of the process (kolo-sim uses process_vm_readv/writev on
 * it): a "host physical address" in simulation is a virtual address of the
 * process, static and global data included.
 *
 * Waiting: a read spins on its response slot with back-off (pause, then
 * sched_yield, then short sleeps) so that the simulator and the other PEs
 * keep the CPU; when the simulator has gone (sim_alive 0, its pid gone, or
 * the parent process changed) the PE prints a message and exits with 3.
 * One client per process; the calls are thread-safe (the ring has one
 * producer: a mutex lets one thread at a time append, and a read holds it
 * until its answer is in). C11, links with nothing but libc (glibc 2.34 and
 * later have pthreads in libc; -pthread before that).
 */
#ifndef KOLO_SIM_CLIENT_H
#define KOLO_SIM_CLIENT_H

#include <stddef.h>
#include <stdint.h>

#include "kolo_sim_shm.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct kolo_sim_client kolo_sim_client;

/* From env KOLO_SIM_SHM, KOLO_PE (and KOLO_NPES, checked). Returns NULL and
 * writes a message into err (if not NULL) when not running under kolo-sim or
 * the segment is not usable. Marks the PE running and records its pid. */
kolo_sim_client *kolo_sim_attach(char *err, size_t errlen);
/* The same for PE pe (kolo-sim --server: the launcher's rank; -1: KOLO_PE).
 * Under a server the PE claims its slot (an error if it is taken) and lets
 * the simulator trace it (Yama's PR_SET_PTRACER, for process_vm_*). */
kolo_sim_client *kolo_sim_attach_pe(int pe, char *err, size_t errlen);
/* Marks the PE exited and unmaps the segment; c may be NULL. */
void kolo_sim_detach(kolo_sim_client *c);

/* MMIO write: size 4 or 8 (BAR0), 64 (BAR2, data = 64 bytes). Posted: returns
 * once the request is in the ring. 0, or -1 for a bad size/bar (nothing sent). */
int kolo_sim_mmio_write(kolo_sim_client *c, int bar, uint64_t off, const void *data, unsigned size);
/* MMIO read of 4 or 8 bytes (BAR0). Waits for the answer: 0 with *val, or -1
 * when the NI answered with an error completion (*val = all ones) or the
 * arguments are bad. Executes after every earlier write of this PE. */
int kolo_sim_mmio_read(kolo_sim_client *c, int bar, uint64_t off, unsigned size, uint64_t *val);

unsigned kolo_sim_pe(const kolo_sim_client *c);
unsigned kolo_sim_npes(const kolo_sim_client *c);
uint16_t kolo_sim_node_id(const kolo_sim_client *c); /* {z,y,x} node id of this PE's NI */
unsigned kolo_sim_ctx(const kolo_sim_client *c);     /* NI context to use */
void kolo_sim_torus(const kolo_sim_client *c, uint8_t dims[3]);
uint64_t kolo_sim_cycle(const kolo_sim_client *c); /* simulated core cycles so far */
unsigned kolo_sim_core_mhz(const kolo_sim_client *c);
/* Start-up exchange area of PE pe (NULL if pe >= npes): info[] and
 * info_ready are free for the library (use __atomic builtins on info_ready). */
kolo_pe_slot *kolo_sim_slot(kolo_sim_client *c, unsigned pe);

/* Waiting on the simulator. A wait whose condition only the simulator can
 * change (memory its NI writes, completions) goes
 *     unsigned long n = 0;
 *     for (;;) {
 *         uint32_t seq = kolo_sim_wait_begin(c);
 *         if (condition)
 *             break;
 *         kolo_sim_wait_idle(c, seq, &n);
 *     }
 *     kolo_sim_wait_end(c);
 * Under kolo-sim --det the PE then counts as blocked, and simulated time moves
 * on only while every PE is (kolo_sim_shm.h); otherwise wait_idle backs off
 * (spin, yield, short sleeps). A wait on something other PEs change through
 * the exchange area uses them too if the writer calls kolo_sim_shm_post. Only
 * one thread of a PE takes part; with a second, the PE falls back to plain
 * waiting (deterministic no more). */
uint32_t kolo_sim_wait_begin(kolo_sim_client *c);
void kolo_sim_wait_idle(kolo_sim_client *c, uint32_t seq, unsigned long *n);
void kolo_sim_wait_end(kolo_sim_client *c);
/* A poll: a look at a condition that returns what it sees (shmem_test). Under
 * --det it may say "not yet" only at a cycle that does not depend on the wall
 * clock: the wake the simulator gives `cycles` cycles after the poll starts.
 *     uint32_t t = kolo_sim_poll_start(c, cycles);
 *     for (;;) {
 *         uint32_t seq = kolo_sim_wait_begin(c);
 *         if (condition) { kolo_sim_wait_end(c); break; }
 *         if (kolo_sim_poll_wait(c, seq, t)) { look once more: the answer; break; }
 *     }
 * poll_wait is wait_idle that returns 1 when the wake came (0: something was
 * written into the PE: look again). Without --det: poll_wait returns 1 at once. */
uint32_t kolo_sim_poll_start(kolo_sim_client *c, uint64_t cycles);
int kolo_sim_poll_wait(kolo_sim_client *c, uint32_t seq, uint32_t ticket);
/* Looks under --det. A wait that nothing written into the PE ends (a card
 * that no longer answers completes nothing) must still look at the device
 * (a register read: the device-gone check, docs/api.md "Device gone"), at a
 * cycle that does not depend on the wall clock. kolo-sim gives every waiting
 * PE one wake before it would call the run stuck (every PE waiting, nothing
 * in flight or due); the waits of libkolo and libkolo_shmem take a ticket
 * before they sleep and look when it has changed:
 *     uint32_t t = kolo_sim_wake_ticket(c);
 *     kolo_sim_wait_idle(c, seq, &n);
 *     if (kolo_sim_poll_fired(c, t)) { read a register }
 * kolo_sim_poll_fired: 1 when a wake (a poll's or that one) came since the
 * ticket (0 without --det). */
uint32_t kolo_sim_wake_ticket(const kolo_sim_client *c);
int kolo_sim_poll_fired(const kolo_sim_client *c, uint32_t ticket);
/* Exits the PE (status 3, or a global exit's status) if the simulator has
 * gone or another PE ended the job: for loops that wait without the calls above. */
void kolo_sim_check_alive(const kolo_sim_client *c);
/* 1 under kolo-sim --det */
int kolo_sim_deterministic(const kolo_sim_client *c);
/* After writing shared state that other PEs wait on (kolo_sim_slot info):
 * wakes their waits, which may then use the wait calls above too. */
void kolo_sim_shm_post(kolo_sim_client *c);

/* shmem_global_exit: asks kolo-sim to end every PE; kolo-run then returns
 * status. Flushes stdio and exits this process with status; does not return. */
void kolo_sim_global_exit(kolo_sim_client *c, int status);

#ifdef __cplusplus
}
#endif
#endif
