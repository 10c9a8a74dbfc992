// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// emit=cubin: PTX + cubin per gpu.module, a remark per kernel with ptxas'
// numbers, and the report extended with them.
// RUN: pk-opt %s --pk-pipeline-kloops='report=%t/report.json' --pk-emit-binaries='arch=sm_86 emit=cubin out-dir=%t/cubin cuda-path=%cuda_path report=%t/report.json' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: ls %t/cubin | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=PTX86 --input-file=%t/cubin/m.sm_86.ptx
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t/report.json
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
// The generated wgmma HGEMM (docs/hopper.md) unpipelined, for sm_90a.
// RUN: pk-opt %examples/hgemm_wgmma_f16_128x128x64.mlir --pk-emit-binaries='arch=sm_90a emit=cubin bare-ptr=1 out-dir=%t/wgmma-gen cuda-path=%cuda_path' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WGMMA-GEN
// RUN: FileCheck %s --check-prefix=WGMMA-GEN-PTX --input-file=%t/wgmma-gen/hgemm_wgmma_f16_128x128x64.sm_90a.ptx
// WGMMA-GEN: remark: ptxas (sm_90a): {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack frame, 32768 bytes shared memory
// WGMMA-GEN-PTX: .target sm_90a
// WGMMA-GEN-PTX: .shared .align 1024 .b8 {{.*}}[16384];
// WGMMA-GEN-PTX: .shared .align 1024 .b8 {{.*}}[16384];
// WGMMA-GEN-PTX: ld.global.nc.v4
// WGMMA-GEN-PTX-COUNT-16: st.shared.v4
// WGMMA-GEN-PTX-NEXT: fence.proxy.async.shared::cta;
// WGMMA-GEN-PTX-NEXT: bar.sync 0;
// WGMMA-GEN-PTX-NEXT: wgmma.fence.sync.aligned;
// WGMMA-GEN-PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
// WGMMA-GEN-PTX: wgmma.commit_group.sync.aligned;
// WGMMA-GEN-PTX-NEXT: wgmma.wait_group.sync.aligned 0;
// WGMMA-GEN-PTX-NEXT: bar.sync 0;
// The TMA input kernel (gen_gemm.py --copy tma, docs/hopper.md "TMA"): the
// tensor maps arrive as two pointer parameters after C and reach
// cp.async.bulk.tensor as generic addresses (no cvta); thread 0 initialises
// the mbarrier and fences it for the async proxy, arrives with 32768
// expected bytes and issues the three loads (A, two B slabs 8192 bytes
// apart, coordinates innermost first); every thread waits on the parity of
// the tile index in a retry loop; no proxy fence between TMA and wgmma.
// RUN: python3 %examples/gen_gemm.py --kind hgemm --mma wgmma --copy tma --M 512 --N 256 --K 1024 -o %t.tma.mlir
// RUN: pk-opt %t.tma.mlir --pk-emit-binaries='arch=sm_90a emit=cubin bare-ptr=1 out-dir=%t/tma cuda-path=%cuda_path' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TMA
// RUN: FileCheck %s --check-prefix=TMA-PTX --input-file=%t/tma/hgemm_wgmma_tma_f16_128x128x64.sm_90a.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t/tma/hgemm_wgmma_tma_f16_128x128x64.sm_90a.ptx
// RUN: FileCheck %s --check-prefix=TMA-MAPA --input-file=%t/tma/hgemm_wgmma_tma_f16_128x128x64.sm_90a.ptx
// RUN: FileCheck %s --check-prefix=TMA-MAPB --input-file=%t/tma/hgemm_wgmma_tma_f16_128x128x64.sm_90a.ptx
// TMA: remark: ptxas (sm_90a): {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack frame, 33792 bytes shared memory
// TMA-PTX: .param .u64 .ptr .align 1 hgemm_wgmma_tma_f16_128x128x64_param_3,
// TMA-PTX-NEXT: .param .u64 .ptr .align 1 hgemm_wgmma_tma_f16_128x128x64_param_4
// TMA-PTX: .shared .align 8 .b8 __mbarrier[8];
// TMA-PTX: .shared .align 1024 .b8 [[SA:[_a-z0-9]+]][16384];
// TMA-PTX: .shared .align 1024 .b8 [[SB:[_a-z0-9]+]][16384];
// TMA-PTX: setp.ne.b32 [[NOT0:%p[0-9]+]], %r{{[0-9]+}}, 0;
// TMA-PTX-NEXT: @[[NOT0]] bra
// TMA-PTX-NEXT: mov.b32 [[ONE:%r[0-9]+]], 1;
// TMA-PTX-NEXT: mbarrier.init.shared.b64 [__mbarrier], [[ONE]];
// TMA-PTX-NEXT: fence.proxy.async.shared::cta;
// TMA-PTX: bar.sync 0;
// TMA-PTX: $L__BB0_[[LOOP:[0-9]+]]:
// TMA-PTX: mov.b32 [[TX:%r[0-9]+]], 32768;
// TMA-PTX: @[[T0:%p[0-9]+]] mbarrier.arrive.expect_tx.shared.b64 _, [{{.*}}], [[TX]];
// TMA-PTX: @[[T0]] cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r[[K:[0-9]+]],%r{{[0-9]+}}} ]
// TMA-PTX: @[[T0]] cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}},%r[[K]]} ]
// TMA-PTX: add.s64 %rd{{[0-9]+}}, %rd{{[0-9]+}}, 8192;
// TMA-PTX: @[[T0]] cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%rd{{[0-9]+}}], [%rd{{[0-9]+}}, {%r{{[0-9]+}},%r[[K]]} ]
// TMA-PTX: and.b32 [[PAR:%r[0-9]+]], %r{{[0-9]+}}, 1;
// TMA-PTX: LAB_WAIT:
// TMA-PTX-NEXT: mbarrier.try_wait.parity.shared.b64 P1, [{{.*}}], [[PAR]], %r{{[0-9]+}};
// TMA-PTX-NEXT: @P1 bra.uni DONE;
// TMA-PTX-NEXT: bra.uni LAB_WAIT;
// TMA-PTX-NOT: fence.proxy
// TMA-PTX: wgmma.fence.sync.aligned;
// TMA-PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// TMA-PTX: wgmma.wait_group.sync.aligned 0;
// TMA-PTX-NEXT: bar.sync 0;
// TMA-PTX: @%p{{[0-9]+}} bra $L__BB0_[[LOOP]];
// TMA-MAPA: ld.param.b64 [[MAPA:%rd[0-9]+]], [hgemm_wgmma_tma_f16_128x128x64_param_3];
// TMA-MAPA-NOT: cvta.to.global.u64 {{.*}}[[MAPA]]
// TMA-MAPA: cp.async.bulk.tensor.2d.{{.*}} {{\[}}[[MAPA]], {
// TMA-MAPB: ld.param.b64 [[MAPB:%rd[0-9]+]], [hgemm_wgmma_tma_f16_128x128x64_param_4];
// TMA-MAPB-NOT: cvta.to.global.u64 {{.*}}[[MAPB]]
// TMA-MAPB-COUNT-2: cp.async.bulk.tensor.2d.{{.*}} {{\[}}[[MAPB]], {
// A kernel argument of type !nvgpu.tensormap.descriptor does not legalize in
// MLIR 22's convert-gpu-to-nvvm: a located error, no crash (hence the
// !llvm.ptr parameters above).
// RUN: sed -e 's/[%]tmaA: !llvm.ptr/%%tmaA: !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>/' -e '/= builtin.unrealized_conversion_cast [%]tmaA/d' -e 's/[%]tmA\b/%%tmaA/g' %t.tma.mlir > %t.tma-arg.mlir
// RUN: not pk-opt %t.tma-arg.mlir --pk-emit-binaries='arch=sm_90a emit=ptx bare-ptr=1 out-dir=%t/tma-arg cuda-path=%cuda_path' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TMA-ARG
// TMA-ARG: tma-arg.mlir:{{[0-9]+}}:{{[0-9]+}}: error: failed to legalize operation 'gpu.func' that was explicitly marked illegal
// TMA-ARG-NOT: Stack dump
// The TMA ring (variant=tma, 3 stages): the stages live in dynamic shared
// memory, the ring's mbarriers in the static __mbarrier array. The dynamic
// base is an `.extern` array, which ptxas places after all static shared
// memory; MLIR 22's internal base, demoted into the kernel as a one-byte
// static variable, had ptxas put __mbarrier 8 bytes after it, inside stage
// 0 (the static size was 32 bytes: 1 + padding + 24).
// RUN: pk-opt %t.tma.mlir --pipeline-kernel='arch=sm_90a variant=tma stages=3 min-blocks-per-sm=1 emit=cubin bare-ptr=1 out-dir=%t/tma-ring cuda-path=%cuda_path' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TMA-RING
// RUN: FileCheck %s --check-prefix=TMA-RING-PTX --input-file=%t/tma-ring/hgemm_wgmma_tma_f16_128x128x64.sm_90a.ptx
// TMA-RING: remark: pipelined: variant tma, 3 shared buffer(s)
// TMA-RING: remark: ptxas (sm_90a): {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack frame, 1024 bytes shared memory + 98304 bytes dynamic shared memory
// TMA-RING-PTX-NOT: .shared .align 1024 .b8 __dynamic_shmem__0;
// TMA-RING-PTX: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// TMA-RING-PTX-NOT: __dynamic_shmem__0 has been demoted
// TMA-RING-PTX: .visible .entry hgemm_wgmma_tma_f16_128x128x64(
// TMA-RING-PTX: .shared .align 8 .b8 __mbarrier[24];
// TMA-RING-PTX-NOT: .shared {{.*}}__dynamic_shmem__0
// TMA-RING-PTX: mbarrier.init.shared.b64 [__mbarrier], [[ONE:%r[0-9]+]];
// TMA-RING-PTX-NEXT: mbarrier.init.shared.b64 [__mbarrier+8], [[ONE]];
// TMA-RING-PTX-NEXT: mbarrier.init.shared.b64 [__mbarrier+16], [[ONE]];
// TMA-RING-PTX: mov.b64 %rd{{[0-9]+}}, __dynamic_shmem__0;
// schedule=warp-specialized: the kernel requires its grown block (PTX
// .reqntid 256, without the .maxntid ptxas refuses next to it), both rings
// of mbarriers are static shared variables before the .extern stages, the
// consumers synchronize on named barrier 1 of 128 threads, no spills.
// RUN: pk-opt %t.tma.mlir --pipeline-kernel='arch=sm_90a variant=tma schedule=warp-specialized stages=3 min-blocks-per-sm=1 emit=cubin bare-ptr=1 out-dir=%t/tma-ws cuda-path=%cuda_path' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TMA-WS
// RUN: FileCheck %s --check-prefix=TMA-WS-PTX --input-file=%t/tma-ws/hgemm_wgmma_tma_f16_128x128x64.sm_90a.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t/tma-ws/hgemm_wgmma_tma_f16_128x128x64.sm_90a.ptx
// TMA-WS: remark: pipelined: variant tma, 3 shared buffer(s), schedule warp-specialized
// TMA-WS: remark: ptxas (sm_90a): {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack frame
// TMA-WS-PTX: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// TMA-WS-PTX: .visible .entry hgemm_wgmma_tma_f16_128x128x64(
// TMA-WS-PTX-NOT: .maxntid
// TMA-WS-PTX: .reqntid 256, 1, 1
// TMA-WS-PTX-NOT: .maxntid
// TMA-WS-PTX: .shared .align 8 .b8 __mbarrier{{.*}}[24];
// TMA-WS-PTX: .shared .align 8 .b8 __mbarrier{{.*}}[24];
// TMA-WS-PTX: bar.sync 1, 128;
// Pipelined (ldg-register, 2 x 32 KB in dynamic shared memory): the PTX
// keeps the tiles in shared memory (no malloc, no local memory), builds each
// descriptor from the dynamic base plus the stage's offset (A at stage x
// 16384 bytes, B 32768 bytes further), and fences each tile's st.shared
// before the barrier that precedes its wgmma.
// RUN: pk-opt %examples/hgemm_wgmma_f16_128x128x64.mlir --pipeline-kernel='arch=sm_90a variant=ldg-register emit=cubin bare-ptr=1 out-dir=%t/wgmma-ldg cuda-path=%cuda_path' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WGMMA-LDG
// RUN: FileCheck %s --check-prefix=WGMMA-LDG-PTX --input-file=%t/wgmma-ldg/hgemm_wgmma_f16_128x128x64.sm_90a.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t/wgmma-ldg/hgemm_wgmma_f16_128x128x64.sm_90a.ptx
// WGMMA-LDG: remark: pipelined: variant ldg-register, 2 shared buffer(s)
// WGMMA-LDG: remark: ptxas (sm_90a): {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack frame, 0 bytes shared memory + 65536 bytes dynamic shared memory
// WGMMA-LDG-PTX: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// WGMMA-LDG-PTX: mov.b64 %[[BASE:rd[0-9]+]], __dynamic_shmem__0;
// WGMMA-LDG-PTX-COUNT-16: st.shared.v4
// WGMMA-LDG-PTX-NEXT: fence.proxy.async.shared::cta;
// WGMMA-LDG-PTX-NEXT: bar.sync 0;
// WGMMA-LDG-PTX: and.b64 %[[STAGE:rd[0-9]+]], %{{rd[0-9]+}}, 8192;
// WGMMA-LDG-PTX-NEXT: shl.b64 %[[SOFF:rd[0-9]+]], %[[STAGE]], 1;
// WGMMA-LDG-PTX-NEXT: add.s64 %[[ADDRA:rd[0-9]+]], %[[BASE]], %[[SOFF]];
// The descriptor's start address field: bits 4..17 of the address (with the
// 1024-aligned base LLVM knows the low bits: a shift and a mask of 16320).
// WGMMA-LDG-PTX-NEXT: shr.u64 %[[SA:rd[0-9]+]], %[[ADDRA]], 4;
// WGMMA-LDG-PTX-NEXT: and.b64 %{{rd[0-9]+}}, %[[SA]], 16320;
// WGMMA-LDG-PTX-NEXT: or.b64
// WGMMA-LDG-PTX-NEXT: add.s64 %[[ADDRB:rd[0-9]+]], %[[ADDRA]], 32768;
// WGMMA-LDG-PTX-NEXT: shr.u64 %[[SB:rd[0-9]+]], %[[ADDRB]], 4;
// WGMMA-LDG-PTX-NEXT: and.b64 %{{rd[0-9]+}}, %[[SB]], 16320;
// WGMMA-LDG-PTX: wgmma.fence.sync.aligned;
// WGMMA-LDG-PTX-COUNT-8: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// WGMMA-LDG-PTX: wgmma.wait_group.sync.aligned 0;
// WGMMA-LDG-PTX-NEXT: bar.sync 0;
// WGMMA-LDG-PTX-COUNT-16: st.shared.v4
// WGMMA-LDG-PTX-NEXT: fence.proxy.async.shared::cta;
// WGMMA-LDG-PTX-NEXT: bar.sync 0;
// cp.async, 3 stages (96 KB dynamic): at the top of the steady state the
// wait for the tile, the fence, the barrier; then the copies of tile k+2
// and the wgmma of tile k, which retires before the loop's back edge.
// RUN: pk-opt %examples/hgemm_wgmma_f16_128x128x64.mlir --pipeline-kernel='arch=sm_90a variant=cp-async stages=3 emit=cubin bare-ptr=1 out-dir=%t/wgmma-cp3 cuda-path=%cuda_path' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WGMMA-CP3
// RUN: FileCheck %s --check-prefix=WGMMA-CP3-PTX --input-file=%t/wgmma-cp3/hgemm_wgmma_f16_128x128x64.sm_90a.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t/wgmma-cp3/hgemm_wgmma_f16_128x128x64.sm_90a.ptx
// WGMMA-CP3: remark: pipelined: variant cp-async, 3 shared buffer(s)
// WGMMA-CP3: remark: ptxas (sm_90a): {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack frame, 0 bytes shared memory + 98304 bytes dynamic shared memory
// WGMMA-CP3-PTX: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// WGMMA-CP3-PTX: cp.async.commit_group;
// WGMMA-CP3-PTX: cp.async.commit_group;
// WGMMA-CP3-PTX: $L__BB0_[[LOOP:[0-9]+]]:
// WGMMA-CP3-PTX-NEXT: cp.async.wait_group 1;
// WGMMA-CP3-PTX-NEXT: fence.proxy.async.shared::cta;
// WGMMA-CP3-PTX-NEXT: bar.sync 0;
// WGMMA-CP3-PTX-COUNT-16: cp.async.cg.shared.global
// WGMMA-CP3-PTX: cp.async.commit_group;
// WGMMA-CP3-PTX: wgmma.fence.sync.aligned;
// WGMMA-CP3-PTX: wgmma.wait_group.sync.aligned 0;
// WGMMA-CP3-PTX: bra {{.*}}$L__BB0_[[LOOP]];
// WGMMA-CP3-PTX-NEXT: cp.async.wait_group 1;
// WGMMA-CP3-PTX-NEXT: fence.proxy.async.shared::cta;
// WGMMA-CP3-PTX-NEXT: bar.sync 0;
// WGMMA-CP3-PTX: cp.async.wait_group 0;
// WGMMA-CP3-PTX-NEXT: fence.proxy.async.shared::cta;
// WGMMA-CP3-PTX-NEXT: bar.sync 0;
// schedule=mma-in-flight, 4 stages: the loop's wgmma leaves one group in
// flight (wait_group 1 before the back edge), the copies run two tiles
// ahead, and wait_group 0 retires the last group after the epilogue.
// RUN: pk-opt %examples/hgemm_wgmma_f16_128x128x64.mlir --pipeline-kernel='arch=sm_90a variant=cp-async stages=4 schedule=mma-in-flight min-blocks-per-sm=1 emit=ptx bare-ptr=1 out-dir=%t/wgmma-mif cuda-path=%cuda_path' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WGMMA-MIF
// RUN: FileCheck %s --check-prefix=WGMMA-MIF-PTX --input-file=%t/wgmma-mif/hgemm_wgmma_f16_128x128x64.sm_90a.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t/wgmma-mif/hgemm_wgmma_f16_128x128x64.sm_90a.ptx
// WGMMA-MIF: remark: pipelined: variant cp-async, 4 shared buffer(s)
// WGMMA-MIF-PTX: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// WGMMA-MIF-PTX-COUNT-2: cp.async.commit_group;
// WGMMA-MIF-PTX: $L__BB0_[[LOOP:[0-9]+]]:
// WGMMA-MIF-PTX-NEXT: cp.async.wait_group 1;
// WGMMA-MIF-PTX-NEXT: fence.proxy.async.shared::cta;
// WGMMA-MIF-PTX-NEXT: bar.sync 0;
// WGMMA-MIF-PTX-COUNT-16: cp.async.cg.shared.global
// WGMMA-MIF-PTX: cp.async.commit_group;
// WGMMA-MIF-PTX: wgmma.fence.sync.aligned;
// WGMMA-MIF-PTX: wgmma.commit_group.sync.aligned;
// WGMMA-MIF-PTX-NEXT: wgmma.wait_group.sync.aligned 1;
// WGMMA-MIF-PTX: bra {{.*}}$L__BB0_[[LOOP]];
// WGMMA-MIF-PTX: wgmma.wait_group.sync.aligned 1;
// WGMMA-MIF-PTX: wgmma.wait_group.sync.aligned 1;
// WGMMA-MIF-PTX-NEXT: wgmma.wait_group.sync.aligned 0;
// WGMMA-MIF-PTX-NEXT: bar.sync 0;
// Two consumer warpgroups (gen_gemm.py --threads 256, docs/hopper.md): warpgroup
// w = tid / 128 runs m64n256k16 on rows 64w.. of sA (its descriptor 64w x 128
// bytes further: ((tid >> 1) & 64) << 7) and all of sB, the 256 threads copy
// the tiles (4 + 8 chunks each), and each thread stores its fragment with
// 8-byte st.global (2 x 32 pairs); 1 block/SM (nvvm.minctasm = 1) without
// spills. One warpgroup cannot take 128x256 (MLIR 22's store, 256 registers).
// RUN: python3 %examples/gen_gemm.py --kind hgemm --mma wgmma --threads 256 --BN 256 --M 512 --N 512 --K 512 -o %t.wg2-256.mlir
// RUN: pk-opt %t.wg2-256.mlir --pk-emit-binaries='arch=sm_90a emit=cubin bare-ptr=1 min-blocks-per-sm=0 out-dir=%t/wg2-256 cuda-path=%cuda_path' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WG2-256
// RUN: FileCheck %s --check-prefix=WG2-256-PTX --input-file=%t/wg2-256/hgemm_wgmma_f16_128x256x64.sm_90a.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t/wg2-256/hgemm_wgmma_f16_128x256x64.sm_90a.ptx
// RUN: not python3 %examples/gen_gemm.py --kind hgemm --mma wgmma --BN 256 2>&1 | FileCheck %s --check-prefix=WG1-256
// WG2-256-NOT: warning
// WG2-256: remark: ptxas (sm_90a): {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack frame, 49152 bytes shared memory; 1 blocks/SM (limited by registers)
// WG2-256-PTX: .shared .align 1024 .b8 {{.*}}_0[16384];
// WG2-256-PTX: .shared .align 1024 .b8 {{.*}}_1[32768];
// WG2-256-PTX: mov.u32 %r1, %tid.x;
// WG2-256-PTX-NEXT: cvt.u64.u32 %[[TID:rd[0-9]+]], %r1;
// WG2-256-PTX: shr.u64 %[[HALF:rd[0-9]+]], %[[TID]], 1;
// WG2-256-PTX-NEXT: and.b64 %[[WGROW:rd[0-9]+]], %[[HALF]], 64;
// WG2-256-PTX: shl.b64 %[[WGOFF:rd[0-9]+]], %[[WGROW]], 7;
// WG2-256-PTX-NEXT: add.s64 %{{rd[0-9]+}}, %{{rd[0-9]+}}, %[[WGOFF]];
// WG2-256-PTX-COUNT-12: ld.global.nc.v4
// WG2-256-PTX-COUNT-12: st.shared.v4
// WG2-256-PTX-NEXT: fence.proxy.async.shared::cta;
// WG2-256-PTX-NEXT: bar.sync 0;
// WG2-256-PTX-NEXT: wgmma.fence.sync.aligned;
// WG2-256-PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// WG2-256-PTX: wgmma.commit_group.sync.aligned;
// WG2-256-PTX-NEXT: wgmma.wait_group.sync.aligned 0;
// WG2-256-PTX-NEXT: bar.sync 0;
// WG2-256-PTX-COUNT-64: st.global.v2.b32
// WG2-256-PTX-NOT: st.global
// WG1-256: MLIR 22's warpgroup.mma.store offsets the second 64-row half of a 128-row accumulator by the first half's register count (BN/2), right only for BN = 128
// 128x128 with two warpgroups: m64n128k16, 2 blocks/SM.
// RUN: python3 %examples/gen_gemm.py --kind hgemm --mma wgmma --threads 256 --M 512 --N 512 --K 512 -o %t.wg2-128.mlir
// RUN: pk-opt %t.wg2-128.mlir --pk-emit-binaries='arch=sm_90a emit=cubin bare-ptr=1 min-blocks-per-sm=0 out-dir=%t/wg2-128 cuda-path=%cuda_path' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WG2-128
// RUN: FileCheck %s --check-prefix=WG2-128-PTX --input-file=%t/wg2-128/hgemm_wgmma_f16_128x128x64.sm_90a.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t/wg2-128/hgemm_wgmma_f16_128x128x64.sm_90a.ptx
// WG2-128-NOT: warning
// WG2-128: remark: ptxas (sm_90a): {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack frame, 32768 bytes shared memory; 2 blocks/SM
// WG2-128-PTX-COUNT-8: st.shared.v4
// WG2-128-PTX-NEXT: fence.proxy.async.shared::cta;
// WG2-128-PTX-NEXT: bar.sync 0;
// WG2-128-PTX-NEXT: wgmma.fence.sync.aligned;
// WG2-128-PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// WG2-128-PTX-COUNT-32: st.global.v2.b32
// WG2-128-PTX-NOT: st.global
// Two warpgroups, 128x256x64, cp.async x3 (144 KB dynamic): warpgroup w's A
// descriptor starts at the dynamic base + 64w x 128 bytes + stage x 16384,
// B's at base + 49152 + stage x 32768.
// RUN: pk-opt %t.wg2-256.mlir --pipeline-kernel='arch=sm_90a variant=cp-async stages=3 emit=cubin bare-ptr=1 out-dir=%t/wg2-cp3 cuda-path=%cuda_path' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WG2-CP3
// RUN: FileCheck %s --check-prefix=WG2-CP3-PTX --input-file=%t/wg2-cp3/hgemm_wgmma_f16_128x256x64.sm_90a.ptx
// RUN: FileCheck %s --check-prefix=NOLOCAL --input-file=%t/wg2-cp3/hgemm_wgmma_f16_128x256x64.sm_90a.ptx
// WG2-CP3: remark: pipelined: variant cp-async, 3 shared buffer(s)
// WG2-CP3: remark: ptxas (sm_90a): {{[0-9]+}} registers, 0 bytes spill stores, 0 bytes spill loads, 0 bytes stack frame, 0 bytes shared memory + 147456 bytes dynamic shared memory; 1 blocks/SM
// WG2-CP3-PTX: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// WG2-CP3-PTX: shr.u64 %[[HALF:rd[0-9]+]], %{{rd[0-9]+}}, 1;
// WG2-CP3-PTX-NEXT: and.b64 %[[WGROW:rd[0-9]+]], %[[HALF]], 64;
// WG2-CP3-PTX: mov.b64 %[[BASE:rd[0-9]+]], __dynamic_shmem__0;
// WG2-CP3-PTX: shl.b64 %[[WGOFF:rd[0-9]+]], %[[WGROW]], 7;
// WG2-CP3-PTX-NEXT: add.s64 %[[ABASE:rd[0-9]+]], %[[BASE]], %[[WGOFF]];
// WG2-CP3-PTX: cp.async.wait_group 1;
// WG2-CP3-PTX-NEXT: fence.proxy.async.shared::cta;
// WG2-CP3-PTX-NEXT: bar.sync 0;
// WG2-CP3-PTX: shl.b64 %[[SA:rd[0-9]+]], %[[STAGE:rd[0-9]+]], 14;
// WG2-CP3-PTX-NEXT: add.s64 %{{rd[0-9]+}}, %[[ABASE]], %[[SA]];
// WG2-CP3-PTX: shl.b64 %[[SB:rd[0-9]+]], %[[STAGE]], 15;
// WG2-CP3-PTX-NEXT: add.s64 %[[BST:rd[0-9]+]], %[[BASE]], %[[SB]];
// WG2-CP3-PTX-NEXT: add.s64 %{{rd[0-9]+}}, %[[BST]], 49152;
// WG2-CP3-PTX: wgmma.fence.sync.aligned;
// WG2-CP3-PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// WG2-CP3-PTX: wgmma.wait_group.sync.aligned 0;
// WG2-CP3-PTX: st.global.v2.b32
// NOLOCAL-NOT: malloc
// NOLOCAL-NOT: __local_depot
// NOLOCAL-NOT: .local
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

// REPORT: "kernel":"m::attr_trip3"
// REPORT-SAME: "ptxas":{"below_target":false,"blocks_per_sm":{{[0-9]+}},"dynamic_shared_bytes":0,"limit":"{{[a-z_]+}}","registers":{{[0-9]+}},"shared_bytes":8192,"spill_loads_bytes":0,"spill_stores_bytes":0,"stack_frame_bytes":0}

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
