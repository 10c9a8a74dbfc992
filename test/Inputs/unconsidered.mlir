// Kernels and loops pk does not consider (docs/input-contract.md, "What pk
// says about the rest"): test/pk-analyze-kloops-edge-cases.mlir and
// test/pipeline-kernel.mlir check which remarks come with and without
// verbose.
module attributes {gpu.container_module} {
  gpu.module @m {
    // A K-loop (pipelined), then an epilogue loop nest that stores the
    // result: not a K-loop, said once for the nest and only when verbose.
    gpu.func @gemm_epilogue(%A: memref<64x128xf16>, %out: memref<64x32xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c128 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x128xf16>, vector<8xf16>
        vector.store %v, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      scf.for %i = %c0 to %c8 step %c4 {
        scf.for %j = %c0 to %c4 step %c1 {
          %lane = arith.addi %i, %j : index
          %e = vector.extract %r[%lane] : f32 from vector<8xf32>
          %c = arith.addi %col, %lane : index
          memref.store %e, %out[%row, %c] : memref<64x32xf32>
        }
      }
      gpu.return
    }
    // No loop at all.
    gpu.func @fill(%out: memref<256xf32>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %tid = gpu.thread_id x
      %one = arith.constant 1.0 : f32
      memref.store %one, %out[%tid] : memref<256xf32>
      gpu.return
    }
    // A K-loop written as an affine.for: said in every mode.
    gpu.func @affine_kloop(%A: memref<64x128xf32>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %init = arith.constant 0.0 : f32
      %r = affine.for %k = 0 to 128 step 32 iter_args(%acc = %init) -> (f32) {
        %a = memref.load %A[%tid, %k] : memref<64x128xf32>
        memref.store %a, %s[%tid, %c0] : memref<64x32xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %x = memref.load %s[%tid, %c0] : memref<64x32xf32, #gpu.address_space<workgroup>>
        %d = math.fma %x, %x, %acc : f32
        gpu.barrier
        affine.yield %d : f32
      }
      memref.store %r, %out[%tid] : memref<64xf32>
      gpu.return
    }
  }
}
