// kolo_lane_model.h - a seeded, block-granular model of one direction of one
// serial lane of a kolo link (docs/link.md), for the link testbenches.
//
// A lane word is 66 bits, {scrambled_payload[63:0], sync[1:0]}: word bit 0 is
// the first bit on the wire, bits [1:0] are the sync header (2'b01 data,
// 2'b10 control), bits [65:2] the scrambled payload (payload bit i = word bit
// i+2). It is held in a Word66 (unsigned __int128, only bits [65:0] used).
//
// Timing. The far end's receive lane clock is the near end's transmit lane
// clock, recovered: one word goes in and one word comes out per transmit lane
// clock edge. Call, at every such edge and in this order:
//     if (slip_request) lane.slip();   // the receiver asked for a bit slip
//     lane.push(tx_word);              // the word the transmitter puts out
//     rx_word = lane.pop();            // the word the receiver takes
// Time ("now", "word index") counts pushes, starting at 0. A word pushed at
// index t comes out of pop() at index t + delay (with no faults and no slip);
// before that, pop() gives `delay` filler words (all zeros: sync 00, invalid).
//
// The receiver sees a bit stream, not words: pop() returns the 66 bits that
// start `bit_offset()` bits into the oldest queued word. A start-up offset
// (set_start_offset, 0..65, or random) models a receiver whose block boundary
// is not yet found; slip() moves the boundary one bit later in the stream
// (after 66 slips it is aligned again, one word further on).
//
// Faults, all seeded and counted (counters()):
//  - random independent bit errors at a bit error rate, sync headers included
//    (set_ber, and add_ber_window for a different rate during a time window).
//    Geometric skipping: the gap to the next error is drawn once per error, so
//    a BER of 1e-9 costs nothing per word.
//  - error bursts: N consecutive words garbled (each bit flipped with
//    probability 1/2, i.e. replaced by random bits), scheduled at a word index
//    (schedule_burst) or starting at random at a rate per word (set_bursts).
//  - dropped and duplicated words at the receiver (set_drop_rate,
//    set_dup_rate, per popped word): a drop discards the next 66 received bits
//    and gives the 66 after them; a duplicate gives the previous received word
//    again without consuming any bits. The queue is kept between 1 and
//    delay+64 words (a drop or duplicate that would leave it is not done).
//  - dead lane between two times (add_dead, or set_dead now/off): every word
//    pushed in the window is replaced by random bits or by all zeros.
//  - targeted corruption by block kind: the model descrambles its own input
//    (x^58 + x^39 + 1, as the receiver would) to classify every pushed word
//    as data, IDLE, CC, INIT, CTRL, EOF, ABORT, unknown control or invalid, and can
//    corrupt words of chosen kinds at a rate inside a window (add_target), or
//    the next n words of chosen kinds (arm_target). How: flip one random
//    payload bit (the default; the descrambler turns it into 3 bit errors, at
//    i, i+39 and i+58, which may reach into the next block), flip one sync
//    bit (sync becomes 00 or 11), or garble the whole word.
// Faults are applied at push time in this order: dead window (nothing else
// then), targets, bursts, bit errors. Drops/duplicates/slips act at pop.
//
// Header only, C++17, no dependencies beyond the standard library; own PRNG
// (splitmix64, one stream per fault kind so that enabling one fault does not
// change the others' sequences).
#ifndef KOLO_LANE_MODEL_H
#define KOLO_LANE_MODEL_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <vector>

