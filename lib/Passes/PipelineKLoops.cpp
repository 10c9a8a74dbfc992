//===- PipelineKLoops.cpp - pk-pipeline-kloops ----------------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// A thin wrapper: every K-loop candidate goes through `analyzeKernelLoop`
// (matchKLoop, decide) and `pipelineAnalyzedKLoop` (applyPipelinePlan),
// PipelineKernelLoop.h; a loop pk-analyze-kloops decided just before with
// the same options (KLoopAnalysisCache, as in pipeline-kernel) is not
// decided again. Every decision
// is a remark and, with report=<path>, a JSON line. A loop pk declines is
// left untouched; an internal error after the IR changed fails the pass.
// Tests: test/pk-pipeline-kloops*.mlir.
//
//===----------------------------------------------------------------------===//

#include "PassUtils.h"

#include "pk/Coverage.h"
#include "pk/Emit.h"
#include "pk/KLoopMatcher.h"
#include "pk/Passes.h"
#include "pk/PipelineKernelLoop.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "pk-pipeline-kloops"

namespace mlir {
namespace pk {
#define GEN_PASS_DEF_PKPIPELINEKLOOPS
#include "pk/Passes.h.inc"
} // namespace pk
} // namespace mlir

using namespace mlir;
using namespace mlir::pk;

namespace {
struct PipelineKLoopsPass final
    : public pk::impl::PKPipelineKLoopsBase<PipelineKLoopsPass> {
  using Base::Base;
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) final {
    return pk::detail::initializeOptionsNamingPass(*this, options,
                                                   errorHandler);
  }
  friend PipelineRequest
  pk::detail::makeTargetRequest<PipelineKLoopsPass>(const PipelineKLoopsPass &);

  /// The register-aware decision lowers candidates with a dynamic pass
  /// pipeline: load the dialects its passes create up front.
  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    OpPassManager pm(ModuleOp::getOperationName());
    buildLoweringPipeline(pm, *lookupTarget("sm_86"), /*barePtr=*/true,
                          LoweringFormat::PTX);
    pm.getDependentDialects(registry);
  }

  void runOnOperation() final {
    Operation *root = getOperation();
    PipelineRequest request = pk::detail::makeTargetRequest(*this);
    request.skipHighRatio = skipHighRatio;
    request.variant = variant;
    request.schedule = schedule;
    request.testFailLate = testFailLate;
    request.compileCandidates = compileCandidates;
    request.cudaPath = cudaPath;
    // Anchored below the gpu.module (e.g. on a gpu.func), pk may change only
    // the operation it runs on.
    if (!isa<ModuleOp, gpu::GPUModuleOp>(root))
      request.scope = root;
    if (failed(verifyPipelineRequest(
            request, [&] { return mlir::emitError(root->getLoc()); })))
      return signalPassFailure();

    // Decisions of an earlier pk pass hold while the IR is unchanged.
    std::optional<std::reference_wrapper<pk::detail::KLoopAnalysisCache>> cache;
    if (!pk::detail::normalizeStorageWithRemarks(root))
      cache = getCachedAnalysis<pk::detail::KLoopAnalysisCache>();
    if (requireAnalysis && !cache)
      return internalError(root->getLoc(), "no decisions to apply");
    if (remarkMismatches) {
      remarkOnUnreachableLoops(root);
      remarkOnUnconsideredCode(root, verbose);
    }
    // Pipelining a loop replaces it but leaves the other candidates in
    // place: collect them first (loops pipelining creates, e.g. an outer
    // loop that now holds the epilogue's barrier, are not candidates).
    SmallVector<scf::ForOp> candidates = collectKLoopCandidates(root);
    IRRewriter rewriter(root->getContext());
    std::string lines;
    // Kernels a loop of this run was pipelined in: their other loops are
    // decided again (pk-analyze-kloops saw them before that change).
    DenseSet<Operation *> changedKernels;
    for (scf::ForOp forOp : candidates) {
      Operation *kernel = forOp->getParentOfType<gpu::GPUFuncOp>();
      bool changed = changedKernels.contains(kernel);
      std::unique_ptr<AnalyzedKLoop> analyzed =
          cache && !changed ? cache->get().take(forOp, request) : nullptr;
      if (!analyzed && requireAnalysis && !changed)
        return internalError(forOp.getLoc(), "the loop has no decision");
      if (!analyzed) {
        FailureOr<std::unique_ptr<AnalyzedKLoop>> fresh =
            analyzeKernelLoop(forOp, request);
        if (failed(fresh))
          return signalPassFailure();
        analyzed = std::move(*fresh);
      }
      // Multi-buffering a memref.global changes the other kernels' IR.
      bool global = analyzed->changesOutsideKernel();
      // Fails only on an internal error after the IR changed (emitted).
      FailureOr<PipelineResult> result =
          pipelineAnalyzedKLoop(rewriter, *analyzed, request);
      if (failed(result))
        return signalPassFailure();
      if (result->outcome == PipelineOutcome::Pipelined) {
        changedKernels.insert(kernel);
        if (global)
          cache.reset();
      }
      if (result->outcome == PipelineOutcome::NotAKLoop && !remarkMismatches &&
          !changed)
        continue;
      // Inside pipeline-kernel (remarkMismatches off) pk-analyze-kloops
      // already warned.
      if (remarkMismatches)
        for (const auto &[where, warning] : result->warnings)
          mlir::emitWarning(where) << warning;
      emitPipelineRemark(*result);
      if (result->outcome == PipelineOutcome::NotAKLoop)
        continue;
      lines +=
          llvm::formatv("{0}\n", llvm::json::Value(std::move(result->report)));
    }
    if (report.empty())
      return;
    if (failed(reportFile->write(root->getLoc(), report, lines, reportAppend)))
      return signalPassFailure();
  }

  /// require-analysis: the decisions of pk-analyze-kloops were lost.
  void internalError(Location loc, StringRef what) {
    mlir::emitError(loc) << "pk internal error: require-analysis: " << what
                         << " from the pk-analyze-kloops run before this pass "
                            "(same operation, same options, IR unchanged)";
    signalPassFailure();
  }

  /// The report file, shared with the clones of this pass.
  std::shared_ptr<pk::detail::SharedReport> reportFile =
      std::make_shared<pk::detail::SharedReport>();
};
} // namespace
