"""Quartus, checked here: the board's QSF (Tcl assignments) and SDC files
and the shared CDC SDC run in a Tcl interpreter whose Quartus and
TimeQuest commands resolve every name against the elaborated design, with
Quartus' names (a register is inst_module:inst|...|reg, a bit reg[3]); then
the checks of a complete set: every top port on a pin (PIN_x) with an
I/O standard, every clock input with create_clock, the device and top,
every instance of a clock-crossing cell under a timing exception. The
build script runs against stubs of the quartus_sh commands it uses
(::quartus::project, ::quartus::flow, exec of qsys-script / qsys-generate),
and the Platform Designer script against stubs of qsys-script's commands:
every system the top instantiates is created, every interface it exports
gives ports of the board's stub (Qsys names an exported port
<interface>_<signal>), and the generated HDL (stand-in: the stub) passes
kolo_check_ip_ports.

Ports that a board leaves to the kit's own pin file (boards/cyclonev-gt/
c5gt_kit_pins.tcl, variable kolo_kit_missing) are reported as notes, not
findings: the build stops on them with their list."""
import os
import re

from .config import ROOT
from .netlist import base_name
from .tclstub import StubError, TclStub, glob_match, tcl_list
from .xilinx import CDC_CELLS, PIN_SYNCS

TIMING_CMDS = ("set_max_delay", "set_min_delay", "set_false_path", "set_multicycle_path")
IO_STANDARDS = {"LVDS", "HCSL", "1.5-V PCML", "1.8 V", "2.5 V", "3.3-V LVTTL", "3.3-V LVCMOS", "1.5 V",
                "1.2 V", "SSTL-15 CLASS I", "DIFFERENTIAL 1.5-V SSTL CLASS I", "3.0-V LVTTL", "3.0-V LVCMOS"}


