// batch_matmul 16 x (1024x1024x1024), f16 operands, f32 result.
func.func @main(%a: tensor<16x1024x1024xf16>, %b: tensor<16x1024x1024xf16>) -> tensor<16x1024x1024xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x1024x1024xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<16x1024x1024xf32>) -> tensor<16x1024x1024xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<16x1024x1024xf16>, tensor<16x1024x1024xf16>)
                           outs(%f : tensor<16x1024x1024xf32>) -> tensor<16x1024x1024xf32>
  return %r : tensor<16x1024x1024xf32>
}
