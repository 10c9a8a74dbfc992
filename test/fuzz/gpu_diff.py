#!/usr/bin/env python3
"""The GPU differential run of pk's fuzzing harness (test/fuzz/README.md).

  build (dev machine: pk-opt, mlir-opt-22, the CUDA toolkit, no GPU)
      gpu_diff.py build OUT [--kernels 24] [--seed 12]
    Random kernels from examples/gen_gemm.py (kind, tiles, threads, K not a
    multiple of BK, 1-9 K tiles), with --mutate each rewritten by one
    structural mutation of mutate.py that keeps its meaning (MUTANT_OPS:
    integer address space 3, barrier-first rotation, reshaped shared reads,
    allocs and deallocs, an outer loop, an scf.if every thread passes), each
    unpipelined ("base", pk's emission
    without pipelining) and pipelined with every variant and cp.async stage
    count 2-4; sm_86 PTX (pk-opt, then pkint's mlir-opt lowering: the
    driver JIT-compiles it) and sm_90 cubins (pk's own emission). Writes an
    artefact directory in pkint's format (integration/pkint.py,
    pk-artifacts/1; each entry's "base" names its unpipelined twin), a
    prebuilt pk-runner, and OUT.tar.gz of it all.

  run (GPU machine: python3 + the CUDA driver + compute-sanitizer)
      gpu_diff.py run ART --out OUT [--parallel 8] [--budget-s 320]
    Every entry once with pk-runner (same seed, C dumped), each pipelined C
    compared with its base: bit-exact required for igemm (i32), within the
    runner's tolerance for f32 C (the exact count is reported too); the
    runner's own check against the CPU reference as well. Then
    compute-sanitizer memcheck / racecheck / synccheck on one pipelined entry
    per (variant, stages, arch) until the budget ends. Writes
    OUT/diff.jsonl, OUT/san/*.status (pkint) and OUT/summary.md; exit 1 on
    a mismatch, a runner failure or a sanitizer finding.
"""

import argparse
import concurrent.futures
import json
import os
import random
import struct
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "integration"))
import pkint  # noqa: E402
import mutate_structural  # noqa: E402

# `build --mutate`: the structural operators of mutate.py that keep a GEMM's
# meaning (a mutation must leave C as the runner's CPU reference computes
# it), less the descriptions that do not (a dealloc inside the K-loop, an
# outer loop chaining the accumulators, a thread- or block-dependent guard).
MUTANT_OPS = [mutate_structural.int_addr_space_3, mutate_structural.rotate_kloop,
              mutate_structural.reshape_shared_read,
              mutate_structural.attribution_to_alloc, mutate_structural.alloc_in_loop,
              mutate_structural.drop_dealloc,
              mutate_structural.kernel_in_loop, mutate_structural.nest_kloop_in_if]
MUTANT_EXCLUDE = ("in-kloop", "chained", "tid-divergent", "(block)")

VARIANTS = [("cp-async", 2), ("cp-async", 3), ("cp-async", 4), ("ldg-register", 2), ("register-prefetch", 2)]
TOL = {"hgemm": (1e-2, 1e-2), "sgemm": (1e-3, 1e-3)}


