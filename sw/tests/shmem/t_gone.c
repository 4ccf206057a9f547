/* t_gone.c - a PE whose card stops answering (kolo-sim --fail-card; run.sh
 * group gone): the PE must end with one kolo-shmem line that names the call
 * and KOLO_E_GONE (libkolo error -31), never hang and never report success.
 *   t_gone wait   PE 1 waits for a flag that nobody sets (shmem_long_wait_until)
 *   t_gone quiet  PE 1 puts 4 KiB to PE 0 and calls shmem_quiet, ROUNDS times
 *   t_gone calls  PE 1 calls shmem_long_p to PE 0 ROUNDS times, no wait between
 * wait is run only with the fault (without it, it waits for ever: the control
 * runs of run.sh use quiet and calls, which end with PASS without the fault).
 * The other PEs wait in shmem_barrier_all at the end; kolo-sim ends them once
 * PE 1 has failed. */
#include "shmem_test.h"

#define ROUNDS 400
#define CHUNK 4096

static long flag;
static char buf[CHUNK];

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "";
    static char src[CHUNK];
    int me, i;
    shmem_init();
    t_name = "t_gone";
    me = shmem_my_pe();
    if (shmem_n_pes() < 2) {
        fprintf(stderr, "t_gone: needs 2 PEs\n");
        return 2;
    }
    shmem_barrier_all();
    if (me == 1) {
        memset(src, 0x5a, sizeof src);
        if (!strcmp(mode, "wait")) {
            shmem_long_wait_until(&flag, SHMEM_CMP_NE, 0);
            CHECK(0, "the flag was set: nobody sets it");
        } else if (!strcmp(mode, "quiet")) {
            for (i = 0; i < ROUNDS; i++) {
                shmem_putmem(buf, src, sizeof src, 0);
                shmem_quiet();
            }
        } else if (!strcmp(mode, "calls")) {
            for (i = 0; i < ROUNDS * 8; i++)
                shmem_long_p(&flag, i + 1, 0);
        } else {
            fprintf(stderr, "t_gone: mode wait, quiet or calls\n");
            return 2;
        }
    }
    shmem_barrier_all();
    if (me == 0 && strcmp(mode, "wait"))
        CHECK(buf[0] == 0x5a || !strcmp(mode, "calls"), "PE 1's puts arrived");
    T_FINISH();
}
