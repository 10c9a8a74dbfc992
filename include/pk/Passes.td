//===- Passes.td - pk pass definitions ---------------------*- tablegen -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//

#ifndef PK_PASSES
#define PK_PASSES

include "mlir/Pass/PassBase.td"
include "pk/Enums.td"

// The options every analysis-based pass shares (and `pipeline-kernel`).
defvar pkTargetOptions = [
    Option<"arch", "arch", "std::string", /*default=*/"\"sm_86\"",
           "Target architecture: sm_75, sm_80, sm_86, sm_87, sm_89, sm_90 or "
           "sm_90a">,
    Option<"stages", "stages", "::mlir::pk::StageCount",
           /*default=*/"::mlir::pk::StageCount{2}",
           "Number of buffers multi-buffering creates: 2 to 8, or auto "
           "(from the budget and a latency model, docs/stages.md)">,
    Option<"minBlocksPerSM", "min-blocks-per-sm", "::mlir::pk::BlocksPerSM",
           /*default=*/"::mlir::pk::BlocksPerSM{-1}",
           "Resident blocks per SM the multi-buffered kernel must keep: a "
           "number, kernel (the kernel's nvvm.minctasm, else 2) or auto "
           "(pk chooses and sets nvvm.minctasm, docs/stages.md)">,
    Option<"blockSize", "block-size", "int64_t", /*default=*/"0",
           "Threads per block (0: from gpu.known_block_size, nvvm.reqntid "
           "or nvvm.maxntid)">,
    Option<"regsPerThread", "regs-per-thread", "int64_t", /*default=*/"0",
           "Registers per thread (0: the kernel's pk.regs_per_thread "
           "attribute, else 128)">,
];

// The decision's options (pk-pipeline-kloops and pipeline-kernel).
defvar pkDecisionOptions = [
    Option<"variant", "variant", "::mlir::pk::PipelineVariant",
           /*default=*/"::mlir::pk::PipelineVariant::Auto",
           "Pipelining variant", PKOptionValues<PK_PipelineVariant>.values>,
    Option<"schedule", "schedule", "::mlir::pk::PipelineSchedule",
           /*default=*/"::mlir::pk::PipelineSchedule::Auto",
           "Order of a pipelined iteration",
           PKOptionValues<PK_PipelineSchedule>.values>,
    Option<"skipHighRatio", "skip-high-ratio", "bool", /*default=*/"false",
           "With variant=auto, do not pipeline loops whose compute/load "
           "ratio exceeds 20 (the procedure's literal rule)">,
    Option<"compileCandidates", "compile-candidates", "bool",
           /*default=*/"true",
           "With stages=auto or min-blocks-per-sm=auto, compile the "
           "candidates (pk's lowering and ptxas, in-process) and decide with "
           "their registers and spills; false: the model alone "
           "(docs/stages.md)">,
];

// Where the JSON report goes.
defvar pkReportOptions = [
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write the JSON report (one object per loop and line) to this "
           "file; '-' for stderr">,
    Option<"reportAppend", "report-append", "bool", /*default=*/"false",
           "Append to the report file instead of truncating it (e.g. to "
           "collect the chunks of -split-input-file)">,
];

// How much a pass says about what pk does not consider (Coverage.h): a
// kernel without a K-loop candidate and a loop that looks like a K-loop pk
// cannot take always get a remark; with `verbose`, every other loop of a
// kernel does too. Default true in pk-analyze-kloops, false elsewhere.
class PKVerboseOption<string default>
    : Option<"verbose", "verbose", "bool", default,
             "Also remark on every loop of a kernel that is not a K-loop "
             "candidate (epilogue loops, loops without barriers), saying "
             "why">;

