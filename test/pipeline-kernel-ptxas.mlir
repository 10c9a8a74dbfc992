// pipeline-kernel's artefacts through ptxas (the CUDA toolkit): every
// example and variant assembles for sm_86 and sm_90, emit=cubin writes the
// PTX, cubin and report, and 4 stages on sm_90 move to dynamic shared memory.
// The tests that need no ptxas are in pipeline-kernel.mlir.
// REQUIRES: ptxas

// Cubins for sm_86 and sm_90 with ptxas, every kernel and variant.
// RUN: for k in hgemm_f16_128x128x32 igemm_i8_128x128x64 sgemm_f32_128x128x8; do \
// RUN:   for v in cp-async ldg-register register-prefetch; do \
// RUN:     for a in sm_86 sm_90; do \
// RUN:       pk-opt %examples/$k.mlir --pipeline-kernel="arch=$a variant=$v" 2>/dev/null \
// RUN:       | env CUDA_HOME=%cuda_path mlir-opt --gpu-lower-to-nvvm-pipeline="cubin-chip=$a cubin-features=+ptx80 cubin-format=bin" \
// RUN:       | grep -o "gpu.binary @$k *\[#gpu.object<#nvvm.target<chip = \"$a\"[^>]*>, properties = {[^}]*}, bin = \"\\\\7FELF" \
// RUN:       | sed "s/^/$v: /"; \
// RUN:     done; done; done | FileCheck %s --check-prefix=CUBIN
// CUBIN-COUNT-2: cp-async: gpu.binary @hgemm_f16_128x128x32
// CUBIN-COUNT-2: ldg-register: gpu.binary @hgemm_f16_128x128x32
// CUBIN-COUNT-2: register-prefetch: gpu.binary @hgemm_f16_128x128x32
// CUBIN-COUNT-2: cp-async: gpu.binary @igemm_i8_128x128x64
// CUBIN-COUNT-2: ldg-register: gpu.binary @igemm_i8_128x128x64
// CUBIN-COUNT-2: register-prefetch: gpu.binary @igemm_i8_128x128x64
// CUBIN-COUNT-2: cp-async: gpu.binary @sgemm_f32_128x128x8
// CUBIN-COUNT-2: ldg-register: gpu.binary @sgemm_f32_128x128x8
// CUBIN-COUNT-2: register-prefetch: gpu.binary @sgemm_f32_128x128x8

// emit=cubin writes the PTX, the cubin and the report (with ptxas' numbers).
// RUN: rm -rf %t.out && pk-opt %examples/hgemm_f16_128x128x32.mlir --pipeline-kernel='arch=sm_86 emit=cubin out-dir=%t.out cuda-path=%cuda_path report=%t.out.json' -o /dev/null 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: ls %t.out | FileCheck %s --check-prefix=EMIT-FILES
// RUN: FileCheck %s --check-prefix=EMIT-REPORT --input-file=%t.out.json
// EMIT: remark: pipelined: variant cp-async
// EMIT: remark: ptxas (sm_86): {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack frame, 32768 bytes shared memory; 2 blocks/SM (limited by registers)
// EMIT-FILES: hgemm_f16_128x128x32.sm_86.cubin
// EMIT-FILES-NEXT: hgemm_f16_128x128x32.sm_86.ptx
// EMIT-REPORT: "decision":{{.}}{{.*}}"min_blocks_source":{{.*}}"pipelined":true
// EMIT-REPORT-SAME: "ptxas":{"below_target":false,"blocks_per_sm":2,"dynamic_shared_bytes":0,"limit":"registers","registers":{{[0-9]+}},"shared_bytes":32768,"spill_loads_bytes":0,"spill_stores_bytes":0,"stack_frame_bytes":0}

// Four cp.async stages of the HGEMM on sm_90 need 65536 bytes: the tiles move
// to dynamic shared memory (the workgroup attributions are dropped) and the
// cubin assembles.
// RUN: rm -rf %t.s4 && pk-opt %examples/hgemm_f16_128x128x32.mlir --pipeline-kernel='arch=sm_90 stages=4 emit=cubin out-dir=%t.s4 cuda-path=%cuda_path' 2>%t.s4.log | FileCheck %s --check-prefix=STAGES4
// RUN: FileCheck %s --check-prefix=STAGES4-REMARK --input-file=%t.s4.log
// STAGES4: gpu.func @hgemm_f16_128x128x32(%{{[^)]*}}) kernel attributes {known_block_size = array<i32: 256, 1, 1>, known_grid_size = array<i32: 32, 32, 1>, nvvm.minctasm = 2 : i32, pk.dynamic_shared_memory_bytes = 65536 : i64}
// STAGES4: gpu.dynamic_shared_memory
// STAGES4-COUNT-2: memref.view
// STAGES4: nvgpu.device_async_wait %{{.*}} {numGroups = 2 : i32}
// STAGES4-REMARK: remark: pipelined: variant cp-async, 4 shared buffer(s); 4 stages need 65536 bytes of shared memory, within the sm_90 cliff of 115712 bytes for 2 blocks/SM
// STAGES4-REMARK: remark: ptxas (sm_90): {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack frame, {{[0-9]+}} bytes shared memory + 65536 bytes dynamic shared memory; 2 blocks/SM

