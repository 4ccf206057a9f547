`default_nettype none
// kolo_link - one end of a reliable kolo link: kolo_link_core (core clock:
// framing, CRC-32C, sequence numbers, ACK/NAK, replay, credits, training)
// over kolo_link_phy (lane clocks: 64b/66b blocks, scrambler, block lock,
// clock compensation, lane bonding).
//
// Router side: the ports of kolo_link_ideal. tx_* is the local router's output
// port (flits sent only against credits, which come back on tx_credit_*);
// rx_* is the local router's input port (flits arrive against its credits,
// returned on rx_credit_*). Credits stay end to end between the two routers.
// Lane side: tx_lane_data carries one 66-bit word per lane per tx_lane_clk
// cycle with tx_lane_ready ({scrambled payload, sync header}, bit 0 first on
// the wire); rx_lane_clk is the clock recovered from the neighbour, words
// arrive in the cycles with rx_lane_valid; rx_lane_slip asks the lane to move
// its block boundary by one bit (gaps: kolo_link_phy). Core clock rate must be
// at least LANES times the lane word rate. See docs/link.md.
// Resets: rst resets everything on the core clock; phy_rst only the core side
// of kolo_link_phy (core clock), so that a lane reset (phy_rst, tx_lane_rst,
// rx_lane_rst together, kolo_reset_seq) costs lock and a retrain but keeps
// sequence numbers, replay buffer and credits. Tie phy_rst to rst otherwise.
module kolo_link #(
    parameter LANES          = 1,
    parameter VC_BUF         = 128,
    parameter OUT_CREDITS    = 80,
    parameter SEQ_W          = 12,
    parameter REPLAY_TIMEOUT = 1024,
    parameter MAX_REPLAYS    = 4,
    parameter TRAIN_BUDGET   = 100000,
    parameter CTRL_MAX_AGE   = 32,
    parameter CTRL_REFRESH   = 256,
    parameter CC_INTERVAL    = 4096
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire                  phy_rst,
    input  wire [11:0]           cfg_node_id,
    input  wire [2:0]            cfg_port,
    input  wire [11:0]           cfg_peer_id,
    input  wire [2:0]            cfg_peer_port,
    input  wire                  tx_valid,
    input  wire [67:0]           tx_flit,
    output wire                  tx_credit_valid,
    output wire [1:0]            tx_credit_vc,
    output wire                  rx_valid,
    output wire [67:0]           rx_flit,
    input  wire                  rx_credit_valid,
    input  wire [1:0]            rx_credit_vc,
    output wire                  link_up,
    output wire [1:0]            stat_state,
    output wire                  stat_miscabled,
    output wire                  stat_peer_valid,
    output wire [11:0]           stat_peer_id,
    output wire [2:0]            stat_peer_port,
    output wire                  stat_peer_seen,
    output wire [16*32-1:0]      stat_counters,
    input  wire                  tx_lane_clk,
    input  wire                  tx_lane_rst,
    input  wire                  tx_lane_ready,
    output wire [66*LANES-1:0]   tx_lane_data,
    input  wire                  rx_lane_clk,
    input  wire                  rx_lane_rst,
    input  wire [LANES-1:0]      rx_lane_valid,
    input  wire [66*LANES-1:0]   rx_lane_data,
    output wire [LANES-1:0]      rx_lane_slip
);
  // one compiled link serves every end of a torus (verilator --hierarchical)
  /*verilator hier_block*/
  wire        blk_tx_valid, blk_tx_ready, blk_rx_valid;
  wire [65:0] blk_tx, blk_rx;
  wire        phy_rx_lock, phy_lock_loss, phy_rx_overflow;

  kolo_link_core #(
      .VC_BUF(VC_BUF), .OUT_CREDITS(OUT_CREDITS), .SEQ_W(SEQ_W),
      .REPLAY_TIMEOUT(REPLAY_TIMEOUT), .MAX_REPLAYS(MAX_REPLAYS), .TRAIN_BUDGET(TRAIN_BUDGET),
      .CTRL_MAX_AGE(CTRL_MAX_AGE), .CTRL_REFRESH(CTRL_REFRESH)
  ) u_core (
      .clk(clk), .rst(rst),
      .cfg_node_id(cfg_node_id), .cfg_port(cfg_port),
      .cfg_peer_id(cfg_peer_id), .cfg_peer_port(cfg_peer_port),
      .tx_valid(tx_valid), .tx_flit(tx_flit),
      .tx_credit_valid(tx_credit_valid), .tx_credit_vc(tx_credit_vc),
      .rx_valid(rx_valid), .rx_flit(rx_flit),
      .rx_credit_valid(rx_credit_valid), .rx_credit_vc(rx_credit_vc),
      .link_up(link_up),
      .blk_tx_valid(blk_tx_valid), .blk_tx_ready(blk_tx_ready), .blk_tx(blk_tx),
      .blk_rx_valid(blk_rx_valid), .blk_rx(blk_rx),
      .phy_rx_lock(phy_rx_lock), .phy_lock_loss(phy_lock_loss), .phy_rx_overflow(phy_rx_overflow),
      .stat_state(stat_state), .stat_miscabled(stat_miscabled), .stat_peer_valid(stat_peer_valid),
      .stat_peer_id(stat_peer_id), .stat_peer_port(stat_peer_port), .stat_peer_seen(stat_peer_seen),
      .stat_counters(stat_counters)
  );

  kolo_link_phy #(.LANES(LANES), .CC_INTERVAL(CC_INTERVAL)) u_phy (
      .clk(clk), .rst(phy_rst),
      .tx_blk_valid(blk_tx_valid), .tx_blk_ready(blk_tx_ready), .tx_blk(blk_tx),
      .rx_blk_valid(blk_rx_valid), .rx_blk(blk_rx),
      .phy_rx_lock(phy_rx_lock), .phy_lock_loss(phy_lock_loss), .phy_rx_overflow(phy_rx_overflow),
      .tx_lane_clk(tx_lane_clk), .tx_lane_rst(tx_lane_rst), .tx_lane_ready(tx_lane_ready),
      .tx_lane_data(tx_lane_data),
      .rx_lane_clk(rx_lane_clk), .rx_lane_rst(rx_lane_rst), .rx_lane_valid(rx_lane_valid),
      .rx_lane_data(rx_lane_data),
      .rx_lane_slip(rx_lane_slip)
  );
endmodule
`default_nettype wire
