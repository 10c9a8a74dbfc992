//===- StageModel.cpp - stages=auto: the latency and budget model ---------===//
//
// Part of pk (Pipeline Kernel).
//
//===----------------------------------------------------------------------===//
//
// stages=auto (docs/stages.md): enough tiles in flight to cover the memory
// latency with the compute of the others, within the shared-memory budget.
// Tests: test/e2e/pipeline-kernel.test (AUTO), test/pk-analyze-kloops.mlir.
//
//===----------------------------------------------------------------------===//

#include "DecisionInternal.h"

#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::pk;
using namespace mlir::pk::detail;

/// FLOPs x blocks / (FLOPs per cycle per SM), at least 1.
int64_t mlir::pk::detail::computeCyclesPerTile(const KLoopInfo &info,
                                               const TargetInfo &target,
                                               int64_t blocks) {
  // INT8 mma runs at twice the FP16 rate, and so does a warpgroup MMA
  // (Hopper's dense wgmma peak is about twice what mma.sync reaches).
  int64_t mmaRate = target.mmaFlopsPerCycle * (info.mmaInt8 ? 2 : 1) *
                    (info.warpgroupMmas.empty() ? 1 : 2);
  return std::max<int64_t>(
      1, saturatingAdd(
             llvm::divideCeil(saturatingMul(info.mmaFlopsPerTile, blocks),
                              mmaRate),
             llvm::divideCeil(saturatingMul(info.fmaFlopsPerTile, blocks),
                              target.fmaFlopsPerCycle)));
}

/// The most buffers that keep the per-block maximum and the blocks/SM
/// target (or the single-buffered kernel's blocks/SM when lower).
static int64_t budgetStages(const DecisionContext &ctx,
                            const KLoopBudget &single) {
  const KLoopInfo &info = ctx.info;
  int64_t maxStages = capByTripCount(info, kMaxStages);
  int64_t best = 1;
  for (int64_t n = 2; n <= maxStages; ++n) {
    int64_t bytes = info.smemMultiBytes(n);
    Occupancy occ = computeOccupancy(ctx.target, single.threadsPerBlock,
                                     single.regsPerThread, bytes);
    if (bytes <= ctx.target.smemPerBlockOptIn &&
        occ.blocksPerSM >=
            std::min(ctx.options.minBlocksPerSM, single.single.blocksPerSM))
      best = n;
  }
  return best;
}

int64_t mlir::pk::detail::chooseStages(const DecisionContext &ctx,
                                       const KLoopBudget &single,
                                       StageModel &model,
                                       SmallVectorImpl<std::string> &reasons) {
  int64_t blocks = std::max<int64_t>(single.single.blocksPerSM, 1);
  model.computeCyclesPerTile =
      detail::computeCyclesPerTile(ctx.info, ctx.target, blocks);
  model.latencyCycles = ctx.target.memoryLatencyCycles;
  model.latencyStages =
      1 + llvm::divideCeil(model.latencyCycles, model.computeCyclesPerTile);
  model.budgetStages = budgetStages(ctx, single);
  int64_t stages =
      std::clamp<int64_t>(model.latencyStages, kMinStages,
                          std::max<int64_t>(model.budgetStages, kMinStages));
  reasons.push_back(llvm::formatv(
      "stages=auto: a tile computes in ~{0} cycles with {1} block(s)/SM "
      "against ~{2} cycles of memory latency, so {3} tiles in flight hide "
      "it; the budget allows {4}: {5} stages",
      model.computeCyclesPerTile, blocks, model.latencyCycles,
      model.latencyStages, model.budgetStages, stages));
  return stages;
}
