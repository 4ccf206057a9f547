# c5gt_kit_pins.tcl - the pins of kolo_board_cyclonev_gt that are not in c5gt.qsf
# because the facts were not at hand when the board folder was written: the
# PCIe lane pins and PERST#, the SMA transceiver pair (port 0) and HSMC port A
# transceiver lanes 0..2 (ports 1..3). Copy the assignments for these
# signals from the kit's golden top pin file (cv_gt_golden_top.qsf in the
# kit installation, or the reference manual's tables) and map them here:
#   pcie_perst_n    PCIE_PERSTn
#   pcie_rx[0..3]   PCIE_RX_P[0..3]      pcie_tx[0..3]   PCIE_TX_P[0..3]
#   xcvr_rx[0]      SMA_XCVR_RX_P        xcvr_tx[0]      SMA_XCVR_TX_P
#   xcvr_rx[1..3]   HSMA_XCVR_RX_P[0..2] xcvr_tx[1..3]   HSMA_XCVR_TX_P[0..2]
# Until then the build stops here with the list of what is missing (the
# checks of make test-boards report the same ports as unplaced).
set kolo_kit_pins {}
# example of one line, once the pin is known:
#   set_location_assignment PIN_<pin> -to pcie_perst_n ; lappend kolo_kit_pins pcie_perst_n
set kolo_kit_missing {}
foreach p {pcie_perst_n pcie_rx[0] pcie_rx[1] pcie_rx[2] pcie_rx[3] pcie_tx[0] pcie_tx[1] pcie_tx[2]
           pcie_tx[3] xcvr_rx[0] xcvr_rx[1] xcvr_rx[2] xcvr_rx[3] xcvr_tx[0] xcvr_tx[1] xcvr_tx[2] xcvr_tx[3]} {
    if {[lsearch -exact $kolo_kit_pins $p] < 0} {
        lappend kolo_kit_missing $p
    }
}
if {[llength $kolo_kit_missing] && ![info exists ::kolo_check_only]} {
    error "kolo: c5gt_kit_pins.tcl does not place [join $kolo_kit_missing {, }]: copy their pins from the kit's pin file (see the header of this file)"
}
