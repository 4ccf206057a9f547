`default_nettype none
// kolo_sim_clk_follow - a clock that follows a reference, for the board-level
// simulation's models of vendor clocking (the KC705's GTX CPLL user clock and
// the PCIe block's user clock; timing controls, Verilator --timing). Each
// rising edge of ref_clk measures its period; after LOCK_EDGES edges,
// `locked` rises and clk (low until then) toggles every half of the last
// measured period * OUT_PER_REF (a reference that changes its period while
// locked is not followed). When the reference stops (a board's power off:
// tb_board_sim_kc705's power-cycle case), clk toggling more than
// LOSS_PERIODS measured reference periods after the last reference edge
// drops `locked` and stops clk low; when the reference runs again the
// model measures and locks anew, like the MMCME2_BASE model. Not for
// synthesis.
module kolo_sim_clk_follow #(
    parameter      LOCK_EDGES   = 16,
    parameter real OUT_PER_REF  = 1.0,  // output period / reference period
    parameter      LOSS_PERIODS = 4     // reference periods without an edge to lose lock
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
      if (locked) begin
        #(out_half) clk = locked ? !clk : 1'b0;
        if (locked && $realtime - last_edge > LOSS_PERIODS * ref_period) begin  // the reference stopped
          locked = 1'b0;
          ref_edges = 0;
          last_edge = 0.0;
          clk = 1'b0;
        end
      end else @(posedge locked);
    end
  end
endmodule
`default_nettype wire
