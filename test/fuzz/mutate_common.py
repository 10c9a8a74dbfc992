#!/usr/bin/env python3
"""The text helpers mutate.py and mutate_structural.py share (python3
standard library): constants, a light line-and-brace parser of MLIR text
(its ops, blocks and K-loop) and a seeded pick."""

import re


WG = "#gpu.address_space<workgroup>"
I32_MAX, I64_MAX = 2**31 - 1, 2**63 - 1
I32_MIN, I64_MIN = -2**31, -2**63


# ---------------------------------------------------------------- parsing

def op_lines(lines):
    """Indices of lines that are operations (not comments, braces, labels)."""
    out = []
    for i, l in enumerate(lines):
        s = l.strip()
        if not s or s.startswith("//") or s in ("}", "})", "}) : () -> ()") or s.startswith("^"):
            continue
        if s.startswith(("module", "gpu.module", "gpu.func", "func.func", "}")):
            continue
        if s.endswith("{") and ("scf.for" not in s and "scf.if" not in s and "gpu.launch" not in s):
            continue
        out.append(i)
    return out


def block_end(lines, start):
    """Index of the line closing the region opened at the end of line `start`."""
    depth = 0
    for i in range(start, len(lines)):
        s = re.sub(r'"(?:[^"\\]|\\.)*"', "", lines[i].split("//")[0])
        depth += s.count("{") - s.count("}")
        if depth <= 0 and i > start:
            return i
    return len(lines) - 1


def direct_body(lines, start):
    """Lines of the region of `start` at nesting depth 1 (not in nested regions)."""
    end = block_end(lines, start)
    out, depth = [], 0
    for i in range(start, end + 1):
        s = re.sub(r'"(?:[^"\\]|\\.)*"', "", lines[i].split("//")[0])
        if depth == 1 and i > start:
            out.append(i)
        depth += s.count("{") - s.count("}")
    return out


def find_kloop(lines):
    """(line index, end index) of the K-loop, or None."""
    for i, l in enumerate(lines):
        if re.search(r"\bscf\.for\b", l) and l.rstrip().endswith("{"):
            if any("gpu.barrier" in lines[j] for j in direct_body(lines, i)):
                return i, block_end(lines, i)
    return None


KLOOP_RE = re.compile(r"(scf\.for\s+)(%[\w#]+)(\s*=\s*)(%[\w#]+)(\s+to\s+)(%[\w#]+)(\s+step\s+)(%[\w#]+)")


def defs_of(text):
    return set(re.findall(r"^\s*(%[\w]+)(?::\d+)?\s*=", text, re.M))



def _pick(rng, xs):
    return xs[rng.randrange(len(xs))] if xs else None
