#!/usr/bin/env python3
"""check_ip_models.py - a board's vendor-IP simulation models against its IP stubs.

A board's IP stubs (boards/<board>/<board>_ip_stubs.v, the ports of the
vendor IP as the board top uses them, checked against the generated IP by the
vendor build) are the one description of those ports. The board-level
simulation replaces the IP by behavioural models (tb/board_sim/<vendor>/)
with the same module names. This check keeps the two in step: for every
module of the stubs that has a model, the model must have exactly the stub's
ports, in the same order, each with the same direction and width (the
model's own parameters may differ; ports are compared, not parameters).

    check_ip_models.py --stubs <stubs.v> [--stubs ...] --models <dir> [--require NAME ...]

--require: a stub module that must have a model (the simulation needs it).
Exit status 0 when every compared module agrees; 1 with one line per
difference otherwise; 2 on input the parser cannot read (a stub or model
whose port list it does not understand is an error, never skipped).
Only ANSI port lists are read (the project's style); widths are evaluated
when both bounds are integers, compared as text otherwise.
"""
import argparse
import os
import re
import sys


class ParseError(Exception):
    pass


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return re.sub(r"\(\*.*?\*\)", " ", text, flags=re.S)


def matching_paren(text, start):
    """index of the ')' closing the '(' at text[start]"""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return i
    raise ParseError("unbalanced parentheses")


def split_top(text):
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return parts


PORT_RE = re.compile(
    r"^(?:(input|output|inout)\s+)?(?:(wire|reg|logic)\s+)?(?:(signed)\s+)?"
    r"(?:\[\s*([^\]:]+?)\s*:\s*([^\]]+?)\s*\]\s*)?([A-Za-z_]\w*)$")


def width_of(hi, lo):
    if hi is None:
        return 1
    try:
        return abs(int(hi) - int(lo)) + 1
    except ValueError:
        return f"[{hi.strip()}:{lo.strip()}]"


def parse_modules(path):
    """{module name: [(port, direction, width), ...]} of every module in path"""
    text = strip_comments(open(path).read())
    mods = {}
    for m in re.finditer(r"\bmodule\s+([A-Za-z_]\w*)\s*", text):
        name, i = m.group(1), m.end()
        if text.startswith("#", i):
            j = text.index("(", i)
            i = matching_paren(text, j) + 1
            while text[i].isspace():
                i += 1
        if text[i] == ";":
            mods[name] = []
            continue
        if text[i] != "(":
            raise ParseError(f"{path}: module {name}: no port list")
        body = text[i + 1:matching_paren(text, i)]
        ports, direction, width = [], None, 1
        for entry in split_top(body):
            entry = " ".join(entry.split())
            pm = PORT_RE.match(entry)
            if not pm:
                raise ParseError(f"{path}: module {name}: cannot read port '{entry}'")
            if pm.group(1):
                direction, width = pm.group(1), width_of(pm.group(4), pm.group(5))
            elif pm.group(4) is not None:
                width = width_of(pm.group(4), pm.group(5))
            if direction is None:
                raise ParseError(f"{path}: module {name}: port '{entry}' without a direction "
                                 "(only ANSI port lists are read)")
            ports.append((pm.group(6), direction, width))
        mods[name] = ports
    return mods


def compare(name, stub, model):
    diffs = []
    sp = {p: (d, w) for p, d, w in stub}
    mp = {p: (d, w) for p, d, w in model}
    for p, d, w in stub:
        if p not in mp:
            diffs.append(f"{name}: port {p} ({d}, {w} bits) of the stub is missing in the model")
        elif mp[p] != (d, w):
            diffs.append(f"{name}: port {p}: stub {d} {w} bits, model {mp[p][0]} {mp[p][1]} bits")
    for p, d, w in model:
        if p not in sp:
            diffs.append(f"{name}: port {p} ({d}, {w} bits) of the model is not in the stub")
    if not diffs and [p for p, _, _ in stub] != [p for p, _, _ in model]:
        diffs.append(f"{name}: the model lists the stub's ports in another order")
    return diffs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stubs", action="append", required=True)
    ap.add_argument("--models", required=True)
    ap.add_argument("--require", action="append", default=[])
    args = ap.parse_args(argv)
    try:
        stubs = {}
        for s in args.stubs:
            stubs.update(parse_modules(s))
        models = {}
        for f in sorted(os.listdir(args.models)):
            if f.endswith(".v"):
                models.update(parse_modules(os.path.join(args.models, f)))
    except (ParseError, OSError) as e:
        print(f"check_ip_models: {e}")
        return 2
    diffs, compared = [], []
    for name in args.require:
        if name not in stubs:
            diffs.append(f"{name}: required but not a module of the stubs")
        elif name not in models:
            diffs.append(f"{name}: required but {args.models} has no model of it")
    for name, ports in stubs.items():
        if name in models:
            compared.append(f"{name} ({len(ports)} ports)")
            diffs += compare(name, ports, models[name])
    for d in diffs:
        print(f"check_ip_models: FAIL {d}")
    if not compared and not diffs:
        print("check_ip_models: FAIL no stub module has a model: nothing compared")
        return 1
    if diffs:
        return 1
    print(f"check_ip_models: models agree with the stubs: {', '.join(compared)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
