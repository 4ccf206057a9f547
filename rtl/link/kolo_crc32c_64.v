`default_nettype none
// kolo_crc32c_64 - one 64-bit step of CRC-32C (Castagnoli), combinational.
//
// Reflected CRC, polynomial 0x82F63B78 (x^32 + x^28 + x^27 + x^26 + x^25 +
// x^23 + x^22 + x^20 + x^19 + x^18 + x^14 + x^13 + x^11 + x^10 + x^9 + x^8 +
// x^6 + 1, bit-reversed). The 8 bytes of data are processed in order, byte 0
// = data[7:0] first, each byte bit 0 first, so data bit k is the k-th bit of
// the step: the usual LSB-first software CRC over the bytes of a
// little-endian 64-bit word.
// crc_in/crc_out are the raw CRC register: no initial value or final xor is
// applied here. A full CRC-32C starts from 32'hFFFFFFFF, chains this step
// over the words and xors the last crc_out with 32'hFFFFFFFF
// (CRC-32C("123456789") = 32'hE3069283). See docs/link.md.
//
// Structure: the step is linear over GF(2), so each output bit is the XOR of
// a fixed set of input bits. The sets are computed at elaboration
// (kolo_crc32c_masks.vh, from the bit-serial shift register) and each bit is
// one flat XOR of up to 96 inputs: 3 levels of 6-input LUTs, 4 of LUT4s.
// (Unrolling the shift register in the netlist instead leaves a chain that
// the mappers do not flatten: 14 LUT4 levels on the ECP5.)
module kolo_crc32c_64 (
    input  wire [31:0] crc_in,
    input  wire [63:0] data,
    output wire [31:0] crc_out
);
  `include "kolo_crc32c_masks.vh"

  genvar i;
  generate
    for (i = 0; i < 32; i = i + 1) begin : g_bit
      localparam [31:0] MC = kolo_crc32c_mask_c(1, i);
      localparam [63:0] MD = kolo_crc32c_mask_d(0, i);
      assign crc_out[i] = ^{crc_in & MC, data & MD};
    end
  endgenerate
endmodule
`default_nettype wire
