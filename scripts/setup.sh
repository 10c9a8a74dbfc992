#!/usr/bin/env bash
# Installs what pk needs (Debian packages of LLVM/MLIR 22, ninja), then
# configures and builds pk in ./build. Idempotent and non-interactive; runs as
# root or through sudo. Usage: scripts/setup.sh [extra cmake args...]
# (PK_WERROR=ON in the environment: warnings are errors, as in CI).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${PK_BUILD_DIR:-$root/build}"
llvm=/usr/lib/llvm-22

packages=(llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools ninja-build cmake g++
          libgtest-dev clang-format-22)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || { echo "setup: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo="sudo"
  fi
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# cuobjdump + nvdisasm for pk-sass-check and its tests (PyPI carries them; the
# CUDA toolkit image here has none).
if ! command -v cuobjdump >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
  have=$(python3 - <<'PY' 2>/dev/null
import os
try:
    import nvidia
    print(any(os.path.exists(os.path.join(p, "cu13", "bin", "cuobjdump")) for p in nvidia.__path__))
except Exception:
    print(False)
PY
)
  if [ "$have" != "True" ]; then
    echo "setup: installing cuobjdump and nvdisasm from PyPI"
    python3 -m pip install --quiet --disable-pip-version-check \
      nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm ||
      echo "setup: warning: could not install cuobjdump; SASS tests will be unsupported" >&2
  fi
fi

if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DMLIR_DIR="$llvm/lib/cmake/mlir" \
    -DLLVM_EXTERNAL_LIT="$llvm/bin/lit" \
    -DPK_WERROR="${PK_WERROR:-OFF}" "$@"
fi
cmake --build "$build"
