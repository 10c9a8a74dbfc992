//===- Pipelining.h - Software pipelining of tiled GPU K-loops --*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The fourth stage of pk's data flow (docs/architecture.md), the seed
// procedure's Steps 2-4 as a transformation: multi-buffer the shared tiles a
// K-loop's load phase writes and restructure the loop into prologue /
// steady-state loop / epilogue so that the loads of the next tiles overlap
// the compute of tile t. The restructuring itself is upstream's
// `scf::pipelineForLoop`, driven by one named schedule per variant
// (lib/Transforms/Schedule.cpp). On success the steady-state loop carries
// `pk.pipelined`.
//
//===----------------------------------------------------------------------===//

#ifndef PK_PIPELINING_H
#define PK_PIPELINING_H

#include "pk/Decision.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace pk {

/// Options of `pipelineKLoop`; `decide` (Decision.h) fills them.
struct PipelineKLoopOptions {
  /// CpAsync, LdgRegister or RegisterPrefetch.
  PipelineVariant variant = PipelineVariant::CpAsync;
  /// Requested shared-memory buffers: 2 (double buffering) to 8 for
  /// cp-async; the register variants use 2 (ldg-register) or 1
  /// (register-prefetch) whatever this says (getEffectiveStages).
  int64_t stages = 2;
  /// The cp-async order; Auto means Multistage.
  PipelineSchedule schedule = PipelineSchedule::Auto;
  /// Above this many bytes of shared memory per block (the 48 KB limit of
  /// static shared memory) the multi-buffered tiles move to dynamic shared
  /// memory (`gpu.dynamic_shared_memory` + `memref.view`) and the kernel gets
  /// the `pk.dynamic_shared_memory_bytes` attribute: launch it with that
  /// many bytes of dynamic shared memory (and the opt-in attribute above
  /// 48 KB).
  int64_t staticSharedMemoryLimit = 48 * 1024;
  /// Testing only: make upstream's pipeliner reject the schedule after pk
  /// changed the IR, to exercise the internal-error path.
  bool testFailLate = false;
};

/// What `pipelineKLoop` made of a K-loop.
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

/// Checks every precondition of `pipelineKLoop` without changing the IR; on
/// failure sets `reason`.
LogicalResult checkPipelineKLoop(const KLoopInfo &info,
                                 const PipelineKLoopOptions &options,
                                 std::string &reason);

/// Software-pipelines the matched K-loop `info` with `options`.
///
/// Preconditions (`checkPipelineKLoop`; on violation nothing changes,
/// `*modifiedIR` is false and `reason` says why): a static trip count >= 2,
/// or a dynamic one (the loop is then versioned on `trip count >= stages`);
/// every use of a copied shared buffer is a direct access inside the loop
/// whose indices do not depend on the induction variable (vector.load/store,
/// vector.transfer_read/write, memref.load/store, nvgpu.ldmatrix); for
/// cp-async, the copies pass `planAsyncCopies`; for the register variants,
/// the shared stores sit directly in the K-loop body.
///
/// Everything that can fail is checked before the first IR change, so the
/// transform is all or nothing. A failure after it (`*modifiedIR` true, as
/// with `scf::pipelineForLoop`) is an internal error: the IR is then invalid
/// and the caller must fail. On success returns the steady-state loop with
/// the prologue and epilogue ops (with a dynamic trip count, all three sit in
/// the `scf.if` branch that runs when the trip count is large enough);
/// `info` is stale.
FailureOr<PipelinedKLoop> pipelineKLoop(RewriterBase &rewriter,
                                        const KLoopInfo &info,
                                        const PipelineKLoopOptions &options,
                                        std::string &reason,
                                        bool *modifiedIR = nullptr);

/// Rewrites the workgroup storage of `kernel` that upstream's NVVM lowering
/// would not place in shared memory into typed, 16-byte aligned workgroup
/// attributions: every static workgroup `memref.alloc` / `memref.alloca`
/// (malloc and per-thread local memory otherwise), typed or `i8` viewed once
/// at offset 0 through `memref.view` (its deallocs are erased), and every
/// private workgroup `memref.global` used once and viewed that way (what
/// upstream's `structured.promote` and `alloca_to_global` emit; only with
/// `globals`, since it erases the global from the gpu.module). Returns how
/// many buffers it rewrote; storage used otherwise is left alone.
int64_t normalizeWorkgroupStorage(RewriterBase &rewriter, gpu::GPUFuncOp kernel,
                                  bool globals = true);

} // namespace pk
} // namespace mlir

#endif // PK_PIPELINING_H
