`default_nettype none
// tb_fifo_sync - unit-test top: four independent kolo_fifo_sync instances
// ("lanes") of different depths, so that one Verilator build covers a
// minimal, a power-of-two, an odd and the router's depth. Lane k uses bits
// [k*16+:16] of the data buses and [k*8+:8] of count.
module tb_fifo_sync (
    input  wire        clk,
    input  wire        rst,
    input  wire [3:0]  in_valid,
    output wire [3:0]  in_ready,
    input  wire [63:0] in_data,
    output wire [3:0]  out_valid,
    input  wire [3:0]  out_ready,
    output wire [63:0] out_data,
    output wire [31:0] count
);
  localparam [31:0] DEPTHS = {8'd80, 8'd5, 8'd4, 8'd2};
  genvar k;
  generate
    for (k = 0; k < 4; k = k + 1) begin : g_lane
      localparam integer D = {24'd0, DEPTHS[k*8+:8]};
      localparam integer CW = $clog2(D + 1);
      wire [CW-1:0] c;
      kolo_fifo_sync #(
          .WIDTH(16),
          .DEPTH(D)
      ) u_fifo (
          .clk(clk),
          .rst(rst),
          .in_valid(in_valid[k]),
          .in_ready(in_ready[k]),
          .in_data(in_data[k*16+:16]),
          .out_valid(out_valid[k]),
          .out_ready(out_ready[k]),
          .out_data(out_data[k*16+:16]),
          .count(c)
      );
      assign count[k*8+:8] = {{(8 - CW) {1'b0}}, c};
    end
  endgenerate
endmodule
`default_nettype wire
