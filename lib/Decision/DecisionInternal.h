//===- DecisionInternal.h - Private helpers of the decision -----*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// What Decision.cpp hands the stage model (StageModel.cpp) and the
// candidate search (Candidates.cpp): the loop's context, computed once, and
// the choice being made. Both depend on this header and Plan.h, not on each
// other.
//
//===----------------------------------------------------------------------===//

#ifndef PK_LIB_DECISION_DECISIONINTERNAL_H
#define PK_LIB_DECISION_DECISIONINTERNAL_H

#include "pk/Decision.h"

namespace mlir {
namespace pk {
namespace detail {

/// The facts about one loop every step of the decision reads.
struct DecisionContext {
  const KLoopInfo &info;
  const TargetInfo &target;
  /// The request, with the blocks/SM target resolved (kMinBlocksAuto
  /// budgets the default).
  const DecisionOptions &options;
  /// Threads of the block pk budgets: the loop's, plus the producer
  /// warpgroup schedule=warp-specialized adds.
  int64_t threadsPerBlock;
  /// The cp.async plans of the loop's copies, or why they cannot be
  /// cp.async (planAsyncCopies, run once per loop).
  const DeclineOr<SmallVector<AsyncCopyPlan>> &copies;
};

/// The choice being made: what the plan will be built from.
struct Choice {
  PipelineVariant variant = PipelineVariant::None;
  /// Shared buffers (getVariantBuffers).
  int64_t buffers = 0;
  PipelineSchedule schedule = PipelineSchedule::Multistage;
  /// The kernel's `nvvm.minctasm` to set.
  std::optional<int64_t> setMinBlocks;
  /// Why no variant is chosen, when that is not the last reason's sentence
  /// at the loop.
  std::optional<Decline> decline;
};

/// The budget of the context's loop with `stages` buffers for `blocks`
/// blocks/SM.
KLoopBudget computeContextBudget(const DecisionContext &ctx, int64_t stages,
                                 int64_t blocks);

/// stages=auto: the latency model's stage count for the context's loop,
/// given the single-buffered budget `single`. Fills `model` and adds the
/// reason.
int64_t chooseStages(const DecisionContext &ctx, const KLoopBudget &single,
                     StageModel &model, SmallVectorImpl<std::string> &reasons);

/// Cycles one tile of one block computes while `blocks` blocks share the
/// SM's pipes (docs/stages.md), at least 1.
int64_t computeCyclesPerTile(const KLoopInfo &info, const TargetInfo &target,
                             int64_t blocks);

/// The model's registers per thread for `variant` (an estimate,
/// docs/stages.md): the accumulators, kRegOverheadEstimate, and the prefetched
/// tile of the register variants (of a cp-async loop: `registerPathBytes`,
/// its register-path copies' bytes per thread, getRegisterPathBytes).
int64_t estimateRegisters(const KLoopInfo &info, PipelineVariant variant,
                          int64_t registerPathBytes = 0);

/// The registers per thread ptxas may use so that `blocks` blocks of
/// `threads` threads fit an SM (what `nvvm.minctasm` implies).
int64_t getRegisterCap(const TargetInfo &target, int64_t threads,
                       int64_t blocks);

/// The register-aware search (Candidates.cpp) for stages=auto with a
/// compiler or min-blocks-per-sm=auto: replaces `choice` and the budget and
/// blocks/SM of `decision`, or chooses nothing (rule never-worse); adds the
/// candidate table and its reasons. `blocks` is the resolved target or
/// kMinBlocksAuto. Returns whether a candidate was chosen.
bool searchCandidates(const DecisionContext &ctx, int64_t blocks,
                      KLoopDecision &decision, Choice &choice);

/// The model's cycles per tile per SM of `candidate` with `stages` buffers
/// and `blocks` resident blocks (docs/stages.md).
double modelCycles(const KLoopInfo &info, const TargetInfo &target,
                   const Candidate &candidate, int64_t stages, int64_t blocks);

/// The candidate table as one reason.
std::string describeCandidateTable(const CandidateTable &table);

/// The narrowest cp.async copy variant=auto takes for `info` (rule
/// `narrow-cp-async`): kMinAutoCpAsyncWidthFma for FMA compute, else
/// kMinAutoCpAsyncWidth.
int64_t getMinAutoCpAsyncWidth(const KLoopInfo &info);

} // namespace detail
} // namespace pk
} // namespace mlir

#endif // PK_LIB_DECISION_DECISIONINTERNAL_H
