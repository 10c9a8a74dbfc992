# -*- Python -*-
# check-pk-integration: the integration/ tooling's lit suite.
#
# Runs with any lit (LLVM's, or `python3 -m pip install lit`), from a CMake
# build (`cmake --build build --target check-pk-integration`, through
# lit.site.cfg.py) or straight from the source tree on a machine without MLIR:
#
#     lit -v integration/test
#
# Tests assert with python3 (no FileCheck: the GPU machine has none).
# Features:
#   cuda-gpu           `nvidia-smi -L` lists a GPU and libcuda's cuInit succeeds
#   compute-sanitizer  compute-sanitizer found (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin)
#   cxx                g++ found (to build pk-runner)
#   pk-opt, mlir-opt, ptxas   the dev-machine tools (build/bin/pk-opt, LLVM 22, CUDA)
#   main-bundle        $PK_BUNDLE (default integration/bundles/main) holds the
#                      built mma-sync-benchmark spec (pk-bundle.py build)
#   stage-bundle       $PK_BUNDLE holds the built stages spec (its tune/ sets)
# GPU tests say `REQUIRES: cuda-gpu` and are UNSUPPORTED elsewhere.
# Environment: PK_BUNDLE (default integration/bundles/main), PK_RUNNER (a
# prebuilt pk-runner), PK_OPT, MLIR_OPT, CUDA_HOME, PK_INTEGRATION_NO_GPU=1.
import ctypes
import os
import shutil
import subprocess
import sys

import lit.formats

config.name = "pk-integration"
# RUN lines use bash (loops, $(...)): the external shell. lit >= 23 asks for
# force_execute_external to keep it.
try:
    config.test_format = lit.formats.ShTest(True)
except ValueError:
    config.test_format = lit.formats.ShTest(True, force_execute_external=True)
config.suffixes = [".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "README.md"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(config.test_source_root))
if getattr(config, "pk_obj_root", None):
    config.test_exec_root = os.path.join(config.pk_obj_root, "integration", "test")
else:
    # straight from the source tree: keep lit's Output/ in a git-ignored folder
    config.test_exec_root = os.environ.get(
        "PK_INTEGRATION_EXEC_ROOT", os.path.join(root, "integration", "results-local", "lit"))

for var in ("HOME", "TMP", "TMPDIR", "TEMP", "CUDA_HOME", "LD_LIBRARY_PATH", "PK_RUNNER",
            "PK_BUNDLE", "PK_SASS_CHECK", "CUDA_VISIBLE_DEVICES", "PYTHONPATH", "COMPUTE_SANITIZER"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
config.environment["PYTHONUNBUFFERED"] = "1"
config.environment["PYTHONDONTWRITEBYTECODE"] = "1"


def q(path):
    return '"%s"' % path


python = getattr(config, "python_executable", None) or sys.executable
config.substitutions.append(("%python", q(python)))
config.substitutions.append(("%root", q(root)))
config.substitutions.append(("%autotune", q(os.path.join(root, "integration", "autotune", "autotune.py"))))
config.substitutions.append(("%pkint", q(os.path.join(root, "integration", "pkint.py"))))
config.substitutions.append(("%pkbundle", q(os.path.join(root, "integration", "pk-bundle.py"))))
config.substitutions.append(("%gen", q(os.path.join(root, "examples", "gen_gemm.py"))))
bundle = os.environ.get("PK_BUNDLE", os.path.join(root, "integration", "bundles", "main"))
config.substitutions.append(("%bundle", q(bundle)))
config.substitutions.append(("%stages", q(os.path.join(bundle, "stages", "tune"))))


def tool(env, *candidates):
    for c in [os.environ.get(env)] + list(candidates):
        if c and os.access(c, os.X_OK) and not os.path.isdir(c):
            return c
    return None


pk_tools = getattr(config, "pk_tools_dir", None) or os.path.join(root, "build", "bin")
pk_opt = tool("PK_OPT", os.path.join(pk_tools, "pk-opt"))
mlir_opt = tool("MLIR_OPT", getattr(config, "mlir_opt", None), "/usr/lib/llvm-22/bin/mlir-opt",
                shutil.which("mlir-opt-22") or "")
cuda = (getattr(config, "cuda_path", None) or os.environ.get("CUDA_HOME") or "/usr/local/cuda")
ptxas = tool("PTXAS", os.path.join(cuda, "bin", "ptxas"), shutil.which("ptxas") or "")
for feat, path, sub in (("pk-opt", pk_opt, "%pk_opt"), ("mlir-opt", mlir_opt, "%mlir_opt"),
                        ("ptxas", ptxas, "%ptxas")):
    if path:
        config.available_features.add(feat)
        config.substitutions.append((sub, q(path)))
config.substitutions.append(("%cuda_path", q(cuda)))
sass_check = tool("PK_SASS_CHECK", os.path.join(pk_tools, "pk-sass-check"))
if sass_check:  # pk-bundle's sass_check key and autotune.py build use it
    config.environment["PK_SASS_CHECK"] = sass_check

if shutil.which("g++"):
    config.available_features.add("cxx")
sanitizer = tool("COMPUTE_SANITIZER", shutil.which("compute-sanitizer") or "",
                 os.path.join(cuda, "bin", "compute-sanitizer"))
if sanitizer:
    config.available_features.add("compute-sanitizer")
if os.path.isdir(os.path.join(bundle, "stages", "tune")):
    config.available_features.add("stage-bundle")
if os.path.exists(os.path.join(bundle, "mma-sync-benchmark", "manifest.json")):
    config.available_features.add("main-bundle")


def have_gpu():
    if os.environ.get("PK_INTEGRATION_NO_GPU"):
        return False
    try:
        p = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
        if p.returncode != 0 or "GPU" not in p.stdout:
            return False
        cu = ctypes.CDLL("libcuda.so.1")
        if cu.cuInit(0) != 0:
            return False
        n = ctypes.c_int(0)
        return cu.cuDeviceGetCount(ctypes.byref(n)) == 0 and n.value > 0
    except (OSError, subprocess.SubprocessError, AttributeError):
        return False


if have_gpu():
    config.available_features.add("cuda-gpu")
lit_config.note("pk-integration features: %s" % " ".join(sorted(
    f for f in config.available_features
    if f in ("cuda-gpu", "compute-sanitizer", "cxx", "pk-opt", "mlir-opt", "ptxas",
             "stage-bundle", "main-bundle"))))
