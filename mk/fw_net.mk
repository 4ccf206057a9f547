# mk/fw_net.mk - the service block model and the firmware's fault protocol in C,
# without the simulator:
#     kolo_svc_model against docs/registers.md
#   test-fw-net-*      every node's firmware over its own service block model on
#                      an in-process MGMT network: boot, link/node failures,
#                      flapping, partition, random fault sets; each node must
#                      install its row of kolo_tableset_faults for the true set
#   (4x4x4 runs the -O2 build: 64 firmware instances each compute whole table sets)
#   test-fw-net-control  negative control: a fault the far end never hears of
#                      must leave the nodes disagreeing (the test must fail)
FW_NET_BUILD := $(BUILD)/fw
FW_ROUTE_SRCS = $(wildcard sw/route/*.c)
FW_CORE_SRCS := fw/kolo_fw.c
FW_CORE_H := fw/kolo_fw.h fw/kolo_hal.h sw/include/kolo_svc_regs.h sw/include/kolo_route.h sw/include/kolo_fw_msg.h

$(FW_NET_BUILD)/test_fw_net: fw/tests/test_fw_net.c $(FW_CORE_SRCS) $(FW_CORE_H) $(SVC_MODEL_SRCS) $(SVC_MODEL_H) $(FW_ROUTE_SRCS) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) $(SW_TEST_CFLAGS) -Ifw $< $(FW_CORE_SRCS) $(SVC_MODEL_SRCS) $(FW_ROUTE_SRCS) -o $@

# the same, optimised, for the benchmark
$(FW_NET_BUILD)/test_fw_net_O2: fw/tests/test_fw_net.c $(FW_CORE_SRCS) $(FW_CORE_H) $(SVC_MODEL_SRCS) $(SVC_MODEL_H) $(FW_ROUTE_SRCS) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) -std=c11 -O2 $(SW_WARN) -I$(KOLO_SW_INC) -Ifw $< $(FW_CORE_SRCS) $(SVC_MODEL_SRCS) $(FW_ROUTE_SRCS) -o $@

.PHONY: test-fw-net-2x2x2 test-fw-net-3x3x3 test-fw-net-4x4x4 test-fw-net-control
test-fw-net-2x2x2: $(FW_NET_BUILD)/test_fw_net
	$(SW_SEED_ENV) $< --dims=2x2x2 --random=30
test-fw-net-3x3x3: $(FW_NET_BUILD)/test_fw_net
	$(SW_SEED_ENV) $< --dims=3x3x3 --random=20
test-fw-net-4x4x4: $(FW_NET_BUILD)/test_fw_net_O2
	$(SW_SEED_ENV) $< --dims=4x4x4 --random=8
test-fw-net-control: $(FW_NET_BUILD)/test_fw_net
	@if $< --dims=3x3x3 --control; then echo "FAIL: the control case passed: the checks see nothing"; exit 1; \
	else echo "control case failed as it must"; fi
TESTS += fw-net-2x2x2 fw-net-3x3x3 fw-net-4x4x4 fw-net-control

# recovery time on the in-process network (40 cycles per MGMT hop); kolo-sim's
# fault_recovery_cycles measures it end to end
.PHONY: bench-fault_recovery_cycles_fwnet
bench-fault_recovery_cycles_fwnet: $(FW_NET_BUILD)/test_fw_net_O2
	$< --dims=4x4x4 --random=0 --bench | grep BENCH
BENCHES += fault_recovery_cycles_fwnet

# host messages (docs/firmware.md "Host messages"): every node's firmware over its
# service block model, each node's host with libkolo's calls (sw/lib/kolo_hmsg.c)
# through the model's host port; ASan+UBSan. The plant (the network loses every
# second host message) must fail.
$(FW_NET_BUILD)/test_fw_hmsg: fw/tests/test_fw_hmsg.c $(FW_CORE_SRCS) $(FW_CORE_H) sw/include/kolo_fw_msg.h \
    sw/include/kolo_hmsg.h sw/lib/kolo_hmsg.c sw/lib/kolo_uart.c $(SVC_MODEL_SRCS) $(SVC_MODEL_H) $(FW_ROUTE_SRCS) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) $(SW_TEST_CFLAGS) -Ifw $< $(FW_CORE_SRCS) sw/lib/kolo_hmsg.c sw/lib/kolo_uart.c $(SVC_MODEL_SRCS) \
	    $(FW_ROUTE_SRCS) -o $@
.PHONY: test-fw-hmsg test-fw-hmsg-plant
test-fw-hmsg: $(FW_NET_BUILD)/test_fw_hmsg
	$(SW_SEED_ENV) $<
test-fw-hmsg-plant: $(FW_NET_BUILD)/test_fw_hmsg
	@if $< --plant=drop2 > $(FW_NET_BUILD)/test_fw_hmsg_plant.log 2>&1; then \
	    echo "FAIL: plant drop2 (every second host message lost) was not caught"; exit 1; \
	else echo "plant drop2 caught: $$(grep -m1 FAIL: $(FW_NET_BUILD)/test_fw_hmsg_plant.log)"; fi
TESTS += fw-hmsg fw-hmsg-plant
