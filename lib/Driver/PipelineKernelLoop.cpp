//===- PipelineKernelLoop.cpp - pk's entry point for one K-loop -----------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The one code path from a loop to pk's result: matchKLoop -> decide ->
// applyPipelinePlan, with the numbers, the reasons and the JSON report
// captured before the IR changes. The candidate compiler is
// CandidateCompiler.cpp, the remark Describe.cpp. The passes (lib/Passes) and
// the transform ops (lib/TransformOps) are wrappers around
// `pipelineKernelLoop`. Tests: test/pk-pipeline-kloops*.mlir,
// test/pk-analyze-kloops*.mlir, test/transform-*.mlir, test/consumer (the
// installed package).
//
//===----------------------------------------------------------------------===//

#include "DriverInternal.h"

#include "pk/Emit.h"
#include "pk/KLoopMatcher.h"
#include "pk/Pipelining.h"
#include "pk/Report.h"
#include "pk/Support.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "pk-pipeline-kernel-loop"

using namespace mlir;
using namespace mlir::pk;

LogicalResult
mlir::pk::verifyPipelineRequest(const PipelineRequest &request,
                                function_ref<InFlightDiagnostic()> emitError) {
  const TargetInfo *target = lookupTarget(request.arch);
  if (!target)
    return emitError() << "unknown arch '" << request.arch
                       << "'; pk knows: " << getKnownTargetNames();
  if (request.stages != 0 &&
      (request.stages < kMinStages || request.stages > kMaxStages))
    return emitError() << "stages must be 2 to 8 or auto, got '"
                       << request.stages << "'";
  bool sentinel = request.minBlocksPerSM == kMinBlocksFromKernel ||
                  request.minBlocksPerSM == kMinBlocksAuto;
  if (!sentinel && request.minBlocksPerSM < 1)
    return emitError() << "min-blocks-per-sm must be at least 1, got "
                       << request.minBlocksPerSM;
  if (request.minBlocksPerSM > target->maxBlocksPerSM)
    return emitError() << "min-blocks-per-sm=" << request.minBlocksPerSM
                       << " exceeds the " << target->maxBlocksPerSM
                       << " resident blocks per SM of " << target->arch;
  if (request.blockSize < 0 || request.blockSize > 1024)
    return emitError() << "block-size must be in [0, 1024], got "
                       << request.blockSize;
  if (request.regsPerThread < 0 || request.regsPerThread > 255)
    return emitError() << "regs-per-thread must be in [0, 255], got "
                       << request.regsPerThread;
  if (std::optional<std::string> missing =
          checkStrategyOnTarget(*target, request.variant, request.schedule))
    return emitError() << *missing;
  return success();
}

/// The numbers of `info` that stay valid after the transform.
static KLoopNumbers getNumbers(const KLoopInfo &info) {
  KLoopNumbers numbers;
  gpu::GPUFuncOp kernel = info.kernel;
  numbers.kernel = kernel.getName().str();
  if (auto module = kernel->getParentOfType<gpu::GPUModuleOp>())
    numbers.kernel = (module.getName() + "::" + numbers.kernel).str();
  numbers.tripCount = info.tripCount;
  numbers.threadsPerBlock = info.threadsPerBlock;
  numbers.sharedBuffers = static_cast<int64_t>(info.buffers.size());
  numbers.copiedBuffers = llvm::count_if(
      info.buffers, [](const SharedBuffer &buffer) { return buffer.copied; });
  numbers.loadBytesPerTile = info.loadBytesPerTile;
  numbers.flopsPerTile = info.flopsPerTile;
  numbers.ratio = info.ratio;
  return numbers;
}

/// Declines when multi-buffering `info` with `buffers` buffers would change
/// IR outside `scope`: a copied buffer that is a memref.global declared
/// outside it (multi-buffering replaces the global).
static DeclineOr<void> checkScope(const KLoopInfo &info, int64_t buffers,
                                  Operation *scope) {
  if (!scope || buffers < 2)
    return success();
  for (const SharedBuffer &buffer : info.buffers) {
    if (!buffer.copied || buffer.kind != SharedBufferKind::Global)
      continue;
    Operation *global =
        SymbolTable::lookupNearestSymbolFrom(info.kernel, buffer.globalName);
    if (global && scope->isAncestor(global))
      continue;
    return Decline(buffer.root.getLoc(),
                   llvm::formatv("the copied buffer {0} is a memref.global "
                                 "outside the '{1}' pk runs on; run pk on the "
                                 "gpu.module",
                                 buffer.name, scope->getName()));
  }
  return success();
}

/// The block size schedule=warp-specialized grew the kernel to, which its
/// launch must use.
static std::string describeWarpSpecialization(gpu::GPUFuncOp kernel) {
  int64_t threads = getKernelBlockSize(kernel);
  return llvm::formatv(
      "schedule=warp-specialized: a producer warpgroup issues the TMA loads, "
      "the block grows from {0} to {1} threads (known_block_size and PTX "
      ".reqntid; launch it with {1})",
      threads - kProducerThreads, threads);
}

