// net_ideal.cpp - kolo-sim's ideal network: a C model with a fixed latency
// per hop along the deterministic route, any torus size, fast.
//
// Timing: a packet of F flits injected at cycle t is at its destination's
// local port at t + hop_latency * (hops + 1) + F - 1 (router pipeline per hop,
// serialisation once). Each local port injects and ejects one flit per cycle.
// Ordered packets of one (source, destination, vnet) flow never overtake each
// other (their arrival is held back behind the previous one); unordered ones
// may, as adaptive routing allows. Backpressure: at most kWindow packets per
// (destination, vnet) in flight or waiting at the destination, the rest wait
// in the sending NI; the two vnets are queued apart at the destination so that
// responses never wait behind requests (no protocol deadlock).
#include <cinttypes>
#include <deque>
#include <queue>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "sim.h"

namespace kolo_sim {
namespace {

constexpr unsigned kWindow = 64;

struct Flight {
    uint64_t due, seq, sent;
    int dst;
    kolo_pkt p;
    std::vector<uint16_t> links; // node index * 6 + port of each network hop, in order
    int drop_node = -1, drop_port = -1; // set when a link on the way failed under it
};
struct Later {
    bool operator()(const Flight *a, const Flight *b) const {
        return a->due != b->due ? a->due > b->due : a->seq > b->seq;
    }
};
struct Waiting {
    kolo_pkt p;
    bool checked = false;
};

class IdealNet : public Net {
  public:
    IdealNet(Sink *sink, const kolo_topo &t, unsigned hop_latency)
        : sink_(sink), topo_(t), nodes_(kolo_topo_nodes(&t)), hop_lat_(hop_latency),
          inj_free_(nodes_, 0), ej_free_(nodes_, 0), ej_(nodes_ * 2), window_(nodes_ * 2, 0),
          rr_(nodes_, 0) {}
    ~IdealNet() override {
        while (!flight_.empty()) {
            delete flight_.top();
            flight_.pop();
        }
    }
    const char *name() const override { return "ideal"; }

    bool can_send(int src, const kolo_pkt &p) override {
        unsigned dst = dst_index(p);
        unsigned vnet = (p.header[0] >> 28) & 1;
        if (inj_free_[src] > now_)
            return false;
        return dst >= nodes_ || window_[dst * 2 + vnet] < kWindow;
    }

    void send(int src, const kolo_pkt &p, uint64_t now) override {
        unsigned vnet = (p.header[0] >> 28) & 1;
        unsigned ordered = (p.header[0] >> 35) & 1;
        unsigned flits = p.len + 2u;
        uint32_t rs = static_cast<uint32_t>(p.header[0] >> 36) & KOLO_RS_MASK;
        uint16_t src_id = kolo_node_id_of_index(&topo_, static_cast<unsigned>(src));
        kolo_hop hops[KOLO_PATH_MAX];
        int n = kolo_route_path(&topo_, src_id, rs, hops, KOLO_PATH_MAX);
        if (n < 1) {
            sink_->net_error("ideal network: packet from node index " + std::to_string(src) +
                             " has an unusable route state (" + kolo_route_strerror(n) + ")");
            return;
        }
        uint64_t id = p.header[1] & KOLO_MODEL_ID_MASK;
        int vc = static_cast<int>(vnet * 2 + (ordered ? 0 : 1));
        inj_free_[src] = now + flits;
        flits_ += flits;
        // the deterministic path, hop by hop, for the scoreboard's path check; each
        // router on the way rewrites the route state as the RTL does. A router
        // whose output link is down drops the packet whole there.
        auto *f = new Flight;
        for (int i = 0; i + 1 < n; i++) {
            int hn = static_cast<int>(kolo_node_index(&topo_, hops[i].node));
            if (down_.count(static_cast<uint16_t>(hn * 6 + hops[i].port))) {
                drops_++;
                sink_->dropped(id, hn, hops[i].port);
                delete f;
                return;
            }
            sink_->hop(id, hn, hops[i].port, vc);
            f->links.push_back(static_cast<uint16_t>(hn * 6 + hops[i].port));
            rs = kolo_route_advance(rs, hops[i].port);
        }
        int dst = static_cast<int>(kolo_node_index(&topo_, hops[n - 1].node));
        f->sent = now;
        f->due = now + static_cast<uint64_t>(hop_lat_) * static_cast<uint64_t>(n) + flits - 1;
        if (ordered) {
            uint64_t key =
                (static_cast<uint64_t>(src) << 20) | (static_cast<uint64_t>(dst) << 1) | vnet;
            uint64_t &last = last_due_[key];
            if (f->due < last)
                f->due = last;
            last = f->due;
        }
        f->seq = seq_++;
        f->dst = dst;
        f->p = p;
        f->p.header[0] = (p.header[0] & ~(static_cast<uint64_t>(KOLO_RS_MASK) << 36)) |
                         (static_cast<uint64_t>(rs) << 36);
        window_[static_cast<unsigned>(dst) * 2 + vnet]++;
        flight_.push(f);
        live_.insert(f);
        in_net_++;
    }

