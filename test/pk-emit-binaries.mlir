// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// emit=cubin: PTX + cubin per gpu.module, a remark per kernel with ptxas'
// numbers, and one report line per kernel with them, appended after the
// loop lines of pk-pipeline-kloops (which it leaves as they are).
// RUN: pk-opt %s --pk-pipeline-kloops='report=%t/report.json' --pk-emit-binaries='arch=sm_86 emit=cubin out-dir=%t/cubin cuda-path=%cuda_path report=%t/report.json report-append=1' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: ls %t/cubin | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=PTX86 --input-file=%t/cubin/m.sm_86.ptx
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/report.json
// Without report-append the file holds only pk-emit-binaries' lines.
// RUN: pk-opt %s --pk-emit-binaries='arch=sm_86 emit=cubin out-dir=%t/cubin cuda-path=%cuda_path report=%t/report.json' -o /dev/null 2>/dev/null
// RUN: FileCheck %s --check-prefix=REPORT-ONLY --input-file=%t/report.json
// sm_90 gets PTX 8.0; bare-ptr turns each static memref into one pointer.
// RUN: pk-opt %s --pk-emit-binaries='arch=sm_90 emit=ptx bare-ptr=1 out-dir=%t/ptx' -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX90 --input-file=%t/ptx/m.sm_90.ptx
// RUN: pk-opt %s --pk-emit-binaries='emit=llvm out-dir=%t/llvm' -o /dev/null
// RUN: FileCheck %s --check-prefix=LLVM --input-file=%t/llvm/m.sm_86.ll
// Masked transfer_reads (partial tiles kept by the register variants, and the
// unpipelined kernel) lower too.
// RUN: pk-opt %S/Inputs/partial-k40.mlir --pipeline-kernel='variant=ldg-register emit=ptx out-dir=%t/masked' -o /dev/null
// RUN: FileCheck %s --check-prefix=MASKED --input-file=%t/masked/m.sm_86.ptx
// RUN: pk-opt %S/Inputs/partial-k40.mlir --pk-emit-binaries='emit=cubin out-dir=%t/masked-base cuda-path=%cuda_path' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MASKED-BASE
// MASKED: .entry partial_k40(
// MASKED: setp.{{.*}}
// MASKED: ld.global
// MASKED-BASE: remark: ptxas (sm_86): {{[0-9]+}} registers
// Transposing vector.transfer_reads (issue 12): convert-vector-to-scf makes
// them 1-D transfers, as in upstream's gpu-lower-to-nvvm-pipeline. The column
// read of the K-loop becomes four 4-byte loads 256 bytes apart, unpipelined
// and pipelined (ldg-register: a column is not one cp.async); the 4x4
// transposed block (which upstream leaves unlowered) 16 loads; no local memory.
// RUN: pk-opt %S/Inputs/transposed-read.mlir --pk-emit-binaries='emit=ptx out-dir=%t/transposed' -o /dev/null
// RUN: FileCheck %s --check-prefix=TRANSPOSED --input-file=%t/transposed/m.sm_86.ptx
// RUN: pk-opt %S/Inputs/transposed-read.mlir --pipeline-kernel='emit=ptx out-dir=%t/transposed-pipe' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TRANSPOSED-REMARK
// RUN: FileCheck %s --check-prefixes=TRANSPOSED,TRANSPOSED-PIPE --input-file=%t/transposed-pipe/m.sm_86.ptx
// TRANSPOSED-REMARK: remark: pipelined: variant ldg-register
// TRANSPOSED-NOT: .local
// TRANSPOSED-LABEL: .entry column_copy(
// TRANSPOSED: ld.global.b32 {{%r[0-9]+}}, {{\[}}[[COL:%rd[0-9]+]]];
// TRANSPOSED-NEXT: ld.global.b32 {{%r[0-9]+}}, {{\[}}[[COL]]+256];
// TRANSPOSED-NEXT: ld.global.b32 {{%r[0-9]+}}, {{\[}}[[COL]]+512];
// TRANSPOSED-NEXT: ld.global.b32 {{%r[0-9]+}}, {{\[}}[[COL]]+768];
// TRANSPOSED: st.shared.b32
// The pipelined kernel loads the next tile (8192 bytes on) before the compute
// of this one, and stores it into the other buffer after a barrier.
// TRANSPOSED-PIPE: ld.global.b32 {{%r[0-9]+}}, {{\[}}[[COL]]+8192];
// TRANSPOSED-PIPE: ld.shared.b32
// TRANSPOSED-PIPE: fma.rn.f32
// TRANSPOSED-PIPE: bar.sync 0;
// TRANSPOSED-PIPE-NEXT: st.shared.b32 [{{%rd[0-9]+}}+8204]
// TRANSPOSED-LABEL: .entry block_transpose(
// TRANSPOSED-COUNT-16: ld.global.b32
// TRANSPOSED-COUNT-16: st.global.b32
// TRANSPOSED-NOT: .local
// Every upstream-generated kernel (test/upstream/kernels) still lowers with
// pk's pipeline, as generated (where pk-emit-binaries takes it: not the
// gpu.launch form, nor promote_alloc's workgroup malloc and vectorize_only's
// subviews of workgroup memory, which upstream's pipeline rejects too) and
// pipelined; the gpu.launch kernel through pipeline-kernel's outlining.
// RUN: for k in sgemm_f32_64x64x16_promote_global sgemm_f32_64x64x16_promote_alloca \
// RUN:          sgemm_f32_128x128x8_bufferize sgemm_f32_128x128x8_bufferize.upstream-pipelined \
// RUN:          sgemm_f32_32x32x32_tb_bufferize sgemm_f32_32x32x32_tb_bufferize.upstream-pipelined \
// RUN:          hgemm_f16f32_64x64x64_nvgpu_global hgemm_f16f32_64x64x64_nvgpu_async_bufferize \
// RUN:          hgemm_f16f32_64x64x64_nvgpu_async_bufferize.upstream-pipelined \
// RUN:          hgemm_f16_32x32x16_mmasync_rewrite; do \
// RUN:   echo "kernel $k"; \
// RUN:   pk-opt %S/upstream/kernels/$k.mlir --pk-emit-binaries='emit=ptx out-dir=%t/up/'$k -o /dev/null 2>&1 | grep -o 'error'; \
// RUN:   cat %t/up/$k/*.ptx | grep -c '^.visible .entry'; \
// RUN: done | FileCheck %s --check-prefix=UPSTREAM
// RUN: for k in sgemm_f32_64x64x16_promote_global sgemm_f32_64x64x16_promote_alloc \
// RUN:          sgemm_f32_64x64x16_promote_alloca sgemm_f32_128x128x8_bufferize \
// RUN:          sgemm_f32_32x32x32_tb_bufferize hgemm_f16f32_64x64x64_nvgpu_global \
// RUN:          hgemm_f16f32_64x64x64_nvgpu_async_bufferize sgemm_f32_64x64x16_launch \
// RUN:          hgemm_f16_32x32x16_mmasync_rewrite; do \
// RUN:   echo "kernel $k"; \
// RUN:   pk-opt %S/upstream/kernels/$k.mlir --pipeline-kernel='emit=ptx out-dir=%t/up-pipe/'$k -o /dev/null 2>&1 | grep -o 'error\|remark: pipelined'; \
// RUN:   cat %t/up-pipe/$k/*.ptx | grep -c '^.visible .entry'; \
// RUN: done | FileCheck %s --check-prefix=UPSTREAM-PIPE
// UPSTREAM-LABEL: kernel sgemm_f32_64x64x16_promote_global{{$}}
// UPSTREAM-NEXT: {{^}}1{{$}}
// UPSTREAM-LABEL: kernel sgemm_f32_64x64x16_promote_alloca{{$}}
// UPSTREAM-NEXT: {{^}}1{{$}}
// UPSTREAM-LABEL: kernel sgemm_f32_128x128x8_bufferize{{$}}
// UPSTREAM-NEXT: {{^}}1{{$}}
// UPSTREAM-LABEL: kernel sgemm_f32_128x128x8_bufferize.upstream-pipelined{{$}}
// UPSTREAM-NEXT: {{^}}1{{$}}
// UPSTREAM-LABEL: kernel sgemm_f32_32x32x32_tb_bufferize{{$}}
// UPSTREAM-NEXT: {{^}}1{{$}}
// UPSTREAM-LABEL: kernel sgemm_f32_32x32x32_tb_bufferize.upstream-pipelined{{$}}
// UPSTREAM-NEXT: {{^}}1{{$}}
// UPSTREAM-LABEL: kernel hgemm_f16f32_64x64x64_nvgpu_global{{$}}
// UPSTREAM-NEXT: {{^}}1{{$}}
// UPSTREAM-LABEL: kernel hgemm_f16f32_64x64x64_nvgpu_async_bufferize{{$}}
// UPSTREAM-NEXT: {{^}}1{{$}}
// UPSTREAM-LABEL: kernel hgemm_f16f32_64x64x64_nvgpu_async_bufferize.upstream-pipelined{{$}}
// UPSTREAM-NEXT: {{^}}1{{$}}
// UPSTREAM-LABEL: kernel hgemm_f16_32x32x16_mmasync_rewrite{{$}}
// UPSTREAM-NEXT: {{^}}1{{$}}
// UPSTREAM-PIPE-LABEL: kernel sgemm_f32_64x64x16_promote_global{{$}}
// UPSTREAM-PIPE-NEXT: remark: pipelined
// UPSTREAM-PIPE-NEXT: {{^}}1{{$}}
// UPSTREAM-PIPE-LABEL: kernel sgemm_f32_64x64x16_promote_alloc{{$}}
// UPSTREAM-PIPE-NEXT: remark: pipelined
// UPSTREAM-PIPE-NEXT: {{^}}1{{$}}
// UPSTREAM-PIPE-LABEL: kernel sgemm_f32_64x64x16_promote_alloca{{$}}
// UPSTREAM-PIPE-NEXT: remark: pipelined
// UPSTREAM-PIPE-NEXT: {{^}}1{{$}}
// UPSTREAM-PIPE-LABEL: kernel sgemm_f32_128x128x8_bufferize{{$}}
// UPSTREAM-PIPE-NEXT: remark: pipelined
// UPSTREAM-PIPE-NEXT: {{^}}1{{$}}
// UPSTREAM-PIPE-LABEL: kernel sgemm_f32_32x32x32_tb_bufferize{{$}}
// UPSTREAM-PIPE-NEXT: remark: pipelined
// UPSTREAM-PIPE-NEXT: {{^}}1{{$}}
// UPSTREAM-PIPE-LABEL: kernel hgemm_f16f32_64x64x64_nvgpu_global{{$}}
// UPSTREAM-PIPE-NEXT: remark: pipelined
// UPSTREAM-PIPE-NEXT: {{^}}1{{$}}
// UPSTREAM-PIPE-LABEL: kernel hgemm_f16f32_64x64x64_nvgpu_async_bufferize{{$}}
// UPSTREAM-PIPE-NEXT: remark: pipelined
// UPSTREAM-PIPE-NEXT: {{^}}1{{$}}
// UPSTREAM-PIPE-LABEL: kernel sgemm_f32_64x64x16_launch{{$}}
// UPSTREAM-PIPE-NEXT: remark: pipelined
// UPSTREAM-PIPE-NEXT: {{^}}1{{$}}
// UPSTREAM-PIPE-LABEL: kernel hgemm_f16_32x32x16_mmasync_rewrite{{$}}
// UPSTREAM-PIPE-NEXT: {{^}}1{{$}}
// sm_90a: PTX for the architecture-specific target, ptxas -arch=sm_90a; the
// wgmma kernel lowers there (convert-nvvm-to-llvm turns NVVM's wgmma ops into
// PTX) and its PTX and cubin carry the wgmma instructions.
// RUN: pk-opt %s --pk-emit-binaries='arch=sm_90a emit=cubin out-dir=%t/sm90a cuda-path=%cuda_path' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK90A
// RUN: FileCheck %s --check-prefix=PTX90A --input-file=%t/sm90a/m.sm_90a.ptx
// RUN: pk-opt %S/Inputs/wgmma-minimal.mlir --pk-emit-binaries='arch=sm_90a emit=cubin out-dir=%t/wgmma cuda-path=%cuda_path' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WGMMA-REMARK
// RUN: FileCheck %s --check-prefix=WGMMA --input-file=%t/wgmma/wgmma_minimal.sm_90a.ptx
// RUN: ls %t/wgmma | FileCheck %s --check-prefix=WGMMA-FILES
// REMARK90A: pk-emit-binaries.mlir:{{[0-9]+}}:5: remark: ptxas (sm_90a): {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack frame, 4096 bytes shared memory; {{[0-9]+}} blocks/SM (limited by
// PTX90A: .version 8.0
// PTX90A: .target sm_90a
// PTX90A: .entry attr_trip3(
// WGMMA-REMARK: remark: ptxas (sm_90a): {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack frame, 32768 bytes shared memory
// WGMMA: .target sm_90a
// WGMMA: .shared .align 1024 .b8
// WGMMA: wgmma.fence.sync.aligned;
// WGMMA-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// WGMMA: wgmma.commit_group.sync.aligned;
// WGMMA-NEXT: wgmma.wait_group.sync.aligned 0;
// WGMMA-FILES: wgmma_minimal.sm_90a.cubin
// WGMMA-FILES-NEXT: wgmma_minimal.sm_90a.ptx
// The bundled wgmma, TMA and two-warpgroup kernels (examples/, gen_gemm.py)
// are in test/e2e/pk-emit-binaries.test.
// The IR itself is unchanged.
// RUN: pk-opt %s --pk-emit-binaries='emit=ptx out-dir=%t/same' | FileCheck %s --check-prefix=IR

