# mk/link_core.mk - protocol tests of kolo_link_core without the PHY
# (tb/unit/link_core): two ends on one clock, a C++ block channel with
# errors, drops, duplicates, dead periods and a slow lane.
#
#   make test-link-core-<name>     (SEED=<n> replays a seed)

LINK_CORE_BUILD := $(BUILD)/link_core
LINK_CORE_BIN := $(LINK_CORE_BUILD)/obj/tb_link_core
LINK_CORE_SRC := tb/unit/link_core/tb_link_core.v tb/unit/link_core/tb_link_core.cpp \
    $(wildcard rtl/link/kolo_link_core.v rtl/link/kolo_link_tx.v rtl/link/kolo_link_rx.v \
    rtl/link/kolo_crc32c_64.v rtl/link/kolo_crc32c_64x2.v rtl/link/kolo_crc8_56.v) rtl/include/kolo_link_defs.vh \
    rtl/include/kolo_crc32c_masks.vh tb/unit/common/tb_util.h

$(LINK_CORE_BIN): $(LINK_CORE_SRC) mk/link_core.mk | $(DEPS_STAMP)
	@mkdir -p $(LINK_CORE_BUILD)
	@echo "verilator tb_link_core"
	@verilator $(VL_CHECKS) --cc --exe --build -O3 -Wall -j 2 --top-module tb_link_core \
	    -I$(TOP)/rtl/include -y $(TOP)/rtl/link -y $(TOP)/rtl/common \
	    -CFLAGS "-O2 -std=c++17 -Wall -I$(TOP)/tb/unit/common" \
	    --Mdir $(LINK_CORE_BUILD)/obj -o tb_link_core \
	    $(TOP)/tb/unit/link_core/tb_link_core.v $(TOP)/tb/unit/link_core/tb_link_core.cpp \
	    > $(LINK_CORE_BUILD)/build.log 2>&1 || { tail -n 40 $(LINK_CORE_BUILD)/build.log; exit 1; }

# $(call link_core_test,<name>,<seed>,<options>)
define link_core_test
.PHONY: test-link-core-$(1)
test-link-core-$(1): $(LINK_CORE_BIN) | $(DEPS_STAMP)
	$$< --seed=$$(or $$(SEED),$(2)) $(3)
TESTS += link-core-$(1)
endef

$(eval $(call link_core_test,clean,41,--packets=20000))
$(eval $(call link_core_test,slow-lane,42,--packets=10000 --ready=40))
$(eval $(call link_core_test,errors,43,--packets=20000 --err=0.002))
$(eval $(call link_core_test,heavy-errors,44,--packets=5000 --err=0.03 --drop=0.01 --dup=0.01))
$(eval $(call link_core_test,retrain,45,--packets=10000 --dead-at=30000 --dead-for=3000 --expect-retrain))
$(eval $(call link_core_test,down-up,46,--packets=10000 --dead-at=30000 --dead-for=60000 --expect-down))
$(eval $(call link_core_test,miscabled,47,--packets=100 --miscable))
# B alone reset under traffic while A stays up, for much less than
# TRAIN_BUDGET (20000): A must report the restart as a link down (once) and
# count what it dropped; B silent for 200 cycles with the lanes locked, then
# dark (no blocks, no lock) for 3000 cycles as a board whose SERDES stops
$(eval $(call link_core_test,peer-restart,48,--packets=10000 --restart-b-at=30000 --restart-len=200))
$(eval $(call link_core_test,peer-restart-dark,49,--packets=10000 --restart-b-at=30000 --restart-len=3000 --restart-dark))