def kernel_config(rng, i):
    kind = ["hgemm", "igemm", "sgemm"][i % 3]
    bk = {"hgemm": rng.choice([16, 32, 64]), "igemm": rng.choice([32, 64]), "sgemm": rng.choice([8, 16])}[kind]
    bm, bn = rng.choice([32, 64, 128]), rng.choice([32, 64, 128])
    trips = rng.randint(1, 9)
    k = bk * trips
    if rng.random() < 0.3 and trips > 1:
        k -= rng.choice([8, bk // 2]) if kind != "igemm" else 16     # K not a multiple of BK
    threads = bm * bn // 64 if kind == "sgemm" else rng.choice([128, 256])
    args = ["--kind", kind, "--M", str(bm * rng.randint(1, 2)), "--N", str(bn * rng.randint(1, 2)),
            "--K", str(k), "--BM", str(bm), "--BN", str(bn), "--BK", str(bk), "--threads", str(threads),
            "--name", "fz%02d_%s" % (i, kind)]
    if kind != "sgemm":
        args += ["--layout", rng.choice(["swizzle", "pad"])]
    return dict(kind=kind, m=int(args[3]), n=int(args[5]), k=k, bm=bm, bn=bn, threads=threads, bk=bk,
                args=args, name="fz%02d_%s" % (i, kind))


def build(a):
    out = os.path.abspath(a.out)
    bins, srcs, logs = (os.path.join(out, d) for d in ("bin", "src", "logs"))
    for d in (bins, srcs, logs):
        os.makedirs(d, exist_ok=True)
    rng = random.Random(a.seed)
    man = pkint.new_manifest("test/fuzz/gpu_diff.py", seed=a.seed)
    skipped = []
    for i in range(a.kernels):
        for _ in range(50):   # gen_gemm.py rejects some tile / thread combinations
            c = kernel_config(rng, i)
            src = os.path.join(srcs, c["name"] + ".mlir")
            p = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "gen_gemm.py")] + c["args"] +
                               ["-o", src], capture_output=True, text=True)
            if p.returncode == 0:
                break
        else:
            skipped.append((c["name"], "gen_gemm: " + p.stderr.strip().splitlines()[-1]))
            continue
        common = {k: c[k] for k in ("kind", "m", "n", "k", "bm", "bn", "threads")}
        common.update(kernel=c["name"], gen=" ".join(c["args"]))
        if a.mutate:
            mutation = mutate_kernel(random.Random("%d:%d" % (a.seed, i)), src, i)
            if mutation is None:
                skipped.append((c["name"], "no meaning-preserving mutation applies"))
                continue
            common.update(mutation=mutation)
        for arch in ("sm_86", "sm_90"):
            base_id = "%s-base-%s" % (c["name"], arch)
            for var, stages in [(None, 0)] + VARIANTS:
                ident = base_id if var is None else "%s-%s%d-%s" % (c["name"], var, stages, arch)
                e = dict(common, id=ident, arch=arch, variant=var or "base", stages=stages, base=base_id)
                try:
                    e.update(one_binary(src, c, arch, var, stages, ident, out, logs))
                except pkint.BuildError as ex:
                    skipped.append((ident, str(ex).strip().splitlines()[0][:200]))
                    continue
                if e.get("file"):
                    man["entries"].append(e)
                else:
                    skipped.append((ident, e.pop("why")))
    man["skipped"] = skipped
    runner = pkint.build_runner(os.path.join(out, "pk-runner"))
    man["runner"] = os.path.relpath(runner, out)
    pkint.write_manifest(out, man)
    tgz = out.rstrip("/") + ".tar.gz"
    with tarfile.open(tgz, "w:gz") as t:
        t.add(out, arcname=os.path.basename(out.rstrip("/")))
    print("gpu_diff build: %d entries, %d skipped -> %s" % (len(man["entries"]), len(skipped), tgz))
    for s in skipped:
        print("  skipped %s: %s" % s)
    return 0


def mutate_kernel(rng, src, i):
    """Rewrites `src` with one operator of MUTANT_OPS (the i-th, then the
    next ones where it does not apply); returns "operator: description" or
    None."""
    text = open(src).read()
    for j in range(len(MUTANT_OPS)):
        op = MUTANT_OPS[(i + j) % len(MUTANT_OPS)]
        for _ in range(8):
            r = op(rng, text)
            if r and r[0] != text and not any(x in r[1] for x in MUTANT_EXCLUDE):
                with open(src, "w") as f:
                    f.write(r[0])
                return "%s: %s" % (op.__name__, r[1])
    return None


