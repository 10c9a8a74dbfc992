#!/bin/sh
# Regenerates the SASS inputs of the pk-sass-check tests from examples/.
#
#   test/pk-sass-check/Inputs/regenerate.sh [BUILD_DIR]
#
# Needs BUILD_DIR/bin/pk-opt (default build/), mlir-opt-22, ptxas, cuobjdump
# and nvdisasm ($CUOBJDUMP, PATH, or `pip install nvidia-cuda-cuobjdump
# nvidia-cuda-nvdisasm`). The checked-in files were made with ptxas 13.0.88 and
# cuobjdump 13.5; another ptxas schedules differently, so the addresses in the
# tests (and in the hand edits below) belong to that toolchain.
#
# Files:
#   hgemm-cp-async-sm_86.sass
#       verbatim `cuobjdump -sass` output (encodings and NOP padding kept)
#   others
#       the same output without the encodings (`/* 0x... */`), to stay small
#   sgemm-cp-async-sm_86.sass
#       also trimmed after the main loop's backward branch (the epilogue's 512
#       FFMA dropped)
#   hgemm-cp-async-sm_86-bar-between.sass, hgemm-cp-async-sm_86-spill.sass,
#   hgemm-base-sm_86-24mma.sass
#       hand edits (sed/awk at the end), described in their first line
set -eu

root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build}
out=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mlir_opt=${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}
ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}
cuobjdump=${CUOBJDUMP:-$(command -v cuobjdump || python3 -c \
  "import nvidia, os; print(os.path.join(nvidia.__path__[0], 'cu13', 'bin', 'cuobjdump'))")}
export NVDISASM_PATH=${NVDISASM_PATH:-$(dirname "$cuobjdump")}

# sass KERNEL VARIANT ARCH: the SASS of examples/KERNEL.mlir pipelined with
# VARIANT (`base`: not pipelined) and compiled for ARCH, on stdout.
sass() {
  if [ "$2" = base ]; then
    cat "$root/examples/$1.mlir"
  else
    "$build/bin/pk-opt" "$root/examples/$1.mlir" \
      --pipeline-kernel="arch=$3 variant=$2" 2>/dev/null
  fi | "$mlir_opt" --gpu-lower-to-nvvm-pipeline="cubin-chip=$3 cubin-features=+ptx80 cubin-format=isa" \
     | python3 "$out/extract_ptx.py" > "$tmp/k.ptx"
  "$ptxas" -arch="$3" "$tmp/k.ptx" -o "$tmp/k.cubin"
  "$cuobjdump" -sass "$tmp/k.cubin"
}

# Drops the encodings: the `/* 0x... */` lines and line ends.
strip() {
  grep -v '^[[:space:]]*/\* 0x' | sed 's#[[:space:]]*/\* 0x[0-9a-f]* \*/[[:space:]]*$##'
}

hgemm=hgemm_f16_128x128x32
sass $hgemm cp-async sm_86 > "$out/hgemm-cp-async-sm_86.sass"
sass $hgemm cp-async sm_90 | strip > "$out/hgemm-cp-async-sm_90.sass"
sass $hgemm ldg-register sm_86 | strip > "$out/hgemm-ldg-register-sm_86.sass"
sass $hgemm register-prefetch sm_90 | strip \
  > "$out/hgemm-register-prefetch-sm_90.sass"
sass $hgemm base sm_86 | strip > "$out/hgemm-base-sm_86.sass"
sass $hgemm base sm_90 | strip > "$out/hgemm-base-sm_90.sass"
sass igemm_i8_128x128x64 cp-async sm_86 | strip \
  > "$out/igemm-cp-async-sm_86.sass"
sass igemm_i8_128x128x64 register-prefetch sm_86 | strip \
  > "$out/igemm-register-prefetch-sm_86.sass"

# sgemm: keep everything up to the main loop's backward branch.
{
  echo "// Trimmed: cuobjdump -sass of sgemm_f32_128x128x8 (cp-async, sm_86) up to the"
  echo "// main loop's backward branch (the epilogue is dropped); encodings removed."
  sass sgemm_f32_128x128x8 cp-async sm_86 | strip \
    | awk '{ print } /BRA 0x5d0 ;/ { exit }'
} > "$out/sgemm-cp-async-sm_86.sass"

