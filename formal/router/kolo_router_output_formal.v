`default_nettype none
// kolo_router_output_formal - proof 2 (issue 19), cell by cell: one
// kolo_router_output (the output unit: output-VC credits, the escape VCs'
// packet slots, the flags fa/fe1/fe2 the VC allocator reads) in a
// nondeterministic environment that keeps the unit's input assumptions.
// Proved unbounded by k-induction (output.sby); the assumptions are
// guarantees of the cells that drive the unit (formal/README.md, proof 2,
// "composition").
//
// Environment, free in every cycle within these assumptions:
//  A1 (switch: packets whole, one at a time) a head (send_head) starts a
//     packet only when none is open, with send_len <= MAX_LEN; every later
//     flit of it keeps the head's send_vc and send_sink; the tail ends it
//     (a head is never a tail: packets have 2 header flits); a packet has at
//     most send_len + 2 flits and its (send_len + 2)-th flit is a tail
//     (shorter is allowed: a packet cut short upstream); send_head and
//     send_tail only with send; nothing during reset; the local port never
//     sinks.
//  A2 (VC allocation, kolo_router_vc_select + switch) a head that leaves
//     (not sunk) on output VC {n, c} had, in the previous cycle (when its
//     request was registered), the flag the allocator reads: fa[n] for
//     class 1; for class 0 of a network port fe2[n] when the packet enters
//     the ring (`enter`, free: injection, a turn, from class 1) and fe1[n]
//     when it continues; fe1[n] for class 0 of the local port.
//  A3 (the downstream) returns a credit on VC v only for a flit it holds:
//     counted from the flits sent (send && !send_sink), one cycle earlier
//     than the port shows them when OUT_REG = 1 (a more permissive
//     downstream than a real one: what holds here holds there).
// The downstream's buffers are modelled here from the sent flits and the
// credits alone: per VC the flits it holds (d_owed), and per escape VC the
// packets it holds (m_n: a packet holds its room from its head until the
// credit of its last flit is back; FIFO order), their sizes (m_sz) and the
// credits back for the oldest (m_acc).
//
// Guarantees (assertions, every cycle after reset):
//  P1 credits never exceed buffer space: per output VC the downstream holds
//     at most its depth (ESC_SLOTS*34 on class 0 and ADAPT_DEPTH on class 1
//     of a network port, EJECT_CREDITS on the local port); the credit
//     counters never leave 0..MAX (credit_error stays 0).
//  P2 the bubble rule, at the unit: a class-0 head leaves on a network port
//     when the downstream escape VC holds at most ESC_SLOTS - 2 packets if
//     it enters the ring, at most ESC_SLOTS - 1 if it continues; the
//     downstream never holds more than ESC_SLOTS packets.
//  P6 the port is the send interface one cycle late (OUT_REG 1) or the
//     same cycle (OUT_REG 0): flit, VC, out_valid for a flit sent, out_sunk
//     for a flit sunk.
//  and the unit's own `ifdef FORMAL assertions and `KOLO_ASSERT guards.
// Strengthening invariants (asserted, so proved too; they make the
// induction step start only from consistent states): per VC the unit's
// credit count + the flits held downstream = the depth; the unit's free
// slots = ESC_SLOTS - m_n; its oldest-packet credit count acc = m_acc, its
// packet sizes size_q = m_sz (for the open packet: its declared size, and
// its flits sent `sent` = m_sz); the flags imply what they promise (fa:
// credits >= 35; fe1: a free slot; fe2: two) and last cycle's flags, with no
// packet open, imply it still (credits >= 34, slots unchanged); an open
// packet's remaining flits fit the credits left. The unit's internals (acc,
// sent, size_q, f_open) reach this harness through `connect -set` after
// `flatten` (output.sby): wires acc, sent, size_q, fopen of g_esc.g_n[n].
// Negative control (task bubble0): the unit with BUBBLE = 0 (fe2 = fe1)
// lets an entering packet leave with one free slot: P2 must fail.
module kolo_router_output_formal #(
    parameter PORT          = 4,   // 0..5 network (Z+ = 4), 6 local
    parameter ESC_SLOTS     = 2,   // 2..3 here
    parameter ADAPT_DEPTH   = 35,
    parameter EJECT_CREDITS = 35,
    parameter BUBBLE        = 1,
    parameter OUT_REG       = 1,
    parameter MAX_LEN       = 32   // longest payload, flits (32: the real maximum)
) (
    input wire       clk,
    // the environment (free inputs, constrained by the assumptions)
    input wire       send,
    input wire [1:0] send_vc,
    input wire       send_head,
    input wire       send_tail,
    input wire       send_sink,
    input wire [5:0] send_len,
    input wire       port_down,
    input wire       enter,          // with a class-0 head: it enters the ring
    input wire       out_credit_valid,
    input wire [1:0] out_credit_vc
);
  `include "kolo_defs.vh"
  localparam LOCAL = (PORT == KOLO_PORT_LOCAL);
  localparam integer ESC_DEPTH = ESC_SLOTS * KOLO_MAX_PKT;
  localparam integer T = KOLO_MAX_PKT + 1;
  localparam integer QN = ESC_SLOTS + 1;  // model queue entries (one more: overflow is visible)

  // reset in the first cycle only
  reg rst = 1'b1;
  always @(posedge clk) rst <= 1'b0;

  wire out_valid, out_sunk;
  wire [67:0] out_flit;
  wire [1:0] fa, fe1, fe2;
  wire pd;
  wire [31:0] stat_out_flits;
  wire sunk_head;
  wire [31:0] mon_credits;
  wire [3:0] credit_error;
  wire [7:0] mon_slots;
  wire [65:0] send_data = {send_head, send_tail, 64'd0};

  kolo_router_output #(
      .PORT(PORT),
      .ESC_SLOTS(ESC_SLOTS),
      .ADAPT_DEPTH(ADAPT_DEPTH),
      .EJECT_CREDITS(EJECT_CREDITS),
      .BUBBLE(BUBBLE),
      .OUT_REG(OUT_REG)
  ) u_out (
      .clk(clk),
      .rst(rst),
      .send(send),
      .send_vc(send_vc),
      .send_head(send_head),
      .send_tail(send_tail),
      .send_sink(send_sink),
      .send_len(send_len),
      .send_data(send_data),
      .port_down(port_down),
      .out_valid(out_valid),
      .out_flit(out_flit),
      .out_sunk(out_sunk),
      .out_credit_valid(out_credit_valid),
      .out_credit_vc(out_credit_vc),
      .fa(fa),
      .fe1(fe1),
      .fe2(fe2),
      .pd(pd),
      .stat_out_flits(stat_out_flits),
      .sunk_head(sunk_head),
      .mon_credits(mon_credits),
      .credit_error(credit_error),
      .mon_slots(mon_slots)
  );

  reg [31:0] d_owed;  // the downstream's flits per VC, 8 bits each (below)

  // ---- the switch's packet framing (A1) ---------------------------------------------
  reg h_open, h_sink, h_enter;
  reg [1:0] h_vc;
  reg [5:0] h_len, h_cnt;  // declared payload; flits sent so far
  wire flit = send && !send_sink;
  always @(posedge clk) begin
    if (rst) h_open <= 1'b0;
    else if (send && send_head) begin
      h_open <= 1'b1;
      h_vc <= send_vc;
      h_sink <= send_sink;
      h_len <= send_len;
      h_cnt <= 6'd1;
      h_enter <= enter;
    end else if (send) begin
      h_cnt <= h_cnt + 6'd1;
      if (send_tail) h_open <= 1'b0;
    end
  end
  // last cycle's flags (0 after reset: no request was made in the reset cycle)
  reg [1:0] p_fa, p_fe1, p_fe2;
  always @(posedge clk) begin
    if (rst) begin
      p_fa <= 2'b00;
      p_fe1 <= 2'b00;
      p_fe2 <= 2'b00;
    end else begin
      p_fa <= fa;
      p_fe1 <= fe1;
      p_fe2 <= fe2;
    end
  end

  wire hn = send_vc[1];
  wire flag_ok = send_vc[0] ? p_fa[hn] : LOCAL ? p_fe1[hn] : enter ? p_fe2[hn] : p_fe1[hn];
  always @(*) begin
    if (rst) assume (!send);
    if (send_head || send_tail) assume (send);
    if (send && send_tail) assume (!send_head);
    if (send && send_head) assume (!h_open && send_len <= MAX_LEN);
    if (send && !send_head) assume (h_open && send_vc == h_vc && send_sink == h_sink && h_cnt < h_len + 6'd2);
    if (send && !send_head && h_cnt + 6'd1 == h_len + 6'd2) assume (send_tail);
    if (LOCAL && send) assume (!send_sink);
    if (send && send_head && !send_sink) assume (flag_ok);                          // A2
    if (out_credit_valid) assume (d_owed[out_credit_vc*8+:8] != 8'd0);              // A3
  end

  // ---- the downstream: flits held per VC, packets per escape VC ----------------------
  genvar v;
  generate
    for (v = 0; v < 4; v = v + 1) begin : g_d
      always @(posedge clk) begin
        if (rst) d_owed[v*8+:8] <= 8'd0;
        else d_owed[v*8+:8] <= d_owed[v*8+:8] + {7'd0, flit && send_vc == v} -
                               {7'd0, out_credit_valid && out_credit_vc == v};
      end
    end
  endgenerate

  function integer maxc(input integer vc);
    maxc = LOCAL ? EJECT_CREDITS : ((vc % 2) == 0) ? ESC_DEPTH : ADAPT_DEPTH;
  endfunction

  /* verilator lint_off WIDTH */
  generate
    for (v = 0; v < 4; v = v + 1) begin : g_p1
      wire [7:0] cnt = mon_credits[v*8+:8];
      wire [7:0] own = d_owed[v*8+:8];
      always @(posedge clk)
        if (!rst) begin
          assert (own <= maxc(v));                       // P1
          assert (!credit_error[v]);                     // P1
          assert (cnt + own == maxc(v));                 // invariant
          if (h_open && !h_sink && h_vc == v) assert (cnt >= h_len + 2 - h_cnt);  // invariant
        end
      // non-vacuity (task cover): a class-1 head leaves with 34 credits, the least
      // its flag allows (credits for 35 last cycle, when the flit before it left)
      if (v == 1) begin : g_cov
        always @(posedge clk) if (!rst) cover (flit && send_head && send_vc == v && cnt == T - 1);
      end
    end
  endgenerate
  always @(posedge clk)
    if (!rst) begin
      assert (!h_open || (h_cnt >= 6'd1 && h_cnt < h_len + 6'd2 && h_len <= MAX_LEN));
      // flags (invariants): what they promise, and last cycle's flags, with no packet open
      if (fa[0]) assert (mon_credits[1*8+:8] >= T);
      if (fa[1]) assert (mon_credits[3*8+:8] >= T);
      if (p_fa[0] && !h_open) assert (mon_credits[1*8+:8] >= T - 1);
      if (p_fa[1] && !h_open) assert (mon_credits[3*8+:8] >= T - 1);
      if (LOCAL) begin
        if (fe1[0] || fe2[0]) assert (mon_credits[0*8+:8] >= T);
        if (fe1[1] || fe2[1]) assert (mon_credits[2*8+:8] >= T);
        if (p_fe1[0] && !h_open) assert (mon_credits[0*8+:8] >= T - 1);
        if (p_fe1[1] && !h_open) assert (mon_credits[2*8+:8] >= T - 1);
        assert (!out_sunk);
      end
    end

  // P6: the port
  generate
    if (OUT_REG != 0) begin : g_p6
      reg q_flit, q_sunk;
      reg [67:0] q_data;
      always @(posedge clk) begin
        q_flit <= !rst && flit;
        q_sunk <= !rst && send && send_sink;
        q_data <= {send_vc, send_data};
      end
      always @(posedge clk)
        if (!rst) begin
          assert (out_valid == q_flit && out_sunk == q_sunk);
          if (out_valid || out_sunk) assert (out_flit == q_data);
        end
    end else begin : g_p6w
      always @(*)
        if (!rst) begin
          assert (out_valid == flit && out_sunk == (send && send_sink));
          assert (out_flit == {send_vc, send_data});
        end
    end
  endgenerate

  // ---- escape VCs (network ports): the downstream's packets ---------------------------
  generate
    if (!LOCAL) begin : g_esc
      for (v = 0; v < 2; v = v + 1) begin : g_n
        localparam [1:0] VC = {v[0], 1'b0};
        reg [2:0] m_n;              // packets held (the newest may be arriving)
        reg m_open;                 // the newest is still arriving
        reg [6*QN-1:0] m_sz;        // sizes, oldest first (the arriving one: flits so far)
        reg [5:0] m_acc;            // credits back for the oldest
        wire in_f = flit && send_vc == VC;
        wire cr = out_credit_valid && out_credit_vc == VC;
        wire old_done = !(m_open && m_n == 3'd1);
        wire rel = cr && m_n != 3'd0 && old_done && m_acc + 6'd1 == m_sz[5:0];
        wire [2:0] n1 = m_n - {2'd0, rel};          // after the release
        integer k, k2, k3;
        always @(posedge clk) begin
          if (rst) begin
            m_n <= 3'd0;
            m_open <= 1'b0;
            m_acc <= 6'd0;
          end else begin
            if (rel) begin
              m_acc <= 6'd0;
              for (k = 0; k + 1 < QN; k = k + 1) m_sz[k*6+:6] <= m_sz[(k+1)*6+:6];
            end else if (cr) m_acc <= m_acc + 6'd1;
            if (in_f && send_head) begin
              m_sz[n1*6+:6] <= 6'd1;
              m_open <= 1'b1;
              m_n <= n1 + 3'd1;
            end else begin
              if (in_f) m_sz[(n1-3'd1)*6+:6] <= m_sz[(m_n-3'd1)*6+:6] + 6'd1;
              if (in_f && send_tail) m_open <= 1'b0;
              m_n <= n1;
            end
          end
        end
        wire [3:0] slots = mon_slots[v*4+:4];
        // sum of the sizes held
        reg [8:0] held;
        always @(*) begin
          held = 9'd0;
          for (k2 = 0; k2 < QN; k2 = k2 + 1) if (k2 < m_n) held = held + {3'd0, m_sz[k2*6+:6]};
        end
        // the unit's internals, tied by output.sby (connect -set after flatten) to
        // u_out.g_slots.g_esc[v].{acc, sent, size_q, f_open}
        reg rel_seen;  // (cover only) a packet's room was freed before
        always @(posedge clk) rel_seen <= !rst && (rel_seen || rel);
        wire [5:0] acc, sent;
        wire [6*ESC_SLOTS-1:0] size_q;
        wire fopen;
        wire open_here = h_open && !h_sink && h_vc == VC;
        always @(posedge clk)
          if (!rst) begin
            // P2: the bubble rule (a head leaving now; m_n counts the packets before it)
            if (in_f && send_head) assert (m_n + (enter ? 2 : 1) <= ESC_SLOTS);  // P2 bubble
            assert (m_n <= ESC_SLOTS);
            // invariants: the unit's slots, sizes and credits = the model's
            assert (slots + m_n == ESC_SLOTS);
            assert (m_open == open_here && fopen == m_open);
            assert (acc == m_acc);
            assert (held - m_acc == d_owed[VC*8+:8]);
            if (m_n != 3'd0) assert (old_done ? m_acc < m_sz[5:0] : m_acc <= m_sz[5:0]);
            if (m_open) assert (m_n != 3'd0 && sent == h_cnt);
            for (k3 = 0; k3 < ESC_SLOTS; k3 = k3 + 1)
              if (k3 < m_n) begin
                if (m_open && k3 == m_n - 1) begin
                  assert (m_sz[k3*6+:6] == h_cnt && size_q[k3*6+:6] == h_len + 6'd2);
                end else begin
                  assert (m_sz[k3*6+:6] == size_q[k3*6+:6] && m_sz[k3*6+:6] >= 6'd2 &&
                          m_sz[k3*6+:6] <= MAX_LEN + 2);
                end
              end
            if (fe1[v]) assert (slots >= 1);
            if (fe2[v]) assert (slots >= ((BUBBLE != 0) ? 2 : 1));
            if (p_fe1[v] && !h_open) assert (slots >= 1);
            if (p_fe2[v] && !h_open) assert (slots >= ((BUBBLE != 0) ? 2 : 1));
          end
        // non-vacuity (task cover): the bounds of P2 are reached
        if (v == 0) begin : g_cov
          always @(posedge clk)
            if (!rst) begin
              cover (in_f && send_head && !enter && m_n == ESC_SLOTS - 1);
              cover (in_f && send_head && enter && m_n == ESC_SLOTS - 2 && rel_seen);
              cover (rel && m_n == ESC_SLOTS);
            end
        end
      end
    end
  endgenerate
  /* verilator lint_on WIDTH */

  wire unused_ok = &{1'b0, stat_out_flits, sunk_head, pd, h_enter};
endmodule
`default_nettype wire