class Quartus(TclStub):
    def __init__(self, design, board):
        super().__init__()
        self.d = design
        self.board = board
        self.pin = {}          # port bit -> PIN_x
        self.iostd = {}        # port bit -> I/O standard
        self.globals = {}      # global assignment name -> [values]
        self.clocks = {}       # name -> (period, objects)
        self.timing = []       # (command, [objects])
        self.kinds = {}
        self._qnames = None
        for name, fn in [
            ("set_global_assignment", self.set_global_assignment),
            ("set_location_assignment", self.set_location_assignment),
            ("set_instance_assignment", self.set_instance_assignment),
            ("get_ports", self.get_ports), ("get_registers", self.get_registers),
            ("get_keepers", self.get_keepers), ("get_clocks", self.get_clocks),
            ("get_pins", self.get_pins), ("get_cells", self.get_registers),
            ("create_clock", self.create_clock), ("create_generated_clock", self.create_generated_clock),
            ("derive_pll_clocks", self.derive), ("derive_clock_uncertainty", self.derive),
            ("set_clock_groups", self.set_clock_groups),
            ("set_input_delay", self.io_delay), ("set_output_delay", self.io_delay),
        ] + [(c, self.timing_exception(c)) for c in TIMING_CMDS]:
            self.command(name, fn)

    # ---- names as Quartus gives them ---------------------------------------------------------
    def qpath(self, path):
        """u_a/u_b -> mod_a:u_a|mod_b:u_b (Quartus' hierarchical instance name)."""
        parts = path.split("/")
        out = []
        for i in range(len(parts)):
            mod = self.d.module_of("/".join(parts[:i + 1]))
            out.append(f"{base_name(mod or '?')}:{parts[i]}")
        return "|".join(out)

    def qnames(self):
        """Every instance's Quartus name -> (path, module)."""
        if self._qnames is None:
            self._qnames = {self.qpath(p): (p, t) for p, t in self.d.instances().items()}
        return self._qnames

    def registers(self, pattern):
        """Registers (and memories) a Quartus name pattern names: the part after
        the last '|' is a register of the module each matching instance is, bit
        indices stripped; inside a black box (IP) accepted unchecked."""
        if "|" in pattern:
            hier, leaf = pattern.rsplit("|", 1)
        else:
            hier, leaf = "", pattern
        leaf_glob = re.sub(r"\[[^\]]*\]", "", leaf) or "*"
        hits = []
        scopes = [("", self.d.top)] if hier == "" else [
            (q, t) for q, (p, t) in self.qnames().items() if glob_match(q, hier)]
        if hier == "" and "*" in leaf:
            # a bare pattern with * can match registers anywhere (Quartus: no | needed)
            scopes += [(q, t) for q, (p, t) in self.qnames().items()]
        for q, t in scopes:
            m = self.d.modules.get(t)
            if m is None:
                continue
            if m.blackbox:
                if hier:
                    hits.append(f"{q}|{leaf}")
                    self.notes.append(f"{pattern}: inside {m.base} (IP), not checked")
                continue
            for n in m.nets:
                nb = re.sub(r"(\[[^\]]*\])+$", "", n)
                if glob_match(nb, leaf_glob) or glob_match(n, leaf_glob):
                    hits.append(f"{q + '|' if q else ''}{n}")
        return sorted(set(hits))

    # ---- QSF ---------------------------------------------------------------------------------
    def set_global_assignment(self, args):
        flags, opts, pos = self.parse(args, flags=("-remove",), options=("-name", "-section_id", "-entity",
                                                                          "-library", "-tag"))
        if "-name" not in opts or len(pos) != 1:
            raise StubError("usage: set_global_assignment -name NAME VALUE")
        self.globals.setdefault(opts["-name"][0], []).append(pos[0])
        return ""

    def _port_bits(self, name):
        """The port bits a QSF -to names (a bus name names every bit; * allowed)."""
        if name in self.d.ports:
            d, w = self.d.ports[name]
            return [name] if w == 1 else [f"{name}[{i}]" for i in range(w)]
        return [b for b in self.d.port_bits() if glob_match(b, name)]

    def set_location_assignment(self, args):
        flags, opts, pos = self.parse(args, options=("-to", "-comment"))
        if len(pos) != 1 or "-to" not in opts:
            raise StubError("usage: set_location_assignment PIN_x -to PORT")
        loc, to = pos[0], opts["-to"][0]
        if not re.match(r"^PIN_[A-Z]{1,2}\d{1,2}$", loc):
            raise StubError(f"'{loc}' is not a pin (PIN_<row><column>)")
        bits = self._port_bits(to)
        if not bits:
            raise StubError(f"-to {to}: not a port of {self.d.top}")
        if len(bits) != 1:
            raise StubError(f"-to {to}: {len(bits)} port bits on one pin")
        self.pin[bits[0]] = loc
        return ""

    def set_instance_assignment(self, args):
        flags, opts, pos = self.parse(args, options=("-name", "-to", "-from", "-section_id", "-entity",
                                                     "-comment"))
        if "-name" not in opts or len(pos) != 1 or "-to" not in opts:
            raise StubError("usage: set_instance_assignment -name NAME VALUE -to TARGET")
        name, value, to = opts["-name"][0], pos[0], opts["-to"][0]
        bits = self._port_bits(to)
        if name == "IO_STANDARD":
            if not bits:
                raise StubError(f"-to {to}: not a port of {self.d.top}")
            if value not in IO_STANDARDS:
                raise StubError(f"IO_STANDARD '{value}' not a Cyclone V standard known here")
            for b in bits:
                self.iostd[b] = value
        elif not bits and not self.registers(to):
            raise StubError(f"-to {to}: no port or register of that name")
        return ""

    # ---- SDC ---------------------------------------------------------------------------------
    def get_ports(self, args):
        flags, opts, pats = self.parse(args, flags=("-nowarn", "-nocase"))
        out = []
        for pat in [p for a in pats for p in self.objects(a)]:
            m = [n for n in list(self.d.ports) + self.d.port_bits() if glob_match(n, pat)]
            if not m:
                raise StubError(f"no port matches '{pat}'")
            out += m
        for o in out:
            self.kinds[o] = "port"
        return tcl_list(sorted(set(out)))

    def get_registers(self, args):
        flags, opts, pats = self.parse(args, flags=("-nowarn", "-nocase", "-no_duplicates"))
        out = []
        for pat in [p for a in pats for p in self.objects(a)]:
            m = self.registers(pat)
            if not m:
                raise StubError(f"no register matches '{pat}'")
            out += m
        for o in out:
            self.kinds[o] = "register"
        return tcl_list(out)

    def get_keepers(self, args):
        flags, opts, pats = self.parse(args, flags=("-nowarn", "-nocase", "-no_duplicates"))
        out = []
        for pat in [p for a in pats for p in self.objects(a)]:
            m = [n for n in self.d.port_bits() if glob_match(n, pat)] + self.registers(pat)
            if not m:
                raise StubError(f"no keeper (port or register) matches '{pat}'")
            out += m
        for o in out:
            self.kinds.setdefault(o, "register")
        return tcl_list(out)

    def get_pins(self, args):
        flags, opts, pats = self.parse(args, flags=("-nowarn", "-nocase", "-compatibility_mode"))
        out = []
        for pat in [p for a in pats for p in self.objects(a)]:
            if "|" not in pat:
                raise StubError(f"'{pat}' is not a pin (instance|pin)")
            hier, pin = pat.rsplit("|", 1)
            m = []
            for q, (p, t) in self.qnames().items():
                if glob_match(q, hier):
                    mod = self.d.modules.get(t)
                    if mod is not None and (mod.blackbox or any(glob_match(x, pin) for x in mod.ports)):
                        m.append(f"{q}|{pin}")
            if not m:
                raise StubError(f"no pin matches '{pat}'")
            out += m
        for o in out:
            self.kinds[o] = "pin"
        return tcl_list(out)

    def get_clocks(self, args):
        flags, opts, pats = self.parse(args, flags=("-nowarn", "-nocase"))
        out = []
        for pat in [p for a in pats for p in self.objects(a)]:
            m = [c for c in self.clocks if glob_match(c, pat)]
            if not m and not self.derived:
                raise StubError(f"no clock named '{pat}'")
            out += m or [pat]
        return tcl_list(out)

    derived = False

    def derive(self, args):
        self.parse(args, flags=("-create_base_clocks", "-use_net_name"))
        self.derived = True
        return ""

    def create_clock(self, args):
        flags, opts, pos = self.parse(args, flags=("-add",), options=("-name", "-period", "-waveform"))
        if "-period" not in opts:
            raise StubError("no -period")
        objs = [o for p in pos for o in self.objects(p)]
        name = opts.get("-name", [objs[0] if objs else ""])[0]
        if not name:
            raise StubError("a clock needs -name or an object")
        if name in self.clocks:
            raise StubError(f"clock {name} created twice")
        self.clocks[name] = (float(opts["-period"][0]), objs)
        return ""

    def create_generated_clock(self, args):
        flags, opts, pos = self.parse(args, flags=("-add", "-invert"),
                                      options=("-name", "-source", "-multiply_by", "-divide_by",
                                               "-master_clock", "-edges", "-phase"))
        objs = [o for p in pos for o in self.objects(p)]
        if not objs or "-source" not in opts:
            raise StubError("needs -source and an object")
        self.clocks[opts.get("-name", [objs[0]])[0]] = (0.0, objs)
        return ""

    def set_clock_groups(self, args):
        flags, opts, pos = self.parse(args, flags=("-asynchronous", "-exclusive", "-logically_exclusive",
                                                   "-physically_exclusive"), options=("-group",))
        if len(opts.get("-group", [])) < 2:
            raise StubError("needs at least two -group")
        return ""

    def io_delay(self, args):
        flags, opts, pos = self.parse(args, flags=("-add_delay", "-max", "-min", "-clock_fall"),
                                      options=("-clock",))
        if len(pos) != 2 or not self.objects(pos[1]):
            raise StubError("usage: DELAY OBJECTS")
        return ""

    def timing_exception(self, cmd):
        def fn(args):
            flags, opts, pos = self.parse(args, flags=("-setup", "-hold", "-start", "-end"),
                                          options=("-from", "-to", "-through", "-rise_from", "-fall_from",
                                                   "-rise_to", "-fall_to"))
            refs = []
            for k in ("-from", "-to", "-through", "-rise_from", "-fall_from", "-rise_to", "-fall_to"):
                for v in opts.get(k, []):
                    objs = self.objects(v)
                    if not objs:
                        raise StubError(f"{k}: no object (an empty collection)")
                    refs += objs
            if not refs:
                raise StubError("no -from, -to or -through")
            if cmd != "set_false_path" and len(pos) != 1:
                raise StubError("needs one value")
            self.timing.append((cmd, refs))
            return ""
        return fn

    # ---- the checks of a complete set -------------------------------------------------------
    def kit_missing(self):
        try:
            return set(self.tcl.splitlist(self.tcl.eval("set ::kolo_kit_missing")))
        except Exception:
            return set()

    def check_constraints(self):
        errs = []
        xcvr = self.board.get("gt_ports", [])
        kit = self.kit_missing()
        for bit in self.d.port_bits():
            if bit in kit:
                self.notes.append(f"port {bit}: placed by the kit's pin file (c5gt_kit_pins.tcl), "
                                  "not known here: the build stops until it is")
            elif bit not in self.pin:
                errs.append(f"port {bit}: no location (set_location_assignment PIN_x)")
            if bit not in self.iostd:
                errs.append(f"port {bit}: no IO_STANDARD")
            port = bit.split("[")[0]
            if any(glob_match(port, g) for g in xcvr) and bit in self.iostd and \
                    self.iostd[bit] not in ("1.5-V PCML", "HCSL", "LVDS"):
                errs.append(f"port {bit}: transceiver pin with I/O standard {self.iostd[bit]}")
        seen = {}
        for bit, pin in self.pin.items():
            if pin in seen:
                errs.append(f"{pin}: both {seen[pin]} and {bit}")
            seen[pin] = bit
        clocked = {o for _, (_, objs) in self.clocks.items() for o in objs}
        for cp in self.board.get("clock_ports", []):
            if cp not in self.d.ports:
                errs.append(f"clock port {cp} (board.toml) is not a port of {self.d.top}")
            elif cp not in clocked:
                errs.append(f"clock port {cp}: no create_clock")
        for k, want in (("DEVICE", self.board.part), ("TOP_LEVEL_ENTITY", self.board.top)):
            got = self.globals.get(k, [None])[-1]
            if got != want:
                errs.append(f"{k} is '{got}', the board's is {want}")
        errs += self.check_cdc()
        return errs

    def check_cdc(self):
        refs = {o for _, objs in self.timing for o in objs}
        errs = []

        def covered(q):
            return any(r.startswith(q + "|") for r in refs)
        for cell in CDC_CELLS:
            for inst in self.d.instances_of(cell):
                if not covered(self.qpath(inst)):
                    errs.append(f"crossing {inst} ({cell}): no timing exception names it")
        cdc = [self.qpath(p) for c in CDC_CELLS for p in self.d.instances_of(c)]
        for path, typ in [("", self.d.top)] + list(self.d.instances().items()):
            m = self.d.modules.get(typ)
            if m is None or m.blackbox or not m.async_regs or m.base in CDC_CELLS or m.base in PIN_SYNCS:
                continue
            q = self.qpath(path) if path else ""
            if any(q.startswith(c + "|") for c in cdc):
                continue
            for r in sorted(m.async_regs):
                full = f"{q + '|' if q else ''}{r}"
                if full not in refs and not any(x.startswith(full + "[") for x in refs):
                    errs.append(f"ASYNC_REG register {full}: no timing exception names it")
        return errs


