// RUN: pk-opt %s -split-input-file -verify-diagnostics --pk-pipeline-kloops='arch=sm_90a variant=tma schedule=warp-specialized stages=2 min-blocks-per-sm=1' -o /dev/null
// schedule=warp-specialized declines (docs/hopper.md "Warp specialization"),
// from gen_gemm.py --copy tma (M=N=K=256) with one mutation each; every
// remark is expected at its loop. More: pk-pipeline-kloops-invalid.mlir WS-*.
// The A tile's row comes from the issuing thread's id: the producer's thread
// (tid 128) would load another tile.
module attributes {gpu.container_module} {
  gpu.module @hgemm_wgmma_tma_f16_128x128x64 {
    gpu.func @hgemm_wgmma_tma_f16_128x128x64(%A: memref<256x256xf16>, %B: memref<256x256xf16>, %C: memref<256x256xf32> {llvm.noalias}, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
        workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
        kernel attributes {nvvm.minctasm = 2 : i32, known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 2, 2, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c32768 = arith.constant 32768 : index
      %c10000000 = arith.constant 10000000 : index
      // expected-note @below {{the thread's position is read here}}
      %tid = gpu.thread_id x
      %by = gpu.block_id y
      %bm = arith.muli %by, %c128 : index
      %bx = gpu.block_id x
      %bn = arith.muli %bx, %c128 : index
      %tmA = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %tmB = builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %t0 = arith.cmpi eq, %tid, %c0 : index
      %mbar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      // one mbarrier, arrival count 1 (thread 0's arrive.expect_tx), initialised once
      scf.if %t0 {
        nvgpu.mbarrier.init %mbar[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        // the initialised mbarrier -> the async proxy (TMA's complete_tx)
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      }
      gpu.barrier
      %sB_0 = memref.subview %sB[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
      %sB_1 = memref.subview %sB[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      %gb_col1 = arith.addi %bn, %c64 : index
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      // expected-note @below {{in this K-loop}}
      %res = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
        // a. thread 0: expect 32768 bytes, TMA the A tile and the 2 B slabs (coordinates innermost first)
        nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        %bmt = arith.addi %bm, %tid : index
        // expected-remark @below {{not pipelined: schedule=warp-specialized gives the TMA loads to one producer thread; the operands of this op depend on the thread's position, which the producer's thread does not share}}
        nvgpu.tma.async.load %tmA[%k, %bmt], %mbar[%c0] to %sA, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<128x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%bn, %k], %mbar[%c0] to %sB_0, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%gb_col1, %k], %mbar[%c0] to %sB_1, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
        // b. every thread waits for phase t = k / 64 of the mbarrier (parity t % 2)
        %kt = arith.divui %k, %c64 : index
        %kt2 = arith.remui %kt, %c2 : index
        %par = arith.index_cast %kt2 : index to i1
        nvgpu.mbarrier.try_wait.parity %mbar[%c0], %par, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        // c. compute phase: TMA wrote through the async proxy, as wgmma reads: no proxy fence
        %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmA : memref<128x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
        %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
        %acc_next = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
        // d. every wgmma of this tile retired before the next TMA overwrites the tiles
        gpu.barrier
        scf.yield %acc_next : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
      %C_blk = memref.subview %C[%bm, %bn] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %res, %C_blk : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      gpu.return
    }
  }
}
// -----
// A CTA barrier under a condition before the loop (always true for the
// kernel's 128 threads, false for the producer's).
module attributes {gpu.container_module} {
  gpu.module @hgemm_wgmma_tma_f16_128x128x64 {
    gpu.func @hgemm_wgmma_tma_f16_128x128x64(%A: memref<256x256xf16>, %B: memref<256x256xf16>, %C: memref<256x256xf32> {llvm.noalias}, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
        workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
        kernel attributes {nvvm.minctasm = 2 : i32, known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 2, 2, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c32768 = arith.constant 32768 : index
      %c10000000 = arith.constant 10000000 : index
      %tid = gpu.thread_id x
      %by = gpu.block_id y
      %bm = arith.muli %by, %c128 : index
      %bx = gpu.block_id x
      %bn = arith.muli %bx, %c128 : index
      %tmA = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %tmB = builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %t0 = arith.cmpi eq, %tid, %c0 : index
      %mbar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      // one mbarrier, arrival count 1 (thread 0's arrive.expect_tx), initialised once
      scf.if %t0 {
        nvgpu.mbarrier.init %mbar[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        // the initialised mbarrier -> the async proxy (TMA's complete_tx)
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      }
      %cb = arith.cmpi ult, %tid, %c128 : index
      // expected-remark @below {{not pipelined: schedule=warp-specialized runs the code before the K-loop on the producer warpgroup too; this op writes memory or synchronizes under a condition}}
      scf.if %cb {
        gpu.barrier
      }
      %sB_0 = memref.subview %sB[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
      %sB_1 = memref.subview %sB[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      %gb_col1 = arith.addi %bn, %c64 : index
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      // expected-note @below {{in this K-loop}}
      %res = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
        // a. thread 0: expect 32768 bytes, TMA the A tile and the 2 B slabs (coordinates innermost first)
        nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmA[%k, %bm], %mbar[%c0] to %sA, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<128x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%bn, %k], %mbar[%c0] to %sB_0, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%gb_col1, %k], %mbar[%c0] to %sB_1, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
        // b. every thread waits for phase t = k / 64 of the mbarrier (parity t % 2)
        %kt = arith.divui %k, %c64 : index
        %kt2 = arith.remui %kt, %c2 : index
        %par = arith.index_cast %kt2 : index to i1
        nvgpu.mbarrier.try_wait.parity %mbar[%c0], %par, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        // c. compute phase: TMA wrote through the async proxy, as wgmma reads: no proxy fence
        %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmA : memref<128x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
        %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
        %acc_next = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
        // d. every wgmma of this tile retired before the next TMA overwrites the tiles
        gpu.barrier
        scf.yield %acc_next : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
      %C_blk = memref.subview %C[%bm, %bn] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %res, %C_blk : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      gpu.return
    }
  }
}
// -----
// gpu.global_id x (block id x block size + thread id) would change meaning
// in the grown block.
module attributes {gpu.container_module} {
  gpu.module @hgemm_wgmma_tma_f16_128x128x64 {
    gpu.func @hgemm_wgmma_tma_f16_128x128x64(%A: memref<256x256xf16>, %B: memref<256x256xf16>, %C: memref<256x256xf32> {llvm.noalias}, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
        workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
        kernel attributes {nvvm.reqntid = array<i32: 128, 1, 1>, nvvm.minctasm = 2 : i32, known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 2, 2, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c32768 = arith.constant 32768 : index
      %c10000000 = arith.constant 10000000 : index
      %tid = gpu.thread_id x
      // expected-remark @below {{not pipelined: schedule=warp-specialized grows the block and uses named barrier 1; this 'gpu.global_id' would change meaning}}
      %gid = gpu.global_id x
      %by = gpu.block_id y
      %bm = arith.muli %by, %c128 : index
      %bx = gpu.block_id x
      %bn = arith.muli %bx, %c128 : index
      %tmA = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %tmB = builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %t0 = arith.cmpi eq, %tid, %c0 : index
      %mbar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      // one mbarrier, arrival count 1 (thread 0's arrive.expect_tx), initialised once
      scf.if %t0 {
        nvgpu.mbarrier.init %mbar[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        // the initialised mbarrier -> the async proxy (TMA's complete_tx)
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      }
      gpu.barrier
      %sB_0 = memref.subview %sB[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
      %sB_1 = memref.subview %sB[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      %gb_col1 = arith.addi %bn, %c64 : index
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      // expected-note @below {{in this K-loop}}
      %res = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
        // a. thread 0: expect 32768 bytes, TMA the A tile and the 2 B slabs (coordinates innermost first)
        nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmA[%k, %bm], %mbar[%c0] to %sA, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<128x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%bn, %k], %mbar[%c0] to %sB_0, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%gb_col1, %k], %mbar[%c0] to %sB_1, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
        // b. every thread waits for phase t = k / 64 of the mbarrier (parity t % 2)
        %kt = arith.divui %k, %c64 : index
        %kt2 = arith.remui %kt, %c2 : index
        %par = arith.index_cast %kt2 : index to i1
        nvgpu.mbarrier.try_wait.parity %mbar[%c0], %par, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        // c. compute phase: TMA wrote through the async proxy, as wgmma reads: no proxy fence
        %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmA : memref<128x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
        %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
        %acc_next = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
        // d. every wgmma of this tile retired before the next TMA overwrites the tiles
        gpu.barrier
        scf.yield %acc_next : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
      %C_blk = memref.subview %C[%bm, %bn] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %res, %C_blk : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @hgemm_wgmma_tma_f16_128x128x64 {
    gpu.func @hgemm_wgmma_tma_f16_128x128x64(%A: memref<256x256xf16>, %B: memref<256x256xf16>, %C: memref<256x256xf32> {llvm.noalias}, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
        workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
        kernel attributes {nvvm.minctasm = 2 : i32, known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 2, 2, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c32768 = arith.constant 32768 : index
      %c10000000 = arith.constant 10000000 : index
      // expected-note @below {{the thread's position is read here}}
      %tid = gpu.thread_id x
      %by = gpu.block_id y
      %bm = arith.muli %by, %c128 : index
      %bx = gpu.block_id x
      %bn = arith.muli %bx, %c128 : index
      %tmA = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %tmB = builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %t0 = arith.cmpi eq, %tid, %c0 : index
      %mbar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      // one mbarrier, arrival count 1 (thread 0's arrive.expect_tx), initialised once
      scf.if %t0 {
        nvgpu.mbarrier.init %mbar[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        // the initialised mbarrier -> the async proxy (TMA's complete_tx)
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      }
      gpu.barrier
      %sB_0 = memref.subview %sB[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
      %sB_1 = memref.subview %sB[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      %gb_col1 = arith.addi %bn, %c64 : index
      // The row comes out of an scf.if on the thread id (issue 26: values
      // through region results were taken as thread-independent).
      %low = arith.cmpi ult, %tid, %c64 : index
      %bmt = scf.if %low -> (index) {
        %up = arith.addi %bm, %c64 : index
        scf.yield %up : index
      } else {
        scf.yield %bm : index
      }
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      // expected-note @below {{in this K-loop}}
      %res = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
        // a. thread 0: expect 32768 bytes, TMA the A tile and the 2 B slabs (coordinates innermost first)
        nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        // expected-remark @below {{not pipelined: schedule=warp-specialized gives the TMA loads to one producer thread; the operands of this op depend on the thread's position, which the producer's thread does not share}}
        nvgpu.tma.async.load %tmA[%k, %bmt], %mbar[%c0] to %sA, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<128x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%bn, %k], %mbar[%c0] to %sB_0, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%gb_col1, %k], %mbar[%c0] to %sB_1, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
        // b. every thread waits for phase t = k / 64 of the mbarrier (parity t % 2)
        %kt = arith.divui %k, %c64 : index
        %kt2 = arith.remui %kt, %c2 : index
        %par = arith.index_cast %kt2 : index to i1
        nvgpu.mbarrier.try_wait.parity %mbar[%c0], %par, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        // c. compute phase: TMA wrote through the async proxy, as wgmma reads: no proxy fence
        %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmA : memref<128x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
        %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
        %acc_next = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
        // d. every wgmma of this tile retired before the next TMA overwrites the tiles
        gpu.barrier
        scf.yield %acc_next : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
      %C_blk = memref.subview %C[%bm, %bn] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %res, %C_blk : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @hgemm_wgmma_tma_f16_128x128x64 {
    gpu.func @hgemm_wgmma_tma_f16_128x128x64(%A: memref<256x256xf16>, %B: memref<256x256xf16>, %C: memref<256x256xf32> {llvm.noalias}, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
        workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
        kernel attributes {nvvm.minctasm = 2 : i32, known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 2, 2, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c32768 = arith.constant 32768 : index
      %c10000000 = arith.constant 10000000 : index
      // expected-note @below {{the thread's position is read here}}
      %tid = gpu.thread_id x
      %by = gpu.block_id y
      %bm = arith.muli %by, %c128 : index
      %bx = gpu.block_id x
      %bn = arith.muli %bx, %c128 : index
      %tmA = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %tmB = builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %t0 = arith.cmpi eq, %tid, %c0 : index
      %mbar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      // one mbarrier, arrival count 1 (thread 0's arrive.expect_tx), initialised once
      scf.if %t0 {
        nvgpu.mbarrier.init %mbar[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        // the initialised mbarrier -> the async proxy (TMA's complete_tx)
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      }
      gpu.barrier
      %sB_0 = memref.subview %sB[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
      %sB_1 = memref.subview %sB[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      %gb_col1 = arith.addi %bn, %c64 : index
      // The row is carried by an inner scf.for from the thread id.
      %bmt = scf.for %i = %c0 to %c1 step %c1 iter_args(%row = %tid) -> (index) {
        %next = arith.addi %row, %bm : index
        scf.yield %next : index
      }
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      // expected-note @below {{in this K-loop}}
      %res = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
        // a. thread 0: expect 32768 bytes, TMA the A tile and the 2 B slabs (coordinates innermost first)
        nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        // expected-remark @below {{not pipelined: schedule=warp-specialized gives the TMA loads to one producer thread; the operands of this op depend on the thread's position, which the producer's thread does not share}}
        nvgpu.tma.async.load %tmA[%k, %bmt], %mbar[%c0] to %sA, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<128x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%bn, %k], %mbar[%c0] to %sB_0, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%gb_col1, %k], %mbar[%c0] to %sB_1, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
        // b. every thread waits for phase t = k / 64 of the mbarrier (parity t % 2)
        %kt = arith.divui %k, %c64 : index
        %kt2 = arith.remui %kt, %c2 : index
        %par = arith.index_cast %kt2 : index to i1
        nvgpu.mbarrier.try_wait.parity %mbar[%c0], %par, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        // c. compute phase: TMA wrote through the async proxy, as wgmma reads: no proxy fence
        %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmA : memref<128x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
        %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
        %acc_next = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
        // d. every wgmma of this tile retired before the next TMA overwrites the tiles
        gpu.barrier
        scf.yield %acc_next : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
      %C_blk = memref.subview %C[%bm, %bn] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %res, %C_blk : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      gpu.return
    }
  }
}
