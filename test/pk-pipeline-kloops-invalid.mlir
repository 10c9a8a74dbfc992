// RUN: pk-opt %s -split-input-file -verify-diagnostics --pk-pipeline-kloops | FileCheck %s
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops='stages=3 schedule=two-stage' -o /dev/null 2>&1 | FileCheck %s --check-prefix=STAGES3
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops='variant=ldg-register' -o /dev/null 2>&1 | FileCheck %s --check-prefix=FORCED
// RUN: pk-opt %S/Inputs/seed-64x64x16.mlir --pk-pipeline-kloops 2>/dev/null | pk-opt --pk-pipeline-kloops -o /dev/null 2>&1 | FileCheck %s --check-prefix=AGAIN
// RUN: not pk-opt %s --pk-pipeline-kloops='schedule=fancy' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADSCHEDULE
// RUN: not pk-opt %s --pk-pipeline-kloops='variant=fastest' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADVARIANT
// RUN: not pk-opt %s --pk-pipeline-kloops='variant=cp-async arch=sm_75' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOCPASYNC
// RUN: rm -f %t.late.mlir && not pk-opt %S/Inputs/seed-64x64x16.mlir --pk-pipeline-kloops='test-fail-late=1' -o %t.late.mlir 2>&1 | FileCheck %s --check-prefix=LATE && not test -e %t.late.mlir
// Near-limit loop bounds (Inputs/near-limit-loops.mlir), every variant and 2-4 stages:
// RUN: pk-opt %S/Inputs/near-limit-loops.mlir --pk-pipeline-kloops -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMITS
// RUN: pk-opt %S/Inputs/near-limit-loops.mlir --pk-pipeline-kloops=schedule=two-stage -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMITS
// RUN: pk-opt %S/Inputs/near-limit-loops.mlir --pk-pipeline-kloops=stages=3 -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMITS
// RUN: pk-opt %S/Inputs/near-limit-loops.mlir --pk-pipeline-kloops=stages=4 -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMITS
// RUN: pk-opt %S/Inputs/near-limit-loops.mlir --pk-pipeline-kloops=variant=ldg-register -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMITS
// RUN: pk-opt %S/Inputs/near-limit-loops.mlir --pk-pipeline-kloops=variant=register-prefetch -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMITS
// RUN: pk-opt %S/Inputs/near-limit-loops.mlir --pk-pipeline-kloops=stages=4 --canonicalize --cse 2>/dev/null | pk-opt - | FileCheck %s --check-prefix=LIMITS4
// The declines on the bundled kernels (HGEMM-*, WGMMA-*, MIF-*, TMA-*, WS-*)
// are in test/e2e/pk-pipeline-kloops-invalid.test.
// schedule=warp-specialized declines (docs/hopper.md "Warp specialization")
// a launch of a dynamic block size.
// RUN: sed 's/BLOCK_X/%%bx/' %S/Inputs/tma-launch.mlir | pk-opt --pk-pipeline-kloops='arch=sm_90a variant=tma schedule=warp-specialized stages=3' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WS-DYNLAUNCH
// WS-DYNLAUNCH: <stdin>:{{[0-9]+}}:5: remark: not pipelined: schedule=warp-specialized grows the block by a producer warpgroup; this gpu.launch_func does not launch the kernel's constant known_block_size

// BADVARIANT: for the --variant option: Cannot find option named 'fastest'!
// NOCPASYNC: error: variant=cp-async needs cp.async (sm_80 and later); sm_75 has none
// Everything that can fail is checked before the first IR change; a failure
// after it (forced here: upstream's pipeliner is handed an incomplete
// schedule) is an internal error at the loop that fails the pass, so no
// partially rewritten IR is ever written.
// LATE: seed-64x64x16.mlir:23:14: error: pk failed after changing the IR (internal error: scf::pipelineForLoop rejected the schedule); the kernel is left invalid, please report this loop
// The two-stage order has two stages only.
// STAGES3: remark: not pipelined: schedule=two-stage takes 2 buffers; got 3 (schedule=multistage takes more); 3 stages need
// pk leaves its own output alone.
// AGAIN: remark: not pipelined: not a pk K-loop: loop already pipelined by pk (pk.pipelined)
// BADSCHEDULE: for the --schedule option: Cannot find option named 'fancy'!
// An explicit variant names what auto would pick after the cp.async checks:
// for K = 33 that is ldg-register, not cp-async.
// FORCED: remark: pipelined: variant ldg-register, 2 shared buffer(s); variant=ldg-register requested (auto would pick ldg-register)

// Every loop below stays untouched (checked with FileCheck on the output)
// unless its remark says "pipelined".

// Trip count 1: nothing to overlap.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @trip1(%A: memref<64x32xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-remark @below {{not pipelined: trip count 1 < 2: no next tile to overlap}}
      %r = scf.for %k = %c0 to %c32 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x32xf16>, vector<8xf16>
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
// CHECK-LABEL: gpu.func @trip1
// CHECK-SAME:    memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         scf.for
// CHECK:         gpu.return

