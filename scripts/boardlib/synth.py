"""Yosys synthesis of a whole board top for its family (synth_xilinx -family
xc7 / xcup, synth_intel_alm -family cyclonev; vendor primitives are Yosys'
own cells, IP the board's stubs as black boxes), its resources against the
device's ([device] in board.toml) and BENCH lines:

  board_<b>_luts, _ffs, _bram     Xilinx: LUT1..6, FD*E, RAMB36 equivalents
  board_<b>_alms, _ffs, _bram     Intel: an ALM estimate (scripts/synth.sh's
                                  rule), MISTRAL_FF, M10K blocks
  board_<b>_luts, _ffs, _bram     Lattice: LUT4, TRELLIS_FF, EBR after
                                  place and route (scripts/ecp5_flow.py)

Minutes to an hour per board (the chip is large): `make bench`, never
`make test`. Counts are Yosys' mapping, not Vivado's or Quartus' fit (see
scripts/synth.sh); the fit check compares them with the device. Cached per
hash of the sources in build/boards/<b>/synth/."""
import hashlib
import json
import os
import re
import subprocess
import sys
import time

from .config import ROOT

SYNTH = {
    "xc7": "synth_xilinx -family xc7 -top {top} -flatten",
    "xcup": "synth_xilinx -family xcup -top {top} -flatten",
    "cyclonev": "synth_intel_alm -family cyclonev -top {top}",
}


def yosys_for(fam):
    """The Yosys to run: $YOSYS, else `yosys`. For xcup, Yosys 0.23 (and the
    YoWASP build of 2026) has a bug: its UltraScale LUT-RAM library
    (share/yosys/xilinx/lutrams_xcu.txt) names the 512x1 single-port RAM
    option ABITS 16 where the mapping file it shares with Virtex-5
    (lutrams_xc5v_map.v) knows 9, so any deep one-bit memory with an
    asynchronous read (kolo_ni_e2e's generation bits) stops the synthesis
    with "invalid OPTION_ABITS/WIDTH combination". Yosys finds its share
    directory next to its binary, so we run a copy of the binary beside a
    copy of the share directory with that one option renumbered
    (build/boards/yosys-xcup/); the board's counts then have RAM512X1S where
    Vivado would also use it."""
    if os.environ.get("YOSYS") or fam != "xcup":
        return os.environ.get("YOSYS", "yosys")
    import shutil
    exe = shutil.which("yosys")
    if not exe:
        return "yosys"
    exe = os.path.realpath(exe)
    share = os.path.join(os.path.dirname(exe), "..", "share", "yosys")
    lib = os.path.join(share, "xilinx", "lutrams_xcu.txt")
    bug = 'option "ABITS" 16 {\n\t\tabits 16;'
    if not os.path.exists(lib) or bug not in open(lib).read():
        return exe
    top = os.path.join(ROOT, os.environ.get("BUILD", "build"), "boards", "yosys-xcup")
    fixed = os.path.join(top, "share", "yosys", "xilinx", "lutrams_xcu.txt")
    if not os.path.exists(fixed) or bug in open(fixed).read():
        shutil.rmtree(top, ignore_errors=True)
        os.makedirs(os.path.join(top, "bin"))
        shutil.copy2(exe, os.path.join(top, "bin", "yosys"))
        abc = shutil.which("yosys-abc")
        if abc:
            os.symlink(os.path.realpath(abc), os.path.join(top, "bin", "yosys-abc"))
        shutil.copytree(share, os.path.join(top, "share", "yosys"))
        text = open(fixed).read().replace(bug, 'option "ABITS" 9 {\n\t\tabits 9;')
        open(fixed, "w").write(text)
    return os.path.join(top, "bin", "yosys")


def parse_stat(path):
    """Cell type -> count from Yosys' `stat` of the flattened top."""
    cells = {}
    for line in open(path):
        m = re.match(r"^\s+(\d+)\s+(\S+)\s*$", line) or re.match(r"^\s+(\S+)\s+(\d+)\s*$", line)
        if not m:
            continue
        a, b = m.groups()
        n, name = (int(a), b) if a.isdigit() else (int(b), a)
        if name.startswith("$") or name[0].isupper() or name.startswith("MISTRAL") or name.startswith("\\"):
            cells[name.lstrip("\\")] = cells.get(name.lstrip("\\"), 0) + n
    return cells


def count(cells, regex):
    r = re.compile(rf"^({regex})$")
    return sum(n for c, n in cells.items() if r.match(c))


def resources(family, cells):
    if family in ("xc7", "xcup"):
        suffix = "E1" if family == "xc7" else "E2"
        return {
            "luts": count(cells, "LUT[1-6]"),
            "ffs": count(cells, "FD[RSCP]E"),
            "bram": count(cells, f"RAMB36{suffix}") + count(cells, f"RAMB18{suffix}") / 2,
            "lutram": count(cells, "RAM(32|64)X1S|SRL16E|SRLC32E") + 2 * count(cells, "RAM(32|64)X1D|RAM128X1S")
            + 4 * count(cells, "RAM(32|64)M|RAM128X1D|RAM256X1S") + 8 * count(cells, "RAM512X1S"),
            "dsp": count(cells, "DSP48E[12]"),
        }
    if family == "cyclonev":
        # scripts/synth.sh router_alms_cyclonev: a 6-input ALUT takes an ALM,
        # smaller ALUTs, inverters, adder bits and MLAB cells half of one
        half = count(cells, "MISTRAL_ALUT[2-5]|MISTRAL_NOT|MISTRAL_ALUT_ARITH|MISTRAL_MLAB")
        return {
            "alms": count(cells, "MISTRAL_ALUT6") + (half + 1) // 2,
            "ffs": count(cells, "MISTRAL_FF"),
            "bram": count(cells, "MISTRAL_M10K"),
            "dsp": count(cells, "MISTRAL_MUL.*"),
        }
    raise ValueError(family)


