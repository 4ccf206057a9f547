# c5gt.sdc - clocks and board-level false paths of kolo on the Cyclone V GT
# development kit (TimeQuest). Crossings inside the chip: ../common/intel/kolo_cdc.sdc.
create_clock -name clk125 -period 8.000 [get_ports clk125]
create_clock -name pcie_refclk -period 10.000 [get_ports pcie_refclk]
create_clock -name xcvr_refclk -period 10.000 [get_ports xcvr_refclk]
# the hard IP's coreclkout and the transceivers' tx/rx clkout come from
# their PLLs and CDRs
derive_pll_clocks -create_base_clocks
derive_clock_uncertainty
# asynchronous board I/O
set_false_path -from [get_ports {user_reset_n pcie_perst_n dip[*]}]
set_false_path -to [get_ports {led_n[*] uart_txd}]
# the board's own button synchroniser (rst_s: ASYNC_REG; the status flags
# go through kolo_sync_bit, kolo_cdc.sdc)
set_false_path -to [get_registers {rst_s[0]}]
