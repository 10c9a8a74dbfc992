//===- AnalyzeKLoops.cpp - pk-analyze-kloops ------------------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Reports, for every K-loop of the input contract, the shared-memory budget,
// occupancy, compute/load ratio and selected variant, as remarks and as a
// JSON report (one object per loop and line). The IR is not changed.
// Tests: test/pk-analyze-kloops.mlir, test/pk-analyze-kloops-invalid.mlir.
//
//===----------------------------------------------------------------------===//

#include "PassUtils.h"

#include "pk/KLoopMatcher.h"
#include "pk/Passes.h"
#include "pk/Report.h"

#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ToolOutputFile.h"

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

  void runOnOperation() final {
    ModuleOp module = getOperation();
    FailureOr<pk::detail::TargetOptions> parsed =
        pk::detail::checkTargetOptions(module, arch, stages, minBlocksPerSM,
                                       blockSize, regsPerThread);
    if (failed(parsed))
      return signalPassFailure();
    DecisionOptions options = parsed->decision;
    options.skipHighRatio = skipHighRatio;

    std::string lines;
    forEachKLoop(
        module, blockSize, /*remarkOnMismatch=*/true, [&](KLoopInfo &info) {
          KLoopDecision decision = decide(info, *parsed->target, options);
          InFlightDiagnostic diag = mlir::emitRemark(info.forOp.getLoc())
                                    << summarizeKLoop(info, decision);
          for (const std::string &reason : decision.ruleReasons)
            diag.attachNote(info.forOp.getLoc()) << reason;
          lines +=
              llvm::formatv("{0}\n", llvm::json::Value(toJSON(info, decision)));
        });
    if (report.empty())
      return;
    if (failed(writeReportLines(module.getLoc(), report, lines, reportAppend)))
      return signalPassFailure();
  }
};
} // namespace
