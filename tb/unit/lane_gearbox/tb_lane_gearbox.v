`default_nettype none
// tb_lane_gearbox - unit-test top of the gearbox adapters: for each data width
// (32, 64) one kolo_lane_gearbox_tx per pause position 0..32 (one lane each,
// all fed the same words), and one kolo_lane_gearbox_rx. Index w: 0 = 32 bits,
// 1 = 64 bits; tx instance w*33+k has PAUSE_SEQ = k.
module tb_lane_gearbox (
    input  wire              clk,
    input  wire              rst,
    // tx: words in, transceiver beats out
    input  wire              tx_inhibit,
    input  wire [2*33*66-1:0] tx_word,
    output wire [2*33-1:0]   tx_ready,
    output wire [2*33*7-1:0] tx_sequence,
    output wire [33*32-1:0]  tx_data32,
    output wire [33*64-1:0]  tx_data64,
    output wire [2*33*2-1:0] tx_header,
    // rx: transceiver beats in, words out
    input  wire [31:0]       rx32_data,
    input  wire [63:0]       rx64_data,
    input  wire [3:0]        rx_header,
    input  wire [1:0]        rx_data_valid,
    input  wire [1:0]        rx_header_valid,
    input  wire [1:0]        rx_slip_req,
    output wire [1:0]        rx_slip,
    output wire [1:0]        rx_valid,
    output wire [2*66-1:0]   rx_word
);
  genvar k;
  generate
    for (k = 0; k < 33; k = k + 1) begin : g_pause
      kolo_lane_gearbox_tx #(.LANES(1), .DATA_W(32), .PAUSE_SEQ(k)) u_tx32 (
          .clk(clk), .rst(rst), .inhibit(tx_inhibit),
          .s_ready(tx_ready[k]), .s_word(tx_word[66*k+:66]),
          .gt_sequence(tx_sequence[7*k+:7]), .gt_data(tx_data32[32*k+:32]), .gt_header(tx_header[2*k+:2])
      );
      kolo_lane_gearbox_tx #(.LANES(1), .DATA_W(64), .PAUSE_SEQ(k)) u_tx64 (
          .clk(clk), .rst(rst), .inhibit(tx_inhibit),
          .s_ready(tx_ready[33+k]), .s_word(tx_word[66*(33+k)+:66]),
          .gt_sequence(tx_sequence[7*(33+k)+:7]), .gt_data(tx_data64[64*k+:64]),
          .gt_header(tx_header[2*(33+k)+:2])
      );
    end
  endgenerate
  kolo_lane_gearbox_rx #(.DATA_W(32), .SLIP_SPACING(32)) u_rx32 (
      .clk(clk), .rst(rst), .gt_data(rx32_data), .gt_header(rx_header[1:0]),
      .gt_data_valid(rx_data_valid[0]), .gt_header_valid(rx_header_valid[0]),
      .gt_slip(rx_slip[0]), .s_slip(rx_slip_req[0]), .m_valid(rx_valid[0]), .m_word(rx_word[65:0])
  );
  kolo_lane_gearbox_rx #(.DATA_W(64), .SLIP_SPACING(32)) u_rx64 (
      .clk(clk), .rst(rst), .gt_data(rx64_data), .gt_header(rx_header[3:2]),
      .gt_data_valid(rx_data_valid[1]), .gt_header_valid(rx_header_valid[1]),
      .gt_slip(rx_slip[1]), .s_slip(rx_slip_req[1]), .m_valid(rx_valid[1]), .m_word(rx_word[131:66])
  );
endmodule
`default_nettype wire
