/* t_cxx.cpp - OpenSHMEM from C++ (built with sw/shmem/oshc++): shmem.h
 * compiles as C++, its routines link with C linkage, and the forms only C++
 * has work:
 *  - the complex reductions, shmem_complexd/complexf_sum/prod_reduce, on the
 *    compilers' `double _Complex` (as programs written for other
 *    implementations call them) and on std::complex<double>, <float>, and
 *    the deprecated active-set shmem_complexd_sum_to_all;
 *  - a typed call of each kind: put, get, p, g (default and context),
 *    atomics, wait_until, broadcast, a team reduction, shmem_sync;
 *  - the deprecated cache routines (they do nothing: link check).
 * Every result is checked; `t_cxx plant` adds a wrong expectation, which
 * must fail (the checks are live). Runs on 2..8 PEs. */
#include <complex>

#include "shmem_test.h"

static long lbuf[8], lflag;
static int ibuf[4];
static double dbuf[2];
static long lsum[4], lsrc[4];
static std::complex<double> zd_src[3], zd_dst[3];
static std::complex<float> zf_src[3], zf_dst[3];
static double _Complex cd_src[3], cd_dst[3];
static float _Complex cf_src[3], cf_dst[3];
static double _Complex to_all_src[2], to_all_dst[2], pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 2];
static long psync[SHMEM_REDUCE_SYNC_SIZE];

/* member p's i-th complex value */
static std::complex<double> zval(int p, int i) { return std::complex<double>(p + 1, i - p); }

