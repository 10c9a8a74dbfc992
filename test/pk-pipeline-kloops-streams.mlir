// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops=arch=sm_90 --canonicalize --cse 2>/dev/null | FileCheck %s
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops=arch=sm_90 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Compute phases that stream global memory (docs/input-contract.md): reads
// of memory nothing in the loop writes, at any address (a GEMV's matrix
// rows, read once each, need no staging), stay in the compute phase; the
// next tile's copies of x move ahead of them.
// CHECK-LABEL: gpu.func @gemv_stream
// CHECK:       scf.for
// CHECK:         nvgpu.device_async_copy %arg1
// CHECK:         vector.load %arg0[%{{.*}}, %arg4]
// CHECK:       } {pk.pipelined}
// REMARK:      remark: pipelined: variant cp-async, 2 shared buffer(s)
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @gemv_stream(%A: memref<128x4096xf32>, %x: memref<4096xf32>, %y: memref<128x4xf32>)
        workgroup(%sx: memref<512xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c512 = arith.constant 512 : index
      %c4096 = arith.constant 4096 : index
      %tid = gpu.thread_id x
      %t4 = arith.muli %tid, %c4 : index
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %r = scf.for %k = %c0 to %c4096 step %c512 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %gk = arith.addi %k, %t4 : index
        %v = vector.load %x[%gk] : memref<4096xf32>, vector<4xf32>
        vector.store %v, %sx[%t4] : memref<512xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %xs = vector.load %sx[%t4] : memref<512xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %a = vector.load %A[%tid, %k] : memref<128x4096xf32>, vector<4xf32>
        %d = vector.fma %a, %xs, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      vector.store %r, %y[%tid, %c0] : memref<128x4xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// -----

// A vertical 3-point stencil: each K-tile of 32 rows is staged with its two
// halo rows (guarded loads), and the compute phase writes its output rows at
// addresses that move with the loop, to a kernel argument marked
// llvm.noalias: pk proves those stores cannot reach what the next tiles'
// copies read, and pipelines the loop (no iter_args: the stores are its
// results).
// CHECK-LABEL: gpu.func @stencil_rows
// CHECK:       scf.for
// CHECK:         nvgpu.device_async_copy %arg0
// CHECK:         vector.store %{{.*}}, %arg1[
// CHECK:       } {pk.pipelined}
// REMARK:      remark: pipelined: variant cp-async, 2 shared buffer(s)
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @stencil_rows(%in: memref<256x32xf32>, %out: memref<256x32xf32> {llvm.noalias})
        workgroup(%s: memref<34x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 272, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %zeros = arith.constant dense<0.0> : vector<4xf32>
      %tid = gpu.thread_id x
      %lrow = arith.divui %tid, %c8 : index
      %q = arith.remui %tid, %c8 : index
      %col = arith.muli %q, %c4 : index
      scf.for %k = %c0 to %c256 step %c32 {
        // Rows k-1 .. k+32 of the input into rows 0 .. 33 of the tile.
        %g = arith.addi %k, %lrow : index
        %src = arith.subi %g, %c1 : index
        %ge = arith.cmpi sge, %src, %c0 : index
        %lt = arith.cmpi slt, %src, %c256 : index
        %ok = arith.andi %ge, %lt : i1
        %v = scf.if %ok -> (vector<4xf32>) {
          %l = vector.load %in[%src, %col] : memref<256x32xf32>, vector<4xf32>
          scf.yield %l : vector<4xf32>
        } else {
          scf.yield %zeros : vector<4xf32>
        }
        vector.store %v, %s[%lrow, %col] : memref<34x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        // Output row k + r, r < 32, from tile rows r, r+1, r+2.
        %r = arith.remui %lrow, %c32 : index
        %r1 = arith.addi %r, %c1 : index
        %r2 = arith.addi %r, %c2 : index
        %a = vector.load %s[%r, %col] : memref<34x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %b = vector.load %s[%r1, %col] : memref<34x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %c = vector.load %s[%r2, %col] : memref<34x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %ab = arith.addf %a, %b : vector<4xf32>
        %abc = arith.addf %ab, %c : vector<4xf32>
        %orow = arith.addi %k, %r : index
        vector.store %abc, %out[%orow, %col] : memref<256x32xf32>, vector<4xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

// The same without llvm.noalias: the stores may reach the input the next
// tiles' copies read; declined at the store, with a note at the copy.
// CHECK-LABEL: gpu.func @stencil_may_alias
// CHECK-NOT:   pk.pipelined
// REMARK:      remark: not pipelined: not a pk K-loop: compute phase writes kernel argument #1 at addresses that move with the K-loop, and the load phase reads kernel argument #0: pk cannot prove they do not overlap (the next tiles' loads move ahead of this store); mark one of the two kernel arguments llvm.noalias
// REMARK:      note: the load of the load phase
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @stencil_may_alias(%in: memref<256x32xf32>, %out: memref<256x32xf32>)
        workgroup(%s: memref<32x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %lrow = arith.divui %tid, %c8 : index
      %q = arith.remui %tid, %c8 : index
      %col = arith.muli %q, %c4 : index
      scf.for %k = %c0 to %c256 step %c32 {
        %g = arith.addi %k, %lrow : index
        %l = vector.load %in[%g, %col] : memref<256x32xf32>, vector<4xf32>
        vector.store %l, %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %a = vector.load %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %aa = arith.addf %a, %a : vector<4xf32>
        vector.store %aa, %out[%g, %col] : memref<256x32xf32>, vector<4xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

// Reading back what the loop writes at moving addresses is declined.
// CHECK-LABEL: gpu.func @reads_its_stream
// CHECK-NOT:   pk.pipelined
// REMARK:      remark: not pipelined: not a pk K-loop: compute phase reads global memory it also writes at addresses that move with the K-loop (kernel argument #1): only accumulators at fixed addresses may be read back
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @reads_its_stream(%in: memref<256x32xf32>, %out: memref<256x32xf32> {llvm.noalias})
        workgroup(%s: memref<32x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %lrow = arith.divui %tid, %c8 : index
      %q = arith.remui %tid, %c8 : index
      %col = arith.muli %q, %c4 : index
      scf.for %k = %c0 to %c256 step %c32 {
        %g = arith.addi %k, %lrow : index
        %l = vector.load %in[%g, %col] : memref<256x32xf32>, vector<4xf32>
        vector.store %l, %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %a = vector.load %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %o = vector.load %out[%g, %col] : memref<256x32xf32>, vector<4xf32>
        %ao = arith.addf %a, %o : vector<4xf32>
        vector.store %ao, %out[%g, %col] : memref<256x32xf32>, vector<4xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

// A TMA loop whose compute phase writes at moving addresses: a TMA load
// reads through a tensor map pk cannot relate to the written argument
// (this crashed: no memref to name). (From a review.) Were the written
// argument llvm.noalias, nothing else, the tensor map's address included,
// would reach its memory, and pk would pipeline it (a persistent kernel's
// tile epilogue, test/e2e/pipeline-kernel-persistent.test).
// CHECK-LABEL: gpu.func @tma_moving_store
// CHECK-NOT:   pk.pipelined
// REMARK:      remark: not pipelined: not a pk K-loop: compute phase writes kernel argument #3 at addresses that move with the K-loop, and the load phase reads the memory a TMA load reads through its tensor map: pk cannot prove they do not overlap
!mbarT = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tmA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
module attributes {gpu.container_module} {
  gpu.module @kloop_tma_elect {
    gpu.func @tma_moving_store(%tmaA: !tmA, %tmaB: !tmB, %C: memref<512x512xf32>, %D: memref<512x512xf32>)
        workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64},
                  %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
        kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 4, 4, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c512 = arith.constant 512 : index
      %txcount = arith.constant 32768 : index
      %ticks = arith.constant 10000000 : index
      %false = arith.constant false
      %true = arith.constant true
      %tidx = gpu.thread_id x
      %by = gpu.block_id y
      %dimX = arith.muli %by, %c128 : index
      %bx = gpu.block_id x
      %dimY = arith.muli %bx, %c128 : index
      %dimY2 = arith.addi %dimY, %c64 : index
      %mask = arith.constant -1 : i32
      %i0 = arith.constant 0 : i32
      %i4 = arith.constant 4 : i32
      %i32 = arith.constant 32 : i32
      %c32 = arith.constant 32 : index
      %lanePredicate = nvvm.elect.sync -> i1
      %warpIdx = arith.divui %tidx, %c32 : index
      %warpIdxi32 = index.casts %warpIdx : index to i32
      %canonical = nvvm.shfl.sync idx %i32, %warpIdxi32, %i0, %mask : i32 -> i32
      %inGroup = arith.remui %canonical, %i4 : i32
      %warp0 = arith.cmpi eq, %inGroup, %i0 : i32
      %primary = arith.andi %warp0, %lanePredicate : i1
      %mbar = nvgpu.mbarrier.create -> !mbarT
      nvgpu.mbarrier.init %mbar[%c0], %c1, predicate = %primary : !mbarT
      gpu.barrier
      nvgpu.tma.prefetch.descriptor %tmaA, predicate = %primary : !tmA
      nvgpu.tma.prefetch.descriptor %tmaB, predicate = %primary : !tmB
      %sB0 = memref.subview %sB[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
      %sB1 = memref.subview %sB[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %res = scf.for %k = %c0 to %c512 step %c64 iter_args(%acc = %acc0) -> (!acc) {
        nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %txcount, predicate = %primary : !mbarT
        nvgpu.tma.async.load %tmaA[%k, %dimX], %mbar[%c0] to %sA, predicate = %primary : !tmA, !mbarT -> memref<128x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmaB[%dimY, %k], %mbar[%c0] to %sB0, predicate = %primary : !tmB, !mbarT -> memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmaB[%dimY2, %k], %mbar[%c0] to %sB1, predicate = %primary : !tmB, !mbarT -> memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
        %kt = arith.divui %k, %c64 : index
        %kt2 = arith.remui %kt, %c2 : index
        %parity = arith.index_cast %kt2 : index to i1
        nvgpu.mbarrier.try_wait.parity %mbar[%c0], %parity, %ticks : !mbarT
        %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmaA : memref<128x64xf16, #gpu.address_space<workgroup>>, !tmA -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
        %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmaB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !tmB -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
        %md = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !acc -> !acc
        %one = arith.constant 1.0 : f32
        memref.store %one, %D[%k, %tidx] : memref<512x512xf32>
        gpu.barrier
        scf.yield %md : !acc
      }
      %Cblk = memref.subview %C[%dimX, %dimY] [128, 128] [1, 1] : memref<512x512xf32> to memref<128x128xf32, strided<[512, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %res, %Cblk : !acc to memref<128x128xf32, strided<[512, 1], offset: ?>>
      gpu.return
    }
  }
}

// -----

// A read-modify-write at a fixed address of the memref.global the load
// phase reads, through a second memref.get_global of it: the same memory
// (compared by symbol; this was pipelined). (From a review.)
// CHECK-LABEL: gpu.func @get_global_same_memory
// CHECK-NOT:   pk.pipelined
// REMARK:      remark: not pipelined: not a pk K-loop: load phase reads the memory the compute phase writes: the next tiles' loads cannot move ahead of the compute
module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" @g : memref<256x32xf32>
    gpu.func @get_global_same_memory(%x: memref<256x32xf32>, %out: memref<256x32xf32> {llvm.noalias})
        workgroup(%s: memref<32x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c40 = arith.constant 40 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %lrow = arith.divui %tid, %c8 : index
      %q = arith.remui %tid, %c8 : index
      %col = arith.muli %q, %c4 : index
      %in = memref.get_global @g : memref<256x32xf32>
      %w = memref.get_global @g : memref<256x32xf32>
      scf.for %k = %c0 to %c256 step %c32  {
        %g = arith.addi %k, %lrow : index
        %l = vector.load %in[%g, %col] : memref<256x32xf32>, vector<4xf32>
        vector.store %l, %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %a = vector.load %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %aa = arith.addf %a, %a : vector<4xf32>
        %o = vector.load %w[%c40, %col] : memref<256x32xf32>, vector<4xf32>
        %n = arith.addf %o, %aa : vector<4xf32>
        vector.store %n, %w[%c40, %col] : memref<256x32xf32>, vector<4xf32>
        gpu.barrier
        
      }
      gpu.return
    }
  }
}

// -----

// A fixed-address read-modify-write through a select of the input and the
// output: it may be the input (this was pipelined). (From a review.)
// CHECK-LABEL: gpu.func @select_may_be_input
// CHECK-NOT:   pk.pipelined
// REMARK:      remark: not pipelined: not a pk K-loop: load phase reads the memory the compute phase writes: the next tiles' loads cannot move ahead of the compute
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @select_may_be_input(%in: memref<256x32xf32>, %out: memref<256x32xf32> {llvm.noalias}, %p: i1)
        workgroup(%s: memref<32x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c40 = arith.constant 40 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %lrow = arith.divui %tid, %c8 : index
      %q = arith.remui %tid, %c8 : index
      %col = arith.muli %q, %c4 : index
      %w = arith.select %p, %in, %out : memref<256x32xf32>
      scf.for %k = %c0 to %c256 step %c32  {
        %g = arith.addi %k, %lrow : index
        %l = vector.load %in[%g, %col] : memref<256x32xf32>, vector<4xf32>
        vector.store %l, %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %a = vector.load %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %aa = arith.addf %a, %a : vector<4xf32>
        %o = vector.load %w[%c40, %col] : memref<256x32xf32>, vector<4xf32>
        %n = arith.addf %o, %aa : vector<4xf32>
        vector.store %n, %w[%c40, %col] : memref<256x32xf32>, vector<4xf32>
        gpu.barrier
        
      }
      gpu.return
    }
  }
}

// -----

// An output row carried in an iter_arg (advanced every iteration) moves with
// the loop although it does not use the induction variable: a stream, which
// needs llvm.noalias (this was taken as a fixed accumulator). (From a review.)
// CHECK-LABEL: gpu.func @iterarg_address
// CHECK-NOT:   pk.pipelined
// REMARK:      remark: not pipelined: not a pk K-loop: compute phase writes kernel argument #1 at addresses that move with the K-loop, and the load phase reads kernel argument #0: pk cannot prove they do not overlap
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @iterarg_address(%in: memref<256x32xf32>, %out: memref<256x32xf32>)
        workgroup(%s: memref<32x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c40 = arith.constant 40 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %lrow = arith.divui %tid, %c8 : index
      %q = arith.remui %tid, %c8 : index
      %col = arith.muli %q, %c4 : index

      %res = scf.for %k = %c0 to %c256 step %c32 iter_args(%row = %c0) -> (index) {
        %g = arith.addi %k, %lrow : index
        %l = vector.load %in[%g, %col] : memref<256x32xf32>, vector<4xf32>
        vector.store %l, %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %a = vector.load %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %aa = arith.addf %a, %a : vector<4xf32>
        %orow = arith.addi %row, %lrow : index
        vector.store %aa, %out[%orow, %col] : memref<256x32xf32>, vector<4xf32>
        %nrow = arith.addi %row, %c32 : index
        gpu.barrier
        scf.yield %nrow : index
      }
      gpu.return
    }
  }
}

// -----

// An output row reached through a memref.reinterpret_cast whose offset moves
// with the loop (this was taken as a fixed accumulator). (From a review.)
// CHECK-LABEL: gpu.func @reinterpret_offset
// CHECK-NOT:   pk.pipelined
// REMARK:      remark: not pipelined: not a pk K-loop: compute phase writes kernel argument #1 at addresses that move with the K-loop, and the load phase reads kernel argument #0: pk cannot prove they do not overlap
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @reinterpret_offset(%in: memref<256x32xf32>, %out: memref<256x32xf32>)
        workgroup(%s: memref<32x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c40 = arith.constant 40 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %lrow = arith.divui %tid, %c8 : index
      %q = arith.remui %tid, %c8 : index
      %col = arith.muli %q, %c4 : index

      scf.for %k = %c0 to %c256 step %c32  {
        %g = arith.addi %k, %lrow : index
        %l = vector.load %in[%g, %col] : memref<256x32xf32>, vector<4xf32>
        vector.store %l, %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %a = vector.load %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %aa = arith.addf %a, %a : vector<4xf32>
        %off = arith.muli %k, %c32 : index
        %w = memref.reinterpret_cast %out to offset: [%off], sizes: [32, 32], strides: [32, 1] : memref<256x32xf32> to memref<32x32xf32, strided<[32, 1], offset: ?>>
        vector.store %aa, %w[%lrow, %col] : memref<32x32xf32, strided<[32, 1], offset: ?>>, vector<4xf32>
        gpu.barrier
        
      }
      gpu.return
    }
  }
}

