// MODEL + MUTANT (pk-written, not upstream code) of the K-loop of upstream's
// mlir/test/Integration/GPU/CUDA/sm90/gemm_f32_f16_f16_128x128x128.mlir and
// gemm_pred_f32_f16_f16_128x128x128.mlir, outlined: the GEMM is double-
// buffered by hand. Before the loop thread 0 arms mbarriers 0 and 1 of a
// 2-barrier group and issues the TMA loads of both K tiles (K = 128) into
// stages 0 and 1 of the dynamic shared memory; the loop (2 iterations) only
// waits, try_wait.parity on mbarrier %i with the constant parity 0, and runs
// the wgmma on subviews [%i] of the 2-stage views. Two kernels:
//   @ring2         the loop as upstream writes it (no gpu.barrier);
//   @ring2_barrier MUTANT: a trailing gpu.barrier (and waitGroup = 0), so the
//                  loop is a K-loop candidate.
// pk must decline both: the loop rotates its buffers itself.
!mbarT = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
!tmA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
!smem = memref<?xi8, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @ring2 {
    gpu.func @ring2(%tmaA: !tmA, %tmaB: !tmB, %D: memref<128x128xf32>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c16384 = arith.constant 16384 : index
      %c32768 = arith.constant 32768 : index
      %c40960 = arith.constant 40960 : index
      %c49152 = arith.constant 49152 : index
      %c57344 = arith.constant 57344 : index
      %txcount = arith.constant 32768 : index
      %ticks = arith.constant 10000000 : index
      %phase0 = arith.constant 0 : i1
      %tidx = gpu.thread_id x
      %dynsmem = gpu.dynamic_shared_memory : !smem
      %lhs = memref.view %dynsmem[%c0][] : !smem to memref<2x128x64xf16, #gpu.address_space<workgroup>>
      %rhs = memref.view %dynsmem[%c32768][] : !smem to memref<2x64x128xf16, #gpu.address_space<workgroup>>
      %mbar = nvgpu.mbarrier.create -> !mbarT
      %cnd = arith.cmpi eq, %tidx, %c0 : index
      nvgpu.mbarrier.init %mbar[%c0], %c1, predicate = %cnd : !mbarT
      nvgpu.mbarrier.init %mbar[%c1], %c1, predicate = %cnd : !mbarT
      nvgpu.tma.prefetch.descriptor %tmaA, predicate = %cnd : !tmA
      nvgpu.tma.prefetch.descriptor %tmaB, predicate = %cnd : !tmB
      %a0 = memref.view %dynsmem[%c0][] : !smem to memref<128x64xf16, #gpu.address_space<workgroup>>
      %b00 = memref.view %dynsmem[%c32768][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
      %b01 = memref.view %dynsmem[%c40960][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
      nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %txcount, predicate = %cnd : !mbarT
      nvgpu.tma.async.load %tmaA[%c0, %c0], %mbar[%c0] to %a0, predicate = %cnd : !tmA, !mbarT -> memref<128x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmaB[%c0, %c0], %mbar[%c0] to %b00, predicate = %cnd : !tmB, !mbarT -> memref<64x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmaB[%c64, %c0], %mbar[%c0] to %b01, predicate = %cnd : !tmB, !mbarT -> memref<64x64xf16, #gpu.address_space<workgroup>>
      %a1 = memref.view %dynsmem[%c16384][] : !smem to memref<128x64xf16, #gpu.address_space<workgroup>>
      %b10 = memref.view %dynsmem[%c49152][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
      %b11 = memref.view %dynsmem[%c57344][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
      nvgpu.mbarrier.arrive.expect_tx %mbar[%c1], %txcount, predicate = %cnd : !mbarT
      nvgpu.tma.async.load %tmaA[%c64, %c0], %mbar[%c1] to %a1, predicate = %cnd : !tmA, !mbarT -> memref<128x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmaB[%c0, %c64], %mbar[%c1] to %b10, predicate = %cnd : !tmB, !mbarT -> memref<64x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmaB[%c64, %c64], %mbar[%c1] to %b11, predicate = %cnd : !tmB, !mbarT -> memref<64x64xf16, #gpu.address_space<workgroup>>
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %res = scf.for %i = %c0 to %c2 step %c1 iter_args(%mc = %acc0) -> (!acc) {
        nvgpu.mbarrier.try_wait.parity %mbar[%i], %phase0, %ticks : !mbarT
        %lhsSlice = memref.subview %lhs[%i, 0, 0] [1, 128, 64] [1, 1, 1] : memref<2x128x64xf16, #gpu.address_space<workgroup>> to memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
        %rhsSlice = memref.subview %rhs[%i, 0, 0] [1, 64, 128] [1, 1, 1] : memref<2x64x128xf16, #gpu.address_space<workgroup>> to memref<64x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
        %dA = nvgpu.warpgroup.generate.descriptor %lhsSlice, %tmaA : memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>, !tmA -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
        %dB = nvgpu.warpgroup.generate.descriptor %rhsSlice, %tmaB : memref<64x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>, !tmB -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
        %md = nvgpu.warpgroup.mma %dA, %dB, %mc {transposeB} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !acc -> !acc
        scf.yield %md : !acc
      }
      nvvm.wgmma.wait.group.sync.aligned 0
      nvgpu.warpgroup.mma.store %res, %D : !acc to memref<128x128xf32>
      gpu.return
    }
  }
  gpu.module @ring2_barrier {
    gpu.func @ring2_barrier(%tmaA: !tmA, %tmaB: !tmB, %D: memref<128x128xf32>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 1, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c16384 = arith.constant 16384 : index
      %c32768 = arith.constant 32768 : index
      %c40960 = arith.constant 40960 : index
      %c49152 = arith.constant 49152 : index
      %c57344 = arith.constant 57344 : index
      %txcount = arith.constant 32768 : index
      %ticks = arith.constant 10000000 : index
      %phase0 = arith.constant 0 : i1
      %tidx = gpu.thread_id x
      %dynsmem = gpu.dynamic_shared_memory : !smem
      %lhs = memref.view %dynsmem[%c0][] : !smem to memref<2x128x64xf16, #gpu.address_space<workgroup>>
      %rhs = memref.view %dynsmem[%c32768][] : !smem to memref<2x64x128xf16, #gpu.address_space<workgroup>>
      %mbar = nvgpu.mbarrier.create -> !mbarT
      %cnd = arith.cmpi eq, %tidx, %c0 : index
      nvgpu.mbarrier.init %mbar[%c0], %c1, predicate = %cnd : !mbarT
      nvgpu.mbarrier.init %mbar[%c1], %c1, predicate = %cnd : !mbarT
      nvgpu.tma.prefetch.descriptor %tmaA, predicate = %cnd : !tmA
      nvgpu.tma.prefetch.descriptor %tmaB, predicate = %cnd : !tmB
      %a0 = memref.view %dynsmem[%c0][] : !smem to memref<128x64xf16, #gpu.address_space<workgroup>>
      %b00 = memref.view %dynsmem[%c32768][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
      %b01 = memref.view %dynsmem[%c40960][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
      nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %txcount, predicate = %cnd : !mbarT
      nvgpu.tma.async.load %tmaA[%c0, %c0], %mbar[%c0] to %a0, predicate = %cnd : !tmA, !mbarT -> memref<128x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmaB[%c0, %c0], %mbar[%c0] to %b00, predicate = %cnd : !tmB, !mbarT -> memref<64x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmaB[%c64, %c0], %mbar[%c0] to %b01, predicate = %cnd : !tmB, !mbarT -> memref<64x64xf16, #gpu.address_space<workgroup>>
      %a1 = memref.view %dynsmem[%c16384][] : !smem to memref<128x64xf16, #gpu.address_space<workgroup>>
      %b10 = memref.view %dynsmem[%c49152][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
      %b11 = memref.view %dynsmem[%c57344][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
      nvgpu.mbarrier.arrive.expect_tx %mbar[%c1], %txcount, predicate = %cnd : !mbarT
      nvgpu.tma.async.load %tmaA[%c64, %c0], %mbar[%c1] to %a1, predicate = %cnd : !tmA, !mbarT -> memref<128x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmaB[%c0, %c64], %mbar[%c1] to %b10, predicate = %cnd : !tmB, !mbarT -> memref<64x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmaB[%c64, %c64], %mbar[%c1] to %b11, predicate = %cnd : !tmB, !mbarT -> memref<64x64xf16, #gpu.address_space<workgroup>>
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %res = scf.for %i = %c0 to %c2 step %c1 iter_args(%mc = %acc0) -> (!acc) {
        nvgpu.mbarrier.try_wait.parity %mbar[%i], %phase0, %ticks : !mbarT
        %lhsSlice = memref.subview %lhs[%i, 0, 0] [1, 128, 64] [1, 1, 1] : memref<2x128x64xf16, #gpu.address_space<workgroup>> to memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
        %rhsSlice = memref.subview %rhs[%i, 0, 0] [1, 64, 128] [1, 1, 1] : memref<2x64x128xf16, #gpu.address_space<workgroup>> to memref<64x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
        %dA = nvgpu.warpgroup.generate.descriptor %lhsSlice, %tmaA : memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>, !tmA -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
        %dB = nvgpu.warpgroup.generate.descriptor %rhsSlice, %tmaB : memref<64x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>, !tmB -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
        %md = nvgpu.warpgroup.mma %dA, %dB, %mc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !acc -> !acc
        gpu.barrier
        scf.yield %md : !acc
      }
      nvvm.wgmma.wait.group.sync.aligned 0
      nvgpu.warpgroup.mma.store %res, %D : !acc to memref<128x128xf32>
      gpu.return
    }
  }
}
