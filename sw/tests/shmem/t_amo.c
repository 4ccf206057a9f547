/* t_amo.c - atomics: fetch, set, swap, compare_swap, (fetch_)inc, (fetch_)add
 * for every standard AMO type; fetch/set/swap for float and double;
 * (fetch_)and/or/xor for the bitwise types; the _nbi fetching forms; ctx
 * forms; deprecated names; C11 generic forms. Races: every PE increments one
 * counter on PE 0 and the tickets it gets back must be a permutation;
 * compare_swap elects exactly one winner; all PEs hammer one word with
 * xor/and/or and the result is checked. */
#include "shmem_test.h"

static int me, npes;

#define DECL(T, NM) static T v_##NM[4];
KSHMEM_AMO_STD_TYPES(DECL)
KSHMEM_AMO_EXT_TYPES(DECL)

/* each PE works on its right neighbour's v[0]; everything is checked locally
 * after a barrier */
#define TEST_STD(T, NM)                                                                            \
    static void test_std_##NM(void) {                                                          \
        int to = (me + 1) % npes;                                                                  \
        T old, f = 0;                                                                              \
        v_##NM[0] = (T)10;                                                                         \
        v_##NM[1] = (T)0;                                                                          \
        shmem_barrier_all();                                                                       \
        CHECK(shmem_##NM##_atomic_fetch(&v_##NM[0], to) == (T)10, #NM " fetch");                   \
        shmem_##NM##_atomic_set(&v_##NM[0], (T)20, to);                                            \
        shmem_quiet();                                                                             \
        CHECK(shmem_##NM##_atomic_fetch(&v_##NM[0], to) == (T)20, #NM " set");                     \
        old = shmem_##NM##_atomic_swap(&v_##NM[0], (T)30, to);                                     \
        CHECK(old == (T)20, #NM " swap old");                                                      \
        old = shmem_##NM##_atomic_compare_swap(&v_##NM[0], (T)29, (T)40, to);                      \
        CHECK(old == (T)30, #NM " cswap (no match) old");                                          \
        old = shmem_##NM##_atomic_compare_swap(&v_##NM[0], (T)30, (T)40, to);                      \
        CHECK(old == (T)30, #NM " cswap (match) old");                                             \
        CHECK(shmem_##NM##_atomic_fetch_inc(&v_##NM[0], to) == (T)40, #NM " fetch_inc");           \
        shmem_##NM##_atomic_inc(&v_##NM[0], to);                                                   \
        CHECK(shmem_##NM##_atomic_fetch_add(&v_##NM[0], (T)5, to) == (T)42, #NM " fetch_add");     \
        shmem_##NM##_atomic_add(&v_##NM[0], (T)3, to);                                             \
        shmem_ctx_##NM##_atomic_add(SHMEM_CTX_DEFAULT, &v_##NM[0], (T)1, to);                      \
        shmem_quiet();                                                                             \
        CHECK(shmem_ctx_##NM##_atomic_fetch(SHMEM_CTX_DEFAULT, &v_##NM[0], to) == (T)51,           \
              #NM " add, ctx add");                                                                \
        /* nbi fetching forms */                                                                   \
        shmem_##NM##_atomic_fetch_nbi(&f, &v_##NM[0], to);                                         \
        shmem_quiet();                                                                             \
        CHECK(f == (T)51, #NM " fetch_nbi");                                                       \
        shmem_##NM##_atomic_fetch_add_nbi(&f, &v_##NM[0], (T)9, to);                               \
        shmem_quiet();                                                                             \
        CHECK(f == (T)51, #NM " fetch_add_nbi");                                                   \
        shmem_##NM##_atomic_fetch_inc_nbi(&f, &v_##NM[0], to);                                     \
        shmem_quiet();                                                                             \
        CHECK(f == (T)60, #NM " fetch_inc_nbi");                                                   \
        shmem_##NM##_atomic_swap_nbi(&f, &v_##NM[0], (T)70, to);                                   \
        shmem_quiet();                                                                             \
        CHECK(f == (T)61, #NM " swap_nbi");                                                        \
        shmem_##NM##_atomic_compare_swap_nbi(&f, &v_##NM[0], (T)70, (T)80, to);                    \
        shmem_quiet();                                                                             \
        CHECK(f == (T)70, #NM " compare_swap_nbi");                                                \
        /* deprecated names */                                                                     \
        CHECK(shmem_##NM##_fetch(&v_##NM[0], to) == (T)80, #NM " fetch (deprecated)");             \
        shmem_##NM##_set(&v_##NM[0], (T)1, to);                                                    \
        shmem_fence(); /* atomics to one word are ordered only by fence */                         \
        shmem_##NM##_inc(&v_##NM[0], to);                                                          \
        shmem_##NM##_add(&v_##NM[0], (T)2, to);                                                    \
        CHECK(shmem_##NM##_fadd(&v_##NM[0], (T)1, to) == (T)4, #NM " fadd (deprecated)");          \
        CHECK(shmem_##NM##_finc(&v_##NM[0], to) == (T)5, #NM " finc");                             \
        CHECK(shmem_##NM##_swap(&v_##NM[0], (T)7, to) == (T)6, #NM " swap (deprecated)");          \
        CHECK(shmem_##NM##_cswap(&v_##NM[0], (T)7, (T)8, to) == (T)7, #NM " cswap (deprecated)");  \
        /* negative values / wrap for signed types: -1 + 1 = 0 */                                  \
        shmem_##NM##_atomic_set(&v_##NM[1], (T)-1, to);                                            \
        shmem_fence();                                                                             \
        shmem_##NM##_atomic_add(&v_##NM[1], (T)1, to);                                             \
        shmem_quiet();                                                                             \
        CHECK(shmem_##NM##_atomic_fetch(&v_##NM[1], to) == (T)0, #NM " -1 + 1");                   \
        shmem_barrier_all();                                                                       \
        CHECK(v_##NM[0] == (T)8, #NM " final value here");                                         \
        shmem_barrier_all();                                                                       \
    }

#define TEST_EXT(T, NM)                                                                            \
    static void test_ext_##NM(void) {                                                          \
        int to = (me + 1) % npes;                                                                  \
        T f = 0;                                                                                   \
        v_##NM[2] = (T)1.25;                                                                       \
        shmem_barrier_all();                                                                       \
        CHECK(shmem_##NM##_atomic_fetch(&v_##NM[2], to) == (T)1.25, #NM " fetch");                 \
        shmem_##NM##_atomic_set(&v_##NM[2], (T)-2.5, to);                                          \
        shmem_quiet();                                                                             \
        CHECK(shmem_##NM##_atomic_swap(&v_##NM[2], (T)3.75, to) == (T)-2.5, #NM " swap");          \
        shmem_##NM##_atomic_fetch_nbi(&f, &v_##NM[2], to);                                         \
        shmem_quiet();                                                                             \
        CHECK(f == (T)3.75, #NM " fetch_nbi");                                                     \
        shmem_##NM##_atomic_swap_nbi(&f, &v_##NM[2], (T)0.5, to);                                  \
        shmem_quiet();                                                                             \
        CHECK(f == (T)3.75, #NM " swap_nbi");                                                      \
        shmem_barrier_all();                                                                       \
        CHECK(v_##NM[2] == (T)0.5, #NM " final");                                                  \
        shmem_barrier_all();                                                                       \
    }

#define DECLB(T, NM) static T b_##NM;
KSHMEM_AMO_BIT_TYPES(DECLB)
#define TEST_BIT(T, NM)                                                                            \
    static void test_bit_##NM(void) {                                                          \
        int to = (me + 1) % npes;                                                                  \
        T f = 0;                                                                                   \
        b_##NM = (T)0xF0F0F0F0u;                                                                   \
        shmem_barrier_all();                                                                       \
        CHECK(shmem_##NM##_atomic_fetch_and(&b_##NM, (T)0xFF00FF00u, to) == (T)0xF0F0F0F0u,        \
              #NM " fetch_and");                                                                   \
        shmem_##NM##_atomic_or(&b_##NM, (T)0x0000000Fu, to);                                       \
        shmem_quiet();                                                                             \
        CHECK(shmem_##NM##_atomic_fetch_or(&b_##NM, (T)0x00000100u, to) == (T)0xF000F00Fu,         \
              #NM " or, fetch_or");                                                                \
        shmem_##NM##_atomic_xor(&b_##NM, (T)0xFFFFFFFFu, to);                                      \
        shmem_quiet();                                                                             \
        CHECK(shmem_##NM##_atomic_fetch_xor(&b_##NM, (T)0x1u, to) == (T)0x0FFF0EF0u,               \
              #NM " xor, fetch_xor");                                                              \
        shmem_##NM##_atomic_and(&b_##NM, (T)0x0FF00FF0u, to);                                      \
        shmem_quiet();                                                                             \
        shmem_##NM##_atomic_fetch_and_nbi(&f, &b_##NM, (T)~(T)0, to);                              \
        shmem_quiet();                                                                             \
        CHECK(f == (T)0x0FF00EF0u, #NM " and, fetch_and_nbi: %#llx", (unsigned long long)f);       \
        shmem_##NM##_atomic_fetch_or_nbi(&f, &b_##NM, (T)0, to);                                   \
        shmem_##NM##_atomic_fetch_xor_nbi(&f, &b_##NM, (T)0, to);                                  \
        shmem_quiet();                                                                             \
        CHECK(f == (T)0x0FF00EF0u, #NM " fetch_or_nbi/fetch_xor_nbi");                             \
        shmem_ctx_##NM##_atomic_xor(SHMEM_CTX_DEFAULT, &b_##NM, (T)0x0FF00EF0u, to);               \
        shmem_barrier_all();                                                                       \
        CHECK(b_##NM == 0, #NM " final");                                                          \
        shmem_barrier_all();                                                                       \
    }

KSHMEM_AMO_STD_TYPES(TEST_STD)
KSHMEM_AMO_EXT_TYPES(TEST_EXT)
KSHMEM_AMO_BIT_TYPES(TEST_BIT)

static long counter;
static uint64_t tickets_all[64 * 32];
static int winner;
static unsigned long long bits;

int main(void) {
    int i;
    t_name = "t_amo";
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
#define CALL_STD(T, NM) test_std_##NM();
#define CALL_EXT(T, NM) test_ext_##NM();
#define CALL_BIT(T, NM) test_bit_##NM();
    KSHMEM_AMO_STD_TYPES(CALL_STD)
    KSHMEM_AMO_EXT_TYPES(CALL_EXT)
    KSHMEM_AMO_BIT_TYPES(CALL_BIT)

    /* 32 tickets each from one counter: all distinct */
    {
        static uint64_t mine[32];
        int k, seen_ok = 1;
        for (k = 0; k < 32; k++)
            mine[k] = (uint64_t)shmem_long_atomic_fetch_inc(&counter, 0);
        shmem_uint64_fcollect(SHMEM_TEAM_WORLD, tickets_all, mine, 32);
        if (me == 0)
            CHECK(counter == 32L * npes, "counter %ld", counter);
        {
            char *seen = (char *)calloc((size_t)npes * 32, 1);
            for (k = 0; k < npes * 32; k++) {
                if (tickets_all[k] >= (uint64_t)npes * 32 || seen[tickets_all[k]])
                    seen_ok = 0;
                else
                    seen[tickets_all[k]] = 1;
            }
            free(seen);
        }
        CHECK(seen_ok, "tickets are a permutation");
    }
    /* one winner of compare_swap */
    {
        static int wins;
        int won = shmem_int_atomic_compare_swap(&winner, 0, me + 1, npes - 1) == 0;
        shmem_int_atomic_add(&wins, won, 0);
        shmem_barrier_all();
        if (me == 0)
            CHECK(wins == 1, "%d winners", wins);
    }
    /* everybody flips its own bits in one word, twice set, once cleared */
    {
        unsigned long long mybit = 1ull << (me % 64);
        shmem_ulonglong_atomic_or(&bits, mybit, 0);
        shmem_fence(); /* without it the network may deliver them in any order */
        shmem_ulonglong_atomic_xor(&bits, mybit, 0);
        shmem_fence();
        shmem_ulonglong_atomic_xor(&bits, mybit, 0);
        shmem_barrier_all();
        if (me == 0) {
            unsigned long long want = 0;
            for (i = 0; i < npes; i++)
                want |= 1ull << (i % 64);
            CHECK(bits == want, "or/xor word %#llx want %#llx", bits, want);
        }
        shmem_barrier_all();
        shmem_ulonglong_atomic_and(&bits, ~mybit, 0);
        shmem_barrier_all();
        if (me == 0)
            CHECK(bits == 0, "and clears");
    }
    /* C11 generic forms */
    {
        static long gl;
        static unsigned int gu;
        static double gd;
        int to = (me + 1) % npes;
        shmem_barrier_all();
        shmem_atomic_set(&gl, 5L, to);
        shmem_fence();
        shmem_atomic_add(&gl, 2L, to);
        shmem_atomic_inc(&gl, to);
        shmem_quiet();
        CHECK(shmem_atomic_fetch(&gl, to) == 8, "generic set/add/inc/fetch");
        CHECK(shmem_atomic_fetch_add(&gl, 1L, to) == 8 && shmem_atomic_fetch_inc(&gl, to) == 9,
              "generic fetch_add/inc");
        CHECK(shmem_atomic_compare_swap(&gl, 10L, 11L, to) == 10 && shmem_atomic_swap(&gl, 0L, to) == 11,
              "generic cswap/swap");
        shmem_atomic_or(&gu, 6u, to);
        shmem_fence();
        shmem_atomic_and(&gu, 3u, to);
        shmem_fence();
        shmem_atomic_xor(&gu, 1u, to);
        shmem_quiet();
        CHECK(shmem_atomic_fetch_or(&gu, 0u, to) == 3 && shmem_atomic_fetch_and(&gu, 1u, to) == 3 &&
                  shmem_atomic_fetch_xor(&gu, 1u, to) == 1,
              "generic bitwise");
        shmem_atomic_set(&gd, 2.5, to);
        shmem_quiet();
        CHECK(shmem_atomic_fetch(&gd, to) == 2.5, "generic double");
    }
    T_FINISH();
}
