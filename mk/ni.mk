# mk/ni.mk - tests and benchmarks of the NI RTL (rtl/ni/kolo_ni*.v, not the
# PCIe endpoint): two kolo_ni with the PCIe endpoint's user side and host
# memory played in C++ (tb/unit/ni), every run compared with the C reference
# model of the NI (sw/model/kolo_ni_model.c): host memory, completion
# entries, STATUS, counters and registers.
# Five builds of the harness: build/ni (the network between the two NIs
# played in C++: credits, checks of every packet, random delays),
# build/ni_small (NIs with small buffers: every buffer-full path),
# build/ni_torus (a real 2x1x1 kolo_torus, adaptive routing), and
# build/ni_2x2x2, build/ni_3x3x3 (8 and 27 NIs on real tori).
#
#   make test-unit-ni-<name>      one test (SEED=<n> replays a seed)
#   build/ni/obj/tb_ni --test=<basic|mix|errors|isolation|packets|dma-err|cq-wrap|tags|rate|
#                              e2e|e2e-directed|bench-latency|bench-bandwidth|bench-atomic>
#       [--seed=N] [--ops=N] [--ctx=N] [--lat=MIN:MAX] ...  (options: tb/unit/ni/tb_ni.cpp)
#   NI_TRACE=1 build/ni/obj/tb_ni ...   print DMA accesses and packets
#   make bench-ni_luts_xc7 bench-ni_ffs_xc7 bench-ni_bram_xc7
#                                 Yosys synth_xilinx estimate of kolo_ni (default parameters)
#   make bench-ni_<atomic|tx|cq|txq|sq>_logic_depth_xc7
#                                 LUT levels of kolo_ni_atomic, _tx, _cq, _txq, _sq (issue 21: <= 6)
#   make bench-put8_rate_dma bench-put8_rate_inline bench-put8_rate_pio
#                                 8-byte PUT message rates (Mmsg/s at 250 MHz); with _gen2x8,
#                                 _gen3x8, _gen3x16 on that PCIe link, _bound: what it allows
#   make bench-neighbor_latency_put8_ns bench-put_bandwidth_64KiB bench-atomic_rate ...
#                                 latency, bandwidth, atomics with a PCIe latency model (below)
#   make test-unit-ni-torus-3x3x3 27 NIs on a 3x3x3 torus (not in make test: build time)
#   make test-unit-ni-nidx        kolo_ni_nidx (node index) over every torus size, on Icarus
#   make test-unit-ni-atomic-hot-stale  --hot against kolo_ni_atomic's BUG_STALE_FWD (build/ni_stale;
#                                 not in make test: build time)

