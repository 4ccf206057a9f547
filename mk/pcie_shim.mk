# mk/pcie_shim.mk - unit tests of the vendor PCIe shims (docs/pcie-shims.md):
# each shim (rtl/platform/xilinx/kolo_pcie_shim_{x7,us}.v, rtl/platform/intel/
# kolo_pcie_shim_avst.v, with rtl/platform/common/kolo_pcie_shim_{rx,tx}.v)
# in front of kolo_pcie_ep, the vendor block played by a C++ model of its
# streams over the root-complex model sw/rtlsim/kolo_pcie_rc.h.
#
#   make test-unit-pcie-shim-<shim>   traffic with gaps and back-pressure, then
#                                     the same at full rate (SEED=<n> replays)
#   build/pcie_shim/<shim>/tb_pcie_shim_<shim> --test=traffic|fast [--seed=N] [--n=N] [--bug=<b>]
#   make test-unit-pcie-shim-bites    the vendor models with a deliberate error
#                                     each (--bug=...) must fail
#   make bench-pcie_shim_<shim>_{luts,ffs}_xc7   Yosys synth_xilinx of the shim alone

PCIE_SHIM_BUILD := $(BUILD)/pcie_shim
PCIE_SHIM_NAMES := x7 avst us
PCIE_SHIM_RTL := $(wildcard rtl/platform/common/kolo_pcie_shim_*.v) rtl/platform/xilinx/kolo_pcie_shim_x7.v \
    rtl/platform/xilinx/kolo_pcie_shim_us.v rtl/platform/intel/kolo_pcie_shim_avst.v \
    $(wildcard rtl/ni/kolo_pcie_*.v) rtl/common/kolo_fifo_sync.v
PCIE_SHIM_TB := tb/unit/pcie_shim/tb_pcie_shim.cpp sw/rtlsim/kolo_pcie_rc.h tb/unit/common/tb_util.h \
    tb/common/kolo_x7_stream_model.h
PCIE_SHIM_TIMEOUT := 8000
PCIE_SHIM_TAGS := 32
PCIE_SHIM_OBJCACHE := $(if $(shell command -v ccache),-MAKEFLAGS OBJCACHE=ccache)
PCIE_SHIM_DEFINE_x7 := KOLO_SHIM_X7
PCIE_SHIM_DEFINE_avst := KOLO_SHIM_AVST
PCIE_SHIM_DEFINE_us := KOLO_SHIM_US
# the block's completion buffer (headers, 16-byte data credits): the x7 and us
# shims' parameter defaults; the avst model reports it on ko_cpl_spc_*
PCIE_SHIM_CPL_x7 := -DTB_CPL_H=32 -DTB_CPL_D=512 -DTB_NP_SLACK=4
PCIE_SHIM_CPL_avst := -DTB_CPL_H=48 -DTB_CPL_D=768 -DTB_NP_SLACK=10
PCIE_SHIM_CPL_us := -DTB_CPL_H=64 -DTB_CPL_D=992

# $(call pcie_shim_bin,<shim>)
pcie_shim_bin = $(PCIE_SHIM_BUILD)/$(1)/tb_pcie_shim_$(1)

# $(call pcie_shim_build,<shim>,<build dir>,<extra verilator options>)
define pcie_shim_build
$(PCIE_SHIM_BUILD)/$(2)/tb_pcie_shim_$(1): $(PCIE_SHIM_RTL) $(PCIE_SHIM_TB) tb/unit/pcie_shim/tb_pcie_shim_$(1)_top.v mk/pcie_shim.mk | $(DEPS_STAMP)
	@mkdir -p $(PCIE_SHIM_BUILD)/$(2)
	@echo "verilator tb_pcie_shim_$(1) (log: $(PCIE_SHIM_BUILD)/$(2)/build.log)"
	@verilator $(VL_CHECKS) --cc --exe --build -O3 -Wall -j 2 --x-assign fast --x-initial fast \
	    --top-module tb_pcie_shim_$(1)_top -GCPL_TIMEOUT=$(PCIE_SHIM_TIMEOUT) -GTAGS=$(PCIE_SHIM_TAGS) $(3) \
	    -I$(TOP)/rtl/include -y $(TOP)/rtl/ni -y $(TOP)/rtl/common -y $(TOP)/rtl/platform/common \
	    -y $(TOP)/rtl/platform/xilinx -y $(TOP)/rtl/platform/intel $(PCIE_SHIM_OBJCACHE) \
	    -CFLAGS "-O2 -std=c++17 -Wall -Wextra -Werror -I$(TOP)/tb/unit/common -I$(TOP)/tb/common -I$(TOP)/sw/rtlsim \
	             -D$(PCIE_SHIM_DEFINE_$(1)) -DTB_CPL_TIMEOUT=$(PCIE_SHIM_TIMEOUT) -DTB_TAGS=$(PCIE_SHIM_TAGS) \
	             $(PCIE_SHIM_CPL_$(1))" \
	    --Mdir $(PCIE_SHIM_BUILD)/$(2)/obj -o ../tb_pcie_shim_$(1) \
	    $(TOP)/tb/unit/pcie_shim/tb_pcie_shim_$(1)_top.v $(TOP)/tb/unit/pcie_shim/tb_pcie_shim.cpp \
	    > $(PCIE_SHIM_BUILD)/$(2)/build.log 2>&1 || { tail -n 40 $(PCIE_SHIM_BUILD)/$(2)/build.log; exit 1; }
	@touch $$@  # verilator does not relink an unchanged model
