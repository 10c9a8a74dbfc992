// RUN: pk-opt %s -split-input-file -verify-diagnostics --pk-check-smem-budget='regs-per-thread=32' -o /dev/null
//
// Other targets and options change the outcome; checked on the diagnostics
// text (the pass fails when any loop is over budget, hence `not`).
// RUN: not pk-opt %s -split-input-file --pk-check-smem-budget='regs-per-thread=32 stages=8' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STAGES8
// RUN: not pk-opt %s -split-input-file --pk-check-smem-budget='regs-per-thread=32 arch=sm_75' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM75
// RUN: not pk-opt %s -split-input-file --pk-check-smem-budget='regs-per-thread=32 min-blocks-per-sm=3' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MIN3
// RUN: not pk-opt %s -split-input-file --pk-check-smem-budget='regs-per-thread=32 min-blocks-per-sm=1' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MIN1
// Option errors of this pass.
// RUN: not pk-opt %S/Inputs/seed-64x64x16.mlir --pk-check-smem-budget='arch=sm_99' -o /dev/null 2>&1 | FileCheck %s --check-prefix=ARCH
// RUN: not pk-opt %S/Inputs/seed-64x64x16.mlir --pk-check-smem-budget='stages=1' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STAGES1
// RUN: not pk-opt %S/Inputs/seed-64x64x16.mlir --pk-check-smem-budget='min-blocks-per-sm=0' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MINBLOCKS

// ARCH: error: unknown arch 'sm_99'; pk knows: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_90a
// STAGES1: error: stages must be 2 to 8 or auto, got '1'
// MINBLOCKS: error: min-blocks-per-sm must be at least 1, got 0

// All kernels: 128 threads (4 warps); with regs-per-thread=32 a warp takes
// 32 * 32 = 1024 registers, 16384 / 1024 = 16 warps per sub-partition,
// 64 / 4 = 16 blocks: registers never limit. Threads: 48 / 4 = 12 blocks.
// sm_86 shared memory per block allocated = bytes + 1024 rounded up to 128,
// blocks = 102400 / allocated. Remedies (CheckSmemBudget.cpp): halve BK
// halves every copied tile (repeated up to 3 times until it fits); halving
// the tile of one source halves that buffer; register prefetch keeps the
// single-buffered size and stages per_stage / (128 threads * 4 bytes)
// registers per thread.

// (a) The seed's "28 KB -> 56 KB" pitfall: two 128x56xf16 tiles (BK = 48
// plus 8 padding), 128 * 56 * 2 = 14336 bytes each, 28672 single-buffered.
//   single: 28672 + 1024 = 29696 -> 102400 / 29696 = 3.4 -> 3 blocks/SM
//   double: 57344 + 1024 = 58368 -> 102400 / 58368 = 1.75 -> 1 block/SM
//   cliff for 2 blocks/SM: 102400 / 2 = 51200 - 1024 = 50176 < 57344
//   halve BK: 14336 per stage, 28672 double -> 3 blocks/SM (>= 2: fits)
//   halve A:  28672 - 14336 / 2 = 21504 per stage, 43008 double,
//             43008 + 1024 = 44032 -> 2.3 -> 2 blocks/SM (fits); same for B
//   register prefetch: 28672 bytes, 3 blocks/SM, 28672 / 512 = 56 registers

