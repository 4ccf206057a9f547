`default_nettype none
// kolo_chip_port - one network port of kolo_chip: a kolo_link end, the
// transceiver gearbox adapters of its lanes, the reset sequencing of its three
// clock domains, and its state as the router and the service block see it.
//
// Clock domains: clk (core), tx_clk (the link's tx lane clock: TXUSRCLK2 of
// its lanes), rx_clk (rx lane clock: RXUSRCLK2 of its lanes). The bonded
// lanes of one link share tx_clk and rx_clk (as channel bonding of one quad
// does). Crossings: blocks both ways through kolo_link_phy's kolo_fifo_async,
// its status through kolo_sync_bit, enable (core -> tx) through kolo_sync_bit;
// the three resets through kolo_reset_seq.
// Resets: rst (core, from the chip's reset) resets the link; rst, tx_rst and
// rx_rst (asynchronous, any length: the transceiver is not ready, the board
// resets a lane) each start a reset round of the port's kolo_reset_seq, in
// which the PHY's core side and both lane sides are reset together; the link
// core (sequence numbers, replay buffer, credits) is reset only by rst, so a
// lane reset costs a retrain, not the router's credits.
// Lanes (tx_clk / rx_clk domains): gt_* as kolo_lane_gearbox_tx/rx, lane l at
// [l*DATA_W +: DATA_W], [2l +: 2]; gt_tx_sequence is common to the lanes.
// Control (core clock, from the service block): enable (LINK_CTRL.ENABLE: 0
// inhibits the transmitter, the far end's link goes down, and the router
// treats the port as down at once), loopback (LINK_CTRL.LOOPBACK: the
// transceiver loops the lanes back near-end, output gt_loopback for it; the
// link then expects itself as the neighbour). The expected neighbour is
// computed from the straps node_id / dim_m1 as kolo_svc does: node_id with
// coordinate PORT>>1 moved by +1 (PORT even) or -1, announcing port PORT^1.
// Status (core clock): down (to the router's port_down: the link is down - its
// retrain budget ran out - or disabled), svc_* for kolo_svc's link inputs:
//   svc_up        the link is usable for the firmware: up, or retraining after
//                 it was up (a retrain that succeeds is no fault; a link down
//                 takes it low for one cycle at least, and kolo_svc latches
//                 every down however short until it has reported it), or hearing a
//                 neighbour that is not the expected one (mis-cabling: the
//                 link never comes up with it) in MISCABLE_INITS INITs in a
//                 row with the same identity (an INIT damaged so that it
//                 still passes its CRC-8, one in 256 of those damaged, names a
//                 made-up neighbour, never the same one twice in a row);
//                 low when down, disabled, or still training after reset
//   svc_peer_*    the neighbour: the unexpected one while one is heard, else
//                 the expected one once the link has come up (it comes up only
//                 with that one), else not valid
//   svc_crc_err, svc_replay, svc_tx_frame, svc_rx_frame
//                 one-cycle pulses per event (bit 0 of kolo_link's counters
//                 0, 4, 7, 8, which count by one per cycle at most)
// stat_state and stat_counters are kolo_link's (docs/link.md).
module kolo_chip_port #(
    parameter PORT         = 0,     // 0..5: X+ X- Y+ Y- Z+ Z-
    parameter LANES        = 1,     // 1..4
    parameter DATA_W       = 32,    // transceiver gearbox interface: 32 or 64 bits
    parameter PAUSE_SEQ    = 32,    // the gearbox's pause sequence value
    parameter VC_BUF       = 128,   // kolo_link's transmit buffer per VC (flits, a power of two >= OUT_CREDITS)
    parameter OUT_CREDITS  = 80,    // the neighbour router's network-port VC buffer (flits)
    parameter TRAIN_BUDGET = 100000,
    parameter MISCABLE_INITS = 4  // INITs in a row from the same wrong neighbour before it is reported, 1..7
) (
    input  wire                    clk,
    input  wire                    rst,
    input  wire [11:0]             node_id,
    input  wire [11:0]             dim_m1,
    // router side (core clock)
    input  wire                    tx_valid,
    input  wire [67:0]             tx_flit,
    output wire                    tx_credit_valid,
    output wire [1:0]              tx_credit_vc,
    output wire                    rx_valid,
    output wire [67:0]             rx_flit,
    input  wire                    rx_credit_valid,
    input  wire [1:0]              rx_credit_vc,
    // control and status (core clock)
    input  wire                    enable,
    input  wire                    loopback,
    output wire                    down,
    output wire                    svc_up,
    output wire                    svc_peer_valid,
    output wire [11:0]             svc_peer_id,
    output wire [2:0]              svc_peer_port,
    output reg                     svc_crc_err,
    output reg                     svc_replay,
    output reg                     svc_tx_frame,
    output reg                     svc_rx_frame,
    output wire [1:0]              stat_state,
    output wire [16*32-1:0]        stat_counters,
    output wire                    stat_lane_reset,   // a reset round of the port is in progress
    // lanes
    input  wire                    tx_clk,
    input  wire                    tx_rst,
    output wire [6:0]              gt_tx_sequence,
    output wire [DATA_W*LANES-1:0] gt_tx_data,
    output wire [2*LANES-1:0]      gt_tx_header,
    input  wire                    rx_clk,
    input  wire                    rx_rst,
    input  wire [DATA_W*LANES-1:0] gt_rx_data,
    input  wire [2*LANES-1:0]      gt_rx_header,
    input  wire [LANES-1:0]        gt_rx_data_valid,
    input  wire [LANES-1:0]        gt_rx_header_valid,
    output wire [LANES-1:0]        gt_rx_slip,
    output wire                    gt_loopback
);
  generate
    if (PORT < 0 || PORT > 5) begin : g_bad_port
      kolo_chip_port_PARAMETER_ERROR_PORT_0_to_5 u_error ();
    end
    if (MISCABLE_INITS < 1 || MISCABLE_INITS > 7) begin : g_bad_inits
      kolo_chip_port_PARAMETER_ERROR_MISCABLE_INITS_1_to_7 u_error ();
    end
  endgenerate

  // ---- resets: one round for the PHY's core side and both lane domains ---------
  wire phy_rst, tx_lane_rst, rx_lane_rst;
  kolo_reset_seq #(
      .DOMAINS(2)
  ) u_reset (
      .clk(clk),
      .rst_req(rst),
      .rst(phy_rst),
      .dom_clk({rx_clk, tx_clk}),
      .dom_req({rx_rst, tx_rst}),
      .dom_rst({rx_lane_rst, tx_lane_rst}),
      .busy(stat_lane_reset)
  );

  // ---- the expected neighbour -------------------------------------------------------
  localparam integer D = PORT / 2;
  localparam integer PEER_I = PORT ^ 1;
  localparam integer PORT_I = PORT;
  localparam [2:0] PEER_PORT = PEER_I[2:0];
  localparam [2:0] THIS_PORT = PORT_I[2:0];
  wire [3:0] coord = node_id[4*D+:4], coord_m1 = dim_m1[4*D+:4];
  wire unused_dims = &{1'b0, dim_m1};  // only this port's dimension
  wire [3:0] nb = (PORT % 2 == 0) ? (coord == coord_m1 ? 4'd0 : coord + 4'd1)
                                  : (coord == 4'd0 ? coord_m1 : coord - 4'd1);
  reg [11:0] nb_id;
  always @(*) begin
    nb_id = node_id;
    nb_id[4*D+:4] = nb;
  end
  // loopback: the lanes come back to this end, which then announces itself
  wire [11:0] want_id = loopback ? node_id : nb_id;
  wire [2:0] want_port = loopback ? THIS_PORT : PEER_PORT;
  assign gt_loopback = loopback;

  // ---- the link -------------------------------------------------------------------------
  wire                  lane_tx_ready;
  wire [66*LANES-1:0]   lane_tx_data;
  wire [LANES-1:0]      lane_rx_valid;
  wire [66*LANES-1:0]   lane_rx_data;
  wire [LANES-1:0]      lane_rx_slip;
  wire                  link_up, miscabled;
  wire                  peer_valid;  // an INIT was heard since lock was last lost
  wire [11:0]           peer_id;
  wire [2:0]            peer_port;
  wire                  peer_seen;   // a new INIT is in peer_*

  kolo_link #(
      .LANES(LANES),
      .VC_BUF(VC_BUF),
      .OUT_CREDITS(OUT_CREDITS),
      .TRAIN_BUDGET(TRAIN_BUDGET)
  ) u_link (
      .clk(clk),
      .rst(rst),
      .phy_rst(phy_rst),
      .cfg_node_id(node_id),
      .cfg_port(THIS_PORT),
      .cfg_peer_id(want_id),
      .cfg_peer_port(want_port),
      .tx_valid(tx_valid),
      .tx_flit(tx_flit),
      .tx_credit_valid(tx_credit_valid),
      .tx_credit_vc(tx_credit_vc),
      .rx_valid(rx_valid),
      .rx_flit(rx_flit),
      .rx_credit_valid(rx_credit_valid),
      .rx_credit_vc(rx_credit_vc),
      .link_up(link_up),
      .stat_state(stat_state),
      .stat_miscabled(miscabled),
      .stat_peer_valid(peer_valid),
      .stat_peer_id(peer_id),
      .stat_peer_port(peer_port),
      .stat_peer_seen(peer_seen),
      .stat_counters(stat_counters),
      .tx_lane_clk(tx_clk),
      .tx_lane_rst(tx_lane_rst),
      .tx_lane_ready(lane_tx_ready),
      .tx_lane_data(lane_tx_data),
      .rx_lane_clk(rx_clk),
      .rx_lane_rst(rx_lane_rst),
      .rx_lane_valid(lane_rx_valid),
      .rx_lane_data(lane_rx_data),
      .rx_lane_slip(lane_rx_slip)
  );

  // ---- lanes ---------------------------------------------------------------------------
  wire inhibit;  // !enable in the tx lane clock domain
  kolo_sync_bit #(.WIDTH(1), .STAGES(2)) u_enable_sync (
      .clk(tx_clk),
      .in (!enable),
      .out(inhibit)
  );
  kolo_lane_gearbox_tx #(
      .LANES(LANES),
      .DATA_W(DATA_W),
      .PAUSE_SEQ(PAUSE_SEQ)
  ) u_gb_tx (
      .clk(tx_clk),
      .rst(tx_lane_rst),
      .inhibit(inhibit),
      .s_ready(lane_tx_ready),
      .s_word(lane_tx_data),
      .gt_sequence(gt_tx_sequence),
      .gt_data(gt_tx_data),
      .gt_header(gt_tx_header)
  );
  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : g_rx
      kolo_lane_gearbox_rx #(
          .DATA_W(DATA_W)
      ) u_gb_rx (
          .clk(rx_clk),
          .rst(rx_lane_rst),
          .gt_data(gt_rx_data[DATA_W*l+:DATA_W]),
          .gt_header(gt_rx_header[2*l+:2]),
          .gt_data_valid(gt_rx_data_valid[l]),
          .gt_header_valid(gt_rx_header_valid[l]),
          .gt_slip(gt_rx_slip[l]),
          .s_slip(lane_rx_slip[l]),
          .m_valid(lane_rx_valid[l]),
          .m_word(lane_rx_data[66*l+:66])
      );
    end
  endgenerate

  // ---- state for the router and the service block ---------------------------------
  // was_up: the link came up since reset or since it last went down
  reg was_up;
  always @(posedge clk) begin
    if (rst || stat_state == 2'd0) was_up <= 1'b0;
    else if (link_up) was_up <= 1'b1;
  end
  // a wrong neighbour counts once MISCABLE_INITS INITs in a row named it
  localparam integer MIS_I = MISCABLE_INITS;
  localparam [2:0] MIS_N = MIS_I[2:0];
  reg [2:0]  mis_run;  // INITs in a row from the wrong neighbour mis_who (saturating)
  reg [14:0] mis_who;
  always @(posedge clk) begin
    if (rst || !peer_valid) begin
      mis_run <= 3'd0;
    end else if (peer_seen) begin
      mis_who <= {peer_port, peer_id};
      if (!miscabled) mis_run <= 3'd0;
      else if (mis_run != 3'd0 && mis_who == {peer_port, peer_id}) mis_run <= (mis_run == MIS_N) ? mis_run : mis_run + 3'd1;
      else mis_run <= 3'd1;
    end
  end
  wire usable = was_up && stat_state != 2'd0;
  wire wrong_peer = peer_valid && miscabled && mis_run == MIS_N;
  assign down = (stat_state == 2'd0) || !enable;
  assign svc_up = enable && (usable || wrong_peer);
  assign svc_peer_valid = usable || wrong_peer;
  assign svc_peer_id = wrong_peer ? peer_id : want_id;
  assign svc_peer_port = wrong_peer ? peer_port : want_port;

  // counter events: bit 0 of a counter that counts by at most one per cycle
  reg [3:0] cnt_lsb_q;
  wire [3:0] cnt_lsb = {stat_counters[8*32], stat_counters[7*32], stat_counters[4*32], stat_counters[0]};
  always @(posedge clk) begin
    cnt_lsb_q <= cnt_lsb;
    {svc_rx_frame, svc_tx_frame, svc_replay, svc_crc_err} <= rst ? 4'd0 : (cnt_lsb ^ cnt_lsb_q);
  end
endmodule
`default_nettype wire
