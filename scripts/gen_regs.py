#!/usr/bin/env python3
"""gen_regs.py - generate register and address constants from their one
description: the service registers (rtl/regs/kolo_svc_regs.toml), the
service processor's memory map (rtl/regs/kolo_sp_regs.toml) and the NI's
protocol (rtl/regs/kolo_ni_regs.toml: opcodes, status codes, packet header
fields, BAR0 registers). Outputs: the RTL constants (.vh), the C header
(.h), the reference (.md) and, for a memory map, linker script symbols (.ld).

usage: gen_regs.py MAP.toml [--vh OUT.vh] [--h OUT.h] [--md OUT.md] [--ld OUT.ld]
       gen_regs.py MAP.toml --check      (validate only)
A block may give its size in bytes (`size`): its _BASE and _SIZE are then
emitted too. [[const]] entries (name, value, desc) are emitted as constants.
meta.host_base is optional (the service space has one, a memory map not);
meta.kind = "protocol" selects the protocol reference (.md) layout;
meta.version_name names the version macro (<P>_MAP_VERSION by default).
A register may be 8 bytes wide (`bytes = 8`, 8-byte aligned; fields up to
bit 63). A repeated block with `base_macro` is named the other way round:
C gets <P>_<BASE_MACRO>(i) for the instance's base and <P>_<BLOCK>_<REG> for
the register's offset in it. An [[enum]] may give `c_type` (a C enum of
that name instead of #defines) and its RTL width in bits (`width`, 1..32,
4 by default). A [[layout]] (name, desc, width, fields) describes the bit
fields of a word that is not a register (a packet header flit): C gets
_SHIFT, _MASK (shifted), _GET(word) and _FIELD(value) (the value in place,
cut to the field), Verilog _HI and _LO; a field given a fourth
element (the name of another field) shares that field's bits. A [[const]]
with `int = true` is a plain decimal C int (loop bounds, array sizes).
Exits 1 with a message naming the register on any inconsistency: overlapping
or unaligned addresses, addresses beyond the space, overlapping or
out-of-range fields, unknown access kinds, duplicate names.
"""
import argparse
import os
import re
import sys
import tomllib

ACCESS = {
    "ro": "read only",
    "rw": "read/write",
    "wo": "write only (reads 0)",
    "rc": "read: returns and removes",
    "w1": "write: action (reads 0)",
}


class MapError(Exception):
    pass


def parse_bits(text, where, top=31):
    parts = text.split(":")
    if len(parts) != 2:
        raise MapError(f"{where}: bits '{text}' is not HI:LO")
    hi, lo = int(parts[0]), int(parts[1])
    if not (0 <= lo <= hi <= top):
        raise MapError(f"{where}: bits '{text}' outside {top}:0 or reversed")
    return hi, lo


def parse_fields(flist, where, top, shared_ok=False):
    """[name, "HI:LO", desc(, shared-with)] -> field dicts; overlaps refused
    unless the field names the one whose bits it shares (layouts only)"""
    fields = []
    used = 0
    byname = {}
    for f in flist:
        fname, bits, fdesc = f[0], f[1], f[2]
        hi, lo = parse_bits(bits, f"{where}.{fname}", top)
        mask = ((1 << (hi - lo + 1)) - 1) << lo
        if len(f) > 3:
            if not shared_ok or f[3] not in byname:
                raise MapError(f"{where}.{fname}: shares bits with unknown field '{f[3]}'")
            if mask & ~byname[f[3]]["mask"]:
                raise MapError(f"{where}.{fname}: bits outside those of {f[3]}")
        elif used & mask:
            raise MapError(f"{where}.{fname}: overlaps another field")
        used |= mask
        fd = {"name": fname, "hi": hi, "lo": lo, "mask": mask, "desc": fdesc,
              "shares": f[3] if len(f) > 3 else None}
        if fname in byname:
            raise MapError(f"{where}.{fname}: duplicate field")
        byname[fname] = fd
        fields.append(fd)
    return fields


