// test/pk-pipeline-kloops-mixed.mlir's @dequant_in_load (per-copy variants: A by cp.async, B dequantized by arith.sitofp through registers; bit-exact on an H100). semcheck-forms.test.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @dequant_in_load(%A: memref<128x4096xf16>, %B: memref<4096x64xi8>, %out: memref<128x64xf32>)
        workgroup(%sA: memref<128x32xf16, #gpu.address_space<workgroup>>,
                  %sB: memref<32x64xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c4096 = arith.constant 4096 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c8 : index
      %col8 = arith.remui %tid, %c8 : index
      %col = arith.muli %col8, %c8 : index
      %zero = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c4096 step %c32 iter_args(%acc = %zero) -> (vector<8xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x4096xf16>, vector<32xf16>
        vector.store %a, %sA[%tid, %c0] : memref<128x32xf16, #gpu.address_space<workgroup>>, vector<32xf16>
        %kr = arith.addi %k, %row : index
        %b = vector.load %B[%kr, %col] : memref<4096x64xi8>, vector<8xi8>
        %bf = arith.sitofp %b : vector<8xi8> to vector<8xf16>
        vector.store %bf, %sB[%row, %col] : memref<32x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %y = vector.load %sB[%row, %col] : memref<32x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %yf = arith.extf %y : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %yf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      vector.store %r, %out[%row, %col] : memref<128x64xf32>, vector<8xf32>
      gpu.return
    }
  }
}

