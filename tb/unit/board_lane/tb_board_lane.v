`default_nettype none
// tb_board_lane - the fabric 64b/66b lanes of the boards whose transceivers
// have no gearbox, for tb_board_lane.cpp:
//   e_*  the ECP5 Evaluation Board: kolo_soft_gearbox_tx (32 bits at line
//        rate / 32) -> kolo_bits_xing 32 -> 20 bits (the DCU's tx clock) ->
//        [the line, in C++] -> kolo_soft_gearbox_rx IN_W 20 (recovered clock)
//   c_*  the Cyclone V GT kit: kolo_soft_gearbox_tx -> 32-bit raw transceiver
//        -> [line] -> kolo_soft_gearbox_rx IN_W 32
// The harness drives the gearbox side as kolo_lane_gearbox_tx does (external
// sequence 0..32, PAUSE_SEQ 32, DATA_W 32) and plays the block lock
// (gt_slip) on the receive side.
module tb_board_lane (
    input  wire        e_lane_clk,
    input  wire        e_lane_rst,
    input  wire [31:0] e_tx_data,
    input  wire [1:0]  e_tx_header,
    input  wire [6:0]  e_tx_seq,
    input  wire        e_dcu_clk,
    input  wire        e_dcu_rst,
    output wire [19:0] e_line_tx,
    output wire        e_in_drop,
    output wire        e_out_starved,
    input  wire        e_rx_clk,
    input  wire        e_rx_rst,
    input  wire [19:0] e_line_rx,
    input  wire        e_slip,
    output wire [31:0] e_rx_data,
    output wire [1:0]  e_rx_header,
    output wire        e_rx_data_valid,
    output wire        e_rx_header_valid,

    input  wire        c_tx_clk,
    input  wire        c_tx_rst,
    input  wire [31:0] c_tx_data,
    input  wire [1:0]  c_tx_header,
    input  wire [6:0]  c_tx_seq,
    output wire [31:0] c_line_tx,
    input  wire        c_rx_clk,
    input  wire        c_rx_rst,
    input  wire [31:0] c_line_rx,
    input  wire        c_slip,
    output wire [31:0] c_rx_data,
    output wire [1:0]  c_rx_header,
    output wire        c_rx_data_valid,
    output wire        c_rx_header_valid
);
  wire [31:0] e_bits;
  kolo_soft_gearbox_tx u_e_gb_tx (
      .clk(e_lane_clk), .rst(e_lane_rst), .gt_data(e_tx_data), .gt_header(e_tx_header),
      .gt_sequence(e_tx_seq), .m_bits(e_bits)
  );
  kolo_bits_xing #(.IN_W(32), .OUT_W(20)) u_e_xing (
      .in_clk(e_lane_clk), .in_rst(e_lane_rst), .in_bits(e_bits), .in_drop(e_in_drop),
      .out_clk(e_dcu_clk), .out_rst(e_dcu_rst), .out_bits(e_line_tx), .out_starved(e_out_starved)
  );
  kolo_soft_gearbox_rx #(.IN_W(20)) u_e_gb_rx (
      .clk(e_rx_clk), .rst(e_rx_rst), .s_bits(e_line_rx), .gt_slip(e_slip), .gt_data(e_rx_data),
      .gt_header(e_rx_header), .gt_data_valid(e_rx_data_valid), .gt_header_valid(e_rx_header_valid)
  );

  kolo_soft_gearbox_tx u_c_gb_tx (
      .clk(c_tx_clk), .rst(c_tx_rst), .gt_data(c_tx_data), .gt_header(c_tx_header),
      .gt_sequence(c_tx_seq), .m_bits(c_line_tx)
  );
  kolo_soft_gearbox_rx #(.IN_W(32)) u_c_gb_rx (
      .clk(c_rx_clk), .rst(c_rx_rst), .s_bits(c_line_rx), .gt_slip(c_slip), .gt_data(c_rx_data),
      .gt_header(c_rx_header), .gt_data_valid(c_rx_data_valid), .gt_header_valid(c_rx_header_valid)
  );
endmodule
`default_nettype wire
