//===- PipelineKLoops.cpp - pk-pipeline-kloops ----------------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// A thin wrapper: for every K-loop of the input contract, `decide`
// (Decision.h) and `pipelineKLoop` (Pipelining.h). Every decision is a remark
// and, with report=<path>, a JSON line. A loop pk declines is left untouched;
// an internal error after the IR changed fails the pass.
// Tests: test/pk-pipeline-kloops*.mlir.
//
//===----------------------------------------------------------------------===//

#include "PassUtils.h"

#include "pk/KLoopMatcher.h"
#include "pk/Passes.h"
#include "pk/Pipelining.h"
#include "pk/Report.h"
#include "pk/Support.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "llvm/Support/DebugLog.h"
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

/// The decision remark: "pipelined: variant V, N shared buffer(s); reasons"
/// or "not pipelined; reasons".
static void emitDecisionRemark(Location loc, bool pipelined,
                               const KLoopDecision &decision,
                               ArrayRef<std::string> reasons) {
  InFlightDiagnostic diag = mlir::emitRemark(loc);
  if (pipelined)
    diag << "pipelined: variant " << stringifyPipelineVariant(decision.variant)
         << ", " << decision.buffers << " shared buffer(s)";
  else
    diag << "not pipelined";
  for (const std::string &reason : reasons)
    diag << "; " << reason;
}

namespace {
struct PipelineKLoopsPass final
    : public pk::impl::PKPipelineKLoopsBase<PipelineKLoopsPass> {
  using Base::Base;

  void runOnOperation() final {
    ModuleOp module = getOperation();
    FailureOr<pk::detail::TargetOptions> parsed =
        pk::detail::checkTargetOptions(module, arch, stages, minBlocksPerSM,
                                       blockSize, regsPerThread);
    if (failed(parsed))
      return signalPassFailure();
    const TargetInfo &target = *parsed->target;
    DecisionOptions options = parsed->decision;
    options.variant = variant;
    options.schedule = schedule;
    options.skipHighRatio = skipHighRatio;
    if (options.variant == PipelineVariant::CpAsync && !target.hasCpAsync) {
      mlir::emitError(module.getLoc())
          << "variant=cp-async needs cp.async (sm_80 and later); "
          << target.arch << " has none";
      return signalPassFailure();
    }

    pk::detail::normalizeStorageWithRemarks(module);
    // Pipelining a loop replaces it but leaves the other candidates in
    // place: collect them first (loops pipelining creates, e.g. an outer
    // loop that now holds the epilogue's barrier, are not candidates).
    SmallVector<scf::ForOp> candidates;
    module.walk<WalkOrder::PreOrder>([&](scf::ForOp forOp) {
      if (isKLoopCandidate(forOp))
        candidates.push_back(forOp);
    });
    std::string lines;
    for (scf::ForOp forOp : candidates)
      if (failed(processLoop(forOp, target, options, lines)))
        return signalPassFailure();
    if (report.empty())
      return;
    if (failed(writeReportLines(module.getLoc(), report, lines, reportAppend)))
      return signalPassFailure();
  }

  /// Decides and applies; appends the loop's JSON report line to `lines`.
  /// Fails only on an internal error after the IR changed.
  LogicalResult processLoop(scf::ForOp forOp, const TargetInfo &target,
                            const DecisionOptions &options,
                            std::string &lines) {
    std::string mismatch;
    Location where = forOp.getLoc();
    FailureOr<KLoopInfo> info = matchKLoop(forOp, mismatch, where, blockSize);
    if (failed(info)) {
      LDBG() << "not a K-loop: " << mismatch << " -> BAIL";
      if (remarkMismatches) {
        InFlightDiagnostic diag = mlir::emitRemark(forOp.getLoc())
                                  << "not pipelined: not a pk K-loop: "
                                  << mismatch;
        if (where != forOp.getLoc())
          diag.attachNote(where) << "here";
      }
      return success();
    }
    KLoopDecision decision = decide(*info, target, options);
    llvm::json::Object json = toJSON(*info, decision);
    SmallVector<std::string> reasons(decision.reasons);
    Location loc = forOp.getLoc();
    bool pipelined = false;
    if (decision.variant != PipelineVariant::None) {
      PipelineKLoopOptions pipeOptions;
      pipeOptions.variant = decision.variant;
      pipeOptions.stages = decision.budget.stages;
      pipeOptions.schedule = decision.schedule;
      pipeOptions.staticSharedMemoryLimit = target.smemPerBlockDefault;
      pipeOptions.testFailLate = testFailLate;
      IRRewriter rewriter(forOp.getContext());
      std::string why;
      bool modified = false;
      pipelined = succeeded(
          pipelineKLoop(rewriter, *info, pipeOptions, why, &modified));
      if (!pipelined && modified)
        return mlir::emitError(loc)
               << "pk failed after changing the IR (" << why
               << "); the kernel is left invalid, please report this loop";
      if (!pipelined) {
        LDBG() << "loop at " << locationToString(loc)
               << " not pipelined: " << why << " -> BAIL";
        reasons.push_back("not pipelined: " + why);
      }
    }
    emitDecisionRemark(loc, pipelined, decision, reasons);
    json["decision"] = decisionToJSON(decision, pipelined, reasons);
    lines += llvm::formatv("{0}\n", llvm::json::Value(std::move(json))).str();
    return success();
  }
};
} // namespace
