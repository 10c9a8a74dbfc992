// The pipeline-kernel pipeline on the bundled examples: every kernel under
// every variant is pipelined, and the output lowers with upstream
// mlir-opt-22 --gpu-lower-to-nvvm-pipeline to PTX (sm_86) and to cubins
// (sm_86, sm_90, with ptxas). The PTX string is unescaped with sed to check it
// line by line.

// The decision remark and the JSON report.
// RUN: pk-opt %examples/hgemm_f16_128x128x32.mlir --pipeline-kernel='arch=sm_86 report=%t.json' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.json
// REMARK: remark: K-loop: trip count 128, 2 copied buffer(s), shared memory 16384 B single / 16384 B per stage / 32768 B with 2 stages
// REMARK: remark: pipelined: variant cp-async, 2 shared buffer(s); 2 stages need 32768 bytes of shared memory, within the sm_86 cliff of 50176 bytes for 2 blocks/SM; ratio 64.0 > 20
// REPORT: "decision":{{.}}{{.*}}"min_blocks_source":{{.*}}"pipelined":true,"reasons":["2 stages need 32768 bytes
// REPORT-SAME: "stages":2,"variant":"cp-async"}
// REPORT-SAME: "kernel":"hgemm_f16_128x128x32::hgemm_f16_128x128x32"
// REPORT-SAME: "variant":"cp-async"

// report=- writes the JSON lines to stderr: stdout stays valid MLIR (mlir-opt
// parses and verifies it again).
// RUN: pk-opt %examples/hgemm_f16_128x128x32.mlir --pipeline-kernel='report=-' -o - 2>%t.stderr | mlir-opt | FileCheck %s --check-prefix=STDOUT
// RUN: FileCheck %s --check-prefix=STDERR --input-file=%t.stderr
// STDOUT: gpu.func @hgemm_f16_128x128x32
// STDOUT: nvgpu.device_async_copy
// STDOUT: pk.pipelined
// STDERR: remark: pipelined: variant cp-async
// STDERR: {"arch":"sm_86"
// STDERR-SAME: "decision":{{.}}{{.*}}"min_blocks_source":{{.*}}"pipelined":true

// PTX of each variant (the steady-state loop's copies, groups and waits;
// 32 mma.sync per warp and iteration, again in the epilogue).
// RUN: pk-opt %examples/hgemm_f16_128x128x32.mlir --pipeline-kernel='variant=cp-async' | mlir-opt --gpu-lower-to-nvvm-pipeline='cubin-chip=sm_86 cubin-features=+ptx80 cubin-format=isa' | sed 's/\\0A/\n/g; s/\\09/ /g' | FileCheck %s --check-prefix=HGEMM-CPA
// HGEMM-CPA: gpu.binary @hgemm_f16_128x128x32
// HGEMM-CPA-COUNT-4: cp.async.cg.shared.global [{{[^]]*}}], [{{[^]]*}}], 16;
// HGEMM-CPA: cp.async.commit_group;
// HGEMM-CPA: cp.async.wait_group 0;
// HGEMM-CPA: bar.sync 0;
// HGEMM-CPA-COUNT-4: cp.async.cg.shared.global [{{[^]]*}}], [{{[^]]*}}], 16;
// HGEMM-CPA: cp.async.commit_group;
// HGEMM-CPA-COUNT-32: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// HGEMM-CPA: cp.async.wait_group 0;
// HGEMM-CPA: bar.sync 0;
// HGEMM-CPA-COUNT-32: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// HGEMM-CPA: bar.sync 0;
// HGEMM-CPA-NOT: mma.sync

