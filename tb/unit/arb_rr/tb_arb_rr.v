`default_nettype none
// tb_arb_rr - unit-test top: five independent kolo_arb_rr instances of
// N = 1, 2, 5, 28 and 32. Lane k uses bits [k*32+:N] of req and grant (one
// 32-bit word per lane on the C++ side) and bit k of advance.
module tb_arb_rr (
    input  wire         clk,
    input  wire         rst,
    input  wire [159:0] req,
    input  wire [4:0]   advance,
    output wire [159:0] grant
);
  localparam [39:0] NS = {8'd32, 8'd28, 8'd5, 8'd2, 8'd1};
  genvar k;
  generate
    for (k = 0; k < 5; k = k + 1) begin : g_lane
      localparam integer N = {24'd0, NS[k*8+:8]};
      kolo_arb_rr #(
          .N(N)
      ) u_arb (
          .clk(clk),
          .rst(rst),
          .req(req[k*32+:N]),
          .advance(advance[k]),
          .grant(grant[k*32+:N])
      );
      if (N < 32) begin : g_pad
        assign grant[k*32+N+:32-N] = {(32 - N) {1'b0}};
        // the unused request bits of this lane
        wire unused_ok = &{1'b0, req[k*32+N+:32-N]};
      end
    end
  endgenerate
endmodule
`default_nettype wire
