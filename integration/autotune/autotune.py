#!/usr/bin/env python3
"""pk autotuner: compile candidate pipelining variants and stage counts of one
GEMM kernel, run them on a GPU with the integration runner, pick the fastest
correct one, and record the decision and every measurement.

Three steps, usable separately (the dev machine has pk-opt but no GPU, the GPU
machine has a GPU but no MLIR); python3 standard library only.

  build   (dev machine)  autotune.py build --kernel examples/hgemm_f16_128x128x32.mlir \\
                             --arch sm_90 --candidates auto --dir D
          Per candidate: pk-opt emit=cubin bare-ptr=1 into D/<candidate>/, then
          D/manifest.json with the launch configuration (grid from
          known_grid_size, block from known_block_size, dynamic shared memory
          from pk's report), pk's decision and ptxas numbers, the exact pk-opt
          command, and the cubin's sha256 (identical cubins are run once).
  run     (GPU machine)  autotune.py run --dir D [--runner pk-runner] [--rounds 3]
          pk-runner per candidate: a correctness check (full, or rows:64 above
          1024 rows) in the first round, timed launches (median) in every
          round; rounds alternate the candidate order. -> D/measurements.json
          (rewritten after every run, so a cut-off run leaves what it had).
  sanitize (GPU machine) autotune.py sanitize --dir D --tools memcheck,racecheck,synccheck
          compute-sanitizer on every (pipelined) candidate, one launch with a
          full check -> D/sanitizers.json
  decide  (anywhere)     autotune.py decide --dir D
          fastest correct candidate -> D/decision.json and D/decision.md: all
          measurements, pk's own choice (variant=auto stages=auto, the "model"
          candidate) beside the measured best, and the pk-opt options that
          reproduce the winner.

Candidates (--candidates auto): baseline (the unpipelined kernel,
pk-emit-binaries), model (variant=auto stages=auto: what pk picks by itself),
cp-async with stages 2..4 (--stages; schedule=auto, i.e. the two-stage order for
2 stages, the multistage order above), cp-async 2 stages with
schedule=multistage, ldg-register, register-prefetch. Or a comma list of
baseline, model, cp-async:N[:two-stage|multistage], ldg-register, register-prefetch.
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import pkint  # noqa: E402  (integration/pkint.py: tools, lowering, runner, manifests)
from pkint import load_json, median, now_utc, san_zero, sha256, write_json  # noqa: E402,F401

KIND_OF_ELT = {"f16": "hgemm", "bf16": "bgemm", "i8": "igemm", "f32": "sgemm"}
UNIT = {"hgemm": ("TFLOP/s", "GFLOP/s"), "bgemm": ("TFLOP/s", "GFLOP/s"), "igemm": ("TOP/s", "GOP/s"), "sgemm": ("TFLOP/s", "GFLOP/s")}


# ---------------------------------------------------------- kernel parsing

def parse_kernel(path):
    """Module / kernel names, A/B/C shapes, launch configuration of a
    gen_gemm.py-style kernel (TN layout: A MxK, B NxK, C MxN)."""
    text = open(path).read()
    mod = re.search(r"gpu\.module\s+@([\w$.]+)", text)
    fn = re.search(r"gpu\.func\s+@([\w$.]+)\((.*?)\)\s*(?:workgroup|private|kernel)", text, re.S)
    if not mod or not fn:
        raise SystemExit("autotune: no gpu.module / gpu.func kernel in %s" % path)
    memrefs = re.findall(r"memref<((?:\d+x)+)(\w+)>", fn.group(2))
    if len(memrefs) < 3:
        raise SystemExit("autotune: expected three memref arguments (A, B, C) in %s" % path)
    shapes = [[int(d) for d in dims.rstrip("x").split("x")] + [t] for dims, t in memrefs[:3]]
    (m, k, ta), (n, k2, tb), (m2, n2, tc) = shapes
    if k != k2 or m != m2 or n != n2 or ta != tb:
        raise SystemExit("autotune: A/B/C shapes of %s are not the TN GEMM contract" % path)
    kind = KIND_OF_ELT.get(ta)
    if kind is None:
        raise SystemExit("autotune: element type %s not supported" % ta)

    def arr(name):
        r = re.search(name + r"\s*=\s*array<i32:\s*(\d+),\s*(\d+),\s*(\d+)>", text)
        return [int(x) for x in r.groups()] if r else None

    block, grid = arr("known_block_size"), arr("known_grid_size")
    if not block or not grid:
        raise SystemExit("autotune: %s needs known_block_size and known_grid_size" % path)
    if grid[2] != 1 or block[1] != 1 or block[2] != 1 or m % grid[1] or n % grid[0]:
        raise SystemExit("autotune: launch configuration grid %s block %s is not the runner's "
                         "(N/BN, M/BM, 1) x (threads, 1, 1)" % (grid, block))
    return dict(module=mod.group(1), kernel=fn.group(1), kind=kind, elt=ta, acc=tc,
                m=m, n=n, k=k, grid=grid, block=block,
                bm=m // grid[1], bn=n // grid[0], threads=block[0])


# --------------------------------------------------------------- candidates

def candidate(name, variant, stages=None, schedule=None):
    return dict(name=name, variant=variant, stages=stages, schedule=schedule)


def parse_candidates(spec, stages):
    out = []
    if spec == "auto":
        out.append(candidate("baseline", "baseline"))
        out.append(candidate("model", "auto", "auto", "auto"))
        for s in stages:
            out.append(candidate("cp-async-s%d" % s, "cp-async", s, "auto"))
            if s == 2:
                out.append(candidate("cp-async-s2-multistage", "cp-async", 2, "multistage"))
        out.append(candidate("ldg-register", "ldg-register"))
        out.append(candidate("register-prefetch", "register-prefetch"))
        return out
    for tok in spec.split(","):
        tok = tok.strip()
        if not tok:
            continue
        p = tok.split(":")
        if p[0] == "baseline":
            out.append(candidate("baseline", "baseline"))
        elif p[0] == "model":
            out.append(candidate("model", "auto", "auto", "auto"))
        elif p[0] == "cp-async":
            s = int(p[1]) if len(p) > 1 else 2
            sched = p[2] if len(p) > 2 else "auto"
            if sched == "seed":  # pk's old name of the two-stage order
                raise SystemExit("autotune: schedule 'seed' is called two-stage now (in %r)" % tok)
            if sched not in ("auto", "two-stage", "multistage"):
                raise SystemExit("autotune: bad schedule in %r (auto, two-stage, multistage)" % tok)
            nm = "cp-async-s%d" % s + ("" if sched == "auto" else "-" + sched)
            out.append(candidate(nm, "cp-async", s, sched))
        elif p[0] in ("ldg-register", "register-prefetch"):
            out.append(candidate(p[0], p[0]))
        else:
            raise SystemExit("autotune: unknown candidate %r" % tok)
    names = [c["name"] for c in out]
    if len(set(names)) != len(names):
        raise SystemExit("autotune: duplicate candidates in %r" % spec)
    return out


def variant_options(c):
    """The pipeline-kernel options that select candidate c, without arch and
    the artefact options emit/out-dir/bare-ptr (None: the baseline)."""
    if c["variant"] == "baseline":
        return None
    o = ["variant=%s" % c["variant"]]
    if c["stages"] is not None:
        o.append("stages=%s" % c["stages"])
    if c["schedule"] not in (None, "auto"):
        o.append("schedule=%s" % c["schedule"])
    return " ".join(o)


def pk_options(c, arch):
    """variant_options() with the arch: what reproduces the candidate."""
    v = variant_options(c)
    return None if v is None else "arch=%s %s" % (arch, v)


def read_report(path):
    """pk's report (pkint.read_report): the first loop, or None."""
    loops = pkint.read_report(path)
    return loops[0] if loops else None


