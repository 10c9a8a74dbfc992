"""The run step (GPU machine: python3 >= 3.8, the CUDA driver; no MLIR):
the plan of each spec of a bundle, step by step, over its manifest.

    RESULTS/NAME/runs/TAG.ID.json         pk-runner's JSON (pkint.run)
    RESULTS/NAME/san/TOOL.ID.{log,json,status}   compute-sanitizer (pkint.sanitize)
    RESULTS/NAME/sass/ID.sass             cuobjdump (step sass)
    RESULTS/NAME/dumps/ID.bin             raw C (step dump)
    RESULTS/NAME/vendor-SIZE.json         cuBLAS / Triton (step vendor: vendor_bench.py)
    RESULTS/NAME/{env.txt,run.log,manifest.json,plan.json,spec.toml}
    RESULTS/NAME/results.md (+ results.json for collect "results")   collect.py

Steps (spec.STEP_DEFAULTS has each one's presets): check / bench / run
(pkint.run with TAG, WHERE, CHECK, WARMUP, ITERS, SEED or SEED_BASE),
vendor (SIZES, default every entry size but 512), sanitize (JOBS
'TOOL[,TOOL]@FILTER,...', PARALLEL, all started before the plan's
deadline_s after the spec's start), sass (WHERE), dump (WHERE). --where
adds filters to every step (e.g. variant~mif to narrow a re-run).
"""

import os
import shutil
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
INTEG = os.path.dirname(HERE)
sys.path.insert(0, INTEG)
sys.path.insert(0, HERE)
import pkint  # noqa: E402
import collect  # noqa: E402


class Tee:
    def __init__(self, path, stream):
        self.f = open(path, "a")
        self.stream = stream

    def write(self, s):
        self.stream.write(s)
        self.f.write(s)
        self.f.flush()

    def flush(self):
        self.stream.flush()
        self.f.flush()


def sh(cmd):
    try:
        return subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60).stdout.strip()
    except Exception as ex:  # noqa: BLE001 (a record, not a check)
        return "(%s)" % ex


def write_env(path, command, sanitizer):
    cuda = pkint.cuda_home()
    lines = ["date_utc=%s" % pkint.now_utc(), "command=%s" % command,
             "gpu_csv=%s" % sh("nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1"),
             "gpu_state_before=%s" % sh("nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem,"
                                        "temperature.gpu,power.draw,utilization.gpu --format=csv,noheader | head -1"),
             "nvcc=%s" % sh("'%s/bin/nvcc' --version 2>/dev/null | tail -1" % cuda),
             "sanitizer=%s" % (sh("'%s' --version | grep -i version | head -1" % sanitizer) if sanitizer else ""),
             "kernel=%s" % sh("uname -r"), "cpus=%d" % (os.cpu_count() or 0)]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines), flush=True)


def find_runner(bundle, results, given=None):
    """--runner / $PK_RUNNER, else the bundle's prebuilt pk-runner if it
    loads here (usage exits 2), else one built from tools/runner/pk-runner.cpp."""
    given = given or os.environ.get("PK_RUNNER")
    if given:  # the caller's: used as it is
        return given
    for r in [os.path.join(bundle, "pk-runner")]:
        if os.access(r, os.X_OK):
            try:
                if subprocess.run([r, "--help"], capture_output=True, env=pkint.runner_env(), timeout=60).returncode == 2:
                    return r
            except (OSError, subprocess.SubprocessError):
                pass
    return pkint.build_runner(os.path.join(results, "pk-runner"), verbose=True)


def vendor_sizes(ents, step):
    if step.get("sizes"):
        return step["sizes"]
    return sorted({int(e["m"]) for e in ents if int(e["m"]) == int(e["n"]) == int(e["k"]) and int(e["m"]) != 512})


