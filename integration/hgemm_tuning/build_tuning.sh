#!/usr/bin/env bash
# Build the HGEMM tuning artefacts (dev machine: pk-opt, LLVM 22 mlir-opt, CUDA
# toolkit; no GPU). Every kernel variant of the tuning study as an sm_90 cubin,
# plus the hand-written WMMA reference (integration/reference/hgemm_wmma_ref.cu),
# and a list.tsv for run_tuning.sh.
#
#   bash integration/hgemm_tuning/build_tuning.sh [OUT]   (default integration/artifacts/tuning, git-ignored)
#
# Configurations (examples/gen_gemm.py flags) are listed in CONFIGS below; each is
# built as the unpipelined baseline and pipelined by pk-opt --pipeline-kernel with
# variant=cp-async and variant=ldg-register, lowered exactly as
# integration/build_artifacts.sh does (sm_90, +ptx80, O=3, bare pointers).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${1:-$ROOT/integration/artifacts/tuning}"
PK_OPT="${PK_OPT:-$ROOT/build/bin/pk-opt}"
MLIR_OPT="${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}"
CUDA_HOME="${CUDA_HOME:-/usr/local/cuda}"
CUOBJDUMP="${CUOBJDUMP:-$(command -v cuobjdump || echo /root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/nvidia/cu13/bin/cuobjdump)}"
SIZES_SMALL="${SIZES_SMALL:-}"   # e.g. "512": also build these sizes (full-check runs)
rm -rf "$OUT"; mkdir -p "$OUT/bin" "$OUT/src" "$OUT/logs" "$OUT/sass"
LIST="$OUT/list.tsv"; : >"$LIST"

lower() {  # lower IN.mlir OUT.cubin
  "$MLIR_OPT" "$1" --pass-pipeline="builtin.module(nvvm-attach-target{chip=sm_90 features=+ptx80 O=3}, gpu.module(convert-nvgpu-to-nvvm, expand-strided-metadata, lower-affine, convert-scf-to-cf, convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1}, canonicalize, cse, reconcile-unrealized-casts), gpu-module-to-binary{format=isa toolkit=$CUDA_HOME})" -o "$2.isa.mlir"
  python3 "$ROOT/integration/extract_binary.py" "$2.isa.mlir" -o "$2.ptx" --field assembly >/dev/null
  "$CUDA_HOME/bin/ptxas" -arch=sm_90 -O3 -v "$2.ptx" -o "$2" 2>"$2.ptxas.log"
  rm -f "$2.isa.mlir"
}

add() {  # add LABEL KIND SIZE CUBIN KERNEL
  local regs; regs=$(grep -o "Used [0-9]* registers" "$OUT/logs/$1.ptxas.log" 2>/dev/null | awk '{print $2}' || true)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "bin/$(basename "$4")" "$5" "${regs:--}" >>"$LIST"
  "$CUOBJDUMP" --dump-sass "$4" >"$OUT/sass/$1.sass" 2>/dev/null || true
  echo "built $1 (regs ${regs:--})"
}

build_cfg() {  # build_cfg LABEL KIND SIZE "gen flags" [variants]
  local label=$1 kind=$2 size=$3 flags=$4 variants=${5:-"baseline cp-async ldg-register"}
  local name; name=$( [[ $kind == hgemm ]] && echo hgemm_f16_128x128x32 || echo igemm_i8_128x128x64 )
  local src="$OUT/src/$label.$size.mlir"
  python3 "$ROOT/examples/gen_gemm.py" --kind "$kind" --M "$size" --N "$size" --K "$size" $flags -o "$src"
  for v in $variants; do
    local stem="${label}_${v}_${size}" in="$src"
    if [[ $v != baseline ]]; then
      in="$OUT/src/$stem.pk.mlir"
      "$PK_OPT" --pipeline-kernel="arch=sm_90 variant=$v" "$src" -o "$in" 2>"$OUT/logs/$stem.pk-opt.log"
      grep -q "remark: pipelined: variant $v" "$OUT/logs/$stem.pk-opt.log" || { echo "not pipelined: $stem" >&2; exit 1; }
    fi
    lower "$in" "$OUT/bin/$stem.cubin"
    mv "$OUT/bin/$stem.cubin.ptxas.log" "$OUT/logs/$stem.ptxas.log"; rm -f "$OUT/bin/$stem.cubin.ptx"
    add "$stem" "$kind" "$size" "$OUT/bin/$stem.cubin" "$name"
  done
}

