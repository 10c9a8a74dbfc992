// RUN: pk-opt %s -split-input-file -verify-diagnostics --pipeline-kernel='arch=sm_90a variant=tma schedule=mma-in-flight stages=4 min-blocks-per-sm=1' -o /dev/null

// pipeline-kernel on persistent kernels with a TMA-store epilogue
// (docs/input-contract.md "Persistent kernels"): the stores write the
// memref their map's pk.tensor_map_of names, checked against the loads.
// The accepted form: test/e2e/pipeline-kernel-persistent.test (TS).

// A TMA-store epilogue that stores through a map describing A, which the
// K-loop loads through a map describing A too: declined (the next tile's
// loads would read what this tile stores), the nest restored.

!tmA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmC = !nvgpu.tensormap.descriptor<tensor = memref<128x32xf32, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!mbar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<2x64x64xf16, #gpu.address_space<workgroup>>
!sC = memref<128x32xf32, #gpu.address_space<workgroup>>
!slab0 = memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
!slab1 = memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
!dA = !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
!dB = !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
!cblk = memref<128x128xf32, strided<[256, 1], offset: ?>>
!tmC16 = !nvgpu.tensormap.descriptor<tensor = memref<128x32xf16, 3>, swizzle = swizzle_64b, l2promo = none, oob = zero, interleave = none>
!sC16 = memref<128x32xf16, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @+1 {{kernel @k: its tile loop is restored: the flattened loop was not pipelined, and flattening alone gains nothing}}
    gpu.func @k(%A: memref<256x256xf16> {llvm.noalias}, %B: memref<256x256xf16>, %C: memref<256x256xf32> {llvm.noalias}, %tmaA: !llvm.ptr {pk.tensor_map_of = 0 : i64}, %tmaB: !llvm.ptr, %tmaC: !llvm.ptr {pk.tensor_map_of = 2 : i64})
        workgroup(%sA : !sA {llvm.align = 1024 : i64}, %sB : !sB {llvm.align = 1024 : i64}, %sC : !sC {llvm.align = 1024 : i64}, %sC16 : !sC16 {llvm.align = 1024 : i64})
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
      %tmC = builtin.unrealized_conversion_cast %tmaC : !llvm.ptr to !tmC
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
      %tmA16 = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !tmC16

      %bid = gpu.block_id x
      %nblk = gpu.grid_dim x
      // expected-remark @+2 {{tile loop flattened: one loop over (tile, k-step), 4 k-steps per tile, the tile's epilogue on its last k-step; pipelining it runs the next t}}
      // expected-note @+1 {{in this K-loop candidate}}
      scf.for %tile = %bid to %c4 step %nblk {
        %tm = arith.divui %tile, %c2 : index
        %tn = arith.remui %tile, %c2 : index
        %bm = arith.muli %tm, %c128 : index
        %bn = arith.muli %tn, %c128 : index
        %gb_col1 = arith.addi %bn, %c64 : index
        %res = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %acc0) -> (!acc) {
          nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !mbar
          // expected-remark @+1 {{not a pk K-loop: load phase reads the memory the compute phase writes: the next tiles' loads cannot move ahead of the compute}}
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

        scf.if %t0 {
          nvvm.cp.async.bulk.wait_group 0 {read}
        }
        gpu.barrier
        %v = arith.constant 1.0 : f32
        memref.store %v, %sC[%tid, %c0] : !sC
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        gpu.barrier
        %h = arith.constant 1.0 : f16
        memref.store %h, %sC16[%tid, %c0] : !sC16
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        gpu.barrier
        scf.if %t0 {
          nvgpu.tma.async.store %sC16 to %tmA16[%bn, %bm] : !sC16 -> !tmC16
          nvvm.cp.async.bulk.commit.group
        }

      }
      scf.if %t0 {
        nvvm.cp.async.bulk.wait_group 0
      }

      gpu.return
    }
  }
}

// -----

// A TMA store into an output that is not llvm.noalias (argument #6): pk
// cannot prove the TMA loads do not read it; the remark says which
// argument to mark.

!tmA = !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmB = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!tmC = !nvgpu.tensormap.descriptor<tensor = memref<128x32xf32, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!mbar = !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
!sA = memref<128x64xf16, #gpu.address_space<workgroup>>
!sB = memref<2x64x64xf16, #gpu.address_space<workgroup>>
!sC = memref<128x32xf32, #gpu.address_space<workgroup>>
!slab0 = memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
!slab1 = memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
!dA = !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
!dB = !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
!cblk = memref<128x128xf32, strided<[256, 1], offset: ?>>

module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @+1 {{kernel @k: its tile loop is restored: the flattened loop was not pipelined, and flattening alone gains nothing}}
    gpu.func @k(%A: memref<256x256xf16>, %B: memref<256x256xf16>, %C: memref<256x256xf32> {llvm.noalias}, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr, %tmaC: !llvm.ptr {pk.tensor_map_of = 6 : i64}, %D: memref<256x256xf32>)
        workgroup(%sA : !sA {llvm.align = 1024 : i64}, %sB : !sB {llvm.align = 1024 : i64}, %sC : !sC {llvm.align = 1024 : i64})
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
      %tmC = builtin.unrealized_conversion_cast %tmaC : !llvm.ptr to !tmC
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
      // expected-remark @+2 {{tile loop flattened: one loop over (tile, k-step), 4 k-steps per tile, the tile's epilogue on its last k-step; pipelining it runs the next t}}
      // expected-note @+1 {{in this K-loop candidate}}
      scf.for %tile = %bid to %c4 step %nblk {
        %tm = arith.divui %tile, %c2 : index
        %tn = arith.remui %tile, %c2 : index
        %bm = arith.muli %tm, %c128 : index
        %bn = arith.muli %tn, %c128 : index
        %gb_col1 = arith.addi %bn, %c64 : index
        %res = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %acc0) -> (!acc) {
          nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !mbar
          // expected-note @+1 {{the load of the load phase}}
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

        scf.if %t0 {
          nvvm.cp.async.bulk.wait_group 0 {read}
        }
        gpu.barrier
        %v = arith.constant 1.0 : f32
        memref.store %v, %sC[%tid, %c0] : !sC
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        gpu.barrier
        scf.if %t0 {
          // expected-remark @+1 {{not a pk K-loop: compute phase writes kernel argument #6 at addresses that move with the K-loop, and the load phase reads the memory a TMA load reads through its tensor map: pk cannot prove they do not overlap (the next tiles' loads move ahead of this store); mark the written kernel argument llvm.noalias}}
          nvgpu.tma.async.store %sC to %tmC[%bn, %bm] : !sC -> !tmC
          nvvm.cp.async.bulk.commit.group
        }

      }
      scf.if %t0 {
        nvvm.cp.async.bulk.wait_group 0
      }

      gpu.return
    }
  }
}
