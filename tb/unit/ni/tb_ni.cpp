// tb_ni.cpp - tests of the NI RTL (rtl/ni/kolo_ni*.v) against the C
// reference model (sw/model/kolo_ni_model.c).
//
// Length (~1800 lines): the test programs (each written once against
// niw::World and run on RTL and model) and the comparison live together so that
// a test and what it checks read side by side; the World itself is in
// ni_world.h. Moving the test programs into files by area is planned.
//
// Every test is a host program written against niw::World (ni_world.h) and
// run twice: on the RTL (the kolo_ni of the build's torus, 2x1x1 unless
// --torus says otherwise, the PCIe endpoint's user side played in C++ with
// random DMA latency, reordering and back-pressure) and on the model (model
// NIs on an ideal network).
// Then the two are compared: every byte of host memory, the completion
// entries of every context (as a sorted list: the order of completions is
// timing), STATUS of every context and the NI counters (ERR_CSR, STAT_*).
// Host programs avoid races (each byte written by one operation, GETs read
// bytes nothing writes, shared atomic words see one commutative op kind,
// fetching atomics use private words), so the final state is determined;
// except --hot, whose order on the hot words the model takes from the RTL.
//
//   --test=<name>  basic | cycles | mix | errors | isolation | packets | dma-err | cq-wrap | tags | rate
//                  | bench-latency | bench-bandwidth | bench-atomic (benchmarks: PCIe model below)
//   --seed=N       (printed; SEED=N replays)   --ops=N  (mix: operations)
//   --lat=MIN:MAX  DMA read latency in cycles   --reads=N  DMA reads outstanding
//   --rdy=P --wrdy=P  % of cycles the DMA read request / write port is ready
//   --gap=P        % of cycles without a beat inside a DMA read response
//   --torus=XxYxZ  the torus the build holds (default 2x1x1)
//   --ctx=N        mix: contexts per node (1..16)   --burst=N  mix: operations per burst (max)
//   --atomics      mix: atomics only
//   --hot          mix: every shared atomic on one word per size and target node (the target
//                  chains them: each follows the previous one's value): ADD, FETCH_ADD, SWAP,
//                  CSWAP (compare: the last value swapped in, or one that cannot match) from
//                  every node at once; the fetching ones complete with the old value. Their
//                  order is timing, so the RTL's is recorded (the responses the targets send,
//                  C++ network builds only) and the model's network delivers these atomics in
//                  it (HotOrder): every returned value is compared with the model
//   --bug=hotorder negative control of --hot: two atomics of the recorded order swapped for
//                  the model; the comparison must fail
//   --signal=P     mix: P % of operations are puts with signal (data PUT, then a FENCE'd
//                  signal); the RTL's target must not write a signal before its data
//   --elastic      the network buffers without limit (lets the initiator run out of tags)
//   --bug=dmawr    negative control: the endpoint model corrupts a DMA write;
//                  the comparison must fail
//   --bug=nofence  negative control: signals without FENCE; the order check must fail
//   --test=e2e     end-to-end reliability: the mix with E2E_CTRL on in every NI and a lossy
//                  network (NetFault, ni_world.h): --drop=PM --dup=PM per mille of packets
//                  dropped / duplicated, --delay=PM:MAX per mille delayed by up to MAX cycles
//                  (RTL world only), --e2e-timeout=CYCLES; compared with the model under the
//                  same losses, and the model with the same losses with a lossless model run
//                  (exactly once); every operation must complete and every tag come back
//   --test=e2e-directed  a dropped request, a dropped response (answered from the target's
//                  record, the atomic not executed twice), the retry budget (TIMEOUT), an
//                  invalid route entry (BAD_DST), a table switch and an entry change shortening
//                  the timer
//   --test=e2e-reload  a reloaded initiator (tables as a bitstream load leaves them, no
//                  reset): its PUTs are executed after one RESYNC per (destination, tag),
//                  counted in E2E_RESYNC; a lost RESYNC ends its operation with TIMEOUT (RTL
//                  only; --plant=no-resync: the old behaviour, must fail)
//   --test=svc     (build with SVC=1: kolo_node per node) the service block in the node:
//                  BAR0 window, host write protection, the NI routing with the service
//                  block's table, MGMT packets in band during a mix run (svc_proc.h)
//   --mgmt=N       svc: MGMT packets each service processor sends (default 40)
//   --test=svc-fault  (SVC=1) a link fails during a mix with end-to-end on: routers drop,
//                  the service processors switch tables, the NIs resend; equal to the lossless model
#include <cinttypes>
#include <set>

#include "ni_world.h"
#ifndef NI_SVC
#define NI_SVC 0
#endif
#if NI_SVC
#include "svc_proc.h"
#endif

using namespace niw;

namespace {

// the torus of this build's tb_ni (--torus=XxYxZ, as mk/ni.mk verilated it; RtlWorld checks
// the node count)
kolo_topo g_topo{{2, 1, 1}};
// end-to-end reliability: setup() enables it in every NI when on
struct E2eCfg {
    bool on = false;
    uint32_t timeout = 4000;
    unsigned retries = 8;
};
E2eCfg g_e2e;
bool g_cmp_e2e = false;     // Compare: the end-to-end counters too
bool g_cmp_traffic = true;  // Compare: packet counts (not with duplicates or delays: timing)
kolo_topo build_topo() { return g_topo; }

// ---- host memory layout (the same on every node) -------------------------------
constexpr uint64_t SQ_BASE = 0x10000000ull;   // + 0x100000 * ctx
constexpr uint64_t CQ_BASE = 0x20000000ull;   // + 0x100000 * ctx
constexpr uint64_t SRC = 0x30000000ull;       // initiators' source bytes (read only)
constexpr uint64_t DATA = 0x40000000ull;      // window 0: read, write, atomic (16 MiB)
constexpr uint64_t DATA_LEN = 0x1000000ull;
constexpr uint64_t RO = 0x48000000ull;        // window 1: read only (1 MiB, initialised)
constexpr uint64_t RO_LEN = 0x100000ull;
constexpr uint64_t LDST = 0x60000000ull;      // GET destinations (local)
constexpr uint8_t KEY0 = 0x30, KEY1 = 0x51, KEY2 = 0x72;  // {check, window}

uint64_t sq_of(int c) { return SQ_BASE + 0x100000ull * (uint64_t)c; }
uint64_t cq_of(int c) { return CQ_BASE + 0x100000ull * (uint64_t)c; }

struct Desc {
    uint8_t op = 0, flags = 0;
    uint16_t dst = 0;  // bits 15:12 are the reserved descriptor bits 31:28
    uint32_t len = 0;
    uint64_t raddr = 0;
    uint8_t key = 0, rsv = 0;
    uint64_t w2 = 0, w3 = 0;
    void pack(uint8_t out[32]) const {
        kolo_desc d;
        d.op = op;
        d.flags = flags;
        d.dst = dst;
        d.len = len;
        d.raddr_key = (raddr & 0xffffffffffffull) | (uint64_t)key << 48 | (uint64_t)rsv << 56;
        d.w2 = w2;
        d.w3 = w3;
        kolo_desc_pack(&d, out);
    }
};

struct Cqe {
    uint16_t index;
    uint8_t status, op;
    uint64_t result;
    bool operator<(const Cqe &o) const {
        return std::tie(index, status, op, result) < std::tie(o.index, o.status, o.op, o.result);
    }
    bool operator==(const Cqe &o) const {
        return index == o.index && status == o.status && op == o.op && result == o.result;
    }
};

// host-side driver of one node (its contexts' queues live in host memory)
struct Host {
    World &w;
    int n;
    struct Q {
        bool on = false;
        unsigned sq_log2 = 0, cq_log2 = 0;
        uint16_t pi = 0, cq_ci = 0;
        std::vector<Cqe> got;
    };
    Q q[16];
    Host(World &w_, int n_) : w(w_), n(n_) {}
    // run the world until context c holds `want` completion entries (polling its CQ), at most
    // max cycles; false if they did not come
    bool run_to_completions(int c, size_t want, uint64_t max) {
        return w.run_until(
            [&] {
                poll(c, true);
                return q[c].got.size() >= want;
            },
            max);
    }

