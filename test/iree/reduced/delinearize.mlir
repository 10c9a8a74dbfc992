// delinearize: IREE's copy distribution, reduced to one 64x32 f16 tile: 128
// threads copy 256 vectors of 8 halves, two per thread, at linear indices
// tid and tid + 128, split with affine.delinearize_index into (64, 4)
// (IREE: `affine.apply (d0 + s0)(%c128)[%tid]`, `affine.delinearize_index
// ... into (128, 4)`, `affine.apply (d0 * 8)`, gpu.thread_id with
// upper_bound). The loop is otherwise the control's. pk-analyze-kloops
// predicts cp-async for it, while the transform cannot prove the two
// per-thread stores disjoint and falls back to ldg-register: analysis and
// transform must agree, and the copies are disjoint (row = i / 4 and
// column = (i mod 4) * 8 of two different i < 256).
// delinearize_divrem.mlir is the same loop with arith.divui/remui.
module attributes {gpu.container_module} {
  gpu.module @reduced {
    gpu.func @delinearize(%A: memref<1024x1024xf16> {llvm.align = 64 : i64},
                      %B: memref<1024x1024xf16> {llvm.align = 64 : i64},
                      %C: memref<1024x1024xf32> {llvm.align = 64 : i64})
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %c1024 = arith.constant 1024 : index
      %pad = ub.poison : f16
      %init = arith.constant dense<0.0> : vector<2x2xf32>
      %sA = memref.alloc() : memref<64x40xf16, #gpu.address_space<workgroup>>
      %tid = gpu.thread_id x upper_bound 128
      %by = gpu.block_id y upper_bound 16
      %lane = gpu.lane_id
      %lrow = arith.remui %lane, %c16 : index
      %i0 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c0)[%tid]
      %d0:2 = affine.delinearize_index %i0 into (64, 4) : index, index
      %col0 = affine.apply affine_map<(d0) -> (d0 * 8)>(%d0#1)
      %m0 = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%by)[%d0#0]
      %i1 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c128)[%tid]
      %d1:2 = affine.delinearize_index %i1 into (64, 4) : index, index
      %col1 = affine.apply affine_map<(d0) -> (d0 * 8)>(%d1#1)
      %m1 = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%by)[%d1#0]
      %res = scf.for %k = %c0 to %c1024 step %c32 iter_args(%acc = %init) -> (vector<2x2xf32>) {
        %k0 = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 8)>(%k, %d0#1)
        %g0 = memref.subview %A[%m0, %k0] [1, 8] [1, 1] : memref<1024x1024xf16> to memref<1x8xf16, strided<[1024, 1], offset: ?>>
        %a0 = vector.transfer_read %g0[%c0, %c0], %pad {in_bounds = [true, true]} : memref<1x8xf16, strided<[1024, 1], offset: ?>>, vector<1x8xf16>
        %t0 = memref.subview %sA[%d0#0, %col0] [1, 8] [1, 1] : memref<64x40xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[40, 1], offset: ?>, #gpu.address_space<workgroup>>
        vector.transfer_write %a0, %t0[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[40, 1], offset: ?>, #gpu.address_space<workgroup>>
        %k1 = affine.apply affine_map<(d0, d1) -> (d0 + d1 * 8)>(%k, %d1#1)
        %g1 = memref.subview %A[%m1, %k1] [1, 8] [1, 1] : memref<1024x1024xf16> to memref<1x8xf16, strided<[1024, 1], offset: ?>>
        %a1 = vector.transfer_read %g1[%c0, %c0], %pad {in_bounds = [true, true]} : memref<1x8xf16, strided<[1024, 1], offset: ?>>, vector<1x8xf16>
        %t1 = memref.subview %sA[%d1#0, %col1] [1, 8] [1, 1] : memref<64x40xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[40, 1], offset: ?>, #gpu.address_space<workgroup>>
        vector.transfer_write %a1, %t1[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[40, 1], offset: ?>, #gpu.address_space<workgroup>>
        gpu.barrier
        %fa = nvgpu.ldmatrix %sA[%lrow, %c0] {numTiles = 4 : i32, transpose = false}
            : memref<64x40xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
        %fb = nvgpu.ldmatrix %sA[%lrow, %c16] {numTiles = 2 : i32, transpose = false}
            : memref<64x40xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
        %d = nvgpu.mma.sync (%fa, %fb, %acc) {mmaShape = [16, 8, 16]}
            : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        gpu.barrier
        scf.yield %d : vector<2x2xf32>
      }
      %cm = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%by)[%lrow]
      %r0 = vector.extract %res[0] : vector<2xf32> from vector<2x2xf32>
      vector.store %r0, %C[%cm, %c0] : memref<1024x1024xf32>, vector<2xf32>
      gpu.return
    }
  }
}
