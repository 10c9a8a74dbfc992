//===- Plan.cpp - Strategies and the plan of one K-loop -------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The one table of strategy traits and the one check of a strategy against
// a loop and a target (checkStrategy), which the decision, the candidate
// search and the transform share; and `buildPipelinePlan`, the plan the
// transform consumes. Tests: test/pk-pipeline-kloops-invalid.mlir (every
// strategy a loop or target rules out), test/test-pk-plan.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/Plan.h"

#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "pk-plan"

using namespace mlir;
using namespace mlir::pk;

const VariantTraits &mlir::pk::getVariantTraits(PipelineVariant variant) {
  // multistage, cpAsync, tmaLoads, fixedBuffers, registerTile
  static const VariantTraits none{}, cpAsync{true, true, false, 0, false},
      ldgRegister{false, false, false, 2, true},
      registerPrefetch{false, false, false, 1, true},
      tma{true, false, true, 0, false};
  switch (variant) {
  case PipelineVariant::CpAsync:
    return cpAsync;
  case PipelineVariant::LdgRegister:
    return ldgRegister;
  case PipelineVariant::RegisterPrefetch:
    return registerPrefetch;
  case PipelineVariant::Tma:
    return tma;
  case PipelineVariant::Auto:
  case PipelineVariant::None:
    return none;
  }
  llvm_unreachable("unknown pipeline variant");
}

const ScheduleTraits &mlir::pk::getScheduleTraits(PipelineSchedule schedule) {
  // cpAsync, tma, minBuffers, maxBuffers, mmaGroupsInFlight, addedThreads
  static const ScheduleTraits multistage{true,       true, kMinStages,
                                         kMaxStages, 0,    0},
      twoStage{true, false, 2, 2, 0, 0},
      mmaInFlight{true, true, 3, kMaxStages, 1, 0},
      warpSpecialized{false, true, kMinStages, kMaxStages, 0, kProducerThreads};
  switch (schedule) {
  case PipelineSchedule::Auto:
  case PipelineSchedule::Multistage:
    return multistage;
  case PipelineSchedule::TwoStage:
    return twoStage;
  case PipelineSchedule::MmaInFlight:
    return mmaInFlight;
  case PipelineSchedule::WarpSpecialized:
    return warpSpecialized;
  }
  llvm_unreachable("unknown pipeline schedule");
}

/// Whether the register variants take `schedule`: they have one order of
/// their own, which the cp-async orders stand for.
static bool takesRegisterVariants(PipelineSchedule schedule) {
  return schedule == PipelineSchedule::Auto ||
         schedule == PipelineSchedule::Multistage ||
         schedule == PipelineSchedule::TwoStage;
}

int64_t mlir::pk::capByTripCount(const KLoopInfo &info, int64_t count) {
  if (info.tripCount && *info.tripCount >= 2)
    return std::min(count, *info.tripCount);
  return count;
}

int64_t mlir::pk::getVariantBuffers(const KLoopInfo &info,
                                    PipelineVariant variant, int64_t stages) {
  if (int64_t fixed = getVariantTraits(variant).fixedBuffers)
    return fixed;
  return capByTripCount(info, stages);
}

std::optional<std::string>
mlir::pk::checkStrategyOnTarget(const TargetInfo &target,
                                PipelineVariant variant,
                                PipelineSchedule schedule) {
  auto lacks = [&](StringRef need, StringRef what) {
    return (need + "; " + target.arch + " has " + what).str();
  };
  if (variant == PipelineVariant::CpAsync && !target.hasCpAsync)
    return lacks("variant=cp-async needs cp.async (sm_80 and later)", "none");
  if (variant == PipelineVariant::Tma && !target.hasTma())
    return lacks("variant=tma needs the Tensor Memory Accelerator (sm_90 and "
                 "later)",
                 "none");
  if (schedule == PipelineSchedule::MmaInFlight && !target.hasWgmma)
    return lacks("schedule=mma-in-flight keeps wgmma groups in flight "
                 "(sm_90a)",
                 "no wgmma");
  if (schedule == PipelineSchedule::WarpSpecialized && !target.hasTma())
    return lacks("schedule=warp-specialized hands the TMA loads to a producer "
                 "warpgroup (sm_90 and later)",
                 "no TMA");
  return std::nullopt;
}

