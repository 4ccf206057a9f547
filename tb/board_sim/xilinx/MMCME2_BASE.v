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
// Lock, loss and outputs are kolo_sim_pll's (shared with the EHXPLLL model
// and the KC705 transceiver and PCIe models' user clocks).
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
    output wire CLKOUT0,
    output wire CLKOUT0B,
    output wire CLKOUT1,
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

  // the lock, loss and output logic (kolo_sim_pll): VCO period = input period *
  // DIVCLK_DIVIDE / CLKFBOUT_MULT_F, each output the VCO period * its divide
  wire locked;
  kolo_sim_pll #(
      .LOCK_PERIODS(LOCK_PERIODS),
      .EXACT(1),
      .LOSS_PERIODS(LOSS_PERIODS),
      .RATIO0(DIVCLK_DIVIDE * CLKOUT0_DIVIDE_F / CLKFBOUT_MULT_F),
      .RATIO1(DIVCLK_DIVIDE * CLKOUT1_DIVIDE / CLKFBOUT_MULT_F)
  ) u_pll (
      .clk_in(CLKIN1), .rst(RST || PWRDWN), .locked(locked), .out0(CLKOUT0), .out1(CLKOUT1)
  );
  // CLKIN1_PERIOD, where given, checked against the measured period at lock
  always @(posedge locked)
    if (CLKIN1_PERIOD > 0.0 && (u_pll.in_period < CLKIN1_PERIOD * 1000.0 - 10.0 ||
                                u_pll.in_period > CLKIN1_PERIOD * 1000.0 + 10.0)) begin
      $display("MMCME2_BASE model %m: CLKIN1 period %0.1f ps, CLKIN1_PERIOD says %0.3f ns",
               u_pll.in_period, CLKIN1_PERIOD);
      $fatal;
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
