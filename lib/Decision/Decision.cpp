//===- Decision.cpp - Variant, stage count and schedule of a K-loop -------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The one home of pk's choices (docs/decisions.md names every rule):
//
//   1. stages: the request, or stages=auto (StageModel.cpp); 2 at most
//      without cp.async; no more than a static trip count;
//   2. the budget with that many buffers (Budget.cpp);
//   3. the seed rule (rules `budget-crossed`, `no-cp-async`, `low-ratio`,
//      `mid-ratio`, `high-ratio`): the variant from the budget and the
//      compute/load ratio alone, which pk-analyze-kloops reports;
//   4. what the copies allow (rules `cp-async-impossible`,
//      `narrow-cp-async`) and what the caller forced;
//   5. the buffers the variant creates and the cp-async schedule (rule
//      `schedule-multistage`);
//   6. with stages=auto and a compiler, or min-blocks-per-sm=auto, the
//      register-aware candidate search (Candidates.cpp; rule `never-worse`).
//
// Tests: test/pk-analyze-kloops*.mlir, test/pk-pipeline-kloops*.mlir,
// test/pipeline-kernel.mlir.
//
//===----------------------------------------------------------------------===//

#include "DecisionInternal.h"

#include "pk/AsyncCopyPlan.h"
#include "pk/Support.h"

#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "pk-decision"

using namespace mlir;
using namespace mlir::pk;

StringRef mlir::pk::stringifyPipelineVariant(PipelineVariant variant) {
  switch (variant) {
  case PipelineVariant::Auto:
    return "auto";
  case PipelineVariant::None:
    return "none";
  case PipelineVariant::CpAsync:
    return "cp-async";
  case PipelineVariant::LdgRegister:
    return "ldg-register";
  case PipelineVariant::RegisterPrefetch:
    return "register-prefetch";
  case PipelineVariant::Tma:
    return "tma";
  }
  llvm_unreachable("unknown pipeline variant");
}

StringRef mlir::pk::stringifyPipelineSchedule(PipelineSchedule schedule) {
  switch (schedule) {
  case PipelineSchedule::Auto:
    return "auto";
  case PipelineSchedule::Seed:
    return "seed";
  case PipelineSchedule::Multistage:
    return "multistage";
  case PipelineSchedule::MmaInFlight:
    return "mma-in-flight";
  case PipelineSchedule::WarpSpecialized:
    return "warp-specialized";
  }
  llvm_unreachable("unknown schedule");
}

int64_t mlir::pk::getEffectiveStages(const KLoopInfo &info,
                                     PipelineVariant variant, int64_t stages) {
  if (variant == PipelineVariant::RegisterPrefetch)
    return 1;
  if (variant == PipelineVariant::LdgRegister)
    return 2;
  // Fewer tiles than buffers: one buffer per tile.
  if (info.tripCount && *info.tripCount >= 2)
    return std::min(stages, *info.tripCount);
  return stages;
}

/// Step 1 and 2: the stage count and its budget.
static KLoopBudget decideStages(const KLoopInfo &info, const TargetInfo &target,
                                const DecisionOptions &options,
                                KLoopDecision &decision) {
  BudgetOptions budgetOptions{options.stages, options.minBlocksPerSM,
                              options.regsPerThread};
  int64_t stages = options.stages;
  if (options.stages == 0) {
    budgetOptions.stages = 1;
    KLoopBudget single = computeBudget(info, target, budgetOptions);
    StageModel model;
    stages = pk::detail::chooseStages(info, target, options, single, model,
                                      decision.ruleReasons);
    decision.stageModel = model;
  }
  // Without cp.async only the register variants remain: 2 buffers at most.
  if (!target.hasCpAsync && stages > 2)
    stages = 2;
  int64_t requested = stages;
  if (info.tripCount && *info.tripCount >= 2 && *info.tripCount < stages)
    stages = *info.tripCount;
  budgetOptions.stages = stages;
  KLoopBudget budget = computeBudget(info, target, budgetOptions);
  if (info.tripCount && *info.tripCount < 2)
    return budget;
  if (!info.tripCount)
    decision.ruleReasons.push_back(llvm::formatv(
        "dynamic trip count: the pipelined loop runs when the trip count is "
        "at least {0}, the original loop otherwise",
        std::max<int64_t>(stages, 2)));
  if (stages != requested)
    decision.ruleReasons.push_back(llvm::formatv(
        "trip count {0} < stages={1}: {0} buffers", stages, requested));
  return budget;
}

