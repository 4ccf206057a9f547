`default_nettype none
// kolo_router_switch - switch allocator of the kolo router (7 inputs x 7
// outputs), packet by packet.
//
// Each input port presents at most one request (kolo_router_vc_select:
// req_valid, one-hot req_port, the input VC, output VC class, sink). Each
// output port that is free picks one of the inputs asking for it with a
// least-recently-granted arbiter (kolo_arb_matrix) and is then held by that
// input until the packet's tail has passed: the head goes through the
// crossbar in the cycle of its grant (g), every later flit in the first
// cycle in which it is at the front of its input VC (s_valid; the input
// unit pops it then). Because a request names one output, a grant is also
// the input's only grant: there is no input-side conflict. The output VC of
// the packet is the one its request named; it needs no arbiter of its own,
// since only the packet holding the output port can use it.
// Outputs per output port o, this cycle: send (a flit crosses to o), its
// output VC, head/tail, sink (a dropped packet: the flit crosses but does not
// leave), and len (payload length of a head, for the output unit's packet
// slots). idle_pred (registered): the port is free in the next cycle unless
// granted then -- its tail is due now (counted from the head's length, so a
// gap before the tail only costs a refused request, never a wrong grant).
// Inputs held by a packet: stream/stream_vc (to the input unit).
module kolo_router_switch (
    input  wire          clk,
    input  wire          rst,
    input  wire [6:0]    req_valid,
    input  wire [7*7-1:0] req_port,    // [p*7+o]
    input  wire [7*2-1:0] req_vc,
    input  wire [6:0]    req_class,
    input  wire [6:0]    req_sink,
    input  wire [7*6-1:0] req_len,     // payload length of each requesting head
    input  wire [6:0]    s_valid,      // F0 of the held VC holds a flit
    input  wire [6:0]    s_tail,       // ... and it is a tail
    // inputs
    output wire [6:0]    grant_in,     // the input's head crosses now
    output reg  [6:0]    stream,       // the input is held by a packet
    output reg  [7*2-1:0] stream_vc,
    // outputs, [o*7+p]
    output wire [7*7-1:0] g,           // head of input p crosses to o now
    output reg  [7*7-1:0] conn,        // o is held by input p
    output wire [6:0]    send,
    output wire [7*2-1:0] send_vc,
    output wire [6:0]    send_head,
    output wire [6:0]    send_tail,
    output wire [6:0]    send_sink,
    output wire [7*6-1:0] send_len,
    output reg  [6:0]    idle_pred,
    output wire [6:0]    busy_out,
    output wire [7*2-1:0] held_vc      // output VC held (meaningful while busy)
);
  reg [6:0] busy;
  reg [7*2-1:0] ovc;
  reg [6:0] sink;
  reg [7*6-1:0] rem;  // flits still to pass after the current one, counted from len
  // per input: flits after its head (len + 1), and whether that is one
  wire [7*6-1:0] req_rem;
  wire [6:0] req_len0;
  genvar q;
  generate
    for (q = 0; q < 7; q = q + 1) begin : g_in_rem
      assign req_rem[q*6+:6] = req_len[q*6+:6] + 6'd1;
      assign req_len0[q] = req_len[q*6+:6] == 6'd0;
    end
  endgenerate

  genvar o, p;
  generate
    for (o = 0; o < 7; o = o + 1) begin : g_out
      wire [6:0] req;
      for (p = 0; p < 7; p = p + 1) begin : g_req
        assign req[p] = req_valid[p] && req_port[p*7+o] && !busy[o];
      end
      wire [6:0] gr;
      kolo_arb_matrix #(
          .N(7)
      ) u_arb (
          .clk(clk),
          .rst(rst),
          .req(req),
          .advance(1'b1),
          .grant(gr)
      );
      assign g[o*7+:7] = gr;
      wire granted = gr != 7'd0;
      wire [6:0] c = conn[o*7+:7];
      wire s_v = (c & s_valid) != 7'd0;
      wire s_t = (c & s_valid & s_tail) != 7'd0;
      reg [1:0] g_vc;
      reg g_sink, g_len0;
      reg [5:0] g_len, g_rem;
      integer k;
      always @(*) begin
        g_vc = 2'd0;
        g_sink = 1'b0;
        g_len = 6'd0;
        g_rem = 6'd0;
        g_len0 = 1'b0;
        for (k = 0; k < 7; k = k + 1) begin
          g_vc = g_vc | ({2{gr[k]}} & {req_vc[k*2+1], req_class[k]});
          g_sink = g_sink | (gr[k] & req_sink[k]);
          g_len = g_len | ({6{gr[k]}} & req_len[k*6+:6]);
          g_rem = g_rem | ({6{gr[k]}} & req_rem[k*6+:6]);
          g_len0 = g_len0 | (gr[k] & req_len0[k]);
        end
      end
      assign send[o] = busy[o] ? s_v : granted;
      assign send_head[o] = !busy[o] && granted;
      assign send_tail[o] = busy[o] && s_t;
      assign send_vc[o*2+:2] = busy[o] ? ovc[o*2+:2] : g_vc;
      assign send_sink[o] = busy[o] ? sink[o] : g_sink;
      assign send_len[o*6+:6] = g_len;
      assign busy_out[o] = busy[o];
      assign held_vc[o*2+:2] = ovc[o*2+:2];

      wire busy_n = granted || (busy[o] && !s_t);
      wire [5:0] r = rem[o*6+:6];
      // flits after the head: len + 1; the tail is due when one is left
      wire [5:0] rem_n = granted ? g_rem : (s_v ? r - 6'd1 : r);
      // the tail is due next cycle: a head with no payload granted now, or two
      // flits left and one passing now, or one left and none passing now
      wire last_n = granted ? g_len0 : (s_v ? r == 6'd2 : r == 6'd1);
      always @(posedge clk) begin
        if (rst) begin
          busy[o] <= 1'b0;
          conn[o*7+:7] <= 7'd0;
          idle_pred[o] <= 1'b1;
        end else begin
          busy[o] <= busy_n;
          if (granted) conn[o*7+:7] <= gr;
          else if (!busy_n) conn[o*7+:7] <= 7'd0;
          idle_pred[o] <= !busy_n || last_n;
        end
        if (granted) begin
          ovc[o*2+:2] <= g_vc;
          sink[o] <= g_sink;
        end
        rem[o*6+:6] <= rem_n;
      end
    end

    for (p = 0; p < 7; p = p + 1) begin : g_in
      wire [6:0] mine;
      for (o = 0; o < 7; o = o + 1) begin : g_col
        assign mine[o] = g[o*7+p];
      end
      assign grant_in[p] = mine != 7'd0;
      always @(posedge clk) begin
        if (rst) stream[p] <= 1'b0;
        else stream[p] <= grant_in[p] || (stream[p] && !(s_valid[p] && s_tail[p]));
        if (grant_in[p]) stream_vc[p*2+:2] <= req_vc[p*2+:2];
      end
    end
  endgenerate

`ifdef FORMAL
  /* verilator lint_off WIDTH */  // formal-only arithmetic
  // the held outputs and the held inputs agree: an output is held by exactly
  // one input, which is held, and no input holds two outputs
  integer f_o, f_p, f_n;
  reg f_ok;
  always @(*) begin
    f_ok = 1'b1;
    for (f_o = 0; f_o < 7; f_o = f_o + 1) begin
      if (busy[f_o] != (conn[f_o*7+:7] != 7'd0)) f_ok = 1'b0;
      if ((conn[f_o*7+:7] & (conn[f_o*7+:7] - 7'd1)) != 7'd0) f_ok = 1'b0;
      if ((conn[f_o*7+:7] & ~stream) != 7'd0) f_ok = 1'b0;
    end
    for (f_p = 0; f_p < 7; f_p = f_p + 1) begin
      f_n = 0;
      for (f_o = 0; f_o < 7; f_o = f_o + 1) f_n = f_n + {31'd0, conn[f_o*7+f_p]};
      if (f_n != (stream[f_p] ? 1 : 0)) f_ok = 1'b0;
    end
  end
  always @(posedge clk) if (!rst) assert (f_ok);
  // a request never reaches a busy port's grant, nor an input that is held
  always @(posedge clk) if (!rst) assert ((grant_in & stream) == 7'd0);
  /* verilator lint_on WIDTH */
`endif
endmodule
`default_nettype wire
