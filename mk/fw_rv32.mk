# mk/fw_rv32.mk - the service-processor firmware for RV32IM (fw/rv32): built with
# Debian's riscv64-unknown-elf-gcc (-march=rv32im -mabi=ilp32) and picolibc, freestanding,
# linked with fw/rv32/kolo_sp.ld, for kolo_sp (rtl/cpu) and QEMU's riscv32 virt machine.
#   build/fw/rv32/kolo_selftest_rv32.elf     the routing self-test image (kolo_sp, QEMU)
#   build/fw/rv32/kolo_selftest_rv32_quick.elf  the quick self-test (first torus) for the simulated core
#   build/fw/rv32/kolo_fw_rv32.elf           the firmware image (kolo_sp in a chip)
#   build/fw/rv32/kolo_fw_rv32_sim.elf       the same with a 20000-cycle heartbeat (simulations)
#   build/fw/rv32/kolo_fw_rv32_hmsg.elf      the firmware serving host messages (KOLO_RV32_HOST_MSG=1:
#                                            boards without an NI, the ECP5 board; docs/firmware.md)
#   build/fw/rv32/kolo_fw_rv32_hmsg_sim.elf  the same with the 20000-cycle heartbeat (the board simulation)
#   build/fw/rv32/<image>.imem.hex/.dmem.hex their $readmemh images (kolo_sp IMEM_INIT/DMEM_INIT)
#   make fw-rv32                             all of them
#   make test-fw-rv32-qemu   the self-test images (full and quick) in qemu-system-riscv32 -M virt:
#                            their lines equal the native tool's (scripts/test_fw_rv32.sh)
#   make test-fw-rv32-toobig an image larger than the RAM is refused at build time, with the message
# SP_IMEM_BYTES / SP_DMEM_BYTES: the RAM sizes of the kolo_sp the image is for (default: the
# memory map's, rtl/regs/kolo_sp_regs.toml); the chip build passes its kolo_sp parameters.
# (mk/sw.mk is included after this file: its variables are used in recipes only; mk/cpu.mk
# includes this file first, for its variables: the guard keeps it to one inclusion)
ifndef FW_RV32_MK
FW_RV32_MK := 1
FW_RV32_BUILD := $(BUILD)/fw/rv32
FW_RV32_CC := riscv64-unknown-elf-gcc
FW_RV32_OBJCOPY := riscv64-unknown-elf-objcopy
SP_IMEM_BYTES ?= $(shell sed -n 's/^\#define KOLO_SP_IMEM_BYTES_DEFAULT \(0x[0-9A-Fa-f]*\)u.*/\1/p' sw/include/kolo_sp_regs.h)
SP_DMEM_BYTES ?= $(shell sed -n 's/^\#define KOLO_SP_DMEM_BYTES_DEFAULT \(0x[0-9A-Fa-f]*\)u.*/\1/p' sw/include/kolo_sp_regs.h)
# -misa-spec=2.2: the ISA spec in which rv32i includes the CSR instructions (Zicsr)
FW_RV32_ARCH := -march=rv32im -mabi=ilp32 -misa-spec=2.2
FW_RV32_CFLAGS := $(FW_RV32_ARCH) --specs=picolibc.specs -ffreestanding -O2 -std=c11 -Wall -Wextra -Werror \
                  -ffunction-sections -fdata-sections -Isw/include -Ifw -Ifw/rv32
FW_RV32_LDFLAGS = -nostartfiles -T fw/rv32/kolo_sp.ld -Lfw/rv32 -Wl,--gc-sections -Wl,--no-warn-rwx-segments \
                  -Wl,--defsym=KOLO_IMEM_BYTES=$(SP_IMEM_BYTES) -Wl,--defsym=KOLO_DMEM_BYTES=$(SP_DMEM_BYTES)
FW_RV32_COMMON := fw/rv32/start.S fw/rv32/console.c fw/rv32/platform.c fw/kolo_print.c
FW_RV32_H := sw/include/kolo_fw_msg.h fw/kolo_print.h fw/rv32/kolo_rv32.h fw/rv32/kolo_rv32_platform.h fw/kolo_fw.h fw/kolo_hal.h fw/kolo_selftest.h \
             sw/include/kolo_route.h sw/include/kolo_svc_regs.h sw/include/kolo_sp_regs.h \
             fw/rv32/kolo_sp.ld fw/rv32/kolo_sp_regs.ld mk/fw_rv32.mk
FW_RV32_SELFTEST_SRCS := $(FW_RV32_COMMON) fw/rv32/main_selftest.c fw/kolo_selftest.c sw/route/kolo_route.c
FW_RV32_FW_SRCS := $(FW_RV32_COMMON) fw/rv32/hal.c fw/rv32/main_fw.c fw/kolo_fw.c sw/route/kolo_route.c
FW_RV32_IMAGES := $(FW_RV32_BUILD)/kolo_selftest_rv32 $(FW_RV32_BUILD)/kolo_selftest_rv32_quick \
                  $(FW_RV32_BUILD)/kolo_fw_rv32 $(FW_RV32_BUILD)/kolo_fw_rv32_sim \
                  $(FW_RV32_BUILD)/kolo_fw_rv32_hmsg $(FW_RV32_BUILD)/kolo_fw_rv32_hmsg_sim
