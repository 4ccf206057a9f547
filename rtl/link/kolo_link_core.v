`default_nettype none
// kolo_link_core - the core-clock half of a kolo link: transmitter, receiver,
// channel initialisation, retrain, link down, and the status counters.
//
// Router side: as kolo_link_ideal (credit-based, no ready). Block side:
// blk_tx_* valid/ready towards kolo_link_phy, blk_rx_* one block per cycle
// from it (no ready). States (stat_state): 0 down, 1 training, 2 up.
// Training: INIT blocks carry {node id, port, fresh, seen, ready}; the link
// comes up when this end is ready and the neighbour says ready (or is seen
// sending frames/CTRL after this end said ready). An INIT from a node or port
// other than cfg_peer_* is counted and ignored (stat_miscabled). The identity
// of the last INIT received (expected or not) is kept in stat_peer_* until
// the lanes lose lock (neighbour identity for the service block);
// stat_peer_seen pulses with each INIT taken there.
// Retrain (sequence numbers and buffers kept) on MAX_REPLAYS replays without
// progress, loss of lock, or an INIT while up. Training longer than
// TRAIN_BUDGET cycles, or a fresh INIT from the neighbour while this end is
// not fresh (the neighbour restarted), takes the link down: frames are dropped and counted,
// credits go back to the router, flits sent while down are dropped; the link
// keeps training "fresh" and comes up by itself when the lane heals.
module kolo_link_core #(
    parameter VC_BUF         = 128,
    parameter OUT_CREDITS    = 80,
    parameter SEQ_W          = 12,
    parameter REPLAY_TIMEOUT = 1024,
    parameter MAX_REPLAYS    = 4,
    parameter TRAIN_BUDGET   = 100000,
    parameter CTRL_MAX_AGE   = 32,
    parameter CTRL_REFRESH   = 256,
    parameter RXB_W          = 7,     // receive buffer: 2**RXB_W flits, >= 2 maximum packets
    parameter MAX_PKT        = 34     // longest packet in flits (smaller only for formal)
) (
    input  wire         clk,
    input  wire         rst,
    input  wire [11:0]  cfg_node_id,
    input  wire [2:0]   cfg_port,
    input  wire [11:0]  cfg_peer_id,
    input  wire [2:0]   cfg_peer_port,
    // router side
    input  wire         tx_valid,
    input  wire [67:0]  tx_flit,
    output wire         tx_credit_valid,
    output wire [1:0]   tx_credit_vc,
    output wire         rx_valid,
    output wire [67:0]  rx_flit,
    input  wire         rx_credit_valid,
    input  wire [1:0]   rx_credit_vc,
    output wire         link_up,
    // PHY side
    output wire         blk_tx_valid,
    input  wire         blk_tx_ready,
    output wire [65:0]  blk_tx,
    input  wire         blk_rx_valid,
    input  wire [65:0]  blk_rx,
    input  wire         phy_rx_lock,
    input  wire         phy_lock_loss,
    input  wire         phy_rx_overflow,
    // status
    output wire [1:0]   stat_state,
    output reg          stat_miscabled,
    output reg          stat_peer_valid,   // an INIT arrived since lock was last lost
    output reg  [11:0]  stat_peer_id,      // ... from this node id and port (right or wrong)
    output reg  [2:0]   stat_peer_port,
    output reg          stat_peer_seen,    // one cycle: stat_peer_* now hold a newly received INIT's
    output wire [511:0] stat_counters
);
  `include "kolo_link_defs.vh"

  localparam integer TB_W = $clog2(TRAIN_BUDGET + 1);

  // ---- state ------------------------------------------------------------------------
  reg up;
  reg fresh;        // sequence numbers and credits restart when the link comes up
  reg down;         // training took longer than TRAIN_BUDGET
  reg seen;         // a valid INIT from the expected neighbour arrived
  reg sent_ready;   // an INIT with ready left since training began
  reg [TB_W-1:0] train_timer;

  wire        tx_retrain_req, tx_sent_init, tx_idle, rx_owed_zero;
  wire        rx_init_valid;
  wire [63:0] rx_init_pl;
  wire        rx_peer_active;
  wire [11:0] peer_id = rx_init_pl[19:8];
  wire [2:0]  peer_port = rx_init_pl[22:20];
  wire        peer_fresh = rx_init_pl[23];
  wire        peer_seen = rx_init_pl[24];
  wire        peer_ready = rx_init_pl[25];
  wire        init_ok = rx_init_valid && peer_id == cfg_peer_id && peer_port == cfg_peer_port;
  wire        init_wrong = rx_init_valid && !init_ok;

  wire local_ready = seen && phy_rx_lock && (!fresh || rx_owed_zero);
  wire go_up = !up && local_ready
               && ((init_ok && peer_ready && peer_seen && peer_fresh == fresh)
                   || (rx_peer_active && sent_ready));
  // the neighbour restarted (reset, reflash, power cycle: its INIT says fresh
  // while this end is not): its sequence numbers, buffers and credits are
  // gone, so the link is down as after TRAIN_BUDGET: this end drops its
  // frames, counts them and the link down, and reports down until it is up
  // again (a restart shorter than TRAIN_BUDGET would otherwise pass as a
  // retrain, the packets it lost unreported)
  wire peer_restarted = !up && init_ok && peer_fresh && !fresh;
  // an INIT while up that does not see this end ready means the neighbour
  // retrains (or restarted: it then says fresh, handled once training); INITs
  // that finish the neighbour's side of this handshake (seen and ready) do not
  wire go_train = up && (tx_retrain_req || !phy_rx_lock || (init_ok && !(peer_seen && peer_ready)));
  wire go_down = !up && !down && (train_timer == TRAIN_BUDGET[TB_W-1:0] || peer_restarted);
  wire flush = go_down;
  wire fresh_up = go_up && fresh;

  wire [55:0] init_body = {30'd0, local_ready, seen, fresh, cfg_port, cfg_node_id, KOLO_BLK_INIT};
  wire [7:0]  init_crc8;
  kolo_crc8_56 u_crc8_init (.data(init_body), .crc(init_crc8));

  always @(posedge clk) begin
    stat_peer_seen <= 1'b0;
    if (rst || !phy_rx_lock) begin
      stat_peer_valid <= 1'b0;
      stat_peer_id <= 12'd0;
      stat_peer_port <= 3'd0;
    end else if (rx_init_valid) begin
      stat_peer_valid <= 1'b1;
      stat_peer_id <= peer_id;
      stat_peer_port <= peer_port;
      stat_peer_seen <= 1'b1;
    end
  end

  always @(posedge clk) begin
    if (rst) begin
      up <= 1'b0;
      fresh <= 1'b1;
      down <= 1'b0;
      seen <= 1'b0;
      sent_ready <= 1'b0;
      train_timer <= {TB_W{1'b0}};
      stat_miscabled <= 1'b0;
    end else begin
      if (init_ok) begin
        seen <= 1'b1;
        stat_miscabled <= 1'b0;
      end
      if (init_wrong) stat_miscabled <= 1'b1;
      if (tx_sent_init && local_ready) sent_ready <= 1'b1;
      if (!up && train_timer != TRAIN_BUDGET[TB_W-1:0]) train_timer <= train_timer + 1'b1;
      if (flush) fresh <= 1'b1;
      if (go_down) down <= 1'b1;
      if (go_up) begin
        up <= 1'b1;
        fresh <= 1'b0;
        down <= 1'b0;
      end
      if (go_train) begin
        up <= 1'b0;
        seen <= init_ok;
        sent_ready <= 1'b0;
        train_timer <= {TB_W{1'b0}};
      end
    end
  end

  assign link_up = up;
  assign stat_state = up ? 2'd2 : (down ? 2'd0 : 2'd1);

  // ---- transmitter and receiver ----------------------------------------------------------
  wire             ctrl_valid, ctrl_nak;
  wire [SEQ_W-1:0] ctrl_ack;
  wire [31:0]      ctrl_credits;
  wire             rx_ctrl_dirty, ctrl_sent;
  wire [63:0]      rx_ctrl_payload;
  wire             ev_replay, ev_nak_rcvd, ev_frame_tx, ev_data_tx, ev_tx_ctrl_err;
  wire [SEQ_W:0]   ev_pkts_dropped;
  wire             ev_crc_err, ev_seq_err, ev_nak_sent, ev_frame_rx, ev_rx_ctrl_err;
  wire [5:0]       ev_flits_rx;

  kolo_link_tx #(
      .VC_BUF(VC_BUF), .OUT_CREDITS(OUT_CREDITS), .SEQ_W(SEQ_W),
      .REPLAY_TIMEOUT(REPLAY_TIMEOUT), .MAX_REPLAYS(MAX_REPLAYS),
      .CTRL_MAX_AGE(CTRL_MAX_AGE), .CTRL_REFRESH(CTRL_REFRESH), .MAX_PKT(MAX_PKT)
  ) u_tx (
      .clk(clk), .rst(rst),
      .in_valid(tx_valid), .in_flit(tx_flit),
      .credit_valid(tx_credit_valid), .credit_vc(tx_credit_vc),
      .blk_valid(blk_tx_valid), .blk_ready(blk_tx_ready), .blk(blk_tx),
      .up(up), .drop(down), .flush(flush), .train(go_train), .fresh_up(fresh_up),
      .init_payload({init_crc8, init_body}),
      .ctrl_valid(ctrl_valid), .ctrl_ack(ctrl_ack), .ctrl_nak(ctrl_nak), .ctrl_credits(ctrl_credits),
      .rx_ctrl_dirty(rx_ctrl_dirty), .rx_ctrl_payload(rx_ctrl_payload), .ctrl_sent(ctrl_sent),
      .retrain_req(tx_retrain_req), .sent_init(tx_sent_init), .idle(tx_idle),
      .ev_replay(ev_replay), .ev_nak_rcvd(ev_nak_rcvd), .ev_frame_tx(ev_frame_tx),
      .ev_data_tx(ev_data_tx), .ev_pkts_dropped(ev_pkts_dropped), .ev_ctrl_err(ev_tx_ctrl_err)
  );

  kolo_link_rx #(.SEQ_W(SEQ_W), .RXB_W(RXB_W), .MAX_PKT(MAX_PKT)) u_rx (
      .clk(clk), .rst(rst),
      .blk_valid(blk_rx_valid), .blk(blk_rx),
      .out_valid(rx_valid), .out_flit(rx_flit),
      .credit_valid(rx_credit_valid), .credit_vc(rx_credit_vc),
      .up(up), .drop_frame(flush || go_train), .fresh_up(fresh_up),
      .init_valid(rx_init_valid), .init_payload(rx_init_pl),
      .ctrl_valid(ctrl_valid), .ctrl_ack(ctrl_ack), .ctrl_nak(ctrl_nak), .ctrl_credits(ctrl_credits),
      .peer_active(rx_peer_active),
      .ctrl_dirty(rx_ctrl_dirty), .ctrl_payload(rx_ctrl_payload), .ctrl_sent(ctrl_sent),
      .owed_zero(rx_owed_zero),
      .ev_crc_err(ev_crc_err), .ev_seq_err(ev_seq_err), .ev_nak_sent(ev_nak_sent),
      .ev_frame_rx(ev_frame_rx), .ev_flits_rx(ev_flits_rx), .ev_ctrl_err(ev_rx_ctrl_err)
  );

  // ---- counters (index order in docs/link.md) --------------------------------------------
  reg             miscabled_q;  // stat_miscabled a cycle ago (its rising edge counts)
  // one increment per counter and cycle, counter i at [i*32 +: 32]
  wire [16*32-1:0] inc = {
      31'd0, phy_rx_overflow,                              // 15 rx_overflows
      31'd0, stat_miscabled && !miscabled_q,               // 14 miscabled
      31'd0, go_down,                                      // 13 link_downs
      30'd0, {1'b0, ev_rx_ctrl_err} + {1'b0, ev_tx_ctrl_err},  // 12 ctrl_errors
      {(31-SEQ_W){1'b0}}, ev_pkts_dropped,                 // 11 pkts_dropped
      23'd0, ev_flits_rx, 3'd0,                            // 10 bytes_rx
      28'd0, ev_data_tx, 3'd0,                             // 9 bytes_tx
      31'd0, ev_frame_rx,                                  // 8 frames_rx
      31'd0, ev_frame_tx,                                  // 7 frames_tx
      31'd0, phy_lock_loss,                                // 6 lock_losses
      31'd0, go_train,                                     // 5 retrains
      31'd0, ev_replay,                                    // 4 replays
      31'd0, ev_nak_rcvd,                                  // 3 naks_rcvd
      31'd0, ev_nak_sent,                                  // 2 naks_sent
      31'd0, ev_seq_err,                                   // 1 seq_errors
      31'd0, ev_crc_err                                    // 0 crc_errors
  };
  reg [16*32-1:0] cnt;
  integer i;
  always @(posedge clk) begin
    if (rst) begin
      cnt <= {16*32{1'b0}};
      miscabled_q <= 1'b0;
    end else begin
      miscabled_q <= stat_miscabled;
      for (i = 0; i < 16; i = i + 1) cnt[i*32+:32] <= cnt[i*32+:32] + inc[i*32+:32];
    end
  end
  assign stat_counters = cnt;

  wire unused_core = &{1'b0, tx_idle, rx_init_pl[63:26], rx_init_pl[7:0]};  // type and CRC-8 were checked by kolo_link_rx
endmodule
`default_nettype wire
