#!/usr/bin/env python3
"""vcd_cut.py TRACE.vcd GTKW OUT.vcd - a yosys-smtbmc VCD cut to the signals a
GTKWave save file lists (scripts/gtkw.py net): the testdata of test-gtkw
(formal/net/testdata/) is made with it from a counterexample, so that the
check of the save file runs without the solver. Scopes and value changes of
other signals are left out; clk and the step counter stay."""
import re
import sys


def main():
    trace, gtkw, out = sys.argv[1:4]
    keep = set()
    with open(gtkw) as f:
        for line in f:
            line = line.strip()
            if line and line[0] not in "[*@-#":
                keep.add(re.sub(r"\[\d+:\d+\]$", "", line))
    ids, scope, defs, body, in_body = set(), [], [], [], False
    with open(trace) as f:
        for line in f:
            w = line.split()
            if in_body:
                if not w:
                    continue
                if w[0][0] in "#$" or (w[0][0] in "bBrR" and len(w) == 2 and w[1] in ids) or \
                        (w[0][0] in "01xzXZ" and w[0][1:] in ids):
                    body.append(line)
                continue
            if w and w[0] == "$scope":
                scope.append(w[2])
                defs.append(("scope", len(scope), line))
            elif w and w[0] == "$upscope":
                scope.pop()
                defs.append(("up", len(scope) + 1, line))
            elif w and w[0] == "$var":
                name = ".".join(scope + [w[4]])
                if name in keep or not scope:
                    ids.add(w[3])
                    defs.append(("var", len(scope), line))
            elif w and w[0] == "$enddefinitions":
                in_body = True
                defs.append(("end", 0, line))
            else:
                defs.append(("other", 0, line))
    # drop scopes without kept variables
    res, stack = [], []
    for kind, _, line in defs:
        if kind == "scope":
            stack.append([line])
        elif kind == "up":
            block = stack.pop()
            if len(block) > 1:
                (stack[-1] if stack else res).extend(block + [line])
        elif stack:
            stack[-1].append(line)
        else:
            res.append(line)
    with open(out, "w") as f:
        f.writelines(res + body)


if __name__ == "__main__":
    main()
