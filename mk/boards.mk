# mk/boards.mk - kolo on FPGA boards (boards/<board>/, docs/boards.md).
#
#   make bitstream BOARD=<b>     the vendor build (Vivado / Quartus batch), or for
#                                ecp5-evn Yosys + nextpnr-ecp5 + ecppack here; where
#                                the vendor tool is missing it stops at once, names
#                                it and prints the exact command (exit 2, nothing built)
#   make flash BOARD=<b> [SPI=1] load the bitstream over JTAG (SPI=1: the
#                                configuration flash); stops with the command when the
#                                tool, the bitstream or the board's cable is missing
#   make boards                  the boards and their titles
#   make test-boards             each top elaborates (Yosys, vendor primitives and IP
#                                as black boxes); constraints and vendor Tcl checked
#                                against it; planted bugs caught (scripts/test_boards.py)
#   make bench-board_<b>         Yosys synthesis of the whole top for its family, fit
#                                and resources: BENCH board_<b>_luts/_ffs/_bram (_alms
#                                for Intel); tens of minutes each
#   make bench-ecp5_board        the ECP5 board's bitstream: BENCH fmax_ecp5_board,
#                                board_ecp5_evn_luts/_ffs/_bram, bitstream_ecp5_seconds
#   make cores                   the FuseSoC core files (kolo.core, rtl/platform/*/,
#                                boards/*/: kolo as an IP, FuseSoC/Edalize vendor flows),
#                                written from rtl/ and the board.toml files
#   make test-fusesoc-cores      the committed cores up to date; FuseSoC sets up every
#                                board's vendor project with the board's exact file list,
#                                runs the IP core's Verilator lint; two planted faults
BOARD ?=
BOARDS := $(notdir $(patsubst %/board.toml,%,$(wildcard boards/*/board.toml)))
BOARD_PY := scripts/board.py

# the service processor's firmware goes into the ECP5 bitstream (built here):
# the image serving host messages (no NI on that board: docs/firmware.md);
# the vendor builds read kolo_fw_rv32 when it is there (their tool is checked first)
BOARD_FW := $(if $(wildcard mk/fw_rv32.mk),$(BUILD)/fw/rv32/kolo_fw_rv32_hmsg.imem.hex)

.PHONY: bitstream flash boards cores test-fusesoc-cores
cores:
	@python3 scripts/gen_cores.py write
test-fusesoc-cores: | $(DEPS_STAMP)
	@scripts/test_fusesoc_cores.sh
TESTS += fusesoc-cores
define board_required
	@if [ -z "$(BOARD)" ]; then echo "make $(1): name a board: make $(1) BOARD=<board>, one of: $(BOARDS)" >&2; exit 2; fi
endef
bitstream: $(if $(filter ecp5-evn,$(BOARD)),$(BOARD_FW)) | $(DEPS_STAMP)
	$(call board_required,bitstream)
	@$(BOARD_PY) bitstream $(BOARD)
flash: | $(DEPS_STAMP)
	$(call board_required,flash)
	@$(BOARD_PY) flash $(BOARD) $(if $(SPI),--spi)
boards:
	@$(BOARD_PY) list

# the board tops wrap kolo_chip: their checks run once it is in rtl/chip
ifneq ($(wildcard rtl/chip/kolo_chip.v),)
.PHONY: test-boards
test-boards: | $(DEPS_STAMP)
	@scripts/test_boards.py
TESTS += boards

# $(call board_bench,<board>): Yosys synthesis of the whole top (cached per source hash)
define board_bench
.PHONY: bench-board_$(subst -,_,$(1))
bench-board_$(subst -,_,$(1)): | $$(DEPS_STAMP)
	@$$(BOARD_PY) synth $(1) --bench
BENCHES += board_$(subst -,_,$(1))
endef
$(foreach b,kc705 vcu118 cyclonev-gt,$(eval $(call board_bench,$(b))))

.PHONY: bench-ecp5_board
bench-ecp5_board: $(BOARD_FW) | $(DEPS_STAMP)
	@$(BOARD_PY) bitstream ecp5-evn --bench
BENCHES += ecp5_board
endif