def one_binary(src, c, arch, var, stages, ident, out, logs):
    """sm_86: PTX (pk-opt, mlir-opt lowering); sm_90: cubin (pk's emission)."""
    opts = None if var is None else "variant=%s stages=%d" % (var, stages)
    if arch == "sm_90":
        d = os.path.join(out, "emit", ident)
        mlir = os.path.join(out, "src", ident + ".mlir")
        r = pkint.pk_emit(src, arch, d, opts, log=os.path.join(logs, ident + ".log"), mlir_out=mlir)
        if r["rc"] or not r["cubin"]:
            return {"why": "pk emit failed: " + r["stderr"].strip()[-200:]}
        if var is not None and "remark: pipelined" not in r["stderr"]:
            return {"why": "not pipelined"}
        dst = os.path.join(out, "bin", ident + ".cubin")
        os.replace(r["cubin"], dst)
        return {"file": os.path.relpath(dst, out), "format": "cubin", "smem": dyn_smem(mlir)}
    mlir = os.path.join(out, "src", ident + ".mlir")
    pass_opt = "--pk-normalize-workgroup-storage" if var is None else \
        "--pipeline-kernel=arch=%s %s" % (arch, opts)
    p = subprocess.run([pkint.pk_opt(), pass_opt, src, "-o", mlir], capture_output=True, text=True)
    with open(os.path.join(logs, ident + ".log"), "w") as f:
        f.write(p.stdout + p.stderr)
    if p.returncode:
        return {"why": "pk-opt failed: " + p.stderr.strip()[-200:]}
    if var is not None and "remark: pipelined" not in p.stderr:
        return {"why": "not pipelined"}
    dst = os.path.join(out, "bin", ident + ".ptx")
    pkint.mlir_lower(mlir, arch, "isa", dst)
    return {"file": os.path.relpath(dst, out), "format": "ptx", "smem": dyn_smem(mlir)}


def dyn_smem(mlir):
    """Dynamic shared memory of a kernel pk moved above 48 KB, else 0 (as
    integration/autotune/autotune.py reads it)."""
    import re
    m = re.search(r"pk\.dynamic_shared_memory_bytes\s*=\s*(\d+)", open(mlir).read()) if os.path.exists(mlir) else None
    return int(m.group(1)) if m else 0


# ------------------------------------------------------------------ run

def run_one(runner, art, e, out):
    dump = os.path.join(out, "c", e["id"] + ".bin")
    jo = os.path.join(out, "runs", e["id"] + ".json")
    argv = pkint.runner_argv(runner, art, e, "full", 0, 0, 7, jo, "diff:" + e["id"], dump)
    t0 = time.time()
    try:
        p = subprocess.run(argv, capture_output=True, text=True, env=pkint.runner_env(), timeout=120)
        rc, text = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        rc, text = 124, "timeout"
    return dict(id=e["id"], rc=rc, runner=text.strip().splitlines()[0][-200:] if text.strip() else "",
                seconds=round(time.time() - t0, 2), dump=dump if os.path.exists(dump) else None)


def compare(e, got, base):
    a, b = open(got, "rb").read(), open(base, "rb").read()
    if a == b:
        return "exact", 0.0
    if len(a) != len(b) or e["kind"] == "igemm":
        return "MISMATCH", None
    n = len(a) // 4
    x, y = struct.unpack("<%df" % n, a), struct.unpack("<%df" % n, b)
    absd, rel = TOL[e["kind"]]
    worst = 0.0
    for u, v in zip(x, y):
        d = abs(u - v)
        if not d <= absd + rel * abs(v):   # NaN included
            return "MISMATCH", d
        worst = max(worst, d)
    return "tolerance", worst


