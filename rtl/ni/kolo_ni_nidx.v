`default_nettype none
// kolo_ni_nidx - node id {z,y,x} to node index x + X*(y + Y*z) (docs/ni.md
// section 2), written x + X*y + (X*Y)*z. `ok`: the id lies inside the torus
// (ring sizes - 1 in dim_m1); idx is meaningful only with ok. Used by the
// end-to-end tables, which are indexed by node index so that small tori fill
// them densely.
//
// Timing: no multiplier on the id's path. The torus size is a strap, so the
// multiples X*k and (X*Y)*k (k = 1..15) are kept in registers (tables,
// 8 and 12 bits each), loaded from dim_m1 every cycle in two stages (X and
// X*Y, then the multiples; shift-adds, no multiplier either). idx is then
// two 16:1 multiplexers (the table entries for y and z) and a three-operand
// add, all combinational in id: no cycle is added for the user (before,
// two multipliers in series from dim_m1 made the NI's critical path).
// Latency: ok is combinational in id and dim_m1; idx in a cycle is that of
// the dim_m1 of two cycles before (the tables' two stages). dim_m1 may
// change only in reset (straps: kolo_chip, docs/boards.md), and reset must
// last at least 2 cycles after a change (the NI's resets last tens of
// cycles: kolo_svc wants 40): from the first cycle out of reset, idx is
// that of the current size. A simulation check (not synthesized) stops the
// run if dim_m1 changes out of reset or less than 2 cycles before its end.
// Reset: the tables have none (they follow dim_m1 in reset too); rst is read
// only by the simulation check.
// Cost: 314 flip-flops and the multiplexers per instance; synthesis merges
// the identical tables of instances fed the same dim_m1 (kolo_ni's four:
// 248 flip-flops in all in Yosys' synth_xilinx; no DSP).
module kolo_ni_nidx #(
    parameter BUG_STALE = 0   // tests only: 1 = the tables a cycle later (3 stages; tb_ni_nidx must catch it)
) (
    input  wire        clk,
    input  wire        rst,
    input  wire [11:0] id,
    input  wire [11:0] dim_m1,
    output wire [11:0] idx,
    output wire        ok
);
  // stage 1: X and X*Y (shift-add: one row of X per bit of Y)
  wire [4:0] dx = {1'b0, dim_m1[3:0]} + 5'd1;
  wire [4:0] dy = {1'b0, dim_m1[7:4]} + 5'd1;
  wire [8:0] dxy = ({9{dy[0]}} & {4'd0, dx}) + ({9{dy[1]}} & {3'd0, dx, 1'b0}) +
                   ({9{dy[2]}} & {2'd0, dx, 2'd0}) + ({9{dy[3]}} & {1'd0, dx, 3'd0}) +
                   ({9{dy[4]}} & {dx, 4'd0});  // X*Y <= 256
  reg [4:0] x_q;
  reg [8:0] xy_q;
  always @(posedge clk) begin
    x_q <= dx;
    xy_q <= dxy;
  end
  wire [4:0] x_s;
  wire [8:0] xy_s;
  generate
    if (BUG_STALE != 0) begin : g_bug
      reg [4:0] x_q2;
      reg [8:0] xy_q2;
      always @(posedge clk) begin
        x_q2 <= x_q;
        xy_q2 <= xy_q;
      end
      assign x_s = x_q2;
      assign xy_s = xy_q2;
    end else begin : g_ok
      assign x_s = x_q;
      assign xy_s = xy_q;
    end
  endgenerate
  // stage 2: the tables X*k and X*Y*k (shift-adds by the constant k); entry 0 is 0
  wire [7:0] ty[0:15];    // X*k   <= 16*15
  wire [11:0] tz[0:15];   // X*Y*k <= 256*15
  assign ty[0] = 8'd0;
  assign tz[0] = 12'd0;
  genvar k;
  generate
    for (k = 1; k < 16; k = k + 1) begin : g_tab
      localparam [3:0] K = k;
      wire [12:0] my = ({13{K[0]}} & {8'd0, x_s}) + ({13{K[1]}} & {7'd0, x_s, 1'b0}) +
                       ({13{K[2]}} & {6'd0, x_s, 2'd0}) + ({13{K[3]}} & {5'd0, x_s, 3'd0});
      wire [12:0] mz = ({13{K[0]}} & {4'd0, xy_s}) + ({13{K[1]}} & {3'd0, xy_s, 1'b0}) +
                       ({13{K[2]}} & {2'd0, xy_s, 2'd0}) + ({13{K[3]}} & {1'd0, xy_s, 3'd0});
      reg [7:0] ty_q;
      reg [11:0] tz_q;
      always @(posedge clk) begin
        ty_q <= my[7:0];
        tz_q <= mz[11:0];
      end
      assign ty[k] = ty_q;
      assign tz[k] = tz_q;
      wire unused_m = &{1'b0, my[12:8], mz[12]};
    end
  endgenerate
  // the index: two multiplexers (by y, by z) and an add
  assign idx = {8'd0, id[3:0]} + {4'd0, ty[id[7:4]]} + tz[id[11:8]];
  assign ok = id[3:0] <= dim_m1[3:0] && id[7:4] <= dim_m1[7:4] && id[11:8] <= dim_m1[11:8];
`ifndef SYNTHESIS
`include "kolo_assert.vh"
  // the rule above: out of reset (once a reset was seen), dim_m1 is the one of the last 2 cycles
  reg [11:0] chk_d = 12'd0;
  reg chk_st = 1'b0;    // dim_m1 was the same at the last two edges
  reg chk_rst = 1'b0;
  always @(posedge clk) begin
    chk_d <= dim_m1;
    chk_st <= dim_m1 == chk_d;
    if (rst) chk_rst <= 1'b1;
    if (!rst && chk_rst) `KOLO_ASSERT(dim_m1 == chk_d && chk_st);
  end
`endif
endmodule
`default_nettype wire
