// svc_proc.h - the service processors of tb_ni built with SVC=1 (kolo_node per
// node): one AXI4-Lite master per node on the service block's processor port,
// running a small program while the host programs run RDMA traffic:
//   1. fill the shadow routing table with the torus' default table, switch
//      RT_EPOCH to 1 (from then on the NI routes with it), read it back;
//   2. send `mgmt_per_node` MGMT packets (1..64 words, random destination,
//      route state of the default table) one at a time through the mailbox,
//      and poll the receive side, reading every packet that arrives.
// Each packet's first word names its source and sequence number; the words
// are a function of both, so the receiver checks every word it reads.
// Bus protocol checks: a response with an error, or an access that waits more
// than 10000 cycles, fails the test.
#pragma once
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "kolo_route.h"
#include "kolo_svc_regs.h"
#include "kolo_rtl_bits.h"
#include "Vtb_ni.h"

namespace niw {

inline uint32_t mgmt_word(unsigned src, unsigned seq, unsigned i) {
    uint32_t x = (uint32_t)(src * 0x9E3779B1u) ^ (uint32_t)(seq * 0x85EBCA77u) ^ (uint32_t)(i * 0xC2B2AE3Du);
    return x ^ (x >> 15);
}

class SvcProcs {
  public:
    struct Op {
        bool write;
        uint32_t addr, data;
        std::function<void(uint32_t, bool)> done;  // (read data, error)
    };
    struct Proc {
        std::deque<Op> q;
        bool aw_done = false, w_done = false, ar_done = false;
        uint64_t started = 0;
        bool busy = false;  // the program has a step in flight
        // program
        int stage = 0;      // 0 table, 1 run, 2 done sending
        unsigned sent = 0, received = 0, words_checked = 0;
        bool polling = false;
    };

    SvcProcs(const kolo_topo &t, uint64_t seed, unsigned mgmt_per_node)
        : topo_(t), rng_(seed * 31 + 7), per_node_(mgmt_per_node), procs_(kolo_topo_nodes(&t)) {}

    // tb_ni hooks: drive before the falling-edge eval, sample after it, act after the rising edge
    void drive(Vtb_ni *t, uint64_t now) {
        now_ = now;
        for (unsigned n = 0; n < procs_.size(); n++) {
            Proc &p = procs_[n];
            if (!p.busy && !p.q.size()) program(n);
            bool aw = false, w = false, ar = false;
            if (!p.q.empty()) {
                Op &o = p.q.front();
                if (o.write) {
                    aw = !p.aw_done;
                    w = !p.w_done;
                    kolo_rtl::sig_set(t->svc_awaddr, n * 15, 15, o.addr);
                    kolo_rtl::sig_set(t->svc_wdata, n * 32, 32, o.data);
                    kolo_rtl::sig_set(t->svc_wstrb, n * 4, 4, 0xf);
                } else {
                    ar = !p.ar_done;
                    kolo_rtl::sig_set(t->svc_araddr, n * 15, 15, o.addr);
                }
                if (now - p.started > 10000) fail(n, "a bus access to 0x%04x waits for ever", o.addr);
            }
            kolo_rtl::sig_set(t->svc_awvalid, n, 1, aw);
            kolo_rtl::sig_set(t->svc_wvalid, n, 1, w);
            kolo_rtl::sig_set(t->svc_arvalid, n, 1, ar);
            kolo_rtl::sig_set(t->svc_bready, n, 1, 1);
            kolo_rtl::sig_set(t->svc_rready, n, 1, 1);
        }
    }
    void sample(Vtb_ni *t) {
        fired_.assign(procs_.size(), Fire());
        for (unsigned n = 0; n < procs_.size(); n++) {
            Fire &f = fired_[n];
            f.aw = kolo_rtl::sig_get(t->svc_awvalid, n, 1) && kolo_rtl::sig_get(t->svc_awready, n, 1);
            f.w = kolo_rtl::sig_get(t->svc_wvalid, n, 1) && kolo_rtl::sig_get(t->svc_wready, n, 1);
            f.ar = kolo_rtl::sig_get(t->svc_arvalid, n, 1) && kolo_rtl::sig_get(t->svc_arready, n, 1);
            f.b = kolo_rtl::sig_get(t->svc_bvalid, n, 1);
            f.bresp = (unsigned)kolo_rtl::sig_get(t->svc_bresp, n * 2, 2);
            f.r = kolo_rtl::sig_get(t->svc_rvalid, n, 1);
            f.rresp = (unsigned)kolo_rtl::sig_get(t->svc_rresp, n * 2, 2);
            f.rdata = (uint32_t)kolo_rtl::sig_get(t->svc_rdata, n * 32, 32);
        }
    }
    void edge() {
        for (unsigned n = 0; n < procs_.size(); n++) {
            Proc &p = procs_[n];
            const Fire &f = fired_[n];
            if (p.q.empty()) {
                if (f.b || f.r) fail(n, "a bus response without a request");
                continue;
            }
            Op &o = p.q.front();
            if (f.aw) p.aw_done = true;
            if (f.w) p.w_done = true;
            if (f.ar) p.ar_done = true;
            bool done = false, err = false;
            uint32_t v = 0;
            if (o.write && f.b) {
                if (!p.aw_done || !p.w_done) fail(n, "write response before the address and data");
                done = true;
                err = f.bresp != 0;
            } else if (!o.write && f.r) {
                if (!p.ar_done) fail(n, "read response before the address");
                done = true;
                err = f.rresp != 0;
                v = f.rdata;
            }
            if (done) {
                Op op = o;
                p.q.pop_front();
                p.aw_done = p.w_done = p.ar_done = false;
                p.started = now_;
                if (op.done) op.done(v, err);
            }
        }
    }

