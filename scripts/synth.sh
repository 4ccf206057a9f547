#!/usr/bin/env bash
# synth.sh - Yosys synthesis of the kolo RTL: router resource benchmarks and a
# quick check that every common cell synthesizes.
#
#   synth.sh run <xc7|cyclonev> <dir> [<unit>]   synthesize kolo_<unit>
#       (router by default; also link) at default parameters, flattened, out
#       of context (no I/O or clock buffers), once:
#       <dir>/<unit>_<fam>.log  full Yosys log       .stat  cell counts
#       <dir>/<unit>_<fam>.time seconds of the run   .sta   timing (xc7 only)
#   synth.sh bench <name> <dir>         print the BENCH line of benchmark <name>
#                                       from those files (see the cases below)
#   synth.sh cells                      synth_xilinx of every rtl/common cell at
#       its default parameters; fails on a Yosys error or warning, or a latch
#   synth.sh nomul                      kolo_router elaborates without a multiplier
#       (an index times a width that is not a power of two, a[i*6+:6] with i
#       a signal, is a $mul: a MULT18X18D on the ECP5, on the router's
#       critical path until f045077's lens[rv*6+:6] was written out); and the
#       check fails on a copy with that bug planted back
#
# Counts are Yosys' technology mapping, not a vendor tool's: e.g. Vivado packs
# two small LUTs into one LUT6 (LUT6_2), Quartus fits ALMs better; take them
# as relative numbers for comparing RTL changes.
set -euo pipefail
cd "${TOP:-$(dirname "$0")/..}"
mapfile -t files < <(find rtl -name '*.v' -not -path 'rtl/platform/*' | sort)
read_rtl="read_verilog -sv -defer -I rtl/include ${files[*]}"
# run: SYNTH_FILES (optional) reads only these files, elaborated at once (not deferred), so
# that SYNTH_PRE (optional yosys commands, e.g. chparam -set of the top's parameters) can
# act on the top before synthesis (kolo_sp: its IMEM holds the firmware image, or Yosys
# folds a RAM nothing writes into constants)
if [ -n "${SYNTH_FILES:-}" ]; then read_rtl="read_verilog -sv -I rtl/include $SYNTH_FILES"; fi
[ -n "${SYNTH_PRE:-}" ] && read_rtl="$read_rtl; $SYNTH_PRE"

# count <stat file> <cell type regex>: sum of the counts of matching cell types
count() { awk -v re="^($2)\$" '$1 ~ re {n += $2} END {print n + 0}' "$1"; }

case ${1:-} in
run)
  fam=$2 dir=$3 unit=${4:-router} base=$3/${4:-router}_$2
  mkdir -p "$dir"
  case $fam in
    xc7)
      # sta needs the timing (specify) models of the cells, read after mapping
      syn="synth_xilinx -family xc7 -top kolo_$unit -flatten -noiopad -noclkbuf"
      post="read_verilog -lib -specify +/xilinx/cells_sim.v; tee -q -o $base.sta sta" ;;
    cyclonev)
      syn="synth_intel_alm -family cyclonev -top kolo_$unit -noiopad -noclkbuf"
      post="" ;;
    *) echo "synth.sh: unknown family $fam" >&2; exit 2 ;;
  esac
  echo "synth: $syn (log: $base.log)" >&2
  t0=$SECONDS
  yosys -q -l "$base.log" -p "$read_rtl; $syn; tee -q -o $base.stat stat; $post" >/dev/null \
    || { rm -f "$base.stat"; tail -n 20 "$base.log"; exit 1; }  # no stale .stat for make
  echo $((SECONDS - t0)) > "$base.time"
  echo "synth: $fam done in $(cat "$base.time") s" >&2
  ;;

