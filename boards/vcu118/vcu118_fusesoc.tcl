# vcu118_fusesoc.tcl - the VCU118's vendor IP in the FuseSoC/Edalize Vivado flow
# (boards/vcu118/kolo_board_vcu118.core, target synth; docs/boards.md "kolo as an
# IP: FuseSoC"): the project script Edalize writes sources this file after
# the sources and constraints; kolo_fusesoc_ip makes the IP as vcu118_build.tcl
# does and reads the shared clock-crossing constraints. The shared files
# (core kolo:board:common_xilinx): where FuseSoC copies them, beside this
# core's folder, or the repository's when ::kolo_root is set (make test-boards).
set kolo_board_dir [file dirname [file normalize [info script]]]
if {[info exists ::kolo_root]} {set kolo_common [file join $::kolo_root boards common xilinx]} else {set kolo_common [lindex [glob -directory [file dirname $kolo_board_dir] kolo_board_common_xilinx_*] 0]}
source [file join $kolo_common kolo_build.tcl]
kolo_fusesoc_ip vcu118 $kolo_board_dir $kolo_common
