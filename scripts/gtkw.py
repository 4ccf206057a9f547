#!/usr/bin/env python3
"""gtkw.py - GTKWave save files for kolo's waveforms, and the check of them.

Every save file kolo writes comes from here, and every one is checked against
the FST it names before a target says it is done:

  gtkw.py demo  FST OUT --view=FROM:TO [--mark=C,...] NODE...
      kolo-sim's system trace (--trace, make demo): the totals, then per
      named node (node_X_Y_Z) its link state, firmware stage, table epoch,
      operations waiting and packets sent.
  gtkw.py rtl   FST OUT --view=FROM:TO [--mark=C,...] ROUTER...
      kolo-sim's RTL waveform (--rtl-trace, make demo-waves): per router
      (node index) its down ports, output valid/sunk, input valid and
      fault-drop counter.
  gtkw.py chip  FST OUT --view=FROM:TO [--mark=C,...] CHIP_PORT...
      kolo-sim --net=chip's waveform (--rtl-trace, make demo-chip): per
      named link end (chip_X_Y_Z_<port>, e.g. chip_0_0_0_xp) its state,
      lanes cut, counters, the router's side and the lane words both ways,
      and its chip's firmware stage, table epoch and router drop counter.
  gtkw.py torus FST OUT [--view=FROM:TO]
      tb_torus' waveform (make waves): clock and reset, injection, ejection,
      the link monitors, router 0's ports and allocation, error counters.
  gtkw.py check GTKW... [--mark-at=C]
      Every signal the save file lists exists in the FST it names (under the
      name GTKWave gives it), the view it opens on lies in the trace and holds
      value changes of its signals, every listed signal has a known value in
      that view, and its markers are in view (--mark-at: the primary marker
      is at cycle C). Exit 1 with one line per problem otherwise.
  gtkw.py plant KIND GTKW OUT
      A copy of GTKW with one fault the check must find (test-gtkw): KIND
      name (the first signal renamed), view (the view after the trace's
      end), mark (the primary marker far outside the view).

Times on the command line are core cycles; --cycle-ps (default 4000: 250 MHz)
turns them into the FST's time unit, read from the FST's $timescale.

The view: [timestart] is the left edge; the zoom line "*Z MARKER A B ..."
sets the scale: GTKWave 3.3 draws 2^-Z / 200 time units per pixel (measured
with GTKWave 3.3.118 under Xvfb: a save file it wrote itself for a
34 000 ns view across 1 000 pixels says Z = -12.737), across the wave area
of [size] width minus [sst_width], [signals_width] and about 35 pixels of
borders. The same formula serves the writer and the check.
"""

import argparse
import math
import os
import re
import subprocess
import sys

WINDOW_W, WINDOW_H = 1600, 900
SST_W, SIGNALS_W = 220, 340
BORDER_W = 35
ZOOM_SCALE = 200.0
UNIT_PS = {"s": 10**12, "ms": 10**9, "us": 10**6, "ns": 10**3, "ps": 1, "fs": 1e-3}


class Fst:
    """The header of an FST (through fst2vcd): time unit and variables."""

    def __init__(self, path):
        if not os.path.isfile(path):
            raise SystemExit(f"gtkw: no trace {path}")
        self.path = path
        self.unit_ps = None
        self.vars = {}  # GTKWave name -> (id code, width)
        scope = []
        lines = self._vcd_lines()
        ts_words = []
        in_ts = False
        for line in lines:
            w = line.split()
            if not w:
                continue
            if in_ts:
                if w[0] == "$end":
                    in_ts = False
                    self.unit_ps = _parse_timescale(" ".join(ts_words))
                else:
                    ts_words += w
                continue
            if w[0] == "$timescale":
                rest = [x for x in w[1:] if x != "$end"]
                if "$end" in w:
                    self.unit_ps = _parse_timescale(" ".join(rest))
                else:
                    in_ts, ts_words = True, rest
            elif w[0] == "$scope":
                scope.append(w[2])
            elif w[0] == "$upscope":
                scope.pop()
            elif w[0] == "$var":
                width, code, name = int(w[2]), w[3], w[4]
                rng = w[5] if len(w) > 6 and w[5].startswith("[") else ""
                if not rng and width > 1:
                    rng = f"[{width - 1}:0]"
                full = ".".join(scope + [name]) + rng
                self.vars[full] = (code, width)
            elif w[0] == "$enddefinitions":
                break
        self._rest = lines
        if self.unit_ps is None:
            raise SystemExit(f"gtkw: {path}: no $timescale")

    def _vcd_lines(self):
        self._proc = subprocess.Popen(["fst2vcd", self.path], stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True, errors="replace")
        return iter(self._proc.stdout)

    def close(self):
        self._proc.stdout.close()
        self._proc.kill()
        self._proc.wait()

    def changes(self):
        """(time, id code, value) of every change after the header."""
        t = 0
        for line in self._rest:
            if not line or line[0] == "$":
                continue
            c = line[0]
            if c == "#":
                t = int(line[1:])
            elif c in "01xzXZ":
                yield t, line[1:].strip(), c.lower()
            elif c in "bBrR":
                v, code = line[1:].split()
                yield t, code, v.lower()


