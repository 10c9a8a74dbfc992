// -----// IR Dump After HoistStaticallyBoundAllocationsPass: iree-codegen-hoist-statically-bound-allocations{vscale-max=0 vscale-min=0} //----- //
func.func @main_dispatch_0_matmul_4096x4096x4096_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 128, 1, 1>, translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %alloc = memref.alloc() : memref<32x68xf16, #gpu.address_space<workgroup>>
  %alloc_0 = memref.alloc() : memref<128x36xf16, #gpu.address_space<workgroup>>
  %c384 = arith.constant 384 : index
  %cst = arith.constant dense<0.000000e+00> : vector<2x2xf32>
  %c0 = arith.constant 0 : index
  %c256 = arith.constant 256 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %cst_1 = arith.constant dense<0.000000e+00> : vector<4x4x2x1x2xf32>
  %0 = ub.poison : f16
  %thread_id_x = gpu.thread_id x upper_bound 128
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>>
  %assume_align = memref.assume_alignment %1, 64 : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>>
  %assume_align_2 = memref.assume_alignment %2, 64 : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align_3 = memref.assume_alignment %3, 64 : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  %expand_shape = memref.expand_shape %assume_align_3 [[0, 1, 2], [3, 4]] output_shape [256, 2, 8, 512, 8] : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>> into memref<256x2x8x512x8xf32, #hal.descriptor_type<storage_buffer>>
  scf.forall (%arg0, %arg1) in (32, 64) {
    %4 = affine.apply affine_map<(d0) -> (d0 * 8)>(%arg1)
    %5 = affine.apply affine_map<(d0) -> (d0 * 8)>(%arg0)
    %subview = memref.subview %expand_shape[%5, 0, 0, %4, 0] [8, 2, 8, 8, 8] [1, 1, 1, 1, 1] : memref<256x2x8x512x8xf32, #hal.descriptor_type<storage_buffer>> to memref<8x2x8x8x8xf32, strided<[65536, 32768, 4096, 8, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    %subview_4 = memref.subview %alloc_0[0, 0] [128, 32] [1, 1] : memref<128x36xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>
    %subview_5 = memref.subview %alloc[0, 0] [32, 64] [1, 1] : memref<32x68xf16, #gpu.address_space<workgroup>> to memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>
    gpu.barrier memfence [#gpu.address_space<workgroup>]
    %6:3 = affine.delinearize_index %thread_id_x into (2, 2, 32) : index, index, index
    %7:3 = affine.delinearize_index %6#2 into (8, 4) : index, index, index
    %8 = iree_codegen.index_hint %7#1(#iree_gpu.lane_constant<4>) : index
    %9 = iree_codegen.index_hint %7#2(#iree_gpu.lane_increment<4, aligned>) : index
    %10 = affine.linearize_index disjoint [%9, %c0] by (4, 2) : index
    %11 = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%6#1]
    %12 = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%6#0]
    %subview_6 = memref.subview %subview[%12, 0, %8, %11, %10] [4, 2, 1, 4, 2] [1, 1, 1, 1, 1] : memref<8x2x8x8x8xf32, strided<[65536, 32768, 4096, 8, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<4x2x1x4x2xf32, strided<[65536, 32768, 4096, 8, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    %13 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c0)[%thread_id_x]
    %14:2 = affine.delinearize_index %13 into (128, 4) : index, index
    %15 = affine.apply affine_map<(d0) -> (d0 * 8)>(%14#1)
    %subview_7 = memref.subview %subview_4[%14#0, %15] [1, 8] [1, 1] : memref<128x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[36, 1], offset: ?>, #gpu.address_space<workgroup>>
    %16 = affine.apply affine_map<(d0)[s0] -> (d0 * 128 + s0)>(%arg0)[%14#0]
    %17 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c128)[%thread_id_x]
    %18:2 = affine.delinearize_index %17 into (128, 4) : index, index
    %19 = affine.apply affine_map<(d0) -> (d0 * 8)>(%18#1)
    %subview_8 = memref.subview %subview_4[%18#0, %19] [1, 8] [1, 1] : memref<128x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[36, 1], offset: ?>, #gpu.address_space<workgroup>>
    %20 = affine.apply affine_map<(d0)[s0] -> (d0 * 128 + s0)>(%arg0)[%18#0]
    %21 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c256)[%thread_id_x]
    %22:2 = affine.delinearize_index %21 into (128, 4) : index, index
    %23 = affine.apply affine_map<(d0) -> (d0 * 8)>(%22#1)
    %subview_9 = memref.subview %subview_4[%22#0, %23] [1, 8] [1, 1] : memref<128x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[36, 1], offset: ?>, #gpu.address_space<workgroup>>
    %24 = affine.apply affine_map<(d0)[s0] -> (d0 * 128 + s0)>(%arg0)[%22#0]
    %25 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c384)[%thread_id_x]
    %26:2 = affine.delinearize_index %25 into (128, 4) : index, index
    %27 = affine.apply affine_map<(d0) -> (d0 * 8)>(%26#1)
    %subview_10 = memref.subview %subview_4[%26#0, %27] [1, 8] [1, 1] : memref<128x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[36, 1], offset: ?>, #gpu.address_space<workgroup>>
    %28 = affine.apply affine_map<(d0)[s0] -> (d0 * 128 + s0)>(%arg0)[%26#0]
    %29 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c0)[%thread_id_x]
    %30:2 = affine.delinearize_index %29 into (32, 8) : index, index
    %31 = affine.apply affine_map<(d0) -> (d0 * 8)>(%30#1)
    %subview_11 = memref.subview %subview_5[%30#0, %31] [1, 8] [1, 1] : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[68, 1], offset: ?>, #gpu.address_space<workgroup>>
    %32 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 * 64)>(%30#1, %arg1)
    %33 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c128)[%thread_id_x]
    %34:2 = affine.delinearize_index %33 into (32, 8) : index, index
    %35 = affine.apply affine_map<(d0) -> (d0 * 8)>(%34#1)
    %subview_12 = memref.subview %subview_5[%34#0, %35] [1, 8] [1, 1] : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[68, 1], offset: ?>, #gpu.address_space<workgroup>>
    %36 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 * 64)>(%34#1, %arg1)
    %expand_shape_13 = memref.expand_shape %subview_5 [[0, 1, 2], [3, 4]] output_shape [2, 2, 8, 8, 8] : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>> into memref<2x2x8x8x8xf16, strided<[1088, 544, 68, 8, 1]>, #gpu.address_space<workgroup>>
    %expand_shape_14 = memref.expand_shape %subview_4 [[0, 1, 2], [3, 4, 5]] output_shape [8, 2, 8, 2, 2, 8] : memref<128x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>> into memref<8x2x8x2x2x8xf16, strided<[576, 288, 36, 16, 8, 1]>, #gpu.address_space<workgroup>>
    %37:16 = scf.for %arg2 = %c0 to %c256 step %c2 iter_args(%arg3 = %cst, %arg4 = %cst, %arg5 = %cst, %arg6 = %cst, %arg7 = %cst, %arg8 = %cst, %arg9 = %cst, %arg10 = %cst, %arg11 = %cst, %arg12 = %cst, %arg13 = %cst, %arg14 = %cst, %arg15 = %cst, %arg16 = %cst, %arg17 = %cst, %arg18 = %cst) -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>) {
      gpu.barrier memfence [#gpu.address_space<workgroup>]
      %71 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 8)>(%arg2, %14#1)
      %subview_15 = memref.subview %assume_align[%16, %71] [1, 8] [1, 1] : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>> to memref<1x8xf16, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %72 = vector.transfer_read %subview_15[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xf16, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x8xf16>
      vector.transfer_write %72, %subview_7[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[36, 1], offset: ?>, #gpu.address_space<workgroup>>
      %73 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 8)>(%arg2, %18#1)
      %subview_16 = memref.subview %assume_align[%20, %73] [1, 8] [1, 1] : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>> to memref<1x8xf16, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %74 = vector.transfer_read %subview_16[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xf16, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x8xf16>
      vector.transfer_write %74, %subview_8[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[36, 1], offset: ?>, #gpu.address_space<workgroup>>
      %75 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 8)>(%arg2, %22#1)
      %subview_17 = memref.subview %assume_align[%24, %75] [1, 8] [1, 1] : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>> to memref<1x8xf16, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %76 = vector.transfer_read %subview_17[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xf16, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x8xf16>
      vector.transfer_write %76, %subview_9[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[36, 1], offset: ?>, #gpu.address_space<workgroup>>
      %77 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 8)>(%arg2, %26#1)
      %subview_18 = memref.subview %assume_align[%28, %77] [1, 8] [1, 1] : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>> to memref<1x8xf16, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %78 = vector.transfer_read %subview_18[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xf16, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x8xf16>
      vector.transfer_write %78, %subview_10[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[36, 1], offset: ?>, #gpu.address_space<workgroup>>
      %79 = affine.apply affine_map<(d0)[s0] -> (d0 * 16 + s0)>(%arg2)[%30#0]
      %subview_19 = memref.subview %assume_align_2[%79, %32] [1, 8] [1, 1] : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>> to memref<1x8xf16, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %80 = vector.transfer_read %subview_19[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xf16, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x8xf16>
      vector.transfer_write %80, %subview_11[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[68, 1], offset: ?>, #gpu.address_space<workgroup>>
      %81 = affine.apply affine_map<(d0)[s0] -> (d0 * 16 + s0)>(%arg2)[%34#0]
      %subview_20 = memref.subview %assume_align_2[%81, %36] [1, 8] [1, 1] : memref<4096x4096xf16, #hal.descriptor_type<storage_buffer>> to memref<1x8xf16, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %82 = vector.transfer_read %subview_20[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x8xf16, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x8xf16>
      vector.transfer_write %82, %subview_12[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[68, 1], offset: ?>, #gpu.address_space<workgroup>>
      gpu.barrier memfence [#gpu.address_space<workgroup>]
      %83 = vector.transfer_read %expand_shape_14[%12, %c0, %8, %c0, %c0, %10], %0 {in_bounds = [true, true, true, true, true, true]} : memref<8x2x8x2x2x8xf16, strided<[576, 288, 36, 16, 8, 1]>, #gpu.address_space<workgroup>>, vector<4x2x1x2x2x2xf16>
      %84 = vector.transpose %83, [0, 3, 1, 2, 4, 5] : vector<4x2x1x2x2x2xf16> to vector<4x2x2x1x2x2xf16>
      %85 = vector.transfer_read %expand_shape_13[%c0, %c0, %10, %11, %8], %0 {in_bounds = [true, true, true, true, true]} : memref<2x2x8x8x8xf16, strided<[1088, 544, 68, 8, 1]>, #gpu.address_space<workgroup>>, vector<2x2x2x4x1xf16>
      %86 = vector.transpose %85, [0, 3, 4, 1, 2] : vector<2x2x2x4x1xf16> to vector<2x4x1x2x2xf16>
      %87 = vector.extract %84[0, 0] : vector<2x1x2x2xf16> from vector<4x2x2x1x2x2xf16>
      %88 = vector.extract %86[0, 0] : vector<1x2x2xf16> from vector<2x4x1x2x2xf16>
      %89 = vector.shape_cast %88 : vector<1x2x2xf16> to vector<2x2xf16>
      %90 = vector.shape_cast %87 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %91 = vector.transpose %90, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %92 = vector.shape_cast %91 : vector<2x2x2xf16> to vector<4x2xf16>
      %93 = nvgpu.mma.sync(%92, %89, %arg18) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %94 = vector.extract %86[0, 1] : vector<1x2x2xf16> from vector<2x4x1x2x2xf16>
      %95 = vector.shape_cast %94 : vector<1x2x2xf16> to vector<2x2xf16>
      %96 = vector.shape_cast %87 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %97 = vector.transpose %96, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %98 = vector.shape_cast %97 : vector<2x2x2xf16> to vector<4x2xf16>
      %99 = nvgpu.mma.sync(%98, %95, %arg17) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %100 = vector.extract %86[0, 2] : vector<1x2x2xf16> from vector<2x4x1x2x2xf16>
      %101 = vector.shape_cast %100 : vector<1x2x2xf16> to vector<2x2xf16>
      %102 = vector.shape_cast %87 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %103 = vector.transpose %102, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %104 = vector.shape_cast %103 : vector<2x2x2xf16> to vector<4x2xf16>
      %105 = nvgpu.mma.sync(%104, %101, %arg16) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %106 = vector.extract %86[0, 3] : vector<1x2x2xf16> from vector<2x4x1x2x2xf16>
      %107 = vector.shape_cast %106 : vector<1x2x2xf16> to vector<2x2xf16>
      %108 = vector.shape_cast %87 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %109 = vector.transpose %108, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %110 = vector.shape_cast %109 : vector<2x2x2xf16> to vector<4x2xf16>
      %111 = nvgpu.mma.sync(%110, %107, %arg15) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %112 = vector.extract %84[1, 0] : vector<2x1x2x2xf16> from vector<4x2x2x1x2x2xf16>
      %113 = vector.shape_cast %88 : vector<1x2x2xf16> to vector<2x2xf16>
      %114 = vector.shape_cast %112 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %115 = vector.transpose %114, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %116 = vector.shape_cast %115 : vector<2x2x2xf16> to vector<4x2xf16>
      %117 = nvgpu.mma.sync(%116, %113, %arg14) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %118 = vector.shape_cast %94 : vector<1x2x2xf16> to vector<2x2xf16>
      %119 = vector.shape_cast %112 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %120 = vector.transpose %119, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %121 = vector.shape_cast %120 : vector<2x2x2xf16> to vector<4x2xf16>
      %122 = nvgpu.mma.sync(%121, %118, %arg13) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %123 = vector.shape_cast %100 : vector<1x2x2xf16> to vector<2x2xf16>
      %124 = vector.shape_cast %112 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %125 = vector.transpose %124, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %126 = vector.shape_cast %125 : vector<2x2x2xf16> to vector<4x2xf16>
      %127 = nvgpu.mma.sync(%126, %123, %arg12) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %128 = vector.shape_cast %106 : vector<1x2x2xf16> to vector<2x2xf16>
      %129 = vector.shape_cast %112 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %130 = vector.transpose %129, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %131 = vector.shape_cast %130 : vector<2x2x2xf16> to vector<4x2xf16>
      %132 = nvgpu.mma.sync(%131, %128, %arg11) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %133 = vector.extract %84[2, 0] : vector<2x1x2x2xf16> from vector<4x2x2x1x2x2xf16>
      %134 = vector.shape_cast %88 : vector<1x2x2xf16> to vector<2x2xf16>
      %135 = vector.shape_cast %133 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %136 = vector.transpose %135, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %137 = vector.shape_cast %136 : vector<2x2x2xf16> to vector<4x2xf16>
      %138 = nvgpu.mma.sync(%137, %134, %arg10) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %139 = vector.shape_cast %94 : vector<1x2x2xf16> to vector<2x2xf16>
      %140 = vector.shape_cast %133 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %141 = vector.transpose %140, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %142 = vector.shape_cast %141 : vector<2x2x2xf16> to vector<4x2xf16>
      %143 = nvgpu.mma.sync(%142, %139, %arg9) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %144 = vector.shape_cast %100 : vector<1x2x2xf16> to vector<2x2xf16>
      %145 = vector.shape_cast %133 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %146 = vector.transpose %145, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %147 = vector.shape_cast %146 : vector<2x2x2xf16> to vector<4x2xf16>
      %148 = nvgpu.mma.sync(%147, %144, %arg8) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %149 = vector.shape_cast %106 : vector<1x2x2xf16> to vector<2x2xf16>
      %150 = vector.shape_cast %133 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %151 = vector.transpose %150, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %152 = vector.shape_cast %151 : vector<2x2x2xf16> to vector<4x2xf16>
      %153 = nvgpu.mma.sync(%152, %149, %arg7) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %154 = vector.extract %84[3, 0] : vector<2x1x2x2xf16> from vector<4x2x2x1x2x2xf16>
      %155 = vector.shape_cast %88 : vector<1x2x2xf16> to vector<2x2xf16>
      %156 = vector.shape_cast %154 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %157 = vector.transpose %156, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %158 = vector.shape_cast %157 : vector<2x2x2xf16> to vector<4x2xf16>
      %159 = nvgpu.mma.sync(%158, %155, %arg6) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %160 = vector.shape_cast %94 : vector<1x2x2xf16> to vector<2x2xf16>
      %161 = vector.shape_cast %154 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %162 = vector.transpose %161, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %163 = vector.shape_cast %162 : vector<2x2x2xf16> to vector<4x2xf16>
      %164 = nvgpu.mma.sync(%163, %160, %arg5) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %165 = vector.shape_cast %100 : vector<1x2x2xf16> to vector<2x2xf16>
      %166 = vector.shape_cast %154 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %167 = vector.transpose %166, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %168 = vector.shape_cast %167 : vector<2x2x2xf16> to vector<4x2xf16>
      %169 = nvgpu.mma.sync(%168, %165, %arg4) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %170 = vector.shape_cast %106 : vector<1x2x2xf16> to vector<2x2xf16>
      %171 = vector.shape_cast %154 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %172 = vector.transpose %171, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %173 = vector.shape_cast %172 : vector<2x2x2xf16> to vector<4x2xf16>
      %174 = nvgpu.mma.sync(%173, %170, %arg3) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %175 = vector.extract %84[0, 1] : vector<2x1x2x2xf16> from vector<4x2x2x1x2x2xf16>
      %176 = vector.extract %86[1, 0] : vector<1x2x2xf16> from vector<2x4x1x2x2xf16>
      %177 = vector.shape_cast %176 : vector<1x2x2xf16> to vector<2x2xf16>
      %178 = vector.shape_cast %175 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %179 = vector.transpose %178, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %180 = vector.shape_cast %179 : vector<2x2x2xf16> to vector<4x2xf16>
      %181 = nvgpu.mma.sync(%180, %177, %93) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %182 = vector.extract %86[1, 1] : vector<1x2x2xf16> from vector<2x4x1x2x2xf16>
      %183 = vector.shape_cast %182 : vector<1x2x2xf16> to vector<2x2xf16>
      %184 = vector.shape_cast %175 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %185 = vector.transpose %184, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %186 = vector.shape_cast %185 : vector<2x2x2xf16> to vector<4x2xf16>
      %187 = nvgpu.mma.sync(%186, %183, %99) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %188 = vector.extract %86[1, 2] : vector<1x2x2xf16> from vector<2x4x1x2x2xf16>
      %189 = vector.shape_cast %188 : vector<1x2x2xf16> to vector<2x2xf16>
      %190 = vector.shape_cast %175 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %191 = vector.transpose %190, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %192 = vector.shape_cast %191 : vector<2x2x2xf16> to vector<4x2xf16>
      %193 = nvgpu.mma.sync(%192, %189, %105) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %194 = vector.extract %86[1, 3] : vector<1x2x2xf16> from vector<2x4x1x2x2xf16>
      %195 = vector.shape_cast %194 : vector<1x2x2xf16> to vector<2x2xf16>
      %196 = vector.shape_cast %175 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %197 = vector.transpose %196, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %198 = vector.shape_cast %197 : vector<2x2x2xf16> to vector<4x2xf16>
      %199 = nvgpu.mma.sync(%198, %195, %111) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %200 = vector.extract %84[1, 1] : vector<2x1x2x2xf16> from vector<4x2x2x1x2x2xf16>
      %201 = vector.shape_cast %176 : vector<1x2x2xf16> to vector<2x2xf16>
      %202 = vector.shape_cast %200 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %203 = vector.transpose %202, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %204 = vector.shape_cast %203 : vector<2x2x2xf16> to vector<4x2xf16>
      %205 = nvgpu.mma.sync(%204, %201, %117) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %206 = vector.shape_cast %182 : vector<1x2x2xf16> to vector<2x2xf16>
      %207 = vector.shape_cast %200 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %208 = vector.transpose %207, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %209 = vector.shape_cast %208 : vector<2x2x2xf16> to vector<4x2xf16>
      %210 = nvgpu.mma.sync(%209, %206, %122) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %211 = vector.shape_cast %188 : vector<1x2x2xf16> to vector<2x2xf16>
      %212 = vector.shape_cast %200 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %213 = vector.transpose %212, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %214 = vector.shape_cast %213 : vector<2x2x2xf16> to vector<4x2xf16>
      %215 = nvgpu.mma.sync(%214, %211, %127) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %216 = vector.shape_cast %194 : vector<1x2x2xf16> to vector<2x2xf16>
      %217 = vector.shape_cast %200 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %218 = vector.transpose %217, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %219 = vector.shape_cast %218 : vector<2x2x2xf16> to vector<4x2xf16>
      %220 = nvgpu.mma.sync(%219, %216, %132) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %221 = vector.extract %84[2, 1] : vector<2x1x2x2xf16> from vector<4x2x2x1x2x2xf16>
      %222 = vector.shape_cast %176 : vector<1x2x2xf16> to vector<2x2xf16>
      %223 = vector.shape_cast %221 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %224 = vector.transpose %223, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %225 = vector.shape_cast %224 : vector<2x2x2xf16> to vector<4x2xf16>
      %226 = nvgpu.mma.sync(%225, %222, %138) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %227 = vector.shape_cast %182 : vector<1x2x2xf16> to vector<2x2xf16>
      %228 = vector.shape_cast %221 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %229 = vector.transpose %228, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %230 = vector.shape_cast %229 : vector<2x2x2xf16> to vector<4x2xf16>
      %231 = nvgpu.mma.sync(%230, %227, %143) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %232 = vector.shape_cast %188 : vector<1x2x2xf16> to vector<2x2xf16>
      %233 = vector.shape_cast %221 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %234 = vector.transpose %233, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %235 = vector.shape_cast %234 : vector<2x2x2xf16> to vector<4x2xf16>
      %236 = nvgpu.mma.sync(%235, %232, %148) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %237 = vector.shape_cast %194 : vector<1x2x2xf16> to vector<2x2xf16>
      %238 = vector.shape_cast %221 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %239 = vector.transpose %238, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %240 = vector.shape_cast %239 : vector<2x2x2xf16> to vector<4x2xf16>
      %241 = nvgpu.mma.sync(%240, %237, %153) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %242 = vector.extract %84[3, 1] : vector<2x1x2x2xf16> from vector<4x2x2x1x2x2xf16>
      %243 = vector.shape_cast %176 : vector<1x2x2xf16> to vector<2x2xf16>
      %244 = vector.shape_cast %242 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %245 = vector.transpose %244, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %246 = vector.shape_cast %245 : vector<2x2x2xf16> to vector<4x2xf16>
      %247 = nvgpu.mma.sync(%246, %243, %159) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %248 = vector.shape_cast %182 : vector<1x2x2xf16> to vector<2x2xf16>
      %249 = vector.shape_cast %242 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %250 = vector.transpose %249, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %251 = vector.shape_cast %250 : vector<2x2x2xf16> to vector<4x2xf16>
      %252 = nvgpu.mma.sync(%251, %248, %164) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %253 = vector.shape_cast %188 : vector<1x2x2xf16> to vector<2x2xf16>
      %254 = vector.shape_cast %242 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %255 = vector.transpose %254, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %256 = vector.shape_cast %255 : vector<2x2x2xf16> to vector<4x2xf16>
      %257 = nvgpu.mma.sync(%256, %253, %169) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %258 = vector.shape_cast %194 : vector<1x2x2xf16> to vector<2x2xf16>
      %259 = vector.shape_cast %242 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %260 = vector.transpose %259, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %261 = vector.shape_cast %260 : vector<2x2x2xf16> to vector<4x2xf16>
      %262 = nvgpu.mma.sync(%261, %258, %174) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      scf.yield %262, %257, %252, %247, %241, %236, %231, %226, %220, %215, %210, %205, %199, %193, %187, %181 : vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>
    }
    %38 = vector.shape_cast %37#15 : vector<2x2xf32> to vector<1x1x2x1x2xf32>
    %39 = vector.shape_cast %37#14 : vector<2x2xf32> to vector<1x1x2x1x2xf32>
    %40 = vector.shape_cast %37#13 : vector<2x2xf32> to vector<1x1x2x1x2xf32>
    %41 = vector.shape_cast %37#12 : vector<2x2xf32> to vector<1x1x2x1x2xf32>
    %42 = vector.shape_cast %37#11 : vector<2x2xf32> to vector<1x1x2x1x2xf32>
    %43 = vector.shape_cast %37#10 : vector<2x2xf32> to vector<1x1x2x1x2xf32>
    %44 = vector.shape_cast %37#9 : vector<2x2xf32> to vector<1x1x2x1x2xf32>
    %45 = vector.shape_cast %37#8 : vector<2x2xf32> to vector<1x1x2x1x2xf32>
    %46 = vector.shape_cast %37#7 : vector<2x2xf32> to vector<1x1x2x1x2xf32>
    %47 = vector.shape_cast %37#6 : vector<2x2xf32> to vector<1x1x2x1x2xf32>
    %48 = vector.shape_cast %37#5 : vector<2x2xf32> to vector<1x1x2x1x2xf32>
    %49 = vector.shape_cast %37#4 : vector<2x2xf32> to vector<1x1x2x1x2xf32>
    %50 = vector.shape_cast %37#3 : vector<2x2xf32> to vector<1x1x2x1x2xf32>
    %51 = vector.shape_cast %37#2 : vector<2x2xf32> to vector<1x1x2x1x2xf32>
    %52 = vector.shape_cast %37#1 : vector<2x2xf32> to vector<1x1x2x1x2xf32>
    %53 = vector.shape_cast %37#0 : vector<2x2xf32> to vector<1x1x2x1x2xf32>
    %54 = vector.insert_strided_slice %38, %cst_1 offsets = [0, 0, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x2x1x2xf32> into vector<4x4x2x1x2xf32>
    %55 = vector.insert_strided_slice %39, %54 offsets = [0, 1, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x2x1x2xf32> into vector<4x4x2x1x2xf32>
    %56 = vector.insert_strided_slice %40, %55 offsets = [0, 2, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x2x1x2xf32> into vector<4x4x2x1x2xf32>
    %57 = vector.insert_strided_slice %41, %56 offsets = [0, 3, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x2x1x2xf32> into vector<4x4x2x1x2xf32>
    %58 = vector.insert_strided_slice %42, %57 offsets = [1, 0, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x2x1x2xf32> into vector<4x4x2x1x2xf32>
    %59 = vector.insert_strided_slice %43, %58 offsets = [1, 1, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x2x1x2xf32> into vector<4x4x2x1x2xf32>
    %60 = vector.insert_strided_slice %44, %59 offsets = [1, 2, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x2x1x2xf32> into vector<4x4x2x1x2xf32>
    %61 = vector.insert_strided_slice %45, %60 offsets = [1, 3, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x2x1x2xf32> into vector<4x4x2x1x2xf32>
    %62 = vector.insert_strided_slice %46, %61 offsets = [2, 0, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x2x1x2xf32> into vector<4x4x2x1x2xf32>
    %63 = vector.insert_strided_slice %47, %62 offsets = [2, 1, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x2x1x2xf32> into vector<4x4x2x1x2xf32>
    %64 = vector.insert_strided_slice %48, %63 offsets = [2, 2, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x2x1x2xf32> into vector<4x4x2x1x2xf32>
    %65 = vector.insert_strided_slice %49, %64 offsets = [2, 3, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x2x1x2xf32> into vector<4x4x2x1x2xf32>
    %66 = vector.insert_strided_slice %50, %65 offsets = [3, 0, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x2x1x2xf32> into vector<4x4x2x1x2xf32>
    %67 = vector.insert_strided_slice %51, %66 offsets = [3, 1, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x2x1x2xf32> into vector<4x4x2x1x2xf32>
    %68 = vector.insert_strided_slice %52, %67 offsets = [3, 2, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x2x1x2xf32> into vector<4x4x2x1x2xf32>
    %69 = vector.insert_strided_slice %53, %68 offsets = [3, 3, 0, 0, 0], strides = [1, 1, 1, 1, 1] : vector<1x1x2x1x2xf32> into vector<4x4x2x1x2xf32>
    %70 = vector.transpose %69, [0, 2, 3, 1, 4] : vector<4x4x2x1x2xf32> to vector<4x2x1x4x2xf32>
    vector.transfer_write %70, %subview_6[%c0, %c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true, true]} : vector<4x2x1x4x2xf32>, memref<4x2x1x4x2xf32, strided<[65536, 32768, 4096, 8, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    gpu.barrier memfence [#gpu.address_space<workgroup>]
  } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
  memref.dealloc %alloc_0 : memref<128x36xf16, #gpu.address_space<workgroup>>
  memref.dealloc %alloc : memref<32x68xf16, #gpu.address_space<workgroup>>
  return
}

