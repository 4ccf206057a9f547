// sim.h - kolo-sim internals: the network interface the simulator core uses
// (ideal C network or Verilated torus RTL) and the entry point.
#ifndef KOLO_SIM_SIM_H
#define KOLO_SIM_SIM_H

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "kolo_model.h"
#include "kolo_route.h"
#include "sim_opts.h"

namespace kolo_sim {

// The link leaving node index `node` through network port `port` arrives at
// its neighbour's port port ^ 1: that end's index neighbour * 6 + (port ^ 1)
// (the networks' per-port arrays and link_down bits are indexed node * 6 + port).
inline unsigned link_other_end(const kolo_topo &t, int node, int port) {
    uint16_t id = kolo_node_id_of_index(&t, static_cast<unsigned>(node));
    return kolo_node_index(&t, kolo_neighbor(&t, id, port)) * 6 + static_cast<unsigned>(port ^ 1);
}

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
    // Packet `id` was dropped whole at router `node` (index) because its
    // output `port` leads to a link that is down (or its next router is
    // down). Not an error: the end-to-end protocol of the NIs recovers it.
    virtual void dropped(uint64_t id, int node, int port) {
        (void)id, (void)node, (void)port;
        std::abort(); // every Sink that takes faults overrides this
    }
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
    // Fault injection: take the link that leaves node index `node` through
    // network port `port` (0..5), both of its directions, down (up=false)
    // or bring it back. From then on a packet whose next hop is that link is
    // dropped whole at the router before it (Sink::dropped) and counted;
    // the router never waits for a down link, so traffic behind it flows.
    virtual void set_link(int node, int port, bool up) {
        (void)node, (void)port, (void)up;
        std::abort(); // overridden by every network that supports faults
    }
    // Write an FST waveform of the RTL between cycles [from, to) to path,
    // one core cycle lasting ps_per_cycle picoseconds (the same time axis as
    // the system trace of --trace). False (err set) when this build cannot trace.
    virtual bool rtl_trace(const std::string &path, uint64_t from, uint64_t to, unsigned ps_per_cycle,
                           std::string *err) {
        (void)path, (void)from, (void)to, (void)ps_per_cycle;
        *err = "this network cannot write RTL waveforms";
        return false;
    }
    // packets dropped at down links so far
    virtual uint64_t fault_drops() const { return 0; }
    // Is a packet on its way whose path crosses this link later (fault
    // injection that must hit traffic)?
    virtual bool link_in_use(int node, int port) const {
        (void)node, (void)port;
        return true;
    }
};

// Ideal network (net_ideal.cpp).
Net *new_ideal_net(Sink *sink, const kolo_topo &t, unsigned hop_latency);

// Factory of the RTL network, linked only into kolo-sim-XxYxZ; fills err
// and returns NULL when the torus is not the one built in.
typedef Net *(*NetFactory)(Sink *sink, const kolo_topo &t, std::string *err);

// ---- the NI RTL (--ni=rtl): NIs, PCIe endpoints and torus in one Verilated
// model; kolo-sim's core plays the hosts (MMIO rings, PE memory) and checks.
class ClusterHost {
  public:
    virtual ~ClusterHost() = default;
    // Host memory of node index n (its PE's address space): 0, or -1 when
    // the access fails (counted by the core).
    virtual int host_mem(int node, uint64_t addr, void *buf, size_t len, bool write) = 0;
    // The answer to cluster MMIO read `token` of node n.
    virtual void mmio_read_done(int node, uint64_t token, uint64_t data, bool err) = 0;
    // Whole packets seen on node n's local port: injected by its NI into the
    // router, ejected by the router to its NI (in that order within a cycle).
    virtual void packet_injected(int node, const kolo_pkt &p) = 0;
    virtual void packet_ejected(int node, const kolo_pkt &p) = 0;
    // A rule broken (PCIe TLP rules, local port framing, router errors).
    virtual void cluster_error(const std::string &msg) = 0;
    // Faults (--svc): whole packet p, injected earlier by an NI, was dropped at
    // router node n because its output `port` leads to a down link.
    virtual void packet_dropped(int node, int port, const kolo_pkt &p) = 0;
    // An MGMT packet node n's NI handed to its service block (mgmt_rx).
    virtual void mgmt_received(int node, const kolo_pkt &p) = 0;
};

