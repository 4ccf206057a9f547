# mk/lib.mk - libkolo (host library, sw/lib), OpenSHMEM on it (sw/shmem),
# examples (sw/examples) and their tests. docs/api.md, docs/shmem.md.
#
#   make lib                 build/lib/libkolo.a, build/lib/libkolo_shmem.a, oshcc ready,
#                            and the same libraries with ASan+UBSan in build/lib/san/
#   make examples            build/examples/{hello,ring_put,atomic_counter,halo2d}
#   make shmem-tests         build/lib/shmem_tests/t_* (OpenSHMEM test programs, ASan+UBSan)
#   make bench-lib_shmem_ideal bench-lib_shmem_rtl   latencies/bandwidth in simulated cycles
#   sw/shmem/oshcc prog.c -o prog          (KOLO_SAN=1: link the sanitized libraries)
#   build/sim/kolo-run -n 8 ./prog
#   make test-lib-<name>     one test (SEED=<n> replays a random one)
#
# Tests: lib-unit (libkolo argument checks, VFIO error paths, completion
# logic, against an in-process NI model), lib-gone (a card that disappears:
# KOLO_E_GONE, with plants), lib-stall (a card that answers but completes
# nothing: KOLO_E_STALLED, with plants), lib-heap (symmetric heap
# allocator), lib-shmem-* (OpenSHMEM programs under kolo-run, mostly on the
# ideal network; lib-shmem-rtl runs four on the RTL 2x2x2 torus, lib-shmem-rtlni three
# on the NI RTL, --ni=rtl; test-lib-shmem-rtlni-long, not in make test: t_coll and t_rma (minutes)
# on the NI RTL), lib-examples.
# The library is built from sw/lib/*.c (kolo_sim_client.c included, so one
# libkolo.a is enough) and sw/shmem/*.c.

LIB_BUILD := $(BUILD)/lib
LIB_CC ?= gcc
LIB_WARN := -Wall -Wextra -Werror
LIB_INC := -Isw/include -Isw/lib -Isw/shmem
LIB_CFLAGS := -std=c11 -O2 -g $(LIB_WARN) $(LIB_INC)
LIB_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
LIB_SAN_CFLAGS := -std=c11 -O1 -g $(LIB_WARN) $(LIB_SAN) $(LIB_INC)
# ThreadSanitizer builds (build/lib/tsan): the threads test runs on them too
LIB_TSAN_CFLAGS := -std=c11 -O1 -g $(LIB_WARN) -fsanitize=thread $(LIB_INC)
LIB_SEED_ENV = $(if $(SEED),SEED=$(SEED))