/// The decision's options of `request`.
static DecisionOptions getDecisionOptions(const PipelineRequest &request) {
  DecisionOptions options;
  options.stages = request.stages;
  options.minBlocksPerSM = request.minBlocksPerSM;
  options.regsPerThread = request.regsPerThread;
  options.variant = request.variant;
  options.schedule = request.schedule;
  options.skipHighRatio = request.skipHighRatio;
  return options;
}

/// The warnings of a matched loop: a wgmma that races with the stores of
/// its tiles.
static void collectWarnings(const KLoopInfo &info, PipelineResult &result) {
  for (const WarpgroupMma &wgmma : info.warpgroupMmas)
    if (!wgmma.proxyFenced)
      result.warnings.push_back(
          {wgmma.op->getLoc(),
           "the kernel races: nvgpu.warpgroup.mma reads, through the async "
           "proxy, shared tiles the load phase wrote with generic-proxy "
           "stores, and no fence.proxy.async (nvvm.fence.proxy <async.shared>) "
           "lies between them; put one after the stores (docs/hopper.md)"});
}

/// Ends `result` with `outcome` and, declined, `decline`: the report's
/// decision object.
static PipelineResult finish(PipelineResult &result, PipelineOutcome outcome,
                             std::optional<Decline> decline = std::nullopt) {
  result.outcome = outcome;
  if (decline) {
    result.reasons.push_back(("not pipelined: " + decline->getMessage()).str());
    result.decline = std::move(decline);
  }
  llvm::json::Object obj =
      decisionToJSON(*result.decision, result.isPipelined(), result.reasons);
  if (result.decline)
    obj["decline"] =
        llvm::json::Object{{"message", result.decline->getMessage()},
                           {"loc", locationToString(result.decline->getLoc())}};
  result.report["decision"] = std::move(obj);
  return std::move(result);
}

/// A loop of a kernel pk warp-specialized (kWarpSpecializedAttrName) runs
/// on its consumer warpgroups, after the split: declined, with a note at the
/// kernel's warp-specialized loop.
static DeclineOr<void> checkNotWarpSpecialized(scf::ForOp forOp) {
  auto kernel = forOp->getParentOfType<gpu::GPUFuncOp>();
  if (!kernel || !kernel->hasAttr(kWarpSpecializedAttrName))
    return success();
  Decline decline(forOp, "it follows the warp-specialized K-loop of its "
                         "kernel: that code runs on the consumer warpgroups "
                         "only, synchronized by named barriers, and pk "
                         "pipelines no second K-loop of a warp-specialized "
                         "kernel");
  kernel.walk([&](scf::ForOp loop) {
    if (!loop->hasAttr(kPipelinedAttrName))
      return WalkResult::advance();
    decline.attachNote(loop.getLoc(), "the kernel's warp-specialized K-loop");
    return WalkResult::interrupt();
  });
  return decline;
}

/// The loop's match, unless it follows the warp-specialized K-loop of its
/// kernel.
static DeclineOr<KLoopInfo> matchUnlessWarpSpecialized(scf::ForOp forOp,
                                                       int64_t blockSize) {
  if (DeclineOr<void> split = checkNotWarpSpecialized(forOp); failed(split)) {
    LDBG() << "loop in a warp-specialized kernel -> BAIL";
    return split.takeDecline();
  }
  // Returned as a prvalue: a KLoopInfo must not move.
  return matchKLoop(forOp, blockSize);
}

AnalyzedKLoop::AnalyzedKLoop(scf::ForOp forOp, const PipelineRequest &request)
    : request(request),
      match(matchUnlessWarpSpecialized(forOp, request.blockSize)),
      result(forOp) {
  if (failed(match)) {
    LDBG() << "not a K-loop: " << match.getDecline().getMessage() << " -> BAIL";
    result.outcome = PipelineOutcome::NotAKLoop;
    result.decline = match.getDecline();
    return;
  }
  const KLoopInfo &info = *match;
  collectWarnings(info, result);
  const TargetInfo &target = *lookupTarget(request.arch);
  DecisionOptions options = getDecisionOptions(request);
  detail::setCandidateCompiler(forOp, target, request, options);
  KLoopDecision decision = decide(info, target, options);
  result.numbers = getNumbers(info);
  result.summary = summarizeKLoop(info, decision);
  result.report = toJSON(info, decision);
  result.reasons.assign(decision.reasons.begin(), decision.reasons.end());
  result.decision = std::move(decision);
  result.outcome = PipelineOutcome::Analyzed;
}

AnalyzedKLoop::~AnalyzedKLoop() = default;