UNITS = {"luts": "LUTs", "ffs": "FFs", "bram": "RAMB36", "alms": "ALMs", "lutram": "LUTs", "dsp": "DSPs"}
CAPACITY = {"luts": "luts", "ffs": "ffs", "bram": "bram36", "alms": "alms"}
CAPACITY_BRAM = {"intel": "m10k", "lattice": "ebr"}


def synth(b, bench=False):
    fam = b.get("family")
    key_name = b.name.replace("-", "_")
    if b.vendor == "lattice":
        return lattice_resources(b, bench)
    if fam not in SYNTH:
        print(f"board: no Yosys synthesis for family '{fam}'", file=sys.stderr)
        return 1
    out = os.path.join(b.out_dir(), "synth")
    os.makedirs(out, exist_ok=True)
    srcs, stubs = b.rtl_sources(), b.stubs()
    h = hashlib.sha256()
    for f in srcs + stubs + sorted(os.path.join("rtl", "include", x) for x in os.listdir(os.path.join(ROOT, "rtl", "include"))):
        h.update(f.encode() + b"\0" + open(os.path.join(ROOT, f), "rb").read())
    h.update((SYNTH[fam] + b.top + open(__file__).read()).encode())
    key = h.hexdigest()[:16]
    result = os.path.join(out, "result.json")
    if os.path.exists(result):
        r = json.load(open(result))
        if r.get("key") != key:
            r = None
    else:
        r = None
    if r is None:
        stat, log = os.path.join(out, "stat.txt"), os.path.join(out, "yosys.log")
        script = (f"read_verilog -lib {' '.join(stubs)}; "
                  f"read_verilog -sv -defer -I rtl/include {' '.join(srcs)}; "
                  f"{SYNTH[fam].format(top=b.top)}; tee -q -o {stat} stat")
        print(f"board: synthesising {b.top} for {fam} (log {os.path.relpath(log, ROOT)}); "
              "this takes a long time", file=sys.stderr)
        t0 = time.time()
        p = subprocess.run([yosys_for(fam), "-q", "-l", log, "-p", script], cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode != 0:
            print("\n".join(p.stdout.strip().splitlines()[-20:]), file=sys.stderr)
            print(f"board: synthesis of {b.top} failed (log {os.path.relpath(log, ROOT)})", file=sys.stderr)
            return 1
        cells = parse_stat(stat)
        r = {"key": key, "family": fam, "seconds": round(time.time() - t0), "cells": cells,
             "resources": resources(fam, cells)}
        json.dump(r, open(result, "w"), indent=1)
    return report(b, r["resources"], r.get("seconds"), bench, key_name)


def report(b, res, seconds, bench, key_name):
    dev = b.get("device", {})
    fits = True
    for k, v in res.items():
        ck = CAPACITY_BRAM.get(b.vendor, "bram36") if k == "bram" else CAPACITY.get(k, "")
        cap = dev.get(ck, None)
        use = f" of {cap} ({100.0 * v / cap:.1f}%)" if cap else ""
        if cap and v > cap:
            fits = False
            use += "  DOES NOT FIT"
        print(f"synth {b.name}: {k:7s} {v:>10g}{use}")
    print(f"synth {b.name}: {b.top} {'fits' if fits else 'does not fit'} {b.part}"
          + (f" (synthesis {seconds} s)" if seconds is not None else ""))
    if bench:
        for k in ("luts", "alms", "ffs", "bram"):
            if k in res:
                unit = {"bram": "EBR" if b.vendor == "lattice" else "M10K" if b.vendor == "intel" else "RAMB36"}.get(
                    k, UNITS[k] if b.vendor != "lattice" or k != "luts" else "LUT4")
                print(f"BENCH board_{key_name}_{k} {res[k]:g} {unit}")
    return 0 if fits else 1


def lattice_resources(b, bench):
    """The ECP5 board's numbers come from its place and route (the bitstream
    build, scripts/ecp5_flow.py): LUT4, TRELLIS_FF and EBR of the routed design."""
    name = f"board_{b.name.replace('-', '_')}"
    path = os.path.join(ROOT, os.environ.get("BUILD", "build"), "ecp5", name, "result.json")
    if not os.path.exists(path):
        print(f"board: no place-and-route result {os.path.relpath(path, ROOT)}: "
              f"make bitstream BOARD={b.name} first", file=sys.stderr)
        return 2
    r = json.load(open(path))
    c = r["cells"]
    res = {"luts": c["lut4"], "ffs": c["ff"], "bram": c["ebr"]}
    return report(b, res, None, bench, b.name.replace("-", "_"))