def load(path):
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    meta = doc["meta"]
    space = meta["space"]
    regs = []  # flat list of register instances for overlap checking
    names = set()
    blocks = []
    for b in doc.get("block", []):
        bcount = b.get("count", 1)
        bstride = b.get("stride", 0)
        if bcount > 1 and bstride <= 0:
            raise MapError(f"block {b['name']}: count > 1 needs a stride")
        breg = []
        for r in b.get("reg", []):
            full = f"{b['name']}_{r['name']}"
            if full in names:
                raise MapError(f"{full}: duplicate name")
            names.add(full)
            acc = r.get("access")
            if acc not in ACCESS:
                raise MapError(f"{full}: access '{acc}' unknown")
            nbytes = r.get("bytes", 4)
            if nbytes not in (4, 8):
                raise MapError(f"{full}: bytes {nbytes} is not 4 or 8")
            if r["offset"] % nbytes:
                raise MapError(f"{full}: offset 0x{r['offset']:x} not {nbytes}-byte aligned")
            rcount = r.get("count", 1)
            rstride = r.get("stride", nbytes)
            if rcount > 1 and rstride < nbytes:
                raise MapError(f"{full}: stride below {nbytes}")
            fields = parse_fields(r.get("fields", []), full, nbytes * 8 - 1)
            reset = r.get("reset", 0)
            if reset >> (nbytes * 8):
                raise MapError(f"{full}: reset wider than {nbytes * 8} bits")
            reg = dict(r, full=full, count=rcount, stride=rstride, fields=fields, reset=reset, bytes=nbytes)
            breg.append(reg)
            for bi in range(bcount):
                for ri in range(rcount):
                    addr = b["base"] + bi * bstride + r["offset"] + ri * rstride
                    if addr + nbytes > space:
                        raise MapError(f"{full}: address 0x{addr:x} beyond the space 0x{space:x}")
                    regs.append((addr, full, nbytes))
        blocks.append(dict(b, count=bcount, stride=bstride, regs=breg))
    regs.sort()
    for (a0, n0, s0), (a1, n1, _) in zip(regs, regs[1:]):
        if a0 + s0 > a1:
            raise MapError(f"{n0} and {n1} overlap at 0x{a1:x}")
    enums = doc.get("enum", [])
    for e in enums:
        seen = set()
        vnames = set()
        width = e.setdefault("width", 4)
        if not 1 <= width <= 32:
            raise MapError(f"enum {e['name']}: width {width} not 1..32")
        for vname, val, _ in e["values"]:
            if val in seen:
                raise MapError(f"enum {e['name']}: value {val} twice")
            if vname in vnames:
                raise MapError(f"enum {e['name']}: name {vname} twice")
            if not 0 <= val < (1 << width):
                raise MapError(f"enum {e['name']}: {vname} = {val} does not fit its width of {width} bits")
            seen.add(val)
            vnames.add(vname)
    for b in blocks:
        if "size" in b and b["base"] + b["size"] > space:
            raise MapError(f"block {b['name']}: beyond the space 0x{space:x}")
        if "base_macro" in b and b["count"] < 2:
            raise MapError(f"block {b['name']}: base_macro needs a repeated block")
        for r in b["regs"]:
            if "base_macro" in b and r["count"] > 1:
                raise MapError(f"{r['full']}: a repeated register in a base_macro block")
    layouts = []
    lnames = set()
    for lay in doc.get("layout", []):
        if lay["name"] in lnames:
            raise MapError(f"layout {lay['name']}: duplicate name")
        lnames.add(lay["name"])
        width = lay.get("width", 64)
        layouts.append(dict(lay, width=width,
                            fields=parse_fields(lay["fields"], lay["name"], width - 1, shared_ok=True)))
    return meta, blocks, enums, layouts, len(regs)


def reg_addr_expr_c(b, r):
    base = f"0x{b['base']:04X}u + 0x{r['offset']:02X}u"
    args = []
    if b["count"] > 1:
        base += f" + 0x{b['stride']:X}u * (i)"
        args.append("i")
    if r["count"] > 1:
        idx = "j" if args else "i"
        base += f" + 0x{r['stride']:X}u * ({idx})"
        args.append(idx)
    return args, base


def guard(path, suffix):
    stem = os.path.splitext(os.path.basename(path))[0]
    return re.sub(r"[^A-Za-z0-9]", "_", stem).upper() + suffix


def c_fields(lines, name, fields):
    for f in fields:
        suf = "ull" if f["mask"] >> 32 else "u"
        lines.append(f"#define {name}_{f['name']}_SHIFT {f['lo']}u")
        lines.append(f"#define {name}_{f['name']}_MASK 0x{f['mask']:X}{suf}")


