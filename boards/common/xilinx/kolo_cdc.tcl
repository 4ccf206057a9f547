# kolo_cdc.tcl - clock-domain crossing constraints for every instance of
# kolo's crossing cells (rtl/common), for Vivado: read it after the board's
# clocks (read_xdc -unmanaged). Each crossing of the chip's clock list
# (docs/chip.md) goes through one of these cells, so constraining the cells
# constrains every crossing:
#   kolo_sync_bit     the path into the first stage (chain[0]): datapath only,
#                     one destination clock period (the stages carry ASYNC_REG)
#   kolo_reset_sync   the asynchronous preset of the chain: a false path
#   kolo_fifo_async   the Gray pointers into the other side's first
#                     synchroniser stage, and the storage read by the other
#                     clock: datapath only, the smaller of the two periods
#   kolo_sync_word    the holding register read by the destination clock
#                     (stable while read): datapath only, one destination period
# Boards: kc705, vcu118 (boards/<board>/<board>_build.tcl reads it).

# the smallest period of the clocks that clock these cells (ns; 10 if none
# is known, e.g. a cell whose clock is not constrained yet)
proc kolo_cdc_period {cells} {
    set clocks [get_clocks -quiet -of_objects [get_pins -quiet -filter {IS_CLOCK} -of_objects $cells]]
    if {[llength $clocks] == 0} {
        return 10.0
    }
    return [lindex [lsort -real [get_property PERIOD $clocks]] 0]
}

proc kolo_cdc_cells {type} {
    return [get_cells -quiet -hierarchical -filter "REF_NAME == $type || ORIG_REF_NAME == $type"]
}

foreach inst [kolo_cdc_cells kolo_sync_bit] {
    set dst [get_cells -quiet "$inst/chain_reg\[0\]*"]
    if {[llength $dst]} {
        set_max_delay -datapath_only -to $dst [kolo_cdc_period $dst]
    }
}

foreach inst [kolo_cdc_cells kolo_reset_sync] {
    set_false_path -to [get_pins -quiet -of_objects [get_cells -quiet "$inst/chain_reg*"] -filter {REF_PIN_NAME == PRE}]
}

foreach inst [kolo_cdc_cells kolo_fifo_async] {
    set wr [get_cells -quiet "$inst/wr_gray_reg*"]
    set rd [get_cells -quiet "$inst/rd_gray_reg*"]
    set rd_sync [get_cells -quiet "$inst/rd_sync1_gray_reg*"]
    set wr_sync [get_cells -quiet "$inst/wr_sync1_gray_reg*"]
    set per [kolo_cdc_period [concat $rd_sync $wr_sync]]
    set_max_delay -datapath_only -from $wr -to $rd_sync $per
    set_max_delay -datapath_only -from $rd -to $wr_sync $per
    # the storage is written in wr_clk and read combinationally in rd_clk
    set mem [get_cells -quiet "$inst/mem_reg*"]
    if {[llength $mem]} {
        set_max_delay -datapath_only -from $mem [kolo_cdc_period $rd_sync]
    }
}

foreach inst [kolo_cdc_cells kolo_sync_word] {
    set hold [get_cells -quiet "$inst/hold_reg*"]
    set out [get_cells -quiet "$inst/out_reg*"]
    set_max_delay -datapath_only -from $hold -to $out [kolo_cdc_period $out]
}
