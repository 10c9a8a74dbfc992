#!/usr/bin/env bash
# Run the HGEMM tuning artefacts (build_tuning.py, beside this script) on a GPU
# machine, from the repo root:
#
#   bash integration/results/2026-11-29-h200-hgemm-tuning/run_tuning.sh [ARTIFACTS]
#        (default integration/artifacts/tuning)
#
# Every manifest entry with integration/runner/pk-runner (integration/pkint.py run):
#   4096^3: --check rows:64 (none for the *_hotk diagnostics), warmup 3, iters $ITERS (20), median
#   512^3 : --check full, warmup 1, iters 5
# then a repeat timing (--check none) of the entries matching $REPEAT_RE, then
# compute-sanitizer memcheck/racecheck/synccheck on the entries matching $SAN_RE
# (512^3) until SAN_END_S (pkint.py sanitize). Output in $OUT (or
# integration/results-local/tuning): tuning.log, summary.tsv, runs.tar.gz
# (pk-runner JSONs, sanitizer logs, env). RUNNER: a prebuilt pk-runner.
set -uo pipefail
T0=$(date +%s)
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
ART="$(cd "${1:-$ROOT/integration/artifacts/tuning}" && pwd)"
RES="${OUT:-$ROOT/integration/results-local/tuning}"; mkdir -p "$RES"; RES="$(cd "$RES" && pwd)"
ITERS="${ITERS:-20}"
REPEAT_RE="${REPEAT_RE:-^(h_old|h_row_swz_ro|h_row_swz_ro_nu|h_row_swz|ref_wmma)_}"
SAN_RE="${SAN_RE:-^(h_row_swz_ro|h_row_swz_ro_nu|i_row_swz_ro)_.*_512$}"
SAN_END_S="${SAN_END_S:-200}"
PKINT=(python3 "$ROOT/integration/pkint.py")
WORK="$(mktemp -d)"; mkdir -p "$WORK/runs" "$WORK/san"
exec > >(tee "$RES/tuning.log") 2>&1
CUDA_HOME="$("${PKINT[@]}" tools cuda)"
{
  echo "date_utc=$(date -u +%FT%TZ)"
  echo "command=bash integration/results/2026-11-29-h200-hgemm-tuning/run_tuning.sh $*"
  echo "artefacts=$("${PKINT[@]}" info --dir "$ART")"
  echo "gpu=$(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader 2>&1 | head -1)"
  echo "nvcc=$("$CUDA_HOME/bin/nvcc" --version 2>/dev/null | tail -1)"
} | tee "$WORK/env.txt"
RUNNER="${RUNNER:-$("${PKINT[@]}" build-runner "$WORK/pk-runner")}" || { echo "cannot build pk-runner"; exit 2; }
echo "== runner built at +$(( $(date +%s) - T0 )) s"

run() {  # run TAG pkint-run-options...
  local tag=$1; shift
  "${PKINT[@]}" run --dir "$ART" --out "$WORK" --runner "$RUNNER" --tag "$tag" --seed 4242 --allow-failures "$@"
}
run run --where size=512 --check full --warmup 1 --iters 5
run run --where size=4096 --check rows:64 --warmup 3 --iters "$ITERS"
echo "== main pass done at +$(( $(date +%s) - T0 )) s"
run rep --where size=4096 --where "id~$REPEAT_RE" --check none --warmup 3 --iters "$ITERS"
echo "== repeat pass done at +$(( $(date +%s) - T0 )) s"
echo "gpu_after=$(nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader 2>&1 | head -1)" | tee -a "$WORK/env.txt"

if [[ -z "${SKIP_SANITIZERS:-}" ]] && "${PKINT[@]}" tools compute-sanitizer >/dev/null; then
  "${PKINT[@]}" sanitize --dir "$ART" --out "$WORK" --runner "$RUNNER" --parallel 3 --seed 77 \
    --timeout-s "$SAN_END_S" --deadline "$(( T0 + SAN_END_S ))" --min-left-s 16 --allow-failures \
    --jobs "memcheck,racecheck,synccheck@id~$SAN_RE"
fi
echo "== sanitizers done at +$(( $(date +%s) - T0 )) s"

python3 "$HERE/tables.py" --summary "$WORK/runs" >"$RES/summary.tsv"
tar -C "$WORK" -czf "$RES/runs.tar.gz" runs san env.txt
echo; echo "== summary (grep the [run ...] lines above for full data)"
column -t -s $'\t' "$RES/summary.tsv" 2>/dev/null || cat "$RES/summary.tsv"
echo "== done in $(( $(date +%s) - T0 )) s"
