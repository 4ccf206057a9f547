#!/usr/bin/env python3
"""gen_random.py - a random RV32IM test program for kolo_sp (tb/unit/cpu), as
assembly for riscv64-unknown-elf-gcc. Every RV32IM instruction appears (first
once each, shuffled, then a seeded random mix) with operands drawn from edge
values (0, 1, -1, INT_MIN, INT_MAX, ...) and random ones: ALU and M
operations (division by zero and INT_MIN / -1 included), loads and stores to
DMEM, IMEM (read only: stores fault) and the service bus, forward branches
and jumps, counted loops, CSR operations, and now and then an illegal
instruction, ecall, ebreak, a misaligned access or jump target (the trap
handler of common.h resumes after it). Interrupts are on: tb_cpu
--irq-random raises the irq line at random. The results are not checked
here: tb_cpu compares every instruction with the reference ISS.

usage: gen_random.py SEED [N] > prog.S
"""
import random
import sys

seed = int(sys.argv[1], 0)
n = int(sys.argv[2]) if len(sys.argv) > 2 else 3000
r = random.Random(seed)
RAND_REGS = [f"x{i}" for i in range(1, 26)]   # x26..x31: scratch, loop counter, bases (x28 = DMEM + 0x2000: clear of trap_rec), handler
EDGE = [0, 1, 2, -1, -2, 0x80000000, 0x7FFFFFFF, 0x80000001, 0xFFFF, 0x8000, 0x7F, 0x80, 31, 32, 33]
out = []
label = [0]


def new_label():
    label[0] += 1
    return f"L{label[0]}"


def reg(allow_zero=True):
    return "x0" if allow_zero and r.random() < 0.05 else r.choice(RAND_REGS)


def value():
    return r.choice(EDGE) if r.random() < 0.4 else r.getrandbits(32)


def imm12():
    return r.choice([0, 1, -1, 2047, -2048, 31, 32, -32]) if r.random() < 0.3 else r.randint(-2048, 2047)


R_OPS = ["add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and"]
M_OPS = ["mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"]
I_OPS = ["addi", "slti", "sltiu", "xori", "ori", "andi"]
SH_OPS = ["slli", "srli", "srai"]
BR_OPS = ["beq", "bne", "blt", "bge", "bltu", "bgeu"]
LOADS = {"lb": 1, "lh": 2, "lw": 4, "lbu": 1, "lhu": 2}
STORES = {"sb": 1, "sh": 2, "sw": 4}
ILLEGAL = [0x00000000, 0xFFFFFFFF, 0x00003003, 0x40001033, 0x0000202F, 0x7C0020F3, 0x00004073, 0x0000000B]


def simple():
    """one instruction that does not branch, trap or touch the reserved registers"""
    k = r.random()
    if k < 0.35:
        return f"{r.choice(R_OPS)} {reg()}, {reg()}, {reg()}"
    if k < 0.55:
        return f"{r.choice(I_OPS)} {reg()}, {reg()}, {imm12()}"
    if k < 0.65:
        return f"{r.choice(SH_OPS)} {reg()}, {reg()}, {r.randint(0, 31)}"
    if k < 0.80:
        return f"{r.choice(M_OPS)} {reg()}, {reg()}, {reg()}"
    if k < 0.85:
        return f"{r.choice(['lui', 'auipc'])} {reg()}, {r.getrandbits(20)}"
    if k < 0.92:
        return load(aligned=True)
    return store(aligned=True)


def load(aligned):
    op = r.choice(list(LOADS))
    size = LOADS[op]
    base, lo, hi = r.choice([("x28", -2048, 2047), ("x28", -2048, 2047), ("x30", 0, 1023), ("x29", -2048, 2047)])
    off = r.randint(lo, hi - 4)
    off -= off % size if aligned else 0
    if not aligned and size > 1 and off % size == 0:
        off += 1
    return f"{op} {reg()}, {off}({base})"


def store(aligned):
    op = r.choice(list(STORES))
    size = STORES[op]
    # the service bus takes whole words only (a sub-word store there faults); IMEM stores fault
    base = r.choice(["x28"] * 8 + ["x29", "x30"])
    off = r.randint(-2048, 2043) if base != "x30" else r.randint(0, 1020)
    off -= off % size if aligned else 0
    if not aligned and size > 1 and off % size == 0:
        off += 1
    return f"{op} {reg(False)}, {off}({base})"


def emit(s):
    out.append("    " + s)


