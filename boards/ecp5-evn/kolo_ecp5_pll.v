`default_nettype none
// kolo_ecp5_pll - one ECP5 PLL (EHXPLLL) with feedback from CLKOP: CLKOP =
// IN_KHZ * CLKFB_DIV / CLKI_DIV, the VCO at CLKOP * CLKOP_DIV, CLKOS =
// VCO / CLKOS_DIV. The limits of the part are checked at elaboration (the
// missing module's name is the message): phase detector 3.125..400 MHz,
// VCO 400..800 MHz, outputs up to 400 MHz.
// lock is asynchronous (the PLL's LOCK): synchronise it where it is used.
module kolo_ecp5_pll #(
    parameter IN_KHZ    = 12000,
    parameter CLKI_DIV  = 1,
    parameter CLKFB_DIV = 1,
    parameter CLKOP_DIV = 8,
    parameter CLKOS_DIV = 8
) (
    input  wire clk_in,
    input  wire rst,       // asynchronous, active high: PLL reset
    output wire clk_op,
    output wire clk_os,
    output wire lock
);
  localparam integer PFD_KHZ = IN_KHZ / CLKI_DIV;
  localparam integer OP_KHZ = PFD_KHZ * CLKFB_DIV;
  localparam integer VCO_KHZ = OP_KHZ * CLKOP_DIV;
  localparam integer OS_KHZ = VCO_KHZ / CLKOS_DIV;
  generate
    if (PFD_KHZ < 3125 || PFD_KHZ > 400000) begin : g_bad_pfd
      kolo_ecp5_pll_PARAMETER_ERROR_phase_detector_3125_to_400000_kHz u_error ();
    end
    if (VCO_KHZ < 400000 || VCO_KHZ > 800000) begin : g_bad_vco
      kolo_ecp5_pll_PARAMETER_ERROR_VCO_400_to_800_MHz u_error ();
    end
    if (OP_KHZ > 400000 || OS_KHZ > 400000) begin : g_bad_out
      kolo_ecp5_pll_PARAMETER_ERROR_outputs_up_to_400_MHz u_error ();
    end
  endgenerate

  wire unused;
  (* FREQUENCY_PIN_CLKI = IN_KHZ / 1000 *)
  EHXPLLL #(
      .PLLRST_ENA("ENABLED"), .INTFB_WAKE("DISABLED"), .STDBY_ENABLE("DISABLED"),
      .DPHASE_SOURCE("DISABLED"), .OUTDIVIDER_MUXA("DIVA"), .OUTDIVIDER_MUXB("DIVB"),
      .OUTDIVIDER_MUXC("DIVC"), .OUTDIVIDER_MUXD("DIVD"),
      .CLKI_DIV(CLKI_DIV), .CLKFB_DIV(CLKFB_DIV), .FEEDBK_PATH("CLKOP"),
      .CLKOP_ENABLE("ENABLED"), .CLKOP_DIV(CLKOP_DIV), .CLKOP_CPHASE(CLKOP_DIV - 1), .CLKOP_FPHASE(0),
      .CLKOS_ENABLE("ENABLED"), .CLKOS_DIV(CLKOS_DIV), .CLKOS_CPHASE(CLKOS_DIV - 1), .CLKOS_FPHASE(0)
  ) u_pll (
      .CLKI(clk_in), .CLKFB(clk_op), .RST(rst), .STDBY(1'b0),
      .PHASESEL0(1'b0), .PHASESEL1(1'b0), .PHASEDIR(1'b1), .PHASESTEP(1'b1), .PHASELOADREG(1'b1),
      .PLLWAKESYNC(1'b0), .ENCLKOP(1'b0), .ENCLKOS(1'b0), .ENCLKOS2(1'b0), .ENCLKOS3(1'b0),
      .CLKOP(clk_op), .CLKOS(clk_os), .CLKOS2(), .CLKOS3(), .LOCK(lock), .INTLOCK(unused),
      .REFCLK(), .CLKINTFB()
  );
endmodule
`default_nettype wire
