#!/usr/bin/env bash
# lint.sh - lint every RTL module under rtl/ (rtl/platform/ excluded: vendor
# primitives) with four tools, each module as the top:
#   verilator  --lint-only -Wall --assert -DFORMAL, as every Verilator build
#              compiles the RTL (submodules found through -y <every rtl dir>)
#   iverilog   -g2012 -Wall, all files given, -s <module>
#   yosys      read_verilog -sv; hierarchy -check; proc; check -assert
#              (and again with -formal for files that hold `ifdef FORMAL code
#              or `KOLO_ASSERT guards)
#   slang      scripts/lint_slang.py (pyslang from the venv): the strict front
#              end; a name used before its declaration is an error there, as
#              in Vivado and Quartus
# Files are found by glob, so new rtl/ directories are linted without edits.
# A module is linted at its default parameters, or at the points in POINTS.
# Any message from any tool, or a non-zero exit, is a failure. Prints one
# PASS/FAIL line per module, parameter point and tool (with its time), and
# exits 1 if anything failed. Tool output: build/lint/<n>.txt.
# Usage: scripts/lint.sh [-j N]   (N checks in parallel, default: nproc)
#        LINT_MODULES="kolo_chip kolo_node" scripts/lint.sh   (only these modules)
set -euo pipefail
cd "${TOP:-$(dirname "$0")/..}"
jobs=$(nproc)
if [ "${1:-}" = -j ]; then jobs=$2; fi

mapfile -t files < <(find rtl -name '*.v' -not -path 'rtl/platform/*' | sort)
mapfile -t dirs < <(printf '%s\n' "${files[@]}" | xargs -n1 dirname | sort -u)
export inc=rtl/include out=${BUILD:-build}/lint
rm -rf "$out"; mkdir -p "$out"