// -----

// Dynamic trip count: versioned on the trip count. The pipelined copy runs
// when ceildiv(%n, 32) >= 2, the original loop (marked pk.pipeline_fallback,
// which pk then leaves alone) otherwise.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @dynamic(%A: memref<64x4096xf16>, %out: memref<64xf32>, %n: index)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-remark @below {{pipelined: variant cp-async, 2 shared buffer(s); dynamic trip count: the pipelined loop runs when the trip count is at least 2, the original loop otherwise}}
      %r = scf.for %k = %c0 to %n step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x4096xf16>, vector<8xf16>
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
// CHECK-LABEL: gpu.func @dynamic
// CHECK-SAME:    memref<2x64x32xf16, #gpu.address_space<workgroup>>
// The guard: step > 0, ub > lb, neither ub - lb nor ub - lb + step - 1 wraps
// (upstream's epilogue computes the trip count so), trip count >= stages.
// CHECK:         %[[SPAN:.*]] = arith.subi %[[UB:.*]], %[[LB:.*]] : index
// CHECK:         %[[ROUNDED:.*]] = arith.addi %[[SPAN]], %{{.*}} : index
// CHECK:         %[[N:.*]] = arith.divui %[[ROUNDED]], %[[STEP:.*]] : index
// CHECK:         arith.cmpi sgt, %[[STEP]], %{{.*}} : index
// CHECK:         arith.cmpi sgt, %[[UB]], %[[LB]] : index
// CHECK:         arith.cmpi sgt, %[[SPAN]], %{{.*}} : index
// CHECK:         arith.cmpi sge, %[[ROUNDED]], %[[SPAN]] : index
// CHECK:         arith.cmpi sge, %[[N]], %{{.*}} : index
// CHECK-COUNT-3: arith.andi
// CHECK-NEXT:    %[[OK:.*]] = arith.andi
// CHECK-NEXT:    scf.if %[[OK]] -> (vector<8xf32>) {
// CHECK:           nvgpu.device_async_copy
// CHECK:           nvgpu.device_async_create_group
// CHECK:           scf.for
// CHECK:             nvgpu.device_async_wait
// CHECK-NEXT:        gpu.barrier
// CHECK:             nvgpu.device_async_copy
// CHECK:             vector.fma
// CHECK:           nvgpu.device_async_wait
// CHECK-NEXT:      gpu.barrier
// CHECK:           vector.fma
// CHECK:           gpu.barrier
// CHECK:         } else {
// CHECK:           scf.for
// CHECK-NOT:         nvgpu.device_async_copy
// CHECK:             vector.store
// CHECK:           } {pk.pipeline_fallback}
// CHECK:         gpu.return

// -----

// A subview of a copied buffer made in the load phase and read in the
// compute phase: its stage would be the load phase's. The whole kernel is
// left as it was (subviews used in their own phase are multi-buffered:
// pk-pipeline-kloops-alignment.mlir).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @subview_use(%A: memref<64x128xf16>, %out: memref<64xf32>)
        // expected-note @below {{copied buffer workgroup attribution #0}}
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-note @below {{in this K-loop}}
      %r = scf.for %k = %c0 to %c128 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x128xf16>, vector<8xf16>
        vector.store %v, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        // expected-remark @below {{not pipelined: this memref.subview of copied buffer workgroup attribution #0 is used in the other phase of the K-loop; pk needs the subviews of each phase in that phase}}
        %sv = memref.subview %s[0, 0] [64, 16] [1, 1] : memref<64x32xf16, #gpu.address_space<workgroup>> to memref<64x16xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
        gpu.barrier
        // expected-note @below {{the use in the other phase}}
        %x = vector.load %sv[%row, %c0] : memref<64x16xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>, vector<8xf16>
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
// CHECK-LABEL: gpu.func @subview_use
// CHECK-SAME:    workgroup(%{{.*}} : memref<64x32xf16, #gpu.address_space<workgroup>>)
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         memref.subview
// CHECK:         gpu.barrier
// CHECK:         gpu.return

// -----

// Scalar f16 copies move 2 bytes: cp.async cannot (4, 8 or 16 bytes), so
// variant=auto falls back to ldg-register.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @scalar_f16(%A: memref<256x128xf16>, %out: memref<256xf32>)
        workgroup(%s: memref<256x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %tid = gpu.thread_id x
      %init = arith.constant 0.0 : f32
      // expected-remark @below {{pipelined: variant ldg-register, 2 shared buffer(s)}}
      %r = scf.for %k = %c0 to %c128 step %c32 iter_args(%acc = %init) -> (f32) {
        %v = memref.load %A[%tid, %k] : memref<256x128xf16>
        // expected-note @below {{this copy cannot be cp.async}}
        memref.store %v, %s[%tid, %c0] : memref<256x32xf16, #gpu.address_space<workgroup>>
        gpu.barrier
        %x = memref.load %s[%tid, %c0] : memref<256x32xf16, #gpu.address_space<workgroup>>
        %xf = arith.extf %x : f16 to f32
        %m = arith.mulf %xf, %xf : f32
        %d = arith.addf %m, %acc : f32
        gpu.barrier
        scf.yield %d : f32
      }
      memref.store %r, %out[%tid] : memref<256xf32>
      gpu.return
    }
  }
}
// CHECK-LABEL: gpu.func @scalar_f16
// CHECK-SAME:    memref<2x256x32xf16, #gpu.address_space<workgroup>>
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         scf.for
// CHECK:           memref.load %arg0
// CHECK:           arith.mulf
// CHECK:           gpu.barrier
// CHECK-NEXT:      memref.store
// CHECK-NEXT:      gpu.barrier
// CHECK:         gpu.return