class QuartusBuild(Quartus):
    """The build script under quartus_sh -t and the Platform Designer script
    under qsys-script, with their commands as stubs."""

    def __init__(self, design, board, out):
        super().__init__(design, board)
        self.out = out
        self.cwd = out
        self.build = {"flow": False, "sources": [], "sdc": [], "qip": []}
        self.systems = {}      # system -> {exports: {iface: inst.iface}, instances: {name: type}}
        self.generated = set()
        self.tcl.eval("package provide ::quartus::project 1.0; package provide ::quartus::flow 1.0")
        self.tcl.eval("rename puts _real_puts; proc puts {args} {}")
        for name, fn in [
            ("exec", self.exec), ("cd", self.cd), ("project_new", self.project_new), ("project_open", self.ok),
            ("project_close", self.ok), ("export_assignments", self.ok), ("set_parameter", self.set_parameter),
            ("execute_flow", self.execute_flow), ("execute_module", self.execute_flow),
            ("load_package", self.ok),
        ]:
            self.command(name, fn)

    def ok(self, args):
        return ""

    def project_new(self, args):
        flags, opts, pos = self.parse(args, flags=("-overwrite",), options=("-revision", "-family", "-part"))
        if len(pos) != 1:
            raise StubError("usage: project_new NAME [-overwrite]")
        self.project = pos[0]
        return ""

    def cd(self, args):
        self.cwd = args[0] if args else self.cwd
        return ""

    def set_parameter(self, args):
        flags, opts, pos = self.parse(args, options=("-name", "-entity", "-to"))
        if "-name" not in opts or len(pos) != 1:
            raise StubError("usage: set_parameter -name NAME VALUE")
        return ""

    def set_global_assignment(self, args):
        r = super().set_global_assignment(args)
        flags, opts, pos = self.parse(args, flags=("-remove",), options=("-name", "-section_id", "-entity",
                                                                          "-library", "-tag"))
        name, value = opts["-name"][0], pos[0]
        if name in ("SYSTEMVERILOG_FILE", "VERILOG_FILE", "SDC_FILE", "QIP_FILE"):
            if not os.path.exists(value):
                raise StubError(f"{name} {value}: no such file")
            key = {"SDC_FILE": "sdc", "QIP_FILE": "qip"}.get(name, "sources")
            self.build[key].append(os.path.relpath(value, ROOT))
        return r

    def execute_flow(self, args):
        flags, opts, pos = self.parse(args, flags=("-compile", "-analysis_and_synthesis"))
        self.build["flow"] = True
        of = os.path.join(self.cwd, "output_files")
        os.makedirs(of, exist_ok=True)
        # what quartus_sh writes: the timing summary and the programming files
        for ext in ("sta.summary", "sof", "rbf"):
            with open(os.path.join(of, f"{self.project}.{ext}"), "w") as f:
                f.write("Type  : Setup 'clk125'\nSlack : 0.100\nTNS   : 0.000\n" if ext == "sta.summary" else "")
        return ""

    project = "kolo"

    def exec(self, args):
        if not args:
            raise StubError("exec: nothing to run")
        prog = args[0]
        if prog == "qsys-script":
            script, cmd = None, ""
            for a in args[1:]:
                if a.startswith("--script="):
                    script = a.split("=", 1)[1]
                elif a.startswith("--cmd="):
                    cmd = a.split("=", 1)[1]
                elif a == "--cmd":
                    pass
                elif cmd == "" and not a.startswith("--"):
                    cmd = a
            if not script or not os.path.exists(script):
                raise StubError(f"qsys-script: no script '{script}'")
            self.run_qsys(script, cmd)
            return ""
        if prog == "qsys-generate":
            qsys = args[1] if len(args) > 1 else ""
            outdir = next((a.split("=", 1)[1] for a in args if a.startswith("--output-directory=")), None)
            if not os.path.exists(qsys):
                raise StubError(f"qsys-generate: {qsys} does not exist (saved by qsys-script?)")
            if "--synthesis=VERILOG" not in args or not outdir:
                raise StubError("qsys-generate: needs --synthesis=VERILOG and --output-directory=")
            sysname = os.path.splitext(os.path.basename(qsys))[0]
            d = os.path.join(outdir, "synthesis")
            os.makedirs(d, exist_ok=True)
            # stand-in for the generated HDL: the board's stub of that system
            with open(os.path.join(d, f"{sysname}.v"), "w") as f:
                for stub in self.board.files("ip_stubs"):
                    f.write(self.ip_stub_text(stub))
            open(os.path.join(d, f"{sysname}.qip"), "w").close()
            self.generated.add(sysname)
            return ""
        raise StubError(f"exec {prog}: not a tool the build is expected to run")

    def ip_stub_text(self, path):
        with open(path) as f:
            return f.read()

    def run_qsys(self, script, cmd):
        q = Qsys(self)
        if cmd:
            q.tcl.eval(cmd)
        q.source(script)
        self.errors += q.errors
        for name, s in q.systems.items():
            self.systems[name] = s

    def check_build(self):
        errs = []
        top = self.globals.get("TOP_LEVEL_ENTITY", [None])[-1]
        if top != self.board.top:
            errs.append(f"TOP_LEVEL_ENTITY '{top}', the board's top is {self.board.top}")
        if self.globals.get("DEVICE", [None])[-1] != self.board.part:
            errs.append(f"DEVICE '{self.globals.get('DEVICE', [None])[-1]}', the board's part is {self.board.part}")
        if not self.build["flow"]:
            errs.append("no execute_flow -compile")
        if not self.build["sources"]:
            errs.append("no source file added")
        for c in self.board.files("constraints"):
            if c.endswith(".sdc") and os.path.relpath(c, ROOT) not in self.build["sdc"]:
                errs.append(f"{os.path.relpath(c, ROOT)} is not an SDC_FILE of the project")
        used = {m.base for m in self.d.modules.values() if m.blackbox and m.base.startswith("kolo_")}
        for s in sorted(used - set(self.systems)):
            errs.append(f"the top instantiates {s}, which no create_system makes")
        for s in sorted(set(self.systems) - used):
            errs.append(f"create_system makes {s}, which the top does not instantiate")
        for s in sorted(used & set(self.systems) - self.generated):
            errs.append(f"{s} is never generated (qsys-generate)")
        # exported interfaces against the stub's ports (<interface>_<signal>)
        for s in sorted(used & set(self.systems)):
            mod = next(m for m in self.d.modules.values() if m.base == s)
            exports = self.systems[s]["exports"]
            for p in mod.ports:
                if not any(p.startswith(e + "_") for e in exports):
                    errs.append(f"{s}: port {p} of the stub comes from no exported interface")
            for e in exports:
                if not any(p.startswith(e + "_") for p in mod.ports):
                    errs.append(f"{s}: exported interface {e} gives no port of the stub")
        return errs


