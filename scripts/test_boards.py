#!/usr/bin/env python3
"""test_boards.py - the board checks of scripts/board.py, and the bugs they
must catch. For every board (or the ones named): the top elaborates, its
constraints and vendor Tcl pass; then, on copies under build/boards-test/,
planted bugs each of which must give the finding named here:

  every vendor   a chip output left unconnected (slang); a port left without a pin; a port without an I/O standard;
                 a constraint naming a port that does not exist; a clock
                 input without a clock
  PCIe tops      the shim's completion output left open, the chip's
                 completion input tied low (where the board has the stream,
                 VCU118; planted in the elaborated netlist): every ep_* port
                 of the shim must be joined to kolo_chip's port of that name
  ECP5           a top that connects a port its primitive does not have
                 (elaboration fails; Yosys' hierarchy -check, the same for all)
  Xilinx         a crossing cell type without its exception (kolo_cdc.tcl);
                 an unescaped [..] in a constraint (Tcl runs it as a
                 command); a cell path that does not exist; two ports on one
                 pin; the build script synthesising another top; a
                 Tcl syntax error in the IP script; no configuration voltage
  Lattice        a FREQUENCY NET naming no net; a statement nextpnr does
                 not know; a tie-off overlapping a driven lane (two drivers)
  Xilinx, Intel  a generated IP whose ports differ from the board's stub
  Intel          a crossing cell type without its exception (kolo_cdc.sdc);
                 a register the SDC names that does not exist; a bus bit
                 unbraced in the QSF (Tcl runs [0]); two ports on one pin;
                 the build script compiling another top; a Platform
                 Designer interface not exported; a Tcl syntax error in the
                 IP script

Usage: scripts/test_boards.py [BOARD ...]   (exit 0: every check as expected)
"""
import os
import re
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from boardlib.config import ROOT, Board, BoardError, board_names  # noqa: E402
from boardlib import netlist  # noqa: E402
import board as board_cli  # noqa: E402

OUT = os.path.join(ROOT, os.environ.get("BUILD", "build"), "boards-test")
fails = 0
count = 0
ELAB_PLANT_BOARD = "ecp5-evn"


def result(ok, what, detail=""):
    global fails, count
    count += 1
    if ok:
        print(f"ok   {what}")
    else:
        fails += 1
        print(f"FAIL {what}" + (f"\n    {detail}" if detail else ""))


def copy_with(path, old, new, name, count=1, folder=None):
    """A copy of a board file with one change (the plant); the change must
    apply. folder: copy the whole board folder first (scripts that read the
    files beside them)."""
    text = open(path).read()
    if isinstance(old, re.Pattern):
        changed, n = old.subn(new, text, count=count)
    else:
        n = text.count(old)
        changed = text.replace(old, new, count)
    if n == 0:
        raise SystemExit(f"test_boards: plant '{name}' does not apply to {path}")
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    if folder:
        for f in os.listdir(folder):
            if os.path.isfile(os.path.join(folder, f)):
                shutil.copy(os.path.join(folder, f), d)
    dst = os.path.join(d, os.path.basename(path))
    open(dst, "w").write(changed)
    return dst


def expect(b, design, name, needle, constraints=None, tcl=None, out=None):
    findings = board_cli.run_checks(b, design, constraints=constraints, tcl=tcl,
                                    out=out or os.path.join(OUT, name, "tcl"))
    hit = [f for f in findings if needle in f]
    result(bool(hit), f"{b.name}: plant {name}: '{needle}'",
           "findings: " + ("; ".join(findings[:4]) if findings else "none"))


def planted_board(b, src, bad, plant):
    """Board b with its source file src replaced by the planted copy bad,
    elaborated under build/boards-test/<board>-<plant>."""
    class Planted(Board):
        def rtl_sources(self):
            return [os.path.relpath(bad, ROOT) if s == b.rel(src) else s for s in Board.rtl_sources(self)]

        def out_dir(self):
            return os.path.join(OUT, f"{b.name}-{plant}")
    return Planted(b.name)


def replace_in(files, target, new):
    return [new if os.path.basename(f) == os.path.basename(target) else f for f in files]