def vh_fields(lines, name, fields):
    for f in fields:
        lines.append(f"`define {name}_{f['name']}_HI {f['hi']}")
        lines.append(f"`define {name}_{f['name']}_LO {f['lo']}")


def gen_h(meta, blocks, enums, layouts, consts, out, src):
    p = meta["prefix"]
    g = guard(src, "_H")
    lines = [f"/* Generated by scripts/gen_regs.py from {src}: do not edit. */"]
    if "host_base" in meta:
        lines += [
            f"/* {meta['name']}: {meta['data_width']}-bit registers, byte offsets in a",
            f" * 0x{meta['space']:X}-byte space (AXI4-Lite); the host sees it at BAR0 + 0x{meta['host_base']:X}. */",
        ]
    else:
        lines.append(f"/* {meta['name']}: {meta['data_width']}-bit registers, byte addresses. */")
    lines += [f"#ifndef {g}", f"#define {g}", ""]
    if "host_base" in meta:
        lines += [
            f"#define {p}_SPACE 0x{meta['space']:X}u",
            f"#define {p}_HOST_BASE 0x{meta['host_base']:X}u",
        ]
    lines += [f"#define {meta.get('version_name', p + '_MAP_VERSION')} 0x{meta['version']:04X}u", ""]
    for c in consts:
        if c.get("int"):
            lines.append(f"#define {p}_{c['name']} {c['value']} /* {c['desc']} */")
        else:
            lines.append(f"#define {p}_{c['name']} 0x{c['value']:X}u /* {c['desc']} */")
    if consts:
        lines.append("")
    for e in enums:
        lines.append(f"/* {e['desc']} */")
        if "c_type" in e:
            lines.append(f"enum {e['c_type']} {{")
            for vname, val, desc in e["values"]:
                lines.append(f"    {p}_{e['name']}_{vname} = {val}, /* {desc} */")
            lines.append("};")
        else:
            for vname, val, desc in e["values"]:
                lines.append(f"#define {p}_{e['name']}_{vname} {val}u /* {desc} */")
        lines.append("")
    for lay in layouts:
        lines.append(f"/* ---- {lay['name']}: {lay['desc']} ({lay['width']} bits) */")
        suf = "ull" if lay["width"] > 32 else "u"
        for f in lay["fields"]:
            fn = f"{p}_{lay['name']}_{f['name']}"
            lines.append(f"#define {fn}_SHIFT {f['lo']}u /* {f['desc']} */")
            lines.append(f"#define {fn}_MASK 0x{f['mask']:X}{suf}")
            lines.append(f"#define {fn}_GET(w) (((w) & {fn}_MASK) >> {fn}_SHIFT)")
            lines.append(f"#define {fn}_FIELD(v) (((unsigned long long)(v) << {fn}_SHIFT) & {fn}_MASK)")
        lines.append("")
    for b in blocks:
        lines.append(f"/* ---- {b['name']}: {b['desc']} */")
        if "base_macro" in b:
            bm = f"{p}_{b['base_macro']}"
            lines.append(f"#define {bm}(i) (0x{b['base']:X}u + 0x{b['stride']:X}u * (i))")
            lines.append(f"#define {p}_{b['name']}_COUNT {b['count']}u")
            lines.append(f"#define {p}_{b['name']}_STRIDE 0x{b['stride']:X}u")
            for r in b["regs"]:
                name = f"{p}_{r['full']}"
                lines.append(f"#define {name} 0x{r['offset']:02X}u")
                if r["reset"]:
                    lines.append(f"#define {name}_RESET 0x{r['reset']:X}u")
                c_fields(lines, name, r["fields"])
            lines.append("")
            continue
        if "size" in b:
            lines.append(f"#define {p}_{b['name']}_BASE 0x{b['base']:X}u")
            lines.append(f"#define {p}_{b['name']}_SIZE 0x{b['size']:X}u")
        if b["count"] > 1:
            lines.append(f"#define {p}_{b['name']}_COUNT {b['count']}u")
            lines.append(f"#define {p}_{b['name']}_STRIDE 0x{b['stride']:X}u")
        for r in b["regs"]:
            name = f"{p}_{r['full']}"
            args, expr = reg_addr_expr_c(b, r)
            if args:
                lines.append(f"#define {name}({', '.join(args)}) ({expr})")
            else:
                lines.append(f"#define {name} ({expr})")
            if r["count"] > 1:
                lines.append(f"#define {name}_COUNT {r['count']}u")
            if r["reset"]:
                lines.append(f"#define {name}_RESET 0x{r['reset']:X}u")
            c_fields(lines, name, r["fields"])
        lines.append("")
    lines.append("#endif")
    out.write("\n".join(lines) + "\n")


