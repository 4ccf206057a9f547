# kc705_pins.xdc - pins, I/O standards and configuration of kolo on the Xilinx
# KC705 (xc7k325tffg900-2; top kolo_board_kc705). Pin facts from the KC705
# user guide (UG810) and schematics. Clocks and crossings: kc705_timing.xdc,
# ../common/xilinx/kolo_cdc.tcl.

# ---- configuration --------------------------------------------------------------
set_property CFGBVS VCCO [current_design]
set_property CONFIG_VOLTAGE 2.5 [current_design]
set_property BITSTREAM.GENERAL.COMPRESS TRUE [current_design]
set_property BITSTREAM.CONFIG.SPI_BUSWIDTH 4 [current_design]
set_property BITSTREAM.CONFIG.CONFIGRATE 33 [current_design]

# ---- system clock, reset ----------------------------------------------------------
# SYSCLK: 200 MHz LVDS oscillator (U6), bank 33 (1.5 V)
set_property -dict {PACKAGE_PIN AD12 IOSTANDARD LVDS} [get_ports sysclk_p]
set_property -dict {PACKAGE_PIN AD11 IOSTANDARD LVDS} [get_ports sysclk_n]
# CPU_RESET push button SW7, active high
set_property -dict {PACKAGE_PIN AB7 IOSTANDARD LVCMOS15} [get_ports cpu_reset]

# ---- PCI Express x8 edge connector ------------------------------------------------
# reference clock from the slot on MGTREFCLK0 of Quad 115; PERST# from the slot
set_property PACKAGE_PIN U8 [get_ports pcie_refclk_p]
set_property PACKAGE_PIN U7 [get_ports pcie_refclk_n]
set_property -dict {PACKAGE_PIN G25 IOSTANDARD LVCMOS25 PULLUP true} [get_ports pcie_perst_n]
# lanes 0..7 (GTX Quads 115 and 116; the PCIe block's lane order: lane 0 at GTXE2_CHANNEL_X0Y7)
set_property PACKAGE_PIN M6  [get_ports {pcie_rx_p[0]}]
set_property PACKAGE_PIN M5  [get_ports {pcie_rx_n[0]}]
set_property PACKAGE_PIN L4  [get_ports {pcie_tx_p[0]}]
set_property PACKAGE_PIN L3  [get_ports {pcie_tx_n[0]}]
set_property PACKAGE_PIN P6  [get_ports {pcie_rx_p[1]}]
set_property PACKAGE_PIN P5  [get_ports {pcie_rx_n[1]}]
set_property PACKAGE_PIN M2  [get_ports {pcie_tx_p[1]}]
set_property PACKAGE_PIN M1  [get_ports {pcie_tx_n[1]}]
set_property PACKAGE_PIN R4  [get_ports {pcie_rx_p[2]}]
set_property PACKAGE_PIN R3  [get_ports {pcie_rx_n[2]}]
set_property PACKAGE_PIN N4  [get_ports {pcie_tx_p[2]}]
set_property PACKAGE_PIN N3  [get_ports {pcie_tx_n[2]}]
set_property PACKAGE_PIN T6  [get_ports {pcie_rx_p[3]}]
set_property PACKAGE_PIN T5  [get_ports {pcie_rx_n[3]}]
set_property PACKAGE_PIN P2  [get_ports {pcie_tx_p[3]}]
set_property PACKAGE_PIN P1  [get_ports {pcie_tx_n[3]}]
set_property PACKAGE_PIN V6  [get_ports {pcie_rx_p[4]}]
set_property PACKAGE_PIN V5  [get_ports {pcie_rx_n[4]}]
set_property PACKAGE_PIN T2  [get_ports {pcie_tx_p[4]}]
set_property PACKAGE_PIN T1  [get_ports {pcie_tx_n[4]}]
set_property PACKAGE_PIN W4  [get_ports {pcie_rx_p[5]}]
set_property PACKAGE_PIN W3  [get_ports {pcie_rx_n[5]}]
set_property PACKAGE_PIN U4  [get_ports {pcie_tx_p[5]}]
set_property PACKAGE_PIN U3  [get_ports {pcie_tx_n[5]}]
set_property PACKAGE_PIN Y6  [get_ports {pcie_rx_p[6]}]
set_property PACKAGE_PIN Y5  [get_ports {pcie_rx_n[6]}]
set_property PACKAGE_PIN V2  [get_ports {pcie_tx_p[6]}]
set_property PACKAGE_PIN V1  [get_ports {pcie_tx_n[6]}]
set_property PACKAGE_PIN AA4 [get_ports {pcie_rx_p[7]}]
set_property PACKAGE_PIN AA3 [get_ports {pcie_rx_n[7]}]
set_property PACKAGE_PIN Y2  [get_ports {pcie_tx_p[7]}]
set_property PACKAGE_PIN Y1  [get_ports {pcie_tx_n[7]}]

