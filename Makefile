# kolo - top-level Makefile. Every capability adds a fragment in mk/*.mk that
# appends to TESTS (target test-<name>), BENCHES (target bench-<name>) and
# FORMAL (target formal-<name>). Nothing runs before the tools are there:
# every target depends on $(DEPS_STAMP), which `make deps` produces.

SHELL := /bin/bash
BUILD ?= build
TOP := $(abspath .)
export TOP
# Every Verilator build compiles the RTL's checks: the `ifdef FORMAL
# properties and the `KOLO_ASSERT guards stop the run that breaks one
# (formal/README.md). Every verilator call passes $(VL_CHECKS);
# test-assert-planted checks that, and that each kind of check fires.
VL_CHECKS := --assert -DFORMAL
export VL_CHECKS

TESTS :=
BENCHES :=
FORMAL :=

.DEFAULT_GOAL := help

# Fragments that define what others name in their rules come first: a
# prerequisite list is expanded when make reads it, so a variable defined in
# a later fragment would be empty there (test-mk-vars checks that none is).
# synth.mk defines synth_unit; sw.mk the routing library's sources; svc_model.mk
# the C service model's; lib.mk libkolo; sim.mk kolo-ctl.
MK_FIRST := mk/deps.mk mk/synth.mk mk/sw.mk mk/svc_model.mk mk/lib.mk mk/sim.mk
include $(MK_FIRST)
include $(sort $(filter-out $(MK_FIRST),$(wildcard mk/*.mk)))

.PHONY: help test bench formal clean list-tests

help:
	@echo "kolo - open 3D-torus interconnect"
	@echo "  make demo     simulated torus under traffic, printing a report"
	@echo "  make test     lint, unit, network, C and quick formal tests"
	@echo "  make bench    every benchmark (lines 'BENCH <name> <value> <unit>')"
	@echo "  make formal   full formal proofs"
	@echo "  make lint     Verilator, Icarus, Yosys and slang lint of all RTL"
	@echo "  make waves TEST=<name>  rerun one test with an FST window + .gtkw"
	@echo "  make deps     install missing tools (apt-get)"

test: $(DEPS_STAMP)
	@scripts/run_tests.sh $(TESTS)

list-tests:
	@for t in $(TESTS); do echo $$t; done

bench: $(DEPS_STAMP)
	@scripts/run_bench.sh $(BENCHES)

formal: $(DEPS_STAMP)
	@scripts/run_tests.sh $(addprefix formal-full-,$(FORMAL))

clean:
	rm -rf $(BUILD)
