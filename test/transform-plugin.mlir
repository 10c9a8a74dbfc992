// transform.pk.* in upstream mlir-opt 22: PKPlugin is also a dialect plugin
// (mlirGetDialectPluginInfo) that adds pk's transform dialect extension to
// mlir-opt's registry. One library can be loaded both ways at once.
//
// REQUIRES: pk-plugin
// UNSUPPORTED: asan
// RUN: mlir-opt --load-dialect-plugin=%pk_plugin %s -transform-interpreter | FileCheck %s
// RUN: mlir-opt --load-dialect-plugin=%pk_plugin --load-pass-plugin=%pk_plugin %s --pass-pipeline='builtin.module(transform-interpreter, gpu.module(pk-analyze-kloops{arch=sm_90}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BOTH

// CHECK-LABEL: gpu.func @gemm_64x64x16
// CHECK-SAME:    workgroup(%{{.*}} : memref<3x64x16xf16, #gpu.address_space<workgroup>> {{.*}}, %{{.*}} : memref<3x64x16xf16, #gpu.address_space<workgroup>>
// CHECK:         nvgpu.device_async_copy
// CHECK:         scf.for
// CHECK:           nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CHECK:         } {pk.pipelined, test.steady_state}

// After the transform, pk-analyze-kloops leaves the pipelined loop alone.
// BOTH: remark: not a pk K-loop: loop already pipelined by pk (pk.pipelined)

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
    %steady, %prologue, %epilogue = transform.pk.pipeline_kloop %loop {arch = "sm_90", stages = 3} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %steady "test.steady_state" : !transform.any_op
    transform.yield
  }
}
