/* atomic_counter.c - every PE takes tickets from a shared counter on PE 0
 * with fetch-and-add, adds to a per-PE tally with atomic add, and PE 0 checks
 * that the counter saw every increment and that the tickets were all
 * different (their sum is known). Standard OpenSHMEM C.
 * Run: kolo-run -n 8 ./atomic_counter */
#include <shmem.h>
#include <stdio.h>

#define TICKETS 50

static long counter;      /* on PE 0 */
static long ticket_sum;   /* on PE 0 */
static int tally[1024];   /* tally[pe] on PE 0 */

int main(void) {
    int me, npes, i, ok = 1;
    long total;
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (i = 0; i < TICKETS; i++) {
        long t = shmem_long_atomic_fetch_inc(&counter, 0);
        shmem_long_atomic_add(&ticket_sum, t, 0);
        shmem_int_atomic_inc(&tally[me % 1024], 0);
    }
    shmem_barrier_all();
    if (me == 0) {
        long n = (long)TICKETS * npes;
        total = 0;
        for (i = 0; i < npes && i < 1024; i++) {
            total += tally[i];
            if (tally[i] != TICKETS)
                ok = 0;
        }
        if (counter != n || ticket_sum != n * (n - 1) / 2 || total != n)
            ok = 0;
        printf("atomic_counter: %d PEs x %d tickets: counter %ld, ticket sum %ld (want %ld): %s\n",
               npes, TICKETS, counter, ticket_sum, n * (n - 1) / 2, ok ? "ok" : "WRONG");
    }
    shmem_finalize();
    return ok ? 0 : 1;
}
