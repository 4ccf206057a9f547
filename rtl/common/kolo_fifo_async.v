`default_nettype none
// kolo_fifo_async - dual-clock first-word-fall-through FIFO, 2**ADDR_W words.
//
// Write side (wr_clk): a word is written when in_valid && in_ready;
// in_ready = not full. Read side (rd_clk): out_valid = not empty, out_data is
// the oldest word (combinational read of the storage array), and the word
// leaves when out_valid && out_ready.
// Clock crossing: each side keeps a binary pointer with one wrap bit and its
// Gray-code copy in a register; only the registered Gray pointer crosses, through
// a two-flop synchroniser, so the other side sees either the old or the new
// value of the one bit that changes. Full and empty are computed against the
// synchronised (late) pointer of the other side, so they are conservative:
// in_ready and out_valid may lag by up to about three cycles of the other
// clock, never lead. A word written is visible to the reader only after its
// pointer update has crossed, so the storage read never races the write.
// Reset: wr_rst (sync to wr_clk) and rd_rst (sync to rd_clk) must be asserted
// together, overlapping by at least one edge of each clock, and empty the
// FIFO; resetting only one side is not supported.
// Timing constraints: the paths into the first synchroniser flops
// (wr_gray -> rd_sync1_gray, rd_gray -> wr_sync1_gray) and the storage read
// path (mem -> out_data) need set_max_delay -datapath_only of one read/write
// clock period (or an equivalent CDC constraint); both synchroniser stages
// carry ASYNC_REG.
module kolo_fifo_async #(
    parameter WIDTH  = 8,
    parameter ADDR_W = 4
) (
    input  wire             wr_clk,
    input  wire             wr_rst,
    input  wire             in_valid,
    output wire             in_ready,
    input  wire [WIDTH-1:0] in_data,
    input  wire             rd_clk,
    input  wire             rd_rst,
    output wire             out_valid,
    input  wire             out_ready,
    output wire [WIDTH-1:0] out_data
);
  localparam integer PW = ADDR_W + 1;  // pointer width: address + wrap bit
  localparam integer DEPTH = 1 << ADDR_W;
  localparam [PW-1:0] PTR_ONE = 1;
  localparam [PW-1:0] LAP = 3 << (PW - 2);  // Gray distance of one lap: top two bits

  reg [WIDTH-1:0] mem[0:DEPTH-1];
  reg [PW-1:0] rd_gray;  // read pointer in Gray code (read side, below)

  // ---- write side -----------------------------------------------------------
  reg [PW-1:0] wr_bin;
  reg [PW-1:0] wr_gray;
  (* ASYNC_REG = "TRUE" *) reg [PW-1:0] wr_sync1_gray;  // rd_gray, first stage
  (* ASYNC_REG = "TRUE" *) reg [PW-1:0] wr_sync2_gray;  // rd_gray, usable
  wire [PW-1:0] wr_bin_next = wr_bin + PTR_ONE;
  // Full: the read pointer is one lap behind (in Gray: top two bits inverted).
  wire full = (wr_gray == (wr_sync2_gray ^ LAP));
  wire do_write = in_valid && !full;
  assign in_ready = !full;

  always @(posedge wr_clk) begin
    if (do_write) mem[wr_bin[ADDR_W-1:0]] <= in_data;
  end

  always @(posedge wr_clk) begin
    if (wr_rst) begin
      wr_bin        <= {PW{1'b0}};
      wr_gray       <= {PW{1'b0}};
      wr_sync1_gray <= {PW{1'b0}};
      wr_sync2_gray <= {PW{1'b0}};
    end else begin
      if (do_write) begin
        wr_bin  <= wr_bin_next;
        wr_gray <= wr_bin_next ^ (wr_bin_next >> 1);
      end
      wr_sync1_gray <= rd_gray;
      wr_sync2_gray <= wr_sync1_gray;
    end
  end

  // ---- read side ------------------------------------------------------------
  reg [PW-1:0] rd_bin;  // (rd_gray: declared above, where the write side samples it)
  (* ASYNC_REG = "TRUE" *) reg [PW-1:0] rd_sync1_gray;  // wr_gray, first stage
  (* ASYNC_REG = "TRUE" *) reg [PW-1:0] rd_sync2_gray;  // wr_gray, usable
  wire [PW-1:0] rd_bin_next = rd_bin + PTR_ONE;
  wire empty = (rd_gray == rd_sync2_gray);
  wire do_read = out_ready && !empty;
  assign out_valid = !empty;
  assign out_data = mem[rd_bin[ADDR_W-1:0]];

  always @(posedge rd_clk) begin
    if (rd_rst) begin
      rd_bin        <= {PW{1'b0}};
      rd_gray       <= {PW{1'b0}};
      rd_sync1_gray <= {PW{1'b0}};
      rd_sync2_gray <= {PW{1'b0}};
    end else begin
      if (do_read) begin
        rd_bin  <= rd_bin_next;
        rd_gray <= rd_bin_next ^ (rd_bin_next >> 1);
      end
      rd_sync1_gray <= wr_gray;
      rd_sync2_gray <= rd_sync1_gray;
    end
  end

`ifdef FORMAL
  /* verilator lint_off WIDTH */  // formal-only arithmetic
