// The small twin of stencil3_8192x4096.mlir (a 256 x 128 grid, 4 blocks of
// 256 rows x 32 columns), for the sanitizers.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @stencil3(%in: memref<256x128xf32> {llvm.readonly}, %out: memref<256x128xf32> {llvm.noalias})
        workgroup(%s: memref<34x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 272, 1, 1>, known_grid_size = array<i32: 4, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %c256g = arith.constant 256 : index
      %zeros = arith.constant dense<0.0> : vector<4xf32>
      %tid = gpu.thread_id x
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %lrow = arith.divui %tid, %c8 : index
      %q = arith.remui %tid, %c8 : index
      %lcol = arith.muli %q, %c4 : index
      %x0 = arith.muli %bx, %c32 : index
      %col = arith.addi %x0, %lcol : index
      %y0 = arith.muli %by, %c256 : index
      %y1 = arith.addi %y0, %c256 : index
      %r = arith.remui %lrow, %c32 : index
      %r1 = arith.addi %r, %c1 : index
      %r2 = arith.addi %r, %c2 : index
      %third = arith.constant dense<0.333333343> : vector<4xf32>
      scf.for %k = %y0 to %y1 step %c32 {
        %g = arith.addi %k, %lrow : index
        %src = arith.subi %g, %c1 : index
        %ge = arith.cmpi sge, %src, %c0 : index
        %lt = arith.cmpi slt, %src, %c256g : index
        %ok = arith.andi %ge, %lt : i1
        %v = scf.if %ok -> (vector<4xf32>) {
          %l = vector.load %in[%src, %col] : memref<256x128xf32>, vector<4xf32>
          scf.yield %l : vector<4xf32>
        } else {
          scf.yield %zeros : vector<4xf32>
        }
        vector.store %v, %s[%lrow, %lcol] : memref<34x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %a = vector.load %s[%r, %lcol] : memref<34x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %b = vector.load %s[%r1, %lcol] : memref<34x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %c = vector.load %s[%r2, %lcol] : memref<34x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %ab = arith.addf %a, %b : vector<4xf32>
        %abc = arith.addf %ab, %c : vector<4xf32>
        %avg = arith.mulf %abc, %third : vector<4xf32>
        %orow = arith.addi %k, %r : index
        vector.store %avg, %out[%orow, %col] : memref<256x128xf32>, vector<4xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
}
