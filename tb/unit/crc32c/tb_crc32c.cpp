// tb_crc32c.cpp - unit test of the link's CRC cells (kolo_crc32c_64,
// kolo_crc8_56) and of the CRC and block helpers in tb/common/kolo_linkref.h.
//   1. The bitwise C references against published check values
//      (CRC-32C("123456789") = 0xE3069283 and the iSCSI 32-byte vectors of
//      RFC 3720 B.4; CRC-8/0x07("123456789") = 0xF4).
//   2. The RTL 64-bit step against kolo_ref_crc32c_update for random and
//      corner-case (register, word) pairs, one and two steps deep.
//   3. The RTL chained over random byte messages (whole words through the RTL,
//      a tail of 1..7 bytes through the bytewise C reference) against the
//      bytewise kolo_ref_crc32c; "123456789" and the 32-byte vectors the same.
//   4. CRC-8: RTL against C for random data, hand-computed vectors, every
//      1- and 2-bit error in a control payload detected, block type codes at
//      Hamming distance >= 4.
//   5. Block helpers: INIT/CTRL/EOF build-parse round trips, frame CRC equal
//      to the bytewise CRC of the data bytes followed by the EOF header bytes.
#include <memory>
#include <vector>

#include "Vtb_crc32c.h"
#include "kolo_linkref.h"
#include "tb_util.h"
#include "verilated.h"

namespace {

// Little-endian bytes of a word: byte 0 = bits [7:0].
void put_word(std::vector<uint8_t>& v, uint64_t w) {
    for (unsigned i = 0; i < 8; i++) v.push_back((uint8_t)(w >> (8 * i)));
}

uint64_t get_word(const uint8_t* p) {
    uint64_t w = 0;
    for (unsigned i = 0; i < 8; i++) w |= (uint64_t)p[i] << (8 * i);
    return w;
}

}  // namespace

