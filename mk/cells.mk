# mk/cells.mk - the common RTL cells (rtl/common): lint, Verilator unit tests.
# Formal targets are in mk/formal.mk.
#
#   make test-unit-<cell>     randomised Verilator test (SEED=<n> to replay)
#   make test-lint-cells      Verilator/Icarus/Yosys lint at several parameters
# cells: fifo_sync fifo_async arb_rr arb_matrix alloc_sep credit_counter axil_single, and reset_sync
# (kolo_reset_sync, kolo_reset_seq, kolo_sync_word, kolo_sync_pulse, kolo_sync_bit on three clocks)

CELLS_BUILD := $(BUILD)/cells
CELLS_RTL_DIR := $(TOP)/rtl/common
CELLS_TB_DIR := $(TOP)/tb/unit
CELLS_VERILATOR := verilator $(VL_CHECKS) --cc --exe --build -O2 -Wall -j 2
CELLS_CFLAGS := -O1 -std=c++17 -Wall -I$(CELLS_TB_DIR)/common
# Replay a run: make test-unit-arb_rr SEED=1234 (SEED from the environment works too).
CELLS_SEED_ENV = $(if $(SEED),SEED=$(SEED))

# $(call cells_unit,<cell>,<harness .cpp>,<rtl files>,<extra C flags>)
# Top module tb_<cell> in tb/unit/<cell>/tb_<cell>.v; binary in build/cells/unit/<cell>/.
define cells_unit
$(CELLS_BUILD)/unit/$(1)/obj/tb_$(1): $(CELLS_TB_DIR)/$(1)/tb_$(1).v $(2) $(3) \
    $(CELLS_TB_DIR)/common/tb_util.h mk/cells.mk | $(DEPS_STAMP)
	@mkdir -p $(CELLS_BUILD)/unit/$(1)
	@echo "verilator tb_$(1)"
	@$(CELLS_VERILATOR) --top-module tb_$(1) -CFLAGS "$(CELLS_CFLAGS) $(4)" \
	    --Mdir $(CELLS_BUILD)/unit/$(1)/obj -o tb_$(1) $(CELLS_TB_DIR)/$(1)/tb_$(1).v $(2) $(3) \
	    > $(CELLS_BUILD)/unit/$(1)/build.log 2>&1 \
	    || { cat $(CELLS_BUILD)/unit/$(1)/build.log; exit 1; }

.PHONY: test-unit-$(1)
test-unit-$(1): $(CELLS_BUILD)/unit/$(1)/obj/tb_$(1) $(DEPS_STAMP)
	$(CELLS_SEED_ENV) $$<
TESTS += unit-$(1)
endef

$(eval $(call cells_unit,fifo_sync,$(CELLS_TB_DIR)/fifo_sync/tb_fifo_sync.cpp,$(CELLS_RTL_DIR)/kolo_fifo_sync.v,))
$(eval $(call cells_unit,fifo_async,$(CELLS_TB_DIR)/fifo_async/tb_fifo_async.cpp,$(CELLS_RTL_DIR)/kolo_fifo_async.v,))
$(eval $(call cells_unit,arb_rr,$(CELLS_TB_DIR)/common/tb_arb.cpp,$(CELLS_RTL_DIR)/kolo_arb_rr.v,))
$(eval $(call cells_unit,arb_matrix,$(CELLS_TB_DIR)/common/tb_arb.cpp,$(CELLS_RTL_DIR)/kolo_arb_matrix.v,-DARB_MATRIX))
$(eval $(call cells_unit,alloc_sep,$(CELLS_TB_DIR)/alloc_sep/tb_alloc_sep.cpp,$(CELLS_RTL_DIR)/kolo_alloc_sep.v $(CELLS_RTL_DIR)/kolo_arb_rr.v,))
$(eval $(call cells_unit,reset_sync,$(CELLS_TB_DIR)/reset_sync/tb_reset_sync.cpp,$(addprefix $(CELLS_RTL_DIR)/,\
    kolo_reset_sync.v kolo_reset_seq.v kolo_sync_bit.v kolo_sync_word.v kolo_sync_pulse.v),))
$(eval $(call cells_unit,credit_counter,$(CELLS_TB_DIR)/credit_counter/tb_credit_counter.cpp,$(CELLS_RTL_DIR)/kolo_credit_counter.v,))

# kolo_axil_single on Icarus (tb/unit/axil_single: random slave, golden memory, bus rules), and
# the same test on a copy with a planted bug (AWVALID dropped without AWREADY) that must fail
AXIL_SINGLE_TB := tb/unit/axil_single/tb_axil_single.v
$(CELLS_BUILD)/unit/axil_single/tb.vvp: $(AXIL_SINGLE_TB) rtl/common/kolo_axil_single.v | $(DEPS_STAMP)
	@mkdir -p $(@D)
	iverilog -g2012 -Wall -o $@ -s tb_axil_single $^
$(CELLS_BUILD)/unit/axil_single/bug.vvp: $(AXIL_SINGLE_TB) rtl/common/kolo_axil_single.v | $(DEPS_STAMP)
	@mkdir -p $(@D)
	sed 's/if (m_axil_awvalid && m_axil_awready) m_axil_awvalid/if (m_axil_awvalid) m_axil_awvalid/' \
	    rtl/common/kolo_axil_single.v > $(@D)/bug.v
	@! cmp -s rtl/common/kolo_axil_single.v $(@D)/bug.v || { echo "the plant did not apply"; exit 1; }
	iverilog -g2012 -Wall -o $@ -s tb_axil_single $(AXIL_SINGLE_TB) $(@D)/bug.v
.PHONY: test-unit-axil_single
test-unit-axil_single: $(CELLS_BUILD)/unit/axil_single/tb.vvp $(CELLS_BUILD)/unit/axil_single/bug.vvp
	@vvp -n $(CELLS_BUILD)/unit/axil_single/tb.vvp +seed=$(or $(SEED),1) > $(CELLS_BUILD)/unit/axil_single/run.log; \
	    cat $(CELLS_BUILD)/unit/axil_single/run.log; grep -q "^PASS tb_axil_single" $(CELLS_BUILD)/unit/axil_single/run.log
	@vvp -n $(CELLS_BUILD)/unit/axil_single/bug.vvp +seed=1 > $(CELLS_BUILD)/unit/axil_single/bug.log 2>&1; \
	    if grep -q "^FAIL tb_axil_single" $(CELLS_BUILD)/unit/axil_single/bug.log; then \
	        echo "PASS unit-axil_single planted bug caught: $$(grep -m1 '^FAIL' $(CELLS_BUILD)/unit/axil_single/bug.log)"; \
	    else echo "FAIL unit-axil_single: the planted bug (AWVALID withdrawn) was not caught"; exit 1; fi
TESTS += unit-axil_single

.PHONY: test-lint-cells
test-lint-cells: $(DEPS_STAMP)
	@scripts/lint_cells.sh
TESTS += lint-cells
