// fast_ni.h - kolo-sim --fast: the NIs and the network at transaction level.
//
// The NIs keep the host interface of docs/ni.md exactly (BAR0 registers,
// contexts with their send and completion queues in host memory, doorbells,
// PIO, windows and keys, routing table, completion entries with phase bits,
// every status code), so libkolo and OpenSHMEM run on them unchanged. What
// they do not do is cut operations into packets and step flits: an operation
// takes effect whole, at a time the timing model gives it:
//  - a message of F flits (8-byte payload flits plus 2 header flits per
//    256-byte packet) follows the deterministic path of the NI's routing
//    entry; each resource on the way - the source's injection port, every
//    link, the destination's ejection port, per virtual network - carries
//    one flit per cycle and is held for F cycles; the message enters each
//    hop hop_latency cycles after the one before, or later when the resource
//    is busy (the ideal network's latency, hop_latency * (hops + 1) + F - 1,
//    when nothing else is in the way);
//  - a PUT's data lands at the target when its last flit arrives (window
//    checked then), its ACK or NAK goes back on the response network; a GET
//    reads the target when the request arrives and writes the initiator when
//    the response's last flit does; an atomic reads, computes and writes at
//    the target when it arrives; all of it in time order, ties in the order
//    of issue (events one at a time: atomics are atomic);
//  - a context issues one descriptor per cycle; FENCE holds the next one
//    until every earlier operation of the context has its response (so
//    quiet, put-with-signal and shmem_fence order exactly as on the NI).
//  - timing noise: a doorbell (SQ_PI write) or PIO write reaches the issue
//    engine 0 .. jitter cycles after the simulator took it from the PE's
//    ring (a draw from a per-node stream of the seed; a node's writes keep
//    their order, as PCIe posted writes do). Without it PEs whose code costs
//    no cycles (--det) run in lock step, their operations reach the NIs in
//    the same order every round, and a program that retries until a race
//    between PEs goes its way can retry for ever (SOS atomic_nbi). Other
//    registers take effect at once.
// Data moves with one process_vm read and one write per operation (in
// chunks of 4 MiB), not per packet. docs/sim.md "Fast mode".
#ifndef KOLO_SIM_FAST_NI_H
#define KOLO_SIM_FAST_NI_H

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "kolo_route.h"

namespace kolo_sim {

// What the fast NIs need from the simulator: the host memory of a node's PE
// (0, or -1 when the access fails).
class FastHost {
  public:
    virtual ~FastHost() = default;
    virtual int host_mem(int node, uint64_t addr, void *buf, size_t len, bool write) = 0;
};

struct FastStats {
    uint64_t ops[13] = {};      // by descriptor op (NOP .. OR)
    uint64_t bytes_put = 0, bytes_get = 0;
    uint64_t naks = 0, local_errors = 0, completions = 0, flits = 0;
};

class FastNet {
  public:
    // jitter, seed: timing noise (above): a doorbell or PIO write reaches the issue
    // engine 0 .. jitter cycles after the simulator took it, drawn from seed
    FastNet(FastHost *host, const kolo_topo &t, unsigned hop_latency, unsigned jitter,
            uint64_t seed);
    ~FastNet();
    // Host MMIO of node (size 4/8 on BAR0, 64 on BAR2); now: the current cycle
    void mmio_write(int node, int bar, uint64_t off, const void *data, unsigned size, uint64_t now);
    // 0, or -1 for an access the endpoint answers with an error
    int mmio_read(int node, int bar, uint64_t off, unsigned size, uint64_t *val);
    // Run every event due at or before now; true if any ran.
    bool run_until(uint64_t now);
    // Time of the next event (UINT64_MAX: none).
    uint64_t next_event() const;
    // No event pending and no operation outstanding.
    bool idle() const;
    const FastStats &stats() const;
    unsigned jitter() const;
    uint64_t seed() const;
    void dump(FILE *f) const;

  private:
    struct Impl;
    std::unique_ptr<Impl> d_;
};

} // namespace kolo_sim
#endif
