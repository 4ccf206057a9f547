// ni_world.h - two implementations of "N nodes with NIs and host memory"
// for the NI tests: RtlWorld (Verilated tb_ni: kolo_ni on a kolo_torus, the
// PCIe endpoint's user side played here in C++) and ModelWorld (the C
// reference model sw/model/kolo_ni_model.c on an ideal network). Host
// programs (scenarios) are written once against World and run on both; the
// test compares host memory images, completion entries and registers.
//
// Length (~1 060 lines): both worlds in one header so that the interface they
// implement and the two implementations read together (RtlWorld ~660 lines,
// ModelWorld ~130, the host memory and fault helpers they share ~250).
//
// The network (RtlWorld, built with NI_TORUS=0): each NI's router local port
// is served here: injected flits are taken against 80 credits per VC (the
// router's VC_DEPTH) and checked (framing, vnet = VC's, destination in the
// torus, route state = the source's routing table entry, ordered packets on
// class 0); a whole packet is delivered to its destination's ejection port
// after a random delay, against the NI's 64 credits per VC, flits of
// packets on different VCs interleaved at random; the source's credits come
// back when the packet has been delivered (so a destination that stops
// taking packets back-pressures their sources). With NI_TORUS=1 the
// Verilated model holds a kolo_torus instead.
// The endpoint model (RtlWorld): MMIO writes/reads in program order (one
// read in flight, reads wait for earlier writes); DMA reads accepted with
// random ready, at most `max_reads` outstanding, data taken from host memory
// when the request is accepted, answered after a random latency in
// [lat_min, lat_max] cycles, completed in any order across requests (each
// response's beats back to back, with random gaps), `_err` on the last beat
// if the range touches the bad region; DMA writes accepted with random ready
// and applied when their last beat is accepted, a beat once offered must
// stay offered unchanged until it is taken (the real endpoint latches a
// request's address and length before taking its first beat); MSI counted.
// With RtlOpts::pcie set (the rate benchmarks, unit-ni-pcie-link) the PCIe
// link's bandwidth holds MMIO, DMA read requests, read data and write beats
// back, TLP by TLP (pcie_link.h); its wire bytes are counted either way.
// Network faults (both worlds, end-to-end tests): NetFault drops, duplicates
// or (RTL only) delays packets. The decision for a packet is a seeded hash
// of its identity (op, source, destination, length, address, first payload
// word: not the tag, generation or route; a response's identity includes
// that of the request it answers) and of how many packets of that
// identity this world has seen, so that both worlds lose the same logical
// packets (the k-th copy of a request, the k-th copy of its response),
// whatever their timing. A filter function can decide instead (directed
// tests).
#pragma once
#include <algorithm>
#include <array>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "kolo_ni_model.h"
#include "kolo_route.h"
#include "kolo_rtl_bits.h"
#include "pcie_link.h"
#include "tb_util.h"
#include "verilated.h"
#include "Vtb_ni.h"

namespace niw {

// host addresses touching [BAD_LO, BAD_HI) fail (DMA error)
constexpr uint64_t BAD_LO = 0x50000000ull, BAD_HI = 0x50100000ull;
inline bool is_bad(uint64_t a, uint64_t n) { return a < BAD_HI && a + n > BAD_LO; }

// sparse byte-addressed host memory, 4 KiB pages, zero when never written
class Mem {
  public:
    uint8_t get(uint64_t a) const {
        auto it = pages_.find(a >> 12);
        return it == pages_.end() ? 0 : it->second[a & 0xfff];
    }
    void set(uint64_t a, uint8_t v) {
        auto &p = pages_[a >> 12];
        if (p.empty()) p.assign(4096, 0);
        p[a & 0xfff] = v;
    }
    void read(uint64_t a, void *buf, size_t n) const {
        uint8_t *b = static_cast<uint8_t *>(buf);
        for (size_t i = 0; i < n; i++) b[i] = get(a + i);
    }
    void write(uint64_t a, const void *buf, size_t n) {
        const uint8_t *b = static_cast<const uint8_t *>(buf);
        for (size_t i = 0; i < n; i++) set(a + i, b[i]);
    }
    uint64_t rd64(uint64_t a) const {
        uint64_t v;
        read(a, &v, 8);
        return v;
    }
    void wr64(uint64_t a, uint64_t v) { write(a, &v, 8); }
    const std::unordered_map<uint64_t, std::vector<uint8_t>> &pages() const { return pages_; }