// -----

// The same 2-byte copy inside a nested load loop: cp.async is impossible and
// ldg-register cannot move the stores out of the nested loop.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @nested_scalar_f16(%A: memref<256x128xf16>, %out: memref<256xf32>)
        workgroup(%s: memref<256x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c32 = arith.constant 32 : index
      %c128 = arith.constant 128 : index
      %tid = gpu.thread_id x
      %init = arith.constant 0.0 : f32
      // expected-note @below {{in this K-loop}}
      %r = scf.for %k = %c0 to %c128 step %c32 iter_args(%acc = %init) -> (f32) {
        scf.for %i = %c0 to %c2 step %c1 {
          %gk = arith.addi %k, %i : index
          %v = memref.load %A[%tid, %gk] : memref<256x128xf16>
          // expected-remark @below {{not pipelined: the ldg-register variant moves the shared stores after the compute; this store is inside a nested region}}
          // expected-note @below {{this copy cannot be cp.async}}
          memref.store %v, %s[%tid, %i] : memref<256x32xf16, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %x = memref.load %s[%tid, %c0] : memref<256x32xf16, #gpu.address_space<workgroup>>
        %xf = arith.extf %x : f16 to f32
        %m = arith.mulf %xf, %xf : f32
        %d = arith.addf %m, %acc : f32
        gpu.barrier
        scf.yield %d : f32
      }
      memref.store %r, %out[%tid] : memref<256xf32>
      gpu.return
    }
  }
}
// CHECK-LABEL: gpu.func @nested_scalar_f16
// CHECK-SAME:    workgroup(%{{.*}} : memref<256x32xf16, #gpu.address_space<workgroup>>)

// -----

// Doubling 28 KB crosses the sm_86 cliff at 2 blocks/SM (57344 > 50176):
// variant=auto keeps one buffer and prefetches through registers.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @cliff(%A: memref<448x256xf16>, %out: memref<448xf32>)
        workgroup(%s: memref<448x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>, pk.regs_per_thread = 32 : i64} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-remark @below {{pipelined: variant register-prefetch, 1 shared buffer(s); 2 stages need 57344 bytes of shared memory, above the sm_86 cliff of 50176 bytes for 2 blocks/SM (blocks/SM 3 -> 1): register prefetch keeps one buffer}}
      %r = scf.for %k = %c0 to %c256 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %v = vector.load %A[%tid, %k] : memref<448x256xf16>, vector<8xf16>
        vector.store %v, %s[%tid, %c0] : memref<448x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%tid, %c8] : memref<448x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      %e = vector.extract %r[0] : f32 from vector<8xf32>
      memref.store %e, %out[%tid] : memref<448xf32>
      gpu.return
    }
  }
}
// CHECK-LABEL: gpu.func @cliff
// CHECK-SAME:    workgroup(%{{.*}} : memref<448x32xf16, #gpu.address_space<workgroup>>)
// CHECK:         scf.for
// CHECK:           vector.fma
// CHECK-NEXT:      gpu.barrier
// CHECK-NEXT:      vector.store
// CHECK-NEXT:      gpu.barrier

// -----

// A loop with barriers that does not match the contract is named.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @mismatch(%out: memref<256xf32>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %init = arith.constant 0.0 : f32
      // expected-remark @below {{not pipelined: not a pk K-loop: expected at least 2 gpu.barrier in the K-loop body (after the load phase and after the compute phase), found 1}}
      %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %init) -> (f32) {
        gpu.barrier
        scf.yield %acc : f32
      }
      gpu.return
    }
  }
}
// CHECK-LABEL: gpu.func @mismatch

// -----

// K = 33: rows of 66 bytes are only 2-byte aligned, so no cp.async width is
// provable; auto falls back to ldg-register (masked loads).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @partial_k33(%A: memref<64x33xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %pad = arith.constant 0.0 : f16
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-remark @below {{pipelined: variant ldg-register, 2 shared buffer(s); 2 stages need 8192 bytes of shared memory, within the sm_86 cliff of 50176 bytes for 2 blocks/SM; ratio 1.0 < 5: cp.async preferred (rule low-ratio); cp.async not possible: cp.async copies 4, 8 or 16 bytes: this copy moves 16 bytes with proven alignment 2 (global) / 16 (shared)}}
      %r = scf.for %k = %c0 to %c64 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.transfer_read %A[%row, %gk], %pad {in_bounds = [false]} : memref<64x33xf16>, vector<8xf16>
        // expected-note @below {{this copy cannot be cp.async}}
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
// CHECK-LABEL: gpu.func @partial_k33
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         vector.transfer_read %arg0[{{.*}}], %{{.*}} : memref<64x33xf16>, vector<8xf16>

