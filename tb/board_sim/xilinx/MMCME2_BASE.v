`default_nettype none
// MMCME2_BASE (simulation model) - a 7-series MMCM, behavioural, for the
// board-level simulation (tb/board_sim, docs/boards.md "Board-level
// simulation"), with timing controls (Verilator --timing). The model
// measures CLKIN1's period; LOCKED rises after LOCK_PERIODS input periods
// within 1 ps of each other with RST and PWRDWN low, and the outputs run
// while LOCKED is high, each from the measured period (not from
// CLKIN1_PERIOD, which is only checked against it): VCO period = input
// period * DIVCLK_DIVIDE / CLKFBOUT_MULT_F, CLKOUT0 = VCO / CLKOUT0_DIVIDE_F,
// CLKOUT1 = VCO / CLKOUT1_DIVIDE; CLKFBOUT is CLKIN1 while locked (the
// feedback loop closed: VCO / CLKFBOUT_MULT_F). CLKOUT2..6 are not modelled
// (held low; a divide other than 1 given to them stops the simulation: no
// kolo board uses them, and an idle 1 GHz output would cost events), nor
// are phases, duty cycles other than 0.5 and the inverted outputs
// (CLKOUTnB, CLKFBOUTB held low). CLKOUT0 and CLKOUT1 start together when
// lock is seen (not aligned to CLKIN1).
// RST or PWRDWN (asynchronous) drop LOCKED and stop the outputs, and so
// does the loss of CLKIN1 (a board's oscillator off, a power cycle): when
// CLKOUT0 toggles more than LOSS_PERIODS measured input periods after the
// last CLKIN1 edge, LOCKED falls and both outputs stop low; when CLKIN1
// runs again the model measures and locks anew (test-board-sim-pll-models).
// Not for synthesis.
module MMCME2_BASE #(
    parameter BANDWIDTH          = "OPTIMIZED",
    parameter real CLKIN1_PERIOD = 0.0,     // ns (0: not given)
    parameter DIVCLK_DIVIDE      = 1,
    parameter real CLKFBOUT_MULT_F = 5.0,
    parameter real CLKFBOUT_PHASE  = 0.0,
    parameter real CLKOUT0_DIVIDE_F = 1.0,
    parameter CLKOUT1_DIVIDE     = 1,
    parameter CLKOUT2_DIVIDE     = 1,
    parameter CLKOUT3_DIVIDE     = 1,
    parameter CLKOUT4_DIVIDE     = 1,
    parameter CLKOUT5_DIVIDE     = 1,
    parameter CLKOUT6_DIVIDE     = 1,
    parameter real REF_JITTER1   = 0.010,
    parameter STARTUP_WAIT       = "FALSE",
    parameter LOCK_PERIODS       = 16,      // model only: input periods to lock
    parameter LOSS_PERIODS       = 4        // model only: input periods without an edge to lose lock
) (
    input  wire CLKIN1,
    input  wire CLKFBIN,
    input  wire RST,
    input  wire PWRDWN,
    output reg  CLKOUT0,
    output wire CLKOUT0B,
    output reg  CLKOUT1,
    output wire CLKOUT1B,
    output wire CLKOUT2,
    output wire CLKOUT2B,
    output wire CLKOUT3,
    output wire CLKOUT3B,
    output wire CLKOUT4,
    output wire CLKOUT5,
    output wire CLKOUT6,
    output wire CLKFBOUT,
    output wire CLKFBOUTB,
    output wire LOCKED
);
  initial begin
    if (CLKOUT2_DIVIDE != 1 || CLKOUT3_DIVIDE != 1 || CLKOUT4_DIVIDE != 1 || CLKOUT5_DIVIDE != 1 ||
        CLKOUT6_DIVIDE != 1) begin
      $display("MMCME2_BASE model %m: only CLKOUT0 and CLKOUT1 are modelled");
      $fatal;
    end
  end

  realtime last_edge, in_period, vco;
  integer  good;
  reg      locked;
  initial begin
    locked = 1'b0;
    good = 0;
    last_edge = 0.0;
    in_period = 0.0;
    vco = 0.0;
    forever begin
      @(posedge CLKIN1 or posedge RST or posedge PWRDWN);
      if (RST || PWRDWN) begin
        locked = 1'b0;
        good = 0;
        last_edge = 0.0;
      end else begin
        if (last_edge > 0.0 && $realtime - last_edge > in_period - 1.0 && $realtime - last_edge < in_period + 1.0)
          good = good + 1;
        else
          good = 0;
        if (last_edge > 0.0) in_period = $realtime - last_edge;
        last_edge = $realtime;
        if (good >= LOCK_PERIODS && !locked) begin
          if (CLKIN1_PERIOD > 0.0 && (in_period < CLKIN1_PERIOD * 1000.0 - 10.0 ||
                                      in_period > CLKIN1_PERIOD * 1000.0 + 10.0)) begin
            $display("MMCME2_BASE model %m: CLKIN1 period %0.1f ps, CLKIN1_PERIOD says %0.3f ns",
                     in_period, CLKIN1_PERIOD);
            $fatal;
          end
          vco = in_period * DIVCLK_DIVIDE / CLKFBOUT_MULT_F;
          locked = 1'b1;
        end
      end
    end
  end
  // one output: toggles every half of VCO period * div while locked
  initial begin
    CLKOUT0 = 1'b0;
    forever begin
      if (locked) begin
        #(vco * CLKOUT0_DIVIDE_F / 2.0) CLKOUT0 = locked ? !CLKOUT0 : 1'b0;
        if (locked && $realtime - last_edge > LOSS_PERIODS * in_period) begin  // CLKIN1 lost
          locked = 1'b0;
          good = 0;
          last_edge = 0.0;
          CLKOUT0 = 1'b0;
        end
      end else @(posedge locked);
    end
  end
  initial begin
    CLKOUT1 = 1'b0;
    forever begin
      if (locked) #(vco * CLKOUT1_DIVIDE / 2.0) CLKOUT1 = locked ? !CLKOUT1 : 1'b0;
      else @(posedge locked);
    end
  end
  assign LOCKED = locked;
  assign CLKFBOUT = locked && CLKIN1;
  assign CLKOUT2 = 1'b0;
  assign CLKOUT3 = 1'b0;
  assign CLKOUT4 = 1'b0;
  assign CLKOUT5 = 1'b0;
  assign CLKOUT6 = 1'b0;
  assign CLKOUT0B = 1'b0;
  assign CLKOUT1B = 1'b0;
  assign CLKOUT2B = 1'b0;
  assign CLKOUT3B = 1'b0;
  assign CLKFBOUTB = 1'b0;
  wire unused = &{1'b0, CLKFBIN};
endmodule
`default_nettype wire
