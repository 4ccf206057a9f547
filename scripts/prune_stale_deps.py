#!/usr/bin/env python3
"""prune_stale_deps.py - forget compiler dependency files (*.d) under a build
directory that name a prerequisite which no longer exists.

Why: the makefiles Verilator generates include every *.d of their object
directory. When a header moves or is removed (kolo's tb headers moved to
sw/rtlsim), an old build directory still lists the old path, and make stops
with "No rule to make target '.../old.h', needed by 'x.o'" instead of
rebuilding. Removing such a .d and its object (x.o) makes that object build
again from scratch; everything else is left alone.

    scripts/prune_stale_deps.py [BUILD_DIR]     (default: build)

Prints one line per pruned file (none: nothing printed); exit 0.
scripts/run_tests.sh runs it before building anything.
"""
import os
import sys


def prereqs(text):
    """The prerequisites of a compiler's dependency file (gcc -MMD: "x.o: a.cpp
    b.h ..."); nothing for other .d files (Verilator's own *__ver.d name paths
    relative to where Verilator ran, and Verilator tracks those itself)."""
    text = text.replace("\\\n", " ")
    for line in text.splitlines():
        target, sep, rhs = line.partition(": ")
        if not sep or not target.strip().endswith(".o"):
            continue
        for word in rhs.split():
            yield word


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "build"
    for root, _, files in os.walk(top):
        for f in files:
            if not f.endswith(".d"):
                continue
            d = os.path.join(root, f)
            try:
                with open(d, errors="replace") as fh:
                    text = fh.read()
            except OSError:
                continue
            missing = next((p for p in prereqs(text)
                            if not os.path.exists(p if os.path.isabs(p) else os.path.join(root, p))), None)
            if missing is None:
                continue
            obj = d[:-2] + ".o"
            for p in (d, obj):
                if os.path.exists(p):
                    os.remove(p)
            print(f"prune_stale_deps: {d} named {missing}, which is gone: it and its object are rebuilt")
    return 0


if __name__ == "__main__":
    sys.exit(main())
