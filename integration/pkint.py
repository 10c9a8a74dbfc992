#!/usr/bin/env python3
"""pkint: the shared helpers of pk's integration/ folder (python3 standard
library only; importable, and a command line for the shell scripts).

One home per concern (integration/README.md has the flow):

  tools        where pk-opt, mlir-opt, the CUDA toolkit, cuobjdump and
               compute-sanitizer are (environment first: PK_OPT, MLIR_OPT,
               CUDA_HOME, CUOBJDUMP, COMPUTE_SANITIZER)
  lowering     pk_emit(): pk-opt's own emission (`--pipeline-kernel='...
               emit=cubin out-dir=...'` / `--pk-emit-binaries`: pk's lowering,
               `ptxas -O3 -v`, the numbers in a remark and the JSON report);
               LOWERING_PIPELINE / mlir_lower(): the one mlir-opt spelling of
               that lowering, for what pk's emission cannot give byte for byte
               (PTX ISA 8.0 for sm_86; the masked-read fallback of the
               autotuner); assemble(): ptxas without -v (`-v` changes bytes
               of the cubin; gpu-module-to-binary format=bin runs it without)
  binaries     extract_object(): the cubin / PTX string of a gpu.binary op
               (integration/extract_binary.py is its command line)
  ptxas        parse_ptxas() for `ptxas -v` output, parse_pk_ptxas() for pk's
               `remark: ptxas (sm_NN): ...`; both give the keys of pk's report
               (registers, spill_stores_bytes, spill_loads_bytes,
               stack_frame_bytes, shared_bytes)
  runner       build_runner() (g++ against libcuda, nvcc as fallback),
               runner_env(), runner_argv()
  report       read_report(): pk's JSON report, loop lines with the ptxas
               line of their kernel joined in
  artefacts    the directory + manifest.json format shared by every build
               script, the run side and the collectors (FORMAT below)
  run side     run_entry() / run() and sanitize_one() / sanitize():
               pk-runner and compute-sanitizer over manifest entries

Artefact directory (FORMAT "pk-artifacts/1"):

  DIR/manifest.json   {"format": "pk-artifacts/1", "tool", "created",
                       "git_commit", "git_dirty", ..., "entries": [ENTRY, ...]}
  ENTRY               "id" (unique, used in file names), "file" (cubin or PTX,
                      relative to DIR), "format" (cubin | ptx), "arch", "kind"
                      (hgemm | bgemm | igemm | sgemm), "kernel", "m", "n", "k", "bm",
                      "bn", "threads", "smem" (dynamic shared bytes), "ptxas"
                      (pk report keys), optional "check" (forces the runner's
                      check, e.g. "none"), optional "b_layout" (pk-runner's
                      --b-layout: "kn" for the NN wgmma kernels), optional
                      "b_int8" (true: pk-runner --b-int8, B is int8, for
                      gen_gemm.py --b-int8 kernels), optional
                      "tma" (a list of {"arg": "A"|"B", "box": [inner,
                      outer], "swizzle": 128}: pk-runner --tma, one tensor
                      map per item passed after C in list order), optional
                      "grid" (pk-runner --grid: a persistent kernel's blocks),
                      optional "c_type" (pk-runner --c-type: f16 / bf16 for
                      gen_gemm.py --c-type kernels),
                      plus the
                      producer's own fields. A key
                      missing from an entry is taken from the manifest's top
                      level (the autotuner keeps m, n, k, kernel ... there).
  OUT/runs/TAG.ID.json          pk-runner's JSON of one run (TAG: run, rep, r0, ...)
  OUT/san/TOOL.ID.{log,json,status}   one compute-sanitizer job; .status is JSON
                                      (status, rc, seconds, timeout_s, summary)

Command line (the shell scripts' side):

  pkint.py tools [NAME]
  pkint.py info --dir DIR
  pkint.py build-runner OUT
  pkint.py entries --dir DIR [--where K=V ...] [--fields id,file,...]
  pkint.py run --dir DIR [--out OUT] --tag TAG [--where ...] [--check auto|full|rows:N|none]
               [--warmup N] [--iters N] (--seed S | --seed-base S) [--runner R] [--timeout-s S]
  pkint.py sanitize --dir DIR [--out OUT] --jobs 'TOOL[,TOOL]@K=V,K!=V' ... [--parallel N]
               [--timeout-s S] [--deadline EPOCH] [--min-left-s S] [--seed-base S] [--runner R]
  pkint.py sass --dir DIR --out SASSDIR [--where ...]    (cuobjdump --dump-sass per cubin)

Filters (--where, and after @ in --jobs): K=V, K!=V, K~REGEX (re.search),
compared as strings against the resolved entry.
"""

# The code lives in three modules beside this file, one concern each; this
# module re-exports all their names (import pkint, as before) and holds the
# command line. A bundle's tools/ carries all four (bundle/build.py TOOLS).
#   pkint_tools.py   paths, BuildError, small helpers, where the tools are
#   pkint_lower.py   lowering, ptxas parsing, pk's report, gpu.binary objects
#   pkint_run.py     pk-runner, the artefact format (manifests, filters), run side