/// The seed's predicted gain for a compute/load ratio.
static std::string predictGain(double ratio) {
  if (ratio < kSeedLowRatio)
    return "+15-35% (ratio < 5:1)";
  if (ratio <= kSeedHighRatio)
    return "+5-15% (ratio 5-20:1)";
  return "0-5% or a regression (ratio > 20:1)";
}

/// Rule `budget-crossed`: doubling exceeds the per-block maximum or the
/// cliff, so register prefetch keeps one buffer.
static std::string describeCrossedBudget(const KLoopBudget &budget) {
  const TargetInfo &target = *budget.target;
  if (budget.exceedsPerBlockMax)
    return llvm::formatv("{0} stages need {1} bytes of shared memory, above "
                         "the {2} per-block maximum of {3} bytes: register "
                         "prefetch keeps one buffer",
                         budget.stages, budget.smemMultiBytes, target.arch,
                         target.smemPerBlockOptIn);
  return llvm::formatv(
      "{0} stages need {1} bytes of shared memory, above the {2} cliff of {3} "
      "bytes for {4} blocks/SM (blocks/SM {5} -> {6}): register prefetch "
      "keeps one buffer",
      budget.stages, budget.smemMultiBytes, target.arch, budget.cliffBytes,
      budget.minBlocksPerSM, budget.single.blocksPerSM,
      budget.multi.blocksPerSM);
}

/// The budget that fits, as a reason.
static std::string describeFittingBudget(const KLoopBudget &budget) {
  const TargetInfo &target = *budget.target;
  if (budget.smemMultiBytes <= budget.cliffBytes)
    return llvm::formatv("{0} stages need {1} bytes of shared memory, within "
                         "the {2} cliff of {3} bytes for {4} blocks/SM",
                         budget.stages, budget.smemMultiBytes, target.arch,
                         budget.cliffBytes, budget.minBlocksPerSM);
  return llvm::formatv(
      "{0} stages need {1} bytes of shared memory, above the {2} cliff of {3} "
      "bytes for {4} blocks/SM, but blocks/SM stay at {5} (limited by {6}): "
      "doubling costs no occupancy",
      budget.stages, budget.smemMultiBytes, target.arch, budget.cliffBytes,
      budget.minBlocksPerSM, budget.multi.blocksPerSM,
      stringifyOccupancyLimit(budget.single.limit));
}

/// Rules `low-ratio`, `mid-ratio` and `high-ratio`: the variant from the
/// compute/load ratio on a target with cp.async.
static PipelineVariant applyRatioRule(double ratio, bool skipHighRatio,
                                      StringRef copies,
                                      SmallVectorImpl<std::string> &reasons) {
  std::string value = llvm::formatv("{0:F1}", ratio).str();
  if (ratio < kSeedLowRatio) {
    reasons.push_back("ratio " + value + " < 5: " + copies.str() +
                      " preferred (rule low-ratio)");
    return PipelineVariant::CpAsync;
  }
  if (ratio <= kSeedHighRatio) {
    reasons.push_back("ratio " + value +
                      " in 5-20: both variants are worth benchmarking; " +
                      copies.str() +
                      " is the seed's default (rule mid-ratio; try "
                      "variant=ldg-register too)");
    return PipelineVariant::CpAsync;
  }
  if (skipHighRatio) {
    reasons.push_back("ratio " + value +
                      " > 20: the seed predicts 0-5% or a regression and "
                      "skip-high-ratio is set");
    return PipelineVariant::None;
  }
  reasons.push_back("ratio " + value +
                    " > 20: the seed predicts 0-5% or a regression; " +
                    copies.str() +
                    " is selected all the same (rule high-ratio; "
                    "skip-high-ratio=true skips)");
  return PipelineVariant::CpAsync;
}

