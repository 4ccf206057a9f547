#!/usr/bin/env python3
"""board.py - kolo's boards (boards/<board>/board.toml, docs/boards.md):

    scripts/board.py list
    scripts/board.py bitstream BOARD [--dry-run]   the vendor build, or a clear stop
    scripts/board.py flash BOARD [--spi] [--dry-run]
    scripts/board.py elab BOARD                    Yosys: the top elaborates (black boxes)
    scripts/board.py check BOARD                   constraints and vendor Tcl, against the design
    scripts/board.py lint BOARD                    slang (make lint's strict front end) on the top
    scripts/board.py synth BOARD [--bench]         Yosys synthesis for the family, fit, resources

bitstream and flash never leave a half-built tree: what is missing (the
vendor tool, a cable, the bitstream) is found before anything is written,
and the message names it and the exact command that would run. The ECP5
board's bitstream is built here (scripts/ecp5_flow.py, in context).
Exit status: 0 done, 1 a check failed or the build did, 2 a tool, cable or
input is missing (nothing was built), 3 usage.
"""
import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from boardlib.config import ROOT, Board, BoardError, board_names  # noqa: E402
from boardlib import netlist  # noqa: E402

MISSING = 2


def say(msg):
    print(f"board: {msg}", file=sys.stderr, flush=True)


def fw_images(name):
    """The service processor's firmware ($readmemh images), if built."""
    d = os.path.join(ROOT, os.environ.get("BUILD", "build"), "fw", "rv32")
    imem, dmem = os.path.join(d, f"{name}.imem.hex"), os.path.join(d, f"{name}.dmem.hex")
    return (imem, dmem) if os.path.exists(imem) and os.path.exists(dmem) else ("", "")


def expand(cmd, **kw):
    return [c.format(**kw) for c in cmd]


# ---- bitstream ---------------------------------------------------------------------------
def cmd_bitstream(b, a):
    out = b.out_dir()
    # the ECP5 board has no NI: its host reaches the node through the service
    # window only, and its firmware serves host messages (docs/firmware.md)
    fw = "kolo_fw_rv32_hmsg" if b.vendor == "lattice" else "kolo_fw_rv32"
    imem, dmem = fw_images(fw)
    if b.vendor == "lattice":
        return ecp5_bitstream(b, a, imem, dmem)
    tool = b.get("tool")
    filelist = os.path.join(out, "files.f")
    cmd = expand(b.get("build"), board_dir=b.rel(b.dir), out=b.rel(out), filelist=b.rel(filelist),
                 imem=os.path.relpath(imem, ROOT) if imem else "", dmem=os.path.relpath(dmem, ROOT) if dmem else "")
    cmd = [c for c in cmd if c != ""]
    line = " ".join(shlex.quote(c) for c in cmd)
    if a.dry_run:
        print(line)
        return 0
    if not shutil.which(tool):
        say(f"{tool} is not installed here (or not on PATH): nothing was built.")
        say(f"with {b.get('title')}'s tool installed, `make bitstream BOARD={b.name}` writes "
            f"{b.rel(filelist)} (the source list) and runs, from {ROOT}:")
        say(f"  {line}")
        return MISSING
    if not imem:
        say(f"note: no firmware image (build/fw/rv32/{fw}.*.hex): the service processor's RAM "
            "will be empty")
    b.write_filelist()
    say(f"running: {line}")
    t0 = time.time()
    r = subprocess.run(cmd, cwd=ROOT)
    say(f"{tool} exit {r.returncode} after {time.time() - t0:.0f} s; outputs in {b.rel(out)}")
    return 0 if r.returncode == 0 else 1


def ecp5_bitstream(b, a, imem, dmem):
    out = b.out_dir()
    bit = os.path.join(out, b.get("bitstream"))
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "ecp5_flow.py"), "--top", b.top,
           "--name", f"board_{b.name.replace('-', '_')}", "--lpf", b.rel(b.files("constraints")[0]),
           "--bit", b.rel(bit), "--files"] + b.rtl_sources() + b.get("flow_args", [])
    for opt in b.get("ecppack", []):
        cmd.append(f"--ecppack-opt={opt}")
    if imem:
        cmd += ["-P", f'SP_IMEM_INIT="{imem}"', "-P", f'SP_DMEM_INIT="{dmem}"']
    else:
        say("note: no firmware image (make fw-rv32): the service processor's RAM is empty in this bitstream")
    if a.dry_run:
        print(" ".join(shlex.quote(c) for c in cmd))
        return 0
    r = subprocess.run(cmd, cwd=ROOT)
    if r.returncode != 0:
        return 1
    if a.bench:
        # the board's numbers under the names docs/boards.md gives them
        res = json.load(open(os.path.join(ROOT, os.environ.get("BUILD", "build"), "ecp5",
                                          f"board_{b.name.replace('-', '_')}", "result.json")))
        first = next(iter(res["clocks"]))
        print(f"BENCH fmax_ecp5_board {res['fmax'][first]['achieved_mhz']} MHz")
        for c, v in res["fmax"].items():
            if c != first:
                cname = re.sub(r"\W+", "_", c).strip("_")
                print(f"BENCH fmax_ecp5_board_{cname} {v['achieved_mhz']} MHz")
        key = b.name.replace("-", "_")
        print(f"BENCH board_{key}_luts {res['cells']['lut4']} LUT4")
        print(f"BENCH board_{key}_ffs {res['cells']['ff']} FFs")
        print(f"BENCH board_{key}_bram {res['cells']['ebr']} EBR")
        print(f"BENCH bitstream_ecp5_seconds {res['seconds']['total']} s")
    return 0