class Qsys(TclStub):
    """qsys-script's commands (Platform Designer): systems, instances,
    connections, exported interfaces, save_system."""

    def __init__(self, build):
        super().__init__()
        self.b = build
        self.systems = {}
        self.cur = None
        self.tcl.eval("package provide qsys 16.1")
        self.tcl.eval("rename puts _real_puts; proc puts {args} {}")
        for name, fn in [
            ("create_system", self.create_system), ("set_project_property", self.prop),
            ("add_instance", self.add_instance), ("set_instance_parameter_value", self.inst_param),
            ("add_connection", self.add_connection), ("add_interface", self.add_interface),
            ("set_interface_property", self.iface_prop), ("save_system", self.save_system),
        ]:
            self.command(name, fn)

    def sys(self):
        if self.cur is None:
            raise StubError("no create_system before it")
        return self.systems[self.cur]

    def create_system(self, args):
        if len(args) != 1:
            raise StubError("usage: create_system NAME")
        self.cur = args[0]
        self.systems[self.cur] = {"instances": {}, "exports": {}, "ifaces": set(), "saved": False,
                                  "props": {}}
        return ""

    def prop(self, args):
        if len(args) != 2:
            raise StubError("usage: set_project_property NAME VALUE")
        self.sys()["props"][args[0]] = args[1]
        if args[0] == "DEVICE" and args[1] != self.b.board.part:
            raise StubError(f"DEVICE {args[1]}, the board's part is {self.b.board.part}")
        return ""

    def add_instance(self, args):
        if len(args) not in (2, 3):
            raise StubError("usage: add_instance NAME TYPE [VERSION]")
        if args[0] in self.sys()["instances"]:
            raise StubError(f"instance {args[0]} added twice")
        self.sys()["instances"][args[0]] = args[1]
        return ""

    def _inst(self, ref, what):
        inst = ref.split(".", 1)[0]
        if inst not in self.sys()["instances"]:
            raise StubError(f"{what} {ref}: no instance {inst} in {self.cur}")
        if "." not in ref:
            raise StubError(f"{what} {ref}: not instance.interface")

    def inst_param(self, args):
        if len(args) != 3:
            raise StubError("usage: set_instance_parameter_value INSTANCE PARAMETER VALUE")
        if args[0] not in self.sys()["instances"]:
            raise StubError(f"no instance {args[0]} in {self.cur}")
        return ""

    def add_connection(self, args):
        if len(args) not in (1, 2):
            raise StubError("usage: add_connection FROM TO")
        ends = args if len(args) == 2 else args[0].split("/")
        for e in ends:
            self._inst(e, "add_connection")
        return ""

    def add_interface(self, args):
        if len(args) != 3:
            raise StubError("usage: add_interface NAME TYPE DIRECTION")
        if args[0] in self.sys()["ifaces"]:
            raise StubError(f"interface {args[0]} added twice")
        self.sys()["ifaces"].add(args[0])
        return ""

    def iface_prop(self, args):
        if len(args) != 3:
            raise StubError("usage: set_interface_property NAME PROPERTY VALUE")
        if args[0] not in self.sys()["ifaces"]:
            raise StubError(f"no interface {args[0]} (add_interface first)")
        if args[1] == "EXPORT_OF":
            self._inst(args[2], "EXPORT_OF")
            self.sys()["exports"][args[0]] = args[2]
        return ""

    def save_system(self, args):
        if len(args) != 1:
            raise StubError("usage: save_system FILE")
        s = self.sys()
        if os.path.basename(args[0]) != f"{self.cur}.qsys":
            raise StubError(f"save_system {args[0]}: the file of {self.cur} is {self.cur}.qsys")
        os.makedirs(os.path.dirname(args[0]) or ".", exist_ok=True)
        with open(args[0], "w") as f:
            f.write(f"<system name=\"{self.cur}\"/>\n")
        s["saved"] = True
        for i in s["ifaces"]:
            if i not in s["exports"]:
                self.errors.append((self.location(), f"save_system: interface {i} of {self.cur} exports nothing"))
        return ""