  private:
    std::unordered_map<uint64_t, std::vector<uint8_t>> pages_;
};

// first differing byte of two memories (over pages present in either, outside
// [skip_lo, skip_hi)), or -1
inline int64_t mem_diff(const Mem &a, const Mem &b, uint64_t skip_lo = 0, uint64_t skip_hi = 0) {
    std::vector<uint64_t> pg;
    for (auto &p : a.pages()) pg.push_back(p.first);
    for (auto &p : b.pages()) pg.push_back(p.first);
    std::sort(pg.begin(), pg.end());
    for (uint64_t p : pg)
        for (uint64_t i = 0; i < 4096; i++) {
            uint64_t addr = (p << 12) + i;
            if (addr >= skip_lo && addr < skip_hi) continue;
            if (a.get(addr) != b.get(addr)) return (int64_t)addr;
        }
    return -1;
}

// network faults of the end-to-end tests (see the file comment)
struct NetFault {
    enum { PASS = 0, DROP = 1, DUP = 2 };
    bool on = false;
    uint64_t seed = 0;
    unsigned drop_pm = 0, dup_pm = 0, delay_pm = 0;  // per mille
    unsigned delay_max = 0;                          // cycles (RTL world only)
    // directed: return PASS, DROP or DUP, or -1 to leave it to the rates
    std::function<int(uint64_t h0, uint64_t h1, const uint64_t *pl, unsigned len)> filter;
    std::map<std::array<uint64_t, 4>, uint64_t> seen;
    std::map<uint64_t, uint64_t> last_req;  // (initiator, target, tag) -> identity of its request
    std::map<uint64_t, bool> last_rsy;      // (initiator, target, tag) -> its request was a RESYNC
    uint64_t drops = 0, dups = 0, delays = 0;
    static uint64_t mix(uint64_t x) {
        x += 0x9e3779b97f4a7c15ull;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
        return x ^ (x >> 31);
    }
    int decide(uint64_t h0, uint64_t h1, const uint64_t *pl, unsigned len, unsigned *delay) {
        *delay = 0;
        if (!on) return PASS;
        int f = filter ? filter(h0, h1, pl, len) : -1;
        if (f >= 0) {
            drops += f == DROP;
            dups += f == DUP;
            return f;
        }
        // RESYNC round trips (RTL only: the model sends none, docs/ni.md 10.1) always pass
        // (unless a directed filter says otherwise), so both worlds lose the same packets
        {
            unsigned o = (unsigned)(h0 >> 24) & 15u;
            uint64_t q = (h0 >> 12 & 0xfffu) << 20 | (h0 & 0xfffu) << 8 | (h1 >> 48 & 0xffu);
            uint64_t a = (h0 & 0xfffu) << 20 | (h0 >> 12 & 0xfffu) << 8 | (h1 >> 48 & 0xffu);
            if ((h0 >> 28 & 1u) == 0) {
                last_rsy[q] = o == KOLO_OP_RESYNC;
                if (o == KOLO_OP_RESYNC) return PASS;
            } else {
                auto it = last_rsy.find(a);
                if (it != last_rsy.end() && it->second) return PASS;
            }
        }
        // identity: dst, src, op, vnet, len, ordered (h0 bits 35:0); address and key; payload word 0
        // (a one-flit PUT or GET_RESP: only its valid bytes; the RTL leaves others in the flit)
        uint64_t p0 = len ? pl[0] : 0;
        unsigned op = (unsigned)(h0 >> 24) & 15u, nb = (unsigned)((h0 >> 59) & 7u) + 1;
        if (len == 1 && (op == KOLO_OP_PUT || op == KOLO_OP_GET_RESP) && nb < 8) p0 &= (1ull << (8 * nb)) - 1;
        std::array<uint64_t, 4> id{{h0 & 0xfffffffffull, h1 & 0xff00ffffffffffffull, p0, len}};
        // a response is known by the request it answers (the last one with its tag from that
        // initiator to that target): ACKs, NAKs of different requests look alike
        uint64_t rq = (h0 >> 12 & 0xfffu) << 20 | (h0 & 0xfffu) << 8 | (h1 >> 48 & 0xffu);
        uint64_t rs = (h0 & 0xfffu) << 20 | (h0 >> 12 & 0xfffu) << 8 | (h1 >> 48 & 0xffu);
        if ((h0 >> 28 & 1u) == 0) {
            last_req[rq] = mix(id[0] ^ mix(id[1] ^ mix(id[2] ^ mix(id[3]))));
        } else {
            auto it = last_req.find(rs);
            id[3] ^= (it == last_req.end() ? 0 : it->second) << 8;
        }
        uint64_t k = ++seen[id];
        uint64_t r = mix(seed ^ mix(id[0] ^ mix(id[1] ^ mix(id[2] ^ mix(id[3])))) ^ (k * 0x2545f4914f6cdd1dull));
        unsigned pm = (unsigned)(r % 1000);
        if (delay_pm && (unsigned)((r >> 20) % 1000) < delay_pm) {
            *delay = 1 + (unsigned)((r >> 40) % (delay_max ? delay_max : 1));
            delays++;
        }
        if (pm < drop_pm) {
            drops++;
            return DROP;
        }
        if (pm < drop_pm + dup_pm) {
            dups++;
            return DUP;
        }
        return PASS;
    }
};

class World {
  public:
    NetFault fault;
    virtual ~World() {}
    virtual const char *name() const = 0;
    virtual int nodes() const = 0;
    Mem &mem(int n) { return mem_[n]; }
    // MMIO, in program order per node
    virtual void mmio_write(int n, int bar, uint64_t off, const void *data, unsigned size) = 0;
    // blocking read; false: completer abort
    virtual bool mmio_read(int n, int bar, uint64_t off, unsigned size, uint64_t *v) = 0;
    // inject a packet into node n's NI from the network (test of bad packets)
    virtual void inject(int n, const kolo_pkt &p) = 0;
    virtual void run(uint64_t cycles) = 0;
    // run until cond() or max cycles; true if cond() became true
    virtual bool run_until(const std::function<bool()> &cond, uint64_t max) = 0;
    // run until nothing is left to do; false on timeout
    virtual bool settle(uint64_t max) = 0;
    virtual uint64_t now() const = 0;
    virtual uint64_t msis(int n) const = 0;

    void wr32(int n, uint64_t off, uint32_t v) { mmio_write(n, 0, off, &v, 4); }
    void wr64(int n, uint64_t off, uint64_t v) { mmio_write(n, 0, off, &v, 8); }
    uint64_t rd(int n, uint64_t off, unsigned size = 8) {
        uint64_t v = 0;
        mmio_read(n, 0, off, size, &v);
        return v;
    }
    // packets of RESYNC round trips node n sent (tx) or received (RTL world, C++ network;
    // the model has none): packet counts are compared without them
    virtual uint64_t resync_pkts(int n, bool tx) const {
        (void)n;
        (void)tx;
        return 0;
    }
    // RESYNC packets node n sent (RTL world, C++ network; retransmitted copies included):
    // its E2E_RESYNC is compared without them (the model's is 0)
    virtual uint64_t resyncs_sent(int n) const {
        (void)n;
        return 0;
    }

