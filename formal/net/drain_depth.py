#!/usr/bin/env python3
"""drain_depth.py - checks formal/net/ring_drain.sby's depths against the
drain bound of formal/net/kolo_ring_formal.v (proof 3, formal/README.md).

For every task that checks the derived bound (B_EXPECT set), the bound the
harness derives from its parameters must be B_EXPECT, and the task's BMC
depth must be WIN + B + 3: a stop requested at cycle WIN holds from step
WIN + 1, since_stop reaches B at step WIN + 1 + B, and the harness's
assertions (in a clocked block) judge a step's values one step later, at
step WIN + B + 2, the last of WIN + B + 3 steps. A shorter depth leaves the
latest stops unchecked, which no solver would notice. Control tasks (B set)
need a depth of at least WIN + B + 3. The harness's own formula is the reference: the
same one-line Verilog expression is evaluated here (L0, B_DERIVED).

usage: drain_depth.py [SBY]   (default formal/net/ring_drain.sby)
Prints one line per task; exit 0 if all agree, 1 otherwise.
"""
import re
import sys

root_sby = sys.argv[1] if len(sys.argv) > 1 else "formal/net/ring_drain.sby"
harness = "formal/net/kolo_ring_formal.v"


def harness_formula():
    """the localparams F, Q, L0, B_DERIVED of the harness, as Python expressions"""
    text = open(harness).read()
    out = {}
    for name in ("F", "Q", "L0", "B_DERIVED"):
        m = re.search(r"localparam\s+integer\s+%s\s*=\s*([^;]+);" % name, text)
        if not m:
            sys.exit("drain_depth: %s has no localparam integer %s" % (harness, name))
        out[name] = m.group(1)
    return out


def sections(text):
    sec, cur = {}, None
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith("#"):
            continue
        m = re.fullmatch(r"\[(\w+)\]", s)
        if m:
            cur = m.group(1)
            sec[cur] = []
        elif cur:
            sec[cur].append(s)
    return sec


def for_task(lines, task, tags):
    """the lines that apply to task (no prefix, its name or one of its tags)"""
    out = []
    for s in lines:
        m = re.match(r"(~?)([\w]+):\s*(.*)", s)
        if m and m.group(2) in tags | {task} | all_tags:
            hit = m.group(2) in tags | {task}
            if (m.group(1) == "~") != hit:
                out.append(m.group(3))
        elif not m or m.group(2) not in all_tags:
            out.append(s)
    return out


sec = sections(open(root_sby).read())
tasks = {}
for s in sec["tasks"]:
    w = s.split()
    tasks[w[0]] = set(w[1:])
all_tags = set(tasks) | {t for ts in tasks.values() for t in ts}
formula = harness_formula()
bad = 0
checked = 0
for task, tags in tasks.items():
    opts = {}
    for s in for_task(sec["options"], task, tags):
        k, _, v = s.partition(" ")
        opts[k] = v.strip()
    p = {"N": 2, "K": 0, "B": 0, "PKTS": 1, "WIN": 0, "MAX_LEN": 0, "B_EXPECT": 0}
    for s in for_task(sec["script"], task, tags):
        if s.startswith("chparam") and "kolo_ring_formal" in s:
            for k, v in re.findall(r"-set\s+(\w+)\s+(\d+)", s):
                p[k] = int(v)
    if opts.get("mode", "bmc") != "bmc" or "depth" not in opts:
        continue
    depth = int(opts["depth"])
    env = dict(p)
    for name in ("F", "Q", "L0", "B_DERIVED"):
        env[name] = eval(formula[name], {}, env)
    bound = p["B"] if p["B"] else env["B_DERIVED"]
    need = p["WIN"] + bound + 3
    msg = "%s: N %d K %d WIN %d, B %d%s, depth %d (WIN + B + 3 = %d)" % (
        task, p["N"], p["K"], p["WIN"], bound, "" if p["B"] else " derived", depth, need)
    ok = p["WIN"] > 0
    if p["B"] == 0:
        ok = ok and p["B_EXPECT"] == bound and depth == need
        if p["B_EXPECT"] != bound:
            msg += "; B_EXPECT %d is not the derived %d" % (p["B_EXPECT"], bound)
    else:
        ok = ok and depth >= need
    checked += 1
    print("drain_depth: %s %s" % ("ok" if ok else "MISMATCH", msg))
    bad |= not ok
if checked == 0:
    print("drain_depth: no BMC task found in %s" % root_sby)
    bad = 1
sys.exit(1 if bad else 0)
