#!/usr/bin/env python3
"""pkint_run: the artefact and run side of integration/pkint.py (python3
standard library only; import pkint, which re-exports every name here):
pk-runner (build_runner(), runner_env(), default_check(), tma_spec(),
runner_argv()), the artefact directory's manifest.json (FORMAT, ENTRY_KEYS,
new_manifest(), write_manifest(), load_manifest(), resolve(), entries(),
parse_filter(); the format is described in pkint.py's docstring) and the run
side over manifest entries (run_entry() / run(), sanitize_one() / sanitize(),
parse_sanitizer(), san_zero(), read_san_status()). Uses pkint_tools."""

import concurrent.futures
import os
import re
import subprocess
import sys
import time

from pkint_tools import HERE, BuildError, cuda_home, git, load_json, now_utc, write_json

FORMAT = "pk-artifacts/1"
ENTRY_KEYS = ("id", "file", "format", "arch", "kind", "kernel", "m", "n", "k", "bm", "bn",
              "threads", "smem")


# ---------------------------------------------------------------- runner

def build_runner(out, cuda=None, log=None, verbose=False):
    """pk-runner from integration/runner/pk-runner.cpp: g++ against libcuda
    (the toolkit's stub is enough to link), else nvcc. Returns out."""
    cuda = cuda or cuda_home()
    src = os.path.join(HERE, "runner", "pk-runner.cpp")
    lib = os.path.join(cuda, "lib64")
    tries = [["g++", "-O2", "-std=c++17", src, "-I" + os.path.join(cuda, "include"), "-L" + lib,
              "-L" + os.path.join(lib, "stubs"), "-lcuda", "-lpthread", "-o", out],
             [os.path.join(cuda, "bin", "nvcc"), "-O2", "-std=c++17", src, "-lcuda", "-o", out]]
    msgs, built = [], None
    for t in tries:
        try:
            p = subprocess.run(t, capture_output=True, text=True)
        except OSError as ex:
            msgs.append("%s: %s" % (t[0], ex))
            continue
        msgs.append("$ %s\n%s" % (" ".join(t), p.stdout + p.stderr))
        if p.returncode == 0:
            built = os.path.basename(t[0])
            break
    if log:
        with open(log, "w") as f:
            f.write("\n".join(msgs))
    if not built:
        raise BuildError("cannot build pk-runner (g++ / nvcc with libcuda):\n" + "\n".join(msgs)[-2000:])
    if verbose:
        print("pkint: built pk-runner with %s (%s)" % (built, cuda), file=sys.stderr, flush=True)
    return out


def runner_env():
    """The environment for pk-runner: the toolkit's libcuda stub must never
    shadow the real driver at run time."""
    env = dict(os.environ)
    if env.get("LD_LIBRARY_PATH"):
        env["LD_LIBRARY_PATH"] = ":".join(p for p in env["LD_LIBRARY_PATH"].split(":") if "/stubs" not in p)
    return env


def default_check(e):
    return e.get("check") or ("full" if int(e["m"]) <= 1024 else "rows:64")


def tma_spec(t):
    """pk-runner's --tma value for one manifest "tma" item
    {"arg": "A"|"B"|"C", "box": [inner, outer], "swizzle": 128}."""
    box = t["box"]
    if t.get("arg") not in ("A", "B", "C") or len(box) != 2:
        raise BuildError("bad tma item %r: arg A, B or C, box [inner, outer]" % (t,))
    return "%s:%dx%d:%d" % (t["arg"], box[0], box[1], t.get("swizzle", 128))


def runner_argv(runner, art_dir, e, check, warmup, iters, seed, json_out=None, label=None, dump=None):
    """pk-runner's command line for a resolved manifest entry (dump: write C
    there, raw, for a differential comparison)."""
    argv = [runner, "--kind", e["kind"], "--module", os.path.join(art_dir, e["file"]),
            "--kernel", e["kernel"], "--m", str(e["m"]), "--n", str(e["n"]), "--k", str(e["k"]),
            "--bm", str(e.get("bm", 128)), "--bn", str(e.get("bn", 128)),
            "--threads", str(e.get("threads", 256)), "--smem", str(e.get("smem") or 0),
            "--check", check, "--warmup", str(warmup), "--iters", str(iters), "--seed", str(seed)]
    if e.get("b_layout"):
        argv += ["--b-layout", e["b_layout"]]
    if e.get("grid"):
        argv += ["--grid", str(e["grid"])]
    if e.get("b_int8"):
        argv += ["--b-int8"]
    if e.get("c_type"):
        argv += ["--c-type", e["c_type"]]
    for t in e.get("tma") or []:
        argv += ["--tma", tma_spec(t)]
    if label:
        argv += ["--label", label]
    if json_out:
        argv += ["--json", json_out]
    if dump:
        argv += ["--dump", dump]
    return argv


