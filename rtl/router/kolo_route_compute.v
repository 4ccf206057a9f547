`default_nettype none
// kolo_route_compute - route and sanity check of one header flit (combinational).
//
// From header flit 0 alone (lookahead: the input unit runs it as the head is
// written, so that allocation later reads a stored result) it gives the
// deterministic (escape) output port, the mask of minimal adaptive ports, and
// the reason a packet must be dropped. Direction order: a pending first step,
// then +X +Y +Z -X -Y -Z while hops remain, then a pending last step, then the
// local port. sw/route/kolo_route.c implements the same function in C
// (kolo_route_det_port, kolo_route_adaptive_mask).
// productive[p] (network port p) is set when leaving through p uses up a hop
// count (no first step pending, hops left in p's dimension, p in the sign's
// direction): the case in which kolo_route_advance decrements a count. The
// adaptive mask is productive & cfg_port_en.
// No handshake: pure function of its inputs.
module kolo_route_compute (
    input  wire [11:0] cfg_node_id,   // {z,y,x}
    input  wire [11:0] cfg_dim_m1,    // {z,y,x} ring size - 1
    input  wire [5:0]  cfg_port_en,   // network ports that may be used
    input  wire [67:0] flit,          // header flit 0 with its sideband
    output reg  [2:0]  det_port,
    output wire [5:0]  adaptive_mask,
    output wire [5:0]  productive,    // hop counts a departure through port p uses up
    output wire        err_dst,       // destination outside the torus, or eject here but not for us
    output wire        err_len,       // payload length > 32, or a one-flit packet
    output wire        err_vc,        // header virtual network differs from the VC's
    output wire        err_route      // hops beyond the ring, or an absent/disabled port
);
  `include "kolo_defs.vh"

  wire [22:0] rs = flit[KOLO_H0_RS_LO+:KOLO_RS_W];
  wire [2:0] sign = rs[2:0];
  wire [3:0] hops_x = rs[KOLO_RS_HOPS_X+:4];
  wire [3:0] hops_y = rs[KOLO_RS_HOPS_Y+:4];
  wire [3:0] hops_z = rs[KOLO_RS_HOPS_Z+:4];
  wire fs_valid = rs[KOLO_RS_FS_VALID];
  wire [2:0] fs_port = rs[KOLO_RS_FS_PORT+:3];
  wire ls_valid = rs[KOLO_RS_LS_VALID];
  wire [2:0] ls_port = rs[KOLO_RS_LS_PORT+:3];
  wire [11:0] dst = flit[KOLO_H0_DST_LO+:12];
  wire [5:0] len = flit[KOLO_H0_LEN_LO+:6];

  always @(*) begin
    if (fs_valid) det_port = fs_port;
    else if (!sign[0] && hops_x != 4'd0) det_port = KOLO_PORT_XP[2:0];
    else if (!sign[1] && hops_y != 4'd0) det_port = KOLO_PORT_YP[2:0];
    else if (!sign[2] && hops_z != 4'd0) det_port = KOLO_PORT_ZP[2:0];
    else if (sign[0] && hops_x != 4'd0) det_port = KOLO_PORT_XM[2:0];
    else if (sign[1] && hops_y != 4'd0) det_port = KOLO_PORT_YM[2:0];
    else if (sign[2] && hops_z != 4'd0) det_port = KOLO_PORT_ZM[2:0];
    else if (ls_valid) det_port = ls_port;
    else det_port = KOLO_PORT_LOCAL[2:0];
  end

  wire [2:0] dim_left = {hops_z != 4'd0, hops_y != 4'd0, hops_x != 4'd0};
  wire [5:0] hops_dir = {dim_left[2] & sign[2], dim_left[2] & ~sign[2],
                           dim_left[1] & sign[1], dim_left[1] & ~sign[1],
                           dim_left[0] & sign[0], dim_left[0] & ~sign[0]};
  assign productive = fs_valid ? 6'd0 : hops_dir;
  assign adaptive_mask = productive & cfg_port_en;

  wire det_is_local = (det_port == KOLO_PORT_LOCAL[2:0]);
  wire [7:0] port_usable = {2'b00, cfg_port_en};  // 6 (local) is handled apart, 7 never exists
  wire det_port_ok  = det_is_local || port_usable[det_port];

  assign err_dst = (dst[3:0] > cfg_dim_m1[3:0]) || (dst[7:4] > cfg_dim_m1[7:4]) ||
                   (dst[11:8] > cfg_dim_m1[11:8]) || (det_is_local && dst != cfg_node_id);
  assign err_len = (len > 6'd32) || flit[KOLO_FLIT_TAIL];
  assign err_vc = flit[KOLO_H0_VNET] != flit[KOLO_FLIT_VC_LO+1];
  assign err_route = (fs_valid && fs_port > 3'd5) || (ls_valid && ls_port > 3'd5) ||
                     (hops_x > cfg_dim_m1[3:0]) || (hops_y > cfg_dim_m1[7:4]) ||
                     (hops_z > cfg_dim_m1[11:8]) || !det_port_ok;
endmodule
`default_nettype wire
