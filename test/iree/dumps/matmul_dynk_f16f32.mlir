// -----// IR Dump After HoistStaticallyBoundAllocationsPass: iree-codegen-hoist-statically-bound-allocations{vscale-max=0 vscale-min=0} //----- //
func.func @main_dispatch_0_matmul_4096x4096xD_f16xf16xf32() attributes {gpu.known_block_size = array<i32: 32, 8, 1>, translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [32, 8, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>} {
  %c0 = arith.constant 0 : index
  %c32_i64 = arith.constant 32 : i64
  %c1 = arith.constant 1 : index
  %cst = arith.constant dense<0.000000e+00> : vector<1x16xf32>
  %0 = ub.poison : f16
  %thread_id_y = gpu.thread_id y upper_bound 8
  %thread_id_x = gpu.thread_id x upper_bound 32
  %1 = affine.linearize_index disjoint [%thread_id_y, %thread_id_x] by (8, 32) : index
  %2 = hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(0) : i32
  %3 = hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(1) : i32
  %4 = hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(2) : i32
  %5 = hal.interface.constant.load layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) ordinal(3) : i32
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
  %16:2 = util.assume.int 
      %10<umin = 0, umax = 9007199254740991>, 
      %15<umin = 0, umax = 9007199254740991>
    : index, index
  %17 = hal.interface.binding.subspan layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align = memref.assume_alignment %17, 64 : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  %18 = iree_tensor_ext.dispatch.workload.ordinal %16#0, 0 : index
  %19 = iree_tensor_ext.dispatch.workload.ordinal %16#1, 1 : index
  %20 = hal.interface.binding.subspan layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4096x?xf16, #hal.descriptor_type<storage_buffer>>{%18}
  %assume_align_0 = memref.assume_alignment %20, 64 : memref<4096x?xf16, #hal.descriptor_type<storage_buffer>>
  %21 = hal.interface.binding.subspan layout(<constants = 4, bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<?x4096xf16, #hal.descriptor_type<storage_buffer>>{%19}
  %assume_align_1 = memref.assume_alignment %21, 64 : memref<?x4096xf16, #hal.descriptor_type<storage_buffer>>
  scf.forall (%arg0, %arg1) in (128, 32) {
    %22 = affine.apply affine_map<(d0) -> (d0 * 128)>(%arg1)
    %23 = affine.apply affine_map<(d0) -> (d0 * 32)>(%arg0)
    %subview = memref.subview %assume_align[%23, %22] [32, 128] [1, 1] : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>> to memref<32x128xf32, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    gpu.barrier memfence [#gpu.address_space<workgroup>]
    %24:2 = affine.delinearize_index %1 into (32, 8) : index, index
    %25 = affine.apply affine_map<()[s0] -> (s0 * 16)>()[%24#1]
    %subview_2 = memref.subview %subview[%24#0, %25] [1, 16] [1, 1] : memref<32x128xf32, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<1x16xf32, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    %26 = scf.for %arg2 = %c0 to %18 step %c1 iter_args(%arg3 = %cst) -> (vector<1x16xf32>) {
      %27 = affine.apply affine_map<(d0)[s0] -> (d0 * 32 + s0)>(%arg0)[%24#0]
      %28 = affine.apply affine_map<(d0)[s0] -> (d0 * 128 + s0 * 16)>(%arg1)[%24#1]
      %29 = vector.transfer_read %assume_align_0[%27, %arg2], %0 {in_bounds = [true, true]} : memref<4096x?xf16, #hal.descriptor_type<storage_buffer>>, vector<1x1xf16>
      %30 = vector.transfer_read %assume_align_1[%arg2, %28], %0 {in_bounds = [true, true]} : memref<?x4096xf16, #hal.descriptor_type<storage_buffer>>, vector<1x16xf16>
      %31 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %29, %30, %arg3 : vector<1x1xf16>, vector<1x16xf16> into vector<1x16xf32>
      scf.yield %31 : vector<1x16xf32>
    }
    vector.transfer_write %26, %subview_2[%c0, %c0] {in_bounds = [true, true]} : vector<1x16xf32>, memref<1x16xf32, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    gpu.barrier memfence [#gpu.address_space<workgroup>]
  } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
  return
}