FALLBACK_DESC = ("fallback: pk-opt (no emit) + mlir-opt (pkint's lowering pipeline: pk's, with "
                 "convert-vector-to-llvm, convert-arith-to-llvm after convert-gpu-to-nvvm) + ptxas -O3 -v")


def lower_fallback(a, info, opts, pk_opt, kernel_copy, cd, cubin, env):
    """For a candidate pk's own emission fails on (pk-emit-binaries could not
    lower a masked vector.transfer_read before pk's pipeline got
    convert-vector-to-llvm): pipeline with pk-opt, lower with mlir-opt
    (pkint.mlir_lower), assemble with ptxas -O3 -v (pkint.assemble)."""
    mlir_opt = a.mlir_opt or pkint.mlir_opt()
    cuda = a.cuda_path or env.get("CUDA_HOME") or pkint.cuda_home()
    if not (os.access(mlir_opt, os.X_OK) and os.access(pkint.ptxas(cuda), os.X_OK)):
        return dict(error="fallback needs %s and %s" % (mlir_opt, pkint.ptxas(cuda)))
    cmds = []
    src = kernel_copy
    if opts is not None:
        src = os.path.join(cd, "pipelined.mlir")
        argv = [pk_opt, "--pipeline-kernel=%s report=%s" % (opts, os.path.join(cd, "report.json")),
                kernel_copy, "-o", src]
        p = subprocess.run(argv, capture_output=True, text=True, env=env)
        with open(os.path.join(cd, "pk-opt.fallback.log"), "w") as f:
            f.write(p.stdout + p.stderr)
        if p.returncode:
            return dict(error="pk-opt: " + p.stderr.strip()[-300:])
        cmds.append("pk-opt --pipeline-kernel='%s' %s -o pipelined.mlir" % (opts, a.kernel))
    ptx = cubin[:-len(".cubin")] + ".ptx"
    try:
        pkint.mlir_lower(src, a.arch, "isa", ptx, info["kernel"], cuda=cuda, mlir=mlir_opt)
    except pkint.BuildError as ex:
        return dict(error=str(ex)[-300:])
    cmds.append("mlir-opt %s --pass-pipeline='%s'" % ("pipelined.mlir" if opts else a.kernel,
                                                     pkint.lowering_pipeline(a.arch, "isa", "$CUDA_HOME")))
    try:
        st = pkint.assemble(ptx, a.arch, cubin, verbose=True, log=os.path.join(cd, "ptxas.log"), cuda=cuda)
    except pkint.BuildError as ex:
        return dict(error=str(ex)[-300:])
    cmds.append("ptxas -arch=%s -O3 -v" % a.arch)
    st = dict(st or {})
    st.pop("kernel", None)
    return dict(command=" | ".join(cmds), ptxas=st)


