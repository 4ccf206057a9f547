# mk/sim_chip.mk - kolo-sim --net=chip (sw/sim/net_chip.cpp): whole kolo_chips joined
# lane to lane, one Verilator build per torus size (docs/sim.md "--net=chip").
#
#   make sim-chip                  build/sim/kolo-sim-chip-2x1x1, -2x2x1 and -sp-2x2x1
#   make sim-chip-<X>x<Y>x<Z>      any other torus size, on demand (sim-chip-sp-<X>x<Y>x<Z>:
#                                  the service processors are the chips' own RV32 cores)
#   build/sim/kolo-run -n 2 --net=chip --report ./my_pe_program
#   KOLO_SIM=build/sim/kolo-sim-chip-sp-2x2x1 build/sim/kolo-run -t 2x2x1 -n 4 --net=chip ./my_pe_program
#   make test-sim-chip-<name>      one test (ops, 2x2x1, sp in make test; test-sim-chip-long:
#                                  checks, shmem, fault, sp-fault, sp-shmem); make bench-sim_speed_chip_2x2x1
#
# sw/rtlsim/kolo_sim_chips.v holds N kolo_sim_chip (one kolo_chip each, a Verilator
# hier_block: its C++ is compiled once whatever N); the chip's parameters come from
# macros (sw/rtlsim/kolo_sim_chip_cfg.vh): 64-bit gearboxes, PCIe and processor on the
# core clock (every clock of the simulation alike: one evaluation pair per cycle),
# training budget 20000 cycles.

