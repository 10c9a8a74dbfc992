// RUN: pk-opt %s -split-input-file --pk-analyze-kloops='report=-' -o /dev/null 2>&1 | grep '^{' | FileCheck %s
// RUN: pk-opt %s -split-input-file --pk-analyze-kloops='report=- arch=sm_75' -o /dev/null 2>&1 | grep '^{' | FileCheck %s --check-prefix=SM75
// RUN: pk-opt %s -split-input-file --pk-analyze-kloops='report=- arch=sm_90' -o /dev/null 2>&1 | grep '^{' | FileCheck %s --check-prefix=SM90
// nvvm.mma.sync in the compute phase, counted per warp: m8n8k4 runs on
// quad-pairs, four MMAs of 2*8*8*4 FLOPs per warp (32 threads: one warp).
// RUN: pk-opt %S/Inputs/nvvm-mma-m8n8k4-kloop.mlir --pk-analyze-kloops='report=- arch=sm_90' -o /dev/null 2>&1 | grep '^{' | FileCheck %s --check-prefix=NVVM-M8N8K4
// NVVM-M8N8K4: "compute_ops":[{"count":1,"op":"nvvm.mma.sync m8n8k4 per warp"}]
// NVVM-M8N8K4-SAME: "flops_per_tile":2048
// RUN: pk-opt %s -split-input-file --pk-analyze-kloops='report=- stages=3' -o /dev/null 2>&1 | grep '^{' | FileCheck %s --check-prefix=STAGES3
// RUN: pk-opt %s -split-input-file --pk-analyze-kloops='report=- regs-per-thread=255' -o /dev/null 2>&1 | grep '^{' | FileCheck %s --check-prefix=REGS255
// RUN: pk-opt %s -split-input-file --pk-analyze-kloops='report=- block-size=256' -o /dev/null 2>&1 | grep '^{' | FileCheck %s --check-prefix=BS256
// RUN: pk-opt %s -split-input-file --pk-analyze-kloops='report=- skip-high-ratio=1' -o /dev/null 2>&1 | grep '^{' | FileCheck %s --check-prefix=SKIP
// RUN: pk-opt %s -split-input-file --pk-analyze-kloops='report=- min-blocks-per-sm=3' -o /dev/null 2>&1 | grep '^{' | FileCheck %s --check-prefix=MIN3
//
// The report goes to a file as well (no -split-input-file: every split would
// rewrite the file).
// RUN: pk-opt %S/Inputs/seed-64x64x16.mlir --pk-analyze-kloops='report=%t.json' -o /dev/null
// RUN: FileCheck %s --check-prefix=FILE < %t.json
//
// The wgmma, TMA and two-warpgroup kernels (examples/, gen_gemm.py) are in
// test/e2e/pk-analyze-kloops.test.

// The JSON report: one object per matched K-loop and line, keys in
// alphabetical order:
//   arch, buffers, compute_ops, flops_per_tile, kernel, loads, loc,
//   occupancy{multi, single, target_blocks_per_sm}, prediction, ratio,
//   reasons, regs_per_thread, regs_source, smem, threads_per_block,
//   trip_count, variant.
//
// Occupancy model (lib/Target/Target.cpp), sm_86: 48 warps, 16 blocks,
// 65536 registers (4 sub-partitions of 16384), registers per warp =
// regs * 32 rounded up to 256, shared memory per block = bytes + 1024
// rounded up to 128 against 102400 per SM. sm_75: 32 warps, 16 blocks,
// 64 KB per SM and per block, no reservation, 256-byte granularity. sm_90:
// 64 warps, 32 blocks, 233472 bytes per SM, 232448 per block.
// With the default 128 registers: 128 * 32 = 4096 per warp, 16384 / 4096 =
// 4 warps per sub-partition, 16 warps per SM.

// The pipelining procedure's worked example (same kernel as Inputs/seed-64x64x16.mlir):
// workgroup attributions, globals in the default memory space, vector.load +
// vector.store copies, ldmatrix + mma.sync m16n8k16 in a nested compute loop,
// block size from known_block_size.

// CHECK: {"arch":"sm_86"
// Two 64x16xf16 tiles: 64 * 16 * 2 = 2048 bytes each.
// CHECK-SAME: "buffers":[{"bytes":2048,"bytes_per_stage":2048,"copied":true,"element_type":"f16","kind":"attribution","name":"workgroup attribution #0","shape":[64,16],"source":"%arg0"},
// CHECK-SAME: {"bytes":2048,"bytes_per_stage":2048,"copied":true,"element_type":"f16","kind":"attribution","name":"workgroup attribution #1","shape":[64,16],"source":"%arg1"}]
// 8 trips of the compute loop * 1 mma.sync = 8 per warp and K-iteration.
// CHECK-SAME: "compute_ops":[{"count":8,"op":"nvgpu.mma.sync m16n8k16 per warp"}]
// 8 * (2 * 16 * 8 * 16 = 4096) = 32768 FLOP per warp * 128 / 32 = 4 warps = 131072.
// CHECK-SAME: "flops_per_tile":131072
// CHECK-SAME: "kernel":"seed::gemm_64x64x16"
// 2 vector<8xf16> loads = 2 * 16 = 32 bytes per thread; * 128 threads = 4096.
// CHECK-SAME: "loads":{"bytes_per_thread":32,"bytes_per_tile":4096,"global_loads":2,"shared_loads_per_thread":{{[0-9]+}}}
// CHECK-SAME: "loc":"{{.*}}pk-analyze-kloops.mlir:[[# @LINE + 100]]:14"
// Multi: 8192 + 1024 = 9216 bytes allocated, 102400 / 9216 = 11.1 -> 11;
// threads 48 / 4 warps = 12; registers 4 warps/sub-partition * 4 / 4 = 4.
// CHECK-SAME: "occupancy":{"multi":{"allocated_smem_per_block":9216,"blocks_per_sm":4,"by_blocks":16,"by_registers":4,"by_shared_memory":11,"by_threads":12,"limit":"registers","warps_per_sm":16},
// Single: 4096 + 1024 = 5120, 102400 / 5120 = 20; min(12, 4, 20, 16) = 4; 4 * 4 warps = 16.
// CHECK-SAME: "single":{"allocated_smem_per_block":5120,"blocks_per_sm":4,"by_blocks":16,"by_registers":4,"by_shared_memory":20,"by_threads":12,"limit":"registers","warps_per_sm":16},"target_blocks_per_sm":2,"target_source":"default"}
// Ratio 131072 / 4096 = 32.
// CHECK-SAME: "prediction":"0-5% or a regression (ratio > 20:1)","ratio":32,
// Seed: 2 KB + 2 KB = 4096 single, 8192 double; cliff for 2 blocks/SM on
// sm_86 = 102400 / 2 = 51200 (already a multiple of 128) - 1024 = 50176.
// CHECK-SAME: "reasons":["2 stages need 8192 bytes of shared memory, within the sm_86 cliff of 50176 bytes for 2 blocks/SM",
// CHECK-SAME: "ratio 32.0 > 20: the procedure predicts 0-5% or a regression; cp.async is selected all the same (rule high-ratio; skip-high-ratio=true skips)"]
// CHECK-SAME: "regs_per_thread":128,"regs_source":"default"
// 99 KB = 101376 per block; 100 KB = 102400 per SM; 48 KB = 49152 static.
// CHECK-SAME: "smem":{"cliff_bytes":50176,"multi_bytes":8192,"per_block_max_bytes":101376,"per_sm_bytes":102400,"per_stage_bytes":4096,"reserved_per_block_bytes":1024,"single_bytes":4096,"stages":2,"static_max_bytes":49152}
// 1024 / 16 = 64 trips.
// CHECK-SAME: "threads_per_block":128,"trip_count":64,"variant":"cp-async"}

