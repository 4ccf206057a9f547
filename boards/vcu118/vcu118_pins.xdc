# vcu118_pins.xdc - pins, I/O standards and configuration of kolo on the Xilinx
# VCU118 (xcvu9p-flga2104-2L-e; top kolo_board_vcu118). Pin facts from the
# VCU118 user guide (UG1224) and schematics. Clocks: vcu118_timing.xdc.

# ---- configuration --------------------------------------------------------------
set_property CFGBVS GND [current_design]
set_property CONFIG_VOLTAGE 1.8 [current_design]
set_property BITSTREAM.GENERAL.COMPRESS TRUE [current_design]
set_property BITSTREAM.CONFIG.EXTMASTERCCLK_EN {DIV-1} [current_design]
set_property BITSTREAM.CONFIG.SPI_32BIT_ADDR YES [current_design]
set_property BITSTREAM.CONFIG.SPI_BUSWIDTH 8 [current_design]
set_property BITSTREAM.CONFIG.SPI_FALL_EDGE YES [current_design]

# ---- clock, reset -----------------------------------------------------------------
# 125 MHz LVDS oscillator (U24 via the clock buffer), bank 64
set_property -dict {PACKAGE_PIN AY24 IOSTANDARD LVDS} [get_ports clk_125mhz_p]
set_property -dict {PACKAGE_PIN AY23 IOSTANDARD LVDS} [get_ports clk_125mhz_n]
# CPU_RESET push button SW5, active high
set_property -dict {PACKAGE_PIN L19 IOSTANDARD LVCMOS12} [get_ports cpu_reset]

# ---- PCI Express x16 edge connector, lanes 0..7 -------------------------------------
# reference clock from the slot on MGTREFCLK0 of Quad 227; PERST# from the slot
set_property PACKAGE_PIN AC9 [get_ports pcie_refclk_p]
set_property PACKAGE_PIN AC8 [get_ports pcie_refclk_n]
set_property -dict {PACKAGE_PIN AM17 IOSTANDARD LVCMOS18 PULLUP true} [get_ports pcie_perst_n]
# lane n: GTYE4_CHANNEL_X1Y(35-n), Quads 227 and 226
set_property PACKAGE_PIN AA4  [get_ports {pcie_rx_p[0]}]
set_property PACKAGE_PIN AA3  [get_ports {pcie_rx_n[0]}]
set_property PACKAGE_PIN Y7   [get_ports {pcie_tx_p[0]}]
set_property PACKAGE_PIN Y6   [get_ports {pcie_tx_n[0]}]
set_property PACKAGE_PIN AB2  [get_ports {pcie_rx_p[1]}]
set_property PACKAGE_PIN AB1  [get_ports {pcie_rx_n[1]}]
set_property PACKAGE_PIN AB7  [get_ports {pcie_tx_p[1]}]
set_property PACKAGE_PIN AB6  [get_ports {pcie_tx_n[1]}]
set_property PACKAGE_PIN AC4  [get_ports {pcie_rx_p[2]}]
set_property PACKAGE_PIN AC3  [get_ports {pcie_rx_n[2]}]
set_property PACKAGE_PIN AD7  [get_ports {pcie_tx_p[2]}]
set_property PACKAGE_PIN AD6  [get_ports {pcie_tx_n[2]}]
set_property PACKAGE_PIN AD2  [get_ports {pcie_rx_p[3]}]
set_property PACKAGE_PIN AD1  [get_ports {pcie_rx_n[3]}]
set_property PACKAGE_PIN AF7  [get_ports {pcie_tx_p[3]}]
set_property PACKAGE_PIN AF6  [get_ports {pcie_tx_n[3]}]
set_property PACKAGE_PIN AE4  [get_ports {pcie_rx_p[4]}]
set_property PACKAGE_PIN AE3  [get_ports {pcie_rx_n[4]}]
set_property PACKAGE_PIN AH7  [get_ports {pcie_tx_p[4]}]
set_property PACKAGE_PIN AH6  [get_ports {pcie_tx_n[4]}]
set_property PACKAGE_PIN AF2  [get_ports {pcie_rx_p[5]}]
set_property PACKAGE_PIN AF1  [get_ports {pcie_rx_n[5]}]
set_property PACKAGE_PIN AK7  [get_ports {pcie_tx_p[5]}]
set_property PACKAGE_PIN AK6  [get_ports {pcie_tx_n[5]}]
set_property PACKAGE_PIN AG4  [get_ports {pcie_rx_p[6]}]
set_property PACKAGE_PIN AG3  [get_ports {pcie_rx_n[6]}]
set_property PACKAGE_PIN AM7  [get_ports {pcie_tx_p[6]}]
set_property PACKAGE_PIN AM6  [get_ports {pcie_tx_n[6]}]
set_property PACKAGE_PIN AH2  [get_ports {pcie_rx_p[7]}]
set_property PACKAGE_PIN AH1  [get_ports {pcie_rx_n[7]}]
set_property PACKAGE_PIN AN5  [get_ports {pcie_tx_p[7]}]
set_property PACKAGE_PIN AN4  [get_ports {pcie_tx_n[7]}]

