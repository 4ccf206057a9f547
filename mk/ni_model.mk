# mk/ni_model.mk - C reference model of the network interface (docs/ni.md).
#
#   build/sw/libkolo_ni_model.a   the NI model (sw/model/kolo_ni_model.c); link it
#                                 before $(KOLO_SW_LIBS) (it uses libkolo_route.a)
#   make test-c-ni-model          tests (ASan + UBSan), SEED=<n> replays a seed
#   make test-c-ni-e2e-torus      end-to-end reliability on 16x16x1 with faults, and its plants
#
# For other builds (kolo-sim, testbenches): compile $(KOLO_NI_MODEL_SRCS) together
# with $(KOLO_SW_SRCS) and -I$(KOLO_SW_INC) (it builds as C11 or C++), or link
# $(KOLO_NI_MODEL_LIBS) (= the NI model library, then $(KOLO_SW_LIBS)).
#
# This fragment is read before mk/sw.mk, whose := variables are still empty
# here: prerequisites name their files directly; recipes and the = variables
# below expand later and may use mk/sw.mk's.

NI_MODEL_BUILD := $(BUILD)/sw
KOLO_NI_MODEL_SRCS := sw/model/kolo_ni_model.c
KOLO_NI_MODEL_SRCS_ABS := $(TOP)/sw/model/kolo_ni_model.c
KOLO_NI_MODEL_H := sw/include/kolo_ni_model.h sw/include/kolo_ni_regs.h
KOLO_NI_MODEL_LIBS = $(NI_MODEL_BUILD)/libkolo_ni_model.a $(KOLO_SW_LIBS)
NI_MODEL_DEP_H := $(KOLO_NI_MODEL_H) sw/include/kolo_model.h sw/include/kolo_route.h
NI_MODEL_TEST_SRCS := sw/tests/test_ni_model.c $(KOLO_NI_MODEL_SRCS) sw/route/kolo_route.c \
    sw/model/kolo_model.c

.PHONY: ni-model-lib sw-libs
ni-model-lib: $(NI_MODEL_BUILD)/libkolo_ni_model.a
sw-libs: $(NI_MODEL_BUILD)/libkolo_ni_model.a

$(NI_MODEL_BUILD)/kolo_ni_model.o: $(KOLO_NI_MODEL_SRCS) $(NI_MODEL_DEP_H) mk/ni_model.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) $(SW_HOST_CFLAGS) -fPIC -c $< -o $@

$(NI_MODEL_BUILD)/libkolo_ni_model.a: $(NI_MODEL_BUILD)/kolo_ni_model.o
	@rm -f $@
	ar rcs $@ $^

$(NI_MODEL_BUILD)/test_ni_model: $(NI_MODEL_TEST_SRCS) $(NI_MODEL_DEP_H) sw/tests/test_util.h sw/tests/test_ni_util.h \
    mk/ni_model.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) $(SW_TEST_CFLAGS) $(NI_MODEL_TEST_SRCS) -o $@

.PHONY: test-c-ni-model
test-c-ni-model: $(NI_MODEL_BUILD)/test_ni_model $(DEPS_STAMP)
	$(SW_SEED_ENV) $<
TESTS += c-ni-model

# End-to-end reliability on a 16x16x1 torus: all 256 nodes sources, lossy links, a link
# failure and a node that stops, against a lossless golden run (docs/ni.md 10, "C model");
# then two planted model variants that the test must fail (sw/model/tests/run_e2e_torus.sh).
NI_E2E_TORUS_SRCS := sw/model/tests/test_ni_e2e_torus.c $(KOLO_NI_MODEL_SRCS) sw/route/kolo_route.c \
    sw/model/kolo_model.c
NI_E2E_TORUS_DEPS := $(NI_E2E_TORUS_SRCS) $(NI_MODEL_DEP_H) sw/tests/test_util.h sw/tests/test_ni_util.h mk/ni_model.mk

$(NI_MODEL_BUILD)/test_ni_e2e_torus: $(NI_E2E_TORUS_DEPS) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) $(SW_TEST_CFLAGS) $(NI_E2E_TORUS_SRCS) -o $@
$(NI_MODEL_BUILD)/test_ni_e2e_torus-sources16: $(NI_E2E_TORUS_DEPS) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) $(SW_TEST_CFLAGS) -DKOLO_NI_PLANT_E2E_SOURCES=16 $(NI_E2E_TORUS_SRCS) -o $@
$(NI_MODEL_BUILD)/test_ni_e2e_torus-forget20: $(NI_E2E_TORUS_DEPS) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) $(SW_TEST_CFLAGS) -DKOLO_NI_PLANT_E2E_FORGET=20 $(NI_E2E_TORUS_SRCS) -o $@

.PHONY: test-c-ni-e2e-torus
test-c-ni-e2e-torus: $(NI_MODEL_BUILD)/test_ni_e2e_torus $(NI_MODEL_BUILD)/test_ni_e2e_torus-sources16 \
    $(NI_MODEL_BUILD)/test_ni_e2e_torus-forget20 sw/model/tests/run_e2e_torus.sh $(DEPS_STAMP)
	$(SW_SEED_ENV) sw/model/tests/run_e2e_torus.sh $(NI_MODEL_BUILD)
TESTS += c-ni-e2e-torus
