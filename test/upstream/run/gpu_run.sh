#!/usr/bin/env bash
# The GPU side of the upstream-kernel run (test/upstream/README.md, "GPU
# runs"): correctness and timing of every variant that variants.py built, as
# sm_86 PTX (JIT-compiled by the driver) and as sm_90 cubins, then
# compute-sanitizer memcheck / racecheck / synccheck on every pk variant
# (__pk, __pkcp).
# Usage: gpu_run.sh ART_DIR LOG_DIR   (python3 + libcuda + compute-sanitizer)
# SAN_CHIPS (default "sm_86 sm_90"): the chips whose variants are sanitized.
set -uo pipefail
art=$1 log=$2
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mkdir -p "$log"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > "$log/gpu.txt" 2>&1
for chip in sm_86 sm_90; do
  RUN_REPS=${RUN_REPS:-200} python3 "$here/run.py" "$art/$chip" | tee "$log/run_$chip.jsonl"
done
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for chip in ${SAN_CHIPS:-sm_86 sm_90}; do
  for name in $(python3 -c "import json,sys; print(' '.join(e['name'] for e in json.load(open('$art/$chip/manifest.json')) if e['name'].endswith(('__pk', '__pkcp'))))"); do
    for tool in memcheck racecheck synccheck; do
      "$sanitizer" --tool $tool --error-exitcode 9 python3 "$here/run.py" "$art/$chip" --one "$name" > "$log/san.$chip.$name.$tool.txt" 2>&1
      echo "{\"chip\": \"$chip\", \"name\": \"$name\", \"tool\": \"$tool\", \"rc\": $?, \"summary\": \"$(grep -o 'ERROR SUMMARY: [0-9]* error[s]*\|RACECHECK SUMMARY: [0-9]* hazard[s]* displayed ([0-9]* error[s]*, [0-9]* warning[s]*)' "$log/san.$chip.$name.$tool.txt" | head -1)\"}"
    done
  done
done | tee "$log/sanitize.jsonl"
