//===- Plan.h - What pk does to one K-loop, decided once --------*- C++ -*-===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The hand-over between the decision (Decision.h) and the transform
// (Pipelining.h). A strategy is a variant x schedule; its traits are one
// table (getVariantTraits, getScheduleTraits) and `checkStrategy` is the one
// home of what is valid for a loop on a target, which the decision, the
// candidate search and the transform all ask. A `PipelinePlan` is what the
// transform does: the strategy, the buffers, the cp.async plans, what to
// version at run time, where the tiles live, the launch changes. `decide`
// builds it once; `applyPipelinePlan` consumes it unchanged.
//
//===----------------------------------------------------------------------===//

#ifndef PK_PLAN_H
#define PK_PLAN_H

#include "pk/AsyncCopyPlan.h"
#include "pk/Decline.h"
#include "pk/Enums.h"
#include "pk/KLoopInfo.h"
#include "pk/Target.h"

#include <optional>

namespace mlir {
namespace pk {

/// The buffer counts pk supports for the multistage variants.
constexpr int64_t kMinStages = 2;
constexpr int64_t kMaxStages = 8;

/// Threads schedule=warp-specialized adds to the block: one warpgroup, of
/// which one thread issues the TMA loads (setmaxnreg and warpgroup-wide
/// register reallocation work per warpgroup).
constexpr int64_t kProducerThreads = 128;

/// What a variant is (getVariantTraits).
struct VariantTraits {
  /// N buffers with N - 1 tiles in flight (cp-async, tma): the multistage
  /// orders apply.
  bool multistage = false;
  /// The copies become (or stay) cp.async: the target needs cp.async.
  bool cpAsync = false;
  /// The loop's tiles are TMA loads: the target needs TMA.
  bool tmaLoads = false;
  /// Buffers it always creates (1 register-prefetch, 2 ldg-register), or 0:
  /// as many as requested.
  int64_t fixedBuffers = 0;
  /// It holds the next tile in registers and moves the shared stores after
  /// the compute (the register variants).
  bool registerTile = false;
};

/// What a schedule is (getScheduleTraits).
struct ScheduleTraits {
  /// The variants it orders: cp-async and/or tma (the register variants
  /// have one order of their own, which any schedule but these stands for).
  bool cpAsync = false, tma = false;
  /// Buffers it needs.
  int64_t minBuffers = kMinStages, maxBuffers = kMaxStages;
  /// wgmma groups the steady state leaves in flight (mma-in-flight).
  int64_t mmaGroupsInFlight = 0;
  /// Threads it adds to the block (warp-specialized: a producer warpgroup).
  int64_t addedThreads = 0;
};

const VariantTraits &getVariantTraits(PipelineVariant variant);
const ScheduleTraits &getScheduleTraits(PipelineSchedule schedule);

/// Whether `variant` copies asynchronously into N buffers (cp-async, tma).
inline bool isMultistageVariant(PipelineVariant variant) {
  return getVariantTraits(variant).multistage;
}

/// `count` buffers capped by a static trip count of at least 2: one buffer
/// per tile at most.
int64_t capByTripCount(const KLoopInfo &info, int64_t count);

/// The shared buffers `variant` creates for `info` when `stages` are
/// requested: its fixed count, else `stages` capped by the trip count.
int64_t getVariantBuffers(const KLoopInfo &info, PipelineVariant variant,
                          int64_t stages);

/// What the target lacks for `variant` with `schedule`, as the sentence of
/// a request error (e.g. "variant=cp-async needs cp.async (sm_80 and
/// later); sm_75 has none"), or nullopt.
std::optional<std::string> checkStrategyOnTarget(const TargetInfo &target,
                                                 PipelineVariant variant,
                                                 PipelineSchedule schedule);

/// The part of checkStrategy that does not depend on the target: the copy
/// kind, the trip count, the buffers and the schedule. The transform checks
/// it again on the plan it is given.
DeclineOr<void> checkStrategyForLoop(const KLoopInfo &info,
                                     PipelineVariant variant,
                                     PipelineSchedule schedule,
                                     int64_t buffers);

/// Whether `variant` in `schedule` (Auto: multistage) with `buffers`
/// buffers can pipeline `info` on `target`: the target has what the
/// strategy needs, the loop's copies are of the kind the variant takes (TMA
/// loads only for tma, already-async copies only for cp-async), a next tile
/// exists, and the schedule fits the variant, the buffers and the loop
/// (mma-in-flight: chained wgmma accumulators). Declines at the operation
/// that rules the strategy out, else at the loop.
DeclineOr<void> checkStrategy(const KLoopInfo &info, const TargetInfo &target,
                              PipelineVariant variant,
                              PipelineSchedule schedule, int64_t buffers);

/// One configuration the decision considers: a variant, its buffers (1 for
/// register-prefetch and the unpipelined kernel) as requested, the resident
/// blocks per SM it is compiled for (`nvvm.minctasm`) and its order.
struct Candidate {
  PipelineVariant variant = PipelineVariant::None;
  int64_t stages = 1;
  int64_t blocksPerSM = 1;
  PipelineSchedule schedule = PipelineSchedule::Multistage;
};

/// What the transform does to one K-loop (Pipelining.h).
struct PipelinePlan {
  /// Never Auto or None.
  PipelineVariant variant = PipelineVariant::CpAsync;
  /// Never Auto; the register variants' order whatever it says.
  PipelineSchedule schedule = PipelineSchedule::Multistage;
  /// Shared buffers of each copied buffer (1: register-prefetch keeps one).
  int64_t buffers = 2;
  /// cp-async: one plan per shared store, in the loop's order.
  SmallVector<AsyncCopyPlan> asyncCopies;
  /// Global buffers whose alignment the cp.async widths assume but pk
  /// cannot prove: the loop is versioned on it at run time.
  SmallVector<Value> runtimeAligned;
  /// With a dynamic trip count, the trip count from which the pipelined
  /// loop runs (the original loop below it); 0: no trip-count versioning.
  int64_t versionMinTrips = 0;
  /// The multi-buffered tiles exceed the static shared-memory limit and
  /// move to dynamic shared memory.
  bool dynamicSharedMemory = false;
  /// wgmma groups the steady state leaves in flight.
  int64_t mmaGroupsInFlight = 0;
  /// Threads the transform adds to the block (a producer warpgroup).
  int64_t addedThreads = 0;
  /// The kernel's `nvvm.minctasm` to set (min-blocks-per-sm=auto, rule
  /// warp-specialized-bound).
  std::optional<int64_t> setMinBlocksPerSM;

  /// Whether the loop is versioned at run time.
  bool isVersioned() const {
    return versionMinTrips > 0 || !runtimeAligned.empty();
  }
};

/// Builds the plan of `candidate` for `info` on `target`: checks the
/// strategy (checkStrategy) and, for cp-async, takes the cp.async plans of
/// `copies` (planAsyncCopies of this loop; planned here when null). The
/// decision's last step, and the candidate compiler's on its clone.
DeclineOr<PipelinePlan> buildPipelinePlan(
    const KLoopInfo &info, const TargetInfo &target, const Candidate &candidate,
    const DeclineOr<SmallVector<AsyncCopyPlan>> *copies = nullptr);

} // namespace pk
} // namespace mlir

#endif // PK_PLAN_H
