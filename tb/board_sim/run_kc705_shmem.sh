#!/bin/bash
# run_kc705_shmem.sh - OpenSHMEM programs as two PE processes, one per
# simulated KC705 board (mk/board_sim.mk, make test-board-sim-kc705-shmem).
#   tb/board_sim/run_kc705_shmem.sh RUNDIR BIN EXAMPLES "PROGS" [board-sim args...]
# Job k's PE logs: RUNDIR/k-<name>.pe<rank>.log; the server's: RUNDIR/server.log
# (each job's simulated time, "job k: ... ms simulated (N ps)").
# RUNDIR holds fw/imem.hex and fw/dmem.hex; BIN is tb_board_sim_kc705. The
# board simulation boots both boards and serves them as a kolo-sim server
# (--serve: KOLO_SIM_SHM=/kolo-sim.server.<name>), one job per program of
# PROGS (each "name[:args]", a name in EXAMPLES or a path); every program runs as two
# PEs launched the way mpiexec starts them (PMI_RANK, PMI_SIZE), PE i on
# board i. Checks: each PE's exit status 0 (the programs check their own
# results), each PE on the board of its rank (SHMEM_DEBUG's node line),
# the server's own checks (PASS: clean counters, no PCIe rule broken).
# Before the server is up a PE gets "no such segment"; while it serves, a
# PE of rank 2 (three PEs, two boards) gets "outside the 2 PEs": both must
# fail at once with that message (not hang). Exit 0 if all of it holds.
# A PE that hangs is killed after PE_LIMIT s (default 900), the server
# fails by itself after its own limits (simulated and wall clock).
set -u
dir=$1 bin=$2 ex=$3 progs=$4
shift 4
name="kc705-shmem-$$"
shm="/kolo-sim.server.$name"
pe_limit=${PE_LIMIT:-900}
fails=0
fail() { echo "FAIL board-sim-kc705-shmem: $*"; fails=$((fails + 1)); }
njobs=$(wc -w <<<"$progs")
# refused <what> <rank> <size> <expected text> <pattern of the line to show>: hello started as
# PE <rank> of <size> must fail at once (not time out) saying <expected text>
refused() {
    local out rc
    out=$(PMI_RANK=$2 PMI_SIZE=$3 KOLO_SIM_SHM=$shm timeout 60 "$ex/hello" 2>&1)
    rc=$?
    if [ $rc = 0 ] || [ $rc = 124 ] || ! grep -q "$4" <<<"$out"; then
        fail "$1: status $rc, output: $out"
    else
        echo "  $1: the PE fails at once (status $rc): $(grep -m1 -o "$5" <<<"$out")"
    fi
}

# a PE with no server behind its KOLO_SIM_SHM: an error at once
refused "no server" 0 2 "shm_open($shm)" 'shmem_init: .*shm_open[^)]*)[^(]*'

log=$dir/server.log
: >"$log"
(cd "$dir" && exec "$bin" --quick --serve="$name" --jobs="$njobs" "$@") >"$log" 2>&1 &
srv=$!
trap 'kill $srv 2>/dev/null' EXIT
# the server boots the boards (simulated milliseconds: half a minute to two minutes of CPU), then says so
while ! grep -q "serving 2 PEs" "$log"; do
    if ! kill -0 $srv 2>/dev/null; then
        wait $srv
        echo "FAIL board-sim-kc705-shmem: the board simulation ended (status $?) before serving:"
        tail -n 20 "$log" | sed 's/^/    /'
        exit 1
    fi
    sleep 1
done
sed -n '1,/serving 2 PEs/p' "$log"

# a third PE: no board for rank 2
refused "rank 2 of 3" 2 3 "outside the 2 PEs" 'kolo-sim client: .*'

job=0
for p in $progs; do
    job=$((job + 1))
    prog=${p%%:*} args=""
    [ "$prog" != "$p" ] && args=${p#*:}
    path=$ex/$prog
    case $prog in */*) path=$prog prog=${prog##*/} ;; esac
    t0=$(date +%s)
    for r in 0 1; do
        # shellcheck disable=SC2086
        PMI_RANK=$r PMI_SIZE=2 KOLO_SIM_SHM=$shm SHMEM_DEBUG=1 timeout "$pe_limit" "$path" $args \
            >"$dir/$job-$prog.pe$r.log" 2>&1 &
        pid[$r]=$!
    done
    for r in 0 1; do
        wait "${pid[$r]}"
        st[$r]=$?
    done
    for r in 0 1; do
        l="$dir/$job-$prog.pe$r.log"
        [ "${st[$r]}" = 0 ] || { fail "$prog PE $r: exit status ${st[$r]}"; tail -n 20 "$l" | sed 's/^/    /'; }
        # the PE of rank r runs on board r: node (r,0,0)
        if [ "${st[$r]}" = 0 ] && ! grep -q "^kolo-shmem: PE $r of 2: .* node ($r,0,0) of a 2x1x1 torus" "$l"; then
            fail "$prog PE $r: not on board $r: $(grep -m1 '^kolo-shmem: PE' "$l")"
        fi
    done
    echo "  $prog $args: PE 0 status ${st[0]}, PE 1 status ${st[1]} ($(($(date +%s) - t0)) s wall)"
    grep -hv "^kolo-shmem: PE" "$dir/$job-$prog.pe0.log" "$dir/$job-$prog.pe1.log" | head -n 6 | sed 's/^/    /'
done

wait $srv
src=$?
trap - EXIT
sed -n '/serving 2 PEs/,$p' "$log" | tail -n +2
[ $src = 0 ] || fail "the board simulation (server) exited with status $src"
grep -q "^PASS board-sim-kc705" "$log" || fail "no PASS from the board simulation"
if [ $fails = 0 ]; then
    echo "PASS board-sim-kc705-shmem: $njobs OpenSHMEM programs as 2 PEs on the two boards"
    exit 0
fi
exit 1
