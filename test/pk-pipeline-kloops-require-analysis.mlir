// pk-pipeline-kloops applies the decisions pk-analyze-kloops made just before
// on the same operation with the same options (KLoopAnalysisCache,
// lib/Passes/PassUtils.h) instead of matching and deciding each loop again;
// pipeline-kernel runs them so, with require-analysis, which makes a lost
// decision an internal error. The K-loop of @k decided once:
// RUN: pk-opt %s --pk-analyze-kloops='arch=sm_90 verbose=false' --pk-check-smem-budget='arch=sm_90' --pk-pipeline-kloops='arch=sm_90 require-analysis=true' 2>&1 | FileCheck %s --check-prefix=ONCE
// ONCE: remark: K-loop: trip count 128, 1 copied buffer(s)
// ONCE: remark: shared-memory budget ok: 32768 bytes with 2 stages
// ONCE: remark: pipelined: variant cp-async, 2 shared buffer(s)
// ONCE: } {pk.pipelined
//
// The analysis decided with other options (variant auto, not ldg-register):
// decided again, or with require-analysis an error.
// RUN: pk-opt %s --pk-analyze-kloops='arch=sm_90 verbose=false' --pk-pipeline-kloops='arch=sm_90 variant=ldg-register' -o /dev/null 2>&1 | FileCheck %s --check-prefix=AGAIN
// AGAIN: remark: pipelined: variant ldg-register, 2 shared buffer(s)
// RUN: not pk-opt %s --pk-analyze-kloops='arch=sm_90 verbose=false' --pk-pipeline-kloops='arch=sm_90 variant=ldg-register require-analysis=true' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OTHER
// OTHER: require-analysis-input.mlir:[[#LOOP:]]:{{[0-9]+}}: remark: K-loop
// OTHER: require-analysis-input.mlir:[[#LOOP]]:{{[0-9]+}}: error: pk internal error: require-analysis: the loop has no decision from the pk-analyze-kloops run before this pass (same operation, same options, IR unchanged)
// OTHER-NOT: remark: pipelined
//
// A pass in between that may change the IR (canonicalize) drops the
// decisions; without an analysis there are none.
// RUN: not pk-opt %s --pk-analyze-kloops='arch=sm_90 verbose=false' --canonicalize --pk-pipeline-kloops='arch=sm_90 require-analysis=true' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: pk-opt %s -verify-diagnostics --pk-pipeline-kloops='arch=sm_90 require-analysis=true' -o /dev/null
// NONE: error: pk internal error: require-analysis: no decisions to apply
// NONE-NOT: remark: pipelined

// expected-error @below {{pk internal error: require-analysis: no decisions to apply from the pk-analyze-kloops run before this pass (same operation, same options, IR unchanged)}}
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%A: memref<128x4096xf32>, %out: memref<128x32xf32>)
        workgroup(%sA: memref<128x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c4096 = arith.constant 4096 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %r = scf.for %k = %c0 to %c4096 step %c32 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x4096xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      } loc("require-analysis-input.mlir":42:12)
      vector.store %r, %out[%tid, %c0] : memref<128x32xf32>, vector<4xf32>
      gpu.return
    }
  }
}
