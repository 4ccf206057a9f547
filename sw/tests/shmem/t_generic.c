/* t_generic.c - the C11 type-generic interfaces of OpenSHMEM 1.5: a call of
 * every generic family with every type of its table in the spec (the
 * typedef names int8_t ... size_t, ptrdiff_t included), in the default and
 * the context-first form where the family has one, each result checked:
 *   RMA: put, get, put_nbi, get_nbi, p, g, iput, iget, put_signal(_nbi)
 *   AMO: fetch, set, swap, compare_swap, fetch_inc, inc, fetch_add, add and
 *        the _nbi fetching forms (standard/extended types), fetch_and, and,
 *        fetch_or, or, fetch_xor, xor (+ _nbi) (bitwise types), the
 *        deprecated fetch, set, swap, cswap, finc, inc, fadd, add
 *   P2P: wait_until, test, wait_until_all/any/some, test_all/any/some and
 *        the six _vector forms (standard AMO types, short, unsigned short)
 *   collectives: broadcast, collect, fcollect, alltoall, alltoalls (RMA
 *        types), and/or/xor/max/min/sum/prod_reduce (team reduction table,
 *        complex sum and product included), sync(team), sync(active set)
 * The typed routine each call selects is checked by the compiler (-Werror:
 * a pointer of another type does not pass); the values by the run. Runs on
 * 2+ PEs; PE me works with its right neighbour. */
#include <complex.h>
#include <stddef.h>

#include "shmem_test.h"

static int me, npes, right, left;
static shmem_ctx_t ctx;
static uint64_t sig;
static long psync[SHMEM_SYNC_SIZE];

/* every table's types as the spec names them (X(C type, name)) */
#define RMA_TYPES(X)                                                                               \
    X(float, float) X(double, double) X(long double, longdouble) X(char, char)                     \
    X(signed char, schar) X(short, short) X(int, int) X(long, long) X(long long, longlong)         \
    X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint)                        \
    X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16)     \
    X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32)  \
    X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)
#define AMO_STD_TYPES(X)                                                                           \
    X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint) X(unsigned long, ulong) \
    X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32)       \
    X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)
#define AMO_EXT_TYPES(X) X(float, float) X(double, double)
#define AMO_BIT_TYPES(X)                                                                           \
    X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong)                 \
    X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)
#define P2P_TYPES(X) AMO_STD_TYPES(X) X(short, short) X(unsigned short, ushort)
#define DEP_TYPES(X) X(int, int) X(long, long) X(long long, longlong)
#define DEP_EXT_TYPES(X) X(float, float) X(double, double) DEP_TYPES(X)
#define RED_BIT_TYPES(X)                                                                           \
    X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint)                        \
    X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16)     \
    X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32)  \
    X(uint64_t, uint64) X(size_t, size)
#define RED_ARITH_TYPES(X) RMA_TYPES(X)
#define RED_COMPLEX_TYPES(X) X(double _Complex, complexd) X(float _Complex, complexf)

/* both contexts quiet: AMOs and puts are ordered only by quiet (or fence) */
#define Q()                                                                                        \
    do {                                                                                           \
        shmem_quiet();                                                                             \
        shmem_ctx_quiet(ctx);                                                                      \
    } while (0)

/* value i of PE p, small enough for every type */
#define V(T, p, i) ((T)((p)*8 + (i) + 1))

