// -----// IR Dump After HoistStaticallyBoundAllocationsPass: iree-codegen-hoist-statically-bound-allocations{vscale-max=0 vscale-min=0} //----- //
func.func @main_dispatch_0_batch_matmul_16x1024x1024x1024_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 128, 1, 1>, translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [128, 1, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<prefetch_num_stages = 2, no_reduce_shared_memory_bank_conflicts = false, use_igemm_convolution = false>}>} {
  %alloc = memref.alloc() : memref<1x128x68xf16, #gpu.address_space<workgroup>>
  %alloc_0 = memref.alloc() : memref<1x64x132xf16, #gpu.address_space<workgroup>>
  %c896 = arith.constant 896 : index
  %c768 = arith.constant 768 : index
  %c640 = arith.constant 640 : index
  %c512 = arith.constant 512 : index
  %c384 = arith.constant 384 : index
  %c256 = arith.constant 256 : index
  %cst = arith.constant dense<0.000000e+00> : vector<2x2xf32>
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  %cst_1 = arith.constant dense<0.000000e+00> : vector<1x2x4x2x1x2xf32>
  %0 = ub.poison : f16
  %thread_id_x = gpu.thread_id x upper_bound 128
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>>
  %assume_align = memref.assume_alignment %1, 64 : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>>
  %assume_align_2 = memref.assume_alignment %2, 64 : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<16x1024x1024xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align_3 = memref.assume_alignment %3, 64 : memref<16x1024x1024xf32, #hal.descriptor_type<storage_buffer>>
  %expand_shape = memref.expand_shape %assume_align_3 [[0], [1, 2, 3], [4, 5]] output_shape [16, 64, 2, 8, 128, 8] : memref<16x1024x1024xf32, #hal.descriptor_type<storage_buffer>> into memref<16x64x2x8x128x8xf32, #hal.descriptor_type<storage_buffer>>
  scf.forall (%arg0, %arg1, %arg2) in (16, 16, 16) {
    %4 = affine.apply affine_map<(d0) -> (d0 * 8)>(%arg2)
    %5 = affine.apply affine_map<(d0) -> (d0 * 4)>(%arg1)
    %subview = memref.subview %expand_shape[%arg0, %5, 0, 0, %4, 0] [1, 4, 2, 8, 8, 8] [1, 1, 1, 1, 1, 1] : memref<16x64x2x8x128x8xf32, #hal.descriptor_type<storage_buffer>> to memref<1x4x2x8x8x8xf32, strided<[1048576, 16384, 8192, 1024, 8, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    %subview_4 = memref.subview %alloc_0[0, 0, 0] [1, 64, 128] [1, 1, 1] : memref<1x64x132xf16, #gpu.address_space<workgroup>> to memref<1x64x128xf16, strided<[8448, 132, 1]>, #gpu.address_space<workgroup>>
    %subview_5 = memref.subview %alloc[0, 0, 0] [1, 128, 64] [1, 1, 1] : memref<1x128x68xf16, #gpu.address_space<workgroup>> to memref<1x128x64xf16, strided<[8704, 68, 1]>, #gpu.address_space<workgroup>>
    gpu.barrier memfence [#gpu.address_space<workgroup>]
    %6:3 = affine.delinearize_index %thread_id_x into (2, 2, 32) : index, index, index
    %7:3 = affine.delinearize_index %6#2 into (8, 4) : index, index, index
    %8 = iree_codegen.index_hint %7#1(#iree_gpu.lane_constant<4>) : index
    %9 = iree_codegen.index_hint %7#2(#iree_gpu.lane_increment<4, aligned>) : index
    %10 = affine.linearize_index disjoint [%9, %c0] by (4, 2) : index
    %11 = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%6#1]
    %12 = affine.apply affine_map<()[s0] -> (s0 * 2)>()[%6#0]
    %subview_6 = memref.subview %subview[0, %12, 0, %8, %11, %10] [1, 2, 2, 1, 4, 2] [1, 1, 1, 1, 1, 1] : memref<1x4x2x8x8x8xf32, strided<[1048576, 16384, 8192, 1024, 8, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<1x2x2x1x4x2xf32, strided<[1048576, 16384, 8192, 1024, 8, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    %13 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c0)[%thread_id_x]
    %14:2 = affine.delinearize_index %13 into (64, 16) : index, index
    %15 = affine.apply affine_map<(d0) -> (d0 * 8)>(%14#1)
    %subview_7 = memref.subview %subview_4[0, %14#0, %15] [1, 1, 8] [1, 1, 1] : memref<1x64x128xf16, strided<[8448, 132, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xf16, strided<[8448, 132, 1], offset: ?>, #gpu.address_space<workgroup>>
    %16 = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%arg1)[%14#0]
    %17 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c128)[%thread_id_x]
    %18:2 = affine.delinearize_index %17 into (64, 16) : index, index
    %19 = affine.apply affine_map<(d0) -> (d0 * 8)>(%18#1)
    %subview_8 = memref.subview %subview_4[0, %18#0, %19] [1, 1, 8] [1, 1, 1] : memref<1x64x128xf16, strided<[8448, 132, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xf16, strided<[8448, 132, 1], offset: ?>, #gpu.address_space<workgroup>>
    %20 = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%arg1)[%18#0]
    %21 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c256)[%thread_id_x]
    %22:2 = affine.delinearize_index %21 into (64, 16) : index, index
    %23 = affine.apply affine_map<(d0) -> (d0 * 8)>(%22#1)
    %subview_9 = memref.subview %subview_4[0, %22#0, %23] [1, 1, 8] [1, 1, 1] : memref<1x64x128xf16, strided<[8448, 132, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xf16, strided<[8448, 132, 1], offset: ?>, #gpu.address_space<workgroup>>
    %24 = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%arg1)[%22#0]
    %25 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c384)[%thread_id_x]
    %26:2 = affine.delinearize_index %25 into (64, 16) : index, index
    %27 = affine.apply affine_map<(d0) -> (d0 * 8)>(%26#1)
    %subview_10 = memref.subview %subview_4[0, %26#0, %27] [1, 1, 8] [1, 1, 1] : memref<1x64x128xf16, strided<[8448, 132, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xf16, strided<[8448, 132, 1], offset: ?>, #gpu.address_space<workgroup>>
    %28 = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%arg1)[%26#0]
    %29 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c512)[%thread_id_x]
    %30:2 = affine.delinearize_index %29 into (64, 16) : index, index
    %31 = affine.apply affine_map<(d0) -> (d0 * 8)>(%30#1)
    %subview_11 = memref.subview %subview_4[0, %30#0, %31] [1, 1, 8] [1, 1, 1] : memref<1x64x128xf16, strided<[8448, 132, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xf16, strided<[8448, 132, 1], offset: ?>, #gpu.address_space<workgroup>>
    %32 = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%arg1)[%30#0]
    %33 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c640)[%thread_id_x]
    %34:2 = affine.delinearize_index %33 into (64, 16) : index, index
    %35 = affine.apply affine_map<(d0) -> (d0 * 8)>(%34#1)
    %subview_12 = memref.subview %subview_4[0, %34#0, %35] [1, 1, 8] [1, 1, 1] : memref<1x64x128xf16, strided<[8448, 132, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xf16, strided<[8448, 132, 1], offset: ?>, #gpu.address_space<workgroup>>
    %36 = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%arg1)[%34#0]
    %37 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c768)[%thread_id_x]
    %38:2 = affine.delinearize_index %37 into (64, 16) : index, index
    %39 = affine.apply affine_map<(d0) -> (d0 * 8)>(%38#1)
    %subview_13 = memref.subview %subview_4[0, %38#0, %39] [1, 1, 8] [1, 1, 1] : memref<1x64x128xf16, strided<[8448, 132, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xf16, strided<[8448, 132, 1], offset: ?>, #gpu.address_space<workgroup>>
    %40 = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%arg1)[%38#0]
    %41 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c896)[%thread_id_x]
    %42:2 = affine.delinearize_index %41 into (64, 16) : index, index
    %43 = affine.apply affine_map<(d0) -> (d0 * 8)>(%42#1)
    %subview_14 = memref.subview %subview_4[0, %42#0, %43] [1, 1, 8] [1, 1, 1] : memref<1x64x128xf16, strided<[8448, 132, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xf16, strided<[8448, 132, 1], offset: ?>, #gpu.address_space<workgroup>>
    %44 = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%arg1)[%42#0]
    %45 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c0)[%thread_id_x]
    %46:2 = affine.delinearize_index %45 into (128, 8) : index, index
    %47 = affine.apply affine_map<(d0) -> (d0 * 8)>(%46#1)
    %subview_15 = memref.subview %subview_5[0, %46#0, %47] [1, 1, 8] [1, 1, 1] : memref<1x128x64xf16, strided<[8704, 68, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
    %48 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 * 64)>(%46#1, %arg2)
    %49 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c128)[%thread_id_x]
    %50:2 = affine.delinearize_index %49 into (128, 8) : index, index
    %51 = affine.apply affine_map<(d0) -> (d0 * 8)>(%50#1)
    %subview_16 = memref.subview %subview_5[0, %50#0, %51] [1, 1, 8] [1, 1, 1] : memref<1x128x64xf16, strided<[8704, 68, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
    %52 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 * 64)>(%50#1, %arg2)
    %53 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c256)[%thread_id_x]
    %54:2 = affine.delinearize_index %53 into (128, 8) : index, index
    %55 = affine.apply affine_map<(d0) -> (d0 * 8)>(%54#1)
    %subview_17 = memref.subview %subview_5[0, %54#0, %55] [1, 1, 8] [1, 1, 1] : memref<1x128x64xf16, strided<[8704, 68, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
    %56 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 * 64)>(%54#1, %arg2)
    %57 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c384)[%thread_id_x]
    %58:2 = affine.delinearize_index %57 into (128, 8) : index, index
    %59 = affine.apply affine_map<(d0) -> (d0 * 8)>(%58#1)
    %subview_18 = memref.subview %subview_5[0, %58#0, %59] [1, 1, 8] [1, 1, 1] : memref<1x128x64xf16, strided<[8704, 68, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
    %60 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 * 64)>(%58#1, %arg2)
    %61 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c512)[%thread_id_x]
    %62:2 = affine.delinearize_index %61 into (128, 8) : index, index
    %63 = affine.apply affine_map<(d0) -> (d0 * 8)>(%62#1)
    %subview_19 = memref.subview %subview_5[0, %62#0, %63] [1, 1, 8] [1, 1, 1] : memref<1x128x64xf16, strided<[8704, 68, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
    %64 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 * 64)>(%62#1, %arg2)
    %65 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c640)[%thread_id_x]
    %66:2 = affine.delinearize_index %65 into (128, 8) : index, index
    %67 = affine.apply affine_map<(d0) -> (d0 * 8)>(%66#1)
    %subview_20 = memref.subview %subview_5[0, %66#0, %67] [1, 1, 8] [1, 1, 1] : memref<1x128x64xf16, strided<[8704, 68, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
    %68 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 * 64)>(%66#1, %arg2)
    %69 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c768)[%thread_id_x]
    %70:2 = affine.delinearize_index %69 into (128, 8) : index, index
    %71 = affine.apply affine_map<(d0) -> (d0 * 8)>(%70#1)
    %subview_21 = memref.subview %subview_5[0, %70#0, %71] [1, 1, 8] [1, 1, 1] : memref<1x128x64xf16, strided<[8704, 68, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
    %72 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 * 64)>(%70#1, %arg2)
    %73 = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%c896)[%thread_id_x]
    %74:2 = affine.delinearize_index %73 into (128, 8) : index, index
    %75 = affine.apply affine_map<(d0) -> (d0 * 8)>(%74#1)
    %subview_22 = memref.subview %subview_5[0, %74#0, %75] [1, 1, 8] [1, 1, 1] : memref<1x128x64xf16, strided<[8704, 68, 1]>, #gpu.address_space<workgroup>> to memref<1x1x8xf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
    %76 = affine.apply affine_map<(d0, d1) -> (d0 * 8 + d1 * 64)>(%74#1, %arg2)
    %expand_shape_23 = memref.expand_shape %subview_5 [[0], [1, 2, 3], [4, 5]] output_shape [1, 8, 2, 8, 8, 8] : memref<1x128x64xf16, strided<[8704, 68, 1]>, #gpu.address_space<workgroup>> into memref<1x8x2x8x8x8xf16, strided<[8704, 1088, 544, 68, 8, 1]>, #gpu.address_space<workgroup>>
    %expand_shape_24 = memref.expand_shape %subview_4 [[0], [1, 2, 3], [4, 5, 6]] output_shape [1, 4, 2, 8, 8, 2, 8] : memref<1x64x128xf16, strided<[8448, 132, 1]>, #gpu.address_space<workgroup>> into memref<1x4x2x8x8x2x8xf16, strided<[8448, 2112, 1056, 132, 16, 8, 1]>, #gpu.address_space<workgroup>>
    %77:8 = scf.for %arg3 = %c0 to %c64 step %c8 iter_args(%arg4 = %cst, %arg5 = %cst, %arg6 = %cst, %arg7 = %cst, %arg8 = %cst, %arg9 = %cst, %arg10 = %cst, %arg11 = %cst) -> (vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>) {
      gpu.barrier memfence [#gpu.address_space<workgroup>]
      %95 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 8)>(%arg3, %14#1)
      %subview_25 = memref.subview %assume_align[%arg0, %16, %95] [1, 1, 8] [1, 1, 1] : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>> to memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %96 = vector.transfer_read %subview_25[%c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x1x8xf16>
      vector.transfer_write %96, %subview_7[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xf16>, memref<1x1x8xf16, strided<[8448, 132, 1], offset: ?>, #gpu.address_space<workgroup>>
      %97 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 8)>(%arg3, %18#1)
      %subview_26 = memref.subview %assume_align[%arg0, %20, %97] [1, 1, 8] [1, 1, 1] : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>> to memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %98 = vector.transfer_read %subview_26[%c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x1x8xf16>
      vector.transfer_write %98, %subview_8[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xf16>, memref<1x1x8xf16, strided<[8448, 132, 1], offset: ?>, #gpu.address_space<workgroup>>
      %99 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 8)>(%arg3, %22#1)
      %subview_27 = memref.subview %assume_align[%arg0, %24, %99] [1, 1, 8] [1, 1, 1] : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>> to memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %100 = vector.transfer_read %subview_27[%c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x1x8xf16>
      vector.transfer_write %100, %subview_9[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xf16>, memref<1x1x8xf16, strided<[8448, 132, 1], offset: ?>, #gpu.address_space<workgroup>>
      %101 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 8)>(%arg3, %26#1)
      %subview_28 = memref.subview %assume_align[%arg0, %28, %101] [1, 1, 8] [1, 1, 1] : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>> to memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %102 = vector.transfer_read %subview_28[%c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x1x8xf16>
      vector.transfer_write %102, %subview_10[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xf16>, memref<1x1x8xf16, strided<[8448, 132, 1], offset: ?>, #gpu.address_space<workgroup>>
      %103 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 8)>(%arg3, %30#1)
      %subview_29 = memref.subview %assume_align[%arg0, %32, %103] [1, 1, 8] [1, 1, 1] : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>> to memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %104 = vector.transfer_read %subview_29[%c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x1x8xf16>
      vector.transfer_write %104, %subview_11[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xf16>, memref<1x1x8xf16, strided<[8448, 132, 1], offset: ?>, #gpu.address_space<workgroup>>
      %105 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 8)>(%arg3, %34#1)
      %subview_30 = memref.subview %assume_align[%arg0, %36, %105] [1, 1, 8] [1, 1, 1] : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>> to memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %106 = vector.transfer_read %subview_30[%c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x1x8xf16>
      vector.transfer_write %106, %subview_12[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xf16>, memref<1x1x8xf16, strided<[8448, 132, 1], offset: ?>, #gpu.address_space<workgroup>>
      %107 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 8)>(%arg3, %38#1)
      %subview_31 = memref.subview %assume_align[%arg0, %40, %107] [1, 1, 8] [1, 1, 1] : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>> to memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %108 = vector.transfer_read %subview_31[%c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x1x8xf16>
      vector.transfer_write %108, %subview_13[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xf16>, memref<1x1x8xf16, strided<[8448, 132, 1], offset: ?>, #gpu.address_space<workgroup>>
      %109 = affine.apply affine_map<(d0, d1) -> (d0 * 16 + d1 * 8)>(%arg3, %42#1)
      %subview_32 = memref.subview %assume_align[%arg0, %44, %109] [1, 1, 8] [1, 1, 1] : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>> to memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %110 = vector.transfer_read %subview_32[%c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x1x8xf16>
      vector.transfer_write %110, %subview_14[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xf16>, memref<1x1x8xf16, strided<[8448, 132, 1], offset: ?>, #gpu.address_space<workgroup>>
      %111 = affine.apply affine_map<(d0)[s0] -> (d0 * 16 + s0)>(%arg3)[%46#0]
      %subview_33 = memref.subview %assume_align_2[%arg0, %111, %48] [1, 1, 8] [1, 1, 1] : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>> to memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %112 = vector.transfer_read %subview_33[%c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x1x8xf16>
      vector.transfer_write %112, %subview_15[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xf16>, memref<1x1x8xf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
      %113 = affine.apply affine_map<(d0)[s0] -> (d0 * 16 + s0)>(%arg3)[%50#0]
      %subview_34 = memref.subview %assume_align_2[%arg0, %113, %52] [1, 1, 8] [1, 1, 1] : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>> to memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %114 = vector.transfer_read %subview_34[%c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x1x8xf16>
      vector.transfer_write %114, %subview_16[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xf16>, memref<1x1x8xf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
      %115 = affine.apply affine_map<(d0)[s0] -> (d0 * 16 + s0)>(%arg3)[%54#0]
      %subview_35 = memref.subview %assume_align_2[%arg0, %115, %56] [1, 1, 8] [1, 1, 1] : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>> to memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %116 = vector.transfer_read %subview_35[%c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x1x8xf16>
      vector.transfer_write %116, %subview_17[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xf16>, memref<1x1x8xf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
      %117 = affine.apply affine_map<(d0)[s0] -> (d0 * 16 + s0)>(%arg3)[%58#0]
      %subview_36 = memref.subview %assume_align_2[%arg0, %117, %60] [1, 1, 8] [1, 1, 1] : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>> to memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %118 = vector.transfer_read %subview_36[%c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x1x8xf16>
      vector.transfer_write %118, %subview_18[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xf16>, memref<1x1x8xf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
      %119 = affine.apply affine_map<(d0)[s0] -> (d0 * 16 + s0)>(%arg3)[%62#0]
      %subview_37 = memref.subview %assume_align_2[%arg0, %119, %64] [1, 1, 8] [1, 1, 1] : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>> to memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %120 = vector.transfer_read %subview_37[%c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x1x8xf16>
      vector.transfer_write %120, %subview_19[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xf16>, memref<1x1x8xf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
      %121 = affine.apply affine_map<(d0)[s0] -> (d0 * 16 + s0)>(%arg3)[%66#0]
      %subview_38 = memref.subview %assume_align_2[%arg0, %121, %68] [1, 1, 8] [1, 1, 1] : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>> to memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %122 = vector.transfer_read %subview_38[%c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x1x8xf16>
      vector.transfer_write %122, %subview_20[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xf16>, memref<1x1x8xf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
      %123 = affine.apply affine_map<(d0)[s0] -> (d0 * 16 + s0)>(%arg3)[%70#0]
      %subview_39 = memref.subview %assume_align_2[%arg0, %123, %72] [1, 1, 8] [1, 1, 1] : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>> to memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %124 = vector.transfer_read %subview_39[%c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x1x8xf16>
      vector.transfer_write %124, %subview_21[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xf16>, memref<1x1x8xf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
      %125 = affine.apply affine_map<(d0)[s0] -> (d0 * 16 + s0)>(%arg3)[%74#0]
      %subview_40 = memref.subview %assume_align_2[%arg0, %125, %76] [1, 1, 8] [1, 1, 1] : memref<16x1024x1024xf16, #hal.descriptor_type<storage_buffer>> to memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %126 = vector.transfer_read %subview_40[%c0, %c0, %c0], %0 {in_bounds = [true, true, true]} : memref<1x1x8xf16, strided<[1048576, 1024, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x1x8xf16>
      vector.transfer_write %126, %subview_22[%c0, %c0, %c0] {in_bounds = [true, true, true]} : vector<1x1x8xf16>, memref<1x1x8xf16, strided<[8704, 68, 1], offset: ?>, #gpu.address_space<workgroup>>
      gpu.barrier memfence [#gpu.address_space<workgroup>]
      %127 = vector.transfer_read %expand_shape_24[%c0, %12, %c0, %8, %c0, %c0, %10], %0 {in_bounds = [true, true, true, true, true, true, true]} : memref<1x4x2x8x8x2x8xf16, strided<[8448, 2112, 1056, 132, 16, 8, 1]>, #gpu.address_space<workgroup>>, vector<1x2x2x1x8x2x2xf16>
      %128 = vector.transpose %127, [0, 1, 4, 2, 3, 5, 6] : vector<1x2x2x1x8x2x2xf16> to vector<1x2x8x2x1x2x2xf16>
      %129 = vector.transfer_read %expand_shape_23[%c0, %c0, %c0, %10, %11, %8], %0 {in_bounds = [true, true, true, true, true, true]} : memref<1x8x2x8x8x8xf16, strided<[8704, 1088, 544, 68, 8, 1]>, #gpu.address_space<workgroup>>, vector<1x8x2x2x4x1xf16>
      %130 = vector.transpose %129, [0, 1, 4, 5, 2, 3] : vector<1x8x2x2x4x1xf16> to vector<1x8x4x1x2x2xf16>
      %131 = vector.extract %128[0, 0, 0] : vector<2x1x2x2xf16> from vector<1x2x8x2x1x2x2xf16>
      %132 = vector.extract %130[0, 0, 0] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %133 = vector.shape_cast %132 : vector<1x2x2xf16> to vector<2x2xf16>
      %134 = vector.shape_cast %131 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %135 = vector.transpose %134, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %136 = vector.shape_cast %135 : vector<2x2x2xf16> to vector<4x2xf16>
      %137 = nvgpu.mma.sync(%136, %133, %arg11) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %138 = vector.extract %130[0, 0, 1] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %139 = vector.shape_cast %138 : vector<1x2x2xf16> to vector<2x2xf16>
      %140 = vector.shape_cast %131 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %141 = vector.transpose %140, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %142 = vector.shape_cast %141 : vector<2x2x2xf16> to vector<4x2xf16>
      %143 = nvgpu.mma.sync(%142, %139, %arg10) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %144 = vector.extract %130[0, 0, 2] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %145 = vector.shape_cast %144 : vector<1x2x2xf16> to vector<2x2xf16>
      %146 = vector.shape_cast %131 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %147 = vector.transpose %146, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %148 = vector.shape_cast %147 : vector<2x2x2xf16> to vector<4x2xf16>
      %149 = nvgpu.mma.sync(%148, %145, %arg9) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %150 = vector.extract %130[0, 0, 3] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %151 = vector.shape_cast %150 : vector<1x2x2xf16> to vector<2x2xf16>
      %152 = vector.shape_cast %131 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %153 = vector.transpose %152, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %154 = vector.shape_cast %153 : vector<2x2x2xf16> to vector<4x2xf16>
      %155 = nvgpu.mma.sync(%154, %151, %arg8) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %156 = vector.extract %128[0, 1, 0] : vector<2x1x2x2xf16> from vector<1x2x8x2x1x2x2xf16>
      %157 = vector.shape_cast %132 : vector<1x2x2xf16> to vector<2x2xf16>
      %158 = vector.shape_cast %156 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %159 = vector.transpose %158, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %160 = vector.shape_cast %159 : vector<2x2x2xf16> to vector<4x2xf16>
      %161 = nvgpu.mma.sync(%160, %157, %arg7) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %162 = vector.shape_cast %138 : vector<1x2x2xf16> to vector<2x2xf16>
      %163 = vector.shape_cast %156 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %164 = vector.transpose %163, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %165 = vector.shape_cast %164 : vector<2x2x2xf16> to vector<4x2xf16>
      %166 = nvgpu.mma.sync(%165, %162, %arg6) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %167 = vector.shape_cast %144 : vector<1x2x2xf16> to vector<2x2xf16>
      %168 = vector.shape_cast %156 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %169 = vector.transpose %168, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %170 = vector.shape_cast %169 : vector<2x2x2xf16> to vector<4x2xf16>
      %171 = nvgpu.mma.sync(%170, %167, %arg5) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %172 = vector.shape_cast %150 : vector<1x2x2xf16> to vector<2x2xf16>
      %173 = vector.shape_cast %156 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %174 = vector.transpose %173, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %175 = vector.shape_cast %174 : vector<2x2x2xf16> to vector<4x2xf16>
      %176 = nvgpu.mma.sync(%175, %172, %arg4) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %177 = vector.extract %128[0, 0, 1] : vector<2x1x2x2xf16> from vector<1x2x8x2x1x2x2xf16>
      %178 = vector.extract %130[0, 1, 0] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %179 = vector.shape_cast %178 : vector<1x2x2xf16> to vector<2x2xf16>
      %180 = vector.shape_cast %177 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %181 = vector.transpose %180, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %182 = vector.shape_cast %181 : vector<2x2x2xf16> to vector<4x2xf16>
      %183 = nvgpu.mma.sync(%182, %179, %137) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %184 = vector.extract %130[0, 1, 1] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %185 = vector.shape_cast %184 : vector<1x2x2xf16> to vector<2x2xf16>
      %186 = vector.shape_cast %177 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %187 = vector.transpose %186, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %188 = vector.shape_cast %187 : vector<2x2x2xf16> to vector<4x2xf16>
      %189 = nvgpu.mma.sync(%188, %185, %143) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %190 = vector.extract %130[0, 1, 2] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %191 = vector.shape_cast %190 : vector<1x2x2xf16> to vector<2x2xf16>
      %192 = vector.shape_cast %177 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %193 = vector.transpose %192, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %194 = vector.shape_cast %193 : vector<2x2x2xf16> to vector<4x2xf16>
      %195 = nvgpu.mma.sync(%194, %191, %149) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %196 = vector.extract %130[0, 1, 3] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %197 = vector.shape_cast %196 : vector<1x2x2xf16> to vector<2x2xf16>
      %198 = vector.shape_cast %177 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %199 = vector.transpose %198, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %200 = vector.shape_cast %199 : vector<2x2x2xf16> to vector<4x2xf16>
      %201 = nvgpu.mma.sync(%200, %197, %155) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %202 = vector.extract %128[0, 1, 1] : vector<2x1x2x2xf16> from vector<1x2x8x2x1x2x2xf16>
      %203 = vector.shape_cast %178 : vector<1x2x2xf16> to vector<2x2xf16>
      %204 = vector.shape_cast %202 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %205 = vector.transpose %204, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %206 = vector.shape_cast %205 : vector<2x2x2xf16> to vector<4x2xf16>
      %207 = nvgpu.mma.sync(%206, %203, %161) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %208 = vector.shape_cast %184 : vector<1x2x2xf16> to vector<2x2xf16>
      %209 = vector.shape_cast %202 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %210 = vector.transpose %209, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %211 = vector.shape_cast %210 : vector<2x2x2xf16> to vector<4x2xf16>
      %212 = nvgpu.mma.sync(%211, %208, %166) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %213 = vector.shape_cast %190 : vector<1x2x2xf16> to vector<2x2xf16>
      %214 = vector.shape_cast %202 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %215 = vector.transpose %214, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %216 = vector.shape_cast %215 : vector<2x2x2xf16> to vector<4x2xf16>
      %217 = nvgpu.mma.sync(%216, %213, %171) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %218 = vector.shape_cast %196 : vector<1x2x2xf16> to vector<2x2xf16>
      %219 = vector.shape_cast %202 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %220 = vector.transpose %219, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %221 = vector.shape_cast %220 : vector<2x2x2xf16> to vector<4x2xf16>
      %222 = nvgpu.mma.sync(%221, %218, %176) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %223 = vector.extract %128[0, 0, 2] : vector<2x1x2x2xf16> from vector<1x2x8x2x1x2x2xf16>
      %224 = vector.extract %130[0, 2, 0] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %225 = vector.shape_cast %224 : vector<1x2x2xf16> to vector<2x2xf16>
      %226 = vector.shape_cast %223 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %227 = vector.transpose %226, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %228 = vector.shape_cast %227 : vector<2x2x2xf16> to vector<4x2xf16>
      %229 = nvgpu.mma.sync(%228, %225, %183) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %230 = vector.extract %130[0, 2, 1] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %231 = vector.shape_cast %230 : vector<1x2x2xf16> to vector<2x2xf16>
      %232 = vector.shape_cast %223 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %233 = vector.transpose %232, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %234 = vector.shape_cast %233 : vector<2x2x2xf16> to vector<4x2xf16>
      %235 = nvgpu.mma.sync(%234, %231, %189) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %236 = vector.extract %130[0, 2, 2] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %237 = vector.shape_cast %236 : vector<1x2x2xf16> to vector<2x2xf16>
      %238 = vector.shape_cast %223 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %239 = vector.transpose %238, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %240 = vector.shape_cast %239 : vector<2x2x2xf16> to vector<4x2xf16>
      %241 = nvgpu.mma.sync(%240, %237, %195) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %242 = vector.extract %130[0, 2, 3] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %243 = vector.shape_cast %242 : vector<1x2x2xf16> to vector<2x2xf16>
      %244 = vector.shape_cast %223 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %245 = vector.transpose %244, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %246 = vector.shape_cast %245 : vector<2x2x2xf16> to vector<4x2xf16>
      %247 = nvgpu.mma.sync(%246, %243, %201) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %248 = vector.extract %128[0, 1, 2] : vector<2x1x2x2xf16> from vector<1x2x8x2x1x2x2xf16>
      %249 = vector.shape_cast %224 : vector<1x2x2xf16> to vector<2x2xf16>
      %250 = vector.shape_cast %248 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %251 = vector.transpose %250, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %252 = vector.shape_cast %251 : vector<2x2x2xf16> to vector<4x2xf16>
      %253 = nvgpu.mma.sync(%252, %249, %207) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %254 = vector.shape_cast %230 : vector<1x2x2xf16> to vector<2x2xf16>
      %255 = vector.shape_cast %248 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %256 = vector.transpose %255, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %257 = vector.shape_cast %256 : vector<2x2x2xf16> to vector<4x2xf16>
      %258 = nvgpu.mma.sync(%257, %254, %212) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %259 = vector.shape_cast %236 : vector<1x2x2xf16> to vector<2x2xf16>
      %260 = vector.shape_cast %248 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %261 = vector.transpose %260, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %262 = vector.shape_cast %261 : vector<2x2x2xf16> to vector<4x2xf16>
      %263 = nvgpu.mma.sync(%262, %259, %217) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %264 = vector.shape_cast %242 : vector<1x2x2xf16> to vector<2x2xf16>
      %265 = vector.shape_cast %248 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %266 = vector.transpose %265, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %267 = vector.shape_cast %266 : vector<2x2x2xf16> to vector<4x2xf16>
      %268 = nvgpu.mma.sync(%267, %264, %222) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %269 = vector.extract %128[0, 0, 3] : vector<2x1x2x2xf16> from vector<1x2x8x2x1x2x2xf16>
      %270 = vector.extract %130[0, 3, 0] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %271 = vector.shape_cast %270 : vector<1x2x2xf16> to vector<2x2xf16>
      %272 = vector.shape_cast %269 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %273 = vector.transpose %272, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %274 = vector.shape_cast %273 : vector<2x2x2xf16> to vector<4x2xf16>
      %275 = nvgpu.mma.sync(%274, %271, %229) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %276 = vector.extract %130[0, 3, 1] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %277 = vector.shape_cast %276 : vector<1x2x2xf16> to vector<2x2xf16>
      %278 = vector.shape_cast %269 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %279 = vector.transpose %278, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %280 = vector.shape_cast %279 : vector<2x2x2xf16> to vector<4x2xf16>
      %281 = nvgpu.mma.sync(%280, %277, %235) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %282 = vector.extract %130[0, 3, 2] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %283 = vector.shape_cast %282 : vector<1x2x2xf16> to vector<2x2xf16>
      %284 = vector.shape_cast %269 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %285 = vector.transpose %284, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %286 = vector.shape_cast %285 : vector<2x2x2xf16> to vector<4x2xf16>
      %287 = nvgpu.mma.sync(%286, %283, %241) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %288 = vector.extract %130[0, 3, 3] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %289 = vector.shape_cast %288 : vector<1x2x2xf16> to vector<2x2xf16>
      %290 = vector.shape_cast %269 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %291 = vector.transpose %290, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %292 = vector.shape_cast %291 : vector<2x2x2xf16> to vector<4x2xf16>
      %293 = nvgpu.mma.sync(%292, %289, %247) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %294 = vector.extract %128[0, 1, 3] : vector<2x1x2x2xf16> from vector<1x2x8x2x1x2x2xf16>
      %295 = vector.shape_cast %270 : vector<1x2x2xf16> to vector<2x2xf16>
      %296 = vector.shape_cast %294 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %297 = vector.transpose %296, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %298 = vector.shape_cast %297 : vector<2x2x2xf16> to vector<4x2xf16>
      %299 = nvgpu.mma.sync(%298, %295, %253) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %300 = vector.shape_cast %276 : vector<1x2x2xf16> to vector<2x2xf16>
      %301 = vector.shape_cast %294 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %302 = vector.transpose %301, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %303 = vector.shape_cast %302 : vector<2x2x2xf16> to vector<4x2xf16>
      %304 = nvgpu.mma.sync(%303, %300, %258) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %305 = vector.shape_cast %282 : vector<1x2x2xf16> to vector<2x2xf16>
      %306 = vector.shape_cast %294 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %307 = vector.transpose %306, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %308 = vector.shape_cast %307 : vector<2x2x2xf16> to vector<4x2xf16>
      %309 = nvgpu.mma.sync(%308, %305, %263) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %310 = vector.shape_cast %288 : vector<1x2x2xf16> to vector<2x2xf16>
      %311 = vector.shape_cast %294 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %312 = vector.transpose %311, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %313 = vector.shape_cast %312 : vector<2x2x2xf16> to vector<4x2xf16>
      %314 = nvgpu.mma.sync(%313, %310, %268) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %315 = vector.extract %128[0, 0, 4] : vector<2x1x2x2xf16> from vector<1x2x8x2x1x2x2xf16>
      %316 = vector.extract %130[0, 4, 0] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %317 = vector.shape_cast %316 : vector<1x2x2xf16> to vector<2x2xf16>
      %318 = vector.shape_cast %315 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %319 = vector.transpose %318, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %320 = vector.shape_cast %319 : vector<2x2x2xf16> to vector<4x2xf16>
      %321 = nvgpu.mma.sync(%320, %317, %275) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %322 = vector.extract %130[0, 4, 1] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %323 = vector.shape_cast %322 : vector<1x2x2xf16> to vector<2x2xf16>
      %324 = vector.shape_cast %315 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %325 = vector.transpose %324, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %326 = vector.shape_cast %325 : vector<2x2x2xf16> to vector<4x2xf16>
      %327 = nvgpu.mma.sync(%326, %323, %281) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %328 = vector.extract %130[0, 4, 2] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %329 = vector.shape_cast %328 : vector<1x2x2xf16> to vector<2x2xf16>
      %330 = vector.shape_cast %315 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %331 = vector.transpose %330, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %332 = vector.shape_cast %331 : vector<2x2x2xf16> to vector<4x2xf16>
      %333 = nvgpu.mma.sync(%332, %329, %287) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %334 = vector.extract %130[0, 4, 3] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %335 = vector.shape_cast %334 : vector<1x2x2xf16> to vector<2x2xf16>
      %336 = vector.shape_cast %315 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %337 = vector.transpose %336, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %338 = vector.shape_cast %337 : vector<2x2x2xf16> to vector<4x2xf16>
      %339 = nvgpu.mma.sync(%338, %335, %293) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %340 = vector.extract %128[0, 1, 4] : vector<2x1x2x2xf16> from vector<1x2x8x2x1x2x2xf16>
      %341 = vector.shape_cast %316 : vector<1x2x2xf16> to vector<2x2xf16>
      %342 = vector.shape_cast %340 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %343 = vector.transpose %342, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %344 = vector.shape_cast %343 : vector<2x2x2xf16> to vector<4x2xf16>
      %345 = nvgpu.mma.sync(%344, %341, %299) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %346 = vector.shape_cast %322 : vector<1x2x2xf16> to vector<2x2xf16>
      %347 = vector.shape_cast %340 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %348 = vector.transpose %347, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %349 = vector.shape_cast %348 : vector<2x2x2xf16> to vector<4x2xf16>
      %350 = nvgpu.mma.sync(%349, %346, %304) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %351 = vector.shape_cast %328 : vector<1x2x2xf16> to vector<2x2xf16>
      %352 = vector.shape_cast %340 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %353 = vector.transpose %352, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %354 = vector.shape_cast %353 : vector<2x2x2xf16> to vector<4x2xf16>
      %355 = nvgpu.mma.sync(%354, %351, %309) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %356 = vector.shape_cast %334 : vector<1x2x2xf16> to vector<2x2xf16>
      %357 = vector.shape_cast %340 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %358 = vector.transpose %357, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %359 = vector.shape_cast %358 : vector<2x2x2xf16> to vector<4x2xf16>
      %360 = nvgpu.mma.sync(%359, %356, %314) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %361 = vector.extract %128[0, 0, 5] : vector<2x1x2x2xf16> from vector<1x2x8x2x1x2x2xf16>
      %362 = vector.extract %130[0, 5, 0] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %363 = vector.shape_cast %362 : vector<1x2x2xf16> to vector<2x2xf16>
      %364 = vector.shape_cast %361 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %365 = vector.transpose %364, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %366 = vector.shape_cast %365 : vector<2x2x2xf16> to vector<4x2xf16>
      %367 = nvgpu.mma.sync(%366, %363, %321) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %368 = vector.extract %130[0, 5, 1] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %369 = vector.shape_cast %368 : vector<1x2x2xf16> to vector<2x2xf16>
      %370 = vector.shape_cast %361 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %371 = vector.transpose %370, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %372 = vector.shape_cast %371 : vector<2x2x2xf16> to vector<4x2xf16>
      %373 = nvgpu.mma.sync(%372, %369, %327) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %374 = vector.extract %130[0, 5, 2] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %375 = vector.shape_cast %374 : vector<1x2x2xf16> to vector<2x2xf16>
      %376 = vector.shape_cast %361 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %377 = vector.transpose %376, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %378 = vector.shape_cast %377 : vector<2x2x2xf16> to vector<4x2xf16>
      %379 = nvgpu.mma.sync(%378, %375, %333) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %380 = vector.extract %130[0, 5, 3] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %381 = vector.shape_cast %380 : vector<1x2x2xf16> to vector<2x2xf16>
      %382 = vector.shape_cast %361 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %383 = vector.transpose %382, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %384 = vector.shape_cast %383 : vector<2x2x2xf16> to vector<4x2xf16>
      %385 = nvgpu.mma.sync(%384, %381, %339) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %386 = vector.extract %128[0, 1, 5] : vector<2x1x2x2xf16> from vector<1x2x8x2x1x2x2xf16>
      %387 = vector.shape_cast %362 : vector<1x2x2xf16> to vector<2x2xf16>
      %388 = vector.shape_cast %386 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %389 = vector.transpose %388, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %390 = vector.shape_cast %389 : vector<2x2x2xf16> to vector<4x2xf16>
      %391 = nvgpu.mma.sync(%390, %387, %345) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %392 = vector.shape_cast %368 : vector<1x2x2xf16> to vector<2x2xf16>
      %393 = vector.shape_cast %386 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %394 = vector.transpose %393, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %395 = vector.shape_cast %394 : vector<2x2x2xf16> to vector<4x2xf16>
      %396 = nvgpu.mma.sync(%395, %392, %350) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %397 = vector.shape_cast %374 : vector<1x2x2xf16> to vector<2x2xf16>
      %398 = vector.shape_cast %386 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %399 = vector.transpose %398, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %400 = vector.shape_cast %399 : vector<2x2x2xf16> to vector<4x2xf16>
      %401 = nvgpu.mma.sync(%400, %397, %355) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %402 = vector.shape_cast %380 : vector<1x2x2xf16> to vector<2x2xf16>
      %403 = vector.shape_cast %386 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %404 = vector.transpose %403, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %405 = vector.shape_cast %404 : vector<2x2x2xf16> to vector<4x2xf16>
      %406 = nvgpu.mma.sync(%405, %402, %360) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %407 = vector.extract %128[0, 0, 6] : vector<2x1x2x2xf16> from vector<1x2x8x2x1x2x2xf16>
      %408 = vector.extract %130[0, 6, 0] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %409 = vector.shape_cast %408 : vector<1x2x2xf16> to vector<2x2xf16>
      %410 = vector.shape_cast %407 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %411 = vector.transpose %410, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %412 = vector.shape_cast %411 : vector<2x2x2xf16> to vector<4x2xf16>
      %413 = nvgpu.mma.sync(%412, %409, %367) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %414 = vector.extract %130[0, 6, 1] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %415 = vector.shape_cast %414 : vector<1x2x2xf16> to vector<2x2xf16>
      %416 = vector.shape_cast %407 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %417 = vector.transpose %416, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %418 = vector.shape_cast %417 : vector<2x2x2xf16> to vector<4x2xf16>
      %419 = nvgpu.mma.sync(%418, %415, %373) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %420 = vector.extract %130[0, 6, 2] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %421 = vector.shape_cast %420 : vector<1x2x2xf16> to vector<2x2xf16>
      %422 = vector.shape_cast %407 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %423 = vector.transpose %422, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %424 = vector.shape_cast %423 : vector<2x2x2xf16> to vector<4x2xf16>
      %425 = nvgpu.mma.sync(%424, %421, %379) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %426 = vector.extract %130[0, 6, 3] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %427 = vector.shape_cast %426 : vector<1x2x2xf16> to vector<2x2xf16>
      %428 = vector.shape_cast %407 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %429 = vector.transpose %428, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %430 = vector.shape_cast %429 : vector<2x2x2xf16> to vector<4x2xf16>
      %431 = nvgpu.mma.sync(%430, %427, %385) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %432 = vector.extract %128[0, 1, 6] : vector<2x1x2x2xf16> from vector<1x2x8x2x1x2x2xf16>
      %433 = vector.shape_cast %408 : vector<1x2x2xf16> to vector<2x2xf16>
      %434 = vector.shape_cast %432 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %435 = vector.transpose %434, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %436 = vector.shape_cast %435 : vector<2x2x2xf16> to vector<4x2xf16>
      %437 = nvgpu.mma.sync(%436, %433, %391) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %438 = vector.shape_cast %414 : vector<1x2x2xf16> to vector<2x2xf16>
      %439 = vector.shape_cast %432 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %440 = vector.transpose %439, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %441 = vector.shape_cast %440 : vector<2x2x2xf16> to vector<4x2xf16>
      %442 = nvgpu.mma.sync(%441, %438, %396) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %443 = vector.shape_cast %420 : vector<1x2x2xf16> to vector<2x2xf16>
      %444 = vector.shape_cast %432 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %445 = vector.transpose %444, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %446 = vector.shape_cast %445 : vector<2x2x2xf16> to vector<4x2xf16>
      %447 = nvgpu.mma.sync(%446, %443, %401) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %448 = vector.shape_cast %426 : vector<1x2x2xf16> to vector<2x2xf16>
      %449 = vector.shape_cast %432 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %450 = vector.transpose %449, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %451 = vector.shape_cast %450 : vector<2x2x2xf16> to vector<4x2xf16>
      %452 = nvgpu.mma.sync(%451, %448, %406) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %453 = vector.extract %128[0, 0, 7] : vector<2x1x2x2xf16> from vector<1x2x8x2x1x2x2xf16>
      %454 = vector.extract %130[0, 7, 0] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %455 = vector.shape_cast %454 : vector<1x2x2xf16> to vector<2x2xf16>
      %456 = vector.shape_cast %453 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %457 = vector.transpose %456, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %458 = vector.shape_cast %457 : vector<2x2x2xf16> to vector<4x2xf16>
      %459 = nvgpu.mma.sync(%458, %455, %413) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %460 = vector.extract %130[0, 7, 1] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %461 = vector.shape_cast %460 : vector<1x2x2xf16> to vector<2x2xf16>
      %462 = vector.shape_cast %453 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %463 = vector.transpose %462, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %464 = vector.shape_cast %463 : vector<2x2x2xf16> to vector<4x2xf16>
      %465 = nvgpu.mma.sync(%464, %461, %419) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %466 = vector.extract %130[0, 7, 2] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %467 = vector.shape_cast %466 : vector<1x2x2xf16> to vector<2x2xf16>
      %468 = vector.shape_cast %453 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %469 = vector.transpose %468, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %470 = vector.shape_cast %469 : vector<2x2x2xf16> to vector<4x2xf16>
      %471 = nvgpu.mma.sync(%470, %467, %425) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %472 = vector.extract %130[0, 7, 3] : vector<1x2x2xf16> from vector<1x8x4x1x2x2xf16>
      %473 = vector.shape_cast %472 : vector<1x2x2xf16> to vector<2x2xf16>
      %474 = vector.shape_cast %453 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %475 = vector.transpose %474, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %476 = vector.shape_cast %475 : vector<2x2x2xf16> to vector<4x2xf16>
      %477 = nvgpu.mma.sync(%476, %473, %431) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %478 = vector.extract %128[0, 1, 7] : vector<2x1x2x2xf16> from vector<1x2x8x2x1x2x2xf16>
      %479 = vector.shape_cast %454 : vector<1x2x2xf16> to vector<2x2xf16>
      %480 = vector.shape_cast %478 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %481 = vector.transpose %480, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %482 = vector.shape_cast %481 : vector<2x2x2xf16> to vector<4x2xf16>
      %483 = nvgpu.mma.sync(%482, %479, %437) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %484 = vector.shape_cast %460 : vector<1x2x2xf16> to vector<2x2xf16>
      %485 = vector.shape_cast %478 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %486 = vector.transpose %485, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %487 = vector.shape_cast %486 : vector<2x2x2xf16> to vector<4x2xf16>
      %488 = nvgpu.mma.sync(%487, %484, %442) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %489 = vector.shape_cast %466 : vector<1x2x2xf16> to vector<2x2xf16>
      %490 = vector.shape_cast %478 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %491 = vector.transpose %490, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %492 = vector.shape_cast %491 : vector<2x2x2xf16> to vector<4x2xf16>
      %493 = nvgpu.mma.sync(%492, %489, %447) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      %494 = vector.shape_cast %472 : vector<1x2x2xf16> to vector<2x2xf16>
      %495 = vector.shape_cast %478 : vector<2x1x2x2xf16> to vector<2x2x2xf16>
      %496 = vector.transpose %495, [1, 0, 2] : vector<2x2x2xf16> to vector<2x2x2xf16>
      %497 = vector.shape_cast %496 : vector<2x2x2xf16> to vector<4x2xf16>
      %498 = nvgpu.mma.sync(%497, %494, %452) mmaShape = [16, 8, 16] : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
      scf.yield %498, %493, %488, %483, %477, %471, %465, %459 : vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>, vector<2x2xf32>
    }
    %78 = vector.shape_cast %77#7 : vector<2x2xf32> to vector<1x1x1x2x1x2xf32>
    %79 = vector.shape_cast %77#6 : vector<2x2xf32> to vector<1x1x1x2x1x2xf32>
    %80 = vector.shape_cast %77#5 : vector<2x2xf32> to vector<1x1x1x2x1x2xf32>
    %81 = vector.shape_cast %77#4 : vector<2x2xf32> to vector<1x1x1x2x1x2xf32>
    %82 = vector.shape_cast %77#3 : vector<2x2xf32> to vector<1x1x1x2x1x2xf32>
    %83 = vector.shape_cast %77#2 : vector<2x2xf32> to vector<1x1x1x2x1x2xf32>
    %84 = vector.shape_cast %77#1 : vector<2x2xf32> to vector<1x1x1x2x1x2xf32>
    %85 = vector.shape_cast %77#0 : vector<2x2xf32> to vector<1x1x1x2x1x2xf32>
    %86 = vector.insert_strided_slice %78, %cst_1 offsets = [0, 0, 0, 0, 0, 0], strides = [1, 1, 1, 1, 1, 1] : vector<1x1x1x2x1x2xf32> into vector<1x2x4x2x1x2xf32>
    %87 = vector.insert_strided_slice %79, %86 offsets = [0, 0, 1, 0, 0, 0], strides = [1, 1, 1, 1, 1, 1] : vector<1x1x1x2x1x2xf32> into vector<1x2x4x2x1x2xf32>
    %88 = vector.insert_strided_slice %80, %87 offsets = [0, 0, 2, 0, 0, 0], strides = [1, 1, 1, 1, 1, 1] : vector<1x1x1x2x1x2xf32> into vector<1x2x4x2x1x2xf32>
    %89 = vector.insert_strided_slice %81, %88 offsets = [0, 0, 3, 0, 0, 0], strides = [1, 1, 1, 1, 1, 1] : vector<1x1x1x2x1x2xf32> into vector<1x2x4x2x1x2xf32>
    %90 = vector.insert_strided_slice %82, %89 offsets = [0, 1, 0, 0, 0, 0], strides = [1, 1, 1, 1, 1, 1] : vector<1x1x1x2x1x2xf32> into vector<1x2x4x2x1x2xf32>
    %91 = vector.insert_strided_slice %83, %90 offsets = [0, 1, 1, 0, 0, 0], strides = [1, 1, 1, 1, 1, 1] : vector<1x1x1x2x1x2xf32> into vector<1x2x4x2x1x2xf32>
    %92 = vector.insert_strided_slice %84, %91 offsets = [0, 1, 2, 0, 0, 0], strides = [1, 1, 1, 1, 1, 1] : vector<1x1x1x2x1x2xf32> into vector<1x2x4x2x1x2xf32>
    %93 = vector.insert_strided_slice %85, %92 offsets = [0, 1, 3, 0, 0, 0], strides = [1, 1, 1, 1, 1, 1] : vector<1x1x1x2x1x2xf32> into vector<1x2x4x2x1x2xf32>
    %94 = vector.transpose %93, [0, 1, 3, 4, 2, 5] : vector<1x2x4x2x1x2xf32> to vector<1x2x2x1x4x2xf32>
    vector.transfer_write %94, %subview_6[%c0, %c0, %c0, %c0, %c0, %c0] {in_bounds = [true, true, true, true, true, true]} : vector<1x2x2x1x4x2xf32>, memref<1x2x2x1x4x2xf32, strided<[1048576, 16384, 8192, 1024, 8, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    gpu.barrier memfence [#gpu.address_space<workgroup>]
  } {mapping = [#iree_codegen.workgroup_mapping<z>, #iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
  memref.dealloc %alloc_0 : memref<1x64x132xf16, #gpu.address_space<workgroup>>
  memref.dealloc %alloc : memref<1x128x68xf16, #gpu.address_space<workgroup>>
  return
}

