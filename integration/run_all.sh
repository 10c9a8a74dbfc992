#!/usr/bin/env bash
# Run the pk integration suite on a GPU machine (from the repo root):
#
#   bash integration/run_all.sh [ARTIFACTS_DIR]     (default: integration/artifacts)
#
# ARTIFACTS_DIR comes from integration/build_artifacts.sh (manifest.json + bin/,
# the artefact format of integration/pkint.py). Results go to $OUT (the device
# tool's output folder) or, if OUT is unset, to integration/results-local/:
# results.json, results.md, run_all.log, logs.tar.gz.
#
# Steps (pkint.py does the work: build-runner, run, sass, sanitize):
#   1. build pk-runner (g++ against libcuda; nvcc as fallback)
#   2. every 512^3 entry (sm_90 cubin and sm_86 PTX, JIT by the driver):
#      full check, plus a short timing (warmup 3, iters 20)
#   3. every 4096^3 entry: 64-row check + benchmark (warmup 3, iters 20, median)
#   3b. repeat the 4096^3 sm_90 timings (--check none) to show run-to-run noise
#   4. compute-sanitizer memcheck, synccheck, racecheck on every pipelined
#      kernel at 512^3 (sm_90 cubin; --check full --iters 1 --warmup 0), then the
#      baselines; up to SAN_JOBS at once, each under min(SAN_TIMEOUT_S, time
#      left before SAN_END_S seconds after the start), so the whole suite ends
#      within ~SAN_END_S + a few seconds (device leases are short)
#   5. collect_results.py -> results.json / results.md (also written once
#      before the sanitizers, so a killed run still leaves results)
#
# Environment: OUT, CUDA_HOME, SIZES ("512 4096"), BENCH_ITERS (20), REPEAT=0 (no
# repeat pass), SAN_JOBS (4), SAN_END_S (330), SAN_TIMEOUT_S (120),
# SKIP_SANITIZERS=1, RUNNER (prebuilt binary).
set -uo pipefail

T0=$(date +%s)
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ART="$(cd "${1:-$HERE/artifacts}" && pwd)" || { echo "run_all: no artefacts dir" >&2; exit 2; }
RES="${OUT:-$HERE/results-local}"
mkdir -p "$RES"
RES="$(cd "$RES" && pwd)"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/pk-run.XXXXXX")"
mkdir -p "$WORK/runs" "$WORK/san"
LOG="$RES/run_all.log"
exec > >(tee "$LOG") 2>&1
TEE_PID=$!

SIZES="${SIZES:-512 4096}"
BENCH_ITERS="${BENCH_ITERS:-20}"
SAN_JOBS="${SAN_JOBS:-4}"
SAN_END_S="${SAN_END_S:-330}"
REPEAT="${REPEAT:-1}"
SAN_TIMEOUT_S="${SAN_TIMEOUT_S:-120}"
PY=python3
PKINT=("$PY" "$HERE/pkint.py")
CUDA_HOME="$("${PKINT[@]}" tools cuda)"
export CUDA_HOME
SANITIZER="$("${PKINT[@]}" tools compute-sanitizer)"

echo "== pk run_all $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname)"
echo "== command: $0 $*"
echo "== artefacts: $ART   results: $RES"
{
  echo "date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "command=bash integration/run_all.sh $*"
  echo "gpu_csv=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)"
  echo "gpu_state_before=$(nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,utilization.gpu --format=csv,noheader 2>&1 | head -1)"
  echo "nvcc=$("$CUDA_HOME/bin/nvcc" --version 2>/dev/null | tail -1)"
  echo "sanitizer=$([[ -n "$SANITIZER" ]] && "$SANITIZER" --version 2>/dev/null | grep -i version | head -1)"
  echo "kernel=$(uname -r)"
  echo "cpus=$(nproc)"
} >"$WORK/env.txt"
cat "$WORK/env.txt"
nvidia-smi --query-gpu=name,driver_version --format=csv 2>&1 | head -3

# ------------------------------------------------------------ 1. build runner
RUNNER="${RUNNER:-}"
if [[ -z "$RUNNER" ]]; then
  RUNNER="$("${PKINT[@]}" build-runner "$WORK/pk-runner")" || { echo "run_all: cannot build pk-runner" >&2; exit 2; }
