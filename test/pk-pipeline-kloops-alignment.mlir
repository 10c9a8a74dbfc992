// Alignment and contiguity of the tile copies through memref.subview chains,
// unit-dim vectors, memref.assume_alignment and llvm.align (AsyncCopyPlan):
// the remark names the width chosen, the IR shows it.
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops=variant=cp-async --canonicalize --cse | FileCheck %s
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops=variant=cp-async 2>/dev/null | mlir-opt -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY --allow-empty
// VERIFY-NOT: error

// Upstream's form: the global tile and the thread's piece of it are
// memref.subviews (offsets k and (tid mod 4) * 8), the shared piece a
// subview of the attribution, the copy a vector<1x8xf16> transfer (unit
// dimension folded: 16 contiguous bytes); the compute reads a rank-reducing
// subview. Proven alignment 16 on both sides: 16-byte cp.async, and the
// multi-buffered subviews take the stage slice of the buffer.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @subview_unit_dim(%A: memref<64x256xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %pad = arith.constant 0.0 : f16
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c256 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %tile = memref.subview %A[0, %k] [64, 32] [1, 1] : memref<64x256xf16> to memref<64x32xf16, strided<[256, 1], offset: ?>>
        %src = memref.subview %tile[%row, %col] [1, 8] [1, 1] : memref<64x32xf16, strided<[256, 1], offset: ?>> to memref<1x8xf16, strided<[256, 1], offset: ?>>
        %dst = memref.subview %s[%row, %col] [1, 8] [1, 1] : memref<64x32xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
        %v = vector.transfer_read %src[%c0, %c0], %pad {in_bounds = [true, true]} : memref<1x8xf16, strided<[256, 1], offset: ?>>, vector<1x8xf16>
        vector.transfer_write %v, %dst[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
        gpu.barrier
        %rd = memref.subview %s[%row, 0] [1, 32] [1, 1] : memref<64x32xf16, #gpu.address_space<workgroup>> to memref<32xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
        %x = vector.load %rd[%col] : memref<32xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xf16>
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

// REMARK: remark: pipelined: variant cp-async, 2 shared buffer(s)

// CHECK-LABEL: gpu.func @subview_unit_dim
// CHECK-SAME:    workgroup(%[[S:.*]] : memref<2x64x32xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CHECK:         %[[DST0:.*]] = memref.subview %[[S]][0, %{{.*}}, %{{.*}}] [1, 1, 8] [1, 1, 1] : memref<2x64x32xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK:         nvgpu.device_async_copy %{{.*}}, %[[DST0]][%{{.*}}, %{{.*}}], 8 {bypassL1} : memref<1x8xf16, strided<[256, 1], offset: ?>> to memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK:         scf.for
// CHECK:           memref.subview %[[S]][%{{.*}}, %{{.*}}, %{{.*}}] [1, 1, 8] [1, 1, 1]
// CHECK:           nvgpu.device_async_copy {{.*}}, 8 {bypassL1}
// CHECK:           memref.subview %[[S]][%{{.*}}, %{{.*}}, 0] [1, 1, 32] [1, 1, 1] : memref<2x64x32xf16, #gpu.address_space<workgroup>> to memref<32xf16, strided<[1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK:         } {pk.pipelined

// -----

// The same copy from a kernel argument whose llvm.align says 4: the global
// side is proven 4-byte aligned only, cp.async would copy 4 bytes, and auto
// takes ldg-register (rule narrow-cp-async); variant=cp-async copies 4 bytes
// (2 elements) per instruction, without bypassL1 (.ca).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @llvm_align_4(%A: memref<64x256xf16> {llvm.align = 4 : i64}, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c256 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x256xf16>, vector<8xf16>
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

// REMARK: remark: pipelined: variant ldg-register, 2 shared buffer(s)
// REMARK-SAME: cp.async would copy only 4 bytes per instruction

// CHECK-LABEL: gpu.func @llvm_align_4
// CHECK-COUNT-4: nvgpu.device_async_copy {{.*}}, 2 :
// CHECK:         scf.for

// -----

// memref.assume_alignment 16 on that argument restores 16-byte copies.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @assume_alignment_16(%arg: memref<64x256xf16> {llvm.align = 4 : i64}, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %A = memref.assume_alignment %arg, 16 : memref<64x256xf16>
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c256 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x256xf16>, vector<8xf16>
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

// REMARK: remark: pipelined: variant cp-async, 2 shared buffer(s)

// CHECK-LABEL: gpu.func @assume_alignment_16
// CHECK:         nvgpu.device_async_copy {{.*}}, 8 {bypassL1}
// CHECK:         scf.for

// -----

// A global operand with a dynamic offset and row stride: its alignment cannot
// be proven. The loop is versioned at run time on (aligned pointer + offset *
// 2) | row stride * 2 being a multiple of 16, the original loop the fallback.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @runtime_alignment(%A: memref<64x256xf16, strided<[?, 1], offset: ?>>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c256 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x256xf16, strided<[?, 1], offset: ?>>, vector<8xf16>
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

// REMARK: remark: pipelined: variant cp-async, 2 shared buffer(s)
// REMARK-SAME: 16-byte cp.async assumes that kernel argument #0 (dynamic offset or strides) starts 16-byte aligned with strides in multiples of 16 bytes, which pk cannot prove: the loop is versioned at run time on that alignment, the original loop as the fallback (rule runtime-alignment)

// CHECK-LABEL: gpu.func @runtime_alignment
// CHECK-SAME:    (%[[A:.*]]: memref<64x256xf16, strided<[?, 1], offset: ?>>
// CHECK-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CHECK:         %{{.*}}, %[[OFF:.*]], %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %[[A]]
// CHECK:         %[[PTR:.*]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK:         arith.addi %[[PTR]],
// CHECK:         arith.ori
// CHECK:         %[[REM:.*]] = arith.remui %{{.*}}, %[[C16]] : index
// CHECK:         %[[OK:.*]] = arith.cmpi eq, %[[REM]],
// CHECK:         scf.if %[[OK]]
// CHECK:           nvgpu.device_async_copy %[[A]][{{.*}}], 8 {bypassL1}
// CHECK:           scf.for
// CHECK:           } {pk.pipelined
// CHECK:         } else {
// CHECK:           scf.for
// CHECK-NOT:         nvgpu.device_async_copy
// CHECK:           } {pk.pipeline_fallback}

// -----

// A thread's piece taken every other element (subview stride 2): the copy is
// not contiguous, so it never becomes cp.async (variant=cp-async falls back
// to ldg-register and says why).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @subview_strided(%A: memref<64x256xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %pad = arith.constant 0.0 : f16
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c256 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %src = memref.subview %A[%row, %k] [1, 8] [1, 2] : memref<64x256xf16> to memref<1x8xf16, strided<[256, 2], offset: ?>>
        %v = vector.transfer_read %src[%c0, %c0], %pad {in_bounds = [true, true]} : memref<1x8xf16, strided<[256, 2], offset: ?>>, vector<1x8xf16>
        %dst = memref.subview %s[%row, %col] [1, 8] [1, 1] : memref<64x32xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
        vector.transfer_write %v, %dst[%c0, %c0] {in_bounds = [true, true]} : vector<1x8xf16>, memref<1x8xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
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

// REMARK: remark: pipelined: variant ldg-register, 2 shared buffer(s)
// REMARK-SAME: cp.async not possible: cp.async needs a 1-D contiguous, unmasked global read, in bounds or zero-padded

// CHECK-LABEL: gpu.func @subview_strided
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         gpu.return

// -----

// The stage stride is the whole buffer (5 rows of 24 bytes = 120 bytes),
// not the 16-byte subview the copy writes: stage 1 starts 8 bytes off a
// 16-byte boundary, so the shared side is proven 8-byte aligned and the
// copies are 8 bytes wide. The compute phase is FMAs only (vector.fma, no
// mma), so auto takes ldg-register (rule narrow-cp-async: such loops take
// cp.async from 16 bytes); variant=cp-async copies 8 bytes.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @stage_stride_not_subview(%A: memref<64x256xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<5x12xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %pad = arith.constant 0.0 : f16
      %tid = gpu.thread_id x
      %q = arith.remui %tid, %c2 : index
      %row = arith.muli %q, %c2 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c256 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %v = vector.load %A[%row, %k] : memref<64x256xf16>, vector<8xf16>
        %dst = memref.subview %s[%row, 0] [1, 8] [1, 1] : memref<5x12xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[12, 1], offset: ?>, #gpu.address_space<workgroup>>
        vector.store %v, %dst[%c0, %c0] : memref<1x8xf16, strided<[12, 1], offset: ?>, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%row, %c0] : memref<5x12xf16, #gpu.address_space<workgroup>>, vector<8xf16>
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

// REMARK: remark: pipelined: variant ldg-register, 2 shared buffer(s)
// REMARK-SAME: cp.async would copy only 8 bytes per instruction and the compute phase is FMAs only: below 16 bytes {{.*}} (rule narrow-cp-async; variant=cp-async forces it)

// CHECK-LABEL: gpu.func @stage_stride_not_subview
// CHECK-COUNT-2: nvgpu.device_async_copy {{.*}}, 4 : memref<64x256xf16> to memref<1x8xf16, strided<[12, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK:         scf.for