// -----

// A copied tile read after the loop: which stage holds the last tile depends on the trip count, so pk does not multi-buffer it.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @tile_read_after_loop(%A: memref<64x1024xf16>, %out: memref<64xf32>)
        // expected-note @below {{copied buffer workgroup attribution #0}}
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-note @below {{in this K-loop}}
      %r = scf.for %k = %c0 to %c1024 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x1024xf16>, vector<8xf16>
        vector.store %v, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      // expected-remark @below {{not pipelined: copied buffer workgroup attribution #0 is also accessed here, outside the K-loop; pk multi-buffers tiles used only inside their loop}}
      %last = vector.load %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
      %l0 = vector.extract %last[0] : f16 from vector<8xf16>
      %lf = arith.extf %l0 : f16 to f32
      memref.store %lf, %out[%tid] : memref<64xf32>
      %e = vector.extract %r[0] : f32 from vector<8xf32>
      memref.store %e, %out[%row] : memref<64xf32>
      gpu.return
    }
  }
}
// CHECK-LABEL: gpu.func @tile_read_after_loop
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         gpu.return

// -----

// Part of a copied buffer written before the loop would reach one stage only.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @tile_written_before_loop(%A: memref<64x1024xf16>, %out: memref<64xf32>)
        // expected-note @below {{copied buffer workgroup attribution #0}}
        workgroup(%s: memref<65x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %c64 = arith.constant 64 : index
      %ones = arith.constant dense<1.0> : vector<8xf16>
      // expected-remark @below {{not pipelined: copied buffer workgroup attribution #0 is also accessed here, outside the K-loop; pk multi-buffers tiles used only inside their loop}}
      vector.store %ones, %s[%c64, %c0] : memref<65x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-note @below {{in this K-loop}}
      %r = scf.for %k = %c0 to %c1024 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x1024xf16>, vector<8xf16>
        vector.store %v, %s[%row, %col] : memref<65x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%row, %col] : memref<65x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %y = vector.load %s[%c64, %c0] : memref<65x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xy = arith.mulf %x, %y : vector<8xf16>
        %xf = arith.extf %xy : vector<8xf16> to vector<8xf32>
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
// CHECK-LABEL: gpu.func @tile_written_before_loop
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         gpu.return

// -----

// A loop that already rotates its buffers by the induction variable.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @hand_double_buffered(%A: memref<64x1056xf16>, %out: memref<64xf32>)
        // expected-note @below {{copied buffer workgroup attribution #0}}
        workgroup(%s: memref<2x64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      // hand prologue: tile 0 into s[0]
      %v0 = vector.load %A[%row, %col] : memref<64x1056xf16>, vector<8xf16>
      vector.store %v0, %s[%c0, %row, %col] : memref<2x64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
      gpu.barrier
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-note @below {{in this K-loop}}
      %r = scf.for %t = %c0 to %c32 step %c1 iter_args(%acc = %init) -> (vector<8xf32>) {
        // load tile t+1 into s[(t+1)%2]
        %t1 = arith.addi %t, %c1 : index
        %nb = arith.remui %t1, %c2 : index
        %k1 = arith.muli %t1, %c32 : index
        %gk = arith.addi %k1, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x1056xf16>, vector<8xf16>
        vector.store %v, %s[%nb, %row, %col] : memref<2x64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        // compute tile t from s[t%2]
        %cb = arith.remui %t, %c2 : index
        // expected-remark @below {{not pipelined: this index into copied buffer workgroup attribution #0 depends on the K-loop's induction variable: the loop already rotates its buffers}}
        %x = vector.load %s[%cb, %row, %col] : memref<2x64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
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
// CHECK-LABEL: gpu.func @hand_double_buffered
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         gpu.return

// -----

// A workgroup memref.global also read by another function of the gpu.module.
module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" @sA : memref<64x32xf16, 3>
    func.func @helper(%i: index) -> f16 {
      // expected-remark @below {{not pipelined: copied buffer @sA is also used here, outside the kernel}}
      %g = memref.get_global @sA : memref<64x32xf16, 3>
      %v = memref.load %g[%i, %i] : memref<64x32xf16, 3>
      return %v : f16
    }
    gpu.func @global_shared_with_helper(%A: memref<64x1024xf16>, %out: memref<64xf32>)
        
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %s = memref.get_global @sA : memref<64x32xf16, 3>
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-note @below {{in this K-loop}}
      %r = scf.for %k = %c0 to %c1024 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x1024xf16>, vector<8xf16>
        vector.store %v, %s[%row, %col] : memref<64x32xf16, 3>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%row, %col] : memref<64x32xf16, 3>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      %h = func.call @helper(%row) : (index) -> f16
      %hf = arith.extf %h : f16 to f32
      memref.store %hf, %out[%tid] : memref<64xf32>
      %e = vector.extract %r[0] : f32 from vector<8xf32>
      memref.store %e, %out[%row] : memref<64xf32>
      gpu.return
    }
  }
}
// CHECK-LABEL: gpu.func @global_shared_with_helper
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         gpu.return