// With 8 stages: 8 * 28672 = 229376 > 101376 (per-block maximum), 0 blocks.
//   halve BK once: 8 * 14336 = 114688 > 101376; twice: 8 * 7168 = 57344 ->
//   1 block < 2; three times: 8 * 3584 = 28672 -> 3 blocks: fits.
//   halve A: 21504 * 8 = 172032 > 101376: 0 blocks, still over.
// STAGES8: error: multi-buffering with 8 stages needs 229376 bytes of shared memory per block (28672 single-buffered, 28672 per stage), above the sm_86 per-block maximum of 101376 bytes (blocks/SM 3 -> 0, limited by shared_memory); remedies: halve BK 3 times (3584 bytes per stage, 28672 bytes with 8 stages, 3 blocks/SM); or halve the tile copied from %arg0 into workgroup attribution #0 (BM or BN; 21504 bytes per stage, 172032 bytes with 8 stages, 0 blocks/SM (still over)); or halve the tile copied from %arg1 into workgroup attribution #1 (BM or BN; 21504 bytes per stage, 172032 bytes with 8 stages, 0 blocks/SM (still over)); or prefetch through registers without doubling (variant=register-prefetch: 28672 bytes, 3 blocks/SM, about 56 more registers per thread for staging)

// sm_75 (64 KB per SM, no reservation, 256-byte granularity): single
// 65536 / 28672 = 2.3 -> 2, double 65536 / 57344 = 1; cliff 65536 / 2 = 32768.
//   halve BK: 28672 double -> 65536 / 28672 = 2 (fits);
//   halve A: 43008 double -> 65536 / 43008 = 1 < 2: still over.
// SM75: error: multi-buffering with 2 stages needs 57344 bytes of shared memory per block (28672 single-buffered, 28672 per stage), above the sm_75 cliff of 32768 bytes for 2 blocks/SM (blocks/SM 2 -> 1, limited by shared_memory); remedies: halve BK (14336 bytes per stage, 28672 bytes with 2 stages, 2 blocks/SM); or halve the tile copied from %arg0 into workgroup attribution #0 (BM or BN; 21504 bytes per stage, 43008 bytes with 2 stages, 1 blocks/SM (still over)); or halve the tile copied from %arg1 into workgroup attribution #1 (BM or BN; 21504 bytes per stage, 43008 bytes with 2 stages, 1 blocks/SM (still over)); or prefetch through registers without doubling (variant=register-prefetch: 28672 bytes, 2 blocks/SM, about 56 more registers per thread for staging)

// min-blocks-per-sm=3: cliff 102400 / 3 = 34133 -> 34048 - 1024 = 33024.
//   halve BK: 28672 double -> 3 blocks (fits);
//   halve A: 43008 double -> 2 blocks < min(3, 3): still over.
// MIN3: error: multi-buffering with 2 stages needs 57344 bytes of shared memory per block (28672 single-buffered, 28672 per stage), above the sm_86 cliff of 33024 bytes for 3 blocks/SM (blocks/SM 3 -> 1, limited by shared_memory); remedies: halve BK (14336 bytes per stage, 28672 bytes with 2 stages, 3 blocks/SM); or halve the tile copied from %arg0 into workgroup attribution #0 (BM or BN; 21504 bytes per stage, 43008 bytes with 2 stages, 2 blocks/SM (still over)); or halve the tile copied from %arg1 into workgroup attribution #1 (BM or BN; 21504 bytes per stage, 43008 bytes with 2 stages, 2 blocks/SM (still over)); or prefetch through registers without doubling (variant=register-prefetch: 28672 bytes, 3 blocks/SM, about 56 more registers per thread for staging)

// min-blocks-per-sm=1: one block/SM is enough; cliff 102400 - 1024 = 101376.
// 57344 > 49152 needs dynamic shared memory.
// MIN1: remark: shared-memory budget ok: 57344 bytes with 2 stages, within the sm_86 cliff of 101376 bytes for 1 blocks/SM (blocks/SM 3 -> 1, limited by shared_memory); above the 49152-byte static limit: the kernel needs dynamic shared memory with the opt-in attribute

