// sim_core.h - kolo-sim internals shared by the files of the simulator core:
// the Sim object (one per run: torus, NIs, network, PEs, checkers, service
// processors), its per-node and per-PE records, and small helpers.
//   sim.cpp         the run loop, the trace window, the report, sim_main
//   sim_pes.cpp     shared memory, the PEs (fork, reap, kill), MMIO rings, DMA
//   sim_oracle.cpp  what the NIs send and receive: scoreboard, NI oracle
//                   (plain and end to end), the RTL NIs' local ports
//   sim_faults.cpp  fault events, service processors, installed-table checks,
//                   kolo-ctl commands
#ifndef KOLO_SIM_CORE_H
#define KOLO_SIM_CORE_H

#include <signal.h>
#include <sys/types.h>

#include <cstdint>
#include <cstdio>
#include <ctime>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "kolo_ni_model.h"
#include "kolo_sim_shm.h"
#include "ctl.h"
#include "fast_ni.h"
#include "sim.h"
#include "svc.h"
#include "trace.h"

namespace kolo_sim {

inline double now_s() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

extern volatile sig_atomic_t g_sigchld; // a PE changed state (SIGCHLD)
extern volatile sig_atomic_t g_stop;    // SIGINT/TERM/HUP: the signal
extern const char *const kOpNames[16];
extern const char *const kPortNames[6];
std::string node_name(uint16_t id);
std::string strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));


constexpr uint64_t kResvMask = 0x1full << 59; // header flit 0 bits 63:59 (NI's lastb/asize/fetch)
constexpr uint64_t kIdleStep = 256;           // cycles per idle sleep
constexpr unsigned kIdleAfter = 2000;         // idle cycles before the simulator sleeps
constexpr unsigned kMaxSleepUs = 200;
constexpr uint64_t kNetWatchdog = 200000; // cycles without progress in a busy network

inline bool is_request(unsigned op) {
    return op != KOLO_OP_GET_RESP && op != KOLO_OP_ACK && op != KOLO_OP_NAK;
}
inline bool is_atomic(unsigned op) {
    return (op >= KOLO_OP_ADD && op <= KOLO_OP_CSWAP) || op == KOLO_OP_FETCH_AND ||
           op == KOLO_OP_FETCH_OR;
}


struct Sim;

struct Node {
    Sim *sim = nullptr;
    int index = 0;
    uint16_t id = 0;
    int pe = -1;
    kolo_ni *ni = nullptr;
    uint64_t dma_rd = 0, dma_wr = 0, dma_fail = 0, msi = 0, rx = 0, tx = 0;
};

struct Pe {
    pid_t pid = -1; // forked child
    bool reaped = false;
    bool killed_by_us = false;
    int status = 0; // kolo-run convention (exit code or 128+signal)
    std::string how;
    uint64_t mmio = 0;
    uint64_t gone_reads = 0, gone_writes = 0; // --fail-card: answered all ones / dropped
    bool attached = false;
};

struct Side { // what the network must give back at delivery
    uint64_t h1;
    uint8_t resv;
};

struct Req { // NI oracle: a request waiting for its response
    uint8_t op;
    uint8_t want; // KOLO_OP_ACK or KOLO_OP_GET_RESP
    uint8_t resp_len;
    bool delivered = false, responded = false;
};

// The NI RTL cluster seen as the simulator core's network: it holds the NIs
// and the torus; packets reach the core through ClusterHost, never send().
class ClusterNet : public Net {
  public:
    // busy: the core knows of work the cluster cannot see (an RTL NI waiting to
    // retransmit end to end, with no flit moving): the cluster must keep ticking
    ClusterNet(Cluster *c, std::function<bool()> busy) : c_(c), busy_(std::move(busy)) {}
    const char *name() const override { return c_->name(); }
    bool rtl_trace(const std::string &path, uint64_t from, uint64_t to, unsigned ps_per_cycle,
                   std::string *err) override {
        return c_->rtl_trace(path, from, to, ps_per_cycle, err);
    }
    // only the service blocks send through the core: MGMT to the NI's mgmt_tx port
    bool can_send(int src, const kolo_pkt &) override { return c_->mgmt_ready(src); }
    void send(int src, const kolo_pkt &p, uint64_t) override { c_->mgmt_send(src, p); }
    bool step(uint64_t now) override { return c_->step(now); }
    bool idle() const override { return c_->idle() && !busy_(); }
    void dump(FILE *f) const override { c_->dump(f); }
    uint64_t flits_injected() const override { return c_->flits_injected(); }
    void set_link(int node, int port, bool up) override { c_->set_link(node, port, up); }
    uint64_t fault_drops() const override { return c_->fault_drops(); }
    bool link_in_use(int node, int port) const override { return c_->link_in_use(node, port); }