# Hand edit: the main loop's barrier moved between the loads and the MMAs.
# The instruction at 0x09f0 (after the LDGSTS/LDGDEPBAR, before the LDSM and
# HMMA) becomes BAR.SYNC; the BAR.SYNC at 0x0cd0 (after the last HMMA) NOP.
{
  echo "// Hand-edited from hgemm-cp-async-sm_86.sass (encodings dropped): the BAR.SYNC"
  echo "// at 0x0cd0 moved to 0x09f0, between the loop's LDGSTS and its HMMAs."
  strip < "$out/hgemm-cp-async-sm_86.sass" \
    | sed -e '/\/\*09f0\*\//s#IMAD.IADD R122, R114, 0x1, R11#BAR.SYNC.DEFER_BLOCKING 0x0#' \
          -e '/\/\*0cd0\*\//s#BAR.SYNC.DEFER_BLOCKING 0x0#NOP#'
} > "$out/hgemm-cp-async-sm_86-bar-between.sass"

# Hand edit: a register spill in the main loop (two instructions of the loop
# replaced by STL/LDL).
{
  echo "// Hand-edited from hgemm-cp-async-sm_86.sass (encodings dropped): the"
  echo "// instructions at 0x0760 and 0x0770 replaced by a spill STL and its reload LDL."
  strip < "$out/hgemm-cp-async-sm_86.sass" \
    | sed -e '/\/\*0760\*\//s#IMAD.WIDE.U32 R8, R118, 0x10, R116#STL [R1+0x4], R116#' \
          -e '/\/\*0770\*\//s#IADD3 R116, P4, R116, 0x40, RZ#LDL R116, [R1+0x4]#'
} > "$out/hgemm-cp-async-sm_86-spill.sass"

# Hand edit: a baseline whose main loop lost 8 of its 32 HMMA (NOPs instead).
{
  echo "// Hand-edited from hgemm-base-sm_86.sass: the first 8 HMMA of the main loop"
  echo "// replaced by NOP, so the loop holds 24 HMMA instead of 32."
  awk '/HMMA/ && n < 8 { sub(/HMMA[^;]*;/, "NOP ;"); n++ } { print }' \
    "$out/hgemm-base-sm_86.sass"
} > "$out/hgemm-base-sm_86-24mma.sass"

# Streams and element-wise compute (issue 24), built by pk's own emission:
# a GEMV whose compute reads its matrix rows straight from global memory
# (examples/gen_gemv.py, x staged in shared memory) and the sweep's
# vertical stencil (FADD/FMUL compute), both bare-pointer kernels as
# integration/kernels/diffrun.py builds them.
# pk_sass FILE VARIANT: FILE pipelined with VARIANT (`base`: not pipelined)
# by pk-opt for sm_90, its cubin disassembled, encodings dropped.
pk_sass() {
  rm -rf "$tmp/pk"
  if [ "$2" = base ]; then
    "$build/bin/pk-opt" "$1" --pk-emit-binaries="arch=sm_90 bare-ptr=1 out-dir=$tmp/pk" -o /dev/null
  else
    "$build/bin/pk-opt" "$1" --pipeline-kernel="arch=sm_90 variant=$2 emit=cubin bare-ptr=1 out-dir=$tmp/pk" \
      -o /dev/null 2>/dev/null
  fi
  "$cuobjdump" -sass "$tmp/pk"/*.cubin | strip
}
python3 "$root/examples/gen_gemv.py" --M 4096 --K 16384 -o "$tmp/gemv.mlir"
pk_sass "$tmp/gemv.mlir" cp-async > "$out/gemv-cp-async-sm_90.sass"
pk_sass "$tmp/gemv.mlir" ldg-register > "$out/gemv-ldg-register-sm_90.sass"
pk_sass "$tmp/gemv.mlir" base > "$out/gemv-base-sm_90.sass"
stencil=$root/integration/kernels/sweep/stencil3_8192x4096.mlir
pk_sass "$stencil" cp-async > "$out/stencil-cp-async-sm_90.sass"
pk_sass "$stencil" base > "$out/stencil-base-sm_90.sass"
