`default_nettype none
// kolo_link_rx - receive half of the reliable link (core clock).
//
// Block side: one block per cycle on blk_valid/blk (no ready). Frames (SOF,
// then one data block per flit) are written into a receive buffer and checked
// at their last block: a good CRC-32C with the expected sequence number
// commits the frame, which is then handed to the router whole, one flit per
// cycle (out_valid/out_flit, no ready: the sending router only sent it
// against a credit). Anything else discards the frame; a frame error
// schedules one NAK, and no other NAK is scheduled until a frame is accepted
// or the SOF of the expected frame (the replay) arrives.
// A good frame that was accepted before (a replay) is dropped and acked again.
// Control blocks with a good CRC-8 are passed on: INIT to kolo_link_core,
// CTRL (ack, nak, credits) to kolo_link_tx.
// The CTRL block this end owes its neighbour (cumulative ack, nak, cumulative
// credits the router returned on credit_valid/credit_vc) is offered on
// ctrl_dirty/ctrl_payload; ctrl_sent says it was taken.
module kolo_link_rx #(
    parameter SEQ_W = 12,
    parameter RXB_W = 7      // log2 of the receive buffer in flits (>= 2 maximum packets)
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
    output reg              peer_active,   // a good CTRL or SOF arrived
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

  // ---- RX_DECODE: the block from the PHY, registered with its kind -------------
  // (the PHY hands blocks straight from its clock-crossing FIFO: this is the
  // first register on the core side)
  wire [1:0]  in_sync = blk[65:64];
  wire [7:0]  in_type = blk[7:0];
  wire [7:0]  crc8_calc;
  kolo_crc8_56 u_crc8_rx (.data(blk[55:0]), .crc(crc8_calc));
  wire        crc8_ok = crc8_calc == blk[63:56];
  wire        in_ctl = blk_valid && in_sync == KOLO_SYNC_CTRL;
  wire        in_sof = in_ctl && in_type == KOLO_BLK_SOF;
  wire        in_init = in_ctl && in_type == KOLO_BLK_INIT && crc8_ok;
  wire        in_ctrl = in_ctl && in_type == KOLO_BLK_CTRL && crc8_ok;
  wire        in_fill = in_ctl && (in_type == KOLO_BLK_IDLE || in_type == KOLO_BLK_CC) && crc8_ok;
  reg  [63:0] pl;
  reg         is_data, is_bad_sync, is_sof, is_init, is_ctrl, is_bad_ctl;
  always @(posedge clk) begin
    if (rst) begin
      is_data <= 1'b0;
      is_bad_sync <= 1'b0;
      is_sof <= 1'b0;
      is_init <= 1'b0;
      is_ctrl <= 1'b0;
      is_bad_ctl <= 1'b0;
    end else begin
      is_data <= blk_valid && in_sync == KOLO_SYNC_DATA;
      is_bad_sync <= blk_valid && (in_sync == 2'b00 || in_sync == 2'b11);
      is_sof <= in_sof;
      is_init <= in_init;
      is_ctrl <= in_ctrl;
      is_bad_ctl <= in_ctl && !in_sof && !in_init && !in_ctrl && !in_fill;
    end
    pl <= blk[63:0];
  end
  wire [5:0]  sof_len = pl[27:22];
  wire        sof_len_ok = sof_len >= 6'd2 && sof_len <= 6'd34;

  // ---- frame reception -------------------------------------------------------------
  reg [63:0] rxbuf[0:RXB-1];
  reg [RXB_W:0] wr_ptr, commit_ptr, rd_ptr;
  reg         f_active;     // inside a frame
  reg         f_discard;    // after a frame error: ignore data blocks until an SOF
  reg [SEQ_W-1:0] f_seq;
  reg [1:0]   f_vc;
  reg [5:0]   f_len;
  reg [5:0]   f_cnt;
  reg [31:0]  f_crc;
  reg [31:0]  crc_run;
  reg [SEQ_W-1:0] expected;
  reg         nak_block;    // a NAK was scheduled since the last accepted frame
  reg         nak_pending;

  // Pipeline (docs/link.md "Receiver pipeline"), one block per cycle:
  //   stage RX_CRC (the cycle a data block arrives): the running CRC-32C over
  //     the frame's data (crc_run) and, in parallel, the frame's final CRC as
  //     if this block were its last (data block, then the SOF word with crc
  //     0: kolo_crc32c_64x2), compared with the SOF's CRC into crc_ok_q;
  //   stage RX_CHECK (the next cycle, chk_valid after the frame's last
  //     block): crc_ok_q and the sequence number decide: accept (commit the
  //     frame, hand it to delivery at once when nothing is queued), a
  //     duplicate (re-ack) or an error (NAK); a rejected frame's blocks are
  //     dropped (wr_ptr back to commit_ptr).
  //   stage RX_DELIVER: one flit per cycle from the buffer to the router.
  wire [31:0] crc_blk;
  kolo_crc32c_64 u_crc_blk (.crc_in(crc_run), .data(pl), .crc_out(crc_blk));
  wire [31:0] crc_fin;
  kolo_crc32c_64x2 u_crc_fin (.crc_in(crc_run), .data0(pl), .data1(kolo_sof_word(f_seq, f_vc, f_len, 32'd0)),
                              .crc_out(crc_fin));
  reg         crc_ok_q;     // RX_CRC: the frame's CRC matches if the last block taken was its last
  reg         chk_valid;    // RX_CHECK: the frame's last block was taken in the previous cycle
  wire        rx_full = (wr_ptr - rd_ptr) == RXB[RXB_W:0];
  wire        take_data = up && is_data && f_active && !rx_full;
  wire        frame_end = take_data && f_cnt + 6'd1 == f_len;
  wire        chk = chk_valid && up;   // a retrain in between drops the frame (replayed later)
  wire        crc_good = crc_ok_q;
  wire [SEQ_W-1:0] seq_behind = expected - f_seq;  // 1..HALF: already accepted
  wire        seq_now = f_seq == expected;
  wire        seq_old = seq_behind != {SEQ_W{1'b0}} && seq_behind <= SEQ_HALF;
  wire        accept = chk && crc_good && seq_now;
  // frame errors: each one schedules a NAK (unless one is scheduled already)
  wire        err_crc = chk && !crc_good;
  wire        err_gap = chk && crc_good && !seq_now && !seq_old;
  wire        err_frame = up && (
                  (is_data && f_active && rx_full)
               || (is_data && !f_active && !f_discard)
               || (is_sof && f_active)
               || (is_sof && !sof_len_ok)
               || ((is_bad_ctl || is_bad_sync) && f_active));
  wire        schedule_nak = (err_crc || err_gap || err_frame) && !nak_block;
  wire        replay_start = up && is_sof && sof_len_ok && pl[SEQ_W+7:8] == expected;

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
  wire [1:0] d_vc_now = d_active ? d_vc : (dq_empty ? f_vc : dq_mem[dq_rd[3:0]][7:6]);
  wire [5:0] d_len_now = d_active ? d_len : (dq_empty ? f_len : dq_mem[dq_rd[3:0]][5:0]);
  wire [5:0] d_idx_now = d_active ? d_idx : 6'd0;
  wire       d_last = d_idx_now + 6'd1 == d_len_now;

  always @(posedge clk) begin
    if (take_data) rxbuf[wr_ptr[RXB_W-1:0]] <= pl;
    if (accept && !d_bypass) dq_mem[dq_wr[3:0]] <= {f_vc, f_len};
  end

  always @(posedge clk) begin
    if (rst) begin
      wr_ptr <= 0;
      commit_ptr <= 0;
      rd_ptr <= 0;
      f_active <= 1'b0;
      f_discard <= 1'b0;
      f_seq <= {SEQ_W{1'b0}};
      f_vc <= 2'd0;
      f_len <= 6'd0;
      f_cnt <= 6'd0;
      f_crc <= 32'd0;
      crc_run <= 32'hFFFF_FFFF;
      crc_ok_q <= 1'b0;
      chk_valid <= 1'b0;
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
      // ---- receive (RX_CRC)
      chk_valid <= frame_end;
      if (up && is_sof) begin
        f_active <= sof_len_ok;
        f_discard <= !sof_len_ok;
        f_seq <= pl[SEQ_W+7:8];
        f_vc <= pl[21:20];
        f_len <= sof_len;
        f_cnt <= 6'd0;
        f_crc <= pl[63:32];
        crc_run <= 32'hFFFF_FFFF;
      end else if (take_data) begin
        wr_ptr <= wr_ptr + 1'b1;
        f_cnt <= f_cnt + 6'd1;
        crc_run <= crc_blk;
        crc_ok_q <= ~crc_fin == f_crc;
        if (frame_end) f_active <= 1'b0;
      end else if (err_frame) begin
        f_active <= 1'b0;
        f_discard <= 1'b1;
      end
      // ---- RX_CHECK: commit the frame whose last block came in the previous
      // cycle, or drop its blocks. Any other cycle, the blocks of an
      // unfinished frame are dropped by an SOF, a frame error, a retrain or
      // the link going down. (No data block is taken in the cycle of a
      // check: the frame's last block cleared f_active.)
      if (accept) begin
        commit_ptr <= wr_ptr;
        if (!d_bypass) dq_wr <= dq_wr + 5'd1;
        expected <= expected + SEQ_ONE;
      end else if (chk || (up && is_sof) || err_frame || drop_frame || !up) begin
        wr_ptr <= commit_ptr;
      end
      // one NAK per error episode; the episode ends when a frame is accepted,
      // or when the replay reaches the expected frame (so that a replayed
      // frame hit again is NAKed at once instead of waiting for the timer)
      if (accept || (replay_start && !schedule_nak)) nak_block <= 1'b0;
      else if (schedule_nak) nak_block <= 1'b1;
      if (drop_frame || !up) begin
        f_active <= 1'b0;
        f_discard <= 1'b0;
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
      peer_active <= is_ctrl || (is_sof && sof_len_ok);
      ev_crc_err <= err_crc;
      ev_seq_err <= chk && crc_good && !seq_now;
      ev_frame_rx <= accept;
      ev_flits_rx <= accept ? f_len : 6'd0;
      ev_ctrl_err <= is_bad_ctl || is_bad_sync || (up && is_data && !f_active && !f_discard);
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
      ctrl_dirty <= (ctrl_dirty && !ctrl_sent) || credit_valid || accept || schedule_nak
                    || (chk && crc_good && seq_old);
      if (fresh_up) begin
        nak_pending <= 1'b0;
        ctrl_dirty <= 1'b0;
      end
    end
  end
  assign owed_zero = owed == 32'd0
                     && dq_empty && !d_active && !chk_valid;

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