// The emission options (pk-emit-binaries and pipeline-kernel).
defvar pkEmitOptions = [
    Option<"outDir", "out-dir", "std::string", /*default=*/"\".\"",
           "Directory for the artefacts (created if missing)">,
    Option<"cudaPath", "cuda-path", "std::string", /*default=*/"\"\"",
           "CUDA toolkit root for ptxas (default: $CUDA_HOME, then "
           "/usr/local/cuda)">,
    Option<"barePtr", "bare-ptr", "bool", /*default=*/"false",
           "Static-shape memref kernel arguments become bare device "
           "pointers (use-bare-ptr-memref-call-conv)">,
];

def PKNormalizeWorkgroupStorage
    : Pass<"pk-normalize-workgroup-storage", "ModuleOp"> {
  let summary = "Turn workgroup allocations into workgroup attributions";
  let description = [{
    Upstream's NVVM lowering turns a workgroup `memref.alloc` inside a
    `gpu.func` into a malloc call and a `memref.alloca` into per-thread local
    memory; only workgroup attributions and workgroup `memref.global`s become
    `.shared`. This pass rewrites every static workgroup allocation of a
    kernel (typed, or `i8` viewed once at offset 0 through `memref.view`, as
    upstream's `structured.promote` emits; its deallocs are erased) and every
    private workgroup `memref.global` used once and viewed that way into a
    typed, 16-byte aligned workgroup attribution, with a remark per kernel.
    `pipeline-kernel` runs it first; `pk-pipeline-kloops` runs it too.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def PKUseLdmatrix : Pass<"pk-use-ldmatrix", "ModuleOp"> {
  let summary = "Load mma.sync operands from shared memory with ldmatrix";
  let description = [{
    Rewrites each kernel's 16-bit shared `vector.transfer_read`s whose lanes
    read the ldmatrix layout (each lane two elements of a row of an 8x8
    matrix, or of a column: the transposed B operand), checked for every
    thread of the kernel's `known_block_size` in warp-uniform control flow,
    into `nvgpu.ldmatrix` ops (four matrices each where the read has them)
    and a `vector.from_elements` of their elements. ldmatrix needs 16-byte
    aligned rows: a workgroup attribution whose rows are not is re-padded
    to an odd number of 16-byte chunks first, when no use depends on its
    row size. IREE's TileAndFuse matmuls read their operands this way with
    2- and 4-byte loads from rows padded to 8 bytes. One remark per kernel
    it changes; a read it cannot prove stays as it is.
    `pipeline-kernel` runs it after `pk-normalize-workgroup-storage`
    (`ldmatrix=false` skips it).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::nvgpu::NVGPUDialect",
                           "::mlir::vector::VectorDialect"];
}

def PKFlattenTileLoops : Pass<"pk-flatten-tile-loops", "ModuleOp"> {
  let summary = "Flatten a persistent kernel's tile loop and its TMA K-loop "
                "into one loop over (tile, k-step)";
  let description = [{
    A persistent kernel loops over output tiles around its K-loop and the
    tile's epilogue. Each `scf.for` of a kernel with exactly one K-loop
    directly in its body, a TMA K-loop (`nvgpu.tma.async.load` in its
    body), becomes one loop over (tile, k-step): the code before the K-loop
    and the K-loop's body run every iteration, the code after the K-loop
    runs in an `scf.if` on the tile's last k-step (`pk.tile_epilogue`),
    which hands the accumulators' initial values to the next tile.
    `pk-pipeline-kloops` then pipelines that loop across the tile boundary:
    the next tile's first TMA loads are issued while the current tile's
    last k-steps and its epilogue run, on one mbarrier ring. A nest it
    cannot flatten (values carried across tiles, side effects before the
    K-loop, an epilogue that synchronizes or touches shared memory, a
    K-loop whose k-steps are not static and even, a wait parity that is not
    the k-step modulo 2) gets a remark at the op that breaks it and stays
    as it is. One remark per nest. `pipeline-kernel` runs it before the
    analysis and gives a kernel its nest back when the flat loop is not
    pipelined.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::NVVM::NVVMDialect",
                           "::mlir::scf::SCFDialect"];
}

def PKAnalyzeKLoops : Pass<"pk-analyze-kloops"> {
  let summary = "Analyze tiled GPU K-loops: shared memory, occupancy, "
                "compute/load ratio and pipelining variant";
  let description = [{
    Finds every `scf.for` inside a `gpu.func` whose body holds a
    `gpu.barrier`, and matches it against pk's input contract
    (docs/input-contract.md): a load phase copying tiles from global to
    shared memory, `gpu.barrier`, a compute phase reading shared memory,
    `gpu.barrier`, and accumulators in `iter_args`.

    For every matched loop it emits a remark summarizing the analysis and
    (with `report=<path>`, `-` for stderr) writes one JSON object per loop,
    one per line: trip count, shared buffers, `smem.{single,per_stage,multi,
    cliff}_bytes`, occupancy single- and multi-buffered with the limiting
    resource, FLOPs and bytes per tile, the compute/load ratio, and the
    variant the pipelining procedure's rule selects with its reasons
    (docs/report.md). A loop that has barriers but does not match gets a
    remark naming what did not match, and so does everything else pk passes
    over: a kernel without a K-loop candidate, a barrier loop that is not an
    `scf.for` (`affine.for`: run lower-affine), an `scf.for` whose barrier is
    `nvvm.barrier0` or nested in an `scf.if`, a barrier loop outside a
    kernel, and with `verbose` (the default here) every other loop of a
    kernel ("not a pk K-loop: no gpu.barrier in its body"). The IR is never
    changed.

    It decides each loop as pk-pipeline-kloops would with the same options
    (`variant`, `schedule`, `compile-candidates`), and keeps the decisions
    in the analysis manager: a pk-check-smem-budget or pk-pipeline-kloops
    right after it on the same operation uses them instead of deciding
    again (docs/architecture.md, "Entry points").

    The pass runs on any operation and visits the loops nested in it, so a
    compiler can nest it in its own pipeline, e.g.
    `builtin.module(gpu.module(pk-analyze-kloops))`. The copies of the pass
    that run on several operations share one report file: the first
    truncates it (unless `report-append`), the others append whole lines.

    Example:

    ```mlir
    %r = scf.for %k = %c0 to %c4096 step %c32 iter_args(%acc = %init) ... {
      %v = vector.load %A[%row, %k] : memref<4096x4096xf16>, vector<8xf16>
      vector.store %v, %smemA[%r, %c] : memref<128x40xf16, 3>, vector<8xf16>
      gpu.barrier
      %a = nvgpu.ldmatrix %smemA[...] {numTiles = 4 : i32, transpose = false}
      %d = nvgpu.mma.sync(%a, %b, %acc) {mmaShape = [16, 8, 16]} ...
      gpu.barrier
      scf.yield %d : vector<2x2xf32>
    }
    ```

    gives `remark: K-loop: trip count 128, 2 copied buffer(s), shared memory
    16384 B single / 16384 B per stage / 32768 B with 2 stages (cliff 50176 B
    for 2 blocks/SM on sm_86), ..., ratio 64.0 FLOP/B, variant cp-async`.
  }];
  let options = !listconcat(pkTargetOptions, pkReportOptions, [
    Option<"skipHighRatio", "skip-high-ratio", "bool", /*default=*/"false",
           "Select no pipelining when the compute/load ratio exceeds 20 "
           "(the procedure's literal rule)">,
    Option<"variant", "variant", "::mlir::pk::PipelineVariant",
           /*default=*/"::mlir::pk::PipelineVariant::Auto",
           "Decide as pk-pipeline-kloops would with this variant",
           PKOptionValues<PK_PipelineVariant>.values>,
    Option<"schedule", "schedule", "::mlir::pk::PipelineSchedule",
           /*default=*/"::mlir::pk::PipelineSchedule::Auto",
           "Decide as pk-pipeline-kloops would with this schedule",
           PKOptionValues<PK_PipelineSchedule>.values>,
    Option<"compileCandidates", "compile-candidates", "bool",
           /*default=*/"false",
           "With stages=auto or min-blocks-per-sm=auto, compile the "
           "candidates as pk-pipeline-kloops does (default: the model "
           "alone)">,
    Option<"cudaPath", "cuda-path", "std::string", /*default=*/"\"\"",
           "CUDA toolkit root for the ptxas of compile-candidates">,
    PKVerboseOption<"true">,
  ]);
}

def PKCheckSmemBudget : Pass<"pk-check-smem-budget"> {
  let summary = "Reject multi-buffering that exceeds the per-block shared "
                "memory maximum or crosses the occupancy cliff";
  let description = [{
    For every K-loop that matches pk's input contract, computes the shared
    memory the kernel needs with `stages` copies of the buffers the load
    phase writes, and the resident blocks per SM before and after. It emits
    an error on the loop, and the pass fails, when

    * the multi-buffered kernel exceeds the target's per-block maximum
      (with opt-in), or
    * blocks/SM drop below `min-blocks-per-sm` (the occupancy cliff; on
      sm_86 two blocks/SM allow at most 50176 bytes per block).

    The error carries every number (bytes needed, the limit, blocks/SM
    before and after, the limiting resource) and the pipelining procedure's
    remedies with concrete sizes: halving BK (every copied tile shrinks),
    halving the tile copied from one source (BM or BN), or register prefetch
    without doubling. Loops within budget get a remark; the IR is never
    changed.

    With `verbose`, the loops that do not match and everything pk passes
    over get the remarks of pk-analyze-kloops. Like pk-analyze-kloops it
    runs on any operation (e.g.
    `builtin.module(gpu.module(pk-check-smem-budget))`).

    Example (sm_86, 2 stages, 28 KB single-buffered):

    ```
    error: multi-buffering with 2 stages needs 57344 bytes of shared memory
    per block, above the sm_86 cliff of 50176 bytes for 2 blocks/SM
    (blocks/SM 3 -> 1, limited by shared_memory); remedies: ...
    ```
  }];
  let options = !listconcat(pkTargetOptions, [PKVerboseOption<"false">]);
}

def PKPipelineKLoops : Pass<"pk-pipeline-kloops"> {
  let summary = "Software-pipeline tiled GPU K-loops with double buffering "
                "(cp.async or register prefetch)";
  let description = [{
    The pipelining procedure's Steps 2-4. For every K-loop that matches pk's input
    contract, picks a variant (`variant=auto`: the ratio rule from the
    compute/load ratio, cp.async availability and the occupancy cliff),
    multi-buffers the shared buffers the load phase writes (a leading stage
    dimension, in all three allocation forms) and restructures the loop into
    prologue / steady-state loop / epilogue with upstream
    `scf::pipelineForLoop`. Each loop gets a remark with the decision and
    why; with `report=<path>` the JSON report of pk-analyze-kloops gains a
    `decision` object. On any unsupported pattern the loop stays untouched
    and the remark says why; kernels and loops pk passes over get a remark
    as in pk-analyze-kloops (every other loop of a kernel only with
    `verbose`).

    Each loop goes through `pipelineKernelLoop` (PipelineKernelLoop.h), the
    entry point the transform op `transform.pk.pipeline_kloop` and embedding
    compilers call. The pass runs on any operation and changes only the
    loops nested in it and their kernels, so it nests under `gpu.module`
    (`builtin.module(gpu.module(pk-pipeline-kloops{arch=sm_90}))`) or
    `gpu.func`; anchored below the `gpu.module`, it declines loops whose
    copied buffers are `memref.global`s (multi-buffering replaces the
    global in the module). The report file is shared as in
    pk-analyze-kloops.

    Before (`variant=cp-async`):

    ```mlir
    %r = scf.for %k = %c0 to %c128 step %c32 iter_args(%acc = %init) {
      %v = vector.load %A[%i, %k] : memref<128x128xf16>, vector<8xf16>
      vector.store %v, %smem[%j, %c0] : memref<64x32xf16, 3>, vector<8xf16>
      gpu.barrier
      ... compute on %smem ...
      gpu.barrier
      scf.yield %d
    }
    ```

    After (smem is now `memref<2x64x32xf16, 3>`):

    ```mlir
    %t0 = nvgpu.device_async_copy %A[%i, %c0], %smem[%c0, %j, %c0], 8 {bypassL1}
    %g0 = nvgpu.device_async_create_group %t0
    nvgpu.device_async_wait %g0 {numGroups = 0 : i32}
    gpu.barrier
    %r = scf.for %k = %c0 to %c96 step %c32 iter_args(%acc = %init) {
      // load tile t+1 into buf[(t+1)%2]
      %t = nvgpu.device_async_copy %A[%i, %k1], %smem[%next, %j, %c0], 8 {bypassL1}
      %g = nvgpu.device_async_create_group %t
      ... compute on buf[t%2] ...
      nvgpu.device_async_wait %g {numGroups = 0 : i32}
      gpu.barrier
      scf.yield %d
    }
    ... epilogue: compute on buf[(n-1)%2] ...
    gpu.barrier
    ```

    `ldg-register` loads tile t+1 into registers before the compute, then
    `gpu.barrier`, stores the registers into buf[(t+1)%2], `gpu.barrier`.
    `register-prefetch` does the same with the single buffer (no doubling),
    the procedure's fallback when doubling crosses the cliff.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect"];
  let options = !listconcat(pkTargetOptions, pkDecisionOptions,
                            pkReportOptions, [
    Option<"remarkMismatches", "remark-mismatches", "bool",
           /*default=*/"true",
           "Remark on loops with barriers that do not match the input "
           "contract (pipeline-kernel leaves that to pk-analyze-kloops)">,
    PKVerboseOption<"false">,
    Option<"testFailLate", "test-fail-late", "bool", /*default=*/"false",
           "Testing only: make upstream's pipeliner reject the schedule "
           "after pk changed the IR (the internal-error path)">,
    Option<"requireAnalysis", "require-analysis", "bool",
           /*default=*/"false",
           "Apply the decisions of the pk-analyze-kloops run just before on "
           "the same operation with the same options (pipeline-kernel sets "
           "it): a loop of an unchanged kernel without one is an internal "
           "error instead of being decided again">,
    Option<"cudaPath", "cuda-path", "std::string", /*default=*/"\"\"",
           "CUDA toolkit root for the ptxas of compile-candidates (default: "
           "$CUDA_HOME, then /usr/local/cuda)">,
  ]);
}

def PKEmitBinaries : Pass<"pk-emit-binaries", "ModuleOp"> {
  let summary = "Lower each gpu.module to LLVM IR, PTX and a cubin, and "
                "report ptxas' resource usage";
  let description = [{
    The pipelining procedure's Step 4 (compile). For every `gpu.module`, a copy is
    lowered with pk's pipeline (docs/lowering.md):

    ```
    nvvm-attach-target{chip=<arch> features=+ptx<NN> O=3},
    gpu.module(pk-lower-bf16-mma-sync, convert-nvgpu-to-nvvm,
               convert-vector-to-scf{full-unroll}, pk-lower-transfers,
               pk-prove-shared-alignment, expand-strided-metadata,
               lower-affine, convert-scf-to-cf, convert-nvvm-to-llvm,
               convert-gpu-to-nvvm, convert-vector-to-llvm,
               convert-arith-to-llvm, convert-index-to-llvm,
               convert-ub-to-llvm, pk-allow-contraction,
               llvm-optimize-for-nvvm-target, canonicalize, cse,
               reconcile-unrealized-casts, pk-dynamic-smem-base,
               pk-required-block-size),
    gpu-module-to-binary{format=isa|llvm}
    ```

    and written to `<out-dir>/<module>.<arch>.ll` (emit=llvm) or
    `<module>.<arch>.ptx` (emit=ptx, cubin); with emit=cubin, ptxas
    (`<cuda-path>/bin/ptxas -arch=<arch> -O3 -v`) assembles
    `<module>.<arch>.cubin` and pk parses its resource usage per kernel:
    registers, spill stores/loads, stack frame, shared memory. Each kernel
    gets a remark with them and the occupancy recomputed with the real
    register count; a warning when that occupancy is below
    `min-blocks-per-sm` (the cliff crossed after the fact). With `report`,
    one JSON line per kernel (`kernel`, `arch`, `threads_per_block`,
    `ptxas`) goes to the report, after the lines of pk-analyze-kloops or
    pk-pipeline-kloops with `report-append` (pipeline-kernel sets it); a
    reader joins them on `kernel` and `arch` (docs/report.md).
    The IR itself is not changed.
  }];
  let options = !listconcat(pkEmitOptions, [
    Option<"arch", "arch", "std::string", /*default=*/"\"sm_86\"",
           "Target architecture">,
    Option<"emit", "emit", "::mlir::pk::EmitKind",
           /*default=*/"::mlir::pk::EmitKind::Cubin",
           "Artefacts to write: llvm, ptx or cubin", PKOptionValues<PK_EmitKind>.values>,
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "Write one JSON line per kernel with ptxas' numbers to this "
           "report ('-': stderr)">,
    Option<"reportAppend", "report-append", "bool", /*default=*/"false",
           "Append to the report instead of truncating it (after the "
           "lines of pk-pipeline-kloops or pk-analyze-kloops)">,
    Option<"minBlocksPerSM", "min-blocks-per-sm", "int64_t",
           /*default=*/"2",
           "Blocks per SM below which the real occupancy is a warning (0: "
           "each kernel's nvvm.minctasm, else 2)">,
  ]);
}

def PKPipelineKernel : Pass<"pipeline-kernel", "ModuleOp"> {
  let summary = "pk's one-flag entry point: analyze, check the budget, "
                "pipeline, clean up and optionally emit PTX / cubins";
  let description = [{
    Runs, as one nested pipeline on the module: `pk-analyze-kloops`
    (remarks), `pk-check-smem-budget` (for the explicit doubling variants
    cp-async and ldg-register; with variant=auto the decision falls back to
    register prefetch instead), `pk-pipeline-kloops` (decision remarks and
    the JSON report), `canonicalize`, `cse`, and with `emit` other than
    `mlir`, `pk-emit-binaries`. The analysis decides each loop with these
    options and the pipelining step applies those decisions
    (`require-analysis`): one match and one decision per loop.
    `buildPipelineKernelPipeline` adds the same
    passes to a caller's pass manager; both take `PipelineKernelOptions`
    (these options).
  }];
  let options = !listconcat(pkTargetOptions, pkDecisionOptions, [
    Option<"report", "report", "std::string", /*default=*/"\"\"",
           "JSON report path, one object per loop ('-': stderr; default "
           "with emit: <out-dir>/report.json)">,
    Option<"emit", "emit", "::mlir::pk::EmitKind",
           /*default=*/"::mlir::pk::EmitKind::MLIR",
           "Artefacts to write besides the IR: mlir (none), llvm, ptx or "
           "cubin", PKOptionValues<PK_EmitKind>.values>,
    Option<"ldmatrix", "ldmatrix", "bool", /*default=*/"true",
           "Load mma.sync operands with ldmatrix first (pk-use-ldmatrix)">,
    PKVerboseOption<"false">,
  ], pkEmitOptions);
}

#endif // PK_PASSES