fi
echo "== runner links: $(ldd "$RUNNER" 2>/dev/null | grep -i libcuda | tr -s ' \t' ' ')"
"${PKINT[@]}" entries --dir "$ART" --fields index,id,kind,size,variant,arch,format,file,kernel >"$WORK/entries.tsv"
echo "== $(wc -l <"$WORK/entries.tsv") manifest entries"
run() {  # run TAG pkint-run-options...: pk-runner over manifest entries -> $WORK/runs/TAG.ID.json
  local tag=$1; shift
  "${PKINT[@]}" run --dir "$ART" --out "$WORK" --runner "$RUNNER" --tag "$tag" --seed-base 1000 \
    --allow-failures "$@"
}

# ------------------------------------------------- 2./3. correctness + bench
for size in $SIZES; do
  if [[ "$size" -le 1024 ]]; then check=full; else check=rows:64; fi
  echo "== size $size: check $check, warmup 3, iters $BENCH_ITERS"
  run run --where "size=$size" --check "$check" --warmup 3 --iters "$BENCH_ITERS"
  echo "== size $size done at +$(( $(date +%s) - T0 )) s"
done
if [[ "$REPEAT" != 0 && " $SIZES " == *" 4096 "* ]]; then
  echo "== repeat timing of the 4096^3 sm_90 cubins (check none)"
  run rep --where size=4096 --where arch=sm_90 --check none --warmup 3 --iters "$BENCH_ITERS"
  echo "== repeat done at +$(( $(date +%s) - T0 )) s"
fi
echo "gpu_state_after_bench=$(nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,utilization.gpu --format=csv,noheader 2>&1 | head -1)" >>"$WORK/env.txt"

# SASS opcode counts of the sm_90 cubins (checks e.g. that cp-async became LDGSTS)
"${PKINT[@]}" sass --dir "$ART" --out "$WORK/sass" --where size=4096 --where arch=sm_90 --name '{id}'

collect() {
  echo "total_seconds=$(( $(date +%s) - T0 ))" >>"$WORK/env.txt"
  $PY "$HERE/collect_results.py" --manifest "$ART/manifest.json" --runs "$WORK/runs" --san "$WORK/san" \
    --sass "$WORK/sass" --env "$WORK/env.txt" --out-json "$RES/results.json" --out-md "$RES/results.md"
  tar -C "$WORK" -czf "$RES/logs.tar.gz" runs san env.txt entries.tsv $(cd "$WORK" && ls -d sass 2>/dev/null)
}
collect  # early copy, in case the sanitizers outlive the lease

# ------------------------------------------------------------- 4. sanitizers
if [[ -n "${SKIP_SANITIZERS:-}" ]]; then
  echo "== sanitizers skipped (SKIP_SANITIZERS)"
elif [[ -z "$SANITIZER" ]]; then
  echo "== compute-sanitizer not found: sanitizers skipped"
else
  echo "== sanitizers ($SANITIZER), $SAN_JOBS at a time, timeout ${SAN_TIMEOUT_S}s each, all done by +${SAN_END_S}s"
  # job order: memcheck + synccheck (fast) for the pipelined kernels, racecheck
  # hgemm/igemm then sgemm, then the baselines (reference for any finding)
  S=size=512,arch=sm_90
  "${PKINT[@]}" sanitize --dir "$ART" --out "$WORK" --runner "$RUNNER" --sanitizer "$SANITIZER" \
    --parallel "$SAN_JOBS" --timeout-s "$SAN_TIMEOUT_S" --deadline "$(( T0 + SAN_END_S ))" --min-left-s 20 \
    --seed-base 5000 --allow-failures \
    --jobs "memcheck,synccheck@$S,variant!=baseline" \
    --jobs "racecheck@$S,variant!=baseline,kind!=sgemm" \
    --jobs "racecheck@$S,variant!=baseline,kind=sgemm" \
    --jobs "memcheck,synccheck,racecheck@$S,variant=baseline"
  echo "== sanitizers done at +$(( $(date +%s) - T0 )) s"
fi

# ------------------------------------------------------------- 5. collect
collect
echo
cat "$RES/results.md"
echo "== done in $(( $(date +%s) - T0 )) s"
exec >&- 2>&-
wait "$TEE_PID" 2>/dev/null || true
[[ -n "${KEEP_WORK:-}" ]] || rm -rf "$WORK"
