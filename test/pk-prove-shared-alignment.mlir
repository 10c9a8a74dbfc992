// RUN: pk-opt %s --split-input-file --pass-pipeline='builtin.module(gpu.module(pk-prove-shared-alignment))' | FileCheck %s

// A stage of a multi-buffered tile (dynamic offset) read through an
// expand_shape, the innermost index from affine.linearize_index: the 4-byte
// loads are 4-byte aligned (row stride 68 f16 = 136 bytes, stage 4352
// bytes, index 2 * i); LLVM cannot see that through the stage offset.
// CHECK-LABEL: gpu.func @stage_reshape
// CHECK: vector.load {{.*}} {alignment = 4 : i64} {{.*}} vector<2xf16>
// An odd element proves 2 bytes only: no attribute.
// CHECK: vector.load %{{[^ ]*}}[{{[^]]*}}] : {{.*}} vector<2xf16>
// CHECK: vector.store {{.*}} {alignment = 16 : i64} {{.*}} vector<8xf16>
gpu.module @m {
  gpu.func @stage_reshape(%s: index, %i: index, %j: index, %v: vector<8xf16>)
      workgroup(%buf: memref<2x32x68xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
      kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %stage = memref.subview %buf[%s, 0, 0] [1, 32, 64] [1, 1, 1] : memref<2x32x68xf16, #gpu.address_space<workgroup>> to memref<32x64xf16, strided<[68, 1], offset: ?>, #gpu.address_space<workgroup>>
    %e = memref.expand_shape %stage [[0, 1], [2, 3]] output_shape [4, 8, 8, 8] : memref<32x64xf16, strided<[68, 1], offset: ?>, #gpu.address_space<workgroup>> into memref<4x8x8x8xf16, strided<[544, 68, 8, 1], offset: ?>, #gpu.address_space<workgroup>>
    %k = affine.linearize_index disjoint [%j, %c0] by (4, 2) : index
    %a = vector.load %e[%i, %j, %c1, %k] : memref<4x8x8x8xf16, strided<[544, 68, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<2xf16>
    %odd = arith.addi %k, %c1 : index
    %b = vector.load %e[%i, %j, %c1, %odd] : memref<4x8x8x8xf16, strided<[544, 68, 8, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<2xf16>
    %row = affine.apply affine_map<(d0) -> (d0 * 8)>(%j)
    %full = memref.subview %buf[%s, 0, 0] [1, 32, 68] [1, 1, 1] : memref<2x32x68xf16, #gpu.address_space<workgroup>> to memref<32x68xf16, strided<[68, 1], offset: ?>, #gpu.address_space<workgroup>>
    %c = memref.collapse_shape %full [[0, 1]] : memref<32x68xf16, strided<[68, 1], offset: ?>, #gpu.address_space<workgroup>> into memref<2176xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
    vector.store %v, %c[%row] : memref<2176xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xf16>
    gpu.return
  }
}

// -----

// The base decides: an attribution without llvm.align is aligned to its
// element only, and dynamic shared memory to 16 bytes (through a
// memref.view with a byte shift of 256). Global memory is left alone, and a
// stated alignment is never lowered.
// CHECK-LABEL: gpu.func @bases
// CHECK: vector.load %{{[^ ]*}}[%{{[^]]*}}] : memref<64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: vector.load {{.*}} {alignment = 16 : i64} : memref<4x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: vector.load %{{[^ ]*}}[%{{[^]]*}}] : memref<64xf16>, vector<8xf16>
// CHECK: vector.load {{.*}} {alignment = 16 : i64} : memref<64xf16, #gpu.address_space<workgroup>>, vector<2xf16>
gpu.module @m2 {
  gpu.func @bases(%g: memref<64xf16>)
      workgroup(%plain: memref<64xf16, #gpu.address_space<workgroup>>)
      kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c256 = arith.constant 256 : index
    %a = vector.load %plain[%c0] : memref<64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %view = memref.view %dyn[%c256][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<4x64xf16, #gpu.address_space<workgroup>>
    %b = vector.load %view[%c1, %c0] : memref<4x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    %c = vector.load %g[%c0] : memref<64xf16>, vector<8xf16>
    %d = vector.load %plain[%c0] {alignment = 16} : memref<64xf16, #gpu.address_space<workgroup>>, vector<2xf16>
    gpu.return
  }
}
