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

p = subprocess.run([sys.executable, gen, "--kind", "hgemm", "--M", "2048", "--N", "128", "--K", "576",
                    "--conv", "6", "6", "-o", os.devnull], capture_output=True, text=True)
assert p.returncode != 0 and "Traceback" not in p.stderr, p
assert "--conv H W: K = 9*C with C a multiple of 8" in p.stderr, p.stderr
conv = os.path.join(out, "conv.mlir")
subprocess.run([sys.executable, gen, "--kind", "hgemm", "--M", "2048", "--N", "128", "--K", "576",
                "--conv", "8", "8", "-o", conv], check=True)
text = open(conv).read()
assert "memref<32x8x8x64xf16>" in text and "vector.create_mask" in text, text[:400]
subprocess.run([mlir_opt, conv, "-o", os.devnull], check=True)

kernel = os.path.join(out, "bgemm_k4001.mlir")
subprocess.run([sys.executable, gen, "--kind", "bgemm", "--K", "4001", "-o", kernel], check=True)
assert "arith.constant 0.0 : bf16" in open(kernel).read()
subprocess.run([mlir_opt, kernel, "-o", os.devnull], check=True)
print("check_usage: ok")