    bool sending_done() const {
        for (const Proc &p : procs_)
            if (p.sent < per_node_) return false;
        return true;
    }
    bool all_received() const { return received_total() == (uint64_t)per_node_ * procs_.size(); }
    uint64_t received_total() const {
        uint64_t r = 0;
        for (const Proc &p : procs_) r += p.received;
        return r;
    }
    uint64_t words_checked() const {
        uint64_t r = 0;
        for (const Proc &p : procs_) r += p.words_checked;
        return r;
    }
    bool tables_installed() const {
        for (const Proc &p : procs_)
            if (p.stage < 1) return false;
        return true;
    }
    unsigned failures() const { return failures_; }
    const std::string &first_failure() const { return first_; }
    // node n installs a new table through the shadow bank and RT_EPOCH (as the
    // firmware does after a fault); installed() counts the switches done
    void install(unsigned n, const std::vector<kolo_route_entry> &tab, uint32_t epoch) {
        for (unsigned d = 0; d < tab.size(); d++) wr(n, KOLO_SVC_RT_SHADOW_ENTRY(d), tab[d]);
        wr(n, KOLO_SVC_RT_EPOCH, epoch, [this]() { installs_++; });
    }
    unsigned installed() const { return installs_; }
    // queue one access for node n (tests use it for directed checks)
    void access(unsigned n, bool write, uint32_t addr, uint32_t data, std::function<void(uint32_t, bool)> done) {
        Proc &p = procs_[n];
        if (p.q.empty()) p.started = now_;
        p.q.push_back(Op{write, addr, data, std::move(done)});
    }
    void fail(unsigned n, const char *fmt, ...) __attribute__((format(printf, 3, 4))) {
        char b[300];
        va_list ap;
        va_start(ap, fmt);
        std::vsnprintf(b, sizeof b, fmt, ap);
        va_end(ap);
        if (!failures_++) first_ = "node " + std::to_string(n) + ": " + b;
        if (failures_ <= 10) std::fprintf(stderr, "FAIL service processor %u (cycle %llu): %s\n", n,
                                          (unsigned long long)now_, b);
    }

  private:
    struct Fire {
        bool aw = false, w = false, ar = false, b = false, r = false;
        unsigned bresp = 0, rresp = 0;
        uint32_t rdata = 0;
    };

    void wr(unsigned n, uint32_t a, uint32_t v, std::function<void()> then = nullptr) {
        access(n, true, a, v, [this, n, a, then](uint32_t, bool err) {
            if (err) fail(n, "write of 0x%04x answered SLVERR", a);
            if (then) then();
        });
    }
    void rd(unsigned n, uint32_t a, std::function<void(uint32_t)> then) {
        access(n, false, a, 0, [this, n, a, then](uint32_t v, bool err) {
            if (err) fail(n, "read of 0x%04x answered SLVERR", a);
            then(v);
        });
    }

