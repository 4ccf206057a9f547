`default_nettype none
// kolo_router_output - output unit of one router port: output-VC state,
// the flags the VC allocator reads, the output register and counters.
//
// Per output VC a credit counter (kolo_credit_counter) starting at the
// neighbour's buffer depth: EJECT_CREDITS on the local port, ESC_DEPTH on
// class 0 and ADAPT_DEPTH on class 1 of a network port. It loses one credit
// per flit sent on the VC (send && !send_sink) and gains one per credit
// returned (out_credit_*). A counter leaving 0..MAX is a protocol error
// (an assertion in simulation, sticky credit_error).
// Class-0 VCs of network ports (the escape VCs) are also counted in packet
// slots: ESC_SLOTS per VC, the neighbour's ESC_DEPTH = ESC_SLOTS * 34 flits
// (so flits never run out before slots). A head sent takes a slot and pushes
// its size; credits coming back are counted against the oldest packet (the
// neighbour's buffer is a FIFO), whose slot is free when all of its flits
// are. This is the bubble rule in packets: see docs/router.md "Deadlock".
// Flags for the next cycle (registered; kolo_router_vc_select):
//   fa[n]   VC {n,1} has credits for a maximum packet (34) plus the one
//           flit the port may send now; the port is up
//   fe1[n]  network: VC {n,0} has a free slot; local: credits as fa for {n,0}
//   fe2[n]  network: two free slots (fe1 when BUBBLE is 0); local: = fe1
//   pd      port_down, registered (0 on the local port)
// The flit: {output VC, head, tail, data}; out_valid for a flit sent,
// out_sunk for a flit of a packet dropped here (port down). OUT_REG = 1
// registers the three (one more cycle per hop); 0 passes them through from
// the crossbar (about 5 LUT levels after the router's registers), for a
// consumer that registers them first (kolo_link_ideal).
module kolo_router_output #(
    parameter PORT          = 0,
    parameter ESC_SLOTS     = 3,
    parameter ADAPT_DEPTH   = 128,
    parameter EJECT_CREDITS = 64,
    parameter BUBBLE        = 1,
    parameter OUT_REG       = 1
) (
    input  wire        clk,
    input  wire        rst,
    // from the switch allocator and crossbar
    input  wire        send,
    input  wire [1:0]  send_vc,
    input  wire        send_head,
    input  wire        send_tail,
    input  wire        send_sink,
    input  wire [5:0]  send_len,
    input  wire [65:0] send_data,     // {head, tail, data}
    input  wire        port_down,
    // the port
    output wire        out_valid,
    output wire [67:0] out_flit,
    output wire        out_sunk,
    input  wire        out_credit_valid,
    input  wire [1:0]  out_credit_vc,
    // flags for the VC allocator
    output reg  [1:0]  fa,
    output reg  [1:0]  fe1,
    output reg  [1:0]  fe2,
    output reg         pd,
    // status
    output wire [31:0] stat_out_flits,
    output wire        sunk_head,       // a dropped packet's head passes now
    output wire [4*8-1:0] mon_credits,  // credits per output VC
    output wire [3:0]  credit_error,
    output wire [2*4-1:0] mon_slots     // free slots of VC 0 and 2 (network ports)
);
  `include "kolo_defs.vh"

  localparam LOCAL = (PORT == KOLO_PORT_LOCAL);
  localparam integer ESC_DEPTH = ESC_SLOTS * KOLO_MAX_PKT;
  localparam integer T = KOLO_MAX_PKT + 1;  // credits asked of an output VC

  wire [3:0] dec, inc;
  wire [3:0] ge_next;  // credits >= T in the next cycle
  genvar v;
  generate
    for (v = 0; v < 4; v = v + 1) begin : g_vc
      localparam integer MAXC = LOCAL ? EJECT_CREDITS : ((v % 2) == 0) ? ESC_DEPTH : ADAPT_DEPTH;
      localparam integer CW = $clog2(MAXC + 1);
      wire [CW-1:0] count;
      wire err;
      assign dec[v] = send && !send_sink && send_vc == v[1:0];
      assign inc[v] = out_credit_valid && out_credit_vc == v[1:0];
      kolo_credit_counter #(
          .MAX(MAXC),
          .INIT(MAXC)
      ) u_credits (
          .clk(clk),
          .rst(rst),
          .inc(inc[v]),
          .dec(dec[v]),
          .count(count),
          /* verilator lint_off PINCONNECTEMPTY */  // the flags below look further
          .available(),
          /* verilator lint_on PINCONNECTEMPTY */
          .error(err)
      );
      // count after this cycle >= T, from comparisons of the count now
      localparam [31:0] T32 = T, T32P = T + 1, T32M = T - 1;
      localparam [CW-1:0] T0 = T32[CW-1:0], T1 = T32P[CW-1:0], TM = T32M[CW-1:0];
      wire ge_t = count >= T0;
      wire ge_tp = count >= T1;
      wire ge_tm = count >= TM;
      assign ge_next[v] = (inc[v] && !dec[v]) ? ge_tm : (dec[v] && !inc[v]) ? ge_tp : ge_t;
      assign mon_credits[v*8+:8] = {{(8 - CW) {1'b0}}, count};
      assign credit_error[v] = err;
`ifndef SYNTHESIS
`include "kolo_assert.vh"
      // a credit returned beyond the neighbour's buffer, or a flit sent
      // without one (the counter's error is sticky)
      always @(posedge clk) if (!rst) `KOLO_ASSERT(!err);
`endif
    end
  endgenerate

  // ---- escape VCs in packet slots (network ports) ---------------------------------
  localparam SW = $clog2(ESC_SLOTS + 1);
  wire [1:0] slot1_next, slot2_next;
  generate
    if (!LOCAL) begin : g_slots
      for (v = 0; v < 2; v = v + 1) begin : g_esc
        localparam [1:0] VC = {v[0], 1'b0};
        reg [SW-1:0] slots;          // free slots
        reg [6*ESC_SLOTS-1:0] size_q;  // sizes of the packets owning slots, oldest first
        reg [5:0] acc;               // credits back for the oldest packet
        reg [5:0] sent;              // flits of the newest packet sent before this cycle
        wire mine = send && !send_sink && send_vc == VC;
        wire take = mine && send_head;
        // A packet's size is taken from its header when its head leaves and
        // corrected to the flits that really left when its tail does: a
        // packet cut short upstream (tail before its declared length) is
        // forwarded as it is, and its slot is free when its last real flit
        // is back.
        wire tail = mine && send_tail;
        wire cr = out_credit_valid && out_credit_vc == VC;
        wire [SW-1:0] owned = ESC_SLOTS[SW-1:0] - slots;
        localparam [SW-1:0] S1 = 1;
        // the oldest packet's size; when it is also the newest and its tail
        // leaves now, the corrected one (a credit may come back in the cycle
        // its flit leaves)
        // (timing: send, its tail and head come late in the cycle, through the
        // switch allocator; everything compared below is computed from
        // registers first, and the late signals only select among the results)
        wire [5:0] tail_size = sent + 6'd1;
        wire own1 = owned == S1;
        // acc + 1 == size0, for size0 = tail_size (acc == sent) or size_q[5:0]
        wire rel_tail = acc == sent;
        wire rel_q = acc + 6'd1 == size_q[5:0];
        wire release_now = cr && owned != {SW{1'b0}} && ((tail && own1) ? rel_tail : rel_q);
        wire [SW-1:0] slots_n = slots - (take ? S1 : {SW{1'b0}}) + (release_now ? S1 : {SW{1'b0}});
        // where a new packet's size goes: behind the others, after the shift
        // (wpos = release_now ? owned - 1 : owned); where the newest packet's
        // size is corrected (its tail leaves now; no head leaves in the same
        // cycle, and a release shifts it down: tpos = owned - 1 - release_now)
        wire [SW-1:0] own_m1 = owned - S1;
        wire [SW-1:0] own_m2 = owned - S1 - S1;
        always @(posedge clk) begin
          if (rst) begin
            slots <= ESC_SLOTS[SW-1:0];
            acc <= 6'd0;
            sent <= 6'd0;
          end else begin
            slots <= slots_n;
            if (release_now) acc <= 6'd0;
            else if (cr) acc <= acc + 6'd1;
            if (take) sent <= 6'd1;
            else if (mine) sent <= sent + 6'd1;
          end
        end
        genvar k;
        for (k = 0; k < ESC_SLOTS; k = k + 1) begin : g_q
          localparam [SW-1:0] KK = k;
          wire wpos_k = release_now ? own_m1 == KK : owned == KK;
          wire tpos_k = release_now ? own_m2 == KK : own_m1 == KK;
          always @(posedge clk) begin
            if (take && wpos_k) size_q[k*6+:6] <= send_len + 6'd2;
            else if (tail && !(release_now && own1) && tpos_k) size_q[k*6+:6] <= tail_size;
            else if (release_now && k + 1 < ESC_SLOTS) size_q[k*6+:6] <= size_q[((k+1<ESC_SLOTS)?k+1:k)*6+:6];
          end
        end
        assign slot1_next[v] = slots_n != {SW{1'b0}};
        assign slot2_next[v] = slots_n > 1;
        assign mon_slots[v*4+:4] = {{(4 - SW) {1'b0}}, slots};
`ifndef SYNTHESIS
`include "kolo_assert.vh"
        // a credit with no packet holding a slot (beyond the flits sent)
        always @(posedge clk) if (!rst) `KOLO_ASSERT(!(cr && owned == {SW{1'b0}} && !take));
`endif
`ifdef FORMAL
        /* verilator lint_off WIDTH */  // formal-only arithmetic
        // the slots and the flit credits agree: the flits still owed are the
        // owning packets' sizes less the credits already back for the oldest,
        // less the flits of the newest packet not sent yet while it is open
        reg f_open;
        always @(posedge clk) begin
          if (rst) f_open <= 1'b0;
          else if (take) f_open <= 1'b1;
          else if (tail) f_open <= 1'b0;
        end
        reg [8:0] f_owed;
        integer k2;
        always @(*) begin
          f_owed = 9'd0;
          for (k2 = 0; k2 < ESC_SLOTS; k2 = k2 + 1) if (k2 < owned) f_owed = f_owed + {3'd0, size_q[k2*6+:6]};
          if (f_open) f_owed = f_owed - {3'd0, size_q[(owned - S1)*6+:6]} + {3'd0, sent};
        end
        always @(posedge clk)
          if (!rst) begin
            assert (slots <= ESC_SLOTS);
            assert (f_owed - acc == ESC_DEPTH - mon_credits[VC*8+:8]);
            if (owned != 0) assert (acc < size_q[5:0]);
            if (f_open) assert (owned != 0 && sent < size_q[(owned-1)*6+:6]);
          end
        // no packet takes a slot that is not free
        always @(posedge clk) if (!rst && take) assert (slots != 0);
        /* verilator lint_on WIDTH */
`endif
      end
    end else begin : g_no_slots
      assign slot1_next = 2'b00;
      assign slot2_next = 2'b00;
      assign mon_slots = 8'd0;
    end
  endgenerate

  // ---- flags for the next cycle ------------------------------------------------------
  wire up = LOCAL ? 1'b1 : !port_down;
  always @(posedge clk) begin
    if (rst) begin
      fa <= 2'b00;
      fe1 <= 2'b00;
      fe2 <= 2'b00;
      pd <= 1'b0;
    end else begin
      fa <= {ge_next[3], ge_next[1]} & {2{up}};
      if (LOCAL) begin
        fe1 <= {ge_next[2], ge_next[0]};
        fe2 <= {ge_next[2], ge_next[0]};
      end else begin
        fe1 <= slot1_next & {2{up}};
        fe2 <= ((BUBBLE != 0) ? slot2_next : slot1_next) & {2{up}};
      end
      pd <= !up;
    end
  end

  // ---- the port ------------------------------------------------------------------------
  wire v_now = send && !send_sink;
  wire s_now = send && send_sink;
  wire [67:0] f_now = {send_vc, send_data};
  generate
    if (OUT_REG != 0) begin : g_reg
      reg r_valid, r_sunk;
      reg [67:0] r_flit;
      always @(posedge clk) begin
        if (rst) begin
          r_valid <= 1'b0;
          r_sunk <= 1'b0;
        end else begin
          r_valid <= v_now;
          r_sunk <= s_now;
        end
        r_flit <= f_now;
      end
      assign out_valid = r_valid;
      assign out_sunk = r_sunk;
      assign out_flit = r_flit;
    end else begin : g_wire
      assign out_valid = v_now;
      assign out_sunk = s_now;
      assign out_flit = f_now;
    end
  endgenerate

  reg [31:0] flit_count;
  always @(posedge clk) begin
    if (rst) flit_count <= 32'd0;
    else if (v_now) flit_count <= flit_count + 32'd1;
  end
  assign stat_out_flits = flit_count;
  assign sunk_head = s_now && send_head;

  wire unused_ok = &{1'b0, send_tail, send_len};

`ifdef FORMAL
  // the local port never sinks; a sinking packet takes no credit
  always @(posedge clk) if (!rst && LOCAL) assert (!s_now);
  always @(posedge clk) if (!rst) assert ((dec & ~{4{v_now}}) == 4'd0);
`endif
endmodule
`default_nettype wire
