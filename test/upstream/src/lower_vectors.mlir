// Step 6 of the recipe (test/upstream/README.md) as a transform library:
// n-D vector.transfer_read/write and vector.contract down to 1-D
// vector.load/store and vector.fma. sgemm_f32_64x64x16_vectorize_only stops
// before this step, and upstream's --gpu-lower-to-nvvm-pipeline lowers no
// vector.transfer op inside a gpu.module, so pipeline.test applies it to
// that kernel (pipelined or not) before lowering:
//   mlir-opt K.mlir --transform-preload-library=transform-library-paths=src/lower_vectors.mlir --transform-interpreter
// Not a kernel source: generate.sh does not list it.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %funcs = transform.structured.match ops{["gpu.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %funcs {
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
    transform.yield
  }
}