import argparse
import os
import subprocess
import sys
import tempfile
import time

from pkint_tools import (
    HERE, ROOT, BuildError, _exe, compute_sanitizer, cuda_home, cuobjdump, git, load_json, median,
    mlir_opt, now_utc, pk_opt, pk_sass_check, ptxas, rel, require, sass_check_verdict, sha256,
    write_json)
from pkint_lower import (
    LOWERING_PIPELINE, assemble, extract_object, find_objects, lowering_pipeline, mlir_lower, module_name,
    parse_pk_ptxas, parse_ptxas, pk_emit, ptxas_stats, read_report, unescape)
from pkint_run import (
    ENTRY_KEYS, FORMAT, SAN_SUMMARY, build_runner, default_check, entries, load_manifest, new_manifest,
    parse_filter, parse_sanitizer, read_san_status, resolve, run, run_entry, runner_argv, runner_env,
    san_zero, sanitize, sanitize_one, tma_spec, write_manifest)

# `from pkint import *`: the public names of pkint.py before its split, in their order
__all__ = [
    "HERE", "ROOT", "FORMAT", "ENTRY_KEYS", "BuildError", "now_utc", "sha256", "load_json",
    "read_report", "write_json", "median", "git", "rel", "cuda_home", "pk_opt", "pk_sass_check",
    "sass_check_verdict", "mlir_opt", "ptxas", "cuobjdump", "compute_sanitizer", "require",
    "LOWERING_PIPELINE", "lowering_pipeline", "mlir_lower", "pk_emit", "assemble", "ptxas_stats",
    "module_name", "parse_ptxas", "parse_pk_ptxas", "unescape", "find_objects", "extract_object",
    "build_runner", "runner_env", "default_check", "tma_spec", "runner_argv", "new_manifest",
    "write_manifest", "load_manifest", "resolve", "entries", "parse_filter", "run_entry", "run",
    "SAN_SUMMARY", "san_zero", "parse_sanitizer", "sanitize_one", "sanitize", "read_san_status",
    "cmd_tools", "cmd_info", "cmd_build_runner", "cmd_entries", "cmd_run", "cmd_sanitize", "cmd_sass",
    "main"]


# ------------------------------------------------------------------- CLI

def _runner_arg(a, work):
    if a.runner or os.environ.get("PK_RUNNER"):
        return a.runner or os.environ["PK_RUNNER"]
    return build_runner(os.path.join(work, "pk-runner"), verbose=True)


def cmd_tools(a):
    c = cuda_home()
    tools = dict((("pk-opt", pk_opt()), ("mlir-opt", mlir_opt()), ("cuda", c), ("ptxas", ptxas(c)),
                  ("cuobjdump", cuobjdump(c)), ("compute-sanitizer", compute_sanitizer(c)),
                  ("pk-sass-check", pk_sass_check())))
    if a.name:  # just the path, empty if missing (exit status 1)
        p = tools.get(a.name)
        ok = bool(p) and (os.path.isdir(p) or _exe(p))
        print(p if ok else "")
        return 0 if ok else 1
    for name, p in tools.items():
        print("%-18s %s%s" % (name, p, "" if (p and (os.path.isdir(p) or _exe(p))) else "   (missing)"))
    return 0


def cmd_info(a):
    man = load_manifest(a.dir)
    print("built %s from git %s%s by %s, %d entries" % (
        man.get("created"), (man.get("git_commit") or "?")[:12], " (dirty)" if man.get("git_dirty") else "",
        man.get("tool"), len(man["entries"])))
    return 0


def cmd_build_runner(a):
    print(build_runner(os.path.abspath(a.out), log=a.log, verbose=True))
    return 0


def cmd_entries(a):
    man = load_manifest(a.dir)
    fields = a.fields.split(",")
    for e in entries(man, a.where):
        print("\t".join(str(e.get(f, "")) for f in fields))
    return 0


def cmd_run(a):
    d = os.path.abspath(a.dir)
    out = os.path.abspath(a.out or d)
    man = load_manifest(d)
    ents = entries(man, a.where)
    runner = _runner_arg(a, tempfile.mkdtemp(prefix="pkint."))
    res = run(runner, d, ents, out, a.tag, None if a.check == "auto" else a.check, a.warmup, a.iters,
              a.seed, a.seed_base, a.timeout_s)
    bad = sum(r["rc"] != 0 for r in res)
    print("pkint run %s: %d entries, %d not passing" % (a.tag, len(res), bad), flush=True)
    return 0 if a.allow_failures or not bad else 1


