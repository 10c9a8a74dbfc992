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

import argparse
import concurrent.futures
import datetime
import hashlib
import importlib.util
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
ROOT = os.path.dirname(HERE)
FORMAT = "pk-artifacts/1"
ENTRY_KEYS = ("id", "file", "format", "arch", "kind", "kernel", "m", "n", "k", "bm", "bn",
              "threads", "smem")


class BuildError(RuntimeError):
    pass


# ------------------------------------------------------------------- misc

def now_utc():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def load_json(path):
    with open(path) as f:
        return json.load(f)


def read_report(path):
    """pk's JSON report (docs/report.md) as its loop lines, each with the
    `ptxas` object of its kernel joined in from pk-emit-binaries' line of the
    same `kernel` and `arch` (absent when nothing was assembled). None if the
    file is missing; [] if it holds no loop."""
    if not os.path.exists(path):
        return None
    loops, ptxas = [], {}
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            obj = json.loads(line)
            if "loc" in obj:
                loops.append(obj)
            elif "ptxas" in obj:
                ptxas[(obj.get("kernel"), obj.get("arch"))] = obj["ptxas"]
    for obj in loops:
        key = (obj.get("kernel"), obj.get("arch"))
        if key in ptxas:
            obj["ptxas"] = ptxas[key]
    return loops


def write_json(path, obj):
    """Atomic (a reader never sees half a file: run-side files are re-read
    while a lease may end at any moment)."""
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def median(xs):
    s = sorted(xs)
    n = len(s)
    if not n:
        return None
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def git(*args, cwd=ROOT):
    try:
        return subprocess.check_output(["git", *args], cwd=cwd, text=True,
                                       stderr=subprocess.DEVNULL).strip()
    except Exception:  # noqa: BLE001 (not a checkout, no git)
        return ""


def rel(path):
    """path relative to the repository root when inside it (for manifests)."""
    p = os.path.abspath(path)
    return os.path.relpath(p, ROOT) if p.startswith(ROOT + os.sep) else path


# ------------------------------------------------------------------ tools

def _exe(path):
    return bool(path) and os.path.isfile(path) and os.access(path, os.X_OK)


def cuda_home():
    """$CUDA_HOME, else the toolkit of the nvcc on PATH, else /usr/local/cuda."""
    if os.environ.get("CUDA_HOME"):
        return os.environ["CUDA_HOME"]
    nvcc = shutil.which("nvcc")
    if nvcc:
        return os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    return "/usr/local/cuda"


def pk_opt():
    return os.environ.get("PK_OPT") or os.path.join(ROOT, "build", "bin", "pk-opt")


def pk_sass_check():
    return os.environ.get("PK_SASS_CHECK") or os.path.join(ROOT, "build", "bin", "pk-sass-check")


def sass_check_verdict(returncode):
    """pk-sass-check's exit status in a manifest: PASS (0), UNSUPPORTED (3:
    no loop encloses the compute, nothing to check) or FAIL (exit N)."""
    if returncode == 0:
        return "PASS"
    if returncode == 3:
        return "UNSUPPORTED"
    return "FAIL (exit %d)" % returncode


def mlir_opt():
    for c in (os.environ.get("MLIR_OPT"), "/usr/lib/llvm-22/bin/mlir-opt", shutil.which("mlir-opt-22")):
        if _exe(c):
            return c
    return os.environ.get("MLIR_OPT") or "/usr/lib/llvm-22/bin/mlir-opt"


def ptxas(cuda=None):
    return os.path.join(cuda or cuda_home(), "bin", "ptxas")


def cuobjdump(cuda=None):
    """$CUOBJDUMP, PATH, the toolkit, then the pip wheel of the running
    python (nvidia-cuda-cuobjdump installs it under nvidia/<cuNN>/bin)."""
    cands = [os.environ.get("CUOBJDUMP"), shutil.which("cuobjdump"),
             os.path.join(cuda or cuda_home(), "bin", "cuobjdump")]
    try:
        spec = importlib.util.find_spec("nvidia")
        for d in (spec.submodule_search_locations or []) if spec else []:
            for sub in sorted(os.listdir(d)):
                cands.append(os.path.join(d, sub, "bin", "cuobjdump"))
    except (ImportError, OSError, ValueError):
        pass
    return next((c for c in cands if _exe(c)), None)


