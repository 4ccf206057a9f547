`default_nettype none
// kolo_bits_xing - a bit stream from one clock to another at the same bit
// rate but another word width: IN_W bits every cycle of in_clk in, OUT_W
// bits every cycle of out_clk out (the ECP5 board: 32 bits at line rate / 32
// from kolo_soft_gearbox_tx to the DCU's 20 bits at line rate / 20). The two
// clocks come from one reference (their rates are exactly IN_W : OUT_W
// apart) but their phases are unrelated, so the words cross through
// kolo_fifo_async.
// Start: after reset the output sends zeros until the FIFO has not been
// empty for PRIME cycles of out_clk (a few words in it), then takes a word
// whenever fewer than OUT_W bits are left; the level then stays where it
// started (the rates match), so the FIFO neither runs dry nor full. Should it anyway (clocks not from one reference: a wrong
// board setup), a word that finds the FIFO full is dropped and an empty
// FIFO sends zeros, each counted by a pulse (in_drop, out_starved), and the
// far end's block lock fails and retrains.
// Bit order: bit 0 first, in and out. Latency: PRIME words plus the FIFO's
// crossing (a few cycles of each clock).
// Reset: in_rst and out_rst (each synchronous to its clock) asserted
// together, as kolo_fifo_async needs.
module kolo_bits_xing #(
    parameter IN_W  = 32,
    parameter OUT_W = 20,
    parameter PRIME = 4   // out_clk cycles the FIFO must be non-empty before the output starts
) (
    input  wire             in_clk,
    input  wire             in_rst,
    input  wire [IN_W-1:0]  in_bits,
    output wire             in_drop,
    input  wire             out_clk,
    input  wire             out_rst,
    output reg  [OUT_W-1:0] out_bits,
    output reg              out_starved
);
  generate
    if (IN_W < OUT_W || OUT_W < 1 || IN_W > 64 || PRIME < 1 || PRIME > 7) begin : g_bad
      kolo_bits_xing_PARAMETER_ERROR_IN_W_at_least_OUT_W_PRIME_1_to_7 u_error ();
    end
  endgenerate

  wire             f_ready, f_valid;
  wire [IN_W-1:0]  f_data;
  reg              f_take;
  kolo_fifo_async #(.WIDTH(IN_W), .ADDR_W(3)) u_fifo (
      .wr_clk(in_clk), .wr_rst(in_rst), .in_valid(1'b1), .in_ready(f_ready), .in_data(in_bits),
      .rd_clk(out_clk), .rd_rst(out_rst), .out_valid(f_valid), .out_ready(f_take), .out_data(f_data)
  );
  assign in_drop = !f_ready;

  localparam LW = $clog2(IN_W + OUT_W + 1);
  localparam [LW-1:0] NEED = OUT_W;
  localparam [LW-1:0] INW = IN_W;
  reg  [IN_W+OUT_W-1:0] buffer;   // bits not sent yet (level of them), bit 0 first
  reg  [LW-1:0]         level;
  reg                   started;
  reg  [2:0]            prime_cnt;
  wire                  low = level < NEED;
  wire [2*IN_W+OUT_W-1:0] joined = {{IN_W{1'b0}}, buffer} | ({{(IN_W + OUT_W) {1'b0}}, f_data} << level);
  always @(*) f_take = started && low && f_valid;
  always @(posedge out_clk) begin
    out_starved <= 1'b0;
    if (out_rst) begin
      buffer <= {(IN_W + OUT_W) {1'b0}};
      level <= {LW{1'b0}};
      started <= 1'b0;
      prime_cnt <= 3'd0;
      out_bits <= {OUT_W{1'b0}};
    end else if (!started) begin
      out_bits <= {OUT_W{1'b0}};
      // f_valid stays high while words wait; count cycles it has been high
      // as a stand-in for the level (the write side adds one word per
      // in_clk cycle, at least as often as this clock's OUT_W/IN_W)
      if (f_valid) prime_cnt <= prime_cnt + 3'd1;
      if (prime_cnt == PRIME[2:0]) started <= 1'b1;
    end else if (low && f_valid) begin
      out_bits <= joined[OUT_W-1:0];
      buffer <= joined[IN_W+2*OUT_W-1:OUT_W];
      level <= level + INW - NEED;
    end else if (low) begin
      out_bits <= buffer[OUT_W-1:0];  // starved: what there is, the rest old bits
      out_starved <= 1'b1;
      buffer <= {(IN_W + OUT_W) {1'b0}};
      level <= {LW{1'b0}};
    end else begin
      out_bits <= buffer[OUT_W-1:0];
      buffer <= buffer >> OUT_W;
      level <= level - NEED;
    end
  end
  wire unused = &{1'b0, joined[2*IN_W+OUT_W-1:IN_W+2*OUT_W]};
endmodule
`default_nettype wire