namespace kolo_lane {

__extension__ typedef unsigned __int128 Word66;

constexpr unsigned kWordBits = 66;
inline Word66 w66_mask() { return (static_cast<Word66>(1) << kWordBits) - 1; }
inline Word66 w66_make(unsigned sync, uint64_t payload) {
    return (static_cast<Word66>(payload) << 2) | static_cast<Word66>(sync & 3u);
}
inline unsigned w66_sync(Word66 w) { return static_cast<unsigned>(w & 3u); }
inline uint64_t w66_payload(Word66 w) { return static_cast<uint64_t>(w >> 2); }
inline uint64_t w66_lo(Word66 w) { return static_cast<uint64_t>(w); }
inline unsigned w66_hi2(Word66 w) { return static_cast<unsigned>(w >> 64) & 3u; }
inline Word66 w66_from(uint64_t lo, unsigned hi2) { return (static_cast<Word66>(hi2 & 3u) << 64) | lo; }
inline unsigned w66_popcount(Word66 w) {
    return static_cast<unsigned>(__builtin_popcountll(static_cast<uint64_t>(w)) +
                                 __builtin_popcountll(static_cast<uint64_t>(w >> 64)));
}

// splitmix64: small, fast, good enough for fault injection.
class SplitMix64 {
  public:
    explicit SplitMix64(uint64_t seed = 0) : s_(seed) {}
    uint64_t next() {
        uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // uniform in (0, 1]
    double uniform_open0() { return static_cast<double>((next() >> 11) + 1) * (1.0 / 9007199254740992.0); }
    uint64_t below(uint64_t n) { return n <= 1 ? 0 : next() % n; }
    bool chance(double p) { return p >= 1.0 || (p > 0.0 && uniform_open0() <= p); }
    // failures before the first success of a Bernoulli(p) sequence
    uint64_t geometric(double p) {
        if (p >= 1.0) return 0;
        if (p <= 0.0) return kNever;
        double k = std::floor(std::log(uniform_open0()) / std::log1p(-p));
        return k >= 1.8e19 ? kNever : static_cast<uint64_t>(k);
    }
    Word66 word66() { return w66_from(next(), static_cast<unsigned>(next())); }
    static constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

  private:
    uint64_t s_;
};

// Block kinds (bit positions in kind masks).
enum Kind : unsigned {
    kKindData = 0,
    kKindIdle,
    kKindCC,
    kKindInit,
    kKindCtrl,
    kKindEof,
    kKindAbort,
    kKindCtrlOther,  // sync 10 with an unknown type code
    kKindInvalid,    // sync 00 or 11
    kNumKinds
};
constexpr unsigned kMaskData = 1u << kKindData;
constexpr unsigned kMaskIdle = 1u << kKindIdle;
constexpr unsigned kMaskCC = 1u << kKindCC;
constexpr unsigned kMaskInit = 1u << kKindInit;
constexpr unsigned kMaskCtrl = 1u << kKindCtrl;
constexpr unsigned kMaskEof = 1u << kKindEof;
constexpr unsigned kMaskAbort = 1u << kKindAbort;
constexpr unsigned kMaskAnyControl =
    kMaskIdle | kMaskCC | kMaskInit | kMaskCtrl | kMaskEof | kMaskAbort | (1u << kKindCtrlOther);
inline const char *kind_name(unsigned k) {
    static const char *n[kNumKinds] = {"data", "idle", "cc", "init", "ctrl", "eof", "abort", "ctrl?", "invalid"};
    return k < kNumKinds ? n[k] : "?";
}
// Kind of a block from its sync header and unscrambled payload.
inline unsigned classify(unsigned sync, uint64_t payload) {
    if (sync == 1) return kKindData;
    if (sync != 2) return kKindInvalid;
    switch (payload & 0xff) {
        case 0x1E: return kKindIdle;
        case 0x2D: return kKindCC;
        case 0x4B: return kKindInit;
        case 0x55: return kKindCtrl;
        case 0x78: return kKindEof;
        case 0x33: return kKindAbort;
        default: return kKindCtrlOther;
    }
}

// Word-parallel descrambler of x^58 + x^39 + 1, bit 0 first in time:
// d_i = s_i ^ s_{i-39} ^ s_{i-58}; prev is the previous scrambled word.
inline uint64_t descramble64(uint64_t prev, uint64_t cur) {
    Word66 x = (static_cast<Word66>(cur) << 64) | prev;  // x bit 64+i = s_i
    return cur ^ static_cast<uint64_t>(x >> 25) ^ static_cast<uint64_t>(x >> 6);
}

enum class Corrupt { PayloadBit, SyncBit, Garble };
enum class DeadMode { Garbage, Zeros };

class LaneModel {
  public:
    struct Counters {
        uint64_t words = 0;           // pushed
        uint64_t pops = 0;
        uint64_t bit_errors = 0;      // random bit errors (BER)
        uint64_t sync_bit_errors = 0; // of which in a sync header
        uint64_t words_bit_errors = 0;// words with at least one random bit error
        uint64_t bursts = 0, burst_words = 0;
        uint64_t dropped = 0, duplicated = 0;
        uint64_t dead_words = 0;
        uint64_t targeted = 0;        // words corrupted by a target
        uint64_t targeted_kind[kNumKinds] = {};
        uint64_t slips = 0, slip_wraps = 0, underruns = 0;
        uint64_t tx_kind[kNumKinds] = {};  // what the transmitter sent, by kind
        // words that reached (or failed to reach) the receiver altered by a fault
        uint64_t faulty_words() const {
            return words_bit_errors + burst_words + dead_words + targeted + dropped + duplicated;
        }
    };