bench)
  name=$2 dir=$3
  x=$dir/router_xc7.stat a=$dir/router_cyclonev.stat
  case $name in
    # any synthesized unit: <unit>_luts_xc7, _ffs_xc7, _bram_xc7 from <dir>/<unit>_xc7.stat
    *_luts_xc7) v=$(count "$dir/${name%_luts_xc7}_xc7.stat" 'LUT[1-6]'); u=LUTs ;;
    *_ffs_xc7) v=$(count "$dir/${name%_ffs_xc7}_xc7.stat" 'FD[RSCP]E'); u=FFs ;;
    *_bram_xc7)  # in RAMB36 equivalents: a RAMB18E1 is half of one
      b=$dir/${name%_bram_xc7}_xc7.stat
      v=$(awk -v h="$(count "$b" RAMB18E1)" -v f="$(count "$b" RAMB36E1)" \
            'BEGIN {print f + h / 2}'); u=RAMB36 ;;
    router_lutram_xc7)
      # LUTs used as memory (Vivado's "LUT as Memory"): LUTs per primitive
      v=$(( $(count "$x" 'RAM(32|64)X1S|SRL16E|SRLC32E') \
          + 2 * $(count "$x" 'RAM(32|64)X1D|RAM128X1S') \
          + 4 * $(count "$x" 'RAM(32|64)M|RAM128X1D|RAM256X1S') )); u=LUTs ;;
    router_alms_cyclonev)
      # An estimate, Yosys does not pack ALMs: a 6-input ALUT takes a whole
      # ALM; smaller ALUTs, inverters and arithmetic bits (MISTRAL_ALUT_ARITH,
      # one of the two adder bits of an ALM) count half an ALM each (a lower
      # bound: two ALUTs share an ALM only with <= 8 distinct inputs); MLAB
      # memory bits (MISTRAL_MLAB is 32x1, an ALM holds 64 bits) half an ALM.
      # M10K block RAMs are not ALMs and not counted.
      half=$(count "$a" 'MISTRAL_ALUT[2-5]|MISTRAL_NOT|MISTRAL_ALUT_ARITH|MISTRAL_MLAB')
      v=$(( $(count "$a" MISTRAL_ALUT6) + (half + 1) / 2 )); u=ALMs ;;
    *_logic_depth_xc7)
      # any synthesized unit, from <dir>/<unit>_xc7.sta: LUT levels (LUTs and LUT RAM reads) on the path with the latest
      # arrival time that Yosys' sta finds (cell delays only, no routing);
      # MUXF7/8 and CARRY4 cells on the path do not count as levels.
      v=$(grep -cE '\((LUT[1-6]|RAM[0-9]+[MX][0-9SD]*)\.[A-Z0-9]+->' \
            <(sed -n '/^Latest arrival/,/^$/p' "$dir/${name%_logic_depth_xc7}_xc7.sta") || true); u=LUT_levels ;;
    *) echo "synth.sh: unknown benchmark $name" >&2; exit 2 ;;
  esac
  echo "BENCH $name $v $u"
  ;;

cells)
  # Latches would be mapped to LDCE/LDPE; $dlatch cells are listed too.
  # "ABC: Warning: The network is combinational" is ABC noting that Yosys
  # hands it combinational logic only: expected, not a design problem.
  one() {
    local m=$1 log=$out/$1.log
    if ! yosys -q -l "$log" -p "$read_rtl; synth_xilinx -family xc7 -top $m;
           select -assert-none t:LDCE t:LDPE t:\$dlatch t:\$_DLATCH*" >/dev/null 2>&1; then
      echo "FAIL synth $m (log: $log)"; grep -E 'ERROR|Warning' "$log" | head -5; return 1
    fi
    # "Resizing cell port ...ADDRARDADDR/ADDRBWRADDR from 17 bits to 16 bits":
    # Yosys 0.23's memory_libmap connects a 17-bit address to RAMB36E1's
    # 16-bit ports when it maps a 512 x 72 simple dual-port RAM (kolo_ram_sdp);
    # the dropped bit is above the RAM's address (bits 14:6 at 72 bits wide).
    if grep -v 'ABC: Warning: The network is combinational' "$log" \
        | grep -Ev 'Resizing cell port [^ ]*\.ADDR(ARDADDR|BWRADDR) from 17 bits to 16 bits' \
        | grep -Ev '^Warnings: [0-9]+ unique messages' | grep -q Warning; then
      echo "FAIL synth $m: warnings (log: $log)"; grep Warning "$log" | head -5; return 1
    fi
    echo "PASS synth $m"
  }
  export -f one; export read_rtl out=${BUILD:-build}/synth/cells
  mkdir -p "$out"
  mapfile -t cells < <(sed -n 's/^\s*module\s\+\([A-Za-z_0-9]\+\).*/\1/p' rtl/common/*.v)
  printf '%s\n' "${cells[@]}" | xargs -P "$(nproc)" -I{} bash -c 'one {}'
  ;;

nomul)
  # mulcheck <files...>: 0 when kolo_router has no $mul after elaboration
  mulcheck() {
    yosys -q -p "read_verilog -sv -defer -I rtl/include $*; hierarchy -top kolo_router; proc;
                 opt_expr; opt_clean; select -assert-none t:\$mul" >/dev/null 2>&1
  }
  if ! mulcheck "${files[@]}"; then
    echo "FAIL router-nomul: kolo_router has a multiplier:"
    yosys -q -p "read_verilog -sv -defer -I rtl/include ${files[*]}; hierarchy -top kolo_router; proc;
                 opt_expr; opt_clean; select -list t:\$mul" 2>&1 | head -5
    exit 1
  fi
  plant=$(mktemp -d)
  trap 'rm -rf "$plant"' EXIT
  sed 's/assign req_len\[i\*6+:6\] = rv\[1\].*/assign req_len[i*6+:6] = lens[rv*6+:6];/;
       /^ *(rv\[0\] ? lens\[1\*6+:6\] : lens\[0\*6+:6\]);$/d' \
    rtl/router/kolo_router.v > "$plant/kolo_router.v"
  grep -q 'lens\[rv\*6+:6\]' "$plant/kolo_router.v" || { echo "FAIL router-nomul: could not plant the bug"; exit 1; }
  if mulcheck $(printf '%s\n' "${files[@]}" | sed "s#^rtl/router/kolo_router.v\$#$plant/kolo_router.v#"); then
    echo "FAIL router-nomul: the planted multiplier (lens[rv*6+:6]) was not found"; exit 1
  fi
  echo "PASS router-nomul (planted lens[rv*6+:6] caught)"
  ;;

*) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 2 ;;
esac
