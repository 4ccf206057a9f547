`default_nettype none
// kolo_ring_formal - formal harness of proof 3 (issue 19): a ring of N real
// kolo_routers (a 1x1xN torus, Z ports only), nondeterministic injection at
// every local port that may stop, and a fair sink at every local port.
//
// The injector, the sink, the stop and flit counting and the properties are
// the cells kolo_net_inject, kolo_net_sink, kolo_net_count and
// kolo_net_check, shared with the torus harness kolo_torus_formal.
//
// Topology: node i's Z+ output (port 4) feeds node i+1's Z- input (port 5);
// its Z- output (port 5) feeds node i-1's Z+ input (port 4); credits run
// the other way. Outputs are registered (OUT_REG = 7'h7f), so a wire is the
// link. Ports X and Y are disabled and idle.
//
// Injection (the NI's side of the local port): one packet at a time per
// node, flit by flit, only against the credits the router returned
// (LOCAL_DEPTH per VC). A packet is legal: vnet 0, class and `ordered` free,
// payload length 0..MAX_LEN (2..MAX_LEN+2 flits), route state with hops only
// in Z (0..N-1 hops, sign free) and optionally a first and/or a last step,
// both in the sign's direction, so that the whole path stays in one ring of
// the torus (turns between the Z+ and Z- rings form the cross-ring cycles
// that the table check, proof 4, rejects; they are left out). The
// destination is where that path ends. `stop` ($anyseq) ends injection at a
// packet boundary; once stopped, injection stays stopped.
//
// Ejection: the sink takes every flit the router sends (EJECT_CREDITS per
// VC) and returns its credits one per cycle; it may stall, but never for
// more than K cycles in a row while it owes credits.
//
// Once stopped, an injector that is inside a packet sends the rest at full
// rate (credits allowing): an NI does not hold a begun packet back forever.
//
// Property (P3): `stop` has been set for B cycles -> every flit injected has
// been delivered at its destination (counted), no input VC of any router
// holds a flit (dbg_vc_occ), no output holds a flit, no injector is inside a
// packet, and every credit is home: per link and VC class the flits sent
// equal the credits returned (so the router's credit counter is at its reset
// value), the NI holds LOCAL_DEPTH credits per VC and the sink owes none.
// Also, in every cycle: every delivered head arrives at the node named in
// its header, and nothing is dropped (stat_errors stays 0).
// Deadlock property (QUIET = M > 0): after the stop, while flits are in the
// network, some flit moves (a router output valid, or an injection) within
// M cycles. A deadlocked state never changes again, so it fails this at any
// M. Negative control (make formal-net-deadlock): with BUBBLE = 0 and
// ESC_SLOTS = 1, two packets that go round the ring of 2 (FORCE = 1) each
// wait for the slot the other holds: a counterexample at step 20 for
// M = 12; the same scenario passes with BUBBLE = 1.
//
// The drain bound B (B = 0: derived from the parameters, below). Smallest
// legal buffers: ESC_SLOTS 2 (68 flits), ADAPT_DEPTH 35, LOCAL_DEPTH 34,
// EJECT_CREDITS 35; packets of F = MAX_LEN + 2 flits; Q = N * PKTS packets
// at most in the network (PKTS is required for a derived bound: without it
// the local buffers alone hold 17 packets per VC and node).
//   L0 = (F + 3)          source: the rest of the packet (<= F - 1 flits) is
//                         injected, the whole-packet verdict (+2), request
//      + 3 * (N + 1)      N - 1 hops plus a first and a last step, <= 3
//                         cycles each (2 for class 0 continuing or turning,
//                         3 for class 1 straight on: request from the
//                         buffered head, OUT_REG = 1, the link is a wire)
//      + 3                ejection (request from the buffered head)
//      + (F - 1)          the tail behind the head, one flit per cycle
//   per further packet, F * (K + 1) + 5: the packets share one sink in the
//   worst case; an eject VC takes a packet only with all 35 credits home
//   (EJECT_CREDITS = KOLO_MAX_PKT + 1), the sink returns its F credits at one
//   per K + 1 cycles at worst, then credit counter (+1), flag register (+1),
//   request register (+1), grant and crossbar (+1), output register (+1).
//   B = L0 + (Q - 1) * (F * (K + 1) + 5)
//   N = 2, F = 2, PKTS = 1, K = 0: L0 = 5 + 9 + 3 + 1 = 18, B = 18 + 7 = 25.
// The argument is checked, not proved in general: formal/net/ring_drain.sby
// runs the BMC to WIN + B + 3 steps (a stop at cycle WIN reaches since_stop
// = B at step WIN + B + 1; the clocked assertions below judge a step's values
// at the next step), so every stop time up to WIN is checked at B
// (formal/README.md, proof 3, has the runs and what they leave out). The per-packet term assumes
// the sink is the bottleneck; ring contention (one packet per output port
// at a time, bubble slots) is covered only if it overlaps with it.
module kolo_ring_formal #(
    parameter N         = 2,
    parameter BUBBLE    = 1,
    parameter ESC_SLOTS = 2,
    parameter MAX_LEN   = 0,    // payload flits of the longest injected packet
    parameter K         = 0,    // longest sink stall, cycles (0: a credit every cycle while owing)
    parameter B         = 0,    // drain bound, cycles after stop (0: derived, see above)
    parameter B_EXPECT  = 0,    // nonzero: stop the elaboration unless the bound is this
                                // (a run's depth is set for one bound: ring_drain.sby)
    parameter PKTS      = 1,    // packets each node injects at most (0: no limit)
    parameter WIN       = 0,    // injection window: stopped by cycle WIN (0: free)
    parameter QUIET     = 0,    // deadlock property: after the stop, with flits in the
                                // network, some flit moves within QUIET cycles (0: off)
    parameter DRAIN     = 1,    // check the drain property (0: off, for QUIET runs)
    parameter FORCE     = 0     // 1: every node sends one packet of 2 flits, class 0,
                                // Z+, first step and N-1 hops (round the ring back
                                // home) from cycle 1, and the sink never stalls: the
                                // scenario of the deadlock control (BUBBLE 0)
                                // 2: only the timing: every node sends at full rate from
                                // cycle 1 until the stop at WIN, sinks never stall;
                                // the packets (class, ordered, hops, sign, steps) free
) (
    input wire clk
);
  `include "kolo_defs.vh"

  localparam LOCAL_DEPTH = 34;
  localparam EJECT_CREDITS = 35;
  localparam ADAPT_DEPTH = 35;
  localparam integer F = MAX_LEN + 2;
  localparam integer Q = N * PKTS;
  localparam integer L0 = (F + 3) + 3 * (N + 1) + 3 + (F - 1);
  localparam integer B_DERIVED = L0 + (Q - 1) * (F * (K + 1) + 5);
  localparam integer BOUND = (B != 0) ? B : B_DERIVED;
  generate
    if (B == 0 && PKTS == 0) begin : g_bad_bound
      kolo_ring_formal_PARAMETER_ERROR_a_derived_drain_bound_needs_PKTS u_error ();
    end
    if (QUIET > 250) begin : g_bad_quiet
      kolo_ring_formal_PARAMETER_ERROR_QUIET_at_most_250 u_error ();
    end
    if (B_EXPECT != 0 && BOUND != B_EXPECT) begin : g_bad_bound_expect
      kolo_ring_formal_PARAMETER_ERROR_the_bound_is_not_B_EXPECT u_error ();
    end
    if (BOUND > 250) begin : g_bad_bound_width
      kolo_ring_formal_PARAMETER_ERROR_drain_bound_at_most_250 u_error ();
    end
  endgenerate

  // ---- reset: high in the first cycle only ---------------------------------------
  reg init = 1'b1;
  always @(posedge clk) init <= 1'b0;
  wire rst = init;

  (* anyseq *) wire stop_req;
  wire stopped;
  wire [7:0] since_stop, cycle, in_net, quiet;

  wire [N*7-1:0] r_in_valid, r_out_valid, r_in_credit_valid, r_out_credit_valid;
  wire [N*7*68-1:0] r_in_flit, r_out_flit;
  wire [N*7*2-1:0] r_in_credit_vc, r_out_credit_vc;
  wire [N-1:0] node_busy;      // some buffer or output of node i holds a flit
  wire [N-1:0] inj_flit;       // node i injects a flit now
  wire [N-1:0] ej_flit;        // node i's router delivers a flit now
  wire [N-1:0] any_errors;
  wire [N-1:0] mid_packet;     // node i's injector is inside a packet
  wire [N-1:0] credits_home;   // every credit of node i's outputs and NI is back

  genvar i;
  generate
    for (i = 0; i < N; i = i + 1) begin : g_node
      localparam integer NEXT = (i + 1) % N;
      localparam integer PREV = (i + N - 1) % N;
      localparam [3:0] ME = i;
      localparam [3:0] N_M1 = N - 1;

      // ---- links: Z+ out -> next node's Z- in; Z- out -> previous node's Z+ in
      assign r_in_valid[i*7+0] = 1'b0;
      assign r_in_valid[i*7+1] = 1'b0;
      assign r_in_valid[i*7+2] = 1'b0;
      assign r_in_valid[i*7+3] = 1'b0;
      assign r_in_flit[(i*7+0)*68+:4*68] = {4 * 68{1'b0}};
      assign r_in_valid[i*7+4] = r_out_valid[NEXT*7+5];
      assign r_in_flit[(i*7+4)*68+:68] = r_out_flit[(NEXT*7+5)*68+:68];
      assign r_in_valid[i*7+5] = r_out_valid[PREV*7+4];
      assign r_in_flit[(i*7+5)*68+:68] = r_out_flit[(PREV*7+4)*68+:68];
      assign r_out_credit_valid[i*7+:4] = 4'd0;
      assign r_out_credit_vc[i*7*2+:8] = 8'd0;
      assign r_out_credit_valid[i*7+4] = r_in_credit_valid[NEXT*7+5];
      assign r_out_credit_vc[(i*7+4)*2+:2] = r_in_credit_vc[(NEXT*7+5)*2+:2];
      assign r_out_credit_valid[i*7+5] = r_in_credit_valid[PREV*7+4];
      assign r_out_credit_vc[(i*7+5)*2+:2] = r_in_credit_vc[(PREV*7+4)*2+:2];

      // ---- injector (kolo_net_inject: framing, credits, stop) ------------------
      (* anyseq *) wire want;          // send a flit now (if credits allow)
      (* anyseq *) wire [0:0] cls;     // VC class of a new packet
      (* anyseq *) wire ordered;
      (* anyseq *) wire [5:0] len_pick;
      (* anyseq *) wire [3:0] hops_pick;
      (* anyseq *) wire sign_pick, fs_pick, ls_pick;

      wire [5:0] len = (len_pick > MAX_LEN) ? MAX_LEN[5:0] : len_pick;
      wire [3:0] hops = (hops_pick > N - 1) ? 4'd0 : hops_pick;
      // where the path ends: each step moves one node in the sign's direction
      wire [3:0] steps = hops + {3'd0, fs_pick} + {3'd0, ls_pick};
      wire [3:0] dst_z = sign_pick ? (ME + (N * 4) - steps) % N : (ME + steps) % N;
      wire [2:0] dir_port = sign_pick ? 3'd5 : 3'd4;
      wire [22:0] rs = {ls_pick ? dir_port : 3'd0, ls_pick, fs_pick ? dir_port : 3'd0, fs_pick,
                        hops, 4'd0, 4'd0, sign_pick, 2'b00};
      wire [63:0] hdr0 = {5'd0, rs, ordered, len, 1'b0 /* vnet 0 */, 4'd0, {ME, 8'd0}, {dst_z, 8'd0}};
      wire go, in_pkt, inj_home;
      wire [67:0] in_f;
      kolo_net_inject #(
          .LOCAL_DEPTH(LOCAL_DEPTH),
          .PKTS(PKTS)
      ) u_inj (
          .clk(clk),
          .rst(rst),
          .stopped(stopped),
          .want(want),
          .can_start(1'b1),
          .new_vc({1'b0, cls}),
          .len(len),
          .hdr(hdr0),
          .cr_back(r_in_credit_valid[i*7+6]),
          .cr_vc(r_in_credit_vc[i*7*2+6*2+:2]),
          .go(go),
          .flit(in_f),
          .in_pkt(in_pkt),
          .home(inj_home)
      );
      assign r_in_valid[i*7+6] = go;
      assign r_in_flit[(i*7+6)*68+:68] = in_f;
      assign inj_flit[i] = go;
      assign mid_packet[i] = in_pkt;

      // ---- sink (kolo_net_sink: stalls at most K cycles) --------------------------
      (* anyseq *) wire give;         // return a credit now
      (* anyseq *) wire give_vc1;     // ... of VC 1 rather than VC 0 (when both are owed)
      wire out_v = r_out_valid[i*7+6];
      wire [67:0] out_f = r_out_flit[(i*7+6)*68+:68];
      wire ret, ret_vc1, sink_home;
      kolo_net_sink #(
          .K(K)
      ) u_sink (
          .clk(clk),
          .rst(rst),
          .give(give),
          .give_vc1(give_vc1),
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
      wire [6:0] sunk;
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
          .cfg_node_id({ME, 8'd0}),
          .cfg_dim_m1({N_M1, 8'd0}),
          .cfg_port_en(6'b110000),
          .port_down(6'd0),
          .in_valid(r_in_valid[i*7+:7]),
          .in_flit(r_in_flit[i*7*68+:7*68]),
          .in_credit_valid(r_in_credit_valid[i*7+:7]),
          .in_credit_vc(r_in_credit_vc[i*7*2+:14]),
          .out_valid(r_out_valid[i*7+:7]),
          .out_flit(r_out_flit[i*7*68+:7*68]),
          .out_sunk(sunk),
          .out_credit_valid(r_out_credit_valid[i*7+:7]),
          .out_credit_vc(r_out_credit_vc[i*7*2+:14]),
          .stat_errors(stat_errors),
          .stat_out_flits(),
          .stat_fault_drops(),
          .dbg_vc_occ(occ),
          .dbg_vc_route()
      );
      assign node_busy[i] = (occ != {28 * 8{1'b0}}) || (r_out_valid[i*7+:7] != 7'd0);

      // ---- credits outstanding on the links this node sends on ----------------
      // per output port Z+ (4), Z- (5) and VC class: flits sent minus credits
      // returned. 0 means the router's credit counter is back at its reset value
      // (it moves by exactly these events); the local port's are cred0/1 (NI)
      // and owe0/1 (sink).
      reg [7:0] out_owed[0:3];
      integer q;
      initial for (q = 0; q < 4; q = q + 1) out_owed[q] = 8'd0;
      always @(posedge clk)
        if (!rst)
          for (q = 0; q < 4; q = q + 1)
            out_owed[q] <= out_owed[q]
                + {7'd0, r_out_valid[i*7+4+q/2] && r_out_flit[(i*7+4+q/2)*68+66+:2] == q % 2}
                - {7'd0, r_out_credit_valid[i*7+4+q/2] && r_out_credit_vc[(i*7+4+q/2)*2+:2] == q % 2};
      assign credits_home[i] = out_owed[0] == 8'd0 && out_owed[1] == 8'd0 && out_owed[2] == 8'd0
          && out_owed[3] == 8'd0 && inj_home && sink_home;
      assign any_errors[i] = stat_errors != 64'd0;

`ifdef FORMAL
      always @(*)
        if (FORCE == 1)
          assume (want && cls == 1'b0 && len_pick == 6'd0 && hops_pick == N_M1 && !sign_pick
                  && fs_pick && !ls_pick && give);
        else if (FORCE == 2)
          assume (want && give);
      // a delivered head is for this node
      always @(posedge clk)
        if (!rst && out_v) begin
          assert (out_f[67] == 1'b0);
          if (out_f[KOLO_FLIT_HEAD]) assert (out_f[KOLO_H0_DST_LO+8+:4] == ME);
        end
`endif
    end
  endgenerate

  // ---- stop, flits in the network, cycles without a move (kolo_net_count) ---------
  // quiet: cycles in a row, after the stop, in which flits are in the network
  // (in_net) and none moves (no router output of any port, local included,
  // and no injection). In a deadlock it grows for ever. The stop comes only
  // between packets of every node (the request may come any time; a packet
  // begun is finished first).
  wire moved = (r_out_valid != {N * 7{1'b0}}) || (inj_flit != {N{1'b0}});
  kolo_net_count #(
      .N(N)
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

  // ---- the properties (kolo_net_check, shared with the torus harness) ----------------
  kolo_net_check #(
      .N(N),
      .QUIET(QUIET),
      .DRAIN(DRAIN),
      .BOUND(BOUND)
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
  always @(posedge clk) begin
    if (WIN != 0 && cycle >= WIN) assume (stop_req || stopped);
    if (FORCE != 0 && cycle < WIN) assume (!stop_req);
  end
`endif
endmodule
`default_nettype wire