def sass_check_stages(e):
    """pk-sass-check's --stages for a built candidate: the cp-async stage
    count pk actually built, 2 for the register variants (one tile in
    flight, one in the epilogue)."""
    if e.get("actual_variant") == "cp-async":
        return max(2, int(e.get("actual_stages") or 2))
    return 2


def cmd_build(a):
    info = parse_kernel(a.kernel)
    pk_opt = a.pk_opt or pkint.pk_opt()
    if not os.access(pk_opt, os.X_OK):
        raise SystemExit("autotune: pk-opt not found at %s (--pk-opt)" % pk_opt)
    sass_check = a.sass_check or pkint.pk_sass_check()
    if a.no_sass_check or not os.access(sass_check, os.X_OK):
        sass_check = None
    stages = [int(s) for s in a.stages.split(",")]
    cands = parse_candidates(a.candidates, stages)
    os.makedirs(a.dir, exist_ok=True)
    d = os.path.abspath(a.dir)
    kernel_copy = os.path.join(d, "kernel.mlir")
    shutil.copyfile(a.kernel, kernel_copy)
    env = dict(os.environ)
    if a.cuda_path:
        env["CUDA_HOME"] = a.cuda_path
    entries = []
    for c in cands:
        cd = os.path.join(d, c["name"])
        if os.path.isdir(cd):
            shutil.rmtree(cd)
        os.makedirs(cd)
        opts = pk_options(c, a.arch)
        t0 = time.time()
        em = pkint.pk_emit(kernel_copy, a.arch, cd, variant_options(c), pk=pk_opt, env=env,
                           mlir_out=None if opts is None else os.path.join(cd, "pipelined.mlir"),
                           log=os.path.join(cd, "pk-opt.log"))
        out_mlir = em["argv"][-1]
        e = dict(c)
        e["id"] = c["name"]
        e["pk_opt_options"] = opts
        e["command"] = " ".join(shlex.quote(x) for x in
                                [pkint.rel(pk_opt), em["pass_option"].replace(cd, "<out-dir>"), a.kernel, "-o",
                                 "/dev/null" if out_mlir == os.devnull else "<out-dir>/pipelined.mlir"])
        e["build_seconds"] = round(time.time() - t0, 2)
        cubin = os.path.join(cd, "%s.%s.cubin" % (info["module"], a.arch))
        e["lowering"] = "pk-opt emit=cubin (pk-emit-binaries)"
        if em["rc"] != 0 or not os.path.exists(cubin):
            err = [l for l in (em["stderr"] or "").splitlines() if "error" in l]
            err = err[0] if err else em["stderr"].strip()[-300:]
            err = err.replace(kernel_copy, os.path.basename(kernel_copy))
            fb = None
            if not a.no_fallback_lowering:
                fb = lower_fallback(a, info, opts, pk_opt, kernel_copy, cd, cubin, env)
            if fb is None or fb.get("error"):
                e.update(status="build-failed", error=err)
                if fb:
                    e["fallback_error"] = fb["error"]
                entries.append(e)
                print("build %-24s FAILED: %s" % (c["name"], e["error"]))
                continue
            e["pk_emit_error"] = err
            e["lowering"] = FALLBACK_DESC
            e["command"] = fb["command"]
            e["fallback_ptxas"] = fb.get("ptxas")
            print("build %-24s pk-emit-binaries failed (%s); lowered with the fallback" % (
                c["name"], err.split("error: ", 1)[-1]))
        e["status"] = "built"
        e["cubin"] = e["file"] = os.path.relpath(cubin, d)
        e["format"] = "cubin"
        e["cubin_sha256"] = sha256(cubin)
        ptx = cubin[:-len(".cubin")] + ".ptx"
        if os.path.exists(ptx):
            e["ptx"] = os.path.relpath(ptx, d)
        rep = read_report(os.path.join(cd, "report.json"))
        dyn = 0
        if rep is not None:
            dec = rep.get("decision", {})
            e["pipelined"] = bool(dec.get("pipelined"))
            e["actual_variant"] = dec.get("variant") if e["pipelined"] else "none"
            e["actual_stages"] = dec.get("stages") if e["pipelined"] else 1
            e["reasons"] = dec.get("reasons", [])
            e["trip_count"] = rep.get("trip_count")
            if "stages_auto" in rep:
                e["stages_auto"] = rep["stages_auto"]
            e["ptxas"] = rep.get("ptxas")
            dyn = int((rep.get("ptxas") or {}).get("dynamic_shared_bytes") or 0)
        else:
            e["pipelined"] = False
            e["actual_variant"] = "none"
            e["actual_stages"] = 1
        if opts is not None and os.path.exists(out_mlir):
            m = re.search(r"pk\.dynamic_shared_memory_bytes\s*=\s*(\d+)", open(out_mlir).read())
            if m:
                dyn = max(dyn, int(m.group(1)))
        if em["ptxas"]:
            e["ptxas_remark"] = {k: v for k, v in em["ptxas"].items() if k != "arch"}
        e["dynamic_shared_bytes"] = e["smem"] = dyn
        entries.append(e)
        print("build %-24s %s%s, dyn smem %d, %.1f s" % (
            c["name"], e["actual_variant"],
            "" if not e["pipelined"] else " x%s" % e["actual_stages"], dyn, e["build_seconds"]))
    # identical cubins are measured once
    first = {}
    for e in entries:
        if e["status"] != "built":
            continue
        if e["cubin_sha256"] in first:
            e["same_as"] = first[e["cubin_sha256"]]
        else:
            first[e["cubin_sha256"]] = e["name"]
    # SASS check of each pipelined candidate against the baseline
    base = next((e for e in entries if e["variant"] == "baseline" and e["status"] == "built"), None)
    if sass_check and base:
        for e in entries:
            if e["status"] != "built" or not e.get("pipelined") or e.get("same_as"):
                continue
            # The epilogue computes stages - 1 tiles: pk-sass-check's
            # compute_total expects that many (the register variants: 2).
            sass_stages = sass_check_stages(e)
            e["sass_check_stages"] = sass_stages
            p = subprocess.run([sass_check, os.path.join(d, e["cubin"]), "--baseline",
                                os.path.join(d, base["cubin"]), "--stages", str(sass_stages)],
                               capture_output=True, text=True)
            with open(os.path.join(d, e["name"], "sass-check.log"), "w") as f:
                f.write(p.stdout + p.stderr)
            e["sass_check"] = pkint.sass_check_verdict(p.returncode)
    manifest = pkint.new_manifest(
        "integration/autotune/autotune.py", pk_opt=pk_opt, pk_opt_sha256=sha256(pk_opt),
        kernel_source=a.kernel, kernel_file="kernel.mlir", kernel_sha256=sha256(kernel_copy), arch=a.arch,
        candidates_spec=a.candidates, **info, entries=entries)
    pkint.write_manifest(d, manifest)
    print("manifest: %d candidates (%d built) -> %s" % (
        len(entries), sum(e["status"] == "built" for e in entries), os.path.join(d, "manifest.json")))
    return 0 if all(e["status"] == "built" for e in entries) or a.allow_failures else 1


