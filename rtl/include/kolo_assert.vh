// kolo_assert.vh - `KOLO_ASSERT(cond): a run-time check that fails the run.
//
// For error guards in simulation-only code (`ifndef SYNTHESIS): a condition
// that must hold in every cycle it is evaluated, e.g.
//     always @(posedge clk) if (!rst) `KOLO_ASSERT(!(wr && !fifo_in_ready));
// One form that Verilator 5.006, Icarus 11 and Yosys 0.23 all read:
//   - Verilator (built with --assert, as every kolo build is): an immediate
//     assertion; a failure prints the file, line and instance and stops the
//     run with a non-zero exit.
//   - Icarus 11 reports a failed immediate assertion but runs on, so there
//     the check is `if (!(cond)) $fatal`, which ends the run with exit 1.
//   - Yosys (read_verilog -formal, which leaves SYNTHESIS undefined): an
//     assertion, so the guards are proof obligations of every formal proof
//     that includes the module. Synthesis defines SYNTHESIS and skips them.
// The condition is not quoted in the message: the tools name the source line.
`ifndef KOLO_ASSERT_VH
`define KOLO_ASSERT_VH
`ifdef __ICARUS__
`define KOLO_ASSERT(cond) if (!(cond)) $fatal(1, "assertion failed in %m")
`else
`define KOLO_ASSERT(cond) assert (cond)
`endif
`endif