LIB_KOLO_SRCS := $(wildcard sw/lib/*.c)
LIB_SHMEM_SRCS := $(wildcard sw/shmem/*.c)
LIB_HDRS := sw/include/kolo.h sw/include/kolo_ni_regs.h sw/include/kolo_ni_model.h sw/include/kolo_sim_shm.h \
    sw/include/kolo_model.h sw/include/kolo_route.h sw/include/kolo_vfio.h sw/include/kolo_uart.h \
    sw/include/kolo_uart_regs.h sw/include/kolo_hmsg.h sw/include/kolo_fw_msg.h $(wildcard sw/lib/*.h) $(wildcard sw/shmem/*.h)

LIB_KOLO_OBJS := $(patsubst sw/lib/%.c,$(LIB_BUILD)/obj/%.o,$(LIB_KOLO_SRCS))
LIB_SHMEM_OBJS := $(patsubst sw/shmem/%.c,$(LIB_BUILD)/obj/shmem_%.o,$(LIB_SHMEM_SRCS))
LIB_KOLO_SOBJS := $(patsubst sw/lib/%.c,$(LIB_BUILD)/san/obj/%.o,$(LIB_KOLO_SRCS))
LIB_SHMEM_SOBJS := $(patsubst sw/shmem/%.c,$(LIB_BUILD)/san/obj/shmem_%.o,$(LIB_SHMEM_SRCS))
LIB_KOLO_TOBJS := $(patsubst sw/lib/%.c,$(LIB_BUILD)/tsan/obj/%.o,$(LIB_KOLO_SRCS))
LIB_SHMEM_TOBJS := $(patsubst sw/shmem/%.c,$(LIB_BUILD)/tsan/obj/shmem_%.o,$(LIB_SHMEM_SRCS))

LIBKOLO := $(LIB_BUILD)/libkolo.a
LIBKOLO_SHMEM := $(LIB_BUILD)/libkolo_shmem.a
LIBKOLO_SAN := $(LIB_BUILD)/san/libkolo.a
LIBKOLO_SHMEM_SAN := $(LIB_BUILD)/san/libkolo_shmem.a
LIBKOLO_TSAN := $(LIB_BUILD)/tsan/libkolo.a
LIBKOLO_SHMEM_TSAN := $(LIB_BUILD)/tsan/libkolo_shmem.a
OSHCC := sw/shmem/oshcc

.PHONY: lib lib-tsan examples
lib: $(LIBKOLO) $(LIBKOLO_SHMEM) $(LIBKOLO_SAN) $(LIBKOLO_SHMEM_SAN)
lib-tsan: $(LIBKOLO_TSAN) $(LIBKOLO_SHMEM_TSAN)

$(LIB_BUILD)/obj/%.o: sw/lib/%.c $(LIB_HDRS) mk/lib.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(LIB_CC) $(LIB_CFLAGS) -fPIC -c $< -o $@
$(LIB_BUILD)/obj/shmem_%.o: sw/shmem/%.c $(LIB_HDRS) mk/lib.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(LIB_CC) $(LIB_CFLAGS) -fPIC -c $< -o $@
$(LIB_BUILD)/san/obj/%.o: sw/lib/%.c $(LIB_HDRS) mk/lib.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(LIB_CC) $(LIB_SAN_CFLAGS) -c $< -o $@
$(LIB_BUILD)/san/obj/shmem_%.o: sw/shmem/%.c $(LIB_HDRS) mk/lib.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(LIB_CC) $(LIB_SAN_CFLAGS) -c $< -o $@
$(LIB_BUILD)/tsan/obj/%.o: sw/lib/%.c $(LIB_HDRS) mk/lib.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(LIB_CC) $(LIB_TSAN_CFLAGS) -c $< -o $@
$(LIB_BUILD)/tsan/obj/shmem_%.o: sw/shmem/%.c $(LIB_HDRS) mk/lib.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(LIB_CC) $(LIB_TSAN_CFLAGS) -c $< -o $@

$(LIBKOLO): $(LIB_KOLO_OBJS)
	@rm -f $@
	ar rcs $@ $^
$(LIBKOLO_SHMEM): $(LIB_SHMEM_OBJS)
	@rm -f $@
	ar rcs $@ $^
$(LIBKOLO_SAN): $(LIB_KOLO_SOBJS)
	@rm -f $@
	ar rcs $@ $^
$(LIBKOLO_SHMEM_SAN): $(LIB_SHMEM_SOBJS)
	@rm -f $@
	ar rcs $@ $^
$(LIBKOLO_TSAN): $(LIB_KOLO_TOBJS)
	@rm -f $@
	ar rcs $@ $^
$(LIBKOLO_SHMEM_TSAN): $(LIB_SHMEM_TOBJS)
	@rm -f $@
	ar rcs $@ $^

# ---- examples (plain OpenSHMEM C, built with oshcc) ------------------------------------
LIB_EXAMPLES := hello ring_put atomic_counter halo2d torus_work
LIB_EXAMPLE_BINS := $(addprefix $(BUILD)/examples/,$(LIB_EXAMPLES))
examples: $(LIB_EXAMPLE_BINS)
$(BUILD)/examples/%: sw/examples/%.c $(LIBKOLO) $(LIBKOLO_SHMEM) $(OSHCC) sw/shmem/shmem.h
	@mkdir -p $(@D)
	KOLO_BUILD=$(abspath $(BUILD)) $(OSHCC) -O2 -Wall -Wextra -Werror $< -o $@ -lm

# ---- unit tests (no simulator) -------------------------------------------------------------
# test_libkolo runs libkolo against the C NI model in-process (a 1x1x1 or
# 2x1x1 torus, packets looped back), so it links the model and the routing
# library.
LIB_UNIT_SRCS := sw/tests/test_libkolo.c $(LIB_KOLO_SRCS) sw/model/kolo_ni_model.c \
    sw/model/kolo_model.c
$(LIB_BUILD)/test_libkolo: $(LIB_UNIT_SRCS) sw/route/kolo_route.c $(LIB_HDRS) sw/tests/test_util.h \
    sw/tests/test_kolo_util.h mk/lib.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(LIB_CC) $(LIB_SAN_CFLAGS) -Isw/tests $(LIB_UNIT_SRCS) sw/route/kolo_route.c -o $@

$(LIB_BUILD)/test_libkolo_heap: sw/tests/test_libkolo_heap.c sw/shmem/symheap.c sw/shmem/symheap.h \
    sw/tests/test_util.h mk/lib.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(LIB_CC) $(LIB_SAN_CFLAGS) -Isw/tests sw/tests/test_libkolo_heap.c sw/shmem/symheap.c -o $@

# A test with planted copies: $(call lib_planted_test,NAME,BIN,SRCS,LIBS) makes
# test-lib-NAME (in TESTS): $(LIB_BUILD)/BIN, built from SRCS and linked with LIBS,
# must pass; then for each plant P of lib_NAME_plants a copy of sw/lib/$(lib_NAME_file_P)
# edited by sed '$(lib_NAME_sed_P)' (the edit must change it) replaces that file in
# SRCS, and the test built with it must fail, printing a FAIL line. SEED replays both.
define lib_planted_test
$(LIB_BUILD)/$(2): $$($(3)) $$(LIB_HDRS) $$(LIB_TEST_HDRS) mk/lib.mk | $$(DEPS_STAMP)
	@mkdir -p $$(@D)
	$$(LIB_CC) $$(LIB_SAN_CFLAGS) -Isw/tests $$($(3)) $(4) -o $$@
$(LIB_BUILD)/$(2)_plant_%: $$($(3)) $$(LIB_HDRS) $$(LIB_TEST_HDRS) mk/lib.mk | $$(DEPS_STAMP)
	@mkdir -p $(LIB_BUILD)/$(1)-plant-$$*
	sed '$$(lib_$(1)_sed_$$*)' sw/lib/$$(lib_$(1)_file_$$*) > $(LIB_BUILD)/$(1)-plant-$$*/$$(lib_$(1)_file_$$*)
	@! cmp -s sw/lib/$$(lib_$(1)_file_$$*) $(LIB_BUILD)/$(1)-plant-$$*/$$(lib_$(1)_file_$$*) || \
	    { echo "plant $$* not applied"; exit 1; }
	$$(LIB_CC) $$(LIB_SAN_CFLAGS) -Isw/tests $$(filter-out sw/lib/$$(lib_$(1)_file_$$*),$$($(3))) \
	    $(LIB_BUILD)/$(1)-plant-$$*/$$(lib_$(1)_file_$$*) $(4) -o $$@
.PHONY: test-lib-$(1)
test-lib-$(1): $(LIB_BUILD)/$(2) $$(lib_$(1)_plants:%=$(LIB_BUILD)/$(2)_plant_%) $$(DEPS_STAMP)
	$$(LIB_SEED_ENV) $$<
	@for p in $$(lib_$(1)_plants); do \
	    if $$(LIB_SEED_ENV) $(LIB_BUILD)/$(2)_plant_$$$$p > $(LIB_BUILD)/$(2)_plant_$$$$p.log 2>&1 || \
	        ! grep -q FAIL $(LIB_BUILD)/$(2)_plant_$$$$p.log; then \
	        echo "lib-$(1): plant $$$$p was not caught"; exit 1; \
	    else echo "lib-$(1): plant $$$$p caught: $$$$(grep -m1 FAIL $(LIB_BUILD)/$(2)_plant_$$$$p.log)"; fi; \
	done
TESTS += lib-$(1)
endef
LIB_TEST_HDRS := sw/tests/test_util.h sw/tests/test_kolo_util.h sw/tests/test_kolo_card.h

# lib-sim-server: the server side of kolo-sim's shared-memory protocol (kolo_sim_server.c,
# used by kolo-sim and the KC705 board simulation's --serve) against the PE side, in one
# process; plants (copies of kolo_sim_server.c):
#   full-ring-lost: the ring pop never says the ring was full (a PE waiting for room
#                   would never be woken under --det)
#   w512-as-8:      a 64-byte PIO write counted as 8 bytes (the servers would pass on
#                   only its first word)
#   wake-later:     --det: a later poll wake replaces an earlier pending one (a PE would
#                   sleep past the cycle it asked for)
LIB_SIM_SERVER_SRCS := sw/tests/test_sim_server.c sw/lib/kolo_sim_server.c sw/lib/kolo_sim_client.c \
    sw/lib/kolo_err.c
lib_sim-server_plants := full-ring-lost w512-as-8 wake-later
lib_sim-server_file_full-ring-lost := kolo_sim_server.c
lib_sim-server_sed_full-ring-lost := s/return head - tail == KOLO_SIM_RING;/return head - tail == KOLO_SIM_RING \&\& 0;/
lib_sim-server_file_w512-as-8 := kolo_sim_server.c
lib_sim-server_sed_w512-as-8 := s/\[KOLO_MMIO_W512\] = 64/[KOLO_MMIO_W512] = 8/
lib_sim-server_file_wake-later := kolo_sim_server.c
lib_sim-server_sed_wake-later := s/if (a \&\& (!\*due || t < \*due))/if (a \&\& (!*due || t > *due))/
$(eval $(call lib_planted_test,sim-server,test_sim_server,LIB_SIM_SERVER_SRCS,-lpthread -lrt))

.PHONY: test-lib-unit test-lib-heap
test-lib-unit: $(LIB_BUILD)/test_libkolo $(DEPS_STAMP)
	$(LIB_SEED_ENV) $<
test-lib-heap: $(LIB_BUILD)/test_libkolo_heap $(DEPS_STAMP)
	$(LIB_SEED_ENV) $<
TESTS += lib-unit lib-heap

# lib-gone: libkolo on a card that disappears (issue 18, docs/api.md "Device gone"):
# sw/tests/test_libkolo_gone.c against the C NI model behind a backend that dies
# (reads all ones or failing, writes dropped or failing), then planted copies of
# kolo_dev.c / kolo_ctx.c that it must fail on:
#   no-detect:        a suspicious read is never confirmed (the device is never gone)
#   no-confirm:       every suspicious read marks the device gone (all ones as a value too)
#   write-after-gone: MMIO writes still reach a gone device
#   no-complete:      outstanding requests are not completed when the device is gone
#   no-poll-probe:    empty kolo_progress/kolo_test polls never look at STATUS
LIB_GONE_SRCS := sw/tests/test_libkolo_gone.c $(LIB_KOLO_SRCS) sw/model/kolo_ni_model.c \
    sw/model/kolo_model.c sw/route/kolo_route.c
lib_gone_plants := no-detect no-confirm write-after-gone no-complete no-poll-probe
lib_gone_file_no-detect := kolo_dev.c
lib_gone_sed_no-detect := s/return dev_identity_ok(d) ? 0 : dev_mark_gone(d);/return 0;/
lib_gone_file_no-confirm := kolo_dev.c
lib_gone_sed_no-confirm := s/return dev_identity_ok(d) ? 0 : dev_mark_gone(d);/return dev_mark_gone(d);/
lib_gone_file_write-after-gone := kolo_dev.c
lib_gone_sed_write-after-gone := s|return KOLO_E_GONE; /\* nothing reaches a gone device \*/|(void)0;|
lib_gone_file_no-complete := kolo_ctx.c
lib_gone_sed_no-complete := s|__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE); /\* gone \*/|(void)r;|
lib_gone_file_no-poll-probe := kolo_ctx.c
lib_gone_sed_no-poll-probe := s/c->dev->poll_probe \&\& ++c->idle_polls/0 \&\& ++c->idle_polls/
$(eval $(call lib_planted_test,gone,test_libkolo_gone,LIB_GONE_SRCS))

