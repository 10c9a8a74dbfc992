// -test-pk-async-copy: pk's cp.async step alone (convertToAsyncCopies,
// lib/Transforms/AsyncCopy.cpp) with the plans of planAsyncCopies
// (lib/Analysis/AsyncCopyPlan.cpp), on the loops marked `test.async_copy`.
// RUN: pk-opt %s -split-input-file -test-pk-async-copy -verify-diagnostics | FileCheck %s

// A 16-byte vector.load + vector.store becomes one nvgpu.device_async_copy
// of 4 f32 that bypasses L1; its token is the loop body's (the schedule
// commits and waits on it later).
// CHECK-LABEL: gpu.func @k
// CHECK: scf.for %[[K:[a-z0-9_]+]] = 
// CHECK-NOT: vector.load %arg0
// CHECK: nvgpu.device_async_copy %arg0[%{{.*}}, %[[K]]], %arg2[%{{.*}}, %{{.*}}], 4 {bypassL1} : memref<128x4096xf32> to memref<128x32xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: vector.store %{{.*}}, %arg2
// CHECK: gpu.barrier
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
      // expected-remark @below {{async-copy: 1 copies, 1 token(s) in the loop body}}
      %r = scf.for %k = %c0 to %c4096 step %c32 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x4096xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      } {test.async_copy}
      vector.store %r, %out[%tid, %c0] : memref<128x32xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// -----

// A copy that converts the value on its way (here an f32 add) is no copy:
// planAsyncCopies declines at the store, the IR unchanged.
// CHECK-LABEL: gpu.func @k
// CHECK: arith.addf
// CHECK: vector.store
// CHECK-NOT: nvgpu.device_async_copy
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
        %a2 = arith.addf %a, %a : vector<4xf32>
        // expected-remark @below {{async-copy declined:}}
        vector.store %a2, %sA[%tid, %c0] : memref<128x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      } {test.async_copy}
      vector.store %r, %out[%tid, %c0] : memref<128x32xf32>, vector<4xf32>
      gpu.return
    }
  }
}
