`default_nettype none
// tb_node_local - kolo_node_local (the router's local port of a chip without
// an NI) between a model of the router's local port and a model of the
// service block's mailbox, on Icarus. Seeded: +seed=N.
// Ejection: the router model sends random packets to the node against
// EJECT_CREDITS (64) per VC, at random times: good MGMT packets on vnet 1
// (classes 0 and 1), responses and requests of other ops on vnets 0 and 1,
// and short packets (fewer flits than declared; MGMT ones among them). The
// mailbox takes flits with random stalls. Checks: the mailbox receives
// exactly the good MGMT packets, flit for flit and in order per VC; drops
// counts every other packet; nothing hangs: at the end every ejection
// credit is back (64 per VC) and every packet was consumed.
// Injection: the mailbox sends random MGMT packets (0..32 payload flits,
// ordered or not); the router model returns credits after random delays.
// Checks: every flit leaves exactly once, in order, on VC {1, !ordered},
// never beyond the router's buffer (LOCAL_DEPTH 80 per VC), and no flit of
// another vnet is injected.
// BUG=1 (vnet 0 not drained) and BUG=2 (vnet-1 drops not counted) are
// planted bugs that must fail (make test-unit-node-local).
module tb_node_local #(
    parameter BUG = 0
);
  `include "kolo_defs.vh"
  reg clk = 1'b0;
  always #5 clk = !clk;
  reg rst = 1'b1;
  integer seed = 1, rs = 1, errors = 0, cyc = 0;

  // ---- DUT ------------------------------------------------------------------------------------
  wire        inj_valid, ej_credit_valid, mgmt_tx_ready, mgmt_rx_valid;
  wire [67:0] inj_flit;
  wire [1:0]  ej_credit_vc;
  wire [65:0] mgmt_rx_flit;
  wire [31:0] drops;
  reg         inj_credit_valid = 1'b0, ej_valid = 1'b0, mgmt_tx_valid = 1'b0, mgmt_rx_ready = 1'b0;
  reg  [1:0]  inj_credit_vc = 2'd0;
  reg  [67:0] ej_flit = 68'd0;
  reg  [65:0] mgmt_tx_flit = 66'd0;
  kolo_node_local #(.INJ_CREDITS(80), .EJ_DEPTH(64), .BUG(BUG)) u_dut (
      .clk(clk), .rst(rst),
      .inj_valid(inj_valid), .inj_flit(inj_flit), .inj_credit_valid(inj_credit_valid),
      .inj_credit_vc(inj_credit_vc), .ej_valid(ej_valid), .ej_flit(ej_flit),
      .ej_credit_valid(ej_credit_valid), .ej_credit_vc(ej_credit_vc),
      .mgmt_tx_valid(mgmt_tx_valid), .mgmt_tx_flit(mgmt_tx_flit), .mgmt_tx_ready(mgmt_tx_ready),
      .mgmt_rx_valid(mgmt_rx_valid), .mgmt_rx_flit(mgmt_rx_flit), .mgmt_rx_ready(mgmt_rx_ready),
      .drops(drops)
  );

  task fail(input [8*80-1:0] msg);
    begin
      if (errors < 10) $display("FAIL tb_node_local: cycle %0d: %0s", cyc, msg);
      errors = errors + 1;
    end
  endtask

  // ---- ejection: the router model ------------------------------------------------------------
  localparam NPKT = 400;
  integer ej_cred[0:3];
  integer exp_drops = 0, exp_mgmt = 0, sent_pkts = 0;
  // expected MGMT flits, per VC class of vnet 1 (a queue each, as the DUT's FIFOs keep the order per VC)
  reg [65:0] mq[0:1][0:16383];
  integer mq_wr[0:1], mq_rd[0:1];
  integer i, j, v, f, len, nfl, kind, stall;
  reg hung = 1'b0;
  reg [1:0] vc;
  reg [63:0] h0;
  initial begin
    for (v = 0; v < 4; v = v + 1) ej_cred[v] = 64;
    mq_wr[0] = 0; mq_wr[1] = 0; mq_rd[0] = 0; mq_rd[1] = 0;
  end
  always @(posedge clk) if (!rst && ej_credit_valid) ej_cred[ej_credit_vc] = ej_cred[ej_credit_vc] + 1;

  task ej_packet;
    begin
      vc = $urandom(rs) % 4;
      kind = $urandom(rs) % 10;        // 0..4 MGMT, 5..7 other op, 8..9 short
      len = $urandom(rs) % 33;
      nfl = len + 2;
      h0 = {$urandom(rs), $urandom(rs)};
      h0[KOLO_H0_LEN_LO+:6] = len[5:0];
      h0[KOLO_H0_OP_LO+:4] = (kind < 5 || (kind >= 8 && kind % 2 == 0)) ? `KOLO_OP_MGMT : 4'd3;
      h0[KOLO_H0_VNET] = vc[1];
      if (kind >= 8) nfl = 1 + $urandom(rs) % (len + 1);   // short: 1 .. len + 1 flits
      if (vc[1] && kind < 5) begin
        exp_mgmt = exp_mgmt + 1;
      end else begin
        exp_drops = exp_drops + 1;
      end
      for (f = 0; f < nfl && !hung; f = f + 1) begin
        stall = 0;
        while ((ej_cred[vc] == 0 || $urandom(rs) % 4 == 0) && !hung) begin
          ej_valid <= 1'b0;
          @(posedge clk);
          stall = stall + 1;
          if (stall > 20000) begin
            hung = 1'b1;
            fail("ejection: no credit back for 20000 cycles: the local port hangs");
          end
        end
        if (!hung) ej_valid <= 1'b1;
        ej_flit <= {vc, f == 0, f == nfl - 1, f == 0 ? h0 : {$urandom(rs), $urandom(rs)}};
        if (!hung) ej_cred[vc] = ej_cred[vc] - 1;
        @(posedge clk);
        if (vc[1] && kind < 5 && !hung) begin
          mq[vc[0]][mq_wr[vc[0]]] = ej_flit[65:0];
          mq_wr[vc[0]] = mq_wr[vc[0]] + 1;
        end
      end
      ej_valid <= 1'b0;
      sent_pkts = sent_pkts + 1;
    end
  endtask

  // the mailbox: takes flits with stalls; checks them against the expected MGMT flits. The
  // DUT alternates VCs between packets: the class is not in the flit (the mailbox sees
  // {head, tail, data}), so the packet's first flit picks the queue whose head it matches.
  integer rx_cls = -1, rx_flits = 0, rx_pkts = 0;
  always @(posedge clk) begin
    if (!rst) begin
      if (mgmt_rx_valid && mgmt_rx_ready) begin
        rx_flits = rx_flits + 1;
        if (rx_cls < 0) begin
          if (!mgmt_rx_flit[65]) fail("mailbox: a packet starts without a head");
          else if (mq_rd[0] < mq_wr[0] && mgmt_rx_flit == mq[0][mq_rd[0]]) rx_cls = 0;
          else if (mq_rd[1] < mq_wr[1] && mgmt_rx_flit == mq[1][mq_rd[1]]) rx_cls = 1;
          else fail("mailbox: a head that is no expected MGMT packet's");
        end else if (mq_rd[rx_cls] >= mq_wr[rx_cls] || mgmt_rx_flit != mq[rx_cls][mq_rd[rx_cls]]) begin
          fail("mailbox: a flit differs from the MGMT packet's");
        end
        if (rx_cls >= 0) mq_rd[rx_cls] = mq_rd[rx_cls] + 1;
        if (mgmt_rx_flit[64]) begin
          rx_pkts = rx_pkts + 1;
          rx_cls = -1;
        end
      end
      mgmt_rx_ready <= $urandom(rs) % 8 != 0;
    end
  end

  // ---- injection: the mailbox's packets, the router's buffer --------------------------------
  reg [65:0] tq[0:16383];
  reg [1:0]  tq_vc[0:16383];
  integer tq_wr = 0, tq_rd = 0;
  integer occ[0:3];
  integer tpk = 0, tlen, tf, tnfl;
  reg tord;
  reg [63:0] th0;
  initial for (v = 0; v < 4; v = v + 1) occ[v] = 0;
  task tx_packet;
    begin
      tlen = $urandom(rs) % 33;
      tnfl = tlen + 2;
      tord = $urandom(rs) % 2;
      th0 = {$urandom(rs), $urandom(rs)};
      th0[KOLO_H0_LEN_LO+:6] = tlen[5:0];
      th0[KOLO_H0_OP_LO+:4] = `KOLO_OP_MGMT;
      th0[KOLO_H0_VNET] = 1'b1;
      th0[KOLO_H0_ORDERED] = tord;
      for (tf = 0; tf < tnfl; tf = tf + 1) begin
        while ($urandom(rs) % 5 == 0) begin
          mgmt_tx_valid <= 1'b0;
          @(posedge clk);
        end
        mgmt_tx_valid <= 1'b1;
        mgmt_tx_flit <= {tf == 0, tf == tnfl - 1, tf == 0 ? th0 : {$urandom(rs), $urandom(rs)}};
        tq[tq_wr] = {tf == 0, tf == tnfl - 1, tf == 0 ? th0 : 64'd0};
        @(posedge clk);
        while (!mgmt_tx_ready) @(posedge clk);
        tq[tq_wr] = mgmt_tx_flit;
        tq_vc[tq_wr] = {1'b1, !tord};
        tq_wr = tq_wr + 1;
      end
      mgmt_tx_valid <= 1'b0;
      tpk = tpk + 1;
    end
  endtask
  // the router's local input buffer: flits leave at random, a credit back for each
  integer rv;
  always @(posedge clk) begin
    if (!rst) begin
      inj_credit_valid <= 1'b0;
      rv = $urandom(rs) % 4;
      if (occ[rv] > 0 && $urandom(rs) % 3 == 0) begin
        occ[rv] = occ[rv] - 1;
        inj_credit_valid <= 1'b1;
        inj_credit_vc <= rv;
      end
      if (inj_valid) begin
        occ[inj_flit[67:66]] = occ[inj_flit[67:66]] + 1;
        if (occ[inj_flit[67:66]] > 80) fail("injection: a flit beyond the router's buffer");
        if (tq_rd >= tq_wr) fail("injection: a flit nobody sent");
        else begin
          if (inj_flit[65:0] != tq[tq_rd] || inj_flit[67:66] != tq_vc[tq_rd])
            fail("injection: a flit or its VC differs from the mailbox's");
          tq_rd = tq_rd + 1;
        end
      end
    end
  end

  // ---- run -------------------------------------------------------------------------------------
  always @(posedge clk) cyc = cyc + 1;
  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    rs = seed;
    $display("tb_node_local: seed %0d%s", seed, BUG == 1 ? " (planted bug: vnet 0 not drained)" :
             BUG == 2 ? " (planted bug: vnet-1 drops not counted)" : "");
    repeat (5) @(posedge clk);
    rst <= 1'b0;
    @(posedge clk);
    fork
      for (i = 0; i < NPKT && !hung; i = i + 1) ej_packet;
      for (j = 0; j < 150; j = j + 1) tx_packet;
    join
    // drain: everything consumed, every credit back
    repeat (3000) @(posedge clk);
    for (v = 0; v < 4; v = v + 1)
      if (ej_cred[v] != 64) begin
        fail("ejection credits not all returned: a VC hangs");
        $display("  VC %0d: %0d of 64 credits", v, ej_cred[v]);
      end
    if (rx_pkts != exp_mgmt || mq_rd[0] != mq_wr[0] || mq_rd[1] != mq_wr[1]) begin
      fail("the mailbox did not receive every good MGMT packet");
      $display("  %0d of %0d packets", rx_pkts, exp_mgmt);
    end
    if (drops != exp_drops) begin
      fail("drops differs from the packets drained");
      $display("  drops %0d, want %0d", drops, exp_drops);
    end
    if (tq_rd != tq_wr) fail("injection: flits of the mailbox never left");
    if (errors == 0)
      $display("PASS tb_node_local: %0d packets ejected (%0d MGMT, %0d drained), %0d MGMT packets injected",
               sent_pkts, exp_mgmt, exp_drops, tpk);
    $finish;
  end
  initial begin
    #50000000;
    $display("FAIL tb_node_local: timeout");
    $finish;
  end
endmodule
`default_nettype wire
