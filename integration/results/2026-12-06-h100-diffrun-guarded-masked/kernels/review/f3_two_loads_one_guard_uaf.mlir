// One scf.if guards two global loads (two results), each stored unchanged to
// its own buffer: both become guarded cp.async. convertToAsyncCopies puts
// {store0, load0, if, store1, load1} in `dead`; eraseReplacedOps erases the
// scf.if (results now unused) and with it load1, then visits load1 again:
// use-after-free (valgrind: "Invalid read ... convertToAsyncCopies",
// "48 bytes inside a block of size 224 free'd"), possibly a double erase.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @two_loads_one_guard(%A: memref<64x32xf16>, %B: memref<64x32xf16>, %out: memref<64xf32>)
        workgroup(%sA: memref<64x32xf16, #gpu.address_space<workgroup>>,
                  %sB: memref<64x32xf16, #gpu.address_space<workgroup>>)
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
        %va, %vb = scf.if %valid -> (vector<8xf16>, vector<8xf16>) {
          %la = vector.load %A[%src, %col] : memref<64x32xf16>, vector<8xf16>
          %lb = vector.load %B[%src, %col] : memref<64x32xf16>, vector<8xf16>
          scf.yield %la, %lb : vector<8xf16>, vector<8xf16>
        } else {
          scf.yield %zeros, %zeros : vector<8xf16>, vector<8xf16>
        }
        vector.store %va, %sA[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        vector.store %vb, %sB[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %sA[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %y = vector.load %sB[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %yf = arith.extf %y : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %yf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      %e = vector.extract %r[0] : f32 from vector<8xf32>
      memref.store %e, %out[%row] : memref<64xf32>
      gpu.return
    }
  }
}
