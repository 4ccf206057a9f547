`default_nettype none
// tb_board_sim_ecp5 - two ECP5 Evaluation Board tops (kolo_board_ecp5_evn)
// for tb_board_sim_ecp5.cpp, whole, with behavioural models of the vendor
// primitives (tb/board_sim/ecp5: EHXPLLL, DCUA, EXTREFB; Verilator
// --timing). Board b has its own 12 MHz and 200 MHz oscillators (equal
// frequencies, phases from the harness: REF_PHASE_PS), its DIP switches set
// to node (b,0,0) of a 2x1x1 torus, and its UART to the harness (the host).
// The SMA cables are the harness's (the DCU model hands words to it).
// Shortened for simulation, each with the real value in the comment:
// the board reset (2^SETTLE_BITS core cycles, 2^20 on the board), the DCU's
// reset and lock waits (kolo_ecp5_dcu RESET_CYCLES 4096, LOCK_CYCLES 65536).
module tb_board_sim_ecp5 #(
    parameter SP_IMEM_INIT = "",
    parameter SP_DMEM_INIT = "",
    parameter SETTLE_BITS  = 10,
    parameter REF_PHASE_PS = 1300      // board 1's oscillators start this much after board 0's
) (
    input  wire [1:0] btn_rst_n,
    input  wire [1:0] uart_rx,       // host -> board b
    output wire [1:0] uart_tx,       // board b -> host
    output wire [15:0] led_n,        // board b's LEDs at [8b +: 8]
    // probes for the harness (hierarchical references into the boards; not
    // pins): board b's port p (0 X+, 1 X-) at index 2b+p
    output wire [7:0]  mon_link_state,      // kolo_link stat_state (0 down, 1 training, 2 up) at [2i +: 2]
    output wire [4*512-1:0] mon_link_counters,  // kolo_link's 16 counters (docs/link.md) at [512i +: 512]
    output wire [1:0]  mon_chip_rst         // board b's chip is in reset (button, settle, PLL lock)
);
  genvar b;
  generate
    for (b = 0; b < 2; b = b + 1) begin : g_board
      wire [1:0] sma_tx_p, sma_tx_n;
      wire clk12, refclk;   // 12 MHz (83334 ps), 200 MHz (5000 ps)
      kolo_sim_osc #(.HALF_PS(41667), .START_PS(b * REF_PHASE_PS)) u_osc12 (.clk(clk12));
      kolo_sim_osc #(.HALF_PS(2500), .START_PS(b * REF_PHASE_PS)) u_osc200 (.clk(refclk));
      kolo_board_ecp5_evn #(
          .SP_IMEM_INIT(SP_IMEM_INIT), .SP_DMEM_INIT(SP_DMEM_INIT), .SETTLE_BITS(SETTLE_BITS),
          .DCU_RESET_CYCLES(64), .DCU_LOCK_CYCLES(256)
      ) u_board (
          .clk12(clk12), .btn_rst_n(btn_rst_n[b]), .dip({4'd1, b[3:0]}),
          .refclk_p(refclk), .refclk_n(!refclk),
          .sma_rx_p(2'b00), .sma_rx_n(2'b11), .sma_tx_p(sma_tx_p), .sma_tx_n(sma_tx_n),
          .uart_rx(uart_rx[b]), .uart_tx(uart_tx[b]), .led_n(led_n[8*b+:8])
      );
      wire unused = &{1'b0, sma_tx_p, sma_tx_n};
      assign mon_link_state[4*b+:4] = u_board.u_chip.stat_link_state[3:0];
      assign mon_link_counters[1024*b+:1024] = u_board.u_chip.stat_link_counters[1023:0];
      assign mon_chip_rst[b] = u_board.chip_rst;
    end
  endgenerate
endmodule
`default_nettype wire