def run_step(step, d, res, man, runner, sanitizer, deadline, where):
    do = step["do"]
    filt = list(step.get("where", [])) + list(where)
    if do in ("check", "bench", "run"):
        ents = pkint.entries(man, filt)
        print("== %s (%s): %d entries, check %s, warmup %s, iters %s" % (
            do, step["tag"], len(ents), step.get("check", "auto"), step["warmup"], step["iters"]), flush=True)
        r = pkint.run(runner, d, ents, res, step["tag"], step.get("check"), step["warmup"], step["iters"],
                      step.get("seed"), step.get("seed_base"), step.get("timeout_s"))
        return sum(x["rc"] != 0 for x in r)
    if do == "vendor":
        bad = 0
        # cubes (sizes) and, with `shapes`, M x N x K problems (LLM layers)
        problems = [(str(s), ["--size", str(s)]) for s in vendor_sizes(pkint.entries(man, filt), step)]
        if step.get("shapes"):
            problems = [("x".join(map(str, sh)), ["--shape", ",".join(map(str, sh))]) for sh in step["shapes"]]
        for s, size_args in problems:
            print("== vendor (cuBLAS, Triton) at %s" % (s + "^3" if "x" not in s else s), flush=True)
            # a second vendor step (e.g. after pk's timings) keeps its own file
            name = "vendor-%s.json" % s if step.get("tag", "run") == "run" else "vendor-%s-%s.json" % (step["tag"], s)
            argv = [sys.executable, os.path.join(INTEG, "vendor_bench.py")] + size_args + [
                    "--json", os.path.join(res, name)] + [str(a) for a in step.get("args", [])]
            try:
                p = subprocess.run(argv, capture_output=True, text=True, timeout=step["timeout_s"])
                print(p.stdout + p.stderr, end="", flush=True)
                bad += p.returncode != 0
            except subprocess.TimeoutExpired:
                print("vendor %s: timeout after %d s" % (s, step["timeout_s"]), flush=True)
                bad += 1
        return bad
    if do == "sanitize":
        if not sanitizer:
            print("== compute-sanitizer not found: sanitizers skipped", flush=True)
            return 0
        jobs = []
        for spec in step["jobs"]:
            tools, _, f = spec.partition("@")
            ents = pkint.entries(man, [x for x in f.split(",") if x] + list(where))
            for t in tools.split(","):
                jobs += [(t, e) for e in ents]
        dl = min(deadline, time.time() + step["deadline_s"]) if step.get("deadline_s") else deadline
        print("== sanitize: %d jobs, %d at a time, timeout %d s each, none after +%d s" % (
            len(jobs), step["parallel"], step["timeout_s"], dl - time.time()), flush=True)
        r = pkint.sanitize(sanitizer, runner, d, jobs, res, step["parallel"], step.get("seed"),
                           step.get("seed_base", 5000), step["timeout_s"], dl, step.get("min_left_s", 15))
        return sum(x["status"] not in ("clean",) and not x["status"].startswith("skipped") for x in r)
    if do == "sass":
        argv = ["sass", "--dir", d, "--out", os.path.join(res, "sass"), "--name", step.get("name", "{id}")]
        for w in filt:
            argv += ["--where", w]
        return pkint.main(argv)
    if do == "dump":
        os.makedirs(os.path.join(res, "dumps"), exist_ok=True)
        for e in pkint.entries(man, filt):
            argv = pkint.runner_argv(runner, d, e, "none", 0, 1, step.get("seed", 1),
                                     dump=os.path.join(res, "dumps", e["id"] + ".bin"))
            try:
                subprocess.run(argv, capture_output=True, env=pkint.runner_env(), timeout=step["timeout_s"])
            except subprocess.TimeoutExpired:
                print("dump %s: timeout" % e["id"], flush=True)
        print("== dumps: %d files" % len(os.listdir(os.path.join(res, "dumps"))), flush=True)
        return 0
    if do.startswith("tune"):
        return tune_step(step, d, res, runner, sanitizer, deadline)
    raise SystemExit("pk-bundle run: unknown step %r" % do)


TUNE_FILES = (".json", ".md", ".log", ".txt")


