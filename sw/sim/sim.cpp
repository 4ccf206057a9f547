// sim.cpp - kolo-sim: one process simulating an N-node kolo torus with its
// NIs (C NI model), running the application processes (PEs) it forks.
//
// Per core cycle: take MMIO requests from the PEs' rings (bounded, in order
// per PE; reads answered in the ring's response slot), step every NI, step
// the network, publish sim_cycle. NI DMA goes to the PE's address space with
// process_vm_readv/writev. Every packet on the network is checked by the
// reference model (kolo_model: delivered once, at the right node, unchanged,
// ordered ones in order, path) and by a cheap NI-level oracle (each request
// answered exactly once by a response that fits it). See docs/sim.md.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "kolo_ni_model.h"
#include "kolo_sim_shm.h"
#include "kolo_svc_regs.h"
#include "ctl.h"
#include "sim.h"
#include "svc.h"
#include "trace.h"

namespace kolo_sim {
namespace {

volatile sig_atomic_t g_sigchld = 0;
volatile sig_atomic_t g_stop = 0;

void on_sigchld(int) { g_sigchld = 1; }
void on_stop(int sig) { g_stop = sig; }

double now_s() {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

const char *const kOpNames[16] = {"PUT",       "GET_REQ",  "GET_RESP", "ADD", "XOR", "FETCH_ADD",
                                  "FETCH_XOR", "SWAP",     "CSWAP",    "ACK", "NAK", "MGMT",
                                  "FETCH_AND", "FETCH_OR", "op14",     "op15"};

const char *const kPortNames[6] = {"X+", "X-", "Y+", "Y-", "Z+", "Z-"};

std::string node_name(uint16_t id) {
    char b[32];
    std::snprintf(b, sizeof b, "(%u,%u,%u)", id & 15u, (id >> 4) & 15u, (id >> 8) & 15u);
    return b;
}

std::string strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
std::string strf(const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}

constexpr uint64_t kResvMask = 0x1full << 59; // header flit 0 bits 63:59 (NI's lastb/asize/fetch)
constexpr uint64_t kIdleStep = 256;           // cycles per idle sleep
constexpr unsigned kIdleAfter = 2000;         // idle cycles before the simulator sleeps
constexpr unsigned kMaxSleepUs = 200;
constexpr uint64_t kNetWatchdog = 200000; // cycles without progress in a busy network

bool is_request(unsigned op) {
    return op != KOLO_OP_GET_RESP && op != KOLO_OP_ACK && op != KOLO_OP_NAK;
}
bool is_atomic(unsigned op) {
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
    const char *name() const override { return "rtl (NIs: RTL)"; }
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
uint64_t pkt_key(const kolo_pkt &p) {
    auto mix = [](uint64_t h, uint64_t v) {
        h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ull;
        return h ^ (h >> 31);
    };
    uint64_t h = mix(0, p.header[0] & ~(0x7fffffull << 36));
    h = mix(h, p.header[1]);
    h = mix(h, p.len);
    for (unsigned i = 0; i < p.len; i++)
        h = mix(h, p.payload[i]);
    return h;
}

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

struct Sim : public Sink, public ClusterHost, public SvcHost {
    kolo_sim_opts o{};
    char **argv = nullptr;
    std::string prog_path;
    kolo_topo topo{};
    unsigned nodes = 0, npes = 0;
    kolo_model *model = nullptr;
    std::unique_ptr<Net> net;
    std::unique_ptr<Cluster> cluster; // --ni=rtl: NIs and torus (net wraps it)
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
    std::unique_ptr<Svc> svc;
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
    void kill_rest(const char *why);
    bool all_reaped() const {
        for (const Pe &x : pe)
            if (!x.reaped)
                return false;
        return true;
    }
    bool drain_rings(bool *bad);
    bool rings_empty() const;
    bool nis_idle() const {
        for (const Node &nd : node)
            if (nd.ni && !kolo_ni_idle(nd.ni))
                return false;
        return true;
    }
    void dump_state(FILE *f);
    void report(FILE *f, double wall);
    uint64_t csr(int n, uint32_t off, unsigned size = 8) {
        uint64_t v = 0;
        if (!node[n].ni || kolo_ni_mmio_read(node[n].ni, 0, off, size, &v))
            v = ~0ull;
        return v;
    }
};

// ---- NI environment callbacks ----------------------------------------------------------
int env_dma_read(void *user, uint64_t addr, void *buf, size_t len) {
    Node *nd = static_cast<Node *>(user);
    return nd->sim->dma(*nd, addr, buf, len, false);
}
int env_dma_write(void *user, uint64_t addr, const void *buf, size_t len) {
    Node *nd = static_cast<Node *>(user);
    return nd->sim->dma(*nd, addr, const_cast<void *>(buf), len, true);
}
int env_send(void *user, const kolo_pkt *p) {
    Node *nd = static_cast<Node *>(user);
    return nd->sim->ni_send(*nd, p);
}
void env_msi(void *user, unsigned) { static_cast<Node *>(user)->msi++; }

int Sim::dma(Node &nd, uint64_t addr, void *buf, size_t len, bool write) {
    if (len == 0)
        return 0;
    if (nd.pe < 0) {
        nd.dma_fail++;
        return -1;
    }
    Pe &x = pe[static_cast<size_t>(nd.pe)];
    kolo_pe_slot *slot = kolo_sim_shm_pe_slot(shm, static_cast<uint32_t>(nd.pe));
    uint32_t st = __atomic_load_n(&slot->state, __ATOMIC_ACQUIRE);
    // only a live, attached PE: a reaped pid may already belong to someone else
    if (x.reaped || st != KOLO_PE_RUNNING || slot->pid <= 0) {
        nd.dma_fail++;
        return -1;
    }
    struct iovec local = {buf, len};
    struct iovec remote = {reinterpret_cast<void *>(static_cast<uintptr_t>(addr)), len};
    ssize_t r = write ? process_vm_writev(slot->pid, &local, 1, &remote, 1, 0)
                      : process_vm_readv(slot->pid, &local, 1, &remote, 1, 0);
    if (r != static_cast<ssize_t>(len)) {
        nd.dma_fail++;
        if (o.verbose > 1)
            std::fprintf(stderr,
                         "kolo-sim: DMA %s of %zu bytes at %#" PRIx64 " in PE %d failed (%s)\n",
                         write ? "write" : "read", len, addr, nd.pe,
                         r < 0 ? std::strerror(errno) : "partial");
        return -1;
    }
    (write ? nd.dma_wr : nd.dma_rd) += len;
    return 0;
}

// The NI oracle's checks of a packet an NI sends; false (and the run fails)
// when it is malformed.
bool Sim::check_sent(Node &nd, const kolo_pkt *p) {
    uint64_t h0 = p->header[0];
    unsigned src = (h0 >> 12) & 0xfff, dst = h0 & 0xfff, op = (h0 >> 24) & 0xf,
             vnet = (h0 >> 28) & 1, len = (h0 >> 29) & 0x3f, ordered = (h0 >> 35) & 1;
    if (src != nd.id || len != p->len || len > KOLO_MAX_PAYLOAD || vnet != p->vnet ||
        ordered != p->ordered ||
        vnet != (is_request(op) && op != KOLO_OP_MGMT ? 0u : 1u)) { // MGMT: the RTL NIs' mgmt_tx
        check_fail(strf(
            "NI oracle: NI %s sent a malformed packet: header %#" PRIx64 " %#" PRIx64
            " (src %s, op %s, vnet %u, len %u, ordered %u; kolo_pkt len %u vnet %u ordered %u)",
            node_name(nd.id).c_str(), h0, p->header[1],
            node_name(static_cast<uint16_t>(src)).c_str(), kOpNames[op], vnet, len, ordered, p->len,
            p->vnet, p->ordered));
        return false;
    }
    if (!kolo_node_in_topo(&topo, static_cast<uint16_t>(dst))) {
        check_fail(strf("NI oracle: NI %s sent %s to %s, outside the torus",
                        node_name(nd.id).c_str(), kOpNames[op],
                        node_name(static_cast<uint16_t>(dst)).c_str()));
        return false;
    }
    return true;
}

int Sim::ni_send(Node &nd, const kolo_pkt *p) {
    if (failed_check)
        return -1; // the run is ending: hold everything
    if (!check_sent(nd, p))
        return 0;
    uint64_t h0 = p->header[0];
    unsigned src = (h0 >> 12) & 0xfff, dst = h0 & 0xfff, op = (h0 >> 24) & 0xf,
             vnet = (h0 >> 28) & 1, len = (h0 >> 29) & 0x3f, ordered = (h0 >> 35) & 1;
    if (!net->can_send(nd.index, *p))
        return -1;
    uint64_t id = next_id++ & KOLO_MODEL_ID_MASK;
    kolo_pkt q = *p;
    q.id = id;
    q.src = static_cast<uint16_t>(src);
    q.dst = static_cast<uint16_t>(dst);
    q.op = static_cast<uint8_t>(op);
    q.header[1] = (p->header[1] & ~KOLO_MODEL_ID_MASK) | id;
    kolo_pkt m = q; // the model builds flit 0 without the NI's bits 63:59
    m.header[0] &= ~kResvMask;
    int rc = kolo_model_inject(model, &m);
    if (rc != KOLO_OK) {
        check_fail(strf("scoreboard: NI %s sent a packet the model refuses: %s",
                        node_name(nd.id).c_str(), kolo_model_last_error(model)));
        return 0;
    }
    side[id] = Side{p->header[1], static_cast<uint8_t>(h0 >> 59)};
    oracle_send(*p);
    op_pkts[op]++;
    op_flits[op] += len + 2;
    nd.tx++;
    if (o.fault && !fault_done)
        return faulty_send(nd, p, q);
    if (holding && held_node == nd.index &&
        (held.header[0] & 0xffffff) == (q.header[0] & 0xffffff) &&
        ((held.header[0] >> 28) & 1) == vnet && ordered) {
        // --fault=reorder: the held packet goes after this later one of its flow
        net->send(nd.index, q, cycle);
        net->send(held_node, held, cycle);
        holding = false;
        return 0;
    }
    net->send(nd.index, q, cycle);
    return 0;
}

int Sim::faulty_send(Node &nd, const kolo_pkt *p, kolo_pkt &q) {
    unsigned op = (q.header[0] >> 24) & 0xf, ordered = (q.header[0] >> 35) & 1;
    switch (o.fault) {
    case KOLO_FAULT_CORRUPT:
        if (++fault_count == o.fault_n) {
            fault_done = true;
            if (q.len)
                q.payload[q.len - 1] ^= 1ull << 17;
            else
                q.header[1] ^= 1ull << 50; // the tag
        }
        break;
    case KOLO_FAULT_DROP:
        if (++fault_count == o.fault_n) {
            fault_done = true;
            return 0;
        }
        break;
    case KOLO_FAULT_DUP:
        if (++fault_count == o.fault_n) {
            fault_done = true;
            net->send(nd.index, q, cycle);
        }
        break;
    case KOLO_FAULT_REORDER:
        if (ordered && q.len && ++fault_count >= o.fault_n && !holding) {
            fault_done = true;
            holding = true;
            held = q;
            held_node = nd.index;
            held_cycle = cycle;
            return 0;
        }
        break;
    case KOLO_FAULT_RESP2:
        if (!is_request(op) && ++fault_count == o.fault_n) {
            fault_done = true;
            net->send(nd.index, q, cycle);
            return ni_send(nd, p); // the NI answers again
        }
        break;
    }
    net->send(nd.index, q, cycle);
    return 0;
}

static uint64_t req_key(unsigned requester, unsigned target, unsigned tag) {
    return (static_cast<uint64_t>(requester) << 20) | (static_cast<uint64_t>(target) << 8) | tag;
}

// What a request expects back.
static Req expect_of(const kolo_pkt &p) {
    uint64_t h0 = p.header[0];
    unsigned op = (h0 >> 24) & 0xf;
    Req r;
    r.op = static_cast<uint8_t>(op);
    r.want = KOLO_OP_ACK;
    r.resp_len = 0;
    if (op == KOLO_OP_GET_REQ) {
        unsigned nbytes = p.len ? static_cast<unsigned>(p.payload[0] & 0x1ff) : 0;
        r.want = KOLO_OP_GET_RESP;
        r.resp_len = static_cast<uint8_t>((nbytes + 7) / 8);
    } else if (is_atomic(op) && ((h0 >> 62) & 1)) {
        r.want = KOLO_OP_GET_RESP;
        r.resp_len = 1;
    }
    return r;
}

// The C NI model gives every packet its own tag; the NI RTL one tag per
// operation, shared by the packets of a long PUT/GET (each answered on its
// own). So with --ni=rtl several requests may wait under one (requester,
// target, tag); a response answers one of them that has arrived and fits.
void Sim::oracle_send(const kolo_pkt &p) {
    uint64_t h0 = p.header[0];
    unsigned src = (h0 >> 12) & 0xfff, dst = h0 & 0xfff, op = (h0 >> 24) & 0xf,
             tag = (p.header[1] >> 48) & 0xff;
    if (op == KOLO_OP_MGMT)
        return;
    if (e2e) {
        e2e_oracle_send(p);
        return;
    }
    if (is_request(op)) {
        uint64_t k = req_key(src, dst, tag);
        auto it = reqs.find(k);
        if (it != reqs.end() && !it->second.empty() && !cluster) {
            check_fail(strf("NI oracle: NI %s sent %s with tag %u to %s while its earlier %s with "
                            "that tag has no "
                            "response yet",
                            node_name(static_cast<uint16_t>(src)).c_str(), kOpNames[op], tag,
                            node_name(static_cast<uint16_t>(dst)).c_str(),
                            kOpNames[it->second.front().op]));
            return;
        }
        reqs[k].push_back(expect_of(p));
        oracle_reqs++;
        oracle_waiting++;
        return;
    }
    uint64_t k = req_key(dst, src, tag);
    auto it = reqs.find(k);
    std::string what =
        strf("NI %s sent %s tag %u to %s", node_name(static_cast<uint16_t>(src)).c_str(),
             kOpNames[op], tag, node_name(static_cast<uint16_t>(dst)).c_str());
    if (it == reqs.end() || it->second.empty()) {
        check_fail("NI oracle: " + what +
                   " but no request with that tag is waiting for a response");
        return;
    }
    auto fits = [&](const Req &r) {
        return op == KOLO_OP_NAK ||
               (op == r.want && (op != KOLO_OP_GET_RESP || p.len == r.resp_len));
    };
    Req *pick = nullptr, *open = nullptr;
    for (Req &r : it->second) {
        if (!r.delivered || r.responded)
            continue;
        if (!open)
            open = &r;
        if (fits(r)) {
            pick = &r;
            break;
        }
    }
    if (!pick) {
        Req &r = open ? *open : it->second.front();
        bool any_open = false;
        for (const Req &x : it->second)
            any_open = any_open || !x.responded;
        if (!open && any_open) {
            check_fail("NI oracle: " + what + " before the request it answers had arrived");
        } else if (!open) {
            check_fail("NI oracle: " + what + ": a second response to one " + kOpNames[r.op]);
        } else if (op != KOLO_OP_NAK && op != r.want) {
            check_fail("NI oracle: " + what + " in answer to " + kOpNames[r.op] + " (expected " +
                       kOpNames[r.want] + " or NAK)");
        } else {
            check_fail(strf("NI oracle: %s with %u payload flits in answer to %s (expected %u)",
                            what.c_str(), p.len, kOpNames[r.op], r.resp_len));
        }
        pick = &r;
    }
    pick->responded = true;
    oracle_resps++;
    if (op == KOLO_OP_NAK)
        oracle_naks++;
}

void Sim::oracle_deliver(const kolo_pkt &p) {
    uint64_t h0 = p.header[0];
    unsigned src = (h0 >> 12) & 0xfff, dst = h0 & 0xfff, op = (h0 >> 24) & 0xf,
             tag = (p.header[1] >> 48) & 0xff;
    if (op == KOLO_OP_MGMT)
        return;
    if (e2e) {
        e2e_oracle_deliver(p);
        return;
    }
    if (is_request(op)) {
        auto it = reqs.find(req_key(src, dst, tag));
        if (it == reqs.end())
            return;
        Req e = expect_of(p);
        for (Req &r : it->second)
            if (!r.delivered && r.op == e.op && r.want == e.want && r.resp_len == e.resp_len) {
                r.delivered = true;
                break;
            }
    } else {
        auto it = reqs.find(req_key(dst, src, tag));
        if (it == reqs.end())
            return;
        for (size_t i = 0; i < it->second.size(); i++)
            if (it->second[i].responded) {
                it->second.erase(it->second.begin() + static_cast<long>(i));
                oracle_waiting--;
                break;
            }
        if (it->second.empty())
            reqs.erase(it);
    }
}

// ---- NI oracle with end-to-end retransmission ----------------------------------------------
// Requests may be sent again (same tag and generation) and answered again
// from the target's record; responses may be lost or repeated. What must
// hold: a response answers a request that has arrived, fits it, and the
// target answers no more often than the request arrived. Keys carry the
// generation bit (header flit 0 bit 63) so the next use of a tag is new.
static uint64_t e2e_key(unsigned requester, unsigned target, unsigned tag, unsigned gen) {
    return req_key(requester, target, tag) | static_cast<uint64_t>(gen & 1) << 40;
}

void Sim::e2e_oracle_send(const kolo_pkt &p) {
    uint64_t h0 = p.header[0];
    unsigned src = (h0 >> 12) & 0xfff, dst = h0 & 0xfff, op = (h0 >> 24) & 0xf,
             tag = (p.header[1] >> 48) & 0xff, gen = static_cast<unsigned>(h0 >> 63);
    if (is_request(op)) {
        uint64_t k = e2e_key(src, dst, tag, gen);
        Req e = expect_of(p);
        auto it = ereqs.find(k);
        if (it != ereqs.end() && !it->second.done) {
            E2eReq &r = it->second;
            if (r.op == e.op && r.want == e.want && r.resp_len == e.resp_len) {
                r.sent++; // retransmission
                oracle_retx++;
                return;
            }
            oracle_abandoned++; // the NI gave up on the old one and reuses the tag
            oracle_waiting--;
        }
        E2eReq r;
        r.op = e.op;
        r.want = e.want;
        r.resp_len = e.resp_len;
        ereqs[k] = r;
        oracle_reqs++;
        oracle_waiting++;
        return;
    }
    std::string what =
        strf("NI %s sent %s tag %u gen %u to %s", node_name(static_cast<uint16_t>(src)).c_str(),
             kOpNames[op], tag, gen, node_name(static_cast<uint16_t>(dst)).c_str());
    auto it = ereqs.find(e2e_key(dst, src, tag, gen));
    if (it == ereqs.end() || it->second.delivered == 0) {
        check_fail("NI oracle: " + what + " but no such request has arrived there");
        return;
    }
    E2eReq &r = it->second;
    if (op != KOLO_OP_NAK && (op != r.want || (op == KOLO_OP_GET_RESP && p.len != r.resp_len))) {
        check_fail(strf("NI oracle: %s (%u payload flits) in answer to %s (expected %s with %u)",
                        what.c_str(), p.len, kOpNames[r.op], kOpNames[r.want], r.resp_len));
        return;
    }
    if (++r.responses > r.delivered) {
        check_fail("NI oracle: " + what + ": more responses than the request arrived");
        return;
    }
    if (r.responses == 1) {
        oracle_resps++;
        if (op == KOLO_OP_NAK)
            oracle_naks++;
    }
}

void Sim::e2e_oracle_deliver(const kolo_pkt &p) {
    uint64_t h0 = p.header[0];
    unsigned src = (h0 >> 12) & 0xfff, dst = h0 & 0xfff, op = (h0 >> 24) & 0xf,
             tag = (p.header[1] >> 48) & 0xff, gen = static_cast<unsigned>(h0 >> 63);
    if (is_request(op)) {
        auto it = ereqs.find(e2e_key(src, dst, tag, gen));
        if (it != ereqs.end() && ++it->second.delivered > 1)
            oracle_repeats++;
        if (it != ereqs.end() && it->second.delivered > it->second.sent)
            check_fail(strf("NI oracle: %s tag %u from %s arrived more often than it was sent",
                            kOpNames[op], tag, node_name(static_cast<uint16_t>(src)).c_str()));
        return;
    }
    auto it = ereqs.find(e2e_key(dst, src, tag, gen));
    if (it == ereqs.end())
        return;
    if (it->second.done) {
        oracle_dup_resps++; // the NI drops it
        return;
    }
    it->second.done = true;
    oracle_waiting--;
}

// With every NI idle: a request never answered is an error unless NIs gave
// operations up (partitions, dead destinations), which complete with an error.
// A target answers from its record (without executing) exactly the requests
// that arrive again: any other is an operation lost. (Mid-run the NI may not
// have taken a repeat the oracle saw yet: only more is an error then.)
void Sim::e2e_record_check(bool final) {
    uint64_t from_record = e2e_totals().dup_requests;
    if (from_record > oracle_repeats || (final && from_record != oracle_repeats))
        check_fail(strf("NI oracle: targets took %" PRIu64 " requests for repeats but %" PRIu64
                        " arrived again: operations answered without being executed",
                        from_record, oracle_repeats));
}

void Sim::e2e_oracle_end() {
    e2e_record_check(true);
    if (failed_check)
        return;
    if (oracle_waiting == 0 || ni_give_ups() != 0)
        return;
    for (const auto &kv : ereqs)
        if (!kv.second.done) {
            unsigned req = static_cast<unsigned>((kv.first >> 20) & 0xfff),
                     tgt = static_cast<unsigned>((kv.first >> 8) & 0xfff);
            check_fail(strf("NI oracle: %zu requests never answered (e.g. %s tag %u from %s to "
                            "%s) with every NI idle and none given up",
                            static_cast<size_t>(oracle_waiting), kOpNames[kv.second.op],
                            static_cast<unsigned>(kv.first & 0xff),
                            node_name(static_cast<uint16_t>(req)).c_str(),
                            node_name(static_cast<uint16_t>(tgt)).c_str()));
            return;
        }
}

// ---- service processors ---------------------------------------------------------------------
bool Sim::svc_inject(int n, const kolo_pkt &p) {
    if (failed_check || !node_up[static_cast<size_t>(n)] || !net->can_send(n, p))
        return false;
    if (cluster) {
        // through the NI's mgmt_tx port as built; the scoreboard takes the
        // packet when the NI injects it (packet_injected), like any other
        net->send(n, p, cycle);
        return true;
    }
    uint64_t id = next_id++ & KOLO_MODEL_ID_MASK;
    kolo_pkt q = p;
    q.id = id;
    q.header[1] = (p.header[1] & ~KOLO_MODEL_ID_MASK) | id;
    if (kolo_model_inject(model, &q) != KOLO_OK) {
        check_fail(strf("scoreboard: service processor %s sent a MGMT packet the model refuses: %s",
                        node_name(node[static_cast<size_t>(n)].id).c_str(),
                        kolo_model_last_error(model)));
        return false;
    }
    side[id] = Side{p.header[1], 0};
    op_pkts[KOLO_OP_MGMT]++;
    op_flits[KOLO_OP_MGMT] += p.len + 2u;
    net->send(n, q, cycle);
    return true;
}

// the firmware switched RT_EPOCH: the NI routes with the new table from now on
void Sim::svc_install(int n, const kolo_route_entry *table, unsigned entries, uint16_t epoch) {
    Node &nd = node[static_cast<size_t>(n)];
    if (o.verbose > 1)
        std::fprintf(stderr, "kolo-sim: cycle %" PRIu64 ": %s installs table epoch %u\n", cycle,
                     node_name(nd.id).c_str(), epoch);
    if (cluster) { // the changed entries through BAR0: the NI's table-switch event
        rtl_write_routes(n, table, entries);
        return;
    }
    for (unsigned d = 0; d < entries && d < nodes; d++) {
        uint32_t e = table[d];
        kolo_ni_mmio_write(nd.ni, 0, KOLO_CSR_ROUTE(d), &e, 4);
    }
    kolo_ni_e2e_route_switch(nd.ni);
}

// --ni=rtl: route entries of node index n that differ from what its NI holds,
// as MWr TLPs of its root complex (behind the PE's MMIO in flight, in order)
void Sim::rtl_write_routes(int n, const kolo_route_entry *table, unsigned entries) {
    std::vector<uint32_t> &have = rtl_routes[static_cast<size_t>(n)];
    for (unsigned d = 0; d < entries && d < nodes; d++) {
        uint32_t e = table[d];
        if (have[d] == e)
            continue;
        have[d] = e;
        cluster->mmio_write(n, 0, KOLO_CSR_ROUTE(d), &e, 4);
    }
}

// --ni=rtl: a packet dropped at a down link, named by its content as at ejection
void Sim::packet_dropped(int n, int port, const kolo_pkt &p) {
    uint64_t id = rtl_take_id(p);
    if (!id) {
        check_fail(strf("scoreboard: router %s dropped a packet no NI injected: header %#" PRIx64
                        " %#" PRIx64 ", %u payload flits",
                        node_name(node[static_cast<size_t>(n)].id).c_str(), p.header[0],
                        p.header[1], p.len));
        return;
    }
    dropped(id, n, port);
}

// A link works when its cable does and both of its nodes live.
void Sim::update_link(int n, int port) {
    int m = neighbor_index(n, port);
    size_t a = static_cast<size_t>(n * 6 + port), b = static_cast<size_t>(m * 6 + (port ^ 1));
    bool up = !cable_down[a] && node_up[static_cast<size_t>(n)] && node_up[static_cast<size_t>(m)];
    if (link_up[a] == up)
        return;
    link_up[a] = link_up[b] = up;
    net->set_link(n, port, up);
    svc->link_state(n, port, up);
    svc->link_state(m, port ^ 1, up);
}

void Sim::apply_event(const kolo_sim_event &e) {
    int n = static_cast<int>(e.node);
    uint16_t id = node[e.node].id;
    std::string what;
    switch (e.kind) {
    case KOLO_EV_FAIL_LINK:
    case KOLO_EV_RESTORE_LINK: {
        bool up = e.kind == KOLO_EV_RESTORE_LINK;
        int m = neighbor_index(n, e.port);
        cable_down[static_cast<size_t>(n * 6 + e.port)] = !up;
        cable_down[static_cast<size_t>(m * 6 + (e.port ^ 1))] = !up;
        what = strf("link %s %s (to %s) %s", node_name(id).c_str(), kPortNames[e.port],
                    node_name(node[static_cast<size_t>(m)].id).c_str(),
                    up ? "restored" : "failed");
        update_link(n, e.port);
        break;
    }
    case KOLO_EV_FAIL_NODE:
    case KOLO_EV_RESTORE_NODE: {
        bool up = e.kind == KOLO_EV_RESTORE_NODE;
        if (node_up[e.node] == up)
            return;
        node_up[e.node] = up;
        what = strf("node %s %s", node_name(id).c_str(), up ? "restored (reboots)" : "failed");
        svc->node_state(n, up, cycle);
        // (while the node was down all its links were: coming back, each one
        // whose cable works is reported up to both ends, the rebooted firmware
        // sees it train)
        for (int p = 0; p < 6; p++)
            if (kolo_port_present(&topo, p))
                update_link(n, p);
        break;
    }
    default:
        return;
    }
    if (!first_fault)
        first_fault = cycle ? cycle : 1;
    n_events_applied++;
    FaultRecord r;
    r.cycle = cycle;
    r.what = what;
    faults.push_back(r);
    std::fprintf(stderr, "kolo-sim: cycle %" PRIu64 ": %s\n", cycle, what.c_str());
}

// Per cycle: fault events that are due, recovery times, the longest wait.
void Sim::watch_faults() {
    while (next_event < events.size() && events[next_event].cycle <= cycle) {
        const kolo_sim_event &e = events[next_event];
        // CYCLE+: wait for a packet on its way across the link (at most 1M cycles)
        if (e.when_busy && cycle < e.cycle + 1000000 &&
            !net->link_in_use(static_cast<int>(e.node), e.port))
            break;
        apply_event(events[next_event++]);
    }
    if (!faults.empty() && !faults.back().settled && svc->settled() &&
        svc->last_install_time() > faults.back().cycle) {
        uint64_t t = svc->last_install_time();
        uint16_t digest = 0;
        for (unsigned n = 0; n < nodes; n++)
            if (node_up[n]) {
                digest = svc->installed_digest(static_cast<int>(n));
                break;
            }
        for (FaultRecord &r : faults)
            if (!r.settled) {
                r.settled = t;
                r.digest = digest;
            }
        std::fprintf(stderr,
                     "kolo-sim: cycle %" PRIu64 ": every live node routes with the new tables "
                     "(fault set %#06x, %" PRIu64 " cycles after the last event)\n",
                     cycle, digest, t - faults.back().cycle);
        check_installed_tables();
    }
    if (first_fault && (cycle & 63) == 0) {
        for (const Node &nd : node) {
            uint64_t oldest = 0;
            if (nd.ni && kolo_ni_outstanding_age(nd.ni, &oldest) && oldest > max_wait)
                max_wait = oldest;
        }
    }
    if ((cycle & 1023) == 0)
        e2e_record_check(false);
    if ((cycle & 255) == 0) // router counters for kolo-ctl
        for (unsigned n = 0; n < nodes; n++) {
            svc->set_router(static_cast<int>(n), ports_down(n), node_fault_drops[n]);
        }
}

// --svc (fault events, --ctl): the service processors boot and install the
// first tables before any PE starts; every NI retransmits end to end.
bool Sim::boot_service(std::string *err) {
    node_up.assign(nodes, 1);
    cable_down.assign(static_cast<size_t>(nodes) * 6, 0);
    link_up.assign(static_cast<size_t>(nodes) * 6, 1);
    node_fault_drops.assign(nodes, 0);
    events.assign(o.events, o.events + o.nevents);
    std::stable_sort(events.begin(), events.end(),
                     [](const kolo_sim_event &a, const kolo_sim_event &b) { return a.cycle < b.cycle; });
    e2e = !o.no_e2e;
    kolo_ni_e2e_cfg ec{};
    ec.enable = e2e;
    ec.timeout = o.e2e_timeout ? static_cast<uint32_t>(o.e2e_timeout) : KOLO_NI_E2E_TIMEOUT;
    ec.max_retries = KOLO_NI_E2E_RETRIES;
    if (cluster) {
        // the RTL targets clear their duplicate records for 4096 cycles after
        // reset (docs/ni.md 10): enable end-to-end after that, before any PE runs
        while (cycle < 4096 + 256) {
            net->step(cycle);
            cycle++;
            stepped++;
        }
        for (unsigned n = 0; n < nodes; n++) {
            uint32_t t = ec.timeout, c = (ec.enable ? KOLO_E2E_CTRL_EN : 0u) | (ec.max_retries & 0xfu) << 8;
            cluster->mmio_write(static_cast<int>(n), 0, KOLO_CSR_E2E_TIMEOUT, &t, 4);
            cluster->mmio_write(static_cast<int>(n), 0, KOLO_CSR_E2E_CTRL, &c, 4);
        }
    }
    for (Node &nd : node)
        if (nd.ni)
            kolo_ni_set_e2e(nd.ni, &ec);
    svc.reset(new Svc(this, topo, o.fw_compute, o.verbose > 1, stderr));
    svc->boot(cycle);
    uint64_t start = cycle;
    while (!failed_check && !(svc->settled() && svc->stats().installs >= nodes)) {
        if (cycle - start > 2000000) {
            *err = "the service processors did not boot within 2000000 cycles";
            svc->report(stderr);
            return false;
        }
        svc->step(cycle);
        for (Node &nd : node)
            if (nd.ni)
                kolo_ni_step(nd.ni);
        net->step(cycle);
        cycle++;
        stepped++;
    }
    if (failed_check) {
        *err = "booting the service processors: " + check_msg;
        return false;
    }
    std::string why;
    if (svc->firmware_errors(&why)) {
        *err = "firmware: " + why;
        return false;
    }
    boot_cycles = cycle - start;
    if (o.verbose)
        std::fprintf(stderr, "kolo-sim: service processors booted in %" PRIu64 " cycles\n",
                     boot_cycles);
    if (o.trace && !trace_setup(err))
        return false;

    if (o.ctl) {
        ctl.reset(new CtlServer);
        std::string path =
            *o.ctl ? std::string(o.ctl) : strf("/tmp/kolo-sim.%d.ctl", static_cast<int>(getpid()));
        if (!ctl->open(path, err))
            return false;
        std::fprintf(stderr, "kolo-sim: control socket %s (kolo-ctl --sim=%s status)\n",
                     path.c_str(), path.c_str());
    }
    return true;
}

// --trace: the window and the signals
bool Sim::trace_setup(std::string *err) {
    trace_from = o.trace_start;
    if (!o.trace_start && !events.empty())
        trace_from = events[0].cycle > 1000 ? events[0].cycle - 1000 : 0;
    trace_to = trace_from + (o.trace_cycles ? o.trace_cycles : 30000);
    t_event = vcd.add("", "fault_events", 8);
    t_drops = vcd.add("", "packets_dropped", 32);
    t_retx = vcd.add("", "requests_sent_again", 32);
    t_settled = vcd.add("", "firmware_settled", 1);
    for (unsigned n = 0; n < nodes; n++) {
        uint16_t id = node[n].id;
        char sc[32];
        std::snprintf(sc, sizeof sc, "node_%u_%u_%u", id & 15u, (id >> 4) & 15u, (id >> 8) & 15u);
        NodeSigs x;
        x.up = vcd.add(sc, "up", 1);
        x.ports_down = vcd.add(sc, "ports_down", 6);
        x.fw_stage = vcd.add(sc, "fw_stage", 4);
        x.epoch = vcd.add(sc, "table_epoch", 16);
        x.waiting = vcd.add(sc, "ops_waiting", 16);
        x.tx = vcd.add(sc, "ni_tx_pkts", 32);
        x.rx = vcd.add(sc, "ni_rx_pkts", 32);
        tsig.push_back(x);
    }
    return vcd.open(o.trace, err);
}

void Sim::trace_sample() {
    if (!vcd.is_open() || cycle < trace_from)
        return;
    if (cycle >= trace_to) {
        vcd.close();
        return;
    }
    for (unsigned n = 0; n < nodes; n++) {
        const NodeSigs &x = tsig[n];
        uint32_t stage = 0, ep = 0;
        svc->reg_read(static_cast<int>(n), KOLO_SVC_SYS_FW_STATE, &stage);
        svc->reg_read(static_cast<int>(n), KOLO_SVC_RT_EPOCH, &ep);
        uint64_t oldest;
        vcd.set(x.up, node_up[n]);
        vcd.set(x.ports_down, ports_down(n));
        vcd.set(x.fw_stage, node_up[n] ? (stage & 0xf) : 0);
        vcd.set(x.epoch, node_up[n] ? (ep & 0xffff) : 0);
        vcd.set(x.waiting, kolo_ni_outstanding_age(node[n].ni, &oldest));
        vcd.set(x.tx, node[n].tx);
        vcd.set(x.rx, node[n].rx);
    }
    vcd.set(t_event, n_events_applied);
    vcd.set(t_drops, fault_drops_seen + dead_drops);
    vcd.set(t_retx, e2e_totals().retransmits);
    vcd.set(t_settled, svc->settled());
    vcd.commit(cycle);
}

// Once the firmware has settled: the tables the nodes installed, taken
// together, must pass the deadlock check, use no failed link or node, and
// route every live pair the working links connect (pairs left unreachable
// are counted: heavy fault sets may leave some, docs/firmware.md).
void Sim::check_installed_tables() {
    kolo_faults f;
    kolo_faults_clear(&f);
    std::vector<kolo_route_entry> set(static_cast<size_t>(nodes) * nodes, 0);
    for (unsigned n = 0; n < nodes; n++) {
        if (!node_up[n]) {
            kolo_faults_set_node(&f, &topo, n, 1);
            continue;
        }
        for (int p = 0; p < 6; p++)
            if (kolo_port_present(&topo, p) && cable_down[n * 6 + p])
                kolo_faults_set_link(&f, &topo, n, p, 1);
        uint16_t ep;
        const kolo_route_entry *t = svc->active_table(static_cast<int>(n), &ep);
        if (t)
            std::copy(t, t + nodes, set.begin() + static_cast<long>(n) * nodes);
    }
    std::vector<uint8_t> ws(std::max(kolo_deadlock_workspace_size(&topo),
                                     kolo_conn_workspace_size(&topo)));
    kolo_deadlock_report dr{};
    static kolo_deadlock_cert cert;
    int rc = kolo_deadlock_check_cert(&topo, set.data(), ws.data(), ws.size(), &dr, &cert);
    if (rc != KOLO_OK) {
        check_fail(strf("installed tables: the deadlock check fails (%d, %d rings in a cycle)", rc,
                        dr.n_rings));
        return;
    }
    // the check's certificate, verified by the separate checker (sw/route/kolo_cert.c)
    kolo_cert_report cer{};
    rc = kolo_deadlock_cert_check(&topo, set.data(), &cert, &cer);
    if (rc != KOLO_OK) {
        check_fail(strf("installed tables: the deadlock certificate is refused (%d) at %s -> %s", rc,
                        node_name(cer.src).c_str(), node_name(cer.dst).c_str()));
        return;
    }
    kolo_conn_report cr{};
    rc = kolo_connectivity_check(&topo, &f, set.data(), ws.data(), ws.size(), &cr);
    if (rc != KOLO_OK && rc != KOLO_E_UNROUTED) {
        check_fail(strf("installed tables: entry %s -> %s uses a failed link or node (%d)",
                        node_name(cr.src).c_str(), node_name(cr.dst).c_str(), rc));
        return;
    }
    tables_checked++;
    unrouted_pairs = cr.pairs_connected > cr.pairs_routed ? cr.pairs_connected - cr.pairs_routed : 0;
}

// kolo-ctl's commands (sw/tools/kolo-ctl.c): "ok\n" + text, or "error: ...\n"
std::string Sim::ctl_command(const std::vector<std::string> &a) {
    if (a.empty())
        return "error: empty command\n";
    const std::string &c = a[0];
    auto want = [&](size_t n) { return a.size() == n + 1; };
    unsigned n = 0;
    int port = 0;
    auto get_node = [&](size_t i) {
        return i < a.size() && kolo_sim_parse_node(a[i].c_str(), &topo, &n) == 0;
    };
    auto get_u32 = [&](size_t i, uint32_t *v) {
        if (i >= a.size())
            return false;
        char *end;
        errno = 0;
        unsigned long x = std::strtoul(a[i].c_str(), &end, 0);
        if (errno || *end || a[i].empty() || x > 0xffffffffUL)
            return false;
        *v = static_cast<uint32_t>(x);
        return true;
    };
    std::string out = "ok\n";
    if (c == "status" && want(0)) {
        out += strf("cycle %" PRIu64 ", torus %ux%ux%u, %s\n", cycle, topo.size[0], topo.size[1],
                    topo.size[2], svc->settled() ? "settled" : "firmware busy");
        out += "node index  coords      state  epoch  faults  ports down\n";
        for (unsigned i = 0; i < nodes; i++) {
            uint32_t st = 0, ep = 0;
            svc->reg_read(static_cast<int>(i), KOLO_SVC_SYS_FW_STATE, &st);
            svc->reg_read(static_cast<int>(i), KOLO_SVC_RT_EPOCH, &ep);
            std::string down;
            uint8_t pd = ports_down(i);
            for (int p = 0; p < 6; p++)
                if ((pd >> p) & 1)
                    down += std::string(down.empty() ? "" : " ") + kPortNames[p];
            out += strf("%10u  %-10s  %-5s  %5u  %#06x  %s\n", i, node_name(node[i].id).c_str(),
                        node_up[i] ? "up" : "DOWN", ep & 0xffff, st >> 16,
                        down.empty() ? "-" : down.c_str());
        }
        return out;
    }
    if ((c == "links" || c == "counters" || c == "table" || c == "events") && want(1)) {
        if (!get_node(1))
            return "error: bad NODE '" + a[1] + "' (index or x,y,z)\n";
        if (!node_up[n])
            return strf("error: node %s is down\n", node_name(node[n].id).c_str());
        int i = static_cast<int>(n);
        auto rd = [&](uint32_t addr) {
            uint32_t v = 0;
            svc->reg_read(i, addr, &v);
            return v;
        };
        if (c == "links") {
            out += "port  state  peer       crc_err  replays  tx_frames  rx_frames  downs\n";
            for (int p = 0; p < 6; p++) {
                if (!kolo_port_present(&topo, p)) {
                    out += strf("%-4s  absent (torus size 1)\n", kPortNames[p]);
                    continue;
                }
                uint32_t peer = rd(KOLO_SVC_LINK_PEER(p));
                out += strf("%-4s  %-5s  %-9s  %7u  %7u  %9u  %9u  %5u\n", kPortNames[p],
                            link_up[n * 6 + p] ? "up" : "DOWN",
                            node_name(static_cast<uint16_t>(peer & 0xfff)).c_str(),
                            rd(KOLO_SVC_LINK_CRC_ERRORS(p)), rd(KOLO_SVC_LINK_REPLAYS(p)),
                            rd(KOLO_SVC_LINK_TX_FRAMES(p)), rd(KOLO_SVC_LINK_RX_FRAMES(p)),
                            rd(KOLO_SVC_LINK_DOWN_COUNT(p)));
            }
        } else if (c == "counters") {
            kolo_ni_e2e_cfg ec;
            kolo_ni_e2e_stats es;
            kolo_ni_get_e2e(node[n].ni, &ec, &es);
            out += strf("router: ports down %#04x, packets dropped at down links %u\n",
                        rd(KOLO_SVC_RTR_PORT_DOWN), rd(KOLO_SVC_RTR_FAULT_DROPS));
            out += strf("NI: tx %" PRIu64 " rx %" PRIu64 " nak_sent %" PRIu64 " nak_rcvd %" PRIu64
                        " bad %" PRIu64 " dma_err %" PRIu64 "\n",
                        csr(i, KOLO_CSR_STAT_TX_PKTS), csr(i, KOLO_CSR_STAT_RX_PKTS),
                        csr(i, KOLO_CSR_STAT_NAK_SENT), csr(i, KOLO_CSR_STAT_NAK_RCVD),
                        csr(i, KOLO_CSR_STAT_BAD_PKTS), csr(i, KOLO_CSR_STAT_DMA_ERR));
            out += strf("NI end-to-end: %s, retransmits %" PRIu64 ", duplicate requests %" PRIu64
                        ", duplicate responses %" PRIu64 ", timeouts %" PRIu64
                        ", unreachable %" PRIu64 "\n",
                        ec.enable ? "on" : "off", es.retransmits, es.dup_requests,
                        es.dup_responses, es.timeouts, es.unreachable);
            out += strf("mailbox: sent %u, received %u, rx drops %u; events lost %u; table "
                        "switches %u, unreachable ops %u\n",
                        rd(KOLO_SVC_MBX_TX_COUNT), rd(KOLO_SVC_MBX_RX_COUNT),
                        rd(KOLO_SVC_MBX_RX_DROPS), rd(KOLO_SVC_EVT_LOST),
                        rd(KOLO_SVC_RT_SWITCHES), rd(KOLO_SVC_RT_UNREACHABLE));
        } else if (c == "table") {
            uint16_t ep = 0;
            const kolo_route_entry *t = svc->active_table(i, &ep);
            out += strf("node %s, table epoch %u (entry: route state; '-': unreachable)\n",
                        node_name(node[n].id).c_str(), ep);
            for (unsigned d = 0; t && d < nodes; d++) {
                uint16_t did = node[d].id;
                if (d == n)
                    out += strf("  -> %-10s  self\n", node_name(did).c_str());
                else if (!(t[d] & KOLO_RE_VALID))
                    out += strf("  -> %-10s  -\n", node_name(did).c_str());
                else
                    out += strf("  -> %-10s  %#08x%s\n", node_name(did).c_str(),
                                t[d] & KOLO_RS_MASK,
                                t[d] == kolo_route_default(&topo, node[n].id, did) ? ""
                                                                                    : "  (detour)");
            }
        } else {
            for (const std::string &l : svc->log(i))
                out += l + "\n";
        }
        return out;
    }
    if (c == "read" && want(2)) {
        uint32_t addr, v = 0;
        if (!get_node(1) || !get_u32(2, &addr))
            return "error: usage: read NODE ADDR\n";
        if (svc->reg_read(static_cast<int>(n), addr, &v))
            return strf("error: read of %#x failed (node down or no such register)\n", addr);
        return out + strf("%#010x\n", v);
    }
    if (c == "write" && want(3)) {
        uint32_t addr, v;
        if (!get_node(1) || !get_u32(2, &addr) || !get_u32(3, &v))
            return "error: usage: write NODE ADDR VALUE\n";
        if (svc->reg_write(static_cast<int>(n), addr, v, true))
            return strf("error: write of %#x refused (node down, no such register, read-only, "
                        "or host writes disabled: SYS_HOST_ACCESS)\n",
                        addr);
        return out;
    }
    bool link_cmd = c == "fail-link" || c == "restore-link";
    bool node_cmd = c == "fail-node" || c == "restore-node";
    if ((link_cmd && want(2)) || (node_cmd && want(1))) {
        if (!get_node(1))
            return "error: bad NODE '" + a[1] + "' (index or x,y,z)\n";
        if (link_cmd && (kolo_sim_parse_port(a[2].c_str(), &port) || !kolo_port_present(&topo, port)))
            return "error: bad PORT '" + a[2] + "' (0..5 or X+ X- Y+ Y- Z+ Z-, of a dimension > 1)\n";
        if (c == "fail-node" && n < npes)
            return strf("error: node index %u hosts PE %u: fail only nodes without a PE\n", n, n);
        kolo_sim_event e{};
        e.cycle = cycle;
        e.kind = c == "fail-link"      ? KOLO_EV_FAIL_LINK
                 : c == "restore-link" ? KOLO_EV_RESTORE_LINK
                 : c == "fail-node"    ? KOLO_EV_FAIL_NODE
                                       : KOLO_EV_RESTORE_NODE;
        e.node = n;
        e.port = port;
        apply_event(e);
        return out + strf("cycle %" PRIu64 "\n", cycle);
    }
    return "error: unknown command or wrong arguments: '" + c + "' (kolo-ctl help)\n";
}

bool Sim::deliver(int n, kolo_pkt &p, bool &checked) {
    Node &nd = node[static_cast<size_t>(n)];
    if (!checked) {
        checked = true;
        if (failed_check)
            return true; // the run is ending: drop
        uint64_t id = p.header[1] & KOLO_MODEL_ID_MASK;
        if (!node_up.empty() && !node_up[static_cast<size_t>(n)]) {
            dead_drops++; // it reached a node that has died: gone with it
            forget(id, n, 6);
            return true;
        }
        uint64_t hdr[2] = {p.header[0] & ~kResvMask, p.header[1]};
        int rc = kolo_model_deliver(model, nd.id, hdr, p.payload, p.len);
        if (rc != KOLO_OK) {
            check_fail(strf("scoreboard: delivery at %s: %s", node_name(nd.id).c_str(),
                            kolo_model_last_error(model)));
            return true;
        }
        auto it = side.find(id);
        if (it == side.end()) {
            check_fail(
                strf("scoreboard: packet %#" PRIx64 " delivered but never sent by an NI", id));
            return true;
        }
        if (static_cast<uint8_t>(p.header[0] >> 59) != it->second.resv) {
            check_fail(strf("scoreboard: packet %#" PRIx64
                            " delivered at %s with header bits 63:59 = %#x, sent as %#x",
                            id, node_name(nd.id).c_str(), static_cast<unsigned>(p.header[0] >> 59),
                            it->second.resv));
            return true;
        }
        p.header[1] = it->second.h1;
        side.erase(it);
        uint64_t h0 = p.header[0];
        p.id = 0;
        p.dst = h0 & 0xfff;
        p.src = (h0 >> 12) & 0xfff;
        p.op = (h0 >> 24) & 0xf;
        p.vnet = (h0 >> 28) & 1;
        p.ordered = (h0 >> 35) & 1;
        oracle_deliver(p);
        if (failed_check)
            return true;
        if (p.op == KOLO_OP_MGMT) { // for the service processor, not the NI
            if (svc)
                svc->deliver(n, p);
            else
                mgmt_drops++;
            return true;
        }
    }
    if (kolo_ni_receive(nd.ni, &p) != 0)
        return false;
    nd.rx++;
    return true;
}

// ---- the NI RTL's local ports (--ni=rtl) -------------------------------------------------
// Injected: the NI oracle's checks, then the reference model gets the packet
// under a fresh id (header flit 1's address field, as in the C path); the id
// is found again at ejection from the packet's content.
// Route state fields a packet keeps on its way (signs, first/last step ports):
// packets alike but for their route (an MGMT packet sent both ways round a
// ring) are told apart by them.
static uint32_t rs_fixed(const kolo_pkt &p) {
    uint32_t rs = static_cast<uint32_t>(p.header[0] >> 36) & KOLO_RS_MASK;
    return rs & (7u | 7u << KOLO_RS_FS_PORT_SHIFT | 7u << KOLO_RS_LS_PORT_SHIFT);
}

// --ni=rtl: the scoreboard id of packet p seen leaving the network (delivered
// or dropped), the oldest in flight with its content and route; 0: none
uint64_t Sim::rtl_take_id(const kolo_pkt &p) {
    auto it = rtl_ids.find(pkt_key(p));
    if (it == rtl_ids.end())
        return 0;
    auto &v = it->second;
    size_t k = 0;
    while (k < v.size() && v[k].second != rs_fixed(p))
        k++;
    if (k == v.size())
        k = 0; // (the scoreboard then names what differs)
    uint64_t id = v[k].first;
    v.erase(v.begin() + static_cast<long>(k));
    if (v.empty())
        rtl_ids.erase(it);
    return id;
}

void Sim::packet_injected(int n, const kolo_pkt &p) {
    Node &nd = node[static_cast<size_t>(n)];
    if (failed_check || !check_sent(nd, &p))
        return;
    uint64_t h0 = p.header[0];
    unsigned op = (h0 >> 24) & 0xf, len = (h0 >> 29) & 0x3f;
    uint64_t id = next_id++ & KOLO_MODEL_ID_MASK;
    kolo_pkt m = p;
    m.id = id;
    m.header[0] &= ~kResvMask;
    m.header[1] = (p.header[1] & ~KOLO_MODEL_ID_MASK) | id;
    int rc = kolo_model_inject(model, &m);
    if (rc != KOLO_OK) {
        check_fail(strf("scoreboard: NI %s sent a packet the model refuses: %s",
                        node_name(nd.id).c_str(), kolo_model_last_error(model)));
        return;
    }
    rtl_ids[pkt_key(p)].emplace_back(id, rs_fixed(p));
    oracle_send(p);
    op_pkts[op]++;
    op_flits[op] += len + 2;
    nd.tx++;
}

void Sim::packet_ejected(int n, const kolo_pkt &p) {
    Node &nd = node[static_cast<size_t>(n)];
    if (failed_check)
        return;
    uint64_t id = rtl_take_id(p);
    if (!id) {
        check_fail(strf("scoreboard: delivery at %s of a packet no NI injected (duplicated or "
                        "corrupted): header %#" PRIx64 " %#" PRIx64 ", %u payload flits",
                        node_name(nd.id).c_str(), p.header[0], p.header[1], p.len));
        return;
    }
    uint64_t hdr[2] = {p.header[0] & ~kResvMask, (p.header[1] & ~KOLO_MODEL_ID_MASK) | id};
    int rc = kolo_model_deliver(model, nd.id, hdr, p.payload, p.len);
    if (rc != KOLO_OK) {
        check_fail(strf("scoreboard: delivery at %s: %s", node_name(nd.id).c_str(),
                        kolo_model_last_error(model)));
        return;
    }
    oracle_deliver(p);
    nd.rx++;
}

void Sim::mmio_read_done(int n, uint64_t token, uint64_t data, bool err) {
    int i = node[static_cast<size_t>(n)].pe;
    if (i < 0)
        return;
    kolo_mmio_ring *r = kolo_sim_ring(shm, static_cast<unsigned>(i));
    r->rd_data = data;
    r->rd_err = err ? 1 : 0;
    __atomic_store_n(&r->rd_done, token + 1, __ATOMIC_RELEASE);
}

// ---- shared memory and PEs ---------------------------------------------------------------
// Segments of kolo-sim runs that were killed (SIGKILL leaves the name behind):
// /dev/shm/kolo-sim.<pid>.<n> whose pid no longer exists.
void remove_stale_segments() {
    DIR *d = opendir("/dev/shm");
    if (!d)
        return;
    while (struct dirent *e = readdir(d)) {
        int pid;
        unsigned n;
        char tail;
        if (std::sscanf(e->d_name, "kolo-sim.%d.%u%c", &pid, &n, &tail) != 2 || pid <= 0)
            continue;
        if (kill(pid, 0) == 0 || errno != ESRCH)
            continue;
        shm_unlink((std::string("/") + e->d_name).c_str());
    }
    closedir(d);
}

bool Sim::create_shm(std::string *err) {
    static unsigned seq = 0;
    remove_stale_segments();
    shm_size = kolo_sim_shm_size(npes);
    int fd = -1;
    for (int tries = 0; tries < 100 && fd < 0; tries++) {
        shm_name = strf("/kolo-sim.%d.%u", static_cast<int>(getpid()), seq++);
        fd = shm_open(shm_name.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        *err = strf("shm_open(%s): %s", shm_name.c_str(), std::strerror(errno));
        return false;
    }
    if (ftruncate(fd, static_cast<off_t>(shm_size))) {
        *err = strf("ftruncate(%s, %zu): %s", shm_name.c_str(), shm_size, std::strerror(errno));
        close(fd);
        shm_unlink(shm_name.c_str());
        return false;
    }
    void *p = mmap(nullptr, shm_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        *err = strf("mmap(%s): %s", shm_name.c_str(), std::strerror(errno));
        shm_unlink(shm_name.c_str());
        return false;
    }
    std::memset(p, 0, shm_size);
    shm = static_cast<kolo_sim_shm *>(p);
    shm->magic = KOLO_SIM_MAGIC;
    shm->version = KOLO_SIM_VERSION;
    shm->npes = npes;
    std::memcpy(shm->torus, topo.size, 3);
    shm->sim_pid = static_cast<int32_t>(getpid());
    shm->core_mhz = o.core_mhz;
    for (unsigned i = 0; i < npes; i++) {
        kolo_pe_slot *s = kolo_sim_shm_pe_slot(shm, i);
        s->node_id = node[i].id;
        s->ctx = 0;
    }
    __atomic_store_n(&shm->sim_alive, 1u, __ATOMIC_RELEASE);
    return true;
}

void Sim::start_pes() {
    char **pargv = argv + o.prog_index;
    std::string snpes = std::to_string(npes);
    std::fflush(nullptr);
    for (unsigned i = 0; i < npes; i++) {
        pid_t pid = fork();
        if (pid < 0) {
            std::fprintf(stderr, "kolo-sim: fork of PE %u: %s\n", i, std::strerror(errno));
            set_status(KOLO_SIM_EXIT_CHECK);
            kill_rest("fork failed");
            return;
        }
        if (pid == 0) {
            setpgid(0, 0);
            signal(SIGCHLD, SIG_DFL);
            signal(SIGINT, SIG_DFL);
            signal(SIGTERM, SIG_DFL);
            signal(SIGHUP, SIG_DFL);
            setenv("KOLO_SIM_SHM", shm_name.c_str(), 1);
            setenv("KOLO_PE", std::to_string(i).c_str(), 1);
            setenv("KOLO_NPES", snpes.c_str(), 1);
            // PCIe posted writes cannot fail visibly: tests that provoke DMA
            // write failures need to know which NI they run on
            setenv("KOLO_SIM_NI", o.ni == KOLO_NI_RTL ? "rtl" : "model", 1);
            if (ctl)
                setenv("KOLO_SIM_CTL", ctl->path().c_str(), 1);
            execv(prog_path.c_str(), pargv);
            std::fprintf(stderr, "kolo-sim: PE %u: exec %s: %s\n", i, prog_path.c_str(),
                         std::strerror(errno));
            _exit(KOLO_SIM_EXIT_NOEXEC);
        }
        setpgid(pid, pid);
        pe[i].pid = pid;
        node[i].pe = static_cast<int>(i);
        if (o.verbose)
            std::fprintf(stderr, "kolo-sim: PE %u pid %d on node %s\n", i, pid,
                         node_name(node[i].id).c_str());
    }
}

void Sim::kill_rest(const char *why) {
    std::string who;
    for (unsigned i = 0; i < npes; i++) {
        Pe &x = pe[i];
        if (x.reaped || x.pid <= 0)
            continue;
        if (kill(-x.pid, SIGKILL) && kill(x.pid, SIGKILL))
            continue;
        x.killed_by_us = true;
        who += " " + std::to_string(i);
    }
    if (!who.empty() && why && *why)
        std::fprintf(stderr, "kolo-sim: killing PEs%s (%s)\n", who.c_str(), why);
    killed_rest = true;
}

void Sim::reap() {
    g_sigchld = 0;
    for (;;) {
        int ws;
        pid_t pid = waitpid(-1, &ws, WNOHANG);
        if (pid <= 0)
            break;
        for (unsigned i = 0; i < npes; i++) {
            Pe &x = pe[i];
            if (x.pid != pid || x.reaped)
                continue;
            x.reaped = true;
            kolo_pe_slot *s = kolo_sim_shm_pe_slot(shm, i);
            __atomic_store_n(&s->state, static_cast<uint32_t>(KOLO_PE_EXITED), __ATOMIC_RELEASE);
            if (WIFEXITED(ws)) {
                x.status = WEXITSTATUS(ws);
                x.how = strf("exit %d", x.status);
            } else if (WIFSIGNALED(ws)) {
                x.status = 128 + WTERMSIG(ws);
                x.how = strf("killed by signal %d (%s)", WTERMSIG(ws), strsignal(WTERMSIG(ws)));
            }
            if (o.verbose)
                std::fprintf(stderr, "kolo-sim: cycle %" PRIu64 ": PE %u %s\n", cycle, i,
                             x.how.c_str());
            if (x.killed_by_us && WIFSIGNALED(ws)) {
                x.how += " (by kolo-sim)";
                break;
            }
            if (global_exit)
                break;
            if (x.status != 0) {
                if (WIFSIGNALED(ws))
                    std::fprintf(stderr, "kolo-sim: PE %u (pid %d) %s\n", i, pid, x.how.c_str());
                else
                    std::fprintf(stderr, "kolo-sim: PE %u exited with status %d\n", i, x.status);
                if (first_failed_pe < 0) {
                    first_failed_pe = static_cast<int>(i);
                    t_first_fail = now_s();
                }
                set_status(x.status);
            }
            break;
        }
    }
}

bool Sim::rings_empty() const {
    for (unsigned i = 0; i < npes; i++) {
        kolo_mmio_ring *r = kolo_sim_ring(shm, i);
        if (__atomic_load_n(&r->head, __ATOMIC_ACQUIRE) != r->tail)
            return false;
    }
    return true;
}

bool Sim::drain_rings(bool *bad) {
    bool act = false;
    for (unsigned i = 0; i < npes; i++) {
        kolo_mmio_ring *r = kolo_sim_ring(shm, i);
        uint64_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
        uint64_t tail = r->tail;
        if (head == tail)
            continue;
        if (head - tail > KOLO_SIM_RING) {
            check_fail(strf("PE %u broke its MMIO ring (head %" PRIu64 ", tail %" PRIu64 ")", i,
                            head, tail));
            *bad = true;
            return act;
        }
        kolo_ni *ni = node[i].ni;
        for (unsigned n = 0; n < o.mmio_per_cycle && tail != head; n++) {
            const kolo_mmio_req &q = r->req[tail % KOLO_SIM_RING];
            int bar = static_cast<int>(q.bar);
            if (cluster) {
                // the root complex queues requests in order; a full queue holds the PE back
                if (!cluster->mmio_ready(static_cast<int>(i)))
                    break;
                unsigned wlen = q.kind == KOLO_MMIO_W32    ? 4
                                : q.kind == KOLO_MMIO_W64  ? 8
                                : q.kind == KOLO_MMIO_W512 ? 64
                                                           : 0;
                if (wlen) {
                    cluster->mmio_write(static_cast<int>(i), bar, q.offset, q.data, wlen);
                } else if (q.kind == KOLO_MMIO_R32 || q.kind == KOLO_MMIO_R64) {
                    cluster->mmio_read(static_cast<int>(i), bar, q.offset,
                                       q.kind == KOLO_MMIO_R32 ? 4 : 8, tail);
                } else {
                    check_fail(
                        strf("PE %u: MMIO request of unknown kind %u in its ring", i, q.kind));
                    *bad = true;
                    return act;
                }
                tail++;
                __atomic_store_n(&r->tail, tail, __ATOMIC_RELEASE);
                pe[i].mmio++;
                act = true;
                continue;
            }
            // PCIe flow control: a write the NI cannot take now holds back this PE's later MMIO
            if ((q.kind == KOLO_MMIO_W32 || q.kind == KOLO_MMIO_W64 || q.kind == KOLO_MMIO_W512) &&
                !kolo_ni_mmio_write_ready(ni, bar, q.offset))
                break;
            switch (q.kind) {
            case KOLO_MMIO_W32:
                kolo_ni_mmio_write(ni, bar, q.offset, q.data, 4);
                break;
            case KOLO_MMIO_W64:
                kolo_ni_mmio_write(ni, bar, q.offset, q.data, 8);
                break;
            case KOLO_MMIO_W512:
                kolo_ni_mmio_write(ni, bar, q.offset, q.data, 64);
                break;
            case KOLO_MMIO_R32:
            case KOLO_MMIO_R64: {
                uint64_t v = 0;
                int rc = kolo_ni_mmio_read(ni, bar, q.offset, q.kind == KOLO_MMIO_R32 ? 4 : 8, &v);
                r->rd_data = rc ? ~0ull : v;
                r->rd_err = rc ? 1 : 0;
                __atomic_store_n(&r->rd_done, tail + 1, __ATOMIC_RELEASE);
                break;
            }
            default:
                check_fail(strf("PE %u: MMIO request of unknown kind %u in its ring", i, q.kind));
                *bad = true;
                return act;
            }
            tail++;
            __atomic_store_n(&r->tail, tail, __ATOMIC_RELEASE);
            pe[i].mmio++;
            act = true;
        }
    }
    return act;
}

// ---- report -----------------------------------------------------------------------------
void Sim::dump_state(FILE *f) {
    std::fprintf(f, "---- state at cycle %" PRIu64 " ----\n", cycle);
    for (unsigned i = 0; i < npes; i++) {
        const Pe &x = pe[i];
        kolo_pe_slot *s = kolo_sim_shm_pe_slot(shm, i);
        kolo_mmio_ring *r = kolo_sim_ring(shm, i);
        uint32_t st = __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
        uint64_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
        std::fprintf(
            f, "  PE %u pid %d: %s, %" PRIu64 " MMIO requests done, %" PRIu64 " in its ring\n", i,
            x.pid,
            x.reaped                ? x.how.c_str()
            : st == KOLO_PE_NONE    ? "running, not attached"
            : st == KOLO_PE_RUNNING ? "running"
                                    : "detached",
            x.mmio, head - r->tail);
    }
    for (unsigned n = 0; n < nodes; n++) {
        if (!node[n].ni || kolo_ni_idle(node[n].ni))
            continue;
        std::fprintf(f, "  NI %s busy: ctx 0 STATUS %#" PRIx64 " OUTSTANDING %#" PRIx64 "\n",
                     node_name(node[n].id).c_str(),
                     csr(static_cast<int>(n), KOLO_CSR_CTX(0) + KOLO_CTX_STATUS),
                     csr(static_cast<int>(n), KOLO_CSR_CTX(0) + KOLO_CTX_OUTSTANDING));
    }
    net->dump(f);
    std::fprintf(f,
                 "  scoreboard: %" PRIu64
                 " packets in the network; NI oracle: %zu requests without response\n",
                 kolo_model_pending(model), static_cast<size_t>(oracle_waiting));
}

void Sim::report(FILE *f, double wall) {
    double us = static_cast<double>(cycle) / o.core_mhz;
    std::fprintf(f, "==== kolo-sim report ====\n");
    std::fprintf(f, "torus %ux%ux%u (%u nodes), %u PEs, network %s", topo.size[0], topo.size[1],
                 topo.size[2], nodes, npes, net->name());
    if (o.net == KOLO_NET_IDEAL)
        std::fprintf(f, " (%u cycles per hop)", o.hop_latency);
    std::fprintf(f, "\n");
    std::fprintf(
        f,
        "cycles %" PRIu64 " (%.1f us at %u MHz; %" PRIu64 " stepped, the rest skipped while idle), "
        "wall %.2f s, %.0f stepped cycles/s\n",
        cycle, us, o.core_mhz, stepped, wall, wall > 0 ? static_cast<double>(stepped) / wall : 0.0);
    uint64_t tp = 0, tf = 0;
    std::string ops;
    for (int i = 0; i < 16; i++) {
        if (!op_pkts[i])
            continue;
        ops += strf(" %s %" PRIu64, kOpNames[i], op_pkts[i]);
        tp += op_pkts[i];
        tf += op_flits[i];
    }
    std::fprintf(f, "packets %" PRIu64 " (%" PRIu64 " flits):%s\n", tp, tf,
                 ops.empty() ? " none" : ops.c_str());
    kolo_model_stats ms;
    kolo_model_get_stats(model, &ms);
    std::fprintf(f,
                 "scoreboard: %" PRIu64 " injected, %" PRIu64 " delivered, %" PRIu64
                 " hops checked, %" PRIu64 " errors; NI oracle: %" PRIu64 " requests, %" PRIu64
                 " responses (%" PRIu64 " NAK)\n",
                 ms.injected, ms.delivered, ms.hops_checked, ms.errors, oracle_reqs, oracle_resps,
                 oracle_naks);
    std::fprintf(f, "%-10s %3s %8s %8s %8s %8s %8s %8s %7s %10s %10s\n", "NI", "PE", "TX_PKTS",
                 "RX_PKTS", "NAK_SENT", "NAK_RCVD", "BAD_PKTS", "DMA_ERR", "ERR_CSR", "DMA_RD_B",
                 "DMA_WR_B");
    for (unsigned n = 0; n < nodes; n++) {
        int i = static_cast<int>(n);
        const Node &nd = node[n];
        if (cluster) {
            uint64_t st[6];
            cluster->ni_stats(i, st);
            std::fprintf(f,
                         "%-10s %3s %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64
                         " %8" PRIu64 " %7s %10" PRIu64 " %10" PRIu64 "\n",
                         node_name(nd.id).c_str(), nd.pe >= 0 ? std::to_string(nd.pe).c_str() : "-",
                         st[0], st[1], st[2], st[3], st[4], st[5], "-", nd.dma_rd, nd.dma_wr);
            std::fprintf(f, "%-10s PCIe: %s\n", "", cluster->pcie_report(i).c_str());
            continue;
        }
        std::fprintf(f,
                     "%-10s %3s %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64
                     " %8" PRIu64 " %7" PRIu64 " %10" PRIu64 " %10" PRIu64 "\n",
                     node_name(nd.id).c_str(), nd.pe >= 0 ? std::to_string(nd.pe).c_str() : "-",
                     csr(i, KOLO_CSR_STAT_TX_PKTS), csr(i, KOLO_CSR_STAT_RX_PKTS),
                     csr(i, KOLO_CSR_STAT_NAK_SENT), csr(i, KOLO_CSR_STAT_NAK_RCVD),
                     csr(i, KOLO_CSR_STAT_BAD_PKTS), csr(i, KOLO_CSR_STAT_DMA_ERR),
                     csr(i, KOLO_CSR_ERR_CSR, 4), nd.dma_rd, nd.dma_wr);
    }
    if (svc) {
        kolo_ni_e2e_stats tot = e2e_totals();
        std::fprintf(f, "service processors booted in %" PRIu64 " cycles\n", boot_cycles);
        for (const FaultRecord &r : faults) {
            if (r.settled)
                std::fprintf(f,
                             "fault at cycle %" PRIu64 ": %s; new tables everywhere at cycle %" PRIu64
                             " (+%" PRIu64 " cycles, %.2f us), fault set %#06x\n",
                             r.cycle, r.what.c_str(), r.settled, r.settled - r.cycle,
                             static_cast<double>(r.settled - r.cycle) / o.core_mhz, r.digest);
            else
                std::fprintf(f, "fault at cycle %" PRIu64 ": %s; tables not settled by the end\n",
                             r.cycle, r.what.c_str());
        }
        for (size_t i = next_event; i < events.size(); i++)
            std::fprintf(f, "fault event at cycle %" PRIu64 " not applied: the run ended first\n",
                         events[i].cycle);
        std::fprintf(f,
                     "faults: %" PRIu64 " packets dropped at failed links, %" PRIu64
                     " at dead nodes; installed table sets checked %" PRIu64
                     " (deadlock-free with a verified certificate, no failed link used; %" PRIu64
                     " connected pairs unrouted "
                     "in the last)\n",
                     fault_drops_seen, dead_drops, tables_checked, unrouted_pairs);
        std::fprintf(f,
                     "end to end: %" PRIu64 " requests sent again, %" PRIu64
                     " repeats answered from the target's record (not executed again), %" PRIu64
                     " duplicate responses dropped, %" PRIu64 " operations timed out, %" PRIu64
                     " to unreachable destinations; longest wait of an operation %" PRIu64
                     " cycles\n",
                     tot.retransmits, tot.dup_requests, tot.dup_responses, tot.timeouts,
                     tot.unreachable, max_wait);
        std::fprintf(f,
                     "NI oracle (end to end): %" PRIu64 " retransmissions seen, %" PRIu64
                     " duplicate responses delivered, %" PRIu64 " requests abandoned\n",
                     oracle_retx, oracle_dup_resps, oracle_abandoned);
        svc->report(f);
    }
    std::string pes;
    for (unsigned i = 0; i < npes; i++)
        pes += strf("%sPE %u: %s", i ? ", " : "", i, pe[i].reaped ? pe[i].how.c_str() : "running");
    std::fprintf(f, "PEs: %s\n", pes.c_str());
    if (!end_msg.empty())
        std::fprintf(f, "end: %s\n", end_msg.c_str());
    std::fprintf(f, "exit status %d\n", status);
}

Sim::~Sim() {
    for (Node &nd : node)
        if (nd.ni)
            kolo_ni_free(nd.ni);
    net.reset();
    cluster.reset();
    if (model)
        kolo_model_free(model);
    if (shm) {
        __atomic_store_n(&shm->sim_alive, 0u, __ATOMIC_RELEASE);
        munmap(shm, shm_size);
    }
    if (!shm_name.empty() && !shm_unlinked)
        shm_unlink(shm_name.c_str());
}

// ---- the run ------------------------------------------------------------------------------
int Sim::run() {
    topo = o.topo;
    nodes = kolo_topo_nodes(&topo);
    npes = o.npes;
    std::string err;
    model = kolo_model_new(&topo, nullptr);
    if (!model) {
        std::fprintf(stderr, "kolo-sim: cannot create the reference model\n");
        return KOLO_SIM_EXIT_CHECK;
    }
    kolo_model_check_hops(model, o.ni == KOLO_NI_RTL ? 0 : 1);
    if (o.ni == KOLO_NI_RTL) {
        cluster.reset(ni_factory(this, topo, &err));
        if (!cluster) {
            std::fprintf(stderr, "kolo-sim: %s\n", err.c_str());
            return KOLO_SIM_EXIT_NOEXEC;
        }
        // with end-to-end on, a request whose packet (or response) was dropped
        // waits in its NI for the timeout: requests unanswered and not given up
        net.reset(new ClusterNet(cluster.get(), [this] {
            return e2e && oracle_waiting + oracle_abandoned > ni_give_ups();
        }));
        cluster->set_fault(o.fault, o.fault_n);
    } else if (o.net == KOLO_NET_RTL) {
        net.reset(rtl_factory(this, topo, &err));
        if (!net) {
            std::fprintf(stderr, "kolo-sim: %s\n", err.c_str());
            return KOLO_SIM_EXIT_NOEXEC;
        }
    } else {
        net.reset(new_ideal_net(this, topo, o.hop_latency));
    }
    node.resize(nodes);
    pe.resize(npes);
    std::vector<kolo_route_entry> table(nodes);
    for (unsigned n = 0; n < nodes; n++) {
        Node &nd = node[n];
        nd.sim = this;
        nd.index = static_cast<int>(n);
        nd.id = kolo_node_id_of_index(&topo, n);
        if (cluster) {
            // default routing tables through BAR0 (MWr TLPs), as the firmware will
            kolo_table_default(&topo, nd.id, table.data());
            rtl_routes.emplace_back(nodes, 0u);
            for (unsigned d = 0; d < nodes; d++) {
                uint32_t e = table[d];
                rtl_routes.back()[d] = e;
                cluster->mmio_write(static_cast<int>(n), 0, KOLO_CSR_ROUTE(d), &e, 4);
            }
            continue;
        }
        kolo_ni_env env{};
        env.user = &nd;
        env.dma_read = env_dma_read;
        env.dma_write = env_dma_write;
        env.send = env_send;
        env.msi = env_msi;
        nd.ni = kolo_ni_new(&topo, nd.id, &env);
        if (!nd.ni) {
            std::fprintf(stderr, "kolo-sim: kolo_ni_new failed for node %s\n",
                         node_name(nd.id).c_str());
            return KOLO_SIM_EXIT_CHECK;
        }
        // default routing tables through BAR0, as the firmware will
        kolo_table_default(&topo, nd.id, table.data());
        for (unsigned d = 0; d < nodes; d++) {
            uint32_t e = table[d];
            kolo_ni_mmio_write(nd.ni, 0, KOLO_CSR_ROUTE(d), &e, 4);
        }
    }
    if (!create_shm(&err)) {
        std::fprintf(stderr, "kolo-sim: %s\n", err.c_str());
        return KOLO_SIM_EXIT_CHECK;
    }
    if (o.svc && !boot_service(&err)) {
        std::fprintf(stderr, "kolo-sim: %s\n", err.c_str());
        return KOLO_SIM_EXIT_CHECK;
    }
    if (o.rtl_trace) { // the window of --trace (default: from 1000 cycles before the first fault)
        uint64_t from = o.trace_start, first = UINT64_MAX;
        for (unsigned i = 0; i < o.nevents; i++)
            first = std::min(first, o.events[i].cycle);
        if (!o.trace_start && first != UINT64_MAX)
            from = first > 1000 ? first - 1000 : 0;
        if (!net->rtl_trace(o.rtl_trace, from, from + (o.trace_cycles ? o.trace_cycles : 30000), &err)) {
            std::fprintf(stderr, "kolo-sim: %s\n", err.c_str());
            return KOLO_SIM_EXIT_USAGE;
        }
    }
    if (cluster) { // the routing-table writes reach the NIs before any PE starts
        while (!cluster->idle() && !failed_check && cycle < 1000000) {
            cluster->step(cycle++);
            stepped++;
        }
        if (!cluster->idle() || failed_check) {
            std::fprintf(stderr, "kolo-sim: the NI RTL did not settle after the routing tables\n");
            cluster->dump(stderr);
            return KOLO_SIM_EXIT_CHECK;
        }
    }

    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigchld;
    sa.sa_flags = SA_NOCLDSTOP;
    sigaction(SIGCHLD, &sa, nullptr);
    sa.sa_handler = on_stop;
    sa.sa_flags = 0;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
    sigaction(SIGHUP, &sa, nullptr);

    t_start = now_s();
    if (o.verbose)
        std::fprintf(stderr, "kolo-sim: %ux%ux%u torus, %u PEs, net %s, shm %s\n", topo.size[0],
                     topo.size[1], topo.size[2], npes, net->name(), shm_name.c_str());
    start_pes();

    unsigned idle_run = 0, sleep_us = 0;
    uint64_t drain_cycles = 0;
    bool draining = false;
    double wall = 0;
    for (;;) {
        if (g_stop && !interrupted) {
            interrupted = true;
            end_msg =
                strf("interrupted by signal %d (%s)", static_cast<int>(g_stop), strsignal(g_stop));
            std::fprintf(stderr, "kolo-sim: %s\n", end_msg.c_str());
            set_status(128 + g_stop);
            kill_rest("");
        }
        if (g_sigchld || (cycle & 1023) == 0)
            reap();
        int32_t er = __atomic_load_n(&shm->exit_request, __ATOMIC_ACQUIRE);
        if (er && !global_exit) {
            global_exit = true;
            set_status((er - 1) & 0xff);
            end_msg = strf("global exit with status %d", (er - 1) & 0xff);
            if (o.verbose)
                std::fprintf(stderr, "kolo-sim: %s\n", end_msg.c_str());
            kill_rest("");
        }
        if (failed_check && !killed_rest) {
            end_msg = "scoreboard / NI oracle error: " + check_msg;
            kill_rest("");
        }
        if (first_failed_pe >= 0 && !killed_rest && !all_reaped() &&
            now_s() - t_first_fail >= o.grace_s)
            kill_rest(strf("still running %.1f s after PE %d failed", o.grace_s, first_failed_pe)
                          .c_str());
        if ((cycle & 1023) == 0 || idle_run > kIdleAfter) {
            wall = now_s() - t_start;
            if (o.timeout_s > 0 && wall >= o.timeout_s && !timed_out && !all_reaped()) {
                timed_out = true;
                end_msg =
                    strf("timeout: %.1f s wall clock (--timeout) at cycle %" PRIu64, wall, cycle);
            }
        }
        if (o.timeout_cycles && cycle >= o.timeout_cycles && !timed_out && !all_reaped()) {
            timed_out = true;
            end_msg = strf("timeout: %" PRIu64 " cycles (--timeout-cycles), wall %.1f s", cycle,
                           now_s() - t_start);
        }
        if (timed_out && !killed_rest) {
            std::fprintf(stderr, "kolo-sim: %s\n", end_msg.c_str());
            set_status(KOLO_SIM_EXIT_TIMEOUT);
            dump_state(stderr);
            kill_rest("timeout");
        }
        if (all_reaped()) {
            if (killed_rest || failed_check)
                break;
            if (!draining) {
                draining = true;
                drain_cycles = 0;
            }
            // (the firmware finishes handling the last fault: its numbers count)
            if (rings_empty() && nis_idle() && net->idle() && (!svc || svc->settled()))
                break;
            if (++drain_cycles > 1000000) {
                end_msg = "the NIs or the network were still busy 1000000 cycles after the last PE "
                          "exited";
                std::fprintf(stderr, "kolo-sim: warning: %s\n", end_msg.c_str());
                break;
            }
        }

        bool bad = false;
        bool act = drain_rings(&bad);
        if (svc) {
            watch_faults();
            svc->step(cycle);
            trace_sample();
            if (ctl && (cycle & 1023) == 0 && ctl->poll([this](const std::vector<std::string> &a) {
                    return ctl_command(a);
                }))
                act = true;
        }
        for (Node &nd : node)
            if (nd.ni && (node_up.empty() || node_up[static_cast<size_t>(nd.index)]) &&
                kolo_ni_step(nd.ni))
                act = true;
        if (holding && cycle - held_cycle > 2000) { // --fault=reorder found no later packet
            net->send(held_node, held, cycle);
            holding = false;
        }
        if (!net->idle() || act) {
            if (net->step(cycle)) {
                act = true;
                net_last_move = cycle;
            } else if (!net->idle() && cycle - net_last_move > kNetWatchdog && !failed_check) {
                check_fail(strf("network: nothing moved for %" PRIu64
                                " cycles with packets inside (deadlock?)",
                                kNetWatchdog));
                dump_state(stderr);
            }
        } else {
            net_last_move = cycle;
        }
        if (net->idle() && !holding && !failed_check && kolo_model_pending(model) != 0)
            check_fail(strf("scoreboard: the network is empty but %" PRIu64
                            " packets sent by NIs were never delivered (lost)",
                            kolo_model_pending(model)));
        cycle++;
        stepped++;
        __atomic_store_n(&shm->sim_cycle, cycle, __ATOMIC_RELEASE);

        if (act) {
            idle_run = 0;
            sleep_us = 0;
        } else if (!o.no_idle && net->idle() && rings_empty() && nis_idle() &&
                   (!svc || svc->settled()) && !(vcd.is_open() && cycle >= trace_from)) {
            if (++idle_run > kIdleAfter) {
                if (ctl)
                    ctl->poll([this](const std::vector<std::string> &a) { return ctl_command(a); });
                // nothing to do until a PE writes its ring: let the PEs have the CPU
                sleep_us = sleep_us ? (sleep_us * 2 > kMaxSleepUs ? kMaxSleepUs : sleep_us * 2) : 5;
                struct timespec ts = {0, static_cast<long>(sleep_us) * 1000};
                nanosleep(&ts, nullptr);
                cycle += kIdleStep;
                __atomic_store_n(&shm->sim_cycle, cycle, __ATOMIC_RELEASE);
            }
        } else {
            idle_run = 0;
        }
    }
    if (svc)
        watch_faults(); // a settle in the last cycle
    // every PE gone (or being killed): collect them
    kill_rest("");
    for (unsigned i = 0; i < npes; i++) {
        Pe &x = pe[i];
        while (!x.reaped && x.pid > 0) {
            int ws;
            pid_t pid = waitpid(x.pid, &ws, 0);
            if (pid < 0 && errno == EINTR)
                continue;
            x.reaped = true;
            if (pid == x.pid)
                x.how = WIFSIGNALED(ws) ? strf("killed by signal %d (by kolo-sim)", WTERMSIG(ws))
                                        : strf("exit %d", WEXITSTATUS(ws));
        }
    }
    wall = now_s() - t_start;
    __atomic_store_n(&shm->sim_alive, 0u, __ATOMIC_RELEASE);
    // requests never answered, once everything is quiet
    if (e2e && !failed_check && !killed_rest && nis_idle() && net->idle())
        e2e_oracle_end();
    std::string fw_why;
    if (svc && !failed_check && svc->firmware_errors(&fw_why))
        check_fail("firmware: " + fw_why);
    if (!e2e && !failed_check && !killed_rest && nis_idle() && net->idle() && !reqs.empty()) {
        auto it = reqs.begin();
        const Req &first = it->second.front();
        unsigned req = static_cast<unsigned>(it->first >> 20),
                 tgt = static_cast<unsigned>((it->first >> 8) & 0xfff);
        check_fail(strf("NI oracle: %zu requests never answered (e.g. %s tag %u from %s to %s) "
                        "with every NI idle",
                        static_cast<size_t>(oracle_waiting), kOpNames[first.op],
                        static_cast<unsigned>(it->first & 0xff),
                        node_name(static_cast<uint16_t>(req)).c_str(),
                        node_name(static_cast<uint16_t>(tgt)).c_str()));
    }
    if (!failed_check && !killed_rest && net->idle() && kolo_model_pending(model) != 0)
        check_fail(strf("scoreboard: %" PRIu64 " packets injected and never delivered",
                        kolo_model_pending(model)));
    if (failed_check && end_msg.empty())
        end_msg = "scoreboard / NI oracle error: " + check_msg;
    set_status(0);
    if (o.report || status != 0)
        report(stderr, wall);
    if (o.bench) {
        std::printf("BENCH %s_cycles %" PRIu64 " cycles\n", o.bench, cycle);
        std::printf("BENCH %s_sim_speed %.0f cycles/s\n", o.bench,
                    wall > 0 ? static_cast<double>(stepped) / wall : 0.0);
        std::printf("BENCH %s_wall %.3f s\n", o.bench, wall);
        if (!faults.empty()) {
            // the first event: link down to new tables installed everywhere
            if (faults[0].settled)
                std::printf("BENCH %s_recovery_cycles %" PRIu64 " cycles\n", o.bench,
                            faults[0].settled - faults[0].cycle);
            std::printf("BENCH %s_traffic_stall_cycles %" PRIu64 " cycles\n", o.bench, max_wait);
        }
        std::fflush(stdout);
    }
    return status;
}

} // namespace

int sim_main(int argc, char **argv, NetFactory rtl, const char *rtl_torus, ClusterFactory rtl_ni) {
    Sim sim;
    char err[512];
    int rc = kolo_sim_parse(argc, argv, &sim.o, err, sizeof err);
    if (rc == 1) {
        kolo_sim_usage("kolo-sim", 0);
        return 0;
    }
    if (rc == 0 && kolo_sim_resolve(&sim.o, err, sizeof err))
        rc = -1;
    if (rc) {
        std::fprintf(stderr, "kolo-sim: %s\n", err);
        return KOLO_SIM_EXIT_USAGE;
    }
    char path[PATH_MAX];
    rc = kolo_sim_find_prog(argv[sim.o.prog_index], path, sizeof path, err, sizeof err);
    if (rc) {
        std::fprintf(stderr, "kolo-sim: %s\n", err);
        return rc;
    }
    sim.prog_path = path;
    sim.argv = argv;
    if (sim.o.ni == KOLO_NI_RTL) {
        std::string want =
            strf("%ux%ux%u", sim.o.topo.size[0], sim.o.topo.size[1], sim.o.topo.size[2]);
        if (!rtl_ni || !rtl_torus || want != rtl_torus) {
            // the NI RTL of each torus size is its own Verilator build, next to this binary
            char dir[PATH_MAX];
            if (kolo_sim_self_dir(dir, sizeof dir)) {
                std::fprintf(stderr, "kolo-sim: cannot find my own directory\n");
                return KOLO_SIM_EXIT_NOEXEC;
            }
            std::string exe = std::string(dir) + "/kolo-sim-ni-" + want;
            if (access(exe.c_str(), X_OK)) {
                std::fprintf(stderr,
                             "kolo-sim: no NI RTL simulator for a %s torus: %s is missing; build "
                             "it with `make sim-rtlni-%s` (a Verilator build, minutes)\n",
                             want.c_str(), exe.c_str(), want.c_str());
                return KOLO_SIM_EXIT_NOEXEC;
            }
            argv[0] = const_cast<char *>(exe.c_str());
            execv(exe.c_str(), argv);
            std::fprintf(stderr, "kolo-sim: exec %s: %s\n", exe.c_str(), std::strerror(errno));
            return KOLO_SIM_EXIT_NOEXEC;
        }
        sim.ni_factory = rtl_ni;
    } else if (sim.o.net == KOLO_NET_RTL) {
        // the traced build of a size is kolo-sim-trace-XxYxZ; it names itself "XxYxZ-trace"
        std::string size = strf("%ux%ux%u", sim.o.topo.size[0], sim.o.topo.size[1], sim.o.topo.size[2]);
        std::string want = size + (sim.o.rtl_trace ? "-trace" : "");
        if (!rtl || !rtl_torus || want != rtl_torus) {
            // the RTL of each torus size is its own Verilator build, next to this binary
            char dir[PATH_MAX];
            if (kolo_sim_self_dir(dir, sizeof dir)) {
                std::fprintf(stderr, "kolo-sim: cannot find my own directory\n");
                return KOLO_SIM_EXIT_NOEXEC;
            }
            std::string bin = sim.o.rtl_trace ? "trace-" + size : size;
            std::string exe = std::string(dir) + "/kolo-sim-" + bin;
            if (access(exe.c_str(), X_OK)) {
                std::fprintf(
                    stderr,
                    "kolo-sim: no RTL simulator for a %s torus%s: %s is missing; build it with "
                    "`make sim-rtl-%s` (a Verilator build, minutes)\n",
                    size.c_str(), sim.o.rtl_trace ? " with tracing" : "", exe.c_str(), bin.c_str());
                return KOLO_SIM_EXIT_NOEXEC;
            }
            argv[0] = const_cast<char *>(exe.c_str());
            execv(exe.c_str(), argv);
            std::fprintf(stderr, "kolo-sim: exec %s: %s\n", exe.c_str(), std::strerror(errno));
            return KOLO_SIM_EXIT_NOEXEC;
        }
        sim.rtl_factory = rtl;
    }
    return sim.run();
}

} // namespace kolo_sim
