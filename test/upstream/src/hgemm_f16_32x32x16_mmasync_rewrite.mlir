// hgemm_f16_32x32x16_mmasync_rewrite: C(f16) += A(f16) * B(f16), M = N = K = 1024.
// Block tile 32x32, K-tile 16, 128 threads as a 32x4 block = 4 warps of 16x16
// (thread_id x is the lane: `nvgpu.rewrite_matmul_as_mma_sync` assumes it).
// Each warp's 16x16x16 matmul is split into two 16x8x16 matmuls that
// `transform.nvgpu.rewrite_matmul_as_mma_sync` rewrites 1:1 into
// nvgpu.mma.sync (it supports f16 accumulation, 16x8x16, and tf32 16x8x4 only)
// with scalar memref.load / memref.store of the fragments: the C fragment is
// read from and written back to global memory in every K iteration.
// A/B tiles promoted with `structured.promote {use_alloca}` + `memref.alloca_to_global`.
// Regenerate: test/upstream/generate.sh hgemm_f16_32x32x16_mmasync_rewrite
func.func @hgemm_f16_32x32x16_mmasync_rewrite(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %C: memref<1024x1024xf16>) {
  linalg.matmul ins(%A, %B : memref<1024x1024xf16>, memref<1024x1024xf16>)
                outs(%C : memref<1024x1024xf16>)
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // 1. Blocks: 32x32 output tiles, K-loop of 16.
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %blk, %grid = transform.structured.tile_using_forall %mm tile_sizes [32, 32]
        (mapping = [#gpu.block<y>, #gpu.block<x>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %kt, %kloop = transform.structured.tile_using_for %blk tile_sizes [0, 0, 16] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // 2. A and B tiles to workgroup memory: alloca (i8 buffer + memref.view),
    //    then one memref.global per buffer.
    %prom = transform.structured.promote %kt {operands_to_promote = [0, 1],
        memory_space = #gpu.address_space<workgroup>, use_alloca, alignment = 16}
        : (!transform.any_op) -> !transform.any_op
    %allocas = transform.structured.match ops{["memref.alloca"]} in %root : (!transform.any_op) -> !transform.op<"memref.alloca">
    %get_global, %global = transform.memref.alloca_to_global %allocas
        : (!transform.op<"memref.alloca">) -> (!transform.any_op, !transform.any_op)
    // 3. Threads: each copy as 1x4 (8-byte) pieces over the 128 threads; the
    //    matmul as 2x2 warps of 16x16, each split into two 16x8 matmuls.
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %copyA, %copyB = transform.split_handle %copies : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tA, %fA = transform.structured.tile_using_forall %copyA num_threads [32, 4]
        (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tB, %fB = transform.structured.tile_using_forall %copyB num_threads [16, 8]
        (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tM, %fM = transform.structured.tile_using_forall %prom num_threads [2, 2]
        (mapping = [#gpu.warp<linear_dim_1>, #gpu.warp<linear_dim_0>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tN, %nloop = transform.structured.tile_using_for %tM tile_sizes [0, 8, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.loop.unroll %nloop {factor = 2} : !transform.any_op
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op
    // 4. gpu.launch with a 32x32 grid of 32x4-thread blocks; a gpu.barrier
    //    after each thread-mapped scf.forall (copy A, copy B, matmul).
    %launch = transform.gpu.map_forall_to_blocks %func generate_gpu_launch grid_dims = [32, 32, 1]
        : (!transform.any_op) -> !transform.any_op
    %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [32, 4, 1]
        : (!transform.any_op) -> !transform.any_op
    // 5. The 16x8x16 matmuls -> nvgpu.mma.sync; the copies -> 1-D vector
    //    loads / stores.
    %warp_mms = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.nvgpu.rewrite_matmul_as_mma_sync %warp_mms : (!transform.any_op) -> ()
    %func2 = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %vec = transform.structured.vectorize_children_and_apply_patterns %func2 : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %vec {
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.transfer_to_scf max_transfer_rank = 1 full_unroll = true
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.vector.lower_shape_cast
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %vec : !transform.any_op
    transform.yield
  }

  // Upstream's own pipelining of the same kernel, as in
  // mlir/test/Dialect/NVGPU/transform-pipeline-shared.mlir: the 4/8/16-byte
  // global->shared copies to cp.async (nvgpu.device_async_copy, one group per
  // K iteration), every memref.alloc doubled (memref.multibuffer), the K-loop
  // pipelined with depth 2 (prologue + predicated steady state).
  // generate.sh <name> --upstream-pipelined; README.md says for which kernels
  // this works.
  transform.named_sequence @upstream_pipelined(%root: !transform.any_op {transform.readonly}) {
    transform.include @__transform_main failures(propagate) (%root) : (!transform.any_op) -> ()
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %async = transform.nvgpu.create_async_groups %func {bypass_l1} : (!transform.any_op) -> !transform.any_op
    %allocs = transform.structured.match ops{["memref.alloc"]} in %root : (!transform.any_op) -> !transform.op<"memref.alloc">
    %mb = transform.memref.multibuffer %allocs {factor = 2 : i64, skip_analysis} : (!transform.op<"memref.alloc">) -> !transform.any_op
    transform.apply_patterns to %async {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %async : !transform.any_op
    %kloop = transform.structured.match ops{["scf.for"]} in %root : (!transform.any_op) -> !transform.op<"scf.for">
    %pipelined = transform.nvgpu.pipeline_shared_memory_copies failures(propagate) %kloop {depth = 2}
        : (!transform.op<"scf.for">) -> !transform.any_op
    transform.yield
  }
}