def _parse_timescale(text):
    m = re.fullmatch(r"\s*(\d+)\s*([munpf]?s)\s*", text)
    if not m:
        raise SystemExit(f"gtkw: cannot read timescale '{text}'")
    return int(m.group(1)) * UNIT_PS[m.group(2)]


def wave_area_px(size_w, sst_w, signals_w):
    return max(100, size_w - sst_w - signals_w - BORDER_W)


def zoom_for(span_units, area_px):
    return -math.log2(ZOOM_SCALE * span_units / area_px)


def span_for(zoom, area_px):
    return area_px * 2.0 ** (-zoom) / ZOOM_SCALE


# ---- writing ----------------------------------------------------------------------------

class Writer:
    def __init__(self, fst, out, cycle_ps):
        self.fst, self.out, self.cycle_ps = fst, out, cycle_ps
        self.lines = []
        self.missing = []

    def units(self, cycle):
        return round(cycle * self.cycle_ps / self.fst.unit_ps)

    def group(self, label, *parts):
        """A collapsible group: parts are (display flags, [signal names]) in turn."""
        self.lines += ["@800200", f"-{label}"]
        for flags, names in parts:
            for n in names:
                if n not in self.fst.vars:
                    self.missing.append(n)
            self.lines += [f"@{flags}"] + list(names)
        self.lines += ["@1000200", f"-{label}"]

    def one(self, name):
        """name as GTKWave shows it: with its bit range if it has one"""
        if name in self.fst.vars:
            return name
        got = [n for n in self.fst.vars if n.startswith(name + "[") and n.endswith("]")
               and ":" in n[len(name):]]
        return got[0] if len(got) == 1 else name  # unknown names fail in write()

    def pick(self, regex, limit=40):
        r = re.compile(regex)
        return sorted((n for n in self.fst.vars if r.search(n)), key=_natural)[:limit]

    def write(self, view=None, marks=()):
        if self.missing:
            raise SystemExit("gtkw: not in %s: %s" % (self.fst.path, ", ".join(self.missing)))
        head = [f'[dumpfile] "{os.path.abspath(self.fst.path)}"',
                f'[savefile] "{os.path.abspath(self.out)}"',
                f"[size] {WINDOW_W} {WINDOW_H}",
                f"[sst_width] {SST_W}",
                f"[signals_width] {SIGNALS_W}"]
        if view:
            start, end = self.units(view[0]), self.units(view[1])
            zoom = zoom_for(max(1, end - start), wave_area_px(WINDOW_W, SST_W, SIGNALS_W))
            marker = [self.units(c) for c in marks] or [-1]
            named = (marker[1:] + [-1] * 26)[:26]
            head.insert(2, f"[timestart] {start}")
            head.append("*%.6f %d %s" % (zoom, marker[0], " ".join(str(x) for x in named)))
        with open(self.out, "w") as f:
            f.write("\n".join(head + self.lines) + "\n")


def _natural(s):
    return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", s)]


def make_gtkw(a, fill):
    """Open the FST, let fill(writer) add the groups, write the save file."""
    fst = Fst(a.fst)
    w = Writer(fst, a.out, a.cycle_ps)
    what = fill(w, a)
    fst.close()
    w.write(a.view, a.mark)
    print(f"gtkw: {a.out} ({what})")