  protected:
    std::vector<Mem> mem_;
};

// ============================================================================
// Model world
// ============================================================================
class ModelWorld : public World {
  public:
    ModelWorld(const kolo_topo &t) : topo_(t) {
        unsigned nn = kolo_topo_nodes(&t);
        mem_.resize(nn);
        envs_.resize(nn);
        for (unsigned i = 0; i < nn; i++) {
            Ctx *c = new Ctx{this, (int)i};
            ctxs_.emplace_back(c);
            kolo_ni_env &e = envs_[i];
            e.user = c;
            e.dma_read = [](void *u, uint64_t a, void *b, size_t n) -> int {
                Ctx *c = static_cast<Ctx *>(u);
                if (is_bad(a, n)) return -1;
                c->w->mem_[c->n].read(a, b, n);
                return 0;
            };
            e.dma_write = [](void *u, uint64_t a, const void *b, size_t n) -> int {
                Ctx *c = static_cast<Ctx *>(u);
                if (is_bad(a, n)) return -1;
                c->w->mem_[c->n].write(a, b, n);
                return 0;
            };
            e.send = [](void *u, const kolo_pkt *p) -> int {
                Ctx *c = static_cast<Ctx *>(u);
                if (std::getenv("NI_TRACE"))
                    std::printf("MODEL%d n%d pkt op %u len %u dst %x addr %llx\n", c->w->serial_, c->n, (unsigned)(p->header[0] >> 24) & 15,
                                (unsigned)(p->header[0] >> 29) & 63, (unsigned)p->header[0] & 0xfff,
                                (unsigned long long)(p->header[1] & 0xffffffffffffull));
                unsigned dl;
                int a = c->w->fault.decide(p->header[0], p->header[1], p->payload, p->len, &dl);
                if (a != NetFault::DROP) c->w->net_.push_back(*p);
                if (a == NetFault::DUP) c->w->net_.push_back(*p);
                return 0;
            };
            e.msi = [](void *u, unsigned) { static_cast<Ctx *>(u)->msis++; };
            nis_.push_back(kolo_ni_new(&t, kolo_node_id_of_index(&t, i), &e));
        }
    }
    ~ModelWorld() {
        for (auto *n : nis_) kolo_ni_free(n);
    }
    const char *name() const override { return "model"; }
    int nodes() const override { return (int)nis_.size(); }
    kolo_ni *ni(int n) { return nis_[n]; }
    // delivery order (tb_ni --hot: the RTL's order of atomics on a word): a packet for which
    // hold() is true stays in the network, not blocking its destination; on_deliver() sees
    // every packet a model NI has taken
    std::function<bool(const kolo_pkt &)> hold;
    std::function<void(const kolo_pkt &)> on_deliver;
    void mmio_write(int n, int bar, uint64_t off, const void *data, unsigned size) override {
        uint64_t guard = 0;
        while (!kolo_ni_mmio_write_ready(nis_[n], bar, off) && guard++ < 1000000) step();
        kolo_ni_mmio_write(nis_[n], bar, off, data, size);
    }
    bool mmio_read(int n, int bar, uint64_t off, unsigned size, uint64_t *v) override {
        return kolo_ni_mmio_read(nis_[n], bar, off, size, v) == 0;
    }
    void inject(int n, const kolo_pkt &p) override {
        kolo_pkt q = p;
        q.dst = (uint16_t)kolo_node_id_of_index(&topo_, n);
        pending_.push_back(q);
    }
    void step() {
        for (auto *n : nis_) kolo_ni_step(n);
        // deliver what the network holds (in order per destination)
        std::deque<kolo_pkt> keep;
        for (auto &p : pending_) keep.push_back(p);
        pending_.clear();
        for (auto &p : net_) keep.push_back(p);
        net_.clear();
        std::vector<bool> blocked(nis_.size(), false);
        for (auto &p : keep) {
            unsigned d = kolo_node_index(&topo_, p.dst & 0xfff);
            if (hold && hold(p)) {  // held back: later packets pass it
                pending_.push_back(p);
                continue;
            }
            if (d >= nis_.size() || blocked[d] || kolo_ni_receive(nis_[d], &p)) {
                if (d < nis_.size()) blocked[d] = true;
                pending_.push_back(p);
            } else if (on_deliver) {
                on_deliver(p);
            }
        }
        cycle_++;
    }
    void run(uint64_t cycles) override {
        for (uint64_t i = 0; i < cycles; i++) step();
    }
    bool run_until(const std::function<bool()> &cond, uint64_t max) override {
        for (uint64_t i = 0; i < max; i++) {
            if (cond()) return true;
            step();
        }
        return cond();
    }
    bool settle(uint64_t max) override {
        for (uint64_t i = 0; i < max; i++) {
            bool idle = pending_.empty() && net_.empty();
            for (auto *n : nis_) idle = idle && kolo_ni_idle(n);
            if (idle) return true;
            step();
        }
        return false;
    }
    uint64_t now() const override { return cycle_; }
    uint64_t msis(int n) const override { return ctxs_[n]->msis; }

  private:
    struct Ctx {
        ModelWorld *w;
        int n;
        uint64_t msis = 0;
    };
    kolo_topo topo_;
    std::vector<kolo_ni *> nis_;
    std::vector<kolo_ni_env> envs_;
    std::vector<std::unique_ptr<Ctx>> ctxs_;
    std::deque<kolo_pkt> net_, pending_;
    uint64_t cycle_ = 0;
    int serial_ = next_serial();  // (traces: which model world)
    static int next_serial() {
        static int n = 0;
        return n++;
    }
};

// ============================================================================
// RTL world
// ============================================================================
struct RtlOpts {
    int lat_min = 125, lat_max = 250;  // DMA read latency, cycles (0.5..1 us at 250 MHz)
    int max_reads = 16;                // DMA reads outstanding (endpoint's REQS)
    int rd_ready = 90;                 // % cycles a DMA read request is accepted
    int wr_ready = 90;                 // % cycles a DMA write beat is accepted
    int gap = 10;                      // % cycles without a read data beat inside a response
    int mmio_lat = 0;                  // extra cycles between MMIO operations
    bool trace = false;
    std::string bug;                   // "dmawr": corrupt the 100th DMA write (negative control);
                                       // "pcie-nogate": the PCIe link counts but never holds back
    bool elastic = false;              // network buffers without limit: credits back on arrival
    std::string pcie;                  // every node's PCIe link (pcie_link.h); "": not modelled
};

class RtlWorld : public World {
  public:
    RtlWorld(const kolo_topo &t, uint64_t seed, const RtlOpts &o) : topo_(t), rng_(seed), o_(o) {
        top_.reset(new Vtb_ni);
        trace_ = std::getenv("NI_TRACE") != nullptr;
        unsigned nn = kolo_topo_nodes(&t);
        // mmio_wr_addr holds 32 bits per node
        if (sizeof(top_->mmio_wr_addr) != 4 * nn) {
            std::fprintf(stderr,
                         "FAIL: this tb_ni holds %zu NIs, the torus given has %u nodes (--torus)\n",
                         sizeof(top_->mmio_wr_addr) / 4, nn);
            std::exit(2);
        }
        mem_.resize(nn);
        node_.resize(nn);
        const pcie_link::Spec *link = pcie_link::find(o.pcie.empty() ? "none" : o.pcie);
        if (!link) {
            std::fprintf(stderr, "FAIL: no PCIe link called '%s' (pcie_link.h)\n", o.pcie.c_str());
            std::exit(2);
        }
        for (auto &nd : node_) {
            nd.link.set(link);
            if (o.bug == "pcie-nogate") nd.link.plant_no_gate();
        }
        net_.resize(nn);
        rsy_tx_.resize(nn);
        rsy_rx_.resize(nn);
        rsy_sent_.resize(nn);
        rsy_out_.resize(nn);
        rsy_max_.resize(nn);
        std::vector<kolo_route_entry> tab(nn);
        for (unsigned i = 0; i < nn; i++) {
            kolo_table_default(&t, kolo_node_id_of_index(&t, i), tab.data());
            routes_.push_back(tab);
        }
        top_->clk = 0;
        top_->rst = 1;
        for (int i = 0; i < 64; i++) tick(); // kolo_svc wants 40 cycles of reset after its straps
        top_->rst = 0;
        // tags initialise for 256 cycles after reset
        for (int i = 0; i < 300; i++) tick();
        min_tags_ = 256;
    }
    const char *name() const override { return "rtl"; }
    int nodes() const override { return (int)node_.size(); }
    Vtb_ni *top() { return top_.get(); }

