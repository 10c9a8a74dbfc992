// 4096^3 f32 matmul with a user compilation_info: TileAndFuse with both
// operands promoted to shared memory (64x64x16 tiles, 4x4 per thread, 256 threads).
#config = #iree_gpu.lowering_config<{workgroup = [64, 64, 0], reduction = [0, 0, 16],
                                     thread = [4, 4, 0], promote_operands = [0, 1]}>
#translation = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse>
                 workgroup_size = [256, 1, 1] subgroup_size = 32>
#compilation = #iree_codegen.compilation_info<lowering_config = #config, translation_info = #translation>
func.func @main(%a: tensor<4096x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<4096x4096xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x4096xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  %r = linalg.matmul {compilation_info = #compilation}
         ins(%a, %b : tensor<4096x4096xf32>, tensor<4096x4096xf32>)
         outs(%f : tensor<4096x4096xf32>) -> tensor<4096x4096xf32>
  return %r : tensor<4096x4096xf32>
}
