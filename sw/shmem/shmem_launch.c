/* shmem_launch.c - libkolo_shmem: who started this PE. The launchers people
 * use say the rank and the size in the environment:
 *   kolo-run (kolo-sim)   KOLO_PE, KOLO_NPES
 *   Open MPI mpirun       OMPI_COMM_WORLD_RANK/_SIZE/_LOCAL_RANK/_LOCAL_SIZE
 *   MPICH/Hydra mpiexec   PMI_RANK, PMI_SIZE, MPI_LOCALRANKID, MPI_LOCALNRANKS
 *   Slurm srun            SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID, SLURM_NODEID,
 *                         SLURM_NNODES (SLURM_TASKS_PER_NODE not needed)
 *   none                  a single PE (rank 0 of 1)
 * An MPI launcher run inside a Slurm allocation sets both: the MPI variables
 * describe this program's job and win. */
#define _GNU_SOURCE
#include "shmem_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* the integer in variable name: 1 (and *v), 0 if unset, fatal if malformed */
static int env_int(const char *name, int *v) {
    const char *s = getenv(name);
    char *end;
    long x;
    if (!s || !*s)
        return 0;
    errno = 0;
    x = strtol(s, &end, 10);
    if (errno || *end || x < 0 || x > 1000000)
        kshmem_fatal("shmem_init: the launcher's %s=\"%s\" is not a number", name, s);
    *v = (int)x;
    return 1;
}

typedef struct {
    const char *name, *rank, *size, *local_rank, *local_size;
} launcher_vars;

static const launcher_vars launchers[] = {
    {"kolo-run", "KOLO_PE", "KOLO_NPES", NULL, NULL},
    {"Open MPI", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
     "OMPI_COMM_WORLD_LOCAL_SIZE"},
    {"MPICH (Hydra)", "PMI_RANK", "PMI_SIZE", "MPI_LOCALRANKID", "MPI_LOCALNRANKS"},
    {"Slurm", "SLURM_PROCID", "SLURM_NTASKS", "SLURM_LOCALID", NULL},
};

void kshmem_launch_detect(kshmem_launch *l) {
    unsigned i;
    memset(l, 0, sizeof *l);
    l->local_rank = -1;
    l->local_size = -1;
    l->host_id = -1;
    l->nhosts = -1;
    gethostname(l->host, sizeof l->host - 1);
    for (i = 0; i < sizeof launchers / sizeof launchers[0]; i++) {
        const launcher_vars *v = &launchers[i];
        int have_rank = env_int(v->rank, &l->rank), have_size = env_int(v->size, &l->size);
        if (!have_rank && !have_size)
            continue;
        if (!have_rank || !have_size)
            kshmem_fatal("shmem_init: %s's %s is set but %s is not", v->name,
                         have_rank ? v->rank : v->size, have_rank ? v->size : v->rank);
        if (l->size < 1 || l->rank >= l->size)
            kshmem_fatal("shmem_init: %s says rank %d of %d PEs (%s, %s)", v->name, l->rank,
                         l->size, v->rank, v->size);
        l->name = v->name;
        if (v->local_rank)
            env_int(v->local_rank, &l->local_rank);
        if (v->local_size)
            env_int(v->local_size, &l->local_size);
        if (!strcmp(v->name, "Slurm")) {
            env_int("SLURM_NODEID", &l->host_id);
            env_int("SLURM_NNODES", &l->nhosts);
        }
        snprintf(l->vars, sizeof l->vars, "%s=%d %s=%d", v->rank, l->rank, v->size, l->size);
        return;
    }
    l->name = "none (a single PE)";
    l->rank = 0;
    l->size = 1;
    snprintf(l->vars, sizeof l->vars, "no launcher variables");
}

/* SHMEM_DEBUG=1: one line per PE, what it was started with and where it runs */
void kshmem_launch_debug(const kshmem_launch *l, const char *device, const char *exchange) {
    const char *d = getenv("SHMEM_DEBUG");
    uint8_t dims[3];
    char local[64] = "", host[96] = "";
    if (!d || !*d || !strcmp(d, "0"))
        return;
    kolo_dev_torus(kshmem.dev, dims);
    if (l->local_rank >= 0 && l->local_size >= 0)
        snprintf(local, sizeof local, ", local %d of %d", l->local_rank, l->local_size);
    else if (l->local_rank >= 0)
        snprintf(local, sizeof local, ", local rank %d", l->local_rank);
    if (l->host_id >= 0)
        snprintf(host, sizeof host, ", Slurm node %d of %d", l->host_id, l->nhosts);
    fprintf(stderr,
            "kolo-shmem: PE %d of %d: launcher %s (%s%s%s), host %s; device %s, node (%u,%u,%u) "
            "of a %ux%ux%u torus, NI context %u; exchange %s\n",
            kshmem.me, kshmem.npes, l->name, l->vars, local, host, l->host, device,
            kshmem.my_node & 15u, (kshmem.my_node >> 4) & 15u, (kshmem.my_node >> 8) & 15u,
            dims[0], dims[1], dims[2], kolo_ctx_index(kshmem.ctx), exchange);
    fflush(stderr);
}
