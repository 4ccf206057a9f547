"""slang_driver.py - the pyslang set-up shared by scripts/lint_slang.py and
scripts/check_functions.py: a slang Driver that has parsed the given
command line and every source file it names.

    from slang_driver import open_driver
    d, parsed = open_driver("lint_slang", ["--top", "m", "-I", "rtl/include", "a.v"])
    if d is None: exit 2      # the reason was printed (missing pyslang, a
                              # path with spaces, bad options)
    parsed                    # False if a source did not parse (slang
                              # printed the errors)

pyslang's Driver takes its command line as one string split on whitespace,
so no argument may contain a space; that is refused here with the caller's
name. The caller then runs d.runFullCompilation(...) or
d.createCompilation() as it needs.
"""
import sys


def open_driver(tool, args):
    """(a pyslang Driver with args and all sources parsed, whether every
    source parsed), or (None, False)."""
    try:
        from pyslang.driver import CommandLineOptions, Driver
    except ImportError:
        print(f"{tool}: pyslang is missing (make deps installs it into .venv)", file=sys.stderr)
        return None, False
    args = ["slang", "--color-diagnostics=false"] + list(args)
    if any(" " in x for x in args):
        print(f"{tool}: paths and parameters must not contain spaces", file=sys.stderr)
        return None, False
    d = Driver()
    d.addStandardArgs()
    opts = CommandLineOptions()
    if not d.parseCommandLine(" ".join(args), opts) or not d.processOptions():
        return None, False
    return d, d.parseAllSources()
