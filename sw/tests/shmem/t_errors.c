/* t_errors.c - misuse ends the run with a clear message, never a wrong
 * write or a hang. argv[1] picks the case (see run.sh): nonsym (put to a
 * stack address), badpe (PE out of range), noinit (a call before
 * shmem_init), toolong (a get that runs past the end of the symmetric data: the target
 * NI would refuse it, the library refuses it first), align (unaligned atomic), exit17 (shmem_global_exit(17)
 * from one PE while the others wait in a barrier), badfree (free of a
 * non-heap pointer), nosim (shmem_init outside kolo-run). */
#include "shmem_test.h"

static long target[4];

int main(int argc, char **argv) {
    const char *c = argc > 1 ? argv[1] : "";
    long local[4] = {0}, v = 5;
    if (!strcmp(c, "noinit")) {
        shmem_long_p(target, 1, 0);
        return 0;
    }
    shmem_init();
    if (!strcmp(c, "nonsym")) {
        shmem_long_put(local, &v, 1, (shmem_my_pe() + 1) % shmem_n_pes());
    } else if (!strcmp(c, "badpe")) {
        shmem_long_p(target, 1, 5);
    } else if (!strcmp(c, "toolong")) {
        /* starts in the symmetric data, runs far past its end */
        static char big[1 << 20];
        shmem_getmem(big, target, sizeof big * 64, 0);
    } else if (!strcmp(c, "align")) {
        shmem_long_atomic_add((long *)((char *)target + 4), 1, 0);
    } else if (!strcmp(c, "exit17")) {
        if (shmem_my_pe() == 1)
            shmem_global_exit(17);
        shmem_barrier_all();
        shmem_barrier_all();
    } else if (!strcmp(c, "badfree")) {
        shmem_free(target);
    }
    shmem_finalize();
    return 0;
}
