/* t_errors.c - misuse ends the run with one line naming the routine and the
 * argument, never a wrong write or a hang. argv[1] picks the case; run.sh
 * has each case's expected message. PE 0 commits the misuse while the
 * others wait in a barrier (collective cases: every PE calls). Cases:
 * nonsym noinit badpe toolong align exit17 badfree nullsrc cmp sigop
 * sigalign stride teaminv teamdead root aset nreduce ctxinv ctxdead ctxpe
 * ctxdefault teamworld init2 thread alignment lockheld locknotheld nullfetch
 * vecnull fcolldest nelems final, stuck (a wait that never ends), and nosim (shmem_init outside any
 * launcher). */
#include "shmem_test.h"

static long target[4], lock_word, psync[SHMEM_REDUCE_SYNC_SIZE], pwrk[8];
static uint64_t sigv;

static int is(const char *a, const char *b) { return !strcmp(a, b); }

int main(int argc, char **argv) {
    const char *c = argc > 1 ? argv[1] : "";
    long local[4] = {0}, v = 5, src[4] = {1, 2, 3, 4};
    int me, n, prov;
    if (is(c, "noinit")) {
        shmem_long_p(target, 1, 0);
        return 0;
    }
    if (is(c, "thread")) {
        shmem_init_thread(7, &prov);
        return 0;
    }
    shmem_init();
    me = shmem_my_pe();
    n = shmem_n_pes();
    /* collective misuse: every PE calls */
    if (is(c, "teaminv")) {
        shmem_long_sum_reduce(SHMEM_TEAM_INVALID, target, src, 1);
    } else if (is(c, "teamdead")) {
        shmem_team_t t;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &t);
        shmem_team_destroy(t);
        shmem_team_sync(t);
    } else if (is(c, "root")) {
        shmem_long_broadcast(SHMEM_TEAM_WORLD, target, src, 1, n + 7);
    } else if (is(c, "aset")) {
        shmem_barrier(0, 0, n + 7, psync);
    } else if (is(c, "nreduce")) {
        shmem_long_sum_to_all(target, src, -1, 0, 0, n, pwrk, psync);
    } else if (is(c, "teamworld")) {
        shmem_team_destroy(SHMEM_TEAM_WORLD);
    } else if (is(c, "init2")) {
        shmem_init();
    } else if (is(c, "alignment")) {
        shmem_align(3, 8);
    } else if (is(c, "fcolldest")) {
        shmem_long_fcollect(SHMEM_TEAM_WORLD, local, src, 1);
    } else if (is(c, "badfree")) {
        shmem_free(target);
    } else if (is(c, "ctxdefault")) {
        shmem_ctx_destroy(SHMEM_CTX_DEFAULT);
    }
    /* one PE's misuse */
    if (me == 0) {
        if (is(c, "nonsym")) {
            shmem_long_put(local, &v, 1, 1 % n);
        } else if (is(c, "badpe")) {
            shmem_long_p(target, 1, n + 3);
        } else if (is(c, "toolong")) {
            /* starts in the symmetric data, runs far past its end: the target NI
             * would refuse it, the library refuses it first */
            static char big[1 << 20];
            shmem_getmem(big, target, sizeof big * 64, 1 % n);
        } else if (is(c, "align")) {
            shmem_long_atomic_add((long *)((char *)target + 4), 1, 1 % n);
        } else if (is(c, "exit17")) {
            shmem_global_exit(17);
        } else if (is(c, "nullsrc")) {
            shmem_long_put(target, NULL, 1, 1 % n);
        } else if (is(c, "cmp")) {
            shmem_long_wait_until(&target[0], 99, 0);
        } else if (is(c, "sigop")) {
            shmem_putmem_signal(target, &v, 8, &sigv, 1, 7, 1 % n);
        } else if (is(c, "sigalign")) {
            shmem_putmem_signal(target, &v, 8, (uint64_t *)((char *)&sigv + 4), 1,
                                SHMEM_SIGNAL_SET, 1 % n);
        } else if (is(c, "stride")) {
            shmem_long_iput(target, src, 0, 1, 2, 1 % n);
        } else if (is(c, "ctxinv")) {
            shmem_ctx_long_p(SHMEM_CTX_INVALID, target, 1, 0);
        } else if (is(c, "ctxdead")) {
            shmem_ctx_t x;
            shmem_ctx_create(0, &x);
            shmem_ctx_destroy(x);
            shmem_ctx_long_p(x, target, 1, 0);
        } else if (is(c, "ctxpe")) {
            shmem_ctx_t x;
            shmem_team_create_ctx(SHMEM_TEAM_SHARED, 0, &x);
            shmem_ctx_long_p(x, target, 1, 3);
        } else if (is(c, "lockheld")) {
            shmem_set_lock(&lock_word);
            shmem_set_lock(&lock_word);
        } else if (is(c, "locknotheld")) {
            shmem_clear_lock(&lock_word);
        } else if (is(c, "nullfetch")) {
            shmem_long_atomic_fetch_nbi(NULL, &target[0], 1 % n);
        } else if (is(c, "vecnull")) {
            shmem_long_wait_until_all_vector(target, 2, NULL, SHMEM_CMP_EQ, NULL);
        } else if (is(c, "nelems")) {
            shmem_long_put(target, src, SIZE_MAX / 4, 1 % n);
        } else if (is(c, "stuck")) {
            /* not a misuse kolo can name: a wait nothing will ever satisfy (under
             * kolo-sim --det the simulator sees that every PE waits with nothing
             * in flight, and ends the run) */
            shmem_long_wait_until(&target[3], SHMEM_CMP_EQ, 99);
        }
    }
    shmem_barrier_all();
    shmem_barrier_all();
    if (is(c, "final")) {
        shmem_finalize();
        shmem_long_p(target, 1, 0);
    }
    shmem_finalize();
    return 0;
}