// -----

// An output row reached through a memref.view whose byte shift moves with
// the loop (this was taken as a fixed accumulator). (From a review.)
// CHECK-LABEL: gpu.func @view_shift
// CHECK-NOT:   pk.pipelined
// REMARK:      remark: not pipelined: not a pk K-loop: compute phase writes kernel argument #1 at addresses that move with the K-loop, and the load phase reads kernel argument #0: pk cannot prove they do not overlap
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @view_shift(%in: memref<256x32xf32>, %buf: memref<65536xi8>)
        workgroup(%s: memref<32x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c40 = arith.constant 40 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %lrow = arith.divui %tid, %c8 : index
      %q = arith.remui %tid, %c8 : index
      %col = arith.muli %q, %c4 : index

      scf.for %k = %c0 to %c256 step %c32  {
        %g = arith.addi %k, %lrow : index
        %l = vector.load %in[%g, %col] : memref<256x32xf32>, vector<4xf32>
        vector.store %l, %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %a = vector.load %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %aa = arith.addf %a, %a : vector<4xf32>
        %sh = arith.muli %k, %c256 : index
        %w = memref.view %buf[%sh][] : memref<65536xi8> to memref<32x32xf32>
        vector.store %aa, %w[%lrow, %col] : memref<32x32xf32>, vector<4xf32>
        gpu.barrier
        
      }
      gpu.return
    }
  }
}
