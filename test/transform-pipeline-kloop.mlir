// RUN: pk-opt %s -split-input-file -transform-interpreter -verify-diagnostics | FileCheck %s

// transform.pk.pipeline_kloop and transform.pk.analyze_kloop, driven by
// transform scripts as an embedding compiler would: the K-loop is the scf.for
// that holds the gpu.barrier ops. The declined cases are in
// transform-pipeline-kloop-invalid.mlir.

// The seed example (Inputs/seed-64x64x16.mlir) with every option spelled out
// (the defaults): cp-async into two buffers. The result handles are the
// steady-state loop, the prologue ops (tile 0's copies into buffer 0 and
// their group, with the stage index the multi-buffering computes) and the
// epilogue ops (the wait and the compute of the last tile, and the final
// barrier).
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @seed {
    gpu.func @gemm_64x64x16(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>,
                            %C: memref<1024x1024xf32>)
        workgroup(%smemA: memref<64x16xf16, #gpu.address_space<workgroup>>,
                  %smemB: memref<64x16xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %lane = gpu.lane_id
      %row = arith.divui %tid, %c2 : index
      %half = arith.remui %tid, %c2 : index
      %col = arith.muli %half, %c8 : index
      %lrow = arith.remui %lane, %c16 : index
      %init = arith.constant dense<0.0> : vector<2x2xf32>
      %res = scf.for %k = %c0 to %c1024 step %c16 iter_args(%acc = %init) -> (vector<2x2xf32>) {
        %gk = arith.addi %k, %col : index
        %a = vector.load %A[%row, %gk] {alignment = 16} : memref<1024x1024xf16>, vector<8xf16>
        vector.store %a, %smemA[%row, %col] {alignment = 16} : memref<64x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %b = vector.load %B[%row, %gk] {alignment = 16} : memref<1024x1024xf16>, vector<8xf16>
        vector.store %b, %smemB[%row, %col] {alignment = 16} : memref<64x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%x = %acc) -> (vector<2x2xf32>) {
          %fa = nvgpu.ldmatrix %smemA[%lrow, %c0] {numTiles = 4 : i32, transpose = false}
              : memref<64x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
          %fb = nvgpu.ldmatrix %smemB[%lrow, %c0] {numTiles = 2 : i32, transpose = false}
              : memref<64x16xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
          %d = nvgpu.mma.sync (%fa, %fb, %x) {mmaShape = [16, 8, 16]}
              : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
          scf.yield %d : vector<2x2xf32>
        }
        gpu.barrier
        scf.yield %sum : vector<2x2xf32>
      }
      %r0 = vector.extract %res[0] : vector<2xf32> from vector<2x2xf32>
      vector.store %r0, %C[%row, %col] : memref<1024x1024xf32>, vector<2xf32>
      gpu.return
    }
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %barriers = transform.structured.match ops{["gpu.barrier"]} in %root : (!transform.any_op) -> !transform.any_op
    %loop = transform.get_parent_op %barriers {op_name = "scf.for", deduplicate} : (!transform.any_op) -> !transform.any_op
    %steady, %prologue, %epilogue = transform.pk.pipeline_kloop %loop {arch = "sm_86", stages = 2, variant = "auto", schedule = "auto"} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %steady "test.steady_state" : !transform.any_op
    transform.annotate %prologue "test.prologue" : !transform.any_op
    transform.annotate %epilogue "test.epilogue" : !transform.any_op
    %num_prologue = transform.num_associations %prologue : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{prologue ops 7 : i64}}
    transform.debug.emit_param_as_remark %num_prologue, "prologue ops" : !transform.param<i64>
    %num_epilogue = transform.num_associations %epilogue : (!transform.any_op) -> !transform.param<i64>
    // expected-remark @below {{epilogue ops 7 : i64}}
    transform.debug.emit_param_as_remark %num_epilogue, "epilogue ops" : !transform.param<i64>
    transform.yield
  }
}