def test_board(name):
    b = Board(name)
    try:
        d = board_cli.elaborate(b)
        result(True, f"{name}: {b.top} elaborates")
    except BoardError as e:
        result(False, f"{name}: {b.top} elaborates", str(e))
        return
    findings = board_cli.run_checks(b, d, out=os.path.join(OUT, name, "tcl"))
    result(not findings, f"{name}: constraints and vendor Tcl pass", "; ".join(findings[:6]))
    ok, out = board_cli.slang_lint(b)
    result(ok, f"{name}: {b.top} passes slang (make lint's strict front end)", out[-600:])
    # plant: an output of the chip left unconnected (vendor tools warn, slang fails)
    src = b.files("sources")[0]
    bad = copy_with(src, ".stat_e2e_inc()", "", f"{name}-unconnected")
    ok, out = board_cli.slang_lint(b, [os.path.relpath(bad, ROOT) if s == b.rel(src) else s
                                       for s in b.rtl_sources()] + b.stubs())
    result(not ok and "'stat_e2e_inc' has no connection" in out,
           f"{name}: plant unconnected: slang finds the chip's output left off", out[-300:])
    cons = b.files("constraints")
    tcl = b.files("tcl")
    pins = cons[0]
    if b.vendor == "xilinx":
        timing = [f for f in cons if f.endswith("_timing.xdc")][0]
        cdc = [f for f in cons if f.endswith("kolo_cdc.tcl")][0]
        ipt = [f for f in tcl if f.endswith("_ip.tcl")][0]
        build = [f for f in tcl if f.endswith("_build.tcl")][0]
        led0 = re.compile(r"set_property -dict \{PACKAGE_PIN (\S+)\s+IOSTANDARD (\S+)\} \[get_ports \{led\[0\]\}\]")
        p = copy_with(pins, led0, "set_property IOSTANDARD \\2 [get_ports {led[0]}]", f"{name}-nopin")
        expect(b, d, f"{name}-nopin", "port led[0]: no PACKAGE_PIN", constraints=replace_in(cons, pins, p))
        p = copy_with(pins, led0, "set_property PACKAGE_PIN \\1 [get_ports {led[0]}]", f"{name}-nostd")
        expect(b, d, f"{name}-nostd", "port led[0]: no IOSTANDARD", constraints=replace_in(cons, pins, p))
        p = copy_with(pins, "[get_ports {led[7]}]", "[get_ports {led_x[7]}]", f"{name}-noport")
        expect(b, d, f"{name}-noport", "no port matches 'led_x[7]'", constraints=replace_in(cons, pins, p))
        first = b.get("clock_ports")[0]
        t = copy_with(timing, re.compile(rf"^create_clock .*\[get_ports {first}\]\n", re.M), "",
                      f"{name}-noclock")
        expect(b, d, f"{name}-noclock", f"clock port {first}: no create_clock",
               constraints=replace_in(cons, timing, t))
        c = copy_with(cdc, re.compile(r"foreach inst \[kolo_cdc_cells kolo_fifo_async\] \{.*?\n\}\n", re.S), "",
                      f"{name}-nocdc")
        expect(b, d, f"{name}-nocdc", "(kolo_fifo_async): no timing exception names it",
               constraints=replace_in(cons, cdc, c))
        c = copy_with(cdc, '"$inst/chain_reg\\[0\\]*"', '"$inst/chain_reg[0]*"', f"{name}-bracket")
        expect(b, d, f"{name}-bracket", 'invalid command name "0"', constraints=replace_in(cons, cdc, c))
        t = copy_with(timing, "[get_cells {lnk_s_reg[0]}]", "[get_cells {u_nosuch/lnk_s_reg[0]}]",
                      f"{name}-nocell")
        expect(b, d, f"{name}-nocell", "no cell matches 'u_nosuch/lnk_s_reg[0]'",
               constraints=replace_in(cons, timing, t))
        led1 = re.search(r"PACKAGE_PIN (\S+)\s+IOSTANDARD \S+\} \[get_ports \{led\[1\]\}\]", open(pins).read()).group(1)
        p = copy_with(pins, re.compile(r"PACKAGE_PIN \S+(\s+IOSTANDARD \S+\} \[get_ports \{led\[2\]\}\])"),
                      f"PACKAGE_PIN {led1}\\1", f"{name}-twice")
        expect(b, d, f"{name}-twice", f"pin {led1}: both", constraints=replace_in(cons, pins, p))
        p = copy_with(pins, re.compile(r"^set_property CONFIG_VOLTAGE .*\n", re.M), "", f"{name}-novolt")
        expect(b, d, f"{name}-novolt", "CONFIG_VOLTAGE not set", constraints=replace_in(cons, pins, p))
        # the build script reads the files beside it: plant in a copy of the folder
        bt = copy_with(build, f"set top {b.top}", "set top kolo_chip", f"{name}-wrongtop", folder=b.dir)
        expect(b, d, f"{name}-wrongtop", "synth_design -top 'kolo_chip'", tcl=replace_in(tcl, build, bt))
        ip = copy_with(ipt, "create_ip -name", "create_ip -name {", f"{name}-tclsyntax", folder=b.dir)
        bt = os.path.join(os.path.dirname(ip), os.path.basename(build))
        expect(b, d, f"{name}-tclsyntax", "missing close-brace", tcl=replace_in(replace_in(tcl, ipt, ip), build, bt))
        # the FuseSoC flow's IP hook (kolo_board_<b>.core) that makes no IP
        hook = [f for f in tcl if f.endswith("_fusesoc.tcl")][0]
        h = copy_with(hook, f"kolo_fusesoc_ip {name} $kolo_board_dir $kolo_common", "# planted: no IP",
                      f"{name}-fusesoc-noip", folder=b.dir)
        expect(b, d, f"{name}-fusesoc-noip", f"fusesoc hook: the top instantiates kolo_{name}_pcie",
               tcl=replace_in(tcl, hook, h))
        expect(b, d, f"{name}-fusesoc-noip", "fusesoc hook: does not read the shared constraints kolo_cdc.tcl",
               tcl=replace_in(tcl, hook, h))
    elif b.vendor == "lattice":
        p = copy_with(pins, re.compile(r'^LOCATE COMP "led_n\[0\]" SITE "\S+";\n', re.M), "", f"{name}-nopin")
        expect(b, d, f"{name}-nopin", "port led_n[0]: no LOCATE", constraints=[p])
        p = copy_with(pins, re.compile(r'^IOBUF PORT "led_n\[0\]" .*\n', re.M), "", f"{name}-nostd")
        expect(b, d, f"{name}-nostd", "port led_n[0]: no IO_TYPE", constraints=[p])
        p = copy_with(pins, 'LOCATE COMP "led_n[7]"', 'LOCATE COMP "led_x[7]"', f"{name}-noport")
        expect(b, d, f"{name}-noport", "LOCATE of 'led_x[7]', not a port", constraints=[p])
        p = copy_with(pins, re.compile(r'^FREQUENCY PORT "clk12" .*\n', re.M), "", f"{name}-noclock")
        expect(b, d, f"{name}-noclock", "clock port clk12: no FREQUENCY", constraints=[p])
        p = copy_with(pins, 'FREQUENCY NET "dcu_tx_clk[0]"', 'FREQUENCY NET "dcu_tx_clk_x[0]"', f"{name}-nonet")
        expect(b, d, f"{name}-nonet", "FREQUENCY NET 'dcu_tx_clk_x[0]', not a net", constraints=[p])
        p = copy_with(pins, "SYSCONFIG MASTER_SPI_PORT=ENABLE;", "BLOCK RESETPATHS;", f"{name}-unknown")
        expect(b, d, f"{name}-unknown", "statement not understood: BLOCK RESETPATHS", constraints=[p])
        # a tie-off of the unused ports' lanes that also covers port 1's (two
        # drivers: Yosys' elaboration lets it through, slang does not)
        src = b.files("sources")[0]
        bad = copy_with(src, "assign lane_rx_header[11:4] = 8'd0;", "assign lane_rx_header[11:2] = 10'd0;",
                        f"{name}-twodrivers")
        ok, out = board_cli.slang_lint(b, [os.path.relpath(bad, ROOT) if s == b.rel(src) else s
                                           for s in b.rtl_sources()] + b.stubs())
        result(not ok and "lane_rx_header" in out, f"{name}: plant twodrivers: slang finds the overlapping tie-off",
               out[-300:])
    elif b.vendor == "intel":
        from boardlib.intel import plants
        for pname, needle, cons2, tcl2 in plants(b, OUT, copy_with):
            expect(b, d, f"{name}-{pname}", needle, constraints=cons2, tcl=tcl2)
    if b.vendor in ("xilinx", "intel"):
        # the generated IP (stand-in: the board's stub) with one port renamed:
        # the build script's kolo_check_ip_ports must stop on it
        if b.vendor == "xilinx":
            from boardlib.xilinx import VivadoBuild as Build
        else:
            from boardlib.intel import QuartusBuild as Build
        orig = Build.ip_stub_text
        stub_port = re.search(r"(?:input|output)\s+wire\s+(?:\[\S+\]\s+)?(\w+)",
                              open(b.files("ip_stubs")[0]).read()).group(1)
        Build.ip_stub_text = lambda self, path: re.sub(rf"\b{stub_port}\b", stub_port + "_x",
                                                       orig(self, path), count=1)
        try:
            expect(b, d, f"{name}-ipports", f"{stub_port}: not a port of the generated")
        finally:
            Build.ip_stub_text = orig
    # the PCIe completion stream left unwired between the shim and the chip: the
    # board's wiring check (boardlib.netlist.check_pcie_wiring, in run_checks) on
    # the elaborated top with one connection changed in the netlist (an
    # elaboration of a planted copy would cost a minute): the shim's output
    # open (a net of its own), and the chip's input tied low
    top = d.modules[d.top]
    shim = [i for i, t in top.cells.items() if netlist.base_name(t).startswith("kolo_pcie_shim_")]
    chip = [i for i, t in top.cells.items() if netlist.base_name(t) == "kolo_chip"]
    if shim and chip and "ep_rx_cpl_valid" in top.conns[shim[0]]:
        for plant, inst, port, bits in (("cplopen", shim[0], "ep_rx_cpl_valid", [10 ** 9]),
                                        ("cpltied", chip[0], "rx_cpl_valid", ["0"])):
            keep = top.conns[inst][port]
            top.conns[inst][port] = bits
            try:
                found = netlist.check_pcie_wiring(d)
            finally:
                top.conns[inst][port] = keep
            result(any("ep_rx_cpl_valid" in f for f in found),
                   f"{name}: plant {plant}: the completion stream not wired shim to chip is found",
                   "; ".join(found[:4]) or "no finding")
    # elaboration: the top connects a port its IP (or primitive) does not have
    # (Yosys' hierarchy -check, the same for every board: planted on one, as
    # each planted elaboration costs seconds)
    src = b.files("sources")[0]
    text = open(src).read()
    m = re.search(r"\n  (\w+) (?:#\([^;]*?\) )?(u_\w+) \(\n\s+\.(\w+)\(", text)
    if m and name == ELAB_PLANT_BOARD:
        bad = copy_with(src, f".{m.group(3)}(", f".{m.group(3)}_x(", f"{name}-elab")
        try:
            board_cli.elaborate(planted_board(b, src, bad, "elab"))
            result(False, f"{name}: plant elab ({m.group(1)}.{m.group(3)}_x): elaboration must fail")
        except BoardError as e:
            result(f"{m.group(3)}_x" in str(e), f"{name}: plant elab: unknown port {m.group(3)}_x of "
                   f"{m.group(1)} refused", str(e)[-300:])


