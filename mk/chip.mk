# mk/chip.mk - the chip top (rtl/chip/kolo_chip.v): two chips joined lane to
# lane in Verilator (tb/chip/tb_chip.cpp over sw/rtlsim/kolo_sim_chips.v), its
# resource estimate, and the reset cells' tests.
#
#   make test-chip-2x1x1        two chips, every clock its own, 32-bit gearboxes, PCIe and
#                               service-processor clocks crossed (SEED=<n> replays a seed)
#   make test-chip-2x1x1-w64    the same with 64-bit gearboxes, PCIe and processor on the core clock
#   make bench-chip_luts_xc7 bench-chip_ffs_xc7 bench-chip_bram_xc7
#                               Yosys synth_xilinx of kolo_chip at default parameters (6 ports x 1 lane,
#                               the RV32 firmware in its RAMs: mk/synth_chip.mk)

CHIP_BUILD := $(BUILD)/chip
CHIP_RTL := $(wildcard rtl/chip/*.v rtl/common/*.v rtl/link/*.v rtl/ni/*.v rtl/node/*.v rtl/svc/*.v \
    rtl/router/*.v rtl/cpu/*.v rtl/include/*.vh) sw/rtlsim/kolo_sim_chips.v sw/rtlsim/kolo_sim_chip.v \
    sw/rtlsim/kolo_sim_chip_cfg.vh
CHIP_TB := tb/chip/tb_chip.cpp sw/rtlsim/kolo_chip_sim.h sw/rtlsim/kolo_chip_lanes.h sw/rtlsim/kolo_lane_model.h \
    sw/rtlsim/kolo_pcie_rc.h sw/rtlsim/kolo_rtl_bits.h sw/include/kolo_svc_regs.h
CHIP_OBJCACHE := $(if $(shell command -v ccache),-MAKEFLAGS OBJCACHE=ccache)
CHIP_VDIRS := -I$(TOP)/rtl/include -I$(TOP)/sw/rtlsim $(addprefix -y $(TOP)/rtl/,chip common link ni node svc router cpu) \
    -y $(TOP)/sw/rtlsim

# Built without --hierarchical (the chips inlined, C++ per chip): with kolo_sim_chip as a
# hier_block and every clock its own, tb_chip ran 3 times slower (2x1x1, seed 1: 149 s of
# CPU instead of 50 s) for 19 MB less C++; kolo-sim's chips (one clock) are hier_blocks.
# $(call chip_tb,<name>,<gearbox width>,<PCIE_ASYNC>,<SP_ASYNC>,<train budget>)
define chip_tb
$(CHIP_BUILD)/$(1)/obj/tb_chip: $$(CHIP_RTL) $$(CHIP_TB) mk/chip.mk | $$(DEPS_STAMP)
	@mkdir -p $(CHIP_BUILD)/$(1)
	@echo "verilator tb_chip $(1) (log: $(CHIP_BUILD)/$(1)/build.log)"
	@verilator $$(VL_CHECKS) --cc --exe --build -O3 -Wall -Wno-fatal -j 2 --x-assign fast --x-initial fast \
	    --top-module kolo_sim_chips $$(CHIP_VDIRS) $$(CHIP_OBJCACHE) \
	    +define+KOLO_SIM_DIM_X=2 +define+KOLO_SIM_DIM_Y=1 +define+KOLO_SIM_DIM_Z=1 \
	    +define+KOLO_CHIP_GT_DATA_W=$(2) +define+KOLO_CHIP_PCIE_ASYNC=$(3) +define+KOLO_CHIP_SP_ASYNC=$(4) \
	    +define+KOLO_CHIP_SP_INTERNAL=0 +define+KOLO_CHIP_TRAIN_BUDGET=$(5) \
	    -CFLAGS "-O1 -std=c++17 -Wall -I$$(TOP)/sw/rtlsim -I$$(TOP)/sw/include \
	             -DKOLO_TB_GT_W=$(2) -DKOLO_TB_PCIE_ASYNC=$(3) -DKOLO_TB_SP_ASYNC=$(4) -DKOLO_TB_TRAIN_BUDGET=$(5)" \
	    --Mdir $(CHIP_BUILD)/$(1)/obj -o tb_chip \
	    $$(TOP)/sw/rtlsim/kolo_sim_chips.v $$(TOP)/tb/chip/tb_chip.cpp \
	    > $(CHIP_BUILD)/$(1)/build.log 2>&1 || { tail -n 40 $(CHIP_BUILD)/$(1)/build.log; exit 1; }

.PHONY: test-chip-$(1)
test-chip-$(1): $(CHIP_BUILD)/$(1)/obj/tb_chip | $$(DEPS_STAMP)
	$$< $$(if $$(SEED),--seed=$$(SEED))
TESTS += chip-$(1)
endef
$(eval $(call chip_tb,2x1x1,32,1,1,8000))
$(eval $(call chip_tb,2x1x1-w64,64,0,0,8000))

# the chip's resource benchmarks: mk/synth_chip.mk (after the firmware image's rules)

# kolo_chip_np_credit (the non-posted credits' crossing, with PCIe reset rounds) on
# Icarus, and its planted bug (the reset loses the credits) must be caught (seconds)
CHIP_NP_SRC := tb/unit/chip_np_credit/tb_chip_np_credit.v rtl/chip/kolo_chip_np_credit.v \
    rtl/common/kolo_fifo_async.v rtl/common/kolo_sync_bit.v
$(BUILD)/chip_np_credit/tb.vvp $(BUILD)/chip_np_credit/tb_bug.vvp: $(CHIP_NP_SRC) rtl/include/kolo_assert.vh | $(DEPS_STAMP)
	@mkdir -p $(@D)
	iverilog -g2012 -Wall -Irtl/include $(if $(findstring bug,$@),-P tb_chip_np_credit.BUG_NO_RELOAD=1) \
	    -o $@ -s tb_chip_np_credit $(CHIP_NP_SRC)
.PHONY: test-unit-chip-np-credit
test-unit-chip-np-credit: $(BUILD)/chip_np_credit/tb.vvp $(BUILD)/chip_np_credit/tb_bug.vvp
	@vvp -n $(BUILD)/chip_np_credit/tb.vvp +seed=$(or $(SEED),1) > $(BUILD)/chip_np_credit/run.log; \
	    cat $(BUILD)/chip_np_credit/run.log; grep -q "^PASS tb_chip_np_credit" $(BUILD)/chip_np_credit/run.log
	@vvp -n $(BUILD)/chip_np_credit/tb_bug.vvp +seed=1 > $(BUILD)/chip_np_credit/bug.log 2>&1; \
	    if grep -q "^FAIL tb_chip_np_credit" $(BUILD)/chip_np_credit/bug.log; then \
	        echo "PASS unit-chip-np-credit planted bug caught: $$(grep -m1 '^FAIL' $(BUILD)/chip_np_credit/bug.log)"; \
	    else echo "FAIL unit-chip-np-credit: the planted bug (no reload) was not caught"; exit 1; fi
TESTS += unit-chip-np-credit

# kolo_node_local (the router's local port of a chip without an NI, HOST_IF = 1) between
# models of the router and the mailbox on Icarus: MGMT delivered, the rest drained and
# counted, no hang; its planted bugs (vnet 0 not drained, drops not counted) must be
# caught (seconds)
NODE_LOCAL_SRC := tb/unit/node_local/tb_node_local.v rtl/node/kolo_node_local.v rtl/ni/kolo_ni_ej.v \
    rtl/ni/kolo_ni_mgmt.v rtl/ni/kolo_ni_inj.v rtl/ni/kolo_ni_skid.v rtl/common/kolo_fifo_sync.v \
    rtl/common/kolo_arb_rr.v rtl/common/kolo_credit_counter.v
$(BUILD)/node_local/tb0.vvp $(BUILD)/node_local/tb1.vvp $(BUILD)/node_local/tb2.vvp: $(NODE_LOCAL_SRC) \
    rtl/include/kolo_defs.vh rtl/include/kolo_ni_regs.vh rtl/include/kolo_assert.vh | $(DEPS_STAMP)
	@mkdir -p $(@D)
	iverilog -g2012 -Wall -Irtl/include -P tb_node_local.BUG=$(patsubst tb%.vvp,%,$(@F)) -o $@ -s tb_node_local \
	    $(NODE_LOCAL_SRC)
.PHONY: test-unit-node-local
test-unit-node-local: $(BUILD)/node_local/tb0.vvp $(BUILD)/node_local/tb1.vvp $(BUILD)/node_local/tb2.vvp
	@vvp -n $(BUILD)/node_local/tb0.vvp +seed=$(or $(SEED),1) > $(BUILD)/node_local/run.log; \
	    cat $(BUILD)/node_local/run.log; grep -q "^PASS tb_node_local" $(BUILD)/node_local/run.log
	@for b in 1 2; do vvp -n $(BUILD)/node_local/tb$$b.vvp +seed=1 > $(BUILD)/node_local/bug$$b.log 2>&1; \
	    if grep -q "^FAIL tb_node_local" $(BUILD)/node_local/bug$$b.log; then \
	        echo "PASS unit-node-local planted bug $$b caught: $$(grep -m1 '^FAIL' $(BUILD)/node_local/bug$$b.log)"; \
	    else echo "FAIL unit-node-local: the planted bug $$b was not caught"; exit 1; fi; done
TESTS += unit-node-local
