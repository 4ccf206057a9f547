#!/bin/bash
# run_launch_tests.sh - OpenSHMEM programs started by the launchers people
# use, against a kolo-sim --server (docs/shmem.md "Launchers", docs/sim.md):
# the PEs take rank and size from the launcher, attach to the server's NIs
# (KOLO_SIM_SHM), exchange their windows over the simulated network (NI
# window 15), and run. Mismatches between the launcher and the torus are
# errors at shmem_init.
#   sw/sim/tests/run_launch_tests.sh BUILD_DIR TEST
# TEST: openmpi mpich slurm errors
set -u
build=$1 test=$2
SIM=$build/sim/kolo-sim
T=$build/lib/shmem_tests
E=$build/examples
tmp=$(mktemp -d /tmp/kolo-launch-test.XXXXXX)
servers=()
trap 'for p in "${servers[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/expect.sh"
# Open MPI refuses root without these (the test machine runs as root)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

# server NAME TORUS NPES [options]: start a kolo-sim server; its log in $tmp/NAME.log
n_srv=0
server() {
    local name=kt$$.$((n_srv++)) torus=$1 npes=$2
    shift 2
    "$SIM" --server="$name" -t "$torus" -n "$npes" --timeout=900 --report "$@" >"$tmp/$name.log" 2>&1 &
    servers+=($!)
    srv_pid=$! srv_log=$tmp/$name.log
    export KOLO_SIM_SHM=/kolo-sim.server.$name
    for _ in $(seq 300); do [ -e /dev/shm/kolo-sim.server.$name ] && return 0; sleep 0.1; done
    fail "server $name did not start"; cat "$srv_log"
}
# server_done STATUS: the server ended with STATUS
server_done() {
    wait "$srv_pid"
    local rc=$?
    [ "$rc" = "$1" ] && ok "kolo-sim --server ended with $rc" || { fail "kolo-sim --server ended with $rc, want $1"; tail -n 20 "$srv_log"; }
}
# debug_ok LAUNCHER N: SHMEM_DEBUG printed N lines naming the launcher, and PE i is on node index i
debug_ok() {
    local want=$1 n=$2 i x y z
    for ((i = 0; i < n; i++)); do
        x=$((i % 2)) y=$((i / 2 % 2)) z=$((i / 4))
        grep -qE "kolo-shmem: PE $i of $n: launcher $want .*node \($x,$y,$z\) of a 2x2x2 torus, NI context [0-9]+; exchange over the network" <<<"$out" ||
            { fail "SHMEM_DEBUG: no line for PE $i on node ($x,$y,$z) with launcher $want"; return; }
    done
    ok "SHMEM_DEBUG: $n PEs, launcher $want, PE i on node index i"
}

case $test in
openmpi)
    command -v mpirun.openmpi >/dev/null || { fail "mpirun.openmpi missing (make deps)"; exit 1; }
    server 2x2x2 4
    SHMEM_DEBUG=1 expect 0 "t_generic: PASS" -- mpirun.openmpi -n 4 "$T/t_generic" && debug_ok "Open MPI" 4
    server_done 0
    server 2x2x2 8
    expect 0 "torus_work: 8 PEs, 40 rounds.*0 data errors: ok" -- mpirun.openmpi -n 8 "$E/torus_work" 40
    server_done 0
    ;;
mpich)
    command -v mpiexec.mpich >/dev/null || { fail "mpiexec.mpich missing (make deps)"; exit 1; }
    server 2x2x2 5
    SHMEM_DEBUG=1 expect 0 "t_random: PASS" -- mpiexec.mpich -n 5 "$T/t_random" 30 && debug_ok "MPICH \(Hydra\)" 5
    server_done 0
    ;;
