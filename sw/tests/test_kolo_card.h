/* test_kolo_card.h - the card that libkolo's backend tests play
 * (test_libkolo_gone.c, test_libkolo_stall.c): the C NI model as node 0 of a
 * 1x1x1 torus, whose host memory is this process's own (DMA with
 * process_vm_readv/writev on itself) and whose packets go to the test's link
 * (its `send`). Each test keeps its own backend (what its card does when it
 * dies, stalls or loses packets); only the model's setup and the opening of
 * the device are here.
 * Include after kolo_ni_model.h, kolo.h, test_util.h and test_kolo_util.h,
 * with _GNU_SOURCE defined before the first system header.
 *   test_card_dma_read   kolo_ni_env.dma_read: this process's memory
 *   test_card_dma_write  kolo_ni_env.dma_write: the same (a test's own
 *                        dma_write may call it after its bookkeeping)
 *   test_card_ni         the model of node 0 of the 1x1x1 torus in `topo`,
 *                        `user` passed to dma_write and send; FAIL and exit
 *                        when the model cannot be made
 *   test_card_open       kolo_open_backend(be, user); FAIL (with the
 *                        library's reason) and exit when it fails */
#ifndef KOLO_TEST_KOLO_CARD_H
#define KOLO_TEST_KOLO_CARD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

static inline int test_card_dma_read(void *user, uint64_t addr, void *buf, size_t len) {
    struct iovec l = {buf, len}, r = {(void *)(uintptr_t)addr, len};
    (void)user;
    return process_vm_readv(getpid(), &l, 1, &r, 1, 0) == (ssize_t)len ? 0 : -1;
}

static inline int test_card_dma_write(void *user, uint64_t addr, const void *buf, size_t len) {
    struct iovec l = {(void *)buf, len}, r = {(void *)(uintptr_t)addr, len};
    (void)user;
    return process_vm_writev(getpid(), &l, 1, &r, 1, 0) == (ssize_t)len ? 0 : -1;
}

static inline kolo_ni *test_card_ni(kolo_topo *topo, void *user,
                                    int (*dma_write)(void *, uint64_t, const void *, size_t),
                                    int (*send)(void *, const kolo_pkt *)) {
    kolo_ni_env env;
    kolo_ni *ni;
    memset(topo, 0, sizeof *topo);
    topo->size[0] = topo->size[1] = topo->size[2] = 1;
    memset(&env, 0, sizeof env);
    env.user = user;
    env.dma_read = test_card_dma_read;
    env.dma_write = dma_write;
    env.send = send;
    ni = kolo_ni_new(topo, 0, &env);
    if (!ni) {
        fprintf(stderr, "FAIL: kolo_ni_new\n");
        exit(1);
    }
    return ni;
}

static inline kolo_dev *test_card_open(const kolo_backend *be, void *user) {
    char err[256] = "";
    kolo_dev *d = NULL;
    int rc = kolo_open_backend(be, user, &d, err, sizeof err);
    if (rc) {
        fprintf(stderr, "FAIL: kolo_open_backend: %s (%s)\n", kolo_strerror(rc), err);
        exit(1);
    }
    return d;
}

#endif
