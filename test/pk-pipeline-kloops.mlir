// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops=schedule=two-stage --canonicalize --cse | FileCheck %s --check-prefix=CPA
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops --canonicalize --cse | FileCheck %s --check-prefix=MS2
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops=variant=ldg-register --canonicalize --cse | FileCheck %s --check-prefix=LDG
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops=variant=register-prefetch --canonicalize --cse | FileCheck %s --check-prefix=RPF
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops='stages=4' --canonicalize --cse | FileCheck %s --check-prefix=MS4
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops='stages=4' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MS4-REMARK
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops='stages=8 arch=sm_90' --canonicalize --cse | FileCheck %s --check-prefix=DYN
// Without cleanup the transform's output verifies too (mlir-opt-22 parses and
// verifies it again), and every loop is pipelined.
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops 2>/dev/null | mlir-opt -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY --allow-empty
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops=variant=ldg-register 2>/dev/null | mlir-opt -split-input-file -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY --allow-empty
// RUN: pk-opt %s -split-input-file --pk-pipeline-kloops=stages=4 -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALLPIPELINED
// The wgmma, TMA and two-warpgroup kernels (examples/, gen_gemm.py: WGMMA-*,
// TMA*, WS, WS-WRITES, WS-BOUNDS, WS2, WG2-*) are in
// test/e2e/pk-pipeline-kloops.test.
// wgmma (docs/hopper.md) from test/Inputs:
// Static shared memory (2 x 9216 bytes): the attribution keeps its 1024-byte
// alignment, and the descriptor takes the stage's subview.
// RUN: pk-opt %S/Inputs/wgmma-static-stages.mlir --pk-pipeline-kloops='arch=sm_90a variant=ldg-register' --canonicalize --cse 2>&1 | FileCheck %s --check-prefix=WGMMA-STATIC
// WGMMA-STATIC: remark: pipelined: variant ldg-register, 2 shared buffer(s)
// WGMMA-STATIC: workgroup(%[[S:.*]] : memref<2x72x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
// WGMMA-STATIC-NOT: dynamic_shared
// WGMMA-STATIC: %[[V:.*]] = memref.subview %[[S]][%{{.*}}, 0, 0] [1, 72, 64] [1, 1, 1] : memref<2x72x64xf16, #gpu.address_space<workgroup>> to memref<72x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
// WGMMA-STATIC-NEXT: %[[D:.*]] = nvgpu.warpgroup.generate.descriptor %[[V]]
// WGMMA-STATIC-NEXT: nvgpu.warpgroup.mma %[[D]], %[[D]]

// schedule=warp-specialized (docs/hopper.md "Warp specialization") on
// test/upstream/tma and test/Inputs inputs.
// A dynamic trip count (test/upstream/tma's kloop_tma_dyn_trip): no tile is
// peeled, so the loop is not versioned; both roles loop to the same bound.
// RUN: pk-opt %S/upstream/tma/mutants/kloop_tma_dyn_trip.mlir --pk-pipeline-kloops='arch=sm_90a variant=tma schedule=warp-specialized stages=3' --canonicalize --cse 2>&1 | FileCheck %s --check-prefix=WS-DYN
// WS-DYN: remark: pipelined: variant tma, 3 shared buffer(s), schedule warp-specialized
// WS-DYN: gpu.func @{{.*}}(%{{.*}}, %[[K:[a-z0-9]+]]: index)
// WS-DYN-NOT: arith.cmpi sge
// WS-DYN: scf.if
// WS-DYN: scf.for %{{.*}} = %c0 to %[[K]] step %c64 iter_args
// WS-DYN: } else {
// WS-DYN: scf.for %{{.*}} = %c0 to %[[K]] step %c64 {

// The kernel's launch in the module grows with it (test/Inputs/tma-launch.mlir).
// RUN: sed 's/BLOCK_X/%%c128/' %S/Inputs/tma-launch.mlir | pk-opt --pk-pipeline-kloops='arch=sm_90a variant=tma schedule=warp-specialized stages=2' 2>&1 | FileCheck %s --check-prefix=WS-LAUNCH
// WS-LAUNCH: remark: pipelined: variant tma, 2 shared buffer(s), schedule warp-specialized
// WS-LAUNCH: func.func @host
// WS-LAUNCH: %[[C256:.*]] = arith.constant 256 : index
// WS-LAUNCH-NEXT: gpu.launch_func @hgemm_wgmma_tma_f16_128x128x64::@hgemm_wgmma_tma_f16_128x128x64 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%[[C256]], %{{.*}}, %{{.*}})

// VERIFY-NOT: error
// ALLPIPELINED-NOT: not pipelined
// ALLPIPELINED: remark: pipelined

