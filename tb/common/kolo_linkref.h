/* kolo_linkref.h - C reference models of the reliable link's bit-level
 * functions (docs/link.md): CRC-32C, CRC-8, the x^58 + x^39 + 1 scrambler and
 * descrambler, block type codes, control-block and EOF payloads, and the
 * frame CRC. Everything is written bit-serially from the polynomials, as the
 * plain definition, so that it can check the parallel RTL
 * (rtl/link/kolo_crc32c_64.v, kolo_crc8_56.v, kolo_scrambler.v,
 * kolo_descrambler.v).
 *
 * Header only, static inline functions, no globals; compiles as C11 and as
 * C++17. A block payload is a uint64_t with bit i = payload bit i (byte 0 =
 * bits [7:0]); the 2-bit sync header is kept separately (KOLO_SYNC_*).
 *
 * API (names are stable; the link testbenches use them):
 *   CRC-32C (Castagnoli, reflected, poly 0x82F63B78):
 *     uint32_t kolo_ref_crc32c(const uint8_t *buf, size_t len)
 *         full CRC: init 0xFFFFFFFF, final xor 0xFFFFFFFF.
 *     uint32_t kolo_ref_crc32c_raw(uint32_t raw_reg, const uint8_t *buf, size_t len)
 *         raw register over bytes, no init/final xor.
 *     uint32_t kolo_ref_crc32c_update(uint32_t raw_reg, uint64_t word)
 *         raw register over the 8 bytes of word, byte 0 = [7:0] first;
 *         the same function as the RTL kolo_crc32c_64.
 *   CRC-8 (poly 0x07, init 0, MSB first, no reflection, no final xor):
 *     uint8_t kolo_ref_crc8(const uint8_t *buf, size_t len)
 *     uint8_t kolo_ref_crc8_56(uint64_t data56)
 *         over bytes 0..6 of data56 ([7:0] first; bits 63:56 ignored);
 *         the same function as the RTL kolo_crc8_56.
 *   Scrambler x^58 + x^39 + 1, bit 0 first in time:
 *     KOLO_SCRAMBLER_STATE_INIT   state after reset (58 ones)
 *     uint64_t kolo_ref_scramble(uint64_t *state58, uint64_t in)
 *     uint64_t kolo_ref_descramble(uint64_t *state58, uint64_t in)
 *         one 64-bit word; *state58 is updated (the RTL with en = 1).
 *         State layout as in the RTL: bit k = stream bit n-58+k when bit n
 *         is next, i.e. bit 57 the most recent bit, bit 0 the oldest.
 *   Blocks:
 *     KOLO_SYNC_DATA (2'b01), KOLO_SYNC_CTRL (2'b10)
 *     KOLO_BLK_IDLE 0x1E, KOLO_BLK_CC 0x2D, KOLO_BLK_INIT 0x4B,
 *     KOLO_BLK_CTRL 0x55, KOLO_BLK_EOF 0x78, KOLO_BLK_ABORT 0x33
 *     int      kolo_ref_blk_type_known(unsigned type)
 *     uint64_t kolo_ref_ctrl_block(unsigned type, uint64_t body48)
 *         control payload {crc8, body48, type}; body48 = payload bits [55:8].
 *     int      kolo_ref_ctrl_crc_ok(uint64_t payload)
 *     unsigned kolo_ref_blk_type(uint64_t payload)
 *     uint64_t kolo_ref_ctrl_body(uint64_t payload)     bits [55:8] >> 8
 *     uint64_t kolo_ref_idle_block(void), kolo_ref_cc_block(void), kolo_ref_abort_block(void)
 *     uint64_t kolo_ref_init_block(const struct kolo_ref_init *f)
 *     void     kolo_ref_init_parse(uint64_t payload, struct kolo_ref_init *f)
 *     uint64_t kolo_ref_ctrl_msg_block(const struct kolo_ref_ctrl *f)
 *     void     kolo_ref_ctrl_msg_parse(uint64_t payload, struct kolo_ref_ctrl *f)
 *     uint64_t kolo_ref_eof_header(unsigned seq, unsigned vc, unsigned nblk)
 *         EOF payload with [63:32] zero (what the frame CRC covers).
 *     uint64_t kolo_ref_eof_block(unsigned seq, unsigned vc, unsigned nblk, uint32_t crc)
 *     void     kolo_ref_eof_parse(uint64_t payload, struct kolo_ref_eof *f)
 *   Frame CRC (docs/link.md: data payloads in order, then the EOF payload
 *   with [63:32] zero; init and final xor 0xFFFFFFFF):
 *     uint32_t kolo_ref_frame_crc32c(const uint64_t *data, size_t nblk,
 *                                    unsigned seq, unsigned vc)
 *     uint64_t kolo_ref_frame_eof(const uint64_t *data, size_t nblk,
 *                                 unsigned seq, unsigned vc)
 *         the complete EOF payload, CRC included.
 *     int      kolo_ref_frame_crc_ok(uint64_t eof, const uint64_t *data, size_t nblk)
 *         1 if the EOF's length is nblk and its CRC matches the data.
 */
