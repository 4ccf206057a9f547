"""Vivado, checked here: the board's XDC files and the shared CDC script run
in a Tcl interpreter whose Vivado commands resolve every object against
the elaborated design (a port, cell, pin or clock that does not exist is a
finding), and then the checks of a complete set of constraints: every top
port pinned, every port that is not a transceiver pin with an I/O standard,
every clock input with a clock, the configuration settings, and every
instance of a clock-crossing cell under a timing exception. The IP and
build scripts run against stubs of the project-mode-free Vivado commands
they use (files exist, the top and part are the board's, every IP the top
instantiates is created, kolo_check_ip_ports works)."""
import os
import re

from .config import ROOT
from .netlist import base_name, reg_base
from .tclstub import StubError, TclStub, glob_match, tcl_list

# kolo's clock-crossing cells (rtl/common): every instance must be under a
# timing exception (boards/common/xilinx/kolo_cdc.tcl)
CDC_CELLS = ("kolo_fifo_async", "kolo_sync_bit", "kolo_reset_sync", "kolo_sync_word")
# registers with ASYNC_REG outside those cells that need no exception of
# their own: a synchroniser of an input pin (the pin has a false path)
PIN_SYNCS = ("kolo_uart_rx",)
# register cell pins (FDRE/FDSE/FDCE/FDPE)
REG_PINS = ("C", "CE", "D", "Q", "R", "S", "CLR", "PRE")
TIMING_CMDS = ("set_max_delay", "set_min_delay", "set_false_path", "set_multicycle_path")


