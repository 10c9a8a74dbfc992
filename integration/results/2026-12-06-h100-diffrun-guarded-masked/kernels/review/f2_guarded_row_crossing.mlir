// A guarded vector.load of 16 f16 from a memref whose rows hold 8: the read
// spans rows r and r+1 (vector.load lowers to one flat 32-byte read; the
// unguarded form of this copy becomes two plain 16-byte cp.async of exactly
// those bytes). Guarded, clampPartialCopy also clamps every piece to
// dim - index of the innermost dimension: the second piece (column 8) has
// 8 - 8 = 0 elements left and is zero-filled although the guard holds.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @guarded_row_crossing(%A: memref<8192x8xf16>, %out: memref<128x16xf32>)
        workgroup(%s: memref<128x16xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c128 = arith.constant 128 : index
      %c4096 = arith.constant 4096 : index
      %c8192 = arith.constant 8192 : index
      %zeros = arith.constant dense<0.0> : vector<16xf16>
      %tid = gpu.thread_id x
      %init = arith.constant dense<0.0> : vector<16xf32>
      %r = scf.for %k = %c0 to %c4096 step %c128 iter_args(%acc = %init) -> (vector<16xf32>) {
        %t = arith.addi %k, %tid : index
        %row = arith.muli %t, %c2 : index
        %valid = arith.cmpi slt, %row, %c8192 : index
        %v = scf.if %valid -> (vector<16xf16>) {
          %l = vector.load %A[%row, %c0] : memref<8192x8xf16>, vector<16xf16>
          scf.yield %l : vector<16xf16>
        } else {
          scf.yield %zeros : vector<16xf16>
        }
        vector.store %v, %s[%tid, %c0] : memref<128x16xf16, #gpu.address_space<workgroup>>, vector<16xf16>
        gpu.barrier
        %x = vector.load %s[%tid, %c0] : memref<128x16xf16, #gpu.address_space<workgroup>>, vector<16xf16>
        %xf = arith.extf %x : vector<16xf16> to vector<16xf32>
        %d = vector.fma %xf, %xf, %acc : vector<16xf32>
        gpu.barrier
        scf.yield %d : vector<16xf32>
      }
      vector.store %r, %out[%tid, %c0] : memref<128x16xf32>, vector<16xf32>
      gpu.return
    }
  }
}
