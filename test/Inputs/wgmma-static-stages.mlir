// A small wgmma K-loop (one 64x64x64 wgmma of one warpgroup per K tile, the
// proxy fence after the stores, waitGroup = 0) whose 72-row A tile (9216
// bytes, a multiple of 1024) stays in static shared memory when
// multi-buffered: test/pk-pipeline-kloops.mlir (WGMMA-STATIC) checks that
// the attribution keeps its 1024-byte alignment and the descriptor points
// at the stage. Not a numerically meaningful kernel.
!tmA = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!dA = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @wgmma_static_stages(%A: memref<64x512xf16>, %C: memref<64x64xf32>)
        workgroup(%sA: memref<72x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c512 = arith.constant 512 : index
      %tid = gpu.thread_id x
      %null = llvm.mlir.zero : !llvm.ptr
      %tm = builtin.unrealized_conversion_cast %null : !llvm.ptr to !tmA
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %r = scf.for %k = %c0 to %c512 step %c64 iter_args(%acc = %acc0) -> (!acc) {
        %v = vector.load %A[%c0, %k] : memref<64x512xf16>, vector<8xf16>
        vector.store %v, %sA[%tid, %c0] : memref<72x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        gpu.barrier
        %dA = nvgpu.warpgroup.generate.descriptor %sA, %tm : memref<72x64xf16, #gpu.address_space<workgroup>>, !tmA -> !dA
        %d = nvgpu.warpgroup.mma %dA, %dA, %acc {transposeB, waitGroup = 0 : i64} : !dA, !dA, !acc -> !acc
        gpu.barrier
        scf.yield %d : !acc
      }
      nvgpu.warpgroup.mma.store %r, %C : !acc to memref<64x64xf32>
      gpu.return
    }
  }
}
