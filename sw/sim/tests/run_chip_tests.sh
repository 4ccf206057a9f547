#!/bin/bash
# run_chip_tests.sh - kolo-sim --net=chip: whole kolo_chips joined lane to lane
# (mk/sim_chip.mk, docs/sim.md "--net=chip").
#   sw/sim/tests/run_chip_tests.sh BUILD_DIR TEST
# TEST:
#   ops      NI operations of sim_test_pe on 2 chips (2x1x1), every result checked
#            in the PEs' memory, every packet from injection to ejection
#   2x2x1    the same on 4 chips (2x2x1): every chip's firmware boots with the
#            straps it reads (node id, torus) checked; negative control: with
#            --fault=svcbus (chips 1..3 reach only address 0 of their service
#            blocks, the signature of the 2x2x1 boot failure of issue 16) the
#            run ends at boot with the firmware's own lines, not at the limit;
#            a node that dies while the simulator skips idle cycles is settled
#   sp       ops on 4 chips (2x2x1) whose service processors are the RTL RV32
#            cores inside them (kolo_sp, SP_INTERNAL 1) running the firmware image
#            (build/fw/rv32/kolo_fw_rv32_sim): kolo-sim-chip-sp-2x2x1
#   shmem    OpenSHMEM programs, unmodified, on 4 chips (2x2x1)
#   sp-shmem the same programs on 4 chips whose service processors are their RTL
#            RV32 cores (kolo-sim-chip-sp-2x2x1): the tables the cores computed
#            carry the program's traffic; every core printed the image's banner
#   checks   the checkers notice planted faults (corrupted, lost, duplicated
#            packets); refusals of options the chips cannot take
#   fault    the fault story on 2x2x1: a link's lanes cut under traffic (the
#            link goes down, the service processors flood and install new tables,
#            the NIs resend, results correct, every dropped packet accounted for),
#            then the same with a node that dies
#   sp-fault the fault story on 2x2x1 chips whose service processors are their
#            RTL RV32 cores (kolo-sim-chip-sp-2x2x1): the cores see the link go
#            down, flood, recompute and install; a link cut, then a node that
#            dies. The cores recover in about 180000 cycles (whole-set tables
#            and checks), as long as the NIs' default patience (9 x 20000
#            cycles): the NIs get E2E_TIMEOUT 65536 (docs/sim.md)
#   bench    2x2x1, firmware on the RTL cores: the fault story with BENCH lines
#            (chip_fault_recovery_cycles: link cut to new tables everywhere)
#   bench-2x2x2  2x2x2 with the native firmware (chip_fault_2x2x2_native_*)
#   bench-2x2x2-sp  2x2x2 with the firmware on the RTL cores
#            (kolo-sim-chip-sp-2x2x2; chip_fault_2x2x2_sp_*): a recomputation of
#            8 nodes takes the cores about 550000 cycles, so the NIs get
#            E2E_TIMEOUT 131072 (9 tries outlast it); about 20 min of wall time
set -u
build=$1 test=$2
RUN=$build/sim/kolo-run
PE=$build/sim/tests/sim_test_pe
WORK=$build/examples/torus_work
SHMEM=$build/lib/shmem_tests
tmp=$(mktemp -d /tmp/kolo-chip-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/expect.sh"
OKW="torus_work: [0-9]+ PEs, [0-9]+ rounds: .* 0 data errors: ok"

# after a run with faults: every fault handled, tables checked, losses named
settled_ok() {
    local what=$1
    if grep -q "tables not settled" <<<"$out"; then
        fail "$what: a fault was not handled (tables not settled)"
        return
    fi
    if ! grep -qE "every live node routes with the new tables" <<<"$out"; then
        fail "$what: no table installed after the fault"
        return
    fi
    if ! grep -qE "packets lost: [0-9]+ by routers at down ports, [0-9]+ on links" <<<"$out"; then
        fail "$what: no account of the lost packets"
        return
    fi
    echo "  $what: $(grep -oE 'packets lost: [^;]*' <<<"$out" | head -n 1)"
}

# settled_ok, and the tables came from the RTL cores (kolo-sim-chip-sp-*): the
# report names them and every core printed the image's banner
sp_settled_ok() {
    local what=$1 banners nodes
    grep -q "service processors (chips, firmware on kolo_sp)" <<<"$out" \
        || { fail "$what: the service processors were not the chips' kolo_sp cores"; return; }
    nodes=$(grep -oE "^torus [0-9x]+ \([0-9]+ nodes" <<<"$out" | grep -oE '[0-9]+ nodes' | grep -oE '[0-9]+')
    banners=$(grep -c "\] kolo firmware [0-9.]* (RV32IM, kolo_sp)$" <<<"$out")
    [ "$banners" = "${nodes:-0}" ] || { fail "$what: $banners console banners of the RV32 image, want ${nodes:-?}"; return; }
    settled_ok "$what"
}

# after a run: the firmware booted (its time counted), the tables it installed
# were checked by the core, every packet was checked
booted_ok() {
    local what=$1 boot checked inj err
    boot=$(grep -oE "service processors booted in [0-9]+ cycles" <<<"$out" | grep -oE '[0-9]+')
    checked=$(grep -oE "installed table sets checked [0-9]+" <<<"$out" | grep -oE '[0-9]+$')
    inj=$(grep -oE "scoreboard: [0-9]+ injected" <<<"$out" | grep -oE '[0-9]+')
    err=$(grep -oE "hops checked, [0-9]+ errors" <<<"$out" | grep -oE '[0-9]+ errors' | grep -oE '[0-9]+')
    [ "${boot:-0}" -gt 0 ] || fail "$what: no boot time of the service processors"
    [ "${checked:-0}" -gt 0 ] || fail "$what: the tables the firmware installed were not checked"
    [ "${inj:-0}" -gt 0 ] && [ "${err:-1}" = 0 ] || fail "$what: no packet checked, or errors"
    echo "  $what: booted in ${boot:-?} cycles, ${checked:-0} table sets checked, ${inj:-0} packets checked"
}

case $test in
ops)
    expect 0 "network chip \(kolo_chip RTL\)" -- "$RUN" -t 2x1x1 -n 2 --net=chip --timeout=300 --report=full "$PE" ops
    booted_ok "chips 2x1x1"
    # chip 0 takes its completions with the requests, chip 1 on rx_cpl_*
    # (kolo_chip_sim.h); both within the completion buffer, both hosts' reads
    # sent on the chips' non-posted credits
    merged=$(grep -cE "completions [1-9][0-9]* \(merged, 0 on rx_cpl\)" <<<"$out")
    split=$(grep -oE "completions [1-9][0-9]* \([1-9][0-9]* on rx_cpl\)" <<<"$out" | head -n 1)
    credits=$(grep -cE "np credits [1-9][0-9]*; TLP violations 0" <<<"$out")
    [ "$merged" = 1 ] && [ -n "$split" ] && [ "$credits" = 2 ] ||
        fail "chips 2x1x1: completions merged on $merged chip(s), split: '$split', $credits chip(s) with credits and no violations"
    echo "  chips 2x1x1: chip 1 $split"
    ;;
