/* hello.c - every PE says hello; PE 0 checks that everybody is there.
 * Build: sw/shmem/oshcc hello.c -o hello; run: build/sim/kolo-run -n 8 ./hello */
#include <shmem.h>
#include <stdio.h>

int main(void) {
    static int present; /* symmetric: global data */
    int me, npes, total;
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    printf("hello from PE %d of %d\n", me, npes);
    fflush(stdout);
    shmem_int_atomic_inc(&present, 0); /* count ourselves at PE 0 */
    shmem_barrier_all();
    total = shmem_int_atomic_fetch(&present, 0);
    if (me == 0)
        printf("PE 0: %d of %d PEs checked in\n", total, npes);
    shmem_finalize();
    return total == npes ? 0 : 1;
}
