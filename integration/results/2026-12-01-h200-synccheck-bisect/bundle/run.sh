#!/usr/bin/env bash
# GPU machine, repo root:  bash .gpu/sync-bisect/run.sh
# Every variant (variants.tsv: pk kernels with one PTX edit each, cubins in
# bin/; probe.tsv: the standalone mbarrier-ring probe) once plainly (pk
# kernels with a full element check) and once under compute-sanitizer
# --tool synccheck. One line per variant:
#   VARIANT <name> plain=<ok|rc=N/...> synccheck=<rc=N/ERROR SUMMARY.../runner verdict>
# -> $OUT/summary.txt and $OUT/sync-bisect.tar (every log).
set -uo pipefail
START=$(date +%s)
D=.gpu/sync-bisect
OUT=${OUT:-.gpu/sync-bisect-out}
mkdir -p "$OUT"
R=$(mktemp -d)/sync-bisect
mkdir -p "$R/plain" "$R/synccheck" "$R/extra"
exec > >(tee "$R/run.log") 2>&1

SAN=$(command -v compute-sanitizer || true)
for c in /usr/local/cuda/bin/compute-sanitizer /usr/local/cuda/compute-sanitizer/compute-sanitizer; do
  [ -z "$SAN" ] && [ -x "$c" ] && SAN=$c
done
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "compute-sanitizer: $SAN"; "$SAN" --version 2>&1 | tail -2
"$NVCC" --version | tail -1

RUNNER=$D/pk-runner
"$RUNNER" --help >/dev/null 2>&1
if [ $? -ne 2 ]; then  # usage exits 2 once the binary loads
  RUNNER=$R/pk-runner
  "$NVCC" -O2 -std=c++17 $D/integration/runner/pk-runner.cpp -lcuda -o "$RUNNER" || exit 2
fi
PROBE=$D/probe/ring_probe
"$PROBE" --bars >/dev/null 2>&1
if [ $? -ne 2 ]; then
  PROBE=$R/ring_probe
  "$NVCC" -arch=sm_90a -O2 -std=c++17 $D/probe/ring_probe.cu -o "$PROBE" || exit 2
fi

# plain verdict of a log + rc: ok, or rc=N/why
verdict() {  # LOG RC
  local log=$1 rc=$2 why
  if [ "$rc" = 0 ] && grep -q -E ' PASS$|RESULT PASS' "$log"; then echo ok; return; fi
  why=$(grep -o -E 'CUDA_ERROR_[A-Z_]+|mismatches [0-9]+|RESULT [A-Za-z-]+ \([0-9]+ of|CUDA error in [A-Za-z ]+: [^(]*' "$log" | head -1 | tr ' ' '_' | cut -c1-70)
  [ "$rc" = 124 ] && why=timeout
  echo "rc=$rc/${why:-see-log}"
}
san_verdict() {  # LOG RC
  local log=$1 rc=$2 sum run
  sum=$(grep -o -E 'ERROR SUMMARY: [0-9]+ errors?' "$log" | head -1 | tr ' ' '_' | cut -c1-70)
  run=$(verdict "$log" "$rc")
  [ "$run" = ok ] && run=PASS
  echo "rc=$rc/${sum:-no-summary}/${run}"
}

gemm() {  # NAME SMEM SEED
  echo "$RUNNER --kind hgemm --module $D/bin/$1.cubin --kernel hgemm_wgmma_tma_f16_128x128x64" \
       "--m 512 --n 512 --k 512 --bm 128 --bn 128 --threads 128 --smem $2 --check full" \
       "--warmup 0 --iters 1 --seed $3 --b-layout kn --tma A:64x128:128 --tma B:64x64:128"
}

one() {  # NAME EXPECT COMMAND... (plain, then synccheck)
  local name=$1 expect=$2; shift 2
  local p=$R/plain/$name.log s=$R/synccheck/$name.log rc src pv sv
  echo "\$ $*" >"$p"; timeout 20 "$@" >>"$p" 2>&1; rc=$?; echo "rc $rc" >>"$p"
  pv=$(verdict "$p" $rc)
  [ "$expect" = any ] && [ "$pv" != ok ] && pv="$pv(correctness-not-required)"
  if [ $(( $(date +%s) - START )) -gt 440 ]; then
    sv=skipped-deadline
  else
    echo "\$ $SAN --tool synccheck --error-exitcode 99 --print-limit 50 $*" >"$s"
    timeout 45 "$SAN" --tool synccheck --error-exitcode 99 --print-limit 50 "$@" >>"$s" 2>&1; src=$?
    echo "rc $src" >>"$s"
    sv=$(san_verdict "$s" $src)
  fi
  echo "VARIANT $name plain=$pv synccheck=$sv" | tee -a "$R/summary.txt"
}

echo "== pk kernels (512^3, one PTX edit each; variants.tsv says what each tests)"
while IFS=$'\t' read -r name smem expect _what; do
  [ -z "$name" ] && continue
  # shellcheck disable=SC2046
  one "$name" "$expect" $(gemm "$name" "$smem" 1)
done <$D/variants.tsv

echo "== standalone mbarrier ring probe (cp.async.bulk + complete_tx, no pk)"
while IFS=$'\t' read -r name expect args; do
  [ -z "$name" ] && continue
  # shellcheck disable=SC2086
  one "$name" "$expect" "$PROBE" $args
done <$D/probe.tsv

# Extra evidence, if time is left: synccheck with the detail options on the
# old ring and its gap variant; memcheck and racecheck on pk's fixed output.
extra() {  # TOOL NAME SANITIZER-OPTIONS...
  local tool=$1 n=$2 sm log rc; shift 2
  sm=$(awk -F'\t' -v n="$n" '$1==n{print $2}' $D/variants.tsv)
  log=$R/extra/$tool.$n.log
  # shellcheck disable=SC2046
  timeout 90 "$SAN" --tool "$tool" --error-exitcode 99 "$@" $(gemm "$n" "$sm" 5000) >"$log" 2>&1
  rc=$?
  echo "EXTRA $tool $n $(san_verdict "$log" $rc) ($(grep -c . "$log") log lines)" | tee -a "$R/summary.txt"
}
if [ $(( $(date +%s) - START )) -lt 400 ]; then
  extra synccheck ring --print-level info --show-backtrace device
  extra synccheck ring_gap --print-level info --show-backtrace device
  extra memcheck ring_gap
  for n in pkfix_ring pkfix_mif; do extra memcheck $n; extra racecheck $n; done
fi

echo "== sync-bisect done in $(( $(date +%s) - START )) s"
sleep 1
cp "$R/summary.txt" "$R/run.log" "$OUT/"
tar cf "$OUT/sync-bisect.tar" -C "$(dirname "$R")" sync-bisect
exit 0
