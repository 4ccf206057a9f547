# mk/board_rtl.mk - the board-level RTL cells (rtl/board): the fabric 64b/66b
# lanes of transceivers without a gearbox, and the ECP5 board's UART host
# bridge. Randomised Verilator tests (SEED= replays):
#
#   make test-unit-board-lane     soft gearboxes and the 32 -> 20 bit crossing
#   make test-unit-uart-bridge    the bridge driven by libkolo's kolo_uart.c
#   make test-unit-uart-regs      the bridge to the chip's register port (Icarus, a planted bug)

# the boards' fabric lanes (rtl/board: soft 64b/66b gearboxes, the 32 -> 20 bit
# crossing of the ECP5 board), randomised (tb/unit/board_lane; SEED= replays)
BOARD_LANE_BIN := $(BUILD)/boards/unit/board_lane/obj/tb_board_lane
BOARD_LANE_RTL := rtl/board/kolo_soft_gearbox_tx.v rtl/board/kolo_soft_gearbox_rx.v rtl/board/kolo_bits_xing.v \
                  rtl/common/kolo_fifo_async.v
$(BOARD_LANE_BIN): tb/unit/board_lane/tb_board_lane.v tb/unit/board_lane/tb_board_lane.cpp $(BOARD_LANE_RTL) \
    tb/unit/common/tb_util.h mk/board_rtl.mk | $(DEPS_STAMP)
	@mkdir -p $(BUILD)/boards/unit/board_lane
	@echo "verilator tb_board_lane"
	@verilator $(VL_CHECKS) --cc --exe --build -O2 -Wall -j 2 --top-module tb_board_lane -CFLAGS "-O1 -std=c++17 -Wall -I$(TOP)/tb/unit/common" \
	    --Mdir $(BUILD)/boards/unit/board_lane/obj -o tb_board_lane $(addprefix $(TOP)/,tb/unit/board_lane/tb_board_lane.v \
	    tb/unit/board_lane/tb_board_lane.cpp $(BOARD_LANE_RTL)) > $(BUILD)/boards/unit/board_lane/build.log 2>&1 \
	    || { cat $(BUILD)/boards/unit/board_lane/build.log; exit 1; }
.PHONY: test-unit-board-lane
test-unit-board-lane: $(BOARD_LANE_BIN)
	$(if $(SEED),SEED=$(SEED)) $<
TESTS += unit-board-lane

# the ECP5 board's UART host bridge (rtl/board/kolo_uart_*) driven by the host
# library's own kolo_uart.c over a bit-level line with faults, a BAR0 model
# behind the TLP streams (tb/unit/uart_bridge; SEED= replays)
UART_BRIDGE_BIN := $(BUILD)/boards/unit/uart_bridge/obj/tb_uart_bridge
UART_BRIDGE_RTL := rtl/board/kolo_uart_host.v rtl/board/kolo_uart_tlp.v rtl/board/kolo_uart_rx.v \
                   rtl/board/kolo_uart_tx.v rtl/include/kolo_uart_regs.vh
$(UART_BRIDGE_BIN): tb/unit/uart_bridge/tb_uart_bridge.v tb/unit/uart_bridge/tb_uart_bridge.cpp \
    $(UART_BRIDGE_RTL) $(BUILD)/lib/obj/kolo_uart.o sw/include/kolo_uart.h tb/unit/common/tb_util.h \
    mk/board_rtl.mk | $(DEPS_STAMP)
	@mkdir -p $(BUILD)/boards/unit/uart_bridge
	@echo "verilator tb_uart_bridge"
	@verilator $(VL_CHECKS) --cc --exe --build -O2 -Wall -j 2 --top-module tb_uart_bridge -I$(TOP)/rtl/include \
	    -CFLAGS "-O1 -std=c++17 -Wall -I$(TOP)/tb/unit/common -I$(TOP)/sw/include" \
	    --Mdir $(BUILD)/boards/unit/uart_bridge/obj -o tb_uart_bridge \
	    $(addprefix $(TOP)/,tb/unit/uart_bridge/tb_uart_bridge.v tb/unit/uart_bridge/tb_uart_bridge.cpp \
	    $(filter %.v,$(UART_BRIDGE_RTL))) $(abspath $(BUILD)/lib/obj/kolo_uart.o) \
	    > $(BUILD)/boards/unit/uart_bridge/build.log 2>&1 \
	    || { cat $(BUILD)/boards/unit/uart_bridge/build.log; exit 1; }
.PHONY: test-unit-uart-bridge
test-unit-uart-bridge: $(UART_BRIDGE_BIN)
	$(if $(SEED),SEED=$(SEED)) $<
TESTS += unit-uart-bridge

# the ECP5 board's bridge from the UART bridge's accesses to the chip's register port
# (rtl/board/kolo_uart_regs.v) between models of kolo_uart_host and of the service block's
# host port, on Icarus: window accesses once each, bad addresses answered ERROR, abandoned
# accesses dropped; its planted bug (no window check) must be caught (seconds; SEED= replays)
UART_REGS_SRC := tb/unit/uart_regs/tb_uart_regs.v rtl/board/kolo_uart_regs.v rtl/common/kolo_axil_single.v
$(BUILD)/uart_regs/tb0.vvp $(BUILD)/uart_regs/tb1.vvp: $(UART_REGS_SRC) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	iverilog -g2012 -Wall -P tb_uart_regs.BUG=$(patsubst tb%.vvp,%,$(@F)) -o $@ -s tb_uart_regs $(UART_REGS_SRC)
.PHONY: test-unit-uart-regs
test-unit-uart-regs: $(BUILD)/uart_regs/tb0.vvp $(BUILD)/uart_regs/tb1.vvp
	@vvp -n $(BUILD)/uart_regs/tb0.vvp +seed=$(or $(SEED),1) > $(BUILD)/uart_regs/run.log; \
	    cat $(BUILD)/uart_regs/run.log; grep -q "^PASS tb_uart_regs" $(BUILD)/uart_regs/run.log
	@vvp -n $(BUILD)/uart_regs/tb1.vvp +seed=1 > $(BUILD)/uart_regs/bug.log 2>&1; \
	    if grep -q "^FAIL tb_uart_regs" $(BUILD)/uart_regs/bug.log; then \
	        echo "PASS unit-uart-regs planted bug caught: $$(grep -m1 '^FAIL' $(BUILD)/uart_regs/bug.log)"; \
	    else echo "FAIL unit-uart-regs: the planted bug (no window check) was not caught"; exit 1; fi
TESTS += unit-uart-regs