def compute_sanitizer(cuda=None):
    c = cuda or cuda_home()
    for p in (os.environ.get("COMPUTE_SANITIZER"), shutil.which("compute-sanitizer"),
              os.path.join(c, "bin", "compute-sanitizer"),
              os.path.join(c, "compute-sanitizer", "compute-sanitizer")):
        if _exe(p):
            return p
    return None


def require(*paths):
    for p in paths:
        if not _exe(p):
            raise BuildError("missing tool %s" % p)


# -------------------------------------------------------------- lowering

# The one mlir-opt spelling of pk's lowering (pk's buildLoweringPipeline,
# docs/lowering.md), with the PTX ISA version as a parameter: the measured sm_86
# PTX was made with +ptx80 (pk's own emission uses 7.8 for sm_86).
LOWERING_PIPELINE = (
    "builtin.module(nvvm-attach-target{{chip={arch} features=+ptx{ptx} O=3}}, "
    "gpu.module(convert-nvgpu-to-nvvm, expand-strided-metadata, lower-affine, convert-scf-to-cf, "
    "convert-gpu-to-nvvm{{use-bare-ptr-memref-call-conv={bare}}}, convert-vector-to-llvm, "
    "convert-arith-to-llvm, canonicalize, cse, reconcile-unrealized-casts), "
    "gpu-module-to-binary{{format={fmt} toolkit={cuda}}})")


def lowering_pipeline(arch, fmt="isa", cuda=None, ptx=80, bare_ptr=True):
    """fmt: isa (PTX) or bin (cubin; gpu-module-to-binary runs `ptxas -arch
    <arch> --opt-level 3`)."""
    return LOWERING_PIPELINE.format(arch=arch, ptx=ptx, bare=int(bool(bare_ptr)), fmt=fmt,
                                    cuda=cuda or cuda_home())


def mlir_lower(src, arch, fmt, out, kernel=None, ptx=80, cuda=None, mlir=None):
    """mlir-opt with lowering_pipeline, then the PTX (fmt=isa) or cubin
    (fmt=bin) extracted to `out`."""
    mlir = mlir or mlir_opt()
    with tempfile.TemporaryDirectory(prefix="pkint-lower.") as t:
        lowered = os.path.join(t, "lowered.mlir")
        p = subprocess.run([mlir, src, "--pass-pipeline=" + lowering_pipeline(arch, fmt, cuda, ptx),
                            "-o", lowered], capture_output=True, text=True)
        if p.returncode:
            raise BuildError("mlir-opt (%s, %s) on %s: %s" % (arch, fmt, src, p.stderr.strip()[-600:]))
        data = extract_object(lowered, "bin" if fmt == "bin" else "assembly", kernel)
    with open(out, "wb") as f:
        f.write(data)
    return out


def pk_emit(src, arch, out_dir, options=None, bare_ptr=True, report=None, mlir_out=None,
            log=None, pk=None, cuda=None, env=None):
    """pk-opt's own lowering to PTX and cubin (ptxas -O3 -v) into out_dir.

    options: the --pipeline-kernel options without arch and the artefact
    options (e.g. "variant=cp-async stages=3"); None: the unpipelined kernel
    (--pk-emit-binaries). Returns dict(rc, stderr, argv, pass_option, ptx,
    cubin, ptxas) where ptx / cubin are the files pk wrote (None if missing) and
    ptxas is the first kernel's numbers from pk's remark. With options, pk's
    report goes to out_dir/report.json unless `report` says otherwise (the
    unpipelined kernel has none); cuda (else $CUDA_HOME,
    then /usr/local/cuda, pk's own order) is passed as CUDA_HOME."""
    pk = pk or pk_opt()
    os.makedirs(out_dir, exist_ok=True)
    art = "out-dir=%s" % out_dir + (" bare-ptr=1" if bare_ptr else "")
    env = dict(env or os.environ)
    if cuda:
        env["CUDA_HOME"] = cuda
    if options is None:
        pass_opt = "--pk-emit-binaries=arch=%s %s" % (arch, art)
    else:
        pass_opt = "--pipeline-kernel=arch=%s%s emit=cubin %s%s" % (
            arch, (" " + options) if options else "", art, (" report=%s" % report) if report else "")
    argv = [pk, pass_opt, src, "-o", mlir_out or os.devnull]
    mod = module_name(src)
    paths = {ext: os.path.join(out_dir, "%s.%s.%s" % (mod, arch, ext)) for ext in ("ptx", "cubin")}
    for f in paths.values():  # what is there afterwards is this run's
        if os.path.exists(f):
            os.remove(f)
    p = subprocess.run(argv, capture_output=True, text=True, env=env)
    if log:
        with open(log, "w") as f:
            f.write(p.stdout + p.stderr)
    files = {ext: f if os.path.exists(f) else None for ext, f in paths.items()}
    remarks = parse_pk_ptxas(p.stderr)
    return dict(rc=p.returncode, stderr=p.stderr, argv=argv, pass_option=pass_opt,
                ptx=files["ptx"], cubin=files["cubin"], ptxas=remarks[0] if remarks else None)


