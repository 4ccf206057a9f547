# mk/tb_link.mk - Verilator tests of the reliable link (tb/link): two kolo_link
# ends A and B joined by C++ lane models (sw/rtlsim/kolo_lane_model.h), the
# harness playing the routers on both sides, traffic both ways at once.
#
# One binary per build variant: build/tb/link/<variant>/tb_link.
#   l1       LANES=1, default timers
#   l4       LANES=4 (lane clock 17.6 ns against the 4 ns core clock)
#   l2, l3   LANES=2, 3 (bandwidth benchmarks only)
#   l1short  LANES=1, TRAIN_BUDGET=20000 (link down / mis-cabling within seconds)
#
#   make test-link-<name>     one test (SEED=<n> replays a seed)
#   make test-unit-lane-model the lane model on its own
#   make bench-link_<name>    link benchmarks (efficiency, latency, recovery)
#   make tb-link-<variant>    just build a variant
#   build/tb/link/l1/tb_link --help    all run-time options

LINK_TB_BUILD := $(BUILD)/tb/link
LINK_TB_RTL := $(wildcard rtl/link/*.v rtl/common/*.v rtl/include/*.vh)
LINK_TB_DEPS := tb/link/tb_link.cpp tb/link/tb_link_top.v sw/rtlsim/kolo_lane_model.h \
                sw/rtlsim/kolo_rtl_bits.h tb/common/kolo_tb_util.h mk/tb_link.mk
LINK_TB_OBJCACHE := $(if $(shell command -v ccache),-MAKEFLAGS OBJCACHE=ccache)
# No -Wno-fatal: the RTL must build warning-free at Verilator's default level.
LINK_TB_VFLAGS := $(VL_CHECKS) --cc --exe --build -O3 -j 2 --x-assign fast --x-initial fast \
    -I$(TOP)/rtl/include -I$(TOP)/rtl/link -y $(TOP)/rtl/link -y $(TOP)/rtl/common \
    --top-module tb_link_top $(LINK_TB_OBJCACHE)
LINK_TB_CFLAGS := -std=c++17 -Wall -I$(TOP)/tb/common -I$(TOP)/sw/rtlsim -I$(TOP)/sw/include

# $(call link_variant,<variant>,<-G parameter flags>)
define link_variant
$(LINK_TB_BUILD)/$(1)/tb_link: $(LINK_TB_RTL) $(LINK_TB_DEPS) | $(DEPS_STAMP)
	@mkdir -p $(LINK_TB_BUILD)/$(1)
	@echo "verilator tb_link $(1) (log: $(LINK_TB_BUILD)/$(1)/build.log)"
	@cd $(LINK_TB_BUILD)/$(1) && verilator $(LINK_TB_VFLAGS) $(2) --Mdir obj -o ../tb_link \
	    -CFLAGS "$(LINK_TB_CFLAGS)" $(TOP)/tb/link/tb_link_top.v $(TOP)/tb/link/tb_link.cpp \
	    > build.log 2>&1 || { tail -n 40 build.log; exit 1; }
.PHONY: tb-link-$(1)
tb-link-$(1): $(LINK_TB_BUILD)/$(1)/tb_link
endef
$(eval $(call link_variant,l1,-GLANES=1))
$(eval $(call link_variant,l2,-GLANES=2))
$(eval $(call link_variant,l3,-GLANES=3))
$(eval $(call link_variant,l4,-GLANES=4))
$(eval $(call link_variant,l1short,-GLANES=1 -GTRAIN_BUDGET=20000))

# ---- the lane model on its own -------------------------------------------------------
LANE_MODEL_TEST := $(LINK_TB_BUILD)/test_lane_model
$(LANE_MODEL_TEST): tb/link/test_lane_model.cpp sw/rtlsim/kolo_lane_model.h tb/common/kolo_linkref.h \
    mk/tb_link.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	g++ -O2 -std=c++17 -Wall -Wextra -I$(TOP)/tb/common -I$(TOP)/sw/rtlsim $< -o $@

.PHONY: test-unit-lane-model
test-unit-lane-model: $(LANE_MODEL_TEST) | $(DEPS_STAMP)
	$<
TESTS += unit-lane-model

# ---- link tests ---------------------------------------------------------------------------
# $(call link_test,<name>,<variant>,<default seed>,<options>)
define link_test
.PHONY: test-$(1)
test-$(1): $(LINK_TB_BUILD)/$(2)/tb_link | $(DEPS_STAMP)
	$$< --seed=$(3) $(4)
TESTS += $(1)
endef

# Traffic both ways, random VCs, 0..32 payload flits, interleaved VCs, random
# drain delays and stalls at the receiving routers, +-100 ppm clocks. Every
# test checks the scoreboard (exactly once, in order, intact, sideband, no
# receive buffer overflow, credits never above OUT_CREDITS, all back at the
# end) and that the link did not go down unless the test expects it.
LINK_MIX := --len=0-32 --rate=0.6 --gap=0.05 --rx-delay=6 --stall=0.0005 --stall-len=400
LINK_L1 := $(LINK_TB_BUILD)/l1/tb_link
LINK_L4 := $(LINK_TB_BUILD)/l4/tb_link
LINK_L1S := $(LINK_TB_BUILD)/l1short/tb_link

# no errors: mixed traffic (router pauses inside packets break cut-through
# frames off: ABORT blocks must occur, and count as no error); then saturated
# senders with per-flit credits (packets stall half way), long receiver
# stalls, and the clocks the other way
$(eval $(call link_test,link-ber0,l1,301,$(LINK_MIX) --packets=40000 --expect-aborts))
test-link-ber0: test-link-ber0-sat
.PHONY: test-link-ber0-sat
test-link-ber0-sat: $(LINK_L1) | $(DEPS_STAMP)
	$< --seed=3011 --len=0-32 --rate=sat --vct=0 --stall=0.003 --stall-len=1000 --ppm=-100 --packets=10000
# about 0.1 bit errors expected in the run: loss-free is all it can show
$(eval $(call link_test,link-ber1e-9,l1,302,$(LINK_MIX) --packets=40000 --ber=1e-9))
$(eval $(call link_test,link-ber1e-6,l1,303,$(LINK_MIX) --packets=40000 --ppm=-100 --ber=1e-6 --expect-errors))
$(eval $(call link_test,link-ber1e-4,l1,304,$(LINK_MIX) --packets=20000 --ber=1e-4 --expect-errors))
# a 34-block frame survives 1e-3 one time in ten: short packets (the link
# crawls: a failed replay waits for the replay timer)
$(eval $(call link_test,link-ber1e-3,l1,305,--len=0-6 --rate=0.5 --rx-delay=6 --stall=0.001 --packets=3000 --ber=1e-3 --expect-errors))
# bursts of 12 garbled words, about 30 per direction
$(eval $(call link_test,link-bursts,l1,306,$(LINK_MIX) --packets=30000 --bursts=4e-5 --burst-len=12 --expect-errors))
# received words dropped or duplicated (elastic buffer faults)
$(eval $(call link_test,link-drop-dup,l1,307,$(LINK_MIX) --packets=30000 --drop-rate=4e-5 --dup-rate=4e-5 --expect-errors))
# control blocks only: every kind (IDLE, CC, INIT, CTRL, EOF, ABORT) at 3 %, then
# CTRL blocks (ACK, NAK, credits) alone at 20 %
$(eval $(call link_test,link-lost-ctrl,l1,308,$(LINK_MIX) --packets=20000 --lose-ctrl=0.03 --expect-ctrl-errors --expect-errors))
test-link-lost-ctrl: test-link-lost-ctrl-ctrl
.PHONY: test-link-lost-ctrl-ctrl
test-link-lost-ctrl-ctrl: $(LINK_L1) | $(DEPS_STAMP)
	$< --seed=3081 $(LINK_MIX) --packets=10000 --lose-ctrl=0.2 --lose-ctrl-kinds=ctrl --expect-ctrl-errors
# every CTRL block of one direction lost for about 3 replay timeouts: the
# other end hears no ACK and no NAK, its replay timer must fire (replays >
# naks_rcvd); A->B traffic only with A's ACKs cut, then both ways with B's
$(eval $(call link_test,link-replay-timer,l1,309,--dir=ab --len=0-32 --rate=0.6 --packets=3000 --cut-ctrl=3000:6500 --cut-ctrl-dir=ba --expect-timer-replay))
test-link-replay-timer: test-link-replay-timer-ab
.PHONY: test-link-replay-timer-ab
test-link-replay-timer-ab: $(LINK_L1) | $(DEPS_STAMP)
	$< --seed=3091 $(LINK_MIX) --packets=3000 --cut-ctrl=3000:12000 --cut-ctrl-dir=ab --expect-timer-replay
# a quarter of the data blocks A->B corrupted for 30 000 cycles: replays
# without progress, MAX_REPLAYS of them retrain (retrains > lock_losses), and
# nothing is lost
$(eval $(call link_test,link-retrain,l1,310,$(LINK_MIX) --len=16-32 --packets=6000 --data-errors=3000:30000:0.25 --expect-retrain))
# TRAIN_BUDGET 20000: both directions dead (random bits) for 50 000 cycles,
# then only A->B dead (zeros) for 40 000: the link goes down, drops and counts
# (lost <= pkts_dropped, nothing handed over while down arrives), returns
# every owed credit, comes back by itself and delivers what is sent after
$(eval $(call link_test,link-down-up,l1short,311,$(LINK_MIX) --rate=0.3 --packets=1500 --dead-at=4000 --dead-for=50000 --expect-down))
test-link-down-up: test-link-down-up-oneway
.PHONY: test-link-down-up-oneway
test-link-down-up-oneway: $(LINK_L1S) | $(DEPS_STAMP)
	$< --seed=3111 $(LINK_MIX) --rate=0.3 --packets=1500 --dead-at=4000 --dead-for=40000 --dead-dir=ab --dead-mode=zeros --expect-down
# B expects another neighbour: stat_miscabled and its counter, no link_up
# for 2 x TRAIN_BUDGET; then B's cfg_peer_id is corrected and traffic flows
$(eval $(call link_test,link-miscabled,l1short,312,$(LINK_MIX) --packets=500 --miscable))
$(eval $(call link_test,link-4lane-ber1e-6,l4,313,$(LINK_MIX) --lanes=4 --skew=3 --packets=25000 --ber=1e-6 --expect-errors))
# start-up bit slip on every lane, one lane and four (with lane skew)
.PHONY: test-link-slip
test-link-slip: $(LINK_L1) $(LINK_L4) | $(DEPS_STAMP)
	$(LINK_L1) --seed=314 $(LINK_MIX) --packets=3000 --slip
	$(LINK_L4) --seed=315 --lanes=4 --skew=3 $(LINK_MIX) --packets=3000 --slip
TESTS += link-slip

# ---- benchmarks ------------------------------------------------------------------------------
# efficiency: A->B saturated, 64-bit flit words delivered (headers included)
# per lane payload word (lane words x LANES) in a 100 000-cycle window
.PHONY: bench-link_efficiency_256B_ber0 bench-link_efficiency_256B_ber1e-6 bench-link_efficiency_32B_ber0
bench-link_efficiency_256B_ber0: $(LINK_L1) | $(DEPS_STAMP)
	$< --seed=1 --bench=eff --len=32 --bench-name=link_efficiency_256B_ber0
bench-link_efficiency_256B_ber1e-6: $(LINK_L1) | $(DEPS_STAMP)
	$< --seed=1 --bench=eff --len=32 --ber=1e-6 --window=400000 --bench-name=link_efficiency_256B_ber1e-6
bench-link_efficiency_32B_ber0: $(LINK_L1) | $(DEPS_STAMP)
	$< --seed=1 --bench=eff --len=4 --bench-name=link_efficiency_32B_ber0
BENCHES += link_efficiency_256B_ber0 link_efficiency_256B_ber1e-6 link_efficiency_32B_ber0

# zero-load latency of 4-flit packets, tx_valid at A to rx_valid at B, minus
# the lane model's delay; recovery: extra latency of a frame with one
# corrupted data block (NAK and replay)
.PHONY: bench-link_latency_cycles bench-link_recovery_cycles_after_error
bench-link_latency_cycles: $(LINK_L1) | $(DEPS_STAMP)
	$< --seed=1 --bench=lat --len=2 --iso-packets=300 --bench-name=link_latency_cycles
bench-link_recovery_cycles_after_error: $(LINK_L1) | $(DEPS_STAMP)
	$< --seed=1 --bench=rec --len=2 --iso-packets=300 --bench-name=link_recovery_cycles_after_error
BENCHES += link_latency_cycles link_recovery_cycles_after_error

# bandwidth per lane count: A->B saturated with 256-byte packets, Gb/s of
# router packet words (64 bits each, headers included) delivered at B. One
# lane runs at 10.3125 Gb/s (6.4 ns words); with n > 1 lanes the 64-bit core
# at 250 MHz takes one block per cycle, so the lanes run at the fastest rate
# it keeps up with, n x 4.4 ns per word (docs/link.md "Bandwidth").
LINK_BW_LANE_PS := 1:6400 2:8800 3:13200 4:17600
define link_bw_bench
.PHONY: bench-link_bandwidth_gbps_$(1)lane
bench-link_bandwidth_gbps_$(1)lane: $(LINK_TB_BUILD)/l$(1)/tb_link | $(DEPS_STAMP)
	$$< --seed=1 --bench=eff --gbps --len=32 --lanes=$(1) --lane-ps=$(2) --bench-name=link_bandwidth_gbps_$(1)lane
BENCHES += link_bandwidth_gbps_$(1)lane
endef
$(foreach b,$(LINK_BW_LANE_PS),$(eval $(call link_bw_bench,$(word 1,$(subst :, ,$(b))),$(word 2,$(subst :, ,$(b))))))
