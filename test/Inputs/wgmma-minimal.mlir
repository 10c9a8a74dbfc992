// One 128x128x64 wgmma (FP16 -> FP32) of one warpgroup on tiles already in
// shared memory, stored to C: no K-loop. The smallest kernel that needs the
// sm_90a target (test/pk-emit-binaries*.mlir). The tensor-map operand of
// nvgpu.warpgroup.generate.descriptor only carries the swizzle mode.
!tmA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!dA = !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
!dB = !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
module attributes {gpu.container_module} {
  gpu.module @wgmma_minimal {
    gpu.func @wgmma_minimal(%C: memref<128x128xf32>)
        workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64},
                  %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %null = llvm.mlir.zero : !llvm.ptr
      %tmA = builtin.unrealized_conversion_cast %null : !llvm.ptr to !tmA
      %tmB = builtin.unrealized_conversion_cast %null : !llvm.ptr to !tmB
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmA : memref<128x64xf16, #gpu.address_space<workgroup>>, !tmA -> !dA
      %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !tmB -> !dB
      %acc = nvgpu.warpgroup.mma %dA, %dB, %acc0 {transposeB, waitGroup = 0 : i64} : !dA, !dB, !acc -> !acc
      nvgpu.warpgroup.mma.store %acc, %C : !acc to memref<128x128xf32>
      gpu.return
    }
  }
}
