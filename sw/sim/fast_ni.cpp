// fast_ni.cpp - kolo-sim --fast: transaction-level NIs and network (fast_ni.h).
#include "fast_ni.h"

#include <algorithm>
#include <cinttypes>
#include <cstring>
#include <deque>
#include <memory>
#include <queue>
#include <vector>

#include "kolo_ni_model.h"

namespace kolo_sim {

namespace {

constexpr uint64_t kChunk = 4u << 20;          // bytes per process_vm copy step
constexpr uint64_t kAddrMask = 0xFFFFFFFFFFFFull; // remote addresses: 48 bits

struct Ctx {
    uint64_t sq_base = 0, cq_base = 0, sizes = 0, ctrl = 0;
    bool enabled = false, stopped = false;
    uint8_t err = 0;
    uint32_t sq_pi = 0, sq_ci = 0, cq_pi = 0, cq_ci = 0;
    uint32_t outstanding = 0;
    bool fence_wait = false; // the head descriptor carries FENCE and waits for outstanding == 0
    uint64_t next_issue = 0;
    uint32_t gen = 0; // bumped by every CTRL write: doorbells and PIO writes still on their way
                      // to the issue engine from before it are dropped (as queued work is)
    unsigned sq_log2() const { return static_cast<unsigned>(sizes & 31u); }
    unsigned cq_log2() const { return static_cast<unsigned>((sizes >> 8) & 31u); }
};

struct Win {
    uint64_t base = 0, len = 0, ctrl = 0;
};

// a doorbell (SQ_PI) or PIO write on its way to the NI's issue engine (timing noise:
// it arrives 0 .. jitter cycles after the simulator took it from the PE's ring)
struct FrontItem {
    unsigned ctx = 0;
    uint32_t gen = 0;
    bool pio = false;
    uint32_t pi = 0;       // doorbell: the producer index written
    uint8_t data[64] = {}; // PIO: descriptor and payload
};

struct Ni {
    uint16_t id = 0;
    Ctx ctx[KOLO_NI_NUM_CTX];
    Win win[KOLO_NI_NUM_WIN];
    std::vector<uint32_t> route; // by destination node index
    uint32_t err_csr = 0;
    uint64_t tx = 0, rx = 0, nak_sent = 0, nak_rcvd = 0, dma_err = 0;
    // timing noise: the writes on their way (in the order the PE wrote them), the cycle
    // the last one arrives, and this node's random stream
    std::deque<FrontItem> front;
    uint64_t front_t = 0;
    uint64_t rng = 0;
};

enum EvKind { EV_ARRIVE, EV_GET_DATA, EV_COMPLETE, EV_FRONT };

// one operation in flight
struct Op {
    int src = 0, dst = -1; // node indices (dst -1: never left)
    unsigned ctx = 0;
    uint16_t index = 0; // SQ slot or 0xFFFF (PIO)
    kolo_desc d{};
    uint8_t inline_data[32] = {};
    bool has_inline = false;
    uint8_t status = KOLO_ST_OK;
    uint64_t result = 0;
    // GET: what the target gave (not zeroed: every byte is read from the target first)
    std::unique_ptr<uint8_t[]> data;
    uint64_t data_cap = 0; // bytes allocated in data
};

struct Event {
    uint64_t t, seq;
    EvKind kind;
    Op *op;   // (EV_FRONT: none)
    int node; // EV_FRONT: the node whose oldest write on its way arrives
    bool operator>(const Event &o) const { return t != o.t ? t > o.t : seq > o.seq; }
};

bool is_fetching(uint8_t op) {
    return op == KOLO_D_FETCH_ADD || op == KOLO_D_FETCH_XOR || op == KOLO_D_SWAP ||
           op == KOLO_D_CSWAP || op == KOLO_D_FETCH_AND || op == KOLO_D_FETCH_OR;
}
bool is_atomic(uint8_t op) { return op >= KOLO_D_ADD && op <= KOLO_D_OR; }
// a status the target answers with a NAK (window refused, or its memory failed)
bool is_nak(uint8_t st) {
    return (st >= KOLO_ST_REMOTE_KEY && st <= KOLO_ST_REMOTE_RIGHTS) || st == KOLO_ST_REMOTE_DMA;
}

// flits of a message carrying n payload bytes (at least the two header flits)
uint64_t flits_of(uint64_t n) {
    uint64_t packets = n ? (n + 255) / 256 : 1;
    return (n + 7) / 8 + 2 * packets;
}

} // namespace

struct FastNet::Impl {
    FastHost *host;
    kolo_topo topo;
    unsigned hop_latency;
    unsigned jitter;
    uint64_t seed;
    uint64_t cycle = 0; // the simulator's cycle (run_until): every NI's CYCLES
    unsigned nodes;
    std::vector<Ni> ni;
    // resource -> cycle it is free again: [vnet][node * 8 + port] (port 6 injection, 7 ejection)
    std::vector<uint64_t> busy[2];
    std::priority_queue<Event, std::vector<Event>, std::greater<Event>> ev;
    uint64_t seq = 0;
    uint64_t outstanding = 0;
    FastStats st;
    // reused buffers: copy()'s (one chunk) and GETs' (kept when an operation ends), so
    // that moving gigabytes does not allocate, zero and fault in pages for every message
    std::vector<uint8_t> scratch;
    std::vector<std::pair<uint64_t, std::unique_ptr<uint8_t[]>>> spare;
    static constexpr size_t kSpareMax = 8;                // spares kept, each at most
    static constexpr uint64_t kSpareBytes = 64ull << 20; // this large (bigger ones are freed)

