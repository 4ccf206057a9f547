`default_nettype none
// kolo_router_crossbar_formal - proof 2 (issue 19), cell by cell: the 7x7
// crossbar kolo_router_crossbar (combinational) with every input free but
// for the switch's guarantees. Proved for every input (crossbar.sby: mode
// prove, depth 1; the cell has no state, so this is every reachable state);
// formal/README.md, proof 2, has the composition.
//
// Assumptions (what kolo_router_switch gives):
//  X1 per output o, conn (held by input p) and g (head of p granted now)
//     are each one-hot or zero, and not both non-zero (conn: the switch's
//     own assertions busy = conn != 0, conn one-hot or zero, proved in
//     switch.sby; g: the matrix arbiter's one-hot-or-zero grant of requests
//     masked with !busy in kolo_router_switch.v)
//  X2 g[o][p] only when p's request names o, one-hot (the arbiter grants
//     only a request; vc_select Q1: a request names one port)
// Guarantees (assertions), per output o and input p, written here from the
// cell's contract, not from its structure:
//  X_S  held by p: out[o] is bits [65:0] ({head, tail, data}) of the F0
//       entry of p's streamed VC (stream_vc[p])
//  X_H  p's head granted o now: out[o] is the F0 entry of p's requesting VC
//       (req_vc[p]) with its route state advanced for port o
//       (kolo_route_advance: a network port clears a pending first step,
//       else subtracts 1 from the hops of o's dimension when o is productive
//       for the head (the entry's prod[o]), else clears a pending last step;
//       the local port leaves it), every other bit unchanged
//  X_0  neither: out[o] is 0 (nothing)
// Negative control (make test-formal-router-crossbar): a copy of the cell
// whose streamed flit is picked by the request's VC (a planted wrong
// select) must fail X_S.
module kolo_router_crossbar_formal (
    input wire [7*4*87-1:0] f0_entry,
    input wire [7*2-1:0]    stream_vc,
    input wire [7*2-1:0]    req_vc,
    input wire [7*7-1:0]    req_port,
    input wire [7*7-1:0]    conn,
    input wire [7*7-1:0]    g
);
  `include "kolo_defs.vh"
  `include "kolo_router_defs.vh"

  wire [7*66-1:0] out_data;
  kolo_router_crossbar u_xb (
      .f0_entry(f0_entry),
      .stream_vc(stream_vc),
      .req_vc(req_vc),
      .req_port(req_port),
      .conn(conn),
      .g(g),
      .out_data(out_data)
  );

  function oh0(input [6:0] x);  // one-hot or zero
    oh0 = (x & (x - 7'd1)) == 7'd0;
  endfunction

  // the F0 entry of VC v among an input's four
  function [86:0] vc_entry(input [4*87-1:0] e, input [1:0] v);
    case (v)
      2'd0: vc_entry = e[0+:87];
      2'd1: vc_entry = e[87+:87];
      2'd2: vc_entry = e[174+:87];
      default: vc_entry = e[261+:87];
    endcase
  endfunction

  // the route state rs of a head with productive ports prod, after leaving
  // through port o (0..5 network: X+ X- Y+ Y- Z+ Z-; 6 local)
  function [22:0] adv(input [22:0] rs, input [5:0] prod, input integer o);
    begin
      adv = rs;
      if (o < 6) begin
        if (rs[KOLO_RS_FS_VALID]) adv[KOLO_RS_FS_VALID] = 1'b0;
        else if (prod[o]) begin
          if (o / 2 == 0) adv[KOLO_RS_HOPS_X+:4] = rs[KOLO_RS_HOPS_X+:4] - 4'd1;
          if (o / 2 == 1) adv[KOLO_RS_HOPS_Y+:4] = rs[KOLO_RS_HOPS_Y+:4] - 4'd1;
          if (o / 2 == 2) adv[KOLO_RS_HOPS_Z+:4] = rs[KOLO_RS_HOPS_Z+:4] - 4'd1;
        end else adv[KOLO_RS_LS_VALID] = 1'b0;
      end
    end
  endfunction

  genvar o, p;
  generate
    for (o = 0; o < 7; o = o + 1) begin : g_o
      wire [6:0] c = conn[o*7+:7];
      wire [6:0] gg = g[o*7+:7];
      wire [65:0] out = out_data[o*66+:66];
      always @(*) begin
        assume (oh0(c) && oh0(gg) && (c == 7'd0 || gg == 7'd0));  // X1
        if (c == 7'd0 && gg == 7'd0) assert (out == 66'd0);        // X_0 nothing
      end
      for (p = 0; p < 7; p = p + 1) begin : g_p
        wire [1:0] sv = stream_vc[p*2+:2];
        wire [1:0] rv = req_vc[p*2+:2];
        wire [86:0] es = vc_entry(f0_entry[p*4*87+:4*87], sv);
        wire [86:0] eh = vc_entry(f0_entry[p*4*87+:4*87], rv);
        wire [22:0] rs_n = adv(eh[KOLO_H0_RS_LO+:KOLO_RS_W], eh[KOLO_E_PROD_LO+:6], o);
        always @(*) begin
          if (gg[p]) assume (req_port[p*7+:7] == (7'd1 << o));    // X2
          if (c[p]) assert (out == es[65:0]);                       // X_S streamed flit
          if (gg[p]) assert (out == {eh[65:59], rs_n, eh[35:0]});   // X_H granted head
        end
      end
    end
  endgenerate

  // non-vacuity (task cover): a streamed flit, a granted head rewritten
  // (hops decremented) and a granted head ejected unchanged, all at once
  always @(*)
    cover (conn[4*7+1] && g[0*7+2] && g[6*7+3] && out_data[0*66+KOLO_H0_RS_LO+KOLO_RS_HOPS_X+:4] !=
           g_o[0].g_p[2].eh[KOLO_H0_RS_LO+KOLO_RS_HOPS_X+:4] && out_data[4*66+:66] != 66'd0);
endmodule
`default_nettype wire
