# vcu118_timing.xdc - clocks and board-level false paths of kolo on the VCU118.
# The crossings inside the chip (every kolo CDC cell instance) are constrained
# by ../common/xilinx/kolo_cdc.tcl (read after this file, unmanaged).

# ---- clocks ---------------------------------------------------------------------
# inputs; the MMCM outputs (clk 250 MHz, clk_free 100 MHz) and the BUFG_GT
# divisions are derived by Vivado
create_clock -period 8.000 -name clk_125mhz [get_ports clk_125mhz_p]
create_clock -period 10.000 -name pcie_refclk [get_ports pcie_refclk_p]
create_clock -period 6.400 -name qsfp1_refclk [get_ports qsfp1_refclk_p]
create_clock -period 6.400 -name qsfp2_refclk [get_ports qsfp2_refclk_p]
# the PCIe block's user clock is created by the pcie4_uscale_plus IP's own
# constraints (250 MHz); the GTY TXOUTCLK / RXOUTCLK by the gtwizard_ultrascale
# IP's (10.3125 Gb/s / 32)

# ---- asynchronous board I/O ----------------------------------------------------------
set_false_path -from [get_ports {cpu_reset dip[*] pcie_perst_n uart_rxd}]
set_false_path -to [get_ports {led[*] uart_txd qsfp_modsell[*] qsfp_resetl[*] qsfp_lpmode[*]}]
set_false_path -to [get_cells {lnk_s_reg[0]}]
