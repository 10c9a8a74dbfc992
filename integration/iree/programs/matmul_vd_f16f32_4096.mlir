// 4096^3 f16 -> f32 matmul with a user compilation_info selecting IREE's
// VectorDistribute pipeline (mma.sync 16x8x16, 64x64x32 tiles, 2x2 subgroups).
#config = #iree_gpu.lowering_config<{workgroup = [64, 64, 0], reduction = [0, 0, 32],
                                     promote_operands = [0, 1],
                                     mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>,
                                     subgroup_basis = [[2, 2, 1], [0, 1, 2]]}>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<VectorDistribute>
                 workgroup_size = [128, 1, 1] subgroup_size = 32,
                 {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2>}>
#compilation = #iree_codegen.compilation_info<lowering_config = #config, translation_info = #translation>
func.func @main(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>) -> tensor<4096x4096xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x4096xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %r = linalg.matmul {compilation_info = #compilation}
         ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>)
         outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}
