#!/usr/bin/env python3
"""quiet_start.py TRACE.vcd - the step of a formal/net counterexample (kolo_ring_formal,
kolo_torus_formal)
(yosys-smtbmc VCD, 10 time units per step) in which its deadlock began: the
first step of the last run of `quiet` counting up from 1 (no flit moved in
that step while flits were in the network). Prints the step (= core cycle);
exit 1 if the trace has no such run."""
import re
import sys


def main():
    ids, cur, t, start, prev = set(), None, 0, None, 0
    with open(sys.argv[1]) as f:
        scope = []
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == "$scope":
                scope.append(w[2])
            elif w[0] == "$upscope":
                scope.pop()
            elif (w[0] == "$var" and len(scope) == 1 and scope[0].endswith("_formal")
                  and w[4] == "quiet"):
                ids.add(w[3])
            elif w[0].startswith("#"):
                t = int(w[0][1:]) // 10
            elif w[0].startswith("b") and len(w) == 2 and w[1] in ids:
                val = int(w[0][1:].replace("x", "0"), 2)
                if val != 0 and prev == 0:
                    start = t
                prev = val
    if start is None or prev == 0:
        print("quiet_start: no deadlock run of `quiet` in the trace", file=sys.stderr)
        sys.exit(1)
    print(start)


if __name__ == "__main__":
    main()
