// The pipeline-kernel pipeline on small inputs: what it passes over
// (test/Inputs) and IREE's reduced forms (test/iree/reduced/) through
// emit=ptx. The bundled examples under every variant, lowered to PTX, are in
// test/e2e/pipeline-kernel.test.

// What pk passes over (test/Inputs/unconsidered.mlir, docs/input-contract.md):
// by default one remark per kernel without a K-loop candidate and per loop
// that looks like a K-loop (an affine.for), no remark on the epilogue loops
// of the pipelined kernel; verbose=1 adds "not a pk K-loop: no gpu.barrier in
// its body" once for the epilogue nest (pipeline-kernel's analysis says it,
// its pk-pipeline-kloops does not repeat it). pk-pipeline-kloops alone has
// the same option.
// RUN: pk-opt %S/Inputs/unconsidered.mlir --pipeline-kernel -o /dev/null 2>&1 | FileCheck %s --check-prefixes=PASSED-OVER,PASSED-OVER-DEFAULT
// RUN: pk-opt %S/Inputs/unconsidered.mlir --pipeline-kernel='verbose=1' -o /dev/null 2>&1 | FileCheck %s --check-prefixes=PASSED-OVER,PASSED-OVER-VERBOSE
// RUN: pk-opt %S/Inputs/unconsidered.mlir --pipeline-kernel='verbose=1' -o /dev/null 2>&1 | grep -c 'remark: not a pk K-loop: no gpu.barrier' | FileCheck %s --check-prefix=PASSED-OVER-ONCE
// RUN: pk-opt %S/Inputs/unconsidered.mlir --pk-pipeline-kloops -o /dev/null 2>&1 | FileCheck %s --check-prefixes=PASSED-OVER,PASSED-OVER-DEFAULT
// RUN: pk-opt %S/Inputs/unconsidered.mlir --pk-pipeline-kloops='verbose=1' -o /dev/null 2>&1 | FileCheck %s --check-prefixes=PASSED-OVER,PASSED-OVER-VERBOSE
// PASSED-OVER-DEFAULT-NOT: no gpu.barrier in its body
// PASSED-OVER: unconsidered.mlir:45:5: remark: kernel @fill: nothing to pipeline: it has no loop
// PASSED-OVER: unconsidered.mlir:53:5: remark: kernel @affine_kloop: nothing to pipeline: none of its 1 loop(s) is a K-loop candidate
// PASSED-OVER-VERBOSE: unconsidered.mlir:34:7: remark: not a pk K-loop: no gpu.barrier in its body
// PASSED-OVER: unconsidered.mlir:59:12: remark: not a pk K-loop: an affine.for, not an scf.for; run --lower-affine first
// PASSED-OVER: unconsidered.mlir:23:12: remark: pipelined: variant cp-async, 2 shared buffer(s)
// PASSED-OVER-DEFAULT-NOT: no gpu.barrier in its body
// PASSED-OVER-ONCE: {{^}}1{{$}}

