#!/bin/sh
# prepare_gpu.sh OUTROOT PROGRAM.mlir...: pk-iree.sh for each program into
# OUTROOT/<program>/, the IREE runtime tools once into OUTROOT/bin/, and
# OUTROOT/run_all.sh, which runs every OUTROOT/<program>/run.sh on a GPU
# machine (python3 + numpy; no IREE compiler, no MLIR) and prints one table.
# A program pk-iree refuses is listed in OUTROOT/refused.txt (with why) and
# left out of run_all.sh; the exit status is then 1.
# Options for pk-iree.sh go in $PK_IREE_ARGS.
set -u
[ $# -ge 2 ] || { echo "usage: $0 OUTROOT PROGRAM.mlir..." >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
root=$1; shift
mkdir -p "$root"
root=$(cd "$root" && pwd)
rm -rf "$root/bin" "$root/refused.txt"
runtime=$(ls -d "$(dirname "$(readlink -f "${PK_IREE_COMPILE:-/work/iree-venv/bin/iree-compile}")")"/../lib/python3*/site-packages/iree/_runtime_libs 2>/dev/null | head -1)
[ -n "$runtime" ] && [ -x "$runtime/iree-run-module" ] || { echo "prepare_gpu: no IREE runtime tools (pip install iree-base-runtime==3.13.0 next to iree-compile)" >&2; exit 1; }
mkdir -p "$root/bin"
cp "$runtime/iree-run-module" "$runtime/iree-benchmark-module" "$root/bin/"
status=0
names=
for p in "$@"; do
  n=$(basename "$p" .mlir)
  echo "== $n" >&2
  # shellcheck disable=SC2086
  if "$here/pk-iree.sh" "$p" "$root/$n" --bin-dir ../bin ${PK_IREE_ARGS:-} > "$root/$n.prepare.log" 2>&1; then
    cat "$root/$n.prepare.log" >&2
    names="$names $n"
  else
    cat "$root/$n.prepare.log" >&2
    { echo "== $n"; cat "$root/$n.prepare.log"; } >> "$root/refused.txt"
    status=1
  fi
done
cat > "$root/run_all.sh" <<RUNALL
#!/bin/sh
# run_all.sh [RESULTS_DIR]: IREE alone vs IREE + pk for:$names
# (written by integration/iree/prepare_gpu.sh). Logs per program in
# <program>/run.log; the table on stdout and, with RESULTS_DIR, in
# RESULTS_DIR/table.md next to each program's run.log and result.json.
set -u
root=\$(cd "\$(dirname "\$0")" && pwd)
res=\${1:-}
[ -z "\$res" ] || mkdir -p "\$res"
status=0
rows=
for n in$names; do
  echo "== \$n" >&2
  PK_IREE_NO_HEADER=1 sh "\$root/\$n/run.sh" > "\$root/\$n/row.txt" 2> "\$root/\$n/run.log" || status=1
  cat "\$root/\$n/run.log" >&2
  cat "\$root/\$n/row.txt" >&2
  if [ -n "\$res" ]; then
    mkdir -p "\$res/\$n"
    cp "\$root/\$n/run.log" "\$root/\$n/row.txt" "\$res/\$n/"
    [ ! -f "\$root/\$n/rep_row.txt" ] || cp "\$root/\$n/rep_row.txt" "\$res/\$n/"
    [ ! -f "\$root/\$n/result.json" ] || cp "\$root/\$n/result.json" "\$res/\$n/"
    cp "\$root/\$n/remarks.txt" "\$root/\$n/abi.txt" "\$root/\$n/summary.txt" "\$res/\$n/"
  fi
done
{
  echo "IREE 3.13 (sm_86 PTX) alone vs IREE + pk; \$(date -u '+%Y-%m-%d %H:%M UTC'); \$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
  echo "iree-benchmark-module --device=cuda --function=main --benchmark_repetitions=\${PK_IREE_REPS:-5} (mean of the repetitions);"
  echo "check: |pk - iree| <= 1e-2*|iree| + 1e-5*K, inputs uniform [-1,1) seeded (gpu_compare.py)"
  echo
  echo "| program | IREE alone ms | IREE+pk ms | speedup | IREE TFLOP/s | IREE+pk TFLOP/s | max abs err | check |"
  echo "|---|---|---|---|---|---|---|---|"
  for n in$names; do cat "\$root/\$n/row.txt"; done
  echo
  if ls "\$root"/*/rep_row.txt > /dev/null 2>&1; then
    echo "Per dispatch (pk-iree --dispatch-repeat N: each dispatch N times per call, mean call time / N):"
    echo
    echo "| program | N | IREE alone ms/dispatch | IREE+pk ms/dispatch | speedup | IREE TFLOP/s | IREE+pk TFLOP/s |"
    echo "|---|---|---|---|---|---|---|"
    for n in$names; do [ ! -f "\$root/\$n/rep_row.txt" ] || cat "\$root/\$n/rep_row.txt"; done
    echo
  fi
  echo "pk per dispatch (summary.txt):"
  for n in$names; do echo "- \$n: \$(cat "\$root/\$n/summary.txt")"; done
} > "\$root/table.md"
cat "\$root/table.md"
[ -z "\$res" ] || cp "\$root/table.md" "\$res/"
exit \$status
RUNALL
chmod +x "$root/run_all.sh"
echo "prepare_gpu: $root/run_all.sh for:$names ($(du -sh "$root" | cut -f1))" >&2
[ ! -f "$root/refused.txt" ] || echo "prepare_gpu: refused: see $root/refused.txt" >&2
exit $status
