// -test-pk-tma-ring: the TMA ring's steps alone (lib/Transforms/TmaRing.cpp:
// the loads' destination views sunk into the loop, multi-buffering, the
// barrier ring), no schedule. The example TMA kernel's loop is checked in
// test/e2e/test-pk-tma-ring.test.
// A thread-copy loop is not a TMA loop: declined, unchanged.
// RUN: pk-opt %s -test-pk-tma-ring -verify-diagnostics | FileCheck %s --check-prefix=THREADS

// THREADS-LABEL: gpu.func @k
// THREADS-SAME: workgroup(%{{.*}} : memref<128x32xf32, #gpu.address_space<workgroup>>)
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
      // expected-remark @below {{tma-ring declined: not a TMA K-loop}}
      %r = scf.for %k = %c0 to %c4096 step %c32 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x4096xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      } {test.stages = 3 : i64}
      vector.store %r, %out[%tid, %c0] : memref<128x32xf32>, vector<4xf32>
      gpu.return
    }
  }
}