bool AnalyzedKLoop::changesOutsideKernel() const {
  if (failed(match))
    return false;
  return llvm::any_of(match->buffers, [](const SharedBuffer &buffer) {
    return buffer.copied && buffer.kind == SharedBufferKind::Global;
  });
}

bool mlir::pk::decideAlike(const PipelineRequest &a, const PipelineRequest &b) {
  return a.arch == b.arch && a.stages == b.stages &&
         a.minBlocksPerSM == b.minBlocksPerSM && a.blockSize == b.blockSize &&
         a.regsPerThread == b.regsPerThread && a.variant == b.variant &&
         a.schedule == b.schedule && a.skipHighRatio == b.skipHighRatio &&
         (!a.searchesCandidates() ||
          (a.compileCandidates == b.compileCandidates &&
           (!a.compileCandidates || a.cudaPath == b.cudaPath)));
}

FailureOr<std::unique_ptr<AnalyzedKLoop>>
mlir::pk::analyzeKernelLoop(scf::ForOp forOp, const PipelineRequest &request) {
  if (failed(verifyPipelineRequest(
          request, [&] { return mlir::emitError(forOp.getLoc()); })))
    return failure();
  return std::make_unique<AnalyzedKLoop>(forOp, request);
}

/// Applies `plan` to the matched loop `info` of `result` (Analyzed).
static FailureOr<PipelineResult> applyPlan(RewriterBase &rewriter,
                                           KLoopInfo &info,
                                           PipelineResult &result,
                                           const PipelineRequest &request) {
  Location loc = info.forOp.getLoc();
  const PipelinePlan &plan = *result.decision->plan;
  if (DeclineOr<void> scoped = checkScope(info, plan.buffers, request.scope);
      failed(scoped)) {
    LDBG() << "loop at " << locationToString(loc) << ": "
           << scoped.getDecline().getMessage() << " -> BAIL";
    return finish(result, PipelineOutcome::PreconditionFailed,
                  scoped.takeDecline());
  }
  bool modified = false;
  ApplyPlanOptions applyOptions;
  applyOptions.testFailLate = request.testFailLate;
  DeclineOr<PipelinedKLoop> pipelined =
      applyPipelinePlan(rewriter, info, plan, applyOptions, &modified);
  if (failed(pipelined) && modified)
    return mlir::emitError(loc)
           << "pk failed after changing the IR ("
           << pipelined.getDecline().getMessage()
           << "); the kernel is left invalid, please report this loop";
  if (failed(pipelined)) {
    LDBG() << "loop at " << locationToString(loc)
           << " not pipelined: " << pipelined.getDecline().getMessage()
           << " -> BAIL";
    return finish(result, PipelineOutcome::PreconditionFailed,
                  pipelined.takeDecline());
  }
  result.loop = pipelined->loop;
  result.prologue = std::move(pipelined->prologue);
  result.epilogue = std::move(pipelined->epilogue);
  if (info.barrierFirst)
    result.reasons.push_back(
        "the loop was barrier-first: pk rotated it into load; gpu.barrier; "
        "compute; gpu.barrier, with one gpu.barrier before the loop");
  if (plan.schedule == PipelineSchedule::WarpSpecialized)
    result.reasons.push_back(describeWarpSpecialization(info.kernel));
  return finish(result, PipelineOutcome::Pipelined);
}

FailureOr<PipelineResult>
mlir::pk::pipelineAnalyzedKLoop(RewriterBase &rewriter, AnalyzedKLoop &analyzed,
                                const PipelineRequest &request) {
  Location loc = analyzed.result.loop.getLoc();
  if (analyzed.consumed)
    return mlir::emitError(loc)
           << "pk internal error: an analyzed K-loop was applied twice";
  if (!decideAlike(request, analyzed.request))
    return mlir::emitError(loc)
           << "pk internal error: the loop was analyzed with a request that "
              "decides differently from the one applied";
  analyzed.consumed = true;
  PipelineResult result = std::move(analyzed.result);
  if (result.outcome == PipelineOutcome::NotAKLoop || request.analyzeOnly)
    return result;
  const KLoopDecision &decided = *result.decision;
  if (!decided.plan) {
    // Usually the decision's last reason says it; a strategy the loop
    // rules out is added.
    result.decline = decided.decline;
    StringRef why = result.decline->getMessage();
    if (result.reasons.empty() || result.reasons.back() != why)
      result.reasons.push_back(why.str());
    return finish(result, PipelineOutcome::NotSelected);
  }
  return applyPlan(rewriter, *analyzed.match, result, request);
}

FailureOr<PipelineResult>
mlir::pk::pipelineKernelLoop(RewriterBase &rewriter, scf::ForOp forOp,
                             const PipelineRequest &request) {
  FailureOr<std::unique_ptr<AnalyzedKLoop>> analyzed =
      analyzeKernelLoop(forOp, request);
  if (failed(analyzed))
    return failure();
  return pipelineAnalyzedKLoop(rewriter, **analyzed, request);
}
