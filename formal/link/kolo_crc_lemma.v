`default_nettype none
// kolo_crc_lemma - the frame CRC of a 2-flit frame of the formal harness's
// domain, computed by the real CRC-32C cell (rtl/link/kolo_crc32c_64.v)
// chained as kolo_link_tx and kolo_link_rx chain it: from 32'hFFFFFFFF over
// the two data words, then over the EOF word with crc = 0.
// Data words: {VC, 6-bit flit number}; EOF fields: sequence number (SEQ_W),
// VC, length.
//
// crc_lemma.py evaluates this module (yosys `eval`) at the zero frame and at
// the 28 frames with one field bit set. The CRC is affine over GF(2), so
// crc(x) ^ crc(0) is linear in x; the lemma "no two different frames of the
// domain share a CRC" holds exactly when the 28 columns crc(e_i) ^ crc(0)
// are linearly independent (rank 28). A SAT solver cannot do this: the
// direct collision query ran for minutes without an answer (XOR chains).
module kolo_crc_lemma #(
    parameter SEQ_W = 4
) (
    input  wire [1:0]       vc0, vc1,   // data words: VC ...
    input  wire [5:0]       n0, n1,     // ... and flit number
    input  wire [SEQ_W-1:0] seq,        // EOF fields
    input  wire [1:0]       vc,
    input  wire [5:0]       len,
    output wire [31:0]      crc
);
  `include "kolo_link_defs.vh"

  wire [31:0] c1, c2;
  kolo_crc32c_64 u_c1 (.crc_in(32'hFFFF_FFFF), .data({54'd0, vc0, 2'b00, n0}), .crc_out(c1));
  kolo_crc32c_64 u_c2 (.crc_in(c1), .data({54'd0, vc1, 2'b00, n1}), .crc_out(c2));
  kolo_crc32c_64 u_c3 (.crc_in(c2), .data(kolo_eof_word(seq, vc, len, 32'd0)), .crc_out(crc));
endmodule
`default_nettype wire
