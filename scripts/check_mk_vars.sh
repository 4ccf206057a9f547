#!/bin/bash
# check_mk_vars.sh [MAKE ARGS...] - no variable is empty where make reads it.
#
# make expands a rule's target and prerequisite lists (and := assignments,
# $(eval ...)) when it reads the file. The Makefile includes mk/*.mk in a
# fixed order (MK_FIRST, then the others sorted), so a fragment that names a
# variable defined by a fragment read later gets an empty string there: a
# prerequisite silently dropped. That is a test that runs a stale binary
# after its sources changed, or fails in a fresh tree (test-kolo-ctl-device
# lost kolo-ctl this way; test_fw_net the C service model's sources;
# test_route_ft the routing library's).
#
# The check asks make itself: `make --warn-undefined-variables -n help`
# reads every fragment (help's recipe only echoes, and -n runs nothing) and
# names every undefined variable it expanded while reading. Allowed: the
# arguments $(1)..$(9) of `call`ed templates, and the user's knobs below,
# which are meant to be unset (each is read with $(if ...) or a default).
# Extra arguments go to make: the planted case is MK_FIRST="mk/deps.mk
# mk/synth.mk" (the include order before this check), which must fail.
set -uo pipefail
cd "$(dirname "$0")/.."
KNOBS='SEED'
out=$(make --no-print-directory --warn-undefined-variables -n help "$@" 2>&1 >/dev/null)
bad=$(printf '%s\n' "$out" | grep "warning: undefined variable" |
    grep -v -E "undefined variable '([0-9]+|$KNOBS)'" | sort -u)
if [ -n "$bad" ]; then
    printf '%s\n' "$bad" >&2
    echo "check_mk_vars: $(printf '%s\n' "$bad" | wc -l) use(s) of a variable before the fragment that defines it was read (see MK_FIRST in the Makefile)" >&2
    exit 1
fi
n=$(printf '%s\n' "$out" | grep -c "warning: undefined variable" || true)
echo "check_mk_vars: every variable named while reading mk/*.mk is defined ($n knob/argument uses allowed)"