# ---------------------------------------------------------------------- run

def runner_of(a):
    """--runner, $PK_RUNNER, else pk-runner built into a temporary folder."""
    return a.runner or os.environ.get("PK_RUNNER") or pkint.build_runner(
        os.path.join(tempfile.mkdtemp(), "pk-runner"))


def gpu_env():
    def q(args):
        try:
            return subprocess.run(["nvidia-smi", *args], capture_output=True, text=True,
                                  timeout=30).stdout.strip().splitlines()[0]
        except Exception as ex:  # noqa: BLE001
            return "unavailable (%s)" % ex.__class__.__name__
    return dict(
        gpu_name_driver=q(["--query-gpu=name,driver_version", "--format=csv,noheader"]),
        gpu_state=q(["--query-gpu=clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw",
                     "--format=csv,noheader"]))


def measured(man):
    """The built candidates that are run (identical cubins once), resolved
    (pkint.resolve: the kernel's m, n, k ... filled in)."""
    return [e for e in pkint.entries(man) if e["status"] == "built" and not e.get("same_as")]


def cmd_run(a):
    d = os.path.abspath(a.dir)
    man = pkint.load_manifest(d)
    t_end = time.time() + a.deadline_s if a.deadline_s else None
    runner = runner_of(a)
    check = a.check or ("full" if man["m"] <= 1024 else "rows:64")
    todo = measured(man)
    meas = dict(tool="integration/autotune/autotune.py run", started=now_utc(),
                manifest_created=man.get("created"), kernel=man["kernel"], kind=man["kind"],
                m=man["m"], n=man["n"], k=man["k"], arch=man["arch"], check=check,
                warmup=a.warmup, iters=a.iters, rounds=a.rounds, env=gpu_env(),
                hostname=os.uname().nodename, results={})
    out = os.path.join(d, "measurements.json")
    for e in man["entries"]:
        r = dict(status="skipped" if e["status"] == "built" else e["status"], rounds=[])
        if e.get("same_as"):
            r = dict(status="same-as", same_as=e["same_as"], rounds=[])
        meas["results"][e["name"]] = r
    write_json(out, meas)
    env = pkint.runner_env()
    for rnd in range(a.rounds):
        order = todo if rnd % 2 == 0 else list(reversed(todo))
        for e in order:
            r = meas["results"][e["name"]]
            if t_end and time.time() > t_end:
                r.setdefault("notes", []).append("round %d not run (deadline)" % rnd)
                continue
            if rnd > 0 and r["status"] != "pass":
                continue  # failed or errored candidates are not timed again
            res = pkint.run_entry(runner, d, e, d, "r%d" % rnd, check if rnd == 0 else "none", a.warmup,
                                  a.iters, a.seed + rnd, a.timeout_s, env=env, echo=False)
            rc, txt, j = res["rc"], res["text"], res["json"]
            print(("[%s r%d] " % (e["name"], rnd)) + txt.strip().splitlines()[0] if txt.strip()
                  else "[%s r%d] rc %d" % (e["name"], rnd, rc), flush=True)
            rr = dict(rc=rc, median_ms=j.get("median_ms"), min_ms=j.get("min_ms"),
                      times_ms=j.get("times_ms", []), check=j.get("check"))
            r["rounds"].append(rr)
            if rnd == 0:
                r.update(status=("pass" if rc == 0 and j.get("pass") else
                                 "fail" if rc == 1 else "error"),
                         check=j.get("check"), checked=j.get("checked"),
                         elements_checked=j.get("elements_checked"),
                         mismatches=j.get("mismatches"), unwritten=j.get("unwritten"),
                         max_abs_err=j.get("max_abs_err"), max_rel_err=j.get("max_rel_err"),
                         first_mismatches=j.get("first_mismatches", []),
                         registers=j.get("num_regs"), local_bytes=j.get("local_bytes"),
                         static_shared_bytes=j.get("static_shared_bytes"),
                         dyn_smem=j.get("dyn_smem"), device=j.get("device"),
                         error=j.get("error") or ("" if rc in (0, 1) else txt.strip()[-400:]),
                         command=" ".join(shlex.quote(x) for x in res["argv"]))
            elif rc != 0:
                r["status"] = "error"
                r["error"] = txt.strip()[-400:]
            times = [t for x in r["rounds"] for t in x["times_ms"] if t is not None]
            meds = [x["median_ms"] for x in r["rounds"] if x["median_ms"] is not None]
            if times:
                r["median_ms"] = median(times)
                r["min_ms"] = min(times)
                r["round_medians_ms"] = meds
                r["spread_pct"] = (100.0 * (max(meds) - min(meds)) / min(meds)) if meds else None
                r["rate"] = 2.0 * man["m"] * man["n"] * man["k"] / (r["median_ms"] * 1e6)
                r["rate_unit"] = UNIT[man["kind"]][1]
            write_json(out, meas)
    meas["finished"] = now_utc()
    meas["env_after"] = gpu_env()
    write_json(out, meas)
    bad = [n for n, r in meas["results"].items() if r["status"] in ("fail", "error")]
    print("measurements -> %s%s" % (out, (" (not passing: %s)" % ", ".join(bad)) if bad else ""))
    return 1 if bad and not a.allow_failures else 0