class SvcProcs;
class SvcHost;

class Cluster {
  public:
    virtual ~Cluster() = default;
    virtual const char *name() const { return "rtl (NIs: RTL)"; }
    // --net=chip: the cluster holds the service processors (its chips' own):
    // a new SvcProcs for the core (NULL: the core runs its models, svc.h), and
    // they install the routing tables themselves (no BAR0 route writes).
    virtual SvcProcs *service(SvcHost *host) {
        (void)host;
        return nullptr;
    }
    virtual bool routes_itself() const { return false; }
    // --rtl-trace (as Net::rtl_trace)
    virtual bool rtl_trace(const std::string &path, uint64_t from, uint64_t to, unsigned ps_per_cycle,
                           std::string *err) {
        (void)path, (void)from, (void)to, (void)ps_per_cycle;
        *err = "the NI RTL cannot write RTL waveforms (use --net=rtl or --net=chip)";
        return false;
    }
    // May node n's host issue another MMIO request now (PCIe flow control)?
    virtual bool mmio_ready(int node) = 0;
    virtual void mmio_write(int node, int bar, uint32_t off, const void *data, unsigned len) = 0;
    // answered later through ClusterHost::mmio_read_done(node, token, ...)
    virtual void mmio_read(int node, int bar, uint32_t off, unsigned len, uint64_t token) = 0;
    // One core cycle. Returns true if anything moved.
    virtual bool step(uint64_t now) = 0;
    // No flit between the NIs, no host request or device TLP outstanding
    // and nothing moved for a while: may be left unstepped.
    virtual bool idle() const = 0;
    virtual void dump(FILE *f) const = 0;
    virtual uint64_t flits_injected() const = 0;
    // NI counters: TX_PKTS, RX_PKTS, NAK_SENT, NAK_RCVD, BAD_PKTS, DMA_ERR
    virtual void ni_stats(int node, uint64_t out[6]) const = 0;
    // PCIe counters of the node for the report
    virtual std::string pcie_report(int node) const = 0;
    // --fault (KOLO_FAULT_CORRUPT/DROP/DUP: the N-th ejected packet as the
    // checkers see it; KOLO_FAULT_TLP: the N-th device TLP as the root
    // complex sees it), to show that the checkers notice
    virtual void set_fault(int kind, uint64_t n) = 0;
    // ---- faults (--svc) ----
    // take the link of node n's port `port` (both ends) down or up (kolo_torus link_down)
    virtual void set_link(int node, int port, bool up) = 0;
    // traffic on the link leaving node through port now (fault events at CYCLE+)
    virtual bool link_in_use(int node, int port) const {
        (void)node, (void)port;
        return true;
    }
    virtual uint64_t fault_drops() const = 0;
    // the service block of node n sends MGMT packet p (both header flits built)
    // through its NI's mgmt_tx port; mgmt_ready: it may now
    virtual bool mgmt_ready(int node) const = 0;
    virtual void mgmt_send(int node, const kolo_pkt &p) = 0;
    // node n's end-to-end counters (E2E_RETX, DUP_REQ, DUP_RESP, TIMEOUTS, UNREACH)
    virtual void e2e_stats(int node, uint64_t out[5]) const = 0;
    // transaction tags the NIs hold (operations not yet completed, including one
    // waiting for its end-to-end timeout with no flit moving)
    virtual unsigned tags_taken() const { return 0; }
};
typedef Cluster *(*ClusterFactory)(ClusterHost *host, const kolo_topo &t, std::string *err);

// The whole program: rtl is NULL in the generic binary (kolo-sim), which
// then runs --net=rtl by exec'ing kolo-sim-XxYxZ from its own directory.
// rtl_ni (kolo-sim-ni-XxYxZ only) builds the NI RTL cluster of rtl_torus;
// without it --ni=rtl execs kolo-sim-ni-XxYxZ.
// rtl_chip (kolo-sim-chip-XxYxZ only) builds the chips of --net=chip.
int sim_main(int argc, char **argv, NetFactory rtl, const char *rtl_torus,
             ClusterFactory rtl_ni = nullptr, ClusterFactory rtl_chip = nullptr);

} // namespace kolo_sim
#endif