def gen_vh(meta, blocks, enums, layouts, consts, out, src):
    p = meta["prefix"]
    g = guard(src, "_VH")
    lines = [f"// Generated by scripts/gen_regs.py from {src}: do not edit."]
    if "host_base" in meta:
        lines += [
            f"// {meta['name']}: byte offsets in the AXI4-Lite space. A repeated block or",
            "// register has a _BASE (first instance) and a _STRIDE.",
        ]
    else:
        lines.append(f"// {meta['name']}: byte addresses.")
    lines += [f"`ifndef {g}", f"`define {g}"]
    if "host_base" in meta:
        lines += [f"`define {p}_SPACE 32'h{meta['space']:X}", f"`define {p}_HOST_BASE 32'h{meta['host_base']:X}"]
    lines.append(f"`define {meta.get('version_name', p + '_MAP_VERSION')} 32'h{meta['version']:04X}")
    for c in consts:
        lines.append(f"`define {p}_{c['name']} 32'h{c['value']:X}")
    for e in enums:
        for vname, val, _ in e["values"]:
            lines.append(f"`define {p}_{e['name']}_{vname} {e['width']}'d{val}")
    for lay in layouts:
        vh_fields(lines, f"{p}_{lay['name']}", lay["fields"])
    for b in blocks:
        if "base_macro" in b:
            bm = f"{p}_{b['base_macro']}"
            lines.append(f"`define {bm}_BASE 32'h{b['base']:X}")
            lines.append(f"`define {bm}_STRIDE 32'h{b['stride']:X}")
            lines.append(f"`define {p}_{b['name']}_COUNT {b['count']}")
            for r in b["regs"]:
                name = f"{p}_{r['full']}"
                lines.append(f"`define {name} 32'h{r['offset']:X}")
                lines.append(f"`define {name}_RESET {r['bytes'] * 8}'h{r['reset']:X}")
                vh_fields(lines, name, r["fields"])
            continue
        if "size" in b:
            lines.append(f"`define {p}_{b['name']}_BASE 32'h{b['base']:X}")
            lines.append(f"`define {p}_{b['name']}_SIZE 32'h{b['size']:X}")
        if b["count"] > 1:
            lines.append(f"`define {p}_{b['name']}_COUNT {b['count']}")
            lines.append(f"`define {p}_{b['name']}_STRIDE 32'h{b['stride']:X}")
        for r in b["regs"]:
            name = f"{p}_{r['full']}"
            lines.append(f"`define {name} 32'h{b['base'] + r['offset']:04X}")
            if r["count"] > 1:
                lines.append(f"`define {name}_COUNT {r['count']}")
                lines.append(f"`define {name}_STRIDE 32'h{r['stride']:X}")
            lines.append(f"`define {name}_RESET {r['bytes'] * 8}'h{r['reset']:X}")
            vh_fields(lines, name, r["fields"])
    lines.append("`endif")
    out.write("\n".join(lines) + "\n")


def gen_ld(meta, blocks, consts, out, src):
    p = meta["prefix"]
    w = out.write
    w(f"/* Generated by scripts/gen_regs.py from {src}: do not edit. */\n")
    for c in consts:
        w(f"{p}_{c['name']} = 0x{c['value']:X};\n")
    for b in blocks:
        if "size" in b:
            w(f"{p}_{b['name']}_BASE = 0x{b['base']:X};\n")
            w(f"{p}_{b['name']}_SIZE = 0x{b['size']:X};\n")


