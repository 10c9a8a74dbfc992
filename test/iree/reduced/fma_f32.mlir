// fma-f32: an f32 K-loop in the control's form (64x16 and 16x64 f32 tiles,
// 256 threads, 16-byte copies), whose compute is the multiply-add IREE's f32
// kernels lower vector.contract to: arith.mulf feeding arith.addf. pk
// pipelines it; the PTX of pk's lowering keeps mul.rn.f32 + add.rn.f32 (no
// fma.rn.f32: the .rn forms forbid ptxas' contraction), where IREE's own
// PTX for the same dispatch has FFMA. pk's lowering should contract
// (arith fastmath<contract>, or fma formation) so f32 kernels do not lose
// half their issue rate.
module attributes {gpu.container_module} {
  gpu.module @reduced {
    gpu.func @fma_f32(%A: memref<1024x1024xf32> {llvm.align = 64 : i64},
                      %B: memref<1024x1024xf32> {llvm.align = 64 : i64},
                      %C: memref<1024x1024xf32> {llvm.align = 64 : i64})
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c16 = arith.constant 16 : index
      %c1024 = arith.constant 1024 : index
      %pad = ub.poison : f32
      %init = arith.constant dense<0.0> : vector<4xf32>
      %sA = memref.alloc() : memref<64x20xf32, #gpu.address_space<workgroup>>
      %sB = memref.alloc() : memref<16x68xf32, #gpu.address_space<workgroup>>
      %tid = gpu.thread_id x upper_bound 256
      %bx = gpu.block_id x upper_bound 16
      %by = gpu.block_id y upper_bound 16
      // A tile 64x16: thread t copies row t/4, columns (t%4)*4 .. +4.
      %arow = arith.divui %tid, %c4 : index
      %arem = arith.remui %tid, %c4 : index
      %acol = arith.muli %arem, %c4 : index
      %am = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%by)[%arow]
      // B tile 16x64: thread t copies row t/16, columns (t%16)*4 .. +4.
      %brow = arith.divui %tid, %c16 : index
      %brem = arith.remui %tid, %c16 : index
      %bcol = arith.muli %brem, %c4 : index
      %bn = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%bx)[%bcol]
      %res = scf.for %k = %c0 to %c1024 step %c16 iter_args(%acc = %init) -> (vector<4xf32>) {
        %ak = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%k)[%acol]
        %a = vector.load %A[%am, %ak] : memref<1024x1024xf32>, vector<4xf32>
        vector.store %a, %sA[%arow, %acol] : memref<64x20xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %bk = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%k)[%brow]
        %b = vector.load %B[%bk, %bn] : memref<1024x1024xf32>, vector<4xf32>
        vector.store %b, %sB[%brow, %bcol] : memref<16x68xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %sum = scf.for %kk = %c0 to %c16 step %c1 iter_args(%x = %acc) -> (vector<4xf32>) {
          %av = memref.load %sA[%brow, %kk] : memref<64x20xf32, #gpu.address_space<workgroup>>
          %bv = vector.load %sB[%kk, %bcol] : memref<16x68xf32, #gpu.address_space<workgroup>>, vector<4xf32>
          %as = vector.broadcast %av : f32 to vector<4xf32>
          %p = arith.mulf %as, %bv : vector<4xf32>
          %y = arith.addf %x, %p : vector<4xf32>
          scf.yield %y : vector<4xf32>
        }
        gpu.barrier
        scf.yield %sum : vector<4xf32>
      }
      %cm = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%by)[%brow]
      vector.store %res, %C[%cm, %bn] : memref<1024x1024xf32>, vector<4xf32>
      gpu.return
    }
  }
}
