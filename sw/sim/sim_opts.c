/* sim_opts.c - command line of kolo-sim and kolo-run. */
#define _GNU_SOURCE
#include "sim_opts.h"
#include "kolo_sim_shm.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

static int err_out(char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

void kolo_sim_usage(const char *prog, int is_run) {
    printf("usage: %s [options] [--] program [args...]\n", prog);
    printf("%s\n", is_run ? "Runs program as N PEs on a simulated kolo torus (starts kolo-sim)."
                          : "Simulates a kolo torus with its NIs and runs program as N PEs on it.");
    printf(
        "  -n, --npes=N            PEs (default: every node of -t, else 1); PE i is on node index "
        "i\n"
        "  -t, --torus=XxYxZ       torus (default: smallest of 2x1x1 2x2x2 3x3x3 4x4x4 holding N)\n"
        "      --net=ideal|rtl|chip  network: C model with fixed per-hop latency (default), the\n"
        "                          Verilated torus RTL (binary kolo-sim-XxYxZ, make "
        "sim-rtl-XxYxZ),\n"
        "                          or whole kolo_chips joined lane to lane, NIs, links and\n"
        "                          service processors included (kolo-sim-chip-XxYxZ, make\n"
        "                          sim-chip-XxYxZ)\n"
        "      --ni=model|rtl      NIs: the C NI model (default), or the NI RTL (PCIe endpoint\n"
        "                          + kolo_ni, one PCIe root-complex model per node) on the RTL\n"
        "                          torus (binary kolo-sim-ni-XxYxZ, make sim-rtlni-XxYxZ)\n"
        "      --timeout=SEC       wall-clock limit of the run (default 0: none)\n"
        "      --timeout-cycles=N  simulated-cycle limit (default 0: none)\n"
        "      --grace=SEC         once a PE failed, the others are killed after SEC (default 2)\n"
        "      --report[=full]     print the report at the end: the story first (result, faults,\n"
        "                          recovery, retransmissions, totals); =full adds the counters\n"
        "                          of every NI and every service processor (always printed in\n"
        "                          full when the run fails)\n"
        "      --bench=NAME        print 'BENCH NAME_<metric> <value> <unit>' lines at the end\n"
        "      --hop-latency=N     ideal network: cycles per hop (default 4)\n"
        "      --mmio-per-cycle=N  MMIO requests taken per PE per cycle (default 1)\n"
        "      --no-idle           never sleep when idle (speed measurements)\n"
        "      --server[=NAME]     (kolo-sim only) no program: serve N PEs started by someone\n"
        "                          else (mpirun, mpiexec, srun), which attach to the segment\n"
        "                          /kolo-sim.server.NAME (default: kolo-sim.server.<uid>; they\n"
        "                          find it in KOLO_SIM_SHM); PE i takes node index i\n"
        "      --wrong-node-id=I   test: the NI of node index I reports node index 0's id\n"
        "      --fail-card=CYCLE:PE  from CYCLE on, PE's card stops answering its host (power\n"
        "                          lost, link down): MMIO reads return all ones, writes are\n"
        "                          dropped (the host's side of a card that is gone; the NI\n"
        "                          itself runs on); C NI model or --ni=rtl, not --fast\n"
        "      --fast              transaction-level NIs and network: an operation takes effect\n"
        "                          whole at a modelled time (no flits stepped); for programs\n"
        "                          that move gigabytes; implies --det; C network model only\n"
        "      --jitter=N          --fast: timing noise; a doorbell or PIO write reaches the NI\n"
        "                          0..N cycles after it is taken from the PE's ring (default 16;\n"
        "                          0: none, PEs run in lock step)\n"
        "      --seed=N            --fast: seed of that noise (default 1; the report and every\n"
        "                          dump print it: the same seed, the same run)\n"
        "      --det               deterministic co-simulation: simulated time moves on only while\n"
        "                          every PE waits on the simulator (in a library wait), so the\n"
        "                          cycles a program takes do not depend on how fast the PEs run\n"
        "      --det-stall=SEC     --det: a PE that runs SEC without waiting on the simulator\n"
        "                          stops holding simulated time back (warning; default 30)\n"
        "      --fault=KIND[:N]    test the checkers: corrupt, drop, dup, reorder (N-th ordered\n"
        "                          packet) or answer twice (resp2, N-th response); N default 10;\n"
        "                          --ni=rtl: corrupt/drop/dup the N-th ejected packet as the\n"
        "                          scoreboard sees it, tlp: the N-th device TLP breaks a rule;\n"
        "                          --net=chip: svcbus: every service processor but node index\n"
        "                          0's reaches only address 0 (wrong straps read at boot)\n"
        "      --fail-link=CYCLE:NODE:PORT     at CYCLE the link on PORT of NODE fails (both\n"
        "                          directions); NODE: index or x,y,z; PORT: 0..5 or X+ X- Y+ Y- Z+ Z-;\n"
        "                          CYCLE+: at or after CYCLE, once a packet is on its way across it\n"
        "      --restore-link=CYCLE:NODE:PORT  it works again\n"
        "      --fail-node=CYCLE:NODE          the node dies (its links, router, firmware; it must\n"
        "                          not host a PE)\n"
        "      --restore-node=CYCLE:NODE       it comes back and reboots\n"
        "                          (any of these runs the service processors and makes every\n"
        "                          NI use end-to-end retransmission; docs/firmware.md)\n"
        "      --svc               run the service processors and their firmware without faults\n"
        "      --ctl[=PATH]        control socket for kolo-ctl (default /tmp/kolo-sim.<pid>.ctl;\n"
        "                          PEs get it in KOLO_SIM_CTL); implies --svc\n"
        "      --e2e-timeout=N     NI end-to-end retransmission timeout in cycles (default 20000)\n"
        "      --fw-compute=N      modelled service-processor cycles per table computation\n"
        "      --trace=FILE.vcd    VCD of the fault handling (per node: link states, firmware\n"
        "                          stage, table epoch, operations waiting; drops, retransmits)\n"
        "      --trace-window=START:CYCLES  (default: from 1000 cycles before the first fault\n"
        "                          event, 30000 cycles; --rtl-trace: not before the service\n"
        "                          processors have booted)\n"
        "      --rtl-trace=FILE.fst  --net=rtl: FST waveform of the Verilated routers in the\n"
        "                          trace window (binary kolo-sim-trace-XxYxZ, make\n"
        "                          sim-rtl-trace-XxYxZ; slow: keep the window short)\n"
        "      --no-e2e            faults without NI end-to-end retransmission: lost operations\n"
        "                          hang (the negative control of the fault tests)\n"
        "  -v, --verbose           progress messages on stderr\n"
        "  -h, --help\n"
        "Environment of each PE: KOLO_SIM_SHM, KOLO_PE, KOLO_NPES. Exit status: the first "
        "non-zero\n"
        "status of a PE (128+signal for a PE killed by a signal), the status given to global "
        "exit,\n"
        "%d bad usage, %d timeout, %d scoreboard/simulator error, %d not executable or no RTL\n"
        "build, %d program not found.\n",
        KOLO_SIM_EXIT_USAGE, KOLO_SIM_EXIT_TIMEOUT, KOLO_SIM_EXIT_CHECK, KOLO_SIM_EXIT_NOEXEC,
        KOLO_SIM_EXIT_NOTFOUND);
}

int kolo_sim_parse_torus(const char *s, kolo_topo *t) {
    unsigned v[3];
    char tail;
    if (!s || sscanf(s, "%ux%ux%u%c", &v[0], &v[1], &v[2], &tail) != 3)
        return -1;
    for (int i = 0; i < 3; i++) {
        if (v[i] < 1 || v[i] > KOLO_MAX_DIM)
            return -1;
        t->size[i] = (uint8_t)v[i];
    }
    return 0;
}

int kolo_sim_pick_torus(unsigned n, kolo_topo *t) {
    static const uint8_t shapes[4][3] = {{2, 1, 1}, {2, 2, 2}, {3, 3, 3}, {4, 4, 4}};
    for (int i = 0; i < 4; i++) {
        if (n <= (unsigned)shapes[i][0] * shapes[i][1] * shapes[i][2]) {
            memcpy(t->size, shapes[i], 3);
            return 0;
        }
    }
    return -1;
}

static int parse_u64(const char *s, uint64_t *v) {
    char *end;
    unsigned long long x;
    if (!s || !*s || *s == '-')
        return -1;
    errno = 0;
    x = strtoull(s, &end, 0);
    if (errno || *end)
        return -1;
    *v = x;
    return 0;
}

static int parse_sec(const char *s, double *v) {
    char *end;
    double x;
    if (!s || !*s)
        return -1;
    errno = 0;
    x = strtod(s, &end);
    if (errno || *end || x < 0 || x != x)
        return -1;
    *v = x;
    return 0;
}

int kolo_sim_parse_port(const char *s, int *port) {
    static const char *const names[6] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-"};
    if (!s)
        return -1;
    for (int i = 0; i < 6; i++)
        if (!strcasecmp(s, names[i])) {
            *port = i;
            return 0;
        }
    if (s[0] >= '0' && s[0] <= '5' && !s[1]) {
        *port = s[0] - '0';
        return 0;
    }
    return -1;
}

/* index or x,y,z; with t NULL only the syntax is checked */
static int parse_node_raw(const char *s, int *is_xyz, unsigned *index, unsigned xyz[3]) {
    char tail;
    if (!s || !*s)
        return -1;
    if (strchr(s, ',')) {
        if (sscanf(s, "%u,%u,%u%c", &xyz[0], &xyz[1], &xyz[2], &tail) != 3)
            return -1;
        *is_xyz = 1;
        return 0;
    }
    uint64_t v;
    if (parse_u64(s, &v) || v >= KOLO_MAX_NODES)
        return -1;
    *index = (unsigned)v;
    *is_xyz = 0;
    return 0;
}

static int node_index(const kolo_topo *t, int is_xyz, unsigned index, const unsigned xyz[3],
                      unsigned *out) {
    if (is_xyz) {
        for (int i = 0; i < 3; i++)
            if (xyz[i] >= t->size[i])
                return -1;
        *out = kolo_node_index(t, (uint16_t)(xyz[0] | xyz[1] << 4 | xyz[2] << 8));
        return 0;
    }
    if (index >= kolo_topo_nodes(t))
        return -1;
    *out = index;
    return 0;
}

int kolo_sim_parse_node(const char *s, const kolo_topo *t, unsigned *index) {
    int is_xyz;
    unsigned i = 0, xyz[3] = {0, 0, 0};
    if (parse_node_raw(s, &is_xyz, &i, xyz))
        return -1;
    return node_index(t, is_xyz, i, xyz, index);
}

/* CYCLE:NODE[:PORT] */
static int parse_event(const char *a, int kind, kolo_sim_opts *o, char *err, size_t errlen) {
    static const char *const opt[4] = {"--fail-link", "--restore-link", "--fail-node",
                                       "--restore-node"};
    int link = kind == KOLO_EV_FAIL_LINK || kind == KOLO_EV_RESTORE_LINK;
    char buf[128], *f[3] = {0, 0, 0};
    int nf = 0;
    if (o->nevents >= KOLO_SIM_MAX_EVENTS)
        return err_out(err, errlen, "more than %d fault events", KOLO_SIM_MAX_EVENTS);
    snprintf(buf, sizeof buf, "%s", a);
    for (char *p = buf, *q; nf < 3; p = q + 1) {
        f[nf++] = p;
        q = strchr(p, ':');
        if (!q)
            break;
        *q = 0;
    }
    kolo_sim_event *e = &o->events[o->nevents];
    memset(e, 0, sizeof *e);
    e->kind = kind;
    if (nf >= 1 && kind == KOLO_EV_FAIL_LINK && *f[0] && f[0][strlen(f[0]) - 1] == '+') {
        e->when_busy = 1;
        f[0][strlen(f[0]) - 1] = 0;
    }
    if (nf != (link ? 3 : 2) || strchr(f[nf - 1], ':') || parse_u64(f[0], &e->cycle) ||
        parse_node_raw(f[1], &e->node_xyz, &e->node, e->xyz) ||
        (link && kolo_sim_parse_port(f[2], &e->port)))
        return err_out(err, errlen, "bad %s '%s': expected CYCLE:NODE%s (NODE: index or x,y,z%s)",
                       opt[kind], a, link ? ":PORT" : "",
                       link ? "; PORT: 0..5 or X+ X- Y+ Y- Z+ Z-" : "");
    o->nevents++;
    return 0;
}

int kolo_sim_parse(int argc, char **argv, kolo_sim_opts *o, char *err, size_t errlen) {
    enum {
        O_NET = 256,
        O_TIMEOUT,
        O_TCYC,
        O_GRACE,
        O_REPORT,
        O_BENCH,
        O_HOPLAT,
        O_MMIO,
        O_NOIDLE,
        O_MHZ,
        O_FAULT,
        O_NI,
        O_FAIL_LINK,
        O_RESTORE_LINK,
        O_FAIL_NODE,
        O_RESTORE_NODE,
        O_SVC,
        O_CTL,
        O_E2E_TIMEOUT,
        O_FW_COMPUTE,
        O_NO_E2E,
        O_TRACE,
        O_TRACE_WINDOW,
        O_RTL_TRACE,
        O_DET,
        O_DET_STALL,
        O_SERVER,
        O_WRONG_NODE,
        O_FAIL_CARD,
        O_FAST,
        O_JITTER,
        O_SEED
    };
    static const struct option lo[] = {{"npes", required_argument, 0, 'n'},
                                       {"torus", required_argument, 0, 't'},
                                       {"net", required_argument, 0, O_NET},
                                       {"ni", required_argument, 0, O_NI},
                                       {"timeout", required_argument, 0, O_TIMEOUT},
                                       {"timeout-cycles", required_argument, 0, O_TCYC},
                                       {"grace", required_argument, 0, O_GRACE},
                                       {"report", optional_argument, 0, O_REPORT},
                                       {"bench", required_argument, 0, O_BENCH},
                                       {"hop-latency", required_argument, 0, O_HOPLAT},
                                       {"mmio-per-cycle", required_argument, 0, O_MMIO},
                                       {"no-idle", no_argument, 0, O_NOIDLE},
                                       {"core-mhz", required_argument, 0, O_MHZ},
                                       {"fault", required_argument, 0, O_FAULT},
                                       {"fail-link", required_argument, 0, O_FAIL_LINK},
                                       {"restore-link", required_argument, 0, O_RESTORE_LINK},
                                       {"fail-node", required_argument, 0, O_FAIL_NODE},
                                       {"restore-node", required_argument, 0, O_RESTORE_NODE},
                                       {"svc", no_argument, 0, O_SVC},
                                       {"ctl", optional_argument, 0, O_CTL},
                                       {"e2e-timeout", required_argument, 0, O_E2E_TIMEOUT},
                                       {"fw-compute", required_argument, 0, O_FW_COMPUTE},
                                       {"no-e2e", no_argument, 0, O_NO_E2E},
                                       {"trace", required_argument, 0, O_TRACE},
                                       {"trace-window", required_argument, 0, O_TRACE_WINDOW},
                                       {"rtl-trace", required_argument, 0, O_RTL_TRACE},
                                       {"det", no_argument, 0, O_DET},
                                       {"det-stall", required_argument, 0, O_DET_STALL},
                                       {"server", optional_argument, 0, O_SERVER},
                                       {"fast", no_argument, 0, O_FAST},
                                       {"jitter", required_argument, 0, O_JITTER},
                                       {"seed", required_argument, 0, O_SEED},
                                       {"wrong-node-id", required_argument, 0, O_WRONG_NODE},
                                       {"fail-card", required_argument, 0, O_FAIL_CARD},
                                       {"verbose", no_argument, 0, 'v'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    uint64_t u;
    int c;
    memset(o, 0, sizeof *o);
    o->net = KOLO_NET_IDEAL;
    o->grace_s = 2.0;
    o->det_stall_s = 30.0;
    o->hop_latency = 4;
    o->jitter = 16;
    o->seed = 1;
    o->mmio_per_cycle = 1;
    o->core_mhz = 250;
    opterr = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "+:n:t:vh", lo, NULL)) != -1) {
        const char *a = optarg;
        switch (c) {
        case 'n':
            if (parse_u64(a, &u) || u < 1 || u > KOLO_MAX_NODES)
                return err_out(err, errlen, "bad -n '%s': a number of PEs, 1..%d", a,
                               KOLO_MAX_NODES);
            o->npes = (unsigned)u;
            o->have_npes = 1;
            break;
        case 't':
            if (kolo_sim_parse_torus(a, &o->topo))
                return err_out(err, errlen,
                               "bad -t '%s': expected XxYxZ with sizes 1..%d (e.g. 2x2x2)", a,
                               KOLO_MAX_DIM);
            o->have_topo = 1;
            break;
        case O_NET:
            if (!strcmp(a, "ideal"))
                o->net = KOLO_NET_IDEAL;
            else if (!strcmp(a, "rtl"))
                o->net = KOLO_NET_RTL;
            else if (!strcmp(a, "chip"))
                o->net = KOLO_NET_CHIP;
            else
                return err_out(err, errlen, "bad --net '%s': ideal, rtl or chip", a);
            break;
        case O_NI:
            if (!strcmp(a, "model"))
                o->ni = KOLO_NI_MODEL;
            else if (!strcmp(a, "rtl"))
                o->ni = KOLO_NI_RTL;
            else
                return err_out(err, errlen, "bad --ni '%s': model or rtl", a);
            break;
        case O_TIMEOUT:
            if (parse_sec(a, &o->timeout_s))
                return err_out(err, errlen, "bad --timeout '%s': seconds", a);
            break;
        case O_TCYC:
            if (parse_u64(a, &o->timeout_cycles))
                return err_out(err, errlen, "bad --timeout-cycles '%s'", a);
            break;
        case O_GRACE:
            if (parse_sec(a, &o->grace_s))
                return err_out(err, errlen, "bad --grace '%s': seconds", a);
            break;
        case O_REPORT:
            if (!optarg || !strcmp(optarg, "summary"))
                o->report = KOLO_REPORT_SUMMARY;
            else if (!strcmp(optarg, "full"))
                o->report = KOLO_REPORT_FULL;
            else
                return err_out(err, errlen, "bad --report '%s': summary or full", optarg);
            break;
        case O_BENCH:
            if (!*a)
                return err_out(err, errlen, "empty --bench name");
            o->bench = a;
            break;
        case O_HOPLAT:
            if (parse_u64(a, &u) || u < 1 || u > 1000)
                return err_out(err, errlen, "bad --hop-latency '%s': 1..1000", a);
            o->hop_latency = (unsigned)u;
            break;
        case O_MMIO:
            if (parse_u64(a, &u) || u < 1 || u > KOLO_SIM_RING)
                return err_out(err, errlen, "bad --mmio-per-cycle '%s': 1..%u", a, KOLO_SIM_RING);
            o->mmio_per_cycle = (unsigned)u;
            break;
        case O_MHZ:
            if (parse_u64(a, &u) || u < 1 || u > 10000)
                return err_out(err, errlen, "bad --core-mhz '%s'", a);
            o->core_mhz = (unsigned)u;
            break;
        case O_NOIDLE:
            o->no_idle = 1;
            break;
        case O_DET:
            o->det = 1;
            break;
        case O_FAST:
            o->fast = 1;
            o->det = 1;
            break;
        case O_JITTER:
            if (parse_u64(a, &u) || u > 100000)
                return err_out(err, errlen, "bad --jitter '%s': cycles, 0..100000", a);
            o->jitter = (unsigned)u;
            o->have_jitter = 1;
            break;
        case O_SEED:
            if (parse_u64(a, &o->seed))
                return err_out(err, errlen, "bad --seed '%s': a number", a);
            o->have_seed = 1;
            break;
        case O_SERVER:
            o->server = a && *a ? a : "";
            if (a && (strchr(a, '/') || strlen(a) > 100))
                return err_out(err, errlen, "bad --server '%s': a name without '/'", a);
            break;
        case O_WRONG_NODE:
            if (parse_u64(a, &u) || u > 4095)
                return err_out(err, errlen, "bad --wrong-node-id '%s': a node index", a);
            o->wrong_node = (int)u + 1;
            break;
        case O_FAIL_CARD: {
            const char *colon = strchr(a, ':');
            char cyc[32];
            size_t n = colon ? (size_t)(colon - a) : 0;
            if (!colon || !n || n >= sizeof cyc)
                return err_out(err, errlen, "bad --fail-card '%s': CYCLE:PE", a);
            memcpy(cyc, a, n);
            cyc[n] = 0;
            if (parse_u64(cyc, &o->fail_card_at) || parse_u64(colon + 1, &u) || u > 4095)
                return err_out(err, errlen, "bad --fail-card '%s': CYCLE:PE", a);
            o->fail_card = (int)u + 1;
            break;
        }
        case O_DET_STALL:
            if (parse_sec(a, &o->det_stall_s) || o->det_stall_s <= 0)
                return err_out(err, errlen, "bad --det-stall '%s': seconds", a);
            break;
        case O_FAULT: {
            static const char *const kinds[] = {"corrupt", "drop", "dup", "reorder",
                                                "resp2",   "tlp",  "svcbus"};
            const char *colon = strchr(a, ':');
            size_t n = colon ? (size_t)(colon - a) : strlen(a);
            o->fault = 0;
            for (int k = 0; k < (int)(sizeof kinds / sizeof kinds[0]); k++)
                if (strlen(kinds[k]) == n && !strncmp(a, kinds[k], n))
                    o->fault = k + 1;
            o->fault_n = 10;
            if (!o->fault || (colon && (parse_u64(colon + 1, &o->fault_n) || !o->fault_n)))
                return err_out(err, errlen,
                               "bad --fault '%s': corrupt|drop|dup|reorder|resp2|tlp|svcbus[:N]", a);
            break;
        }
        case O_FAIL_LINK:
        case O_RESTORE_LINK:
        case O_FAIL_NODE:
        case O_RESTORE_NODE:
            if (parse_event(a, c - O_FAIL_LINK, o, err, errlen))
                return -1;
            o->svc = 1;
            break;
        case O_SVC:
            o->svc = 1;
            break;
        case O_NO_E2E:
            o->no_e2e = 1;
            break;
        case O_TRACE:
            if (!*a)
                return err_out(err, errlen, "empty --trace file name");
            o->trace = a;
            o->svc = 1;
            break;
        case O_RTL_TRACE:
            if (!*a)
                return err_out(err, errlen, "empty --rtl-trace file name");
            o->rtl_trace = a;
            break;
        case O_TRACE_WINDOW: {
            char buf[64], *colon;
            snprintf(buf, sizeof buf, "%s", a);
            colon = strchr(buf, ':');
            if (colon)
                *colon = 0;
            if (!colon || parse_u64(buf, &o->trace_start) || parse_u64(colon + 1, &o->trace_cycles) ||
                !o->trace_cycles)
                return err_out(err, errlen, "bad --trace-window '%s': START:CYCLES", a);
            break;
        }
        case O_CTL:
            o->ctl = a ? a : "";
            o->svc = 1;
            break;
        case O_E2E_TIMEOUT:
            if (parse_u64(a, &o->e2e_timeout) || o->e2e_timeout < 100 || o->e2e_timeout > 100000000)
                return err_out(err, errlen, "bad --e2e-timeout '%s': 100..100000000 cycles", a);
            break;
        case O_FW_COMPUTE:
            if (parse_u64(a, &o->fw_compute) || o->fw_compute > 100000000)
                return err_out(err, errlen, "bad --fw-compute '%s': 0..100000000 cycles", a);
            break;
        case 'v':
            o->verbose++;
            break;
        case 'h':
            return 1;
        case ':':
            return err_out(err, errlen, "option %s needs a value", argv[optind - 1]);
        default:
            if (optopt && optopt < 256)
                return err_out(err, errlen, "unknown option -%c (see --help)", optopt);
            return err_out(err, errlen, "unknown option %s (see --help)", argv[optind - 1]);
        }
    }
    if (o->server) {
        if (optind < argc)
            return err_out(err, errlen,
                           "--server runs no program (the PEs are started by someone else): "
                           "'%s' is one too many",
                           argv[optind]);
        o->prog_index = argc;
        return 0;
    }
    if (optind >= argc)
        return err_out(err, errlen,
                       "no program given (usage: [options] program [args...], see --help)");
    o->prog_index = optind;
    return 0;
}

