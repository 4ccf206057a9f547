#!/usr/bin/env python3
"""kolo_elf2hex.py - turn a kolo_sp firmware ELF (RV32, linked with
fw/rv32/kolo_sp.ld) into the two $readmemh images kolo_sp loads at build
time: IMEM (32-bit words from IMEM's first word) and DMEM (the same for the
data RAM). Every loadable segment must lie wholly inside IMEM or DMEM (by
its load address); an image larger than the RAM is refused with a message
naming the segment and the sizes, never truncated.

usage: kolo_elf2hex.py ELF --imem OUT.hex --dmem OUT.hex
                       [--imem-bytes N] [--dmem-bytes N]   (defaults: the map's)
Exit status 0, or 1 with a message on stderr.
"""
import argparse
import os
import re
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def map_constants():
    """IMEM/DMEM bases and default sizes from the generated memory-map header."""
    path = os.path.join(HERE, "..", "..", "sw", "include", "kolo_sp_regs.h")
    consts = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"#define (KOLO_SP_\w+) 0x([0-9A-Fa-f]+)u", line)
            if m:
                consts[m.group(1)] = int(m.group(2), 16)
    return consts


def segments(data):
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise ValueError("not a little-endian 32-bit ELF")
    (e_machine,) = struct.unpack_from("<H", data, 18)
    if e_machine != 243:
        raise ValueError(f"not a RISC-V ELF (machine {e_machine})")
    e_phoff, = struct.unpack_from("<I", data, 28)
    e_phentsize, e_phnum = struct.unpack_from("<HH", data, 42)
    for k in range(e_phnum):
        p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz = struct.unpack_from("<IIIIII", data, e_phoff + k * e_phentsize)
        if p_type == 1 and p_memsz:  # PT_LOAD
            yield p_paddr, p_vaddr, data[p_offset:p_offset + p_filesz], p_memsz


def place(rams, c, addr, content, size):
    for name, (base, ram_bytes, img, _) in rams.items():
        if base <= addr < base + c[f"KOLO_SP_{name}_SIZE"]:
            end = addr - base + size
            if end > ram_bytes:
                raise ValueError(f"the image does not fit {name}: {size} bytes at 0x{addr:08x} end "
                                 f"{end} bytes into {name}, which has {ram_bytes} bytes "
                                 f"({end - ram_bytes} bytes too many)")
            if content:
                if len(img) < addr - base + len(content):
                    img.extend(bytes(addr - base + len(content) - len(img)))
                img[addr - base:addr - base + len(content)] = content
            return
    raise ValueError(f"{size} bytes at 0x{addr:08x} are in neither IMEM nor DMEM")


def main():
    c = map_constants()
    ap = argparse.ArgumentParser()
    ap.add_argument("elf")
    ap.add_argument("--imem", required=True)
    ap.add_argument("--dmem", required=True)
    ap.add_argument("--imem-bytes", type=lambda v: int(v, 0), default=c["KOLO_SP_IMEM_BYTES_DEFAULT"])
    ap.add_argument("--dmem-bytes", type=lambda v: int(v, 0), default=c["KOLO_SP_DMEM_BYTES_DEFAULT"])
    a = ap.parse_args()
    rams = {"IMEM": [c["KOLO_SP_IMEM_BASE"], a.imem_bytes, bytearray(), a.imem],
            "DMEM": [c["KOLO_SP_DMEM_BASE"], a.dmem_bytes, bytearray(), a.dmem]}
    try:
        with open(a.elf, "rb") as f:
            data = f.read()
        for paddr, vaddr, content, memsz in segments(data):
            # the run-time extent (VMA, .bss included) must fit its RAM; the content is
            # placed at its load address (LMA: .data's image in IMEM) and, when the two
            # differ, at its run-time address too (DMEM loaded at build time)
            place(rams, c, vaddr, b"", memsz)
            if content:
                place(rams, c, paddr, content, len(content))
                if vaddr != paddr:
                    place(rams, c, vaddr, content, len(content))
    except (OSError, ValueError, struct.error) as e:
        print(f"kolo_elf2hex: {a.elf}: {e}", file=sys.stderr)
        return 1
    for name, (base, size, img, out) in rams.items():
        img.extend(bytes((-len(img)) % 4))
        with open(out, "w") as f:
            for k in range(0, len(img), 4):
                f.write("%08x\n" % struct.unpack_from("<I", img, k))
    return 0


if __name__ == "__main__":
    sys.exit(main())
