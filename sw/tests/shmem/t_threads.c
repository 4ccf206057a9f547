/* t_threads.c - SHMEM_THREAD_MULTIPLE: T threads per PE (argv[1], default 4)
 * work at once, each on contexts of its own and on shared ones:
 *  - its own contexts (SHMEM_CTX_PRIVATE, CTX_PER_THREAD of them: with 4+
 *    threads there are more contexts than the NI's 16, so some share an NI
 *    context) carry puts to the right neighbour, each followed by a quiet
 *    on that context;
 *  - the default context and one context created by the main thread and
 *    shared by all take fetch_add / add / compare_swap on counters of the
 *    right neighbour (shared between threads of this PE too);
 *  - thread t of PE p waits (shmem_wait_until, shmem_signal_wait_until) for
 *    thread t of PE p-1, which raises a flag or a signal every round: the
 *    threads of the PEs advance in lock step, each waiting while others post.
 * At the end every value is checked: the data each thread put, the counters
 * (every fetch_add ticket is unique and below the total), the flags. Built
 * with ASan+UBSan (t_threads) and with ThreadSanitizer (t_threads_tsan). */
#include <pthread.h>

#include "shmem_test.h"
#include "shmemx.h"

#define MAX_THREADS 16
#define ROUNDS 24
#define WORDS 8
#define CTX_PER_THREAD 4

static int me, npes, right, left, nthreads;
static shmem_ctx_t shared_ctx;
/* symmetric: data[t][round][w], flag[t], sig[t], counters */
static long data[MAX_THREADS][ROUNDS][WORDS];
static long flag[MAX_THREADS];
static uint64_t sig[MAX_THREADS];
static long counter_default, counter_shared, counter_mixed;
static long tickets[MAX_THREADS][2 * ROUNDS];
static int errors[MAX_THREADS];
static int nic_used[MAX_THREADS][CTX_PER_THREAD]; /* NI context of each thread's contexts */

#define TCHECK(t, cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            if (++errors[t] <= 5) {                                                                \
                fprintf(stderr, "PE %d thread %d: FAIL %s: ", me, t, #cond);                       \
                fprintf(stderr, __VA_ARGS__);                                                      \
                fprintf(stderr, "\n");                                                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)

static long val(int pe, int t, int r, int w) { return ((long)pe << 32) | (long)t << 24 | r << 8 | w; }

static void *worker(void *arg) {
    int t = (int)(intptr_t)arg, r, w, k;
    shmem_ctx_t mine[CTX_PER_THREAD];
    long src[WORDS];
    for (k = 0; k < CTX_PER_THREAD; k++) {
        TCHECK(t, shmem_ctx_create(SHMEM_CTX_PRIVATE, &mine[k]) == 0, "ctx_create %d", k);
        nic_used[t][k] = shmemx_ctx_nic(mine[k]);
    }
    for (r = 0; r < ROUNDS; r++) {
        shmem_ctx_t c = mine[r % CTX_PER_THREAD];
        for (w = 0; w < WORDS; w++)
            src[w] = val(me, t, r, w);
        /* RMA on an own context */
        shmem_put(c, data[t][r], src, WORDS, right);
        shmem_ctx_quiet(c);
        /* atomics on the shared contexts */
        tickets[t][2 * r] = shmem_atomic_fetch_add(&counter_default, 1L, right);
        tickets[t][2 * r + 1] = shmem_atomic_fetch_add(shared_ctx, &counter_shared, 1L, right);
        shmem_atomic_add(shared_ctx, &counter_mixed, 3L, right);
        shmem_atomic_add(&counter_mixed, 5L, right);
        shmem_ctx_quiet(shared_ctx);
        shmem_quiet();
        /* the flag and the signal of this round for thread t of the right neighbour */
        shmem_p(c, &flag[t], (long)(r + 1), right);
        shmem_ctx_quiet(c);
        shmem_put_signal(shared_ctx, &data[t][r][0], src, 1, &sig[t], 1, SHMEM_SIGNAL_ADD, right);
        /* wait for thread t of the left neighbour */
        shmem_wait_until(&flag[t], SHMEM_CMP_GE, (long)(r + 1));
        shmem_signal_wait_until(&sig[t], SHMEM_CMP_GE, (uint64_t)(r + 1));
        TCHECK(t, shmem_test(&flag[t], SHMEM_CMP_GE, (long)(r + 1)), "test round %d", r);
    }
    /* remote reads on an own context: what this thread put arrived */
    for (r = 0; r < ROUNDS; r++) {
        long got[WORDS];
        shmem_get(mine[r % CTX_PER_THREAD], got, data[t][r], WORDS, right);
        for (w = 0; w < WORDS; w++)
            TCHECK(t, got[w] == val(me, t, r, w), "get back round %d word %d: %lx", r, w, got[w]);
    }
    for (k = 0; k < CTX_PER_THREAD; k++)
        shmem_ctx_destroy(mine[k]);
    return NULL;
}

