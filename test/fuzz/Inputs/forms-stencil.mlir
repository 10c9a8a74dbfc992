// test/pk-pipeline-kloops-streams.mlir's @stencil_rows (guarded halo rows; the compute phase writes output rows at addresses that move with the K-loop; bit-exact on an H100). semcheck-forms.test.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @stencil_rows(%in: memref<256x32xf32>, %out: memref<256x32xf32> {llvm.noalias})
        workgroup(%s: memref<34x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 272, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %zeros = arith.constant dense<0.0> : vector<4xf32>
      %tid = gpu.thread_id x
      %lrow = arith.divui %tid, %c8 : index
      %q = arith.remui %tid, %c8 : index
      %col = arith.muli %q, %c4 : index
      scf.for %k = %c0 to %c256 step %c32 {
        // Rows k-1 .. k+32 of the input into rows 0 .. 33 of the tile.
        %g = arith.addi %k, %lrow : index
        %src = arith.subi %g, %c1 : index
        %ge = arith.cmpi sge, %src, %c0 : index
        %lt = arith.cmpi slt, %src, %c256 : index
        %ok = arith.andi %ge, %lt : i1
        %v = scf.if %ok -> (vector<4xf32>) {
          %l = vector.load %in[%src, %col] : memref<256x32xf32>, vector<4xf32>
          scf.yield %l : vector<4xf32>
        } else {
          scf.yield %zeros : vector<4xf32>
        }
        vector.store %v, %s[%lrow, %col] : memref<34x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        // Output row k + r, r < 32, from tile rows r, r+1, r+2.
        %r = arith.remui %lrow, %c32 : index
        %r1 = arith.addi %r, %c1 : index
        %r2 = arith.addi %r, %c2 : index
        %a = vector.load %s[%r, %col] : memref<34x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %b = vector.load %s[%r1, %col] : memref<34x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %c = vector.load %s[%r2, %col] : memref<34x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %ab = arith.addf %a, %b : vector<4xf32>
        %abc = arith.addf %ab, %c : vector<4xf32>
        %orow = arith.addi %k, %r : index
        vector.store %abc, %out[%orow, %col] : memref<256x32xf32>, vector<4xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
}

