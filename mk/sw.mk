# mk/sw.mk - C routing library, deadlock check, reference model, kolo-route tool.
#
#   build/sw/libkolo_route.a   freestanding routing library (sw/route)
#   build/sw/libkolo_model.a   reference model / scoreboard (sw/model, needs libkolo_route.a)
#   build/sw/kolo-route        CLI: table, path, check
#   make test-c-route test-c-deadlock test-c-model test-c-tool test-c-freestanding
#   make bench-deadlock_check_ms_8x8x8
# Randomised tests take SEED=<n> (make test-c-route SEED=5) and print their seed.
#
# For testbenches: compile $(KOLO_SW_SRCS) with -I$(KOLO_SW_INC) (both build as C or
# C++), or depend on $(KOLO_SW_LIBS) and link them in that order.

KOLO_SW_INC := sw/include
KOLO_SW_SRCS := sw/route/kolo_route.c sw/model/kolo_model.c
# the same as absolute paths, for builds that run make elsewhere (verilator --Mdir)
KOLO_SW_INC_ABS := $(TOP)/$(KOLO_SW_INC)
KOLO_SW_SRCS_ABS := $(addprefix $(TOP)/,$(KOLO_SW_SRCS))
KOLO_SW_LIBS := $(BUILD)/sw/libkolo_model.a $(BUILD)/sw/libkolo_route.a

SW_BUILD := $(BUILD)/sw
SW_CC ?= gcc
SW_WARN := -Wall -Wextra -Werror
# firmware-shared code: freestanding C99
SW_ROUTE_CFLAGS := -std=c99 -ffreestanding -O2 $(SW_WARN) -I$(KOLO_SW_INC)
SW_HOST_CFLAGS := -std=c11 -O2 $(SW_WARN) -I$(KOLO_SW_INC)
SW_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
SW_TEST_CFLAGS := -std=c11 -O1 -g $(SW_WARN) $(SW_SAN) -I$(KOLO_SW_INC) -Isw/tests
SW_SEED_ENV = $(if $(SEED),SEED=$(SEED))

SW_ROUTE_SRC := sw/route/kolo_route.c
# the separate checker of deadlock certificates (in libkolo_route.a too)
SW_CERT_SRC := sw/route/kolo_cert.c
SW_MODEL_SRC := sw/model/kolo_model.c
SW_ROUTE_H := sw/include/kolo_route.h
SW_MODEL_H := sw/include/kolo_model.h

.PHONY: sw-libs
sw-libs: $(SW_BUILD)/libkolo_route.a $(SW_BUILD)/libkolo_model.a $(SW_BUILD)/kolo-route

$(SW_BUILD)/kolo_route.o: $(SW_ROUTE_SRC) $(SW_ROUTE_H) mk/sw.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) $(SW_ROUTE_CFLAGS) -fPIC -c $< -o $@

$(SW_BUILD)/kolo_model.o: $(SW_MODEL_SRC) $(SW_MODEL_H) $(SW_ROUTE_H) mk/sw.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) $(SW_HOST_CFLAGS) -fPIC -c $< -o $@

$(SW_BUILD)/kolo_cert.o: $(SW_CERT_SRC) $(SW_ROUTE_H) mk/sw.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) $(SW_ROUTE_CFLAGS) -fPIC -c $< -o $@

$(SW_BUILD)/libkolo_route.a: $(SW_BUILD)/kolo_route.o $(SW_BUILD)/kolo_cert.o
	@rm -f $@
	ar rcs $@ $^

$(SW_BUILD)/libkolo_model.a: $(SW_BUILD)/kolo_model.o
	@rm -f $@
	ar rcs $@ $^

$(SW_BUILD)/kolo-route: sw/tools/kolo-route.c $(SW_BUILD)/libkolo_route.a $(SW_ROUTE_H)
	$(SW_CC) $(SW_HOST_CFLAGS) $< -L$(SW_BUILD) -lkolo_route -o $@

# ---- tests (sanitizers on; sources compiled into each test) -----------------
$(SW_BUILD)/test_route: sw/tests/test_route.c $(SW_ROUTE_SRC) $(SW_ROUTE_H) sw/tests/test_util.h \
    mk/sw.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) $(SW_TEST_CFLAGS) sw/tests/test_route.c $(SW_ROUTE_SRC) -o $@