// RUN: pk-opt %examples/hgemm_f16_128x128x32.mlir --pipeline-kernel='variant=ldg-register' | mlir-opt --gpu-lower-to-nvvm-pipeline='cubin-chip=sm_86 cubin-features=+ptx80 cubin-format=isa' | sed 's/\\0A/\n/g; s/\\09/ /g' | FileCheck %s --check-prefix=HGEMM-LDG
// HGEMM-LDG: gpu.binary @hgemm_f16_128x128x32
// HGEMM-LDG-NOT: cp.async
// HGEMM-LDG-COUNT-4: ld.global.v4
// HGEMM-LDG-COUNT-4: st.shared.v4
// HGEMM-LDG: bar.sync 0;
// HGEMM-LDG-COUNT-4: ld.global.v4
// HGEMM-LDG-COUNT-32: mma.sync.aligned.m16n8k16
// HGEMM-LDG: bar.sync 0;
// HGEMM-LDG-COUNT-4: st.shared.v4
// HGEMM-LDG: bar.sync 0;
// HGEMM-LDG-COUNT-32: mma.sync.aligned.m16n8k16
// HGEMM-LDG: bar.sync 0;

// RUN: pk-opt %examples/igemm_i8_128x128x64.mlir --pipeline-kernel | mlir-opt --gpu-lower-to-nvvm-pipeline='cubin-chip=sm_86 cubin-features=+ptx80 cubin-format=isa' | sed 's/\\0A/\n/g; s/\\09/ /g' | FileCheck %s --check-prefix=IGEMM-CPA
// IGEMM-CPA-COUNT-4: cp.async.cg.shared.global [{{[^]]*}}], [{{[^]]*}}], 16;
// IGEMM-CPA: cp.async.commit_group;
// IGEMM-CPA: cp.async.wait_group 0;
// IGEMM-CPA-COUNT-4: cp.async.cg.shared.global
// IGEMM-CPA-COUNT-32: mma.sync.aligned.m16n8k32.row.col{{.*}}s32.s8.s8.s32
// IGEMM-CPA: cp.async.wait_group 0;
// IGEMM-CPA-COUNT-32: mma.sync.aligned.m16n8k32

// SGEMM: each thread's float4 of A and B is stored transposed as 4 scalars,
// so cp.async could only copy 4 bytes per element (cp.async.ca, no L1
// bypass), which measured slower than ldg-register on an H200: auto picks
// ldg-register and says why; variant=cp-async still forces the 4-byte copies.
// RUN: pk-opt %examples/sgemm_f32_128x128x8.mlir --pipeline-kernel -o /dev/null 2>&1 | FileCheck %s --check-prefix=SGEMM-AUTO
// SGEMM-AUTO: remark: pipelined: variant ldg-register, 2 shared buffer(s); {{.*}}; cp.async would copy only 4 bytes per instruction
// RUN: pk-opt %examples/sgemm_f32_128x128x8.mlir --pipeline-kernel='variant=cp-async' | mlir-opt --gpu-lower-to-nvvm-pipeline='cubin-chip=sm_86 cubin-features=+ptx80 cubin-format=isa' | sed 's/\\0A/\n/g; s/\\09/ /g' | FileCheck %s --check-prefix=SGEMM-CPA
// SGEMM-CPA-COUNT-8: cp.async.ca.shared.global [{{[^]]*}}], [{{[^]]*}}], 4;
// SGEMM-CPA: cp.async.commit_group;
// SGEMM-CPA-COUNT-8: cp.async.ca.shared.global [{{[^]]*}}], [{{[^]]*}}], 4;
// SGEMM-CPA: cp.async.commit_group;
// SGEMM-CPA: fma.rn.f32
// SGEMM-CPA: cp.async.wait_group 0;

// stages=auto on sm_90 (docs/stages.md): ~1024 cycles of compute per tile
// against the calibrated 3000 cycles of loaded latency: 1 + ceil(3000 / 1024)
// = 4 stages, within the budget of 7; the measured best on an H200.
// RUN: pk-opt %examples/hgemm_f16_128x128x32.mlir --pipeline-kernel='arch=sm_90 stages=auto' -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: pk-opt %examples/igemm_i8_128x128x64.mlir --pipeline-kernel='arch=sm_90 stages=auto' -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO
// AUTO: remark: pipelined: variant cp-async, 4 shared buffer(s); stages=auto: a tile computes in ~1024 cycles with 2 block(s)/SM against ~3000 cycles of memory latency, so 4 tiles in flight hide it; the budget allows 7: 4 stages

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
