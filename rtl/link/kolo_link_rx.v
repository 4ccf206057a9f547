`default_nettype none
// kolo_link_rx - receive half of the reliable link (core clock).
//
// Block side: one block per cycle on blk_valid/blk (no ready). A frame is
// one data block per flit, then an EOF carrying the sequence number, VC,
// length and CRC-32C. Data blocks are written into a receive buffer as they
// come; the frame is checked when its EOF arrives: a good CRC-32C and length
// with the expected sequence number commit it, and it is handed to the router
// whole, one flit per cycle, starting the cycle after the EOF
// (out_valid/out_flit, no ready: the sending router only sent it against a
// credit). Anything else discards the frame and may schedule a NAK (see
// "NAKs" below). An ABORT ends a partial frame silently (the sender cut a
// packet through and the router paused: the packet comes again whole).
// A good frame that was accepted before (a replay) is dropped and acked again.
// Control blocks with a good CRC-8 are passed on: INIT to kolo_link_core,
// CTRL (ack, nak, credits) to kolo_link_tx.
// The CTRL block this end owes its neighbour (cumulative ack, nak, cumulative
// credits the router returned on credit_valid/credit_vc) is offered on
// ctrl_dirty/ctrl_payload; ctrl_sent says it was taken.
module kolo_link_rx #(
    parameter SEQ_W   = 12,
    parameter RXB_W   = 7,     // log2 of the receive buffer in flits (>= 2 maximum packets)
    parameter MAX_PKT = 34     // longest frame in data blocks (smaller only for formal)
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        blk_valid,
    input  wire [65:0] blk,
    // to the router input port, and its credits
    output reg         out_valid,
    output reg  [67:0] out_flit,
    input  wire        credit_valid,
    input  wire [1:0]  credit_vc,
    // link state from kolo_link_core
    input  wire        up,
    input  wire        drop_frame, // retrain or flush: drop the frame being received
    input  wire        fresh_up,   // came up after a flush: sequence and credits restart
    // INIT received (CRC-8 good)
    output reg         init_valid,
    output reg  [63:0] init_payload,
    // CTRL received (CRC-8 good), to kolo_link_tx
    output reg              ctrl_valid,
    output reg  [SEQ_W-1:0] ctrl_ack,
    output reg              ctrl_nak,
    output reg  [31:0]      ctrl_credits,
    output reg              peer_active,   // a good CTRL or an EOF arrived
    // CTRL to send
    output reg              ctrl_dirty,
    output wire [63:0]      ctrl_payload,
    input  wire             ctrl_sent,
    output wire             owed_zero,     // every flit delivered has been credited back
    // event pulses for the counters
    output reg         ev_crc_err,
    output reg         ev_seq_err,
    output reg         ev_nak_sent,
    output reg         ev_frame_rx,
    output reg  [5:0]  ev_flits_rx,
    output reg         ev_ctrl_err
);
  `include "kolo_link_defs.vh"

  localparam integer RXB = 1 << RXB_W;
  localparam [SEQ_W-1:0] SEQ_ONE = 1;
  localparam [SEQ_W-1:0] SEQ_HALF = 1 << (SEQ_W - 1);
  localparam [5:0] MAX_LEN = MAX_PKT[5:0];

  // ---- RX_DECODE: the block from the PHY, registered with its kind -------------
  // (the PHY hands blocks straight from its clock-crossing FIFO: this is the
  // first register on the core side). For an EOF, the part of the frame
  // check that depends on the EOF alone is made here: the CRC-32C is linear,
  // so the frame's CRC, step(c, w) over the last data state c and the EOF
  // word w with its crc field zeroed, is step(c, 0) ^ step(0, w); the frame
  // is good when step(c, 0) (crc_zero, RX_CRC) equals
  // eof_key = step(0, w) ^ ~crc field.
  wire [1:0]  in_sync = blk[65:64];
  wire [7:0]  in_type = blk[7:0];
  wire [7:0]  crc8_calc;
  kolo_crc8_56 u_crc8_rx (.data(blk[55:0]), .crc(crc8_calc));
  wire        crc8_ok = crc8_calc == blk[63:56];
  wire        in_ctl = blk_valid && in_sync == KOLO_SYNC_CTRL;
  wire        in_eof = in_ctl && in_type == KOLO_BLK_EOF;
  wire        in_abort = in_ctl && in_type == KOLO_BLK_ABORT && crc8_ok;
  wire        in_init = in_ctl && in_type == KOLO_BLK_INIT && crc8_ok;
  wire        in_ctrl = in_ctl && in_type == KOLO_BLK_CTRL && crc8_ok;
  wire        in_fill = in_ctl && (in_type == KOLO_BLK_IDLE || in_type == KOLO_BLK_CC) && crc8_ok;
  wire [31:0] hdr_step;
  kolo_crc32c_64 u_crc_hdr (.crc_in(32'd0), .data({32'd0, blk[31:0]}), .crc_out(hdr_step));
  reg  [63:0] pl;
  reg  [31:0] eof_key;
  reg         is_data, is_bad_sync, is_eof, is_abort, is_init, is_ctrl, is_bad_ctl;
  always @(posedge clk) begin
    if (rst) begin
      is_data <= 1'b0;
      is_bad_sync <= 1'b0;
      is_eof <= 1'b0;
      is_abort <= 1'b0;
      is_init <= 1'b0;
      is_ctrl <= 1'b0;
      is_bad_ctl <= 1'b0;
    end else begin
      is_data <= blk_valid && in_sync == KOLO_SYNC_DATA;
      is_bad_sync <= blk_valid && (in_sync == 2'b00 || in_sync == 2'b11);
      is_eof <= in_eof;
      is_abort <= in_abort;
      is_init <= in_init;
      is_ctrl <= in_ctrl;
      is_bad_ctl <= in_ctl && !in_eof && !in_abort && !in_init && !in_ctrl && !in_fill;
    end
    pl <= blk[63:0];
    eof_key <= hdr_step ^ ~blk[63:32];
  end
  wire [SEQ_W-1:0] eof_seq = pl[SEQ_W+7:8];
  wire [1:0]       eof_vc = pl[21:20];
  wire [5:0]       eof_len = pl[27:22];

  // ---- frame reception -------------------------------------------------------------
  reg [63:0] rxbuf[0:RXB-1];
  reg [RXB_W:0] wr_ptr, commit_ptr, rd_ptr;
  reg         f_active;     // a frame is open: data blocks (or a frame error) since the last EOF/ABORT
  reg         f_bad;        // ... and is discarded: its data blocks are ignored until its EOF
  reg         f_nak;        // ... and a NAK was scheduled for it
  reg [5:0]   f_cnt;        // its data blocks taken
  reg [31:0]  crc_run;      // CRC-32C register over its data blocks
  reg [31:0]  crc_zero;     // step(crc_run, 0): RX_CRC's part of the EOF check
  reg [SEQ_W-1:0] expected;
  reg         nak_block;    // a NAK was scheduled since the last accepted frame
  reg         nak_pending;

  // Pipeline (docs/link.md "Pipeline"), one block per cycle:
  //   stage RX_CRC (the cycle a data block is in pl): the block is written
  //     into the buffer; the running CRC-32C (crc_run) and, in parallel,
  //     step(step(crc_run, block), 0) (crc_zero: as if the EOF came next,
  //     with a zero word) in one flat kolo_crc32c_64x2;
  //   stage RX_CHECK (the cycle the EOF is in pl): crc_zero == eof_key,
  //     the length and the sequence number decide: accept (commit the
  //     frame and hand it to delivery at once when nothing is queued), a
  //     duplicate (re-ack) or an error (NAK); a rejected frame's blocks are
  //     dropped (wr_ptr back to commit_ptr).
  //   stage RX_DELIVER: one flit per cycle from the buffer to the router.
  // NAKs: one per error episode, an episode ending when a frame is
  // accepted; but an EOF with the expected sequence number ending a bad
  // frame (the replay the last NAK asked for, hit again) schedules one at
  // once unless one was scheduled within that same frame. Errors: a bad
  // EOF (CRC, length, or a sequence gap), and within a frame a control
  // block with a bad CRC-8 or unknown type, an invalid sync header (a lost
  // EOF looks like this), a frame longer than MAX_PKT, a full buffer.
  wire [31:0] crc_blk;
  kolo_crc32c_64 u_crc_blk (.crc_in(crc_run), .data(pl), .crc_out(crc_blk));
  wire [31:0] crc_blk_zero;
  kolo_crc32c_64x2 u_crc_zero (.crc_in(crc_run), .data0(pl), .data1(64'd0), .crc_out(crc_blk_zero));
  wire        rx_full = (wr_ptr - rd_ptr) == RXB[RXB_W:0];
  wire        data_in = up && is_data && !f_bad;
  wire        take_data = data_in && !rx_full && f_cnt != MAX_LEN;
  wire        eof = up && is_eof;
  wire        crc_good = crc_zero == eof_key;
  wire        frame_ok = f_active && !f_bad && f_cnt == eof_len && crc_good;
  wire [SEQ_W-1:0] seq_behind = expected - eof_seq;  // 1..HALF: already accepted
  wire        seq_now = eof_seq == expected;
  wire        seq_old = seq_behind != {SEQ_W{1'b0}} && seq_behind <= SEQ_HALF;
  wire        accept = eof && frame_ok && seq_now;
  wire        dup = eof && frame_ok && seq_old;
  wire        err_eof = eof && !accept && !dup;
  wire        err_frame = (data_in && (rx_full || f_cnt == MAX_LEN))
               || (up && f_active && !f_bad && (is_bad_ctl || is_bad_sync));
  wire        schedule_nak = (err_frame && !nak_block) || (err_eof && (!nak_block || (seq_now && !f_nak)));
  wire        frame_end = eof || (up && is_abort);

  // delivery queue of committed frames {vc, len}
  reg [7:0]  dq_mem[0:15];
  reg [4:0]  dq_wr, dq_rd;
  wire       dq_empty = dq_wr == dq_rd;
  reg        d_active;
  reg [1:0]  d_vc;
  reg [5:0]  d_len, d_idx;
  wire       d_start = !d_active && !dq_empty;
  wire       d_bypass = !d_active && dq_empty && accept;   // deliver the frame just accepted now
  wire       d_go = d_active || d_start || d_bypass;
  wire [1:0] d_vc_now = d_active ? d_vc : (dq_empty ? eof_vc : dq_mem[dq_rd[3:0]][7:6]);
  wire [5:0] d_len_now = d_active ? d_len : (dq_empty ? f_cnt : dq_mem[dq_rd[3:0]][5:0]);
  wire [5:0] d_idx_now = d_active ? d_idx : 6'd0;
  wire       d_last = d_idx_now + 6'd1 == d_len_now;

  always @(posedge clk) begin
    if (take_data) rxbuf[wr_ptr[RXB_W-1:0]] <= pl;
    if (accept && !d_bypass) dq_mem[dq_wr[3:0]] <= {eof_vc, f_cnt};
  end

  always @(posedge clk) begin
    if (rst) begin
      wr_ptr <= 0;
      commit_ptr <= 0;
      rd_ptr <= 0;
      f_active <= 1'b0;
      f_bad <= 1'b0;
      f_nak <= 1'b0;
      f_cnt <= 6'd0;
      crc_run <= 32'hFFFF_FFFF;
      crc_zero <= 32'd0;
      expected <= {SEQ_W{1'b0}};
      nak_block <= 1'b0;
      dq_wr <= 5'd0;
      dq_rd <= 5'd0;
      d_active <= 1'b0;
      d_vc <= 2'd0;
      d_len <= 6'd0;
      d_idx <= 6'd0;
      out_valid <= 1'b0;
      out_flit <= 68'd0;
    end else begin
      // ---- RX_CRC
      if (take_data) begin
        wr_ptr <= wr_ptr + 1'b1;
        f_active <= 1'b1;
        f_cnt <= f_cnt + 6'd1;
        crc_run <= crc_blk;
        crc_zero <= crc_blk_zero;
      end
      if (err_frame) begin
        f_active <= 1'b1;
        f_bad <= 1'b1;
        wr_ptr <= commit_ptr;
        if (schedule_nak) f_nak <= 1'b1;
      end
      // ---- RX_CHECK: an EOF commits the frame or drops its blocks; an
      // ABORT drops them. (The EOF is the block in pl: no data block is
      // taken in the same cycle.)
      if (frame_end) begin
        f_active <= 1'b0;
        f_bad <= 1'b0;
        f_nak <= 1'b0;
        f_cnt <= 6'd0;
        crc_run <= 32'hFFFF_FFFF;
      end
      if (accept) begin
        commit_ptr <= wr_ptr;
        if (!d_bypass) dq_wr <= dq_wr + 5'd1;
        expected <= expected + SEQ_ONE;
      end else if (frame_end) begin
        wr_ptr <= commit_ptr;
      end
      if (accept) nak_block <= 1'b0;
      else if (schedule_nak) nak_block <= 1'b1;
      if (drop_frame || !up) begin
        f_active <= 1'b0;
        f_bad <= 1'b0;
        f_nak <= 1'b0;
        f_cnt <= 6'd0;
        crc_run <= 32'hFFFF_FFFF;
        if (!accept) wr_ptr <= commit_ptr;
      end
      if (fresh_up) begin
        expected <= {SEQ_W{1'b0}};
        nak_block <= 1'b0;
      end

      // ---- delivery to the router
      out_valid <= d_go;
      out_flit <= {d_vc_now, d_idx_now == 6'd0, d_last, rxbuf[rd_ptr[RXB_W-1:0]]};
      if (d_go) begin
        rd_ptr <= rd_ptr + 1'b1;
        d_active <= !d_last;
        d_vc <= d_vc_now;
        d_len <= d_len_now;
        d_idx <= d_idx_now + 6'd1;
        if (d_start) dq_rd <= dq_rd + 5'd1;
      end
    end
  end

  // ---- control blocks received ---------------------------------------------------------
  always @(posedge clk) begin
    if (rst) begin
      init_valid <= 1'b0;
      init_payload <= 64'd0;
      ctrl_valid <= 1'b0;
      ctrl_ack <= {SEQ_W{1'b0}};
      ctrl_nak <= 1'b0;
      ctrl_credits <= 32'd0;
      peer_active <= 1'b0;
      ev_crc_err <= 1'b0;
      ev_seq_err <= 1'b0;
      ev_frame_rx <= 1'b0;
      ev_flits_rx <= 6'd0;
      ev_ctrl_err <= 1'b0;
    end else begin
      init_valid <= is_init;
      if (is_init) init_payload <= pl;
      ctrl_valid <= is_ctrl;
      if (is_ctrl) begin
        ctrl_ack <= pl[SEQ_W+7:8];
        ctrl_nak <= pl[20];
        ctrl_credits <= pl[55:24];
      end
      peer_active <= is_ctrl || is_eof;
      // a frame whose data blocks all arrived as data, but whose CRC or
      // length does not match its EOF
      ev_crc_err <= eof && f_active && !f_bad && !frame_ok;
      ev_seq_err <= eof && frame_ok && !seq_now;
      ev_frame_rx <= accept;
      ev_flits_rx <= accept ? f_cnt : 6'd0;
      ev_ctrl_err <= is_bad_ctl || is_bad_sync;
    end
  end

  // ---- credits returned by the router, and the CTRL block owed -----------------------
  reg [31:0] cum;     // credits returned per VC, cumulative modulo 256 (VC v at [v*8 +: 8])
  reg [31:0] owed;    // flits delivered and not yet credited, per VC
  integer v;
  always @(posedge clk) begin
    if (rst) begin
      cum <= 32'd0;
      owed <= 32'd0;
      ctrl_dirty <= 1'b0;
      nak_pending <= 1'b0;
      ev_nak_sent <= 1'b0;
    end else begin
      for (v = 0; v < 4; v = v + 1) begin
        if (credit_valid && credit_vc == v[1:0]) cum[v*8+:8] <= cum[v*8+:8] + 8'd1;
        owed[v*8+:8] <= owed[v*8+:8] + {7'd0, d_go && d_vc_now == v[1:0]} - {7'd0, credit_valid && credit_vc == v[1:0]};
        if (fresh_up) cum[v*8+:8] <= 8'd0;
      end
      ev_nak_sent <= ctrl_sent && nak_pending;
      nak_pending <= (nak_pending && !ctrl_sent) || schedule_nak;
      ctrl_dirty <= (ctrl_dirty && !ctrl_sent) || credit_valid || accept || schedule_nak || dup;
      if (fresh_up) begin
        nak_pending <= 1'b0;
        ctrl_dirty <= 1'b0;
      end
    end
  end
  assign owed_zero = owed == 32'd0 && dq_empty && !d_active;

  wire [SEQ_W-1:0] ack_seq = expected - SEQ_ONE;
  wire [11:0] ack12 = {{(12-SEQ_W){1'b0}}, ack_seq};
  wire [55:0] ctrl_body = {cum, 3'd0, nak_pending, ack12, KOLO_BLK_CTRL};
  wire [7:0]  ctrl_crc8;
  kolo_crc8_56 u_crc8_tx (.data(ctrl_body), .crc(ctrl_crc8));
  assign ctrl_payload = {ctrl_crc8, ctrl_body};

`ifdef FORMAL
  // (pointer differences in their own width: the pointers wrap)
  wire [RXB_W:0] f_rx_used = wr_ptr - rd_ptr;
  wire [4:0] f_dq_used = dq_wr - dq_rd;
  always @(posedge clk) if (!rst) assert (f_rx_used <= RXB[RXB_W:0]);
  always @(posedge clk) if (!rst) assert (f_dq_used <= 5'd16);
`endif
endmodule
`default_nettype wire