# ----------------------------------------------------------------- sanitize

def cmd_sanitize(a):
    d = os.path.abspath(a.dir)
    man = pkint.load_manifest(d)
    t_end = time.time() + a.deadline_s if a.deadline_s else None
    san = a.sanitizer or pkint.compute_sanitizer()
    if not san or not os.access(san, os.X_OK):
        raise SystemExit("autotune: compute-sanitizer not found")
    runner = runner_of(a)
    tools = a.tools.split(",")
    sel = {"pipelined": lambda e: e.get("pipelined"), "unpipelined": lambda e: not e.get("pipelined"),
           "all": lambda e: True}[a.select]
    ents = [e for e in measured(man) if sel(e)]
    out = os.path.join(d, "sanitizers.json")
    res = dict(tool="integration/autotune/autotune.py sanitize", started=now_utc(),
               sanitizer=san, m=man["m"], n=man["n"], k=man["k"], results={})
    if os.path.exists(out):  # earlier invocations (other tools / candidates) are kept
        old = load_json(out)
        res["results"] = old.get("results", {})
        res["started"] = old.get("started", res["started"])

    def record(r):
        res["results"]["%s:%s" % (r["tool"], r["id"])] = {
            k: v for k, v in r.items() if k not in ("tool", "id", "timeout_s")}
        write_json(out, res)

    pkint.sanitize(san, runner, d, [(t, e) for t in tools for e in ents], d, parallel=a.jobs, seed=5000,
                   timeout=a.timeout_s, deadline=t_end, on_result=record)
    res["finished"] = now_utc()
    write_json(out, res)
    bad = [k for k, r in res["results"].items() if r["status"] != "clean"]
    print("sanitizers -> %s: %d clean, %d not clean%s" % (out, len(res["results"]) - len(bad), len(bad),
                                                       (" (%s)" % ", ".join(bad)) if bad else ""))
    return 1 if bad and not a.allow_failures else 0


# ------------------------------------------------------------------- decide

def fmt_rate(rate_g, kind):
    return "%.1f" % (rate_g / 1000.0) if rate_g else "-"


