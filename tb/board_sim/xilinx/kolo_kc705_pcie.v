`default_nettype none
// kolo_kc705_pcie (simulation model) - the KC705's 7 Series Integrated
// Block for PCI Express (pcie_7x, Gen2 x8, 128-bit AXI4-Stream,
// boards/kc705/kc705_ip.tcl), with the ports of boards/kc705/kc705_ip_stubs.v,
// behavioural, for the board-level simulation (tb/board_sim, docs/boards.md
// "Board-level simulation"), with timing controls (Verilator --timing).
// Not for synthesis.
// The user side is the block's: the AXI4-Stream TLP interfaces
// (m_axis_rx_*: TLPs to the user with the block's straddling, is_sof/is_eof
// and BAR hits in tuser; s_axis_tx_*), rx_np_ok, the MSI handshake
// (cfg_interrupt/_rdy) and the configuration outputs. All of it is played by
// the harness: each rising edge of the user clock hands the user's outputs
// as they were before the edge to the harness (DPI kolo_sim_x7_edge) and
// takes the block's outputs for the next cycle from it; the harness's model
// of the block's streams (tb/common/kolo_x7_stream_model.h) converts to and
// from the TLPs of its root-complex model (sw/rtlsim/kolo_pcie_rc.h, the
// host with its memory and configuration: bus/device/function, MPS, MRRS,
// bus master, MSI enable). The link side (the eight lanes) is not modelled:
// the serial pins carry no data (tx P high while the link is up).
// Modelled: the user clock, USR_PER_REF times sys_clk's measured period
// (100 MHz -> 250 MHz), running LOCK_EDGES sys_clk edges after sys_clk
// starts, whatever sys_rst_n (PERST#) does; user_reset_out high while
// sys_rst_n is low and RESET_CYCLES user clocks after it rises;
// user_lnk_up LINK_CYCLES user clocks after sys_rst_n rises (training);
// both follow sys_rst_n's fall at the next user clock. The user clock
// stops when sys_clk stops (the board's power off, kolo_sim_pll):
// then user_reset_out rises, user_lnk_up and the streams fall at once, and
// everything starts as at power-up when sys_clk runs again.
module kolo_kc705_pcie #(
    parameter LOCK_EDGES       = 16,    // model only
    parameter real USR_PER_REF = 0.4,   // model only: user clock period / sys_clk period
    parameter RESET_CYCLES     = 32,    // model only: user_reset_out after PERST#
    parameter LINK_CYCLES      = 256    // model only: user_lnk_up after PERST# (link training)
) (
    output wire [7:0]   pci_exp_txp,
    output wire [7:0]   pci_exp_txn,
    input  wire [7:0]   pci_exp_rxp,
    input  wire [7:0]   pci_exp_rxn,
    input  wire         sys_clk,
    input  wire         sys_rst_n,
    output wire         user_clk_out,
    output reg          user_reset_out,
    output reg          user_lnk_up,
    output wire         s_axis_tx_tready,
    input  wire [127:0] s_axis_tx_tdata,
    input  wire [15:0]  s_axis_tx_tkeep,
    input  wire         s_axis_tx_tlast,
    input  wire         s_axis_tx_tvalid,
    input  wire [3:0]   s_axis_tx_tuser,
    input  wire         tx_cfg_gnt,
    output wire [127:0] m_axis_rx_tdata,
    output wire [15:0]  m_axis_rx_tkeep,
    output wire         m_axis_rx_tlast,
    output wire         m_axis_rx_tvalid,
    input  wire         m_axis_rx_tready,
    output wire [21:0]  m_axis_rx_tuser,
    input  wire         rx_np_ok,
    input  wire         rx_np_req,
    output wire [7:0]   cfg_bus_number,
    output wire [4:0]   cfg_device_number,
    output wire [2:0]   cfg_function_number,
    output wire [15:0]  cfg_command,
    output wire [15:0]  cfg_dcommand,
    output wire         cfg_interrupt_msienable,
    input  wire         cfg_interrupt,
    output wire         cfg_interrupt_rdy,
    input  wire         cfg_interrupt_assert,
    input  wire [7:0]   cfg_interrupt_di
);
  import "DPI-C" function int kolo_sim_x7_open(input string path);
  // user: the user's outputs before the edge (layout: tb_board_sim_kc705.cpp, X7Pins);
  // block: the block's outputs for the next cycle
  import "DPI-C" function void kolo_sim_x7_edge(input int h, input int active, input bit [191:0] user,
                                                output bit [255:0] block);

  integer handle;
  initial handle = kolo_sim_x7_open($sformatf("%m"));

  // ---- the user clock ----
  wire running, uclk;
  wire unused_user_out1;
  kolo_sim_pll #(.LOCK_PERIODS(LOCK_EDGES), .EXACT(0), .RATIO0(USR_PER_REF)) u_user_clk (
      .clk_in(sys_clk), .rst(1'b0), .locked(running), .out0(uclk), .out1(unused_user_out1)
  );
  assign user_clk_out = uclk;

  // ---- PERST#, training ----
  integer cycles;
  initial begin
    cycles = 0;
    user_reset_out = 1'b1;
    user_lnk_up = 1'b0;
  end
  // the user clock's loss (the reference stopped: the board's power off)
  // resets the block at once, as its power-up does
  always @(posedge uclk or negedge running) begin
    if (!running) begin
      cycles <= 0;
      user_reset_out <= 1'b1;
      user_lnk_up <= 1'b0;
    end else begin
      if (!sys_rst_n) cycles <= 0;
      else if (cycles < LINK_CYCLES) cycles <= cycles + 1;
      user_reset_out <= !sys_rst_n || cycles < RESET_CYCLES;
      user_lnk_up <= sys_rst_n && cycles >= LINK_CYCLES;
    end
  end

  // ---- the streams, through the harness ----
  wire [191:0] user = {28'd0, cfg_interrupt_di, cfg_interrupt_assert, cfg_interrupt, tx_cfg_gnt, rx_np_req,
                       rx_np_ok, m_axis_rx_tready, s_axis_tx_tlast, s_axis_tx_tvalid, s_axis_tx_tuser,
                       s_axis_tx_tkeep, s_axis_tx_tdata};
  reg [255:0] block, block_next;
  initial block = 256'd0;
  always @(posedge uclk or negedge running) begin
    if (!running) begin
      block <= 256'd0;
    end else begin
      kolo_sim_x7_edge(handle, {31'd0, user_lnk_up && !user_reset_out}, user, block_next);
      block <= block_next;
    end
  end
  assign m_axis_rx_tdata = block[127:0];
  assign m_axis_rx_tuser = block[149:128];
  assign m_axis_rx_tvalid = block[150];
  assign m_axis_rx_tlast = block[151];
  assign m_axis_rx_tkeep = block[167:152];
  assign s_axis_tx_tready = block[168];
  assign cfg_interrupt_rdy = block[169];
  assign cfg_interrupt_msienable = block[170];
  assign cfg_bus_number = block[178:171];
  assign cfg_device_number = block[183:179];
  assign cfg_function_number = block[186:184];
  assign cfg_command = block[202:187];
  assign cfg_dcommand = block[218:203];
  assign pci_exp_txp = {8{user_lnk_up}};
  assign pci_exp_txn = {8{!user_lnk_up}};
  wire unused = &{1'b0, pci_exp_rxp, pci_exp_rxn, block[255:219]};
endmodule
`default_nettype wire
