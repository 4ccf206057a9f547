`default_nettype none
// kolo_reset_sync - reset synchroniser: asynchronous assertion, synchronous
// release, one per clock domain.
//
// rst_in is asynchronous to clk (any source: a board reset, a transceiver's
// "not ready", another domain's register). rst_out rises together with
// rst_in, without a clock edge (so a domain whose clock is stopped is in
// reset too), and falls at the STAGES-th rising edge of clk after rst_in
// fell, always at a clock edge: every flip-flop of the domain samples the
// release at the same edge. While rst_in is high, rst_out is high. The logic
// of the domain uses rst_out as its ordinary synchronous active-high reset;
// when rst_in rises close to a clock edge some of its flip-flops see the
// reset one edge later than others, which is harmless since it lasts
// STAGES edges at least.
// Metastability: the first stage may go metastable when rst_in falls close
// to an edge; STAGES - 1 further flops resolve it (STAGES >= 2, default 3).
// Timing: rst_in drives the flops' asynchronous preset only (a false path
// from its source); the stages carry ASYNC_REG so placement keeps them
// together. This is the only cell of kolo with an asynchronous reset.
module kolo_reset_sync #(
    parameter STAGES = 3  // flip-flops in the chain, >= 2
) (
    input  wire clk,
    input  wire rst_in,   // asynchronous, active high
    output wire rst_out   // active high, released synchronously to clk
);
  generate
    if (STAGES < 2) begin : g_bad_stages
      kolo_reset_sync_PARAMETER_ERROR_STAGES_at_least_2 u_error ();
    end
  endgenerate

  // Power-up value: in reset (FPGA configuration sets it; a simulation sees
  // the domain in reset from time 0, before rst_in has had an edge).
  (* ASYNC_REG = "TRUE" *) reg [STAGES-1:0] chain = {STAGES{1'b1}};
  always @(posedge clk or posedge rst_in) begin
    if (rst_in) chain <= {STAGES{1'b1}};
    else chain <= {chain[STAGES-2:0], 1'b0};
  end
  assign rst_out = chain[STAGES-1];

`ifdef FORMAL
`ifdef YOSYS
  // Multi-clock properties on $global_clock (Yosys clk2fflogic); Verilator and
  // Icarus, which also compile `FORMAL (VL_CHECKS), have no $global_clock.
  // Run with clk2fflogic (the clock and rst_in are free inputs sampled at
  // every global formal step; a flop takes its new value in the step that
  // sees the rising edge, from the inputs of the step before, so an edge in
  // the step that releases rst_in still happens in reset). f_edges counts
  // rising clock edges since rst_in was last high, this step's edge included
  // (saturating at STAGES); the whole
  // behaviour is then rst_out == rst_in || f_edges < STAGES, from the first
  // assertion of rst_in on (the chain's power-up value is unknown).
  localparam integer FW = $clog2(STAGES + 1);
  localparam integer F_STAGES_I = STAGES;
  localparam [FW-1:0] F_STAGES = F_STAGES_I[FW-1:0];
  reg f_clk_q = 1'b0;
  reg f_rst_q = 1'b0;
  reg f_seen_q = 1'b0;
  reg [FW-1:0] f_edges_q = {FW{1'b0}};
  wire f_rise = clk && !f_clk_q;
  wire f_seen = f_seen_q || rst_in;
  wire [FW-1:0] f_edges = rst_in ? {FW{1'b0}} :
                          (f_rise && !f_rst_q && f_edges_q != F_STAGES) ? f_edges_q + 1'b1 : f_edges_q;
  reg f_out_q = 1'b0;
  always @($global_clock) begin
    f_clk_q   <= clk;
    f_rst_q   <= rst_in;
    f_seen_q  <= f_seen;
    f_edges_q <= f_edges;
    f_out_q   <= rst_out;
  end
  always @(*) begin
    if (rst_in) assert(rst_out);
    assert(f_edges <= F_STAGES);
    if (f_seen) begin
      assert(rst_out == (rst_in || f_edges < F_STAGES));
      // the chain is a thermometer code: ones at the top, f_edges zeros below
      assert(chain == ({STAGES{1'b1}} << f_edges));
      // the release only at a rising clock edge, with rst_in low
      if (f_seen_q && f_out_q && !rst_out) assert(f_rise && !rst_in);
    end
    cover(f_seen_q && f_out_q && !rst_out);
  end
`endif
`endif
endmodule
`default_nettype wire
