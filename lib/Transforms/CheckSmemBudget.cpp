//===- CheckSmemBudget.cpp - pk-check-smem-budget -------------------------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The seed procedure's Step 1: multi-buffering a K-loop replicates the
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

#include "pk/KLoopAnalysis.h"
#include "pk/Passes.h"

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
/// The shared memory and occupancy after shrinking the per-stage part.
struct Shrunk {
  int64_t perStage, single, multi;
  Occupancy occ;
  bool fits;
};
} // namespace

/// Recomputes the budget when the copied buffers shrink to `perStage` bytes.
static Shrunk shrink(const KLoopInfo &info, const KLoopBudget &budget,
                     int64_t perStage) {
  Shrunk s;
  s.perStage = perStage;
  s.single = info.smemSingleBytes - info.smemPerStageBytes + perStage;
  s.multi = s.single + (budget.stages - 1) * perStage;
  s.occ = computeOccupancy(*budget.target, info.threadsPerBlock,
                           budget.regsPerThread, s.multi);
  s.fits = s.multi <= budget.target->smemPerBlockOptIn &&
           s.occ.blocksPerSM >=
               std::min(budget.minBlocksPerSM, budget.single.blocksPerSM);
  return s;
}

static std::string describeShrunk(const Shrunk &s, int64_t stages) {
  return llvm::formatv("{0} bytes per stage, {1} bytes with {2} stages, "
                       "{3} blocks/SM{4}",
                       s.perStage, s.multi, stages, s.occ.blocksPerSM,
                       s.fits ? "" : " (still over)")
      .str();
}

/// The seed's remedies, with the sizes they lead to.
static std::string buildRemedies(const KLoopInfo &info,
                                 const KLoopBudget &budget) {
  std::string out;
  llvm::raw_string_ostream os(out);
  // Halve BK: every copied tile has a BK extent.
  int64_t perStage = info.smemPerStageBytes;
  Shrunk bk;
  int halvings = 0;
  do {
    perStage /= 2;
    ++halvings;
    bk = shrink(info, budget, perStage);
  } while (!bk.fits && halvings < 3);
  os << "halve BK"
     << (halvings > 1 ? llvm::formatv(" {0} times", halvings).str()
                      : std::string())
     << " (" << describeShrunk(bk, budget.stages) << ")";

  // Halve the tile copied from one source (BM for A, BN for B).
  llvm::SmallVector<Value> sources;
  for (const SharedBuffer &buffer : info.buffers)
    if (buffer.copied && buffer.source &&
        !llvm::is_contained(sources, buffer.source))
      sources.push_back(buffer.source);
  for (Value source : sources) {
    int64_t bytes = 0;
    std::string names;
    for (const SharedBuffer &buffer : info.buffers) {
      if (!buffer.copied || buffer.source != source)
        continue;
      bytes += buffer.bytes;
      names += (names.empty() ? "" : ", ") + buffer.name;
    }
    std::string srcName;
    if (auto arg = dyn_cast<BlockArgument>(source))
      srcName = llvm::formatv("%arg{0}", arg.getArgNumber()).str();
    else
      srcName = source.getDefiningOp()->getName().getStringRef().str();
    Shrunk s = shrink(info, budget, info.smemPerStageBytes - bytes / 2);
    os << "; or halve the tile copied from " << srcName << " into " << names
       << " (BM or BN; " << describeShrunk(s, budget.stages) << ")";
  }
  // Register prefetch without doubling.
  int64_t stagingRegs =
      llvm::divideCeil(info.smemPerStageBytes, info.threadsPerBlock * 4);
  os << "; or prefetch through registers without doubling "
        "(variant=register-prefetch: "
     << budget.smemSingleBytes << " bytes, " << budget.single.blocksPerSM
     << " blocks/SM, about " << stagingRegs
     << " more registers per thread for staging)";
  return out;
}

namespace {
struct CheckSmemBudgetPass final
    : public pk::impl::PKCheckSmemBudgetBase<CheckSmemBudgetPass> {
  using Base::Base;

  void runOnOperation() final {
    ModuleOp module = getOperation();
    FailureOr<KLoopAnalysisOptions> parsed = parseAnalysisOptions(
        module, arch, stages, minBlocksPerSM, blockSize, regsPerThread);
    if (failed(parsed))
      return signalPassFailure();
    KLoopAnalysisOptions options = *parsed;
    const TargetInfo *target = options.target;

    bool failedAny = false;
    forEachKLoop(module, blockSize, /*remarkOnMismatch=*/false,
                 [&](KLoopInfo &info) {
                   if (failed(checkLoop(info, *target, options)))
                     failedAny = true;
                 });
    if (failedAny)
      signalPassFailure();
  }

  LogicalResult checkLoop(KLoopInfo &info, const TargetInfo &target,
                          const KLoopAnalysisOptions &options) {
    KLoopBudget budget = analyzeBudget(info, target, options);
    std::string occupancy = llvm::formatv(
        "blocks/SM {0} -> {1}, limited by {2}", budget.single.blocksPerSM,
        budget.multi.blocksPerSM, stringifyOccupancyLimit(budget.multi.limit));
    if (budget.exceedsPerBlockMax || budget.crossesCliff) {
      InFlightDiagnostic diag = mlir::emitError(info.forOp.getLoc());
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
           << "); remedies: " << buildRemedies(info, budget);
      LDBG() << "budget exceeded at " << locationToString(info.forOp.getLoc());
      return failure();
    }
    InFlightDiagnostic remark = mlir::emitRemark(info.forOp.getLoc());
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
