// semcheck input (hand-written): the TMA + mbarrier wgmma kernel of
//   python3 examples/gen_gemm.py --kind hgemm --mma wgmma --copy tma --M 256 --N 256 --K 512 --BM 128 --BN 128 --BK 64
// pipelined into the form pk's tma variant emits, with N = 3 stages, refill
// distance D = N - 1 = 2 and wgmma waitGroup 0 (8 tiles: a prologue issuing
// tiles 0 and 1, a steady-state loop of 6 iterations, an epilogue of 2 computes):
//   - one mbarrier per stage (num_barriers = 3), each initialised with an
//     arrival count of 1 by thread 0;
//   - tile t lives in stage t % 3 and completes on mbarrier t % 3, phase t / 3;
//   - iteration t: thread 0 expects 32768 bytes on mbarrier (t+2) % 3 and
//     issues the TMA loads of tile t+2 into stage (t+2) % 3; every thread waits
//     on mbarrier t % 3 with parity (t / 3) % 2, computes on stage t % 3 and
//     meets the gpu.barrier (every wgmma of tile t retired before stage t % 3
//     is refilled, in iteration t+1).
// test/fuzz/semcheck.test checks it is ok, and that its mutants are flagged.
module attributes {gpu.container_module} {
  gpu.module @hgemm_wgmma_tma_f16_128x128x64 {
    gpu.func @hgemm_wgmma_tma_f16_128x128x64(%A: memref<256x512xf16>, %B: memref<512x256xf16>, %C: memref<256x256xf32> {llvm.noalias}, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
        workgroup(%sA : memref<3x128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sB : memref<3x2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
        kernel attributes {nvvm.minctasm = 1 : i32, known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 2, 2, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c384 = arith.constant 384 : index
      %c448 = arith.constant 448 : index
      %c32768 = arith.constant 32768 : index
      %c10000000 = arith.constant 10000000 : index
      %false = arith.constant false
      %tid = gpu.thread_id x
      %by = gpu.block_id y
      %bm = arith.muli %by, %c128 : index
      %bx = gpu.block_id x
      %bn = arith.muli %bx, %c128 : index
      %gb_col1 = arith.addi %bn, %c64 : index
      %tmA = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %tmB = builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %t0 = arith.cmpi eq, %tid, %c0 : index
      %mbar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
      scf.if %t0 {
        nvgpu.mbarrier.init %mbar[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
        nvgpu.mbarrier.init %mbar[%c1], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
        nvgpu.mbarrier.init %mbar[%c2], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      }
      gpu.barrier
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      // prologue: tile 0 into stage 0 on mbarrier 0
      nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
      %pA0 = memref.subview %sA[0, 0, 0] [1, 128, 64] [1, 1, 1] : memref<3x128x64xf16, #gpu.address_space<workgroup>> to memref<128x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
      %pB00 = memref.subview %sB[0, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : memref<3x2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
      %pB01 = memref.subview %sB[0, 1, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : memref<3x2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmA[%c0, %bm], %mbar[%c0] to %pA0, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3> -> memref<128x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmB[%bn, %c0], %mbar[%c0] to %pB00, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3> -> memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmB[%gb_col1, %c0], %mbar[%c0] to %pB01, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3> -> memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      // prologue: tile 1 into stage 1 on mbarrier 1
      nvgpu.mbarrier.arrive.expect_tx %mbar[%c1], %c32768, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
      %pA1 = memref.subview %sA[1, 0, 0] [1, 128, 64] [1, 1, 1] : memref<3x128x64xf16, #gpu.address_space<workgroup>> to memref<128x64xf16, strided<[64, 1], offset: 8192>, #gpu.address_space<workgroup>>
      %pB10 = memref.subview %sB[1, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : memref<3x2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 8192>, #gpu.address_space<workgroup>>
      %pB11 = memref.subview %sB[1, 1, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : memref<3x2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 12288>, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmA[%c64, %bm], %mbar[%c1] to %pA1, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3> -> memref<128x64xf16, strided<[64, 1], offset: 8192>, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmB[%bn, %c64], %mbar[%c1] to %pB10, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3> -> memref<64x64xf16, strided<[64, 1], offset: 8192>, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmB[%gb_col1, %c64], %mbar[%c1] to %pB11, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3> -> memref<64x64xf16, strided<[64, 1], offset: 12288>, #gpu.address_space<workgroup>>
      // steady state: tiles 0 .. 5 computed, tiles 2 .. 7 issued
      %res = scf.for %k = %c0 to %c384 step %c64 iter_args(%acc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
        // issue tile t+2 into stage (t+2) % 3 on mbarrier (t+2) % 3
        %kn = arith.addi %k, %c128 : index
        %tn = arith.divui %kn, %c64 : index
        %sn = arith.remui %tn, %c3 : index
        nvgpu.mbarrier.arrive.expect_tx %mbar[%sn], %c32768, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
        %nA = memref.subview %sA[%sn, 0, 0] [1, 128, 64] [1, 1, 1] : memref<3x128x64xf16, #gpu.address_space<workgroup>> to memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
        %nB0 = memref.subview %sB[%sn, 0, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : memref<3x2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
        %nB1 = memref.subview %sB[%sn, 1, 0, 0] [1, 1, 64, 64] [1, 1, 1, 1] : memref<3x2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmA[%kn, %bm], %mbar[%sn] to %nA, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3> -> memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%bn, %kn], %mbar[%sn] to %nB0, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%gb_col1, %kn], %mbar[%sn] to %nB1, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
        // wait for tile t: mbarrier t % 3, parity (t / 3) % 2
        %t = arith.divui %k, %c64 : index
        %s = arith.remui %t, %c3 : index
        %ph = arith.divui %t, %c3 : index
        %ph2 = arith.remui %ph, %c2 : index
        %par = arith.index_cast %ph2 : index to i1
        nvgpu.mbarrier.try_wait.parity %mbar[%s], %par, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
        %cA = memref.subview %sA[%s, 0, 0] [1, 128, 64] [1, 1, 1] : memref<3x128x64xf16, #gpu.address_space<workgroup>> to memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
        %cB = memref.subview %sB[%s, 0, 0, 0] [1, 2, 64, 64] [1, 1, 1, 1] : memref<3x2x64x64xf16, #gpu.address_space<workgroup>> to memref<2x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
        %dA = nvgpu.warpgroup.generate.descriptor %cA, %tmA : memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
        %dB = nvgpu.warpgroup.generate.descriptor %cB, %tmB : memref<2x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
        %acc_next = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
        gpu.barrier
        scf.yield %acc_next : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      }
      // epilogue: tile 6 (stage 0, mbarrier 0, phase 2: parity 0)
      nvgpu.mbarrier.try_wait.parity %mbar[%c0], %false, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
      %eA0 = memref.subview %sA[0, 0, 0] [1, 128, 64] [1, 1, 1] : memref<3x128x64xf16, #gpu.address_space<workgroup>> to memref<128x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
      %eB0 = memref.subview %sB[0, 0, 0, 0] [1, 2, 64, 64] [1, 1, 1, 1] : memref<3x2x64x64xf16, #gpu.address_space<workgroup>> to memref<2x64x64xf16, strided<[4096, 64, 1]>, #gpu.address_space<workgroup>>
      %eA0d = nvgpu.warpgroup.generate.descriptor %eA0, %tmA : memref<128x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
      %eB0d = nvgpu.warpgroup.generate.descriptor %eB0, %tmB : memref<2x64x64xf16, strided<[4096, 64, 1]>, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
      %acc6 = nvgpu.warpgroup.mma %eA0d, %eB0d, %res {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      // epilogue: tile 7 (stage 1, mbarrier 1, phase 2: parity 0)
      nvgpu.mbarrier.try_wait.parity %mbar[%c1], %false, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
      %eA1 = memref.subview %sA[1, 0, 0] [1, 128, 64] [1, 1, 1] : memref<3x128x64xf16, #gpu.address_space<workgroup>> to memref<128x64xf16, strided<[64, 1], offset: 8192>, #gpu.address_space<workgroup>>
      %eB1 = memref.subview %sB[1, 0, 0, 0] [1, 2, 64, 64] [1, 1, 1, 1] : memref<3x2x64x64xf16, #gpu.address_space<workgroup>> to memref<2x64x64xf16, strided<[4096, 64, 1], offset: 8192>, #gpu.address_space<workgroup>>
      %eA1d = nvgpu.warpgroup.generate.descriptor %eA1, %tmA : memref<128x64xf16, strided<[64, 1], offset: 8192>, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
      %eB1d = nvgpu.warpgroup.generate.descriptor %eB1, %tmB : memref<2x64x64xf16, strided<[4096, 64, 1], offset: 8192>, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
      %acc7 = nvgpu.warpgroup.mma %eA1d, %eB1d, %acc6 {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      %C_blk = memref.subview %C[%bm, %bn] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %acc7, %C_blk : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      gpu.return
    }
  }
}
