`default_nettype none
// kolo_sim_clk_follow - a clock that follows a reference, for the board-level
// simulation's models of vendor clocking (the KC705's GTX CPLL user clock and
// the PCIe block's user clock; timing controls, Verilator --timing). Each
// rising edge of ref_clk measures its period; after LOCK_EDGES edges,
// `locked` rises and clk (low until then) toggles every half of the last
// measured period * OUT_PER_REF, for ever (a reference that stops or
// changes later is not followed). Not for synthesis.
module kolo_sim_clk_follow #(
    parameter      LOCK_EDGES  = 16,
    parameter real OUT_PER_REF = 1.0   // output period / reference period
) (
    input  wire ref_clk,
    output reg  locked,
    output reg  clk
);
  realtime last_edge, ref_period, out_half;
  integer  ref_edges;
  initial begin
    locked = 1'b0;
    clk = 1'b0;
    ref_edges = 0;
    last_edge = 0.0;
    ref_period = 0.0;
    out_half = 0.0;
    forever begin
      @(posedge ref_clk);
      if (last_edge > 0.0) ref_period = $realtime - last_edge;
      last_edge = $realtime;
      if (ref_edges < LOCK_EDGES) ref_edges = ref_edges + 1;
      else if (!locked) begin
        out_half = ref_period * OUT_PER_REF / 2.0;
        locked = 1'b1;
      end
    end
  end
  initial begin
    forever begin
      if (locked) #(out_half) clk = !clk;
      else @(posedge locked);
    end
  end
endmodule
`default_nettype wire
