/* t_race.c - programs that retry until a race between PEs goes their way (the
 * pattern of the SOS suite's atomic_nbi). Round after round every PE swaps its
 * number into a word on every PE (shmem_long_atomic_swap_nbi, then quiet) and
 * counts the old values that were its own; it stops once it has seen its own
 * value npes times. Then a compare-and-swap chain: PE p moves each PE's word
 * from p-1 to p, retrying until it has done so everywhere. Both loops end only
 * if the order in which the PEs' operations reach a word changes from round to
 * round: under kolo-sim --fast with no timing noise the PEs run in lock step
 * and the same PE won every race for ever (run.sh: a cycle limit makes that a
 * failure, never a hang; --jitter=0 shows it). Prints the rounds taken. */
#include "shmem_test.h"

static long target;
static long rounds_max[2];

int main(void) {
    int me, npes, i;
    long *result, seen = 0, rounds = 0, crounds = 0;
    t_name = "t_race";
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    result = malloc(sizeof(long) * (size_t)npes);
    CHECK(result != NULL, "malloc");
    if (!result)
        shmem_global_exit(1);

    /* 1: swaps until each PE has seen its own value npes times */
    target = me;
    for (i = 0; i < npes; i++)
        result[i] = -1;
    shmem_barrier_all();
    while (seen < npes) {
        for (i = 0; i < npes; i++)
            shmem_long_atomic_swap_nbi(&result[i], &target, me, i);
        shmem_quiet();
        for (i = 0; i < npes; i++)
            if (result[i] == me)
                seen++;
        rounds++;
    }
    shmem_barrier_all();
    CHECK(target >= 0 && target < npes, "target %ld after the swaps", target);
    for (i = 0; i < npes; i++)
        CHECK(result[i] >= 0 && result[i] < npes, "swap result[%d] = %ld", i, result[i]);

    /* 2: every PE's word counts -1, 0, .., npes-1: PE p may move it only from p-1 */
    target = -1;
    for (i = 0; i < npes; i++)
        result[i] = npes;
    shmem_barrier_all();
    for (;;) {
        int done = 0;
        for (i = 0; i < npes; i++)
            if (result[i] != me - 1)
                shmem_long_atomic_compare_swap_nbi(&result[i], &target, me - 1, me, i);
        shmem_quiet();
        for (i = 0; i < npes; i++)
            if (result[i] == me - 1)
                done++;
        crounds++;
        if (done == npes)
            break;
    }
    shmem_barrier_all();
    CHECK(target == npes - 1, "target %ld after the compare-and-swaps, want %d", target, npes - 1);

    /* the most rounds any PE took (on PE 0, raised with compare-and-swap) */
    for (;;) {
        long cur = shmem_long_atomic_fetch(&rounds_max[0], 0);
        if (cur >= rounds || shmem_long_atomic_compare_swap(&rounds_max[0], cur, rounds, 0) == cur)
            break;
    }
    for (;;) {
        long cur = shmem_long_atomic_fetch(&rounds_max[1], 0);
        if (cur >= crounds ||
            shmem_long_atomic_compare_swap(&rounds_max[1], cur, crounds, 0) == cur)
            break;
    }
    shmem_barrier_all();
    if (me == 0) {
        printf("t_race: %d PEs, swap rounds (most of any PE) %ld, compare-and-swap rounds %ld\n",
               npes, rounds_max[0], rounds_max[1]);
        fflush(stdout);
    }
    free(result);
    T_FINISH();
}
