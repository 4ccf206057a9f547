"""Elaboration of a board top with Yosys (vendor primitives as black boxes
from Yosys' cell libraries, IP as black boxes from the board's stubs) and
the design model the constraint checks resolve names against: the top's
ports, the instance tree (paths as Vivado and Quartus name them: u_a/u_b),
and each module's ports, registers and nets."""
import hashlib
import json
import os
import re
import subprocess

from .config import ROOT, BoardError

# Yosys' cell libraries per vendor, read as black boxes (-lib)
CELL_LIBS = {
    "xilinx": ["+/xilinx/cells_sim.v", "+/xilinx/cells_xtra.v"],
    "lattice": ["+/ecp5/cells_bb.v"],
    "intel": [],   # the board's IP stubs declare what the top instantiates
}


def base_name(module):
    """The module's own name: parameterised copies are '$paramod$<hash>\\name'
    or '$paramod\\name\\PARAM=value...'."""
    if module.startswith("$paramod$"):      # $paramod$<hash>\name (many parameters)
        return module.split("\\")[-1]
    if module.startswith("$paramod\\"):     # $paramod\name\P=v\... (few)
        return module.split("\\")[1]
    return module.lstrip("\\")


class Module:
    def __init__(self, name, d):
        self.name = name
        self.base = base_name(name)
        attrs = d.get("attributes", {})
        self.blackbox = str(attrs.get("blackbox", "0")).strip("0") != ""
        self.ports = {p: (v["direction"], len(v["bits"])) for p, v in d.get("ports", {}).items()}
        # instances of other modules (not Yosys' internal $cells)
        self.cells = {}
        self.conns = {}    # instance -> port -> the bits connected (net ids, or "0"/"1"/"x"/"z")
        for cname, c in d.get("cells", {}).items():
            if not c["type"].startswith("$") or c["type"].startswith("$paramod"):
                self.cells[clean_path(cname)] = c["type"]
                self.conns[clean_path(cname)] = c.get("connections", {})
        # named nets and registers (not Yosys' $-generated ones)
        self.nets = {}     # name -> width in bits
        for n, v in d.get("netnames", {}).items():
            if not n.startswith("$") and "$" not in n:
                self.nets[clean_path(n)] = len(v.get("bits", []))
        for n, v in d.get("memories", {}).items():
            self.nets[clean_path(n)] = int(v.get("width", 1)) * int(v.get("size", 1))
        self.async_regs = set()
        for n, v in d.get("netnames", {}).items():
            a = v.get("attributes", {})
            if str(a.get("ASYNC_REG", "")).upper().strip('"') in ("TRUE", "1") or \
                    str(a.get("async_reg", "")).upper().strip('"') in ("TRUE", "1"):
                self.async_regs.add(clean_path(n))


def clean_path(name):
    """Yosys names generate blocks 'g_x[0].u_y' and escapes; keep them so."""
    return name.lstrip("\\")


class Design:
    """The elaborated design: modules by name, and the instance tree."""

    def __init__(self, top, modules):
        self.top = top
        self.modules = modules
        if top not in modules:
            raise BoardError(f"elaboration did not produce the top {top}")
        self.ports = modules[top].ports
        self._tree = None

    def instances(self):
        """Every instance below the top: path (u_a/u_b) -> module name."""
        if self._tree is None:
            tree = {}

            def walk(mod, prefix):
                for inst, typ in self.modules[mod].cells.items():
                    path = f"{prefix}{inst}"
                    tree[path] = typ
                    if typ in self.modules and not self.modules[typ].blackbox:
                        walk(typ, path + "/")
            walk(self.top, "")
            self._tree = tree
        return self._tree

    def module_of(self, path):
        """The module a hierarchical instance path names ("" = the top)."""
        if path == "":
            return self.top
        return self.instances().get(path)

    def has_net(self, module, name):
        """A net or one bit of it ('x' or 'x[i]') in a module."""
        nets = self.modules[module].nets
        if name in nets:
            return True
        m = re.match(r"^(.*)\[(\d+)\]$", name)
        return bool(m) and m.group(1) in nets and int(m.group(2)) < nets[m.group(1)]

    def port_bits(self):
        """Every bit of every top port: 'name' for 1-bit ports, 'name[i]' else."""
        out = []
        for p, (d, w) in self.ports.items():
            if w == 1:
                out.append(p)
            else:
                out += [f"{p}[{i}]" for i in range(w)]
        return out

    def instances_of(self, base):
        """Paths of the instances of a module (by its own name)."""
        return sorted(p for p, t in self.instances().items() if base_name(t) == base)