// -----

// Two K-loops copying into the same tile: neither is multi-buffered.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @two_loops_one_tile(%A: memref<64x1024xf16>, %out: memref<64xf32>)
        // expected-note @below {{copied buffer workgroup attribution #0}}
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-note @below {{in this K-loop}}
      %r = scf.for %k = %c0 to %c1024 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x1024xf16>, vector<8xf16>
        vector.store %v, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        // expected-remark @below {{not pipelined: copied buffer workgroup attribution #0 is also accessed here, outside the K-loop; pk multi-buffers tiles used only inside their loop}}
        %x = vector.load %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      // expected-note @below {{in this K-loop}}
      %r2 = scf.for %k = %c0 to %c1024 step %c32 iter_args(%acc = %r) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x1024xf16>, vector<8xf16>
        vector.store %v, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        // expected-remark @below {{not pipelined: copied buffer workgroup attribution #0 is also accessed here, outside the K-loop; pk multi-buffers tiles used only inside their loop}}
        %x = vector.load %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      %e = vector.extract %r2[0] : f32 from vector<8xf32>
      memref.store %e, %out[%row] : memref<64xf32>
      gpu.return
    }
  }
}
// CHECK-LABEL: gpu.func @two_loops_one_tile
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         gpu.return

// -----

// Every copy sits in a nested loop: no copy in the body carries the cp.async group token, and ldg-register cannot hoist the stores.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @only_nested_copies(%A: memref<64x1024xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c8 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-note @below {{in this K-loop}}
      %r = scf.for %k = %c0 to %c1024 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %c2n = arith.constant 2 : index
        %c1n = arith.constant 1 : index
        scf.for %j = %c0 to %c2n step %c1n {
          %jj = arith.muli %j, %c32 : index
          %r2 = arith.addi %row, %jj : index
          %gk = arith.addi %k, %col : index
          %v = vector.load %A[%r2, %gk] : memref<64x1024xf16>, vector<8xf16>
          // expected-remark @below {{not pipelined: the ldg-register variant moves the shared stores after the compute; this store is inside a nested region; the decision was variant ldg-register with 2 buffer(s): 2 stages need 8192 bytes of shared memory, within the sm_86 cliff of 50176 bytes for 2 blocks/SM; ratio 0.5 < 5: cp.async preferred (rule low-ratio); cp.async not possible: cp.async needs at least one copy directly in the K-loop body (all copies are in nested loops); falling back to ldg-register}}
          vector.store %v, %s[%r2, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
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
// CHECK-LABEL: gpu.func @only_nested_copies
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         gpu.return

// -----

// Sub-byte element types are not supported.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @below {{not pipelined: not a pk K-loop: workgroup attribution #0 has a dynamic shape or elements that are not whole-byte integers or floats}}
    gpu.func @sub_byte_tile(%A: memref<64x1024xi4>, %out: memref<64xf32>)
        workgroup(%s: memref<64x64xi4, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %c16 = arith.constant 16 : index
      %col = arith.muli %q, %c16 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-note @below {{in this K-loop}}
      %r = scf.for %k = %c0 to %c1024 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x1024xi4>, vector<32xi4>
        vector.store %v, %s[%row, %col] : memref<64x64xi4, #gpu.address_space<workgroup>>, vector<32xi4>
        gpu.barrier
        %x = vector.load %s[%row, %col] : memref<64x64xi4, #gpu.address_space<workgroup>>, vector<32xi4>
        %xs = vector.extract_strided_slice %x {offsets = [0], sizes = [8], strides = [1]} : vector<32xi4> to vector<8xi4>
        %xf = arith.sitofp %xs : vector<8xi4> to vector<8xf32>
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
// CHECK-LABEL: gpu.func @sub_byte_tile
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         gpu.return

// -----

// Unsigned loop bounds are not supported.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @unsigned_loop(%A: memref<64x1024xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %c0i = arith.constant 0 : i32
      %c1024i = arith.constant 1024 : i32
      %c32i = arith.constant 32 : i32
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-remark @below {{not a pk K-loop: unsigned loop bounds are not supported}}
      %r = scf.for unsigned %ki = %c0i to %c1024i step %c32i iter_args(%acc = %init) -> (vector<8xf32>) : i32 {
        %k = arith.index_cast %ki : i32 to index
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x1024xf16>, vector<8xf16>
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
// CHECK-LABEL: gpu.func @unsigned_loop
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         gpu.return

// -----

// An iter_arg yielded unchanged is not an accumulator.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @passthrough_iter_arg(%A: memref<64x1024xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-note @below {{in this K-loop}}
      %r:2 = scf.for %k = %c0 to %c1024 step %c32 iter_args(%acc = %init, %pp = %init) -> (vector<8xf32>, vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x1024xf16>, vector<8xf16>
        vector.store %v, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        gpu.barrier
        // expected-remark @below {{not pipelined: not a pk K-loop: accumulator #1 is not computed in the loop body (yielded unchanged or from outside)}}
        scf.yield %d, %pp : vector<8xf32>, vector<8xf32>
      }
      %e = vector.extract %r#0[0] : f32 from vector<8xf32>
      memref.store %e, %out[%row] : memref<64xf32>
      gpu.return
    }
  }
}
// CHECK-LABEL: gpu.func @passthrough_iter_arg
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         gpu.return

// -----

// Dynamic shared memory of unknown size: the budget cannot be computed.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @below {{not pipelined: not a pk K-loop: kernel uses gpu.dynamic_shared_memory of unknown size}}
    gpu.func @foreign_dynamic_smem(%A: memref<64x1024xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x128xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-note @below {{in this K-loop}}
      %r = scf.for %k = %c0 to %c1024 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x1024xf16>, vector<8xf16>
        vector.store %v, %s[%row, %col] : memref<64x128xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%row, %col] : memref<64x128xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      %dyn = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %cz = arith.constant 0 : index
      %cv = memref.view %dyn[%cz][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x8xf32, #gpu.address_space<workgroup>>
      vector.store %r, %cv[%row, %c0] : memref<64x8xf32, #gpu.address_space<workgroup>>, vector<8xf32>
      %e = vector.extract %r[0] : f32 from vector<8xf32>
      memref.store %e, %out[%row] : memref<64xf32>
      gpu.return
    }
  }
}
// CHECK-LABEL: gpu.func @foreign_dynamic_smem
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         gpu.return

