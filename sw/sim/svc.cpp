// svc.cpp - the service processors of kolo-sim (see svc.h): per node a
// kolo_svc_model, the native firmware over a HAL that reads and writes it,
// and MGMT packets that travel the simulated network like any other.
#include "svc.h"

#include <cstring>

extern "C" {
#include "kolo_fw.h"
#include "kolo_svc_model.h"
}

extern "C" {
uint32_t kolo_hal_read32(kolo_hal *h, uint32_t addr) {
    if (h->bus) return h->bus->read32(addr);
    uint32_t v = 0;
    kolo_svc_read(h->m, addr, &v, 0);
    return v;
}
void kolo_hal_write32(kolo_hal *h, uint32_t addr, uint32_t value) {
    if (h->bus) return h->bus->write32(addr, value);
    kolo_svc_write(h->m, addr, value, 0);
}
uint64_t kolo_hal_time(kolo_hal *h) { return h->bus ? h->bus->time() : h->svc->now(); }
void kolo_hal_wait(kolo_hal *h, uint64_t deadline) { (void)h, (void)deadline; }
void kolo_hal_log(kolo_hal *h, const char *line) {
    if (h->bus) return h->bus->log(line);
    h->svc->log_line(h->node, line);
}
}

namespace kolo_sim {

struct Svc::Node {
    kolo_hal hal{};
    kolo_svc_model *m = nullptr;
    kolo_fw *fw = nullptr;
    bool up = true;
    uint32_t bad_writes_seen = 0;
    std::deque<std::string> log;
};

static int c_mgmt_send(void *ctx, uint16_t dst, uint32_t rs, const uint32_t *w, unsigned n) {
    auto *h = static_cast<kolo_hal *>(ctx);
    return h->svc->mgmt_send(h->node, dst, rs, w, n);
}
static void c_route_switch(void *ctx, const kolo_route_entry *t, unsigned entries, uint16_t epoch) {
    auto *h = static_cast<kolo_hal *>(ctx);
    h->svc->route_switch(h->node, t, entries, epoch);
}

Svc::Svc(SvcHost *host, const kolo_topo &t, uint64_t compute_cycles, bool verbose, FILE *log)
    : host_(host), topo_(t), nodes_(kolo_topo_nodes(&t)), compute_cycles_(compute_cycles), verbose_(verbose),
      log_(log) {
    ws_.resize(kolo_fw_workspace_size(&topo_));
    // one whole-set buffer for all: the firmware instances never run at once
    set_.resize(kolo_fw_set_entries(&topo_));
    for (unsigned i = 0; i < nodes_; i++) {
        Node *nd = new Node;
        nd->hal.svc = this;
        nd->hal.node = static_cast<int>(i);
        nd->fw = static_cast<kolo_fw *>(operator new(sizeof(kolo_fw)));
        node_.push_back(nd);
    }
}

Svc::~Svc() {
    for (Node *nd : node_) {
        if (nd->m) kolo_svc_free(nd->m);
        operator delete(nd->fw);
        delete nd;
    }
}

void Svc::log_line(int n, const char *line) {
    if (verbose_ && log_) fprintf(log_, "[%10llu] %s\n", static_cast<unsigned long long>(now_), line);
    std::deque<std::string> &l = node_[static_cast<size_t>(n)]->log;
    l.push_back("[cycle " + std::to_string(now_) + "] " + line);
    if (l.size() > 64) l.pop_front();
}

const std::deque<std::string> &Svc::log(int n) const { return node_[static_cast<size_t>(n)]->log; }
bool Svc::node_up(int n) const { return node_[static_cast<size_t>(n)]->up; }
const kolo_route_entry *Svc::active_table(int n, uint16_t *epoch) const {
    const Node *nd = node_[static_cast<size_t>(n)];
    if (!nd->up || !nd->m) return nullptr;
    return kolo_svc_active_table(nd->m, epoch);
}
void Svc::set_router(int n, uint8_t port_down, uint32_t fault_drops) {
    Node *nd = node_[static_cast<size_t>(n)];
    if (!nd->up || !nd->m) return;
    static const uint32_t zero[7] = {0, 0, 0, 0, 0, 0, 0};
    kolo_svc_set_router(nd->m, port_down, 0, 0, fault_drops, zero);
}

int Svc::mgmt_send(int n, uint16_t dst, uint32_t rs, const uint32_t *w, unsigned nwords) {
    kolo_pkt p{};
    uint16_t src = kolo_node_id_of_index(&topo_, static_cast<unsigned>(n));
    unsigned flits = (nwords + 1) / 2;
    p.src = src;
    p.dst = dst;
    // MGMT travels on the response virtual network: endpoints always drain
    // it, so service traffic never waits behind a node's backed-up requests
    p.vnet = 1;
    p.ordered = 0;
    p.op = 11; // MGMT
    p.len = static_cast<uint8_t>(flits);
    p.header[0] = static_cast<uint64_t>(dst & 0xfffu) | static_cast<uint64_t>(src & 0xfffu) << 12 |
                  static_cast<uint64_t>(11) << 24 | static_cast<uint64_t>(1) << 28 |
                  static_cast<uint64_t>(flits) << 29 |
                  static_cast<uint64_t>(rs & KOLO_RS_MASK) << 36;
    p.header[1] = nwords; // MGMT: header flit 1 bits 7:0 = words
    for (unsigned i = 0; i < flits; i++) {
        uint64_t lo = w[2 * i], hi = 2 * i + 1 < nwords ? w[2 * i + 1] : 0;
        p.payload[i] = lo | hi << 32;
    }
    if (!host_->svc_inject(n, p)) return 0;
    stats_.mgmt_sent++;
    return 1;
}

void Svc::route_switch(int n, const kolo_route_entry *t, unsigned entries, uint16_t epoch) {
    stats_.installs++;
    host_->svc_install(n, t, entries, epoch);
}

// A fresh service block for node index i and its firmware booting on it.
void Svc::start_node(unsigned i, uint64_t now) {
    Node *nd = node_[i];
    kolo_fw_config cfg;
    kolo_fw_default_config(&cfg);
    if (compute_cycles_) cfg.compute_cycles = compute_cycles_;
    cfg.verbose = 1; // every line kept for kolo-ctl events; printed with -v
    if (nd->m) kolo_svc_free(nd->m);
    kolo_svc_env env{&nd->hal, c_mgmt_send, c_route_switch, nullptr};
    nd->m = kolo_svc_new(kolo_node_id_of_index(&topo_, i), &topo_, &env);
    nd->hal.m = nd->m;
    kolo_svc_set_time(nd->m, now);
    kolo_fw_init(nd->fw, &nd->hal, &cfg, ws_.data(), ws_.size(), set_.empty() ? nullptr : set_.data(), set_.size());
}

void Svc::boot(uint64_t now) {
    now_ = now;
    for (unsigned i = 0; i < nodes_; i++)
        if (node_[i]->up) start_node(i, now);
    // links train: every present link reports up with its true peer
    for (unsigned i = 0; i < nodes_; i++) {
        if (!node_[i]->up) continue;
        for (int p = 0; p < 6; p++)
            if (kolo_port_present(&topo_, p)) link_state(static_cast<int>(i), p, true);
    }
}

void Svc::link_state(int n, int port, bool up) {
    Node *nd = node_[static_cast<size_t>(n)];
    if (!nd->up || !nd->m) return;
    uint16_t me = kolo_node_id_of_index(&topo_, static_cast<unsigned>(n));
    kolo_svc_set_link(nd->m, port, up, kolo_neighbor(&topo_, me, port), port ^ 1);
}

void Svc::node_state(int n, bool up, uint64_t now) {
    Node *nd = node_[static_cast<size_t>(n)];
    if (nd->up == up) return;
    nd->up = up;
    if (!up) return;
    now_ = now; // reboot this node only
    start_node(static_cast<unsigned>(n), now);
}

void Svc::step(uint64_t now) {
    now_ = now;
    for (Node *nd : node_) {
        if (!nd->up || !nd->m) continue;
        kolo_svc_set_time(nd->m, now);
        kolo_svc_mgmt_retry(nd->m);
        if (kolo_svc_irq(nd->m) || kolo_fw_deadline(nd->fw) <= now) kolo_fw_step(nd->fw);
    }
}

void Svc::deliver(int n, const kolo_pkt &p) {
    Node *nd = node_[static_cast<size_t>(n)];
    if (!nd->up || !nd->m) {
        stats_.mgmt_dropped++;
        return;
    }
    unsigned words = static_cast<unsigned>(p.header[1] & 0xffu);
    if (words == 0 || words > 2u * p.len) words = 2u * p.len;
    uint32_t w[64];
    for (unsigned i = 0; i < words && i < 64; i++)
        w[i] = static_cast<uint32_t>(p.payload[i / 2] >> (32 * (i % 2)));
    if (kolo_svc_mgmt_deliver(nd->m, p.src, w, words) == 0)
        stats_.mgmt_delivered++;
    else
        stats_.mgmt_dropped++;
}

bool Svc::settled() const {
    bool first = true;
    uint16_t d = 0;
    for (const Node *nd : node_) {
        if (!nd->up || !nd->m) continue;
        const kolo_fw *fw = nd->fw;
        if (fw->stage != KOLO_FW_RUNNING || fw->recompute_at || fw->install_at || fw->txq_count) return false;
        if (first) d = fw->installed_digest, first = false;
        if (fw->installed_digest != d) return false;
    }
    return true;
}

uint16_t Svc::installed_digest(int n) const { return node_[static_cast<size_t>(n)]->fw->installed_digest; }

uint64_t Svc::last_install_time() const {
    uint64_t t = 0;
    for (const Node *nd : node_)
        if (nd->up && nd->m && nd->fw->stats.last_install_time > t) t = nd->fw->stats.last_install_time;
    return t;
}

int Svc::reg_read(int n, uint32_t addr, uint32_t *v) {
    Node *nd = node_[static_cast<size_t>(n)];
    if (!nd->m) return -1;
    return kolo_svc_read(nd->m, addr, v, 1);
}

int Svc::reg_write(int n, uint32_t addr, uint32_t v, bool host) {
    Node *nd = node_[static_cast<size_t>(n)];
    if (!nd->m) return -1;
    return kolo_svc_write(nd->m, addr, v, host ? 1 : 0);
}

bool Svc::firmware_errors(std::string *why) const {
    for (unsigned i = 0; i < nodes_; i++) {
        const Node *nd = node_[i];
        if (!nd->m) continue;
        const kolo_fw_stats &s = nd->fw->stats;
        if (nd->fw->stage == KOLO_FW_FAILED || s.check_failures || s.mgmt_bad || s.txq_full) {
            *why = "node index " + std::to_string(i) + ": firmware stage " + std::to_string(nd->fw->stage) +
                   ", table check failures " + std::to_string(s.check_failures) + ", bad MGMT " +
                   std::to_string(s.mgmt_bad) + ", MGMT queue full " + std::to_string(s.txq_full);
            return true;
        }
    }
    return false;
}

void Svc::report(FILE *f, bool per_node) const {
    fprintf(f, "service processors: MGMT sent %llu, delivered %llu, dropped %llu; table switches %llu\n",
            static_cast<unsigned long long>(stats_.mgmt_sent), static_cast<unsigned long long>(stats_.mgmt_delivered),
            static_cast<unsigned long long>(stats_.mgmt_dropped), static_cast<unsigned long long>(stats_.installs));
    if (!per_node) return;
    fprintf(f, "  node  stage epoch faults  events up/down  mgmt tx/rx  records new/stale  recomputes  unreach  "
               "mbx_ovf/sync_req\n");
    for (unsigned i = 0; i < nodes_; i++) {
        const Node *nd = node_[i];
        if (!nd->m) continue;
        const kolo_fw *fw = nd->fw;
        const kolo_fw_stats &s = fw->stats;
        fprintf(f, "  %03x  %5s %5u 0x%04x %7u %3u/%-4u %5u/%-5u %9u/%-7u %10u %8u  %7u/%u\n",
                kolo_node_id_of_index(&topo_, i), nd->up ? (fw->stage == KOLO_FW_RUNNING ? "run" : "busy") : "DOWN",
                fw->epoch, fw->installed_digest, s.events, s.link_up, s.link_down, s.mgmt_sent, s.mgmt_received,
                s.records_new, s.records_stale, s.recomputes, s.unreachable_dsts, s.mbx_overflow, s.sync_requests);
    }
}

} // namespace kolo_sim
