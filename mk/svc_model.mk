# mk/svc_model.mk - test-c-svc-model: the service block model (sw/model/kolo_svc_model.c)
# against docs/registers.md, under ASan/UBSan.
SVC_MODEL_SRCS := sw/model/kolo_svc_model.c
SVC_MODEL_H := sw/include/kolo_svc_model.h sw/include/kolo_svc_regs.h
SVC_ROUTE_SRCS = $(wildcard sw/route/*.c)

$(BUILD)/fw/test_svc_model: sw/tests/test_svc_model.c $(SVC_MODEL_SRCS) $(SVC_MODEL_H) $(SVC_ROUTE_SRCS) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) $(SW_TEST_CFLAGS) $< $(SVC_MODEL_SRCS) $(SVC_ROUTE_SRCS) -o $@

.PHONY: test-c-svc-model
test-c-svc-model: $(BUILD)/fw/test_svc_model
	$<
TESTS += c-svc-model
