// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops=schedule=two-stage --canonicalize --cse | FileCheck %s
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops=schedule=two-stage -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// A masked read (an im2col row in the padding, a halo): the source row is
// row + k/32 - 1, read only where it lies in [0, 64), through a 1-D
// vector.create_mask with a zero padding. The cp.async copies
// min(dim - col, 8, mask size) elements and zero-fills the rest; a copy that
// reads nothing points at element [0, 0] (its row may be -1 or 64). The mask
// size is clamped to [0, 8] before a copy's first element is subtracted (a
// size near INT64_MIN would wrap).
// CHECK-LABEL: gpu.func @masked_rows
// CHECK-DAG:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:   %[[C8:.*]] = arith.constant 8 : index
// CHECK:       %[[N:.*]] = arith.select %{{.*}}, %[[C8]], %[[C0]] : index
// CHECK:       %[[BOUND:.*]] = arith.minsi %{{.*}}, %[[C8]] : index
// The mask size clamped to [0, 8] as create_mask does, then subtracted.
// CHECK-NEXT:  %[[NMIN:.*]] = arith.minsi %[[N]], %[[C8]] : index
// CHECK-NEXT:  %[[NCLAMP:.*]] = arith.maxsi %[[NMIN]], %[[C0]] : index
// CHECK-NEXT:  %[[COUNT:.*]] = arith.minsi %[[BOUND]], %[[NCLAMP]] : index
// CHECK-NEXT:  %[[SRC:.*]] = arith.maxsi %[[COUNT]], %[[C0]] : index
// CHECK-NEXT:  %[[ANY:.*]] = arith.cmpi sgt, %[[COUNT]], %[[C0]] : index
// CHECK-NEXT:  %[[ROW:.*]] = arith.select %[[ANY]], %{{.*}}, %[[C0]] : index
// CHECK-NEXT:  %[[COL:.*]] = arith.select %[[ANY]], %{{.*}}, %[[C0]] : index
// CHECK-NEXT:  nvgpu.device_async_copy %arg0[%[[ROW]], %[[COL]]], %{{.*}}, 8, %[[SRC]] {bypassL1}
// CHECK:       scf.for
// CHECK:         nvgpu.device_async_copy %arg0[%{{.*}}, %{{.*}}], %{{.*}}, 8, %{{.*}} {bypassL1}
// CHECK-NOT:   vector.transfer_read %arg0
// REMARK: remark: pipelined: variant cp-async, 2 shared buffer(s)
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @masked_rows(%A: memref<64x32xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %pad = arith.constant 0.0 : f16
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c128 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %shift = affine.apply affine_map<(d0) -> (d0 floordiv 32 - 1)>(%k)
        %src = arith.addi %row, %shift : index
        %ge = arith.cmpi sge, %src, %c0 : index
        %lt = arith.cmpi slt, %src, %c64 : index
        %valid = arith.andi %ge, %lt : i1
        %n = arith.select %valid, %c8, %c0 : index
        %m = vector.create_mask %n : vector<8xi1>
        %v = vector.transfer_read %A[%src, %col], %pad, %m {in_bounds = [true]} : memref<64x32xf16>, vector<8xf16>
        vector.store %v, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      %e = vector.extract %r[0] : f32 from vector<8xf32>
      memref.store %e, %out[%row] : memref<64xf32>
      gpu.return
    }
  }
}

// -----

// A mask that is not a vector.create_mask (here a kernel argument: any i1
// vector) is no prefix pk can give cp.async as a source size, and a -0.0
// padding is not what cp.async fills (+0.0): the copies stay in registers
// (ldg-register), and the remarks say why.
// CHECK-LABEL: gpu.func @unknown_mask
// CHECK-NOT:   nvgpu.device_async_copy
// CHECK:       vector.transfer_read %arg0[{{.*}}], %{{.*}}, %arg2
// REMARK: remark: pipelined: variant ldg-register
// REMARK-SAME: cp.async needs a 1-D contiguous, unmasked global read, in bounds or zero-padded (out of bounds or past a 1-D vector.create_mask)
// CHECK-LABEL: gpu.func @negative_zero_pad
// CHECK-NOT:   nvgpu.device_async_copy
// CHECK:       vector.transfer_read
// REMARK: remark: pipelined: variant ldg-register
// REMARK-SAME: cp.async needs a 1-D contiguous, unmasked global read
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @unknown_mask(%A: memref<64x32xf16>, %out: memref<64xf32>, %m: vector<8xi1>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %pad = arith.constant 0.0 : f16
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c128 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %v = vector.transfer_read %A[%row, %col], %pad, %m {in_bounds = [true]} : memref<64x32xf16>, vector<8xf16>
        vector.store %v, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      %e = vector.extract %r[0] : f32 from vector<8xf32>
      memref.store %e, %out[%row] : memref<64xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @negative_zero_pad(%A: memref<64x32xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %pad = arith.constant -0.0 : f16
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c128 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %shift = affine.apply affine_map<(d0) -> (d0 floordiv 32 - 1)>(%k)
        %src = arith.addi %row, %shift : index
        %ge = arith.cmpi sge, %src, %c0 : index
        %lt = arith.cmpi slt, %src, %c64 : index
        %valid = arith.andi %ge, %lt : i1
        %n = arith.select %valid, %c8, %c0 : index
        %m = vector.create_mask %n : vector<8xi1>
        %v = vector.transfer_read %A[%src, %col], %pad, %m {in_bounds = [true]} : memref<64x32xf16>, vector<8xf16>
        vector.store %v, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      %e = vector.extract %r[0] : f32 from vector<8xf32>
      memref.store %e, %out[%row] : memref<64xf32>
      gpu.return
    }
  }
}

