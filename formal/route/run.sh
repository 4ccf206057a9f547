#!/usr/bin/env bash
# run.sh quick|full - proof 1: the routing function of the router and the NI's
# route-state generation equal sw/route's (formal/README.md, "Proof 1").
#   1a route_miter (SAT, Yosys sat; full: also SymbiYosys, route.sby): the
#      RTL route compute equals the reference functions for all inputs, and
#      the lemmas the enumeration needs; a planted difference must fail.
#   1b route_enum (Verilator + sw/route): every route state against the C;
#      paths and drops per torus size; a planted difference must be found.
#   1c ni_route_enum (Verilator + sw/route): the NI's and the service block's
#      table lookups, every index and node id; a planted difference.
# quick (make test-formal-route): the default torus sizes (1x1x1 1x1x2 2x2x2
# 3x3x3 4x4x4 16x1x1 16x16x16). full (make formal-full-route): also every
# route state with any hop count and step port on those sizes, all 64 port
# sets, the route check on the 512 sizes of {1,2,3,4,5,7,8,16}^3 and the
# table lookups on all 4096 torus sizes. Builds and logs: build/formal/route/.
set -u -o pipefail
mode=${1:-quick}
cd "${TOP:-$(dirname "$0")/../..}"
TOP=$PWD
out=${BUILD:-build}/formal/route
mkdir -p "$out"
vl_checks=${VL_CHECKS:---assert -DFORMAL}
objcache=$(command -v ccache >/dev/null && echo "-MAKEFLAGS OBJCACHE=ccache")
fail=0
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$(now)" 'BEGIN{printf "%.1f", b-a}'; }
step() {  # name expect(pass|fail) log command...
  local name=$1 want=$2 log=$3 t0 rc
  shift 3
  t0=$(now)
  "$@" > "$log" 2>&1; rc=$?
  if { [ "$want" = pass ] && [ $rc -eq 0 ]; } || { [ "$want" = fail ] && [ $rc -ne 0 ]; }; then
    echo "PASS $name ($(secs "$t0") s)"
  else
    echo "FAIL $name: exit $rc, expected to $want (log: $log)"; tail -n 15 "$log"; fail=1
  fi
}

# ---- 1a: SAT miter ---------------------------------------------------------------------
miter() {  # extra defines...
  yosys -p "read_verilog -sv -formal $* -I rtl/include -I formal/route formal/route/route_miter.v \
      rtl/router/kolo_route_compute.v; prep -top route_miter; flatten; opt; \
      sat -prove-asserts -verify -show-inputs"
}
step "1a route_miter: kolo_route_compute == reference, all inputs (SAT)" pass "$out/miter.log" miter
step "1a route_miter with a planted difference is refuted" fail "$out/miter_plant.log" miter -DKOLO_PLANT_ROUTE
# the counterexample must be the planted route state: rs = 0x001804 in flit_a[58:36]
if ! grep -q "ERROR: Called with -verify and proof did fail" "$out/miter_plant.log"; then
  echo "FAIL 1a: the planted miter did not fail on the proof"; fail=1
fi
if [ "$mode" = full ]; then
  sby=${VENV_BIN:-.venv/bin}/sby
  step "1a route.sby prove (SymbiYosys, smtbmc z3)" pass "$out/sby.log" \
    "$sby" --prefix "$out/sby" -f formal/route/route.sby prove
  step "1a route.sby plant (expected failure)" pass "$out/sby_plant.log" \
    "$sby" --prefix "$out/sby" -f formal/route/route.sby plant
fi

# ---- builds ------------------------------------------------------------------------------
build() {  # name top sources...
  local name=$1 top=$2; shift 2
  mkdir -p "$out/$name"
  # shellcheck disable=SC2086
  (cd "$out/$name" && verilator $vl_checks --cc --exe --build -O3 -j 2 -Wall \
     -I"$TOP/rtl/include" -I"$TOP/formal/route" -y "$TOP/rtl/router" -y "$TOP/rtl/ni" \
     -y "$TOP/rtl/svc" -y "$TOP/rtl/common" --top-module "$top" $objcache \
     -CFLAGS "-O2 -std=c++17 -I$TOP/sw/include" --Mdir obj -o "$name" "$@" > build.log 2>&1) \
    || { tail -n 30 "$out/$name/build.log"; echo "FAIL build of $name"; exit 1; }
}
t0=$(now)
build route_enum route_enum_top "$TOP/formal/route/route_enum_top.v" "$TOP/formal/route/route_enum.cpp" \
  "$TOP/sw/route/kolo_route.c"
build ni_route_enum ni_route_enum_top "$TOP/formal/route/ni_route_enum_top.v" \
  "$TOP/formal/route/ni_route_enum.cpp" "$TOP/sw/route/kolo_route.c"
echo "built route_enum and ni_route_enum ($(secs "$t0") s)"
re=$out/route_enum/obj/route_enum
ne=$out/ni_route_enum/obj/ni_route_enum

# ---- 1b, 1c ------------------------------------------------------------------------------
if [ "$mode" = full ]; then
  sizes=()
  for z in 1 2 3 4 5 7 8 16; do for y in 1 2 3 4 5 7 8 16; do for x in 1 2 3 4 5 7 8 16; do
    sizes+=("--dims=${x}x${y}x${z}"); done; done; done
  step "1b route_enum: every route state, all 64 port sets; all states on the default sizes" pass \
    "$out/route_enum_full.log" "$re" --all-en --all-states
  step "1b route_enum: legal route states and destinations on 512 torus sizes" pass \
    "$out/route_enum_sizes.log" "$re" --no-a "${sizes[@]}"
  step "1c ni_route_enum: every index and node id on all 4096 torus sizes" pass \
    "$out/ni_route_enum_full.log" "$ne" --every-size
else
  step "1b route_enum: every route state; legal states and destinations on the default sizes" pass \
    "$out/route_enum.log" "$re"
  step "1c ni_route_enum: every index and node id on the default sizes" pass "$out/ni_route_enum.log" "$ne"
fi
step "1b route_enum with a planted difference fails" fail "$out/route_enum_plant.log" "$re" --plant --dims=1x1x1
grep -q "MISMATCH RTL det_port: route state 0x001804" "$out/route_enum_plant.log" ||
  { echo "FAIL 1b: the planted difference (route state 0x001804) was not the one reported"; fail=1; }
step "1c ni_route_enum with a planted difference fails" fail "$out/ni_route_enum_plant.log" "$ne" --plant
for f in "$out"/route_enum*.log "$out"/ni_route_enum*.log; do
  grep -hE '^(A|B|C) |cases|torus sizes' "$f" | grep -v MISMATCH | sed "s|^|  $(basename "$f" .log): |"
done
[ $fail = 0 ] && echo "formal route ($mode): PASS" || echo "formal route ($mode): FAIL"
exit $fail