/// The copies are of the kind `variant` takes: TMA loads only for tma
/// (rule tma-input), already-async copies only for cp-async (rule
/// async-input).
static DeclineOr<void> checkCopyKind(const KLoopInfo &info,
                                     PipelineVariant variant) {
  if (info.tma && variant != PipelineVariant::Tma)
    return Decline(info.tma->loads.front(),
                   "the copies are TMA loads (nvgpu.tma.async.load), which "
                   "only the tma variant keeps (rule tma-input); got variant=" +
                       stringifyPipelineVariant(variant));
  if (!info.tma && variant == PipelineVariant::Tma)
    return Decline(info.forOp, "variant=tma pipelines loops whose load phase "
                               "is TMA (nvgpu.tma.async.load on an mbarrier, "
                               "docs/hopper.md); this loop copies with "
                               "threads");
  if (variant != PipelineVariant::CpAsync)
    for (const TileCopy &copy : info.copies)
      if (copy.async)
        return Decline(copy.load,
                       "the copies are already nvgpu.device_async_copy, "
                       "which only the cp-async variant keeps (rule "
                       "async-input); got variant=" +
                           stringifyPipelineVariant(variant));
  return success();
}

/// schedule=mma-in-flight leaves each wgmma group in flight while the loop
/// goes on to the next tile, so nothing but the next wgmma may touch its
/// accumulator (WarpgroupMma::accumulatorChained).
static DeclineOr<void> checkMmaInFlight(const KLoopInfo &info,
                                        PipelineVariant variant,
                                        int64_t buffers) {
  if (info.warpgroupMmas.empty())
    return Decline(info.forOp, "schedule=mma-in-flight keeps wgmma groups in "
                               "flight; the loop has no nvgpu.warpgroup.mma");
  if (!isMultistageVariant(variant) || buffers < 3)
    return Decline(info.forOp,
                   "schedule=mma-in-flight is a cp-async or tma order with at "
                   "least 3 stages (the tile whose wgmma is in flight, the "
                   "tile being computed, the copies); got " +
                       stringifyPipelineVariant(variant) + " with " +
                       Twine(buffers) + " buffer(s)");
  for (const WarpgroupMma &wgmma : info.warpgroupMmas)
    if (!wgmma.accumulatorChained)
      return Decline(wgmma.op,
                     "schedule=mma-in-flight leaves the group of this "
                     "nvgpu.warpgroup.mma in flight into the next iteration, "
                     "so its accumulator must be a loop-carried value that "
                     "only this wgmma reads and only the yield uses; it is "
                     "not");
  return success();
}

/// The schedule fits the variant and the buffers.
static DeclineOr<void> checkSchedule(const KLoopInfo &info,
                                     PipelineVariant variant,
                                     PipelineSchedule schedule,
                                     int64_t buffers) {
  const ScheduleTraits &traits = getScheduleTraits(schedule);
  std::string name = stringifyPipelineSchedule(schedule).str();
  if (schedule == PipelineSchedule::MmaInFlight)
    return checkMmaInFlight(info, variant, buffers);
  if (getVariantTraits(variant).registerTile) {
    if (takesRegisterVariants(schedule))
      return success();
    return Decline(info.forOp, "schedule=" + name + " orders " +
                                   (traits.tma ? "TMA" : "cp.async") +
                                   " loops; variant " +
                                   stringifyPipelineVariant(variant) +
                                   " holds the next tile in registers");
  }
  if (variant == PipelineVariant::Tma && !traits.tma)
    return Decline(info.forOp, "schedule=" + name +
                                   " is a cp-async order; the tma variant "
                                   "takes multistage, mma-in-flight or "
                                   "warp-specialized");
  if (variant == PipelineVariant::CpAsync && !traits.cpAsync)
    return Decline(info.forOp, "schedule=" + name +
                                   " hands TMA loads to a producer warpgroup; "
                                   "this loop copies with threads (variant "
                                   "cp-async)");
  if (buffers < traits.minBuffers || buffers > traits.maxBuffers)
    return Decline(info.forOp, "schedule=" + name + " takes " +
                                   Twine(traits.minBuffers) +
                                   (traits.minBuffers == traits.maxBuffers
                                        ? ""
                                        : " to " + Twine(traits.maxBuffers)) +
                                   " buffers; got " + Twine(buffers) +
                                   (schedule == PipelineSchedule::TwoStage
                                        ? " (schedule=multistage takes more)"
                                        : ""));
  return success();
}

