# mk/board_sim.mk - board-level simulation: two whole board tops cabled into a
# 2x1x1 torus, vendor primitives replaced by behavioural models (tb/board_sim),
# run by host programs through the boards' own host interfaces.
#
#   make test-board-sim-ecp5-long    two ECP5 Evaluation Board tops (kolo_board_ecp5_evn)
#                                    with the RV32 firmware, each driven over its UART by
#                                    libkolo's kolo_uart.c: boot banners, identities from
#                                    the straps, links and peers, host messages between the
#                                    two hosts (kolo_host_msg_send/recv through the
#                                    firmwares), then reset buttons seen by the other board:
#                                    board 1's and board 0's pressed shorter than the link's
#                                    3 ms TRAIN_BUDGET, board 1's longer, both at once
#                                    (SEED= replays); then
#                                    the same with the cables crossed (X+ to X+), with a dead
#                                    transmitter, with the cables re-plugged crossed during
#                                    board 1's reset, with the long press shortened to 2 ms
#                                    (short-press: no budget path), with board 1's button
#                                    held 5 ms longer in the both-at-once press (d-stagger:
#                                    board 0's links count a down), with a firmware that loses every second host message it
#                                    receives (hmsg-drop), and with the host-message area cleared by the table switch
#                                    while two messages wait (hmsg-switch: the old shadow-bank area): each must fail. Minutes: not in
#                                    make test
#   make test-board-sim-ecp5         the same two boards, in make test: everything above
#                                    but resets B, C, D and the plants (--quick: boot,
#                                    straps, links, host messages both ways with bad
#                                    input and overflow, board 1's short press)

