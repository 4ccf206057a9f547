# mk/fw_ppc.mk - the service-processor firmware image for the PowerPC 440 of
# the Xilinx ML507, booted in QEMU (virtex-ml507), and its routing self-test:
#   build/fw/ppc440/kolo_fw_ppc440.elf   firmware image (fw/ppc440, fw/kolo_fw.c over the ML507 HAL,
#                                        fw/kolo_selftest.c, fw/kolo_print.c,
#                                        sw/route built for powerpc-linux-gnu, freestanding)
#   build/fw/selftest_native             the same self-test built for the host
#   make fw-ppc                          both
#   test-fw-ppc-qemu   boots the image in qemu-system-ppc; its version line must
#                      be on the UART and its self-test lines (counts, digest)
#                      must equal the native tool's (big- vs little-endian)
# (mk/sw.mk is included after this file: its variables are used in recipes
# only, the sources are named here)
FW_PPC_BUILD := $(BUILD)/fw/ppc440
FW_PPC_CC := powerpc-linux-gnu-gcc
FW_PPC_CFLAGS = -mcpu=440 -msoft-float -ffreestanding -fno-builtin -nostdlib -static -O2 -std=c99 \
                 -fno-pie -msdata=none -G 0 -Wall -Wextra -Werror -Isw/include -Ifw
FW_PPC_LDFLAGS := -no-pie -T fw/ppc440/ml507.ld -Wl,--build-id=none -Wl,--no-warn-rwx-segments
FW_PPC_SRCS := fw/ppc440/start.S fw/ppc440/main.c fw/ppc440/uart16550.c fw/ppc440/libc_min.c \
               fw/ppc440/hal_ml507.c fw/kolo_fw.c fw/kolo_selftest.c fw/kolo_print.c sw/route/kolo_route.c
FW_PPC_H := fw/ppc440/uart16550.h fw/kolo_print.h fw/kolo_selftest.h fw/kolo_fw.h fw/kolo_hal.h sw/include/kolo_route.h \
            sw/include/kolo_svc_regs.h
FW_SELFTEST_SRCS := fw/tools/selftest_native.c fw/kolo_selftest.c fw/kolo_print.c sw/route/kolo_route.c

$(FW_PPC_BUILD)/kolo_fw_ppc440.elf: $(FW_PPC_SRCS) $(FW_PPC_H) fw/ppc440/ml507.ld mk/fw_ppc.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(FW_PPC_CC) $(FW_PPC_CFLAGS) $(FW_PPC_LDFLAGS) $(FW_PPC_SRCS) -lgcc -o $@

$(BUILD)/fw/selftest_native: $(FW_SELFTEST_SRCS) $(FW_PPC_H) mk/fw_ppc.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) -std=c11 -O2 -Wall -Wextra -Werror -Isw/include -Ifw $(FW_SELFTEST_SRCS) -o $@

.PHONY: fw-ppc test-fw-ppc-qemu
fw-ppc: $(FW_PPC_BUILD)/kolo_fw_ppc440.elf $(BUILD)/fw/selftest_native

test-fw-ppc-qemu: $(FW_PPC_BUILD)/kolo_fw_ppc440.elf $(BUILD)/fw/selftest_native scripts/test_fw_ppc_qemu.sh
	scripts/test_fw_ppc_qemu.sh $(BUILD)/fw/selftest_native $(FW_PPC_BUILD)/kolo_fw_ppc440.elf
TESTS += fw-ppc-qemu

# the image for a real ML507 whose FPGA holds the kolo node: after the
# self-test it runs the firmware over the service block at 0x80000000
# (flash: docs/firmware.md)
$(FW_PPC_BUILD)/kolo_fw_ppc440_board.elf: $(FW_PPC_SRCS) $(FW_PPC_H) fw/ppc440/ml507.ld mk/fw_ppc.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(FW_PPC_CC) $(FW_PPC_CFLAGS) -DKOLO_ML507_BOARD $(FW_PPC_LDFLAGS) $(FW_PPC_SRCS) -lgcc -o $@
.PHONY: fw-ppc-board
fw-ppc-board: $(FW_PPC_BUILD)/kolo_fw_ppc440_board.elf
