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
//   3. the ratio rule (rules `read-bound`, `budget-crossed`, `no-cp-async`,
//      `low-ratio`, `mid-ratio`, `high-ratio`): the variant from the
//      compute phase's shared loads, the budget and the compute/load ratio,
//      which pk-analyze-kloops reports;
//   4. what the copies allow (rules `cp-async-impossible`,
//      `narrow-cp-async`) and what the caller forced;
//   5. the buffers the variant creates and the cp-async schedule (rule
//      `schedule-multistage`);
//   6. with stages=auto and a compiler, or min-blocks-per-sm=auto, the
//      register-aware candidate search (Candidates.cpp; rule `never-worse`);
//   7. the plan (Plan.cpp: buildPipelinePlan, which checks the strategy).
//
// The loop's cp.async plans are computed once (planAsyncCopies) and handed
// to every step and to the plan.
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
using namespace mlir::pk::detail;

KLoopBudget pk::detail::computeContextBudget(const DecisionContext &ctx,
                                             int64_t stages, int64_t blocks) {
  BudgetOptions options{stages, blocks, ctx.options.regsPerThread,
                        ctx.threadsPerBlock};
  return computeBudget(ctx.info, ctx.target, options);
}

/// Step 1 and 2: the stage count and its budget.
static KLoopBudget decideStages(const DecisionContext &ctx,
                                KLoopDecision &decision) {
  const KLoopInfo &info = ctx.info;
  int64_t blocks = ctx.options.minBlocksPerSM;
  int64_t stages = ctx.options.stages;
  if (stages == 0) {
    KLoopBudget single = computeContextBudget(ctx, 1, blocks);
    StageModel model;
    stages = chooseStages(ctx, single, model, decision.ruleReasons);
    decision.stageModel = model;
  }
  // Without cp.async only the register variants remain: 2 buffers at most.
  if (!ctx.target.hasCpAsync && stages > 2)
    stages = 2;
  int64_t requested = stages;
  stages = capByTripCount(info, stages);
  KLoopBudget budget = computeContextBudget(ctx, stages, blocks);
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

/// The procedure's predicted gain for a compute/load ratio.
static std::string predictGain(double ratio) {
  if (ratio < kLowRatio)
    return "+15-35% (ratio < 5:1)";
  if (ratio <= kHighRatio)
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
  if (ratio < kLowRatio) {
    reasons.push_back("ratio " + value + " < 5: " + copies.str() +
                      " preferred (rule low-ratio)");
    return PipelineVariant::CpAsync;
  }
  if (ratio <= kHighRatio) {
    reasons.push_back("ratio " + value +
                      " in 5-20: both variants are worth benchmarking; " +
                      copies.str() +
                      " is the procedure's default (rule mid-ratio; try "
                      "variant=ldg-register too)");
    return PipelineVariant::CpAsync;
  }
  if (skipHighRatio) {
    reasons.push_back("ratio " + value +
                      " > 20: the procedure predicts 0-5% or a regression and "
                      "skip-high-ratio is set");
    return PipelineVariant::None;
  }
  reasons.push_back("ratio " + value +
                    " > 20: the procedure predicts 0-5% or a regression; " +
                    copies.str() +
                    " is selected all the same (rule high-ratio; "
                    "skip-high-ratio=true skips)");
  return PipelineVariant::CpAsync;
}

/// Cycles of tensor-core compute one warp's compute phase issues per
/// K-iteration (mma.sync, at kMmaFlopsPerWarpCycle); 0 with wgmma (its
/// operands are not read by instructions pk counts) or with FMA compute
/// (IREE's f32 matmul, 4 cycles of FFMA per read, ran 0.98-1.00x
/// pipelined: no loss beyond noise to decline for).
static double getComputeCyclesPerIteration(const KLoopInfo &info) {
  if (!info.warpgroupMmas.empty() || info.threadsPerBlock <= 0 ||
      info.mmaFlopsPerTile == 0 || info.fmaFlopsPerTile != 0)
    return 0.0;
  int64_t warps = llvm::divideCeil(info.threadsPerBlock, 32);
  double mmaPerWarp = double(info.mmaFlopsPerTile) / double(warps);
  return mmaPerWarp / double(info.mmaInt8 ? kMmaInt8FlopsPerWarpCycle
                                          : kMmaFlopsPerWarpCycle);
}

/// Rule `read-bound`: whether the compute phase loads its mma.sync operands
/// from shared memory (not with ldmatrix) so densely that it waits on the
/// loads while the other resident blocks cover each block's copies (then
/// the reason is in `reasons`).
static bool isReadBound(const KLoopInfo &info, const KLoopBudget &budget,
                        SmallVectorImpl<std::string> &reasons) {
  double cycles = getComputeCyclesPerIteration(info);
  if (info.sharedLoadsPerThread <= 0 || cycles <= 0.0 ||
      budget.single.blocksPerSM < 2)
    return false;
  double perLoad = cycles / double(info.sharedLoadsPerThread);
  if (perLoad >= kMinComputeCyclesPerSharedRead)
    return false;
  LDBG() << "read-bound: " << perLoad << " cycles per shared load -> none";
  reasons.push_back(llvm::formatv(
      "the compute phase loads its mma.sync operands with {0} shared-memory "
      "loads (not ldmatrix) per thread and K-step for ~{1:F0} cycles of "
      "mma.sync ({2:F1} cycles per load, fewer than {3:F0}): it waits on "
      "those loads, and with {4} blocks/SM resident the other blocks "
      "already cover each block's copies; pipelined, such loops measured "
      "1-14% slower (rule read-bound; a variant= option forces it)",
      info.sharedLoadsPerThread, cycles, perLoad,
      kMinComputeCyclesPerSharedRead, budget.single.blocksPerSM));
  return true;
}

/// Step 3: the ratio rule.
static PipelineVariant
applyRatioAndBudgetRules(const KLoopInfo &info, const KLoopBudget &budget,
                         const DecisionOptions &options,
                         SmallVectorImpl<std::string> &reasons) {
  if (info.tripCount && *info.tripCount < 2) {
    reasons.push_back(llvm::formatv(
        "trip count {0} < 2: no next tile to overlap", *info.tripCount));
    return PipelineVariant::None;
  }
  // The budget's reason first: a forced variant reports it too.
  reasons.push_back(budget.fits() ? describeFittingBudget(budget)
                                  : describeCrossedBudget(budget));
  if (isReadBound(info, budget, reasons))
    return PipelineVariant::None;
  if (!budget.fits())
    return PipelineVariant::RegisterPrefetch;
  if (!budget.target->hasCpAsync) {
    reasons.push_back(llvm::formatv("{0} has no cp.async (sm_80 and later): "
                                    "LDG-register prefetch (rule no-cp-async)",
                                    budget.target->arch));
    return PipelineVariant::LdgRegister;
  }
  return applyRatioRule(info.ratio, options.skipHighRatio,
                        info.tma ? "TMA" : "cp.async", reasons);
}

/// Whether the loop computes with FMAs only (no mma.sync, no wgmma).
static bool hasFmaComputeOnly(const KLoopInfo &info) {
  return info.fmaFlopsPerTile != 0 && info.mmaFlopsPerTile == 0 &&
         info.warpgroupMmas.empty();
}

int64_t pk::detail::getMinAutoCpAsyncWidth(const KLoopInfo &info) {
  return hasFmaComputeOnly(info) ? kMinAutoCpAsyncWidthFma
                                 : kMinAutoCpAsyncWidth;
}

/// Step 4 for variant=auto: cp.async only where the copies allow it at
/// getMinAutoCpAsyncWidth bytes or more (rule narrow-cp-async).
static PipelineVariant refineForCopies(PipelineVariant variant,
                                       const DecisionContext &ctx,
                                       SmallVectorImpl<std::string> &reasons) {
  if (variant != PipelineVariant::CpAsync)
    return variant;
  if (failed(ctx.copies)) {
    reasons.push_back(
        ("cp.async not possible: " + ctx.copies.getDecline().getMessage() +
         "; falling back to ldg-register")
            .str());
    return PipelineVariant::LdgRegister;
  }
  int64_t width = getNarrowestWidth(*ctx.copies);
  int64_t minWidth = getMinAutoCpAsyncWidth(ctx.info);
  if (width < minWidth) {
    LDBG() << "narrow-cp-async: " << width << " < " << minWidth << " bytes";
    if (!hasFmaComputeOnly(ctx.info))
      reasons.push_back(llvm::formatv(
          "cp.async would copy only {0} bytes per instruction (8- and "
          "16-byte copies need contiguous tiles aligned to that width): "
          "ldg-register (rule narrow-cp-async; variant=cp-async forces it)",
          width));
    else
      reasons.push_back(llvm::formatv(
          "cp.async would copy only {0} bytes per instruction and the "
          "compute phase is FMAs only: below {1} bytes such loops measured "
          "no faster with cp.async than unpipelined, ldg-register a little "
          "faster (rule narrow-cp-async; variant=cp-async forces it)",
          width, minWidth));
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
/// Whether the loop takes the variant at all is the plan's check
/// (checkStrategy).
static PipelineVariant
applyForcedVariant(const DecisionContext &ctx, PipelineVariant autoChoice,
                   const KLoopBudget &budget,
                   SmallVectorImpl<std::string> &reasons) {
  PipelineVariant chosen = ctx.options.variant;
  reasons.push_back(("variant=" + stringifyPipelineVariant(chosen) +
                     " requested (auto would pick " +
                     stringifyPipelineVariant(autoChoice) + ")")
                        .str());
  // Buffers beyond the per-block maximum (with what the kernel already
  // holds: another loop's stages) could not launch at all.
  if (chosen != PipelineVariant::RegisterPrefetch &&
      budget.exceedsPerBlockMax) {
    reasons.push_back(llvm::formatv(
        "{0} bytes of shared memory with {1} stages (the kernel's other "
        "shared memory included) exceed {2}'s per-block maximum of {3} "
        "bytes: the kernel could not launch",
        budget.smemMultiBytes, budget.stages, budget.target->arch,
        budget.target->smemPerBlockOptIn));
    return PipelineVariant::None;
  }
  if (chosen != PipelineVariant::RegisterPrefetch && !budget.fits())
    reasons.push_back(llvm::formatv(
        "warning: {0} bytes with {1} stages cross the {2} budget (blocks/SM "
        "{3} -> {4})",
        budget.smemMultiBytes, budget.stages, budget.target->arch,
        budget.single.blocksPerSM, budget.multi.blocksPerSM));
  if (chosen == PipelineVariant::CpAsync && !ctx.info.tma &&
      failed(ctx.copies)) {
    reasons.push_back(
        ("cp.async not possible: " + ctx.copies.getDecline().getMessage() +
         "; falling back to ldg-register")
            .str());
    return PipelineVariant::LdgRegister;
  }
  return chosen;
}

/// Rule `per-copy`: the buffers whose copies keep the register path in a
/// cp-async loop, each with the reason; the first copy that caused it is
/// the remark's note.
static void notePerCopyVariants(const KLoopInfo &info,
                                ArrayRef<AsyncCopyPlan> copies,
                                KLoopDecision &decision) {
  SmallVector<unsigned> noted;
  for (const AsyncCopyPlan *plan : getRegisterPathCopies(copies)) {
    unsigned buffer = llvm::find_if(info.copies, [&](const TileCopy &copy) {
                        return copy.load == plan->load;
                      })->getStoreBuffer(plan->store);
    if (llvm::is_contained(noted, buffer))
      continue;
    noted.push_back(buffer);
    decision.reasons.push_back(llvm::formatv(
        "per-copy variants: the copies into {0} keep the register path "
        "(global loads issued with the tile's cp.async copies, shared stores "
        "after the compute) because {1}; the other copies are cp.async "
        "(rule per-copy)",
        info.buffers[buffer].name, plan->registerReason->getMessage()));
    if (!decision.asyncCopyDecline)
      decision.asyncCopyDecline = *plan->registerReason;
  }
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
/// buffers and blocks/SM, a wgmma loop takes schedule=mma-in-flight when the
/// strategy allows it and the model predicts it faster than the multistage
/// order (docs/hopper.md).
static void chooseMmaOrder(const DecisionContext &ctx, KLoopDecision &decision,
                           Choice &choice) {
  if (!isMultistageVariant(choice.variant) ||
      failed(checkStrategy(ctx.info, ctx.target, choice.variant,
                           PipelineSchedule::MmaInFlight, choice.buffers)))
    return;
  int64_t blocks = std::max<int64_t>(decision.budget.multi.blocksPerSM, 1);
  Candidate multistage{choice.variant, choice.buffers, blocks,
                       PipelineSchedule::Multistage};
  Candidate inFlight = multistage;
  inFlight.schedule = PipelineSchedule::MmaInFlight;
  double msCycles =
      modelCycles(ctx.info, ctx.target, multistage, choice.buffers, blocks);
  double mifCycles =
      modelCycles(ctx.info, ctx.target, inFlight, choice.buffers, blocks);
  if (mifCycles >= msCycles)
    return;
  choice.schedule = PipelineSchedule::MmaInFlight;
  decision.reasons.push_back(llvm::formatv(
      "schedule=auto: mma-in-flight (~{0:F0} cycles/tile) beats multistage "
      "(~{1:F0}) with {2} buffers at {3} block(s)/SM (rule mma-in-flight)",
      mifCycles, msCycles, choice.buffers, blocks));
}

/// Rule `warp-specialized-persistent`: a flattened persistent loop
/// (KLoopInfo::tileEpilogue) on the TMA ring is warp-specialized with the
/// same buffers when schedule=auto and the strategy allows it. On the ring
/// the threads that run a tile's epilogue also issue the next k-steps'
/// loads, so no load starts while the epilogue runs; a producer warpgroup
/// keeps loading through it. Measured on an H100 at 8192^3, 128x256x64,
/// 132 blocks: f16 766 TFLOP/s warp-specialized x4 against 682 for the ring
/// x4 mma-in-flight, bf16 812 against 711
/// (integration/results/2026-12-06-h100-persistent/).
static void chooseWarpSpecializedForTiles(const DecisionContext &ctx,
                                          KLoopDecision &decision,
                                          Choice &choice) {
  if (!ctx.info.tileEpilogue || choice.variant != PipelineVariant::Tma ||
      ctx.options.schedule != PipelineSchedule::Auto ||
      failed(checkStrategy(ctx.info, ctx.target, choice.variant,
                           PipelineSchedule::WarpSpecialized, choice.buffers)))
    return;
  choice.schedule = PipelineSchedule::WarpSpecialized;
  decision.reasons.push_back(llvm::formatv(
      "schedule=auto: warp-specialized with {0} buffers: the loop runs a "
      "persistent kernel's tiles, and a producer warpgroup keeps loading the "
      "next tile while the consumers run this tile's epilogue, where the "
      "ring's loads wait for it (measured 766 against 682 TFLOP/s f16 at "
      "8192^3 on an H100); the block grows by the producer warpgroup "
      "(rule warp-specialized-persistent)",
      choice.buffers));
}

/// The first estimate says a dynamic trip count versions the loop; the
/// warp-specialized schedule peels no tile and runs any trip count
/// (PipelinePlan::versionMinTrips), so its reasons say that instead.
static void describeWarpSpecializedTrips(const DecisionContext &ctx,
                                         KLoopDecision &decision,
                                         const Choice &choice) {
  if (ctx.info.tripCount ||
      choice.schedule != PipelineSchedule::WarpSpecialized)
    return;
  constexpr StringLiteral kVersioned = "dynamic trip count: the pipelined "
                                       "loop runs when the trip count is";
  std::string text = "dynamic trip count: warp specialization runs any trip "
                     "count (no versioned loop)";
  for (SmallVector<std::string> *reasons :
       {&decision.reasons, &decision.ruleReasons})
    for (std::string &reason : *reasons)
      if (StringRef(reason).starts_with(kVersioned))
        reason = text;
}

/// Rule `warp-specialized-bound`: the producer warpgroup grows the block, so
/// a launch bound (`nvvm.minctasm`) above the blocks/SM the shared memory
/// and the register estimate allow for the grown block would only make
/// ptxas cap registers (and spill): pk lowers it to what fits.
static void fitWarpSpecializedBound(const DecisionContext &ctx,
                                    KLoopDecision &decision, Choice &choice) {
  auto bound = ctx.info.kernel->getAttrOfType<IntegerAttr>(kMinCtasmAttrName);
  if (choice.schedule != PipelineSchedule::WarpSpecialized ||
      choice.setMinBlocks || !bound)
    return;
  int64_t regs = estimateRegisters(ctx.info, choice.variant);
  int64_t byRegisters =
      ctx.target.regsPerSM / std::max<int64_t>(ctx.threadsPerBlock * regs, 1);
  int64_t blocks = std::max<int64_t>(
      std::min(decision.budget.multi.blocksPerSM, byRegisters), 1);
  if (bound.getInt() <= blocks)
    return;
  choice.setMinBlocks = blocks;
  decision.reasons.push_back(llvm::formatv(
      "launch bound nvvm.minctasm {0} -> {1}: {1} block(s)/SM of {2} threads "
      "(~{3} registers each) and {4} bytes of shared memory fit; the higher "
      "bound would only cap registers (rule warp-specialized-bound)",
      bound.getInt(), blocks, ctx.threadsPerBlock, regs,
      decision.budget.smemMultiBytes));
}

/// Rule `tma-fewer-blocks`: with min-blocks-per-sm=auto the rules budget the
/// default blocks/SM, and TMA loads keep no variant but a ring of at least 2
/// buffers. When that ring (`refused`) does not fit there (a kernel with
/// shared memory of its own beside the tiles, e.g. a TMA-store epilogue, or
/// stages= asking for more than 2 blocks/SM hold), returns the most
/// blocks/SM below it where it fits, with the reason; the candidate search
/// then ranks the occupancies as usual.
static std::optional<std::pair<int64_t, std::string>>
getTmaRingBlocks(const DecisionContext &ctx, const KLoopBudget &refused) {
  if (!ctx.info.tma || refused.fits() || refused.stages < 2 ||
      (ctx.info.tripCount && *ctx.info.tripCount < 2))
    return std::nullopt;
  int64_t from = ctx.options.minBlocksPerSM;
  for (int64_t blocks = from - 1; blocks >= 1; --blocks)
    if (computeContextBudget(ctx, refused.stages, blocks).fits())
      return std::make_pair(
          blocks,
          llvm::formatv(
              "min-blocks-per-sm=auto: the TMA ring's {0} stages need {1} "
              "bytes of shared memory, above the {2} cliff of {3} bytes for "
              "{4} blocks/SM, and TMA loads keep no variant without the "
              "ring; the rules budget {5} block(s)/SM (rule tma-fewer-blocks)",
              refused.stages, refused.smemMultiBytes, ctx.target.arch,
              refused.cliffBytes, from, blocks)
              .str());
  return std::nullopt;
}

/// Steps 3 and 4: the variant from the rules, what the copies allow and what
/// the caller forced, with its reasons in `decision.reasons`.
static PipelineVariant chooseVariant(const DecisionContext &ctx,
                                     KLoopDecision &decision) {
  const KLoopInfo &info = ctx.info;
  decision.ruleVariant = applyRatioAndBudgetRules(
      info, decision.budget, ctx.options, decision.ruleReasons);
  SmallVector<std::string> autoReasons(decision.ruleReasons);
  PipelineVariant autoChoice =
      info.tma ? keepTmaCopies(decision.ruleVariant, ctx.target, autoReasons)
      : info.hasAsyncCopies()
          ? keepAsyncCopies(decision.ruleVariant, autoReasons)
          : refineForCopies(decision.ruleVariant, ctx, autoReasons);
  PipelineVariant chosen = autoChoice;
  if (ctx.options.variant == PipelineVariant::Auto)
    decision.reasons = std::move(autoReasons);
  else
    chosen =
        applyForcedVariant(ctx, autoChoice, decision.budget, decision.reasons);
  // A fallback from cp.async keeps the copy that caused it (remark notes).
  if (failed(ctx.copies) &&
      llvm::any_of(decision.reasons, [](StringRef reason) {
        return reason.starts_with("cp.async not possible: ");
      }))
    decision.asyncCopyDecline = ctx.copies.getDecline();
  return chosen;
}

/// Step 7: the plan of `choice`, or the Decline that says why there is none.
static void buildPlan(const DecisionContext &ctx, KLoopDecision &decision,
                      Choice &choice) {
  if (choice.variant != PipelineVariant::None) {
    Candidate chosen{choice.variant, choice.buffers, decision.minBlocksPerSM,
                     choice.schedule};
    DeclineOr<PipelinePlan> plan =
        buildPipelinePlan(ctx.info, ctx.target, chosen, &ctx.copies);
    if (succeeded(plan)) {
      plan->setMinBlocksPerSM = choice.setMinBlocks;
      decision.plan = std::move(*plan);
      return;
    }
    choice.decline = plan.takeDecline();
  }
  if (!choice.decline)
    choice.decline = Decline(ctx.info.forOp, decision.reasons.empty()
                                                 ? "no variant selected"
                                                 : decision.reasons.back());
  decision.decline = std::move(choice.decline);
}

KLoopDecision mlir::pk::decide(const KLoopInfo &info, const TargetInfo &target,
                               const DecisionOptions &requested) {
  KLoopDecision decision;
  // Step 0: the blocks/SM target (option, launch bounds, default or auto;
  // auto budgets the rules for the default and searches below).
  int64_t blocks = resolveMinBlocksPerSM(info, requested.minBlocksPerSM,
                                         decision.minBlocksSource);
  DecisionOptions options = requested;
  options.minBlocksPerSM =
      blocks == kMinBlocksAuto ? kDefaultMinBlocksPerSM : blocks;
  decision.minBlocksPerSM = options.minBlocksPerSM;
  // schedule=warp-specialized budgets the block it creates: the loop's
  // threads and a producer warpgroup.
  bool warpSpecialized =
      requested.schedule == PipelineSchedule::WarpSpecialized && info.tma;
  DeclineOr<SmallVector<AsyncCopyPlan>> copies = planAsyncCopies(info);
  DecisionContext ctx{
      info, target, options,
      info.threadsPerBlock + (warpSpecialized ? kProducerThreads : 0), copies};
  decision.budget = decideStages(ctx, decision);
  if (blocks == kMinBlocksAuto)
    if (auto fewer = getTmaRingBlocks(ctx, decision.budget)) {
      // ctx refers to `options`: the rules run again on the new target.
      options.minBlocksPerSM = decision.minBlocksPerSM = fewer->first;
      decision.ruleReasons.clear();
      decision.budget = decideStages(ctx, decision);
      decision.ruleReasons.push_back(std::move(fewer->second));
    }
  decision.prediction = predictGain(info.ratio);

  Choice choice;
  choice.variant = chooseVariant(ctx, decision);
  if (choice.variant == PipelineVariant::CpAsync && succeeded(copies)) {
    notePerCopyVariants(info, *copies, decision);
    SmallVector<Value> runtimeAligned;
    getRuntimeAlignedMemRefs(*copies, runtimeAligned);
    if (!runtimeAligned.empty())
      noteRuntimeAlignment(runtimeAligned, getNarrowestWidth(*copies),
                           decision.reasons);
  }
  choice.buffers =
      choice.variant == PipelineVariant::None
          ? 0
          : getVariantBuffers(info, choice.variant, decision.budget.stages);
  // Rule `schedule-multistage`: auto is the multistage order (the search
  // below may pick mma-in-flight on wgmma loops).
  choice.schedule = options.schedule == PipelineSchedule::Auto
                        ? PipelineSchedule::Multistage
                        : options.schedule;
  // A forced strategy the loop cannot take ends here, before the search.
  if (choice.variant != PipelineVariant::None)
    if (DeclineOr<void> valid = checkStrategy(info, target, choice.variant,
                                              choice.schedule, choice.buffers);
        failed(valid)) {
      choice.variant = PipelineVariant::None;
      choice.decline = valid.takeDecline();
    }
  // Step 6: the register-aware search (rule never-worse declines).
  bool search =
      blocks == kMinBlocksAuto || (options.stages == 0 && options.compiler);
  if (search && choice.variant != PipelineVariant::None)
    searchCandidates(ctx, blocks, decision, choice);
  else if (options.schedule == PipelineSchedule::Auto)
    chooseMmaOrder(ctx, decision, choice);
  chooseWarpSpecializedForTiles(ctx, decision, choice);
  describeWarpSpecializedTrips(ctx, decision, choice);
  fitWarpSpecializedBound(ctx, decision, choice);
  // Rule `warp-specialized-on-request`.
  if (choice.variant == PipelineVariant::Tma &&
      choice.schedule != PipelineSchedule::WarpSpecialized &&
      options.schedule == PipelineSchedule::Auto)
    decision.reasons.push_back(
        "schedule=auto keeps every thread computing on the ring: "
        "warp-specialized grows the block by a producer warpgroup (a launch "
        "change) and measured no faster on the H200 "
        "(rule warp-specialized-on-request)");
  buildPlan(ctx, decision, choice);
  LDBG() << "decision: " << stringifyPipelineVariant(decision.getVariant())
         << ", " << decision.getBuffers() << " buffer(s)";
  return decision;
}