slurm)
    # srun's variables, set by hand: one process per "node", started by this script
    server 2x2x2 3
    for r in 0 1 2; do
        SHMEM_DEBUG=1 SLURM_PROCID=$r SLURM_NTASKS=3 SLURM_LOCALID=0 SLURM_NODEID=$r SLURM_NNODES=3 \
            "$T/t_coll" >"$tmp/slurm$r.log" 2>&1 &
    done
    wait %2 %3 %4 2>/dev/null
    out=$(cat "$tmp"/slurm[012].log)
    grep -q "t_coll: PASS" <<<"$out" && ok "three PEs with Slurm's variables: t_coll PASS" ||
        { fail "Slurm PEs: $(tail -n 5 <<<"$out")"; }
    debug_ok "Slurm" 3
    grep -q "Slurm node 2 of 3" <<<"$out" && ok "SHMEM_DEBUG shows Slurm's node" || fail "no Slurm node in SHMEM_DEBUG"
    server_done 0
    ;;
errors)
    # the launcher started fewer PEs than the server serves
    server 2x2x2 4
    expect 1 "the launcher \(Open MPI\) started 3 PEs, the kolo-sim server .* serves 4" -- \
        mpirun.openmpi -n 3 "$T/t_init"
    server_done 1
    # Slurm says 3 PEs, the server serves 2
    server 2x1x1 2
    expect 1 "the launcher \(Slurm\) started 3 PEs, the kolo-sim server .* serves 2" -- \
        env SLURM_PROCID=0 SLURM_NTASKS=3 "$T/t_init"
    kill "$srv_pid" 2>/dev/null
    wait "$srv_pid" 2>/dev/null
    # two PEs with one rank: the second finds the card taken and is refused;
    # the job goes on with the real PE 1
    server 2x2x2 2
    (SLURM_PROCID=0 SLURM_NTASKS=2 "$T/t_init" >"$tmp/dup0.log" 2>&1) &
    dup0=$!
    for _ in $(seq 100); do grep -q . "$tmp/dup0.log" 2>/dev/null && break; sleep 0.1; done
    sleep 0.5
    expect 1 "PE 0's card of .* is taken \(by pid [0-9]+\): two PEs with one rank" -- \
        env SLURM_PROCID=0 SLURM_NTASKS=2 "$T/t_init"
    expect 0 "" -- env SLURM_PROCID=1 SLURM_NTASKS=2 "$T/t_init"
    wait $dup0 && grep -q "t_init: PASS" "$tmp/dup0.log" && ok "PE 0 finished the job with the real PE 1" ||
        fail "PE 0: $(cat "$tmp/dup0.log")"
    server_done 0
    # a PE that never comes: the others say which and stop
    server 2x2x2 3
    (SLURM_PROCID=0 SLURM_NTASKS=3 SHMEM_BOOT_TIMEOUT=3 "$T/t_init" >"$tmp/miss0.log" 2>&1) &
    miss0=$!
    (SLURM_PROCID=1 SLURM_NTASKS=3 SHMEM_BOOT_TIMEOUT=3 "$T/t_init" >"$tmp/miss1.log" 2>&1) &
    miss1=$!
    wait $miss0 $miss1
    # (the first to give up stops the other: one of the two says it)
    out=$(cat "$tmp/miss0.log" "$tmp/miss1.log")
    grep -qE "no word from PEs 2 after [0-9]+ s \(SHMEM_BOOT_TIMEOUT\)" <<<"$out" &&
        ok "a PE that never comes: named (PE 2)" || { fail "missing PE: $out"; }
    server_done 1
    # a card that says another node's id (the torus and the launcher disagree)
    server 2x2x2 3 --wrong-node-id=2
    expect 1 "PEs 0 and 2 both say they are on node \(0,0,0\)" -- mpirun.openmpi -n 3 "$T/t_init"
    server_done 1
    # kolo-sim --server takes no program; kolo-run no --server
    expect 2 "--server runs no program" -- "$SIM" --server=x -n 2 "$T/t_init"
    expect 2 "--server is kolo-sim's" -- "$build/sim/kolo-run" --server=x -n 2
    # no launcher and no simulator: the message says what to do
    expect 1 "run under kolo-run, start the PEs against a kolo-sim --server" -- \
        env -u KOLO_SIM_SHM -u KOLO_PE "$T/t_init"
    ;;
*)
    echo "unknown test $test"
    exit 2
    ;;
esac
[ $fails = 0 ] && echo "$test: all checks passed" || echo "$test: $fails checks failed"
[ $fails = 0 ]
