//===- CheckSmemBudget.cpp - pk-check-smem-budget -------------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The pipelining procedure's Step 1: multi-buffering a K-loop replicates the
// shared buffers its load phase writes. If that exceeds the per-block
// maximum, or drops the resident blocks per SM below the target (the
// occupancy cliff: 50176 bytes for 2 blocks/SM on sm_86), this pass emits an
// error with every number and the remedies, sized:
//
//   error: multi-buffering with 2 stages needs 57344 bytes of shared memory
//   per block, above the sm_86 cliff of 50176 bytes for 2 blocks/SM
//   (blocks/SM 3 -> 1, limited by shared_memory); remedies: halve BK ...
//
// Tests: test/pk-check-smem-budget.mlir,
// test/pk-check-smem-budget-invalid.mlir.
//
//===----------------------------------------------------------------------===//

#include "PassUtils.h"

#include "pk/Coverage.h"
#include "pk/Decision.h"
#include "pk/Passes.h"
#include "pk/PipelineKernelLoop.h"
#include "pk/Support.h"

#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "pk-check-smem-budget"

namespace mlir {
namespace pk {
#define GEN_PASS_DEF_PKCHECKSMEMBUDGET
#include "pk/Passes.h.inc"
} // namespace pk
} // namespace mlir

using namespace mlir;
using namespace mlir::pk;

namespace {
struct CheckSmemBudgetPass final
    : public pk::impl::PKCheckSmemBudgetBase<CheckSmemBudgetPass> {
  using Base::Base;
  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) final {
    return pk::detail::initializeOptionsNamingPass(*this, options,
                                                   errorHandler);
  }

  friend PipelineRequest pk::detail::makeTargetRequest<CheckSmemBudgetPass>(
      const CheckSmemBudgetPass &);

  void runOnOperation() final {
    Operation *root = getOperation();
    PipelineRequest request = pk::detail::makeTargetRequest(*this);
    if (failed(verifyPipelineRequest(
            request, [&] { return mlir::emitError(root->getLoc()); })))
      return signalPassFailure();
    const TargetInfo &target = *lookupTarget(arch);

    // Verbose, it also says why each loop that is not a K-loop is left out.
    if (verbose) {
      remarkOnUnconsideredCode(root, /*verbose=*/true);
      remarkOnUnreachableLoops(root);
    }
    auto cache = getCachedAnalysis<pk::detail::KLoopAnalysisCache>();
    bool failedAny = false;
    for (scf::ForOp forOp : collectKLoopCandidates(root)) {
      // The decision an earlier pk pass made with this target and stage
      // count (pipeline-kernel: pk-analyze-kloops'), else its own.
      const AnalyzedKLoop *analyzed =
          cache ? cache->get().find(forOp) : nullptr;
      std::unique_ptr<AnalyzedKLoop> own;
      if (!analyzed || !budgetsAlike(analyzed->getRequest(), request)) {
        FailureOr<std::unique_ptr<AnalyzedKLoop>> decided =
            analyzeKernelLoop(forOp, request);
        if (failed(decided))
          return signalPassFailure();
        own = std::move(*decided);
        analyzed = own.get();
      }
      const PipelineResult &result = analyzed->getResult();
      if (const KLoopInfo *info = analyzed->getMatch())
        failedAny |= failed(checkLoop(*info, target, result.decision->budget));
      else if (verbose)
        emitNotAKLoopRemark(forOp, *result.decline);
    }
    markAllAnalysesPreserved();
    if (failedAny)
      signalPassFailure();
  }

  /// Whether decisions made with `a` and `b` budget alike: the same target
  /// and stage count, whatever the variant.
  static bool budgetsAlike(const PipelineRequest &a, const PipelineRequest &b) {
    return a.arch == b.arch && a.stages == b.stages &&
           a.minBlocksPerSM == b.minBlocksPerSM && a.blockSize == b.blockSize &&
           a.regsPerThread == b.regsPerThread;
  }

  /// The budget is the decision's, with the stage count it decides (the
  /// request, auto, or fewer for a short loop).
  LogicalResult checkLoop(const KLoopInfo &info, const TargetInfo &target,
                          const KLoopBudget &budget) {
    std::string occupancy = llvm::formatv(
        "blocks/SM {0} -> {1}, limited by {2}", budget.single.blocksPerSM,
        budget.multi.blocksPerSM, stringifyOccupancyLimit(budget.multi.limit));
    if (budget.exceedsPerBlockMax || budget.crossesCliff) {
      InFlightDiagnostic diag = mlir::emitError(info.forOp->getLoc());
      diag << "multi-buffering with " << budget.stages << " stages needs "
           << budget.smemMultiBytes << " bytes of shared memory per block ("
           << budget.smemSingleBytes << " single-buffered, "
           << info.smemPerStageBytes << " per stage), above the " << target.arch
           << " ";
      if (budget.exceedsPerBlockMax)
        diag << "per-block maximum of " << target.smemPerBlockOptIn << " bytes";
      else
        diag << "cliff of " << budget.cliffBytes << " bytes for "
             << budget.minBlocksPerSM << " blocks/SM";
      diag << " (" << occupancy
           << "); remedies: " << describeRemedies(info, budget);
      LDBG() << "budget exceeded at " << locationToString(info.forOp->getLoc());
      return failure();
    }
    InFlightDiagnostic remark = mlir::emitRemark(info.forOp->getLoc());
    remark << "shared-memory budget ok: " << budget.smemMultiBytes
           << " bytes with " << budget.stages << " stages, "
           << (budget.smemMultiBytes <= budget.cliffBytes ? "within" : "above")
           << " the " << target.arch << " cliff of " << budget.cliffBytes
           << " bytes for " << budget.minBlocksPerSM << " blocks/SM ("
           << occupancy << ")";
    if (budget.smemMultiBytes > budget.cliffBytes)
      remark << ": the kernel is already below " << budget.minBlocksPerSM
             << " blocks/SM, doubling costs no occupancy";
    if (budget.smemMultiBytes > target.smemPerBlockDefault)
      remark << "; above the " << target.smemPerBlockDefault
             << "-byte static limit: the kernel needs dynamic shared memory "
                "with the opt-in attribute";
    return success();
  }
};
} // namespace
