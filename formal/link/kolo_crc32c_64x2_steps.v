`default_nettype none
// kolo_crc32c_64x2 (formal) - replaces rtl/link/kolo_crc32c_64x2.v in the
// link proofs run with `formal_link.sh -abs-crc` or `-blind-crc`: two steps
// of whichever kolo_crc32c_64 the run loads (kolo_crc32c_64_abs.v, or the
// negative control kolo_crc32c_64_blind.v) in a row, which is what the real
// cell computes with the real step (unit-crc32c checks that against C).
module kolo_crc32c_64x2 (
    input  wire [31:0] crc_in,
    input  wire [63:0] data0,
    input  wire [63:0] data1,
    output wire [31:0] crc_out
);
  wire [31:0] mid;
  kolo_crc32c_64 u_step0 (.crc_in(crc_in), .data(data0), .crc_out(mid));
  kolo_crc32c_64 u_step1 (.crc_in(mid), .data(data1), .crc_out(crc_out));
endmodule
`default_nettype wire
