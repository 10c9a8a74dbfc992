// MUTANT (pk-written, not upstream code): the single-stage TMA K-loop of
// kloop_tma_wgmma_ivparity.mlir with an FMA compute phase instead of the wgmma
// (the compute of test/upstream/tma/src/sgemm_f32_tma_rewrite_copy_kloop.mlir:
// thread t accumulates row t, 4 columns, from sA/sB) and tiles of f32 with no
// swizzle: A box 128x16, B box 16x128, one mbarrier, parity t % 2 computed from
// k, a trailing gpu.barrier.
!mbarT = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!tmA = !nvgpu.tensormap.descriptor<tensor = memref<128x16xf32, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
!tmB = !nvgpu.tensormap.descriptor<tensor = memref<16x128xf32, 3>, swizzle = none, l2promo = none, oob = zero, interleave = none>
module attributes {gpu.container_module} {
  gpu.module @kloop_tma_fma {
    gpu.func @kloop_tma_fma(%tmaA: !tmA, %tmaB: !tmB, %C: memref<512x512xf32>)
        workgroup(%sA : memref<128x16xf32, #gpu.address_space<workgroup>> {llvm.align = 128 : i64},
                  %sB : memref<16x128xf32, #gpu.address_space<workgroup>> {llvm.align = 128 : i64})
        kernel attributes {known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 4, 4, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %c512 = arith.constant 512 : index
      %txcount = arith.constant 16384 : index
      %ticks = arith.constant 10000000 : index
      %false = arith.constant false
      %true = arith.constant true
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %tidx = gpu.thread_id x
      %by = gpu.block_id y
      %bm = arith.muli %by, %c128 : index
      %bx = gpu.block_id x
      %bn = arith.muli %bx, %c128 : index
      %lane = arith.remui %tidx, %c32 : index
      %col = arith.muli %lane, %c4 : index
      %primary = arith.cmpi eq, %tidx, %c0 : index
      %mbar = nvgpu.mbarrier.create -> !mbarT
      nvgpu.mbarrier.init %mbar[%c0], %c1, predicate = %primary : !mbarT
      gpu.barrier
      %res = scf.for %k = %c0 to %c512 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %txcount, predicate = %primary : !mbarT
        nvgpu.tma.async.load %tmaA[%k, %bm], %mbar[%c0] to %sA, predicate = %primary : !tmA, !mbarT -> memref<128x16xf32, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmaB[%bn, %k], %mbar[%c0] to %sB, predicate = %primary : !tmB, !mbarT -> memref<16x128xf32, #gpu.address_space<workgroup>>
        %kt = arith.divui %k, %c16 : index
        %kt2 = arith.remui %kt, %c2 : index
        %parity = arith.index_cast %kt2 : index to i1
        nvgpu.mbarrier.try_wait.parity %mbar[%c0], %parity, %ticks : !mbarT
        %next = scf.for %kk = %c0 to %c16 step %c1 iter_args(%a = %acc) -> (vector<4xf32>) {
          %av = memref.load %sA[%tidx, %kk] : memref<128x16xf32, #gpu.address_space<workgroup>>
          %bv = vector.load %sB[%kk, %col] : memref<16x128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
          %ab = vector.broadcast %av : f32 to vector<4xf32>
          %f = vector.fma %ab, %bv, %a : vector<4xf32>
          scf.yield %f : vector<4xf32>
        }
        gpu.barrier
        scf.yield %next : vector<4xf32>
      }
      %row = arith.addi %bm, %tidx : index
      %ccol = arith.addi %bn, %col : index
      vector.store %res, %C[%row, %ccol] : memref<512x512xf32>, vector<4xf32>
      gpu.return
    }
  }
}
