// Converted by integration/iree/iree2pk.py from matmul_dynk_f16f32.mlir
// IR Dump After HoistStaticallyBoundAllocationsPass: iree-codegen-hoist-statically-bound-allocations{vscale-max=0 vscale-min=0}
module attributes {gpu.container_module} {
  gpu.module @main_dispatch_0 {
    gpu.func @main_dispatch_0_matmul_4096x4096xD_f16xf16xf32(%20: memref<4096x?xf16> {llvm.align = 64 : i64}, %21: memref<?x4096xf16> {llvm.align = 64 : i64}, %17: memref<4096x4096xf32> {llvm.align = 64 : i64}, %2: i32, %3: i32, %4: i32, %5: i32) kernel attributes {known_block_size = array<i32: 32, 8, 1>, iree.pipeline = "TileAndFuse", iree.subgroup_size = 32 : i64, iree.workgroup_count = array<i64: 32, 128, 1>} {
      %c0 = arith.constant 0 : index
      %c32_i64 = arith.constant 32 : i64
      %c1 = arith.constant 1 : index
      %cst = arith.constant dense<0.000000e+00> : vector<1x16xf32>
      %0 = ub.poison : f16
      %thread_id_y = gpu.thread_id y upper_bound 8
      %thread_id_x = gpu.thread_id x upper_bound 32
      %1 = affine.linearize_index disjoint [%thread_id_y, %thread_id_x] by (8, 32) : index
      %6 = arith.extui %2 : i32 to i64
      %7 = arith.extui %3 : i32 to i64
      %8 = arith.shli %7, %c32_i64 : i64
      %9 = arith.ori %6, %8 : i64
      %10 = arith.index_castui %9 : i64 to index
      %11 = arith.extui %4 : i32 to i64
      %12 = arith.extui %5 : i32 to i64
      %13 = arith.shli %12, %c32_i64 : i64
      %14 = arith.ori %11, %13 : i64
      %15 = arith.index_castui %14 : i64 to index
      %assume_align = memref.assume_alignment %17, 64 : memref<4096x4096xf32>
      %assume_align_0 = memref.assume_alignment %20, 64 : memref<4096x?xf16>
      %assume_align_1 = memref.assume_alignment %21, 64 : memref<?x4096xf16>
      %arg0 = gpu.block_id y upper_bound 128
      %arg1 = gpu.block_id x upper_bound 32
      %22 = affine.apply affine_map<(d0) -> (d0 * 128)>(%arg1)
      %23 = affine.apply affine_map<(d0) -> (d0 * 32)>(%arg0)
      %subview = memref.subview %assume_align[%23, %22] [32, 128] [1, 1] : memref<4096x4096xf32> to memref<32x128xf32, strided<[4096, 1], offset: ?>>
      gpu.barrier
      %24:2 = affine.delinearize_index %1 into (32, 8) : index, index
      %25 = affine.apply affine_map<()[s0] -> (s0 * 16)>()[%24#1]
      %subview_2 = memref.subview %subview[%24#0, %25] [1, 16] [1, 1] : memref<32x128xf32, strided<[4096, 1], offset: ?>> to memref<1x16xf32, strided<[4096, 1], offset: ?>>
      %26 = scf.for %arg2 = %c0 to %10 step %c1 iter_args(%arg3 = %cst) -> (vector<1x16xf32>) {
        %27 = affine.apply affine_map<(d0)[s0] -> (d0 * 32 + s0)>(%arg0)[%24#0]
        %28 = affine.apply affine_map<(d0)[s0] -> (d0 * 128 + s0 * 16)>(%arg1)[%24#1]
        %29 = vector.transfer_read %assume_align_0[%27, %arg2], %0 {in_bounds = [true, true]} : memref<4096x?xf16>, vector<1x1xf16>
        %30 = vector.transfer_read %assume_align_1[%arg2, %28], %0 {in_bounds = [true, true]} : memref<?x4096xf16>, vector<1x16xf16>
        %31 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %29, %30, %arg3 : vector<1x1xf16>, vector<1x16xf16> into vector<1x16xf32>
        scf.yield %31 : vector<1x16xf32>
      }
      vector.transfer_write %26, %subview_2[%c0, %c0] {in_bounds = [true, true]} : vector<1x16xf32>, memref<1x16xf32, strided<[4096, 1], offset: ?>>
      gpu.barrier
      gpu.return
    }
  }
}
