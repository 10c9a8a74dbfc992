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
// wgmma (docs/hopper.md), waitGroup = 0 and the proxy fence after the
// stores: pipelined. Auto picks cp-async (the 128B-swizzled stores' offsets
// differ by constants once `row % 8` of rows r + 16i is one value).
// RUN: pk-opt %examples/hgemm_wgmma_f16_128x128x64.mlir --pk-pipeline-kloops='arch=sm_90a' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WGMMA-AUTO
// WGMMA-AUTO: remark: pipelined: variant cp-async, 2 shared buffer(s); 2 stages need 65536 bytes
// ldg-register: 2 x 32 KB move to dynamic shared memory, the wgmma operands
// at 1024-byte aligned offsets. In the steady state the descriptors point at
// the stage being computed (a subview of the stage, whose offset the
// descriptor includes), the wgmma retires before the barrier, then the next
// tile's stores go to the other stage, followed by the fence and the
// barrier.
// RUN: pk-opt %examples/hgemm_wgmma_f16_128x128x64.mlir --pk-pipeline-kloops='arch=sm_90a variant=ldg-register' --canonicalize --cse 2>&1 | FileCheck %s --check-prefix=WGMMA
// RUN: pk-opt %examples/hgemm_wgmma_f16_128x128x64.mlir --pk-pipeline-kloops='arch=sm_90a variant=register-prefetch' --canonicalize --cse 2>&1 | FileCheck %s --check-prefix=WGMMA-RPF
// WGMMA: remark: pipelined: variant ldg-register, 2 shared buffer(s); variant=ldg-register requested (auto would pick cp-async)
// WGMMA-NOT: nvgpu.device_async_copy
// WGMMA: pk.dynamic_shared_memory_bytes = 65536
// WGMMA: %[[DSMEM:.*]] = gpu.dynamic_shared_memory
// WGMMA-DAG: %[[SB:.*]] = memref.view %[[DSMEM]][%c32768][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x2x64x64xf16, #gpu.address_space<workgroup>>
// WGMMA-DAG: %[[SA:.*]] = memref.view %[[DSMEM]][%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x128x64xf16, #gpu.address_space<workgroup>>
// WGMMA: scf.for
// WGMMA: %[[VA:.*]] = memref.subview %[[SA]][%[[CS:[^,]*]], 0, 0] [1, 128, 64] [1, 1, 1] : memref<2x128x64xf16, #gpu.address_space<workgroup>> to memref<128x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
// WGMMA-NEXT: %[[DA:.*]] = nvgpu.warpgroup.generate.descriptor %[[VA]]
// WGMMA-NEXT: %[[VB:.*]] = memref.subview %[[SB]][%[[CS]], 0, 0, 0] [1, 2, 64, 64] [1, 1, 1, 1] : memref<2x2x64x64xf16, #gpu.address_space<workgroup>> to memref<2x64x64xf16, strided<[4096, 64, 1], offset: ?>, #gpu.address_space<workgroup>>
// WGMMA-NEXT: %[[DB:.*]] = nvgpu.warpgroup.generate.descriptor %[[VB]]
// WGMMA-NEXT: nvgpu.warpgroup.mma %[[DA]], %[[DB]], %{{.*}} {transposeB, waitGroup = 0 : i64}
// WGMMA-NEXT: gpu.barrier
// WGMMA-COUNT-8: vector.store %{{.*}}, %[[SA]][%[[LS:[^,]*]],
// WGMMA-COUNT-8: vector.store %{{.*}}, %[[SB]][%[[LS]],
// WGMMA-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// WGMMA-NEXT: gpu.barrier
// WGMMA-NEXT: scf.yield
// WGMMA-NEXT: } {pk.pipelined}
// The epilogue computes the last tile from stage 1.
// WGMMA: memref.subview %[[SA]][1, 0, 0] [1, 128, 64] [1, 1, 1] : memref<2x128x64xf16, #gpu.address_space<workgroup>> to memref<128x64xf16, strided<[64, 1], offset: 8192>
// WGMMA: nvgpu.warpgroup.mma
// Register prefetch keeps one buffer: the next tile waits in registers and
// is stored (then fenced) after the barrier that follows the wgmma.
// WGMMA-RPF: remark: pipelined: variant register-prefetch, 1 shared buffer(s)
// WGMMA-RPF: scf.for
// WGMMA-RPF-COUNT-16: vector.load
// WGMMA-RPF: nvgpu.warpgroup.generate.descriptor %arg
// WGMMA-RPF: nvgpu.warpgroup.mma %{{.*}} {transposeB, waitGroup = 0 : i64}
// WGMMA-RPF-NEXT: gpu.barrier
// WGMMA-RPF-COUNT-16: vector.store
// WGMMA-RPF-NEXT: nvvm.fence.proxy
// WGMMA-RPF-NEXT: gpu.barrier
// WGMMA-RPF-NEXT: scf.yield
// Static shared memory (2 x 9216 bytes): the attribution keeps its 1024-byte
// alignment, and the descriptor takes the stage's subview.
// RUN: pk-opt %S/Inputs/wgmma-static-stages.mlir --pk-pipeline-kloops='arch=sm_90a variant=ldg-register' --canonicalize --cse 2>&1 | FileCheck %s --check-prefix=WGMMA-STATIC
// WGMMA-STATIC: remark: pipelined: variant ldg-register, 2 shared buffer(s)
// WGMMA-STATIC: workgroup(%[[S:.*]] : memref<2x72x64xf16, #gpu.address_space<workgroup>> {llvm.align = 1024 : i64})
// WGMMA-STATIC-NOT: dynamic_shared
// WGMMA-STATIC: %[[V:.*]] = memref.subview %[[S]][%{{.*}}, 0, 0] [1, 72, 64] [1, 1, 1] : memref<2x72x64xf16, #gpu.address_space<workgroup>> to memref<72x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
// WGMMA-STATIC-NEXT: %[[D:.*]] = nvgpu.warpgroup.generate.descriptor %[[V]]
// WGMMA-STATIC-NEXT: nvgpu.warpgroup.mma %[[D]], %[[D]]
// The fence after the barrier (start of the compute phase) stays there.
// RUN: python3 %examples/gen_gemm.py --kind hgemm --mma wgmma --M 512 --N 256 --K 1024 --wgmma-proxy-fence after-barrier | pk-opt --pk-pipeline-kloops='arch=sm_90a variant=ldg-register' --canonicalize --cse 2>&1 | FileCheck %s --check-prefix=WGMMA-AFTER
// WGMMA-AFTER: remark: pipelined: variant ldg-register
// WGMMA-AFTER: scf.for
// WGMMA-AFTER: nvvm.fence.proxy
// WGMMA-AFTER: memref.subview
// WGMMA-AFTER: nvgpu.warpgroup.mma
// WGMMA-AFTER-NEXT: gpu.barrier
// WGMMA-AFTER-COUNT-16: vector.store
// WGMMA-AFTER-NEXT: gpu.barrier
// WGMMA-AFTER-NEXT: scf.yield
// cp.async, 3 stages: each tile's wait, then the fence, then the barrier,
// before the wgmma reads the stage; the copies of tile k+2 go to the stage
// tile k-1's wgmma read, after that barrier.
// RUN: pk-opt %examples/hgemm_wgmma_f16_128x128x64.mlir --pk-pipeline-kloops='arch=sm_90a variant=cp-async stages=3' --canonicalize --cse 2>&1 | FileCheck %s --check-prefix=WGMMA-CP3
// WGMMA-CP3: remark: pipelined: variant cp-async, 3 shared buffer(s)
// WGMMA-CP3: = scf.for %arg
// WGMMA-CP3-NEXT: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// WGMMA-CP3-NEXT: nvvm.fence.proxy
// WGMMA-CP3-NEXT: gpu.barrier
// WGMMA-CP3-COUNT-16: nvgpu.device_async_copy
// WGMMA-CP3: nvgpu.device_async_create_group
// WGMMA-CP3: memref.subview %{{.*}}[%[[CS3:.*]], 0, 0] [1, 128, 64] [1, 1, 1] : memref<3x128x64xf16
// WGMMA-CP3-NEXT: nvgpu.warpgroup.generate.descriptor
// WGMMA-CP3-NEXT: memref.subview %{{.*}}[%[[CS3]], 0, 0, 0] [1, 2, 64, 64] [1, 1, 1, 1] : memref<3x2x64x64xf16
// WGMMA-CP3-NEXT: nvgpu.warpgroup.generate.descriptor
// WGMMA-CP3-NEXT: nvgpu.warpgroup.mma
// WGMMA-CP3-NEXT: scf.yield
// WGMMA-CP3: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// WGMMA-CP3-NEXT: nvvm.fence.proxy
// WGMMA-CP3-NEXT: gpu.barrier
// WGMMA-CP3: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// WGMMA-CP3-NEXT: nvvm.fence.proxy
// WGMMA-CP3-NEXT: gpu.barrier
// schedule=mma-in-flight, 4 stages: the wgmma of tile k stays in flight
// (waitGroup 1, the default, so not printed) while the loop goes on; the
// copies run 2 tiles ahead (wait for all but 1 group) into the stage of tile
// k-2, and after the epilogue's two computes a wait_group 0 retires the last
// group before the barrier and the store.
// RUN: pk-opt %examples/hgemm_wgmma_f16_128x128x64.mlir --pk-pipeline-kloops='arch=sm_90a variant=cp-async stages=4 schedule=mma-in-flight' --canonicalize --cse 2>&1 | FileCheck %s --check-prefix=WGMMA-MIF
// WGMMA-MIF: remark: pipelined: variant cp-async, 4 shared buffer(s)
// WGMMA-MIF-COUNT-2: nvgpu.device_async_create_group
// WGMMA-MIF-NOT: nvgpu.device_async_create_group
// WGMMA-MIF: = scf.for %arg
// WGMMA-MIF-NEXT: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// WGMMA-MIF-NEXT: nvvm.fence.proxy
// WGMMA-MIF-NEXT: gpu.barrier
// WGMMA-MIF-COUNT-16: nvgpu.device_async_copy
// WGMMA-MIF: nvgpu.device_async_create_group
// WGMMA-MIF: memref.subview %{{.*}} : memref<4x128x64xf16
// WGMMA-MIF-NEXT: nvgpu.warpgroup.generate.descriptor
// WGMMA-MIF-NEXT: memref.subview %{{.*}} : memref<4x2x64x64xf16
// WGMMA-MIF-NEXT: nvgpu.warpgroup.generate.descriptor
// WGMMA-MIF-NEXT: nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %{{.*}} {transposeB} :
// WGMMA-MIF-NEXT: scf.yield
// WGMMA-MIF: nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// WGMMA-MIF: nvgpu.warpgroup.mma %{{.*}} {transposeB} :
// WGMMA-MIF: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// WGMMA-MIF: nvgpu.warpgroup.mma %{{.*}} {transposeB} :
// WGMMA-MIF-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// WGMMA-MIF-NEXT: gpu.barrier
// WGMMA-MIF: nvgpu.warpgroup.mma.store
// variant=tma (docs/hopper.md "TMA ring"): the TMA kernel's one mbarrier
// becomes a ring of N, initialised as the original; the prologue issues tiles
// 0..N-2 on barriers 0..N-2 into stages 0..N-2 (the views outside the loop
// are sunk to each load and pointed at its stage); the loop issues tile t+N-1
// on barrier and stage (t+N-1) % N, waits on barrier t % N with parity
// (t / N) % 2 and computes on stage t % N; the epilogue waits on the last
// barriers with constant parities (64 tiles: tile 62 on barrier 2, phase
// 20, tile 63 on barrier 0, phase 21).
// RUN: pk-opt %examples/hgemm_wgmma_tma_f16_128x128x64.mlir --pk-pipeline-kloops='arch=sm_90a variant=tma stages=3 min-blocks-per-sm=1' --canonicalize --cse 2>&1 | FileCheck %s --check-prefix=TMA3
// TMA3: remark: pipelined: variant tma, 3 shared buffer(s)
// TMA3: gpu.dynamic_shared_memory
// TMA3: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// TMA3-NEXT: scf.if
// TMA3-NEXT: nvgpu.mbarrier.init %[[MB:.*]][%c0], %c1
// TMA3-NEXT: nvgpu.mbarrier.init %[[MB]][%c1], %c1
// TMA3-NEXT: nvgpu.mbarrier.init %[[MB]][%c2], %c1
// TMA3-NEXT: nvvm.fence.proxy
// TMA3: nvgpu.mbarrier.arrive.expect_tx %[[MB]][%c0], %c32768
// TMA3: nvgpu.tma.async.load %{{.*}}[%c0, %{{.*}}], %[[MB]][%c0] to
// TMA3: nvgpu.mbarrier.arrive.expect_tx %[[MB]][%c1], %c32768
// TMA3-NOT: nvgpu.mbarrier.arrive.expect_tx
// TMA3: scf.for %[[K:.*]] = %c0 to %c3968 step %c64
// TMA3-NEXT: %[[AHEAD:.*]] = arith.addi %[[K]], %c128
// TMA3-NEXT: %[[AT:.*]] = arith.divui %[[AHEAD]], %c64
// TMA3-NEXT: %[[AS:.*]] = arith.remui %[[AT]], %c3
// TMA3-NEXT: nvgpu.mbarrier.arrive.expect_tx %[[MB]][%[[AS]]], %c32768
// TMA3-NEXT: memref.subview %{{.*}}[%[[AS]], 0, 0] [1, 128, 64]
// TMA3-NEXT: nvgpu.tma.async.load %{{.*}}[%[[AHEAD]], %{{.*}}], %[[MB]][%[[AS]]] to
// TMA3-COUNT-2: nvgpu.tma.async.load %{{.*}}, %[[MB]][%[[AS]]] to
// TMA3-NEXT: %[[T:.*]] = arith.divui %[[K]], %c64
// TMA3-NEXT: %[[S:.*]] = arith.remui %[[T]], %c3
// TMA3-NEXT: %[[PH:.*]] = arith.divui %[[T]], %c3
// TMA3-NEXT: %[[P2:.*]] = arith.remui %[[PH]], %c2
// TMA3-NEXT: %[[P:.*]] = arith.index_cast %[[P2]] : index to i1
// TMA3-NEXT: nvgpu.mbarrier.try_wait.parity %[[MB]][%[[S]]], %[[P]]
// TMA3-NEXT: memref.subview %{{.*}}[%[[S]], 0, 0] [1, 128, 64]
// TMA3: nvgpu.warpgroup.mma %{{.*}} {transposeB, waitGroup = 0 : i64}
// TMA3-NEXT: gpu.barrier
// TMA3-NEXT: scf.yield
// TMA3-NEXT: } {pk.pipelined}
// TMA3-NEXT: nvgpu.mbarrier.try_wait.parity %[[MB]][%c2], %false
// TMA3: nvgpu.mbarrier.try_wait.parity %[[MB]][%c0], %true
// TMA3-NOT: nvgpu.tma.async.load
// TMA3: nvgpu.warpgroup.mma.store
// schedule=mma-in-flight: one wgmma group in flight, the loads run N-2 tiles
// ahead, a wait_group 0 and a barrier after the epilogue.
// RUN: pk-opt %examples/hgemm_wgmma_tma_f16_128x128x64.mlir --pk-pipeline-kloops='arch=sm_90a variant=tma stages=4 schedule=mma-in-flight min-blocks-per-sm=1' --canonicalize --cse 2>&1 | FileCheck %s --check-prefix=TMA-MIF
// TMA-MIF: remark: pipelined: variant tma, 4 shared buffer(s), schedule mma-in-flight
// TMA-MIF: num_barriers = 4
// TMA-MIF-COUNT-2: nvgpu.mbarrier.arrive.expect_tx
// TMA-MIF: scf.for %[[K:.*]] = %c0 to %c3968 step %c64
// TMA-MIF-NEXT: arith.addi %[[K]], %c128
// TMA-MIF: nvgpu.warpgroup.mma %{{.*}} {transposeB} :
// TMA-MIF-NEXT: gpu.barrier
// TMA-MIF: } {pk.pipelined}
// TMA-MIF-COUNT-2: nvgpu.mbarrier.try_wait.parity
// TMA-MIF: nvgpu.warpgroup.mma %{{.*}} {transposeB} :
// TMA-MIF-NEXT: gpu.barrier
// TMA-MIF-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// TMA-MIF-NEXT: gpu.barrier
// TMA-MIF: nvgpu.warpgroup.mma.store
// With the kernel's launch bound (2 blocks/SM) variant=auto keeps the TMA
// loads and stages=auto takes 3 stages (96 KB).
// RUN: pk-opt %examples/hgemm_wgmma_tma_f16_128x128x64.mlir --pk-pipeline-kloops='arch=sm_90a stages=auto' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TMA-AUTO
// TMA-AUTO: remark: pipelined: variant tma, 3 shared buffer(s)
// TMA-AUTO-SAME: TMA is selected all the same (rule high-ratio
// TMA-AUTO-SAME: the copies are TMA loads (nvgpu.tma.async.load on an mbarrier): variant tma, N buffers on a ring of N mbarriers (rule tma-input)
// TMA-AUTO-SAME: schedule=auto keeps every thread computing on the ring: warp-specialized grows the block by a producer warpgroup (a launch change) and measured no faster on the H200 (rule warp-specialized-on-request)
// schedule=warp-specialized (docs/hopper.md "Warp specialization"): a
// producer warpgroup (threads 128..255, one thread issuing) runs the TMA
// loads of each tile after the consumers released its stage on an "empty"
// mbarrier (parity (t/4 + 1) % 2: free on the first lap); the kernel's 128
// threads wait on the full ring, keep one wgmma group in flight and release
// the stage of tile t-1; their CTA barriers become named barrier 1 of 128
// threads; the block grows to 256 threads (PTX .reqntid) and the launch
// bound falls to the one block/SM the grown block fits.
// RUN: pk-opt %examples/hgemm_wgmma_tma_f16_128x128x64.mlir --pk-pipeline-kloops='arch=sm_90a variant=tma schedule=warp-specialized stages=4 min-blocks-per-sm=1' --canonicalize --cse 2>&1 | FileCheck %s --check-prefix=WS
// WS: remark: pipelined: variant tma, 4 shared buffer(s), schedule warp-specialized;
// WS-SAME: launch bound nvvm.minctasm 2 -> 1: 1 block(s)/SM of 256 threads
// WS-SAME: (rule warp-specialized-bound)
// WS-SAME: schedule=warp-specialized: a producer warpgroup issues the TMA loads, the block grows from 128 to 256 threads
// WS: gpu.func @hgemm_wgmma_tma_f16_128x128x64
// WS-SAME: known_block_size = array<i32: 256, 1, 1>
// WS-SAME: nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 256, 1, 1>
// WS: %[[TID:.*]] = gpu.thread_id x
// WS: %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// WS: %[[EMPTY:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// WS: nvgpu.mbarrier.init %[[EMPTY]][%c0], %c128
// WS: nvgpu.mbarrier.init %[[EMPTY]][%c3], %c128
// WS: nvgpu.mbarrier.init %[[FULL]][%c3], %c1
// WS: %[[CONS:.*]] = arith.cmpi ult, %[[TID]], %c128 : index
// WS: scf.if %[[CONS]] {
// WS: scf.for %[[K:.*]] = %c0 to %c4096 step %c64
// WS-NOT: nvgpu.tma.async.load
// WS: nvgpu.mbarrier.try_wait.parity %[[FULL]][%[[S:.*]]], %{{.*}}, %c10000000
// WS: nvgpu.warpgroup.mma %{{.*}} {transposeB}
// WS: %[[NOTFIRST:.*]] = arith.cmpi ne, %[[K]], %c0
// WS: scf.if %[[NOTFIRST]] {
// WS: %[[PREV0:.*]] = arith.addi %[[S]], %c3
// WS: %[[PREV:.*]] = arith.remui %[[PREV0]], %c4
// WS: nvgpu.mbarrier.arrive %[[EMPTY]][%[[PREV]]]
// WS: } {loop_annotation = #{{.*}}, pk.pipelined}
// WS-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// WS-NEXT: nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
// WS: nvgpu.warpgroup.mma.store
// WS: } else {
// WS: %[[LEAD:.*]] = arith.cmpi eq, %[[TID]], %c128 : index
// WS: scf.if %[[LEAD]] {
// WS: scf.for %[[PK:.*]] = %c0 to %c4096 step %c64 {
// WS: %[[PT:.*]] = arith.divui %[[PK]], %c64
// WS: %[[PS:.*]] = arith.remui %[[PT]], %c4
// WS: %[[LAP:.*]] = arith.divui %[[PT]], %c4
// WS: %[[LAP1:.*]] = arith.addi %[[LAP]], %c1
// WS: %[[PP:.*]] = arith.remui %[[LAP1]], %c2
// WS: %[[PAR:.*]] = arith.index_cast %[[PP]] : index to i1
// WS: nvgpu.mbarrier.try_wait.parity %[[EMPTY]][%[[PS]]], %[[PAR]], %c10000000
// WS: nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[PS]]], %c32768 :
// WS: nvgpu.tma.async.load %{{.*}}[%[[PK]], %{{.*}}], %[[FULL]][%[[PS]]] to %{{.*}} :
// WS-COUNT-2: nvgpu.tma.async.load
// WS-NOT: gpu.barrier
// WS: gpu.return

