#!/bin/bash
# latency_load.sh TB OUT_PREFIX - sweep offered load on a torus testbench,
# uniform 4-flit packets, for deterministic (all ordered) and adaptive (none
# ordered) routing, each with two kinds of endpoint: the testbench's own (one
# injection queue, packets in order of arrival) and injection as the NI does
# it (--inj-per-vc=1: a queue per VC served round robin, kolo_ni_inj);
# write OUT_PREFIX.csv (label column: det, adaptive, det_ni, adaptive_ni),
# plot OUT_PREFIX.png with gnuplot and print the accepted rate at the highest
# offered load of each curve as BENCH lines.
set -euo pipefail
tb=$1 out=$2
mkdir -p "$(dirname "$out")"
rm -f "$out.csv"
for inj in 0 1; do
    for mode in det adaptive; do
        ord=$([ $mode = det ] && echo 1 || echo 0)
        label=$mode$([ $inj = 1 ] && echo _ni || true)
        for rate in 0.05 0.1 0.2 0.3 0.4 0.5 0.55 0.6 0.65 0.7 0.75 0.8 0.9; do
            "$tb" --seed=1 --pattern=uniform --len=2 --ordered=$ord --rate=$rate --packets=0 \
                --cycles=3000 --warmup=1000 --drain=1 --report=0 --inj-per-vc=$inj \
                --csv="$out.csv" --label="$label" >/dev/null
        done
    done
done
echo "wrote $out.csv"
if command -v gnuplot >/dev/null; then
    gnuplot <<G
set terminal pngcairo size 900,600 noenhanced
set output "$out.png"
set datafile separator ","
set title "kolo 4x4x4 torus, uniform random traffic, 4-flit packets"
set xlabel "offered load (flits/node/cycle)"
set ylabel "mean latency, head injected to tail delivered (cycles)"
set key top left
set grid
set yrange [0:*]
plot "< grep '^det,' $out.csv" using 3:5 with linespoints title "deterministic (VC0, bubble), one injection queue", \
     "< grep '^adaptive,' $out.csv" using 3:5 with linespoints title "minimal adaptive (VC1 + escape), one injection queue", \
     "< grep '^det_ni,' $out.csv" using 3:5 with linespoints title "deterministic, injection as the NI (queue per VC)", \
     "< grep '^adaptive_ni,' $out.csv" using 3:5 with linespoints title "minimal adaptive, injection as the NI"
G
    echo "wrote $out.png"
fi
awk -F, '$1 ~ /^(det|adaptive)(_ni)?$/ { acc[$1] = $4 }
    END { for (l in acc) printf "BENCH latency_load_4x4x4_%s_accepted_at_0.9 %s flits/node/cycle\n", l, acc[l] }' "$out.csv" | sort
