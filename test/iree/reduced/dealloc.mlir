// dealloc: the control kernel with IREE's typed workgroup memref.alloc +
// memref.dealloc pair (IREE deallocates every promoted buffer at the end of
// the dispatch; VectorDistribute even deallocates the subview of the
// padded buffer, see matmul_vd). pk-normalize-workgroup-storage must drop
// the deallocs of the buffers it turns into attributions.
module attributes {gpu.container_module} {
  gpu.module @reduced {
    gpu.func @dealloc(%A: memref<1024x1024xf16> {llvm.align = 64 : i64},
                      %B: memref<1024x1024xf16> {llvm.align = 64 : i64},
                      %C: memref<1024x1024xf32> {llvm.align = 64 : i64})
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c1024 = arith.constant 1024 : index
      %pad = ub.poison : f16
      %init = arith.constant dense<0.0> : vector<2x2xf32>
      %sA = memref.alloc() : memref<64x24xf16, #gpu.address_space<workgroup>>
      %sB = memref.alloc() : memref<16x72xf16, #gpu.address_space<workgroup>>
      %tid = gpu.thread_id x upper_bound 128
      %bx = gpu.block_id x upper_bound 16
      %by = gpu.block_id y upper_bound 16
      %lane = gpu.lane_id
      %lrow = arith.remui %lane, %c16 : index
      // A tile 64x16: thread t copies row t/2, columns (t%2)*8 .. +8.
      %arow = arith.divui %tid, %c2 : index
      %arem = arith.remui %tid, %c2 : index
      %acol = arith.muli %arem, %c8 : index
      %am = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%by)[%arow]
      // B tile 16x64: thread t copies row t/8, columns (t%8)*8 .. +8.
      %brow = arith.divui %tid, %c8 : index
      %brem = arith.remui %tid, %c8 : index
      %bcol = arith.muli %brem, %c8 : index
      %bn = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%bx)[%bcol]
      %res = scf.for %k = %c0 to %c1024 step %c16 iter_args(%acc = %init) -> (vector<2x2xf32>) {
        %ak = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%k)[%acol]
        %gA = memref.subview %A[%am, %ak] [1, 8] [1, 1] : memref<1024x1024xf16> to memref<1x8xf16, strided<[1024, 1], offset: ?>>
        %a = vector.transfer_read %gA[%c0, %c0], %pad {in_bounds = [true, true]} : memref<1x8xf16, strided<[1024, 1], offset: ?>>, vector<1x8xf16>
        %tA = memref.subview %sA[%arow, %acol] [1, 8] [1, 1] : memref<64x24xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[24, 1], offset: ?>, #gpu.address_space<workgroup>>
        vector.transfer_write %a, %tA[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[24, 1], offset: ?>, #gpu.address_space<workgroup>>
        %bk = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%k)[%brow]
        %gB = memref.subview %B[%bk, %bn] [1, 8] [1, 1] : memref<1024x1024xf16> to memref<1x8xf16, strided<[1024, 1], offset: ?>>
        %b = vector.transfer_read %gB[%c0, %c0], %pad {in_bounds = [true, true]} : memref<1x8xf16, strided<[1024, 1], offset: ?>>, vector<1x8xf16>
        %tB = memref.subview %sB[%brow, %bcol] [1, 8] [1, 1] : memref<16x72xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
        vector.transfer_write %b, %tB[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[72, 1], offset: ?>, #gpu.address_space<workgroup>>
        gpu.barrier
        %fa = nvgpu.ldmatrix %sA[%lrow, %c0] {numTiles = 4 : i32, transpose = false}
            : memref<64x24xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
        %fb = nvgpu.ldmatrix %sB[%lrow, %c0] {numTiles = 2 : i32, transpose = true}
            : memref<16x72xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
        %d = nvgpu.mma.sync (%fa, %fb, %acc) {mmaShape = [16, 8, 16]}
            : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        gpu.barrier
        scf.yield %d : vector<2x2xf32>
      }
      %cm = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%by)[%lrow]
      %cn = affine.apply affine_map<(d0) -> (d0 * 64)>(%bx)
      %r0 = vector.extract %res[0] : vector<2xf32> from vector<2x2xf32>
      vector.store %r0, %C[%cm, %cn] : memref<1024x1024xf32>, vector<2xf32>
      memref.dealloc %sA : memref<64x24xf16, #gpu.address_space<workgroup>>
      memref.dealloc %sB : memref<16x72xf16, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
