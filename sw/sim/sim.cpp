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
//
// Length (~810 lines): the cycle loop, the PE launch and the report share the
// simulator's one global state; moving the report into a file of its own is
// planned.
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
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
#include "sim_core.h"

namespace kolo_sim {

const char *const kOpNames[16] = {"PUT",       "GET_REQ",  "GET_RESP", "ADD", "XOR", "FETCH_ADD",
                                  "FETCH_XOR", "SWAP",     "CSWAP",    "ACK", "NAK", "MGMT",
                                  "FETCH_AND", "FETCH_OR", "RESYNC",   "op15"};

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

volatile sig_atomic_t g_sigchld = 0;
volatile sig_atomic_t g_stop = 0;

namespace {

void on_sigchld(int) { g_sigchld = 1; }
void on_stop(int sig) { g_stop = sig; }

} // namespace

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
    return vcd.open(o.trace, 1000000u / o.core_mhz, err);
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
    if (fast)
        fast->dump(f);
    std::fprintf(f,
                 "  scoreboard: %" PRIu64
                 " packets in the network; NI oracle: %zu requests without response\n",
                 kolo_model_pending(model), static_cast<size_t>(oracle_waiting));
}

// The report tells the story first: what ran, how it ended, what failed and
// how the network recovered, then the traffic and the totals over all NIs.
// KOLO_REPORT_FULL (and every failed run) adds the counters of every NI and
// of every service processor behind a marker line.
void Sim::report(FILE *f, double wall, bool full) {
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
    if (fast) {
        const FastStats &fs = fast->stats();
        uint64_t amo = 0, moved = fs.bytes_put + fs.bytes_get;
        for (int k = KOLO_D_ADD; k <= KOLO_D_OR; k++)
            amo += fs.ops[k];
        std::fprintf(f,
                     "fast mode: %" PRIu64 " puts, %" PRIu64 " gets, %" PRIu64 " atomics, %" PRIu64
                     " NOPs; %" PRIu64 " bytes put, %" PRIu64 " got (%.2f GB per wall second), %" PRIu64
                     " refused (NAK), %" PRIu64 " other errors; %" PRIu64 " flits modelled; "
                     "timing noise 0-%u cycles, seed %" PRIu64 "\n",
                     fs.ops[KOLO_D_PUT], fs.ops[KOLO_D_GET], amo, fs.ops[KOLO_D_NOP], fs.bytes_put,
                     fs.bytes_get, wall > 0 ? static_cast<double>(moved) / wall / 1e9 : 0.0, fs.naks,
                     fs.local_errors, fs.flits, fast->jitter(), fast->seed());
    }
    // PEs: the ones that ended otherwise than with status 0 by name, the rest counted
    std::string odd, every;
    unsigned clean = 0;
    for (unsigned i = 0; i < npes; i++) {
        const char *how = pe[i].reaped ? pe[i].how.c_str() : "running";
        every += strf("%sPE %u: %s", i ? ", " : "", i, how);
        if (pe[i].reaped && pe[i].how == "exit 0")
            clean++;
        else
            odd += strf("%sPE %u: %s", odd.empty() ? "" : ", ", i, how);
    }
    if (clean == npes)
        std::fprintf(f, "PEs: all %u exited with status 0\n", npes);
    else
        std::fprintf(f, "PEs: %s%s\n", odd.c_str(),
                     clean ? strf("; %u others exited with status 0", clean).c_str() : "");
    if (!end_msg.empty())
        std::fprintf(f, "end: %s\n", end_msg.c_str());
    if (o.fail_card) {
        const Pe &x = pe[o.fail_card - 1];
        std::fprintf(f,
                     "card of PE %d gone at cycle %" PRIu64 " (--fail-card): %s; %" PRIu64
                     " MMIO reads answered all ones, %" PRIu64 " writes dropped\n",
                     o.fail_card - 1, o.fail_card_at,
                     cycle >= o.fail_card_at ? "it went" : "the run ended first", x.gone_reads,
                     x.gone_writes);
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
        svc->report(f, false);
    }
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
    // every NI's counters: one row per NI (full), their sums always
    enum { TX, RX, NAK_TX, NAK_RX, BAD, DMA_ERR, ERR_CSR, RD_B, WR_B, NCOL };
    uint64_t sum[NCOL] = {};
    std::string rows;
    for (unsigned n = 0; n < nodes; n++) {
        int i = static_cast<int>(n);
        const Node &nd = node[n];
        uint64_t c[NCOL] = {};
        bool have_err_csr = !cluster;
        if (cluster) {
            uint64_t st[6];
            cluster->ni_stats(i, st);
            for (int k = 0; k < 6; k++)
                c[k] = st[k];
        } else {
            c[TX] = csr(i, KOLO_CSR_STAT_TX_PKTS);
            c[RX] = csr(i, KOLO_CSR_STAT_RX_PKTS);
            c[NAK_TX] = csr(i, KOLO_CSR_STAT_NAK_SENT);
            c[NAK_RX] = csr(i, KOLO_CSR_STAT_NAK_RCVD);
            c[BAD] = csr(i, KOLO_CSR_STAT_BAD_PKTS);
            c[DMA_ERR] = csr(i, KOLO_CSR_STAT_DMA_ERR);
            c[ERR_CSR] = csr(i, KOLO_CSR_ERR_CSR, 4);
        }
        c[RD_B] = nd.dma_rd;
        c[WR_B] = nd.dma_wr;
        for (int k = 0; k < NCOL; k++)
            sum[k] += c[k];
        if (!full)
            continue;
        rows += strf("%-10s %3s %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %8" PRIu64
                     " %8" PRIu64 " %7s %10" PRIu64 " %10" PRIu64 "\n",
                     node_name(nd.id).c_str(), nd.pe >= 0 ? std::to_string(nd.pe).c_str() : "-",
                     c[TX], c[RX], c[NAK_TX], c[NAK_RX], c[BAD], c[DMA_ERR],
                     have_err_csr ? std::to_string(c[ERR_CSR]).c_str() : "-", c[RD_B], c[WR_B]);
        if (cluster)
            rows += strf("%-10s PCIe: %s\n", "", cluster->pcie_report(i).c_str());
    }
    std::fprintf(f,
                 "NIs (sum of %u): %" PRIu64 " packets sent, %" PRIu64 " received, NAK %" PRIu64
                 " sent / %" PRIu64 " received, %" PRIu64 " bad packets, %" PRIu64
                 " DMA errors, DMA %" PRIu64 " bytes read / %" PRIu64 " written%s\n",
                 nodes, sum[TX], sum[RX], sum[NAK_TX], sum[NAK_RX], sum[BAD], sum[DMA_ERR],
                 sum[RD_B], sum[WR_B], full ? "" : " (each NI: --report=full)");
    std::fprintf(f, "exit status %d\n", status);
    if (!full)
        return;
    std::fprintf(f, "---- every NI ----\n");
    std::fprintf(f, "%-10s %3s %8s %8s %8s %8s %8s %8s %7s %10s %10s\n", "NI", "PE", "TX_PKTS",
                 "RX_PKTS", "NAK_SENT", "NAK_RCVD", "BAD_PKTS", "DMA_ERR", "ERR_CSR", "DMA_RD_B",
                 "DMA_WR_B");
    std::fputs(rows.c_str(), f);
    std::fprintf(f, "---- every PE ----\nPEs: %s\n", every.c_str());
    if (svc) {
        std::fprintf(f, "---- every service processor ----\n");
        svc->report(f, true);
    }
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
        // waits in its NI for the timeout: requests unanswered and not given up,
        // or (what the oracle cannot see) tags the NIs still hold
        net.reset(new ClusterNet(cluster.get(), [this] {
            return e2e && (oracle_waiting + oracle_abandoned > ni_give_ups() || cluster->tags_taken());
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
        if (cluster && cluster->routes_itself()) // --net=chip: the chips' firmware does
            continue;
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
        if (o.fast) // --fast: the transaction-level NIs (below) instead
            continue;
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
    if (o.fast)
        fast.reset(new FastNet(this, topo, o.hop_latency, o.jitter, o.seed));
    if (!create_shm(&err)) {
        std::fprintf(stderr, "kolo-sim: %s\n", err.c_str());
        return KOLO_SIM_EXIT_CHECK;
    }
    if ((o.svc || o.net == KOLO_NET_CHIP) && !boot_service(&err)) {
        std::fprintf(stderr, "kolo-sim: %s\n", err.c_str());
        return KOLO_SIM_EXIT_CHECK;
    }
    if (o.rtl_trace) { // the window of --trace (default: from 1000 cycles before the first fault)
        uint64_t from = o.trace_start, first = UINT64_MAX;
        for (unsigned i = 0; i < o.nevents; i++)
            first = std::min(first, o.events[i].cycle);
        // no event applies before the service processors have booted (the chips'
        // own cores boot in about 127000 cycles): the window starts there at the earliest
        if (first != UINT64_MAX)
            first = std::max(first, cycle);
        if (!o.trace_start && first != UINT64_MAX)
            from = first > 1000 ? first - 1000 : 0;
        if (!net->rtl_trace(o.rtl_trace, from, from + (o.trace_cycles ? o.trace_cycles : 30000),
                            1000000u / o.core_mhz, &err)) {
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
    if (o.server)
        announce_server();
    else
        start_pes();

    unsigned idle_run = 0, sleep_us = 0;
    uint64_t drain_cycles = 0;
    bool draining = false;
    double wall = 0;
    for (;;) {
        det_flush(); // (a step left by a continue)
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
        if (o.det && !killed_rest && !all_reaped() && all_detached()) {
            // --det: every PE has detached (exits now): collect them before the next
            // cycle, so the last cycles do not depend on how soon they are reaped
            while (!all_reaped()) {
                struct timespec ts = {0, 1000000};
                reap();
                if (!all_reaped())
                    nanosleep(&ts, nullptr);
            }
        }
        if (all_reaped()) {
            if (killed_rest || failed_check)
                break;
            if (!draining) {
                draining = true;
                drain_cycles = 0;
            }
            // (the firmware finishes handling the last fault: its numbers count; a fault
            // the service processors have not yet seen, or are still computing tables
            // for, as the chips' RV32 cores may be long after a short program, is waited
            // for: it is settled once new tables are everywhere)
            if (rings_empty() && nis_idle() && net->idle() &&
                (!svc || (svc->settled() && (faults.empty() || faults.back().settled))))
                break;
            if (++drain_cycles > 1000000) {
                end_msg = "the NIs, the network or the service processors were still busy 1000000 "
                          "cycles after the last PE exited";
                std::fprintf(stderr, "kolo-sim: warning: %s\n", end_msg.c_str());
                break;
            }
        }

        // --det: simulated time moves on only while every PE waits on the simulator
        if (o.det && !draining && (!det_hold() || all_detached()))
            continue; // the run is ending (signal, exit, timeout; every PE gone): the top of
                      // the loop ends it, at the same cycle however soon the last one left
        if (o.det && !draining)
            det_wake_take();
        bool bad = false;
        uint64_t writes_before = writes_to_pes; // --fast: did this cycle give a PE anything?
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
        if (fast) {
            // --fast: what is due now; then on to the next event at once, unless a PE
            // was written to (it acts at the next cycle) or has requests waiting
            if (fast->run_until(cycle))
                act = true;
            uint64_t nx = fast->next_event();
            if (o.det) // (a poll's wake is an event too)
                nx = std::min(nx, det_wake_next());
            if (writes_before == writes_to_pes && rings_empty() && nx != UINT64_MAX && nx > cycle + 1)
                cycle = nx - 1;
        }
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
        if (o.det && det_wake_due())
            act = true; // (as after a write into a PE: not idle, the rings not looked at)

        if (act) {
            idle_run = 0;
            sleep_us = 0;
        } else if (!o.no_idle && net->idle() && rings_empty() && nis_idle() &&
                   (!svc || svc->settled()) && !(vcd.is_open() && cycle >= trace_from)) {
            if (++idle_run > kIdleAfter) {
                if (ctl)
                    ctl->poll([this](const std::vector<std::string> &a) { return ctl_command(a); });
                const bool stuck = o.det && !draining && !timed_out && det_stuck();
                bool looks = false;
                if (stuck && !det_looked) {
                    // before calling the run stuck, every PE gets one wake: the waits of
                    // libkolo and libkolo_shmem then read a register (kolo_sim_client.h
                    // "Looks"), so that a PE whose card is gone (--fail-card) finds it
                    // at a cycle that does not depend on the wall clock
                    det_looked = looks = true;
                    for (unsigned i = 0; i < npes; i++)
                        if (!pe[i].reaped) {
                            __atomic_add_fetch(&kolo_sim_shm_pe_slot(shm, i)->wake_fired, 1u,
                                               __ATOMIC_RELEASE);
                            pe_wrote(static_cast<int>(i));
                        }
                    idle_run = 0;
                } else if (stuck) {
                    // nothing can ever change: every PE waits, nothing is in flight or due
                    // (and each has looked at its device once since)
                    timed_out = true;
                    end_msg = strf("--det: every PE waits on the simulator and nothing is in "
                                   "flight or scheduled at cycle %" PRIu64
                                   ": the program is stuck",
                                   cycle);
                }
                // nothing to do until a PE writes its ring: let the PEs have the CPU
                // (--det: they are all blocked, no need, unless a PE has a thread
                // outside every wait). Not after the looks: the woken PEs run now.
                if (!looks) {
                    sleep_us =
                        sleep_us ? (sleep_us * 2 > kMaxSleepUs ? kMaxSleepUs : sleep_us * 2) : 5;
                    struct timespec ts = {0, static_cast<long>(sleep_us) * 1000};
                    if (!o.det || det_partial())
                        nanosleep(&ts, nullptr);
                    uint64_t step = kIdleStep;
                    if (o.det) { // not past a poll's wake
                        uint64_t w = det_wake_next();
                        if (w != UINT64_MAX)
                            step = w > cycle ? std::min<uint64_t>(step, w - cycle) : 0;
                    }
                    cycle += step;
                    __atomic_store_n(&shm->sim_cycle, cycle, __ATOMIC_RELEASE);
                    if (o.det)
                        det_wake_due();
                }
            }
        } else {
            idle_run = 0;
        }
        det_flush(); // --det: the step's writes are made; now the PEs may see them
    }
    det_flush();
    if (svc)
        watch_faults(); // a settle in the last cycle
    // every PE gone (or being killed): collect them. (Killing nobody is no
    // reason to skip the end-of-run checks below, which a kill would void.)
    {
        bool before = killed_rest;
        if (!kill_rest("") && !before)
            killed_rest = false;
    }
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
        report(stderr, wall, o.report == KOLO_REPORT_FULL || status != 0);
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

// Each RTL back end of each torus size is its own Verilator build, next to
// this binary: exec kolo-sim-<bin> with our arguments. Returns only on
// failure, with the exit code (what is missing and how to build it printed).
static int exec_sibling(char **argv, const std::string &bin, const std::string &what,
                        const std::string &target) {
    char dir[PATH_MAX];
    if (kolo_sim_self_dir(dir, sizeof dir)) {
        std::fprintf(stderr, "kolo-sim: cannot find my own directory\n");
        return KOLO_SIM_EXIT_NOEXEC;
    }
    std::string exe = std::string(dir) + "/kolo-sim-" + bin;
    if (access(exe.c_str(), X_OK)) {
        std::fprintf(stderr,
                     "kolo-sim: no %s: %s is missing; build it with `make %s` (a Verilator build, "
                     "minutes)\n",
                     what.c_str(), exe.c_str(), target.c_str());
        return KOLO_SIM_EXIT_NOEXEC;
    }
    argv[0] = const_cast<char *>(exe.c_str());
    execv(exe.c_str(), argv);
    std::fprintf(stderr, "kolo-sim: exec %s: %s\n", exe.c_str(), std::strerror(errno));
    return KOLO_SIM_EXIT_NOEXEC;
}

int sim_main(int argc, char **argv, NetFactory rtl, const char *rtl_torus, ClusterFactory rtl_ni,
             ClusterFactory rtl_chip) {
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
    char path[PATH_MAX] = "";
    rc = sim.o.server
             ? 0
             : kolo_sim_find_prog(argv[sim.o.prog_index], path, sizeof path, err, sizeof err);
    if (rc) {
        std::fprintf(stderr, "kolo-sim: %s\n", err);
        return rc;
    }
    sim.prog_path = path;
    sim.argv = argv;
    std::string size = strf("%ux%ux%u", sim.o.topo.size[0], sim.o.topo.size[1], sim.o.topo.size[2]);
    if (sim.o.net == KOLO_NET_CHIP) {
        if (!rtl_chip || !rtl_torus || size != rtl_torus)
            return exec_sibling(argv, "chip-" + size, "chip simulator for a " + size + " torus",
                                "sim-chip-" + size);
        sim.ni_factory = rtl_chip;
    } else if (sim.o.ni == KOLO_NI_RTL) {
        if (!rtl_ni || !rtl_torus || size != rtl_torus)
            return exec_sibling(argv, "ni-" + size, "NI RTL simulator for a " + size + " torus",
                                "sim-rtlni-" + size);
        sim.ni_factory = rtl_ni;
    } else if (sim.o.net == KOLO_NET_RTL) {
        // the traced build of a size is kolo-sim-trace-XxYxZ; it names itself "XxYxZ-trace"
        std::string want = size + (sim.o.rtl_trace ? "-trace" : "");
        if (!rtl || !rtl_torus || want != rtl_torus) {
            std::string bin = sim.o.rtl_trace ? "trace-" + size : size;
            return exec_sibling(argv, bin,
                                "RTL simulator for a " + size + " torus" +
                                    (sim.o.rtl_trace ? " with tracing" : ""),
                                "sim-rtl-" + bin);
        }
        sim.rtl_factory = rtl;
    }
    return sim.run();
}

} // namespace kolo_sim
