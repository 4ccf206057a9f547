`default_nettype none
// kolo_soft_gearbox_tx - a 64b/66b transmit gearbox in fabric, for a
// transceiver without one (the ECP5 DCU in raw 20-bit mode): it takes what
// AMD's synchronous gearbox takes in external sequence counter mode with a
// 32-bit interface (gt_data, gt_header, gt_sequence from kolo_chip's
// kolo_lane_gearbox_tx, PAUSE_SEQ 32) and turns it into a plain bit stream,
// 32 bits per cycle (m_bits, bit 0 first on the line).
//
// Clock: clk is the lane's tx clock at line rate / 32. In each period of 33
// sequence values (0..32) the cycle with sequence 32 takes nothing (its
// gt_data and gt_header are ignored); the 32
// others take 32 data bits each, the even ones (a block's first half,
// payload bits 31:0) also the block's 2-bit sync header, which goes on the
// line before them: header bit 0, header bit 1, data bit 0 ... So a period
// takes 16 blocks, 1056 bits, and sends 33 x 32 = 1056 bits: the stream
// never runs dry or over once the sequence started at 0 with the reset. A
// cycle that would leave fewer than 32 bits (the sequence was not in step:
// only after a bad reset) sends what there is padded with zeros and starts
// over empty; the far end then sees bad sync headers and slips until it
// locks again.
// Latency: the bits taken in a cycle leave in m_bits from the next cycle
// on (registered), the header and first data bits at once.
// Reset: rst synchronous, active high: empty, m_bits 0.
module kolo_soft_gearbox_tx (
    input  wire        clk,
    input  wire        rst,
    input  wire [31:0] gt_data,
    input  wire [1:0]  gt_header,
    input  wire [6:0]  gt_sequence,
    output reg  [31:0] m_bits
);
  reg  [33:0] buffer;   // bits not sent yet, bit 0 first
  reg  [6:0]  level;    // how many (0..34; in step: 0..32)
  wire        pause = gt_sequence == 7'd32;
  wire        first = !gt_sequence[0];
  // nothing of the pause cycle's inputs is taken (kolo_lane_gearbox_tx shows
  // the next word there, which may still change: issue 18, it was ORed into
  // the buffer and corrupted the next block)
  wire [33:0] chunk = pause ? 34'd0 : (first ? {gt_data, gt_header} : {2'b00, gt_data});
  wire [6:0]  chunk_n = pause ? 7'd0 : (first ? 7'd34 : 7'd32);
  // the buffer with this cycle's bits appended after the `level` bits it holds
  wire [67:0] joined = {34'd0, buffer} | ({34'd0, chunk} << level);
  wire [6:0]  total = level + chunk_n;
  wire [67:0] rest = joined >> 32;
  always @(posedge clk) begin
    if (rst) begin
      buffer <= 34'd0;
      level <= 7'd0;
      m_bits <= 32'd0;
    end else if (total >= 7'd32 && total <= 7'd66) begin
      m_bits <= joined[31:0];
      buffer <= rest[33:0];
      level <= total - 7'd32;
    end else begin
      // out of step (never with a sequence that started at 0 with the reset):
      // send what there is, zero-padded, and start over empty
      m_bits <= total >= 7'd32 ? joined[31:0] : joined[31:0] & ((32'd1 << total[5:0]) - 32'd1);
      buffer <= 34'd0;
      level <= 7'd0;
    end
  end
  wire unused = &{1'b0, rest[67:34], gt_sequence[6:1]};
endmodule
`default_nettype wire
