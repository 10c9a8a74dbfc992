#!/usr/bin/env bash
# Run the pk integration suite on a GPU machine (from the repo root):
#
#   bash integration/run_all.sh [ARTIFACTS_DIR]     (default: integration/artifacts)
#
# ARTIFACTS_DIR comes from integration/build_artifacts.sh (manifest.json + bin/).
# Results go to $OUT (the device tool's output folder) or, if OUT is unset, to
# integration/results-local/: results.json, results.md, run_all.log, logs.tar.gz.
#
# Steps:
#   1. build pk-runner (g++ against libcuda; nvcc as fallback)
#   2. every 512^3 entry (sm_90 cubin and sm_86 PTX, JIT by the driver):
#      full check, plus a short timing (warmup 3, iters 20)
#   3. every 4096^3 entry: 64-row check + benchmark (warmup 3, iters 20, median)
#   4. compute-sanitizer memcheck, synccheck, racecheck on every pipelined
#      kernel at 512^3 (sm_90 cubin; --check full --iters 1 --warmup 0), then the
#      baselines; up to SAN_JOBS at once, each under min(SAN_TIMEOUT_S, time
#      left before SAN_END_S seconds after the start), so the whole suite ends
#      within ~SAN_END_S + a few seconds (device leases are short)
#   3b. repeat the 4096^3 sm_90 timings (--check none) to show run-to-run noise
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
if [[ -z "${CUDA_HOME:-}" ]]; then
  if command -v nvcc >/dev/null; then CUDA_HOME="$(cd "$(dirname "$(command -v nvcc)")/.." && pwd)"; else CUDA_HOME=/usr/local/cuda; fi
fi
SANITIZER="$(command -v compute-sanitizer || ls "$CUDA_HOME"/bin/compute-sanitizer "$CUDA_HOME"/compute-sanitizer/compute-sanitizer 2>/dev/null | head -1)"
PY=python3
CUOBJDUMP="$(command -v cuobjdump || ls "$CUDA_HOME/bin/cuobjdump" 2>/dev/null || true)"
# never let the toolkit's libcuda stub shadow the real driver at run time
if [[ -n "${LD_LIBRARY_PATH:-}" ]]; then
  LD_LIBRARY_PATH="$(echo "$LD_LIBRARY_PATH" | tr ':' '\n' | grep -v '/stubs' | paste -sd: -)"
  export LD_LIBRARY_PATH
fi

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
  RUNNER="$WORK/pk-runner"
  SRC="$HERE/runner/pk-runner.cpp"
  if g++ -O2 -std=c++17 "$SRC" -I"$CUDA_HOME/include" -L"$CUDA_HOME/lib64" -L"$CUDA_HOME/lib64/stubs" \
       -lcuda -lpthread -o "$RUNNER"; then
    echo "== built pk-runner with g++"
  elif "$CUDA_HOME/bin/nvcc" -O2 -std=c++17 "$SRC" -lcuda -o "$RUNNER"; then
    echo "== built pk-runner with nvcc"
  else
    echo "run_all: cannot build pk-runner" >&2; exit 2
  fi
fi

echo "== runner links: $(ldd "$RUNNER" 2>/dev/null | grep -i libcuda | tr -s ' \t' ' ')"

# manifest -> tab-separated list: idx kind size variant arch format file kernel bm bn threads
$PY - "$ART/manifest.json" >"$WORK/entries.tsv" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
for i, e in enumerate(m["entries"]):
    print("\t".join(str(x) for x in (i, e["kind"], e["size"], e["variant"], e["arch"], e["format"],
                                     e["file"], e["kernel"], e["bm"], e["bn"], e["threads"])))
EOF
echo "== $(wc -l <"$WORK/entries.tsv") manifest entries"

run_entry() {  # run_entry TAG CHECK WARMUP ITERS idx kind size variant arch format file kernel bm bn threads
  local tag=$1 check=$2 warm=$3 iters=$4; shift 4
  local idx=$1 kind=$2 size=$3 variant=$4 arch=$5 fmt=$6 file=$7 kernel=$8 bm=$9 bn=${10} thr=${11}
  local id="${kind}_${size}_${variant}_${arch}"
  "$RUNNER" --kind "$kind" --module "$ART/$file" --kernel "$kernel" --m "$size" --n "$size" --k "$size" \
    --bm "$bm" --bn "$bn" --threads "$thr" --check "$check" --warmup "$warm" --iters "$iters" \
    --seed $((1000 + idx)) --label "$tag:$id" --json "$WORK/runs/$tag.$id.json"
  local rc=$?
  [[ $rc -eq 0 ]] || echo "!! $tag $id: exit $rc"
  return 0
}

# ------------------------------------------------- 2./3. correctness + bench
for size in $SIZES; do
  if [[ "$size" -le 1024 ]]; then check=full; else check=rows:64; fi
  echo "== size $size: check $check, warmup 3, iters $BENCH_ITERS"
  while IFS=$'\t' read -r idx kind esize rest; do
    [[ "$esize" == "$size" ]] || continue
    run_entry run "$check" 3 "$BENCH_ITERS" "$idx" "$kind" "$esize" $rest
  done <"$WORK/entries.tsv"
  echo "== size $size done at +$(( $(date +%s) - T0 )) s"
