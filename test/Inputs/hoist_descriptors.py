#!/usr/bin/env python3
"""Moves the nvgpu.warpgroup.generate.descriptor lines of a generated wgmma
kernel (examples/gen_gemm.py --mma wgmma) in front of its K-loop, as
loop-invariant code motion would: a mutant for test/pk-analyze-kloops.mlir."""
import sys

lines = open(sys.argv[1]).read().splitlines()
desc = [l for l in lines if "nvgpu.warpgroup.generate.descriptor" in l]
out = []
for l in lines:
    if l in desc:
        continue
    if "= scf.for %k" in l:
        out.extend(d.replace("        ", "      ", 1) for d in desc)
    out.append(l)
assert desc and len(out) == len(lines)
print("\n".join(out))
