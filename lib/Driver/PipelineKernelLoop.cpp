//===- PipelineKernelLoop.cpp - pk's entry point for one K-loop -----------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The one code path from a loop to pk's result: matchKLoop -> decide ->
// pipelineKLoop, with the numbers, the reasons and the JSON report captured
// before the IR changes. The passes (lib/Passes) and the transform ops
// (lib/TransformOps) are wrappers around `pipelineKernelLoop`.
// Tests: test/pk-pipeline-kloops*.mlir, test/pk-analyze-kloops*.mlir,
// test/transform-*.mlir, test/consumer (the installed package).
//
//===----------------------------------------------------------------------===//

#include "pk/PipelineKernelLoop.h"
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

StringRef mlir::pk::stringifyPipelineOutcome(PipelineOutcome outcome) {
  switch (outcome) {
  case PipelineOutcome::Pipelined:
    return "pipelined";
  case PipelineOutcome::NotAKLoop:
    return "not-a-kloop";
  case PipelineOutcome::NotSelected:
    return "not-selected";
  case PipelineOutcome::PreconditionFailed:
    return "precondition-failed";
  case PipelineOutcome::Analyzed:
    return "analyzed";
  }
  llvm_unreachable("unknown pipeline outcome");
}

std::optional<PipelineVariant> mlir::pk::parsePipelineVariant(StringRef name) {
  for (PipelineVariant variant :
       {PipelineVariant::Auto, PipelineVariant::CpAsync,
        PipelineVariant::LdgRegister, PipelineVariant::RegisterPrefetch,
        PipelineVariant::Tma})
    if (name == stringifyPipelineVariant(variant))
      return variant;
  return std::nullopt;
}

std::optional<PipelineSchedule>
mlir::pk::parsePipelineSchedule(StringRef name) {
  for (PipelineSchedule schedule :
       {PipelineSchedule::Auto, PipelineSchedule::Seed,
        PipelineSchedule::Multistage, PipelineSchedule::MmaInFlight,
        PipelineSchedule::WarpSpecialized})
    if (name == stringifyPipelineSchedule(schedule))
      return schedule;
  return std::nullopt;
}

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
  if (request.variant == PipelineVariant::CpAsync && !target->hasCpAsync)
    return emitError() << "variant=cp-async needs cp.async (sm_80 and later); "
                       << target->arch << " has none";
  if (request.variant == PipelineVariant::Tma && !target->hasTma())
    return emitError() << "variant=tma needs the Tensor Memory Accelerator "
                          "(sm_90 and later); "
                       << target->arch << " has none";
  if (request.schedule == PipelineSchedule::MmaInFlight && !target->hasWgmma)
    return emitError() << "schedule=mma-in-flight keeps wgmma groups in "
                          "flight (sm_90a); "
                       << target->arch << " has no wgmma";
  if (request.schedule == PipelineSchedule::WarpSpecialized &&
      !target->hasTma())
    return emitError() << "schedule=warp-specialized hands the TMA loads to "
                          "a producer warpgroup (sm_90 and later); "
                       << target->arch << " has no TMA";
  return success();
}

/// `reasons` joined by "; ".
static std::string joinReasons(ArrayRef<std::string> reasons) {
  return llvm::join(reasons, "; ");
}

