# mk/pcie_ep.mk - unit tests of the PCIe endpoint core kolo_pcie_ep
# (rtl/ni/kolo_pcie_*.v, docs/ni.md 6): Verilator, the harness
# tb/unit/pcie_ep/tb_pcie_ep.cpp and the root-complex model
# sw/rtlsim/kolo_pcie_rc.h, which checks every TLP the core sends.
#
#   make test-unit-pcie-ep-<name>   one test (SEED=<n> replays a seed)
#   build/pcie_ep/obj/tb_pcie_ep --test=<name> [--seed=N] [--n=N] [--bug=<b>]
#       --bug=<b> plants a deliberate error in the harness; the run must fail
#   make bench-pcie_ep_{luts,ffs,bram,lutram}_xc7
#       Yosys synth_xilinx of kolo_pcie_ep at default parameters
#   make bench-pcie_<block>_{luts,ffs,bram,logic_depth}_xc7   each block alone
#       (dma_rd, dma_wr, ep_rx, ep_tx, ep_cpl; issue 21's <= 6 LUT levels)
#   make bench-pcie_ep_dma_{rd_bw_4k,rd_bw_64,wr_bw_4k}   DMA bytes per cycle
#
# The test build uses CPL_TIMEOUT=8000 cycles (default 250000) so that the
# completion timeout test runs in seconds.

PCIE_EP_BUILD := $(BUILD)/pcie_ep
PCIE_EP_BIN := $(PCIE_EP_BUILD)/obj/tb_pcie_ep
PCIE_EP_RTL := $(wildcard rtl/ni/kolo_pcie_*.v) rtl/common/kolo_fifo_sync.v
PCIE_EP_TB := tb/unit/pcie_ep/tb_pcie_ep.cpp sw/rtlsim/kolo_pcie_rc.h tb/unit/common/tb_util.h
PCIE_EP_TIMEOUT := 8000
PCIE_EP_TAGS := 32
# the block's completion buffer the harness gives the core (UltraScale, PG156)
PCIE_EP_CPL_H := 64
PCIE_EP_CPL_D := 992
PCIE_EP_OBJCACHE := $(if $(shell command -v ccache),-MAKEFLAGS OBJCACHE=ccache)

$(PCIE_EP_BIN): $(PCIE_EP_RTL) $(PCIE_EP_TB) mk/pcie_ep.mk | $(DEPS_STAMP)
	@mkdir -p $(PCIE_EP_BUILD)
	@echo "verilator tb_pcie_ep (log: $(PCIE_EP_BUILD)/build.log)"
	@verilator $(VL_CHECKS) --cc --exe --build -O3 -Wall -j 2 --x-assign fast --x-initial fast \
	    --top-module kolo_pcie_ep -GCPL_TIMEOUT=$(PCIE_EP_TIMEOUT) -GTAGS=$(PCIE_EP_TAGS) \
	    -I$(TOP)/rtl/include -y $(TOP)/rtl/ni -y $(TOP)/rtl/common $(PCIE_EP_OBJCACHE) \
	    -CFLAGS "-O2 -std=c++17 -Wall -I$(TOP)/tb/unit/common -I$(TOP)/sw/rtlsim \
	             -DTB_CPL_TIMEOUT=$(PCIE_EP_TIMEOUT) -DTB_TAGS=$(PCIE_EP_TAGS) \
	             -DTB_CPL_H=$(PCIE_EP_CPL_H) -DTB_CPL_D=$(PCIE_EP_CPL_D)" \
	    --Mdir $(PCIE_EP_BUILD)/obj -o tb_pcie_ep \
	    $(TOP)/rtl/ni/kolo_pcie_ep.v $(TOP)/tb/unit/pcie_ep/tb_pcie_ep.cpp \
	    > $(PCIE_EP_BUILD)/build.log 2>&1 || { tail -n 40 $(PCIE_EP_BUILD)/build.log; exit 1; }
	@touch $@  # verilator does not relink an unchanged model

.PHONY: tb-pcie-ep
tb-pcie-ep: $(PCIE_EP_BIN)

# $(call pcie_ep_test,<name>,<seed>,<options>)
define pcie_ep_test
.PHONY: test-unit-pcie-ep-$(1)
test-unit-pcie-ep-$(1): $(PCIE_EP_BIN) | $(DEPS_STAMP)
	$$< --test=$(1) --seed=$$(or $$(SEED),$(2)) $(3)
TESTS += unit-pcie-ep-$(1)
endef

$(eval $(call pcie_ep_test,mmio,101,))
$(eval $(call pcie_ep_test,ur,102,))
$(eval $(call pcie_ep_test,dma-rd,103,))
$(eval $(call pcie_ep_test,dma-rd-many,104,))
$(eval $(call pcie_ep_test,dma-wr,105,))
$(eval $(call pcie_ep_test,dma-err,106,))
$(eval $(call pcie_ep_test,msi,107,))
$(eval $(call pcie_ep_test,mixed,108,))
$(eval $(call pcie_ep_test,cpl-space,110,))

# Negative control: the harness with a deliberate error in one check each
# (--bug=...) must fail, so the checks are known to bite.
PCIE_EP_BUGS := mmio:chunk-strb mmio:rd-data mmio:rd-order ur:ur-status dma-rd:dma-data dma-err:dma-err msi:msi \
    cpl-space:cpl-space
