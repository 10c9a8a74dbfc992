// Payload for transform.nvgpu.rewrite_copy_as_tma (upstream MLIR 22's only
// transform that emits TMA + mbarrier code; mlir/test/Dialect/NVGPU/
// tmaload-transform.mlir): a gpu.launch whose K-loop copies an A tile
// (128x16 f32) and a B tile (16x128 f32) from global to workgroup memory with
// linalg.copy, then computes with FMAs from shared memory (thread t
// accumulates row t, columns 4 * (t % 32) .. + 3, of the 128x128 block).
//
// rewrite_copy_as_tma creates the tensor maps on the host from the copy's
// source memref, so the source must be defined outside the gpu.launch: a copy
// of a K-dependent subview (%A[0, %k]) fails with "operand #0 does not
// dominate this use" (README.md). The copied tiles are therefore the whole A
// (128x16) and B (16x128) in every iteration, at TMA coordinates [0, 0]: the
// K-loop is structurally a K-loop (copy, barrier, compute, barrier) whose
// tiles do not move with k. It is the only TMA K-loop upstream 22 generates.
memref.global "private" @sA : memref<128x16xf32, #gpu.address_space<workgroup>>
memref.global "private" @sB : memref<16x128xf32, #gpu.address_space<workgroup>>

func.func @sgemm_tma(%A: memref<128x16xf32>, %B: memref<16x128xf32>, %C: memref<128x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c512 = arith.constant 512 : index
  %zero = arith.constant dense<0.0> : vector<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c128, %sy = %c1, %sz = %c1) {
    %sA = memref.get_global @sA : memref<128x16xf32, #gpu.address_space<workgroup>>
    %sB = memref.get_global @sB : memref<16x128xf32, #gpu.address_space<workgroup>>
    %lane = arith.remui %tx, %c32 : index
    %col = arith.muli %lane, %c4 : index
    %acc = scf.for %k = %c0 to %c512 step %c16 iter_args(%acc_k = %zero) -> (vector<4xf32>) {
      linalg.copy ins(%A : memref<128x16xf32>) outs(%sA : memref<128x16xf32, #gpu.address_space<workgroup>>)
      linalg.copy ins(%B : memref<16x128xf32>) outs(%sB : memref<16x128xf32, #gpu.address_space<workgroup>>)
      gpu.barrier
      %next = scf.for %kk = %c0 to %c16 step %c1 iter_args(%a = %acc_k) -> (vector<4xf32>) {
        %av = memref.load %sA[%tx, %kk] : memref<128x16xf32, #gpu.address_space<workgroup>>
        %bv = vector.load %sB[%kk, %col] : memref<16x128xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %ab = vector.broadcast %av : f32 to vector<4xf32>
        %f = vector.fma %ab, %bv, %a : vector<4xf32>
        scf.yield %f : vector<4xf32>
      }
      gpu.barrier
      scf.yield %next : vector<4xf32>
    }
    vector.store %acc, %C[%tx, %col] : memref<128x128xf32>, vector<4xf32>
    gpu.terminator
  }
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_copy_as_tma %copies : (!transform.any_op) -> ()
    transform.yield
  }
}
