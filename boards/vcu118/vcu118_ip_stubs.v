// vcu118_ip_stubs.v - the ports of the vendor IP that boards/vcu118/vcu118_ip.tcl
// generates (Vivado create_ip), as the board top uses them: black boxes for
// the checks here (Yosys elaboration and synthesis, constraint check,
// board-level simulation). Not read by the Vivado build, which checks that
// every port listed here exists in the generated IP with this direction and
// width (vcu118_build.tcl, kolo_check_ip_ports). Only the ports the top
// connects are listed.
`default_nettype none

// UltraScale+ Integrated Block for PCI Express (pcie4_uscale_plus), Gen3 x8,
// 256-bit CQ/CC/RQ/RC at 250 MHz, Dword-aligned, straddle off, client tags.
(* blackbox *)
module kolo_vcu118_pcie (
    output wire [7:0]   pci_exp_txp,
    output wire [7:0]   pci_exp_txn,
    input  wire [7:0]   pci_exp_rxp,
    input  wire [7:0]   pci_exp_rxn,
    input  wire         sys_clk,
    input  wire         sys_clk_gt,
    input  wire         sys_reset,
    output wire         user_clk,
    output wire         user_reset,
    output wire         user_lnk_up,
    output wire [255:0] m_axis_cq_tdata,
    output wire [84:0]  m_axis_cq_tuser,
    output wire         m_axis_cq_tlast,
    output wire [7:0]   m_axis_cq_tkeep,
    output wire         m_axis_cq_tvalid,
    input  wire         m_axis_cq_tready,
    output wire [255:0] m_axis_rc_tdata,
    output wire [74:0]  m_axis_rc_tuser,
    output wire         m_axis_rc_tlast,
    output wire [7:0]   m_axis_rc_tkeep,
    output wire         m_axis_rc_tvalid,
    input  wire         m_axis_rc_tready,
    input  wire [255:0] s_axis_cc_tdata,
    input  wire [32:0]  s_axis_cc_tuser,
    input  wire         s_axis_cc_tlast,
    input  wire [7:0]   s_axis_cc_tkeep,
    input  wire         s_axis_cc_tvalid,
    output wire [3:0]   s_axis_cc_tready,
    input  wire [255:0] s_axis_rq_tdata,
    input  wire [61:0]  s_axis_rq_tuser,
    input  wire         s_axis_rq_tlast,
    input  wire [7:0]   s_axis_rq_tkeep,
    input  wire         s_axis_rq_tvalid,
    output wire [3:0]   s_axis_rq_tready,
    input  wire [1:0]   pcie_cq_np_req,
    output wire [5:0]   pcie_rq_seq_num0,
    output wire         pcie_rq_seq_num_vld0,
    output wire [1:0]   cfg_max_payload,
    output wire [2:0]   cfg_max_read_req,
    output wire [15:0]  cfg_function_status,
    output wire [3:0]   cfg_interrupt_msi_enable,
    input  wire [31:0]  cfg_interrupt_msi_int,
    output wire         cfg_interrupt_msi_sent,
    output wire         cfg_interrupt_msi_fail,
    input  wire [7:0]   cfg_interrupt_msi_function_number
);
endmodule

// UltraScale+ FPGAs Transceivers Wizard (gtwizard_ultrascale): six GTY
// channels (kolo ports X+ X- Y+ Y- Z+ Z-: QSFP28 1 lanes 1..4, QSFP28 2
// lanes 1..2) at 10.3125 Gb/s, 64b/66b synchronous gearbox (external
// sequence), 64-bit user data, 32-bit internal; QPLL0 of each quad from its
// 156.25 MHz reference; the reset controller in the core, user clocking
// helpers in the example design (the board top buffers the clocks).
(* blackbox *)
module kolo_vcu118_gt (
    input  wire [1:0]   gtrefclk00_in,            // quads 231, 232
    input  wire         gtwiz_reset_clk_freerun_in,
    input  wire         gtwiz_reset_all_in,
    input  wire         gtwiz_reset_tx_pll_and_datapath_in,
    input  wire         gtwiz_reset_tx_datapath_in,
    input  wire         gtwiz_reset_rx_pll_and_datapath_in,
    input  wire         gtwiz_reset_rx_datapath_in,
    output wire         gtwiz_reset_rx_cdr_stable_out,
    output wire         gtwiz_reset_tx_done_out,
    output wire         gtwiz_reset_rx_done_out,
    input  wire         gtwiz_userclk_tx_active_in,
    input  wire         gtwiz_userclk_rx_active_in,
    input  wire [383:0] gtwiz_userdata_tx_in,     // 64 bits per channel
    output wire [383:0] gtwiz_userdata_rx_out,
    input  wire [35:0]  txheader_in,              // 6 bits per channel (1:0 used)
    input  wire [41:0]  txsequence_in,            // 7 bits per channel
    output wire [35:0]  rxheader_out,             // 6 bits per channel (1:0 used)
    output wire [11:0]  rxheadervalid_out,        // 2 bits per channel (0 used)
    output wire [11:0]  rxdatavalid_out,          // 2 bits per channel (0 used)
    input  wire [5:0]   rxgearboxslip_in,
    input  wire [17:0]  loopback_in,              // 3 bits per channel
    input  wire [5:0]   gtyrxn_in,
    input  wire [5:0]   gtyrxp_in,
    output wire [5:0]   gtytxn_out,
    output wire [5:0]   gtytxp_out,
    output wire [5:0]   txoutclk_out,
    output wire [5:0]   rxoutclk_out,
    input  wire [5:0]   txusrclk_in,
    input  wire [5:0]   txusrclk2_in,
    input  wire [5:0]   rxusrclk_in,
    input  wire [5:0]   rxusrclk2_in,
    output wire [5:0]   gtpowergood_out,
    output wire [5:0]   txpmaresetdone_out,
    output wire [5:0]   rxpmaresetdone_out
);
endmodule
`default_nettype wire
