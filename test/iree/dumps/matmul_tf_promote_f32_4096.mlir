// -----// IR Dump After HoistStaticallyBoundAllocationsPass: iree-codegen-hoist-statically-bound-allocations{vscale-max=0 vscale-min=0} //----- //
func.func @main_dispatch_0_matmul_4096x4096x4096_f32() attributes {gpu.known_block_size = array<i32: 256, 1, 1>, translation_info = #iree_codegen.translation_info<pipeline = #iree_gpu.pipeline<TileAndFuse> workgroup_size = [256, 1, 1] subgroup_size = 32>} {
  %alloc = memref.alloc() : memref<16x66xf32, #gpu.address_space<workgroup>>
  %alloc_0 = memref.alloc() : memref<64x18xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c4096 = arith.constant 4096 : index
  %c16 = arith.constant 16 : index
  %0 = ub.poison : f32
  %cst = arith.constant dense<0.000000e+00> : vector<4x4xf32>
  %thread_id_x = gpu.thread_id x upper_bound 256
  %1 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(0) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align = memref.assume_alignment %1, 64 : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  %2 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(1) alignment(64) offset(%c0) flags("ReadOnly|Indirect") : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align_1 = memref.assume_alignment %2, 64 : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  %3 = hal.interface.binding.subspan layout(<bindings = [#hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, "ReadOnly|Indirect">, #hal.pipeline.binding<storage_buffer, Indirect>], flags = Indirect>) binding(2) alignment(64) offset(%c0) flags(Indirect) : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  %assume_align_2 = memref.assume_alignment %3, 64 : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>>
  scf.forall (%arg0, %arg1) in (64, 64) {
    %4 = affine.apply affine_map<(d0) -> (d0 * 64)>(%arg1)
    %5 = affine.apply affine_map<(d0) -> (d0 * 64)>(%arg0)
    %subview = memref.subview %assume_align_2[%5, %4] [64, 64] [1, 1] : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>> to memref<64x64xf32, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    %subview_3 = memref.subview %alloc_0[0, 0] [64, 16] [1, 1] : memref<64x18xf32, #gpu.address_space<workgroup>> to memref<64x16xf32, strided<[18, 1]>, #gpu.address_space<workgroup>>
    %subview_4 = memref.subview %alloc[0, 0] [16, 64] [1, 1] : memref<16x66xf32, #gpu.address_space<workgroup>> to memref<16x64xf32, strided<[66, 1]>, #gpu.address_space<workgroup>>
    gpu.barrier memfence [#gpu.address_space<workgroup>]
    %6:2 = affine.delinearize_index %thread_id_x into (16, 16) : index, index
    %7 = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%6#1]
    %8 = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%6#0]
    %subview_5 = memref.subview %subview[%8, %7] [4, 4] [1, 1] : memref<64x64xf32, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>> to memref<4x4xf32, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    %9:2 = affine.delinearize_index %thread_id_x into (64, 4) : index, index
    %10 = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%9#1]
    %11 = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0)>(%arg0)[%9#0]
    %12 = affine.apply affine_map<(d0)[s0] -> (d0 * 64 + s0 * 4)>(%arg1)[%6#1]
    %subview_6 = memref.subview %subview_3[%9#0, %10] [1, 4] [1, 1] : memref<64x16xf32, strided<[18, 1]>, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[18, 1], offset: ?>, #gpu.address_space<workgroup>>
    %subview_7 = memref.subview %subview_4[%6#0, %7] [1, 4] [1, 1] : memref<16x64xf32, strided<[66, 1]>, #gpu.address_space<workgroup>> to memref<1x4xf32, strided<[66, 1], offset: ?>, #gpu.address_space<workgroup>>
    %13 = scf.for %arg2 = %c0 to %c4096 step %c16 iter_args(%arg3 = %cst) -> (vector<4x4xf32>) {
      %14 = affine.apply affine_map<()[s0, s1] -> (s0 + s1 * 4)>()[%arg2, %9#1]
      %subview_8 = memref.subview %assume_align[%11, %14] [1, 4] [1, 1] : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>> to memref<1x4xf32, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      %15 = affine.apply affine_map<()[s0, s1] -> (s0 + s1)>()[%6#0, %arg2]
      %subview_9 = memref.subview %assume_align_1[%15, %12] [1, 4] [1, 1] : memref<4096x4096xf32, #hal.descriptor_type<storage_buffer>> to memref<1x4xf32, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
      gpu.barrier memfence [#gpu.address_space<workgroup>]
      %16 = vector.transfer_read %subview_8[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x4xf32, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x4xf32>
      vector.transfer_write %16, %subview_6[%c0, %c0] {in_bounds = [true, true]} : vector<1x4xf32>, memref<1x4xf32, strided<[18, 1], offset: ?>, #gpu.address_space<workgroup>>
      %17 = vector.transfer_read %subview_9[%c0, %c0], %0 {in_bounds = [true, true]} : memref<1x4xf32, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>, vector<1x4xf32>
      vector.transfer_write %17, %subview_7[%c0, %c0] {in_bounds = [true, true]} : vector<1x4xf32>, memref<1x4xf32, strided<[66, 1], offset: ?>, #gpu.address_space<workgroup>>
      gpu.barrier memfence [#gpu.address_space<workgroup>]
      %18 = vector.transfer_read %subview_3[%8, %c0], %0 {in_bounds = [true, true]} : memref<64x16xf32, strided<[18, 1]>, #gpu.address_space<workgroup>>, vector<4x16xf32>
      %19 = vector.transfer_read %subview_4[%c0, %7], %0 {in_bounds = [true, true]} : memref<16x64xf32, strided<[66, 1]>, #gpu.address_space<workgroup>>, vector<16x4xf32>
      %20 = vector.contract {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %18, %19, %arg3 : vector<4x16xf32>, vector<16x4xf32> into vector<4x4xf32>
      scf.yield %20 : vector<4x4xf32>
    }
    vector.transfer_write %13, %subview_5[%c0, %c0] {in_bounds = [true, true]} : vector<4x4xf32>, memref<4x4xf32, strided<[4096, 1], offset: ?>, #hal.descriptor_type<storage_buffer>>
    gpu.barrier memfence [#gpu.address_space<workgroup>]
  } {mapping = [#iree_codegen.workgroup_mapping<y>, #iree_codegen.workgroup_mapping<x>]}
  memref.dealloc %alloc_0 : memref<64x18xf32, #gpu.address_space<workgroup>>
  memref.dealloc %alloc : memref<16x66xf32, #gpu.address_space<workgroup>>
  return
}

