#!/usr/bin/env python3
"""pk's fuzzing and differential-testing harness (python3 standard library).

Generates seeded mutants (mutate.py) of examples/*.mlir, of
test/upstream/kernels/*.mlir, of the IREE-derived kernels
(test/iree/kernels/*.mlir, test/iree/reduced/*.mlir) and of random
examples/gen_gemm.py kernels, runs
pk's passes on each with a timeout (2 workers by default) and classifies
every run:

  crash            killed by a signal, "PLEASE submit a bug report", an assertion
  timeout          over --timeout seconds
  unlocated-error  a diagnostic at <unknown> / loc(unknown)
  located-error    exit != 0, every diagnostic located
  pipelined        exit 0, "remark: pipelined"
  declined         exit 0, a "not pipelined" remark
  ok               exit 0 otherwise (analysis, budget, normalize)
  silent           exit 0 of a pipelining pass with neither remark
  verify-fail      the output does not re-parse / verify (pk-opt, mlir-opt-22)
  lower-fail       the input lowers with mlir-opt-22 --gpu-lower-to-nvvm-pipeline
                   and pk's pipelined output does not
  wrong-code       semcheck.py flags the pipelined output (or cannot follow it:
                   "semcheck-unknown", not a finding)
  ptx-storage      an emit=ptx/cubin run writes PTX that fails ptx_abi.py's
                   check_storage: a `malloc` or a `__local_depot` (shared tiles
                   in global or local memory), dynamic shared memory of unknown
                   size, static .shared above 48 KB

Writes OUT/runs.jsonl (one line per run), OUT/summary.md and, per finding
class, the inputs under OUT/findings/. `--fail-on CLASSES` makes the exit
status 1 when any run falls in one of them (the CI subset, fuzz-ci.test).

Usage: fuzz.py --out DIR [--count N] [--seed S] [--jobs 2] [--timeout 20]
               [--lower-every K] [--emit-every K] [--fail-on crash,timeout,...]
Environment: PK_OPT, MLIR_OPT (default build/bin/pk-opt, mlir-opt-22).
"""

import argparse
import concurrent.futures
import collections
import datetime
import glob
import json
import os
import platform
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import mutate  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "integration", "iree"))
import ptx_abi  # noqa: E402

PK_OPT = os.environ.get("PK_OPT") or os.path.join(ROOT, "build", "bin", "pk-opt")
MLIR_OPT = os.environ.get("MLIR_OPT") or shutil.which("mlir-opt-22") or "/usr/lib/llvm-22/bin/mlir-opt"
LOWER = "--gpu-lower-to-nvvm-pipeline=cubin-chip=sm_86 cubin-features=+ptx80 cubin-format=isa"

ARCHS = ["sm_86", "sm_80", "sm_90", "sm_75", "sm_89", "sm_90a"]
SCHEDULES = ["auto", "auto", "multistage", "mma-in-flight", "warp-specialized"]
VARIANTS = ["auto", "cp-async", "ldg-register", "register-prefetch", "tma"]
FINDINGS = ("crash", "timeout", "unlocated-error", "verify-fail", "lower-fail", "wrong-code", "silent")


# ------------------------------------------------------------------ seeds

def seeds(rng_gen_count, rng):
    """The seed kernels: (name, text)."""
    out = []
    for f in sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir"))):
        out.append(("examples/" + os.path.basename(f), open(f).read()))
    for f in sorted(glob.glob(os.path.join(ROOT, "test", "upstream", "kernels", "*.mlir"))):
        out.append(("upstream/" + os.path.basename(f), open(f).read()))
    for d in ("kernels", "reduced"):
        for f in sorted(glob.glob(os.path.join(ROOT, "test", "iree", d, "*.mlir"))):
            out.append(("iree/%s/%s" % (d, os.path.basename(f)), open(f).read()))
    for _ in range(rng_gen_count):
        args = gen_args(rng)
        p = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "gen_gemm.py")] + args,
                           capture_output=True, text=True)
        if p.returncode == 0:
            out.append(("gen_gemm " + " ".join(args), p.stdout))
    return out


