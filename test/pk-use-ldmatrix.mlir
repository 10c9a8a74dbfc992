// RUN: pk-opt %s -split-input-file --pk-normalize-workgroup-storage --pk-use-ldmatrix 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK --input-file=%t.err

// IREE's TileAndFuse operand reads (128 threads, 2x2 warps, rows padded to
// 8 bytes): A non-transposed, B (K x N in shared memory) transposed. The
// rows are re-padded to 80 and 144 bytes (5 and 9 16-byte chunks), the A
// read becomes 8 ldmatrix.x4 and the B read 4 ldmatrix.x4.trans.
// CHECK-LABEL: gpu.func @iree_operands
// CHECK-SAME: workgroup(%[[A:.*]] : memref<128x40xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[B:.*]] : memref<32x72xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK: %[[SA:.*]] = memref.subview %[[A]][0, 0] [128, 32] [1, 1] {{.*}} to memref<128x32xf16, strided<[40, 1]>, #gpu.address_space<workgroup>>
// CHECK: %[[SB:.*]] = memref.subview %[[B]][0, 0] [32, 64] [1, 1] {{.*}} to memref<32x64xf16, strided<[72, 1]>, #gpu.address_space<workgroup>>
// CHECK: %[[EA:.*]] = memref.expand_shape %[[SA]] {{.*}} into memref<8x2x8x2x2x8xf16, strided<[640, 320, 40, 16, 8, 1]>, #gpu.address_space<workgroup>>
// CHECK: %[[EB:.*]] = memref.expand_shape %[[SB]] {{.*}} into memref<2x2x8x8x8xf16, strided<[1152, 576, 72, 8, 1]>, #gpu.address_space<workgroup>>
// CHECK-COUNT-8: nvgpu.ldmatrix %[[EA]][{{.*}}] {numTiles = 4 : i32, transpose = false} : {{.*}} -> vector<4x2xf16>
// CHECK: vector.from_elements {{.*}} : vector<4x2x1x2x2x2xf16>
// CHECK-COUNT-4: nvgpu.ldmatrix %[[EB]][{{.*}}] {numTiles = 4 : i32, transpose = true} : {{.*}} -> vector<4x2xf16>
// CHECK: vector.from_elements {{.*}} : vector<2x2x2x4x1xf16>
// CHECK-NOT: vector.transfer_read
// CHECK: gpu.return
// REMARK: remark: kernel @iree_operands: 2 shared read(s) in ldmatrix's layout as 12 ldmatrix; 2 buffer(s) re-padded to 16-byte rows
gpu.module @m {
  gpu.func @iree_operands(%out: memref<128x128xf16>) kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
    %A = memref.alloc() : memref<128x36xf16, #gpu.address_space<workgroup>>
    %B = memref.alloc() : memref<32x68xf16, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %p = ub.poison : f16
    %tid = gpu.thread_id x upper_bound 128
    %w:3 = affine.delinearize_index %tid into (2, 2, 32) : index, index, index
    %l:3 = affine.delinearize_index %w#2 into (8, 4) : index, index, index
    %col = affine.linearize_index disjoint [%l#2, %c0] by (4, 2) : index
    %m = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%w#0]
    %n = affine.apply affine_map<()[s0] -> (s0 * 4)>()[%w#1]
    %sa = memref.subview %A[0, 0] [128, 32] [1, 1] : memref<128x36xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>>
    %sb = memref.subview %B[0, 0] [32, 64] [1, 1] : memref<32x68xf16, #gpu.address_space<workgroup>> to memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>>
    %ea = memref.expand_shape %sa [[0, 1, 2], [3, 4, 5]] output_shape [8, 2, 8, 2, 2, 8] : memref<128x32xf16, strided<[36, 1]>, #gpu.address_space<workgroup>> into memref<8x2x8x2x2x8xf16, strided<[576, 288, 36, 16, 8, 1]>, #gpu.address_space<workgroup>>
    %eb = memref.expand_shape %sb [[0, 1, 2], [3, 4]] output_shape [2, 2, 8, 8, 8] : memref<32x64xf16, strided<[68, 1]>, #gpu.address_space<workgroup>> into memref<2x2x8x8x8xf16, strided<[1088, 544, 68, 8, 1]>, #gpu.address_space<workgroup>>
    %va = vector.transfer_read %ea[%m, %c0, %l#1, %c0, %c0, %col], %p {in_bounds = [true, true, true, true, true, true]} : memref<8x2x8x2x2x8xf16, strided<[576, 288, 36, 16, 8, 1]>, #gpu.address_space<workgroup>>, vector<4x2x1x2x2x2xf16>
    %vb = vector.transfer_read %eb[%c0, %c0, %col, %n, %l#1], %p {in_bounds = [true, true, true, true, true]} : memref<2x2x8x8x8xf16, strided<[1088, 544, 68, 8, 1]>, #gpu.address_space<workgroup>>, vector<2x2x2x4x1xf16>
    %fa = vector.shape_cast %va : vector<4x2x1x2x2x2xf16> to vector<64xf16>
    %fb = vector.shape_cast %vb : vector<2x2x2x4x1xf16> to vector<32xf16>
    vector.store %fa, %out[%tid, %c0] : memref<128x128xf16>, vector<64xf16>
    vector.store %fb, %out[%tid, %c0] : memref<128x128xf16>, vector<32xf16>
    gpu.return
  }
}

// -----

// Rows already 16-byte aligned (64 + 8 f16): nothing is re-padded; a read
// of one matrix per lane pair becomes one ldmatrix.x1 (an 8x8 tile in a
// 32-thread block).
// CHECK-LABEL: gpu.func @aligned_x1
// CHECK-SAME: workgroup(%[[T:.*]] : memref<16x72xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.ldmatrix %[[T]][{{.*}}] {numTiles = 1 : i32, transpose = false} : memref<16x72xf16, #gpu.address_space<workgroup>> -> vector<1x2xf16>
// CHECK-NOT: vector.transfer_read
// REMARK: remark: kernel @aligned_x1: 1 shared read(s) in ldmatrix's layout as 1 ldmatrix; 0 buffer(s) re-padded to 16-byte rows
gpu.module @m {
  gpu.func @aligned_x1(%out: memref<32x2xf16>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %T = memref.alloc() : memref<16x72xf16, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c8 = arith.constant 8 : index
    %p = ub.poison : f16
    %tid = gpu.thread_id x upper_bound 32
    %g = arith.divui %tid, %c4 : index
    %t = arith.remui %tid, %c4 : index
    %row = arith.addi %g, %c8 : index
    %col = arith.muli %t, %c2 : index
    %v = vector.transfer_read %T[%row, %col], %p {in_bounds = [true, true]} : memref<16x72xf16, #gpu.address_space<workgroup>>, vector<1x2xf16>
    vector.transfer_write %v, %out[%tid, %c0] {in_bounds = [true, true]} : vector<1x2xf16>, memref<32x2xf16>
    gpu.return
  }
}

// -----

// Reads pk leaves alone: lanes that do not read the ldmatrix layout (the
// row from t, the column from g), a read under a thread-dependent scf.if
// (ldmatrix needs the whole warp), f32 elements, and a buffer whose row
// size a use depends on (a collapse_shape of the buffer itself: the rows
// stay 72 bytes, so the matching read stays too).
// CHECK-LABEL: gpu.func @left_alone
// CHECK-SAME: workgroup(%{{.*}} : memref<16x36xf16, #gpu.address_space<workgroup>> {{.*}}, %{{.*}} : memref<16x72xf16, #gpu.address_space<workgroup>> {{.*}}, %{{.*}} : memref<16x36xf32, #gpu.address_space<workgroup>>
// CHECK-NOT: nvgpu.ldmatrix
// CHECK-COUNT-4: vector.transfer_read
// CHECK-NOT: remark: kernel @left_alone
gpu.module @m {
  gpu.func @left_alone(%out: memref<32x8xf16>, %o32: memref<32x2xf32>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %P = memref.alloc() : memref<16x36xf16, #gpu.address_space<workgroup>>
    %Q = memref.alloc() : memref<16x72xf16, #gpu.address_space<workgroup>>
    %F = memref.alloc() : memref<16x36xf32, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c16 = arith.constant 16 : index
    %p = ub.poison : f16
    %pf = ub.poison : f32
    %tid = gpu.thread_id x upper_bound 32
    %g = arith.divui %tid, %c4 : index
    %t = arith.remui %tid, %c4 : index
    %col = arith.muli %t, %c2 : index
    %gcol = arith.muli %g, %c2 : index
    %swapped = vector.transfer_read %Q[%t, %gcol], %p {in_bounds = [true, true]} : memref<16x72xf16, #gpu.address_space<workgroup>>, vector<1x2xf16>
    vector.transfer_write %swapped, %out[%tid, %c0] {in_bounds = [true, true]} : vector<1x2xf16>, memref<32x8xf16>
    %half = arith.cmpi ult, %tid, %c16 : index
    scf.if %half {
      %guarded = vector.transfer_read %Q[%g, %col], %p {in_bounds = [true, true]} : memref<16x72xf16, #gpu.address_space<workgroup>>, vector<1x2xf16>
      vector.transfer_write %guarded, %out[%tid, %c2] {in_bounds = [true, true]} : vector<1x2xf16>, memref<32x8xf16>
    }
    %wide = vector.transfer_read %F[%g, %col], %pf {in_bounds = [true, true]} : memref<16x36xf32, #gpu.address_space<workgroup>>, vector<1x2xf32>
    vector.transfer_write %wide, %o32[%tid, %c0] {in_bounds = [true, true]} : vector<1x2xf32>, memref<32x2xf32>
    %flat = memref.collapse_shape %P [[0, 1]] : memref<16x36xf16, #gpu.address_space<workgroup>> into memref<576xf16, #gpu.address_space<workgroup>>
    %x = memref.load %flat[%tid] : memref<576xf16, #gpu.address_space<workgroup>>
    memref.store %x, %out[%tid, %c4] : memref<32x8xf16>
    %misaligned = vector.transfer_read %P[%g, %col], %p {in_bounds = [true, true]} : memref<16x36xf16, #gpu.address_space<workgroup>>, vector<1x2xf16>
    vector.transfer_write %misaligned, %out[%tid, %c4] {in_bounds = [true, true]} : vector<1x2xf16>, memref<32x8xf16>
    gpu.return
  }
}

// -----

// Without a known block size pk cannot check the lanes: nothing changes.
// CHECK-LABEL: gpu.func @unknown_block
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: vector.transfer_read
gpu.module @m {
  gpu.func @unknown_block(%out: memref<32x2xf16>) kernel {
    %T = memref.alloc() : memref<16x72xf16, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %p = ub.poison : f16
    %tid = gpu.thread_id x
    %g = arith.divui %tid, %c4 : index
    %t = arith.remui %tid, %c4 : index
    %col = arith.muli %t, %c2 : index
    %v = vector.transfer_read %T[%g, %col], %p {in_bounds = [true, true]} : memref<16x72xf16, #gpu.address_space<workgroup>>, vector<1x2xf16>
    vector.transfer_write %v, %out[%tid, %c0] {in_bounds = [true, true]} : vector<1x2xf16>, memref<32x2xf16>
    gpu.return
  }
}

// -----

// More reads pk leaves alone (an adversarial review's kernels): a read
// outside the kernel's entry block (after a thread-dependent cf.cond_br), a
// read in a loop whose bound comes from gpu.global_id or from memory, an
// unsigned min of a negative row (the lanes read rows 104 and g, not g),
// and index elements (no bit width: no crash). None becomes ldmatrix.
// CHECK-LABEL: gpu.func @divergent_or_unproven
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: gpu.return
// CHECK-NOT: remark: kernel @divergent_or_unproven
gpu.module @m {
  gpu.func @divergent_or_unproven(%out: memref<32x8xf16>, %n: memref<1xindex>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %T = memref.alloc() : memref<112x40xf16, #gpu.address_space<workgroup>>
    %I = memref.alloc() : memref<16x8xindex, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c100 = arith.constant 100 : index
    %p = ub.poison : f16
    %tid = gpu.thread_id x
    %g = arith.divui %tid, %c4 : index
    %t = arith.remui %tid, %c4 : index
    %col = arith.muli %t, %c2 : index
    %gid = gpu.global_id x
    %gn = arith.remui %gid, %c2 : index
    scf.for %i = %c0 to %gn step %c1 {
      %a = vector.transfer_read %T[%g, %col], %p {in_bounds = [true, true]} : memref<112x40xf16, #gpu.address_space<workgroup>>, vector<1x2xf16>
      vector.transfer_write %a, %out[%tid, %c0] {in_bounds = [true, true]} : vector<1x2xf16>, memref<32x8xf16>
    }
    %ld = memref.load %n[%c0] : memref<1xindex>
    scf.for %i = %c0 to %ld step %c1 {
      %b = vector.transfer_read %T[%g, %col], %p {in_bounds = [true, true]} : memref<112x40xf16, #gpu.address_space<workgroup>>, vector<1x2xf16>
      vector.transfer_write %b, %out[%tid, %c2] {in_bounds = [true, true]} : vector<1x2xf16>, memref<32x8xf16>
    }
    %m4 = arith.subi %g, %c4 : index
    %mu = arith.minui %m4, %c100 : index
    %row = arith.addi %mu, %c4 : index
    %c = vector.transfer_read %T[%row, %col], %p {in_bounds = [true, true]} : memref<112x40xf16, #gpu.address_space<workgroup>>, vector<1x2xf16>
    vector.transfer_write %c, %out[%tid, %c4] {in_bounds = [true, true]} : vector<1x2xf16>, memref<32x8xf16>
    %x = vector.transfer_read %I[%c0, %c0], %c0 {in_bounds = [true, true]} : memref<16x8xindex, #gpu.address_space<workgroup>>, vector<1x2xindex>
    %x0 = vector.extract %x[0, 0] : index from vector<1x2xindex>
    memref.store %x0, %n[%c0] : memref<1xindex>
    %h = arith.cmpi ult, %tid, %c4 : index
    cf.cond_br %h, ^bb1, ^bb2
  ^bb1:
    %d = vector.transfer_read %T[%g, %col], %p {in_bounds = [true, true]} : memref<112x40xf16, #gpu.address_space<workgroup>>, vector<1x2xf16>
    vector.transfer_write %d, %out[%tid, %c4] {in_bounds = [true, true]} : vector<1x2xf16>, memref<32x8xf16>
    cf.br ^bb2
  ^bb2:
    gpu.return
  }
}

// -----

// Buffers pk does not re-pad, so their misaligned reads stay: a vector.load
// of the buffer that runs past the end of its row (re-padding would change
// what it reads), and a re-pad that would take the kernel's static shared
// memory (46080 B) above the 48 KB ptxas takes. An attribution without
// llvm.align is not assumed 16-byte aligned either.
// CHECK-LABEL: gpu.func @not_repadded
// CHECK-SAME: workgroup(%{{.*}} : memref<16x36xf16, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x40xf16, #gpu.address_space<workgroup>>)
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @over_48k
// CHECK-SAME: workgroup(%{{.*}} : memref<384x60xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: gpu.return
// REMARK-NOT: remark: kernel @not_repadded
// REMARK-NOT: remark: kernel @over_48k
gpu.module @m {
  gpu.func @not_repadded(%out: memref<32x8xf16>) workgroup(%T : memref<16x36xf16, #gpu.address_space<workgroup>>, %U : memref<16x40xf16, #gpu.address_space<workgroup>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %p = ub.poison : f16
    %tid = gpu.thread_id x
    %g = arith.divui %tid, %c4 : index
    %t = arith.remui %tid, %c4 : index
    %col = arith.muli %t, %c2 : index
    %past = vector.load %T[%g, %c32] : memref<16x36xf16, #gpu.address_space<workgroup>>, vector<8xf16>
    vector.store %past, %out[%tid, %c0] : memref<32x8xf16>, vector<8xf16>
    %v = vector.transfer_read %T[%g, %col], %p {in_bounds = [true, true]} : memref<16x36xf16, #gpu.address_space<workgroup>>, vector<1x2xf16>
    vector.transfer_write %v, %out[%tid, %c0] {in_bounds = [true, true]} : vector<1x2xf16>, memref<32x8xf16>
    %u = vector.transfer_read %U[%g, %col], %p {in_bounds = [true, true]} : memref<16x40xf16, #gpu.address_space<workgroup>>, vector<1x2xf16>
    vector.transfer_write %u, %out[%tid, %c2] {in_bounds = [true, true]} : vector<1x2xf16>, memref<32x8xf16>
    gpu.return
  }
  gpu.func @over_48k(%out: memref<32x2xf16>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %T = memref.alloc() : memref<384x60xf16, #gpu.address_space<workgroup>>
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %p = ub.poison : f16
    %tid = gpu.thread_id x
    %g = arith.divui %tid, %c4 : index
    %t = arith.remui %tid, %c4 : index
    %col = arith.muli %t, %c2 : index
    %v = vector.transfer_read %T[%g, %col], %p {in_bounds = [true, true]} : memref<384x60xf16, #gpu.address_space<workgroup>>, vector<1x2xf16>
    vector.transfer_write %v, %out[%tid, %c0] {in_bounds = [true, true]} : vector<1x2xf16>, memref<32x2xf16>
    gpu.return
  }
}