// sm_75 has no cp.async: LDG-register prefetch. Cliff for 2 blocks/SM:
// 65536 / 2 = 32768 (a multiple of 256) - 0 reserved = 32768.
// SM75: {"arch":"sm_75"
// SM75-SAME: "kernel":"seed::gemm_64x64x16"
// Multi: 8192 + 0 -> 8192, 65536 / 8192 = 8; threads 32 / 4 = 8; registers 4.
// SM75-SAME: "multi":{"allocated_smem_per_block":8192,"blocks_per_sm":4,"by_blocks":16,"by_registers":4,"by_shared_memory":8,"by_threads":8,"limit":"registers","warps_per_sm":16}
// Single: 4096, 65536 / 4096 = 16.
// SM75-SAME: "single":{"allocated_smem_per_block":4096,"blocks_per_sm":4,"by_blocks":16,"by_registers":4,"by_shared_memory":16,"by_threads":8,"limit":"registers","warps_per_sm":16}
// SM75-SAME: "reasons":["2 stages need 8192 bytes of shared memory, within the sm_75 cliff of 32768 bytes for 2 blocks/SM","sm_75 has no cp.async (sm_80 and later): LDG-register prefetch (rule no-cp-async)"]
// SM75-SAME: "smem":{"cliff_bytes":32768,"multi_bytes":8192,"per_block_max_bytes":65536,"per_sm_bytes":65536,"per_stage_bytes":4096,"reserved_per_block_bytes":0,"single_bytes":4096,"stages":2,"static_max_bytes":49152}
// SM75-SAME: "variant":"ldg-register"}

// sm_90: cliff 233472 / 2 = 116736 (912 * 128) - 1024 = 115712.
// SM90: {"arch":"sm_90"
// SM90-SAME: "kernel":"seed::gemm_64x64x16"
// Multi: 233472 / 9216 = 25.3 -> 25; threads 64 / 4 = 16; blocks 32.
// SM90-SAME: "multi":{"allocated_smem_per_block":9216,"blocks_per_sm":4,"by_blocks":32,"by_registers":4,"by_shared_memory":25,"by_threads":16,"limit":"registers","warps_per_sm":16}
// Single: 233472 / 5120 = 45.6 -> 45.
// SM90-SAME: "single":{"allocated_smem_per_block":5120,"blocks_per_sm":4,"by_blocks":32,"by_registers":4,"by_shared_memory":45,"by_threads":16,"limit":"registers","warps_per_sm":16}
// SM90-SAME: "smem":{"cliff_bytes":115712,"multi_bytes":8192,"per_block_max_bytes":232448,"per_sm_bytes":233472,"per_stage_bytes":4096,"reserved_per_block_bytes":1024,"single_bytes":4096,"stages":2,"static_max_bytes":49152}
// SM90-SAME: "variant":"cp-async"}

// Three stages: 4096 + 2 * 4096 = 12288; 12288 + 1024 = 13312, 102400 / 13312 = 7.7 -> 7.
// STAGES3: "kernel":"seed::gemm_64x64x16"
// STAGES3-SAME: "multi":{"allocated_smem_per_block":13312,"blocks_per_sm":4,"by_blocks":16,"by_registers":4,"by_shared_memory":7,
// STAGES3-SAME: "reasons":["3 stages need 12288 bytes of shared memory, within the sm_86 cliff of 50176 bytes for 2 blocks/SM",
// STAGES3-SAME: "multi_bytes":12288,"per_block_max_bytes":101376,"per_sm_bytes":102400,"per_stage_bytes":4096,"reserved_per_block_bytes":1024,"single_bytes":4096,"stages":3,

// 255 registers: 255 * 32 = 8160 -> 8192 per warp; 4 warps * 8192 = 32768 <=
// 65536; 16384 / 8192 = 2 warps per sub-partition, 8 per SM / 4 = 2 blocks.
// REGS255: "kernel":"seed::gemm_64x64x16"
// REGS255-SAME: "multi":{"allocated_smem_per_block":9216,"blocks_per_sm":2,"by_blocks":16,"by_registers":2,"by_shared_memory":11,"by_threads":12,"limit":"registers","warps_per_sm":8}
// REGS255-SAME: "regs_per_thread":255,"regs_source":"option"

// block-size=256 replaces known_block_size = 128: 32 bytes * 256 = 8192
// per tile; 8 warps * 32768 = 262144 FLOP; ratio still 32. Registers:
// 16 warps per SM / 8 = 2; threads 48 / 8 = 6.
// BS256: "flops_per_tile":262144,"kernel":"seed::gemm_64x64x16","loads":{"bytes_per_thread":32,"bytes_per_tile":8192,"global_loads":2,"shared_loads_per_thread":{{[0-9]+}}}
// BS256-SAME: "multi":{"allocated_smem_per_block":9216,"blocks_per_sm":2,"by_blocks":16,"by_registers":2,"by_shared_memory":11,"by_threads":6,"limit":"registers","warps_per_sm":16}
// BS256-SAME: "ratio":32,
// BS256-SAME: "threads_per_block":256,