// CHECK-LABEL: gpu.func @gemm_64x64x16
// CHECK-SAME:    workgroup(%[[SA:.*]] : memref<2x64x16xf16, #gpu.address_space<workgroup>> {{.*}}, %[[SB:.*]] : memref<2x64x16xf16, #gpu.address_space<workgroup>>
// Prologue: tile 0 into buffer 0, every op in the %prologue handle.
// CHECK-NOT:     test.prologue
// CHECK:         arith.divui {{.*}} {test.prologue}
// CHECK-NEXT:    arith.constant {test.prologue} 2
// CHECK-NEXT:    arith.remui {{.*}} {test.prologue}
// CHECK-NEXT:    arith.addi {{.*}} {test.prologue}
// CHECK-NEXT:    nvgpu.device_async_copy %{{.*}}, %[[SA]][{{.*}} {bypassL1, test.prologue}
// CHECK-NEXT:    nvgpu.device_async_copy %{{.*}}, %[[SB]][{{.*}} {bypassL1, test.prologue}
// CHECK-NEXT:    %[[G0:.*]] = nvgpu.device_async_create_group {{.*}} {test.prologue}
// CHECK-NOT:     test.prologue
// The steady-state loop, the one the result handle points to.
// CHECK:         %[[R:.*]]:2 = scf.for {{.*}} iter_args({{.*}}, %[[G:.*]] = %[[G0]])
// CHECK:           nvgpu.device_async_wait %[[G]] {numGroups = 0 : i32}
// CHECK-NEXT:      gpu.barrier
// CHECK:           nvgpu.device_async_copy
// CHECK:           nvgpu.device_async_copy
// CHECK:           nvgpu.device_async_create_group
// CHECK:           nvgpu.mma.sync
// CHECK:         } {pk.pipelined, test.steady_state}
// Epilogue: the last tile, every op in the %epilogue handle, and the barrier
// pk adds after it.
// CHECK-NOT:     test.epilogue
// CHECK:         nvgpu.device_async_wait %[[R]]#1 {numGroups = 0 : i32, test.epilogue}
// CHECK-NEXT:    gpu.barrier {test.epilogue}
// CHECK-NEXT:    arith.divui {{.*}} {test.epilogue}
// CHECK-NEXT:    arith.constant {test.epilogue} 2
// CHECK-NEXT:    arith.remui {{.*}} {test.epilogue}
// CHECK-NEXT:    scf.for
// CHECK:           nvgpu.mma.sync
// CHECK:         } {test.epilogue}
// CHECK-NEXT:    gpu.barrier {test.epilogue}
// CHECK-NOT:     test.
// CHECK:         gpu.return

// -----

// Options reach the decision: ldg-register forced, on sm_75 (no cp.async).
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @seed {
    gpu.func @gemm_64x64x16(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>,
                            %C: memref<1024x1024xf32>)
        workgroup(%smemA: memref<64x16xf16, #gpu.address_space<workgroup>>,
                  %smemB: memref<64x16xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %lane = gpu.lane_id
      %row = arith.divui %tid, %c2 : index
      %half = arith.remui %tid, %c2 : index
      %col = arith.muli %half, %c8 : index
      %lrow = arith.remui %lane, %c16 : index
      %init = arith.constant dense<0.0> : vector<2x2xf32>
      %res = scf.for %k = %c0 to %c1024 step %c16 iter_args(%acc = %init) -> (vector<2x2xf32>) {
        %gk = arith.addi %k, %col : index
        %a = vector.load %A[%row, %gk] {alignment = 16} : memref<1024x1024xf16>, vector<8xf16>
        vector.store %a, %smemA[%row, %col] {alignment = 16} : memref<64x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %b = vector.load %B[%row, %gk] {alignment = 16} : memref<1024x1024xf16>, vector<8xf16>
        vector.store %b, %smemB[%row, %col] {alignment = 16} : memref<64x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%x = %acc) -> (vector<2x2xf32>) {
          %fa = nvgpu.ldmatrix %smemA[%lrow, %c0] {numTiles = 4 : i32, transpose = false}
              : memref<64x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
          %fb = nvgpu.ldmatrix %smemB[%lrow, %c0] {numTiles = 2 : i32, transpose = false}
              : memref<64x16xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
          %d = nvgpu.mma.sync (%fa, %fb, %x) {mmaShape = [16, 8, 16]}
              : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
          scf.yield %d : vector<2x2xf32>
        }
        gpu.barrier
        scf.yield %sum : vector<2x2xf32>
      }
      %r0 = vector.extract %res[0] : vector<2xf32> from vector<2x2xf32>
      vector.store %r0, %C[%row, %col] : memref<1024x1024xf32>, vector<2xf32>
      gpu.return
    }
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %barriers = transform.structured.match ops{["gpu.barrier"]} in %root : (!transform.any_op) -> !transform.any_op
    %loop = transform.get_parent_op %barriers {op_name = "scf.for", deduplicate} : (!transform.any_op) -> !transform.any_op
    %steady, %prologue, %epilogue = transform.pk.pipeline_kloop %loop {arch = "sm_75", variant = "ldg-register"} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// CHECK-LABEL: gpu.func @gemm_64x64x16
