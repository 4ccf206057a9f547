`default_nettype none
// kolo_soft_gearbox_rx - a 64b/66b receive gearbox in fabric, the inverse of
// kolo_soft_gearbox_tx: a plain bit stream in, IN_W bits per cycle (s_bits,
// bit 0 first off the line, as a transceiver without a gearbox delivers it:
// the ECP5 DCU in raw 20-bit mode), and out what AMD's synchronous receive
// gearbox presents with a 32-bit interface, for kolo_chip's
// kolo_lane_gearbox_rx (DATA_W 32):
//   gt_header_valid high with gt_header and the block's payload bits 31:0
//   (the first half), then a cycle with gt_data_valid alone and bits 63:32;
//   gaps (gt_data_valid low) wherever fewer than the next half's bits wait.
// Blocks are cut from the stream at the current boundary: 2 header bits,
// then 64 payload bits. The boundary is found by the PHY (kolo_block_lock),
// which asks for it to move: a gt_slip pulse drops one bit of the stream,
// so the boundary moves by one bit (the spacing of the pulses is the
// caller's: kolo_lane_gearbox_rx passes them on 32 cycles apart at most).
// Clock: clk is the recovered (receive) clock of the stream; IN_W bits
// arrive every cycle, so at most one half leaves per cycle when IN_W <= 32.
// Latency: a half leaves in the cycle after its last bit arrived.
// Reset: rst synchronous, active high: empty, the next bits start a block.
module kolo_soft_gearbox_rx #(
    parameter IN_W = 20   // bits per cycle from the transceiver, 8..32
) (
    input  wire            clk,
    input  wire            rst,
    input  wire [IN_W-1:0] s_bits,
    input  wire            gt_slip,
    output reg  [31:0]     gt_data,
    output reg  [1:0]      gt_header,
    output reg             gt_data_valid,
    output reg             gt_header_valid
);
  generate
    if (IN_W < 8 || IN_W > 32) begin : g_bad_width
      kolo_soft_gearbox_rx_PARAMETER_ERROR_IN_W_8_to_32 u_error ();
    end
  endgenerate

  // buffer holds `level` bits, bit 0 the oldest; after this cycle's IN_W bits
  // at most 33 + 32 bits wait (a first half needs 34)
  reg  [65:0] buffer;
  reg  [6:0]  level;
  reg         second;     // the next half is a block's second half
  localparam [6:0] INW = IN_W;
  wire [97:0] joined = {32'd0, buffer} | ({{(98 - IN_W) {1'b0}}, s_bits} << level);
  wire [6:0]  total = level + INW;
  wire [6:0]  need = second ? 7'd32 : 7'd34;
  wire        take = total >= need;
  // bits consumed this cycle: the half, and one more on a slip
  wire [6:0]  used = (take ? need : 7'd0) + (gt_slip ? 7'd1 : 7'd0);
  wire [97:0] rest = joined >> used;
  always @(posedge clk) begin
    gt_data_valid <= 1'b0;
    gt_header_valid <= 1'b0;
    if (rst) begin
      buffer <= 66'd0;
      level <= 7'd0;
      second <= 1'b0;
      gt_data <= 32'd0;
      gt_header <= 2'b00;
    end else begin
      if (take) begin
        gt_data_valid <= 1'b1;
        if (second) begin
          gt_data <= joined[31:0];
        end else begin
          gt_header_valid <= 1'b1;
          gt_header <= joined[1:0];
          gt_data <= joined[33:2];
        end
        second <= !second;
      end
      if (total >= used) begin
        buffer <= rest[65:0];
        level <= total - used;
      end else begin  // a slip with nothing left to drop: the next bit goes instead
        buffer <= 66'd0;
        level <= 7'd0;
      end
    end
  end
  wire unused = &{1'b0, rest[97:66]};
endmodule
`default_nettype wire
