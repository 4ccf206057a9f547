// sim.h - kolo-sim internals: the network interface the simulator core uses
// (ideal C network or Verilated torus RTL) and the entry point.
#ifndef KOLO_SIM_SIM_H
#define KOLO_SIM_SIM_H

#include <cstdint>
#include <cstdio>
#include <string>

#include "kolo_model.h"
#include "kolo_route.h"
#include "sim_opts.h"

namespace kolo_sim {

// What a network hands back to the simulator core.
class Sink {
  public:
    virtual ~Sink() = default;
    // A whole packet arrived at the local port of node index `node` (header
    // flit 1 carries the scoreboard id in its address field). `checked` is
    // false the first time a packet is offered: the core checks it against the
    // scoreboard, restores the NI's header in p and sets checked. Returns
    // true when the NI took the packet; false: offer it again later (same p).
    virtual bool deliver(int node, kolo_pkt &p, bool &checked) = 0;
    // The head of packet `id` left router `node` (index) through network port
    // `port` on `vc`.
    virtual void hop(uint64_t id, int node, int port, int vc) = 0;
    // A fault of the network itself (framing, credits).
    virtual void net_error(const std::string &msg) = 0;
};

class Net {
  public:
    virtual ~Net() = default;
    virtual const char *name() const = 0;
    // Can the local port of node index src take this packet now?
    virtual bool can_send(int src, const kolo_pkt &p) = 0;
    // Inject (after can_send). Header flit 1's address is the scoreboard id.
    virtual void send(int src, const kolo_pkt &p, uint64_t now) = 0;
    // One core cycle. Returns true if anything moved.
    virtual bool step(uint64_t now) = 0;
    // Nothing in flight, queued or owed (credits): the network may be left
    // unstepped without changing anything.
    virtual bool idle() const = 0;
    virtual void dump(FILE *f) const = 0;
    // flits that crossed a local port, for the report
    virtual uint64_t flits_injected() const = 0;
};

// Ideal network (net_ideal.cpp).
Net *new_ideal_net(Sink *sink, const kolo_topo &t, unsigned hop_latency);

// Factory of the RTL network, linked only into kolo-sim-XxYxZ; fills err
// and returns NULL when the torus is not the one built in.
typedef Net *(*NetFactory)(Sink *sink, const kolo_topo &t, std::string *err);

// The whole program: rtl is NULL in the generic binary (kolo-sim), which
// then runs --net=rtl by exec'ing kolo-sim-XxYxZ from its own directory.
int sim_main(int argc, char **argv, NetFactory rtl, const char *rtl_torus);

} // namespace kolo_sim
#endif