done
if [[ "$REPEAT" != 0 && " $SIZES " == *" 4096 "* ]]; then
  echo "== repeat timing of the 4096^3 sm_90 cubins (check none)"
  while IFS=$'\t' read -r idx kind esize variant arch rest; do
    [[ "$esize" == 4096 && "$arch" == sm_90 ]] || continue
    run_entry rep none 3 "$BENCH_ITERS" "$idx" "$kind" "$esize" "$variant" "$arch" $rest
  done <"$WORK/entries.tsv"
  echo "== repeat done at +$(( $(date +%s) - T0 )) s"
fi
echo "gpu_state_after_bench=$(nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,utilization.gpu --format=csv,noheader 2>&1 | head -1)" >>"$WORK/env.txt"

# SASS opcode counts of the sm_90 cubins (checks e.g. that cp-async became LDGSTS)
if [[ -n "$CUOBJDUMP" ]]; then
  mkdir -p "$WORK/sass"
  for f in "$ART"/bin/*_4096_*_sm_90.cubin; do
    "$CUOBJDUMP" --dump-sass "$f" >"$WORK/sass/$(basename "$f" .cubin).sass" 2>&1 || true
  done
  echo "== SASS dumped for $(ls "$WORK/sass" | wc -l) cubins"
fi

collect() {
  echo "total_seconds=$(( $(date +%s) - T0 ))" >>"$WORK/env.txt"
  $PY "$HERE/collect_results.py" --manifest "$ART/manifest.json" --runs "$WORK/runs" --san "$WORK/san" \
    --sass "$WORK/sass" --env "$WORK/env.txt" --out-json "$RES/results.json" --out-md "$RES/results.md"
  tar -C "$WORK" -czf "$RES/logs.tar.gz" runs san env.txt entries.tsv $(cd "$WORK" && ls -d sass 2>/dev/null)
}
collect  # early copy, in case the sanitizers outlive the lease

# ------------------------------------------------------------- 4. sanitizers
san_one() {  # san_one TOOL idx kind size variant arch format file kernel bm bn threads
  local tool=$1; shift
  local idx=$1 kind=$2 size=$3 variant=$4 arch=$5 fmt=$6 file=$7 kernel=$8 bm=$9 bn=${10} thr=${11}
  local id="${kind}_${size}_${variant}_${arch}"
  local log="$WORK/san/$tool.$id.log" st="$WORK/san/$tool.$id.status"
  local left=$(( T0 + SAN_END_S - $(date +%s) ))
  if (( left < 20 )); then
    echo "skipped (suite deadline)" >"$st"; echo "-- $tool $id: skipped (deadline)"; return 0
  fi
  local tmo=$(( left < SAN_TIMEOUT_S ? left : SAN_TIMEOUT_S ))
  local s=$(date +%s%N)
  timeout -k 5 "$tmo" "$SANITIZER" --tool "$tool" --error-exitcode 99 --print-limit 50 \
    "$RUNNER" --kind "$kind" --module "$ART/$file" --kernel "$kernel" --m "$size" --n "$size" --k "$size" \
    --bm "$bm" --bn "$bn" --threads "$thr" --check full --warmup 0 --iters 1 --seed $((5000 + idx)) \
    --label "$tool:$id" --json "$WORK/san/$tool.$id.json" >"$log" 2>&1
  local rc=$?
  local e=$(date +%s%N)
  echo "rc=$rc ms=$(( (e - s) / 1000000 )) timeout_s=$tmo" >"$st"
  echo "-- $tool $id: rc $rc, $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | head -1)"
}
export -f san_one
if [[ -n "${SKIP_SANITIZERS:-}" ]]; then
  echo "== sanitizers skipped (SKIP_SANITIZERS)"
elif [[ -z "$SANITIZER" ]]; then
  echo "== compute-sanitizer not found: sanitizers skipped"
else
  echo "== sanitizers ($SANITIZER), $SAN_JOBS at a time, timeout ${SAN_TIMEOUT_S}s each, all done by +${SAN_END_S}s"
  export T0 SAN_END_S WORK ART RUNNER SANITIZER SAN_TIMEOUT_S
  # job order: memcheck + synccheck (fast) for the pipelined kernels, racecheck
  # hgemm/igemm then sgemm, then the baselines (reference for any finding)
  awk -F'\t' '$3==512 && $5=="sm_90" && $4!="baseline"' "$WORK/entries.tsv" >"$WORK/san_pipe.tsv"
  awk -F'\t' '$3==512 && $5=="sm_90" && $4=="baseline"' "$WORK/entries.tsv" >"$WORK/san_base.tsv"
  {
    for tool in memcheck synccheck; do sed "s/^/$tool\t/" "$WORK/san_pipe.tsv"; done
    awk -F'\t' '$2!="sgemm"' "$WORK/san_pipe.tsv" | sed "s/^/racecheck\t/"
    awk -F'\t' '$2=="sgemm"' "$WORK/san_pipe.tsv" | sed "s/^/racecheck\t/"
    for tool in memcheck synccheck racecheck; do sed "s/^/$tool\t/" "$WORK/san_base.tsv"; done
  } >"$WORK/san_jobs.tsv"
  echo "== $(wc -l <"$WORK/san_jobs.tsv") sanitizer jobs"
  tr '\t' ' ' <"$WORK/san_jobs.tsv" | xargs -P "$SAN_JOBS" -L 1 bash -c 'san_one "$@"' _
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
