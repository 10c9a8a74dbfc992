// RUN: pk-opt %s -split-input-file -verify-diagnostics --pk-use-ldmatrix -o /dev/null
//
// pk-use-ldmatrix never fails: a read it cannot prove stays as it is,
// silently (-verify-diagnostics rejects any remark on the kernels below but
// the one expected); the kernel it changes gets one remark. Option errors of
// pipeline-kernel's `ldmatrix`:
// RUN: not pk-opt %s -split-input-file --pipeline-kernel='ldmatrix=maybe' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: for the --ldmatrix option: 'maybe' is invalid value for boolean argument
// OPTION: error: pipeline-kernel: cannot parse the options 'ldmatrix=maybe'

// Converted: the remark at the kernel.
gpu.module @m {
  // expected-remark @below {{kernel @converted: 1 shared read(s) in ldmatrix's layout as 1 ldmatrix; 0 buffer(s) re-padded to 16-byte rows}}
  gpu.func @converted(%out: memref<32x2xf16>) workgroup(%T : memref<16x72xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
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

// Left alone, without a diagnostic: 48 threads (a partial warp), a masked
// read, a column at 2t + 1 (not a lane pair of an 8x8 matrix).
gpu.module @m {
  gpu.func @partial_warp(%out: memref<48x2xf16>) workgroup(%T : memref<16x72xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) kernel attributes {known_block_size = array<i32: 48, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %p = ub.poison : f16
    %tid = gpu.thread_id x
    %g = arith.divui %tid, %c4 : index
    %t = arith.remui %tid, %c4 : index
    %col = arith.muli %t, %c2 : index
    %v = vector.transfer_read %T[%g, %col], %p {in_bounds = [true, true]} : memref<16x72xf16, #gpu.address_space<workgroup>>, vector<1x2xf16>
    vector.transfer_write %v, %out[%tid, %c0] {in_bounds = [true, true]} : vector<1x2xf16>, memref<48x2xf16>
    gpu.return
  }
  gpu.func @masked_or_shifted(%out: memref<32x4xf16>, %m: vector<1x2xi1>) workgroup(%T : memref<16x72xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %p = ub.poison : f16
    %tid = gpu.thread_id x
    %g = arith.divui %tid, %c4 : index
    %t = arith.remui %tid, %c4 : index
    %col = arith.muli %t, %c2 : index
    %col1 = arith.addi %col, %c1 : index
    %v = vector.transfer_read %T[%g, %col], %p, %m {in_bounds = [true, true]} : memref<16x72xf16, #gpu.address_space<workgroup>>, vector<1x2xf16>
    vector.transfer_write %v, %out[%tid, %c0] {in_bounds = [true, true]} : vector<1x2xf16>, memref<32x4xf16>
    %w = vector.transfer_read %T[%g, %col1], %p {in_bounds = [true, true]} : memref<16x72xf16, #gpu.address_space<workgroup>>, vector<1x2xf16>
    vector.transfer_write %w, %out[%tid, %c2] {in_bounds = [true, true]} : vector<1x2xf16>, memref<32x4xf16>
    gpu.return
  }
}
