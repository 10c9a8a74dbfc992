#!/usr/bin/env python3
"""integration/kernels/diffrun.py build: a kernel built unpipelined and per
variant with pk's remark, a kernel it cannot run skipped with why (exit 1),
a self-contained folder (its run side is checked on the GPU machine:
integration/results/2026-12-06-h100-diffrun-guarded-masked).
Usage: check_diffrun.py ROOT INPUTS OUTDIR"""
import json
import os
import subprocess
import sys

root, inputs, out = sys.argv[1:4]
tool = os.path.join(root, "integration", "kernels", "diffrun.py")
d = os.path.join(out, "d")
p = subprocess.run([sys.executable, tool, "build", os.path.join(inputs, "guarded_rows.mlir"),
                    os.path.join(inputs, "no_block.mlir"), "-o", d,
                    "--variant", "cp=variant=cp-async", "--variant", "ldg=variant=ldg-register"],
                   capture_output=True, text=True)
assert p.returncode == 1, p
assert "Traceback" not in p.stderr, p.stderr
assert "no_block.mlir: skipped: diffrun: no_block: no known_block_size" in p.stderr, p.stderr
m = json.load(open(os.path.join(d, "manifest.json")))
ids = [e["id"] for e in m["entries"]]
assert ids == ["guarded_rows.base", "guarded_rows.cp", "guarded_rows.ldg"], ids
assert [os.path.basename(s) for s in m["skipped"]] == ["no_block.mlir"], m["skipped"]
for e in m["entries"]:
    assert e["status"] == "built" and os.path.exists(os.path.join(d, e["cubin"])), e
    assert e["block"] == [256, 1, 1] and e["grid"] == [1, 1, 1], e
    assert e["args"] == [{"shape": [64, 32], "type": "f16", "name": "A"},
                         {"shape": [64], "type": "f32", "name": "out"}], e
    assert e["reference"] == [] and e["tolerance"] == {"atol": 1e-2, "rtol": 1e-2}, e
    assert e["fill"] == {}, e
cp = m["entries"][1]
assert cp["remark"].startswith("pipelined: variant cp-async, 2 shared buffer(s)"), cp["remark"]
assert m["entries"][2]["remark"].startswith("pipelined: variant ldg-register"), m["entries"][2]
assert os.path.exists(os.path.join(d, "diffrun.py"))

# A kernel's torch reference travels in the manifest (checked on the GPU).
src = os.path.join(out, "with_ref.mlir")
with open(src, "w") as f:
    f.write("// diffrun-reference: out = (A.float() ** 2).sum(1)\n"
            "// diffrun-reference: out = out * 1\n// diffrun-tolerance: atol=0 rtol=1e-3\n"
            "// diffrun-input: out = -3\n")
    f.write(open(os.path.join(inputs, "guarded_rows.mlir")).read())
d2 = os.path.join(out, "d2")
p = subprocess.run([sys.executable, tool, "build", src, "-o", d2, "--variant", "cp=variant=cp-async"],
                   capture_output=True, text=True)
assert p.returncode == 0, p
e = json.load(open(os.path.join(d2, "manifest.json")))["entries"][0]
assert e["reference"] == ["out = (A.float() ** 2).sum(1)", "out = out * 1"], e["reference"]
assert e["tolerance"] == {"atol": 0.0, "rtol": 1e-3}, e["tolerance"]
assert e["fill"] == {"out": -3}, e["fill"]
print("check_diffrun: ok")
