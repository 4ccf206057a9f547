#!/usr/bin/env python3
"""test_plan.py - the plan of a parallel `make test` (scripts/run_tests.sh),
read from make's own database (`make -pq`), so that nothing is listed twice.

    scripts/test_plan.py DBFILE TEST ...

DBFILE is the output of `make -pq`. Prints, one per line:
    PREBUILD <file>        a file some test needs, built before any test runs
                           (one `make -j` over all of them: make's own graph,
                           so two tests never build the same file at once)
    FAMILY <name> <test> ...   tests whose recipes come from one makefile
                           fragment; a family runs its tests one after the
                           other, in the given order (tests of one fragment
                           share build and output directories), and
                           different families run side by side
    SHARED <phony> <family> ...  a phony prerequisite with a recipe (not a
                           test) that tests of several families run: those families
                           are merged into one (a phony target always runs)
Families are listed longest first by their tests' seconds in the last run
(build/test-logs/times.txt) or else scripts/test_weights.txt (a test in
neither weighs 10), so that the longest start
first and the lanes end together.
"""
import os
import re
import sys


def parse_db(path):
    """(rules, phony, recipe_file, patterns): explicit rules (target -> prerequisites),
    phony targets, the makefile of each target's recipe, and the project's pattern
    rules (a target pattern with a directory in it, e.g. build/sim/kolo-sim-chip-%,
    as a regular expression), by which a prerequisite that no explicit rule names,
    such as build/sim/kolo-sim-chip-2x2x1, is still a file make builds"""
    rules, phony, recipe_file, patterns = {}, set(), {}, []
    target = None
    in_files = in_implicit = False
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        if line.startswith("# Implicit Rules"):
            in_implicit = True
            continue
        if line.startswith("# Files"):
            in_files, in_implicit = True, False
            continue
        if in_implicit:
            m = re.match(r"^([^#\s:][^:=\s]*%[^:=\s]*):{1,2}(?!=)", line)
            if m and "/" in m.group(1).split("%")[0]:
                patterns.append(re.compile("^" + re.escape(m.group(1)).replace("%", ".+") + "$"))
            continue
        if not in_files:
            continue
        if line.startswith("# Not a target") or line == "":
            target = None if line == "" else "__not__"
            continue
        if target is None and not line.startswith(("#", "\t", " ")):
            m = re.match(r"^([^:#=\s][^:=]*?):{1,2}(?!=)\s*(.*)$", line)
            if m and not line.startswith("."):
                target = m.group(1).strip()
                deps = m.group(2).replace("|", " ").split()
                rules.setdefault(target, set()).update(deps)
            elif m and m.group(1) == ".PHONY":
                phony.update(m.group(2).split())
            continue
        if target and target != "__not__":
            m = re.search(r"recipe to execute \(from '([^']+)'", line)
            if m:
                recipe_file[target] = m.group(1)
            if "Phony target" in line:
                phony.add(target)
    return rules, phony, recipe_file, patterns


def main():
    db, tests = sys.argv[1], sys.argv[2:]
    rules, phony, recipe_file, patterns = parse_db(db)
    test_targets = {"test-" + t: t for t in tests}
    weights = {}
    wfiles = [os.path.join(os.path.dirname(os.path.abspath(__file__)), "test_weights.txt"),
              os.path.join(os.environ.get("BUILD", "build"), "test-logs", "times.txt")]
    for wfile in [w for w in wfiles if os.path.exists(w)]:  # the last run's times win
        for line in open(wfile):
            p = line.split()
            if len(p) == 2 and not line.startswith("#"):
                weights[p[0]] = float(p[1])

    def closure(t):
        seen, stack = set(), [t]
        while stack:
            x = stack.pop()
            for d in rules.get(x, ()):
                if d not in seen:
                    seen.add(d)
                    stack.append(d)
        return seen

    prebuild = set()
    family_of = {}
    phony_users = {}
    for t in tests:
        tt = "test-" + t
        deps = closure(tt)
        fam = recipe_file.get(tt)
        if fam is None:  # a test without a recipe of its own: its first test prerequisite's
            fam = next((recipe_file[d] for d in sorted(rules.get(tt, ())) if d in recipe_file), "misc")
        family_of[t] = fam
        for d in deps:
            if d in test_targets:
                continue
            if d in phony:
                if d in recipe_file:  # (an aggregate without a recipe runs nothing)
                    phony_users.setdefault(d, set()).add(t)
            elif d in rules or any(p.match(d) for p in patterns):  # a file make knows how to build
                prebuild.add(d)
    # a phony prerequisite run by several families, or a test that is a
    # prerequisite of another test: those families become one
    parent = {}

    def find(f):
        while parent.get(f, f) != f:
            f = parent[f]
        return f

    def union(a, b):
        a, b = find(a), find(b)
        if a != b:
            parent[b] = a
    for d, users in phony_users.items():
        fams = sorted({family_of[u] for u in users})
        if len(fams) > 1:
            print("SHARED", d, *fams)
            for f in fams[1:]:
                union(fams[0], f)
    for t in tests:
        for d in closure("test-" + t):
            if d in test_targets:
                union(family_of[t], family_of[test_targets[d]])
    fams = {}
    for t in tests:
        fams.setdefault(find(family_of[t]), []).append(t)
    for f in sorted(prebuild):
        print("PREBUILD", f)
    order = sorted(fams.items(), key=lambda kv: -sum(weights.get(t, 10.0) for t in kv[1]))
    for f, ts in order:
        print("FAMILY", os.path.basename(f).replace(".mk", ""), *ts)


if __name__ == "__main__":
    main()