# module|NAME=VALUE ... : a module listed here is linted at exactly these
# points ("" = defaults). rtl/common cells are swept wider by lint_cells.sh.
# The torus is linted small: every router in it is elaborated in full (about
# 1 s per router and tool), so its default 2x2x2 or a 4x4x4 would dominate.
POINTS=(
  "kolo_torus|DIM_X=2 DIM_Y=2 DIM_Z=1"                   # rings of 2, an absent dimension
  "kolo_torus|DIM_X=3 DIM_Y=1 DIM_Z=1 LINK_LATENCY=0"    # a ring of 3, wire links
  "kolo_torus|DIM_X=2 DIM_Y=1 DIM_Z=1 REAL_LINKS=1"        # real links on a ring of 2
  "kolo_link_ideal|"
  "kolo_link_core|"
  "kolo_link_core|VC_BUF=4 OUT_CREDITS=4 MAX_PKT=2 SEQ_W=4 RXB_W=3 REPLAY_TIMEOUT=6 MAX_REPLAYS=2 TRAIN_BUDGET=8 CTRL_MAX_AGE=2 CTRL_REFRESH=8"  # the formal configuration (formal/link)
  "kolo_link|"
  "kolo_link|LANES=4"
  "kolo_link_ideal|LATENCY=0"
  "kolo_link_ideal|LATENCY=3"
  "kolo_router|"
  "kolo_router|BUBBLE=0 ESC_SLOTS=1 ADAPT_DEPTH=35 LOCAL_DEPTH=2 EJECT_CREDITS=255 LOCAL_WHOLE_PKT=0 OUT_REG=0"  # smallest buffers, no output registers
  "kolo_router|ESC_SLOTS=7 ADAPT_DEPTH=255 LOCAL_DEPTH=255"  # largest buffers
  "kolo_router_input|"
  "kolo_router_input|PORT=6 LOCAL_DEPTH=255 WHOLE_PKT=1 VC_AW=8"
  "kolo_router_output|"
  "kolo_router_output|PORT=6 OUT_REG=0"
  "kolo_router_output|ESC_SLOTS=1 BUBBLE=0 ADAPT_DEPTH=35 EJECT_CREDITS=35"
  "kolo_router_vc_select|"
  "kolo_router_vc_select|PORT=6 BUBBLE=0"
  "kolo_chip|"
  "kolo_chip|SP_INTERNAL=0 SP_ASYNC=1 PCIE_ASYNC=0 LANES=2 GT_DATA_W=64 PORT_EN=15"  # external processor, crossed
  "kolo_chip|HOST_IF=1 PORT_EN=3 PCIE_ASYNC=0"          # no PCIe, no NI: the ECP5 board's chip
  "kolo_node|"
  "kolo_node|NI_EN=0"
  "kolo_chip_port|"
  "kolo_chip_port|PORT=5 LANES=4 DATA_W=64 MISCABLE_INITS=1"
  "kolo_lane_gearbox_tx|"
  "kolo_lane_gearbox_tx|LANES=4 DATA_W=32 PAUSE_SEQ=31"
  "kolo_lane_gearbox_rx|"
  "kolo_lane_gearbox_rx|DATA_W=32 SLIP_SPACING=1"
  "kolo_link_phy|LANES=1"
  "kolo_link_phy|LANES=4"
  "kolo_link_phy|LANES=3 CC_INTERVAL=100 SLIP_WAIT=1 FIFO_ADDR_W=3"   # odd lane count, small counters
  "kolo_pcie_dma_rd|"
  "kolo_pcie_dma_rd|TAGS=48 RB_LINES=1024 REQS=4 CPL_TIMEOUT=100"     # tags not a power of two
  "kolo_pcie_ep|"
  "kolo_pcie_ep|TAGS=256 CPL_TIMEOUT=8000 RB_LINES=2048 REQS=64 BAR0_SIZE_LOG2=20 BAR2_SIZE_LOG2=12"
  "kolo_ni|"
  "kolo_ni|INJ_CREDITS=34 EJ_DEPTH=34 DQ=2 BATCH=2 HQ_AW=1 RING_AW=3 GSLOTS=1"  # smallest buffers
  "kolo_ni_sq|"
  "kolo_ni_sq|DQ=16 BATCH=3 NREC=2 QR=2"  # batch not a power of two, few reads
  "kolo_ni_tgt|"
  "kolo_ni_tgt|GSLOTS=32 RQ_DEPTH=2 NODES=2"
  "kolo_ni_e2e|"
  "kolo_ni_e2e|NODES=2"
  "kolo_ni_txq|"
  "kolo_ni_txq|HQ_AW=1 RING_AW=3"
  "kolo_ni_ej|"
  "kolo_ni_ej|DEPTH=255"
  "kolo_ni_inj|"
  "kolo_ni_inj|CREDITS=255"
  "kolo_pcie_shim_rx|"                                   # 128-bit (7-series)
  "kolo_pcie_shim_rx|LANES=8 QWORD_ALIGN=1"              # 256-bit Avalon-ST
  "kolo_pcie_shim_tx|PAYLOAD_SWAP=1"
  "kolo_pcie_shim_tx|LANES=8 QWORD_ALIGN=1"
  "kolo_pcie_shim_x7|"
  "kolo_pcie_shim_avst|"
  "kolo_pcie_shim_avst|RX_READY_LATENCY=17 TX_READY_LATENCY=3"
  "kolo_pcie_shim_us|"
)

# The PCIe shims under rtl/platform/ are vendor-neutral Verilog (the vendor
# IP is instantiated by board tops, not by them): lint them like the rest.
mapfile -t -O "${#files[@]}" files < <(find rtl/platform -name 'kolo_pcie_shim*.v' | sort)
mapfile -t dirs < <(printf '%s\n' "${files[@]}" | xargs -n1 dirname | sort -u)

# the venv's Python runs slang (pyslang)
export SLANG_PY=${VENV_BIN:-.venv/bin}/python

# Icarus messages that are not about the design: none seen with Icarus 11.
# Add an extended regex here only with a comment saying why it is harmless.
export FILTER_IVERILOG='^$'

