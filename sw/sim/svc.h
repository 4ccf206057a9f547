// svc.h - kolo-sim's service processors: one service block model
// (kolo_svc_model) and one native firmware instance (fw/kolo_fw.c) per node,
// their MGMT packets carried by the simulated network (--reroute=fw).
#ifndef KOLO_SIM_SVC_H
#define KOLO_SIM_SVC_H

#include <cstdint>
#include <cstdio>
#include <deque>
#include <string>
#include <vector>

#include "kolo_model.h"
#include "kolo_route.h"

struct kolo_svc_model;
struct kolo_fw;

namespace kolo_sim {

// What the service processors need from the simulator core.
class SvcHost {
  public:
    virtual ~SvcHost() = default;
    // Inject a MGMT packet at node index n's local port (header and payload
    // built; the core registers it with the scoreboard). false: not now.
    virtual bool svc_inject(int n, const kolo_pkt &p) = 0;
    // Make this node's NI route with `table` from now on (RT_EPOCH written).
    virtual void svc_install(int n, const kolo_route_entry *table, unsigned entries, uint16_t epoch) = 0;
};

struct SvcStats {
    uint64_t mgmt_sent = 0, mgmt_delivered = 0, mgmt_dropped = 0;
    uint64_t installs = 0;
};

// The service processors as the simulator core sees them: Svc (the service
// block models and native firmware, below), or the chips' own (--net=chip,
// net_chip.cpp). The methods are Svc's, documented there.
class SvcProcs {
  public:
    virtual ~SvcProcs() = default;
    virtual void boot(uint64_t now) = 0;
    virtual void step(uint64_t now) = 0;
    virtual void deliver(int n, const kolo_pkt &p) = 0;
    virtual void link_state(int n, int port, bool up) = 0;
    virtual void node_state(int n, bool up, uint64_t now) = 0;
    virtual bool settled() const = 0;
    virtual uint16_t installed_digest(int n) const = 0;
    virtual uint64_t last_install_time() const = 0;
    virtual int reg_read(int n, uint32_t addr, uint32_t *v) = 0;
    virtual int reg_write(int n, uint32_t addr, uint32_t v, bool host) = 0;
    virtual void report(FILE *f, bool per_node) const = 0;
    virtual const std::deque<std::string> &log(int n) const = 0;
    virtual bool node_up(int n) const = 0;
    virtual const kolo_route_entry *active_table(int n, uint16_t *epoch) const = 0;
    virtual void set_router(int n, uint8_t port_down, uint32_t fault_drops) = 0;
    virtual const SvcStats &stats() const = 0;
    virtual bool firmware_errors(std::string *why) const = 0;
};

// A firmware instance's register bus other than the service block model: the
// HAL (fw/kolo_hal.h) of a native firmware run by the simulator calls it when
// set (kolo-sim --net=chip: the chip's service block port).
class HalBus {
  public:
    virtual ~HalBus() = default;
    virtual uint32_t read32(uint32_t addr) = 0;
    virtual void write32(uint32_t addr, uint32_t value) = 0;
    virtual uint64_t time() = 0;
    virtual void log(const char *line) = 0;
};

class Svc : public SvcProcs {
  public:
    // compute_cycles: modelled time a PowerPC 440 takes for one table.
    Svc(SvcHost *host, const kolo_topo &t, uint64_t compute_cycles, bool verbose, FILE *log);
    ~Svc() override;
    Svc(const Svc &) = delete;
    Svc &operator=(const Svc &) = delete;
    // Boot every node's firmware (cycle `now`): links report up.
    void boot(uint64_t now) override;
    // One core cycle: time, pending MGMT sends, firmware steps that are due.
    void step(uint64_t now) override;
    // A MGMT packet arrived at node n's local port.
    void deliver(int n, const kolo_pkt &p) override;
    // Link status of node n's port p changed (fault injection).
    void link_state(int n, int port, bool up) override;
    // Node n failed (its firmware stops) or came back (reboots).
    void node_state(int n, bool up, uint64_t now) override;
    // Every live node has installed a table for the same fault digest, and
    // no firmware has work pending: the fault has been handled.
    bool settled() const override;
    // Digest of the fault set node n's installed table is for.
    uint16_t installed_digest(int n) const override;
    uint64_t last_install_time() const override;
    // Service register access for kolo-ctl (host=true: as through BAR0).
    int reg_read(int n, uint32_t addr, uint32_t *v) override;
    int reg_write(int n, uint32_t addr, uint32_t v, bool host) override;
    // the totals line; with per_node, a table of every node's firmware after it
    void report(FILE *f, bool per_node) const override;
    // the firmware's recent log lines of node n (oldest first)
    const std::deque<std::string> &log(int n) const override;
    bool node_up(int n) const override;
    // node n's active routing table (nodes entries) and epoch; NULL when down
    const kolo_route_entry *active_table(int n, uint16_t *epoch) const override;
    // router counters node n's service block shows (RTR_PORT_DOWN, RTR_FAULT_DROPS)
    void set_router(int n, uint8_t port_down, uint32_t fault_drops) override;
    const SvcStats &stats() const override { return stats_; }
    bool firmware_errors(std::string *why) const override;

    // (callbacks from the C side)
    int mgmt_send(int n, uint16_t dst, uint32_t rs, const uint32_t *w, unsigned nwords);
    void route_switch(int n, const kolo_route_entry *t, unsigned entries, uint16_t epoch);
    uint64_t now() const { return now_; }
    void log_line(int n, const char *line);

  private:
    struct Node;
    void start_node(unsigned i, uint64_t now);
    SvcHost *host_;
    kolo_topo topo_;
    unsigned nodes_;
    uint64_t compute_cycles_;
    bool verbose_;
    FILE *log_;
    uint64_t now_ = 0;
    std::vector<Node *> node_;
    std::vector<uint8_t> ws_;
    std::vector<kolo_route_entry> set_;
    SvcStats stats_;
};

} // namespace kolo_sim

// The HAL context of a native firmware instance in the simulator: its node's
// service block model, or (bus set) another register bus.
struct kolo_hal {
    kolo_sim::Svc *svc;
    int node;
    kolo_svc_model *m;
    kolo_sim::HalBus *bus;
};
#endif