/// Step 3: the seed rule.
static PipelineVariant applySeedRule(const KLoopInfo &info,
                                     const KLoopBudget &budget,
                                     const DecisionOptions &options,
                                     SmallVectorImpl<std::string> &reasons) {
  if (info.tripCount && *info.tripCount < 2) {
    reasons.push_back(llvm::formatv(
        "trip count {0} < 2: no next tile to overlap", *info.tripCount));
    return PipelineVariant::None;
  }
  if (!budget.fits()) {
    reasons.push_back(describeCrossedBudget(budget));
    return PipelineVariant::RegisterPrefetch;
  }
  reasons.push_back(describeFittingBudget(budget));
  if (!budget.target->hasCpAsync) {
    reasons.push_back(llvm::formatv("{0} has no cp.async (sm_80 and later): "
                                    "LDG-register prefetch (rule no-cp-async)",
                                    budget.target->arch));
    return PipelineVariant::LdgRegister;
  }
  return applyRatioRule(info.ratio, options.skipHighRatio,
                        info.tma ? "TMA" : "cp.async", reasons);
}

/// Step 4 for variant=auto: cp.async only where the copies allow it at
/// kMinAutoCpAsyncWidth bytes or more (rule narrow-cp-async).
static PipelineVariant refineForCopies(PipelineVariant variant,
                                       FailureOr<int64_t> width,
                                       StringRef cpAsyncWhy,
                                       SmallVectorImpl<std::string> &reasons) {
  if (variant != PipelineVariant::CpAsync)
    return variant;
  if (failed(width)) {
    reasons.push_back(("cp.async not possible: " + cpAsyncWhy +
                       "; falling back to ldg-register")
                          .str());
    return PipelineVariant::LdgRegister;
  }
  if (*width < kMinAutoCpAsyncWidth) {
    reasons.push_back(llvm::formatv(
        "cp.async would copy only {0} bytes per instruction (8- and 16-byte "
        "copies need contiguous tiles aligned to that width): ldg-register "
        "(rule narrow-cp-async; variant=cp-async forces it)",
        *width));
    return PipelineVariant::LdgRegister;
  }
  return variant;
}

/// Step 4 for copies that are already `nvgpu.device_async_copy` (rule
/// `async-input`): they stay cp.async, so only that variant applies.
static PipelineVariant keepAsyncCopies(PipelineVariant variant,
                                       SmallVectorImpl<std::string> &reasons) {
  if (variant == PipelineVariant::CpAsync || variant == PipelineVariant::None)
    return variant;
  reasons.push_back("the copies are already nvgpu.device_async_copy, which "
                    "only the cp-async variant keeps (rule async-input)");
  return PipelineVariant::None;
}

/// Step 4 for TMA loads (rule `tma-input`): they stay TMA loads, so only the
/// tma variant applies, with the buffers the rules chose.
static PipelineVariant keepTmaCopies(PipelineVariant variant,
                                     const TargetInfo &target,
                                     SmallVectorImpl<std::string> &reasons) {
  if (variant == PipelineVariant::None)
    return variant;
  if (!target.hasTma()) {
    reasons.push_back(llvm::formatv("the copies are TMA loads and {0} has no "
                                    "TMA (sm_90 and later)",
                                    target.arch));
    return PipelineVariant::None;
  }
  if (variant == PipelineVariant::RegisterPrefetch) {
    reasons.push_back("the copies are TMA loads, which only the tma variant "
                      "keeps, and it needs the buffers the budget refuses "
                      "(rule tma-input)");
    return PipelineVariant::None;
  }
  reasons.push_back("the copies are TMA loads (nvgpu.tma.async.load on an "
                    "mbarrier): variant tma, N buffers on a ring of N "
                    "mbarriers (rule tma-input)");
  return PipelineVariant::Tma;
}

/// Step 4 for a forced variant: note what auto would pick, warn about a
/// crossed budget, fall back to ldg-register when cp.async is impossible.
static PipelineVariant
applyForcedVariant(const KLoopInfo &info, const DecisionOptions &options,
                   PipelineVariant autoChoice, const KLoopBudget &budget,
                   FailureOr<int64_t> width, StringRef cpAsyncWhy,
                   SmallVectorImpl<std::string> &reasons) {
  PipelineVariant chosen = options.variant;
  reasons.push_back(("variant=" + stringifyPipelineVariant(chosen) +
                     " requested (auto would pick " +
                     stringifyPipelineVariant(autoChoice) + ")")
                        .str());
  if (chosen != PipelineVariant::RegisterPrefetch && !budget.fits())
    reasons.push_back(llvm::formatv(
        "warning: {0} bytes with {1} stages cross the {2} budget (blocks/SM "
        "{3} -> {4})",
        budget.smemMultiBytes, budget.stages, budget.target->arch,
        budget.single.blocksPerSM, budget.multi.blocksPerSM));
  if (info.tma.has_value() != (chosen == PipelineVariant::Tma)) {
    reasons.push_back(
        info.tma ? "the copies are TMA loads (nvgpu.tma.async.load), which "
                   "only the tma variant keeps (rule tma-input)"
                 : "variant=tma pipelines loops whose load phase is TMA "
                   "(nvgpu.tma.async.load on an mbarrier); this loop copies "
                   "with threads");
    return PipelineVariant::None;
  }
  if (chosen == PipelineVariant::CpAsync && failed(width)) {
    reasons.push_back(("cp.async not possible: " + cpAsyncWhy +
                       "; falling back to ldg-register")
                          .str());
    return PipelineVariant::LdgRegister;
  }
  return chosen;
}