// A compute phase that writes memory (here a global store) keeps a barrier
// among the consumers (named barrier 1) where the CTA barrier was.
// RUN: sed 's/^        gpu.barrier$/        memref.store %%f0, %%C[%%c0, %%c0] : memref<4096x4096xf32>\n        gpu.barrier/; s/^      %%tid = gpu.thread_id x$/      %%tid = gpu.thread_id x\n      %%f0 = arith.constant 0.0 : f32/' %examples/hgemm_wgmma_tma_f16_128x128x64.mlir | pk-opt --pk-pipeline-kloops='arch=sm_90a variant=tma schedule=warp-specialized stages=3' --canonicalize --cse 2>&1 | FileCheck %s --check-prefix=WS-WRITES
// WS-WRITES: remark: pipelined: variant tma, 3 shared buffer(s), schedule warp-specialized
// WS-WRITES: scf.for
// WS-WRITES: nvgpu.warpgroup.mma %{{.*}} {transposeB}
// WS-WRITES-NEXT: memref.store
// WS-WRITES-NEXT: nvvm.barrier id = %c1_i32 number_of_threads = %c128_i32
// WS-WRITES: nvgpu.mbarrier.arrive
// WS-WRITES: pk.pipelined

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

// The kernel's own bounds follow the grown block: nvvm.maxntid (ptxas
// refuses it next to .reqntid) is dropped, a thread id's upper_bound
// becomes 256, an nvvm.barrier0 of the consumers becomes named barrier 1.
// RUN: sed 's/kernel attributes {nvvm.minctasm = 2 : i32,/kernel attributes {nvvm.maxntid = array<i32: 128, 1, 1>, nvvm.minctasm = 2 : i32,/; s/^      %%tid = gpu.thread_id x$/      %%tid = gpu.thread_id x upper_bound 128/; s/^      gpu.return$/      nvvm.barrier0\n      gpu.return/' %examples/hgemm_wgmma_tma_f16_128x128x64.mlir | pk-opt --pk-pipeline-kloops='arch=sm_90a variant=tma schedule=warp-specialized stages=3 min-blocks-per-sm=1' 2>&1 | FileCheck %s --check-prefix=WS-BOUNDS
// WS-BOUNDS: remark: pipelined: variant tma, 3 shared buffer(s), schedule warp-specialized
// WS-BOUNDS-NOT: nvvm.maxntid
// WS-BOUNDS: nvvm.reqntid = array<i32: 256, 1, 1>
// WS-BOUNDS-NOT: nvvm.maxntid
// WS-BOUNDS: gpu.thread_id  x upper_bound 256
// WS-BOUNDS: nvgpu.warpgroup.mma.store
// WS-BOUNDS-NOT: nvvm.barrier0
// WS-BOUNDS: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// WS-BOUNDS-NOT: nvvm.barrier0
// WS-BOUNDS: } else {