# ---- network ports: GTY transceivers on the QSFP28 cages ------------------------------
# 156.25 MHz references: QSFP1 on MGTREFCLK0 of Quad 231, QSFP2 on MGTREFCLK0 of Quad 232
set_property PACKAGE_PIN W9 [get_ports qsfp1_refclk_p]
set_property PACKAGE_PIN W8 [get_ports qsfp1_refclk_n]
set_property PACKAGE_PIN R9 [get_ports qsfp2_refclk_p]
set_property PACKAGE_PIN R8 [get_ports qsfp2_refclk_n]
# ports 0..3 (X+ X- Y+ Y-): QSFP1 lanes 1..4 (GTYE4_CHANNEL_X1Y48..X1Y51);
# ports 4..5 (Z+ Z-): QSFP2 lanes 1..2 (GTYE4_CHANNEL_X1Y52..X1Y53)
set_property PACKAGE_PIN Y2  [get_ports {gt_rx_p[0]}]
set_property PACKAGE_PIN Y1  [get_ports {gt_rx_n[0]}]
set_property PACKAGE_PIN V7  [get_ports {gt_tx_p[0]}]
set_property PACKAGE_PIN V6  [get_ports {gt_tx_n[0]}]
set_property PACKAGE_PIN W4  [get_ports {gt_rx_p[1]}]
set_property PACKAGE_PIN W3  [get_ports {gt_rx_n[1]}]
set_property PACKAGE_PIN T7  [get_ports {gt_tx_p[1]}]
set_property PACKAGE_PIN T6  [get_ports {gt_tx_n[1]}]
set_property PACKAGE_PIN V2  [get_ports {gt_rx_p[2]}]
set_property PACKAGE_PIN V1  [get_ports {gt_rx_n[2]}]
set_property PACKAGE_PIN P7  [get_ports {gt_tx_p[2]}]
set_property PACKAGE_PIN P6  [get_ports {gt_tx_n[2]}]
set_property PACKAGE_PIN U4  [get_ports {gt_rx_p[3]}]
set_property PACKAGE_PIN U3  [get_ports {gt_rx_n[3]}]
set_property PACKAGE_PIN M7  [get_ports {gt_tx_p[3]}]
set_property PACKAGE_PIN M6  [get_ports {gt_tx_n[3]}]
set_property PACKAGE_PIN T2  [get_ports {gt_rx_p[4]}]
set_property PACKAGE_PIN T1  [get_ports {gt_rx_n[4]}]
set_property PACKAGE_PIN L5  [get_ports {gt_tx_p[4]}]
set_property PACKAGE_PIN L4  [get_ports {gt_tx_n[4]}]
set_property PACKAGE_PIN R4  [get_ports {gt_rx_p[5]}]
set_property PACKAGE_PIN R3  [get_ports {gt_rx_n[5]}]
set_property PACKAGE_PIN K7  [get_ports {gt_tx_p[5]}]
set_property PACKAGE_PIN K6  [get_ports {gt_tx_n[5]}]
# QSFP28 module control (index 0: QSFP1, 1: QSFP2)
set_property -dict {PACKAGE_PIN AM21 IOSTANDARD LVCMOS18} [get_ports {qsfp_modsell[0]}]
set_property -dict {PACKAGE_PIN BA22 IOSTANDARD LVCMOS18} [get_ports {qsfp_resetl[0]}]
set_property -dict {PACKAGE_PIN AN21 IOSTANDARD LVCMOS18} [get_ports {qsfp_lpmode[0]}]
set_property -dict {PACKAGE_PIN AN23 IOSTANDARD LVCMOS18} [get_ports {qsfp_modsell[1]}]
set_property -dict {PACKAGE_PIN AY22 IOSTANDARD LVCMOS18} [get_ports {qsfp_resetl[1]}]
set_property -dict {PACKAGE_PIN AT24 IOSTANDARD LVCMOS18} [get_ports {qsfp_lpmode[1]}]

# ---- USB-UART (CP2105 port), DIP switches, LEDs ---------------------------------------
set_property -dict {PACKAGE_PIN BB21 IOSTANDARD LVCMOS18} [get_ports uart_txd]
set_property -dict {PACKAGE_PIN AW25 IOSTANDARD LVCMOS18} [get_ports uart_rxd]
# GPIO DIP switch SW12 positions 1..4
set_property -dict {PACKAGE_PIN B17 IOSTANDARD LVCMOS12} [get_ports {dip[0]}]
set_property -dict {PACKAGE_PIN G16 IOSTANDARD LVCMOS12} [get_ports {dip[1]}]
set_property -dict {PACKAGE_PIN J16 IOSTANDARD LVCMOS12} [get_ports {dip[2]}]
set_property -dict {PACKAGE_PIN D21 IOSTANDARD LVCMOS12} [get_ports {dip[3]}]
# GPIO LEDs DS7..DS0
set_property -dict {PACKAGE_PIN AT32 IOSTANDARD LVCMOS12} [get_ports {led[0]}]
set_property -dict {PACKAGE_PIN AV34 IOSTANDARD LVCMOS12} [get_ports {led[1]}]
set_property -dict {PACKAGE_PIN AY30 IOSTANDARD LVCMOS12} [get_ports {led[2]}]
set_property -dict {PACKAGE_PIN BB32 IOSTANDARD LVCMOS12} [get_ports {led[3]}]
set_property -dict {PACKAGE_PIN BF32 IOSTANDARD LVCMOS12} [get_ports {led[4]}]
set_property -dict {PACKAGE_PIN AU37 IOSTANDARD LVCMOS12} [get_ports {led[5]}]
set_property -dict {PACKAGE_PIN AV36 IOSTANDARD LVCMOS12} [get_ports {led[6]}]
set_property -dict {PACKAGE_PIN BA37 IOSTANDARD LVCMOS12} [get_ports {led[7]}]