  private:
    Cluster *c_;
    std::function<bool()> busy_;
};

// packets on the RTL local ports are matched by content (the route state in
// header flit 0 bits 58:36 changes on the way)
uint64_t pkt_key(const kolo_pkt &p);

struct E2eReq { // NI oracle with end-to-end retransmission: one per (requester, target, tag, gen)
    uint8_t op, want, resp_len;
    uint32_t sent = 1, delivered = 0, responses = 0;
    bool done = false; // its response reached the requester
};

struct FaultRecord { // a fault event and how long the firmware took to handle it
    uint64_t cycle;
    std::string what;
    uint64_t settled = 0; // last table installed (0: not yet)
    uint16_t digest = 0;
};

struct Sim : public Sink, public ClusterHost, public SvcHost, public FastHost {
    kolo_sim_opts o{};
    char **argv = nullptr;
    std::string prog_path;
    kolo_topo topo{};
    unsigned nodes = 0, npes = 0;
    kolo_model *model = nullptr;
    std::unique_ptr<Net> net;
    std::unique_ptr<Cluster> cluster; // --ni=rtl: NIs and torus (net wraps it)
    std::unique_ptr<FastNet> fast;    // --fast: NIs and network at transaction level
    uint64_t writes_to_pes = 0;       // pe_wrote calls (--fast: a PE has something to see)
    ClusterFactory ni_factory = nullptr;
    // pkt_key -> {id, route state fields that never change on the way} in flight
    std::unordered_map<uint64_t, std::vector<std::pair<uint64_t, uint32_t>>> rtl_ids;
    uint64_t rtl_take_id(const kolo_pkt &p);
    std::vector<std::vector<uint32_t>> rtl_routes; // --ni=rtl: route entries written to each NI
    std::vector<Node> node;
    std::vector<Pe> pe;
    std::string shm_name;
    kolo_sim_shm *shm = nullptr;
    size_t shm_size = 0;
    bool shm_unlinked = false;

    uint64_t cycle = 0, stepped = 0, next_id = 1;
    double t_start = 0, t_first_fail = -1;
    std::unordered_map<uint64_t, Side> side;
    std::unordered_map<uint64_t, std::vector<Req>> reqs; // by req_key
    uint64_t oracle_waiting = 0;                         // requests in reqs
    uint64_t op_pkts[16] = {}, op_flits[16] = {};
    uint64_t oracle_reqs = 0, oracle_resps = 0, oracle_naks = 0;

    // outcome
    bool failed_check = false, timed_out = false, interrupted = false, global_exit = false,
         killed_rest = false;
    bool have_status = false;
    int status = 0;
    std::string check_msg, end_msg;
    int first_failed_pe = -1;

    Net *(*rtl_factory)(Sink *, const kolo_topo &, std::string *) = nullptr;

    // --fault
    uint64_t fault_count = 0;
    bool fault_done = false, holding = false;
    kolo_pkt held{};
    int held_node = -1;
    uint64_t held_cycle = 0;
    // network watchdog
    uint64_t net_last_move = 0;

    // ---- service processors, faults, end-to-end (docs/firmware.md) ----
    std::unique_ptr<SvcProcs> svc;
    std::unique_ptr<CtlServer> ctl;
    bool e2e = false;
    std::vector<uint8_t> node_up;    // by node index
    std::vector<uint8_t> cable_down; // node index * 6 + port: the cable failed (both ends)
    std::vector<uint8_t> link_up;    // the link works (cable and both nodes)
    std::vector<kolo_sim_event> events;
    size_t next_event = 0;
    std::vector<FaultRecord> faults;
    std::unordered_map<uint64_t, E2eReq> ereqs;
    uint64_t oracle_retx = 0, oracle_dup_resps = 0, oracle_abandoned = 0, oracle_repeats = 0;
    uint64_t dead_drops = 0, mgmt_drops = 0, fault_drops_seen = 0;
    uint64_t max_wait = 0;      // longest an operation waited (cycles) since the first fault
    uint64_t first_fault = 0;   // cycle of the first fault event (0: none yet)
    std::vector<uint32_t> node_fault_drops;
    // --trace
    VcdTrace vcd;
    uint64_t trace_from = 0, trace_to = 0;
    struct NodeSigs {
        int up, ports_down, fw_stage, epoch, waiting, tx, rx;
    };
    std::vector<NodeSigs> tsig;
    int t_event = -1, t_drops = -1, t_retx = -1, t_settled = -1, t_cycle_us = -1;
    uint64_t n_events_applied = 0;
    bool trace_setup(std::string *err);
    void trace_sample();

    ~Sim() override;
    int run();