def decide(man, meas, san=None, noise_pct=0.5):
    """Pure function: the decision object from a manifest and measurements."""
    kind = man["kind"]
    ents = {e["name"]: e for e in man["entries"]}
    res = meas.get("results", {})

    def result_of(name):
        r = res.get(name, {"status": "not run"})
        if r.get("status") == "same-as":
            base = res.get(r["same_as"], {"status": "not run"})
            return dict(base, same_as=r["same_as"])
        return r

    base_ms = None
    b = next((e for e in man["entries"] if e["variant"] == "baseline"), None)
    if b:
        rb = result_of(b["name"])
        if rb.get("status") == "pass" and rb.get("median_ms"):
            base_ms = rb["median_ms"]
    rows = []
    for e in man["entries"]:
        r = result_of(e["name"])
        row = dict(name=e["name"], requested_variant=e["variant"], requested_stages=e.get("stages"),
                   schedule=e.get("schedule"), status=r.get("status", "not run"),
                   build_status=e["status"], pipelined=e.get("pipelined"),
                   actual_variant=e.get("actual_variant"), actual_stages=e.get("actual_stages"),
                   same_as=r.get("same_as") or e.get("same_as"),
                   median_ms=r.get("median_ms"), min_ms=r.get("min_ms"),
                   rate=r.get("rate"), spread_pct=r.get("spread_pct"),
                   round_medians_ms=r.get("round_medians_ms"),
                   check=r.get("check"), checked=r.get("checked"),
                   max_abs_err=r.get("max_abs_err"), mismatches=r.get("mismatches"),
                   registers=r.get("registers") if r.get("registers") is not None
                   else (e.get("ptxas") or {}).get("registers"),
                   dynamic_shared_bytes=e.get("dynamic_shared_bytes"),
                   sass_check=e.get("sass_check"), pk_opt_options=e.get("pk_opt_options"),
                   command=e.get("command"), error=e.get("error") or r.get("error"))
        if base_ms and row["median_ms"]:
            row["speedup_vs_baseline"] = base_ms / row["median_ms"]
        if san:
            row["sanitizers"] = {k.split(":", 1)[0]: v["status"]
                                 for k, v in san.get("results", {}).items()
                                 if k.split(":", 1)[1] in (e["name"], row["same_as"])}
        rows.append(row)
    for r in rows:
        bad = sorted(t for t, v in (r.get("sanitizers") or {}).items() if v not in ("clean",)
                     and not v.startswith("skipped"))
        if bad:
            r["excluded"] = "sanitizer %s: %s" % (", ".join(bad), ", ".join(
                r["sanitizers"][t] for t in bad))
    # eligible: ran, passed a real check, no sanitizer finding; identical cubins
    # (same_as) share their original's rank
    correct = [r for r in rows if r["status"] == "pass" and r["checked"] and r["median_ms"]
               and not r.get("excluded") and not r.get("same_as")]
    correct.sort(key=lambda r: r["median_ms"])
    for i, r in enumerate(correct):
        r["rank"] = i + 1
    best = correct[0] if correct else None
    if best:
        for r in correct:
            r["vs_best_pct"] = 100.0 * (r["median_ms"] / best["median_ms"] - 1.0)
        ranked = {r["name"]: r for r in correct}
        for r in rows:
            if r.get("same_as") in ranked and not r.get("excluded"):
                r["rank"] = ranked[r["same_as"]]["rank"]
                r["vs_best_pct"] = ranked[r["same_as"]]["vs_best_pct"]
    dec = dict(kernel=man["kernel"], kind=kind, arch=man["arch"], m=man["m"], n=man["n"],
               k=man["k"], grid=man["grid"], block=man["block"],
               kernel_source=man.get("kernel_source"), kernel_sha256=man.get("kernel_sha256"),
               measured=meas.get("started"), env=meas.get("env"), check=meas.get("check"),
               warmup=meas.get("warmup"), iters=meas.get("iters"), rounds=meas.get("rounds"),
               noise_pct=noise_pct, candidates=rows)
    if not best:
        dec["winner"] = None
        dec["summary"] = "no candidate ran correctly"
        return dec
    # ties: candidates within the noise of the best
    def tol(r):
        return max(noise_pct, r.get("spread_pct") or 0.0, best.get("spread_pct") or 0.0)
    ties = [r["name"] for r in correct[1:] if r["vs_best_pct"] <= tol(r)]
    w = dict(name=best["name"], variant=best["actual_variant"], stages=best["actual_stages"],
             schedule=best["schedule"], median_ms=best["median_ms"], rate=best["rate"],
             speedup_vs_baseline=best.get("speedup_vs_baseline"),
             pk_opt_options=best["pk_opt_options"],
             dynamic_shared_bytes=best["dynamic_shared_bytes"],
             within_noise_of_best=ties)
    if best["requested_variant"] == "baseline":
        w["reproduce"] = ("pk-opt --pk-emit-binaries='arch=%s out-dir=<dir> bare-ptr=1' %s "
                          "-o /dev/null   (the unpipelined kernel)" % (man["arch"], man.get("kernel_source")))
    else:
        w["reproduce"] = ("pk-opt --pipeline-kernel='%s emit=cubin out-dir=<dir> bare-ptr=1' %s "
                          "-o <dir>/pipelined.mlir" % (best["pk_opt_options"], man.get("kernel_source")))
    w["launch"] = dict(grid=man["grid"], block=man["block"],
                       dynamic_shared_bytes=best["dynamic_shared_bytes"])
    dec["winner"] = w
    model = next((r for r in rows if r["requested_variant"] == "auto"), None)
    if model:
        mres = next((r for r in correct if r["name"] in (model["name"], model["same_as"])), None)
        me = ents[model["name"]]
        md = dict(name=model["name"], variant=model["actual_variant"], stages=model["actual_stages"],
                  pipelined=model["pipelined"], same_as=model["same_as"],
                  stages_auto=me.get("stages_auto"), reasons=me.get("reasons"),
                  status=model["status"])
        if mres:
            md.update(median_ms=mres["median_ms"], rank=mres["rank"], vs_best_pct=mres["vs_best_pct"])
            md["agrees"] = (mres["name"] == best["name"] or best["name"] == model["same_as"]
                            or mres["median_ms"] == best["median_ms"])
            md["within_noise"] = md["agrees"] or mres["name"] in ties
        dec["model"] = md
    dec["summary"] = "%s: %s (%s %s) %.4f ms" % (
        man["kernel"], best["name"], fmt_rate(best["rate"], kind), UNIT[kind][0], best["median_ms"])
    return dec


