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
// CHECK-NEXT:    %[[COUNT:.*]] = arith.minsi %[[NCLAMP]], %c8 : index
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

// -----

// A guarded vector.load of 16 f16 from rows of 8 spans two rows, as
// vector.load may on a contiguous memref: guarded, its second 16-byte copy
// still reads row r+1 (source size select(guard, 8, 0), no clamp at the row
// end, which only masked reads have; from a review: it read nothing).
// The second copy: the guard's 16 elements less the first copy's 8, capped
// at 8 (not at the row's end, 0).
// CHECK-LABEL: gpu.func @guarded_row_crossing
// CHECK:       nvgpu.device_async_copy %arg0[%{{.*}}, %c0], %arg2[%c0, %thread_id_x, %c0], 8, %{{.*}} {bypassL1}
// CHECK-NEXT:  %[[REST:.*]] = arith.subi %{{.*}}, %c8 : index
// CHECK-NEXT:  %[[N2:.*]] = arith.minsi %[[REST]], %c8 : index
// CHECK-NEXT:  %[[SRC2:.*]] = arith.maxsi %[[N2]], %c0 : index
// CHECK:       nvgpu.device_async_copy %arg0[%{{.*}}, %{{.*}}], %arg2[%c0, %thread_id_x, %c8], 8, %[[SRC2]] {bypassL1}
// CHECK:       } {pk.pipelined}
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @guarded_row_crossing(%A: memref<8192x8xf16>, %out: memref<128x16xf32>)
        workgroup(%s: memref<128x16xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c2 = arith.constant 2 : index
      %c128 = arith.constant 128 : index
      %c4096 = arith.constant 4096 : index
      %c8192 = arith.constant 8192 : index
      %zeros = arith.constant dense<0.0> : vector<16xf16>
      %tid = gpu.thread_id x
      %init = arith.constant dense<0.0> : vector<16xf32>
      %r = scf.for %k = %c0 to %c4096 step %c128 iter_args(%acc = %init) -> (vector<16xf32>) {
        %t = arith.addi %k, %tid : index
        %row = arith.muli %t, %c2 : index
        %valid = arith.cmpi slt, %row, %c8192 : index
        %v = scf.if %valid -> (vector<16xf16>) {
          %l = vector.load %A[%row, %c0] : memref<8192x8xf16>, vector<16xf16>
          scf.yield %l : vector<16xf16>
        } else {
          scf.yield %zeros : vector<16xf16>
        }
        vector.store %v, %s[%tid, %c0] : memref<128x16xf16, #gpu.address_space<workgroup>>, vector<16xf16>
        gpu.barrier
        %x = vector.load %s[%tid, %c0] : memref<128x16xf16, #gpu.address_space<workgroup>>, vector<16xf16>
        %xf = arith.extf %x : vector<16xf16> to vector<16xf32>
        %d = vector.fma %xf, %xf, %acc : vector<16xf32>
        gpu.barrier
        scf.yield %d : vector<16xf32>
      }
      vector.store %r, %out[%tid, %c0] : memref<128x16xf32>, vector<16xf32>
      gpu.return
    }
  }
}

// -----

// One guard yielding two loaded rows, each stored to its own buffer: two
// guarded cp.async copies, and the scf.if goes once both are converted (it
// takes both loads with it; from a review, which found the erasure reading
// an erased load under valgrind).
// CHECK-LABEL: gpu.func @two_loads_one_guard
// CHECK:       scf.for
// CHECK-COUNT-2: nvgpu.device_async_copy
// CHECK-NOT:   scf.if
// CHECK:       } {pk.pipelined}
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @two_loads_one_guard(%A: memref<64x32xf16>, %B: memref<64x32xf16>, %out: memref<64xf32>)
        workgroup(%sA: memref<64x32xf16, #gpu.address_space<workgroup>>,
                  %sB: memref<64x32xf16, #gpu.address_space<workgroup>>)
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
        %va, %vb = scf.if %valid -> (vector<8xf16>, vector<8xf16>) {
          %la = vector.load %A[%src, %col] : memref<64x32xf16>, vector<8xf16>
          %lb = vector.load %B[%src, %col] : memref<64x32xf16>, vector<8xf16>
          scf.yield %la, %lb : vector<8xf16>, vector<8xf16>
        } else {
          scf.yield %zeros, %zeros : vector<8xf16>, vector<8xf16>
        }
        vector.store %va, %sA[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        vector.store %vb, %sB[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %sA[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %y = vector.load %sB[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %yf = arith.extf %y : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %yf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      %e = vector.extract %r[0] : f32 from vector<8xf32>
      memref.store %e, %out[%row] : memref<64xf32>
      gpu.return
    }
  }
}
