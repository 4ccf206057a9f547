`default_nettype none
// kolo_ni_atomic - the target side's atomic unit (kolo_ni_tgt): up to SLOTS
// atomics in flight at once, each on its own 8-byte word, so that atomics
// to different words overlap their host memory round trips (limited by the
// slots and the endpoint's read tags, not by one round trip each).
//
// An atomic enters a free slot (take, with the request's fields); the
// caller takes one only when a slot is free (free) and no slot holds an
// atomic on the same 8-byte word: `conflict` tells whether the bytes
// [q_lo, q_end) overlap the word of any slot in use (the caller also holds
// PUTs and GETs on such a word back). A slot's life:
//   1. read request: slots in the order they were taken (rdq FIFO), one
//      DMA read of 4 or 8 bytes each, id {2'b11, slot}; rq_* have priority
//      over the caller's other reads;
//   2. its data (rd_valid: the caller passes only ids 2'b11.., one beat)
//      stores the old value and the error bit, the slot joins the compute
//      queue (dq FIFO);
//   3. compute, one slot at a time: load (C_LOAD), result (C_CALC), DMA
//      write of the new value (C_WR; a CSWAP that does not match and a
//      failed read write nothing); the slot joins the response queue;
//   4. response: resp_valid with the slot's fields (resp_*) until
//      resp_take; the slot (and its word) is free from the next cycle.
// The word stays locked from take to the response, so the next atomic on
// it reads only after this one's write was accepted by the DMA port (the
// endpoint keeps reads behind accepted writes): atomics on one word are
// executed one after the other, in arrival order, with the results of the
// one-at-a-time unit (and of the C model). Different words are independent.
// Handshakes: rq_valid/rq_ready; wr_valid/wr_fire (wr_fire = the caller's
// write port took the beat; the caller holds its port for the unit while
// wr_valid is up); resp_valid/resp_take.
// Latency: take to read request 1 cycle (an empty rdq); data to write 3
// cycles; at most one atomic per 3 cycles through compute.
// Reset: synchronous, empties every queue and frees every slot.
module kolo_ni_atomic #(
    parameter SLOTS = 32,  // atomics in flight, 1..32
    parameter BUG_NO_LOCK = 0  // tests only: 1 = no word lock (a planted bug tb_ni_atomic must catch)
) (
    input  wire          clk,
    input  wire          rst,
    // new atomic (take only with free && !conflict)
    output wire          free,
    output wire          busy,        // a slot is in use
    input  wire [48:0]   q_lo,        // bytes the caller's request touches: [q_lo, q_end)
    input  wire [48:0]   q_end,
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
  reg [64:0] old_m[0:SLOTS-1];      // {err, raw data bits 63:0}
  reg [SLOTS-1:0] used;
  reg [SLOTS*45-1:0] word_v;        // addr bits 47:3 of each slot (parallel compares)

  // the lowest free slot
  reg [SW-1:0] f_slot;
  reg f_any;
  integer i;
  always @(*) begin
    f_slot = {SW{1'b0}};
    f_any = 1'b0;
    for (i = SLOTS - 1; i >= 0; i = i - 1)
      if (!used[i]) begin
        f_slot = i[SW-1:0];
        f_any = 1'b1;
      end
  end
  assign free = f_any;
  assign busy = |used;

  // conflict: the request's bytes overlap the 8-byte word of a slot in use
  reg hit;
  always @(*) begin
    hit = 1'b0;
    for (i = 0; i < SLOTS; i = i + 1)
      if (used[i] && q_lo < {1'b0, word_v[i*45+:45], 3'b000} + 49'd8 &&
          {1'b0, word_v[i*45+:45], 3'b000} < q_end)
        hit = 1'b1;
  end
  assign conflict = hit && BUG_NO_LOCK == 0;

  wire [FW-1:0] t_fld = {t_addr, t_op, t_s4, t_fetch, t_opnd, t_cmp, t_tag, t_gen, t_dst, t_rs};
  always @(posedge clk) begin
    if (take) begin
      fld_m[f_slot] <= t_fld;
      word_v[f_slot*45+:45] <= t_addr[47:3];
    end
    if (rd_valid) old_m[rd_slot[SW-1:0]] <= {rd_err, rd_data};
  end

  // ---- queues ------------------------------------------------------------------------------
  wire rdq_in_ready, rdq_valid;
  wire [SW-1:0] rdq_out;
  wire dq_in_ready, dq_valid;
  wire [SW-1:0] dq_out;
  wire rsq_in_ready, rsq_valid, rsq_push;
  wire [SW-1:0] rsq_out, rsq_in;
  wire dq_pop;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [$clog2(SLOTS+2)-1:0] rdq_count, dq_count, rsq_count;
  wire unused_ready = &{1'b0, rdq_in_ready, dq_in_ready, rsq_in_ready};  // one entry per slot: never full
  /* verilator lint_on UNUSEDSIGNAL */
  kolo_fifo_sync #(.WIDTH(SW), .DEPTH(SLOTS + 1)) u_rdq (
      .clk(clk), .rst(rst), .in_valid(take), .in_ready(rdq_in_ready), .in_data(f_slot),
      .out_valid(rdq_valid), .out_ready(rq_ready), .out_data(rdq_out), .count(rdq_count)
  );
  kolo_fifo_sync #(.WIDTH(SW), .DEPTH(SLOTS + 1)) u_dq (
      .clk(clk), .rst(rst), .in_valid(rd_valid), .in_ready(dq_in_ready), .in_data(rd_slot[SW-1:0]),
      .out_valid(dq_valid), .out_ready(dq_pop), .out_data(dq_out), .count(dq_count)
  );
  kolo_fifo_sync #(.WIDTH(SW), .DEPTH(SLOTS + 1)) u_rsq (
      .clk(clk), .rst(rst), .in_valid(rsq_push), .in_ready(rsq_in_ready), .in_data(rsq_in),
      .out_valid(rsq_valid), .out_ready(resp_take), .out_data(rsq_out), .count(rsq_count)
  );

  // ---- read requests ----------------------------------------------------------------------
  wire [FW-1:0] rq_fld = fld_m[rdq_out];
  wire rq_s4 = rq_fld[FW-53];
  assign rq_valid = rdq_valid;
  assign rq_addr = rq_fld[FW-1-:48];
  assign rq_len = rq_s4 ? 13'd4 : 13'd8;
  assign rq_id = {2'b11, {(6 - SW) {1'b0}}, rdq_out};

  // ---- compute: one slot at a time ------------------------------------------------------------
  localparam C_LOAD = 2'd0, C_CALC = 2'd1, C_WR = 2'd2;
  reg [1:0] cs;
  reg [SW-1:0] c_slot;
  reg [3:0] c_op;
  reg c_s4;
  reg [47:0] c_addr;
  reg [63:0] c_opnd, c_cmp, c_old, c_new;
  wire [FW-1:0] d_fld = fld_m[dq_out];
  wire [64:0] d_old = old_m[dq_out];
  wire d_s4 = d_fld[FW-53];
  wire [63:0] d_mask = d_s4 ? 64'h00000000ffffffff : 64'hffffffffffffffff;
  assign dq_pop = cs == C_LOAD && dq_valid;
  wire d_err = d_old[64];
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
  wire c_skip = c_op == `KOLO_OP_CSWAP && c_old != c_cmp;   // no write
  // a slot joins the response queue: failed read (at load), CSWAP without a
  // match (at calc), or its write taken
  assign rsq_push = (dq_pop && d_err) || (cs == C_CALC && c_skip) || (cs == C_WR && wr_fire);
  assign rsq_in = (dq_pop && d_err) ? dq_out : c_slot;
  always @(posedge clk) begin
    if (rst) begin
      cs <= C_LOAD;
    end else begin
      case (cs)
        C_LOAD: if (dq_valid && !d_err) begin
          c_slot <= dq_out;
          c_addr <= d_fld[FW-1-:48];
          c_op <= d_fld[FW-49-:4];
          c_s4 <= d_s4;
          c_opnd <= d_fld[FW-55-:64] & d_mask;
          c_cmp <= d_fld[FW-119-:64] & d_mask;
          c_old <= d_old[63:0] & d_mask;
          cs <= C_CALC;
        end
        C_CALC: begin
          c_new <= calc;
          cs <= c_skip ? C_LOAD : C_WR;
        end
        C_WR: if (wr_fire) cs <= C_LOAD;
        default: cs <= C_LOAD;
      endcase
    end
  end
  assign wr_valid = cs == C_WR;
  assign wr_addr = c_addr;
  assign wr_len = c_s4 ? 13'd4 : 13'd8;
  assign wr_data = c_new;

  // ---- responses ------------------------------------------------------------------------------
  wire [FW-1:0] r_fld = fld_m[rsq_out];
  wire [64:0] r_old = old_m[rsq_out];
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

  always @(posedge clk) begin
    if (rst) used <= {SLOTS{1'b0}};
    else begin
      if (take) used[f_slot] <= 1'b1;
      if (resp_take) used[rsq_out] <= 1'b0;
    end
  end
  assign dbg = {|used, cs};
  wire unused_fld = &{1'b0, r_fld[FW-49-:4], r_fld[FW-55-:128], d_fld[FW-54], d_fld[43:0]};
  wire unused_slot = &{1'b0, rd_slot};  // the id bits above the slot number

`ifndef SYNTHESIS
`include "kolo_assert.vh"
  // the caller's contract: take only with a free slot and no conflict (a word in use); data
  // only for a slot waiting for it
  always @(posedge clk) if (!rst && take) `KOLO_ASSERT(f_any && !(hit && BUG_NO_LOCK == 0));
  always @(posedge clk) if (!rst && rd_valid) `KOLO_ASSERT(used[rd_slot[SW-1:0]]);
`endif
endmodule
`default_nettype wire
