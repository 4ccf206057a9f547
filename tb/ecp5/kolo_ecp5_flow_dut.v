`default_nettype none
// kolo_ecp5_flow_dut - a tiny design for the test of scripts/ecp5_flow.py
// (make test-ecp5-flow): a registered WIDTH-bit adder with carry and
// synchronous reset in clock clk, and a 4-bit registered incrementer in a
// second clock clk2. Exactly WIDTH + 1 + 4 flip-flops, so the test can tell
// that the flow counts the unit's cells without the wrapper's and that the
// wrapper keeps every output (an unobserved output would be optimised away).
//
// INIT: a string parameter that names a file and changes no logic: the test
// gives it to check that the flow passes strings to Yosys and that the
// file's content is part of the cache key.
module kolo_ecp5_flow_dut #(
    parameter WIDTH = 8,
    parameter INIT  = ""
) (
    input  wire             clk,
    input  wire             rst,
    input  wire [WIDTH-1:0] a,
    input  wire [WIDTH-1:0] b,
    output reg  [WIDTH-1:0] sum,
    output reg              carry,
    input  wire             clk2,
    input  wire [3:0]       x,
    output reg  [3:0]       y
);
  always @(posedge clk) begin
    if (rst) {carry, sum} <= {(WIDTH + 1){1'b0}};
    else {carry, sum} <= {1'b0, a} + {1'b0, b};
  end
  always @(posedge clk2) y <= x + 4'd1;
endmodule
`default_nettype wire
