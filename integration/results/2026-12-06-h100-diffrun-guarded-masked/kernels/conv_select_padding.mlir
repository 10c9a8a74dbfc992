module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @conv_select_padding(%In: memref<66x64xf16>, %F: memref<192x64xf16>, %out: memref<64x64xf32>)
        workgroup(%sI: memref<64x64xf16, #gpu.address_space<workgroup>>,
                  %sF: memref<64x64xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c64 = arith.constant 64 : index
      %c65 = arith.constant 65 : index
      %c192 = arith.constant 192 : index
      %zeros = arith.constant dense<0.0> : vector<8xf16>
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c8 : index
      %q = arith.remui %tid, %c8 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c192 step %c64 iter_args(%acc = %init) -> (vector<8xf32>) {
        // Filter tap k/64: rows k .. k+63.
        %fr = arith.addi %k, %row : index
        %f = vector.load %F[%fr, %col] : memref<192x64xf16>, vector<8xf16>
        vector.store %f, %sF[%row, %col] : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        // Input row row + tap, row 0 and 65 are the zero padding.
        %tap = arith.divui %k, %c64 : index
        %ir = arith.addi %row, %tap : index
        %ge = arith.cmpi sge, %ir, %c1 : index
        %lt = arith.cmpi slt, %ir, %c65 : index
        %valid = arith.andi %ge, %lt : i1
        %v = vector.load %In[%ir, %col] : memref<66x64xf16>, vector<8xf16>
        %sel = arith.select %valid, %v, %zeros : vector<8xf16>
        vector.store %sel, %sI[%row, %col] : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %sI[%row, %col] : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %y = vector.load %sF[%row, %col] : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %yf = arith.extf %y : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %yf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      vector.store %r, %out[%row, %col] : memref<64x64xf32>, vector<8xf32>
      gpu.return
    }
  }
}

