"""nextpnr-ecp5 LPF files, checked against the elaborated design: every
statement understood (LOCATE COMP, IOBUF PORT, FREQUENCY PORT/NET,
SYSCONFIG, comments), every name it gives a port of the top (or, for
FREQUENCY NET, a net of the top), every top port located on its own pin,
every port that is not a dedicated SERDES pin (board.toml serdes_ports)
with an IO_TYPE, every clock input (board.toml clock_ports) with a
FREQUENCY. nextpnr itself refuses an unplaced port at place and route; the
check here finds it in seconds, and finds the rest nextpnr lets through."""
import re

from .tclstub import glob_match

STMT = re.compile(r'^\s*(\w+)\s+(.*?)\s*;\s*$')


def check_lpf(path, design, board):
    findings = []
    ports = design.port_bits()
    loc, iotype, freq = {}, {}, set()
    text = open(path).read()
    # statements end with ';' and may span lines; comments start with '#'
    body = "\n".join(l.split("#", 1)[0] for l in text.splitlines())
    lineno_of = {}
    for n, l in enumerate(text.splitlines(), 1):
        s = l.split("#", 1)[0].strip()
        if s:
            lineno_of.setdefault(s, n)
    for raw in body.split(";"):
        stmt = " ".join(raw.split())
        if not stmt:
            continue
        where = f"{path}:{lineno_of.get(raw.strip() + ';', lineno_of.get(raw.strip(), '?'))}"
        m = re.match(r'^LOCATE COMP "([^"]+)" SITE "([^"]+)"$', stmt)
        if m:
            name, site = m.groups()
            if name not in ports:
                findings.append(f"{where}: LOCATE of '{name}', not a port of {design.top}")
            elif name in loc:
                findings.append(f"{where}: '{name}' located twice")
            loc[name] = site
            continue
        m = re.match(r'^IOBUF PORT "([^"]+)"((?:\s+\w+=\S+)+)$', stmt)
        if m:
            name, attrs = m.groups()
            if name not in ports:
                findings.append(f"{where}: IOBUF of '{name}', not a port of {design.top}")
            kv = dict(a.split("=", 1) for a in attrs.split())
            for k in kv:
                if k not in ("IO_TYPE", "PULLMODE", "DRIVE", "SLEWRATE", "TERMINATION", "HYSTERESIS",
                             "OPENDRAIN", "CLAMP", "DIFFRESISTOR", "VREF"):
                    findings.append(f"{where}: IOBUF attribute {k} unknown")
            if "IO_TYPE" in kv:
                iotype[name] = kv["IO_TYPE"]
            continue
        m = re.match(r'^FREQUENCY (PORT|NET) "([^"]+)" ([0-9.]+) MHZ$', stmt)
        if m:
            kind, name, _ = m.groups()
            if kind == "PORT" and name not in ports:
                findings.append(f"{where}: FREQUENCY PORT '{name}', not a port of {design.top}")
            if kind == "NET" and not design.has_net(design.top, name) and name not in ports:
                findings.append(f"{where}: FREQUENCY NET '{name}', not a net of {design.top}")
            freq.add(name)
            continue
        if re.match(r'^SYSCONFIG(\s+\w+=\S+)+$', stmt):
            continue
        findings.append(f"{where}: statement not understood: {stmt}")
    serdes = board.get("serdes_ports", [])
    sites = {}
    for p in ports:
        base = p.split("[")[0]
        if p not in loc:
            findings.append(f"port {p}: no LOCATE")
        else:
            if loc[p] in sites:
                findings.append(f"site {loc[p]}: both {sites[loc[p]]} and {p}")
            sites[loc[p]] = p
        if not any(glob_match(base, s) for s in serdes) and p not in iotype:
            findings.append(f"port {p}: no IO_TYPE")
    for c in board.get("clock_ports", []):
        if c not in ports:
            findings.append(f"clock port {c} (board.toml) is not a port of {design.top}")
        elif c not in freq:
            findings.append(f"clock port {c}: no FREQUENCY")
    return findings
