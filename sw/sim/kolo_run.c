/* kolo_run.c - kolo-run, the launcher (like oshrun):
 *   kolo-run [-t XxYxZ] [-n N] [--net=rtl|ideal] [kolo-sim options] prog args...
 * Checks the command line, picks the torus (smallest standard shape holding
 * N: 1,2 -> 2x1x1, <=8 -> 2x2x2, <=27 -> 3x3x3, <=64 -> 4x4x4), finds the
 * program and runs kolo-sim (the one next to this binary, or $KOLO_SIM) with
 * the torus and PE count made explicit. Its exit status is kolo-sim's. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim_opts.h"

int main(int argc, char **argv) {
    kolo_sim_opts o;
    char err[512], path[PATH_MAX], sim[PATH_MAX + 32], tbuf[32], nbuf[32];
    const char *env_sim = getenv("KOLO_SIM");
    int rc = kolo_sim_parse(argc, argv, &o, err, sizeof err);
    if (rc == 1) {
        kolo_sim_usage("kolo-run", 1);
        return 0;
    }
    if (rc == 0 && kolo_sim_resolve(&o, err, sizeof err))
        rc = -1;
    if (rc == 0 && o.server) {
        snprintf(err, sizeof err, "--server is kolo-sim's (kolo-run starts the PEs itself)");
        rc = -1;
    }
    if (rc) {
        fprintf(stderr, "kolo-run: %s\n", err);
        return KOLO_SIM_EXIT_USAGE;
    }
    rc = kolo_sim_find_prog(argv[o.prog_index], path, sizeof path, err, sizeof err);
    if (rc) {
        fprintf(stderr, "kolo-run: %s\n", err);
        return rc;
    }
    if (env_sim && *env_sim) {
        snprintf(sim, sizeof sim, "%s", env_sim);
    } else {
        char dir[PATH_MAX];
        if (kolo_sim_self_dir(dir, sizeof dir)) {
            fprintf(stderr,
                    "kolo-run: cannot find my own directory (set KOLO_SIM to kolo-sim's path)\n");
            return KOLO_SIM_EXIT_NOEXEC;
        }
        snprintf(sim, sizeof sim, "%s/kolo-sim", dir);
    }
    if (access(sim, X_OK)) {
        fprintf(stderr, "kolo-run: %s not found or not executable (make sim)\n", sim);
        return KOLO_SIM_EXIT_NOEXEC;
    }
    snprintf(tbuf, sizeof tbuf, "%ux%ux%u", o.topo.size[0], o.topo.size[1], o.topo.size[2]);
    snprintf(nbuf, sizeof nbuf, "%u", o.npes);
    {
        /* kolo-sim -t T -n N <the options and program as given> */
        char **nargv = calloc((size_t)argc + 6, sizeof *nargv);
        int k = 0;
        if (!nargv) {
            fprintf(stderr, "kolo-run: out of memory\n");
            return 1;
        }
        nargv[k++] = sim;
        nargv[k++] = "-t";
        nargv[k++] = tbuf;
        nargv[k++] = "-n";
        nargv[k++] = nbuf;
        for (int i = 1; i < argc; i++)
            nargv[k++] = argv[i];
        nargv[k] = NULL;
        fflush(NULL);
        execv(sim, nargv);
        fprintf(stderr, "kolo-run: exec %s: %s\n", sim, strerror(errno));
        free(nargv);
        return KOLO_SIM_EXIT_NOEXEC;
    }
}