int main(int argc, char **argv) {
    int plant = argc > 1 && !strcmp(argv[1], "plant");
    shmem_init();
    t_name = "t_cxx";
    int me = shmem_my_pe(), npes = shmem_n_pes(), right = (me + 1) % npes;
    shmem_ctx_t ctx;
    CHECK(shmem_ctx_create(0, &ctx) == 0, "ctx_create");

    /* typed RMA and atomics, default and context forms */
    long src[8];
    for (int i = 0; i < 8; i++)
        src[i] = 100L * me + i;
    shmem_long_put(lbuf, src, 4, right);
    shmem_ctx_long_put(ctx, lbuf + 4, src + 4, 4, right);
    shmem_ctx_quiet(ctx);
    shmem_int_p(&ibuf[0], me + 7, right);
    shmem_ctx_double_p(ctx, &dbuf[0], me + 0.5, right);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    int left = (me + npes - 1) % npes;
    for (int i = 0; i < 8; i++)
        CHECK(lbuf[i] == 100L * left + i, "long_put [%d] = %ld", i, lbuf[i]);
    CHECK(ibuf[0] == left + 7, "int_p");
    CHECK(dbuf[0] == left + 0.5, "ctx_double_p");
    CHECK(shmem_int_g(&ibuf[0], right) == me + 7, "int_g");
    CHECK(shmem_ctx_double_g(ctx, &dbuf[0], right) == me + 0.5, "ctx_double_g");
    long got[8];
    shmem_long_get(got, lbuf, 8, right);
    for (int i = 0; i < 8; i++)
        CHECK(got[i] == 100L * me + i, "long_get [%d]", i);
    shmem_barrier_all();
    long old = shmem_long_atomic_fetch_add(&lsum[0], 1, 0);
    CHECK(old >= 0 && old < npes, "fetch_add ticket %ld", old);
    shmem_ctx_long_atomic_add(ctx, &lsum[1], 2, 0);
    shmem_ctx_quiet(ctx);
    shmem_barrier_all();
    if (me == 0)
        CHECK(lsum[0] == npes && lsum[1] == 2L * npes, "atomics on PE 0: %ld %ld", lsum[0], lsum[1]);
    /* wait_until: PE me raises its right neighbour's flag */
    shmem_long_atomic_set(&lflag, me + 1, right);
    shmem_long_wait_until(&lflag, SHMEM_CMP_EQ, left + 1);
    CHECK(lflag == left + 1, "wait_until");
    shmem_barrier_all();
    /* a broadcast and a reduction on the world team */
    for (int i = 0; i < 4; i++)
        lsrc[i] = me * 4 + i;
    CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, lsum, lsrc, 4, npes - 1) == 0, "broadcast rc");
    for (int i = 0; i < 4; i++)
        CHECK(lsum[i] == (npes - 1) * 4 + i, "broadcast [%d]", i);
    CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, lsum, lsrc, 4) == 0, "sum_reduce rc");
    for (int i = 0; i < 4; i++)
        CHECK(lsum[i] == 4L * npes * (npes - 1) / 2 + (long)i * npes, "long_sum_reduce [%d]", i);

    /* complex reductions: std::complex and _Complex, double and float */
    std::complex<double> esum[3], eprod[3];
    for (int i = 0; i < 3; i++) {
        esum[i] = 0;
        eprod[i] = 1;
        for (int p = 0; p < npes; p++) {
            esum[i] += zval(p, i);
            eprod[i] *= zval(p, i);
        }
        if (plant && i == 1)
            esum[i] += 1.0; /* a wrong expectation: must be reported */
        zd_src[i] = zval(me, i);
        zf_src[i] = std::complex<float>((float)zval(me, i).real(), (float)zval(me, i).imag());
        __real__ cd_src[i] = zval(me, i).real();
        __imag__ cd_src[i] = zval(me, i).imag();
        __real__ cf_src[i] = (float)zval(me, i).real();
        __imag__ cf_src[i] = (float)zval(me, i).imag();
    }
    CHECK(shmem_complexd_sum_reduce(SHMEM_TEAM_WORLD, zd_dst, zd_src, 3) == 0, "rc");
    for (int i = 0; i < 3; i++)
        CHECK(zd_dst[i] == esum[i], "std::complex<double> sum [%d] = %g%+gi", i, zd_dst[i].real(),
              zd_dst[i].imag());
    CHECK(shmem_complexd_prod_reduce(SHMEM_TEAM_WORLD, zd_dst, zd_src, 3) == 0, "rc");
    for (int i = 0; i < 3; i++)
        CHECK(zd_dst[i] == eprod[i], "std::complex<double> prod [%d]", i);
    CHECK(shmem_complexf_sum_reduce(SHMEM_TEAM_WORLD, zf_dst, zf_src, 3) == 0, "rc");
    for (int i = 0; i < 3; i++)
        CHECK(zf_dst[i].real() == (float)esum[i].real() && zf_dst[i].imag() == (float)esum[i].imag(),
              "std::complex<float> sum [%d]", i);
    CHECK(shmem_complexf_prod_reduce(SHMEM_TEAM_WORLD, zf_dst, zf_src, 3) == 0, "rc");
    for (int i = 0; i < 3; i++)
        CHECK(zf_dst[i].real() == (float)eprod[i].real() && zf_dst[i].imag() == (float)eprod[i].imag(),
              "std::complex<float> prod [%d]", i);
    CHECK(shmem_complexd_sum_reduce(SHMEM_TEAM_WORLD, cd_dst, cd_src, 3) == 0, "rc");
    for (int i = 0; i < 3; i++)
        CHECK(__real__ cd_dst[i] == esum[i].real() && __imag__ cd_dst[i] == esum[i].imag(),
              "double _Complex sum [%d]", i);
    CHECK(shmem_complexd_prod_reduce(SHMEM_TEAM_WORLD, cd_dst, cd_src, 3) == 0, "rc");
    for (int i = 0; i < 3; i++)
        CHECK(__real__ cd_dst[i] == eprod[i].real() && __imag__ cd_dst[i] == eprod[i].imag(),
              "double _Complex prod [%d]", i);
    CHECK(shmem_complexf_sum_reduce(SHMEM_TEAM_WORLD, cf_dst, cf_src, 3) == 0, "rc");
    for (int i = 0; i < 3; i++)
        CHECK(__real__ cf_dst[i] == (float)esum[i].real() && __imag__ cf_dst[i] == (float)esum[i].imag(),
              "float _Complex sum [%d]", i);
    CHECK(shmem_complexf_prod_reduce(SHMEM_TEAM_WORLD, cf_dst, cf_src, 3) == 0, "rc");
    for (int i = 0; i < 3; i++)
        CHECK(__real__ cf_dst[i] == (float)eprod[i].real() &&
                  __imag__ cf_dst[i] == (float)eprod[i].imag(),
              "float _Complex prod [%d]", i);
    /* the deprecated active-set form, every PE */
    for (int i = 0; i < 2; i++)
        to_all_src[i] = cd_src[i];
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++)
        psync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    shmem_complexd_sum_to_all(to_all_dst, to_all_src, 2, 0, 0, npes, pwrk, psync);
    for (int i = 0; i < 2; i++)
        CHECK(__real__ to_all_dst[i] == esum[i].real() && __imag__ to_all_dst[i] == esum[i].imag(),
              "complexd_sum_to_all [%d]", i);

    /* the deprecated cache routines: nothing to do on kolo */
    shmem_set_cache_inv();
    shmem_set_cache_line_inv(lbuf);
    shmem_clear_cache_inv();
    shmem_clear_cache_line_inv(lbuf);
    shmem_udcflush();
    shmem_udcflush_line(lbuf);

    CHECK(shmem_team_sync(SHMEM_TEAM_WORLD) == 0, "team_sync");
    shmem_ctx_destroy(ctx);
    T_FINISH();
}
