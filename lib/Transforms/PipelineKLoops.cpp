//===- PipelineKLoops.cpp - pk-pipeline-kloops ----------------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// Decides, for every K-loop of the input contract, whether and how to
// pipeline it (the seed's Step 2 rule, see analyzeBudget), and applies
// pipelineKLoop (Pipelining.h). Every decision is a remark and, with
// report=<path>, a JSON line. Tests: test/pk-pipeline-kloops*.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/KLoopAnalysis.h"
#include "pk/Passes.h"
#include "pk/Pipelining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/DebugLog.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/ToolOutputFile.h"

#define DEBUG_TYPE "pk-pipeline-kloops"

namespace mlir {
namespace pk {
#define GEN_PASS_DEF_PKPIPELINEKLOOPS
#include "pk/Passes.h.inc"
} // namespace pk
} // namespace mlir

using namespace mlir;
using namespace mlir::pk;

/// Parses the `variant` option; nullopt for "auto".
static FailureOr<std::optional<PipelineVariant>> parseVariant(StringRef name) {
  if (name == "auto")
    return std::optional<PipelineVariant>();
  for (PipelineVariant v :
       {PipelineVariant::CpAsync, PipelineVariant::LdgRegister,
        PipelineVariant::RegisterPrefetch})
    if (name == stringifyPipelineVariant(v))
      return std::optional<PipelineVariant>(v);
  return failure();
}

/// Numbers the K-loop candidates under `root` in pre-order (attribute
/// kLoopIdAttr); returns how many.
static constexpr llvm::StringLiteral kLoopIdAttr = "pk.kloop_id";
static int64_t numberCandidates(Operation *root) {
  int64_t count = 0;
  root->walk<WalkOrder::PreOrder>([&](scf::ForOp forOp) {
    if (isKLoopCandidate(forOp))
      forOp->setAttr(
          kLoopIdAttr,
          IntegerAttr::get(IndexType::get(root->getContext()), count++));
  });
  return count;
}

