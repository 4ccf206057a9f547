`default_nettype none
// kolo_torus_formal - formal harness of proof 3 (issue 19) on a DX x DY x 1
// torus of real kolo_routers (2x2x1 so far): X and Y ports in use, Z off.
// The routes come from a table set, as the NIs take them: a packet from node
// s to node d carries the route state of entry TABLES[s][d] (sw/route's
// kolo_route_entry: bit 23 here is KOLO_RE_VALID, bits 22:0 the route state:
// hops and signs per dimension, an optional first and last step). The C tool
// formal/net/torus_tables.c makes the table sets (a cyclic one the deadlock
// check refuses, an acyclic one from the fault router that it certifies),
// checks them, and prints them as this harness's parameters.
//
// Topology: output port p of node n feeds input port p^1 of the neighbour
// through p (ports 0 X+, 1 X-, 2 Y+, 3 Y-; in a ring of 2 both X ports of a
// node lead to the same neighbour, on two separate links); credits run the
// other way. Outputs are registered (OUT_REG = 7'h7f), so a wire is the link.
// PORT_DOWN (6 bits per node): the links the table set's fault set takes
// down (both ends), given to the routers as port_down.
//
// Cells shared with kolo_ring_formal: kolo_net_inject (the NI's injection,
// credits, stop), kolo_net_sink (the NI's ejection), kolo_net_count (stop,
// flits in the network, cycles without a move) and kolo_net_check (the
// properties below but the per-node delivery check). Smallest legal buffers:
// ESC_SLOTS 2 (1 with BUBBLE 0), ADAPT_DEPTH 35, LOCAL_DEPTH 34,
// EJECT_CREDITS 35; packets of 2 flits (no payload), vnet 0.
//
// FORCE = 1 (the scenarios of make formal-torus-deadlock): every node sends
// one packet to node FDST[n] at once (full rate from cycle 1), the sinks
// never stall, the stop at cycle WIN. The packet's VC class is CLS[n] and
// its `ordered` bit ORD[n] (default 1: an ordered packet stays in the escape
// VC, class 0, on the path its entry names: the path the deadlock check
// follows; an unordered one may take the adaptive VC, class 1, on a
// productive port at any router); with FREE_CLS = 1 the solver chooses each
// packet's class and `ordered` bit instead (adaptive VC1 traffic).
// Everything else is fixed, so the solver mostly unrolls. FORCE = 0: each node sends up to PKTS packets to destinations of
// its choice (valid entries only), when it likes, class and ordered free.
//
// Properties (checked from the cycle after reset):
// - QUIET = M > 0: after the stop, while flits are in the network, some flit
//   moves (a router output of any port valid, or an injection) within M
//   cycles. A deadlocked state never changes again: it fails this at any M.
// - DRAIN = 1 (B cycles after the stop, B required): every flit injected has
//   been delivered, no input VC holds a flit (dbg_vc_occ), no output is
//   valid, no injector is inside a packet, and every credit is home (per
//   link and VC class flits sent = credits returned, the NIs' credits full,
//   the sinks owing none).
// - in every cycle: a delivered head is for this node, on vnet 0, and no
//   router drops a packet (stat_errors stays 0).
module kolo_torus_formal #(
    parameter DX        = 2,
    parameter DY        = 2,
    parameter BUBBLE    = 1,
    parameter ESC_SLOTS = 2,
    parameter [DX*DY*DX*DY*24-1:0] TABLES = 0,  // entry [s*NODES+d] at bits (s*NODES+d)*24 +: 24
    parameter [DX*DY*6-1:0] PORT_DOWN = 0,       // node n's down ports at bits n*6 +: 6
    parameter [DX*DY*4-1:0] FDST = 0,            // FORCE: node n's destination index at bits n*4 +: 4
    parameter [DX*DY-1:0] CLS = 0,               // FORCE: node n's packet class
    parameter [DX*DY-1:0] ORD = {DX*DY{1'b1}},   // FORCE: node n's packet is `ordered`
    parameter FREE_CLS  = 0,    // FORCE: class and ordered chosen by the solver
    parameter FORCE     = 1,
    parameter PKTS      = 1,    // packets per node at most (FORCE = 0)
    parameter K         = 0,    // longest sink stall (FORCE = 0)
    parameter WIN       = 3,    // stopped by cycle WIN (0: free)
    parameter QUIET     = 0,    // 0: off
    parameter DRAIN     = 0,
    parameter B         = 0     // drain bound, cycles after the stop (DRAIN = 1)
) (
    input wire clk
);
  `include "kolo_defs.vh"

  localparam integer NODES = DX * DY;
  localparam LOCAL_DEPTH = 34;
  localparam EJECT_CREDITS = 35;
  localparam ADAPT_DEPTH = 35;
  localparam [3:0] DXM1 = DX - 1;
  localparam [3:0] DYM1 = DY - 1;
  localparam [5:0] PORT_EN = {2'b00, DY > 1, DY > 1, DX > 1, DX > 1};
  generate
    if (DRAIN != 0 && B == 0) begin : g_bad_bound
      kolo_torus_formal_PARAMETER_ERROR_DRAIN_needs_B u_error ();
    end
    if (QUIET > 250 || B > 250) begin : g_bad_width
      kolo_torus_formal_PARAMETER_ERROR_QUIET_and_B_at_most_250 u_error ();
    end
    if (DX > 16 || DY > 16 || NODES > 16) begin : g_bad_size
      kolo_torus_formal_PARAMETER_ERROR_at_most_16_nodes u_error ();
    end
  endgenerate

  // ---- reset: high in the first cycle only ---------------------------------------
  reg init = 1'b1;
  always @(posedge clk) init <= 1'b0;
  wire rst = init;

  (* anyseq *) wire stop_any;
  wire stopped;
  wire [7:0] since_stop, cycle, in_net, quiet;
  wire stop_req = (FORCE != 0) ? (WIN != 0 && cycle >= WIN) : stop_any;

  wire [NODES*7-1:0] r_in_valid, r_out_valid, r_in_credit_valid, r_out_credit_valid;
  wire [NODES*7*68-1:0] r_in_flit, r_out_flit;
  wire [NODES*7*2-1:0] r_in_credit_vc, r_out_credit_vc;
  wire [NODES-1:0] node_busy, inj_flit, ej_flit, any_errors, mid_packet, credits_home;

  genvar i, p;
  generate
    for (i = 0; i < NODES; i = i + 1) begin : g_node
      localparam integer X = i % DX;
      localparam integer Y = i / DX;
      localparam [11:0] ME = {4'd0, Y[3:0], X[3:0]};

      // ---- links: output p -> input p^1 of the neighbour through p -------------
      for (p = 0; p < 6; p = p + 1) begin : g_link
        localparam integer NB = (p == 0) ? ((X + 1) % DX + DX * Y)
                              : (p == 1) ? ((X + DX - 1) % DX + DX * Y)
                              : (p == 2) ? (X + DX * ((Y + 1) % DY))
                              : (p == 3) ? (X + DX * ((Y + DY - 1) % DY)) : i;
        localparam integer Q = (p < 4) ? (p ^ 1) : p;
        if (p < 4 && PORT_EN[p]) begin : g_on
          assign r_in_valid[i*7+p] = r_out_valid[NB*7+Q];
          assign r_in_flit[(i*7+p)*68+:68] = r_out_flit[(NB*7+Q)*68+:68];
          assign r_out_credit_valid[i*7+p] = r_in_credit_valid[NB*7+Q];
          assign r_out_credit_vc[(i*7+p)*2+:2] = r_in_credit_vc[(NB*7+Q)*2+:2];
        end else begin : g_off
          assign r_in_valid[i*7+p] = 1'b0;
          assign r_in_flit[(i*7+p)*68+:68] = 68'd0;
          assign r_out_credit_valid[i*7+p] = 1'b0;
          assign r_out_credit_vc[(i*7+p)*2+:2] = 2'd0;
        end
      end

      // ---- injector: a packet to dst along its table entry ---------------------
      (* anyseq *) wire want_any, cls_any, ordered_any;
      (* anyseq *) wire [3:0] dst_any;
      wire want = (FORCE != 0) ? 1'b1 : want_any;
      wire [3:0] dst = (FORCE != 0) ? FDST[i*4+:4] : dst_any;
      wire cls = (FORCE != 0 && FREE_CLS == 0) ? CLS[i] : cls_any;
      wire ordered = (FORCE != 0 && FREE_CLS == 0) ? ORD[i] : ordered_any;
      wire [23:0] entry = TABLES[(i*NODES+dst)*24+:24];
      wire [3:0] dst_x = dst % DX;
      wire [3:0] dst_y = dst / DX;
      wire [11:0] dst_id = {4'd0, dst_y, dst_x};
      wire [63:0] hdr = {5'd0, entry[22:0], ordered, 6'd0, 1'b0 /* vnet 0 */, 4'd0, ME, dst_id};
      wire go, in_pkt, inj_home;
      wire [67:0] in_f;
      kolo_net_inject #(
          .LOCAL_DEPTH(LOCAL_DEPTH),
          .PKTS((FORCE != 0) ? 1 : PKTS)
      ) u_inj (
          .clk(clk),
          .rst(rst),
          .stopped(stopped),
          .want(want),
          .can_start(dst < NODES && entry[23]),
          .new_vc({1'b0, cls}),
          .len(6'd0),
          .hdr(hdr),
          .cr_back(r_in_credit_valid[i*7+6]),
          .cr_vc(r_in_credit_vc[(i*7+6)*2+:2]),
          .go(go),
          .flit(in_f),
          .in_pkt(in_pkt),
          .home(inj_home)
      );
      assign r_in_valid[i*7+6] = go;
      assign r_in_flit[(i*7+6)*68+:68] = in_f;
      assign inj_flit[i] = go;
      assign mid_packet[i] = in_pkt;

      // ---- sink ------------------------------------------------------------------
      (* anyseq *) wire give_any, give_vc1_any;
      wire out_v = r_out_valid[i*7+6];
      wire [67:0] out_f = r_out_flit[(i*7+6)*68+:68];
      wire ret, ret_vc1, sink_home;
      kolo_net_sink #(
          .K((FORCE != 0) ? 0 : K)
      ) u_sink (
          .clk(clk),
          .rst(rst),
          .give((FORCE != 0) ? 1'b1 : give_any),
          .give_vc1((FORCE != 0) ? 1'b0 : give_vc1_any),
          .out_v(out_v),
          .out_vc(out_f[67:66]),
          .ret(ret),
          .ret_vc1(ret_vc1),
          .home(sink_home)
      );
      assign r_out_credit_valid[i*7+6] = ret;
      assign r_out_credit_vc[(i*7+6)*2+:2] = {1'b0, ret_vc1};
      assign ej_flit[i] = !rst && out_v;

      // ---- the router ------------------------------------------------------------
      wire [63:0] stat_errors;
      wire [28*8-1:0] occ;
      kolo_router #(
          .ESC_SLOTS(ESC_SLOTS),
          .ADAPT_DEPTH(ADAPT_DEPTH),
          .LOCAL_DEPTH(LOCAL_DEPTH),
          .EJECT_CREDITS(EJECT_CREDITS),
          .BUBBLE(BUBBLE),
          .LOCAL_WHOLE_PKT(1),
          .OUT_REG(7'h7f)
      ) u_router (
          .clk(clk),
          .rst(rst),
          .cfg_node_id(ME),
          .cfg_dim_m1({4'd0, DYM1, DXM1}),
          .cfg_port_en(PORT_EN),
          .port_down(PORT_DOWN[i*6+:6]),
          .in_valid(r_in_valid[i*7+:7]),
          .in_flit(r_in_flit[i*7*68+:7*68]),
          .in_credit_valid(r_in_credit_valid[i*7+:7]),
          .in_credit_vc(r_in_credit_vc[i*7*2+:14]),
          .out_valid(r_out_valid[i*7+:7]),
          .out_flit(r_out_flit[i*7*68+:7*68]),
          .out_sunk(),
          .out_credit_valid(r_out_credit_valid[i*7+:7]),
          .out_credit_vc(r_out_credit_vc[i*7*2+:14]),
          .stat_errors(stat_errors),
          .stat_out_flits(),
          .stat_fault_drops(),
          .dbg_vc_occ(occ),
          .dbg_vc_route()
      );
      assign node_busy[i] = (occ != {28 * 8{1'b0}}) || (r_out_valid[i*7+:7] != 7'd0);
      assign any_errors[i] = stat_errors != 64'd0;

      // ---- credits outstanding on the links this node sends on ----------------
      // per network output port 0..3 and VC class: flits sent minus credits
      // returned (0: the router's credit counter is at its reset value)
      reg [7:0] out_owed[0:7];
      integer q;
      initial for (q = 0; q < 8; q = q + 1) out_owed[q] = 8'd0;
      always @(posedge clk)
        if (!rst)
          for (q = 0; q < 8; q = q + 1)
            out_owed[q] <= out_owed[q]
                + {7'd0, r_out_valid[i*7+q/2] && r_out_flit[(i*7+q/2)*68+66+:2] == q % 2}
                - {7'd0, r_out_credit_valid[i*7+q/2] && r_out_credit_vc[(i*7+q/2)*2+:2] == q % 2};
      assign credits_home[i] = out_owed[0] == 8'd0 && out_owed[1] == 8'd0 && out_owed[2] == 8'd0
          && out_owed[3] == 8'd0 && out_owed[4] == 8'd0 && out_owed[5] == 8'd0
          && out_owed[6] == 8'd0 && out_owed[7] == 8'd0 && inj_home && sink_home;

`ifdef FORMAL
      // a delivered head is for this node, on vnet 0
      always @(posedge clk)
        if (!rst && out_v) begin
          assert (out_f[67] == 1'b0);
          if (out_f[KOLO_FLIT_HEAD]) assert (out_f[KOLO_H0_DST_LO+:12] == ME);
        end
`endif
    end
  endgenerate

  // ---- stop, flits in the network, cycles without a move ----------------------------
  wire moved = (r_out_valid != {NODES * 7{1'b0}}) || (inj_flit != {NODES{1'b0}});
  kolo_net_count #(
      .N(NODES)
  ) u_count (
      .clk(clk),
      .rst(rst),
      .stop_req(stop_req),
      .inj(inj_flit),
      .ej(ej_flit),
      .moved(moved),
      .stopped(stopped),
      .since_stop(since_stop),
      .cycle(cycle),
      .in_net(in_net),
      .quiet(quiet)
  );

  // ---- the properties (kolo_net_check, shared with the ring harness) -----------------
  kolo_net_check #(
      .N(NODES),
      .QUIET(QUIET),
      .DRAIN(DRAIN),
      .BOUND(B)
  ) u_check (
      .clk(clk),
      .rst(rst),
      .since_stop(since_stop),
      .in_net(in_net),
      .quiet(quiet),
      .any_errors(any_errors),
      .mid_packet(mid_packet),
      .node_busy(node_busy),
      .credits_home(credits_home)
  );

`ifdef FORMAL
  always @(posedge clk)
    if (FORCE == 0 && WIN != 0 && cycle >= WIN) assume (stop_any || stopped);
`endif
endmodule
`default_nettype wire
