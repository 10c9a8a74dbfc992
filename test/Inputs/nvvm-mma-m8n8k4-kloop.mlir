// A K-loop whose compute is nvvm.mma.sync m8n8k4 (f16, sm_70 quad-pairs: four
// MMAs per warp); test/pk-analyze-kloops.mlir, NVVM-M8N8K4 (from an adversarial
// review of the nvvm.mma.sync support).
module attributes {gpu.container_module} {
 gpu.module @m {
  gpu.func @k(%A: memref<16x1024xf16>, %B: memref<8x1024xf16>, %C: memref<32x4xf32>)
      workgroup(%sA : memref<16x16xf16, #gpu.address_space<workgroup>>, %sB : memref<8x16xf16, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %c16 = arith.constant 16 : index
    %cBK = arith.constant 16 : index
    %cK = arith.constant 1024 : index
    %cA = arith.constant 8 : index
    %cB = arith.constant 4 : index
    %z = arith.constant 0.0 : f32
    %tid = gpu.thread_id x
    %ar = arith.divui %tid, %c2 : index
    %acr = arith.remui %tid, %c2 : index
    %ac = arith.muli %acr, %cA : index
    %br = arith.divui %tid, %c4 : index
    %bcr = arith.remui %tid, %c4 : index
    %bc = arith.muli %bcr, %cB : index
    %lrow = arith.remui %tid, %c16 : index
    %lrowb = arith.remui %tid, %c8 : index
    %res:8 = scf.for %k = %c0 to %cK step %cBK iter_args(%a0 = %z, %a1 = %z, %a2 = %z, %a3 = %z, %a4 = %z, %a5 = %z, %a6 = %z, %a7 = %z) -> (f32, f32, f32, f32, f32, f32, f32, f32) {
      %gk = arith.addi %k, %ac : index
      %ga = vector.load %A[%ar, %gk] : memref<16x1024xf16>, vector<8xf16>
      vector.store %ga, %sA[%ar, %ac] : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<8xf16>
      %gkb = arith.addi %k, %bc : index
      %gb = vector.load %B[%br, %gkb] : memref<8x1024xf16>, vector<4xf16>
      vector.store %gb, %sB[%br, %bc] : memref<8x16xf16, #gpu.address_space<workgroup>>, vector<4xf16>
      gpu.barrier
      %fa = nvgpu.ldmatrix %sA[%lrow, %c0] {numTiles = 4 : i32, transpose = false} : memref<16x16xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
      %fb = nvgpu.ldmatrix %sB[%lrowb, %c0] {numTiles = 2 : i32, transpose = false} : memref<8x16xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
      %ra0v = vector.extract %fa[0] : vector<2xf16> from vector<4x2xf16>
      %ra1v = vector.extract %fa[1] : vector<2xf16> from vector<4x2xf16>
      %ra2v = vector.extract %fa[2] : vector<2xf16> from vector<4x2xf16>
      %ra3v = vector.extract %fa[3] : vector<2xf16> from vector<4x2xf16>
      %rb0v = vector.extract %fb[0] : vector<2xf16> from vector<2x2xf16>
      %rb1v = vector.extract %fb[1] : vector<2xf16> from vector<2x2xf16>
      %d = nvvm.mma.sync A[%ra0v, %ra1v] B[%rb0v, %rb1v] C[%a0, %a1, %a2, %a3, %a4, %a5, %a6, %a7] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 8, n = 8, k = 4>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %d0 = llvm.extractvalue %d[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %d1 = llvm.extractvalue %d[1] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %d2 = llvm.extractvalue %d[2] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %d3 = llvm.extractvalue %d[3] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %d4 = llvm.extractvalue %d[4] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %d5 = llvm.extractvalue %d[5] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %d6 = llvm.extractvalue %d[6] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      %d7 = llvm.extractvalue %d[7] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
      gpu.barrier
      scf.yield %d0, %d1, %d2, %d3, %d4, %d5, %d6, %d7 : f32, f32, f32, f32, f32, f32, f32, f32
    }
    %ci0 = arith.constant 0 : index
    memref.store %res#0, %C[%tid, %ci0] : memref<32x4xf32>
    %ci1 = arith.constant 1 : index
    memref.store %res#1, %C[%tid, %ci1] : memref<32x4xf32>
    %ci2 = arith.constant 2 : index
    memref.store %res#2, %C[%tid, %ci2] : memref<32x4xf32>
    %ci3 = arith.constant 3 : index
    memref.store %res#3, %C[%tid, %ci3] : memref<32x4xf32>
    gpu.return
  }
 }
}
