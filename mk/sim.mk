# mk/sim.mk - kolo-sim (one process simulating an N-node torus with its NIs),
# kolo-run (the launcher, like oshrun) and the PE-side client library.
# Usage and protocol: docs/sim.md.
#
#   make sim                       build/sim/kolo-sim, build/sim/kolo-run,
#                                  build/sw/libkolo_sim_client.a (+ .o)
#   make sim-rtl                   + the Verilated tori build/sim/kolo-sim-2x2x2, -3x3x3
#   make sim-rtl-<X>x<Y>x<Z>       any other torus size, on demand (minutes)
#   make sim-rtlni                 build/sim/kolo-sim-ni-2x2x2: the NI RTL (--ni=rtl)
#   make sim-rtlni-<X>x<Y>x<Z>     any other size, on demand (3x3x3: tens of minutes)
#   build/sim/kolo-run -n 8 [--net=rtl|ideal] [--report] prog args...
#   build/sim/kolo-run --help      every option
#   make test-sim-<name>           one test (SEED=<n> replays a random one)
#   make bench-sim_speed_2x2x2_ideal bench-sim_speed_2x2x2_rtl bench-sim_speed_2x2x2_rtlni
#
# Tests (sw/sim/tests/run_sim_tests.sh with the test PE sw/sim/tests/sim_test_pe.c;
# about 20 s together once built): sim-args, sim-ideal-ops, sim-ideal-random,
# sim-faults, sim-exit-status, sim-crash, sim-global-exit, sim-timeout,
# sim-orphan, sim-rtl-ops, sim-rtl-random (the last two on kolo-sim-2x2x2);
# sim-rtlni-ops, sim-rtlni-random, sim-rtlni-checks on kolo-sim-ni-2x2x2 (sim-rtlni-random8:
# 8 PEs, not in make test).
#
# For the host library (sw/lib): compile with -I$(KOLO_SIM_CLIENT_INC) and
# link $(KOLO_SIM_CLIENT_LIB) (C11, needs only libc: -lrt on old glibc).

SIM_BUILD := $(BUILD)/sim
SIM_OBJ := $(SIM_BUILD)/obj
SIM_CC ?= gcc
SIM_CXX ?= g++
# (sw.mk is read after this file: its variables are not set yet here)
SIM_SW_LIBS := $(BUILD)/sw/libkolo_ni_model.a $(BUILD)/sw/libkolo_model.a $(BUILD)/sw/libkolo_route.a
SIM_INC := -Isw/include -Isw/lib -Isw/sim
SIM_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror $(SIM_INC)
SIM_CXXFLAGS := -std=c++17 -O2 -g -Wall -Wextra -Werror $(SIM_INC)
SIM_SEED_ENV = $(if $(SEED),SEED=$(SEED))

KOLO_SIM_CLIENT_INC := sw/lib
KOLO_SIM_CLIENT_LIB := $(BUILD)/sw/libkolo_sim_client.a
KOLO_SIM := $(SIM_BUILD)/kolo-sim
KOLO_RUN := $(SIM_BUILD)/kolo-run

