#!/usr/bin/env bash
# The Hopper check of issue 14 on a GPU machine (repo root; no MLIR needed):
#
#   bash integration/hopper/run_hopper.sh [ARTIFACTS_DIR]     (default .gpu/hopper)
#
# ARTIFACTS_DIR comes from integration/hopper/build_hopper.py. Steps:
#   1. pk-runner (pkint.py build-runner; RUNNER=<binary> to use a prebuilt one)
#   2. every 512^3 entry: full check (every element, CPU double reference)
#   3. every 4096^3 entry: 64-row check + timing (warmup 5, 20 iterations)
#   4. Triton and cuBLAS (torch.matmul) at 4096^3 in the same run
#      (vendor_bench.py), then a summary table (summary.py)
# Results: $OUT (the device tool's output folder) or .gpu/hopper-results.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
ART="$(cd "${1:-$ROOT/.gpu/hopper}" && pwd)" || { echo "run_hopper: no artefacts dir" >&2; exit 2; }
RES="${OUT:-$ROOT/.gpu/hopper-results}"
mkdir -p "$RES"
exec > >(tee "$RES/run_hopper.log") 2>&1
PKINT=(python3 "$HERE/../pkint.py")
echo "== pk run_hopper $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname): $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"
RUNNER="${RUNNER:-$RES/pk-runner}"
[ -x "$RUNNER" ] || "${PKINT[@]}" build-runner "$RUNNER" || { echo "run_hopper: cannot build pk-runner" >&2; exit 2; }
rc=0
"${PKINT[@]}" run --dir "$ART" --out "$RES" --tag check --where size=512 --check full \
  --warmup 0 --iters 1 --seed 1 --runner "$RUNNER" --timeout-s 60 || rc=1
"${PKINT[@]}" run --dir "$ART" --out "$RES" --tag bench --where size=4096 --check rows:64 \
  --warmup 5 --iters 20 --seed 2 --runner "$RUNNER" --timeout-s 90 || rc=1
timeout 150 python3 "$HERE/vendor_bench.py" --size 4096 --json "$RES/vendor.json" || rc=1
python3 "$HERE/summary.py" "$ART" "$RES" | tee "$RES/results.md"
echo "== run_hopper done (rc $rc)"
exit $rc