// skip-high-ratio: ratio 32 > 20 -> no pipelining.
// SKIP: "kernel":"seed::gemm_64x64x16"
// SKIP-SAME: "reasons":["2 stages need 8192 bytes of shared memory, within the sm_86 cliff of 50176 bytes for 2 blocks/SM","ratio 32.0 > 20: the procedure predicts 0-5% or a regression and skip-high-ratio is set"]
// SKIP-SAME: "variant":"none"}

// min-blocks-per-sm=3: cliff 102400 / 3 = 34133 -> 34048 (266 * 128) - 1024 = 33024.
// MIN3: "kernel":"seed::gemm_64x64x16"
// MIN3-SAME: "target_blocks_per_sm":3,"target_source":"option"}
// MIN3-SAME: "reasons":["2 stages need 8192 bytes of shared memory, within the sm_86 cliff of 33024 bytes for 3 blocks/SM",
// MIN3-SAME: "smem":{"cliff_bytes":33024,

// The report file holds the same object for the seed input.
// FILE: {"arch":"sm_86"
// FILE-SAME: "flops_per_tile":131072,"kernel":"seed::gemm_64x64x16"
// FILE-SAME: "loc":"{{.*}}seed-64x64x16.mlir:23:14"
// FILE-SAME: "ratio":32,
// FILE-SAME: "single_bytes":4096,
// FILE-SAME: "trip_count":64,"variant":"cp-async"}
// FILE-NOT: "kernel"

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

// -----

// Shared buffers as memref.global in workgroup memory (both spellings of the
// space) read through memref.get_global; globals in space 1 and
// #gpu.address_space<global>; vector.transfer_read + vector.transfer_write
// copies; vector.contract compute; block size from nvvm.reqntid.

// CHECK: {"arch":"sm_86"
// 32 * 16 * 4 = 2048 and 16 * 32 * 4 = 2048 bytes.
// CHECK-SAME: "buffers":[{"bytes":2048,"bytes_per_stage":2048,"copied":true,"element_type":"f32","kind":"global","name":"@smem_a","shape":[32,16],"source":"%arg0"},
// CHECK-SAME: {"bytes":2048,"bytes_per_stage":2048,"copied":true,"element_type":"f32","kind":"global","name":"@smem_b","shape":[16,32],"source":"%arg1"}]
// One contract 4x8 * 8x4: 4 * 4 * 8 = 128 multiply-adds = 256 FLOP per
// thread; * 64 threads = 16384.
// CHECK-SAME: "compute_ops":[{"count":1,"op":"vector.contract per thread"}],"flops_per_tile":16384
// CHECK-SAME: "kernel":"globals::contract"
// 2 vector<8xf32> = 64 bytes per thread, * 64 = 4096.
// CHECK-SAME: "loads":{"bytes_per_thread":64,"bytes_per_tile":4096,"global_loads":2,"shared_loads_per_thread":{{[0-9]+}}}
// 2 warps: registers 16 warps per SM / 2 = 8, threads 48 / 2 = 24;
// multi 9216 -> 11, single 5120 -> 20.
// CHECK-SAME: "multi":{"allocated_smem_per_block":9216,"blocks_per_sm":8,"by_blocks":16,"by_registers":8,"by_shared_memory":11,"by_threads":24,"limit":"registers","warps_per_sm":16}
// CHECK-SAME: "single":{"allocated_smem_per_block":5120,"blocks_per_sm":8,"by_blocks":16,"by_registers":8,"by_shared_memory":20,"by_threads":24,"limit":"registers","warps_per_sm":16}
// Ratio 16384 / 4096 = 4 < 5.
// CHECK-SAME: "prediction":"+15-35% (ratio < 5:1)","ratio":4,
// CHECK-SAME: "reasons":["2 stages need 8192 bytes of shared memory, within the sm_86 cliff of 50176 bytes for 2 blocks/SM","ratio 4.0 < 5: cp.async preferred (rule low-ratio)"]
// CHECK-SAME: "multi_bytes":8192,
// CHECK-SAME: "per_stage_bytes":4096,
// CHECK-SAME: "single_bytes":4096,
// 256 / 16 = 16 trips.
// CHECK-SAME: "threads_per_block":64,"trip_count":16,"variant":"cp-async"}

module attributes {gpu.container_module} {
  gpu.module @globals {
    memref.global "private" @smem_a : memref<32x16xf32, #gpu.address_space<workgroup>>
    memref.global "private" @smem_b : memref<16x32xf32, 3>
    gpu.func @contract(%A: memref<32x256xf32, 1>,
                       %B: memref<256x32xf32, #gpu.address_space<global>>)
        kernel attributes {nvvm.reqntid = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %pad = arith.constant 0.0 : f32
      %sA = memref.get_global @smem_a : memref<32x16xf32, #gpu.address_space<workgroup>>
      %sB = memref.get_global @smem_b : memref<16x32xf32, 3>
      %tid = gpu.thread_id x
      %arow = arith.divui %tid, %c2 : index
      %ahalf = arith.remui %tid, %c2 : index
      %acol = arith.muli %ahalf, %c8 : index
      %brow = arith.divui %tid, %c4 : index
      %bq = arith.remui %tid, %c4 : index
      %bcol = arith.muli %bq, %c8 : index
      %init = arith.constant dense<0.0> : vector<4x4xf32>
      %res = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %init) -> (vector<4x4xf32>) {
        %gka = arith.addi %k, %acol : index
        %a = vector.transfer_read %A[%arow, %gka], %pad {in_bounds = [true]} : memref<32x256xf32, 1>, vector<8xf32>
        vector.transfer_write %a, %sA[%arow, %acol] {in_bounds = [true]} : vector<8xf32>, memref<32x16xf32, #gpu.address_space<workgroup>>
        %gkb = arith.addi %k, %brow : index
        %b = vector.transfer_read %B[%gkb, %bcol], %pad {in_bounds = [true]} : memref<256x32xf32, #gpu.address_space<global>>, vector<8xf32>
        vector.transfer_write %b, %sB[%brow, %bcol] {in_bounds = [true]} : vector<8xf32>, memref<16x32xf32, 3>
        gpu.barrier
        %fa = vector.transfer_read %sA[%brow, %c0], %pad {in_bounds = [true, true]} : memref<32x16xf32, #gpu.address_space<workgroup>>, vector<4x8xf32>
        %fb = vector.transfer_read %sB[%c0, %bcol], %pad {in_bounds = [true, true]} : memref<16x32xf32, 3>, vector<8x4xf32>
        %d = vector.contract {indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                               affine_map<(m, n, k) -> (k, n)>,
                                               affine_map<(m, n, k) -> (m, n)>],
                              iterator_types = ["parallel", "parallel", "reduction"],
                              kind = #vector.kind<add>}
            %fa, %fb, %acc : vector<4x8xf32>, vector<8x4xf32> into vector<4x4xf32>
        gpu.barrier
        scf.yield %d : vector<4x4xf32>
      }
      gpu.return
    }
  }
}

