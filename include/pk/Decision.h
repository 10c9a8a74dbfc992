//===- Decision.h - Variant, stage count and schedule of a K-loop -*- C++
//-*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The third stage of pk's data flow (docs/architecture.md) and the one home
// of pk's choices: from a matched K-loop (KLoopMatcher.h), its budget
// (Budget.h) and the caller's requests, `decide` returns the variant, the
// number of shared buffers, the cp.async schedule and every reason. The
// rules are named; docs/decisions.md states each rule and the measurement
// that justifies it, by the same name.
//
//===----------------------------------------------------------------------===//

#ifndef PK_DECISION_H
#define PK_DECISION_H

#include "pk/Budget.h"

#include <optional>
#include <string>

namespace mlir {
namespace pk {

/// The software-pipelining variants of the seed procedure. `Auto` is a
/// request only: `decide` never returns it.
enum class PipelineVariant {
  Auto,
  None,
  CpAsync,
  LdgRegister,
  RegisterPrefetch
};

/// Returns "auto", "none", "cp-async", "ldg-register" or
/// "register-prefetch".
llvm::StringRef stringifyPipelineVariant(PipelineVariant variant);

/// The order of a cp-async iteration. `Auto` is a request only.
enum class PipelineSchedule {
  /// Multistage (rule `schedule-multistage`).
  Auto,
  /// The seed procedure's two-stage order: issue tile t+1, commit, compute
  /// tile t, wait for all groups, barrier.
  Seed,
  /// The CUDA guide's multistage order: wait for all but N-2 groups,
  /// barrier, issue tile t+N-1, commit, compute tile t.
  Multistage,
};

/// Returns "auto", "seed" or "multistage".
llvm::StringRef stringifyPipelineSchedule(PipelineSchedule schedule);

/// The seed procedure's compute/load ratio thresholds (FLOP per byte
/// loaded): below kSeedLowRatio cp.async is predicted +15-35%, up to
/// kSeedHighRatio +5-15%, above it 0-5% or a regression.
constexpr double kSeedLowRatio = 5.0;
constexpr double kSeedHighRatio = 20.0;

/// The stage counts pk supports for cp-async.
constexpr int64_t kMinStages = 2;
constexpr int64_t kMaxStages = 8;

/// The width below which cp.async loses to ldg-register (rule
/// `narrow-cp-async`), in bytes per copy.
constexpr int64_t kFullCpAsyncWidth = 16;

/// What the caller asks for.
struct DecisionOptions {
  /// Number of buffers; 0 = auto (the latency model, docs/stages.md).
  int64_t stages = 2;
  /// Resident blocks per SM the multi-buffered kernel must keep.
  int64_t minBlocksPerSM = 2;
  /// Registers per thread; 0: the kernel's attribute, else the default.
  int64_t regsPerThread = 0;
  /// A variant to force, or Auto.
  PipelineVariant variant = PipelineVariant::Auto;
  /// A cp-async order to force, or Auto.
  PipelineSchedule schedule = PipelineSchedule::Auto;
  /// With a ratio above kSeedHighRatio, do not pipeline (the seed's literal
  /// rule).
  bool skipHighRatio = false;
};

/// The inputs and outputs of the stages=auto latency model (docs/stages.md).
struct StageModel {
  int64_t computeCyclesPerTile = 0;
  int64_t latencyCycles = 0;
  int64_t latencyStages = 0;
  int64_t budgetStages = 0;
};

/// pk's decision for one K-loop.
struct KLoopDecision {
  /// The budget with the decided stage count (before the variant's own
  /// buffer count: 1 for register-prefetch, 2 for ldg-register).
  KLoopBudget budget;
  /// The seed rule's variant from the ratio and the budget alone, its
  /// reasons and predicted gain: what pk-analyze-kloops reports.
  PipelineVariant ruleVariant = PipelineVariant::None;
  SmallVector<std::string> ruleReasons;
  std::string prediction;
  /// With stages=auto, the model's numbers.
  std::optional<StageModel> stageModel;
  /// The variant pk applies (None: leave the loop alone), after what the
  /// copies allow and what the caller forced, and every reason.
  PipelineVariant variant = PipelineVariant::None;
  SmallVector<std::string> reasons;
  /// The number of shared buffers the transform creates.
  int64_t buffers = 0;
  /// The cp-async order (never Auto).
  PipelineSchedule schedule = PipelineSchedule::Multistage;
};

/// The number of shared buffers `variant` creates for `info` with `stages`
/// requested: 1 for register-prefetch, 2 for ldg-register, else `stages`
/// capped by a static trip count of at least 2.
int64_t getEffectiveStages(const KLoopInfo &info, PipelineVariant variant,
                           int64_t stages);

/// Decides how to pipeline `info` on `target`. Never fails: a loop pk
/// should leave alone gets variant None and the reason.
KLoopDecision decide(const KLoopInfo &info, const TargetInfo &target,
                     const DecisionOptions &options);

} // namespace pk
} // namespace mlir

#endif // PK_DECISION_H
