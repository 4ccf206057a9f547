# mk/link_phy.mk - unit tests of kolo_link_phy (rtl/link): two PHYs joined by
# the harness's lane model, separate ppm-offset clocks, random start
# boundaries, garbage bursts, lane skew changes, bit errors, overflow.
# One Verilator build per lane count (top parameters set with -G, the harness
# gets the same values as -D); binaries in build/link_phy/<n>lane/.
#
#   make test-unit-link_phy-1lane    LANES=1, CC_INTERVAL=4096 (SEED=<n> to replay)
#   make test-unit-link_phy-4lane    LANES=4, CC_INTERVAL=256, lanes skewed 0..5 words
#   make test-unit-link_phy-1lane-gaps, -4lane-gaps   the same with gearbox gaps (one cycle in 33
#                                    without a tx word / an rx word, per lane at random phases)

LINK_PHY_BUILD := $(BUILD)/link_phy
LINK_PHY_TB_DIR := $(TOP)/tb/unit/link_phy
LINK_PHY_RTL := $(addprefix $(TOP)/rtl/link/,kolo_link_phy.v kolo_block_lock.v kolo_lane_deskew.v \
    kolo_scrambler.v kolo_descrambler.v) $(addprefix $(TOP)/rtl/common/,kolo_fifo_async.v kolo_fifo_sync.v \
    kolo_sync_bit.v)
LINK_PHY_VERILATOR := verilator $(VL_CHECKS) --cc --exe --build -O2 -Wall -j 2
LINK_PHY_CFLAGS := -O2 -std=c++17 -Wall -I$(TOP)/tb/unit/common
LINK_PHY_SEED_ENV = $(if $(SEED),SEED=$(SEED))

# $(call link_phy_unit,<lanes>,<cc interval>,<gaps 0|1>,<name suffix>)
define link_phy_unit
$(LINK_PHY_BUILD)/$(1)lane$(4)/obj/tb_link_phy: $(LINK_PHY_TB_DIR)/tb_link_phy.v $(LINK_PHY_TB_DIR)/tb_link_phy.cpp \
    $(LINK_PHY_RTL) $(TOP)/tb/unit/common/tb_util.h mk/link_phy.mk | $(DEPS_STAMP)
	@mkdir -p $(LINK_PHY_BUILD)/$(1)lane$(4)
	@echo "verilator tb_link_phy LANES=$(1) GAPS=$(3)"
	@$(LINK_PHY_VERILATOR) --top-module tb_link_phy -GLANES=$(1) -GCC_INTERVAL=$(2) \
	    -CFLAGS "$(LINK_PHY_CFLAGS) -DTB_LANES=$(1) -DTB_CC_INTERVAL=$(2) -DTB_GAPS=$(3)" \
	    --Mdir $(LINK_PHY_BUILD)/$(1)lane$(4)/obj -o tb_link_phy \
	    $(LINK_PHY_TB_DIR)/tb_link_phy.v $(LINK_PHY_TB_DIR)/tb_link_phy.cpp $(LINK_PHY_RTL) \
	    > $(LINK_PHY_BUILD)/$(1)lane$(4)/build.log 2>&1 \
	    || { cat $(LINK_PHY_BUILD)/$(1)lane$(4)/build.log; exit 1; }

.PHONY: test-unit-link_phy-$(1)lane$(4)
test-unit-link_phy-$(1)lane$(4): $(LINK_PHY_BUILD)/$(1)lane$(4)/obj/tb_link_phy $(DEPS_STAMP)
	$(LINK_PHY_SEED_ENV) $$<
TESTS += unit-link_phy-$(1)lane$(4)
endef

$(eval $(call link_phy_unit,1,4096,0,))
$(eval $(call link_phy_unit,4,256,0,))
$(eval $(call link_phy_unit,1,4096,1,-gaps))
$(eval $(call link_phy_unit,4,256,1,-gaps))