NI_BUILD := $(BUILD)/ni
NI_BIN := $(NI_BUILD)/obj/tb_ni
NI_RTL := $(filter-out rtl/ni/kolo_pcie_%,$(wildcard rtl/ni/kolo_ni*.v)) $(wildcard rtl/common/*.v \
          rtl/router/*.v rtl/torus/*.v rtl/link/*.v rtl/svc/*.v rtl/node/*.v rtl/include/*.vh)
NI_SW := sw/model/kolo_ni_model.c sw/model/kolo_model.c sw/route/kolo_route.c
NI_TB := tb/unit/ni/tb_ni.v tb/unit/ni/tb_ni.cpp tb/unit/ni/ni_world.h tb/unit/ni/pcie_link.h tb/unit/ni/svc_proc.h sw/include/kolo_svc_regs.h tb/unit/ni/tb_ni.vlt tb/unit/common/tb_util.h \
         sw/rtlsim/kolo_rtl_bits.h sw/include/kolo_ni_model.h sw/include/kolo_ni_regs.h sw/include/kolo_model.h sw/include/kolo_route.h
NI_OBJCACHE := $(if $(shell command -v ccache),-MAKEFLAGS OBJCACHE=ccache)

# $(call ni_build,<dir>,<TORUS>,<SMALL>[,<more verilator options>]): the harness
# with the C++ network (TORUS=0) or a kolo_torus (1), NIs with default or small (SMALL=1) buffers
define ni_build
$(1)/obj/tb_ni: $$(NI_RTL) $$(NI_SW) $$(NI_TB) mk/ni.mk | $$(DEPS_STAMP)
	@mkdir -p $(1)
	@echo "verilator tb_ni TORUS=$(2) (log: $(1)/build.log)"
	@verilator $(VL_CHECKS) --cc --exe --build -O3 -Wall -j 2 --x-assign fast --x-initial fast \
	    --top-module tb_ni -GTORUS=$(2) -GSMALL=$(3) $(4) -I$$(TOP)/rtl/include -y $$(TOP)/rtl/ni -y $$(TOP)/rtl/common \
	    -y $$(TOP)/rtl/router -y $$(TOP)/rtl/torus -y $$(TOP)/rtl/link -y $$(TOP)/rtl/svc -y $$(TOP)/rtl/node $$(NI_OBJCACHE) \
	    -CFLAGS "-O1 -std=c++17 -Wall -I$$(TOP)/tb/unit/ni -I$$(TOP)/tb/unit/common -I$$(TOP)/tb/common -I$$(TOP)/sw/rtlsim \
	             -I$$(TOP)/sw/include -DNI_TORUS=$(2)" \
	    --Mdir $(1)/obj -o tb_ni \
	    $$(TOP)/tb/unit/ni/tb_ni.v $$(TOP)/tb/unit/ni/tb_ni.cpp $$(addprefix $$(TOP)/,$$(NI_SW)) \
	    > $(1)/build.log 2>&1 || { tail -n 40 $(1)/build.log; exit 1; }
endef
$(eval $(call ni_build,$(NI_BUILD),0,0))
$(eval $(call ni_build,$(NI_BUILD)_torus,1,0))
$(eval $(call ni_build,$(NI_BUILD)_small,0,1))
# kolo_node per node (NI + service block), on a real 2x1x1 torus
$(eval $(call ni_build,$(NI_BUILD)_svc,1,0,-GSVC=1 -CFLAGS -DNI_SVC=1))
NI_SVC_BIN := $(NI_BUILD)_svc/obj/tb_ni
NI_TORUS_BIN := $(NI_BUILD)_torus/obj/tb_ni
NI_SMALL_BIN := $(NI_BUILD)_small/obj/tb_ni
# real tori of 2x2x2 and 3x3x3 NIs (tb_ni.vlt keeps kolo_ni and kolo_router out of the top
# module: fewer, smaller functions for the compiler); the tests say --torus=XxYxZ
ni_vdims = -GDIM_X=$(1) -GDIM_Y=$(2) -GDIM_Z=$(3) $$(TOP)/tb/unit/ni/tb_ni.vlt
$(eval $(call ni_build,$(NI_BUILD)_2x2x2,1,0,$(call ni_vdims,2,2,2)))
# the 3x3x3's C++ (27 NIs and routers: Verilator 5 emits code per instance) compiles at -O0
$(eval $(call ni_build,$(NI_BUILD)_3x3x3,1,0,$(call ni_vdims,3,3,3) -MAKEFLAGS OPT_FAST=-O0 -MAKEFLAGS OPT_SLOW=-O0))
NI_222_BIN := $(NI_BUILD)_2x2x2/obj/tb_ni
NI_333_BIN := $(NI_BUILD)_3x3x3/obj/tb_ni
# negative control of the --hot fetching check (not in make test: one more build, minutes of
# CPU): kolo_ni_atomic with its planted bug BUG_STALE_FWD on (a follower gets its predecessor's
# old value), from a copy whose parameter default is 1, found before rtl/ni (-y order)
$(eval $(call ni_build,$(NI_BUILD)_stale,0,0,-y $$(TOP)/$(NI_BUILD)_stale/rtl))
NI_STALE_BIN := $(NI_BUILD)_stale/obj/tb_ni
$(NI_STALE_BIN): $(NI_BUILD)_stale/rtl/kolo_ni_atomic.v
$(NI_BUILD)_stale/rtl/kolo_ni_atomic.v: rtl/ni/kolo_ni_atomic.v
	@mkdir -p $(@D)
	@sed 's/parameter BUG_STALE_FWD = 0/parameter BUG_STALE_FWD = 1/' $< > $@.tmp
	@grep -q 'parameter BUG_STALE_FWD = 1' $@.tmp && mv $@.tmp $@

.PHONY: tb-ni tb-ni-torus tb-ni-small tb-ni-2x2x2 tb-ni-3x3x3
tb-ni: $(NI_BIN)
tb-ni-torus: $(NI_TORUS_BIN)
tb-ni-small: $(NI_SMALL_BIN)
tb-ni-2x2x2: $(NI_222_BIN)
tb-ni-3x3x3: $(NI_333_BIN)

# $(call ni_test,<name>,<seed>,<options>)
define ni_test
.PHONY: test-unit-ni-$(1)
test-unit-ni-$(1): $(NI_BIN) | $(DEPS_STAMP)
	$$< --seed=$$(or $$(SEED),$(2)) $(3)
TESTS += unit-ni-$(1)
endef

$(eval $(call ni_test,basic,1,--test=basic))
# CYCLES (issue 18): one count per clock between seeded reads, halves, writes refused; the
# negative control cycles-half (the RTL's CYCLES read as a half-rate counter) must fail it
.PHONY: test-unit-ni-cycles
test-unit-ni-cycles: $(NI_BIN) | $(DEPS_STAMP)
	$< --seed=$(or $(SEED),29) --test=cycles
	@if $< --seed=$(or $(SEED),29) --test=cycles --bug=cycles-half > $(NI_BUILD)/plant-cycles-half.log 2>&1; then \
	    echo "FAIL unit-ni-cycles: plant cycles-half was not caught"; exit 1; \
	else echo "PASS unit-ni-cycles: plant cycles-half caught ($$(grep -m1 -o 'CYCLES moved.*' $(NI_BUILD)/plant-cycles-half.log))"; fi
TESTS += unit-ni-cycles
# the PCIe link model of the rate benchmarks (issue 21, tb/unit/ni/pcie_link.h): its counting
# rules on their own (test_pcie_link: native, ASan/UBSan, cases worked out by hand), then the
# 8-byte PUT rates on a Gen2 x8 link: data delivered, the TLPs counted as the rules say, no rate
# above what the link allows; the plant pcie-nogate (the link counts but never holds back) must fail
$(NI_BUILD)/test_pcie_link: tb/unit/ni/test_pcie_link.cpp tb/unit/ni/pcie_link.h tb/unit/common/tb_util.h \
    mk/ni.mk | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CXX) -std=c++17 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=all \
	    -Itb/unit/ni -Itb/unit/common $< -o $@
.PHONY: test-unit-ni-pcie-link
test-unit-ni-pcie-link: $(NI_BUILD)/test_pcie_link $(NI_BIN) | $(DEPS_STAMP)
	$(NI_BUILD)/test_pcie_link
	$(NI_BIN) --test=rate --pcie=gen2x8 --ops=512
	@if $(NI_BIN) --test=rate --pcie=gen2x8 --ops=512 --bug=pcie-nogate > $(NI_BUILD)/plant-pcie-nogate.log 2>&1; then \
	    echo "FAIL unit-ni-pcie-link: plant pcie-nogate was not caught"; exit 1; \
	else echo "PASS unit-ni-pcie-link: plant pcie-nogate caught ($$(grep -m1 -o 'put8_rate.*allows' $(NI_BUILD)/plant-pcie-nogate.log))"; fi
TESTS += unit-ni-pcie-link
$(eval $(call ni_test,mix,21,--test=mix --ops=8000))
$(eval $(call ni_test,mix-fast-dma,22,--test=mix --ops=4000 --lat=2:20 --reads=64))
$(eval $(call ni_test,mix-slow-dma,23,--test=mix --ops=3000 --lat=600:1500 --reads=32))
$(eval $(call ni_test,mix-backpressure,24,--test=mix --ops=3000 --rdy=20 --wrdy=15 --gap=50))
$(eval $(call ni_test,mix-16ctx,10,--test=mix --ops=6000 --ctx=16 --burst=200))
$(eval $(call ni_test,errors,3,--test=errors))
$(eval $(call ni_test,packets,4,--test=packets))
$(eval $(call ni_test,dma-err,5,--test=dma-err))
$(eval $(call ni_test,cq-wrap,6,--test=cq-wrap --ops=200))
$(eval $(call ni_test,tags,9,--test=tags --lat=1500:2500 --reads=1000 --elastic))
# a DMA write offer must hold until taken (kolo_ni_tgt once let an atomic's
# write replace an offered PUT beat); a slow write port makes offers wait
$(eval $(call ni_test,wr-hold,25,--test=mix --ops=1500 --wrdy=30))
# atomics only, in bursts of up to 400, 32 DMA reads in flight (the endpoint's REQS): the
# target keeps ATOMICS (32) atomics on distinct words in flight while atomics on a shared word
# wait for the one in flight (lost updates or fetched values out of order differ from the model)
$(eval $(call ni_test,atomic-burst,26,--test=mix --atomics --ops=3000 --burst=400 --reads=32))
# the same with every shared atomic on one word per size and target (--hot: ADD, FETCH_ADD,
# SWAP, CSWAP matching and not, 4 and 8 bytes, from both nodes' 3 contexts at once): the target
# chains them, each taking the previous one's value without a DMA read (kolo_ni_atomic); the
# model's network delivers them in the RTL's order (recorded from the targets' responses), so
# every fetched value is compared; and a mix of every operation kind with the hot words
$(eval $(call ni_test,atomic-hot,27,--test=mix --atomics --hot --ops=3000 --burst=400 --reads=32))
$(eval $(call ni_test,atomic-hot-mix,28,--test=mix --hot --ops=4000 --burst=200 --reads=32))
# negative control: the model given two hot atomics of the RTL's order swapped must differ
.PHONY: test-unit-ni-atomic-hot-order
test-unit-ni-atomic-hot-order: $(NI_BIN) | $(DEPS_STAMP)
	@if $< --seed=27 --test=mix --atomics --hot --ops=600 --burst=400 --reads=32 --bug=hotorder \
	    > $(NI_BUILD)/hotorder.log 2>&1; then \
	    echo "FAIL unit-ni-atomic-hot-order: a swapped order was not detected"; exit 1; \
	else grep -m1 "completions differ" $(NI_BUILD)/hotorder.log && echo "PASS unit-ni-atomic-hot-order"; fi
TESTS += unit-ni-atomic-hot-order
# negative control with kolo_ni_atomic's planted bug BUG_STALE_FWD (a follower gets its
# predecessor's old value; build/ni_stale, not in make test: one more Verilator build): the
# fetched values must differ from the model's
.PHONY: test-unit-ni-atomic-hot-stale
test-unit-ni-atomic-hot-stale: $(NI_STALE_BIN) | $(DEPS_STAMP)
	@if $< --seed=$(or $(SEED),27) --test=mix --atomics --hot --ops=3000 --burst=400 --reads=32 \
	    > $(NI_BUILD)_stale/stale.log 2>&1; then \
	    echo "FAIL unit-ni-atomic-hot-stale: BUG_STALE_FWD was not caught"; exit 1; \
	else grep -m1 "completions differ" $(NI_BUILD)_stale/stale.log && echo "PASS unit-ni-atomic-hot-stale"; fi

# end-to-end reliability (docs/ni.md section 10): the mix on a network that drops 5% of the
# packets (and in -lossy also duplicates and delays some beyond the timeout), compared with
# the model under the same losses and with a lossless run (exactly once); directed cases
$(eval $(call ni_test,e2e,41,--test=e2e --ops=3000 --drop=50))
$(eval $(call ni_test,e2e-lossy,42,--test=e2e --ops=2000 --ctx=4 --drop=50 --dup=30 --delay=30:6000))
$(eval $(call ni_test,e2e-directed,1,--test=e2e-directed))
# a reloaded initiator (docs/ni.md 10.1, tb_ni.cpp --test=e2e-reload): node 0's NI tables put
# back to their bitstream values without a reset while node 1 keeps its records: 256 PUTs after
# it must be executed (one RESYNC per tag) with more than one RESYNC in flight at once (the
# operations wait parked on their tags, issue 21), a PUT of one and of three packets whose
# RESYNC is lost end with TIMEOUT, operations that block their slot go after a reload, and
# with e2e then switched off 320 three-packet PUTs (every tag) must not resume the lost
# RESYNCs' dead parked operations (the PCIe cocotb failures of 9c181c7); the
# plant no-resync (the reload leaves every (destination, tag) known: the NI before RESYNC)
# must fail with its PUTs taken for repeats
.PHONY: test-unit-ni-e2e-reload
test-unit-ni-e2e-reload: $(NI_BIN) | $(DEPS_STAMP)
	$< --seed=$(or $(SEED),1) --test=e2e-reload
	@if $< --seed=1 --test=e2e-reload --plant=no-resync > $(NI_BUILD)/plant-no-resync.log 2>&1; then \
	    echo "FAIL unit-ni-e2e-reload: plant no-resync was not caught"; exit 1; \
	else grep -q "taken for repeats" $(NI_BUILD)/plant-no-resync.log && \
	    echo "PASS unit-ni-e2e-reload: plant no-resync caught ($$(grep -m1 -o 'taken for repeats.*' $(NI_BUILD)/plant-no-resync.log))"; fi
TESTS += unit-ni-e2e-reload

# negative control: an endpoint model that corrupts one DMA write must fail the comparison
.PHONY: test-unit-ni-negative
test-unit-ni-negative: $(NI_BIN) | $(DEPS_STAMP)
	@if $< --seed=1 --test=mix --ops=600 --bug=dmawr > $(NI_BUILD)/negative.log 2>&1; then \
	    echo "FAIL unit-ni-negative: a corrupted DMA write was not detected"; exit 1; \
	else grep -m1 "host memory differs" $(NI_BUILD)/negative.log; echo "PASS unit-ni-negative"; fi
TESTS += unit-ni-negative

# small buffers (every buffer-full path)
.PHONY: test-unit-ni-small test-unit-ni-small-tags test-unit-ni-small-errors
test-unit-ni-small: $(NI_SMALL_BIN) | $(DEPS_STAMP)
	$< --seed=$(or $(SEED),8) --test=mix --ops=4000 --ctx=5
test-unit-ni-small-tags: $(NI_SMALL_BIN) | $(DEPS_STAMP)
	$< --seed=$(or $(SEED),11) --test=tags --lat=1000:2000 --reads=1000 --elastic
test-unit-ni-small-errors: $(NI_SMALL_BIN) | $(DEPS_STAMP)
	$< --seed=$(or $(SEED),12) --test=errors
# end-to-end reliability with small buffers: lossy network with duplicates and delays
.PHONY: test-unit-ni-small-e2e
test-unit-ni-small-e2e: $(NI_SMALL_BIN) | $(DEPS_STAMP)
	$< --seed=$(or $(SEED),62) --test=e2e --ops=1500 --ctx=5 --drop=50 --dup=30 --delay=30:6000
TESTS += unit-ni-small unit-ni-small-tags unit-ni-small-errors unit-ni-small-e2e
# the same host programs through a real 2x1x1 kolo_torus (adaptive routing reorders)
.PHONY: test-unit-ni-torus test-unit-ni-torus-errors
test-unit-ni-torus: $(NI_TORUS_BIN) | $(DEPS_STAMP)
	$< --seed=$(or $(SEED),7) --test=mix --ops=3000
test-unit-ni-torus-errors: $(NI_TORUS_BIN) | $(DEPS_STAMP)
	$< --seed=$(or $(SEED),13) --test=errors
TESTS += unit-ni-torus unit-ni-torus-errors
# the node with its service block (kolo_node: NI + kolo_svc + BAR0 window) on a 2x1x1 torus:
# BAR0 window and host write protection, routing by the service block's table (BAD_DST and
# RT_UNREACHABLE for an invalid entry), MGMT packets in band during a mix compared with the model
.PHONY: test-unit-ni-svc
test-unit-ni-svc: $(NI_SVC_BIN) | $(DEPS_STAMP)
	$< --seed=$(or $(SEED),31) --test=svc --ops=3000 --mgmt=60
TESTS += unit-ni-svc
# a link fails during a mix with end-to-end on: the routers drop, the service processors
# install tables around it, the switch shortens the NIs' timers, lost operations are resent
.PHONY: test-unit-ni-svc-fault
test-unit-ni-svc-fault: $(NI_SVC_BIN) | $(DEPS_STAMP)
	$< --seed=$(or $(SEED),32) --test=svc-fault --ops=3000
TESTS += unit-ni-svc-fault

# contexts cannot reach each other's queues; a full SQ runs, a full CQ holds the NI back
$(eval $(call ni_test,isolation,14,--test=isolation))

# real 2x2x2 and 3x3x3 tori: every node initiates a random mix (PUT, GET, all atomics, inline,
# PIO, puts with signal whose order is checked at the target) to random destinations on
# 3 contexts; errors (outside the torus, keys, bounds, rights, unreachable) across the torus
.PHONY: test-unit-ni-torus-2x2x2 test-unit-ni-torus-2x2x2-errors test-unit-ni-torus-2x2x2-nofence \
    test-unit-ni-torus-3x3x3
test-unit-ni-torus-2x2x2: $(NI_222_BIN) | $(DEPS_STAMP)
	$< --seed=$(or $(SEED),31) --torus=2x2x2 --test=mix --ops=3000 --ctx=3 --signal=8
test-unit-ni-torus-2x2x2-errors: $(NI_222_BIN) | $(DEPS_STAMP)
	$< --seed=$(or $(SEED),32) --torus=2x2x2 --test=errors
# negative control: puts with signal without FENCE must be caught by the order check
test-unit-ni-torus-2x2x2-nofence: $(NI_222_BIN) | $(DEPS_STAMP)
	@if $< --seed=$(or $(SEED),31) --torus=2x2x2 --test=mix --ops=1000 --ctx=3 --signal=20 --bug=nofence \
	    > $(NI_BUILD)_2x2x2/nofence.log 2>&1; then \
	    echo "FAIL unit-ni-torus-2x2x2-nofence: signals without FENCE were not caught"; exit 1; \
	else grep -m1 "signals before their data" $(NI_BUILD)_2x2x2/nofence.log && echo "PASS unit-ni-torus-2x2x2-nofence"; fi
test-unit-ni-torus-3x3x3: $(NI_333_BIN) | $(DEPS_STAMP)
	$< --seed=$(or $(SEED),33) --torus=3x3x3 --test=mix --ops=4000 --ctx=3 --signal=8
TESTS += unit-ni-torus-2x2x2 unit-ni-torus-2x2x2-errors unit-ni-torus-2x2x2-nofence

# ---- benchmarks ---------------------------------------------------------------------
# message rates: 4096 8-byte PUTs node 0 -> node 1 (DMA read latency 125..250 cycles,
# 32 reads outstanding, the endpoint's REQS and TAGS defaults), without a PCIe bandwidth
# limit (put8_rate_<mode>) and on each PCIe link of tb/unit/ni/pcie_link.h
# (put8_rate_<mode>_<link>, TLP overheads counted; _bound: the rate the link's busiest
# direction allows for the wire bytes counted per PUT; docs/ni.md "PCIe link model")
NI_RATE_LINKS := gen2x8 gen3x8 gen3x16
NI_RATE_BENCHES := $(foreach m,dma inline pio,put8_rate_$(m) \
    $(foreach l,$(NI_RATE_LINKS),put8_rate_$(m)_$(l) put8_rate_$(m)_$(l)_bound))
.PHONY: $(NI_RATE_BENCHES:%=bench-%)
$(NI_BUILD)/rate.txt: $(NI_BIN)
	@$(NI_BIN) --test=rate --ops=4096 > $@.tmp && mv $@.tmp $@
$(NI_RATE_BENCHES:%=bench-%): bench-%: $(NI_BUILD)/rate.txt
	@grep "^BENCH $* " $<
BENCHES += $(NI_RATE_BENCHES)

# on the real 2x1x1 torus, node 0 -> its neighbour node 1, with the PCIe latency model of
# tb_ni.cpp (docs/ni.md, Benchmarks): host-to-host latency of an 8-byte PUT (PIO, descriptor,
# inline descriptor), 64 KiB PUT and GET bandwidth (16 back to back) with end-to-end
# reliability off and on (_e2e), atomic rates (2048 FETCH_ADDs on distinct words; for
# comparison on one word, and ADDs; each run also on the C model and compared)
NI_BENCH_LAT := neighbor_latency_put8_ns neighbor_latency_put8_dma_ns neighbor_latency_put8_inline_ns
NI_BENCH_BW := put_bandwidth_64KiB get_bandwidth_64KiB put_bandwidth_64KiB_e2e get_bandwidth_64KiB_e2e
NI_BENCH_ATOMIC := atomic_rate atomic_rate_one_word atomic_rate_add
$(NI_BUILD)_torus/bench-latency.txt: $(NI_TORUS_BIN)
	@$(NI_TORUS_BIN) --test=bench-latency > $@.tmp && mv $@.tmp $@
$(NI_BUILD)_torus/bench-bandwidth.txt: $(NI_TORUS_BIN)
	@$(NI_TORUS_BIN) --test=bench-bandwidth --ops=16 > $@.tmp && mv $@.tmp $@
$(NI_BUILD)_torus/bench-atomic.txt: $(NI_TORUS_BIN)
	@$(NI_TORUS_BIN) --test=bench-atomic --ops=2048 > $@.tmp && mv $@.tmp $@
.PHONY: $(addprefix bench-,$(NI_BENCH_LAT) $(NI_BENCH_BW) $(NI_BENCH_ATOMIC))
$(addprefix bench-,$(NI_BENCH_LAT)): bench-%: $(NI_BUILD)_torus/bench-latency.txt
	@grep "^$*:" $< ; grep "^BENCH $* " $<
$(addprefix bench-,$(NI_BENCH_BW)): bench-%: $(NI_BUILD)_torus/bench-bandwidth.txt
	@grep "^$*:" $< ; grep "^BENCH $* " $<
$(addprefix bench-,$(NI_BENCH_ATOMIC)): bench-%: $(NI_BUILD)_torus/bench-atomic.txt
	@grep "^$*:" $< ; grep "^BENCH $* " $<
BENCHES += $(NI_BENCH_LAT) $(NI_BENCH_BW) $(NI_BENCH_ATOMIC)

# Yosys synth_xilinx of kolo_ni, and of kolo_node (NI + service block + BAR0 window), at
# default parameters (mk/synth.mk, scripts/synth.sh)
$(eval $(call synth_unit,ni))
$(eval $(call synth_unit,node))
# and of the NI blocks issue 21 brought to <= 6 LUT levels (kolo_ni_atomic, kolo_ni_tx; a
# minute together): bench-ni_atomic_logic_depth_xc7, bench-ni_tx_logic_depth_xc7 (docs/ni.md)
$(eval $(call synth_unit,ni_atomic))
$(eval $(call synth_unit,ni_tx))
# kolo_ni_cq, kolo_ni_txq, kolo_ni_sq (seconds each): bench-ni_cq_logic_depth_xc7, ..._txq_..., ..._sq_...
$(eval $(call synth_unit,ni_cq))
$(eval $(call synth_unit,ni_txq))
$(eval $(call synth_unit,ni_sq))

# the target's atomic unit (kolo_ni_atomic) against a reference, on Icarus (a few seconds):
# random atomics on 8 words, then a stream to one word (chains: each follows the previous
# one's value), with random DMA latencies, out-of-order read data and failed reads; and its
# planted bugs (no word lock: atomics on one word overlap; stale forwarded value: a follower
# gets its predecessor's old value) must be caught
NI_ATOMIC_SRC := tb/unit/ni_atomic/tb_ni_atomic.v rtl/ni/kolo_ni_atomic.v rtl/common/kolo_fifo_sync.v
NI_ATOMIC_BUGS := NO_LOCK STALE_FWD
$(BUILD)/ni_atomic/tb.vvp $(patsubst %,$(BUILD)/ni_atomic/tb_bug_%.vvp,$(NI_ATOMIC_BUGS)): $(NI_ATOMIC_SRC) rtl/include/kolo_ni_regs.vh | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	iverilog -g2012 -Wall -Irtl/include $(if $(findstring bug,$@),-P tb_ni_atomic.BUG_$(patsubst tb_bug_%.vvp,%,$(notdir $@))=1) \
	    -o $@ -s tb_ni_atomic $(NI_ATOMIC_SRC)
.PHONY: test-unit-ni-atomic
test-unit-ni-atomic: $(BUILD)/ni_atomic/tb.vvp $(patsubst %,$(BUILD)/ni_atomic/tb_bug_%.vvp,$(NI_ATOMIC_BUGS))
	@for w in 8 1; do vvp -n $(BUILD)/ni_atomic/tb.vvp +seed=$(or $(SEED),1) +words=$$w > $(BUILD)/ni_atomic/run.log; \
	    cat $(BUILD)/ni_atomic/run.log; grep -q "^PASS tb_ni_atomic" $(BUILD)/ni_atomic/run.log || exit 1; done
	@for bw in NO_LOCK:8 STALE_FWD:8 STALE_FWD:1; do b=$${bw%:*}; w=$${bw#*:}; \
	    vvp -n $(BUILD)/ni_atomic/tb_bug_$$b.vvp +seed=1 +words=$$w > $(BUILD)/ni_atomic/bug.log 2>&1; \
	    if grep -q "^FAIL tb_ni_atomic" $(BUILD)/ni_atomic/bug.log; then \
	        echo "PASS unit-ni-atomic planted bug $$b caught ($$w words): $$(grep -m1 '^FAIL: ' $(BUILD)/ni_atomic/bug.log)"; \
	    else echo "FAIL unit-ni-atomic: the planted bug $$b was not caught ($$w words)"; exit 1; fi; done
TESTS += unit-ni-atomic

# the ejection buffers (kolo_ni_ej) against a reference, on Icarus (seconds): packets on the
# 4 VCs against the credits, interleaved, with gaps and in bursts, some cut short; heads are
# offered once whole or from their tail's cycle (the tail bypass); order, data, verdicts and
# "never runs dry" are checked. The planted bug (the verdict queued for a packet taken at its
# tail is kept: the next packet gets it and is offered before it is whole) must be caught.
NI_EJ_SRC := tb/unit/ni_ej/tb_ni_ej.v rtl/ni/kolo_ni_ej.v rtl/ni/kolo_ni_skid.v rtl/common/kolo_fifo_sync.v
$(BUILD)/ni_ej/tb.vvp $(BUILD)/ni_ej/tb_bug.vvp: $(NI_EJ_SRC) rtl/include/kolo_defs.vh | $(DEPS_STAMP)
	@mkdir -p $(@D)
	iverilog -g2012 -Wall -Irtl/include $(if $(findstring bug,$@),-P tb_ni_ej.BUG_NO_SKIP=1) \
	    -o $@ -s tb_ni_ej $(NI_EJ_SRC)
.PHONY: test-unit-ni-ej
test-unit-ni-ej: $(BUILD)/ni_ej/tb.vvp $(BUILD)/ni_ej/tb_bug.vvp
	@vvp -n $(BUILD)/ni_ej/tb.vvp +seed=$(or $(SEED),1) > $(BUILD)/ni_ej/run.log; \
	    cat $(BUILD)/ni_ej/run.log; grep -q "^PASS tb_ni_ej" $(BUILD)/ni_ej/run.log
	@if vvp -n $(BUILD)/ni_ej/tb_bug.vvp +seed=1 > $(BUILD)/ni_ej/bug.log 2>&1 && \
	    ! grep -q "FAIL\|FATAL" $(BUILD)/ni_ej/bug.log; then \
	    echo "FAIL unit-ni-ej: the planted bug (a verdict kept after the tail bypass) was not caught"; exit 1; \
	else echo "PASS unit-ni-ej planted bug caught: $$(grep -m1 'FAIL\|FATAL' $(BUILD)/ni_ej/bug.log)"; fi
TESTS += unit-ni-ej

# the node index (kolo_ni_nidx: x + X*(y + Y*z) from tables of multiples of X and X*Y loaded
# from the torus size) against the formula, on Icarus (a minute): every torus size (4096), each
# set in reset as the module's rule allows, then all its ids inside the torus (idx, ok) and one
# past each ring's end (ok), checked in the first cycle out of reset. The planted bug BUG_STALE
# (the tables one cycle late: the previous size's products in that cycle) must be caught.
NI_NIDX_SRC := tb/unit/ni_nidx/tb_ni_nidx.v rtl/ni/kolo_ni_nidx.v
$(BUILD)/ni_nidx/tb.vvp $(BUILD)/ni_nidx/tb_bug.vvp: $(NI_NIDX_SRC) rtl/include/kolo_assert.vh | $(DEPS_STAMP)
	@mkdir -p $(@D)
	iverilog -g2012 -Wall -Irtl/include $(if $(findstring bug,$@),-P tb_ni_nidx.BUG_STALE=1) \
	    -o $@ -s tb_ni_nidx $(NI_NIDX_SRC)
.PHONY: test-unit-ni-nidx
test-unit-ni-nidx: $(BUILD)/ni_nidx/tb.vvp $(BUILD)/ni_nidx/tb_bug.vvp
	@vvp -n $(BUILD)/ni_nidx/tb.vvp > $(BUILD)/ni_nidx/run.log; \
	    cat $(BUILD)/ni_nidx/run.log; grep -q "^PASS tb_ni_nidx" $(BUILD)/ni_nidx/run.log
	@vvp -n $(BUILD)/ni_nidx/tb_bug.vvp > $(BUILD)/ni_nidx/bug.log 2>&1; \
	if grep -q "^FAIL tb_ni_nidx" $(BUILD)/ni_nidx/bug.log; then \
	    echo "PASS unit-ni-nidx planted bug BUG_STALE caught: $$(grep -m1 '^FAIL: ' $(BUILD)/ni_nidx/bug.log); $$(grep '^FAIL tb_ni_nidx' $(BUILD)/ni_nidx/bug.log)"; \
	else echo "FAIL unit-ni-nidx: the planted bug BUG_STALE was not caught"; exit 1; fi
TESTS += unit-ni-nidx
