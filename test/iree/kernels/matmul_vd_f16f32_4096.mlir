// Converted by integration/iree/iree2pk.py from matmul_vd_f16f32_4096.mlir
// IR Dump After GPUReduceBankConflictsPass: iree-codegen-gpu-reduce-bank-conflicts{padding-bits=64}
module attributes {gpu.container_module} {
  gpu.module @main_dispatch_0 {
    gpu.func @main_dispatch_0_matmul_4096x4096x4096_f16xf16xf32(%1: memref<4096x4096xf16> {llvm.align = 64 : i64}, %2: memref<4096x4096xf16> {llvm.align = 64 : i64}, %3: memref<4096x4096xf32> {llvm.align = 64 : i64}) kernel attributes {known_block_size = array<i32: 128, 1, 1>, iree.pipeline = "VectorDistribute", iree.subgroup_size = 32 : i64, iree.workgroup_count = array<i64: 64, 64, 1>} {
      %cst = arith.constant dense<0.000000e+00> : vector<2x2xf32>
      %cst_0 = arith.constant dense<0.000000e+00> : vector<2x4x2x2xf32>
      %c3 = arith.constant 3 : index
      %c2 = arith.constant 2 : index
      %cst_1 = arith.constant dense<0.000000e+00> : vector<2x4x2x1x2x1xf16>
      %cst_2 = arith.constant dense<0.000000e+00> : vector<2x2x2x2x1x2xf16>
      %c1 = arith.constant 1 : index
      %0 = ub.poison : f16
      %c32 = arith.constant 32 : index
      %c4096 = arith.constant 4096 : index
      %c0 = arith.constant 0 : index
      %thread_id_y = gpu.thread_id y
      %thread_id_x = gpu.thread_id x
      %alloc = memref.alloc() : memref<32x68xf16, #gpu.address_space<workgroup>>
      %subview = memref.subview %alloc[0, 0] [32, 64] [1, 1] : memref<32x68xf16, #gpu.address_space<workgroup>> to memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>
      %alloc_3 = memref.alloc() : memref<64x36xf16, #gpu.address_space<workgroup>>
      %subview_4 = memref.subview %alloc_3[0, 0] [64, 32] [1, 1] : memref<64x36xf16, #gpu.address_space<workgroup>> to memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>
      %assume_align = memref.assume_alignment %1, 64 : memref<4096x4096xf16>
      %assume_align_5 = memref.assume_alignment %2, 64 : memref<4096x4096xf16>
      %assume_align_6 = memref.assume_alignment %3, 64 : memref<4096x4096xf32>
      %arg0_bid = gpu.block_id y upper_bound 64
      %arg0 = affine.apply affine_map<(d0) -> (d0 * 64)>(%arg0_bid)
      %arg1_bid = gpu.block_id x upper_bound 64
      %arg1 = affine.apply affine_map<(d0) -> (d0 * 64)>(%arg1_bid)
      %subview_7 = memref.subview %assume_align_6[%arg0, %arg1] [64, 64] [1, 1] : memref<4096x4096xf32> to memref<64x64xf32, strided<[4096, 1], offset: ?>>
      %4:8 = scf.for %arg2 = %c0 to %c4096 step %c32 iter_args(%arg3 = %cst, %arg4 = %cst, %arg5 = %cst, %arg6 = %cst, %arg7 = %cst, %arg8 = %cst, %arg9 = %cst, %arg10 = %cst) -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>) {
        gpu.barrier
        %28:2 = affine.delinearize_index %thread_id_x into (32, 4) : index, index
        %29 = affine.linearize_index [%28#0, %arg0] by (32, 1) : index
        %30 = affine.linearize_index [%28#1, %arg2] by (4, 8) : index
        %31 = vector.transfer_read %assume_align[%29, %30], %0 {in_bounds = [true, true]} : memref<4096x4096xf16>, vector<1x8xf16>
        %32 = affine.linearize_index [%c1, %28#0, %arg0] by (2, 32, 1) : index
        %33 = vector.transfer_read %assume_align[%32, %30], %0 {in_bounds = [true, true]} : memref<4096x4096xf16>, vector<1x8xf16>
        %34 = arith.cmpi eq, %thread_id_y, %c0 : index
        scf.if %34 {
          %176 = affine.linearize_index disjoint [%28#1, %c0] by (4, 8) : index
          vector.transfer_write %31, %subview_4[%28#0, %176] {in_bounds = [true, true]} : vector<1x8xf16>, memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>
          %177 = affine.linearize_index disjoint [%c1, %28#0] by (2, 32) : index
          vector.transfer_write %33, %subview_4[%177, %176] {in_bounds = [true, true]} : vector<1x8xf16>, memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>
        }
        %35:2 = affine.delinearize_index %thread_id_x into (16, 8) : index, index
        %36 = affine.linearize_index [%35#0, %arg2] by (16, 1) : index
        %37 = affine.linearize_index [%35#1, %arg1] by (8, 8) : index
        %38 = vector.transfer_read %assume_align_5[%36, %37], %0 {in_bounds = [true, true]} : memref<4096x4096xf16>, vector<1x8xf16>
        %39 = affine.linearize_index [%c1, %35#0, %arg2] by (2, 16, 1) : index
        %40 = vector.transfer_read %assume_align_5[%39, %37], %0 {in_bounds = [true, true]} : memref<4096x4096xf16>, vector<1x8xf16>
        scf.if %34 {
          %176 = affine.linearize_index disjoint [%35#1, %c0] by (8, 8) : index
          vector.transfer_write %38, %subview[%35#0, %176] {in_bounds = [true, true]} : vector<1x8xf16>, memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>
          %177 = affine.linearize_index disjoint [%c1, %35#0] by (2, 16) : index
          vector.transfer_write %40, %subview[%177, %176] {in_bounds = [true, true]} : vector<1x8xf16>, memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %41:3 = affine.delinearize_index %thread_id_x into (2, 2, 32) : index, index, index
        %42:3 = affine.delinearize_index %thread_id_x into (8, 4) : index, index, index
        %43 = affine.linearize_index disjoint [%41#0, %c0, %c0, %42#1] by (2, 2, 2, 8) : index
        %44 = affine.linearize_index disjoint [%42#2, %c0] by (4, 2) : index
        %45 = vector.transfer_read %subview_4[%43, %44], %0 {in_bounds = [true, true]} : memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>, vector<1x2xf16>
        %46 = vector.insert_strided_slice %45, %cst_2 {offsets = [0, 0, 0, 0, 0, 0], strides = [1, 1]} : vector<1x2xf16> into vector<2x2x2x2x1x2xf16>
        %47 = affine.linearize_index disjoint [%c1, %42#2, %c0] by (2, 4, 2) : index
        %48 = vector.transfer_read %subview_4[%43, %47], %0 {in_bounds = [true, true]} : memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>, vector<1x2xf16>
        %49 = vector.insert_strided_slice %48, %46 {offsets = [0, 0, 0, 1, 0, 0], strides = [1, 1]} : vector<1x2xf16> into vector<2x2x2x2x1x2xf16>
        %50 = affine.linearize_index disjoint [%41#0, %c0, %c1, %42#1] by (2, 2, 2, 8) : index
        %51 = vector.transfer_read %subview_4[%50, %44], %0 {in_bounds = [true, true]} : memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>, vector<1x2xf16>
        %52 = vector.insert_strided_slice %51, %49 {offsets = [0, 0, 1, 0, 0, 0], strides = [1, 1]} : vector<1x2xf16> into vector<2x2x2x2x1x2xf16>
        %53 = vector.transfer_read %subview_4[%50, %47], %0 {in_bounds = [true, true]} : memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>, vector<1x2xf16>
        %54 = vector.insert_strided_slice %53, %52 {offsets = [0, 0, 1, 1, 0, 0], strides = [1, 1]} : vector<1x2xf16> into vector<2x2x2x2x1x2xf16>
        %55 = affine.linearize_index disjoint [%c1, %c0, %42#2, %c0] by (2, 2, 4, 2) : index
        %56 = vector.transfer_read %subview_4[%43, %55], %0 {in_bounds = [true, true]} : memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>, vector<1x2xf16>
        %57 = vector.insert_strided_slice %56, %54 {offsets = [0, 1, 0, 0, 0, 0], strides = [1, 1]} : vector<1x2xf16> into vector<2x2x2x2x1x2xf16>
        %58 = affine.linearize_index disjoint [%c1, %c1, %42#2, %c0] by (2, 2, 4, 2) : index
        %59 = vector.transfer_read %subview_4[%43, %58], %0 {in_bounds = [true, true]} : memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>, vector<1x2xf16>
        %60 = vector.insert_strided_slice %59, %57 {offsets = [0, 1, 0, 1, 0, 0], strides = [1, 1]} : vector<1x2xf16> into vector<2x2x2x2x1x2xf16>
        %61 = vector.transfer_read %subview_4[%50, %55], %0 {in_bounds = [true, true]} : memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>, vector<1x2xf16>
        %62 = vector.insert_strided_slice %61, %60 {offsets = [0, 1, 1, 0, 0, 0], strides = [1, 1]} : vector<1x2xf16> into vector<2x2x2x2x1x2xf16>
        %63 = vector.transfer_read %subview_4[%50, %58], %0 {in_bounds = [true, true]} : memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>, vector<1x2xf16>
        %64 = vector.insert_strided_slice %63, %62 {offsets = [0, 1, 1, 1, 0, 0], strides = [1, 1]} : vector<1x2xf16> into vector<2x2x2x2x1x2xf16>
        %65 = affine.linearize_index disjoint [%41#0, %c1, %c0, %42#1] by (2, 2, 2, 8) : index
        %66 = vector.transfer_read %subview_4[%65, %44], %0 {in_bounds = [true, true]} : memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>, vector<1x2xf16>
        %67 = vector.insert_strided_slice %66, %64 {offsets = [1, 0, 0, 0, 0, 0], strides = [1, 1]} : vector<1x2xf16> into vector<2x2x2x2x1x2xf16>
        %68 = vector.transfer_read %subview_4[%65, %47], %0 {in_bounds = [true, true]} : memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>, vector<1x2xf16>
        %69 = vector.insert_strided_slice %68, %67 {offsets = [1, 0, 0, 1, 0, 0], strides = [1, 1]} : vector<1x2xf16> into vector<2x2x2x2x1x2xf16>
        %70 = affine.linearize_index disjoint [%41#0, %c1, %c1, %42#1] by (2, 2, 2, 8) : index
        %71 = vector.transfer_read %subview_4[%70, %44], %0 {in_bounds = [true, true]} : memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>, vector<1x2xf16>
        %72 = vector.insert_strided_slice %71, %69 {offsets = [1, 0, 1, 0, 0, 0], strides = [1, 1]} : vector<1x2xf16> into vector<2x2x2x2x1x2xf16>
        %73 = vector.transfer_read %subview_4[%70, %47], %0 {in_bounds = [true, true]} : memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>, vector<1x2xf16>
        %74 = vector.insert_strided_slice %73, %72 {offsets = [1, 0, 1, 1, 0, 0], strides = [1, 1]} : vector<1x2xf16> into vector<2x2x2x2x1x2xf16>
        %75 = vector.transfer_read %subview_4[%65, %55], %0 {in_bounds = [true, true]} : memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>, vector<1x2xf16>
        %76 = vector.insert_strided_slice %75, %74 {offsets = [1, 1, 0, 0, 0, 0], strides = [1, 1]} : vector<1x2xf16> into vector<2x2x2x2x1x2xf16>
        %77 = vector.transfer_read %subview_4[%65, %58], %0 {in_bounds = [true, true]} : memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>, vector<1x2xf16>
        %78 = vector.insert_strided_slice %77, %76 {offsets = [1, 1, 0, 1, 0, 0], strides = [1, 1]} : vector<1x2xf16> into vector<2x2x2x2x1x2xf16>
        %79 = vector.transfer_read %subview_4[%70, %55], %0 {in_bounds = [true, true]} : memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>, vector<1x2xf16>
        %80 = vector.insert_strided_slice %79, %78 {offsets = [1, 1, 1, 0, 0, 0], strides = [1, 1]} : vector<1x2xf16> into vector<2x2x2x2x1x2xf16>
        %81 = vector.transfer_read %subview_4[%70, %58], %0 {in_bounds = [true, true]} : memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>, vector<1x2xf16>
        %82 = vector.insert_strided_slice %81, %80 {offsets = [1, 1, 1, 1, 0, 0], strides = [1, 1]} : vector<1x2xf16> into vector<2x2x2x2x1x2xf16>
        %83:3 = affine.delinearize_index %thread_id_x into (2, 32) : index, index, index
        %84 = affine.linearize_index disjoint [%83#1, %c0, %42#1] by (2, 4, 8) : index
        %85 = vector.transfer_read %subview[%44, %84], %0 {in_bounds = [true, true]} : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>, vector<2x1xf16>
        %86 = vector.insert_strided_slice %85, %cst_1 {offsets = [0, 0, 0, 0, 0, 0], strides = [1, 1]} : vector<2x1xf16> into vector<2x4x2x1x2x1xf16>
        %87 = vector.transfer_read %subview[%47, %84], %0 {in_bounds = [true, true]} : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>, vector<2x1xf16>
        %88 = vector.insert_strided_slice %87, %86 {offsets = [0, 0, 1, 0, 0, 0], strides = [1, 1]} : vector<2x1xf16> into vector<2x4x2x1x2x1xf16>
        %89 = affine.linearize_index disjoint [%83#1, %c1, %42#1] by (2, 4, 8) : index
        %90 = vector.transfer_read %subview[%44, %89], %0 {in_bounds = [true, true]} : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>, vector<2x1xf16>
        %91 = vector.insert_strided_slice %90, %88 {offsets = [0, 1, 0, 0, 0, 0], strides = [1, 1]} : vector<2x1xf16> into vector<2x4x2x1x2x1xf16>
        %92 = vector.transfer_read %subview[%47, %89], %0 {in_bounds = [true, true]} : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>, vector<2x1xf16>
        %93 = vector.insert_strided_slice %92, %91 {offsets = [0, 1, 1, 0, 0, 0], strides = [1, 1]} : vector<2x1xf16> into vector<2x4x2x1x2x1xf16>
        %94 = affine.linearize_index disjoint [%83#1, %c2, %42#1] by (2, 4, 8) : index
        %95 = vector.transfer_read %subview[%44, %94], %0 {in_bounds = [true, true]} : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>, vector<2x1xf16>
        %96 = vector.insert_strided_slice %95, %93 {offsets = [0, 2, 0, 0, 0, 0], strides = [1, 1]} : vector<2x1xf16> into vector<2x4x2x1x2x1xf16>
        %97 = vector.transfer_read %subview[%47, %94], %0 {in_bounds = [true, true]} : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>, vector<2x1xf16>
        %98 = vector.insert_strided_slice %97, %96 {offsets = [0, 2, 1, 0, 0, 0], strides = [1, 1]} : vector<2x1xf16> into vector<2x4x2x1x2x1xf16>
        %99 = affine.linearize_index disjoint [%83#1, %c3, %42#1] by (2, 4, 8) : index
        %100 = vector.transfer_read %subview[%44, %99], %0 {in_bounds = [true, true]} : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>, vector<2x1xf16>
        %101 = vector.insert_strided_slice %100, %98 {offsets = [0, 3, 0, 0, 0, 0], strides = [1, 1]} : vector<2x1xf16> into vector<2x4x2x1x2x1xf16>
        %102 = vector.transfer_read %subview[%47, %99], %0 {in_bounds = [true, true]} : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>, vector<2x1xf16>
        %103 = vector.insert_strided_slice %102, %101 {offsets = [0, 3, 1, 0, 0, 0], strides = [1, 1]} : vector<2x1xf16> into vector<2x4x2x1x2x1xf16>
        %104 = vector.transfer_read %subview[%55, %84], %0 {in_bounds = [true, true]} : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>, vector<2x1xf16>
        %105 = vector.insert_strided_slice %104, %103 {offsets = [1, 0, 0, 0, 0, 0], strides = [1, 1]} : vector<2x1xf16> into vector<2x4x2x1x2x1xf16>
        %106 = vector.transfer_read %subview[%58, %84], %0 {in_bounds = [true, true]} : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>, vector<2x1xf16>
        %107 = vector.insert_strided_slice %106, %105 {offsets = [1, 0, 1, 0, 0, 0], strides = [1, 1]} : vector<2x1xf16> into vector<2x4x2x1x2x1xf16>
        %108 = vector.transfer_read %subview[%55, %89], %0 {in_bounds = [true, true]} : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>, vector<2x1xf16>
        %109 = vector.insert_strided_slice %108, %107 {offsets = [1, 1, 0, 0, 0, 0], strides = [1, 1]} : vector<2x1xf16> into vector<2x4x2x1x2x1xf16>
        %110 = vector.transfer_read %subview[%58, %89], %0 {in_bounds = [true, true]} : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>, vector<2x1xf16>
        %111 = vector.insert_strided_slice %110, %109 {offsets = [1, 1, 1, 0, 0, 0], strides = [1, 1]} : vector<2x1xf16> into vector<2x4x2x1x2x1xf16>
        %112 = vector.transfer_read %subview[%55, %94], %0 {in_bounds = [true, true]} : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>, vector<2x1xf16>
        %113 = vector.insert_strided_slice %112, %111 {offsets = [1, 2, 0, 0, 0, 0], strides = [1, 1]} : vector<2x1xf16> into vector<2x4x2x1x2x1xf16>
        %114 = vector.transfer_read %subview[%58, %94], %0 {in_bounds = [true, true]} : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>, vector<2x1xf16>
        %115 = vector.insert_strided_slice %114, %113 {offsets = [1, 2, 1, 0, 0, 0], strides = [1, 1]} : vector<2x1xf16> into vector<2x4x2x1x2x1xf16>
        %116 = vector.transfer_read %subview[%55, %99], %0 {in_bounds = [true, true]} : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>, vector<2x1xf16>
        %117 = vector.insert_strided_slice %116, %115 {offsets = [1, 3, 0, 0, 0, 0], strides = [1, 1]} : vector<2x1xf16> into vector<2x4x2x1x2x1xf16>
        %118 = vector.transfer_read %subview[%58, %99], %0 {in_bounds = [true, true]} : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>, vector<2x1xf16>
        %119 = vector.insert_strided_slice %118, %117 {offsets = [1, 3, 1, 0, 0, 0], strides = [1, 1]} : vector<2x1xf16> into vector<2x4x2x1x2x1xf16>
        %120 = vector.transpose %82, [0, 2, 4, 1, 3, 5] : vector<2x2x2x2x1x2xf16> to vector<2x2x1x2x2x2xf16>
        %121 = vector.shape_cast %120 : vector<2x2x1x2x2x2xf16> to vector<2x1x1x1x2x1x2x1x1x1x2x2xf16>
        %122 = vector.transpose %121, [0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11] : vector<2x1x1x1x2x1x2x1x1x1x2x2xf16> to vector<2x1x2x1x1x2x1x2x1x1x1x2xf16>
        %123 = vector.transpose %119, [0, 2, 4, 1, 3, 5] : vector<2x4x2x1x2x1xf16> to vector<2x2x2x4x1x1xf16>
        %124 = vector.shape_cast %123 : vector<2x2x2x4x1x1xf16> to vector<2x1x1x1x2x2x4x1x1x1x1x1xf16>
        %125 = vector.transpose %124, [0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11] : vector<2x1x1x1x2x2x4x1x1x1x1x1xf16> to vector<2x1x4x1x1x2x1x1x1x2x1x1xf16>
        %126 = vector.shape_cast %122 : vector<2x1x2x1x1x2x1x2x1x1x1x2xf16> to vector<2x2x2x4xf16>
        %127 = vector.shape_cast %125 : vector<2x1x4x1x1x2x1x1x1x2x1x1xf16> to vector<2x4x1x4xf16>
        %128 = vector.extract %126[0, 0] : vector<2x4xf16> from vector<2x2x2x4xf16>
        %129 = vector.extract %127[0, 0] : vector<1x4xf16> from vector<2x4x1x4xf16>
        %130 = vector.shape_cast %129 : vector<1x4xf16> to vector<2x2xf16>
        %131 = vector.shape_cast %128 : vector<2x4xf16> to vector<2x2x2xf16>
        %132 = vector.transpose %131, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
        %133 = vector.shape_cast %132 : vector<2x2x2xf16> to vector<4x2xf16>
        %134 = nvgpu.mma.sync(%133, %130, %arg10) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %135 = vector.extract %127[0, 1] : vector<1x4xf16> from vector<2x4x1x4xf16>
        %136 = vector.shape_cast %135 : vector<1x4xf16> to vector<2x2xf16>
        %137 = nvgpu.mma.sync(%133, %136, %arg9) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %138 = vector.extract %127[0, 2] : vector<1x4xf16> from vector<2x4x1x4xf16>
        %139 = vector.shape_cast %138 : vector<1x4xf16> to vector<2x2xf16>
        %140 = nvgpu.mma.sync(%133, %139, %arg8) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %141 = vector.extract %127[0, 3] : vector<1x4xf16> from vector<2x4x1x4xf16>
        %142 = vector.shape_cast %141 : vector<1x4xf16> to vector<2x2xf16>
        %143 = nvgpu.mma.sync(%133, %142, %arg7) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %144 = vector.extract %126[1, 0] : vector<2x4xf16> from vector<2x2x2x4xf16>
        %145 = vector.shape_cast %144 : vector<2x4xf16> to vector<2x2x2xf16>
        %146 = vector.transpose %145, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
        %147 = vector.shape_cast %146 : vector<2x2x2xf16> to vector<4x2xf16>
        %148 = nvgpu.mma.sync(%147, %130, %arg6) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %149 = nvgpu.mma.sync(%147, %136, %arg5) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %150 = nvgpu.mma.sync(%147, %139, %arg4) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %151 = nvgpu.mma.sync(%147, %142, %arg3) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %152 = vector.extract %126[0, 1] : vector<2x4xf16> from vector<2x2x2x4xf16>
        %153 = vector.extract %127[1, 0] : vector<1x4xf16> from vector<2x4x1x4xf16>
        %154 = vector.shape_cast %153 : vector<1x4xf16> to vector<2x2xf16>
        %155 = vector.shape_cast %152 : vector<2x4xf16> to vector<2x2x2xf16>
        %156 = vector.transpose %155, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
        %157 = vector.shape_cast %156 : vector<2x2x2xf16> to vector<4x2xf16>
        %158 = nvgpu.mma.sync(%157, %154, %134) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %159 = vector.extract %127[1, 1] : vector<1x4xf16> from vector<2x4x1x4xf16>
        %160 = vector.shape_cast %159 : vector<1x4xf16> to vector<2x2xf16>
        %161 = nvgpu.mma.sync(%157, %160, %137) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %162 = vector.extract %127[1, 2] : vector<1x4xf16> from vector<2x4x1x4xf16>
        %163 = vector.shape_cast %162 : vector<1x4xf16> to vector<2x2xf16>
        %164 = nvgpu.mma.sync(%157, %163, %140) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %165 = vector.extract %127[1, 3] : vector<1x4xf16> from vector<2x4x1x4xf16>
        %166 = vector.shape_cast %165 : vector<1x4xf16> to vector<2x2xf16>
        %167 = nvgpu.mma.sync(%157, %166, %143) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %168 = vector.extract %126[1, 1] : vector<2x4xf16> from vector<2x2x2x4xf16>
        %169 = vector.shape_cast %168 : vector<2x4xf16> to vector<2x2x2xf16>
        %170 = vector.transpose %169, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
        %171 = vector.shape_cast %170 : vector<2x2x2xf16> to vector<4x2xf16>
        %172 = nvgpu.mma.sync(%171, %154, %148) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %173 = nvgpu.mma.sync(%171, %160, %149) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %174 = nvgpu.mma.sync(%171, %163, %150) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        %175 = nvgpu.mma.sync(%171, %166, %151) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
        scf.yield %175, %174, %173, %172, %167, %164, %161, %158 : vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>
      }
      %5 = vector.shape_cast %4#7 : vector<2x2xf32> to vector<1x1x2x2xf32>
      %6 = vector.shape_cast %4#6 : vector<2x2xf32> to vector<1x1x2x2xf32>
      %7 = vector.shape_cast %4#5 : vector<2x2xf32> to vector<1x1x2x2xf32>
      %8 = vector.shape_cast %4#4 : vector<2x2xf32> to vector<1x1x2x2xf32>
      %9 = vector.shape_cast %4#3 : vector<2x2xf32> to vector<1x1x2x2xf32>
      %10 = vector.shape_cast %4#2 : vector<2x2xf32> to vector<1x1x2x2xf32>
      %11 = vector.shape_cast %4#1 : vector<2x2xf32> to vector<1x1x2x2xf32>
      %12 = vector.shape_cast %4#0 : vector<2x2xf32> to vector<1x1x2x2xf32>
      %13 = vector.insert_strided_slice %5, %cst_0 {offsets = [0, 0, 0, 0], strides = [1, 1, 1, 1]} : vector<1x1x2x2xf32> into vector<2x4x2x2xf32>
      %14 = vector.insert_strided_slice %6, %13 {offsets = [0, 1, 0, 0], strides = [1, 1, 1, 1]} : vector<1x1x2x2xf32> into vector<2x4x2x2xf32>
      %15 = vector.insert_strided_slice %7, %14 {offsets = [0, 2, 0, 0], strides = [1, 1, 1, 1]} : vector<1x1x2x2xf32> into vector<2x4x2x2xf32>
      %16 = vector.insert_strided_slice %8, %15 {offsets = [0, 3, 0, 0], strides = [1, 1, 1, 1]} : vector<1x1x2x2xf32> into vector<2x4x2x2xf32>
      %17 = vector.insert_strided_slice %9, %16 {offsets = [1, 0, 0, 0], strides = [1, 1, 1, 1]} : vector<1x1x2x2xf32> into vector<2x4x2x2xf32>
      %18 = vector.insert_strided_slice %10, %17 {offsets = [1, 1, 0, 0], strides = [1, 1, 1, 1]} : vector<1x1x2x2xf32> into vector<2x4x2x2xf32>
      %19 = vector.insert_strided_slice %11, %18 {offsets = [1, 2, 0, 0], strides = [1, 1, 1, 1]} : vector<1x1x2x2xf32> into vector<2x4x2x2xf32>
      %20 = vector.insert_strided_slice %12, %19 {offsets = [1, 3, 0, 0], strides = [1, 1, 1, 1]} : vector<1x1x2x2xf32> into vector<2x4x2x2xf32>
      %21 = vector.shape_cast %20 : vector<2x4x2x2xf32> to vector<2x1x4x1x1x2x1x1x1x1x1x2xf32>
      %22 = vector.transpose %21, [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11] : vector<2x1x4x1x1x2x1x1x1x1x1x2xf32> to vector<2x1x1x1x2x1x4x1x1x1x1x2xf32>
      %23 = vector.shape_cast %22 : vector<2x1x1x1x2x1x4x1x1x1x1x2xf32> to vector<2x2x1x4x1x2xf32>
      %24 = vector.transpose %23, [0, 3, 1, 4, 2, 5] : vector<2x2x1x4x1x2xf32> to vector<2x4x2x1x1x2xf32>
      %25:3 = affine.delinearize_index %thread_id_x into (2, 2, 32) : index, index, index
      %26:3 = affine.delinearize_index %thread_id_x into (8, 4) : index, index, index
      %27 = arith.cmpi eq, %thread_id_y, %c0 : index
      scf.if %27 {
        %28 = affine.linearize_index disjoint [%25#0, %c0, %c0, %26#1] by (2, 2, 2, 8) : index
        %29 = affine.linearize_index disjoint [%25#1, %c0, %26#2, %c0] by (2, 4, 4, 2) : index
        %30 = vector.extract %24[0, 0, 0, 0] : vector<1x2xf32> from vector<2x4x2x1x1x2xf32>
        vector.transfer_write %30, %subview_7[%28, %29] {in_bounds = [true, true]} : vector<1x2xf32>, memref<64x64xf32, strided<[4096, 1], offset: ?>>
        %31 = affine.linearize_index disjoint [%25#0, %c0, %c1, %26#1] by (2, 2, 2, 8) : index
        %32 = vector.extract %24[0, 0, 1, 0] : vector<1x2xf32> from vector<2x4x2x1x1x2xf32>
        vector.transfer_write %32, %subview_7[%31, %29] {in_bounds = [true, true]} : vector<1x2xf32>, memref<64x64xf32, strided<[4096, 1], offset: ?>>
        %33 = affine.linearize_index disjoint [%25#1, %c1, %26#2, %c0] by (2, 4, 4, 2) : index
        %34 = vector.extract %24[0, 1, 0, 0] : vector<1x2xf32> from vector<2x4x2x1x1x2xf32>
        vector.transfer_write %34, %subview_7[%28, %33] {in_bounds = [true, true]} : vector<1x2xf32>, memref<64x64xf32, strided<[4096, 1], offset: ?>>
        %35 = vector.extract %24[0, 1, 1, 0] : vector<1x2xf32> from vector<2x4x2x1x1x2xf32>
        vector.transfer_write %35, %subview_7[%31, %33] {in_bounds = [true, true]} : vector<1x2xf32>, memref<64x64xf32, strided<[4096, 1], offset: ?>>
        %36 = affine.linearize_index disjoint [%25#1, %c2, %26#2, %c0] by (2, 4, 4, 2) : index
        %37 = vector.extract %24[0, 2, 0, 0] : vector<1x2xf32> from vector<2x4x2x1x1x2xf32>
        vector.transfer_write %37, %subview_7[%28, %36] {in_bounds = [true, true]} : vector<1x2xf32>, memref<64x64xf32, strided<[4096, 1], offset: ?>>
        %38 = vector.extract %24[0, 2, 1, 0] : vector<1x2xf32> from vector<2x4x2x1x1x2xf32>
        vector.transfer_write %38, %subview_7[%31, %36] {in_bounds = [true, true]} : vector<1x2xf32>, memref<64x64xf32, strided<[4096, 1], offset: ?>>
        %39 = affine.linearize_index disjoint [%25#1, %c3, %26#2, %c0] by (2, 4, 4, 2) : index
        %40 = vector.extract %24[0, 3, 0, 0] : vector<1x2xf32> from vector<2x4x2x1x1x2xf32>
        vector.transfer_write %40, %subview_7[%28, %39] {in_bounds = [true, true]} : vector<1x2xf32>, memref<64x64xf32, strided<[4096, 1], offset: ?>>
        %41 = vector.extract %24[0, 3, 1, 0] : vector<1x2xf32> from vector<2x4x2x1x1x2xf32>
        vector.transfer_write %41, %subview_7[%31, %39] {in_bounds = [true, true]} : vector<1x2xf32>, memref<64x64xf32, strided<[4096, 1], offset: ?>>
        %42 = affine.linearize_index disjoint [%25#0, %c1, %c0, %26#1] by (2, 2, 2, 8) : index
        %43 = vector.extract %24[1, 0, 0, 0] : vector<1x2xf32> from vector<2x4x2x1x1x2xf32>
        vector.transfer_write %43, %subview_7[%42, %29] {in_bounds = [true, true]} : vector<1x2xf32>, memref<64x64xf32, strided<[4096, 1], offset: ?>>
        %44 = affine.linearize_index disjoint [%25#0, %c1, %c1, %26#1] by (2, 2, 2, 8) : index
        %45 = vector.extract %24[1, 0, 1, 0] : vector<1x2xf32> from vector<2x4x2x1x1x2xf32>
        vector.transfer_write %45, %subview_7[%44, %29] {in_bounds = [true, true]} : vector<1x2xf32>, memref<64x64xf32, strided<[4096, 1], offset: ?>>
        %46 = vector.extract %24[1, 1, 0, 0] : vector<1x2xf32> from vector<2x4x2x1x1x2xf32>
        vector.transfer_write %46, %subview_7[%42, %33] {in_bounds = [true, true]} : vector<1x2xf32>, memref<64x64xf32, strided<[4096, 1], offset: ?>>
        %47 = vector.extract %24[1, 1, 1, 0] : vector<1x2xf32> from vector<2x4x2x1x1x2xf32>
        vector.transfer_write %47, %subview_7[%44, %33] {in_bounds = [true, true]} : vector<1x2xf32>, memref<64x64xf32, strided<[4096, 1], offset: ?>>
        %48 = vector.extract %24[1, 2, 0, 0] : vector<1x2xf32> from vector<2x4x2x1x1x2xf32>
        vector.transfer_write %48, %subview_7[%42, %36] {in_bounds = [true, true]} : vector<1x2xf32>, memref<64x64xf32, strided<[4096, 1], offset: ?>>
        %49 = vector.extract %24[1, 2, 1, 0] : vector<1x2xf32> from vector<2x4x2x1x1x2xf32>
        vector.transfer_write %49, %subview_7[%44, %36] {in_bounds = [true, true]} : vector<1x2xf32>, memref<64x64xf32, strided<[4096, 1], offset: ?>>
        %50 = vector.extract %24[1, 3, 0, 0] : vector<1x2xf32> from vector<2x4x2x1x1x2xf32>
        vector.transfer_write %50, %subview_7[%42, %39] {in_bounds = [true, true]} : vector<1x2xf32>, memref<64x64xf32, strided<[4096, 1], offset: ?>>
        %51 = vector.extract %24[1, 3, 1, 0] : vector<1x2xf32> from vector<2x4x2x1x1x2xf32>
        vector.transfer_write %51, %subview_7[%44, %39] {in_bounds = [true, true]} : vector<1x2xf32>, memref<64x64xf32, strided<[4096, 1], offset: ?>>
      }
      memref.dealloc %subview_4 : memref<64x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>
      memref.dealloc %subview : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>
      gpu.return
    }
  }
}