// The kernel's launch in the module grows with it (test/Inputs/tma-launch.mlir).
// RUN: sed 's/BLOCK_X/%%c128/' %S/Inputs/tma-launch.mlir | pk-opt --pk-pipeline-kloops='arch=sm_90a variant=tma schedule=warp-specialized stages=2' 2>&1 | FileCheck %s --check-prefix=WS-LAUNCH
// WS-LAUNCH: remark: pipelined: variant tma, 2 shared buffer(s), schedule warp-specialized
// WS-LAUNCH: func.func @host
// WS-LAUNCH: %[[C256:.*]] = arith.constant 256 : index
// WS-LAUNCH-NEXT: gpu.launch_func @hgemm_wgmma_tma_f16_128x128x64::@hgemm_wgmma_tma_f16_128x128x64 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%[[C256]], %{{.*}}, %{{.*}})

// Two consumer warpgroups (gen_gemm.py --copy tma --threads 256 --BN 256):
// 256 consumers, 384 threads, empty barriers of 256 arrivals; the
// accumulator fragments are stored per thread, no barrier after the loop
// but pk's own. stages=auto searches warp-specialized candidates only.
// RUN: pk-opt %examples/hgemm_wgmma_tma_f16_128x256x64.mlir --pk-pipeline-kloops='arch=sm_90a schedule=warp-specialized stages=auto min-blocks-per-sm=auto' --canonicalize --cse 2>&1 | FileCheck %s --check-prefix=WS2
// WS2: remark: pipelined: variant tma, {{[34]}} shared buffer(s), schedule warp-specialized;
// WS2-SAME: candidates (
// WS2-SAME: tma x{{[0-9]}} warp-specialized @1 block(s)/SM
// WS2-NOT: tma x{{[0-9]}} mma-in-flight
// WS2-SAME: the block grows from 256 to 384 threads
// WS2: known_block_size = array<i32: 384, 1, 1>
// WS2-SAME: nvvm.reqntid = array<i32: 384, 1, 1>
// WS2: nvgpu.mbarrier.init %{{.*}}[%c0], %c256
// WS2: arith.cmpi ult, %{{.*}}, %c256 : index
// WS2: nvvm.barrier id = %c1_i32 number_of_threads = %c256_i32
// WS2: arith.cmpi eq, %{{.*}}, %c256 : index

