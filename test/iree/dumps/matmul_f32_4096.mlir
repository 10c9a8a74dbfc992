// -----// IR Dump After HoistStaticallyBoundAllocationsPass: iree-codegen-hoist-statically-bound-allocations{vscale-max=0 vscale-min=0} //----- //
func.func @main_dispatch_0_matmul_4096x4096x4096_f32() attributes {gpu.known_block_size = array<i32: 32, 8, 1>, translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [32, 8, 1] subgroup_size = 32, {gpu_pipeline_options = #iree_gpu.pipeline_options<no_reduce_shared_memory_bank_conflicts = true, use_igemm_convolution = false>}>} {
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %c32 = arith.constant 32 : index
  %0 = ub.poison : f32
  %cst = arith.constant dense<0.000000e+00> : vector<1x16xf32>
  %thread_id_y = gpu.thread_id y upper_bound 8
  %thread_id_x = gpu.thread_id x upper_bound 32
  %1 = affine.linearize_index disjoint [%thread_id_y, %thread_id_x] by (8, 32) : index
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align = memref.assume_alignment %2, 64 : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align_0 = memref.assume_alignment %3, 64 : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  %4 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align_1 = memref.assume_alignment %4, 64 : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  scf.forall (%arg0, %arg1) in (128, 32) {
    %5 = affine.apply affine_map<(d0) -> (d0 * 128)>(%arg1)
    %6 = affine.apply affine_map<(d0) -> (d0 * 32)>(%arg0)
    %subview = memref.subview %assume_align_1[%6, %5] [32, 128] [1, 1] : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>> to memref<32x128xf32, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    gpu.barrier memfence [#gpu.address_space<workgroup>]
    %7:2 = affine.delinearize_index %1 into (32, 8) : index, index
    %8 = affine.apply affine_map<()[s0] -> (s0 * 16)>()[%7#1]
    %subview_2 = memref.subview %subview[%7#0, %8] [1, 16] [1, 1] : memref<32x128xf32, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<1x16xf32, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    %9 = affine.apply affine_map<(d0)[s0] -> (d0 * 32 + s0)>(%arg0)[%7#0]
    %10 = affine.apply affine_map<(d0)[s0] -> (d0 * 128 + s0 * 16)>(%arg1)[%7#1]
    %11 = scf.for %arg2 = %c0 to %c4096 step %c32 iter_args(%arg3 = %cst) -> (vector<1x16xf32>) {
      %12 = vector.transfer_read %assume_align[%9, %arg2], %0 {in_bounds = [true, true]} : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>, vector<1x32xf32>
      %13 = vector.transfer_read %assume_align_0[%arg2, %10], %0 {in_bounds = [true, true]} : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>, vector<32x16xf32>
      %14 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %12, %13, %arg3 : vector<1x32xf32>, vector<32x16xf32> into vector<1x16xf32>
      scf.yield %14 : vector<1x16xf32>
    }
    vector.transfer_write %11, %subview_2[%c0, %c0] {in_bounds = [true, true]} : vector<1x16xf32>, memref<1x16xf32, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    gpu.barrier memfence [#gpu.address_space<workgroup>]
  } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
  return
}