def one():
    k = r.random()
    if k < 0.70:
        emit(simple())
    elif k < 0.78:                                   # forward branch over 0..3 instructions
        l = new_label()
        emit(f"{r.choice(BR_OPS)} {reg()}, {reg()}, {l}")
        for _ in range(r.randint(0, 3)):
            emit(simple())
        out.append(f"{l}:")
    elif k < 0.81:                                   # jal / jalr forward
        l = new_label()
        if r.random() < 0.5:
            emit(f"jal {reg()}, {l}")
        else:
            emit(f"la x26, {l}")
            emit(f"jalr {reg()}, {r.choice([0, 0, 0])}(x26)")
        for _ in range(r.randint(0, 2)):
            emit(simple())
        out.append(f"{l}:")
    elif k < 0.84:                                   # a counted loop
        l = new_label()
        emit(f"li x27, {r.randint(1, 6)}")
        out.append(f"{l}:")
        for _ in range(r.randint(1, 4)):
            emit(simple())
        emit("addi x27, x27, -1")
        emit(f"bnez x27, {l}")
    elif k < 0.89:                                   # CSRs
        c = r.random()
        if c < 0.6:
            op = r.choice(["csrrw", "csrrs", "csrrc"])
            emit(f"{op} {reg()}, mscratch, {reg()}")
        elif c < 0.8:
            op = r.choice(["csrrwi", "csrrsi", "csrrci"])
            emit(f"{op} {reg()}, mscratch, {r.randint(0, 31)}")
        else:
            emit(f"csrr {reg()}, {r.choice(['mhartid', 'misa', 'minstret', 'instret', 'mstatus', 'mtvec', 'mie', 'mepc', 'mcause', 'mtval'])}")
    elif k < 0.90:
        emit(r.choice(["fence", "fence.i", "fence rw, rw"]))
    elif k < 0.93:                                   # traps the handler resumes after
        t = r.random()
        if t < 0.3:
            emit(f".word 0x{r.choice(ILLEGAL):08x}")
        elif t < 0.45:
            emit(r.choice(["ecall", "ebreak"]))
        elif t < 0.75:
            emit(load(aligned=False))
        else:
            emit(store(aligned=False))
    elif k < 0.94:                                   # a misaligned jump target: traps, no jump
        l = new_label()
        emit(f"la x26, {l}")
        emit("addi x26, x26, 2")
        emit(f"jalr {reg()}, 0(x26)")
        out.append(f"{l}:")
        emit("nop")
    else:
        emit(simple())


print(f"/* generated by tb/unit/cpu/gen_random.py {seed} {n}: do not edit */")
print('#include "common.h"')
print('    .section .text.start, "ax"\n    .globl _start\n_start:')
print("    la t0, trap_record\n    csrw mtvec, t0")
print("    li x28, DMEM + 0x2000\n    li x29, SVC + 0x800\n    la x30, imem_data")
print("    li t0, 0x800\n    csrw mie, t0\n    csrsi mstatus, 8")
for i in range(1, 26):
    print(f"    li x{i}, {value()}")
# every instruction once, in a random order
first = [f"{op} {reg()}, {reg()}, {reg()}" for op in R_OPS + M_OPS]
first += [f"{op} {reg()}, {reg()}, {imm12()}" for op in I_OPS]
first += [f"{op} {reg()}, {reg()}, {r.randint(0, 31)}" for op in SH_OPS]
first += [f"{op} {reg()}, {r.getrandbits(20)}" for op in ["lui", "auipc"]]
first += [f"{op} {reg()}, {4 * r.randint(-100, 100)}(x28)" for op in LOADS]
first += [f"{op} {reg(False)}, {4 * r.randint(-100, 100)}(x28)" for op in STORES]
first += ["fence"]
r.shuffle(first)
for s in first:
    emit(s)
for op in BR_OPS:
    for taken in (0, 1):
        l = new_label()
        a = reg()
        emit(f"{op} {a}, {a}, {l}" if taken else f"{op} {reg()}, {reg()}, {l}")
        emit(simple())
        out.append(f"{l}:")
l = new_label()
emit(f"jal x1, {l}")
out.append(f"{l}:")
l = new_label()
emit(f"la x26, {l}")
emit("jalr x1, 0(x26)")
out.append(f"{l}:")
for _ in range(n):
    one()
print("\n".join(out))
print("    csrci mstatus, 8\n    csrw mie, zero")
print("    PASS_END")
print("COMMON_CODE")
print("    .section .rodata\n    .balign 4\nimem_data:")
print("\n".join(f"    .word 0x{r.getrandbits(32):08x}" for _ in range(256)))
print("COMMON_DATA")