2x2x1)
    expect 0 "network chip \(kolo_chip RTL\)" -- "$RUN" -t 2x2x1 -n 4 --net=chip --timeout=300 --report "$PE" ops
    booted_ok "chips 2x2x1"
    # the watchdog is far above the ~100 cycles the boot check needs: a run that
    # waited for the 2000000-cycle boot limit would fail on its status and message
    expect 125 "node index 1: firmware FAILED at boot, 1 bus errors; it read node id 0xc53, torus 4x6x13 .*straps: 0x001, 2x2x1" \
        -- "$RUN" -t 2x2x1 -n 4 --net=chip --timeout=120 --fault=svcbus "$PE" ops
    grep -q "fw: routing workspace too small" <<<"$out" || fail "svcbus: the firmware's own line is not shown"
    expect 2 "--fault=svcbus needs --net=chip" -- "$RUN" -t 2x2x1 -n 4 --fault=svcbus "$PE" ops
    # a fault while the simulator skips idle cycles (the PEs sleep until cycle 300000,
    # the node dies at 200000): the chips are stepped until their links notice; the
    # chips' install times are on the simulator's clock
    # (they were on the count of stepped cycles, older than the fault: "tables not
    # settled", the node death of make demo-chip)
    expect 0 "network chip" -- "$RUN" -t 2x2x1 -n 3 --net=chip --timeout=300 --report \
        --fail-node=200000:3 "$PE" idle-ops 300000 && settled_ok "chips: a node dies while the simulator idles"
    # noticed with no traffic at all: new tables before the PEs wake at 300000 (the
    # links of an idle chip were not stepped after a fault: the death went unnoticed
    # until the PEs' traffic, +122000 cycles)
    at=$(grep -oE "node \(1,1,0\) failed; new tables everywhere at cycle [0-9]+" <<<"$out" | grep -oE '[0-9]+$')
    [ -n "$at" ] && [ "$at" -lt 300000 ] || fail "idle node death: new tables at cycle ${at:-never}, want before 300000"
    # (the simulator did skip: at least 100000 of the cycles before the fault)
    cyc=$(grep -oE "^cycles [0-9]+ \([0-9.]+ us at [0-9]+ MHz; [0-9]+ stepped" <<<"$out" | grep -oE '[0-9]+' | sed -n '1p;4p' | tr '\n' ' ')
    set -- $cyc
    [ $# = 2 ] && [ $(($1 - $2)) -ge 100000 ] || fail "idle node death: cycles/stepped '$cyc': the simulator did not skip"
    ;;
sp)
    KOLO_SIM=$build/sim/kolo-sim-chip-sp-2x2x1 expect 0 "service processors \(chips, firmware on kolo_sp\)" \
        -- "$RUN" -t 2x2x1 -n 4 --net=chip --timeout=300 --report=full "$PE" ops
    booted_ok "chips 2x2x1, firmware on kolo_sp"
    # each chip's processor printed the image's banner on its console
    banners=$(grep -c "\] kolo firmware [0-9.]* (RV32IM, kolo_sp)$" <<<"$out")
    [ "$banners" = 4 ] || fail "chips 2x2x1, firmware on kolo_sp: $banners console banners of the RV32 image, want 4"
    ;;
