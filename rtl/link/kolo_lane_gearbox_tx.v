`default_nettype none
// kolo_lane_gearbox_tx - the transmit adapter of the lanes of one link between
// kolo_link_phy's tx lane side (tx_lane_ready / tx_lane_data) and transceiver
// 64b/66b transmit gearboxes in external sequence counter mode (AMD 7-series
// GTX/GTH, UltraScale GTH/GTY synchronous gearbox: TXSEQUENCE, TXHEADER,
// TXDATA), one per lane, all on the link's tx lane clock (the bonded lanes of
// a link share TXUSRCLK2 and the sequence).
//
// The sequence counter (gt_sequence) runs 0..32, one step per cycle, and the
// gearbox takes no data in the cycle in which it reads PAUSE_SEQ (the value
// the transceiver's user guide gives for 64b/66b: the data presented then is
// held and presented again). DATA_W = 64: every data cycle takes one 66-bit
// block per lane: 32 blocks per 33 cycles. DATA_W = 32: a block takes two
// data cycles, the header (gt_header) with the first (payload bits 31:0),
// the second with bits 63:32 (header held): 16 blocks per 33 cycles.
// s_ready is high in the cycle whose edge takes the current words (s_word,
// kolo_link_phy's tx_lane_data: {payload[63:0], sync[1:0]} per lane): the
// one that starts a block; kolo_link_phy presents the next words after that
// edge, and may change them in any cycle until the next take (it shows IDLE
// until a block reaches its FIFO). With DATA_W = 32 the second half and the
// header come from a register loaded at the take, so both halves of a block
// are of one word (issue 18: they were both read from s_word, and a word
// that changed between them went out as half IDLE, half block: a bad
// control block at the far end and the block lost, a CRC error and a
// replay). Outputs are combinational from s_word and registers.
// inhibit (a level, already in this clock domain): the lanes send all-zero
// data with the invalid header 00 instead of the words (which keep flowing
// and are lost): the far end's block lock fails and its link goes down;
// LINK_CTRL.ENABLE = 0 holds a link down this way. Bit order: as
// kolo_lane_gearbox_rx. Reset: rst (synchronous) restarts the sequence at 0.
module kolo_lane_gearbox_tx #(
    parameter LANES     = 1,
    parameter DATA_W    = 64,  // 32 or 64
    parameter PAUSE_SEQ = 32   // 0..32
) (
    input  wire                    clk,
    input  wire                    rst,
    input  wire                    inhibit,
    output wire                    s_ready,
    input  wire [66*LANES-1:0]     s_word,
    output wire [6:0]              gt_sequence,
    output wire [DATA_W*LANES-1:0] gt_data,
    output wire [2*LANES-1:0]      gt_header
);
  generate
    if (DATA_W != 32 && DATA_W != 64) begin : g_bad_width
      kolo_lane_gearbox_tx_PARAMETER_ERROR_DATA_W_32_or_64 u_error ();
    end
    if (PAUSE_SEQ < 0 || PAUSE_SEQ > 32 || LANES < 1) begin : g_bad_params
      kolo_lane_gearbox_tx_PARAMETER_ERROR_PAUSE_SEQ_0_to_32_LANES_at_least_1 u_error ();
    end
  endgenerate

  reg [5:0] seq;   // 0..32
  reg       half;  // DATA_W 32: the second half of the words is due
  wire pause = (seq == PAUSE_SEQ[5:0]);
  always @(posedge clk) begin
    if (rst) begin
      seq  <= 6'd0;
      half <= 1'b0;
    end else begin
      seq <= (seq == 6'd32) ? 6'd0 : seq + 6'd1;
      if (!pause && DATA_W == 32) half <= !half;
    end
  end
  assign gt_sequence = {1'b0, seq};
  assign s_ready = !pause && (DATA_W == 64 || !half);

  genvar l;
  generate
    for (l = 0; l < LANES; l = l + 1) begin : g_lane
      wire [65:0] w = s_word[66*l+:66];
      wire [DATA_W-1:0] part;
      wire [1:0] hdr;
      if (DATA_W == 64) begin : g_w64
        assign part = w[65:2];
        assign hdr = w[1:0];
      end else begin : g_w32
        // the second half and the header of the word taken at the first half
        reg [33:0] rest;
        always @(posedge clk) if (s_ready) rest <= {w[65:34], w[1:0]};
        assign part = half ? rest[33:2] : w[33:2];
        assign hdr = half ? rest[1:0] : w[1:0];
      end
      assign gt_data[DATA_W*l+:DATA_W] = inhibit ? {DATA_W{1'b0}} : part;
      assign gt_header[2*l+:2] = inhibit ? 2'b00 : hdr;
    end
  endgenerate
endmodule
`default_nettype wire
