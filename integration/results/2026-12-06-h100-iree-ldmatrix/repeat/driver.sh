#!/bin/sh
# Lean GPU driver (not committed): auto and stages=auto, sanitizers.
set -u
R=$OUT/res; mkdir -p $R
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
date -u > $R/date.txt
cd gpu
PK_IREE_KEEP_DATA=1 sh gA/run_all.sh $R/gA > $R/gA.log 2>&1; cp $R/gA/table.md $OUT/gA-table.md
sh gD/run_all.sh $R/gD > $R/gD.log 2>&1; cp $R/gD/table.md $OUT/gD-table.md
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for nt in matmul_f16f32_4096:memcheck matmul_f16f32_4096:racecheck matmul_transpose_b_f16f32_4096:memcheck matmul_transpose_b_f16f32_4096:racecheck; do
  n=${nt%%:*}; tool=${nt##*:}
  echo "== $n $tool" >> $R/sanitizers.log
  (cd gA/$n && timeout 60 $cs --tool $tool --error-exitcode 3 ../bin/iree-run-module --device=cuda --module=pk.vmfb --function=main $(ls inputs/*.npy | sort | sed 's/^/--input=@/') > $R/san-$n-$tool.txt 2>&1; echo "rc=$?" >> $R/sanitizers.log)
  grep -h "ERROR SUMMARY\|RACECHECK SUMMARY" $R/san-$n-$tool.txt >> $R/sanitizers.log
  cp $R/sanitizers.log $OUT/sanitizers.log
done
cd $OUT && tar czf res.tgz res && rm -rf res