shmem)
    for t in t_amo t_signal; do
        expect 0 "" -- "$RUN" -t 2x2x1 -n 4 --net=chip --timeout=600 "$SHMEM/$t"
    done
    ;;
sp-shmem)
    for t in t_amo t_signal; do
        KOLO_SIM=$build/sim/kolo-sim-chip-sp-2x2x1 expect 0 "$t: PASS" \
            -- "$RUN" -t 2x2x1 -n 4 --net=chip --timeout=900 --report=full "$SHMEM/$t"
        booted_ok "$t on chips 2x2x1, firmware on kolo_sp"
        banners=$(grep -c "\] kolo firmware [0-9.]* (RV32IM, kolo_sp)$" <<<"$out")
        [ "$banners" = 4 ] || fail "$t, firmware on kolo_sp: $banners console banners of the RV32 image, want 4"
    done
    ;;
checks)
    expect 125 "scoreboard: delivery at .*no NI injected" -- "$RUN" -t 2x1x1 -n 2 --net=chip --timeout=120 \
        --fault=corrupt "$PE" ops
    # a lost request shows when its response is sent or comes, a lost response at the end;
    # --no-e2e: with end-to-end on (the chips' default) the oracle would wait for a
    # retransmission of a packet the RTL did deliver, and only the 200000-cycle watchdog ends it
    lost="never delivered \(lost\)|before the request it answers had arrived|but no such request has arrived there"
    expect 125 "$lost" -- "$RUN" -t 2x1x1 -n 2 --net=chip --no-e2e --timeout=120 --fault=drop:3 "$PE" ops
    expect 125 "scoreboard: delivery at .*no NI injected" -- "$RUN" -t 2x1x1 -n 2 --net=chip --timeout=120 \
        --fault=dup:5 "$PE" ops
    expect 2 "need the C NI model" -- "$RUN" -t 2x1x1 -n 2 --net=chip --fault=reorder "$PE" ops
    expect 2 "--fault=tlp needs --ni=rtl" -- "$RUN" -t 2x1x1 -n 2 --net=chip --fault=tlp "$PE" ops
    expect 2 "need the C NI model" -- "$RUN" -t 2x1x1 -n 2 --net=chip --ctl "$PE" ops
    expect 2 "bad --net 'chips'" -- "$RUN" --net=chips "$PE" ops
    if [ ! -x "$build/sim/kolo-sim-chip-7x1x1" ]; then
        expect 126 "make sim-chip-7x1x1" -- "$RUN" -t 7x1x1 -n 2 --net=chip "$PE" ops
    fi
    ;;
