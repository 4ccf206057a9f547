# mk/link_phy.mk - unit tests of kolo_link_phy (rtl/link): two PHYs joined by
# the harness's lane model, separate ppm-offset clocks, random start
# boundaries, garbage bursts, lane skew changes, bit errors, overflow.
# One Verilator build per lane count (top parameters set with -G, the harness
# gets the same values as -D); binaries in build/link_phy/<n>lane/.
#
#   make test-unit-link_phy-1lane    LANES=1, CC_INTERVAL=4096 (SEED=<n> to replay)
#   make test-unit-link_phy-4lane    LANES=4, CC_INTERVAL=256, lanes skewed 0..5 words

LINK_PHY_BUILD := $(BUILD)/link_phy
LINK_PHY_TB_DIR := $(TOP)/tb/unit/link_phy
LINK_PHY_RTL := $(addprefix $(TOP)/rtl/link/,kolo_link_phy.v kolo_block_lock.v kolo_lane_deskew.v \
    kolo_scrambler.v kolo_descrambler.v) $(TOP)/rtl/common/kolo_fifo_async.v $(TOP)/rtl/common/kolo_fifo_sync.v
LINK_PHY_VERILATOR := verilator $(VL_CHECKS) --cc --exe --build -O2 -Wall -j 2
LINK_PHY_CFLAGS := -O2 -std=c++17 -Wall -I$(TOP)/tb/unit/common
LINK_PHY_SEED_ENV = $(if $(SEED),SEED=$(SEED))

# $(call link_phy_unit,<lanes>,<cc interval>)
define link_phy_unit
$(LINK_PHY_BUILD)/$(1)lane/obj/tb_link_phy: $(LINK_PHY_TB_DIR)/tb_link_phy.v $(LINK_PHY_TB_DIR)/tb_link_phy.cpp \
    $(LINK_PHY_RTL) $(TOP)/tb/unit/common/tb_util.h mk/link_phy.mk | $(DEPS_STAMP)
	@mkdir -p $(LINK_PHY_BUILD)/$(1)lane
	@echo "verilator tb_link_phy LANES=$(1)"
	@$(LINK_PHY_VERILATOR) --top-module tb_link_phy -GLANES=$(1) -GCC_INTERVAL=$(2) \
	    -CFLAGS "$(LINK_PHY_CFLAGS) -DTB_LANES=$(1) -DTB_CC_INTERVAL=$(2)" \
	    --Mdir $(LINK_PHY_BUILD)/$(1)lane/obj -o tb_link_phy \
	    $(LINK_PHY_TB_DIR)/tb_link_phy.v $(LINK_PHY_TB_DIR)/tb_link_phy.cpp $(LINK_PHY_RTL) \
	    > $(LINK_PHY_BUILD)/$(1)lane/build.log 2>&1 \
	    || { cat $(LINK_PHY_BUILD)/$(1)lane/build.log; exit 1; }

.PHONY: test-unit-link_phy-$(1)lane
test-unit-link_phy-$(1)lane: $(LINK_PHY_BUILD)/$(1)lane/obj/tb_link_phy $(DEPS_STAMP)
	$(LINK_PHY_SEED_ENV) $$<
TESTS += unit-link_phy-$(1)lane
endef

$(eval $(call link_phy_unit,1,4096))
$(eval $(call link_phy_unit,4,256))