def elaborate(board, out_dir, yosys="yosys", log=None):
    """Elaborate the board top (hierarchy -check) and load the model. The
    checks need instances, ports, wires and their attributes, not the logic:
    the processes are deleted instead of run through proc (half the time).
    Cached per hash of the sources, stubs and libraries used."""
    srcs = board.rtl_sources()
    stubs = board.stubs()
    libs = CELL_LIBS[board.vendor]
    h = hashlib.sha256()
    for f in srcs + stubs:
        h.update(f.encode() + b"\0" + open(os.path.join(ROOT, f), "rb").read())
    for f in sorted(os.listdir(os.path.join(ROOT, "rtl", "include"))):
        h.update(open(os.path.join(ROOT, "rtl", "include", f), "rb").read())
    h.update(json.dumps([board.top, libs, open(__file__, "rb").read().decode()]).encode())
    key = h.hexdigest()[:16]
    os.makedirs(out_dir, exist_ok=True)
    jpath = os.path.join(out_dir, f"elab-{key}.json")
    if not os.path.exists(jpath):
        for old in os.listdir(out_dir):
            if old.startswith("elab-") and old.endswith(".json"):
                os.remove(os.path.join(out_dir, old))
        lib_cmd = f"read_verilog -lib {' '.join(libs)}; " if libs else ""
        stub_cmd = f"read_verilog -lib {' '.join(stubs)}; " if stubs else ""
        script = (f"{lib_cmd}{stub_cmd}"
                  f"read_verilog -sv -defer -I rtl/include {' '.join(srcs)}; "
                  f"hierarchy -check -purge_lib -top {board.top}; delete =*/$proc$*; write_json {jpath}.tmp")
        logf = log or os.path.join(out_dir, "elab.log")
        r = subprocess.run([yosys, "-q", "-l", logf, "-p", script], cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            tail = "\n".join(r.stdout.strip().splitlines()[-15:])
            raise BoardError(f"{board.name}: {board.top} does not elaborate (log {logf}):\n{tail}")
        os.rename(jpath + ".tmp", jpath)
    with open(jpath) as f:
        d = json.load(f)
    modules = {name: Module(name, m) for name, m in d["modules"].items()}
    return Design(board.top, modules)


# ---- names as the vendor tools give them ---------------------------------------------
# A register `foo` of a module is the cell `foo_reg` (bits foo_reg[3], and for
# arrays foo_reg[0][3]) in Vivado, `foo` / `foo[3]` in Quartus. A
# constraint's object names are matched against the model with these rules.

def reg_base(name):
    """The register or net a vendor cell name stands for: strip indices and
    Vivado's _reg suffix ('chain_reg[0][1]' -> 'chain')."""
    n = re.sub(r"\*+$", "", name)
    n = re.sub(r"(\[[^\]]*\])+$", "", n)
    if n.endswith("_reg"):
        n = n[:-4]
    return n


def check_pcie_wiring(design):
    """The PCIe shim and the chip in the board top: every core-side port of
    the shim (ep_<name>) must be joined, bit for bit, to kolo_chip's <name>
    (the same nets; no constant, no open end): a tied-off or unconnected
    completion stream, non-posted credit or completion-buffer size leaves the
    card without DMA reads or host reads (docs/boards.md). Returns findings."""
    top = design.modules[design.top]
    shims = [i for i, t in top.cells.items() if base_name(t).startswith("kolo_pcie_shim_")]
    chips = [i for i, t in top.cells.items() if base_name(t) == "kolo_chip"]
    findings = []
    if not shims or not chips:
        return findings
    chip = top.conns[chips[0]]
    for shim in shims:
        mod = design.modules.get(top.cells[shim])
        ports = sorted(mod.ports) if mod else sorted(top.conns[shim])
        for port in ports:
            if not port.startswith("ep_"):
                continue
            bits = top.conns[shim].get(port, [])
            want = port[3:]
            other = chip.get(want)
            if other is None:
                findings.append(f"PCIe: {shim}.{port}: kolo_chip has no port {want}")
            elif not bits or any(isinstance(b, str) for b in bits + other) or bits != other:
                findings.append(f"PCIe: {shim}.{port} is not wired to {chips[0]}.{want} "
                                f"(tied off, left open or crossed)")
    return findings
