// RUN: pk-opt --pk-flatten-tile-loops %s 2>&1 | FileCheck %s

// pk-flatten-tile-loops: a persistent kernel's tile loop around a TMA K-loop
// becomes one loop over (tile, k-step) (include/pk/TileLoops.h). The nests it
// declines: pk-flatten-tile-loops-invalid.mlir.

// The remark at the tile loop.
// CHECK: remark: tile loop flattened: one loop over (tile, k-step), 4 k-steps per tile, the tile's epilogue on its last k-step
// And at the i32 tile loop below.
// CHECK: remark: tile loop flattened: one loop over (tile, k-step), 4 k-steps per tile
// CHECK-LABEL: gpu.func @persistent
// CHECK: %[[ACC0:.*]] = nvgpu.warpgroup.mma.init.accumulator
// CHECK: %[[BID:.*]] = gpu.block_id x
// CHECK: %[[NBLK:.*]] = gpu.grid_dim x
// The tiles of this block: ceil((4 - bid) / nblk) when bid < 4, else none;
// four k-steps each.
// CHECK: %[[SPAN:.*]] = arith.subi %{{.*}}, %[[BID]] : index
// CHECK: %[[TILES:.*]] = arith.ceildivui %[[SPAN]], %[[NBLK]] : index
// CHECK: %[[RUNS:.*]] = arith.cmpi slt, %[[BID]], %{{.*}} : index
// CHECK: %[[N:.*]] = arith.select %[[RUNS]], %[[TILES]], %{{.*}} : index
// CHECK: %[[TOTAL:.*]] = arith.muli %[[N]], %[[C4:.*]] : index
// CHECK: %[[FLAT:.*]] = scf.for %[[IT:.*]] = %{{.*}} to %[[TOTAL]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC0]])
// tile = bid + (it / 4) * nblk, k = 0 + (it % 4) * 64
// CHECK: %[[T:.*]] = arith.divui %[[IT]], %[[C4]] : index
// CHECK: %[[KS:.*]] = arith.remui %[[IT]], %[[C4]] : index
// CHECK: %[[TS:.*]] = arith.muli %[[T]], %[[NBLK]] : index
// CHECK: %[[TILE:.*]] = arith.addi %[[BID]], %[[TS]] : index
// CHECK: %[[KK:.*]] = arith.muli %[[KS]], %{{.*}} : index
// CHECK: %[[K:.*]] = arith.addi %{{.*}}, %[[KK]] : index
// The code before the K-loop on the flat tile index, then the K-loop body.
// CHECK: arith.divui %[[TILE]], %{{.*}} : index
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK: nvgpu.tma.async.load %{{.*}}[%[[K]], %{{.*}}]
// The wait's parity: the flat index modulo 2 (4 k-steps per tile, even).
// CHECK: %[[P:.*]] = arith.remui %[[IT]], %{{.*}} : index
// CHECK: %[[PAR:.*]] = arith.index_cast %[[P]] : index to i1
// CHECK: nvgpu.mbarrier.try_wait.parity %{{.*}}[%{{.*}}], %[[PAR]]
// CHECK: %[[NEXT:.*]] = nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %[[ACC]]
// The epilogue on the tile's last k-step, after every wgmma group retired;
// it hands the next tile a zero accumulator of its own.
// CHECK: %[[LAST:.*]] = arith.cmpi eq, %[[KS]], %{{.*}} : index
// CHECK: %[[EPI:.*]] = scf.if %[[LAST]]
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvgpu.warpgroup.mma.store %[[NEXT]]
// CHECK: %[[ZERO:.*]] = nvgpu.warpgroup.mma.init.accumulator {pk.tile_epilogue}
// CHECK: scf.yield %[[ZERO]]
// CHECK: } else {
// CHECK: scf.yield %[[NEXT]]
// CHECK: } {pk.tile_epilogue}
// The K-loop's final barrier stays last.
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: scf.yield %[[EPI]]
// CHECK: } {pk.flattened_tile_loop}
// CHECK-NOT: scf.for
// CHECK: gpu.return

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

module attributes {gpu.container_module} {
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
      }
      gpu.return
    }
  }
}

// An i32 tile loop (from bid, step 3), the K-loop's step defined in the tile
// loop's body, a bounds-checked store in the epilogue: the trip count is
// computed in index (no i32 wrap), the K-loop's step is made again for the
// flat loop (the tile loop's body is gone), the epilogue's scf.if stays in
// the tile epilogue.
// CHECK-LABEL: gpu.func @persistent_i32
// CHECK: %[[LB:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[UB:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: %[[STEP:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK: arith.subi %[[UB]], %[[LB]] : index
// CHECK: scf.for %[[IT:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args
// CHECK: %[[T:.*]] = arith.divui %[[IT]], %{{.*}} : index
// CHECK: %[[T32:.*]] = arith.index_cast %[[T]] : index to i32
// CHECK: %[[TS:.*]] = arith.muli %[[T32]], %{{.*}} : i32
// CHECK: arith.addi %{{.*}}, %[[TS]] : i32
// CHECK: %[[K64:.*]] = arith.constant 64 : index
// CHECK: arith.muli %{{.*}}, %[[K64]] : index
// CHECK: scf.if
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: scf.if
// CHECK: memref.store
// CHECK: nvgpu.warpgroup.mma.store
// CHECK: } {pk.tile_epilogue}

