//===- Pipelining.h - Apply a pipeline plan to a K-loop ---------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The fourth stage of pk's data flow (docs/architecture.md), the pipelining
// procedure's Steps 2-4 as a transformation: apply the plan `decide` built
// (Plan.h) to a matched K-loop. Multi-buffer the shared tiles its load phase
// writes and restructure the loop into prologue / steady-state loop /
// epilogue so that the loads of the next tiles overlap the compute of tile
// t. The restructuring itself is upstream's `scf::pipelineForLoop`, driven
// by one named schedule per variant (lib/Transforms/Schedule.cpp); the
// steps are declared in PipelineSteps.h. On success the steady-state loop
// carries `pk.pipelined`.
//
//===----------------------------------------------------------------------===//

#ifndef PK_PIPELINING_H
#define PK_PIPELINING_H

#include "pk/Decline.h"
#include "pk/Plan.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace pk {

/// Options of `applyPipelinePlan` that are not decisions.
struct ApplyPlanOptions {
  /// Testing only: make upstream's pipeliner reject the schedule after pk
  /// changed the IR, to exercise the internal-error path.
  bool testFailLate = false;
};

/// What `applyPipelinePlan` made of a K-loop.
struct PipelinedKLoop {
  /// The steady-state loop (it carries `pk.pipelined`).
  scf::ForOp loop;
  /// The operations upstream's pipeliner peeled before the loop (the first
  /// stages of the first tiles), in program order: the clones the
  /// `PipeliningOption::annotateFn` callback sees as `Prologue`, not the
  /// index arithmetic the pipeliner adds around them.
  SmallVector<Operation *> prologue;
  /// The operations it peeled after the loop (the last stages of the last
  /// tiles; `Epilogue` for annotateFn), then the barrier pk adds after them
  /// for cp-async.
  SmallVector<Operation *> epilogue;
};

/// Checks every precondition of applying `plan` to `info` without changing
/// the IR: the strategy fits the loop (checkStrategyForLoop), the loop
/// bounds' arithmetic does not wrap, every use of a copied buffer is an
/// access pk can redirect to a stage (inside the loop, indices independent
/// of the induction variable), the wgmma operands (proxy-fenced,
/// waitGroup = 0, descriptors in the compute phase, 1024-byte stages), the
/// TMA ring's parity and warp specialization's kernel shape, the register
/// variants' stores directly in the loop body. Declines at the culprit op.
DeclineOr<void> checkPipelinePlan(const KLoopInfo &info,
                                  const PipelinePlan &plan);

/// Applies `plan` to the matched K-loop `info`.
///
/// Everything that can fail is checked before the first IR change
/// (checkPipelinePlan): on such a Decline nothing changed and `*modifiedIR`
/// is false. A failure after it (`*modifiedIR` true, as with
/// `scf::pipelineForLoop`) is an internal error: the IR is then invalid and
/// the caller must fail. On success returns the steady-state loop with the
/// prologue and epilogue ops (with run-time versioning, all three sit in
/// the `scf.if` branch that runs the pipelined loop); `info` is stale.
DeclineOr<PipelinedKLoop> applyPipelinePlan(
    RewriterBase &rewriter, const KLoopInfo &info, const PipelinePlan &plan,
    const ApplyPlanOptions &options = {}, bool *modifiedIR = nullptr);

/// Rewrites the workgroup storage of `kernel` that upstream's NVVM lowering
/// would not place in shared memory into typed, 16-byte aligned workgroup
/// attributions: every static workgroup `memref.alloc` / `memref.alloca`
/// (malloc and per-thread local memory otherwise), typed or `i8` viewed once
/// at offset 0 through `memref.view` (its deallocs are erased), and every
/// private workgroup `memref.global` used once and viewed that way (what
/// upstream's `structured.promote` and `alloca_to_global` emit; only with
/// `globals`, since it erases the global from the gpu.module). Returns how
/// many buffers it rewrote; storage used otherwise is left alone.
/// pk's stage 0 (docs/architecture.md).
int64_t normalizeWorkgroupStorage(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                                  bool globals = true);

/// Inlines the `scf.if` guards (no results, no else branch) inside loops of
/// `kernel` whose condition every thread of its known block size meets
/// (upstream's integer range analysis: IREE VectorDistribute's
/// `gpu.thread_id y == 0` under known_block_size (C, 1, 1)). Returns how many.
int64_t foldUniformGuards(RewriterBase &rewriter, gpu::GPUFuncOp kernel);

} // namespace pk
} // namespace mlir

#endif // PK_PIPELINING_H
