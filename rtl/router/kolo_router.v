`default_nettype none
// kolo_router - 7-port virtual-channel router of the kolo torus.
//
// Ports 0..5 are X+ X- Y+ Y- Z+ Z-, port 6 is the local (NI) port. Each port
// has 4 VCs: vc = {vnet, class}; class 0 is the escape VC (direction-order
// routing, bubble flow control), class 1 the adaptive VC (minimal directions,
// Duato fallback to class 0); "ordered" packets use class 0 only.
// Virtual cut-through: an output VC is allocated to a packet only when the
// downstream buffer has room for all of it; a packet entering a class-0 ring
// (injection, turn, or coming from another class) needs room for two maximum
// packets when BUBBLE is set.
// Pipeline (zero load): cycle 1 the head is written into the input buffer and
// routed (lookahead route compute), cycle 2 VC allocation, cycle 3 switch
// allocation and traversal into the output register. Body flits take 2.
// Channels are credit-based: in_* flits arrive only against credits this
// router returns on in_credit_*; out_* flits leave only against credits the
// neighbour returns on out_credit_* (OUT_CREDITS per VC after reset on network
// ports, EJECT_CREDITS on the local port). At most one flit and one credit per
// port and cycle. Bad packets are dropped at the input and counted.
// port_down[p]: network port p leads to a link that is down. The router never
// waits for it: a packet that must leave through it (its deterministic port;
// adaptive choices avoid down ports) is still allocated and switched, but
// dropped whole at the output and counted in stat_fault_drops; it takes no
// credits. Decided when a packet is given its output VC: a packet already
// leaving finishes on the link. out_sunk[p] marks the cycles in which
// out_flit[p] holds a flit of such a dropped packet (out_valid[p] is 0), so
// monitors can tell which packets were dropped.
//
// Simulating many routers with Verilator: this module is a hier_block. Build
// with `verilator --hierarchical` so that one compiled router serves every
// torus node (without it a 4x4x4 torus generates ~330 MB of C++). Verilator
// 5.006 then refuses -G on the top (it forwards it to the router), so set the
// torus parameters in a small generated wrapper module instead (see tb/).
// Give absolute paths for -y/-I: the hierarchical build runs in --Mdir.
module kolo_router #(
    parameter VC_DEPTH        = 80,       // flits per input VC buffer
    parameter OUT_CREDITS     = VC_DEPTH, // neighbours' input buffer per VC
    parameter EJECT_CREDITS   = 64,       // NI receive buffer per VC
    parameter BUBBLE          = 1,        // 0 only to demonstrate deadlock
    parameter LOCAL_WHOLE_PKT = 1         // check local packets whole before routing
) (
    input  wire            clk,
    input  wire            rst,
    input  wire [11:0]     cfg_node_id,   // {z,y,x}
    input  wire [11:0]     cfg_dim_m1,    // {z,y,x} ring size - 1
    input  wire [5:0]      cfg_port_en,   // network ports in use
    input  wire [5:0]      port_down,     // network ports whose link is down: drop, never wait
    input  wire [6:0]      in_valid,
    input  wire [7*68-1:0] in_flit,
    output wire [6:0]      in_credit_valid,
    output wire [7*2-1:0]  in_credit_vc,
    output reg  [6:0]      out_valid,
    output reg  [7*68-1:0] out_flit,
    output reg  [6:0]      out_sunk,      // out_flit holds a flit dropped at a down port (monitors)
    input  wire [6:0]      out_credit_valid,
    input  wire [7*2-1:0]  out_credit_vc,
    output wire [63:0]     stat_errors,    // {route, vc, len, dst} dropped packets, 16 bits each
    output wire [7*32-1:0] stat_out_flits, // flits sent per output port
    output wire [31:0]     stat_fault_drops, // packets dropped whole at down ports
    output wire [28*8-1:0] dbg_vc_occ,     // flits buffered per input VC (port*4+vc)
    output wire [28*6-1:0] dbg_vc_route    // per input VC {allocated, out port, out vc}
);
  // For Verilator, build the router once and share it between all torus nodes
  // (--hierarchical); without this, code size grows with every instance.
  /*verilator hier_block*/
  `include "kolo_defs.vh"

  localparam NP = 7;
  localparam NIV = 28;  // input VCs = output VCs = 7 ports x 4

  // ---- input units ----------------------------------------------------------
  wire [NIV*68-1:0] front_flit;
  wire [NIV*3-1:0] front_det;
  wire [NIV*6-1:0] front_mask;
  wire [NIV-1:0] va_elig;
  wire [NIV-1:0] sa_elig;
  wire [NIV-1:0] alloc_valid;
  wire [NIV*3-1:0] alloc_port;
  wire [NIV*2-1:0] alloc_vc;
  wire [NIV-1:0] va_grant;
  wire [NIV*5-1:0] va_req_ovc;
  wire [NIV-1:0] sa_grant;
  wire [NP*4-1:0] err_pulse;

  genvar i, v, o;
  generate
    for (i = 0; i < NP; i = i + 1) begin : g_in
      wire [4*3-1:0] grant_port;
      wire [4*2-1:0] grant_vc;
      for (v = 0; v < 4; v = v + 1) begin : g_map
        assign grant_port[v*3+:3] = va_req_ovc[(i*4+v)*5+2+:3];
        assign grant_vc[v*2+:2] = va_req_ovc[(i*4+v)*5+:2];
      end
      kolo_router_input #(
          .VC_DEPTH(VC_DEPTH),
          .WHOLE_PKT((i == KOLO_PORT_LOCAL) ? LOCAL_WHOLE_PKT : 0)
      ) u_input (
          .clk(clk),
          .rst(rst),
          .cfg_node_id(cfg_node_id),
          .cfg_dim_m1(cfg_dim_m1),
          .cfg_port_en(cfg_port_en),
          .in_valid(in_valid[i]),
          .in_flit(in_flit[i*68+:68]),
          .credit_valid(in_credit_valid[i]),
          .credit_vc(in_credit_vc[i*2+:2]),
          .front_flit(front_flit[i*4*68+:4*68]),
          .front_det_port(front_det[i*4*3+:4*3]),
          .front_adaptive_mask(front_mask[i*4*6+:4*6]),
          .va_eligible(va_elig[i*4+:4]),
          .sa_eligible(sa_elig[i*4+:4]),
          .alloc_valid(alloc_valid[i*4+:4]),
          .alloc_port(alloc_port[i*4*3+:4*3]),
          .alloc_vc(alloc_vc[i*4*2+:4*2]),
          .va_grant(va_grant[i*4+:4]),
          .va_grant_port(grant_port),
          .va_grant_vc(grant_vc),
          .sa_grant(sa_grant[i*4+:4]),
          .err_pulse(err_pulse[i*4+:4]),
          .dbg_occ(dbg_vc_occ[i*4*8+:4*8])
      );
      for (v = 0; v < 4; v = v + 1) begin : g_dbg
        assign dbg_vc_route[(i*4+v)*6+:6] = {alloc_valid[i*4+v], alloc_port[(i*4+v)*3+:3],
                                             alloc_vc[(i*4+v)*2+:2]};
      end
    end
  endgenerate

  // ---- parameter limits ------------------------------------------------------
  // Elaboration fails on a configuration that could never move a packet
  // (credits below one maximum packet), that would deadlock ordered traffic
  // (bubble rule with room for fewer than two maximum packets), or that
  // overflows the 8-bit credit and occupancy fields. The missing module's name
  // is the error message; $error is not accepted by all three tools.
  generate
    if (OUT_CREDITS < KOLO_MAX_PKT || EJECT_CREDITS < KOLO_MAX_PKT) begin : g_bad_credits
      kolo_router_PARAMETER_ERROR_credits_below_one_maximum_packet_34 u_error ();
    end
    if (BUBBLE != 0 && OUT_CREDITS < 2 * KOLO_MAX_PKT) begin : g_bad_bubble
      kolo_router_PARAMETER_ERROR_bubble_rule_needs_OUT_CREDITS_of_at_least_68 u_error ();
    end
    if (LOCAL_WHOLE_PKT != 0 && VC_DEPTH < KOLO_MAX_PKT) begin : g_bad_depth
      kolo_router_PARAMETER_ERROR_whole_packet_local_port_needs_VC_DEPTH_of_at_least_34 u_error ();
    end
    if (VC_DEPTH > 255 || OUT_CREDITS > 255 || EJECT_CREDITS > 255) begin : g_bad_width
      kolo_router_PARAMETER_ERROR_buffers_and_credits_at_most_255 u_error ();
    end
  endgenerate

  // ---- output VC state: held flag and credits -------------------------------
  reg [NIV-1:0] ovc_busy;     // allocated to a packet whose tail has not left
  wire [NIV*8-1:0] ovc_credits;
  wire [NIV-1:0] ovc_send;    // a flit leaves on this output VC now
  wire [NIV-1:0] ovc_release; // ... and it is a tail
  wire [NIV-1:0] ovc_grab;    // VC allocation gives it to a packet now

  generate
    for (o = 0; o < NP; o = o + 1) begin : g_ovc
      for (v = 0; v < 4; v = v + 1) begin : g_vc
        localparam integer MAXC = (o == KOLO_PORT_LOCAL) ? EJECT_CREDITS : OUT_CREDITS;
        localparam integer CW = $clog2(MAXC + 1);
        wire [CW-1:0] count;
        wire credit_error;
        kolo_credit_counter #(
            .MAX(MAXC),
            .INIT(MAXC)
        ) u_credits (
            .clk(clk),
            .rst(rst),
            .inc(out_credit_valid[o] && out_credit_vc[o*2+:2] == v),
            .dec(ovc_send[o*4+v]),
            .count(count),
            /* verilator lint_off PINCONNECTEMPTY */  // only the count matters here
            .available(),
            /* verilator lint_on PINCONNECTEMPTY */
            .error(credit_error)
        );
        assign ovc_credits[(o*4+v)*8+:8] = {{(8 - CW) {1'b0}}, count};
`ifndef SYNTHESIS
`include "kolo_assert.vh"
        // a credit returned beyond OUT_CREDITS/EJECT_CREDITS, or a flit sent
        // without one (the counter's error is sticky)
        always @(posedge clk) if (!rst) `KOLO_ASSERT(!credit_error);
`endif
      end
    end
  endgenerate

  always @(posedge clk) begin
    if (rst) ovc_busy <= {NIV{1'b0}};
    else ovc_busy <= (ovc_busy | ovc_grab) & ~ovc_release;
  end

  // ---- down ports: output VCs that sink whole packets ---------------------------
  // Whether a packet is sent or dropped is decided when it is given the output
  // VC (port_down then) and kept until its tail: sent whole or dropped whole.
  reg [NIV-1:0] ovc_sink;
  wire [6:0] pdown = {1'b0, port_down};
  generate
    for (o = 0; o < NIV; o = o + 1) begin : g_sink
      always @(posedge clk) begin
        if (rst) ovc_sink[o] <= 1'b0;
        else if (ovc_grab[o]) ovc_sink[o] <= pdown[o/4];
      end
    end
  endgenerate

  // ---- VC allocation: each waiting head picks one output VC, then each
  // output VC picks one head (round robin) -------------------------------------
  localparam [7:0] BUBBLE_NEED = 2 * KOLO_MAX_PKT;
  wire [NIV-1:0] va_req;
  wire [NIV*NIV-1:0] va_grants_all;  // [output VC * NIV + input VC]

  generate
    for (i = 0; i < NIV; i = i + 1) begin : g_va_req
      localparam integer PORT_IN = i / 4;
      localparam [2:0] PORT_BACK = PORT_IN[2:0] ^ 3'd1;  // where a packet continuing its ring leaves
      localparam integer CLASS_IN = i % 2;
      localparam integer VNET_I = (i / 2) % 2;
      localparam [0:0] VNET = VNET_I[0:0];
      wire [67:0] f = front_flit[i*68+:68];
      wire [5:0] len = f[KOLO_H0_LEN_LO+:6];
      wire ordered = f[KOLO_H0_ORDERED];
      wire [2:0] det = front_det[i*3+:3];
      wire [5:0] mask = front_mask[i*6+:6];
      wire [7:0] need_pkt = {2'b00, len} + 8'd2;
      // continuing in the same ring, in the escape class: bubble not needed
      wire continuing = (PORT_IN != KOLO_PORT_LOCAL) && (det == PORT_BACK) && (CLASS_IN == 0);
      wire [7:0] need_escape = (BUBBLE == 0 || continuing || det == KOLO_PORT_LOCAL[2:0]) ?
                               need_pkt : BUBBLE_NEED;
      wire [4:0] ovc_det0 = {det, VNET, 1'b0};
      wire [4:0] ovc_det1 = {det, VNET, 1'b1};
      // a packet for a down port needs no credits: it will be dropped, unless
      // it may go adaptively through a port that is up (then it waits for it)
      wire det_down = pdown[det];
      wire alt_up = !ordered && ((mask & ~port_down) != 6'd0);
      wire ok_det0 = !ovc_busy[ovc_det0] && !(det_down && alt_up) &&
                     (det_down || ovc_credits[ovc_det0*8+:8] >= need_escape);
      wire ok_det1 = !ordered && !ovc_busy[ovc_det1] && !(det_down && alt_up) &&
                     (det_down || ovc_credits[ovc_det1*8+:8] >= need_pkt);
      // adaptive: one productive port per dimension at most
      wire [4:0] ovc_x = {2'b00, mask[1], VNET, 1'b1};
      wire [4:0] ovc_y = {2'b01, mask[3], VNET, 1'b1};
      wire [4:0] ovc_z = {2'b10, mask[5], VNET, 1'b1};
      wire [7:0] cr_x = ovc_credits[ovc_x*8+:8];
      wire [7:0] cr_y = ovc_credits[ovc_y*8+:8];
      wire [7:0] cr_z = ovc_credits[ovc_z*8+:8];
      // adaptive choices never lead into a down link
      wire ok_x = !ordered && (mask[0] | mask[1]) && !ovc_busy[ovc_x] && cr_x >= need_pkt &&
                  !pdown[ovc_x[4:2]];
      wire ok_y = !ordered && (mask[2] | mask[3]) && !ovc_busy[ovc_y] && cr_y >= need_pkt &&
                  !pdown[ovc_y[4:2]];
      wire ok_z = !ordered && (mask[4] | mask[5]) && !ovc_busy[ovc_z] && cr_z >= need_pkt &&
                  !pdown[ovc_z[4:2]];
      // among usable adaptive ports, the one with most free space
      wire x_over_y = !ok_y || (ok_x && cr_x >= cr_y);
      wire [4:0] ovc_xy = x_over_y ? ovc_x : ovc_y;
      wire ok_xy = ok_x | ok_y;
      wire [7:0] cr_xy = x_over_y ? cr_x : cr_y;
      wire xy_over_z = !ok_z || (ok_xy && cr_xy >= cr_z);
      wire [4:0] ovc_adaptive = xy_over_z ? ovc_xy : ovc_z;
      wire ok_adaptive = ok_xy | ok_z;

      assign va_req[i] = va_elig[i] && (ok_adaptive || ok_det1 || ok_det0);
      assign va_req_ovc[i*5+:5] = ok_adaptive ? ovc_adaptive : ok_det1 ? ovc_det1 : ovc_det0;
    end

    for (o = 0; o < NIV; o = o + 1) begin : g_va_out
      wire [NIV-1:0] req;
      wire [NIV-1:0] grant;
      for (i = 0; i < NIV; i = i + 1) begin : g_req
        assign req[i] = va_req[i] && (va_req_ovc[i*5+:5] == o);
      end
      kolo_arb_rr #(
          .N(NIV)
      ) u_arb (
          .clk(clk),
          .rst(rst),
          .req(req),
          .advance(1'b1),
          .grant(grant)
      );
      assign ovc_grab[o] = |grant;
      assign va_grants_all[o*NIV+:NIV] = grant;
    end

    // an input VC requests a single output VC, so it is granted iff that one chose it
    for (i = 0; i < NIV; i = i + 1) begin : g_va_grant
      wire [4:0] want = va_req_ovc[i*5+:5];
      assign va_grant[i] = va_req[i] && va_grants_all[want*NIV+i];
    end
  endgenerate

  // ---- switch allocation: each input port picks one ready VC, then each
  // output port picks one input port (round robin, advanced only on success) --
  wire [NP-1:0] in_req;
  wire [NP*3-1:0] in_req_port;
  wire [NP*4-1:0] in_choice;
  wire [NP-1:0] in_won;
  wire [NP*NP-1:0] out_grant;  // [o*NP+i]

  generate
    for (i = 0; i < NP; i = i + 1) begin : g_sa_in
      wire [3:0] cand;
      for (v = 0; v < 4; v = v + 1) begin : g_cand
        wire [4:0] ovc = {alloc_port[(i*4+v)*3+:3], alloc_vc[(i*4+v)*2+:2]};
        assign cand[v] = sa_elig[i*4+v] && (ovc_sink[ovc] || ovc_credits[ovc*8+:8] != 8'd0);
      end
      kolo_arb_rr #(
          .N(4)
      ) u_arb (
          .clk(clk),
          .rst(rst),
          .req(cand),
          .advance(in_won[i]),
          .grant(in_choice[i*4+:4])
      );
      assign in_req[i] = |cand;
      wire [2:0] port_of [0:3];
      for (v = 0; v < 4; v = v + 1) begin : g_port_of
        assign port_of[v] = alloc_port[(i*4+v)*3+:3];
      end
      assign in_req_port[i*3+:3] = in_choice[i*4+0] ? port_of[0] :
                                   in_choice[i*4+1] ? port_of[1] :
                                   in_choice[i*4+2] ? port_of[2] : port_of[3];
      assign in_won[i] = |{out_grant[0*NP+i], out_grant[1*NP+i], out_grant[2*NP+i],
                           out_grant[3*NP+i], out_grant[4*NP+i], out_grant[5*NP+i],
                           out_grant[6*NP+i]};
      assign sa_grant[i*4+:4] = in_won[i] ? in_choice[i*4+:4] : 4'd0;
    end

    for (o = 0; o < NP; o = o + 1) begin : g_sa_out
      wire [NP-1:0] req;
      for (i = 0; i < NP; i = i + 1) begin : g_req
        assign req[i] = in_req[i] && (in_req_port[i*3+:3] == o);
      end
      kolo_arb_rr #(
          .N(NP)
      ) u_arb (
          .clk(clk),
          .rst(rst),
          .req(req),
          .advance(1'b1),
          .grant(out_grant[o*NP+:NP])
      );
    end
  endgenerate

  // ---- crossbar and output registers ----------------------------------------
  wire [NP-1:0] out_sunk_head;  // a packet's head dropped at a down port now
  // the flit and output VC each input port forwards this cycle (AND-OR mux)
  wire [NP*68-1:0] in_sel_flit;
  wire [NP*2-1:0] in_sel_vc;
  generate
    for (i = 0; i < NP; i = i + 1) begin : g_xbar_in
      wire [3:0] c = in_choice[i*4+:4];
      assign in_sel_flit[i*68+:68] = ({68{c[0]}} & front_flit[(i*4+0)*68+:68]) |
                                     ({68{c[1]}} & front_flit[(i*4+1)*68+:68]) |
                                     ({68{c[2]}} & front_flit[(i*4+2)*68+:68]) |
                                     ({68{c[3]}} & front_flit[(i*4+3)*68+:68]);
      assign in_sel_vc[i*2+:2] = ({2{c[0]}} & alloc_vc[(i*4+0)*2+:2]) |
                                 ({2{c[1]}} & alloc_vc[(i*4+1)*2+:2]) |
                                 ({2{c[2]}} & alloc_vc[(i*4+2)*2+:2]) |
                                 ({2{c[3]}} & alloc_vc[(i*4+3)*2+:2]);
    end
  endgenerate

  // route state after leaving through port (same rule as kolo_route_advance)
  function automatic [22:0] advance_rs(input [22:0] rs, input [2:0] port);
    reg [1:0] d;
    reg [3:0] hops;
    begin
      advance_rs = rs;
      d = port[2:1];
      hops = rs[KOLO_RS_HOPS_X+4*d+:4];
      if (rs[KOLO_RS_FS_VALID]) advance_rs[KOLO_RS_FS_VALID] = 1'b0;
      else if (port < 3'd6 && hops != 4'd0 && rs[{3'b000, d}] == port[0])
        advance_rs[KOLO_RS_HOPS_X+4*d+:4] = hops - 4'd1;
      else if (rs[KOLO_RS_LS_VALID]) advance_rs[KOLO_RS_LS_VALID] = 1'b0;
    end
  endfunction

  generate
    for (o = 0; o < NP; o = o + 1) begin : g_out
      wire [NP-1:0] g = out_grant[o*NP+:NP];
      wire sending = |g;
      reg [67:0] flit;
      reg [1:0] vc;
      reg [31:0] flit_count;
      integer k;
      always @(*) begin
        flit = 68'd0;
        vc = 2'd0;
        for (k = 0; k < NP; k = k + 1) begin
          flit = flit | ({68{g[k]}} & in_sel_flit[k*68+:68]);
          vc = vc | ({2{g[k]}} & in_sel_vc[k*2+:2]);
        end
      end
      wire [22:0] rs_next = advance_rs(flit[KOLO_H0_RS_LO+:KOLO_RS_W], o);
      wire [63:0] data_out = (flit[KOLO_FLIT_HEAD] && o != KOLO_PORT_LOCAL) ?
          {flit[63:59], rs_next, flit[35:0]} : flit[63:0];
      // the flit's output VC sinks: it is switched but never leaves
      wire sunk = sending && ovc_sink[o*4+vc];

      always @(posedge clk) begin
        if (rst) begin
          out_valid[o] <= 1'b0;
          out_sunk[o] <= 1'b0;
          flit_count <= 32'd0;
        end else begin
          out_valid[o] <= sending && !sunk;
          out_sunk[o] <= sunk;
          if (sending && !sunk) flit_count <= flit_count + 32'd1;
        end
        out_flit[o*68+:68] <= {vc, flit[KOLO_FLIT_HEAD], flit[KOLO_FLIT_TAIL], data_out};
      end
      assign stat_out_flits[o*32+:32] = flit_count;
      assign out_sunk_head[o] = sunk && flit[KOLO_FLIT_HEAD];
      for (v = 0; v < 4; v = v + 1) begin : g_send
        assign ovc_send[o*4+v] = sending && (vc == v) && !ovc_sink[o*4+v];
        assign ovc_release[o*4+v] = sending && (vc == v) && flit[KOLO_FLIT_TAIL];
      end
    end
  endgenerate

  // packets dropped at down ports (saturating)
  reg [31:0] fault_drops;
  wire [2:0] sunk_now = {2'b00, out_sunk_head[0]} + {2'b00, out_sunk_head[1]} +
                        {2'b00, out_sunk_head[2]} + {2'b00, out_sunk_head[3]} +
                        {2'b00, out_sunk_head[4]} + {2'b00, out_sunk_head[5]} +
                        {2'b00, out_sunk_head[6]};  // (the local port never sinks)
  always @(posedge clk) begin
    if (rst) fault_drops <= 32'd0;
    else if (fault_drops > 32'hffff_fff0) fault_drops <= 32'hffff_ffff;
    else fault_drops <= fault_drops + {29'd0, sunk_now};
  end
  assign stat_fault_drops = fault_drops;

  // ---- error counters -------------------------------------------------------
  generate
    for (v = 0; v < 4; v = v + 1) begin : g_err
      reg [15:0] count;
      wire [2:0] n = {2'b00, err_pulse[0*4+v]} + {2'b00, err_pulse[1*4+v]} +
                     {2'b00, err_pulse[2*4+v]} + {2'b00, err_pulse[3*4+v]} +
                     {2'b00, err_pulse[4*4+v]} + {2'b00, err_pulse[5*4+v]} +
                     {2'b00, err_pulse[6*4+v]};
      always @(posedge clk) begin
        if (rst) count <= 16'd0;
        else if (count > 16'hffff - 16'd7) count <= 16'hffff;
        else count <= count + {13'd0, n};
      end
      assign stat_errors[v*16+:16] = count;
    end
  endgenerate

`ifdef FORMAL
  // an output VC is never given while held, and one flit per output VC per cycle
  always @(posedge clk) if (!rst) assert ((ovc_grab & ovc_busy) == {NIV{1'b0}});
  always @(posedge clk) if (!rst) assert ((ovc_send & ~ovc_busy) == {NIV{1'b0}});
  // the local port never sinks; a sinking VC never takes a credit
  always @(posedge clk) if (!rst) assert (ovc_sink[NIV-1:NIV-4] == 4'd0);
  always @(posedge clk) if (!rst) assert ((ovc_send & ovc_sink) == {NIV{1'b0}});
`endif
endmodule
`default_nettype wire