module attributes {gpu.container_module} {
  gpu.module @persistent_i32 {
    gpu.func @persistent_i32(%C: memref<256x256xf32> {llvm.noalias}, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
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
      %lb32 = arith.index_cast %bid : index to i32
      %c4_i32 = arith.constant 4 : i32
      %c3_i32 = arith.constant 3 : i32
      %nblk = gpu.grid_dim x
      scf.for %tile = %lb32 to %c4_i32 step %c3_i32 : i32 {
        %tile_i = arith.index_cast %tile : i32 to index
        %tm = arith.divui %tile_i, %c2 : index
        %tn = arith.remui %tile_i, %c2 : index
        %kstep = arith.constant 64 : index
        %bm = arith.muli %tm, %c128 : index
        %bn = arith.muli %tn, %c128 : index
        %gb_col1 = arith.addi %bn, %c64 : index

        %res = scf.for %k = %c0 to %c256 step %kstep iter_args(%acc = %acc0) -> (!acc) {
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
        %in = arith.cmpi slt, %bm, %c256 : index
        scf.if %in {
          %f3 = arith.constant 3.0 : f32
          memref.store %f3, %C[%bm, %bn] : memref<256x256xf32>
        }
        nvgpu.warpgroup.mma.store %res, %C_blk : !acc to !cblk
      }
      gpu.return
    }
  }
}

// A TMA-store epilogue (docs/input-contract.md): shared memory of its own,
// barriers directly in it, bulk-group waits and commits, a proxy fence and a
// TMA store through a map that names C (pk.tensor_map_of): flattened, the
// whole epilogue inside the tile epilogue, the final wait after the loop.
// CHECK-LABEL: gpu.func @persistent_tma_store
// CHECK: scf.for
// CHECK: nvgpu.warpgroup.mma
// CHECK: scf.if %{{.*}} -> (!nvgpu.warpgroup.accumulator
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK: gpu.barrier
// CHECK: memref.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] : memref<128x32xf32, #gpu.address_space<workgroup>>
// CHECK: nvvm.fence.proxy
// CHECK: gpu.barrier
// CHECK: nvgpu.tma.async.store
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK: } {pk.tile_epilogue}
// CHECK-NEXT: gpu.barrier
// CHECK: } {pk.flattened_tile_loop}
// CHECK: nvvm.cp.async.bulk.wait_group 0
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
!tmC = !nvgpu.tensormap.descriptor<tensor = memref<128x32xf32, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!sC = memref<128x32xf32, #gpu.address_space<workgroup>>

module attributes {gpu.container_module} {
  gpu.module @persistent_tma_store {
    gpu.func @persistent_tma_store(%C: memref<256x256xf32> {llvm.noalias}, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr, %tmaC: !llvm.ptr {pk.tensor_map_of = 0 : i64})
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
        // the staged TMA store of a 128x32 box (of ones)
        scf.if %t0 {
          nvvm.cp.async.bulk.wait_group 0 {read}
        }
        gpu.barrier
        %v = arith.constant 1.0 : f32
        memref.store %v, %sC[%tid, %c0] : !sC
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        gpu.barrier
        scf.if %t0 {
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

// A loop around a K-loop without TMA loads is no tile loop for pk (its
// K-loop pipelines on its own): no remark, unchanged.
// CHECK-LABEL: gpu.func @no_tma
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: scf.for
// CHECK-NOT: pk.flattened_tile_loop
module attributes {gpu.container_module} {
  gpu.module @no_tma {
    gpu.func @no_tma(%A: memref<256x64xf32>, %C: memref<256xf32>)
        workgroup(%s : memref<64xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c64 = arith.constant 64 : index
      %cst = arith.constant 0.0 : f32
      %tid = gpu.thread_id x
      scf.for %t = %c0 to %c4 step %c1 {
        %row = arith.muli %t, %c64 : index
        %r = arith.addi %row, %tid : index
        %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%a = %cst) -> (f32) {
          %v = memref.load %A[%r, %k] : memref<256x64xf32>
          memref.store %v, %s[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
          gpu.barrier
          %w = memref.load %s[%tid] : memref<64xf32, #gpu.address_space<workgroup>>
          %n = arith.addf %a, %w : f32
          gpu.barrier
          scf.yield %n : f32
        }
        memref.store %sum, %C[%r] : memref<256xf32>
      }
      gpu.return
    }
  }
}
