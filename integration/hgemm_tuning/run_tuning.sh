#!/usr/bin/env bash
# Run the HGEMM tuning artefacts on a GPU machine (repo root):
#
#   bash integration/hgemm_tuning/run_tuning.sh [ARTIFACTS]   (default integration/artifacts/tuning)
#
# Every list.tsv entry (from build_tuning.sh) with integration/runner/pk-runner:
#   4096^3: --check rows:64 (none for *-nocheck diagnostics), warmup 3, iters $ITERS (20), median
#   512^3 : --check full, warmup 1, iters 5
# then a repeat timing (--check none) of the entries matching $REPEAT_RE, then
# compute-sanitizer memcheck/racecheck/synccheck on the entries matching $SAN_RE
# (512^3). Output in $OUT (or integration/results-local/tuning): tuning.log,
# summary.tsv, runs.tar.gz (pk-runner JSONs, sanitizer logs, env).
set -uo pipefail
T0=$(date +%s)
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
ART="$(cd "${1:-$ROOT/integration/artifacts/tuning}" && pwd)"
RES="${OUT:-$ROOT/integration/results-local/tuning}"; mkdir -p "$RES"; RES="$(cd "$RES" && pwd)"
ITERS="${ITERS:-20}"
REPEAT_RE="${REPEAT_RE:-^(h_old|h_row_swz_ro|h_row_swz_ro_nu|h_row_swz|ref_wmma)_}"
SAN_RE="${SAN_RE:-^(h_row_swz_ro|h_row_swz_ro_nu|i_row_swz_ro)_.*_512$}"
SAN_END_S="${SAN_END_S:-200}"
WORK="$(mktemp -d)"; mkdir -p "$WORK/runs" "$WORK/san"
exec > >(tee "$RES/tuning.log") 2>&1
CUDA_HOME="${CUDA_HOME:-$(dirname "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")")}"
if [[ -n "${LD_LIBRARY_PATH:-}" ]]; then
  LD_LIBRARY_PATH="$(echo "$LD_LIBRARY_PATH" | tr ':' '\n' | grep -v '/stubs' | paste -sd: -)"; export LD_LIBRARY_PATH
fi
{
  echo "date_utc=$(date -u +%FT%TZ)"
  echo "command=bash integration/hgemm_tuning/run_tuning.sh $*"
  echo "artefacts=$(cat "$ART/BUILD_INFO" 2>/dev/null)"
  echo "gpu=$(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader 2>&1 | head -1)"
  echo "nvcc=$("$CUDA_HOME/bin/nvcc" --version 2>/dev/null | tail -1)"
} | tee "$WORK/env.txt"
RUNNER="$WORK/pk-runner"
g++ -O2 -std=c++17 "$ROOT/integration/runner/pk-runner.cpp" -I"$CUDA_HOME/include" -L"$CUDA_HOME/lib64" \
  -L"$CUDA_HOME/lib64/stubs" -lcuda -lpthread -o "$RUNNER" || { echo "cannot build pk-runner"; exit 2; }
echo "== runner built at +$(( $(date +%s) - T0 )) s"

run() {  # run TAG CHECK WARMUP ITERS label kind size file kernel regs
  local tag=$1 check=$2 warm=$3 iters=$4 label=$5 kind=$6 size=$7 file=$8 kernel=$9
  [[ $kind == hgemm-nocheck ]] && { kind=hgemm; check=none; }
  "$RUNNER" --kind "$kind" --module "$ART/$file" --kernel "$kernel" --m "$size" --n "$size" --k "$size" \
    --check "$check" --warmup "$warm" --iters "$iters" --seed 4242 --label "$tag:$label" \
    --json "$WORK/runs/$tag.$label.json" | sed "s|^|[$tag $label] |"
}
while IFS=$'\t' read -r label kind size file kernel regs; do
  if [[ $size == 512 ]]; then run run full 1 5 "$label" "$kind" "$size" "$file" "$kernel"
  else run run rows:64 3 "$ITERS" "$label" "$kind" "$size" "$file" "$kernel"; fi
