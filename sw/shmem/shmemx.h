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

#ifdef __cplusplus
}
#endif
#endif
