#!/bin/bash
# run_sim_tests.sh - tests of kolo-sim / kolo-run / kolo_sim_client (mk/sim.mk).
#   sw/sim/tests/run_sim_tests.sh BUILD_SIM_DIR TEST
# TEST: args ideal-ops ideal-random faults rtl-ops rtl-random rtlni-ops rtlni-random
#       rtlni-random8 rtlni-checks exit-status crash
#       global-exit timeout orphan det. Random tests take SEED from the
#       environment (default fixed per test) and print it.
set -u
dir=$1 test=$2
RUN=$dir/kolo-run
PE=$dir/tests/sim_test_pe
tmp=$(mktemp -d /tmp/kolo-sim-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/expect.sh"

case $test in
args)
    expect 0 "usage: kolo-run" -- "$RUN" --help
    expect 2 "unknown option --frobnicate" -- "$RUN" --frobnicate "$PE" ops
    expect 2 "unknown option -x" -- "$RUN" -x "$PE" ops
    expect 2 "9 PEs do not fit on a 2x2x2 torus" -- "$RUN" -t 2x2x2 -n 9 "$PE" ops
    expect 2 "more than the largest standard torus" -- "$RUN" -n 65 "$PE" ops
    expect 2 "bad -t '2x2'" -- "$RUN" -t 2x2 "$PE" ops
    expect 2 "--fast is the C network at transaction level" -- "$RUN" -n 2 --fast --net=rtl "$PE" ops
    expect 2 "--fast is the C network at transaction level" -- "$RUN" -n 2 --fast --fail-link=100:0:X+ "$PE" ops
    # --fast's timing noise: only with --fast, a number of cycles
    expect 2 "--jitter and --seed need --fast" -- "$RUN" -n 2 --seed=3 "$PE" ops
    expect 2 "bad --jitter 'lots'" -- "$RUN" -n 2 --fast --jitter=lots "$PE" ops
    expect 2 "bad -t '0x2x2'" -- "$RUN" -t 0x2x2 "$PE" ops
    expect 2 "bad -n '0'" -- "$RUN" -n 0 "$PE" ops
    expect 2 "bad --net 'fast'" -- "$RUN" --net=fast "$PE" ops
    expect 2 "option -n needs a value" -- "$RUN" -n
    expect 2 "no program given" -- "$RUN" -n 2
    expect 2 "bad --timeout" -- "$RUN" --timeout=soon "$PE" ops
    # --fail-card=CYCLE:PE (a card that stops answering its host)
    expect 2 "bad --fail-card '1000'" -- "$RUN" -n 2 --fail-card=1000 "$PE" ops
    expect 2 "bad --fail-card 'x:1'" -- "$RUN" -n 2 --fail-card=x:1 "$PE" ops
    expect 2 "--fail-card: there is no PE 2 \(2 PEs\)" -- "$RUN" -n 2 --fail-card=10:2 "$PE" ops
    expect 2 "--fast is the C network at transaction level" -- "$RUN" -n 2 --fast --fail-card=10:1 "$PE" ops
    expect 0 "card of PE 1 gone at cycle 999999999 \(--fail-card\): the run ended first; 0 MMIO reads" -- \
        "$RUN" -n 2 --report --fail-card=999999999:1 true
    expect 127 "program 'no-such-program-kolo' not found" -- "$RUN" -n 2 no-such-program-kolo
    expect 127 "program './nothere' not found" -- "$RUN" -n 2 ./nothere
    echo "data" >"$tmp/notexec"
    expect 126 "is not executable" -- "$RUN" -n 2 "$tmp/notexec"
    if [ ! -x "$dir/kolo-sim-7x1x1" ]; then
        expect 126 "no RTL simulator for a 7x1x1 torus: .*.make sim-rtl-7x1x1" -- "$RUN" -t 7x1x1 -n 2 --net=rtl "$PE" ops
        expect 126 "no RTL simulator for a 7x1x1 torus with tracing: .*.make sim-rtl-trace-7x1x1" -- \
            "$RUN" -t 7x1x1 -n 2 --net=rtl --rtl-trace=$tmp/t.fst "$PE" ops
    fi
    # the torus kolo-run picks
    for c in "1 2x1x1" "2 2x1x1" "3 2x2x2" "8 2x2x2" "9 3x3x3" "27 3x3x3" "28 4x4x4"; do
        set -- $c
        expect 0 "torus $2 " -- "$RUN" -n "$1" --report true
    done
    expect 0 "torus 4x2x1 \(8 nodes\), 8 PEs" -- "$RUN" -t 4x2x1 --report true
    expect 0 "torus 3x3x3 \(27 nodes\), 4 PEs" -- "$RUN" -t 3x3x3 -n 4 --report true
    # a program's arguments are its own, options after it included
    expect 0 "" -- "$RUN" -n 2 sh -c 'test "$KOLO_NPES" = 2 && test -n "$KOLO_SIM_SHM" && test "$1" = -n' sh -n
    # the client outside kolo-sim
    expect 0 "not running under kolo-sim" -- env -u KOLO_SIM_SHM "$PE" attach
    ;;
