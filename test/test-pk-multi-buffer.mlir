// -test-pk-multi-buffer: pk's multi-buffering step alone
// (multiBufferCopiedBuffers, lib/Transforms/MultiBuffer.cpp) on the loops
// marked `test.stages = N`; its precondition (checkBufferUses,
// lib/Transforms/BufferUses.cpp) declines at the use that breaks it.
// RUN: pk-opt %s -split-input-file -test-pk-multi-buffer -verify-diagnostics | FileCheck %s

// The copied attribution gets a leading stage dimension; the load phase's
// store and the compute phase's load both index stage (k / 32) % 3 (the
// schedule, a later step, moves them to different tiles).
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: workgroup(%[[S:.*]] : memref<3x128x32xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: scf.for %[[K:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %[[C32:[a-z0-9_]+]] iter_args
// CHECK: %[[T:.*]] = arith.divui %[[K]], %[[C32]] : index
// CHECK: %[[ST:.*]] = arith.remui %[[T]], %{{.*}} : index
// CHECK: vector.store %{{.*}}, %[[S]][%[[ST]], %{{.*}}, %{{.*}}] : memref<3x128x32xf32, #gpu.address_space<workgroup>>
// CHECK: gpu.barrier
// CHECK: %[[T2:.*]] = arith.divui %[[K]], %[[C32]] : index
// CHECK: %[[ST2:.*]] = arith.remui %[[T2]], %{{.*}} : index
// CHECK: vector.load %[[S]][%[[ST2]], %{{.*}}, %{{.*}}] : memref<3x128x32xf32, #gpu.address_space<workgroup>>
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
      } {test.stages = 3 : i64}
      vector.store %r, %out[%tid, %c0] : memref<128x32xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// -----

// test.dynamic: the stages move to one view of dynamic shared memory, whose
// size the kernel records.
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: pk.dynamic_shared_memory_bytes = 49152 : i64
// CHECK: %[[D:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: %[[V:.*]] = memref.view %[[D]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x128x32xf32, #gpu.address_space<workgroup>>
// CHECK: vector.store %{{.*}}, %[[V]][
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
      } {test.stages = 3 : i64, test.dynamic}
      vector.store %r, %out[%tid, %c0] : memref<128x32xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// -----

// A copied buffer read after the loop cannot be given stages: declined at
// that read, the IR unchanged.
// CHECK-LABEL: gpu.func @k
// CHECK-SAME: workgroup(%{{.*}} : memref<128x32xf32, #gpu.address_space<workgroup>>)
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%A: memref<128x4096xf32>, %out: memref<128x32xf32>)
        // expected-note @below {{copied buffer workgroup attribution #0}}
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
      } {test.stages = 2 : i64}
      // expected-remark @below {{multi-buffer declined: copied buffer workgroup attribution #0 is also accessed here, outside the K-loop}}
      %late = vector.load %sA[%tid, %c0] : memref<128x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      vector.store %late, %out[%tid, %c0] : memref<128x32xf32>, vector<4xf32>
      gpu.return
    }
  }
}