endef

define pcie_shim_rules
$(call pcie_shim_build,$(1),$(1),)

.PHONY: test-unit-pcie-shim-$(1)
test-unit-pcie-shim-$(1): $(call pcie_shim_bin,$(1)) | $(DEPS_STAMP)
	$$< --test=traffic --seed=$$(or $$(SEED),$(2))
	$$< --test=fast --seed=$$(or $$(SEED),$(3))
TESTS += unit-pcie-shim-$(1)
endef

$(eval $(call pcie_shim_rules,x7,201,202))
$(eval $(call pcie_shim_rules,avst,203,204))
$(eval $(call pcie_shim_rules,us,206,207))
# the UltraScale shim with its planted bug: no sequence-number window
$(eval $(call pcie_shim_build,us,us-bug,-GBUG_NO_SEQ_THROTTLE=1))

# Negative control: each vendor model lies in one place; the run must fail
# (exit status 1), so the checks are known to bite.
PCIE_SHIM_BUGS := x7:payload-order x7:bar-hit x7:msi-vector avst:qword-pad avst:msi-vector us:bar-id us:rc-tag \
    us:msi-vector us:seq-early
.PHONY: test-unit-pcie-shim-bites
test-unit-pcie-shim-bites: $(foreach s,$(PCIE_SHIM_NAMES),$(call pcie_shim_bin,$(s))) \
    $(PCIE_SHIM_BUILD)/us-bug/tb_pcie_shim_us | $(DEPS_STAMP)
	@for sb in $(PCIE_SHIM_BUGS); do \
	    s=$${sb%%:*}; b=$${sb##*:}; \
	    $(PCIE_SHIM_BUILD)/$$s/tb_pcie_shim_$$s --test=traffic --bug=$$b --n=600 --seed=$(or $(SEED),205) > /dev/null 2>&1; rc=$$?; \
	    if [ $$rc -ne 1 ]; then echo "FAIL: $$s --bug=$$b exit status $$rc, not 1: that check does not bite"; exit 1; \
	    else echo "ok: $$s --bug=$$b fails as it must"; fi; \
	done
	@# the shim without its 16-request window (BUG_NO_SEQ_THROTTLE): the model's check
	@# and the shim's guard must both fire
	@$(PCIE_SHIM_BUILD)/us-bug/tb_pcie_shim_us --test=fast --n=1500 --seed=$(or $(SEED),207) \
	    > $(PCIE_SHIM_BUILD)/us-bug/run.log 2>&1; rc=$$?; \
	if [ $$rc -ne 0 ] && grep -q "unreported (4-bit numbers: at most 16)" $(PCIE_SHIM_BUILD)/us-bug/run.log \
	    && grep -q "kolo_pcie_shim_us.v" $(PCIE_SHIM_BUILD)/us-bug/run.log; then \
	    echo "ok: us without the sequence-number window fails as it must (model check and guard)"; \
	else echo "FAIL: us without the sequence-number window: exit status $$rc, see $(PCIE_SHIM_BUILD)/us-bug/run.log"; \
	    exit 1; fi
TESTS += unit-pcie-shim-bites

# ---- synthesis estimate of each shim alone (Yosys synth_xilinx, default parameters) ----
PCIE_SHIM_SYNTH_FILES := $(wildcard rtl/platform/common/kolo_pcie_shim_*.v) rtl/common/kolo_fifo_sync.v
define pcie_shim_synth
$(BUILD)/synth/pcie_shim_$(1)_xc7.stat: $(PCIE_SHIM_SYNTH_FILES) $(2) mk/pcie_shim.mk | $(DEPS_STAMP)
	@mkdir -p $(BUILD)/synth
	@yosys -q -l $(BUILD)/synth/pcie_shim_$(1)_xc7.log -p "read_verilog -sv $(PCIE_SHIM_SYNTH_FILES) $(2); \
	    synth_xilinx -family xc7 -top kolo_pcie_shim_$(1) -flatten -noiopad -noclkbuf; \
	    tee -q -o $$@ stat" > /dev/null || { rm -f $$@; tail -n 20 $(BUILD)/synth/pcie_shim_$(1)_xc7.log; exit 1; }
.PHONY: bench-pcie_shim_$(1)_luts_xc7 bench-pcie_shim_$(1)_ffs_xc7
bench-pcie_shim_$(1)_luts_xc7: $(BUILD)/synth/pcie_shim_$(1)_xc7.stat
	@awk '$$$$1 ~ /^LUT[1-6]$$$$/ {n += $$$$2} END {print "BENCH pcie_shim_$(1)_luts_xc7", n + 0, "LUTs"}' $$<
bench-pcie_shim_$(1)_ffs_xc7: $(BUILD)/synth/pcie_shim_$(1)_xc7.stat
	@awk '$$$$1 ~ /^FD[RSCP]E$$$$/ {n += $$$$2} END {print "BENCH pcie_shim_$(1)_ffs_xc7", n + 0, "FFs"}' $$<
BENCHES += pcie_shim_$(1)_luts_xc7 pcie_shim_$(1)_ffs_xc7
endef
$(eval $(call pcie_shim_synth,x7,rtl/platform/xilinx/kolo_pcie_shim_x7.v))
$(eval $(call pcie_shim_synth,avst,rtl/platform/intel/kolo_pcie_shim_avst.v))
$(eval $(call pcie_shim_synth,us,rtl/platform/xilinx/kolo_pcie_shim_us.v))