int kolo_sim_resolve(kolo_sim_opts *o, char *err, size_t errlen) {
    unsigned nodes;
    if (!o->have_npes)
        o->npes = o->have_topo ? kolo_topo_nodes(&o->topo) : 1;
    if (!o->have_topo) {
        if (kolo_sim_pick_torus(o->npes, &o->topo))
            return err_out(err, errlen,
                           "%u PEs: more than the largest standard torus (4x4x4) holds; give -t",
                           o->npes);
        o->have_topo = 1;
    }
    if (o->net == KOLO_NET_CHIP) {
        /* whole chips: their NIs are RTL, behind their PCIe cores */
        if (o->fault == KOLO_FAULT_REORDER || o->fault == KOLO_FAULT_RESP2)
            return err_out(err, errlen, "--fault=reorder and resp2 need the C NI model");
        if (o->fault == KOLO_FAULT_TLP)
            return err_out(err, errlen, "--fault=tlp needs --ni=rtl (not --net=chip)");
        o->ni = KOLO_NI_RTL;
    } else if (o->fault == KOLO_FAULT_SVCBUS) {
        return err_out(err, errlen, "--fault=svcbus needs --net=chip");
    } else if (o->ni == KOLO_NI_RTL) {
        /* the NI RTL sits on the torus RTL: one Verilated model */
        /* the RTL's packets never leave it: faults are played on what the checkers see */
        if (o->fault == KOLO_FAULT_REORDER || o->fault == KOLO_FAULT_RESP2)
            return err_out(err, errlen, "--fault=reorder and resp2 need the C NI model");
        o->net = KOLO_NET_RTL;
    }
    if (o->fault == KOLO_FAULT_TLP && o->ni != KOLO_NI_RTL)
        return err_out(err, errlen, "--fault=tlp needs --ni=rtl");
    nodes = kolo_topo_nodes(&o->topo);
    if (o->npes > nodes)
        return err_out(err, errlen,
                       "%u PEs do not fit on a %ux%ux%u torus (%u nodes, one PE per node)", o->npes,
                       o->topo.size[0], o->topo.size[1], o->topo.size[2], nodes);
    if (o->rtl_trace && o->net != KOLO_NET_CHIP && (o->net != KOLO_NET_RTL || o->ni == KOLO_NI_RTL))
        return err_out(err, errlen,
                       "--rtl-trace needs --net=rtl (the Verilated routers) or --net=chip");
    /* --ni=rtl runs fault events and --svc (MGMT through the NIs' mgmt ports,
       tables through BAR0); kolo-ctl and --trace read the C NI model's state */
    if (o->ni == KOLO_NI_RTL && (o->ctl || o->trace))
        return err_out(err, errlen,
                       "--ctl and --trace need the C NI model (--ni=model): they read its "
                       "state (docs/firmware.md)");
    if (o->fast && (o->net == KOLO_NET_RTL || o->ni == KOLO_NI_RTL || o->svc || o->fault ||
                    o->trace || o->wrong_node || o->fail_card))
        return err_out(err, errlen,
                       "--fast is the C network at transaction level: not with --net=rtl, --ni=rtl, "
                       "fault events, --svc, --ctl, --fault, --trace, --wrong-node-id or --fail-card");
    if (o->fail_card && (unsigned)o->fail_card > o->npes)
        return err_out(err, errlen, "--fail-card: there is no PE %d (%u PEs)", o->fail_card - 1,
                       o->npes);
    if ((o->have_jitter || o->have_seed) && !o->fast)
        return err_out(err, errlen,
                       "--jitter and --seed need --fast (they are the timing noise of its "
                       "transaction-level NIs)");
    if (o->svc && o->fault)
        return err_out(err, errlen, "--fault cannot be combined with fault events, --svc or --ctl");
    for (unsigned i = 0; i < o->nevents; i++) {
        kolo_sim_event *e = &o->events[i];
        int link = e->kind == KOLO_EV_FAIL_LINK || e->kind == KOLO_EV_RESTORE_LINK;
        if (node_index(&o->topo, e->node_xyz, e->node, e->xyz, &e->node))
            return err_out(err, errlen, "fault event %u: no such node on a %ux%ux%u torus", i + 1,
                           o->topo.size[0], o->topo.size[1], o->topo.size[2]);
        if (link && !kolo_port_present(&o->topo, e->port))
            return err_out(err, errlen,
                           "fault event %u: port %d leads nowhere on a %ux%ux%u torus (size 1)",
                           i + 1, e->port, o->topo.size[0], o->topo.size[1], o->topo.size[2]);
        if (e->kind == KOLO_EV_FAIL_NODE && e->node < o->npes)
            return err_out(err, errlen,
                           "fault event %u: node index %u hosts PE %u; fail only nodes without a PE "
                           "(PE i runs on node index i: use fewer PEs with -n)",
                           i + 1, e->node, e->node);
    }
    return 0;
}