#ifndef KOLO_LINKREF_H
#define KOLO_LINKREF_H

#include <stddef.h>
#include <stdint.h>

/* ---- CRC-32C ------------------------------------------------------------- */

#define KOLO_CRC32C_POLY 0x82F63B78u /* reflected x^32+x^28+...+x^6+1 */
#define KOLO_CRC32C_INIT 0xFFFFFFFFu
#define KOLO_CRC32C_XOROUT 0xFFFFFFFFu

/* One bit into the raw reflected register. */
static inline uint32_t kolo_ref_crc32c_bit(uint32_t reg, unsigned bit) {
    uint32_t fb = (reg ^ (uint32_t)bit) & 1u;
    return (reg >> 1) ^ (fb ? KOLO_CRC32C_POLY : 0u);
}

/* Raw register over len bytes, each bit 0 first; no init, no final xor. */
static inline uint32_t kolo_ref_crc32c_raw(uint32_t raw_reg, const uint8_t *buf, size_t len) {
    size_t i;
    unsigned j;
    for (i = 0; i < len; i++)
        for (j = 0; j < 8; j++) raw_reg = kolo_ref_crc32c_bit(raw_reg, (buf[i] >> j) & 1u);
    return raw_reg;
}

/* Full CRC-32C of a byte string; kolo_ref_crc32c("123456789", 9) = 0xE3069283. */
static inline uint32_t kolo_ref_crc32c(const uint8_t *buf, size_t len) {
    return kolo_ref_crc32c_raw(KOLO_CRC32C_INIT, buf, len) ^ KOLO_CRC32C_XOROUT;
}

/* Raw register over the 8 bytes of word, byte 0 = word[7:0] first, i.e. word
 * bit k is the k-th bit in. Same function as RTL kolo_crc32c_64. */
static inline uint32_t kolo_ref_crc32c_update(uint32_t raw_reg, uint64_t word) {
    unsigned k;
    for (k = 0; k < 64; k++) raw_reg = kolo_ref_crc32c_bit(raw_reg, (unsigned)(word >> k) & 1u);
    return raw_reg;
}

/* ---- CRC-8 ---------------------------------------------------------------- */

#define KOLO_CRC8_POLY 0x07u /* x^8 + x^2 + x + 1 */

/* CRC-8 of a byte string: init 0, MSB first, no reflection, no final xor
 * (kolo_ref_crc8("123456789", 9) = 0xF4). */
static inline uint8_t kolo_ref_crc8(const uint8_t *buf, size_t len) {
    unsigned reg = 0;
    size_t i;
    int j;
    for (i = 0; i < len; i++) {
        for (j = 7; j >= 0; j--) {
            unsigned fb = ((reg >> 7) ^ (buf[i] >> j)) & 1u;
            reg = ((reg << 1) & 0xFFu) ^ (fb ? KOLO_CRC8_POLY : 0u);
        }
    }
    return (uint8_t)reg;
}

/* CRC-8 over bytes 0..6 of data56 (byte 0 = [7:0] first); bits [63:56] are
 * ignored. Same function as RTL kolo_crc8_56. */
static inline uint8_t kolo_ref_crc8_56(uint64_t data56) {
    uint8_t b[7];
    unsigned i;
    for (i = 0; i < 7; i++) b[i] = (uint8_t)(data56 >> (8 * i));
    return kolo_ref_crc8(b, 7);
}

/* ---- scrambler x^58 + x^39 + 1 ------------------------------------------- */

#define KOLO_SCRAMBLER_MASK58 0x03FFFFFFFFFFFFFFull
#define KOLO_SCRAMBLER_STATE_INIT KOLO_SCRAMBLER_MASK58 /* after rst: all ones */

/* Scramble one word, bit 0 first: s_i = d_i ^ s_{i-39} ^ s_{i-58}. *state58
 * holds the last 58 scrambled bits (bit 57 the latest) and is updated. */
static inline uint64_t kolo_ref_scramble(uint64_t *state58, uint64_t in) {
    uint64_t st = *state58 & KOLO_SCRAMBLER_MASK58, out = 0;
    unsigned i;
    for (i = 0; i < 64; i++) {
        uint64_t s = ((in >> i) ^ (st >> 19) ^ st) & 1u; /* st bit 19 = s_{i-39}, bit 0 = s_{i-58} */
        out |= s << i;
        st = (st >> 1) | (s << 57);
    }
    *state58 = st;
    return out;
}