static int cmp_long(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    pthread_t th[MAX_THREADS];
    int prov = -1, t, r, w;
    static long all[MAX_THREADS * ROUNDS];
    t_name = "t_threads";
    nthreads = argc > 1 ? atoi(argv[1]) : 4;
    if (nthreads < 1 || nthreads > MAX_THREADS)
        nthreads = 4;
    CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &prov) == 0, "init_thread");
    CHECK(prov == SHMEM_THREAD_MULTIPLE, "provided %d", prov);
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    CHECK(shmem_ctx_create(0, &shared_ctx) == 0, "shared ctx");
    shmem_barrier_all();
    for (t = 0; t < nthreads; t++)
        pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t);
    for (t = 0; t < nthreads; t++)
        pthread_join(th[t], NULL);
    shmem_ctx_quiet(shared_ctx);
    shmem_barrier_all();
    for (t = 0; t < nthreads; t++) {
        t_failures += errors[t];
        t_checks += ROUNDS * (WORDS + 1);
        for (r = 0; r < ROUNDS; r++)
            for (w = 0; w < WORDS; w++)
                CHECK(data[t][r][w] == val(left, t, r, w), "data t %d r %d w %d: %lx", t, r, w,
                      data[t][r][w]);
        CHECK(flag[t] == ROUNDS, "flag[%d] = %ld", t, flag[t]);
        CHECK(sig[t] == ROUNDS, "sig[%d] = %llu", t, (unsigned long long)sig[t]);
    }
    /* contexts on NI contexts of their own while there were free ones (16 per
     * NI: the default and the shared context take two), then shared */
    {
        int seen[16] = {0}, distinct = 0, total = nthreads * CTX_PER_THREAD, want;
        int dflt = shmemx_ctx_nic(SHMEM_CTX_DEFAULT), sh = shmemx_ctx_nic(shared_ctx);
        CHECK(dflt >= 0 && sh >= 0 && sh != dflt, "shared ctx on NI ctx %d, default %d", sh, dflt);
        seen[dflt] = seen[sh] = 1;
        for (t = 0; t < nthreads; t++)
            for (int k = 0; k < CTX_PER_THREAD; k++) {
                int x = nic_used[t][k];
                CHECK(x >= 0 && x < 16 && x != dflt, "thread %d ctx %d on NI ctx %d", t, k, x);
                if (x >= 0 && x < 16 && !seen[x]++)
                    distinct++;
            }
        want = total < 14 ? total : 14;
        CHECK(distinct == want, "%d private contexts on %d NI contexts of their own (want %d)",
              total, distinct, want);
    }
    CHECK(counter_default == (long)nthreads * ROUNDS, "counter_default %ld", counter_default);
    CHECK(counter_shared == (long)nthreads * ROUNDS, "counter_shared %ld", counter_shared);
    CHECK(counter_mixed == 8L * nthreads * ROUNDS, "counter_mixed %ld", counter_mixed);
    /* the tickets this PE's threads drew at the right neighbour: a permutation per counter */
    for (int which = 0; which < 2; which++) {
        int n = 0;
        for (t = 0; t < nthreads; t++)
            for (r = 0; r < ROUNDS; r++)
                all[n++] = tickets[t][2 * r + which];
        qsort(all, (size_t)n, sizeof all[0], cmp_long);
        for (int i = 0; i < n; i++)
            CHECK(all[i] == i, "counter %d: ticket %d is %ld (not a permutation)", which, i, all[i]);
    }
    shmem_ctx_destroy(shared_ctx);
    T_FINISH();
}
