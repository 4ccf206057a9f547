`default_nettype none
// kolo_sim_gtx_ch - one GTX channel of the kolo_kc705_gt simulation model
// (tb/board_sim/xilinx/kolo_kc705_gt.v): the user side of the wizard's
// 64b/66b mode with external sequence counter and 32-bit data, the
// transmit and receive gearboxes and the serial line all in the harness.
// Each rising edge of the transmit user clock hands the channel's sequence,
// data and header (or "not sending" while its transmit reset FSM is not
// done) to the harness (DPI kolo_sim_gt_tx): the harness's gearbox takes a
// beat unless the sequence is the pause (32), two beats make a 66-bit
// block, and the block enters the cable (tb/board_sim/tb_board_sim_kc705.cpp,
// over sw/rtlsim/kolo_chip_lanes.h: delay, random block boundary). Each
// rising edge of the receive user clock takes a beat from the harness
// (kolo_sim_gt_rx, with the gearbox slip the chip asked for before the
// edge): data, header, data valid and header valid as the wizard's
// RXGEARBOX presents them (a gap one cycle in 33, noise while the line is
// silent); zero and not valid while the receive reset FSM is not done.
// Near-end PCS loopback (loopback 3'b010) gives the receiver its own
// transmitter's blocks (in the harness). Not for synthesis.
module kolo_sim_gtx_ch (
    input  wire        tx_clk,        // TXUSRCLK2
    input  wire        rx_clk,        // RXUSRCLK2
    input  wire        tx_on,         // the transmit reset FSM is done
    input  wire        rx_on,         // the receive reset FSM is done
    input  wire [31:0] tx_data,
    input  wire [1:0]  tx_header,
    input  wire [6:0]  tx_sequence,
    input  wire [2:0]  loopback,
    input  wire        rx_slip,
    output reg  [31:0] rx_data,
    output reg  [1:0]  rx_header,
    output reg         rx_data_valid,
    output reg         rx_header_valid
);
  import "DPI-C" function int kolo_sim_gt_open(input string path);
  import "DPI-C" function void kolo_sim_gt_tx(input int h, input int seq, input int data, input int header,
                                              input int on, input int loopback);
  import "DPI-C" function longint kolo_sim_gt_rx(input int h, input int slip, input int on);

  integer handle;
  initial handle = kolo_sim_gt_open($sformatf("%m"));

  always @(posedge tx_clk)
    kolo_sim_gt_tx(handle, {25'd0, tx_sequence}, tx_data, {30'd0, tx_header}, {31'd0, tx_on}, {29'd0, loopback});

  reg [63:0] got;
  always @(posedge rx_clk) begin
    got = kolo_sim_gt_rx(handle, {31'd0, rx_slip}, {31'd0, rx_on});
    rx_data <= got[31:0];
    rx_header <= got[33:32];
    rx_header_valid <= got[34];
    rx_data_valid <= got[35];
  end
  initial begin
    rx_data = 32'd0;
    rx_header = 2'd0;
    rx_data_valid = 1'b0;
    rx_header_valid = 1'b0;
  end
endmodule
`default_nettype wire