def check_intel(b, design, constraints, tcl, out):
    """All findings for an Intel board; notes (kit pins, IP internals) are
    printed by the caller from the returned objects' notes."""
    findings = []
    q = Quartus(design, b)
    q.tcl.eval("set ::kolo_check_only 1")
    for f in constraints:
        q.source(f)
    findings += [f"{w}: {m}" for w, m in q.errors]
    findings += [f"constraints: {m}" for m in q.check_constraints()]
    NOTES.extend(q.notes)
    qb = QuartusBuild(design, b, out)
    os.makedirs(out, exist_ok=True)
    fl = os.path.join(out, "files.f")
    with open(fl, "w") as f:
        f.write("\n".join(b.rtl_sources()) + "\n")
    qb.tcl.eval(f"set ::kolo_root {{{ROOT}}}; set ::kolo_check_only 1")
    qb.tcl.eval(f"set quartus(args) [list {{{out}}} {{{fl}}} a.hex b.hex]")
    for f in [t for t in tcl if t.endswith("_build.tcl")]:
        qb.source(f)
    findings += [f"{w}: {m}" for w, m in qb.errors]
    findings += [f"build: {m}" for m in qb.check_build()]
    NOTES.extend(n for n in qb.notes if n not in NOTES)
    # the FuseSoC/Edalize flow's IP hook (kolo_board_<b>.core), run in an
    # open project as Edalize's project script runs it, its [pwd] the
    # check's directory: it must make and add every Platform Designer
    # system the build makes and add the shared clock-crossing SDC
    for f in [t for t in tcl if t.endswith("_fusesoc.tcl")]:
        qh = QuartusBuild(design, b, os.path.join(out, "fusesoc"))
        os.makedirs(qh.out, exist_ok=True)
        qh.tcl.eval(f"set ::kolo_root {{{ROOT}}}; rename pwd _kolo_pwd; proc pwd {{}} {{return {{{qh.out}}}}}")
        qh.tcl.eval("project_new kolo_fusesoc")
        qh.source(f)
        findings += [f"{w}: {m}" for w, m in qh.errors]
        want = sorted(os.path.basename(q) for q in qb.build["qip"])
        got = sorted(os.path.basename(q) for q in qh.build["qip"])
        if got != want:
            findings.append(f"fusesoc hook: adds the systems {got}, the build adds {want}")
        if not any(s.endswith("kolo_cdc.sdc") for s in qh.build["sdc"]):
            findings.append("fusesoc hook: does not add the shared constraints kolo_cdc.sdc")
    return list(dict.fromkeys(findings))


