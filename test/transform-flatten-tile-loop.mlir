// RUN: pk-opt %s -split-input-file -transform-interpreter -verify-diagnostics | FileCheck %s

// transform.pk.flatten_tile_loop, as an embedding compiler would drive it:
// the persistent kernel's tile loop (marked {tile} for the match) becomes
// one loop over (tile, k-step), which transform.pk.pipeline_kloop then
// pipelines across the tile boundary (the TMA ring, 4 stages, one wgmma
// group in flight).

// CHECK-LABEL: gpu.func @persistent
// CHECK-NOT: {tile}
// CHECK: scf.for
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.warpgroup.mma
// CHECK: scf.if %{{.*}} -> (!nvgpu.warpgroup.accumulator
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvgpu.warpgroup.mma.store
// CHECK: } {pk.tile_epilogue}
// CHECK: } {pk.pipelined}

!tmA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!mbar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<2x64x64xf16, #gpu.address_space<workgroup>>
!slab0 = memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
!slab1 = memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
!dA = !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
!dB = !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
!cblk = memref<128x128xf32, strided<[256, 1], offset: ?>>

module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @persistent {
    gpu.func @persistent(%C: memref<256x256xf32> {llvm.noalias}, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
        workgroup(%sA : !sA {llvm.align = 1024 : i64}, %sB : !sB {llvm.align = 1024 : i64})
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c32768 = arith.constant 32768 : index
      %c10000000 = arith.constant 10000000 : index
      %tid = gpu.thread_id x
      %tmA = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !tmA
      %tmB = builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to !tmB
      %t0 = arith.cmpi eq, %tid, %c0 : index
      %mbar = nvgpu.mbarrier.create -> !mbar
      scf.if %t0 {
        nvgpu.mbarrier.init %mbar[%c0], %c1 : !mbar
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      }
      gpu.barrier
      %sB_0 = memref.subview %sB[0, 0, 0] [1, 64, 64] [1, 1, 1] : !sB to !slab0
      %sB_1 = memref.subview %sB[1, 0, 0] [1, 64, 64] [1, 1, 1] : !sB to !slab1
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %bid = gpu.block_id x
      %nblk = gpu.grid_dim x
      scf.for %tile = %bid to %c4 step %nblk {
        %tm = arith.divui %tile, %c2 : index
        %tn = arith.remui %tile, %c2 : index
        %bm = arith.muli %tm, %c128 : index
        %bn = arith.muli %tn, %c128 : index
        %gb_col1 = arith.addi %bn, %c64 : index

        %res = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %acc0) -> (!acc) {
          nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !mbar
          nvgpu.tma.async.load %tmA[%k, %bm], %mbar[%c0] to %sA, predicate = %t0 : !tmA, !mbar -> !sA
          nvgpu.tma.async.load %tmB[%bn, %k], %mbar[%c0] to %sB_0, predicate = %t0 : !tmB, !mbar -> !slab0
          nvgpu.tma.async.load %tmB[%gb_col1, %k], %mbar[%c0] to %sB_1, predicate = %t0 : !tmB, !mbar -> !slab1
          %kt = arith.divui %k, %c64 : index
          %kt2 = arith.remui %kt, %c2 : index
          %par = arith.index_cast %kt2 : index to i1
          nvgpu.mbarrier.try_wait.parity %mbar[%c0], %par, %c10000000 : !mbar
          %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmA : !sA, !tmA -> !dA
          %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmB : !sB, !tmB -> !dB
          %acc_next = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !dA, !dB, !acc -> !acc
          gpu.barrier
          scf.yield %acc_next : !acc
        }
        %C_blk = memref.subview %C[%bm, %bn] [128, 128] [1, 1] : memref<256x256xf32> to !cblk

        nvgpu.warpgroup.mma.store %res, %C_blk : !acc to !cblk
      } {tile}
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %tiles = transform.structured.match ops{["scf.for"]} attributes{tile} in %root : (!transform.any_op) -> !transform.any_op
    %flat = transform.pk.flatten_tile_loop %tiles : (!transform.any_op) -> !transform.any_op
    %l, %p, %e = transform.pk.pipeline_kloop %flat {arch = "sm_90a", variant = "tma", schedule = "mma-in-flight", stages = 4, min_blocks_per_sm = 1} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}

