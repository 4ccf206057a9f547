/* t_coll.c - collectives on SHMEM_TEAM_WORLD, on a strided team and on
 * active sets: broadcast (typed, mem, every root), collect (different sizes
 * per PE), fcollect, alltoall, alltoalls, every reduction op (sum, prod, max,
 * min, and, or, xor) on several types, reductions larger than the library's
 * scratch (chunked), in place (dest == source), the deprecated *_to_all and
 * broadcast/collect/fcollect/alltoall 32/64 forms. */
#include "shmem_test.h"

static int me, npes;
static long pSync[SHMEM_REDUCE_SYNC_SIZE];
static long pWrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 1000];

#define NB 100
static long bsrc[NB], bdst[NB];
static int csrc[64], cdst[64 * 64];
static double dsrc[8], ddst[8];

static void test_broadcast(void) {
    int root, i;
    for (root = 0; root < npes; root++) {
        for (i = 0; i < NB; i++) {
            bsrc[i] = me * 1000 + i;
            bdst[i] = -1;
        }
        CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, bdst, bsrc, NB, root) == 0, "broadcast rc");
        for (i = 0; i < NB; i++)
            if (bdst[i] != root * 1000 + i)
                break;
        CHECK(i == NB, "broadcast from %d: [%d] = %ld", root, i, bdst[i < NB ? i : 0]);
    }
    /* broadcastmem, a C11 generic one, and in place at the root */
    {
        static char m[333];
        memset(m, me == npes - 1 ? 'x' : '.', sizeof m);
        shmem_broadcastmem(SHMEM_TEAM_WORLD, m, m, sizeof m, npes - 1);
        for (i = 0; i < (int)sizeof m; i++)
            if (m[i] != 'x')
                break;
        CHECK(i == (int)sizeof m, "broadcastmem in place");
        dsrc[0] = 0.25 * me;
        shmem_broadcast(SHMEM_TEAM_WORLD, ddst, dsrc, 1, 0);
        CHECK(ddst[0] == 0.0, "generic broadcast");
    }
    /* deprecated active-set form: root's dest untouched */
    for (i = 0; i < NB; i++) {
        bsrc[i] = me + i;
        bdst[i] = -7;
    }
    shmem_broadcast64(bdst, bsrc, NB, 0, 0, 0, npes, pSync);
    CHECK(me == 0 ? bdst[5] == -7 : bdst[5] == 5, "broadcast64: %ld", bdst[5]);
    shmem_broadcast32(bdst, bsrc, 2, 0, 0, 0, npes, pSync); /* 2 ints = 1 long */
    CHECK(me == 0 ? bdst[0] == -7 : bdst[0] == 0, "broadcast32");
}

static void test_collect(void) {
    int i, j, k, n = me % 3 + 1; /* 1..3 elements from each PE */
    int total = 0;
    for (i = 0; i < n; i++)
        csrc[i] = me * 10 + i;
    memset(cdst, 0xff, sizeof cdst);
    CHECK(shmem_int_collect(SHMEM_TEAM_WORLD, cdst, csrc, (size_t)n) == 0, "collect rc");
    for (j = 0, k = 0; j < npes; j++)
        for (i = 0; i < j % 3 + 1; i++, k++)
            CHECK(cdst[k] == j * 10 + i, "collect: [%d] = %d want %d", k, cdst[k], j * 10 + i);
    total = k;
    CHECK(cdst[total] == -1, "collect wrote past the end");
    /* fcollect */
    for (i = 0; i < 4; i++)
        csrc[i] = me * 4 + i;
    shmem_int_fcollect(SHMEM_TEAM_WORLD, cdst, csrc, 4);
    for (k = 0; k < 4 * npes; k++)
        if (cdst[k] != k)
            break;
    CHECK(k == 4 * npes, "fcollect [%d]", k);
    shmem_fcollectmem(SHMEM_TEAM_WORLD, cdst, csrc, 3);
    CHECK(((char *)cdst)[3 * (npes - 1)] == (char)(4 * (npes - 1)), "fcollectmem");
    /* deprecated forms */
    memset(cdst, 0, sizeof cdst);
    shmem_fcollect32(cdst, csrc, 2, 0, 0, npes, pSync);
    CHECK(cdst[2 * (npes - 1) + 1] == 4 * (npes - 1) + 1, "fcollect32");
    shmem_collect64(cdst, csrc, (size_t)(me % 2), 0, 0, npes, pSync); /* 0 or 1 longs */
    for (j = 0, k = 0; j < npes; j++)
        if (j % 2) {
            CHECK(cdst[2 * k] == 4 * j && cdst[2 * k + 1] == 4 * j + 1, "collect64 [%d]", k);
            k++;
        }
    shmem_collect32(cdst, csrc, 1, 0, 0, npes, pSync);
    for (j = 0; j < npes; j++)
        CHECK(cdst[j] == 4 * j, "collect32 [%d]", j);
    shmem_fcollect64(cdst, csrc, 1, 0, 0, npes, pSync);
    CHECK(cdst[2 * (npes - 1)] == 4 * (npes - 1), "fcollect64");
}

