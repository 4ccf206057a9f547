#!/usr/bin/env python3
"""check_functions.py - every function and task of the RTL reads and writes
only its own arguments and locals (and parameters): no net or variable of
the module around it.

Why: Icarus 11 re-evaluates a continuous assignment (and an `always @*`)
that calls a function only when one of the call's arguments changes. A
function that reads a module signal directly is therefore evaluated once at
time 0 in Icarus and never again when that signal changes, while Verilator
and synthesis treat it as ordinary logic. kolo_router_vc_select's esc_ok
read the free-slot flags fe1/fe2 that way: the rebuilt router passed every
Verilator test and never granted an escape VC under Icarus (the cocotb PCIe
tests lost every NI completion). Pass such signals as arguments.

    scripts/check_functions.py [-I DIR ...] FILE.v ...

slang (pyslang, from the project's venv) elaborates every module of the
files (unknown modules, i.e. vendor primitives, are black boxes); each
reference inside a subroutine to a net or variable declared outside that
subroutine is reported as FILE:LINE. Exit 0 clean, 1 if any was found,
2 on usage or parse errors.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from slang_driver import open_driver  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description="functions read only their arguments (see the header)")
    ap.add_argument("-I", dest="incdirs", action="append", default=[])
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    args = ["--ignore-unknown-modules", "-DSYNTHESIS"]
    for d in a.incdirs:
        args += ["-I", d]
    d, parsed = open_driver("check_functions", args + a.files)
    if d is None or not parsed:
        return 2
    from pyslang import ast
    comp = d.createCompilation()
    sm = comp.sourceManager
    found = []
    n_sub = 0

    def where(loc):
        return f"{sm.getFileName(loc)}:{sm.getLineNumber(loc)}"

    def visit_root(node):
        nonlocal n_sub
        if isinstance(node, ast.SubroutineSymbol):
            n_sub += 1
            own = node.hierarchicalPath + "."

            def visit_body(e):
                if isinstance(e, ast.NamedValueExpression):
                    s = e.symbol
                    if s.kind in (ast.SymbolKind.Variable, ast.SymbolKind.Net) and \
                            not s.hierarchicalPath.startswith(own):
                        found.append((where(e.sourceRange.start), node.name, s.name))
                return True
            node.body.visit(visit_body)
        return True

    comp.getRoot().visit(visit_root)
    for w, fn, sig in sorted(set(found)):
        print(f"{w}: function {fn} reads or writes {sig}, a signal of its module: pass it as an argument")
    print(f"check_functions: {n_sub} function/task instances, {len(set(found))} outside references")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