    void mmio_write(int n, int bar, uint64_t off, const void *data, unsigned size) override {
        Mmio m;
        m.write = true;
        m.bar = bar;
        m.off = off;
        m.size = size;
        std::memcpy(m.data, data, size);
        node_[n].mq.push_back(m);
    }
    bool mmio_read(int n, int bar, uint64_t off, unsigned size, uint64_t *v) override {
        Mmio m;
        m.write = false;
        m.bar = bar;
        m.off = off;
        m.size = size;
        uint64_t id = ++read_seq_;
        m.id = id;
        node_[n].mq.push_back(m);
        Node &nd = node_[n];
        uint64_t guard = 0;
        while (nd.done_id != id) {
            tick();
            if (++guard > 200000) {
                std::fprintf(stderr, "FAIL: MMIO read of node %d offset 0x%llx never answered\n", n,
                             (unsigned long long)off);
                dump();
                std::exit(1);
            }
        }
        if (v) *v = nd.done_val;
        return !nd.done_err;
    }
    void inject(int n, const kolo_pkt &p) override {
        // as if from the network, on VC {vnet, 1}
        std::vector<kolo_rtl::Flit> fl;
        unsigned vc = ((p.header[0] >> 28) & 1u) << 1 | 1u;
        unsigned nfl = 2 + p.len;
        for (unsigned i = 0; i < nfl; i++) {
            kolo_rtl::Flit f;
            f.data = i < 2 ? p.header[i] : p.payload[i - 2];
            f.vc = vc;
            f.head = i == 0;
            f.tail = i == nfl - 1;
            fl.push_back(f);
        }
        inject_flits(n, fl);
    }
    // raw flits on one VC (framing faults), delivered to node n's NI
    void inject_flits(int n, const std::vector<kolo_rtl::Flit> &fl) {
        Pkt k;
        k.src = -1;
        k.flits = fl;
        k.due = cycle_;
        net_[n].ej_q[fl[0].vc].push_back(k);
    }
    void set_check_routes(bool on) { check_routes_ = on; }
    // take the link leaving node n through port p down (both ends; tb_ni on a torus only)
    void set_link_down(int n, int p, bool down) {
        uint16_t id = kolo_node_id_of_index(&topo_, (unsigned)n);
        unsigned m = kolo_node_index(&topo_, kolo_neighbor(&topo_, id, p));
        kolo_rtl::sig_set(top_->link_down, (unsigned)(n * 6 + p), 1, down);
        kolo_rtl::sig_set(top_->link_down, m * 6 + (unsigned)(p ^ 1), 1, down);
    }
    void set_allow_gen(bool on) { allow_gen_ = on; }  // end-to-end: header bit 63 is the generation
    uint64_t resync_pkts(int n, bool tx) const override { return tx ? rsy_tx_[n] : rsy_rx_[n]; }
    uint64_t resyncs_sent(int n) const override { return rsy_sent_[n]; }
    // the most (destination, tag) node n had RESYNCs in flight on at once (sent, not yet answered
    // by the target) since the last resyncs_max_reset(n)
    size_t resyncs_max_in_flight(int n) const { return rsy_max_[n]; }
    void resyncs_max_reset(int n) { rsy_max_[n] = rsy_out_[n].size(); }
    // "reload" node n's NI without a reset, as a bitstream load leaves its end-to-end tables:
    // generation table 0 and known table `known` (0: unknown, as the bitstream; 1: the
    // planted old behaviour, no RESYNC); tb_ni.v's reflash input
    void reflash(int n, bool known) {
        kolo_rtl::sig_set(top_->reflash_known, (unsigned)n, 1, known);
        kolo_rtl::sig_set(top_->reflash, (unsigned)n, 1, 1);
        tick();
        kolo_rtl::sig_set(top_->reflash, (unsigned)n, 1, 0);
        tick();
    }
    unsigned free_tags(int n) const { return (unsigned)kolo_rtl::sig_get(top_->dbg_state, n * 85 + 76, 9); }
    // called for every DMA write when the host memory has taken it (node, address, length),
    // in the cycle its last beat is accepted (now())
    std::function<void(int, uint64_t, unsigned)> on_dma_write;
    // called when node n's MMIO write is taken by the NI (node, BAR, offset), in the cycle
    // of the handshake (now())
    std::function<void(int, int, uint64_t)> on_mmio_write;
    // called every cycle where the handshakes are sampled (now() is the cycle), after the
    // hooks above: probes of the NIs' state (dbg(), mon_port()) for latency breakdowns
    std::function<void()> on_cycle;
    // node n's kolo_ni debug state (dbg_state, 85 bits: see kolo_ni.v) and its router
    // local port activity {ejected tail, ejected head, injected tail, injected head} (tb_ni.v)
    uint64_t dbg(int n, unsigned lsb, unsigned width) const {
        return kolo_rtl::sig_get(top_->dbg_state, (unsigned)n * 85 + lsb, width);
    }
    unsigned mon_port(int n) const { return (unsigned)kolo_rtl::sig_get(top_->mon_port, (unsigned)n * 4, 4); }
    // the service processors' side (tb_ni built with SVC=1, svc_proc.h): drive
    // before the falling-edge evaluation, sample after it, act after the edge
    std::function<void(Vtb_ni *, uint64_t)> svc_drive;
    std::function<void(Vtb_ni *)> svc_sample;
    std::function<void()> svc_edge;
    void run(uint64_t cycles) override {
        for (uint64_t i = 0; i < cycles; i++) tick();
    }
    bool run_until(const std::function<bool()> &cond, uint64_t max) override {
        for (uint64_t i = 0; i < max; i++) {
            if (cond()) return true;
            tick();
        }
        return cond();
    }
    // idle: no MMIO queued, no DMA read outstanding, no port activity and no
    // packet counted for `quiet` cycles
    bool settle(uint64_t max) override {
        const uint64_t quiet = 600;
        for (uint64_t i = 0; i < max; i++) {
            bool pend = false;
            for (auto &nn : net_)
                for (int v = 0; v < 4; v++) pend = pend || !nn.ej_q[v].empty();
            for (auto &nd : node_) pend = pend || !nd.mq.empty() || !nd.reads.empty() || nd.cur_read >= 0;
            pend = pend || !late_.empty();
            if (!pend && cycle_ - last_activity_ > quiet) return true;
            tick();
        }
        dump();
        return false;
    }
    uint64_t now() const override { return cycle_; }
    uint64_t msis(int n) const override { return node_[n].msis; }
    uint64_t stat(int n, int k) const { return kolo_rtl::sig_get(top_->stat_counters, n * 384 + k * 64, 64); }
    uint64_t router_errors(int n) const { return kolo_rtl::sig_get(top_->router_errors, n * 64, 64); }
    uint64_t dma_reads(int n) const { return node_[n].nreads; }
    // node n's PCIe link: wire bytes and TLPs per direction (counted with or without a link model)
    const pcie_link::Link &pcie(int n) const { return node_[n].link; }
    unsigned min_tags() const { return min_tags_; }  // fewest free tags seen on any node
    // the NIs' state machines (kolo_ni dbg_state), for hangs
    void dump() const {
        for (int n = 0; n < nodes(); n++) {
            unsigned long long tg = kolo_rtl::sig_get(top_->dbg_state, n * 85, 32);
            unsigned long long tx = kolo_rtl::sig_get(top_->dbg_state, n * 85 + 32, 16);
            unsigned long long tq = kolo_rtl::sig_get(top_->dbg_state, n * 85 + 48, 16);
            unsigned long long rs = kolo_rtl::sig_get(top_->dbg_state, n * 85 + 64, 8);
            unsigned long long cq = kolo_rtl::sig_get(top_->dbg_state, n * 85 + 72, 4);
            const Node &nd = node_[n];
            std::fprintf(stderr,
                         "  node %d cycle %llu: tgt ts %llu as %llu gs %llu rqf %llu a_rv %llu a_busy %llu wlock %llu "
                         "ack_ready %llu ack_v %llu m_bv %llu | tx es %llu slot %llu rt_got %llu rt_wait %llu tag_valid %llu ev %llu "
                         "| txq qs %llu head %llu nonempty %llu err %llu rdy %llu q_ok %llu | rsp rs %llu local %llu ev %llu m_bv %llu "
                         "| cq cs %llu ev %llu wr %llu | mmio queued %zu, dma reads %zu, ej credits %d %d %d %d\n",
                         n, (unsigned long long)cycle_, tg & 7, (tg >> 3) & 7, (tg >> 6) & 3, (tg >> 8) & 1,
                         (tg >> 9) & 1, (tg >> 10) & 1, (tg >> 11) & 1, (tg >> 12) & 1, (tg >> 13) & 1, (tg >> 14) & 1,
                         tx & 7, (tx >> 3) & 31, (tx >> 8) & 1, (tx >> 9) & 1, (tx >> 10) & 1, (tx >> 11) & 1, tq & 3,
                         (tq >> 2) & 63, (tq >> 8) & 1, (tq >> 9) & 1, (tq >> 10) & 1, (tq >> 11) & 1, rs & 7,
                         (rs >> 5) & 1, (rs >> 6) & 1, (rs >> 7) & 1, cq & 3, (cq >> 2) & 1, (cq >> 3) & 1,
                         nd.mq.size(), nd.reads.size(), net_[n].ej_cr[0], net_[n].ej_cr[1], net_[n].ej_cr[2],
                         net_[n].ej_cr[3]);
            std::fprintf(stderr, "    injection credits %d %d %d %d, returns queued %zu, rx in progress %zu %zu %zu %zu\n",
                         net_[n].inj_cr[0], net_[n].inj_cr[1], net_[n].inj_cr[2], net_[n].inj_cr[3],
                         net_[n].cr_q.size(), net_[n].rx[0].size(), net_[n].rx[1].size(), net_[n].rx[2].size(),
                         net_[n].rx[3].size());
            for (int v = 0; v < 4; v++)
                if (!net_[n].ej_q[v].empty())
                    std::fprintf(stderr, "    ej VC %d: %zu packets waiting, front sent %zu flits\n", v,
                                 net_[n].ej_q[v].size(), net_[n].ej_pos[v]);
        }
    }

