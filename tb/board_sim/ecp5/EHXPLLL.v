`default_nettype none
// EHXPLLL (simulation model) - an ECP5 PLL, behavioural, for the board-level
// simulation (tb/board_sim, docs/boards.md "Board-level simulation"), with
// timing controls (Verilator --timing). Feedback from CLKOP only (FEEDBK_PATH "CLKOP", as
// kolo_ecp5_pll uses it): CLKOP = CLKI * CLKFB_DIV / CLKI_DIV, the VCO at
// CLKOP * CLKOP_DIV, CLKOS = VCO / CLKOS_DIV. The model measures CLKI's
// period; LOCK rises after 8 input periods within 1 ps of each other with
// RST low, and the outputs run while LOCK is high (from a random phase: they
// start when lock is seen, not aligned to CLKI). RST (asynchronous) drops
// LOCK and stops the outputs, and so does the loss of CLKI (the oscillator
// off, a power cycle): when CLKOP toggles more than 4 measured input
// periods after the last CLKI edge, LOCK falls and both outputs stop low;
// when CLKI runs again the model measures and locks anew
// (test-board-sim-pll-models). Lock, loss and outputs are kolo_sim_pll's
// (shared with the MMCME2_BASE model). CLKOS2/CLKOS3 are not modelled (held low).
// Not for synthesis.
module EHXPLLL #(
    parameter PLLRST_ENA      = "DISABLED",
    parameter INTFB_WAKE      = "DISABLED",
    parameter STDBY_ENABLE    = "DISABLED",
    parameter DPHASE_SOURCE   = "DISABLED",
    parameter OUTDIVIDER_MUXA = "DIVA",
    parameter OUTDIVIDER_MUXB = "DIVB",
    parameter OUTDIVIDER_MUXC = "DIVC",
    parameter OUTDIVIDER_MUXD = "DIVD",
    parameter CLKI_DIV        = 1,
    parameter CLKFB_DIV       = 1,
    parameter FEEDBK_PATH     = "CLKOP",
    parameter CLKOP_ENABLE    = "ENABLED",
    parameter CLKOP_DIV       = 8,
    parameter CLKOP_CPHASE    = 0,
    parameter CLKOP_FPHASE    = 0,
    parameter CLKOS_ENABLE    = "ENABLED",
    parameter CLKOS_DIV       = 8,
    parameter CLKOS_CPHASE    = 0,
    parameter CLKOS_FPHASE    = 0
) (
    input  wire CLKI,
    input  wire CLKFB,
    input  wire RST,
    input  wire STDBY,
    input  wire PHASESEL0,
    input  wire PHASESEL1,
    input  wire PHASEDIR,
    input  wire PHASESTEP,
    input  wire PHASELOADREG,
    input  wire PLLWAKESYNC,
    input  wire ENCLKOP,
    input  wire ENCLKOS,
    input  wire ENCLKOS2,
    input  wire ENCLKOS3,
    output wire CLKOP,
    output wire CLKOS,
    output wire CLKOS2,
    output wire CLKOS3,
    output wire LOCK,
    output wire INTLOCK,
    output wire REFCLK,
    output wire CLKINTFB
);
  initial begin
    if (FEEDBK_PATH != "CLKOP" || CLKOP_ENABLE != "ENABLED" || CLKOS_ENABLE != "ENABLED") begin
      $display("EHXPLLL model %m: only FEEDBK_PATH CLKOP with CLKOP and CLKOS enabled is modelled");
      $fatal;
    end
  end

  // the lock, loss and output logic (kolo_sim_pll): 8 periods to lock, 4 to lose it
  wire locked;
  kolo_sim_pll #(
      .LOCK_PERIODS(8),
      .EXACT(1),
      .LOSS_PERIODS(4),
      .RATIO0(1.0 * CLKI_DIV / CLKFB_DIV),
      .RATIO1(1.0 * CLKI_DIV / CLKFB_DIV * CLKOS_DIV / CLKOP_DIV)
  ) u_pll (
      .clk_in(CLKI), .rst(RST), .locked(locked), .out0(CLKOP), .out1(CLKOS)
  );
  assign LOCK = locked;
  assign INTLOCK = locked;
  assign CLKOS2 = 1'b0;
  assign CLKOS3 = 1'b0;
  assign REFCLK = CLKI;
  assign CLKINTFB = CLKFB;
  wire unused = &{1'b0, STDBY, PHASESEL0, PHASESEL1, PHASEDIR, PHASESTEP, PHASELOADREG, PLLWAKESYNC,
                  ENCLKOP, ENCLKOS, ENCLKOS2, ENCLKOS3};
endmodule
`default_nettype wire
