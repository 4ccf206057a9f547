# mk/synth_chip.mk - the whole chip in Yosys: synth_xilinx of kolo_chip at default
# parameters (6 ports x 1 lane, kolo_sp inside with the RISC-V firmware image in its RAMs: an
# IMEM nothing writes and nothing loads would be folded away), as chip_xc7.*
#
#   make bench-chip_luts_xc7 bench-chip_ffs_xc7 bench-chip_bram_xc7 bench-chip_logic_depth_xc7
#   make bench-chip_lut_share_xc7k325t    LUTs as a share of the XC7K325T's 203,800 (KC705)
#
# In a file of its own: it needs FW_RV32_BUILD (mk/fw_rv32.mk), which mk/chip.mk is read before.

SYNTH_CHIP_FILES := $(sort $(wildcard $(addprefix rtl/,$(addsuffix /*.v,chip common link ni node svc router cpu))))
$(SYNTH_DIR)/chip_xc7.stat: $(SYNTH_CHIP_FILES) $(wildcard rtl/include/*.vh) scripts/synth.sh \
    $(FW_RV32_BUILD)/kolo_fw_rv32.imem.hex | $(DEPS_STAMP)
	@SYNTH_FILES="$(SYNTH_CHIP_FILES)" \
	    SYNTH_PRE='chparam -set SP_IMEM_INIT "$(abspath $(FW_RV32_BUILD)/kolo_fw_rv32.imem.hex)" -set SP_DMEM_INIT "$(abspath $(FW_RV32_BUILD)/kolo_fw_rv32.dmem.hex)" kolo_chip' \
	    scripts/synth.sh run xc7 $(SYNTH_DIR) chip
.PHONY: bench-chip_luts_xc7 bench-chip_ffs_xc7 bench-chip_bram_xc7 bench-chip_logic_depth_xc7 \
    bench-chip_lut_share_xc7k325t
bench-chip_luts_xc7 bench-chip_ffs_xc7 bench-chip_bram_xc7 bench-chip_logic_depth_xc7: bench-%: $(SYNTH_DIR)/chip_xc7.stat
	@scripts/synth.sh bench $* $(SYNTH_DIR)
# the issue's limit: at most 60% of the KC705's XC7K325T LUTs (203,800)
bench-chip_lut_share_xc7k325t: $(SYNTH_DIR)/chip_xc7.stat
	@echo "BENCH chip_lut_share_xc7k325t $$(awk '$$1 ~ /^LUT[1-6]$$/ {n += $$2} END {printf "%.1f", 100 * n / 203800}' $<) %"
BENCHES += chip_luts_xc7 chip_ffs_xc7 chip_bram_xc7 chip_logic_depth_xc7 chip_lut_share_xc7k325t
