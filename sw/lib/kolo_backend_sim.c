/* kolo_backend_sim.c - libkolo backend "sim": the NI of this PE in kolo-sim,
 * reached through kolo_sim_client (MMIO ring in shared memory). The NI's DMA
 * reaches every address of the process (process_vm_readv/writev), so
 * dma_map is NULL: all memory is DMA-able. */
#define _GNU_SOURCE
#include "kolo_internal.h"

#include <sched.h>
#include <stdio.h>
#include <time.h>

#include "kolo_sim_client.h"

static int sim_write(void *u, int bar, uint64_t off, const void *data, unsigned size) {
    return kolo_sim_mmio_write((kolo_sim_client *)u, bar, off, data, size);
}

static int sim_read(void *u, int bar, uint64_t off, unsigned size, uint64_t *val) {
    return kolo_sim_mmio_read((kolo_sim_client *)u, bar, off, size, val);
}

/* Back off quickly: the simulator needs the CPU far more than a waiting PE.
 * Now and then read a register: the client notices a simulator that has
 * gone while it waits for the answer (and exits the PE with status 3). */
static void sim_progress(void *u, unsigned long n) {
    if (n < 16) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    } else if (n < 256) {
        sched_yield();
    } else {
        struct timespec ts = {0, n < 4096 ? 5000 : 50000};
        nanosleep(&ts, NULL);
        if ((n & 4095) == 0) {
            uint64_t v;
            kolo_sim_mmio_read((kolo_sim_client *)u, 0, KOLO_CSR_ID, 4, &v);
        }
    }
}

static void sim_close(void *u) { kolo_sim_detach((kolo_sim_client *)u); }

/* waits on completions: the simulator's deterministic mode sees them (kolo_sim_client.h) */
static uint32_t sim_wait_begin(void *u) { return kolo_sim_wait_begin((kolo_sim_client *)u); }
/* 1: look at the device now (--det: kolo-sim woke this waiting PE before it
 * would call the run stuck; kolo_sim_client.h "Looks") */
static int sim_wait_idle(void *u, uint32_t seq, unsigned long *n) {
    kolo_sim_client *c = (kolo_sim_client *)u;
    if (kolo_sim_deterministic(c)) {
        uint32_t ticket = kolo_sim_wake_ticket(c);
        kolo_sim_wait_idle(c, seq, n);
        return kolo_sim_poll_fired(c, ticket);
    }
    sim_progress(u, (*n)++);
    return 0;
}
static void sim_wait_end(void *u) { kolo_sim_wait_end((kolo_sim_client *)u); }

int kolo_sim_backend_open(kolo_dev *d, int pe, char *err, size_t errlen) {
    static const kolo_backend be = {"sim", sim_write, sim_read, NULL, NULL, sim_progress, sim_close};
    char msg[256] = "";
    kolo_sim_client *c = kolo_sim_attach_pe(pe, msg, sizeof msg);
    if (!c) {
        kolo_set_err(err, errlen, "kolo_open(sim): %s", msg);
        return KOLO_E_NODEV;
    }
    d->be = be;
    d->user = c;
    d->sim_client = c;
    d->wait_begin = sim_wait_begin;
    d->wait_idle = sim_wait_idle;
    d->wait_end = sim_wait_end;
    /* --det: an MMIO read only where the simulated run puts it (the waits'
     * STATUS looks count its wake-ups); empty polls read nothing */
    d->poll_probe = !kolo_sim_deterministic(c);
    snprintf(d->name, sizeof d->name, "sim");
    return 0;
}