def prefetch(names):
    """The boards' elaborations (a Yosys run of seconds each), two at a time
    on this 2-core machine; test_board then loads them from the cache.
    A failure is left for test_board to report."""
    from concurrent.futures import ThreadPoolExecutor

    def one(n):
        try:
            board_cli.elaborate(Board(n))
        except BoardError:
            pass
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(one, names))


def test_xcup_lutram():
    """The VCU118's synthesis (make bench-board_vcu118) runs Yosys with its
    UltraScale LUT-RAM library mended (boardlib.synth.yosys_for): a 4096 x 1
    memory read asynchronously (as kolo_ni_e2e's generation bits) must map
    to RAM512X1S; the system Yosys is the control while it has the bug."""
    from boardlib import synth
    d = os.path.join(OUT, "xcup-lutram")
    os.makedirs(d, exist_ok=True)
    v = os.path.join(d, "deep.v")
    open(v, "w").write("module deep(input wire clk, input wire we, input wire [11:0] a, input wire d,\n"
                       "            output wire q);\n  reg mem[0:4095];\n"
                       "  always @(posedge clk) if (we) mem[a] <= d;\n  assign q = mem[a];\nendmodule\n")

    def run(exe):
        p = subprocess.run([exe, "-q", "-p", f"read_verilog {v}; synth_xilinx -family xcup -top deep; "
                            f"tee -q -o {d}/stat.txt stat"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        cells = synth.parse_stat(os.path.join(d, "stat.txt")) if p.returncode == 0 else {}
        return p.returncode, p.stdout, cells
    exe = synth.yosys_for("xcup")
    rc, out, cells = run(exe)
    result(rc == 0 and cells.get("RAM512X1S") == 8,
           f"xcup LUT-RAM: a 4096 x 1 asynchronous memory maps to 8 RAM512X1S ({os.path.relpath(exe, ROOT) if exe.startswith(ROOT) else exe})",
           out.strip().splitlines()[-1] if out.strip() else str(cells))
    if exe != "yosys" and exe.startswith(ROOT):
        rc, out, _ = run("yosys")
        result(rc != 0 and "invalid OPTION_ABITS/WIDTH" in out,
               "xcup LUT-RAM control: the system Yosys stops on the same memory", out.strip()[-200:])


def main():
    names = sys.argv[1:] or board_names()
    t0 = time.time()
    prefetch(names)
    print(f"test_boards: {len(names)} boards elaborated in {time.time() - t0:.1f} s")
    if not sys.argv[1:]:
        test_xcup_lutram()
    for n in names:
        test_board(n)
    print(f"test_boards: {count} checks, {fails} failed")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
