#!/bin/bash
# test_tool.sh - command-line behaviour of kolo-route: outputs, exit codes.
# usage: sw/tests/test_tool.sh build/sw/kolo-route
set -u
tool=${1:?usage: test_tool.sh path/to/kolo-route}
fails=0
checks=0

# expect <exit code> <grep pattern or ''> -- args...
expect() {
    local want=$1 pattern=$2 out rc
    shift 3
    checks=$((checks + 1))
    out=$("$tool" "$@" 2>&1)
    rc=$?
    if [ "$rc" != "$want" ]; then
        echo "FAIL: kolo-route $* exited $rc, want $want"; echo "$out" | head -5
        fails=$((fails + 1))
    elif [ -n "$pattern" ] && ! grep -qE -- "$pattern" <<<"$out"; then
        echo "FAIL: kolo-route $*: output lacks /$pattern/"; echo "$out" | head -5
        fails=$((fails + 1))
    fi
}

expect 0 '^ok: 4x4x4, 4096 routes, 96 rings' -- --dims 4x4x4 check
expect 0 '^ok: 16x1x1' -- --dims 16x1x1 check
# a leading zero is decimal, not octal (010 was once read as node 8)
expect 0 '^# path \(0,0,0\) -> \(10,0,0\)' -- --dims 16x1x1 path 0 010
expect 0 '^# path \(0,0,0\) -> \(2,1,0\)' -- --dims 4x4x1 path 0 0x012
expect 0 '^ok: 1x1x1, 1 routes, 0 rings' -- --dims=1x1x1 check
expect 0 '^\(1,3,1\) +0x131 +0x80000080 +Y\+1$' -- --dims 4x4x4 table 1,2,1
expect 0 'X\+2 Y-1 Z\+1' -- --dims 4x4x4 table 0,0,0
expect 0 '^ 3  \(2,0,1\) +Y- +entering$' -- --dims 4x4x4 path 0,0,0 2,3,1
expect 0 '^ 4  \(2,3,1\) +local +eject$' -- --dims 4x4x4 path 0,0,0 2,3,1
expect 0 '^# 4 network hops' -- --dims 4x4x4 path 0x000 0x132
expect 0 '^ 1  \(1,0,0\) +X\+ +continuing$' -- --dims 4x4x4 path 0,0,0 2,3,1
expect 0 'usage' -- --help
expect 2 'required' -- table 0,0,0
expect 2 'bad --dims' -- --dims 4x4 check
expect 2 'bad --dims' -- --dims 17x1x1 check
expect 2 'bad --dims' -- --dims 0x4x4 check
expect 2 'bad --dims' -- --dims 4x4x4x check
expect 2 'bad node' -- --dims 4x4x4 table 4,0,0
expect 2 'bad node' -- --dims 4x4x4 table 1,2
expect 2 'bad node' -- --dims 4x4x4 path 0,0,0 1,-1,0
expect 2 'bad node' -- --dims 4x4x1 path 0,0,0 0x100
expect 2 'two nodes' -- --dims 4x4x4 path 0,0,0
expect 2 'missing command' -- --dims 4x4x4
expect 2 'unknown command' -- --dims 4x4x4 route
expect 2 'no arguments' -- --dims 4x4x4 check extra
# deadlock certificates: rank order, bubble rings, verified by the separate checker
expect 0 '^# deadlock certificate of the default table set of 4x4x4: 96 rings, 96 bubble rings' -- --dims 4x4x4 cert
expect 0 '^verified: 4096 paths, 12288 hops, 5184 turns up in rank, 3072 moves inside bubble rings' -- --dims 4x4x4 cert
expect 0 '^ +0  X\+ +\(0,0\)  bubble$|^ +[0-9]+  X\+ +\(0,0\)  bubble$' -- --dims 4x4x4 cert
expect 0 ': 0 rings, 0 bubble rings' -- --dims 1x1x1 cert
expect 2 'no arguments' -- --dims 4x4x4 cert extra

# a table listing has one line per node plus two comment lines
checks=$((checks + 1))
lines=$("$tool" --dims 3x5x2 table 2,4,1 | wc -l)
if [ "$lines" != 32 ]; then echo "FAIL: 3x5x2 table has $lines lines, want 32"; fails=$((fails + 1)); fi

if [ $fails -ne 0 ]; then
    echo "test_tool: FAIL ($fails of $checks checks failed)"
    exit 1
fi
echo "test_tool: PASS ($checks checks)"