    void routes(const kolo_topo &t) {
        std::vector<kolo_route_entry> tab(kolo_topo_nodes(&t));
        kolo_table_default(&t, kolo_node_id_of_index(&t, (unsigned)n), tab.data());
        for (unsigned i = 0; i < tab.size(); i++) w.wr32(n, KOLO_CSR_ROUTE(i), tab[i]);
    }
    void window(int wi, uint8_t key, uint64_t base, uint64_t len, uint32_t rights) {
        w.wr64(n, KOLO_CSR_WIN(wi) + KOLO_WIN_BASE, base);
        w.wr64(n, KOLO_CSR_WIN(wi) + KOLO_WIN_LEN, len);
        w.wr64(n, KOLO_CSR_WIN(wi) + KOLO_WIN_CTRL, key | rights | KOLO_WIN_ENABLE);
    }
    void ctx(int c, unsigned sq_log2, unsigned cq_log2, bool msi = false, unsigned vec = 0) {
        w.wr64(n, KOLO_CSR_CTX(c) + KOLO_CTX_SQ_BASE, sq_of(c));
        w.wr64(n, KOLO_CSR_CTX(c) + KOLO_CTX_CQ_BASE, cq_of(c));
        w.wr64(n, KOLO_CSR_CTX(c) + KOLO_CTX_SIZES, sq_log2 | cq_log2 << 8);
        w.wr64(n, KOLO_CSR_CTX(c) + KOLO_CTX_CTRL, 1u | (msi ? 2u : 0u) | vec << 16);
        q[c] = Q();
        q[c].on = true;
        q[c].sq_log2 = sq_log2;
        q[c].cq_log2 = cq_log2;
    }
    // free SQ slots (the NI has taken what STATUS says; conservative: completions)
    void post(int c, const Desc &d) {
        uint8_t b[32];
        d.pack(b);
        uint64_t slot = q[c].pi & ((1u << q[c].sq_log2) - 1u);
        w.mem(n).write(sq_of(c) + 32 * slot, b, 32);
        q[c].pi++;
    }
    void doorbell(int c) { w.wr32(n, KOLO_CSR_DOORBELL(c) + KOLO_DB_SQ_PI, q[c].pi); }
    void pio(int c, const Desc &d, const uint8_t *payload = nullptr) {
        uint8_t b[64] = {0};
        d.pack(b);
        if (payload) std::memcpy(b + 32, payload, 32);
        w.mmio_write(n, 2, KOLO_PIO_PAGE(c), b, 64);
    }
    // collect new completion entries of context c; release them with CQ_CI
    unsigned poll(int c, bool release = true) {
        Q &s = q[c];
        unsigned got = 0;
        for (;;) {
            uint16_t ci = s.cq_ci;
            uint64_t a = cq_of(c) + 16ull * (ci & ((1u << s.cq_log2) - 1u));
            uint8_t b[16];
            w.mem(n).read(a, b, 16);
            kolo_cqe e;
            kolo_cqe_unpack(b, &e);
            unsigned phase = ((ci >> s.cq_log2) & 1u) ^ 1u;
            if ((e.phase & 1u) != phase) break;
            s.got.push_back(Cqe{e.index, e.status, e.op, e.result});
            s.cq_ci++;
            got++;
        }
        if (got && release) w.wr32(n, KOLO_CSR_DOORBELL(c) + KOLO_DB_CQ_CI, s.cq_ci);
        return got;
    }
};

// ---- comparison of two worlds ------------------------------------------------------
struct Compare {
    tb::Checker &chk;
    explicit Compare(tb::Checker &c) : chk(c) {}
    void run(World &a, World &b, std::vector<Host> &ha, std::vector<Host> &hb, bool regs = true) {
        for (int n = 0; n < a.nodes(); n++) {
            // (the CQ rings are compared below as sorted entries: their order is timing)
            int64_t d = mem_diff(a.mem(n), b.mem(n), CQ_BASE, CQ_BASE + 16 * 0x100000ull);
            chk.check(d < 0, "node %d host memory differs at 0x%llx: %s 0x%02x, %s 0x%02x", n,
                      (long long)d, a.name(), d < 0 ? 0 : a.mem(n).get((uint64_t)d), b.name(),
                      d < 0 ? 0 : b.mem(n).get((uint64_t)d));
            for (int c = 0; c < 16; c++) {
                ha[n].poll(c, false);
                hb[n].poll(c, false);
                auto ea = ha[n].q[c].got, eb = hb[n].q[c].got;
                std::sort(ea.begin(), ea.end());
                std::sort(eb.begin(), eb.end());
                bool same = ea == eb;
                chk.check(same, "node %d ctx %d completions differ: %s %zu, %s %zu entries", n, c, a.name(),
                          ea.size(), b.name(), eb.size());
                if (!same) {
                    for (size_t i = 0; i < std::max(ea.size(), eb.size()) && i < 12; i++) {
                        auto pr = [](const std::vector<Cqe> &v, size_t k) {
                            if (k >= v.size()) return std::string("-");
                            char s[80];
                            std::snprintf(s, sizeof s, "idx %u st %u op %u res 0x%llx", v[k].index,
                                          v[k].status, v[k].op, (unsigned long long)v[k].result);
                            return std::string(s);
                        };
                        std::fprintf(stderr, "    %-40s | %s\n", pr(ea, i).c_str(), pr(eb, i).c_str());
                    }
                }
                uint64_t sa = a.rd(n, KOLO_CSR_CTX(c) + KOLO_CTX_STATUS) & 0xffff;
                uint64_t sb = b.rd(n, KOLO_CSR_CTX(c) + KOLO_CTX_STATUS) & 0xffff;
                chk.check(sa == sb, "node %d ctx %d STATUS 0x%llx vs 0x%llx", n, c, (unsigned long long)sa,
                          (unsigned long long)sb);
            }
            if (!regs) continue;
            static const struct {
                uint64_t off;
                unsigned size;
                const char *name;
                int kind;  // 0 always, 1 packet counts, 2 end-to-end counters
            } R[] = {{KOLO_CSR_ERR_CSR, 4, "ERR_CSR", 0},          {KOLO_CSR_STAT_TX_PKTS, 8, "TX_PKTS", 1},
                     {KOLO_CSR_STAT_RX_PKTS, 8, "RX_PKTS", 1},      {KOLO_CSR_STAT_NAK_SENT, 8, "NAK_SENT", 1},
                     {KOLO_CSR_STAT_NAK_RCVD, 8, "NAK_RCVD", 1},    {KOLO_CSR_STAT_BAD_PKTS, 8, "BAD_PKTS", 0},
                     {KOLO_CSR_STAT_DMA_ERR, 8, "DMA_ERR", 0},
                     {KOLO_CSR_E2E_RETX, 8, "E2E_RETX", 2},         {KOLO_CSR_E2E_DUP_REQ, 8, "E2E_DUP_REQ", 2},
                     {KOLO_CSR_E2E_DUP_RESP, 8, "E2E_DUP_RESP", 2}, {KOLO_CSR_E2E_TIMEOUTS, 8, "E2E_TIMEOUTS", 2},
                     {KOLO_CSR_E2E_UNREACH, 8, "E2E_UNREACH", 2},   {KOLO_CSR_E2E_RESYNC, 8, "E2E_RESYNC", 2}};
            for (auto &r : R) {
                if ((r.kind == 1 && !g_cmp_traffic) || (r.kind == 2 && !g_cmp_e2e)) continue;
                uint64_t va = a.rd(n, r.off, r.size), vb = b.rd(n, r.off, r.size);
                if (r.off == KOLO_CSR_STAT_TX_PKTS || r.off == KOLO_CSR_STAT_RX_PKTS) {
                    // without RESYNC round trips (RTL only, docs/ni.md 10.1)
                    va -= a.resync_pkts(n, r.off == KOLO_CSR_STAT_TX_PKTS);
                    vb -= b.resync_pkts(n, r.off == KOLO_CSR_STAT_TX_PKTS);
                }
                if (r.off == KOLO_CSR_E2E_RESYNC) {
                    // the RESYNCs the network saw (none dropped when counters are compared:
                    // ni_world.h lets them pass, so no retransmitted copy); the model's 0
                    va -= a.resyncs_sent(n);
                    vb -= b.resyncs_sent(n);
                }
                chk.check(va == vb, "node %d %s: %s %llu, %s %llu", n, r.name, a.name(), (unsigned long long)va,
                          b.name(), (unsigned long long)vb);
            }
            // register reads (after the counters: the doorbell-register read counts in ERR_CSR)
            static const struct {
                uint64_t off;
                unsigned size;
            } G[] = {{KOLO_CSR_ID, 4}, {KOLO_CSR_VERSION, 4}, {0, 8}, {KOLO_CSR_NODE_ID, 4},
                     {KOLO_CSR_TORUS, 4}, {KOLO_CSR_NODE_ID, 8}, {KOLO_CSR_NUM_CTX, 4},
                     {KOLO_CSR_CTX(0) + KOLO_CTX_SQ_BASE, 8}, {KOLO_CSR_CTX(1) + KOLO_CTX_CQ_BASE, 8},
                     {KOLO_CSR_CTX(0) + KOLO_CTX_CQ_BASE + 4, 4}, {KOLO_CSR_CTX(2) + KOLO_CTX_OUTSTANDING, 8},
                     {KOLO_CSR_WIN(0) + KOLO_WIN_BASE, 8}, {KOLO_CSR_WIN(1) + KOLO_WIN_LEN, 8},
                     {KOLO_CSR_WIN(2) + KOLO_WIN_CTRL, 4}, {KOLO_CSR_WIN(3) + KOLO_WIN_CTRL, 4},
                     {KOLO_CSR_ROUTE(0), 4}, {KOLO_CSR_ROUTE(1), 4}, {KOLO_CSR_ROUTE(0), 8},
                     {KOLO_CSR_DOORBELL(0) + KOLO_DB_STATUS, 8}, {KOLO_CSR_DOORBELL(1) + KOLO_DB_OUTSTANDING, 8},
                     {KOLO_CSR_DOORBELL(2) + KOLO_DB_STATUS + 4, 4}, {0x3000, 8}, {0x18, 4}, {NI_SVC ? 0x3ff8u : 0x8000u, 4},
                     {KOLO_CSR_E2E_CTRL, 4}, {KOLO_CSR_E2E_TIMEOUT, 4}, {KOLO_CSR_E2E_CTRL, 8},
                     {KOLO_CSR_DOORBELL(0) + KOLO_DB_SQ_PI, 4}, {KOLO_CSR_ERR_CSR, 4}};
            for (auto &g : G) {
                uint64_t va = a.rd(n, g.off, g.size), vb = b.rd(n, g.off, g.size);
                chk.check(va == vb, "node %d read of 0x%llx (%u bytes): %s 0x%llx, %s 0x%llx", n,
                          (unsigned long long)g.off, g.size, a.name(), (unsigned long long)va, b.name(),
                          (unsigned long long)vb);
            }
            chk.check((a.msis(n) > 0) == (b.msis(n) > 0), "node %d MSIs: %s %llu, %s %llu", n, a.name(),
                      (unsigned long long)a.msis(n), b.name(), (unsigned long long)b.msis(n));
        }
    }
};

// ---- the two worlds and their hosts ------------------------------------------------------
struct Pair {
    kolo_topo topo;
    std::unique_ptr<RtlWorld> rtl;
    std::unique_ptr<ModelWorld> mdl;
    std::vector<Host> hr, hm;
    Pair(uint64_t seed, const RtlOpts &o) : topo(build_topo()) {
        rtl.reset(new RtlWorld(topo, seed, o));
        mdl.reset(new ModelWorld(topo));
        for (int n = 0; n < (int)kolo_topo_nodes(&topo); n++) {
            hr.emplace_back(*rtl, n);
            hm.emplace_back(*mdl, n);
        }
    }
    // run a host program on both worlds
    void both(const std::function<void(World &, std::vector<Host> &)> &f) {
        f(*rtl, hr);
        f(*mdl, hm);
    }
};

// standard node setup: routes, windows, initial memory
void setup(World &w, std::vector<Host> &h, const kolo_topo &t, uint64_t seed) {
    tb::Rng r(seed * 7 + 3);
    for (int n = 0; n < w.nodes(); n++) {
        h[n].routes(t);
        h[n].window(0, KEY0, DATA, DATA_LEN, KOLO_WIN_READ | KOLO_WIN_WRITE | KOLO_WIN_ATOMIC);
        h[n].window(1, KEY1, RO, RO_LEN, KOLO_WIN_READ);
        h[n].window(2, KEY2, BAD_LO, BAD_HI - BAD_LO, KOLO_WIN_READ | KOLO_WIN_WRITE | KOLO_WIN_ATOMIC);
        // source bytes and read-only bytes
        std::vector<uint8_t> b(0x10000);
        for (auto &x : b) x = (uint8_t)r.next();
        w.mem(n).write(SRC, b.data(), b.size());
        for (auto &x : b) x = (uint8_t)r.next();
        w.mem(n).write(RO, b.data(), b.size());
    }
    if (g_e2e.on) {
        // the targets' records are cleared for 4096 cycles after reset (kolo_ni_tgt)
        w.run_until([&] { return w.now() >= 4500; }, 5000);
        if (RtlWorld *rw = dynamic_cast<RtlWorld *>(&w)) rw->set_allow_gen(true);
        for (int n = 0; n < w.nodes(); n++) {
            w.wr32(n, KOLO_CSR_E2E_TIMEOUT, g_e2e.timeout);
            w.wr32(n, KOLO_CSR_E2E_CTRL, KOLO_E2E_CTRL_EN | g_e2e.retries << 8);
        }
    }
}

// end-to-end: run until every enabled context has nothing outstanding and (RTL) every tag is
// back in the pool (quarantines over); false if that does not happen
bool e2e_wait(World &w, std::vector<Host> &h, uint64_t max_cycles) {
    RtlWorld *rw = dynamic_cast<RtlWorld *>(&w);
    for (uint64_t t0 = w.now(); w.now() - t0 < max_cycles;) {
        bool done = true;
        for (int n = 0; n < w.nodes() && done; n++) {
            for (int c = 0; c < 16 && done; c++)
                if (h[n].q[c].on && (w.rd(n, KOLO_CSR_CTX(c) + KOLO_CTX_OUTSTANDING) & 0xffffffffu) != 0)
                    done = false;
            if (rw && rw->free_tags(n) != 256) done = false;
        }
        if (done) return true;
        w.run(1000);
    }
    return false;
}

uint16_t node_id(const kolo_topo &t, int n) { return kolo_node_id_of_index(&t, (unsigned)n); }

Desc put(uint16_t dst, uint64_t raddr, uint64_t laddr, uint32_t len, uint8_t flags = KOLO_DF_COMPLETE,
         uint8_t key = KEY0) {
    Desc d;
    d.op = KOLO_D_PUT;
    d.flags = flags;
    d.dst = dst;
    d.len = len;
    d.raddr = raddr;
    d.key = key;
    d.w2 = laddr;
    return d;
}
Desc get(uint16_t dst, uint64_t raddr, uint64_t laddr, uint32_t len, uint8_t flags = KOLO_DF_COMPLETE,
         uint8_t key = KEY1) {
    Desc d = put(dst, raddr, laddr, len, flags, key);
    d.op = KOLO_D_GET;
    return d;
}
Desc atomic(uint8_t op, uint16_t dst, uint64_t raddr, uint64_t opnd, uint64_t cmp = 0,
            uint8_t flags = KOLO_DF_COMPLETE, uint8_t key = KEY0) {
    Desc d;
    d.op = op;
    d.flags = flags;
    d.dst = dst;
    d.raddr = raddr;
    d.key = key;
    d.w2 = opnd;
    d.w3 = cmp;
    return d;
}
Desc nop(uint8_t flags = KOLO_DF_COMPLETE | KOLO_DF_FENCE) {
    Desc d;
    d.flags = flags;
    return d;
}

// ---- tests --------------------------------------------------------------------------------
struct Opts {
    std::string test = "basic";
    uint64_t seed = 1;
    long ops = 400;
    int ctxs = 3;
    int burst = 40;
    int signal_pct = 0;  // mix: % puts with signal
    unsigned mgmt = 40;  // svc: MGMT packets per service processor
    bool atomics = false;  // mix: atomics only (--atomics)
    bool hot = false;      // mix: every shared atomic on one word per size (--hot)
    bool reads_set = false;  // --reads= given (the benchmarks otherwise use the endpoint's EP_READS)
    RtlOpts rtl;
};

// directed: each operation kind once or twice, both directions and loopback
void prog_basic(World &w, std::vector<Host> &h, const kolo_topo &t) {
    setup(w, h, t, 1);
    uint16_t id1 = node_id(t, 1), id0 = node_id(t, 0);
    h[0].ctx(0, 6, 6);
    h[1].ctx(3, 4, 5, true, 7);
    // PUTs: one short, one spanning several 256-byte packets at an odd address
    h[0].post(0, put(id1, DATA + 0x100, SRC + 0x10, 8));
    h[0].post(0, put(id1, DATA + 0x2f3, SRC + 0x123, 1000));
    // INLINE across a 256-byte boundary
    Desc d = put(id1, DATA + 0x5fb, 0, 13, KOLO_DF_COMPLETE | KOLO_DF_INLINE);
    d.w2 = 0x0807060504030201ull;
    d.w3 = 0x100f0e0d0c0b0a09ull;
    h[0].post(0, d);
    // GETs from node 1's read-only region, to node 0's memory
    h[0].post(0, get(id1, RO + 0x40, LDST + 0x8, 8));
    h[0].post(0, get(id1, RO + 0x1f9, LDST + 0x1003, 777, KOLO_DF_COMPLETE | KOLO_DF_ORDERED));
    // atomics on node 1
    w.mem(1).wr64(DATA + 0x8000, 100);
    w.mem(1).wr64(DATA + 0x8008, 0xff00);
    w.mem(1).wr64(DATA + 0x8010, 5);
    w.mem(1).wr64(DATA + 0x8018, 0x1111);
    h[0].post(0, atomic(KOLO_D_FETCH_ADD, id1, DATA + 0x8000, 23));
    h[0].post(0, atomic(KOLO_D_ADD, id1, DATA + 0x8000, 1000));
    h[0].post(0, atomic(KOLO_D_FETCH_XOR, id1, DATA + 0x8008, 0x0ff0));
    h[0].post(0, atomic(KOLO_D_CSWAP, id1, DATA + 0x8010, 77, 5));
    h[0].post(0, atomic(KOLO_D_CSWAP, id1, DATA + 0x8018, 99, 5));
    h[0].post(0, atomic(KOLO_D_SWAP, id1, DATA + 0x8020, 0xabcdef));
    h[0].post(0, atomic(KOLO_D_FETCH_AND, id1, DATA + 0x8008, 0xf0f0));
    h[0].post(0, atomic(KOLO_D_OR, id1, DATA + 0x8028, 0x3));
    h[0].post(0, atomic(KOLO_D_FETCH_ADD, id1, DATA + 0x8034, 0xffffffff, 0,
                        KOLO_DF_COMPLETE | KOLO_DF_SIZE32));
    h[0].post(0, nop());
    h[0].doorbell(0);
    // node 1: loopback PUT and GET, a PIO PUT to node 0, a PIO atomic
    h[1].post(3, put(id1, DATA + 0x10000, SRC + 0x400, 300));
    h[1].post(3, get(id1, RO + 0x800, LDST + 0x20000, 40));
    h[1].doorbell(3);
    uint8_t pl[32];
    for (int i = 0; i < 32; i++) pl[i] = (uint8_t)(0xa0 + i);
    h[1].pio(3, put(id0, DATA + 0x3f0, 0, 32), pl);
    h[1].pio(3, atomic(KOLO_D_FETCH_ADD, id0, DATA + 0x9000, 5));
    h[1].pio(3, get(id0, RO + 0x3000, LDST + 0x30000, 500));
    w.settle(400000);
    h[1].post(3, nop());
    h[1].doorbell(3);
    w.settle(400000);
}

// a put with signal of the mix: the data PUT, then a FENCE'd signal (an 8-byte
// PUT or an ADD) to a word of its own; when the signal word is written at the
// target, the data must already be there
struct Signal {
    int init, target;
    uint64_t data, src, word;
    uint32_t len;
};
// the RTL's DMA writes checked against the signals (see prog_mix)
struct SignalCheck {
    long checked = 0, early = 0;
    std::string first;
};

// random operation mix, race free (see the file comment)
struct MixGen {
    tb::Rng r;
    const kolo_topo &t;
    int nn;
    std::vector<uint64_t> next_dst;  // PUT targets, per target node
    std::vector<uint64_t> next_ldst; // GET destinations, per initiator
    std::vector<uint64_t> next_word; // private atomic words, per target node
    unsigned signal_pct = 0;         // % of operations that are a put with signal (two descriptors)
    bool nofence = false;            // planted bug: signals without FENCE (order check must fail)
    bool unique = false;             // e2e: refused PUTs carry distinct payloads (packet identities)
    bool atomics_only = false;       // --atomics: every operation an atomic (private or shared word)
    bool hot = false;                // --hot: shared atomics on one word per size (chains)
    std::vector<Signal> signals;
    // --hot: per size (0: 8 bytes, 1: 4 bytes) the operands used (the identity of an atomic
    // in the recorded order: source, operand)
    std::set<uint64_t> hot_used[2];
    static uint64_t hot_word(int s32) { return DATA + 0xb00000 + (s32 ? 0x80 : 0); }
    static uint64_t hot_mask(int s32) { return s32 ? 0xffffffffull : ~0ull; }
    // initial values (prog_mix): word i of DATA + 0xb00000 holds 0x0123456789abcdef * (i + 1)
    static uint64_t hot_init(int s32) { return (0x0123456789abcdefull * (s32 ? 17 : 1)) & hot_mask(s32); }
    uint64_t hot_operand(int s32) {
        for (;;) {
            uint64_t v = r.next();
            if (hot_used[s32].insert(v & hot_mask(s32)).second) return v;
        }
    }
    MixGen(uint64_t seed, const kolo_topo &t_)
        : r(seed), t(t_), nn((int)kolo_topo_nodes(&t_)), next_dst(nn, DATA), next_ldst(nn, LDST),
          next_word(nn, DATA + 0xc00000) {}
    uint64_t alloc(uint64_t &p, uint32_t len) {
        uint64_t a = p + r.below(64);
        p = a + len + r.below(64);
        return a;
    }
    struct Op {
        int node, ctx;
        bool pio;
        Desc d;
        uint8_t pl[32];
    };
    std::vector<Op> make(long count, int nctx) {
        if (count > 8000) count = 8000;  // SQ of 8192 entries per context
        std::vector<Op> v;
        for (long i = 0; i < count; i++) {
            Op o;
            o.node = (int)r.below((uint32_t)nn);
            o.ctx = (int)r.below((uint32_t)nctx);
            o.pio = r.chance(12);
            // --hot: no PIO (a PIO write starts when written, so which ops its FENCE waits for is
            // timing; and a host blocked on a full PIO FIFO while the model holds an atomic for
            // another node's would wait for ever)
            if (hot) o.pio = false;
            int tn = (int)r.below((uint32_t)nn);
            uint16_t dst = node_id(t, tn);
            if (signal_pct && r.chance(signal_pct)) {
                // put with signal: data (1..2000 bytes, often several packets), then the signal
                Signal sg;
                sg.init = o.node;
                sg.target = tn;
                sg.len = 1 + r.below(2000);
                sg.src = SRC + r.below(0x8000);
                sg.data = alloc(next_dst[tn], sg.len);
                o.pio = false;
                o.d = put(dst, sg.data, sg.src, sg.len, r.chance(50) ? KOLO_DF_COMPLETE : 0);
                v.push_back(o);
                if (r.chance(50)) {
                    sg.word = (alloc(next_dst[tn], 16) + 7) & ~7ull;
                    o.d = put(dst, sg.word, 0, 8, KOLO_DF_COMPLETE | KOLO_DF_INLINE);
                    o.d.w2 = 1 + r.below(1000);
                } else {
                    sg.word = next_word[tn];
                    next_word[tn] += 8;
                    o.d = atomic(KOLO_D_ADD, dst, sg.word, 1, 0, KOLO_DF_COMPLETE);
                }
                if (!nofence)
                    o.d.flags |= KOLO_DF_FENCE;
                signals.push_back(sg);
                v.push_back(o);
                i++;
                continue;
            }
            uint8_t fl = (r.chance(70) ? KOLO_DF_COMPLETE : 0) | (r.chance(20) ? KOLO_DF_ORDERED : 0) |
                         (r.chance(5) ? KOLO_DF_FENCE : 0);
            unsigned k = atomics_only ? 60 + r.below(32) : r.below(100);
            for (int j = 0; j < 32; j++) o.pl[j] = (uint8_t)r.next();
            if (k < 35) {  // PUT
                uint32_t len = o.pio ? 1 + r.below(32)
                                     : (r.chance(50) ? 1 + r.below(16)
                                                     : (r.chance(70) ? 1 + r.below(600) : 1 + r.below(3000)));
                bool inl = !o.pio && len <= 16 && r.chance(40);
                uint64_t ra = alloc(next_dst[tn], len);
                o.d = put(dst, ra, SRC + r.below(0x8000), len, fl | (inl ? KOLO_DF_INLINE : 0));
                if (inl) {
                    o.d.w2 = r.next();
                    o.d.w3 = r.next();
                }
            } else if (k < 60) {  // GET
                uint32_t len = r.chance(60) ? 1 + r.below(64) : 1 + r.below(2500);
                uint64_t ra = RO + r.below((uint32_t)(RO_LEN - len));
                o.d = get(dst, ra, alloc(next_ldst[o.node], len), len, fl);
            } else if (k < 92) {  // atomics
                static const uint8_t fetching[] = {KOLO_D_FETCH_ADD, KOLO_D_FETCH_XOR, KOLO_D_SWAP,
                                                   KOLO_D_CSWAP, KOLO_D_FETCH_AND, KOLO_D_FETCH_OR};
                static const uint8_t shared[] = {KOLO_D_ADD, KOLO_D_XOR, KOLO_D_AND, KOLO_D_OR};
                bool s32 = r.chance(30);
                uint8_t f2 = fl | (s32 ? KOLO_DF_SIZE32 : 0);
                bool shr = r.chance(50);
                if (shr && hot) {
                    // the hot word of this size: ADD 25%, FETCH_ADD 25%, SWAP 20%, CSWAP 30%
                    // (half of them right behind a SWAP of their context, comparing with its value:
                    // they match unless another context's atomic came between), fetching ones with
                    // a completion entry
                    static const uint8_t hot_ops[] = {KOLO_D_ADD, KOLO_D_FETCH_ADD, KOLO_D_SWAP, KOLO_D_CSWAP};
                    unsigned k2 = r.below(20);
                    uint8_t op = hot_ops[k2 < 5 ? 0 : k2 < 10 ? 1 : k2 < 14 ? 2 : 3];
                    int sz = s32 ? 1 : 0;
                    uint64_t opnd = hot_operand(sz);
                    if (op != KOLO_D_ADD) f2 |= KOLO_DF_COMPLETE;
                    // FENCE: one hot atomic in flight per context, so that the model (64 ops in
                    // flight per context) can always follow the RTL's order (HotOrder) without
                    // its contexts filling up with held atomics
                    f2 |= KOLO_DF_FENCE;
                    uint64_t cmp = r.next();
                    if (op == KOLO_D_CSWAP && r.chance(50) && i + 1 < count) {
                        uint64_t x = hot_operand(sz);
                        o.d = atomic(KOLO_D_SWAP, dst, hot_word(sz), x, 0, f2);
                        v.push_back(o);
                        i++;
                        cmp = x;
                    }
                    o.d = atomic(op, dst, hot_word(sz), opnd, op == KOLO_D_CSWAP ? cmp : 0, f2);
                } else if (shr) {
                    unsigned kind = r.below(4);
                    // shared word: one per (kind, size), 4 words each
                    uint64_t a = DATA + 0xb00000 + kind * 0x100 + (s32 ? 0x80 : 0) + 8 * r.below(4);
                    o.d = atomic(shared[kind], dst, a, r.next(), 0, f2);
                } else {
                    uint64_t a = next_word[tn];
                    next_word[tn] += 8;
                    uint8_t op = fetching[r.below(6)];
                    uint64_t cmp = r.chance(50) ? 0 : r.next();  // private words start at 0
                    o.d = atomic(op, dst, a + (s32 && r.chance(50) ? 4 : 0), r.next(), cmp, f2);
                }
            } else if (k < 95) {
                o.d = nop(fl | (r.chance(50) ? KOLO_DF_COMPLETE : 0));
                o.pio = false;
            } else {  // a refused operation: remote key, bounds or rights
                unsigned e = r.below(3);
                uint64_t ra = alloc(next_dst[tn], 8);
                uint64_t src = unique ? SRC + 8 * (uint64_t)(i % 4096) : SRC;
                if (e == 0) o.d = put(dst, ra, src, 8, fl, 0x40);            // window 0, wrong check
                // past the end (partly-outside operations, whose first error depends
                // on the order responses return in, are in the errors test)
                else if (e == 1) o.d = put(dst, DATA + DATA_LEN, src, 8, fl, KEY0);
                else o.d = put(dst, RO + 0x100, src, 8, fl, KEY1);             // no write right
            }
            v.push_back(o);
        }
        return v;
    }
};

// --hot: the order in which each target executed the atomics on its hot words in the RTL
// world, taken from the responses it sends (on one word they leave in arrival order,
// kolo_ni_atomic), then imposed on the model's network (ModelWorld::hold): the model executes
// them in the same order, so every fetched value is determined and compared. An atomic is
// known by (source, operand): MixGen gives each hot atomic of a size its own operand.
struct HotOrder {
    typedef std::pair<unsigned, uint64_t> Id;    // (source node id, operand masked to the size)
    typedef std::pair<unsigned, uint64_t> Word;  // (target node id, address)
    struct Info {
        uint8_t op;
        uint64_t opnd, cmp;
    };
    bool bug_swap = false;  // --bug=hotorder: the model gets two atomics swapped (must fail)
    std::map<Word, std::vector<Id>> order;  // recorded in the RTL world
    std::map<Word, size_t> pos;             // model world: how many delivered
    std::map<uint64_t, std::pair<Word, Id>> inflight;  // RTL: (initiator, target, tag) -> request
    std::map<std::pair<Word, Id>, Info> info;          // the generated hot atomics
    std::string swapped;
    static bool hot(uint64_t h0, uint64_t h1, const uint64_t *pl, unsigned len, Word *w, Id *id) {
        unsigned op = kolo_rtl::h0_op(h0);
        bool at = (op >= KOLO_OP_ADD && op <= KOLO_OP_CSWAP) || op == KOLO_OP_FETCH_AND || op == KOLO_OP_FETCH_OR;
        uint64_t a = kolo_rtl::h1_addr(h1);
        int s32 = KOLO_H0_ASIZE(h0) == 2;
        if (kolo_rtl::h0_vnet(h0) != 0 || !at || len < 1 || a != MixGen::hot_word(s32)) return false;
        *w = Word(kolo_rtl::h0_dst(h0), a);
        *id = Id(kolo_rtl::h0_src(h0), pl[0] & MixGen::hot_mask(s32));
        return true;
    }
    static uint64_t key(unsigned ini, unsigned tgt, uint64_t h1) {
        return (uint64_t)ini << 20 | (uint64_t)tgt << 8 | (h1 >> 48 & 0xffu);
    }
    // RTL world: every packet sent (NetFault::filter)
    void record(uint64_t h0, uint64_t h1, const uint64_t *pl, unsigned len) {
        Word w;
        Id id;
        if (hot(h0, h1, pl, len, &w, &id)) {
            inflight[key(kolo_rtl::h0_src(h0), kolo_rtl::h0_dst(h0), h1)] = std::make_pair(w, id);
        } else if (kolo_rtl::h0_vnet(h0) == 1) {
            auto it = inflight.find(key(kolo_rtl::h0_dst(h0), kolo_rtl::h0_src(h0), h1));
            if (it == inflight.end()) return;
            order[it->second.first].push_back(it->second.second);
            inflight.erase(it);
        }
    }
    void start_model() {
        pos.clear();
        if (!bug_swap) return;
        // two adjacent atomics from different nodes, the first changing the word (FETCH_ADD,
        // SWAP), the second fetching it: the second's value must differ
        for (auto &wo : order)
            for (size_t i = 0; i + 1 < wo.second.size(); i++) {
                const Info &a = info[{wo.first, wo.second[i]}], &b = info[{wo.first, wo.second[i + 1]}];
                if ((a.op == KOLO_D_FETCH_ADD || a.op == KOLO_D_SWAP) && b.op != KOLO_D_ADD &&
                    wo.second[i].first != wo.second[i + 1].first) {
                    std::swap(wo.second[i], wo.second[i + 1]);
                    char m[120];
                    std::snprintf(m, sizeof m, "node 0x%x word 0x%llx atomics %zu and %zu", wo.first.first,
                                  (unsigned long long)wo.first.second, i, i + 1);
                    swapped = m;
                    return;
                }
            }
    }
    // model world: hold a hot atomic until the ones before it in the RTL's order are in
    bool held(const kolo_pkt &p) {
        Word w;
        Id id;
        if (!hot(p.header[0], p.header[1], p.payload, p.len, &w, &id)) return false;
        const auto &o = order[w];
        size_t k = pos[w];
        return k >= o.size() || o[k] != id;
    }
    void delivered(const kolo_pkt &p) {
        Word w;
        Id id;
        if (hot(p.header[0], p.header[1], p.payload, p.len, &w, &id)) pos[w]++;
    }
};

void prog_mix(World &w, std::vector<Host> &h, const kolo_topo &t, const std::vector<MixGen::Op> &ops,
              int nctx, uint64_t seed, int max_burst, const std::vector<Signal> &signals = {},
              SignalCheck *sc = nullptr, HotOrder *ho = nullptr) {
    setup(w, h, t, seed);
    const int nn = w.nodes();
    ModelWorld *mw = dynamic_cast<ModelWorld *>(&w);
    if (ho && mw) {
        ho->start_model();
        mw->hold = [ho](const kolo_pkt &p) { return ho->held(p); };
        mw->on_deliver = [ho](const kolo_pkt &p) { ho->delivered(p); };
    } else if (ho) {
        w.fault.on = true;  // (no losses: the filter passes every packet)
        w.fault.filter = [ho](uint64_t h0, uint64_t h1, const uint64_t *pl, unsigned len) {
            ho->record(h0, h1, pl, len);
            return (int)NetFault::PASS;
        };
    }
    for (int n = 0; n < nn; n++)
        // (the host never waits for SQ slots: the queues hold every operation)
        for (int c = 0; c < nctx; c++) h[n].ctx(c, 13, 14, c == 1, (unsigned)c);
    RtlWorld *rw = dynamic_cast<RtlWorld *>(&w);
    if (rw && sc && !signals.empty()) {
        // signal words by (target, address): the data must be in place when the word is written
        std::map<std::pair<int, uint64_t>, const Signal *> by_word;
        for (auto &sg : signals)
            by_word[{sg.target, sg.word}] = &sg;
        rw->on_dma_write = [&w, sc, by_word](int n, uint64_t a, unsigned len) {
            for (uint64_t x = a & ~7ull; x < a + len; x += 8) {
                auto it = by_word.find({n, x});
                if (it == by_word.end())
                    continue;
                const Signal &sg = *it->second;
                sc->checked++;
                for (uint32_t b = 0; b < sg.len; b++)
                    if (w.mem(n).get(sg.data + b) != w.mem(sg.init).get(sg.src + b)) {
                        if (!sc->early++) {
                            char m[200];
                            std::snprintf(m, sizeof m,
                                          "node %d: signal word 0x%llx written at cycle %llu "
                                          "before data byte 0x%llx",
                                          n, (unsigned long long)x, (unsigned long long)w.now(),
                                          (unsigned long long)(sg.data + b));
                            sc->first = m;
                        }
                        break;
                    }
            }
        };
    }
    // initial values of the shared atomic words
    for (int n = 0; n < nn; n++)
        for (int i = 0; i < 64; i++) w.mem(n).wr64(DATA + 0xb00000 + 8 * (uint64_t)i, 0x0123456789abcdefull * (uint64_t)(i + 1));
    size_t i = 0;
    tb::Rng r(seed ^ 0x55);
    while (i < ops.size()) {
        size_t burst = 1 + r.below((uint32_t)max_burst);
        std::vector<std::array<bool, 16>> rang(nn, std::array<bool, 16>{});
        for (size_t k = 0; k < burst && i < ops.size(); k++, i++) {
            const auto &o = ops[i];
            if (o.pio) {
                h[o.node].pio(o.ctx, o.d, o.pl);
            } else {
                h[o.node].post(o.ctx, o.d);
                rang[o.node][o.ctx] = true;
            }
        }
        for (int n = 0; n < nn; n++)
            for (int c = 0; c < nctx; c++)
                if (rang[n][c]) h[n].doorbell(c);
        w.run(r.below(300));
    }
    for (int n = 0; n < nn; n++)
        for (int c = 0; c < nctx; c++) {
            h[n].post(c, nop());
            h[n].doorbell(c);
        }
    w.settle(5000000);
    if (rw) rw->on_dma_write = nullptr;
    if (ho && mw) {
        mw->hold = nullptr;
        mw->on_deliver = nullptr;
    } else if (ho) {
        w.fault.filter = nullptr;
        w.fault.on = false;
    }
}

// every refused input of docs/ni.md on node 0, then normal service
void prog_errors(World &w, std::vector<Host> &h, const kolo_topo &t) {
    setup(w, h, t, 5);
    uint16_t id1 = node_id(t, 1);
    h[0].ctx(0, 6, 7);
    h[1].ctx(0, 6, 7);
    // -- bad descriptors (codes 1-4): the queue goes on
    Desc d;
    d = put(id1, DATA, SRC, 8); d.op = 13; h[0].post(0, d);                      // unknown op
    d = put(id1, DATA, SRC, 8); d.op = 0xff; h[0].post(0, d);
    d = put(id1, DATA, SRC, 8); d.dst |= 0x1000; h[0].post(0, d);                 // reserved 31:28
    d = put(id1, DATA, SRC, 8); d.rsv = 1; h[0].post(0, d);                       // reserved 127:120
    d = put(id1, DATA, SRC, 8, KOLO_DF_COMPLETE | 0x80); h[0].post(0, d);        // reserved flag
    d = get(id1, RO, LDST, 8, KOLO_DF_COMPLETE | KOLO_DF_INLINE); h[0].post(0, d);  // INLINE on GET
    d = put(id1, DATA, SRC, 8, KOLO_DF_COMPLETE | KOLO_DF_SIZE32); h[0].post(0, d); // SIZE32 on PUT
    h[0].post(0, put(id1, DATA, SRC, 0));                                         // zero length
    h[0].post(0, get(id1, RO, LDST, 0));
    h[0].post(0, put(id1, DATA, SRC, (1u << 30) + 1));                            // oversized
    h[0].post(0, put(id1, DATA, SRC, 17, KOLO_DF_COMPLETE | KOLO_DF_INLINE));    // INLINE > 16
    d = atomic(KOLO_D_ADD, id1, DATA, 1); d.len = 8; h[0].post(0, d);             // atomic with len
    d = nop(KOLO_DF_COMPLETE); d.len = 4; h[0].post(0, d);                        // NOP with len
    h[0].post(0, put(id1, 0xffffffffff00ull, SRC, 0x200));                        // beyond 2^48
    h[0].post(0, get(id1, RO, 0xffffffffffffff00ull, 0x200));                     // local beyond 2^64
    h[0].post(0, put((uint16_t)t.size[0], DATA, SRC, 8));                         // x outside torus
    h[0].post(0, put((uint16_t)(t.size[1] << 4), DATA, SRC, 8));                  // y outside
    h[0].post(0, put((uint16_t)(t.size[2] << 8), DATA, SRC, 8));                  // z outside
    h[0].post(0, atomic(KOLO_D_ADD, id1, DATA + 4, 1));                           // misaligned 8
    h[0].post(0, atomic(KOLO_D_SWAP, id1, DATA + 2, 1, 0, KOLO_DF_COMPLETE | KOLO_DF_SIZE32));
    h[0].post(0, atomic(KOLO_D_CSWAP, id1, DATA + 0x4c, 1, 0, KOLO_DF_COMPLETE | KOLO_DF_SIZE32));  // ok
    // -- remote refusals (codes 5-7)
    h[0].post(0, put(id1, DATA + 0x100, SRC, 8, KOLO_DF_COMPLETE, 0x40));         // key check bits
    h[0].post(0, put(id1, DATA + 0x100, SRC, 8, KOLO_DF_COMPLETE, 0x03));         // window 3 disabled
    h[0].post(0, put(id1, DATA - 8, SRC, 16));                                    // starts before
    h[0].post(0, put(id1, DATA + DATA_LEN - 8, SRC, 9));                          // ends after
    h[0].post(0, get(id1, RO + RO_LEN - 1, LDST, 2, KOLO_DF_COMPLETE, KEY1));
    h[0].post(0, put(id1, RO + 0x10, SRC, 8, KOLO_DF_COMPLETE, KEY1));            // no write right
    h[0].post(0, atomic(KOLO_D_FETCH_ADD, id1, RO + 0x10, 1, 0, KOLO_DF_COMPLETE, KEY1));  // no atomic
    h[0].post(0, put(id1, DATA + 0x2f8, SRC, 600, KOLO_DF_COMPLETE));             // ok across
    h[0].post(0, put(id1, DATA + DATA_LEN - 0x100, SRC, 0x200));                  // 2nd packet refused
    h[0].post(0, nop());
    h[0].doorbell(0);
    w.settle(1000000);
    if (w.nodes() > 2) {
        // -- across the torus: the farthest node refuses node 0's requests and the other way
        // round; every node sends one refused and one good request to a random other node
        const int far = w.nodes() - 1;
        const uint16_t idf = node_id(t, far), id0 = node_id(t, 0);
        h[far].ctx(0, 6, 7);
        for (int k = 0; k < 2; k++) {
            Host &ini = h[k ? far : 0];
            uint16_t to = k ? id0 : idf;
            ini.post(0, put(to, DATA + 0x100, SRC, 8, KOLO_DF_COMPLETE, 0x40)); // key check bits
            ini.post(0, put(to, DATA + 0x100, SRC, 8, KOLO_DF_COMPLETE, 0x03)); // disabled window
            ini.post(0, get(to, RO + RO_LEN - 4, LDST + 0x100, 8));             // ends after
            ini.post(0, put(to, RO + 0x10, SRC, 8, KOLO_DF_COMPLETE, KEY1));    // no write right
            // no atomic right
            ini.post(0, atomic(KOLO_D_CSWAP, to, RO + 0x18, 1, 0, KOLO_DF_COMPLETE, KEY1));
            ini.post(0, put(to, DATA + DATA_LEN - 0x100, SRC, 0x300));   // 2nd, 3rd refused
            ini.post(0, put(0xfff, DATA, SRC, 8));                       // all outside
            ini.post(0, atomic(KOLO_D_FETCH_ADD, to, DATA + 0x7000, 3)); // good
            ini.post(0, nop());
            ini.doorbell(0);
        }
        tb::Rng r(77);
        for (int n = 1; n < far; n++) {
            h[n].ctx(5, 6, 7);
            int d = (n + 1 + (int)r.below((uint32_t)w.nodes() - 1)) % w.nodes();
            h[n].post(5, put(node_id(t, d), DATA + 0x200 + 8 * (uint64_t)n, SRC + 8, 8,
                             KOLO_DF_COMPLETE, 0x4f));
            h[n].post(5, put(node_id(t, d), DATA + 0x400 + 8 * (uint64_t)n, SRC + 16, 8));
            h[n].post(5, nop());
            h[n].doorbell(5);
        }
        w.settle(1000000);
        // the farthest node unreachable from node 0 (route entry without bit 31)
        w.wr32(0, KOLO_CSR_ROUTE((unsigned)far), 0x1234);
        h[0].post(0, put(idf, DATA + 0x900, SRC, 8));
        h[0].post(0, nop());
        h[0].doorbell(0);
        w.settle(200000);
        h[0].routes(t);
    }
    // -- unreachable destination: node 1's entry without bit 31, then restored
    w.wr32(0, KOLO_CSR_ROUTE(1), 0x1234);
    h[0].post(0, put(id1, DATA + 0x900, SRC, 8));
    h[0].doorbell(0);
    w.settle(200000);
    h[0].routes(t);
    // -- doorbells: backwards, beyond the queue (context 0 stops)
    h[0].ctx(1, 3, 3);
    h[0].post(1, put(id1, DATA + 0xa00, SRC, 8));
    h[0].doorbell(1);
    w.settle(200000);
    w.wr32(0, KOLO_CSR_DOORBELL(1) + KOLO_DB_SQ_PI, 0);   // behind: refused, stops
    w.settle(200000);
    w.wr32(0, KOLO_CSR_DOORBELL(1) + KOLO_DB_SQ_PI, 5);   // stopped: dropped
    h[0].ctx(2, 3, 3);
    w.wr32(0, KOLO_CSR_DOORBELL(2) + KOLO_DB_SQ_PI, 9);   // beyond 8 entries
    w.settle(200000);
    // -- bad context configurations
    auto cfg = [&](int c, uint64_t sq, uint64_t cq, uint64_t sizes) {
        w.wr64(0, KOLO_CSR_CTX(c) + KOLO_CTX_SQ_BASE, sq);
        w.wr64(0, KOLO_CSR_CTX(c) + KOLO_CTX_CQ_BASE, cq);
        w.wr64(0, KOLO_CSR_CTX(c) + KOLO_CTX_SIZES, sizes);
        w.wr64(0, KOLO_CSR_CTX(c) + KOLO_CTX_CTRL, 1);
    };
    cfg(4, sq_of(4), cq_of(4), 0 | 4 << 8);        // SQ log2 0
    cfg(5, sq_of(5), cq_of(5), 5 | 4 << 8);        // CQ smaller than SQ
    cfg(6, sq_of(6), cq_of(6), 16 | 16 << 8);      // too big
    cfg(7, sq_of(7) + 16, cq_of(7), 4 | 4 << 8);   // SQ base not 32-aligned
    cfg(8, sq_of(8), cq_of(8) + 8, 4 | 4 << 8);    // CQ base not 16-aligned
    cfg(9, sq_of(9), cq_of(9), 4 | 4 << 8 | 1u << 20);  // reserved bit
    // -- CSR errors
    w.wr64(0, KOLO_CSR_CTX(0) + KOLO_CTX_SQ_BASE, 0x1234000);   // enabled: refused
    w.wr64(0, KOLO_CSR_CTX(0) + KOLO_CTX_CTRL, 1);              // enable while enabled
    w.wr32(0, KOLO_CSR_ID, 1);                                  // RO
    w.wr64(0, KOLO_CSR_STAT_TX_PKTS, 1);
    w.wr64(0, KOLO_CSR_CTX(0) + KOLO_CTX_STATUS, 1);
    w.wr32(0, 0x0018, 1);                                       // unmapped
    w.wr32(0, 0x3000, 1);
    w.wr64(0, KOLO_CSR_DOORBELL(0) + 0x40, 1);
    uint16_t two = 7;
    w.mmio_write(0, 0, KOLO_CSR_CTX(3) + KOLO_CTX_SIZES, &two, 2);   // 2-byte access
    uint64_t v;
    w.mmio_read(0, 0, KOLO_CSR_DOORBELL(0) + KOLO_DB_SQ_PI, 4, &v);   // write-only
    w.mmio_read(0, 0, KOLO_CSR_ID, 2, &v);                            // bad size: CA
    w.mmio_read(0, 2, 0, 8, &v);                                      // BAR2 read: CA
    uint8_t chunk[64] = {0};
    w.mmio_write(0, 2, KOLO_PIO_PAGE(0), chunk, 32);                  // partial PIO
    w.mmio_write(0, 2, KOLO_PIO_PAGE(12), chunk, 64);                 // disabled context
    w.mmio_write(0, 2, KOLO_PIO_PAGE(0) + 64, chunk, 64);             // not at the page start
    w.mmio_write(0, 2, KOLO_PIO_PAGE(1), chunk, 64);                  // stopped context
    w.wr32(0, KOLO_CSR_DOORBELL(0) + KOLO_DB_CQ_CI, 500);             // CQ_CI beyond
    w.settle(200000);
    // -- still serving: context 3 on node 0, context 0 of node 1, and a PIO op
    h[0].ctx(3, 4, 4);
    h[0].post(3, put(id1, DATA + 0x5000, SRC + 0x77, 333));
    h[0].post(3, get(id1, RO + 0x60, LDST + 0x5000, 100));
    h[0].post(3, nop());
    h[0].doorbell(3);
    h[1].post(0, put(node_id(t, 0), DATA + 0x6000, SRC + 0x99, 100));
    h[1].post(0, nop());
    h[1].doorbell(0);
    uint8_t pl[32];
    for (int i = 0; i < 32; i++) pl[i] = (uint8_t)i;
    h[0].pio(3, put(id1, DATA + 0x7000, 0, 20), pl);
    h[0].pio(3, put(id1, DATA + 0x7100, 0, 33), pl);                  // PIO PUT > 32: BAD_LEN
    w.settle(400000);
}

// one context cannot ring, read or write another's queues (the doorbell and PIO pages
// decode the context); a full send queue runs, a full completion queue holds the NI back
// until the host releases it. Checked on both worlds (and compared).
void prog_isolation(World &w, std::vector<Host> &h, const kolo_topo &t, tb::Checker &chk) {
    setup(w, h, t, 19);
    const uint16_t id1 = node_id(t, 1);
    h[0].ctx(0, 3, 3);
    h[0].ctx(1, 3, 3);
    auto target = [](int c, int i) { return DATA + 0x10000 * (uint64_t)c + 0x100 * (uint64_t)i; };
    auto delivered = [&](int c, int i) {
        return w.mem(1).rd64(target(c, i)) == w.mem(0).rd64(SRC + 8 * (uint64_t)i);
    };
    auto ci = [&](int c) {
        return (unsigned)(w.rd(0, KOLO_CSR_CTX(c) + KOLO_CTX_STATUS) >> 16) & 0xffff;
    };
    // context 1: a full queue of 8 PUTs, announced only later
    for (int i = 0; i < 8; i++)
        h[0].post(1, put(id1, target(1, i), SRC + 8 * (uint64_t)i, 8));
    // context 0: 2 PUTs, its doorbell rung with a producer index that would start context 1's
    for (int i = 0; i < 2; i++)
        h[0].post(0, put(id1, target(0, i), SRC + 8 * (uint64_t)i, 8));
    h[0].doorbell(0);
    // context 0's page: a PIO PUT, a read of STATUS, writes beyond its registers
    uint8_t pl[32] = {0};
    w.mem(0).read(SRC, pl, 8);
    h[0].pio(0, put(id1, target(0, 9), 0, 8), pl);
    w.settle(200000);
    uint64_t st0 = w.rd(0, KOLO_CSR_DOORBELL(0) + KOLO_DB_STATUS);
    // unmapped in context 0's page: counted, nothing else
    w.wr32(0, KOLO_CSR_DOORBELL(0) + 0xff8, 8);
    w.wr32(0, KOLO_CSR_DOORBELL(7) + KOLO_DB_SQ_PI, 8); // disabled context 7
    w.settle(200000);
    h[0].poll(0, true);
    h[0].poll(1, false);
    chk.check(h[0].q[0].got.size() == 3, "%s: context 0 has %zu completions, expected 3", w.name(),
              h[0].q[0].got.size());
    chk.check(h[0].q[1].got.empty() && ci(1) == 0,
              "%s: context 1 ran (%zu completions, consumer index %u)", w.name(),
              h[0].q[1].got.size(), ci(1));
    chk.check(((st0 >> 16) & 0xffff) == 2 && (st0 & 2) == 0,
              "%s: context 0's page reads STATUS 0x%llx", w.name(), (unsigned long long)st0);
    for (int i = 0; i < 8; i++)
        chk.check(w.mem(1).rd64(target(1, i)) == 0, "%s: context 1's PUT %d ran", w.name(), i);
    chk.check(delivered(0, 0) && delivered(0, 1) &&
                  w.mem(1).rd64(target(0, 9)) == w.mem(0).rd64(SRC),
              "%s: context 0's PUTs missing", w.name());
    chk.check((w.rd(0, KOLO_CSR_CTX(7) + KOLO_CTX_STATUS) & 0xffff0001) == 0,
              "%s: disabled context 7 moved", w.name());
    // context 1 rung: the full queue runs; its 8 completions are not released
    h[0].doorbell(1);
    w.settle(200000);
    h[0].poll(1, false);
    chk.check(h[0].q[1].got.size() == 8 && ci(1) == 8,
              "%s: full queue: %zu of 8 completions, consumer index %u", w.name(),
              h[0].q[1].got.size(), ci(1));
    for (int i = 0; i < 8; i++)
        chk.check(delivered(1, i), "%s: context 1's PUT %d missing", w.name(), i);
    // 8 more with the completion queue full: their entries wait for CQ_CI
    for (int i = 0; i < 8; i++)
        h[0].post(1, put(id1, target(1, 8 + i), SRC + 8 * (uint64_t)(8 + i), 8));
    h[0].doorbell(1);
    w.settle(200000);
    chk.check(h[0].poll(1, false) == 0,
              "%s: a completion entry overwrote one the host had not released", w.name());
    w.wr32(0, KOLO_CSR_DOORBELL(1) + KOLO_DB_CQ_CI, h[0].q[1].cq_ci);
    w.settle(200000);
    h[0].poll(1, true);
    chk.check(h[0].q[1].got.size() == 16, "%s: %zu of 16 completions after the release", w.name(),
              h[0].q[1].got.size());
    for (int i = 8; i < 16; i++)
        chk.check(delivered(1, i), "%s: context 1's PUT %d missing", w.name(), i);
    for (auto &e : h[0].q[1].got)
        chk.check(e.status == 0, "%s: context 1 completion status %u", w.name(), e.status);
}

// malformed packets from the network, injected into node 0
void prog_packets(World &w, std::vector<Host> &h, const kolo_topo &t) {
    setup(w, h, t, 9);
    h[0].ctx(0, 4, 4);
    uint16_t me = node_id(t, 0), other = node_id(t, 1);
    auto mk = [&](unsigned op, unsigned vnet, unsigned len, uint64_t ext, uint64_t addr, unsigned tag,
                  unsigned key, uint16_t src) {
        kolo_pkt p;
        std::memset(&p, 0, sizeof p);
        p.src = src;
        p.dst = me;
        p.vnet = (uint8_t)vnet;
        p.op = (uint8_t)op;
        p.len = (uint8_t)len;
        p.header[0] = (uint64_t)me | (uint64_t)src << 12 | (uint64_t)op << 24 | (uint64_t)vnet << 28 |
                      (uint64_t)len << 29 | ext;
        p.header[1] = (addr & 0xffffffffffffull) | (uint64_t)tag << 48 | (uint64_t)key << 56;
        for (unsigned i = 0; i < len; i++) p.payload[i] = 0x1111111111111111ull * (i + 1);
        return p;
    };
    const uint64_t L7 = 7ull << 59, A3 = 3ull << 59, A1 = 1ull << 59, F = 1ull << 62;
    std::vector<kolo_pkt> v;
    v.push_back(mk(KOLO_OP_MGMT, 0, 1, 0, DATA, 1, KEY0, other));       // MGMT: not the NI's
    v.push_back(mk(15, 0, 1, 0, DATA, 1, KEY0, other));                 // reserved op
    v.push_back(mk(KOLO_OP_PUT, 0, 0, 0, DATA, 1, KEY0, other));        // PUT without payload
    v.push_back(mk(KOLO_OP_GET_REQ, 0, 2, 0, DATA, 1, KEY0, other));    // GET_REQ of 2 flits
    kolo_pkt g = mk(KOLO_OP_GET_REQ, 0, 1, 0, DATA, 1, KEY0, other);
    g.payload[0] = 0;
    v.push_back(g);                                                     // GET of 0 bytes
    g.payload[0] = 300;
    v.push_back(g);                                                     // GET of 300 bytes
    v.push_back(mk(KOLO_OP_FETCH_ADD, 0, 1, A1 | F, DATA, 1, KEY0, other));   // operand size 2
    v.push_back(mk(KOLO_OP_FETCH_ADD, 0, 1, A3 | F, DATA + 4, 1, KEY0, other));  // misaligned
    v.push_back(mk(KOLO_OP_CSWAP, 0, 1, A3 | F, DATA, 1, KEY0, other));       // CSWAP without compare
    v.push_back(mk(KOLO_OP_PUT, 0, 1, L7, DATA, 1, KEY0, 0x003));             // source outside the torus
    v.push_back(mk(KOLO_OP_ACK, 1, 0, 0, DATA, 5, 0, other));                 // stray ACK (tag free)
    v.push_back(mk(KOLO_OP_NAK, 1, 0, 0, 6, 9, 0, other));                    // stray NAK
    v.push_back(mk(KOLO_OP_GET_RESP, 1, 2, L7, DATA, 200, 0, other));         // stray GET_RESP
    v.push_back(mk(KOLO_OP_PUT, 1, 1, L7, DATA, 1, KEY0, other));             // request on vnet 1
    v.push_back(mk(KOLO_OP_ACK, 0, 0, 0, DATA, 1, 0, other));                 // response on vnet 0
    kolo_pkt sh = mk(KOLO_OP_PUT, 0, 3, L7, DATA + 0x80, 1, KEY0, other);     // short: header says 3 flits
    sh.len = 1;
    v.push_back(sh);
    kolo_pkt wd = mk(KOLO_OP_PUT, 0, 1, L7, DATA + 0x88, 1, KEY0, other);     // for another node
    wd.header[0] = (wd.header[0] & ~0xfffull) | other;
    v.push_back(wd);
    // a good PUT among them: executed
    v.push_back(mk(KOLO_OP_PUT, 0, 2, 3ull << 59, DATA + 0x40, 77, KEY0, other));
    for (auto &p : v) {
        w.inject(0, p);
        w.settle(100000);
    }
    // the NI still serves its own queue
    h[0].post(0, put(other, DATA + 0x1000, SRC, 64));
    h[0].post(0, nop());
    h[0].doorbell(0);
    w.settle(200000);
}

// host memory accesses that fail
void prog_dma_err(World &w, std::vector<Host> &h, const kolo_topo &t) {
    setup(w, h, t, 11);
    uint16_t id1 = node_id(t, 1);
    h[0].ctx(0, 5, 5);
    h[0].post(0, put(id1, DATA + 0x100, BAD_LO + 0x10, 100));                  // payload read fails
    h[0].post(0, get(id1, BAD_LO + 0x200, LDST, 64, KOLO_DF_COMPLETE, KEY2));  // target read fails
    h[0].post(0, atomic(KOLO_D_FETCH_ADD, id1, BAD_LO + 0x300, 1, 0, KOLO_DF_COMPLETE, KEY2));
    h[0].post(0, atomic(KOLO_D_ADD, id1, BAD_LO + 0x308, 1, 0, KOLO_DF_COMPLETE, KEY2));
    h[0].post(0, put(id1, DATA + 0x200, SRC, 100));                            // fine
    h[0].post(0, nop());
    h[0].doorbell(0);
    w.settle(400000);
    // a send queue in a failing region: LOCAL_DMA, the context stops
    w.wr64(0, KOLO_CSR_CTX(1) + KOLO_CTX_SQ_BASE, BAD_LO + 0x1000);
    w.wr64(0, KOLO_CSR_CTX(1) + KOLO_CTX_CQ_BASE, cq_of(1));
    w.wr64(0, KOLO_CSR_CTX(1) + KOLO_CTX_SIZES, 3 | 3 << 8);
    w.wr64(0, KOLO_CSR_CTX(1) + KOLO_CTX_CTRL, 1);
    h[0].q[1] = Host::Q();
    h[0].q[1].on = true;
    h[0].q[1].sq_log2 = 3;
    h[0].q[1].cq_log2 = 3;
    w.wr32(0, KOLO_CSR_DOORBELL(1) + KOLO_DB_SQ_PI, 1);
    w.settle(200000);
    // context 0 still works
    h[0].post(0, put(id1, DATA + 0x300, SRC, 40));
    h[0].post(0, nop());
    h[0].doorbell(0);
    w.settle(200000);
}

// small queues: the host consumes completions as they come; MSI
void prog_cq_wrap(World &w, std::vector<Host> &h, const kolo_topo &t, long nops) {
    setup(w, h, t, 13);
    uint16_t id1 = node_id(t, 1);
    h[0].ctx(2, 2, 2, true, 3);  // 4-entry SQ and CQ
    long posted = 0, done = 0;
    uint64_t guard = 0;
    while (done < nops && guard++ < 100000) {
        // post while the SQ has room (an entry is free once its completion is in)
        while (posted < nops && posted - done < 4) {
            h[0].post(2, put(id1, DATA + 0x40 * (uint64_t)posted, SRC + (uint64_t)posted, 24));
            posted++;
        }
        h[0].doorbell(2);
        w.run_until([&] { return h[0].poll(2, false) > 0 || false; }, 20000);
        done = (long)h[0].q[2].got.size();
        w.wr32(0, KOLO_CSR_DOORBELL(2) + KOLO_DB_CQ_CI, h[0].q[2].cq_ci);
    }
    w.settle(100000);
}

// more operations in flight than tags: 16 contexts x 64 GETs and INLINE PUTs at once
void prog_tags(World &w, std::vector<Host> &h, const kolo_topo &t) {
    setup(w, h, t, 17);
    uint16_t id1 = node_id(t, 1);
    for (int c = 0; c < 16; c++) h[0].ctx(c, 7, 8);
    for (int k = 0; k < 64; k++)
        for (int c = 0; c < 16; c++) {
            uint64_t i = (uint64_t)(c * 64 + k);
            if (k & 1) h[0].post(c, get(id1, RO + 8 * i, LDST + 16 * i, 8 + (uint32_t)(i % 9)));
            else {
                Desc d = put(id1, DATA + 16 * i, 0, 1 + (uint32_t)(i % 16), KOLO_DF_COMPLETE | KOLO_DF_INLINE);
                d.w2 = 0x1111111111111111ull * (i & 0xf);
                d.w3 = ~i;
                h[0].post(c, d);
            }
        }
    for (int c = 0; c < 16; c++) {
        h[0].post(c, nop());
        h[0].doorbell(c);
    }
    w.settle(5000000);
}

int run_compare(const Opts &o, const char *name,
                const std::function<void(World &, std::vector<Host> &, const kolo_topo &)> &prog,
                const std::function<void(tb::Checker &)> &extra = nullptr) {
    tb::Checker chk(name);
    Pair p(o.seed, o.rtl);
    uint64_t t0 = p.rtl->now();
    prog(*p.rtl, p.hr, p.topo);
    uint64_t cyc = p.rtl->now() - t0;
    prog(*p.mdl, p.hm, p.topo);
    Compare cmp(chk);
    cmp.run(*p.rtl, *p.mdl, p.hr, p.hm);
    unsigned long entries = 0;
    for (auto &h : p.hr)
        for (auto &q : h.q) entries += (unsigned long)q.got.size();
    for (int n = 0; n < p.rtl->nodes(); n++)
        chk.check(p.rtl->router_errors(n) == 0, "router %d counted bad packets", n);
    if (extra) extra(chk);
    uint64_t tx = 0;
    for (int n = 0; n < p.rtl->nodes(); n++) tx += p.rtl->stat(n, 0);
    char s[300];
    std::snprintf(s, sizeof s,
                  "%lu completion entries, %llu RTL cycles, %llu TX packets, fewest free tags %u; memory and registers match the model",
                  entries, (unsigned long long)cyc,
                  (unsigned long long)tx, p.rtl->min_tags());
    return chk.finish(o.seed, s);
}

// DMA reads in flight in the benchmarks: kolo_pcie_ep's defaults (REQS = TAGS = 32) unless
// --reads= says otherwise (the tests' RtlOpts default is 16)
constexpr int EP_READS = 32;
int bench_reads(const Opts &o) { return o.reads_set ? o.rtl.max_reads : EP_READS; }

// message rate of 8-byte PUTs, node 0 -> node 1, once for each PCIe link of pcie_link.h:
// "none" (no bandwidth limit: the put8_rate_* benchmarks) and each modelled link (their name
// appended, e.g. put8_rate_pio_gen3x16), with the wire bytes per PUT counted on both nodes' links
// (node 0 sends, node 1 takes the data) and the rate the busiest direction allows
// (docs/ni.md "PCIe link model")
int run_rate(const Opts &o) {
    kolo_topo t = build_topo();
    const long N = o.ops;
    const char *names[3] = {"put8_rate_dma", "put8_rate_inline", "put8_rate_pio"};
    tb::Checker chk("rate");
    size_t nlinks;
    const pcie_link::Spec *links = pcie_link::specs(&nlinks);
    std::vector<std::string> bench;
    for (size_t li = 0; li < nlinks; li++) {
        if (!o.rtl.pcie.empty() && o.rtl.pcie != links[li].name) continue; // --pcie= picks one
        const pcie_link::Spec &ls = links[li];
        for (int mode = 0; mode < 3; mode++) {
            RtlOpts ro = o.rtl;
            ro.rd_ready = 100;
            ro.wr_ready = 100;
            ro.gap = 0;
            ro.max_reads = bench_reads(o);
            ro.pcie = ls.name;
            RtlWorld w(t, o.seed, ro);
            std::vector<Host> h;
            for (int n = 0; n < w.nodes(); n++) h.emplace_back(w, n);
            setup(w, h, t, 1);
            h[0].ctx(0, 13, 13);
            uint16_t id1 = node_id(t, 1);
            w.settle(100000);
            uint64_t t0 = w.now();
            uint64_t b0[2][2], n0[2][2];
            for (int n = 0; n < 2; n++)
                for (int d = 0; d < 2; d++) {
                    b0[n][d] = w.pcie(n).bytes((pcie_link::Dir)d);
                    n0[n][d] = w.pcie(n).tlps((pcie_link::Dir)d);
                }
            if (mode < 2) {
                for (long i = 0; i < N; i++) {
                    Desc d = put(id1, DATA + 8 * (uint64_t)i, SRC + 8 * (uint64_t)i, 8, mode == 1 ? KOLO_DF_INLINE : 0);
                    d.w2 = mode == 1 ? 0x1000000 + (uint64_t)i : d.w2;
                    h[0].post(0, d);
                }
                h[0].post(0, nop());
                h[0].doorbell(0);
            } else {
                uint8_t pl[32];
                for (long i = 0; i < N; i++) {
                    std::memcpy(pl, &i, 8);
                    h[0].pio(0, put(id1, DATA + 8 * (uint64_t)i, 0, 8, 0), pl);
                }
                h[0].post(0, nop());
                h[0].doorbell(0);
            }
            bool ok = w.run_until([&] { return h[0].poll(0, false) > 0; }, 100000000);
            uint64_t cyc = w.now() - t0;
            chk.check(ok && h[0].q[0].got.size() == 1 && h[0].q[0].got[0].status == 0, "%s %s: no completion",
                      names[mode], ls.name);
            // every PUT's 8 bytes arrived (back-to-back PIO writes go through the PIO FIFO and the
            // send engine's early scheduling, docs/ni.md Benchmarks; the packet queue's bypass)
            long bad = 0;
            for (long i = 0; i < N; i++) {
                uint64_t want = mode == 0 ? w.mem(0).rd64(SRC + 8 * (uint64_t)i) :
                                mode == 1 ? 0x1000000 + (uint64_t)i : (uint64_t)i;
                if (w.mem(1).rd64(DATA + 8 * (uint64_t)i) != want) bad++;
            }
            chk.check(bad == 0, "%s %s: %ld of %ld PUTs did not deliver their data", names[mode], ls.name, bad, N);
            double rate = (double)N / (double)cyc;
            std::string name = std::string(names[mode]) + (li ? std::string("_") + ls.name : "");
            std::printf("%s: %ld PUTs in %llu cycles: %.3f per cycle = %.1f M/s at 250 MHz (DMA read latency %d..%d "
                        "cycles, %d reads outstanding; PCIe link: %s)\n",
                        name.c_str(), N, (unsigned long long)cyc, rate, rate * 250.0, o.rtl.lat_min, o.rtl.lat_max,
                        bench_reads(o), li ? ls.name : "not limited");
            // wire bytes per PUT on each node's link, each direction (TLPs counted, DLLPs not)
            // counted as pcie_link.h says: each PUT's 8 bytes one MWr at node 1 (8 + 24 bytes); a
            // PIO PUT one 64-byte MWr at node 0 (64 + 24), and besides the PUTs only the trailing
            // NOP (its doorbell; its descriptor's read and its completion entry)
            uint64_t wr1 = w.pcie(1).tlps(pcie_link::UP) - n0[1][pcie_link::UP];
            uint64_t by1 = w.pcie(1).bytes(pcie_link::UP) - b0[1][pcie_link::UP];
            chk.check(wr1 == (uint64_t)N && by1 == 32ull * (uint64_t)N,
                      "%s: node 1 sent %llu TLPs, %llu wire bytes to its host for %ld PUTs (want %ld, %ld)",
                      name.c_str(), (unsigned long long)wr1, (unsigned long long)by1, N, N, 32 * N);
            if (mode == 2) {
                uint64_t by0 = w.pcie(0).bytes(pcie_link::DOWN) - b0[0][pcie_link::DOWN];
                chk.check(by0 >= 88ull * (uint64_t)N && by0 <= 88ull * (uint64_t)N + 256,
                          "%s: node 0's host sent %llu wire bytes for %ld PIO PUTs (want 88 each + the NOP's)",
                          name.c_str(), (unsigned long long)by0, N);
            }
            double worst = 0.0;
            for (int n = 0; n < 2; n++)
                for (int d = 0; d < 2; d++) {
                    double per = (double)(w.pcie(n).bytes((pcie_link::Dir)d) - b0[n][d]) / (double)N;
                    double tl = (double)(w.pcie(n).tlps((pcie_link::Dir)d) - n0[n][d]) / (double)N;
                    std::printf("  node %d %s: %.1f wire bytes, %.2f TLPs per PUT\n", n,
                                d == pcie_link::DOWN ? "down (host to NI)" : "up (NI to host)", per, tl);
                    if (per > worst) worst = per;
                }
            std::string line = "BENCH " + name + " ";
            char v[64];
            std::snprintf(v, sizeof v, "%.1f Mmsg/s", rate * 250.0);
            bench.push_back(line + v);
            if (li) {
                double bound = ls.bytes_per_cycle / worst * 250.0;
                // the link holds the rate to what its wire allows (a start budget of at most
                // one cycle's bytes: N PUTs can gain at most one PUT over the bound)
                chk.check(rate * 250.0 <= bound * (1.0 + 1.0 / (double)N) + 1e-9,
                          "%s: %.2f M/s above the %.2f M/s that %s allows", name.c_str(), rate * 250.0, bound,
                          ls.name);
                std::printf("  %s allows %.1f M/s (%.1f bytes per cycle on the busiest direction, %.1f per PUT)\n",
                            ls.name, bound, ls.bytes_per_cycle, worst);
                std::snprintf(v, sizeof v, "%.1f Mmsg/s", bound);
                bench.push_back("BENCH " + name + "_bound " + v);
            }
        }
    }
    for (auto &b : bench) std::printf("%s\n", b.c_str());
    return chk.finish(o.seed, "rates measured");
}

// ---- benchmarks on the RTL NI with the PCIe latency model ---------------------------------
// The model (docs/ni.md, Benchmarks): PCIe Gen3 x8 between host and NI, 250 MHz core clock.
// The harness plays the endpoint's user side; the latencies of the link, the root complex
// and the endpoint core are added here, in one place.
constexpr double CLK_NS = 4.0; // 250 MHz
// a host store to a BAR until the endpoint core has the TLP: 200 ns
constexpr int PCIE_MMIO_WR_CYC = 50;
// a DMA read request until its data is back at the endpoint core: 500 ns
constexpr int PCIE_DMA_RD_CYC = 125;
// a DMA write leaving the endpoint core until the host sees it: 200 ns
constexpr int PCIE_DMA_WR_CYC = 50;
// kolo_pcie_ep's own pipeline, counted from its registers (docs/ni.md 6): a 64-byte write's two
// beats through the input FIFO into the MMIO write register; a DMA write's beat through the
// realignment window and output register of kolo_pcie_dma_wr and the register of kolo_pcie_ep_tx
constexpr int EP_RX_CYC = 3;
constexpr int EP_TX_CYC = 3;

RtlOpts bench_rtl_opts(const Opts &o) {
    RtlOpts ro = o.rtl;
    ro.lat_min = ro.lat_max = PCIE_DMA_RD_CYC; // fixed: the runs are deterministic
    ro.max_reads = bench_reads(o);
    ro.rd_ready = 100;
    ro.wr_ready = 100;
    ro.gap = 0;
    return ro;
}

// node 0 to its neighbour node 1 (+X)
struct BenchWorld {
    kolo_topo t = build_topo();
    RtlWorld w;
    std::vector<Host> h;
    uint16_t id1;
    BenchWorld(const Opts &o) : w(t, o.seed, bench_rtl_opts(o)) {
        for (int n = 0; n < w.nodes(); n++)
            h.emplace_back(w, n);
        setup(w, h, t, 1);
        h[0].ctx(0, 13, 13);
        id1 = node_id(t, 1);
        w.settle(100000);
    }
    // run until node 0's context 0 has `entries` completion entries; cycles taken from t0
    uint64_t wait_cq(tb::Checker &chk, const char *what, size_t entries, uint64_t t0) {
        bool ok = h[0].run_to_completions(0, entries, 50000000);
        chk.check(ok, "%s: no completion", what);
        for (auto &e : h[0].q[0].got)
            chk.check(e.status == 0, "%s: completion status %u", what, e.status);
        return w.now() - t0;
    }
};

// host-to-host latency of an 8-byte PUT, node 0 -> node 1: from the host's MMIO store at
// node 0 (PIO write or doorbell) until node 1's host memory holds the data
int run_bench_latency(const Opts &o) {
    tb::Checker chk("bench-latency");
    const char *names[3] = {"neighbor_latency_put8_ns", "neighbor_latency_put8_dma_ns",
                            "neighbor_latency_put8_inline_ns"};
    const int samples = 16;
    double ns[3];
    // the breakdown: the first cycle of each stage after the previous one, from the NIs'
    // state machines (kolo_ni dbg_state: send engine es = E_LOAD 1 / E_PKT 3, target
    // ts = T_H1 1) and the router local ports (tb_ni.v mon_port)
    const int NST = 8;
    const char *stage[NST] = {"MMIO write taken (node 0)", "send engine loads the item", "packet queued",
                              "head flit into router 0", "head flit out of router 1 (node 1)",
                              "tail flit out of router 1", "target takes the head", "DMA write taken (node 1)"};
    for (int mode = 0; mode < 3; mode++) {
        BenchWorld b(o);
        uint64_t t_mmio = 0, t_dw = 0, sum = 0, lo = ~0ull, hi = 0;
        uint64_t target = 0;
        int64_t st[NST];
        double st_sum[NST] = {0};
        b.w.on_mmio_write = [&](int n, int, uint64_t) {
            if (n == 0) {
                t_mmio = b.w.now();
                st[0] = (int64_t)t_mmio;
            }
        };
        b.w.on_dma_write = [&](int n, uint64_t a, unsigned) {
            if (n == 1 && a == target)
                t_dw = b.w.now();
        };
        b.w.on_cycle = [&] {
            int k = 1;
            while (k < NST - 1 && st[k] >= 0) k++;
            if (st[0] < 0 || k >= NST - 1 || st[k - 1] > (int64_t)b.w.now()) return;
            unsigned mon0 = b.w.mon_port(0), mon1 = b.w.mon_port(1);
            bool hit = k == 1 ? b.w.dbg(0, 32, 3) == 1 : k == 2 ? b.w.dbg(0, 32, 3) == 3 :
                       k == 3 ? (mon0 & 1) != 0 : k == 4 ? (mon1 & 4) != 0 : k == 5 ? (mon1 & 8) != 0 :
                       b.w.dbg(1, 0, 3) == 1;
            if (hit) st[k] = (int64_t)b.w.now();
        };
        for (int k = 0; k < samples; k++) {
            target = DATA + 0x1000 * (uint64_t)k;
            t_dw = 0;
            for (int j = 0; j < NST; j++) st[j] = -1;
            Desc d = put(b.id1, target, SRC + 8 * (uint64_t)k, 8, 0);
            if (mode == 0) {
                uint8_t pl[32];
                b.w.mem(0).read(SRC + 8 * (uint64_t)k, pl, 32);
                b.h[0].pio(0, d, pl);
            } else {
                if (mode == 2) {
                    d.flags |= KOLO_DF_INLINE;
                    d.w2 = b.w.mem(0).rd64(SRC + 8 * (uint64_t)k);
                }
                b.h[0].post(0, d);
                b.h[0].doorbell(0);
            }
            bool ok = b.w.run_until([&] { return t_dw != 0; }, 100000);
            chk.check(ok && b.w.mem(1).rd64(target) == b.w.mem(0).rd64(SRC + 8 * (uint64_t)k),
                      "%s: sample %d: data not delivered", names[mode], k);
            uint64_t c = t_dw - t_mmio;
            st[NST - 1] = (int64_t)t_dw;
            for (int j = 1; j < NST; j++) {
                chk.check(st[j] >= st[j - 1], "%s: sample %d: stage '%s' not seen in order", names[mode], k,
                          stage[j]);
                st_sum[j] += (double)(st[j] - st[j - 1]);
            }
            sum += c;
            lo = std::min(lo, c);
            hi = std::max(hi, c);
            b.w.settle(100000);
        }
        double rtl = (double)sum / samples;
        double total = PCIE_MMIO_WR_CYC + EP_RX_CYC + rtl + EP_TX_CYC + PCIE_DMA_WR_CYC;
        ns[mode] = total * CLK_NS;
        std::printf("%s: RTL NI+torus %.1f cycles (min %llu, max %llu, %d samples) + PCIe model %d "
                    "+ %d + %d + %d "
                    "cycles = %.1f cycles = %.0f ns\n",
                    names[mode], rtl, (unsigned long long)lo, (unsigned long long)hi, samples,
                    PCIE_MMIO_WR_CYC, EP_RX_CYC, EP_TX_CYC, PCIE_DMA_WR_CYC, total, ns[mode]);
        std::printf("%s: RTL breakdown, cycles from the previous stage (mean of %d samples):", names[mode], samples);
        for (int j = 1; j < NST; j++) std::printf("%s %s %.1f", j == 1 ? "" : ",", stage[j], st_sum[j] / samples);
        std::printf("\n");
    }
    for (int mode = 0; mode < 3; mode++)
        std::printf("BENCH %s %.0f ns\n", names[mode], ns[mode]);
    return chk.finish(o.seed, "latencies measured");
}

// 64 KiB PUTs and GETs back to back (o.ops transfers), node 0 <-> node 1, with end-to-end
// reliability off (the benchmark) and on (docs/ni.md 10: the same transfers, lossless network)
int run_bench_bandwidth(const Opts &o) {
    tb::Checker chk("bench-bandwidth");
    const uint32_t LEN = 64 * 1024;
    const long count = o.ops;
    double gbs[4];
    const char *names[4] = {"put_bandwidth_64KiB", "get_bandwidth_64KiB", "put_bandwidth_64KiB_e2e",
                            "get_bandwidth_64KiB_e2e"};
    const bool e2e_was = g_e2e.on;
    for (int mode = 0; mode < 4; mode++) {
        const bool is_put = (mode & 1) == 0;
        g_e2e.on = mode >= 2;  // (setup() turns it on in every NI)
        BenchWorld b(o);
        for (long k = 0; k < count; k++) {
            if (is_put)
                b.h[0].post(0, put(b.id1, DATA + LEN * (uint64_t)k, SRC, LEN, 0));
            else
                b.h[0].post(0, get(b.id1, RO, LDST + LEN * (uint64_t)k, LEN, 0));
        }
        b.h[0].post(0, nop());
        uint64_t t0 = b.w.now();
        b.h[0].doorbell(0);
        uint64_t cyc = b.wait_cq(chk, names[mode], 1, t0);
        // the bytes arrived (first and last 64 bytes of every transfer)
        for (long k = 0; k < count; k++)
            for (uint64_t off : {(uint64_t)0, (uint64_t)LEN - 64}) {
                Mem &dm = b.w.mem(is_put ? 1 : 0);
                uint64_t da = (is_put ? DATA : LDST) + LEN * (uint64_t)k + off;
                chk.check(dm.rd64(da) == b.w.mem(is_put ? 0 : 1).rd64((is_put ? SRC : RO) + off),
                          "%s: transfer %ld not delivered", names[mode], k);
            }
        if (g_e2e.on)
            chk.check(b.w.rd(0, KOLO_CSR_E2E_RETX) == 0, "%s: retransmissions on a lossless network",
                      names[mode]);
        double bytes = (double)LEN * (double)count;
        gbs[mode] = bytes / ((double)cyc * CLK_NS);
        std::printf(
            "%s: %ld x 64 KiB in %llu cycles: %.2f bytes/cycle = %.3f GB/s at 250 MHz (doorbell to "
            "completion entry; DMA read latency %d cycles, %d reads outstanding; end-to-end %s)\n",
            names[mode], count, (unsigned long long)cyc, bytes / (double)cyc, gbs[mode], PCIE_DMA_RD_CYC,
            bench_reads(o), g_e2e.on ? "on" : "off");
    }
    g_e2e.on = e2e_was;
    std::printf("end-to-end on / off: PUT %.1f%%, GET %.1f%%\n", 100.0 * gbs[2] / gbs[0],
                100.0 * gbs[3] / gbs[1]);
    for (int mode = 0; mode < 4; mode++)
        std::printf("BENCH %s %.3f GB/s\n", names[mode], gbs[mode]);
    return chk.finish(o.seed, "bandwidths measured");
}

// atomics node 0 -> node 1, o.ops of them posted at once: FETCH_ADD on distinct words
// (the benchmark), FETCH_ADD on one word and ADD on distinct words (for comparison). Each
// run is repeated on the C model (sw/model/kolo_ni_model.c): host memory, completion
// entries and registers must match.
int run_bench_atomic(const Opts &o) {
    tb::Checker chk("bench-atomic");
    const long count = std::min(o.ops, 8000L);
    const char *names[3] = {"atomic_rate", "atomic_rate_one_word", "atomic_rate_add"};
    double rate[3];
    for (int mode = 0; mode < 3; mode++) {
        BenchWorld b(o);
        auto prog = [&](std::vector<Host> &h) {
            for (long k = 0; k < count; k++) {
                uint64_t a = DATA + (mode == 1 ? 0 : 8 * (uint64_t)k);
                h[0].post(0, atomic(mode == 2 ? KOLO_D_ADD : KOLO_D_FETCH_ADD, b.id1, a, (uint64_t)k + 1,
                                    0, 0));
            }
            h[0].post(0, nop());
        };
        prog(b.h);
        uint64_t t0 = b.w.now();
        b.h[0].doorbell(0);
        uint64_t cyc = b.wait_cq(chk, names[mode], 1, t0);
        uint64_t expect = mode == 1 ? (uint64_t)count * (uint64_t)(count + 1) / 2 : (uint64_t)count;
        uint64_t got = b.w.mem(1).rd64(DATA + (mode == 1 ? 0 : 8 * (uint64_t)(count - 1)));
        chk.check(got == expect, "%s: target word 0x%llx, expected 0x%llx", names[mode],
                  (unsigned long long)got, (unsigned long long)expect);
        // the same program on the C model
        ModelWorld m(b.t);
        std::vector<Host> hm;
        for (int n = 0; n < m.nodes(); n++) hm.emplace_back(m, n);
        setup(m, hm, b.t, 1);
        hm[0].ctx(0, 13, 13);
        m.settle(100000);
        prog(hm);
        hm[0].doorbell(0);
        chk.check(m.run_until([&] { return hm[0].poll(0, true) > 0; }, 50000000), "%s: model: no completion",
                  names[mode]);
        b.w.settle(100000);
        Compare cmp(chk);
        cmp.run(b.w, m, b.h, hm);
        rate[mode] = (double)count / (double)cyc * 250.0;
        std::printf("%s: %ld %s in %llu cycles = %.2f Mops/s at 250 MHz (doorbell to completion "
                    "entry; DMA read latency %d cycles, %d reads outstanding); memory and registers match the model\n",
                    names[mode], count,
                    mode == 2   ? "ADDs on distinct words"
                    : mode == 1 ? "FETCH_ADDs on one word"
                                : "FETCH_ADDs on distinct words",
                    (unsigned long long)cyc, rate[mode], PCIE_DMA_RD_CYC, bench_reads(o));
    }
    for (int mode = 0; mode < 3; mode++)
        std::printf("BENCH %s %.2f Mops/s\n", names[mode], rate[mode]);
    return chk.finish(o.seed, "atomic rates measured");
}

// ---- end-to-end reliability ------------------------------------------------------------------
struct E2eOpts {
    unsigned drop_pm = 50, dup_pm = 0, delay_pm = 0, delay_max = 0;
};
E2eOpts g_e2e_opts;

// the mix on a lossy network, e2e on in every NI
int run_e2e(const Opts &o) {
    tb::Checker chk("unit-ni-e2e");
    const E2eOpts &eo = g_e2e_opts;
    kolo_topo t = build_topo();
    MixGen g(o.seed, t);
    g.unique = true;
    auto ops = g.make(o.ops, o.ctxs);
    g_e2e.on = true;
    g_cmp_e2e = eo.dup_pm == 0 && eo.delay_pm == 0;
    g_cmp_traffic = g_cmp_e2e;
    Pair p(o.seed, o.rtl);
    for (World *w : {(World *)p.rtl.get(), (World *)p.mdl.get()}) {
        w->fault.on = true;
        w->fault.seed = o.seed * 0x9e3779b97f4a7c15ull + 1;
        w->fault.drop_pm = eo.drop_pm;
        w->fault.dup_pm = eo.dup_pm;
    }
    p.rtl->fault.delay_pm = eo.delay_pm;
    p.rtl->fault.delay_max = eo.delay_max;
    std::printf("%zu operations on %d nodes, %d contexts each; e2e timeout %u cycles, %u retries; "
                "%u/1000 packets dropped, %u/1000 duplicated, %u/1000 delayed by up to %u cycles\n",
                ops.size(), g.nn, o.ctxs, g_e2e.timeout, g_e2e.retries, eo.drop_pm, eo.dup_pm,
                eo.delay_pm, eo.delay_max);
    bool done[3] = {false, false, false};
    auto prog = [&](World &w, std::vector<Host> &h, int k) {
        prog_mix(w, h, t, ops, o.ctxs, o.seed, o.burst);
        done[k] = e2e_wait(w, h, 20000000);
    };
    uint64_t t0 = p.rtl->now();
    prog(*p.rtl, p.hr, 0);
    uint64_t cyc = p.rtl->now() - t0;
    prog(*p.mdl, p.hm, 1);
    chk.check(done[0], "rtl: operations outstanding or tags missing at the end (hung)");
    chk.check(done[1], "model: operations outstanding at the end (hung)");
    Compare(chk).run(*p.rtl, *p.mdl, p.hr, p.hm);
    // exactly once: the lossless run ends the same (memory, completions with their results)
    ModelWorld clean(t);
    std::vector<Host> hc;
    for (int n = 0; n < clean.nodes(); n++) hc.emplace_back(clean, n);
    prog(clean, hc, 2);
    chk.check(done[2], "lossless model: operations outstanding at the end");
    Compare(chk).run(*p.mdl, clean, p.hm, hc, false);
    unsigned long entries = 0, bad = 0;
    for (auto &h : p.hr)
        for (auto &q : h.q)
            for (auto &e : q.got) {
                entries++;
                bad += e.status == KOLO_ST_TIMEOUT || e.status == KOLO_ST_BAD_DST;
            }
    chk.check(bad == 0, "%lu operations gave up (TIMEOUT/BAD_DST)", bad);
    uint64_t st[5] = {0, 0, 0, 0, 0};
    for (int n = 0; n < p.rtl->nodes(); n++)
        for (int k = 0; k < 5; k++) st[k] += p.rtl->rd(n, KOLO_CSR_E2E_RETX + 8 * (uint64_t)k);
    chk.check(eo.drop_pm == 0 || st[0] > 0, "no retransmission with losses");
    char s[400];
    std::snprintf(s, sizeof s,
                  "%lu completion entries, %llu RTL cycles; network dropped %llu, duplicated %llu, delayed %llu "
                  "packets; RTL retransmits %llu, dup requests %llu, dup responses %llu, timeouts %llu; "
                  "matches the model and the lossless run",
                  entries, (unsigned long long)cyc, (unsigned long long)p.rtl->fault.drops,
                  (unsigned long long)p.rtl->fault.dups, (unsigned long long)p.rtl->fault.delays,
                  (unsigned long long)st[0], (unsigned long long)st[1], (unsigned long long)st[2],
                  (unsigned long long)st[3]);
    return chk.finish(o.seed, s);
}

// directed cases (docs/ni.md section 10), node 0 -> node 1, checked on both worlds
void prog_e2e_directed(World &w, std::vector<Host> &h, const kolo_topo &t, tb::Checker &chk) {
    setup(w, h, t, 23);
    const uint16_t id1 = node_id(t, 1);
    h[0].ctx(0, 6, 6);
    // packets to drop: (op, address) -> copies still to drop (-1: every one)
    std::map<std::pair<unsigned, uint64_t>, int> drop;
    w.fault.on = true;
    w.fault.filter = [&drop](uint64_t h0, uint64_t h1, const uint64_t *, unsigned) -> int {
        auto it = drop.find({(unsigned)(h0 >> 24) & 15u, h1 & 0xffffffffffffull});
        if (it == drop.end() || it->second == 0) return NetFault::PASS;
        if (it->second > 0) it->second--;
        return NetFault::DROP;
    };
    auto reg = [&](int n, uint64_t off) { return w.rd(n, off); };
    size_t want = 0;
    auto wait = [&](size_t more) {
        want += more;
        bool ok = h[0].run_to_completions(0, want, 400000);
        chk.check(ok, "%s: %zu of %zu completions", w.name(), h[0].q[0].got.size(), want);
    };
    auto last = [&](int back) { return h[0].q[0].got[h[0].q[0].got.size() - 1 - (size_t)back]; };
    const char *wn = w.name();
    // 1. dropped requests: a PUT and a FETCH_ADD are sent again and executed once
    w.mem(1).wr64(DATA + 0x100, 1000);
    drop[{KOLO_OP_PUT, DATA + 0x200}] = 1;
    drop[{KOLO_OP_FETCH_ADD, DATA + 0x100}] = 1;
    h[0].post(0, put(id1, DATA + 0x200, SRC, 8));
    h[0].post(0, atomic(KOLO_D_FETCH_ADD, id1, DATA + 0x100, 7, 0, 0));
    h[0].post(0, nop());
    h[0].doorbell(0);
    wait(2);
    chk.check(w.mem(1).rd64(DATA + 0x100) == 1007 && w.mem(1).rd64(DATA + 0x200) == w.mem(0).rd64(SRC),
              "%s: dropped requests: target word %llu (expected 1007) or PUT data wrong", wn,
              (unsigned long long)w.mem(1).rd64(DATA + 0x100));
    chk.check(reg(0, KOLO_CSR_E2E_RETX) == 2, "%s: dropped requests: %llu retransmits, expected 2", wn,
              (unsigned long long)reg(0, KOLO_CSR_E2E_RETX));
    // 2. dropped responses: the repeats are answered from the target's record, not executed again
    w.mem(1).wr64(DATA + 0x300, 5);
    drop[{KOLO_OP_GET_RESP, DATA + 0x300}] = 1;
    drop[{KOLO_OP_ACK, DATA + 0x308}] = 1;
    drop[{KOLO_OP_ACK, DATA + 0x400}] = 1;
    h[0].post(0, atomic(KOLO_D_FETCH_ADD, id1, DATA + 0x300, 10));
    h[0].post(0, atomic(KOLO_D_ADD, id1, DATA + 0x308, 3, 0, 0));
    h[0].post(0, put(id1, DATA + 0x400, SRC + 8, 16, 0));
    h[0].post(0, nop());
    h[0].doorbell(0);
    wait(2);
    chk.check(last(1).status == 0 && last(1).result == 5, "%s: dropped response: FETCH_ADD status %u result %llu (expected 5)",
              wn, last(1).status, (unsigned long long)last(1).result);
    chk.check(w.mem(1).rd64(DATA + 0x300) == 15 && w.mem(1).rd64(DATA + 0x308) == 3,
              "%s: dropped responses: atomics executed again (words %llu %llu, expected 15 3)", wn,
              (unsigned long long)w.mem(1).rd64(DATA + 0x300), (unsigned long long)w.mem(1).rd64(DATA + 0x308));
    chk.check(reg(1, KOLO_CSR_E2E_DUP_REQ) == 3 && reg(0, KOLO_CSR_E2E_RETX) == 5,
              "%s: dropped responses: target dup requests %llu (expected 3), retransmits %llu (5)", wn,
              (unsigned long long)reg(1, KOLO_CSR_E2E_DUP_REQ), (unsigned long long)reg(0, KOLO_CSR_E2E_RETX));
    // 3. the retry budget: every copy lost, KOLO_ST_TIMEOUT
    drop[{KOLO_OP_PUT, DATA + 0x500}] = -1;
    h[0].post(0, put(id1, DATA + 0x500, SRC, 8, 0));
    h[0].post(0, nop());
    h[0].doorbell(0);
    wait(2);
    chk.check(last(1).status == KOLO_ST_TIMEOUT && reg(0, KOLO_CSR_E2E_TIMEOUTS) == 1 &&
                  reg(0, KOLO_CSR_E2E_RETX) == 5 + g_e2e.retries,
              "%s: retry budget: status %u (expected 12), timeouts %llu, retransmits %llu", wn, last(1).status,
              (unsigned long long)reg(0, KOLO_CSR_E2E_TIMEOUTS), (unsigned long long)reg(0, KOLO_CSR_E2E_RETX));
    // 4. the destination's route entry becomes invalid while the request is out: KOLO_ST_BAD_DST
    drop[{KOLO_OP_PUT, DATA + 0x600}] = -1;
    h[0].post(0, put(id1, DATA + 0x600, SRC, 8, 0));
    h[0].post(0, nop());
    h[0].doorbell(0);
    w.run(1500);
    w.wr32(0, KOLO_CSR_ROUTE(1), 0x1234);
    wait(2);
    chk.check(last(1).status == KOLO_ST_BAD_DST && reg(0, KOLO_CSR_E2E_UNREACH) == 1,
              "%s: invalid route: status %u (expected 3), unreachable %llu", wn, last(1).status,
              (unsigned long long)reg(0, KOLO_CSR_E2E_UNREACH));
    h[0].routes(t);
    // 5. a table switch (E2E_CTRL bit 16, then an entry change) sends an unanswered request
    // again after timeout / 8
    const uint32_t T = 40000;
    w.wr32(0, KOLO_CSR_E2E_TIMEOUT, T);
    w.run(T / 4);  // past the short-timer window of the switch made by the route restore above
    for (int k = 0; k < 2; k++) {
        uint64_t a = DATA + 0x700 + 0x100 * (uint64_t)k;
        drop[{KOLO_OP_PUT, a}] = 1;
        h[0].post(0, put(id1, a, SRC, 8));
        h[0].post(0, nop());
        h[0].doorbell(0);
        w.run(2000);
        uint64_t ts = w.now();
        if (k == 0) {
            w.wr32(0, KOLO_CSR_E2E_CTRL, KOLO_E2E_CTRL_EN | g_e2e.retries << 8 | KOLO_E2E_CTRL_SWITCH);
        } else {
            std::vector<kolo_route_entry> tab(kolo_topo_nodes(&t));
            kolo_table_default(&t, node_id(t, 0), tab.data());
            w.wr32(0, KOLO_CSR_ROUTE(1), tab[1] | 1u << 30);  // a changed entry, the same route
        }
        wait(2);
        uint64_t dt = w.now() - ts;
        chk.check(last(1).status == 0 && dt > T / 8 - 1000 && dt < T / 8 + 3000,
                  "%s: table switch %d: completed %llu cycles after it (expected about %u), status %u", wn, k,
                  (unsigned long long)dt, T / 8, last(1).status);
    }
    h[0].routes(t);
    w.wr32(0, KOLO_CSR_E2E_TIMEOUT, g_e2e.timeout);
    chk.check(e2e_wait(w, h, 2000000), "%s: operations or tags outstanding at the end", wn);
    w.fault.filter = nullptr;
}

int run_e2e_directed(const Opts &o) {
    g_e2e.on = true;
    g_e2e.timeout = 3000;
    g_e2e.retries = 3;
    g_cmp_e2e = true;
    tb::Checker dir("unit-ni-e2e-directed");
    return run_compare(
        o, "unit-ni-e2e-directed",
        [&](World &w, std::vector<Host> &h, const kolo_topo &t) { prog_e2e_directed(w, h, t, dir); },
        [&](tb::Checker &chk) { chk.check(dir.failures() == 0, "%lu directed checks failed", dir.failures()); });
}


// a reloaded initiator (docs/ni.md 10.1, RTL only: the model has no reload). Node 0 PUTs
// 512 times to node 1, one tag after the other (each tag twice: node 1's records of
// (0, tag) then hold generation 1); node 0's NI is "reloaded" without a reset (tb_ni.v
// reflash: generation table 0, known table 0 as a bitstream load leaves them) and PUTs 256
// times more, new bytes to new addresses: every one must be executed (memory, status OK, no
// repeat counted at node 1) after one RESYNC per tag; node 0's E2E_RESYNC must count the
// RESYNCs the network saw (256 before and 256 after the reload). Then every copy of the RESYNCs is
// dropped after a second reload: the PUT completes with KOLO_ST_TIMEOUT without being
// written, and the next PUT (another tag, its RESYNC let through) is executed.
// --plant=no-resync: the reload leaves the known table 1 (the old NI: no RESYNC): the PUTs
// after the reload are taken for repeats and must fail the check.
std::string g_plant;
int run_e2e_reload(const Opts &o) {
    tb::Checker chk("unit-ni-e2e-reload");
    g_e2e.on = true;
    g_e2e.timeout = 3000;
    g_e2e.retries = 3;
    kolo_topo t = build_topo();
    std::unique_ptr<RtlWorld> wp(new RtlWorld(t, o.seed, o.rtl));  // (large: not on the stack)
    RtlWorld &w = *wp;
    std::vector<Host> h;
    for (int n = 0; n < w.nodes(); n++) h.emplace_back(w, n);
    setup(w, h, t, 31);
    const bool plant = g_plant == "no-resync";
    const uint16_t id1 = node_id(t, 1);
    h[0].ctx(0, 6, 6);
    bool drop_rsy = false;
    bool drop_first = false;  // drop each tag's first RESYNC copy only (it is sent again)
    std::set<unsigned> rsy_seen;
    bool ok = false;
    w.fault.on = true;
    w.fault.filter = [&](uint64_t h0, uint64_t h1, const uint64_t *, unsigned) -> int {
        if (((h0 >> 24) & 15u) != KOLO_OP_RESYNC) return NetFault::PASS;
        if (drop_first) return rsy_seen.insert((unsigned)(h1 >> 48) & 0xffu).second ? NetFault::DROP : NetFault::PASS;
        return drop_rsy ? NetFault::DROP : NetFault::PASS;
    };
    size_t want = 0;
    // n PUTs of 8 bytes, 32 at a time: source src + 8k to raddr + 8k
    auto puts = [&](unsigned n, uint64_t raddr, uint64_t src) {
        for (unsigned k = 0; k < n;) {
            unsigned b = std::min(32u, n - k);
            for (unsigned i = 0; i < b; i++, k++) h[0].post(0, put(id1, raddr + 8ull * k, src + 8ull * k, 8));
            h[0].doorbell(0);
            want += b;
            bool ok = h[0].run_to_completions(0, want, 400000);
            chk.check(ok, "%zu of %zu completions", h[0].q[0].got.size(), want);
            if (!ok) return;
        }
    };
    // bad completions and unwritten words among the last n PUTs
    auto check = [&](const char *what, unsigned n, uint64_t raddr, uint64_t src) {
        unsigned bad_st = 0, bad_mem = 0;
        for (unsigned k = 0; k < n; k++) {
            if (h[0].q[0].got[h[0].q[0].got.size() - n + k].status != 0) bad_st++;
            if (w.mem(1).rd64(raddr + 8ull * k) != w.mem(0).rd64(src + 8ull * k)) bad_mem++;
        }
        chk.check(bad_st == 0 && bad_mem == 0, "%s: %u of %u PUTs with an error status, %u not written", what,
                  bad_st, n, bad_mem);
    };
    // node 0's E2E_RESYNC: RESYNCs pushed (its retransmissions count in E2E_RETX only)
    auto rsy_reg = [&]() { return w.rd(0, KOLO_CSR_E2E_RESYNC); };
    uint64_t r0 = w.resyncs_sent(0), g0 = rsy_reg();
    uint64_t c0 = w.now();
    puts(256, DATA, SRC);  // (each on an unknown (destination, tag): RESYNC first)
    uint64_t c1 = w.now();
    puts(256, DATA + 0x800, SRC + 0x800);
    uint64_t c1b = w.now();
    check("before the reload", 512, DATA, SRC);
    uint64_t r1 = w.resyncs_sent(0), g1 = rsy_reg();
    chk.check(r1 - r0 == 256, "before the reload: %llu RESYNCs, expected 256 (one per tag)",
              (unsigned long long)(r1 - r0));
    chk.check(g0 == 0 && g1 == 256, "before the reload: E2E_RESYNC %llu -> %llu, expected 0 -> 256",
              (unsigned long long)g0, (unsigned long long)g1);
    uint64_t dup0 = w.rd(1, KOLO_CSR_E2E_DUP_REQ);
    w.reflash(0, plant);
    w.resyncs_max_reset(0);
    uint64_t c2 = w.now();
    puts(256, DATA + 0x2000, SRC + 0x2000);
    uint64_t c3 = w.now();
    check("after the reload (PUTs taken for repeats?)", 256, DATA + 0x2000, SRC + 0x2000);
    uint64_t r2 = w.resyncs_sent(0), g2 = rsy_reg();
    chk.check(g2 - g1 == (plant ? 0u : 256u), "after the reload: E2E_RESYNC counted %llu, expected %u",
              (unsigned long long)(g2 - g1), plant ? 0u : 256u);
    uint64_t dups = w.rd(1, KOLO_CSR_E2E_DUP_REQ) - dup0;
    chk.check(dups == 0, "after the reload: node 1 counted %llu repeats", (unsigned long long)dups);
    chk.check(r2 - r1 == (plant ? 0u : 256u), "after the reload: %llu RESYNCs, expected %u",
              (unsigned long long)(r2 - r1), plant ? 0u : 256u);
    // an operation waiting for its RESYNC's answer is parked on its tag and the engine goes on
    // (issue 21): the context's next PUTs (32 posted at a time, each on an unknown (destination,
    // tag)) send their RESYNCs meanwhile. An engine that waits for each RESYNC's answer before
    // anything else (the NI before) never has two in flight.
    const size_t rsy_max = w.resyncs_max_in_flight(0);
    chk.check(plant || rsy_max > 1, "after the reload: at most %zu RESYNC in flight at once (the engine "
              "waits for each RESYNC's answer)", rsy_max);
    if (!plant) {
        // a RESYNC given up: the operation completes with TIMEOUT, nothing written
        w.reflash(0, false);
        drop_rsy = true;
        uint64_t a = DATA + 0x3000;
        w.mem(1).wr64(a, 0x5555);
        h[0].post(0, put(id1, a, SRC, 8));
        h[0].doorbell(0);
        want++;
        ok = h[0].run_to_completions(0, want, 400000);
        chk.check(ok && h[0].q[0].got.back().status == KOLO_ST_TIMEOUT && w.mem(1).rd64(a) == 0x5555,
                  "RESYNC lost: completion %s, status %u (expected %u), target word 0x%llx", ok ? "in" : "missing",
                  ok ? h[0].q[0].got.back().status : 0u, (unsigned)KOLO_ST_TIMEOUT,
                  (unsigned long long)w.mem(1).rd64(a));
        chk.check(w.rd(0, KOLO_CSR_E2E_TIMEOUTS) == 1, "RESYNC lost: %llu timeouts counted, expected 1",
                  (unsigned long long)w.rd(0, KOLO_CSR_E2E_TIMEOUTS));
        // its copies: the first counts in E2E_RESYNC, the retransmissions (E2E_RETX) do not
        uint64_t r3 = w.resyncs_sent(0), g3 = rsy_reg();
        chk.check(g3 - g2 == 1 && r3 - r2 > 1, "RESYNC lost: E2E_RESYNC counted %llu (expected 1) of %llu copies sent",
                  (unsigned long long)(g3 - g2), (unsigned long long)(r3 - r2));
        // the same for a PUT of three packets (it blocks its slot while its RESYNC is out):
        // TIMEOUT, nothing written, and the slot is released for the next PUT
        uint64_t b = DATA + 0x3180;
        for (unsigned k = 0; k < 600; k += 8) w.mem(1).wr64(b + k, 0x6666);
        h[0].post(0, put(id1, b, SRC + 0x400, 600));
        h[0].doorbell(0);
        want++;
        ok = h[0].run_to_completions(0, want, 400000);
        unsigned bw = 0;
        for (unsigned k = 0; k < 600; k += 8) bw += w.mem(1).rd64(b + k) != 0x6666;
        chk.check(ok && h[0].q[0].got.back().status == KOLO_ST_TIMEOUT && bw == 0,
                  "RESYNC of a 3-packet PUT lost: completion %s, status %u (expected %u), %u words written",
                  ok ? "in" : "missing", ok ? h[0].q[0].got.back().status : 0u, (unsigned)KOLO_ST_TIMEOUT, bw);
        uint64_t g4 = rsy_reg();
        chk.check(g4 - g3 == 1, "RESYNC of a 3-packet PUT lost: E2E_RESYNC counted %llu, expected 1",
                  (unsigned long long)(g4 - g3));
        drop_rsy = false;
        puts(1, DATA + 0x3008, SRC + 0x3008);
        check("after a lost RESYNC", 1, DATA + 0x3008, SRC + 0x3008);
        chk.check(rsy_reg() - g4 == 1, "after a lost RESYNC: E2E_RESYNC counted %llu, expected 1",
                  (unsigned long long)(rsy_reg() - g4));
        // operations that block their slot while their RESYNC is out, after a reload: a PUT of
        // three packets, an ORDERED PUT, and behind them PUTs that free theirs: all executed
        w.reflash(0, false);
        for (unsigned k = 0; k < 600; k += 8) w.mem(0).wr64(SRC + 0x400 + k, 0x1000 + k);
        h[0].post(0, put(id1, b, SRC + 0x400, 600));
        h[0].post(0, put(id1, DATA + 0x3010, SRC + 0x3010, 8, KOLO_DF_COMPLETE | KOLO_DF_ORDERED));
        for (unsigned k = 0; k < 4; k++) h[0].post(0, put(id1, DATA + 0x3018 + 8 * k, SRC + 0x3018 + 8 * k, 8));
        h[0].doorbell(0);
        want += 6;
        ok = h[0].run_to_completions(0, want, 400000);
        unsigned bad = 0;
        for (unsigned k = 0; k < 6; k++) bad += !ok || h[0].q[0].got[h[0].q[0].got.size() - 6 + k].status != 0;
        for (unsigned k = 0; k < 600; k += 8) bad += w.mem(1).rd64(b + k) != 0x1000 + k;
        for (unsigned k = 0; k < 40; k += 8) bad += w.mem(1).rd64(DATA + 0x3010 + k) != w.mem(0).rd64(SRC + 0x3010 + k);
        chk.check(ok && bad == 0, "blocking operations after a reload: completions %s, %u bad statuses or words",
                  ok ? "in" : "missing", bad);
        // RESYNCs sent again (each tag's first copy dropped): the operations resume after the
        // hold that follows the ACK of a retransmitted RESYNC (kolo_ni_e2e's scanner wakes them)
        w.reflash(0, false);
        drop_first = true;
        uint64_t rx0 = w.rd(0, KOLO_CSR_E2E_RETX);
        for (unsigned k = 0; k < 600; k += 8) w.mem(0).wr64(SRC + 0x400 + k, 0x2000 + k);
        h[0].post(0, put(id1, b, SRC + 0x400, 600));
        for (unsigned k = 0; k < 3; k++) h[0].post(0, put(id1, DATA + 0x3040 + 8 * k, SRC + 0x3040 + 8 * k, 8));
        h[0].doorbell(0);
        want += 4;
        ok = h[0].run_to_completions(0, want, 400000);
        bad = 0;
        for (unsigned k = 0; k < 4; k++) bad += !ok || h[0].q[0].got[h[0].q[0].got.size() - 4 + k].status != 0;
        for (unsigned k = 0; k < 600; k += 8) bad += w.mem(1).rd64(b + k) != 0x2000 + k;
        for (unsigned k = 0; k < 24; k += 8) bad += w.mem(1).rd64(DATA + 0x3040 + k) != w.mem(0).rd64(SRC + 0x3040 + k);
        uint64_t rx = w.rd(0, KOLO_CSR_E2E_RETX) - rx0;
        chk.check(ok && bad == 0 && rx >= 4, "RESYNCs sent again: completions %s, %u bad statuses or words, %llu "
                  "retransmissions (expected >= 4)", ok ? "in" : "missing", bad, (unsigned long long)rx);
        drop_first = false;
        // e2e switched off, then PUTs of three packets on every tag (the PCIe cocotb failures
        // of 9c181c7, e2e off): each first packet's response wakes its tag (kolo_ni_e2e's
        // wake). The tags of the two RESYNCs given up above must not wake as RESYNCs
        // (wake_rsy) and resume their dead parked operations: the flag read was the one their
        // RESYNC left (written only with e2e on; in Icarus, X for a tag never used with e2e)
        chk.check(e2e_wait(w, h, 2000000), "operations or tags outstanding before e2e is switched off");
        for (int n = 0; n < w.nodes(); n++) w.wr32(n, KOLO_CSR_E2E_CTRL, 0);
        const uint64_t off_d = DATA + 0x100000, off_s = SRC + 0x100000;
        const unsigned off_n = 320;  // > 256: every tag used
        for (unsigned k = 0; k < off_n * 0x280; k += 8) w.mem(0).wr64(off_s + k, 0x9000000000ull + k);
        for (unsigned k = 0; k < off_n;) {
            unsigned n = std::min(32u, off_n - k);
            for (unsigned i = 0; i < n; i++, k++) h[0].post(0, put(id1, off_d + 0x280ull * k, off_s + 0x280ull * k, 600));
            h[0].doorbell(0);
            want += n;
            ok = h[0].run_to_completions(0, want, 400000);
            if (!ok) break;
        }
        bad = 0;
        unsigned bad_st = 0;
        for (unsigned k = 0; ok && k < off_n; k++) {
            bad_st += h[0].q[0].got[h[0].q[0].got.size() - off_n + k].status != 0;
            for (unsigned b8 = 0; b8 < 600; b8 += 8)
                bad += w.mem(1).rd64(off_d + 0x280ull * k + b8) != w.mem(0).rd64(off_s + 0x280ull * k + b8);
        }
        chk.check(ok && bad_st == 0 && bad == 0 && w.mem(1).rd64(a) == 0x5555,
                  "e2e off, %u PUTs of 3 packets: completions %s, %u bad statuses, %u bad words, the lost "
                  "RESYNC's word 0x%llx (expected 0x5555)", off_n, ok ? "in" : "missing", bad_st, bad,
                  (unsigned long long)w.mem(1).rd64(a));
    }
    chk.check(e2e_wait(w, h, 2000000), "operations or tags outstanding at the end");
    if (!plant)
        chk.check(h[0].q[0].got.size() == want, "%zu completions at the end, expected %zu", h[0].q[0].got.size(), want);
    w.fault.filter = nullptr;
    // (cycles of the phases, information: docs/ni.md 10.1, "Cost of the engine-wide wait")
    std::printf("e2e-reload: 256 PUTs on unknown (destination, tag) in %llu cycles after the load, %llu after the "
                "reload (%.1f, %.1f per PUT); the 256 between them (known) in %llu (%.1f per PUT)\n",
                (unsigned long long)(c1 - c0), (unsigned long long)(c3 - c2), (c1 - c0) / 256.0, (c3 - c2) / 256.0,
                (unsigned long long)(c1b - c1), (c1b - c1) / 256.0);
    char m[200];
    std::snprintf(m, sizeof m, "%llu RESYNCs before, %llu after the reload (E2E_RESYNC %llu, %llu); every PUT executed once",
                  (unsigned long long)(r1 - r0), (unsigned long long)(r2 - r1), (unsigned long long)(g1 - g0),
                  (unsigned long long)(g2 - g1));
    return chk.finish(o.seed, m);
}

#if NI_SVC
// the service block inside the node (kolo_node): BAR0 window and its write
// protection, routing with the service block's table, MGMT in band beside RDMA
int run_svc(const Opts &o) {
    tb::Checker chk("unit-ni-svc");
    Pair p(o.seed, o.rtl);
    RtlWorld &w = *p.rtl;
    SvcProcs sp(p.topo, o.seed, o.mgmt);
    w.svc_drive = [&](Vtb_ni *t, uint64_t now) { sp.drive(t, now); };
    w.svc_sample = [&](Vtb_ni *t) { sp.sample(t); };
    w.svc_edge = [&]() { sp.edge(); };
    chk.check(w.run_until([&] { return sp.tables_installed(); }, 200000),
              "every service processor installed its table");
    // BAR0: the service registers at 0x8000, the NI's below
    uint64_t v = 0;
    chk.check(w.mmio_read(0, 0, 0x8000 + KOLO_SVC_SYS_ID, 4, &v) && v == KOLO_SVC_SYS_ID_RESET,
              "host reads SYS_ID through BAR0 0x8000: 0x%llx", (unsigned long long)v);
    chk.check(w.mmio_read(0, 0, 0, 4, &v) && v == 0x4B4F4C4F, "host still reads the NI's ID at 0: 0x%llx",
              (unsigned long long)v);
    w.mmio_read(1, 0, 0x8000 + KOLO_SVC_SYS_NODE_ID, 4, &v);
    chk.check(v == kolo_node_id_of_index(&p.topo, 1), "node 1's SYS_NODE_ID through BAR0: 0x%llx",
              (unsigned long long)v);
    // host writes refused until the service processor allows them
    w.wr32(0, 0x8000 + KOLO_SVC_SYS_SCRATCH, 0x1234);
    w.mmio_read(0, 0, 0x8000 + KOLO_SVC_SYS_SCRATCH, 4, &v);
    chk.check(v == 0, "a host write before HOST_ACCESS.WRITE_EN is refused (SCRATCH 0x%llx)", (unsigned long long)v);
    w.mmio_read(0, 0, 0x8000 + KOLO_SVC_SYS_HOST_REFUSED, 4, &v);
    chk.check(v == 1, "and counted in HOST_REFUSED (%llu)", (unsigned long long)v);
    bool done = false;
    sp.access(0, true, KOLO_SVC_SYS_HOST_ACCESS, 1, [&](uint32_t, bool) { done = true; });
    w.run_until([&] { return done; }, 100000);
    w.wr32(0, 0x8000 + KOLO_SVC_SYS_SCRATCH, 0x5678);
    uint32_t scratch = 0;
    done = false;
    sp.access(0, false, KOLO_SVC_SYS_SCRATCH, 0, [&](uint32_t x, bool) { scratch = x, done = true; });
    w.run_until([&] { return done; }, 100000);
    chk.check(scratch == 0x5678, "with WRITE_EN the host's write lands (processor reads 0x%x)", scratch);
    w.wr32(0, 0x8000 + KOLO_SVC_SYS_HOST_ACCESS, 0);
    w.mmio_read(0, 0, 0x8000 + KOLO_SVC_SYS_HOST_ACCESS, 4, &v);
    chk.check(v == 1, "the host cannot write HOST_ACCESS (0x%llx)", (unsigned long long)v);
    // bad sizes: counted by the block, never written
    bool ok8 = w.mmio_read(0, 0, 0x8000 + KOLO_SVC_SYS_ID, 8, &v);
    chk.check(!ok8, "an 8-byte read of the window completes with an error");
    uint16_t half = 0xbeef;
    w.mmio_write(0, 0, 0x8000 + KOLO_SVC_SYS_SCRATCH, &half, 2);
    w.mmio_read(0, 0, 0x8000 + KOLO_SVC_SYS_SCRATCH, 4, &v);
    chk.check(v == 0x5678, "a 2-byte write of the window is refused (SCRATCH 0x%llx)", (unsigned long long)v);
    w.mmio_read(0, 0, 0x8000 + KOLO_SVC_SYS_BAD_ACCESS, 4, &v);
    chk.check(v == 2, "both counted in BAD_ACCESS (%llu)", (unsigned long long)v);

    // RDMA mix on both worlds while the service processors exchange MGMT packets
    kolo_topo t = p.topo;
    MixGen g(o.seed, t);
    auto ops = g.make(o.ops, o.ctxs);
    uint64_t t0 = w.now();
    p.both([&](World &ww, std::vector<Host> &h) { prog_mix(ww, h, t, ops, o.ctxs, o.seed, o.burst); });
    uint64_t cyc = w.now() - t0;
    chk.check(w.run_until([&] { return sp.sending_done() && sp.all_received(); }, 4000000),
              "every MGMT packet arrived (%llu of %u)", (unsigned long long)sp.received_total(),
              o.mgmt * (unsigned)w.nodes());
    Compare cmp(chk);
    cmp.run(w, *p.mdl, p.hr, p.hm);
    for (int n = 0; n < w.nodes(); n++) {
        chk.check(w.router_errors(n) == 0, "router %d counted bad packets", n);
        uint64_t tx = 0, rx = 0, drops = 0, errs = 0, bad = 0;
        w.mmio_read(n, 0, 0x8000 + KOLO_SVC_MBX_TX_COUNT, 4, &tx);
        w.mmio_read(n, 0, 0x8000 + KOLO_SVC_MBX_RX_COUNT, 4, &rx);
        w.mmio_read(n, 0, 0x8000 + KOLO_SVC_MBX_RX_DROPS, 4, &drops);
        w.mmio_read(n, 0, 0x8000 + KOLO_SVC_MBX_TX_ERRORS, 4, &errs);
        w.mmio_read(n, 0, 0x8000 + KOLO_SVC_SYS_BAD_ACCESS, 4, &bad);
        chk.check(tx == o.mgmt && drops == 0 && errs == 0 && bad == (n == 0 ? 2u : 0u),
                  "node %d mailbox: %llu sent, %llu received, %llu dropped, %llu send errors, %llu bad accesses", n,
                  (unsigned long long)tx, (unsigned long long)rx, (unsigned long long)drops,
                  (unsigned long long)errs, (unsigned long long)bad);
    }
    chk.check(sp.failures() == 0, "service processors: %u failures (%s)", sp.failures(), sp.first_failure().c_str());

    // the NI routes with the service block's table: an invalid entry ends an operation
    // with BAD_DST and counts in RT_UNREACHABLE; a valid one again lets it through
    uint16_t id1 = node_id(t, 1);
    auto set_entry = [&](uint32_t entry, uint32_t epoch) {
        bool d = false;
        sp.access(0, true, KOLO_SVC_RT_SHADOW_ENTRY(1), entry, nullptr);
        sp.access(0, true, KOLO_SVC_RT_EPOCH, epoch, [&](uint32_t, bool) { d = true; });
        w.run_until([&] { return d; }, 100000);
    };
    auto one_put = [&](uint8_t &status) {
        Host &h = p.hr[0];
        size_t before = h.q[0].got.size();
        h.post(0, put(id1, DATA + 0x40, SRC, 8));
        h.doorbell(0);
        w.run_until([&] { h.poll(0, false); return h.q[0].got.size() > before; }, 200000);
        status = h.q[0].got.size() > before ? h.q[0].got.back().status : 0xff;
    };
    uint32_t good = kolo_route_default(&t, node_id(t, 0), id1);
    uint8_t st = 0;
    set_entry(0, 2);
    one_put(st);
    chk.check(st == KOLO_ST_BAD_DST, "a PUT to a node whose entry is invalid completes with BAD_DST (status %u)", st);
    w.mmio_read(0, 0, 0x8000 + KOLO_SVC_RT_UNREACHABLE, 4, &v);
    chk.check(v == 1, "RT_UNREACHABLE counts it (%llu)", (unsigned long long)v);
    set_entry(good, 3);
    one_put(st);
    chk.check(st == KOLO_ST_OK, "with the entry back the PUT completes (status %u)", st);
    w.mmio_read(0, 0, 0x8000 + KOLO_SVC_RT_SWITCHES, 4, &v);
    chk.check(v == 3, "three table switches (%llu)", (unsigned long long)v);
    char s[300];
    std::snprintf(s, sizeof s,
                  "%zu operations in %llu RTL cycles beside %llu MGMT packets (%llu words checked); memory and "
                  "registers match the model",
                  ops.size(), (unsigned long long)cyc, (unsigned long long)sp.received_total(),
                  (unsigned long long)sp.words_checked());
    return chk.finish(o.seed, s);
}
// a link fails under RDMA traffic with end-to-end on: the routers drop the
// packets for it, the service processors install tables around it (shadow
// bank, RT_EPOCH), the switch shortens the NIs' timers, the lost operations
// are sent again on the new route; the result equals the lossless model's
int run_svc_fault(const Opts &o) {
    tb::Checker chk("unit-ni-svc-fault");
    Pair p(o.seed, o.rtl);
    RtlWorld &w = *p.rtl;
    kolo_topo t = p.topo;
    unsigned nn = kolo_topo_nodes(&t);
    SvcProcs sp(t, o.seed, 0);
    // the tables around the failed link: the firmware's computation (kolo_tableset_faults)
    kolo_faults f;
    kolo_faults_clear(&f);
    const int fail_node = 0, fail_port = 0;  // X+ of node 0
    uint16_t id0 = kolo_node_id_of_index(&t, fail_node);
    unsigned other = kolo_node_index(&t, kolo_neighbor(&t, id0, fail_port));
    kolo_faults_set_link(&f, &t, fail_node, fail_port, 1);
    std::vector<kolo_route_entry> set((size_t)nn * nn);
    std::vector<uint8_t> ws(kolo_ft_workspace_size(&t));
    kolo_ft_report rep;
    int rc = kolo_tableset_faults(&t, &f, set.data(), ws.data(), ws.size(), &rep);
    chk.check(rc == KOLO_OK && rep.detoured > 0, "tables around the failed link: %s, %u pairs detoured",
              kolo_route_strerror(rc), rep.detoured);
    const uint64_t fail_at = 30000, react = 600;  // firmware reaction (flood, compute, install)
    bool failed = false, installed = false;
    w.svc_drive = [&](Vtb_ni *tt, uint64_t now) {
        if (!failed && now >= fail_at) {
            failed = true;
            w.set_link_down(fail_node, fail_port, true);
        }
        if (failed && !installed && now >= fail_at + react) {
            installed = true;
            for (unsigned n = 0; n < nn; n++)
                sp.install(n, std::vector<kolo_route_entry>(set.begin() + (long)n * nn, set.begin() + (long)(n + 1) * nn), 2);
        }
        sp.drive(tt, now);
    };
    w.svc_sample = [&](Vtb_ni *tt) { sp.sample(tt); };
    w.svc_edge = [&]() { sp.edge(); };
    chk.check(w.run_until([&] { return sp.tables_installed(); }, 200000), "every service processor installed its table");
    MixGen g(o.seed, t);
    auto ops = g.make(o.ops, o.ctxs);
    g_e2e.on = true;
    g_e2e.timeout = 4000;
    g_cmp_e2e = false;
    g_cmp_traffic = false;  // retransmissions change packet counts
    bool done[2] = {false, false};
    uint64_t t0 = w.now();
    prog_mix(w, p.hr, t, ops, o.ctxs, o.seed, o.burst);
    done[0] = e2e_wait(w, p.hr, 20000000);
    uint64_t cyc = w.now() - t0;
    prog_mix(*p.mdl, p.hm, t, ops, o.ctxs, o.seed, o.burst);
    done[1] = e2e_wait(*p.mdl, p.hm, 20000000);
    chk.check(failed && installed && sp.installed() == nn, "the link failed during the run and %u nodes switched tables",
              sp.installed());
    chk.check(done[0], "rtl: operations outstanding or tags missing at the end (hung)");
    chk.check(done[1], "model: operations outstanding at the end");
    Compare(chk).run(w, *p.mdl, p.hr, p.hm);
    unsigned long gave_up = 0, entries = 0;
    for (auto &h : p.hr)
        for (auto &q : h.q)
            for (auto &e : q.got) {
                entries++;
                gave_up += e.status == KOLO_ST_TIMEOUT || e.status == KOLO_ST_BAD_DST;
            }
    chk.check(gave_up == 0, "%lu operations gave up (TIMEOUT/BAD_DST)", gave_up);
    uint64_t retx = 0, dup_req = 0;
    for (unsigned n = 0; n < nn; n++) {
        retx += w.rd((int)n, KOLO_CSR_E2E_RETX);
        dup_req += w.rd((int)n, KOLO_CSR_E2E_RETX + 8);
    }
    chk.check(retx > 0, "packets lost at the failed link were sent again (%llu)", (unsigned long long)retx);
    // the service block's switch reaches the NI's end-to-end timers: with a long timeout, a
    // PUT lost on the default route is sent again soon after node 0 switches to the detour
    // (timeout/8 + one timer scan, docs/ni.md section 10), long before its timeout
    const uint32_t long_to = 200000;
    w.wr32(fail_node, KOLO_CSR_E2E_TIMEOUT, long_to);
    std::vector<kolo_route_entry> def(nn);
    kolo_table_default(&t, id0, def.data());
    std::vector<kolo_route_entry> detour(set.begin() + (long)fail_node * nn, set.begin() + (long)(fail_node + 1) * nn);
    auto install0 = [&](const std::vector<kolo_route_entry> &tab, uint32_t epoch) {
        unsigned before = sp.installed();
        sp.install(fail_node, tab, epoch);
        w.run_until([&] { return sp.installed() > before; }, 100000);
    };
    install0(def, 3);  // back on the failed link
    Host &h0 = p.hr[fail_node];
    size_t before = h0.q[0].got.size();
    h0.post(0, put(node_id(t, (int)other), DATA + 0x80, SRC, 8));
    h0.doorbell(0);
    w.run(3000);  // dropped at the down link
    bool early = h0.poll(0, false) > 0;
    uint64_t sw_at = w.now();
    install0(detour, 4);
    bool got = w.run_until([&] { h0.poll(0, false); return h0.q[0].got.size() > before; }, long_to / 2);
    chk.check(!early && got && h0.q[0].got.back().status == KOLO_ST_OK,
              "a PUT lost on the failed link completes %llu cycles after the table switch (timeout %u)",
              (unsigned long long)(w.now() - sw_at), long_to);
    w.wr32(fail_node, KOLO_CSR_E2E_TIMEOUT, g_e2e.timeout);
    uint64_t v = 0;
    w.mmio_read(fail_node, 0, 0x8000 + KOLO_SVC_RT_SWITCHES, 4, &v);
    chk.check(v == 4, "node %d switched tables four times (%llu)", fail_node, (unsigned long long)v);
    chk.check(sp.failures() == 0, "service processors: %u failures (%s)", sp.failures(), sp.first_failure().c_str());
    char s[300];
    std::snprintf(s, sizeof s,
                  "%lu completion entries in %llu RTL cycles; link %d->%u failed at cycle %llu, tables switched %llu "
                  "cycles later; %llu packets sent again, %llu repeats answered from the record; memory and "
                  "completions match the lossless model",
                  entries, (unsigned long long)cyc, fail_node, other, (unsigned long long)fail_at,
                  (unsigned long long)react, (unsigned long long)retx, (unsigned long long)dup_req);
    return chk.finish(o.seed, s);
}
#endif
// CYCLES (issue 18: libkolo's stall bound counts in it): on the RTL and the
// model, seeded gaps of 1..20000 cycles between reads. A read samples the
// counter somewhere between its issue and its answer, so two reads' difference
// lies between (issue of the second - answer of the first) and (answer of the
// second - issue of the first): one count per clock. 8-byte reads (one sample)
// and 4-byte halves (high 0 here); writes (8 and 4 bytes) refused, one
// ERR_CSR count each, and the count goes on; VERSION says 1.1.
// --bug=cycles-half (negative control): the RTL's CYCLES reads as a counter at
// half the clock would (the value halved); the test must fail.
int run_cycles(const Opts &o) {
    tb::Checker chk("unit-ni-cycles");
    Pair p(o.seed, o.rtl);
    tb::Rng r(o.seed * 31 + 5);
    uint64_t reads = 0, span = 0, slack = 0;
    World *worlds[2] = {p.rtl.get(), p.mdl.get()};
    for (World *wp : worlds) {
        const bool model = wp == p.mdl.get();
        struct Planted {
            World *w;
            bool half;
            const char *name() const { return w->name(); }
            int nodes() const { return w->nodes(); }
            uint64_t now() const { return w->now(); }
            void run(uint64_t c) { w->run(c); }
            void wr32(int n, uint64_t off, uint32_t v) { w->wr32(n, off, v); }
            void wr64(int n, uint64_t off, uint64_t v) { w->wr64(n, off, v); }
            uint64_t rd(int n, uint64_t off, unsigned size = 8) {
                uint64_t v = w->rd(n, off, size);
                return half && off == KOLO_CSR_CYCLES ? v >> 1 : v;
            }
        } pw{wp, !model && o.rtl.bug == "cycles-half"};
        Planted *w = &pw;
        for (int n = 0; n < w->nodes(); n++) {
            chk.check(w->rd(n, KOLO_CSR_VERSION, 4) == KOLO_NI_VERSION && (KOLO_NI_VERSION & 0xff) >= 1,
                      "%s node %d: VERSION 0x%llx (1.1: CYCLES)", w->name(), n,
                      (unsigned long long)w->rd(n, KOLO_CSR_VERSION, 4));
            w->run(5);
            uint64_t ia = w->now(), va = w->rd(n, KOLO_CSR_CYCLES), aa = w->now();
            chk.check(va > 0 && va <= aa, "%s node %d: CYCLES %llu at cycle %llu (counts from reset)",
                      w->name(), n, (unsigned long long)va, (unsigned long long)aa);
            for (int i = 0; i < 24; i++) {
                w->run(1 + r.below(i < 4 ? 8 : 20000));
                bool half = (i % 3) == 2;
                uint64_t ib = w->now(), vb = 0, hi = 0;
                if (half) {
                    vb = w->rd(n, KOLO_CSR_CYCLES, 4);
                    hi = w->rd(n, KOLO_CSR_CYCLES + 4, 4);
                } else {
                    vb = w->rd(n, KOLO_CSR_CYCLES);
                }
                uint64_t ab = w->now();
                reads++;
                uint64_t lo_d = ib - aa, hi_d = ab - ia;
                chk.check(vb - va >= lo_d && vb - va <= hi_d,
                          "%s node %d: CYCLES moved %llu between two reads, the clock %llu..%llu (%s read)",
                          w->name(), n, (unsigned long long)(vb - va), (unsigned long long)lo_d,
                          (unsigned long long)hi_d, half ? "4-byte" : "8-byte");
                if (model)
                    chk.check(vb - va == ib - ia, "model node %d: CYCLES moved %llu, %llu steps", n,
                              (unsigned long long)(vb - va), (unsigned long long)(ib - ia));
                if (half) chk.check(hi == 0, "%s node %d: CYCLES high half %llu", w->name(), n, (unsigned long long)hi);
                span += vb - va;
                slack += hi_d - lo_d;
                ia = ib;
                va = vb;
                aa = ab;
            }
            uint64_t e0 = w->rd(n, KOLO_CSR_ERR_CSR, 4);
            w->wr64(n, KOLO_CSR_CYCLES, 0);
            w->wr32(n, KOLO_CSR_CYCLES + 4, 0);
            w->run(10);
            uint64_t e1 = w->rd(n, KOLO_CSR_ERR_CSR, 4), vc = w->rd(n, KOLO_CSR_CYCLES);
            chk.check(e1 == e0 + 2, "%s node %d: two writes of CYCLES refused: ERR_CSR %llu -> %llu", w->name(), n,
                      (unsigned long long)e0, (unsigned long long)e1);
            chk.check(vc >= va + 10, "%s node %d: CYCLES goes on after the writes (%llu, %llu before)", w->name(), n,
                      (unsigned long long)vc, (unsigned long long)va);
        }
    }
    char s[200];
    std::snprintf(s, sizeof s,
                  "%llu reads of CYCLES on RTL and model over %llu counted cycles, each within its reads' "
                  "window (%llu cycles of read latency in all)",
                  (unsigned long long)reads, (unsigned long long)span, (unsigned long long)slack);
    return chk.finish(o.seed, s);
}
}  // namespace

