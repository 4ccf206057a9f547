# c5gt_ip.tcl - the Platform Designer (Qsys) systems of kolo on the Cyclone V
# GT development kit, made by qsys-script (never checked in):
#   qsys-script --script=c5gt_ip.tcl --cmd="set kolo_ip_dir <dir>"
# then qsys-generate <dir>/<system>.qsys --synthesis=VERILOG (c5gt_build.tcl
# runs both). The export names are the port names of c5gt_ip_stubs.v.
package require -exact qsys 16.1

proc kolo_export {iface inst_iface} {
    add_interface $iface conduit end
    set_interface_property $iface EXPORT_OF $inst_iface
}

# ---- PCIe: the hard IP (Avalon-ST, Gen2 x4, 128 bit) and its reconfiguration controller
create_system kolo_c5gt_pcie
set_project_property DEVICE_FAMILY {Cyclone V}
set_project_property DEVICE {5CGTFD9E5F35C7}
add_instance pcie altera_pcie_cv_hip_ast
set_instance_parameter_value pcie lane_mask_hwtcl {x4}
set_instance_parameter_value pcie gen123_lane_rate_mode_hwtcl {Gen2 (5.0 Gbps)}
set_instance_parameter_value pcie port_type_hwtcl {Native endpoint}
set_instance_parameter_value pcie ast_width_hwtcl {Avalon-ST 128-bit}
set_instance_parameter_value pcie pll_refclk_freq_hwtcl {100 MHz}
set_instance_parameter_value pcie set_pld_clk_x1_625MHz_hwtcl 0
set_instance_parameter_value pcie in_cvp_mode_hwtcl 0
set_instance_parameter_value pcie vendor_id_hwtcl 4466
set_instance_parameter_value pcie device_id_hwtcl 19279
set_instance_parameter_value pcie class_code_hwtcl 360448
set_instance_parameter_value pcie bar0_type_hwtcl {32-bit non-prefetchable memory}
set_instance_parameter_value pcie bar0_size_mask_hwtcl 17
set_instance_parameter_value pcie bar2_type_hwtcl {32-bit non-prefetchable memory}
set_instance_parameter_value pcie bar2_size_mask_hwtcl 16
set_instance_parameter_value pcie max_payload_size_hwtcl 256
set_instance_parameter_value pcie msi_multi_message_capable_hwtcl 32
add_instance reconfig alt_xcvr_reconfig
set_instance_parameter_value reconfig number_of_reconfig_interfaces 5
add_connection reconfig.reconfig_to_xcvr pcie.reconfig_to_xcvr
add_connection pcie.reconfig_from_xcvr reconfig.reconfig_from_xcvr
add_interface refclk clock sink
set_interface_property refclk EXPORT_OF pcie.refclk
kolo_export npor pcie.npor
add_interface reconfig_clk clock sink
set_interface_property reconfig_clk EXPORT_OF reconfig.mgmt_clk_clk
add_interface reconfig_reset reset sink
set_interface_property reconfig_reset EXPORT_OF reconfig.mgmt_rst_reset
add_interface coreclkout_hip clock source
set_interface_property coreclkout_hip EXPORT_OF pcie.coreclkout_hip
add_interface pld_clk clock sink
set_interface_property pld_clk EXPORT_OF pcie.pld_clk
kolo_export hip_status pcie.hip_status
kolo_export hip_serial pcie.hip_serial
add_interface rx_st avalon_streaming source
set_interface_property rx_st EXPORT_OF pcie.rx_st
kolo_export rx_bar_be pcie.rx_bar_be
add_interface tx_st avalon_streaming sink
set_interface_property tx_st EXPORT_OF pcie.tx_st
kolo_export config_tl pcie.config_tl
kolo_export int_msi pcie.int_msi
save_system [file join $kolo_ip_dir kolo_c5gt_pcie.qsys]

# ---- transceivers: Native PHY (4 channels, raw 32-bit), reset and reconfiguration
create_system kolo_c5gt_xcvr
set_project_property DEVICE_FAMILY {Cyclone V}
set_project_property DEVICE {5CGTFD9E5F35C7}
add_instance phy altera_xcvr_native_cv
set_instance_parameter_value phy channels 4
set_instance_parameter_value phy data_rate {5000 Mbps}
set_instance_parameter_value phy pll_reconfig_enable 0
set_instance_parameter_value phy pll_refclk_freq {100.0 MHz}
set_instance_parameter_value phy std_protocol_hint {basic}
set_instance_parameter_value phy std_pcs_pma_width 16
set_instance_parameter_value phy std_tx_byte_ser_enable 1
set_instance_parameter_value phy std_rx_byte_deser_enable 1
set_instance_parameter_value phy std_tx_8b10b_enable 0
set_instance_parameter_value phy std_rx_8b10b_enable 0
set_instance_parameter_value phy std_rx_word_aligner_mode {bit_slip}
set_instance_parameter_value phy std_rx_rmfifo_enable 0
set_instance_parameter_value phy enable_port_rx_seriallpbken 1
add_instance reset altera_xcvr_reset_control
set_instance_parameter_value reset CHANNELS 4
set_instance_parameter_value reset SYS_CLK_IN_MHZ 125
set_instance_parameter_value reset TX_PLL_ENABLE 1
set_instance_parameter_value reset SYNCHRONIZE_RESET 1
add_instance reconfig alt_xcvr_reconfig
set_instance_parameter_value reconfig number_of_reconfig_interfaces 8
add_connection reconfig.reconfig_to_xcvr phy.reconfig_to_xcvr
add_connection phy.reconfig_from_xcvr reconfig.reconfig_from_xcvr
add_connection reset.tx_analogreset phy.tx_analogreset
add_connection reset.tx_digitalreset phy.tx_digitalreset
add_connection reset.rx_analogreset phy.rx_analogreset
add_connection reset.rx_digitalreset phy.rx_digitalreset
add_connection phy.pll_locked reset.pll_locked
add_connection phy.rx_is_lockedtodata reset.rx_is_lockedtodata
add_connection phy.tx_cal_busy reset.tx_cal_busy
add_connection phy.rx_cal_busy reset.rx_cal_busy
add_interface refclk clock sink
set_interface_property refclk EXPORT_OF phy.tx_pll_refclk
add_interface mgmt_clk clock sink
set_interface_property mgmt_clk EXPORT_OF reconfig.mgmt_clk_clk
add_interface mgmt_reset reset sink
set_interface_property mgmt_reset EXPORT_OF reconfig.mgmt_rst_reset
kolo_export rx_serial_data phy.rx_serial_data
kolo_export tx_serial_data phy.tx_serial_data
kolo_export tx_clkout phy.tx_std_clkout
kolo_export rx_clkout phy.rx_std_clkout
kolo_export tx_parallel_data phy.tx_parallel_data
kolo_export rx_parallel_data phy.rx_parallel_data
kolo_export tx_ready reset.tx_ready
kolo_export rx_ready reset.rx_ready
kolo_export rx_seriallpbken phy.rx_seriallpbken
save_system [file join $kolo_ip_dir kolo_c5gt_xcvr.qsys]