def assemble(ptx, arch, cubin, verbose=False, log=None, cuda=None):
    """ptxas -arch=<arch> -O3 [-v] PTX -o CUBIN; returns parse_ptxas()'s
    first kernel when verbose. Without -v the cubin is byte-identical to
    gpu-module-to-binary format=bin's (with -v ptxas writes other bytes)."""
    argv = [ptxas(cuda), "-arch=" + arch, "-O3"] + (["-v"] if verbose else []) + [ptx, "-o", cubin]
    p = subprocess.run(argv, capture_output=True, text=True)
    if log:
        with open(log, "w") as f:
            f.write(p.stdout + p.stderr)
    if p.returncode:
        raise BuildError("ptxas %s on %s: %s" % (arch, ptx, (p.stdout + p.stderr).strip()[-600:]))
    k = parse_ptxas(p.stdout + p.stderr)
    return k[0] if k else None


def ptxas_stats(ptx, arch, log=None, cuda=None):
    """Resource usage of a PTX for arch: `ptxas -arch=<arch> -v PTX -o /dev/null`."""
    p = subprocess.run([ptxas(cuda), "-arch=" + arch, "-v", ptx, "-o", os.devnull],
                       capture_output=True, text=True)
    if log:
        with open(log, "w") as f:
            f.write(p.stdout + p.stderr)
    if p.returncode:
        raise BuildError("ptxas failed on %s (%s): %s" % (ptx, arch, (p.stdout + p.stderr).strip()[-600:]))
    k = parse_ptxas(p.stdout + p.stderr)
    if not k:
        raise BuildError("no ptxas -v report for %s (%s)" % (ptx, arch))
    return k[0]


def module_name(src):
    m = re.search(r"gpu\.module\s+@([\w$.]+)", open(src).read())
    if not m:
        raise BuildError("no gpu.module in %s" % src)
    return m.group(1)


# ---------------------------------------------------------------- ptxas

_PTXAS_ENTRY = re.compile(r"Compiling entry function '([^']+)'")
_PTXAS_SPILL = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_PTXAS_REGS = re.compile(r"Used (\d+) registers")
_PTXAS_SMEM = re.compile(r"(\d+) bytes smem")
_PK_PTXAS = re.compile(r"ptxas \((sm_\d+a?)\): (\d+) registers, (\d+) bytes spill stores, "
                       r"(\d+) bytes spill loads, (\d+) bytes stack frame, (\d+) bytes shared memory")


