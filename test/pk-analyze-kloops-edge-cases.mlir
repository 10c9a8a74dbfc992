// Edge cases found by review: each was a wrong number, a crash or a wrong
// sentence before.
// RUN: rm -f %t.json
// RUN: pk-opt %s -split-input-file --pk-analyze-kloops='report=%t.json report-append=1' -o /dev/null
// RUN: FileCheck %s --input-file=%t.json
// RUN: grep -c '"arch":"sm_86"' %t.json | FileCheck %s --check-prefix=LINES
// RUN: pk-opt %s -split-input-file --pk-analyze-kloops='arch=sm_75 report=-' -o /dev/null 2>&1 | grep '^{' | FileCheck %s --check-prefix=SM75
// RUN: pk-opt %s -split-input-file --pk-check-smem-budget='regs-per-thread=255' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET
// RUN: not pk-opt %s -split-input-file --pk-analyze-kloops='min-blocks-per-sm=17' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MINBLOCKS
// RUN: pk-opt %s -split-input-file --pk-analyze-kloops -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// MINBLOCKS: error: min-blocks-per-sm=17 exceeds the 16 resident blocks per SM of sm_86

// stages=auto (docs/stages.md) on the seed's example (128 threads, 8
// mma.sync m16n8k16 per warp and tile = 131072 FLOPs, 4 blocks/SM limited by
// the default 128 registers):
//   sm_90: 131072 * 4 / 2048 = 256 cycles per tile, 1 + ceil(3000 / 256) = 13
//          tiles in flight; the budget allows 8 (trip count 64, 8 stages =
//          32768 bytes keep 4 blocks/SM): 8.
//   sm_86: 131072 * 4 / 512 = 1024 cycles, 1 + ceil(500 / 1024) = 2.
// RUN: pk-opt %S/Inputs/seed-64x64x16.mlir --pk-analyze-kloops='stages=auto arch=sm_90 report=-' -o /dev/null 2>&1 | grep '^{' | FileCheck %s --check-prefix=AUTO90
// RUN: pk-opt %S/Inputs/seed-64x64x16.mlir --pk-analyze-kloops='stages=auto arch=sm_86 report=-' -o /dev/null 2>&1 | grep '^{' | FileCheck %s --check-prefix=AUTO86
// RUN: not pk-opt %S/Inputs/seed-64x64x16.mlir --pk-analyze-kloops='stages=many' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADSTAGES
// AUTO90: "multi_bytes":32768,"per_block_max_bytes"
// AUTO90-SAME: "stages":8,
// AUTO90-SAME: "stages_auto":{"budget_stages":8,"compute_cycles_per_tile":256,"latency_cycles":3000,"latency_stages":13}
// AUTO86: "stages":2,
// AUTO86-SAME: "stages_auto":{"budget_stages":8,"compute_cycles_per_tile":1024,"latency_cycles":500,"latency_stages":2}
// BADSTAGES: for the --stages option: stages must be 2 to 8 or auto, got 'many'

// Kernels and loops pk does not consider (test/Inputs/unconsidered.mlir,
// issue 12: they got no remark). Each kernel without a K-loop candidate and
// each loop that looks like a K-loop (an affine.for) get a remark in every
// mode; the epilogue loop nest of the pipelined kernel only with verbose
// (pk-analyze-kloops' default; off in pk-check-smem-budget), once for the
// nest.
// RUN: pk-opt %S/Inputs/unconsidered.mlir --pk-analyze-kloops -o /dev/null 2>&1 | FileCheck %s --check-prefixes=UNCONSIDERED,UNCONSIDERED-VERBOSE
// RUN: pk-opt %S/Inputs/unconsidered.mlir --pk-analyze-kloops -o /dev/null 2>&1 | grep -c 'not a pk K-loop: no gpu.barrier in its body' | FileCheck %s --check-prefix=ONCE
// RUN: pk-opt %S/Inputs/unconsidered.mlir --pk-analyze-kloops='verbose=0' -o /dev/null 2>&1 | FileCheck %s --check-prefixes=UNCONSIDERED,UNCONSIDERED-QUIET
// RUN: pk-opt %S/Inputs/unconsidered.mlir --pk-check-smem-budget='verbose=1' -o /dev/null 2>&1 | FileCheck %s --check-prefixes=UNCONSIDERED,UNCONSIDERED-VERBOSE
// RUN: pk-opt %S/Inputs/unconsidered.mlir --pk-check-smem-budget -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMEM-QUIET
// UNCONSIDERED: unconsidered.mlir:45:5: remark: kernel @fill: nothing to pipeline: it has no loop
// UNCONSIDERED: remark: kernel @affine_kloop: nothing to pipeline: none of its 1 loop(s) is a K-loop candidate (an scf.for with a gpu.barrier directly in its body)
// UNCONSIDERED-QUIET-NOT: no gpu.barrier in its body
// UNCONSIDERED-VERBOSE: unconsidered.mlir:34:7: remark: not a pk K-loop: no gpu.barrier in its body
// UNCONSIDERED: remark: not a pk K-loop: an affine.for, not an scf.for; run --lower-affine first (it turns affine.for into scf.for)
// UNCONSIDERED-QUIET-NOT: no gpu.barrier in its body
// ONCE: {{^}}1{{$}}
// SMEM-QUIET-NOT: nothing to pipeline
// SMEM-QUIET: unconsidered.mlir:23:12: remark: shared-memory budget ok
// SMEM-QUIET-NOT: not a pk K-loop

