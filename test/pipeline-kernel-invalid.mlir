// RUN: pk-opt %s -split-input-file -verify-diagnostics --pipeline-kernel='variant=cp-async regs-per-thread=32' -o /dev/null
// RUN: not pk-opt %s --pipeline-kernel='variant=fastest' -o /dev/null 2>&1 | FileCheck %s --check-prefix=VARIANT
// RUN: not pk-opt %s --pipeline-kernel='stages=9' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STAGES
// RUN: not pk-opt %s --pipeline-kernel='emit=sass out-dir=%t' -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not pk-opt %s --pipeline-kernel='min-blocks-per-sm=many' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BLOCKS

// VARIANT: for the --variant option: Cannot find option named 'fastest'!
// VARIANT-NEXT: error: pipeline-kernel: cannot parse the options 'variant=fastest' (llvm::cl names the option and the value above)
// An unknown option, in the pass-pipeline form too: the pass is named.
// RUN: not pk-opt %s --pipeline-kernel='stagez=3' -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: error: pipeline-kernel: cannot parse the options 'stagez=3': <Pass-Options-Parser>: no such option stagez
// RUN: not pk-opt %s --pass-pipeline='builtin.module(pk-pipeline-kloops{schedule=fancy})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PIPELINE
// PIPELINE: for the --schedule option: Cannot find option named 'fancy'!
// PIPELINE-NEXT: error: pk-pipeline-kloops: cannot parse the options 'schedule=fancy' (llvm::cl names the option and the value above)
// STAGES: error: stages must be 2 to 8 or auto, got '9'
// EMIT: for the --emit option: Cannot find option named 'sass'!
// BLOCKS: min-blocks-per-sm must be a number of blocks, kernel or auto, got 'many'

// The budget errors on gen_gemm.py and example kernels (WG2-*, WS-BUDGET)
// are in test/e2e/pipeline-kernel-invalid.test.

// An explicit doubling variant that crosses the sm_86 cliff is rejected by
// the pipeline's budget check (with variant=auto pk would prefetch through
// registers instead): 28 KB single-buffered, 57344 bytes doubled.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @cliff(%A: memref<448x256xf16>, %out: memref<448xf32>)
        workgroup(%s: memref<448x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-remark @below {{K-loop: trip count 8}}
      // expected-note @below {{above the sm_86 cliff of 50176 bytes}}
      // expected-error @below {{multi-buffering with 2 stages needs 57344 bytes of shared memory per block (28672 single-buffered, 28672 per stage), above the sm_86 cliff of 50176 bytes for 2 blocks/SM (blocks/SM 3 -> 1, limited by shared_memory)}}
      %r = scf.for %k = %c0 to %c256 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %v = vector.load %A[%tid, %k] : memref<448x256xf16>, vector<8xf16>
        vector.store %v, %s[%tid, %c0] : memref<448x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%tid, %c8] : memref<448x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      %e = vector.extract %r[0] : f32 from vector<8xf32>
      memref.store %e, %out[%tid] : memref<448xf32>
      gpu.return
    }
  }
}