static void test_alltoall(void) {
    int i, j;
    /* block j of PE i: 2 ints i*100 + j*10 + {0,1} */
    for (j = 0; j < npes; j++)
        for (i = 0; i < 2; i++)
            csrc[2 * j + i] = me * 100 + j * 10 + i;
    memset(cdst, 0, sizeof cdst);
    CHECK(shmem_int_alltoall(SHMEM_TEAM_WORLD, cdst, csrc, 2) == 0, "alltoall rc");
    for (j = 0; j < npes; j++)
        for (i = 0; i < 2; i++)
            CHECK(cdst[2 * j + i] == j * 100 + me * 10 + i, "alltoall from %d [%d]", j, i);
    shmem_alltoall32(cdst, csrc, 2, 0, 0, npes, pSync);
    CHECK(cdst[2 * (npes - 1)] == (npes - 1) * 100 + me * 10, "alltoall32");
    shmem_alltoall64(cdst, csrc, 1, 0, 0, npes, pSync);
    CHECK(cdst[2 * (npes - 1)] == (npes - 1) * 100 + me * 10, "alltoall64");
    shmem_alltoallmem(SHMEM_TEAM_WORLD, cdst, csrc, 8);
    CHECK(cdst[2 * (npes - 1) + 1] == (npes - 1) * 100 + me * 10 + 1, "alltoallmem");
    /* strided: 1 element per PE, source stride 2 (takes i*100+j*10), dest stride 3 */
    memset(cdst, 0, sizeof cdst);
    shmem_int_alltoalls(SHMEM_TEAM_WORLD, cdst, csrc, 3, 2, 1);
    for (j = 0; j < npes; j++)
        CHECK(cdst[3 * j] == j * 100 + me * 10 && cdst[3 * j + 1] == 0, "alltoalls from %d", j);
}

#define RED_N 50
static long lsrc[RED_N], ldst[RED_N];
static double fsrc[RED_N], fdst[RED_N];
static unsigned int usrc[RED_N], udst[RED_N];
static int8_t i8src[RED_N], i8dst[RED_N];
static long big_src[20000], big_dst[20000]; /* 160 KB: two scratch chunks at 8 PEs */

