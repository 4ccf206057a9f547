`default_nettype none
// tb_ni_atomic - kolo_ni_atomic against a reference (Icarus): random atomics
// (every op, 4- and 8-byte, 8 words so that one word often has a chain of
// several) are taken whenever the unit has a free slot and no conflict.
// Responses on one word must come in take order; the reference executes
// each at its response, in that order (words are independent), so every
// response's old value and the final memory must equal the reference's.
// The host model accepts reads and writes at random, answers reads after a
// random delay, out of order, reading memory when the data leaves (a write
// accepted before is seen); reads of a "bad" word (address bit 6) fail one
// time in two (NAK, nothing written; a chain's follower then reads itself).
// Plusargs: +seed=N (printed; replay with SEED=N), +n=N atomics, +words=1
// (a stream to one word, 8-byte with a 4-byte one now and then; a quarter of it
// to a bad word).
// Planted bugs (BUG_NO_LOCK: no word lock; BUG_STALE_FWD: a follower gets
// its predecessor's old value) must be caught: make test-unit-ni-atomic.
module tb_ni_atomic;
  parameter SLOTS = 4;
  parameter BUG_NO_LOCK = 0;
  parameter BUG_STALE_FWD = 0;
  `include "kolo_ni_regs.vh"
  reg clk = 1'b0, rst = 1'b1;
  always #2 clk = !clk;

  integer seed, seed0, n_ops, errors, taken, answered, i;
  reg [63:0] mem[0:15];     // words 0..15 (addr bits 6:3); bit 6 set: a bad word (reads may fail)
  reg [63:0] ref_mem[0:15];
  reg [47:0] x_addr[0:255]; // per tag in flight: the request
  reg [3:0] x_op[0:255];
  reg x_s4[0:255], x_fetch[0:255];
  reg [63:0] x_opnd[0:255], x_cmp[0:255];
  reg [7:0] wq[0:16*256-1]; // per word: tags in take order
  integer wq_h[0:15], wq_t[0:15];
  integer n_words, n_fwd, n_reread, w;
  reg [255:0] tag_out;

  // ---- the unit -----------------------------------------------------------------------------
  wire free, busy, conflict;
  reg take;
  reg [47:0] t_addr;
  reg [3:0] t_op;
  reg t_s4, t_fetch;
  reg [63:0] t_opnd, t_cmp;
  reg [7:0] t_tag;
  wire rq_valid;
  reg rq_ready;
  wire [47:0] rq_addr;
  wire [12:0] rq_len;
  wire [7:0] rq_id;
  reg rd_valid;
  reg [63:0] rd_data;
  reg [5:0] rd_slot;
  reg rd_err;
  wire wr_valid;
  reg wr_ready;
  wire [47:0] wr_addr;
  wire [12:0] wr_len;
  wire [63:0] wr_data;
  wire resp_valid;
  reg resp_take;
  wire resp_err, resp_fetch, resp_s4, resp_gen;
  wire [47:0] resp_addr;
  wire [63:0] resp_old;
  wire [7:0] resp_tag;
  wire [11:0] resp_dst;
  wire [22:0] resp_rs;
  wire [2:0] dbg;
  wire [48:0] t_end = {1'b0, t_addr} + (t_s4 ? 49'd4 : 49'd8);
  kolo_ni_atomic #(.SLOTS(SLOTS), .BUG_NO_LOCK(BUG_NO_LOCK), .BUG_STALE_FWD(BUG_STALE_FWD)) dut (
      .clk(clk), .rst(rst), .free(free), .busy(busy), .q_lo({1'b0, t_addr}), .q_end(t_end), .q_atomic(1'b1),
      .conflict(conflict), .take(take), .t_addr(t_addr), .t_op(t_op), .t_s4(t_s4),
      .t_fetch(t_fetch), .t_opnd(t_opnd), .t_cmp(t_cmp), .t_tag(t_tag), .t_gen(t_tag[0]),
      .t_dst(12'h5a5), .t_rs({15'd0, t_tag}),
      .rq_valid(rq_valid), .rq_ready(rq_ready), .rq_addr(rq_addr), .rq_len(rq_len), .rq_id(rq_id),
      .rd_valid(rd_valid), .rd_data(rd_data), .rd_slot(rd_slot), .rd_err(rd_err),
      .wr_valid(wr_valid), .wr_fire(wr_valid && wr_ready), .wr_addr(wr_addr), .wr_len(wr_len),
      .wr_data(wr_data),
      .resp_valid(resp_valid), .resp_take(resp_take), .resp_err(resp_err), .resp_fetch(resp_fetch),
      .resp_s4(resp_s4), .resp_addr(resp_addr), .resp_old(resp_old), .resp_tag(resp_tag),
      .resp_gen(resp_gen), .resp_dst(resp_dst), .resp_rs(resp_rs), .dbg(dbg)
  );

  // ---- reference --------------------------------------------------------------------------------
  function [63:0] apply;  // new word value
    input [3:0] op;
    input s4;
    input [63:0] old, opnd, cmp;
    reg [63:0] r;
    begin
      case (op)
        `KOLO_OP_ADD, `KOLO_OP_FETCH_ADD: r = old + opnd;
        `KOLO_OP_XOR, `KOLO_OP_FETCH_XOR: r = old ^ opnd;
        `KOLO_OP_SWAP: r = opnd;
        `KOLO_OP_CSWAP: r = (old == cmp) ? opnd : old;
        `KOLO_OP_FETCH_AND: r = old & opnd;
        default: r = old | opnd;
      endcase
      apply = s4 ? {32'd0, r[31:0]} : r;
    end
  endfunction
  function [63:0] word_rd;  // the 4 or 8 bytes at a (4-byte: zero-extended)
    input [63:0] w;
    input [47:0] a;
    input s4;
    word_rd = !s4 ? w : a[2] ? {32'd0, w[63:32]} : {32'd0, w[31:0]};
  endfunction
  function [63:0] word_wr;
    input [63:0] w;
    input [47:0] a;
    input s4;
    input [63:0] v;
    word_wr = !s4 ? v : a[2] ? {v[31:0], w[31:0]} : {w[63:32], v[31:0]};
  endfunction

  // ---- host: reads answered out of order after a random delay ---------------------------------
  localparam HQ = 64;
  reg [47:0] h_addr[0:HQ-1];
  reg h_s4[0:HQ-1];
  reg [5:0] h_slot[0:HQ-1];
  integer h_due[0:HQ-1];
  reg [HQ-1:0] h_used;
  integer now, k, pick;
  reg [63:0] v;
  reg [3:0] ops[0:9];

  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    seed0 = seed;
    if (!$value$plusargs("n=%d", n_ops)) n_ops = 3000;
    if (!$value$plusargs("words=%d", n_words)) n_words = 8;
    $display("tb_ni_atomic: seed %0d (replay: SEED=%0d), %0d atomics, %0d slots, %0d words%s%s", seed,
             seed, n_ops, SLOTS, n_words, BUG_NO_LOCK ? ", planted bug: no word lock" : "",
             BUG_STALE_FWD ? ", planted bug: stale forwarded value" : "");
    ops[0] = `KOLO_OP_ADD; ops[1] = `KOLO_OP_XOR; ops[2] = `KOLO_OP_FETCH_ADD;
    ops[3] = `KOLO_OP_FETCH_XOR; ops[4] = `KOLO_OP_SWAP; ops[5] = `KOLO_OP_CSWAP;
    ops[6] = `KOLO_OP_FETCH_AND; ops[7] = `KOLO_OP_FETCH_OR; ops[8] = `KOLO_OP_CSWAP;
    ops[9] = `KOLO_OP_FETCH_ADD;
    for (i = 0; i < 16; i = i + 1) begin
      mem[i] = {$random(seed), $random(seed)};
      ref_mem[i] = mem[i];
      wq_h[i] = 0;
      wq_t[i] = 0;
    end
    n_fwd = 0;
    n_reread = 0;
    errors = 0; taken = 0; answered = 0; now = 0;
    h_used = 0; tag_out = 0;
    take = 0; rq_ready = 0; rd_valid = 0; wr_ready = 0; resp_take = 0;
    t_tag = 0;
    repeat (4) @(posedge clk);
    rst <= 1'b0;
    new_op;
    while ((answered < n_ops || busy) && now < n_ops * 400) begin
      @(negedge clk);
      now = now + 1;
      // drive: take, read ready, write ready, data, response take
      take = free && !conflict && taken < n_ops && !tag_out[t_tag];
      rq_ready = ($random(seed) & 3) != 0;
      wr_ready = ($random(seed) & 3) != 0;
      resp_take = resp_valid && (($random(seed) & 3) != 0);
      rd_valid = 0;
      pick = -1;
      for (k = 0; k < HQ; k = k + 1)
        if (h_used[k] && h_due[k] <= now && (pick < 0 || ($random(seed) & 1))) pick = k;
      if (pick >= 0) begin
        rd_valid = 1;
        rd_slot = h_slot[pick];
        rd_err = h_addr[pick][6] && ($random(seed) & 1);
        v = rd_err ? {$random(seed), $random(seed)} : word_rd(mem[h_addr[pick][6:3]], h_addr[pick], h_s4[pick]);
        rd_data = v;
      end
      @(posedge clk);
      // effects of this cycle's handshakes
      if (pick >= 0) h_used[pick] = 0;
      if (dut.d_err_pop && dut.hsucc[dut.dq_out]) n_reread = n_reread + 1;  // a follower reads itself
      if (rq_valid && rq_ready) begin
        k = 0;
        while (h_used[k]) k = k + 1;
        h_used[k] = 1;
        h_addr[k] = rq_addr;
        h_s4[k] = rq_len == 13'd4;
        h_slot[k] = rq_id[5:0];
        h_due[k] = now + 1 + ($random(seed) & 31);
        if (rq_id[7:6] != 2'b11 || (rq_len != 13'd4 && rq_len != 13'd8)) begin
          $display("FAIL: read request id 0x%h len %0d", rq_id, rq_len); errors = errors + 1;
        end
      end
      if (wr_valid && wr_ready) begin
        if (wr_addr[47:7] != 41'd0) begin
          $display("FAIL: write to 0x%h", wr_addr); errors = errors + 1;
        end else
          mem[wr_addr[6:3]] = word_wr(mem[wr_addr[6:3]], wr_addr, wr_len == 13'd4, wr_data);
      end
      if (resp_valid && resp_take) begin
        answered = answered + 1;
        w = resp_addr[6:3];
        if (!tag_out[resp_tag]) begin
          $display("FAIL: response for tag %0d not in flight", resp_tag); errors = errors + 1;
        end else if (wq_h[w] == wq_t[w] || wq[w*256 + wq_h[w] % 256] !== resp_tag) begin
          $display("FAIL: tag %0d answered out of its word's take order", resp_tag); errors = errors + 1;
        end else begin
          // reference: executed now, in take order per word; a failed read only at a bad word
          wq_h[w] = wq_h[w] + 1;
          v = word_rd(ref_mem[w], x_addr[resp_tag], x_s4[resp_tag]);
          if (resp_err !== 1'b0 && !(resp_err === 1'b1 && x_addr[resp_tag][6]) ||
              (!resp_err && resp_old !== v) || resp_addr !== x_addr[resp_tag] ||
              resp_fetch !== x_fetch[resp_tag] || resp_s4 !== x_s4[resp_tag] || resp_dst !== 12'h5a5 ||
              resp_rs !== {15'd0, resp_tag} || resp_gen !== resp_tag[0]) begin
            if (errors < 10)
              $display("FAIL: tag %0d at 0x%h: err %0d old 0x%h, expected old 0x%h",
                       resp_tag, resp_addr, resp_err, resp_old, v);
            errors = errors + 1;
          end
          if (!resp_err)
            ref_mem[w] = word_wr(ref_mem[w], x_addr[resp_tag], x_s4[resp_tag],
                                 apply(x_op[resp_tag], x_s4[resp_tag], v,
                                       x_s4[resp_tag] ? {32'd0, x_opnd[resp_tag][31:0]} : x_opnd[resp_tag],
                                       x_s4[resp_tag] ? {32'd0, x_cmp[resp_tag][31:0]} : x_cmp[resp_tag]));
        end
        tag_out[resp_tag] = 0;
      end
      if (take) begin
        if (conflict === 1'b0 && dut.ch_any) n_fwd = n_fwd + 1;
        if (dut.ch_any && dut.t_reread) n_reread = n_reread + 1;
        tag_out[t_tag] = 1;
        x_addr[t_tag] = t_addr;
        x_op[t_tag] = t_op;
        x_s4[t_tag] = t_s4;
        x_fetch[t_tag] = t_fetch;
        x_opnd[t_tag] = t_opnd;
        x_cmp[t_tag] = t_cmp;
        w = t_addr[6:3];
        wq[w*256 + wq_t[w] % 256] = t_tag;
        wq_t[w] = wq_t[w] + 1;
        taken = taken + 1;
        new_op;
      end
    end
    for (i = 0; i < 16; i = i + 1)
      if (mem[i] !== ref_mem[i]) begin
        $display("FAIL: word %0d = 0x%h, reference 0x%h", i, mem[i], ref_mem[i]);
        errors = errors + 1;
      end
    if (answered != n_ops) begin
      $display("FAIL: %0d of %0d atomics answered (hang?)", answered, n_ops);
      errors = errors + 1;
    end
    if (errors == 0)
      $display("PASS tb_ni_atomic: %0d atomics (%0d followed a chain, %0d of them read after a failed read) in %0d cycles, results and memory as the reference (seed %0d)",
               n_ops, n_fwd, n_reread, now, seed0);
    else
      $display("FAIL tb_ni_atomic: %0d errors (seed %0d)", errors, seed0);
    $finish;
  end

  task new_op;
    begin
      t_tag = t_tag + 8'd1;
      t_op = ops[{$random(seed)} % 10];
      t_s4 = $random(seed) & 1;
      t_fetch = $random(seed) & 1;
      // 8 good words, often the same ones; 1 in 32 at a bad word
      t_addr = 48'd0;
      if (n_words == 1) begin  // one word: 8-byte, 1 in 16 a 4-byte one; every 4th run of 256 at a bad word
        t_s4 = ({$random(seed)} % 16) == 0;
        if (taken % 1024 >= 768) t_addr[6] = 1'b1;
      end else begin
        t_addr[5:3] = ($random(seed) & 1) ? ($random(seed) & 1) : $random(seed);
        if (({$random(seed)} % 32) == 0) t_addr[6] = 1'b1;
      end
      t_addr[2] = t_s4 & $random(seed);
      t_opnd = {$random(seed), $random(seed)};
      t_cmp = ($random(seed) & 1) ? (t_s4 ? word_rd(ref_mem[t_addr[6:3]], t_addr, 1'b1) : ref_mem[t_addr[6:3]])
                                  : {$random(seed), $random(seed)};
    end
  endtask
endmodule
`default_nettype wire
