#!/usr/bin/env python3
"""pkint_tools: the base of integration/pkint.py (python3 standard library
only; import pkint, which re-exports every name here): the repository paths
(HERE, ROOT), BuildError, small helpers (now_utc, sha256, load_json,
write_json, median, git, rel) and where the tools are (pk-opt,
pk-sass-check, mlir-opt, the CUDA toolkit, ptxas, cuobjdump,
compute-sanitizer; environment first: PK_OPT, PK_SASS_CHECK, MLIR_OPT,
CUDA_HOME, CUOBJDUMP, COMPUTE_SANITIZER). Imports no other pkint module."""

import datetime
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


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