# lib-stall: libkolo's stall bound in NI cycles (issue 18, docs/api.md "Waiting"):
# sw/tests/test_libkolo_stall.c against the C NI model behind a backend whose link
# loses packets, loses completion entries or is slow, then planted copies of
# kolo_ctx.c (kolo_dev.c for env-lax) that it must fail on:
#   stall-off:         the stall check never runs (a wait on a stalled card hangs)
#   stall-no-counters: the NI's packet counters ignored, only completions count as
#                      progress (a slow card is failed)
#   env-lax:           a bad KOLO_WAIT_STALL_CYCLES / KOLO_WAIT_TIMEOUT taken as a number
#                      (read as 0: the bound off without a word)
LIB_STALL_SRCS := sw/tests/test_libkolo_stall.c $(LIB_KOLO_SRCS) sw/model/kolo_ni_model.c \
    sw/model/kolo_model.c sw/route/kolo_route.c
lib_stall_plants := stall-off stall-no-counters env-lax
lib_stall_sed_env-lax := s/if (end == t || \*end || errno || strchr(t, .-.)) {/if (0) {/
lib_stall_file_env-lax := kolo_dev.c
lib_stall_file_stall-off := kolo_ctx.c
lib_stall_sed_stall-off := s/if (!d->stall_cycles || !d->has_cycles)/if (1)/
lib_stall_file_stall-no-counters := kolo_ctx.c
lib_stall_sed_stall-no-counters := s/if (!w->valid || tx != w->tx || rx != w->rx) {/if (!w->valid) {/
$(eval $(call lib_planted_test,stall,test_libkolo_stall,LIB_STALL_SRCS))

# ---- OpenSHMEM tests under kolo-run ---------------------------------------------------------
# Built with the sanitized libraries (KOLO_SAN=1): ASan and UBSan work in
# the PEs (kolo-sim's process_vm DMA does not touch the shadow memory).
LIB_SHMEM_TESTS := $(patsubst sw/tests/shmem/%.c,%,$(wildcard sw/tests/shmem/t_*.c))
LIB_SHMEM_TEST_BINS := $(addprefix $(LIB_BUILD)/shmem_tests/,$(LIB_SHMEM_TESTS))
.PHONY: shmem-tests
shmem-tests: $(LIB_SHMEM_TEST_BINS)
$(LIB_BUILD)/shmem_tests/%: sw/tests/shmem/%.c sw/tests/shmem/shmem_test.h $(LIBKOLO_SAN) \
    $(LIBKOLO_SHMEM_SAN) $(OSHCC) sw/shmem/shmem.h
	@mkdir -p $(@D)
	KOLO_SAN=1 KOLO_BUILD=$(abspath $(BUILD)) $(OSHCC) -O1 -g -Wall -Wextra -Werror -Isw/tests/shmem \
	    $< -o $@ -lm

# OpenSHMEM from C++ (sw/shmem/oshc++): t_cxx
$(LIB_BUILD)/shmem_tests/t_cxx: sw/tests/shmem/t_cxx.cpp sw/tests/shmem/shmem_test.h $(LIBKOLO_SAN) \
    $(LIBKOLO_SHMEM_SAN) $(OSHCC) sw/shmem/oshc++ sw/shmem/shmem.h
	@mkdir -p $(@D)
	KOLO_SAN=1 KOLO_BUILD=$(abspath $(BUILD)) sw/shmem/oshc++ -O1 -g -Wall -Wextra -Werror \
	    -Isw/tests/shmem $< -o $@ -lm

# t_generic against a planted bug in the C11 selection (shmem_max_reduce
# selects the min routines): its run-time checks must catch it (run.sh generic)
$(LIB_BUILD)/shmem_tests/plant/shmem_c11.h: sw/shmem/shmem_c11.h mk/lib.mk
	@mkdir -p $(@D)
	sed 's/KSHMEM_COLL(KSHMEM_GL_RED_MINMAX, max_reduce/KSHMEM_COLL(KSHMEM_GL_RED_MINMAX, min_reduce/' $< > $@
	grep -q 'RED_MINMAX, min_reduce, team, d, __VA_ARGS__)$$' $@ && \
	    [ $$(grep -c 'RED_MINMAX, min_reduce' $@) = 2 ] || { echo "plant not applied"; rm -f $@; exit 1; }
$(LIB_BUILD)/shmem_tests/t_generic_plant: sw/tests/shmem/t_generic.c sw/tests/shmem/shmem_test.h \
    $(LIB_BUILD)/shmem_tests/plant/shmem_c11.h sw/shmem/shmem.h $(LIBKOLO_SAN) $(LIBKOLO_SHMEM_SAN)
	cp sw/shmem/shmem.h $(LIB_BUILD)/shmem_tests/plant/shmem.h
	$(LIB_CC) -std=gnu11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
	    -fno-sanitize-recover=all -fno-omit-frame-pointer -I$(LIB_BUILD)/shmem_tests/plant -Isw/tests/shmem $< -o $@ \
	    -L$(LIB_BUILD)/san -lkolo_shmem -lkolo -lrt -lm

# t_gone against planted waits (run.sh gone): under kolo-sim --det a wait on a card
# that is gone must still look at it; with the look taken out of libkolo's waits
# (det-no-look: libkolo's sim backend as before the look) or of libkolo_shmem's
# (shmem-no-look) the PE never finds its card gone and the run is called stuck
LIB_SHGONE_PLANTS := det-no-look shmem-no-look
lib_shgone_file_det-no-look := sw/lib/kolo_backend_sim.c
lib_shgone_sed_det-no-look := s/return kolo_sim_poll_fired(c, ticket);/return (void)ticket, 0;/
lib_shgone_file_shmem-no-look := sw/shmem/shmem_init.c
lib_shgone_sed_shmem-no-look := s/if (kolo_sim_poll_fired(sim, ticket) \&\& kshmem.dev)/if ((void)ticket, 0 \&\& kshmem.dev)/
$(LIB_BUILD)/shmem_tests/plant/t_gone_%: sw/tests/shmem/t_gone.c sw/tests/shmem/shmem_test.h \
    $(LIBKOLO_SAN) $(LIBKOLO_SHMEM_SAN) sw/shmem/shmem.h $(LIB_HDRS) mk/lib.mk
	@mkdir -p $(@D)/$*
	sed '$(lib_shgone_sed_$*)' $(lib_shgone_file_$*) > $(@D)/$*/$(notdir $(lib_shgone_file_$*))
	@! cmp -s $(lib_shgone_file_$*) $(@D)/$*/$(notdir $(lib_shgone_file_$*)) || { echo "plant $* not applied"; exit 1; }
	$(LIB_CC) $(LIB_SAN_CFLAGS) -std=gnu11 -Isw/shmem -Isw/tests/shmem $< $(@D)/$*/$(notdir $(lib_shgone_file_$*)) \
	    -L$(LIB_BUILD)/san -lkolo_shmem -lkolo -lrt -lm -o $@

# the threads test also under ThreadSanitizer
$(LIB_BUILD)/shmem_tests/t_threads_tsan: sw/tests/shmem/t_threads.c sw/tests/shmem/shmem_test.h \
    $(LIBKOLO_TSAN) $(LIBKOLO_SHMEM_TSAN) $(OSHCC) sw/shmem/shmem.h
	@mkdir -p $(@D)
	KOLO_SAN=thread KOLO_BUILD=$(abspath $(BUILD)) $(OSHCC) -O1 -g -Wall -Wextra -Werror -Isw/tests/shmem \
	    $< -o $@ -lm

LIB_SHMEM_RUN = sw/tests/shmem/run.sh $(abspath $(BUILD))
LIB_SHMEM_T = $(LIB_BUILD)/shmem_tests

# test group -> the programs it runs (see sw/tests/shmem/run.sh)
LIB_SHMEM_GROUPS := init rma amo sync signal coll heap errors generic random gone
lib_group_bins = $(LIB_SHMEM_T)/t_$(1) $(if $(filter generic,$(1)),$(LIB_SHMEM_T)/t_cxx $(LIB_SHMEM_T)/t_generic_plant) \
    $(if $(filter sync,$(1)),$(LIB_SHMEM_T)/t_poll) \
    $(if $(filter gone,$(1)),$(BUILD)/sim/kolo-sim-ni-2x2x2 $(LIB_SHGONE_PLANTS:%=$(LIB_SHMEM_T)/plant/t_gone_%))
$(foreach g,$(LIB_SHMEM_GROUPS),$(eval test-lib-shmem-$(g): sim $(call lib_group_bins,$(g)) \
    sw/tests/shmem/run.sh ; $$(LIB_SEED_ENV) $$(LIB_SHMEM_RUN) $(g)))
$(LIB_BUILD)/bench/bench_bigput: sw/tests/shmem/bench_bigput.c $(LIBKOLO) $(LIBKOLO_SHMEM) $(OSHCC) \
    sw/shmem/shmem.h sw/shmem/shmemx.h
	@mkdir -p $(@D)
	KOLO_BUILD=$(abspath $(BUILD)) $(OSHCC) -O2 -Wall -Wextra -Werror $< -o $@
test-lib-shmem-fast: sim $(LIB_SHMEM_TEST_BINS) $(LIB_SHMEM_T)/t_threads $(LIB_SHMEM_T)/t_threads_tsan $(LIB_EXAMPLE_BINS) \
    $(LIB_BUILD)/bench/bench_bigput sw/tests/shmem/run.sh
	$(LIB_SEED_ENV) $(LIB_SHMEM_RUN) fast
test-lib-shmem-threads: sim $(LIB_SHMEM_T)/t_threads $(LIB_SHMEM_T)/t_threads_tsan sw/tests/shmem/run.sh
	$(LIB_SEED_ENV) $(LIB_SHMEM_RUN) threads
test-lib-shmem-rtl: sim $(BUILD)/sim/kolo-sim-2x2x2 $(addprefix $(LIB_SHMEM_T)/,t_random t_signal t_amo t_coll) \
    sw/tests/shmem/run.sh
	$(LIB_SEED_ENV) $(LIB_SHMEM_RUN) rtl
# the same programs on the NI RTL (--ni=rtl: PCIe endpoint + kolo_ni per node, docs/sim.md)
test-lib-shmem-rtlni: sim $(BUILD)/sim/kolo-sim-ni-2x2x2 \
    $(addprefix $(LIB_SHMEM_T)/,t_signal t_amo t_random) sw/tests/shmem/run.sh
	$(LIB_SEED_ENV) $(LIB_SHMEM_RUN) rtlni
# t_coll (4 PEs, ~45 s) and t_rma (8 PEs, ~200 s) on the NI RTL: not in make test (run time)
test-lib-shmem-rtlni-long: sim $(BUILD)/sim/kolo-sim-ni-2x2x2 \
    $(addprefix $(LIB_SHMEM_T)/,t_coll t_rma) sw/tests/shmem/run.sh
	$(LIB_SEED_ENV) $(LIB_SHMEM_RUN) rtlni-long
test-lib-examples: sim $(LIB_EXAMPLE_BINS) sw/tests/shmem/run.sh
	$(LIB_SHMEM_RUN) examples
.PHONY: $(addprefix test-lib-shmem-,$(LIB_SHMEM_GROUPS) threads fast rtl rtlni rtlni-long) test-lib-examples
LIB_SHMEM_GROUPS += threads fast rtl rtlni
TESTS += $(addprefix lib-shmem-,$(LIB_SHMEM_GROUPS)) lib-examples

# ---- benchmarks: latencies and bandwidth in simulated cycles -------------------------------
$(LIB_BUILD)/bench/bench_latency: sw/tests/shmem/bench_latency.c $(LIBKOLO) $(LIBKOLO_SHMEM) $(OSHCC) \
    sw/shmem/shmem.h sw/shmem/shmemx.h
	@mkdir -p $(@D)
	KOLO_BUILD=$(abspath $(BUILD)) $(OSHCC) -O2 -Wall -Wextra -Werror $< -o $@
.PHONY: bench-lib_shmem_ideal bench-lib_shmem_rtl
# 2 PEs (with 8, the waiting PEs' back-off on a small machine dominates)
bench-lib_shmem_ideal: sim $(LIB_BUILD)/bench/bench_latency
	@$(BUILD)/sim/kolo-run -n 2 $(LIB_BUILD)/bench/bench_latency ideal | grep BENCH
	@$(BUILD)/sim/kolo-run -n 8 $(LIB_BUILD)/bench/bench_latency ideal8 | grep BENCH.*barrier
bench-lib_shmem_rtl: sim $(LIB_BUILD)/bench/bench_latency $(BUILD)/sim/kolo-sim-2x2x2
	@$(BUILD)/sim/kolo-run -n 2 -t 2x2x2 --net=rtl $(LIB_BUILD)/bench/bench_latency rtl | grep BENCH
BENCHES += lib_shmem_ideal lib_shmem_rtl

$(LIB_BUILD)/bench/bench_rate: sw/tests/shmem/bench_rate.c $(LIBKOLO) $(LIBKOLO_SHMEM) $(OSHCC) \
    sw/shmem/shmem.h sw/shmem/shmemx.h
	@mkdir -p $(@D)
	KOLO_BUILD=$(abspath $(BUILD)) $(OSHCC) -O2 -Wall -Wextra -Werror $< -o $@
# shmem_put8_rate_sim: 8-byte puts (shmem_long_p) from PE 0 to PE 1 on the RTL NIs
# (--ni=rtl, PCIe endpoints, 2x2x2 RTL torus), Mmsg/s of simulated time under --det
# (the PE's software costs no cycles: the NI and PCIe side's rate);
# shmem_barrier_us_64pe: shmem_barrier_all on 64 PEs (4x4x4, C NI model), --det
.PHONY: bench-shmem_put8_rate_sim bench-shmem_barrier_us_64pe
bench-shmem_put8_rate_sim: sim $(LIB_BUILD)/bench/bench_rate $(BUILD)/sim/kolo-sim-ni-2x2x2
	@$(BUILD)/sim/kolo-run -n 2 -t 2x2x2 --ni=rtl --det --timeout=1800 $(LIB_BUILD)/bench/bench_rate put8 sim 2000 | grep BENCH
bench-shmem_barrier_us_64pe: sim $(LIB_BUILD)/bench/bench_rate
	@$(BUILD)/sim/kolo-run -n 64 -t 4x4x4 --det --timeout=1800 $(LIB_BUILD)/bench/bench_rate barrier 64pe 20 | grep BENCH
# shmem_atomic_fetch_add_rate_sim (and _one_word_, _blocking_): fetch-adds from PE 0
# to PE 1 on the RTL NIs (--ni=rtl, 2x2x2, --det): nbi to 1024 distinct words, nbi
# to one word, blocking to one word (issue 21's atomic rates through the library)
.PHONY: bench-shmem_amo_rate_sim
bench-shmem_amo_rate_sim: sim $(LIB_BUILD)/bench/bench_rate $(BUILD)/sim/kolo-sim-ni-2x2x2
	@$(BUILD)/sim/kolo-run -n 2 -t 2x2x2 --ni=rtl --det --timeout=1800 $(LIB_BUILD)/bench/bench_rate amo sim 2000 | grep BENCH
BENCHES += shmem_put8_rate_sim shmem_barrier_us_64pe shmem_amo_rate_sim

# fast_mode_gbytes_per_s: kolo-sim --fast moving 8 PEs x 100 puts of 32 MiB (26.8 GB), simulated
# bytes per wall second (the issue's "a 32 MB put repeated 100 times from every PE")
.PHONY: bench-fast_mode
bench-fast_mode: sim $(LIB_BUILD)/bench/bench_bigput
	@out=$$(SHMEM_SYMMETRIC_SIZE=80M $(BUILD)/sim/kolo-run -n 8 --fast --report --timeout=3600 \
	    $(LIB_BUILD)/bench/bench_bigput 32 100 2>&1); echo "$$out" | grep -E '^bench_bigput|^fast mode|^cycles'; \
	    echo "$$out" | grep -q 'data ok' || { echo "bench-fast_mode: run failed"; exit 1; }; \
	    w=$$(echo "$$out" | grep -oE 'wall [0-9.]+ s' | grep -oE '[0-9.]+'); \
	    b=$$(echo "$$out" | grep -oE '[0-9]+ bytes put' | grep -oE '^[0-9]+'); \
	    awk -v b=$$b -v w=$$w 'BEGIN { printf "BENCH fast_mode_gbytes_per_s %.2f GB/s\n", b / w / 1e9; \
	        printf "BENCH fast_mode_bigput_wall %.1f s\n", w }'
BENCHES += fast_mode

# ---- the Sandia OpenSHMEM test suite (external sources; not in make test) ------------------
# make sos-suite SOS=<tests-sos checkout>: builds its unit and specification-example programs
# with oshcc/oshc++ and runs each on 2 PEs (scripts/sos_suite.sh, docs/shmem.md)
.PHONY: sos-suite
sos-suite:
	@if [ -z "$(SOS)" ]; then \
	    echo "sos-suite: say where the test sources are: make sos-suite SOS=<dir>, <dir> a checkout of"; \
	    echo "  https://github.com/openshmem-org/tests-sos (or of Sandia OpenSHMEM with modules/tests-sos)"; \
	    exit 2; fi
	@$(MAKE) --no-print-directory sim lib >/dev/null
	@scripts/sos_suite.sh "$(SOS)" $(SOS_TESTS)
