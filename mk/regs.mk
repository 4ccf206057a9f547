# mk/regs.mk - the service register map: one description (rtl/regs/kolo_svc_regs.toml),
# three generated files (RTL constants, C header, docs/registers.md) kept in git; and
# the service processor's memory map (rtl/regs/kolo_sp_regs.toml: RTL constants, C
# header, linker script symbols, docs/sp-map.md); the UART host bridge's
# protocol and registers (rtl/regs/kolo_uart_regs.toml: RTL constants, C header);
# and the NI protocol (rtl/regs/kolo_ni_regs.toml: op codes, status codes, header
# fields, BAR0 registers for the RTL NI, the C model, libkolo and docs/ni-regs.md);
# and the firmware's MGMT message kinds and host-message area (rtl/regs/kolo_fw_msg.toml:
# C header for the firmware and libkolo, Verilog macros, docs/fw-msg.md).
# The link's CRC-32C masks (rtl/include/kolo_crc32c_masks.vh) come from
# scripts/gen_crc_masks.py (the polynomial). `make regs` regenerates them all; test regs-gen checks they are up to date and that
# the generator refuses broken maps.
REGS_MAP := rtl/regs/kolo_svc_regs.toml
REGS_OUT := rtl/include/kolo_svc_regs.vh sw/include/kolo_svc_regs.h docs/registers.md
SP_MAP := rtl/regs/kolo_sp_regs.toml
SP_MAP_OUT := rtl/include/kolo_sp_regs.vh sw/include/kolo_sp_regs.h fw/rv32/kolo_sp_regs.ld docs/sp-map.md
UART_MAP := rtl/regs/kolo_uart_regs.toml
NI_MAP := rtl/regs/kolo_ni_regs.toml
NI_MAP_OUT := rtl/include/kolo_ni_regs.vh sw/include/kolo_ni_regs.h docs/ni-regs.md
FWM_MAP := rtl/regs/kolo_fw_msg.toml

.PHONY: regs test-regs-gen
regs: $(REGS_MAP) $(SP_MAP) $(UART_MAP) $(NI_MAP) $(FWM_MAP) scripts/gen_regs.py scripts/gen_crc_masks.py | $(DEPS_STAMP)
	python3 scripts/gen_crc_masks.py rtl/include/kolo_crc32c_masks.vh
	python3 scripts/gen_regs.py $(REGS_MAP) --vh rtl/include/kolo_svc_regs.vh \
	    --h sw/include/kolo_svc_regs.h --md docs/registers.md
	python3 scripts/gen_regs.py $(SP_MAP) --vh rtl/include/kolo_sp_regs.vh \
	    --h sw/include/kolo_sp_regs.h --ld fw/rv32/kolo_sp_regs.ld --md docs/sp-map.md
	python3 scripts/gen_regs.py $(UART_MAP) --vh rtl/include/kolo_uart_regs.vh --h sw/include/kolo_uart_regs.h
	python3 scripts/gen_regs.py $(NI_MAP) --vh rtl/include/kolo_ni_regs.vh \
	    --h sw/include/kolo_ni_regs.h --md docs/ni-regs.md
	python3 scripts/gen_regs.py $(FWM_MAP) --vh rtl/include/kolo_fw_msg.vh \
	    --h sw/include/kolo_fw_msg.h --md docs/fw-msg.md

test-regs-gen: | $(DEPS_STAMP)
	scripts/test_regs.sh $(BUILD)/regs-test
TESTS += regs-gen
