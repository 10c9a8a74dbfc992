// MODEL (pk-written, not upstream code) of the kernel upstream's
// mlir/test/Integration/GPU/CUDA/sm90/python/tools/matmulBuilder.py builds
// with generate_matmul_multistage(num_stages = 1) (re-written from the
// builder's steps; its Python needs MLIR's bindings): one stage, one
// mbarrier. Thread 0 loads tile 0 before the loop; tile t waits on parity
// t % 2 (an i1 iter_arg), runs the wgmma, nvvm.wgmma.wait.group.sync.aligned 0,
// then thread 0 re-arms the mbarrier and loads tile t+1 into the same tiles
// (predicated on t+1 < 8): the loads sit at the END of the body, after the
// compute, and there is no gpu.barrier (the other warps may still read
// tile t when thread 0's TMA overwrites it). Two kernels:
//   @ring1_multistage         as the builder emits it;
//   @ring1_multistage_barrier MUTANT: a gpu.barrier between the wgmma wait and
//                             the refill, so that the loop is a candidate.
!mbarT = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tmA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
module attributes {gpu.container_module} {
  gpu.module @ring1_multistage {
    gpu.func @ring1_multistage(%tmaA: !tmA, %tmaB: !tmB, %C: memref<512x512xf32>)
        workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64},
                  %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
        kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 4, 4, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
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
      %mbar = nvgpu.mbarrier.create -> !mbarT
      nvgpu.mbarrier.init %mbar[%c0], %c1, predicate = %primary : !mbarT
      gpu.barrier
      nvgpu.tma.prefetch.descriptor %tmaA, predicate = %primary : !tmA
      nvgpu.tma.prefetch.descriptor %tmaB, predicate = %primary : !tmB
      %sB0 = memref.subview %sB[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
      %sB1 = memref.subview %sB[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %txcount, predicate = %primary : !mbarT
      nvgpu.tma.async.load %tmaA[%c0, %dimX], %mbar[%c0] to %sA, predicate = %primary : !tmA, !mbarT -> memref<128x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmaB[%dimY, %c0], %mbar[%c0] to %sB0, predicate = %primary : !tmB, !mbarT -> memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmaB[%dimY2, %c0], %mbar[%c0] to %sB1, predicate = %primary : !tmB, !mbarT -> memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %res:2 = scf.for %k = %c0 to %c512 step %c64 iter_args(%acc = %acc0, %phase = %false) -> (!acc, i1) {
        nvgpu.mbarrier.try_wait.parity %mbar[%c0], %phase, %ticks : !mbarT
        %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmaA : memref<128x64xf16, #gpu.address_space<workgroup>>, !tmA -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
        %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmaB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !tmB -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
        %md = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !acc -> !acc
        nvvm.wgmma.wait.group.sync.aligned 0
        %knext = arith.addi %k, %c64 : index
        %inb = arith.cmpi ult, %knext, %c512 : index
        %p = arith.andi %primary, %inb : i1
        nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %txcount, predicate = %p : !mbarT
        nvgpu.tma.async.load %tmaA[%knext, %dimX], %mbar[%c0] to %sA, predicate = %p : !tmA, !mbarT -> memref<128x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmaB[%dimY, %knext], %mbar[%c0] to %sB0, predicate = %p : !tmB, !mbarT -> memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmaB[%dimY2, %knext], %mbar[%c0] to %sB1, predicate = %p : !tmB, !mbarT -> memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
        %flipped = arith.xori %phase, %true : i1
        scf.yield %md, %flipped : !acc, i1
      }
      %Cblk = memref.subview %C[%dimX, %dimY] [128, 128] [1, 1] : memref<512x512xf32> to memref<128x128xf32, strided<[512, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %res#0, %Cblk : !acc to memref<128x128xf32, strided<[512, 1], offset: ?>>
      gpu.return
    }
  }
  gpu.module @ring1_multistage_barrier {
    gpu.func @ring1_multistage_barrier(%tmaA: !tmA, %tmaB: !tmB, %C: memref<512x512xf32>)
        workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64},
                  %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
        kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 4, 4, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
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
      %mbar = nvgpu.mbarrier.create -> !mbarT
      nvgpu.mbarrier.init %mbar[%c0], %c1, predicate = %primary : !mbarT
      gpu.barrier
      nvgpu.tma.prefetch.descriptor %tmaA, predicate = %primary : !tmA
      nvgpu.tma.prefetch.descriptor %tmaB, predicate = %primary : !tmB
      %sB0 = memref.subview %sB[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
      %sB1 = memref.subview %sB[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %txcount, predicate = %primary : !mbarT
      nvgpu.tma.async.load %tmaA[%c0, %dimX], %mbar[%c0] to %sA, predicate = %primary : !tmA, !mbarT -> memref<128x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmaB[%dimY, %c0], %mbar[%c0] to %sB0, predicate = %primary : !tmB, !mbarT -> memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmaB[%dimY2, %c0], %mbar[%c0] to %sB1, predicate = %primary : !tmB, !mbarT -> memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %res:2 = scf.for %k = %c0 to %c512 step %c64 iter_args(%acc = %acc0, %phase = %false) -> (!acc, i1) {
        nvgpu.mbarrier.try_wait.parity %mbar[%c0], %phase, %ticks : !mbarT
        %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmaA : memref<128x64xf16, #gpu.address_space<workgroup>>, !tmA -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
        %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmaB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !tmB -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
        %md = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !acc -> !acc
        nvvm.wgmma.wait.group.sync.aligned 0
        gpu.barrier
        %knext = arith.addi %k, %c64 : index
        %inb = arith.cmpi ult, %knext, %c512 : index
        %p = arith.andi %primary, %inb : i1
        nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %txcount, predicate = %p : !mbarT
        nvgpu.tma.async.load %tmaA[%knext, %dimX], %mbar[%c0] to %sA, predicate = %p : !tmA, !mbarT -> memref<128x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmaB[%dimY, %knext], %mbar[%c0] to %sB0, predicate = %p : !tmB, !mbarT -> memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmaB[%dimY2, %knext], %mbar[%c0] to %sB1, predicate = %p : !tmB, !mbarT -> memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
        %flipped = arith.xori %phase, %true : i1
        scf.yield %md, %flipped : !acc, i1
      }
      %Cblk = memref.subview %C[%dimX, %dimY] [128, 128] [1, 1] : memref<512x512xf32> to memref<128x128xf32, strided<[512, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %res#0, %Cblk : !acc to memref<128x128xf32, strided<[512, 1], offset: ?>>
      gpu.return
    }
  }
}
