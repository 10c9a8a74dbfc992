// sgemm_f32_32x32x32_tb_bufferize: C += A * B^T (B stored N x K, a
// `linalg.matmul` with transposed-B indexing maps), f32, M = N = K = 1024.
// Block tile 32x32, K-tile 32, 64 threads (4x4 outputs per thread, FMA).
// Tensor path: the A/B K-slices get `structured.promote_tensor` to workgroup
// memory, `one_shot_bufferize` turns them into typed `memref.alloc`s (no
// dealloc), hoisted out of the K-loop with `buffer_loop_hoisting`. The A and B^T
// tiles have the same shape, so their thread loops are fused
// (`loop.fuse_sibling`): one barrier after the copies, one after the compute.
// Regenerate: test/upstream/generate.sh sgemm_f32_32x32x32_tb_bufferize
//             test/upstream/generate.sh sgemm_f32_32x32x32_tb_bufferize --upstream-pipelined
func.func @sgemm_f32_32x32x32_tb_bufferize(%A: memref<1024x1024xf32>, %B: memref<1024x1024xf32>, %C: memref<1024x1024xf32>) {
  %a = bufferization.to_tensor %A restrict : memref<1024x1024xf32> to tensor<1024x1024xf32>
  %b = bufferization.to_tensor %B restrict : memref<1024x1024xf32> to tensor<1024x1024xf32>
  %c = bufferization.to_tensor %C restrict writable : memref<1024x1024xf32> to tensor<1024x1024xf32>
  %r = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>)
                     outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  bufferization.materialize_in_destination %r in restrict writable %C
      : (tensor<1024x1024xf32>, memref<1024x1024xf32>) -> ()
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // 1. Blocks: 32x32 output tiles, K-loop of 32 (on tensors).
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %blk, %grid = transform.structured.tile_using_forall %mm tile_sizes [32, 32]
        (mapping = [#gpu.block<y>, #gpu.block<x>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %kt, %kloop = transform.structured.tile_using_for %blk tile_sizes [0, 0, 32] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // 2. The A and B slices live in workgroup memory; bufferize; hoist the
    //    allocations out of the K-loop.
    %lhs = transform.get_operand %kt[0] : (!transform.any_op) -> !transform.any_value
    %rhs = transform.get_operand %kt[1] : (!transform.any_op) -> !transform.any_value
    %plhs = transform.structured.promote_tensor to #gpu.address_space<workgroup> %lhs : !transform.any_value
    %prhs = transform.structured.promote_tensor to #gpu.address_space<workgroup> %rhs : !transform.any_value
    %func0 = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %buf = transform.bufferization.one_shot_bufferize %func0 {memcpy_op = "linalg.copy"} : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %buf {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %buf : !transform.any_op
    transform.apply_patterns to %buf {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.bufferization.buffer_loop_hoisting %buf : !transform.any_op
    // 3. Threads: each copy as 8x8 threads of 4x4 pieces, the two copy loops
    //    fused, the matmul as 8x8 threads of 4x4 outputs.
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %copyA, %copyB = transform.split_handle %copies : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tA, %fA = transform.structured.tile_using_forall %copyA num_threads [8, 8]
        (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tB, %fB = transform.structured.tile_using_forall %copyB num_threads [8, 8]
        (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fAB = transform.loop.fuse_sibling %fA into %fB : (!transform.any_op, !transform.any_op) -> !transform.any_op
    %mm2 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %tM, %fM = transform.structured.tile_using_forall %mm2 num_threads [8, 8]
        (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op
    // 4. gpu.launch with a 32x32 grid of 64-thread blocks; a gpu.barrier after
    //    each thread-mapped scf.forall (copies, matmul).
    %launch = transform.gpu.map_forall_to_blocks %func generate_gpu_launch grid_dims = [32, 32, 1]
        : (!transform.any_op) -> !transform.any_op
    %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [64, 1, 1]
        : (!transform.any_op) -> !transform.any_op
    // 5. Vectorize; fold the subviews into the transfers so that the read and
    //    write of the C tile match and hoist into iter_args of the K-loop.
    %func2 = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %vec = transform.structured.vectorize_children_and_apply_patterns %func2 : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %vec {
      transform.apply_patterns.memref.fold_memref_alias_ops
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %vec : !transform.any_op
    %hoisted = transform.structured.hoist_redundant_vector_transfers %vec : (!transform.any_op) -> !transform.any_op
    // 6. 1-D vectors: contraction -> outer products -> vector.fma, transfers ->
    //    vector.load / vector.store.
    transform.apply_patterns to %hoisted {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.transfer_to_scf max_transfer_rank = 1 full_unroll = true
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.vector.lower_outerproduct
      transform.apply_patterns.vector.lower_broadcast
      transform.apply_patterns.vector.lower_transpose
      transform.apply_patterns.vector.lower_shape_cast
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %hoisted : !transform.any_op
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