# One check; writes "<label>\n<messages>" to $out/<n>.txt. Needs the arrays
# files and dirs (passed to the xargs workers as strings, rebuilt there).
check() {  # n tool file module "params"
  local n=$1 tool=$2 file=$3 mod=$4 params=$5 msg rc=0 t0=${EPOCHREALTIME/./} ms
  local vg="" ig="" yc="" sg="" fl="" p
  for p in $params; do
    vg+=" -G$p"; ig+=" -P$mod.$p"; yc+=" -chparam ${p%%=*} ${p#*=}"; sg+=" -G $p"
  done
  case $tool in
    verilator)
      # shellcheck disable=SC2046,SC2086
      msg=$(verilator --lint-only -Wall --assert -DFORMAL -I$inc $(printf -- '-y %s ' "${dirs[@]}") \
              --top-module "$mod" $vg "$file" 2>&1) || rc=$? ;;
    iverilog)
      # shellcheck disable=SC2086
      msg=$(iverilog -g2012 -Wall -I$inc -o /dev/null -s "$mod" $ig "${files[@]}" 2>&1) || rc=$?
      msg=$(grep -Ev "$FILTER_IVERILOG" <<< "$msg") || true ;;
    yosys|yosys-formal)
      # -formal replaces the implicit -D SYNTHESIS with -D FORMAL, so the
      # `ifndef SYNTHESIS guards (`KOLO_ASSERT) are read as assertions too
      [ $tool = yosys-formal ] && fl="-formal"
      # -defer: elaborate only the modules below this top
      msg=$(yosys -q -p "read_verilog -sv -defer $fl -I $inc ${files[*]};
              hierarchy -check -top $mod $yc; proc; check -assert" 2>&1) || rc=$? ;;
    slang)
      # shellcheck disable=SC2086
      msg=$("$SLANG_PY" scripts/lint_slang.py --top "$mod" $sg -I $inc "${files[@]}" 2>&1) || rc=$? ;;
  esac
  [ $rc -eq 0 ] || msg+=$'\n'"(exit status $rc)"
  ms=$(( (${EPOCHREALTIME/./} - t0) / 1000 ))
  printf '%-12s %-20s %-50s %3d.%ds\n%s' "$tool" "$mod" "${params:-(defaults)}" \
    $((ms / 1000)) $((ms % 1000 / 100)) "$msg" > "$out/$n.txt"
}
export -f check
export files_s="${files[*]}" dirs_s="${dirs[*]}"

# the checks: "tool|file|module|params"
list=()
for f in "${files[@]}"; do
  for mod in $(sed -n 's/^\s*module\s\+\([A-Za-z_0-9]\+\).*/\1/p' "$f"); do
    if [ -n "${LINT_MODULES:-}" ] && [[ " $LINT_MODULES " != *" $mod "* ]]; then continue; fi
    pts=()
    for e in "${POINTS[@]}"; do [ "${e%%|*}" = "$mod" ] && pts+=("${e#*|}"); done
    [ ${#pts[@]} -gt 0 ] || pts=("")
    for p in "${pts[@]}"; do
      for t in verilator iverilog yosys slang; do list+=("$t|$f|$mod|$p"); done
    done
    if grep -q '`ifdef FORMAL\|`KOLO_ASSERT' "$f"; then list+=("yosys-formal|$f|$mod|${pts[0]}"); fi
  done
done

for i in "${!list[@]}"; do
  IFS='|' read -r t f m p <<< "${list[$i]}"
  printf '%s\0%s\0%s\0%s\0%s\0' "$i" "$t" "$f" "$m" "$p"
done | xargs -0 -n5 -P "$jobs" bash -c \
  'read -ra files <<< "$files_s"; read -ra dirs <<< "$dirs_s"; check "$@"' _

fail=0
for k in "${!list[@]}"; do
  label=$(head -n1 "$out/$k.txt"); msg=$(tail -n +2 "$out/$k.txt")
  if [ -z "$msg" ]; then echo "PASS $label"
  else echo "FAIL $label"; head -n 20 <<< "$msg" | sed 's/^/    /'; fail=1; fi
done
echo "lint: ${#files[@]} files, ${#list[@]} checks: $([ $fail = 0 ] && echo PASS || echo FAIL)"
exit $fail
