`default_nettype none
// kolo_ni_tags - the NI's 256 transaction tags: one shared pool for every
// context, and the tag table.
//
// Pool: a free list. For 256 cycles after reset the list is filled with
// every tag while the dynamic table is cleared (alloc_valid stays low).
// alloc_valid/alloc_tag offer a free tag; alloc (a pulse, only with
// alloc_valid) takes it. free/free_tag give one back (at most once per use).
// Tables, both read with one registered read port (rd_tag -> st_rdata,
// dy_rdata, rd_busy on the next cycle):
//   static  (ST_W bits): written by the send side when it takes the tag
//           (st_we), read by the response side;
//   dynamic (DY_W bits): progress of the operation, read-modify-written by
//           the response side only (dy_we). It must be written back to zero
//           before the tag is freed (the response side does so), so that a
//           taken tag always starts from zero.
// rd_busy: the tag was taken and not yet freed (responses for free tags are
// stray and dropped by the response side).
module kolo_ni_tags #(
    parameter ST_W = 204,
    parameter DY_W = 95
) (
    input  wire            clk,
    input  wire            rst,
    output wire            alloc_valid,
    output wire [7:0]      alloc_tag,
    input  wire            alloc,
    input  wire            free,
    input  wire [7:0]      free_tag,
    input  wire            st_we,
    input  wire [7:0]      st_wtag,
    input  wire [ST_W-1:0] st_wdata,
    input  wire [7:0]      rd_tag,
    output reg  [ST_W-1:0] st_rdata,
    output reg  [DY_W-1:0] dy_rdata,
    output reg             rd_busy,
    input  wire            dy_we,
    input  wire [7:0]      dy_wtag,
    input  wire [DY_W-1:0] dy_wdata,
    output wire [8:0]      n_free
);
  reg [8:0] init;  // 0..255: initialising entry init; 256: done
  wire initing = !init[8];
  always @(posedge clk) begin
    if (rst) init <= 9'd0;
    else if (initing) init <= init + 9'd1;
  end

  /* verilator lint_off UNUSEDSIGNAL */
  wire fl_in_ready;
  /* verilator lint_on UNUSEDSIGNAL */
  wire fl_valid;
  kolo_fifo_sync #(
      .WIDTH(8),
      .DEPTH(256)
  ) u_free (
      .clk(clk),
      .rst(rst),
      .in_valid(initing || free),
      .in_ready(fl_in_ready),
      .in_data(initing ? init[7:0] : free_tag),
      .out_valid(fl_valid),
      .out_ready(alloc),
      .out_data(alloc_tag),
      .count(n_free)
  );
  assign alloc_valid = fl_valid && !initing;

  reg [ST_W-1:0] st[0:255];
  reg [DY_W-1:0] dy[0:255];
  always @(posedge clk) if (st_we) st[st_wtag] <= st_wdata;
  wire dw = initing || dy_we;
  wire [7:0] dwa = initing ? init[7:0] : dy_wtag;
  wire [DY_W-1:0] dwd = initing ? {DY_W{1'b0}} : dy_wdata;
  always @(posedge clk) if (dw) dy[dwa] <= dwd;
  always @(posedge clk) begin
    st_rdata <= st[rd_tag];
    dy_rdata <= dy[rd_tag];
  end

  // one flip-flop per tag (per-bit enables: cheaper than indexed writes)
  wire [255:0] busy;
  genvar b;
  generate
    for (b = 0; b < 256; b = b + 1) begin : g_busy
      reg r;
      always @(posedge clk) begin
        if (rst) r <= 1'b0;
        else if (alloc && alloc_tag == b[7:0]) r <= 1'b1;
        else if (free && free_tag == b[7:0]) r <= 1'b0;
      end
      assign busy[b] = r;
    end
  endgenerate
  always @(posedge clk) rd_busy <= busy[rd_tag];

`ifndef SYNTHESIS
`include "kolo_assert.vh"
  always @(posedge clk) if (!rst) `KOLO_ASSERT(!(alloc && !alloc_valid));  // alloc without a free tag
  always @(posedge clk) if (!rst) `KOLO_ASSERT(!(free && !busy[free_tag]));  // free of a free tag
  always @(posedge clk) if (!rst) `KOLO_ASSERT(!(free && !fl_in_ready));  // free list full
`endif
endmodule
`default_nettype wire
