#!/usr/bin/env bash
# formal/net/vcd_to_fst.sh IN.vcd OUT.fst - a yosys-smtbmc trace (10 ns per
# solver step) rescaled to kolo's 4 ns per core cycle, written as FST.
set -eu -o pipefail
awk '/^#[0-9]+$/ { printf "#%d\n", substr($0, 2) * 4 / 10; next } { print }' "$1" > "$2.vcd"
vcd2fst "$2.vcd" "$2" > /dev/null
rm -f "$2.vcd"
