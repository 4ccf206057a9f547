# mk/synth.mk - Yosys synthesis: router resource benchmarks, cell check.
# See scripts/synth.sh.
#
#   make test-synth-cells           synth_xilinx of each rtl/common cell (in `make test`)
#   make test-router-nomul          kolo_router has no multiplier (in `make test`)
#   make bench-router_<what>_<fam>  one resource number of kolo_router at default parameters
#
# The router is synthesized once per family (minutes, several GB of memory) into
# build/synth/router_<fam>.{log,stat,sta,time}; the benchmarks only read those.

SYNTH_DIR := $(BUILD)/synth
SYNTH_RTL := $(shell find rtl -name '*.v' -not -path 'rtl/platform/*') $(wildcard rtl/include/*.vh)
SYNTH_BENCH_XC7 := router_luts_xc7 router_ffs_xc7 router_bram_xc7 router_lutram_xc7 \
                   router_logic_depth_xc7
SYNTH_BENCH_CYCLONEV := router_alms_cyclonev

$(SYNTH_DIR)/router_%.stat: $(SYNTH_RTL) scripts/synth.sh | $(DEPS_STAMP)
	@scripts/synth.sh run $* $(SYNTH_DIR)
# $(call synth_unit,<unit>[,<rtl files>]): synth_xilinx of kolo_<unit> at default parameters
# once, and its benchmarks bench-<unit>_luts_xc7, _ffs_xc7, _bram_xc7, _logic_depth_xc7
# (default files: all RTL)
define synth_unit
$$(SYNTH_DIR)/$(1)_xc7.stat: $(or $(2),$$(SYNTH_RTL)) scripts/synth.sh | $$(DEPS_STAMP)
	@scripts/synth.sh run xc7 $$(SYNTH_DIR) $(1)
.PHONY: bench-$(1)_luts_xc7 bench-$(1)_ffs_xc7 bench-$(1)_bram_xc7 bench-$(1)_logic_depth_xc7
bench-$(1)_luts_xc7 bench-$(1)_ffs_xc7 bench-$(1)_bram_xc7 bench-$(1)_logic_depth_xc7: bench-%: $$(SYNTH_DIR)/$(1)_xc7.stat
	@scripts/synth.sh bench $$* $$(SYNTH_DIR)
BENCHES += $(1)_luts_xc7 $(1)_ffs_xc7 $(1)_bram_xc7 $(1)_logic_depth_xc7
endef
# one end of a link (kolo_link: core + PHY, 1 lane, default parameters)
$(eval $(call synth_unit,link))

.PHONY: $(addprefix bench-,$(SYNTH_BENCH_XC7) $(SYNTH_BENCH_CYCLONEV)) test-synth-cells
$(addprefix bench-,$(SYNTH_BENCH_XC7)): bench-%: $(SYNTH_DIR)/router_xc7.stat
	@scripts/synth.sh bench $* $(SYNTH_DIR)
$(addprefix bench-,$(SYNTH_BENCH_CYCLONEV)): bench-%: $(SYNTH_DIR)/router_cyclonev.stat
	@scripts/synth.sh bench $* $(SYNTH_DIR)
BENCHES += $(SYNTH_BENCH_XC7) $(SYNTH_BENCH_CYCLONEV)

test-synth-cells: $(DEPS_STAMP)
	@scripts/synth.sh cells
TESTS += synth-cells

# kolo_router elaborates without a multiplier (a planted one is caught; seconds)
.PHONY: test-router-nomul
test-router-nomul: $(DEPS_STAMP)
	@scripts/synth.sh nomul
TESTS += router-nomul