std::string mlir::pk::describePipelineResult(const PipelineResult &result) {
  switch (result.outcome) {
  case PipelineOutcome::NotAKLoop:
    return "not pipelined: " + result.reason;
  case PipelineOutcome::Pipelined:
  case PipelineOutcome::Analyzed: {
    std::string text =
        llvm::formatv("{0}: variant {1}, {2} shared buffer(s)",
                      result.isPipelined() ? "pipelined" : "analyzed",
                      stringifyPipelineVariant(result.decision->variant),
                      result.decision->buffers);
    // The default orders go without saying; a wgmma group in flight does not.
    if (isMultistageVariant(result.decision->variant) &&
        (result.decision->schedule == PipelineSchedule::MmaInFlight ||
         result.decision->schedule == PipelineSchedule::WarpSpecialized))
      text +=
          (", schedule " + stringifyPipelineSchedule(result.decision->schedule))
              .str();
    if (!result.reasons.empty())
      text += "; " + joinReasons(result.reasons);
    return text;
  }
  case PipelineOutcome::NotSelected: {
    // `decide` appends the reason that selects no variant last; the others
    // (the budget, the ratio) come after it as context.
    ArrayRef<std::string> reasons = result.decision->reasons;
    if (reasons.empty())
      return "not pipelined";
    std::string text = "not pipelined: " + reasons.back();
    if (reasons.size() > 1)
      text += "; " + joinReasons(reasons.drop_back());
    return text;
  }
  case PipelineOutcome::PreconditionFailed: {
    // The decision's reasons say what was selected, not what happened.
    const KLoopDecision &decision = *result.decision;
    std::string text =
        llvm::formatv("not pipelined: {0}; the decision was variant {1} with "
                      "{2} buffer(s)",
                      result.reason, stringifyPipelineVariant(decision.variant),
                      decision.buffers);
    if (!decision.reasons.empty())
      text += ": " + joinReasons(decision.reasons);
    return text;
  }
  }
  llvm_unreachable("unknown pipeline outcome");
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

/// The position of `forOp` among the scf.for of its kernel, in pre-order.
static int64_t getLoopIndex(gpu::GPUFuncOp kernel, scf::ForOp forOp) {
  int64_t index = 0, found = -1;
  kernel.walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
    if (loop == forOp)
      found = index;
    ++index;
  });
  return found;
}

/// The scf.for at `index` (pre-order) of `kernel`, or null.
static scf::ForOp getLoopAt(gpu::GPUFuncOp kernel, int64_t index) {
  scf::ForOp result;
  int64_t i = 0;
  kernel.walk<WalkOrder::PreOrder>([&](scf::ForOp loop) {
    if (i++ == index)
      result = loop;
  });
  return result;
}

namespace {
/// The register-aware decision's compiler: pipelines `candidate` on a clone
/// of the loop's gpu.module, sets the kernel's `nvvm.minctasm`, lowers it and
/// runs ptxas (compileForResources). The original IR is not touched.
struct CandidateCompilerImpl {
  scf::ForOp forOp;
  const TargetInfo *target;
  PipelineRequest request;

  FailureOr<CompiledResources> operator()(const Candidate &candidate,
                                          std::string &error) const;
};
} // namespace