/* Descramble one word, bit 0 first: d_i = s_i ^ s_{i-39} ^ s_{i-58}, s the
 * received bits. *state58 holds the last 58 received bits and is updated. */
static inline uint64_t kolo_ref_descramble(uint64_t *state58, uint64_t in) {
    uint64_t st = *state58 & KOLO_SCRAMBLER_MASK58, out = 0;
    unsigned i;
    for (i = 0; i < 64; i++) {
        uint64_t s = (in >> i) & 1u;
        out |= ((s ^ (st >> 19) ^ st) & 1u) << i;
        st = (st >> 1) | (s << 57);
    }
    *state58 = st;
    return out;
}

/* ---- blocks ---------------------------------------------------------------- */

#define KOLO_SYNC_DATA 0x1u /* block[65:64] = 2'b01 */
#define KOLO_SYNC_CTRL 0x2u /* block[65:64] = 2'b10 */

/* Control block type codes, payload [7:0] (extended Hamming [8,4,4] words). */
#define KOLO_BLK_IDLE 0x1Eu
#define KOLO_BLK_CC 0x2Du
#define KOLO_BLK_INIT 0x4Bu
#define KOLO_BLK_CTRL 0x55u
#define KOLO_BLK_EOF 0x78u
#define KOLO_BLK_ABORT 0x33u

#define KOLO_BODY48_MASK 0x0000FFFFFFFFFFFFull

/* 1 if type is one of the six codes above. */
static inline int kolo_ref_blk_type_known(unsigned type) {
    return type == KOLO_BLK_IDLE || type == KOLO_BLK_CC || type == KOLO_BLK_INIT ||
           type == KOLO_BLK_CTRL || type == KOLO_BLK_EOF || type == KOLO_BLK_ABORT;
}

/* Type field, payload [7:0]. */
static inline unsigned kolo_ref_blk_type(uint64_t payload) { return (unsigned)(payload & 0xFFu); }

/* Control payload (IDLE, CC, INIT, CTRL, ABORT): [7:0] type, [55:8] body48,
 * [63:56] CRC-8 over bytes 0..6. Not for EOF (no CRC-8). */
static inline uint64_t kolo_ref_ctrl_block(unsigned type, uint64_t body48) {
    uint64_t p = (uint64_t)(type & 0xFFu) | ((body48 & KOLO_BODY48_MASK) << 8);
    return p | ((uint64_t)kolo_ref_crc8_56(p) << 56);
}

/* 1 if payload[63:56] is the CRC-8 of payload bytes 0..6. */
static inline int kolo_ref_ctrl_crc_ok(uint64_t payload) {
    return (unsigned)(payload >> 56) == (unsigned)kolo_ref_crc8_56(payload);
}

/* Body, payload [55:8] shifted down to bit 0. */
static inline uint64_t kolo_ref_ctrl_body(uint64_t payload) { return (payload >> 8) & KOLO_BODY48_MASK; }

static inline uint64_t kolo_ref_idle_block(void) { return kolo_ref_ctrl_block(KOLO_BLK_IDLE, 0); }
static inline uint64_t kolo_ref_cc_block(void) { return kolo_ref_ctrl_block(KOLO_BLK_CC, 0); }
/* ABORT: ends a partial (cut-through) frame; the receiver drops its blocks. */
static inline uint64_t kolo_ref_abort_block(void) { return kolo_ref_ctrl_block(KOLO_BLK_ABORT, 0); }

/* INIT: [19:8] node id, [22:20] port, [23] fresh, [24] seen, [25] ready. */
struct kolo_ref_init {
    unsigned node_id; /* 12 bits */
    unsigned port;    /* 3 bits */
    unsigned fresh, seen, ready; /* 0/1 */
};

static inline uint64_t kolo_ref_init_block(const struct kolo_ref_init *f) {
    uint64_t p = (uint64_t)(f->node_id & 0xFFFu) << 8;
    p |= (uint64_t)(f->port & 7u) << 20;
    p |= (uint64_t)(f->fresh & 1u) << 23;
    p |= (uint64_t)(f->seen & 1u) << 24;
    p |= (uint64_t)(f->ready & 1u) << 25;
    return kolo_ref_ctrl_block(KOLO_BLK_INIT, p >> 8);
}

/* Fields of an INIT payload (type and CRC-8 not checked here). */
static inline void kolo_ref_init_parse(uint64_t payload, struct kolo_ref_init *f) {
    f->node_id = (unsigned)(payload >> 8) & 0xFFFu;
    f->port = (unsigned)(payload >> 20) & 7u;
    f->fresh = (unsigned)(payload >> 23) & 1u;
    f->seen = (unsigned)(payload >> 24) & 1u;
    f->ready = (unsigned)(payload >> 25) & 1u;
}

