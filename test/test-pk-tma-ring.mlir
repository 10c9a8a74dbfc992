// -test-pk-tma-ring: the TMA ring's steps alone (lib/Transforms/TmaRing.cpp:
// the loads' destination views sunk into the loop, multi-buffering, the
// barrier ring), no schedule, on the TMA loop marked `test.stages = 3` of the
// example TMA kernel.
// RUN: sed 's/} {loop_annotation/} {test.stages = 3 : i64, loop_annotation/' %examples/hgemm_wgmma_tma_f16_128x128x64.mlir | pk-opt -test-pk-tma-ring | FileCheck %s
// A thread-copy loop is not a TMA loop: declined, unchanged.
// RUN: pk-opt %s -test-pk-tma-ring -verify-diagnostics | FileCheck %s --check-prefix=THREADS

// The one mbarrier becomes a group of 3, each initialised as the original;
// tile t's expect_tx and loads use barrier t % 3 and stage t % 3 of the
// tiles; the wait is on barrier t % 3 with parity (t / 3) % 2.
// CHECK: %[[BAR:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK-COUNT-3: nvgpu.mbarrier.init %[[BAR]][%{{.*}}], %{{.*}} : <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK: scf.for %[[K:[a-z0-9_]+]] = %{{.*}} to %{{.*}} step %[[C64:[a-z0-9_]+]]
// CHECK: %[[T:.*]] = arith.divui %[[K]], %[[C64]] : index
// CHECK: %[[S:.*]] = arith.remui %[[T]], %[[C3:.*]] : index
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[BAR]][%[[S]]], %{{.*}}, predicate
// CHECK: %[[DA:.*]] = memref.subview %{{.*}}[%[[S]], 0, 0] [1, 128, 64] [1, 1, 1] : memref<3x128x64xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.async.load %{{.*}}[%[[K]], %{{.*}}], %[[BAR]][%[[S]]] to %[[DA]], predicate
// CHECK: %[[T2:.*]] = arith.divui %[[K]], %[[C64]] : index
// CHECK: %[[W:.*]] = arith.remui %[[T2]], %[[C3B:.*]] : index
// CHECK: %[[R:.*]] = arith.divui %[[T2]], %[[C3B]] : index
// CHECK: %[[P:.*]] = arith.remui %[[R]], %{{.*}} : index
// CHECK: %[[PAR:.*]] = arith.index_cast %[[P]] : index to i1
// CHECK: nvgpu.mbarrier.try_wait.parity %[[BAR]][%[[W]]], %[[PAR]], %{{.*}}
// CHECK-NOT: pk.pipelined

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
