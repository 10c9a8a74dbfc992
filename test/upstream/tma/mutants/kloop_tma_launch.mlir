// MUTANT (pk-written, not upstream code) of kloop_tma_dynsmem.mlir in the
// form upstream's sm90 tests are written: a host func.func that creates the
// tensor maps with nvgpu.tma.create.descriptor (box 128x64 and 64x64, 128B
// swizzle) and a gpu.launch with dynamic_shared_memory_size whose body is the
// single-stage TMA K-loop (tiles in gpu.dynamic_shared_memory views). pk-opt's
// pipeline-kernel outlines it first (the descriptors become
// !nvgpu.tensormap.descriptor kernel arguments); the individual passes name
// the gpu.launch.
!mbarT = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tmA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
func.func @kloop_tma_launch(%A: memref<512x512xf16>, %B: memref<512x512xf16>, %C: memref<512x512xf32>) {
  %hc1 = arith.constant 1 : index
  %hc4 = arith.constant 4 : index
  %hc64 = arith.constant 64 : index
  %hc128 = arith.constant 128 : index
  %shmemSize = arith.constant 32768 : i32
  %castA = memref.cast %A : memref<512x512xf16> to memref<*xf16>
  %castB = memref.cast %B : memref<512x512xf16> to memref<*xf16>
  %descA = nvgpu.tma.create.descriptor %castA box[%hc128, %hc64] : memref<*xf16> -> !tmA
  %descB = nvgpu.tma.create.descriptor %castB box[%hc64, %hc64] : memref<*xf16> -> !tmB
  gpu.launch blocks(%bx0, %by0, %bz0) in (%gx = %hc4, %gy = %hc4, %gz = %hc1)
             threads(%tx0, %ty0, %tz0) in (%sx = %hc128, %sy = %hc1, %sz = %hc1)
             dynamic_shared_memory_size %shmemSize {
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
    %primary = arith.cmpi eq, %tidx, %c0 : index
    %c16384 = arith.constant 16384 : index
    %dynsmem = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %sA = memref.view %dynsmem[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<128x64xf16, #gpu.address_space<workgroup>>
    %sB = memref.view %dynsmem[%c16384][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64x64xf16, #gpu.address_space<workgroup>>
    %mbar = nvgpu.mbarrier.create -> !mbarT
    nvgpu.mbarrier.init %mbar[%c0], %c1, predicate = %primary : !mbarT
    gpu.barrier
    nvgpu.tma.prefetch.descriptor %descA, predicate = %primary : !tmA
    nvgpu.tma.prefetch.descriptor %descB, predicate = %primary : !tmB
    %sB0 = memref.subview %sB[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
    %sB1 = memref.subview %sB[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
    %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
    %res = scf.for %k = %c0 to %c512 step %c64 iter_args(%acc = %acc0) -> (!acc) {
      nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %txcount, predicate = %primary : !mbarT
      nvgpu.tma.async.load %descA[%k, %dimX], %mbar[%c0] to %sA, predicate = %primary : !tmA, !mbarT -> memref<128x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %descB[%dimY, %k], %mbar[%c0] to %sB0, predicate = %primary : !tmB, !mbarT -> memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %descB[%dimY2, %k], %mbar[%c0] to %sB1, predicate = %primary : !tmB, !mbarT -> memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      %kt = arith.divui %k, %c64 : index
      %kt2 = arith.remui %kt, %c2 : index
      %parity = arith.index_cast %kt2 : index to i1
      nvgpu.mbarrier.try_wait.parity %mbar[%c0], %parity, %ticks : !mbarT
      %dA = nvgpu.warpgroup.generate.descriptor %sA, %descA : memref<128x64xf16, #gpu.address_space<workgroup>>, !tmA -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
      %dB = nvgpu.warpgroup.generate.descriptor %sB, %descB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !tmB -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
      %md = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !acc -> !acc
      gpu.barrier
      scf.yield %md : !acc
    }
    %Cblk = memref.subview %C[%dimX, %dimY] [128, 128] [1, 1] : memref<512x512xf32> to memref<128x128xf32, strided<[512, 1], offset: ?>>
    nvgpu.warpgroup.mma.store %res, %Cblk : !acc to memref<128x128xf32, strided<[512, 1], offset: ?>>
    gpu.terminator
  }
  return
}
