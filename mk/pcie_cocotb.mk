# mk/pcie_cocotb.mk - the independent check of the PCIe endpoint (issue 15,
# docs/testing.md): cocotb 1.9.2 under Icarus 11 with cocotbext-pcie's
# UltraScale and UltraScale+ block models and root complex in front of
# kolo_pcie_shim_us + kolo_pcie_ep + kolo_ni (tb/cocotb, one Icarus run each).
#
#   make test-unit-pcie-cocotb-<us|usp>-regress   (in make test; SEED=<n> replays)
#       us:  cpl_space and order, issue 15's two failures, on the UltraScale model
#       usp: basic (enumeration, registers, UR/CA, PUTs, MSI), order and put_order
#            (completions out of SQ order) on UltraScale+
#   make test-unit-pcie-cocotb-<us|usp>-matrix   (in make test) dma over 12 MPS/MRRS
#       pairs each, in seeded order with seeded back-pressure: us the pairs whose
#       codes have an even sum, usp the odd ones, so every make test runs all 24
#   make test-unit-pcie-cocotb-bites   cpl_space with the core told of a buffer far
#       larger than the model's (the core before issue 15): must fail
#   make test-unit-pcie-cocotb-long   the matrix runs, dma over all 24 pairs on both
#       models, and the bite
PCIE_COCOTB_BUILD := $(BUILD)/pcie_cocotb

# $(call pcie_cocotb_test,<name>,<usp 0|1>,<tests, space-separated>,<seed>,<VAR=value ...>)
define pcie_cocotb_test
.PHONY: test-unit-pcie-cocotb-$(1)
test-unit-pcie-cocotb-$(1): | $(DEPS_STAMP)
	@scripts/pcie_cocotb.sh $(PCIE_COCOTB_BUILD)/$(1) $(2) "$(3)" $$(or $$(SEED),$(4)) $(5)
endef

$(eval $(call pcie_cocotb_test,us-regress,0,cpl_space order,301,))
$(eval $(call pcie_cocotb_test,us-matrix,0,dma,302,KOLO_PAIRS=12 KOLO_PAIR_SET=even))
$(eval $(call pcie_cocotb_test,usp-regress,1,basic order put_order,303,))
$(eval $(call pcie_cocotb_test,usp-matrix,1,dma,304,KOLO_PAIRS=12 KOLO_PAIR_SET=odd))
$(eval $(call pcie_cocotb_test,us-long,0,dma,305,KOLO_PAIRS=24))
$(eval $(call pcie_cocotb_test,usp-long,1,dma,306,KOLO_PAIRS=24))
TESTS += unit-pcie-cocotb-us-regress unit-pcie-cocotb-usp-regress unit-pcie-cocotb-us-matrix unit-pcie-cocotb-usp-matrix

.PHONY: test-unit-pcie-cocotb-bites
test-unit-pcie-cocotb-bites: | $(DEPS_STAMP)
	@mkdir -p $(PCIE_COCOTB_BUILD); if scripts/pcie_cocotb.sh $(PCIE_COCOTB_BUILD)/us-bite-nolimit 0 cpl_space $(or $(SEED),301) KOLO_BITE=nolimit \
	    > $(PCIE_COCOTB_BUILD)/bite.log 2>&1; then \
	    echo "FAIL: cpl_space passed with the core told of an unlimited buffer: the check does not bite"; exit 1; \
	else grep -E "dropped|FAIL" $(PCIE_COCOTB_BUILD)/bite.log | head -n 3; echo "ok: cpl_space fails without credit accounting"; fi

.PHONY: test-unit-pcie-cocotb-long
test-unit-pcie-cocotb-long: test-unit-pcie-cocotb-us-matrix test-unit-pcie-cocotb-usp-matrix \
    test-unit-pcie-cocotb-us-long test-unit-pcie-cocotb-usp-long test-unit-pcie-cocotb-bites
