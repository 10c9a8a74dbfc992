// pk as a pass plugin of upstream mlir-opt 22. mlir-opt 22 accepts plugin
// passes only inside --pass-pipeline (plain --pk-... flags are not parsed).
//
// REQUIRES: pk-plugin
// UNSUPPORTED: asan
// RUN: mlir-opt --load-pass-plugin=%pk_plugin --pass-pipeline='builtin.module(pk-analyze-kloops{report=-})' %s -o /dev/null 2>&1 | grep '^{' | FileCheck %s
// RUN: mlir-opt --load-pass-plugin=%pk_plugin --pass-pipeline='builtin.module(pk-analyze-kloops{report=- arch=sm_90 stages=3})' %s -o /dev/null 2>&1 | grep '^{' | FileCheck %s --check-prefix=SM90
// RUN: mlir-opt --load-pass-plugin=%pk_plugin --pass-pipeline='builtin.module(pk-analyze-kloops)' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: mlir-opt --load-pass-plugin=%pk_plugin --pass-pipeline='builtin.module(pk-check-smem-budget)' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not mlir-opt --load-pass-plugin=%pk_plugin --pass-pipeline='builtin.module(pk-check-smem-budget{arch=sm_99})' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ARCH
// The pipeline-kernel pipeline runs through the plugin too; its first pass is
// pk-analyze-kloops, whose report and remark it forwards.
// RUN: mlir-opt --load-pass-plugin=%pk_plugin --pass-pipeline='builtin.module(pipeline-kernel{report=-})' %s -o /dev/null 2>&1 | grep '^{' | FileCheck %s --check-prefix=PIPELINE
// RUN: mlir-opt --load-pass-plugin=%pk_plugin --pass-pipeline='builtin.module(pipeline-kernel)' %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// The pipelining procedure's worked example (Inputs/seed-64x64x16.mlir): 2 KB + 2 KB
// single-buffered, 8192 bytes double; cliff 102400 / 2 - 1024 = 50176 on
// sm_86; 4 warps * 128 registers -> 4 blocks/SM; shared memory
// 102400 / (8192 + 1024) = 11; FLOPs 8 mma * 4096 * 4 warps = 131072;
// bytes 2 * 16 * 128 = 4096; ratio 32; 1024 / 16 = 64 trips.
// CHECK: {"arch":"sm_86"
// CHECK-SAME: "flops_per_tile":131072,"kernel":"seed::gemm_64x64x16","loads":{"bytes_per_thread":32,"bytes_per_tile":4096,"global_loads":2,"shared_loads_per_thread":{{[0-9]+}}}
// CHECK-SAME: "multi":{"allocated_smem_per_block":9216,"blocks_per_sm":4,"by_blocks":16,"by_registers":4,"by_shared_memory":11,"by_threads":12,"limit":"registers","warps_per_sm":16}
// CHECK-SAME: "ratio":32,
// CHECK-SAME: "smem":{"cliff_bytes":50176,"multi_bytes":8192,"per_block_max_bytes":101376,"per_sm_bytes":102400,"per_stage_bytes":4096,"reserved_per_block_bytes":1024,"single_bytes":4096,"stages":2,"static_max_bytes":49152}
// CHECK-SAME: "trip_count":64,"variant":"cp-async"}
// CHECK-NOT: "kernel"

// Options reach the plugin's pass: sm_90 with 3 stages: 4096 * 3 = 12288
// bytes, 13312 allocated -> 233472 / 13312 = 17.5 -> 17; cliff 233472 / 2
// - 1024 = 115712.
// SM90: {"arch":"sm_90"
// SM90-SAME: "multi":{"allocated_smem_per_block":13312,"blocks_per_sm":4,"by_blocks":32,"by_registers":4,"by_shared_memory":17,"by_threads":16,"limit":"registers","warps_per_sm":16}
// SM90-SAME: "smem":{"cliff_bytes":115712,"multi_bytes":12288,"per_block_max_bytes":232448,"per_sm_bytes":233472,"per_stage_bytes":4096,"reserved_per_block_bytes":1024,"single_bytes":4096,"stages":3,

// REMARK: plugin.mlir:[[# @LINE + 32]]:14: remark: K-loop: trip count 64, 2 copied buffer(s), shared memory 4096 B single / 4096 B per stage / 8192 B with 2 stages (cliff 50176 B for 2 blocks/SM on sm_86), blocks/SM 4 -> 4 (limit: registers), ratio 32.0 FLOP/B, variant cp-async
// REMARK: note: 2 stages need 8192 bytes of shared memory, within the sm_86 cliff of 50176 bytes for 2 blocks/SM

// BUDGET: plugin.mlir:[[# @LINE + 29]]:14: remark: shared-memory budget ok: 8192 bytes with 2 stages, within the sm_86 cliff of 50176 bytes for 2 blocks/SM (blocks/SM 4 -> 4, limited by registers)

// ARCH: error: unknown arch 'sm_99'; pk knows: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a

// PIPELINE: {"arch":"sm_86"
// PIPELINE-SAME: "kernel":"seed::gemm_64x64x16"
// PIPELINE-SAME: "multi_bytes":8192,
// PIPELINE-SAME: "trip_count":64,

module attributes {gpu.container_module} {
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
}