# the C NI model: build/sw/libkolo_ni_model.a from mk/ni_model.mk
SIM_HDRS := $(wildcard sw/include/*.h) sw/sim/sim.h sw/sim/sim_core.h sw/sim/fast_ni.h sw/sim/sim_opts.h sw/sim/svc.h \
    sw/sim/ctl.h \
    sw/sim/trace.h \
    sw/lib/kolo_sim_client.h sw/lib/kolo_sim_server.h fw/kolo_fw.h fw/kolo_hal.h
# the service processors: the service block model and the native firmware, one per node
SIM_CORE_OBJS := $(SIM_OBJ)/sim.o $(SIM_OBJ)/sim_pes.o $(SIM_OBJ)/sim_oracle.o $(SIM_OBJ)/sim_faults.o \
    $(SIM_OBJ)/fast_ni.o \
    $(SIM_OBJ)/net_ideal.o $(SIM_OBJ)/sim_opts.o $(SIM_OBJ)/svc.o \
    $(SIM_OBJ)/ctl.o $(SIM_OBJ)/trace.o $(SIM_OBJ)/kolo_fw.o $(SIM_OBJ)/kolo_svc_model.o \
    $(SIM_OBJ)/kolo_sim_server.o $(SIM_OBJ)/kolo_err.o
KOLO_CTL := $(SIM_BUILD)/kolo-ctl
SIM_CORE_LIB := $(SIM_BUILD)/libkolo_simcore.a

.PHONY: sim sim-rtl
sim: $(KOLO_SIM) $(KOLO_RUN) $(KOLO_CTL) $(KOLO_SIM_CLIENT_LIB) $(SIM_BUILD)/tests/sim_test_pe

$(SIM_OBJ)/%.o: sw/sim/%.cpp $(SIM_HDRS) mk/sim.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SIM_CXX) $(SIM_CXXFLAGS) -c $< -o $@

$(SIM_OBJ)/%.o: sw/sim/%.c $(SIM_HDRS) mk/sim.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SIM_CC) $(SIM_CFLAGS) -c $< -o $@

$(SIM_OBJ)/svc.o: SIM_CXXFLAGS += -Ifw
$(SIM_OBJ)/kolo_fw.o: fw/kolo_fw.c $(SIM_HDRS) mk/sim.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SIM_CC) $(SIM_CFLAGS) -Ifw -c $< -o $@

# the server side of the shared-memory protocol (libkolo's, shared with the board simulation)
# and the error formatter it shares with libkolo
$(SIM_OBJ)/kolo_sim_server.o: sw/lib/kolo_sim_server.c $(SIM_HDRS) sw/lib/kolo_err.h mk/sim.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SIM_CC) $(SIM_CFLAGS) -c $< -o $@
$(SIM_OBJ)/kolo_err.o: sw/lib/kolo_err.c sw/lib/kolo_err.h mk/sim.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SIM_CC) $(SIM_CFLAGS) -c $< -o $@
$(BUILD)/sw/kolo_err.o: sw/lib/kolo_err.c sw/lib/kolo_err.h mk/sim.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SIM_CC) $(SIM_CFLAGS) -fPIC -c $< -o $@

$(SIM_OBJ)/kolo_svc_model.o: sw/model/kolo_svc_model.c $(SIM_HDRS) mk/sim.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SIM_CC) $(SIM_CFLAGS) -c $< -o $@

$(KOLO_CTL): sw/tools/kolo-ctl.c sw/tools/kolo_ctl_dev.c $(LIBKOLO) mk/sim.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SIM_CC) $(SIM_CFLAGS) sw/tools/kolo-ctl.c sw/tools/kolo_ctl_dev.c $(LIBKOLO) -lpthread -o $@

$(SIM_CORE_LIB): $(SIM_CORE_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(KOLO_SIM): $(SIM_OBJ)/main_ideal.o $(SIM_CORE_LIB) $(SIM_SW_LIBS)
	$(SIM_CXX) -o $@ $(SIM_OBJ)/main_ideal.o $(SIM_CORE_LIB) $(SIM_SW_LIBS) -lrt

$(KOLO_RUN): $(SIM_OBJ)/kolo_run.o $(SIM_OBJ)/sim_opts.o $(BUILD)/sw/libkolo_route.a
	$(SIM_CC) -o $@ $^

# ---- client library (PE side) ------------------------------------------------------
$(BUILD)/sw/kolo_sim_client.o: sw/lib/kolo_sim_client.c sw/lib/kolo_sim_client.h sw/include/kolo_sim_shm.h \
    sw/lib/kolo_err.h mk/sim.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SIM_CC) $(SIM_CFLAGS) -fPIC -c $< -o $@

$(KOLO_SIM_CLIENT_LIB): $(BUILD)/sw/kolo_sim_client.o $(BUILD)/sw/kolo_err.o
	@rm -f $@
	ar rcs $@ $^

# ---- RTL network: one Verilator build per torus size ----------------------------------
# The same wrapper generator as tb/torus (VC_DEPTH 80, bubble on, 1-cycle
# ideal links, EJECT_CREDITS 64, REAL_LINKS 0), the router a hier_block.
SIM_RTL_CFGS := 2x2x2 3x3x3
SIM_RTL_RTL := $(wildcard rtl/common/*.v rtl/router/*.v rtl/torus/*.v rtl/link/*.v rtl/include/*.vh)
SIM_RTL_OBJCACHE := $(if $(shell command -v ccache),-MAKEFLAGS OBJCACHE=ccache)
SIM_RTL_VFLAGS := --cc --exe --build -O3 -j 2 --x-assign fast --x-initial fast --hierarchical \
    -Wno-fatal -I$(TOP)/rtl/include -y $(TOP)/rtl/common -y $(TOP)/rtl/router -y $(TOP)/rtl/torus \
    -y $(TOP)/rtl/link --top-module kolo_torus_sim $(SIM_RTL_OBJCACHE)
sim_dim = $(word $(2),$(subst x, ,$(1)))

.PHONY: sim-rtl
sim-rtl: sim $(addprefix $(SIM_BUILD)/kolo-sim-,$(SIM_RTL_CFGS))

sim-rtl-%: $(SIM_BUILD)/kolo-sim-% ;

# $(call sim_rtl_rule,<binary prefix>,<verilator flags>,<extra -D>,<words for the log line>):
# build/sim/kolo-sim-<prefix>XxYxZ from net_rtl.cpp and a wrapper of that torus size
define sim_rtl_rule
$$(SIM_BUILD)/kolo-sim-$(1)%: sw/sim/net_rtl.cpp $$(SIM_CORE_LIB) $$(SIM_SW_LIBS) $$(SIM_RTL_RTL) tb/torus/make_wrapper.sh \
    $$(SIM_HDRS) mk/sim.mk | $$(KOLO_SIM) $$(KOLO_RUN) $$(DEPS_STAMP)
	@mkdir -p $$(SIM_BUILD)/rtl-$(1)$$*
	@tb/torus/make_wrapper.sh $$(SIM_BUILD)/rtl-$(1)$$*/kolo_torus_sim.v $$(call sim_dim,$$*,1) $$(call sim_dim,$$*,2) \
	    $$(call sim_dim,$$*,3) 80 1 1 64 0
	@echo "verilator kolo-sim $$*$(4) (log: $$(SIM_BUILD)/rtl-$(1)$$*/build.log)"
	@cd $$(SIM_BUILD)/rtl-$(1)$$* && $$(TOP)/scripts/verilate_retry.sh build.log verilator $$(VL_CHECKS) $(2) --Mdir obj \
	    -o ../../kolo-sim-$(1)$$* \
	    -CFLAGS "-O2 -std=c++17 -Wall -I$$(TOP)/sw/include -I$$(TOP)/sw/sim -I$$(TOP)/sw/rtlsim -DKOLO_DIM_X=$$(call sim_dim,$$*,1) \
	        -DKOLO_DIM_Y=$$(call sim_dim,$$*,2) -DKOLO_DIM_Z=$$(call sim_dim,$$*,3) -DKOLO_VC_DEPTH=80 -DKOLO_EJECT_CREDITS=64 $(3)" \
	    -LDFLAGS "$$(abspath $$(SIM_CORE_LIB)) $$(abspath $$(SIM_SW_LIBS)) -lrt" \
	    kolo_torus_sim.v $$(TOP)/sw/sim/net_rtl.cpp \
	    || { tail -n 40 build.log; exit 1; }
endef
$(eval $(call sim_rtl_rule,,$(SIM_RTL_VFLAGS),,))

# kolo-sim-trace-XxYxZ: the same, flat (Verilator 5.006 cannot trace a --hierarchical model)
# and with FST tracing, for --rtl-trace (make demo-waves)
SIM_RTL_TRACE_VFLAGS := $(filter-out --hierarchical,$(SIM_RTL_VFLAGS)) --trace-fst --trace-structs
sim-rtl-trace-%: $(SIM_BUILD)/kolo-sim-trace-% ;
$(eval $(call sim_rtl_rule,trace-,$(SIM_RTL_TRACE_VFLAGS),-DKOLO_TRACE, with tracing))

# ---- RTL NIs (--ni=rtl): one Verilator build per torus size --------------------------------
# sw/rtlsim/kolo_sim_cluster.v: kolo_torus (ideal links) + per node kolo_pcie_ep + kolo_ni; the
# router and sw/rtlsim/kolo_sim_node (endpoint + NI) hier_blocks, so their C++ is compiled once,
# the size through macros (no -G with --hierarchical).
# Verilated into a library; sw/sim/ni_rtl.cpp (the root-complex models) is compiled apart
# with the project's flags.
SIM_RTLNI_CFGS := 2x2x2
SIM_RTLNI_RTL := $(SIM_RTL_RTL) $(wildcard rtl/ni/*.v) sw/rtlsim/kolo_sim_cluster.v sw/rtlsim/kolo_sim_node.v
SIM_RTLNI_VFLAGS := $(VL_CHECKS) --cc --build -O3 -j 2 --x-assign fast --x-initial fast --hierarchical \
    -Wno-fatal -I$(TOP)/rtl/include -y $(TOP)/rtl/ni -y $(TOP)/rtl/common -y $(TOP)/rtl/router \
    -y $(TOP)/rtl/torus -y $(TOP)/rtl/link -y $(TOP)/sw/rtlsim --top-module kolo_sim_cluster $(SIM_RTL_OBJCACHE)
SIM_VLT_INC := $(shell verilator --getenv VERILATOR_ROOT 2>/dev/null)/include

.PHONY: sim-rtlni
sim-rtlni: sim $(addprefix $(SIM_BUILD)/kolo-sim-ni-,$(SIM_RTLNI_CFGS))

sim-rtlni-%: $(SIM_BUILD)/kolo-sim-ni-% ;

# One rule (a chain of pattern rules would lose to kolo-sim-% above): the Verilated model
# (a library, minutes) is rebuilt only when the RTL or this file changed (or is missing);
# ni_rtl.cpp is compiled apart with the project's warning flags.
$(SIM_BUILD)/kolo-sim-ni-%: sw/sim/ni_rtl.cpp sw/rtlsim/kolo_pcie_rc.h sw/rtlsim/kolo_rtl_bits.h $(SIM_HDRS) \
    $(SIM_RTLNI_RTL) mk/sim.mk $(SIM_CORE_LIB) $(SIM_SW_LIBS) | $(KOLO_SIM) $(KOLO_RUN) $(DEPS_STAMP)
	@mkdir -p $(SIM_BUILD)/rtlni-$*
	@if [ ! -f $(SIM_BUILD)/rtlni-$*/model.stamp ] || [ -n "$(filter %.v mk/sim.mk,$?)" ]; then \
	    echo "verilator kolo-sim-ni $* (log: $(SIM_BUILD)/rtlni-$*/build.log)"; \
	    rm -f $(SIM_BUILD)/rtlni-$*/model.stamp; \
	    cd $(SIM_BUILD)/rtlni-$* && { $(TOP)/scripts/verilate_retry.sh build.log verilator $(SIM_RTLNI_VFLAGS) --Mdir obj \
	        +define+KOLO_SIM_DIM_X=$(call sim_dim,$*,1) +define+KOLO_SIM_DIM_Y=$(call sim_dim,$*,2) \
	        +define+KOLO_SIM_DIM_Z=$(call sim_dim,$*,3) -CFLAGS -O2 $(TOP)/sw/rtlsim/kolo_sim_cluster.v \
	        && $(MAKE) -C obj -f Vkolo_sim_cluster.mk verilated.o verilated_threads.o \
	        $(if $(shell command -v ccache),OBJCACHE=ccache) >> build.log 2>&1; } \
	        || { tail -n 40 build.log; exit 1; }; \
	    touch model.stamp; \
	fi
	$(SIM_CXX) $(SIM_CXXFLAGS) -Isw/rtlsim -I$(SIM_BUILD)/rtlni-$*/obj -isystem $(SIM_VLT_INC) \
	    -isystem $(SIM_VLT_INC)/vltstd -DKOLO_DIM_X=$(call sim_dim,$*,1) -DKOLO_DIM_Y=$(call sim_dim,$*,2) \
	    -DKOLO_DIM_Z=$(call sim_dim,$*,3) -c $< -o $(SIM_BUILD)/rtlni-$*/ni_rtl.o
	$(SIM_CXX) -o $@ $(SIM_BUILD)/rtlni-$*/ni_rtl.o $(SIM_BUILD)/rtlni-$*/obj/Vkolo_sim_cluster__ALL.a \
	    $(SIM_BUILD)/rtlni-$*/obj/*/*.a $(SIM_BUILD)/rtlni-$*/obj/verilated.o \
	    $(SIM_BUILD)/rtlni-$*/obj/verilated_threads.o $(SIM_CORE_LIB) $(SIM_SW_LIBS) -lrt -pthread

# ---- tests ------------------------------------------------------------------------------
$(SIM_BUILD)/tests/sim_test_pe: sw/sim/tests/sim_test_pe.c $(KOLO_SIM_CLIENT_LIB) sw/lib/kolo_sim_client.h \
    $(wildcard sw/include/*.h) mk/sim.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(SIM_CC) $(SIM_CFLAGS) $< $(KOLO_SIM_CLIENT_LIB) -lrt -o $@

SIM_TEST_DEPS := sim $(SIM_BUILD)/tests/sim_test_pe sw/sim/tests/run_sim_tests.sh sw/sim/tests/expect.sh
SIM_T := sw/sim/tests/run_sim_tests.sh $(SIM_BUILD)
SIM_TESTS := sim-args sim-ideal-ops sim-ideal-random sim-faults sim-exit-status sim-crash sim-global-exit sim-timeout \
    sim-orphan sim-det sim-rtl-ops sim-rtl-random

$(foreach t,$(filter-out sim-rtl-%,$(SIM_TESTS)),$(eval test-$(t): $(SIM_TEST_DEPS) ; $(SIM_SEED_ENV) $(SIM_T) $(patsubst sim-%,%,$(t))))
$(foreach t,$(filter sim-rtl-%,$(SIM_TESTS)),$(eval test-$(t): $(SIM_TEST_DEPS) $(SIM_BUILD)/kolo-sim-2x2x2 ; $(SIM_SEED_ENV) $(SIM_T) $(patsubst sim-%,%,$(t))))
# --det (deterministic co-simulation): an OpenSHMEM program too, and the stuck one of t_errors
test-sim-det: $(BUILD)/examples/torus_work $(BUILD)/lib/shmem_tests/t_errors
# --ni=rtl on the 2x2x2 torus (kolo-sim-ni-2x2x2); sim-rtlni-random8 (8 PEs) failed before the
# kolo_ni_tgt write port fix (docs/sim.md).
SIM_RTLNI_TESTS := sim-rtlni-ops sim-rtlni-random sim-rtlni-random8 sim-rtlni-checks
$(foreach t,$(SIM_RTLNI_TESTS),$(eval test-$(t): $(SIM_TEST_DEPS) $(SIM_BUILD)/kolo-sim-ni-2x2x2 ; $(SIM_SEED_ENV) $(SIM_T) $(patsubst sim-%,%,$(t))))
# OpenSHMEM programs started by mpirun (Open MPI), mpiexec (MPICH/Hydra) and by hand with
# Slurm's variables against a kolo-sim --server; launcher/torus mismatches (run_launch_tests.sh)
SIM_LAUNCH_TESTS := sim-launch-openmpi sim-launch-mpich sim-launch-slurm sim-launch-errors
SIM_LAUNCH_DEPS := sim $(addprefix $(BUILD)/lib/shmem_tests/,t_generic t_random t_coll t_init) \
    $(BUILD)/examples/torus_work sw/sim/tests/run_launch_tests.sh sw/sim/tests/expect.sh
$(foreach t,$(SIM_LAUNCH_TESTS),$(eval test-$(t): $(SIM_LAUNCH_DEPS) ; \
    sw/sim/tests/run_launch_tests.sh $(abspath $(BUILD)) $(patsubst sim-launch-%,%,$(t))))
.PHONY: $(addprefix test-,$(SIM_LAUNCH_TESTS))
TESTS += $(SIM_LAUNCH_TESTS)

# faults under running programs (sw/sim/tests/run_fault_tests.sh; docs/firmware.md)
SIM_FAULT_TESTS := sim-fault-args sim-fault-2x2x2 sim-fault-3x3x3 sim-fault-4x4x4 sim-fault-random \
    sim-fault-ctl sim-fault-control sim-fault-rtl sim-fault-rtlni
$(foreach t,$(SIM_FAULT_TESTS),$(eval test-$(t): $(SIM_TEST_DEPS) $(BUILD)/examples/torus_work \
    $(BUILD)/lib/shmem_tests/t_random \
    sw/sim/tests/run_fault_tests.sh ; $(SIM_SEED_ENV) sw/sim/tests/run_fault_tests.sh $(BUILD) $(patsubst sim-fault-%,%,$(t))))
test-sim-fault-rtl: $(SIM_BUILD)/kolo-sim-2x2x2
test-sim-fault-rtlni: $(SIM_BUILD)/kolo-sim-ni-2x2x2
# the three runs of sim-fault-rtlni with the programs' rounds of before --det (60, 40, 100 for make
# test's 20, 25, 25: 3.7 min of CPU for 1.7; sw/sim/tests/run_fault_tests.sh); not in make test
test-sim-fault-rtlni-long: $(SIM_TEST_DEPS) $(BUILD)/examples/torus_work $(SIM_BUILD)/kolo-sim-ni-2x2x2 \
    sw/sim/tests/run_fault_tests.sh
	$(SIM_SEED_ENV) sw/sim/tests/run_fault_tests.sh $(BUILD) rtlni-long
.PHONY: $(addprefix test-,$(SIM_FAULT_TESTS)) test-sim-fault-rtlni-long
TESTS += $(SIM_FAULT_TESTS)
.PHONY: $(addprefix test-,$(SIM_TESTS) $(SIM_RTLNI_TESTS))
TESTS += $(SIM_TESTS) $(SIM_RTLNI_TESTS)

# ---- benchmarks -------------------------------------------------------------------------
.PHONY: bench-sim_speed_2x2x2_ideal bench-sim_speed_2x2x2_rtl
bench-sim_speed_2x2x2_ideal: $(SIM_TEST_DEPS)
	@$(KOLO_RUN) -n 8 --net=ideal --no-idle --bench=sim_2x2x2_ideal $(SIM_BUILD)/tests/sim_test_pe stream 2000
bench-sim_speed_2x2x2_rtl: $(SIM_TEST_DEPS) $(SIM_BUILD)/kolo-sim-2x2x2
	@$(KOLO_RUN) -n 8 --net=rtl --no-idle --bench=sim_2x2x2_rtl $(SIM_BUILD)/tests/sim_test_pe stream 300
.PHONY: bench-sim_speed_2x2x2_rtlni
# 2 PEs running the ops test: streaming PUTs still hang on the NI RTL (docs/sim.md)
bench-sim_speed_2x2x2_rtlni: $(SIM_TEST_DEPS) $(SIM_BUILD)/kolo-sim-ni-2x2x2
	@$(KOLO_RUN) -n 2 -t 2x2x2 --ni=rtl --no-idle --timeout=300 --bench=sim_2x2x2_rtlni $(SIM_BUILD)/tests/sim_test_pe ops
BENCHES += sim_speed_2x2x2_ideal sim_speed_2x2x2_rtl sim_speed_2x2x2_rtlni

# fault_recovery_cycles: link down to new tables installed everywhere (4x4x4);
# fault_traffic_stall_cycles: the longest any operation waited from the first
# fault on (the NI's end-to-end timeout bounds it)
.PHONY: bench-fault_recovery_4x4x4
bench-fault_recovery_4x4x4: $(SIM_TEST_DEPS) $(BUILD)/examples/torus_work
	$(KOLO_RUN) -t 4x4x4 -n 63 --timeout=600 --bench=fault --fail-link=30000:21:X+ --fail-node=60000:63 \
	    $(BUILD)/examples/torus_work 40 2>/dev/null | grep -E '^BENCH fault_(recovery|traffic)'
BENCHES += fault_recovery_4x4x4

# make demo DEMO_TORUS=2x2x2, checked: correct results, both faults handled, the
# terminal tells the story and the summary and leaves the per-NI table to the log,
# trace and save file written and checked against each other (the demo runs the check)
.PHONY: test-demo-2x2x2
test-demo-2x2x2: $(KOLO_RUN) $(KOLO_SIM) $(BUILD)/examples/torus_work
	@out=$$($(MAKE) --no-print-directory demo DEMO_TORUS=2x2x2 2>&1); rc=$$?; echo "$$out" | tail -n 12; \
	fail=0; \
	[ $$rc = 0 ] || { echo "FAIL: make demo exit $$rc"; fail=1; }; \
	echo "$$out" | grep -q 'demo: the job finished with correct results' || { echo "FAIL: no success line"; fail=1; }; \
	[ $$(grep -c '^fault at .*new tables everywhere' $(BUILD)/demo/run.log) = 2 ] || { echo "FAIL: not both faults handled"; fail=1; }; \
	[ $$(echo "$$out" | grep -c '^fault at .*new tables everywhere') = 2 ] || { echo "FAIL: the summary is not on the terminal"; fail=1; }; \
	echo "$$out" | grep -q 'TX_PKTS\|^---- every NI' && { echo "FAIL: the per-NI table is on the terminal"; fail=1; }; \
	grep -q '^---- every NI ----' $(BUILD)/demo/run.log && grep -q '^(1,1,1) ' $(BUILD)/demo/run.log \
	    || { echo "FAIL: no per-NI table in run.log"; fail=1; }; \
	grep -q '^BENCH demo_recovery_cycles' $(BUILD)/demo/run.log || { echo "FAIL: no BENCH lines in run.log"; fail=1; }; \
	grep -q '^kolo.node_1_1_1.up' $(BUILD)/demo/fault.gtkw || { echo "FAIL: no save file"; fail=1; }; \
	grep '^gtkw: .*fault.gtkw: [0-9]* signals' $(BUILD)/demo/gtkw-check.log || { echo "FAIL: save file not checked"; fail=1; }; \
	[ $$fail = 0 ] && echo "demo-2x2x2: PASS"; exit $$fail
TESTS += demo-2x2x2
