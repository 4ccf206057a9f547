`default_nettype none
// kolo_router_vc_select - the VC allocator's input stage for one input port:
// picks one waiting head and the output port and output VC it asks for in
// the next cycle (registered request, req_*).
//
// Output VCs are not allocated by arbiters per output VC: an output port
// carries one packet at a time (the switch allocator holds it from head to
// tail), so the output port arbiter of the next cycle (kolo_router_switch) is
// also the arbiter of its output VCs. This stage only checks that the output
// VC it names can take the packet when the request is granted, from flags
// the output units keep per output VC (registered, valid for the next cycle):
//   fa   class 1 (or an ejection VC): credits for a maximum packet, port up
//   fe1  class 0 of a network port: one free packet slot, port up
//   fe2  class 0 of a network port: two free packet slots (bubble rule)
//   (on the local port fe1 = fe2 = credits for a maximum packet on class 0)
//   idle the output port is free next cycle (predicted: its tail leaves now)
//   pd   the output link is down (a packet whose deterministic port is down
//        is asked for as a sink and dropped there, unless it is unordered
//        and a productive port is up: then it waits for that one)
// A head of VC v (vnet vn = v[1], class c = v[0]) whose entry has the
// candidate masks cand1 (ports allowed on class 1) and cand0 (its
// deterministic port, class 0) may ask for
//   class 1 on a port of cand1 with fa, the first in the order: the port
//   straight on (input port ^ 1), then X+ X- Y+ Y- Z+ Z-, then local;
//   otherwise class 0 on its deterministic port: fe1 when it continues in its
//   ring (network input, class 0, port = input port ^ 1) or ejects, fe2
//   when it enters a ring (injection, a turn, from class 1) and BUBBLE is set;
//   a head whose deterministic port is down and that has no productive port
//   up asks for its port as a sink (to be dropped there): decided from the
//   previous cycle's view of the same head, at the lowest priority.
// Between VCs: least recently chosen first (kolo_arb_matrix) among the heads
// that can ask; the order moves whenever a head is chosen.
// A head arriving now for an empty VC (arr_*) asks for its deterministic
// port at once when no buffered head asks (the zero-load path).
// The request is cleared when the port is granted now (it then forwards
// that packet) or will still be forwarding in the next cycle (idle_next low).
module kolo_router_vc_select #(
    parameter PORT   = 0,
    parameter BUBBLE = 1
) (
    input  wire          clk,
    input  wire          rst,
    // candidates from the input unit
    input  wire [3:0]    hc_valid,
    input  wire [4*14-1:0] hc_cand,   // per VC {cand0, cand1}
    input  wire          arr_valid,
    input  wire [1:0]    arr_vc,
    input  wire [13:0]   arr_cand,
    input  wire          idle_next,
    // output state, per output port o and vnet n at [o*2+n]
    input  wire [13:0]   fa,
    input  wire [13:0]   fe1,
    input  wire [13:0]   fe2,
    input  wire [6:0]    idle,
    input  wire [5:0]    pd,
    input  wire [3:0]    hc_same,     // F0 of the VC is the same entry as last cycle
    // this port's request was granted now
    input  wire          grant,
    // the request for the next cycle
    output reg           req_valid,
    output reg  [1:0]    req_vc,
    output reg  [6:0]    req_port,    // one-hot
    output reg           req_class,   // output VC class (the vnet is the input VC's)
    output reg           req_sink     // drop the packet at this (down) port
);
  localparam integer STRAIGHT = (PORT < 6) ? (PORT ^ 1) : 0;  // (the local port has none)

  // first set bit in the order: straight on, X+ X- Y+ Y- Z+ Z-, local
  function automatic [6:0] first(input [6:0] r);
    integer k;
    reg found;
    begin
      first = 7'd0;
      found = 1'b0;
      if (PORT < 6 && r[STRAIGHT]) begin
        first[STRAIGHT] = 1'b1;
        found = 1'b1;
      end
      for (k = 0; k < 7; k = k + 1)
        if (!found && r[k]) begin
          first[k] = 1'b1;
          found = 1'b1;
        end
    end
  endfunction

  // class-0 flag of output o for a head of input VC class c in vnet n
  // (fe1/fe2 are arguments: a function reads nothing but its arguments and
  // parameters, or Icarus evaluates a continuous assignment that calls it only
  // when an argument changes: scripts/check_functions.py)
  function automatic esc_ok(input [13:0] f1, input [13:0] f2, input integer op, input integer cl,
                            input integer vn);
    begin
      if (op == 6 || (BUBBLE == 0)) esc_ok = f1[op*2+vn];
      else if (PORT < 6 && op == (PORT ^ 1) && cl == 0) esc_ok = f1[op*2+vn];  // continuing
      else esc_ok = f2[op*2+vn];  // entering a ring
    end
  endfunction

  // ---- buffered heads ---------------------------------------------------------
  wire [3:0] any;          // VC v's head can ask for something now
  wire [4*7-1:0] sel;      // what it asks for (one-hot)
  wire [3:0] sel_class;
  wire [3:0] sink_can;     // ... it can only be dropped (its deterministic port is down)
  genvar v, o;
  generate
    for (v = 0; v < 4; v = v + 1) begin : g_vc
      localparam integer VN = v / 2;
      localparam integer CL = v % 2;
      wire [6:0] cand1 = hc_cand[v*14+:7];
      wire [6:0] cand0 = hc_cand[v*14+7+:7];
      wire [6:0] ok1, esc;
      for (o = 0; o < 7; o = o + 1) begin : g_o
        assign ok1[o] = hc_valid[v] && cand1[o] && fa[o*2+VN] && idle[o];
        assign esc[o] = hc_valid[v] && cand0[o] && idle[o] && esc_ok(fe1, fe2, o, CL, VN);
      end
      wire any1 = ok1 != 7'd0;
      assign sel[v*7+:7] = any1 ? first(ok1) : esc;
      assign sel_class[v] = any1;
      assign any[v] = any1 || (esc != 7'd0);
      // deterministic port down and no productive port up: a sink
      assign sink_can[v] = hc_valid[v] && (cand0[5:0] & pd) != 6'd0 && (cand1[5:0] & ~pd) == 6'd0;
    end
  endgenerate

  // least recently chosen first between the VCs whose heads can ask
  wire [3:0] vc_pick;
  wire reg_any = any != 4'd0;
  kolo_arb_matrix #(
      .N(4)
  ) u_vc_arb (
      .clk(clk),
      .rst(rst),
      .req(any),
      .advance(idle_next && !grant),
      .grant(vc_pick)
  );
  wire [6:0] reg_port = ({7{vc_pick[0]}} & sel[0*7+:7]) | ({7{vc_pick[1]}} & sel[1*7+:7]) |
                        ({7{vc_pick[2]}} & sel[2*7+:7]) | ({7{vc_pick[3]}} & sel[3*7+:7]);
  wire reg_class = |(vc_pick & sel_class);
  wire [1:0] reg_vc = {vc_pick[3] | vc_pick[2], vc_pick[3] | vc_pick[1]};

  // ---- arriving head: its deterministic port only -------------------------------
  wire [6:0] arr_det = arr_cand[13:7];
  wire arr_unordered = arr_cand[6:0] != 7'd0;
  wire [6:0] arr_ok1, arr_okE;
  generate
    for (o = 0; o < 7; o = o + 1) begin : g_arr
      wire e0 = esc_ok(fe1, fe2, o, 0, 0), e1 = esc_ok(fe1, fe2, o, 1, 0);
      wire e2 = esc_ok(fe1, fe2, o, 0, 1), e3 = esc_ok(fe1, fe2, o, 1, 1);
      wire e = (arr_vc == 2'd0) ? e0 : (arr_vc == 2'd1) ? e1 : (arr_vc == 2'd2) ? e2 : e3;
      assign arr_ok1[o] = arr_det[o] && idle[o] && arr_unordered && (arr_vc[1] ? fa[o*2+1] : fa[o*2]);
      assign arr_okE[o] = arr_det[o] && idle[o] && e;
    end
  endgenerate
  wire arr_any1 = arr_ok1 != 7'd0;
  wire arr_any = arr_valid && (arr_any1 || arr_okE != 7'd0);

  // ---- sinks: decided over two cycles (rare, not worth a fast path) --------------
  // sink_q: the head at F0 could only be dropped last cycle; it is still there
  // (hc_same) and its port is free: ask for that port as a sink
  reg [3:0] sink_q;
  wire [3:0] sink_ok;
  wire [4*7-1:0] sink_port;
  generate
    for (v = 0; v < 4; v = v + 1) begin : g_sink
      wire [6:0] cand0 = hc_cand[v*14+7+:7];
      assign sink_port[v*7+:7] = cand0 & {1'b0, pd} & idle;
      assign sink_ok[v] = sink_q[v] && hc_same[v] && hc_valid[v] && sink_port[v*7+:7] != 7'd0;
    end
  endgenerate
  // (the choice from registered bits only: this path stays short)
  wire [3:0] sink_cand = sink_q & hc_same;
  wire [3:0] sink_pick = {sink_cand[3] & ~|sink_cand[2:0], sink_cand[2] & ~|sink_cand[1:0],
                          sink_cand[1] & ~sink_cand[0], sink_cand[0]} & sink_ok;
  wire [6:0] s_port = ({7{sink_pick[0]}} & sink_port[0*7+:7]) | ({7{sink_pick[1]}} & sink_port[1*7+:7]) |
                      ({7{sink_pick[2]}} & sink_port[2*7+:7]) | ({7{sink_pick[3]}} & sink_port[3*7+:7]);
  wire [1:0] s_vc = {sink_pick[3] | sink_pick[2], sink_pick[3] | sink_pick[1]};
  // (a request only for the head picked: with sink_ok != 0 alone, a picked head
  // whose port is busy next to another VC's sink that could go made a request
  // naming no port, req_port = 0; found by formal/router/vc_select.sby)
  wire s_any = sink_pick != 4'd0;

  always @(posedge clk) begin
    if (rst) begin
      req_valid <= 1'b0;
      sink_q <= 4'd0;
    end else begin
      req_valid <= !grant && idle_next && (reg_any || arr_any || s_any);
      sink_q <= sink_can;
    end
    if (reg_any) begin
      req_port <= reg_port;
      req_class <= reg_class;
      req_sink <= 1'b0;
      req_vc <= reg_vc;
    end else if (arr_any) begin
      req_port <= arr_any1 ? arr_ok1 : arr_okE;
      req_class <= arr_any1;
      req_sink <= 1'b0;
      req_vc <= arr_vc;
    end else begin
      req_port <= s_port;
      req_class <= 1'b0;
      req_sink <= 1'b1;
      req_vc <= s_vc;
    end
  end

`ifdef FORMAL
  // a request names exactly one output port
  always @(posedge clk)
    if (!rst && req_valid) assert (req_port != 7'd0 && (req_port & (req_port - 7'd1)) == 7'd0);
  // a sink only for a network port
  always @(posedge clk) if (!rst && req_valid && req_sink) assert (!req_port[6]);
`endif
endmodule
`default_nettype wire
