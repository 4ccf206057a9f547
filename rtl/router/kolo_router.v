`default_nettype none
// kolo_router - 7-port virtual-channel router of the kolo torus.
//
// Ports 0..5 are X+ X- Y+ Y- Z+ Z-, port 6 is the local (NI) port. Each port
// has 4 VCs: vc = {vnet, class}; class 0 is the escape VC (direction-order
// routing, bubble flow control counted in packet slots), class 1 the
// adaptive VC (minimal directions, Duato fallback to class 0); "ordered"
// packets use class 0 only. Virtual cut-through: a packet is given an output
// only when the downstream buffer has room for all of it.
//
// This module only wires the cells (docs/router.md):
//   kolo_router_input     x7  buffers, framing checks, route computation
//   kolo_router_vc_select x7  per input port: the head, output port and
//                             output VC it asks for next cycle (VC allocation)
//   kolo_router_switch        output port arbitration, packet by packet
//   kolo_router_crossbar      7x7 crossbar and the route-state rewrite
//   kolo_router_output    x7  output-VC credits and slots, flags, registers
//
// Pipeline at zero load (head flit on in_flit in cycle 1):
//   cycle 1  route computation; written into its VC's front register; its
//            request (port, output VC) formed and registered
//   cycle 2  output arbitration and crossbar: on out_flit in cycle 2 when
//            OUT_REG[port] = 0, in cycle 3 when it is 1
// Body flits take the same single cycle. With OUT_REG = 0 on the network
// ports and a 1-cycle link (kolo_link_ideal, LATENCY 1: the link's register
// is then the register after the crossbar) a hop costs 2 cycles. OUT_REG = 0
// leaves about 5 LUT levels after the router's registers on out_*: give it
// only to a port whose consumer registers its inputs first.
// Channels are credit-based: in_* flits arrive only against credits this
// router returns on in_credit_* (per VC: LOCAL_DEPTH on the local port,
// ESC_DEPTH = ESC_SLOTS*34 on class 0 and ADAPT_DEPTH on class 1 of network
// ports); out_* flits leave only against credits the neighbour returns on
// out_credit_* (a neighbour with the same parameters; EJECT_CREDITS per VC on
// the local port). At most one flit and one credit per port and cycle. Bad
// packets are dropped at the input and counted (stat_errors).
// port_down[p]: network port p leads to a link that is down. The router never
// waits for it: a packet that must leave through it (its deterministic port;
// adaptive choices avoid down ports) is still switched, one flit per cycle,
// but dropped whole at the output and counted in stat_fault_drops; it takes
// no credits. Decided when the packet is granted the port: a packet already
// leaving finishes on the link. out_sunk[p] marks the cycles in which
// out_flit[p] holds a flit of such a dropped packet (out_valid[p] is 0).
//
// Simulating many routers with Verilator: this module is a hier_block. Build
// with `verilator --hierarchical` so that one compiled router serves every
// torus node. Verilator 5.006 then refuses -G on the top (it forwards it to
// the router), so set the torus parameters in a small generated wrapper
// module instead (see tb/). Give absolute paths for -y/-I.
module kolo_router #(
    parameter ESC_SLOTS       = 3,        // class-0 VC buffer of network ports, in maximum packets
    parameter ADAPT_DEPTH     = 128,      // class-1 VC buffer of network ports, flits
    parameter LOCAL_DEPTH     = 80,       // local port VC buffer, flits (the NI's credits)
    parameter EJECT_CREDITS   = 64,       // NI receive buffer per VC
    parameter BUBBLE          = 1,        // 0 only to demonstrate deadlock
    parameter LOCAL_WHOLE_PKT = 1,        // check local packets whole before routing
    parameter [6:0] OUT_REG   = 7'h7f     // bit p: register output port p (see above)
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
    output wire [6:0]      out_valid,
    output wire [7*68-1:0] out_flit,
    output wire [6:0]      out_sunk,      // out_flit holds a flit dropped at a down port (monitors)
    input  wire [6:0]      out_credit_valid,
    input  wire [7*2-1:0]  out_credit_vc,
    output wire [63:0]     stat_errors,    // {route, vc, len, dst} dropped packets, 16 bits each
    output wire [7*32-1:0] stat_out_flits, // flits sent per output port
    output wire [31:0]     stat_fault_drops, // packets dropped whole at down ports
    output wire [28*8-1:0] dbg_vc_occ,     // flits buffered per input VC (port*4+vc)
    output wire [28*6-1:0] dbg_vc_route    // per input VC {forwarding, out port, out vc}
);
  // For Verilator, build the router once and share it between all torus nodes
  // (--hierarchical); without this, code size grows with every instance.
  /*verilator hier_block*/
  `include "kolo_defs.vh"
  `include "kolo_router_defs.vh"

  localparam NP = 7;
  localparam integer ESC_DEPTH = ESC_SLOTS * KOLO_MAX_PKT;
  localparam integer MAX_D0 = (ESC_DEPTH > ADAPT_DEPTH) ? ESC_DEPTH : ADAPT_DEPTH;
  localparam integer MAX_D = (MAX_D0 > LOCAL_DEPTH) ? MAX_D0 : LOCAL_DEPTH;
  localparam integer VC_AW = $clog2(MAX_D);

  // ---- parameter limits ------------------------------------------------------
  // Elaboration fails on a configuration that could never move a packet or
  // would deadlock; the missing module's name is the error message ($error is
  // not accepted by all three tools).
  generate
    if (ADAPT_DEPTH < KOLO_MAX_PKT + 1 || EJECT_CREDITS < KOLO_MAX_PKT + 1) begin : g_bad_credits
      // an output VC is asked for with credits for a maximum packet plus one in flight
      kolo_router_PARAMETER_ERROR_ADAPT_DEPTH_and_EJECT_CREDITS_at_least_35 u_error ();
    end
    if (ESC_SLOTS < ((BUBBLE != 0) ? 2 : 1) || ESC_SLOTS > 7) begin : g_bad_slots
      // a packet entering an escape ring needs two free slots
      kolo_router_PARAMETER_ERROR_ESC_SLOTS_2_to_7_with_BUBBLE_1_to_7_without u_error ();
    end
    if (LOCAL_DEPTH < ((LOCAL_WHOLE_PKT != 0) ? KOLO_MAX_PKT : 2)) begin : g_bad_depth
      kolo_router_PARAMETER_ERROR_whole_packet_local_port_needs_LOCAL_DEPTH_of_at_least_34 u_error ();
    end
    if (ADAPT_DEPTH > 255 || LOCAL_DEPTH > 255 || EJECT_CREDITS > 255) begin : g_bad_width
      kolo_router_PARAMETER_ERROR_buffers_and_credits_at_most_255 u_error ();
    end
  endgenerate

  // ---- wires between the cells -------------------------------------------------
  wire [NP*4-1:0] f0_valid;
  wire [NP*4*KOLO_E_W-1:0] f0_entry;
  wire [NP*4-1:0] hc_valid;
  wire [NP*4*14-1:0] hc_cand;
  wire [NP*4-1:0] hc_same;
  wire [NP-1:0] arr_valid;
  wire [NP*2-1:0] arr_vc;
  wire [NP*14-1:0] arr_cand;
  wire [NP-1:0] idle_next;
  wire [NP*4-1:0] err_pulse;

  wire [NP-1:0] req_valid;
  wire [NP*2-1:0] req_vc;
  wire [NP*7-1:0] req_port;
  wire [NP-1:0] req_class, req_sink;
  wire [NP*6-1:0] req_len;

  wire [NP-1:0] grant_in, stream;
  wire [NP*2-1:0] stream_vc;
  wire [NP*NP-1:0] g, conn;
  wire [NP-1:0] send, send_head, send_tail, send_sink, idle_pred, busy;
  wire [NP*2-1:0] send_vc, held_vc;
  wire [NP*6-1:0] send_len;
  wire [NP*66-1:0] xbar_data;
  wire [NP-1:0] s_valid, s_tail;

  wire [NP*2-1:0] fa, fe1, fe2;
  wire [NP-1:0] pd;
  wire [NP-1:0] sunk_head;
  wire [NP*4*8-1:0] mon_credits;
  wire [NP*4-1:0] credit_error;
  wire [NP*8-1:0] mon_slots;

  genvar i, v;
  generate
    for (i = 0; i < NP; i = i + 1) begin : g_port
      // ---- input unit ----------------------------------------------------------
      kolo_router_input #(
          .PORT(i),
          .ESC_DEPTH(ESC_DEPTH),
          .ADAPT_DEPTH(ADAPT_DEPTH),
          .LOCAL_DEPTH(LOCAL_DEPTH),
          .WHOLE_PKT((i == KOLO_PORT_LOCAL) ? LOCAL_WHOLE_PKT : 0),
          .VC_AW(VC_AW)
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
          .f0_valid(f0_valid[i*4+:4]),
          .f0_entry(f0_entry[i*4*KOLO_E_W+:4*KOLO_E_W]),
          .hc_valid(hc_valid[i*4+:4]),
          .hc_cand(hc_cand[i*4*14+:4*14]),
          .hc_same(hc_same[i*4+:4]),
          .arr_valid(arr_valid[i]),
          .arr_vc(arr_vc[i*2+:2]),
          .arr_cand(arr_cand[i*14+:14]),
          .idle_next(idle_next[i]),
          .stream(stream[i]),
          .stream_vc(stream_vc[i*2+:2]),
          .grant(grant_in[i]),
          .grant_vc(req_vc[i*2+:2]),
          .req_valid(req_valid[i]),
          .req_vc(req_vc[i*2+:2]),
          .err_pulse(err_pulse[i*4+:4]),
          .dbg_occ(dbg_vc_occ[i*4*8+:4*8])
      );

      // ---- VC allocation, input stage -------------------------------------------
      kolo_router_vc_select #(
          .PORT(i),
          .BUBBLE(BUBBLE)
      ) u_vc_select (
          .clk(clk),
          .rst(rst),
          .hc_valid(hc_valid[i*4+:4]),
          .hc_cand(hc_cand[i*4*14+:4*14]),
          .arr_valid(arr_valid[i]),
          .arr_vc(arr_vc[i*2+:2]),
          .arr_cand(arr_cand[i*14+:14]),
          .idle_next(idle_next[i]),
          .fa(fa),
          .fe1(fe1),
          .fe2(fe2),
          .idle(idle_pred),
          .pd(pd[5:0]),
          .hc_same(hc_same[i*4+:4]),
          .grant(grant_in[i]),
          .req_valid(req_valid[i]),
          .req_vc(req_vc[i*2+:2]),
          .req_port(req_port[i*7+:7]),
          .req_class(req_class[i]),
          .req_sink(req_sink[i])
      );

      // the held VC's front flit, and the requesting head's length
      wire [1:0] sv = stream_vc[i*2+:2];
      wire [1:0] rv = req_vc[i*2+:2];
      wire [4*KOLO_E_W-1:0] e = f0_entry[i*4*KOLO_E_W+:4*KOLO_E_W];
      wire [3:0] tails = {e[3*KOLO_E_W+KOLO_E_TAIL], e[2*KOLO_E_W+KOLO_E_TAIL],
                          e[1*KOLO_E_W+KOLO_E_TAIL], e[0*KOLO_E_W+KOLO_E_TAIL]};
      wire [4*6-1:0] lens = {e[3*KOLO_E_W+KOLO_H0_LEN_LO+:6], e[2*KOLO_E_W+KOLO_H0_LEN_LO+:6],
                             e[1*KOLO_E_W+KOLO_H0_LEN_LO+:6], e[0*KOLO_E_W+KOLO_H0_LEN_LO+:6]};
      assign s_valid[i] = f0_valid[i*4+sv];
      assign s_tail[i] = tails[sv];
      // (a 4:1 multiplexer written out: lens[rv*6+:6] is a multiplier on the
      // ECP5, a MULT18X18D per port on the path into the switch allocator)
      assign req_len[i*6+:6] = rv[1] ? (rv[0] ? lens[3*6+:6] : lens[2*6+:6]) :
                                       (rv[0] ? lens[1*6+:6] : lens[0*6+:6]);

      // ---- output unit ----------------------------------------------------------
      kolo_router_output #(
          .PORT(i),
          .ESC_SLOTS(ESC_SLOTS),
          .ADAPT_DEPTH(ADAPT_DEPTH),
          .EJECT_CREDITS(EJECT_CREDITS),
          .BUBBLE(BUBBLE),
          .OUT_REG(OUT_REG[i])
      ) u_output (
          .clk(clk),
          .rst(rst),
          .send(send[i]),
          .send_vc(send_vc[i*2+:2]),
          .send_head(send_head[i]),
          .send_tail(send_tail[i]),
          .send_sink(send_sink[i]),
          .send_len(send_len[i*6+:6]),
          .send_data(xbar_data[i*66+:66]),
          .port_down((i < 6) ? port_down[(i<6)?i:0] : 1'b0),
          .out_valid(out_valid[i]),
          .out_flit(out_flit[i*68+:68]),
          .out_sunk(out_sunk[i]),
          .out_credit_valid(out_credit_valid[i]),
          .out_credit_vc(out_credit_vc[i*2+:2]),
          .fa(fa[i*2+:2]),
          .fe1(fe1[i*2+:2]),
          .fe2(fe2[i*2+:2]),
          .pd(pd[i]),
          .stat_out_flits(stat_out_flits[i*32+:32]),
          .sunk_head(sunk_head[i]),
          .mon_credits(mon_credits[i*4*8+:4*8]),
          .credit_error(credit_error[i*4+:4]),
          .mon_slots(mon_slots[i*8+:8])
      );

      // ---- debug: the output held by each input VC --------------------------------
      reg [2:0] out_port;
      integer k;
      always @(*) begin
        out_port = 3'd0;
        for (k = 0; k < NP; k = k + 1) if (conn[k*NP+i]) out_port = k[2:0];
      end
      for (v = 0; v < 4; v = v + 1) begin : g_dbg
        wire fwd = stream[i] && sv == v[1:0];
        assign dbg_vc_route[(i*4+v)*6+:6] = {fwd, out_port, held_vc[out_port*2+:2]};
      end
    end
  endgenerate

  // ---- switch allocation and crossbar ------------------------------------------------
  kolo_router_switch u_switch (
      .clk(clk),
      .rst(rst),
      .req_valid(req_valid),
      .req_port(req_port),
      .req_vc(req_vc),
      .req_class(req_class),
      .req_sink(req_sink),
      .req_len(req_len),
      .s_valid(s_valid),
      .s_tail(s_tail),
      .grant_in(grant_in),
      .stream(stream),
      .stream_vc(stream_vc),
      .g(g),
      .conn(conn),
      .send(send),
      .send_vc(send_vc),
      .send_head(send_head),
      .send_tail(send_tail),
      .send_sink(send_sink),
      .send_len(send_len),
      .idle_pred(idle_pred),
      .busy_out(busy),
      .held_vc(held_vc)
  );

  kolo_router_crossbar u_crossbar (
      .f0_entry(f0_entry),
      .stream_vc(stream_vc),
      .req_vc(req_vc),
      .req_port(req_port),
      .conn(conn),
      .g(g),
      .out_data(xbar_data)
  );

  // ---- counters --------------------------------------------------------------------
  // packets dropped at down ports (saturating; the local port never sinks)
  reg [31:0] fault_drops;
  wire [2:0] sunk_now = {2'b00, sunk_head[0]} + {2'b00, sunk_head[1]} + {2'b00, sunk_head[2]} +
                        {2'b00, sunk_head[3]} + {2'b00, sunk_head[4]} + {2'b00, sunk_head[5]};
  always @(posedge clk) begin
    if (rst) fault_drops <= 32'd0;
    else if (fault_drops > 32'hffff_fff0) fault_drops <= 32'hffff_ffff;
    else fault_drops <= fault_drops + {29'd0, sunk_now};
  end
  assign stat_fault_drops = fault_drops;

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

  // test and debug views (read by tb/router through hierarchical references)
  wire unused_dbg = &{1'b0, mon_credits, credit_error, mon_slots, busy, send_tail, sunk_head[6],
                      pd[6]};

`ifdef FORMAL
  // a flit leaves on an output only for the packet holding it or a head granted it
  genvar o;
  generate
    for (o = 0; o < NP; o = o + 1) begin : g_f
      always @(posedge clk) if (!rst && send[o]) assert (busy[o] || g[o*NP+:NP] != 0);
    end
  endgenerate
`endif
endmodule
`default_nettype wire
