/* test_kolo_util.h - helpers shared by the libkolo tests (test_libkolo.c,
 * test_libkolo_gone.c); include after test_util.h and kolo.h.
 *   CHECK_RC(expr, want) a libkolo call's return code, named by kolo_strerror
 *   test_iommu_table     the IOMMU a test backend plays: the ranges libkolo
 *                        mapped (dma_map), looked up by the backend's DMA */
#ifndef KOLO_TEST_KOLO_UTIL_H
#define KOLO_TEST_KOLO_UTIL_H

#include <stddef.h>
#include <stdint.h>

#define CHECK_RC(expr, want)                                                                       \
    do {                                                                                           \
        int rc_ = (expr);                                                                          \
        CHECK_EQ(rc_, want, "%s: %s", #expr, kolo_strerror(rc_));                                  \
    } while (0)

#define TEST_IOMMU_RANGES 256

typedef struct {
    struct {
        uintptr_t a;
        size_t n;
    } range[TEST_IOMMU_RANGES];
    int n;
} test_iommu_table;

/* dma_map: -1 when the table is full */
static inline int test_iommu_map(test_iommu_table *m, void *addr, size_t len) {
    if (m->n == TEST_IOMMU_RANGES)
        return -1;
    m->range[m->n].a = (uintptr_t)addr;
    m->range[m->n].n = len;
    m->n++;
    return 0;
}

/* dma_unmap: only a range mapped as it is named (-1 otherwise) */
static inline int test_iommu_unmap(test_iommu_table *m, void *addr, size_t len) {
    int i;
    for (i = 0; i < m->n; i++)
        if (m->range[i].a == (uintptr_t)addr && m->range[i].n == len) {
            m->range[i] = m->range[--m->n];
            return 0;
        }
    return -1;
}

/* 1 when [addr, addr + len) lies inside one mapped range */
static inline int test_iommu_covers(const test_iommu_table *m, uint64_t addr, size_t len) {
    int i;
    for (i = 0; i < m->n; i++)
        if (addr >= m->range[i].a && addr + len <= m->range[i].a + m->range[i].n)
            return 1;
    return 0;
}

#endif