  private:
    struct Mmio {
        bool write;
        int bar;
        uint64_t off;
        unsigned size;
        uint8_t data[64];
        uint64_t id;
    };
    struct Read {
        uint8_t id;
        uint64_t addr;
        unsigned len;
        uint64_t due;
        bool err;
        std::vector<uint8_t> data;
    };
    struct Pkt {
        int src;  // -1: injected by the test
        std::vector<kolo_rtl::Flit> flits;
        uint64_t due;
    };
    struct NetNode {
        std::array<std::vector<kolo_rtl::Flit>, 4> rx;  // packet being injected, per VC
        std::array<int, 4> inj_cr{{80, 80, 80, 80}};   // credits the NI holds (checked)
        std::deque<int> cr_q;                          // injection credits to return
        std::array<std::deque<Pkt>, 4> ej_q;           // packets for this node, per VC
        std::array<int, 4> ej_cr{{64, 64, 64, 64}};
        std::array<size_t, 4> ej_pos{{0, 0, 0, 0}};    // flits of the front packet sent
    };
    struct Node {
        std::deque<Mmio> mq;
        bool rd_issued = false;  // the front read went out, waiting for the response
        int wait = 0;
        uint64_t done_id = 0, done_val = 0;
        bool done_err = false;
        std::vector<Read> reads;  // accepted, not yet delivered
        int cur_read = -1;        // index in reads being delivered
        unsigned cur_beat = 0;
        // DMA write being received
        bool wr_open = false;
        uint64_t wr_addr = 0;
        unsigned wr_len = 0;
        std::vector<uint8_t> wr_buf;
        // DMA write beat offered but not taken at the last edge: the real
        // endpoint (kolo_pcie_dma_wr) latches _addr/_len when it sees a
        // request offered, before it takes the first beat, so an offer must
        // stay (valid, addr, len, data, last) until it is taken
        bool wo_open = false;
        uint64_t wo_addr = 0;
        unsigned wo_len = 0;
        bool wo_last = false;
        std::array<uint32_t, 8> wo_data{};
        uint64_t msis = 0, nreads = 0;
        pcie_link::Link link;  // the PCIe link's wire time (RtlOpts::pcie)
    };

