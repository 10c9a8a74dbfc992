// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops=arch=sm_90 --canonicalize --cse 2>/dev/null | FileCheck %s
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops=arch=sm_90 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Compute phases that stream global memory (docs/input-contract.md): reads
// of memory nothing in the loop writes, at any address (a GEMV's matrix
// rows, read once each, need no staging), stay in the compute phase; the
// next tile's copies of x move ahead of them.
// CHECK-LABEL: gpu.func @gemv_stream
// CHECK:       scf.for
// CHECK:         nvgpu.device_async_copy %arg1
// CHECK:         vector.load %arg0[%{{.*}}, %arg4]
// CHECK:       } {pk.pipelined}
// REMARK:      remark: pipelined: variant cp-async, 2 shared buffer(s)
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @gemv_stream(%A: memref<128x4096xf32>, %x: memref<4096xf32>, %y: memref<128x4xf32>)
        workgroup(%sx: memref<512xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c512 = arith.constant 512 : index
      %c4096 = arith.constant 4096 : index
      %tid = gpu.thread_id x
      %t4 = arith.muli %tid, %c4 : index
      %zero = arith.constant dense<0.0> : vector<4xf32>
      %r = scf.for %k = %c0 to %c4096 step %c512 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %gk = arith.addi %k, %t4 : index
        %v = vector.load %x[%gk] : memref<4096xf32>, vector<4xf32>
        vector.store %v, %sx[%t4] : memref<512xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %xs = vector.load %sx[%t4] : memref<512xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %a = vector.load %A[%tid, %k] : memref<128x4096xf32>, vector<4xf32>
        %d = vector.fma %a, %xs, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      vector.store %r, %y[%tid, %c0] : memref<128x4xf32>, vector<4xf32>
      gpu.return
    }
  }
}

// -----

// A vertical 3-point stencil: each K-tile of 32 rows is staged with its two
// halo rows (guarded loads), and the compute phase writes its output rows at
// addresses that move with the loop, to a kernel argument marked
// llvm.noalias: pk proves those stores cannot reach what the next tiles'
// copies read, and pipelines the loop (no iter_args: the stores are its
// results).
// CHECK-LABEL: gpu.func @stencil_rows
// CHECK:       scf.for
// CHECK:         nvgpu.device_async_copy %arg0
// CHECK:         vector.store %{{.*}}, %arg1[
// CHECK:       } {pk.pipelined}
// REMARK:      remark: pipelined: variant cp-async, 2 shared buffer(s)
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @stencil_rows(%in: memref<256x32xf32>, %out: memref<256x32xf32> {llvm.noalias})
        workgroup(%s: memref<34x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 272, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %zeros = arith.constant dense<0.0> : vector<4xf32>
      %tid = gpu.thread_id x
      %lrow = arith.divui %tid, %c8 : index
      %q = arith.remui %tid, %c8 : index
      %col = arith.muli %q, %c4 : index
      scf.for %k = %c0 to %c256 step %c32 {
        // Rows k-1 .. k+32 of the input into rows 0 .. 33 of the tile.
        %g = arith.addi %k, %lrow : index
        %src = arith.subi %g, %c1 : index
        %ge = arith.cmpi sge, %src, %c0 : index
        %lt = arith.cmpi slt, %src, %c256 : index
        %ok = arith.andi %ge, %lt : i1
        %v = scf.if %ok -> (vector<4xf32>) {
          %l = vector.load %in[%src, %col] : memref<256x32xf32>, vector<4xf32>
          scf.yield %l : vector<4xf32>
        } else {
          scf.yield %zeros : vector<4xf32>
        }
        vector.store %v, %s[%lrow, %col] : memref<34x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        // Output row k + r, r < 32, from tile rows r, r+1, r+2.
        %r = arith.remui %lrow, %c32 : index
        %r1 = arith.addi %r, %c1 : index
        %r2 = arith.addi %r, %c2 : index
        %a = vector.load %s[%r, %col] : memref<34x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %b = vector.load %s[%r1, %col] : memref<34x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %c = vector.load %s[%r2, %col] : memref<34x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %ab = arith.addf %a, %b : vector<4xf32>
        %abc = arith.addf %ab, %c : vector<4xf32>
        %orow = arith.addi %k, %r : index
        vector.store %abc, %out[%orow, %col] : memref<256x32xf32>, vector<4xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

// The same without llvm.noalias: the stores may reach the input the next
// tiles' copies read; declined at the store, with a note at the copy.
// CHECK-LABEL: gpu.func @stencil_may_alias
// CHECK-NOT:   pk.pipelined
// REMARK:      remark: not pipelined: not a pk K-loop: compute phase writes kernel argument #1 at addresses that move with the K-loop, and the load phase reads kernel argument #0: pk cannot prove they do not overlap (the next tiles' loads move ahead of this store); mark one of the two kernel arguments llvm.noalias
// REMARK:      note: the load of the load phase
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @stencil_may_alias(%in: memref<256x32xf32>, %out: memref<256x32xf32>)
        workgroup(%s: memref<32x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %lrow = arith.divui %tid, %c8 : index
      %q = arith.remui %tid, %c8 : index
      %col = arith.muli %q, %c4 : index
      scf.for %k = %c0 to %c256 step %c32 {
        %g = arith.addi %k, %lrow : index
        %l = vector.load %in[%g, %col] : memref<256x32xf32>, vector<4xf32>
        vector.store %l, %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %a = vector.load %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %aa = arith.addf %a, %a : vector<4xf32>
        vector.store %aa, %out[%g, %col] : memref<256x32xf32>, vector<4xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

// Reading back what the loop writes at moving addresses is declined.
// CHECK-LABEL: gpu.func @reads_its_stream
// CHECK-NOT:   pk.pipelined
// REMARK:      remark: not pipelined: not a pk K-loop: compute phase reads global memory it also writes at addresses that move with the K-loop (kernel argument #1): only accumulators at fixed addresses may be read back
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @reads_its_stream(%in: memref<256x32xf32>, %out: memref<256x32xf32> {llvm.noalias})
        workgroup(%s: memref<32x32xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %lrow = arith.divui %tid, %c8 : index
      %q = arith.remui %tid, %c8 : index
      %col = arith.muli %q, %c4 : index
      scf.for %k = %c0 to %c256 step %c32 {
        %g = arith.addi %k, %lrow : index
        %l = vector.load %in[%g, %col] : memref<256x32xf32>, vector<4xf32>
        vector.store %l, %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %a = vector.load %s[%lrow, %col] : memref<32x32xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %o = vector.load %out[%g, %col] : memref<256x32xf32>, vector<4xf32>
        %ao = arith.addf %a, %o : vector<4xf32>
        vector.store %ao, %out[%g, %col] : memref<256x32xf32>, vector<4xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
}