    explicit LaneModel(uint64_t seed = 1, unsigned delay_words = 8) { reset(seed, delay_words); }

    // Back to time 0, empty line (delay filler words), no faults.
    void reset(uint64_t seed, unsigned delay_words) {
        seed_ = seed;
        uint64_t s = seed;
        for (auto *r : {&r_ber_, &r_burst_, &r_dropdup_, &r_garble_, &r_target_, &r_slip_}) {
            uint64_t x = s;
            *r = SplitMix64(SplitMix64(x).next());
            s += 0x632be59bd9b4e019ull;
        }
        delay_ = std::max(1u, delay_words);
        q_.assign(delay_, 0);
        bitpos_ = 0;
        last_out_ = 0;
        have_last_ = false;
        c_ = Counters();
        base_ber_ = cur_ber_ = 0;
        ber_gap_ = SplitMix64::kNever;
        ber_windows_.clear();
        burst_rate_ = 0;
        burst_len_ = 16;
        next_random_burst_ = SplitMix64::kNever;
        burst_sched_.clear();
        burst_left_ = 0;
        drop_rate_ = dup_rate_ = 0;
        dead_.clear();
        dead_now_ = false;
        dead_now_mode_ = DeadMode::Garbage;
        targets_.clear();
        tx_prev_payload_ = 0;
    }

    // ---- configuration -------------------------------------------------------
    uint64_t seed() const { return seed_; }
    unsigned delay() const { return delay_; }
    // Start-up block boundary offset in bits (0..65); -1 draws one at random.
    // Call before the first pop.
    int set_start_offset(int bits) {
        if (bits < 0) bits = static_cast<int>(r_slip_.below(kWordBits));
        bitpos_ = static_cast<unsigned>(bits) % kWordBits;
        return static_cast<int>(bitpos_);
    }
    void set_ber(double ber) {
        base_ber_ = ber;
        update_ber();
    }
    // BER `ber` for words [start, start+len) instead of the base rate.
    void add_ber_window(uint64_t start, uint64_t len, double ber) { ber_windows_.push_back({start, start + len, ber}); }
    // Bursts of `len` words starting at random, `rate` per word.
    void set_bursts(double rate, unsigned len) {
        burst_rate_ = rate;
        burst_len_ = std::max(1u, len);
        next_random_burst_ = rate > 0 ? c_.words + r_burst_.geometric(rate) : SplitMix64::kNever;
    }
    void schedule_burst(uint64_t at, unsigned len) {
        burst_sched_.push_back({at, std::max(1u, len)});
        std::sort(burst_sched_.begin(), burst_sched_.end(),
                  [](const Sched &a, const Sched &b) { return a.at < b.at; });
    }
    void set_drop_rate(double r) { drop_rate_ = r; }
    void set_dup_rate(double r) { dup_rate_ = r; }
    void add_dead(uint64_t start, uint64_t len, DeadMode mode) { dead_.push_back({start, start + len, mode}); }
    void set_dead(bool on, DeadMode mode = DeadMode::Garbage) {
        dead_now_ = on;
        dead_now_mode_ = mode;
    }
    // Corrupt words of the kinds in kind_mask with probability `rate`, for words
    // [start, start+len) (len 0: no end), at most max_count of them (0: no limit).
    void add_target(unsigned kind_mask, double rate, uint64_t start, uint64_t len, uint64_t max_count = 0,
                    Corrupt how = Corrupt::PayloadBit) {
        targets_.push_back({kind_mask, rate, start, len ? start + len : SplitMix64::kNever,
                            max_count ? max_count : SplitMix64::kNever, how});
    }
    // Corrupt the next `count` words of the kinds in kind_mask.
    void arm_target(unsigned kind_mask, uint64_t count = 1, Corrupt how = Corrupt::PayloadBit) {
        add_target(kind_mask, 1.0, c_.words, 0, count, how);
    }
    void clear_targets() { targets_.clear(); }
    // Word index of the last word a target corrupted (kNever if none yet).
    uint64_t last_target_word() const { return last_target_word_; }

