`default_nettype none
// tb_lane_channel - testbench lane between two kolo_link ends in the torus
// testbench: DELAY words of propagation, random single-bit errors (one flip
// in a word with probability err_threshold / 2^32, so BER = that / 66), a
// block boundary that moves one bit on each slip request, and a cut: while
// `cut` is high the far end receives nothing but zeros (invalid sync
// headers: a broken cable). Not synthesizable
// for a board: it stands for a cable and two transceivers.
module tb_lane_channel #(
    parameter LANES = 1,
    parameter DELAY = 4
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire [31:0]           seed,     // a port, not a parameter: one compiled channel serves all
    input  wire [31:0]           err_threshold,
    input  wire [66*LANES-1:0]   in_data,
    output wire [66*LANES-1:0]   out_data,
    input  wire [LANES-1:0]      slip,
    input  wire                  cut
);
  /*verilator hier_block*/
  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : g_lane
      reg [65:0] line[0:DELAY-1];
      reg [65:0] prev;
      reg [6:0]  offset;
      reg [31:0] rnd;
      wire [31:0] r1 = rnd ^ (rnd << 13);
      wire [31:0] r2 = r1 ^ (r1 >> 17);
      wire [31:0] r3 = r2 ^ (r2 << 5);
      wire [131:0] stream = {line[DELAY-1], prev};
      wire [131:0] window = stream >> offset;
      reg [65:0] word;
      integer i;
      always @* begin
        word = in_data[l*66+:66];
        if (r3 < err_threshold) word[(r3 >> 8) % 66] = ~word[(r3 >> 8) % 66];
      end
      always @(posedge clk) begin
        if (rst) begin
          rnd <= seed ^ (32'h9E3779B9 * (l + 1));
          offset <= 7'd0;
          prev <= 66'd0;
          for (i = 0; i < DELAY; i = i + 1) line[i] <= 66'd0;
        end else begin
          rnd <= r3;
          line[0] <= word;
          for (i = 1; i < DELAY; i = i + 1) line[i] <= line[i-1];
          prev <= line[DELAY-1];
          if (slip[l]) offset <= (offset == 7'd65) ? 7'd0 : offset + 7'd1;
        end
      end
      assign out_data[l*66+:66] = cut ? 66'd0 : window[65:0];
    end
  endgenerate
endmodule
`default_nettype wire