/// Rule `runtime-alignment`: the cp.async width assumes the alignment of
/// global buffers pk cannot prove; pipelining versions the loop on it.
static void noteRuntimeAlignment(ArrayRef<Value> memrefs, int64_t width,
                                 SmallVectorImpl<std::string> &reasons) {
  std::string names;
  llvm::raw_string_ostream os(names);
  llvm::interleaveComma(memrefs, os, [&](Value memref) {
    if (auto arg = dyn_cast<BlockArgument>(memref))
      os << "kernel argument #" << arg.getArgNumber();
    else
      os << "the buffer defined at "
         << locationToString(memref.getDefiningOp()->getLoc());
  });
  reasons.push_back(llvm::formatv(
      "{0}-byte cp.async assumes that {1} (dynamic offset or strides) starts "
      "16-byte aligned with strides in multiples of 16 bytes, which pk "
      "cannot prove: the loop is versioned at run time on that alignment, "
      "the original loop as the fallback (rule runtime-alignment)",
      width, names));
}

/// Rule `mma-in-flight` without a candidate search: with the decided
/// cp-async buffers and blocks/SM, a wgmma loop takes schedule=mma-in-flight
/// when the model predicts it faster than the multistage order
/// (docs/hopper.md).
static void chooseMmaOrder(const KLoopInfo &info, const TargetInfo &target,
                           KLoopDecision &decision) {
  if (!isMultistageVariant(decision.variant) ||
      !pk::detail::allowsMmaInFlight(info, target, decision.buffers))
    return;
  int64_t blocks = std::max<int64_t>(decision.budget.multi.blocksPerSM, 1);
  Candidate multistage{decision.variant, decision.buffers, blocks,
                       PipelineSchedule::Multistage};
  Candidate inFlight = multistage;
  inFlight.schedule = PipelineSchedule::MmaInFlight;
  double msCycles = pk::detail::modelCycles(info, target, multistage,
                                            decision.buffers, blocks);
  double mifCycles =
      pk::detail::modelCycles(info, target, inFlight, decision.buffers, blocks);
  if (mifCycles >= msCycles)
    return;
  decision.schedule = PipelineSchedule::MmaInFlight;
  decision.reasons.push_back(llvm::formatv(
      "schedule=auto: mma-in-flight (~{0:F0} cycles/tile) beats multistage "
      "(~{1:F0}) with {2} buffers at {3} block(s)/SM (rule mma-in-flight)",
      mifCycles, msCycles, decision.buffers, blocks));
}

/// Rule `warp-specialized-bound`: the producer warpgroup grows the block, so
/// a launch bound (`nvvm.minctasm`) above the blocks/SM the shared memory
/// and the register estimate allow for the grown block would only make
/// ptxas cap registers (and spill): pk lowers it to what fits.
static void fitWarpSpecializedBound(const KLoopInfo &info,
                                    const TargetInfo &target,
                                    KLoopDecision &decision) {
  auto bound = info.kernel->getAttrOfType<IntegerAttr>(kMinCtasmAttrName);
  if (decision.schedule != PipelineSchedule::WarpSpecialized ||
      decision.setMinBlocks || !bound)
    return;
  int64_t regs = pk::detail::estimateRegisters(info, decision.variant);
  int64_t byRegisters =
      target.regsPerSM / std::max<int64_t>(info.threadsPerBlock * regs, 1);
  int64_t blocks = std::max<int64_t>(
      std::min(decision.budget.multi.blocksPerSM, byRegisters), 1);
  if (bound.getInt() <= blocks)
    return;
  decision.setMinBlocks = blocks;
  decision.reasons.push_back(llvm::formatv(
      "launch bound nvvm.minctasm {0} -> {1}: {1} block(s)/SM of {2} threads "
      "(~{3} registers each) and {4} bytes of shared memory fit; the higher "
      "bound would only cap registers (rule warp-specialized-bound)",
      bound.getInt(), blocks, info.threadsPerBlock, regs,
      decision.budget.smemMultiBytes));
}

