/* shmemx.h - kolo extensions to OpenSHMEM (not in the specification). */
#ifndef KOLO_SHMEMX_H
#define KOLO_SHMEMX_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Simulated core clock cycles so far under kolo-sim (0 elsewhere) and the
 * simulated clock in MHz: for measuring latencies in simulated time. */
uint64_t shmemx_kolo_cycles(void);
unsigned shmemx_kolo_core_mhz(void);

/* The NI context (0..15) a context's operations use: each context gets one
 * of its own while the NI has free ones, later ones share (docs/shmem.md).
 * -1 for SHMEM_CTX_INVALID or before shmem_init. */
struct kshmem_ctx;
int shmemx_ctx_nic(struct kshmem_ctx *ctx);

#ifdef __cplusplus
}
#endif
#endif
