// RUN: pk-opt %s -split-input-file --pk-analyze-kloops -o /dev/null 2>&1 | FileCheck %s
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops -o - 2>/dev/null | FileCheck %s --check-prefix=PIPE
//
// A loop `lb to lb + c` (a split-K slice, `z*K/S .. z*K/S + K/S`) has the
// static trip count c / step when the integer range analysis proves that
// lb + c does not wrap: the pipelined loop needs no run-time version (no
// fallback loop, whose registers cost the pipelined one).

// CHECK: remark: K-loop: trip count 4,
// PIPE-LABEL: gpu.func @slice
// PIPE-NOT:   pk.pipeline_fallback
// PIPE:       gpu.return
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @slice(%A: memref<64x512xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %tid = gpu.thread_id x
      %z = gpu.block_id z
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %lb = arith.muli %z, %c128 : index
      %ub = arith.addi %lb, %c128 : index
      %r = scf.for %k = %lb to %ub step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x512xf16>, vector<8xf16>
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

// The same bound through affine.apply.
// CHECK: remark: K-loop: trip count 4,
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @slice_affine(%A: memref<64x512xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %tid = gpu.thread_id x
      %z = gpu.block_id z
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %lb = arith.muli %z, %c128 : index
      %ub = affine.apply affine_map<(d0) -> (d0 + 128)>(%lb)
      %r = scf.for %k = %lb to %ub step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x512xf16>, vector<8xf16>
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

// A lower bound read from memory may lie anywhere: lb + 128 may wrap (the
// loop then runs no iteration), so the trip count stays dynamic and the
// pipelined loop is versioned.
// CHECK: remark: K-loop: trip count dynamic,
// PIPE-LABEL: gpu.func @unbounded
// PIPE:       pk.pipeline_fallback
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @unbounded(%A: memref<64x512xf16>, %out: memref<64xf32>, %start: memref<1xindex>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %lb = memref.load %start[%c0] : memref<1xindex>
      %ub = arith.addi %lb, %c128 : index
      %r = scf.for %k = %lb to %ub step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x512xf16>, vector<8xf16>
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
