// MUTANT of kloop_tma_wgmma_ivparity.mlir (pk-written): arrive.expect_tx
// announces 16384 bytes but the three loads bring 32768 (A 16384 + B 2 x 8192):
// the phase can complete before the B slabs land. A wrong input.
!mbarT = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tmA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
module attributes {gpu.container_module} {
  gpu.module @kloop_tma_tx_mismatch {
    gpu.func @kloop_tma_tx_mismatch(%tmaA: !tmA, %tmaB: !tmB, %C: memref<512x512xf32>)
        workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64},
                  %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
        kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 4, 4, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c512 = arith.constant 512 : index
      %txcount = arith.constant 16384 : index
      %ticks = arith.constant 10000000 : index
      %false = arith.constant false
      %true = arith.constant true
      %tidx = gpu.thread_id x
      %by = gpu.block_id y
      %dimX = arith.muli %by, %c128 : index
      %bx = gpu.block_id x
      %dimY = arith.muli %bx, %c128 : index
      %dimY2 = arith.addi %dimY, %c64 : index
      %primary = arith.cmpi eq, %tidx, %c0 : index
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
        gpu.barrier
        scf.yield %md : !acc
      }
      %Cblk = memref.subview %C[%dimX, %dimY] [128, 128] [1, 1] : memref<512x512xf32> to memref<128x128xf32, strided<[512, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %res, %Cblk : !acc to memref<128x128xf32, strided<[512, 1], offset: ?>>
      gpu.return
    }
  }
}