// -----

// An epilogue that synchronizes: a silenceable failure that says why, with
// notes at the loop and at the mbarrier arrive (the failed sequence prints no IR).

!tmA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!mbar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<2x64x64xf16, #gpu.address_space<workgroup>>
!slab0 = memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
!slab1 = memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
!dA = !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
!dB = !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
!cblk = memref<128x128xf32, strided<[256, 1], offset: ?>>

module attributes {gpu.container_module, transform.with_named_sequence} {
  gpu.module @persistent {
    gpu.func @persistent(%C: memref<256x256xf32> {llvm.noalias}, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
        workgroup(%sA : !sA {llvm.align = 1024 : i64}, %sB : !sB {llvm.align = 1024 : i64})
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c32768 = arith.constant 32768 : index
      %c10000000 = arith.constant 10000000 : index
      %tid = gpu.thread_id x
      %tmA = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !tmA
      %tmB = builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to !tmB
      %t0 = arith.cmpi eq, %tid, %c0 : index
      %mbar = nvgpu.mbarrier.create -> !mbar
      scf.if %t0 {
        nvgpu.mbarrier.init %mbar[%c0], %c1 : !mbar
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      }
      gpu.barrier
      %sB_0 = memref.subview %sB[0, 0, 0] [1, 64, 64] [1, 1, 1] : !sB to !slab0
      %sB_1 = memref.subview %sB[1, 0, 0] [1, 64, 64] [1, 1, 1] : !sB to !slab1
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      %bid = gpu.block_id x
      %nblk = gpu.grid_dim x
      // expected-note @+1 {{pk declined this loop}}
      scf.for %tile = %bid to %c4 step %nblk {
        %tm = arith.divui %tile, %c2 : index
        %tn = arith.remui %tile, %c2 : index
        %bm = arith.muli %tm, %c128 : index
        %bn = arith.muli %tn, %c128 : index
        %gb_col1 = arith.addi %bn, %c64 : index

        %res = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %acc0) -> (!acc) {
          nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !mbar
          nvgpu.tma.async.load %tmA[%k, %bm], %mbar[%c0] to %sA, predicate = %t0 : !tmA, !mbar -> !sA
          nvgpu.tma.async.load %tmB[%bn, %k], %mbar[%c0] to %sB_0, predicate = %t0 : !tmB, !mbar -> !slab0
          nvgpu.tma.async.load %tmB[%gb_col1, %k], %mbar[%c0] to %sB_1, predicate = %t0 : !tmB, !mbar -> !slab1
          %kt = arith.divui %k, %c64 : index
          %kt2 = arith.remui %kt, %c2 : index
          %par = arith.index_cast %kt2 : index to i1
          nvgpu.mbarrier.try_wait.parity %mbar[%c0], %par, %c10000000 : !mbar
          %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmA : !sA, !tmA -> !dA
          %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmB : !sB, !tmB -> !dB
          %acc_next = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !dA, !dB, !acc -> !acc
          gpu.barrier
          scf.yield %acc_next : !acc
        }
        %C_blk = memref.subview %C[%bm, %bn] [128, 128] [1, 1] : memref<256x256xf32> to !cblk
        // expected-note @+1 {{this operation}}
        %tok = nvgpu.mbarrier.arrive %mbar[%c0] : !mbar -> !nvgpu.mbarrier.token
        nvgpu.warpgroup.mma.store %res, %C_blk : !acc to !cblk
      } {tile}
      gpu.return
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %tiles = transform.structured.match ops{["scf.for"]} attributes{tile} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @+1 {{tile loop not flattened: tile epilogue: 'nvgpu.mbarrier.arrive' cannot run while the next tile's loads fill the shared stages: it synchronizes with other threads or the TMA unit}}
    %flat = transform.pk.flatten_tile_loop %tiles : (!transform.any_op) -> !transform.any_op
    %l, %p, %e = transform.pk.pipeline_kloop %flat {arch = "sm_90a", variant = "tma", schedule = "mma-in-flight", stages = 4, min_blocks_per_sm = 1} : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