def fill_demo(w, a):
    w.group("totals", (24, ["kolo.fault_events[7:0]", "kolo.packets_dropped[31:0]",
                            "kolo.requests_sent_again[31:0]"]), (28, ["kolo.firmware_settled"]))
    for n in a.names:
        s = f"kolo.{n}."
        w.group(n, (28, [s + "up"]), (22, [s + "ports_down[5:0]"]),
                (24, [s + "fw_stage[3:0]", s + "table_epoch[15:0]", s + "ops_waiting[15:0]",
                      s + "ni_tx_pkts[31:0]", s + "ni_rx_pkts[31:0]"]))
    return f"{len(a.names)} nodes"


def fill_rtl(w, a):
    top = a.top or "TOP.kolo_torus_sim"
    w.group("clock and links", (28, [w.one(f"{top}.clk")]), (22, [w.one(f"{top}.link_down")]))
    for r in a.names:
        base = f"{top}.u.g_node[{r}].u_router."
        w.group(f"router {r}", (22, [w.one(base + x) for x in
                                     ("port_down", "out_valid", "out_sunk", "in_valid")]),
                (24, [w.one(base + "stat_fault_drops")]))
    return f"{len(a.names)} routers"


def fill_chip(w, a):
    chips = []
    for end in a.names:
        chip = "_".join(end.split("_")[:4])
        if chip not in chips:
            chips.append(chip)
    for chip in chips:
        s = f"kolo.{chip}."
        w.group(chip, (28, [s + "ready"]), (24, [w.one(s + "fw_stage"), w.one(s + "table_epoch"),
                                                w.one(s + "router_fault_drops")]))
    for end in a.names:
        s = f"kolo.{end}."
        w.group(f"{end}: link", (28, [s + "lanes_cut"]), (24, [w.one(s + "link_state")]),
                (28, [s + "lane_reset"]),
                (24, [w.one(s + x) for x in ("crc_errors", "retrains", "lock_losses", "link_downs",
                                              "pkts_dropped", "frames_tx", "frames_rx")]))
        w.group(f"{end}: router side", (28, [s + "router_out_valid", s + "router_out_sunk",
                                               s + "router_in_valid"]))
        w.group(f"{end}: lanes", (24, [w.one(s + "tx_sequence"), w.one(s + "tx_header"), w.one(s + "tx_data")]),
                (28, [s + "rx_data_valid", s + "rx_header_valid"]),
                (24, [w.one(s + "rx_header"), w.one(s + "rx_data")]), (28, [s + "rx_slip"]))
    return f"{len(a.names)} link ends"


def fill_torus(w, a):
    top = r"^TOP\.kolo_torus_sim\."
    r0 = top + r"u\.g_node\[0\]\.u_router\."
    groups = [
        ("clock and reset", 28, top + r"(clk|rst)$"),
        ("injection (NI to router)", 22, top + r"inj_(valid|flit|credit_valid|credit_vc)(\[|$)"),
        ("ejection (router to NI)", 22, top + r"ej_(valid|flit|credit_valid|credit_vc)(\[|$)"),
        ("network links (flit leaving port p of node n: bit n*6+p)", 22, top + r"mon_valid(\[|$)"),
        ("router 0 ports", 22, r0 + r"(in_valid|in_credit_valid|out_valid|out_credit_valid|in_flit|"
         r"out_flit)(\[|$)"),
        ("router 0 allocation", 22, r0 + r"(va_grant|sa_grant|ovc_busy|va_elig|sa_elig)(\[|$)"),
        ("errors {route,vc,len,dst} per node", 22, top + r"stat_errors(\[|$)"),
    ]
    count = 0
    for label, flags, regex in groups:
        names = w.pick(regex)
        if names:
            w.group(label, (flags, names))
            count += len(names)
    return f"{count} signals"


