# mk/tb_router.mk - Verilator test of one kolo_router (tb/router), the harness
# playing all seven neighbours of a node of a configurable torus.
#
# One binary, build/tb/router/tb_router, for every configuration: the node,
# ring sizes and enabled ports are the router's run-time inputs cfg_*. The top
# is tb/router/tb_router_top.v (the router plus a view of its credit counters);
# built without --hierarchical, so the router's hier_block marker is inert.
#
#   make test-router-4x4x4    node (1,2,1) of 4x4x4: random traffic on every
#                             input port/VC, random backpressure, coverage
#   make test-router-ring     node (0,0,5) of a 1x1x8 ring and node (1,0,0) of a
#                             2x1x1 ring (ports disabled via cfg_port_en)
#   make test-router-badpkt   bad packets (dst, len, vc, route) dropped and
#                             counted, good traffic around them (4x4x4 and 1x1x8)
#   make bench-router_zero_load_cycles_per_hop
#   build/tb/router/tb_router --help      all run-time options
# SEED=<n> replays a seed (it overrides the default --seed of each test).

ROUTER_TB_BUILD := $(BUILD)/tb/router
ROUTER_TB_BIN := $(ROUTER_TB_BUILD)/tb_router
ROUTER_TB_RTL := $(wildcard rtl/common/*.v rtl/router/*.v) rtl/include/kolo_defs.vh rtl/include/kolo_ni_regs.vh
ROUTER_TB_DEPS := tb/router/tb_router.cpp tb/router/tb_router_top.v $(wildcard tb/common/*.h sw/rtlsim/*.h) \
                  $(KOLO_SW_SRCS) $(wildcard sw/include/*.h) mk/tb_router.mk
ROUTER_TB_VFLAGS := $(VL_CHECKS) --cc --exe --build -O3 -j 2 --x-assign fast --x-initial fast -Wno-fatal \
    -I$(TOP)/rtl/include -y $(TOP)/rtl/common -y $(TOP)/rtl/router --top-module tb_router_top
# No -O here: -CFLAGS come before Verilator's OPT_FAST (-Os, harness and model)
# and would only slow down compiling the one-off initialisation code.
ROUTER_TB_CFLAGS := -std=c++17 -Wall -I$(TOP)/tb/common -I$(TOP)/sw/rtlsim -I$(KOLO_SW_INC_ABS)

$(ROUTER_TB_BIN): $(ROUTER_TB_RTL) $(ROUTER_TB_DEPS) | $(DEPS_STAMP)
	@mkdir -p $(ROUTER_TB_BUILD)
	@echo "verilator tb_router (log: $(ROUTER_TB_BUILD)/build.log)"
	@cd $(ROUTER_TB_BUILD) && verilator $(ROUTER_TB_VFLAGS) --Mdir obj -o ../tb_router \
	    -CFLAGS "$(ROUTER_TB_CFLAGS)" $(TOP)/tb/router/tb_router_top.v $(TOP)/tb/router/tb_router.cpp \
	    $(KOLO_SW_SRCS_ABS) > build.log 2>&1 || { tail -n 40 build.log; exit 1; }

.PHONY: tb-router
tb-router: $(ROUTER_TB_BIN)

.PHONY: test-router-4x4x4 test-router-ring test-router-badpkt
test-router-4x4x4: $(ROUTER_TB_BIN) | $(DEPS_STAMP)
	$< --dims=4x4x4 --node=1,2,1 --mode=traffic --seed=201 --packets=30000
TESTS += router-4x4x4

test-router-ring: $(ROUTER_TB_BIN) | $(DEPS_STAMP)
	$< --dims=1x1x8 --node=0,0,5 --mode=traffic --seed=202 --packets=15000
	$< --dims=2x1x1 --node=1,0,0 --mode=traffic --seed=203 --packets=15000
TESTS += router-ring

test-router-badpkt: $(ROUTER_TB_BIN) | $(DEPS_STAMP)
	$< --dims=4x4x4 --node=1,2,1 --mode=badpkt --seed=204 --packets=10000
	$< --dims=1x1x8 --node=0,0,5 --mode=badpkt --seed=205 --packets=6000
TESTS += router-badpkt

# Head of a packet entering a network input -> head on a network output of the
# idle router, plus the 1-cycle ideal link (kolo_link_ideal LATENCY=1) to the
# next router's input: the cycles one hop adds in the torus.
.PHONY: bench-router_zero_load_cycles_per_hop
bench-router_zero_load_cycles_per_hop: $(ROUTER_TB_BIN) | $(DEPS_STAMP)
	@$< --dims=4x4x4 --node=1,2,1 --mode=zeroload --seed=1 --bench
BENCHES += router_zero_load_cycles_per_hop

# down ports (port_down): a router whose output link is down drops packets for
# it whole and never blocks the traffic behind them (tb/router/tb_router_down.cpp)
ROUTER_DOWN_BIN := $(ROUTER_TB_BUILD)_down/tb_router_down
$(ROUTER_DOWN_BIN): $(ROUTER_TB_RTL) tb/router/tb_router_down.cpp tb/router/tb_router_top.v $(wildcard tb/common/*.h sw/rtlsim/*.h) \
    $(KOLO_SW_SRCS) $(wildcard sw/include/*.h) mk/tb_router.mk | $(DEPS_STAMP)
	@mkdir -p $(ROUTER_TB_BUILD)_down
	@echo "verilator tb_router_down (log: $(ROUTER_TB_BUILD)_down/build.log)"
	@cd $(ROUTER_TB_BUILD)_down && verilator $(ROUTER_TB_VFLAGS) --Mdir obj -o ../tb_router_down \
	    -CFLAGS "$(ROUTER_TB_CFLAGS)" $(TOP)/tb/router/tb_router_top.v $(TOP)/tb/router/tb_router_down.cpp \
	    $(KOLO_SW_SRCS_ABS) > build.log 2>&1 || { tail -n 40 build.log; exit 1; }

.PHONY: test-router-down
test-router-down: $(ROUTER_DOWN_BIN) | $(DEPS_STAMP)
	$<
TESTS += router-down
