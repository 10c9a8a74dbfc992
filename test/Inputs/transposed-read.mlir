// Transposing vector.transfer_reads (a permutation map that is not the minor
// identity), which pk's lowering turns into 1-D transfers with upstream's
// convert-vector-to-scf before convert-gpu-to-nvvm (test/pk-emit-binaries.mlir).
module attributes {gpu.container_module} {
  gpu.module @m {
    // A K-loop whose load phase reads a column of A (the vector runs along
    // dimension 0, 256 bytes apart) and stores it as a row of the tile.
    gpu.func @column_copy(%A: memref<128x64xf32>, %out: memref<64x4xf32>)
        workgroup(%s: memref<64x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %pad = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %row = arith.remui %tid, %c32 : index
      %q = arith.divui %tid, %c32 : index
      %col = arith.muli %q, %c4 : index
      %init = arith.constant dense<0.0> : vector<4xf32>
      %r = scf.for %k = %c0 to %c128 step %c32 iter_args(%acc = %init) -> (vector<4xf32>) {
        %gk = arith.addi %k, %row : index
        %v = vector.transfer_read %A[%gk, %col], %pad {permutation_map = affine_map<(d0, d1) -> (d0)>, in_bounds = [true]} : memref<128x64xf32>, vector<4xf32>
        vector.store %v, %s[%col, %row] : memref<64x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %x = vector.load %s[%col, %row] : memref<64x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      vector.store %r, %out[%row, %c0] : memref<64x4xf32>, vector<4xf32>
      gpu.return
    }
    // A 4x4 block read transposed (d1, d0) and written back (upstream's
    // gpu-lower-to-nvvm-pipeline leaves its vector.transpose unlowered).
    gpu.func @block_transpose(%A: memref<64x64xf32>, %out: memref<64x64xf32>)
        kernel attributes {known_block_size = array<i32: 16, 1, 1>} {
      %c4 = arith.constant 4 : index
      %pad = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      %i = arith.muli %tid, %c4 : index
      %v = vector.transfer_read %A[%i, %i], %pad {permutation_map = affine_map<(d0, d1) -> (d1, d0)>, in_bounds = [true, true]} : memref<64x64xf32>, vector<4x4xf32>
      vector.transfer_write %v, %out[%i, %i] {in_bounds = [true, true]} : vector<4x4xf32>, memref<64x64xf32>
      gpu.return
    }
  }
}