# ------------------------------------------------------------- manifests

def new_manifest(tool, **fields):
    man = dict(format=FORMAT, tool=tool, created=now_utc(), git_commit=git("rev-parse", "HEAD"),
               git_dirty=bool(git("status", "--porcelain")))
    man.update(fields)
    man.setdefault("entries", [])
    return man


def write_manifest(art_dir, man):
    ids = [e["id"] for e in man["entries"]]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise BuildError("duplicate entry ids: %s" % ", ".join(dup))
    write_json(os.path.join(art_dir, "manifest.json"), man)


def load_manifest(art_dir):
    return load_json(os.path.join(art_dir, "manifest.json"))


def resolve(man, e):
    """An entry with the manifest-level defaults filled in."""
    r = {k: man[k] for k in ENTRY_KEYS if k in man and k != "id"}
    r.update(e)
    return r


def entries(man, where=()):
    """The resolved entries (with their manifest index as "index") matching
    every filter of `where`; entries without a file (not built) are left out."""
    tests = [parse_filter(w) for w in where]
    out = []
    for i, e in enumerate(man["entries"]):
        if not e.get("file"):
            continue
        r = resolve(man, e)
        r["index"] = i
        if all(t(r) for t in tests):
            out.append(r)
    return out


def parse_filter(w):
    m = re.match(r"^([\w.-]+)(!=|=|~)(.*)$", w)
    if not m:
        raise SystemExit("pkint: bad filter %r (K=V, K!=V or K~REGEX)" % w)
    k, op, v = m.groups()
    if op == "=":
        return lambda e: str(e.get(k)) == v
    if op == "!=":
        return lambda e: str(e.get(k)) != v
    rx = re.compile(v)
    return lambda e: bool(rx.search(str(e.get(k))))


# -------------------------------------------------------------- run side

def run_entry(runner, art_dir, e, out_dir, tag, check=None, warmup=3, iters=20, seed=1,
              timeout=None, env=None, echo=True):
    """One pk-runner run of a resolved entry -> OUT/runs/TAG.ID.json. The
    check: the entry's own "check" if it has one (e.g. none: a timing-only
    kernel), else `check`, else full up to 1024 rows and rows:64 above.
    Returns dict(rc, text, json, argv); echoes the runner's output lines
    prefixed with [TAG ID]."""
    os.makedirs(os.path.join(out_dir, "runs"), exist_ok=True)
    jo = os.path.join(out_dir, "runs", "%s.%s.json" % (tag, e["id"]))
    if os.path.exists(jo):
        os.remove(jo)
    argv = runner_argv(runner, art_dir, e, e.get("check") or check or default_check(e), warmup, iters, seed,
                       jo, "%s:%s" % (tag, e["id"]))
    try:
        p = subprocess.run(argv, capture_output=True, text=True, env=env or runner_env(), timeout=timeout)
        rc, text = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        rc, text = 124, "timeout after %s s" % timeout
    except OSError as ex:
        rc, text = 127, "cannot run %s: %s" % (runner, ex)
    if echo:
        for line in text.rstrip("\n").splitlines() or ["(no output)"]:
            print("[%s %s] %s" % (tag, e["id"], line), flush=True)
        if rc != 0:
            print("!! %s %s: exit %d" % (tag, e["id"], rc), flush=True)
    j = {}
    if os.path.exists(jo):
        try:
            j = load_json(jo)
        except ValueError:
            j = {}
    return dict(rc=rc, text=text, json=j, argv=argv)


def run(runner, art_dir, ents, out_dir, tag, check=None, warmup=3, iters=20, seed=None, seed_base=None,
        timeout=None):
    """run_entry over entries; seed: fixed, seed_base: + the manifest index."""
    res = []
    for e in ents:
        s = seed if seed is not None else (seed_base or 0) + e["index"]
        res.append(run_entry(runner, art_dir, e, out_dir, tag, check, warmup, iters, s, timeout))
    return res


SAN_SUMMARY = re.compile(r"(ERROR SUMMARY: \d+ errors?|RACECHECK SUMMARY: .*)")


