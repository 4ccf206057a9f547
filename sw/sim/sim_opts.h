/* sim_opts.h - command line of kolo-sim and kolo-run (they share it: kolo-run
 * checks it, picks the torus and hands the same options to kolo-sim). */
#ifndef KOLO_SIM_OPTS_H
#define KOLO_SIM_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "kolo_route.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --net: the C network model, the Verilated routers (with ideal links), or whole
 * kolo_chips joined lane to lane (NIs, links, service processors: net_chip.cpp) */
enum { KOLO_NET_IDEAL = 0, KOLO_NET_RTL = 1, KOLO_NET_CHIP = 2 };
/* --report: none, the story (summary), or the story then every NI's and
 * service processor's counters (full) */
enum { KOLO_REPORT_NONE = 0, KOLO_REPORT_SUMMARY = 1, KOLO_REPORT_FULL = 2 };
/* --ni: the C NI model per node, or the NI RTL (kolo_pcie_ep + kolo_ni) */
enum { KOLO_NI_MODEL = 0, KOLO_NI_RTL = 1 };
/* --fault=KIND[:N]: break the N-th packet (N-th ordered one for reorder, N-th
 * response for resp2) on its way, to show the scoreboard and oracle notice */
enum {
    KOLO_FAULT_NONE = 0,
    KOLO_FAULT_CORRUPT,
    KOLO_FAULT_DROP,
    KOLO_FAULT_DUP,
    KOLO_FAULT_REORDER,
    KOLO_FAULT_RESP2,
    KOLO_FAULT_TLP, /* --ni=rtl: the N-th device TLP reaches the root-complex model with TD set */
    KOLO_FAULT_SVCBUS /* --net=chip: the service processors of every node but index 0 reach only
                         address 0 of their service blocks (they read wrong straps at boot) */
};

/* exit statuses of kolo-sim / kolo-run themselves (a PE's own status is
 * passed through; these are the statuses of failures of the run) */
#define KOLO_SIM_EXIT_USAGE 2      /* bad command line */
#define KOLO_SIM_EXIT_TIMEOUT 124  /* --timeout / --timeout-cycles hit */
#define KOLO_SIM_EXIT_CHECK 125    /* scoreboard / NI oracle / simulator error */
#define KOLO_SIM_EXIT_NOEXEC 126   /* program found but not executable, or no RTL build */
#define KOLO_SIM_EXIT_NOTFOUND 127 /* program not found */

/* --fail-link / --restore-link / --fail-node / --restore-node: fault events
 * at a simulated cycle (the service processors and firmware then run, and
 * every NI uses its end-to-end protocol) */
enum { KOLO_EV_FAIL_LINK = 0, KOLO_EV_RESTORE_LINK, KOLO_EV_FAIL_NODE, KOLO_EV_RESTORE_NODE };
#define KOLO_SIM_MAX_EVENTS 64
typedef struct {
    uint64_t cycle;
    int kind;      /* KOLO_EV_* */
    int node_xyz;  /* 1: node given as x,y,z in xyz[]; 0: as an index in node */
    unsigned node; /* node index (after kolo_sim_resolve) */
    unsigned xyz[3];
    int port; /* 0..5 (links) */
    int when_busy; /* CYCLE+: at or after CYCLE, once a packet is on its way across the link */
} kolo_sim_event;

typedef struct {
    kolo_topo topo;
    int have_topo;
    unsigned npes;
    int have_npes;
    int net;
    int ni;                  /* KOLO_NI_*; KOLO_NI_RTL implies the RTL network */
    double timeout_s;        /* 0: none */
    uint64_t timeout_cycles; /* 0: none */
    double grace_s;          /* after a PE failed, the others get this long */
    int report;              /* KOLO_REPORT_* */
    const char *bench;       /* NULL or the prefix of BENCH lines */
    unsigned hop_latency;    /* ideal network, cycles per hop */
    unsigned mmio_per_cycle; /* ring requests taken per PE per cycle */
    unsigned core_mhz;
    int verbose;
    int no_idle; /* never sleep (for speed measurements) */
    int det;            /* deterministic co-simulation (kolo_sim_shm.h) */
    int fast;           /* transaction-level NIs and network (fast_ni.h); implies det */
    unsigned jitter;    /* --fast: doorbells and PIO writes reach the NI 0..jitter cycles late */
    uint64_t seed;      /* --fast: the seed of those draws (default 1) */
    int have_jitter, have_seed;
    const char *server; /* --server[=NAME]: PEs started by someone else attach ("": default) */
    int wrong_node;     /* test: node index wrong_node-1 reports node index 0's id (0: none) */
    int fail_card;      /* --fail-card: PE fail_card-1's card stops answering (0: none) */
    uint64_t fail_card_at; /* ... from this cycle on */
    double det_stall_s; /* --det: a PE running this long stops holding time back */
    int fault;   /* testing the checkers: KOLO_FAULT_* on the fault_n-th packet */
    uint64_t fault_n;
    int prog_index; /* argv index of the program */
    kolo_sim_event events[KOLO_SIM_MAX_EVENTS];
    unsigned nevents;
    int svc;               /* run the service processors and firmware (implied by events, --ctl) */
    const char *ctl;       /* control socket path for kolo-ctl ("" = /tmp/kolo-sim.<pid>.ctl) */
    uint64_t e2e_timeout;  /* NI end-to-end timeout, cycles (0: default) */
    int no_e2e;            /* faults without end-to-end retransmission (negative control) */
    const char *trace;     /* VCD of the fault handling (--trace) */
    const char *rtl_trace; /* FST of the RTL routers in the trace window (--rtl-trace, --net=rtl) */
    uint64_t trace_start, trace_cycles; /* window; trace_start 0: 1000 before the first event */
    uint64_t fw_compute;   /* modelled PowerPC cycles per table computation (0: default) */
} kolo_sim_opts;

/* 0 on success, 1 for --help (usage printed), -1 with a message in err */
int kolo_sim_parse(int argc, char **argv, kolo_sim_opts *o, char *err, size_t errlen);
void kolo_sim_usage(const char *prog, int is_run);
/* "XxYxZ" -> topo; 0 or -1 */
int kolo_sim_parse_torus(const char *s, kolo_topo *t);
/* smallest standard shape holding n nodes: 1,2 -> 2x1x1, <=8 2x2x2, <=27 3x3x3, <=64 4x4x4; -1 if
 * none */
int kolo_sim_pick_torus(unsigned n, kolo_topo *t);
/* Fill in the torus and npes defaults and check them; 0 or -1 with message. */
int kolo_sim_resolve(kolo_sim_opts *o, char *err, size_t errlen);
/* The path execvp would run for prog: 0 and path filled, else
 * KOLO_SIM_EXIT_NOTFOUND or KOLO_SIM_EXIT_NOEXEC with a message in err. */
int kolo_sim_find_prog(const char *prog, char *path, size_t pathlen, char *err, size_t errlen);
/* "NODE" (index or x,y,z) and "PORT" (0..5 or X+ X- Y+ Y- Z+ Z-) as kolo-ctl
 * and the fault options take them; 0 or -1 */
int kolo_sim_parse_node(const char *s, const kolo_topo *t, unsigned *index);
int kolo_sim_parse_port(const char *s, int *port);
/* directory of the running executable (from /proc/self/exe) */
int kolo_sim_self_dir(char *dir, size_t len);

#ifdef __cplusplus
}
#endif
#endif