// -----

// A K-loop nested in an outer loop, then a second K-loop on another tile:
// pipelining the first puts its epilogue's barrier into the outer loop, which
// must not take the second loop's turn; both are pipelined, and pk leaves its
// own output alone afterwards (pk.pipelined).
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @nested_then_second(%A: memref<64x1024xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>, %s2: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %c2 = arith.constant 2 : index
      %c1 = arith.constant 1 : index
      %ro = scf.for %m = %c0 to %c2 step %c1 iter_args(%o = %init) -> (vector<8xf32>) {
      // expected-remark @below {{pipelined: variant cp-async}}
      %ri = scf.for %k = %c0 to %c1024 step %c32 iter_args(%acc = %o) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x1024xf16>, vector<8xf16>
        vector.store %v, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
        scf.yield %ri : vector<8xf32>
      }
      // expected-remark @below {{pipelined: variant cp-async}}
      %r2 = scf.for %k = %c0 to %c1024 step %c32 iter_args(%acc = %ro) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x1024xf16>, vector<8xf16>
        vector.store %v, %s2[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s2[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %xf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      %e = vector.extract %r2[0] : f32 from vector<8xf32>
      memref.store %e, %out[%row] : memref<64xf32>
      gpu.return
    }
  }
}
// CHECK-LABEL: gpu.func @nested_then_second
// CHECK-COUNT-2: } {pk.pipelined}


// -----

// A public memref.global tile: pk would replace it by a private,
// multi-buffered global that other modules do not see (and drop an
// initializer), so it declines.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @below {{not pipelined: copied buffer @pub is a public memref.global; pk multi-buffers private, uninitialized globals only}}
    memref.global @pub : memref<128x16xf32, 3>
    gpu.func @public_global(%A: memref<128x256xf32>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %tid = gpu.thread_id x
      %s = memref.get_global @pub : memref<128x16xf32, 3>
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop}}
      %r = scf.for %k = %c0 to %c256 step %c16 iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %s[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        gpu.barrier
        %x = vector.load %s[%tid, %c0] : memref<128x16xf32, 3>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      gpu.return
    }
  }
}

// Issue 12: the limits of the loop's type. The pipelined loop computes
// ub - lb + step - 1 (upstream's epilogue, in the loop's type) and -lb (the
// stage indices): loops where either wraps are declined in every variant
// (lb = INT64_MIN: canonicalized, -lb became an affine-map constant that
// MLIR prints as "- -9223372036854775808" and cannot parse back), the others
// keep their exact trip count.
// LIMITS: near-limit-loops.mlir:18:12: remark: not pipelined: the pipelined loop computes ub - lb + step - 1 = 2147483657, which overflows i32: loop bounds this close to the limits of the type are not supported
// LIMITS: near-limit-loops.mlir:47:12: remark: pipelined: variant
// LIMITS: near-limit-loops.mlir:76:12: remark: not pipelined: the pipelined loop computes ub - lb + step - 1 = 9223372036854775863, which overflows i64
// LIMITS: near-limit-loops.mlir:105:12: remark: not pipelined: the pipelined loop computes ub - lb + step - 1 = 9223372036854775815, which overflows index
// LIMITS: near-limit-loops.mlir:134:12: remark: not pipelined: the pipelined loop computes -lb = 9223372036854775808, which overflows index
// LIMITS: near-limit-loops.mlir:163:12: remark: not pipelined: the pipelined loop computes ub - lb + step - 1 = 4294967295, which overflows i32