OLD="--copy-map col8 --layout pad --no-readonly-inputs --min-blocks 0 --outer-unroll"   # = the examples before tuning
# label|kind|gen flags|variants (default: baseline cp-async ldg-register)|small sizes too (y/n)
ALL="baseline cp-async ldg-register"
CONFIGS=(
  "h_old|hgemm|$OLD|$ALL|n"
  "h_old_ro|hgemm|--copy-map col8 --layout pad --readonly-inputs --min-blocks 2 --outer-unroll|$ALL|n"
  "h_row_pad|hgemm|--copy-map row --layout pad --no-readonly-inputs --min-blocks 0 --outer-unroll|$ALL|n"
  "h_row_pad_ro|hgemm|--copy-map row --layout pad --readonly-inputs --min-blocks 2 --outer-unroll|$ALL|y"
  "h_row_swz|hgemm|--copy-map row --layout swizzle --no-readonly-inputs --min-blocks 0 --outer-unroll|$ALL|y"
  "h_row_swz_ro|hgemm|--copy-map row --layout swizzle --readonly-inputs --min-blocks 2 --outer-unroll|$ALL|y"
  "h_row_swz_nu|hgemm|--copy-map row --layout swizzle --no-readonly-inputs --min-blocks 0 --no-outer-unroll|baseline|n"
  "h_row_swz_ro_nu|hgemm|--copy-map row --layout swizzle --readonly-inputs --min-blocks 2 --no-outer-unroll|baseline|y"
  "h_row_swz_ro_w4x2|hgemm|--copy-map row --layout swizzle --readonly-inputs --min-blocks 2 --warps-m 4 --outer-unroll|$ALL|y"
  "i_old|igemm|$OLD|$ALL|n"
  "i_row_swz_ro|igemm|--copy-map row --layout swizzle --readonly-inputs --min-blocks 2 --outer-unroll|$ALL|y"
  "i_row_swz_ro_nu|igemm|--copy-map row --layout swizzle --readonly-inputs --min-blocks 2 --no-outer-unroll|baseline|n"
)
for c in "${CONFIGS[@]}"; do
  IFS='|' read -r label kind flags variants small <<<"$c"
  build_cfg "$label" "$kind" 4096 "$flags" "$variants"
  if [[ $small == y ]]; then
    for s in $SIZES_SMALL; do build_cfg "$label" "$kind" "$s" "$flags" "$variants"; done
  fi
done

# Diagnostics (timing only, results wrong): every K-iteration loads the k=0 tile
# (global loads hit L1/L2), to size the global-load latency share of the loop.
for label in h_old h_row_swz; do
  src="$OUT/src/$label.4096.mlir"; d="$OUT/src/${label}_hotk.4096.mlir"
  sed 's/%k_col = arith.addi %k, %ld_col : index/%k_col = arith.addi %c0, %ld_col : index/' "$src" >"$d"
  grep -q '%k_col = arith.addi %c0' "$d"
  lower "$d" "$OUT/bin/${label}_hotk_baseline_4096.cubin"
  mv "$OUT/bin/${label}_hotk_baseline_4096.cubin.ptxas.log" "$OUT/logs/${label}_hotk_baseline_4096.ptxas.log"; rm -f "$OUT/bin/${label}_hotk_baseline_4096.cubin.ptx"
  add "${label}_hotk_baseline_4096" hgemm-nocheck 4096 "$OUT/bin/${label}_hotk_baseline_4096.cubin" hgemm_f16_128x128x32
done

# Hand-written CUDA WMMA reference
"$CUDA_HOME/bin/nvcc" -arch=sm_90 -O3 -cubin -Xptxas -v "$ROOT/integration/reference/hgemm_wmma_ref.cu" \
  -o "$OUT/bin/ref_wmma.cubin" 2>"$OUT/logs/ref_wmma.ptxas.log"
for k in base ldg cpa; do
  regs=$(grep -A3 "entry function 'hgemm_wmma_$k'" "$OUT/logs/ref_wmma.ptxas.log" | grep -o "Used [0-9]*" | awk '{print $2}' || true)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "ref_wmma_$k" hgemm 4096 bin/ref_wmma.cubin "hgemm_wmma_$k" "$regs" >>"$LIST"
done
"$CUOBJDUMP" --dump-sass "$OUT/bin/ref_wmma.cubin" >"$OUT/sass/ref_wmma.sass" 2>/dev/null || true
{ echo "built $(date -u +%FT%TZ) from git $(git -C "$ROOT" rev-parse --short=12 HEAD)$(git -C "$ROOT" diff --quiet || echo ' (dirty)')"; } >"$OUT/BUILD_INFO"
wc -l "$LIST"; du -sh "$OUT"
