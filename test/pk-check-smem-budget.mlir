// RUN: pk-opt %s -split-input-file -verify-diagnostics --pk-check-smem-budget -o /dev/null
// RUN: pk-opt %s -split-input-file --pk-check-smem-budget='arch=sm_90 stages=4' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM90

// Loops within budget get a remark; the pass succeeds and leaves the IR alone.
// sm_86: blocks/SM from shared memory = 102400 / (bytes + 1024 rounded up to
// 128); with the default 128 registers a 4-warp block takes 4 * 4096 =
// 16384 registers -> 4 blocks/SM by registers. Cliff for 2 blocks/SM:
// 102400 / 2 - 1024 = 50176.
// sm_90: 233472 bytes per SM, cliff 233472 / 2 - 1024 = 115712.

// The seed's worked example: 2 KB + 2 KB single-buffered, 8192 bytes double.
//   single 4096 + 1024 = 5120 -> 20, double 8192 + 1024 = 9216 -> 11;
//   registers limit both to 4.
// sm_90, 4 stages: 4 * 4096 = 16384 bytes, 17408 allocated -> 13; still 4
// by registers.
// SM90: remark: shared-memory budget ok: 16384 bytes with 4 stages, within the sm_90 cliff of 115712 bytes for 2 blocks/SM (blocks/SM 4 -> 4, limited by registers){{$}}

module attributes {gpu.container_module} {
  gpu.module @seed {
    gpu.func @gemm_64x64x16(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>)
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
      // expected-remark @below {{shared-memory budget ok: 8192 bytes with 2 stages, within the sm_86 cliff of 50176 bytes for 2 blocks/SM (blocks/SM 4 -> 4, limited by registers)}}
      %res = scf.for %k = %c0 to %c1024 step %c16 iter_args(%acc = %init) -> (vector<2x2xf32>) {
        %gk = arith.addi %k, %col : index
        %a = vector.load %A[%row, %gk] : memref<1024x1024xf16>, vector<8xf16>
        vector.store %a, %smemA[%row, %col] : memref<64x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %b = vector.load %B[%row, %gk] : memref<1024x1024xf16>, vector<8xf16>
        vector.store %b, %smemB[%row, %col] : memref<64x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
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
      gpu.return
    }
  }
}

// -----

// Between the 48 KB static limit and the cliff: two 128x48xf16 tiles
// (128 * 48 * 2 = 12288 bytes each, copied) plus a 128xf32 staging buffer
// the K-loop does not copy (512 bytes).
//   single 24576 + 512 = 25088, + 1024 = 26112 -> 102400 / 26112 = 3.9 -> 3
//   double 25088 + 24576 = 49664 > 49152, + 1024 = 50688 -> 2.02 -> 2 blocks:
//   within the cliff (49664 <= 50176), shared memory limits 3 -> 2.
// sm_90, 4 stages: 25088 + 3 * 24576 = 98816, + 1024 = 99840 -> 233472 /
//   99840 = 2.3 -> 2 blocks; single 233472 / 26112 = 8.9 -> 8, registers 4.
// SM90: remark: shared-memory budget ok: 98816 bytes with 4 stages, within the sm_90 cliff of 115712 bytes for 2 blocks/SM (blocks/SM 4 -> 2, limited by shared_memory); above the 49152-byte static limit: the kernel needs dynamic shared memory with the opt-in attribute