KLoopDecision mlir::pk::decide(const KLoopInfo &loop, const TargetInfo &target,
                               const DecisionOptions &requested) {
  // schedule=warp-specialized budgets the block it creates: the loop's
  // threads and a producer warpgroup.
  KLoopInfo grown;
  bool warpSpecialized =
      requested.schedule == PipelineSchedule::WarpSpecialized && loop.tma;
  if (warpSpecialized) {
    grown = loop;
    grown.threadsPerBlock += kProducerThreads;
  }
  const KLoopInfo &info = warpSpecialized ? grown : loop;
  KLoopDecision decision;
  // Step 0: the blocks/SM target (option, launch bounds, default or auto;
  // auto budgets the rules for the default and searches below).
  int64_t blocks = resolveMinBlocksPerSM(info, requested.minBlocksPerSM,
                                         decision.minBlocksSource);
  DecisionOptions options = requested;
  options.minBlocksPerSM =
      blocks == kMinBlocksAuto ? kDefaultMinBlocksPerSM : blocks;
  decision.minBlocksPerSM = options.minBlocksPerSM;
  decision.budget = decideStages(info, target, options, decision);
  decision.prediction = predictGain(info.ratio);
  decision.ruleVariant =
      applySeedRule(info, decision.budget, options, decision.ruleReasons);

  std::string cpAsyncWhy;
  SmallVector<Value> runtimeAligned;
  FailureOr<int64_t> width =
      getCpAsyncCopyWidth(info, cpAsyncWhy, &runtimeAligned);
  SmallVector<std::string> autoReasons(decision.ruleReasons);
  PipelineVariant autoChoice =
      info.tma ? keepTmaCopies(decision.ruleVariant, target, autoReasons)
      : info.hasAsyncCopies()
          ? keepAsyncCopies(decision.ruleVariant, autoReasons)
          : refineForCopies(decision.ruleVariant, width, cpAsyncWhy,
                            autoReasons);
  if (options.variant == PipelineVariant::Auto) {
    decision.variant = autoChoice;
    decision.reasons = std::move(autoReasons);
  } else {
    decision.variant =
        applyForcedVariant(info, options, autoChoice, decision.budget, width,
                           cpAsyncWhy, decision.reasons);
  }
  if (decision.variant == PipelineVariant::CpAsync && !runtimeAligned.empty())
    noteRuntimeAlignment(runtimeAligned, *width, decision.reasons);
  decision.buffers =
      decision.variant == PipelineVariant::None
          ? 0
          : getEffectiveStages(info, decision.variant, decision.budget.stages);
  // Rule `schedule-multistage`: auto is the multistage order (the search
  // below may pick mma-in-flight on wgmma loops).
  decision.schedule = options.schedule == PipelineSchedule::Auto
                          ? PipelineSchedule::Multistage
                          : options.schedule;
  // Step 6: the register-aware search (rule never-worse declines).
  bool search =
      blocks == kMinBlocksAuto || (options.stages == 0 && options.compiler);
  if (search && decision.variant != PipelineVariant::None)
    pk::detail::searchCandidates(info, target, options, blocks, decision);
  else if (options.schedule == PipelineSchedule::Auto)
    chooseMmaOrder(info, target, decision);
  fitWarpSpecializedBound(info, target, decision);
  // Rule `warp-specialized-on-request`.
  if (decision.variant == PipelineVariant::Tma &&
      options.schedule == PipelineSchedule::Auto)
    decision.reasons.push_back(
        "schedule=auto keeps every thread computing on the ring: "
        "warp-specialized grows the block by a producer warpgroup (a launch "
        "change) and measured no faster on the H200 "
        "(rule warp-specialized-on-request)");
  LDBG() << "decision: " << stringifyPipelineVariant(decision.variant) << ", "
         << decision.buffers << " buffer(s), schedule "
         << stringifyPipelineSchedule(decision.schedule);
  return decision;
}
