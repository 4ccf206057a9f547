# mk/link_cells.mk - unit tests of the reliable link's bit-level cells
# (rtl/link): CRC-32C 64-bit step and CRC-8 (unit-crc32c), scrambler and
# descrambler x^58 + x^39 + 1 (unit-scrambler), each against the C references
# in tb/common/kolo_linkref.h. Their lint is part of scripts/lint.sh.
#
#   make test-unit-crc32c       RTL CRC cells and the C references (SEED=<n> to replay)
#   make test-unit-scrambler    scrambler/descrambler, errors and resync (SEED=<n>)
#   make test-unit-lane_gearbox transceiver gearbox adapters (kolo_lane_gearbox_tx/rx), 32 and
#                               64 bits, a pause / gap at every position, bad input (SEED=<n>)
#
# unit-crc32c also checks that kolo_linkref.h compiles as C11 (it is C and C++).

LINK_CELLS_BUILD := $(BUILD)/link_cells
LINK_CELLS_RTL_DIR := $(TOP)/rtl/link
LINK_CELLS_TB_DIR := $(TOP)/tb/unit
LINK_CELLS_REF := $(TOP)/tb/common/kolo_linkref.h
LINK_CELLS_VERILATOR := verilator $(VL_CHECKS) --cc --exe --build -O2 -Wall -j 2 -I$(TOP)/rtl/include
LINK_CELLS_INC := $(wildcard rtl/include/*.vh)
LINK_CELLS_CFLAGS := -O1 -std=c++17 -Wall -I$(LINK_CELLS_TB_DIR)/common -I$(TOP)/tb/common
LINK_CELLS_SEED_ENV = $(if $(SEED),SEED=$(SEED))

# $(call link_cells_unit,<name>,<rtl files>,<extra prerequisites of the run>)
# Top module tb_<name> in tb/unit/<name>/tb_<name>.v, harness tb_<name>.cpp;
# binary in build/link_cells/unit/<name>/.
define link_cells_unit
$(LINK_CELLS_BUILD)/unit/$(1)/obj/tb_$(1): $(LINK_CELLS_TB_DIR)/$(1)/tb_$(1).v \
    $(LINK_CELLS_TB_DIR)/$(1)/tb_$(1).cpp $(2) $(LINK_CELLS_TB_DIR)/common/tb_util.h \
    $(LINK_CELLS_REF) $(LINK_CELLS_INC) mk/link_cells.mk | $(DEPS_STAMP)
	@mkdir -p $(LINK_CELLS_BUILD)/unit/$(1)
	@echo "verilator tb_$(1)"
	@$(LINK_CELLS_VERILATOR) --top-module tb_$(1) -CFLAGS "$(LINK_CELLS_CFLAGS)" \
	    --Mdir $(LINK_CELLS_BUILD)/unit/$(1)/obj -o tb_$(1) \
	    $(LINK_CELLS_TB_DIR)/$(1)/tb_$(1).v $(LINK_CELLS_TB_DIR)/$(1)/tb_$(1).cpp $(2) \
	    > $(LINK_CELLS_BUILD)/unit/$(1)/build.log 2>&1 \
	    || { cat $(LINK_CELLS_BUILD)/unit/$(1)/build.log; exit 1; }

.PHONY: test-unit-$(1)
test-unit-$(1): $(LINK_CELLS_BUILD)/unit/$(1)/obj/tb_$(1) $(3) $(DEPS_STAMP)
	$(LINK_CELLS_SEED_ENV) $$<
TESTS += unit-$(1)
endef

# kolo_linkref.h must stay valid C11 (strict, warnings are errors).
$(LINK_CELLS_BUILD)/linkref_c11.ok: $(LINK_CELLS_REF) mk/link_cells.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	@echo "gcc -std=c11 kolo_linkref.h"
	@gcc -std=c11 -Wall -Wextra -pedantic -Werror -fsyntax-only -x c $<
	@touch $@

$(eval $(call link_cells_unit,crc32c,$(LINK_CELLS_RTL_DIR)/kolo_crc32c_64.v $(LINK_CELLS_RTL_DIR)/kolo_crc32c_64x2.v $(LINK_CELLS_RTL_DIR)/kolo_crc8_56.v,$(LINK_CELLS_BUILD)/linkref_c11.ok))
$(eval $(call link_cells_unit,scrambler,$(LINK_CELLS_RTL_DIR)/kolo_scrambler.v $(LINK_CELLS_RTL_DIR)/kolo_descrambler.v,))
$(eval $(call link_cells_unit,lane_gearbox,$(LINK_CELLS_RTL_DIR)/kolo_lane_gearbox_tx.v $(LINK_CELLS_RTL_DIR)/kolo_lane_gearbox_rx.v,))
