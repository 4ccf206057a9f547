`default_nettype none
// kolo_crc32c_64 (formal abstraction) - replaces rtl/link/kolo_crc32c_64.v in
// the link proofs run with `formal_link.sh -abs-crc`. The XOR network of the
// real CRC-32C costs the SAT solver about ten BMC steps; this version
// computes no CRC: it packs the fields that the harness's data can carry into
// the 32-bit register, so that two frames get the same value exactly when
// those fields are equal.
//
// Domain (what kolo_link_formal.v sends, with NUM_W <= 6):
//   data word:  [9:8] VC, [5:0] flit number, every other bit 0
//   EOF word with crc = 0 (the trailer the CRC ends with): [7:0] 0x78,
//     [11:8] sequence number (SEQ_W = 4), [21:20] VC, [27:22] length
//   the zero word (kolo_link_rx folds one in: half of its EOF check)
// Like the real CRC the cell is linear over GF(2) in (crc_in, data) jointly:
// crc_out = (crc_in << 12) ^ P(data), P a bit selection with no dependence
// on the word's type, so step(c, w) = step(c, 0) ^ step(0, w), the identity
// kolo_link_rx's split EOF check rests on. P puts a data word's 8 field bits
// at [7:0] ({flit number, VC}) and an EOF's 12 at [11:0] ({VC, seq[3:2],
// length ^ 0x38, seq[1:0]}: bits [5:0] of the type are the constant 0x38).
// For a 2-flit frame the final value is {P(d0)[7:0], P(d1), P(trailer)}
// (the initial value is shifted out), injective in (d0, d1, trailer). Bits
// outside the domain are ignored (a word the design never sends: only
// uninitialised memory could hold one, and a delivered flit with such bits
// fails the harness's data check anyway).
//
// Soundness rests on the lemma that the real CRC-32C is injective on the same
// domain (no two different 2-flit frames of it share a CRC-32C), so that on
// every frame the harness can produce the receiver accepts exactly what it
// accepts with the real CRC. formal/link/kolo_crc_lemma.v proves the lemma
// (`formal_link.sh -mode lemma`).
module kolo_crc32c_64 (
    input  wire [31:0] crc_in,
    input  wire [63:0] data,
    output wire [31:0] crc_out
);
  wire [11:0] packed_fields = {data[21:20], data[11:10], data[5:0] ^ data[27:22], data[9:8]};
  assign crc_out = {crc_in[19:0], 12'd0} ^ {20'd0, packed_fields};
  wire unused = &{1'b0, crc_in[31:20], data[63:28], data[19:12], data[7:6]};
endmodule
`default_nettype wire