DeclineOr<void> mlir::pk::checkStrategy(const KLoopInfo &info,
                                        const TargetInfo &target,
                                        PipelineVariant variant,
                                        PipelineSchedule schedule,
                                        int64_t buffers) {
  if (std::optional<std::string> missing =
          checkStrategyOnTarget(target, variant, schedule))
    return Decline(info.forOp, *missing);
  return checkStrategyForLoop(info, variant, schedule, buffers);
}

DeclineOr<void> mlir::pk::checkStrategyForLoop(const KLoopInfo &info,
                                               PipelineVariant variant,
                                               PipelineSchedule schedule,
                                               int64_t buffers) {
  if (variant == PipelineVariant::None || variant == PipelineVariant::Auto)
    return Decline(info.forOp, "no variant selected");
  if (DeclineOr<void> kind = checkCopyKind(info, variant); failed(kind))
    return kind;
  if (info.tripCount && *info.tripCount < 2)
    return Decline(info.forOp, "trip count " + Twine(*info.tripCount) +
                                   " < 2: no next tile to overlap");
  int64_t fixed = getVariantTraits(variant).fixedBuffers;
  if ((fixed && buffers != fixed) ||
      (!fixed && (buffers < kMinStages || buffers > kMaxStages)))
    return Decline(info.forOp, "variant " + stringifyPipelineVariant(variant) +
                                   " with " + Twine(buffers) +
                                   " buffer(s): it takes " +
                                   (fixed ? Twine(fixed) : Twine("2 to 8")));
  return checkSchedule(info, variant, schedule, buffers);
}

DeclineOr<PipelinePlan> mlir::pk::buildPipelinePlan(
    const KLoopInfo &info, const TargetInfo &target, const Candidate &candidate,
    const DeclineOr<SmallVector<AsyncCopyPlan>> *copies) {
  PipelinePlan plan;
  plan.variant = candidate.variant;
  plan.schedule = candidate.schedule == PipelineSchedule::Auto
                      ? PipelineSchedule::Multistage
                      : candidate.schedule;
  plan.buffers = getVariantBuffers(info, plan.variant,
                                   std::max(candidate.stages, kMinStages));
  if (DeclineOr<void> valid = checkStrategy(info, target, plan.variant,
                                            plan.schedule, plan.buffers);
      failed(valid)) {
    LDBG() << "no plan: " << valid.getDecline().getMessage() << " -> BAIL";
    return valid.takeDecline();
  }
  if (plan.variant == PipelineVariant::CpAsync) {
    std::optional<DeclineOr<SmallVector<AsyncCopyPlan>>> planned;
    if (!copies)
      copies = &planned.emplace(planAsyncCopies(info));
    if (failed(*copies))
      return copies->getDecline();
    plan.asyncCopies = **copies;
    getRuntimeAlignedMemRefs(plan.asyncCopies, plan.runtimeAligned);
  }
  const ScheduleTraits &traits = getScheduleTraits(plan.schedule);
  plan.mmaGroupsInFlight = traits.mmaGroupsInFlight;
  plan.addedThreads = traits.addedThreads;
  // Warp specialization peels no tile: its two loops run any trip count.
  if (!info.tripCount && plan.schedule != PipelineSchedule::WarpSpecialized)
    plan.versionMinTrips = std::max<int64_t>(plan.buffers, 2);
  plan.dynamicSharedMemory =
      plan.buffers > 1 &&
      info.smemMultiBytes(plan.buffers) > target.smemPerBlockDefault;
  return plan;
}
