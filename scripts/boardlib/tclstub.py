"""A Tcl interpreter (Tcl 8.6 through Python's tkinter, no Tk) in which a
vendor tool's commands are Python stubs: constraint files and build
scripts run as real Tcl (so syntax, procedures, loops and variables are
Tcl's own), while every vendor command checks its arguments and the
objects it names against the elaborated design, and records what it
constrains. Errors are collected with the file and line they come from.
Vendor-specific command sets: xilinx.py (Vivado), intel.py (Quartus)."""
import fnmatch
import os
import tkinter


class StubError(Exception):
    """A vendor command found something wrong; the message is the finding."""


def tcl_list(items):
    return " ".join("{" + str(x) + "}" for x in items)


class TclStub:
    def __init__(self):
        self.tcl = tkinter.Tcl()
        self.errors = []     # findings: (where, message)
        self.notes = []      # things that cannot be checked here (inside IP)
        self.where = "?"

    # ---- command registration --------------------------------------------------------
    def command(self, name, fn):
        def wrapper(*args):
            try:
                return fn(list(args))
            except StubError as e:
                # a finding: record it where the command was called, and go on
                self.errors.append((self.location(), f"{name}: {e}"))
                return ""
        self.tcl.createcommand(name, wrapper)

    def location(self):
        """file:line of the command being run (Tcl's info frame)."""
        try:
            depth = int(self.tcl.eval("info frame"))
            for lvl in range(depth, 0, -1):
                fr = self.tcl.splitlist(self.tcl.eval(f"info frame {lvl}"))
                d = dict(zip(fr[::2], fr[1::2]))
                if "file" in d and "line" in d:
                    return f"{os.path.relpath(d['file'])}:{d['line']}"
        except tkinter.TclError:
            pass
        return self.where

    def source(self, path):
        """Run a file; a Tcl error (syntax, unknown command) is a finding."""
        self.where = os.path.relpath(path)
        try:
            self.tcl.eval(f"source {{{path}}}")
        except tkinter.TclError as e:
            info = self.tcl.eval("set ::errorInfo")
            line = ""
            for l in info.splitlines():
                if "line" in l and "file" in l:
                    line = l.strip()
            self.errors.append((self.where, f"{e} {line}".strip()))

    # ---- argument parsing --------------------------------------------------------------
    def parse(self, args, flags=(), options=()):
        """Split a command's arguments into flags (-x), options (-x value) and
        positional arguments; an unknown switch is a finding."""
        got_flags, got_opts, pos = set(), {}, []
        i = 0
        while i < len(args):
            a = args[i]
            if a.startswith("-") and len(a) > 1 and not _is_number(a):
                if a in flags:
                    got_flags.add(a)
                elif a in options:
                    if i + 1 >= len(args):
                        raise StubError(f"{a} needs a value")
                    got_opts.setdefault(a, []).append(args[i + 1])
                    i += 1
                else:
                    raise StubError(f"unknown switch {a}")
            else:
                pos.append(a)
            i += 1
        return got_flags, got_opts, pos

    def objects(self, value):
        return list(self.tcl.splitlist(value)) if value else []


def _is_number(s):
    try:
        float(s)
        return True
    except ValueError:
        return False


def glob_match(name, pattern):
    """Vivado/Quartus object patterns: * and ?, and [..] as literal indices."""
    if "[" in pattern:
        # escape brackets: they are bus indices, not character classes
        pat = pattern.replace("[", "[[]")
        return fnmatch.fnmatchcase(name, pat)
    return fnmatch.fnmatchcase(name, pattern)
