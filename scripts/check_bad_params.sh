#!/bin/bash
# check_bad_params.sh - kolo_router must refuse to elaborate parameter sets
# that cannot work (see "parameter limits" in rtl/router/kolo_router.v), in
# Verilator and in Yosys, and accept the default and the smallest legal set;
# kolo_chip and kolo_torus must accept the deepest escape buffers with real
# links (Verilator).
set -euo pipefail
cd "$(dirname "$0")/.."
inc=rtl/include dirs="-y rtl/common -y rtl/router"
fail=0
# "<-G settings>|<expected error module suffix or 'ok'>"
cases=(
    "|ok"
    "-GESC_SLOTS=2 -GADAPT_DEPTH=35 -GEJECT_CREDITS=35 -GLOCAL_DEPTH=34|ok"
    "-GBUBBLE=0 -GESC_SLOTS=1 -GADAPT_DEPTH=35 -GEJECT_CREDITS=35|ok"
    "-GESC_SLOTS=1|ESC_SLOTS_2_to_7_with_BUBBLE_1_to_7_without"
    "-GESC_SLOTS=8|ESC_SLOTS_2_to_7_with_BUBBLE_1_to_7_without"
    "-GADAPT_DEPTH=34|ADAPT_DEPTH_and_EJECT_CREDITS_at_least_35"
    "-GBUBBLE=0 -GESC_SLOTS=1 -GEJECT_CREDITS=34|ADAPT_DEPTH_and_EJECT_CREDITS_at_least_35"
    "-GADAPT_DEPTH=300|buffers_and_credits_at_most_255"
    "-GLOCAL_DEPTH=20|whole_packet_local_port_needs_LOCAL_DEPTH_of_at_least_34"
    "-GLOCAL_DEPTH=20 -GLOCAL_WHOLE_PKT=0|ok"
)
for c in "${cases[@]}"; do
    g=${c%%|*} want=${c#*|}
    # shellcheck disable=SC2086
    out=$(verilator --lint-only -Wall -I$inc $dirs $g rtl/router/kolo_router.v 2>&1) && rc=0 || rc=$?
    chp=$(echo "$g" | sed -E 's/-G([A-Z_]+)=([0-9]+)/-set \1 \2/g')
    yout=$(yosys -q -p "read_verilog -sv -I$inc rtl/common/*.v rtl/router/*.v; chparam $chp kolo_router; hierarchy -check -top kolo_router" 2>&1) && yrc=0 || yrc=$?
    if [ "$want" = ok ]; then
        if [ $rc -eq 0 ] && [ $yrc -eq 0 ]; then echo "ok   accepted: ${g:-defaults}"
        else echo "FAIL refused a legal set: $g"; echo "$out $yout" | head -5; fail=1; fi
    else
        if [ $rc -ne 0 ] && grep -q "PARAMETER_ERROR_$want" <<<"$out" && [ $yrc -ne 0 ] && grep -q "PARAMETER_ERROR_$want" <<<"$yout"; then
            echo "ok   refused: $g ($want)"
        else echo "FAIL $g: expected error $want (verilator rc $rc, yosys rc $yrc)"; echo "$out $yout" | head -5; fail=1; fi
    fi
done
# The chip and the torus must elaborate at every router parameter set they pass on: their
# links' transmit buffer (kolo_link VC_BUF) must hold the neighbour router's deepest network-port
# buffer (before session 15 they kept VC_BUF 128, and ESC_SLOTS >= 4 with real links failed with
# kolo_link_tx_PARAMETER_ERROR_VC_BUF). Verilator only (the slow Yosys elaboration of a whole
# chip adds nothing here: the error is a parameter check).
alldirs=$(find rtl -name '*.v' -not -path 'rtl/platform/*' -printf '-y %h\n' | sort -u | tr '\n' ' ')
tops=(
    "kolo_chip|rtl/chip/kolo_chip.v|-GESC_SLOTS=7 -GPORT_EN=3"
    "kolo_torus|rtl/torus/kolo_torus.v|-GDIM_X=2 -GDIM_Y=1 -GDIM_Z=1 -GREAL_LINKS=1 -GESC_SLOTS=5"
)
for c in "${tops[@]}"; do
    IFS='|' read -r top file g <<<"$c"
    # shellcheck disable=SC2086
    if out=$(verilator --lint-only -Wall -I$inc $alldirs --top-module "$top" $g "$file" 2>&1); then
        echo "ok   accepted: $top $g"
    else echo "FAIL refused a legal set: $top $g"; echo "$out" | head -5; fail=1; fi
done
[ $fail -eq 0 ] && echo "check_bad_params: PASS" || { echo "check_bad_params: FAIL"; exit 1; }
