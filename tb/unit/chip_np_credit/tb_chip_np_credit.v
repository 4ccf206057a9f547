`default_nettype none
// tb_chip_np_credit - kolo_chip_np_credit between a model of kolo_pcie_ep's
// non-posted queue (16 entries, core clock) and a model of the PCIe block's
// credit count (PCIe user clock, another frequency), with PCIe-side reset
// rounds in the middle of the traffic (and one at power-up, longer than the
// core's reset). The block sends a
// non-posted request only with a credit; the requests it sent travel to the
// core (a PCIe reset drops those still on the way, as the TLP FIFO does);
// the core frees queue entries at random and gives a credit for each, and
// also takes posted writes and completions (which use no credit). PCIe
// reset rounds as kolo_reset_seq makes them. Checks:
// the core's queue never overflows (no credit given twice), and at the end,
// all requests served, the block holds all 16 credits (none lost to a
// reset). Seeded: +seed=N. BUG_NO_RELOAD=1 (the planted bug: the PCIe reset
// loses the credits) must fail.
module tb_chip_np_credit #(
    parameter BUG_NO_RELOAD = 0
);
  reg clk = 1'b0, pcie_clk = 1'b0;
  always #20 clk = !clk;
  always #27 pcie_clk = !pcie_clk;
  integer seed = 1, rs = 1, errors = 0, cyc = 0, q = 0, blk_cred = 0, pipe = 0, given = 0, n_resets = 0;
  integer n_np = 0, n_other = 0;
  reg rst = 1'b1, quiet = 1'b0;
  reg s_credit = 1'b0, s_rx_take = 1'b0;
  reg [7:0] s_rx_dw0 = 8'd0;
  wire m_credit;
  // a reset round as kolo_reset_seq makes it (not instantiated: its power-up
  // state is X under Icarus): both sides high at an edge of their own clock
  // before either leaves, each released at its own edge
  reg rst_pcie_core = 1'b1, rst_pcie = 1'b1;
  task pcie_round(input integer len);
    begin
      @(posedge clk) rst_pcie_core <= 1'b1;
      @(posedge pcie_clk) rst_pcie <= 1'b1;
      repeat (len) @(posedge pcie_clk);
      if ($urandom(rs) % 2) begin
        @(posedge clk) rst_pcie_core <= 1'b0;
        repeat ($urandom(rs) % 8) @(posedge pcie_clk);
        @(posedge pcie_clk) rst_pcie <= 1'b0;
      end else begin
        @(posedge pcie_clk) rst_pcie <= 1'b0;
        repeat ($urandom(rs) % 8) @(posedge clk);
        @(posedge clk) rst_pcie_core <= 1'b0;
      end
    end
  endtask
  kolo_chip_np_credit #(.MAX_CREDITS(16), .BUG_NO_RELOAD(BUG_NO_RELOAD)) u_dut (
      .clk(clk), .rst(rst), .rst_pcie_core(rst_pcie_core),
      .s_credit(s_credit), .s_rx_take(s_rx_take), .s_rx_dw0(s_rx_dw0),
      .pcie_clk(pcie_clk), .rst_pcie(rst_pcie), .m_credit(m_credit)
  );

  // the core: 16 credits after reset, then one per queue entry freed
  integer init_left = 16;
  always @(posedge clk) begin
    cyc = cyc + 1;
    s_credit <= 1'b0;
    s_rx_take <= 1'b0;
    if (rst) begin
      q = 0;
      init_left = 16;
    end else begin
      if (init_left > 0) begin
        s_credit <= 1'b1;
        init_left = init_left - 1;
        given = given + 1;
      end else if (q > 0 && $urandom(rs) % 100 < (quiet ? 30 : 8)) begin
        q = q - 1;
        s_credit <= 1'b1;
        given = given + 1;
      end
      if (!rst_pcie_core && pipe > 0 && $urandom(rs) % 100 < 50) begin
        pipe = pipe - 1;
        q = q + 1;
        n_np = n_np + 1;
        s_rx_take <= 1'b1;
        s_rx_dw0 <= ($urandom(rs) % 2) ? 8'h00 : 8'h20;  // MRd (3- or 4-DW)
        if (q > 16) begin
          $display("FAIL tb_chip_np_credit: the core's NP queue overflows (%0d requests; cycle %0d)", q, cyc);
          errors = errors + 1;
        end
      end else if (!rst_pcie_core && $urandom(rs) % 100 < 20) begin
        s_rx_take <= 1'b1;                                       // MWr, CplD, Msg: no credit
        case ($urandom(rs) % 3)
          0: s_rx_dw0 <= 8'h40;
          1: s_rx_dw0 <= 8'h4A;
          default: s_rx_dw0 <= 8'h34;
        endcase
        n_other = n_other + 1;
      end
    end
  end
  // the block: counts credits, spends one per request
  always @(posedge pcie_clk) begin
    if (rst_pcie) begin
      blk_cred = 0;
      pipe = 0;     // the TLP FIFO loses the requests on their way
    end else begin
      if (m_credit) blk_cred = blk_cred + 1;
      if (blk_cred > 0 && !quiet && $urandom(rs) % 100 < 35) begin
        blk_cred = blk_cred - 1;
        pipe = pipe + 1;
      end
    end
  end

  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    rs = seed;
    $display("tb_chip_np_credit: seed %0d%s", seed, BUG_NO_RELOAD ? " (planted bug: no reload)" : "");
    // the block's user reset outlasts the core's at power-up (link training)
    repeat (20) @(posedge clk);
    rst = 1'b0;
    pcie_round(200);
    repeat (6) begin
      repeat (300 + $urandom(rs) % 700) @(posedge clk);
      n_resets = n_resets + 1;
      pcie_round(1 + $urandom(rs) % 40);   // a hot reset in the middle of the traffic
    end
    repeat (500) @(posedge clk);
    quiet = 1'b1;                    // the block stops, the core serves what it has
    repeat (2000) @(posedge clk);
    if (q != 0 || pipe != 0) begin
      $display("FAIL tb_chip_np_credit: not drained (queue %0d, on the way %0d)", q, pipe);
      errors = errors + 1;
    end
    if (blk_cred != 16) begin
      $display("FAIL tb_chip_np_credit: the block holds %0d credits at the end, not 16 (lost or doubled)", blk_cred);
      errors = errors + 1;
    end
    $display("tb_chip_np_credit: given %0d, requests %0d, others %0d, queue %0d, block %0d", given, n_np, n_other, q, blk_cred);
    if (errors == 0)
      $display("PASS tb_chip_np_credit: %0d non-posted requests, %0d others, %0d credits given, %0d PCIe resets, block back at 16 credits (seed %0d)",
               n_np, n_other, given, n_resets, seed);
    else
      $display("FAIL tb_chip_np_credit: %0d error(s) (seed %0d; replay with SEED=%0d)", errors, seed, seed);
    $finish;
  end
endmodule
`default_nettype wire
