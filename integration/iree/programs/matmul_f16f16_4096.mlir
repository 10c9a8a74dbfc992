// 4096x4096x4096 matmul, f16 operands, f16 result.
func.func @main(%a: tensor<4096x4096xf16>, %b: tensor<4096x4096xf16>) -> tensor<4096x4096xf16> {
  %cst = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4096x4096xf16>
  %f = linalg.fill ins(%cst : f16) outs(%e : tensor<4096x4096xf16>) -> tensor<4096x4096xf16>
  %r = linalg.matmul ins(%a, %b : tensor<4096x4096xf16>, tensor<4096x4096xf16>)
                     outs(%f : tensor<4096x4096xf16>) -> tensor<4096x4096xf16>
  return %r : tensor<4096x4096xf16>
}