class Vivado(TclStub):
    def __init__(self, design, board):
        super().__init__()
        self.d = design
        self.board = board
        self.pin = {}        # port bit -> package pin
        self.iostd = {}      # port bit -> I/O standard
        self.props = {}      # (object, property) -> value
        self.clocks = {}     # name -> (period, objects)
        self.timing = []     # (command, [objects referenced])
        self.design_props = {}
        self.ips = {}        # module name -> IP name (create_ip)
        self.ip_props = {}
        self.build = {}      # what the build script did: synth top/part, bitstream ...
        self.kinds = {}      # object name -> port, cell, pin, net, clock, design, ip
        for name, fn in [
            ("get_ports", self.get_ports), ("get_cells", self.get_cells), ("get_pins", self.get_pins),
            ("get_nets", self.get_nets), ("get_clocks", self.get_clocks),
            ("current_design", self.current_design), ("get_property", self.get_property),
            ("set_property", self.set_property), ("create_clock", self.create_clock),
            ("create_generated_clock", self.create_generated_clock),
            ("set_clock_groups", self.set_clock_groups),
            ("set_input_delay", self.io_delay), ("set_output_delay", self.io_delay),
            ("set_clock_uncertainty", lambda a: ""), ("set_input_jitter", lambda a: ""),
        ] + [(c, self.timing_exception(c)) for c in TIMING_CMDS]:
            self.command(name, fn)

    def current_design(self, args):
        self.kinds["kolo_design"] = "design"
        return "kolo_design"

    # ---- object queries ----------------------------------------------------------------
    def get_ports(self, args):
        flags, opts, pats = self.parse(args, flags=("-quiet",), options=("-filter",))
        names = list(self.d.ports) + self.d.port_bits()
        out = []
        for pat in [p for arg in pats for p in self.objects(arg)]:
            m = [n for n in names if glob_match(n, pat)]
            if not m and "-quiet" not in flags:
                raise StubError(f"no port matches '{pat}'")
            for n in m:
                if n not in out:
                    out.append(n)
                    self.kinds[n] = "port"
        return tcl_list(out)

    def _cells_below(self, pattern):
        """Cells a path pattern names: instances, or registers (and memories)
        of the module the path leads to; a path into a black box (IP, a
        primitive) is accepted unchecked."""
        inst = self.d.instances()
        hits = [p for p in inst if glob_match(p, pattern)]
        parts = pattern.split("/")
        parent, last = "/".join(parts[:-1]), parts[-1]
        parents = [""] if parent == "" else [p for p in inst if glob_match(p, parent)]
        for pp in parents:
            mod = self.d.module_of(pp)
            m = self.d.modules.get(mod)
            if m is None:
                continue
            if m.blackbox:
                hits.append(f"{pp}/{last}")
                self.notes.append(f"{pattern}: inside {base_name(mod)} (IP or primitive), not checked")
                continue
            base = reg_base(last)
            for n in m.nets:
                nb = re.sub(r"(\[[^\]]*\])+$", "", n)
                if glob_match(nb, base) or glob_match(n, base):
                    hits.append(f"{pp + '/' if pp else ''}{n}_reg")
                    break
        # a path through a black box further up
        for i in range(1, len(parts) - 1):
            head = "/".join(parts[:i])
            for pp in [p for p in inst if glob_match(p, head)]:
                mod = self.d.modules.get(self.d.module_of(pp))
                if mod is not None and mod.blackbox:
                    hits.append(pattern)
                    self.notes.append(f"{pattern}: inside {mod.base} (IP or primitive), not checked")
        return sorted(set(hits))

    def get_cells(self, args):
        flags, opts, pats = self.parse(args, flags=("-quiet", "-hierarchical", "-hier"),
                                       options=("-filter", "-of_objects"))
        out = []
        if "-of_objects" in opts:
            for o in self.objects(opts["-of_objects"][0]):
                if self.kinds.get(o) == "pin":
                    out.append(o.rsplit("/", 1)[0])
        elif "-filter" in opts and not pats:
            refs = re.findall(r"(?:ORIG_)?REF_NAME\s*==\s*\"?([\w$]+)\"?", opts["-filter"][0])
            if not refs:
                raise StubError(f"filter '{opts['-filter'][0]}' not understood (REF_NAME == ...)")
            for r in refs:
                out += self.d.instances_of(r)
        for pat in [p for arg in pats for p in self.objects(arg)]:
            hits = self._cells_below(pat)
            if not hits and "-quiet" not in flags:
                raise StubError(f"no cell matches '{pat}'")
            out += hits
        for o in out:
            self.kinds[o] = "cell"
        return tcl_list(sorted(set(out)))

    def get_pins(self, args):
        flags, opts, pats = self.parse(args, flags=("-quiet", "-hierarchical", "-hier"),
                                       options=("-filter", "-of_objects"))
        out = []
        flt = opts.get("-filter", [""])[0]
        want = re.findall(r"REF_PIN_NAME\s*==\s*\"?(\w+)\"?", flt)
        clock_only = "IS_CLOCK" in flt
        cells = []
        if "-of_objects" in opts:
            cells = [o for o in self.objects(opts["-of_objects"][0]) if self.kinds.get(o) == "cell"]
        for pat in [p for arg in pats for p in self.objects(arg)]:
            if "/" not in pat:
                raise StubError(f"'{pat}' is not a pin path (cell/pin)")
            cpat, pin = pat.rsplit("/", 1)
            cs = self._cells_below(cpat)
            found = False
            for c in cs:
                for pn in self._pins_of(c):
                    if glob_match(pn, pin):
                        out.append(f"{c}/{pn}")
                        found = True
            if not found and "-quiet" not in flags:
                raise StubError(f"no pin matches '{pat}'")
        for c in cells:
            for pn in self._pins_of(c):
                if want and pn not in want:
                    continue
                if clock_only and pn not in ("C", "clk", "wr_clk", "rd_clk") and not pn.endswith("_clk"):
                    continue
                out.append(f"{c}/{pn}")
        for o in out:
            self.kinds[o] = "pin"
        return tcl_list(sorted(set(out)))

    def _pins_of(self, cell):
        """Pin names of a cell path: a module instance's ports, a register's
        flip-flop pins, anything inside a black box."""
        mod = self.d.module_of(cell)
        if mod is not None:
            m = self.d.modules.get(mod)
            return list(m.ports) if m else []
        if cell.endswith("_reg") or "_reg[" in cell:
            return list(REG_PINS)
        return ["*"]

    def get_nets(self, args):
        flags, opts, pats = self.parse(args, flags=("-quiet", "-hierarchical", "-hier"), options=("-filter",))
        out = []
        for pat in [p for arg in pats for p in self.objects(arg)]:
            parent, last = (pat.rsplit("/", 1) + [""])[:2] if "/" in pat else ("", pat)
            mod = self.d.modules.get(self.d.module_of(parent))
            hits = [n for n in (mod.nets if mod else []) if glob_match(n, last)]
            if not hits and "-quiet" not in flags:
                raise StubError(f"no net matches '{pat}'")
            out += [f"{parent + '/' if parent else ''}{h}" for h in hits]
        for o in out:
            self.kinds[o] = "net"
        return tcl_list(out)

    def get_clocks(self, args):
        flags, opts, pats = self.parse(args, flags=("-quiet",), options=("-of_objects", "-filter"))
        if "-of_objects" in opts:
            objs = self.objects(opts["-of_objects"][0])
            # the clock of a pin or cell is known to Vivado only after it has
            # propagated the clocks; here: a stand-in per object
            out = [f"clock_of({o})" for o in objs]
            for o in out:
                self.kinds[o] = "clock"
            return tcl_list(out)
        out = []
        for pat in [p for arg in pats for p in self.objects(arg)]:
            m = [c for c in self.clocks if glob_match(c, pat)]
            if not m and "-quiet" not in flags:
                raise StubError(f"no clock named '{pat}' (create_clock first)")
            out += m
        for o in out:
            self.kinds[o] = "clock"
        return tcl_list(out)

    def get_property(self, args):
        flags, opts, pos = self.parse(args, flags=("-min", "-max", "-quiet"))
        if len(pos) != 2:
            raise StubError("usage: get_property NAME OBJECTS")
        name, objs = pos[0], self.objects(pos[1])
        vals = []
        for o in objs:
            if name == "PERIOD" and self.kinds.get(o) == "clock":
                vals.append(str(self.clocks[o][0]) if o in self.clocks else "4.0")
            elif name in ("REF_NAME", "ORIG_REF_NAME") and self.kinds.get(o) == "cell":
                vals.append(base_name(self.d.module_of(o) or ""))
            else:
                vals.append(str(self.props.get((o, name), "")))
        return tcl_list(vals) if len(vals) != 1 else vals[0]

    # ---- constraints -------------------------------------------------------------------
    def set_property(self, args):
        flags, opts, pos = self.parse(args, flags=("-quiet",), options=("-dict",))
        if "-dict" in opts:
            kv = self.objects(opts["-dict"][0])
            if len(kv) % 2 or len(pos) != 1:
                raise StubError("usage: set_property -dict {NAME VALUE ...} OBJECTS")
            pairs = list(zip(kv[::2], kv[1::2]))
            objs = pos[0]
        else:
            if len(pos) != 3:
                raise StubError("usage: set_property NAME VALUE OBJECTS")
            pairs = [(pos[0], pos[1])]
            objs = pos[2]
        objs = self.objects(objs)
        if not objs:
            raise StubError(f"{pairs[0][0]}: no object (an empty query)")
        for o in objs:
            for k, v in pairs:
                self.props[(o, k)] = v
                kind = self.kinds.get(o)
                if kind == "port":
                    for bit in self._bits(o):
                        if k in ("PACKAGE_PIN", "LOC"):
                            self.pin[bit] = v
                        elif k == "IOSTANDARD":
                            self.iostd[bit] = v
                elif kind == "design":
                    self.design_props[k] = v
                elif kind == "ip":
                    self.ip_props[(o, k)] = v
        return ""

    def _bits(self, port):
        if port in self.d.ports:
            d, w = self.d.ports[port]
            return [port] if w == 1 else [f"{port}[{i}]" for i in range(w)]
        return [port]

    def create_clock(self, args):
        flags, opts, pos = self.parse(args, flags=("-add", "-quiet"), options=("-period", "-name", "-waveform"))
        if "-period" not in opts:
            raise StubError("no -period")
        period = float(opts["-period"][0])
        objs = [o for p in pos for o in self.objects(p)]
        if not objs:
            raise StubError("no object to put the clock on")
        name = opts.get("-name", [objs[0]])[0]
        if name in self.clocks:
            raise StubError(f"clock {name} created twice")
        self.clocks[name] = (period, objs)
        self.kinds[name] = "clock"
        return name

    def create_generated_clock(self, args):
        flags, opts, pos = self.parse(args, flags=("-add", "-invert", "-quiet"),
                                      options=("-name", "-source", "-multiply_by", "-divide_by",
                                               "-master_clock", "-edges"))
        objs = [o for p in pos for o in self.objects(p)]
        if not objs or "-source" not in opts:
            raise StubError("needs -source and an object")
        name = opts.get("-name", [objs[0]])[0]
        self.clocks[name] = (4.0, objs)
        self.kinds[name] = "clock"
        return name

    def set_clock_groups(self, args):
        flags, opts, pos = self.parse(args, flags=("-asynchronous", "-physically_exclusive",
                                                   "-logically_exclusive", "-quiet"),
                                      options=("-group", "-name"))
        groups = opts.get("-group", [])
        if len(groups) < 2:
            raise StubError("needs at least two -group")
        refs = [o for g in groups for o in self.objects(g)]
        if any(not self.objects(g) for g in groups):
            raise StubError("an empty -group")
        self.timing.append(("set_clock_groups", refs))
        return ""

    def io_delay(self, args):
        flags, opts, pos = self.parse(args, flags=("-add_delay", "-max", "-min", "-clock_fall"),
                                      options=("-clock",))
        if len(pos) != 2 or not self.objects(pos[1]):
            raise StubError("usage: DELAY OBJECTS")
        return ""

    def timing_exception(self, cmd):
        def fn(args):
            flags, opts, pos = self.parse(args, flags=("-datapath_only", "-setup", "-hold", "-start", "-end",
                                                       "-quiet"),
                                          options=("-from", "-to", "-through", "-rise_from", "-fall_from",
                                                   "-rise_to", "-fall_to"))
            refs = []
            for k in ("-from", "-to", "-through", "-rise_from", "-fall_from", "-rise_to", "-fall_to"):
                for v in opts.get(k, []):
                    objs = self.objects(v)
                    if not objs:
                        raise StubError(f"{k}: no object (an empty query)")
                    refs += objs
            if not refs:
                raise StubError("no -from, -to or -through")
            if cmd in ("set_max_delay", "set_min_delay", "set_multicycle_path") and len(pos) != 1:
                raise StubError("needs one value")
            if "-datapath_only" in flags and cmd != "set_max_delay":
                raise StubError("-datapath_only belongs to set_max_delay")
            self.timing.append((cmd, refs))
            return ""
        return fn

    # ---- the checks of a complete constraint set ----------------------------------------------
    def check_constraints(self):
        errs = []
        gt = self.board.get("gt_ports", [])
        for bit in self.d.port_bits():
            port = bit.split("[")[0]
            is_gt = any(glob_match(port, g) for g in gt)
            if bit not in self.pin:
                errs.append(f"port {bit}: no PACKAGE_PIN")
            if not is_gt and bit not in self.iostd:
                errs.append(f"port {bit}: no IOSTANDARD")
        seen = {}
        for bit, pin in self.pin.items():
            if pin in seen:
                errs.append(f"pin {pin}: both {seen[pin]} and {bit}")
            seen[pin] = bit
        clocked = {o for _, (_, objs) in self.clocks.items() for o in objs if self.kinds.get(o) == "port"}
        for cp in self.board.get("clock_ports", []):
            if cp not in self.d.ports:
                errs.append(f"clock port {cp} (board.toml) is not a port of {self.d.top}")
            elif cp not in clocked:
                errs.append(f"clock port {cp}: no create_clock")
        for prop in ("CFGBVS", "CONFIG_VOLTAGE") if self.board.get("family") == "xc7" else ("CONFIG_VOLTAGE",):
            if prop not in self.design_props:
                errs.append(f"configuration: {prop} not set on current_design")
        errs += self.check_cdc()
        return errs

    def check_cdc(self):
        """Every instance of a crossing cell, and every ASYNC_REG register
        outside them, is named (or contains an object named) by a timing
        exception."""
        refs = set()
        for _, objs in self.timing:
            for o in objs:
                if o.startswith("clock_of(") and o.endswith(")"):
                    o = o[9:-1]
                refs.add(o)
        errs = []

        def covered(path):
            return any(r == path or r.startswith(path + "/") for r in refs)
        for cell in CDC_CELLS:
            for inst in self.d.instances_of(cell):
                if not covered(inst):
                    errs.append(f"crossing {inst} ({cell}): no timing exception names it")
        cdc_paths = [p for c in CDC_CELLS for p in self.d.instances_of(c)]
        for path, typ in [("", self.d.top)] + list(self.d.instances().items()):
            m = self.d.modules.get(typ)
            if m is None or m.blackbox or not m.async_regs or m.base in CDC_CELLS or m.base in PIN_SYNCS:
                continue
            if any(path.startswith(p + "/") for p in cdc_paths):
                continue
            for r in sorted(m.async_regs):
                rb = re.sub(r"(\[[^\]]*\])+$", "", r)
                full = f"{path + '/' if path else ''}{rb}_reg"
                if not any(x.startswith(full) for x in refs):
                    errs.append(f"ASYNC_REG register {full}: no timing exception names it")
        return errs


