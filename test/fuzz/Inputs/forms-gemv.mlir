// test/pk-pipeline-kloops-streams.mlir's @gemv_stream (the compute phase reads A straight from global memory; bit-exact on an H100, integration/results/2026-12-06-h100-diffrun-guarded-masked/streams). semcheck-forms.test.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @gemv_stream(%A: memref<128x4096xf32>, %x: memref<4096xf32>, %y: memref<128x4xf32>)
        workgroup(%sx: memref<512xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c512 = arith.constant 512 : index
      %c4096 = arith.constant 4096 : index
      %tid = gpu.thread_id x
      %t4 = arith.muli %tid, %c4 : index
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %r = scf.for %k = %c0 to %c4096 step %c512 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %gk = arith.addi %k, %t4 : index
        %v = vector.load %x[%gk] : memref<4096xf32>, vector<4xf32>
        vector.store %v, %sx[%t4] : memref<512xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %xs = vector.load %sx[%t4] : memref<512xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %a = vector.load %A[%tid, %k] : memref<128x4096xf32>, vector<4xf32>
        %d = vector.fma %a, %xs, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      vector.store %r, %y[%tid, %c0] : memref<128x4xf32>, vector<4xf32>
      gpu.return
    }
  }
}