    void tick() {
        using namespace kolo_rtl;
        Vtb_ni *t = top_.get();
        int nn = nodes();
        // ---- drive inputs ----
        for (int n = 0; n < nn; n++) {
            Node &nd = node_[n];
            bool wv = false, rv = false;
            if (!nd.mq.empty() && nd.wait == 0 && nd.link.ready(pcie_link::DOWN)) {
                Mmio &m = nd.mq.front();
                if (m.write) {
                    wv = true;
                    uint64_t base = m.off & ~63ull;
                    unsigned o = (unsigned)(m.off & 63);
                    sig_set(t->mmio_wr_bar, n * 2, 2, (uint64_t)m.bar);
                    sig_set(t->mmio_wr_addr, n * 32, 32, base);
                    for (unsigned w = 0; w < 16; w++) sig_set(t->mmio_wr_data, n * 512 + w * 32, 32, 0);
                    for (unsigned w = 0; w < 2; w++) sig_set(t->mmio_wr_strb, n * 64 + w * 32, 32, 0);
                    for (unsigned i = 0; i < m.size && o + i < 64; i++) {
                        sig_set(t->mmio_wr_data, n * 512 + (o + i) * 8, 8, m.data[i]);
                        sig_set(t->mmio_wr_strb, n * 64 + o + i, 1, 1);
                    }
                } else if (!nd.rd_issued) {
                    rv = true;
                    sig_set(t->mmio_rd_bar, n * 2, 2, (uint64_t)m.bar);
                    sig_set(t->mmio_rd_addr, n * 32, 32, m.off);
                    sig_set(t->mmio_rd_len, n * 4, 4, m.size);
                }
            }
            sig_set(t->mmio_wr_valid, n, 1, wv);
            sig_set(t->mmio_rd_valid, n, 1, rv);
            sig_set(t->mmio_rd_resp_ready, n, 1, 1);
            int outstanding = (int)nd.reads.size();
            sig_set(t->dma_rd_req_ready, n, 1,
                    outstanding < o_.max_reads && nd.link.ready(pcie_link::UP) &&
                        rng_.chance((unsigned)o_.rd_ready));
            // read data: pick a response whose time has come
            if (nd.cur_read < 0) {
                std::vector<int> due;
                for (size_t i = 0; i < nd.reads.size(); i++)
                    if (nd.reads[i].due <= cycle_) due.push_back((int)i);
                if (!due.empty()) {
                    nd.cur_read = due[rng_.below((uint32_t)due.size())];
                    nd.cur_beat = 0;
                }
            }
            bool dv = false;
            if (nd.cur_read >= 0 && nd.link.ready(pcie_link::DOWN) && !rng_.chance((unsigned)o_.gap)) {
                Read &r = nd.reads[nd.cur_read];
                unsigned beats = (r.len + 31) / 32;
                dv = true;
                for (unsigned w = 0; w < 8; w++) {
                    uint32_t x = 0;
                    for (unsigned b = 0; b < 4; b++) {
                        unsigned k = nd.cur_beat * 32 + w * 4 + b;
                        x |= (uint32_t)(k < r.len ? r.data[k] : 0) << (8 * b);
                    }
                    sig_set(t->dma_rd_data, n * 256 + w * 32, 32, x);
                }
                sig_set(t->dma_rd_id, n * 8, 8, r.id);
                bool last = nd.cur_beat + 1 == beats;
                sig_set(t->dma_rd_last, n, 1, last);
                sig_set(t->dma_rd_err, n, 1, last && r.err);
            }
            sig_set(t->dma_rd_valid, n, 1, dv);
            sig_set(t->dma_wr_ready, n, 1, nd.link.ready(pcie_link::UP) && rng_.chance((unsigned)o_.wr_ready));
            sig_set(t->msi_ready, n, 1, 1);
        }
        // delayed packets whose time has come join their VC's queue
        for (size_t i = 0; i < late_.size();) {
            if (late_[i].second.due <= cycle_) {
                Pkt &k = late_[i].second;
                net_[late_[i].first].ej_q[k.flits[0].vc].push_back(k);
                late_.erase(late_.begin() + (long)i);
            } else {
                i++;
            }
        }
        // network: injection credits back, ejection flits in
        std::vector<int> ej_sent(nn, -1);
        for (int n = 0; n < nn; n++) {
            NetNode &q = net_[n];
            bool cv = !q.cr_q.empty();
            sig_set(t->inj_credit_valid, n, 1, cv);
            sig_set(t->inj_credit_vc, n * 2, 2, cv ? (uint64_t)q.cr_q.front() : 0);
            if (cv) {
                q.inj_cr[q.cr_q.front()]++;
                q.cr_q.pop_front();
            }
            // one flit: a VC whose front packet is due and started (or can
            // start: credits for all of it), chosen at random
            std::vector<int> cand;
            for (int v = 0; v < 4; v++) {
                if (q.ej_q[v].empty() || q.ej_q[v].front().due > cycle_ || q.ej_cr[v] == 0) continue;
                const Pkt &k = q.ej_q[v].front();
                if (q.ej_pos[v] == 0 && q.ej_cr[v] < (int)k.flits.size()) continue;
                cand.push_back(v);
            }
            bool ev = !cand.empty() && !rng_.chance(5);
            if (ev) {
                int v = cand[rng_.below((uint32_t)cand.size())];
                kolo_rtl::Flit f = q.ej_q[v].front().flits[q.ej_pos[v]];
                flit_set(t->ej_flit, (unsigned)n, f);
                ej_sent[n] = v;
            }
            sig_set(t->ej_valid, n, 1, ev);
        }
        if (svc_drive) svc_drive(t, cycle_);
        t->clk = 0;
        t->eval();
        if (svc_sample) svc_sample(t);
        // ---- sample handshakes ----
        struct Fire {
            bool wr = false, rd = false, resp = false, rq = false, rdat = false, dw = false, msi = false;
        };
        std::vector<Fire> f(nn);
        bool activity = false;
        for (int n = 0; n < nn; n++) {
            Node &nd = node_[n];
            f[n].wr = sig_get(t->mmio_wr_valid, n, 1) && sig_get(t->mmio_wr_ready, n, 1);
            if (f[n].wr && on_mmio_write) on_mmio_write(n, nd.mq.front().bar, nd.mq.front().off);
            f[n].rd = sig_get(t->mmio_rd_valid, n, 1) && sig_get(t->mmio_rd_ready, n, 1);
            f[n].resp = sig_get(t->mmio_rd_resp_valid, n, 1);
            f[n].rq = sig_get(t->dma_rd_req_valid, n, 1) && sig_get(t->dma_rd_req_ready, n, 1);
            f[n].rdat = sig_get(t->dma_rd_valid, n, 1) && sig_get(t->dma_rd_ready, n, 1);
            f[n].dw = sig_get(t->dma_wr_valid, n, 1) && sig_get(t->dma_wr_ready, n, 1);
            {
                bool wv = sig_get(t->dma_wr_valid, n, 1);
                uint64_t wa = sig_get(t->dma_wr_addr, n * 64, 64);
                unsigned wl = (unsigned)sig_get(t->dma_wr_len, n * 13, 13);
                bool wlast = sig_get(t->dma_wr_last, n, 1);
                std::array<uint32_t, 8> wd;
                for (unsigned w = 0; w < 8; w++) wd[w] = (uint32_t)sig_get(t->dma_wr_data, n * 256 + w * 32, 32);
                if (nd.wo_open && (!wv || wa != nd.wo_addr || wl != nd.wo_len || wlast != nd.wo_last ||
                                   wd != nd.wo_data))
                    fail("node %d: DMA write offer (addr %llx len %u) %s before it was taken", n,
                         (unsigned long long)nd.wo_addr, nd.wo_len, wv ? "changed" : "withdrawn");
                nd.wo_open = wv && !f[n].dw;
                nd.wo_addr = wa;
                nd.wo_len = wl;
                nd.wo_last = wlast;
                nd.wo_data = wd;
            }
            f[n].msi = sig_get(t->msi_valid, n, 1);
            if (f[n].wr || f[n].rd || f[n].resp || f[n].rq || f[n].rdat || f[n].dw ||
                !nd.mq.empty())
                activity = true;
            if (f[n].wr) nd.link.tlp(pcie_link::DOWN, nd.mq.front().off, nd.mq.front().size, pcie_link::OH_REQ);
            if (f[n].rd) nd.link.tlp(pcie_link::DOWN, nd.mq.front().off, 0, pcie_link::OH_REQ);
            if (f[n].resp) nd.link.tlp(pcie_link::UP, nd.mq.front().off, nd.mq.front().size, pcie_link::OH_CPL);
            if (f[n].msi) nd.link.tlp(pcie_link::UP, 0, 4, pcie_link::OH_REQ);
            if (f[n].resp) {
                nd.done_val = sig_get(t->mmio_rd_resp_data, n * 64, 64);
                nd.done_err = sig_get(t->mmio_rd_resp_err, n, 1);
            }
            if (f[n].rq) {
                Read r;
                r.id = (uint8_t)sig_get(t->dma_rd_req_id, n * 8, 8);
                r.addr = sig_get(t->dma_rd_req_addr, n * 64, 64);
                r.len = (unsigned)sig_get(t->dma_rd_req_len, n * 13, 13);
                if (r.len == 0 || r.len > 4096) {
                    std::fprintf(stderr, "FAIL: node %d DMA read of %u bytes\n", n, r.len);
                    std::exit(1);
                }
                r.err = is_bad(r.addr, r.len);
                for (unsigned i = pcie_link::pieces(r.addr, r.len, nd.link.params().mrrs); i; i--)
                    nd.link.tlp(pcie_link::UP, 0, 0, pcie_link::OH_REQ);
                r.data.resize(r.len);
                mem_[n].read(r.addr, r.data.data(), r.len);
                if (trace_)
                    std::printf("%8llu n%d dma rd  id %02x addr %llx len %u%s\n", (unsigned long long)cycle_, n,
                                r.id, (unsigned long long)r.addr, r.len, r.err ? " ERR" : "");
                r.due = cycle_ + (uint64_t)(o_.lat_min + (int)rng_.below((uint32_t)(o_.lat_max - o_.lat_min + 1)));
                nd.reads.push_back(r);
                nd.nreads++;
            }
            if (f[n].dw) {
                uint64_t a = sig_get(t->dma_wr_addr, n * 64, 64);
                unsigned len = (unsigned)sig_get(t->dma_wr_len, n * 13, 13);
                bool last = sig_get(t->dma_wr_last, n, 1);
                if (!nd.wr_open) {
                    nd.wr_open = true;
                    nd.wr_addr = a;
                    nd.wr_len = len;
                    nd.wr_buf.clear();
                } else if (a != nd.wr_addr || len != nd.wr_len) {
                    std::fprintf(stderr, "FAIL: node %d DMA write changed addr/len inside a request\n", n);
                    std::exit(1);
                }
                nd.link.beat(pcie_link::UP, nd.wr_addr, nd.wr_len, (unsigned)(nd.wr_buf.size() / 32),
                             nd.link.params().mps, pcie_link::OH_REQ);
                for (unsigned b = 0; b < 32; b++)
                    nd.wr_buf.push_back((uint8_t)sig_get(t->dma_wr_data, n * 256 + b * 8, 8));
                unsigned beats = (len + 31) / 32;
                if (len == 0 || len > 4096 || (last != (nd.wr_buf.size() == beats * 32))) {
                    std::fprintf(stderr, "FAIL: node %d DMA write framing (len %u, beat %zu, last %d)\n", n,
                                 len, nd.wr_buf.size() / 32, (int)last);
                    std::exit(1);
                }
                if (last) {
                    if (trace_)
                        std::printf("%8llu n%d dma wr  addr %llx len %u\n", (unsigned long long)cycle_, n,
                                    (unsigned long long)nd.wr_addr, len);
                    if (o_.bug == "dmawr" && writes_ == 99) nd.wr_buf[0] ^= 0x40;
                    if (!is_bad(nd.wr_addr, len)) mem_[n].write(nd.wr_addr, nd.wr_buf.data(), len);
                    if (on_dma_write) on_dma_write(n, nd.wr_addr, len);
                    nd.wr_open = false;
                    writes_++;
                }
            }
            if (f[n].msi) nd.msis++;
        }
        if (on_cycle) on_cycle();
        // network: flits the NIs inject, credits they return
        for (int n = 0; n < nn; n++) {
            NetNode &q = net_[n];
            if (sig_get(t->ej_credit_valid, n, 1)) {
                int v = (int)sig_get(t->ej_credit_vc, n * 2, 2);
                if (++q.ej_cr[v] > 64) fail("node %d returned an ejection credit too many (VC %d)", n, v);
            }
            if (ej_sent[n] >= 0) {
                int v = ej_sent[n];
                activity = true;
                q.ej_cr[v]--;
                Pkt &k = q.ej_q[v].front();
                if (++q.ej_pos[v] == k.flits.size()) {
                    if (k.src >= 0)
                        for (size_t i = 0; i < k.flits.size(); i++) net_[k.src].cr_q.push_back(v);
                    q.ej_q[v].pop_front();
                    q.ej_pos[v] = 0;
                }
            }
            if (sig_get(t->inj_valid, n, 1)) {
                activity = true;
                kolo_rtl::Flit f = flit_get(t->inj_flit, (unsigned)n);
                if (--q.inj_cr[f.vc] < 0) fail("node %d injected on VC %u without a credit", n, f.vc);
                auto &rx = q.rx[f.vc];
                if (f.head != rx.empty()) fail("node %d VC %u: head flag out of place", n, f.vc);
                rx.push_back(f);
                if (f.tail) {
                    on_packet(n, f.vc, rx);
                    rx.clear();
                }
            }
        }
        t->clk = 1;
        t->eval();
        cycle_++;
        if (svc_edge) svc_edge();
        // ---- effects ----
        for (int n = 0; n < nn; n++) {
            Node &nd = node_[n];
            nd.link.tick();
            if (nd.wait > 0) nd.wait--;
            if (f[n].wr) {
                nd.mq.pop_front();
                nd.wait = o_.mmio_lat;
            }
            if (f[n].rd) nd.rd_issued = true;
            if (f[n].resp) {
                nd.done_id = nd.mq.front().id;
                nd.mq.pop_front();
                nd.rd_issued = false;
                nd.wait = o_.mmio_lat;
            }
            if (f[n].rdat) {
                Read &r = nd.reads[nd.cur_read];
                unsigned beats = (r.len + 31) / 32;
                nd.link.beat(pcie_link::DOWN, r.addr, r.len, nd.cur_beat, nd.link.params().rcb, pcie_link::OH_CPL);
                if (++nd.cur_beat == beats) {
                    nd.reads.erase(nd.reads.begin() + nd.cur_read);
                    nd.cur_read = -1;
                }
            }
        }
        uint64_t pk = 0;
        for (int n = 0; n < nn; n++) {
            pk += stat(n, 0) + stat(n, 1);
            unsigned tf = (unsigned)kolo_rtl::sig_get(t->dbg_state, n * 85 + 76, 9);
            if (tf < min_tags_) min_tags_ = tf;
        }
        if (pk != last_pk_) {
            last_pk_ = pk;
            activity = true;
        }
        if (activity) last_activity_ = cycle_;
    }