.PHONY: test-unit-pcie-ep-bites
test-unit-pcie-ep-bites: $(PCIE_EP_BIN) | $(DEPS_STAMP)
	@for tb in $(PCIE_EP_BUGS); do \
	    t=$${tb%%:*}; b=$${tb##*:}; n=300; [ $$t = ur ] && n=3; [ $$t = cpl-space ] && n=60; \
	    $< --test=$$t --bug=$$b --n=$$n --seed=$(or $(SEED),109) > /dev/null 2>&1; rc=$$?; \
	    if [ $$rc -ne 1 ]; then echo "FAIL: --test=$$t --bug=$$b exit status $$rc, not 1: that check does not bite"; exit 1; \
	    else echo "ok: --test=$$t --bug=$$b fails as it must"; fi; \
	done
TESTS += unit-pcie-ep-bites

# ---- synthesis estimate (Yosys synth_xilinx, default parameters) -------------------
PCIE_EP_SYNTH := $(BUILD)/synth/pcie_ep_xc7.stat
$(PCIE_EP_SYNTH): $(PCIE_EP_RTL) scripts/synth.sh | $(DEPS_STAMP)
	@scripts/synth.sh run xc7 $(BUILD)/synth pcie_ep
PCIE_EP_BENCH := pcie_ep_luts_xc7 pcie_ep_ffs_xc7 pcie_ep_bram_xc7 pcie_ep_lutram_xc7 pcie_ep_logic_depth_xc7
.PHONY: $(addprefix bench-,$(PCIE_EP_BENCH))
bench-pcie_ep_luts_xc7: $(PCIE_EP_SYNTH)
	@awk '$$1 ~ /^LUT[1-6]$$/ {n += $$2} END {print "BENCH pcie_ep_luts_xc7", n + 0, "LUTs"}' $<
bench-pcie_ep_ffs_xc7: $(PCIE_EP_SYNTH)
	@awk '$$1 ~ /^FD[RSCP]E$$/ {n += $$2} END {print "BENCH pcie_ep_ffs_xc7", n + 0, "FFs"}' $<
bench-pcie_ep_bram_xc7: $(PCIE_EP_SYNTH)
	@awk '$$1 == "RAMB36E1" {n += $$2} $$1 == "RAMB18E1" {n += $$2 / 2} END {print "BENCH pcie_ep_bram_xc7", n + 0, "RAMB36"}' $<
# LUTs used as memory, counted as scripts/synth.sh counts them for the router
bench-pcie_ep_lutram_xc7: $(PCIE_EP_SYNTH)
	@awk '$$1 ~ /^(RAM(32|64)X1S|SRL16E|SRLC32E)$$/ {n += $$2} $$1 ~ /^(RAM(32|64)X1D|RAM128X1S)$$/ {n += 2 * $$2} \
	     $$1 ~ /^(RAM(32|64)M|RAM128X1D|RAM256X1S)$$/ {n += 4 * $$2} END {print "BENCH pcie_ep_lutram_xc7", n + 0, "LUTs"}' $<
# LUT levels on the path with the latest arrival that Yosys' sta finds (as
# router_logic_depth_xc7 in scripts/synth.sh)
bench-pcie_ep_logic_depth_xc7: $(PCIE_EP_SYNTH)
	@echo "BENCH pcie_ep_logic_depth_xc7 $$(sed -n '/^Latest arrival/,/^$$/p' $(BUILD)/synth/pcie_ep_xc7.sta | \
	    grep -cE '\((LUT[1-6]|RAM[0-9]+[MX][0-9SD]*)\.[A-Z0-9]+->') LUT_levels"
BENCHES += $(PCIE_EP_BENCH)
# and of each block of the core alone (issue 21: every block at <= 6 LUT levels, docs/ni.md 6;
# seconds to a minute each): bench-pcie_<block>_{luts,ffs,bram,logic_depth}_xc7
PCIE_EP_BLOCKS := pcie_dma_rd pcie_dma_wr pcie_ep_rx pcie_ep_tx pcie_ep_cpl
$(foreach b,$(PCIE_EP_BLOCKS),$(eval $(call synth_unit,$(b),$$(PCIE_EP_RTL))))

# DMA throughput in simulation (bytes per cycle at the user side, no
# backpressure, completion latency 100..200 cycles, MPS 256, MRRS 512)
.PHONY: bench-pcie_ep_dma_rd_bw_4k bench-pcie_ep_dma_rd_bw_64 bench-pcie_ep_dma_wr_bw_4k
bench-pcie_ep_dma_rd_bw_4k: $(PCIE_EP_BIN)
	@$< --test=bw-rd --seed=1
bench-pcie_ep_dma_rd_bw_64: $(PCIE_EP_BIN)
	@$< --test=bw-rd-small --seed=1
bench-pcie_ep_dma_wr_bw_4k: $(PCIE_EP_BIN)
	@$< --test=bw-wr --seed=1
BENCHES += pcie_ep_dma_rd_bw_4k pcie_ep_dma_rd_bw_64 pcie_ep_dma_wr_bw_4k

# DMA read bandwidth and latency under the completion-credit limit (issue
# 15): Gen2 x8 (32 headers / 8 KiB, 50% of the core's rate) and Gen3 x16
# (PG213: 128 headers / 32 KiB, full rate), the completer splitting at every
# 64-byte RCB or in 256-byte pieces, and no limit for comparison
PCIE_CPL_BENCH := gen2x8-rcb64 gen2x8-mps256 gen3x16-rcb64 gen3x16-mps256 nolimit
.PHONY: $(addprefix bench-pcie_cpl_,$(PCIE_CPL_BENCH))
$(addprefix bench-pcie_cpl_,$(PCIE_CPL_BENCH)): bench-pcie_cpl_%: $(PCIE_EP_BIN)
	@$< --test=bw-cpl-$* --seed=1
BENCHES += $(addprefix pcie_cpl_,$(PCIE_CPL_BENCH))
