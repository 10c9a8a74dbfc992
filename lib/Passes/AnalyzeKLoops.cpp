//===- AnalyzeKLoops.cpp - pk-analyze-kloops ------------------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Reports, for every K-loop of the input contract, the shared-memory budget,
// occupancy, compute/load ratio and selected variant, as remarks and as a
// JSON report (one object per loop and line), from `analyzeKernelLoop`.
// The IR is not changed; the decisions stay in the analysis manager
// (KLoopAnalysisCache) for pk-check-smem-budget and pk-pipeline-kloops.
// Tests: test/pk-analyze-kloops.mlir, test/pk-analyze-kloops-invalid.mlir.
//
//===----------------------------------------------------------------------===//

#include "PassUtils.h"

#include "pk/Coverage.h"
#include "pk/KLoopMatcher.h"
#include "pk/Passes.h"
#include "pk/PipelineKernelLoop.h"

#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "pk-analyze-kloops"

namespace mlir {
namespace pk {
#define GEN_PASS_DEF_PKANALYZEKLOOPS
#include "pk/Passes.h.inc"
} // namespace pk
} // namespace mlir

using namespace mlir;
using namespace mlir::pk;

namespace {
struct AnalyzeKLoopsPass final
    : public pk::impl::PKAnalyzeKLoopsBase<AnalyzeKLoopsPass> {
  using Base::Base;
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) final {
    return pk::detail::initializeOptionsNamingPass(*this, options,
                                                   errorHandler);
  }
  friend PipelineRequest
  pk::detail::makeTargetRequest<AnalyzeKLoopsPass>(const AnalyzeKLoopsPass &);

  void runOnOperation() final {
    Operation *root = getOperation();
    PipelineRequest request = pk::detail::makeTargetRequest(*this);
    request.skipHighRatio = skipHighRatio;
    request.variant = variant;
    request.schedule = schedule;
    request.compileCandidates = compileCandidates;
    request.cudaPath = cudaPath;
    request.analyzeOnly = true;
    if (failed(verifyPipelineRequest(
            request, [&] { return mlir::emitError(root->getLoc()); })))
      return signalPassFailure();

    remarkOnUnreachableLoops(root);
    remarkOnUnconsideredCode(root, verbose);
    SmallVector<scf::ForOp> candidates = collectKLoopCandidates(root);
    // The decisions stay in the analysis manager for the next pk pass.
    auto &cache = getAnalysis<pk::detail::KLoopAnalysisCache>();
    std::string lines;
    for (scf::ForOp forOp : candidates) {
      FailureOr<std::unique_ptr<AnalyzedKLoop>> analyzed =
          analyzeKernelLoop(forOp, request);
      if (failed(analyzed))
        return signalPassFailure();
      lines += remarkOnLoop(forOp, (*analyzed)->getResult());
      cache.insert(forOp, std::move(*analyzed));
    }
    markAllAnalysesPreserved();
    if (report.empty())
      return;
    if (failed(reportFile->write(root->getLoc(), report, lines, reportAppend)))
      return signalPassFailure();
  }

  /// Emits the loop's remark and warnings; returns its report line (none
  /// for a loop that is not a K-loop).
  static std::string remarkOnLoop(scf::ForOp forOp,
                                  const PipelineResult &result) {
    if (result.outcome == PipelineOutcome::NotAKLoop) {
      emitNotAKLoopRemark(forOp, *result.decline);
      return "";
    }
    for (const auto &[where, warning] : result.warnings)
      mlir::emitWarning(where) << warning;
    Location loc = forOp.getLoc();
    InFlightDiagnostic diag = mlir::emitRemark(loc) << result.summary;
    for (const std::string &reason : result.decision->ruleReasons)
      diag.attachNote(loc) << reason;
    return llvm::formatv("{0}\n",
                         llvm::json::Value(llvm::json::Object(result.report)))
        .str();
  }

  /// The report file, shared with the clones of this pass.
  std::shared_ptr<pk::detail::SharedReport> reportFile =
      std::make_shared<pk::detail::SharedReport>();
};
} // namespace
