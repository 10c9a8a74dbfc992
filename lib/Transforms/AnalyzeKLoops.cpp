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

#include "pk/KLoopAnalysis.h"
#include "pk/Passes.h"

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
    FailureOr<KLoopAnalysisOptions> parsed = parseAnalysisOptions(
        module, arch, stages, minBlocksPerSM, blockSize, regsPerThread);
    if (failed(parsed))
      return signalPassFailure();
    KLoopAnalysisOptions options = *parsed;
    const TargetInfo *target = options.target;

    options.skipHighRatio = skipHighRatio;

    std::string lines;
    forEachKLoop(
        module, blockSize, /*remarkOnMismatch=*/true, [&](KLoopInfo &info) {
          KLoopBudget budget = analyzeBudget(info, *target, options);
          InFlightDiagnostic diag = mlir::emitRemark(info.forOp.getLoc())
                                    << summarizeKLoop(info, budget);
          for (const std::string &reason : budget.reasons)
            diag.attachNote(info.forOp.getLoc()) << reason;
          lines +=
              llvm::formatv("{0}\n", llvm::json::Value(toJSON(info, budget)));
        });
    if (report.empty())
      return;
    if (failed(writeReportLines(module.getLoc(), report, lines)))
      return signalPassFailure();
  }
};
} // namespace
