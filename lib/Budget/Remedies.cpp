//===- Remedies.cpp - Sized remedies for a K-loop over its budget ---------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// The pipelining procedure's remedies when multi-buffering crosses the budget
// (halve BK, halve BM or BN, register prefetch), each with the shared
// memory and blocks/SM it leads to. Tests: test/pk-check-smem-budget*.mlir.
//
//===----------------------------------------------------------------------===//

#include "pk/Budget.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/raw_ostream.h"

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
  s.single =
      saturatingAdd(info.smemSingleBytes - info.smemPerStageBytes, perStage);
  s.multi = saturatingAdd(s.single, saturatingMul(budget.stages - 1, perStage));
  s.occ = computeOccupancy(*budget.target, budget.threadsPerBlock,
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

/// Halving BK: every copied tile has a BK extent.
static std::string describeHalvedBK(const KLoopInfo &info,
                                    const KLoopBudget &budget) {
  int64_t perStage = info.smemPerStageBytes;
  Shrunk bk;
  int halvings = 0;
  do {
    perStage /= 2;
    ++halvings;
    bk = shrink(info, budget, perStage);
  } while (!bk.fits && halvings < 3);
  return (llvm::Twine("halve BK") +
          (halvings > 1 ? llvm::formatv(" {0} times", halvings).str()
                        : std::string()) +
          " (" + describeShrunk(bk, budget.stages) + ")")
      .str();
}

std::string mlir::pk::describeRemedies(const KLoopInfo &info,
                                       const KLoopBudget &budget) {
  SmallVector<std::string> remedies;
  // A wgmma tile's K extent is fixed: 64 f16 values make the 128-byte rows of
  // the 128B swizzle (docs/hopper.md).
  if (info.warpgroupMmas.empty())
    remedies.push_back(describeHalvedBK(info, budget));

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
    remedies.push_back(llvm::formatv("halve the tile copied from {0} into {1} "
                                     "(BM or BN; {2})",
                                     srcName, names,
                                     describeShrunk(s, budget.stages))
                           .str());
  }
  // TMA loads stay TMA loads (rule tma-input), into tiles the host's
  // tensor maps size: fewer stages is the remedy.
  if (info.tma) {
    int64_t limit = budget.exceedsPerBlockMax ? budget.target->smemPerBlockOptIn
                                              : budget.cliffBytes;
    int64_t fixed = budget.smemSingleBytes - info.smemPerStageBytes;
    int64_t most = info.smemPerStageBytes > 0
                       ? (limit - fixed) / info.smemPerStageBytes
                       : 0;
    remedies.push_back(
        most >= 2
            ? llvm::formatv("use at most {0} stages ({1} bytes; the TMA tiles "
                            "stay as the tensor maps size them)",
                            most, fixed + most * info.smemPerStageBytes)
                  .str()
            : std::string("shrink the TMA boxes (the host's tensor maps): "
                          "not even 2 stages fit"));
    return llvm::join(remedies, "; or ");
  }
  // Register prefetch without doubling.
  int64_t stagingRegs =
      llvm::divideCeil(info.smemPerStageBytes, info.threadsPerBlock * 4);
  remedies.push_back(
      llvm::formatv("prefetch through registers without doubling "
                    "(variant=register-prefetch: {0} bytes, {1} blocks/SM, "
                    "about {2} more registers per thread for staging)",
                    budget.smemSingleBytes, budget.single.blocksPerSM,
                    stagingRegs)
          .str());
  return llvm::join(remedies, "; or ");
}
