// RUN: rm -rf %t && mkdir -p %t
// A zero-padded read that may run past its row (in_bounds = [false]) of a
// dynamic-shape memref (a K loop over memref.dim): its mask is built
// (memref.dim - index) before convert-gpu-to-nvvm lowers memref.dim, so the
// PTX emits, unpipelined and pipelined (where it became a cp.async with a
// source size).
// RUN: pk-opt %s --pk-emit-binaries='arch=sm_90 emit=ptx out-dir=%t/base' -o /dev/null
// RUN: FileCheck %s --check-prefix=BASE --input-file=%t/base/m.sm_90.ptx
// BASE:     .entry dyn_partial(
// BASE-NOT: cp.async
// BASE:     ld.global.b16
// RUN: pk-opt %s --pipeline-kernel='arch=sm_90 emit=ptx out-dir=%t/pk' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-NOT: error
// REMARK:     remark: pipelined: variant cp-async, 2 shared buffer(s)
// REMARK-NOT: error
// RUN: FileCheck %s --check-prefix=PK --input-file=%t/pk/m.sm_90.ptx
// PK:     .entry dyn_partial(
// PK:     cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16, %r{{[0-9]+}};
// The register variant keeps the masked read.
// RUN: pk-opt %s --pipeline-kernel='arch=sm_90 variant=ldg-register emit=ptx out-dir=%t/ldg' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK-LDG
// REMARK-LDG-NOT: error
// REMARK-LDG:     remark: pipelined: variant ldg-register
// RUN: FileCheck %s --check-prefix=BASE --input-file=%t/ldg/m.sm_90.ptx
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @dyn_partial(%A: memref<?x?xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %pad = arith.constant 0.0 : f16
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %K = memref.dim %A, %c1 : memref<?x?xf16>
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %K step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %kc = arith.addi %k, %col : index
        %v = vector.transfer_read %A[%row, %kc], %pad {in_bounds = [false]} : memref<?x?xf16>, vector<8xf16>
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
