#!/usr/bin/env python3
"""Partial-K kernels of examples/gen_gemm.py lower, unpipelined and pipelined.

For each (kind, K) below: generate the kernel (M = N = 256), check its global
reads (vector.transfer_read ... {in_bounds = [false]} when K % BK != 0, else
vector.load), then lower
  * the unpipelined kernel and pk-opt's --pipeline-kernel output for each
    variant (auto, cp-async, ldg-register, register-prefetch) with mlir-opt:
    sm_90 cubin (format=bin) and sm_86 PTX (format=isa), through
    integration/pkint.py's lowering pipeline (pk's, which has
    convert-vector-to-llvm and convert-arith-to-llvm after convert-gpu-to-nvvm:
    MLIR 22's convert-gpu-to-nvvm does not lower vector.transfer_read);
  * the same with pk-opt's own emit=cubin (sm_90) and emit=ptx (sm_86):
    expected to work for everything except a kernel that still holds a
    masked transfer_read (pk-emit-binaries has no transfer lowering; reported
    as a pk limitation), which the script records instead of failing on.
Usage: check_partial_k.py PK_OPT MLIR_OPT CUDA_PATH WORKDIR"""
import os
import re
import subprocess
import sys

pk_opt, mlir_opt, cuda, work = sys.argv[1:5]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "integration"))
import pkint  # noqa: E402  (the lowering pipeline: pkint.LOWERING_PIPELINE)

GEN = os.path.join(ROOT, "examples", "gen_gemm.py")
os.makedirs(work, exist_ok=True)
CASES = [("hgemm", 40), ("hgemm", 33), ("hgemm", 4000), ("igemm", 80), ("igemm", 65), ("sgemm", 12), ("sgemm", 10)]
VARIANTS = ["auto", "cp-async", "ldg-register", "register-prefetch"]
BK = {"hgemm": 32, "igemm": 64, "sgemm": 8}
fails = []
rows = []


def run(argv):
    return subprocess.run(argv, capture_output=True, text=True)


def lower(src, stem, kernel):
    ok = []
    for arch, fmt in (("sm_90", "bin"), ("sm_86", "isa")):
        binf = os.path.join(work, "%s.%s.%s" % (stem, arch, "cubin" if fmt == "bin" else "ptx"))
        try:
            pkint.mlir_lower(src, arch, fmt, binf, kernel, cuda=cuda, mlir=mlir_opt)
        except pkint.BuildError as ex:
            fails.append("%s %s: %s" % (stem, arch, str(ex)[:300]))
            continue
        if fmt == "isa":
            p = run([pkint.ptxas(cuda), "-arch=" + arch, "-O3", binf, "-o", os.devnull])
            if p.returncode:
                fails.append("%s ptxas %s: %s" % (stem, arch, p.stderr.strip()[:300]))
                continue
        ok.append(arch)
    return ok


for kind, K in CASES:
    src = os.path.join(work, "%s_k%d.mlir" % (kind, K))
    subprocess.check_call([sys.executable, GEN, "--kind", kind, "--M", "256", "--N", "256", "--K", str(K), "-o", src])
    text = open(src).read()
    kernel = re.search(r"gpu\.func @(\w+)", text).group(1)
    partial = K % BK[kind] != 0
    n_tr = text.count("vector.transfer_read")
    n_ld = len(re.findall(r"vector\.load %[AB]\[", text))
    if partial and (n_tr == 0 or n_ld):
        fails.append("%s: expected only transfer_reads from A/B (%d transfer_read, %d vector.load)" % (src, n_tr, n_ld))
    if not partial and n_tr:
        fails.append("%s: K %% BK == 0 must keep vector.load" % src)
    tiles = -(-K // BK[kind])
    if "scf.for %k = %c0 to %c{} step %c{} ".format(tiles * BK[kind], BK[kind]) not in text:
        fails.append("%s: K-loop is not 0 to %d step %d" % (src, tiles * BK[kind], BK[kind]))
    rows.append(("%s K=%d" % (kind, K), "unpipelined", "-", ",".join(lower(src, "%s_k%d_base" % (kind, K), kernel)), "-"))
    for v in VARIANTS:
        stem = "%s_k%d_%s" % (kind, K, v)
        out = os.path.join(work, stem + ".mlir")
        p = run([pk_opt, "--pipeline-kernel=arch=sm_90 variant=%s" % v, src, "-o", out])
        if p.returncode:
            fails.append("%s pk-opt: %s" % (stem, p.stderr.strip()[:300]))
            continue
        m = re.search(r"remark: (pipelined: variant [a-z-]+|not pipelined)", p.stderr)
        picked = m.group(1) if m else "?"
        masked = "vector.transfer_read" in open(out).read()
        lowered = lower(out, stem, kernel)
        # pk's own lowering
        emit = []
        for arch, e in (("sm_90", "cubin"), ("sm_86", "ptx")):
            od = os.path.join(work, stem + "." + arch)
            p = run([pk_opt, "--pipeline-kernel=arch=%s variant=%s emit=%s out-dir=%s bare-ptr=1" % (arch, v, e, od),
                     src, "-o", os.devnull])
            if p.returncode == 0:
                emit.append(arch)
            elif not masked:
                fails.append("%s pk-opt emit=%s %s: %s" % (stem, e, arch, p.stderr.strip()[:300]))
            elif "unrealized_conversion_cast" not in p.stderr:
                fails.append("%s pk-opt emit=%s %s: unexpected: %s" % (stem, e, arch, p.stderr.strip()[:300]))
        rows.append(("%s K=%d" % (kind, K), v, picked + (" (masked reads)" if masked else ""),
                     ",".join(lowered), ",".join(emit) or "fails (masked transfer_read)"))

print("| kernel (256x256xK) | variant | pk-opt | mlir-opt lowering (cubin sm_90, PTX sm_86) | pk-opt emit |")
print("|---|---|---|---|---|")
for r in rows:
    print("| %s |" % " | ".join(r))
for r in rows:
    if r[3] != "sm_90,sm_86":
        fails.append("not lowered for both arches: %s" % (r,))
if fails:
    print("\n".join("FAIL: " + f for f in fails))
    sys.exit(1)
print("check_partial_k: OK")
