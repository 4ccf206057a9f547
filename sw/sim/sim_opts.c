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
        "      --net=ideal|rtl     network: C model with fixed per-hop latency (default), or the\n"
        "                          Verilated torus RTL (binary kolo-sim-XxYxZ, make "
        "sim-rtl-XxYxZ)\n"
        "      --ni=model|rtl      NIs: the C NI model (default), or the NI RTL (PCIe endpoint\n"
        "                          + kolo_ni, one PCIe root-complex model per node) on the RTL\n"
        "                          torus (binary kolo-sim-ni-XxYxZ, make sim-rtlni-XxYxZ)\n"
        "      --timeout=SEC       wall-clock limit of the run (default 0: none)\n"
        "      --timeout-cycles=N  simulated-cycle limit (default 0: none)\n"
        "      --grace=SEC         once a PE failed, the others are killed after SEC (default 2)\n"
        "      --report            print the report at the end (always printed when the run "
        "fails)\n"
        "      --bench=NAME        print 'BENCH NAME_<metric> <value> <unit>' lines at the end\n"
        "      --hop-latency=N     ideal network: cycles per hop (default 4)\n"
        "      --mmio-per-cycle=N  MMIO requests taken per PE per cycle (default 1)\n"
        "      --no-idle           never sleep when idle (speed measurements)\n"
        "      --fault=KIND[:N]    test the checkers: corrupt, drop, dup, reorder (N-th ordered\n"
        "                          packet) or answer twice (resp2, N-th response); N default 10;\n"
        "                          --ni=rtl: corrupt/drop/dup the N-th ejected packet as the\n"
        "                          scoreboard sees it, tlp: the N-th device TLP breaks a rule\n"
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
        O_NI
    };
    static const struct option lo[] = {{"npes", required_argument, 0, 'n'},
                                       {"torus", required_argument, 0, 't'},
                                       {"net", required_argument, 0, O_NET},
                                       {"ni", required_argument, 0, O_NI},
                                       {"timeout", required_argument, 0, O_TIMEOUT},
                                       {"timeout-cycles", required_argument, 0, O_TCYC},
                                       {"grace", required_argument, 0, O_GRACE},
                                       {"report", no_argument, 0, O_REPORT},
                                       {"bench", required_argument, 0, O_BENCH},
                                       {"hop-latency", required_argument, 0, O_HOPLAT},
                                       {"mmio-per-cycle", required_argument, 0, O_MMIO},
                                       {"no-idle", no_argument, 0, O_NOIDLE},
                                       {"core-mhz", required_argument, 0, O_MHZ},
                                       {"fault", required_argument, 0, O_FAULT},
                                       {"verbose", no_argument, 0, 'v'},
                                       {"help", no_argument, 0, 'h'},
                                       {0, 0, 0, 0}};
    uint64_t u;
    int c;
    memset(o, 0, sizeof *o);
    o->net = KOLO_NET_IDEAL;
    o->grace_s = 2.0;
    o->hop_latency = 4;
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
            else
                return err_out(err, errlen, "bad --net '%s': ideal or rtl", a);
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
            o->report = 1;
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
        case O_FAULT: {
            static const char *const kinds[] = {"corrupt", "drop",  "dup",
                                                "reorder", "resp2", "tlp"};
            const char *colon = strchr(a, ':');
            size_t n = colon ? (size_t)(colon - a) : strlen(a);
            o->fault = 0;
            for (int k = 0; k < 6; k++)
                if (strlen(kinds[k]) == n && !strncmp(a, kinds[k], n))
                    o->fault = k + 1;
            o->fault_n = 10;
            if (!o->fault || (colon && (parse_u64(colon + 1, &o->fault_n) || !o->fault_n)))
                return err_out(err, errlen,
                               "bad --fault '%s': corrupt|drop|dup|reorder|resp2|tlp[:N]", a);
            break;
        }
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
    if (o->ni == KOLO_NI_RTL) {
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
