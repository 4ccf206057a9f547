`default_nettype none
// kolo_link_formal - formal harness of the reliable link layer (issue 3):
// two kolo_link_core ends, A and B, on one clock, joined by a lossy block
// channel, with both routers modelled as free (solver-chosen) environments.
//
//   A's router --flits--> A.tx ==blocks==> [chan AB] ==> B.rx --flits--> B's router
//   A's router <-credits- A.tx <==CTRL==== [chan BA] <== B.tx <-credits- B's router
//
// Data flows from A to B only (B's router sends nothing); the B->A direction
// carries B's INIT and CTRL blocks (ACK, NAK, credits). Both PHYs are locked
// (phy_rx_lock=1, no lock loss, no overflow).
//
// Channel, per direction: a block the sender hands over (blk_tx_ready is free:
// a slow lane, any delay) is delivered unchanged, or dropped, or corrupted;
// CHAN_REG=1 delivers it one cycle later, CHAN_REG=0 in the same cycle.
// A corrupted block arrives either with an invalid sync header (2'b00 or
// 2'b11) or with one payload bit flipped, the solver choosing which of bits
// 0-5, 8, 9: in a data block the flit number and VC, in a control block its
// type and low sequence bits. (Only these bits: kolo_crc32c_64_abs.v, used
// for the deeper runs, is exact only on the fields the harness sends; a
// free adversary that flips many bits could compute a CRC collision, which
// no CRC stops.) The CRCs matter: a flipped bit or a dropped block that
// splices neighbouring frames is rejected only by the CRC-32C / CRC-8.
// Storage without a reset (buffers, data registers) starts at zero (the
// proof flow sets it so; it makes BMC ~10x faster). A design that read a
// slot before writing it would still be caught: a zero flit is no valid
// delivery (head clear on flit number 0).
//
// A's router: 2-flit packets (head, tail) on VCs 0..NVC-1, possibly
// interleaved across VCs, at most one flit per cycle, only against a credit:
// per-VC credit counters start at OUT_CREDITS and count A's tx_credit_valid.
// Flit data = {vc, low NUM_W bits of the per-VC flit number}; a head has an
// even number, its tail the next odd one.
// B's router: per-VC occupancy; each rx flit adds one; it returns a credit
// (one per cycle, of any VC it holds a flit of) whenever it chooses to.
//
// Properties (checked from the cycle after the reset):
//  (1) order: every flit B delivers carries its own VC, was sent and not yet
//      delivered, and is later than the last flit delivered on that VC (no
//      duplicate, no reordering); packets are whole (a tail directly follows
//      its head, a head follows a complete packet). Flits are skipped only
//      when packets are dropped: the flits B has skipped never exceed twice
//      the packets A counts as dropped (pkts_dropped, link down or a
//      restarted peer, docs/link.md). So, as long as A has dropped nothing,
//      B's output is exactly the prefix of what was sent, per VC.
//  (2) credits: B's router never holds more than OUT_CREDITS flits of a VC
//      (credits never exceed the receiver's free space); A's router never
//      holds more than OUT_CREDITS credits of a VC; while nothing was
//      dropped, flits sent and not yet delivered never exceed OUT_CREDITS.
//      A delivers nothing (nothing is sent B -> A).
//  Covers: see the end of the module.
//
// Defines: FORMAL_NO_DOWN assumes that no end ever starts a link down (a
// restriction of the adversary, for runs that want only the up/retrain part).
module kolo_link_formal #(
    parameter NVC            = 2,     // VCs the sending router uses (1..4)
    parameter NUM_W          = 6,     // bits of the flit number in the data (1..6; the domain of kolo_crc32c_64_abs.v)
    parameter CHAN_REG       = 0,     // channel latency: 0 same cycle, 1 one cycle
    parameter VC_BUF         = 4,
    parameter OUT_CREDITS    = 4,
    parameter MAX_PKT        = 2,
    parameter SEQ_W          = 4,
    parameter RXB_W          = 3,
    parameter REPLAY_TIMEOUT = 6,     // short timers: every recovery path within ~25 cycles
    parameter MAX_REPLAYS    = 2,
    parameter TRAIN_BUDGET   = 8,
    parameter CTRL_MAX_AGE   = 2,
    parameter CTRL_REFRESH   = 8
) (
    // Every input is a free choice of the solver (inputs rather than $anyseq
    // wires, so that AIGER counterexamples map back onto names).
    input wire       clk,
    input wire       rst,         // assumed: high in the first cycle only
    input wire       a_send,      // A's router offers a flit ...
    input wire [1:0] a_send_vc,   // ... on this VC (if it has a credit)
    input wire       b_ret,       // B's router returns a credit ...
    input wire [1:0] b_ret_vc,    // ... of this VC (if it holds a flit)
    input wire       ab_ready,    // A's lane takes a block (slow lane)
    input wire       ba_ready,    // B's lane takes a block
    input wire [1:0] ab_fate,     // block A->B: 0/3 delivered, 1 dropped, 2 corrupted
    input wire [1:0] ba_fate,     // block B->A: same
    input wire       ab_bad_hi,   // corrupted: sync 2'b11 (else 2'b00) ...
    input wire       ba_bad_hi,
    input wire [3:0] ab_flip,     // ... or, if 0-5, 8 or 9: this payload bit flipped
    input wire [3:0] ba_flip
);
  // ---- reset: asserted in the first cycle, never again ------------------------------
  reg f_past = 1'b0;
  always @(posedge clk) f_past <= 1'b1;
  always @* assume (rst == !f_past);

  localparam [7:0] NUM_MASK = 8'hFF >> (8 - NUM_W);

  // ---- the two ends -----------------------------------------------------------------
  wire        a_tx_valid;
  wire [67:0] a_tx_flit;
  wire        a_tx_credit_valid, a_rx_valid, a_link_up;
  wire [1:0]  a_tx_credit_vc;
  wire [67:0] a_rx_flit;
  wire        a_blk_tx_valid;
  wire [65:0] a_blk_tx;
  wire [1:0]  a_state;
  wire        a_miscabled;
  wire [511:0] a_cnt;

  wire        b_tx_credit_valid, b_rx_valid, b_link_up;
  wire [1:0]  b_tx_credit_vc;
  wire [67:0] b_rx_flit;
  wire        b_rx_credit_valid;
  wire [1:0]  b_rx_credit_vc;
  wire        b_blk_tx_valid;
  wire [65:0] b_blk_tx;
  wire [1:0]  b_state;
  wire        b_miscabled;
  wire [511:0] b_cnt;

  wire        ab_valid, ba_valid;   // channel outputs
  wire [65:0] ab_blk, ba_blk;

  kolo_link_core #(
      .VC_BUF(VC_BUF), .OUT_CREDITS(OUT_CREDITS), .SEQ_W(SEQ_W),
      .REPLAY_TIMEOUT(REPLAY_TIMEOUT), .MAX_REPLAYS(MAX_REPLAYS), .TRAIN_BUDGET(TRAIN_BUDGET),
      .CTRL_MAX_AGE(CTRL_MAX_AGE), .CTRL_REFRESH(CTRL_REFRESH), .RXB_W(RXB_W), .MAX_PKT(MAX_PKT)
  ) u_a (
      .clk(clk), .rst(rst),
      .cfg_node_id(12'h001), .cfg_port(3'd0), .cfg_peer_id(12'h002), .cfg_peer_port(3'd1),
      .tx_valid(a_tx_valid), .tx_flit(a_tx_flit),
      .tx_credit_valid(a_tx_credit_valid), .tx_credit_vc(a_tx_credit_vc),
      .rx_valid(a_rx_valid), .rx_flit(a_rx_flit),
      .rx_credit_valid(1'b0), .rx_credit_vc(2'd0),
      .link_up(a_link_up),
      .blk_tx_valid(a_blk_tx_valid), .blk_tx_ready(ab_ready), .blk_tx(a_blk_tx),
      .blk_rx_valid(ba_valid), .blk_rx(ba_blk),
      .phy_rx_lock(1'b1), .phy_lock_loss(1'b0), .phy_rx_overflow(1'b0),
      .stat_state(a_state), .stat_miscabled(a_miscabled), .stat_counters(a_cnt)
  );

  kolo_link_core #(
      .VC_BUF(VC_BUF), .OUT_CREDITS(OUT_CREDITS), .SEQ_W(SEQ_W),
      .REPLAY_TIMEOUT(REPLAY_TIMEOUT), .MAX_REPLAYS(MAX_REPLAYS), .TRAIN_BUDGET(TRAIN_BUDGET),
      .CTRL_MAX_AGE(CTRL_MAX_AGE), .CTRL_REFRESH(CTRL_REFRESH), .RXB_W(RXB_W), .MAX_PKT(MAX_PKT)
  ) u_b (
      .clk(clk), .rst(rst),
      .cfg_node_id(12'h002), .cfg_port(3'd1), .cfg_peer_id(12'h001), .cfg_peer_port(3'd0),
      .tx_valid(1'b0), .tx_flit(68'd0),
      .tx_credit_valid(b_tx_credit_valid), .tx_credit_vc(b_tx_credit_vc),
      .rx_valid(b_rx_valid), .rx_flit(b_rx_flit),
      .rx_credit_valid(b_rx_credit_valid), .rx_credit_vc(b_rx_credit_vc),
      .link_up(b_link_up),
      .blk_tx_valid(b_blk_tx_valid), .blk_tx_ready(ba_ready), .blk_tx(b_blk_tx),
      .blk_rx_valid(ab_valid), .blk_rx(ab_blk),
      .phy_rx_lock(1'b1), .phy_lock_loss(1'b0), .phy_rx_overflow(1'b0),
      .stat_state(b_state), .stat_miscabled(b_miscabled), .stat_counters(b_cnt)
  );

  // ---- channels: deliver / drop / corrupt ------------------------------------------
  function [65:0] corrupt(input [65:0] blk, input bad_hi, input [3:0] flip);
    if (flip <= 4'd9 && flip != 4'd6 && flip != 4'd7) corrupt = blk ^ (66'd1 << flip);
    else corrupt = {bad_hi, bad_hi, blk[63:0]};
  endfunction
  wire ab_take = a_blk_tx_valid && ab_ready;
  wire ba_take = b_blk_tx_valid && ba_ready;
  wire ab_drop = ab_fate == 2'd1, ab_corrupt = ab_fate == 2'd2;
  wire ba_drop = ba_fate == 2'd1, ba_corrupt = ba_fate == 2'd2;
  wire        ab_v = ab_take && !ab_drop;
  wire        ba_v = ba_take && !ba_drop;
  wire [65:0] ab_b = ab_corrupt ? corrupt(a_blk_tx, ab_bad_hi, ab_flip) : a_blk_tx;
  wire [65:0] ba_b = ba_corrupt ? corrupt(b_blk_tx, ba_bad_hi, ba_flip) : b_blk_tx;
  generate
    if (CHAN_REG) begin : g_chan_reg
      reg        ab_valid_q, ba_valid_q;
      reg [65:0] ab_blk_q, ba_blk_q;
      always @(posedge clk) begin
        ab_valid_q <= !rst && ab_v;
        ba_valid_q <= !rst && ba_v;
        ab_blk_q <= ab_b;
        ba_blk_q <= ba_b;
      end
      assign ab_valid = ab_valid_q, ab_blk = ab_blk_q;
      assign ba_valid = ba_valid_q, ba_blk = ba_blk_q;
    end else begin : g_chan_comb
      assign ab_valid = ab_v, ab_blk = ab_b;
      assign ba_valid = ba_v, ba_blk = ba_b;
    end
  endgenerate

  // ---- A's router: 2-flit packets against credits ------------------------------------
  reg  [4*4-1:0] a_credits;   // per VC, VC v at [v*4 +: 4]
  reg  [4*8-1:0] snd_cnt;     // flits sent per VC (mod 256)
  wire [3:0] cred_sel = a_credits[a_send_vc*4+:4];
  wire [7:0] snd_sel = snd_cnt[a_send_vc*8+:8];
  assign a_tx_valid = a_send && a_send_vc < NVC && cred_sel != 4'd0;
  assign a_tx_flit = {a_send_vc, !snd_sel[0], snd_sel[0], 54'd0, a_send_vc, snd_sel & NUM_MASK};

  // ---- B's router: occupancy, credits returned at will --------------------------------
  reg  [4*4-1:0] b_occ;
  assign b_rx_credit_valid = b_ret && b_occ[b_ret_vc*4+:4] != 4'd0;
  assign b_rx_credit_vc = b_ret_vc;

  // ---- checker state ---------------------------------------------------------------
  reg  [4*8-1:0] rcv_cnt;     // per VC: one past the last flit delivered (mod 256)
  reg  [7:0]     skipped;     // flits B has skipped over (packets never delivered)
  wire [7:0] dropped = a_cnt[11*32+:8];   // A's pkts_dropped counter
  wire [1:0] r_vc = b_rx_flit[67:66];
  wire       r_head = b_rx_flit[65], r_tail = b_rx_flit[64];
  wire [1:0] r_dvc = b_rx_flit[9:8];
  wire [7:0] r_exp = rcv_cnt[r_vc*8+:8];
  wire [7:0] r_sent = snd_cnt[r_vc*8+:8];
  wire [7:0] r_ahead = (b_rx_flit[7:0] - r_exp) & NUM_MASK;  // flits skipped before this one
  wire [7:0] r_num = r_exp + r_ahead;   // the flit's number (exact while r_ahead < 2**NUM_W)
  wire [7:0] r_outst = r_sent - r_exp;  // sent but not yet delivered

  integer v;
  always @(posedge clk) begin
    if (rst) begin
      for (v = 0; v < 4; v = v + 1) begin
        a_credits[v*4+:4] <= OUT_CREDITS[3:0];
        b_occ[v*4+:4] <= 4'd0;
      end
      snd_cnt <= 32'd0;
      rcv_cnt <= 32'd0;
      skipped <= 8'd0;
    end else begin
      for (v = 0; v < 4; v = v + 1) begin
        a_credits[v*4+:4] <= a_credits[v*4+:4]
            - {3'd0, a_tx_valid && a_send_vc == v[1:0]}
            + {3'd0, a_tx_credit_valid && a_tx_credit_vc == v[1:0]};
        if (a_tx_valid && a_send_vc == v[1:0]) snd_cnt[v*8+:8] <= snd_cnt[v*8+:8] + 8'd1;
        b_occ[v*4+:4] <= b_occ[v*4+:4]
            + {3'd0, b_rx_valid && r_vc == v[1:0]}
            - {3'd0, b_rx_credit_valid && b_rx_credit_vc == v[1:0]};
      end
      if (b_rx_valid) begin
        rcv_cnt[r_vc*8+:8] <= r_num + 8'd1;
        skipped <= skipped + r_ahead;
      end
    end
  end

`ifdef FORMAL_NO_DOWN
  always @* if (f_past) assume (dropped == 8'd0);
`endif

  // ---- (1) order: prefix, in order, no duplicates, whole packets ----------------------
  always @(posedge clk) begin
    if (f_past && b_rx_valid) begin
      assert (r_vc < NVC);
      assert (r_dvc == r_vc && b_rx_flit[63:10] == 54'd0      // the flit's own VC,
              && (b_rx_flit[7:0] & ~NUM_MASK) == 8'd0);       // nothing else in the data
      assert (r_head == !r_num[0] && r_tail == r_num[0]);    // head even, tail odd
      assert (r_ahead < r_outst);                             // sent, not yet delivered
      if (r_tail) assert (r_ahead == 8'd0);                   // a tail follows its head
      if (r_head) assert (!r_exp[0]);                         // the previous packet ended
      if (dropped == 8'd0) assert (r_ahead == 8'd0);          // exactly the next one
    end
  end
  // every skipped packet was counted as dropped by A
  always @(posedge clk) if (f_past) assert ({1'b0, skipped} <= {dropped, 1'b0});

  // ---- (2) credits ------------------------------------------------------------------
  genvar g;
  generate
    for (g = 0; g < 4; g = g + 1) begin : g_vc
      always @(posedge clk) begin
        if (f_past) begin
          assert (b_occ[g*4+:4] <= OUT_CREDITS);       // within B's free space
          assert (a_credits[g*4+:4] <= OUT_CREDITS);   // no credit beyond the buffer
          if (dropped == 8'd0) assert (snd_cnt[g*8+:8] - rcv_cnt[g*8+:8] <= OUT_CREDITS);
        end
      end
    end
  endgenerate
  always @(posedge clk) if (f_past) assert (!a_rx_valid);   // nothing flows B -> A

  // ---- covers -------------------------------------------------------------------------
  // the flit in A's first dropped / corrupted data block; sticky event flags
  reg       drop_seen, corr_seen, replay_seen, retrain_seen, down_seen;
  reg       ctrl_in_frame, a_in_frame, abort_seen;
  reg [9:0] drop_id, corr_id;
  always @(posedge clk) begin
    if (rst) begin
      drop_seen <= 1'b0;
      corr_seen <= 1'b0;
      drop_id <= 10'd0;
      corr_id <= 10'd0;
      replay_seen <= 1'b0;
      retrain_seen <= 1'b0;
      down_seen <= 1'b0;
      ctrl_in_frame <= 1'b0;
      a_in_frame <= 1'b0;
      abort_seen <= 1'b0;
    end else begin
      if (ab_take && ab_drop && a_blk_tx[65:64] == 2'b01 && !drop_seen) begin
        drop_seen <= 1'b1;
        drop_id <= a_blk_tx[9:0];
      end
      if (ab_take && ab_corrupt && a_blk_tx[65:64] == 2'b01 && !corr_seen) begin
        corr_seen <= 1'b1;
        corr_id <= a_blk_tx[9:0];
      end
      if (a_cnt[4*32+:8] != 8'd0) replay_seen <= 1'b1;
      if (a_cnt[5*32+:8] != 8'd0) retrain_seen <= 1'b1;
      if (a_cnt[13*32+:8] != 8'd0 || b_cnt[13*32+:8] != 8'd0) down_seen <= 1'b1;
      if (ab_take) begin
        // a frame: its data blocks (a head has an even flit number), then
        // its EOF (0x78), or an ABORT (0x33) that breaks it off
        if (a_blk_tx[65:64] == 2'b01 && !a_blk_tx[0]) a_in_frame <= 1'b1;   // a head
        if (a_blk_tx[65:64] == 2'b10 && (a_blk_tx[7:0] == 8'h78 || a_blk_tx[7:0] == 8'h33)) a_in_frame <= 1'b0;
        if (a_blk_tx[65:64] == 2'b10 && a_blk_tx[7:0] == 8'h55 && a_in_frame) ctrl_in_frame <= 1'b1;
        if (a_blk_tx[65:64] == 2'b10 && a_blk_tx[7:0] == 8'h33) abort_seen <= 1'b1;
      end
    end
  end
  // Covers, as labelled cover statements; with KOLO_COVER_AS_ASSERT (the ABC
  // flow of formal_link.sh) each becomes an assertion of its negation, so a
  // "counterexample" to cover_<name> is a trace that reaches it.
`ifdef KOLO_COVER_AS_ASSERT
`define KOLO_COVER(label, cond) label: assert (!(cond));
`else
`define KOLO_COVER(label, cond) label: cover (cond);
`endif
  wire deliver_tail = b_rx_valid && r_tail;
  always @(posedge clk) begin
    if (f_past) begin
      `KOLO_COVER(cover_packet, deliver_tail)
      `KOLO_COVER(cover_after_drop, b_rx_valid && drop_seen && b_rx_flit[9:0] == drop_id)
      `KOLO_COVER(cover_after_corrupt, b_rx_valid && corr_seen && b_rx_flit[9:0] == corr_id)
      `KOLO_COVER(cover_replay, replay_seen && deliver_tail)
      `KOLO_COVER(cover_retrain, retrain_seen && deliver_tail)
      `KOLO_COVER(cover_down, down_seen && deliver_tail)
      `KOLO_COVER(cover_ctrl_in_frame, ctrl_in_frame)
      `KOLO_COVER(cover_abort, abort_seen && deliver_tail)
      `KOLO_COVER(cover_credits_out, a_credits[3:0] == 4'd0)
    end
  end
`undef KOLO_COVER

  wire unused = &{1'b0, a_rx_flit, a_link_up, b_link_up, a_miscabled, b_miscabled,
                  b_tx_credit_valid, b_tx_credit_vc, a_state, b_state, a_cnt, b_cnt};
endmodule
`default_nettype wire
