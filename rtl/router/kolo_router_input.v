`default_nettype none
// kolo_router_input - one input port of the kolo router: 4 VC buffers.
//
// Write side (one flit per cycle from the link, credit flow control, so never
// refused): the head flit is routed and checked at once (lookahead route
// compute) and the result is stored beside it. The port enforces framing per
// VC from the header's length: a packet that is bad in its header is written
// as junk and never routed; a packet longer than its header says gets its tail
// forced at the declared length and the rest is junk; a shorter one is counted.
// With WHOLE_PKT (the local port), a packet may leave only after its tail is
// in, and one whose length disagrees with its tail is dropped whole.
// Read side: per VC, a head waiting for an output VC (va_eligible) or a flit
// of an allocated packet (sa_eligible); the router pops at most one flit per
// cycle (sa_grant), otherwise the port discards one junk flit by itself.
// Every pop returns one credit upstream (credit_valid/credit_vc, registered).
module kolo_router_input #(
    parameter VC_DEPTH  = 80,
    parameter WHOLE_PKT = 0
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [11:0]   cfg_node_id,
    input  wire [11:0]   cfg_dim_m1,
    input  wire [5:0]    cfg_port_en,
    // from the link
    input  wire          in_valid,
    input  wire [67:0]   in_flit,
    output reg           credit_valid,
    output reg  [1:0]    credit_vc,
    // per VC: front of the buffer
    output wire [4*68-1:0] front_flit,
    output wire [4*3-1:0]  front_det_port,
    output wire [4*6-1:0]  front_adaptive_mask,
    output wire [3:0]      va_eligible,
    output wire [3:0]      sa_eligible,
    // per VC: output VC held by the packet at the front
    output reg  [3:0]      alloc_valid,
    output reg  [4*3-1:0]  alloc_port,
    output reg  [4*2-1:0]  alloc_vc,
    input  wire [3:0]      va_grant,
    input  wire [4*3-1:0]  va_grant_port,
    input  wire [4*2-1:0]  va_grant_vc,
    input  wire [3:0]      sa_grant,      // one-hot0: forward this VC's front flit now
    // one pulse per bad packet: {route, vc, len, dst}
    output wire [3:0]      err_pulse,
    output wire [4*8-1:0]  dbg_occ
);
  `include "kolo_defs.vh"

  localparam ENTRY_W = 68 + 1 + 3 + 6;  // flit, junk, det port, adaptive mask
  localparam CNT_W = $clog2(VC_DEPTH + 1);
  localparam VERDICT_DEPTH = VC_DEPTH / 2 + 1;

  // ---- route compute on the arriving flit (meaningful for heads only) -------
  wire [2:0] rc_det;
  wire [5:0] rc_mask;
  wire rc_err_dst, rc_err_len, rc_err_vc, rc_err_route;
  kolo_route_compute u_rc (
      .cfg_node_id(cfg_node_id),
      .cfg_dim_m1(cfg_dim_m1),
      .cfg_port_en(cfg_port_en),
      .flit(in_flit),
      .det_port(rc_det),
      .adaptive_mask(rc_mask),
      .err_dst(rc_err_dst),
      .err_len(rc_err_len),
      .err_vc(rc_err_vc),
      .err_route(rc_err_route)
  );
  // one reason per bad header, in this priority
  wire hdr_vc = rc_err_vc;
  wire hdr_len = !hdr_vc && rc_err_len;
  wire hdr_dst = !hdr_vc && !hdr_len && rc_err_dst;
  wire hdr_route = !hdr_vc && !hdr_len && !hdr_dst && rc_err_route;
  wire hdr_bad = rc_err_vc | rc_err_len | rc_err_dst | rc_err_route;

  wire in_head = in_flit[KOLO_FLIT_HEAD];
  wire in_tail = in_flit[KOLO_FLIT_TAIL];
  wire [1:0] in_vc = in_flit[KOLO_FLIT_VC_LO+:2];

  wire [3:0] pop;
  wire [3:0] len_err_vc;
  wire [3:0] hdr_err_vc;
  wire [3:0] discard_cand;

  genvar v;
  generate
    for (v = 0; v < 4; v = v + 1) begin : g_vc
      // ---- write side framing -----------------------------------------------
      reg in_pkt;         // inside a packet whose declared length is not reached
      reg [5:0] left;     // flits still expected after the last one written
      reg skip;           // junk until the next tail (after an over-long packet)
      reg bad;            // a head bit appeared inside this packet
      wire wr = in_valid && (in_vc == v[1:0]);
      wire starts = in_head && !in_pkt;
      wire last_expected = (left == 6'd1);
      wire body = in_pkt;
      wire short_pkt = body && in_tail && !last_expected;
      wire over_long = body && !in_tail && last_expected;
      wire ends = body && (in_tail || last_expected);
      wire stray = !starts && !in_pkt && !skip;

      wire wr_junk = starts ? hdr_bad : !body;
      wire wr_tail = in_tail || over_long;
      wire wr_head = starts;
      wire [67:0] wr_flit = {in_flit[67:66], wr_head, wr_tail, in_flit[63:0]};
      wire [ENTRY_W-1:0] wr_entry = {rc_mask, rc_det, wr_junk, wr_flit};

      always @(posedge clk) begin
        if (rst) begin
          in_pkt <= 1'b0;
          left <= 6'd0;
          skip <= 1'b0;
          bad <= 1'b0;
        end else if (wr) begin
          if (starts) begin
            bad <= 1'b0;
            in_pkt <= !hdr_bad;
            left <= in_flit[KOLO_H0_LEN_LO+:6] + 6'd1;
            skip <= hdr_bad && !in_tail;
          end else if (body) begin
            left <= left - 6'd1;
            if (in_head) bad <= 1'b1;
            if (ends) in_pkt <= 1'b0;
            if (over_long) skip <= 1'b1;
          end else begin
            skip <= !in_tail;
          end
        end
      end
      wire pkt_bad_end = wr && ends && (short_pkt || over_long || bad || in_head);
      assign len_err_vc[v] = pkt_bad_end || (wr && stray);
      assign hdr_err_vc[v] = wr && starts && hdr_bad;

      // ---- buffer ------------------------------------------------------------
      wire fifo_in_ready;
      wire fifo_out_valid;
      wire [ENTRY_W-1:0] fifo_out;
      wire [CNT_W-1:0] fifo_count;
      kolo_fifo_sync #(
          .WIDTH(ENTRY_W),
          .DEPTH(VC_DEPTH)
      ) u_fifo (
          .clk(clk),
          .rst(rst),
          .in_valid(wr),
          .in_ready(fifo_in_ready),
          .in_data(wr_entry),
          .out_valid(fifo_out_valid),
          .out_ready(pop[v]),
          .out_data(fifo_out),
          .count(fifo_count)
      );
      if (CNT_W >= 8) begin : g_occ_wide
        assign dbg_occ[v*8+:8] = (fifo_count > 255) ? 8'hff : fifo_count[7:0];
      end else begin : g_occ_narrow
        assign dbg_occ[v*8+:8] = {{(8 - CNT_W) {1'b0}}, fifo_count};
      end

      // ---- verdicts of whole packets (local port) ----------------------------
      wire verdict_valid;
      wire verdict_ok;
      reg drain;  // discarding a packet whose verdict was bad
      wire f_junk = fifo_out[68];
      wire f_head = fifo_out[KOLO_FLIT_HEAD];
      wire f_tail = fifo_out[KOLO_FLIT_TAIL];
      wire clean = fifo_out_valid && !f_junk && !drain;
      wire head_waiting = clean && f_head && !alloc_valid[v];
      wire head_rejected = head_waiting && verdict_valid && !verdict_ok;
      if (WHOLE_PKT != 0) begin : g_whole
        wire verdict_pop = va_grant[v] || (pop[v] && head_rejected);
        // at most VC_DEPTH/2 whole packets fit in the buffer, so this never fills
        /* verilator lint_off UNUSEDSIGNAL */
        wire verdict_in_ready;
        /* verilator lint_on UNUSEDSIGNAL */
        kolo_fifo_sync #(
            .WIDTH(1),
            .DEPTH(VERDICT_DEPTH)
        ) u_verdict (
            .clk(clk),
            .rst(rst),
            .in_valid(wr && ends),
            .in_ready(verdict_in_ready),
            .in_data(!(short_pkt || over_long || bad || in_head)),
            .out_valid(verdict_valid),
            .out_ready(verdict_pop),
            .out_data(verdict_ok),
            /* verilator lint_off PINCONNECTEMPTY */  // verdicts are only popped in order
            .count()
            /* verilator lint_on PINCONNECTEMPTY */
        );
      end else begin : g_cut_through
        assign verdict_valid = 1'b1;
        assign verdict_ok = 1'b1;
      end

      // ---- read side ---------------------------------------------------------
      assign va_eligible[v] = head_waiting && verdict_valid && verdict_ok;
      assign sa_eligible[v] = clean && alloc_valid[v];
      // junk, a draining packet, a rejected head, or a body flit with no owner
      assign discard_cand[v] = fifo_out_valid && (f_junk || drain || head_rejected ||
                                                  (!f_head && !alloc_valid[v]));

      always @(posedge clk) begin
        if (rst) begin
          drain <= 1'b0;
          alloc_valid[v] <= 1'b0;
        end else begin
          if (pop[v] && head_rejected && !f_tail) drain <= 1'b1;
          else if (pop[v] && drain && f_tail) drain <= 1'b0;
          if (va_grant[v]) alloc_valid[v] <= 1'b1;
          else if (sa_grant[v] && f_tail) alloc_valid[v] <= 1'b0;
        end
        if (va_grant[v]) begin
          alloc_port[v*3+:3] <= va_grant_port[v*3+:3];
          alloc_vc[v*2+:2] <= va_grant_vc[v*2+:2];
        end
      end

      assign front_flit[v*68+:68] = fifo_out[67:0];
      assign front_det_port[v*3+:3] = fifo_out[71:69];
      assign front_adaptive_mask[v*6+:6] = fifo_out[77:72];

`ifndef SYNTHESIS
`include "kolo_assert.vh"
      // the upstream sender holds credits, so a write always finds room (a
      // full buffer means a credit bug upstream)
      always @(posedge clk) if (!rst) `KOLO_ASSERT(!(wr && !fifo_in_ready));
`endif
    end
  endgenerate

  // discard one junk flit when the router forwards nothing from this port
  wire [3:0] discard_sel = discard_cand & ~(discard_cand - 4'd1);
  assign pop = (sa_grant != 4'd0) ? sa_grant : discard_sel;

  always @(posedge clk) begin
    if (rst) credit_valid <= 1'b0;
    else credit_valid <= (pop != 4'd0);
    credit_vc <= pop[1] ? 2'd1 : pop[2] ? 2'd2 : pop[3] ? 2'd3 : 2'd0;
  end

  // {route, vc, len, dst}; a flit belongs to one VC, so at most one VC pulses
  assign err_pulse = {|(hdr_err_vc) & hdr_route, |(hdr_err_vc) & hdr_vc,
                      (|(hdr_err_vc) & hdr_len) | (|len_err_vc), |(hdr_err_vc) & hdr_dst};

`ifdef FORMAL
  always @(posedge clk) if (!rst) assert ((sa_grant & (sa_grant - 4'd1)) == 4'd0);
  always @(posedge clk) if (!rst) assert ((sa_grant & ~sa_eligible) == 4'd0);
`endif
endmodule
`default_nettype wire
