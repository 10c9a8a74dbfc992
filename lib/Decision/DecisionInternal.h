//===- DecisionInternal.h - Private helpers of the decision ----*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//

#ifndef PK_LIB_DECISION_DECISIONINTERNAL_H
#define PK_LIB_DECISION_DECISIONINTERNAL_H

#include "pk/Decision.h"

namespace mlir {
namespace pk {
namespace detail {

/// stages=auto: the latency model's stage count for `info`, given the
/// single-buffered budget `single`. Fills `model` and adds the reason.
int64_t chooseStages(const KLoopInfo &info, const TargetInfo &target,
                     const DecisionOptions &options, const KLoopBudget &single,
                     StageModel &model, SmallVectorImpl<std::string> &reasons);

/// Cycles one tile of one block computes while `blocks` blocks share the
/// SM's pipes (docs/stages.md), at least 1.
int64_t computeCyclesPerTile(const KLoopInfo &info, const TargetInfo &target,
                             int64_t blocks);

/// The model's registers per thread for `variant` (an estimate,
/// docs/stages.md): the accumulators, kRegOverheadEstimate, and the prefetched
/// tile of the register variants.
int64_t estimateRegisters(const KLoopInfo &info, PipelineVariant variant);

/// The registers per thread ptxas may use so that `blocks` blocks of
/// `threads` threads fit an SM (what `nvvm.minctasm` implies).
int64_t getRegisterCap(const TargetInfo &target, int64_t threads,
                       int64_t blocks);

/// The register-aware search (Candidates.cpp) for stages=auto with a
/// compiler or min-blocks-per-sm=auto: replaces the variant, buffers, budget
/// and blocks/SM of `decision`, or leaves the loop alone (rule never-worse);
/// adds the candidate table and its reasons. `blocks` is the resolved
/// target or kMinBlocksAuto. Returns whether a candidate was chosen.
bool searchCandidates(const KLoopInfo &info, const TargetInfo &target,
                      const DecisionOptions &options, int64_t blocks,
                      KLoopDecision &decision);

/// The model's cycles per tile per SM of `candidate` with `stages` buffers
/// and `blocks` resident blocks (docs/stages.md).
double modelCycles(const KLoopInfo &info, const TargetInfo &target,
                   const Candidate &candidate, int64_t stages, int64_t blocks);

/// Whether `info` may take schedule=mma-in-flight on `target` with `stages`
/// buffers: a wgmma loop whose accumulators form chains, 3 or more buffers.
bool allowsMmaInFlight(const KLoopInfo &info, const TargetInfo &target,
                       int64_t stages);

/// The candidate table as one reason.
std::string describeCandidateTable(const CandidateTable &table);

} // namespace detail
} // namespace pk
} // namespace mlir

#endif // PK_LIB_DECISION_DECISIONINTERNAL_H
