//===- TransformOps.td - pk's transform dialect extension --*- tablegen -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// `transform.pk.*`: pk's analysis and pipelining of one K-loop as transform
// dialect operations, for compilers that drive their code generation with
// transform scripts. Both go through `pipelineKernelLoop`
// (PipelineKernelLoop.h), as the passes do.
//
//===----------------------------------------------------------------------===//

#ifndef PK_TRANSFORMOPS
#define PK_TRANSFORMOPS

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

// The request attributes both ops share, with the defaults of the passes.
defvar pkRequestAttrs = (ins
    DefaultValuedStrAttr<StrAttr, "sm_86">:$arch,
    DefaultValuedAttr<I64Attr, "2">:$stages,
    DefaultValuedAttr<I64Attr, "0">:$min_blocks_per_sm,
    DefaultValuedAttr<I64Attr, "0">:$block_size,
    DefaultValuedAttr<I64Attr, "0">:$regs_per_thread,
    UnitAttr:$skip_high_ratio);

def PipelineKLoopOp : Op<Transform_Dialect, "pk.pipeline_kloop",
    [FunctionalStyleTransformOpTrait,
     MemoryEffectsOpInterface,
     DeclareOpInterfaceMethods<TransformOpInterface>,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "Software-pipelines a tiled GPU K-loop with pk";
  let description = [{
    Runs pk on every `scf.for` the `target` handle points to, as
    `pk-pipeline-kloops` does on one loop: matches it against pk's input
    contract (docs/input-contract.md), decides the variant, the number of
    shared buffers and the cp-async schedule for `arch`, multi-buffers the
    tiles the load phase writes and restructures the loop into prologue /
    steady-state loop / epilogue.

    The attributes are the options of `pk-pipeline-kloops`: `arch` (sm_75 to
    sm_90a, default sm_86), `stages` (2 to 8; 0 for auto, docs/stages.md),
    `variant` (`auto`, `cp-async`, `ldg-register`, `register-prefetch`),
    `schedule` (`auto`, `two-stage`, `multistage`, `mma-in-flight`,
    `warp-specialized`), `min_blocks_per_sm` (a
    number; 0, the default: the kernel's launch bounds `nvvm.minctasm`, else
    2, the passes' `kernel`; -1: `auto`, docs/stages.md),
    `block_size`, `regs_per_thread` (0: from the kernel) and
    `skip_high_ratio`. `test_fail_late` is for pk's tests only.

    Example:

    ```mlir
    %b = transform.structured.match ops{["gpu.barrier"]} in %root
        : (!transform.any_op) -> !transform.any_op
    %loop = transform.get_parent_op %b {op_name = "scf.for", deduplicate}
        : (!transform.any_op) -> !transform.any_op
    %steady, %prologue, %epilogue =
        transform.pk.pipeline_kloop %loop {arch = "sm_90", stages = 3}
        : (!transform.any_op)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    ```

    #### Return modes

    Consumes the `target` handle and produces three handles, each over every
    loop pk pipelined, in the order of `target`:
    - `loop`: the steady-state loop (it carries `pk.pipelined`), one per
      pipelined loop;
    - `prologue`: the operations upstream's pipeliner peeled before it, in
      program order: the copies of the loop body's early-stage ops for the
      first tiles (for cp-async the copies, their
      `nvgpu.device_async_create_group` and the body's index arithmetic
      they use, e.g. the stage index of the multi-buffered tiles), not the
      induction-variable arithmetic the pipeliner adds around them;
    - `epilogue`: the operations it peeled after the loop, the late stages
      of the last tiles (waits, barriers, compute), then, for cp-async, the
      `gpu.barrier` pk adds after them.
    A pipelined loop always has a prologue and an epilogue. With a dynamic
    trip count pk versions the loop first: the three sit in the `scf.if`
    branch that runs when the trip count reaches the stages, and the
    unpipelined copy in the other branch (`pk.fallback`) is in none of the
    handles. The handles are empty when no loop was pipelined (an empty
    `target`, or every loop declined).

    When pk declines a loop (not a K-loop, the decision is none, or a
    precondition of the transform fails) the IR of that loop is unchanged,
    the loop contributes to none of the results and the op produces a
    silenceable failure whose message is pk's reason, the text of
    pk-pipeline-kloops' remark (e.g. `not pipelined: trip count 1 < 2: no
    next tile to overlap`), with a note at the loop; the other loops are
    still pipelined. A `target` op that is not an `scf.for` is a silenceable
    failure too. An internal error after pk changed the IR is a definite
    failure. Pipelining erases the loop and what it holds, so the handle
    should not also hold loops nested in another of its loops.
  }];

  let arguments = !con((ins TransformHandleTypeInterface:$target),
      pkRequestAttrs,
      (ins DefaultValuedStrAttr<StrAttr, "auto">:$variant,
           DefaultValuedStrAttr<StrAttr, "auto">:$schedule,
           UnitAttr:$test_fail_late));
  let results = (outs TransformHandleTypeInterface:$loop,
                      TransformHandleTypeInterface:$prologue,
                      TransformHandleTypeInterface:$epilogue);

  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def AnalyzeKLoopOp : Op<Transform_Dialect, "pk.analyze_kloop",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
     TransformEachOpTrait,
     TransformOpInterface]> {
  let summary = "Attaches pk's analysis of a K-loop as a `pk.analysis` "
                "attribute";
  let description = [{
    Runs pk's analysis and decision on every `scf.for` the `target` handle
    points to, as `pk-analyze-kloops` does, and attaches the result to the
    loop as the dictionary attribute `pk.analysis`: the loop's JSON report
    object (docs/report.md) with the same keys (whole numbers as `i64`,
    others as `f64`, `null` as a unit attribute). The loop itself is not
    changed. The attributes are those of `transform.pk.pipeline_kloop`
    without `variant` and `schedule`.

    ```mlir
    transform.pk.analyze_kloop %loop {arch = "sm_90"} : !transform.any_op
    ```

    gives `scf.for ... {pk.analysis = {arch = "sm_90", ..., ratio = 32 :
    i64, ..., trip_count = 64 : i64, variant = "cp-async"}}`. Pipelining
    replaces the loop, so the attribute does not carry over to the
    steady-state loop.

    #### Return modes

    Only reads the `target` handle. A loop that is not a K-loop gets no
    attribute and the op produces a silenceable failure whose message names
    what did not match.
  }];

  let arguments = !con((ins TransformHandleTypeInterface:$target),
                       pkRequestAttrs);
  let results = (outs);

  let assemblyFormat = "$target attr-dict `:` type($target)";
  let hasVerifier = 1;

  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::scf::ForOp forOp,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

def FlattenTileLoopOp : Op<Transform_Dialect, "pk.flatten_tile_loop",
    [FunctionalStyleTransformOpTrait,
     MemoryEffectsOpInterface,
     TransformEachOpTrait,
     TransformOpInterface,
     ReportTrackingListenerFailuresOpTrait]> {
  let summary = "Flattens a persistent kernel's tile loop and its TMA K-loop "
                "into one loop";
  let description = [{
    Rewrites every `scf.for` the `target` handle points to that is a tile
    loop around a TMA K-loop (a persistent kernel) into one loop over
    (tile, k-step), as `pk-flatten-tile-loops` does (include/pk/TileLoops.h,
    docs/hopper.md "Persistent kernels"): the code after the K-loop runs in
    a `pk.tile_epilogue` `scf.if` on each tile's last k-step. The result
    handle points to the flat loops, which `transform.pk.pipeline_kloop`
    then pipelines across the tile boundary.

    ```mlir
    %flat = transform.pk.flatten_tile_loop %tiles
        : (!transform.any_op) -> !transform.any_op
    %l, %p, %e = transform.pk.pipeline_kloop %flat {arch = "sm_90a", ...}
    ```

    #### Return modes

    Consumes the `target` handle. A loop pk cannot flatten is left as it is
    and the op produces a silenceable failure that says why, with a note at
    the operation that breaks it.
  }];

  let arguments = (ins TransformHandleTypeInterface:$target);
  let results = (outs TransformHandleTypeInterface:$flat);

  let assemblyFormat = [{
    $target attr-dict `:` functional-type(operands, results)
  }];

  let extraClassDeclaration = [{
    ::mlir::DiagnosedSilenceableFailure applyToOne(
        ::mlir::transform::TransformRewriter &rewriter,
        ::mlir::scf::ForOp forOp,
        ::mlir::transform::ApplyToEachResultList &results,
        ::mlir::transform::TransformState &state);
  }];
}

#endif // PK_TRANSFORMOPS