// -----

// memref.alloc in workgroup memory; scalar memref.load + memref.store copies
// in a nested load loop (4 trips multiply the bytes); arith.mulf + arith.addf
// multiply-adds in a nested compute loop (16 trips); a non-zero lower bound;
// block size from nvvm.maxntid (32 * 2 * 1 = 64); pk.regs_per_thread.

// CHECK: {"arch":"sm_86"
// 16 * 16 * 4 = 1024 bytes each; the name carries the alloc's location.
// CHECK-SAME: "buffers":[{"bytes":1024,"bytes_per_stage":1024,"copied":true,"element_type":"f32","kind":"alloc","name":"memref.alloc at {{.*}}pk-analyze-kloops.mlir:[[# @LINE + 37]]:13","shape":[16,16],"source":"%arg0"},
// CHECK-SAME: {"bytes":1024,"bytes_per_stage":1024,"copied":true,"element_type":"f32","kind":"alloc","name":"memref.alloc at {{.*}}pk-analyze-kloops.mlir:[[# @LINE + 37]]:13","shape":[16,16],"source":"%arg1"}]
// 16 trips * 1 mulf+addf = 16 per thread, 2 FLOP each: 32 * 64 threads = 2048.
// CHECK-SAME: "compute_ops":[{"count":16,"op":"multiply-add per thread"}],"flops_per_tile":2048
// CHECK-SAME: "kernel":"alloc::scalar"
// 4 trips * (4 + 4) bytes = 32 per thread, * 64 = 2048.
// CHECK-SAME: "loads":{"bytes_per_thread":32,"bytes_per_tile":2048,"global_loads":2,"shared_loads_per_thread":{{[0-9]+}}}
// 64 registers: 2048 per warp, 16384 / 2048 = 8 per sub-partition, 32 per SM
// / 2 warps = 16; smem multi 4096 + 1024 = 5120 -> 20, single 3072 -> 33.
// CHECK-SAME: "multi":{"allocated_smem_per_block":5120,"blocks_per_sm":16,"by_blocks":16,"by_registers":16,"by_shared_memory":20,"by_threads":24,"limit":"registers","warps_per_sm":32}
// CHECK-SAME: "single":{"allocated_smem_per_block":3072,"blocks_per_sm":16,"by_blocks":16,"by_registers":16,"by_shared_memory":33,"by_threads":24,"limit":"registers","warps_per_sm":32}
// Ratio 2048 / 2048 = 1.
// CHECK-SAME: "prediction":"+15-35% (ratio < 5:1)","ratio":1,
// CHECK-SAME: "reasons":["2 stages need 4096 bytes of shared memory, within the sm_86 cliff of 50176 bytes for 2 blocks/SM","ratio 1.0 < 5: cp.async preferred (rule low-ratio)"]
// CHECK-SAME: "regs_per_thread":64,"regs_source":"attribute"
// CHECK-SAME: "multi_bytes":4096,
// CHECK-SAME: "per_stage_bytes":2048,
// CHECK-SAME: "single_bytes":2048,
// (528 - 16) / 16 = 32 trips.
// CHECK-SAME: "threads_per_block":64,"trip_count":32,"variant":"cp-async"}

// The option overrides the attribute: 255 registers -> 8192 per warp, 2 warps
// rounded up to 4 * 8192 = 32768 <= 65536, 2 per sub-partition, 8 / 2 = 4.
// REGS255: "kernel":"alloc::scalar"
// REGS255-SAME: "multi":{"allocated_smem_per_block":5120,"blocks_per_sm":4,"by_blocks":16,"by_registers":4,"by_shared_memory":20,"by_threads":24,"limit":"registers","warps_per_sm":8}
// REGS255-SAME: "regs_per_thread":255,"regs_source":"option"

module attributes {gpu.container_module} {
  gpu.module @alloc {
    gpu.func @scalar(%A: memref<16x1024xf32>, %B: memref<1024x16xf32>)
        kernel attributes {nvvm.maxntid = array<i32: 32, 2, 1>, pk.regs_per_thread = 64 : i64} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c528 = arith.constant 528 : index
      %sA = memref.alloc() : memref<16x16xf32, #gpu.address_space<workgroup>>
      %sB = memref.alloc() : memref<16x16xf32, #gpu.address_space<workgroup>>
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %tyx = arith.muli %ty, %c32 : index
      %t = arith.addi %tyx, %tx : index
      %row = arith.divui %t, %c4 : index
      %q = arith.remui %t, %c4 : index
      %col0 = arith.muli %q, %c4 : index
      %zero = arith.constant 0.0 : f32
      %res = scf.for %k = %c16 to %c528 step %c16 iter_args(%acc = %zero) -> (f32) {
        scf.for %i = %c0 to %c4 step %c1 {
          %col = arith.addi %col0, %i : index
          %gk = arith.addi %k, %col : index
          %a = memref.load %A[%row, %gk] : memref<16x1024xf32>
          memref.store %a, %sA[%row, %col] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %gkb = arith.addi %k, %row : index
          %b = memref.load %B[%gkb, %col] : memref<1024x16xf32>
          memref.store %b, %sB[%row, %col] : memref<16x16xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %s = scf.for %kk = %c0 to %c16 step %c1 iter_args(%x = %acc) -> (f32) {
          %a = memref.load %sA[%row, %kk] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %b = memref.load %sB[%kk, %col0] : memref<16x16xf32, #gpu.address_space<workgroup>>
          %p = arith.mulf %a, %b : f32
          %y = arith.addf %x, %p : f32
          scf.yield %y : f32
        }
        gpu.barrier
        scf.yield %s : f32
      }
      gpu.return
    }
  }
}

// -----

