`default_nettype none
// kolo_crc32c_64x2 - two chained 64-bit CRC-32C steps, combinational:
// crc_out = step(step(crc_in, data0), data1), with step as in kolo_crc32c_64
// (raw register, no initial value or final xor; data0's bytes first).
//
// Two kolo_crc32c_64 cells in a row would put two XOR trees one after the
// other (6 LUT6 levels); this cell computes the composed linear map directly,
// each output bit one flat XOR of up to 160 inputs (3 LUT6 levels). The link
// uses it where a frame's last data word and its trailer (the EOF word) are
// folded in the same cycle (kolo_link_tx), and for a data word followed by a
// zero word (kolo_link_rx: half of the EOF check).
module kolo_crc32c_64x2 (
    input  wire [31:0] crc_in,
    input  wire [63:0] data0,
    input  wire [63:0] data1,
    output wire [31:0] crc_out
);
  `include "kolo_crc32c_masks.vh"

  genvar i;
  generate
    for (i = 0; i < 32; i = i + 1) begin : g_bit
      localparam [31:0] MC = KOLO_CRC32C_MC2[i*32 +: 32];
      localparam [63:0] MD0 = KOLO_CRC32C_MD1[i*64 +: 64];
      localparam [63:0] MD1 = KOLO_CRC32C_MD0[i*64 +: 64];
      assign crc_out[i] = ^{crc_in & MC, data0 & MD0, data1 & MD1};
    end
  endgenerate
endmodule
`default_nettype wire
