# c5gt_build.tcl - the Quartus build of kolo on the Cyclone V GT development kit:
#   quartus_sh -t boards/cyclonev-gt/c5gt_build.tcl <out dir> <file list> [<imem hex> <dmem hex>]
# (make bitstream BOARD=cyclonev-gt writes the file list and runs exactly
# this). Makes the Platform Designer systems (qsys-script, qsys-generate),
# checks their ports against c5gt_ip_stubs.v, compiles, checks timing, and
# writes <out dir>/kolo_board_cyclonev_gt.sof and .rbf.
package require ::quartus::project
package require ::quartus::flow
set board_dir [file dirname [file normalize [info script]]]
set root [file normalize [file join $board_dir .. ..]]
if {[info exists ::kolo_root]} {
    set root $::kolo_root
}
if {[llength $quartus(args)] < 2} {
    error "usage: quartus_sh -t c5gt_build.tcl <out dir> <file list> \[<imem hex> <dmem hex>\]"
}
set out [file normalize [lindex $quartus(args) 0]]
set filelist [file normalize [lindex $quartus(args) 1]]
set top kolo_board_cyclonev_gt
file mkdir $out
set ipdir [file join $out ip]
file mkdir $ipdir

# ---- IP: the two Platform Designer systems, generated, then their ports checked
source [file join $root boards common intel kolo_build.tcl]
set qips [kolo_make_qsys [file join $board_dir c5gt_ip.tcl] $ipdir [file join $board_dir c5gt_ip_stubs.v] \
    {kolo_c5gt_pcie kolo_c5gt_xcvr}]

# ---- the project
cd $out
project_new kolo_c5gt -overwrite
source [file join $board_dir c5gt.qsf]
set_global_assignment -name TOP_LEVEL_ENTITY $top
set_global_assignment -name SEARCH_PATH [file join $root rtl include]
kolo_add_sources $root $filelist
foreach qip $qips {
    set_global_assignment -name QIP_FILE $qip
}
set_global_assignment -name SDC_FILE [file join $board_dir c5gt.sdc]
set_global_assignment -name SDC_FILE [file join $root boards common intel kolo_cdc.sdc]
if {[llength $quartus(args)] >= 4} {
    set_parameter -name SP_IMEM_INIT [file normalize [lindex $quartus(args) 2]]
    set_parameter -name SP_DMEM_INIT [file normalize [lindex $quartus(args) 3]]
}
export_assignments
execute_flow -compile
kolo_check_timing [file join $out output_files kolo_c5gt.sta.summary]
file copy -force [file join $out output_files kolo_c5gt.sof] [file join $out $top.sof]
file copy -force [file join $out output_files kolo_c5gt.rbf] [file join $out $top.rbf]
project_close
puts "kolo: [file join $out $top.sof] done"
