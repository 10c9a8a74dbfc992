// RUN: pk-opt %s -split-input-file --pk-normalize-workgroup-storage 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

// A typed workgroup alloc (malloc with upstream's lowering) and an i8 alloca
// viewed once inside the loop with its dealloc (local memory) become typed,
// 16-byte aligned workgroup attributions.
// CHECK-LABEL: gpu.func @allocs
// CHECK-SAME: workgroup(%[[A:.*]] : memref<64x16xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[B:.*]] : memref<16x64xf32, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.view
// CHECK-NOT: memref.dealloc
// CHECK: vector.store %{{.*}}, %[[A]]
// CHECK: vector.store %{{.*}}, %[[B]]
// REMARK: remark: moved 2 workgroup buffer(s) to workgroup attributions
gpu.module @m {
  gpu.func @allocs(%arg0: memref<512x512xf32>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %a = memref.alloc() : memref<64x16xf32, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c4 step %c1 {
      %b = memref.alloca() {alignment = 16 : i64} : memref<4096xi8, #gpu.address_space<workgroup>>
      %v = memref.view %b[%c0][] : memref<4096xi8, #gpu.address_space<workgroup>> to memref<16x64xf32, #gpu.address_space<workgroup>>
      %x = vector.load %arg0[%k, %c0] : memref<512x512xf32>, vector<4xf32>
      vector.store %x, %a[%c0, %c0] : memref<64x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      vector.store %x, %v[%c0, %c0] : memref<16x64xf32, #gpu.address_space<workgroup>>, vector<4xf32>
      memref.dealloc %b : memref<4096xi8, #gpu.address_space<workgroup>>
    }
    gpu.return
  }
}

// -----