ideal-ops)
    expect 0 "" -- "$RUN" -n 2 --timeout=900 "$PE" ops
    expect 0 "scoreboard: [0-9]+ injected.* 0 errors" -- "$RUN" -n 8 --timeout=900 --report "$PE" ops
    expect 0 "" -- "$RUN" -t 4x2x1 -n 8 --timeout=900 "$PE" ops
    expect 0 "" -- "$RUN" -t 3x3x3 -n 5 --timeout=900 --hop-latency=9 "$PE" ops
    ;;
ideal-random)
    seed=${SEED:-11}
    echo "seed $seed (replay: make test-sim-ideal-random SEED=$seed)"
    expect 0 "seed $seed" -- "$RUN" -n 8 --timeout=900 "$PE" random "$seed" 3000
    expect 0 "seed $((seed + 1))" -- "$RUN" -t 3x3x3 -n 27 --timeout=900 "$PE" random $((seed + 1)) 300
    expect 0 "seed $((seed + 2))" -- "$RUN" -n 3 --timeout=900 --mmio-per-cycle=4 --hop-latency=1 "$PE" random $((seed + 2)) 800
    ;;
rtl-ops)
    expect 0 "network rtl" -- "$RUN" -n 8 --net=rtl --timeout=900 --report "$PE" ops
    # the checkers on the RTL network
    expect 125 "scoreboard: delivery at .*(payload flit [0-9]+ is|header 0x)" -- "$RUN" -n 8 --net=rtl --timeout=900 --fault=corrupt "$PE" ops
    expect 125 "overtook id" -- "$RUN" -n 8 --net=rtl --timeout=900 --fault=reorder "$PE" ops
    ;;
faults)
    # every checker of kolo-sim must notice a broken packet: status 125
    expect 125 "scoreboard: delivery at .*(payload flit [0-9]+ is|header 0x)" -- "$RUN" -n 8 --timeout=900 --fault=corrupt "$PE" ops
    expect 125 "deliver id 0x1 .*payload flit" -- "$RUN" -n 2 --timeout=900 --fault=corrupt:1 "$PE" ops
    expect 125 "never delivered \(lost\)" -- "$RUN" -n 8 --timeout=900 --fault=drop "$PE" ops
    expect 125 "delivered twice|hop of packet" -- "$RUN" -n 8 --timeout=900 --fault=dup:50 "$PE" ops
    expect 125 "overtook id" -- "$RUN" -n 8 --timeout=900 --fault=reorder "$PE" ops
    expect 125 "NI oracle: .* a second response" -- "$RUN" -n 8 --timeout=900 --fault=resp2 "$PE" ops
    expect 2 "bad --fault" -- "$RUN" -n 8 --fault=melt "$PE" ops
    ;;
rtlni-ops)
    # the NI RTL (PCIe endpoint + kolo_ni per node) with its root-complex models
    expect 0 "network rtl \(NIs: RTL\)" -- "$RUN" -n 8 --ni=rtl --timeout=900 --report "$PE" ops
    ;;
rtlni-random)
    # 2 PEs: with 8 a completion still goes missing (rtlni-random8, docs/sim.md)
    seed=${SEED:-31}
    echo "seed $seed (replay: make test-sim-rtlni-random SEED=$seed)"
    expect 0 "seed $seed" -- "$RUN" -n 2 -t 2x2x2 --ni=rtl --timeout=900 "$PE" random "$seed" 250
    ;;
