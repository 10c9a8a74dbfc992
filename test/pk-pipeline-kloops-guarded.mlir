// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops=arch=sm_90 --canonicalize --cse | FileCheck %s
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops='arch=sm_90 variant=ldg-register' --canonicalize --cse | FileCheck %s --check-prefix=LDG
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops=arch=sm_90 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Guarded load phases: a halo or bounds guard that yields the loaded tile
// row or zero (scf.if with results), stored after it. As cp.async, a failed
// guard is a copy of no element (source size 0, zero-filled, pointing at
// element [0, 0]); the scf.if goes. The register variants keep the scf.if
// with the global loads and move the store after the compute.
// CHECK-LABEL: gpu.func @guarded_rows
// CHECK:       scf.for
// CHECK:         %[[V:.*]] = arith.andi
// CHECK-NEXT:    %[[N:.*]] = arith.select %[[V]], %c8, %c0 : index
// CHECK-NEXT:    %[[NMIN:.*]] = arith.minsi %[[N]], %c8 : index
// CHECK-NEXT:    %[[NCLAMP:.*]] = arith.maxsi %[[NMIN]], %c0 : index
// CHECK-NEXT:    %[[COUNT:.*]] = arith.minsi %{{.*}}, %[[NCLAMP]] : index
// CHECK-NEXT:    %[[SRC:.*]] = arith.maxsi %[[COUNT]], %c0 : index
// CHECK-NEXT:    %[[ANY:.*]] = arith.cmpi sgt, %[[COUNT]], %c0 : index
// CHECK-NEXT:    %[[ROW:.*]] = arith.select %[[ANY]], %{{.*}}, %c0 : index
// CHECK-NEXT:    %[[COL:.*]] = arith.select %[[ANY]], %{{.*}}, %c0 : index
// CHECK-NEXT:    nvgpu.device_async_copy %arg0[%[[ROW]], %[[COL]]], %arg2[%{{.*}}], 8, %[[SRC]] {bypassL1}
// CHECK-NOT:     scf.if
// CHECK:       } {pk.pipelined}
// LDG-LABEL: gpu.func @guarded_rows
// LDG:       scf.for
// LDG:         %[[G:.*]] = scf.if
// LDG-NEXT:      vector.load %arg0
// LDG:         vector.fma
// LDG-NEXT:    gpu.barrier
// LDG-NEXT:    vector.store %[[G]], %arg2
// REMARK:    remark: pipelined: variant cp-async, 2 shared buffer(s)
module attributes {gpu.container_module} {
  gpu.module @m {
    // Rows k/32 - 1 + row of A, zero outside [0, 64): a halo guard.
    gpu.func @guarded_rows(%A: memref<64x32xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %zeros = arith.constant dense<0.0> : vector<8xf16>
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
        %v = scf.if %valid -> (vector<8xf16>) {
          %l = vector.load %A[%src, %col] : memref<64x32xf16>, vector<8xf16>
          scf.yield %l : vector<8xf16>
        } else {
          scf.yield %zeros : vector<8xf16>
        }
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

// The loaded row in the else branch: the guard fails when the condition
// (%outside) holds; the canonicalizer folds the select on its negation.
// CHECK-LABEL: gpu.func @guarded_rows_negated
// CHECK:       scf.for
// CHECK:         %[[V:.*]] = arith.andi
// CHECK-NEXT:    %[[N:.*]] = arith.select %[[V]], %c8, %c0 : index
// CHECK:         nvgpu.device_async_copy %arg0
// CHECK-NOT:     scf.if
// CHECK:       } {pk.pipelined}
// REMARK:    remark: pipelined: variant cp-async, 2 shared buffer(s)
module attributes {gpu.container_module} {
  gpu.module @m {
    // Rows k/32 - 1 + row of A, zero outside [0, 64): a halo guard.
    gpu.func @guarded_rows_negated(%A: memref<64x32xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %zeros = arith.constant dense<0.0> : vector<8xf16>
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
        %true = arith.constant true
        %outside = arith.xori %valid, %true : i1
        %v = scf.if %outside -> (vector<8xf16>) {
          scf.yield %zeros : vector<8xf16>
        } else {
          %l = vector.load %A[%src, %col] : memref<64x32xf16>, vector<8xf16>
          scf.yield %l : vector<8xf16>
        }
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

// The load's indices are computed under the guard, where the copy (issued
// at the store, outside it) cannot see them: no cp.async; ldg-register keeps
// the guard.
// CHECK-LABEL: gpu.func @index_under_guard
// CHECK-NOT:   nvgpu.device_async_copy
// CHECK:       scf.if
// CHECK:       } {pk.pipelined}
// REMARK:    remark: pipelined: variant ldg-register, 2 shared buffer(s); {{.*}}cp.async not possible: cp.async needs the shared store to write the loaded value or one element of it unchanged
module attributes {gpu.container_module} {
  gpu.module @m {
    // Rows k/32 - 1 + row of A, zero outside [0, 64): a halo guard.
    gpu.func @index_under_guard(%A: memref<64x32xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %zeros = arith.constant dense<0.0> : vector<8xf16>
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
        %v = scf.if %valid -> (vector<8xf16>) {
          %src2 = arith.addi %src, %c0 : index
          %l = vector.load %A[%src2, %col] : memref<64x32xf16>, vector<8xf16>
          scf.yield %l : vector<8xf16>
        } else {
          scf.yield %zeros : vector<8xf16>
        }
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

// -0.0 in the other branch: cp.async fills +0.0, so the copy stays in
// registers.
// CHECK-LABEL: gpu.func @negative_zero
// CHECK-NOT:   nvgpu.device_async_copy
// CHECK:       } {pk.pipelined}
// REMARK:    remark: pipelined: variant ldg-register
module attributes {gpu.container_module} {
  gpu.module @m {
    // Rows k/32 - 1 + row of A, zero outside [0, 64): a halo guard.
    gpu.func @negative_zero(%A: memref<64x32xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %zeros = arith.constant dense<-0.0> : vector<8xf16>
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
        %v = scf.if %valid -> (vector<8xf16>) {
          %l = vector.load %A[%src, %col] : memref<64x32xf16>, vector<8xf16>
          scf.yield %l : vector<8xf16>
        } else {
          scf.yield %zeros : vector<8xf16>
        }
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

// A shared store under the guard: the elements it skips would keep another
// stage's data once multi-buffered. Declined at the store (the loop is not
// pk's: the IR is unchanged).
// CHECK-LABEL: gpu.func @store_under_guard
// CHECK-NOT:   pk.pipelined
// CHECK-NOT:   nvgpu.device_async_copy
// CHECK:       gpu.return
// REMARK:    remark: not pipelined: not a pk K-loop: load phase: a shared store under scf.if: the elements it skips would keep another stage's data once the buffer is multi-buffered; yield the loaded value (or zero) from the scf.if and store it after
module attributes {gpu.container_module} {
  gpu.module @m {
    // Rows k/32 - 1 + row of A, zero outside [0, 64): a halo guard.
    gpu.func @store_under_guard(%A: memref<64x32xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c128 = arith.constant 128 : index
      %zeros = arith.constant dense<0.0> : vector<8xf16>
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
        scf.if %valid {
          %l = vector.load %A[%src, %col] : memref<64x32xf16>, vector<8xf16>
          vector.store %l, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        }
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