def decision_md(dec, man):
    kind = dec["kind"]
    u = UNIT[kind][0]
    L = []
    L.append("# Autotune decision: %s (%s, %dx%dx%d, %s)" % (
        dec["kernel"], kind.upper(), dec["m"], dec["n"], dec["k"], dec["arch"]))
    L.append("")
    env = dec.get("env") or {}
    L.append("- Kernel: `%s` (sha256 %s)" % (dec.get("kernel_source"), (dec.get("kernel_sha256") or "")[:12]))
    L.append("- Measured: %s on %s; state before: %s" % (
        dec.get("measured"), env.get("gpu_name_driver", "?"), env.get("gpu_state", "?")))
    L.append("- Launch: grid %s, block %s (known_grid_size / known_block_size)" % (dec["grid"], dec["block"]))
    L.append("- Method: pk-runner, %s check in the first round; %s rounds (alternating order) x "
             "(%s warm-up + %s timed launches, one CUDA event pair each); median of all timed launches; "
             "rate = 2*M*N*K / median. Ties: within max(%.1f%%, the round-to-round spread)." % (
                 dec.get("check"), dec.get("rounds"), dec.get("warmup"), dec.get("iters"),
                 dec["noise_pct"]))
    L.append("")
    w = dec.get("winner")
    if not w:
        L.append("**No candidate ran correctly.**")
    else:
        L.append("**Winner: `%s`** — %s, %s stage(s): %.4f ms, %s %s%s." % (
            w["name"], w["variant"], w["stages"], w["median_ms"], fmt_rate(w["rate"], kind), u,
            (", %.2fx the baseline" % w["speedup_vs_baseline"]) if w.get("speedup_vs_baseline") else ""))
        if w["within_noise_of_best"]:
            L.append("Within the noise of the winner: %s." % ", ".join("`%s`" % x for x in w["within_noise_of_best"]))
        L.append("")
        L.append("Reproduce: `%s`; launch grid %s, block %s, %d bytes of dynamic shared memory." % (
            w["reproduce"], w["launch"]["grid"], w["launch"]["block"], w["launch"]["dynamic_shared_bytes"]))
        L.append("")
        md = dec.get("model")
        if md:
            sa = md.get("stages_auto") or {}
            L.append("**pk's model** (`variant=auto stages=auto`): %s%s%s." % (
                md["variant"] if md.get("pipelined") else "not pipelined",
                (", %s stage(s)" % md["stages"]) if md.get("pipelined") else "",
                (" (same cubin as `%s`)" % md["same_as"]) if md.get("same_as") else ""))
            if sa:
                L.append("Model numbers: ~%s cycles of compute per tile against ~%s cycles of latency -> "
                         "%s stage(s) by latency, budget allows %s." % (
                             sa.get("compute_cycles_per_tile"), sa.get("latency_cycles"),
                             sa.get("latency_stages"), sa.get("budget_stages")))
            if "rank" in md:
                L.append("Measured: rank %d of the correct candidates, %+.1f%% against the winner: %s." % (
                    md["rank"], md["vs_best_pct"],
                    "the model picked the winner" if md["agrees"] else
                    "within noise of the winner" if md["within_noise"] else
                    "the model's choice is slower than the measured best"))
            else:
                L.append("Measured: %s." % md["status"])
            L.append("")
    L.append("| candidate | requested | built as | median ms | %s | vs baseline | vs best | rounds spread | check | max abs err | regs | dyn smem | SASS check%s |" % (
        u, " | sanitizers" if any(r.get("sanitizers") for r in dec["candidates"]) else ""))
    L.append("|---|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---%s|" % (
        "|---" if any(r.get("sanitizers") for r in dec["candidates"]) else ""))
    order = sorted(dec["candidates"], key=lambda r: (r.get("rank") is None, r.get("rank") or 0,
                                                      bool(r.get("same_as"))))
    for r in order:
        req = r["requested_variant"] + ("" if r["requested_stages"] is None else " s=%s" % r["requested_stages"]) + \
            ("" if r["schedule"] in (None, "auto") else " " + r["schedule"])
        if r["build_status"] != "built":
            built = "build failed: %s" % (r.get("error") or "")[:80]
        elif r["pipelined"]:
            built = "%s x%s" % (r["actual_variant"], r["actual_stages"])
        else:
            built = "not pipelined"
        if r.get("same_as"):
            built += " (= %s)" % r["same_as"]
        st = r["status"]
        chk = "%s %s" % ("PASS" if st == "pass" else st.upper(), r.get("check") or "")
        if r.get("excluded"):
            chk += " (excluded: %s)" % r["excluded"]
        sanc = ""
        if any(x.get("sanitizers") for x in dec["candidates"]):
            s = r.get("sanitizers") or {}
            sanc = " | " + (", ".join("%s %s" % (k, v) for k, v in sorted(s.items())) or "-")
        L.append("| %s%s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s%s |" % (
            "**%s**" % r["name"] if w and r["name"] == w["name"] else r["name"],
            "" if r.get("rank") is None else " (#%d)" % r["rank"], req, built,
            "%.4f" % r["median_ms"] if r.get("median_ms") else "-",
            fmt_rate(r.get("rate"), kind),
            "%.2fx" % r["speedup_vs_baseline"] if r.get("speedup_vs_baseline") else "-",
            "%+.1f%%" % r["vs_best_pct"] if r.get("vs_best_pct") is not None else "-",
            "%.2f%%" % r["spread_pct"] if r.get("spread_pct") is not None else "-",
            chk.strip(), "%.3g" % r["max_abs_err"] if r.get("max_abs_err") is not None else "-",
            r.get("registers") if r.get("registers") is not None else "-",
            r.get("dynamic_shared_bytes") if r.get("dynamic_shared_bytes") is not None else "-",
            r.get("sass_check") or "-", sanc))
    L.append("")
    L.append("pk-opt options per candidate (plus `emit=cubin out-dir=<dir> bare-ptr=1`):")
    L.append("")
    for r in dec["candidates"]:
        L.append("- `%s`: %s" % (r["name"], "`--pipeline-kernel='%s'`" % r["pk_opt_options"]
                                   if r.get("pk_opt_options") else "`--pk-emit-binaries` (unpipelined)"))
    return "\n".join(L) + "\n"