    // the two directions of the link leaving node index node through port:
    // node * 6 + port and its other end's (neighbour * 6 + (port ^ 1))
    void link_ends(int node, int port, uint16_t *a, uint16_t *b) const {
        *a = static_cast<uint16_t>(node * 6 + port);
        *b = static_cast<uint16_t>(link_other_end(topo_, node, port));
    }

    void set_link(int node, int port, bool up) override {
        uint16_t a, b;
        link_ends(node, port, &a, &b);
        if (up) {
            down_.erase(a);
            down_.erase(b);
            return;
        }
        down_.insert(a);
        down_.insert(b);
        // packets that have not yet crossed it are dropped at the router before it
        for (Flight *f : live_) {
            if (f->drop_node >= 0)
                continue;
            for (size_t i = 0; i < f->links.size(); i++) {
                uint64_t crosses = f->sent + static_cast<uint64_t>(hop_lat_) * (i + 1);
                if (crosses < now_)
                    continue;
                if (f->links[i] == a || f->links[i] == b) {
                    f->drop_node = f->links[i] / 6;
                    f->drop_port = f->links[i] % 6;
                    break;
                }
            }
        }
    }
    uint64_t fault_drops() const override { return drops_; }
    bool link_in_use(int node, int port) const override {
        uint16_t a, b;
        link_ends(node, port, &a, &b);
        for (const Flight *f : live_) {
            if (f->drop_node >= 0)
                continue;
            for (size_t i = 0; i < f->links.size(); i++)
                if ((f->links[i] == a || f->links[i] == b) &&
                    f->sent + static_cast<uint64_t>(hop_lat_) * (i + 1) >= now_)
                    return true;
        }
        return false;
    }

    bool step(uint64_t now) override {
        bool moved = false;
        now_ = now + 1; // can_send is asked for the next cycle
        while (!flight_.empty() && flight_.top()->due <= now) {
            Flight *f = flight_.top();
            flight_.pop();
            live_.erase(f);
            unsigned vnet = (f->p.header[0] >> 28) & 1;
            if (f->drop_node >= 0) {
                drops_++;
                window_[static_cast<unsigned>(f->dst) * 2 + vnet]--;
                in_net_--;
                sink_->dropped(f->p.header[1] & KOLO_MODEL_ID_MASK, f->drop_node, f->drop_port);
                delete f;
                moved = true;
                continue;
            }
            ej_[static_cast<unsigned>(f->dst) * 2 + vnet].push_back(Waiting{f->p, false});
            delete f;
            moved = true;
        }
        if (in_net_ == 0)
            return moved;
        for (unsigned n = 0; n < nodes_; n++) {
            if (ej_free_[n] > now)
                continue;
            // responses first on alternate cycles; a refused head does not block the other vnet
            for (unsigned k = 0; k < 2; k++) {
                unsigned v = (rr_[n] + k) & 1;
                auto &q = ej_[n * 2 + v];
                if (q.empty())
                    continue;
                Waiting &w = q.front();
                if (sink_->deliver(static_cast<int>(n), w.p, w.checked)) {
                    ej_free_[n] = now + w.p.len + 2u;
                    q.pop_front();
                    window_[n * 2 + v]--;
                    in_net_--;
                    rr_[n] = v ^ 1;
                    moved = true;
                    break;
                }
            }
        }
        return moved;
    }

    bool idle() const override { return in_net_ == 0; }

    void dump(FILE *f) const override {
        std::fprintf(
            f, "ideal network: %" PRIu64 " packets in flight or waiting at their destination\n",
            in_net_);
        for (unsigned n = 0; n < nodes_; n++)
            for (unsigned v = 0; v < 2; v++)
                if (!ej_[n * 2 + v].empty())
                    std::fprintf(
                        f, "  node index %u vnet %u: %zu packets wait for the NI to take them\n", n,
                        v, ej_[n * 2 + v].size());
    }
    uint64_t flits_injected() const override { return flits_; }

  private:
    unsigned dst_index(const kolo_pkt &p) const {
        uint16_t dst = p.header[0] & 0xfff;
        return kolo_node_in_topo(&topo_, dst) ? kolo_node_index(&topo_, dst) : ~0u;
    }

    Sink *sink_;
    kolo_topo topo_;
    unsigned nodes_, hop_lat_;
    uint64_t now_ = 0, seq_ = 0, in_net_ = 0, flits_ = 0;
    std::vector<uint64_t> inj_free_, ej_free_;
    std::priority_queue<Flight *, std::vector<Flight *>, Later> flight_;
    std::vector<std::deque<Waiting>> ej_;
    std::vector<unsigned> window_;
    std::vector<unsigned> rr_;
    std::unordered_map<uint64_t, uint64_t> last_due_;
    std::unordered_set<Flight *> live_;
    std::unordered_set<uint16_t> down_; // node index * 6 + port of links that are down
    uint64_t drops_ = 0;
};

} // namespace

Net *new_ideal_net(Sink *sink, const kolo_topo &t, unsigned hop_latency) {
    return new IdealNet(sink, t, hop_latency);
}

} // namespace kolo_sim
