# c5gt_fusesoc.tcl - the Cyclone V GT kit's vendor IP in the FuseSoC/Edalize
# Quartus flow (boards/cyclonev-gt/kolo_board_cyclonev-gt.core, target synth;
# docs/boards.md "kolo as an IP: FuseSoC"): the project script Edalize writes
# sources this file after c5gt.qsf; it makes the Platform Designer systems
# as c5gt_build.tcl does (kolo_make_qsys), into ip/ of the work directory,
# adds them to the project, and the shared clock-crossing SDC after the
# board's.
set kolo_board_dir [file dirname [file normalize [info script]]]
# the shared procs and constraints (core kolo:board:common_intel): where
# FuseSoC copies them, beside this core's folder, or the repository's when
# ::kolo_root is set
set kolo_common [lindex [glob -nocomplain -directory [file dirname $kolo_board_dir] kolo_board_common_intel_*] 0]
if {[info exists ::kolo_root]} {
    set kolo_common [file join $::kolo_root boards common intel]
}
source [file join $kolo_common kolo_build.tcl]
foreach qip [kolo_make_qsys [file join $kolo_board_dir c5gt_ip.tcl] [file join [pwd] ip] \
                 [file join $kolo_board_dir c5gt_ip_stubs.v] {kolo_c5gt_pcie kolo_c5gt_xcvr}] {
    set_global_assignment -name QIP_FILE $qip
}
# the clock-crossing constraints, after the board's own SDC
set_global_assignment -name SDC_FILE [file join $kolo_common kolo_cdc.sdc]