// IREE's forms through emit=ptx (test/iree/reduced/): the barrier-first loop
// with typed allocs and their deallocs is pipelined with cp.async, its tiles
// in .shared (no malloc, no local memory); transfers on
// #gpu.address_space<workgroup> lower; f32 multiply-adds contract to FMAs.
// RUN: rm -rf %t.iree && pk-opt %S/iree/reduced/barrier_first.mlir --pipeline-kernel='arch=sm_86 emit=ptx out-dir=%t.iree/bf' -o /dev/null 2>&1 | FileCheck %s --check-prefix=IREE-BF
// RUN: cat %t.iree/bf/*.ptx | FileCheck %s --check-prefix=IREE-PTX --implicit-check-not=malloc --implicit-check-not=__local_depot
// RUN: pk-opt %S/iree/reduced/dealloc.mlir --pipeline-kernel='arch=sm_86 emit=ptx out-dir=%t.iree/dealloc' -o /dev/null 2>&1 | FileCheck %s --check-prefix=IREE-CPA
// RUN: cat %t.iree/dealloc/*.ptx | FileCheck %s --check-prefix=IREE-PTX --implicit-check-not=malloc --implicit-check-not=__local_depot
// RUN: pk-opt %S/iree/reduced/addrspace3.mlir --pipeline-kernel='arch=sm_86 emit=ptx out-dir=%t.iree/as3' -o /dev/null 2>&1 | FileCheck %s --check-prefix=IREE-CPA
// RUN: cat %t.iree/as3/*.ptx | FileCheck %s --check-prefix=IREE-PTX --implicit-check-not=malloc --implicit-check-not=__local_depot
// RUN: pk-opt %S/iree/reduced/workgroup_transfer.mlir --pipeline-kernel='arch=sm_86 variant=cp-async emit=ptx out-dir=%t.iree/wt' -o /dev/null 2>&1 | FileCheck %s --check-prefix=IREE-CPA
// Left to auto, its one mma.sync per four shared loads is read-bound.
// RUN: pk-opt %S/iree/reduced/workgroup_transfer.mlir --pipeline-kernel='arch=sm_86' -o /dev/null 2>&1 | FileCheck %s --check-prefix=IREE-READ
// IREE-READ: remark: not pipelined: the compute phase loads its mma.sync operands with 4 shared-memory loads (not ldmatrix) per thread and K-step for ~8 cycles of mma.sync (2.0 cycles per load, fewer than 6)
// IREE-READ-SAME: (rule read-bound; a variant= option forces it)
// RUN: cat %t.iree/wt/*.ptx | FileCheck %s --check-prefix=IREE-PTX --implicit-check-not=malloc --implicit-check-not=__local_depot
// RUN: pk-opt %S/iree/reduced/fma_f32.mlir --pipeline-kernel='arch=sm_86 emit=ptx out-dir=%t.iree/fma' -o /dev/null 2>&1 | FileCheck %s --check-prefix=IREE-CPA
// RUN: cat %t.iree/fma/*.ptx | FileCheck %s --check-prefix=IREE-FMA --implicit-check-not=mul.rn.f32 --implicit-check-not=add.rn.f32
// Views hoisted above the loop (sunk by pk-normalize-workgroup-storage) and
// copies distributed with affine.delinearize_index or divui/remui (two per
// thread: their offsets through the per-thread subviews differ by a
// constant) are pipelined, and so is a tile the compute phase reads through
// memref.expand_shape (its loads keep their alignment on a stage:
// pk-prove-shared-alignment, test/pk-prove-shared-alignment.mlir).
// RUN: for k in hoisted_subview delinearize delinearize_divrem; do \
// RUN:   pk-opt %S/iree/reduced/$k.mlir --pipeline-kernel='arch=sm_86 emit=ptx out-dir=%t.iree/'$k -o /dev/null 2>&1 | grep -o 'remark: pipelined: variant [a-z-]*\|error: .*'; \
// RUN:   (cat %t.iree/$k/*.ptx | grep -c 'malloc\|__local_depot' || true); \
// RUN: done | FileCheck %s --check-prefix=IREE-VIEWS
// IREE-VIEWS: remark: pipelined: variant cp-async
// IREE-VIEWS-NEXT: {{^}}0{{$}}
// IREE-VIEWS: remark: pipelined: variant cp-async
// IREE-VIEWS-NEXT: {{^}}0{{$}}
// IREE-VIEWS: remark: pipelined: variant cp-async
// IREE-VIEWS-NEXT: {{^}}0{{$}}
// RUN: pk-opt %S/iree/reduced/expand_shape.mlir --pipeline-kernel='arch=sm_86' -o /dev/null 2>&1 | FileCheck %s --check-prefix=IREE-EXPAND
// IREE-EXPAND: remark: pipelined: variant cp-async, 2 shared buffer(s)
// IREE-BF: remark: pipelined: variant cp-async, 2 shared buffer(s)
// IREE-BF-SAME: the loop was barrier-first: pk rotated it into load; gpu.barrier; compute; gpu.barrier, with one gpu.barrier before the loop
// IREE-CPA: remark: pipelined: variant cp-async
// IREE-PTX: .shared .align 16 .b8
// IREE-PTX: cp.async.cg.shared.global
// IREE-PTX: cp.async.wait_group
// IREE-FMA: fma.rn.f32