def cmd_sanitize(a):
    d = os.path.abspath(a.dir)
    out = os.path.abspath(a.out or d)
    man = load_manifest(d)
    san = a.sanitizer or compute_sanitizer()
    if not san:
        print("pkint: compute-sanitizer not found: sanitizers skipped")
        return 0 if a.allow_failures else 1
    jobs = []
    for spec in a.jobs:
        tools, _, filt = spec.partition("@")
        ents = entries(man, [f for f in filt.split(",") if f])
        for t in tools.split(","):
            jobs += [(t, e) for e in ents]
    runner = _runner_arg(a, tempfile.mkdtemp(prefix="pkint."))
    print("pkint sanitize: %d jobs, %d at a time, timeout %d s each%s" % (
        len(jobs), a.parallel, a.timeout_s,
        ", none after +%d s" % (a.deadline - time.time()) if a.deadline else ""), flush=True)
    res = sanitize(san, runner, d, jobs, out, a.parallel, a.seed, a.seed_base, a.timeout_s, a.deadline,
                   a.min_left_s)
    bad = [r for r in res if r["status"] != "clean" and not r["status"].startswith("skipped")]
    return 0 if a.allow_failures or not bad else 1


def cmd_sass(a):
    d = os.path.abspath(a.dir)
    tool = cuobjdump()
    if not tool:
        print("pkint: cuobjdump not found: no SASS dumps")
        return 0
    os.makedirs(a.out, exist_ok=True)
    done = set()
    for e in entries(load_manifest(d), a.where):
        if e.get("format", "cubin") != "cubin" or e["file"] in done:
            continue
        done.add(e["file"])
        name = a.name.format(**e) if a.name else os.path.splitext(os.path.basename(e["file"]))[0]
        p = subprocess.run([tool, "--dump-sass", os.path.join(d, e["file"])], capture_output=True, text=True)
        with open(os.path.join(a.out, name + ".sass"), "w") as f:
            f.write(p.stdout + p.stderr)
    print("pkint sass: %d cubins -> %s" % (len(done), a.out))
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    sub = p.add_subparsers(dest="cmd", required=True)
    t = sub.add_parser("tools", help="where the tools are")
    t.add_argument("name", nargs="?", help="print only this one's path (pk-opt, mlir-opt, cuda, ptxas, "
                   "cuobjdump, compute-sanitizer, pk-sass-check)")
    i = sub.add_parser("info", help="one line: when, from which commit and by what a manifest was built")
    i.add_argument("--dir", required=True)
    b = sub.add_parser("build-runner", help="build pk-runner (g++ / nvcc against libcuda)")
    b.add_argument("out")
    b.add_argument("--log")
    e = sub.add_parser("entries", help="manifest entries as TSV")
    e.add_argument("--dir", required=True)
    e.add_argument("--where", action="append", default=[])
    e.add_argument("--fields", default="id,file,kind,m,n,k,kernel")
    r = sub.add_parser("run", help="pk-runner over manifest entries (GPU machine)")
    r.add_argument("--dir", required=True, help="artefact directory (manifest.json)")
    r.add_argument("--out", help="where runs/ goes (default --dir)")
    r.add_argument("--tag", default="run")
    r.add_argument("--where", action="append", default=[])
    r.add_argument("--check", default="auto", help="auto (full up to 1024 rows, else rows:64) | full | rows:N | none")
    r.add_argument("--warmup", type=int, default=3)
    r.add_argument("--iters", type=int, default=20)
    g = r.add_mutually_exclusive_group()
    g.add_argument("--seed", type=int, default=None, help="one seed for every entry")
    g.add_argument("--seed-base", type=int, default=1000, help="seed = this + the manifest index")
    r.add_argument("--runner", default=None, help="pk-runner (default $PK_RUNNER, else built)")
    r.add_argument("--timeout-s", type=int, default=None)
    r.add_argument("--allow-failures", action="store_true")
    s = sub.add_parser("sanitize", help="compute-sanitizer over manifest entries (GPU machine)")
    s.add_argument("--dir", required=True)
    s.add_argument("--out")
    s.add_argument("--jobs", action="append", required=True,
                   help="TOOL[,TOOL]@FILTER[,FILTER]: jobs start in the order given")
    s.add_argument("--parallel", type=int, default=4)
    s.add_argument("--timeout-s", type=int, default=120)
    s.add_argument("--deadline", type=float, default=None, help="epoch seconds: start nothing after it")
    s.add_argument("--min-left-s", type=int, default=15)
    g = s.add_mutually_exclusive_group()
    g.add_argument("--seed", type=int, default=None, help="one seed for every job")
    g.add_argument("--seed-base", type=int, default=5000, help="seed = this + the manifest index")
    s.add_argument("--runner", default=None)
    s.add_argument("--sanitizer", default=None)
    s.add_argument("--allow-failures", action="store_true")
    x = sub.add_parser("sass", help="cuobjdump --dump-sass of the cubin entries")
    x.add_argument("--dir", required=True)
    x.add_argument("--out", required=True)
    x.add_argument("--where", action="append", default=[])
    x.add_argument("--name", default=None, help="file name pattern, e.g. {id} (default: the cubin's)")
    a = p.parse_args(argv)
    try:
        return dict(tools=cmd_tools, info=cmd_info, entries=cmd_entries, run=cmd_run, sanitize=cmd_sanitize, sass=cmd_sass,
                    **{"build-runner": cmd_build_runner})[a.cmd](a)
    except BuildError as ex:
        print("pkint: %s" % ex, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
