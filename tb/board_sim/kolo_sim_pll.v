`default_nettype none
// kolo_sim_pll - the lock, loss and output logic shared by the board-level
// simulation's models of vendor clocking (timing controls, Verilator --timing
// and Icarus -g2012): the MMCME2_BASE and EHXPLLL models, the KC705 GTX CPLL
// user clock and the PCIe block's user clock (kolo_kc705_gt, kolo_kc705_pcie).
// Not for synthesis.
//
// Lock: each rising edge of clk_in measures the input period (`in_period`,
// read by the wrappers). With EXACT = 1 (a PLL) an edge whose period is
// within 1 ps of the one before counts as good and any other edge starts the
// count again; with EXACT = 0 (a clock that follows a reference) every edge
// after the first counts. `locked` rises at the edge that brings the count to
// LOCK_PERIODS.
// Outputs: while locked, out0 toggles every in_period * RATIO0 / 2 and out1
// every in_period * RATIO1 / 2 (RATIO = output period / input period, taken
// at the moment of lock: a later change of the input period is not followed;
// RATIO1 = 0: out1 stays low, no events). Both start low together when lock
// is seen (not aligned to clk_in).
// Loss: rst (asynchronous, active high) drops `locked` at once; so does the
// loss of clk_in (a board's oscillator off, a power cycle), seen at out0's
// next toggle when more than LOSS_PERIODS input periods have passed since the
// last clk_in edge (no timer events of its own). Then both outputs stop low
// and the next clk_in edges measure and lock anew
// (make test-board-sim-pll-models).
module kolo_sim_pll #(
    parameter      LOCK_PERIODS = 16,
    parameter      EXACT        = 1,
    parameter      LOSS_PERIODS = 4,
    parameter real RATIO0       = 1.0,
    parameter real RATIO1       = 0.0
) (
    input  wire clk_in,
    input  wire rst,
    output reg  locked,
    output reg  out0,
    output reg  out1
);
  initial begin
    if (LOCK_PERIODS < 1 || LOSS_PERIODS < 1 || RATIO0 <= 0.0 || RATIO1 < 0.0) begin
      $display("kolo_sim_pll %m: bad parameters (LOCK_PERIODS %0d, LOSS_PERIODS %0d, RATIO0 %f, RATIO1 %f)",
               LOCK_PERIODS, LOSS_PERIODS, RATIO0, RATIO1);
      $fatal;
    end
  end

  realtime last_edge, in_period, half0, half1;
  integer  good;

  task lose;
    begin
      locked = 1'b0;
      good = 0;
      last_edge = 0.0;
    end
  endtask

  // measure and lock
  initial begin
    locked = 1'b0;
    good = 0;
    last_edge = 0.0;
    in_period = 0.0;
    half0 = 0.0;
    half1 = 0.0;
    forever begin
      @(posedge clk_in or posedge rst);
      if (rst) lose;
      else begin
        if (last_edge > 0.0 && (EXACT == 0 || ($realtime - last_edge > in_period - 1.0 &&
                                               $realtime - last_edge < in_period + 1.0)))
          good = good + 1;
        else good = 0;
        if (last_edge > 0.0) in_period = $realtime - last_edge;
        last_edge = $realtime;
        if (good >= LOCK_PERIODS && !locked) begin
          half0 = in_period * RATIO0 / 2.0;
          half1 = in_period * RATIO1 / 2.0;
          locked = 1'b1;
        end
      end
    end
  end
  // out0, and the loss of clk_in seen at its toggles
  initial begin
    out0 = 1'b0;
    forever begin
      if (locked) begin
        #(half0) out0 = locked ? !out0 : 1'b0;
        if (locked && $realtime - last_edge > LOSS_PERIODS * in_period) begin  // clk_in lost
          lose;
          out0 = 1'b0;
        end
      end else @(posedge locked);
    end
  end
  initial begin
    out1 = 1'b0;
    if (RATIO1 > 0.0)
      forever begin
        if (locked) #(half1) out1 = locked ? !out1 : 1'b0;
        else @(posedge locked);
      end
  end
endmodule
`default_nettype wire