done <"$ART/list.tsv"
echo "== main pass done at +$(( $(date +%s) - T0 )) s"
while IFS=$'\t' read -r label kind size file kernel regs; do
  [[ $size == 4096 && $label =~ $REPEAT_RE ]] || continue
  run rep none 3 "$ITERS" "$label" "$kind" "$size" "$file" "$kernel"
done <"$ART/list.tsv"
echo "== repeat pass done at +$(( $(date +%s) - T0 )) s"
echo "gpu_after=$(nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader 2>&1 | head -1)" | tee -a "$WORK/env.txt"

SAN="$(command -v compute-sanitizer || ls "$CUDA_HOME"/bin/compute-sanitizer 2>/dev/null | head -1)"
if [[ -n "$SAN" && -z "${SKIP_SANITIZERS:-}" ]]; then
  while IFS=$'\t' read -r label kind size file kernel regs; do
    [[ $label =~ $SAN_RE ]] || continue
    pids=()
    for tool in memcheck racecheck synccheck; do
      left=$(( T0 + SAN_END_S - $(date +%s) ))
      (( left > 15 )) || { echo "[$tool $label] skipped (deadline)"; continue; }
      timeout -k 5 "$left" "$SAN" --tool "$tool" --error-exitcode 99 --print-limit 20 "$RUNNER" --kind "$kind" \
        --module "$ART/$file" --kernel "$kernel" --m "$size" --n "$size" --k "$size" --check full \
        --warmup 0 --iters 1 --seed 77 >"$WORK/san/$tool.$label.log" 2>&1 &
      pids+=($!)
    done
    # wait for these jobs only: a bare `wait` would also wait for the tee of the
    # log redirection above and never return (2026-11-29 run hung here)
    (( ${#pids[@]} )) && wait "${pids[@]}"
  done <"$ART/list.tsv"
  for f in "$WORK"/san/*.log; do
    echo "[san $(basename "$f" .log)] $(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$f" | head -1) $(grep -o 'PASS\|FAIL' "$f" | tail -1)"
  done
fi
echo "== sanitizers done at +$(( $(date +%s) - T0 )) s"

python3 - "$WORK/runs" "$ART/list.tsv" >"$RES/summary.tsv" <<'PY'
import json, os, sys, statistics
runs, lst = sys.argv[1], sys.argv[2]
regs = {l.split("\t")[0]: l.rstrip("\n").split("\t")[5] for l in open(lst)}
rows = {}
for f in sorted(os.listdir(runs)):
    tag, label = f.split(".", 2)[:2]
    try:
        j = json.load(open(os.path.join(runs, f)))
    except Exception as ex:
        print("# unreadable %s: %s" % (f, ex), file=sys.stderr); continue
    rows.setdefault(label, {})[tag] = j
print("label\tsize\tregs\tmedian_ms\trate\trep_median_ms\trep_rate\tcheck\tstatus\tmax_abs_err")
for label in sorted(rows):
    r = rows[label].get("run", {}); p = rows[label].get("rep", {})
    f = lambda d, k, fmt="{}": (fmt.format(d[k]) if k in d and d[k] is not None else "")
    print("\t".join((label, f(r, "m"), f(r, "num_regs"), f(r, "median_ms", "{:.4f}"), f(r, "rate", "{:.0f}"),
                     f(p, "median_ms", "{:.4f}"), f(p, "rate", "{:.0f}"), f(r, "check"), f(r, "status"),
                     f(r, "max_abs_err", "{:.3g}"))))
PY
tar -C "$WORK" -czf "$RES/runs.tar.gz" runs san env.txt
echo; echo "== summary (grep the [run ...] lines above for full data)"
column -t -s $'\t' "$RES/summary.tsv" 2>/dev/null || cat "$RES/summary.tsv"
echo "== done in $(( $(date +%s) - T0 )) s"