FailureOr<CompiledResources>
CandidateCompilerImpl::operator()(const Candidate &candidate,
                                  std::string &error) const {
  scf::ForOp forOp = this->forOp;
  auto kernel = forOp->getParentOfType<gpu::GPUFuncOp>();
  auto gpuModule =
      kernel ? kernel->getParentOfType<gpu::GPUModuleOp>() : gpu::GPUModuleOp();
  if (!gpuModule) {
    error = "the kernel is not in a gpu.module";
    return failure();
  }
  OpBuilder builder(forOp.getContext());
  OwningOpRef<ModuleOp> wrapper = ModuleOp::create(forOp.getLoc());
  (*wrapper)->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                      builder.getUnitAttr());
  builder.setInsertionPointToStart(wrapper->getBody());
  auto clone = cast<gpu::GPUModuleOp>(builder.clone(*gpuModule));
  auto cloneKernel = clone.lookupSymbol<gpu::GPUFuncOp>(kernel.getName());
  scf::ForOp loop = getLoopAt(cloneKernel, getLoopIndex(kernel, forOp));
  if (candidate.variant != PipelineVariant::None) {
    std::string reason;
    Location where = forOp.getLoc();
    FailureOr<KLoopInfo> info =
        matchKLoop(loop, reason, where, request.blockSize);
    if (failed(info)) {
      error = "the clone does not match: " + reason;
      return failure();
    }
    PipelineKLoopOptions options;
    options.variant = candidate.variant;
    // The register variants ignore the count (getEffectiveStages).
    options.stages = std::max<int64_t>(candidate.stages, kMinStages);
    options.schedule = candidate.schedule == PipelineSchedule::MmaInFlight
                           ? PipelineSchedule::MmaInFlight
                           : request.schedule;
    options.staticSharedMemoryLimit = target->smemPerBlockDefault;
    IRRewriter rewriter(forOp.getContext());
    if (failed(pipelineKLoop(rewriter, *info, options, reason))) {
      error = reason;
      return failure();
    }
  }
  cloneKernel->setAttr(kMinCtasmAttrName,
                       builder.getI32IntegerAttr(candidate.blocksPerSM));
  int64_t dynamicBytes = 0;
  if (auto attr =
          cloneKernel->getAttrOfType<IntegerAttr>(kDynamicSharedMemoryAttrName))
    dynamicBytes = attr.getInt();
  FailureOr<PtxasKernelInfo> ptxas =
      compileForResources(*wrapper, kernel.getName(), *target,
                          resolveCudaPath(request.cudaPath), error);
  if (failed(ptxas))
    return failure();
  LDBG() << describeCandidate(candidate) << ": " << ptxas->registers
         << " registers, " << ptxas->spillStores << " bytes spill stores";
  return CompiledResources{ptxas->registers,
                           ptxas->spillStores + ptxas->spillLoads,
                           ptxas->sharedBytes + dynamicBytes};
}

/// Gives `options` the candidate compiler of `request` when the decision
/// will search (stages=auto or min-blocks-per-sm=auto), or the reason there
/// is none.
static void setCandidateCompiler(scf::ForOp forOp, const TargetInfo &target,
                                 const PipelineRequest &request,
                                 DecisionOptions &options) {
  if (!request.compileCandidates || request.analyzeOnly ||
      (request.stages != 0 && request.minBlocksPerSM != kMinBlocksAuto))
    return;
  std::string error;
  if (!hasPtxas(resolveCudaPath(request.cudaPath), error)) {
    options.noCompilerReason =
        "the model alone: " + error + ", so registers and spills are unknown";
    return;
  }
  options.compiler = CandidateCompilerImpl{forOp, &target, request};
}

