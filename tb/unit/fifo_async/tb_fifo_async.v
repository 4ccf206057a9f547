`default_nettype none
// tb_fifo_async - unit-test top: two kolo_fifo_async instances on the same
// two clocks, depth 2 (ADDR_W=1) and depth 8 (ADDR_W=3), 16-bit words. Lane k
// uses bit k of the handshakes and bits [k*16+:16] of the data buses.
module tb_fifo_async (
    input  wire        wr_clk,
    input  wire        wr_rst,
    input  wire [1:0]  in_valid,
    output wire [1:0]  in_ready,
    input  wire [31:0] in_data,
    input  wire        rd_clk,
    input  wire        rd_rst,
    output wire [1:0]  out_valid,
    input  wire [1:0]  out_ready,
    output wire [31:0] out_data
);
  genvar k;
  generate
    for (k = 0; k < 2; k = k + 1) begin : g_lane
      kolo_fifo_async #(
          .WIDTH (16),
          .ADDR_W(k == 0 ? 1 : 3)
      ) u_fifo (
          .wr_clk(wr_clk),
          .wr_rst(wr_rst),
          .in_valid(in_valid[k]),
          .in_ready(in_ready[k]),
          .in_data(in_data[k*16+:16]),
          .rd_clk(rd_clk),
          .rd_rst(rd_rst),
          .out_valid(out_valid[k]),
          .out_ready(out_ready[k]),
          .out_data(out_data[k*16+:16])
      );
    end
  endgenerate
endmodule
`default_nettype wire
