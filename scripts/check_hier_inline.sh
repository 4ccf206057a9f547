#!/bin/bash
# check_hier_inline.sh OBJ TOP INSTANCE: fails when the Verilated top TOP in the
# build directory OBJ holds signals of INSTANCE, an instance inside a
# hier_block (u_chip__DOT__u_chip: kolo_sim_chip's kolo_chip), in its own
# C++, i.e. when Verilator inlined the hier_block into the top instead of
# using its compiled library (the top then names only the block's ports).
# Verilator 5.006 does that, silently, for a hier_block instanced with its
# parameters at their defaults (docs/router.md "Verilator hier_block"): the
# model still works, but every instance's C++ is generated and compiled again
# (kolo-sim-chip-2x2x1: 118 MB instead of 32 MB). Prints the evidence.
set -u
if [ $# -ne 3 ]; then
    echo "usage: $0 OBJ TOP INSTANCE" >&2
    exit 2
fi
obj=$1 top=$2 inst=$3
shopt -s nullglob
files=("$obj/${top}___024root"*.cpp)
if [ ${#files[@]} -eq 0 ]; then
    echo "check_hier_inline: no $obj/${top}___024root*.cpp (not a Verilator build of $top?)" >&2
    exit 2
fi
n=$(cat "${files[@]}" | grep -o "${inst}__DOT__[A-Za-z0-9_]*" | sort -u | wc -l)
bytes=$(cat "${files[@]}" | wc -c)
if [ "$n" -gt 0 ]; then
    echo "check_hier_inline: FAIL $obj: the top $top holds $n signals of $inst (its root C++ is $bytes bytes): the hier_block was inlined; e.g."
    cat "${files[@]}" | grep -o "${inst}__DOT__[A-Za-z0-9_]*" | sort -u | head -3 | sed 's/^/  /'
    exit 1
fi
echo "check_hier_inline: $obj: no signal of $inst in the top: its hier_block is compiled apart (the top's root C++ is $bytes bytes)"