// Copies into two memref.subview halves of one workgroup attribution (the
// root buffer is what gets replicated); a second attribution that the load
// phase does not write (counted in single_bytes, not per stage); vector.fma
// compute; a dynamic trip count.

// CHECK: {"arch":"sm_86"
// 128 * 16 * 4 = 8192 bytes, copied from %arg0 (first copy) and %arg1;
// 64 * 4 = 256 bytes, not copied: no bytes_per_stage, no source.
// CHECK-SAME: "buffers":[{"bytes":8192,"bytes_per_stage":8192,"copied":true,"element_type":"f32","kind":"attribution","name":"workgroup attribution #0","shape":[128,16],"source":"%arg0"},
// CHECK-SAME: {"bytes":256,"copied":false,"element_type":"f32","kind":"attribution","name":"workgroup attribution #1","shape":[64]}]
// 4 trips * 1 vector.fma on vector<4xf32> = 4 * 8 = 32 FLOP per thread * 128 = 4096;
// the arith.addf alone is no multiply-add.
// CHECK-SAME: "compute_ops":[{"count":4,"op":"vector.fma per thread"}],"flops_per_tile":4096
// CHECK-SAME: "kernel":"subview::fma"
// 2 vector<8xf32> = 64 bytes per thread * 128 = 8192.
// CHECK-SAME: "loads":{"bytes_per_thread":64,"bytes_per_tile":8192,"global_loads":2,"shared_loads_per_thread":{{[0-9]+}}}
// Multi 8448 + 8192 = 16640 + 1024 = 17664 -> 102400 / 17664 = 5.8 -> 5;
// single 8448 + 1024 = 9472 -> 10.8 -> 10.
// CHECK-SAME: "multi":{"allocated_smem_per_block":17664,"blocks_per_sm":4,"by_blocks":16,"by_registers":4,"by_shared_memory":5,"by_threads":12,"limit":"registers","warps_per_sm":16}
// CHECK-SAME: "single":{"allocated_smem_per_block":9472,"blocks_per_sm":4,"by_blocks":16,"by_registers":4,"by_shared_memory":10,"by_threads":12,"limit":"registers","warps_per_sm":16}
// Ratio 4096 / 8192 = 0.5.
// CHECK-SAME: "prediction":"+15-35% (ratio < 5:1)","ratio":0.5,
// CHECK-SAME: "reasons":["dynamic trip count: the pipelined loop runs when the trip count is at least 2, the original loop otherwise","2 stages need 16640 bytes of shared memory, within the sm_86 cliff of 50176 bytes for 2 blocks/SM","ratio 0.5 < 5: cp.async preferred (rule low-ratio)"]
// CHECK-SAME: "multi_bytes":16640,
// CHECK-SAME: "per_stage_bytes":8192,
// CHECK-SAME: "single_bytes":8448,
// CHECK-SAME: "threads_per_block":128,"trip_count":"dynamic","variant":"cp-async"}

