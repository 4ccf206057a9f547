`default_nettype none
// kolo_link_tx - transmit half of the reliable link (core clock).
//
// Router side: flits arrive on in_valid/in_flit only against credits the
// router holds (no ready); credits go back one per cycle on credit_valid/vc.
// Flits are kept per VC in a circular buffer (the router may interleave VCs);
// a packet becomes a frame when its tail arrives: next sequence number, VC,
// start, length and CRC-32C into the frame ring. Frames stay until acked.
// Block side: blk_valid/blk_ready/blk (valid/ready, blk held while !ready;
// blk_ready must not depend on blk_valid). The emitter sends INIT blocks while
// the link is not up; otherwise a CTRL block when the receiver has one due,
// else the next frame (its data blocks, then an EOF). A packet whose head
// finds the emitter idle is cut through: its flits go to the PHY in the
// cycle they arrive (blk_valid/blk combinational from in_valid/in_flit, so
// in_valid/in_flit must come from registers), the EOF follows the tail; if
// the router pauses within the packet, an ABORT ends the partial frame and
// the packet is sent whole later (see the emitter below).
// Replay: NAK or REPLAY_TIMEOUT cycles without ACK progress go back to the
// oldest unacknowledged frame (at a frame boundary); MAX_REPLAYS consecutive
// replays without progress raise retrain_req.
// Control from kolo_link_core: `up`; `flush` (link down or peer restarted:
// drop every frame, count the packets, give all outstanding credits back);
// `train` (retrain: abort the frame on the wire, rewind when up again);
// `fresh_up` (the link came up after a flush: credit totals restart at 0);
// `drop` (link down: flits from the router are dropped and counted, credits
// returned at once).
module kolo_link_tx #(
    parameter VC_BUF         = 128,   // flits per VC, power of two
    parameter OUT_CREDITS    = 80,    // neighbour's input buffer per VC
    parameter SEQ_W          = 12,
    parameter REPLAY_TIMEOUT = 1024,
    parameter MAX_REPLAYS    = 4,
    parameter CTRL_MAX_AGE   = 32,
    parameter CTRL_REFRESH   = 256,
    parameter MAX_PKT        = 34     // longest packet in flits (smaller only for formal)
) (
    input  wire        clk,
    input  wire        rst,
    // router output port
    input  wire        in_valid,
    input  wire [67:0] in_flit,
    output reg         credit_valid,
    output reg  [1:0]  credit_vc,
    // blocks to the PHY
    output wire        blk_valid,
    input  wire        blk_ready,
    output wire [65:0] blk,
    // link state from kolo_link_core
    input  wire        up,
    input  wire        drop,
    input  wire        flush,
    input  wire        train,
    input  wire        fresh_up,
    input  wire [63:0] init_payload,     // INIT block payload while not up
    // CTRL received by kolo_link_rx (valid only when CRC-8 was good)
    input  wire             ctrl_valid,
    input  wire [SEQ_W-1:0] ctrl_ack,
    input  wire             ctrl_nak,
    input  wire [31:0]      ctrl_credits,
    // CTRL to send, from kolo_link_rx
    input  wire             rx_ctrl_dirty,
    input  wire [63:0]      rx_ctrl_payload,
    output wire             ctrl_sent,       // the CTRL payload was taken this cycle
    // to kolo_link_core
    output reg         retrain_req,
    output wire        sent_init,       // an INIT block left this cycle
    output wire        idle,            // nothing unacknowledged
    // event pulses / amounts for the counters
    output reg         ev_replay,
    output reg         ev_nak_rcvd,
    output reg         ev_frame_tx,
    output reg         ev_data_tx,
    output reg  [SEQ_W:0] ev_pkts_dropped,
    output reg         ev_ctrl_err
);
  `include "kolo_link_defs.vh"

  localparam integer VB_W = $clog2(VC_BUF);
  localparam integer FRAMES = 2 * VC_BUF;  // >= flits in the buffer / 2
  localparam integer FR_W = $clog2(FRAMES);
  localparam [SEQ_W-1:0] SEQ_ONE = 1;
  localparam integer CW = (VB_W + 2 > 9) ? VB_W + 2 : 9;  // credit counters (hold an 8-bit delta)

  // ---- parameter checks (elaboration) -----------------------------------------
  generate
    if ((1 << VB_W) != VC_BUF || VC_BUF < OUT_CREDITS || OUT_CREDITS < MAX_PKT) begin : g_bad_vc_buf
      // VC_BUF must be a power of two holding every flit the router may have
      // in flight on one VC (OUT_CREDITS, at least one maximum packet).
      kolo_link_tx_PARAMETER_ERROR_VC_BUF u_err ();
    end
    if (FR_W + 1 > SEQ_W) begin : g_bad_seq_w
      // sequence numbers must tell old from new across the whole frame ring
      kolo_link_tx_PARAMETER_ERROR_SEQ_W u_err ();
    end
  endgenerate

  // ---- flit buffer and frame ring ---------------------------------------------------
  reg [63:0] buf_mem[0:4*VC_BUF-1];
  reg [1:0]  fr_vc[0:FRAMES-1];
  reg [VB_W-1:0] fr_start[0:FRAMES-1];
  reg [5:0]  fr_len[0:FRAMES-1];
  reg [31:0] fr_crc[0:FRAMES-1];

  reg [4*VB_W-1:0] wr_ptr;   // per VC, VC v at [v*VB_W +: VB_W]
  reg [VB_W-1:0] pkt_start[0:3];
  reg [5:0]  pkt_len[0:3];
  reg [31:0] pkt_crc[0:3];
  reg [3:0]  in_pkt;      // a packet of this VC is between head and tail
  reg [3:0]  skip;        // drop the rest of this VC's packet (begun before a flush)

  reg [SEQ_W-1:0] seq_wr;    // next sequence number to give a frame
  reg [SEQ_W-1:0] seq_ack;   // oldest unacknowledged frame
  reg [SEQ_W-1:0] seq_send;  // next frame to send
  reg [SEQ_W-1:0] seq_hi;    // one past the newest frame ever sent

  wire [1:0]  in_vc = in_flit[67:66];
  wire        in_head = in_flit[65];
  wire        in_tail = in_flit[64];
  wire [63:0] in_data = in_flit[63:0];
  wire        in_drop = drop || (!in_head && skip[in_vc]);
  wire        in_keep = in_valid && !in_drop;

  // TX_IN stage (the cycle a flit arrives): the running CRC-32C of its VC's
  // packet (crc_flit) and, in parallel, the frame's final CRC as if this
  // flit were the tail (flit, then the EOF word with crc 0, in one flat
  // kolo_crc32c_64x2), written into the frame ring with the tail.
  // pkt_len holds the length the VC's next flit makes (one more than the
  // flits so far), so that the trailer needs no adder.
  wire [5:0]  new_len = in_head ? 6'd1 : pkt_len[in_vc];
  wire [31:0] crc_seed = in_head ? 32'hFFFF_FFFF : pkt_crc[in_vc];
  wire [31:0] crc_flit;
  kolo_crc32c_64 u_crc_flit (.crc_in(crc_seed), .data(in_data), .crc_out(crc_flit));
  wire [63:0] trailer = kolo_eof_word(seq_wr, in_vc, new_len, 32'd0);
  wire [31:0] crc_trailer;
  kolo_crc32c_64x2 u_crc_trl (.crc_in(crc_seed), .data0(in_data), .data1(trailer), .crc_out(crc_trailer));

  integer v;
  always @(posedge clk) begin
    if (in_keep) begin
      buf_mem[{in_vc, wr_ptr[in_vc*VB_W+:VB_W]}] <= in_data;
      if (in_tail) begin
        fr_vc[seq_wr[FR_W-1:0]] <= in_vc;
        fr_start[seq_wr[FR_W-1:0]] <= in_head ? wr_ptr[in_vc*VB_W+:VB_W] : pkt_start[in_vc];
        fr_len[seq_wr[FR_W-1:0]] <= new_len;
        fr_crc[seq_wr[FR_W-1:0]] <= ~crc_trailer;
      end
    end
  end

  always @(posedge clk) begin
    if (rst) begin
      for (v = 0; v < 4; v = v + 1) begin
        pkt_len[v] <= 6'd1;
      end
      wr_ptr <= {4*VB_W{1'b0}};
      in_pkt <= 4'b0;
      skip <= 4'b0;
      seq_wr <= {SEQ_W{1'b0}};
    end else begin
      if (in_valid) begin
        in_pkt[in_vc] <= !in_tail;
        // a packet whose head was dropped is dropped up to its tail
        skip[in_vc] <= in_drop && !in_tail;
      end
      if (in_keep) begin
        wr_ptr[in_vc*VB_W+:VB_W] <= wr_ptr[in_vc*VB_W+:VB_W] + 1'b1;
        pkt_len[in_vc] <= new_len + 6'd1;
        pkt_crc[in_vc] <= crc_flit;
        if (in_head) pkt_start[in_vc] <= wr_ptr[in_vc*VB_W+:VB_W];
        if (in_tail) seq_wr <= seq_wr + SEQ_ONE;
      end
      if (flush) begin
        // a packet half way in stays half way: drop the rest of it
        for (v = 0; v < 4; v = v + 1) begin
          skip[v] <= (in_valid && in_vc == v[1:0]) ? !in_tail : in_pkt[v];
        end
        seq_wr <= {SEQ_W{1'b0}};
        wr_ptr <= {4*VB_W{1'b0}};
      end
    end
  end

  // ---- credits to the router ----------------------------------------------------
  // owed: flits taken from the router whose credit has not gone back yet;
  // pending: credits to give back now (returned by the neighbour, or freed
  // by a drop or a flush).
  // (flat vectors, VC w at [w*W +: W], so that @* blocks need no arrays)
  reg [4*CW-1:0] owed;
  reg [4*CW-1:0] pending;
  reg [31:0]     seen_cum;   // last cumulative credit counts from CTRL
  reg [1:0]    credit_rr;

  // the VC whose credit goes back this cycle, round robin
  reg       give;
  reg [1:0] give_vc;
  reg [1:0] cand;
  integer k;
  always @* begin
    give = 1'b0;
    give_vc = 2'd0;
    for (k = 3; k >= 0; k = k - 1) begin
      cand = credit_rr + k[1:0];
      if (pending[cand*CW+:CW] != {CW{1'b0}}) begin
        give = 1'b1;
        give_vc = cand;
      end
    end
  end

  // ---- received CTRL blocks, in two named stages ----------------------------------
  // TX_CTRL_CHECK (the cycle kolo_link_rx presents a CTRL block): is its ACK
  //   plausible (within the frames sent and not yet acked) and are its
  //   credits (no VC more than is outstanding)? The verdict and the values
  //   to apply are registered (cu_*).
  // TX_CTRL_APPLY (the next cycle): seq_ack, the credit counts, the replay
  //   timer and counter, and a NAK's go-back take the checked values.
  // A CTRL block that arrives while another is being applied waits one cycle
  //   (kolo_link_rx keeps the newest CTRL's fields; ACK and credits are
  //   cumulative, so checking a newer block instead loses nothing, and a NAK
  //   seen meanwhile is kept in nak_held). Between the two stages the checked
  //   state only moves the safe way: seq_hi grows, owed - pending does not
  //   shrink, seq_ack and seen_cum move only in TX_CTRL_APPLY; a flush (link
  //   down) happens only while not up, and nothing is applied then.
  reg              cu_valid;      // TX_CTRL_APPLY holds a checked, plausible CTRL
  reg [SEQ_W-1:0]  cu_ack_next;   // one past its ACK
  reg              cu_progress;   // it acknowledges at least one frame
  reg              cu_nak;
  reg [31:0]       cu_credits;    // its cumulative credit counts
  reg [31:0]       cu_delta;      // the credits it returns, per VC
  reg              ctrl_wait;     // a CTRL arrived during an apply: check it next cycle
  reg              nak_held;      // a NAK arrived and is not checked yet
  wire             ctrl_in = (ctrl_valid || ctrl_wait) && up;
  wire             ctrl_check = ctrl_in && !cu_valid;
  wire [SEQ_W-1:0] ack_next = ctrl_ack + SEQ_ONE;
  wire [SEQ_W-1:0] ack_span = ack_next - seq_ack;   // frames it would free
  wire [SEQ_W-1:0] sent_span = seq_hi - seq_ack;
  wire             ack_ok = ack_span <= sent_span;
  reg              credits_ok;
  reg [31:0]       delta;
  always @* begin
    credits_ok = 1'b1;
    for (k = 0; k < 4; k = k + 1) begin
      delta[k*8+:8] = ctrl_credits[k*8+:8] - seen_cum[k*8+:8];
      // the neighbour cannot return more than is outstanding there
      if ({{(CW-8){1'b0}}, delta[k*8+:8]} > owed[k*CW+:CW] - pending[k*CW+:CW]) credits_ok = 1'b0;
    end
  end
  wire ctrl_use = cu_valid && up;   // TX_CTRL_APPLY

  always @(posedge clk) begin
    if (rst) begin
      cu_valid <= 1'b0;
      cu_ack_next <= {SEQ_W{1'b0}};
      cu_progress <= 1'b0;
      cu_nak <= 1'b0;
      cu_credits <= 32'd0;
      cu_delta <= 32'd0;
      ctrl_wait <= 1'b0;
      nak_held <= 1'b0;
    end else begin
      cu_valid <= ctrl_check && ack_ok && credits_ok;
      cu_ack_next <= ack_next;
      cu_progress <= ack_span != {SEQ_W{1'b0}};
      cu_nak <= ctrl_nak || nak_held;
      cu_credits <= ctrl_credits;
      cu_delta <= delta;
      ctrl_wait <= ctrl_in && cu_valid;
      if (ctrl_check || !up) nak_held <= 1'b0;
      else if (ctrl_valid && ctrl_nak) nak_held <= 1'b1;
    end
  end

  integer w;
  always @(posedge clk) begin
    if (rst) begin
      owed <= {4*CW{1'b0}};
      pending <= {4*CW{1'b0}};
      seen_cum <= 32'd0;
      credit_rr <= 2'd0;
      credit_valid <= 1'b0;
      credit_vc <= 2'd0;
    end else begin
      credit_valid <= give;
      credit_vc <= give_vc;
      if (give) credit_rr <= give_vc + 2'd1;
      for (w = 0; w < 4; w = w + 1) begin
        owed[w*CW+:CW] <= owed[w*CW+:CW] + {{(CW-1){1'b0}}, in_valid && in_vc == w[1:0]}
                           - {{(CW-1){1'b0}}, give && give_vc == w[1:0]};
        pending[w*CW+:CW] <= pending[w*CW+:CW]
                      + {{(CW-1){1'b0}}, in_valid && in_drop && in_vc == w[1:0]}
                      + (ctrl_use ? {{(CW-8){1'b0}}, cu_delta[w*8+:8]} : {CW{1'b0}})
                      - {{(CW-1){1'b0}}, give && give_vc == w[1:0]};
        if (ctrl_use) seen_cum[w*8+:8] <= cu_credits[w*8+:8];
        if (flush) begin
          // everything not yet returned goes back to the router now
          pending[w*CW+:CW] <= owed[w*CW+:CW] + {{(CW-1){1'b0}}, in_valid && in_vc == w[1:0]}
                        - {{(CW-1){1'b0}}, give && give_vc == w[1:0]};
        end
        if (fresh_up) seen_cum[w*8+:8] <= 8'd0;
      end
    end
  end

  // ---- acknowledgements, replay timer ---------------------------------------------------
  reg [$clog2(REPLAY_TIMEOUT+1)-1:0] replay_timer;
  reg [$clog2(MAX_REPLAYS+1)-1:0] replay_count;
  reg rewind_req;
  wire ack_progress = ctrl_use && cu_progress;
  wire timer_fire = up && seq_hi != seq_ack && replay_timer == REPLAY_TIMEOUT[$clog2(REPLAY_TIMEOUT+1)-1:0];
  wire nak_use = ctrl_use && cu_nak;
  wire go_back = (nak_use && cu_ack_next != seq_hi) || timer_fire;
  assign idle = seq_ack == seq_wr;

  // ---- emitter (TX_EMIT) ----------------------------------------------------------------
  // A frame on the wire is its data blocks, then its EOF. It is sent in one
  // of two ways:
  //  - store and forward: a complete frame from the ring (the first send of
  //    a packet that arrived while the emitter was busy, and every replay);
  //    its ring entry was prefetched into nx_* the cycle before;
  //  - cut through: when the emitter is idle (no frame on the wire or
  //    waiting, nothing in q, no go-back pending, no urgent CTRL) and a head
  //    flit arrives, the flit goes to the PHY in the cycle it arrives (blk is
  //    in_flit, bypassing q), and so does every following flit of the packet
  //    as long as the router sends them back to back and the PHY takes them.
  //    After the tail, the EOF (its CRC computed in TX_IN) follows from q.
  //    If the router pauses, interleaves another VC, or the PHY is full,
  //    the frame breaks off: an ABORT block (the receiver drops the blocks
  //    silently) follows and the packet, whose flits are in the buffer
  //    anyway, becomes an ordinary frame at its tail. No sequence number is
  //    spent on an aborted frame, and no other frame can get one while a
  //    cut-through frame streams (any other flit breaks it off), so the
  //    frame gets seq_wr at its tail, which is seq_send.
  reg             q_valid;     // TX_EMIT register: a block waiting for the PHY
  reg  [65:0]     q_blk;
  reg             in_frame;    // a frame is on the wire: data blocks, then its EOF
  reg             ct;          // ... cut through, tail not yet arrived
  reg             eof_due;     // ... its data blocks are out, the EOF is next
  reg  [5:0]      tx_off;      // next data block of the frame (store and forward)
  reg             at_last;     // the next data block is the frame's last (tx_off + 1 == fq_len)
  localparam integer AGE_W = $clog2(CTRL_MAX_AGE + 1);
  reg [AGE_W-1:0] ctrl_age;
  reg [$clog2(CTRL_REFRESH+1)-1:0] refresh_cnt;

  // the frame on the wire, latched when it starts: an ACK of an earlier copy
  // can release its ring slot while it is being replayed (the slot may then
  // be reused), so its blocks must not read the ring's metadata again
  reg  [1:0]      fq_vc;
  reg  [5:0]      fq_len;
  reg  [VB_W-1:0] fq_start;
  reg  [31:0]     fq_crc;
  // prefetch: the ring entry of the next frame to start (seq_send between
  // frames, seq_send + 1 during one), read a cycle ahead; nx_ok: it was
  // written and unacknowledged when read
  reg  [SEQ_W-1:0] nx_seq;
  reg              nx_ok;
  reg  [1:0]       nx_vc;
  reg  [5:0]       nx_len;
  reg  [VB_W-1:0]  nx_start;
  reg  [31:0]      nx_crc;

  wire [VB_W+5:0] cur_sum = {6'd0, fq_start} + {{VB_W{1'b0}}, tx_off};
  wire unused_sum = &{1'b0, cur_sum[VB_W+5:VB_W]};
  // the buffer read of TX_EMIT: the next data block, or a new frame's first
  wire [VB_W+1:0] rd_addr = in_frame ? {fq_vc, cur_sum[VB_W-1:0]} : {nx_vc, nx_start};
  wire            slot = !q_valid || blk_ready;
  localparam [$clog2(CTRL_REFRESH+1)-1:0] REFRESH_AT = CTRL_REFRESH[$clog2(CTRL_REFRESH+1)-1:0];
  wire            ctrl_urgent = (rx_ctrl_dirty && ctrl_age >= CTRL_MAX_AGE[AGE_W-1:0]) || refresh_cnt == REFRESH_AT;
  wire            ctrl_due = (rx_ctrl_dirty && !in_frame) || ctrl_urgent;

  // cut-through
  wire ct_idle = up && !in_frame && !q_valid && seq_send == seq_wr && !rewind_req && !ctrl_urgent;
  wire ct_start = ct_idle && in_keep && in_head && blk_ready;
  wire ct_cont = in_frame && ct && in_keep && in_vc == fq_vc && !in_head && blk_ready;
  wire ct_pass = ct_start || ct_cont;          // the router's flit goes to the PHY now
  wire ct_break = in_frame && ct && !ct_cont;   // (q is empty during a cut-through frame)
  assign blk_valid = q_valid || ct_pass;
  assign blk = ct_pass ? {KOLO_SYNC_DATA, in_data} : q_blk;

  wire            emit_init = slot && !up;
  wire            emit_ctrl = slot && up && ctrl_due && !(in_frame && ct) && !ct_start;
  wire            emit_eof = slot && up && !ctrl_due && eof_due;
  wire            emit_first = slot && up && !ctrl_due && !in_frame && !rewind_req
                               && nx_ok && nx_seq == seq_send;
  wire            emit_data = slot && up && !ctrl_due && in_frame && !ct && !eof_due;
  assign sent_init = emit_init;
  assign ctrl_sent = emit_ctrl;

  // next frame to send: after a frame (its EOF), the one after it; a pending
  // go-back (applied at a frame boundary, the frame on the wire finishes)
  // restarts at the oldest unacknowledged frame; never a frame outside
  // [oldest unacknowledged, newest written]. (While a frame is replayed, an
  // ACK of its first copy may acknowledge it and frames after it; the
  // window test is made against the new ACK so that the frame on the wire,
  // now behind the ACK, is not taken for one far ahead.)
  wire [SEQ_W-1:0] ack_new = ctrl_use ? cu_ack_next : seq_ack;
  wire             rewind_now = rewind_req && (!in_frame || emit_eof);
  // (both window tests are made in parallel, before emit_eof picks one)
  wire [SEQ_W-1:0] send_inc = seq_send + SEQ_ONE;
  wire [SEQ_W-1:0] wr_span = seq_wr - ack_new;
  wire             inc_outside = send_inc - ack_new > wr_span;
  wire             cur_outside = seq_send - ack_new > wr_span;
  wire             send_reset = rewind_now || (emit_eof ? inc_outside : (!in_frame && cur_outside));
  wire [SEQ_W-1:0] send_next = send_reset ? ack_new : (emit_eof ? send_inc : seq_send);
  // the frame on the wire is still unacknowledged (not overtaken by an ACK)
  wire cur_unacked = seq_send - seq_ack < seq_wr - seq_ack;
  wire [SEQ_W-1:0] nx_idx = in_frame ? send_inc : seq_send;

  always @(posedge clk) begin
    nx_seq <= nx_idx;
    nx_ok <= up && !(in_frame && ct) && nx_idx - seq_ack < seq_wr - seq_ack;
    nx_vc <= fr_vc[nx_idx[FR_W-1:0]];
    nx_len <= fr_len[nx_idx[FR_W-1:0]];
    nx_start <= fr_start[nx_idx[FR_W-1:0]];
    nx_crc <= fr_crc[nx_idx[FR_W-1:0]];
  end

  always @(posedge clk) begin
    if (rst) begin
      q_valid <= 1'b0;
      q_blk <= 66'd0;
      in_frame <= 1'b0;
      ct <= 1'b0;
      eof_due <= 1'b0;
      tx_off <= 6'd0;
      at_last <= 1'b0;
      seq_ack <= {SEQ_W{1'b0}};
      seq_send <= {SEQ_W{1'b0}};
      seq_hi <= {SEQ_W{1'b0}};
      replay_timer <= 0;
      replay_count <= 0;
      rewind_req <= 1'b0;
      ctrl_age <= {AGE_W{1'b0}};
      refresh_cnt <= 0;
      retrain_req <= 1'b0;
      ev_replay <= 1'b0;
      ev_nak_rcvd <= 1'b0;
      ev_frame_tx <= 1'b0;
      ev_data_tx <= 1'b0;
      ev_pkts_dropped <= {(SEQ_W+1){1'b0}};
      ev_ctrl_err <= 1'b0;
    end else begin
      retrain_req <= 1'b0;
      ev_replay <= 1'b0;
      ev_nak_rcvd <= nak_use;
      ev_frame_tx <= emit_eof;
      ev_data_tx <= ct_pass || emit_first || emit_data;
      ev_pkts_dropped <= {{SEQ_W{1'b0}}, in_valid && in_drop && in_tail};
      ev_ctrl_err <= ctrl_check && !(ack_ok && credits_ok);
      if (q_valid && blk_ready) q_valid <= 1'b0;

      // ---- cut-through frames
      if (ct_start) begin
        in_frame <= 1'b1;
        ct <= !in_tail;
        eof_due <= in_tail;
        fq_vc <= in_vc;
        fq_start <= wr_ptr[in_vc*VB_W+:VB_W];
      end
      if (ct_cont && in_tail) begin
        ct <= 1'b0;
        eof_due <= 1'b1;
      end
      if (ct_pass && in_tail) begin
        fq_len <= new_len;
        fq_crc <= ~crc_trailer;
      end

      // ---- block selection (into q)
      if (ct_break) begin
        q_valid <= 1'b1;
        q_blk <= {KOLO_SYNC_CTRL, KOLO_ABORT_PAYLOAD};
        in_frame <= 1'b0;
        ct <= 1'b0;
      end else if (emit_init) begin
        q_valid <= 1'b1;
        q_blk <= {KOLO_SYNC_CTRL, init_payload};
      end else if (emit_ctrl) begin
        q_valid <= 1'b1;
        q_blk <= {KOLO_SYNC_CTRL, rx_ctrl_payload};
      end else if (emit_eof) begin
        q_valid <= 1'b1;
        q_blk <= {KOLO_SYNC_CTRL, kolo_eof_word(seq_send, fq_vc, fq_len, fq_crc)};
        in_frame <= 1'b0;
        eof_due <= 1'b0;
        if (cur_unacked && seq_send + SEQ_ONE - seq_ack > seq_hi - seq_ack) seq_hi <= seq_send + SEQ_ONE;
      end else if (emit_first || emit_data) begin
        q_valid <= 1'b1;
        q_blk <= {KOLO_SYNC_DATA, buf_mem[rd_addr]};
        if (emit_first) begin
          fq_vc <= nx_vc;
          fq_len <= nx_len;
          fq_start <= nx_start;
          fq_crc <= nx_crc;
          in_frame <= 1'b1;
          ct <= 1'b0;
          tx_off <= 6'd1;
          at_last <= nx_len == 6'd2;
          eof_due <= nx_len == 6'd1;
        end else begin
          tx_off <= tx_off + 6'd1;
          at_last <= tx_off + 6'd2 == fq_len;
          if (at_last) eof_due <= 1'b1;
        end
      end

      // ---- CTRL pacing
      if (emit_ctrl) begin
        ctrl_age <= {AGE_W{1'b0}};
        refresh_cnt <= 0;
      end else begin
        if (rx_ctrl_dirty && ctrl_age != CTRL_MAX_AGE[AGE_W-1:0]) ctrl_age <= ctrl_age + 1'b1;
        if (!rx_ctrl_dirty) ctrl_age <= {AGE_W{1'b0}};
        // the first slot after coming up carries a CTRL block: it tells a
        // neighbour still training that this end is up
        if (!up) refresh_cnt <= REFRESH_AT;
        else if (refresh_cnt != REFRESH_AT) refresh_cnt <= refresh_cnt + 1'b1;
      end

      // ---- acknowledgements and replay
      if (ctrl_use) seq_ack <= cu_ack_next;
      seq_send <= send_next;
      if (ack_progress || !up || seq_hi == seq_ack) replay_timer <= 0;
      else if (replay_timer != REPLAY_TIMEOUT[$clog2(REPLAY_TIMEOUT+1)-1:0]) replay_timer <= replay_timer + 1'b1;
      if (ack_progress) replay_count <= 0;
      if (rewind_now) rewind_req <= 1'b0;
      if (go_back) begin
        rewind_req <= 1'b1;
        replay_timer <= 0;
        ev_replay <= 1'b1;
        if (replay_count == MAX_REPLAYS[$clog2(MAX_REPLAYS+1)-1:0] - 1) begin
          retrain_req <= 1'b1;
          replay_count <= 0;
        end else begin
          replay_count <= replay_count + 1'b1;
        end
      end

      // ---- link state changes
      if (train) begin
        // the frame on the wire is cut off; all unacked frames go again
        in_frame <= 1'b0;
        ct <= 1'b0;
        eof_due <= 1'b0;
        seq_send <= ack_new;
        rewind_req <= 1'b1;
        replay_count <= 0;
      end
      if (flush) begin
        ev_pkts_dropped <= {1'b0, seq_wr - seq_ack} + {{SEQ_W{1'b0}}, in_valid && in_tail};
        in_frame <= 1'b0;
        ct <= 1'b0;
        eof_due <= 1'b0;
        rewind_req <= 1'b0;
        seq_ack <= {SEQ_W{1'b0}};
        seq_send <= {SEQ_W{1'b0}};
        seq_hi <= {SEQ_W{1'b0}};
        replay_count <= 0;
      end
    end
  end

`ifdef FORMAL
  // the frame ring never holds more frames than it has entries; the newest
  // frame sent and, between frames, the next to send lie within
  // [oldest unacknowledged, newest written] (a frame being replayed may fall
  // behind an ACK of its earlier copy); while a frame is cut through, no
  // other frame has been numbered since it started, so its tail gets seq_send
  // (differences in the sequence numbers' own width: they wrap)
  wire [SEQ_W-1:0] f_held = seq_wr - seq_ack;
  wire [SEQ_W-1:0] f_hi = seq_hi - seq_ack;
  wire [SEQ_W-1:0] f_send = seq_send - seq_ack;
  always @(posedge clk) if (!rst) assert (f_held <= FRAMES[SEQ_W-1:0]);
  always @(posedge clk) if (!rst) assert (f_hi <= f_held);
  always @(posedge clk) if (!rst && !in_frame) assert (f_send <= f_held);
  always @(posedge clk) if (!rst && in_frame && ct) assert (seq_send == seq_wr && !q_valid && !eof_due);
`endif
endmodule
`default_nettype wire