// A private workgroup global viewed once (upstream's alloca_to_global) keeps
// its alignment.
// CHECK-LABEL: gpu.module @g
// CHECK-NOT: memref.global
// CHECK: gpu.func @viewed_global
// CHECK-SAME: workgroup(%[[A:.*]] : memref<32x32xf16, #gpu.address_space<workgroup>> {llvm.align = 64 : i64})
// CHECK-NOT: memref.get_global
// CHECK: memref.load %[[A]]
gpu.module @g {
  memref.global "private" @alloca : memref<2048xi8, #gpu.address_space<workgroup>> {alignment = 64 : i64}
  gpu.func @viewed_global() kernel {
    %c0 = arith.constant 0 : index
    %0 = memref.get_global @alloca : memref<2048xi8, #gpu.address_space<workgroup>>
    %v = memref.view %0[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<32x32xf16, #gpu.address_space<workgroup>>
    %x = memref.load %v[%c0, %c0] : memref<32x32xf16, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// One i8 buffer viewed twice is left alone (the analysis names the view);
// so is a public global.
// CHECK-LABEL: gpu.func @two_views
// CHECK: memref.alloc() : memref<8192xi8
// CHECK-COUNT-2: memref.view
// CHECK-LABEL: gpu.func @public_global
// CHECK: memref.get_global @pub
gpu.module @n {
  memref.global @pub : memref<2048xi8, #gpu.address_space<workgroup>>
  gpu.func @two_views() kernel {
    %c0 = arith.constant 0 : index
    %c4096 = arith.constant 4096 : index
    %a = memref.alloc() : memref<8192xi8, #gpu.address_space<workgroup>>
    %v0 = memref.view %a[%c0][] : memref<8192xi8, #gpu.address_space<workgroup>> to memref<1024xf32, #gpu.address_space<workgroup>>
    %v1 = memref.view %a[%c4096][] : memref<8192xi8, #gpu.address_space<workgroup>> to memref<1024xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
  gpu.func @public_global() kernel {
    %c0 = arith.constant 0 : index
    %0 = memref.get_global @pub : memref<2048xi8, #gpu.address_space<workgroup>>
    %v = memref.view %0[%c0][] : memref<2048xi8, #gpu.address_space<workgroup>> to memref<512xf32, #gpu.address_space<workgroup>>
    gpu.return
  }
}

// -----

// IREE's forms: a typed alloc with its dealloc (and a dealloc of a subview
// of it, as VectorDistribute writes), and an alloc in the integer address
// space 3: attributions, and no dealloc is left (lowered, a dealloc of
// shared memory is a call to free with a pointer of address space 3); the
// subview only the dealloc used goes too.
// CHECK-LABEL: gpu.func @typed_dealloc
// CHECK-SAME:    workgroup(%[[A:.*]] : memref<64x24xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[B:.*]] : memref<16x72xf16, 3> {llvm.align = 16 : i64})
// CHECK-NOT:     memref.alloc
// CHECK-NOT:     memref.dealloc
// CHECK:         vector.load %[[B]]
// CHECK-NOT:     memref.dealloc
// CHECK:         gpu.return
// REMARK: remark: moved 2 workgroup buffer(s) to workgroup attributions
gpu.module @iree {
  gpu.func @typed_dealloc(%out: memref<8xf16>) kernel {
    %c0 = arith.constant 0 : index
    %a = memref.alloc() : memref<64x24xf16, #gpu.address_space<workgroup>>
    %b = memref.alloc() : memref<16x72xf16, 3>
    %s = memref.subview %a[0, 0] [8, 8] [1, 1] : memref<64x24xf16, #gpu.address_space<workgroup>> to memref<8x8xf16, strided<[24, 1]>, #gpu.address_space<workgroup>>
    %x = vector.load %b[%c0, %c0] : memref<16x72xf16, 3>, vector<8xf16>
    vector.store %x, %out[%c0] : memref<8xf16>, vector<8xf16>
    memref.dealloc %s : memref<8x8xf16, strided<[24, 1]>, #gpu.address_space<workgroup>>
    memref.dealloc %a : memref<64x24xf16, #gpu.address_space<workgroup>>
    memref.dealloc %b : memref<16x72xf16, 3>
    gpu.return
  }
}

// -----

// Views of a tile hoisted above a K-loop candidate (IREE hoists the
// per-thread subviews and the expand_shapes its fragments are read through)
// are cloned in front of their users inside the loop; the hoisted ones go.
// CHECK-LABEL: gpu.func @hoisted_views
// CHECK-NOT:     memref.subview
// CHECK-NOT:     memref.expand_shape
// CHECK:         scf.for
// CHECK:           %[[SV:.*]] = memref.subview %{{.*}}[%{{.*}}, 0] [1, 8] [1, 1]
// CHECK-NEXT:      vector.store %{{.*}}, %[[SV]]
// CHECK:           gpu.barrier
// CHECK-NEXT:      %[[EX:.*]] = memref.expand_shape
// CHECK-NEXT:      vector.load %[[EX]]
gpu.module @sink {
  gpu.func @hoisted_views(%A: memref<64x8xf16>, %out: memref<64x8xf16>) workgroup(%s: memref<64x8xf16, #gpu.address_space<workgroup>>) kernel {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %tid = gpu.thread_id x
    %t = memref.subview %s[%tid, 0] [1, 8] [1, 1] : memref<64x8xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>
    %e = memref.expand_shape %s [[0, 1], [2]] output_shape [8, 8, 8] : memref<64x8xf16, #gpu.address_space<workgroup>> into memref<8x8x8xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c4 step %c1 {
      %v = vector.load %A[%tid, %c0] : memref<64x8xf16>, vector<8xf16>
      vector.store %v, %t[%c0, %c0] : memref<1x8xf16, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xf16>
      gpu.barrier
      %x = vector.load %e[%c0, %tid, %c0] : memref<8x8x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
      vector.store %x, %out[%tid, %c0] : memref<64x8xf16>, vector<8xf16>
      gpu.barrier
    }
    gpu.return
  }
}

// -----

// Guards every thread passes (IREE VectorDistribute's thread_id y == 0 with
// a block of 128x1x1) are inlined; a guard some threads fail (x == 0), and
// one outside a loop, stay.
// REMARK: remark: inlined 1 scf.if guard(s) that every thread of the known block size passes
// CHECK-LABEL: gpu.func @guards
// CHECK:       scf.if
// CHECK:       scf.for
// CHECK-NEXT:    memref.store %{{.*}}, %{{.*}}[%c0] : memref<128xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:    scf.if
// CHECK:           memref.store %{{.*}}, %{{.*}}[%c1] : memref<128xf32, #gpu.address_space<workgroup>>
gpu.module @guard_module {
  gpu.func @guards(%v: f32) workgroup(%s: memref<128xf32, #gpu.address_space<workgroup>>)
      kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %x = gpu.thread_id x
    %y = gpu.thread_id y
    %isY0 = arith.cmpi eq, %y, %c0 : index
    %isX0 = arith.cmpi eq, %x, %c0 : index
    scf.if %isY0 {
      memref.store %v, %s[%c1] : memref<128xf32, #gpu.address_space<workgroup>>
    }
    scf.for %i = %c0 to %c8 step %c1 {
      scf.if %isY0 {
        memref.store %v, %s[%c0] : memref<128xf32, #gpu.address_space<workgroup>>
      }
      scf.if %isX0 {
        memref.store %v, %s[%c1] : memref<128xf32, #gpu.address_space<workgroup>>
      }
      gpu.barrier
    }
    gpu.return
  }
}
