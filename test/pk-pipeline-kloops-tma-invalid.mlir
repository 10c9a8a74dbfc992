// RUN: pk-opt %s -split-input-file -verify-diagnostics --pk-pipeline-kloops='arch=sm_90a' -o /dev/null
// TMA K-loops variant=tma declines (docs/hopper.md "TMA ring"), from
// gen_gemm.py --copy tma (M=N=K=256) with one mutation each; every remark is
// expected at its loop. More mutants: pk-pipeline-kloops-invalid.mlir TMA-*.
// A wait on parity 0 for every tile (tile 1 would read stale data).
module attributes {gpu.container_module} {
  gpu.module @hgemm_wgmma_tma_f16_128x128x64 {
    gpu.func @hgemm_wgmma_tma_f16_128x128x64(%A: memref<256x256xf16>, %B: memref<256x256xf16>, %C: memref<256x256xf32> {llvm.noalias}, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
        workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
        kernel attributes {nvvm.minctasm = 2 : i32, known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 2, 2, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c32768 = arith.constant 32768 : index
      %c10000000 = arith.constant 10000000 : index
      %tid = gpu.thread_id x
      %by = gpu.block_id y
      %bm = arith.muli %by, %c128 : index
      %bx = gpu.block_id x
      %bn = arith.muli %bx, %c128 : index
      %tmA = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %tmB = builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %t0 = arith.cmpi eq, %tid, %c0 : index
      %mbar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      scf.if %t0 {
        nvgpu.mbarrier.init %mbar[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      }
      gpu.barrier
      %sB_0 = memref.subview %sB[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
      %sB_1 = memref.subview %sB[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      %gb_col1 = arith.addi %bn, %c64 : index
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      // expected-note @below {{in this K-loop}}
      %res = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
        nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmA[%k, %bm], %mbar[%c0] to %sA, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<128x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%bn, %k], %mbar[%c0] to %sB_0, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%gb_col1, %k], %mbar[%c0] to %sB_1, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
        %kt = arith.divui %k, %c64 : index
        %kt2 = arith.remui %kt, %c2 : index
        %par = arith.constant false
        // expected-remark @below {{not pipelined: the parity of this nvgpu.mbarrier.try_wait.parity is not the tile index modulo 2 (tile 1 waits on parity 0); pk pipelines the one-barrier protocol whose phase t completes with tile t}}
        nvgpu.mbarrier.try_wait.parity %mbar[%c0], %par, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmA : memref<128x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
        %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
        %acc_next = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
        gpu.barrier
        scf.yield %acc_next : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
      %C_blk = memref.subview %C[%bm, %bn] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %res, %C_blk : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      gpu.return
    }
  }
}
// -----
// An expect_tx of 64 bytes for 32768 loaded: the phase would never complete.
module attributes {gpu.container_module} {
  gpu.module @hgemm_wgmma_tma_f16_128x128x64 {
    gpu.func @hgemm_wgmma_tma_f16_128x128x64(%A: memref<256x256xf16>, %B: memref<256x256xf16>, %C: memref<256x256xf32> {llvm.noalias}, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr)
        workgroup(%sA : memref<128x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sB : memref<2x64x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
        kernel attributes {nvvm.minctasm = 2 : i32, known_block_size = array<i32: 128, 1, 1>, known_grid_size = array<i32: 2, 2, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c32768 = arith.constant 32768 : index
      %c10000000 = arith.constant 10000000 : index
      %tid = gpu.thread_id x
      %by = gpu.block_id y
      %bm = arith.muli %by, %c128 : index
      %bx = gpu.block_id x
      %bn = arith.muli %bx, %c128 : index
      %tmA = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %tmB = builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %t0 = arith.cmpi eq, %tid, %c0 : index
      %mbar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      scf.if %t0 {
        nvgpu.mbarrier.init %mbar[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      }
      gpu.barrier
      %sB_0 = memref.subview %sB[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
      %sB_1 = memref.subview %sB[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
      %gb_col1 = arith.addi %bn, %c64 : index
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      // expected-note @below {{in this K-loop}}
      %res = scf.for %k = %c0 to %c256 step %c64 iter_args(%acc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>) {
        // expected-remark @below {{not pipelined: not a pk K-loop: TMA K-loop: nvgpu.mbarrier.arrive.expect_tx announces 64 bytes, the loads write 32768}}
        nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c64, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmA[%k, %bm], %mbar[%c0] to %sA, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<128x64xf16, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%bn, %k], %mbar[%c0] to %sB_0, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: 0>, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%gb_col1, %k], %mbar[%c0] to %sB_1, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
        %kt = arith.divui %k, %c64 : index
        %kt2 = arith.remui %kt, %c2 : index
        %par = arith.index_cast %kt2 : index to i1
        nvgpu.mbarrier.try_wait.parity %mbar[%c0], %par, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        %dA = nvgpu.warpgroup.generate.descriptor %sA, %tmA : memref<128x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>
        %dB = nvgpu.warpgroup.generate.descriptor %sB, %tmB : memref<2x64x64xf16, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>
        %acc_next = nvgpu.warpgroup.mma %dA, %dB, %acc {transposeB, waitGroup = 0 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<128x64xf16, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<64x128xf16, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
        gpu.barrier
        scf.yield %acc_next : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>>
      } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
      %C_blk = memref.subview %C[%bm, %bn] [128, 128] [1, 1] : memref<256x256xf32> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      nvgpu.warpgroup.mma.store %res, %C_blk : !nvgpu.warpgroup.accumulator<fragmented = vector<128x128xf32>> to memref<128x128xf32, strided<[256, 1], offset: ?>>
      gpu.return
    }
  }
}

// -----

// FP8 (gen_gemm.py --kind e4m3gemm --mma wgmma --copy tma --threads 256
// --M 256 --N 256 --K 256, docs/hopper-fp8.md): the tile's 4 chained
// k-step wgmmas, the last one mutated to waitGroup = 3, so no wgmma of the
// iteration retires the groups; declined at the first.
!frag = !llvm.struct<(struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>)>
module attributes {gpu.container_module} {
  gpu.module @fgemm_wgmma_tma_e4m3_128x128x128 {
    gpu.func @fgemm_wgmma_tma_e4m3_128x128x128(%A: memref<256x256xf8E4M3FN>, %B: memref<256x256xf8E4M3FN>, %C: memref<256x256xf32> {llvm.noalias}, %tmaA: !llvm.ptr, %tmaB: !llvm.ptr, %scale: memref<2xf32>)
        workgroup(%sA : memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64}, %sB : memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
        kernel attributes {nvvm.minctasm = 2 : i32, known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 2, 2, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c24 = arith.constant 24 : index
      %c32 = arith.constant 32 : index
      %c40 = arith.constant 40 : index
      %c48 = arith.constant 48 : index
      %c56 = arith.constant 56 : index
      %c64 = arith.constant 64 : index
      %c72 = arith.constant 72 : index
      %c80 = arith.constant 80 : index
      %c88 = arith.constant 88 : index
      %c96 = arith.constant 96 : index
      %c104 = arith.constant 104 : index
      %c112 = arith.constant 112 : index
      %c120 = arith.constant 120 : index
      %c128 = arith.constant 128 : index
      %c256 = arith.constant 256 : index
      %c32768 = arith.constant 32768 : index
      %c10000000 = arith.constant 10000000 : index
      %tid = gpu.thread_id x
      %by = gpu.block_id y
      %bm = arith.muli %by, %c128 : index
      %bx = gpu.block_id x
      %bn = arith.muli %bx, %c128 : index
      // warpgroup w = tid / 128 computes rows 64w .. 64w+63 of the block
      %wg = arith.divui %tid, %c128 : index
      %wg_row = arith.muli %wg, %c64 : index
      %tmA = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x128xf8E4M3FN, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %tmAw = builtin.unrealized_conversion_cast %tmaA : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x128xf8E4M3FN, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %tmB = builtin.unrealized_conversion_cast %tmaB : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x128xf8E4M3FN, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
      %t0 = arith.cmpi eq, %tid, %c0 : index
      %mbar = nvgpu.mbarrier.create -> !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
      // one mbarrier, arrival count 1 (thread 0's arrive.expect_tx), initialised once
      scf.if %t0 {
        nvgpu.mbarrier.init %mbar[%c0], %c1 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        // the initialised mbarrier -> the async proxy (TMA's complete_tx)
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
      }
      gpu.barrier
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>
      // expected-note @below {{in this K-loop}}
      %res = scf.for %k = %c0 to %c256 step %c128 iter_args(%acc = %acc0) -> (!nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>) {
        // a. thread 0: expect 32768 bytes, TMA the A and the B tile (coordinates innermost first)
        nvgpu.mbarrier.arrive.expect_tx %mbar[%c0], %c32768, predicate = %t0 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmA[%k, %bm], %mbar[%c0] to %sA, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x128xf8E4M3FN, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
        nvgpu.tma.async.load %tmB[%k, %bn], %mbar[%c0] to %sB, predicate = %t0 : !nvgpu.tensormap.descriptor<tensor = memref<128x128xf8E4M3FN, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>> -> memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>>
        // b. every thread waits for phase t = k / 128 of the mbarrier (parity t % 2)
        %kt = arith.divui %k, %c128 : index
        %kt2 = arith.remui %kt, %c2 : index
        %par = arith.index_cast %kt2 : index to i1
        nvgpu.mbarrier.try_wait.parity %mbar[%c0], %par, %c10000000 : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>>
        // c. compute phase: 4 chained m64n128k32 wgmmas, the last waits for all
        %sAk = memref.subview %sA[%wg_row, 0] [64, 32] [1, 1] : memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>> to memref<64x32xf8E4M3FN, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
        %sBk = memref.subview %sB[0, 0] [128, 32] [1, 1] : memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>> to memref<128x32xf8E4M3FN, strided<[128, 1], offset: 0>, #gpu.address_space<workgroup>>
        %dA = nvgpu.warpgroup.generate.descriptor %sAk, %tmAw : memref<64x32xf8E4M3FN, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x128xf8E4M3FN, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x32xf8E4M3FN, 3>>
        %dB = nvgpu.warpgroup.generate.descriptor %sBk, %tmB : memref<128x32xf8E4M3FN, strided<[128, 1], offset: 0>, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x128xf8E4M3FN, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<32x128xf8E4M3FN, 3>>
        // expected-remark @below {{not pipelined: this nvgpu.warpgroup.mma leaves 3 wgmma group(s) in flight (waitGroup = 3) and no later wgmma of its block waits for all groups: its reads of a stage may outlast the barrier before that stage's refill; pk pipelines wgmma loops whose groups retire in the iteration (waitGroup = 0 on the last wgmma)}}
        %acc_k = nvgpu.warpgroup.mma %dA, %dB, %acc {waitGroup = 3 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<64x32xf8E4M3FN, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<32x128xf8E4M3FN, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>
        %sAk_1 = memref.subview %sA[%wg_row, 32] [64, 32] [1, 1] : memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>> to memref<64x32xf8E4M3FN, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
        %sBk_1 = memref.subview %sB[0, 32] [128, 32] [1, 1] : memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>> to memref<128x32xf8E4M3FN, strided<[128, 1], offset: 32>, #gpu.address_space<workgroup>>
        %dA_1 = nvgpu.warpgroup.generate.descriptor %sAk_1, %tmAw : memref<64x32xf8E4M3FN, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x128xf8E4M3FN, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x32xf8E4M3FN, 3>>
        %dB_1 = nvgpu.warpgroup.generate.descriptor %sBk_1, %tmB : memref<128x32xf8E4M3FN, strided<[128, 1], offset: 32>, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x128xf8E4M3FN, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<32x128xf8E4M3FN, 3>>
        %acc_k_1 = nvgpu.warpgroup.mma %dA_1, %dB_1, %acc_k {waitGroup = 3 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<64x32xf8E4M3FN, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<32x128xf8E4M3FN, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>
        %sAk_2 = memref.subview %sA[%wg_row, 64] [64, 32] [1, 1] : memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>> to memref<64x32xf8E4M3FN, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
        %sBk_2 = memref.subview %sB[0, 64] [128, 32] [1, 1] : memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>> to memref<128x32xf8E4M3FN, strided<[128, 1], offset: 64>, #gpu.address_space<workgroup>>
        %dA_2 = nvgpu.warpgroup.generate.descriptor %sAk_2, %tmAw : memref<64x32xf8E4M3FN, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x128xf8E4M3FN, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x32xf8E4M3FN, 3>>
        %dB_2 = nvgpu.warpgroup.generate.descriptor %sBk_2, %tmB : memref<128x32xf8E4M3FN, strided<[128, 1], offset: 64>, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x128xf8E4M3FN, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<32x128xf8E4M3FN, 3>>
        %acc_k_2 = nvgpu.warpgroup.mma %dA_2, %dB_2, %acc_k_1 {waitGroup = 3 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<64x32xf8E4M3FN, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<32x128xf8E4M3FN, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>
        %sAk_3 = memref.subview %sA[%wg_row, 96] [64, 32] [1, 1] : memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>> to memref<64x32xf8E4M3FN, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
        %sBk_3 = memref.subview %sB[0, 96] [128, 32] [1, 1] : memref<128x128xf8E4M3FN, #gpu.address_space<workgroup>> to memref<128x32xf8E4M3FN, strided<[128, 1], offset: 96>, #gpu.address_space<workgroup>>
        %dA_3 = nvgpu.warpgroup.generate.descriptor %sAk_3, %tmAw : memref<64x32xf8E4M3FN, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<64x128xf8E4M3FN, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<64x32xf8E4M3FN, 3>>
        %dB_3 = nvgpu.warpgroup.generate.descriptor %sBk_3, %tmB : memref<128x32xf8E4M3FN, strided<[128, 1], offset: 96>, #gpu.address_space<workgroup>>, !nvgpu.tensormap.descriptor<tensor = memref<128x128xf8E4M3FN, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none> -> !nvgpu.warpgroup.descriptor<tensor = memref<32x128xf8E4M3FN, 3>>
        %acc_k_3 = nvgpu.warpgroup.mma %dA_3, %dB_3, %acc_k_2 {waitGroup = 3 : i64} : !nvgpu.warpgroup.descriptor<tensor = memref<64x32xf8E4M3FN, 3>>, !nvgpu.warpgroup.descriptor<tensor = memref<32x128xf8E4M3FN, 3>>, !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> -> !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>
        // d. every wgmma of this tile retired before the next TMA overwrites the tiles
        gpu.barrier
        scf.yield %acc_k_3 : !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>
      } {loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>}
      // epilogue: s = scale[0] * scale[1]; each thread scales its m64n128 fragment
      %sa = memref.load %scale[%c0] : memref<2xf32>
      %sb = memref.load %scale[%c1] : memref<2xf32>
      %s = arith.mulf %sa, %sb : f32
      // epilogue: the m64n128 fragment of this thread, 64 f32 registers (struct of nvgpu's lowering), stored as pairs
      %frag = builtin.unrealized_conversion_cast %res : !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>> to !frag
      %lane = arith.remui %tid, %c32 : index
      %warp = arith.divui %tid, %c32 : index
      %wq = arith.remui %warp, %c4 : index
      %r_w16 = arith.muli %wq, %c16 : index
      %r_l = arith.divui %lane, %c4 : index
      %r_w = arith.addi %r_w16, %r_l : index
      %r_blk = arith.addi %wg_row, %r_w : index
      %c_row = arith.addi %bm, %r_blk : index
      %c_l4 = arith.remui %lane, %c4 : index
      %c_l2 = arith.muli %c_l4, %c2 : index
      %c_col = arith.addi %bn, %c_l2 : index
      %sv = vector.broadcast %s : f32 to vector<2xf32>
      %d = llvm.extractvalue %frag[0, 0] : !frag
      %d_1 = llvm.extractvalue %frag[0, 1] : !frag
      %dv = vector.from_elements %d, %d_1 : vector<2xf32>
      %dw = arith.mulf %dv, %sv : vector<2xf32>
      vector.store %dw, %C[%c_row, %c_col] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_1 = arith.addi %c_col, %c8 : index
      %d_2 = llvm.extractvalue %frag[0, 4] : !frag
      %d_3 = llvm.extractvalue %frag[0, 5] : !frag
      %dv_1 = vector.from_elements %d_2, %d_3 : vector<2xf32>
      %dw_1 = arith.mulf %dv_1, %sv : vector<2xf32>
      vector.store %dw_1, %C[%c_row, %c_col_1] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_2 = arith.addi %c_col, %c16 : index
      %d_4 = llvm.extractvalue %frag[0, 8] : !frag
      %d_5 = llvm.extractvalue %frag[0, 9] : !frag
      %dv_2 = vector.from_elements %d_4, %d_5 : vector<2xf32>
      %dw_2 = arith.mulf %dv_2, %sv : vector<2xf32>
      vector.store %dw_2, %C[%c_row, %c_col_2] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_3 = arith.addi %c_col, %c24 : index
      %d_6 = llvm.extractvalue %frag[0, 12] : !frag
      %d_7 = llvm.extractvalue %frag[0, 13] : !frag
      %dv_3 = vector.from_elements %d_6, %d_7 : vector<2xf32>
      %dw_3 = arith.mulf %dv_3, %sv : vector<2xf32>
      vector.store %dw_3, %C[%c_row, %c_col_3] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_4 = arith.addi %c_col, %c32 : index
      %d_8 = llvm.extractvalue %frag[0, 16] : !frag
      %d_9 = llvm.extractvalue %frag[0, 17] : !frag
      %dv_4 = vector.from_elements %d_8, %d_9 : vector<2xf32>
      %dw_4 = arith.mulf %dv_4, %sv : vector<2xf32>
      vector.store %dw_4, %C[%c_row, %c_col_4] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_5 = arith.addi %c_col, %c40 : index
      %d_10 = llvm.extractvalue %frag[0, 20] : !frag
      %d_11 = llvm.extractvalue %frag[0, 21] : !frag
      %dv_5 = vector.from_elements %d_10, %d_11 : vector<2xf32>
      %dw_5 = arith.mulf %dv_5, %sv : vector<2xf32>
      vector.store %dw_5, %C[%c_row, %c_col_5] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_6 = arith.addi %c_col, %c48 : index
      %d_12 = llvm.extractvalue %frag[0, 24] : !frag
      %d_13 = llvm.extractvalue %frag[0, 25] : !frag
      %dv_6 = vector.from_elements %d_12, %d_13 : vector<2xf32>
      %dw_6 = arith.mulf %dv_6, %sv : vector<2xf32>
      vector.store %dw_6, %C[%c_row, %c_col_6] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_7 = arith.addi %c_col, %c56 : index
      %d_14 = llvm.extractvalue %frag[0, 28] : !frag
      %d_15 = llvm.extractvalue %frag[0, 29] : !frag
      %dv_7 = vector.from_elements %d_14, %d_15 : vector<2xf32>
      %dw_7 = arith.mulf %dv_7, %sv : vector<2xf32>
      vector.store %dw_7, %C[%c_row, %c_col_7] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_8 = arith.addi %c_col, %c64 : index
      %d_16 = llvm.extractvalue %frag[0, 32] : !frag
      %d_17 = llvm.extractvalue %frag[0, 33] : !frag
      %dv_8 = vector.from_elements %d_16, %d_17 : vector<2xf32>
      %dw_8 = arith.mulf %dv_8, %sv : vector<2xf32>
      vector.store %dw_8, %C[%c_row, %c_col_8] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_9 = arith.addi %c_col, %c72 : index
      %d_18 = llvm.extractvalue %frag[0, 36] : !frag
      %d_19 = llvm.extractvalue %frag[0, 37] : !frag
      %dv_9 = vector.from_elements %d_18, %d_19 : vector<2xf32>
      %dw_9 = arith.mulf %dv_9, %sv : vector<2xf32>
      vector.store %dw_9, %C[%c_row, %c_col_9] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_10 = arith.addi %c_col, %c80 : index
      %d_20 = llvm.extractvalue %frag[0, 40] : !frag
      %d_21 = llvm.extractvalue %frag[0, 41] : !frag
      %dv_10 = vector.from_elements %d_20, %d_21 : vector<2xf32>
      %dw_10 = arith.mulf %dv_10, %sv : vector<2xf32>
      vector.store %dw_10, %C[%c_row, %c_col_10] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_11 = arith.addi %c_col, %c88 : index
      %d_22 = llvm.extractvalue %frag[0, 44] : !frag
      %d_23 = llvm.extractvalue %frag[0, 45] : !frag
      %dv_11 = vector.from_elements %d_22, %d_23 : vector<2xf32>
      %dw_11 = arith.mulf %dv_11, %sv : vector<2xf32>
      vector.store %dw_11, %C[%c_row, %c_col_11] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_12 = arith.addi %c_col, %c96 : index
      %d_24 = llvm.extractvalue %frag[0, 48] : !frag
      %d_25 = llvm.extractvalue %frag[0, 49] : !frag
      %dv_12 = vector.from_elements %d_24, %d_25 : vector<2xf32>
      %dw_12 = arith.mulf %dv_12, %sv : vector<2xf32>
      vector.store %dw_12, %C[%c_row, %c_col_12] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_13 = arith.addi %c_col, %c104 : index
      %d_26 = llvm.extractvalue %frag[0, 52] : !frag
      %d_27 = llvm.extractvalue %frag[0, 53] : !frag
      %dv_13 = vector.from_elements %d_26, %d_27 : vector<2xf32>
      %dw_13 = arith.mulf %dv_13, %sv : vector<2xf32>
      vector.store %dw_13, %C[%c_row, %c_col_13] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_14 = arith.addi %c_col, %c112 : index
      %d_28 = llvm.extractvalue %frag[0, 56] : !frag
      %d_29 = llvm.extractvalue %frag[0, 57] : !frag
      %dv_14 = vector.from_elements %d_28, %d_29 : vector<2xf32>
      %dw_14 = arith.mulf %dv_14, %sv : vector<2xf32>
      vector.store %dw_14, %C[%c_row, %c_col_14] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_15 = arith.addi %c_col, %c120 : index
      %d_30 = llvm.extractvalue %frag[0, 60] : !frag
      %d_31 = llvm.extractvalue %frag[0, 61] : !frag
      %dv_15 = vector.from_elements %d_30, %d_31 : vector<2xf32>
      %dw_15 = arith.mulf %dv_15, %sv : vector<2xf32>
      vector.store %dw_15, %C[%c_row, %c_col_15] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_row_1 = arith.addi %c_row, %c8 : index
      %d_32 = llvm.extractvalue %frag[0, 2] : !frag
      %d_33 = llvm.extractvalue %frag[0, 3] : !frag
      %dv_16 = vector.from_elements %d_32, %d_33 : vector<2xf32>
      %dw_16 = arith.mulf %dv_16, %sv : vector<2xf32>
      vector.store %dw_16, %C[%c_row_1, %c_col] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_16 = arith.addi %c_col, %c8 : index
      %d_34 = llvm.extractvalue %frag[0, 6] : !frag
      %d_35 = llvm.extractvalue %frag[0, 7] : !frag
      %dv_17 = vector.from_elements %d_34, %d_35 : vector<2xf32>
      %dw_17 = arith.mulf %dv_17, %sv : vector<2xf32>
      vector.store %dw_17, %C[%c_row_1, %c_col_16] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_17 = arith.addi %c_col, %c16 : index
      %d_36 = llvm.extractvalue %frag[0, 10] : !frag
      %d_37 = llvm.extractvalue %frag[0, 11] : !frag
      %dv_18 = vector.from_elements %d_36, %d_37 : vector<2xf32>
      %dw_18 = arith.mulf %dv_18, %sv : vector<2xf32>
      vector.store %dw_18, %C[%c_row_1, %c_col_17] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_18 = arith.addi %c_col, %c24 : index
      %d_38 = llvm.extractvalue %frag[0, 14] : !frag
      %d_39 = llvm.extractvalue %frag[0, 15] : !frag
      %dv_19 = vector.from_elements %d_38, %d_39 : vector<2xf32>
      %dw_19 = arith.mulf %dv_19, %sv : vector<2xf32>
      vector.store %dw_19, %C[%c_row_1, %c_col_18] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_19 = arith.addi %c_col, %c32 : index
      %d_40 = llvm.extractvalue %frag[0, 18] : !frag
      %d_41 = llvm.extractvalue %frag[0, 19] : !frag
      %dv_20 = vector.from_elements %d_40, %d_41 : vector<2xf32>
      %dw_20 = arith.mulf %dv_20, %sv : vector<2xf32>
      vector.store %dw_20, %C[%c_row_1, %c_col_19] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_20 = arith.addi %c_col, %c40 : index
      %d_42 = llvm.extractvalue %frag[0, 22] : !frag
      %d_43 = llvm.extractvalue %frag[0, 23] : !frag
      %dv_21 = vector.from_elements %d_42, %d_43 : vector<2xf32>
      %dw_21 = arith.mulf %dv_21, %sv : vector<2xf32>
      vector.store %dw_21, %C[%c_row_1, %c_col_20] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_21 = arith.addi %c_col, %c48 : index
      %d_44 = llvm.extractvalue %frag[0, 26] : !frag
      %d_45 = llvm.extractvalue %frag[0, 27] : !frag
      %dv_22 = vector.from_elements %d_44, %d_45 : vector<2xf32>
      %dw_22 = arith.mulf %dv_22, %sv : vector<2xf32>
      vector.store %dw_22, %C[%c_row_1, %c_col_21] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_22 = arith.addi %c_col, %c56 : index
      %d_46 = llvm.extractvalue %frag[0, 30] : !frag
      %d_47 = llvm.extractvalue %frag[0, 31] : !frag
      %dv_23 = vector.from_elements %d_46, %d_47 : vector<2xf32>
      %dw_23 = arith.mulf %dv_23, %sv : vector<2xf32>
      vector.store %dw_23, %C[%c_row_1, %c_col_22] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_23 = arith.addi %c_col, %c64 : index
      %d_48 = llvm.extractvalue %frag[0, 34] : !frag
      %d_49 = llvm.extractvalue %frag[0, 35] : !frag
      %dv_24 = vector.from_elements %d_48, %d_49 : vector<2xf32>
      %dw_24 = arith.mulf %dv_24, %sv : vector<2xf32>
      vector.store %dw_24, %C[%c_row_1, %c_col_23] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_24 = arith.addi %c_col, %c72 : index
      %d_50 = llvm.extractvalue %frag[0, 38] : !frag
      %d_51 = llvm.extractvalue %frag[0, 39] : !frag
      %dv_25 = vector.from_elements %d_50, %d_51 : vector<2xf32>
      %dw_25 = arith.mulf %dv_25, %sv : vector<2xf32>
      vector.store %dw_25, %C[%c_row_1, %c_col_24] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_25 = arith.addi %c_col, %c80 : index
      %d_52 = llvm.extractvalue %frag[0, 42] : !frag
      %d_53 = llvm.extractvalue %frag[0, 43] : !frag
      %dv_26 = vector.from_elements %d_52, %d_53 : vector<2xf32>
      %dw_26 = arith.mulf %dv_26, %sv : vector<2xf32>
      vector.store %dw_26, %C[%c_row_1, %c_col_25] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_26 = arith.addi %c_col, %c88 : index
      %d_54 = llvm.extractvalue %frag[0, 46] : !frag
      %d_55 = llvm.extractvalue %frag[0, 47] : !frag
      %dv_27 = vector.from_elements %d_54, %d_55 : vector<2xf32>
      %dw_27 = arith.mulf %dv_27, %sv : vector<2xf32>
      vector.store %dw_27, %C[%c_row_1, %c_col_26] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_27 = arith.addi %c_col, %c96 : index
      %d_56 = llvm.extractvalue %frag[0, 50] : !frag
      %d_57 = llvm.extractvalue %frag[0, 51] : !frag
      %dv_28 = vector.from_elements %d_56, %d_57 : vector<2xf32>
      %dw_28 = arith.mulf %dv_28, %sv : vector<2xf32>
      vector.store %dw_28, %C[%c_row_1, %c_col_27] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_28 = arith.addi %c_col, %c104 : index
      %d_58 = llvm.extractvalue %frag[0, 54] : !frag
      %d_59 = llvm.extractvalue %frag[0, 55] : !frag
      %dv_29 = vector.from_elements %d_58, %d_59 : vector<2xf32>
      %dw_29 = arith.mulf %dv_29, %sv : vector<2xf32>
      vector.store %dw_29, %C[%c_row_1, %c_col_28] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_29 = arith.addi %c_col, %c112 : index
      %d_60 = llvm.extractvalue %frag[0, 58] : !frag
      %d_61 = llvm.extractvalue %frag[0, 59] : !frag
      %dv_30 = vector.from_elements %d_60, %d_61 : vector<2xf32>
      %dw_30 = arith.mulf %dv_30, %sv : vector<2xf32>
      vector.store %dw_30, %C[%c_row_1, %c_col_29] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      %c_col_30 = arith.addi %c_col, %c120 : index
      %d_62 = llvm.extractvalue %frag[0, 62] : !frag
      %d_63 = llvm.extractvalue %frag[0, 63] : !frag
      %dv_31 = vector.from_elements %d_62, %d_63 : vector<2xf32>
      %dw_31 = arith.mulf %dv_31, %sv : vector<2xf32>
      vector.store %dw_31, %C[%c_row_1, %c_col_30] {alignment = 8 : i64} : memref<256x256xf32>, vector<2xf32>
      gpu.return
    }
  }
}