# ---- flash -------------------------------------------------------------------------------
def cmd_flash(b, a):
    bit = os.path.join(b.out_dir(), b.get("bitstream"))
    if a.spi and not b.get("flash_spi"):
        say(f"{b.get('title')}: writing the configuration flash is not done by this script: "
            f"{b.get('flash_spi_note', 'see docs/boards.md')}")
        return 3
    cmd = expand(b.get("flash_spi" if a.spi else "flash"), bit=b.rel(bit))
    line = " ".join(shlex.quote(c) for c in cmd)
    if a.dry_run:
        print(line)
        return 0
    if not shutil.which(cmd[0]):
        say(f"{cmd[0]} is not installed (make deps installs openFPGALoader): nothing was written.")
        say(f"the command that would run: {line}")
        return MISSING
    if not os.path.exists(bit):
        say(f"no bitstream {b.rel(bit)}: make bitstream BOARD={b.name} first. Nothing was written.")
        say(f"the command that would run: {line}")
        return MISSING
    # is the board's cable there? (board.toml detect: talks to the cable, writes nothing)
    detect = b.get("detect")
    try:
        r = subprocess.run(detect, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=30)
        out = r.stdout.strip()
        found = r.returncode == 0 and not re.search(r"(?i)no (cable|device|jtag)|not found|error", out)
        why = out.splitlines()[-1] if out else f"exit {r.returncode}"
    except (subprocess.TimeoutExpired, FileNotFoundError) as e:
        found, why = False, str(e)
    if not found:
        say(f"no {b.get('title')} found on a cable ({' '.join(detect)}: {why}): nothing was written.")
        say(f"connect the board's USB/JTAG cable and power it, then run: {line}")
        return MISSING
    say(f"running: {line}")
    r = subprocess.run(cmd)
    return 0 if r.returncode == 0 else 1


# ---- checks -----------------------------------------------------------------------------------
def elaborate(b):
    return netlist.elaborate(b, os.path.join(b.out_dir(), "elab"), yosys=os.environ.get("YOSYS", "yosys"))


def cmd_elab(b, a):
    t0 = time.time()
    d = elaborate(b)
    n = len(d.instances())
    bb = sorted({m.base for m in d.modules.values() if m.blackbox and any(
        netlist.base_name(t) == m.base for t in d.instances().values())})
    print(f"elab {b.name}: {b.top} elaborates: {len(d.ports)} ports, {n} instances, "
          f"black boxes: {', '.join(bb)} ({time.time() - t0:.1f} s)")
    return 0