def tune_step(step, d, res, runner, sanitizer, deadline):
    """autotune.py run / sanitize / decide on the [[tune]] sets the step's
    `sets` regexes select (default all), each under min(timeout_s, time
    left); the sets' JSON / markdown files are copied to RESULTS/NAME/tune/."""
    import re
    at = os.path.join(INTEG, "autotune", "autotune.py")
    root = os.path.join(d, "tune")
    sets = sorted(os.listdir(root)) if os.path.isdir(root) else []
    if step.get("sets"):
        sets = [s for s in sets if any(re.fullmatch(p, s) for p in step["sets"])]
    bad = 0
    for s in sets:
        sd = os.path.join(root, s)
        left = deadline - time.time()
        if step["do"] != "tune-decide" and left < 10:
            print("== SKIP %s %s (deadline)" % (step["do"], s), flush=True)
            continue
        if step["do"] == "tune":
            argv = ["run", "--dir", sd, "--runner", runner, "--rounds", str(step["rounds"]), "--warmup",
                    str(step["warmup"]), "--iters", str(step["iters"]), "--deadline-s", str(int(left) - 5),
                    "--allow-failures"] + (["--check", step["check"]] if step.get("check") else [])
        elif step["do"] == "tune-sanitize":
            if not sanitizer:
                print("== compute-sanitizer not found: %s skipped" % s, flush=True)
                continue
            argv = ["sanitize", "--dir", sd, "--runner", runner, "--sanitizer", sanitizer, "--jobs",
                    str(step["parallel"]), "--tools", step["tools"], "--select", step["select"],
                    "--deadline-s", str(int(left) - 5), "--allow-failures"]
        else:
            argv = ["decide", "--dir", sd]
            if step.get("sanitizers_from"):
                argv += ["--sanitizers", os.path.join(root, step["sanitizers_from"], "sanitizers.json")]
        tmo = max(10, min(step["timeout_s"], left)) if step["do"] != "tune-decide" else step["timeout_s"]
        print("== %s %s (timeout %d s)" % (step["do"], s, tmo), flush=True)
        try:
            p = subprocess.run([sys.executable, at] + argv, capture_output=True, text=True, timeout=tmo)
            print(p.stdout + p.stderr, end="", flush=True)
            bad += p.returncode != 0
        except subprocess.TimeoutExpired:
            print("== %s %s: timeout after %d s" % (step["do"], s, tmo), flush=True)
            bad += 1
        out = os.path.join(res, "tune", s)
        os.makedirs(out, exist_ok=True)
        for f in os.listdir(sd):
            if f.endswith(TUNE_FILES) and os.path.isfile(os.path.join(sd, f)):
                shutil.copyfile(os.path.join(sd, f), os.path.join(out, f))
    return bad


def run_spec(bundle, name, results, runner, sanitizer, where, command):
    t0 = time.time()
    d = os.path.join(bundle, name)
    res = os.path.join(results, name)
    os.makedirs(res, exist_ok=True)
    for f in ("manifest.json", "plan.json", "spec.toml"):
        shutil.copyfile(os.path.join(d, f), os.path.join(res, f))
    plan = pkint.load_json(os.path.join(d, "plan.json"))
    man = pkint.load_manifest(d)
    old = sys.stdout
    sys.stdout = Tee(os.path.join(res, "run.log"), old)
    try:
        print("== pk-bundle run %s: %d entries, %d steps, deadline +%d s" % (
            name, len(man["entries"]), len(plan["steps"]), plan["deadline_s"]), flush=True)
        write_env(os.path.join(res, "env.txt"), command, sanitizer)
        deadline = t0 + plan["deadline_s"]
        bad = 0
        for step in plan["steps"]:
            n = run_step(step, d, res, man, runner, sanitizer, deadline, where)
            print("== %s done at +%d s (%d not passing)" % (step["do"], time.time() - t0, n or 0), flush=True)
            bad += n or 0
            collect.collect(res)  # after every step: a cut-off run still leaves a table
        with open(os.path.join(res, "env.txt"), "a") as f:
            f.write("total_seconds=%d\n" % (time.time() - t0))
        collect.collect(res)
        print(open(os.path.join(res, "results.md")).read(), flush=True)
        print("== %s done in %d s (%d not passing)" % (name, time.time() - t0, bad), flush=True)
    finally:
        sys.stdout = old
    return bad


def run(bundle, results, only=(), where=(), runner=None, tar=False, command=""):
    bundle = os.path.abspath(bundle)
    results = os.path.abspath(results)
    os.makedirs(results, exist_ok=True)
    info = pkint.load_json(os.path.join(bundle, "bundle.json"))
    names = [n for n in info["specs"] if not only or n in only]
    if not names:
        raise SystemExit("pk-bundle run: none of %s in this bundle (%s)" % (", ".join(only), ", ".join(info["specs"])))
    runner = find_runner(bundle, results, runner)
    sanitizer = pkint.compute_sanitizer()
    bad = 0
    for n in names:
        bad += run_spec(bundle, n, results, runner, sanitizer, where, command)
    collect.index(results, names)
    if tar:
        path = os.path.join(results, "results.tar")
        with tarfile.open(path, "w") as t:
            for n in names:
                t.add(os.path.join(results, n), arcname=n)
        print("results tar: %s" % path)
    return 1 if bad else 0
