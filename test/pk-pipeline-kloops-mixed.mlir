// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops=arch=sm_90 --canonicalize --cse | FileCheck %s
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops='arch=sm_90 stages=3' --canonicalize --cse | FileCheck %s --check-prefix=MS3
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops='arch=sm_90 schedule=two-stage' --canonicalize --cse | FileCheck %s --check-prefix=TWO
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops='arch=sm_90 report=-' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Per-copy variants (rule per-copy): the int8 weights are dequantized on
// their way into shared memory, which cp.async cannot do, so the copies into
// their buffer keep the register path; the activations' copies are cp.async.
// The register-path load is issued with the tile's cp.async copies and its
// shared store follows the compute, into the stage the barrier above freed.
// CHECK-LABEL: gpu.func @dequant_in_load
// CHECK:       nvgpu.device_async_copy %arg0
// CHECK:       %[[B0:.*]] = vector.load %arg1
// CHECK-NEXT:  %[[BF0:.*]] = arith.sitofp %[[B0]]
// CHECK-NEXT:  nvgpu.device_async_create_group
// CHECK-NEXT:  vector.store %[[BF0]], %arg4[%c0,
// CHECK:       scf.for
// CHECK-NEXT:    nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK-NEXT:    gpu.barrier
// CHECK:         %[[NEXT:.*]] = arith.remui
// CHECK-NEXT:    nvgpu.device_async_copy %arg0[%{{.*}}], %arg3[%[[NEXT]],
// CHECK:         %[[B:.*]] = vector.load %arg1
// CHECK-NEXT:    %[[BF:.*]] = arith.sitofp %[[B]]
// CHECK-NEXT:    nvgpu.device_async_create_group
// CHECK:         vector.fma
// CHECK-NEXT:    vector.store %[[BF]], %arg4[%[[NEXT]],
// CHECK-NEXT:    scf.yield
// CHECK-NOT:   vector.store %{{.*}}, %arg3
// CHECK:       gpu.return

// Three stages: the loads run two tiles ahead; each iteration's stores
// refill the stage of the tile computed in the previous iteration.
// MS3-LABEL: gpu.func @dequant_in_load
// MS3:       scf.for
// MS3-NEXT:    nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// MS3-NEXT:    gpu.barrier
// MS3-NEXT:    %[[AHEAD:.*]] = arith.addi %{{.*}}, %c64
// MS3-NEXT:    %[[T:.*]] = arith.divui %[[AHEAD]], %c32
// MS3-NEXT:    %[[NEXT:.*]] = arith.remui %[[T]], %c3
// MS3:         %[[BF:.*]] = arith.sitofp
// MS3:         vector.fma
// MS3-NEXT:    vector.store %[[BF]], %arg4[%[[NEXT]],
// MS3-NEXT:    scf.yield

// Two-stage order: the stores follow the compute, before the wait and the
// barrier that end the iteration.
// TWO-LABEL: gpu.func @dequant_in_load
// TWO:       scf.for
// TWO:         %[[BF:.*]] = arith.sitofp
// TWO:         vector.fma
// TWO-NEXT:    vector.store %[[BF]], %arg4[
// TWO-NEXT:    nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// TWO-NEXT:    gpu.barrier
// TWO-NEXT:    scf.yield