// REMARK: remark: pipelined: variant cp-async
// REMARK: remark: ptxas (sm_86): {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack frame, 8192 bytes shared memory; {{[0-9]+}} blocks/SM (limited by
// The 1024-thread kernel fits once per SM on sm_86 (48 warps / 32): a warning.
// REMARK: remark: ptxas (sm_86): {{[0-9]+}} registers, {{.*}}; 1 blocks/SM (limited by threads)
// REMARK: warning: with ptxas' {{[0-9]+}} registers per thread the kernel keeps 1 blocks/SM on sm_86 (limited by threads), below min-blocks-per-sm=2: the occupancy cliff is crossed after the fact

// FILES: m.sm_86.cubin
// FILES-NEXT: m.sm_86.ptx

// PTX86: .version 7.8
// PTX86: .target sm_86
// PTX86: .entry attr_trip3(
// PTX86: cp.async.cg.shared.global
// PTX86: .entry big_block(

// REPORT: "kernel":"m::attr_trip3","loads"
// REPORT-NOT: "ptxas"
// REPORT: {"arch":"sm_86","kernel":"m::attr_trip3","ptxas":{"below_target":false,"blocks_per_sm":{{[0-9]+}},"dynamic_shared_bytes":0,"limit":"{{[a-z_]+}}","registers":{{[0-9]+}},"shared_bytes":8192,"spill_loads_bytes":0,"spill_stores_bytes":0,"stack_frame_bytes":0},"threads_per_block":256}
// REPORT-NEXT: {"arch":"sm_86","kernel":"m::big_block","ptxas":{"below_target":true,"blocks_per_sm":1,{{.*}}},"threads_per_block":1024}
// REPORT-NOT: {

// REPORT-ONLY: {"arch":"sm_86","kernel":"m::attr_trip3","ptxas":{
// REPORT-ONLY-NEXT: {"arch":"sm_86","kernel":"m::big_block","ptxas":{
// REPORT-ONLY-NOT: {

// PTX90: .version 8.0
// PTX90: .target sm_90
// PTX90: .entry attr_trip3(
// PTX90-NEXT: .param .u64 {{.*}}attr_trip3_param_0,
// PTX90-NEXT: .param .u64 {{.*}}attr_trip3_param_1
// PTX90-NEXT: )

// LLVM: target triple = "nvptx64-nvidia-cuda"
// LLVM: define ptx_kernel void @attr_trip3(

// IR: gpu.module @m
// IR-NOT: gpu.binary

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
    gpu.func @big_block(%out: memref<1024xf32>)
        kernel attributes {known_block_size = array<i32: 1024, 1, 1>} {
      %tid = gpu.thread_id x
      %c = arith.constant 1.0 : f32
      memref.store %c, %out[%tid] : memref<1024xf32>
      gpu.return
    }
  }
}
