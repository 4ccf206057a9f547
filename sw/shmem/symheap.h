/* symheap.h - the symmetric heap's allocator: first fit over an out-of-band
 * list of blocks (the heap memory itself holds no metadata, so a stray remote
 * put cannot corrupt it). Deterministic: the same sequence of calls gives the
 * same addresses in every PE, which is what makes the heap symmetric. */
#ifndef KOLO_SYMHEAP_H
#define KOLO_SYMHEAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    size_t off, len;
    int used;
} shmh_block;

typedef struct {
    uintptr_t base;
    size_t size;
    shmh_block *b; /* sorted by offset, covering [0, size) without gaps */
    size_t n, cap;
} shmh;

#define SHMH_MIN_ALIGN 16u

int shmh_init(shmh *h, void *base, size_t size); /* 0, or -1 (no memory) */
void shmh_destroy(shmh *h);
/* size 0 or no room: NULL. align: power of two (smaller ones: 16), applied
 * to the offset from the base: addresses are aligned as far as the base is. */
void *shmh_alloc(shmh *h, size_t size, size_t align);
/* 0, or -1 if p is not the start of an allocated block */
int shmh_free(shmh *h, void *p);
/* size of the allocated block at p (rounded), 0 if none */
size_t shmh_block_size(const shmh *h, const void *p);
/* bytes free in total and in the largest free block */
size_t shmh_free_bytes(const shmh *h);
size_t shmh_largest_free(const shmh *h);
/* internal consistency (sorted, contiguous, no two adjacent free blocks): 0 or -1 */
int shmh_check(const shmh *h);

#endif
