#!/usr/bin/env python3
"""lint_slang.py - the strict front end of `make lint`: slang (through the
pyslang package of the project's venv) elaborates one top module the way a
vendor tool's front end would, and any diagnostic, warning or error, fails.

    scripts/lint_slang.py --top MODULE [-G NAME=VALUE ...] [-I DIR ...]
                          [--blackbox] FILE.v ...

slang is stricter than Verilator, Icarus and Yosys where Vivado and Quartus
are strict too: an identifier (net, variable, localparam) used before its
declaration is an error (IEEE 1800 6.10: implicit nets are off under
`default_nettype none`, so the use names nothing yet), as are duplicate
declarations and out-of-order parameter uses. The default warning set of
slang is kept (no -Weverything: its unused-parameter warnings are noise).

--blackbox: modules that are not among the files (vendor primitives of a
board top) are left as black boxes instead of being errors.

Prints the diagnostics as slang formats them; exit 0 clean, 1 otherwise,
2 usage or a missing pyslang.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slang_driver import open_driver  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description="slang lint of one top module (see the header)")
    ap.add_argument("--top", required=True)
    ap.add_argument("-G", dest="params", action="append", default=[], help="NAME=VALUE")
    ap.add_argument("-I", dest="incdirs", action="append", default=[])
    ap.add_argument("--blackbox", action="store_true", help="unknown modules are black boxes")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    args = ["--top", a.top, "--error-limit=50"]
    for p in a.params:
        args += ["-G", p]
    for d in a.incdirs:
        args += ["-I", d]
    if a.blackbox:
        args.append("--ignore-unknown-modules")
    args += a.files
    d, ok = open_driver("lint_slang", args)
    if d is None:
        return 2
    # runFullCompilation prints every diagnostic and says if there were errors;
    # warnings fail too (checked from the diagnostic engine's counts)
    ok = d.runFullCompilation(True) and ok
    warnings = d.diagEngine.numWarnings
    return 0 if ok and warnings == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