/* CTRL: [19:8] ack, [20] nak, [55:24] cumulative credits, 8 bits per VC
 * (VC k at [24+8k +: 8]); bits [23:21] zero. */
struct kolo_ref_ctrl {
    unsigned ack;        /* 12 bits: last accepted sequence number */
    unsigned nak;        /* 0/1 */
    unsigned credits[4]; /* 8 bits each, modulo 256 */
};

static inline uint64_t kolo_ref_ctrl_msg_block(const struct kolo_ref_ctrl *f) {
    uint64_t p = (uint64_t)(f->ack & 0xFFFu) << 8;
    unsigned k;
    p |= (uint64_t)(f->nak & 1u) << 20;
    for (k = 0; k < 4; k++) p |= (uint64_t)(f->credits[k] & 0xFFu) << (24 + 8 * k);
    return kolo_ref_ctrl_block(KOLO_BLK_CTRL, p >> 8);
}

/* Fields of a CTRL payload (type and CRC-8 not checked here). */
static inline void kolo_ref_ctrl_msg_parse(uint64_t payload, struct kolo_ref_ctrl *f) {
    unsigned k;
    f->ack = (unsigned)(payload >> 8) & 0xFFFu;
    f->nak = (unsigned)(payload >> 20) & 1u;
    for (k = 0; k < 4; k++) f->credits[k] = (unsigned)(payload >> (24 + 8 * k)) & 0xFFu;
}

/* EOF (after a frame's data blocks): [7:0] 0x78, [19:8] seq, [21:20] vc, [27:22] number of data blocks,
 * [31:28] zero, [63:32] frame CRC-32C. No CRC-8. */
struct kolo_ref_eof {
    unsigned seq;  /* 12 bits */
    unsigned vc;   /* 2 bits */
    unsigned nblk; /* 6 bits, 2..34 */
    uint32_t crc;
};

/* Low half of an EOF payload (the part the frame CRC covers): [63:32] zero. */
static inline uint64_t kolo_ref_eof_header(unsigned seq, unsigned vc, unsigned nblk) {
    return (uint64_t)KOLO_BLK_EOF | ((uint64_t)(seq & 0xFFFu) << 8) | ((uint64_t)(vc & 3u) << 20) |
           ((uint64_t)(nblk & 0x3Fu) << 22);
}

static inline uint64_t kolo_ref_eof_block(unsigned seq, unsigned vc, unsigned nblk, uint32_t crc) {
    return kolo_ref_eof_header(seq, vc, nblk) | ((uint64_t)crc << 32);
}

/* Fields of an EOF payload (type not checked here). */
static inline void kolo_ref_eof_parse(uint64_t payload, struct kolo_ref_eof *f) {
    f->seq = (unsigned)(payload >> 8) & 0xFFFu;
    f->vc = (unsigned)(payload >> 20) & 3u;
    f->nblk = (unsigned)(payload >> 22) & 0x3Fu;
    f->crc = (uint32_t)(payload >> 32);
}

/* ---- frame CRC ------------------------------------------------------------- */

/* CRC-32C of a frame: init 0xFFFFFFFF, the nblk data payloads in order (each
 * byte 0 = [7:0] first), then the EOF payload with [63:32] zero, final xor
 * 0xFFFFFFFF. nblk is also the EOF length field. */
static inline uint32_t kolo_ref_frame_crc32c(const uint64_t *data, size_t nblk, unsigned seq, unsigned vc) {
    uint32_t reg = KOLO_CRC32C_INIT;
    size_t i;
    for (i = 0; i < nblk; i++) reg = kolo_ref_crc32c_update(reg, data[i]);
    reg = kolo_ref_crc32c_update(reg, kolo_ref_eof_header(seq, vc, (unsigned)nblk));
    return reg ^ KOLO_CRC32C_XOROUT;
}

/* The complete EOF payload of a frame, CRC included. */
static inline uint64_t kolo_ref_frame_eof(const uint64_t *data, size_t nblk, unsigned seq, unsigned vc) {
    return kolo_ref_eof_block(seq, vc, (unsigned)nblk, kolo_ref_frame_crc32c(data, nblk, seq, vc));
}

/* 1 if an EOF payload's CRC matches the nblk data payloads before it
 * (nblk must equal the EOF's length field for a good frame). */
static inline int kolo_ref_frame_crc_ok(uint64_t eof, const uint64_t *data, size_t nblk) {
    struct kolo_ref_eof f;
    kolo_ref_eof_parse(eof, &f);
    return f.nblk == nblk && kolo_ref_frame_crc32c(data, nblk, f.seq, f.vc) == f.crc;
}

#endif /* KOLO_LINKREF_H */
