/* t_rma.c - RMA: typed put/get for every standard RMA type, sized
 * put/get 8..128, putmem/getmem, p/g, iput/iget (typed and sized), the _nbi
 * forms, ctx forms, the C11 generic macros; targets in the heap and in
 * global/static data; sources and destinations on the stack; sizes from 1
 * byte to 1 MiB; to this PE and to others. */
#include "shmem_test.h"

#define N 64
#define BIG (1u << 20)

/* symmetric globals: one per type */
#define DECL(T, NM) static T g_##NM[N];
KSHMEM_RMA_TYPES(DECL)
static unsigned char g_big[BIG];

static int me, npes;

static unsigned char pat(size_t i, int pe, int salt) {
    return (unsigned char)(i * 37u + (unsigned)pe * 11u + (unsigned)salt * 101u + (i >> 9));
}

#define TEST_TYPE(T, NM)                                                                           \
    static void test_##NM(void) {                                                                  \
        T src[N], back[N];                                                                         \
        T *h = (T *)shmem_malloc(N * sizeof(T));                                                   \
        int i, to = (me + 1) % npes, from = (me + npes - 1) % npes;                                \
        for (i = 0; i < N; i++)                                                                    \
            src[i] = (T)(i + me * 3 + 1);                                                          \
        memset(g_##NM, 0, sizeof g_##NM);                                                          \
        memset(h, 0, N * sizeof(T));                                                               \
        shmem_barrier_all();                                                                       \
        shmem_##NM##_put(g_##NM, src, N, to);                                                      \
        shmem_##NM##_put_nbi(h, src, N / 2, to);                                                   \
        shmem_ctx_##NM##_put_nbi(SHMEM_CTX_DEFAULT, h + N / 2, src + N / 2, N / 2, to);            \
        shmem_quiet();                                                                             \
        shmem_barrier_all();                                                                       \
        for (i = 0; i < N; i++) {                                                                  \
            CHECK(g_##NM[i] == (T)(i + from * 3 + 1), #NM " put to global [%d]", i);               \
            CHECK(h[i] == (T)(i + from * 3 + 1), #NM " put_nbi to heap [%d]", i);                  \
        }                                                                                          \
        shmem_barrier_all();                                                                       \
        memset(back, 0, sizeof back);                                                              \
        shmem_##NM##_get(back, g_##NM, N, to);                                                     \
        for (i = 0; i < N; i++)                                                                    \
            CHECK(back[i] == (T)(i + me * 3 + 1), #NM " get [%d]", i);                             \
        memset(back, 0, sizeof back);                                                              \
        shmem_##NM##_get_nbi(back, h, N, to);                                                      \
        shmem_quiet();                                                                             \
        for (i = 0; i < N; i++)                                                                    \
            CHECK(back[i] == (T)(i + me * 3 + 1), #NM " get_nbi [%d]", i);                         \
        shmem_barrier_all();                                                                       \
        /* p and g, to self too */                                                                 \
        shmem_##NM##_p(&g_##NM[1], (T)(77 + me), to);                                              \
        shmem_##NM##_p(&h[2], (T)(55 + me), me);                                                   \
        shmem_barrier_all();                                                                       \
        CHECK(g_##NM[1] == (T)(77 + from), #NM " p");                                              \
        CHECK(shmem_##NM##_g(&h[2], me) == (T)(55 + me), #NM " p/g self");                         \
        CHECK(shmem_##NM##_g(&g_##NM[1], to) == (T)(77 + me), #NM " g");                           \
        CHECK(shmem_ctx_##NM##_g(SHMEM_CTX_DEFAULT, &g_##NM[1], to) == (T)(77 + me), #NM " ctx g"); \
        /* strided: every 3rd of src to every 2nd of dest */                                       \
        shmem_barrier_all();                                                                       \
        memset(g_##NM, 0, sizeof g_##NM);                                                          \
        shmem_barrier_all();                                                                       \
        shmem_##NM##_iput(g_##NM, src, 2, 3, N / 3, to);                                           \
        shmem_barrier_all();                                                                       \
        for (i = 0; i < N / 3; i++) {                                                              \
            CHECK(g_##NM[2 * i] == (T)(3 * i + from * 3 + 1), #NM " iput [%d]", 2 * i);            \
            CHECK(g_##NM[2 * i + 1] == 0, #NM " iput gap [%d]", 2 * i + 1);                        \
        }                                                                                          \
        memset(back, 0, sizeof back);                                                              \
        shmem_##NM##_iget(back, g_##NM, 1, 2, N / 3, to);                                          \
        for (i = 0; i < N / 3; i++)                                                                \
            CHECK(back[i] == (T)(3 * i + me * 3 + 1), #NM " iget [%d]", i);                        \
        shmem_barrier_all();                                                                       \
        shmem_free(h);                                                                             \
    }

KSHMEM_RMA_TYPES(TEST_TYPE)

static void test_sized(void) {
    static uint64_t a[2 * N], b[2 * N];
    uint64_t src[2 * N], back[2 * N];
    int bits, to = (me + 1) % npes, i;
    for (bits = 8; bits <= 128; bits *= 2) {
        size_t es = (size_t)bits / 8, n = (size_t)N * 8 / es; /* N*8 bytes */
        unsigned char *s = (unsigned char *)src;
        for (i = 0; i < (int)(n * es); i++)
            s[i] = pat((size_t)i, me, bits);
        memset(a, 0, sizeof a);
        memset(b, 0, sizeof b);
        shmem_barrier_all();
        switch (bits) {
        case 8: shmem_put8(a, src, n, to); shmem_put8_nbi(b, src, n, to); break;
        case 16: shmem_put16(a, src, n, to); shmem_put16_nbi(b, src, n, to); break;
        case 32: shmem_put32(a, src, n, to); shmem_put32_nbi(b, src, n, to); break;
        case 64: shmem_put64(a, src, n, to); shmem_put64_nbi(b, src, n, to); break;
        default: shmem_put128(a, src, n, to); shmem_put128_nbi(b, src, n, to); break;
        }
        shmem_barrier_all();
        for (i = 0; i < (int)(n * es); i++) {
            int from = (me + npes - 1) % npes;
            if (((unsigned char *)a)[i] != pat((size_t)i, from, bits) ||
                ((unsigned char *)b)[i] != pat((size_t)i, from, bits)) {
                CHECK(0, "put%d byte %d", bits, i);
                break;
            }
        }
        memset(back, 0, sizeof back);
        switch (bits) {
        case 8: shmem_get8(back, a, n, to); break;
        case 16: shmem_get16_nbi(back, a, n, to); shmem_quiet(); break;
        case 32: shmem_get32(back, a, n, to); break;
        case 64: shmem_get64_nbi(back, a, n, to); shmem_quiet(); break;
        default: shmem_get128(back, a, n, to); break;
        }
        CHECK(!memcmp(back, src, n * es), "get%d", bits);
        /* strided sized: 4 elements, stride 2 */
        shmem_barrier_all();
        memset(a, 0, sizeof a);
        shmem_barrier_all();
        switch (bits) {
        case 8: shmem_iput8(a, src, 2, 1, 4, to); break;
        case 16: shmem_iput16(a, src, 2, 1, 4, to); break;
        case 32: shmem_iput32(a, src, 2, 1, 4, to); break;
        case 64: shmem_iput64(a, src, 2, 1, 4, to); break;
        default: shmem_iput128(a, src, 2, 1, 4, to); break;
        }
        shmem_barrier_all();
        memset(back, 0, sizeof back);
        switch (bits) {
        case 8: shmem_iget8(back, a, 1, 2, 4, me); break;
        case 16: shmem_iget16(back, a, 1, 2, 4, me); break;
        case 32: shmem_iget32(back, a, 1, 2, 4, me); break;
        case 64: shmem_iget64(back, a, 1, 2, 4, me); break;
        default: shmem_iget128(back, a, 1, 2, 4, me); break;
        }
        {
            int from = (me + npes - 1) % npes, ok = 1;
            for (i = 0; i < (int)(4 * es); i++)
                ok &= ((unsigned char *)back)[i] == pat((size_t)i, from, bits);
            CHECK(ok, "iput%d/iget%d", bits, bits);
        }
        shmem_barrier_all();
    }
}

static void test_mem(void) {
    static const size_t lens[] = {1, 3, 16, 17, 32, 33, 255, 256, 257, 1000, 4096, 65536 + 5, BIG};
    unsigned char *src = (unsigned char *)malloc(BIG), *back = (unsigned char *)malloc(BIG);
    unsigned char *h = (unsigned char *)shmem_malloc(BIG);
    size_t li, i;
    int to = (me + 1) % npes, from = (me + npes - 1) % npes;
    for (li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        size_t len = lens[li], off = (li * 13) % 64;
        if (off + len > BIG)
            off = 0;
        for (i = 0; i < len; i++)
            src[i] = pat(i, me, (int)li);
        shmem_barrier_all();
        if (li & 1)
            shmem_putmem(g_big + off, src, len, to);
        else
            shmem_putmem_nbi(h + off, src, len, to);
        if (li & 1)
            memset(src, 0xEE, len); /* blocking put: src reusable at once */
        shmem_barrier_all();        /* (nbi: src reusable after the barrier's quiet) */
        {
            unsigned char *t = (li & 1) ? g_big + off : h + off;
            for (i = 0; i < len; i++)
                if (t[i] != pat(i, from, (int)li))
                    break;
            CHECK(i == len, "putmem %zu bytes: byte %zu", len, i);
        }
        memset(back, 0, len);
        if (li & 1)
            shmem_getmem(back, g_big + off, len, to);
        else {
            shmem_getmem_nbi(back, h + off, len, to);
            shmem_quiet();
        }
        for (i = 0; i < len; i++)
            if (back[i] != pat(i, me, (int)li))
                break;
        CHECK(i == len, "getmem %zu bytes: byte %zu", len, i);
        /* ctx forms, to self (nobody else reads h meanwhile) */
        for (i = 0; i < len && i < 100; i++)
            src[i] = pat(i, me, 1000);
        shmem_barrier_all();
        shmem_ctx_putmem(SHMEM_CTX_DEFAULT, h, src, len < 100 ? len : 100, me);
        shmem_ctx_getmem(SHMEM_CTX_DEFAULT, back, h, len < 100 ? len : 100, me);
        CHECK(!memcmp(back, src, len < 100 ? len : 100), "ctx self put/get");
        shmem_barrier_all();
    }
    /* zero length: nothing happens */
    shmem_putmem(g_big, src, 0, to);
    shmem_getmem(back, g_big, 0, to);
    shmem_barrier_all();
    shmem_free(h);
    free(src);
    free(back);
}

static void test_generic(void) {
    static long gl[4];
    static double gd[4];
    long l[4] = {1, 2, 3, 4};
    double d[4] = {0.5, 1.5, 2.5, 3.5}, db[4];
    int to = (me + 1) % npes;
    shmem_barrier_all();
    shmem_put(gl, l, 4, to);
    shmem_put_nbi(gd, d, 4, to);
    shmem_p(&gl[3], 40L + me, to);
    shmem_barrier_all();
    CHECK(gl[0] == 1 && gl[2] == 3 && gl[3] == 40 + (me + npes - 1) % npes, "generic put/p long");
    CHECK(gd[1] == 1.5 && gd[3] == 3.5, "generic put_nbi double");
    shmem_get(db, gd, 4, to);
    CHECK(db[2] == 2.5, "generic get");
    CHECK(shmem_g(&gl[1], to) == 2, "generic g");
    shmem_iget(db, gd, 1, 2, 2, to);
    CHECK(db[0] == 0.5 && db[1] == 2.5, "generic iget");
    shmem_barrier_all();
}

int main(void) {
    t_name = "t_rma";
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
#define CALL_TYPE(T, NM) test_##NM();
    KSHMEM_RMA_TYPES(CALL_TYPE)
    test_sized();
    test_mem();
    test_generic();
    T_FINISH();
}
