#!/usr/bin/env python3
"""examples/gen_attention.py: the FlashAttention-2 forward kernels lower, pk
pipelines them, and they compute attention (no GPU needed).

For D in {64, 128}, causal or not, BM in {64, 128} (BN 64):
  1. the generated kernel (BH 16, S 4096) through pk-opt --pk-emit-binaries
     (sm_90, emit=cubin): PTX with the two tiles in .shared (BN*D*2 bytes
     each), no malloc, no __local_depot, ldmatrix (.trans for V),
     ex2.approx, shfl.sync, BN*D/64 mma.sync per warp in the loop; ptxas
     assembles it without spills;
  2. pk-opt --pipeline-kernel (sm_90) with variant=cp-async,
     variant=cp-async stages=3 and stages=auto: `remark: pipelined: variant
     cp-async, N shared buffer(s)` (N = 2, 3, any) and, with emit=cubin,
     ptxas assembles each;
  3. the kernel at BH 2, S 256 and its cp-async (2 and 3 stages)
     pipelined forms, run by simt.py (every block of bh = 1, in lockstep,
     with its shared-memory race detector) against a float64 reference of
     softmax(Q K^T / sqrt(D)) V (causal: key j <= query i); the largest
     error must stay below 4e-3 (f16 P and O), and no race.
Negative controls (the checks can fail): the simulator must see a wrong
result when V is read without .trans and a race when the trailing barrier
is gone; the generator must refuse --causal with BN > BM and --D 96.
Usage: check_attention.py PK_OPT CUDA_PATH WORKDIR"""
import math
import os
import random
import re
import subprocess
import sys
import time

pk_opt, cuda, work = sys.argv[1:4]
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, HERE)
import simt  # noqa: E402

GEN = os.path.join(ROOT, "examples", "gen_attention.py")
os.makedirs(work, exist_ok=True)
env = dict(os.environ, CUDA_HOME=cuda)
fails = []
rows = []


def run(argv):
    return subprocess.run(argv, capture_output=True, text=True, env=env)


def gen(path, *args):
    p = run([sys.executable, GEN] + list(args) + ["-o", path])
    if p.returncode:
        fails.append("gen_attention.py %s: %s" % (" ".join(args), p.stderr.strip()))
        return None
    return open(path).read()


def ptxas_remark(stderr):
    m = re.search(r"ptxas \(sm_90\): (\d+) registers, (\d+) bytes spill stores, (\d+) bytes spill loads", stderr)
    return (int(m.group(1)), int(m.group(2)) + int(m.group(3))) if m else None


CONFIGS = [(D, causal, BM) for D in (64, 128) for causal in (False, True) for BM in (64, 128)]
OPTIONS = [("variant=cp-async", 2), ("variant=cp-async stages=3", 3), ("stages=auto", None)]

