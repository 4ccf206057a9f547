#!/usr/bin/env bash
# check_formal_files.sh - the proofs over real routers read the router's RTL
# from one list, ROUTER_RTL in formal/lib.sh (formal/router/run.sh and
# formal/net/run.sh source it). This checks that the list is whole and that
# the SymbiYosys files, which cannot source it, list the same files:
#   - every rtl/router/*.v is in ROUTER_RTL, and every listed file exists;
#   - each .sby names exactly the ROUTER_RTL files: under [files] (rtl/...v
#     lines) and in its [script]'s read_verilog of the RTL (base names).
# usage: scripts/check_formal_files.sh [SBY...]   (default: every formal/*/*.sby
#        that reads kolo_router.v); ROUTER_DIR=<dir> checks another router
#        folder (the planted-bug test uses it). Exit 0 when all agree, 1 otherwise,
# with one line per disagreement.
set -u -o pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
router_dir=${ROUTER_DIR:-rtl/router}
mapfile -t list < <(bash formal/lib.sh)
bad=0
say() { echo "check_formal_files: $*"; bad=1; }
inlist() { local f; for f in "${list[@]}"; do [ "$f" = "$1" ] && return 0; done; return 1; }
for f in "${list[@]}"; do [ -f "$f" ] || say "ROUTER_RTL (formal/lib.sh) names $f, which does not exist"; done
for f in "$router_dir"/*.v; do
  inlist "rtl/router/$(basename "$f")" || say "$f is not in ROUTER_RTL (formal/lib.sh): the proofs would not read it"
done
want=$(printf '%s\n' "${list[@]}" | sort)
want_base=$(printf '%s\n' "${list[@]}" | xargs -n1 basename | sort)
if [ $# -eq 0 ]; then
  set -- $(grep -l 'kolo_router\.v' formal/*/*.sby)
fi
for sby in "$@"; do
  files=$(awk '/^\[files\]/{f=1; next} /^\[/{f=0} f && $1 ~ /^rtl\/.*\.v$/ {print $1}' "$sby" | sort)
  [ "$files" = "$want" ] || say "$sby [files]: $(diff <(echo "$want") <(echo "$files") | grep '^[<>]' | tr '\n' ' ')(< missing, > extra)"
  read_line=$(awk '/^\[script\]/{f=1; next} /^\[/{f=0} f && /^read_verilog/ && /kolo_router\.v/ {print; exit}' "$sby")
  got_base=$(echo "$read_line" | tr ' ' '\n' | grep '\.v$' | sort)
  [ "$got_base" = "$want_base" ] || say "$sby [script] read_verilog: $(diff <(echo "$want_base") <(echo "$got_base") | grep '^[<>]' | tr '\n' ' ')(< missing, > extra)"
done
[ $bad -eq 0 ] && echo "check_formal_files: ROUTER_RTL (${#list[@]} files) and $# .sby files agree"
exit $bad