NOTES = []


def plants(b, out, copy_with):
    """The planted bugs of an Intel board for scripts/test_boards.py: (name,
    finding expected, constraints, tcl). Files that read the files beside
    them (the QSF sources the kit pin file, the build script the QSF and
    the IP script) are planted in a copy of the whole board folder."""
    import re as _re
    cons, tcl = b.files("constraints"), b.files("tcl")
    qsf = [f for f in cons if f.endswith(".qsf")][0]
    sdc = [f for f in cons if f.endswith(".sdc") and "common" not in f][0]
    cdc = [f for f in cons if f.endswith("kolo_cdc.sdc")][0]
    build = [f for f in tcl if f.endswith("_build.tcl")][0]
    ipt = [f for f in tcl if f.endswith("_ip.tcl")][0]

    def swap(files, old, new):
        return [new if os.path.basename(f) == os.path.basename(old) else f for f in files]

    def in_folder(path, old, new, name):
        p = copy_with(path, old, new, f"{b.name}-{name}", folder=b.dir)
        d = os.path.dirname(p)
        return p, [os.path.join(d, os.path.basename(f)) if os.path.dirname(f) == b.dir else f for f in tcl]

    led0 = _re.compile(r"^set_location_assignment PIN_\w+ -to \{led_n\[0\]\}\n", _re.M)
    p, _ = in_folder(qsf, led0, "", "nopin")
    yield "nopin", "port led_n[0]: no location", swap(cons, qsf, p), tcl
    p, _ = in_folder(qsf, '-name IO_STANDARD "2.5 V" -to {led_n[*]}', '-name IO_STANDARD "2.5 V" -to {led_n[7]}',
                     "nostd")
    yield "nostd", "port led_n[0]: no IO_STANDARD", swap(cons, qsf, p), tcl
    p, _ = in_folder(qsf, "-to {led_n[7]}\n", "-to {led_x[7]}\n", "noport")
    yield "noport", "-to led_x[7]: not a port", swap(cons, qsf, p), tcl
    p, _ = in_folder(qsf, "-to {dip[0]}", "-to dip[0]", "bracket")
    yield "bracket", 'invalid command name "0"', swap(cons, qsf, p), tcl
    led1 = _re.search(r"PIN_(\w+) -to \{led_n\[1\]\}", open(qsf).read()).group(1)
    p, _ = in_folder(qsf, _re.compile(r"PIN_\w+( -to \{led_n\[2\]\})"), f"PIN_{led1}\\1", "twice")
    yield "twice", f"PIN_{led1}: both", swap(cons, qsf, p), tcl
    s = copy_with(sdc, _re.compile(r"^create_clock -name clk125 .*\n", _re.M), "", f"{b.name}-noclock")
    yield "noclock", "clock port clk125: no create_clock", swap(cons, sdc, s), tcl
    s = copy_with(sdc, "{rst_s[0]}", "{rst_x[0]}", f"{b.name}-noreg")
    yield "noreg", "no register matches 'rst_x[0]'", swap(cons, sdc, s), tcl
    c = copy_with(cdc, _re.compile(r"^set_(max|min)_delay .*kolo_fifo_async.*\n", _re.M), "", f"{b.name}-nocdc",
                  count=0)
    yield "nocdc", "(kolo_fifo_async): no timing exception names it", swap(cons, cdc, c), tcl
    bt, t2 = in_folder(build, f"set top {b.top}", "set top kolo_chip", "wrongtop")
    yield "wrongtop", "TOP_LEVEL_ENTITY 'kolo_chip'", cons, t2
    ip, t2 = in_folder(ipt, "kolo_export rx_ready reset.rx_ready\n", "", "noexport")
    yield "noexport", "port rx_ready_rx_ready of the stub comes from no exported interface", cons, t2
    ip, t2 = in_folder(ipt, "add_instance pcie altera_pcie_cv_hip_ast", "add_instance pcie {altera_pcie_cv_hip_ast",
                       "tclsyntax")
    yield "tclsyntax", "missing close-brace", cons, t2
    hook = [f for f in tcl if f.endswith("_fusesoc.tcl")][0]
    h, t2 = in_folder(hook, "{kolo_c5gt_pcie kolo_c5gt_xcvr}] {", "{kolo_c5gt_pcie}] {", "fusesoc-onesys")
    yield "fusesoc-onesys", "fusesoc hook: adds the systems ['kolo_c5gt_pcie.qip'], the build adds", cons, t2
    h, t2 = in_folder(hook, "set_global_assignment -name SDC_FILE [file join $kolo_common kolo_cdc.sdc]\n", "",
                      "fusesoc-nocdc")
    yield "fusesoc-nocdc", "fusesoc hook: does not add the shared constraints kolo_cdc.sdc", cons, t2