// 0 to 2147483520 step 48 (i32) fits: 44739240 tiles, the steady state runs
// to 2147483520 - 3 * 48, the epilogue computes tiles 44739237..44739239
// from stages 1, 2, 3 (tile % 4).
// LIMITS4-LABEL: gpu.func @i32_fits
// LIMITS4:         scf.for %{{.*}} = %{{.*}} to %c2147483376_i32 step %c48_i32
// LIMITS4:         } {pk.pipelined}
// LIMITS4:         nvgpu.device_async_wait %{{.*}} {numGroups = 2 : i32}
// LIMITS4-NEXT:    gpu.barrier
// LIMITS4-NEXT:    vector.load %{{.*}}[%c1,
// LIMITS4:         nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// LIMITS4-NEXT:    gpu.barrier
// LIMITS4-NEXT:    vector.load %{{.*}}[%c2,
// LIMITS4:         nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// LIMITS4-NEXT:    gpu.barrier
// LIMITS4-NEXT:    vector.load %{{.*}}[%c3,
// LIMITS4-LABEL: gpu.func @i64_wraps
// LIMITS4-NOT:     pk.pipelined
// LIMITS4-LABEL: gpu.func @index_min_lb
// LIMITS4-NOT:     pk.pipelined
// LIMITS4-NOT:     nvgpu.device_async_copy
// LIMITS4:         gpu.return

// -----

// Issue 12: two copies of one tile store to the same shared element (program
// order: the second wins). As cp.async copies of one group they would be
// unordered: cp.async is declined, ldg-register keeps the stores in order.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @same_element(%A: memref<64x1024xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-remark @below {{cp.async not possible: cp.async copies of one tile are unordered: pk cannot prove that this shared store and another write disjoint elements; falling back to ldg-register}}
      %r = scf.for %k = %c0 to %c1024 step %c64 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x1024xf16>, vector<8xf16>
        // expected-note @below {{the other shared store}}
        vector.store %v, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %gk2 = arith.addi %gk, %c32 : index
        %w = vector.load %A[%row, %gk2] : memref<64x1024xf16>, vector<8xf16>
        // expected-note @below {{this copy cannot be cp.async}}
        vector.store %w, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
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
// CHECK-LABEL: gpu.func @same_element
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         scf.for
// CHECK:           %[[V:.*]] = vector.load %arg0
// CHECK:           %[[W:.*]] = vector.load %arg0
// CHECK:           vector.store %[[V]], %{{.*}}[%{{.*}}, %[[ROW:.*]], %[[COL:.*]]]
// CHECK-NEXT:      vector.store %[[W]], %{{.*}}[%{{.*}}, %[[ROW]], %[[COL]]]
// CHECK:         } {pk.pipelined}

// -----

// The second copy overlaps half of the first (8 elements at +4): declined.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @partial_overlap(%A: memref<64x1024xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %colp4 = arith.addi %col, %c4 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-remark @below {{cp.async not possible: cp.async copies of one tile are unordered: pk cannot prove that this shared store and another write disjoint elements; falling back to ldg-register}}
      %r = scf.for %k = %c0 to %c1024 step %c64 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x1024xf16>, vector<8xf16>
        // expected-note @below {{the other shared store}}
        vector.store %v, %s[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %gk2 = arith.addi %gk, %c32 : index
        %w = vector.load %A[%row, %gk2] : memref<64x1024xf16>, vector<8xf16>
        // expected-note @below {{this copy cannot be cp.async}}
        vector.store %w, %s[%row, %colp4] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
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

// 64 rows apart in a 128-row buffer: provably disjoint, cp-async.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @disjoint_rows(%A: memref<64x1024xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<128x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %c1024 = arith.constant 1024 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %row64 = arith.addi %row, %c64 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      // expected-remark @below {{pipelined: variant cp-async}}
      %r = scf.for %k = %c0 to %c1024 step %c64 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x1024xf16>, vector<8xf16>
        vector.store %v, %s[%row, %col] : memref<128x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %gk2 = arith.addi %gk, %c32 : index
        %w = vector.load %A[%row, %gk2] : memref<64x1024xf16>, vector<8xf16>
        vector.store %w, %s[%row64, %col] : memref<128x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%row, %col] : memref<128x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
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
// CHECK-LABEL: gpu.func @disjoint_rows
// CHECK-COUNT-2: nvgpu.device_async_copy
// CHECK:         nvgpu.device_async_create_group

// -----

