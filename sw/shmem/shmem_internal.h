/* shmem_internal.h - private state of libkolo_shmem. */
#ifndef KOLO_SHMEM_INTERNAL_H
#define KOLO_SHMEM_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "kolo.h"
#include "shmem.h"
#include "symheap.h"

struct kshmem_team {
    int start, stride, size; /* world PEs start + i * stride, i < size */
    int my;                  /* my index, -1 if not a member */
    shmem_team_config_t config;
    int predefined;
};

struct kshmem_ctx {
    shmem_team_t team;
    int predefined;
};

typedef struct {
    uint64_t data_base, heap_base;
    uint8_t data_key, heap_key;
    uint16_t node;
} kshmem_peer;

typedef struct {
    int initialized, finalized;
    kolo_dev *dev;
    kolo_ctx *ctx;
    void *sim; /* kolo_sim_client */
    int me, npes;
    uint16_t my_node;
    uintptr_t data_base, heap_base;
    size_t data_len, heap_len;
    kshmem_peer *peer;
    shmh heap;
    /* internal symmetric objects (first allocations of the heap) */
    volatile uint64_t *sync_recv; /* [npes] sync signals received from each PE */
    uint64_t *sync_expect;        /* [npes] private: signals consumed so far */
    uint64_t *coll_sizes;         /* [npes] collect: bytes per member */
    uint8_t *scratch;             /* collective scratch */
    size_t scratch_len;
} kshmem_state;

extern kshmem_state kshmem;

/* error: message and shmem_global_exit(1) */
void kshmem_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void kshmem_check_init(const char *fn);
void kshmem_check_pe(const char *fn, int pe);
/* symmetric address -> remote address and key; fatal if not symmetric */
void kshmem_xlate(const char *fn, const void *addr, size_t len, int pe, uint64_t *raddr,
                  uint8_t *key);
int kshmem_is_symmetric(const void *addr, size_t len);
/* one wait-loop iteration: progress completions, back off */
void kshmem_wait_step(unsigned long *n);
/* libkolo failures are fatal */
void kshmem_rc(const char *fn, int rc);

/* RMA cores (bytes) */
void kshmem_put(shmem_ctx_t ctx, void *dest, const void *src, size_t n, int pe, int nbi);
void kshmem_get(shmem_ctx_t ctx, void *dest, const void *src, size_t n, int pe, int nbi);
/* atomic on world PE pe; returns the old value of fetching ops */
uint64_t kshmem_amo(const char *fn, int op, unsigned size, void *dest, uint64_t operand,
                    uint64_t compare, int pe);
int kshmem_ctx_pe(shmem_ctx_t ctx, const char *fn, int pe);
void kshmem_quiet(void);
void kshmem_sync_set(int start, int stride, int size);
/* a team as a set; fatal if invalid */
void kshmem_team_set(const char *fn, shmem_team_t team, int *start, int *stride, int *size);

#endif
