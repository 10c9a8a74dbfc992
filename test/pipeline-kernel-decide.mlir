// The blocks/SM target without ptxas (docs/stages.md, "Blocks per SM"): the
// kernel's launch bounds are honoured when no option overrides them, an
// explicit min-blocks-per-sm wins, and min-blocks-per-sm=auto chooses by the
// model (the register estimate) and says that ptxas was not there. The
// ptxas-compiled candidate table is in pipeline-kernel-decide-ptxas.mlir.
//
// Launch bounds: gen_gemm's 128x256x64 HGEMM with --min-blocks 1
// (nvvm.minctasm = 1): 3 stages need 147456 bytes, within the 1-block cliff.
// RUN: python3 %examples/gen_gemm.py --kind hgemm --BM 128 --BN 256 --BK 64 --min-blocks 1 -o %t.b1.mlir
// RUN: pk-opt %t.b1.mlir --pipeline-kernel='arch=sm_90 stages=3 report=-' -o /dev/null 2>&1 | FileCheck %s --check-prefix=KERNEL
// KERNEL: remark: pipelined: variant cp-async, 3 shared buffer(s); 3 stages need 147456 bytes of shared memory, within the sm_90 cliff of 232448 bytes for 1 blocks/SM
// KERNEL: "min_blocks_per_sm":1,"min_blocks_source":"kernel nvvm.minctasm"
// KERNEL-SAME: "target_blocks_per_sm":1,"target_source":"kernel nvvm.minctasm"
//
// An explicit number wins over the launch bound.
// RUN: pk-opt %t.b1.mlir --pipeline-kernel='arch=sm_90 stages=3 min-blocks-per-sm=2 report=-' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION
// OPTION: remark: pipelined: variant register-prefetch, 1 shared buffer(s); 3 stages need 147456 bytes of shared memory, above the sm_90 cliff of 115712 bytes for 2 blocks/SM
// OPTION: "min_blocks_source":"option"
//
// No launch bound: the default of 2 (the SGEMM example has no nvvm.minctasm).
// RUN: pk-opt %examples/sgemm_f32_128x128x8.mlir --pk-analyze-kloops='report=-' -o /dev/null 2>&1 | grep '^{' | FileCheck %s --check-prefix=DEFAULT
// DEFAULT: "target_blocks_per_sm":2,"target_source":"default"
//
// min-blocks-per-sm=auto without ptxas: the model's register estimate (128
// accumulator registers + 48 > the 128-register cap of 2 blocks/SM) rules
// out 2 blocks/SM; 1 block/SM with 3 stages wins and the kernel gets
// nvvm.minctasm = 1.
// RUN: python3 %examples/gen_gemm.py --kind hgemm --BM 128 --BN 256 --BK 32 -o %t.b2.mlir
// RUN: pk-opt %t.b2.mlir --pipeline-kernel='arch=sm_90 stages=auto min-blocks-per-sm=auto cuda-path=%t.nocuda report=%t.auto.json' -o %t.auto.mlir 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: FileCheck %s --check-prefix=AUTO-IR < %t.auto.mlir
// RUN: FileCheck %s --check-prefix=AUTO-JSON < %t.auto.json
// AUTO: remark: pipelined: variant cp-async, 4 shared buffer(s);
// AUTO-SAME: candidates (the model alone: ptxas not found at '{{.*}}nocuda/bin/ptxas'{{.*}}, so registers and spills are unknown): cp-async x4 @1 block(s)/SM, ~1024 cycles/tile (chosen);
// AUTO-SAME: more in the report;
// AUTO-SAME: chosen: cp-async x4 @1 block(s)/SM (min-blocks-per-sm=auto: the kernel gets nvvm.minctasm = 1)
// AUTO-IR: gpu.func @hgemm_f16_128x256x32
// AUTO-IR-SAME: nvvm.minctasm = 1 : i32
// AUTO-JSON: "candidates":{"compiled_with_ptxas":false
// AUTO-JSON-SAME: "dropped":"the model's ~176 registers exceed the cap of 128 for 2 block(s)/SM (spills predicted)"
// AUTO-JSON-SAME: "min_blocks_per_sm":1,"min_blocks_source":"auto"
// AUTO-JSON-SAME: "set_minctasm":1
//
// Never worse (rule never-worse): a 256x256 tile of 256 threads holds 256
// accumulator registers per thread, above every cap: every candidate is
// predicted to spill and the loop is left alone, the IR unchanged.
// RUN: python3 %examples/gen_gemm.py --kind hgemm --BM 256 --BN 256 --BK 32 -o %t.big.mlir
// RUN: pk-opt %t.big.mlir --pipeline-kernel='arch=sm_90 stages=auto min-blocks-per-sm=auto cuda-path=%t.nocuda' -o %t.big.out.mlir 2>&1 | FileCheck %s --check-prefix=DECLINE
// RUN: FileCheck %s --check-prefix=DECLINE-IR < %t.big.out.mlir
// DECLINE: remark: not pipelined: every pipelined candidate spills or loses occupancy (rule never-worse);
// DECLINE-SAME: cp-async x{{[0-9]}} @1 block(s)/SM, ~{{[0-9]+}} cycles/tile (dropped: the model's ~304 registers exceed the cap of 255 for 1 block(s)/SM (spills predicted))
// DECLINE-IR-NOT: pk.pipelined
// DECLINE-IR-NOT: nvvm.minctasm = 1
//
// Upstream-generated input (no launch bounds, FMA compute): auto keeps a
// pipelined variant and sets nvvm.minctasm.
// RUN: pk-opt %S/upstream/kernels/sgemm_f32_128x128x8_bufferize.mlir --pipeline-kernel='arch=sm_90 min-blocks-per-sm=auto cuda-path=%t.nocuda' -o - 2>&1 | FileCheck %s --check-prefix=UPSTREAM
// UPSTREAM: remark: pipelined: variant {{[a-z-]+}}, {{[0-9]}} shared buffer(s);
// UPSTREAM-SAME: (min-blocks-per-sm=auto: the kernel gets nvvm.minctasm = [[B:[0-9]]])
// UPSTREAM: nvvm.minctasm = [[B]] : i32
//
// Ties (docs/decisions.md, "Candidates"). The 128x256x64 HGEMM at 1
// block/SM reaches the compute floor with 3 and with 4 stages: the
// power-of-two ring ranks first (rule pow2-stages).
// RUN: pk-opt %t.b1.mlir --pipeline-kernel='arch=sm_90 stages=auto min-blocks-per-sm=auto cuda-path=%t.nocuda' -o /dev/null 2>&1 | FileCheck %s --check-prefix=POW2
// POW2: remark: pipelined: variant cp-async, 4 shared buffer(s);
// POW2-SAME: so registers and spills are unknown): cp-async x4 @1 block(s)/SM, ~2048 cycles/tile (chosen); cp-async x3 @1 block(s)/SM, ~2048 cycles/tile;
// The rules' first estimate (2 stages within the default 2 blocks/SM) is
// named as replaced, so the remark does not read as two decisions.
// POW2-SAME: chosen: cp-async x4 @1 block(s)/SM (min-blocks-per-sm=auto: the kernel gets nvvm.minctasm = 1); it replaces the rules' first estimate above, cp-async with 2 buffer(s) at 2 block(s)/SM
//
// Two stages fixed: cp-async x2 ties with the register variants at 1
// block/SM; cp-async ranks first, then register-prefetch, then ldg-register
// (rule register-before-ldg).
// RUN: pk-opt %t.b1.mlir --pipeline-kernel='arch=sm_90 min-blocks-per-sm=auto cuda-path=%t.nocuda' -o /dev/null 2>&1 | FileCheck %s --check-prefix=VARIANTS
// VARIANTS: remark: pipelined: variant cp-async, 2 shared buffer(s);
// VARIANTS-SAME: so registers and spills are unknown): cp-async x2 @1 block(s)/SM, ~3000 cycles/tile (chosen); register-prefetch @1 block(s)/SM, ~3000 cycles/tile; ldg-register @1 block(s)/SM, ~3000 cycles/tile;
//
// The L2 bandwidth floor: a 64x64x64 HGEMM tile streams 16384 bytes, at 36
// bytes per cycle per SM on sm_90 ~455 cycles, above its ~256 cycles of
// compute; every candidate that hides the latency ties there and the one
// with the most resident blocks, then the fewest stages, wins. With the same
// resident blocks the lower blocks/SM target ranks first (rule loose-cap).
// wgmma loops (docs/hopper.md): the search weighs the multistage order and,
// from 3 buffers, mma-in-flight (one wgmma group in flight, copies N-2
// ahead); the model adds the wgmma drain to multistage at 1 block/SM, so
// for the one-warpgroup 128x128x64 kernel 3 multistage buffers at 2
// resident blocks stay first (the measured best). Forcing the order keeps
// only its rows.
// RUN: pk-opt %examples/hgemm_wgmma_f16_128x128x64.mlir --pipeline-kernel='arch=sm_90a stages=auto min-blocks-per-sm=auto cuda-path=%t.nocuda report=%t.wgmma.json' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WGMMA
// RUN: FileCheck %s --check-prefix=WGMMA-JSON < %t.wgmma.json
// RUN: pk-opt %examples/hgemm_wgmma_f16_128x128x64.mlir --pipeline-kernel='arch=sm_90a stages=auto min-blocks-per-sm=auto schedule=mma-in-flight cuda-path=%t.nocuda report=-' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WGMMA-MIF
// WGMMA: remark: pipelined: variant cp-async, 3 shared buffer(s);
// WGMMA-SAME: cp-async x3 @1 block(s)/SM, ~910 cycles/tile (chosen)
// WGMMA-SAME: chosen: cp-async x3 @1 block(s)/SM
// WGMMA-JSON: "schedule":"multistage"
// WGMMA-JSON-SAME: "stages":3
// WGMMA-JSON: "schedule":"mma-in-flight"
// WGMMA-JSON-SAME: "variant":"cp-async"
// WGMMA-MIF: remark: pipelined: variant cp-async, 6 shared buffer(s), schedule mma-in-flight;
// WGMMA-MIF-SAME: chosen: cp-async x6 mma-in-flight @1 block(s)/SM
// WGMMA-MIF-NOT: "schedule":"multistage"
// Rule mma-in-flight without a search: with the buffers and blocks/SM
// decided, the model picks the order. Two warpgroups, 128x256x64, 4 buffers
// at 1 block/SM: mma-in-flight (measured 699 vs 592 TFLOP/s at 4096^3);
// 3 buffers: multistage (568 vs 527).
// RUN: python3 %examples/gen_gemm.py --kind hgemm --mma wgmma --threads 256 --BN 256 --M 512 --N 512 --K 512 -o %t.wg2.mlir
// RUN: pk-opt %t.wg2.mlir --pk-pipeline-kloops='arch=sm_90a variant=cp-async stages=4' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WG2-RULE4
// RUN: pk-opt %t.wg2.mlir --pk-pipeline-kloops='arch=sm_90a variant=cp-async stages=3' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WG2-RULE3
// WG2-RULE4: remark: pipelined: variant cp-async, 4 shared buffer(s), schedule mma-in-flight;
// WG2-RULE4-SAME: schedule=auto: mma-in-flight (~1500 cycles/tile) beats multistage (~1536) with 4 buffers at 1 block(s)/SM (rule mma-in-flight)
// WG2-RULE3: remark: pipelined: variant cp-async, 3 shared buffer(s);
// WG2-RULE3-NOT: mma-in-flight
// RUN: python3 %examples/gen_gemm.py --kind hgemm --BM 64 --BN 64 --BK 64 --threads 128 -o %t.h64.mlir
// RUN: pk-opt %t.h64.mlir --pipeline-kernel='arch=sm_90 stages=auto min-blocks-per-sm=auto cuda-path=%t.nocuda' -o /dev/null 2>&1 | FileCheck %s --check-prefix=FLOOR
// FLOOR: remark: pipelined: variant cp-async, 3 shared buffer(s);
// FLOOR-SAME: cp-async x3 @1 block(s)/SM, ~455 cycles/tile (chosen); cp-async x3 @2 block(s)/SM, ~455 cycles/tile; cp-async x3 @4 block(s)/SM, ~455 cycles/tile;
// FLOOR-SAME: chosen: cp-async x3 @1 block(s)/SM
