#!/usr/bin/env python3
"""crc_lemma.py - prove the lemma behind kolo_crc32c_64_abs.v: the real
CRC-32C frame check gives different values to any two different 2-flit
frames of the formal harness's domain (see kolo_crc_lemma.v).

usage: crc_lemma.py ROOT OUTDIR

Yosys evaluates kolo_crc_lemma (the RTL CRC cell, chained) at the zero frame
and at every frame with exactly one of its 28 field bits set. The CRC is
affine over GF(2), so two frames x != y collide iff crc(x) ^ crc(y) = 0 iff
L(x ^ y) = 0 for the linear map L(z) = crc(z) ^ crc(0): no collision exists
iff L has a trivial kernel iff its 28 columns have rank 28. Affinity is
checked too, on a few random frames: crc(x) == crc(0) ^ XOR of the columns
of the bits set in x. Exit status 0 iff the lemma holds.
"""
import random
import re
import subprocess
import sys

FIELDS = [("vc0", 2), ("n0", 6), ("vc1", 2), ("n1", 6), ("seq", 4), ("vc", 2), ("len", 6)]
NBITS = sum(w for _, w in FIELDS)


def frame_sets(x):
    """-set options of eval for the frame whose field bits are the bits of x."""
    sets, pos = [], 0
    for name, width in FIELDS:
        sets.append("-set %s %d'd%d" % (name, width, (x >> pos) & ((1 << width) - 1)))
        pos += width
    return " ".join(sets)


def main():
    root, out = sys.argv[1], sys.argv[2]
    rnd = random.Random(1)
    frames = [0] + [1 << i for i in range(NBITS)] + [rnd.getrandbits(NBITS) for _ in range(8)]
    cmds = ["read_verilog -sv -I%s/rtl/include %s/formal/link/kolo_crc_lemma.v %s/rtl/link/kolo_crc32c_64.v"
            % (root, root, root), "prep -top kolo_crc_lemma", "flatten"]
    cmds += ["eval %s -show crc" % frame_sets(x) for x in frames]
    log = out + "/lemma.yosys.log"
    subprocess.run(["yosys", "-q", "-l", log, "-p", "; ".join(cmds)],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    vals = []
    for v in re.findall(r"Eval result: \\crc = ([-0-9']+)\.", open(log).read()):
        vals.append(int(v[3:], 2) if v.startswith("32'") else int(v) & 0xFFFFFFFF)
    if len(vals) != len(frames):
        print("  lemma: could not read %d CRC values from %s" % (len(frames), log))
        return 1
    crc0 = vals[0]
    cols = [v ^ crc0 for v in vals[1:NBITS + 1]]
    # affinity on the random frames
    for x, v in zip(frames[NBITS + 1:], vals[NBITS + 1:]):
        pred = crc0
        for i in range(NBITS):
            if x >> i & 1:
                pred ^= cols[i]
        if pred != v:
            print("  lemma: the CRC is not affine over these frames?! frame %#x" % x)
            return 1
    # rank over GF(2)
    basis = []  # reduced vectors, distinct leading bits
    for c in cols:
        for b in basis:
            c = min(c, c ^ b)
        if c == 0:
            print("  lemma FAILS: a collision exists (columns dependent)")
            return 1
        basis.append(c)
    print("  CRC-32C columns of the %d frame bits: rank %d, no collision in the domain" % (NBITS, len(basis)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
