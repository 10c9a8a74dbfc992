// 4096x4096x4096 matmul, i8 operands, i32 accumulation and result.
func.func @main(%a: tensor<4096x4096xi8>, %b: tensor<4096x4096xi8>) -> tensor<4096x4096xi32> {
  %c0 = arith.constant 0 : i32
  %e = tensor.empty() : tensor<4096x4096xi32>
  %f = linalg.fill ins(%c0 : i32) outs(%e : tensor<4096x4096xi32>) -> tensor<4096x4096xi32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x4096xi8>, tensor<4096x4096xi8>)
                     outs(%f : tensor<4096x4096xi32>) -> tensor<4096x4096xi32>
  return %r : tensor<4096x4096xi32>
}
