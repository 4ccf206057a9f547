#!/usr/bin/env python3
"""formal/router/trace.py VCD: print a counterexample of proof 2 (a
yosys-smtbmc trace of kolo_router_formal) step by step: per input (Z+, Z-,
local) the flit sent (vc, H head, T tail) and the credit returned to it, per
output the flit (a head with its tag: {input 0 Z+ 1 Z- 2 local, input class,
serial, Z route fields}, hex), the credit given back, the downstream's flits
owed per VC and its escape packets per vnet (np, the value before this
step's flit). '-' for nothing. A clocked assertion fails one step after the
values it checks."""
import sys

def load(path):
    ids, rows, scope, t = {}, {}, [], 0
    for line in open(path):
        line = line.strip()
        if line.startswith('$scope'):
            scope.append(line.split()[2])
        elif line.startswith('$upscope'):
            scope.pop()
        elif line.startswith('$var'):
            p = line.split()
            ids.setdefault(p[3], []).append('.'.join(scope[1:] + [p[4]]))
        elif line.startswith('#'):
            t = int(line[1:])
        elif line[:1] == 'b':
            v, i = line[1:].split()
            for n in ids.get(i, []):
                rows.setdefault(n, {})[t] = v
        elif line[:1] in ('0', '1', 'x', 'z'):
            for n in ids.get(line[1:], []):
                rows.setdefault(n, {})[t] = line[0]
    return rows

def main():
    rows = load(sys.argv[1])
    # yosys-smtbmc writes step s at time 10 * s (the clock's edges between)
    times = sorted({t for d in rows.values() for t in d if t % 10 == 0})
    def v(n, t):
        d = rows.get(n)
        if d is None:
            return None
        ks = [k for k in d if k <= t]
        s = d[max(ks)] if ks else 'x'
        return int(s, 2) if set(s) <= set('01') else None
    for t in times:
        step = t // 10
        parts = []
        for j, name in enumerate(('Z+', 'Z-', 'L')):
            f = v('in_flit', t)
            fl = (f >> ((4 + j) * 68)) & ((1 << 68) - 1) if f is not None else 0
            iv = (v('in_valid', t) or 0) >> (4 + j) & 1
            cv = (v('in_credit_valid', t) or 0) >> (4 + j) & 1
            cvc = (v('in_credit_vc', t) or 0) >> ((4 + j) * 2) & 3
            s = f"in{name}:" + (f"vc{fl >> 66}{'H' if fl >> 65 & 1 else ''}{'T' if fl >> 64 & 1 else ''}" if iv else '-')
            s += f" cr:{cvc if cv else '-'}"
            parts.append(s)
        for j, name in enumerate(('Z+', 'Z-', 'L')):
            f = v('out_flit', t)
            fl = (f >> ((4 + j) * 68)) & ((1 << 68) - 1) if f is not None else 0
            ov = (v('out_valid', t) or 0) >> (4 + j) & 1
            cv = (v('out_credit_valid', t) or 0) >> (4 + j) & 1
            cvc = (v('out_credit_vc', t) or 0) >> ((4 + j) * 2) & 3
            s = f"out{name}:" + (f"vc{fl >> 66}{'H' if fl >> 65 & 1 else ''}{'T' if fl >> 64 & 1 else ''}"
                                 + (f"[tag {(fl >> 12) & 0xfff:03x}]" if fl >> 65 & 1 else '') if ov else '-')
            s += f" cr:{cvc if cv else '-'}"
            owed = [v(f'g_out<{j}>.owed<{q}>', t) for q in range(4)]
            nps = [v(f'g_out<{j}>.np<{q}>', t) for q in range(2)]
            s += f" owed:{owed} np:{nps}"
            parts.append(s)
        print(f"step {step:2d}: " + ' | '.join(parts))

main()
