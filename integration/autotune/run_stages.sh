#!/usr/bin/env bash
# GPU machine, repo root: measure the candidate sets built by build_stages.sh,
# check them, run compute-sanitizer, decide, and (if time is left) run the
# check-pk-integration lit suite.
#
#   bash integration/autotune/run_stages.sh [ARTIFACTS]   (default: integration/artifacts/stages)
#
# Everything goes to $OUT (the device tool's output folder; default
# integration/results-local/stages): device.log and results.tgz (the candidate
# directories' manifest/measurements/sanitizers/decision files and run logs),
# re-packed after every step so that a cut-off run still returns what it had.
# No background jobs and no tee: every step runs under `timeout` with what is
# left of END_S (default 330 s after the start).
#
# Steps: 1. pk-runner (pkint.py build-runner: g++ against libcuda, nvcc as fallback)
#        2. autotune run + decide: hgemm_4096, igemm_4096 (ROUNDS_4096 rounds x
#           (5 warm-up + 20 timed launches); 64-row check in round 1)
#        3. partial / small K: hgemm_512x512x{4000,40,33,32} (full check),
#           hgemm_4096x4096x4000 (64 rows); 1 round of 10 timed launches
#        4. hgemm_512, igemm_512: full check (1 round)
#        5. compute-sanitizer memcheck/racecheck/synccheck on the pipelined
#           candidates of hgemm_512 and igemm_512, memcheck on those of the
#           partial-K 512 sets, then memcheck/racecheck/synccheck on the baselines
#        6. lit -v integration/test (needs lit: a wheel in .whl/ is installed to /tmp)
set -u
T0=$(date +%s)
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ART="$(cd "${1:-$ROOT/integration/artifacts/stages}" && pwd)" || { echo "no artefacts" >&2; exit 2; }
RES="${OUT:-$ROOT/integration/results-local/stages}"
mkdir -p "$RES"
RES="$(cd "$RES" && pwd)"
END_S="${END_S:-330}"
ROUNDS_4096="${ROUNDS_4096:-3}"
LOG="$RES/device.log"
AT="python3 $ROOT/integration/autotune/autotune.py"
export PYTHONUNBUFFERED=1
: >"$LOG"

left() { echo $(( T0 + END_S - $(date +%s) )); }
say() { echo "[+$(( $(date +%s) - T0 ))s] $*" | tee -a "$LOG"; }
step() {  # step TIMEOUT_CAP DESCRIPTION CMD...  (runs under min(cap, time left))
  local cap=$1 what=$2; shift 2
  local l; l=$(left)
  if (( l < 10 )); then say "SKIP $what (deadline)"; return 0; fi
  local t=$(( l < cap ? l : cap ))
  say "START $what (timeout ${t}s)"
  timeout -k 5 "$t" "$@" >>"$LOG" 2>&1
  local rc=$?
  say "END $what: rc $rc"
  return 0
}
pack() {
  (cd "$ART" && tar -czf "$RES/results.tgz.tmp" --exclude='*.cubin' --exclude='*.ptx' \
      --exclude='*.mlir' --exclude='src' . 2>/dev/null) && mv "$RES/results.tgz.tmp" "$RES/results.tgz"
}

{
  echo "date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "host=$(hostname) kernel=$(uname -r) cpus=$(nproc)"
  echo "gpu=$(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader 2>&1 | head -1)"
  echo "nvcc=$(nvcc --version 2>/dev/null | tail -1)"
  echo "sanitizer=$(compute-sanitizer --version 2>/dev/null | grep -i version | head -1)"
  echo "python=$(python3 --version 2>&1)"
} | tee -a "$LOG"

RUNNER="${RUNNER:-}"
if [[ -n "$RUNNER" ]]; then say "pk-runner: $RUNNER (given)"; else
RUNNER="$(python3 "$ROOT/integration/pkint.py" build-runner /tmp/pk-runner 2>>"$LOG")" \
  || { say "cannot build pk-runner"; exit 2; }