# the quick self-test (the first FW_RV32_QUICK_TORI sample tori) for the simulated core
FW_RV32_QUICK_TORI := 1

$(FW_RV32_BUILD)/kolo_selftest_rv32.elf: $(FW_RV32_SELFTEST_SRCS) $(FW_RV32_H) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(FW_RV32_CC) $(FW_RV32_CFLAGS) $(FW_RV32_LDFLAGS) $(FW_RV32_SELFTEST_SRCS) -o $@
$(FW_RV32_BUILD)/kolo_selftest_rv32_quick.elf: $(FW_RV32_SELFTEST_SRCS) $(FW_RV32_H) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(FW_RV32_CC) $(FW_RV32_CFLAGS) -DKOLO_SELFTEST_QUICK_TORI=$(FW_RV32_QUICK_TORI) $(FW_RV32_LDFLAGS) \
	    $(FW_RV32_SELFTEST_SRCS) -o $@
$(FW_RV32_BUILD)/kolo_fw_rv32.elf: $(FW_RV32_FW_SRCS) $(FW_RV32_H) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(FW_RV32_CC) $(FW_RV32_CFLAGS) $(FW_RV32_LDFLAGS) $(FW_RV32_FW_SRCS) -o $@
# the same firmware with a heartbeat every 20000 cycles, for simulations
$(FW_RV32_BUILD)/kolo_fw_rv32_sim.elf: $(FW_RV32_FW_SRCS) $(FW_RV32_H) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(FW_RV32_CC) $(FW_RV32_CFLAGS) -DKOLO_RV32_HEARTBEAT_CYCLES=20000 $(FW_RV32_LDFLAGS) $(FW_RV32_FW_SRCS) -o $@
# the images serving host messages
$(FW_RV32_BUILD)/kolo_fw_rv32_hmsg.elf: $(FW_RV32_FW_SRCS) $(FW_RV32_H) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(FW_RV32_CC) $(FW_RV32_CFLAGS) -DKOLO_RV32_HOST_MSG=1 $(FW_RV32_LDFLAGS) $(FW_RV32_FW_SRCS) -o $@
$(FW_RV32_BUILD)/kolo_fw_rv32_hmsg_sim.elf: $(FW_RV32_FW_SRCS) $(FW_RV32_H) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(FW_RV32_CC) $(FW_RV32_CFLAGS) -DKOLO_RV32_HOST_MSG=1 -DKOLO_RV32_HEARTBEAT_CYCLES=20000 $(FW_RV32_LDFLAGS) \
	    $(FW_RV32_FW_SRCS) -o $@
# the $readmemh images; the size check repeats the linker's (an image never truncated)
$(FW_RV32_BUILD)/%.imem.hex $(FW_RV32_BUILD)/%.dmem.hex: $(FW_RV32_BUILD)/%.elf fw/tools/kolo_elf2hex.py
	fw/tools/kolo_elf2hex.py $< --imem $(FW_RV32_BUILD)/$*.imem.hex --dmem $(FW_RV32_BUILD)/$*.dmem.hex \
	    --imem-bytes $(SP_IMEM_BYTES) --dmem-bytes $(SP_DMEM_BYTES)

.PHONY: fw-rv32 test-fw-rv32-qemu test-fw-rv32-toobig
fw-rv32: $(foreach i,$(FW_RV32_IMAGES),$(i).elf $(i).imem.hex $(i).dmem.hex)

test-fw-rv32-qemu: $(FW_RV32_BUILD)/kolo_selftest_rv32.elf $(FW_RV32_BUILD)/kolo_selftest_rv32_quick.elf \
                   $(BUILD)/fw/selftest_native scripts/test_fw_rv32.sh
	scripts/test_fw_rv32.sh qemu $(BUILD)/fw/selftest_native $(FW_RV32_BUILD)/kolo_selftest_rv32.elf
	scripts/test_fw_rv32.sh qemu "$(BUILD)/fw/selftest_native --tori=$(FW_RV32_QUICK_TORI)" \
	    $(FW_RV32_BUILD)/kolo_selftest_rv32_quick.elf
TESTS += fw-rv32-qemu

# Bad input: an image too large for the RAM is refused at build time with a clear message,
# by the linker (region overflow) and by kolo_elf2hex.py (given a smaller RAM than linked for)
test-fw-rv32-toobig: $(FW_RV32_BUILD)/kolo_fw_rv32.elf | $(DEPS_STAMP)
	scripts/test_fw_rv32.sh toobig $(FW_RV32_BUILD)/toobig "$(FW_RV32_CC) $(FW_RV32_CFLAGS)" \
	    "$(FW_RV32_LDFLAGS)" "$(FW_RV32_FW_SRCS)" $(FW_RV32_BUILD)/kolo_fw_rv32.elf
TESTS += fw-rv32-toobig
endif
