# vcu118_build.tcl - the Vivado build of kolo on the VCU118, non-project mode:
#   vivado -mode batch -nojournal -nolog -source boards/vcu118/vcu118_build.tcl \
#       -tclargs <out dir> <file list> [<imem hex> <dmem hex>]
# (make bitstream BOARD=vcu118 writes the file list - the same sources the
# checks here elaborate - and runs exactly this). Outputs in <out dir>:
# kolo_board_vcu118.bit / .mcs, the IP, reports (utilization, timing, clock
# interaction, CDC, DRC). Stops with an error if an IP's ports differ from
# vcu118_ip_stubs.v or timing is not met.
set board_dir [file dirname [file normalize [info script]]]
set root [file normalize [file join $board_dir .. ..]]
# (a check that runs a copy of this script elsewhere says where the tree is)
if {[info exists ::kolo_root]} {
    set root $::kolo_root
}
if {[llength $argv] < 2} {
    error "usage: vivado -mode batch -source vcu118_build.tcl -tclargs <out dir> <file list> \[<imem hex> <dmem hex>\]"
}
set out [file normalize [lindex $argv 0]]
set filelist [file normalize [lindex $argv 1]]
set generics {}
if {[llength $argv] >= 4} {
    lappend generics "SP_IMEM_INIT=\"[file normalize [lindex $argv 2]]\""
    lappend generics "SP_DMEM_INIT=\"[file normalize [lindex $argv 3]]\""
}
set part xcvu9p-flga2104-2L-e
set top kolo_board_vcu118

source [file join $root boards common xilinx kolo_build.tcl]
source [file join $board_dir vcu118_ip.tcl]

file mkdir $out
create_project -in_memory -part $part
set_property target_language Verilog [current_project]

kolo_vcu118_ip_all [file join $out ip] $board_dir

kolo_read_sources $root $filelist
set_property include_dirs [list [file join $root rtl include]] [current_fileset]
read_xdc [file join $board_dir vcu118_pins.xdc]
read_xdc [file join $board_dir vcu118_timing.xdc]
read_xdc -unmanaged [file join $root boards common xilinx kolo_cdc.tcl]

kolo_implement $top $part $out $generics
puts "kolo: [file join $out $top.bit] done"