// Trip count 3 with stages=4 needs only 3 buffers.
// MS4-REMARK: remark: pipelined: variant cp-async, 3 shared buffer(s); trip count 3 < stages=4: 3 buffers; 3 stages need 12288 bytes

// Workgroup attribution, trip count 3 (k = 16, 48, 80: a non-zero lower
// bound), one 16-byte copy per thread, vector.fma compute. The steady-state
// loop runs tiles 0 and 1 (k = 16, 48), the epilogue computes tile 2 from
// buf[(3 - 1) % 2] = buf[0].
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @attr_trip3(%A: memref<64x128xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c112 = arith.constant 112 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c16 to %c112 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x128xf16>, vector<8xf16>
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

// CPA-LABEL: gpu.func @attr_trip3
// CPA-SAME:    workgroup(%[[S:.*]] : memref<2x64x32xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CPA-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CPA-DAG:     %[[C2:.*]] = arith.constant 2 : index
// CPA-DAG:     %[[C16:.*]] = arith.constant 16 : index
// CPA-DAG:     %[[C32:.*]] = arith.constant 32 : index
// CPA-DAG:     %[[C80:.*]] = arith.constant 80 : index
// Prologue: tile 0 (k = 16) into buf[0], committed, waited, barrier.
// CPA:         %[[K0:.*]] = arith.addi %[[COL:.*]], %[[C16]] : index
// CPA-NEXT:    %[[T0:.*]] = nvgpu.device_async_copy %arg0[%[[ROW:.*]], %[[K0]]], %[[S]][%[[C0]], %[[ROW]], %[[COL]]], 8 {bypassL1}
// CPA-NEXT:    %[[G0:.*]] = nvgpu.device_async_create_group %[[T0]]
// CPA-NEXT:    nvgpu.device_async_wait %[[G0]] {numGroups = 0 : i32}
// CPA-NEXT:    gpu.barrier
// Kernel: two iterations (k = 16, 48): copy tile t+1 into buf[(t+1)%2],
// commit, compute buf[t%2], wait, barrier.
// CPA-NEXT:    %[[R:.*]] = scf.for %[[K:.*]] = %[[C16]] to %[[C80]] step %[[C32]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<8xf32>) {
// CPA-NEXT:      %[[N1:.*]] = arith.addi %[[K]], %[[C16]] : index
// CPA-NEXT:      %[[N2:.*]] = arith.divui %[[N1]], %[[C32]] : index
// CPA-NEXT:      %[[NEXT:.*]] = arith.remui %[[N2]], %[[C2]] : index
// CPA-NEXT:      %[[KN:.*]] = arith.addi %[[K]], %[[C32]] : index
// CPA-NEXT:      %[[GK:.*]] = arith.addi %[[KN]], %[[COL]] : index
// CPA-NEXT:      %[[T:.*]] = nvgpu.device_async_copy %arg0[%[[ROW]], %[[GK]]], %[[S]][%[[NEXT]], %[[ROW]], %[[COL]]], 8 {bypassL1}
// CPA-NEXT:      %[[G:.*]] = nvgpu.device_async_create_group %[[T]]
// CPA-NEXT:      %[[C1:.*]] = arith.subi %[[K]], %[[C16]] : index
// CPA-NEXT:      %[[C2_:.*]] = arith.divui %[[C1]], %[[C32]] : index
// CPA-NEXT:      %[[CUR:.*]] = arith.remui %[[C2_]], %[[C2]] : index
// CPA-NEXT:      %[[X:.*]] = vector.load %[[S]][%[[CUR]], %[[ROW]], %[[COL]]]
// CPA-NEXT:      %[[XF:.*]] = arith.extf %[[X]]
// CPA-NEXT:      %[[D:.*]] = vector.fma %[[XF]], %[[XF]], %[[ACC]]
// CPA-NEXT:      nvgpu.device_async_wait %[[G]] {numGroups = 0 : i32}
// CPA-NEXT:      gpu.barrier
// CPA-NEXT:      scf.yield %[[D]] : vector<8xf32>
// CPA-NEXT:    }
// Epilogue: tile 2 from buf[0], then the original trailing barrier.
// CPA-NEXT:    %[[EX:.*]] = vector.load %[[S]][%[[C0]], %[[ROW]], %[[COL]]]
// CPA-NEXT:    %[[EXF:.*]] = arith.extf %[[EX]]
// CPA-NEXT:    %[[ED:.*]] = vector.fma %[[EXF]], %[[EXF]], %[[R]]
// CPA-NEXT:    gpu.barrier
// CPA-NEXT:    vector.extract %[[ED]][0]
// CPA-NOT:     nvgpu.device_async_copy
// CPA:         gpu.return

// LDG-LABEL: gpu.func @attr_trip3
// LDG-SAME:    workgroup(%[[S:.*]] : memref<2x64x32xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// LDG-DAG:     %[[C0:.*]] = arith.constant 0 : index
// LDG-DAG:     %[[C2:.*]] = arith.constant 2 : index
// LDG-DAG:     %[[C16:.*]] = arith.constant 16 : index
// LDG-DAG:     %[[C32:.*]] = arith.constant 32 : index
// LDG-DAG:     %[[C80:.*]] = arith.constant 80 : index
// Prologue: tile 0 through registers into buf[0].
// LDG:         %[[K0:.*]] = arith.addi %[[COL:.*]], %[[C16]] : index
// LDG-NEXT:    %[[V0:.*]] = vector.load %arg0[%[[ROW:.*]], %[[K0]]] : memref<64x128xf16>, vector<8xf16>
// LDG-NEXT:    vector.store %[[V0]], %[[S]][%[[C0]], %[[ROW]], %[[COL]]]
// LDG-NEXT:    gpu.barrier
// Kernel: LDG tile t+1 into registers, compute buf[t%2], barrier, STS into
// buf[(t+1)%2], barrier.
// LDG-NEXT:    %[[R:.*]] = scf.for %[[K:.*]] = %[[C16]] to %[[C80]] step %[[C32]] iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<8xf32>) {
// LDG-NEXT:      %[[N1:.*]] = arith.addi %[[K]], %[[C16]] : index
// LDG-NEXT:      %[[N2:.*]] = arith.divui %[[N1]], %[[C32]] : index
// LDG-NEXT:      %[[NEXT:.*]] = arith.remui %[[N2]], %[[C2]] : index
// LDG-NEXT:      %[[KN:.*]] = arith.addi %[[K]], %[[C32]] : index
// LDG-NEXT:      %[[GK:.*]] = arith.addi %[[KN]], %[[COL]] : index
// LDG-NEXT:      %[[V:.*]] = vector.load %arg0[%[[ROW]], %[[GK]]] : memref<64x128xf16>, vector<8xf16>
// LDG-NEXT:      %[[C1:.*]] = arith.subi %[[K]], %[[C16]] : index
// LDG-NEXT:      %[[C2_:.*]] = arith.divui %[[C1]], %[[C32]] : index
// LDG-NEXT:      %[[CUR:.*]] = arith.remui %[[C2_]], %[[C2]] : index
// LDG-NEXT:      %[[X:.*]] = vector.load %[[S]][%[[CUR]], %[[ROW]], %[[COL]]]
// LDG-NEXT:      %[[XF:.*]] = arith.extf %[[X]]
// LDG-NEXT:      %[[D:.*]] = vector.fma %[[XF]], %[[XF]], %[[ACC]]
// LDG-NEXT:      gpu.barrier
// LDG-NEXT:      vector.store %[[V]], %[[S]][%[[NEXT]], %[[ROW]], %[[COL]]]
// LDG-NEXT:      gpu.barrier
// LDG-NEXT:      scf.yield %[[D]] : vector<8xf32>
// LDG-NEXT:    }
// Epilogue: tile 2 from buf[0], barrier.
// LDG-NEXT:    %[[EX:.*]] = vector.load %[[S]][%[[C0]], %[[ROW]], %[[COL]]]
// LDG-NEXT:    %[[EXF:.*]] = arith.extf %[[EX]]
// LDG-NEXT:    %[[ED:.*]] = vector.fma %[[EXF]], %[[EXF]], %[[R]]
// LDG-NEXT:    gpu.barrier
// LDG-NEXT:    vector.extract %[[ED]][0]

// The default order (schedule=auto = multistage) at 2 stages: the prologue
// only commits tile 0; each iteration waits for it, synchronizes, issues tile
// t+1 into buf[(t+1)%2], then computes buf[t%2]: one barrier per iteration.
// MS2-LABEL: gpu.func @attr_trip3
// MS2-DAG:     %[[C0:.*]] = arith.constant 0 : index
// MS2-DAG:     %[[C80:.*]] = arith.constant 80 : index
// MS2:         %[[T0:.*]] = nvgpu.device_async_copy %arg0[{{.*}}], %{{.*}}[%[[C0]], {{.*}}], 8 {bypassL1}
// MS2-NEXT:    %[[G0:.*]] = nvgpu.device_async_create_group %[[T0]]
// MS2-NEXT:    %[[R:.*]]:2 = scf.for %[[K:.*]] = %{{.*}} to %[[C80]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[TOK:.*]] = %[[G0]])
// MS2-NEXT:      nvgpu.device_async_wait %[[TOK]] {numGroups = 0 : i32}
// MS2-NEXT:      gpu.barrier
// MS2:           %[[T:.*]] = nvgpu.device_async_copy
// MS2-NEXT:      %[[G:.*]] = nvgpu.device_async_create_group %[[T]]
// MS2:           vector.fma
// MS2-NEXT:      scf.yield %{{.*}}, %[[G]]
// MS2-NEXT:    }
// MS2-NEXT:    nvgpu.device_async_wait %[[R]]#1 {numGroups = 0 : i32}
// MS2-NEXT:    gpu.barrier
// MS2-NEXT:    vector.load %{{.*}}[%[[C0]],
// MS2-NEXT:    arith.extf
// MS2-NEXT:    vector.fma
// MS2-NEXT:    gpu.barrier

// Register prefetch keeps the single buffer: registers carry tile t+1 across
// the compute of tile t.
// RPF-LABEL: gpu.func @attr_trip3
// RPF-SAME:    workgroup(%[[S:.*]] : memref<64x32xf16, #gpu.address_space<workgroup>>)
// RPF:         %[[V0:.*]] = vector.load %arg0
// RPF-NEXT:    vector.store %[[V0]], %[[S]][%[[ROW:.*]], %[[COL:.*]]] : memref<64x32xf16
// RPF-NEXT:    gpu.barrier
// RPF-NEXT:    %[[R:.*]] = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (vector<8xf32>) {
// RPF-NEXT:      arith.addi %[[K]]
// RPF-NEXT:      %[[GK:.*]] = arith.addi
// RPF-NEXT:      %[[V:.*]] = vector.load %arg0[%[[ROW]], %[[GK]]]
// RPF-NEXT:      %[[X:.*]] = vector.load %[[S]][%[[ROW]], %[[COL]]]
// RPF-NEXT:      arith.extf %[[X]]
// RPF-NEXT:      %[[D:.*]] = vector.fma
// RPF-NEXT:      gpu.barrier
// RPF-NEXT:      vector.store %[[V]], %[[S]][%[[ROW]], %[[COL]]]
// RPF-NEXT:      gpu.barrier
// RPF-NEXT:      scf.yield %[[D]]
// RPF-NEXT:    }
// RPF-NEXT:    vector.load %[[S]][%[[ROW]], %[[COL]]]
// RPF-NEXT:    arith.extf
// RPF-NEXT:    vector.fma
// RPF-NEXT:    gpu.barrier

// -----

// memref.global in workgroup memory, trip count 2 (the smallest pipelinable):
// the steady-state loop runs once, the epilogue computes buf[1]. The global is
// replaced by a private multi-buffered one; the original, now unused, is
// erased.
module attributes {gpu.container_module} {
  gpu.module @m {
    memref.global "private" @tile : memref<64x32xf16, 3>
    gpu.func @global_trip2(%A: memref<64x64xf16>, %out: memref<64xf32>)
        kernel attributes {nvvm.maxntid = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c32 = arith.constant 32 : index
      %c64 = arith.constant 64 : index
      %s = memref.get_global @tile : memref<64x32xf16, 3>
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c0 to %c64 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.load %A[%row, %gk] : memref<64x64xf16>, vector<8xf16>
        vector.store %v, %s[%row, %col] : memref<64x32xf16, 3>, vector<8xf16>
        gpu.barrier
        %x = vector.load %s[%row, %col] : memref<64x32xf16, 3>, vector<8xf16>
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

// CPA-NOT:     memref.global "private" @tile :
// CPA:         memref.global "private" @tile_pk2stages : memref<2x64x32xf16, 3> = uninitialized {alignment = 16 : i64}
// CPA-NOT:     memref.global "private" @tile :
// CPA-LABEL:   gpu.func @global_trip2
// The single steady-state iteration is inlined by canonicalize: prologue
// (tile 0 -> buf[0]), iteration 0 (tile 1 -> buf[1], compute buf[0], wait,
// barrier), epilogue (compute buf[1], barrier).
// CPA-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CPA-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CPA:         %[[S:.*]] = memref.get_global @tile_pk2stages : memref<2x64x32xf16, 3>
// CPA:         %[[T0:.*]] = nvgpu.device_async_copy %arg0[%[[ROW:.*]], %[[COL:.*]]], %[[S]][%[[C0]], %[[ROW]], %[[COL]]], 8 {bypassL1}
// CPA-NEXT:    %[[G0:.*]] = nvgpu.device_async_create_group %[[T0]]
// CPA-NEXT:    nvgpu.device_async_wait %[[G0]] {numGroups = 0 : i32}
// CPA-NEXT:    gpu.barrier
// CPA-NEXT:    %[[K1:.*]] = arith.addi %[[COL]], %{{.*}} : index
// CPA-NEXT:    %[[T1:.*]] = nvgpu.device_async_copy %arg0[%[[ROW]], %[[K1]]], %[[S]][%[[C1]], %[[ROW]], %[[COL]]], 8 {bypassL1}
// CPA-NEXT:    %[[G1:.*]] = nvgpu.device_async_create_group %[[T1]]
// CPA-NEXT:    vector.load %[[S]][%[[C0]], %[[ROW]], %[[COL]]]
// CPA-NEXT:    arith.extf
// CPA-NEXT:    vector.fma
// CPA-NEXT:    nvgpu.device_async_wait %[[G1]] {numGroups = 0 : i32}
// CPA-NEXT:    gpu.barrier
// CPA-NEXT:    vector.load %[[S]][%[[C1]], %[[ROW]], %[[COL]]]
// CPA-NEXT:    arith.extf
// CPA-NEXT:    vector.fma
// CPA-NEXT:    gpu.barrier

// LDG:         memref.global "private" @tile_pk2stages : memref<2x64x32xf16, 3> = uninitialized {alignment = 16 : i64}
// LDG-LABEL:   gpu.func @global_trip2
// LDG:         %[[S:.*]] = memref.get_global @tile_pk2stages
// LDG:         vector.store %{{.*}}, %[[S]][%[[C0:.*]], %{{.*}}, %{{.*}}]
// LDG-NEXT:    gpu.barrier
// LDG:         %[[V1:.*]] = vector.load %arg0
// LDG-NEXT:    vector.load %[[S]][%[[C0]],
// LDG-NEXT:    arith.extf
// LDG-NEXT:    vector.fma
// LDG-NEXT:    gpu.barrier
// LDG-NEXT:    vector.store %[[V1]], %[[S]][%[[C1:.*]], %{{.*}}, %{{.*}}]
// LDG-NEXT:    gpu.barrier
// LDG-NEXT:    vector.load %[[S]][%[[C1]],
// LDG-NEXT:    arith.extf
// LDG-NEXT:    vector.fma
// LDG-NEXT:    gpu.barrier

// RPF:         memref.global "private" @tile : memref<64x32xf16, 3>
// RPF-LABEL:   gpu.func @global_trip2
// RPF:         memref.get_global @tile : memref<64x32xf16, 3>

// -----

// memref.alloc in workgroup memory, trip count 8, two tiles (A and B),
// mma.sync in a nested compute loop carrying the accumulator. The allocs
// (malloc with upstream's NVVM lowering) become workgroup attributions first.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @alloc_trip8_mma(%A: memref<128x256xf16>, %B: memref<128x256xf16>, %out: memref<128x8xf32>)
        kernel attributes {known_block_size = array<i32: 128, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c256 = arith.constant 256 : index
      %sa = memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
      %sb = memref.alloc() : memref<64x32xf16, #gpu.address_space<workgroup>>
      %tid = gpu.thread_id x
      %lane = gpu.lane_id
      %row = arith.divui %tid, %c2 : index
      %h = arith.remui %tid, %c2 : index
      %col = arith.muli %h, %c16 : index
      %col8 = arith.addi %col, %c8 : index
      %lrow = arith.remui %lane, %c16 : index
      %init = arith.constant dense<0.0> : vector<2x2xf32>
      %r = scf.for %k = %c0 to %c256 step %c32 iter_args(%acc = %init) -> (vector<2x2xf32>) {
        %gk = arith.addi %k, %col : index
        %gk8 = arith.addi %k, %col8 : index
        %a0 = vector.load %A[%row, %gk] : memref<128x256xf16>, vector<8xf16>
        %a1 = vector.load %A[%row, %gk8] : memref<128x256xf16>, vector<8xf16>
        %b0 = vector.load %B[%row, %gk] : memref<128x256xf16>, vector<8xf16>
        vector.store %a0, %sa[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        vector.store %a1, %sa[%row, %col8] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        vector.store %b0, %sb[%row, %col] : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
        gpu.barrier
        %sum = scf.for %ks = %c0 to %c32 step %c16 iter_args(%x = %acc) -> (vector<2x2xf32>) {
          %fa = nvgpu.ldmatrix %sa[%lrow, %ks] {numTiles = 4 : i32, transpose = false}
              : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
          %fb = nvgpu.ldmatrix %sb[%lrow, %ks] {numTiles = 2 : i32, transpose = false}
              : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
          %d = nvgpu.mma.sync (%fa, %fb, %x) {mmaShape = [16, 8, 16]}
              : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
          scf.yield %d : vector<2x2xf32>
        }
        gpu.barrier
        scf.yield %sum : vector<2x2xf32>
      }
      %r0 = vector.extract %r[0] : vector<2xf32> from vector<2x2xf32>
      vector.store %r0, %out[%row, %c0] : memref<128x8xf32>, vector<2xf32>
      gpu.return
    }
  }
}

// CPA-LABEL: gpu.func @alloc_trip8_mma
// CPA-SAME:    workgroup(%[[SA:.*]] : memref<2x64x32xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[SB:.*]] : memref<2x64x32xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// CPA-NOT:     memref.alloc
// Prologue: three 16-byte copies of tile 0, one group.
// CPA-COUNT-3: nvgpu.device_async_copy {{.*}} 8 {bypassL1}
// CPA-NEXT:    nvgpu.device_async_create_group %{{.*}}, %{{.*}}, %{{.*}}
// CPA-NEXT:    nvgpu.device_async_wait
// CPA-NEXT:    gpu.barrier
// Seven steady-state iterations (k = 0 ... 192), the eighth tile in the epilogue.
// CPA-NEXT:    %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %[[C224:.*]] step %{{.*}} iter_args
// CPA-COUNT-3:   nvgpu.device_async_copy {{.*}} 8 {bypassL1}
// CPA-NEXT:      %[[G:.*]] = nvgpu.device_async_create_group %{{.*}}, %{{.*}}, %{{.*}}
// CPA:           scf.for
// CPA:             nvgpu.ldmatrix %[[SA]]
// CPA:             nvgpu.ldmatrix %[[SB]]
// CPA:             nvgpu.mma.sync
// CPA:           nvgpu.device_async_wait %[[G]] {numGroups = 0 : i32}
// CPA-NEXT:      gpu.barrier
// CPA-NEXT:      scf.yield
// CPA-NEXT:    }
// Epilogue: tile 7 from buf[7 % 2] = buf[1].
// CPA-NEXT:    %{{.*}} = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[R]])
// CPA-NEXT:      nvgpu.ldmatrix %[[SA]][%[[C1:.*]], %{{.*}}, %{{.*}}]
// CPA-NEXT:      nvgpu.ldmatrix %[[SB]][%[[C1]], %{{.*}}, %{{.*}}]
// CPA-NEXT:      nvgpu.mma.sync
// CPA:         gpu.barrier

// LDG-LABEL: gpu.func @alloc_trip8_mma
// LDG:         scf.for
// LDG-COUNT-3:   vector.load %arg
// LDG:           scf.for
// LDG:             nvgpu.mma.sync
// LDG:           gpu.barrier
// LDG-COUNT-3:   vector.store
// LDG-NEXT:      gpu.barrier
// LDG-NEXT:      scf.yield

// RPF-LABEL: gpu.func @alloc_trip8_mma
// RPF-SAME:    workgroup(%{{.*}} : memref<64x32xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<64x32xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// RPF-NOT:     memref.alloc

// N stages (the CUDA guide's multistage order): stages=4 on trip count 8.
// The prologue commits tiles 0, 1, 2 into buf[0..2]; each of the 5
// steady-state iterations waits for all but 2 groups (tile t is complete),
// synchronizes, issues tile t+3 into buf[(t+3)%4] and computes buf[t%4];
// the epilogue computes tiles 5, 6, 7 from buf[1], buf[2], buf[3] with
// waits for all but 2, 1, 0 groups.
// MS4-LABEL: gpu.func @alloc_trip8_mma
// MS4-SAME:    workgroup(%[[SA:.*]] : memref<4x64x32xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %[[SB:.*]] : memref<4x64x32xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64})
// MS4-DAG:     %[[C0:.*]] = arith.constant 0 : index
// MS4-DAG:     %[[C1:.*]] = arith.constant 1 : index
// MS4-DAG:     %[[C2:.*]] = arith.constant 2 : index
// MS4-DAG:     %[[C3:.*]] = arith.constant 3 : index
// MS4-DAG:     %[[C4:.*]] = arith.constant 4 : index
// MS4-DAG:     %[[C160:.*]] = arith.constant 160 : index
// Prologue.
// MS4-COUNT-3: nvgpu.device_async_copy {{.*}}[%[[C0]], {{.*}} 8 {bypassL1}
// MS4-NEXT:    %[[G0:.*]] = nvgpu.device_async_create_group
// MS4:         nvgpu.device_async_copy {{.*}}[%[[C1]], {{.*}} 8 {bypassL1}
// MS4:         %[[G1:.*]] = nvgpu.device_async_create_group
// MS4:         nvgpu.device_async_copy {{.*}}[%[[C2]], {{.*}} 8 {bypassL1}
// MS4:         %[[G2:.*]] = nvgpu.device_async_create_group
// MS4-NOT:     nvgpu.device_async_wait
// Kernel: the three in-flight groups ride in iter_args.
// MS4:         %[[R:.*]]:4 = scf.for %[[K:.*]] = %[[C0]] to %[[C160]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}, %[[T0:.*]] = %[[G0]], %[[T1:.*]] = %[[G1]], %[[T2:.*]] = %[[G2]])
// MS4-NEXT:      nvgpu.device_async_wait %[[T0]] {numGroups = 2 : i32}
// MS4-NEXT:      gpu.barrier
// MS4-NEXT:      %[[KN:.*]] = arith.addi %[[K]], %{{.*}} : index
// MS4-NEXT:      %[[N1:.*]] = arith.divui %[[KN]], %{{.*}} : index
// MS4-NEXT:      %[[NEXT:.*]] = arith.remui %[[N1]], %[[C4]] : index
// MS4-COUNT-3:   nvgpu.device_async_copy {{.*}}[%[[NEXT]], {{.*}} 8 {bypassL1}
// MS4-NEXT:      %[[G:.*]] = nvgpu.device_async_create_group
// MS4-NEXT:      %[[T:.*]] = arith.divui %[[K]], %{{.*}} : index
// MS4-NEXT:      %[[CUR:.*]] = arith.remui %[[T]], %[[C4]] : index
// MS4-NEXT:      scf.for
// MS4-NEXT:        nvgpu.ldmatrix %[[SA]][%[[CUR]],
// MS4-NEXT:        nvgpu.ldmatrix %[[SB]][%[[CUR]],
// MS4-NEXT:        nvgpu.mma.sync
// MS4-NEXT:        scf.yield
// MS4-NEXT:      }
// MS4-NEXT:      scf.yield %{{.*}}, %[[T1]], %[[T2]], %[[G]]
// MS4-NEXT:    }
// Epilogue.
// MS4-NEXT:    nvgpu.device_async_wait %[[R]]#1 {numGroups = 2 : i32}
// MS4-NEXT:    gpu.barrier
// MS4-NEXT:    scf.for
// MS4-NEXT:      nvgpu.ldmatrix %[[SA]][%[[C1]],
// MS4:         nvgpu.device_async_wait %[[R]]#2 {numGroups = 1 : i32}
// MS4-NEXT:    gpu.barrier
// MS4-NEXT:    scf.for
// MS4-NEXT:      nvgpu.ldmatrix %[[SA]][%[[C2]],
// MS4:         nvgpu.device_async_wait %[[R]]#3 {numGroups = 0 : i32}
// MS4-NEXT:    gpu.barrier
// MS4-NEXT:    scf.for
// MS4-NEXT:      nvgpu.ldmatrix %[[SA]][%[[C3]],
// MS4:         gpu.barrier
// MS4-NEXT:    vector.extract
// MS4-NOT:     nvgpu.device_async
// MS4:         gpu.return

// Eight stages of 8192 bytes (65536) exceed the 48 KB of static shared
// memory: the tiles become views of dynamic shared memory (128-byte aligned
// offsets 0 and 32768) and the kernel records the bytes to launch with.
// DYN-LABEL: gpu.func @alloc_trip8_mma
// DYN-SAME:    pk.dynamic_shared_memory_bytes = 65536 : i64
// DYN-NOT:     memref.alloc
// DYN:         %[[DSMEM:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// DYN-DAG:     %[[SA:.*]] = memref.view %[[DSMEM]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x64x32xf16, #gpu.address_space<workgroup>>
// DYN-DAG:     %[[SB:.*]] = memref.view %[[DSMEM]][%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x64x32xf16, #gpu.address_space<workgroup>>
// DYN:         nvgpu.device_async_copy %arg0{{.*}}, %[[SA]]
// DYN:         nvgpu.ldmatrix %[[SA]]

// -----

// A partial last tile: K = 40 with BK = 32 (trip count 2). The zero-padded
// transfer_read becomes a cp.async with a source size: min(max(40 - col, 0), 8)
// elements are read, the rest of the 16 bytes is zero-filled; a copy entirely
// past K reads nothing and points at column 0.
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @partial_k40(%A: memref<64x40xf16>, %out: memref<64xf32>)
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
      %r = scf.for %k = %c0 to %c64 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
        %gk = arith.addi %k, %col : index
        %v = vector.transfer_read %A[%row, %gk], %pad {in_bounds = [false]} : memref<64x40xf16>, vector<8xf16>
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

// CPA-LABEL: gpu.func @partial_k40
// CPA-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CPA-DAG:     %[[C8:.*]] = arith.constant 8 : index
// CPA-DAG:     %[[C40:.*]] = arith.constant 40 : index
// CPA:         %[[COL:.*]] = arith.muli %{{.*}}, %[[C8]] : index
// Tile 0: 40 - col elements (all 8 for every col < 32).
// CPA-NEXT:    %[[LEFT0:.*]] = arith.subi %[[C40]], %[[COL]] : index
// CPA-NEXT:    %[[MIN0:.*]] = arith.minsi %[[LEFT0]], %[[C8]] : index
// CPA-NEXT:    %[[N0:.*]] = arith.maxsi %[[MIN0]], %[[C0]] : index
// CPA-NEXT:    %[[IN0:.*]] = arith.cmpi sgt, %[[LEFT0]], %[[C0]] : index
// CPA-NEXT:    %[[IDX0:.*]] = arith.select %[[IN0]], %[[COL]], %[[C0]] : index
// CPA-NEXT:    nvgpu.device_async_copy %arg0[%{{.*}}, %[[IDX0]]], %{{.*}}[%[[C0]], %{{.*}}, %[[COL]]], 8, %[[N0]] {bypassL1}
// Tile 1 (k = 32): 8 - col elements: 8 for col 0, none for the others.
// CPA:         %[[LEFT1:.*]] = arith.subi %[[C8]], %[[COL]] : index
// CPA-NEXT:    %[[MIN1:.*]] = arith.minsi %[[LEFT1]], %[[C8]] : index
// CPA-NEXT:    %[[N1:.*]] = arith.maxsi %[[MIN1]], %[[C0]] : index
// CPA:         nvgpu.device_async_copy %arg0[%{{.*}}, %{{.*}}], %{{.*}}, 8, %[[N1]] {bypassL1}

// The register variants keep the masked transfer_read.
// LDG-LABEL: gpu.func @partial_k40
// LDG:         vector.transfer_read %arg0[{{.*}}], %{{.*}} : memref<64x40xf16>, vector<8xf16>
// LDG:         vector.transfer_read %arg0[{{.*}}], %{{.*}} : memref<64x40xf16>, vector<8xf16>
// LDG-NOT:     nvgpu.device_async_copy

// -----

// An odd trip count, 7 (k = 16 ... 208): six steady-state iterations (k < 208)
// and the epilogue computes tile 6 from buf[6 % 2] = buf[0].
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @attr_trip7(%A: memref<64x256xf16>, %out: memref<64xf32>)
        workgroup(%s: memref<64x32xf16, #gpu.address_space<workgroup>>)
        kernel attributes {known_block_size = array<i32: 256, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c4 = arith.constant 4 : index
      %c8 = arith.constant 8 : index
      %c16 = arith.constant 16 : index
      %c32 = arith.constant 32 : index
      %c240 = arith.constant 240 : index
      %tid = gpu.thread_id x
      %row = arith.divui %tid, %c4 : index
      %q = arith.remui %tid, %c4 : index
      %col = arith.muli %q, %c8 : index
      %init = arith.constant dense<0.0> : vector<8xf32>
      %r = scf.for %k = %c16 to %c240 step %c32 iter_args(%acc = %init) -> (vector<8xf32>) {
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


// CPA-LABEL: gpu.func @attr_trip7
// CPA-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CPA-DAG:     %[[C208:.*]] = arith.constant 208 : index
// CPA:         nvgpu.device_async_copy {{.*}}[%[[C0]], {{.*}} 8 {bypassL1}
// CPA:         scf.for %{{.*}} = %{{.*}} to %[[C208]] step
// CPA-COUNT-1:   nvgpu.device_async_copy
// CPA:           nvgpu.device_async_wait
// CPA-NEXT:      gpu.barrier
// CPA:         }
// CPA-NEXT:    vector.load %{{.*}}[%[[C0]],
// CPA:         gpu.barrier
// CPA-NOT:     nvgpu.device_async_copy
// CPA:         gpu.return

// LDG-LABEL: gpu.func @attr_trip7
// LDG-DAG:     %[[C0:.*]] = arith.constant 0 : index
// LDG-DAG:     %[[C208:.*]] = arith.constant 208 : index
// LDG:         scf.for %{{.*}} = %{{.*}} to %[[C208]] step
// LDG:         }
// LDG-NEXT:    vector.load %{{.*}}[%[[C0]],

// RPF-LABEL: gpu.func @attr_trip7
// RPF:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// RPF:           gpu.barrier
// RPF-NEXT:      vector.store
// RPF-NEXT:      gpu.barrier