int main(int argc, char **argv) {
    Verilated::commandArgs(argc, argv);
    Opts o;
    o.seed = tb::seed_from(argc, argv, 1);
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (a.rfind("--test=", 0) == 0) o.test = a.substr(7);
        else if (a.rfind("--ops=", 0) == 0) o.ops = std::atol(a.c_str() + 6);
        else if (a.rfind("--lat=", 0) == 0) std::sscanf(a.c_str() + 6, "%d:%d", &o.rtl.lat_min, &o.rtl.lat_max);
        else if (a.rfind("--reads=", 0) == 0) {
            o.rtl.max_reads = std::atoi(a.c_str() + 8);
            o.reads_set = true;
        } else if (a == "--atomics") o.atomics = true;
        else if (a == "--hot") o.hot = true;
        else if (a.rfind("--rdy=", 0) == 0) o.rtl.rd_ready = std::atoi(a.c_str() + 6);
        else if (a.rfind("--wrdy=", 0) == 0) o.rtl.wr_ready = std::atoi(a.c_str() + 7);
        else if (a.rfind("--gap=", 0) == 0) o.rtl.gap = std::atoi(a.c_str() + 6);
        else if (a.rfind("--ctx=", 0) == 0) o.ctxs = std::atoi(a.c_str() + 6);
        else if (a.rfind("--burst=", 0) == 0) o.burst = std::atoi(a.c_str() + 8);
        else if (a == "--elastic") o.rtl.elastic = true;
        else if (a.rfind("--pcie=", 0) == 0) {
            o.rtl.pcie = a.substr(7);
            if (!pcie_link::find(o.rtl.pcie)) {
                std::fprintf(stderr, "bad --pcie=%s (none, gen2x8, gen3x8, gen3x16)\n", o.rtl.pcie.c_str());
                return 2;
            }
        }
        else if (a.rfind("--drop=", 0) == 0) g_e2e_opts.drop_pm = (unsigned)std::atoi(a.c_str() + 7);
        else if (a.rfind("--dup=", 0) == 0) g_e2e_opts.dup_pm = (unsigned)std::atoi(a.c_str() + 6);
        else if (a.rfind("--delay=", 0) == 0)
            std::sscanf(a.c_str() + 8, "%u:%u", &g_e2e_opts.delay_pm, &g_e2e_opts.delay_max);
        else if (a.rfind("--plant=", 0) == 0) g_plant = a.substr(8);
        else if (a.rfind("--e2e-timeout=", 0) == 0) g_e2e.timeout = (uint32_t)std::atol(a.c_str() + 14);
        else if (a.rfind("--mgmt=", 0) == 0) o.mgmt = (unsigned)std::atoi(a.c_str() + 7);
        else if (a.rfind("--signal=", 0) == 0)
            o.signal_pct = std::atoi(a.c_str() + 9);
        else if (a.rfind("--torus=", 0) == 0) {
            unsigned x = 0, y = 0, z = 0;
            if (std::sscanf(a.c_str() + 8, "%ux%ux%u", &x, &y, &z) != 3 || x < 1 || x > 16 ||
                y < 1 || y > 16 || z < 1 || z > 16) {
                std::fprintf(stderr, "bad --torus=%s\n", a.c_str() + 8);
                return 2;
            }
            g_topo.size[0] = (uint8_t)x;
            g_topo.size[1] = (uint8_t)y;
            g_topo.size[2] = (uint8_t)z;
        } else if (a.rfind("--bug=", 0) == 0)
            o.rtl.bug = a.substr(6);
        else if (a.rfind("--seed=", 0) == 0 || a.rfind("+", 0) == 0) {
        } else {
            std::fprintf(stderr, "unknown option %s\n", a.c_str());
            return 2;
        }
    }
    std::printf("tb_ni --test=%s --seed=%llu\n", o.test.c_str(), (unsigned long long)o.seed);
    if (o.test == "basic") return run_compare(o, "unit-ni-basic", prog_basic);
    if (o.test == "cycles") return run_cycles(o);
    if (o.test == "errors") return run_compare(o, "unit-ni-errors", prog_errors);
    if (o.test == "packets") return run_compare(o, "unit-ni-packets", prog_packets);
    if (o.test == "dma-err") return run_compare(o, "unit-ni-dma-err", prog_dma_err);
    if (o.test == "tags") return run_compare(o, "unit-ni-tags", prog_tags);
    if (o.test == "isolation") {
        tb::Checker iso("unit-ni-isolation");
        return run_compare(
            o, "unit-ni-isolation",
            [&](World &w, std::vector<Host> &h, const kolo_topo &t) {
                prog_isolation(w, h, t, iso);
            },
            [&](tb::Checker &chk) {
                chk.check(iso.failures() == 0, "%lu isolation checks failed", iso.failures());
            });
    }
    if (o.test == "cq-wrap")
        return run_compare(o, "unit-ni-cq-wrap", [&](World &w, std::vector<Host> &h, const kolo_topo &t) {
            prog_cq_wrap(w, h, t, o.ops);
        });
    if (o.test == "mix") {
        kolo_topo t = build_topo();
        MixGen g(o.seed, t);
        g.signal_pct = (unsigned)o.signal_pct;
        g.nofence = o.rtl.bug == "nofence";
        g.atomics_only = o.atomics;
        g.hot = o.hot;
        auto ops = g.make(o.ops, o.ctxs);
        SignalCheck sc;
        HotOrder ho;
        ho.bug_swap = o.rtl.bug == "hotorder";
        if (o.hot) {
#if NI_TORUS
            std::fprintf(stderr, "--hot needs the C++ network (build/ni, TORUS=0): it records the order of responses\n");
            return 2;
#endif
            for (const auto &op : ops) {
                int s32 = (op.d.flags & KOLO_DF_SIZE32) != 0;
                if (op.d.raddr != MixGen::hot_word(s32)) continue;
                uint64_t m = MixGen::hot_mask(s32);
                ho.info[{HotOrder::Word(op.d.dst, op.d.raddr), HotOrder::Id(node_id(t, op.node), op.d.w2 & m)}] =
                    HotOrder::Info{op.d.op, op.d.w2 & m, op.d.w3 & m};
            }
        }
        std::printf("%zu operations%s%s on %d nodes, %d contexts each, %zu puts with signal\n",
                    ops.size(), o.atomics ? " (atomics only)" : "", o.hot ? " (shared atomics on one word)" : "",
                    g.nn, o.ctxs, g.signals.size());
        return run_compare(
            o, "unit-ni-mix",
            [&](World &w, std::vector<Host> &h, const kolo_topo &tt) {
                prog_mix(w, h, tt, ops, o.ctxs, o.seed, o.burst, g.signals, &sc, o.hot ? &ho : nullptr);
            },
            [&](tb::Checker &chk) {
                if (o.hot) {
                    // every hot atomic executed once in the RTL and delivered to the model in that
                    // order; the order replayed here only to count what the run covered
                    size_t n = 0;
                    long cnt[4] = {0, 0, 0, 0}, match = 0, nomatch = 0, nodes = 0, unknown = 0;
                    std::set<unsigned> srcs;
                    for (const auto &wo : ho.order) {
                        n += wo.second.size();
                        chk.check(ho.pos[wo.first] == wo.second.size(),
                                  "model: %zu of the %zu atomics on node 0x%x word 0x%llx delivered", ho.pos[wo.first],
                                  wo.second.size(), wo.first.first, (unsigned long long)wo.first.second);
                        int s32 = wo.first.second == MixGen::hot_word(1);
                        uint64_t v = MixGen::hot_init(s32), m = MixGen::hot_mask(s32);
                        for (const auto &id : wo.second) {
                            auto it = ho.info.find({wo.first, id});
                            if (it == ho.info.end()) {
                                unknown++;
                                continue;
                            }
                            const HotOrder::Info &in = it->second;
                            srcs.insert(id.first);
                            switch (in.op) {
                            case KOLO_D_ADD: cnt[0]++; v = (v + in.opnd) & m; break;
                            case KOLO_D_FETCH_ADD: cnt[1]++; v = (v + in.opnd) & m; break;
                            case KOLO_D_SWAP: cnt[2]++; v = in.opnd; break;
                            default:
                                cnt[3]++;
                                if (v == in.cmp) { v = in.opnd; match++; } else nomatch++;
                            }
                        }
                    }
                    nodes = (long)srcs.size();
                    chk.check(n == ho.info.size() && unknown == 0,
                              "%zu of the %zu hot atomics answered in the RTL world (%ld unknown)", n,
                              ho.info.size(), unknown);
                    chk.check(match > 0 && nomatch > 0 && cnt[1] > 0 && cnt[2] > 0,
                              "hot atomics do not cover every case");
                    std::printf("hot words: %zu atomics from %ld nodes on %zu words (ADD %ld, FETCH_ADD %ld, SWAP %ld, "
                                "CSWAP %ld matching + %ld not), the model in the RTL's order%s%s\n",
                                n, nodes, ho.order.size(), cnt[0], cnt[1], cnt[2], match, nomatch,
                                ho.swapped.empty() ? "" : " except (--bug=hotorder) ", ho.swapped.c_str());
                }
                chk.check(sc.early == 0, "%ld signals before their data; first: %s", sc.early,
                          sc.first.c_str());
                chk.check(sc.checked == (long)g.signals.size(), "%ld of %zu signal words written",
                          sc.checked, g.signals.size());
            });
    }
    if (o.test == "e2e")
        return run_e2e(o);
    if (o.test == "e2e-directed")
        return run_e2e_directed(o);
    if (o.test == "e2e-reload")
        return run_e2e_reload(o);
#if NI_SVC
    if (o.test == "svc") return run_svc(o);
    if (o.test == "svc-fault") return run_svc_fault(o);
#endif
    if (o.test == "rate")
        return run_rate(o);
    if (o.test == "bench-latency")
        return run_bench_latency(o);
    if (o.test == "bench-bandwidth")
        return run_bench_bandwidth(o);
    if (o.test == "bench-atomic")
        return run_bench_atomic(o);
    std::fprintf(stderr, "unknown test %s\n", o.test.c_str());
    return 2;
}
