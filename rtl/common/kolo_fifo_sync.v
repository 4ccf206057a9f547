`default_nettype none
// kolo_fifo_sync - single-clock first-word-fall-through FIFO.
//
// DEPTH entries of WIDTH bits; DEPTH may be any integer >= 2 (the pointers
// wrap explicitly, so non-powers of two such as 80 cost no extra storage).
// Handshake (valid/ready on both sides):
//   - a word is written when in_valid && in_ready; in_ready = !full. in_ready
//     does not look at out_ready: a full FIFO refuses a write even in a cycle
//     in which it is read (no combinational path from out_ready to in_ready).
//   - out_valid = !empty and out_data is the oldest word, read combinationally
//     from the storage array; the word leaves when out_valid && out_ready.
//   - a word written into an empty FIFO becomes visible on the next cycle.
//   - count is the number of words held (0..DEPTH).
// Synchronous active-high rst empties the FIFO (the storage is not cleared).
module kolo_fifo_sync #(
    parameter WIDTH = 8,
    parameter DEPTH = 4
) (
    input  wire                       clk,
    input  wire                       rst,
    input  wire                       in_valid,
    output wire                       in_ready,
    input  wire [WIDTH-1:0]           in_data,
    output wire                       out_valid,
    input  wire                       out_ready,
    output wire [WIDTH-1:0]           out_data,
    output wire [$clog2(DEPTH+1)-1:0] count
);
  localparam integer AW = $clog2(DEPTH);
  localparam integer CW = $clog2(DEPTH + 1);
  localparam integer LAST_I = DEPTH - 1;
  localparam [AW-1:0] LAST = LAST_I[AW-1:0];
  localparam [AW-1:0] PTR_ONE = 1;
  localparam [CW-1:0] CNT_ONE = 1;
  localparam [CW-1:0] FULL = DEPTH[CW-1:0];

  reg [WIDTH-1:0] mem[0:DEPTH-1];
  reg [AW-1:0] rd_ptr;
  reg [AW-1:0] wr_ptr;
  reg [CW-1:0] used;

  wire do_write = in_valid && in_ready;
  wire do_read = out_valid && out_ready;

  assign in_ready = (used != FULL);
  assign out_valid = (used != {CW{1'b0}});
  assign out_data = mem[rd_ptr];
  assign count = used;

  always @(posedge clk) begin
    if (do_write) mem[wr_ptr] <= in_data;
  end

  always @(posedge clk) begin
    if (rst) begin
      rd_ptr <= {AW{1'b0}};
      wr_ptr <= {AW{1'b0}};
      used   <= {CW{1'b0}};
    end else begin
      if (do_write) wr_ptr <= (wr_ptr == LAST) ? {AW{1'b0}} : wr_ptr + PTR_ONE;
      if (do_read) rd_ptr <= (rd_ptr == LAST) ? {AW{1'b0}} : rd_ptr + PTR_ONE;
      if (do_write && !do_read) used <= used + CNT_ONE;
      else if (do_read && !do_write) used <= used - CNT_ONE;
    end
  end

`ifdef FORMAL
  /* verilator lint_off WIDTH */  // 32-bit arithmetic below: formal-only code
  /* verilator lint_off CMPCONST */  // the pointer range checks are constant for some DEPTH
  // Properties hold from the cycle after the first reset on; nothing is
  // assumed about the inputs, so they stay valid inside any parent.
  reg f_rst_seen = 1'b0;
  always @(posedge clk) if (rst) f_rst_seen <= 1'b1;

  // Occupancy as the pointers see it (equal pointers: empty or full).
  // (32-bit arithmetic: formal-only code, widths need no care here)
  wire [31:0] f_ptr_diff = (wr_ptr >= rd_ptr) ? wr_ptr - rd_ptr : DEPTH + wr_ptr - rd_ptr;

  always @(*) begin
    if (f_rst_seen) begin
      assert(used <= FULL);
      assert(rd_ptr <= LAST);
      assert(wr_ptr <= LAST);
      assert(out_valid == (count != 0));
      assert(in_ready == (count != FULL));
      if (used == FULL) begin
        assert(f_ptr_diff == 0);
      end else begin
        assert(f_ptr_diff == used);
      end
    end
  end

  // Data ordering: follow one arbitrary accepted word (chosen by the solver
  // through f_pick) and check that it leaves exactly when every word ahead
  // of it has left, carrying the data it was written with. In simulation
  // (Verilator builds define FORMAL too) the choice is pseudo-random.
`ifdef YOSYS
  (* anyseq *) wire f_pick;
`else
  reg [15:0] f_lfsr = 16'h1;
  initial f_lfsr[15:1] = 15'($urandom);
  always @(posedge clk) f_lfsr <= {f_lfsr[14:0], f_lfsr[15] ^ f_lfsr[13] ^ f_lfsr[12] ^ f_lfsr[10]};
  wire f_pick = f_lfsr[0];
`endif
  reg f_tracking = 1'b0;
  reg [WIDTH-1:0] f_data;
  reg [CW-1:0] f_ahead;  // words in front of the tracked one
  wire [31:0] f_slot_sum = rd_ptr + f_ahead;
  wire [AW-1:0] f_slot = (f_slot_sum >= DEPTH) ? f_slot_sum - DEPTH : f_slot_sum;

  always @(posedge clk) begin
    if (rst) begin
      f_tracking <= 1'b0;
    end else if (f_tracking) begin
      if (do_read) begin
        if (f_ahead == 0) f_tracking <= 1'b0;
        else f_ahead <= f_ahead - CNT_ONE;
      end
    end else if (do_write && f_pick && f_rst_seen) begin
      f_tracking <= 1'b1;
      f_data <= in_data;
      f_ahead <= do_read ? used - CNT_ONE : used;
    end
  end

  always @(*) begin
    if (f_rst_seen && f_tracking) begin
      assert(f_ahead < used);
      assert(mem[f_slot] == f_data);
      if (f_ahead == 0) assert(out_valid && out_data == f_data);
    end
  end

  always @(*) begin
    if (f_rst_seen) begin
      cover(used == FULL);
      cover(f_tracking && f_ahead == FULL - CNT_ONE);
    end
  end
  /* verilator lint_on CMPCONST */
  /* verilator lint_on WIDTH */
`endif
endmodule
`default_nettype wire
