// 4096x4096x4096 matmul, f16 operands, f32 accumulation and result, with a user
// compilation_info: IREE's default TileAndFuse config for sm_86 (mma.sync
// m16n8k16 f16, reduction tile 2 x 16 = 32, promote_operands [0, 1]) with a
// 128x128 workgroup tile, subgroup tile [4, 4] intrinsics (64x32 per warp),
// 256 threads = 8 warps. (IREE's default: workgroup [128, 64], subgroup [4, 4], 128 threads.)
#config = #iree_gpu.lowering_config<{convert_acc_gemm, mma_kind = #iree_gpu.mma_layout<NV_MMA_SYNC_F32_16x8x16_F16>,
                                     promote_operands = [0, 1], reduction = [0, 0, 2],
                                     subgroup = [4, 4, 0], workgroup = [128, 128, 0]}>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse>
                 workgroup_size = [256, 1, 1] subgroup_size = 32,
                 {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>
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
