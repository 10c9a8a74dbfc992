#!/usr/bin/env python3
"""The kernel-class sweep (issue 24): kernels of the classes users bring to a
pipelining pass, each generated at a benchmark size and at a small size,
built by diffrun (integration/kernels/diffrun.py) unpipelined, per fixed
variant and with `stages=auto`, each with a torch reference.

    # dev machine: generate and build (pk-opt, ptxas)
    python3 integration/kernels/sweep.py build -o DIR [--only REGEX] [--list]
    # GPU machine: timing + torch check at the benchmark size, sanitizers
    # at the small size
    python3 DIR/perf/diffrun.py run DIR/perf
    compute-sanitizer --tool memcheck python3 DIR/small/diffrun.py run DIR/small --sanitize
    # either machine: the sweep's table from diffrun's results.json
    python3 integration/kernels/sweep.py table RESULTS.json [--check OTHER.json ...]

Each kernel is a generator command (examples/gen_*.py, or a kernel file
under integration/kernels/sweep/) and the `diffrun-reference` statements
that state its semantics in torch; the statements are prepended to the
generated file, so diffrun carries them to the GPU. The fixed variants are
VARIANTS; `auto` is `stages=auto` (the candidate search).
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
EX = os.path.join(ROOT, "examples")

VARIANTS = ["cp-async=variant=cp-async", "s3=variant=cp-async stages=3",
            "s4=variant=cp-async stages=4", "ldg-register=variant=ldg-register",
            "register-prefetch=variant=register-prefetch", "auto=stages=auto"]

NO_TF32 = "torch.backends.cuda.matmul.allow_tf32 = False"
GEMM_TN = [NO_TF32, "C = A.float() @ B.float().T"]
BATCHED = [NO_TF32, "C = torch.bmm(A.float(), B.float().transpose(1, 2))"]
SPLIT_K = [NO_TF32, "KS = A.shape[1] // C.shape[0]",
           "C = torch.stack([A[:, s * KS:(s + 1) * KS].float() @ B[:, s * KS:(s + 1) * KS].float().T"
           " for s in range(C.shape[0])])"]
# --dynamic-k: the loop covers k_ub = min(max(Kn, 0), K) rounded down to BK.
DYN_K = [NO_TF32, "k = min(max(int(Kn[0]), 0), A.shape[1]) // {bk} * {bk}",
         "C = A[:, :k].float() @ B[:, :k].float().T"]
W4 = [NO_TF32, "C = A.float() @ unpack_int4(B).float().T"]
CONV = ["torch.backends.cudnn.allow_tf32 = False",
        "w = B.float().reshape(B.shape[0], {f}, {f}, -1).permute(0, 3, 1, 2)",
        "C = F.conv2d(A.float().permute(0, 3, 1, 2), w, padding={p})"
        ".permute(0, 2, 3, 1).reshape(-1, B.shape[0])"]
STENCIL = ["p = F.pad(in_, (0, 0, 1, 1))",
           "out = ((p[:-2] + p[1:-1]) + p[2:]) * torch.tensor(0.333333343, dtype=torch.float32)"]
ATTENTION = ["O = F.scaled_dot_product_attention(Q.float(), K.float(), V.float(), is_causal={causal})"]


def gemm(kind, m, n, k, *extra):
    return [sys.executable, os.path.join(EX, "gen_gemm.py"), "--kind", kind, "--M", str(m),
            "--N", str(n), "--K", str(k)] + list(extra)


def attention(bh, s, d, *extra):
    return [sys.executable, os.path.join(EX, "gen_attention.py"), "--BH", str(bh), "--S", str(s),
            "--D", str(d)] + list(extra)


def gemv(m, k):
    return [sys.executable, os.path.join(EX, "gen_gemv.py"), "--M", str(m), "--K", str(k)]


# name: (benchmark-size command, small-size command, reference, tolerance
#        [, benchmark-size inputs, small-size inputs])
KERNELS = {
    "hgemm": (gemm("hgemm", 4096, 4096, 4096), gemm("hgemm", 256, 256, 256), GEMM_TN, None),
    "bf16_gemm": (gemm("bgemm", 4096, 4096, 4096), gemm("bgemm", 256, 256, 256), GEMM_TN, None),
    "igemm_i8": (gemm("igemm", 4096, 4096, 4096), gemm("igemm", 256, 256, 256), GEMM_TN, "atol=0 rtol=0"),
    "sgemm": (gemm("sgemm", 2048, 2048, 2048), gemm("sgemm", 256, 256, 256), GEMM_TN, "atol=1e-3 rtol=1e-4"),
    "batched_16x1024": (gemm("hgemm", 1024, 1024, 1024, "--batch", "16"),
                        gemm("hgemm", 128, 128, 128, "--batch", "2"), BATCHED, None),
    "split_k8_1024x16384": (gemm("hgemm", 1024, 1024, 16384, "--split-k", "8"),
                            gemm("hgemm", 128, 128, 512, "--split-k", "4"), SPLIT_K, None),
    "split_k8_bounds": (gemm("hgemm", 1024, 1024, 16384, "--split-k", "8", "--split-k-loop", "bounds"),
                        gemm("hgemm", 128, 128, 512, "--split-k", "4", "--split-k-loop", "bounds"),
                        SPLIT_K, None),
    "dynamic_k_4096": (gemm("hgemm", 4096, 4096, 4096, "--dynamic-k"), gemm("hgemm", 256, 256, 256, "--dynamic-k"),
                       [s.format(bk=32) for s in DYN_K], None, {"Kn": 4000}, {"Kn": 200}),
    "w8a16_llm_m128": (gemm("hgemm", 128, 8192, 8192, "--b-int8", "--BM", "64"),
                       gemm("hgemm", 64, 256, 256, "--b-int8", "--BM", "64"), GEMM_TN, None),
    "w8a16_4096": (gemm("hgemm", 4096, 4096, 4096, "--b-int8"), gemm("hgemm", 256, 256, 256, "--b-int8"),
                   GEMM_TN, None),
    "w4a16_4096": (gemm("hgemm", 4096, 4096, 4096, "--b-int4"), gemm("hgemm", 256, 256, 256, "--b-int4"),
                   W4, None),
    "conv3x3_56x56x128": (gemm("hgemm", 8 * 56 * 56, 128, 9 * 128, "--conv", "56", "56"),
                          gemm("hgemm", 2 * 8 * 8, 128, 9 * 64, "--conv", "8", "8"),
                          [s.format(f=3, p=1) for s in CONV], None),
    "conv1x1_56x56x256": (gemm("hgemm", 8 * 56 * 56, 256, 256, "--conv", "56", "56", "--filter", "1"),
                          gemm("hgemm", 2 * 8 * 8, 128, 64, "--conv", "8", "8", "--filter", "1"),
                          [s.format(f=1, p=0) for s in CONV], None),
    "fa2_d64": (attention(16, 4096, 64), attention(2, 256, 64),
                [s.format(causal=False) for s in ATTENTION], "atol=2e-2 rtol=2e-2"),
    "fa2_d128": (attention(16, 4096, 128), attention(2, 256, 128),
                 [s.format(causal=False) for s in ATTENTION], "atol=2e-2 rtol=2e-2"),
    "fa2_d64_causal": (attention(16, 4096, 64, "--causal"), attention(2, 256, 64, "--causal"),
                       [s.format(causal=True) for s in ATTENTION], "atol=2e-2 rtol=2e-2"),
    "fa2_d128_causal": (attention(16, 4096, 128, "--causal"), attention(2, 256, 128, "--causal"),
                        [s.format(causal=True) for s in ATTENTION], "atol=2e-2 rtol=2e-2"),
    "gemv_4096x16384": (gemv(4096, 16384), gemv(64, 4096), ["y = A.float() @ x.float()"], "atol=1e-2 rtol=1e-3"),
    "stencil3_8192x4096": (os.path.join(HERE, "sweep", "stencil3_8192x4096.mlir"),
                           os.path.join(HERE, "sweep", "stencil3_256x128.mlir"), STENCIL, "atol=0 rtol=0"),
}


def generate(name, cmd, reference, tolerance, fill, path):
    """The kernel file at `path`: the generator's output (or the bundled
    file) with the reference, tolerance and input lines prepended."""
    if isinstance(cmd, str):
        text = open(cmd).read()
    else:
        r = subprocess.run(cmd + ["-o", path], capture_output=True, text=True)
        if r.returncode:
            raise SystemExit("sweep: %s: %s failed:\n%s" % (name, " ".join(cmd), r.stderr))
        text = open(path).read()
    head = ["// diffrun-reference: " + s for s in reference]
    if tolerance:
        head.append("// diffrun-tolerance: " + tolerance)
    head += ["// diffrun-input: %s = %d" % kv for kv in sorted((fill or {}).items())]
    with open(path, "w") as f:
        f.write("// sweep kernel %s\n" % name + "\n".join(head) + "\n" + text)


def build(a):
    names = [n for n in KERNELS if re.search(a.only or "", n)]
    if a.list:
        print("\n".join(names))
        return 0
    if not a.out:
        raise SystemExit("sweep.py build: -o/--out is required")
    rc = 0
    for size, idx in (("perf", 0), ("small", 1)):
        kdir = os.path.join(a.out, "kernels", size)
        os.makedirs(kdir, exist_ok=True)
        files = []
        for n in names:
            cmd, small, ref, tol, *fills = KERNELS[n]
            path = os.path.join(kdir, n + ".mlir")
            generate(n, (cmd, small)[idx], ref, tol, fills[idx] if fills else None, path)
            files.append(path)
        args = [sys.executable, os.path.join(HERE, "diffrun.py"), "build"] + files + [
            "-o", os.path.join(a.out, size), "--arch", a.arch]
        for v in VARIANTS:
            args += ["--variant", v]
        print("== %s: %s" % (size, " ".join(os.path.basename(f) for f in files)), flush=True)
        rc |= subprocess.run(args).returncode
    return rc


def table(a):
    """One row per kernel: each variant's time as a speedup over the
    unpipelined kernel, `auto` against the best fixed variant, registers
    (unpipelined -> auto) and the checks of every results file given (the
    benchmark-size run and, with --check, others such as the small size)."""
    import json
    runs = [json.load(open(path)) for path in [a.results] + (a.check or [])]
    rows = runs[0]["rows"]
    variants = [v.split("=", 1)[0] for v in VARIANTS]
    fixed = [v for v in variants if v != "auto"]
    out = ["device: %s" % runs[0]["device"], "",
           "| kernel | unpipelined ms | " + " | ".join(variants) + " | best fixed | auto vs best | regs | checks |",
           "|---|---:|" + "---:|" * len(variants) + "---|---:|---|---|"]
    summary = {"kernels": 0, "auto_never_slower": 0, "auto_within_3pct": 0}
    for kernel in dict.fromkeys(r["kernel"] for r in rows):
        mine = {r["variant"]: r for r in rows if r["kernel"] == kernel}
        base, auto = mine.get("base"), mine.get("auto")
        if not base or not auto:
            continue
        cells = ["%.2fx" % (base["ms"] / mine[v]["ms"]) if v in mine else "declined" for v in variants]
        best = min((mine[v] for v in fixed if v in mine), key=lambda r: r["ms"])
        ratio = best["ms"] / auto["ms"]
        summary["kernels"] += 1
        summary["auto_never_slower"] += auto["ms"] <= base["ms"]
        summary["auto_within_3pct"] += ratio >= 0.97
        checks = []
        for run in runs:
            theirs = [r for r in run["rows"] if r["kernel"] == kernel and r["variant"] != "base"]
            exact = sum(r["check"] == "bit-exact" for r in theirs)
            torch_ok = sum(r.get("torch", "").startswith("ok") for r in theirs + [
                r for r in run["rows"] if r["kernel"] == kernel and r["variant"] == "base"])
            checks.append("%d/%d bit-exact, torch %d/%d" % (exact, len(theirs), torch_ok, len(theirs) + 1))
        out.append("| %s | %.4f | %s | %s | %.3f | %d -> %d | %s |" % (
            kernel, base["ms"], " | ".join(cells), best["variant"], ratio, base["regs"], auto["regs"],
            "; ".join(checks)))
    out += ["", "%(kernels)d kernels: auto never slower than unpipelined on %(auto_never_slower)d, "
            "within 3%% of the best fixed variant on %(auto_within_3pct)d." % summary]
    print("\n".join(out))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("-o", "--out", help="the build folder (required unless --list)")
    b.add_argument("--arch", default="sm_90")
    b.add_argument("--only")
    b.add_argument("--list", action="store_true")
    t = sub.add_parser("table")
    t.add_argument("results")
    t.add_argument("--check", action="append", help="more results.json whose checks to count")
    a = ap.parse_args()
    return build(a) if a.cmd == "build" else table(a)


if __name__ == "__main__":
    sys.exit(main() or 0)
