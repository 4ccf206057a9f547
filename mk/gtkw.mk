# mk/gtkw.mk - the GTKWave save files kolo writes, checked against their traces.
# Every target that writes a .gtkw (make demo, make waves, make demo-waves, and
# any later one) writes it with scripts/gtkw.py and runs `scripts/gtkw.py check`
# on it before it says it is done. test-gtkw makes each kind on the smallest
# torus (the demo's own save file is checked inside test-demo-2x2x2; the chip kind
# from 2000 cycles of two kolo_chips, kolo-sim --net=chip, ~5 s; the net kind
# from formal/net/testdata/ring2_deadlock.vcd, the BUBBLE 0 counterexample of
# make formal-net-deadlock cut to the save file's signals, and from
# formal/net/testdata/torus2x2_deadlock.vcd, the cyclic table set's counterexample
# of make formal-full-torus cut with formal/net/vcd_cut.py), checks
# them, and plants faults that the check must find: a signal name that is not
# in the trace, a view after the end of the trace, a marker outside the view.
GTKW_T := $(BUILD)/gtkw-test
.PHONY: test-gtkw
test-gtkw: scripts/gtkw.py formal/net/quiet_start.py formal/net/testdata/ring2_deadlock.vcd formal/net/testdata/torus2x2_deadlock.vcd $(BUILD)/tb/torus/2x1x1-trace/tb_torus $(BUILD)/sim/kolo-sim-trace-2x1x1 \
    $(BUILD)/sim/kolo-sim-chip-2x1x1 $(BUILD)/sim/tests/sim_test_pe | $(DEPS_STAMP)
	@rm -rf $(GTKW_T) && mkdir -p $(GTKW_T)
	@$(MAKE) --no-print-directory waves TEST=torus-2x1x1-mixed WAVE_START=300 WAVE_CYCLES=400 > $(GTKW_T)/waves.log 2>&1 \
	    || { cat $(GTKW_T)/waves.log; echo "FAIL: make waves"; exit 1; }
	@grep '^gtkw: .*waves' $(GTKW_T)/waves.log
	@$(MAKE) --no-print-directory demo-waves DEMO_WAVES_TORUS=2x1x1 DEMO_WAVES_DIR=$(GTKW_T) DEMO_WAVES_ROUNDS=40 \
	    DEMO_WAVES_CYCLES=3000 > $(GTKW_T)/demo-waves.log 2>&1 \
	    || { cat $(GTKW_T)/demo-waves.log; echo "FAIL: make demo-waves"; exit 1; }
	@cat $(GTKW_T)/gtkw-check.log
	@cp $(BUILD)/waves/2x1x1-mixed.gtkw $(GTKW_T)/waves.gtkw
	@# the chip kind (kolo-sim --net=chip --rtl-trace, make demo-chip): 2 chips, 2000 cycles
	@$(KOLO_RUN) -t 2x1x1 -n 2 --net=chip --timeout=300 --rtl-trace=$(GTKW_T)/chip.fst --trace-window=4000:2000 \
	    $(BUILD)/sim/tests/sim_test_pe ops > $(GTKW_T)/chip.log 2>&1 || { cat $(GTKW_T)/chip.log; echo "FAIL: chip trace"; exit 1; }
	@scripts/gtkw.py chip $(GTKW_T)/chip.fst $(GTKW_T)/chip.gtkw --view=4000:6000 --mark=5000 \
	    chip_0_0_0_xp chip_1_0_0_xm > /dev/null && scripts/gtkw.py check $(GTKW_T)/chip.gtkw --mark-at=5000
	@# the net kind (make formal-net-deadlock): its counterexample trace, cut to the save file's signals
	@formal/net/vcd_to_fst.sh formal/net/testdata/ring2_deadlock.vcd $(GTKW_T)/net.fst && \
	  m=$$(formal/net/quiet_start.py formal/net/testdata/ring2_deadlock.vcd) && [ "$$m" = 8 ] && \
	  scripts/gtkw.py net $(GTKW_T)/net.fst $(GTKW_T)/net.gtkw --view=0:26 --mark=$$m > /dev/null && \
	  scripts/gtkw.py check $(GTKW_T)/net.gtkw --mark-at=8 || { echo "FAIL: net save file"; exit 1; }
	@formal/net/vcd_to_fst.sh formal/net/testdata/torus2x2_deadlock.vcd $(GTKW_T)/net-torus.fst && \
	  m=$$(formal/net/quiet_start.py formal/net/testdata/torus2x2_deadlock.vcd) && [ "$$m" = 8 ] && \
	  scripts/gtkw.py net $(GTKW_T)/net-torus.fst $(GTKW_T)/net-torus.gtkw --nodes=4 --view=0:18 --mark=$$m > /dev/null && \
	  scripts/gtkw.py check $(GTKW_T)/net-torus.gtkw --mark-at=8 || { echo "FAIL: net save file (torus)"; exit 1; }
	@sed '/^#70$$/,$$d' formal/net/testdata/ring2_deadlock.vcd > $(GTKW_T)/net-moving.vcd; \
	  if formal/net/quiet_start.py $(GTKW_T)/net-moving.vcd > /dev/null 2>&1; then \
	    echo "FAIL: quiet_start.py found a deadlock in a trace cut before it"; exit 1; \
	  else echo "planted: quiet_start.py finds no deadlock in the trace cut at step 7"; fi
	@fail=0; for g in waves waves-sys rtl chip net net-torus; do \
	    for k in name view mark; do \
	        scripts/gtkw.py plant $$k $(GTKW_T)/$$g.gtkw $(GTKW_T)/bad-$$k-$$g.gtkw || { fail=1; continue; }; \
	        if scripts/gtkw.py check $(GTKW_T)/bad-$$k-$$g.gtkw > $(GTKW_T)/bad-$$k-$$g.log 2>&1; then \
	            echo "FAIL: the check passed $$g.gtkw with a planted $$k fault"; fail=1; \
	        else echo "planted $$k fault in $$g.gtkw: $$(head -n 1 $(GTKW_T)/bad-$$k-$$g.log)"; fi; \
	    done; \
	done; \
	[ $$fail = 0 ] && echo "gtkw: PASS"; exit $$fail
TESTS += gtkw
