#!/bin/bash
# latency_load.sh TB OUT_PREFIX - sweep offered load on a torus testbench for
# deterministic (all ordered) and adaptive (none ordered) routing, uniform
# 4-flit packets; write OUT_PREFIX.csv, plot OUT_PREFIX.png with gnuplot and
# print the accepted rate at the highest offered load as BENCH lines.
set -euo pipefail
tb=$1 out=$2
mkdir -p "$(dirname "$out")"
rm -f "$out.csv"
for mode in det adaptive; do
    ord=$([ $mode = det ] && echo 1 || echo 0)
    for rate in 0.05 0.1 0.2 0.3 0.4 0.5 0.55 0.6 0.65 0.7 0.75 0.8 0.9; do
        "$tb" --seed=1 --pattern=uniform --len=2 --ordered=$ord --rate=$rate --packets=0 \
            --cycles=3000 --warmup=1000 --drain=1 --report=0 --csv="$out.csv" --label=$mode >/dev/null
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
plot "< grep '^det,' $out.csv" using 3:5 with linespoints title "deterministic (VC0, bubble)", \
     "< grep '^adaptive,' $out.csv" using 3:5 with linespoints title "minimal adaptive (VC1 + escape)"
G
    echo "wrote $out.png"
fi
awk -F, '$1=="det"{d=$4} $1=="adaptive"{a=$4} END{printf "BENCH latency_load_4x4x4_det_accepted_at_0.9 %s flits/node/cycle\nBENCH latency_load_4x4x4_adaptive_accepted_at_0.9 %s flits/node/cycle\n", d, a}' "$out.csv"
