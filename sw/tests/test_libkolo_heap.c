/* test_libkolo_heap.c - the symmetric heap allocator (sw/shmem/symheap.c).
 * Random sequences of allocations (sizes, alignments) and frees, checked
 * after every step: blocks inside the heap, aligned, not overlapping, the
 * block list consistent (contiguous, free blocks coalesced); a second heap at
 * another base fed the same calls gives the same offsets (that is what makes
 * the heap symmetric); everything freed = one free block again.
 * SEED=<n> replays. */
#include "symheap.h"
#include "test_util.h"

#define HEAP (1u << 20)
#define MAXB 400

typedef struct {
    uint8_t *p;
    size_t n;
    uint8_t fill;
} blk;

static void edge_cases(void) {
    static uint8_t mem[4096] __attribute__((aligned(4096)));
    shmh h;
    void *a, *b, *c;
    CHECK_EQ(shmh_init(&h, mem, sizeof mem), 0, "init");
    CHECK(shmh_alloc(&h, 0, 16) == NULL, "size 0");
    CHECK(shmh_alloc(&h, 4097, 16) == NULL, "larger than the heap");
    CHECK(shmh_alloc(&h, 8, 24) == NULL, "alignment not a power of two");
    a = shmh_alloc(&h, 1, 1);
    CHECK(a == mem, "first block at the base");
    CHECK_EQ(shmh_block_size(&h, a), 16, "rounded to 16");
    b = shmh_alloc(&h, 100, 1024);
    CHECK(b == mem + 1024, "aligned 1024");
    c = shmh_alloc(&h, 4096 - 1024 - 112, 16);
    CHECK(c == mem + 1024 + 112, "fills the rest");
    CHECK(shmh_alloc(&h, 16, 16) == (void *)(mem + 16), "the gap before b");
    CHECK_EQ(shmh_check(&h), 0, "consistent");
    CHECK_EQ(shmh_free(&h, mem + 8), -1, "not a block start");
    CHECK_EQ(shmh_free(&h, mem + 4096), -1, "outside");
    CHECK_EQ(shmh_free(&h, b), 0, "free b");
    CHECK_EQ(shmh_free(&h, b), -1, "double free");
    CHECK_EQ(shmh_block_size(&h, b), 0, "freed block has no size");
    CHECK_EQ(shmh_free(&h, a), 0, "free a");
    CHECK_EQ(shmh_free(&h, c), 0, "free c");
    CHECK_EQ(shmh_free(&h, mem + 16), 0, "free the gap block");
    CHECK_EQ(shmh_check(&h), 0, "consistent");
    CHECK_EQ(shmh_largest_free(&h), 4096, "all coalesced");
    CHECK_EQ(h.n, 1, "one block");
    shmh_destroy(&h);
}

int main(int argc, char **argv) {
    static uint8_t mem1[HEAP] __attribute__((aligned(4096)));
    uint8_t *mem2 = (uint8_t *)malloc(HEAP + 4096 + 48) + 48; /* another base, other alignment */
    shmh h1, h2;
    blk b[MAXB];
    int nb = 0, step, i;
    test_seed(argc, argv, "test_libkolo_heap");
    edge_cases();
    CHECK_EQ(shmh_init(&h1, mem1, HEAP), 0, "init 1");
    CHECK_EQ(shmh_init(&h2, mem2, HEAP), 0, "init 2");
    for (step = 0; step < 20000 && test_failures < 10; step++) {
        int alloc = nb == 0 || (nb < MAXB && test_rand(100) < 55);
        if (alloc) {
            size_t n = test_rand(8) == 0 ? 1 + test_rand(64 << 10) : 1 + test_rand(512);
            size_t al = test_rand(4) == 0 ? (size_t)1 << test_rand(13) : 16;
            uint8_t *p = (uint8_t *)shmh_alloc(&h1, n, al);
            uint8_t *q = (uint8_t *)shmh_alloc(&h2, n, al);
            CHECK((p == NULL) == (q == NULL), "step %d: both heaps agree on room", step);
            if (p && q) {
                CHECK_EQ(p - mem1, q - mem2, "step %d: same offset in both heaps", step);
                CHECK(((size_t)(p - mem1) & (al < 16 ? 15 : al - 1)) == 0, "step %d: offset aligned to %zu", step, al);
                CHECK(p >= mem1 && p + n <= mem1 + HEAP, "step %d: inside", step);
                CHECK(shmh_block_size(&h1, p) >= n, "step %d: size", step);
                for (i = 0; i < nb; i++)
                    CHECK(p + n <= b[i].p || b[i].p + b[i].n <= p, "step %d: overlaps block %d", step, i);
                b[nb].p = p;
                b[nb].n = n;
                b[nb].fill = (uint8_t)test_rand(256);
                memset(p, b[nb].fill, n);
                nb++;
            }
        } else {
            int k = (int)test_rand((unsigned)nb);
            size_t j;
            for (j = 0; j < b[k].n; j++)
                if (b[k].p[j] != b[k].fill)
                    break;
            CHECK(j == b[k].n, "step %d: block %d contents intact", step, k);
            CHECK_EQ(shmh_free(&h1, b[k].p), 0, "step %d: free", step);
            CHECK_EQ(shmh_free(&h2, mem2 + (b[k].p - mem1)), 0, "step %d: free 2", step);
            b[k] = b[--nb];
        }
        CHECK_EQ(shmh_check(&h1), 0, "step %d: consistent", step);
    }
    CHECK_EQ(h1.n, h2.n, "same block lists");
    while (nb) {
        CHECK_EQ(shmh_free(&h1, b[nb - 1].p), 0, "final free");
        nb--;
    }
    CHECK_EQ(shmh_check(&h1), 0, "consistent at the end");
    CHECK_EQ(shmh_free_bytes(&h1), HEAP, "everything free");
    CHECK_EQ(h1.n, 1, "coalesced into one block");
    shmh_destroy(&h1);
    shmh_destroy(&h2);
    free(mem2 - 48);
    return test_finish("test_libkolo_heap");
}
