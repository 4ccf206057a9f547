# mk/cpu.mk - the service processor kolo_sp (rtl/cpu, docs/cpu.md): its lock-step test
# against the reference ISS, the instruction tests, the self-test image on the RTL core,
# the negative control, and its benchmarks.
#
#   make test-unit-cpu           directed programs (traps, interrupts, the service bus) and
#                                seeded random RV32IM programs, each in lock step with
#                                tb/unit/cpu/rv32_iss.h (SEED=<n> replays one random program)
#   make test-unit-cpu-negative  the same random programs on a core built with the planted
#                                decode bug (BAD_DECODE=1): the test must fail
#   make test-cpu-selftest       the firmware self-test image on kolo_sp: the same lines as the
#                                native tool and QEMU (scripts/test_fw_rv32.sh)
#   make bench-cpu_luts_xc7 bench-cpu_ffs_xc7 bench-cpu_bram_xc7   Yosys synth_xilinx of kolo_sp
#   make bench-cpu_cpi           cycles per instruction on the self-test
#   build/cpu/obj/tb_cpu --imem=F --dmem=F [--seed=N] [--cover=rv32im|system] [--stats]

include mk/fw_rv32.mk
CPU_BUILD := $(BUILD)/cpu
CPU_RTL := $(wildcard rtl/cpu/*.v) rtl/common/kolo_axil_single.v rtl/include/kolo_sp_regs.vh
CPU_TB := tb/unit/cpu/tb_cpu.cpp tb/unit/cpu/rv32_iss.h tb/unit/cpu/sp_images.h tb/unit/common/tb_util.h sw/include/kolo_sp_regs.h
CPU_OBJCACHE := $(if $(shell command -v ccache),-MAKEFLAGS OBJCACHE=ccache)
CPU_TB_TIMEOUT := 200
CPU_TB_DEFS = -DTB_BUS_TIMEOUT=$(CPU_TB_TIMEOUT) -DTB_IMEM_BYTES=$(SP_IMEM_BYTES) -DTB_DMEM_BYTES=$(SP_DMEM_BYTES)

# $(call cpu_tb,<dir>,<more verilator options>)
define cpu_tb
$(1)/obj/tb_cpu: $$(CPU_RTL) $$(CPU_TB) mk/cpu.mk | $$(DEPS_STAMP)
	@mkdir -p $(1)
	@echo "verilator tb_cpu (log: $(1)/build.log)"
	@scripts/verilate_retry.sh $(1)/build.log verilator $(VL_CHECKS) --cc --exe --build -O2 -Wall -j 2 \
	    --x-assign unique --x-initial unique --top-module kolo_sp $(2) \
	    -GIMEM_INIT='"imem.hex"' -GDMEM_INIT='"dmem.hex"' -GBUS_TIMEOUT=$(CPU_TB_TIMEOUT) -GTRACE=1 \
	    -GIMEM_BYTES=$$(SP_IMEM_BYTES) -GDMEM_BYTES=$$(SP_DMEM_BYTES) \
	    -I$$(TOP)/rtl/include -y $$(TOP)/rtl/cpu -y $$(TOP)/rtl/common $$(CPU_OBJCACHE) \
	    -CFLAGS "-O2 -std=c++17 -Wall -Wextra -Werror -I$$(TOP)/tb/unit/common -I$$(TOP)/sw/include $$(CPU_TB_DEFS)" \
	    --Mdir $(1)/obj -o tb_cpu $$(TOP)/rtl/cpu/kolo_sp.v $$(TOP)/tb/unit/cpu/tb_cpu.cpp \
	    || { tail -n 40 $(1)/build.log; exit 1; }
endef
$(eval $(call cpu_tb,$(CPU_BUILD)))
$(eval $(call cpu_tb,$(CPU_BUILD)/bad,-GBAD_DECODE=1))
CPU_TB_BIN := $(CPU_BUILD)/obj/tb_cpu

.PHONY: tb-cpu
tb-cpu: $(CPU_TB_BIN)

# ---- test programs ------------------------------------------------------------------------------
CPU_PROG := $(CPU_BUILD)/prog
CPU_PROG_CC = $(FW_RV32_CC) $(FW_RV32_ARCH) -nostdlib -nostartfiles -Itb/unit/cpu/prog -T fw/rv32/kolo_sp.ld -Lfw/rv32 \
              -Wl,--no-warn-rwx-segments -Wl,--no-relax -Wl,--defsym=KOLO_IMEM_BYTES=$(SP_IMEM_BYTES) \
              -Wl,--defsym=KOLO_DMEM_BYTES=$(SP_DMEM_BYTES)
CPU_DIRECTED := traps irq bus
CPU_RANDOM_SEEDS := 1 2 3

$(CPU_PROG)/%.elf: tb/unit/cpu/prog/%.S tb/unit/cpu/prog/common.h fw/rv32/kolo_sp.ld fw/rv32/kolo_sp_regs.ld | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CPU_PROG_CC) $< -o $@
$(CPU_PROG)/random-%.S: tb/unit/cpu/gen_random.py
	@mkdir -p $(@D)
	python3 tb/unit/cpu/gen_random.py $* > $@
$(CPU_PROG)/random-%.elf: $(CPU_PROG)/random-%.S tb/unit/cpu/prog/common.h fw/rv32/kolo_sp.ld | $(DEPS_STAMP)
	$(CPU_PROG_CC) $< -o $@
$(CPU_PROG)/%.imem.hex $(CPU_PROG)/%.dmem.hex: $(CPU_PROG)/%.elf fw/tools/kolo_elf2hex.py
	@fw/tools/kolo_elf2hex.py $< --imem $(CPU_PROG)/$*.imem.hex --dmem $(CPU_PROG)/$*.dmem.hex \
	    --imem-bytes $(SP_IMEM_BYTES) --dmem-bytes $(SP_DMEM_BYTES)
.PRECIOUS: $(CPU_PROG)/%.elf $(CPU_PROG)/random-%.S $(CPU_PROG)/%.imem.hex $(CPU_PROG)/%.dmem.hex

cpu_run = $(1) --imem=$(CPU_PROG)/$(2).imem.hex --dmem=$(CPU_PROG)/$(2).dmem.hex --quiet $(3)
CPU_RANDOM_RUN := $(if $(SEED),$(SEED),$(CPU_RANDOM_SEEDS))

.PHONY: test-unit-cpu test-unit-cpu-negative test-cpu-selftest
test-unit-cpu: $(CPU_TB_BIN) $(foreach p,$(CPU_DIRECTED) $(addprefix random-,$(CPU_RANDOM_RUN)),$(CPU_PROG)/$(p).imem.hex)
	@$(call cpu_run,$(CPU_TB_BIN),traps,--cover=traps)
	@$(call cpu_run,$(CPU_TB_BIN),irq,--cover=irq --seed=2)
	@$(call cpu_run,$(CPU_TB_BIN),bus,--cover=bus --seed=3 --console-slow)
	@for s in $(CPU_RANDOM_RUN); do \
	    $(call cpu_run,$(CPU_TB_BIN),random-$$s,--cover=rv32im --irq-random --seed=$$s) || exit 1; done
TESTS += unit-cpu

# the negative control: the planted decode bug (SLT compares unsigned) must be caught
test-unit-cpu-negative: $(CPU_BUILD)/bad/obj/tb_cpu $(CPU_PROG)/random-1.imem.hex $(CPU_PROG)/traps.imem.hex
	@if $(call cpu_run,$<,random-1,--seed=1) >$(CPU_BUILD)/bad/run.log 2>&1; then \
	    echo "FAIL: the core with the planted decode bug passed the random program"; exit 1; fi
	@grep -m1 "FAIL unit-cpu: cycle" $(CPU_BUILD)/bad/run.log
	@echo "PASS unit-cpu-negative: the planted decode bug (BAD_DECODE=1) is caught"
TESTS += unit-cpu-negative

# the self-test image on the RTL core: the same lines as the native tool (and QEMU). The
# quick one (the first torus, in make test); the whole one takes about 400 M instructions
# (tens of minutes in Verilator with the ISS): test-cpu-selftest-long, not in make test
test-cpu-selftest: $(CPU_TB_BIN) $(FW_RV32_BUILD)/kolo_selftest_rv32_quick.imem.hex $(BUILD)/fw/selftest_native \
                   scripts/test_fw_rv32.sh
	@scripts/test_fw_rv32.sh rtl "$(BUILD)/fw/selftest_native --tori=$(FW_RV32_QUICK_TORI)" $(CPU_TB_BIN) \
	    $(FW_RV32_BUILD)/kolo_selftest_rv32_quick.imem.hex $(FW_RV32_BUILD)/kolo_selftest_rv32_quick.dmem.hex
TESTS += cpu-selftest
.PHONY: test-cpu-selftest-long
test-cpu-selftest-long: $(CPU_TB_BIN) $(FW_RV32_BUILD)/kolo_selftest_rv32.imem.hex $(BUILD)/fw/selftest_native \
                        scripts/test_fw_rv32.sh
	@MAX_CYCLES=4000000000 scripts/test_fw_rv32.sh rtl $(BUILD)/fw/selftest_native $(CPU_TB_BIN) \
	    $(FW_RV32_BUILD)/kolo_selftest_rv32.imem.hex $(FW_RV32_BUILD)/kolo_selftest_rv32.dmem.hex

# ---- benchmarks -------------------------------------------------------------------------------
# Yosys synth_xilinx of kolo_sp at default parameters with the firmware image in its RAMs (an
# IMEM nothing writes and nothing loads would be folded away), as cpu_xc7.*
$(SYNTH_DIR)/cpu_xc7.stat: $(CPU_RTL) scripts/synth.sh $(FW_RV32_BUILD)/kolo_fw_rv32.imem.hex | $(DEPS_STAMP)
	@SYNTH_FILES="$(wildcard rtl/cpu/*.v) rtl/common/kolo_axil_single.v" \
	    SYNTH_PRE='chparam -set IMEM_INIT "$(abspath $(FW_RV32_BUILD)/kolo_fw_rv32.imem.hex)" -set DMEM_INIT "$(abspath $(FW_RV32_BUILD)/kolo_fw_rv32.dmem.hex)" kolo_sp' \
	    scripts/synth.sh run xc7 $(SYNTH_DIR) sp
	@for x in log stat time sta; do cp $(SYNTH_DIR)/sp_xc7.$$x $(SYNTH_DIR)/cpu_xc7.$$x; done
.PHONY: bench-cpu_luts_xc7 bench-cpu_ffs_xc7 bench-cpu_bram_xc7 bench-cpu_dsp_xc7 bench-cpu_logic_depth_xc7
bench-cpu_luts_xc7 bench-cpu_ffs_xc7 bench-cpu_bram_xc7 bench-cpu_logic_depth_xc7: bench-%: $(SYNTH_DIR)/cpu_xc7.stat
	@scripts/synth.sh bench $* $(SYNTH_DIR)
bench-cpu_dsp_xc7: $(SYNTH_DIR)/cpu_xc7.stat
	@echo "BENCH cpu_dsp_xc7 $$(awk '$$1 ~ /^DSP48E1$$/ {n += $$2} END {print n + 0}' $<) DSP48E1"
BENCHES += cpu_luts_xc7 cpu_ffs_xc7 cpu_bram_xc7 cpu_dsp_xc7 cpu_logic_depth_xc7

# ---- kolo_sp on the service block: the fault path and the firmware image -------------------------
#   make test-sp-svc   tb/unit/cpu/prog/sp_fault.c (an illegal instruction and a refused service
#                      register load: reported by the firmware's trap handler, raised as SP_FAULT
#                      events, counted), and the firmware image booting to RUNNING on a 1x1x1
#                      torus and on a 2x1x1 whose links never come up (boot timeout, a table for it)
SP_SVC_BUILD := $(CPU_BUILD)/sp_svc
SP_SVC_BIN := $(SP_SVC_BUILD)/obj/tb_sp_svc
SP_SVC_RTL := $(CPU_RTL) $(wildcard rtl/svc/*.v rtl/common/*.v) rtl/include/kolo_svc_regs.vh   # (mk/svc.mk comes later)
$(SP_SVC_BIN): $(SP_SVC_RTL) tb/unit/cpu/tb_sp_svc.v tb/unit/cpu/tb_sp_svc.cpp tb/unit/cpu/sp_images.h mk/cpu.mk sw/include/kolo_sp_regs.h \
               sw/include/kolo_svc_regs.h | $(DEPS_STAMP)
	@mkdir -p $(SP_SVC_BUILD)
	@echo "verilator tb_sp_svc (log: $(SP_SVC_BUILD)/build.log)"
	@scripts/verilate_retry.sh $(SP_SVC_BUILD)/build.log verilator $(VL_CHECKS) --cc --exe --build -O2 -Wall -j 2 \
	    --x-assign unique --x-initial unique --top-module tb_sp_svc \
	    -I$(TOP)/rtl/include -y $(TOP)/rtl/cpu -y $(TOP)/rtl/svc -y $(TOP)/rtl/common $(CPU_OBJCACHE) \
	    -CFLAGS "-O2 -std=c++17 -Wall -Wextra -Werror -I$(TOP)/sw/include -I$(TOP)/tb/unit/cpu" \
	    --Mdir $(SP_SVC_BUILD)/obj -o tb_sp_svc $(TOP)/tb/unit/cpu/tb_sp_svc.v $(TOP)/tb/unit/cpu/tb_sp_svc.cpp \
	    || { tail -n 40 $(SP_SVC_BUILD)/build.log; exit 1; }
$(CPU_PROG)/sp_fault.elf: tb/unit/cpu/prog/sp_fault.c $(FW_RV32_COMMON) $(FW_RV32_H) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(FW_RV32_CC) $(FW_RV32_CFLAGS) $(FW_RV32_LDFLAGS) $(FW_RV32_COMMON) $< -o $@

.PHONY: test-sp-svc
test-sp-svc: $(SP_SVC_BIN) $(CPU_PROG)/sp_fault.imem.hex $(FW_RV32_BUILD)/kolo_fw_rv32_sim.imem.hex
	@$(SP_SVC_BIN) --imem=$(CPU_PROG)/sp_fault.imem.hex --dmem=$(CPU_PROG)/sp_fault.dmem.hex \
	    --expect="kolo sp: trap: illegal instruction, mcause 0x00000002" \
	    --expect="kolo sp: trap: load access fault (bus error), mcause 0x00000005" \
	    --expect="sp_fault: both faults reported"
	@for t in 1x1x1 2x1x1; do $(SP_SVC_BIN) --fw --torus=$$t --imem=$(FW_RV32_BUILD)/kolo_fw_rv32_sim.imem.hex \
	    --dmem=$(FW_RV32_BUILD)/kolo_fw_rv32_sim.dmem.hex \
	    --expect="kolo firmware $$(sed -n 's/^#define KOLO_FW_VERSION "\(.*\)"$$/\1/p' fw/kolo_fw.h) (RV32IM, kolo_sp)" \
	    || exit 1; done
TESTS += sp-svc
# cycles per completed instruction of the quick self-test on the RTL core
bench-cpu_cpi: $(CPU_TB_BIN) $(FW_RV32_BUILD)/kolo_selftest_rv32_quick.imem.hex
	@$(CPU_TB_BIN) --imem=$(FW_RV32_BUILD)/kolo_selftest_rv32_quick.imem.hex \
	    --dmem=$(FW_RV32_BUILD)/kolo_selftest_rv32_quick.dmem.hex --quiet --no-iss \
	    | sed -n 's/^PASS unit-cpu: .* CPI \([0-9.]*\) .*/BENCH cpu_cpi \1 cycles_per_instruction/p' | grep BENCH
BENCHES += cpu_cpi
