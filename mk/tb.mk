# mk/tb.mk - whole-torus Verilator testbenches (tb/torus), network benchmarks,
# `make demo` and `make waves`.
#
# One binary per torus configuration: build/tb/torus/<cfg>/tb_torus, where
# <cfg> is <X>x<Y>x<Z> (BUBBLE=1) or <X>x<Y>x<Z>_b0 (bubble rule disabled);
# 4x4x4_s<n>: the 4x4x4 with kolo_torus ESC_SLOTS n (measurements only).
# kolo_router is a Verilator hier_block: one compiled router serves all nodes
# (see the comment in rtl/router/kolo_router.v); the torus sizes go into a
# generated wrapper top (tb/torus/make_wrapper.sh) and into the harness as -D.
#
#   make test-torus-<name>      one network test (SEED=<n> replays a seed)
#   make tb-torus-<cfg>         just build a configuration
#   build/tb/torus/<cfg>/tb_torus --help    all run-time options

TORUS_BUILD := $(BUILD)/tb/torus
TORUS_RTL := $(wildcard rtl/common/*.v rtl/router/*.v rtl/torus/*.v rtl/link/*.v rtl/include/*.vh) tb/torus/tb_lane_channel.v
TORUS_TB_SRC := $(TOP)/tb/torus/tb_torus.cpp
TORUS_TB_DEPS := tb/torus/tb_torus.cpp $(wildcard tb/common/*.h sw/rtlsim/*.h) tb/torus/make_wrapper.sh \
                 $(KOLO_SW_SRCS) $(wildcard sw/include/*.h) mk/tb.mk
# Every configuration compiles the same router C++ (same parameters): ccache
# turns all but the first of those compiles into cache hits.
TORUS_OBJCACHE := $(if $(shell command -v ccache),-MAKEFLAGS OBJCACHE=ccache)
TORUS_VFLAGS := $(VL_CHECKS) --cc --exe --build -O3 -j 2 --x-assign fast --x-initial fast \
    -Wno-fatal -I$(TOP)/rtl/include -y $(TOP)/rtl/common -y $(TOP)/rtl/router -y $(TOP)/rtl/torus \
    -y $(TOP)/rtl/link -y $(TOP)/tb/torus \
    --top-module kolo_torus_sim $(TORUS_OBJCACHE)
TORUS_CFLAGS := -O2 -std=c++17 -Wall -I$(TOP)/tb/common -I$(TOP)/sw/rtlsim -I$(KOLO_SW_INC_ABS)


# $(call torus_cfg,<cfg>,<X>,<Y>,<Z>,<BUBBLE>,<extra verilator flags>,<extra -D>,<suffix>,<REAL_LINKS>[,<LINK_TRAIN_BUDGET>[,<ESC_SLOTS>]])
define torus_cfg
$(TORUS_BUILD)/$(1)$(8)/tb_torus: $(TORUS_RTL) $(TORUS_TB_DEPS) | $(DEPS_STAMP)
	@mkdir -p $(TORUS_BUILD)/$(1)$(8)
	@tb/torus/make_wrapper.sh $(TORUS_BUILD)/$(1)$(8)/kolo_torus_sim.v $(2) $(3) $(4) 80 $(5) 1 64 $(or $(9),0) $(or $(10),50000) $(11)
	@echo "verilator torus $(1)$(8) (log: $(TORUS_BUILD)/$(1)$(8)/build.log)"
	@cd $(TORUS_BUILD)/$(1)$(8) && $(TOP)/scripts/verilate_retry.sh build.log verilator $(TORUS_VFLAGS) $(6) --Mdir obj -o ../tb_torus \
	    -CFLAGS "$(TORUS_CFLAGS) -DKOLO_DIM_X=$(2) -DKOLO_DIM_Y=$(3) -DKOLO_DIM_Z=$(4) -DKOLO_BUBBLE=$(5) -DKOLO_REAL_LINKS=$(or $(9),0) $(7)" \
	    kolo_torus_sim.v $(TORUS_TB_SRC) $(KOLO_SW_SRCS_ABS) \
	    || { tail -n 40 build.log; exit 1; }
.PHONY: tb-torus-$(1)$(8)
tb-torus-$(1)$(8): $(TORUS_BUILD)/$(1)$(8)/tb_torus
endef

TORUS_CFGS := 2x1x1 2x2x2 3x3x3 4x4x4 4x4x1 1x1x8 8x1x1 8x1x1_b0
cfg_dims = $(subst x, ,$(firstword $(subst _, ,$(1))))
cfg_bubble = $(if $(findstring _b0,$(1)),0,1)
$(foreach c,$(TORUS_CFGS),$(eval $(call torus_cfg,$(c),$(word 1,$(call cfg_dims,$(c))),$(word 2,$(call cfg_dims,$(c))),$(word 3,$(call cfg_dims,$(c))),$(call cfg_bubble,$(c)),--hierarchical,,)))
# 4x4x4 with other escape buffers (kolo_torus ESC_SLOTS <n>): configurations 4x4x4_s<n>,
# for saturation measurements against the default (docs/router.md "Saturation")
$(foreach n,3 5 6 7,$(eval $(call torus_cfg,4x4x4,4,4,4,1,--hierarchical,,_s$(n),0,50000,$(n))))
# Tori with real links (kolo_link on every port, lanes with bit errors):
# configurations <X>x<Y>x<Z>_rl.
TORUS_RL_CFGS := 2x2x2 3x3x3
$(foreach c,$(TORUS_RL_CFGS),$(eval $(call torus_cfg,$(c),$(word 1,$(call cfg_dims,$(c))),$(word 2,$(call cfg_dims,$(c))),$(word 3,$(call cfg_dims,$(c))),1,--hierarchical,,_rl,1)))
# real links behind escape buffers of 5 packets (170 flits: the links' transmit buffer is 256
# flits per VC, kolo_torus LINK_VC_BUF): 2x2x2_rl_s5, measurements only (make tb-torus-2x2x2_rl_s5,
# then the binary with the options of test-torus-2x2x2-rl-ber1e-5)
$(eval $(call torus_cfg,2x2x2,2,2,2,1,--hierarchical,,_rl_s5,1,50000,5))
# real links that give up retraining after 3000 cycles (kolo_torus LINK_TRAIN_BUDGET): a cut
# cable goes down within a short run
$(eval $(call torus_cfg,2x2x2,2,2,2,1,--hierarchical,,_rlcut,1,3000))
# traced (flat) real-link builds for `make waves TEST=torus-<X>x<Y>x<Z>-rl-...`: slow to build
$(foreach c,$(TORUS_RL_CFGS),$(eval $(call torus_cfg,$(c),$(word 1,$(call cfg_dims,$(c))),$(word 2,$(call cfg_dims,$(c))),$(word 3,$(call cfg_dims,$(c))),1,--trace-fst --trace-structs,-DKOLO_TRACE,_rl-trace,1)))
# Traced builds for `make waves`: flat, because Verilator 5.006 crashes when it
# opens a trace on a --hierarchical model (VerilatedTrace::addModel). A flat
# 4x4x4 build takes many minutes; the smaller tori build in one or two.
$(foreach c,$(TORUS_CFGS),$(eval $(call torus_cfg,$(c),$(word 1,$(call cfg_dims,$(c))),$(word 2,$(call cfg_dims,$(c))),$(word 3,$(call cfg_dims,$(c))),$(call cfg_bubble,$(c)),--trace-fst --trace-structs,-DKOLO_TRACE,-trace)))

# ---- network tests ------------------------------------------------------------
# $(call torus_test,<name>,<cfg>,<default seed>,<options>)
define torus_test
.PHONY: test-torus-$(1)
test-torus-$(1): $(TORUS_BUILD)/$(2)/tb_torus | $(DEPS_STAMP)
	$$< --seed=$(3) $(4)
TESTS += torus-$(1)
TORUS_TEST_CFG_$(1) := $(2)
TORUS_TEST_ARGS_$(1) := --seed=$(3) $(4)
endef

# Mixed traffic (all patterns, ordered and adaptive, both vnets, 0..32 payload
# flits) with ejection backpressure on every torus shape of the issue.
TORUS_MIX := --pattern=uniform:4,transpose,bitcomp,hotspot,neighbor --len=0-32 --bp=0.2
$(eval $(call torus_test,2x1x1-mixed,2x1x1,10,$(TORUS_MIX) --rate=0.3 --packets=4000))
$(eval $(call torus_test,2x2x2-mixed,2x2x2,11,$(TORUS_MIX) --rate=0.3 --packets=20000))
$(eval $(call torus_test,3x3x3-mixed,3x3x3,12,$(TORUS_MIX) --rate=0.3 --packets=10000))
$(eval $(call torus_test,4x4x4-mixed,4x4x4,13,$(TORUS_MIX) --rate=0.2 --packets=8000))
$(eval $(call torus_test,4x4x1-mixed,4x4x1,14,$(TORUS_MIX) --rate=0.3 --packets=10000))
$(eval $(call torus_test,1x1x8-mixed,1x1x8,15,$(TORUS_MIX) --rate=0.3 --packets=10000))
$(eval $(call torus_test,8x1x1-mixed,8x1x1,16,$(TORUS_MIX) --rate=0.3 --packets=10000))
# saturation: every source always has a packet waiting; >= 100 000 packets
$(eval $(call torus_test,4x4x4-sat100k,4x4x4,21,--rate=sat --len=2 --packets=100000 --pattern=uniform:2,transpose,hotspot))
$(eval $(call torus_test,8x1x1-sat100k,8x1x1,22,--rate=sat --len=0-32 --packets=100000 --ordered=0.5 --pattern=uniform))
$(eval $(call torus_test,3x3x3-sat-ordered,3x3x3,23,--rate=sat --len=0-32 --packets=30000 --ordered=1 --bp=0.3))
# bubble rule off: ring traffic must deadlock and the watchdog must say so
$(eval $(call torus_test,8x1x1-nobubble-deadlocks,8x1x1_b0,31,--rate=sat --len=32 --ordered=1 --packets=20000 --pattern=uniform --watchdog=2000 --expect-deadlock=1))
# and the same traffic with the bubble rule on completes (control)
$(eval $(call torus_test,8x1x1-bubble-control,8x1x1,31,--rate=sat --len=32 --ordered=1 --packets=20000 --pattern=uniform --watchdog=2000))

# real links with lane bit errors: nothing lost, every error repaired by the link layer
$(eval $(call torus_test,2x2x2-rl-ber1e-5,2x2x2_rl,51,$(TORUS_MIX) --rate=0.3 --packets=8000 --ber=1e-5))
$(eval $(call torus_test,3x3x3-rl-ber1e-5,3x3x3_rl,52,$(TORUS_MIX) --rate=0.2 --packets=4000 --ber=1e-5))
# a cable cut in the middle of traffic (tb_torus --cut): the link goes down, its router drops
# the packets for it whole and counts them, packets lost inside the link are only those last
# seen entering it, nothing truncated arrives, every other link stays up, nothing hangs
$(eval $(call torus_test,2x2x2-rl-cut,2x2x2_rlcut,53,$(TORUS_MIX) --rate=0.3 --packets=4000 --cut=2500:0:0))

# ---- network benchmarks ---------------------------------------------------------
# 4-flit packets (2 header + 2 payload) as the brief's saturation numbers ask;
# "det" = every packet ordered (class 0, dimension order), "adaptive" = none.
# The saturation sources inject as the NI does (--inj-per-vc=1): kolo_ni_inj has one
# source per vnet, each in order, their packets on class !ordered, the two served round
# robin among those whose VC has credits for a whole packet; with all packets ordered or
# none, the tb's queue per VC is exactly that (one queue in all, the harness default,
# blocks both vnets behind a packet waiting for credits: docs/router.md "Saturation").
# SAT_CFG=<cfg> runs them on another configuration, e.g. 4x4x4_s7 (ESC_SLOTS 7).
T444 := $(TORUS_BUILD)/4x4x4/tb_torus
SAT_CFG ?= 4x4x4
T444SAT := $(TORUS_BUILD)/$(SAT_CFG)/tb_torus
BENCH_SAT := --rate=sat --len=2 --packets=0 --cycles=6000 --warmup=1500 --report=1 --vnet1=0.5 --seed=1 --inj-per-vc=1
BENCH_ZL := --isolated=1 --len=2 --packets=600 --pattern=uniform --seed=1

.PHONY: bench-torus_zero_load_latency_4x4x4 bench-sim_speed_2x2x2 bench-sim_speed_4x4x4 bench-latency_load_4x4x4
bench-torus_zero_load_latency_4x4x4: $(T444) | $(DEPS_STAMP)
	$< $(BENCH_ZL) --bench=lat_mean:torus_zero_load_latency_4x4x4,cycles_per_hop:torus_zero_load_cycles_per_hop_4x4x4,router_pipeline:router_pipeline_cycles_4x4x4
BENCHES += torus_zero_load_latency_4x4x4

# $(call sat_bench,<pattern>,<det|adaptive>,<ordered fraction>)
define sat_bench
.PHONY: bench-sat_$(1)_4x4x4_$(2)
bench-sat_$(1)_4x4x4_$(2): $(T444SAT) | $(DEPS_STAMP)
	$$< $(BENCH_SAT) --pattern=$(1) --ordered=$(3) --bench=accepted:sat_$(1)_4x4x4_$(2),lat_mean:sat_$(1)_4x4x4_$(2)_latency
BENCHES += sat_$(1)_4x4x4_$(2)
endef
$(foreach p,uniform transpose hotspot,$(eval $(call sat_bench,$(p),det,1))$(eval $(call sat_bench,$(p),adaptive,0)))

bench-sim_speed_2x2x2: $(TORUS_BUILD)/2x2x2/tb_torus | $(DEPS_STAMP)
	$< --rate=0.3 --len=0-8 --packets=0 --cycles=100000 --seed=1 --report=0 --bench=sim_speed:sim_speed_2x2x2
bench-sim_speed_4x4x4: $(T444) | $(DEPS_STAMP)
	$< --rate=0.3 --len=0-8 --packets=0 --cycles=10000 --seed=1 --report=0 --bench=sim_speed:sim_speed_4x4x4
BENCHES += sim_speed_2x2x2 sim_speed_4x4x4

# latency against offered load, det and adaptive, uniform 4-flit packets:
# build/bench/latency_load_4x4x4.csv and .png
bench-latency_load_4x4x4: $(T444) scripts/latency_load.sh | $(DEPS_STAMP)
	scripts/latency_load.sh $< $(BUILD)/bench/latency_load_4x4x4
BENCHES += latency_load_4x4x4

# ---- demo ---------------------------------------------------------------------
# make demo [DEMO_TORUS=4x4x4|3x3x3|2x2x2]: an OpenSHMEM job (sw/examples/torus_work)
# on every node but the last; midway a link fails, then a node; every node's
# service processor runs the firmware, which floods the news over MGMT packets
# and installs new tables; the NIs send lost operations again; the job checks
# its own results. Prints the simulator's report and leaves an FST trace window
# of the failures with a GTKWave save file (build/demo/). See docs/firmware.md.
DEMO_TORUS ?= 4x4x4
T222RL := $(TORUS_BUILD)/2x2x2_rl/tb_torus
DEMO_SEED ?= 2026
DEMO_DIR := $(BUILD)/demo
demo_nodes = $(shell echo $$(( $(subst x, * ,$(DEMO_TORUS)) )))
DEMO_ROUNDS ?= $(if $(filter 4x4x4,$(DEMO_TORUS)),100,300)
DEMO_LINK_AT ?= 100000
DEMO_NODE_AT ?= 130000
.PHONY: demo demo-rtl
demo: $(KOLO_RUN) $(KOLO_SIM) $(BUILD)/examples/torus_work scripts/gtkw.py | $(DEPS_STAMP)
	@mkdir -p $(DEMO_DIR)
	@n=$(demo_nodes); last=$$((n - 1)); \
	echo "==== kolo demo: $(DEMO_TORUS) torus, $$last PEs running torus_work ($(DEMO_ROUNDS) rounds) ===="; \
	echo "cycle $(DEMO_LINK_AT): the link leaving node 0 through X+ fails; cycle $(DEMO_NODE_AT): node index $$last dies"; \
	echo; \
	$(KOLO_RUN) -t $(DEMO_TORUS) -n $$last --timeout=600 --report=full --bench=demo \
	    --fail-link=$(DEMO_LINK_AT):0:X+ --fail-node=$(DEMO_NODE_AT):$$last \
	    --trace=$(DEMO_DIR)/fault.vcd --trace-window=$$(($(DEMO_LINK_AT) - 1000)):40000 \
	    $(BUILD)/examples/torus_work $(DEMO_ROUNDS) > $(DEMO_DIR)/run.log 2>&1; rc=$$?; \
	sed -n '/^---- every NI ----$$/q; /^BENCH /d; p' $(DEMO_DIR)/run.log; \
	vcd2fst $(DEMO_DIR)/fault.vcd $(DEMO_DIR)/fault.fst && rm -f $(DEMO_DIR)/fault.vcd; \
	last_id=$$(printf 'node_%d_%d_%d' $$(echo $(DEMO_TORUS) | awk -F x -v i=$$last '{print i % $$1, int(i / $$1) % $$2, int(i / ($$1 * $$2))}')); \
	nb=$$(printf 'node_%d_0_0' $$((1 % $(word 1,$(subst x, ,$(DEMO_TORUS)))))); \
	scripts/gtkw.py demo $(DEMO_DIR)/fault.fst $(DEMO_DIR)/fault.gtkw \
	    --view=$$(($(DEMO_LINK_AT) - 1000)):$$(($(DEMO_LINK_AT) + 8000)) --mark=$(DEMO_LINK_AT),$(DEMO_NODE_AT) \
	    node_0_0_0 $$nb $$last_id > /dev/null && \
	scripts/gtkw.py check $(DEMO_DIR)/fault.gtkw --mark-at=$(DEMO_LINK_AT) > $(DEMO_DIR)/gtkw-check.log \
	    || { cat $(DEMO_DIR)/gtkw-check.log; echo "demo: the trace's save file does not match the trace"; rc=1; }; \
	echo; \
	echo "trace of the failures: gtkwave $(DEMO_DIR)/fault.gtkw (opens on the link failure; marker A: the node)"; \
	echo "every NI's and service processor's counters, and the BENCH lines: $(DEMO_DIR)/run.log"; \
	if [ $$rc = 0 ]; then echo "demo: the job finished with correct results"; \
	else echo "demo: FAILED (status $$rc)"; exit 1; fi

# make demo-waves: the same story on the Verilated routers (kolo-sim --net=rtl) of a
# DEMO_WAVES_TORUS (2x2x2; 2x1x1 for the quick version in `make test`): torus_work on every
# node but the last, the link leaving node 0 through X+ fails once traffic crosses it, then
# (2x2x2) the last node dies; leaves an RTL waveform of the failure (build/demo/rtl.fst,
# every signal of the routers and links, GTKWave save file rtl.gtkw showing the two routers
# of the failed link) beside the system-level trace. Its traced Verilator build
# (kolo-sim-trace-XxYxZ, flat) takes about 12 minutes on 2 cores for 2x2x2 the first time;
# not part of make test.
DEMO_WAVES_TORUS ?= 2x2x2
DEMO_WAVES_DIR ?= $(DEMO_DIR)
demo_waves_nodes = $(shell echo $$(( $(subst x, * ,$(DEMO_WAVES_TORUS)) )))
.PHONY: demo-waves
demo-waves: $(KOLO_RUN) $(KOLO_SIM) $(BUILD)/sim/kolo-sim-trace-$(DEMO_WAVES_TORUS) $(BUILD)/examples/torus_work \
    scripts/gtkw.py | $(DEPS_STAMP)
	@mkdir -p $(DEMO_WAVES_DIR)
	@n=$(demo_waves_nodes); pes=$$((n > 2 ? n - 1 : n)); d=$(DEMO_WAVES_DIR); \
	node_fail=$$( [ $$n -gt 2 ] && echo "--fail-node=40000:$$((n - 1))" ); \
	echo "==== kolo demo-waves: $(DEMO_WAVES_TORUS) torus of RTL routers, $$pes PEs running torus_work ===="; \
	echo "from cycle 20000: the link leaving node 0 through X+ fails under traffic$${node_fail:+; cycle 40000: node $$((n - 1)) dies}"; \
	$(KOLO_RUN) -t $(DEMO_WAVES_TORUS) -n $$pes --net=rtl --timeout=600 --report=full \
	    --fail-link=20000+:0:X+ $$node_fail \
	    --trace=$$d/waves-sys.vcd --rtl-trace=$$d/rtl.fst --trace-window=19500:$(or $(DEMO_WAVES_CYCLES),6000) \
	    $(BUILD)/examples/torus_work $(or $(DEMO_WAVES_ROUNDS),100) > $$d/waves.log 2>&1; rc=$$?; \
	grep -E '^fault at|^faults:|^end to end:|torus_work: .* PEs' $$d/waves.log; \
	fail_at=$$(sed -n 's/^fault at cycle \([0-9]*\): link.*/\1/p' $$d/waves.log | head -n 1); \
	vcd2fst $$d/waves-sys.vcd $$d/waves-sys.fst && rm -f $$d/waves-sys.vcd; \
	{ scripts/gtkw.py demo $$d/waves-sys.fst $$d/waves-sys.gtkw --view=19500:$$((19500 + $(or $(DEMO_WAVES_CYCLES),6000))) \
	    --mark=$$fail_at node_0_0_0 node_1_0_0 $$( [ $$n -gt 2 ] && echo node_1_1_1 ) && \
	  scripts/gtkw.py rtl $$d/rtl.fst $$d/rtl.gtkw --view=$$((fail_at - 100)):$$((fail_at + 400)) \
	    --mark=$$fail_at 0 1 && \
	  scripts/gtkw.py check $$d/waves-sys.gtkw $$d/rtl.gtkw --mark-at=$$fail_at; } > $$d/gtkw-check.log 2>&1 \
	    || { cat $$d/gtkw-check.log; echo "demo-waves: a save file does not match its trace"; rc=1; }; \
	echo "RTL waveform: gtkwave $$d/rtl.gtkw   (routers 0 and 1: port_down, out_sunk, stat_fault_drops)"; \
	echo "system trace: gtkwave $$d/waves-sys.gtkw"; echo "full log: $$d/waves.log"; \
	if [ $$rc = 0 ]; then echo "demo-waves: the job finished with correct results"; \
	else echo "demo-waves: FAILED (status $$rc)"; exit 1; fi

# the router RTL story: a 4x4x4 torus under mixed traffic checked against the
# reference model, and a 2x2x2 on reliable links with bit errors
demo-rtl: $(T444) $(T222RL) | $(DEPS_STAMP)
	@echo "==== kolo demo-rtl, part 1: 4x4x4 torus, 64 routers, ideal links, mixed traffic ===="
	@echo "uniform/transpose/bit-complement/hotspot/neighbour traffic, half ordered, 0..32"
	@echo "payload flits, both virtual networks, every packet checked against the C model"
	@$(T444) --seed=$(DEMO_SEED) --pattern=uniform:4,transpose,bitcomp,hotspot,neighbor --len=0-32 \
	    --rate=0.25 --packets=12000 --warmup=2000 --progress=5000
	@echo
	@echo "==== part 2: 2x2x2 torus on reliable links, bit error rate 1e-5 on every lane ===="
	@echo "48 kolo_link ends (64b/66b lanes, scrambler, CRC-32C, sequence numbers, ACK/NAK,"
	@echo "replay): the link counters show the errors found and repaired; nothing is lost"
	@$(T222RL) --seed=$(DEMO_SEED) --pattern=uniform:4,transpose,bitcomp,hotspot,neighbor --len=0-32 \
	    --rate=0.3 --packets=6000 --ber=1e-5

# ---- waves ----------------------------------------------------------------------
# make waves TEST=torus-<name> [WAVE_START=<cycle>] [WAVE_CYCLES=<n>]
# Reruns the test on a traced build and writes build/waves/<name>.fst plus a
# GTKWave save file build/waves/<name>.gtkw (open: gtkwave build/waves/<name>.gtkw).
WAVE_START ?= 200
WAVE_CYCLES ?= 1000
WAVE_NAME = $(patsubst torus-%,%,$(TEST))
WAVE_CFG = $(TORUS_TEST_CFG_$(WAVE_NAME))
.PHONY: waves
waves: scripts/gtkw.py | $(DEPS_STAMP)
	@if [ -z "$(TEST)" ] || [ -z "$(WAVE_CFG)" ]; then \
	    echo "usage: make waves TEST=<test> [WAVE_START=cycle] [WAVE_CYCLES=n]"; \
	    echo "tests with waves: $(filter torus-%,$(TESTS))"; exit 2; fi
	@$(MAKE) --no-print-directory $(TORUS_BUILD)/$(WAVE_CFG)-trace/tb_torus
	@mkdir -p $(BUILD)/waves
	$(TORUS_BUILD)/$(WAVE_CFG)-trace/tb_torus $(TORUS_TEST_ARGS_$(WAVE_NAME)) \
	    --trace-file=$(BUILD)/waves/$(WAVE_NAME).fst --trace-start=$(WAVE_START) --trace-cycles=$(WAVE_CYCLES) \
	    || echo "waves: the test failed; its trace is written all the same"
	@scripts/gtkw.py torus $(BUILD)/waves/$(WAVE_NAME).fst $(BUILD)/waves/$(WAVE_NAME).gtkw \
	    --view=$(WAVE_START):$$(($(WAVE_START)+$(WAVE_CYCLES)))
	@scripts/gtkw.py check $(BUILD)/waves/$(WAVE_NAME).gtkw
	@echo "waves: $(BUILD)/waves/$(WAVE_NAME).fst, cycles $(WAVE_START)..$$(($(WAVE_START)+$(WAVE_CYCLES)))"
	@echo "view:  gtkwave $(BUILD)/waves/$(WAVE_NAME).gtkw"
