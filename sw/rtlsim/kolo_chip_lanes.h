// kolo_chip_lanes.h - one direction of one lane between two kolo_chips, as the
// harnesses of tb/chip and kolo-sim --net=chip see it: the sending chip's
// transmit gearbox (kolo_lane_gearbox_tx's outputs, external sequence
// counter), the serial lane (kolo_lane_model.h: delay, start offset, slips,
// bit errors, dead windows) and the receiving chip's receive gearbox
// (data/header valid with gaps, RXGEARBOXSLIP), all modelled in C++.
//
// Use, per lane direction:
//   at every rising edge of the sender's tx lane clock, with the values the
//   chip presented before the edge:   tx_edge(sequence, data, header)
//   after every rising edge of the receiver's rx lane clock, with the slip
//   the chip requested before it:     Beat b = rx_edge(slip); drive b.
// The transmit side takes a beat whenever sequence != pause_seq (the
// transceiver's pause); a whole block (one 64-bit beat, or two 32-bit beats,
// the header with the first; sequence 0 always starts a block, as the
// transceiver's own block boundary) goes into the lane model. The receive side (the
// far transceiver's gearbox) takes the next word out of the lane model when it
// needs one and presents it as one or two beats, one beat per cycle, except
// in its own gearbox gap (one cycle in 33 at a random phase, with random data
// and header on the port) and when the lane holds less than two words (a gap
// too); a slip request moves the lane's boundary by one bit at once (lane
// model slip), as RXGEARBOXSLIP does. With equal rates on both sides (rx
// clock = tx clock recovered) the lane stays about its delay long.
#ifndef KOLO_CHIP_LANES_H
#define KOLO_CHIP_LANES_H

#include <cstdint>

#include "kolo_lane_model.h"

namespace kolo_chip {

using kolo_lane::Word66;

struct Beat {
    bool data_valid = false, header_valid = false;
    uint64_t data = 0;
    unsigned header = 0;
};

class LaneDir {
  public:
    void init(uint64_t seed, unsigned data_w, unsigned pause_seq, unsigned delay_words) {
        data_w_ = data_w;
        pause_seq_ = pause_seq;
        lane_.reset(seed, delay_words);
        lane_.set_start_offset(-1);  // random boundary: the receiver must find it by slipping
        kolo_lane::SplitMix64 r(seed ^ 0x9E3779B97F4A7C15ull);
        gap_phase_ = static_cast<unsigned>(r.below(33));
        noise_ = r.next() | 1;
        have_half_ = second_ = false;
        cur_ = 0;
        rx_cycles_ = 0;
    }
    kolo_lane::LaneModel &lane() { return lane_; }

    void tx_edge(unsigned sequence, uint64_t data, unsigned header) {
        if (sequence == pause_seq_)
            return;  // the transceiver takes nothing now
        if (sequence == 0)
            have_half_ = false;  // a sequence starts with a block (its header), as the transceiver counts
        Word66 w;
        if (data_w_ == 64) {
            w = kolo_lane::w66_make(header, data);
        } else if (!have_half_) {
            have_half_ = true;
            lo_ = data & 0xffffffffull;
            hdr_ = header;
            return;
        } else {
            have_half_ = false;
            w = kolo_lane::w66_make(hdr_, ((data & 0xffffffffull) << 32) | lo_);
        }
        lane_.push(w);
        blocks_++;
    }

    Beat rx_edge(bool slip) {
        if (slip)
            lane_.slip();
        Beat b;
        rx_cycles_++;
        const bool gap = (rx_cycles_ + gap_phase_) % 33 == 0;
        if (gap || (!second_ && lane_.queued() < 2)) {
            b.data = next_noise();
            b.header = static_cast<unsigned>(next_noise() & 3);
            b.header_valid = gap && (next_noise() & 1);  // a header alone carries no block
            return b;
        }
        if (!second_)
            cur_ = lane_.pop();
        const uint64_t payload = kolo_lane::w66_payload(cur_);
        b.data_valid = true;
        b.header = kolo_lane::w66_sync(cur_);
        if (data_w_ == 64) {
            b.data = payload;
            b.header_valid = true;
        } else if (!second_) {
            b.data = payload & 0xffffffffull;
            b.header_valid = true;
            second_ = true;
        } else {
            b.data = payload >> 32;
            second_ = false;
        }
        return b;
    }
    uint64_t blocks() const { return blocks_; }
    size_t queued() const { return lane_.queued(); }

  private:
    uint64_t next_noise() {
        noise_ ^= noise_ << 13;
        noise_ ^= noise_ >> 7;
        noise_ ^= noise_ << 17;
        return noise_;
    }
    kolo_lane::LaneModel lane_;
    unsigned data_w_ = 64, pause_seq_ = 32, gap_phase_ = 0;
    bool have_half_ = false, second_ = false;
    Word66 cur_ = 0;
    uint64_t lo_ = 0, rx_cycles_ = 0, noise_ = 1, blocks_ = 0;
    unsigned hdr_ = 0;
};

}  // namespace kolo_chip
#endif