static void test_reduce(shmem_team_t team, int start, int stride, int size) {
    int i, j;
    int my = shmem_team_my_pe(team);
    (void)my;
    for (i = 0; i < RED_N; i++) {
        lsrc[i] = (long)(me + 1) * (i + 1) * ((me & 1) ? -1 : 1);
        fsrc[i] = 0.5 * me + i;
        usrc[i] = (1u << (me % 32)) | (unsigned)i << 16;
        i8src[i] = (int8_t)(me + i);
    }
    shmem_long_sum_reduce(team, ldst, lsrc, RED_N);
    for (i = 0; i < RED_N; i++) {
        long want = 0;
        for (j = start; j < start + size * stride; j += stride)
            want += (long)(j + 1) * (i + 1) * ((j & 1) ? -1 : 1);
        if (ldst[i] != want) {
            CHECK(0, "long sum [%d] = %ld want %ld", i, ldst[i], want);
            break;
        }
    }
    shmem_long_max_reduce(team, ldst, lsrc, RED_N);
    shmem_long_min_reduce(team, ldst + 1, lsrc + 1, 1);
    {
        long mx = -1000000, mn = 1000000;
        for (j = start; j < start + size * stride; j += stride) {
            long v0 = (long)(j + 1) * ((j & 1) ? -1 : 1), v1 = 2 * v0;
            if (v0 > mx)
                mx = v0;
            if (v1 < mn)
                mn = v1;
        }
        CHECK(ldst[0] == mx, "long max %ld want %ld", ldst[0], mx);
        CHECK(ldst[1] == mn, "long min %ld want %ld", ldst[1], mn);
    }
    shmem_double_sum_reduce(team, fdst, fsrc, RED_N);
    shmem_double_prod_reduce(team, fdst + 10, fsrc + 10, 1);
    {
        double s = 0, p = 1;
        for (j = start; j < start + size * stride; j += stride) {
            s += 0.5 * j + 3;
            p *= 0.5 * j + 10;
        }
        CHECK(fdst[3] == s, "double sum %g want %g", fdst[3], s);
        CHECK(fdst[10] == p, "double prod %g want %g", fdst[10], p);
    }
    shmem_uint_or_reduce(team, udst, usrc, RED_N);
    {
        unsigned o = 0, a = ~0u, x = 0;
        for (j = start; j < start + size * stride; j += stride) {
            unsigned v = (1u << (j % 32)) | 7u << 16;
            o |= v;
            a &= v;
            x ^= v;
        }
        CHECK(udst[7] == o, "uint or %#x want %#x", udst[7], o);
        shmem_uint_and_reduce(team, udst, usrc, RED_N);
        CHECK(udst[7] == a, "uint and %#x want %#x", udst[7], a);
        shmem_uint_xor_reduce(team, udst, usrc, RED_N);
        CHECK(udst[7] == x, "uint xor %#x want %#x", udst[7], x);
    }
    shmem_int8_max_reduce(team, i8dst, i8src, RED_N);
    CHECK(i8dst[2] == (int8_t)(start + (size - 1) * stride + 2), "int8 max");
    /* in place */
    for (i = 0; i < RED_N; i++)
        lsrc[i] = 1;
    shmem_long_sum_reduce(team, lsrc, lsrc, RED_N);
    CHECK(lsrc[0] == size && lsrc[RED_N - 1] == size, "in-place sum %ld", lsrc[0]);
    /* C11 generic */
    shmem_sum_reduce(team, fdst, fsrc, 2);
    shmem_xor_reduce(team, udst, usrc, 1);
}

int main(void) {
    int i;
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    t_name = "t_coll";
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    for (i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        pSync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    test_broadcast();
    test_collect();
    test_alltoall();
    test_reduce(SHMEM_TEAM_WORLD, 0, 1, npes);
    /* the odd PEs as a team */
    if (npes > 1) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, npes / 2, NULL, 0, &odd);
        if (me & 1) {
            test_reduce(odd, 1, 2, npes / 2);
            for (i = 0; i < NB; i++)
                bsrc[i] = me;
            shmem_long_broadcast(odd, bdst, bsrc, NB, shmem_team_n_pes(odd) - 1);
            CHECK(bdst[NB - 1] == 2 * (npes / 2) - 1, "broadcast on the odd team");
            shmem_team_destroy(odd);
        }
    }
    shmem_barrier_all();
    /* big: chunked through the scratch */
    for (i = 0; i < 20000; i++)
        big_src[i] = i + me;
    shmem_long_sum_reduce(SHMEM_TEAM_WORLD, big_dst, big_src, 20000);
    for (i = 0; i < 20000; i++)
        if (big_dst[i] != (long)npes * i + (long)npes * (npes - 1) / 2)
            break;
    CHECK(i == 20000, "big sum [%d]", i);
    /* *_to_all on the world and on the even PEs (stride 2) */
    for (i = 0; i < RED_N; i++)
        lsrc[i] = me + i;
    shmem_long_sum_to_all(ldst, lsrc, RED_N, 0, 0, npes, pWrk, pSync);
    CHECK(ldst[4] == (long)npes * 4 + (long)npes * (npes - 1) / 2, "sum_to_all");
    if (me % 2 == 0) {
        int ne = (npes + 1) / 2;
        shmem_long_max_to_all(ldst, lsrc, RED_N, 0, 1, ne, pWrk, pSync);
        CHECK(ldst[0] == 2 * (ne - 1), "max_to_all stride 2: %ld", ldst[0]);
        shmem_int_and_to_all((int *)cdst, (int *)csrc, 0, 0, 1, ne, (int *)pWrk, pSync);
        shmem_double_min_to_all(fdst, fsrc, 1, 0, 1, ne, (double *)pWrk, pSync);
        shmem_short_xor_to_all((short *)cdst, (short *)csrc, 2, 0, 1, ne, (short *)pWrk, pSync);
        shmem_longlong_prod_to_all((long long *)ldst, (long long *)lsrc, 1, 0, 1, ne,
                                   (long long *)pWrk, pSync);
    }
    shmem_barrier_all();
    T_FINISH();
}
