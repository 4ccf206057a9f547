// kolo_tb_endpoint.h - the two ends of a credit-based kolo router channel.
//
// Injector: the sending side. Holds per-VC credit counters (initialised to the
// receiver's buffer depth) and a queue of packets. Virtual cut-through: a
// packet starts only when its VC has credits for all of its flits; its flits
// then go back to back, one per cycle. One packet at a time. By default one
// queue in order (a packet waiting for credits holds back the ones behind
// it); with set_per_vc(true) one queue per VC, and the next packet is the
// front of the first VC after the last one served that has credits for it
// (round robin, as the NI's injection side alternates its sources).
// Ejector: the receiving side. Reassembles packets per VC, and returns one
// credit per received flit, at most one per cycle, optionally delayed by a
// random number of cycles (backpressure on the sender).
#ifndef KOLO_TB_ENDPOINT_H
#define KOLO_TB_ENDPOINT_H

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "kolo_rtl_bits.h"
#include "kolo_tb_util.h"

namespace kolo_tb {

struct TxPacket {
    uint64_t id = 0;
    std::vector<kolo_rtl::Flit> flits;
    uint64_t t_created = 0;  // cycle the packet was generated
    uint64_t t_head = 0;     // cycle its head entered the router
    int tag = 0;             // free for the harness (e.g. an expected output port)
};

class Injector {
  public:
    Injector() = default;
    Injector(int credits_per_vc, int max_credits) { reset(credits_per_vc, max_credits); }
    void reset(int credits_per_vc, int max_credits) {
        for (auto &c : credits_) c = credits_per_vc;
        max_credits_ = max_credits;
        queue_.clear();
        for (auto &q : vq_) q.clear();
        pos_ = 0;
        cur_ = -1;
    }
    void set_per_vc(bool on) { per_vc_ = on; }
    void push(TxPacket p) {
        if (per_vc_)
            vq_[p.flits[0].vc & 3].push_back(std::move(p));
        else
            queue_.push_back(std::move(p));
    }
    size_t queued() const { return queue_.size() + vq_[0].size() + vq_[1].size() + vq_[2].size() + vq_[3].size(); }
    size_t queued(unsigned vc) const { return vq_[vc & 3].size(); }
    bool busy() const { return queued() != 0; }
    bool mid_packet() const { return pos_ != 0; }
    int credits(int vc) const { return credits_[vc]; }

    // A credit came back. Returns false on overflow (more credits than buffer).
    bool credit(unsigned vc) {
        credits_[vc & 3]++;
        return credits_[vc & 3] <= max_credits_;
    }

    // Decide this cycle's flit. Returns true and fills *out when one is sent;
    // *started is set to the packet when its head goes now, *finished when its
    // tail does (the packet is then popped: copy what you need before the next call).
    bool step(uint64_t now, kolo_rtl::Flit *out, TxPacket *started_copy, bool *started, bool *finished) {
        *started = *finished = false;
        std::deque<TxPacket> *q = &queue_;
        if (per_vc_) {
            if (cur_ < 0) {  // between packets: the next VC that can start one
                for (int k = 1; k <= 4 && cur_ < 0; k++) {
                    int v = (last_ + k) & 3;
                    if (!vq_[v].empty() && credits_[v] >= static_cast<int>(vq_[v].front().flits.size())) cur_ = v;
                }
                if (cur_ < 0) return false;
            }
            q = &vq_[cur_];
        }
        if (q->empty()) return false;
        TxPacket &p = q->front();
        unsigned vc = p.flits[0].vc & 3;
        if (pos_ == 0 && credits_[vc] < static_cast<int>(p.flits.size())) return false;
        if (credits_[vc] <= 0) return false;  // cannot happen after the whole-packet check
        *out = p.flits[pos_];
        credits_[vc]--;
        if (pos_ == 0) {
            p.t_head = now;
            *started = true;
            if (started_copy) {
                started_copy->id = p.id;
                started_copy->t_created = p.t_created;
                started_copy->t_head = now;
                started_copy->tag = p.tag;
            }
        }
        pos_++;
        if (pos_ == p.flits.size()) {
            *finished = true;
            q->pop_front();
            pos_ = 0;
            if (per_vc_) {
                last_ = cur_;
                cur_ = -1;
            }
        }
        return true;
    }

  private:
    int credits_[4] = {0, 0, 0, 0};
    int max_credits_ = 0;
    std::deque<TxPacket> queue_;
    std::deque<TxPacket> vq_[4];
    bool per_vc_ = false;
    int cur_ = -1, last_ = 3;  // per-VC mode: VC of the packet being sent, of the last one
    size_t pos_ = 0;
};

struct RxPacket {
    unsigned vc = 0;
    std::vector<uint64_t> words;  // header 0, header 1, payload...
    uint64_t t_head = 0, t_tail = 0;
};

class Ejector {
  public:
    // stall_prob: chance that a received flit's credit is held back; then for
    // 1..max_delay cycles. 0 = credits return at once (one per cycle).
    void configure(double stall_prob, int max_delay, uint64_t seed) {
        stall_prob_ = stall_prob;
        max_delay_ = max_delay < 1 ? 1 : max_delay;
        rng_.reseed(seed);
    }
    // A flit arrived. Returns false with *error set on a framing violation.
    // When it completes a packet, *done is true and *pkt holds it.
    bool receive(uint64_t now, const kolo_rtl::Flit &f, bool *done, RxPacket *pkt, std::string *error) {
        *done = false;
        unsigned vc = f.vc & 3;
        Partial &p = partial_[vc];
        uint64_t ready = now;
        if (stall_prob_ > 0 && rng_.chance(stall_prob_)) ready += 1 + rng_.below(static_cast<uint64_t>(max_delay_));
        if (!credit_q_.empty() && credit_q_.back().ready > ready) ready = credit_q_.back().ready;  // FIFO
        credit_q_.push_back({ready, vc});
        if (f.head) {
            if (!p.words.empty()) {
                *error = "head flit while a packet is open on vc " + std::to_string(vc) + " (" +
                         std::to_string(p.words.size()) + " flits received, no tail)";
                return false;
            }
            p.t_head = now;
        } else if (p.words.empty()) {
            *error = "body flit without a head on vc " + std::to_string(vc);
            return false;
        }
        p.words.push_back(f.data);
        if (f.tail) {
            if (p.words.size() < 2) {
                *error = "one-flit packet on vc " + std::to_string(vc);
                return false;
            }
            pkt->vc = vc;
            pkt->words.swap(p.words);
            pkt->t_head = p.t_head;
            pkt->t_tail = now;
            p.words.clear();
            *done = true;
        }
        return true;
    }
    // This cycle's credit return, if any.
    bool credit_out(uint64_t now, unsigned *vc) {
        if (credit_q_.empty() || credit_q_.front().ready > now) return false;
        *vc = credit_q_.front().vc;
        credit_q_.pop_front();
        return true;
    }
    bool idle() const {
        for (const auto &p : partial_)
            if (!p.words.empty()) return false;
        return credit_q_.empty();
    }
    size_t open_flits(unsigned vc) const { return partial_[vc & 3].words.size(); }

  private:
    struct Partial {
        std::vector<uint64_t> words;
        uint64_t t_head = 0;
    };
    struct Credit {
        uint64_t ready;
        unsigned vc;
    };
    Partial partial_[4];
    std::deque<Credit> credit_q_;
    double stall_prob_ = 0.0;
    int max_delay_ = 1;
    Rng rng_;
};

}  // namespace kolo_tb
#endif
