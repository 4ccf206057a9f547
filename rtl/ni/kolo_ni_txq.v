`default_nettype none
// kolo_ni_txq - the send side's packet queue: packets built by the send
// engine wait here, in order, until their payload is in and the injector
// takes them.
//
// A packet is a header queue entry (both header flits, payload beats, VC
// class) plus 1..8 payload beats of 32 bytes in a ring buffer (payload flit
// k is bytes 8k..8k+7 of beat k/4). Push (engine): hq_room and ring_free
// must allow it; push_idx is the entry it gets. Payload comes either with
// the push (push_dma = 0: one beat, push_beat, written at once; allowed only
// when push_beat_ok, i.e. no DMA beat is being written this cycle) or from a
// DMA read with id {2'b00, push_idx} (push_dma = 1): the read's beats (back
// to back, dv/did/dlast/derr) land in the entry's ring beats and its last
// beat makes the packet ready. A failed read (derr) makes the packet a
// local error: it is not sent; le_valid/le_tag (valid/ready) reports it to
// the response side instead.
// Out: the head packet, once ready, as a flit stream {head, tail, data}
// with s_cls (s_valid/s_ready), one flit per cycle, no gaps.
module kolo_ni_txq #(
    parameter HQ_AW   = 6,   // header queue entries = 2^HQ_AW (<= 64: DMA id)
    parameter RING_AW = 9    // payload ring beats = 2^RING_AW
) (
    input  wire               clk,
    input  wire               rst,
    output wire               hq_room,
    output wire [RING_AW:0]   ring_free,
    output wire [HQ_AW-1:0]   push_idx,
    output wire               push_beat_ok,
    input  wire               push,
    input  wire [63:0]        push_h0,
    input  wire [63:0]        push_h1,
    input  wire [3:0]         push_nbeats,
    input  wire               push_dma,
    input  wire               push_cls,
    input  wire [255:0]       push_beat,
    input  wire               dv,
    input  wire [255:0]       dd,
    input  wire [HQ_AW-1:0]   did,
    input  wire               dlast,
    input  wire               derr,
    output wire               s_valid,
    output wire [65:0]        s_flit,
    output wire               s_cls,
    input  wire               s_ready,
    output wire               le_valid,
    output wire [7:0]         le_tag,
    input  wire               le_ready,
    output wire [15:0]        dbg
);
  `include "kolo_defs.vh"
  localparam HQ = 1 << HQ_AW;
  localparam RING = 1 << RING_AW;
  localparam EW = 1 + RING_AW + 4 + 128;

  reg [HQ_AW:0] hq_wr, hq_rd;
  reg [HQ_AW:0] hq_rd1;      // hq_rd + 1 (the next head, registered: logic depth)
  reg [RING_AW:0] ring_wr, ring_rd;
  reg [HQ-1:0] rdy, err;    // per entry: payload in; the payload read failed
  assign hq_room = (hq_wr - hq_rd) != HQ[HQ_AW:0];
  assign ring_free = RING[RING_AW:0] - (ring_wr - ring_rd);
  assign push_idx = hq_wr[HQ_AW-1:0];
  assign push_beat_ok = !dv;

  // ---- storage -----------------------------------------------------------------------
  reg [EW-1:0] hq_mem[0:HQ-1];
  reg [RING_AW-1:0] start_mem[0:HQ-1];
  reg [255:0] ring_mem[0:RING-1];
  reg [EW-1:0] hq_q;
  reg [255:0] ring_q;

  wire [EW-1:0] push_entry = {push_cls, ring_wr[RING_AW-1:0], push_nbeats, push_h1, push_h0};
  always @(posedge clk) begin
    if (push) begin
      hq_mem[push_idx] <= push_entry;
      start_mem[push_idx] <= ring_wr[RING_AW-1:0];
    end
  end

  // DMA beats land at the entry's start beat + the beat number
  reg [2:0] dbeat;
  wire [RING_AW-1:0] d_addr = start_mem[did] + {{(RING_AW - 3) {1'b0}}, dbeat};
  wire ring_we = dv || (push && !push_dma);
  wire [RING_AW-1:0] ring_wa = dv ? d_addr : ring_wr[RING_AW-1:0];
  wire [255:0] ring_wd = dv ? dd : push_beat;
  always @(posedge clk) if (ring_we) ring_mem[ring_wa] <= ring_wd;

  // ---- streamer ----------------------------------------------------------------------
  localparam Q_H0 = 2'd0, Q_H1 = 2'd1, Q_PL = 2'd2;
  reg [1:0] qs;
  reg q_ok;             // hq_q holds entry hq_rd
  reg [5:0] cnt;        // payload flits sent
  reg lf;               // cnt == q_len - 1, registered as cnt and the head entry are set
  reg [1:0] fi;         // flit within the beat
  reg [RING_AW-1:0] ra; // ring beat in ring_q
  wire [HQ_AW-1:0] head = hq_rd[HQ_AW-1:0];
  wire nonempty = hq_wr != hq_rd;
  wire [63:0] q_h0 = hq_q[63:0];
  wire [63:0] q_h1 = hq_q[127:64];
  wire [3:0] q_nbeats = hq_q[131:128];
  wire [RING_AW-1:0] q_start = hq_q[132+:RING_AW];
  assign s_cls = hq_q[EW-1];
  wire [5:0] q_len = q_h0[KOLO_H0_LEN_LO+:6];
  wire head_ok = nonempty && rdy[head] && q_ok;
  wire is_err = err[head];
  wire last_flit = lf;

  assign le_valid = qs == Q_H0 && head_ok && is_err;
  assign le_tag = q_h1[KOLO_H1_TAG_LO+:8];
  assign s_valid = (qs == Q_H0) ? (head_ok && !is_err) : 1'b1;
  wire [63:0] pl = ring_q[fi*64+:64];
  assign s_flit = (qs == Q_H0) ? {2'b10, q_h0} :
                  (qs == Q_H1) ? {2'b00, q_h1} : {1'b0, last_flit, pl};
  wire fire = s_valid && s_ready;
  wire pop = (le_valid && le_ready) || (qs == Q_PL && fire && last_flit);
  wire [HQ_AW-1:0] hq_rd_next = pop ? hq_rd1[HQ_AW-1:0] : hq_rd[HQ_AW-1:0];
  // push_idx == hq_rd_next, from compares of registers made before pop is known
  wire wr_at_rd = hq_wr[HQ_AW-1:0] == hq_rd[HQ_AW-1:0];
  wire wr_at_rd1 = hq_wr[HQ_AW-1:0] == hq_rd1[HQ_AW-1:0];
  wire wr_at_next = pop ? wr_at_rd1 : wr_at_rd;
  // ring read address for the next cycle: the start beat as h0 leaves, the
  // next beat as the fourth flit of a beat leaves
  wire [RING_AW-1:0] ra_next = (qs == Q_H0 && fire) ? q_start :
                               (qs == Q_PL && fire && fi == 2'd3) ? ra + {{(RING_AW - 1) {1'b0}}, 1'b1} : ra;

  // The head entry register hq_q reads the queue's next head every cycle. An empty queue
  // (no pop is possible then) loads the entry being pushed instead (whatever is offered: it
  // counts only with a push), so a packet pushed into an empty queue is offered the next
  // cycle; otherwise an entry pushed at the head's index is read one cycle later (q_ok).
  always @(posedge clk) begin
    hq_q <= nonempty ? hq_mem[hq_rd_next] : push_entry;
    ring_q <= ring_mem[ra_next];
    ra <= ra_next;
  end

  always @(posedge clk) begin
    if (rst) begin
      hq_wr <= {(HQ_AW + 1) {1'b0}};
      hq_rd <= {(HQ_AW + 1) {1'b0}};
      hq_rd1 <= {{HQ_AW{1'b0}}, 1'b1};
      lf <= 1'b0;
      ring_wr <= {(RING_AW + 1) {1'b0}};
      ring_rd <= {(RING_AW + 1) {1'b0}};
      qs <= Q_H0;
      q_ok <= 1'b0;
      cnt <= 6'd0;
      fi <= 2'd0;
      dbeat <= 3'd0;
      rdy <= {HQ{1'b0}};
      err <= {HQ{1'b0}};
    end else begin
      q_ok <= !nonempty || !(push && wr_at_next);
      if (push) begin
        hq_wr <= hq_wr + {{HQ_AW{1'b0}}, 1'b1};
        ring_wr <= ring_wr + {{(RING_AW - 3) {1'b0}}, push_nbeats};
        rdy[push_idx] <= !push_dma;
        err[push_idx] <= 1'b0;
      end
      if (dv) dbeat <= dlast ? 3'd0 : dbeat + 3'd1;
      if (dv && dlast) begin
        rdy[did] <= 1'b1;
        err[did] <= derr;
      end
      if (pop) begin
        hq_rd <= hq_rd1;
        hq_rd1 <= hq_rd1 + {{HQ_AW{1'b0}}, 1'b1};
        ring_rd <= ring_rd + {{(RING_AW - 3) {1'b0}}, q_nbeats};
        rdy[head] <= 1'b0;
      end
      case (qs)
        Q_H0: if (fire) qs <= Q_H1;
        Q_H1: if (fire) begin
          qs <= Q_PL;
          cnt <= 6'd0;
          fi <= 2'd0;
          lf <= q_len == 6'd1;
        end
        Q_PL: if (fire) begin
          cnt <= cnt + 6'd1;
          lf <= cnt + 6'd2 == q_len;
          fi <= fi + 2'd1;
          if (last_flit) qs <= Q_H0;
        end
        default: qs <= Q_H0;
      endcase
    end
  end
  assign dbg = {4'd0, q_ok, rdy[head], err[head], nonempty, {(6 - HQ_AW) {1'b0}}, hq_rd[HQ_AW-1:0], qs};
`ifndef SYNTHESIS
`include "kolo_assert.vh"
  // no push into a full queue
  always @(posedge clk) if (!rst) `KOLO_ASSERT(!(push && !hq_room));
  // no pushed payload beat in the cycle of a DMA beat
  always @(posedge clk) if (!rst) `KOLO_ASSERT(!(push && !push_dma && dv));
  // a push brings 1.. beats, and the ring has room for them
  always @(posedge clk)
    if (!rst) `KOLO_ASSERT(!(push && (push_nbeats == 4'd0 || {{(RING_AW - 3) {1'b0}}, push_nbeats} > ring_free)));
`endif
endmodule
`default_nettype wire
