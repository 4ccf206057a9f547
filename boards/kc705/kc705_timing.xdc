# kc705_timing.xdc - clocks and board-level false paths of kolo on the KC705.
# The crossings inside the chip (every kolo CDC cell instance) are constrained
# by ../common/xilinx/kolo_cdc.tcl (read after this file, unmanaged).

# ---- clocks ---------------------------------------------------------------------
# inputs; the MMCM outputs (clk 250 MHz, clk_free 100 MHz) are derived by Vivado
create_clock -period 5.000 -name sysclk [get_ports sysclk_p]
create_clock -period 10.000 -name pcie_refclk [get_ports pcie_refclk_p]
create_clock -period 8.000 -name gt_refclk [get_ports gt_refclk_p]
# the PCIe block's user clock is created by the pcie_7x IP's own constraints
# (250 MHz); the transceivers' user clocks: TXOUTCLK / RXOUTCLK at 5.0 Gb/s / 32
create_clock -period 6.400 -name gt_txoutclk [get_pins u_gt/gt0_txoutclk_out]
create_clock -period 6.400 -name gt_rxoutclk0 [get_pins u_gt/gt0_rxoutclk_out]
create_clock -period 6.400 -name gt_rxoutclk1 [get_pins u_gt/gt1_rxoutclk_out]
create_clock -period 6.400 -name gt_rxoutclk2 [get_pins u_gt/gt2_rxoutclk_out]
create_clock -period 6.400 -name gt_rxoutclk3 [get_pins u_gt/gt3_rxoutclk_out]
create_clock -period 6.400 -name gt_rxoutclk4 [get_pins u_gt/gt4_rxoutclk_out]
create_clock -period 6.400 -name gt_rxoutclk5 [get_pins u_gt/gt5_rxoutclk_out]

# ---- asynchronous board I/O ----------------------------------------------------------
# buttons, switches (the node id straps: quasi-static, changed only in reset)
set_false_path -from [get_ports {cpu_reset dip[*] pcie_perst_n uart_rxd}]
set_false_path -to [get_ports {led[*] uart_txd sfp_tx_disable}]
# the PCIe link-up LED's synchroniser (lnk_s, ASYNC_REG)
set_false_path -to [get_cells {lnk_s_reg[0]}]
