# mk/svc.mk - the service block RTL (rtl/svc/kolo_svc*.v) co-simulated against
# its C reference model (sw/model/kolo_svc_model.c) by tb/unit/svc, and its
# Yosys resource estimate. docs/svc.md describes the block and the test.
#
#   make test-unit-svc            directed cases, then 3 seeded random runs on
#                                 different tori (SEED=<n> replays one seed)
#   build/svc/obj/tb_svc [--seed=N] [--cycles=N] [--torus=XxYxZ] [--node=x,y,z] [--no-directed]
#   make test-unit-svc-negative   a block with a broken register must fail the test
#   make test-unit-svc-mutants    22 one-line mutants of rtl/svc, each must be caught
#   make bench-svc_luts_xc7 bench-svc_ffs_xc7 bench-svc_bram_xc7
#                                 Yosys synth_xilinx estimate of kolo_svc

SVC_BUILD := $(BUILD)/svc
SVC_BIN := $(SVC_BUILD)/obj/tb_svc
SVC_RTL := $(wildcard rtl/svc/*.v) rtl/common/kolo_arb_rr.v rtl/include/kolo_svc_regs.vh rtl/include/kolo_defs.vh rtl/include/kolo_ni_regs.vh
SVC_SW := sw/model/kolo_svc_model.c sw/route/kolo_route.c
SVC_TB := tb/unit/svc/tb_svc.v tb/unit/svc/tb_svc.cpp tb/unit/common/tb_util.h sw/include/kolo_svc_model.h \
          sw/include/kolo_svc_regs.h sw/include/kolo_route.h
SVC_OBJCACHE := $(if $(shell command -v ccache),-MAKEFLAGS OBJCACHE=ccache)

# $(call svc_build,<dir>,<more verilator options>)
define svc_build
$(1)/obj/tb_svc: $$(SVC_RTL) $$(SVC_SW) $$(SVC_TB) mk/svc.mk | $$(DEPS_STAMP)
	@mkdir -p $(1)
	@echo "verilator tb_svc (log: $(1)/build.log)"
	@scripts/verilate_retry.sh $(1)/build.log verilator $(VL_CHECKS) --cc --exe --build -O2 -Wall -j 2 \
	    --x-assign unique --x-initial unique \
	    --top-module tb_svc $(2) -I$$(TOP)/rtl/include -y $$(TOP)/rtl/svc -y $$(TOP)/rtl/common $$(SVC_OBJCACHE) \
	    -CFLAGS "-O1 -std=c++17 -Wall -Wextra -Werror -I$$(TOP)/tb/unit/common -I$$(TOP)/sw/include" \
	    --Mdir $(1)/obj -o tb_svc \
	    $$(TOP)/tb/unit/svc/tb_svc.v $$(TOP)/tb/unit/svc/tb_svc.cpp $$(addprefix $$(TOP)/,$$(SVC_SW)) \
	    || { tail -n 40 $(1)/build.log; exit 1; }
endef
$(eval $(call svc_build,$(SVC_BUILD)))

.PHONY: tb-svc test-unit-svc
tb-svc: $(SVC_BIN)
# three tori: a seed's own, a 3x1x2 slice with a ring of 1, a 16x16x1 (256-entry copies);
# SEED=<n> runs that seed only
test-unit-svc: $(SVC_BIN) | $(DEPS_STAMP)
	@if [ -n "$(SEED)" ]; then $< --seed=$(SEED); else \
	    $< --seed=1 --cycles=400000 && $< --seed=2 --torus=3x1x2 --cycles=400000 && \
	    $< --seed=3 --torus=16x16x1 --cycles=400000; fi
TESTS += unit-svc

# ---- benchmarks -----------------------------------------------------------------------------
# Yosys synth_xilinx of kolo_svc at default parameters (mk/synth.mk, scripts/synth.sh)
$(eval $(call synth_unit,svc,$$(SVC_RTL)))

# the test must fail on a broken block: one-line mutants of rtl/svc, each built into the
# harness and run (tb/unit/svc/mutants.sh). The negative control (one mutant: SCRATCH reads
# back with bit 0 flipped) is in make test; all 22 are not (a build each).
.PHONY: test-unit-svc-negative test-unit-svc-mutants
test-unit-svc-negative: $(SVC_BIN) | $(DEPS_STAMP)
	@tb/unit/svc/mutants.sh 1
test-unit-svc-mutants: $(SVC_BIN) | $(DEPS_STAMP)
	@tb/unit/svc/mutants.sh
TESTS += unit-svc-negative
