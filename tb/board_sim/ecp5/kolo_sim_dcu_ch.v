`default_nettype none
// kolo_sim_dcu_ch - one SERDES channel of the DCUA simulation model
// (tb/board_sim/ecp5/DCUA.v), raw 20-bit mode (PCS bypassed, 1:2 gearing).
// The serial line is not simulated bit by bit: each transmit clock edge
// hands the channel's 20 bits (or "no signal" while the transmit lane is in
// reset or the TX PLL is unlocked) to the harness (DPI kolo_sim_serdes_tx),
// and each receive clock edge takes 20 bits from the harness
// (kolo_sim_serdes_rx): the harness holds the cables (which transmitter feeds
// which receiver, tb/board_sim/tb_board_sim_ecp5.cpp), so a cable is a word
// queue between two channels. The receiver: no signal for a cycle -> RLOS;
// CDR lock (RLOL low) after LOCK_RX_CYCLES receive clocks with signal and
// the receiver out of reset (RRST); data zero in reset. Near-end loopback
// (FB_LOOPBACK) gives the receiver its own transmitter's words.
// Fabric bus: 24 bits, two 10-bit words at [9:0] (first) and [21:12].
module kolo_sim_dcu_ch #(
    parameter LOCK_RX_CYCLES = 64
) (
    input  wire        tx_clk,
    input  wire        rx_clk,
    input  wire        pll_ok,        // the TX PLL locked (the DCU out of reset)
    input  wire        lane_tx_rst,
    input  wire        rx_ser_rst,    // CHx_FFC_RRST
    input  wire        lane_rx_rst,
    input  wire        loopback,
    input  wire [23:0] tx_bus,
    output reg  [23:0] rx_bus,
    output reg         rlol,
    output reg         rlos
);
  import "DPI-C" function int kolo_sim_serdes_open(input string path);
  import "DPI-C" function void kolo_sim_serdes_tx(input int h, input int bits, input int on);
  import "DPI-C" function int kolo_sim_serdes_rx(input int h);

  integer handle;
  initial handle = kolo_sim_serdes_open($sformatf("%m"));

  reg [19:0] tx_last;
  always @(posedge tx_clk) begin
    tx_last <= {tx_bus[21:12], tx_bus[9:0]};
    kolo_sim_serdes_tx(handle, {12'd0, tx_bus[21:12], tx_bus[9:0]}, {31'd0, pll_ok && !lane_tx_rst});
  end

  integer    lock_count;
  reg [31:0] got;
  always @(posedge rx_clk) begin
    got = kolo_sim_serdes_rx(handle);
    if (loopback) got = {11'd0, 1'b1, tx_last};
    rlos <= !got[20];
    if (rx_ser_rst || !got[20]) lock_count <= 0;
    else if (lock_count < LOCK_RX_CYCLES) lock_count <= lock_count + 1;
    rlol <= rx_ser_rst || !got[20] || lock_count < LOCK_RX_CYCLES;
    rx_bus <= (rx_ser_rst || lane_rx_rst) ? 24'd0 : {2'b00, got[19:10], 2'b00, got[9:0]};
  end
  initial begin
    rlol = 1'b1;
    rlos = 1'b1;
    lock_count = 0;
    rx_bus = 24'd0;
  end
endmodule
`default_nettype wire
