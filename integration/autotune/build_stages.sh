#!/usr/bin/env bash
# Build the autotune candidate sets of the stage / partial-K study (dev machine:
# pk-opt, CUDA toolkit; no GPU). Each set is one `autotune.py build` directory.
#
#   integration/autotune/build_stages.sh [OUT]      (default: integration/artifacts/stages)
#
#   hgemm_4096, igemm_4096   examples/*.mlir (4096^3), --candidates auto: baseline,
#                            model (variant=auto stages=auto), cp-async 2/3/4 stages,
#                            cp-async 2 stages multistage order, ldg-register,
#                            register-prefetch -> the stage benchmark + autotune decision
#   hgemm_512, igemm_512     the same kernels at 512^3 (gen_gemm.py) -> full check and
#                            compute-sanitizer memcheck/racecheck/synccheck
#   hgemm_512x512xK          partial / small K (K = 4000, 4008, 40, 33, 32) and
#   hgemm_4096x4096x4000     gen_gemm.py with K % 32 != 0 -> zero-padded reads:
#                            baseline, model, cp-async 2/3/4, ldg-register, register-prefetch
#
# Environment: PK_OPT, CUDA_HOME, PYTHON, SETS (subset of the names above).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="${1:-$ROOT/integration/artifacts/stages}"
PYTHON="${PYTHON:-python3}"
PK_OPT="${PK_OPT:-$ROOT/build/bin/pk-opt}"
AT=("$PYTHON" "$HERE/autotune.py")
GEN=("$PYTHON" "$ROOT/examples/gen_gemm.py")
PARTIAL="baseline,model,cp-async:2,cp-async:3,cp-async:4,ldg-register,register-prefetch"
SETS="${SETS:-hgemm_4096 igemm_4096 hgemm_512 igemm_512 hgemm_512x512x4000 hgemm_512x512x4008 hgemm_512x512x40 hgemm_512x512x33 hgemm_512x512x32 hgemm_4096x4096x4000}"
mkdir -p "$OUT" "$OUT/src"
OUT="$(cd "$OUT" && pwd)"

for s in $SETS; do
  case "$s" in
    hgemm_4096) src="$ROOT/examples/hgemm_f16_128x128x32.mlir"; cands=auto ;;
    igemm_4096) src="$ROOT/examples/igemm_i8_128x128x64.mlir"; cands=auto ;;
    hgemm_512|igemm_512)
      kind=${s%_512}; bk=32; [[ $kind == igemm ]] && bk=64
      src="$OUT/src/$s.mlir"
      "${GEN[@]}" --kind "$kind" --M 512 --N 512 --K 512 --BM 128 --BN 128 --BK $bk --threads 256 \
        --smem attribution -o "$src"
      cands=auto ;;
    hgemm_*x*x*)
      dims=${s#hgemm_}; m=${dims%%x*}; rest=${dims#*x}; n=${rest%%x*}; k=${rest#*x}
      src="$OUT/src/$s.mlir"
      "${GEN[@]}" --kind hgemm --M "$m" --N "$n" --K "$k" --BM 128 --BN 128 --BK 32 --threads 256 \
        --smem attribution -o "$src"
      cands="$PARTIAL" ;;
    *) echo "build_stages: unknown set $s" >&2; exit 1 ;;
  esac
  echo "== $s ($cands)"
  "${AT[@]}" build --kernel "${src#$ROOT/}" --arch sm_90 --candidates "$cands" --dir "$OUT/$s" \
    --pk-opt "$PK_OPT" --allow-failures
done
du -sh "$OUT"
