/* kolo_selftest.h - routing self-test of the service-processor firmware.
 *
 * Runs the routing library over a fixed list of sample tori and, for each, a
 * fixed deterministic list of fault sets: the whole fault-tolerant table set
 * (kolo_tableset_faults), its deadlock check and its connectivity check. Every
 * table entry, return code and report count is folded into a 32-bit FNV-1a
 * digest whose value does not depend on the byte order or word size of the
 * machine: the native build and the PowerPC 440 build must print the same.
 * Freestanding C99: no libc, no allocation; the caller passes the workspace.
 */
#ifndef KOLO_SELFTEST_H
#define KOLO_SELFTEST_H

#include <stddef.h>
#include <stdint.h>

#include "kolo_route.h"

#define KOLO_SELFTEST_FAULT_SETS 10 /* fault sets per torus */

typedef struct {
    uint32_t tori;              /* tori tested */
    uint32_t fault_sets;        /* fault sets tested (all tori) */
    uint32_t entries;           /* table entries hashed */
    uint32_t deadlock_failures; /* table sets kolo_deadlock_check refused */
    uint32_t unrouted_pairs;    /* connected live pairs left without a valid entry */
    uint32_t check_failures;    /* table sets kolo_connectivity_check refused for a
                                   reason other than unrouted pairs */
    uint32_t route_errors;      /* kolo_tableset_faults calls that failed */
    uint32_t digest;            /* the value kolo_selftest_run returns */
    int error;                  /* KOLO_OK, or KOLO_E_NOSPACE: workspace too small */
} kolo_selftest_report;

/* Bytes of workspace kolo_selftest_run needs (table set, fault set and the
 * routing functions' workspace for the largest sample torus). */
size_t kolo_selftest_workspace_size(void);

/* Run the self-test; returns the digest (also in r->digest). With too small
 * a workspace nothing runs: r->error = KOLO_E_NOSPACE and 0 is returned. */
uint32_t kolo_selftest_run(void *ws, size_t ws_size, kolo_selftest_report *r);
/* The same over the first `tori` sample tori only (the quick self-test of
 * slow targets such as a simulated core: 1 is the 2x2x2 torus); its digest
 * is that of the shorter run, the same on every machine. */
uint32_t kolo_selftest_run_tori(void *ws, size_t ws_size, unsigned tori, kolo_selftest_report *r);

/* The self-test's lines, the same on every target (the tests compare them):
 *   kolo selftest: tori N, fault sets N, entries N, deadlock failures N, unrouted pairs N
 *   kolo selftest digest 0xXXXXXXXX
 * (or "kolo selftest: workspace too small"), each ended by '\n', through
 * putc. Returns 1 when the report shows a failure (a deadlock, a check, a
 * routing error, no workspace), else 0. */
int kolo_selftest_print(const kolo_selftest_report *r, void (*putc)(char c));

#endif