def gen_md(meta, blocks, enums, layouts, consts, nregs, out, src):
    p = meta["prefix"]
    w = out.write
    if meta.get("kind") == "protocol":
        gen_md_proto(meta, blocks, enums, layouts, consts, nregs, out, src)
        return
    if "host_base" not in meta:
        gen_md_map(meta, blocks, consts, out, src)
        return
    w("# kolo service registers\n\n")
    w(f"<!-- Generated by scripts/gen_regs.py from {src}: do not edit. -->\n\n")
    w(f"The service processor reaches these {meta['data_width']}-bit registers over its AXI4-Lite "
      f"CSR bus at byte offsets 0x0000..0x{meta['space'] - 1:04X}; the host reaches the same space through "
      f"BAR0 at 0x{meta['host_base']:04X} + offset (writes only while `SYS_HOST_ACCESS.WRITE_EN` is 1). "
      f"Map version 0x{meta['version']:04X}, {nregs} register instances. C names are `{p}_<BLOCK>_<REG>` "
      f"(`sw/include/kolo_svc_regs.h`), RTL names the same as Verilog macros "
      f"(`rtl/include/kolo_svc_regs.vh`). Accesses to unmapped offsets and writes to read-only "
      f"registers answer SLVERR and count in `SYS_BAD_ACCESS`.\n\n")
    w("Access kinds: " + "; ".join(f"`{k}` {v}" for k, v in ACCESS.items()) + ".\n\n")
    for e in enums:
        w(f"## Enumeration {e['name']}: {e['desc']}\n\n| value | name | meaning |\n|---|---|---|\n")
        for vname, val, desc in e["values"]:
            w(f"| {val} | `{p}_{e['name']}_{vname}` | {desc} |\n")
        w("\n")
    for b in blocks:
        rep = f", {b['count']} instances every 0x{b['stride']:X} (i = 0..{b['count'] - 1})" if b["count"] > 1 else ""
        w(f"## {b['name']} at 0x{b['base']:04X}{rep}\n\n{b['desc']}.\n\n")
        w("| offset | register | access | reset | description |\n|---|---|---|---|---|\n")
        for r in b["regs"]:
            off = f"0x{b['base'] + r['offset']:04X}"
            if b["count"] > 1:
                off += f" + 0x{b['stride']:X}·i"
            if r["count"] > 1:
                off += f" + {r['stride']}·j (j < {r['count']})"
            w(f"| {off} | `{r['full']}` | {r['access']} | 0x{r['reset']:X} | {r['desc']} |\n")
        w("\n")
        for r in b["regs"]:
            if r["fields"]:
                w(f"`{r['full']}` fields: " + "; ".join(
                    f"`{f['name']}` [{f['hi']}:{f['lo']}] {f['desc']}" for f in r["fields"]) + ".\n\n")


def gen_md_map(meta, blocks, consts, out, src):
    p = meta["prefix"]
    w = out.write
    w(f"# {meta['name']}\n\n")
    w(f"<!-- Generated by scripts/gen_regs.py from {src}: do not edit. -->\n\n")
    w(f"Map version 0x{meta['version']:04X}. C names `{p}_<BLOCK>_<REG>` and `{p}_<BLOCK>_BASE`/`_SIZE`, "
      f"the same as Verilog macros and linker script symbols.\n\n")
    if consts:
        w("| constant | value | meaning |\n|---|---|---|\n")
        for c in consts:
            w(f"| `{p}_{c['name']}` | 0x{c['value']:X} | {c['desc']} |\n")
        w("\n")
    w("| base | size | block | what |\n|---|---|---|---|\n")
    for b in blocks:
        size = f"0x{b['size']:X}" if "size" in b else ""
        w(f"| 0x{b['base']:08X} | {size} | {b['name']} | {b['desc']} |\n")
    w("\n")
    for b in blocks:
        if not b["regs"]:
            continue
        w(f"## {b['name']} at 0x{b['base']:08X}\n\n")
        w("| address | register | access | reset | description |\n|---|---|---|---|---|\n")
        for r in b["regs"]:
            w(f"| 0x{b['base'] + r['offset']:08X} | `{r['full']}` | {r['access']} | 0x{r['reset']:X} | {r['desc']} |\n")
        w("\n")
        for r in b["regs"]:
            if r["fields"]:
                w(f"`{r['full']}` fields: " + "; ".join(
                    f"`{f['name']}` [{f['hi']}:{f['lo']}] {f['desc']}" for f in r["fields"]) + ".\n\n")


def fields_md(w, name, fields):
    if fields:
        w(f"`{name}` fields: " + "; ".join(
            f"`{f['name']}` [{f['hi']}:{f['lo']}] {f['desc']}" for f in fields) + ".\n\n")


