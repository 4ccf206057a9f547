`default_nettype none
// kolo_svc_link - the LINK block of the service registers (6 network ports):
// control, status, peer, counters, error threshold, and the events they raise.
//
// Link status inputs (up, peer id/port/valid as announced in training) are
// registered once; a link counts as up only with a valid peer announcement.
// Down latch: a cycle in which a port's registered input is down while the
// port is up or miscabled (LINK_STATUS) is kept (dn) until a link action has
// taken the port down, and the sequencer sees the port down until then, so
// no down is missed however short it was and however busy the sequencer
// (bus holds, other ports' actions). Contract: every down of a port's link
// after its LINK_UP raises a LINK_DOWN (DOWN_COUNT + 1) before any further
// LINK_UP of the port; downs that come while one is latched and not yet
// taken, or while the port is already down, raise nothing more (a burst of
// downs faster than the sequencer is one LINK_DOWN, one LINK_UP).
// The expected neighbour of port p (X+ X- Y+ Y- Z+ Z-) is node_id +-1 modulo
// the ring size in the port's dimension, announcing port p^1.
// Counters (CRC errors, replays, frames sent and received) count one-cycle
// pulses; LINK_CTRL.CLEAR zeroes them (a pulse in the same cycle counts
// after the clear). DOWN_COUNT counts link-down actions.
// Event sequencer: every cycle without hold, at most one action is taken:
// the lowest pending one of the cycle before, among link actions (ports
// 0..5) then threshold actions (ports 0..5), if it is still pending. A link
// action applies the registered status as kolo_svc_set_link does (LINK_UP
// only with the expected peer, MISCABLED, LINK_DOWN); an up link that reports a wrong peer goes down first
// (LINK_DOWN) and is marked miscabled by a second action (MISCABLED). A
// threshold action raises ERR_THRESHOLD once when CRC_ERRORS >= ERR_THRESH
// != 0 (INFO = CRC_ERRORS then; ERR_THRESH or CLEAR rearm it). Every action
// pushes at most one event (evt_push, one cycle). hold is high in the cycles
// in which the bus executes an access or the mailbox pushes an event, so
// the order of everything is that of one sequential model.
// Bus access: acc_port and acc_off (byte offset inside the port's block)
// select a register: rd_data/rd_hit (readable) and wr_hit (writable) are
// combinational; wr_en writes it.
module kolo_svc_link (
    input  wire          clk,
    input  wire          rst,
    input  wire [11:0]   node_id,
    input  wire [11:0]   dim_m1,
    input  wire [5:0]    link_up,
    input  wire [5:0]    link_peer_valid,
    input  wire [6*12-1:0] link_peer_id,
    input  wire [6*3-1:0]  link_peer_port,
    input  wire [5:0]    link_crc_err,
    input  wire [5:0]    link_replay,
    input  wire [5:0]    link_tx_frame,
    input  wire [5:0]    link_rx_frame,
    input  wire          hold,
    input  wire [2:0]    acc_port,
    input  wire [31:0]   acc_off,
    input  wire          wr_en,
    input  wire [31:0]   wr_data,
    output reg  [31:0]   rd_data,
    output wire          rd_hit,
    output wire          wr_hit,
    output wire [5:0]    link_enable,
    output wire [5:0]    link_loopback,
    output reg           evt_push,
    output reg  [31:0]   evt_data
);
  `include "kolo_svc_regs.vh"

  localparam [31:0] O_CTRL = `KOLO_SVC_LINK_CTRL - `KOLO_SVC_LINK_CTRL;
  localparam [31:0] O_STATUS = `KOLO_SVC_LINK_STATUS - `KOLO_SVC_LINK_CTRL;
  localparam [31:0] O_PEER = `KOLO_SVC_LINK_PEER - `KOLO_SVC_LINK_CTRL;
  localparam [31:0] O_CRC = `KOLO_SVC_LINK_CRC_ERRORS - `KOLO_SVC_LINK_CTRL;
  localparam [31:0] O_REPLAYS = `KOLO_SVC_LINK_REPLAYS - `KOLO_SVC_LINK_CTRL;
  localparam [31:0] O_TX = `KOLO_SVC_LINK_TX_FRAMES - `KOLO_SVC_LINK_CTRL;
  localparam [31:0] O_RX = `KOLO_SVC_LINK_RX_FRAMES - `KOLO_SVC_LINK_CTRL;
  localparam [31:0] O_DOWN = `KOLO_SVC_LINK_DOWN_COUNT - `KOLO_SVC_LINK_CTRL;
  localparam [31:0] O_THRESH = `KOLO_SVC_LINK_ERR_THRESH - `KOLO_SVC_LINK_CTRL;
  localparam CLEAR_BIT = `KOLO_SVC_LINK_CTRL_CLEAR_LO;
  localparam [31:0] CTRL_RESET = `KOLO_SVC_LINK_CTRL_RESET;

  // ---- state per port (flat vectors, port p at [W*p +: W]) ------------------------
  reg [6*2-1:0]  ctrl;           // {LOOPBACK, ENABLE}
  reg [5:0]      up, misc;
  reg [6*16-1:0] peer;           // PEER register: {valid, port, id}
  reg [6*32-1:0] crc, replays, txf, rxf, downs, thresh;
  reg [5:0]      thr_hit;

  // registered link status and the neighbour each port should see
  reg [5:0]      in_up;
  reg [5:0]      dn;             // a down latched, not yet taken (see the header)
  // the link input as the sequencer sees it: down while a down is latched
  wire [5:0]     l_in = in_up & ~dn;
  reg [6*12-1:0] in_id, want_id;
  reg [6*3-1:0]  in_port;

  wire [5:0] lpend, tpend, l_match;
  // The lowest pending action is chosen one cycle ahead (pick_q) and taken
  // if it is still pending and the cycle is free: keeps the priority search
  // off the path from hold to the event FIFO.
  wire [11:0] pend = {tpend, lpend};
  reg [11:0] pick_q;
  always @(posedge clk) pick_q <= rst ? 12'd0 : pend & (~pend + 12'd1);
  wire [11:0] pick = hold ? 12'd0 : pick_q & pend;
  wire [5:0] l_act = pick[5:0], t_act = pick[11:6];

  wire acc_ctrl = acc_off == O_CTRL, acc_thresh = acc_off == O_THRESH;
  assign wr_hit = acc_ctrl || acc_thresh;
  assign rd_hit = acc_ctrl || acc_thresh || acc_off == O_STATUS || acc_off == O_PEER || acc_off == O_CRC ||
                  acc_off == O_REPLAYS || acc_off == O_TX || acc_off == O_RX || acc_off == O_DOWN;

  genvar g;
  generate
    for (g = 0; g < 6; g = g + 1) begin : g_port
      localparam D = g / 2;          // dimension of the port
      localparam [2:0] PEER_PORT = g ^ 1;
      wire [3:0] c = node_id[4*D+:4], m1 = dim_m1[4*D+:4];
      wire [3:0] nb = (g % 2 == 0) ? (c == m1 ? 4'd0 : c + 4'd1) : (c == 4'd0 ? m1 : c - 4'd1);
      wire [11:0] nb_id;
      if (D == 0) begin : g_x
        assign nb_id = {node_id[11:4], nb};
      end else if (D == 1) begin : g_y
        assign nb_id = {node_id[11:8], nb, node_id[3:0]};
      end else begin : g_z
        assign nb_id = {nb, node_id[7:0]};
      end

      wire [15:0] new_peer = {1'b1, in_port[3*g+:3], in_id[12*g+:12]};
      assign l_match[g] = in_id[12*g+:12] == want_id[12*g+:12] && in_port[3*g+:3] == PEER_PORT;
      assign lpend[g] = l_in[g] ? (l_match[g] ? !up[g] : (up[g] || !misc[g] || peer[16*g+:16] != new_peer))
                                 : (up[g] || misc[g]);
      assign tpend[g] = thresh[32*g+:32] != 32'd0 && !thr_hit[g] && crc[32*g+:32] >= thresh[32*g+:32];

      wire wr_here = wr_en && acc_port == g;
      wire clear = wr_here && acc_ctrl && wr_data[CLEAR_BIT];
      // a link action that takes the port down (also an up port seeing a wrong peer)
      wire go_down = l_act[g] && (!l_in[g] || (up[g] && !l_match[g]));

      always @(posedge clk) begin
        want_id[12*g+:12] <= nb_id;
        in_up[g] <= link_up[g] && link_peer_valid[g];
        in_id[12*g+:12] <= link_peer_id[12*g+:12];
        in_port[3*g+:3] <= link_peer_port[3*g+:3];
      end

      always @(posedge clk) begin
        if (rst) begin
          ctrl[2*g+:2] <= CTRL_RESET[1:0];
          up[g] <= 1'b0;
          misc[g] <= 1'b0;
          peer[16*g+:16] <= 16'd0;
          crc[32*g+:32] <= 32'd0;
          replays[32*g+:32] <= 32'd0;
          txf[32*g+:32] <= 32'd0;
          rxf[32*g+:32] <= 32'd0;
          downs[32*g+:32] <= 32'd0;
          thresh[32*g+:32] <= `KOLO_SVC_LINK_ERR_THRESH_RESET;
          thr_hit[g] <= 1'b0;
          dn[g] <= 1'b0;
        end else begin
          // set by a down of the input while the port is up or miscabled,
          // kept until a link action takes the port down (a port already
          // down needs no latch: its LINK_UP is not delayed)
          dn[g] <= (up[g] || misc[g]) && !go_down && (dn[g] || !in_up[g]);
          if (wr_here && acc_ctrl) ctrl[2*g+:2] <= wr_data[1:0];
          if (wr_here && acc_thresh) thresh[32*g+:32] <= wr_data;
          crc[32*g+:32] <= (clear ? 32'd0 : crc[32*g+:32]) + {31'd0, link_crc_err[g]};
          replays[32*g+:32] <= (clear ? 32'd0 : replays[32*g+:32]) + {31'd0, link_replay[g]};
          txf[32*g+:32] <= (clear ? 32'd0 : txf[32*g+:32]) + {31'd0, link_tx_frame[g]};
          rxf[32*g+:32] <= (clear ? 32'd0 : rxf[32*g+:32]) + {31'd0, link_rx_frame[g]};
          downs[32*g+:32] <= (clear ? 32'd0 : downs[32*g+:32]) + {31'd0, go_down && up[g]};
          if (clear || (wr_here && acc_thresh)) thr_hit[g] <= 1'b0;
          else if (t_act[g]) thr_hit[g] <= 1'b1;
          if (go_down) begin
            up[g] <= 1'b0;
            misc[g] <= 1'b0;
          end else if (l_act[g]) begin
            up[g] <= l_match[g];
            misc[g] <= !l_match[g];
            peer[16*g+:16] <= new_peer;
          end
        end
      end
    end
  endgenerate

  assign link_enable = {ctrl[10], ctrl[8], ctrl[6], ctrl[4], ctrl[2], ctrl[0]};
  assign link_loopback = {ctrl[11], ctrl[9], ctrl[7], ctrl[5], ctrl[3], ctrl[1]};

  // ---- the event of this cycle's action --------------------------------------------
  // Each port's would-be event is formed in parallel and the one-hot pick
  // selects it (AND-OR): no port number is encoded on the way to the FIFO.
  wire [5:0] l_up_v, l_push_v;
  wire [6*32-1:0] l_evt_v, t_evt_v;
  genvar e;
  generate
    for (e = 0; e < 6; e = e + 1) begin : g_evt
      localparam [2:0] PORT = e;
      wire [15:0] np = {1'b1, in_port[3*e+:3], in_id[12*e+:12]};
      // the link action leaves the port up or miscabled (else it takes it down)
      assign l_up_v[e] = l_in[e] && !(up[e] && !l_match[e]);
      // a down action on a port that was only miscabled raises nothing
      assign l_push_v[e] = l_up_v[e] || up[e];
      assign l_evt_v[32*e+:32] = !l_up_v[e] ? {24'd0, 1'b0, PORT, `KOLO_SVC_EVT_LINK_DOWN} :
                                 {8'd0, np, 1'b0, PORT,
                                  l_match[e] ? `KOLO_SVC_EVT_LINK_UP : `KOLO_SVC_EVT_MISCABLED};
      assign t_evt_v[32*e+:32] = {crc[32*e+:24], 1'b0, PORT, `KOLO_SVC_EVT_ERR_THRESHOLD};
    end
  endgenerate
  integer p;
  always @(*) begin
    evt_push = (l_act & l_push_v) != 6'd0 || t_act != 6'd0;
    evt_data = 32'd0;
    for (p = 0; p < 6; p = p + 1)
      evt_data = evt_data | ({32{l_act[p]}} & l_evt_v[32*p+:32]) | ({32{t_act[p]}} & t_evt_v[32*p+:32]);
  end

  // probes for a testbench (tb/unit/svc reads them through the hierarchy):
  // which action ran in this cycle
  /* verilator lint_off UNUSEDSIGNAL */
  reg act_valid, act_thresh, act_up;
  reg [2:0] act_port;
  always @(*) begin
    act_valid = pick != 12'd0;
    act_thresh = t_act != 6'd0;
    act_up = (l_act & l_up_v) != 6'd0;
    act_port = 3'd0;
    for (p = 0; p < 6; p = p + 1) if (l_act[p] || t_act[p]) act_port = p[2:0];
  end
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- bus read ------------------------------------------------------------------------
  wire [2:0] rp = acc_port;
  wire [1:0] st_state = up[rp] ? 2'd2 : misc[rp] ? 2'd1 : 2'd0;
  always @(*) begin
    rd_data = 32'd0;
    if (acc_ctrl) rd_data = {30'd0, ctrl[2*rp+:2]};
    if (acc_off == O_STATUS) rd_data = {26'd0, st_state, 2'b00, misc[rp], up[rp]};
    if (acc_off == O_PEER) rd_data = {16'd0, peer[16*rp+:16]};
    if (acc_off == O_CRC) rd_data = crc[32*rp+:32];
    if (acc_off == O_REPLAYS) rd_data = replays[32*rp+:32];
    if (acc_off == O_TX) rd_data = txf[32*rp+:32];
    if (acc_off == O_RX) rd_data = rxf[32*rp+:32];
    if (acc_off == O_DOWN) rd_data = downs[32*rp+:32];
    if (acc_thresh) rd_data = thresh[32*rp+:32];
  end
endmodule
`default_nettype wire