# ---------------------------------------------------------------- 1, 2
for D, causal, BM in CONFIGS:
    tag = "d%d%s_bm%d" % (D, "_causal" if causal else "", BM)
    src = os.path.join(work, tag + ".mlir")
    text = gen(src, "--D", str(D), "--BM", str(BM), *(["--causal"] if causal else []))
    if text is None:
        continue
    name = re.search(r"gpu\.module @(\w+)", text).group(1)
    if "loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>" not in text:
        fails.append("%s: the K/V loop has no unroll-disable annotation" % tag)
    out = os.path.join(work, tag + ".base")
    p = run([pk_opt, "--pk-emit-binaries=arch=sm_90 emit=cubin bare-ptr=1 out-dir=%s" % out, src, "-o", os.devnull])
    regs = ptxas_remark(p.stderr)
    ptx_path = os.path.join(out, name + ".sm_90.ptx")
    if p.returncode or regs is None or not os.path.exists(ptx_path):
        fails.append("%s unpipelined: pk-emit-binaries failed: %s" % (tag, p.stderr.strip()[-400:]))
        continue
    ptx = open(ptx_path).read()
    tile = 64 * D * 2
    checks = {
        "two .shared tiles of %d bytes" % tile: len(re.findall(r"\.shared \.align 16 \.b8 \w+\[%d\];" % tile, ptx)) == 2,
        "no malloc": "malloc" not in ptx,
        "no __local_depot": "__local_depot" not in ptx,
        "ldmatrix x4": "ldmatrix.sync.aligned.m8n8.x4.shared.b16" in ptx,
        "ldmatrix x4 .trans": "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16" in ptx,
        "ex2.approx": "ex2.approx" in ptx,
        "shfl.sync.bfly": "shfl.sync.bfly" in ptx,
        "%d mma.sync" % (64 * D // 64): ptx.count("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")
        == 64 * D // 64,
        "ld.global.nc.v4": "ld.global.nc.v4" in ptx,
        "2 bar.sync": ptx.count("bar.sync") == 2,
        "no spills": regs[1] == 0,
    }
    for what, ok in checks.items():
        if not ok:
            fails.append("%s unpipelined PTX: expected %s" % (tag, what))
    row = [tag, "%d regs, %d B spilled" % regs]
    for opt, stages in OPTIONS:
        o = os.path.join(work, "%s.%s" % (tag, opt.replace(" ", "_").replace("=", "-")))
        p = run([pk_opt, "--pipeline-kernel=arch=sm_90 %s emit=cubin bare-ptr=1 out-dir=%s" % (opt, o), src,
                 "-o", o + ".mlir"])
        m = re.search(r"remark: pipelined: variant cp-async, (\d+) shared buffer\(s\)", p.stderr)
        r = ptxas_remark(p.stderr)
        if p.returncode or not m or r is None:
            why = re.search(r"remark: not pipelined[^\n]*", p.stderr)
            fails.append("%s %s: not pipelined as cp-async (rc %d): %s" % (
                tag, opt, p.returncode, why.group(0)[:300] if why else p.stderr.strip()[-300:]))
            row.append("-")
            continue
        if stages and int(m.group(1)) != stages:
            fails.append("%s %s: %s stages" % (tag, opt, m.group(1)))
        mlir = open(o + ".mlir").read()
        if "nvgpu.device_async_copy" not in mlir or "pk.pipelined" not in mlir:
            fails.append("%s %s: no cp.async pipelined loop in the output" % (tag, opt))
        row.append("x%s: %d regs, %d B spilled" % (m.group(1), r[0], r[1]))
    rows.append(row)

print("| kernel (BH 16, S 4096, BN 64) | unpipelined | cp-async | cp-async stages=3 | stages=auto |")
print("|---|---|---|---|---|")
for r in rows:
    print("| %s |" % " | ".join(r))

# ------------------------------------------------------------------ 3
BH, S = 2, 256


def data(D):
    rnd = random.Random(D)
    n = BH * S * D
    return [[simt.f16(rnd.gauss(0.0, 1.0)) for _ in range(n)] for _ in range(3)]


def reference(Q, K, V, D, causal, rows_):
    """float64 attention of bh = 1 for the query rows rows_ -> {(i, d): o}."""
    base = S * D
    ref = {}
    for i in rows_:
        q = Q[base + i * D:base + (i + 1) * D]
        n = i + 1 if causal else S
        s = [sum(x * y for x, y in zip(q, K[base + j * D:base + (j + 1) * D])) / math.sqrt(D) for j in range(n)]
        mx = max(s)
        p = [math.exp(x - mx) for x in s]
        l = sum(p)
        for d in range(D):
            ref[(i, d)] = sum(pj * V[base + j * D + d] for j, pj in enumerate(p)) / l
    return ref


def simulate(text, D, BM, causal, ref, QKV):
    """Runs every block of bh = 1; returns (max error, races)."""
    Q, K, V = QKV
    O = [float("nan")] * (BH * S * D)
    races = []
    for bx in range(S // BM):
        b = simt.Block(text, [Q, K, V, O], (bx, 1, 0))
        b.run()
        races += b.races
    err = 0.0
    for (i, d), r in ref.items():
        got = O[S * D + i * D + d]
        err = max(err, abs(got - r) if not math.isnan(got) else math.inf)
    return err, races


sim_rows = []
refs = {}
for D, causal, BM in CONFIGS:
    tag = "sim_d%d%s_bm%d" % (D, "_causal" if causal else "", BM)
    src = os.path.join(work, tag + ".mlir")
    text = gen(src, "--BH", str(BH), "--S", str(S), "--D", str(D), "--BM", str(BM),
               *(["--causal"] if causal else []))
    if text is None:
        continue
    QKV = data(D)
    key = (D, causal)
    if key not in refs:
        refs[key] = reference(*QKV, D, causal, range(S))
    kernels = [("unpipelined", text)]
    for opt in ("variant=cp-async", "variant=cp-async stages=3"):
        out = os.path.join(work, "%s.%s.mlir" % (tag, opt.replace(" ", "_").replace("=", "-")))
        p = run([pk_opt, "--pipeline-kernel=arch=sm_90 " + opt, src, "-o", out])
        if p.returncode or "remark: pipelined: variant cp-async" not in p.stderr:
            fails.append("%s %s: not pipelined: %s" % (tag, opt, p.stderr.strip()[-300:]))
            continue
        kernels.append((opt, open(out).read()))
    for what, k in kernels:
        t0 = time.time()
        try:
            err, races = simulate(k, D, BM, causal, refs[key], QKV)
        except simt.SimError as ex:
            fails.append("%s %s: simulation failed: %s" % (tag, what, ex))
            continue
        sim_rows.append((tag, what, "%.2e" % err, len(races), "%.1f s" % (time.time() - t0)))
        if not err < 4e-3:
            fails.append("%s %s: max error %.3g" % (tag, what, err))
        if races:
            fails.append("%s %s: races: %s" % (tag, what, "; ".join(races[:3])))

print("\n| simulated (BH 2, S 256, bh = 1) | kernel | max abs error | races | time |")
print("|---|---|---|---|---|")
for r in sim_rows:
    print("| %s | %s | %s | %d | %s |" % r)

# ------------------------------------------------------- negative controls
text = open(os.path.join(work, "sim_d64_bm64.mlir")).read()
ref, QKV = refs[(64, False)], data(64)
err, _ = simulate(text.replace("transpose = true", "transpose = false"), 64, 64, False, ref, QKV)
if not err > 1e-2:
    fails.append("negative control: V read without .trans still matches (error %.3g)" % err)
lines = text.splitlines()
last_barrier = max(i for i, l in enumerate(lines) if l.strip() == "gpu.barrier")
_, races = simulate("\n".join(lines[:last_barrier] + lines[last_barrier + 1:]), 64, 64, False, ref, QKV)
if not races:
    fails.append("negative control: no race reported without the trailing barrier")
for args, msg in ((["--causal", "--BM", "64", "--BN", "128"], "BM must be a multiple of BN"),
                  (["--D", "96"], "invalid choice")):
    p = run([sys.executable, GEN] + args)
    if p.returncode == 0 or msg not in p.stderr or "Traceback" in p.stderr:
        fails.append("gen_attention.py %s: expected the error '%s', got: %s" % (" ".join(args), msg, p.stderr))

if fails:
    print("\n".join("FAIL: " + f for f in fails))
    sys.exit(1)
print("check_attention: OK")