// CHECK-SAME:    memref<2x64x16xf16, #gpu.address_space<workgroup>>
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         scf.for
// CHECK:           vector.load %arg0
// CHECK:           vector.load %arg1
// CHECK:           nvgpu.mma.sync
// CHECK:           gpu.barrier
// CHECK:           vector.store
// CHECK:           vector.store
// CHECK:           gpu.barrier
// CHECK:         } {pk.pipelined}

// -----

// The prologue and epilogue handles, reported at the ops they were peeled
// from. register-prefetch keeps one buffer (no stage index): the prologue
// loads the first tile into registers and stores it to shared memory, the
// epilogue computes the last tile.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @m {
    gpu.func @fma(%A: memref<64x4096xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c4096 = arith.constant 4096 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c4096 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        // expected-remark @below {{prologue}}
        %gk = arith.addi %k, %col : index
        // expected-remark @below {{prologue}}
        %v = vector.load %A[%row, %gk] : memref<64x4096xf16>, vector<8xf16>
        // expected-remark @below {{prologue}}
        vector.store %v, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        // expected-remark @below {{prologue}}
        gpu.barrier
        // expected-remark @below {{epilogue}}
        %x = vector.load %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        // expected-remark @below {{epilogue}}
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        // expected-remark @below {{epilogue}}
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        // expected-remark @below {{epilogue}}
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      %e = vector.extract %r[0] : f32 from vector<8xf32>
      memref.store %e, %out[%row] : memref<64xf32>
      gpu.return
    }
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %barriers = transform.structured.match ops{["gpu.barrier"]} in %root : (!transform.any_op) -> !transform.any_op
    %loop = transform.get_parent_op %barriers {op_name = "scf.for", deduplicate} : (!transform.any_op) -> !transform.any_op
    %steady, %prologue, %epilogue = transform.pk.pipeline_kloop %loop {variant = "register-prefetch"} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.debug.emit_remark_at %prologue, "prologue" : !transform.any_op
    transform.debug.emit_remark_at %epilogue, "epilogue" : !transform.any_op
    transform.yield
  }
}

// CHECK-LABEL: gpu.func @fma
// CHECK:         vector.load %arg0
// CHECK:         vector.store
// CHECK:         gpu.barrier
// CHECK:         scf.for
// CHECK:         } {pk.pipelined}
// CHECK:         vector.fma
// CHECK:         gpu.barrier
// CHECK:         gpu.return

// -----

// A dynamic trip count: pk versions the loop, and the three handles point
// into the branch that runs the pipelined loop; the original loop in the
// other branch (pk.pipeline_fallback) is in none of them.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @m {
    gpu.func @dynamic(%A: memref<64x4096xf16>, %out: memref<64xf32>, %n: index)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %n step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x4096xf16>, vector<8xf16>
        vector.store %v, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      %e = vector.extract %r[0] : f32 from vector<8xf32>
      memref.store %e, %out[%row] : memref<64xf32>
      gpu.return
    }
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %barriers = transform.structured.match ops{["gpu.barrier"]} in %root : (!transform.any_op) -> !transform.any_op
    %loop = transform.get_parent_op %barriers {op_name = "scf.for", deduplicate} : (!transform.any_op) -> !transform.any_op
    %steady, %prologue, %epilogue = transform.pk.pipeline_kloop %loop : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %steady "test.steady_state" : !transform.any_op
    transform.annotate %prologue "test.prologue" : !transform.any_op
    transform.annotate %epilogue "test.epilogue" : !transform.any_op
    transform.yield
  }
}