/// Fails with the reason when multi-buffering `info` with `buffers` buffers
/// would change IR outside `scope`: a copied buffer that is a memref.global
/// declared outside it (multi-buffering replaces the global).
static LogicalResult checkScope(const KLoopInfo &info, int64_t buffers,
                                Operation *scope, std::string &reason) {
  if (!scope || buffers < 2)
    return success();
  for (const SharedBuffer &buffer : info.buffers) {
    if (!buffer.copied || buffer.kind != SharedBufferKind::Global)
      continue;
    Operation *global =
        SymbolTable::lookupNearestSymbolFrom(info.kernel, buffer.globalName);
    if (global && scope->isAncestor(global))
      continue;
    reason = llvm::formatv("the copied buffer {0} is a memref.global outside "
                           "the '{1}' pk runs on; run pk on the gpu.module",
                           buffer.name, scope->getName())
                 .str();
    return failure();
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

FailureOr<PipelineResult>
mlir::pk::pipelineKernelLoop(RewriterBase &rewriter, scf::ForOp forOp,
                             const PipelineRequest &request) {
  Location loc = forOp.getLoc();
  if (failed(
          verifyPipelineRequest(request, [&] { return mlir::emitError(loc); })))
    return failure();
  const TargetInfo &target = *lookupTarget(request.arch);

  PipelineResult result(forOp);
  std::string mismatch;
  FailureOr<KLoopInfo> info =
      matchKLoop(forOp, mismatch, result.where, request.blockSize);
  if (failed(info)) {
    LDBG() << "not a K-loop: " << mismatch << " -> BAIL";
    result.outcome = PipelineOutcome::NotAKLoop;
    result.reason = "not a pk K-loop: " + mismatch;
    return result;
  }

  for (const WarpgroupMma &wgmma : info->warpgroupMmas)
    if (!wgmma.proxyFenced)
      result.warnings.push_back(
          {wgmma.op->getLoc(),
           "the kernel races: nvgpu.warpgroup.mma reads, through the async "
           "proxy, shared tiles the load phase wrote with generic-proxy "
           "stores, and no fence.proxy.async (nvvm.fence.proxy <async.shared>) "
           "lies between them; put one after the stores (docs/hopper.md)"});

  DecisionOptions options;
  options.stages = request.stages;
  options.minBlocksPerSM = request.minBlocksPerSM;
  options.regsPerThread = request.regsPerThread;
  options.variant = request.variant;
  options.schedule = request.schedule;
  options.skipHighRatio = request.skipHighRatio;
  setCandidateCompiler(forOp, target, request, options);
  KLoopDecision decision = decide(*info, target, options);
  result.numbers = getNumbers(*info);
  result.summary = summarizeKLoop(*info, decision);
  result.report = toJSON(*info, decision);
  result.reasons.assign(decision.reasons.begin(), decision.reasons.end());
  result.decision = std::move(decision);
  const KLoopDecision &decided = *result.decision;

  if (request.analyzeOnly) {
    result.outcome = PipelineOutcome::Analyzed;
    return result;
  }
  auto finish = [&](PipelineOutcome outcome) {
    result.outcome = outcome;
    result.report["decision"] =
        decisionToJSON(decided, result.isPipelined(), result.reasons);
    return std::move(result);
  };
  if (decided.variant == PipelineVariant::None) {
    result.reason = llvm::join(decided.reasons, "; ");
    return finish(PipelineOutcome::NotSelected);
  }

  std::string why;
  if (failed(checkScope(*info, decided.buffers, request.scope, why))) {
    LDBG() << "loop at " << locationToString(loc) << ": " << why << " -> BAIL";
    result.reason = why;
    result.reasons.push_back("not pipelined: " + why);
    return finish(PipelineOutcome::PreconditionFailed);
  }
  PipelineKLoopOptions pipeOptions;
  pipeOptions.variant = decided.variant;
  pipeOptions.stages = decided.budget.stages;
  pipeOptions.schedule = decided.schedule;
  pipeOptions.staticSharedMemoryLimit = target.smemPerBlockDefault;
  pipeOptions.testFailLate = request.testFailLate;
  bool modified = false;
  FailureOr<PipelinedKLoop> pipelined =
      pipelineKLoop(rewriter, *info, pipeOptions, why, &modified);
  if (failed(pipelined) && modified)
    return mlir::emitError(loc)
           << "pk failed after changing the IR (" << why
           << "); the kernel is left invalid, please report this loop";
  if (failed(pipelined)) {
    LDBG() << "loop at " << locationToString(loc) << " not pipelined: " << why
           << " -> BAIL";
    result.reason = why;
    result.reasons.push_back("not pipelined: " + why);
    return finish(PipelineOutcome::PreconditionFailed);
  }
  result.loop = pipelined->loop;
  result.prologue = std::move(pipelined->prologue);
  result.epilogue = std::move(pipelined->epilogue);
  // min-blocks-per-sm=auto: the kernel's launch bound says what pk chose.
  if (decided.setMinBlocks)
    info->kernel->setAttr(kMinCtasmAttrName,
                          rewriter.getI32IntegerAttr(
                              static_cast<int32_t>(*decided.setMinBlocks)));
  if (decided.schedule == PipelineSchedule::WarpSpecialized)
    result.reasons.push_back(describeWarpSpecialization(info->kernel));
  return finish(PipelineOutcome::Pipelined);
}