$(SW_BUILD)/test_deadlock: sw/tests/test_deadlock.c $(SW_ROUTE_SRC) $(SW_CERT_SRC) $(SW_ROUTE_H) \
    sw/tests/test_util.h mk/sw.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) $(SW_TEST_CFLAGS) sw/tests/test_deadlock.c $(SW_ROUTE_SRC) $(SW_CERT_SRC) -o $@

$(SW_BUILD)/test_model: sw/tests/test_model.c $(SW_ROUTE_SRC) $(SW_MODEL_SRC) $(SW_ROUTE_H) \
    $(SW_MODEL_H) sw/tests/test_util.h mk/sw.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SW_CC) $(SW_TEST_CFLAGS) sw/tests/test_model.c $(SW_ROUTE_SRC) $(SW_MODEL_SRC) -o $@

.PHONY: test-c-route test-c-deadlock test-c-model test-c-tool test-c-freestanding
test-c-route: $(SW_BUILD)/test_route $(DEPS_STAMP)
	$(SW_SEED_ENV) $<
TESTS += c-route

test-c-deadlock: $(SW_BUILD)/test_deadlock $(DEPS_STAMP)
	$(SW_SEED_ENV) $<
TESTS += c-deadlock

test-c-model: $(SW_BUILD)/test_model $(DEPS_STAMP)
	$(SW_SEED_ENV) $<
TESTS += c-model

test-c-tool: $(SW_BUILD)/kolo-route sw/tests/test_tool.sh $(DEPS_STAMP)
	sw/tests/test_tool.sh $(SW_BUILD)/kolo-route
TESTS += c-tool

# The routing library must link into firmware without libc: build it
# freestanding at several optimisation levels and demand no undefined symbols
# (GCC may otherwise emit memset/memcpy calls of its own). And shipped code
# (sw/, fw/) includes nothing from tb/, in its sources and in the include paths
# of its builds (scripts/check_shipped.sh, with its plants; about 4 s).
test-c-freestanding: $(SW_ROUTE_SRC) $(SW_CERT_SRC) $(SW_ROUTE_H) scripts/check_shipped.sh $(DEPS_STAMP)
	@mkdir -p $(SW_BUILD)/freestanding
	@set -e; for src in $(SW_ROUTE_SRC) $(SW_CERT_SRC); do for opt in -O0 -O2 -O3 -Os; do \
	    o=$(SW_BUILD)/freestanding/$$(basename $$src .c)$$opt.o; \
	    $(SW_CC) -std=c99 -pedantic -ffreestanding -fno-builtin $(SW_WARN) $$opt \
	        -I$(KOLO_SW_INC) -c $$src -o $$o; \
	    undef=$$(nm -u $$o | grep -v ' kolo_' || true); \
	    if [ -n "$$undef" ]; then echo "FAIL $$src $$opt: undefined symbols: $$undef"; exit 1; fi; \
	    echo "ok $$src $$opt: no undefined symbols"; \
	done; done
	@scripts/check_shipped.sh $(SW_BUILD)/shipped-check
TESTS += c-freestanding

# make test first forgets dependency files that name moved headers
# (scripts/prune_stale_deps.py, run by scripts/run_tests.sh); its planted case
.PHONY: test-prune-stale-deps
test-prune-stale-deps:
	@scripts/test_prune_stale_deps.sh
TESTS += prune-stale-deps

# ---- benchmark ----------------------------------------------------------------
$(SW_BUILD)/bench_deadlock: sw/tests/bench_deadlock.c $(SW_BUILD)/libkolo_route.a $(SW_ROUTE_H)
	$(SW_CC) $(SW_HOST_CFLAGS) $< -L$(SW_BUILD) -lkolo_route -o $@

.PHONY: bench-deadlock_check_ms_8x8x8
bench-deadlock_check_ms_8x8x8: $(SW_BUILD)/bench_deadlock $(DEPS_STAMP)
	@$< 8 8 8
BENCHES += deadlock_check_ms_8x8x8
