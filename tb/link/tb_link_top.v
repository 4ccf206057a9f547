`default_nettype none
// tb_link_top - two ends of a reliable kolo link, A and B, for the Verilator
// harness tb/link/tb_link.cpp.
//
// The lanes are not connected here: A's tx lane words leave on a_tx_lane_data,
// go through the C++ lane model (sw/rtlsim/kolo_lane_model.h) and come back
// into B on b_rx_lane_data, and the same from B to A. Each end has its own
// core clock (clk_a, clk_b) and transmit lane clock (lane_clk_a, lane_clk_b);
// the receive lane clock of an end is the neighbour's transmit lane clock (the
// recovered clock): A's rx_lane_clk is lane_clk_b, B's is lane_clk_a. The C++
// side plays both routers on the router-side ports. Resets: one per clock
// domain of each end (core, tx lane, rx lane), synchronous, active high.
// The parameters are those of kolo_link, set with -G<name>=<value> per build
// variant; p_* give them back to the harness so that it knows the build.
module tb_link_top #(
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
    input  wire                clk_a,
    input  wire                clk_b,
    input  wire                lane_clk_a,
    input  wire                lane_clk_b,
    input  wire                rst_a,
    input  wire                rst_b,
    input  wire                a_tx_lane_rst,  // lane_clk_a domain
    input  wire                a_rx_lane_rst,  // lane_clk_b domain
    input  wire                b_tx_lane_rst,  // lane_clk_b domain
    input  wire                b_rx_lane_rst,  // lane_clk_a domain
    // ---- end A ----
    input  wire [11:0]         a_cfg_node_id,
    input  wire [2:0]          a_cfg_port,
    input  wire [11:0]         a_cfg_peer_id,
    input  wire [2:0]          a_cfg_peer_port,
    input  wire                a_tx_valid,
    input  wire [67:0]         a_tx_flit,
    output wire                a_tx_credit_valid,
    output wire [1:0]          a_tx_credit_vc,
    output wire                a_rx_valid,
    output wire [67:0]         a_rx_flit,
    input  wire                a_rx_credit_valid,
    input  wire [1:0]          a_rx_credit_vc,
    output wire                a_link_up,
    output wire [1:0]          a_stat_state,
    output wire                a_stat_miscabled,
    output wire [16*32-1:0]    a_stat_counters,
    output wire [66*LANES-1:0] a_tx_lane_data,
    input  wire [66*LANES-1:0] a_rx_lane_data,
    output wire [LANES-1:0]    a_rx_lane_slip,
    // ---- end B ----
    input  wire [11:0]         b_cfg_node_id,
    input  wire [2:0]          b_cfg_port,
    input  wire [11:0]         b_cfg_peer_id,
    input  wire [2:0]          b_cfg_peer_port,
    input  wire                b_tx_valid,
    input  wire [67:0]         b_tx_flit,
    output wire                b_tx_credit_valid,
    output wire [1:0]          b_tx_credit_vc,
    output wire                b_rx_valid,
    output wire [67:0]         b_rx_flit,
    input  wire                b_rx_credit_valid,
    input  wire [1:0]          b_rx_credit_vc,
    output wire                b_link_up,
    output wire [1:0]          b_stat_state,
    output wire                b_stat_miscabled,
    output wire [16*32-1:0]    b_stat_counters,
    output wire [66*LANES-1:0] b_tx_lane_data,
    input  wire [66*LANES-1:0] b_rx_lane_data,
    output wire [LANES-1:0]    b_rx_lane_slip,
    // ---- the build's parameters ----
    output wire [31:0]         p_lanes,
    output wire [31:0]         p_out_credits,
    output wire [31:0]         p_replay_timeout,
    output wire [31:0]         p_max_replays,
    output wire [31:0]         p_train_budget,
    output wire [31:0]         p_cc_interval
);
  assign p_lanes          = LANES;
  assign p_out_credits    = OUT_CREDITS;
  assign p_replay_timeout = REPLAY_TIMEOUT;
  assign p_max_replays    = MAX_REPLAYS;
  assign p_train_budget   = TRAIN_BUDGET;
  assign p_cc_interval    = CC_INTERVAL;

  kolo_link #(
      .LANES(LANES), .VC_BUF(VC_BUF), .OUT_CREDITS(OUT_CREDITS), .SEQ_W(SEQ_W),
      .REPLAY_TIMEOUT(REPLAY_TIMEOUT), .MAX_REPLAYS(MAX_REPLAYS), .TRAIN_BUDGET(TRAIN_BUDGET),
      .CTRL_MAX_AGE(CTRL_MAX_AGE), .CTRL_REFRESH(CTRL_REFRESH), .CC_INTERVAL(CC_INTERVAL)
  ) u_a (
      .clk(clk_a), .rst(rst_a), .phy_rst(rst_a),
      .cfg_node_id(a_cfg_node_id), .cfg_port(a_cfg_port),
      .cfg_peer_id(a_cfg_peer_id), .cfg_peer_port(a_cfg_peer_port),
      .tx_valid(a_tx_valid), .tx_flit(a_tx_flit),
      .tx_credit_valid(a_tx_credit_valid), .tx_credit_vc(a_tx_credit_vc),
      .rx_valid(a_rx_valid), .rx_flit(a_rx_flit),
      .rx_credit_valid(a_rx_credit_valid), .rx_credit_vc(a_rx_credit_vc),
      .link_up(a_link_up), .stat_state(a_stat_state), .stat_miscabled(a_stat_miscabled),
      /* verilator lint_off PINCONNECTEMPTY */  // the peer identity: tb_link checks stat_miscabled
      .stat_peer_valid(), .stat_peer_id(), .stat_peer_port(), .stat_peer_seen(),
      /* verilator lint_on PINCONNECTEMPTY */
      .stat_counters(a_stat_counters),
      .tx_lane_clk(lane_clk_a), .tx_lane_rst(a_tx_lane_rst), .tx_lane_ready(1'b1),
      .tx_lane_data(a_tx_lane_data),
      .rx_lane_clk(lane_clk_b), .rx_lane_rst(a_rx_lane_rst), .rx_lane_valid({LANES{1'b1}}),
      .rx_lane_data(a_rx_lane_data),
      .rx_lane_slip(a_rx_lane_slip)
  );

  kolo_link #(
      .LANES(LANES), .VC_BUF(VC_BUF), .OUT_CREDITS(OUT_CREDITS), .SEQ_W(SEQ_W),
      .REPLAY_TIMEOUT(REPLAY_TIMEOUT), .MAX_REPLAYS(MAX_REPLAYS), .TRAIN_BUDGET(TRAIN_BUDGET),
      .CTRL_MAX_AGE(CTRL_MAX_AGE), .CTRL_REFRESH(CTRL_REFRESH), .CC_INTERVAL(CC_INTERVAL)
  ) u_b (
      .clk(clk_b), .rst(rst_b), .phy_rst(rst_b),
      .cfg_node_id(b_cfg_node_id), .cfg_port(b_cfg_port),
      .cfg_peer_id(b_cfg_peer_id), .cfg_peer_port(b_cfg_peer_port),
      .tx_valid(b_tx_valid), .tx_flit(b_tx_flit),
      .tx_credit_valid(b_tx_credit_valid), .tx_credit_vc(b_tx_credit_vc),
      .rx_valid(b_rx_valid), .rx_flit(b_rx_flit),
      .rx_credit_valid(b_rx_credit_valid), .rx_credit_vc(b_rx_credit_vc),
      .link_up(b_link_up), .stat_state(b_stat_state), .stat_miscabled(b_stat_miscabled),
      /* verilator lint_off PINCONNECTEMPTY */  // the peer identity: tb_link checks stat_miscabled
      .stat_peer_valid(), .stat_peer_id(), .stat_peer_port(), .stat_peer_seen(),
      /* verilator lint_on PINCONNECTEMPTY */
      .stat_counters(b_stat_counters),
      .tx_lane_clk(lane_clk_b), .tx_lane_rst(b_tx_lane_rst), .tx_lane_ready(1'b1),
      .tx_lane_data(b_tx_lane_data),
      .rx_lane_clk(lane_clk_a), .rx_lane_rst(b_rx_lane_rst), .rx_lane_valid({LANES{1'b1}}),
      .rx_lane_data(b_rx_lane_data),
      .rx_lane_slip(b_rx_lane_slip)
  );
endmodule
`default_nettype wire
