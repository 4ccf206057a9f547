# mk/ecp5.mk - post-route timing on the ECP5 (LFE5UM5G-85F-8, CABGA381), out
# of context: Yosys synth_ecp5 + nextpnr-ecp5 through scripts/ecp5_flow.py
# (docs/timing.md). Slow (the router takes tens of minutes), so never in
# `make test`; results are cached per source hash in build/ecp5/cache.
#
#   make bench-ecp5            every unit below (also part of `make bench`)
#   make bench-ecp5_<unit>     one unit: BENCH fmax_ecp5_<unit> / lut4_ / ff_ / ebr_
#   make test-ecp5-flow        the flow itself on a tiny design (seconds, in `make test`)
#
# Results: build/ecp5/<unit>/result.json and critical_path.txt.

ECP5_FLOW := scripts/ecp5_flow.py
ECP5_UNITS :=

# $(call ecp5_unit,<unit>,<top module>,<more ecp5_flow.py options>)
define ecp5_unit
.PHONY: bench-ecp5_$(1)
bench-ecp5_$(1): | $$(DEPS_STAMP)
	@$$(ECP5_FLOW) --name $(1) --top $(2) --bench $(3)
BENCHES += ecp5_$(1)
ECP5_UNITS += $(1)
endef

# core clocks at the 250 MHz the docs assume; lanes at 156.25 MHz (10.3125 Gb/s)
$(eval $(call ecp5_unit,router,kolo_router))
$(eval $(call ecp5_unit,link,kolo_link,--clock clk=250 --clock tx_lane_clk=156.25 \
    --clock rx_lane_clk=156.25 --port-clock tx_lane_rst=tx_lane_clk --port-clock tx_lane_data=tx_lane_clk \
    --port-clock rx_lane_rst=rx_lane_clk --port-clock rx_lane_data=rx_lane_clk \
    --port-clock rx_lane_slip=rx_lane_clk))
$(eval $(call ecp5_unit,link_core,kolo_link_core))
$(eval $(call ecp5_unit,pcie_ep,kolo_pcie_ep))
$(eval $(call ecp5_unit,ni,kolo_ni))
$(eval $(call ecp5_unit,svc,kolo_svc))
# the chip, once rtl/chip has it (its clocks other than clk: ECP5_CHIP_OPTS)
ECP5_CHIP_OPTS ?=
ifneq ($(wildcard rtl/chip/kolo_chip.v),)
$(eval $(call ecp5_unit,chip,kolo_chip,$(ECP5_CHIP_OPTS)))
endif

.PHONY: bench-ecp5
bench-ecp5: $(addprefix bench-ecp5_,$(ECP5_UNITS))

# the flow on a tiny two-clock design: exact FF count, both clocks timed,
# cache hit, cache key follows parameters and sources (scripts/test_ecp5_flow.sh)
.PHONY: test-ecp5-flow
test-ecp5-flow: | $(DEPS_STAMP)
	@scripts/test_ecp5_flow.sh
TESTS += ecp5-flow