int main(int argc, char** argv) {
    const uint64_t seed = tb::seed_from(argc, argv);
    std::printf("unit-crc32c: SEED=%llu\n", (unsigned long long)seed);
    tb::Rng rng(seed);
    tb::Checker chk("unit-crc32c");
    auto ctx = std::make_unique<VerilatedContext>();
    auto dut = std::make_unique<Vtb_crc32c>(ctx.get());

    // RTL CRC-32C of a byte string: whole words through the DUT (one step per
    // eval), the tail bytes through the bytewise C reference.
    auto rtl_crc32c = [&](const std::vector<uint8_t>& msg) {
        uint32_t reg = KOLO_CRC32C_INIT;
        size_t i = 0;
        for (; i + 8 <= msg.size(); i += 8) {
            dut->crc_in = reg;
            dut->data = get_word(&msg[i]);
            dut->eval();
            reg = dut->crc_out;
        }
        reg = kolo_ref_crc32c_raw(reg, msg.data() + i, msg.size() - i);
        return reg ^ KOLO_CRC32C_XOROUT;
    };

    // ---- 1. the C references against published check values ----------------
    const std::vector<uint8_t> check9 = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
    chk.check(kolo_ref_crc32c(check9.data(), 9) == 0xE3069283u, "C CRC-32C(\"123456789\") = %08x, want E3069283",
              kolo_ref_crc32c(check9.data(), 9));
    chk.check(kolo_ref_crc8(check9.data(), 9) == 0xF4, "C CRC-8(\"123456789\") = %02x, want F4",
              kolo_ref_crc8(check9.data(), 9));
    chk.check(kolo_ref_crc32c(nullptr, 0) == 0, "C CRC-32C of nothing = %08x", kolo_ref_crc32c(nullptr, 0));
    // RFC 3720 (iSCSI) B.4: 32 bytes of 00, of FF, ascending 00..1F, descending 1F..00.
    struct Vec {
        const char* name;
        std::vector<uint8_t> msg;
        uint32_t crc;
    };
    std::vector<Vec> vecs = {{"32 x 00", std::vector<uint8_t>(32, 0x00), 0x8A9136AAu},
                             {"32 x FF", std::vector<uint8_t>(32, 0xFF), 0x62A8AB43u},
                             {"00..1F", {}, 0x46DD794Eu},
                             {"1F..00", {}, 0x113FDB5Cu},
                             {"123456789", check9, 0xE3069283u}};
    for (unsigned i = 0; i < 32; i++) {
        vecs[2].msg.push_back((uint8_t)i);
        vecs[3].msg.push_back((uint8_t)(31 - i));
    }
    for (const auto& v : vecs) {
        uint32_t c = kolo_ref_crc32c(v.msg.data(), v.msg.size());
        chk.check(c == v.crc, "C CRC-32C(%s) = %08x, want %08x", v.name, c, v.crc);
        uint32_t r = rtl_crc32c(v.msg);
        chk.check(r == v.crc, "RTL CRC-32C(%s) = %08x, want %08x", v.name, r, v.crc);
    }
    // The word step and the byte step are the same function.
    for (unsigned n = 0; n < 10000; n++) {
        uint32_t reg = (uint32_t)rng.next();
        uint64_t w = rng.next();
        std::vector<uint8_t> b;
        put_word(b, w);
        chk.check(kolo_ref_crc32c_update(reg, w) == kolo_ref_crc32c_raw(reg, b.data(), 8),
                  "C word step != byte step for reg %08x word %016llx", reg, (unsigned long long)w);
    }

    // ---- 2. RTL step against the C step ---------------------------------------
    unsigned long steps = 0;
    const unsigned long kSteps = 1000000;
    for (unsigned long n = 0; n < kSteps + 64 + 32; n++) {
        uint32_t reg;
        uint64_t w, w2 = rng.next();
        if (n < 64) {  // single data bits from a zero register
            reg = 0;
            w = 1ull << n;
        } else if (n < 96) {  // single register bits with zero data
            reg = 1u << (n - 64);
            w = 0;
        } else {
            reg = (uint32_t)rng.next();
            w = rng.next();
            switch (rng.below(8)) {  // some sparse and saturated operands
                case 0: w = 0; break;
                case 1: w = ~0ull; break;
                case 2: reg = 0xFFFFFFFFu; break;
                case 3: w &= rng.next() & rng.next(); break;
                default: break;
            }
        }
        dut->crc_in = reg;
        dut->data = w;
        dut->data2 = w2;
        dut->eval();
        uint32_t want = kolo_ref_crc32c_update(reg, w), want2 = kolo_ref_crc32c_update(want, w2);
        chk.check(dut->crc_out == want, "step reg %08x word %016llx: RTL %08x, C %08x", reg,
                  (unsigned long long)w, dut->crc_out, want);
        chk.check(dut->crc2_out == want2, "two steps reg %08x words %016llx %016llx: RTL %08x, C %08x", reg,
                  (unsigned long long)w, (unsigned long long)w2, dut->crc2_out, want2);
        chk.check(dut->crc2x_out == want2, "kolo_crc32c_64x2 reg %08x words %016llx %016llx: RTL %08x, C %08x",
                  reg, (unsigned long long)w, (unsigned long long)w2, dut->crc2x_out, want2);
        steps++;
        if (chk.failures() > 20) break;
    }

    // ---- 3. RTL chained over random messages against the bytewise C CRC ------
    unsigned long msgs = 0, msg_bytes = 0;
    for (unsigned n = 0; n < 20000 && chk.failures() <= 20; n++) {
        size_t len = rng.below(8) == 0 ? rng.below(8) : rng.below(300);
        if (rng.chance(50)) len &= ~(size_t)7;  // half of them whole words only
        std::vector<uint8_t> msg(len);
        for (auto& b : msg) b = (uint8_t)rng.next();
        uint32_t want = kolo_ref_crc32c(msg.data(), msg.size()), got = rtl_crc32c(msg);
        chk.check(got == want, "message of %zu bytes: RTL %08x, bytewise C %08x", len, got, want);
        msgs++;
        msg_bytes += len;
    }

    // ---- 4. CRC-8 -------------------------------------------------------------
    struct Vec8 {
        uint64_t data56;
        uint8_t crc;
    };
    // By hand: x^8 mod P = 0x07, so a 1 in the last byte gives 0x07; a 1 in
    // bit 0 of byte 0 is x^56 mod P = 0xDF (0x07 -> 15 -> 6B -> 16 -> 62 -> 29
    // -> DF, one multiplication by x^8 per following byte).
    const Vec8 v8[] = {{0, 0x00}, {1ull << 48, 0x07}, {1ull << 0, 0xDF}};
    for (const auto& v : v8) {
        dut->c8_data = v.data56;
        dut->eval();
        chk.check(kolo_ref_crc8_56(v.data56) == v.crc, "C CRC-8(%014llx) = %02x, want %02x",
                  (unsigned long long)v.data56, kolo_ref_crc8_56(v.data56), v.crc);
        chk.check(dut->c8_crc == v.crc, "RTL CRC-8(%014llx) = %02x, want %02x", (unsigned long long)v.data56,
                  dut->c8_crc, v.crc);
    }
    unsigned long crc8_checks = 0;
    for (unsigned long n = 0; n < 200000 && chk.failures() <= 20; n++) {
        uint64_t d = rng.next();
        if (n < 56) d = 1ull << n;
        dut->c8_data = d & ((1ull << 56) - 1);
        dut->eval();
        uint8_t want = kolo_ref_crc8_56(d);  // bits [63:56] must be ignored
        chk.check(dut->c8_crc == want, "CRC-8 of %014llx: RTL %02x, C %02x",
                  (unsigned long long)(d & ((1ull << 56) - 1)), dut->c8_crc, want);
        crc8_checks++;
    }
    // Every 1- and 2-bit error of a control payload is caught by its CRC-8.
    for (unsigned n = 0; n < 4; n++) {
        uint64_t p = kolo_ref_ctrl_block(KOLO_BLK_CTRL, rng.next());
        chk.check(kolo_ref_ctrl_crc_ok(p), "fresh control block %016llx fails its CRC-8", (unsigned long long)p);
        for (unsigned a = 0; a < 64; a++) {
            chk.check(!kolo_ref_ctrl_crc_ok(p ^ (1ull << a)), "1-bit error %u in %016llx not detected", a,
                      (unsigned long long)p);
            for (unsigned b = a + 1; b < 64; b++)
                chk.check(!kolo_ref_ctrl_crc_ok(p ^ (1ull << a) ^ (1ull << b)),
                          "2-bit error %u,%u in %016llx not detected", a, b, (unsigned long long)p);
        }
    }
    const unsigned types[] = {KOLO_BLK_IDLE, KOLO_BLK_CC, KOLO_BLK_INIT, KOLO_BLK_CTRL, KOLO_BLK_EOF, KOLO_BLK_ABORT};
    for (unsigned a = 0; a < 6; a++) {
        chk.check(kolo_ref_blk_type_known(types[a]), "type %02x not known", types[a]);
        for (unsigned b = a + 1; b < 6; b++)
            chk.check(tb::popcount64(types[a] ^ types[b]) >= 4, "types %02x and %02x differ in < 4 bits",
                      types[a], types[b]);
    }
    for (unsigned t = 0; t < 256; t++) {
        bool known = false;
        for (unsigned k : types) known |= k == t;
        chk.check(kolo_ref_blk_type_known(t) == (int)known, "kolo_ref_blk_type_known(%02x) wrong", t);
    }
    for (uint64_t p : {kolo_ref_idle_block(), kolo_ref_cc_block(), kolo_ref_abort_block()})
        chk.check((p & 0x00FFFFFFFFFFFF00ull) == 0 && kolo_ref_ctrl_crc_ok(p) &&
                      (kolo_ref_blk_type(p) == KOLO_BLK_IDLE || kolo_ref_blk_type(p) == KOLO_BLK_CC ||
                       kolo_ref_blk_type(p) == KOLO_BLK_ABORT),
                  "IDLE/CC/ABORT payload %016llx: body not zero or bad CRC-8", (unsigned long long)p);

    // ---- 5. block helpers -----------------------------------------------------
    for (unsigned n = 0; n < 20000 && chk.failures() <= 20; n++) {
        kolo_ref_init in{(unsigned)rng.bits(12), (unsigned)rng.bits(3), (unsigned)rng.bits(1),
                         (unsigned)rng.bits(1), (unsigned)rng.bits(1)},
            io{};
        uint64_t p = kolo_ref_init_block(&in);
        kolo_ref_init_parse(p, &io);
        chk.check(kolo_ref_blk_type(p) == KOLO_BLK_INIT && kolo_ref_ctrl_crc_ok(p) && (p & 0x00FFFFFFFC000000ull) == 0 &&
                      io.node_id == in.node_id && io.port == in.port && io.fresh == in.fresh &&
                      io.seen == in.seen && io.ready == in.ready,
                  "INIT round trip %016llx", (unsigned long long)p);

        kolo_ref_ctrl cm{(unsigned)rng.bits(12), (unsigned)rng.bits(1),
                         {(unsigned)rng.bits(8), (unsigned)rng.bits(8), (unsigned)rng.bits(8), (unsigned)rng.bits(8)}},
            co{};
        p = kolo_ref_ctrl_msg_block(&cm);
        kolo_ref_ctrl_msg_parse(p, &co);
        bool ok = kolo_ref_blk_type(p) == KOLO_BLK_CTRL && kolo_ref_ctrl_crc_ok(p) && ((p >> 21) & 7) == 0 &&
                  co.ack == cm.ack && co.nak == cm.nak && ((p >> 24) & 0xFF) == cm.credits[0];
        for (unsigned k = 0; k < 4; k++) ok &= co.credits[k] == cm.credits[k];
        chk.check(ok, "CTRL round trip %016llx", (unsigned long long)p);

        unsigned seq = (unsigned)rng.bits(12), vc = (unsigned)rng.bits(2), nblk = 2 + rng.below(33);
        std::vector<uint64_t> data(nblk);
        for (auto& w : data) w = rng.next();
        uint64_t eof = kolo_ref_frame_eof(data.data(), nblk, seq, vc);
        kolo_ref_eof so{};
        kolo_ref_eof_parse(eof, &so);
        // The frame CRC, bytewise: data bytes, then the EOF bytes with [63:32] zero.
        std::vector<uint8_t> bytes;
        for (auto w : data) put_word(bytes, w);
        uint64_t hdr = 0x78u | (uint64_t)seq << 8 | (uint64_t)vc << 20 | (uint64_t)nblk << 22;
        put_word(bytes, hdr);
        uint32_t want = kolo_ref_crc32c(bytes.data(), bytes.size());
        chk.check(kolo_ref_blk_type(eof) == KOLO_BLK_EOF && so.seq == seq && so.vc == vc && so.nblk == nblk &&
                      so.crc == want && (uint32_t)eof == (uint32_t)hdr &&
                      kolo_ref_eof_header(seq, vc, nblk) == hdr && rtl_crc32c(bytes) == want,
                  "EOF/frame CRC seq %u vc %u nblk %u: EOF %016llx, bytewise CRC %08x", seq, vc, nblk,
                  (unsigned long long)eof, want);
        chk.check(kolo_ref_frame_crc_ok(eof, data.data(), nblk), "frame CRC check rejects a good frame");
        unsigned bit = rng.below(64 * nblk);
        data[bit / 64] ^= 1ull << (bit % 64);
        chk.check(!kolo_ref_frame_crc_ok(eof, data.data(), nblk), "frame CRC misses data bit error %u", bit);
        data[bit / 64] ^= 1ull << (bit % 64);
        unsigned hbit = 8 + rng.below(14);  // seq or vc
        chk.check(!kolo_ref_frame_crc_ok(eof ^ (1ull << hbit), data.data(), nblk),
                  "frame CRC misses EOF header bit error %u", hbit);
    }

    char summary[256];
    std::snprintf(summary, sizeof summary,
                  "check values OK, %lu RTL steps, %lu messages (%lu bytes), %lu CRC-8 inputs", steps, msgs,
                  msg_bytes, crc8_checks);
    dut->final();
    return chk.finish(seed, summary);
}