/// The candidate numbered `id`, if it still exists.
static scf::ForOp findCandidate(Operation *root, int64_t id) {
  scf::ForOp found;
  root->walk([&](scf::ForOp forOp) {
    auto attr = forOp->getAttrOfType<IntegerAttr>(kLoopIdAttr);
    if (attr && attr.getInt() == id) {
      found = forOp;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

namespace {
struct PipelineKLoopsPass final
    : public pk::impl::PKPipelineKLoopsBase<PipelineKLoopsPass> {
  using Base::Base;

  PipelineSchedule scheduleKind = PipelineSchedule::Auto;

  void runOnOperation() final {
    ModuleOp module = getOperation();
    FailureOr<KLoopAnalysisOptions> parsed = parseAnalysisOptions(
        module, arch, stages, minBlocksPerSM, blockSize, regsPerThread);
    if (failed(parsed))
      return signalPassFailure();
    KLoopAnalysisOptions options = *parsed;
    const TargetInfo *target = options.target;
    FailureOr<std::optional<PipelineVariant>> forced = parseVariant(variant);
    if (failed(forced)) {
      mlir::emitError(module.getLoc())
          << "unknown variant '" << variant
          << "'; expected auto, cp-async, ldg-register or "
             "register-prefetch";
      return signalPassFailure();
    }
    std::optional<PipelineSchedule> parsedSchedule;
    for (PipelineSchedule sch : {PipelineSchedule::Auto, PipelineSchedule::Seed,
                                 PipelineSchedule::Multistage})
      if (schedule == stringifyPipelineSchedule(sch))
        parsedSchedule = sch;
    if (!parsedSchedule) {
      emitError(module.getLoc()) << "unknown schedule '" << schedule
                                 << "'; expected auto, seed or multistage";
      return signalPassFailure();
    }
    scheduleKind = *parsedSchedule;
    if (*forced == PipelineVariant::CpAsync && !target->hasCpAsync) {
      mlir::emitError(module.getLoc())
          << "variant=cp-async needs cp.async (sm_80 and "
             "later); "
          << target->arch << " has none";
      return signalPassFailure();
    }

    options.skipHighRatio = skipHighRatio;

    // Transforming a loop replaces it, and a failure restores a copy of its
    // gpu.module: number the original candidates and find each by number
    // (loops created by pipelining, e.g. an outer loop that now holds the
    // epilogue's barrier, have no number).
    std::string lines;
    int64_t count = numberCandidates(module);
    for (int64_t id = 0; id < count; ++id) {
      scf::ForOp forOp = findCandidate(module, id);
      if (!forOp)
        continue;
      forOp->removeAttr(kLoopIdAttr);
      lines += processLoop(forOp, *target, options, *forced);
    }
    module.walk([](scf::ForOp forOp) { forOp->removeAttr(kLoopIdAttr); });
    if (report.empty())
      return;
    if (failed(writeReportLines(module.getLoc(), report, lines)))
      return signalPassFailure();
  }

  /// Decides and applies; returns the loop's JSON report line.
  std::string processLoop(scf::ForOp forOp, const TargetInfo &target,
                          const KLoopAnalysisOptions &options,
                          std::optional<PipelineVariant> forced) {
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
      return "";
    }
    KLoopBudget budget = analyzeBudget(*info, target, options);
    // What variant=auto picks: the seed's rule (analyzeBudget), then what
    // the copies allow.
    SmallVector<std::string> autoReasons(budget.reasons);
    PipelineVariant autoChoice = budget.variant;
    std::string cpAsyncWhy;
    FailureOr<int64_t> width = getCpAsyncCopyWidth(*info, cpAsyncWhy);
    if (autoChoice == PipelineVariant::CpAsync) {
      if (failed(width)) {
        autoChoice = PipelineVariant::LdgRegister;
        autoReasons.push_back("cp.async not possible: " + cpAsyncWhy +
                              "; falling back to ldg-register");
      } else if (*width < 16) {
        // Measured: SGEMM with 4-byte cp.async (transposed tile stores) ran
        // 0.84x its baseline on an H200, ldg-register 1.16x
        // (integration/results/2026-11-29-h200-pipelining).
        autoChoice = PipelineVariant::LdgRegister;
        autoReasons.push_back(llvm::formatv(
            "cp.async would copy only {0} bytes per instruction (16-byte "
            "copies need contiguous, 16-byte aligned tiles); narrow cp.async "
            "measured slower than ldg-register on an H200: ldg-register "
            "(variant=cp-async forces it)",
            *width));
      }
    }

    SmallVector<std::string> reasons;
    PipelineVariant chosen = autoChoice;
    if (forced) {
      chosen = *forced;
      reasons.push_back(("variant=" + stringifyPipelineVariant(chosen) +
                         " requested (auto would pick " +
                         stringifyPipelineVariant(autoChoice) + ")")
                            .str());
      if (chosen != PipelineVariant::RegisterPrefetch &&
          (budget.exceedsPerBlockMax || budget.crossesCliff))
        reasons.push_back(llvm::formatv(
            "warning: {0} bytes with {1} stages cross the {2} budget "
            "(blocks/SM {3} -> {4})",
            budget.smemMultiBytes, budget.stages, target.arch,
            budget.single.blocksPerSM, budget.multi.blocksPerSM));
      if (chosen == PipelineVariant::CpAsync && failed(width)) {
        chosen = PipelineVariant::LdgRegister;
        reasons.push_back("cp.async not possible: " + cpAsyncWhy +
                          "; falling back to ldg-register");
      }
    } else {
      reasons = std::move(autoReasons);
    }

    llvm::json::Object json = toJSON(*info, budget);
    bool pipelined = false;
    int64_t effectiveStages = 0;
    if (chosen != PipelineVariant::None) {
      IRRewriter rewriter(forOp.getContext());
      PipelineKLoopOptions pipeOptions;
      pipeOptions.variant = chosen;
      pipeOptions.stages = budget.stages;
      pipeOptions.schedule = scheduleKind;
      pipeOptions.staticSharedMemoryLimit = target.smemPerBlockDefault;
      effectiveStages = getEffectiveStages(*info, pipeOptions);
      std::string why;
      Location loc = forOp.getLoc();
      if (succeeded(pipelineKLoop(rewriter, *info, pipeOptions, why))) {
        pipelined = true;
      } else {
        LDBG() << "loop at " << locationToString(loc)
               << " not pipelined: " << why << " -> BAIL";
        reasons.push_back("not pipelined: " + why);
      }
      emitDecision(loc, pipelined, chosen, effectiveStages, reasons);
    } else {
      emitDecision(forOp.getLoc(), false, chosen, 0, reasons);
    }

    llvm::json::Array jsonReasons;
    for (const std::string &r : reasons)
      jsonReasons.push_back(r);
    json["decision"] = llvm::json::Object{
        {"pipelined", pipelined},
        {"variant", stringifyPipelineVariant(chosen)},
        {"stages", effectiveStages},
        {"reasons", std::move(jsonReasons)},
    };
    return llvm::formatv("{0}\n", llvm::json::Value(std::move(json))).str();
  }

  void emitDecision(Location loc, bool pipelined, PipelineVariant variant,
                    int64_t buffers, ArrayRef<std::string> reasons) {
    InFlightDiagnostic diag = mlir::emitRemark(loc);
    if (pipelined)
      diag << "pipelined: variant " << stringifyPipelineVariant(variant) << ", "
           << buffers << " shared buffer(s)";
    else
      diag << "not pipelined";
    for (const std::string &reason : reasons)
      diag << "; " << reason;
  }
};
} // namespace