// REMARK:      pk-pipeline-kloops-mixed.mlir:[[#@LINE+18]]:{{[0-9]+}}: remark: pipelined: variant cp-async, 2 shared buffer(s); {{.*}}per-copy variants: the copies into workgroup attribution #1 keep the register path (global loads issued with the tile's cp.async copies, shared stores after the compute) because cp.async needs the shared store to write the loaded value or one element of it unchanged; the other copies are cp.async (rule per-copy)
// REMARK:      pk-pipeline-kloops-mixed.mlir:[[#@LINE+23]]:{{[0-9]+}}: note: this copy cannot be cp.async
// REMARK:      "register_path_stores":1,"schedule":"multistage","stages":2,"variant":"cp-async"
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @dequant_in_load(%A: memref<128x4096xf16>, %B: memref<4096x64xi8>, %out: memref<128x64xf32>)
        workgroup(%sA: memref<128x32xf16, #gpu.address_space<workgroup>>,
                  %sB: memref<32x64xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c4096 = arith.constant 4096 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c8 : index
      %col8 = arith.remui %tid, %c8 : index
      %col = arith.muli %col8, %c8 : index
      %zero = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c4096 step %c32 iter_args(%acc = %zero) -> (vector<8xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x4096xf16>, vector<32xf16>
        vector.store %a, %sA[%tid, %c0] : memref<128x32xf16, #gpu.address_space<workgroup>>, vector<32xf16>
        %kr = arith.addi %k, %row : index
        %b = vector.load %B[%kr, %col] : memref<4096x64xi8>, vector<8xi8>
        %bf = arith.sitofp %b : vector<8xi8> to vector<8xf16>
        vector.store %bf, %sB[%row, %col] : memref<32x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %y = vector.load %sB[%row, %col] : memref<32x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %yf = arith.extf %y : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %yf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      vector.store %r, %out[%row, %col] : memref<128x64xf32>, vector<8xf32>
      gpu.return
    }
  }
}

// -----

// An implicit-GEMM convolution whose input rows are selected against the
// padding (load + arith.select, a halo row reads zeros): the input keeps the
// register path, the filter's copies are cp.async.
// CHECK-LABEL: gpu.func @conv_select_padding
// CHECK:       scf.for
// CHECK:         nvgpu.device_async_copy %arg1
// CHECK:         %[[V:.*]] = vector.load %arg0
// CHECK-NEXT:    %[[SEL:.*]] = arith.select %{{.*}}, %[[V]], %{{.*}} : vector<8xf16>
// CHECK:         vector.fma
// CHECK-NEXT:    vector.store %[[SEL]], %arg3[
// CHECK-NEXT:    scf.yield
// REMARK:      remark: pipelined: variant cp-async, 2 shared buffer(s); {{.*}}per-copy variants: the copies into workgroup attribution #0 keep the register path {{.*}} because cp.async needs the shared store to write the loaded value or one element of it unchanged
// REMARK:      "register_path_stores":1
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @conv_select_padding(%In: memref<66x64xf16>, %F: memref<192x64xf16>, %out: memref<64x64xf32>)
        workgroup(%sI: memref<64x64xf16, #gpu.address_space<workgroup>>,
                  %sF: memref<64x64xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 512, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c64 = arith.constant 64 : index
      %c65 = arith.constant 65 : index
      %c192 = arith.constant 192 : index
      %zeros = arith.constant dense<0.0> : vector<8xf16>
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c8 : index
      %q = arith.remui %tid, %c8 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c192 step %c64 iter_args(%acc = %init) -> (vector<8xf32>) {
        // Filter tap k/64: rows k .. k+63.
        %fr = arith.addi %k, %row : index
        %f = vector.load %F[%fr, %col] : memref<192x64xf16>, vector<8xf16>
        vector.store %f, %sF[%row, %col] : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        // Input row row + tap, row 0 and 65 are the zero padding.
        %tap = arith.divui %k, %c64 : index
        %ir = arith.addi %row, %tap : index
        %ge = arith.cmpi sge, %ir, %c1 : index
        %lt = arith.cmpi slt, %ir, %c65 : index
        %valid = arith.andi %ge, %lt : i1
        %v = vector.load %In[%ir, %col] : memref<66x64xf16>, vector<8xf16>
        %sel = arith.select %valid, %v, %zeros : vector<8xf16>
        vector.store %sel, %sI[%row, %col] : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %sI[%row, %col] : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %y = vector.load %sF[%row, %col] : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %yf = arith.extf %y : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %yf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      vector.store %r, %out[%row, %col] : memref<64x64xf32>, vector<8xf32>
      gpu.return
    }
  }
}

// -----