    void fail(const char *fmt, ...) {
        std::va_list ap;
        va_start(ap, fmt);
        std::fprintf(stderr, "FAIL (cycle %llu): ", (unsigned long long)cycle_);
        std::vfprintf(stderr, fmt, ap);
        std::fputc('\n', stderr);
        va_end(ap);
        std::exit(1);
    }
    // a whole packet injected by node n: check it, send it on
    void on_packet(int n, unsigned vc, const std::vector<kolo_rtl::Flit> &fl) {
        uint64_t h0 = fl[0].data;
        unsigned len = kolo_rtl::h0_len(h0), dst = kolo_rtl::h0_dst(h0), src = kolo_rtl::h0_src(h0);
        if (fl.size() < 2 || len > 32 || fl.size() != len + 2u)
            fail("node %d VC %u: packet of %zu flits, header len %u", n, vc, fl.size(), len);
        if (kolo_rtl::h0_vnet(h0) != (vc >> 1)) fail("node %d: vnet %u on VC %u", n, kolo_rtl::h0_vnet(h0), vc);
        if (kolo_rtl::h0_ordered(h0) && (vc & 1)) fail("node %d: ordered packet on VC %u", n, vc);
        if (src != kolo_node_id_of_index(&topo_, (unsigned)n)) fail("node %d: source id 0x%x", n, src);
        if (!kolo_node_in_topo(&topo_, (uint16_t)dst)) fail("node %d: destination 0x%x outside", n, dst);
        if ((h0 >> 63) != 0 && !allow_gen_) fail("node %d: header bit 63 set", n);
        unsigned d = kolo_node_index(&topo_, (uint16_t)dst);
        uint32_t rs = routes_[n][d] & KOLO_RS_MASK;
        if (check_routes_ && kolo_rtl::h0_rs(h0) != rs)
            fail("node %d: route state 0x%x, table 0x%x", n, kolo_rtl::h0_rs(h0), rs);
        if (trace_)
            std::printf("%8llu n%d pkt op %u vc %u len %u dst %x addr %llx tag %u key %02x\n",
                        (unsigned long long)cycle_, n, kolo_rtl::h0_op(h0), vc, len, dst,
                        (unsigned long long)kolo_rtl::h1_addr(fl[1].data), (unsigned)(fl[1].data >> 48) & 0xff,
                        (unsigned)(fl[1].data >> 56));
        Pkt k;
        k.src = n;
        k.flits = fl;
        k.due = cycle_ + 2 + rng_.below(20);
        if (o_.elastic) {
            for (size_t i = 0; i < fl.size(); i++) net_[n].cr_q.push_back((int)vc);
            k.src = -1;
        }
        npkts_++;
        {
            // a RESYNC and its answer (the answer known by the request of its (initiator, tag))
            unsigned op = kolo_rtl::h0_op(h0), tg = (unsigned)(fl[1].data >> 48) & 0xffu;
            uint64_t key = (uint64_t)src << 20 | (uint64_t)dst << 8 | tg;
            bool r = false;
            if (kolo_rtl::h0_vnet(h0) == 0) {
                r = op == KOLO_OP_RESYNC;
                rsy_last_[key] = r;
                if (r) {
                    rsy_sent_[n]++;
                    rsy_out_[n].insert(key);
                    rsy_max_[n] = std::max(rsy_max_[n], rsy_out_[n].size());
                }
            } else {
                uint64_t ikey = (uint64_t)dst << 20 | (uint64_t)src << 8 | tg;
                auto it = rsy_last_.find(ikey);
                r = it != rsy_last_.end() && it->second;
                if (r) rsy_out_[d].erase(ikey);
            }
            if (r) {
                rsy_tx_[n]++;
                rsy_rx_[d]++;
            }
        }
        std::vector<uint64_t> pl;
        for (size_t i = 2; i < fl.size(); i++) pl.push_back(fl[i].data);
        unsigned dl;
        int a = fault.decide(h0, fl[1].data, pl.data(), len, &dl);
        if (a == NetFault::DROP) {
            if (trace_) std::printf("%8llu n%d pkt dropped\n", (unsigned long long)cycle_, n);
            if (k.src >= 0)
                for (size_t i = 0; i < fl.size(); i++) net_[n].cr_q.push_back((int)vc);
            return;
        }
        if (dl) {  // delayed: overtaken by later packets
            k.due += dl;
            late_.push_back(std::make_pair(d, k));
        } else {
            net_[d].ej_q[vc].push_back(k);
        }
        if (a == NetFault::DUP) {  // a copy right behind (its credits are not returned twice)
            Pkt c = k;
            c.src = -1;
            net_[d].ej_q[vc].push_back(c);
        }
    }

    kolo_topo topo_;
    std::unique_ptr<Vtb_ni> top_;
    tb::Rng rng_;
    RtlOpts o_;
    std::vector<Node> node_;
    std::vector<NetNode> net_;
    std::vector<std::vector<kolo_route_entry>> routes_;
    bool check_routes_ = true;
    bool allow_gen_ = false;
    std::vector<std::pair<int, Pkt>> late_;  // delayed packets (destination, packet)
    bool trace_ = false;
    unsigned min_tags_ = 256;
    uint64_t npkts_ = 0;
    std::vector<uint64_t> rsy_tx_, rsy_rx_, rsy_sent_;
    std::vector<std::set<uint64_t>> rsy_out_;  // per initiator: (initiator, target, tag) RESYNCs unanswered
    std::vector<size_t> rsy_max_;
    std::map<uint64_t, bool> rsy_last_;
    uint64_t cycle_ = 0, last_activity_ = 0, read_seq_ = 0, last_pk_ = 0, writes_ = 0;
};

}  // namespace niw
