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
//   SOF word with crc = 0 (the trailer the CRC ends with): [7:0] 0x66,
//     [11:8] sequence number (SEQ_W = 4), [21:20] VC, [27:22] length
// A data word adds 8 bits, a trailer word 12 bits, shifted in from the
// bottom: for a 2-flit frame the final value is {4'hF, d0, d1, trailer},
// which is injective in (d0, d1, trailer). Bits outside the domain are
// ignored (a word the design never sends: only uninitialised memory could
// hold one, and a delivered flit with such bits fails the harness's data
// check anyway).
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
  wire is_trailer = data[7:0] == 8'h66;   // a data word has [7:6] = 0
  assign crc_out = is_trailer ? {crc_in[19:0], data[27:20], data[11:8]}
                              : {crc_in[23:0], data[9:8], data[5:0]};
  wire unused = &{1'b0, data[63:28], data[19:12], data[7:6]};
endmodule
`default_nettype wire
