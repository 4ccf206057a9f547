/* t_heap.c - the symmetric heap: shmem_malloc/calloc/align/realloc/free
 * (+ deprecated names, malloc_with_hints): the same address in every PE (the
 * offsets are compared through fcollect), alignment, zeroed calloc, realloc
 * keeping the contents, exhaustion returning NULL everywhere, memory from
 * every allocation reachable by remote puts. argv[1]: the heap size the run
 * set in SHMEM_SYMMETRIC_SIZE (default 64M), for the exhaustion check. */
#include "shmem_test.h"

static uint64_t addrs[64 * 8];

int main(int argc, char **argv) {
    int me, npes, i, k;
    size_t heap = 64u << 20;
    void *p[8];
    long *l;
    t_name = "t_heap";
    shmem_init();
    me = shmem_my_pe();
    npes = shmem_n_pes();
    if (argc > 1)
        heap = strtoul(argv[1], NULL, 10) << 20;
    CHECK(shmem_malloc(0) == NULL, "malloc(0)");
    p[0] = shmem_malloc(100);
    p[1] = shmem_calloc(50, 8);
    p[2] = shmem_align(4096, 300);
    /* hints kolo does not know (bit 20) are ignored: the same as shmem_malloc
     * (before, they ended the program: programs for other implementations
     * pass any bits) */
    p[3] = shmem_malloc_with_hints(64, SHMEM_MALLOC_ATOMICS_REMOTE | (1L << 20));
    p[4] = shmalloc(24);
    p[5] = shmemalign(256, 8);
    p[6] = shmem_calloc((size_t)1 << 62, 16); /* size overflows: NULL (alignment 3: t_errors) */
    p[7] = shmem_calloc(0, 8);
    CHECK(p[0] && p[1] && p[2] && p[3] && p[4] && p[5], "allocations");
    CHECK(!p[6] && !p[7], "overflowing calloc, zero calloc: NULL");
    CHECK(((uintptr_t)p[2] & 4095) == 0 && ((uintptr_t)p[5] & 255) == 0, "aligned");
    CHECK(((uintptr_t)p[0] & 15) == 0 && ((uintptr_t)p[3] & 15) == 0, "16-byte aligned");
    for (i = 0; i < 50; i++)
        CHECK(((long *)p[1])[i] == 0, "calloc zeroed");
    for (i = 0; i < 8; i++) {
        uint64_t mine = (uint64_t)(uintptr_t)p[i];
        shmem_uint64_fcollect(SHMEM_TEAM_WORLD, addrs + 0, &mine, 1);
        for (k = 0; k < npes; k++)
            CHECK(addrs[k] == mine, "block %d at the same address on PE %d", i, k);
    }
    /* remote writes into every block */
    for (i = 0; i < 6; i++)
        shmem_putmem(p[i], &me, sizeof me, (me + 1) % npes);
    shmem_barrier_all();
    for (i = 0; i < 6; i++)
        CHECK(*(int *)p[i] == (me + npes - 1) % npes, "remote write into block %d", i);
    /* realloc keeps the contents */
    l = (long *)shmem_malloc(10 * sizeof(long));
    for (i = 0; i < 10; i++)
        l[i] = me * 100 + i;
    l = (long *)shmem_realloc(l, 5000 * sizeof(long));
    CHECK(l != NULL, "realloc");
    for (i = 0; i < 10; i++)
        CHECK(l[i] == me * 100 + i, "realloc kept [%d]", i);
    l[4999] = me;
    shmem_barrier_all();
    CHECK(shmem_long_g(&l[4999], (me + 1) % npes) == (me + 1) % npes, "remote read of the grown block");
    l = (long *)shrealloc(l, 3 * sizeof(long));
    CHECK(l && l[2] == me * 100 + 2, "shrink");
    CHECK(shmem_realloc(NULL, 16) != NULL, "realloc(NULL) allocates");
    /* exhaustion: NULL on every PE, and the heap still works */
    CHECK(shmem_malloc(heap + (1u << 20)) == NULL, "too big");
    {
        void *most = shmem_malloc(heap / 2);
        CHECK(most != NULL, "half the heap");
        shmem_free(most);
    }
    for (i = 0; i < 6; i++)
        shmem_free(p[i]);
    shfree(l);
    shmem_free(NULL);
    {
        void *h = shmem_malloc_with_hints(32, ~SHMEM_MALLOC_ATOMICS_REMOTE);
        CHECK(h != NULL, "malloc_with_hints(~SHMEM_MALLOC_ATOMICS_REMOTE)");
        shmem_free(h);
    }
    /* the same sequence again gives the same addresses (frees coalesced) */
    {
        void *q = shmem_malloc(100);
        CHECK(q == p[0], "first fit after frees");
        shmem_free(q);
    }
    T_FINISH();
}