def gen_args(rng, small_k=True):
    """Random gen_gemm.py arguments (tiles, K not a multiple of BK allowed
    where the generator accepts it, small trip counts)."""
    kind = rng.choice(["hgemm", "igemm", "sgemm", "bgemm"])
    bk = {"hgemm": rng.choice([16, 32, 64]), "bgemm": rng.choice([16, 32, 64]), "igemm": rng.choice([32, 64]),
          "sgemm": rng.choice([8, 16])}[kind]
    bm = rng.choice([32, 64, 128])
    bn = rng.choice([32, 64, 128])
    trips = rng.randint(1, 9)
    args = ["--kind", kind, "--BM", str(bm), "--BN", str(bn), "--BK", str(bk),
            "--M", str(bm * rng.randint(1, 2)), "--N", str(bn * rng.randint(1, 2)),
            "--K", str(bk * trips),
            "--threads", str(bm * bn // 64 if kind == "sgemm" else rng.choice([128, 256]))]
    if kind != "sgemm":
        args += ["--layout", rng.choice(["swizzle", "pad"]), "--copy-map", rng.choice(["row", "col8"])]
    args += ["--smem", rng.choice(["attribution", "global"])]
    return args


# ------------------------------------------------------------------- runs

def pass_configs(rng, emit):
    arch = rng.choice(ARCHS)
    var = rng.choice(VARIANTS)
    stages = rng.choice(["2", "2", "3", "4", "auto", "8"])
    cfgs = [["--pk-analyze-kloops=arch=%s report=-" % arch],
            ["--pk-check-smem-budget=arch=%s stages=%s" % (arch, rng.choice(["2", "3", "4"]))],
            ["--pk-normalize-workgroup-storage"],
            ["--pk-pipeline-kloops=arch=%s variant=%s" % (arch, var)],
            ["--pipeline-kernel=arch=%s variant=%s stages=%s schedule=%s"
             % (arch, var, stages, rng.choice(SCHEDULES))]]
    if var != "cp-async":
        cfgs[-1][0] = cfgs[-1][0].replace("stages=%s" % stages, "stages=2" if stages not in ("2", "auto") else "stages=" + stages)
    if emit:
        cfgs.append(["--pipeline-kernel=arch=%s emit=%s out-dir=@OUT@" % (rng.choice(["sm_86", "sm_90", "sm_90a"]),
                                                                        rng.choice(["ptx", "cubin"]))])
    return cfgs


UNLOC = re.compile(r"(^<unknown>:\d+:\d+: (error|warning)|^<unknown>: |loc\(unknown\).*error|^error: )", re.M)


def classify(rc, err, timed_out, pipelining):
    if timed_out:
        return "timeout"
    if rc < 0 or "PLEASE submit a bug report" in err or "Assertion" in err or "Stack dump" in err:
        return "crash"
    if UNLOC.search(err) and rc != 0:
        return "unlocated-error"
    if rc != 0:
        return "located-error"
    if UNLOC.search(err):
        return "unlocated-error"
    if "remark: pipelined" in err:
        return "pipelined"
    # (pipeline-kernel says what is not a K-loop through pk-analyze-kloops)
    if "not pipelined" in err or "declined" in err or "not a pk K-loop" in err:
        return "declined"
    if pipelining and "remark:" not in err:
        return "silent"
    return "ok"


def sh(args, inp=None, timeout=60):
    t0 = time.time()
    try:
        p = subprocess.run(args, input=inp, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr, False, time.time() - t0
    except subprocess.TimeoutExpired as ex:
        return -999, "", (ex.stderr or b"").decode(errors="replace") if isinstance(ex.stderr, bytes) else (ex.stderr or ""), True, time.time() - t0


def lowers(text, timeout):
    if "gpu.launch blocks" in text:
        rc, text, _, to, _ = sh([MLIR_OPT, "-", "--gpu-kernel-outlining"], text, timeout)
        if rc != 0:
            return False
    rc, _, err, to, _ = sh([MLIR_OPT, "-", LOWER], text, timeout)
    return rc == 0


def ptx_storage(out_dir, out_mlir):
    """The storage problems of the PTX an emit run wrote to `out_dir`
    (integration/iree/ptx_abi.py's check_storage: a `malloc` or a
    `__local_depot`, dynamic shared memory of unknown size, static .shared
    above 48 KB), given the run's output IR `out_mlir` (its
    pk.dynamic_shared_memory_bytes); empty when every PTX is clean."""
    m = re.search(r"pk\.dynamic_shared_memory_bytes = (\d+)", out_mlir)
    dynamic = int(m.group(1)) if m else 0
    bad = []
    for f in sorted(glob.glob(os.path.join(out_dir, "*.ptx"))):
        problems, _, _ = ptx_abi.check_storage(open(f, errors="replace").read(), False, dynamic)
        bad += ["%s: %s" % (os.path.basename(f), p) for p in problems]
    return bad


def run_mutant(job):
    """All pass configs on one mutant; returns the list of run records."""
    idx, seed_name, text, desc, cfgs, opts = job
    recs = []
    tmp = tempfile.mkdtemp(prefix="pkfz")
    os.makedirs(os.path.join(opts.out, "mutants"), exist_ok=True)
    path = os.path.join(opts.out, "mutants", "%05d.mlir" % idx)
    with open(path, "w") as f:
        f.write(text)
    input_lowers = None
    try:
        for cfg in cfgs:
            args = [a.replace("@OUT@", tmp) for a in cfg]
            rc, out, err, to, dt = sh([PK_OPT, path] + args, None, opts.timeout)
            pipelining = "pipeline" in args[0] and "emit" not in args[0]
            cls = classify(rc, err, to, pipelining)
            rec = {"id": idx, "seed": seed_name, "mutations": desc, "pass": cfg[0], "rc": rc,
                   "class": cls, "seconds": round(dt, 2)}
            checks = []
            if cls == "pipelined" and "emit" not in args[0]:
                rc2, _, err2, to2, _ = sh([PK_OPT, "-", "--verify-each"], out, opts.timeout)
                if rc2 != 0:
                    checks.append("verify-fail")
                    rec["verify_error"] = err2.strip()[-400:]
                elif opts.lower_every and idx % opts.lower_every == 0:
                    if input_lowers is None:
                        input_lowers = lowers(text, opts.timeout)
                    if input_lowers and not lowers(out, opts.timeout):
                        checks.append("lower-fail")
                if "verify-fail" not in checks:
                    # kept for semcheck (a second step: semcheck_outputs)
                    kept = os.path.join(opts.out, "outputs", "%05d-%d" % (idx, len(recs)))
                    os.makedirs(os.path.dirname(kept), exist_ok=True)
                    with open(kept + ".out.mlir", "w") as f:
                        f.write(out)
                    rec["output"] = os.path.relpath(kept, opts.out)
            if "emit" in args[0] and rc == 0:
                bad = ptx_storage(tmp, out)
                if bad:
                    checks.append("ptx-storage")
                    rec["ptx_storage"] = bad
            if cls in ("crash", "unlocated-error", "timeout", "located-error") or checks:
                rec["stderr"] = err.strip()[-600:]
            rec["checks"] = checks
            recs.append(rec)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return recs


def semcheck_outputs(opts, recs):
    """The second step: semcheck.py on every kept pipelined output, against
    its input (2 workers)."""
    todo = [r for r in recs if r.get("output") and "semcheck" not in r]

    def one(r):
        base = os.path.join(opts.out, r["output"])
        src = os.path.join(opts.out, "mutants", "%05d.mlir" % r["id"])
        if os.path.exists(base + ".semcheck.json"):   # a step run before (--post-only)
            return json.load(open(base + ".semcheck.json"))
        if opts.cached_only:
            return {"status": "not-run", "findings": [], "reason": "--semcheck-cached-only"}
        rc, out, err, to, _ = sh([sys.executable, os.path.join(HERE, "semcheck.py"), base + ".out.mlir",
                                  "--input", src, "--json"], None, opts.timeout * 4)
        try:
            res = json.loads(out.strip().splitlines()[-1])
            with open(base + ".semcheck.json", "w") as f:
                json.dump(res, f)
            return res
        except (ValueError, IndexError):
            return {"status": "unknown", "findings": [],
                    "reason": "semcheck failed: %s" % ("timeout" if to else err.strip()[-200:])}

    with concurrent.futures.ThreadPoolExecutor(opts.jobs) as ex:
        for r, sc in zip(todo, ex.map(one, todo)):
            r["semcheck"] = sc["status"]
            if sc["status"] == "wrong":
                r.setdefault("checks", []).append("wrong-code")
                r["semcheck_findings"] = sc["findings"][:5]
            elif sc["status"] == "unknown":
                r["semcheck_reason"] = sc.get("reason", "")[:200]


# ---------------------------------------------------------------- driver

def make_jobs(opts):
    rng = random.Random(opts.seed)
    base = seeds(opts.gen, rng)
    jobs = []
    for i in range(opts.count):
        r = random.Random("%d:%d" % (opts.seed, i))
        name, text = base[i % len(base)]
        mtext, desc = mutate.mutate(r, text)
        if not desc:
            continue
        emit = opts.emit_every and i % opts.emit_every == 0
        jobs.append((i, name, mtext, desc, pass_configs(r, emit), opts))
    return jobs


def summarize(opts, recs, started, wall):
    by_class = collections.Counter(r["class"] for r in recs)
    checks = collections.Counter(c for r in recs for c in r.get("checks", []))
    sem = collections.Counter(r.get("semcheck") for r in recs if r.get("semcheck"))
    by_pass = collections.defaultdict(collections.Counter)
    for r in recs:
        by_pass[r["pass"].split("=")[0]][r["class"]] += 1
    mutants = len({r["id"] for r in recs})
    lines = ["# pk fuzz run", "",
             "- date: %s, wall %.0f s" % (started, wall),
             "- machine: %s, %d cores, %s" % (platform.node(), os.cpu_count(), platform.platform()),
             "- pk-opt: %s (git %s)" % (PK_OPT, git_head()),
             "- command: `%s`" % " ".join(sys.argv),
             "- mutants: %d, runs: %d" % (mutants, len(recs)), "",
             "| class | runs |", "|---|---|"]
    for k, v in sorted(by_class.items(), key=lambda x: -x[1]):
        lines.append("| %s | %d |" % (k, v))
    lines += ["", "| output check | runs |", "|---|---|"]
    for k in ("verify-fail", "lower-fail", "wrong-code", "ptx-storage"):
        lines.append("| %s | %d |" % (k, checks.get(k, 0)))
    lines += ["", "semcheck of pipelined outputs: " + ", ".join("%s %d" % kv for kv in sorted(sem.items())), "",
              "| pass | " + " | ".join(sorted(by_class)) + " |", "|---|" + "---|" * len(by_class)]
    for p, c in sorted(by_pass.items()):
        lines.append("| `%s` | %s |" % (p, " | ".join(str(c.get(k, 0)) for k in sorted(by_class))))
    fnd = [r for r in recs if r["class"] in FINDINGS or r.get("checks")]
    lines += ["", "## Findings (%d runs)" % len(fnd), ""]
    for r in fnd[:200]:
        lines.append("- `%05d` %s [%s] `%s` on %s: %s" % (r["id"], r["class"], ",".join(r.get("checks", [])),
                                                        r["pass"], r["seed"][:60], "; ".join(r["mutations"])[:200]))
    return "\n".join(lines) + "\n", by_class, checks


def git_head():
    try:
        return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
    except OSError:
        return "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--gen", type=int, default=8, help="random gen_gemm.py seed kernels")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--lower-every", type=int, default=10, help="lower input and output of every K-th mutant")
    ap.add_argument("--emit-every", type=int, default=10, help="emit=ptx/cubin on every K-th mutant")
    ap.add_argument("--post-only", action="store_true", help="only semcheck and summarize OUT/runs.jsonl")
    ap.add_argument("--semcheck-cached-only", dest="cached_only", action="store_true",
                    help="use the semcheck results a stopped step left; run no new ones")
    ap.add_argument("--fail-on", default="", help="comma-separated classes/checks that make the exit status 1")
    opts = ap.parse_args()
    os.makedirs(opts.out, exist_ok=True)
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    t0 = time.time()
    runs = os.path.join(opts.out, "runs.jsonl")
    if not opts.post_only:
        jobs = make_jobs(opts)
        with open(runs, "w") as jf, concurrent.futures.ThreadPoolExecutor(opts.jobs) as ex:
            for rs in ex.map(run_mutant, jobs):
                for r in rs:
                    jf.write(json.dumps(r) + "\n")
                jf.flush()
    recs = [json.loads(l) for l in open(runs)]
    semcheck_outputs(opts, recs)
    with open(runs, "w") as jf:
        for r in recs:
            jf.write(json.dumps(r) + "\n")
    fdir = os.path.join(opts.out, "findings")
    for r in recs:
        if r["class"] in FINDINGS or r.get("checks"):
            os.makedirs(fdir, exist_ok=True)
            text = open(os.path.join(opts.out, "mutants", "%05d.mlir" % r["id"])).read()
            with open(os.path.join(fdir, "%05d.mlir" % r["id"]), "w") as f:
                f.write("// fuzz.py seed %d mutant %d of %s: %s\n// RUN: pk-opt %%s '%s'\n" % (
                    opts.seed, r["id"], r["seed"], "; ".join(r["mutations"]), r["pass"]) + text)
    md, by_class, checks = summarize(opts, recs, started, time.time() - t0)
    with open(os.path.join(opts.out, "summary.md"), "w") as f:
        f.write(md)
    print(md)
    bad = [c for c in opts.fail_on.split(",") if c and (by_class.get(c) or checks.get(c))]
    if bad:
        print("fuzz.py: FAIL: %s" % ", ".join("%s %d" % (c, by_class.get(c, 0) + checks.get(c, 0)) for c in bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
