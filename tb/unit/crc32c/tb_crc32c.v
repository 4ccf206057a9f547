`default_nettype none
// tb_crc32c - unit-test top for the link's CRC cells: one kolo_crc32c_64 step
// (crc_in, data -> crc_out), a chain of two steps over 16 bytes (crc_in,
// data, data2 -> crc2_out), the same two steps in one kolo_crc32c_64x2
// (-> crc2x_out), and one kolo_crc8_56 (c8_data -> c8_crc).
module tb_crc32c (
    input  wire [31:0] crc_in,
    input  wire [63:0] data,
    input  wire [63:0] data2,
    output wire [31:0] crc_out,
    output wire [31:0] crc2_out,
    output wire [31:0] crc2x_out,
    input  wire [55:0] c8_data,
    output wire [7:0]  c8_crc
);
  kolo_crc32c_64 u_step (
      .crc_in (crc_in),
      .data   (data),
      .crc_out(crc_out)
  );
  kolo_crc32c_64 u_step2 (
      .crc_in (crc_out),
      .data   (data2),
      .crc_out(crc2_out)
  );
  kolo_crc32c_64x2 u_step_x2 (
      .crc_in (crc_in),
      .data0  (data),
      .data1  (data2),
      .crc_out(crc2x_out)
  );
  kolo_crc8_56 u_crc8 (
      .data(c8_data),
      .crc (c8_crc)
  );
endmodule
`default_nettype wire
