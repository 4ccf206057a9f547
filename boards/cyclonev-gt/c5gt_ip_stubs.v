// c5gt_ip_stubs.v - the ports of the Platform Designer (Qsys) systems that
// boards/cyclonev-gt/c5gt_ip.tcl generates (qsys-script, qsys-generate), as
// the board top uses them: black boxes for the checks here. The export names
// are chosen by c5gt_ip.tcl; the build (c5gt_build.tcl) checks that every
// port listed here exists in the generated HDL with this direction and
// width before it compiles.
`default_nettype none

// The Cyclone V Hard IP for PCI Express (Avalon-ST, Gen2 x4, 128-bit at
// 125 MHz, endpoint) with its transceiver reconfiguration controller.
(* blackbox *)
module kolo_c5gt_pcie (
    input  wire         refclk_clk,               // 100 MHz from the slot
    input  wire         npor_npor,                // power-on reset, active low
    input  wire         npor_pin_perst,           // PERST# from the slot
    input  wire         reconfig_clk_clk,         // 125 MHz free-running (clk125; calibration)
    input  wire         reconfig_reset_reset,
    output wire         coreclkout_hip_clk,       // the application clock, 125 MHz
    input  wire         pld_clk_clk,              // = coreclkout_hip
    output wire         hip_status_reset_status,
    output wire         hip_status_dlup,
    output wire [7:0]   hip_status_ko_cpl_spc_header,  // completion buffer: headers
    output wire [11:0]  hip_status_ko_cpl_spc_data,    // ... and 16-byte data credits
    input  wire [3:0]   hip_serial_rx_in,
    output wire [3:0]   hip_serial_tx_out,
    output wire [127:0] rx_st_data,
    output wire         rx_st_valid,
    input  wire         rx_st_ready,
    output wire         rx_st_startofpacket,
    output wire         rx_st_endofpacket,
    output wire         rx_st_empty,
    output wire [7:0]   rx_bar_be_rx_st_bar,
    input  wire         rx_bar_be_rx_st_mask,
    input  wire [127:0] tx_st_data,
    input  wire         tx_st_valid,
    output wire         tx_st_ready,
    input  wire         tx_st_startofpacket,
    input  wire         tx_st_endofpacket,
    input  wire         tx_st_empty,
    input  wire         tx_st_error,
    output wire [3:0]   config_tl_tl_cfg_add,
    output wire [31:0]  config_tl_tl_cfg_ctl,
    output wire [52:0]  config_tl_tl_cfg_sts,
    input  wire         int_msi_app_msi_req,
    output wire         int_msi_app_msi_ack,
    input  wire [4:0]   int_msi_app_msi_num,
    input  wire [2:0]   int_msi_app_msi_tc
);
endmodule

// Four transceiver channels (Cyclone V Native PHY, standard PCS in basic
// mode, 8B/10B and word alignment off, 32-bit parallel data, 5.0 Gb/s from
// the 100 MHz reference), the transceiver reset controller and the
// reconfiguration controller: raw bit streams for kolo's soft 64b/66b
// gearboxes. Channel c at [32c +: 32]. Qsys names an exported port
// <interface>_<signal>: the interfaces are exported under the PHY's and the
// reset controller's own names (tx_clkout: the PHY's tx_std_clkout).
(* blackbox *)
module kolo_c5gt_xcvr (
    input  wire         refclk_clk,               // 100 MHz (REFCLK_QL1)
    input  wire         mgmt_clk_clk,             // 125 MHz free-running (clk125)
    input  wire         mgmt_reset_reset,
    input  wire [3:0]   rx_serial_data_rx_serial_data,
    output wire [3:0]   tx_serial_data_tx_serial_data,
    output wire [3:0]   tx_clkout_tx_std_clkout,  // line rate / 32 per channel
    output wire [3:0]   rx_clkout_rx_std_clkout,  // recovered, line rate / 32
    input  wire [127:0] tx_parallel_data_tx_parallel_data,
    output wire [127:0] rx_parallel_data_rx_parallel_data,
    output wire [3:0]   tx_ready_tx_ready,                 // reset controller: the channel sends
    output wire [3:0]   rx_ready_rx_ready,                 // ... receives (CDR locked to data)
    input  wire [3:0]   rx_seriallpbken_rx_seriallpbken  // near-end serial loopback
);
endmodule
`default_nettype wire