    // ---- outcome ----------------------------------------------------------------
    void set_status(int s) {
        if (!have_status) {
            have_status = true;
            status = s;
        }
    }
    void check_fail(const std::string &msg) {
        if (failed_check)
            return;
        failed_check = true;
        check_msg = msg;
        std::fprintf(stderr, "kolo-sim: cycle %" PRIu64 ": %s\n", cycle, msg.c_str());
        set_status(KOLO_SIM_EXIT_CHECK);
    }

    // ---- Sink ---------------------------------------------------------------------
    bool deliver(int n, kolo_pkt &p, bool &checked) override;
    void hop(uint64_t id, int n, int port, int vc) override {
        if (failed_check)
            return;
        int rc = kolo_model_hop(model, id, node[n].id, port, vc);
        if (rc != KOLO_OK)
            check_fail(strf("scoreboard: hop of packet %#" PRIx64 " leaving %s port %d vc %d: %s",
                            id, node_name(node[n].id).c_str(), port, vc,
                            kolo_model_last_error(model)));
    }
    void net_error(const std::string &msg) override { check_fail("network: " + msg); }
    void dropped(uint64_t id, int n, int port) override {
        fault_drops_seen++;
        node_fault_drops[static_cast<size_t>(n)]++;
        forget(id, n, port);
    }
    // a packet that will never be delivered: the scoreboard lets it go
    void forget(uint64_t id, int n, int port) {
        if (failed_check)
            return;
        id &= KOLO_MODEL_ID_MASK;
        side.erase(id);
        if (kolo_model_drop(model, id, node[static_cast<size_t>(n)].id, port) != KOLO_OK)
            check_fail(strf("scoreboard: drop of packet %#" PRIx64 " at %s port %d: %s", id,
                            node_name(node[static_cast<size_t>(n)].id).c_str(), port,
                            kolo_model_last_error(model)));
    }

    // ---- SvcHost ---------------------------------------------------------------------
    bool svc_inject(int n, const kolo_pkt &p) override;
    void svc_install(int n, const kolo_route_entry *table, unsigned entries,
                     uint16_t epoch) override;
    // ---- faults ----------------------------------------------------------------------
    bool boot_service(std::string *err);
    void apply_event(const kolo_sim_event &e);
    void check_installed_tables();
    uint64_t tables_checked = 0, unrouted_pairs = 0, boot_cycles = 0;
    void update_link(int n, int port);
    void watch_faults();
    std::string ctl_command(const std::vector<std::string> &a);
    void e2e_oracle_send(const kolo_pkt &p);
    void e2e_oracle_deliver(const kolo_pkt &p);
    void e2e_oracle_end();
    void e2e_record_check(bool final);
    // node index of the neighbour of node index n through network port p
    int neighbor_index(int n, int p) const {
        return static_cast<int>(
            kolo_node_index(&topo, kolo_neighbor(&topo, node[static_cast<size_t>(n)].id, p)));
    }
    // bit p: node index n's link through port p does not work
    uint8_t ports_down(unsigned n) const {
        uint8_t down = 0;
        for (int p = 0; p < 6; p++)
            if (kolo_port_present(&topo, p) && !link_up[n * 6 + p])
                down |= static_cast<uint8_t>(1u << p);
        return down;
    }
    // the end-to-end counters of every NI, added up
    kolo_ni_e2e_stats e2e_totals() const {
        kolo_ni_e2e_stats tot{};
        if (cluster) { // the RTL NIs' E2E_* counters
            for (unsigned n = 0; n < nodes; n++) {
                uint64_t c[5];
                cluster->e2e_stats(static_cast<int>(n), c);
                tot.retransmits += c[0];
                tot.dup_requests += c[1];
                tot.dup_responses += c[2];
                tot.timeouts += c[3];
                tot.unreachable += c[4];
            }
            return tot;
        }
        for (const Node &nd : node) {
            kolo_ni_e2e_cfg c;
            kolo_ni_e2e_stats st;
            if (!nd.ni)
                continue;
            kolo_ni_get_e2e(nd.ni, &c, &st);
            tot.retransmits += st.retransmits;
            tot.dup_requests += st.dup_requests;
            tot.dup_responses += st.dup_responses;
            tot.timeouts += st.timeouts;
            tot.unreachable += st.unreachable;
        }
        return tot;
    }
    uint64_t ni_give_ups() const {
        kolo_ni_e2e_stats t = e2e_totals();
        return t.timeouts + t.unreachable;
    }

