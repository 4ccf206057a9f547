"""Board descriptions (boards/<board>/board.toml) and the source lists
derived from them: the one list of Verilog files that the checks here
elaborate and the vendor build reads (build/boards/<board>/files.f)."""
import glob
import os
import tomllib

ROOT = os.path.abspath(os.environ.get("TOP") or os.path.join(os.path.dirname(__file__), "..", ".."))
BOARDS_DIR = os.path.join(ROOT, "boards")
VENDORS = ("xilinx", "intel", "lattice")


class BoardError(Exception):
    pass


def board_names():
    return sorted(os.path.basename(os.path.dirname(p))
                  for p in glob.glob(os.path.join(BOARDS_DIR, "*", "board.toml")))


def neutral_rtl_sources():
    """Every vendor-neutral RTL file: rtl/**/*.v without rtl/platform, sorted,
    relative to the repository. Part of every board's list, and the file list
    of the FuseSoC core kolo:ip:kolo (scripts/gen_cores.py)."""
    srcs = []
    for d, _, names in os.walk(os.path.join(ROOT, "rtl")):
        if os.path.relpath(d, ROOT).split(os.sep)[:2] == ["rtl", "platform"]:
            continue
        srcs += [os.path.relpath(os.path.join(d, n), ROOT) for n in names if n.endswith(".v")]
    return sorted(srcs)


class Board:
    """One board: its description and the files it names."""

    REQUIRED = ("name", "title", "vendor", "part", "top", "sources", "constraints", "tool",
                "build", "bitstream", "flash", "detect")

    def __init__(self, name):
        self.dir = os.path.join(BOARDS_DIR, name)
        path = os.path.join(self.dir, "board.toml")
        if not os.path.exists(path):
            raise BoardError(f"no board '{name}' (boards: {', '.join(board_names())})")
        with open(path, "rb") as f:
            self.cfg = tomllib.load(f)
        for k in self.REQUIRED:
            if k not in self.cfg:
                raise BoardError(f"{path}: '{k}' missing")
        if self.cfg["name"] != name:
            raise BoardError(f"{path}: name '{self.cfg['name']}' is not the folder's '{name}'")
        if self.cfg["vendor"] not in VENDORS:
            raise BoardError(f"{path}: vendor '{self.cfg['vendor']}' not one of {VENDORS}")
        self.name = name
        self.vendor = self.cfg["vendor"]
        self.top = self.cfg["top"]
        self.part = self.cfg["part"]

    def get(self, key, default=None):
        return self.cfg.get(key, default)

    def path(self, rel):
        """A file the description names, relative to the board folder."""
        return os.path.normpath(os.path.join(self.dir, rel))

    def rel(self, path):
        return os.path.relpath(path, ROOT)

    def files(self, key):
        out = []
        for rel in self.cfg.get(key, []):
            p = self.path(rel)
            if not os.path.exists(p):
                raise BoardError(f"{self.name}: {key} names {self.rel(p)}, which does not exist")
            out.append(p)
        return out

    def rtl_sources(self):
        """Every vendor-neutral RTL file (neutral_rtl_sources), the platform
        folders the board names, and the board's own sources, as paths
        relative to the repository. Stubs of IP are not in it."""
        srcs = [os.path.join(ROOT, p) for p in neutral_rtl_sources()]
        for pd in self.cfg.get("platform", []):
            full = os.path.join(ROOT, pd)
            if not os.path.isdir(full):
                raise BoardError(f"{self.name}: platform folder {pd} does not exist")
            srcs += [os.path.join(full, n) for n in os.listdir(full) if n.endswith(".v")]
        srcs = sorted(os.path.relpath(p, ROOT) for p in srcs)
        srcs += [self.rel(p) for p in self.files("sources")]
        return srcs

    def stubs(self):
        return [self.rel(p) for p in self.files("ip_stubs")]

    def out_dir(self):
        return os.path.join(ROOT, os.environ.get("BUILD", "build"), "boards", self.name)

    def write_filelist(self):
        """build/boards/<board>/files.f: the sources the vendor build reads."""
        out = self.out_dir()
        os.makedirs(out, exist_ok=True)
        path = os.path.join(out, "files.f")
        with open(path, "w") as f:
            f.write(f"# sources of {self.top} ({self.name}), relative to the repository root;\n"
                    f"# written by scripts/board.py from boards/{self.name}/board.toml\n")
            for s in self.rtl_sources():
                f.write(s + "\n")
        return path