int kolo_sim_find_prog(const char *prog, char *path, size_t pathlen, char *err, size_t errlen) {
    struct stat st;
    if (!prog || !*prog) {
        err_out(err, errlen, "empty program name");
        return KOLO_SIM_EXIT_NOTFOUND;
    }
    if (strchr(prog, '/')) {
        if (stat(prog, &st)) {
            err_out(err, errlen, "program '%s' not found", prog);
            return KOLO_SIM_EXIT_NOTFOUND;
        }
        if (S_ISDIR(st.st_mode) || access(prog, X_OK)) {
            err_out(err, errlen, "program '%s' is not executable", prog);
            return KOLO_SIM_EXIT_NOEXEC;
        }
        snprintf(path, pathlen, "%s", prog);
        return 0;
    }
    {
        const char *p = getenv("PATH");
        int found_noexec = 0;
        if (!p || !*p)
            p = "/usr/local/bin:/usr/bin:/bin";
        while (*p) {
            const char *e = strchr(p, ':');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            char buf[PATH_MAX];
            if (n == 0)
                snprintf(buf, sizeof buf, "./%s", prog);
            else
                snprintf(buf, sizeof buf, "%.*s/%s", (int)n, p, prog);
            if (!stat(buf, &st) && !S_ISDIR(st.st_mode)) {
                if (!access(buf, X_OK)) {
                    snprintf(path, pathlen, "%s", buf);
                    return 0;
                }
                found_noexec = 1;
            }
            p += n;
            if (*p == ':')
                p++;
        }
        if (found_noexec) {
            err_out(err, errlen, "program '%s' is not executable", prog);
            return KOLO_SIM_EXIT_NOEXEC;
        }
        err_out(err, errlen, "program '%s' not found in PATH (give a path, e.g. ./%s)", prog, prog);
        return KOLO_SIM_EXIT_NOTFOUND;
    }
}

int kolo_sim_self_dir(char *dir, size_t len) {
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    char *slash;
    if (n <= 0)
        return -1;
    buf[n] = 0;
    slash = strrchr(buf, '/');
    if (!slash)
        return -1;
    *slash = 0;
    snprintf(dir, len, "%s", buf);
    return 0;
}