// CHECK-LABEL: gpu.func @dynamic
// CHECK-NOT:     test.
// CHECK:         scf.if %{{.*}} -> (vector<8xf32>) {
// CHECK-NOT:       test.epilogue
// CHECK:           nvgpu.device_async_copy {{.*}} {bypassL1, test.prologue}
// CHECK-NEXT:      nvgpu.device_async_create_group {{.*}} {test.prologue}
// CHECK-NOT:       test.
// CHECK:           } {pk.pipelined, test.steady_state}
// CHECK-NOT:       test.prologue
// CHECK:           nvgpu.device_async_wait {{.*}} {numGroups = 0 : i32, test.epilogue}
// CHECK:           vector.fma {{.*}} {test.epilogue}
// CHECK:           gpu.barrier {test.epilogue}
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } else {
// CHECK-NOT:       test.
// CHECK:           } {pk.pipeline_fallback}
// CHECK-NOT:     test.
// CHECK:         gpu.return

// -----

// A script that tries pk on every kernel: inside failures(suppress), the
// loop pk declines (trip count 1) stays as it is and the script goes on; the
// result handles hold what pk made of the other loop only.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @seed {
    gpu.func @gemm_64x64x16(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>,
                            %C: memref<1024x1024xf32>)
        workgroup(%smemA: memref<64x16xf16, #gpu.address_space<workgroup>>,
                  %smemB: memref<64x16xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %lane = gpu.lane_id
      %row = arith.divui %tid, %c2 : index
      %half = arith.remui %tid, %c2 : index
      %col = arith.muli %half, %c8 : index
      %lrow = arith.remui %lane, %c16 : index
      %init = arith.constant dense<0.0> : vector<2x2xf32>
      %res = scf.for %k = %c0 to %c1024 step %c16 iter_args(%acc = %init) -> (vector<2x2xf32>) {
        %gk = arith.addi %k, %col : index
        %a = vector.load %A[%row, %gk] {alignment = 16} : memref<1024x1024xf16>, vector<8xf16>
        vector.store %a, %smemA[%row, %col] {alignment = 16} : memref<64x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %b = vector.load %B[%row, %gk] {alignment = 16} : memref<1024x1024xf16>, vector<8xf16>
        vector.store %b, %smemB[%row, %col] {alignment = 16} : memref<64x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%x = %acc) -> (vector<2x2xf32>) {
          %fa = nvgpu.ldmatrix %smemA[%lrow, %c0] {numTiles = 4 : i32, transpose = false}
              : memref<64x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
          %fb = nvgpu.ldmatrix %smemB[%lrow, %c0] {numTiles = 2 : i32, transpose = false}
              : memref<64x16xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
          %d = nvgpu.mma.sync (%fa, %fb, %x) {mmaShape = [16, 8, 16]}
              : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
          scf.yield %d : vector<2x2xf32>
        }
        gpu.barrier
        scf.yield %sum : vector<2x2xf32>
      }
      %r0 = vector.extract %res[0] : vector<2xf32> from vector<2x2xf32>
      vector.store %r0, %C[%row, %col] : memref<1024x1024xf32>, vector<2xf32>
      gpu.return
    }
    gpu.func @trip1(%A: memref<64x32xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c32 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x32xf16>, vector<8xf16>
        vector.store %v, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      %e = vector.extract %r[0] : f32 from vector<8xf32>
      memref.store %e, %out[%row] : memref<64xf32>
      gpu.return
    }
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%arg0: !transform.any_op):
      %barriers = transform.structured.match ops{["gpu.barrier"]} in %arg0 : (!transform.any_op) -> !transform.any_op
      %loops = transform.get_parent_op %barriers {op_name = "scf.for", deduplicate} : (!transform.any_op) -> !transform.any_op
      %steady, %prologue, %epilogue = transform.pk.pipeline_kloop %loops : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
      transform.annotate %steady "test.steady_state" : !transform.any_op
      %num_steady = transform.num_associations %steady : (!transform.any_op) -> !transform.param<i64>
      // expected-remark @below {{steady-state loops 1 : i64}}
      transform.debug.emit_param_as_remark %num_steady, "steady-state loops" : !transform.param<i64>
      %num_prologue = transform.num_associations %prologue : (!transform.any_op) -> !transform.param<i64>
      // expected-remark @below {{prologue ops 7 : i64}}
      transform.debug.emit_param_as_remark %num_prologue, "prologue ops" : !transform.param<i64>
    }
    transform.yield
  }
}

