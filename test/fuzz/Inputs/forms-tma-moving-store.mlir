// test/pk-pipeline-kloops-streams.mlir's @tma_moving_store (TMA descriptors as kernel arguments, nvvm.elect.sync and nvvm.shfl.sync for the issuing thread; pk declines it). semcheck-forms.test.
!mbarT = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tmA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
module attributes {gpu.container_module} {
  gpu.module @kloop_tma_elect {
    gpu.func @tma_moving_store(%tmaA: !tmA, %tmaB: !tmB, %C: memref<512x512xf32>, %D: memref<512x512xf32> {llvm.noalias})
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
