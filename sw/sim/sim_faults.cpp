// sim_faults.cpp - kolo-sim: fault events (links, nodes), the service
// processors (boot, MGMT, installed tables and their checks) and the
// commands of kolo-ctl (sim_core.h, docs/firmware.md section 6).
#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdlib>
#include <cstring>

#include "kolo_svc_regs.h"

#include "sim_core.h"

namespace kolo_sim {

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
    if (cluster)
        svc.reset(cluster->service(this)); // --net=chip: the chips' service processors
    if (!svc)
        svc.reset(new Svc(this, topo, o.fw_compute, o.verbose > 1, stderr));
    svc->boot(cycle);
    // chips (--net=chip) run their own processors from reset (cycle 0): their boot
    // ends at the last table they installed, maybe before this loop starts
    bool chips = cluster && cluster->routes_itself();
    uint64_t start = cycle;
    std::string why;
    while (!failed_check && !(svc->settled() && svc->stats().installs >= nodes)) {
        // a firmware that failed at boot ends the run now, not at the boot limit
        if ((cycle - start) % 64 == 0 && svc->firmware_errors(&why))
            break;
        if (cycle - start > 2000000) {
            *err = "the service processors did not boot within 2000000 cycles";
            svc->report(stderr, true);
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
    if (svc->firmware_errors(&why)) {
        *err = "firmware: " + why;
        return false;
    }
    boot_cycles = chips ? svc->last_install_time() : cycle - start;
    if (chips) {
        // the tables the chips' firmware installed, not the core's: checked as after a fault
        check_installed_tables();
        if (failed_check) {
            *err = "after boot: " + check_msg;
            return false;
        }
    }
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

} // namespace kolo_sim