def fill_net(w, a):
    """formal/net counterexample (kolo_ring_formal or kolo_torus_formal): stop, flits in
    the network, cycles without a move, and per node the injector, the sink, the router's
    ports, the heads waiting in its inputs and the free class-0 packet slots of its
    network outputs"""
    top = r"^kolo_(ring|torus)_formal\."
    rng = r"(\[\d+:\d+\])?$"
    # the ring uses ports 4 (Z+), 5 (Z-) and 6 (local); the torus 0..3 (X+ X- Y+ Y-) and 6
    torus = bool(w.pick(r"^kolo_torus_formal\.clk$"))
    ins, outs = ("[0-36]", "[0-3]") if torus else ("[456]", "[45]")
    in_names, out_names = (("X+ in, X- in, Y+ in, Y- in, local", "X+, X-, Y+ and Y-") if torus
                           else ("Z+ in, Z- in, local", "Z+ and Z-"))
    groups = [("clock, reset, stop, flits in the network, cycles without a move", 28,
               top + r"(u_count\.)?(clk|rst|stopped|stop_req|since_stop|in_net|quiet)" + rng)]
    for n in range(a.nodes):
        node = top + r"g_node<%d>\." % n
        groups += [
            (f"node {n} injector (local in)", 28, node + r"(u_inj\.)?(go|first|last|in_pkt|cur_vc|cred0|"
             r"cred1|dst_z|hops|sign_pick|fs_pick|ls_pick|dst|entry|ordered)" + rng),
            (f"node {n} sink (local out)", 28, node + r"(u_sink\.)?(out_v|ret|owe0|owe1|stall)" + rng),
            (f"node {n} router ports (bit p: " + ("0 X+, 1 X-, 2 Y+, 3 Y-, 6 local)" if torus else
                                                  "4 Z+, 5 Z-, 6 local)"), 28,
             node + r"u_router\.(in_valid|out_valid|in_credit_valid|out_credit_valid)" + rng),
            (f"node {n} heads waiting per input VC ({in_names})", 28,
             node + r"u_router\.g_port<%s>\.u_input\.hc_valid" % ins + rng),
            (f"node {n} free class-0 packet slots downstream of {out_names} (vnet 0, 1)", 28,
             node + r"u_router\.g_port<%s>\.u_output\.g_slots\.g_esc<\d>\.slots" % outs + rng),
        ]
    count = 0
    for label, flags, regex in groups:
        names, seen = [], set()
        # a signal both in the harness and in a shared cell (u_count, u_inj, u_sink) once:
        # the harness's
        for x in sorted(w.pick(regex), key=lambda n: n.count(".")):
            leaf = re.sub(r"\.u_(count|inj|sink)\.", ".", x)
            if leaf not in seen:
                seen.add(leaf)
                names.append(x)
        names.sort(key=_natural)
        if names:
            w.group(label, (flags if all("[" not in x for x in names) else 24, names))
            count += len(names)
    return f"{count} signals"


# ---- checking ---------------------------------------------------------------------------

def read_gtkw(path):
    g = {"dumpfile": None, "timestart": 0, "size": (WINDOW_W, WINDOW_H), "sst_width": SST_W,
         "signals_width": SIGNALS_W, "zoom": None, "marks": [], "signals": []}
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line or line.startswith("[*]"):
                continue
            if line.startswith("["):
                m = re.match(r"\[(\w+)\]\s*(.*)", line)
                if not m:
                    raise SystemExit(f"{path}:{n}: cannot read '{line}'")
                key, val = m.group(1), m.group(2).strip()
                if key == "dumpfile":
                    g["dumpfile"] = val.strip('"')
                elif key == "timestart":
                    g["timestart"] = int(val)
                elif key == "size":
                    g["size"] = tuple(int(x) for x in val.split())
                elif key in ("sst_width", "signals_width"):
                    g[key] = int(val)
            elif line.startswith("*"):
                w = line[1:].split()
                g["zoom"] = float(w[0])
                g["marks"] = [int(x) for x in w[1:] if int(x) >= 0]
                g["primary"] = int(w[1]) if len(w) > 1 else -1
            elif line[0] in "@-":
                continue
            elif line[0] == "#":
                raise SystemExit(f"{path}:{n}: combined signals ('#') cannot be checked")
            else:
                g["signals"].append((n, line.strip()))
    if not g["dumpfile"]:
        raise SystemExit(f"{path}: no [dumpfile]")
    return g