def run_checks(b, design, constraints=None, tcl=None, out=None):
    """All findings of the constraint and vendor Tcl checks (a list of strings)."""
    constraints = constraints or b.files("constraints")
    tcl = tcl if tcl is not None else b.files("tcl")
    findings = netlist.check_pcie_wiring(design)
    if b.vendor == "xilinx":
        from boardlib.xilinx import Vivado, VivadoBuild
        v = Vivado(design, b)
        for f in constraints:
            v.source(f)
        findings += [f"{w}: {m}" for w, m in v.errors]
        findings += [f"constraints: {m}" for m in v.check_constraints()]
        vb = VivadoBuild(design, b, out or os.path.join(b.out_dir(), "tclcheck"))
        os.makedirs(vb.out, exist_ok=True)
        with open(os.path.join(vb.out, "files.f"), "w") as f:
            f.write("\n".join(b.rtl_sources()) + "\n")
        build = [f for f in tcl if f.endswith("_build.tcl")]
        vb.tcl.eval(f"set argv {{{vb.out} {os.path.join(vb.out, 'files.f')} a.hex b.hex}}; set argc 4")
        vb.tcl.eval(f"set ::kolo_root {{{ROOT}}}")
        for f in build:
            vb.source(f)
        findings += [f"{w}: {m}" for w, m in vb.errors]
        findings += [f"build: {m}" for m in vb.check_build()]
        # the FuseSoC/Edalize flow's IP hook (kolo_board_<b>.core): it must
        # make every IP the top instantiates, as the build script does
        for f in [f for f in tcl if f.endswith("_fusesoc.tcl")]:
            vh = VivadoBuild(design, b, os.path.join(vb.out, "fusesoc"))
            os.makedirs(vh.out, exist_ok=True)
            # the hook makes its IP under [pwd] (the FuseSoC work directory):
            # here the check's own directory, never the repository
            vh.tcl.eval(f"set ::kolo_root {{{ROOT}}}; rename pwd _kolo_pwd; proc pwd {{}} {{return {{{vh.out}}}}}")
            vh.source(f)
            findings += [f"{w}: {m}" for w, m in vh.errors]
            findings += [f"fusesoc hook: {m}" for m in vh.check_build() if "create_ip" in m]
            shared = [c for c in b.get("constraints", []) if c.startswith("../common/")]
            for c in shared:
                if not any(r.endswith(os.path.basename(c)) for r in vh.read):
                    findings.append(f"fusesoc hook: does not read the shared constraints {os.path.basename(c)}")
    elif b.vendor == "lattice":
        from boardlib.lattice import check_lpf
        for f in constraints:
            findings += check_lpf(f, design, b)
    elif b.vendor == "intel":
        from boardlib.intel import check_intel
        findings += check_intel(b, design, constraints, tcl, out or os.path.join(b.out_dir(), "tclcheck"))
    return findings


def cmd_check(b, a):
    t0 = time.time()
    d = elaborate(b)
    findings = run_checks(b, d)
    for f in findings:
        print(f"FAIL {b.name}: {f}")
    if b.vendor == "intel":
        from boardlib.intel import NOTES
        kit = [n.split(":")[0][5:] for n in NOTES if "kit's pin file" in n]
        if kit:
            print(f"note {b.name}: {len(kit)} port bits are placed by the kit's pin file, not known here "
                  f"(the build stops until they are; docs/boards.md): {', '.join(kit)}")
    print(f"check {b.name}: {'PASS' if not findings else f'{len(findings)} findings'} "
          f"({len(d.port_bits())} port bits, {time.time() - t0:.1f} s)")
    return 0 if not findings else 1


def slang_lint(b, sources=None):
    """The strict front end of make lint (scripts/lint_slang.py, slang) on the
    board top: the board's sources and the IP stubs, vendor primitives as
    black boxes. Returns (ok, output)."""
    srcs = sources or (b.rtl_sources() + b.stubs())
    py = os.path.join(ROOT, ".venv", "bin", "python")
    r = subprocess.run([py if os.path.exists(py) else sys.executable, os.path.join(ROOT, "scripts", "lint_slang.py"),
                        "--top", b.top, "--blackbox", "-I", "rtl/include"] + srcs,
                       cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return r.returncode == 0, r.stdout.strip()


def cmd_lint(b, a):
    ok, out = slang_lint(b)
    if out:
        print(out)
    print(f"lint {b.name}: {b.top}: {'PASS' if ok else 'FAIL'} (slang)")
    return 0 if ok else 1


def cmd_synth(b, a):
    from boardlib.synth import synth
    return synth(b, a.bench)


def main():
    ap = argparse.ArgumentParser(description="kolo's boards (see the header and docs/boards.md)")
    ap.add_argument("cmd", choices=["list", "bitstream", "flash", "elab", "check", "lint", "synth", "filelist"])
    ap.add_argument("board", nargs="?")
    ap.add_argument("--dry-run", action="store_true", help="print the command, run nothing")
    ap.add_argument("--spi", action="store_true", help="flash: write the configuration flash")
    ap.add_argument("--bench", action="store_true", help="print BENCH lines")
    a = ap.parse_args()
    if a.cmd == "list":
        for n in board_names():
            print(f"{n:12s} {Board(n).get('title')}")
        return 0
    if not a.board:
        say(f"{a.cmd} needs a board: {', '.join(board_names())}")
        return 3
    chip = os.path.join(ROOT, "rtl", "chip", "kolo_chip.v")
    if a.cmd not in ("flash",) and not os.path.exists(chip):
        say(f"{a.cmd} {a.board}: the board tops wrap kolo_chip, and rtl/chip/kolo_chip.v is not in "
            f"this tree yet: nothing was built.")
        return MISSING
    try:
        b = Board(a.board)
        if a.cmd == "filelist":
            print(b.rel(b.write_filelist()))
            return 0
        return {"bitstream": cmd_bitstream, "flash": cmd_flash, "elab": cmd_elab, "check": cmd_check,
                "lint": cmd_lint, "synth": cmd_synth}[a.cmd](b, a)
    except BoardError as e:
        say(str(e))
        return 1


if __name__ == "__main__":
    sys.exit(main())