// No per-copy variants when a register-path store lies in a nested loop
// (the schedule moves the stores after the compute): the loop falls back to
// ldg-register as a whole, which needs the same, and is not pipelined.
// CHECK-LABEL: gpu.func @register_store_nested
// CHECK-NOT:   nvgpu.device_async_copy
// CHECK-NOT:   pk.pipelined
// CHECK:       gpu.return
// REMARK:      remark: not pipelined: the ldg-register variant moves the shared stores after the compute; this store is inside a nested region; the decision was variant ldg-register {{.*}}cp.async not possible: cp.async needs the shared store to write the loaded value or one element of it unchanged; falling back to ldg-register
// REMARK:      note: this copy cannot be cp.async
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @register_store_nested(%A: memref<128x4096xf16>, %B: memref<4096x64xi8>, %out: memref<128x64xf32>)
        workgroup(%sA: memref<128x32xf16, #gpu.address_space<workgroup>>,
                  %sB: memref<32x64xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c4096 = arith.constant 4096 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c8 : index
      %col8 = arith.remui %tid, %c8 : index
      %col = arith.muli %col8, %c8 : index
      %zero = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c4096 step %c32 iter_args(%acc = %zero) -> (vector<8xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x4096xf16>, vector<32xf16>
        vector.store %a, %sA[%tid, %c0] : memref<128x32xf16, #gpu.address_space<workgroup>>, vector<32xf16>
        scf.for %h = %c0 to %c32 step %c16 {
          %br = arith.addi %row, %h : index
          %kr = arith.addi %k, %br : index
          %b = vector.load %B[%kr, %col] : memref<4096x64xi8>, vector<8xi8>
          %bf = arith.sitofp %b : vector<8xi8> to vector<8xf16>
          vector.store %bf, %sB[%br, %col] : memref<32x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        }
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %y = vector.load %sB[%row, %col] : memref<32x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %yf = arith.extf %y : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %yf, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      vector.store %r, %out[%row, %col] : memref<128x64xf32>, vector<8xf32>
      gpu.return
    }
  }
}

// -----

// One load stored unchanged into %sA and converted into %sB, and a second
// load stored over the same elements of %sA: the converted store puts both
// of the first load's buffers on the register path, and with them the second
// copy (no buffer mixes cp.async copies and register-path stores, which
// could race); no cp.async copy remains, so the loop is ldg-register, the
// stores in their order (found by a review: the first load's copy was once
// filed under its last store's buffer only).
// CHECK-LABEL: gpu.func @load_two_buffers
// CHECK-NOT:   nvgpu.device_async_copy
// CHECK:       } {pk.pipelined}
// REMARK:      remark: pipelined: variant ldg-register, 2 shared buffer(s); {{.*}}cp.async not possible: cp.async needs the shared store to write the loaded value or one element of it unchanged; falling back to ldg-register
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @load_two_buffers(%A: memref<128x4096xf16>, %C: memref<128x4096xf16>, %out: memref<128x8xf32>)
        workgroup(%sA: memref<128x8xf16, #gpu.address_space<workgroup>>,
                  %sB: memref<128x8xf32, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c8 = arith.constant 8 : index
      %c4096 = arith.constant 4096 : index
      %tid = gpu.thread_id x
      %zero = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c4096 step %c8 iter_args(%acc = %zero) -> (vector<8xf32>) {
        %a = vector.load %A[%tid, %k] : memref<128x4096xf16>, vector<8xf16>
        vector.store %a, %sA[%tid, %c0] : memref<128x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %af = arith.extf %a : vector<8xf16> to vector<8xf32>
        vector.store %af, %sB[%tid, %c0] : memref<128x8xf32, #gpu.address_space<workgroup>>, vector<8xf32>
        %c = vector.load %C[%tid, %k] : memref<128x4096xf16>, vector<8xf16>
        vector.store %c, %sA[%tid, %c0] : memref<128x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %x = vector.load %sA[%tid, %c0] : memref<128x8xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        %y = vector.load %sB[%tid, %c0] : memref<128x8xf32, #gpu.address_space<workgroup>>, vector<8xf32>
        %xf = arith.extf %x : vector<8xf16> to vector<8xf32>
        %d = vector.fma %xf, %y, %acc : vector<8xf32>
        gpu.barrier
        scf.yield %d : vector<8xf32>
      }
      vector.store %r, %out[%tid, %c0] : memref<128x8xf32>, vector<8xf32>
      gpu.return
    }
  }
}