SIM_CHIP_CFGS := 2x1x1 2x2x1 sp-2x2x1
SIM_CHIP_RTL := $(CHIP_RTL)
# $(1): torus; $(2): 1 for the service processor inside (kolo_sp running the firmware image
# SIM_CHIP_SP_IMG, $readmemh'd when the simulation starts), 0 for the native firmware on the
# service block ports
SIM_CHIP_SP_IMG := $(abspath $(FW_RV32_BUILD))/kolo_fw_rv32_sim
SIM_CHIP_DEFS = +define+KOLO_SIM_DIM_X=$(call sim_dim,$(1),1) +define+KOLO_SIM_DIM_Y=$(call sim_dim,$(1),2) \
    +define+KOLO_SIM_DIM_Z=$(call sim_dim,$(1),3) +define+KOLO_CHIP_GT_DATA_W=64 +define+KOLO_CHIP_PCIE_ASYNC=0 \
    +define+KOLO_CHIP_SP_ASYNC=0 +define+KOLO_CHIP_SP_INTERNAL=$(2) +define+KOLO_CHIP_TRAIN_BUDGET=20000 \
    $(if $(filter 1,$(2)),+define+KOLO_CHIP_FW_IMEM=\"$(SIM_CHIP_SP_IMG).imem.hex\" \
    +define+KOLO_CHIP_FW_DMEM=\"$(SIM_CHIP_SP_IMG).dmem.hex\")
SIM_CHIP_VFLAGS := $(VL_CHECKS) --cc --build -O3 -j 2 --x-assign fast --x-initial fast --hierarchical -Wno-fatal \
    $(CHIP_VDIRS) --top-module kolo_sim_chips $(CHIP_OBJCACHE)
SIM_CHIP_CXXDEFS = -DKOLO_DIM_X=$(call sim_dim,$(1),1) -DKOLO_DIM_Y=$(call sim_dim,$(1),2) \
    -DKOLO_DIM_Z=$(call sim_dim,$(1),3) -DKOLO_CHIP_GT_W=64 -DKOLO_CHIP_NATIVE_FW=$(if $(filter 1,$(2)),0,1)

.PHONY: sim-chip
sim-chip: sim $(addprefix $(SIM_BUILD)/kolo-sim-chip-,$(SIM_CHIP_CFGS))
sim-chip-%: $(SIM_BUILD)/kolo-sim-chip-% ;

# the Verilated chips (a library, minutes) are rebuilt only when the RTL or the
# Verilator flags (kept in vflags) changed, from an empty obj/ (ccache makes that
# cheap): a hierarchical build leaves the generated files of earlier runs there
# (hier-block directories of other parameter sets, which obj/*/*.a would link, and
# sources of other file splits); net_chip.cpp is compiled apart with the project's
# warning flags. $(1): build directory; $(2): torus; $(3): 1 for kolo_sp inside
SIM_CHIP_PREREQS := sw/sim/net_chip.cpp sw/rtlsim/kolo_chip_sim.h sw/rtlsim/kolo_chip_lanes.h \
    sw/rtlsim/kolo_lane_model.h sw/rtlsim/kolo_pcie_rc.h sw/rtlsim/kolo_rtl_bits.h $(SIM_HDRS) \
    $(SIM_CHIP_RTL) mk/sim_chip.mk $(SIM_CORE_LIB) $(SIM_SW_LIBS)
define SIM_CHIP_MODEL
	@mkdir -p $(1)
	@flags='$(strip $(SIM_CHIP_VFLAGS) $(call SIM_CHIP_DEFS,$(2),$(3)))'; \
	if [ ! -f $(1)/model.stamp ] || [ -n "$(filter %.v %.vh,$?)" ] \
	    || [ "$$(cat $(1)/vflags 2>/dev/null)" != "$$flags" ]; then \
	    echo "verilator $(notdir $@) (log: $(1)/build.log)"; \
	    echo "$$flags" > $(1)/vflags; \
	    rm -rf $(1)/model.stamp $(1)/obj; \
	    cd $(1) && { $(TOP)/scripts/verilate_retry.sh build.log verilator $(SIM_CHIP_VFLAGS) --Mdir obj \
	        $(call SIM_CHIP_DEFS,$(2),$(3)) -CFLAGS -O2 $(TOP)/sw/rtlsim/kolo_sim_chips.v \
	        && $(MAKE) -C obj -f Vkolo_sim_chips.mk verilated.o verilated_threads.o \
	        $(if $(shell command -v ccache),OBJCACHE=ccache) >> build.log 2>&1 \
	        && $(TOP)/scripts/check_hier_inline.sh obj Vkolo_sim_chips u_chip__DOT__u_chip >> build.log 2>&1; } \
	        || { tail -n 40 build.log; exit 1; }; \
	    touch model.stamp; \
	fi
	$(SIM_CXX) $(SIM_CXXFLAGS) -Isw/rtlsim -Ifw -I$(1)/obj -isystem $(SIM_VLT_INC) \
	    -isystem $(SIM_VLT_INC)/vltstd $(call SIM_CHIP_CXXDEFS,$(2),$(3)) -c $< -o $(1)/net_chip.o
	$(SIM_CXX) -o $@ $(1)/net_chip.o $(1)/obj/Vkolo_sim_chips__ALL.a $(1)/obj/*/*.a $(1)/obj/verilated.o \
	    $(1)/obj/verilated_threads.o $(SIM_CORE_LIB) $(SIM_SW_LIBS) -lrt -pthread
endef
$(SIM_BUILD)/kolo-sim-chip-%: $(SIM_CHIP_PREREQS) | $(KOLO_SIM) $(KOLO_RUN) $(DEPS_STAMP)
	@echo '$*' | grep -Eq '^[0-9]+x[0-9]+x[0-9]+$$' || { echo "kolo-sim-chip-$*: '$*' is not a torus XxYxZ" \
	    "(kolo-sim-chip-sp-XxYxZ: are the firmware images buildable?)"; exit 1; }
	$(call SIM_CHIP_MODEL,$(SIM_BUILD)/chip-$*,$*,0)
# kolo-sim-chip-sp-XxYxZ: the same chips with the service processor inside (SP_INTERNAL 1):
# each kolo_sp runs the RV32 firmware image; run it with KOLO_SIM=<it> kolo-run --net=chip
# (the images named as their rules name them, relative: with the absolute paths of
# SIM_CHIP_SP_IMG the rule could not make them in a clean tree, and make fell back to the
# rule above with stem sp-2x2x1)
$(SIM_BUILD)/kolo-sim-chip-sp-%: $(SIM_CHIP_PREREQS) $(FW_RV32_BUILD)/kolo_fw_rv32_sim.imem.hex \
    $(FW_RV32_BUILD)/kolo_fw_rv32_sim.dmem.hex \
    | $(KOLO_SIM) $(KOLO_RUN) $(DEPS_STAMP)
	$(call SIM_CHIP_MODEL,$(SIM_BUILD)/chip-sp-$*,$*,1)

# sim-chip-hier: each chip is compiled once (the model rule above refuses a build whose top
# holds the chip's own signals: scripts/check_hier_inline.sh, docs/router.md "Verilator
# hier_block"); the check run on the three models, and on a copy of 2x1x1's top with one
# inlined chip signal planted, which it must refuse (seconds)
SIM_CHIP_HIER_PLANT := $(SIM_BUILD)/chip-hier-plant
.PHONY: test-sim-chip-hier
test-sim-chip-hier: $(addprefix $(SIM_BUILD)/kolo-sim-chip-,$(SIM_CHIP_CFGS)) scripts/check_hier_inline.sh
	@set -e; for c in $(SIM_CHIP_CFGS); do \
	    scripts/check_hier_inline.sh $(SIM_BUILD)/chip-$$c/obj Vkolo_sim_chips u_chip__DOT__u_chip; done
	@rm -rf $(SIM_CHIP_HIER_PLANT); mkdir -p $(SIM_CHIP_HIER_PLANT); \
	    cp $(SIM_BUILD)/chip-2x1x1/obj/Vkolo_sim_chips___024root*.cpp $(SIM_CHIP_HIER_PLANT)/; \
	    echo 'int x = vlSelf->kolo_sim_chips__DOT__g_chip__BRA__0__KET____DOT__u_chip__DOT__u_chip__DOT__ready_q;' \
	        >> $(SIM_CHIP_HIER_PLANT)/Vkolo_sim_chips___024root__Slow.cpp; \
	    if scripts/check_hier_inline.sh $(SIM_CHIP_HIER_PLANT) Vkolo_sim_chips u_chip__DOT__u_chip \
	        > $(SIM_CHIP_HIER_PLANT)/check.log 2>&1; then \
	        echo "sim-chip-hier: FAIL: the planted inlined chip signal was not found"; exit 1; fi; \
	    echo "sim-chip-hier: plant caught: $$(head -n 1 $(SIM_CHIP_HIER_PLANT)/check.log)"
TESTS += sim-chip-hier

# ---- tests (sw/sim/tests/run_chip_tests.sh) ---------------------------------------------
SIM_CHIP_T := sw/sim/tests/run_chip_tests.sh $(abspath $(BUILD))
SIM_CHIP_DEPS := sim sw/sim/tests/run_chip_tests.sh sw/sim/tests/expect.sh
test-sim-chip-ops test-sim-chip-checks: $(SIM_CHIP_DEPS) $(SIM_BUILD)/kolo-sim-chip-2x1x1
test-sim-chip-2x2x1: $(SIM_CHIP_DEPS) $(SIM_BUILD)/kolo-sim-chip-2x2x1
test-sim-chip-sp: $(SIM_CHIP_DEPS) $(SIM_BUILD)/kolo-sim-chip-sp-2x2x1
test-sim-chip-shmem: $(SIM_CHIP_DEPS) $(SIM_BUILD)/kolo-sim-chip-2x2x1 $(LIB_BUILD)/shmem_tests/t_amo \
    $(LIB_BUILD)/shmem_tests/t_signal
test-sim-chip-fault: $(SIM_CHIP_DEPS) $(SIM_BUILD)/kolo-sim-chip-2x2x1 $(BUILD)/examples/torus_work
test-sim-chip-sp-fault: $(SIM_CHIP_DEPS) $(SIM_BUILD)/kolo-sim-chip-sp-2x2x1 $(BUILD)/examples/torus_work
test-sim-chip-sp-shmem: $(SIM_CHIP_DEPS) $(SIM_BUILD)/kolo-sim-chip-sp-2x2x1 $(LIB_BUILD)/shmem_tests/t_amo \
    $(LIB_BUILD)/shmem_tests/t_signal
test-sim-chip-ops test-sim-chip-2x2x1 test-sim-chip-sp test-sim-chip-checks test-sim-chip-shmem test-sim-chip-fault \
    test-sim-chip-sp-fault test-sim-chip-sp-shmem:
	$(SIM_SEED_ENV) $(SIM_CHIP_T) $(patsubst test-sim-chip-%,%,$@)
# make test holds the quick ones (ops on 2x1x1 and 2x2x1, ops on 2x2x1 with the firmware
# on the RTL cores: a few seconds each); the others run in test-sim-chip-long (minutes:
# OpenSHMEM, faults with link training budgets; sp-fault: the fault story with the
# firmware on the chips' RV32 cores, 2x2x1; sp-shmem: OpenSHMEM programs on those chips)
.PHONY: test-sim-chip-ops test-sim-chip-2x2x1 test-sim-chip-sp test-sim-chip-checks test-sim-chip-shmem \
    test-sim-chip-fault test-sim-chip-sp-fault test-sim-chip-sp-shmem test-sim-chip-long
TESTS += sim-chip-ops sim-chip-2x2x1 sim-chip-sp
test-sim-chip-long: test-sim-chip-checks test-sim-chip-shmem test-sim-chip-fault test-sim-chip-sp-fault \
    test-sim-chip-sp-shmem

# ---- benchmarks ---------------------------------------------------------------------------
# sim_speed_chip_2x2x1: simulated core cycles per wall second of 4 chips, 4 PEs streaming
# PUTs; chip_fault_recovery_cycles: the fault story on 2x2x1 with the firmware on the
# chips' RV32 cores (link cut to new tables everywhere), also its wall time;
# chip_fault_2x2x2_native_*: the same story on 2x2x2 with the native firmware;
# chip_fault_2x2x2_sp_*: on 2x2x2 with the firmware on the RTL cores (about 20 min)
.PHONY: bench-sim_speed_chip_2x2x1 bench-chip_fault bench-chip_fault_2x2x2 bench-chip_fault_2x2x2_sp
bench-sim_speed_chip_2x2x1: $(SIM_CHIP_DEPS) $(SIM_BUILD)/kolo-sim-chip-2x2x1 | $(DEPS_STAMP)
	@$(KOLO_RUN) -t 2x2x1 -n 4 --net=chip --timeout=900 --bench=sim_speed_chip_2x2x1 \
	    $(SIM_BUILD)/tests/sim_test_pe stream 200 | grep -E '^BENCH sim_speed_chip_2x2x1_sim_speed' \
	    | sed 's/_sim_speed / /'
bench-chip_fault: $(SIM_CHIP_DEPS) $(SIM_BUILD)/kolo-sim-chip-sp-2x2x1 $(BUILD)/examples/torus_work | $(DEPS_STAMP)
	@$(SIM_CHIP_T) bench | grep '^BENCH'
bench-chip_fault_2x2x2: $(SIM_CHIP_DEPS) $(SIM_BUILD)/kolo-sim-chip-2x2x2 $(BUILD)/examples/torus_work | $(DEPS_STAMP)
	@$(SIM_CHIP_T) bench-2x2x2 | grep '^BENCH'
bench-chip_fault_2x2x2_sp: $(SIM_CHIP_DEPS) $(SIM_BUILD)/kolo-sim-chip-sp-2x2x2 $(BUILD)/examples/torus_work \
    | $(DEPS_STAMP)
	@$(SIM_CHIP_T) bench-2x2x2-sp | grep '^BENCH'
BENCHES += sim_speed_chip_2x2x1 chip_fault chip_fault_2x2x2 chip_fault_2x2x2_sp

# ---- make demo-chip: the fault story on whole chips ------------------------------------------
# DEMO_CHIP_TORUS (2x2x1) of kolo_chips whose service processors are their own RV32 cores
# running the firmware image (kolo-sim-chip-sp-*: they boot in about 127000 cycles), torus_work
# on every node but the last; the link leaving node 0 through X+ has its lanes cut once
# traffic crosses it after DEMO_CHIP_LINK_AT (the link loses block lock, runs out of its
# training budget and goes down; the cores flood, recompute and install new tables, about
# 180000 cycles; the NIs, with E2E_TIMEOUT 65536 for that, resend), then the last node dies.
# Leaves the report, the log and an FST window of the failed link's ends with its GTKWave save file (checked: scripts/gtkw.py).
# Not part of make test (minutes); test-gtkw makes a chip save file of its own.
DEMO_CHIP_TORUS ?= 2x2x1
DEMO_CHIP_DIR ?= $(BUILD)/demo-chip
DEMO_CHIP_ROUNDS ?= 80
DEMO_CHIP_LINK_AT ?= 140000
DEMO_CHIP_NODE_AT ?= 600000
demo_chip_nodes = $(shell echo $$(( $(subst x, * ,$(DEMO_CHIP_TORUS)) )))
.PHONY: demo-chip
demo-chip: $(KOLO_RUN) $(KOLO_SIM) $(SIM_BUILD)/kolo-sim-chip-sp-$(DEMO_CHIP_TORUS) $(BUILD)/examples/torus_work \
    scripts/gtkw.py | $(DEPS_STAMP)
	@mkdir -p $(DEMO_CHIP_DIR)
	@n=$(demo_chip_nodes); last=$$((n - 1)); d=$(DEMO_CHIP_DIR); \
	echo "==== kolo demo-chip: $(DEMO_CHIP_TORUS) torus of kolo_chips (RTL, firmware on their RV32 cores)," \
	    "$$last PEs running torus_work ===="; \
	echo "from cycle $(DEMO_CHIP_LINK_AT): the lanes of the link leaving node 0 through X+ are cut under traffic;" \
	    "cycle $(DEMO_CHIP_NODE_AT): node index $$last dies"; \
	KOLO_SIM=$(SIM_BUILD)/kolo-sim-chip-sp-$(DEMO_CHIP_TORUS) $(KOLO_RUN) -t $(DEMO_CHIP_TORUS) -n $$last \
	    --net=chip --timeout=1800 --report --bench=demo_chip --e2e-timeout=65536 \
	    --fail-link=$(DEMO_CHIP_LINK_AT)+:0:X+ --fail-node=$(DEMO_CHIP_NODE_AT):$$last \
	    --rtl-trace=$$d/chip.fst --trace-window=$$(($(DEMO_CHIP_LINK_AT) - 1000)):40000 \
	    $(BUILD)/examples/torus_work $(DEMO_CHIP_ROUNDS) > $$d/run.log 2>&1; rc=$$?; \
	sed -n '/^BENCH /d; p' $$d/run.log | grep -v '^  [0-9a-f]\{3\} '; \
	if grep -q "tables not settled" $$d/run.log; then \
	    echo "demo-chip: a fault was not handled (tables not settled)"; rc=1; fi; \
	fail_at=$$(sed -n 's/^fault at cycle \([0-9]*\): link.*/\1/p' $$d/run.log | head -n 1); \
	nb=$$(printf 'chip_%d_0_0_xm' $$((1 % $(word 1,$(subst x, ,$(DEMO_CHIP_TORUS)))))); \
	{ scripts/gtkw.py chip $$d/chip.fst $$d/chip.gtkw --view=$$(($${fail_at:-$(DEMO_CHIP_LINK_AT)} - 500)):$$(($(DEMO_CHIP_LINK_AT) + 38000)) \
	    --mark=$$fail_at chip_0_0_0_xp $$nb && \
	  scripts/gtkw.py check $$d/chip.gtkw $${fail_at:+--mark-at=$$fail_at}; } > $$d/gtkw-check.log 2>&1 \
	    || { cat $$d/gtkw-check.log; echo "demo-chip: the trace's save file does not match the trace"; rc=1; }; \
	echo "waveform of the failed link: gtkwave $$d/chip.gtkw (marker: the cut); full log: $$d/run.log"; \
	if [ $$rc = 0 ]; then echo "demo-chip: the job finished with correct results"; \
	else echo "demo-chip: FAILED (status $$rc)"; exit 1; fi
