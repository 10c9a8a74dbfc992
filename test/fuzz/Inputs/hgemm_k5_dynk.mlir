// test/fuzz/Inputs/hgemm_k5.mlir with a dynamic K (the kernel argument %K) and a host function that launches it with K = 160 (semcheck.test: pk versions the loop on the trip count; the epilogue's trip-count selects are folded under that guard).
module attributes {gpu.container_module} {
  func.func @main(%A: memref<128x160xf16>, %B: memref<128x160xf16>, %C: memref<128x128xf32>) {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c128 = arith.constant 128 : index
    %K = arith.constant 160 : index
    gpu.launch_func @hgemm_f16_64x64x32::@hgemm_f16_64x64x32 blocks in (%c2, %c2, %c1) threads in (%c128, %c1, %c1) args(%A : memref<128x160xf16>, %B : memref<128x160xf16>, %C : memref<128x128xf32>, %K : index)
    return
  }
  gpu.module @hgemm_f16_64x64x32 {
    gpu.func @hgemm_f16_64x64x32(%A: memref<128x160xf16> {llvm.noalias, llvm.readonly}, %B: memref<128x160xf16> {llvm.noalias, llvm.readonly}, %C: memref<128x128xf32> {llvm.noalias}, %K: index)
        workgroup(%sA : memref<64x32xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %sB : memref<64x32xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
        kernel attributes {nvvm.minctasm = 2 : i32, known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 2, 2, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c24 = arith.constant 24 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c160 = arith.constant 160 : index
      %zero = arith.constant dense<0.0> : vector<2x2xf32>
      %tid = gpu.thread_id x
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %bm = arith.muli %by, %c64 : index
      %bn = arith.muli %bx, %c64 : index
      %lane = arith.remui %tid, %c32 : index
      %warp = arith.divui %tid, %c32 : index
      // global->shared copy mapping: 4 consecutive threads copy the 4 16-byte
      // chunks of one tile row (row-major; a quarter warp covers 128 contiguous
      // bytes of 2 rows: full 32-byte sectors per quarter-warp request).
      %ld_row = arith.divui %tid, %c4 : index
      %t_chunk = arith.remui %tid, %c4 : index
      %ld_col = arith.muli %t_chunk, %c8 : index
      // shared chunk = chunk ^ f(row), f(row) = (row / 2) % 4 (rows + i*32 keep f)
      %st_f_q = arith.divui %ld_row, %c2 : index
      %st_f = arith.remui %st_f_q, %c4 : index
      %st_chunk = arith.xori %t_chunk, %st_f : index
      %st_col = arith.muli %st_chunk, %c8 : index
      %gA_row0 = arith.addi %bm, %ld_row : index
      %ld_rowA1 = arith.addi %ld_row, %c32 : index
      %gA_row1 = arith.addi %bm, %ld_rowA1 : index
      %gB_row0 = arith.addi %bn, %ld_row : index
      %ld_rowB1 = arith.addi %ld_row, %c32 : index
      %gB_row1 = arith.addi %bn, %ld_rowB1 : index
      // warp tiling 2x2 warps, warp tile 32x32
      %warp_m = arith.divui %warp, %c2 : index
      %wm = arith.muli %warp_m, %c32 : index
      %warp_n = arith.remui %warp, %c2 : index
      %wn = arith.muli %warp_n, %c32 : index
      // ldmatrix row addresses: A lane l -> row l%16, k-col (l/16)*8
      //                          B lane l -> row l%8 + 8*(l/16), k-col ((l/8)%2)*8
      %l_mod16 = arith.remui %lane, %c16 : index
      %l_mod8 = arith.remui %lane, %c8 : index
      %l_div16 = arith.divui %lane, %c16 : index
      %l_div8 = arith.divui %lane, %c8 : index
      %l_div8_mod2 = arith.remui %l_div8, %c2 : index
      // swizzled k-chunk: (ks/8 + half) ^ f(row); f(row) depends on l%16 (A) and l%8 (B) only
      %fa_q = arith.divui %l_mod16, %c2 : index
      %fa = arith.remui %fa_q, %c4 : index
      %fb_q = arith.divui %l_mod8, %c2 : index
      %fb = arith.remui %fb_q, %c4 : index
      %a_row = arith.addi %wm, %l_mod16 : index
      %l_div16x8 = arith.muli %l_div16, %c8 : index
      %b_r = arith.addi %l_mod8, %l_div16x8 : index
      %b_row = arith.addi %wn, %b_r : index
      %a_row1 = arith.addi %a_row, %c16 : index
      %b_row1 = arith.addi %b_row, %c16 : index
      %res:8 = scf.for %k = %c0 to %K step %c32 iter_args(%acc0_0 = %zero, %acc0_1 = %zero, %acc0_2 = %zero, %acc0_3 = %zero, %acc1_0 = %zero, %acc1_1 = %zero, %acc1_2 = %zero, %acc1_3 = %zero) -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>) {
        // a. load phase: global -> shared, 16-byte vectors
        %k_col = arith.addi %k, %ld_col : index
        %ga0 = vector.load %A[%gA_row0, %k_col] {alignment = 16 : i64} : memref<128x160xf16>, vector<8xf16>
        %ga1 = vector.load %A[%gA_row1, %k_col] {alignment = 16 : i64} : memref<128x160xf16>, vector<8xf16>
        %gb0 = vector.load %B[%gB_row0, %k_col] {alignment = 16 : i64} : memref<128x160xf16>, vector<8xf16>
        %gb1 = vector.load %B[%gB_row1, %k_col] {alignment = 16 : i64} : memref<128x160xf16>, vector<8xf16>
        vector.store %ga0, %sA[%ld_row, %st_col] {alignment = 16 : i64} : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        vector.store %ga1, %sA[%ld_rowA1, %st_col] {alignment = 16 : i64} : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        vector.store %gb0, %sB[%ld_row, %st_col] {alignment = 16 : i64} : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        vector.store %gb1, %sB[%ld_rowB1, %st_col] {alignment = 16 : i64} : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        // b.
        gpu.barrier
        // c. compute phase: 2 k-steps of 16
        %r:8 = scf.for %ks = %c0 to %c32 step %c16 iter_args(%i0_0 = %acc0_0, %i0_1 = %acc0_1, %i0_2 = %acc0_2, %i0_3 = %acc0_3, %i1_0 = %acc1_0, %i1_1 = %acc1_1, %i1_2 = %acc1_2, %i1_3 = %acc1_3) -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>) {
          %ks_chunk = arith.divui %ks, %c8 : index
          %ka_log = arith.addi %ks_chunk, %l_div16 : index
          %ka_chunk = arith.xori %ka_log, %fa : index
          %ka = arith.muli %ka_chunk, %c8 : index
          %kb_log = arith.addi %ks_chunk, %l_div8_mod2 : index
          %kb_chunk = arith.xori %kb_log, %fb : index
          %kb = arith.muli %kb_chunk, %c8 : index
          %a0 = nvgpu.ldmatrix %sA[%a_row, %ka] {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
          %a1 = nvgpu.ldmatrix %sA[%a_row1, %ka] {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
          %b01 = nvgpu.ldmatrix %sB[%b_row, %kb] {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
          %b0 = vector.shuffle %b01, %b01 [0, 1] : vector<4x2xf16>, vector<4x2xf16>
          %b1 = vector.shuffle %b01, %b01 [2, 3] : vector<4x2xf16>, vector<4x2xf16>
          %b23 = nvgpu.ldmatrix %sB[%b_row1, %kb] {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
          %b2 = vector.shuffle %b23, %b23 [0, 1] : vector<4x2xf16>, vector<4x2xf16>
          %b3 = vector.shuffle %b23, %b23 [2, 3] : vector<4x2xf16>, vector<4x2xf16>
          %d0_0 = nvgpu.mma.sync (%a0, %b0, %i0_0) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
          %d0_1 = nvgpu.mma.sync (%a0, %b1, %i0_1) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
          %d0_2 = nvgpu.mma.sync (%a0, %b2, %i0_2) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
          %d0_3 = nvgpu.mma.sync (%a0, %b3, %i0_3) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
          %d1_0 = nvgpu.mma.sync (%a1, %b0, %i1_0) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
          %d1_1 = nvgpu.mma.sync (%a1, %b1, %i1_1) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
          %d1_2 = nvgpu.mma.sync (%a1, %b2, %i1_2) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
          %d1_3 = nvgpu.mma.sync (%a1, %b3, %i1_3) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
          scf.yield %d0_0, %d0_1, %d0_2, %d0_3, %d1_0, %d1_1, %d1_2, %d1_3 : vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>
        } {loop_annotation = #llvm.loop_annotation<unroll = <full = true>>}
        // d.
        gpu.barrier
        scf.yield %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7 : vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>
      } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
      // epilogue: thread holds C[g][2t..2t+1] and C[g+8][2t..2t+1] of each 16x8 tile
      %g = arith.divui %lane, %c4 : index
      %t = arith.remui %lane, %c4 : index
      %t2 = arith.muli %t, %c2 : index
      %bmwm = arith.addi %bm, %wm : index
      %crow = arith.addi %bmwm, %g : index
      %bnwn = arith.addi %bn, %wn : index
      %ccol = arith.addi %bnwn, %t2 : index
      %ccol1 = arith.addi %ccol, %c8 : index
      %ccol2 = arith.addi %ccol, %c16 : index
      %ccol3 = arith.addi %ccol, %c24 : index
      %crow0h = arith.addi %crow, %c8 : index
      %o0_0_0 = vector.extract %res#0[0] : vector<2xf32> from vector<2x2xf32>
      vector.store %o0_0_0, %C[%crow, %ccol] {alignment = 8 : i64} : memref<128x128xf32>, vector<2xf32>
      %o0_0_1 = vector.extract %res#0[1] : vector<2xf32> from vector<2x2xf32>
      vector.store %o0_0_1, %C[%crow0h, %ccol] {alignment = 8 : i64} : memref<128x128xf32>, vector<2xf32>
      %o0_1_0 = vector.extract %res#1[0] : vector<2xf32> from vector<2x2xf32>
      vector.store %o0_1_0, %C[%crow, %ccol1] {alignment = 8 : i64} : memref<128x128xf32>, vector<2xf32>
      %o0_1_1 = vector.extract %res#1[1] : vector<2xf32> from vector<2x2xf32>
      vector.store %o0_1_1, %C[%crow0h, %ccol1] {alignment = 8 : i64} : memref<128x128xf32>, vector<2xf32>
      %o0_2_0 = vector.extract %res#2[0] : vector<2xf32> from vector<2x2xf32>
      vector.store %o0_2_0, %C[%crow, %ccol2] {alignment = 8 : i64} : memref<128x128xf32>, vector<2xf32>
      %o0_2_1 = vector.extract %res#2[1] : vector<2xf32> from vector<2x2xf32>
      vector.store %o0_2_1, %C[%crow0h, %ccol2] {alignment = 8 : i64} : memref<128x128xf32>, vector<2xf32>
      %o0_3_0 = vector.extract %res#3[0] : vector<2xf32> from vector<2x2xf32>
      vector.store %o0_3_0, %C[%crow, %ccol3] {alignment = 8 : i64} : memref<128x128xf32>, vector<2xf32>
      %o0_3_1 = vector.extract %res#3[1] : vector<2xf32> from vector<2x2xf32>
      vector.store %o0_3_1, %C[%crow0h, %ccol3] {alignment = 8 : i64} : memref<128x128xf32>, vector<2xf32>
      %crow1 = arith.addi %crow, %c16 : index
      %crow1h = arith.addi %crow, %c24 : index
      %o1_0_0 = vector.extract %res#4[0] : vector<2xf32> from vector<2x2xf32>
      vector.store %o1_0_0, %C[%crow1, %ccol] {alignment = 8 : i64} : memref<128x128xf32>, vector<2xf32>
      %o1_0_1 = vector.extract %res#4[1] : vector<2xf32> from vector<2x2xf32>
      vector.store %o1_0_1, %C[%crow1h, %ccol] {alignment = 8 : i64} : memref<128x128xf32>, vector<2xf32>
      %o1_1_0 = vector.extract %res#5[0] : vector<2xf32> from vector<2x2xf32>
      vector.store %o1_1_0, %C[%crow1, %ccol1] {alignment = 8 : i64} : memref<128x128xf32>, vector<2xf32>
      %o1_1_1 = vector.extract %res#5[1] : vector<2xf32> from vector<2x2xf32>
      vector.store %o1_1_1, %C[%crow1h, %ccol1] {alignment = 8 : i64} : memref<128x128xf32>, vector<2xf32>
      %o1_2_0 = vector.extract %res#6[0] : vector<2xf32> from vector<2x2xf32>
      vector.store %o1_2_0, %C[%crow1, %ccol2] {alignment = 8 : i64} : memref<128x128xf32>, vector<2xf32>
      %o1_2_1 = vector.extract %res#6[1] : vector<2xf32> from vector<2x2xf32>
      vector.store %o1_2_1, %C[%crow1h, %ccol2] {alignment = 8 : i64} : memref<128x128xf32>, vector<2xf32>
      %o1_3_0 = vector.extract %res#7[0] : vector<2xf32> from vector<2x2xf32>
      vector.store %o1_3_0, %C[%crow1, %ccol3] {alignment = 8 : i64} : memref<128x128xf32>, vector<2xf32>
      %o1_3_1 = vector.extract %res#7[1] : vector<2xf32> from vector<2x2xf32>
      vector.store %o1_3_1, %C[%crow1h, %ccol3] {alignment = 8 : i64} : memref<128x128xf32>, vector<2xf32>
      gpu.return
    }
  }
}