    // ---- operation -------------------------------------------------------------
    void push(Word66 w) {
        w &= w66_mask();
        const uint64_t t = c_.words;
        // classify what the transmitter sent
        unsigned sync = w66_sync(w);
        uint64_t sp = w66_payload(w);
        unsigned kind = classify(sync, descramble64(tx_prev_payload_, sp));
        tx_prev_payload_ = sp;
        c_.tx_kind[kind]++;

        bool dead = dead_now_;
        DeadMode dm = dead_now_mode_;
        for (const auto &d : dead_)
            if (t >= d.start && t < d.end) {
                dead = true;
                dm = d.mode;
            }
        if (dead) {
            w = dm == DeadMode::Zeros ? 0 : r_garble_.word66() & w66_mask();
            c_.dead_words++;
        } else {
            for (auto &tg : targets_) {
                if (t < tg.start || t >= tg.end || tg.left == 0 || !((tg.mask >> kind) & 1u)) continue;
                if (!r_target_.chance(tg.rate)) continue;
                tg.left--;
                w = corrupt(w, tg.how);
                c_.targeted++;
                c_.targeted_kind[kind]++;
                last_target_word_ = t;
                break;
            }
            // bursts
            while (!burst_sched_.empty() && burst_sched_.front().at <= t) {
                start_burst(burst_sched_.front().len);
                burst_sched_.erase(burst_sched_.begin());
            }
            if (t >= next_random_burst_) {
                start_burst(burst_len_);
                next_random_burst_ = t + burst_len_ + r_burst_.geometric(burst_rate_);
            }
            if (burst_left_) {
                burst_left_--;
                w ^= r_garble_.word66() & w66_mask();
                c_.burst_words++;
            }
            // random bit errors
            update_ber();
            if (ber_gap_ < kWordBits) {
                c_.words_bit_errors++;
                while (ber_gap_ < kWordBits) {
                    w ^= static_cast<Word66>(1) << ber_gap_;
                    c_.bit_errors++;
                    if (ber_gap_ < 2) c_.sync_bit_errors++;
                    uint64_t g = r_ber_.geometric(cur_ber_);
                    ber_gap_ = g >= SplitMix64::kNever - 200 ? SplitMix64::kNever : ber_gap_ + 1 + g;
                }
            }
            if (ber_gap_ != SplitMix64::kNever) ber_gap_ -= kWordBits;
        }
        q_.push_back(w);
        c_.words++;
    }