    // ---- ClusterHost (--ni=rtl) -------------------------------------------------------
    int host_mem(int n, uint64_t addr, void *buf, size_t len, bool write) override {
        return dma(node[static_cast<size_t>(n)], addr, buf, len, write);
    }
    void mmio_read_done(int n, uint64_t token, uint64_t data, bool err) override;
    void packet_injected(int n, const kolo_pkt &p) override;
    void packet_ejected(int n, const kolo_pkt &p) override;
    void cluster_error(const std::string &msg) override { check_fail("NI RTL: " + msg); }
    void packet_dropped(int n, int port, const kolo_pkt &p) override;
    void mgmt_received(int n, const kolo_pkt &p) override {
        if (svc)
            svc->deliver(n, p);
        else
            mgmt_drops++;
    }
    void rtl_write_routes(int n, const kolo_route_entry *table, unsigned entries);
    bool check_sent(Node &nd, const kolo_pkt *p);

    // ---- NI environment -------------------------------------------------------------
    int dma(Node &nd, uint64_t addr, void *buf, size_t len, bool write);
    int ni_send(Node &nd, const kolo_pkt *p);
    int faulty_send(Node &nd, const kolo_pkt *p, kolo_pkt &q);
    void oracle_send(const kolo_pkt &p);
    void oracle_deliver(const kolo_pkt &p);

    // ---- PEs ------------------------------------------------------------------------
    bool create_shm(std::string *err);
    void start_pes();
    void reap();
    void reap_server();                      // --server: by the slots and the pids
    bool server_name_free(std::string *err); // --server: the segment name
    void announce_server();
    unsigned kill_rest(const char *why); // nonzero: it stopped someone
    bool all_detached() const { // every PE has left the segment (or is gone)
        for (unsigned i = 0; i < npes; i++)
            if (!pe[i].reaped && __atomic_load_n(&kolo_sim_shm_pe_slot(shm, i)->state,
                                                 __ATOMIC_ACQUIRE) != KOLO_PE_EXITED)
                return false;
        return true;
    }
    bool all_reaped() const {
        for (const Pe &x : pe)
            if (!x.reaped)
                return false;
        return true;
    }
    bool drain_rings(bool *bad);
    // ---- --det: deterministic co-simulation (sim_pes.cpp) ----
    std::vector<uint8_t> det_free; // the PE stalled out: it holds time back no more
    std::vector<double> det_since; // wall time it was first seen running in this hold
    std::vector<uint64_t> det_wake; // a poll's wake cycle (kolo_pe_slot wake_after); 0: none
    uint64_t det_waits = 0, det_stalls = 0;
    // --det: a step (from det_hold's "every PE blocked" to det_flush) is under way: the
    // writes into PEs are made known (dma_seq, futex) only at its end, all at once
    bool det_step = false;
    std::vector<uint8_t> det_pending; // a PE written to in this step
    bool det_looked = false;          // --det: the PEs had their look before "stuck"
    void pe_wrote(int pe);         // bump its dma_seq (after a write into it)
    void pe_bump(unsigned pe);     // make the writes into it known (dma_seq, futex wake)
    void det_flush();              // --det: end of a step: the deferred bumps and wakes
    bool pe_blocked(unsigned i) const;
    bool det_hold();
    bool det_stuck() const; // every PE waits, nothing in flight or scheduled
    bool det_partial() const; // a PE waits with a thread outside every wait
    uint64_t det_wake_next() const; // --det: the earliest cycle a poll asked to be woken at
    bool det_wake_due();            // --det: wake the polls whose cycle has come (any?)
    void det_wake_take();           // --det, every PE blocked: the polls' wake_after
    bool rings_empty() const;
    // --fail-card: PE i's card answers its host no more (from o.fail_card_at on)
    bool card_gone(unsigned i) const {
        return o.fail_card == static_cast<int>(i) + 1 && cycle >= o.fail_card_at;
    }
    bool nis_idle() const {
        if (fast && !fast->idle())
            return false;
        for (const Node &nd : node)
            if (nd.ni && !kolo_ni_idle(nd.ni))
                return false;
        return true;
    }
    void dump_state(FILE *f);
    void report(FILE *f, double wall, bool full);
    uint64_t csr(int n, uint32_t off, unsigned size = 8) {
        uint64_t v = 0;
        if (fast)
            return fast->mmio_read(n, 0, off, size, &v) ? ~0ull : v;
        if (!node[n].ni || kolo_ni_mmio_read(node[n].ni, 0, off, size, &v))
            v = ~0ull;
        return v;
    }
};

// NI model environment callbacks (user: the Node)
int env_dma_read(void *user, uint64_t addr, void *buf, size_t len);
int env_dma_write(void *user, uint64_t addr, const void *buf, size_t len);
int env_send(void *user, const kolo_pkt *p);
void env_msi(void *user, unsigned);

} // namespace kolo_sim
#endif