rtlni-random8)
    seed=${SEED:-31}
    echo "seed $seed (replay: make test-sim-rtlni-random8 SEED=$seed)"
    expect 0 "seed $seed" -- "$RUN" -n 8 --ni=rtl --timeout=900 "$PE" random "$seed" 250
    ;;
rtlni-checks)
    # every checker of --ni=rtl must notice: packets as the scoreboard sees them
    # (corrupted, lost, duplicated) and a device TLP breaking a PCIe rule
    expect 125 "scoreboard: delivery at .*no NI injected" -- "$RUN" -n 8 --ni=rtl --timeout=900 --fault=corrupt "$PE" ops
    # a lost request shows when its response comes, a lost response at the end
    # (which kind the N-th ejected packet is depends on the PEs' timing)
    lost="never delivered \(lost\)|before the request it answers had arrived"
    expect 125 "$lost" -- "$RUN" -n 8 --ni=rtl --timeout=900 --fault=drop "$PE" ops
    expect 125 "$lost" -- "$RUN" -n 2 -t 2x2x2 --ni=rtl --timeout=900 --fault=drop:3 "$PE" ops
    expect 125 "scoreboard: delivery at .*no NI injected" -- "$RUN" -n 8 --ni=rtl --timeout=900 --fault=dup:5 "$PE" ops
    expect 125 "PCIe rule broken by the device of node index [0-9]+: .*TD/EP/AT set" -- "$RUN" -n 8 --ni=rtl --timeout=900 --fault=tlp:20 "$PE" ops
    expect 125 "PE 0: MMIO request of unknown kind 6 in its ring" -- "$RUN" -n 2 -t 2x2x2 --ni=rtl --timeout=900 --grace=0.3 "$PE" bad-kind 6
    expect 2 "need the C NI model" -- "$RUN" -n 8 --ni=rtl --fault=reorder "$PE" ops
    expect 2 "--fault=tlp needs --ni=rtl" -- "$RUN" -n 8 --fault=tlp "$PE" ops
    expect 2 "bad --ni 'fast'" -- "$RUN" --ni=fast "$PE" ops
    if [ ! -x "$dir/kolo-sim-ni-7x1x1" ]; then
        expect 126 "make sim-rtlni-7x1x1" -- "$RUN" -t 7x1x1 -n 2 --ni=rtl "$PE" ops
    fi
    ;;
rtl-random)
    seed=${SEED:-21}
    echo "seed $seed (replay: make test-sim-rtl-random SEED=$seed)"
    expect 0 "seed $seed" -- "$RUN" -n 8 --net=rtl --timeout=900 "$PE" random "$seed" 250
    ;;
exit-status)
    expect 7 "PE 1 exited with status 7" -- "$RUN" -n 4 --timeout=900 "$PE" exit 1 7
    # the others hang in MMIO reads: killed after the grace time, status still 7
    expect 7 "killing PEs 0 2 3 \(still running 0.5 s after PE 1 failed\)" -- \
        "$RUN" -n 4 --timeout=900 --grace=0.5 "$PE" exit 1 7 hang
    expect 0 "" -- "$RUN" -n 4 --timeout=900 "$PE" exit 2 0
    ;;
crash)
    expect 139 "PE 2 \(pid [0-9]+\) killed by signal 11" -- "$RUN" -n 4 --timeout=900 --grace=0.3 "$PE" crash 2
    # a PE that puts a request of no known kind into its MMIO ring: stopped, said
    # (C NI model and --fast; --ni=rtl in rtlni-checks)
    expect 125 "PE 0: MMIO request of unknown kind 9 in its ring" -- "$RUN" -n 2 --timeout=900 --grace=0.3 "$PE" bad-kind 9
    expect 125 "PE 0: MMIO request of unknown kind 0 in its ring" -- "$RUN" -n 2 --fast --timeout=900 --grace=0.3 "$PE" bad-kind 0
    ;;
global-exit)
    expect 42 "end: global exit with status 42" -- "$RUN" -n 8 --timeout=900 --report "$PE" global-exit 42
    expect 0 "" -- "$RUN" -n 3 --timeout=900 "$PE" global-exit 0
    ;;
timeout)
    expect 124 "timeout: [0-9]+ cycles \(--timeout-cycles\)" -- "$RUN" -n 4 --timeout-cycles=300000 "$PE" hang
    expect 124 "timeout: [0-9.]+ s wall clock \(--timeout\)" -- "$RUN" -n 4 --timeout=1 "$PE" hang mmio
    ;;
