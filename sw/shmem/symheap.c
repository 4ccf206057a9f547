/* symheap.c - see symheap.h */
#include "symheap.h"

#include <stdlib.h>
#include <string.h>

int shmh_init(shmh *h, void *base, size_t size) {
    memset(h, 0, sizeof *h);
    h->cap = 16;
    h->b = (shmh_block *)malloc(h->cap * sizeof *h->b);
    if (!h->b)
        return -1;
    h->base = (uintptr_t)base;
    h->size = size;
    h->n = 1;
    h->b[0].off = 0;
    h->b[0].len = size;
    h->b[0].used = 0;
    return 0;
}

void shmh_destroy(shmh *h) {
    free(h->b);
    memset(h, 0, sizeof *h);
}

static int insert_at(shmh *h, size_t i, size_t off, size_t len, int used) {
    if (h->n == h->cap) {
        size_t cap = 2 * h->cap;
        shmh_block *nb = (shmh_block *)realloc(h->b, cap * sizeof *nb);
        if (!nb)
            return -1;
        h->b = nb;
        h->cap = cap;
    }
    memmove(&h->b[i + 1], &h->b[i], (h->n - i) * sizeof *h->b);
    h->b[i].off = off;
    h->b[i].len = len;
    h->b[i].used = used;
    h->n++;
    return 0;
}

static void remove_at(shmh *h, size_t i) {
    memmove(&h->b[i], &h->b[i + 1], (h->n - i - 1) * sizeof *h->b);
    h->n--;
}

void *shmh_alloc(shmh *h, size_t size, size_t align) {
    size_t i;
    if (!size || size > h->size)
        return NULL;
    if (align < SHMH_MIN_ALIGN)
        align = SHMH_MIN_ALIGN;
    if (align & (align - 1))
        return NULL;
    size = (size + SHMH_MIN_ALIGN - 1) & ~(size_t)(SHMH_MIN_ALIGN - 1);
    for (i = 0; i < h->n; i++) {
        shmh_block *b = &h->b[i];
        uintptr_t start, pad;
        if (b->used)
            continue;
        /* aligned as an offset from the base, so every PE gets the same
         * offsets whatever its base (the base itself is aligned generously) */
        start = (b->off + align - 1) & ~(uintptr_t)(align - 1);
        pad = start - b->off;
        if (pad > b->len || b->len - pad < size)
            continue;
        {
            size_t off = b->off, len = b->len, rest = len - pad - size;
            /* [pad free][size used][rest free]; reserve room first */
            if (h->n + 2 > h->cap) {
                size_t cap = 2 * h->cap + 2;
                shmh_block *nb = (shmh_block *)realloc(h->b, cap * sizeof *nb);
                if (!nb)
                    return NULL;
                h->b = nb;
                h->cap = cap;
                b = &h->b[i];
            }
            if (pad) {
                b->len = pad;
                insert_at(h, ++i, off + pad, size, 1);
            } else {
                b->len = size;
                b->used = 1;
            }
            if (rest)
                insert_at(h, i + 1, off + pad + size, rest, 0);
            return (void *)(h->base + off + pad);
        }
    }
    return NULL;
}

static long find_block(const shmh *h, const void *p) {
    uintptr_t a = (uintptr_t)p;
    size_t lo = 0, hi = h->n;
    if (a < h->base || a >= h->base + h->size)
        return -1;
    a -= h->base;
    while (lo < hi) { /* binary search by offset */
        size_t mid = (lo + hi) / 2;
        if (h->b[mid].off < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < h->n && h->b[lo].off == a && h->b[lo].used)
        return (long)lo;
    return -1;
}

int shmh_free(shmh *h, void *p) {
    long j = find_block(h, p);
    size_t i;
    if (j < 0)
        return -1;
    i = (size_t)j;
    h->b[i].used = 0;
    if (i + 1 < h->n && !h->b[i + 1].used) {
        h->b[i].len += h->b[i + 1].len;
        remove_at(h, i + 1);
    }
    if (i > 0 && !h->b[i - 1].used) {
        h->b[i - 1].len += h->b[i].len;
        remove_at(h, i);
    }
    return 0;
}

size_t shmh_block_size(const shmh *h, const void *p) {
    long j = find_block(h, p);
    return j < 0 ? 0 : h->b[j].len;
}

size_t shmh_free_bytes(const shmh *h) {
    size_t i, s = 0;
    for (i = 0; i < h->n; i++)
        if (!h->b[i].used)
            s += h->b[i].len;
    return s;
}

size_t shmh_largest_free(const shmh *h) {
    size_t i, s = 0;
    for (i = 0; i < h->n; i++)
        if (!h->b[i].used && h->b[i].len > s)
            s = h->b[i].len;
    return s;
}

int shmh_check(const shmh *h) {
    size_t i, off = 0;
    for (i = 0; i < h->n; i++) {
        if (h->b[i].off != off || !h->b[i].len)
            return -1;
        if (i && !h->b[i].used && !h->b[i - 1].used)
            return -1;
        off += h->b[i].len;
    }
    return off == h->size ? 0 : -1;
}
