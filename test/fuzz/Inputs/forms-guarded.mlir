// test/pk-pipeline-kloops-guarded.mlir's @guarded_rows (a halo guard: scf.if yielding the loaded row or zero; integration/results/2026-12-06-h100-diffrun-guarded-masked: bit-exact on an H100). semcheck-forms.test.
module attributes {gpu.container_module} {
  gpu.module @m {
    // Rows k/32 - 1 + row of A, zero outside [0, 64): a halo guard.
    gpu.func @guarded_rows(%A: memref<64x32xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %zeros = arith.constant dense<0.0> : vector<8xf16>
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c128 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %shift = affine.apply affine_map<(d0) -> (d0 floordiv 32 - 1)>(%k)
        %src = arith.addi %row, %shift : index
        %ge = arith.cmpi sge, %src, %c0 : index
        %lt = arith.cmpi slt, %src, %c64 : index
        %valid = arith.andi %ge, %lt : i1
        %v = scf.if %valid -> (vector<8xf16>) {
          %l = vector.load %A[%src, %col] : memref<64x32xf16>, vector<8xf16>
          scf.yield %l : vector<8xf16>
        } else {
          scf.yield %zeros : vector<8xf16>
        }
        vector.store %v, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      %e = vector.extract %r[0] : f32 from vector<8xf32>
      memref.store %e, %out[%row] : memref<64xf32>
      gpu.return
    }
  }
}

