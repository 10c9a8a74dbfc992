#!/usr/bin/env python3
"""integration/kernels/sweep.py: `build` generates each kernel with its torch
reference prepended and builds it with diffrun (checked on the GEMV only, to
stay fast); `table` turns diffrun results into the sweep's table and counts
`auto` against the unpipelined kernel and the best fixed variant.
Usage: check_sweep.py ROOT OUTDIR"""
import json
import os
import subprocess
import sys

root, out = sys.argv[1:3]
tool = os.path.join(root, "integration", "kernels", "sweep.py")
p = subprocess.run([sys.executable, tool, "build", "--list"], capture_output=True, text=True)
names = p.stdout.split()
assert p.returncode == 0 and len(names) >= 15, p
for want in ("fa2_d64", "fa2_d64_causal", "conv3x3_56x56x128", "conv1x1_56x56x256", "w4a16_4096",
             "w8a16_4096", "bf16_gemm", "batched_16x1024", "split_k8_1024x16384", "dynamic_k_4096",
             "gemv_4096x16384", "stencil3_8192x4096"):
    assert want in names, (want, names)

d = os.path.join(out, "sw")
p = subprocess.run([sys.executable, tool, "build", "--only", "^gemv", "-o", d], capture_output=True, text=True)
assert p.returncode == 0, p.stdout + p.stderr
for size in ("perf", "small"):
    text = open(os.path.join(d, "kernels", size, "gemv_4096x16384.mlir")).read()
    assert text.startswith("// sweep kernel gemv_4096x16384\n// diffrun-reference: y = A.float() @ x.float()\n"
                           "// diffrun-tolerance: atol=1e-2 rtol=1e-3\n"), text[:300]
    m = json.load(open(os.path.join(d, size, "manifest.json")))
    variants = [e["variant"] for e in m["entries"]]
    assert variants == ["base", "cp-async", "s3", "s4", "ldg-register", "register-prefetch", "auto"], variants
    assert all(e["status"] == "built" for e in m["entries"]), m["entries"]
    assert m["entries"][0]["reference"] == ["y = A.float() @ x.float()"], m["entries"][0]

# table: kernel k1 (auto as fast as the best), k2 (auto 5% behind s3, and
# slower than unpipelined)
rows = []
for kernel, times in (("k1", {"base": 2.0, "cp-async": 1.5, "s3": 1.2, "auto": 1.2}),
                      ("k2", {"base": 1.0, "cp-async": 1.5, "s3": 1.0, "auto": 1.05})):
    for v, ms in times.items():
        rows.append({"kernel": kernel, "variant": v, "ms": ms, "regs": 100,
                     "check": "reference" if v == "base" else "bit-exact", "torch": "ok (max err 0)"})
res = os.path.join(out, "results.json")
json.dump({"device": "fake", "rows": rows}, open(res, "w"))
p = subprocess.run([sys.executable, tool, "table", res], capture_output=True, text=True)
assert p.returncode == 0, p
lines = p.stdout.splitlines()
k1 = next(l for l in lines if l.startswith("| k1 |"))
k2 = next(l for l in lines if l.startswith("| k2 |"))
assert "| 1.33x | 1.67x | declined |" in k1 and "| s3 | 1.000 |" in k1, k1
assert "| 0.67x | 1.00x | declined |" in k2 and "| s3 | 0.952 |" in k2, k2
assert "3/3 bit-exact, torch 4/4" in k1, k1
assert lines[-1] == ("2 kernels: auto never slower than unpipelined on 1, within 3% of the best fixed "
                     "variant on 1."), lines[-1]
print("check_sweep: ok")