# ---- network ports: GTX transceivers ----------------------------------------------
# reference: 125 MHz oscillator (the SGMII clock, U2) on MGTREFCLK0 of Quad 117
set_property PACKAGE_PIN G8 [get_ports gt_refclk_p]
set_property PACKAGE_PIN G7 [get_ports gt_refclk_n]
# port 0 (X+): SFP+ cage P5, GTXE2_CHANNEL_X0Y10
set_property PACKAGE_PIN G4 [get_ports {gt_rx_p[0]}]
set_property PACKAGE_PIN G3 [get_ports {gt_rx_n[0]}]
set_property PACKAGE_PIN H2 [get_ports {gt_tx_p[0]}]
set_property PACKAGE_PIN H1 [get_ports {gt_tx_n[0]}]
# port 1 (X-): SMA J17/J66 (rx), J19/J20 (tx), GTXE2_CHANNEL_X0Y8
set_property PACKAGE_PIN K6 [get_ports {gt_rx_p[1]}]
set_property PACKAGE_PIN K5 [get_ports {gt_rx_n[1]}]
set_property PACKAGE_PIN K2 [get_ports {gt_tx_p[1]}]
set_property PACKAGE_PIN K1 [get_ports {gt_tx_n[1]}]
# ports 2..5 (Y+ Y- Z+ Z-): FMC HPC J22 DP0..DP3, GTX Quad 118
set_property PACKAGE_PIN E4 [get_ports {gt_rx_p[2]}]
set_property PACKAGE_PIN E3 [get_ports {gt_rx_n[2]}]
set_property PACKAGE_PIN D2 [get_ports {gt_tx_p[2]}]
set_property PACKAGE_PIN D1 [get_ports {gt_tx_n[2]}]
set_property PACKAGE_PIN D6 [get_ports {gt_rx_p[3]}]
set_property PACKAGE_PIN D5 [get_ports {gt_rx_n[3]}]
set_property PACKAGE_PIN C4 [get_ports {gt_tx_p[3]}]
set_property PACKAGE_PIN C3 [get_ports {gt_tx_n[3]}]
set_property PACKAGE_PIN B6 [get_ports {gt_rx_p[4]}]
set_property PACKAGE_PIN B5 [get_ports {gt_rx_n[4]}]
set_property PACKAGE_PIN B2 [get_ports {gt_tx_p[4]}]
set_property PACKAGE_PIN B1 [get_ports {gt_tx_n[4]}]
set_property PACKAGE_PIN A8 [get_ports {gt_rx_p[5]}]
set_property PACKAGE_PIN A7 [get_ports {gt_rx_n[5]}]
set_property PACKAGE_PIN A4 [get_ports {gt_tx_p[5]}]
set_property PACKAGE_PIN A3 [get_ports {gt_tx_n[5]}]
# SFP+ transmitter enable (SFP_TX_DISABLE, driven low: on)
set_property -dict {PACKAGE_PIN Y20 IOSTANDARD LVCMOS25} [get_ports sfp_tx_disable]

# ---- USB-UART (CP2103), DIP switches, LEDs ------------------------------------------
set_property -dict {PACKAGE_PIN K24 IOSTANDARD LVCMOS25} [get_ports uart_txd]
set_property -dict {PACKAGE_PIN M19 IOSTANDARD LVCMOS25} [get_ports uart_rxd]
# GPIO DIP switch SW11 positions 1..4
set_property -dict {PACKAGE_PIN Y29  IOSTANDARD LVCMOS25} [get_ports {dip[0]}]
set_property -dict {PACKAGE_PIN W29  IOSTANDARD LVCMOS25} [get_ports {dip[1]}]
set_property -dict {PACKAGE_PIN AA28 IOSTANDARD LVCMOS25} [get_ports {dip[2]}]
set_property -dict {PACKAGE_PIN Y28  IOSTANDARD LVCMOS25} [get_ports {dip[3]}]
# GPIO_LED_0..7 (DS4..DS1 in bank 33 at 1.5 V, DS10..DS12, DS5 at 2.5 V)
set_property -dict {PACKAGE_PIN AB8  IOSTANDARD LVCMOS15} [get_ports {led[0]}]
set_property -dict {PACKAGE_PIN AA8  IOSTANDARD LVCMOS15} [get_ports {led[1]}]
set_property -dict {PACKAGE_PIN AC9  IOSTANDARD LVCMOS15} [get_ports {led[2]}]
set_property -dict {PACKAGE_PIN AB9  IOSTANDARD LVCMOS15} [get_ports {led[3]}]
set_property -dict {PACKAGE_PIN AE26 IOSTANDARD LVCMOS25} [get_ports {led[4]}]
set_property -dict {PACKAGE_PIN G19  IOSTANDARD LVCMOS25} [get_ports {led[5]}]
set_property -dict {PACKAGE_PIN E18  IOSTANDARD LVCMOS25} [get_ports {led[6]}]
set_property -dict {PACKAGE_PIN F16  IOSTANDARD LVCMOS25} [get_ports {led[7]}]
