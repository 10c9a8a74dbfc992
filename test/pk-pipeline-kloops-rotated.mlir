// RUN: pk-opt %s -split-input-file -verify-diagnostics --pk-pipeline-kloops | FileCheck %s
// RUN: pk-opt %s -split-input-file --pk-analyze-kloops -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANALYZE
//
// The barrier-first rotation of the K-loop cycle (IREE's TileAndFuse and
// VectorDistribute form): gpu.barrier; load; gpu.barrier; compute. pk rotates
// it into load; gpu.barrier; compute; gpu.barrier with one barrier before
// the loop, as the first change of the transform; a loop it declines stays
// as it was.

// Address arithmetic may come before the leading barrier (it has no effect
// on memory). Pipelined with cp.async: the barrier before the loop comes
// before the prologue's copies, and the last tile's compute is followed by
// the rotated barrier.
// CHECK-LABEL: gpu.func @barrier_first
// CHECK:         gpu.barrier
// CHECK-NOT:     scf.for
// CHECK:         nvgpu.device_async_copy
// CHECK:         scf.for
// CHECK:           nvgpu.device_async_copy
// CHECK:         } {pk.pipelined}
// CHECK:         vector.fma
// CHECK-NEXT:    gpu.barrier
// CHECK-NEXT:    vector.store
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @barrier_first(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-remark @below {{pipelined: variant cp-async, 2 shared buffer(s)}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %col = arith.addi %k, %c0 : index
        gpu.barrier
        %a = vector.load %A[%tid, %col] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        scf.yield %d : vector<4xf32>
      }
      vector.store %r, %A[%tid, %c0] : memref<128x256xf32>, vector<4xf32>
      gpu.return
    }
  }
}
// ANALYZE: remark: K-loop: trip count 16, 1 copied buffer(s)
// ANALYZE-SAME: barrier-first (gpu.barrier; load; gpu.barrier; compute: the cycle rotated)

// -----

// Declined (one trip: no next tile to overlap): the loop keeps its barrier
// first and no barrier is added before it.
// CHECK-LABEL: gpu.func @barrier_first_declined
// CHECK-NOT:     gpu.barrier
// CHECK:         scf.for
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      vector.load
// CHECK-NOT:     pk.pipelined
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @barrier_first_declined(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-remark @below {{not pipelined: trip count 1 < 2: no next tile to overlap}}
      %r = scf.for %k = %c0 to %c16 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        gpu.barrier
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        scf.yield %d : vector<4xf32>
      }
      vector.store %r, %A[%tid, %c0] : memref<128x256xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// -----

// A memory access before the leading barrier is no rotation: the barrier
// orders it, and pk says which barrier it expected.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @store_before_barrier(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        vector.store %acc, %sA[%tid, %c0] : memref<128x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        // expected-remark @below {{not pipelined: not a pk K-loop: the last gpu.barrier must be the last operation before scf.yield (or, barrier-first, the first operation of the body after address arithmetic)}}
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        scf.yield %d : vector<4xf32>
      }
      vector.store %r, %A[%tid, %c0] : memref<128x256xf32>, vector<4xf32>
      gpu.return
    }
  }
}
