#!/usr/bin/env python3
"""examples/gen_gemm.py refuses what it cannot generate with one message, not
a Python traceback; a bf16 kernel with a partial K parses (its zero pad is a
float constant). Usage: check_usage.py ROOT MLIR_OPT OUTDIR"""
import os
import subprocess
import sys

root, mlir_opt, out = sys.argv[1:4]
gen = os.path.join(root, "examples", "gen_gemm.py")
os.makedirs(out, exist_ok=True)

p = subprocess.run([sys.executable, gen, "--kind", "hgemm", "--mma", "wgmma", "--K", "4000",
                    "-o", os.devnull], capture_output=True, text=True)
assert p.returncode != 0, p
assert "Traceback" not in p.stderr, p.stderr
assert p.stderr.strip() == "gen_gemm.py: error: wgmma kernels need whole tiles", p.stderr

kernel = os.path.join(out, "bgemm_k4001.mlir")
subprocess.run([sys.executable, gen, "--kind", "bgemm", "--K", "4001", "-o", kernel], check=True)
assert "arith.constant 0.0 : bf16" in open(kernel).read()
subprocess.run([mlir_opt, kernel, "-o", os.devnull], check=True)
print("check_usage: ok")