module attributes {gpu.container_module} {
  gpu.module @subview {
    gpu.func @fma(%A: memref<64x4096xf32>, %B: memref<64x4096xf32>, %K: index)
        workgroup(%s: memref<128x16xf32, #gpu.address_space<workgroup>>,
                  %scale: memref<64xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %sa = memref.subview %s[0, 0] [64, 16] [1, 1]
          : memref<128x16xf32, #gpu.address_space<workgroup>>
          to memref<64x16xf32, strided<[16, 1]>, #gpu.address_space<workgroup>>
      %sb = memref.subview %s[64, 0] [64, 16] [1, 1]
          : memref<128x16xf32, #gpu.address_space<workgroup>>
          to memref<64x16xf32, strided<[16, 1], offset: 1024>, #gpu.address_space<workgroup>>
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c2 : index
      %half = arith.remui %tid, %c2 : index
      %col = arith.muli %half, %c8 : index
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %res = scf.for %k = %c0 to %K step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %gk = arith.addi %k, %col : index
        %a = vector.load %A[%row, %gk] : memref<64x4096xf32>, vector<8xf32>
        vector.store %a, %sa[%row, %col] : memref<64x16xf32, strided<[16, 1]>, #gpu.address_space<workgroup>>, vector<8xf32>
        %b = vector.load %B[%row, %gk] : memref<64x4096xf32>, vector<8xf32>
        vector.store %b, %sb[%row, %col] : memref<64x16xf32, strided<[16, 1], offset: 1024>, #gpu.address_space<workgroup>>, vector<8xf32>
        gpu.barrier
        %sc = vector.load %scale[%c0] : memref<64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %sum = scf.for %kk = %c0 to %c16 step %c4 iter_args(%x = %acc) -> (vector<4xf32>) {
          %fa = vector.load %sa[%row, %kk] : memref<64x16xf32, strided<[16, 1]>, #gpu.address_space<workgroup>>, vector<4xf32>
          %fb = vector.load %sb[%row, %kk] : memref<64x16xf32, strided<[16, 1], offset: 1024>, #gpu.address_space<workgroup>>, vector<4xf32>
          %d = vector.fma %fa, %fb, %x : vector<4xf32>
          scf.yield %d : vector<4xf32>
        }
        %e = arith.addf %sum, %sc : vector<4xf32>
        gpu.barrier
        scf.yield %e : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

// The i8 form: ldmatrix of i8 tiles and mma.sync m16n8k32, directly in the
// K-loop body (no nested compute loop).

// CHECK: {"arch":"sm_86"
// 64 * 32 * 1 = 2048 bytes each.
// CHECK-SAME: "buffers":[{"bytes":2048,"bytes_per_stage":2048,"copied":true,"element_type":"i8","kind":"attribution","name":"workgroup attribution #0","shape":[64,32],"source":"%arg0"},
// CHECK-SAME: {"bytes":2048,"bytes_per_stage":2048,"copied":true,"element_type":"i8","kind":"attribution","name":"workgroup attribution #1","shape":[64,32],"source":"%arg1"}]
// 1 mma per warp: 2 * 16 * 8 * 32 = 8192 FLOP * 4 warps = 32768.
// CHECK-SAME: "compute_ops":[{"count":1,"op":"nvgpu.mma.sync m16n8k32 per warp"}],"flops_per_tile":32768
// CHECK-SAME: "kernel":"imma::m16n8k32"
// 2 vector<16xi8> = 32 bytes per thread * 128 = 4096.
// CHECK-SAME: "loads":{"bytes_per_thread":32,"bytes_per_tile":4096,"global_loads":2,"shared_loads_per_thread":{{[0-9]+}}}
// Ratio 32768 / 4096 = 8, in 5-20.
// CHECK-SAME: "prediction":"+5-15% (ratio 5-20:1)","ratio":8,
// CHECK-SAME: "reasons":["2 stages need 8192 bytes of shared memory, within the sm_86 cliff of 50176 bytes for 2 blocks/SM","ratio 8.0 in 5-20: both variants are worth benchmarking; cp.async is the procedure's default (rule mid-ratio; try variant=ldg-register too)"]
// 1024 / 32 = 32 trips.
// CHECK-SAME: "threads_per_block":128,"trip_count":32,"variant":"cp-async"}

// skip-high-ratio leaves ratios up to 20 alone.
// SKIP: "kernel":"imma::m16n8k32"
// SKIP-SAME: "variant":"cp-async"}

module attributes {gpu.container_module} {
  gpu.module @imma {
    gpu.func @m16n8k32(%A: memref<64x1024xi8>, %B: memref<64x1024xi8>)
        workgroup(%sA: memref<64x32xi8, #gpu.address_space<workgroup>>,
                  %sB: memref<64x32xi8, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %lane = gpu.lane_id
      %row = arith.divui %tid, %c2 : index
      %half = arith.remui %tid, %c2 : index
      %col = arith.muli %half, %c16 : index
      %lrow = arith.remui %lane, %c16 : index
      %zero = arith.constant dense<0> : vector<2x2xi32>
      %res = scf.for %k = %c0 to %c1024 step %c32 iter_args(%acc = %zero) -> (vector<2x2xi32>) {
        %gk = arith.addi %k, %col : index
        %a = vector.load %A[%row, %gk] : memref<64x1024xi8>, vector<16xi8>
        vector.store %a, %sA[%row, %col] : memref<64x32xi8, #gpu.address_space<workgroup>>, vector<16xi8>
        %b = vector.load %B[%row, %gk] : memref<64x1024xi8>, vector<16xi8>
        vector.store %b, %sB[%row, %col] : memref<64x32xi8, #gpu.address_space<workgroup>>, vector<16xi8>
        gpu.barrier
        %fa = nvgpu.ldmatrix %sA[%lrow, %c0] {numTiles = 4 : i32, transpose = false}
            : memref<64x32xi8, #gpu.address_space<workgroup>> -> vector<4x4xi8>
        %fb = nvgpu.ldmatrix %sB[%lrow, %c0] {numTiles = 2 : i32, transpose = false}
            : memref<64x32xi8, #gpu.address_space<workgroup>> -> vector<2x4xi8>
        %d = nvgpu.mma.sync (%fa, %fb, %acc) {mmaShape = [16, 8, 32]}
            : (vector<4x4xi8>, vector<2x4xi8>, vector<2x2xi32>) -> vector<2x2xi32>
        gpu.barrier
        scf.yield %d : vector<2x2xi32>
      }
      gpu.return
    }
  }
}

// -----

// A kernel with two K-loops: one line each, in program order. The second
// loop copies only the A tile, so only 4096 bytes are replicated.

// CHECK: {"arch":"sm_86"
// CHECK-SAME: "buffers":[{"bytes":4096,"bytes_per_stage":4096,"copied":true,{{.*}}"name":"workgroup attribution #0",{{.*}}"source":"%arg0"},{"bytes":4096,"bytes_per_stage":4096,"copied":true,{{.*}}"name":"workgroup attribution #1",{{.*}}"source":"%arg1"}]
// 16 trips * vector.fma on vector<4xf32> (8 FLOP) = 128 per thread * 128 = 16384.
// CHECK-SAME: "compute_ops":[{"count":16,"op":"vector.fma per thread"}],"flops_per_tile":16384
// CHECK-SAME: "kernel":"two::loops"
// 2 vector<8xf32> = 64 bytes * 128 = 8192.
// CHECK-SAME: "loads":{"bytes_per_thread":64,"bytes_per_tile":8192,"global_loads":2,"shared_loads_per_thread":{{[0-9]+}}}
// CHECK-SAME: "loc":"{{.*}}pk-analyze-kloops.mlir:[[# @LINE + 38]]:13"
// 16384 / 8192 = 2.
// CHECK-SAME: "ratio":2,
// CHECK-SAME: "multi_bytes":16384,"per_block_max_bytes":101376,"per_sm_bytes":102400,"per_stage_bytes":8192,"reserved_per_block_bytes":1024,"single_bytes":8192,
// 256 / 16 = 16 trips.
// CHECK-SAME: "trip_count":16,
// CHECK-NEXT: {"arch":"sm_86"
// CHECK-SAME: "buffers":[{"bytes":4096,"bytes_per_stage":4096,"copied":true,{{.*}}"name":"workgroup attribution #0",{{.*}}"source":"%arg0"},{"bytes":4096,"copied":false,{{.*}}"name":"workgroup attribution #1",
// CHECK-SAME: "compute_ops":[{"count":16,"op":"vector.fma per thread"}],"flops_per_tile":16384
// CHECK-SAME: "kernel":"two::loops"
// 1 vector<8xf32> = 32 bytes * 128 = 4096.
// CHECK-SAME: "loads":{"bytes_per_thread":32,"bytes_per_tile":4096,"global_loads":1,"shared_loads_per_thread":{{[0-9]+}}}
// CHECK-SAME: "loc":"{{.*}}pk-analyze-kloops.mlir:[[# @LINE + 42]]:13"
// 16384 / 4096 = 4.
// CHECK-SAME: "ratio":4,
// 8192 + 4096 = 12288.
// CHECK-SAME: "multi_bytes":12288,"per_block_max_bytes":101376,"per_sm_bytes":102400,"per_stage_bytes":4096,"reserved_per_block_bytes":1024,"single_bytes":8192,
// 64 / 16 = 4 trips.
// CHECK-SAME: "trip_count":4,

module attributes {gpu.container_module} {
  gpu.module @two {
    gpu.func @loops(%A: memref<64x256xf32>, %B: memref<64x256xf32>)
        workgroup(%sA: memref<64x16xf32, #gpu.address_space<workgroup>>,
                  %sB: memref<64x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c2 : index
      %half = arith.remui %tid, %c2 : index
      %col = arith.muli %half, %c8 : index
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %r1 = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %gk = arith.addi %k, %col : index
        %a = vector.load %A[%row, %gk] : memref<64x256xf32>, vector<8xf32>
        vector.store %a, %sA[%row, %col] : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<8xf32>
        %b = vector.load %B[%row, %gk] : memref<64x256xf32>, vector<8xf32>
        vector.store %b, %sB[%row, %col] : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<8xf32>
        gpu.barrier
        %s = scf.for %kk = %c0 to %c16 step %c1 iter_args(%x = %acc) -> (vector<4xf32>) {
          %fa = vector.load %sA[%row, %kk] : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
          %fb = vector.load %sB[%row, %kk] : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
          %d = vector.fma %fa, %fb, %x : vector<4xf32>
          scf.yield %d : vector<4xf32>
        }
        gpu.barrier
        scf.yield %s : vector<4xf32>
      }
      %r2 = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %r1) -> (vector<4xf32>) {
        %gk = arith.addi %k, %col : index
        %a = vector.load %A[%row, %gk] : memref<64x256xf32>, vector<8xf32>
        vector.store %a, %sA[%row, %col] : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<8xf32>
        gpu.barrier
        %s = scf.for %kk = %c0 to %c16 step %c1 iter_args(%x = %acc) -> (vector<4xf32>) {
          %fa = vector.load %sA[%row, %kk] : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
          %d = vector.fma %fa, %fa, %x : vector<4xf32>
          scf.yield %d : vector<4xf32>
        }
        gpu.barrier
        scf.yield %s : vector<4xf32>
      }
      vector.store %r2, %A[%row, %col] : memref<64x256xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// -----

// One K-loop and an unrelated epilogue loop without barriers: one line only.

// CHECK: {"arch":"sm_86"
// CHECK-SAME: "kernel":"epilogue::one_kloop"
// CHECK-SAME: "trip_count":16,
// The next line is the next split's.
// CHECK-NOT: "kernel":"epilogue::one_kloop"

module attributes {gpu.container_module} {
  gpu.module @epilogue {
    gpu.func @one_kloop(%A: memref<64x256xf32>, %C: memref<64x256xf32>)
        workgroup(%sA: memref<64x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c2 : index
      %half = arith.remui %tid, %c2 : index
      %col = arith.muli %half, %c8 : index
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %res = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %gk = arith.addi %k, %col : index
        %a = vector.load %A[%row, %gk] : memref<64x256xf32>, vector<8xf32>
        vector.store %a, %sA[%row, %col] : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<8xf32>
        gpu.barrier
        %fa = vector.load %sA[%row, %c0] : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %d = vector.fma %fa, %fa, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      scf.for %j = %c0 to %c4 step %c1 {
        %cj = arith.addi %col, %j : index
        vector.store %res, %C[%row, %cj] : memref<64x256xf32>, vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

// A single K-iteration (0 to 16 step 16): nothing to overlap.

// CHECK-NEXT: {"arch":"sm_86"
// CHECK-SAME: "kernel":"trip1::single_tile"
// CHECK-SAME: "reasons":["trip count 1 < 2: no next tile to overlap"]
// CHECK-SAME: "trip_count":1,"variant":"none"}

module attributes {gpu.container_module} {
  gpu.module @trip1 {
    gpu.func @single_tile(%A: memref<64x16xf32>)
        workgroup(%sA: memref<64x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c2 : index
      %half = arith.remui %tid, %c2 : index
      %col = arith.muli %half, %c8 : index
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %res = scf.for %k = %c0 to %c16 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %gk = arith.addi %k, %col : index
        %a = vector.load %A[%row, %gk] : memref<64x16xf32>, vector<8xf32>
        vector.store %a, %sA[%row, %col] : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<8xf32>
        gpu.barrier
        %fa = vector.load %sA[%row, %c0] : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %d = vector.fma %fa, %fa, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// -----

// 28 KB single-buffered (the seed's "28 KB -> 56 KB" pitfall): two padded
// 128x56xf16 tiles (BK = 48 + 8 padding), 128 * 56 * 2 = 14336 bytes each.
// Double buffering crosses the sm_86 cliff: register prefetch.

// CHECK: {"arch":"sm_86"
// 6 trips * 2 vector<8xf16> = 192 bytes per thread * 128 = 24576 (128 * 48 * 2 * 2).
// 3 trips * 1 mma (4096 FLOP) * 4 warps = 49152; ratio 49152 / 24576 = 2.
// CHECK-SAME: "flops_per_tile":49152,"kernel":"pitfall::smem_28k","loads":{"bytes_per_thread":192,"bytes_per_tile":24576,"global_loads":2,"shared_loads_per_thread":{{[0-9]+}}}
// Multi: 57344 + 1024 = 58368 -> 102400 / 58368 = 1.75 -> 1, limited by shared memory.
// CHECK-SAME: "multi":{"allocated_smem_per_block":58368,"blocks_per_sm":1,"by_blocks":16,"by_registers":4,"by_shared_memory":1,"by_threads":12,"limit":"shared_memory","warps_per_sm":4}
// Single: 28672 + 1024 = 29696 -> 3.4 -> 3.
// CHECK-SAME: "single":{"allocated_smem_per_block":29696,"blocks_per_sm":3,"by_blocks":16,"by_registers":4,"by_shared_memory":3,"by_threads":12,"limit":"shared_memory","warps_per_sm":12}
// CHECK-SAME: "ratio":2,
// CHECK-SAME: "reasons":["2 stages need 57344 bytes of shared memory, above the sm_86 cliff of 50176 bytes for 2 blocks/SM (blocks/SM 3 -> 1): register prefetch keeps one buffer"]
// CHECK-SAME: "smem":{"cliff_bytes":50176,"multi_bytes":57344,"per_block_max_bytes":101376,"per_sm_bytes":102400,"per_stage_bytes":28672,"reserved_per_block_bytes":1024,"single_bytes":28672,
// 768 / 48 = 16 trips.
// CHECK-SAME: "trip_count":16,"variant":"register-prefetch"}

// On sm_90 the same kernel keeps 4 blocks/SM: 58368 -> 233472 / 58368 = 4,
// cliff 115712; single 233472 / 29696 = 7.9 -> 7.
// SM90: "kernel":"pitfall::smem_28k"
// SM90-SAME: "multi":{"allocated_smem_per_block":58368,"blocks_per_sm":4,"by_blocks":32,"by_registers":4,"by_shared_memory":4,"by_threads":16,"limit":"registers","warps_per_sm":16}
// SM90-SAME: "single":{"allocated_smem_per_block":29696,"blocks_per_sm":4,"by_blocks":32,"by_registers":4,"by_shared_memory":7,"by_threads":16,"limit":"registers","warps_per_sm":16}
// SM90-SAME: "reasons":["2 stages need 57344 bytes of shared memory, within the sm_90 cliff of 115712 bytes for 2 blocks/SM",
// SM90-SAME: "variant":"cp-async"}

// sm_75: 57344 <= 65536 but 65536 / 57344 = 1 block, single 65536 / 28672 =
// 2.3 -> 2: crosses the 32768-byte cliff; register prefetch.
// SM75: "kernel":"pitfall::smem_28k"
// SM75-SAME: "reasons":["2 stages need 57344 bytes of shared memory, above the sm_75 cliff of 32768 bytes for 2 blocks/SM (blocks/SM 2 -> 1): register prefetch keeps one buffer"]
// SM75-SAME: "variant":"register-prefetch"}

// Three stages: 28672 * 3 = 86016 <= 101376, but crosses the cliff: 3 -> 1.
// STAGES3: "kernel":"pitfall::smem_28k"
// STAGES3-SAME: "reasons":["3 stages need 86016 bytes of shared memory, above the sm_86 cliff of 50176 bytes for 2 blocks/SM (blocks/SM 3 -> 1): register prefetch keeps one buffer"]

// With min-blocks-per-sm=3 (cliff 33024) the drop 3 -> 1 also crosses.
// MIN3: "kernel":"pitfall::smem_28k"
// MIN3-SAME: "reasons":["2 stages need 57344 bytes of shared memory, above the sm_86 cliff of 33024 bytes for 3 blocks/SM (blocks/SM 3 -> 1): register prefetch keeps one buffer"]

module attributes {gpu.container_module} {
  gpu.module @pitfall {
    gpu.func @smem_28k(%A: memref<1024x768xf16>, %B: memref<1024x768xf16>)
        workgroup(%sA: memref<128x56xf16, #gpu.address_space<workgroup>>,
                  %sB: memref<128x56xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c6 = arith.constant 6 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c48 = arith.constant 48 : index
      %c768 = arith.constant 768 : index
      %tid = gpu.thread_id x
      %lane = gpu.lane_id
      %lrow = arith.remui %lane, %c16 : index
      %zero = arith.constant dense<0.0> : vector<2x2xf32>
      %res = scf.for %k = %c0 to %c768 step %c48 iter_args(%acc = %zero) -> (vector<2x2xf32>) {
        scf.for %i = %c0 to %c6 step %c1 {
          %col = arith.muli %i, %c8 : index
          %gk = arith.addi %k, %col : index
          %a = vector.load %A[%tid, %gk] : memref<1024x768xf16>, vector<8xf16>
          vector.store %a, %sA[%tid, %col] : memref<128x56xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %b = vector.load %B[%tid, %gk] : memref<1024x768xf16>, vector<8xf16>
          vector.store %b, %sB[%tid, %col] : memref<128x56xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        }
        gpu.barrier
        %sum = scf.for %ks = %c0 to %c48 step %c16 iter_args(%x = %acc) -> (vector<2x2xf32>) {
          %fa = nvgpu.ldmatrix %sA[%lrow, %ks] {numTiles = 4 : i32, transpose = false}
              : memref<128x56xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
          %fb = nvgpu.ldmatrix %sB[%lrow, %ks] {numTiles = 2 : i32, transpose = false}
              : memref<128x56xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
          %d = nvgpu.mma.sync (%fa, %fb, %x) {mmaShape = [16, 8, 16]}
              : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
          scf.yield %d : vector<2x2xf32>
        }
        gpu.barrier
        scf.yield %sum : vector<2x2xf32>
      }
      gpu.return
    }
  }
}

// -----

// No block size on the kernel: no report line by default (the mismatch
// remark is tested in pk-analyze-kloops-invalid.mlir); block-size=256 makes
// it match.

// CHECK-NOT: "kernel":"nosize::k"
// BS256: "kernel":"nosize::k"
// 256 threads * 2 vector<4xf32> (32 bytes) = 8192 bytes per tile;
// 16 fma * 8 FLOP = 128 per thread * 256 = 32768; ratio 4.
// BS256-SAME: "loads":{"bytes_per_thread":32,"bytes_per_tile":8192,"global_loads":2,"shared_loads_per_thread":{{[0-9]+}}}
// 8 warps: registers 16 / 8 = 2, threads 48 / 8 = 6; smem multi 16384 + 1024
// = 17408 -> 5.9 -> 5; single 8192 + 1024 = 9216 -> 11.
// BS256-SAME: "multi":{"allocated_smem_per_block":17408,"blocks_per_sm":2,"by_blocks":16,"by_registers":2,"by_shared_memory":5,"by_threads":6,"limit":"registers","warps_per_sm":16}
// BS256-SAME: "single":{"allocated_smem_per_block":9216,"blocks_per_sm":2,"by_blocks":16,"by_registers":2,"by_shared_memory":11,"by_threads":6,"limit":"registers","warps_per_sm":16}
// BS256-SAME: "ratio":4,
// BS256-SAME: "threads_per_block":256,

module attributes {gpu.container_module} {
  gpu.module @nosize {
    gpu.func @k(%A: memref<64x256xf32>, %B: memref<64x256xf32>)
        workgroup(%sA: memref<64x16xf32, #gpu.address_space<workgroup>>,
                  %sB: memref<64x16xf32, #gpu.address_space<workgroup>>)
        kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c4 : index
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %res = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %gk = arith.addi %k, %col : index
        %a = vector.load %A[%row, %gk] : memref<64x256xf32>, vector<4xf32>
        vector.store %a, %sA[%row, %col] : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %b = vector.load %B[%row, %gk] : memref<64x256xf32>, vector<4xf32>
        vector.store %b, %sB[%row, %col] : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %s = scf.for %kk = %c0 to %c16 step %c1 iter_args(%x = %acc) -> (vector<4xf32>) {
          %fa = vector.load %sA[%row, %kk] : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
          %fb = vector.load %sB[%row, %kk] : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
          %d = vector.fma %fa, %fb, %x : vector<4xf32>
          scf.yield %d : vector<4xf32>
        }
        gpu.barrier
        scf.yield %s : vector<4xf32>
      }
      gpu.return
    }
  }
}
