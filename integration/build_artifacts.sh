#!/usr/bin/env bash
# Build the artefacts of the main integration benchmark (dev machine: pk-opt,
# LLVM 22's mlir-opt, the CUDA toolkit; no GPU):
#
#   integration/build_artifacts.sh [OUT_DIR]      (default: integration/artifacts)
#
# The work is done by build_artifacts.py (what it builds and how: its
# docstring); this wrapper keeps the documented entry point. OUT_DIR is
# git-ignored (/integration/artifacts/). Environment: PYTHON, PK_OPT, MLIR_OPT,
# CUDA_HOME, KINDS, SIZES, VARIANTS.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"${PYTHON:-python3}" "$HERE/build_artifacts.py" "$@"
du -sh "${1:-$HERE/artifacts}"
