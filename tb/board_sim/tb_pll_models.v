`timescale 1ps / 1ps
`default_nettype none
// tb_pll_models - the board-level simulation's clocking models through a
// power cycle of their input clocks (make test-board-sim-pll-models, Icarus):
// MMCME2_BASE (the Xilinx boards), EHXPLLL (the ECP5 board) and
// kolo_sim_pll as a following clock (EXACT = 0: the KC705 GTX CPLL user
// clock and the PCIe block's user clock). All three share kolo_sim_pll's
// lock, loss and output logic; each is taken through the same three phases
// (task cycle_model):
//   1. the input runs: lock within a bound, and each output's period (from
//      its rising edges over a window) equal to the configured ratio of the
//      input period;
//   2. the input stops (held low, a board's oscillator off): lock falls
//      within the loss bound (4 input periods) plus two input periods, and no
//      output edge is seen after that (outputs low);
//   3. the input runs again at another period (another oscillator, or the
//      same one after a power cycle): lock again, outputs at the new period.
// Any check that fails prints "FAIL ..." and ends the simulation with
// $fatal (a non-zero exit status); the end prints "PASS tb_pll_models".
module tb_pll_models;
  // per model m (0 MMCME2_BASE, 1 EHXPLLL, 2 following clock): its input, run
  // while run[m], at half period half[m]
  reg  [2:0] run = 3'b000;
  reg  [2:0] in = 3'b000;
  real half[0:2];
  genvar g;
  generate
    for (g = 0; g < 3; g = g + 1) begin : gen_in
      always begin
        if (run[g]) #(half[g]) in[g] = !in[g];
        else begin
          in[g] = 1'b0;
          @(posedge run[g]);
        end
      end
    end
  endgenerate

  // outputs: index 2m (first) and 2m+1 (second) of model m; lock per model
  wire [5:0] out;
  wire [2:0] locked;

  // ---- MMCME2_BASE: 200 MHz in, VCO x5 = 1 GHz, CLKOUT0 / 4 = 250 MHz, CLKOUT1 / 8 = 125 MHz
  MMCME2_BASE #(
      .CLKIN1_PERIOD(0.0),
      .CLKFBOUT_MULT_F(5.0),
      .CLKOUT0_DIVIDE_F(4.0),
      .CLKOUT1_DIVIDE(8)
  ) u_mmcm (
      .CLKIN1(in[0]),
      .CLKFBIN(1'b0),
      .RST(1'b0),
      .PWRDWN(1'b0),
      .CLKOUT0(out[0]),
      .CLKOUT0B(),
      .CLKOUT1(out[1]),
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
      .LOCKED(locked[0])
  );

  // ---- EHXPLLL: 12 MHz in, CLKOP = in * 25 / 3 = 100 MHz (VCO 800 MHz), CLKOS = VCO / 16 = 50 MHz
  EHXPLLL #(
      .CLKI_DIV (3),
      .CLKFB_DIV(25),
      .CLKOP_DIV(8),
      .CLKOS_DIV(16)
  ) u_pll (
      .CLKI(in[1]),
      .CLKFB(out[2]),
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
      .CLKOP(out[2]),
      .CLKOS(out[3]),
      .CLKOS2(),
      .CLKOS3(),
      .LOCK(locked[1]),
      .INTLOCK(),
      .REFCLK(),
      .CLKINTFB()
  );

  // ---- a following clock as the KC705 PCIe block's user clock: 100 MHz in, 250 MHz out
  // (lock after 16 edges, whatever their periods; one output)
  kolo_sim_pll #(
      .LOCK_PERIODS(16),
      .EXACT(0),
      .RATIO0(0.4)
  ) u_follow (
      .clk_in(in[2]),
      .rst(1'b0),
      .locked(locked[2]),
      .out0(out[4]),
      .out1(out[5])
  );

  // rising edges and the time of the last one, per output
  integer  n_edges[0:5];
  realtime t_edge[0:5];
  generate
    for (g = 0; g < 6; g = g + 1) begin : gen_count
      initial begin
        n_edges[g] = 0;
        t_edge[g] = 0;
      end
      always @(posedge out[g]) begin
        n_edges[g] = n_edges[g] + 1;
        t_edge[g] = $realtime;
      end
    end
  endgenerate

  reg [8*16-1:0] model_name;
  task fail(input [8*80-1:0] what);
    begin
      $display("FAIL tb_pll_models: %0s: %0s (t = %0t ps)", model_name, what, $realtime);
      $fatal;
    end
  endtask

  // the period of output o from its rising edges over a window of `edges`
  task check_period(input integer o, input real expect_ps, input integer edges);
    integer  n0;
    realtime t0, t1;
    real     got;
    begin
      n0 = n_edges[o];
      wait (n_edges[o] == n0 + 1);
      t0 = t_edge[o];
      wait (n_edges[o] == n0 + 1 + edges);
      t1 = t_edge[o];
      got = (t1 - t0) / edges;
      $display("tb_pll_models: %0s output %0d period %0.1f ps (expected %0.1f)", model_name, o, got, expect_ps);
      if (got < expect_ps - 2.0 || got > expect_ps + 2.0) fail("an output's period is not the configured ratio of the input's");
    end
  endtask

  // the three phases for model m: input half periods half_a then half_b (ps),
  // lock bound in input periods, output period / input period of its two
  // outputs (0: the output is not used, it must stay low)
  task cycle_model(input integer m, input [8*16-1:0] name, input real half_a, input real half_b,
                   input integer lock_bound, input real ratio0, input real ratio1);
    realtime t_stop;
    integer  phase;
    begin
      model_name = name;
      for (phase = 0; phase < 2; phase = phase + 1) begin
        half[m] = phase == 0 ? half_a : half_b;
        run[m] = 1'b1;
        #(lock_bound * 2 * half[m]);
        if (!locked[m]) fail(phase == 0 ? "not locked within its bound after its input started"
                                        : "not locked again within its bound after its input restarted");
        check_period(2 * m, 2 * half[m] * ratio0, 50);
        if (ratio1 > 0.0) check_period(2 * m + 1, 2 * half[m] * ratio1, 50);
        else if (n_edges[2*m+1] != 0) fail("the unused output toggled");
        if (phase == 0) begin
          run[m] = 1'b0;
          t_stop = $realtime;
          #((4 + 2) * 2 * half[m]);
          if (locked[m]) fail("still locked 6 periods after its input stopped");
          #(10 * 2 * half[m]);
          if (t_edge[2*m] > t_stop + (4 + 2) * 2 * half[m] || t_edge[2*m+1] > t_stop + (4 + 2) * 2 * half[m])
            fail("an output toggled after lock was lost");
          if (out[2*m] || out[2*m+1]) fail("an output not low after lock was lost");
        end
      end
      run[m] = 1'b0;
    end
  endtask

  initial begin
    // 200 MHz then 160 MHz in: 250 / 125 MHz, then 200 / 100 MHz out
    cycle_model(0, "MMCME2_BASE", 2500.0, 3125.0, 100, 0.8, 1.6);
    // 12 MHz then 10 MHz in: CLKOP at in * 25 / 3, CLKOS at half of it
    cycle_model(1, "EHXPLLL", 41666.0, 50000.0, 50, 3.0 / 25.0, 6.0 / 25.0);
    // 100 MHz then 125 MHz in: out at 2.5 x in
    cycle_model(2, "following clock", 5000.0, 4000.0, 40, 0.4, 0.0);
    $display("PASS tb_pll_models");
    $finish;
  end
  initial begin
    #(300_000_000);
    model_name = "all";
    fail("timeout");
  end
endmodule
`default_nettype wire
