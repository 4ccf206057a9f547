`default_nettype none
// tb_alloc_sep - unit-test top: four independent kolo_alloc_sep instances
// (N_IN x N_OUT = 4x4, 3x5, 5x3, 7x7). Lane k uses bits [k*64+:N_IN*N_OUT] of
// req and grant (two 32-bit words per lane on the C++ side).
module tb_alloc_sep (
    input  wire         clk,
    input  wire         rst,
    input  wire [255:0] req,
    output wire [255:0] grant
);
  localparam [31:0] NI = {8'd7, 8'd5, 8'd3, 8'd4};
  localparam [31:0] NO = {8'd7, 8'd3, 8'd5, 8'd4};
  genvar k;
  generate
    for (k = 0; k < 4; k = k + 1) begin : g_lane
      localparam integer N_IN = {24'd0, NI[k*8+:8]};
      localparam integer N_OUT = {24'd0, NO[k*8+:8]};
      localparam integer B = N_IN * N_OUT;
      kolo_alloc_sep #(
          .N_IN (N_IN),
          .N_OUT(N_OUT)
      ) u_alloc (
          .clk(clk),
          .rst(rst),
          .req(req[k*64+:B]),
          .grant(grant[k*64+:B])
      );
      assign grant[k*64+B+:64-B] = {(64 - B) {1'b0}};
      // the unused request bits of this lane
      wire unused_ok = &{1'b0, req[k*64+B+:64-B]};
    end
  endgenerate
endmodule
`default_nettype wire
