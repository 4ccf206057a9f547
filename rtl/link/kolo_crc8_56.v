`default_nettype none
// kolo_crc8_56 - CRC-8 of a control block's payload bytes 0..6, combinational.
//
// Polynomial x^8 + x^2 + x + 1 (0x07), initial value 0, no reflection, no
// final xor. Bytes are processed in order, byte 0 = data[7:0] first, each
// byte most significant bit first. The result goes into payload[63:56] of a
// control block (docs/link.md).
// The CRC is linear in the data, so each output bit is one flat XOR of the
// data bits it depends on; the masks are computed at elaboration from the
// bit-serial shift register (crc56 below), which the netlist never contains
// (unrolled, it leaves a chain the mappers do not flatten).
module kolo_crc8_56 (
    input  wire [55:0] data,
    output wire [7:0]  crc
);
  localparam [7:0] POLY = 8'h07;

  function automatic [7:0] crc56(input [55:0] d);
    integer b;
    integer j;
    reg [7:0] r;
    reg fb;
    begin
      r = 8'h00;
      for (b = 0; b < 7; b = b + 1) begin
        for (j = 7; j >= 0; j = j - 1) begin
          fb = r[7] ^ d[8*b+j];
          r  = {r[6:0], 1'b0} ^ (fb ? POLY : 8'h00);
        end
      end
      crc56 = r;
    end
  endfunction

  // the data bits that CRC bit i depends on
  function automatic [55:0] mask(input [2:0] i);
    integer k;
    reg [7:0] r;
    begin
      mask = 56'd0;
      for (k = 0; k < 56; k = k + 1) begin
        r = crc56(56'd1 << k);
        mask[k] = r[i];
      end
    end
  endfunction

  genvar i;
  generate
    for (i = 0; i < 8; i = i + 1) begin : g_bit
      localparam [55:0] M = mask(i[2:0]);
      assign crc[i] = ^(data & M);
    end
  endgenerate
endmodule
`default_nettype wire
