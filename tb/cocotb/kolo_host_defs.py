"""kolo_host_defs - the NI's host interface constants for the cocotb tests,
read from the C headers that define them (sw/include/kolo_ni_regs.h, generated
from rtl/regs/kolo_ni_regs.toml, kolo_ni_model.h,
sw/include/kolo_route.h), so that nothing is written twice: object-like
macros (KOLO_CSR_ID), function-like macros of simple arithmetic
(KOLO_CSR_CTX(c)) and enum constants (KOLO_D_PUT, KOLO_ST_OK).
"""
import os
import re

_TOP = os.environ.get("TOP", os.path.join(os.path.dirname(__file__), "..", ".."))
_HEADERS = ["sw/include/kolo_ni_regs.h", "sw/include/kolo_ni_model.h", "sw/include/kolo_route.h"]


def _c_expr(text):
    """C integer expression -> Python expression (suffixes u/ull dropped)."""
    text = re.sub(r"/\*.*?\*/", "", text)
    text = re.sub(r"//.*", "", text)
    return re.sub(r"\b(0x[0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", text).strip()


def load(top=_TOP):
    ns = {}
    for h in _HEADERS:
        src = open(os.path.join(top, h)).read()
        src = re.sub(r"\\\n", " ", src)
        for m in re.finditer(r"^#define\s+(KOLO_\w+)(\(([\w\s,]*)\))?\s+(.+)$", src, re.M):
            name, args, body = m.group(1), m.group(3), _c_expr(m.group(4))
            if not body:
                continue
            try:
                if args is not None:
                    ns[name] = eval(f"lambda {args}: {body}", {}, ns)
                else:
                    ns[name] = eval(body, {}, ns)
            except Exception:
                pass  # a macro that is not plain arithmetic (types, casts): not needed here
        for m in re.finditer(r"enum\s+\w+\s*\{([^}]*)\}", src):
            value = -1
            body = re.sub(r"/\*.*?\*/", "", m.group(1), flags=re.S)  # comments may hold commas
            for item in body.split(","):
                item = _c_expr(item)
                if not item:
                    continue
                if "=" in item:
                    name, expr = [x.strip() for x in item.split("=", 1)]
                    value = eval(expr, {}, ns)
                else:
                    name, value = item, value + 1
                ns[name] = value
    return ns


K = load()