/* ---- RMA and the data collectives ------------------------------------------------------------ */
#define RMA_TEST(T, N)                                                                             \
    static T r1_##N[8], r2_##N[8], r3_##N[16], rall_##N[64];                                       \
    static void rma_##N(void) {                                                                    \
        T src[8], loc[8];                                                                          \
        int i;                                                                                     \
        for (i = 0; i < 8; i++)                                                                    \
            src[i] = V(T, me, i);                                                                  \
        memset(r1_##N, 0, sizeof r1_##N);                                                          \
        memset(r2_##N, 0, sizeof r2_##N);                                                          \
        shmem_barrier_all();                                                                       \
        shmem_put(r1_##N, src, 4, right);                                                          \
        shmem_put(ctx, r1_##N + 4, src + 4, 4, right);                                             \
        shmem_ctx_quiet(ctx);                                                                      \
        shmem_barrier_all();                                                                       \
        for (i = 0; i < 8; i++)                                                                    \
            CHECK(r1_##N[i] == V(T, left, i), #N " put (ctx form: i >= 4) [%d]", i);               \
        shmem_get(loc, r1_##N, 4, right);                                                          \
        shmem_get(ctx, loc + 4, r1_##N + 4, 4, right);                                             \
        for (i = 0; i < 8; i++)                                                                    \
            CHECK(loc[i] == V(T, me, i), #N " get [%d]", i);                                       \
        shmem_put_nbi(r2_##N, src, 4, right);                                                      \
        shmem_put_nbi(ctx, r2_##N + 4, src + 4, 4, right);                                         \
        shmem_quiet();                                                                             \
        shmem_ctx_quiet(ctx);                                                                      \
        shmem_barrier_all();                                                                       \
        memset(loc, 0, sizeof loc);                                                                \
        shmem_get_nbi(loc, r2_##N, 4, right);                                                      \
        shmem_get_nbi(ctx, loc + 4, r2_##N + 4, 4, right);                                         \
        shmem_quiet();                                                                             \
        shmem_ctx_quiet(ctx);                                                                      \
        for (i = 0; i < 8; i++)                                                                    \
            CHECK(loc[i] == V(T, me, i), #N " put_nbi + get_nbi [%d]", i);                         \
        shmem_barrier_all();                                                                       \
        shmem_p(&r1_##N[0], V(T, me, 5), right);                                                   \
        shmem_p(ctx, &r1_##N[1], V(T, me, 6), right);                                              \
        shmem_ctx_quiet(ctx);                                                                      \
        shmem_barrier_all();                                                                       \
        CHECK(r1_##N[0] == V(T, left, 5) && r1_##N[1] == V(T, left, 6), #N " p");                  \
        CHECK(shmem_g(&r1_##N[0], right) == V(T, me, 5), #N " g");                                 \
        CHECK(shmem_g(ctx, &r1_##N[1], right) == V(T, me, 6), #N " g ctx");                        \
        shmem_barrier_all();                                                                       \
        memset(r3_##N, 0, sizeof r3_##N);                                                          \
        shmem_barrier_all();                                                                       \
        shmem_iput(r3_##N, src, 2, 1, 4, right);     /* r3[0,2,4,6] = src[0..3] */                 \
        shmem_iput(ctx, r3_##N + 8, src, 2, 2, 4, right); /* r3[8,10,12,14] = src[0,2,4,6] */     \
        shmem_ctx_quiet(ctx);                                                                      \
        shmem_barrier_all();                                                                       \
        for (i = 0; i < 4; i++)                                                                    \
            CHECK(r3_##N[2 * i] == V(T, left, i) && r3_##N[8 + 2 * i] == V(T, left, 2 * i),        \
                  #N " iput [%d]", i);                                                             \
        shmem_iget(loc, r3_##N, 1, 2, 4, right);                                                   \
        shmem_iget(ctx, loc + 4, r3_##N + 8, 1, 2, 4, right);                                      \
        for (i = 0; i < 4; i++)                                                                    \
            CHECK(loc[i] == V(T, me, i) && loc[4 + i] == V(T, me, 2 * i), #N " iget [%d]", i);     \
        shmem_barrier_all();                                                                       \
        sig = 0;                                                                                   \
        shmem_barrier_all();                                                                       \
        shmem_put_signal(r2_##N, src, 2, &sig, 1, SHMEM_SIGNAL_ADD, right);                        \
        shmem_put_signal(ctx, r2_##N + 2, src + 2, 2, &sig, 1, SHMEM_SIGNAL_ADD, right);           \
        shmem_put_signal_nbi(r2_##N + 4, src + 4, 2, &sig, 1, SHMEM_SIGNAL_ADD, right);            \
        shmem_put_signal_nbi(ctx, r2_##N + 6, src + 6, 2, &sig, 1, SHMEM_SIGNAL_ADD, right);       \
        CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 4) == 4, #N " put_signal count");        \
        for (i = 0; i < 8; i++)                                                                    \
            CHECK(r2_##N[i] == V(T, left, i), #N " put_signal data [%d]", i);                      \
        shmem_quiet();                                                                             \
        shmem_ctx_quiet(ctx);                                                                      \
        /* collectives on the world team */                                                       \
        shmem_barrier_all();                                                                       \
        memset(r1_##N, 0, sizeof r1_##N);                                                          \
        shmem_broadcast(SHMEM_TEAM_WORLD, r1_##N, src, 8, npes - 1);                               \
        for (i = 0; i < 8; i++)                                                                    \
            CHECK(r1_##N[i] == V(T, npes - 1, i), #N " broadcast [%d]", i);                        \
        shmem_fcollect(SHMEM_TEAM_WORLD, rall_##N, src, 2);                                         \
        for (i = 0; i < 2 * npes; i++)                                                             \
            CHECK(rall_##N[i] == V(T, i / 2, i % 2), #N " fcollect [%d]", i);                      \
        shmem_collect(SHMEM_TEAM_WORLD, rall_##N, src, 1 + (me & 1));                              \
        {                                                                                          \
            int p, k = 0, j;                                                                       \
            for (p = 0; p < npes; p++)                                                             \
                for (j = 0; j < 1 + (p & 1); j++, k++)                                             \
                    CHECK(rall_##N[k] == V(T, p, j), #N " collect [%d]", k);                       \
        }                                                                                          \
        for (i = 0; i < 8; i++)                                                                    \
            r3_##N[i] = V(T, me, i);                                                               \
        shmem_alltoall(SHMEM_TEAM_WORLD, rall_##N, r3_##N, 1);                                     \
        for (i = 0; i < npes; i++)                                                                 \
            CHECK(rall_##N[i] == V(T, i, me), #N " alltoall [%d]", i);                             \
        shmem_alltoalls(SHMEM_TEAM_WORLD, rall_##N, r3_##N, 2, 1, 1);                              \
        for (i = 0; i < npes; i++)                                                                 \
            CHECK(rall_##N[2 * i] == V(T, i, me), #N " alltoalls [%d]", i);                        \
    }
RMA_TYPES(RMA_TEST)

/* ---- atomics -------------------------------------------------------------------------------- */
/* fetch, set, swap and their _nbi forms: every extended type (standard ones too) */
#define AMO_FSS_TEST(T, N)                                                                         \
    static T a_##N[4];                                                                             \
    static void amo_fss_##N(void) {                                                                \
        T f = 0, g = 0;                                                                            \
        a_##N[0] = (T)3;                                                                           \
        a_##N[1] = (T)4;                                                                           \
        shmem_barrier_all();                                                                       \
        CHECK(shmem_atomic_fetch(&a_##N[0], right) == (T)3, #N " fetch");                          \
        CHECK(shmem_atomic_fetch(ctx, &a_##N[1], right) == (T)4, #N " fetch ctx");                 \
        shmem_barrier_all();                                                                       \
        shmem_atomic_set(&a_##N[0], (T)7, right);                                                  \
        shmem_atomic_set(ctx, &a_##N[1], (T)8, right);                                             \
        shmem_quiet();                                                                             \
        shmem_ctx_quiet(ctx);                                                                      \
        shmem_barrier_all();                                                                       \
        CHECK(a_##N[0] == (T)7 && a_##N[1] == (T)8, #N " set");                                    \
        shmem_barrier_all();                                                                       \
        CHECK(shmem_atomic_swap(&a_##N[0], (T)9, right) == (T)7, #N " swap");                      \
        CHECK(shmem_atomic_swap(ctx, &a_##N[1], (T)10, right) == (T)8, #N " swap ctx");            \
        shmem_barrier_all();                                                                       \
        shmem_atomic_fetch_nbi(&f, &a_##N[0], right);                                              \
        shmem_atomic_fetch_nbi(ctx, &g, &a_##N[1], right);                                         \
        shmem_quiet();                                                                             \
        shmem_ctx_quiet(ctx);                                                                      \
        CHECK(f == (T)9 && g == (T)10, #N " fetch_nbi");                                           \
        shmem_barrier_all();                                                                       \
        shmem_atomic_swap_nbi(&f, &a_##N[0], (T)11, right);                                        \
        shmem_atomic_swap_nbi(ctx, &g, &a_##N[1], (T)12, right);                                   \
        shmem_quiet();                                                                             \
        shmem_ctx_quiet(ctx);                                                                      \
        CHECK(f == (T)9 && g == (T)10, #N " swap_nbi old");                                        \
        shmem_barrier_all();                                                                       \
        CHECK(a_##N[0] == (T)11 && a_##N[1] == (T)12, #N " swap_nbi new");                         \
    }
AMO_STD_TYPES(AMO_FSS_TEST)
AMO_EXT_TYPES(AMO_FSS_TEST)

/* the standard AMO types: compare_swap, (fetch_)inc, (fetch_)add and _nbi */
#define AMO_STD_TEST(T, N)                                                                         \
    static T s_##N[2];                                                                             \
    static void amo_std_##N(void) {                                                                \
        T f = 0, g = 0;                                                                            \
        s_##N[0] = (T)5;                                                                           \
        s_##N[1] = (T)5;                                                                           \
        shmem_barrier_all();                                                                       \
        CHECK(shmem_atomic_compare_swap(&s_##N[0], (T)5, (T)6, right) == (T)5, #N " cswap");       \
        CHECK(shmem_atomic_compare_swap(ctx, &s_##N[1], (T)4, (T)6, right) == (T)5,                \
              #N " cswap ctx (no match)");                                                         \
        CHECK(shmem_atomic_fetch_inc(&s_##N[0], right) == (T)6, #N " fetch_inc");                  \
        CHECK(shmem_atomic_fetch_inc(ctx, &s_##N[1], right) == (T)5, #N " fetch_inc ctx");         \
        shmem_atomic_inc(&s_##N[0], right);                                                        \
        shmem_atomic_inc(ctx, &s_##N[1], right);                                                   \
        Q();                                                                                       \
        CHECK(shmem_atomic_fetch_add(&s_##N[0], (T)10, right) == (T)8, #N " fetch_add");           \
        CHECK(shmem_atomic_fetch_add(ctx, &s_##N[1], (T)10, right) == (T)7, #N " fetch_add ctx");  \
        shmem_atomic_add(&s_##N[0], (T)2, right);                                                  \
        shmem_atomic_add(ctx, &s_##N[1], (T)2, right);                                             \
        shmem_quiet();                                                                             \
        shmem_ctx_quiet(ctx);                                                                      \
        shmem_barrier_all();                                                                       \
        CHECK(s_##N[0] == (T)20 && s_##N[1] == (T)19, #N " inc/add results");                      \
        shmem_barrier_all();                                                                       \
        shmem_atomic_compare_swap_nbi(&f, &s_##N[0], (T)20, (T)1, right);                          \
        shmem_atomic_compare_swap_nbi(ctx, &g, &s_##N[1], (T)19, (T)2, right);                     \
        shmem_quiet();                                                                             \
        shmem_ctx_quiet(ctx);                                                                      \
        CHECK(f == (T)20 && g == (T)19, #N " compare_swap_nbi");                                   \
        shmem_atomic_fetch_inc_nbi(&f, &s_##N[0], right);                                          \
        shmem_atomic_fetch_inc_nbi(ctx, &g, &s_##N[1], right);                                     \
        shmem_quiet();                                                                             \
        shmem_ctx_quiet(ctx);                                                                      \
        CHECK(f == (T)1 && g == (T)2, #N " fetch_inc_nbi");                                        \
        shmem_atomic_fetch_add_nbi(&f, &s_##N[0], (T)3, right);                                    \
        shmem_atomic_fetch_add_nbi(ctx, &g, &s_##N[1], (T)3, right);                               \
        shmem_quiet();                                                                             \
        shmem_ctx_quiet(ctx);                                                                      \
        CHECK(f == (T)2 && g == (T)3, #N " fetch_add_nbi");                                        \
        shmem_barrier_all();                                                                       \
        CHECK(s_##N[0] == (T)5 && s_##N[1] == (T)6, #N " nbi results");                            \
    }
AMO_STD_TYPES(AMO_STD_TEST)

#define AMO_BIT_TEST(T, N)                                                                         \
    static T b_##N[2];                                                                             \
    static void amo_bit_##N(void) {                                                                \
        T f = 0, g = 0;                                                                            \
        b_##N[0] = (T)0xf0;                                                                        \
        b_##N[1] = (T)0xf0;                                                                        \
        shmem_barrier_all();                                                                       \
        CHECK(shmem_atomic_fetch_and(&b_##N[0], (T)0x3c, right) == (T)0xf0, #N " fetch_and");      \
        CHECK(shmem_atomic_fetch_and(ctx, &b_##N[1], (T)0xcc, right) == (T)0xf0, #N " f_and ctx"); \
        shmem_atomic_and(&b_##N[0], (T)0x38, right);                                               \
        shmem_atomic_and(ctx, &b_##N[1], (T)0xc4, right);                                          \
        Q();                                                                                       \
        CHECK(shmem_atomic_fetch_or(&b_##N[0], (T)0x01, right) == (T)0x30, #N " fetch_or");        \
        CHECK(shmem_atomic_fetch_or(ctx, &b_##N[1], (T)0x02, right) == (T)0xc0, #N " f_or ctx");   \
        shmem_atomic_or(&b_##N[0], (T)0x100, right);                                               \
        shmem_atomic_or(ctx, &b_##N[1], (T)0x200, right);                                          \
        Q();                                                                                       \
        CHECK(shmem_atomic_fetch_xor(&b_##N[0], (T)0x11, right) == (T)0x131, #N " fetch_xor");     \
        CHECK(shmem_atomic_fetch_xor(ctx, &b_##N[1], (T)0x22, right) == (T)0x2c2, #N " f_xor c");  \
        shmem_atomic_xor(&b_##N[0], (T)0x1000, right);                                             \
        shmem_atomic_xor(ctx, &b_##N[1], (T)0x2000, right);                                        \
        Q();                                                                                       \
        shmem_atomic_fetch_and_nbi(&f, &b_##N[0], (T)0xffff, right);                               \
        shmem_atomic_fetch_and_nbi(ctx, &g, &b_##N[1], (T)0xffff, right);                          \
        shmem_quiet();                                                                             \
        shmem_ctx_quiet(ctx);                                                                      \
        CHECK(f == (T)0x1120 && g == (T)0x22e0, #N " fetch_and_nbi");                              \
        shmem_atomic_fetch_or_nbi(&f, &b_##N[0], (T)0x4, right);                                   \
        shmem_atomic_fetch_or_nbi(ctx, &g, &b_##N[1], (T)0x8, right);                              \
        shmem_quiet();                                                                             \
        shmem_ctx_quiet(ctx);                                                                      \
        CHECK(f == (T)0x1120 && g == (T)0x22e0, #N " fetch_or_nbi");                               \
        shmem_atomic_fetch_xor_nbi(&f, &b_##N[0], (T)0x1000, right);                               \
        shmem_atomic_fetch_xor_nbi(ctx, &g, &b_##N[1], (T)0x2000, right);                          \
        shmem_quiet();                                                                             \
        shmem_ctx_quiet(ctx);                                                                      \
        CHECK(f == (T)0x1124 && g == (T)0x22e8, #N " fetch_xor_nbi");                              \
        shmem_barrier_all();                                                                       \
        CHECK(b_##N[0] == (T)0x124 && b_##N[1] == (T)0x2e8, #N " bitwise results");                \
    }
AMO_BIT_TYPES(AMO_BIT_TEST)

/* deprecated generic names */
#define DEP_EXT_TEST(T, N)                                                                         \
    static T d_##N;                                                                                \
    static void dep_ext_##N(void) {                                                                \
        d_##N = (T)1;                                                                              \
        shmem_barrier_all();                                                                       \
        CHECK(shmem_fetch(&d_##N, right) == (T)1, #N " shmem_fetch");                              \
        shmem_set(&d_##N, (T)2, right);                                                            \
        shmem_quiet();                                                                             \
        CHECK(shmem_swap(&d_##N, (T)3, right) == (T)2, #N " shmem_set/swap");                      \
        shmem_barrier_all();                                                                       \
        CHECK(d_##N == (T)3, #N " shmem_swap");                                                    \
    }
DEP_EXT_TYPES(DEP_EXT_TEST)
#define DEP_TEST(T, N)                                                                             \
    static T e_##N;                                                                                \
    static void dep_##N(void) {                                                                    \
        e_##N = (T)1;                                                                              \
        shmem_barrier_all();                                                                       \
        CHECK(shmem_cswap(&e_##N, (T)1, (T)4, right) == (T)1, #N " shmem_cswap");                  \
        CHECK(shmem_finc(&e_##N, right) == (T)4, #N " shmem_finc");                                \
        shmem_inc(&e_##N, right);                                                                  \
        shmem_quiet();                                                                             \
        CHECK(shmem_fadd(&e_##N, (T)3, right) == (T)6, #N " shmem_fadd");                          \
        shmem_add(&e_##N, (T)1, right);                                                            \
        shmem_quiet();                                                                             \
        shmem_barrier_all();                                                                       \
        CHECK(e_##N == (T)10, #N " shmem_add");                                                    \
    }
DEP_TYPES(DEP_TEST)

/* ---- point-to-point synchronisation: right neighbour sets ivars, we wait ------------------- */
#define P2P_TEST(T, N)                                                                             \
    static T w_##N[4];                                                                             \
    static void p2p_##N(void) {                                                                    \
        T one = (T)1, vals[4] = {(T)1, (T)2, (T)3, (T)4};                                          \
        int st[4] = {0, 0, 0, 1};                                                                  \
        size_t idx[4], k;                                                                          \
        memset(w_##N, 0, sizeof w_##N);                                                            \
        shmem_barrier_all();                                                                       \
        CHECK(!shmem_test(&w_##N[0], SHMEM_CMP_NE, (T)0), #N " test before");                      \
        CHECK(!shmem_test_all(w_##N, 4, NULL, SHMEM_CMP_GE, (T)1), #N " test_all before");         \
        CHECK(shmem_test_any(w_##N, 4, NULL, SHMEM_CMP_GT, (T)0) == SIZE_MAX, #N " test_any");     \
        CHECK(shmem_test_some(w_##N, 4, idx, NULL, SHMEM_CMP_EQ, one) == 0, #N " test_some");      \
        CHECK(!shmem_test_all_vector(w_##N, 4, NULL, SHMEM_CMP_EQ, vals), #N " t_all_vec");        \
        CHECK(shmem_test_any_vector(w_##N, 4, NULL, SHMEM_CMP_EQ, vals) == SIZE_MAX,               \
              #N " t_any_vec");                                                                    \
        CHECK(shmem_test_some_vector(w_##N, 4, idx, NULL, SHMEM_CMP_EQ, vals) == 0,                \
              #N " t_some_vec");                                                                   \
        shmem_barrier_all();                                                                       \
        shmem_p(&w_##N[0], (T)1, left); /* our left neighbour waits on us */                 \
        shmem_quiet();                                                                             \
        shmem_wait_until(&w_##N[0], SHMEM_CMP_EQ, one);                                            \
        k = shmem_wait_until_any(w_##N, 4, NULL, SHMEM_CMP_EQ, one);                               \
        CHECK(k == 0, #N " wait_until_any %zu", k);                                                \
        k = shmem_wait_until_some(w_##N, 4, idx, NULL, SHMEM_CMP_NE, (T)0);                        \
        CHECK(k == 1 && idx[0] == 0, #N " wait_until_some");                                       \
        shmem_barrier_all();                                                                       \
        shmem_p(&w_##N[1], (T)2, left);                                                              \
        shmem_p(&w_##N[2], (T)3, left);                                                              \
        shmem_p(&w_##N[3], (T)4, left);                                                              \
        shmem_quiet();                                                                             \
        shmem_wait_until_all(w_##N, 3, NULL, SHMEM_CMP_GE, one);                                   \
        shmem_wait_until_all_vector(w_##N, 4, NULL, SHMEM_CMP_EQ, vals);                           \
        k = shmem_wait_until_any_vector(w_##N, 4, st, SHMEM_CMP_EQ, vals); /* 0..2 all match */     \
        CHECK(k < 3, #N " w_any_vec %zu", k);                                                      \
        CHECK(shmem_wait_until_some_vector(w_##N, 4, idx, st, SHMEM_CMP_EQ, vals) == 3,            \
              #N " w_some_vec");                                                                   \
        CHECK(shmem_test(&w_##N[3], SHMEM_CMP_EQ, (T)4), #N " test after");                        \
        CHECK(shmem_test_all(w_##N, 4, NULL, SHMEM_CMP_GE, (T)1), #N " test_all after");           \
        CHECK(shmem_test_all_vector(w_##N, 4, NULL, SHMEM_CMP_EQ, vals), #N " t_all_vec after");   \
        k = shmem_test_any_vector(w_##N, 4, st, SHMEM_CMP_EQ, vals);                               \
        CHECK(k < 3, #N " t_any_vec after %zu", k);                                                \
        CHECK(shmem_test_some_vector(w_##N, 4, idx, st, SHMEM_CMP_GE, vals) == 3, #N " t_some_v"); \
        CHECK(shmem_test_any(w_##N, 4, st, SHMEM_CMP_EQ, (T)3) == 2, #N " test_any after");        \
        CHECK(shmem_test_some(w_##N, 4, idx, NULL, SHMEM_CMP_GT, (T)2) == 2 && idx[0] == 2,        \
              #N " test_some after");                                                              \
        shmem_barrier_all();                                                                       \
    }
P2P_TYPES(P2P_TEST)

/* ---- reductions: each PE gives (T)(me - 1) + i (negative ones for signed types), or bits ------- */
#define RED_SRC(T, p, i) ((T)((p)-1) + (T)(i))
#define RED_CHECK(T, N, opname, OP)                                                                \
    for (i = 0; i < 4; i++) {                                                                      \
        T e = RED_SRC(T, 0, i);                                                                    \
        int p;                                                                                     \
        for (p = 1; p < npes; p++)                                                                 \
            OP(e, RED_SRC(T, p, i));                                                               \
        CHECK(dst[i] == e, #N " " opname "_reduce [%d]", i);                                       \
    }
#define R_MAX(a, b) ((a) = (b) > (a) ? (b) : (a))
#define R_MIN(a, b) ((a) = (b) < (a) ? (b) : (a))
#define R_SUM(a, b) ((a) = (__typeof__(a))((a) + (b)))
#define R_PROD(a, b) ((a) = (__typeof__(a))((a) * (b)))
#define R_AND(a, b) ((a) = (__typeof__(a))((a) & (b)))
#define R_OR(a, b) ((a) = (__typeof__(a))((a) | (b)))
#define R_XOR(a, b) ((a) = (__typeof__(a))((a) ^ (b)))
#define RED_ARITH_TEST(T, N)                                                                       \
    static T ra_src_##N[4], ra_dst_##N[4];                                                         \
    static void red_arith_##N(void) {                                                              \
        T *dst = ra_dst_##N;                                                                       \
        int i;                                                                                     \
        for (i = 0; i < 4; i++)                                                                    \
            ra_src_##N[i] = RED_SRC(T, me, i);                                                     \
        shmem_max_reduce(SHMEM_TEAM_WORLD, dst, ra_src_##N, 4);                                    \
        RED_CHECK(T, N, "max", R_MAX)                                                              \
        shmem_min_reduce(SHMEM_TEAM_WORLD, dst, ra_src_##N, 4);                                    \
        RED_CHECK(T, N, "min", R_MIN)                                                              \
        shmem_sum_reduce(SHMEM_TEAM_WORLD, dst, ra_src_##N, 4);                                    \
        RED_CHECK(T, N, "sum", R_SUM)                                                              \
        shmem_prod_reduce(SHMEM_TEAM_WORLD, dst, ra_src_##N, 4);                                   \
        RED_CHECK(T, N, "prod", R_PROD)                                                            \
    }
RED_ARITH_TYPES(RED_ARITH_TEST)
#define RED_BIT_TEST(T, N)                                                                         \
    static T rb_src_##N[4], rb_dst_##N[4];                                                         \
    static void red_bit_##N(void) {                                                                \
        T *dst = rb_dst_##N;                                                                       \
        int i;                                                                                     \
        for (i = 0; i < 4; i++)                                                                    \
            rb_src_##N[i] = RED_SRC(T, me, i);                                                     \
        shmem_and_reduce(SHMEM_TEAM_WORLD, dst, rb_src_##N, 4);                                    \
        RED_CHECK(T, N, "and", R_AND)                                                              \
        shmem_or_reduce(SHMEM_TEAM_WORLD, dst, rb_src_##N, 4);                                     \
        RED_CHECK(T, N, "or", R_OR)                                                                \
        shmem_xor_reduce(SHMEM_TEAM_WORLD, dst, rb_src_##N, 4);                                    \
        RED_CHECK(T, N, "xor", R_XOR)                                                              \
    }
RED_BIT_TYPES(RED_BIT_TEST)
#define RED_COMPLEX_TEST(T, N)                                                                     \
    static T rc_src_##N[4], rc_dst_##N[4];                                                         \
    static void red_complex_##N(void) {                                                            \
        T *dst = rc_dst_##N;                                                                       \
        int i;                                                                                     \
        for (i = 0; i < 4; i++)                                                                    \
            rc_src_##N[i] = RED_SRC(T, me, i) + (T)I * (T)(i + 1);                                 \
        shmem_sum_reduce(SHMEM_TEAM_WORLD, dst, rc_src_##N, 4);                                    \
        for (i = 0; i < 4; i++) {                                                                  \
            T e = 0;                                                                               \
            int p;                                                                                 \
            for (p = 0; p < npes; p++)                                                             \
                e += RED_SRC(T, p, i) + (T)I * (T)(i + 1);                                         \
            CHECK(dst[i] == e, #N " sum_reduce [%d]", i);                                          \
        }                                                                                          \
        shmem_prod_reduce(SHMEM_TEAM_WORLD, dst, rc_src_##N, 4);                                   \
        for (i = 0; i < 4; i++) {                                                                  \
            T e = RED_SRC(T, 0, i) + (T)I * (T)(i + 1);                                            \
            int p;                                                                                 \
            for (p = 1; p < npes; p++)                                                             \
                e *= RED_SRC(T, p, i) + (T)I * (T)(i + 1);                                         \
            CHECK(dst[i] == e, #N " prod_reduce [%d]", i);                                         \
        }                                                                                          \
    }
RED_COMPLEX_TYPES(RED_COMPLEX_TEST)

#define RUN_RMA(T, N) rma_##N();
#define RUN_FSS(T, N) amo_fss_##N();
#define RUN_STD(T, N) amo_std_##N();
#define RUN_BIT(T, N) amo_bit_##N();
#define RUN_DEP_EXT(T, N) dep_ext_##N();
#define RUN_DEP(T, N) dep_##N();
#define RUN_P2P(T, N) p2p_##N();
#define RUN_RA(T, N) red_arith_##N();
#define RUN_RB(T, N) red_bit_##N();
#define RUN_RC(T, N) red_complex_##N();

int main(void) {
    int rc;
    shmem_init();
    t_name = "t_generic";
    me = shmem_my_pe();
    npes = shmem_n_pes();
    right = (me + 1) % npes;
    left = (me + npes - 1) % npes;
    if (npes < 2 || npes > 8) {
        if (me == 0)
            printf("t_generic: run on 2..8 PEs\n");
        shmem_finalize();
        return 2;
    }
    CHECK(shmem_ctx_create(0, &ctx) == 0, "ctx create");
    RMA_TYPES(RUN_RMA)
    AMO_STD_TYPES(RUN_FSS)
    AMO_EXT_TYPES(RUN_FSS)
    AMO_STD_TYPES(RUN_STD)
    AMO_BIT_TYPES(RUN_BIT)
    DEP_EXT_TYPES(RUN_DEP_EXT)
    DEP_TYPES(RUN_DEP)
    P2P_TYPES(RUN_P2P)
    RED_ARITH_TYPES(RUN_RA)
    RED_BIT_TYPES(RUN_RB)
    RED_COMPLEX_TYPES(RUN_RC)
    /* both forms of shmem_sync */
    rc = shmem_sync(SHMEM_TEAM_WORLD);
    CHECK(rc == 0, "shmem_sync(team) returned %d", rc);
    shmem_sync(0, 0, npes, psync);
    shmem_ctx_destroy(ctx);
    T_FINISH();
}