class VivadoBuild(Vivado):
    """The IP and build scripts: Vivado's project-less commands as stubs."""

    def __init__(self, design, board, out):
        super().__init__(design, board)
        self.out = out
        self.read = []
        for name, fn in [
            ("create_project", self.ok), ("set_part", self.ok), ("read_verilog", self.read_file),
            ("read_xdc", self.read_file), ("create_ip", self.create_ip), ("get_ips", self.get_ips),
            ("generate_target", self.ok), ("synth_ip", self.synth_ip), ("synth_design", self.synth_design),
            ("opt_design", self.ok), ("place_design", self.ok), ("phys_opt_design", self.ok),
            ("route_design", self.ok), ("report_utilization", self.ok), ("report_timing_summary", self.ok),
            ("report_clock_interaction", self.ok), ("report_cdc", self.ok), ("report_drc", self.ok),
            ("get_timing_paths", lambda a: "path:worst"), ("write_bitstream", self.write_bitstream),
            ("write_cfgmem", self.ok), ("current_project", lambda a: "project:"),
            ("current_fileset", lambda a: "fileset:"), ("version", lambda a: "kolo-check"),
        ]:
            self.command(name, fn)
        self.tcl.eval("rename puts _real_puts; proc puts {args} {}")

    def ok(self, args):
        return ""

    def read_file(self, args):
        flags, opts, pos = self.parse(args, flags=("-sv", "-unmanaged", "-quiet"), options=("-library",))
        for p in pos:
            if not os.path.exists(p):
                raise StubError(f"{p} does not exist")
            self.read.append(os.path.relpath(p, ROOT))
        return ""

    def create_ip(self, args):
        flags, opts, pos = self.parse(args, flags=("-force",),
                                      options=("-name", "-vendor", "-library", "-version", "-module_name", "-dir"))
        for k in ("-name", "-vendor", "-library", "-module_name"):
            if k not in opts:
                raise StubError(f"{k} missing")
        self.ips[opts["-module_name"][0]] = opts["-name"][0]
        self.kinds[opts["-module_name"][0]] = "ip"
        return opts["-module_name"][0]

    def synth_ip(self, args):
        """Stand-in for the generated IP: its _stub.v is the board's stub, so
        kolo_check_ip_ports runs (the test plants a difference here)."""
        flags, opts, pos = self.parse(args, flags=("-force", "-quiet"))
        for ip in [x for a in pos for x in self.objects(a)]:
            d = os.path.join(self.out, "ip", ip)
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, f"{ip}_stub.v"), "w") as f:
                for stub in self.board.files("ip_stubs"):
                    f.write(self.ip_stub_text(stub))
        return ""

    def ip_stub_text(self, path):
        with open(path) as f:
            return f.read()

    def get_ips(self, args):
        flags, opts, pos = self.parse(args, flags=("-quiet",))
        out = []
        for p in [x for a in pos for x in self.objects(a)]:
            if p not in self.ips:
                raise StubError(f"no IP {p} (create_ip first)")
            out.append(p)
        return tcl_list(out)

    def get_property(self, args):
        flags, opts, pos = self.parse(args, flags=("-min", "-max", "-quiet"))
        if len(pos) == 2 and pos[0] == "IP_FILE":
            ip = self.objects(pos[1])[0]
            # stand-in: the generated IP's stub is the board's own one
            return os.path.join(self.out, "ip", ip, f"{ip}.xci")
        if len(pos) == 2 and pos[0] == "SLACK":
            return "0.100"
        return super().get_property(args)

    def synth_design(self, args):
        flags, opts, pos = self.parse(args, flags=("-rtl", "-quiet"),
                                      options=("-top", "-part", "-generic", "-flatten_hierarchy", "-mode"))
        self.build["top"] = opts.get("-top", [""])[0]
        self.build["part"] = opts.get("-part", [""])[0]
        return ""

    def write_bitstream(self, args):
        flags, opts, pos = self.parse(args, flags=("-force",))
        self.build["bitstream"] = pos[0] if pos else ""
        return ""

    def check_build(self):
        errs = []
        if self.build.get("top") != self.board.top:
            errs.append(f"synth_design -top '{self.build.get('top')}', the board's top is {self.board.top}")
        if self.build.get("part") != self.board.part:
            errs.append(f"synth_design -part '{self.build.get('part')}', the board's part is {self.board.part}")
        if not self.build.get("bitstream"):
            errs.append("no write_bitstream")
        used_ip = {m.base for m in self.d.modules.values() if m.blackbox and m.base.startswith("kolo_")}
        for ip in sorted(used_ip - set(self.ips)):
            errs.append(f"the top instantiates {ip}, which no create_ip makes")
        for ip in sorted(set(self.ips) - used_ip):
            errs.append(f"create_ip makes {ip}, which the top does not instantiate")
        return errs
