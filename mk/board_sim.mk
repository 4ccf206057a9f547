# mk/board_sim.mk - board-level simulation: two whole board tops cabled into a
# 2x1x1 torus, vendor primitives replaced by behavioural models (tb/board_sim),
# run by host programs through the boards' own host interfaces.
#
#   make test-board-sim-ecp5-long    two ECP5 Evaluation Board tops (kolo_board_ecp5_evn)
#                                    with the RV32 firmware, each driven over its UART by
#                                    libkolo's kolo_uart.c: boot banners, identities from
#                                    the straps, links and peers, then board 1's reset
#                                    button seen by board 0 (SEED= replays); then the
#                                    same with the cables crossed (X+ to X+), with a dead
#                                    transmitter, and with the cables re-plugged crossed
#                                    during board 1's reset: each must fail. Minutes: not
#                                    in make test

BOARD_SIM_BUILD := $(BUILD)/boards/sim
BOARD_SIM_ECP5_BIN := $(BOARD_SIM_BUILD)/ecp5/obj/tb_board_sim_ecp5
# (mk/chip.mk and mk/fw_rv32.mk come after this file: their variables are not used in prerequisites)
BOARD_SIM_ECP5_FW := $(BUILD)/fw/rv32/kolo_fw_rv32_sim
BOARD_SIM_ECP5_SRC := tb/board_sim/tb_board_sim_ecp5.v tb/board_sim/kolo_sim_osc.v tb/board_sim/tb_board_sim_ecp5.cpp \
    $(wildcard tb/board_sim/ecp5/*.v) boards/ecp5-evn/kolo_board_ecp5_evn.v boards/ecp5-evn/kolo_ecp5_dcu.v \
    boards/ecp5-evn/kolo_ecp5_pll.v $(wildcard rtl/board/*.v) tb/unit/common/tb_util.h sw/include/kolo_uart.h \
    sw/include/kolo_svc_regs.h $(wildcard rtl/chip/*.v rtl/common/*.v rtl/link/*.v rtl/ni/*.v rtl/node/*.v \
    rtl/svc/*.v rtl/router/*.v rtl/cpu/*.v rtl/include/*.vh)
BOARD_SIM_VDIRS := -I$(TOP)/rtl/include $(addprefix -y $(TOP)/rtl/,chip common link ni node svc router cpu board) \
    -y $(TOP)/boards/ecp5-evn -y $(TOP)/tb/board_sim/ecp5 -y $(TOP)/tb/board_sim
$(BOARD_SIM_ECP5_BIN): $(BOARD_SIM_ECP5_SRC) $(BUILD)/lib/obj/kolo_uart.o \
    $(BOARD_SIM_ECP5_FW).imem.hex $(BOARD_SIM_ECP5_FW).dmem.hex mk/board_sim.mk | $(DEPS_STAMP)
	@mkdir -p $(BOARD_SIM_BUILD)/ecp5
	@echo "verilator tb_board_sim_ecp5 (log: $(BOARD_SIM_BUILD)/ecp5/build.log)"
	@verilator $(VL_CHECKS) --cc --exe --build --timing -O3 -Wall -Wno-fatal -j 2 --x-assign fast --x-initial fast \
	    --timescale 1ps/1ps --top-module tb_board_sim_ecp5 $(BOARD_SIM_VDIRS) $(CHIP_OBJCACHE) \
	    -GSP_IMEM_INIT='"$(abspath $(BOARD_SIM_ECP5_FW).imem.hex)"' \
	    -GSP_DMEM_INIT='"$(abspath $(BOARD_SIM_ECP5_FW).dmem.hex)"' \
	    -CFLAGS "-O1 -std=c++20 -Wall -I$(TOP)/tb/unit/common -I$(TOP)/sw/include" \
	    --Mdir $(BOARD_SIM_BUILD)/ecp5/obj -o tb_board_sim_ecp5 \
	    $(TOP)/tb/board_sim/tb_board_sim_ecp5.v $(TOP)/tb/board_sim/tb_board_sim_ecp5.cpp \
	    $(abspath $(BUILD)/lib/obj/kolo_uart.o) \
	    > $(BOARD_SIM_BUILD)/ecp5/build.log 2>&1 || { tail -n 40 $(BOARD_SIM_BUILD)/ecp5/build.log; exit 1; }
.PHONY: test-board-sim-ecp5-long
test-board-sim-ecp5-long: $(BOARD_SIM_ECP5_BIN)
	$< $(if $(SEED),--seed=$(SEED))
	@for p in crossed dead swap-on-reset; do \
	    if $< --plant=$$p > $(BOARD_SIM_BUILD)/ecp5/plant-$$p.log 2>&1; then \
	        echo "board-sim-ecp5: plant $$p was not caught"; tail -n 20 $(BOARD_SIM_BUILD)/ecp5/plant-$$p.log; exit 1; \
	    else echo "board-sim-ecp5: plant $$p caught: $$(grep -m1 FAIL $(BOARD_SIM_BUILD)/ecp5/plant-$$p.log)"; fi; \
	done
