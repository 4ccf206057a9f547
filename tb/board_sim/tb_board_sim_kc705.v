`default_nettype none
// tb_board_sim_kc705 - two Xilinx KC705 board tops (kolo_board_kc705) for
// tb_board_sim_kc705.cpp, whole, with behavioural models of the vendor
// primitives and IP (tb/board_sim/xilinx: IBUFDS, IBUFDS_GTE2, MMCME2_BASE,
// BUFG, kolo_kc705_pcie, kolo_kc705_gt; Verilator --timing). Board b has its
// own oscillators (200 MHz system clock, 125 MHz transceiver reference,
// 100 MHz PCIe reference from its host; equal frequencies on both boards,
// phases from the harness: REF_PHASE_PS), its DIP switches set to node
// (b,0,0) of a 2x1x1 torus (DIM_M1 12'h001), its CPU_RESET button and
// PERST# from the harness, and its power: power[b] low stops board b's
// three clocks at the FPGA's pins (the board's power off, or its FPGA
// being reconfigured: the MMCM, the CPLL and the PCIe block's clock lose
// lock, the chip is held in reset, the transmitters go quiet; the
// harness also asserts PERST# and cuts the cables' words; FPGA state that
// has no reset, RAM contents included, is kept: docs/boards.md
// "Power cycle"). The PCIe streams go to the harness's host model
// and the transceivers' words to the harness's cables (DPI, in the models).
module tb_board_sim_kc705 #(
    parameter SP_IMEM_INIT = "",
    parameter SP_DMEM_INIT = "",
    parameter REF_PHASE_PS = 1300      // board 1's oscillators start this much after board 0's
) (
    input  wire [1:0]  cpu_reset,     // board b's SW7 (high: pressed)
    input  wire [1:0]  pcie_perst_n,  // board b's PERST# from its host
    input  wire [1:0]  power,         // board b powered (its clocks run)
    input  wire [1:0]  reflash_gen,   // rising: board b's NI's end-to-end tables back to their
                                      // bitstream values, as a reload of the bitstream would (LUT RAM
                                      // without a reset: --power-cycle --reflash-gen): generations 0,
                                      // known reflash_known[b] (0: unknown, the bitstream's value;
                                      // 1: the plant reflash-no-resync, the NI before RESYNC)
    input  wire [1:0]  reflash_known,
    output wire [1:0]  uart_tx,       // board b's console (115200 8N1)
    output wire [15:0] led,           // board b's LEDs at [8b +: 8]
    // probes for the harness (hierarchical references into the boards; not
    // pins): board b's port p (0 X+ .. 5 Z-) at index 6b+p
    output wire [23:0] mon_link_state,          // kolo_link stat_state (0 down, 1 training, 2 up) at [2i +: 2]
    output wire [12*512-1:0] mon_link_counters, // kolo_link's 16 counters (docs/link.md) at [512i +: 512]
    output wire [1:0]  mon_chip_rst,            // board b's chip is in reset (button, MMCM lock)
    output wire [127:0] mon_router_errors,      // kolo_chip stat_router_errors at [64b +: 64]
    output wire [63:0] mon_fault_drops,         // kolo_chip stat_router_fault_drops at [32b +: 32]
    output wire [159:0] mon_pcie                // kolo_chip stat_pcie at [80b +: 80]
);
  genvar b;
  generate
    for (b = 0; b < 2; b = b + 1) begin : g_board
      wire osc200, osc125, osc100;   // 200 MHz (5000 ps), 125 MHz (8000 ps), 100 MHz (10000 ps)
      kolo_sim_osc #(.HALF_PS(2500), .START_PS(b * REF_PHASE_PS)) u_osc200 (.clk(osc200));
      kolo_sim_osc #(.HALF_PS(4000), .START_PS(b * REF_PHASE_PS + 700)) u_osc125 (.clk(osc125));
      kolo_sim_osc #(.HALF_PS(5000), .START_PS(b * REF_PHASE_PS + 300)) u_osc100 (.clk(osc100));
      wire sysclk = osc200 && power[b], gtref = osc125 && power[b], pcieref = osc100 && power[b];
      wire [7:0] pcie_tx_p, pcie_tx_n;
      wire [5:0] gt_tx_p, gt_tx_n;
      wire       sfp_tx_disable;
      kolo_board_kc705 #(
          .DIM_M1(12'h001), .SP_IMEM_INIT(SP_IMEM_INIT), .SP_DMEM_INIT(SP_DMEM_INIT)
      ) u_board (
          .sysclk_p(sysclk), .sysclk_n(!sysclk), .cpu_reset(cpu_reset[b]),
          .pcie_refclk_p(pcieref), .pcie_refclk_n(!pcieref), .pcie_perst_n(pcie_perst_n[b]),
          .pcie_rx_p(8'h00), .pcie_rx_n(8'hFF), .pcie_tx_p(pcie_tx_p), .pcie_tx_n(pcie_tx_n),
          .gt_refclk_p(gtref), .gt_refclk_n(!gtref), .gt_rx_p(6'h00), .gt_rx_n(6'h3F),
          .gt_tx_p(gt_tx_p), .gt_tx_n(gt_tx_n), .sfp_tx_disable(sfp_tx_disable),
          .uart_txd(uart_tx[b]), .uart_rxd(1'b1), .dip({3'd0, b[0]}), .led(led[8*b+:8])
      );
      wire unused = &{1'b0, pcie_tx_p, pcie_tx_n, gt_tx_p, gt_tx_n, sfp_tx_disable};
      integer gi;
      always @(posedge reflash_gen[b])
        for (gi = 0; gi < 16 * 256; gi = gi + 1) begin
          u_board.u_chip.u_node.g_ni.u_ni.u_e2e.gen_t[gi] = 1'b0;
          u_board.u_chip.u_node.g_ni.u_ni.u_e2e.known_t[gi] = reflash_known[b];
        end
      assign mon_link_state[12*b+:12] = u_board.u_chip.stat_link_state[11:0];
      assign mon_link_counters[3072*b+:3072] = u_board.u_chip.stat_link_counters[3071:0];
      assign mon_chip_rst[b] = u_board.chip_rst;
      assign mon_router_errors[64*b+:64] = u_board.u_chip.stat_router_errors;
      assign mon_fault_drops[32*b+:32] = u_board.u_chip.stat_router_fault_drops;
      assign mon_pcie[80*b+:80] = u_board.u_chip.stat_pcie;
    end
  endgenerate
endmodule
`default_nettype wire
