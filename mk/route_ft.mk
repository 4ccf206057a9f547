# mk/route_ft.mk - routing around faults (sw/route/kolo_route.c, routing.md
# "Routing around faults"):
#   test-c-route-ft       unit cases and controls under ASan/UBSan, then 2000
#                         random fault sets on 4x4x4 and 100 on 8x8x8 (-O2)
#   test-c-route-ft-long  10000 on 4x4x4 and 2000 on 8x8x8 (minutes)
#   bench-fw_table_build_ms_8x8x8   one node's table after a fault, native -O2
RFT_BUILD := $(BUILD)/sw
$(RFT_BUILD)/test_route_ft_san: sw/tests/test_route_ft.c $(SW_ROUTE_SRC) $(SW_ROUTE_H) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) $(SW_TEST_CFLAGS) $< $(SW_ROUTE_SRC) -o $@
$(RFT_BUILD)/test_route_ft: sw/tests/test_route_ft.c $(SW_ROUTE_SRC) $(SW_ROUTE_H) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) $(SW_HOST_CFLAGS) $< $(SW_ROUTE_SRC) -o $@
$(RFT_BUILD)/bench_route_ft: sw/tests/bench_route_ft.c $(SW_ROUTE_SRC) $(SW_ROUTE_H) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) $(SW_HOST_CFLAGS) $< $(SW_ROUTE_SRC) -o $@

.PHONY: test-c-route-ft bench-fw_table_build_ms_8x8x8
test-c-route-ft: $(RFT_BUILD)/test_route_ft_san $(RFT_BUILD)/test_route_ft
	$(SW_SEED_ENV) $(RFT_BUILD)/test_route_ft_san --sets4=50 --sets8=4
	$(SW_SEED_ENV) $(RFT_BUILD)/test_route_ft --sets4=2000 --sets8=100
TESTS += c-route-ft
bench-fw_table_build_ms_8x8x8: $(RFT_BUILD)/bench_route_ft
	$<
BENCHES += fw_table_build_ms_8x8x8
# thousands of fault sets on both sizes (minutes; not in make test: run before
# a release or after a change to the fault router)
.PHONY: test-c-route-ft-long
test-c-route-ft-long: $(RFT_BUILD)/test_route_ft
	$(SW_SEED_ENV) $(RFT_BUILD)/test_route_ft --sets4=10000 --sets8=2000