// CHECK-LABEL: gpu.func @gemm_64x64x16
// CHECK-SAME:    memref<2x64x16xf16, #gpu.address_space<workgroup>>
// CHECK:         } {pk.pipelined, test.steady_state}
// CHECK-LABEL: gpu.func @trip1
// CHECK-SAME:    memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK-NOT:     pk.pipelined
// CHECK:         gpu.return

// -----

// transform.pk.analyze_kloop attaches pk's report object (docs/report.md) as
// the loop's pk.analysis attribute and changes nothing else. Like the passes
// it honours the kernel's launch bounds (nvvm.minctasm) by default.
module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @seed {
    gpu.func @gemm_64x64x16(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>,
                            %C: memref<1024x1024xf32>)
        workgroup(%smemA: memref<64x16xf16, #gpu.address_space<workgroup>>,
                  %smemB: memref<64x16xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>, nvvm.minctasm = 3 : i32} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %lane = gpu.lane_id
      %row = arith.divui %tid, %c2 : index
      %half = arith.remui %tid, %c2 : index
      %col = arith.muli %half, %c8 : index
      %lrow = arith.remui %lane, %c16 : index
      %init = arith.constant dense<0.0> : vector<2x2xf32>
      %res = scf.for %k = %c0 to %c1024 step %c16 iter_args(%acc = %init) -> (vector<2x2xf32>) {
        %gk = arith.addi %k, %col : index
        %a = vector.load %A[%row, %gk] {alignment = 16} : memref<1024x1024xf16>, vector<8xf16>
        vector.store %a, %smemA[%row, %col] {alignment = 16} : memref<64x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %b = vector.load %B[%row, %gk] {alignment = 16} : memref<1024x1024xf16>, vector<8xf16>
        vector.store %b, %smemB[%row, %col] {alignment = 16} : memref<64x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%x = %acc) -> (vector<2x2xf32>) {
          %fa = nvgpu.ldmatrix %smemA[%lrow, %c0] {numTiles = 4 : i32, transpose = false}
              : memref<64x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
          %fb = nvgpu.ldmatrix %smemB[%lrow, %c0] {numTiles = 2 : i32, transpose = false}
              : memref<64x16xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
          %d = nvgpu.mma.sync (%fa, %fb, %x) {mmaShape = [16, 8, 16]}
              : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
          scf.yield %d : vector<2x2xf32>
        }
        gpu.barrier
        scf.yield %sum : vector<2x2xf32>
      }
      %r0 = vector.extract %res[0] : vector<2xf32> from vector<2x2xf32>
      vector.store %r0, %C[%row, %col] : memref<1024x1024xf32>, vector<2xf32>
      gpu.return
    }
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %barriers = transform.structured.match ops{["gpu.barrier"]} in %root : (!transform.any_op) -> !transform.any_op
    %loop = transform.get_parent_op %barriers {op_name = "scf.for", deduplicate} : (!transform.any_op) -> !transform.any_op
    transform.pk.analyze_kloop %loop {arch = "sm_90", stages = 3} : !transform.any_op
    transform.yield
  }
}

// CHECK-LABEL: gpu.func @gemm_64x64x16
// CHECK-SAME:    workgroup(%{{.*}} : memref<64x16xf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<64x16xf16, #gpu.address_space<workgroup>>)
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         scf.for
// CHECK:         } {pk.analysis = {arch = "sm_90", barrier_first = false, buffers = [{bytes = 2048 : i64, bytes_per_stage = 2048 : i64, copied = true, element_type = "f16", kind = "attribution", name = "workgroup attribution #0", shape = [64, 16], source = "%arg0"},
// CHECK-SAME:      flops_per_tile = 131072 : i64, kernel = "seed::gemm_64x64x16"
// CHECK-SAME:      target_blocks_per_sm = 3 : i64, target_source = "kernel nvvm.minctasm"
// CHECK-SAME:      ratio = 32 : i64
// CHECK-SAME:      smem = {cliff_bytes = 76800 : i64, multi_bytes = 12288 : i64, {{.*}}, stages = 3 : i64,
// CHECK-SAME:      stages_auto, threads_per_block = 128 : i64, trip_count = 64 : i64, variant = "cp-async"}}
