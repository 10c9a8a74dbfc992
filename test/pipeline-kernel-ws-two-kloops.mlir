// Two TMA K-loops in one kernel (each with its own tiles and mbarrier),
// schedule=warp-specialized (issue 26): pk warp-specializes the first; the
// code after it, the second loop included, runs on the consumer warpgroups
// only, with named barriers, so the second is declined with a remark at it
// and a note at the first (it was left unpipelined without a word).
// The kernel: examples/hgemm_wgmma_tma_f16_128x128x64.mlir with its K-loop
// repeated on two more workgroup attributions and a second mbarrier.
// RUN: pk-opt %s --pipeline-kernel='arch=sm_90a schedule=warp-specialized' -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// REMARK: ws-two-kloops.mlir:[[L1:[0-9]+]]:{{[0-9]+}}: remark: pipelined: variant tma, 2 shared buffer(s), schedule warp-specialized
// REMARK: ws-two-kloops.mlir:[[L2:[0-9]+]]:{{[0-9]+}}: remark: not pipelined: not a pk K-loop: it follows the warp-specialized K-loop of its kernel: that code runs on the consumer warpgroups only, synchronized by named barriers, and pk pipelines no second K-loop of a warp-specialized kernel
// REMARK-NEXT: %res2 = scf.for
// REMARK: ws-two-kloops.mlir:[[L1]]:{{[0-9]+}}: note: the kernel's warp-specialized K-loop
// IR: gpu.func @hgemm_wgmma_tma_f16_128x128x64
// IR-SAME: pk.warp_specialized
// IR-COUNT-1: pk.pipelined
// IR-NOT: pk.pipelined
module attributes {gpu.container_module} {
  gpu.module @hgemm_wgmma_tma_f16_128x128x64 {
    gpu.func @hgemm_wgmma_tma_f16_128x128x64(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf32> {llvm.noalias}, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
        workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sA2 : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sB2 : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
        kernel attributes {nvvm.minctasm = 2 : i32, known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 32, 32, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c4096 = arith.constant 4096 : index
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
      gpu.barrier
      %sB_0 = memref.subview %sB[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
      %sB_1 = memref.subview %sB[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      %gb_col1 = arith.addi %bn, %c64 : index
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      %res = scf.for %k = %c0 to %c4096 step %c64 iter_args(%acc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
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
      %mbar2 = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      // one mbarrier, arrival count 1 (thread 0's arrive.expect_tx), initialised once
      scf.if %t0 {
        nvgpu.mbarrier.init %mbar2[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        // the initialised mbarrier -> the async proxy (TMA's complete_tx)
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      }
      gpu.barrier
      %sB2_0 = memref.subview %sB2[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
      %sB2_1 = memref.subview %sB2[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      %res2 = scf.for %k = %c0 to %c4096 step %c64 iter_args(%acc = %res) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
        // a. thread 0: expect 32768 bytes, TMA the A tile and the 2 B slabs (coordinates innermost first)
        nvgpu.mbarrier.arrive.expect_tx %mbar2[%c0], %c32768, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmA[%k, %bm], %mbar2[%c0] to %sA2, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<128x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%bn, %k], %mbar2[%c0] to %sB2_0, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%gb_col1, %k], %mbar2[%c0] to %sB2_1, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
        // b. every thread waits for phase t = k / 64 of the mbarrier (parity t % 2)
        %kt = arith.divui %k, %c64 : index
        %kt2 = arith.remui %kt, %c2 : index
        %par = arith.index_cast %kt2 : index to i1
        nvgpu.mbarrier.try_wait.parity %mbar2[%c0], %par, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        // c. compute phase: TMA wrote through the async proxy, as wgmma reads: no proxy fence
        %dA = nvgpu.warpgroup.generate.descriptor %sA2, %tmA : memref<128x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
        %dB = nvgpu.warpgroup.generate.descriptor %sB2, %tmB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
        %acc_next = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
        // d. every wgmma of this tile retired before the next TMA overwrites the tiles
        gpu.barrier
        scf.yield %acc_next : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
      %C_blk = memref.subview %C[%bm, %bn] [128, 128] [1, 1] : memref<4096x4096xf32> to memref<128x128xf32, strided<[4096, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %res2, %C_blk : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> to memref<128x128xf32, strided<[4096, 1], offset: ?>>
      gpu.return
    }
  }
}
