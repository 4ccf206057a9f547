/* t_det.c - a program whose pace in wall time varies while its simulated
 * time must not: the check of deterministic co-simulation (kolo-sim --det,
 * tb_board_sim_kc705 --serve --det; make test-board-sim-kc705-shmem runs it
 * as "t_det 0" and "t_det 40" on the same boot and compares the simulated
 * time of the two jobs, which must be equal to the picosecond).
 *
 *   t_det [SLEEP_MS]   (default 0)
 *
 * ROUNDS rounds. In round r, PE p first sleeps SLEEP_MS x (1 + (p + r) % 3)
 * ms of wall time (to the simulator that is computing: it neither waits on
 * the simulator nor touches the NI), then puts round-tagged words to its
 * right neighbour (blocking and non-blocking puts), a fence, and a flag; it
 * then polls its own flag with shmem_long_test until the left neighbour's
 * round has arrived (polls: under --det each costs simulated cycles, not
 * wall time), checks the words, and ends the round with a barrier and a
 * fetch-add on PE 0's counter. Every value is checked (T_FINISH). */
#include "shmem_test.h"

#include <time.h>

#define ROUNDS 6
#define WORDS 8

static long data[WORDS];
static long flag;
static long counter;

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (ms > 0 && nanosleep(&ts, &ts) != 0) {
    }
}

int main(int argc, char **argv) {
    long sleep = argc > 1 ? strtol(argv[1], NULL, 0) : 0;
    int me, n, right, left, r, i;
    long src[WORDS];
    t_name = "t_det";
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    right = (me + 1) % n;
    left = (me + n - 1) % n;
    CHECK(sleep >= 0 && sleep <= 10000, "SLEEP_MS %ld out of 0..10000", sleep);
    if (sleep < 0 || sleep > 10000)
        sleep = 0;
    for (r = 1; r <= ROUNDS; r++) {
        long polls = 0, old;
        sleep_ms(sleep * (1 + (me + r) % 3));
        for (i = 0; i < WORDS; i++)
            src[i] = (long)r * 1000 + me * 100 + i;
        shmem_long_put(data, src, WORDS / 2, right);
        shmem_long_put_nbi(data + WORDS / 2, src + WORDS / 2, WORDS / 2, right);
        shmem_fence();
        shmem_long_p(&flag, r, right);
        while (!shmem_long_test(&flag, SHMEM_CMP_EQ, r))
            polls++;
        for (i = 0; i < WORDS; i++)
            CHECK(data[i] == (long)r * 1000 + left * 100 + i, "round %d word %d: %ld", r, i,
                  data[i]);
        old = shmem_long_atomic_fetch_add(&counter, 1, 0);
        CHECK(old >= (long)(r - 1) * n && old < (long)r * n, "round %d: counter %ld", r, old);
        shmem_barrier_all();
        (void)polls;
    }
    if (me == 0)
        CHECK(counter == (long)ROUNDS * n, "counter %ld, want %ld", counter, (long)ROUNDS * n);
    T_FINISH();
}