    Impl(FastHost *h, const kolo_topo &t, unsigned hl, unsigned jit, uint64_t sd)
        : host(h), topo(t), hop_latency(hl), jitter(jit), seed(sd) {
        nodes = kolo_topo_nodes(&topo);
        ni.resize(nodes);
        for (unsigned n = 0; n < nodes; n++) {
            ni[n].id = kolo_node_id_of_index(&topo, n);
            ni[n].rng = seed ^ (0x9e3779b97f4a7c15ull * (n + 1u));
            ni[n].route.assign(nodes, 0);
            std::vector<kolo_route_entry> table(nodes);
            kolo_table_default(&topo, ni[n].id, table.data());
            for (unsigned i = 0; i < nodes; i++)
                ni[n].route[i] = table[i];
        }
        busy[0].assign(static_cast<size_t>(nodes) * 8, 0);
        busy[1].assign(static_cast<size_t>(nodes) * 8, 0);
    }

    void push(uint64_t t, EvKind k, Op *op, int node = -1) {
        ev.push(Event{t, seq++, k, op, node});
    }

    // ---- timing noise: doorbells and PIO writes reach the issue engine late -------------
    // splitmix64: the node's own stream, so one node's draws do not depend on another's
    static uint64_t next_rand(uint64_t &x) {
        uint64_t z = (x += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // The cycle a doorbell or PIO write taken from node's ring at now reaches the
    // issue engine: now + a draw of 0 .. jitter, never before an earlier write of
    // the node (PCIe keeps posted writes in order). true: at once (now, nothing on its
    // way): the caller acts on it itself, as without noise.
    bool front_at(int node, uint64_t now, uint64_t *t) {
        Ni &n = ni[static_cast<size_t>(node)];
        uint64_t d = jitter ? next_rand(n.rng) % (jitter + 1u) : 0;
        *t = std::max(now + d, n.front_t);
        n.front_t = *t;
        return *t == now && n.front.empty();
    }
    void front_push(int node, uint64_t t, const FrontItem &it) {
        ni[static_cast<size_t>(node)].front.push_back(it);
        push(t, EV_FRONT, nullptr, node);
    }
    void front_arrive(int node, uint64_t t) {
        Ni &n = ni[static_cast<size_t>(node)];
        FrontItem it = n.front.front();
        n.front.pop_front();
        Ctx &c = n.ctx[it.ctx];
        if (it.gen != c.gen)
            return; // the context was disabled (or set up again) meanwhile
        if (it.pio)
            pio(node, it.ctx, it.data, t);
        else
            doorbell(node, it.ctx, it.pi, t);
    }

    // ---- timing: the message's last flit at dst, holding each resource F cycles ----
    uint64_t travel(int src, int dst, uint64_t flits, uint64_t t0, int vnet) {
        std::vector<uint64_t> &b = busy[vnet];
        st.flits += flits;
        uint64_t t = std::max(t0, b[static_cast<size_t>(src) * 8 + 6]);
        b[static_cast<size_t>(src) * 8 + 6] = t + flits;
        if (src != dst) {
            kolo_hop hops[KOLO_PATH_MAX];
            int nh = kolo_route_path(&topo, ni[static_cast<size_t>(src)].id,
                                     ni[static_cast<size_t>(src)].route[static_cast<size_t>(dst)],
                                     hops, KOLO_PATH_MAX);
            for (int h = 0; h < nh; h++) {
                if (hops[h].port == KOLO_PORT_LOCAL)
                    break;
                size_t r = static_cast<size_t>(kolo_node_index(&topo, hops[h].node)) * 8 + hops[h].port;
                t = std::max(t + hop_latency, b[r]);
                b[r] = t + flits;
            }
        }
        size_t e = static_cast<size_t>(dst) * 8 + 7;
        t = std::max(t + hop_latency, b[e]);
        b[e] = t + flits;
        return t + flits - 1;
    }

    // ---- host memory -----------------------------------------------------------------
    bool mem(int node, uint64_t addr, void *buf, uint64_t len, bool write) {
        uint8_t *p = static_cast<uint8_t *>(buf);
        while (len) {
            uint64_t k = std::min(len, kChunk);
            if (host->host_mem(node, addr, p, static_cast<size_t>(k), write)) {
                ni[static_cast<size_t>(node)].dma_err++;
                return false;
            }
            addr += k;
            p += k;
            len -= k;
        }
        return true;
    }
    // copy len bytes from host memory of node a (addr aa) to node b (addr bb):
    // 0, KOLO_ST_LOCAL_DMA (reading a) or KOLO_ST_REMOTE_DMA (writing b)
    uint8_t copy(int a, uint64_t aa, int b, uint64_t bb, uint64_t len) {
        if (scratch.size() < std::min(len, kChunk))
            scratch.resize(static_cast<size_t>(std::min(len, kChunk)));
        while (len) {
            uint64_t k = std::min(len, kChunk);
            if (!mem(a, aa, scratch.data(), k, false))
                return KOLO_ST_LOCAL_DMA;
            if (!mem(b, bb, scratch.data(), k, true))
                return KOLO_ST_REMOTE_DMA;
            aa += k;
            bb += k;
            len -= k;
        }
        return KOLO_ST_OK;
    }

    // a GET's buffer of len bytes: a spare one big enough, else a new one
    void take_buffer(Op *op, uint64_t len) {
        for (auto &s : spare) {
            if (s.first >= len) {
                op->data = std::move(s.second);
                op->data_cap = s.first;
                s = std::move(spare.back());
                spare.pop_back();
                return;
            }
        }
        op->data.reset(new uint8_t[static_cast<size_t>(len)]);
        op->data_cap = len;
    }
    // an operation ends: its buffer becomes a spare (the smallest spare makes room)
    void release(Op *op) {
        if (op->data && op->data_cap <= kSpareBytes) {
            if (spare.size() < kSpareMax) {
                spare.emplace_back(op->data_cap, std::move(op->data));
            } else {
                auto m = std::min_element(spare.begin(), spare.end(),
                                          [](const auto &x, const auto &y) { return x.first < y.first; });
                if (m->first < op->data_cap) {
                    m->first = op->data_cap;
                    m->second = std::move(op->data);
                }
            }
        }
        delete op;
    }

    // window check at node n: status
    uint8_t win_check(int n, uint8_t key, uint64_t addr, uint64_t len, uint64_t right) const {
        const Win &w = ni[static_cast<size_t>(n)].win[key & 15u];
        if (!(w.ctrl & KOLO_WIN_ENABLE) || (w.ctrl & 0xffu) != key)
            return KOLO_ST_REMOTE_KEY;
        if (addr < w.base || len > w.len || addr - w.base > w.len - len)
            return KOLO_ST_REMOTE_BOUNDS;
        if (!(w.ctrl & right))
            return KOLO_ST_REMOTE_RIGHTS;
        return KOLO_ST_OK;
    }

    // ---- completions ---------------------------------------------------------------------
    void complete(Op *op, uint64_t now) {
        Ni &n = ni[static_cast<size_t>(op->src)];
        Ctx &c = n.ctx[op->ctx];
        st.completions++;
        if (op->dst >= 0 && is_nak(op->status))
            st.naks++;
        else if (op->status != KOLO_ST_OK)
            st.local_errors++;
        if (c.enabled && ((op->d.flags & KOLO_DF_COMPLETE) || op->status != KOLO_ST_OK))
            write_cqe(op->src, c, op->index, op->status, op->d.op, op->result);
        if (c.outstanding)
            c.outstanding--;
        outstanding--;
        release(op);
        if (c.fence_wait && !c.outstanding)
            issue(static_cast<int>(&n - ni.data()), static_cast<unsigned>(&c - n.ctx), now);
    }

    // the entry as the RTL writes it: the result word first, then the word with the phase
    void write_cqe(int node, Ctx &c, uint16_t index, uint8_t status, uint8_t op, uint64_t result) {
        uint32_t n = 1u << c.cq_log2();
        uint64_t at = c.cq_base + 16ull * (c.cq_pi & (n - 1));
        kolo_cqe e{};
        uint8_t img[16];
        e.index = index;
        e.status = status;
        e.op = op;
        e.phase = ((c.cq_pi >> c.cq_log2()) & 1u) ^ 1u;
        e.result = result;
        kolo_cqe_pack(&e, img);
        mem(node, at + 8, img + 8, 8, true);
        mem(node, at, img, 8, true);
        c.cq_pi++;
    }

    // ---- issuing descriptors ------------------------------------------------------------
    void issue(int node, unsigned ci, uint64_t now) {
        Ni &n = ni[static_cast<size_t>(node)];
        Ctx &c = n.ctx[ci];
        c.fence_wait = false;
        while (c.enabled && !c.stopped && c.sq_ci != c.sq_pi) {
            uint32_t sqn = 1u << c.sq_log2();
            uint8_t img[32];
            kolo_desc d;
            if (!mem(node, c.sq_base + 32ull * (c.sq_ci & (sqn - 1)), img, 32, false)) {
                stop(node, c, KOLO_ST_LOCAL_DMA, static_cast<uint16_t>(c.sq_ci & (sqn - 1)));
                return;
            }
            kolo_desc_unpack(img, &d);
            if ((d.flags & KOLO_DF_FENCE) && c.outstanding) {
                c.fence_wait = true; // again when the last one completes
                return;
            }
            uint16_t slot = static_cast<uint16_t>(c.sq_ci & (sqn - 1));
            c.sq_ci++;
            uint64_t t = std::max(now, c.next_issue);
            c.next_issue = t + 1;
            start(node, ci, d, slot, nullptr, t);
        }
    }

    void stop(int node, Ctx &c, uint8_t code, uint16_t index) {
        c.stopped = true;
        c.err = code;
        write_cqe(node, c, index, code, 0, 0);
    }

    // ---- an operation: checks at the initiator, then on its way -----------------------------
    void start(int node, unsigned ci, const kolo_desc &d, uint16_t index, const uint8_t *pio_payload,
               uint64_t t) {
        Op *op = new Op;
        op->src = node;
        op->ctx = ci;
        op->index = index;
        op->d = d;
        Ni &n = ni[static_cast<size_t>(node)];
        n.ctx[ci].outstanding++;
        outstanding++;
        if (d.op <= KOLO_D_OR)
            st.ops[d.op]++;
        uint16_t dst = d.dst & 0xfff;
        uint64_t raddr = d.raddr_key & kAddrMask;
        bool put = d.op == KOLO_D_PUT, get = d.op == KOLO_D_GET, amo = is_atomic(d.op);
        uint8_t bad = KOLO_ST_OK;
        if (d.op > KOLO_D_OR || (d.dst >> 12) || (d.raddr_key >> 56) ||
            ((d.flags & KOLO_DF_INLINE) && !put) || ((d.flags & KOLO_DF_SIZE32) && !amo))
            bad = KOLO_ST_BAD_OP;
        else if ((put || get) && (d.len == 0 || d.len > (1u << 30) ||
                                  ((d.flags & KOLO_DF_INLINE) && d.len > 16) ||
                                  raddr + d.len - 1 > kAddrMask))
            bad = KOLO_ST_BAD_LEN;
        else if (d.op != KOLO_D_NOP &&
                 (!kolo_node_in_topo(&topo, dst) ||
                  !(n.route[kolo_node_index(&topo, dst)] & KOLO_RE_VALID)))
            bad = KOLO_ST_BAD_DST;
        else if (amo && (raddr & ((d.flags & KOLO_DF_SIZE32) ? 3u : 7u)))
            bad = KOLO_ST_BAD_ALIGN;
        if (bad != KOLO_ST_OK || d.op == KOLO_D_NOP) {
            op->status = bad;
            push(t, EV_COMPLETE, op);
            return;
        }
        if (put && pio_payload) {
            std::memcpy(op->inline_data, pio_payload, std::min<uint32_t>(d.len, 32));
            op->has_inline = true;
        } else if (put && (d.flags & KOLO_DF_INLINE)) {
            std::memcpy(op->inline_data, &d.w2, 8);
            std::memcpy(op->inline_data + 8, &d.w3, 8);
            op->has_inline = true;
        }
        op->dst = static_cast<int>(kolo_node_index(&topo, dst));
        n.tx++;
        uint64_t req_flits = put ? flits_of(d.len) : 3; // GET_REQ, atomics: one payload flit
        push(travel(node, op->dst, req_flits, t, 0), EV_ARRIVE, op);
    }

    // ---- at the target --------------------------------------------------------------------
    void arrive(Op *op, uint64_t t) {
        const kolo_desc &d = op->d;
        int tn = op->dst;
        uint8_t key = static_cast<uint8_t>(d.raddr_key >> 48);
        uint64_t raddr = d.raddr_key & kAddrMask;
        ni[static_cast<size_t>(tn)].rx++;
        uint64_t resp_flits = 2;
        if (d.op == KOLO_D_PUT) {
            op->status = win_check(tn, key, raddr, d.len, KOLO_WIN_WRITE);
            if (op->status == KOLO_ST_OK) {
                if (op->has_inline)
                    op->status = mem(tn, raddr, op->inline_data, d.len, true) ? KOLO_ST_OK
                                                                                : KOLO_ST_REMOTE_DMA;
                else
                    op->status = copy(op->src, d.w2, tn, raddr, d.len);
                if (op->status == KOLO_ST_OK)
                    st.bytes_put += d.len;
            }
        } else if (d.op == KOLO_D_GET) {
            op->status = win_check(tn, key, raddr, d.len, KOLO_WIN_READ);
            if (op->status == KOLO_ST_OK) {
                take_buffer(op, d.len);
                if (!mem(tn, raddr, op->data.get(), d.len, false))
                    op->status = KOLO_ST_REMOTE_DMA;
                else
                    resp_flits = flits_of(d.len);
            }
        } else {
            unsigned size = (d.flags & KOLO_DF_SIZE32) ? 4 : 8;
            op->status = win_check(tn, key, raddr, size, KOLO_WIN_ATOMIC);
            if (op->status == KOLO_ST_OK)
                op->status = atomic(tn, op, raddr, size);
            if (is_fetching(d.op))
                resp_flits = 3;
        }
        if (is_nak(op->status)) {
            ni[static_cast<size_t>(tn)].nak_sent++;
            ni[static_cast<size_t>(op->src)].nak_rcvd++;
            resp_flits = 2;
        }
        ni[static_cast<size_t>(tn)].tx++;
        uint64_t back = travel(tn, op->src, resp_flits, t, 1);
        push(back, d.op == KOLO_D_GET && op->status == KOLO_ST_OK ? EV_GET_DATA : EV_COMPLETE, op);
    }

    uint8_t atomic(int tn, Op *op, uint64_t raddr, unsigned size) {
        uint64_t old = 0, v, a = op->d.w2, cmp = op->d.w3;
        if (!mem(tn, raddr, &old, size, false))
            return KOLO_ST_REMOTE_DMA;
        uint64_t mask = size == 4 ? 0xffffffffull : ~0ull;
        old &= mask;
        switch (op->d.op) {
        case KOLO_D_ADD:
        case KOLO_D_FETCH_ADD: v = old + a; break;
        case KOLO_D_XOR:
        case KOLO_D_FETCH_XOR: v = old ^ a; break;
        case KOLO_D_AND:
        case KOLO_D_FETCH_AND: v = old & a; break;
        case KOLO_D_OR:
        case KOLO_D_FETCH_OR: v = old | a; break;
        case KOLO_D_SWAP: v = a; break;
        case KOLO_D_CSWAP: v = (old == (cmp & mask)) ? a : old; break;
        default: return KOLO_ST_BAD_OP;
        }
        v &= mask;
        if (!mem(tn, raddr, &v, size, true))
            return KOLO_ST_REMOTE_DMA;
        op->result = is_fetching(op->d.op) ? old : 0;
        return KOLO_ST_OK;
    }

    void get_data(Op *op, uint64_t t) {
        if (!mem(op->src, op->d.w2, op->data.get(), op->d.len, true))
            op->status = KOLO_ST_LOCAL_DMA;
        else
            st.bytes_get += op->d.len;
        ni[static_cast<size_t>(op->src)].rx++;
        complete(op, t);
    }

    bool run_until(uint64_t now) {
        bool any = false;
        cycle = std::max(cycle, now);
        while (!ev.empty() && ev.top().t <= now) {
            Event e = ev.top();
            ev.pop();
            any = true;
            switch (e.kind) {
            case EV_ARRIVE: arrive(e.op, e.t); break;
            case EV_GET_DATA: get_data(e.op, e.t); break;
            case EV_COMPLETE:
                if (e.op->dst >= 0) // a response arrived
                    ni[static_cast<size_t>(e.op->src)].rx++;
                complete(e.op, e.t);
                break;
            case EV_FRONT: front_arrive(e.node, e.t); break;
            }
        }
        return any;
    }

    // ---- registers ----------------------------------------------------------------------------
    void csr_write(int node, uint64_t off, uint64_t v, unsigned size, uint64_t now) {
        Ni &n = ni[static_cast<size_t>(node)];
        if (off >= 0x1000 && off < 0x1000 + 0x40ull * KOLO_NI_NUM_CTX) {
            Ctx &c = n.ctx[(off - 0x1000) / 0x40];
            uint64_t r = (off - 0x1000) % 0x40;
            if (r == KOLO_CTX_CTRL) {
                c.ctrl = v;
                c.gen++;
                if (!(v & 1)) { // disable: what is queued is dropped
                    c.enabled = false;
                    return;
                }
                unsigned sl = static_cast<unsigned>(c.sizes & 31), cl = static_cast<unsigned>((c.sizes >> 8) & 31);
                c.sq_pi = c.sq_ci = c.cq_pi = c.cq_ci = 0;
                c.stopped = false;
                c.err = 0;
                c.fence_wait = false;
                if (sl < 1 || sl > 15 || cl < sl || cl > 15 || (c.sizes & ~0x1f1full) ||
                    (c.sq_base & 31) || (c.cq_base & 15)) {
                    c.enabled = false;
                    c.stopped = true;
                    c.err = KOLO_ST_BAD_CONFIG;
                    return;
                }
                c.enabled = true;
                return;
            }
            if (c.enabled) { // configuration only while disabled
                n.err_csr++;
                return;
            }
            if (r == KOLO_CTX_SQ_BASE)
                c.sq_base = v;
            else if (r == KOLO_CTX_CQ_BASE)
                c.cq_base = v;
            else if (r == KOLO_CTX_SIZES)
                c.sizes = v;
            else
                n.err_csr++;
            return;
        }
        if (off >= 0x2000 && off < 0x2000 + 0x20ull * KOLO_NI_NUM_WIN) {
            Win &w = n.win[(off - 0x2000) / 0x20];
            uint64_t r = (off - 0x2000) % 0x20;
            if (r == KOLO_WIN_BASE)
                w.base = v;
            else if (r == KOLO_WIN_LEN)
                w.len = v;
            else if (r == KOLO_WIN_CTRL)
                w.ctrl = v & 0xffffffffu;
            return;
        }
        if (off >= 0x4000 && off < 0x4000 + 4ull * nodes) {
            n.route[(off - 0x4000) / 4] = static_cast<uint32_t>(v);
            return;
        }
        if (off >= KOLO_CSR_DOORBELL(0) && off < KOLO_CSR_DOORBELL(KOLO_NI_NUM_CTX)) {
            unsigned ci = static_cast<unsigned>((off - KOLO_CSR_DOORBELL(0)) / 0x1000);
            Ctx &c = n.ctx[ci];
            uint64_t r = (off - KOLO_CSR_DOORBELL(0)) % 0x1000;
            if (r == KOLO_DB_SQ_PI) {
                uint32_t pi = static_cast<uint32_t>(v) & 0xffffu;
                uint64_t t;
                if (!c.enabled || c.stopped)
                    return;
                if (front_at(node, now, &t)) {
                    doorbell(node, ci, pi, now);
                } else {
                    FrontItem it;
                    it.ctx = ci;
                    it.gen = c.gen;
                    it.pi = pi;
                    front_push(node, t, it);
                }
            } else if (r == KOLO_DB_CQ_CI) {
                c.cq_ci = static_cast<uint32_t>(v) & 0xffffu;
            } else {
                n.err_csr++;
            }
            return;
        }
        if (off == KOLO_CSR_E2E_CTRL || off == KOLO_CSR_E2E_TIMEOUT)
            return; // (no losses in this network)
        (void)size;
        n.err_csr++;
    }

    // a doorbell reaches the issue engine
    void doorbell(int node, unsigned ci, uint32_t pi, uint64_t now) {
        Ctx &c = ni[static_cast<size_t>(node)].ctx[ci];
        uint32_t ahead = (pi - (c.sq_ci & 0xffffu)) & 0xffffu;
        if (!c.enabled || c.stopped)
            return;
        if (ahead > (1u << c.sq_log2())) {
            stop(node, c, KOLO_ST_BAD_DOORBELL, 0);
            return;
        }
        c.sq_pi = c.sq_ci + ahead;
        if (!c.fence_wait)
            issue(node, ci, now);
    }
    // a PIO write (descriptor and payload) reaches it
    void pio(int node, unsigned ci, const uint8_t *data, uint64_t now) {
        Ctx &c = ni[static_cast<size_t>(node)].ctx[ci];
        kolo_desc dd;
        if (!c.enabled || c.stopped)
            return;
        kolo_desc_unpack(data, &dd);
        uint64_t t = std::max(now, c.next_issue);
        c.next_issue = t + 1;
        start(node, ci, dd, 0xFFFF, data + 32, t);
    }

    uint64_t status_of(const Ctx &c) const {
        return (c.enabled ? 1u : 0u) | (c.stopped ? 2u : 0u) | static_cast<uint64_t>(c.err) << 8 |
               static_cast<uint64_t>(c.sq_ci & 0xffffu) << 16;
    }

    int csr_read(int node, uint64_t off, uint64_t *v) const {
        const Ni &n = ni[static_cast<size_t>(node)];
        *v = 0;
        switch (off) {
        case KOLO_CSR_ID: *v = KOLO_NI_ID; return 0;
        case KOLO_CSR_VERSION: *v = KOLO_NI_VERSION; return 0;
        case KOLO_CSR_NODE_ID: *v = n.id; return 0;
        case KOLO_CSR_TORUS:
            *v = (topo.size[0] - 1u) | (topo.size[1] - 1u) << 4 | (topo.size[2] - 1u) << 8;
            return 0;
        case KOLO_CSR_NUM_CTX: *v = KOLO_NI_NUM_CTX; return 0;
        case KOLO_CSR_ERR_CSR: *v = n.err_csr; return 0;
        case KOLO_CSR_STAT_TX_PKTS: *v = n.tx; return 0;
        case KOLO_CSR_STAT_RX_PKTS: *v = n.rx; return 0;
        case KOLO_CSR_STAT_NAK_SENT: *v = n.nak_sent; return 0;
        case KOLO_CSR_STAT_NAK_RCVD: *v = n.nak_rcvd; return 0;
        case KOLO_CSR_STAT_DMA_ERR: *v = n.dma_err; return 0;
        case KOLO_CSR_CYCLES: *v = cycle; return 0;
        default: break;
        }
        if (off >= 0x1000 && off < 0x1000 + 0x40ull * KOLO_NI_NUM_CTX) {
            const Ctx &c = n.ctx[(off - 0x1000) / 0x40];
            uint64_t r = (off - 0x1000) % 0x40;
            *v = r == KOLO_CTX_SQ_BASE      ? c.sq_base
                 : r == KOLO_CTX_CQ_BASE    ? c.cq_base
                 : r == KOLO_CTX_SIZES      ? c.sizes
                 : r == KOLO_CTX_CTRL       ? c.ctrl
                 : r == KOLO_CTX_STATUS     ? status_of(c)
                 : r == KOLO_CTX_OUTSTANDING ? c.outstanding
                                             : 0;
            return 0;
        }
        if (off >= 0x2000 && off < 0x2000 + 0x20ull * KOLO_NI_NUM_WIN) {
            const Win &w = n.win[(off - 0x2000) / 0x20];
            uint64_t r = (off - 0x2000) % 0x20;
            *v = r == KOLO_WIN_BASE ? w.base : r == KOLO_WIN_LEN ? w.len : r == KOLO_WIN_CTRL ? w.ctrl : 0;
            return 0;
        }
        if (off >= 0x4000 && off < 0x4000 + 4ull * nodes) {
            *v = n.route[(off - 0x4000) / 4];
            return 0;
        }
        if (off >= KOLO_CSR_DOORBELL(0) && off < KOLO_CSR_DOORBELL(KOLO_NI_NUM_CTX)) {
            const Ctx &c = n.ctx[(off - KOLO_CSR_DOORBELL(0)) / 0x1000];
            uint64_t r = (off - KOLO_CSR_DOORBELL(0)) % 0x1000;
            *v = r == KOLO_DB_STATUS ? status_of(c) : r == KOLO_DB_OUTSTANDING ? c.outstanding : 0;
            return 0;
        }
        return 0; // unmapped: 0
    }
};

FastNet::FastNet(FastHost *host, const kolo_topo &t, unsigned hop_latency, unsigned jitter,
                 uint64_t seed)
    : d_(new Impl(host, t, hop_latency, jitter, seed)) {}
FastNet::~FastNet() {
    while (!d_->ev.empty()) { // operations still in flight at the end
        Op *op = d_->ev.top().op;
        d_->ev.pop();
        delete op;
    }
}

void FastNet::mmio_write(int node, int bar, uint64_t off, const void *data, unsigned size,
                         uint64_t now) {
    if (bar == 2) {
        if (size != 64 || (off & 0xfff) || off >= KOLO_BAR2_SIZE) {
            d_->ni[static_cast<size_t>(node)].err_csr++;
            return;
        }
        unsigned ci = static_cast<unsigned>(off / 0x1000);
        Ctx &c = d_->ni[static_cast<size_t>(node)].ctx[ci];
        uint64_t t;
        if (!c.enabled || c.stopped)
            return;
        if (d_->front_at(node, now, &t)) {
            d_->pio(node, ci, static_cast<const uint8_t *>(data), now);
        } else {
            FrontItem it;
            it.ctx = ci;
            it.gen = c.gen;
            it.pio = true;
            std::memcpy(it.data, data, 64);
            d_->front_push(node, t, it);
        }
        return;
    }
    uint64_t v = 0;
    std::memcpy(&v, data, size == 4 ? 4 : 8);
    d_->csr_write(node, off, v, size, now);
}

int FastNet::mmio_read(int node, int bar, uint64_t off, unsigned size, uint64_t *val) {
    if (bar != 0 || (size != 4 && size != 8)) {
        *val = ~0ull;
        return -1;
    }
    int rc = d_->csr_read(node, off, val);
    if (size == 4)
        *val &= 0xffffffffu;
    return rc;
}

bool FastNet::run_until(uint64_t now) { return d_->run_until(now); }
uint64_t FastNet::next_event() const { return d_->ev.empty() ? UINT64_MAX : d_->ev.top().t; }
unsigned FastNet::jitter() const { return d_->jitter; }
uint64_t FastNet::seed() const { return d_->seed; }
bool FastNet::idle() const { return d_->ev.empty() && !d_->outstanding; }
const FastStats &FastNet::stats() const { return d_->st; }

void FastNet::dump(FILE *f) const {
    size_t on_way = 0;
    for (const Ni &n : d_->ni)
        on_way += n.front.size();
    std::fprintf(f,
                 "  fast NIs: %zu events pending, %" PRIu64 " operations outstanding, %zu doorbell/PIO "
                 "writes on their way; timing noise 0-%u cycles (--jitter), seed %" PRIu64 " (--seed)\n",
                 d_->ev.size(), d_->outstanding, on_way, d_->jitter, d_->seed);
    for (unsigned n = 0; n < d_->nodes; n++)
        for (unsigned c = 0; c < KOLO_NI_NUM_CTX; c++) {
            const Ctx &x = d_->ni[n].ctx[c];
            if (x.enabled && (x.outstanding || x.sq_ci != x.sq_pi || x.fence_wait))
                std::fprintf(f, "  node index %u ctx %u: sq %u/%u, %u outstanding%s\n", n, c,
                             x.sq_ci, x.sq_pi, x.outstanding, x.fence_wait ? ", fence waits" : "");
        }
}

} // namespace kolo_sim