def gen_md_proto(meta, blocks, enums, layouts, consts, nregs, out, src):
    p = meta["prefix"]
    w = out.write
    w(f"# {meta['name']}\n\n")
    w(f"<!-- Generated by scripts/gen_regs.py from {src}: do not edit. -->\n\n")
    w(f"{meta['desc']}\n\n")
    w(f"Version 0x{meta['version']:04X}. C names as below (`sw/include/{guard(src, '').lower()}.h`), "
      f"Verilog macros of the same names (`rtl/include/{guard(src, '').lower()}.vh`; bit fields as "
      f"`_HI`/`_LO`, C `_SHIFT`/`_MASK`). {nregs} register instances in BAR0.\n\n")
    if consts:
        w("| constant | value | meaning |\n|---|---|---|\n")
        for c in consts:
            val = str(c["value"]) if c.get("int") else f"0x{c['value']:X}"
            w(f"| `{p}_{c['name']}` | {val} | {c['desc']} |\n")
        w("\n")
    for e in enums:
        w(f"## {e['desc']}\n\n| value | name | meaning |\n|---|---|---|\n")
        for vname, val, desc in e["values"]:
            cell = desc.replace("|", "\\|")
            w(f"| {val} | `{p}_{e['name']}_{vname}` | {cell} |\n")
        w("\n")
    for lay in layouts:
        w(f"## {lay['desc']} ({lay['width']} bits)\n\n| bits | name | meaning |\n|---|---|---|\n")
        for f in lay["fields"]:
            sh = f" (shares the bits of `{f['shares']}`)" if f["shares"] else ""
            w(f"| {f['hi']}:{f['lo']} | `{p}_{lay['name']}_{f['name']}` | {f['desc']}{sh} |\n")
        w("\n")
    w("Access kinds: " + "; ".join(f"`{k}` {v}" for k, v in ACCESS.items()) + ".\n\n")
    for b in blocks:
        if "base_macro" in b:
            w(f"## {b['name']} at `{p}_{b['base_macro']}(i)` = 0x{b['base']:X} + 0x{b['stride']:X}·i "
              f"(i = 0..{b['count'] - 1})\n\n{b['desc']}.\n\n")
            w("| offset | register | bytes | access | reset | description |\n|---|---|---|---|---|---|\n")
            for r in b["regs"]:
                w(f"| +0x{r['offset']:02X} | `{p}_{r['full']}` | {r['bytes']} | {r['access']} | 0x{r['reset']:X} | {r['desc']} |\n")
        else:
            w(f"## {b['name']} at 0x{b['base']:X}\n\n{b['desc']}.\n\n")
            w("| offset | register | bytes | access | reset | description |\n|---|---|---|---|---|---|\n")
            for r in b["regs"]:
                off = f"0x{b['base'] + r['offset']:04X}"
                if r["count"] > 1:
                    off += f" + {r['stride']}·i (i < {r['count']})"
                w(f"| {off} | `{p}_{r['full']}` | {r['bytes']} | {r['access']} | 0x{r['reset']:X} | {r['desc']} |\n")
        w("\n")
        for r in b["regs"]:
            fields_md(w, f"{p}_{r['full']}", r["fields"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("map")
    ap.add_argument("--vh")
    ap.add_argument("--h")
    ap.add_argument("--md")
    ap.add_argument("--ld")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    try:
        meta, blocks, enums, layouts, nregs = load(a.map)
        with open(a.map, "rb") as f:
            consts = tomllib.load(f).get("const", [])
        for c in consts:
            if not {"name", "value", "desc"} <= set(c) <= {"name", "value", "desc", "int"}:
                raise MapError(f"const {c.get('name', '?')}: needs name, value, desc (and optional int)")
    except (MapError, KeyError, ValueError, tomllib.TOMLDecodeError) as e:
        print(f"gen_regs: {a.map}: {e}", file=sys.stderr)
        return 1
    if a.h:
        with open(a.h, "w") as f:
            gen_h(meta, blocks, enums, layouts, consts, f, a.map)
    if a.vh:
        with open(a.vh, "w") as f:
            gen_vh(meta, blocks, enums, layouts, consts, f, a.map)
    if a.md:
        with open(a.md, "w") as f:
            gen_md(meta, blocks, enums, layouts, consts, nregs, f, a.map)
    if a.ld:
        with open(a.ld, "w") as f:
            gen_ld(meta, blocks, consts, f, a.map)
    return 0


if __name__ == "__main__":
    sys.exit(main())