def run(a):
    t0 = time.time()
    art, out = os.path.abspath(a.art), os.path.abspath(a.out)
    for d in ("c", "runs"):
        os.makedirs(os.path.join(out, d), exist_ok=True)
    man = pkint.load_manifest(art)
    ents = pkint.entries(man)
    runner = os.path.join(art, man.get("runner", "pk-runner"))
    try:   # the prebuilt runner (linked here against the driver stub), else build one
        usable = subprocess.run([runner, "--help"], capture_output=True).returncode in (0, 2)
    except OSError:
        usable = False
    if not usable:
        runner = pkint.build_runner(os.path.join(out, "pk-runner"))
    with concurrent.futures.ThreadPoolExecutor(a.parallel) as ex:
        res = {r["id"]: r for r in ex.map(lambda e: run_one(runner, art, e, out), ents)}
    rows, bad = [], 0
    for e in ents:
        r = res[e["id"]]
        row = dict(r, kind=e["kind"], arch=e["arch"], variant=e["variant"], stages=e["stages"],
                   m=e["m"], n=e["n"], k=e["k"], gen=e.get("gen"), mutation=e.get("mutation"))
        row["check"] = "pass" if r["rc"] == 0 else "FAIL (rc %d)" % r["rc"]
        if e["variant"] != "base":
            b = res.get(e["base"])
            if not b or not b.get("dump") or not r.get("dump"):
                row["diff"] = "no base" if not b or not b.get("dump") else "no output"
            else:
                row["diff"], row["max_abs_diff"] = compare(e, r["dump"], b["dump"])
        bad += row["check"] != "pass" or row.get("diff") in ("MISMATCH", "no output")
        rows.append(row)
    with open(os.path.join(out, "diff.jsonl"), "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    # sanitizers: one pipelined entry per (variant, stages, arch), smallest first
    seen, jobs = set(), []
    for e in sorted((e for e in ents if e["variant"] != "base"), key=lambda e: e["m"] * e["n"] * e["k"]):
        key = (e["variant"], e["stages"], e["arch"], e["kind"], e.get("mutation", ":").split(":")[0])
        if key in seen:
            continue
        seen.add(key)
        jobs += [(t, e) for t in ("memcheck", "racecheck", "synccheck")]
    san = pkint.compute_sanitizer()
    sres = []
    if san:
        sres = pkint.sanitize(san, runner, art, jobs, out, a.san_parallel, seed=7, timeout=120,
                              deadline=t0 + a.budget_s)
    else:
        print("gpu_diff: compute-sanitizer not found: sanitizers skipped")
    sbad = [s for s in sres if s["status"] not in ("clean",) and not s["status"].startswith("skipped")]
    md = summary(rows, sres, time.time() - t0, man)
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(md)
    print(md)
    return 1 if bad or sbad else 0


def summary(rows, sres, wall, man):
    import collections
    diff = collections.Counter(r.get("diff", "base") for r in rows)
    chk = collections.Counter(r["check"] for r in rows)
    san = collections.Counter((s["tool"], s["status"]) for s in sres)
    lines = ["# pk GPU differential run", "", "- %s, wall %.0f s, artefacts of %s (git %s)" % (
        pkint.now_utc(), wall, man.get("created"), man.get("git_commit", "?")[:10]),
        "- entries: %d (%d pipelined)" % (len(rows), sum(r["variant"] != "base" for r in rows)),
        "- runner check vs CPU reference: " + ", ".join("%s %d" % kv for kv in sorted(chk.items())),
        "- pipelined vs unpipelined C: " + ", ".join("%s %d" % kv for kv in sorted(diff.items())),
        "- sanitizers: " + (", ".join("%s %s %d" % (t, s, n) for (t, s), n in sorted(san.items())) or "none"),
        "", "## Not passing", ""]
    for r in rows:
        if r["check"] != "pass" or r.get("diff") in ("MISMATCH", "no output"):
            lines.append("- %s: check %s, diff %s (%s)" % (r["id"], r["check"], r.get("diff"), r.get("runner")))
    for s in sres:
        if s["status"] != "clean":
            lines.append("- sanitizer %s %s: %s %s" % (s["tool"], s["id"], s["status"], s.get("summary", "")))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("out")
    b.add_argument("--kernels", type=int, default=24)
    b.add_argument("--seed", type=int, default=12)
    b.add_argument("--mutate", action="store_true",
                   help="each kernel gets one meaning-preserving structural mutation (MUTANT_OPS); "
                        "its unpipelined form is the base")
    r = sub.add_parser("run")
    r.add_argument("art")
    r.add_argument("--out", required=True)
    r.add_argument("--parallel", type=int, default=8)
    r.add_argument("--san-parallel", type=int, default=6)
    r.add_argument("--budget-s", type=float, default=320)
    a = ap.parse_args()
    return build(a) if a.cmd == "build" else run(a)


if __name__ == "__main__":
    sys.exit(main())