def check_one(path, mark_at, cycle_ps):
    problems = []
    g = read_gtkw(path)
    dump = g["dumpfile"]
    if not os.path.isabs(dump):
        dump = os.path.join(os.path.dirname(os.path.abspath(path)), dump)
    fst = Fst(dump)
    if not g["signals"]:
        problems.append("lists no signals")
    codes = {}
    for n, s in g["signals"]:
        if s not in fst.vars:
            problems.append(f"line {n}: signal {s} is not in {dump}")
        else:
            codes.setdefault(fst.vars[s][0], []).append(s)
    start = g["timestart"]
    area = wave_area_px(g["size"][0], g["sst_width"], g["signals_width"])
    end = start + span_for(g["zoom"], area) if g["zoom"] is not None else float("inf")
    primary = g.get("primary", -1)
    if primary >= 0 and not start <= primary <= end:
        problems.append(f"the marker at {primary} is outside the view {start}..{end:.0f}")
    if mark_at is not None:
        want = round(mark_at * cycle_ps / fst.unit_ps)
        if g.get("primary", -1) != want:
            problems.append(f"primary marker at {g.get('primary', -1)}, not at cycle {mark_at} "
                            f"({want})")
    value_at_start = {}
    known_in_view = set()
    changed_in_view = set()
    first = last = None
    read_to = max([end] + g["marks"][1:])  # far enough to see the named markers in the trace
    for t, code, v in fst.changes():
        first = t if first is None else first
        last = t
        if t > read_to:
            break
        if code not in codes or t > end:
            continue
        if t <= start:
            value_at_start[code] = v
        else:
            changed_in_view.add(code)
            if "x" not in v and "z" not in v:
                known_in_view.add(code)
    fst.close()
    for m in g["marks"][1:]:
        if first is not None and not first <= m <= last:
            problems.append(f"named marker at {m} is outside the trace ({first}..{last})")
    if first is None:
        problems.append(f"{dump} holds no value changes")
    elif start > last:
        problems.append(f"the view starts at {start}, after the trace's last change at {last}")
    for code, names in codes.items():
        v = value_at_start.get(code)
        known = (v is not None and "x" not in v and "z" not in v) or code in known_in_view
        if not known:
            problems.append(f"{names[0]} has no known value in the view {start}..{end:.0f}")
    if codes and not changed_in_view:
        problems.append(f"no listed signal changes in the view {start}..{end:.0f}")
    for p in problems:
        print(f"FAIL: {path}: {p}")
    if not problems:
        print(f"gtkw: {path}: {len(g['signals'])} signals in {os.path.basename(dump)}, view "
              f"{start}..{end:.0f} x {fst.unit_ps} ps, {len(changed_in_view)} of them change in it")
    return not problems


def cmd_check(a):
    ok = all([check_one(p, a.mark_at, a.cycle_ps) for p in a.gtkw])
    sys.exit(0 if ok else 1)


def cmd_plant(a):
    with open(a.gtkw) as f:
        lines = f.read().split("\n")
    done = False
    for i, line in enumerate(lines):
        if done:
            break
        if a.kind == "name" and line and line[0] not in "[*@-#":
            lines[i], done = line + "_planted", True
        elif a.kind == "view" and line.startswith("[timestart]"):
            lines[i], done = "[timestart] 999999999999999", True
        elif a.kind == "mark" and line.startswith("*"):
            w = line.split()
            w[1] = str(max(1, int(w[1])) * 1000 + 10**12)
            lines[i], done = " ".join(w), True
    if not done:
        raise SystemExit(f"gtkw: nothing to plant a '{a.kind}' fault in, in {a.gtkw}")
    with open(a.out, "w") as f:
        f.write("\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)

    def cycles(s):
        a, b = s.split(":")
        return int(a), int(b)

    for name in ("demo", "rtl", "chip", "torus", "net"):
        p = sub.add_parser(name)
        p.add_argument("fst")
        p.add_argument("out")
        p.add_argument("--view", type=cycles, help="FROM:TO core cycles")
        p.add_argument("--mark", type=lambda s: [int(x) for x in s.split(",") if x], default=[])
        p.add_argument("--cycle-ps", type=int, default=4000)
        if name == "rtl":
            p.add_argument("--top", default="")
        if name == "net":
            p.add_argument("--nodes", type=int, default=2)
        elif name != "torus":
            p.add_argument("names", nargs="+")
    p = sub.add_parser("check")
    p.add_argument("gtkw", nargs="+")
    p.add_argument("--mark-at", type=int)
    p.add_argument("--cycle-ps", type=int, default=4000)
    p = sub.add_parser("plant")
    p.add_argument("kind", choices=("name", "view", "mark"))
    p.add_argument("gtkw")
    p.add_argument("out")
    a = ap.parse_args()
    fills = {"demo": fill_demo, "rtl": fill_rtl, "chip": fill_chip, "torus": fill_torus, "net": fill_net}
    if a.cmd in fills:
        make_gtkw(a, fills[a.cmd])
    else:
        {"check": cmd_check, "plant": cmd_plant}[a.cmd](a)


if __name__ == "__main__":
    main()