// With -split-input-file every chunk's line reaches the report file (the
// first write truncates, later chunks append): three loops, three lines.
// LINES: 3

// Two memref.get_global of one symbol are one buffer: 8192 bytes single and
// per stage (128 x 16 x 4), 16384 with two stages.
// CHECK{LITERAL}: "buffers":[{"bytes":8192,"bytes_per_stage":8192,"copied":true,"element_type":"f32","kind":"global","name":"@smem","shape":[128,16],"source":"%arg0"}]
// CHECK-SAME: "smem":{"cliff_bytes":50176,"multi_bytes":16384,"per_block_max_bytes":101376,"per_sm_bytes":102400,"per_stage_bytes":8192,"reserved_per_block_bytes":1024,"single_bytes":8192,"stages":2,"static_max_bytes":49152}
module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" @smem : memref<128x16xf32, 3>
    gpu.func @two_handles(%A: memref<128x64xf32>, %out: memref<128xf32>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %s1 = memref.get_global @smem : memref<128x16xf32, 3>
      %s2 = memref.get_global @smem : memref<128x16xf32, 3>
      %tid = gpu.thread_id x
      %init = arith.constant dense<0.0> : vector<4xf32>
      %r = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (vector<4xf32>) {
        %k8 = arith.addi %k, %c8 : index
        %v = vector.load %A[%tid, %k] : memref<128x64xf32>, vector<4xf32>
        vector.store %v, %s1[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %w = vector.load %A[%tid, %k8] : memref<128x64xf32>, vector<4xf32>
        vector.store %w, %s2[%tid, %c8] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %s1[%tid, %c4] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      %e = vector.extract %r[0] : f32 from vector<4xf32>
      memref.store %e, %out[%tid] : memref<128xf32>
      gpu.return
    }
  }
}

// -----

// No shared memory other than a zero-sized tile on sm_75 (no per-block
// reservation): shared memory does not limit occupancy (this divided by zero).
// SM75: "kernel":"m::empty_tile"
// SM75-SAME: "single":{"allocated_smem_per_block":0,"blocks_per_sm":{{[0-9]+}},"by_blocks":16,"by_registers":{{[0-9]+}},"by_shared_memory":16,
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @empty_tile(%A: memref<128x64xf32>, %out: memref<128xf32>)
        workgroup(%s: memref<0x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %tid = gpu.thread_id x
      %init = arith.constant dense<0.0> : vector<4xf32>
      %r = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (vector<4xf32>) {
        %v = vector.load %A[%tid, %k] : memref<128x64xf32>, vector<4xf32>
        vector.store %v, %s[%tid, %c0] : memref<0x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %x = vector.load %s[%tid, %c0] : memref<0x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      %e = vector.extract %r[0] : f32 from vector<4xf32>
      memref.store %e, %out[%tid] : memref<128xf32>
      gpu.return
    }
  }
}

// -----

// 28 KB single-buffered, 57344 doubled: above the sm_86 cliff of 50176, but
// with 255 registers per thread a 256-thread block already fits only once
// per SM, so doubling costs nothing and the sentence says so.
// BUDGET: remark: shared-memory budget ok: 57344 bytes with 2 stages, above the sm_86 cliff of 50176 bytes for 2 blocks/SM (blocks/SM 1 -> 1, limited by registers): the kernel is already below 2 blocks/SM, doubling costs no occupancy
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @smem_28k(%A: memref<448x256xf16>, %out: memref<448xf32>)
        workgroup(%s: memref<448x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %init = arith.constant dense<0.0> : vector<8xf32>
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

// -----

// An out-of-range pk.regs_per_thread is named, not used.
// REMARK: remark: not a pk K-loop: pk.regs_per_thread must be in [1, 255], got 300
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @bad_regs(%A: memref<128x64xf32>, %out: memref<128xf32>)
        workgroup(%s: memref<128x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>, pk.regs_per_thread = 300 : i64} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c64 = arith.constant 64 : index
      %tid = gpu.thread_id x
      %init = arith.constant dense<0.0> : vector<4xf32>
      %r = scf.for %k = %c0 to %c64 step %c16 iter_args(%acc = %init) -> (vector<4xf32>) {
        %v = vector.load %A[%tid, %k] : memref<128x64xf32>, vector<4xf32>
        vector.store %v, %s[%tid, %c0] : memref<128x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %x = vector.load %s[%tid, %c0] : memref<128x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      %e = vector.extract %r[0] : f32 from vector<4xf32>
      memref.store %e, %out[%tid] : memref<128xf32>
      gpu.return
    }
  }
}
