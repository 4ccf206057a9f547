# kolo_build.tcl - procedures the Quartus builds of kolo's Intel boards share
# (boards/<board>/<board>_build.tcl sources this file).

# Add the Verilog sources of a file list (one path per line, relative to the
# repository root, `#` comments).
proc kolo_add_sources {root filelist} {
    set f [open $filelist r]
    set n 0
    foreach line [split [read $f] "\n"] {
        set line [string trim $line]
        if {$line eq "" || [string index $line 0] eq "#"} {
            continue
        }
        set_global_assignment -name SYSTEMVERILOG_FILE [file join $root $line]
        incr n
    }
    close $f
    if {$n == 0} {
        error "kolo: $filelist lists no source"
    }
}

# The ports of a module as {name {dir width}} (ANSI headers as in the kolo
# stubs and in the HDL that qsys-generate writes).
proc kolo_module_ports {file module} {
    set f [open $file r]
    set text [read $f]
    close $f
    set start [string first "module $module" $text]
    if {$start < 0} {
        error "kolo: no module $module in $file"
    }
    set end [string first "endmodule" $text $start]
    set body [string range $text $start $end]
    set ports [dict create]
    foreach {all dir hi lo name} [regexp -all -inline {(input|output|inout)\s+(?:wire\s+|reg\s+)?(?:\[(\d+):(\d+)\]\s*)?(\w+)} $body] {
        dict set ports $name [list $dir [expr {$hi eq "" ? 1 : $hi - $lo + 1}]]
    }
    return $ports
}

# Every port of the stub must exist in the generated system, same direction
# and width; else stop with the differences.
proc kolo_check_ip_ports {stubfile module generated} {
    set want [kolo_module_ports $stubfile $module]
    set have [kolo_module_ports $generated $module]
    set bad {}
    dict for {name dw} $want {
        if {![dict exists $have $name]} {
            lappend bad "$name: not a port of the generated $module"
        } elseif {[dict get $have $name] ne $dw} {
            lappend bad "$name: $dw in the board's stub, [dict get $have $name] in the generated system"
        }
    }
    if {[llength $bad]} {
        error "kolo: the generated $module differs from $stubfile:\n  [join $bad "\n  "]"
    }
}

# Stop if the timing analysis summary has a negative slack.
proc kolo_check_timing {summary} {
    set f [open $summary r]
    set text [read $f]
    close $f
    foreach {all slack} [regexp -all -inline {Slack\s*:\s*(-?[0-9.]+)} $text] {
        if {$slack < 0} {
            error "kolo: timing not met (a slack of $slack ns): see $summary"
        }
    }
}

# Make a board's Platform Designer systems: its qsys-script script writes
# them into ipdir, qsys-generate makes each one's HDL, whose ports are then
# checked against the board's stubs (kolo_check_ip_ports). Returns the .qip
# files to add to the project. Used by the board's build script and, in the
# FuseSoC/Edalize flow, by its _fusesoc.tcl hook.
proc kolo_make_qsys {script ipdir stubfile systems} {
    file mkdir $ipdir
    exec qsys-script --script=$script --cmd "set kolo_ip_dir $ipdir"
    set qips {}
    foreach sys $systems {
        exec qsys-generate [file join $ipdir $sys.qsys] --synthesis=VERILOG --output-directory=[file join $ipdir $sys]
        kolo_check_ip_ports $stubfile $sys [file join $ipdir $sys synthesis $sys.v]
        lappend qips [file join $ipdir $sys synthesis $sys.qip]
    }
    return $qips
}