    Word66 pop() {
        c_.pops++;
        if (dup_rate_ > 0 && have_last_ && q_.size() < delay_ + 64 && r_dropdup_.chance(dup_rate_)) {
            c_.duplicated++;
            return last_out_;
        }
        if (drop_rate_ > 0 && q_.size() >= 3 + (bitpos_ ? 1u : 0u) && r_dropdup_.chance(drop_rate_)) {
            q_.pop_front();
            c_.dropped++;
        }
        size_t need = bitpos_ ? 2 : 1;
        if (q_.size() < need) {
            c_.underruns++;
            last_out_ = 0;
            have_last_ = true;
            return 0;
        }
        Word66 out = bitpos_ ? ((q_[0] >> bitpos_) | (q_[1] << (kWordBits - bitpos_))) & w66_mask() : q_[0];
        q_.pop_front();
        last_out_ = out;
        have_last_ = true;
        return out;
    }

    // Move the receive block boundary one bit later in the stream.
    void slip() {
        c_.slips++;
        if (++bitpos_ == kWordBits) {
            bitpos_ = 0;
            c_.slip_wraps++;
            if (!q_.empty()) q_.pop_front();
        }
    }

    // ---- state -------------------------------------------------------------------
    uint64_t now() const { return c_.words; }
    unsigned bit_offset() const { return bitpos_; }
    size_t queued() const { return q_.size(); }
    bool dead_at(uint64_t t) const {
        if (dead_now_) return true;
        for (const auto &d : dead_)
            if (t >= d.start && t < d.end) return true;
        return false;
    }
    double ber_at(uint64_t t) const {
        double b = base_ber_;
        for (const auto &w : ber_windows_)
            if (t >= w.start && t < w.end) b = w.ber;
        return b;
    }
    const Counters &counters() const { return c_; }

  private:
    struct Window {
        uint64_t start, end;
        double ber;
    };
    struct Sched {
        uint64_t at;
        unsigned len;
    };
    struct Dead {
        uint64_t start, end;
        DeadMode mode;
    };
    struct Target {
        unsigned mask;
        double rate;
        uint64_t start, end, left;
        Corrupt how;
    };

    void update_ber() {
        double b = ber_at(c_.words);
        if (b != cur_ber_ || (b > 0 && ber_gap_ == SplitMix64::kNever)) {
            cur_ber_ = b;
            ber_gap_ = r_ber_.geometric(b);  // memoryless: a fresh draw is exact
        }
    }
    void start_burst(unsigned len) {
        c_.bursts++;
        burst_left_ = std::max<uint64_t>(burst_left_, len);
    }
    Word66 corrupt(Word66 w, Corrupt how) {
        switch (how) {
            case Corrupt::SyncBit: return w ^ static_cast<Word66>(1u << r_target_.below(2));
            case Corrupt::Garble: return r_target_.word66() & w66_mask();
            case Corrupt::PayloadBit:
            default: return w ^ (static_cast<Word66>(1) << (2 + r_target_.below(64)));
        }
    }

    uint64_t seed_ = 0;
    SplitMix64 r_ber_, r_burst_, r_dropdup_, r_garble_, r_target_, r_slip_;
    unsigned delay_ = 1;
    std::deque<Word66> q_;
    unsigned bitpos_ = 0;
    Word66 last_out_ = 0;
    bool have_last_ = false;
    Counters c_;
    double base_ber_ = 0, cur_ber_ = 0;
    uint64_t ber_gap_ = SplitMix64::kNever;  // bits from the current word's start to the next error
    std::vector<Window> ber_windows_;
    double burst_rate_ = 0;
    unsigned burst_len_ = 16;
    uint64_t next_random_burst_ = SplitMix64::kNever;
    std::vector<Sched> burst_sched_;
    uint64_t burst_left_ = 0;
    double drop_rate_ = 0, dup_rate_ = 0;
    std::vector<Dead> dead_;
    bool dead_now_ = false;
    DeadMode dead_now_mode_ = DeadMode::Garbage;
    std::vector<Target> targets_;
    uint64_t last_target_word_ = SplitMix64::kNever;
    uint64_t tx_prev_payload_ = 0;
};

}  // namespace kolo_lane
#endif
