/* t_sync.c - ordering and synchronisation: barrier_all (a round counter that
 * every PE checks on every other), sync_all, active-set barrier/sync with
 * strides, team_sync, fence (data then flag, the flag's reader sees the
 * data), quiet, wait_until/test for every point-to-point type and every
 * comparison, wait_until_all/any/some, test_all/any/some and their vector
 * forms, the deprecated wait forms, locks (a critical section that counts). */
#include "shmem_test.h"

static int me, npes;
static long round_no;
static long data[256];
static long flag;
static long pSync[SHMEM_BARRIER_SYNC_SIZE];
static long lock;
static long shared_count;

#define DECL(T, NM) static T w_##NM[8];
KSHMEM_P2P_TYPES(DECL)

/* PE `me` sets the neighbour's ivars; the neighbour waits with each op */
#define TEST_P2P(T, NM)                                                                            \
    static void test_##NM(void) {                                                                  \
        int to = (me + 1) % npes;                                                                  \
        size_t idx[8], k;                                                                          \
        int st[8] = {0, 1, 0, 0, 0, 0, 0, 0};                                                      \
        T cmpv[8];                                                                                 \
        memset(w_##NM, 0, sizeof w_##NM);                                                          \
        shmem_barrier_all();                                                                       \
        CHECK(!shmem_##NM##_test(&w_##NM[0], SHMEM_CMP_NE, (T)0), #NM " test before");             \
        CHECK(shmem_##NM##_test(&w_##NM[0], SHMEM_CMP_EQ, (T)0), #NM " test eq");                  \
        shmem_barrier_all();                                                                       \
        shmem_##NM##_p(&w_##NM[0], (T)5, to);                                                      \
        shmem_##NM##_wait_until(&w_##NM[0], SHMEM_CMP_EQ, (T)5);                                   \
        shmem_##NM##_wait_until(&w_##NM[0], SHMEM_CMP_NE, (T)4);                                   \
        shmem_##NM##_wait_until(&w_##NM[0], SHMEM_CMP_GT, (T)4);                                   \
        shmem_##NM##_wait_until(&w_##NM[0], SHMEM_CMP_GE, (T)5);                                   \
        shmem_##NM##_wait_until(&w_##NM[0], SHMEM_CMP_LT, (T)6);                                   \
        shmem_##NM##_wait_until(&w_##NM[0], SHMEM_CMP_LE, (T)5);                                   \
        CHECK(shmem_##NM##_test(&w_##NM[0], SHMEM_CMP_GE, (T)5), #NM " test after");               \
        shmem_barrier_all();                                                                       \
        /* ivars 2 and 5 set: any/some/all */                                                      \
        shmem_##NM##_p(&w_##NM[5], (T)1, to);                                                      \
        k = shmem_##NM##_wait_until_any(w_##NM + 2, 6, NULL, SHMEM_CMP_EQ, (T)1);                  \
        CHECK((k == 3 || k == 0) && w_##NM[2 + k] == (T)1, #NM " wait_until_any -> %zu", k);      \
        shmem_##NM##_p(&w_##NM[2], (T)1, to);                                                      \
        shmem_##NM##_wait_until(&w_##NM[2], SHMEM_CMP_EQ, (T)1);                                   \
        k = shmem_##NM##_wait_until_some(w_##NM, 8, idx, NULL, SHMEM_CMP_EQ, (T)1);                \
        CHECK(k == 2 && idx[0] == 2 && idx[1] == 5, #NM " wait_until_some -> %zu", k);             \
        CHECK(shmem_##NM##_test_some(w_##NM, 8, idx, st, SHMEM_CMP_EQ, (T)1) == 2, #NM " test_some"); \
        CHECK(shmem_##NM##_test_any(w_##NM, 2, NULL, SHMEM_CMP_EQ, (T)1) == SIZE_MAX,              \
              #NM " test_any none");                                                               \
        k = shmem_##NM##_test_any(w_##NM, 8, NULL, SHMEM_CMP_EQ, (T)1);                            \
        CHECK(k == 2 || k == 5, #NM " test_any -> %zu", k);                                        \
        CHECK(!shmem_##NM##_test_all(w_##NM, 8, NULL, SHMEM_CMP_EQ, (T)1), #NM " test_all no");    \
        {                                                                                          \
            int only[8] = {1, 1, 0, 1, 1, 0, 1, 1}; /* 1 = ignore */                               \
            CHECK(shmem_##NM##_test_all(w_##NM, 8, only, SHMEM_CMP_EQ, (T)1), #NM " test_all mask"); \
            shmem_##NM##_wait_until_all(w_##NM, 8, only, SHMEM_CMP_EQ, (T)1);                      \
            for (k = 0; k < 8; k++)                                                                \
                cmpv[k] = (T)(k == 0 ? 5 : (k == 2 || k == 5));                                    \
            shmem_##NM##_wait_until_all_vector(w_##NM, 8, NULL, SHMEM_CMP_EQ, cmpv);               \
            CHECK(shmem_##NM##_test_all_vector(w_##NM, 8, NULL, SHMEM_CMP_EQ, cmpv), #NM " vec all"); \
            CHECK(shmem_##NM##_wait_until_any_vector(w_##NM, 8, NULL, SHMEM_CMP_EQ, cmpv) < 8,     \
                  #NM " vec any");                                                                 \
            /* every element satisfied: 8 calls in a row return each index once (a   \
             * program polling test_any to handle each of them sees them all; always \
             * the first one starved the others: the Sandia spec example looped) */  \
            {                                                                                      \
                int seen[8] = {0};                                                                 \
                size_t x, j;                                                                       \
                for (j = 0; j < 8; j++) {                                                          \
                    x = j & 1 ? shmem_##NM##_test_any_vector(w_##NM, 8, NULL, SHMEM_CMP_EQ, cmpv)  \
                              : shmem_##NM##_wait_until_any_vector(w_##NM, 8, NULL, SHMEM_CMP_EQ,  \
                                                                   cmpv);                          \
                    if (x < 8)                                                                     \
                        seen[x]++;                                                                 \
                }                                                                                  \
                for (j = 0; j < 8; j++)                                                            \
                    CHECK(seen[j] == 1, #NM " any in turn: index %zu %d times", j, seen[j]);       \
            }                                                                                      \
            CHECK(shmem_##NM##_test_any_vector(w_##NM, 8, NULL, SHMEM_CMP_GT, cmpv) == SIZE_MAX,   \
                  #NM " vec any none");                                                            \
            CHECK(shmem_##NM##_wait_until_some_vector(w_##NM, 8, idx, NULL, SHMEM_CMP_GE, cmpv) == 8, \
                  #NM " vec some");                                                                \
            CHECK(shmem_##NM##_test_some_vector(w_##NM, 8, idx, only, SHMEM_CMP_EQ, cmpv) == 2,    \
                  #NM " vec test_some");                                                           \
            CHECK(shmem_##NM##_wait_until_some(w_##NM, 8, idx, (int[8]){1, 1, 1, 1, 1, 1, 1, 1},   \
                                               SHMEM_CMP_EQ, (T)1) == 0,                           \
                  #NM " all excluded");                                                            \
        }                                                                                          \
        shmem_barrier_all();                                                                       \
    }

KSHMEM_P2P_TYPES(TEST_P2P)

int main(void) {
    int i, r;
    t_name = "t_sync";
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        pSync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();

    /* barrier_all: nobody gets ahead */
    for (r = 1; r <= 30; r++) {
        round_no = r;
        shmem_barrier_all();
        for (i = 0; i < npes; i += (npes > 4 ? 3 : 1))
            CHECK(shmem_long_g(&round_no, i) == r, "round %d: PE %d at %ld", r, i,
                  shmem_long_g(&round_no, i));
        shmem_barrier_all();
    }
    /* barrier completes puts (quiet), sync_all orders after an explicit quiet */
    for (r = 0; r < 10; r++) {
        shmem_long_put(data, data + 128, 64, (me + 1) % npes);
        data[128 + r] = r + 100 * me;
        shmem_long_p(&data[r], r + 100 * me, (me + 1) % npes);
        shmem_quiet();
        shmem_sync_all();
        CHECK(data[r] == r + 100 * ((me + npes - 1) % npes), "put then quiet+sync_all, %d", r);
        shmem_sync_all();
    }
    /* active sets: even PEs with stride 2, then the odd ones */
    for (r = 0; r < 5; r++) {
        int start = r & 1, size = (npes - start + 1) / 2;
        if (size > 0 && me % 2 == start) {
            round_no = 1000 + r;
            shmem_barrier(start, 1, size, pSync);
            for (i = start; i < npes; i += 2)
                CHECK(shmem_long_g(&round_no, i) == 1000 + r, "active set %d/%d", start, r);
            shmem_sync(start, 1, size, pSync);
        }
        shmem_sync_all();
    }
    CHECK(pSync[0] == SHMEM_SYNC_VALUE, "pSync left as it was");
    CHECK(shmem_team_sync(SHMEM_TEAM_WORLD) == 0, "team sync");

    /* fence: data, fence, flag; the reader waits for the flag */
    for (r = 1; r <= 20; r++) {
        int to = (me + 1) % npes;
        long buf[64];
        for (i = 0; i < 64; i++)
            buf[i] = r * 1000 + i;
        shmem_long_put(data, buf, 64, to);
        shmem_fence();
        shmem_long_p(&flag, r, to);
        shmem_long_wait_until(&flag, SHMEM_CMP_EQ, r);
        for (i = 0; i < 64; i++)
            if (data[i] != r * 1000 + i)
                break;
        CHECK(i == 64, "fence round %d: data[%d] = %ld", r, i, data[i < 64 ? i : 0]);
        shmem_barrier_all();
    }
    /* deprecated waits */
    {
        static long dw;
        static int di;
        dw = 0;
        di = 0;
        shmem_barrier_all();
        shmem_long_p(&dw, 3, (me + 1) % npes);
        shmem_int_p(&di, 4, (me + 1) % npes);
        shmem_wait(&dw, 0);
        shmem_int_wait(&di, 0);
        CHECK(dw == 3 && di == 4, "shmem_wait");
        shmem_barrier_all();
    }
#define CALL_P2P(T, NM) test_##NM();
    KSHMEM_P2P_TYPES(CALL_P2P)

    /* locks */
    for (r = 0; r < 10; r++) {
        long v;
        shmem_set_lock(&lock);
        v = shmem_long_g(&shared_count, 0); /* read-modify-write under the lock */
        shmem_long_p(&shared_count, v + 1, 0);
        shmem_clear_lock(&lock);
    }
    shmem_barrier_all();
    if (me == 0)
        CHECK(shared_count == 10L * npes, "lock-protected count %ld", shared_count);
    shmem_barrier_all();
    /* PE 0 takes it with test_lock, the last PE finds it taken (a PE testing a
     * lock it holds is an error: t_errors lockheld) */
    if (me == 0)
        CHECK(shmem_test_lock(&lock) == 0, "test_lock takes a free lock");
    shmem_barrier_all();
    if (me == npes - 1 && npes > 1)
        CHECK(shmem_test_lock(&lock) == 1, "test_lock finds it taken");
    shmem_barrier_all();
    if (me == 0)
        shmem_clear_lock(&lock);
    shmem_barrier_all();
    T_FINISH();
}
