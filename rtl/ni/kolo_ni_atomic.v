`default_nettype none
// kolo_ni_atomic - the target side's atomic unit (kolo_ni_tgt): up to SLOTS
// atomics in flight at once. Atomics to different 8-byte words overlap their
// host memory round trips; atomics to one word form a chain in which each
// takes the value the previous one computed (no DMA read), so that a stream
// to one word runs at the compute rate, not one read round trip each.
//
// An atomic enters a free slot (take, with the request's fields); the
// caller takes one only with free and !conflict. free needs a free slot
// (registered; a full unit can take the slot resp_take frees in the next
// cycle) and t_addr/t_s4 unchanged since the cycle before (the unit compares
// the request's word with every slot's one cycle ahead, am_q: a new request
// waits one cycle; kolo_ni_tgt sets t_* two states before it takes).
// `conflict` tells whether the bytes [q_lo, q_end) overlap the word of any
// slot in use (the caller holds PUTs and GETs on such a word back: the word
// stays locked until the last atomic on it has been answered), except for
// an atomic (q_atomic, with t_addr/t_s4 = q_lo and its size) that can follow
// the word's chain: the chain's tail (its last atomic) has the same address
// and size and is not in compute (nor computed while compute is busy; the
// caller retries a cycle later). A slot's life:
//   1. a head (no chain to follow) reads: slots in the order they were
//      taken (rdq FIFO), one DMA read of 4 or 8 bytes each, id {2'b11, slot};
//      rq_* have priority over the caller's other reads. A follower instead
//      waits for its predecessor's computed value (hsucc/succ_m), or takes
//      it at once if the predecessor has computed (dok, nv_m), or reads
//      itself if the predecessor's read has failed (derr, set as the data
//      arrives: nothing was written);
//   2. its data (rd_valid: the caller passes only ids 2'b11.., one beat)
//      stores the old value and the error bit, the slot joins the compute
//      queue (dq FIFO); a follower joins the forward queue (fq FIFO) with
//      the forwarded value as its old value;
//   3. compute, one slot at a time (dq and fq alternate when both wait):
//      load (C_LOAD), result (C_CALC), DMA write of the new value (C_WR; a
//      CSWAP that does not match, found in C_CALC, writes nothing and
//      leaves C_WR at once; a failed read leaves the data queue without
//      compute); the slot joins the response queue, its value (new, or old
//      without a write) goes to its follower. A failed read's waiting
//      follower reads itself (pr_*: pushed into rdq the next cycle, while
//      free is down);
//   4. response: resp_valid with the slot's fields (resp_*) until
//      resp_take; the slot is free from the next cycle.
// Write-through: every atomic writes its new value before its response, so
// host memory always holds the value of the last atomic answered and nothing
// is left to flush. A head reads only when no slot holds its word (every
// earlier write accepted by the DMA port; the endpoint keeps reads behind
// accepted writes) or after the tail's read failed; a follower computes
// after its predecessor's write was accepted. So atomics on one word are
// executed one after the other in arrival order, with the results of the
// one-at-a-time unit (and of the C model). Different words are independent.
// Handshakes: rq_valid/rq_ready; wr_valid/wr_fire (wr_fire = the caller's
// write port took the beat; the caller holds its port for the unit while
// wr_valid is up); resp_valid/resp_take.
// Latency: take to read request 1 cycle (an empty rdq); data to write 3
// cycles; at most one atomic per 3 cycles through compute (also in a chain;
// 4 for a CSWAP that does not match).
// Timing: every take decision is made from registers (f_slot/f_oh, am_q,
// tail, dok, derr) and the take itself only selects: <= 6 LUT levels
// register to register (Yosys synth_xilinx, docs/ni.md).
// Reset: synchronous, empties every queue and frees every slot.
module kolo_ni_atomic #(
    parameter SLOTS = 32,  // atomics in flight, 1..32
    parameter BUG_NO_LOCK = 0,  // tests only: 1 = no word lock (a planted bug tb_ni_atomic must catch)
    parameter BUG_STALE_FWD = 0  // tests only: 1 = a follower gets its predecessor's old value (caught)
) (
    input  wire          clk,
    input  wire          rst,
    // new atomic (take only with free && !conflict)
    output wire          free,
    output wire          busy,        // a slot is in use
    input  wire [48:0]   q_lo,        // bytes the caller's request touches: [q_lo, q_end)
    input  wire [48:0]   q_end,
    input  wire          q_atomic,    // the request is the atomic t_* (it may follow a chain)
    output wire          conflict,
    input  wire          take,
    input  wire [47:0]   t_addr,
    input  wire [3:0]    t_op,
    input  wire          t_s4,
    input  wire          t_fetch,
    input  wire [63:0]   t_opnd,
    input  wire [63:0]   t_cmp,
    input  wire [7:0]    t_tag,
    input  wire          t_gen,
    input  wire [11:0]   t_dst,
    input  wire [22:0]   t_rs,
    // DMA read requests and their data
    output wire          rq_valid,
    input  wire          rq_ready,
    output wire [47:0]   rq_addr,
    output wire [12:0]   rq_len,
    output wire [7:0]    rq_id,
    input  wire          rd_valid,
    input  wire [63:0]   rd_data,
    input  wire [5:0]    rd_slot,
    input  wire          rd_err,
    // DMA write of a result
    output wire          wr_valid,
    input  wire          wr_fire,
    output wire [47:0]   wr_addr,
    output wire [12:0]   wr_len,
    output wire [63:0]   wr_data,
    // response
    output wire          resp_valid,
    input  wire          resp_take,
    output wire          resp_err,
    output wire          resp_fetch,
    output wire          resp_s4,
    output wire [47:0]   resp_addr,
    output wire [63:0]   resp_old,
    output wire [7:0]    resp_tag,
    output wire          resp_gen,
    output wire [11:0]   resp_dst,
    output wire [22:0]   resp_rs,
    output wire [2:0]    dbg
);
  `include "kolo_ni_regs.vh"
  localparam SW = (SLOTS > 1) ? $clog2(SLOTS) : 1;
  generate
    if (SLOTS < 1 || SLOTS > 32) begin : g_bad_slots
      kolo_ni_atomic_PARAMETER_ERROR_SLOTS_must_be_1_to_32 u_error ();
    end
  endgenerate

  // ---- slots: fields written at take, old value and error at the data -----------------
  localparam FW = 48 + 4 + 1 + 1 + 64 + 64 + 8 + 1 + 12 + 23;
  reg [FW-1:0] fld_m[0:SLOTS-1];
  reg [64:0] old_m[0:SLOTS-1];      // {err, raw data bits 63:0} of a head's read
  reg [63:0] fv_m[0:SLOTS-1];       // a follower's old value (forwarded)
  reg [SLOTS-1:0] fwd;              // the slot's old value is in fv_m (a follower)
  reg [SLOTS-1:0] used;
  reg [SLOTS*45-1:0] word_v;        // addr bits 47:3 of each slot (parallel compares)
  reg [SLOTS*2-1:0] lo_v;           // {addr bit 2, s4} of each slot
  // chains: every slot in use on a word belongs to one chain, in arrival order
  reg [SLOTS-1:0] tail;             // the last atomic of its word's chain
  reg [SLOTS-1:0] hsucc;            // a follower waits for this slot's value (succ_m)
  reg [SW-1:0] succ_m[0:SLOTS-1];   // the follower of each slot
  reg [SLOTS-1:0] dok;              // computed: its new value is in nv_m
  reg [SLOTS-1:0] derr;             // its read failed (no value)
  reg [63:0] nv_m[0:SLOTS-1];       // the word's value after each computed slot

  // the free slot for the next take, registered (f_slot, one-hot f_oh, f_any): after a
  // take (or while there is none) the lowest slot neither in use nor the one taken, or
  // if there is none the slot resp_take frees now (so that a full unit takes again in the
  // next cycle); otherwise it stays. The take only selects (it arrives late: kolo_ni_tgt's
  // checks).
  reg [SW-1:0] f_slot;
  reg [SLOTS-1:0] f_oh;
  reg f_any;
  wire [SLOTS-1:0] f_avail = ~used & ~f_oh;
  wire [SLOTS-1:0] f_low = f_avail & (~f_avail + 1'b1);   // its lowest set bit
  reg [SW-1:0] f_low_slot;
  integer i;
  always @(*) begin
    f_low_slot = {SW{1'b0}};
    for (i = 0; i < SLOTS; i = i + 1)
      if (f_low[i]) f_low_slot = f_low_slot | i[SW-1:0];
  end
  wire f_some = |f_avail;
  wire [SW-1:0] rsq_out;            // (the response queue's head: the slot resp_take frees)
  always @(posedge clk) begin
    if (rst) begin
      f_any <= 1'b0;
      f_oh <= {SLOTS{1'b0}};
      f_slot <= {SW{1'b0}};
    end else if (take || !f_any) begin
      f_any <= f_some || resp_take;
      for (i = 0; i < SLOTS; i = i + 1)
        f_oh[i] <= f_some ? f_low[i] : resp_take && rsq_out == i[SW-1:0];
      f_slot <= f_some ? f_low_slot : rsq_out;
    end
  end

  // the word compare of the request, registered: am_q[i] = slot i's word and {addr bit 2,
  // s4} equal t_addr/t_s4 of the cycle before (a slot taken then holds them); am_ok = t_addr
  // and t_s4 have not changed since, so am_q holds for this cycle's request. A take waits for
  // am_ok (free), one cycle after a new request (kolo_ni_tgt: t_* are set in T_H1, the
  // take is in T_CHK after T_P).
  reg [SLOTS-1:0] am_q;
  reg [46:0] am_key;                // {t_addr[47:2], t_s4} of the cycle before
  wire [46:0] t_key = {t_addr[47:2], t_s4};
  wire am_ok = am_key == t_key;
  always @(posedge clk) begin
    am_key <= t_key;
    for (i = 0; i < SLOTS; i = i + 1)
      am_q[i] <= (take && f_oh[i]) ||
                 (word_v[i*45+:45] == t_addr[47:3] && lo_v[i*2+:2] == {t_addr[2], t_s4});
  end
  reg pr_v;                         // a follower's own read is pushed into rdq now (below)
  assign free = f_any && am_ok && !pr_v;
  assign busy = |used;

  // conflict: the request's bytes overlap the 8-byte word of a slot in use, unless the
  // request is an atomic that can follow the word's chain: its tail has the same address
  // and size (am_q) and is neither in compute nor (while compute is busy) computed
  localparam C_LOAD = 2'd0, C_CALC = 2'd1, C_WR = 2'd2;
  reg [1:0] cs;
  reg [SW-1:0] c_slot;
  reg hit;
  reg [SLOTS-1:0] ch;               // the chain tail the atomic t_* would follow (one-hot)
  reg [SLOTS-1:0] t_tl;             // the tail of t_*'s word and size, in compute or not
  always @(*) begin
    hit = 1'b0;
    for (i = 0; i < SLOTS; i = i + 1) begin
      // q_lo < word * 8 + 8 is q_lo / 8 <= word (no adder in front of the compare)
      if (used[i] && q_lo[48:3] <= {1'b0, word_v[i*45+:45]} && {1'b0, word_v[i*45+:45], 3'b000} < q_end)
        hit = 1'b1;
      t_tl[i] = used[i] && tail[i] && am_q[i];
      ch[i] = t_tl[i] && !(cs != C_LOAD && (c_slot == i[SW-1:0] || dok[i]));
    end
  end
  wire ch_any = |ch;
  reg [SW-1:0] ch_slot;             // t_tl (one-hot) as a slot number: ch's when ch_any
  always @(*) begin
    ch_slot = {SW{1'b0}};
    for (i = 0; i < SLOTS; i = i + 1)
      if (t_tl[i]) ch_slot = ch_slot | i[SW-1:0];
  end
  assign conflict = hit && !(q_atomic && ch_any) && BUG_NO_LOCK == 0;

  // ---- queues ------------------------------------------------------------------------------
  wire rdq_in_ready, rdq_valid, rdq_push;
  wire [SW-1:0] rdq_out, rdq_in;
  wire dq_in_ready, dq_valid;
  wire [SW-1:0] dq_out;
  wire fq_in_ready, fq_valid, fq_push, fq_pop;
  wire [SW-1:0] fq_out, fq_in;
  wire rsq_in_ready, rsq_valid, rsq_push;
  wire [SW-1:0] rsq_in;
  wire dq_pop;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [$clog2(SLOTS+2)-1:0] rdq_count, dq_count, fq_count, rsq_count;
  wire unused_ready = &{1'b0, rdq_in_ready, dq_in_ready, fq_in_ready, rsq_in_ready};  // one entry per slot: never full
  /* verilator lint_on UNUSEDSIGNAL */
  kolo_fifo_sync #(.WIDTH(SW), .DEPTH(SLOTS + 1)) u_rdq (
      .clk(clk), .rst(rst), .in_valid(rdq_push), .in_ready(rdq_in_ready), .in_data(rdq_in),
      .out_valid(rdq_valid), .out_ready(rq_ready), .out_data(rdq_out), .count(rdq_count)
  );
  kolo_fifo_sync #(.WIDTH(SW), .DEPTH(SLOTS + 1)) u_dq (
      .clk(clk), .rst(rst), .in_valid(rd_valid), .in_ready(dq_in_ready), .in_data(rd_slot[SW-1:0]),
      .out_valid(dq_valid), .out_ready(dq_pop), .out_data(dq_out), .count(dq_count)
  );
  kolo_fifo_sync #(.WIDTH(SW), .DEPTH(SLOTS + 1)) u_fq (
      .clk(clk), .rst(rst), .in_valid(fq_push), .in_ready(fq_in_ready), .in_data(fq_in),
      .out_valid(fq_valid), .out_ready(fq_pop), .out_data(fq_out), .count(fq_count)
  );
  kolo_fifo_sync #(.WIDTH(SW), .DEPTH(SLOTS + 1)) u_rsq (
      .clk(clk), .rst(rst), .in_valid(rsq_push), .in_ready(rsq_in_ready), .in_data(rsq_in),
      .out_valid(rsq_valid), .out_ready(resp_take), .out_data(rsq_out), .count(rsq_count)
  );

  // ---- take: a head (DMA read), or a follower of the chain tail ch --------------------------
  // follower: the tail's value now (computed), later (at its compute: hsucc/succ_m), or a
  // read of its own (the tail's read failed: derr, set as its data arrives)
  wire d_err_pop;                   // a slot's failed read leaves the data queue now
  wire [SLOTS-1:0] t_waits = ch & ~dok & ~derr;   // the follower waits for this tail
  wire t_ready = |(ch & dok);
  wire t_reread = |(ch & derr);
  wire t_head = !(|(ch & ~derr));
  wire t_wait = |t_waits;
  wire [63:0] t_val = nv_m[ch_slot];  // the value of the computed tail
  // a follower whose predecessor's read failed reads itself (pr_*: pushed into the rdq in
  // the next cycle, when no take can push: free is down)
  reg [SW-1:0] pr_slot;
  assign rdq_push = (take && t_head) || pr_v;
  assign rdq_in = pr_v ? pr_slot : f_slot;

  // ---- read requests ----------------------------------------------------------------------
  wire [FW-1:0] rq_fld = fld_m[rdq_out];
  wire rq_s4 = rq_fld[FW-53];
  assign rq_valid = rdq_valid;
  assign rq_addr = rq_fld[FW-1-:48];
  assign rq_len = rq_s4 ? 13'd4 : 13'd8;
  assign rq_id = {2'b11, {(6 - SW) {1'b0}}, rdq_out};

  // ---- compute: one slot at a time, from the data queue or the forward queue ----------------------
  reg [3:0] c_op;
  reg c_s4;
  reg [47:0] c_addr;
  reg [63:0] c_opnd, c_cmp, c_old, c_new;
  reg last_f;                       // the last load came from fq (alternate when both wait)
  wire d_err = old_m[dq_out][64];
  wire dq_ok = dq_valid;
  wire use_f = fq_valid && (!dq_ok || !last_f);
  assign fq_pop = cs == C_LOAD && use_f;
  assign dq_pop = cs == C_LOAD && !use_f && dq_ok;
  assign d_err_pop = dq_pop && d_err;
  wire l_go = fq_pop || (dq_pop && !d_err);
  wire [SW-1:0] l_slot = use_f ? fq_out : dq_out;
  wire [FW-1:0] l_fld = fld_m[l_slot];
  wire [63:0] l_old = use_f ? fv_m[fq_out] : old_m[dq_out][63:0];
  wire l_s4 = l_fld[FW-53];
  wire [63:0] l_mask = l_s4 ? 64'h00000000ffffffff : 64'hffffffffffffffff;
  reg [63:0] calc;
  always @(*) begin
    case (c_op)
      `KOLO_OP_ADD, `KOLO_OP_FETCH_ADD: calc = c_old + c_opnd;
      `KOLO_OP_XOR, `KOLO_OP_FETCH_XOR: calc = c_old ^ c_opnd;
      `KOLO_OP_SWAP: calc = c_opnd;
      `KOLO_OP_CSWAP: calc = c_opnd;
      `KOLO_OP_FETCH_AND: calc = c_old & c_opnd;
      default: calc = c_old | c_opnd;  // FETCH_OR
    endcase
  end
  reg c_skip;                       // a CSWAP without a match: no write (found in C_CALC)
  // a slot joins the response queue: failed read (at load), or in C_WR: CSWAP without a
  // match, or its write taken; the last two are its computed value
  wire c_done = cs == C_WR && (c_skip || wr_fire);
  wire [63:0] c_val = (!c_skip && BUG_STALE_FWD == 0) ? c_new : c_old;
  assign rsq_push = d_err_pop || c_done;
  assign rsq_in = d_err_pop ? dq_out : c_slot;
  // the value goes to the follower: now (waiting, hsucc) or at its take (t_ready)
  wire c_fwd = c_done && hsucc[c_slot];
  wire [SW-1:0] c_succ = succ_m[c_slot];
  assign fq_push = c_fwd || (take && t_ready);  // exclusive: t_ready only while cs == C_LOAD
  assign fq_in = c_fwd ? c_succ : f_slot;
  always @(posedge clk) begin
    if (rst) begin
      cs <= C_LOAD;
      last_f <= 1'b0;
    end else begin
      case (cs)
        C_LOAD: if (l_go) begin
          c_slot <= l_slot;
          c_addr <= l_fld[FW-1-:48];
          c_op <= l_fld[FW-49-:4];
          c_s4 <= l_s4;
          c_opnd <= l_fld[FW-55-:64] & l_mask;
          c_cmp <= l_fld[FW-119-:64] & l_mask;
          c_old <= l_old & l_mask;
          last_f <= use_f;
          cs <= C_CALC;
        end
        C_CALC: begin
          c_new <= calc;
          c_skip <= c_op == `KOLO_OP_CSWAP && c_old != c_cmp;
          cs <= C_WR;
        end
        C_WR: if (c_skip || wr_fire) cs <= C_LOAD;
        default: cs <= C_LOAD;
      endcase
    end
  end
  assign wr_valid = cs == C_WR && !c_skip;
  assign wr_addr = c_addr;
  assign wr_len = c_s4 ? 13'd4 : 13'd8;
  assign wr_data = c_new;

  // ---- slot state ----------------------------------------------------------------------------------
  wire [FW-1:0] t_fld = {t_addr, t_op, t_s4, t_fetch, t_opnd, t_cmp, t_tag, t_gen, t_dst, t_rs};
  always @(posedge clk) begin
    if (take) fld_m[f_slot] <= t_fld;
    for (i = 0; i < SLOTS; i = i + 1)   // (a decoder, not f_slot * 45)
      if (take && f_oh[i]) begin
        word_v[i*45+:45] <= t_addr[47:3];
        lo_v[i*2+:2] <= {t_addr[2], t_s4};
      end
    if (take && t_wait) succ_m[ch_slot] <= f_slot;
    if (rd_valid) old_m[rd_slot[SW-1:0]] <= {rd_err, rd_data};
    if (fq_push) fv_m[fq_in] <= c_fwd ? c_val : t_val;
    if (c_done) nv_m[c_slot] <= c_val;
  end
  always @(posedge clk) begin
    if (rst) begin
      used <= {SLOTS{1'b0}};
      pr_v <= 1'b0;
    end else begin
      if (take) begin
        used <= used | f_oh;
        tail <= (tail & ~ch) | f_oh;
        hsucc <= (hsucc | t_waits) & ~f_oh;
        fwd <= t_head ? fwd & ~f_oh : fwd | f_oh;
        dok <= dok & ~f_oh;
        derr <= derr & ~f_oh;
      end
      if (resp_take) used[rsq_out] <= 1'b0;
      if (c_done) dok[c_slot] <= 1'b1;
      if (rd_valid && rd_err) derr[rd_slot[SW-1:0]] <= 1'b1;
      // a failed read leaves the data queue with a follower waiting: the follower reads
      pr_v <= d_err_pop && hsucc[dq_out];
      if (d_err_pop && hsucc[dq_out]) begin
        fwd[succ_m[dq_out]] <= 1'b0;
        pr_slot <= succ_m[dq_out];
      end
    end
  end

  // ---- responses ------------------------------------------------------------------------------
  wire [FW-1:0] r_fld = fld_m[rsq_out];
  wire r_fwd = fwd[rsq_out];
  wire [64:0] r_old = r_fwd ? {1'b0, fv_m[rsq_out]} : old_m[rsq_out];
  assign resp_valid = rsq_valid;
  assign resp_addr = r_fld[FW-1-:48];
  assign resp_s4 = r_fld[FW-53];
  assign resp_fetch = r_fld[FW-54];
  assign resp_tag = r_fld[36+:8];
  assign resp_gen = r_fld[35];
  assign resp_dst = r_fld[23+:12];
  assign resp_rs = r_fld[0+:23];
  assign resp_err = r_old[64];
  assign resp_old = r_old[63:0] & (resp_s4 ? 64'h00000000ffffffff : 64'hffffffffffffffff);

  assign dbg = {|used, cs};
  wire unused_fld = &{1'b0, r_fld[FW-49-:4], r_fld[FW-55-:128], l_fld[FW-54], l_fld[43:0]};
  wire unused_slot = &{1'b0, rd_slot};  // the id bits above the slot number
  wire unused_lo = &{1'b0, q_lo[2:0], t_reread};  // (q_lo / 8 suffices; t_reread: tb_ni_atomic counts it)

`ifndef SYNTHESIS
`include "kolo_assert.vh"
  // the caller's contract: take only with a free slot and no conflict (a word in use, not
  // followed); data only for a slot waiting for it; a chain has one tail
  always @(posedge clk) if (!rst && take) `KOLO_ASSERT(f_any && !conflict && (q_atomic || !ch_any) && am_ok && !pr_v);
  always @(posedge clk) if (!rst && take) `KOLO_ASSERT((ch & (ch - 1'b1)) == {SLOTS{1'b0}});
  always @(posedge clk) if (!rst && rd_valid) `KOLO_ASSERT(used[rd_slot[SW-1:0]]);
`endif
endmodule
`default_nettype wire
