`default_nettype none
// kolo_lane_deskew - aligns the block streams of LANES bonded lanes on the
// clock-compensation (CC) blocks that the transmitter sends on all lanes in
// the same lane cycle. One clock for all lanes (the lanes of a link share
// rx_lane_clk).
//
// Inputs, every cycle: per lane a descrambled block (in_blk[66*l +: 66],
// {sync, payload}), in_valid[l] (the cycle carries a block: transceiver
// gearboxes leave gaps, at different cycles on different lanes) and
// in_lock[l]. A locked lane's valid block is written into that lane's FIFO
// (DEPTH blocks); an unlocked lane's FIFO is emptied.
//   - Aligning (aligned = 0): every lane drops its head block until a CC is at
//     its head and then waits; when all lanes show CC at once, the CC row is
//     dropped and aligned rises. If a lane's FIFO fills up (DEPTH-1 blocks)
//     while aligning, all lane FIFOs are emptied and aligning starts over.
//   - Aligned: all heads leave together, one row per cycle in which every
//     lane has a head, and the row is output (out_valid, out_blk,
//     registered); a cycle in which some lane has none waits (a gap).
//     Alignment is lost (aligned falls, nothing is output, and aligning
//     restarts from the current heads) when a lane loses lock, a lane's FIFO
//     fills up (DEPTH-1 blocks: another lane stopped delivering), or some
//     lanes show a CC and others do not. "Shows a CC" for this check means control sync and type
//     0x2D, so a bit error elsewhere in one lane's CC does not cost the
//     alignment; acquiring alignment needs exact CC blocks.
// The output rows still contain the IDLE and CC blocks; the caller filters.
// Tolerated skew: DEPTH-3 blocks. The CC interval must exceed about
// 2*DEPTH so that a lane cannot wait for a CC of a different interval.
// Synchronous active-high rst.
module kolo_lane_deskew #(
    parameter LANES = 2,  // >= 2
    parameter DEPTH = 16  // blocks per lane FIFO, >= 4
) (
    input  wire                  clk,
    input  wire                  rst,
    input  wire [LANES-1:0]      in_lock,
    input  wire [LANES-1:0]      in_valid,
    input  wire [66*LANES-1:0]   in_blk,
    output reg                   aligned,
    output reg                   out_valid,
    output reg  [66*LANES-1:0]   out_blk
);
  localparam [65:0] BLK_CC = {2'b10, 64'hE100_0000_0000_002D};
  localparam integer CW = $clog2(DEPTH + 1);
  localparam integer NEAR_FULL_I = DEPTH - 1;
  localparam [CW-1:0] NEAR_FULL = NEAR_FULL_I[CW-1:0];

  generate
    if (LANES < 2 || DEPTH < 4) begin : g_bad_params
      kolo_lane_deskew_PARAMETER_ERROR_LANES_at_least_2_DEPTH_at_least_4 u_error ();
    end
  endgenerate

  wire [LANES-1:0] head_valid;
  wire [LANES-1:0] cc_exact;   // head is exactly the CC block
  wire [LANES-1:0] cc_like;    // head has control sync and type CC
  wire [LANES-1:0] near_full;
  wire [66*LANES-1:0] head;
  reg  [LANES-1:0] pop;
  wire flush;  // aligning and a lane FIFO is nearly full: empty them all

  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : g_lane
      wire [CW-1:0] count;
      wire unused_in_ready;  // never full: a lane at DEPTH-1 flushes (aligning) or loses alignment
      kolo_fifo_sync #(
          .WIDTH(66),
          .DEPTH(DEPTH)
      ) u_fifo (
          .clk      (clk),
          .rst      (rst || !in_lock[l] || flush),
          .in_valid (in_lock[l] && in_valid[l]),
          .in_ready (unused_in_ready),
          .in_data  (in_blk[66*l+:66]),
          .out_valid(head_valid[l]),
          .out_ready(pop[l]),
          .out_data (head[66*l+:66]),
          .count    (count)
      );
      assign cc_exact[l] = head_valid[l] && (head[66*l+:66] == BLK_CC);
      assign cc_like[l] = head_valid[l] && (head[66*l+64+:2] == BLK_CC[65:64]) &&
                          (head[66*l+:8] == BLK_CC[7:0]);
      assign near_full[l] = (count >= NEAR_FULL);
    end
  endgenerate

  assign flush = !aligned && (|near_full);
  wire all_cc = &cc_exact;
  wire all_heads = &head_valid;
  wire misaligned = !(&in_lock) || (|near_full) || (all_heads && (|cc_like) && !(&cc_like));

  always @(*) begin
    if (!aligned) pop = head_valid & (~cc_exact | {LANES{all_cc}});
    else if (misaligned || !all_heads) pop = {LANES{1'b0}};
    else pop = head_valid;
  end

  always @(posedge clk) begin
    if (rst) begin
      aligned   <= 1'b0;
      out_valid <= 1'b0;
    end else begin
      if (!aligned) aligned <= all_cc && !flush;
      else if (misaligned) aligned <= 1'b0;
      out_valid <= aligned && !misaligned && all_heads;
    end
    out_blk <= head;
  end
endmodule
`default_nettype wire
