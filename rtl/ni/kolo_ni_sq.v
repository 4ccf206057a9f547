`default_nettype none
// kolo_ni_sq - send queues of the 16 contexts: producer index doorbells,
// descriptor fetch by DMA read, and a prefetch buffer of DQ descriptors per
// context for the send engine.
//
// Indices are free-running 16-bit counters: pi (SQ_PI doorbell), fi
// (fetched up to), ci (taken by the engine). A doorbell whose value is more
// than SQ entries ahead of ci, or behind fi, is refused: bdb pulses (the
// context stops with KOLO_ST_BAD_DOORBELL) and bdb_pend[c] asks the engine
// to write that completion entry (bdb_clr when done). A doorbell of a
// context that is not running is dropped (db_drop, ERR_CSR). A doorbell is
// checked over two cycles: pi, bdb and db_drop change two cycles after
// db_valid (logic depth, issue 21).
// Fetch: round robin over contexts with pi != fi and free buffer slots; one
// DMA read (rq_*, valid/ready) of up to BATCH descriptors, never across the
// end of the ring, with id {2'b01, record}, when a whole batch fits in the
// context's buffer; NREC reads may be outstanding, at most QR per context.
// The pick uses each context's "needs a read" registered a cycle before;
// the batch size takes two cycles (F_CALC, F_MIN) before the read is offered.
// Read data (rd_*, only beats of this module's ids, one descriptor per
// 32-byte beat, the beats of one read back to back) land in the slots
// reserved at issue. Reads complete in any order; per context a QR-entry
// queue in issue order advances vi ("valid up to": descriptors [ci, vi) are
// here) as its oldest read completes. A failed read marks its first
// descriptor (eidx): the engine completes it with LOCAL_DMA and the context
// stops there.
// Engine port: head_valid[c] = the descriptor at ci of context c is here;
// eng_desc/eng_err are the head descriptor of eng_ctx, registered (one
// cycle after eng_ctx); eng_take consumes the head of eng_take_ctx (ci + 1).
// en_set restarts a context's queue empty; reads still in flight from before
// are dropped when they arrive (epoch bit per context).
module kolo_ni_sq #(
    parameter DQ    = 64,    // descriptors buffered per context (power of two, >= 2)
    parameter BATCH = 16,    // descriptors per read (<= DQ, <= 128)
    parameter QR    = 4,     // reads outstanding per context (power of two, >= 2)
    parameter NREC  = 16     // reads outstanding (<= 64)
) (
    input  wire          clk,
    input  wire          rst,
    input  wire [16*4-1:0] sq_log2_all,
    output wire [3:0]    cfg_ctx,
    input  wire [63:0]   cfg_base,
    input  wire [15:0]   run,
    input  wire          en_set,
    input  wire [3:0]    en_ctx,
    input  wire          db_valid,
    input  wire [3:0]    db_ctx,
    input  wire [15:0]   db_value,
    output reg           bdb,
    output reg  [3:0]    bdb_ctx,
    output reg           db_drop,
    output wire [15:0]   bdb_pend,
    input  wire          bdb_clr,
    input  wire [3:0]    bdb_clr_ctx,
    // DMA read requests
    output reg           rq_valid,
    input  wire          rq_ready,
    output reg  [63:0]   rq_addr,
    output reg  [12:0]   rq_len,
    output reg  [7:0]    rq_id,
    // DMA read data of this module's reads
    input  wire          rd_valid,
    input  wire [255:0]  rd_data,
    input  wire [5:0]    rd_rec,
    input  wire          rd_last,
    input  wire          rd_err,
    output reg           dma_err,
    // engine
    output wire [15:0]   head_valid,
    input  wire [3:0]    eng_ctx,        // read address (may change every cycle)
    output reg  [255:0]  eng_desc,
    output reg           eng_err,
    input  wire          eng_take,
    input  wire [3:0]    eng_take_ctx,
    output wire [16*16-1:0] ci_all
);
  localparam SW = $clog2(DQ);        // slot bits
  localparam RW = $clog2(NREC);
  localparam NW = $clog2(BATCH + 1);
  localparam QW = $clog2(QR);

  // (per-context registers live in g_q below: indexed writes into flat
  // vectors cost wide shifters in synthesis)
  wire [16*16-1:0] pi_v, fi_v, ci_v;
  wire [16*16-1:0] vi_v;                // valid up to (index), per context
  wire [15:0] ferr;                      // a fetch failed ...
  wire [16*16-1:0] eidx_v;               // ... at this descriptor
  wire [16*QW-1:0] q_tail;               // the queue entry a new read gets ...
  wire [15:0] q_tail_free;               // ... and if it is free
  reg [15:0] epoch;
  reg [15:0] bdb_r;
  assign ci_all = ci_v;
  assign bdb_pend = bdb_r;

  genvar g;
  generate
    for (g = 0; g < 16; g = g + 1) begin : g_head
      assign head_valid[g] = vi_v[g*16+:16] != ci_v[g*16+:16];
    end
  endgenerate

  // ---- descriptor buffer ------------------------------------------------------------
  reg [255:0] dq_mem[0:16*DQ-1];
  wire [SW-1:0] eng_slot = ci_v[eng_ctx*16+:SW];
  // each context's "head is the failed descriptor" is compared in parallel,
  // then one bit is selected (timing: eng_ctx arrives late)
  wire [15:0] head_err;
  genvar he;
  generate
    for (he = 0; he < 16; he = he + 1) begin : g_head_err
      assign head_err[he] = ferr[he] && eidx_v[he*16+:16] == ci_v[he*16+:16];
    end
  endgenerate
  always @(posedge clk) begin
    eng_desc <= dq_mem[{eng_ctx, eng_slot}];
    eng_err <= head_err[eng_ctx];
  end

  // ---- fetch records ----------------------------------------------------------------
  reg [NREC-1:0] rec_busy;
  reg [3:0] rec_ctx[0:NREC-1];
  reg [SW-1:0] rec_slot[0:NREC-1];
  reg [NW-1:0] rec_n[0:NREC-1];
  reg [NREC-1:0] rec_epoch;
  reg [QW-1:0] rec_q[0:NREC-1];    // the context's queue entry
  reg [RW-1:0] rec_free;   // lowest free record
  reg rec_any;
  integer i;
  always @(*) begin
    rec_free = {RW{1'b0}};
    rec_any = 1'b0;
    for (i = NREC - 1; i >= 0; i = i - 1)
      if (!rec_busy[i]) begin
        rec_free = i[RW-1:0];
        rec_any = 1'b1;
      end
  end

  // ---- landing read data --------------------------------------------------------------
  reg [SW-1:0] beat;   // beats of the current read so far (reads arrive whole)
  wire [RW-1:0] rr_ = rd_rec[RW-1:0];
  wire unused_rec = &{1'b0, rd_rec};
  wire [3:0] l_ctx = rec_ctx[rr_];
  wire l_live = rec_epoch[rr_] == epoch[l_ctx];
  wire [SW-1:0] l_slot = rec_slot[rr_] + beat;
  always @(posedge clk) if (rd_valid && l_live) dq_mem[{l_ctx, l_slot}] <= rd_data;
  wire l_done = rd_valid && rd_last;
  wire unused_n = &{1'b0, rec_n[rr_]};

  // ---- fetch FSM ------------------------------------------------------------------------
  localparam F_PICK = 2'd0, F_CALC = 2'd1, F_REQ = 2'd2, F_MIN = 2'd3;
  reg [1:0] fs;
  reg [3:0] fc;
  assign cfg_ctx = fc;
  wire [15:0] need;
  wire [15:0] me_db_v;  // a doorbell writes pi (g_q's me_db)
  reg p_ne;  // its value != fi (below; a later fi only makes an empty batch: back to F_PICK)
  localparam integer DQ_FREE_I = DQ - BATCH;
  localparam [15:0] DQ_FREE = DQ_FREE_I[15:0];
  generate
    for (g = 0; g < 16; g = g + 1) begin : g_need
      wire [15:0] inbuf = fi_v[g*16+:16] - ci_v[g*16+:16];
      // (a whole batch fits: reads stay big even when the engine frees slots one by one)
      // (pi != fi as pi will be: a doorbell written this cycle counts at once)
      wire pend = me_db_v[g] ? p_ne : pi_v[g*16+:16] != fi_v[g*16+:16];
      assign need[g] = run[g] && pend && inbuf <= DQ_FREE && q_tail_free[g];
    end
  endgenerate
  // need is registered (logic depth: the arbiter starts from registers), so
  // it lags a cycle (but a doorbell's new pi counts in the cycle it is
  // written). A context picked on a need that is gone (its read was issued
  // in the cycle before: fi and the queue tail moved) is checked again in
  // F_CALC (c_need: need of fc then) and F_MIN goes back to F_PICK without
  // a read. More descriptors or room a cycle late only wait.
  reg [15:0] need_q;
  always @(posedge clk) need_q <= need;
  wire [15:0] pick;
  kolo_arb_rr #(
      .N(16)
  ) u_arb (
      .clk(clk),
      .rst(rst),
      .req((fs == F_PICK && rec_any) ? need_q : 16'd0),
      .advance(1'b1),
      .grant(pick)
  );
  reg [3:0] pick_c;
  always @(*) begin
    pick_c = 4'd0;
    for (i = 0; i < 16; i = i + 1) if (pick[i]) pick_c = i[3:0];
  end

  wire [15:0] f_pi = pi_v[fc*16+:16];
  wire [15:0] f_fi = fi_v[fc*16+:16];
  wire [15:0] f_ci = ci_v[fc*16+:16];
  wire [3:0] f_log2 = sq_log2_all[fc*4+:4];
  reg [15:0] f_mask;  // (1 << f_log2) - 1, bit by bit (no carry chain)
  always @(*) for (i = 0; i < 16; i = i + 1) f_mask[i] = f_log2 > i[3:0];
  wire [15:0] f_pos = f_fi & f_mask;
  wire [15:0] f_avail = f_pi - f_fi;
  wire [15:0] f_space = DQ[15:0] - (f_fi - f_ci);
  // The batch size min(avail, space, wrap, BATCH) takes two cycles (logic
  // depth): F_CALC registers each of the three limits capped at BATCH (c_*)
  // and the ring position; F_MIN takes the least of the three (three
  // compares side by side, not in a row) and issues.
  localparam [NW-1:0] BATCH_N = BATCH[NW-1:0];
  wire [NW-1:0] a_n = (f_avail < BATCH[15:0]) ? f_avail[NW-1:0] : BATCH_N;
  wire [NW-1:0] s_n = (f_space < BATCH[15:0]) ? f_space[NW-1:0] : BATCH_N;
  // wrap = descriptors to the ring's end = f_left + 1, f_left = f_mask - f_pos (< 2^15):
  // wrap < BATCH is f_left < BATCH - 1
  wire [15:0] f_left = ~f_fi & f_mask;
  wire [NW-1:0] w_n = (f_left < BATCH[15:0] - 16'd1) ? f_left[NW-1:0] + {{(NW - 1) {1'b0}}, 1'b1} : BATCH_N;
  reg [NW-1:0] c_a, c_s, c_w;
  reg [15:0] c_pos;
  reg c_abort;
  reg c_need;  // fc still needs a read in F_CALC
  wire as_lt = c_a < c_s;
  wire aw_lt = c_a < c_w;
  wire sw_lt = c_s < c_w;
  wire [NW-1:0] f_n = as_lt ? (aw_lt ? c_a : c_w) : (sw_lt ? c_s : c_w);
  wire [15:0] f_n16 = {{(16 - NW) {1'b0}}, f_n};  // (NW may be 8)
  wire unused_fn = &{1'b0, f_n16[15:8]};
  wire f_zero = c_a == {NW{1'b0}} || c_s == {NW{1'b0}} || c_w == {NW{1'b0}};
  reg [NW-1:0] q_n;
  reg [RW-1:0] q_rec;
  wire abort_now = en_set && en_ctx == fc;
  wire abort = abort_now || c_abort;   // in F_MIN: a restart in F_CALC or now

  always @(posedge clk) begin
    if (rst) begin
      fs <= F_PICK;
      rq_valid <= 1'b0;
      fc <= 4'd0;
    end else begin
      case (fs)
        F_PICK: if (pick != 16'd0) begin
          fc <= pick_c;
          fs <= F_CALC;
        end
        F_CALC: begin
          c_a <= a_n;
          c_s <= s_n;
          c_w <= w_n;
          c_pos <= f_pos;
          c_abort <= abort_now;
          c_need <= need[fc];
          fs <= F_MIN;
        end
        F_MIN: begin
          rq_addr <= cfg_base + {43'd0, c_pos, 5'd0};
          rq_len <= {f_n16[7:0], 5'd0};
          q_n <= f_n;
          q_rec <= rec_free;
          rq_id <= {2'b01, {(6 - RW) {1'b0}}, rec_free};
          rq_valid <= !abort && !f_zero && c_need;
          fs <= (abort || f_zero || !c_need) ? F_PICK : F_REQ;
        end
        F_REQ: if (rq_ready) begin
          rq_valid <= 1'b0;
          fs <= F_PICK;
        end
        default: fs <= F_PICK;
      endcase
    end
  end
  // (a read issued as its context restarts is recorded with the old epoch)
  wire issue = fs == F_REQ && rq_valid && rq_ready;

  // ---- per-context index and slot state ---------------------------------------------
  // A doorbell is checked over two cycles (logic depth): the cycle it comes
  // registers its distances from ci (db_d) and fi - ci (db_fd), the queue
  // size and run; the next compares them and acts (p_*: one cycle later
  // than before). A doorbell of a context restarted (en_set) in either cycle
  // is dropped (before: in the cycle it came), so no bad-doorbell stop
  // reaches a context just restarted.
  wire [15:0] db_ci = ci_v[db_ctx*16+:16];
  wire [15:0] db_fi = fi_v[db_ctx*16+:16];
  reg p_valid, p_run;
  reg [3:0] p_ctx;
  reg [15:0] p_value, p_d, p_fd;
  reg [3:0] p_log2;
  always @(posedge clk) begin
    p_valid <= !rst && db_valid && !(en_set && en_ctx == db_ctx);
    p_run <= run[db_ctx];
    p_ctx <= db_ctx;
    p_value <= db_value;
    p_d <= db_value - db_ci;
    p_fd <= db_fi - db_ci;
    p_ne <= db_value != db_fi;
    p_log2 <= sq_log2_all[db_ctx*4+:4];
  end
  wire [16:0] db_entries = 17'd1 << p_log2;
  wire db_bad = ({1'b0, p_d} > db_entries) || (p_d < p_fd);
  wire p_live = p_valid && !(en_set && en_ctx == p_ctx);

  always @(posedge clk) begin
    if (rst) begin
      epoch <= 16'd0;
      bdb_r <= 16'd0;
      rec_busy <= {NREC{1'b0}};
      beat <= {SW{1'b0}};
      bdb <= 1'b0;
      db_drop <= 1'b0;
      dma_err <= 1'b0;
    end else begin
      bdb <= 1'b0;
      db_drop <= 1'b0;
      dma_err <= l_done && rd_err;
      if (p_live) begin
        if (!p_run) db_drop <= 1'b1;
        else if (db_bad) begin
          bdb <= 1'b1;
          bdb_r[p_ctx] <= 1'b1;
        end
      end
      if (bdb_clr) bdb_r[bdb_clr_ctx] <= 1'b0;
      if (issue) begin
        rec_busy[q_rec] <= 1'b1;
        rec_ctx[q_rec] <= fc;
        rec_slot[q_rec] <= f_fi[SW-1:0];
        rec_n[q_rec] <= q_n;
        rec_epoch[q_rec] <= epoch[fc];
        rec_q[q_rec] <= q_tail[fc*QW+:QW];
      end
      if (rd_valid) beat <= rd_last ? {SW{1'b0}} : beat + {{(SW - 1) {1'b0}}, 1'b1};
      if (l_done) rec_busy[rr_] <= 1'b0;
      if (en_set) begin
        epoch[en_ctx] <= !epoch[en_ctx];
        bdb_r[en_ctx] <= 1'b0;
      end
    end
    bdb_ctx <= p_ctx;
  end

  // ---- per context: indices, and QR reads in issue order; the oldest read,
  // once complete, makes its slots valid ----------------------------------------------------
  wire [QW-1:0] rec_q_now = rec_q[rr_];
  genvar e;
  generate
    for (g = 0; g < 16; g = g + 1) begin : g_q
      reg [15:0] vi, eidx;
      reg [15:0] pi, fi, ci;
      reg fe;
      reg [QW-1:0] head, tail;
      wire me_db = p_live && p_ctx == g[3:0] && p_run && !db_bad;
      assign me_db_v[g] = me_db;
      wire me_take = eng_take && eng_take_ctx == g[3:0];
      wire me_issue = issue && fc == g[3:0];
      wire me_done = l_done && l_live && l_ctx == g[3:0];
      wire me_en = en_set && en_ctx == g[3:0];
      // the queue entries {busy, done, err, n}
      wire [QR-1:0] busy, done, err;
      wire [QR*NW-1:0] n;
      for (e = 0; e < QR; e = e + 1) begin : g_e
        reg b, d, x;
        reg [NW-1:0] nn;
        wire [QW-1:0] me = e[QW-1:0];
        always @(posedge clk) begin
          if (rst || me_en) begin
            b <= 1'b0;
            d <= 1'b0;
          end else if (me_issue && tail == me) begin
            b <= 1'b1;
            d <= 1'b0;
          end else begin
            if (me_done && rec_q_now == me) d <= 1'b1;
            if (b && d && head == me) b <= 1'b0;
          end
          if (me_issue && tail == me) nn <= q_n;
          if (me_done && rec_q_now == me) x <= rd_err;
        end
        assign busy[e] = b;
        assign done[e] = d;
        assign err[e] = x;
        assign n[e*NW+:NW] = nn;
      end
      wire adv = busy[head] && done[head];
      wire [NW-1:0] nh = n[head*NW+:NW];
      always @(posedge clk) begin
        if (rst || me_en) begin
          pi <= 16'd0;
          fi <= 16'd0;
          ci <= 16'd0;
          vi <= 16'd0;
          fe <= 1'b0;
          head <= {QW{1'b0}};
          tail <= {QW{1'b0}};
        end else begin
          if (me_db) pi <= p_value;
          if (me_take) ci <= ci + 16'd1;
          if (me_issue) begin
            fi <= fi + {{(16 - NW) {1'b0}}, q_n};
            tail <= tail + {{(QW - 1) {1'b0}}, 1'b1};
          end
          if (adv) begin
            vi <= vi + {{(16 - NW) {1'b0}}, nh};
            if (err[head] && !fe) begin
              fe <= 1'b1;
              eidx <= vi;
            end
            head <= head + {{(QW - 1) {1'b0}}, 1'b1};
          end
        end
      end
      assign vi_v[g*16+:16] = vi;
      assign pi_v[g*16+:16] = pi;
      assign fi_v[g*16+:16] = fi;
      assign ci_v[g*16+:16] = ci;
      assign ferr[g] = fe;
      assign eidx_v[g*16+:16] = eidx;
      assign q_tail[g*QW+:QW] = tail;
      assign q_tail_free[g] = !busy[tail];
    end
  endgenerate
endmodule
`default_nettype wire