def parse_ptxas(text):
    """`ptxas -v` output -> one dict per entry function, in order (as pk's
    parsePtxasOutput): kernel, registers, spill_stores_bytes,
    spill_loads_bytes, stack_frame_bytes, shared_bytes. Lines before the first
    'Compiling entry function' (a single-kernel log without it) count for an
    unnamed kernel."""
    out = []
    for line in text.splitlines():
        m = _PTXAS_ENTRY.search(line)
        if m:
            out.append(dict(kernel=m.group(1), registers=None, spill_stores_bytes=None,
                            spill_loads_bytes=None, stack_frame_bytes=None, shared_bytes=0))
            continue
        if not out:
            if not (_PTXAS_SPILL.search(line) or _PTXAS_REGS.search(line)):
                continue
            out.append(dict(kernel=None, registers=None, spill_stores_bytes=None,
                            spill_loads_bytes=None, stack_frame_bytes=None, shared_bytes=0))
        k = out[-1]
        m = _PTXAS_SPILL.search(line)
        if m:
            k["stack_frame_bytes"], k["spill_stores_bytes"], k["spill_loads_bytes"] = map(int, m.groups())
        m = _PTXAS_REGS.search(line)
        if m:
            k["registers"] = int(m.group(1))
            m = _PTXAS_SMEM.search(line)
            if m:
                k["shared_bytes"] = int(m.group(1))
    return out


def parse_pk_ptxas(text):
    """pk-opt's `remark: ptxas (sm_NN[a]): R registers, ...` lines (emit=cubin,
    pk-emit-binaries) -> the keys of parse_ptxas() plus arch."""
    return [dict(arch=m.group(1), registers=int(m.group(2)), spill_stores_bytes=int(m.group(3)),
                 spill_loads_bytes=int(m.group(4)), stack_frame_bytes=int(m.group(5)),
                 shared_bytes=int(m.group(6))) for m in _PK_PTXAS.finditer(text or "")]


# -------------------------------------------------------------- binaries

_HEX = "0123456789abcdefABCDEF"


def unescape(s, start):
    """Decode the MLIR string literal whose first character (after the opening
    quote) is s[start]: printable ASCII as-is, other bytes as \\XX, a backslash
    as \\\\, and the lexer's \\n \\t \\". Returns (bytes, index past the
    closing quote)."""
    out = bytearray()
    i, n = start, len(s)
    while i < n:
        c = s[i]
        if c == '"':
            return bytes(out), i + 1
        if c == "\\":
            if i + 1 >= n:
                raise ValueError("dangling backslash at end of input")
            d = s[i + 1]
            if d in '\\"nt':
                out.append({"\\": 0x5C, '"': 0x22, "n": 0x0A, "t": 0x09}[d])
                i += 2
                continue
            if i + 2 < n and d in _HEX and s[i + 2] in _HEX:
                out.append(int(s[i + 1:i + 3], 16))
                i += 3
                continue
            raise ValueError("bad escape %r at offset %d" % (s[i:i + 3], i))
        out.append(ord(c) & 0xFF)
        i += 1
    raise ValueError("unterminated string literal")


def find_objects(text):
    """Yield (gpu.binary symbol, field bin|assembly, bytes) per gpu.binary."""
    field = re.compile(r'\b(bin|assembly)\s*=\s*"')
    for m in re.finditer(r'gpu\.binary\s+@([\w$.\-]+)', text):
        fm = field.search(text, m.end())
        if fm:
            yield m.group(1), fm.group(1), unescape(text, fm.end())[0]


def extract_object(mlir_path, field="auto", expect_kernel=None, symbol=None):
    """The cubin (field bin) or PTX (assembly) of the first matching gpu.binary
    in an MLIR file, checked: a cubin is an ELF, PTX has .version/.target;
    expect_kernel must be in it (`.entry NAME` for PTX)."""
    text = open(mlir_path, "rb").read().decode("latin-1")
    for sym, f, data in find_objects(text):
        if (symbol and sym != symbol) or (field != "auto" and f != field):
            continue
        if f == "bin":
            if not data.startswith(b"\x7fELF"):
                raise BuildError("%s: bin is not an ELF (fatbin?)" % mlir_path)
            if expect_kernel and expect_kernel.encode() not in data:
                raise BuildError("kernel %s not in cubin" % expect_kernel)
        else:
            if b".version" not in data or b".target" not in data:
                raise BuildError("%s: assembly does not look like PTX" % mlir_path)
            if expect_kernel and (".entry " + expect_kernel).encode() not in data:
                raise BuildError(".entry %s not in PTX" % expect_kernel)
        return data
    raise BuildError("no matching gpu.binary object in %s" % mlir_path)


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