def cmd_decide(a):
    d = os.path.abspath(a.dir)
    man = load_json(os.path.join(d, "manifest.json"))
    mp = a.measurements or os.path.join(d, "measurements.json")
    meas = load_json(mp)
    sp = a.sanitizers or os.path.join(d, "sanitizers.json")
    san = load_json(sp) if os.path.exists(sp) else None
    if a.sanitizers and san is None:
        print("autotune: no %s; deciding without sanitizer results" % sp)
    dec = decide(man, meas, san, a.noise_pct)
    out = a.out or d
    os.makedirs(out, exist_ok=True)
    write_json(os.path.join(out, "decision.json"), dec)
    with open(os.path.join(out, "decision.md"), "w") as f:
        f.write(decision_md(dec, man))
    print(dec["summary"])
    if dec.get("model") and "rank" in dec["model"]:
        m = dec["model"]
        print("model: %s x%s, rank %d, %+.1f%% vs best" % (m["variant"], m["stages"], m["rank"], m["vs_best_pct"]))
    return 0 if dec["winner"] else 1


# --------------------------------------------------------------------- main

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="compile the candidates (dev machine)")
    b.add_argument("--kernel", required=True)
    b.add_argument("--arch", default="sm_90")
    b.add_argument("--candidates", default="auto")
    b.add_argument("--stages", default="2,3,4", help="cp-async stage counts of --candidates auto")
    b.add_argument("--dir", required=True)
    b.add_argument("--pk-opt", default=None)
    b.add_argument("--sass-check", default=None)
    b.add_argument("--no-sass-check", action="store_true")
    b.add_argument("--cuda-path", default=None)
    b.add_argument("--mlir-opt", default=None, help="LLVM 22 mlir-opt for the fallback lowering")
    b.add_argument("--no-fallback-lowering", action="store_true",
                   help="do not lower candidates that pk-emit-binaries fails on with mlir-opt")
    b.add_argument("--allow-failures", action="store_true",
                   help="exit 0 even if a candidate fails to build")
    r = sub.add_parser("run", help="measure the candidates (GPU machine)")
    r.add_argument("--dir", required=True)
    r.add_argument("--runner", default=None, help="pk-runner binary (default: $PK_RUNNER, else build it)")
    r.add_argument("--check", default=None, help="full | rows:N (default full up to 1024 rows, else rows:64)")
    r.add_argument("--warmup", type=int, default=5)
    r.add_argument("--iters", type=int, default=20)
    r.add_argument("--rounds", type=int, default=3)
    r.add_argument("--seed", type=int, default=20261129)
    r.add_argument("--timeout-s", type=int, default=120)
    r.add_argument("--deadline-s", type=float, default=None, help="start no run after this many seconds")
    r.add_argument("--allow-failures", action="store_true")
    s = sub.add_parser("sanitize", help="compute-sanitizer on the candidates (GPU machine)")
    s.add_argument("--dir", required=True)
    s.add_argument("--tools", default="memcheck,racecheck,synccheck")
    s.add_argument("--select", choices=["pipelined", "unpipelined", "all"], default="pipelined",
                   help="which candidates (default: the pipelined ones)")
    s.add_argument("--runner", default=None)
    s.add_argument("--sanitizer", default=None)
    s.add_argument("--jobs", type=int, default=4)
    s.add_argument("--timeout-s", type=int, default=120)
    s.add_argument("--deadline-s", type=float, default=None)
    s.add_argument("--allow-failures", action="store_true")
    dd = sub.add_parser("decide", help="pick the fastest correct candidate (anywhere)")
    dd.add_argument("--dir", required=True)
    dd.add_argument("--measurements", default=None)
    dd.add_argument("--out", default=None, help="where decision.{json,md} go (default --dir)")
    dd.add_argument("--noise-pct", type=float, default=0.5)
    dd.add_argument("--sanitizers", default=None,
                    help="sanitizers.json whose candidate names apply here (default D/sanitizers.json; "
                         "e.g. the 512^3 set's for a 4096^3 set): a finding excludes the candidate")
    a = p.parse_args(argv)
    return {"build": cmd_build, "run": cmd_run, "sanitize": cmd_sanitize, "decide": cmd_decide}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