def san_zero(summary):
    """True if a compute-sanitizer summary line reports nothing."""
    nums = [int(x) for x in re.findall(r"(\d+) (?:errors?|hazards?|warnings?)", summary)]
    return bool(nums) and not any(nums)


def parse_sanitizer(text):
    """A compute-sanitizer log -> summaries, error / hazard counts and the
    first distinct messages."""
    out = dict(summary=SAN_SUMMARY.findall(text))
    m = re.search(r"ERROR SUMMARY: (\d+) error", text)
    out["errors"] = int(m.group(1)) if m else None
    m = re.search(r"RACECHECK SUMMARY: (\d+) hazards? displayed \((\d+) errors?, (\d+) warnings?\)", text)
    if m:
        out.update(hazards=int(m.group(1)), hazard_errors=int(m.group(2)), hazard_warnings=int(m.group(3)))
    msgs = []
    for line in text.splitlines():
        l2 = line.strip("= ").strip()
        if re.match(r"(Invalid|Race|Error|Barrier|Warning|Program hit|Divergent|Uninitialized)", l2) \
                and l2 not in msgs:
            msgs.append(l2)
        if len(msgs) >= 5:
            break
    out["messages"] = msgs
    return out


def sanitize_one(sanitizer, runner, art_dir, e, tool, out_dir, seed=5000, timeout=120, deadline=None,
                 min_left=15, env=None):
    """compute-sanitizer --tool TOOL on one launch of a resolved entry with a
    full check -> OUT/san/TOOL.ID.{log,json,status}. status: clean (rc 0, every
    summary zero, the runner passed), FINDINGS (rc 99), rc N (124: timeout), or
    skipped (deadline): fewer than min_left seconds before the deadline (epoch)."""
    d = os.path.join(out_dir, "san")
    os.makedirs(d, exist_ok=True)
    base = os.path.join(d, "%s.%s" % (tool, e["id"]))
    left = (deadline - time.time()) if deadline is not None else timeout
    if left < min_left:
        r = dict(status="skipped (deadline)", tool=tool, id=e["id"])
        write_json(base + ".status", r)
        return r
    tmo = int(min(left, timeout))
    argv = [sanitizer, "--tool", tool, "--error-exitcode", "99", "--print-limit", "50"] + runner_argv(
        runner, art_dir, e, "full", 0, 1, seed, base + ".json", "%s:%s" % (tool, e["id"]))
    t0 = time.time()
    try:
        p = subprocess.run(argv, capture_output=True, text=True, env=env or runner_env(), timeout=tmo)
        rc, text = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired as ex:
        rc = 124
        text = (ex.stdout or b"").decode(errors="replace") if isinstance(ex.stdout, bytes) else (ex.stdout or "")
        text += "\ntimeout after %d s" % tmo
    with open(base + ".log", "w") as f:
        f.write(text)
    info = parse_sanitizer(text)
    clean = rc == 0 and bool(info["summary"]) and all(san_zero(s) for s in info["summary"]) and " PASS" in text
    r = dict(status="clean" if clean else "FINDINGS" if rc == 99 else "rc %d" % rc, tool=tool, id=e["id"],
             rc=rc, summary="; ".join(info["summary"]), seconds=round(time.time() - t0, 1), timeout_s=tmo,
             log=os.path.relpath(base + ".log", out_dir))
    write_json(base + ".status", r)
    return r


def sanitize(sanitizer, runner, art_dir, jobs, out_dir, parallel=4, seed=None, seed_base=5000,
             timeout=120, deadline=None, min_left=15, on_result=None):
    """jobs: [(tool, resolved entry)] in start order, `parallel` at a time;
    seed: one for every job, else seed_base + the entry's manifest index."""
    env = runner_env()

    def one(job):
        tool, e = job
        s = seed if seed is not None else seed_base + e["index"]
        return sanitize_one(sanitizer, runner, art_dir, e, tool, out_dir, s, timeout, deadline, min_left, env)

    res = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, parallel)) as ex:
        for r in ex.map(one, jobs):
            print("[san %s:%s] %s %s" % (r["tool"], r["id"], r["status"], r.get("summary", "")), flush=True)
            res.append(r)
            if on_result:
                on_result(r)
    return res


def read_san_status(out_dir, tool, ident):
    p = os.path.join(out_dir, "san", "%s.%s.status" % (tool, ident))
    return load_json(p) if os.path.exists(p) else None