module attributes {gpu.container_module} {
  gpu.module @pitfall {
    gpu.func @smem_28k(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>)
        workgroup(%sA: memref<128x56xf16, #gpu.address_space<workgroup>>,
                  %sB: memref<128x56xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c6 = arith.constant 6 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c48 = arith.constant 48 : index
      %c960 = arith.constant 960 : index
      %tid = gpu.thread_id x
      %lane = gpu.lane_id
      %lrow = arith.remui %lane, %c16 : index
      %zero = arith.constant dense<0.0> : vector<2x2xf32>
      // expected-error @below {{multi-buffering with 2 stages needs 57344 bytes of shared memory per block (28672 single-buffered, 28672 per stage), above the sm_86 cliff of 50176 bytes for 2 blocks/SM (blocks/SM 3 -> 1, limited by shared_memory); remedies: halve BK (14336 bytes per stage, 28672 bytes with 2 stages, 3 blocks/SM); or halve the tile copied from %arg0 into workgroup attribution #0 (BM or BN; 21504 bytes per stage, 43008 bytes with 2 stages, 2 blocks/SM); or halve the tile copied from %arg1 into workgroup attribution #1 (BM or BN; 21504 bytes per stage, 43008 bytes with 2 stages, 2 blocks/SM); or prefetch through registers without doubling (variant=register-prefetch: 28672 bytes, 3 blocks/SM, about 56 more registers per thread for staging)}}
      %res = scf.for %k = %c0 to %c960 step %c48 iter_args(%acc = %zero) -> (vector<2x2xf32>) {
        scf.for %i = %c0 to %c6 step %c1 {
          %col = arith.muli %i, %c8 : index
          %gk = arith.addi %k, %col : index
          %a = vector.load %A[%tid, %gk] : memref<1024x1024xf16>, vector<8xf16>
          vector.store %a, %sA[%tid, %col] : memref<128x56xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %b = vector.load %B[%tid, %gk] : memref<1024x1024xf16>, vector<8xf16>
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

// (b) Above the per-block maximum: two 128x112xf16 tiles (BK = 96 plus 16
// padding), 128 * 112 * 2 = 28672 bytes each, 57344 single-buffered.
//   single: 57344 + 1024 = 58368 -> 1 block/SM
//   double: 114688 > 101376 (99 KB, the sm_86 per-block maximum) -> 0
//   halve BK: 28672 per stage, 57344 double -> 1 block >= min(2, 1): fits
//   halve A: 57344 - 28672 / 2 = 43008 per stage, 86016 double <= 101376,
//            86016 + 1024 = 87040 -> 1 block: fits
//   register prefetch: 57344 bytes, 1 block/SM, 57344 / 512 = 112 registers

// sm_75: 114688 > 65536; single 65536 / 57344 = 1.
//   halve BK: 57344 double -> 1 (fits); halve A: 86016 > 65536 -> 0.
// SM75: error: multi-buffering with 2 stages needs 114688 bytes of shared memory per block (57344 single-buffered, 57344 per stage), above the sm_75 per-block maximum of 65536 bytes (blocks/SM 1 -> 0, limited by shared_memory); remedies: halve BK (28672 bytes per stage, 57344 bytes with 2 stages, 1 blocks/SM); or halve the tile copied from %arg0 into workgroup attribution #0 (BM or BN; 43008 bytes per stage, 86016 bytes with 2 stages, 0 blocks/SM (still over)); or halve the tile copied from %arg1 into workgroup attribution #1 (BM or BN; 43008 bytes per stage, 86016 bytes with 2 stages, 0 blocks/SM (still over)); or prefetch through registers without doubling (variant=register-prefetch: 57344 bytes, 1 blocks/SM, about 112 more registers per thread for staging)

// Still above the maximum with min-blocks-per-sm=1.
// MIN1: error: multi-buffering with 2 stages needs 114688 bytes of shared memory per block (57344 single-buffered, 57344 per stage), above the sm_86 per-block maximum of 101376 bytes (blocks/SM 1 -> 0, limited by shared_memory)

module attributes {gpu.container_module} {
  gpu.module @too_big {
    gpu.func @smem_56k(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>)
        workgroup(%sA: memref<128x112xf16, #gpu.address_space<workgroup>>,
                  %sB: memref<128x112xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c12 = arith.constant 12 : index
      %c16 = arith.constant 16 : index
      %c96 = arith.constant 96 : index
      %c960 = arith.constant 960 : index
      %tid = gpu.thread_id x
      %lane = gpu.lane_id
      %lrow = arith.remui %lane, %c16 : index
      %zero = arith.constant dense<0.0> : vector<2x2xf32>
      // expected-error @below {{multi-buffering with 2 stages needs 114688 bytes of shared memory per block (57344 single-buffered, 57344 per stage), above the sm_86 per-block maximum of 101376 bytes (blocks/SM 1 -> 0, limited by shared_memory); remedies: halve BK (28672 bytes per stage, 57344 bytes with 2 stages, 1 blocks/SM); or halve the tile copied from %arg0 into workgroup attribution #0 (BM or BN; 43008 bytes per stage, 86016 bytes with 2 stages, 1 blocks/SM); or halve the tile copied from %arg1 into workgroup attribution #1 (BM or BN; 43008 bytes per stage, 86016 bytes with 2 stages, 1 blocks/SM); or prefetch through registers without doubling (variant=register-prefetch: 57344 bytes, 1 blocks/SM, about 112 more registers per thread for staging)}}
      %res = scf.for %k = %c0 to %c960 step %c96 iter_args(%acc = %zero) -> (vector<2x2xf32>) {
        scf.for %i = %c0 to %c12 step %c1 {
          %col = arith.muli %i, %c8 : index
          %gk = arith.addi %k, %col : index
          %a = vector.load %A[%tid, %gk] : memref<1024x1024xf16>, vector<8xf16>
          vector.store %a, %sA[%tid, %col] : memref<128x112xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %b = vector.load %B[%tid, %gk] : memref<1024x1024xf16>, vector<8xf16>
          vector.store %b, %sB[%tid, %col] : memref<128x112xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        }
        gpu.barrier
        %sum = scf.for %ks = %c0 to %c96 step %c16 iter_args(%x = %acc) -> (vector<2x2xf32>) {
          %fa = nvgpu.ldmatrix %sA[%lrow, %ks] {numTiles = 4 : i32, transpose = false}
              : memref<128x112xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
          %fb = nvgpu.ldmatrix %sB[%lrow, %ks] {numTiles = 2 : i32, transpose = false}
              : memref<128x112xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
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

// (c) Within budget by default, over it with min-blocks-per-sm=3: two
// 128x40xf16 tiles (BK = 32 plus 8 padding, the HGEMM example's tiles),
// 128 * 40 * 2 = 10240 bytes each, 20480 single-buffered.
//   single: 20480 + 1024 = 21504 -> 102400 / 21504 = 4.8 -> 4 blocks/SM
//   double: 40960 + 1024 = 41984 -> 2.4 -> 2 blocks/SM (>= 2: ok by default)
//   cliff for 3 blocks/SM: 33024 < 40960 -> error with min-blocks-per-sm=3
//   halve BK: 10240 per stage, 20480 double -> 4 blocks (>= 3: fits)
//   halve A: 20480 - 5120 = 15360 per stage, 30720 double, 30720 + 1024 =
//            31744 -> 102400 / 31744 = 3.2 -> 3 (fits)
//   register prefetch: 20480 bytes, 4 blocks/SM, 20480 / 512 = 40 registers
// MIN3: error: multi-buffering with 2 stages needs 40960 bytes of shared memory per block (20480 single-buffered, 20480 per stage), above the sm_86 cliff of 33024 bytes for 3 blocks/SM (blocks/SM 4 -> 2, limited by shared_memory); remedies: halve BK (10240 bytes per stage, 20480 bytes with 2 stages, 4 blocks/SM); or halve the tile copied from %arg0 into workgroup attribution #0 (BM or BN; 15360 bytes per stage, 30720 bytes with 2 stages, 3 blocks/SM); or halve the tile copied from %arg1 into workgroup attribution #1 (BM or BN; 15360 bytes per stage, 30720 bytes with 2 stages, 3 blocks/SM); or prefetch through registers without doubling (variant=register-prefetch: 20480 bytes, 4 blocks/SM, about 40 more registers per thread for staging)
// MIN1: remark: shared-memory budget ok: 40960 bytes with 2 stages, within the sm_86 cliff of 101376 bytes for 1 blocks/SM (blocks/SM 4 -> 2, limited by shared_memory){{$}}
// sm_75: single 20480 -> 65536 / 20480 = 3.2 -> 3; double 40960 -> 1 < 2.
// SM75: error: multi-buffering with 2 stages needs 40960 bytes of shared memory per block (20480 single-buffered, 20480 per stage), above the sm_75 cliff of 32768 bytes for 2 blocks/SM (blocks/SM 3 -> 1, limited by shared_memory)

module attributes {gpu.container_module} {
  gpu.module @hgemm_tiles {
    gpu.func @smem_20k(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>)
        workgroup(%sA: memref<128x40xf16, #gpu.address_space<workgroup>>,
                  %sB: memref<128x40xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %lane = gpu.lane_id
      %lrow = arith.remui %lane, %c16 : index
      %zero = arith.constant dense<0.0> : vector<2x2xf32>
      // expected-remark @below {{shared-memory budget ok: 40960 bytes with 2 stages, within the sm_86 cliff of 50176 bytes for 2 blocks/SM (blocks/SM 4 -> 2, limited by shared_memory)}}
      %res = scf.for %k = %c0 to %c1024 step %c32 iter_args(%acc = %zero) -> (vector<2x2xf32>) {
        scf.for %i = %c0 to %c4 step %c1 {
          %col = arith.muli %i, %c8 : index
          %gk = arith.addi %k, %col : index
          %a = vector.load %A[%tid, %gk] : memref<1024x1024xf16>, vector<8xf16>
          vector.store %a, %sA[%tid, %col] : memref<128x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %b = vector.load %B[%tid, %gk] : memref<1024x1024xf16>, vector<8xf16>
          vector.store %b, %sB[%tid, %col] : memref<128x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        }
        gpu.barrier
        %sum = scf.for %ks = %c0 to %c32 step %c16 iter_args(%x = %acc) -> (vector<2x2xf32>) {
          %fa = nvgpu.ldmatrix %sA[%lrow, %ks] {numTiles = 4 : i32, transpose = false}
              : memref<128x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
          %fb = nvgpu.ldmatrix %sB[%lrow, %ks] {numTiles = 2 : i32, transpose = false}
              : memref<128x40xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
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

// A loop that does not match the input contract (one barrier only) gets no
// budget diagnostic, even though 2 * 57344 bytes would be far over budget.

// (The -verify-diagnostics run fails on any unexpected diagnostic; with other
// options, no diagnostic is reported at the loop.)
// SM75-NOT: pk-check-smem-budget-invalid.mlir:[[# @LINE + 14]]:{{[0-9]+}}: {{error|remark}}
// MIN1-NOT: pk-check-smem-budget-invalid.mlir:[[# @LINE + 13]]:{{[0-9]+}}: {{error|remark}}
// MIN3-NOT: pk-check-smem-budget-invalid.mlir:[[# @LINE + 12]]:{{[0-9]+}}: {{error|remark}}

module attributes {gpu.container_module} {
  gpu.module @mismatch {
    gpu.func @not_a_kloop(%A: memref<1024x1024xf16>)
        workgroup(%sA: memref<128x224xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<8xf16>
      %res = scf.for %k = %c0 to %c1024 step %c16 iter_args(%acc = %zero) -> (vector<8xf16>) {
        %a = vector.load %A[%tid, %k] : memref<1024x1024xf16>, vector<8xf16>
        vector.store %a, %sA[%tid, %c0] : memref<128x224xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x224xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %d = vector.fma %x, %x, %acc : vector<8xf16>
        scf.yield %d : vector<8xf16>
      }
      gpu.return
    }
  }
}
