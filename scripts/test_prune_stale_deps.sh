#!/usr/bin/env bash
# test_prune_stale_deps.sh - scripts/prune_stale_deps.py on a planted build
# directory: a real g++ object whose header then moves must rebuild with make
# (before pruning, make stops: "No rule to make target"), a dependency file
# whose prerequisites all exist and Verilator's own *__ver.d are kept.
set -u
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d /tmp/kolo-prune.XXXXXX)
trap 'rm -rf "$t"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
mkdir -p "$t/inc_old" "$t/inc_new" "$t/obj"
echo '#define KOLO_X 1' > "$t/inc_old/x.h"
printf '#include "x.h"\nint main(void) { return KOLO_X - 1; }\n' > "$t/obj/main.c"
printf 'int k;\n' > "$t/obj/keep.c"
cat > "$t/obj/Makefile" <<MK
INC ?= $t/inc_old
prog: main.o keep.o ; \$(CC) -o \$@ main.o keep.o
%.o: %.c ; \$(CC) -MMD -I\$(INC) -c \$< -o \$@
-include \$(wildcard *.d)
MK
make -s -C "$t/obj" prog >/dev/null 2>&1 || fail "planted build does not build"
printf 'obj/V.sv : nowhere/kolo_x.v\n' > "$t/obj/Vx__ver.d"
mv "$t/inc_old/x.h" "$t/inc_new/x.h"
if make -s -C "$t/obj" INC="$t/inc_new" prog >/dev/null 2>&1; then
    fail "the planted stale dependency did not stop make (the test proves nothing)"
fi
out=$(python3 "$here/prune_stale_deps.py" "$t")
grep -q "main.d named $t/inc_old/x.h" <<<"$out" || fail "main.d not pruned: '$out'"
[ -f "$t/obj/main.o" ] && fail "main.o kept"
[ -f "$t/obj/keep.d" ] && [ -f "$t/obj/keep.o" ] || fail "keep.d/keep.o removed"
[ -f "$t/obj/Vx__ver.d" ] || fail "Verilator's Vx__ver.d removed"
make -s -C "$t/obj" INC="$t/inc_new" prog >/dev/null 2>&1 || fail "make after pruning failed"
out2=$(python3 "$here/prune_stale_deps.py" "$t")
[ -z "$out2" ] || fail "second run pruned again: '$out2'"
if [ $fails = 0 ]; then echo "prune-stale-deps: PASS"; else echo "prune-stale-deps: $fails failure(s)"; exit 1; fi
