`default_nettype none
// kolo_router_crossbar - the 7x7 crossbar of the kolo router, with the
// route-state rewrite of head flits. Combinational.
//
// Per input port p two flits are candidates: S[p], the front flit of the VC
// that holds an output (stream_vc[p]), and H[p], the front flit of the VC
// with a request (req_vc[p]) -- a head -- with its route state advanced for
// the port it asks for (req_port[p], one-hot). Output o takes S[p] when it is
// held by p (conn[o*7+p]) or H[p] when p's head is granted o now (g[o*7+p]);
// conn and g are one-hot or zero per output, and never both non-zero. The
// result per output is {head, tail, data} (66 bits); the output VC is added
// by the output unit.
// Route-state rewrite (kolo_route_advance, for a head leaving through a
// network port): clear a pending first step; else, when the port is
// productive for the head (entry bit prod[port]: hops left in the port's
// dimension, the port in the sign's direction), that dimension's hop count
// minus 1; else clear a pending last step. Heads leaving on the local port
// are not rewritten.
module kolo_router_crossbar (
    input  wire [7*4*87-1:0] f0_entry,   // F0 of every input VC, [(p*4+v)*87 +: 87]
    input  wire [7*2-1:0]  stream_vc,
    input  wire [7*2-1:0]  req_vc,
    input  wire [7*7-1:0]  req_port,     // [p*7+o]
    input  wire [7*7-1:0]  conn,         // [o*7+p]
    input  wire [7*7-1:0]  g,            // [o*7+p]
    output wire [7*66-1:0] out_data      // [o*66 +: 66] = {head, tail, data}
);
  `include "kolo_defs.vh"
  `include "kolo_router_defs.vh"

  wire [7*66-1:0] s_flit;
  wire [7*66-1:0] h_flit;

  genvar p, o;
  generate
    for (p = 0; p < 7; p = p + 1) begin : g_in
      wire [4*87-1:0] e = f0_entry[p*4*87+:4*87];
      wire [1:0] sv = stream_vc[p*2+:2];
      wire [1:0] rv = req_vc[p*2+:2];
      // 4:1 multiplexers written out (an index times 87 would become a multiplier)
      wire [86:0] e0 = e[0+:87], e1 = e[87+:87], e2 = e[174+:87], e3 = e[261+:87];
      wire [65:0] es = sv[1] ? (sv[0] ? e3[65:0] : e2[65:0]) : (sv[0] ? e1[65:0] : e0[65:0]);
      wire [86:0] eh = rv[1] ? (rv[0] ? e3 : e2) : (rv[0] ? e1 : e0);
      assign s_flit[p*66+:66] = es;

      // the head's route state advanced for its requested port
      wire [6:0] rp = req_port[p*7+:7];
      wire [5:0] prod = eh[KOLO_E_PROD_LO+:6];
      wire [22:0] rs = eh[KOLO_H0_RS_LO+:KOLO_RS_W];
      wire net = rp[5:0] != 6'd0;
      wire fs = rs[KOLO_RS_FS_VALID];
      wire [2:0] dec = {rp[4] & prod[4] | rp[5] & prod[5], rp[2] & prod[2] | rp[3] & prod[3],
                        rp[0] & prod[0] | rp[1] & prod[1]};
      reg [22:0] rs_n;
      always @(*) begin
        rs_n = rs;
        if (net) begin
          if (fs) rs_n[KOLO_RS_FS_VALID] = 1'b0;
          else begin
            if (dec[0]) rs_n[KOLO_RS_HOPS_X+:4] = rs[KOLO_RS_HOPS_X+:4] - 4'd1;
            if (dec[1]) rs_n[KOLO_RS_HOPS_Y+:4] = rs[KOLO_RS_HOPS_Y+:4] - 4'd1;
            if (dec[2]) rs_n[KOLO_RS_HOPS_Z+:4] = rs[KOLO_RS_HOPS_Z+:4] - 4'd1;
            if (dec == 3'd0) rs_n[KOLO_RS_LS_VALID] = 1'b0;
          end
        end
      end
      assign h_flit[p*66+:66] = {eh[65:59], rs_n, eh[35:0]};
      wire unused_eh = &{1'b0, eh[80:66], rp[6]};
    end

    for (o = 0; o < 7; o = o + 1) begin : g_out
      wire [6:0] c = conn[o*7+:7];
      wire [6:0] gg = g[o*7+:7];
      reg [65:0] d;
      integer k;
      always @(*) begin
        d = 66'd0;
        for (k = 0; k < 7; k = k + 1)
          d = d | ({66{c[k]}} & s_flit[k*66+:66]) | ({66{gg[k]}} & h_flit[k*66+:66]);
      end
      assign out_data[o*66+:66] = d;
    end
  endgenerate

  // the entries' other fields (junk, candidate masks) are the input units' business
  wire unused_ok = &{1'b0, f0_entry};
endmodule
`default_nettype wire
