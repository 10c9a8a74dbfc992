// One global load stored unchanged into %sA and converted (extf) into %sB;
// a second load then overwrites the same elements of %sA. Original: %sA
// holds %c. Copy X's bufferIndex is its *last* store's buffer (%sB), so %sA
// is not a register buffer: Y becomes cp.async while X's store into %sA is
// register-path and moved after the compute -> %sA ends up holding %a.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @load_two_buffers(%A: memref<128x4096xf16>, %C: memref<128x4096xf16>, %out: memref<128x8xf32>)
        workgroup(%sA: memref<128x8xf16, #gpu.address_space<workgroup>>,
                  %sB: memref<128x8xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c4096 = arith.constant 4096 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c4096 step %c8 iter_args(%acc = %zero) -> (vector<8xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x4096xf16>, vector<8xf16>
        vector.store %a, %sA[%tid, %c0] : memref<128x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %af = arith.extf %a : vector<8xf16> to vector<8xf32>
        vector.store %af, %sB[%tid, %c0] : memref<128x8xf32, #gpu.address_space<workgroup>>, vector<8xf32>
        %c = vector.load %C[%tid, %k] : memref<128x4096xf16>, vector<8xf16>
        vector.store %c, %sA[%tid, %c0] : memref<128x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %y = vector.load %sB[%tid, %c0] : memref<128x8xf32, #gpu.address_space<workgroup>>, vector<8xf32>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %y, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      vector.store %r, %out[%tid, %c0] : memref<128x8xf32>, vector<8xf32>
      gpu.return
    }
  }
}