// Issue 12: a shared tile whose size overflows int64 (2^62 x 4 x 4 bytes)
// is rejected instead of counting as 0 bytes.
module attributes {gpu.container_module} {
  gpu.module @m {
    // expected-remark @below {{not pipelined: not a pk K-loop: workgroup attribution #0 memref<4611686018427387904x4xf32, #gpu.address_space<workgroup>> needs more than 2^63 bytes, above pk's limit of 4294967296 bytes for one shared buffer}}
    gpu.func @huge_tile(%A: memref<64x128xf32>, %out: memref<64xf32>)
        workgroup(%s: memref<4611686018427387904x4xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c128 = arith.constant 128 : index
      %row = gpu.thread_id x
      %init = arith.constant dense<0.0> : vector<4xf32>
      // expected-note @below {{in this K-loop}}
      %r = scf.for %k = %c0 to %c128 step %c4 iter_args(%acc = %init) -> (vector<4xf32>) {
        %v = vector.load %A[%row, %k] : memref<64x128xf32>, vector<4xf32>
        vector.store %v, %s[%row, %c0] : memref<4611686018427387904x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %x = vector.load %s[%row, %c0] : memref<4611686018427387904x4xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      %e = vector.extract %r[0] : f32 from vector<4xf32>
      memref.store %e, %out[%row] : memref<64xf32>
      gpu.return
    }
  }
}

// -----

// wgmma: a stage of 68 rows of 128 bytes (8704 bytes) would put the next
// stage of the 128B-swizzled operand off its 1024-byte alignment.
!tmA = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>
!dA = !nvgpu.warpgroup.descriptor<tensor = memref<64x64xf16, 3>>
!acc = !nvgpu.warpgroup.accumulator<fragmented = vector<64x64xf32>>
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @wgmma_odd_stage(%A: memref<64x512xf16>)
        // expected-remark @below {{not pipelined: one stage of workgroup attribution #0 is 8704 bytes, not a multiple of 1024: the stages of a wgmma operand would not stay 1024-byte aligned for the 128B swizzle}}
        workgroup(%sA: memref<68x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c64 = arith.constant 64 : index
      %c512 = arith.constant 512 : index
      %tid = gpu.thread_id x
      %null = llvm.mlir.zero : !llvm.ptr
      %tm = builtin.unrealized_conversion_cast %null : !llvm.ptr to !tmA
      %acc0 = nvgpu.warpgroup.mma.init.accumulator -> !acc
      // expected-note @below {{in this K-loop}}
      %r = scf.for %k = %c0 to %c512 step %c64 iter_args(%acc = %acc0) -> (!acc) {
        %v = vector.load %A[%c0, %k] : memref<64x512xf16>, vector<8xf16>
        vector.store %v, %sA[%tid, %c0] : memref<68x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
        gpu.barrier
        %dA = nvgpu.warpgroup.generate.descriptor %sA, %tm : memref<68x64xf16, #gpu.address_space<workgroup>>, !tmA -> !dA
        %d = nvgpu.warpgroup.mma %dA, %dA, %acc {transposeB, waitGroup = 0 : i64} : !dA, !dA, !acc -> !acc
        gpu.barrier
        scf.yield %d : !acc
      }
      gpu.return
    }
  }
}

// -----

// A constant step that is not positive (0: the loop never ends; negative:
// it never starts) is declined before any change, with the reason (issue 26:
// it used to end in "pk failed after changing the IR").
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @step_zero(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %step = arith.constant 0 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-remark @below {{not pipelined: the loop's step is the constant 0: pk pipelines loops with a positive step}}
      %r = scf.for %k = %c0 to %c256 step %step iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      vector.store %r, %A[%tid, %c0] : memref<128x256xf32>, vector<4xf32>
      gpu.return
    }
    gpu.func @step_negative(%A: memref<128x256xf32>) workgroup(%sA: memref<128x16xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c256 = arith.constant 256 : index
      %step = arith.constant -16 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<4xf32>
      // expected-remark @below {{not pipelined: the loop's step is the constant -16: pk pipelines loops with a positive step}}
      %r = scf.for %k = %c0 to %c256 step %step iter_args(%acc = %zero) -> (vector<4xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x256xf32>, vector<4xf32>
        vector.store %a, %sA[%tid, %c0] : memref<128x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
        %d = vector.fma %x, %x, %acc : vector<4xf32>
        gpu.barrier
        scf.yield %d : vector<4xf32>
      }
      vector.store %r, %A[%tid, %c0] : memref<128x256xf32>, vector<4xf32>
      gpu.return
    }
  }
}
// CHECK-LABEL: gpu.func @step_zero
// CHECK-SAME:    memref<128x16xf32, #gpu.address_space<workgroup>>
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK:         scf.for
// CHECK-NOT:     pk.pipelined
// CHECK-LABEL: gpu.func @step_negative
// CHECK-SAME:    memref<128x16xf32, #gpu.address_space<workgroup>>
// CHECK-NOT:     nvgpu.device_async_copy
// CHECK-NOT:     pk.pipelined
// CHECK:         gpu.return