    // the next step of node n's program; p.busy until its last access is answered
    void program(unsigned n) {
        Proc &p = procs_[n];
        uint16_t me = kolo_node_id_of_index(&topo_, n);
        unsigned nn = (unsigned)procs_.size();
        p.busy = true;
        if (p.stage == 0) {
            std::vector<kolo_route_entry> tab(nn);
            kolo_table_default(&topo_, me, tab.data());
            for (unsigned d = 0; d < nn; d++) wr(n, KOLO_SVC_RT_SHADOW_ENTRY(d), tab[d]);
            wr(n, KOLO_SVC_RT_EPOCH, 1);
            rd(n, KOLO_SVC_RT_EPOCH, [this, n](uint32_t v) {
                Proc &q = procs_[n];
                if ((v & KOLO_SVC_RT_EPOCH_EPOCH_MASK) != 1) fail(n, "RT_EPOCH reads 0x%x after the switch", v);
                q.stage = 1;
                q.busy = false;
            });
            return;
        }
        // receive first: whatever arrived
        if (!p.polling) {
            p.polling = true;
            rd(n, KOLO_SVC_MBX_RX_STATUS, [this, n](uint32_t st) {
                Proc &q = procs_[n];
                q.polling = false;
                unsigned pkts = st & 0xffu, words = (st >> 16) & 0xffu;
                if (pkts == 0) {
                    send_or_idle(n);
                    return;
                }
                rd(n, KOLO_SVC_MBX_RX_SRC, [this, n, words](uint32_t src) {
                    auto got = std::make_shared<std::vector<uint32_t>>();
                    for (unsigned i = 0; i < words; i++)
                        rd(n, KOLO_SVC_MBX_RX_DATA, [got](uint32_t w) { got->push_back(w); });
                    wr(n, KOLO_SVC_MBX_RX_POP, 1, [this, n, src, got]() {
                        check_packet(n, src & 0xfffu, *got);
                        procs_[n].busy = false;
                    });
                });
            });
            return;
        }
    }
    void send_or_idle(unsigned n) {
        Proc &p = procs_[n];
        uint16_t me = kolo_node_id_of_index(&topo_, n);
        unsigned nn = (unsigned)procs_.size();
        if (p.sent >= per_node_ || nn < 2) {
            p.busy = false;
            return;
        }
        unsigned di = (unsigned)(rng_.below(nn - 1));
        if (di >= n) di++;
        uint16_t dst = kolo_node_id_of_index(&topo_, di);
        unsigned words = 1 + (unsigned)rng_.below(64);
        unsigned seq = p.sent;
        uint32_t rs = kolo_route_default(&topo_, me, dst) & KOLO_RS_MASK;
        wr(n, KOLO_SVC_MBX_TX_DST, dst);
        wr(n, KOLO_SVC_MBX_TX_RS, rs);
        wr(n, KOLO_SVC_MBX_TX_DATA, (uint32_t)(n << 16 | (seq & 0xffffu)));
        for (unsigned i = 1; i < words; i++) wr(n, KOLO_SVC_MBX_TX_DATA, mgmt_word(n, seq, i));
        wr(n, KOLO_SVC_MBX_TX_SEND, 1);
        sent_words_[{n, seq}] = words;
        p.sent++;
        wait_tx(n);
    }
    void wait_tx(unsigned n) {
        rd(n, KOLO_SVC_MBX_TX_STATUS, [this, n](uint32_t st) {
            if (st & 1u) wait_tx(n);
            else procs_[n].busy = false;
        });
    }
    void check_packet(unsigned n, unsigned src_id, const std::vector<uint32_t> &w) {
        Proc &p = procs_[n];
        p.received++;
        if (w.empty()) {
            fail(n, "an empty MGMT packet from 0x%03x", src_id);
            return;
        }
        unsigned src = w[0] >> 16, seq = w[0] & 0xffffu;
        if (src >= procs_.size() || kolo_node_id_of_index(&topo_, src) != src_id) {
            fail(n, "MGMT packet from 0x%03x says it is from node index %u", src_id, src);
            return;
        }
        auto it = sent_words_.find({src, seq});
        if (it == sent_words_.end()) {
            fail(n, "MGMT packet %u:%u was never sent (or arrived twice)", src, seq);
            return;
        }
        if (it->second != w.size()) fail(n, "MGMT packet %u:%u: %zu words, %u sent", src, seq, w.size(), it->second);
        for (unsigned i = 1; i < w.size(); i++)
            if (w[i] != mgmt_word(src, seq, i)) {
                fail(n, "MGMT packet %u:%u word %u: 0x%08x, sent 0x%08x", src, seq, i, w[i], mgmt_word(src, seq, i));
                break;
            }
        p.words_checked += (unsigned)w.size();
        sent_words_.erase(it);
    }

    kolo_topo topo_;
    tb::Rng rng_;
    unsigned per_node_;
    std::vector<Proc> procs_;
    std::vector<Fire> fired_;
    std::map<std::pair<unsigned, unsigned>, unsigned> sent_words_;
    uint64_t now_ = 0;
    unsigned failures_ = 0, installs_ = 0;
    std::string first_;
};

}  // namespace niw
