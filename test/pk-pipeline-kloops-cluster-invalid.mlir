// RUN: pk-opt %s -split-input-file -verify-diagnostics --pk-pipeline-kloops='arch=sm_90a' -o /dev/null
//
// Clusters (docs/input-contract.md "Clusters"): a TMA K-loop whose B load
// multicasts to both blocks of a 1x2 cluster (each block loads its rank's
// slab for both). pk pipelines the protocol below and declines, at the op,
// a kernel without a cluster of 2, a mask that leaves a block out, a loop
// without the cluster barrier that releases the tiles, and a kernel whose
// mbarrier init does not reach the other block before the loop (no cluster
// barrier after it, or a relaxed one without nvvm.fence.mbarrier.init).
// The generated persistent kernels: test/e2e/pipeline-kernel-cluster.test.

gpu.module @cluster_ok {
  gpu.func @cluster_ok(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
      workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
      kernel attributes {nvvm.minctasm = 1 : i32, nvvm.cluster_dim = array<i32: 1, 2, 1>, known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %c32768 = arith.constant 32768 : index
    %c10000000 = arith.constant 10000000 : index
    %mask = arith.constant 3 : i16
    %tid = gpu.thread_id x
    %bm = arith.muli %tid, %c0 : index
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank32 : i32 to index
    %col = arith.muli %rank, %c64 : index
    %tmA = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    %tmB = builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    %t0 = arith.cmpi eq, %tid, %c0 : index
    %mbar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    scf.if %t0 {
      nvgpu.mbarrier.init %mbar[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      nvvm.fence.mbarrier.init
    }
    nvvm.cluster.arrive.relaxed
    nvvm.cluster.wait
    %sBr = memref.subview %sB[%rank, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
    %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
    // expected-remark @below {{pipelined: variant tma, 2 shared buffer(s)}}
    %res = scf.for %k = %c0 to %c1024 step %c64 iter_args(%acc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
      nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmA[%k, %bm], %mbar[%c0] to %sA, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<128x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmB[%col, %k], %mbar[%c0] to %sBr multicast_mask = %mask, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
      %kt = arith.divui %k, %c64 : index
      %kt2 = arith.remui %kt, %c2 : index
      %par = arith.index_cast %kt2 : index to i1
      nvgpu.mbarrier.try_wait.parity %mbar[%c0], %par, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmA : memref<128x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
      %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
      %acc_next = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      nvvm.cluster.arrive.relaxed {aligned}
      nvvm.cluster.wait {aligned}
      gpu.barrier
      scf.yield %acc_next : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
    }
    gpu.return
  }
}

// -----

gpu.module @cluster_no_dim {
  gpu.func @cluster_no_dim(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
      workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
      kernel attributes {nvvm.minctasm = 1 : i32, known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %c32768 = arith.constant 32768 : index
    %c10000000 = arith.constant 10000000 : index
    %mask = arith.constant 3 : i16
    %tid = gpu.thread_id x
    %bm = arith.muli %tid, %c0 : index
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank32 : i32 to index
    %col = arith.muli %rank, %c64 : index
    %tmA = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    %tmB = builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    %t0 = arith.cmpi eq, %tid, %c0 : index
    %mbar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    scf.if %t0 {
      nvgpu.mbarrier.init %mbar[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      nvvm.fence.mbarrier.init
    }
    nvvm.cluster.arrive.relaxed
    nvvm.cluster.wait
    %sBr = memref.subview %sB[%rank, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
    %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
    // expected-note @below {{in this K-loop}}
    %res = scf.for %k = %c0 to %c1024 step %c64 iter_args(%acc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
      nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmA[%k, %bm], %mbar[%c0] to %sA, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<128x64xf16, #gpu.address_space<workgroup>>
      // expected-remark @below {{not pipelined: not a pk K-loop: TMA K-loop: multicast TMA loads need a cluster of 2 blocks (nvvm.cluster_dim); the kernel's has 1}}
      nvgpu.tma.async.load %tmB[%col, %k], %mbar[%c0] to %sBr multicast_mask = %mask, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
      %kt = arith.divui %k, %c64 : index
      %kt2 = arith.remui %kt, %c2 : index
      %par = arith.index_cast %kt2 : index to i1
      nvgpu.mbarrier.try_wait.parity %mbar[%c0], %par, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmA : memref<128x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
      %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
      %acc_next = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      nvvm.cluster.arrive.relaxed {aligned}
      nvvm.cluster.wait {aligned}
      gpu.barrier
      scf.yield %acc_next : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
    }
    gpu.return
  }
}

// -----

gpu.module @cluster_mask {
  gpu.func @cluster_mask(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
      workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
      kernel attributes {nvvm.minctasm = 1 : i32, nvvm.cluster_dim = array<i32: 1, 2, 1>, known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %c32768 = arith.constant 32768 : index
    %c10000000 = arith.constant 10000000 : index
    %mask = arith.constant 1 : i16
    %tid = gpu.thread_id x
    %bm = arith.muli %tid, %c0 : index
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank32 : i32 to index
    %col = arith.muli %rank, %c64 : index
    %tmA = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    %tmB = builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    %t0 = arith.cmpi eq, %tid, %c0 : index
    %mbar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    scf.if %t0 {
      nvgpu.mbarrier.init %mbar[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      nvvm.fence.mbarrier.init
    }
    nvvm.cluster.arrive.relaxed
    nvvm.cluster.wait
    %sBr = memref.subview %sB[%rank, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
    %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
    // expected-note @below {{in this K-loop}}
    %res = scf.for %k = %c0 to %c1024 step %c64 iter_args(%acc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
      nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmA[%k, %bm], %mbar[%c0] to %sA, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<128x64xf16, #gpu.address_space<workgroup>>
      // expected-remark @below {{not pipelined: not a pk K-loop: TMA K-loop: pk pipelines multicast to every block of the cluster (multicast_mask = 3); this mask is not that constant}}
      nvgpu.tma.async.load %tmB[%col, %k], %mbar[%c0] to %sBr multicast_mask = %mask, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
      %kt = arith.divui %k, %c64 : index
      %kt2 = arith.remui %kt, %c2 : index
      %par = arith.index_cast %kt2 : index to i1
      nvgpu.mbarrier.try_wait.parity %mbar[%c0], %par, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmA : memref<128x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
      %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
      %acc_next = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      nvvm.cluster.arrive.relaxed {aligned}
      nvvm.cluster.wait {aligned}
      gpu.barrier
      scf.yield %acc_next : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
    }
    gpu.return
  }
}

// -----

gpu.module @cluster_no_release {
  gpu.func @cluster_no_release(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
      workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
      kernel attributes {nvvm.minctasm = 1 : i32, nvvm.cluster_dim = array<i32: 1, 2, 1>, known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %c32768 = arith.constant 32768 : index
    %c10000000 = arith.constant 10000000 : index
    %mask = arith.constant 3 : i16
    %tid = gpu.thread_id x
    %bm = arith.muli %tid, %c0 : index
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank32 : i32 to index
    %col = arith.muli %rank, %c64 : index
    %tmA = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    %tmB = builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    %t0 = arith.cmpi eq, %tid, %c0 : index
    %mbar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    scf.if %t0 {
      nvgpu.mbarrier.init %mbar[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      nvvm.fence.mbarrier.init
    }
    nvvm.cluster.arrive.relaxed
    nvvm.cluster.wait
    %sBr = memref.subview %sB[%rank, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
    %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
    // expected-note @below {{in this K-loop}}
    %res = scf.for %k = %c0 to %c1024 step %c64 iter_args(%acc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
      nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmA[%k, %bm], %mbar[%c0] to %sA, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<128x64xf16, #gpu.address_space<workgroup>>
      // expected-remark @below {{not pipelined: not a pk K-loop: TMA K-loop: multicast TMA loads write the other block's tiles; the K-loop needs a cluster barrier (nvvm.cluster.arrive, nvvm.cluster.wait) after its compute, before its gpu.barrier}}
      nvgpu.tma.async.load %tmB[%col, %k], %mbar[%c0] to %sBr multicast_mask = %mask, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
      %kt = arith.divui %k, %c64 : index
      %kt2 = arith.remui %kt, %c2 : index
      %par = arith.index_cast %kt2 : index to i1
      nvgpu.mbarrier.try_wait.parity %mbar[%c0], %par, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmA : memref<128x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
      %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
      %acc_next = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      gpu.barrier
      scf.yield %acc_next : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
    }
    gpu.return
  }
}

// -----

gpu.module @cluster_no_init_sync {
  gpu.func @cluster_no_init_sync(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
      workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
      kernel attributes {nvvm.minctasm = 1 : i32, nvvm.cluster_dim = array<i32: 1, 2, 1>, known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %c32768 = arith.constant 32768 : index
    %c10000000 = arith.constant 10000000 : index
    %mask = arith.constant 3 : i16
    %tid = gpu.thread_id x
    %bm = arith.muli %tid, %c0 : index
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank32 : i32 to index
    %col = arith.muli %rank, %c64 : index
    %tmA = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    %tmB = builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    %t0 = arith.cmpi eq, %tid, %c0 : index
    %mbar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    // expected-note @below {{the mbarrier is initialised here}}
    scf.if %t0 {
      nvgpu.mbarrier.init %mbar[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      nvvm.fence.mbarrier.init
    }
    gpu.barrier
    %sBr = memref.subview %sB[%rank, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
    %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
    // expected-note @below {{in this K-loop}}
    %res = scf.for %k = %c0 to %c1024 step %c64 iter_args(%acc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
      nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmA[%k, %bm], %mbar[%c0] to %sA, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<128x64xf16, #gpu.address_space<workgroup>>
      // expected-remark @below {{not pipelined: not a pk K-loop: TMA K-loop: multicast TMA loads complete on the other block's mbarrier; a cluster barrier (nvvm.cluster.arrive, nvvm.cluster.wait) must follow its nvgpu.mbarrier.init before the loop}}
      nvgpu.tma.async.load %tmB[%col, %k], %mbar[%c0] to %sBr multicast_mask = %mask, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
      %kt = arith.divui %k, %c64 : index
      %kt2 = arith.remui %kt, %c2 : index
      %par = arith.index_cast %kt2 : index to i1
      nvgpu.mbarrier.try_wait.parity %mbar[%c0], %par, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmA : memref<128x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
      %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
      %acc_next = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      nvvm.cluster.arrive.relaxed {aligned}
      nvvm.cluster.wait {aligned}
      gpu.barrier
      scf.yield %acc_next : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
    }
    gpu.return
  }
}

// -----

gpu.module @cluster_no_fence {
  gpu.func @cluster_no_fence(%A: memref<1024x1024xf16>, %B: memref<1024x1024xf16>, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
      workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
      kernel attributes {nvvm.minctasm = 1 : i32, nvvm.cluster_dim = array<i32: 1, 2, 1>, known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c1024 = arith.constant 1024 : index
    %c32768 = arith.constant 32768 : index
    %c10000000 = arith.constant 10000000 : index
    %mask = arith.constant 3 : i16
    %tid = gpu.thread_id x
    %bm = arith.muli %tid, %c0 : index
    %rank32 = nvvm.read.ptx.sreg.cluster.ctarank : i32
    %rank = arith.index_cast %rank32 : i32 to index
    %col = arith.muli %rank, %c64 : index
    %tmA = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    %tmB = builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
    %t0 = arith.cmpi eq, %tid, %c0 : index
    %mbar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
    // expected-note @below {{the mbarrier is initialised here}}
    scf.if %t0 {
      nvgpu.mbarrier.init %mbar[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    }
    // expected-remark @below {{not pipelined: not a pk K-loop: TMA K-loop: multicast TMA loads complete on the other block's mbarrier; with a relaxed cluster arrive after its init, a nvvm.fence.mbarrier.init must follow every nvgpu.mbarrier.init of it}}
    nvvm.cluster.arrive.relaxed
    nvvm.cluster.wait
    %sBr = memref.subview %sB[%rank, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
    %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
    // expected-note @below {{in this K-loop}}
    %res = scf.for %k = %c0 to %c1024 step %c64 iter_args(%acc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
      nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmA[%k, %bm], %mbar[%c0] to %sA, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<128x64xf16, #gpu.address_space<workgroup>>
      nvgpu.tma.async.load %tmB[%col, %k], %mbar[%c0] to %sBr multicast_mask = %mask, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
      %kt = arith.divui %k, %c64 : index
      %kt2 = arith.remui %kt, %c2 : index
      %par = arith.index_cast %kt2 : index to i1
      nvgpu.mbarrier.try_wait.parity %mbar[%c0], %par, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmA : memref<128x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
      %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
      %acc_next = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      nvvm.cluster.arrive.relaxed {aligned}
      nvvm.cluster.wait {aligned}
      gpu.barrier
      scf.yield %acc_next : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
    }
    gpu.return
  }
}
