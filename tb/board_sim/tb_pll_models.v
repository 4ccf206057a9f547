`timescale 1ps / 1ps
`default_nettype none
// tb_pll_models - the board-level simulation's PLL models (MMCME2_BASE for
// the Xilinx boards, EHXPLLL for the ECP5 board) through a power cycle of
// their input clocks (make test-board-sim-pll-models, Icarus).
// For each model, three phases:
//   1. the input runs: lock within a bound, and each output's period (from
//      its rising edges over a window) equal to the configured ratio of the
//      input period;
//   2. the input stops (held low, a board's oscillator off): lock falls
//      within the model's loss bound plus two input periods, and no output
//      edge is seen after that (outputs low);
//   3. the input runs again at another period (another oscillator, or the
//      same one after a power cycle): lock again, outputs at the new period.
// Any check that fails prints "FAIL ..." and ends the simulation with
// $fatal (a non-zero exit status); the end prints "PASS tb_pll_models".
module tb_pll_models;
  // ---- MMCME2_BASE: 200 MHz in, VCO x5 = 1 GHz, CLKOUT0 / 4 = 250 MHz, CLKOUT1 / 8 = 125 MHz
  reg  mmcm_in = 1'b0;
  reg  mmcm_run = 1'b0;
  real mmcm_half = 2500.0;  // ps
  wire mmcm_out0, mmcm_out1, mmcm_locked;
  always begin
    if (mmcm_run) #(mmcm_half) mmcm_in = !mmcm_in;
    else begin
      mmcm_in = 1'b0;
      @(posedge mmcm_run);
    end
  end
  MMCME2_BASE #(
      .CLKIN1_PERIOD(0.0),
      .CLKFBOUT_MULT_F(5.0),
      .CLKOUT0_DIVIDE_F(4.0),
      .CLKOUT1_DIVIDE(8)
  ) u_mmcm (
      .CLKIN1(mmcm_in),
      .CLKFBIN(1'b0),
      .RST(1'b0),
      .PWRDWN(1'b0),
      .CLKOUT0(mmcm_out0),
      .CLKOUT0B(),
      .CLKOUT1(mmcm_out1),
      .CLKOUT1B(),
      .CLKOUT2(),
      .CLKOUT2B(),
      .CLKOUT3(),
      .CLKOUT3B(),
      .CLKOUT4(),
      .CLKOUT5(),
      .CLKOUT6(),
      .CLKFBOUT(),
      .CLKFBOUTB(),
      .LOCKED(mmcm_locked)
  );

  // ---- EHXPLLL: 12 MHz in, CLKOP = in * 25 / 3 = 100 MHz (VCO 800 MHz), CLKOS = VCO / 16 = 50 MHz
  reg  pll_in = 1'b0;
  reg  pll_run = 1'b0;
  real pll_half = 41666.0;  // ps
  wire pll_op, pll_os, pll_lock;
  always begin
    if (pll_run) #(pll_half) pll_in = !pll_in;
    else begin
      pll_in = 1'b0;
      @(posedge pll_run);
    end
  end
  EHXPLLL #(
      .CLKI_DIV (3),
      .CLKFB_DIV(25),
      .CLKOP_DIV(8),
      .CLKOS_DIV(16)
  ) u_pll (
      .CLKI(pll_in),
      .CLKFB(pll_op),
      .RST(1'b0),
      .STDBY(1'b0),
      .PHASESEL0(1'b0),
      .PHASESEL1(1'b0),
      .PHASEDIR(1'b0),
      .PHASESTEP(1'b0),
      .PHASELOADREG(1'b0),
      .PLLWAKESYNC(1'b0),
      .ENCLKOP(1'b1),
      .ENCLKOS(1'b1),
      .ENCLKOS2(1'b0),
      .ENCLKOS3(1'b0),
      .CLKOP(pll_op),
      .CLKOS(pll_os),
      .CLKOS2(),
      .CLKOS3(),
      .LOCK(pll_lock),
      .INTLOCK(),
      .REFCLK(),
      .CLKINTFB()
  );

  // rising edges and the time of the last one, per output
  integer  n_m0 = 0, n_m1 = 0, n_op = 0, n_os = 0;
  realtime t_m0 = 0, t_m1 = 0, t_op = 0, t_os = 0;
  always @(posedge mmcm_out0) begin n_m0 = n_m0 + 1; t_m0 = $realtime; end
  always @(posedge mmcm_out1) begin n_m1 = n_m1 + 1; t_m1 = $realtime; end
  always @(posedge pll_op) begin n_op = n_op + 1; t_op = $realtime; end
  always @(posedge pll_os) begin n_os = n_os + 1; t_os = $realtime; end

  task fail(input [8*80-1:0] what);
    begin
      $display("FAIL tb_pll_models: %0s (t = %0t ps)", what, $realtime);
      $fatal;
    end
  endtask

  // the period of an output from its rising edges over a window of `edges`
  task check_period(input integer which, input real expect_ps, input integer edges);
    integer  n0;
    realtime t0, t1;
    real     got;
    begin
      case (which)
        0: begin n0 = n_m0; wait (n_m0 == n0 + 1); t0 = t_m0; wait (n_m0 == n0 + 1 + edges); t1 = t_m0; end
        1: begin n0 = n_m1; wait (n_m1 == n0 + 1); t0 = t_m1; wait (n_m1 == n0 + 1 + edges); t1 = t_m1; end
        2: begin n0 = n_op; wait (n_op == n0 + 1); t0 = t_op; wait (n_op == n0 + 1 + edges); t1 = t_op; end
        default: begin n0 = n_os; wait (n_os == n0 + 1); t0 = t_os; wait (n_os == n0 + 1 + edges); t1 = t_os; end
      endcase
      got = (t1 - t0) / edges;
      $display("tb_pll_models: output %0d period %0.1f ps (expected %0.1f)", which, got, expect_ps);
      if (got < expect_ps - 2.0 || got > expect_ps + 2.0) fail("an output's period is not the configured ratio of the input's");
    end
  endtask

  realtime t_stop;
  initial begin
    // ---- MMCME2_BASE
    mmcm_run = 1'b1;
    #(100 * 2 * mmcm_half);
    if (!mmcm_locked) fail("MMCME2_BASE not locked 100 input periods after its input started");
    check_period(0, 4000.0, 50);
    check_period(1, 8000.0, 50);
    mmcm_run = 1'b0;
    t_stop = $realtime;
    #((4 + 2) * 2 * mmcm_half);
    if (mmcm_locked) fail("MMCME2_BASE still locked 6 periods after its input stopped");
    #(10 * 2 * mmcm_half);
    if (t_m0 > t_stop + (4 + 2) * 2 * mmcm_half || t_m1 > t_stop + (4 + 2) * 2 * mmcm_half)
      fail("MMCME2_BASE output toggled after lock was lost");
    if (mmcm_out0 || mmcm_out1) fail("MMCME2_BASE output not low after lock was lost");
    mmcm_half = 3125.0;  // 160 MHz
    mmcm_run = 1'b1;
    #(100 * 2 * mmcm_half);
    if (!mmcm_locked) fail("MMCME2_BASE not locked again 100 periods after its input restarted");
    check_period(0, 5000.0, 50);
    check_period(1, 10000.0, 50);

    // ---- EHXPLLL
    pll_run = 1'b1;
    #(50 * 2 * pll_half);
    if (!pll_lock) fail("EHXPLLL not locked 50 input periods after its input started");
    check_period(2, 83332.0 * 3 / 25, 100);
    check_period(3, 83332.0 * 3 / 25 * 2, 100);
    pll_run = 1'b0;
    t_stop = $realtime;
    #((4 + 2) * 2 * pll_half);
    if (pll_lock) fail("EHXPLLL still locked 6 periods after its input stopped");
    #(10 * 2 * pll_half);
    if (t_op > t_stop + (4 + 2) * 2 * pll_half || t_os > t_stop + (4 + 2) * 2 * pll_half)
      fail("EHXPLLL output toggled after lock was lost");
    if (pll_op || pll_os) fail("EHXPLLL output not low after lock was lost");
    pll_half = 50000.0;  // 10 MHz
    pll_run = 1'b1;
    #(50 * 2 * pll_half);
    if (!pll_lock) fail("EHXPLLL not locked again 50 periods after its input restarted");
    check_period(2, 100000.0 * 3 / 25, 100);
    check_period(3, 100000.0 * 3 / 25 * 2, 100);
    $display("PASS tb_pll_models");
    $finish;
  end
  initial begin
    #(200_000_000);
    fail("timeout");
  end
endmodule
`default_nettype wire