module attributes {gpu.container_module} {
  gpu.module @near_cliff {
    gpu.func @smem_48k(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>)
        workgroup(%sA: memref<128x48xf16, #gpu.address_space<workgroup>>,
                  %sB: memref<128x48xf16, #gpu.address_space<workgroup>>,
                  %stage: memref<128xf32, #gpu.address_space<workgroup>>)
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
      // expected-remark @below {{shared-memory budget ok: 49664 bytes with 2 stages, within the sm_86 cliff of 50176 bytes for 2 blocks/SM (blocks/SM 3 -> 2, limited by shared_memory); above the 49152-byte static limit: the kernel needs dynamic shared memory with the opt-in attribute}}
      %res = scf.for %k = %c0 to %c1024 step %c32 iter_args(%acc = %zero) -> (vector<2x2xf32>) {
        scf.for %i = %c0 to %c4 step %c1 {
          %col = arith.muli %i, %c8 : index
          %gk = arith.addi %k, %col : index
          %a = vector.load %A[%tid, %gk] : memref<1024x1024xf16>, vector<8xf16>
          vector.store %a, %sA[%tid, %col] : memref<128x48xf16, #gpu.address_space<workgroup>>, vector<8xf16>
          %b = vector.load %B[%tid, %gk] : memref<1024x1024xf16>, vector<8xf16>
          vector.store %b, %sB[%tid, %col] : memref<128x48xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        }
        gpu.barrier
        %sum = scf.for %ks = %c0 to %c32 step %c16 iter_args(%x = %acc) -> (vector<2x2xf32>) {
          %fa = nvgpu.ldmatrix %sA[%lrow, %ks] {numTiles = 4 : i32, transpose = false}
              : memref<128x48xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
          %fb = nvgpu.ldmatrix %sB[%lrow, %ks] {numTiles = 2 : i32, transpose = false}
              : memref<128x48xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
          %d = nvgpu.mma.sync (%fa, %fb, %x) {mmaShape = [16, 8, 16]}
              : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
          scf.yield %d : vector<2x2xf32>
        }
        gpu.barrier
        scf.yield %sum : vector<2x2xf32>
      }
      %r = vector.extract %res[0, 0] : f32 from vector<2x2xf32>
      memref.store %r, %stage[%tid] : memref<128xf32, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}

// -----

// Two K-loops in one kernel, each checked on its own: the first copies both
// 64x16xf32 tiles (4096 bytes each), the second only A.
//   loop 1: 8192 + 8192 = 16384, 17408 allocated -> 5; registers 4.
//   loop 2: 8192 + 4096 = 12288, 13312 allocated -> 7; registers 4.
// sm_90, 4 stages: 8192 + 3 * 8192 = 32768 and 8192 + 3 * 4096 = 20480.
// SM90: remark: shared-memory budget ok: 32768 bytes with 4 stages, within the sm_90 cliff of 115712 bytes for 2 blocks/SM (blocks/SM 4 -> 4, limited by registers){{$}}
// SM90: remark: shared-memory budget ok: 20480 bytes with 4 stages, within the sm_90 cliff of 115712 bytes for 2 blocks/SM (blocks/SM 4 -> 4, limited by registers){{$}}

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
      // expected-remark @below {{shared-memory budget ok: 16384 bytes with 2 stages, within the sm_86 cliff of 50176 bytes for 2 blocks/SM (blocks/SM 4 -> 4, limited by registers)}}
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
      // expected-remark @below {{shared-memory budget ok: 12288 bytes with 2 stages, within the sm_86 cliff of 50176 bytes for 2 blocks/SM (blocks/SM 4 -> 4, limited by registers)}}
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

// A loop with barriers that does not match (the trailing barrier is not the
// last operation) gets no remark from this pass (pk-analyze-kloops explains
// the mismatch), and neither does a loop without barriers.
// SM90-NOT: pk-check-smem-budget.mlir:[[# @LINE + 14]]:{{[0-9]+}}: {{error|remark}}
// SM90-NOT: pk-check-smem-budget.mlir:[[# @LINE + 23]]:{{[0-9]+}}: {{error|remark}}

module attributes {gpu.container_module} {
  gpu.module @mismatch {
    gpu.func @k(%A: memref<128x256xf32>, %C: memref<128x4xf32>)
        workgroup(%sA: memref<128x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        scf.yield %d : vector<4xf32>
      }
      scf.for %j = %c0 to %c4 step %c1 {
        vector.store %r, %C[%tid, %c0] : memref<128x4xf32>, vector<4xf32>
      }
      gpu.return
    }
  }
}
