#!/usr/bin/env python3
"""Moves the nvgpu.warpgroup.generate.descriptor lines of a generated wgmma
kernel (examples/gen_gemm.py --mma wgmma) in front of its K-loop, as
loop-invariant code motion would: a mutant for test/e2e/pk-analyze-kloops.test.

    hoist_descriptors.py KERNEL [MARKER ...]

With markers, the lines holding any of them move instead (e.g.
"%sAw = memref.subview": the per-warpgroup view of sA of the two-warpgroup
kernel, test/e2e/pk-pipeline-kloops.test)."""
import sys

lines = open(sys.argv[1]).read().splitlines()
markers = sys.argv[2:] or ["nvgpu.warpgroup.generate.descriptor"]
desc = [l for l in lines if any(m in l for m in markers)]
out = []
for l in lines:
    if l in desc:
        continue
    if "= scf.for %k" in l:
        out.extend(d.replace("        ", "      ", 1) for d in desc)
    out.append(l)
assert desc and len(out) == len(lines)
print("\n".join(out))
