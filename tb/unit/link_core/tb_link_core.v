`default_nettype none
// tb_link_core - two kolo_link_core ends, A and B, on one clock; the C++
// harness carries blocks between them (delay, errors, drops) and plays both
// routers. rst_b resets B alone (a restart of the neighbour).
module tb_link_core #(
    parameter VC_BUF = 128,
    parameter SEQ_W = 12,
    parameter REPLAY_TIMEOUT = 512,
    parameter MAX_REPLAYS = 4,
    parameter TRAIN_BUDGET = 20000
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        rst_b,       // B alone (a restart of B's chip while A stays up)
    input  wire [11:0] peer_id_b,   // what B expects of A (mis-cabling tests)
    // A
    input  wire        a_tx_valid,
    input  wire [67:0] a_tx_flit,
    output wire        a_tx_credit_valid,
    output wire [1:0]  a_tx_credit_vc,
    output wire        a_rx_valid,
    output wire [67:0] a_rx_flit,
    input  wire        a_rx_credit_valid,
    input  wire [1:0]  a_rx_credit_vc,
    output wire        a_link_up,
    output wire        a_blk_tx_valid,
    input  wire        a_blk_tx_ready,
    output wire [65:0] a_blk_tx,
    input  wire        a_blk_rx_valid,
    input  wire [65:0] a_blk_rx,
    input  wire        a_lock,
    output wire [1:0]  a_state,
    output wire        a_miscabled,
    output wire [511:0] a_counters,
    // B
    input  wire        b_tx_valid,
    input  wire [67:0] b_tx_flit,
    output wire        b_tx_credit_valid,
    output wire [1:0]  b_tx_credit_vc,
    output wire        b_rx_valid,
    output wire [67:0] b_rx_flit,
    input  wire        b_rx_credit_valid,
    input  wire [1:0]  b_rx_credit_vc,
    output wire        b_link_up,
    output wire        b_blk_tx_valid,
    input  wire        b_blk_tx_ready,
    output wire [65:0] b_blk_tx,
    input  wire        b_blk_rx_valid,
    input  wire [65:0] b_blk_rx,
    input  wire        b_lock,
    output wire [1:0]  b_state,
    output wire        b_miscabled,
    output wire [511:0] b_counters
);
  kolo_link_core #(
      .VC_BUF(VC_BUF), .SEQ_W(SEQ_W), .REPLAY_TIMEOUT(REPLAY_TIMEOUT),
      .MAX_REPLAYS(MAX_REPLAYS), .TRAIN_BUDGET(TRAIN_BUDGET)
  ) u_a (
      .clk(clk), .rst(rst),
      .cfg_node_id(12'h001), .cfg_port(3'd0), .cfg_peer_id(12'h002), .cfg_peer_port(3'd1),
      .tx_valid(a_tx_valid), .tx_flit(a_tx_flit),
      .tx_credit_valid(a_tx_credit_valid), .tx_credit_vc(a_tx_credit_vc),
      .rx_valid(a_rx_valid), .rx_flit(a_rx_flit),
      .rx_credit_valid(a_rx_credit_valid), .rx_credit_vc(a_rx_credit_vc),
      .link_up(a_link_up),
      .blk_tx_valid(a_blk_tx_valid), .blk_tx_ready(a_blk_tx_ready), .blk_tx(a_blk_tx),
      .blk_rx_valid(a_blk_rx_valid), .blk_rx(a_blk_rx),
      .phy_rx_lock(a_lock), .phy_lock_loss(1'b0), .phy_rx_overflow(1'b0),
      .stat_state(a_state), .stat_miscabled(a_miscabled), .stat_counters(a_counters),
      /* verilator lint_off PINCONNECTEMPTY */  // the peer identity is checked by tb_chip and the svc tests
      .stat_peer_valid(), .stat_peer_id(), .stat_peer_port(), .stat_peer_seen()
      /* verilator lint_on PINCONNECTEMPTY */
  );
  kolo_link_core #(
      .VC_BUF(VC_BUF), .SEQ_W(SEQ_W), .REPLAY_TIMEOUT(REPLAY_TIMEOUT),
      .MAX_REPLAYS(MAX_REPLAYS), .TRAIN_BUDGET(TRAIN_BUDGET)
  ) u_b (
      .clk(clk), .rst(rst || rst_b),
      .cfg_node_id(12'h002), .cfg_port(3'd1), .cfg_peer_id(peer_id_b), .cfg_peer_port(3'd0),
      .tx_valid(b_tx_valid), .tx_flit(b_tx_flit),
      .tx_credit_valid(b_tx_credit_valid), .tx_credit_vc(b_tx_credit_vc),
      .rx_valid(b_rx_valid), .rx_flit(b_rx_flit),
      .rx_credit_valid(b_rx_credit_valid), .rx_credit_vc(b_rx_credit_vc),
      .link_up(b_link_up),
      .blk_tx_valid(b_blk_tx_valid), .blk_tx_ready(b_blk_tx_ready), .blk_tx(b_blk_tx),
      .blk_rx_valid(b_blk_rx_valid), .blk_rx(b_blk_rx),
      .phy_rx_lock(b_lock), .phy_lock_loss(1'b0), .phy_rx_overflow(1'b0),
      .stat_state(b_state), .stat_miscabled(b_miscabled), .stat_counters(b_counters),
      /* verilator lint_off PINCONNECTEMPTY */  // the peer identity is checked by tb_chip and the svc tests
      .stat_peer_valid(), .stat_peer_id(), .stat_peer_port(), .stat_peer_seen()
      /* verilator lint_on PINCONNECTEMPTY */
  );
endmodule
`default_nettype wire