`ifdef YOSYS
  // Run with clk2fflogic: both clocks are free inputs sampled at every
  // global formal step, so any interleaving and ratio of edges is explored.
  // Reset protocol (assumed, as documented above): both resets stay high
  // until each side has seen a clock edge in reset, and are low afterwards.
  // The invariants are checked at every step from then on.
  reg f_wr_clk_q = 1'b0, f_rd_clk_q = 1'b0, f_wr_rst_q = 1'b0, f_rd_rst_q = 1'b0;
  reg f_wr_did_q = 1'b0, f_rd_did_q = 1'b0;
  // a flop update in this step used a D computed with reset high
  wire f_wr_did = f_wr_did_q || (wr_clk && !f_wr_clk_q && f_wr_rst_q);
  wire f_rd_did = f_rd_did_q || (rd_clk && !f_rd_clk_q && f_rd_rst_q);
  wire f_reset_done = f_wr_did && f_rd_did;
  always @($global_clock) begin
    f_wr_clk_q <= wr_clk;
    f_rd_clk_q <= rd_clk;
    f_wr_rst_q <= wr_rst;
    f_rd_rst_q <= rd_rst;
    f_wr_did_q <= f_wr_did;
    f_rd_did_q <= f_rd_did;
  end
  always @(*) begin
    if (!f_reset_done) begin
      assume(wr_rst && rd_rst);
    end else begin
      assume(!wr_rst && !rd_rst);
    end
  end
`else
  // Simulation (Verilator builds define FORMAL too): the reset protocol is
  // not checked; it is the condition of the checks instead. They run while
  // each side has seen a clock edge in reset and neither reset is high.
  reg f_wr_did = 1'b0, f_rd_did = 1'b0;
  always @(posedge wr_clk) if (wr_rst) f_wr_did <= 1'b1;
  always @(posedge rd_clk) if (rd_rst) f_rd_did <= 1'b1;
  wire f_reset_done = f_wr_did && f_rd_did && !wr_rst && !rd_rst;
`endif
  // A side that has been reset holds its reset state until both have.
  always @(*) begin
    if (f_wr_did && !f_rd_did)
      assert(wr_bin == 0 && wr_gray == 0 && wr_sync1_gray == 0 && wr_sync2_gray == 0);
    if (f_rd_did && !f_wr_did)
      assert(rd_bin == 0 && rd_gray == 0 && rd_sync1_gray == 0 && rd_sync2_gray == 0);
  end

  function [PW-1:0] f_gray2bin(input [PW-1:0] g);
    integer k;
    begin
      f_gray2bin[PW-1] = g[PW-1];
      for (k = PW - 2; k >= 0; k = k - 1) f_gray2bin[k] = f_gray2bin[k+1] ^ g[k];
    end
  endfunction
  // Every pointer as a distance ahead of the oldest one, the write side's
  // view of the read pointer; they must stay in this order, within one lap.
  wire [PW-1:0] f_base = f_gray2bin(wr_sync2_gray);
  wire [PW-1:0] f_rs1 = f_gray2bin(wr_sync1_gray) - f_base;
  wire [PW-1:0] f_rd = rd_bin - f_base;
  wire [PW-1:0] f_ws2 = f_gray2bin(rd_sync2_gray) - f_base;
  wire [PW-1:0] f_ws1 = f_gray2bin(rd_sync1_gray) - f_base;
  wire [PW-1:0] f_wr = wr_bin - f_base;
  wire [PW-1:0] f_used = wr_bin - rd_bin;  // words truly held

  always @(*) begin
    if (f_reset_done) begin
      assert(wr_gray == (wr_bin ^ (wr_bin >> 1)));
      assert(rd_gray == (rd_bin ^ (rd_bin >> 1)));
      assert(f_rs1 <= f_rd);
      assert(f_rd <= f_ws2);
      assert(f_ws2 <= f_ws1);
      assert(f_ws1 <= f_wr);
      assert(f_wr <= DEPTH);
      // no overflow, no underflow
      assert(f_used <= DEPTH);
      if (out_valid) assert(f_used != 0);
      if (in_ready) assert(f_used != DEPTH);
    end
  end
  // Data: follow one arbitrary written word (f_pick) until it is read. While
  // it is held it sits unchanged at its slot, and it is what the reader sees
  // when the read pointer reaches it.
`ifdef YOSYS
  (* anyseq *) wire f_pick;
`else
  reg [15:0] f_lfsr = 16'h1;  // simulation: a pseudo-random choice
  initial f_lfsr[15:1] = 15'($urandom);
  always @(posedge wr_clk) f_lfsr <= {f_lfsr[14:0], f_lfsr[15] ^ f_lfsr[13] ^ f_lfsr[12] ^ f_lfsr[10]};
  wire f_pick = f_lfsr[0];
`endif
  reg f_tracking = 1'b0;  // write side: a word has been picked
  reg f_consumed = 1'b0;  // read side: ... and it has been read
  reg [PW-1:0] f_ptr;
  reg [WIDTH-1:0] f_data;
  always @(posedge wr_clk) begin
    if (!f_tracking && do_write && f_pick && f_reset_done && !wr_rst) begin
      f_tracking <= 1'b1;
      f_ptr <= wr_bin;
      f_data <= in_data;
    end
`ifndef YOSYS
    if (wr_rst) f_tracking <= 1'b0;  // simulation: a later reset starts over
`endif
  end
  always @(posedge rd_clk) begin
    if (f_tracking && do_read && rd_bin == f_ptr && !rd_rst) f_consumed <= 1'b1;
`ifndef YOSYS
    if (rd_rst) f_consumed <= 1'b0;
`endif
  end
  wire f_held = f_tracking && !f_consumed;
  always @(*) begin
`ifdef YOSYS
    if (!f_reset_done) assert(!f_tracking && !f_consumed);
`endif
    if (f_reset_done) begin
      if (f_consumed) assert(f_tracking);
      if (f_held) begin
        assert(f_ptr - rd_bin < f_used);
        assert(mem[f_ptr[ADDR_W-1:0]] == f_data);
        if (out_valid && rd_bin == f_ptr) assert(out_data == f_data);
      end
      cover(!in_ready);
      cover(f_consumed);
    end
  end
  /* verilator lint_on WIDTH */
`endif
endmodule
`default_nettype wire
