`default_nettype none
// kolo_router_vc_select_formal - proof 2 (issue 19), cell by cell: one
// kolo_router_vc_select (the VC allocator's input stage: the request each
// input port makes for the next cycle) with every input free in every cycle
// except for what the input unit guarantees about candidate masks. Proved
// unbounded by k-induction (vc_select.sby); formal/README.md, proof 2, has
// the composition with the output unit's proof.
//
// Assumptions (the input unit and kolo_route_compute):
//  B1 a head's deterministic port (cand0) is one port: at most one bit set
//     (kolo_route_compute's det_port, one-hot in the input unit's cands())
//  B2 an unordered head's class-1 candidates (cand1) contain its
//     deterministic port: cand1 is the adaptive mask when that is non-zero,
//     which contains the deterministic port (it is the first productive
//     direction, and a packet whose port is disabled is dropped at the
//     input), else the deterministic port; ordered: cand1 = 0
//  B3 a head arriving (arr_*) is for an empty VC (hc_valid[arr_vc] = 0)
// Guarantees, for the request registered in the previous cycle (req_* now)
// from the inputs of that cycle (p_*):
//  Q1 one output port (one-hot); nothing while the port forwards (no
//     request in a cycle after a grant or with idle_next low)
//  Q2 it names a VC that had a head (buffered, or arriving), and a port
//     that was predicted free (idle)
//  Q3 VC allocation, class 1: only on a port of the head's class-1
//     candidates, and only with fa (credits downstream for a whole maximum
//     packet, port up): a VC1 packet never waits on a port it cannot use,
//     and never mid-packet for credits; never for an ordered packet
//  Q4 the bubble rule at the allocator, class 0: only on the head's
//     deterministic port, with fe2 (two free packet slots) when the packet
//     enters the ring there (injection from the local port, a turn into
//     another port, or from an input VC of class 1) and fe1 (one slot) when
//     it continues (class 0 in, straight on); ejection (the local port):
//     fe1 (credits for a whole packet)
//  Q5 a sink only on a network port that was down (pd), the head's
//     deterministic port, a buffered head
//  Q6 Duato's fallback is always open: when the port is free to ask and a
//     buffered head's deterministic port is idle with its class-0 flag (Q4),
//     a request is made (a head never waits while its escape VC can take it)
//  and the cell's own `ifdef FORMAL assertions (one-hot, sinks network only)
//  and its arbiter's (kolo_arb_matrix).
// Negative control (task bubble0): the cell with BUBBLE 0 asks for an
// entering class-0 packet with fe1 only: Q4 must fail. The rule checked here
// does not depend on the cell's BUBBLE (RULE_BUBBLE is the harness's own).
module kolo_router_vc_select_formal #(
    parameter PORT   = 5,   // Z- (straight on: Z+); 6 = the local input
    parameter BUBBLE = 1    // the cell's
) (
    input wire          clk,
    input wire [3:0]    hc_valid,
    input wire [4*14-1:0] hc_cand,
    input wire          arr_valid,
    input wire [1:0]    arr_vc,
    input wire [13:0]   arr_cand,
    input wire          idle_next,
    input wire [13:0]   fa,
    input wire [13:0]   fe1,
    input wire [13:0]   fe2,
    input wire [6:0]    idle,
    input wire [5:0]    pd,
    input wire [3:0]    hc_same,
    input wire          grant
);
  reg rst = 1'b1;
  always @(posedge clk) rst <= 1'b0;

  wire req_valid, req_class, req_sink;
  wire [1:0] req_vc;
  wire [6:0] req_port;
  kolo_router_vc_select #(
      .PORT(PORT),
      .BUBBLE(BUBBLE)
  ) u_sel (
      .clk(clk),
      .rst(rst),
      .hc_valid(hc_valid),
      .hc_cand(hc_cand),
      .arr_valid(arr_valid),
      .arr_vc(arr_vc),
      .arr_cand(arr_cand),
      .idle_next(idle_next),
      .fa(fa),
      .fe1(fe1),
      .fe2(fe2),
      .idle(idle),
      .pd(pd),
      .hc_same(hc_same),
      .grant(grant),
      .req_valid(req_valid),
      .req_vc(req_vc),
      .req_port(req_port),
      .req_class(req_class),
      .req_sink(req_sink)
  );

  function onehot0(input [6:0] x);
    onehot0 = (x & (x - 7'd1)) == 7'd0;
  endfunction
  function [6:0] c0(input [13:0] c);
    c0 = c[13:7];
  endfunction
  function [6:0] c1(input [13:0] c);
    c1 = c[6:0];
  endfunction
  integer a;
  always @(*) begin
    for (a = 0; a < 4; a = a + 1) begin
      assume (onehot0(c0(hc_cand[a*14+:14])));                                          // B1
      if (c1(hc_cand[a*14+:14]) != 7'd0) assume ((c0(hc_cand[a*14+:14]) & ~c1(hc_cand[a*14+:14])) == 7'd0);  // B2
    end
    assume (onehot0(c0(arr_cand)));                                                       // B1
    if (c1(arr_cand) != 7'd0) assume ((c0(arr_cand) & ~c1(arr_cand)) == 7'd0);            // B2
    if (arr_valid) assume (!hc_valid[arr_vc]);                                            // B3
  end

  // strengthening: the arbiter's own invariants (a total order, a grant for any
  // request) are guarded by its reset flag; from the cycle after reset it is set
  // (vc_select.sby ties arb_rst_seen to u_sel.u_vc_arb.g_matrix.f_rst_seen)
  wire arb_rst_seen;
  always @(*) if (!rst) assert (arb_rst_seen);

  // last cycle's inputs
  reg p_ok;  // last cycle was not the reset cycle
  reg [3:0] p_hc_valid;
  reg [4*14-1:0] p_hc_cand;
  reg p_arr_valid, p_idle_next, p_grant;
  reg [1:0] p_arr_vc;
  reg [13:0] p_arr_cand, p_fa, p_fe1, p_fe2;
  reg [6:0] p_idle;
  reg [5:0] p_pd;
  always @(posedge clk) begin
    p_ok <= !rst;
    p_hc_valid <= hc_valid;
    p_hc_cand <= hc_cand;
    p_arr_valid <= arr_valid;
    p_arr_vc <= arr_vc;
    p_arr_cand <= arr_cand;
    p_idle_next <= idle_next;
    p_grant <= grant;
    p_fa <= fa;
    p_fe1 <= fe1;
    p_fe2 <= fe2;
    p_idle <= idle;
    p_pd <= pd;
  end

  localparam integer STRAIGHT = (PORT < 6) ? (PORT ^ 1) : 7;  // 7: none
  // the request's head, its candidates and the flags it was asked with
  wire from_buf = p_hc_valid[req_vc];
  wire from_arr = p_arr_valid && p_arr_vc == req_vc;
  wire [13:0] cand = from_buf ? p_hc_cand[req_vc*14+:14] : p_arr_cand;
  wire vn = req_vc[1];
  reg [2:0] o;  // the requested port's number
  integer b;
  always @(*) begin
    o = 3'd0;
    for (b = 0; b < 7; b = b + 1) if (req_port[b]) o = b[2:0];
  end
  wire continuing = (o == STRAIGHT) && !req_vc[0];
  wire f_fa = p_fa[o*2+vn], f_fe1 = p_fe1[o*2+vn], f_fe2 = p_fe2[o*2+vn];
  wire esc_flag = (o == 3'd6 || continuing) ? f_fe1 : f_fe2;  // Q4, the bubble rule (harness's)

  always @(*)
    if (!rst && p_ok && req_valid) begin
      assert (req_port != 7'd0 && onehot0(req_port));           // Q1 one-hot
      assert (!p_grant && p_idle_next);                         // Q1
      assert (from_buf || (from_arr && !req_sink));             // Q2
      assert ((req_port & p_idle) != 7'd0);                     // Q2
      if (req_class) begin                                      // Q3
        assert (!req_sink);
        assert ((req_port & c1(cand)) != 7'd0);
        assert (f_fa);
      end else if (!req_sink) begin                             // Q4
        assert ((req_port & c0(cand)) != 7'd0);
        assert (esc_flag);                                      // Q4 bubble
      end else begin                                            // Q5
        assert (from_buf && o < 3'd6 && p_pd[o] && (req_port & c0(cand)) != 7'd0);
      end
    end

  // Q6: a buffered head whose escape port could take it is never left waiting
  reg p_esc_ready;
  integer v, q;
  reg esc_ready;
  always @(*) begin
    esc_ready = 1'b0;
    for (v = 0; v < 4; v = v + 1)
      for (q = 0; q < 7; q = q + 1)
        if (hc_valid[v] && hc_cand[v*14+7+q] && idle[q] &&
            ((q == 6 || (q == STRAIGHT && (v % 2) == 0)) ? fe1[q*2+v/2] : fe2[q*2+v/2]))
          esc_ready = 1'b1;
  end
  always @(posedge clk) p_esc_ready <= esc_ready;
  always @(*)
    if (!rst && p_ok && p_esc_ready && p_idle_next && !p_grant) assert (req_valid);

  // non-vacuity (task cover)
  always @(*)
    if (!rst && p_ok) begin
      cover (req_valid && req_class && from_buf);
      cover (req_valid && !req_class && !req_sink && !continuing && o != 3'd6 && from_buf);
      cover (req_valid && !req_class && !req_sink && continuing && from_arr);
      cover (req_valid && req_sink);
    end

  wire unused_ok = &{1'b0, hc_same};
endmodule
`default_nettype wire
