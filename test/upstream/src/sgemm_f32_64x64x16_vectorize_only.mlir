// sgemm_f32_64x64x16_vectorize_only: C += A * B, f32, M = N = K = 512.
// Block tile 64x64, K-tile 16, 256 threads (4x4 outputs per thread, FMA).
// A/B tiles promoted with `structured.promote {use_alloca}` and turned into
// `memref.global` in workgroup memory with `memref.alloca_to_global`.
// Only vectorized (the naive end of the recipe): the 2-D
// vector.transfer_read/write (vector<1x4xf32> copies), the memref.subview
// chains and vector.contract stay; the C tile is not hoisted (the transfers
// go through subviews), so it is read and written in every K iteration.
// Regenerate: test/upstream/generate.sh sgemm_f32_64x64x16_vectorize_only
func.func @sgemm_f32_64x64x16_vectorize_only(%A: memref<512x512xf32>, %B: memref<512x512xf32>, %C: memref<512x512xf32>) {
  linalg.matmul ins(%A, %B : memref<512x512xf32>, memref<512x512xf32>)
                outs(%C : memref<512x512xf32>)
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // 1. Blocks: 64x64 output tiles, K-loop of 16.
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %blk, %grid = transform.structured.tile_using_forall %mm tile_sizes [64, 64]
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
    // 3. Threads: each copy as 1x4 (16-byte) pieces over the 256 threads, the
    //    matmul as 16x16 threads of 4x4 outputs.
    %copies = transform.structured.match ops{["linalg.copy"]} in %root : (!transform.any_op) -> !transform.any_op
    %copyA, %copyB = transform.split_handle %copies : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tA, %fA = transform.structured.tile_using_forall %copyA num_threads [64, 4]
        (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tB, %fB = transform.structured.tile_using_forall %copyB num_threads [16, 16]
        (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tM, %fM = transform.structured.tile_using_forall %prom num_threads [16, 16]
        (mapping = [#gpu.thread<linear_dim_1>, #gpu.thread<linear_dim_0>]) : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %func = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func {
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_cse to %func : !transform.any_op
    // 4. gpu.launch with an 8x8 grid of 256-thread blocks; a gpu.barrier after
    //    each thread-mapped scf.forall (copy A, copy B, matmul).
    %launch = transform.gpu.map_forall_to_blocks %func generate_gpu_launch grid_dims = [8, 8, 1]
        : (!transform.any_op) -> !transform.any_op
    %mapped = transform.gpu.map_nested_forall_to_threads %launch block_dims = [256, 1, 1]
        : (!transform.any_op) -> !transform.any_op
    // 5. Vectorize only.
    %func2 = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %vec = transform.structured.vectorize_children_and_apply_patterns %func2 : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %vec {
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