BOARD_SIM_BUILD := $(BUILD)/boards/sim
BOARD_SIM_ECP5_BIN := $(BOARD_SIM_BUILD)/ecp5/obj/tb_board_sim_ecp5
# (mk/chip.mk and mk/fw_rv32.mk come after this file: their variables are not used in prerequisites)
BOARD_SIM_ECP5_FW := $(BUILD)/fw/rv32/kolo_fw_rv32_hmsg_sim
BOARD_SIM_LIB_OBJS := $(BUILD)/lib/obj/kolo_uart.o $(BUILD)/lib/obj/kolo_hmsg.o
BOARD_SIM_ECP5_SRC := tb/board_sim/tb_board_sim_ecp5.v tb/board_sim/kolo_sim_osc.v tb/board_sim/kolo_sim_pll.v \
    tb/board_sim/tb_board_sim_ecp5.cpp \
    $(wildcard tb/board_sim/ecp5/*.v) boards/ecp5-evn/kolo_board_ecp5_evn.v boards/ecp5-evn/kolo_ecp5_dcu.v \
    boards/ecp5-evn/kolo_ecp5_pll.v $(wildcard rtl/board/*.v) tb/unit/common/tb_util.h sw/include/kolo_uart.h \
    sw/include/kolo_svc_regs.h sw/include/kolo_hmsg.h sw/include/kolo_fw_msg.h $(wildcard rtl/chip/*.v rtl/common/*.v rtl/link/*.v rtl/ni/*.v rtl/node/*.v \
    rtl/svc/*.v rtl/router/*.v rtl/cpu/*.v rtl/include/*.vh)
BOARD_SIM_VDIRS := -I$(TOP)/rtl/include $(addprefix -y $(TOP)/rtl/,chip common link ni node svc router cpu board) \
    -y $(TOP)/boards/ecp5-evn -y $(TOP)/tb/board_sim/ecp5 -y $(TOP)/tb/board_sim
$(BOARD_SIM_ECP5_BIN): $(BOARD_SIM_ECP5_SRC) $(BOARD_SIM_LIB_OBJS) mk/board_sim.mk | $(DEPS_STAMP)
	@mkdir -p $(BOARD_SIM_BUILD)/ecp5
	@echo "verilator tb_board_sim_ecp5 (log: $(BOARD_SIM_BUILD)/ecp5/build.log)"
	@verilator $(VL_CHECKS) --cc --exe --build --timing -O3 -Wall -Wno-fatal -j 2 --x-assign fast --x-initial fast \
	    --timescale 1ps/1ps --top-module tb_board_sim_ecp5 $(BOARD_SIM_VDIRS) $(CHIP_OBJCACHE) \
	    -GSP_IMEM_INIT='"fw/imem.hex"' -GSP_DMEM_INIT='"fw/dmem.hex"' \
	    -CFLAGS "-O1 -std=c++20 -Wall -I$(TOP)/tb/unit/common -I$(TOP)/sw/include" \
	    --Mdir $(BOARD_SIM_BUILD)/ecp5/obj -o tb_board_sim_ecp5 \
	    $(TOP)/tb/board_sim/tb_board_sim_ecp5.v $(TOP)/tb/board_sim/tb_board_sim_ecp5.cpp \
	    $(abspath $(BOARD_SIM_LIB_OBJS)) \
	    > $(BOARD_SIM_BUILD)/ecp5/build.log 2>&1 || { tail -n 40 $(BOARD_SIM_BUILD)/ecp5/build.log; exit 1; }
# the firmware images: the binary loads fw/imem.hex and fw/dmem.hex from the directory
# it runs in (a run directory per case: the clean image, or a planted one, without a
# second Verilator build)
BOARD_SIM_FW_PLANT := $(BOARD_SIM_BUILD)/ecp5/fw_plant_hmsg_drop
$(BOARD_SIM_FW_PLANT).elf: tb/board_sim/fw/plant_hal_hmsg_drop.c fw/rv32/hal.c fw/rv32/main_fw.c fw/kolo_fw.c \
    fw/kolo_fw.h sw/include/kolo_fw_msg.h sw/include/kolo_svc_regs.h mk/board_sim.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(FW_RV32_CC) $(FW_RV32_CFLAGS) -DKOLO_RV32_HOST_MSG=1 -DKOLO_RV32_HEARTBEAT_CYCLES=20000 $(FW_RV32_LDFLAGS) \
	    $(filter-out fw/rv32/hal.c,$(FW_RV32_FW_SRCS)) tb/board_sim/fw/plant_hal_hmsg_drop.c -o $@
$(BOARD_SIM_FW_PLANT).imem.hex: $(BOARD_SIM_FW_PLANT).elf fw/tools/kolo_elf2hex.py
	fw/tools/kolo_elf2hex.py $< --imem $@ --dmem $(BOARD_SIM_FW_PLANT).dmem.hex \
	    --imem-bytes $(SP_IMEM_BYTES) --dmem-bytes $(SP_DMEM_BYTES)
# board_sim_run <case> <image> <args>: run the binary in build/boards/sim/ecp5/run-<case>
board_sim_run = d=$(BOARD_SIM_BUILD)/ecp5/run-$(1); rm -rf $$d; mkdir -p $$d/fw; \
    cp $(2).imem.hex $$d/fw/imem.hex; cp $(2).dmem.hex $$d/fw/dmem.hex; \
    (cd $$d && $(abspath $(BOARD_SIM_ECP5_BIN)) $(3))
.PHONY: test-board-sim-ecp5 test-board-sim-ecp5-long
TESTS += board-sim-ecp5
test-board-sim-ecp5: $(BOARD_SIM_ECP5_BIN) $(BOARD_SIM_ECP5_FW).imem.hex $(BOARD_SIM_ECP5_FW).dmem.hex
	@$(call board_sim_run,quick,$(BOARD_SIM_ECP5_FW),--quick $(if $(SEED),--seed=$(SEED)))
test-board-sim-ecp5-long: $(BOARD_SIM_ECP5_BIN) $(BOARD_SIM_ECP5_FW).imem.hex $(BOARD_SIM_ECP5_FW).dmem.hex \
    $(BOARD_SIM_FW_PLANT).imem.hex
	@$(call board_sim_run,clean,$(BOARD_SIM_ECP5_FW),$(if $(SEED),--seed=$(SEED)))
	@for p in crossed dead swap-on-reset short-press d-stagger hmsg-drop hmsg-switch; do \
	    img=$(BOARD_SIM_ECP5_FW); [ $$p = hmsg-drop ] && img=$(BOARD_SIM_FW_PLANT); \
	    if $(call board_sim_run,$$p,$$img,--plant=$$p) > $(BOARD_SIM_BUILD)/ecp5/plant-$$p.log 2>&1; then \
	        echo "board-sim-ecp5: plant $$p was not caught"; tail -n 20 $(BOARD_SIM_BUILD)/ecp5/plant-$$p.log; exit 1; \
	    else echo "board-sim-ecp5: plant $$p caught: $$(grep -m1 FAIL $(BOARD_SIM_BUILD)/ecp5/plant-$$p.log)"; fi; \
	done

# ---- two KC705 boards (kolo_board_kc705), hosts over PCIe ----
#   make test-board-sim-kc705        two KC705 tops (tb/board_sim/tb_board_sim_kc705.{v,cpp}) with
#                                    behavioural IBUFDS, IBUFDS_GTE2, MMCME2_BASE, BUFG and models of
#                                    the two IP cores (tb/board_sim/xilinx: the PCIe block's streams and
#                                    the GTX channels' words handed to the harness), the RV32 firmware
#                                    (kolo_fw_rv32_sim); each host a PCIe root complex running libkolo
#                                    (build/lib/libkolo.a, its own backend over the model's MMIO): boot,
#                                    links and peers, libkolo open, seeded PUTs, GETs and atomics from
#                                    board 0 into board 1's host memory and back, then both programs at
#                                    once (a thread each), every byte checked,
#                                    clean counters (--quick: 100 operations each way; SEED= replays;
#                                    the consoles at 115200 baud for the banner's "kolo firmware ", which
#                                    the boot check looks for, then at 64 x 115200: --console-baud,
#                                    --console-fast-after, simulation only, tb_board_sim_kc705.cpp);
#                                    then the crossed-cables plant, which must fail
#   make test-board-sim-kc705-long   400 operations each way (the consoles at 115200 throughout), then
#                                    the plants crossed, cpl-byte (a completion byte flipped by board 0's
#                                    PCIe block), lane-cut (board 0's X+ transmitter dies after the boot:
#                                    caught by the host programs' 2 ms limit), console-rate (the consoles
#                                    at 7/8 of the fast rate they are decoded at): each must fail
BOARD_SIM_KC705_BIN := $(BOARD_SIM_BUILD)/kc705/obj/tb_board_sim_kc705
BOARD_SIM_KC705_FW := $(BUILD)/fw/rv32/kolo_fw_rv32_sim
BOARD_SIM_KC705_LIB := $(BUILD)/lib/libkolo.a
BOARD_SIM_KC705_SRC := tb/board_sim/tb_board_sim_kc705.v tb/board_sim/kolo_sim_osc.v tb/board_sim/kolo_sim_pll.v tb/board_sim/tb_board_sim_kc705.cpp \
    $(wildcard tb/board_sim/xilinx/*.v) boards/kc705/kolo_board_kc705.v rtl/board/kolo_uart_tx.v \
    rtl/platform/xilinx/kolo_pcie_shim_x7.v $(wildcard rtl/platform/common/*.v) tb/unit/common/tb_util.h \
    tb/common/kolo_x7_stream_model.h sw/rtlsim/kolo_pcie_rc.h sw/rtlsim/kolo_chip_lanes.h \
    sw/rtlsim/kolo_lane_model.h sw/include/kolo.h sw/include/kolo_svc_regs.h sw/include/kolo_sim_shm.h \
    sw/lib/kolo_sim_server.h $(wildcard rtl/chip/*.v rtl/common/*.v rtl/link/*.v rtl/ni/*.v rtl/node/*.v rtl/svc/*.v rtl/router/*.v \
    rtl/cpu/*.v rtl/include/*.vh)
BOARD_SIM_KC705_VDIRS := -I$(TOP)/rtl/include $(addprefix -y $(TOP)/rtl/,chip common link ni node svc router cpu board \
    platform/common platform/xilinx) -y $(TOP)/boards/kc705 -y $(TOP)/tb/board_sim/xilinx -y $(TOP)/tb/board_sim
$(BOARD_SIM_KC705_BIN): $(BOARD_SIM_KC705_SRC) $(BOARD_SIM_KC705_LIB) mk/board_sim.mk | $(DEPS_STAMP)
	@mkdir -p $(BOARD_SIM_BUILD)/kc705
	@echo "verilator tb_board_sim_kc705 (log: $(BOARD_SIM_BUILD)/kc705/build.log)"
	@verilator $(VL_CHECKS) --cc --exe --build --timing -O3 -Wall -Wno-fatal -j 2 --x-assign fast --x-initial fast \
	    --timescale 1ps/1ps --top-module tb_board_sim_kc705 $(BOARD_SIM_KC705_VDIRS) $(CHIP_OBJCACHE) \
	    -GSP_IMEM_INIT='"fw/imem.hex"' -GSP_DMEM_INIT='"fw/dmem.hex"' \
	    -CFLAGS "-O1 -std=c++17 -Wall -Wextra -Werror -I$(TOP)/tb/unit/common -I$(TOP)/tb/common -I$(TOP)/sw/rtlsim \
	             -I$(TOP)/sw/include -I$(TOP)/sw/lib" \
	    -LDFLAGS "-lpthread" --Mdir $(BOARD_SIM_BUILD)/kc705/obj -o tb_board_sim_kc705 \
	    $(TOP)/tb/board_sim/tb_board_sim_kc705.v $(TOP)/tb/board_sim/tb_board_sim_kc705.cpp \
	    $(abspath $(BOARD_SIM_KC705_LIB)) \
	    > $(BOARD_SIM_BUILD)/kc705/build.log 2>&1 || { tail -n 40 $(BOARD_SIM_BUILD)/kc705/build.log; exit 1; }
	@touch $@  # verilator does not relink an unchanged model
# board_sim_kc705_run <case> <args>: run the binary in build/boards/sim/kc705/run-<case>
board_sim_kc705_run = d=$(BOARD_SIM_BUILD)/kc705/run-$(1); rm -rf $$d; mkdir -p $$d/fw; \
    cp $(BOARD_SIM_KC705_FW).imem.hex $$d/fw/imem.hex; cp $(BOARD_SIM_KC705_FW).dmem.hex $$d/fw/dmem.hex; \
    (cd $$d && $(abspath $(BOARD_SIM_KC705_BIN)) $(2))
# make test's boots: the banner's first 14 characters ("kolo firmware ") at 115200 baud, the rest
# at 64 x 115200 (at 115200 the two banners took 3.5 of a boot's 3.7 ms: ~2 minutes of CPU)
BOARD_SIM_KC705_CONSOLE := --console-baud=7372800 --console-fast-after=14
# board_sim_kc705_plant <plant>: the run must fail
board_sim_kc705_plant = if $(call board_sim_kc705_run,$(1),--quick --plant=$(1)) > $(BOARD_SIM_BUILD)/kc705/plant-$(1).log 2>&1; \
    then echo "board-sim-kc705: plant $(1) was not caught"; tail -n 20 $(BOARD_SIM_BUILD)/kc705/plant-$(1).log; exit 1; \
    else echo "board-sim-kc705: plant $(1) caught: $$(grep -m1 FAIL $(BOARD_SIM_BUILD)/kc705/plant-$(1).log)"; fi
.PHONY: test-board-sim-kc705 test-board-sim-kc705-long
TESTS += board-sim-kc705
test-board-sim-kc705: $(BOARD_SIM_KC705_BIN) $(BOARD_SIM_KC705_FW).imem.hex $(BOARD_SIM_KC705_FW).dmem.hex
	@$(call board_sim_kc705_run,quick,--quick $(BOARD_SIM_KC705_CONSOLE) $(if $(SEED),--seed=$(SEED)))
	@$(call board_sim_kc705_plant,crossed)
test-board-sim-kc705-long: $(BOARD_SIM_KC705_BIN) $(BOARD_SIM_KC705_FW).imem.hex $(BOARD_SIM_KC705_FW).dmem.hex
	@$(call board_sim_kc705_run,clean,$(if $(SEED),--seed=$(SEED)))
	@for p in crossed cpl-byte lane-cut console-rate; do $(call board_sim_kc705_plant,$$p); done

# ---- the two KC705 boards through a power cycle of board 1 ----
#   make test-board-sim-kc705-power-long   the same two boards (--power-cycle --quick, tb_board_sim_kc705.cpp
#                                    "--power-cycle"): end-to-end reliability on in both NIs, 40
#                                    operations each way at once, then board 0's program into board 1's
#                                    host memory while board 1 loses its power 20..80 us into it (its
#                                    clocks stop, PERST#, its lanes quiet, its root port's link down) for
#                                    0.8..1.2 ms: every operation that succeeds is right, none issued
#                                    after the cut succeeds, the others end with BAD_DST or NET_TIMEOUT,
#                                    board 0 reports both X links down (LINK_STATUS, LINK_DOWN_COUNT 1,
#                                    link_downs 1, the firmware's fault digest), RT_UNREACHABLE equal to
#                                    the BAD_DSTs its program saw; board 1's host waits for a PUT on
#                                    its dead card (KOLO_E_GONE, no MMIO after libkolo knows) and
#                                    closes its handle; board 1 comes back: banner again, links up with the
#                                    right peers, its host opens it anew, 40 operations each way at once,
#                                    board 0's counters exactly one link down per X link and nothing
#                                    after the return; the same with --reflash-gen (board 1's NI
#                                    end-to-end tables, generations and known (destination, tag)s, put
#                                    back to their bitstream values at the return, as a bitstream reload
#                                    does, while board 0 keeps its records of board 1): must pass, board
#                                    1's requests resynchronised (RESYNC, docs/ni.md 10.1; docs/boards.md
#                                    "Power cycle"); then the plants no-reset (board 1's clocks keep
#                                    running: no new boot), link-left-down (board 1's X- transmitter
#                                    dead after the return) and reflash-no-resync (the reload leaves every
#                                    (destination, tag) known: the NI before RESYNC, a rebooted source's
#                                    requests taken for repeats), each must fail with its FAIL line
# board_sim_kc705_pc_plant <plant> <pattern>: the run must fail, with a FAIL line matching pattern
board_sim_kc705_pc_plant = l=$(BOARD_SIM_BUILD)/kc705/plant-$(1).log; \
    if $(call board_sim_kc705_run,$(1),--power-cycle --quick --plant=$(1)) > $$l 2>&1 || ! grep -q "FAIL.*$(2)" $$l; \
    then echo "board-sim-kc705-power: plant $(1) was not caught (no FAIL line with \"$(2)\")"; tail -n 30 $$l; \
    exit 1; else echo "board-sim-kc705-power: plant $(1) caught: $$(grep -m1 "FAIL.*$(2)" $$l)"; fi
.PHONY: test-board-sim-kc705-power-long
test-board-sim-kc705-power-long: $(BOARD_SIM_KC705_BIN) $(BOARD_SIM_KC705_FW).imem.hex $(BOARD_SIM_KC705_FW).dmem.hex
	@$(call board_sim_kc705_run,power,--power-cycle --quick $(if $(SEED),--seed=$(SEED)))
	@$(call board_sim_kc705_run,power-reflash,--power-cycle --quick --reflash-gen $(if $(SEED),--seed=$(SEED)))
	@$(call board_sim_kc705_pc_plant,no-reset,no firmware banner on the console after the return)
	@$(call board_sim_kc705_pc_plant,link-left-down,board 0 X+: link state)
	@$(call board_sim_kc705_pc_plant,reflash-no-resync,(board 1's program))

# ---- OpenSHMEM programs on the two KC705 boards: the board simulation as a kolo-sim server ----
#   make test-board-sim-kc705-shmem  the same two boards booted (--quick; their consoles at 64 x 115200
#                                    baud, --console-baud: the rate at 115200 is test-board-sim-kc705's), then served to separate PE
#                                    processes over kolo-sim --server's shared-memory protocol
#                                    (tb_board_sim_kc705 --serve, sw/lib/kolo_sim_server.c: each
#                                    board's PCIe endpoint is one PE's device, its DMA that PE's
#                                    memory): unmodified OpenSHMEM programs (the examples hello,
#                                    ring_put, atomic_counter; the test t_coll: broadcasts, collects,
#                                    reductions, alltoall) as two PEs started like mpiexec starts them
#                                    (PMI_RANK/PMI_SIZE, KOLO_SIM_SHM), PE i on board i, one job each;
#                                    checked: exit statuses (the programs check their results), each
#                                    PE on its board (SHMEM_DEBUG's node), the boards' clean counters;
#                                    a PE with no server and a PE of rank 2 fail at once with a
#                                    message (tb/board_sim/run_kc705_shmem.sh); all of it under --det
#                                    (deterministic co-simulation, as kolo-sim --det): the first job,
#                                    t_det 0, and t_det 40 as the first job of a second boot (its PEs
#                                    sleep 40..120 ms of wall time per round) must take the same
#                                    simulated time to the picosecond; then the plant pe-swap (PE 0
#                                    served by board 1, PE 1 by board 0), which must fail
#   make test-board-sim-kc705-shmem-long   + torus_work (100 rounds of puts, gets, atomics, signals),
#                                    the tests t_amo, t_sync, t_rma, and the plant pcie-dead (board 1's PCIe held in reset: its PE's
#                                    reads time out after 200 us simulated with a message, the other PE
#                                    exits when the server ends), and the plant det-no-hold (--det
#                                    whose server does not hold time while a PE computes: t_det 40
#                                    then takes another simulated time than t_det 0): each must fail
# (the OpenSHMEM tests of sw/tests/shmem by path: ASan/UBSan builds, mk/lib.mk)
BOARD_SIM_KC705_SHMEM_T := $(abspath $(BUILD)/lib/shmem_tests)
BOARD_SIM_KC705_SHMEM_PROGS := $(BOARD_SIM_KC705_SHMEM_T)/t_det:0 hello ring_put atomic_counter \
    $(BOARD_SIM_KC705_SHMEM_T)/t_coll
BOARD_SIM_KC705_SHMEM_LONG_PROGS := $(BOARD_SIM_KC705_SHMEM_PROGS) torus_work \
    $(addprefix $(BOARD_SIM_KC705_SHMEM_T)/,t_amo t_sync t_rma)
BOARD_SIM_KC705_SHMEM_DEPS := $(BOARD_SIM_KC705_BIN) $(BOARD_SIM_KC705_FW).imem.hex $(BOARD_SIM_KC705_FW).dmem.hex \
    tb/board_sim/run_kc705_shmem.sh $(addprefix $(BUILD)/examples/,hello ring_put atomic_counter torus_work) \
    $(addprefix $(BUILD)/lib/shmem_tests/,t_coll t_amo t_sync t_rma t_det)
# the consoles of these boots at 64 x 115200 baud throughout (tb_board_sim_kc705.cpp --console-baud,
# simulation only; the console at 115200 is decoded by test-board-sim-kc705 and its -long)
BOARD_SIM_KC705_SHMEM_CONSOLE := --console-baud=7372800
# board_sim_kc705_shmem <case> <programs> <args>: run_kc705_shmem.sh in build/boards/sim/kc705/shmem-<case>
board_sim_kc705_shmem = d=$(BOARD_SIM_BUILD)/kc705/shmem-$(1); rm -rf $$d; mkdir -p $$d/fw; \
    cp $(BOARD_SIM_KC705_FW).imem.hex $$d/fw/imem.hex; cp $(BOARD_SIM_KC705_FW).dmem.hex $$d/fw/dmem.hex; \
    tb/board_sim/run_kc705_shmem.sh $$d $(abspath $(BOARD_SIM_KC705_BIN)) $(abspath $(BUILD)/examples) "$(2)" \
    $(BOARD_SIM_KC705_SHMEM_CONSOLE) $(3)
# board_sim_kc705_shmem_plant <plant> <pattern>: the run must fail, with a FAIL line matching pattern
board_sim_kc705_shmem_plant = l=$(BOARD_SIM_BUILD)/kc705/shmem-plant-$(1).log; \
    if $(call board_sim_kc705_shmem,$(1),hello,--plant=$(1)) > $$l 2>&1 || ! grep -q "FAIL.*$(2)" $$l; \
    then echo "board-sim-kc705-shmem: plant $(1) was not caught (no FAIL line with \"$(2)\")"; tail -n 30 $$l; \
    exit 1; else echo "board-sim-kc705-shmem: plant $(1) caught: $$(grep -m1 "FAIL.*$(2)" $$l)"; fi
# board_sim_kc705_det40 <case> <plant>: t_det 40 alone on a new boot (build/.../shmem-<case>)
board_sim_kc705_det40 = $(call board_sim_kc705_shmem,$(1),$(BOARD_SIM_KC705_SHMEM_T)/t_det:40,--det $(2) \
    $(if $(SEED),--seed=$(SEED))) > $(BOARD_SIM_BUILD)/kc705/shmem-$(1).log 2>&1 || \
    { echo "FAIL board-sim-kc705-shmem: t_det 40 ($(1))"; tail -n 30 $(BOARD_SIM_BUILD)/kc705/shmem-$(1).log; exit 1; }
# board_sim_kc705_job1_ps <case>: the simulated time of job 1 of that run, in ps
board_sim_kc705_job1_ps = $$(grep -m1 -o 'job 1: .* simulated ([0-9]* ps)' $(BOARD_SIM_BUILD)/kc705/shmem-$(1)/server.log | \
    grep -o '([0-9]* ps)' | tr -dc 0-9)
# board_sim_kc705_det_same <reference case> <case>: job 1 (t_det 0 / t_det 40) took the same ps in both
# (it exits 1 when not: in a condition, run it in a subshell)
board_sim_kc705_det_same = a=$(call board_sim_kc705_job1_ps,$(1)); b=$(call board_sim_kc705_job1_ps,$(2)); \
    if [ -n "$$a" ] && [ "$$a" = "$$b" ]; then echo "PASS board-sim-kc705-shmem --det: t_det 0 and t_det 40 \
    both took $$a ps of simulated time"; else echo "FAIL board-sim-kc705-shmem --det: t_det 0 took $${a:-?} ps, \
    t_det 40 $${b:-?} ps: the simulated time depends on the PEs' pace"; exit 1; fi
.PHONY: test-board-sim-kc705-shmem test-board-sim-kc705-shmem-long
TESTS += board-sim-kc705-shmem
test-board-sim-kc705-shmem: $(BOARD_SIM_KC705_SHMEM_DEPS)
	@$(call board_sim_kc705_shmem,quick,$(BOARD_SIM_KC705_SHMEM_PROGS),--det $(if $(SEED),--seed=$(SEED)))
	@$(call board_sim_kc705_det40,det40,)
	@$(call board_sim_kc705_det_same,quick,det40)
	@$(call board_sim_kc705_shmem_plant,pe-swap,not on board)
test-board-sim-kc705-shmem-long: $(BOARD_SIM_KC705_SHMEM_DEPS)
	@$(call board_sim_kc705_shmem,long,$(BOARD_SIM_KC705_SHMEM_LONG_PROGS),--det --serve-wall=1800 $(if $(SEED),--seed=$(SEED)))
	@$(call board_sim_kc705_det40,det40,)
	@$(call board_sim_kc705_det_same,long,det40)
	@$(call board_sim_kc705_shmem_plant,pe-swap,not on board)
	@$(call board_sim_kc705_shmem_plant,pcie-dead,does not answer PE 1)
	@$(call board_sim_kc705_det40,plant-det-no-hold,--plant=det-no-hold)
	@if ( $(call board_sim_kc705_det_same,long,plant-det-no-hold) ) > $(BOARD_SIM_BUILD)/kc705/det-no-hold.log; then \
	    echo "board-sim-kc705-shmem: plant det-no-hold was not caught: $$(cat $(BOARD_SIM_BUILD)/kc705/det-no-hold.log)"; \
	    exit 1; else echo "board-sim-kc705-shmem: plant det-no-hold caught: $$(cat $(BOARD_SIM_BUILD)/kc705/det-no-hold.log)"; fi

# ---- the board-level simulation's vendor-IP models against the board's IP stubs ----
#   make test-board-ip-models   tb/board_sim/xilinx's models of the KC705 IP (kolo_kc705_pcie,
#                               kolo_kc705_gt) have exactly the ports of boards/kc705/kc705_ip_stubs.v
#                               (names, order, directions, widths: scripts/check_ip_models.py; the
#                               stubs are the description the Vivado build checks the generated IP
#                               against); plants on copies of the models: a port's width changed,
#                               a port dropped, a port's direction flipped (each must be reported)
IP_MODELS_CHECK = python3 scripts/check_ip_models.py --stubs boards/kc705/kc705_ip_stubs.v \
    --require kolo_kc705_pcie --require kolo_kc705_gt --models
# ip_models_plant <name> <file> <sed expression> <expected message>
ip_models_plant = d=$(BOARD_SIM_BUILD)/ip-models-plant/$(1); rm -rf $$d; mkdir -p $$d; \
    cp tb/board_sim/xilinx/*.v $$d/; sed -i -e '$(3)' $$d/$(2); \
    if cmp -s $$d/$(2) tb/board_sim/xilinx/$(2); then echo "board-ip-models: plant $(1) changed nothing"; exit 1; fi; \
    if $(IP_MODELS_CHECK) $$d > $$d.log 2>&1; then echo "board-ip-models: plant $(1) was not caught"; exit 1; fi; \
    if grep -q '$(4)' $$d.log; then echo "board-ip-models: plant $(1) caught: $$(grep -m1 FAIL $$d.log)"; \
    else echo "board-ip-models: plant $(1) failed without the expected '$(4)'"; cat $$d.log; exit 1; fi
.PHONY: test-board-ip-models
TESTS += board-ip-models
test-board-ip-models:
	@$(IP_MODELS_CHECK) tb/board_sim/xilinx
	@$(call ip_models_plant,width,kolo_kc705_pcie.v,s/output wire \[21:0\]  m_axis_rx_tuser/output wire [20:0]  m_axis_rx_tuser/,m_axis_rx_tuser: stub output 22 bits$(,) model output 21 bits)
	@$(call ip_models_plant,dropped,kolo_kc705_pcie.v,/input  wire         rx_np_req$(,)/d,rx_np_req (input$(,) 1 bits) of the stub is missing)
	@$(call ip_models_plant,direction,kolo_kc705_gt.v,s/input  wire        soft_reset_rx_in/output wire        soft_reset_rx_in/,soft_reset_rx_in: stub input 1 bits$(,) model output)

# ---- the PLL models of the board-level simulation through a power cycle ----
#   make test-board-sim-pll-models   tb/board_sim/tb_pll_models.v in Icarus: MMCME2_BASE (KC705,
#                                    VCU118), EHXPLLL (ECP5) and kolo_sim_pll as a following clock
#                                    (the KC705 GTX and PCIe models' user clocks; all three share
#                                    kolo_sim_pll's logic) lock, run their outputs at the configured
#                                    ratio, lose lock and stop their outputs when the input clock stops
#                                    (a board's oscillator off), lock again at a new input period;
#                                    plants: the loss-of-input check disabled, the MMCM's CLKOUT1 and
#                                    the ECP5 PLL's CLKOS at a wrong ratio (each must fail)
PLL_MODELS = tb/board_sim/kolo_sim_pll.v tb/board_sim/xilinx/MMCME2_BASE.v tb/board_sim/ecp5/EHXPLLL.v
PLL_MODELS_DIR = $(BOARD_SIM_BUILD)/pll-models
# pll_models_run <name> <model files>: build and run tb_pll_models with these models
pll_models_run = iverilog -g2012 -o $(PLL_MODELS_DIR)/$(1).vvp tb/board_sim/tb_pll_models.v $(2) && \
    vvp -n $(PLL_MODELS_DIR)/$(1).vvp
# pll_models_plant <name> <model file> <sed expression>: the run with a changed copy must fail
pll_models_plant = d=$(PLL_MODELS_DIR)/plant-$(1); rm -rf $$d; mkdir -p $$d; cp $(PLL_MODELS) $$d/; \
    sed -i -e '$(3)' $$d/$(2); \
    if cmp -s $$d/$(2) $(filter %/$(2),$(PLL_MODELS)); then echo "board-sim-pll-models: plant $(1) changed nothing"; exit 1; fi; \
    if $(call pll_models_run,plant-$(1),$$d/*.v) > $$d.log 2>&1; then \
        echo "board-sim-pll-models: plant $(1) was not caught"; exit 1; \
    else echo "board-sim-pll-models: plant $(1) caught: $$(grep -m1 FAIL $$d.log)"; fi
.PHONY: test-board-sim-pll-models
TESTS += board-sim-pll-models
test-board-sim-pll-models: tb/board_sim/tb_pll_models.v $(PLL_MODELS) | $(DEPS_STAMP)
	@mkdir -p $(PLL_MODELS_DIR)
	@$(call pll_models_run,clean,$(PLL_MODELS)) > $(PLL_MODELS_DIR)/clean.log 2>&1 || { cat $(PLL_MODELS_DIR)/clean.log; exit 1; }
	@grep "PASS\|period" $(PLL_MODELS_DIR)/clean.log
	@$(call pll_models_plant,noloss,kolo_sim_pll.v,s/> LOSS_PERIODS \* in_period/> 1.0e12 * in_period/)
	@$(call pll_models_plant,mmcm-ratio,MMCME2_BASE.v,s/DIVCLK_DIVIDE \* CLKOUT1_DIVIDE/DIVCLK_DIVIDE * CLKOUT0_DIVIDE_F/)
	@$(call pll_models_plant,pll-ratio,EHXPLLL.v,s/CLKOS_DIV \/ CLKOP_DIV/CLKOP_DIV \/ CLKOS_DIV/)
