// test/pk-pipeline-kloops-streams.mlir's @select_may_be_input (an arith.select of two memrefs on an i1 kernel argument; pk declines it). semcheck-forms.test.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @select_may_be_input(%in: memref<256x32xf32>, %out: memref<256x32xf32> {llvm.noalias}, %p: i1)
        workgroup(%s: memref<32x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c40 = arith.constant 40 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %lrow = arith.divui %tid, %c8 : index
      %q = arith.remui %tid, %c8 : index
      %col = arith.muli %q, %c4 : index
      %w = arith.select %p, %in, %out : memref<256x32xf32>
      scf.for %k = %c0 to %c256 step %c32  {
        %g = arith.addi %k, %lrow : index
        %l = vector.load %in[%g, %col] : memref<256x32xf32>, vector<4xf32>
        vector.store %l, %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %a = vector.load %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %aa = arith.addf %a, %a : vector<4xf32>
        %o = vector.load %w[%c40, %col] : memref<256x32xf32>, vector<4xf32>
        %n = arith.addf %o, %aa : vector<4xf32>
        vector.store %n, %w[%c40, %col] : memref<256x32xf32>, vector<4xf32>
        gpu.barrier
        
      }
      gpu.return
    }
  }
}
