# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "PK"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.pk_obj_root, "test")
config.excludes = ["Inputs", "CMakeLists.txt", "README.md", "lit.cfg.py",
                   "lit.site.cfg.py"]

config.environment["FILECHECK_OPTS"] = (
    "-enable-var-scope --allow-unused-prefixes=false")

llvm_config.use_default_substitutions()
config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", config.llvm_shlib_ext))
config.substitutions.append(("%pk_src_root", config.pk_src_root))
config.substitutions.append(("%examples", os.path.join(config.pk_src_root, "examples")))
# PKPlugin, for mlir-opt's --load-pass-plugin / --load-dialect-plugin; built
# only with PK_LINK_MLIR_DYLIB=ON (mlir-opt links libMLIR.so).
if config.pk_plugin:
    config.available_features.add("pk-plugin")
    config.substitutions.append(("%pk_plugin",
        os.path.join(config.pk_lib_dir, "PKPlugin" + config.llvm_shlib_ext)))
config.substitutions.append(("%cuda_path", config.cuda_path))
# An AddressSanitizer build (PK_SANITIZE=address): a report fails the test
# (ASan aborts with a non-zero status). Leak checking is off: MLIR's
# registries live until exit, and it is not what this build is for.
if getattr(config, "pk_sanitize", "") == "address":
    config.available_features.add("asan")
    config.environment["ASAN_OPTIONS"] = "detect_leaks=0:abort_on_error=0"

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.pk_tools_dir, append_path=True)

tools = [
    "pk-opt",
    "pk-sass-check",
    ToolSubst("mlir-opt", os.path.join(config.llvm_tools_dir, "mlir-opt"),
              unresolved="fatal"),
]
llvm_config.add_tool_substitutions(tools, [config.pk_tools_dir, config.llvm_tools_dir])

# ptxas from the CUDA toolkit, for the tests that lower to PTX/cubin.
if config.cuda_path and os.path.exists(os.path.join(config.cuda_path, "bin", "ptxas")):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", os.path.join(config.cuda_path, "bin", "ptxas")))

# cuobjdump (with nvdisasm next to it) for the pk-sass-check tests that
# disassemble cubins: $CUOBJDUMP, PATH, the CUDA toolkit, or the PyPI package
# nvidia-cuda-cuobjdump (<site-packages>/nvidia/cu13/bin, found with python3).
def find_cuobjdump():
    import shutil
    import subprocess
    candidates = [os.environ.get("CUOBJDUMP"), shutil.which("cuobjdump")]
    if config.cuda_path:
        candidates.append(os.path.join(config.cuda_path, "bin", "cuobjdump"))
    try:
        dirs = subprocess.run(
            ["python3", "-c", "import nvidia; print('\\n'.join(nvidia.__path__))"],
            capture_output=True, text=True, timeout=60).stdout.split()
        candidates += [os.path.join(d, "cu13", "bin", "cuobjdump") for d in dirs]
    except (OSError, subprocess.SubprocessError):
        pass
    for candidate in candidates:
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None

cuobjdump = find_cuobjdump()
if cuobjdump:
    config.available_features.add("cuobjdump")
    config.substitutions.append(("%cuobjdump", cuobjdump))

# The gtest unit tests (unittests/), built when GoogleTest is installed.
if config.pk_unittests:
    config.available_features.add("unittests")
    config.substitutions.append(
        ("%pk_unittests_dir", os.path.join(config.pk_obj_root, "unittests")))

# How this build links MLIR (PK_LINK_MLIR_DYLIB), and whether the MLIR install
# has the static component libraries (for test/install-static.test).
if config.pk_link_mlir_dylib:
    config.available_features.add("pk-mlir-dylib")
if os.path.exists(os.path.join(config.mlir_lib_dir, "libMLIRIR.a")):
    config.available_features.add("mlir-static-libs")

config.substitutions.append(("%pk_obj_root", config.pk_obj_root))
config.substitutions.append(("%cmake", config.cmake_command))
config.substitutions.append(("%cmake_generator", config.cmake_generator))
config.substitutions.append(("%mlir_dir", config.mlir_dir))
config.substitutions.append(("%cxx", config.cxx_compiler))
# The configured mlir-opt, for commands that are not lit RUN lines (the
# README's examples in embedding.test).
config.substitutions.append(("%mlir_opt_path",
    os.path.join(config.llvm_tools_dir, "mlir-opt")))

# IREE (iree-base-compiler 3.13) for the test/iree capture tests
# (REQUIRES: iree): $PK_IREE_COMPILE, /work/iree-venv/bin/iree-compile, or
# iree-compile on PATH. The tests reach it through $PK_IREE_COMPILE, which
# integration/iree/capture.py reads.
def find_iree_compile():
    import shutil
    for candidate in (os.environ.get("PK_IREE_COMPILE"),
                      "/work/iree-venv/bin/iree-compile",
                      shutil.which("iree-compile")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None

iree_compile = find_iree_compile()
if iree_compile:
    config.available_features.add("iree")
    config.environment["PK_IREE_COMPILE"] = iree_compile
    config.substitutions.append(("%iree_compile", iree_compile))
config.substitutions.append(("%iree_flow",
    os.path.join(config.pk_src_root, "integration", "iree")))
