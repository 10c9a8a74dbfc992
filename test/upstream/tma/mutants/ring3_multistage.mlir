// MODEL + MUTANT (pk-written, not upstream code) of the kernel upstream's
// mlir/test/Integration/GPU/CUDA/sm90/python/tools/matmulBuilder.py builds
// with generate_matmul_multistage(num_stages = 3) (its Python builder needs
// MLIR's Python bindings, which this machine lacks, so its IR is re-written
// here from the builder's steps): a 3-stage mbarrier ring already rotated by
// hand. Prologue: thread 0 loads tiles 0 and 1 into stages 0 and 1. Main
// loop, tile t: try_wait.parity on mbarrier t % 3 with an i1 parity carried
// in iter_args (flipped when t % 3 == 2), the wgmma on the views of stage
// t % 3 of gpu.dynamic_shared_memory, then thread 0 refills stage (t+2) % 3
// with tile t+2 (predicated on t+2 < 8). Two kernels:
//   @ring3         as the builder emits it: no gpu.barrier in the main loop;
//   @ring3_barrier MUTANT: a gpu.barrier after the wgmma (waitGroup = 0
//                  added), so that the loop is a K-loop candidate for pk.
// pk must decline both, never pipeline the ring again.
!mbarT = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
!tmA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
!smem = memref<?xi8, #gpu.address_space<workgroup>>
module attributes {gpu.container_module} {
  gpu.module @ring3 {
    gpu.func @ring3(%tmaA: !tmA, %tmaB: !tmB, %C: memref<512x512xf32>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 4, 4, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c8192 = arith.constant 8192 : index
      %c16384 = arith.constant 16384 : index
      %c49152 = arith.constant 49152 : index
      %txcount = arith.constant 32768 : index
      %ticks = arith.constant 10000000 : index
      %false = arith.constant false
      %true = arith.constant true
      %dynsmem = gpu.dynamic_shared_memory : !smem
      %tidx = gpu.thread_id x
      %primary = arith.cmpi eq, %tidx, %c0 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %dimX = arith.muli %bx, %c128 : index
      %dimY = arith.muli %by, %c128 : index
      %dimY2 = arith.addi %dimY, %c64 : index
      %mbar = nvgpu.mbarrier.create -> !mbarT
      nvgpu.mbarrier.init %mbar[%c0], %c1, predicate = %primary : !mbarT
      nvgpu.mbarrier.init %mbar[%c1], %c1, predicate = %primary : !mbarT
      nvgpu.mbarrier.init %mbar[%c2], %c1, predicate = %primary : !mbarT
      gpu.barrier
      nvgpu.tma.prefetch.descriptor %tmaA, predicate = %primary : !tmA
      nvgpu.tma.prefetch.descriptor %tmaB, predicate = %primary : !tmB
      scf.for %s = %c0 to %c2 step %c1 {
        %aoff = arith.muli %s, %c16384 : index
        %sA = memref.view %dynsmem[%aoff][] : !smem to memref<128x64xf16, #gpu.address_space<workgroup>>
        %boff0 = arith.addi %aoff, %c49152 : index
        %sB0 = memref.view %dynsmem[%boff0][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
        %boff1 = arith.addi %boff0, %c8192 : index
        %sB1 = memref.view %dynsmem[%boff1][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
        %coord = arith.muli %s, %c64 : index
        nvgpu.tma.async.load %tmaA[%coord, %dimX], %mbar[%s] to %sA, predicate = %primary : !tmA, !mbarT -> memref<128x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmaB[%dimY, %coord], %mbar[%s] to %sB0, predicate = %primary : !tmB, !mbarT -> memref<64x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmaB[%dimY2, %coord], %mbar[%s] to %sB1, predicate = %primary : !tmB, !mbarT -> memref<64x64xf16, #gpu.address_space<workgroup>>
        nvgpu.mbarrier.arrive.expect_tx %mbar[%s], %txcount, predicate = %primary : !mbarT
      }
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %res:2 = scf.for %t = %c0 to %c8 step %c1 iter_args(%acc = %acc0, %phase = %false) -> (!acc, i1) {
        %stage = arith.remui %t, %c3 : index
        nvgpu.mbarrier.try_wait.parity %mbar[%stage], %phase, %ticks : !mbarT
        %aoff = arith.muli %stage, %c16384 : index
        %tA = memref.view %dynsmem[%aoff][] : !smem to memref<128x64xf16, #gpu.address_space<workgroup>>
        %boff = arith.addi %aoff, %c49152 : index
        %tB = memref.view %dynsmem[%boff][] : !smem to memref<64x128xf16, #gpu.address_space<workgroup>>
        %dA = nvgpu.warpgroup.generate.descriptor %tA, %tmaA : memref<128x64xf16, #gpu.address_space<workgroup>>, !tmA -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, #gpu.address_space<workgroup>>>
        %dB = nvgpu.warpgroup.generate.descriptor %tB, %tmaB : memref<64x128xf16, #gpu.address_space<workgroup>>, !tmB -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, #gpu.address_space<workgroup>>>
        %md = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, #gpu.address_space<workgroup>>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, #gpu.address_space<workgroup>>>, !acc -> !acc
        %next = arith.addi %t, %c2 : index
        %inb = arith.cmpi ult, %next, %c8 : index
        %p = arith.andi %primary, %inb : i1
        %nslot = arith.remui %next, %c3 : index
        %naoff = arith.muli %nslot, %c16384 : index
        nvgpu.mbarrier.arrive.expect_tx %mbar[%nslot], %txcount, predicate = %p : !mbarT
        %nA = memref.view %dynsmem[%naoff][] : !smem to memref<128x64xf16, #gpu.address_space<workgroup>>
        %nboff0 = arith.addi %naoff, %c49152 : index
        %nB0 = memref.view %dynsmem[%nboff0][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
        %nboff1 = arith.addi %nboff0, %c8192 : index
        %nB1 = memref.view %dynsmem[%nboff1][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
        %coord = arith.muli %next, %c64 : index
        nvgpu.tma.async.load %tmaA[%coord, %dimX], %mbar[%nslot] to %nA, predicate = %p : !tmA, !mbarT -> memref<128x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmaB[%dimY, %coord], %mbar[%nslot] to %nB0, predicate = %p : !tmB, !mbarT -> memref<64x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmaB[%dimY2, %coord], %mbar[%nslot] to %nB1, predicate = %p : !tmB, !mbarT -> memref<64x64xf16, #gpu.address_space<workgroup>>
        %last = arith.cmpi eq, %stage, %c2 : index
        %flipped = arith.xori %phase, %true : i1
        %nphase = arith.select %last, %flipped, %phase : i1
        scf.yield %md, %nphase : !acc, i1
      }
      nvvm.wgmma.wait.group.sync.aligned 0
      %Cblk = memref.subview %C[%dimX, %dimY] [128, 128] [1, 1] : memref<512x512xf32> to memref<128x128xf32, strided<[512, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %res#0, %Cblk : !acc to memref<128x128xf32, strided<[512, 1], offset: ?>>
      gpu.return
    }
  }
  gpu.module @ring3_barrier {
    gpu.func @ring3_barrier(%tmaA: !tmA, %tmaB: !tmB, %C: memref<512x512xf32>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 4, 4, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c8 = arith.constant 8 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c8192 = arith.constant 8192 : index
      %c16384 = arith.constant 16384 : index
      %c49152 = arith.constant 49152 : index
      %txcount = arith.constant 32768 : index
      %ticks = arith.constant 10000000 : index
      %false = arith.constant false
      %true = arith.constant true
      %dynsmem = gpu.dynamic_shared_memory : !smem
      %tidx = gpu.thread_id x
      %primary = arith.cmpi eq, %tidx, %c0 : index
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %dimX = arith.muli %bx, %c128 : index
      %dimY = arith.muli %by, %c128 : index
      %dimY2 = arith.addi %dimY, %c64 : index
      %mbar = nvgpu.mbarrier.create -> !mbarT
      nvgpu.mbarrier.init %mbar[%c0], %c1, predicate = %primary : !mbarT
      nvgpu.mbarrier.init %mbar[%c1], %c1, predicate = %primary : !mbarT
      nvgpu.mbarrier.init %mbar[%c2], %c1, predicate = %primary : !mbarT
      gpu.barrier
      nvgpu.tma.prefetch.descriptor %tmaA, predicate = %primary : !tmA
      nvgpu.tma.prefetch.descriptor %tmaB, predicate = %primary : !tmB
      scf.for %s = %c0 to %c2 step %c1 {
        %aoff = arith.muli %s, %c16384 : index
        %sA = memref.view %dynsmem[%aoff][] : !smem to memref<128x64xf16, #gpu.address_space<workgroup>>
        %boff0 = arith.addi %aoff, %c49152 : index
        %sB0 = memref.view %dynsmem[%boff0][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
        %boff1 = arith.addi %boff0, %c8192 : index
        %sB1 = memref.view %dynsmem[%boff1][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
        %coord = arith.muli %s, %c64 : index
        nvgpu.tma.async.load %tmaA[%coord, %dimX], %mbar[%s] to %sA, predicate = %primary : !tmA, !mbarT -> memref<128x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmaB[%dimY, %coord], %mbar[%s] to %sB0, predicate = %primary : !tmB, !mbarT -> memref<64x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmaB[%dimY2, %coord], %mbar[%s] to %sB1, predicate = %primary : !tmB, !mbarT -> memref<64x64xf16, #gpu.address_space<workgroup>>
        nvgpu.mbarrier.arrive.expect_tx %mbar[%s], %txcount, predicate = %primary : !mbarT
      }
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %res:2 = scf.for %t = %c0 to %c8 step %c1 iter_args(%acc = %acc0, %phase = %false) -> (!acc, i1) {
        %stage = arith.remui %t, %c3 : index
        nvgpu.mbarrier.try_wait.parity %mbar[%stage], %phase, %ticks : !mbarT
        %aoff = arith.muli %stage, %c16384 : index
        %tA = memref.view %dynsmem[%aoff][] : !smem to memref<128x64xf16, #gpu.address_space<workgroup>>
        %boff = arith.addi %aoff, %c49152 : index
        %tB = memref.view %dynsmem[%boff][] : !smem to memref<64x128xf16, #gpu.address_space<workgroup>>
        %dA = nvgpu.warpgroup.generate.descriptor %tA, %tmaA : memref<128x64xf16, #gpu.address_space<workgroup>>, !tmA -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, #gpu.address_space<workgroup>>>
        %dB = nvgpu.warpgroup.generate.descriptor %tB, %tmaB : memref<64x128xf16, #gpu.address_space<workgroup>>, !tmB -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, #gpu.address_space<workgroup>>>
        %md = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, #gpu.address_space<workgroup>>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, #gpu.address_space<workgroup>>>, !acc -> !acc
        gpu.barrier
        %next = arith.addi %t, %c2 : index
        %inb = arith.cmpi ult, %next, %c8 : index
        %p = arith.andi %primary, %inb : i1
        %nslot = arith.remui %next, %c3 : index
        %naoff = arith.muli %nslot, %c16384 : index
        nvgpu.mbarrier.arrive.expect_tx %mbar[%nslot], %txcount, predicate = %p : !mbarT
        %nA = memref.view %dynsmem[%naoff][] : !smem to memref<128x64xf16, #gpu.address_space<workgroup>>
        %nboff0 = arith.addi %naoff, %c49152 : index
        %nB0 = memref.view %dynsmem[%nboff0][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
        %nboff1 = arith.addi %nboff0, %c8192 : index
        %nB1 = memref.view %dynsmem[%nboff1][] : !smem to memref<64x64xf16, #gpu.address_space<workgroup>>
        %coord = arith.muli %next, %c64 : index
        nvgpu.tma.async.load %tmaA[%coord, %dimX], %mbar[%nslot] to %nA, predicate = %p : !tmA, !mbarT -> memref<128x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmaB[%dimY, %coord], %mbar[%nslot] to %nB0, predicate = %p : !tmB, !mbarT -> memref<64x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmaB[%dimY2, %coord], %mbar[%nslot] to %nB1, predicate = %p : !tmB, !mbarT -> memref<64x64xf16, #gpu.address_space<workgroup>>
        %last = arith.cmpi eq, %stage, %c2 : index
        %flipped = arith.xori %phase, %true : i1
        %nphase = arith.select %last, %flipped, %phase : i1
        scf.yield %md, %nphase : !acc, i1
      }
      nvvm.wgmma.wait.group.sync.aligned 0
      %Cblk = memref.subview %C[%dimX, %dimY] [128, 128] [1, 1] : memref<512x512xf32> to memref<128x128xf32, strided<[512, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %res#0, %Cblk : !acc to memref<128x128xf32, strided<[512, 1], offset: ?>>
      gpu.return
    }
  }
}