fault)
    T="-t 2x2x1 -n 3 --net=chip --timeout=900 --report"
    expect 0 "$OKW" -- "$RUN" $T --fail-link=40000+:0:X+ "$WORK" 30 && settled_ok "chips: a link cut under traffic"
    expect 0 "$OKW" -- "$RUN" $T --fail-node=40000:3 "$WORK" 30 && settled_ok "chips: a node dies"
    ;;
sp-fault)
    SP=$build/sim/kolo-sim-chip-sp-2x2x1
    T="-t 2x2x1 -n 3 --net=chip --timeout=900 --report=full --e2e-timeout=65536"
    KOLO_SIM=$SP expect 0 "$OKW" -- "$RUN" $T --fail-link=40000+:0:X+ "$WORK" 30 \
        && sp_settled_ok "chips, firmware on kolo_sp: a link cut under traffic"
    KOLO_SIM=$SP expect 0 "$OKW" -- "$RUN" $T --fail-node=40000:3 "$WORK" 30 \
        && sp_settled_ok "chips, firmware on kolo_sp: a node dies"
    ;;
bench)
    KOLO_SIM=$build/sim/kolo-sim-chip-sp-2x2x1 expect 0 "$OKW" -- "$RUN" -t 2x2x1 -n 3 --net=chip \
        --timeout=3600 --report=full --e2e-timeout=65536 --bench=chip_fault \
        --fail-link=40000+:0:X+ --fail-node=450000:3 "$WORK" 120 && sp_settled_ok "chips 2x2x1, firmware on kolo_sp"
    grep -E "^BENCH" <<<"$out"
    ;;
bench-2x2x2)
    expect 0 "$OKW" -- "$RUN" -t 2x2x2 -n 7 --net=chip --timeout=3600 --report --bench=chip_fault_2x2x2_native \
        --fail-link=40000+:0:X+ --fail-node=120000:7 "$WORK" 40 && settled_ok "chips 2x2x2, native firmware"
    grep -E "^BENCH" <<<"$out"
    ;;
bench-2x2x2-sp)
    KOLO_SIM=$build/sim/kolo-sim-chip-sp-2x2x2 expect 0 "$OKW" -- "$RUN" -t 2x2x2 -n 7 --net=chip --timeout=5400 \
        --report=full --e2e-timeout=131072 --bench=chip_fault_2x2x2_sp \
        --fail-link=40000+:0:X+ --fail-node=800000:7 "$WORK" 80 && sp_settled_ok "chips 2x2x2, firmware on kolo_sp"
    grep -E "^BENCH" <<<"$out"
    ;;
*)
    echo "unknown test $test"
    exit 2
    ;;
esac
[ $fails = 0 ] && echo "$test: all checks passed" || echo "$test: $fails checks failed"
[ $fails = 0 ]