// Two consumer warpgroups, 128x256x64 (gen_gemm.py --threads 256): warpgroup
// w's descriptor reads rows 64w.. of the stage being computed, multi-buffering
// composing its subview of sA with the stage ([stage, 64w, 0] [1, 64, 64]),
// in the loop and in the drained tail, for cp.async and ldg-register.
// RUN: python3 %examples/gen_gemm.py --kind hgemm --mma wgmma --threads 256 --BN 256 --M 512 --N 512 --K 512 -o %t.wg2.mlir
// RUN: pk-opt %t.wg2.mlir --pk-pipeline-kloops='arch=sm_90a variant=cp-async stages=3' --canonicalize --cse 2>&1 | FileCheck %s --check-prefixes=WG2,WG2-CP3
// RUN: pk-opt %t.wg2.mlir --pk-pipeline-kloops='arch=sm_90a variant=ldg-register' --canonicalize --cse 2>&1 | FileCheck %s --check-prefixes=WG2,WG2-LDG
// WG2-CP3: remark: pipelined: variant cp-async, 3 shared buffer(s)
// WG2-LDG: remark: pipelined: variant ldg-register, 2 shared buffer(s)
// WG2: %[[WG:.*]] = arith.divui %thread_id_x, %c128 : index
// WG2-NEXT: %[[ROW:.*]] = arith.muli %[[WG]], %c64 : index
// WG2: = scf.for %arg
// WG2: memref.subview %{{.*}}[%[[S:.*]], %[[ROW]], 0] [1, 64, 64] [1, 1, 1] : memref<{{[23]}}x128x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
// WG2-NEXT: nvgpu.warpgroup.generate.descriptor
// WG2-NEXT: memref.subview %{{.*}}[%[[S]], 0, 0, 0] [1, 4, 64, 64] [1, 1, 1, 1] : memref<{{[23]}}x4x64x64xf16
// WG2-NEXT: nvgpu.warpgroup.generate.descriptor
// WG2-NEXT: nvgpu.warpgroup.mma {{.*}} -> <fragmented = vector<64x256xf32>>
// WG2: scf.yield
// WG2-CP3: memref.subview %{{.*}}[0, %[[ROW]], 0] [1, 64, 64]
// WG2-CP3: memref.subview %{{.*}}[1, %[[ROW]], 0] [1, 64, 64]
// WG2-LDG: memref.subview %{{.*}}[1, %[[ROW]], 0] [1, 64, 64]
// WG2: nvgpu.warpgroup.mma
// WG2: builtin.unrealized_conversion_cast %{{.*}} : !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>> to !llvm.struct
// schedule=mma-in-flight on two warpgroups (4 x 48 KB, one block per SM):
// the block-wide barrier at the top of iteration t follows both warpgroups'
// wait_group 1 of t-1, so the stage of tile t-2 is free for the copies; the
// last group is retired before the barrier and the fragment epilogue.
// RUN: pk-opt %t.wg2.mlir --pk-pipeline-kloops='arch=sm_90a variant=cp-async schedule=mma-in-flight stages=4' --canonicalize --cse 2>&1 | FileCheck %s --check-prefix=WG2-MIF
// WG2-MIF: remark: pipelined: variant cp-async, 4 shared buffer(s)
// WG2-MIF: %[[ROW:.*]] = arith.muli %{{.*}}, %c64 : index
// WG2-MIF: = scf.for %arg
// WG2-MIF: memref.subview %{{.*}}[%[[S:.*]], %[[ROW]], 0] [1, 64, 64] [1, 1, 1] : memref<4x128x64xf16
// WG2-MIF-NEXT: nvgpu.warpgroup.generate.descriptor
// WG2-MIF-NEXT: memref.subview %{{.*}}[%[[S]], 0, 0, 0] [1, 4, 64, 64]
// WG2-MIF-NEXT: nvgpu.warpgroup.generate.descriptor
// WG2-MIF-NEXT: nvgpu.warpgroup.mma %{{.*}}, %{{.*}}, %{{.*}} {transposeB} :
// WG2-MIF-NEXT: scf.yield
// WG2-MIF: nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// WG2-MIF: nvgpu.warpgroup.mma %{{.*}} {transposeB} :
// WG2-MIF-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// WG2-MIF-NEXT: gpu.barrier
// WG2-MIF-NEXT: builtin.unrealized_conversion_cast
// The per-warpgroup subview hoisted out of the loop (a mutant): the storage
// normalization sinks it in front of its user in the loop, and the loop is
// pipelined; with the descriptors hoisted too, the descriptor is not in the
// compute phase.
// RUN: python3 %S/Inputs/hoist_descriptors.py %t.wg2.mlir "%%sAw = memref.subview" | pk-opt --pk-pipeline-kloops='arch=sm_90a variant=cp-async stages=3' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WG2-HOIST
// RUN: python3 %S/Inputs/hoist_descriptors.py %t.wg2.mlir "%%sAw = memref.subview" generate.descriptor | pk-opt --pk-pipeline-kloops='arch=sm_90a variant=cp-async stages=3' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WG2-HOIST-DESC
// WG2-HOIST: remark: pipelined: variant cp-async, 3 shared buffer(s)
// WG2-HOIST-DESC: remark: not pipelined: this nvgpu.warpgroup.generate.descriptor of workgroup attribution #0 is not in the compute phase
// WG2-HOIST-DESC-NEXT: nvgpu.warpgroup.generate.descriptor
// WG2-HOIST-DESC: note: in this K-loop
// Without the proxy fence the input races: a warning at the wgmma, and no
// variant pipelines it.
// RUN: python3 %examples/gen_gemm.py --kind hgemm --mma wgmma --M 512 --N 256 --K 1024 --wgmma-proxy-fence none | pk-opt --pk-pipeline-kloops='arch=sm_90a variant=ldg-register' 2>&1 | FileCheck %s --check-prefix=WGMMA-RACE
// WGMMA-RACE: warning: the kernel races: nvgpu.warpgroup.mma reads, through the async proxy, shared tiles the load phase wrote with generic-proxy stores
// WGMMA-RACE: remark: not pipelined: this nvgpu.warpgroup.mma reads shared tiles with no fence.proxy.async after their generic-proxy stores: the kernel races, and pk does not pipeline a racing kernel; the decision was variant ldg-register
// WGMMA-RACE-NOT: pk.pipelined
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