det)
    # --det: simulated time advances only while every PE waits on the simulator:
    # the same program takes the same cycles however busy the machine is. Twice
    # as it is, once beside two processes that keep both cores busy.
    W=$dir/../examples/torus_work
    R="-t 2x2x2 -n 8 --det --timeout-cycles=20000000 --timeout=900 --report"
    cyc() { grep -oE '^cycles [0-9]+' <<<"$out" | grep -oE '[0-9]+'; }
    expect 0 "0 data errors: ok" -- "$RUN" $R "$W" 40 && c1=$(cyc)
    expect 0 "" -- "$RUN" $R "$PE" random 7 400 && r1=$(cyc)
    busy() { local end=$((SECONDS + 20)); while [ $SECONDS -lt $end ] && [ ! -e "$tmp/done" ]; do :; done; }
    busy & b1=$!
    busy & b2=$!
    expect 0 "0 data errors: ok" -- "$RUN" $R "$W" 40 && c2=$(cyc)
    expect 0 "" -- "$RUN" $R "$PE" random 7 400 && r2=$(cyc)
    touch "$tmp/done"
    wait $b1 $b2
    [ -n "${c1:-}" ] && [ "${c1:-}" = "${c2:-}" ] && ok "torus_work: $c1 cycles, the same on a loaded machine" ||
        fail "torus_work --det: ${c1:-?} cycles, then ${c2:-?} on a loaded machine"
    [ -n "${r1:-}" ] && [ "${r1:-}" = "${r2:-}" ] && ok "sim_test_pe random: $r1 cycles, the same loaded" ||
        fail "sim_test_pe random --det: ${r1:-?} cycles, then ${r2:-?} on a loaded machine"
    # every PE waits and nothing is in flight: the program is stuck, said at once
    expect 124 "every PE waits on the simulator and nothing is in flight" -- \
        "$RUN" -n 2 --det --timeout=600 "$dir/../lib/shmem_tests/t_errors" stuck
    # a PE that computes without end stops holding time back after --det-stall
    expect 124 "--det: PE 1 has run [0-9]+ s without waiting.*|timeout: 3000000 cycles" -- \
        "$RUN" -n 3 --det --det-stall=1 --timeout-cycles=3000000 --timeout=600 "$PE" hang
    grep -q -- "--det: PE 1 has run" <<<"$out" || fail "no --det-stall warning"
    expect 2 "bad --det-stall" -- "$RUN" -n 2 --det --det-stall=0 "$PE" ops
    ;;
orphan)
    # kolo-sim killed with SIGKILL: PEs waiting for MMIO reads give up (exit 3)
    pidfile=$tmp/pe.pid
    "$dir/kolo-sim" -n 2 "$PE" orphan "$pidfile" >"$tmp/out" 2>&1 &
    sim=$!
    for _ in $(seq 100); do [ "$(wc -l <"$pidfile" 2>/dev/null)" = 2 ] && break; sleep 0.05; done
    if [ "$(wc -l <"$pidfile" 2>/dev/null)" != 2 ]; then
        fail "the orphan PEs never started"
        kill -9 $sim 2>/dev/null
    else
        sleep 0.2
        kill -9 $sim
        wait $sim 2>/dev/null
        for pe in $(cat "$pidfile"); do
            gone=0
            for _ in $(seq 100); do
                st=$(awk '/^State:/ {print $2}' /proc/$pe/status 2>/dev/null)
                if [ -z "$st" ] || [ "$st" = Z ]; then gone=1; break; fi
                sleep 0.05
            done
            if [ $gone = 1 ]; then
                ok "PE pid $pe gave up when kolo-sim was killed"
            else
                fail "PE pid $pe still there ($st) 5 s after kolo-sim was killed"
                kill -9 "$pe" 2>/dev/null
            fi
        done
        n=$(grep -c "the simulator has gone; giving up (exit 3)" "$tmp/out")
        if [ "$n" = 2 ]; then ok "both PEs said why"; else fail "$n messages from the PEs"; cat "$tmp/out"; fi
    fi
    ;;
*)
    echo "unknown test '$test'"
    exit 2
    ;;
esac
if [ $fails -ne 0 ]; then
    echo "$test: $fails check(s) failed"
    exit 1
fi
echo "$test: all checks passed"
