/* ring_put.c - a token goes around the ring of PEs several times: each PE
 * puts the token (an array) into its right neighbour's buffer and raises
 * the neighbour's flag; the neighbour waits for the flag, adds its number
 * and passes it on. Standard OpenSHMEM C.
 * Build: sw/shmem/oshcc ring_put.c -o ring_put; run: kolo-run -n 8 ./ring_put */
#include <shmem.h>
#include <stdio.h>

#define LEN 64
#define LAPS 4

static long token[LEN];
static long flag; /* lap number of the token that arrived */

int main(void) {
    int me, npes, lap, i, ok = 1;
    long buf[LEN];
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (lap = 1; lap <= LAPS; lap++) {
        if (me == 0 && lap == 1) {
            for (i = 0; i < LEN; i++)
                buf[i] = i;
        } else {
            shmem_long_wait_until(&flag, SHMEM_CMP_GE, me == 0 ? lap - 1 : lap);
            for (i = 0; i < LEN; i++)
                buf[i] = token[i] + me;
        }
        shmem_long_put(token, buf, LEN, (me + 1) % npes);
        shmem_fence(); /* the token before the flag */
        shmem_long_p(&flag, lap, (me + 1) % npes);
    }
    shmem_long_wait_until(&flag, SHMEM_CMP_GE, me == 0 ? LAPS : LAPS);
    shmem_barrier_all();
    if (me == 0) {
        /* every lap each PE added its number (PE 0 from the second lap on) */
        long add = (long)LAPS * npes * (npes - 1) / 2;
        for (i = 0; i < LEN; i++)
            if (token[i] != i + add)
                ok = 0;
        printf("ring_put: %d PEs, %d laps, token[1] = %ld (want %ld): %s\n", npes, LAPS, token[1],
               1 + add, ok ? "ok" : "WRONG");
    }
    shmem_finalize();
    return ok ? 0 : 1;
}
