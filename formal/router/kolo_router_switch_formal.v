`default_nettype none
// kolo_router_switch_formal - proof 2 (issue 19), cell by cell: the switch
// allocator kolo_router_switch (7 inputs x 7 outputs, packet by packet) with
// its inputs free in every cycle except for what the VC allocators and the
// input units guarantee. Proved unbounded by k-induction (switch.sby);
// formal/README.md, proof 2, has the composition.
//
// Assumptions:
//  C1 (kolo_router_vc_select Q1) a request names exactly one output port,
//     and an input asks only when it is not held by a packet (its
//     idle_next: the input unit is not forwarding in this cycle)
//  (s_valid and s_tail are free: the router gives the held VC's F0 tail bit
//  whether or not F0 holds a flit)
// Guarantees (assertions, every cycle after reset), per output o, with the
// packet it holds tracked here (o_open, the input o_in, the output VC, the
// sink flag, the input VC it streams):
//  W1 (the output unit's A1) a head (send_head) only when no packet is
//     open on o, and then with send; every other flit (send, no head) only
//     while one is open, on its output VC and sink flag; a tail only on
//     such a flit; the packet ends with its tail
//  W2 (P4, no packet split or interleaved) every flit after the head is
//     the front flit of the held input's streamed VC: that input is held
//     (stream), streams the VC granted to this packet, has a flit
//     (s_valid) and the tail is its tail (s_tail)
//  W3 every flit an input pops (stream && s_valid) crosses to exactly one
//     output, the one its packet holds (never lost, never duplicated)
//  W4 (the output unit's A2, with vc_select Q3/Q4) a head crosses to o only
//     for the registered request of exactly one input that names o, on
//     output VC {the request's vnet, the request's class}, sink flag the
//     request's; that input is granted (grant_in) and held from then on
//  and the cell's own assertions (held outputs and inputs agree, no grant
//  to a held input). Strengthening: per output the tracked packet equals
//  the cell's state (busy, conn, held_vc, the sink flag u_sw.sink via
//  connect -set).
// Negative control (make test-formal-router-switch, task bmc: the
// guarantees without the strengthening invariants): the cell with an
// output's arbiter not masked by busy (a new head granted while a packet
// holds the output) must fail W1, W2 or W3 (the packet split or
// interleaved).
module kolo_router_switch_formal #(
    parameter STRENGTHEN = 1  // 0: the guarantees alone (the control's BMC)
) (
    input wire           clk,
    input wire [6:0]     req_valid,
    input wire [7*7-1:0] req_port,
    input wire [7*2-1:0] req_vc,
    input wire [6:0]     req_class,
    input wire [6:0]     req_sink,
    input wire [7*6-1:0] req_len,
    input wire [6:0]     s_valid,
    input wire [6:0]     s_tail
);
  reg rst = 1'b1;
  always @(posedge clk) rst <= 1'b0;

  wire [6:0] grant_in, stream, send, send_head, send_tail, send_sink, idle_pred, busy_out;
  wire [7*2-1:0] stream_vc, send_vc, held_vc;
  wire [7*7-1:0] g, conn;
  wire [7*6-1:0] send_len;
  kolo_router_switch u_sw (
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
      .busy_out(busy_out),
      .held_vc(held_vc)
  );
  wire [6:0] sw_sink;  // u_sw.sink (switch.sby: connect -set after flatten)

  function onehot(input [6:0] x);
    onehot = x != 7'd0 && (x & (x - 7'd1)) == 7'd0;
  endfunction
  integer p;
  always @(*)
    for (p = 0; p < 7; p = p + 1) begin
      if (req_valid[p]) assume (onehot(req_port[p*7+:7]) && !stream[p]);  // C1
    end

  genvar o, q;
  generate
    for (o = 0; o < 7; o = o + 1) begin : g_o
      // the packet held, as the output unit sees it
      reg o_open, o_sink;
      reg [6:0] o_in;
      reg [1:0] o_vc, o_ivc;
      // the head's request: the inputs asking for o
      wire [6:0] asking;
      for (q = 0; q < 7; q = q + 1) begin : g_q
        assign asking[q] = req_valid[q] && req_port[q*7+o];
      end
      wire [6:0] gr = g[o*7+:7];
      reg [1:0] h_vc, h_ivc;
      reg h_sink;
      integer k;
      always @(*) begin
        h_vc = 2'd0;
        h_ivc = 2'd0;
        h_sink = 1'b0;
        for (k = 0; k < 7; k = k + 1)
          if (gr[k]) begin
            h_vc = {req_vc[k*2+1], req_class[k]};
            h_ivc = req_vc[k*2+:2];
            h_sink = req_sink[k];
          end
      end
      always @(posedge clk) begin
        if (rst) o_open <= 1'b0;
        else if (send[o] && send_head[o]) begin
          o_open <= 1'b1;
          o_in <= gr;
          o_vc <= send_vc[o*2+:2];
          o_ivc <= h_ivc;
          o_sink <= send_sink[o];
        end else if (send[o] && send_tail[o]) o_open <= 1'b0;
      end
      wire [6:0] in_s = o_in & stream & s_valid;
      wire [1:0] in_svc = stream_vc[0*2+:2] & {2{o_in[0]}} | stream_vc[1*2+:2] & {2{o_in[1]}} |
                          stream_vc[2*2+:2] & {2{o_in[2]}} | stream_vc[3*2+:2] & {2{o_in[3]}} |
                          stream_vc[4*2+:2] & {2{o_in[4]}} | stream_vc[5*2+:2] & {2{o_in[5]}} |
                          stream_vc[6*2+:2] & {2{o_in[6]}};
      always @(*)
        if (!rst) begin
          if (send_head[o]) begin                                          // W1, W4
            assert (send[o] && !o_open);                                   // W1 head
            assert (onehot(gr) && (gr & ~asking) == 7'd0);                 // W4
            assert (send_vc[o*2+:2] == h_vc && send_sink[o] == h_sink);    // W4
            assert ((gr & ~grant_in) == 7'd0);                             // W4
          end
          if (send[o] && !send_head[o]) begin                              // W1, W2
            assert (o_open && send_vc[o*2+:2] == o_vc && send_sink[o] == o_sink);  // W1 body
            assert (in_s != 7'd0 && in_svc == o_ivc);                      // W2
            assert (send_tail[o] == ((o_in & s_tail) != 7'd0));           // W2
          end
          if (send_tail[o]) assert (send[o] && !send_head[o]);            // W1
          // strengthening: the tracked packet is the cell's
          if (STRENGTHEN) assert (busy_out[o] == o_open);
          if (STRENGTHEN && o_open) begin
            assert (conn[o*7+:7] == o_in && onehot(o_in));
            assert (held_vc[o*2+:2] == o_vc && sw_sink[o] == o_sink);
            assert (in_svc == o_ivc && (o_in & ~stream) == 7'd0);
          end
        end
    end
  endgenerate

  // W3: a popped flit crosses to exactly one output, its packet's
  integer i, j, n;
  reg w3_ok;
  always @(*) begin
    w3_ok = 1'b1;
    for (i = 0; i < 7; i = i + 1)
      if (stream[i] && s_valid[i]) begin
        n = 0;
        for (j = 0; j < 7; j = j + 1)
          if (conn[j*7+i] && send[j] && !send_head[j]) n = n + 1;
        if (n != 1) w3_ok = 1'b0;
      end
  end
  always @(*) if (!rst) assert (w3_ok);  // W3 once

  // non-vacuity (task cover): two packets at once, one through to its tail
  always @(*)
    if (!rst) begin
      cover (send[0] && !send_head[0] && send[6] && !send_head[6] && send_tail[6]);
      cover (send_head[5] && send_head[4]);
    end

  wire unused_ok = &{1'b0, req_len, send_len, idle_pred};
endmodule
`default_nettype wire
