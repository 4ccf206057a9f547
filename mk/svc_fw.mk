# mk/svc_fw.mk - the firmware network test (fw/tests/test_fw_net.c, as mk/fw_net.mk)
# with every node's service block the Verilated RTL (rtl/svc/kolo_svc.v) instead of
# the C model: tb/unit/svc_fw/kolo_svc_rtl.cpp implements sw/include/kolo_svc_model.h
# over one kolo_svc instance per node. docs/firmware.md ("The firmware on the RTL
# service block") describes it.
#
#   make test-fw-net-rtl-2x2x2 test-fw-net-rtl-3x3x3   (SEED=<n> replays a seed)
#   make test-fw-net-rtl-control   a fault the far end never hears of: must fail
#   make test-fw-net-rtl-latency   3x3x3 with link changes 1, 7, 50 cycles late (SEED=<n>)
#   make test-fw-net-rtl-latency-control   the old fixed 4-cycle link settle: must fail
#   make test-fw-net-rtl-4x4x4     (not in make test: about 15 s)
#   build/svc_fw/obj/test_fw_net_rtl [--dims=XxYxZ] [--seed=N] [--random=K] [-v]

SVC_FW_BUILD := $(BUILD)/svc_fw
SVC_FW_BIN := $(SVC_FW_BUILD)/obj/test_fw_net_rtl
SVC_FW_RTL := $(wildcard rtl/svc/*.v) rtl/common/kolo_arb_rr.v rtl/include/kolo_svc_regs.vh rtl/include/kolo_defs.vh rtl/include/kolo_ni_regs.vh
# the C side: the test, the firmware and the routing library, built as C (not C++)
SVC_FW_CSRCS := fw/tests/test_fw_net.c fw/kolo_fw.c $(wildcard sw/route/*.c)
SVC_FW_COBJS := $(addprefix $(SVC_FW_BUILD)/c/,$(notdir $(SVC_FW_CSRCS:.c=.o)))
SVC_FW_H := fw/kolo_fw.h fw/kolo_hal.h sw/include/kolo_svc_model.h sw/include/kolo_svc_regs.h sw/include/kolo_fw_msg.h \
            sw/include/kolo_route.h
SVC_FW_OBJCACHE := $(if $(shell command -v ccache),-MAKEFLAGS OBJCACHE=ccache)

$(SVC_FW_BUILD)/c/%.o: $(SVC_FW_H) mk/svc_fw.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) -std=c11 -O2 $(SW_WARN) -I$(KOLO_SW_INC) -Ifw -c $(filter %/$*.c,$(SVC_FW_CSRCS)) -o $@
$(foreach s,$(SVC_FW_CSRCS),$(eval $(SVC_FW_BUILD)/c/$(notdir $(s:.c=.o)): $(s)))

$(SVC_FW_BIN): $(SVC_FW_RTL) tb/unit/svc_fw/kolo_svc_rtl.cpp $(SVC_FW_COBJS) $(SVC_FW_H) mk/svc_fw.mk | $(DEPS_STAMP)
	@mkdir -p $(SVC_FW_BUILD)
	@echo "verilator test_fw_net_rtl (log: $(SVC_FW_BUILD)/build.log)"
	@# verilator's own make does not relink when only the C objects changed
	@rm -f $@
	@scripts/verilate_retry.sh $(SVC_FW_BUILD)/build.log verilator $(VL_CHECKS) --cc --exe --build -O2 -Wall -j 2 \
	    --x-assign unique --x-initial unique \
	    --top-module kolo_svc -I$(TOP)/rtl/include -y $(TOP)/rtl/svc -y $(TOP)/rtl/common $(SVC_FW_OBJCACHE) \
	    -CFLAGS "-O2 -std=c++17 -Wall -Wextra -Werror -I$(TOP)/sw/include" \
	    --Mdir $(SVC_FW_BUILD)/obj -o test_fw_net_rtl \
	    $(TOP)/rtl/svc/kolo_svc.v $(TOP)/tb/unit/svc_fw/kolo_svc_rtl.cpp $(abspath $(SVC_FW_COBJS)) \
	    || { tail -n 40 $(SVC_FW_BUILD)/build.log; exit 1; }

.PHONY: test-fw-net-rtl-2x2x2 test-fw-net-rtl-3x3x3 test-fw-net-rtl-control
test-fw-net-rtl-2x2x2: $(SVC_FW_BIN)
	$(SW_SEED_ENV) $< --dims=2x2x2 --random=30
test-fw-net-rtl-3x3x3: $(SVC_FW_BIN)
	$(SW_SEED_ENV) $< --dims=3x3x3 --random=20
test-fw-net-rtl-control: $(SVC_FW_BIN)
	@if $< --dims=3x3x3 --control; then echo "FAIL: the control case passed: the checks see nothing"; exit 1; \
	else echo "control case failed as it must"; fi
TESTS += fw-net-rtl-2x2x2 fw-net-rtl-3x3x3 fw-net-rtl-control
# link changes reaching the blocks late (KOLO_SVC_RTL_LINK_DELAY cycles, ups and downs): the
# shim waits for the block to apply each one (LINK_STATUS/LINK_PEER through the host port),
# so any latency must pass; 3x3x3, where blocks run thousands of cycles ahead of the network
.PHONY: test-fw-net-rtl-latency test-fw-net-rtl-latency-control
test-fw-net-rtl-latency: $(SVC_FW_BIN)
	@for d in 1 7 50; do echo "link delay $$d cycles"; \
	    KOLO_SVC_RTL_LINK_DELAY=$$d $(SW_SEED_ENV) $< --dims=3x3x3 --random=20 || exit 1; done
# planted bug: the old shim's fixed 4-cycle settle after a link change; with a delay of 7 a
# change lands after the block stopped being clocked and the tables disagree: must fail
test-fw-net-rtl-latency-control: $(SVC_FW_BIN)
	@if KOLO_SVC_RTL_LINK_SETTLE=fixed KOLO_SVC_RTL_LINK_DELAY=7 $< --dims=3x3x3 --random=20; then \
	    echo "FAIL: the fixed settle passed: the latency test sees nothing"; exit 1; \
	else echo "fixed settle failed as it must"; fi
TESTS += fw-net-rtl-latency fw-net-rtl-latency-control
# 64 blocks, about 15 s: not in make test
.PHONY: test-fw-net-rtl-4x4x4
test-fw-net-rtl-4x4x4: $(SVC_FW_BIN)
	$(SW_SEED_ENV) $< --dims=4x4x4 --random=8
