#!/usr/bin/env python3
"""The decision sweep of issue 13: pk's `auto` choice against every candidate
on many gen_gemm.py kernels (integration/README.md, "decision sweep").

  build   (dev machine: pk-opt, ptxas; no GPU)
          sweep.py build --out .gpu/sweep [--size 4096] [--kernels all|issue]
          For each kernel (KERNELS: HGEMM / IGEMM / SGEMM, tiles 64-256 per
          side, BK 16-128, 4 and 8 warps) gen_gemm.py writes it twice, with
          nvvm.minctasm 1 and 2; every candidate becomes an sm_90 cubin
          through pkint.pk_emit (pk-opt's own emission, bare pointers):
          unpipelined (b1, b2), cp-async 2-6 stages, ldg-register,
          register-prefetch at 1 and 2 blocks/SM, and pk's own choice
          (`variant=auto stages=auto min-blocks-per-sm=auto`, on the
          generator's default kernel). pk-sass-check (when built) checks each
          pipelined candidate against the unpipelined one with its own stage
          count. -> OUT/manifest.json (pk-artifacts/1), OUT/<kernel>/...
  run     (GPU machine)  python3 integration/pkint.py run --dir OUT --check rows:8 --warmup 3 --iters 10
          (pkint's run side, nothing new; see integration/README.md)
  collect (anywhere)     sweep.py collect --dir OUT
          -> OUT/results.jsonl (one line per candidate) and OUT/summary.md:
          per kernel the best candidate, pk's choice, % behind the best and
          against the unpipelined kernel; the share within 3%.

python3 standard library only.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import pkint  # noqa: E402
sys.path.insert(0, os.path.join(HERE, "autotune"))
from autotune import sass_check_stages  # noqa: E402

GEN = os.path.join(ROOT, "examples", "gen_gemm.py")
ARCH = "sm_90"

# (kind, BM, BN, BK, threads); the first four are issue 13's table.
KERNELS = [(kind, *map(int, tile.split("x")), int(threads)) for kind, tile, threads in (
    spec.split() for spec in """
    hgemm 128x256x32 256; hgemm 256x128x32 256; igemm 128x256x64 256; hgemm 64x64x32 128;
    hgemm 128x128x32 256; hgemm 128x128x64 256; hgemm 128x256x64 256; hgemm 64x128x32 128;
    hgemm 128x64x64 128;  hgemm 64x64x64 128;   hgemm 128x128x16 256; hgemm 64x256x32 256;
    igemm 128x128x64 256; igemm 64x64x64 128;   igemm 128x128x128 256; igemm 256x128x64 256;
    igemm 64x128x128 128; igemm 128x64x64 128;  sgemm 128x128x16 256; sgemm 64x128x16 128;
    sgemm 128x64x16 128;  sgemm 64x128x32 128;  sgemm 128x128x32 256; sgemm 256x64x16 256
    """.split(";"))]

VARIANTS = [("cp-async", s) for s in range(2, 7)] + [("ldg-register", 2), ("register-prefetch", 1)]
AUTO = "variant=auto stages=auto min-blocks-per-sm=auto"


def kernel_id(k):
    return "%s_%dx%dx%d_t%d" % k


def candidates():
    """(name, blocks, pk options or None for the unpipelined kernel)."""
    out = []
    for b in (1, 2):
        out.append(("unpipelined-b%d" % b, b, None))
        for v, s in VARIANTS:
            name = "%s%s-b%d" % (v, "-s%d" % s if v == "cp-async" else "", b)
            out.append((name, b, "variant=%s stages=%d min-blocks-per-sm=%d compile-candidates=false"
                        % (v, s if v == "cp-async" else 2, b)))
    out.append(("auto", 2, AUTO))
    return out


def generate(k, size, blocks, path):
    kind, bm, bn, bk, threads = k
    argv = [sys.executable, GEN, "--kind", kind, "--M", str(size), "--N", str(size), "--K", str(size),
            "--BM", str(bm), "--BN", str(bn), "--BK", str(bk), "--threads", str(threads),
            "--min-blocks", str(blocks), "--name", kernel_id(k), "-o", path]
    p = subprocess.run(argv, capture_output=True, text=True)
    if p.returncode:
        raise pkint.BuildError("gen_gemm.py %s: %s" % (" ".join(argv[2:]), p.stderr.strip()[-300:]))


def read_decision(path):
    if not os.path.exists(path):
        return {}
    for line in open(path):
        if line.strip():
            return json.loads(line).get("decision", {})
    return {}


def build_candidate(kdir, k, size, name, blocks, opts, src):
    cd = os.path.join(kdir, name)
    t0 = time.time()
    em = pkint.pk_emit(src, ARCH, cd, opts, log=os.path.join(cd, "pk-opt.log"),
                       report=os.path.join(cd, "report.json") if opts else None)
    kind, bm, bn, bk, threads = k
    e = dict(id="%s.%s" % (kernel_id(k), name), kernel_id=kernel_id(k), candidate=name, blocks=blocks,
             kind=kind, kernel=kernel_id(k), m=size, n=size, k=size, bm=bm, bn=bn, bk=bk, threads=threads,
             arch=ARCH, format="cubin", pk_options=opts, build_seconds=round(time.time() - t0, 2))
    if em["rc"] != 0 or not em["cubin"]:
        e["status"] = "build-failed"
        e["error"] = (em["stderr"] or "").strip()[-300:]
        return e
    e["status"] = "built"
    e["file"] = os.path.relpath(em["cubin"], os.path.dirname(kdir))
    e["ptxas"] = em["ptxas"]
    dec = read_decision(os.path.join(cd, "report.json")) if opts else {}
    e["pipelined"] = bool(dec.get("pipelined"))
    e["actual_variant"] = dec.get("variant") if e["pipelined"] else "none"
    e["actual_stages"] = dec.get("stages") if e["pipelined"] else 1
    e["actual_blocks"] = dec.get("min_blocks_per_sm", blocks)
    if dec.get("candidates"):
        e["pk_candidates"] = dec["candidates"]
    e["smem"] = 0
    return e


def load_reused(d):
    """The entries of an earlier build (`--reuse DIR`) by id, with DIR."""
    if not d:
        return None
    man = pkint.load_manifest(os.path.abspath(d))
    return os.path.abspath(d), man.get("git_commit", ""), {e["id"]: e for e in man["entries"]}


def reuse_candidate(reused, kdir, kid, name):
    """The fixed-option candidate `name` of an earlier build, its files copied
    into kdir: a candidate with explicit variant, stages and blocks/SM does not
    go through the decision, so a decision change leaves it as it was (the
    entry records the commit it was built at). None if not reusable."""
    if not reused:
        return None
    d, commit, entries = reused
    e = entries.get("%s.%s" % (kid, name))
    if not e or e.get("status") != "built":
        return None
    shutil.copytree(os.path.join(d, kid, name), os.path.join(kdir, name), dirs_exist_ok=True)
    e = dict(e)
    e["reused_from"] = commit
    return e


def cmd_build(a):
    out = os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    ks = KERNELS[:4] if a.kernels == "issue" else KERNELS
    reused = load_reused(a.reuse)
    sass = pkint.pk_sass_check()
    sass = sass if os.access(sass, os.X_OK) else None
    entries = []
    for k in ks:
        kdir = os.path.join(out, kernel_id(k))
        os.makedirs(kdir, exist_ok=True)
        srcs = {}
        for b in (1, 2):
            srcs[b] = os.path.join(kdir, "kernel.b%d.mlir" % b)
            generate(k, a.size, b, srcs[b])
        built = []
        for name, b, opts in candidates():
            src = srcs[b]
            e = reuse_candidate(reused, kdir, kernel_id(k), name) if name != "auto" else None
            if e:
                built.append(e)
                print("reuse %-40s %s %s" % (e["id"], e["status"], e.get("actual_variant", "")), flush=True)
                continue
            e = build_candidate(kdir, k, a.size, name, b, opts, src)
            # pipeline-kernel writes the pipelined IR only with -o; keep the
            # dynamic shared memory from the report's ptxas object instead.
            rep = os.path.join(kdir, name, "report.json")
            if os.path.exists(rep):
                for line in open(rep):
                    if line.strip():
                        e["smem"] = int((json.loads(line).get("ptxas") or {}).get("dynamic_shared_bytes") or 0)
                        break
            built.append(e)
            print("build %-40s %s %s" % (e["id"], e["status"], e.get("actual_variant", "")), flush=True)
        base = {e["blocks"]: e for e in built if e["candidate"].startswith("unpipelined") and e["status"] == "built"}
        for e in built:
            bl = base.get(e["blocks"])
            if not sass or not bl or not e.get("pipelined") or (e.get("reused_from") and "sass_check" in e):
                continue
            st = sass_check_stages(e)
            p = subprocess.run([sass, os.path.join(out, e["file"]), "--baseline", os.path.join(out, bl["file"]),
                                "--stages", str(st)], capture_output=True, text=True)
            with open(os.path.join(kdir, e["candidate"], "sass-check.log"), "w") as f:
                f.write(p.stdout + p.stderr)
            e["sass_check"] = "PASS" if p.returncode == 0 else "FAIL (exit %d)" % p.returncode
            e["sass_check_stages"] = st
        entries += built
    man = pkint.new_manifest("integration/sweep.py", arch=ARCH, size=a.size, entries=entries)
    pkint.write_manifest(out, man)
    print("manifest: %d entries (%d built) -> %s" % (
        len(entries), sum(e["status"] == "built" for e in entries), os.path.join(out, "manifest.json")))
    return 0


def rate(e, ms):
    return 2.0 * e["m"] * e["n"] * e["k"] / (ms * 1e-3) / 1e12


def cmd_collect(a):
    d = os.path.abspath(a.dir)
    man = pkint.load_manifest(d)
    rows = []
    for e in man["entries"]:
        r = dict(e)
        j = os.path.join(d, "runs", "%s.%s.json" % (a.tag, e["id"]))
        run = pkint.load_json(j) if os.path.exists(j) else {}
        ms = run.get("median_ms")
        r["ok"] = bool(run.get("pass")) and ms is not None
        r["median_ms"] = ms
        r["rate_t"] = rate(e, ms) if ms else None
        rows.append(r)
    with open(os.path.join(d, "results.jsonl"), "w") as f:
        for r in rows:
            f.write(json.dumps(r, sort_keys=True) + "\n")
    L = ["# Decision sweep (%s, %d^3, sm_90 cubins built %s)" % (man.get("git_commit", "")[:12], man["size"],
                                                                 man.get("created")), "",
         "| kernel | best candidate | best T(FL)OP/s | pk auto | auto T(FL)OP/s | behind best | vs unpipelined |",
         "|---|---|---|---|---|---|---|"]
    within = total = never_slower = 0
    for kid in sorted({r["kernel_id"] for r in rows}):
        ks = [r for r in rows if r["kernel_id"] == kid and r["ok"]]
        auto = next((r for r in ks if r["candidate"] == "auto"), None)
        if not ks or not auto:
            L.append("| %s | - | - | - | - | not measured | - |" % kid)
            continue
        best = min(ks, key=lambda r: r["median_ms"])
        unp = min((r for r in ks if r["candidate"].startswith("unpipelined")), key=lambda r: r["median_ms"],
                  default=None)
        behind = 100.0 * (auto["median_ms"] / best["median_ms"] - 1)
        vs_unp = unp and 100.0 * (unp["median_ms"] / auto["median_ms"] - 1)
        total += 1
        within += behind <= 3.0
        never_slower += bool(unp) and auto["median_ms"] <= unp["median_ms"] * 1.005
        chose = "%s x%s @%s" % (auto.get("actual_variant"), auto.get("actual_stages"), auto.get("actual_blocks"))
        L.append("| %s | %s | %.1f | %s | %.1f | %.1f%% | %s |" % (
            kid, best["candidate"], best["rate_t"], chose, auto["rate_t"], behind,
            "%+.1f%%" % vs_unp if unp else "-"))
    L += ["", "pk's auto choice within 3%% of the best on %d of %d kernels (%.0f%%); not slower than the "
          "best unpipelined build (0.5%% noise) on %d of %d." % (
              within, total, 100.0 * within / max(total, 1), never_slower, total)]
    open(os.path.join(d, "summary.md"), "w").write("\n".join(L) + "\n")
    print("\n".join(L))
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--out", default=os.path.join(ROOT, ".gpu", "sweep"))
    b.add_argument("--size", type=int, default=4096)
    b.add_argument("--kernels", choices=["all", "issue"], default="all")
    b.add_argument("--reuse", metavar="DIR",
                   help="take the fixed-option candidates from an earlier build in DIR; rebuild only `auto`")
    c = sub.add_parser("collect")
    c.add_argument("--dir", default=os.path.join(ROOT, ".gpu", "sweep"))
    c.add_argument("--tag", default="run")
    a = p.parse_args()
    return cmd_build(a) if a.cmd == "build" else cmd_collect(a)


if __name__ == "__main__":
    sys.exit(main())
