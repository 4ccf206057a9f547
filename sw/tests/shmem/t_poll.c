/* t_poll.c - loops of tests (shmem_test, _test_all, _any, _some and their
 * vector forms) and of shmem_signal_fetch: each PE polls for what its
 * neighbour sends, and in a last round both poll and, after a number of
 * failed looks, send what the other polls for (so for a while nothing is in
 * flight and nobody waits in a blocking call). Under kolo-sim --det and
 * --fast each failed test costs simulated cycles (kolo_sim_poll_start; so
 * does a fetch that sees what the last fetch of that signal saw): run.sh
 * checks that no PE is let go by --det-stall and that two runs take the same
 * cycles. */
#include "shmem_test.h"

#define N 6
static long flag;
static int arr[N];
static int go;
static long data;
static uint64_t sig, sig2;

int main(void) {
    int me, npes, to, i, r;
    long tries = 0, work = 0, src;
    size_t idx[N], k;
    int vals[N];
    t_name = "t_poll";
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    to = (me + 1) % npes;
    shmem_barrier_all();

    /* 1: shmem_test until the neighbour's put shows */
    for (r = 1; r <= 3; r++) {
        shmem_long_p(&flag, r, to);
        while (!shmem_long_test(&flag, SHMEM_CMP_EQ, r))
            tries++;
        shmem_barrier_all();
    }
    /* 2: the vector forms; the neighbour sets the elements one by one (quiet between) */
    for (i = 0; i < N; i++) {
        shmem_int_p(&arr[i], i + 1, to);
        shmem_quiet();
    }
    while (shmem_int_test_any(arr, N, NULL, SHMEM_CMP_GT, 0) == SIZE_MAX)
        tries++;
    while (!shmem_int_test_some(arr, N, idx, NULL, SHMEM_CMP_NE, 0))
        tries++;
    while (!shmem_int_test_all(arr, N, NULL, SHMEM_CMP_GT, 0))
        tries++;
    for (i = 0; i < N; i++) {
        CHECK(arr[i] == i + 1, "arr[%d] = %d", i, arr[i]);
        vals[i] = i + 1;
    }
    CHECK(shmem_int_test_all_vector(arr, N, NULL, SHMEM_CMP_EQ, vals), "test_all_vector");
    k = shmem_int_test_some_vector(arr, N, idx, NULL, SHMEM_CMP_EQ, vals);
    CHECK(k == N, "test_some_vector: %zu", k);
    vals[2] = -1;
    CHECK(shmem_int_test_any_vector(arr, N, NULL, SHMEM_CMP_EQ, vals) != SIZE_MAX, "any_vector");
    /* (a test that must fail: returns, after its poll, with nothing) */
    CHECK(!shmem_int_test_all_vector(arr, N, NULL, SHMEM_CMP_EQ, vals), "all_vector fails");
    shmem_barrier_all();

    /* 3: everyone polls, and works between the tests: after 20 failed tests it sends
     * what its neighbour polls for. Until then nothing is in flight. */
    while (!shmem_int_test(&go, SHMEM_CMP_EQ, 1)) {
        if (++work == 20)
            shmem_int_atomic_set(&go, 1, to);
    }
    if (work < 20) /* (go came first: the neighbour must not wait for ever) */
        shmem_int_atomic_set(&go, 1, to);
    shmem_barrier_all();

    /* 4: loops of shmem_signal_fetch (each fetch that sees what the last one saw is a
     * poll: before, such a loop held time still). The neighbour's put with signal... */
    src = me;
    shmem_long_put_signal(&data, &src, 1, &sig, 1, SHMEM_SIGNAL_SET, to);
    while (shmem_signal_fetch(&sig) != 1)
        tries++;
    CHECK(data == (me + npes - 1) % npes, "data %ld with the signal", data);
    shmem_barrier_all();
    /* ... and everyone fetching with nothing in flight until its 20th fetch */
    work = 0;
    while (shmem_signal_fetch(&sig2) == 0) {
        if (++work == 20)
            shmem_putmem_signal(&data, &src, sizeof src, &sig2, 1, SHMEM_SIGNAL_ADD, to);
    }
    if (work < 20)
        shmem_putmem_signal(&data, &src, sizeof src, &sig2, 1, SHMEM_SIGNAL_ADD, to);
    shmem_barrier_all();
    (void)tries;
    T_FINISH();
}
