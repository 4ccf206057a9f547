# kolo_build.tcl - procedures the Vivado builds of kolo's Xilinx boards share
# (boards/<board>/<board>_build.tcl sources this file). Non-project mode.

# Read the Verilog sources listed in a file list (one path per line, relative
# to the repository root, `#` comments), with the include directory.
proc kolo_read_sources {root filelist} {
    set f [open $filelist r]
    set n 0
    foreach line [split [read $f] "\n"] {
        set line [string trim $line]
        if {$line eq "" || [string index $line 0] eq "#"} {
            continue
        }
        read_verilog -sv [file join $root $line]
        incr n
    }
    close $f
    if {$n == 0} {
        error "kolo: $filelist lists no source"
    }
    return $n
}

# The ports of a Verilog module as {name {dir width}} pairs, read from a file
# that declares it (ANSI headers as in the kolo stubs, or the non-ANSI port
# declarations of a Vivado _stub.v).
proc kolo_module_ports {file module} {
    set f [open $file r]
    set text [read $f]
    close $f
    set start [string first "module $module" $text]
    if {$start < 0} {
        set start [string first "module $module\(" $text]
    }
    if {$start < 0} {
        error "kolo: no module $module in $file"
    }
    set end [string first "endmodule" $text $start]
    set body [string range $text $start $end]
    set ports [dict create]
    foreach {all dir hi lo name} [regexp -all -inline {(input|output|inout)\s+(?:wire\s+|reg\s+)?(?:\[(\d+):(\d+)\]\s*)?(\w+)} $body] {
        set w [expr {$hi eq "" ? 1 : $hi - $lo + 1}]
        dict set ports $name [list $dir $w]
    }
    return $ports
}

# Every port of the stub (the ports the board top uses) must exist in the
# generated IP with the same direction and width: otherwise stop here, with
# the differences, instead of failing in synthesis.
proc kolo_check_ip_ports {stubfile module ipstub} {
    set want [kolo_module_ports $stubfile $module]
    set have [kolo_module_ports $ipstub $module]
    set bad {}
    dict for {name dw} $want {
        if {![dict exists $have $name]} {
            lappend bad "$name: not a port of the generated $module"
        } elseif {[dict get $have $name] ne $dw} {
            lappend bad "$name: $dw in the board's stub, [dict get $have $name] in the generated IP"
        }
    }
    if {[llength $bad]} {
        error "kolo: the generated IP $module differs from $stubfile:\n  [join $bad "\n  "]"
    }
    puts "kolo: $module: the [dict size $want] ports the board uses match the generated IP"
}

# Generate and synthesise one IP (out of context) and check its ports.
proc kolo_generate_ip {ip stubfile} {
    generate_target {instantiation_template synthesis} [get_ips $ip]
    synth_ip [get_ips $ip]
    set xci [get_property IP_FILE [get_ips $ip]]
    set ipstub [file join [file dirname $xci] "${ip}_stub.v"]
    if {![file exists $ipstub]} {
        error "kolo: no stub $ipstub after synth_ip of $ip"
    }
    kolo_check_ip_ports $stubfile $ip $ipstub
}

# Implementation, reports and the bitstream; stops if timing is not met.
proc kolo_implement {top part out generics} {
    synth_design -top $top -part $part -generic $generics -flatten_hierarchy rebuilt
    opt_design
    place_design
    phys_opt_design
    route_design
    report_utilization -file [file join $out utilization.txt]
    report_utilization -hierarchical -file [file join $out utilization_hier.txt]
    report_timing_summary -max_paths 20 -file [file join $out timing_summary.txt]
    report_clock_interaction -file [file join $out clock_interaction.txt]
    report_cdc -file [file join $out cdc.txt]
    report_drc -file [file join $out drc.txt]
    set wns [get_property SLACK [get_timing_paths -max_paths 1 -nworst 1 -setup]]
    set whs [get_property SLACK [get_timing_paths -max_paths 1 -nworst 1 -hold]]
    puts "kolo: worst setup slack $wns ns, worst hold slack $whs ns"
    if {$wns < 0 || $whs < 0} {
        error "kolo: timing not met (setup $wns ns, hold $whs ns): see [file join $out timing_summary.txt]"
    }
    write_bitstream -force [file join $out "$top.bit"]
    write_cfgmem -force -format mcs -interface SPIx4 -size 16 \
        -loadbit "up 0x0 [file join $out $top.bit]" [file join $out "$top.mcs"]
}

# The FuseSoC/Edalize flow (boards/<board>/kolo_board_<board>.core): the
# board's hook <board>_fusesoc.tcl calls this in the project Edalize made.
# It creates, generates and checks the board's IP as the batch build does
# (kolo_<board>_ip_all of <board>_ip.tcl), into ip/ of the work directory,
# then reads the clock-crossing constraints (common: this folder, where the
# core kolo:board:common_xilinx put it) after the board's clocks.
proc kolo_fusesoc_ip {board board_dir common} {
    uplevel #0 [list source [file join $board_dir ${board}_ip.tcl]]
    set_property target_language Verilog [current_project]
    kolo_${board}_ip_all [file join [pwd] ip] $board_dir
    read_xdc -unmanaged [file join $common kolo_cdc.tcl]
}