say "pk-runner built ($(python3 "$ROOT/integration/pkint.py" tools cuda))"
fi
SAN=()
[[ -n "${SANITIZER:-}" ]] && SAN=(--sanitizer "$SANITIZER")

# 2. stage benchmark / autotune at 4096^3
for s in hgemm_4096 igemm_4096; do
  step 120 "run $s" $AT run --dir "$ART/$s" --runner "$RUNNER" --rounds "$ROUNDS_4096" \
    --warmup 5 --iters 20 --allow-failures
  step 20 "decide $s" $AT decide --dir "$ART/$s"
  pack
done
# 3. partial / small K
for s in hgemm_512x512x4000 hgemm_512x512x4008 hgemm_512x512x40 hgemm_512x512x33 hgemm_512x512x32 hgemm_4096x4096x4000; do
  step 90 "run $s" $AT run --dir "$ART/$s" --runner "$RUNNER" --rounds 1 --warmup 3 --iters 10 --allow-failures
  step 20 "decide $s" $AT decide --dir "$ART/$s"
done
pack
# 4. 512^3 stage kernels, full check
for s in hgemm_512 igemm_512; do
  step 60 "run $s" $AT run --dir "$ART/$s" --runner "$RUNNER" --rounds 1 --warmup 3 --iters 10 --allow-failures
done
pack
# 5. sanitizers
for s in hgemm_512 igemm_512; do
  step 150 "sanitize $s" $AT sanitize --dir "$ART/$s" --runner "$RUNNER" ${SAN[@]+"${SAN[@]}"} --jobs 6 \
    --tools memcheck,synccheck,racecheck --deadline-s "$(( $(left) - 5 ))" --allow-failures
  pack
done
for s in hgemm_512x512x4008 hgemm_512x512x4000 hgemm_512x512x40 hgemm_512x512x33; do
  step 90 "memcheck $s" $AT sanitize --dir "$ART/$s" --runner "$RUNNER" ${SAN[@]+"${SAN[@]}"} --jobs 6 --tools memcheck \
    --deadline-s "$(( $(left) - 5 ))" --allow-failures
done
pack
for s in hgemm_512 igemm_512 hgemm_512x512x32; do
  # baselines (and the K=32 kernels, which are not pipelined): reference for any finding
  step 60 "sanitize baselines $s" $AT sanitize --dir "$ART/$s" --runner "$RUNNER" ${SAN[@]+"${SAN[@]}"} --jobs 6 --select unpipelined \
    --tools memcheck,synccheck,racecheck --deadline-s "$(( $(left) - 5 ))" --allow-failures
done
for s in hgemm_512 igemm_512 hgemm_512x512x4000 hgemm_512x512x4008 hgemm_512x512x40 hgemm_512x512x33 hgemm_512x512x32; do
  $AT decide --dir "$ART/$s" >>"$LOG" 2>&1
done
for s in hgemm igemm; do  # the 4096^3 decision, with the 512^3 build's sanitizer results
  $AT decide --dir "$ART/${s}_4096" --sanitizers "$ART/${s}_512/sanitizers.json" >>"$LOG" 2>&1
done
pack
# 6. the lit suite (check-pk-integration) as it runs on a GPU machine without MLIR
if (( $(left) > 40 )) && ls "$ROOT"/.whl/lit-*.whl >/dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --target /tmp/litsite "$ROOT"/.whl/lit-*.whl >>"$LOG" 2>&1
  export PK_RUNNER="$RUNNER" PYTHONPATH=/tmp/litsite
  step 120 "lit integration/test" python3 /tmp/litsite/bin/lit -v "$ROOT/integration/test"
fi
echo "gpu_after=$(nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader 2>&1 | head -1)" >>"$LOG"
pack
say "done"
# short summary for the reply's output tail
for s in hgemm_4096 igemm_4096; do [[ -f "$ART/$s/decision.md" ]] && sed -n '1,40p' "$ART/$s/decision.md"; done
grep -E "^\[san .*\] (FINDINGS|rc )|FAIL|Unsupported|Passed|Failed" "$LOG" | tail -40
